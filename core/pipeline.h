/* pipeline.h - the two threads around a job's stages: the read-ahead and
 * the writer
 *
 * Both own their buffers; the stages only borrow them.
 *
 *   read-ahead:  fill (its thread) ─► next () hands a block to the caller
 *   writer:      acquire () ─► the stage fills ─► write () ─► release ()
 *
 * The rule "never refill a buffer a thread still reads" is kept here,
 * once: the read-ahead refills a buffer only after the caller asked for
 * the block after it, and the writer's acquire never hands out a buffer
 * that a write still reads.  Either object also runs without a thread
 * (a budget of one core): the same calls, done on the caller's thread.
 */
#pragma once

#include <stddef.h>
#include <stdint.h>
#include <gpg-error.h>

#include "worker.h"

/* ---- The read-ahead ------------------------------------------------ */

/* Fills BUF with up to WANT octets; *LEN 0 means the input ended.  Runs
 * on the read-ahead thread, one call at a time. */
typedef gpg_error_t (*pl_fill_fn) (void *arg, uint8_t *buf, size_t want,
                                   size_t *len);

/* Hands out up to WANT octets of an input that is in memory already, in
 * place: *P stays valid and unchanged as long as the input; *LEN 0 means
 * the input ended. */
typedef gpg_error_t (*pl_borrow_fn) (void *arg, size_t want,
                                     const uint8_t **p, size_t *len);

/* What a read asks for when the stages downstream do not care.  Read on
 * the thread that then runs the cipher over it (or borrowed), a block of
 * PL_READ_SIZE is still in L2 when the cipher gets to it (whole 4 MiB
 * chunks were read first, and the copy and the cipher then each went to
 * memory).  Read on a thread of its own, the block is in the other
 * core's cache anyway: there larger blocks save handovers and system
 * calls. */
#define PL_READ_SIZE (256 * 1024)
#define PL_READ_SIZE_THREADED (1024 * 1024)

static inline size_t
pl_read_size (int threaded)
{
  return threaded ? PL_READ_SIZE_THREADED : PL_READ_SIZE;
}

/* Buffers a read-ahead holds at most (pl_read_ahead_init_queue). */
#define PL_READ_AHEAD_BUFFERS 4

typedef struct
{
  pl_fill_fn fill;
  void *arg;
  uint8_t *buf[PL_READ_AHEAD_BUFFERS]; /* SIZE octets each, used in turn */
  int nbuf;                     /* 2 but with pl_read_ahead_init_queue */
  size_t size;
  size_t want;                  /* what each fill asks for */
  size_t first_want;            /* the first fill's, when it differs */
  int turn;                     /* the buffer the next block comes from */
  const uint8_t *first;         /* a block read before, handed out first */
  size_t first_len;
  int threaded;
  int pending;                  /* fills submitted, from buf[turn] on */
  size_t filled[PL_READ_AHEAD_BUFFERS]; /* what each buffer's fill got */
  gpg_error_t fill_err[PL_READ_AHEAD_BUFFERS];
  int eof;                      /* the thread's: a fill got 0 */
  int ended;
  gpg_error_t err;              /* the first fill error, kept */
  pl_borrow_fn borrow;          /* set: the blocks are borrowed */
  pl_worker worker;
} pl_read_ahead;

/* Two buffers of SIZE octets; each fill asks for SIZE.  With THREADED,
 * the fills run on a thread of their own (started here; without one the
 * read-ahead quietly works on the caller's thread).  Safe to clear after
 * a failure. */
gpg_error_t pl_read_ahead_init (pl_read_ahead *ra, pl_fill_fn fill,
                                void *arg, size_t size, int threaded);

/* As pl_read_ahead_init, with NBUF buffers (2 to PL_READ_AHEAD_BUFFERS,
 * clamped).  Threaded, the thread then fills up to NBUF - 1 blocks ahead
 * of the one the caller holds: every buffer but that one is being
 * filled or waits, filled, to be handed out.  For a job whose next stage
 * takes a long block at a time (an AEAD chunk of four reads, written at
 * once): the reads go on while it waits for the writer.  Without a
 * thread NBUF changes nothing (the fills are the caller's, one at a
 * time).  Once a fill got 0 (the input ended) the thread calls FILL no
 * more: the fills queued behind it get 0 as well, so a terminal's input
 * is not read past its end. */
gpg_error_t pl_read_ahead_init_queue (pl_read_ahead *ra, pl_fill_fn fill,
                                      void *arg, size_t size, int threaded,
                                      int nbuf);

/* A read-ahead over an input in memory: each next borrows up to SIZE
 * octets of it in place (set_first_want applies as well).  No buffer, no
 * copy and no thread: a thread would only add the copy that borrowing
 * saves.  The caller must not change a borrowed block. */
void pl_read_ahead_init_borrowing (pl_read_ahead *ra, pl_borrow_fn borrow,
                                   void *arg, size_t size);

/* Before the first next: the first fill asks for WANT (<= SIZE) instead,
 * so that later blocks line up with something downstream. */
void pl_read_ahead_set_first_want (pl_read_ahead *ra, size_t want);

/* Before the first next: BLOCK (LEN octets, read from the same input by
 * the caller, who keeps it valid until the call after the one that hands
 * it out) comes first. */
void pl_read_ahead_unread (pl_read_ahead *ra, const uint8_t *block,
                           size_t len);

/* The next block in *BLOCK, *LEN octets; *LEN 0 once the input ended
 * (and on every later call).  The block stays valid, and the caller may
 * change it in place, until the next call: only then is its buffer
 * refilled.  Errors of the fill come back here, at the block that
 * failed, and at every later call. */
gpg_error_t pl_read_ahead_next (pl_read_ahead *ra, uint8_t **block,
                                size_t *len);

/* Stops the thread (waiting for a fill in progress; the fills queued
 * behind it are dropped unrun) and frees the buffers.  Safe on a zeroed
 * read-ahead, and at any moment between calls. */
void pl_read_ahead_clear (pl_read_ahead *ra);

/* ---- The writer ---------------------------------------------------- */

/* Writes P, N octets to the job's output (armor, the sink).  Runs on the
 * writer thread, or on the caller's: one call at a time, in order. */
typedef gpg_error_t (*pl_emit_fn) (void *arg, const uint8_t *p, size_t n);

/* Another reader of the writer's buffers (pl_writer_watch). */
typedef int (*pl_reading_fn) (void *arg, const void *p, size_t len);
typedef void (*pl_unpin_fn) (void *arg, const void *p, size_t len);

/* Buffers a writer lends at most: enough for SEIPD v1 (six, the older
 * five being hashed, decrypt.c), a signature hasher's queue beside it,
 * inflate, text mode's line-end conversion and partial framing at once.
 * The pool grows only to what a job's stages hold. */
#define PL_WRITER_BUFFERS 10
/* Writes smaller than this are done on the caller's thread: handing
 * them over costs more than it saves, and they are often on the stack. */
#define PL_WRITER_THREAD_MIN (64 * 1024)
/* Writes from the writer's own buffers queued on the thread at most: a
 * stage that decrypts faster than the sink takes it goes on instead of
 * waiting for each write (rfc4880 decryption file to file: the CFB
 * thread's waits, bench/README.md). */
#define PL_WRITER_DEPTH 3
/* Writes from elsewhere in flight at most (pl_writer_set_foreign_depth). */
#define PL_WRITER_FOREIGN_MAX 2

typedef struct
{
  pl_emit_fn emit;
  void *arg;
  size_t size;
  int allowed;                  /* the budget allows the thread */
  int threaded;                 /* large writes go to the thread */
  uint8_t *buf[PL_WRITER_BUFFERS]; /* allocated on first acquire */
  int held[PL_WRITER_BUFFERS];
  /* The last FOREIGN_DEPTH writes on the thread, write K at K modulo
   * it: the range of one not from BUF, or N 0. */
  pl_worker_task recent[PL_WRITER_FOREIGN_MAX];
  int foreign_depth;            /* 0 means 1 */
  unsigned writes;
  pl_worker worker;             /* started on the first large write */
  pl_reading_fn watch_reading;  /* pl_writer_watch; NULL: none */
  pl_unpin_fn watch_unpin;
  void *watch_arg;
} pl_writer;

/* Buffers of SIZE octets; THREADED: large writes go to a thread. */
void pl_writer_init (pl_writer *w, pl_emit_fn emit, void *arg, size_t size,
                     int threaded);

/* A buffer of SIZE octets for the caller to fill, that no write still
 * reads (waiting, when need be, for the writes that do).  It stays the
 * caller's until released.  GPG_ERR_ENOMEM; GPG_ERR_BUG when the caller
 * already holds PL_WRITER_BUFFERS. */
gpg_error_t pl_writer_acquire (pl_writer *w, uint8_t **buf);

/* Another thread reads the writer's buffers too (a signature's data
 * hash, sighash.h).  READING (ARG, P, LEN) says whether it still reads
 * from [P, P + LEN); UNPIN (ARG, P, LEN) returns once it no longer does
 * (waiting, or doing the reading's work on the caller's thread).  From
 * pl_writer_watch on, acquire never hands out a buffer that READING
 * claims, and when every buffer is taken and one is claimed only by
 * READING, it unpins that one. */
void pl_writer_watch (pl_writer *w, pl_reading_fn reading, pl_unpin_fn unpin,
                      void *arg);

/* 1 when [P, P + N) lies in one of W's buffers. */
int pl_writer_owns (const pl_writer *w, const uint8_t *p, size_t n);

/* Gives BUF back.  A write from it may still be in progress: acquire
 * waits for that, not release. */
void pl_writer_release (pl_writer *w, uint8_t *buf);

/* Writes P, N octets after everything written before.  Large writes
 * return at once and are done on the thread, in order:
 *
 * - P in one of the writer's buffers (acquired, then maybe released):
 *   the write may wait in a queue of up to PL_WRITER_DEPTH, and reads
 *   [P, P + N) until acquire hands that buffer out again, which waits
 *   for it.  The caller must leave the buffer alone while it holds it.
 * - any other P: the write reads [P, P + N) until the next write or
 *   finish returns (the next write waits for it).  For a producer that
 *   alternates two buffers and writes each block before it fills the
 *   next one (the AEAD stage): by the time it refills a buffer, a later
 *   write has returned.  After pl_writer_set_foreign_depth (W, D): until
 *   the D-th write after it or finish returns, so that the thread has
 *   the next write queued when it ends one (a producer that keeps D + 1
 *   buffers in turn).
 *
 * Returns the first error of an earlier write, if any. */
gpg_error_t pl_writer_write (pl_writer *w, const uint8_t *p, size_t n);

/* Whether later large writes go to the thread (THREADED 1, if the budget
 * given to init allowed one) or are done on the caller's (0).  At any
 * moment: a write on the caller's thread waits for the thread's first,
 * so the order holds.  For a stage that gives the second core to a
 * thread of its own (the SEIPD v1 hasher): a writer thread beside both
 * would be a third thread time-sliced with them. */
void pl_writer_set_threaded (pl_writer *w, int threaded);

/* How many writes after a write from elsewhere it may still be read
 * (pl_writer_write): DEPTH 1 (the default) to PL_WRITER_FOREIGN_MAX,
 * clamped.  Waits for every write first, so that the new depth holds
 * from the next write on; an error of those writes comes back at the
 * next write or finish. */
void pl_writer_set_foreign_depth (pl_writer *w, int depth);

/* Waits until every write is done; returns the first error. */
gpg_error_t pl_writer_finish (pl_writer *w);

/* Stops the thread (waiting for a write in progress: call before the
 * sink is aborted) and frees the buffers.  Safe on a zeroed writer. */
void pl_writer_clear (pl_writer *w);
