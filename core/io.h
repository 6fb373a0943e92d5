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
};

/* Reads a whole buffer unless the input ends first. */
gpg_error_t pl_source_read_full (pl_source *src, void *buf, size_t len,
                                 size_t *nread);
void pl_source_free (pl_source *src);
void pl_sink_free (pl_sink *sink);

/* Borrows DATA: it must outlive the source. */
pl_source *pl_source_new_memory (const void *data, size_t len);
/* Takes ownership of FD when CLOSE_FD.  The size is known for a regular
 * file. */
pl_source *pl_source_new_fd (int fd, int close_fd);
/* Opens PATH for reading; fails with the errno as a gpg_error_t. */
gpg_error_t pl_source_new_file (const char *path, pl_source **out);

/* Collects everything in memory; the data is readable after commit. */
pl_sink *pl_sink_new_memory (void);
const uint8_t *pl_sink_memory_data (pl_sink *sink, size_t *len);

/* Writes into a temporary file in PATH's folder (O_TMPFILE where the
 * filesystem has it, else mkstemp, mode 0600).  Commit fsyncs and links it
 * to PATH, never replacing an existing file (GPG_ERR_EEXIST).  Abort and
 * free without commit leave nothing behind. */
gpg_error_t pl_sink_new_file (const char *path, pl_sink **out);

/* A sink over an open descriptor (stdout).  Regular file: written in place
 * and truncated back to where it started on abort.  Anything else (a pipe,
 * a terminal): with SPOOL, held in an unlinked temporary file and copied
 * out only at commit, so that a reader never sees unauthenticated
 * plaintext; without SPOOL, written straight through. */
gpg_error_t pl_sink_new_fd (int fd, int spool, pl_sink **out);

/* Writes all of BUF to FD, retrying short writes and EINTR. */
gpg_error_t pl_write_all (int fd, const void *buf, size_t len);

/* errno to gpg_error_t. */
gpg_error_t pl_error_from_errno (int e);
