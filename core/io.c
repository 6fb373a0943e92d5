/* io.c - sources and sinks over descriptors, files and memory */
#include "io.h"
#include "buffers.h"
#include "algo.h"
#include "mapsource.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdatomic.h>
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

gpg_error_t
pl_source_check (pl_source *src)
{
  return src && src->check ? src->check (src) : 0;
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

static gpg_error_t
memory_source_borrow (pl_source *self, size_t len, const uint8_t **p,
                      size_t *n)
{
  memory_source *m = (memory_source *) self;

  *n = m->len - m->pos < len ? m->len - m->pos : len;
  *p = m->data + m->pos;
  m->pos += *n;
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
  m->base.borrow = memory_source_borrow;
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
  fd_source *s;
  pl_source *mapped;
  struct stat st;

  if (pl_source_should_map (fd)
      && !pl_source_new_mapped (fd, close_fd, &mapped))
    return mapped;
  s = calloc (1, sizeof *s);
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

/* Up to here the octets are malloc's; from here on they are the pool's
 * (buffers.h), kept warm for the next sink: a test or a padlock-sop that
 * collects megabytes in memory again and again faults them in once, and
 * AddressSanitizer no longer maps, poisons and quarantines each copy. */
#define MEMORY_POOL_MIN ((size_t) 64 << 10)

static void
memory_sink_release (uint8_t *data, size_t cap, size_t len)
{
  if (cap >= MEMORY_POOL_MIN)
    pl_buffer_give (data, cap, len);
  else
    free (data);
}

/* Moves M's octets to CAP octets of room; -1: out of memory. */
static int
memory_sink_grow (memory_sink *m, size_t cap)
{
  uint8_t *p;

  if (cap < MEMORY_POOL_MIN)
    {
      if (!(p = realloc (m->data, cap)))
        return -1;
    }
  else
    {
      if (!(p = pl_buffer_take (cap)))
        return -1;
      if (m->len)
        memcpy (p, m->data, m->len);
      memory_sink_release (m->data, m->cap, m->len);
    }
  m->data = p;
  m->cap = cap;
  return 0;
}

static gpg_error_t
memory_sink_write (pl_sink *self, const void *buf, size_t len)
{
  memory_sink *m = (memory_sink *) self;

  if (m->len + len > m->cap)
    {
      size_t cap = m->cap ? m->cap : 4096;
      while (cap < m->len + len)
        cap *= 2;
      if (memory_sink_grow (m, cap))
        return gpg_error (GPG_ERR_ENOMEM);
    }
  if (len)
    memcpy (m->data + m->len, buf, len);
  m->len += len;
  return 0;
}

static gpg_error_t
memory_sink_write_at (pl_sink *self, uint64_t off, const void *buf,
                      size_t len)
{
  memory_sink *m = (memory_sink *) self;

  if (off > m->len || len > m->len - off)
    return gpg_error (GPG_ERR_INV_ARG);
  if (len)
    memcpy (m->data + off, buf, len);
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
  /* What an aborted job left is not kept, even in the pool. */
  if (m->len)
    pl_wipe (m->data, m->len);
  m->len = 0;
}

static void
memory_sink_free (pl_sink *self)
{
  memory_sink *m = (memory_sink *) self;
  memory_sink_release (m->data, m->cap, m->len);
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
  m->base.write_at = memory_sink_write_at;
  return &m->base;
}

pl_sink *
pl_sink_new_memory_reserve (size_t cap)
{
  pl_sink *sink = pl_sink_new_memory ();
  memory_sink *m = (memory_sink *) sink;

  if (!sink || !cap)
    return sink;
  if (memory_sink_grow (m, cap))
    {
      free (m);
      return NULL;
    }
  return sink;
}

const uint8_t *
pl_sink_memory_data (pl_sink *sink, size_t *len)
{
  memory_sink *m = (memory_sink *) sink;
  *len = m->len;
  return m->data;
}

/* write (), or pwrite () at OFF when OFF is not -1, until LEN octets
 * are written, retrying short writes and EINTR. */
static gpg_error_t
write_all_at (int fd, int64_t off, const void *buf, size_t len)
{
  const uint8_t *p = buf;

  if (off >= 0 && (uint64_t) off > (uint64_t) INT64_MAX - len)
    return gpg_error (GPG_ERR_INV_ARG);
  while (len)
    {
      size_t want = len > (size_t) SSIZE_MAX ? SSIZE_MAX : len;
      ssize_t n = off < 0 ? write (fd, p, want)
                          : pwrite (fd, p, want, (off_t) off);
      if (n < 0)
        {
          if (errno == EINTR)
            continue;
          return pl_error_from_errno (errno);
        }
      if (n == 0)               /* no progress, and no errno to say why */
        return gpg_error (GPG_ERR_EIO);
      p += n;
      if (off >= 0)
        off += n;
      len -= (size_t) n;
    }
  return 0;
}

gpg_error_t
pl_write_all (int fd, const void *buf, size_t len)
{
  return write_all_at (fd, -1, buf, len);
}

/* Cuts LEN back to the start of a UTF-8 character of S. */
static size_t
utf8_boundary (const char *s, size_t len)
{
  while (len > 0 && ((unsigned char) s[len] & 0xc0) == 0x80)
    len--;
  return len;
}

gpg_error_t
pl_file_name_numbered (const char *name, const char *suffix,
                       unsigned attempt, char *buf, size_t size)
{
  char number[16] = "";
  const char *ext;
  size_t stem_len, ext_len, fixed;

  if (!suffix)
    suffix = "";
  if (size < NAME_MAX + 1)
    return gpg_error (GPG_ERR_ENAMETOOLONG);
  if (attempt)
    snprintf (number, sizeof number, " (%u)", attempt);
  ext = strrchr (name, '.');
  if (!ext || ext == name)
    ext = name + strlen (name);
  stem_len = (size_t) (ext - name);
  ext_len = strlen (ext);
  fixed = strlen (number) + ext_len + strlen (suffix);
  if (fixed >= NAME_MAX)
    {
      /* An extension too long to keep: it is shortened with the stem. */
      stem_len += ext_len;
      ext_len = 0;
      fixed = strlen (number) + strlen (suffix);
      if (fixed >= NAME_MAX)
        return gpg_error (GPG_ERR_ENAMETOOLONG);
    }
  if (stem_len + fixed > NAME_MAX)
    stem_len = utf8_boundary (name, NAME_MAX - fixed);
  if (!stem_len)
    return gpg_error (GPG_ERR_ENAMETOOLONG);
  snprintf (buf, size, "%.*s%s%.*s%s", (int) stem_len, name, number,
            (int) ext_len, ext, suffix);
  return 0;
}

/* Room made ahead in a regular file (pl_sink's allocate): END is the
 * furthest octet allocated so far, 0 for none. */
static gpg_error_t
room_allocate (int fd, _Atomic uint64_t *end, uint64_t off, uint64_t len)
{
  uint64_t to = off + len, seen;

  if (fd < 0)
    return gpg_error (GPG_ERR_EBADF);
  if (off > (uint64_t) INT64_MAX || len > (uint64_t) INT64_MAX - off)
    return gpg_error (GPG_ERR_INV_ARG);
  if (fallocate (fd, FALLOC_FL_KEEP_SIZE, (off_t) off, (off_t) len))
    return errno == EOPNOTSUPP ? gpg_error (GPG_ERR_NOT_SUPPORTED)
                               : pl_error_from_errno (errno);
  seen = atomic_load (end);
  while (seen < to && !atomic_compare_exchange_weak (end, &seen, to))
    ;
  return 0;
}

/* Frees what room_allocate made past the file's end: the octets were
 * never written, and a file must not hold more than it shows.  Both
 * ways, since each filesystem frees with one: a hole punched past the
 * end (tmpfs; ext4 ignores a hole past its length), and a truncation to
 * the length the file has (ext4 and tmpfs free everything past it, even
 * when the length does not change). */
static void
room_give_back (int fd, _Atomic uint64_t *end)
{
  uint64_t to = atomic_exchange (end, 0);
  struct stat st;

  if (!to || fd < 0 || fstat (fd, &st) || (uint64_t) st.st_size >= to)
    return;
  if (fallocate (fd, FALLOC_FL_PUNCH_HOLE | FALLOC_FL_KEEP_SIZE, st.st_size,
                 (off_t) (to - (uint64_t) st.st_size)))
    { /* the truncation below is the other way */ }
  if (ftruncate (fd, st.st_size))
    { /* nothing more to try: the room stays until the file goes */ }
}

/* File sink: a temporary file in a folder that gets its name at commit. */
typedef struct
{
  pl_sink base;
  int fd;
  int dir_fd;
  char *dir;
  char *name;                   /* the planned name */
  char *tmp_name;               /* mkstemp fallback; NULL: O_TMPFILE */
  pl_file_name_fn name_fn;
  void *user_data;
  char *path;                   /* set at commit */
  _Atomic uint64_t room;        /* room_allocate's end */
} file_sink;

/* Ten thousand outputs of one name in one folder: surely a loop. */
#define MAX_ATTEMPTS 10000

static gpg_error_t
file_sink_write (pl_sink *self, const void *buf, size_t len)
{
  file_sink *f = (file_sink *) self;
  if (f->fd < 0)
    return gpg_error (GPG_ERR_EBADF);
  return pl_write_all (f->fd, buf, len);
}

static gpg_error_t
file_sink_allocate (pl_sink *self, uint64_t off, uint64_t len)
{
  file_sink *f = (file_sink *) self;
  return room_allocate (f->fd, &f->room, off, len);
}

static gpg_error_t
file_sink_write_at (pl_sink *self, uint64_t off, const void *buf, size_t len)
{
  file_sink *f = (file_sink *) self;
  if (f->fd < 0)
    return gpg_error (GPG_ERR_EBADF);
  return off > INT64_MAX ? gpg_error (GPG_ERR_INV_ARG)
                         : write_all_at (f->fd, (int64_t) off, buf, len);
}

static gpg_error_t
file_sink_name (file_sink *f, unsigned attempt, char *buf, size_t size)
{
  gpg_error_t err;

  if (attempt >= MAX_ATTEMPTS || (!f->name_fn && attempt))
    return gpg_error (GPG_ERR_EEXIST);
  if (f->name_fn)
    {
      err = f->name_fn (f->user_data, attempt, buf, size);
      if (err)
        return err;
    }
  else if (strlen (f->name) < size)
    strcpy (buf, f->name);
  else
    return gpg_error (GPG_ERR_ENAMETOOLONG);
  if (!*buf || strchr (buf, '/') || strlen (buf) > NAME_MAX)
    return gpg_error (GPG_ERR_INV_NAME);
  return 0;
}

/* link() and linkat() fail with EEXIST instead of replacing, unlike
 * rename(). */
static int
file_sink_link (file_sink *f, const char *name)
{
  char proc[64];

  if (f->tmp_name)
    return linkat (f->dir_fd, f->tmp_name, f->dir_fd, name, 0);
  snprintf (proc, sizeof proc, "/proc/self/fd/%d", f->fd);
  return linkat (AT_FDCWD, proc, f->dir_fd, name, AT_SYMLINK_FOLLOW);
}

static gpg_error_t
file_sink_commit (pl_sink *self)
{
  file_sink *f = (file_sink *) self;
  char name[NAME_MAX + 1];
  size_t n = strlen (f->dir) + sizeof name + 1;
  char *path;
  gpg_error_t err = 0;

  if (f->fd < 0)
    return gpg_error (GPG_ERR_EBADF);
  room_give_back (f->fd, &f->room);
  if (fsync (f->fd))
    return pl_error_from_errno (errno);
  path = malloc (n);
  if (!path)
    return gpg_error (GPG_ERR_ENOMEM);
  for (unsigned attempt = 0;; attempt++)
    {
      err = file_sink_name (f, attempt, name, sizeof name);
      if (err || !file_sink_link (f, name))
        break;
      if (errno != EEXIST)
        {
          err = pl_error_from_errno (errno);
          break;
        }
    }
  if (err)
    {
      free (path);
      return err;
    }
  snprintf (path, n, "%s/%s", f->dir, name);
  f->path = path;
  if (f->tmp_name)
    {
      unlinkat (f->dir_fd, f->tmp_name, 0);
      free (f->tmp_name);
      f->tmp_name = NULL;
    }
  close (f->fd);
  f->fd = -1;
  /* The new name is durable only once the folder is synced too.  Past
   * the link there is no going back: a folder that cannot be synced
   * (some filesystems refuse) is not an error. */
  fsync (f->dir_fd);
  return 0;
}

static void
file_sink_abort (pl_sink *self)
{
  file_sink *f = (file_sink *) self;

  if (f->path)
    return;
  if (f->fd >= 0)
    {
      /* Drop the data first, so that nothing lingers even if the unlink
       * below races with something. */
      if (ftruncate (f->fd, 0))
        { /* the file goes with the unlink, or with the last close */ }
      close (f->fd);
      f->fd = -1;
    }
  if (f->tmp_name)
    {
      unlinkat (f->dir_fd, f->tmp_name, 0);
      free (f->tmp_name);
      f->tmp_name = NULL;
    }
}

static void
file_sink_free (pl_sink *self)
{
  file_sink *f = (file_sink *) self;

  file_sink_abort (self);
  if (f->dir_fd >= 0)
    close (f->dir_fd);
  free (f->dir);
  free (f->name);
  free (f->path);
  free (f);
}

/* Without O_TMPFILE: a visible NAME.XXXXXX in the folder, cut to fit. */
static gpg_error_t
file_sink_open_fallback (file_sink *f)
{
  size_t name_len = utf8_boundary (f->name, strlen (f->name) < NAME_MAX - 7
                                   ? strlen (f->name) : NAME_MAX - 7);
  size_t n = strlen (f->dir) + name_len + 9;
  char *tmpl = malloc (n);

  if (!tmpl)
    return gpg_error (GPG_ERR_ENOMEM);
  snprintf (tmpl, n, "%s/%.*s.XXXXXX", f->dir, (int) name_len, f->name);
  f->fd = mkostemp (tmpl, O_CLOEXEC);
  if (f->fd < 0)
    {
      gpg_error_t err = pl_error_from_errno (errno);
      free (tmpl);
      return err;
    }
  fchmod (f->fd, 0600);
  f->tmp_name = strdup (strrchr (tmpl, '/') + 1);
  free (tmpl);
  return f->tmp_name ? 0 : gpg_error (GPG_ERR_ENOMEM);
}

gpg_error_t
pl_sink_new_file_in (const char *dir, const char *name,
                     pl_file_name_fn name_fn, void *user_data, pl_sink **out)
{
  file_sink *f;
  gpg_error_t err = 0;
  struct stat st;

  *out = NULL;
  if (!*name || strchr (name, '/'))
    return gpg_error (GPG_ERR_INV_NAME);
  f = calloc (1, sizeof *f);
  if (!f)
    return gpg_error (GPG_ERR_ENOMEM);
  f->fd = -1;
  f->dir_fd = -1;
  f->name_fn = name_fn;
  f->user_data = user_data;
  f->dir = strdup (dir);
  f->name = strdup (name);
  if (!f->dir || !f->name)
    {
      err = gpg_error (GPG_ERR_ENOMEM);
      goto leave;
    }
  f->dir_fd = open (dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  if (f->dir_fd < 0)
    {
      err = pl_error_from_errno (errno);
      goto leave;
    }
  /* With one name only, refuse early, so that no work is wasted; commit
   * checks again. */
  if (!name_fn && !fstatat (f->dir_fd, name, &st, AT_SYMLINK_NOFOLLOW))
    {
      err = gpg_error (GPG_ERR_EEXIST);
      goto leave;
    }
#ifdef O_TMPFILE
  /* open (), not openat (): tests/test-faults.c refuses O_TMPFILE through
   * it to reach the fallback. */
  f->fd = open (dir, O_TMPFILE | O_WRONLY | O_CLOEXEC, 0600);
#endif
  if (f->fd < 0)
    err = file_sink_open_fallback (f);
  if (err)
    goto leave;
  f->base.write = file_sink_write;
  f->base.commit = file_sink_commit;
  f->base.abort = file_sink_abort;
  f->base.free = file_sink_free;
  f->base.allocate = file_sink_allocate;
  f->base.write_at = file_sink_write_at;
  *out = &f->base;
  f = NULL;

 leave:
  if (f)
    file_sink_free (&f->base);
  return err;
}

gpg_error_t
pl_sink_new_file (const char *path, pl_sink **out)
{
  const char *slash = strrchr (path, '/');
  char *dir;
  gpg_error_t err;

  *out = NULL;
  if (!slash)
    return pl_sink_new_file_in (".", path, NULL, NULL, out);
  dir = slash == path ? strdup ("/") : strndup (path, (size_t) (slash - path));
  if (!dir)
    return gpg_error (GPG_ERR_ENOMEM);
  err = pl_sink_new_file_in (dir, slash + 1, NULL, NULL, out);
  free (dir);
  return err;
}

const char *
pl_sink_file_path (pl_sink *sink)
{
  if (!sink || sink->free != file_sink_free)
    return NULL;
  return ((file_sink *) sink)->path;
}

/* Descriptor sink for stdout. */
typedef struct
{
  pl_sink base;
  int fd;
  int regular;                  /* in place, at the end of a regular file */
  int append;                   /* O_APPEND: the offset is not ours */
  off_t start;                  /* the file's length when we began */
  int spool_fd;                 /* -1: write straight through */
  _Atomic uint64_t room;        /* room_allocate's end, in the file */
} fd_sink;

static void fd_sink_abort (pl_sink *self);

static gpg_error_t
fd_sink_write (pl_sink *self, const void *buf, size_t len)
{
  fd_sink *s = (fd_sink *) self;
  return pl_write_all (s->spool_fd >= 0 ? s->spool_fd : s->fd, buf, len);
}

/* Only for a regular file written in place: after what it held. */
static gpg_error_t
fd_sink_allocate (pl_sink *self, uint64_t off, uint64_t len)
{
  fd_sink *s = (fd_sink *) self;
  if (off > (uint64_t) INT64_MAX - (uint64_t) s->start)
    return gpg_error (GPG_ERR_INV_ARG);
  return room_allocate (s->fd, &s->room, (uint64_t) s->start + off, len);
}

/* A regular file written in place (not O_APPEND, whose pwrite appends)
 * or the spool: both files of ours from the sink's first octet on. */
static gpg_error_t
fd_sink_write_at (pl_sink *self, uint64_t off, const void *buf, size_t len)
{
  fd_sink *s = (fd_sink *) self;
  int64_t start = s->spool_fd >= 0 ? 0 : (int64_t) s->start;

  if (off > (uint64_t) (INT64_MAX - start))
    return gpg_error (GPG_ERR_INV_ARG);
  return write_all_at (s->spool_fd >= 0 ? s->spool_fd : s->fd,
                       start + (int64_t) off, buf, len);
}

static gpg_error_t
fd_sink_commit (pl_sink *self)
{
  fd_sink *s = (fd_sink *) self;
  static const size_t blk = 1 << 20;
  uint8_t *buf;
  gpg_error_t err = 0;

  if (s->spool_fd < 0)
    {
      /* Nothing to give back unless allocate ran: a regular file's. */
      room_give_back (s->fd, &s->room);
      return 0;
    }
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
      room_give_back (s->fd, &s->room);
      if (ftruncate (s->fd, s->start) == 0 && !s->append)
        lseek (s->fd, s->start, SEEK_SET);
    }
}

int
pl_sink_fd_restore_point (pl_sink *sink, int *fd, int64_t *length)
{
  fd_sink *s = (fd_sink *) sink;

  if (!sink || sink->abort != fd_sink_abort || !s->regular)
    return 0;
  *fd = s->fd;
  *length = s->start;
  return 1;
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
      int flags = fcntl (fd, F_GETFL);
      off_t pos = lseek (fd, 0, SEEK_CUR);

      /* A fresh O_APPEND descriptor says offset 0 (">>"): the length is
       * what counts, taken now, and restored exactly on failure. */
      s->append = flags >= 0 && (flags & O_APPEND);
      s->start = st.st_size;
      s->regular = s->append || pos == st.st_size;
    }
  if (!s->regular && spool)
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
  if (s->regular && s->spool_fd < 0)
    s->base.allocate = fd_sink_allocate;
  if ((s->regular && !s->append) || s->spool_fd >= 0)
    s->base.write_at = fd_sink_write_at;
  *out = &s->base;
  return 0;
}
