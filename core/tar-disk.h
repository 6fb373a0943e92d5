/* tar-disk.h - the unpacking's writes: a tree under one folder
 * descriptor, every call checked
 *
 * The extractor (tar-extract.c) decides what an entry may be; this writes
 * it, relative to ROOT (the hidden folder) with the *at() calls, and lets
 * no failure pass: a write that fails or makes no progress, the ftruncate
 * that ends a file on a hole, fchmod, futimens, close, and the syncfs that
 * ends finish(), so that what commit() renames into place is on the disk
 * and any write-back error since ROOT was opened fails it.
 *
 * Paths are normalized by the caller (no "", ".", ".." or leading "/")
 * and checked not to pass through anything but real folders: nothing
 * here follows a symbolic link at the last component either (O_NOFOLLOW,
 * AT_SYMLINK_NOFOLLOW, linkat without AT_SYMLINK_FOLLOW).
 *
 * Modes: the umask given at init is applied to every mode restored, for
 * root too (GNU tar keeps the stored modes for root; bsdtar and GNU tar
 * apply the umask for ordinary users, and one rule for everyone is the
 * one that never makes a file more open than the user asked for).  Files
 * keep their 0777 bits; folders also keep the sticky bit, so that a 1777
 * folder never becomes world-writable without it.  Folders are made 0700
 * and get their modes and times only in finish(), deepest first, so that
 * a read-only folder can still be filled; folders made on the way to an
 * entry (the archive has no entry for them) get 0777 less the umask. */
#pragma once

#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>
#include <time.h>
#include <gpg-error.h>

typedef struct pl_tar_disk_folder pl_tar_disk_folder;

typedef struct
{
  int root;                     /* borrowed */
  mode_t umask;
  pl_tar_disk_folder *folders;  /* their modes and times, for finish() */
  size_t n_folders, cap_folders;
} pl_tar_disk;

typedef struct
{
  int fd;
  uint64_t end;                 /* the furthest octet written */
  uint64_t pos;                 /* the descriptor's offset */
} pl_tar_disk_file;

void pl_tar_disk_init (pl_tar_disk *d, int root, mode_t umask);
void pl_tar_disk_clear (pl_tar_disk *d);

/* The process's umask, read without changing it (/proc/self/status;
 * where that is missing, umask() twice). */
mode_t pl_tar_disk_process_umask (void);

/* Makes the folders missing on the way to PATH (not PATH itself). */
gpg_error_t pl_tar_disk_parents (pl_tar_disk *d, const char *path);
/* A folder; one that exists already is kept, and gets MODE and MTIME. */
gpg_error_t pl_tar_disk_folder_new (pl_tar_disk *d, const char *path,
                                    mode_t mode,
                                    const struct timespec *mtime);
gpg_error_t pl_tar_disk_symlink (pl_tar_disk *d, const char *path,
                                 const char *target,
                                 const struct timespec *mtime);
/* PATH as a second name of the regular file TARGET. */
gpg_error_t pl_tar_disk_hardlink (pl_tar_disk *d, const char *path,
                                  const char *target);

/* A regular file: created (never over anything), or with EXISTING the
 * file PATH names already, emptied (a hard link that carries data). */
gpg_error_t pl_tar_disk_file_open (pl_tar_disk *d, const char *path,
                                   int existing, pl_tar_disk_file *f);
/* LEN octets at OFFSET; what lies between stays a hole. */
gpg_error_t pl_tar_disk_file_write (pl_tar_disk_file *f, const void *buf,
                                    size_t len, uint64_t offset);
/* Extends the file to SIZE (a hole at its end), sets MODE and MTIME and
 * closes it; the descriptor is closed whatever fails. */
gpg_error_t pl_tar_disk_file_close (pl_tar_disk *d, pl_tar_disk_file *f,
                                    uint64_t size, mode_t mode,
                                    const struct timespec *mtime);
/* Closes without a check, after a failure. */
void pl_tar_disk_file_discard (pl_tar_disk_file *f);

/* The folders' modes and times, deepest first, then syncfs on ROOT's
 * file system.  On failure *FAILED is the folder's path (borrowed), or
 * NULL for the sync. */
gpg_error_t pl_tar_disk_finish (pl_tar_disk *d, const char **failed);
