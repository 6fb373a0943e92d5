/* fail-io.h - write, ftruncate, fsync, syncfs and close failing on
 * demand, for the files under one folder only (a full disk, a quota, an
 * I/O error, a size limit, a write cut short)
 *
 * Linking this in replaces write, ftruncate64, fsync, syncfs and close for
 * the whole test, as refuse-tmpfile.c replaces open64: the engine is
 * linked statically, so its calls are these.  Calls on descriptors of anything
 * outside the folder, or while nothing is armed, pass straight through
 * (as system calls).  A descriptor's place is what /proc/self/fd says;
 * close counts regular files only. */
#pragma once

#include <glib.h>

typedef enum
{
  TU_IO_WRITE,
  TU_IO_FTRUNCATE,
  TU_IO_FSYNC,                  /* fsync and syncfs */
  TU_IO_CLOSE,
  TU_IO_N_CALLS
} tu_io_call;

/* From now on counts the calls of kind CALL on descriptors under DIR
 * (a real path: no symbolic link on the way); the Nth (from 1) fails
 * with ERRNO, and with N 0 none does.  With SHORT, the Nth (a write)
 * writes half of what it was given and says so, and every later one
 * fails with ERRNO: a disk that fills up in mid-write. */
void tu_fail_io (const char *dir, tu_io_call call, guint n, int errno_,
                 gboolean short_write);
/* After tu_fail_io: each write it counts first sleeps USEC (a slow
 * disk, so that the unpacking lags behind the decryption). */
void tu_fail_io_slow (guint usec);
/* The calls counted since tu_fail_io. */
guint tu_fail_io_count (void);
void tu_fail_io_off (void);
