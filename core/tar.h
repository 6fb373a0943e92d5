/* tar.h - folders as POSIX pax tar archives, written and unpacked by libarchive
 *
 * Writing: pl_tar_source_new() is a pl_source whose read() yields a pax tar
 * of one folder, produced on demand: there is never an archive on disk, and
 * memory stays bounded by one data block (PL_TAR_BLOCK) plus one entry's
 * headers, whatever the folder holds.  libarchive's writer is push-based;
 * the source drives it from read(): each refill advances the writer by one
 * step (the next entry's header, or the next block of the current file's
 * data) and libarchive's write callback hands the octets to the reader's
 * buffer, spilling what does not fit into a pending buffer that the next
 * read() drains first.  No thread is involved.  File data is read straight
 * into the caller's buffer whenever it fits, and libarchive (unblocked,
 * bytes_per_block 0) passes that very pointer back, so data is not copied.
 *
 * The archive names its entries FOLDER/..., FOLDER being the folder's own
 * name, as `tar c FOLDER` and `gpgtar` do.  Kept: regular files, folders
 * (empty ones too), symbolic links as links (never followed), hard links
 * as links, permission bits without setuid, setgid and sticky, and
 * modification times (seconds).  Long and non-ASCII names get pax headers.
 * Skipped and reported through pl_tar_callbacks.skipped: FIFOs, sockets
 * and devices.  A file or folder that cannot be read, or a file whose size
 * or identity changes while it is read, fails the read with an error; the
 * problem and the file's path are then available from
 * pl_tar_source_problem().
 *
 * Unpacking: pl_tar_extractor_new() is a pl_sink that unpacks the archive
 * written into it.  libarchive's reader is pull-based, so a thread of the
 * sink's own runs it, fed through a bounded ring (PL_TAR_RING octets) that
 * write() fills and blocks on when full.  Entries go into a hidden folder
 * (".padlock-XXXXXX", mode 0700) made in the destination folder; commit()
 * waits for the whole archive, finishes it (folder modes and times, then
 * one syncfs) and only then renames it into place as NAME, or
 * "NAME (1)", "NAME (2)"...: never into or over anything that exists
 * (renameat2 RENAME_NOREPLACE).  When the archive holds exactly one
 * top-level folder, that folder becomes NAME; otherwise the hidden folder
 * itself does (0777 less the umask).  abort() (and free() without commit)
 * removes the hidden tree completely.
 *
 * Writing is tar-disk.c's, relative to the hidden folder's descriptor,
 * and every call of it is checked (libarchive's disk writer is not used:
 * it takes a failed write for a warning and then extends the file to its
 * size with zeros).  A failed write, ftruncate, close or syncfs (ENOSPC,
 * EDQUOT, EIO, EFBIG...) fails the next write() or commit() with that
 * errno at once, PL_TAR_WRITE_FAILED naming the entry.  The umask applies
 * to every mode restored (see tar-disk.h).
 *
 * The hidden folder is locked (flock, on the folder itself) for as long
 * as the sink lives.  pl_tar_extractor_new first removes from the
 * destination every ".padlock-XXXXXX" folder of ours whose lock nobody
 * holds: what an unpacking killed half-way (SIGKILL, a crash, a power
 * cut) left, unauthenticated plaintext.  Another unpacking's, still
 * running, stays.
 *
 * The whole archive is refused, naming the entry, when an entry has ".."
 * in its name, an absolute name, a name that goes through a symbolic link,
 * a hard link out of the archive's tree or to anything but a regular file
 * unpacked earlier from the same archive, a device node or other special
 * file, setuid or setgid bits, or repeats a name already unpacked (except
 * folder over folder).  These checks are made against what the hidden
 * folder holds; owners, devices, ACLs, extended attributes and file flags
 * are never restored.  Such a verdict of the archive's (refused, or
 * damaged) waits for the end of the input and comes from commit(): a
 * message that was tampered with may damage the archive long before its
 * MDC comes, and the decryption must get to the MDC to say so.  An
 * abort() is never taken for damage.
 *
 * The sink is fed authenticated-at-the-end plaintext: like the file sink,
 * it makes nothing visible before commit, which the decryption calls only
 * after the MDC or the last AEAD tag verified.
 */
#pragma once

#include <stdatomic.h>
#include <stddef.h>
#include <stdint.h>
#include <gpg-error.h>

#include "io.h"

/* The largest step of file data the writer takes at once. */
#define PL_TAR_BLOCK (256u << 10)
/* The extractor's ring between write() and its thread. */
#define PL_TAR_RING (4u << 20)

typedef enum
{
  PL_TAR_OK = 0,
  /* Writing */
  PL_TAR_UNREADABLE,            /* a file or folder could not be read */
  PL_TAR_CHANGED,               /* a file changed while it was read */
  PL_TAR_SAME_NAME,             /* two items of one archive share a name */
  /* Unpacking: the archive is refused */
  PL_TAR_DOTDOT,                /* ".." in a name */
  PL_TAR_ABSOLUTE,              /* an absolute name */
  PL_TAR_THROUGH_SYMLINK,       /* a name through a symbolic link */
  PL_TAR_HARDLINK_OUTSIDE,      /* a hard link out of the archive's tree */
  PL_TAR_HARDLINK_MISSING,      /* a hard link to a file that is not in the
                                 * archive (before it) */
  PL_TAR_DEVICE,                /* a device node, FIFO or socket */
  PL_TAR_SETID,                 /* setuid or setgid bits */
  PL_TAR_DUPLICATE,             /* a name that is there already */
  PL_TAR_DAMAGED,               /* not a tar archive, or truncated */
  PL_TAR_WRITE_FAILED           /* the destination refused an entry */
} pl_tar_problem;

typedef struct
{
  /* During pl_tar_scan, every 256 entries and at the end: what was
   * counted so far.  The scan stats each entry as it reaches it, so the
   * count rises through a folder of any size (fts reads a folder's names
   * first, no more), and the cancel flag is checked between entries. */
  void (*counting) (void *user_data, uint64_t files, uint64_t bytes);
  /* While writing, per block: the file whose data is being read (its path
   * inside the folder), the entries written so far (this file's too) and
   * the octets of file data read so far. */
  void (*reading) (void *user_data, const char *name, uint64_t files_done,
                   uint64_t bytes_done);
  /* A FIFO, socket or device left out (its path inside the folder). */
  void (*skipped) (void *user_data, const char *name);
  void *user_data;
  atomic_int *cancel;           /* may be NULL; the scan and reads stop */
} pl_tar_callbacks;

typedef struct
{
  uint64_t files;               /* entries of every kind that are kept */
  uint64_t bytes;               /* octets of regular file data, a file with
                                 * several names counted once */
} pl_tar_totals;

/* Walks FOLDER (symbolic links not followed) and counts what the archive
 * will hold.  Fails on a folder it cannot read, with the problem and the
 * path (malloc'd, the caller frees) in *PROBLEM_PATH when not NULL. */
gpg_error_t pl_tar_scan (const char *folder, const pl_tar_callbacks *cb,
                         pl_tar_totals *totals, char **problem_path);

/* A source of FOLDER as a pax tar.  CB is copied; it may be NULL.  The
 * size is unknown (-1).  Errors as described above; GPG_ERR_CANCELED when
 * the cancel flag is set. */
gpg_error_t pl_tar_source_new (const char *folder, const pl_tar_callbacks *cb,
                               pl_source **out);
/* Several ITEMS (files or folders, N of them) in one archive, as
 * TOP/NAME..., TOP a folder entry of its own (0755, the time of writing)
 * that comes first.  TOP is required when N > 1 and must be a plain name;
 * with N == 1 it is ignored and this is pl_tar_source_new.  Two items with
 * the same name fail the first read (GPG_ERR_EEXIST, PL_TAR_SAME_NAME). */
gpg_error_t pl_tar_source_new_items (const char *const *items, size_t n,
                                     const char *top,
                                     const pl_tar_callbacks *cb,
                                     pl_source **out);
/* pl_tar_scan for ITEMS; the made-up TOP folder counts as one entry. */
gpg_error_t pl_tar_scan_items (const char *const *items, size_t n,
                               const pl_tar_callbacks *cb,
                               pl_tar_totals *totals, char **problem_path);

/* What failed the source, and the path of the file concerned (borrowed;
 * NULL when there is no problem). */
pl_tar_problem pl_tar_source_problem (pl_source *src, const char **path);

/* Unpacks into DIR under NAME (see above).  DIR must exist.  Writes fail
 * with the errno of a failed write into DIR; commit fails with that, with
 * GPG_ERR_INV_NAME for a refused entry, or GPG_ERR_INV_DATA for a damaged
 * archive; pl_tar_extractor_problem then names the entry. */
gpg_error_t pl_tar_extractor_new (const char *dir, const char *name,
                                  pl_sink **out);
pl_tar_problem pl_tar_extractor_problem (pl_sink *sink, const char **entry);
/* After a successful commit: the folder's final path (borrowed). */
const char *pl_tar_extractor_path (pl_sink *sink);

/* Non-zero when BLOCK (LEN octets, LEN >= 512 for a yes) starts with a
 * valid ustar, GNU or pax tar header: magic and checksum. */
int pl_tar_header_is_valid (const void *block, size_t len);

/* A sink that holds the first 512 octets, then calls CHOOSE once with
 * whether they are a valid tar header (pl_tar_header_is_valid) and hands
 * everything to the sink it returns (NULL with *ERR set: the write fails).
 * Output shorter than a header is passed on at commit as not a tar.  The
 * chosen sink is owned by the detector and freed with it. */
typedef pl_sink *(*pl_tar_choose_fn) (void *user_data, int is_tar,
                                      gpg_error_t *err);
pl_sink *pl_tar_detector_new (pl_tar_choose_fn choose, void *user_data);
