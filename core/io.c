/* io.c - sources and sinks over descriptors, files and memory */
#include "io.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/stat.h>

gpg_error_t
pl_error_from_errno (int e)
{
  return gpg_error_from_errno (e ? e : EIO);
}

gpg_error_t
pl_source_read_full (pl_source *src, void *buf, size_t len, size_t *nread)
{
  size_t got = 0;

  while (got < len)
    {
      size_t n = 0;
      gpg_error_t err = src->read (src, (uint8_t *) buf + got, len - got, &n);
      if (err)
        return err;
      if (!n)
        break;
      got += n;
    }
  *nread = got;
  return 0;
}

void
pl_source_free (pl_source *src)
{
  if (src)
    src->free (src);
}

void
pl_sink_free (pl_sink *sink)
{
  if (sink)
    sink->free (sink);
}

/* Memory source. */
typedef struct
{
  pl_source base;
  const uint8_t *data;
  size_t len, pos;
} memory_source;

static gpg_error_t
memory_source_read (pl_source *self, void *buf, size_t len, size_t *nread)
{
  memory_source *m = (memory_source *) self;
  size_t n = m->len - m->pos < len ? m->len - m->pos : len;

  memcpy (buf, m->data + m->pos, n);
  m->pos += n;
  *nread = n;
  return 0;
}

static void
plain_free (pl_source *self)
{
  free (self);
}

pl_source *
pl_source_new_memory (const void *data, size_t len)
{
  memory_source *m = calloc (1, sizeof *m);
  if (!m)
    return NULL;
  m->base.read = memory_source_read;
  m->base.free = plain_free;
  m->base.size = (int64_t) len;
  m->data = data;
  m->len = len;
  return &m->base;
}

/* Descriptor source. */
typedef struct
{
  pl_source base;
  int fd;
  int close_fd;
} fd_source;

static gpg_error_t
fd_source_read (pl_source *self, void *buf, size_t len, size_t *nread)
{
  fd_source *s = (fd_source *) self;
  ssize_t n;

  if (len > (size_t) SSIZE_MAX)
    len = SSIZE_MAX;
  do
    n = read (s->fd, buf, len);
  while (n < 0 && errno == EINTR);
  if (n < 0)
    return pl_error_from_errno (errno);
  *nread = (size_t) n;
  return 0;
}

static void
fd_source_free (pl_source *self)
{
  fd_source *s = (fd_source *) self;
  if (s->close_fd)
    close (s->fd);
  free (s);
}

pl_source *
pl_source_new_fd (int fd, int close_fd)
{
  fd_source *s = calloc (1, sizeof *s);
  struct stat st;

  if (!s)
    return NULL;
  s->base.read = fd_source_read;
  s->base.free = fd_source_free;
  s->base.size = -1;
  s->fd = fd;
  s->close_fd = close_fd;
  if (!fstat (fd, &st) && S_ISREG (st.st_mode))
    {
      off_t pos = lseek (fd, 0, SEEK_CUR);
      s->base.size = st.st_size - (pos > 0 ? pos : 0);
    }
  /* We read sequentially, in large blocks. */
  posix_fadvise (fd, 0, 0, POSIX_FADV_SEQUENTIAL);
  return &s->base;
}

gpg_error_t
pl_source_new_file (const char *path, pl_source **out)
{
  int fd = open (path, O_RDONLY | O_CLOEXEC);
  struct stat st;

  *out = NULL;
  if (fd < 0)
    return pl_error_from_errno (errno);
  if (fstat (fd, &st) || S_ISDIR (st.st_mode))
    {
      int e = errno ? errno : EISDIR;
      close (fd);
      return pl_error_from_errno (S_ISDIR (st.st_mode) ? EISDIR : e);
    }
  *out = pl_source_new_fd (fd, 1);
  if (!*out)
    {
      close (fd);
      return gpg_error (GPG_ERR_ENOMEM);
    }
  return 0;
}

/* Memory sink. */
typedef struct
{
  pl_sink base;
  uint8_t *data;
  size_t len, cap;
} memory_sink;

static gpg_error_t
memory_sink_write (pl_sink *self, const void *buf, size_t len)
{
  memory_sink *m = (memory_sink *) self;

  if (m->len + len > m->cap)
    {
      size_t cap = m->cap ? m->cap : 4096;
      uint8_t *p;
      while (cap < m->len + len)
        cap *= 2;
      p = realloc (m->data, cap);
      if (!p)
        return gpg_error (GPG_ERR_ENOMEM);
      m->data = p;
      m->cap = cap;
    }
  if (len)
    memcpy (m->data + m->len, buf, len);
  m->len += len;
  return 0;
}

static gpg_error_t
memory_sink_commit (pl_sink *self)
{
  return 0;
}

static void
memory_sink_abort (pl_sink *self)
{
  memory_sink *m = (memory_sink *) self;
  m->len = 0;
}

static void
memory_sink_free (pl_sink *self)
{
  memory_sink *m = (memory_sink *) self;
  free (m->data);
  free (m);
}

pl_sink *
pl_sink_new_memory (void)
{
  memory_sink *m = calloc (1, sizeof *m);
  if (!m)
    return NULL;
  m->base.write = memory_sink_write;
  m->base.commit = memory_sink_commit;
  m->base.abort = memory_sink_abort;
  m->base.free = memory_sink_free;
  return &m->base;
}

const uint8_t *
pl_sink_memory_data (pl_sink *sink, size_t *len)
{
  memory_sink *m = (memory_sink *) sink;
  *len = m->len;
  return m->data;
}

gpg_error_t
pl_write_all (int fd, const void *buf, size_t len)
{
  const uint8_t *p = buf;

  while (len)
    {
      ssize_t n = write (fd, p, len > (size_t) SSIZE_MAX ? SSIZE_MAX : len);
      if (n < 0)
        {
          if (errno == EINTR)
            continue;
          return pl_error_from_errno (errno);
        }
      p += n;
      len -= (size_t) n;
    }
  return 0;
}

/* File sink: a temporary file that becomes PATH at commit. */
typedef struct
{
  pl_sink base;
  int fd;
  char *path;
  char *tmp_path;               /* NULL for O_TMPFILE */
  int committed;
} file_sink;

static gpg_error_t
file_sink_write (pl_sink *self, const void *buf, size_t len)
{
  file_sink *f = (file_sink *) self;
  if (f->fd < 0)
    return gpg_error (GPG_ERR_EBADF);
  return pl_write_all (f->fd, buf, len);
}

static gpg_error_t
file_sink_commit (pl_sink *self)
{
  file_sink *f = (file_sink *) self;
  char proc[64];

  if (f->fd < 0)
    return gpg_error (GPG_ERR_EBADF);
  if (fsync (f->fd))
    return pl_error_from_errno (errno);
  if (f->tmp_path)
    {
      /* link() fails with EEXIST instead of replacing, unlike rename(). */
      if (link (f->tmp_path, f->path))
        return pl_error_from_errno (errno);
      unlink (f->tmp_path);
      free (f->tmp_path);
      f->tmp_path = NULL;
    }
  else
    {
      snprintf (proc, sizeof proc, "/proc/self/fd/%d", f->fd);
      if (linkat (AT_FDCWD, proc, AT_FDCWD, f->path, AT_SYMLINK_FOLLOW))
        return pl_error_from_errno (errno);
    }
  f->committed = 1;
  close (f->fd);
  f->fd = -1;
  return 0;
}

static void
file_sink_abort (pl_sink *self)
{
  file_sink *f = (file_sink *) self;

  if (f->committed)
    return;
  if (f->fd >= 0)
    {
      /* Drop the data first, so that nothing lingers even if the unlink
       * below races with something. */
      if (ftruncate (f->fd, 0))
        {
          /* Nothing more to do: the file goes with the unlink. */
        }
      close (f->fd);
      f->fd = -1;
    }
  if (f->tmp_path)
    {
      unlink (f->tmp_path);
      free (f->tmp_path);
      f->tmp_path = NULL;
    }
}

static void
file_sink_free (pl_sink *self)
{
  file_sink *f = (file_sink *) self;
  file_sink_abort (self);
  free (f->path);
  free (f);
}

gpg_error_t
pl_sink_new_file (const char *path, pl_sink **out)
{
  file_sink *f;
  char *dir, *slash;
  gpg_error_t err = 0;
  struct stat st;

  *out = NULL;
  /* Refuse early, so that no work is wasted; commit checks again. */
  if (!lstat (path, &st))
    return gpg_error (GPG_ERR_EEXIST);
  f = calloc (1, sizeof *f);
  if (!f)
    return gpg_error (GPG_ERR_ENOMEM);
  f->fd = -1;
  f->path = strdup (path);
  dir = strdup (path);
  if (!f->path || !dir)
    {
      err = gpg_error (GPG_ERR_ENOMEM);
      goto leave;
    }
  slash = strrchr (dir, '/');
  if (!slash)
    strcpy (dir, ".");
  else if (slash == dir)
    dir[1] = 0;
  else
    *slash = 0;

#ifdef O_TMPFILE
  f->fd = open (dir, O_TMPFILE | O_WRONLY | O_CLOEXEC, 0600);
#endif
  if (f->fd < 0)
    {
      size_t n = strlen (path) + 16;
      f->tmp_path = malloc (n);
      if (!f->tmp_path)
        {
          err = gpg_error (GPG_ERR_ENOMEM);
          goto leave;
        }
      snprintf (f->tmp_path, n, "%s.XXXXXX", path);
      f->fd = mkostemp (f->tmp_path, O_CLOEXEC);
      if (f->fd < 0)
        {
          err = pl_error_from_errno (errno);
          goto leave;
        }
      fchmod (f->fd, 0600);
    }
  f->base.write = file_sink_write;
  f->base.commit = file_sink_commit;
  f->base.abort = file_sink_abort;
  f->base.free = file_sink_free;
  *out = &f->base;
  f = NULL;

 leave:
  free (dir);
  if (f)
    {
      free (f->tmp_path);
      free (f->path);
      free (f);
    }
  return err;
}

/* Descriptor sink for stdout. */
typedef struct
{
  pl_sink base;
  int fd;
  int regular;
  off_t start;
  int spool_fd;                 /* -1: write straight through */
} fd_sink;

static gpg_error_t
fd_sink_write (pl_sink *self, const void *buf, size_t len)
{
  fd_sink *s = (fd_sink *) self;
  return pl_write_all (s->spool_fd >= 0 ? s->spool_fd : s->fd, buf, len);
}

static gpg_error_t
fd_sink_commit (pl_sink *self)
{
  fd_sink *s = (fd_sink *) self;
  static const size_t blk = 1 << 20;
  uint8_t *buf;
  gpg_error_t err = 0;

  if (s->spool_fd < 0)
    return 0;
  if (lseek (s->spool_fd, 0, SEEK_SET) < 0)
    return pl_error_from_errno (errno);
  buf = malloc (blk);
  if (!buf)
    return gpg_error (GPG_ERR_ENOMEM);
  for (;;)
    {
      ssize_t n = read (s->spool_fd, buf, blk);
      if (n < 0 && errno == EINTR)
        continue;
      if (n < 0)
        {
          err = pl_error_from_errno (errno);
          break;
        }
      if (!n)
        break;
      err = pl_write_all (s->fd, buf, (size_t) n);
      if (err)
        break;
    }
  free (buf);
  close (s->spool_fd);
  s->spool_fd = -1;
  return err;
}

static void
fd_sink_abort (pl_sink *self)
{
  fd_sink *s = (fd_sink *) self;

  if (s->spool_fd >= 0)
    {
      if (ftruncate (s->spool_fd, 0))
        { /* closed below; the unlinked file vanishes anyway */ }
      close (s->spool_fd);
      s->spool_fd = -1;
    }
  else if (s->regular)
    {
      if (ftruncate (s->fd, s->start) == 0)
        lseek (s->fd, s->start, SEEK_SET);
    }
}

static void
fd_sink_free (pl_sink *self)
{
  fd_sink *s = (fd_sink *) self;
  if (s->spool_fd >= 0)
    close (s->spool_fd);
  free (s);
}

gpg_error_t
pl_sink_new_fd (int fd, int spool, pl_sink **out)
{
  fd_sink *s;
  struct stat st;

  *out = NULL;
  s = calloc (1, sizeof *s);
  if (!s)
    return gpg_error (GPG_ERR_ENOMEM);
  s->fd = fd;
  s->spool_fd = -1;
  if (!fstat (fd, &st) && S_ISREG (st.st_mode))
    {
      s->regular = 1;
      s->start = lseek (fd, 0, SEEK_CUR);
      if (s->start < 0)
        s->start = 0;
    }
  else if (spool)
    {
      const char *tmpdir = getenv ("TMPDIR");
      if (!tmpdir || !*tmpdir)
        tmpdir = "/tmp";
#ifdef O_TMPFILE
      s->spool_fd = open (tmpdir, O_TMPFILE | O_RDWR | O_CLOEXEC, 0600);
#endif
      if (s->spool_fd < 0)
        {
          char tmpl[4096];
          snprintf (tmpl, sizeof tmpl, "%s/padlock-spool.XXXXXX", tmpdir);
          s->spool_fd = mkostemp (tmpl, O_CLOEXEC);
          if (s->spool_fd < 0)
            {
              gpg_error_t err = pl_error_from_errno (errno);
              free (s);
              return err;
            }
          unlink (tmpl);
        }
    }
  s->base.write = fd_sink_write;
  s->base.commit = fd_sink_commit;
  s->base.abort = fd_sink_abort;
  s->base.free = fd_sink_free;
  *out = &s->base;
  return 0;
}
