/* io.h - sources and sinks: where a job reads and writes
 *
 * Small vtables over file descriptors, files and memory.  The job never
 * sees a FILE *.  A sink is transactional: what it was given becomes
 * visible (a final file name, a pipe's reader) only at commit; abort makes
 * it vanish.
 */
#pragma once

#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>
#include <gpg-error.h>

typedef struct pl_source pl_source;
struct pl_source
{
  /* Reads up to LEN octets; *NREAD 0 means end of input. */
  gpg_error_t (*read) (pl_source *self, void *buf, size_t len, size_t *nread);
  void (*free) (pl_source *self);
  int64_t size;                 /* total octets, or -1 when unknown */
  /* Optional, NULL when the octets are not in memory already: hands out
   * up to LEN of the next octets in place instead of copying them (*P
   * stays valid, unchanged, until the source is freed; *N 0 at the end).
   * Reads and borrows share one position. */
  gpg_error_t (*borrow) (pl_source *self, size_t len, const uint8_t **p,
                         size_t *n);
  /* Optional, NULL when nothing can go wrong after the fact: called once
   * the job is done with every octet it was handed (and before its output
   * is committed); an error when those octets may not have been the
   * input's (a mapped file that changed size while read, mapsource.h). */
  gpg_error_t (*check) (pl_source *self);
};

typedef struct pl_sink pl_sink;
struct pl_sink
{
  gpg_error_t (*write) (pl_sink *self, const void *buf, size_t len);
  /* Makes the output final.  After it, only free is called. */
  gpg_error_t (*commit) (pl_sink *self);
  /* Throws the output away.  Safe after a failed write or commit. */
  void (*abort) (pl_sink *self);
  void (*free) (pl_sink *self);
  /* Optional, NULL where there is no file to make room in (memory, a
   * pipe, a spool): has the filesystem allocate the output's octets
   * [OFF, OFF + LEN), OFF counted from the sink's first octet, without
   * writing them or changing the output's length (fallocate KEEP_SIZE),
   * so that the writes there later find their pages made (prealloc.h).
   * Safe on another thread while write runs (the kernel orders the two;
   * no octet written changes); never after commit or abort begins.
   * Commit and abort give back whatever was allocated past the last
   * octet written.  An error (GPG_ERR_NOT_SUPPORTED on a filesystem
   * without fallocate, GPG_ERR_ENOSPC) leaves the output as it was. */
  gpg_error_t (*allocate) (pl_sink *self, uint64_t off, uint64_t len);
  /* Optional, NULL where what was written cannot be written again (a
   * pipe, an O_APPEND file): writes LEN octets at OFF, counted from the
   * sink's first octet, over octets that write has already written
   * (OFF + LEN at most the output's length so far), leaving the output's
   * length and write's position as they were.  Never beside write, and
   * never after commit or abort begins.  encrypt.c fills in the key
   * packets there, in room left for them while their keys were derived
   * (keyroom.h). */
  gpg_error_t (*write_at) (pl_sink *self, uint64_t off, const void *buf,
                           size_t len);
};

/* Reads a whole buffer unless the input ends first. */
gpg_error_t pl_source_read_full (pl_source *src, void *buf, size_t len,
                                 size_t *nread);
void pl_source_free (pl_source *src);
/* SRC's check, or 0 when it has none. */
gpg_error_t pl_source_check (pl_source *src);
void pl_sink_free (pl_sink *sink);

/* Borrows DATA: it must outlive the source. */
pl_source *pl_source_new_memory (const void *data, size_t len);
/* Takes ownership of FD when CLOSE_FD.  The size is known for a regular
 * file.  A regular file where mapping pays (pl_source_should_map) is
 * mapped and lent in place (mapsource.h); anything else is read. */
pl_source *pl_source_new_fd (int fd, int close_fd);
/* Opens PATH for reading; fails with the errno as a gpg_error_t. */
gpg_error_t pl_source_new_file (const char *path, pl_source **out);

/* Collects everything in memory; the data is readable after commit. */
pl_sink *pl_sink_new_memory (void);
/* The same with room for CAP octets from the start: a caller that knows
 * about how much will come spares the copies of doubling (and, under
 * ASan, whose realloc always moves, their first touches of fresh
 * pages).  NULL when CAP cannot be had. */
pl_sink *pl_sink_new_memory_reserve (size_t cap);
const uint8_t *pl_sink_memory_data (pl_sink *sink, size_t *len);

/* Picks the name to try at commit.  ATTEMPT counts the names found taken
 * so far (0 first).  Writes a NUL-terminated name of at most NAME_MAX
 * octets, without '/', into BUF (SIZE octets, at least NAME_MAX + 1) and
 * returns 0; or returns an error, which commit then returns
 * (GPG_ERR_EEXIST to give up).  Called on the committing thread. */
typedef gpg_error_t (*pl_file_name_fn) (void *user_data, unsigned attempt,
                                        char *buf, size_t size);

/* The transactional file sink.  Writes into a temporary file in DIR
 * (O_TMPFILE where the filesystem has it, else mkstemp as a visible
 * NAME.XXXXXX beside the output; mode 0600).  Commit fsyncs the file,
 * links it into DIR under the first name NAME_FN gives that is free, and
 * fsyncs DIR, so that the name is durable too.  An existing file is never
 * replaced: a taken name makes commit ask NAME_FN for the next one.
 * Without NAME_FN, NAME is the only name tried (GPG_ERR_EEXIST if taken).
 * NAME is the name the output is planned to have; it also names the
 * fallback's temporary file.  Abort, and free without commit, leave
 * nothing behind. */
gpg_error_t pl_sink_new_file_in (const char *dir, const char *name,
                                 pl_file_name_fn name_fn, void *user_data,
                                 pl_sink **out);
/* pl_sink_new_file_in (PATH's folder, PATH's last component, NULL, ...):
 * exactly PATH, never replacing it. */
gpg_error_t pl_sink_new_file (const char *path, pl_sink **out);
/* After a successful commit of a file sink: the path it was linked as;
 * else NULL. */
const char *pl_sink_file_path (pl_sink *sink);

/* The ATTEMPT-th name for NAME + SUFFIX: NAME + SUFFIX for 0, else
 * "stem (ATTEMPT).ext" + SUFFIX, where ext is NAME's last extension
 * ("report (1).pdf.gpg").  When the result would be longer than NAME_MAX
 * octets, the stem is shortened, cut on a UTF-8 character boundary, so
 * that the number and the extension still fit.  GPG_ERR_ENAMETOOLONG when
 * nothing would fit (SUFFIX alone too long, or SIZE below NAME_MAX + 1). */
gpg_error_t pl_file_name_numbered (const char *name, const char *suffix,
                                   unsigned attempt, char *buf, size_t size);

/* A sink over an open descriptor (stdout).  A regular file written at its
 * end (O_APPEND, or positioned at the end, as `>` and `>>` leave it):
 * written in place, and on abort truncated back to exactly the length
 * fstat gave when the sink was made.  Anything else (a pipe, a terminal,
 * a file positioned before its end): with SPOOL, held in an unlinked
 * temporary file and copied out only at commit, so that a reader never
 * sees unauthenticated plaintext and no octet of the file is
 * overwritten; without SPOOL, written straight through. */
gpg_error_t pl_sink_new_fd (int fd, int spool, pl_sink **out);

/* For a signal handler: when SINK (from pl_sink_new_fd) writes a regular
 * file in place, *FD and *LENGTH receive what to ftruncate back to on an
 * interrupt, and 1 is returned; else 0. */
int pl_sink_fd_restore_point (pl_sink *sink, int *fd, int64_t *length);

/* Writes all of BUF to FD, retrying short writes and EINTR; a write that
 * makes no progress fails with EIO. */
gpg_error_t pl_write_all (int fd, const void *buf, size_t len);

/* errno to gpg_error_t. */
gpg_error_t pl_error_from_errno (int e);
