/* tar-read.h - a tar archive held in memory: its files listed, one file's
 * data read out, nothing written anywhere else
 *
 * For Open Without Saving of a folder (issue 38): the decrypted archive
 * sits in a sealed memory file, authenticated as a whole before any of
 * this runs, and the user picks one file of it to look at.  libarchive
 * reads the archive straight from that memory (archive_read_open_memory,
 * tar formats only, no decompression filter: Padlock's archives and
 * gpgtar's are plain tar inside the message).
 *
 * The listing holds the files that can be opened: regular files, and
 * hard links to a regular file listed before them (they open that
 * file's data).  Folders, symbolic links (whose target may lie outside
 * the archive), devices, FIFOs and sockets are left out of it.  Since
 * nothing is written to a disk, the extractor's refusals (tar.h: "..",
 * absolute names, names through a link, repeated names) have nothing to
 * protect here; names are kept as stored, less a leading "./".  They are
 * untrusted text: escape them before they reach a label or a terminal.
 *
 * A hostile archive is bounded: at most PL_TAR_LIST_MAX entries of every
 * kind (GPG_ERR_TOO_LARGE past it), names of at most PATH_MAX octets
 * (GPG_ERR_INV_DATA), and memory for the listing no larger than the
 * names themselves plus one pl_tar_entry per listed file.  A damaged or
 * truncated archive, or one that is not tar, fails with GPG_ERR_INV_DATA
 * and lists nothing at all.
 */
#pragma once

#include <stddef.h>
#include <stdint.h>
#include <gpg-error.h>

#include "io.h"

/* Entries of every kind an archive may have for a listing. */
#define PL_TAR_LIST_MAX 100000u

typedef struct
{
  char *name;                   /* as stored, NUL-terminated; untrusted */
  uint64_t size;                /* the data's octets (a hard link: its
                                 * target's) */
  int64_t mtime;                /* seconds since 1970 */
  int has_mtime;                /* 0 when the archive gave none */
  size_t data_entry;            /* the archive's entry (0 first) whose data
                                 * this file is: its own, or a hard link's
                                 * target's */
} pl_tar_entry;

typedef struct
{
  pl_tar_entry *v;
  size_t n;
} pl_tar_listing;

/* Lists the files of the tar archive DATA (LEN octets) into *OUT, which
 * the caller clears with pl_tar_listing_clear, also after a failure. */
gpg_error_t pl_tar_list (const void *data, size_t len, pl_tar_listing *out);
void pl_tar_listing_clear (pl_tar_listing *listing);

/* Writes the data of ENTRY (from pl_tar_list of the same DATA) into
 * SINK: write() only, in order, holes as zeros; the caller commits or
 * aborts.  GPG_ERR_INV_DATA when the archive does not hold it as listed. */
gpg_error_t pl_tar_read_entry (const void *data, size_t len,
                               const pl_tar_entry *entry, pl_sink *sink);
