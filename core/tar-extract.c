/* tar-extract.c - unpacking a tar archive safely, as a sink (see tar.h) */
#include "tar.h"
#include "buffers.h"

#include <ctype.h>
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
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>
#include <archive.h>
#include <archive_entry.h>

#include "tar-disk.h"

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
  pl_tar_disk disk;
  int tmp_fd;                   /* the hidden folder, locked (flock) */
  mode_t umask;
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

/* Our own checks on one entry: its name, normalized, into PATH, and a
 * hard link's target into TARGET (else TARGET is emptied).  *SKIP when
 * the entry is the archive's top itself ("./"). */
static gpg_error_t
check_entry (extractor *self, struct archive_entry *e, char *path,
             char *target, int *skip)
{
  const char *name = archive_entry_pathname (e);
  const char *link = archive_entry_hardlink (e);
  mode_t type = archive_entry_filetype (e), last;
  gpg_error_t err;

  *skip = 0;
  *target = 0;
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
  if (type == AE_IFLNK && !link && !archive_entry_symlink (e))
    return refuse (self, PL_TAR_DAMAGED, name, gpg_error (GPG_ERR_INV_DATA));
  if (!link)
    return 0;
  if ((err = normalize_name (self, link, target, name, 1)))
    return err;
  if (!*target || check_path (self, name, target, &last))
    return refuse (self, PL_TAR_HARDLINK_OUTSIDE, name,
                   gpg_error (GPG_ERR_INV_NAME));
  if (!S_ISREG (last))
    return refuse (self, PL_TAR_HARDLINK_MISSING, name,
                   gpg_error (GPG_ERR_INV_NAME));
  return 0;
}

static gpg_error_t
write_failed (extractor *self, const char *entry, gpg_error_t err)
{
  return refuse (self, PL_TAR_WRITE_FAILED, entry, err);
}

/* libarchive could not read on: the archive is damaged, unless abort()
 * stopped the input (then that is no verdict on the archive). */
static gpg_error_t
read_failed (extractor *self, const char *entry)
{
  gpg_error_t err;

  pthread_mutex_lock (&self->lock);
  err = self->stop ? gpg_error (GPG_ERR_CANCELED)
                   : refuse (self, PL_TAR_DAMAGED, entry,
                             gpg_error (GPG_ERR_INV_DATA));
  pthread_mutex_unlock (&self->lock);
  return err;
}

static struct timespec
entry_mtime (struct archive_entry *e)
{
  struct timespec t = { 0, 0 };

  if (archive_entry_mtime_is_set (e))
    {
      t.tv_sec = archive_entry_mtime (e);
      t.tv_nsec = archive_entry_mtime_nsec (e);
    }
  return t;
}

/* A regular file's data, at the offsets libarchive gives (a sparse
 * entry's holes stay holes), then its size, mode and time. */
static gpg_error_t
write_file (extractor *self, struct archive_entry *e, const char *path,
            int existing, const char *name)
{
  struct timespec mtime = entry_mtime (e);
  la_int64_t size = archive_entry_size (e), offset;
  pl_tar_disk_file f;
  const void *buf;
  gpg_error_t err;
  size_t len;
  int r;

  if ((err = pl_tar_disk_file_open (&self->disk, path, existing, &f)))
    return write_failed (self, name, err);
  while ((r = archive_read_data_block (self->reader, &buf, &len, &offset))
         == ARCHIVE_OK)
    {
      if (offset < 0)
        r = ARCHIVE_FATAL;
      else if (len && (err = pl_tar_disk_file_write (&f, buf, len,
                                                     (uint64_t) offset)))
        {
          pl_tar_disk_file_discard (&f);
          return write_failed (self, name, err);
        }
      if (r != ARCHIVE_OK)
        break;
    }
  if (r != ARCHIVE_EOF)
    {
      pl_tar_disk_file_discard (&f);
      return read_failed (self, name);
    }
  if ((err = pl_tar_disk_file_close (&self->disk, &f,
                                     size > 0 ? (uint64_t) size : 0,
                                     archive_entry_perm (e), &mtime)))
    return write_failed (self, name, err);
  return 0;
}

/* One checked entry onto the disk: PATH (and a hard link's TARGET) as
 * check_entry normalized them; NAME is the entry's own, for errors. */
static gpg_error_t
write_entry (extractor *self, struct archive_entry *e, const char *path,
             const char *target, const char *name)
{
  struct timespec mtime = entry_mtime (e);
  gpg_error_t err;

  if ((err = pl_tar_disk_parents (&self->disk, path)))
    return write_failed (self, name, err);
  if (*target)
    {
      if ((err = pl_tar_disk_hardlink (&self->disk, path, target)))
        return write_failed (self, name, err);
      /* pax lets a hard link carry data: the file's contents, anew. */
      return archive_entry_size (e) > 0 ? write_file (self, e, path, 1, name)
                                        : 0;
    }
  switch (archive_entry_filetype (e))
    {
    case AE_IFDIR:
      err = pl_tar_disk_folder_new (&self->disk, path, archive_entry_perm (e),
                                    &mtime);
      break;
    case AE_IFLNK:
      err = pl_tar_disk_symlink (&self->disk, path, archive_entry_symlink (e),
                                 &mtime);
      break;
    default:                    /* AE_IFREG: check_entry let no other by */
      return write_file (self, e, path, 0, name);
    }
  return err ? write_failed (self, name, err) : 0;
}

static gpg_error_t
unpack_all (extractor *self)
{
  struct archive_entry *e;
  gpg_error_t err = 0;
  char *name = NULL;
  char path[PATH_MAX], target[PATH_MAX];
  int r, skip;

  while (!err && (r = archive_read_next_header (self->reader, &e))
         == ARCHIVE_OK)
    {
      free (name);
      name = strdup (archive_entry_pathname (e) ? archive_entry_pathname (e)
                     : "");
      if (!name)
        err = gpg_error (GPG_ERR_ENOMEM);
      else if ((err = check_entry (self, e, path, target, &skip)) || skip)
        continue;
      else
        err = write_entry (self, e, path, target, name);
    }
  if (!err && r != ARCHIVE_EOF)
    err = read_failed (self, name);
  free (name);
  return err;
}

/* The thread: unpacks, then swallows whatever follows the archive's end
 * (blocking padding) so that write() never waits for nobody.
 *
 * The archive's own verdicts (damaged, or an entry refused) wait for the
 * end of the input too, and come from commit(): a message that was
 * tampered with damages the archive it holds before its MDC comes, and
 * the decryption has to get to the MDC to say so (it calls commit() only
 * once the message checked out).  A failed write ends it at once. */
static void *
extractor_thread (void *data)
{
  extractor *self = data;
  gpg_error_t err;

  err = unpack_all (self);
  pthread_mutex_lock (&self->lock);
  if (!err || (self->problem != PL_TAR_OK
               && self->problem != PL_TAR_WRITE_FAILED))
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

/* Removes a tree whose folders may have lost their permissions (after
 * pl_tar_disk_finish, or a stale tree's). */
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

  const char *failed = NULL;

  if ((err = join_thread (self, 0)))
    return err;
  if ((err = pl_tar_disk_finish (&self->disk, &failed)))
    return write_failed (self, failed ? failed : self->name, err);
  if (!(from = folder_to_publish (self)))
    return gpg_error_from_syserror ();
  /* The hidden folder was 0700; as the output it gets a new folder's. */
  if (!strcmp (from, self->tmp) && chmod (from, 0777 & ~self->umask))
    err = write_failed (self, self->name, gpg_error_from_syserror ());
  if (!err)
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
  pl_tar_disk_clear (&self->disk);
  if (self->tmp_fd >= 0)
    close (self->tmp_fd);
  pthread_mutex_destroy (&self->lock);
  pthread_cond_destroy (&self->changed);
  /* Both held the archive's plaintext. */
  pl_buffer_give (self->ring, PL_TAR_RING, PL_TAR_RING);
  pl_buffer_give (self->chunk, READ_CHUNK, READ_CHUNK);
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

/* ".padlock-" and mkdtemp's six letters or digits. */
static int
is_hidden_name (const char *name)
{
  if (strncmp (name, ".padlock-", 9))
    return 0;
  for (int i = 9; i < 15; i++)
    if (!isalnum ((unsigned char) name[i]))
      return 0;
  return name[15] == 0;
}

/* Removes from DIR the hidden trees of unpackings that died (SIGKILL, a
 * crash, a power cut), unverified plaintext: those whose lock nobody
 * holds.  A tree is removed only while we hold its lock, and only if the
 * name still leads to the folder locked.  Where flock is refused (some
 * network file systems) nothing is locked, and nothing removed. */
static void
remove_stale (const char *dir)
{
  DIR *d = opendir (dir);
  struct dirent *de;

  if (!d)
    return;
  while ((de = readdir (d)))
    {
      struct stat held, now;
      char *path;
      int fd;

      if (!is_hidden_name (de->d_name))
        continue;
      fd = openat (dirfd (d), de->d_name,
                   O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
      if (fd < 0)
        continue;
      if (fstat (fd, &held) == 0 && held.st_uid == geteuid ()
          && flock (fd, LOCK_EX | LOCK_NB) == 0
          && fstatat (dirfd (d), de->d_name, &now, AT_SYMLINK_NOFOLLOW) == 0
          && now.st_dev == held.st_dev && now.st_ino == held.st_ino
          && (path = malloc (strlen (dir) + strlen (de->d_name) + 2)))
        {
          sprintf (path, "%s/%s", dir, de->d_name);
          remove_tree (path);
          free (path);
        }
      close (fd);               /* and the lock with it */
    }
  closedir (d);
}

/* The hidden folder, made and locked for as long as the extractor lives.
 * Between mkdtemp and flock another run's remove_stale may take it: then
 * the lock fails, or the folder is gone once we have it; try another. */
static gpg_error_t
make_hidden (extractor *self)
{
  for (int tries = 0; tries < 100; tries++)
    {
      struct stat held, now;
      int locked;

      sprintf (self->tmp, "%s/.padlock-XXXXXX", self->dir);
      if (!mkdtemp (self->tmp))
        return gpg_error_from_syserror ();
      self->tmp_fd = open (self->tmp,
                           O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
      if (self->tmp_fd < 0)
        {
          gpg_error_t err = gpg_error_from_syserror ();
          if (errno == ENOENT)
            continue;
          rmdir (self->tmp);
          return err;
        }
      locked = flock (self->tmp_fd, LOCK_EX | LOCK_NB) == 0;
      if ((locked || errno != EWOULDBLOCK)
          && fstat (self->tmp_fd, &held) == 0
          && lstat (self->tmp, &now) == 0
          && now.st_dev == held.st_dev && now.st_ino == held.st_ino)
        return 0;
      close (self->tmp_fd);
      self->tmp_fd = -1;
    }
  return gpg_error (GPG_ERR_EEXIST);
}

static gpg_error_t
setup_reader (extractor *self)
{
  self->reader = archive_read_new ();
  if (!self->reader)
    return gpg_error (GPG_ERR_ENOMEM);
  if (archive_read_support_format_tar (self->reader) != ARCHIVE_OK)
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
  self->umask = pl_tar_disk_process_umask ();
  pthread_mutex_init (&self->lock, NULL);
  pthread_cond_init (&self->changed, NULL);

  self->dir = realpath (dir, NULL);
  if (!self->dir)
    {
      err = gpg_error_from_syserror ();
      goto leave;
    }
  self->name = strdup (name);
  self->ring = pl_buffer_take (PL_TAR_RING);
  self->chunk = pl_buffer_take (READ_CHUNK);
  self->tmp = malloc (strlen (self->dir) + 32);
  if (!self->name || !self->ring || !self->chunk || !self->tmp)
    {
      err = gpg_error (GPG_ERR_ENOMEM);
      goto leave;
    }
  remove_stale (self->dir);
  if ((err = make_hidden (self)))
    {
      free (self->tmp);
      self->tmp = NULL;
      goto leave;
    }
  pl_tar_disk_init (&self->disk, self->tmp_fd, self->umask);
  if ((err = setup_reader (self)))
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
