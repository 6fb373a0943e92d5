/* mapsource.h - a regular file's octets lent in place from a mapping
 *
 * A source (io.h) over a regular file that maps the file and hands its
 * octets out through borrow, so that the job reads them where the page
 * cache holds them: no read () copy, and no read-ahead thread (the job
 * takes the borrowing path, pipeline.h).  bench/COPY.md measured what this
 * saves on tmpfs.
 *
 * The file may be truncated under the mapping by another process.  A
 * load from a page past the new end raises SIGBUS; a guard (one process-
 * wide SIGBUS handler, installed on first use and chained to the one
 * before it for every other fault) puts a page of zeros over the faulting
 * page, so that the load completes on whichever thread made it, and marks
 * the source.  A marked source fails every later call with GPG_ERR_EIO,
 * and so does the check the job makes before it commits its output
 * (pl_source.check): a truncated input is an error, never a crash and
 * never output.  Every borrow and the check also compare the file's
 * length with the one it had when mapped: a file that changed size
 * while read fails with GPG_ERR_EIO, as a read one does (encrypt.c).
 */
#pragma once

#include "io.h"

/* Inputs smaller than this are read with pread (): mapping, populating
 * and unmapping cost more than the copy saves. */
#define PL_MAP_MIN (4 * 1024 * 1024)

/* A source over FD (a regular file; read from its current offset to the
 * end it has now), taking ownership of FD when CLOSE_FD and the call
 * succeeds.  Maps whatever the size (0 too): the caller decides whether
 * mapping pays (pl_source_new_fd does, with PL_MAP_MIN and the kind of
 * filesystem).  borrow lends up to LEN octets, valid until the source is
 * freed; read copies by pread (), sharing the one position.  Behind the
 * position, pages are dropped from the mapping (they come back from the
 * page cache if touched again), so that the resident part stays a few
 * MiB.  When FD was not CLOSE_FD, free leaves FD's offset after the last
 * octet handed out, as read () would have.  GPG_ERR_NOT_SUPPORTED: not a
 * regular file, or no mapping or guard could be made; the caller falls
 * back to reading. */
gpg_error_t pl_source_new_mapped (int fd, int close_fd, pl_source **out);

/* Whether pl_source_new_fd maps FD: a regular file of at least
 * PL_MAP_MIN octets on a filesystem where bench/copy-limit measured
 * mapping faster (tmpfs).  PADLOCK_MAP=0 / =1 turns it off / on for any
 * regular file (for measuring and tests). */
int pl_source_should_map (int fd);
