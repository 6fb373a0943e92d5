/* tar-extract.c - unpacking a tar archive safely, as a sink (see tar.h) */
#include "tar.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <ftw.h>
#include <limits.h>
#include <locale.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <archive.h>
#include <archive_entry.h>

#define READ_CHUNK (1u << 20)

typedef struct
{
  pl_sink base;

  /* Shared with the thread, under LOCK */
  pthread_mutex_t lock;
  pthread_cond_t changed;
  uint8_t *ring;
  size_t head, used;            /* read position and octets held */
  int eof;                      /* commit: no more input */
  int stop;                     /* abort: the thread gives up */
  int done;                     /* the thread has finished */
  gpg_error_t thread_err;

  /* The thread's own */
  pthread_t thread;
  int started;
  uint8_t *chunk;               /* what libarchive reads from */
  struct archive *reader;
  struct archive *writer;
  int tmp_fd;                   /* the hidden folder, for the checks */
  pl_tar_problem problem;
  char *entry;                  /* the entry named in the problem */

  char *dir;                    /* realpath of the destination */
  char *name;
  char *tmp;                    /* dir/.padlock-XXXXXX */
  char *final_path;
  int committed;
} extractor;

/* Ring, writer side: blocks while full; fails once the thread has. */
static gpg_error_t
extractor_write (pl_sink *base, const void *buf, size_t len)
{
  extractor *self = (extractor *) base;
  const uint8_t *p = buf;
  gpg_error_t err = 0;

  pthread_mutex_lock (&self->lock);
  while (len && !self->done)
    {
      size_t tail = (self->head + self->used) % PL_TAR_RING;
      size_t room = PL_TAR_RING - self->used;
      size_t n;

      if (!room)
        {
          pthread_cond_wait (&self->changed, &self->lock);
          continue;
        }
      n = len < room ? len : room;
      if (n > PL_TAR_RING - tail)
        n = PL_TAR_RING - tail;
      memcpy (self->ring + tail, p, n);
      self->used += n;
      p += n;
      len -= n;
      pthread_cond_broadcast (&self->changed);
    }
  err = self->thread_err;
  pthread_mutex_unlock (&self->lock);
  return err;
}

/* Ring, reader side (libarchive's read callback, on the thread). */
static la_ssize_t
read_input (struct archive *a, void *user_data, const void **buf)
{
  extractor *self = user_data;
  size_t n;

  pthread_mutex_lock (&self->lock);
  while (!self->used && !self->eof && !self->stop)
    pthread_cond_wait (&self->changed, &self->lock);
  if (self->stop)
    {
      pthread_mutex_unlock (&self->lock);
      archive_set_error (a, ECANCELED, "cancelled");
      return -1;
    }
  n = self->used < READ_CHUNK ? self->used : READ_CHUNK;
  if (n > PL_TAR_RING - self->head)
    n = PL_TAR_RING - self->head;
  memcpy (self->chunk, self->ring + self->head, n);
  self->head = (self->head + n) % PL_TAR_RING;
  self->used -= n;
  pthread_cond_broadcast (&self->changed);
  pthread_mutex_unlock (&self->lock);
  *buf = self->chunk;
  return (la_ssize_t) n;
}

static gpg_error_t
refuse (extractor *self, pl_tar_problem problem, const char *entry,
        gpg_error_t err)
{
  self->problem = problem;
  free (self->entry);
  self->entry = entry ? strdup (entry) : NULL;
  return err;
}

/* NAME without "." components, empty ones and trailing slashes, into
 * OUT (PATH_MAX).  Refuses absolute names and "..", naming ENTRY (NAME is
 * a hard link's target when HARDLINK).  An empty result is
 * the archive's own top (an entry "./"). */
static gpg_error_t
normalize_name (extractor *self, const char *name, char *out,
                const char *entry, int hardlink)
{
  const char *p = name;
  size_t len = 0;

  if (!name || !*name)
    return refuse (self, PL_TAR_DAMAGED, entry, gpg_error (GPG_ERR_INV_DATA));
  if (*name == '/')
    return refuse (self, hardlink ? PL_TAR_HARDLINK_OUTSIDE : PL_TAR_ABSOLUTE,
                   entry, gpg_error (GPG_ERR_INV_NAME));
  while (*p)
    {
      size_t n = strcspn (p, "/");

      if (n == 2 && p[0] == '.' && p[1] == '.')
        return refuse (self, hardlink ? PL_TAR_HARDLINK_OUTSIDE
                       : PL_TAR_DOTDOT, entry, gpg_error (GPG_ERR_INV_NAME));
      if (n && !(n == 1 && p[0] == '.'))
        {
          if (len + n + 2 >= PATH_MAX)
            return refuse (self, PL_TAR_DAMAGED, entry,
                           gpg_error (GPG_ERR_INV_NAME));
          if (len)
            out[len++] = '/';
          memcpy (out + len, p, n);
          len += n;
        }
      p += n;
      while (*p == '/')
        p++;
    }
  out[len] = 0;
  return 0;
}

/* Checks what the hidden folder holds along PATH (normalized): every
 * folder on the way must be a real folder, never a symbolic link.  *LAST
 * receives the final component's lstat mode, or 0 when it is absent. */
static gpg_error_t
check_path (extractor *self, const char *entry, char *path, mode_t *last)
{
  struct stat st;
  char *slash = path;

  *last = 0;
  while ((slash = strchr (slash, '/')))
    {
      *slash = 0;
      if (fstatat (self->tmp_fd, path, &st, AT_SYMLINK_NOFOLLOW) == 0
          && !S_ISDIR (st.st_mode))
        {
          *slash = '/';
          return refuse (self, PL_TAR_THROUGH_SYMLINK, entry,
                         gpg_error (GPG_ERR_INV_NAME));
        }
      *slash++ = '/';
    }
  if (fstatat (self->tmp_fd, path, &st, AT_SYMLINK_NOFOLLOW) == 0)
    *last = st.st_mode;
  return 0;
}

/* Rebases REL under the hidden folder. */
static char *
under_tmp (extractor *self, const char *rel)
{
  size_t len = strlen (self->tmp) + strlen (rel) + 2;
  char *path = malloc (len);

  if (path)
    snprintf (path, len, "%s/%s", self->tmp, rel);
  return path;
}

/* Our own checks on one entry, then its names rebased.  *SKIP when the
 * entry is the archive's top itself ("./"). */
static gpg_error_t
check_entry (extractor *self, struct archive_entry *e, int *skip)
{
  const char *name = archive_entry_pathname (e);
  const char *link = archive_entry_hardlink (e);
  mode_t type = archive_entry_filetype (e), last;
  char path[PATH_MAX], target[PATH_MAX];
  gpg_error_t err;
  char *full;

  *skip = 0;
  if ((err = normalize_name (self, name, path, name, 0)))
    return err;
  if (!*path)
    {
      *skip = 1;
      return 0;
    }
  if (!link && type != AE_IFREG && type != AE_IFDIR && type != AE_IFLNK)
    return refuse (self, PL_TAR_DEVICE, name, gpg_error (GPG_ERR_INV_NAME));
  if (archive_entry_mode (e) & (S_ISUID | S_ISGID))
    return refuse (self, PL_TAR_SETID, name, gpg_error (GPG_ERR_INV_NAME));
  if ((err = check_path (self, name, path, &last)))
    return err;
  if (last && !(S_ISDIR (last) && type == AE_IFDIR && !link))
    return refuse (self, PL_TAR_DUPLICATE, name, gpg_error (GPG_ERR_INV_NAME));

  if (link)
    {
      if ((err = normalize_name (self, link, target, name, 1)))
        return err;
      if (!*target || check_path (self, name, target, &last)
          || !S_ISREG (last))
        return refuse (self, PL_TAR_HARDLINK_OUTSIDE, name,
                       gpg_error (GPG_ERR_INV_NAME));
      if (!(full = under_tmp (self, target)))
        return gpg_error (GPG_ERR_ENOMEM);
      archive_entry_copy_hardlink (e, full);
      free (full);
    }
  if (!(full = under_tmp (self, path)))
    return gpg_error (GPG_ERR_ENOMEM);
  archive_entry_copy_pathname (e, full);
  free (full);
  /* Sticky goes too; ownership is never restored. */
  archive_entry_set_perm (e, archive_entry_perm (e) & 0777);
  return 0;
}

static gpg_error_t
write_failed (extractor *self, const char *entry)
{
  int e = archive_errno (self->writer);

  refuse (self, PL_TAR_WRITE_FAILED, entry, 0);
  return e > 0 ? pl_error_from_errno (e) : gpg_error (GPG_ERR_INV_NAME);
}

static gpg_error_t
copy_data (extractor *self, const char *entry)
{
  const void *buf;
  size_t len;
  la_int64_t offset;
  int r;

  while ((r = archive_read_data_block (self->reader, &buf, &len, &offset))
         == ARCHIVE_OK)
    if (archive_write_data_block (self->writer, buf, len, offset)
        < ARCHIVE_WARN)
      return write_failed (self, entry);
  if (r != ARCHIVE_EOF)
    return refuse (self, PL_TAR_DAMAGED, entry, gpg_error (GPG_ERR_INV_DATA));
  return 0;
}

static gpg_error_t
unpack_all (extractor *self)
{
  struct archive_entry *e;
  gpg_error_t err = 0;
  char *name = NULL;
  int r, skip;

  while (!err && (r = archive_read_next_header (self->reader, &e))
         == ARCHIVE_OK)
    {
      free (name);
      name = strdup (archive_entry_pathname (e) ? archive_entry_pathname (e)
                     : "");
      if (!name)
        err = gpg_error (GPG_ERR_ENOMEM);
      else if ((err = check_entry (self, e, &skip)) || skip)
        continue;
      else if (archive_write_header (self->writer, e) < ARCHIVE_WARN)
        err = write_failed (self, name);
      else if ((err = copy_data (self, name)))
        continue;
      else if (archive_write_finish_entry (self->writer) < ARCHIVE_WARN)
        err = write_failed (self, name);
    }
  if (!err && r != ARCHIVE_EOF)
    {
      pthread_mutex_lock (&self->lock);
      err = self->stop ? gpg_error (GPG_ERR_CANCELED)
                       : refuse (self, PL_TAR_DAMAGED, name,
                                 gpg_error (GPG_ERR_INV_DATA));
      pthread_mutex_unlock (&self->lock);
    }
  free (name);
  return err;
}

/* The thread: unpacks, then swallows whatever follows the archive's end
 * (blocking padding) so that write() never waits for nobody. */
static void *
extractor_thread (void *data)
{
  extractor *self = data;
  gpg_error_t err;

  err = unpack_all (self);
  pthread_mutex_lock (&self->lock);
  if (!err)
    while (!self->eof && !self->stop)
      {
        self->head = (self->head + self->used) % PL_TAR_RING;
        self->used = 0;
        pthread_cond_broadcast (&self->changed);
        pthread_cond_wait (&self->changed, &self->lock);
      }
  self->thread_err = err;
  self->done = 1;
  pthread_cond_broadcast (&self->changed);
  pthread_mutex_unlock (&self->lock);
  return NULL;
}

static int
open_up (const char *path, const struct stat *st, int flag, struct FTW *ftw)
{
  if (flag == FTW_D)
    chmod (path, 0700);
  return 0;
}

static int
remove_one (const char *path, const struct stat *st, int flag, struct FTW *ftw)
{
  if (flag == FTW_DP)
    rmdir (path);
  else
    unlink (path);
  return 0;
}

/* Removes a tree whose folders may have lost their permissions (libarchive
 * restores folder modes when the writer closes). */
static void
remove_tree (const char *path)
{
  nftw (path, open_up, 64, FTW_PHYS | FTW_MOUNT);
  nftw (path, remove_one, 64, FTW_PHYS | FTW_MOUNT | FTW_DEPTH);
}

/* Stops the thread: with STOP it gives up, else it finishes the input. */
static gpg_error_t
join_thread (extractor *self, int stop)
{
  gpg_error_t err;

  if (!self->started)
    return 0;
  pthread_mutex_lock (&self->lock);
  if (stop)
    self->stop = 1;
  self->eof = 1;
  pthread_cond_broadcast (&self->changed);
  pthread_mutex_unlock (&self->lock);
  pthread_join (self->thread, NULL);
  self->started = 0;
  err = self->thread_err;
  return err;
}

/* The folder to rename into place: the archive's only top-level folder
 * when it has just one, else the hidden folder itself.  Malloc'd. */
static char *
folder_to_publish (extractor *self)
{
  DIR *d = opendir (self->tmp);
  struct dirent *de;
  char *only = NULL;
  int count = 0;
  struct stat st;

  if (!d)
    return NULL;
  while ((de = readdir (d)))
    {
      if (!strcmp (de->d_name, ".") || !strcmp (de->d_name, ".."))
        continue;
      if (++count == 1)
        only = strdup (de->d_name);
    }
  closedir (d);
  if (count == 1 && only
      && fstatat (self->tmp_fd, only, &st, AT_SYMLINK_NOFOLLOW) == 0
      && S_ISDIR (st.st_mode))
    {
      char *path = under_tmp (self, only);
      free (only);
      return path;
    }
  free (only);
  return strdup (self->tmp);
}

/* Renames FROM to TO unless TO exists: renameat2's RENAME_NOREPLACE, or,
 * where the filesystem lacks it, an exclusive mkdir that the rename then
 * replaces (rename may replace an empty folder). */
static int
rename_noreplace (const char *from, const char *to)
{
  if (renameat2 (AT_FDCWD, from, AT_FDCWD, to, RENAME_NOREPLACE) == 0)
    return 0;
  if (errno != EINVAL && errno != ENOSYS)
    return -1;
  if (mkdir (to, 0700))
    return -1;
  if (rename (from, to))
    {
      int e = errno;
      rmdir (to);
      errno = e;
      return -1;
    }
  return 0;
}

/* NAME, then "NAME (1)", "NAME (2)"... until one is free. */
static gpg_error_t
publish (extractor *self, const char *from)
{
  size_t len = strlen (self->dir) + strlen (self->name) + 32;
  char *to = malloc (len);
  int i;

  if (!to)
    return gpg_error (GPG_ERR_ENOMEM);
  for (i = 0; i < 10000; i++)
    {
      if (i == 0)
        snprintf (to, len, "%s/%s", self->dir, self->name);
      else
        snprintf (to, len, "%s/%s (%d)", self->dir, self->name, i);
      if (rename_noreplace (from, to) == 0)
        {
          self->final_path = to;
          return 0;
        }
      if (errno != EEXIST && errno != ENOTEMPTY)
        break;
    }
  free (to);
  return i == 10000 ? gpg_error (GPG_ERR_EEXIST) : gpg_error_from_syserror ();
}

static gpg_error_t
extractor_commit (pl_sink *base)
{
  extractor *self = (extractor *) base;
  gpg_error_t err;
  char *from;

  if ((err = join_thread (self, 0)))
    return err;
  if (archive_write_close (self->writer) != ARCHIVE_OK)
    return write_failed (self, NULL);
  if (!(from = folder_to_publish (self)))
    return gpg_error_from_syserror ();
  /* The hidden folder was 0700; as the output it gets the usual mode. */
  if (!strcmp (from, self->tmp))
    chmod (from, 0755);
  err = publish (self, from);
  free (from);
  if (err)
    return err;
  self->committed = 1;
  rmdir (self->tmp);            /* empty when its only folder moved out */
  return 0;
}

static void
extractor_abort (pl_sink *base)
{
  extractor *self = (extractor *) base;

  if (self->committed)
    return;
  join_thread (self, 1);
  if (self->writer)
    {
      archive_write_free (self->writer);
      self->writer = NULL;
    }
  if (self->tmp)
    {
      remove_tree (self->tmp);
      free (self->tmp);
      self->tmp = NULL;
    }
}

static void
extractor_free (pl_sink *base)
{
  extractor *self = (extractor *) base;

  extractor_abort (base);
  if (self->reader)
    archive_read_free (self->reader);
  if (self->writer)
    archive_write_free (self->writer);
  if (self->tmp_fd >= 0)
    close (self->tmp_fd);
  pthread_mutex_destroy (&self->lock);
  pthread_cond_destroy (&self->changed);
  free (self->ring);
  free (self->chunk);
  free (self->entry);
  free (self->dir);
  free (self->name);
  free (self->tmp);
  free (self->final_path);
  free (self);
}

static void *
extractor_run (extractor *self)
{
  if (archive_read_open (self->reader, self, NULL, read_input, NULL)
      != ARCHIVE_OK)
    {
      pthread_mutex_lock (&self->lock);
      self->thread_err = self->stop ? gpg_error (GPG_ERR_CANCELED)
                         : refuse (self, PL_TAR_DAMAGED, NULL,
                                   gpg_error (GPG_ERR_INV_DATA));
      self->done = 1;
      pthread_cond_broadcast (&self->changed);
      pthread_mutex_unlock (&self->lock);
      return NULL;
    }
  return extractor_thread (self);
}

static void *
extractor_main (void *data)
{
  extractor *self = data;
  /* pax names are UTF-8: this thread reads them in a UTF-8 locale, so
   * that libarchive hands them over as they are (see tar.c). */
  locale_t utf8 = newlocale (LC_CTYPE_MASK, "C.UTF-8", (locale_t) 0);
  void *result;

  if (utf8)
    uselocale (utf8);
  result = extractor_run (self);
  if (utf8)
    {
      uselocale (LC_GLOBAL_LOCALE);
      freelocale (utf8);
    }
  return result;
}

static gpg_error_t
setup_archives (extractor *self)
{
  self->reader = archive_read_new ();
  self->writer = archive_write_disk_new ();
  if (!self->reader || !self->writer)
    return gpg_error (GPG_ERR_ENOMEM);
  if (archive_read_support_format_tar (self->reader) != ARCHIVE_OK)
    return gpg_error (GPG_ERR_GENERAL);
  /* No OWNER, no ACL, XATTR or FFLAGS; see tar.h. */
  if (archive_write_disk_set_options (self->writer,
                                      ARCHIVE_EXTRACT_TIME
                                      | ARCHIVE_EXTRACT_PERM
                                      | ARCHIVE_EXTRACT_SECURE_NODOTDOT
                                      | ARCHIVE_EXTRACT_SECURE_SYMLINKS)
      != ARCHIVE_OK)
    return gpg_error (GPG_ERR_GENERAL);
  return 0;
}

gpg_error_t
pl_tar_extractor_new (const char *dir, const char *name, pl_sink **out)
{
  extractor *self = calloc (1, sizeof *self);
  gpg_error_t err = 0;

  *out = NULL;
  if (!self)
    return gpg_error_from_syserror ();
  self->base.write = extractor_write;
  self->base.commit = extractor_commit;
  self->base.abort = extractor_abort;
  self->base.free = extractor_free;
  self->tmp_fd = -1;
  pthread_mutex_init (&self->lock, NULL);
  pthread_cond_init (&self->changed, NULL);

  self->dir = realpath (dir, NULL);
  if (!self->dir)
    {
      err = gpg_error_from_syserror ();
      goto leave;
    }
  self->name = strdup (name);
  self->ring = malloc (PL_TAR_RING);
  self->chunk = malloc (READ_CHUNK);
  self->tmp = malloc (strlen (self->dir) + 32);
  if (!self->name || !self->ring || !self->chunk || !self->tmp)
    {
      err = gpg_error (GPG_ERR_ENOMEM);
      goto leave;
    }
  sprintf (self->tmp, "%s/.padlock-XXXXXX", self->dir);
  if (!mkdtemp (self->tmp))
    {
      err = gpg_error_from_syserror ();
      free (self->tmp);
      self->tmp = NULL;
      goto leave;
    }
  self->tmp_fd = open (self->tmp, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  if (self->tmp_fd < 0)
    {
      err = gpg_error_from_syserror ();
      goto leave;
    }
  if ((err = setup_archives (self)))
    goto leave;
  if (pthread_create (&self->thread, NULL, extractor_main, self))
    {
      err = gpg_error_from_syserror ();
      goto leave;
    }
  self->started = 1;

 leave:
  if (err)
    extractor_free (&self->base);
  else
    *out = &self->base;
  return err;
}

pl_tar_problem
pl_tar_extractor_problem (pl_sink *sink, const char **entry)
{
  extractor *self = (extractor *) sink;

  if (entry)
    *entry = self->entry;
  return self->problem;
}

const char *
pl_tar_extractor_path (pl_sink *sink)
{
  return ((extractor *) sink)->final_path;
}
