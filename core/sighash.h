/* sighash.h - the data hash of signatures, on a thread of its own
 *
 * A signature's data hash (verify.h's pl_data_hash: SHA-256 or SHA-512
 * over the literal data, text or binary) costs as much as the cipher or
 * more, so on more than one core it runs beside the job's other
 * threads, the SEIPD v1 MDC hasher (seipd.h) among them: decryption
 * hands it the literal data as the stages release it, encryption the
 * data it frames.  Nothing of it exists for a message that is not
 * signed: the caller makes a hasher only once a signature announced
 * itself (or signing was asked for), with the hash contexts that
 * signature needs and no others.
 *
 * The hasher is given spans of the data, in order, and hashes each into
 * every context it was handed (pl_sig_hasher_add), in that order too, so
 * that each context sees exactly what it would see hashed in place.
 *
 * Ownership of a span's memory.  A span handed to the thread is read
 * until the hasher says otherwise, so push states what the caller may
 * do with it afterwards:
 *
 * - PL_SPAN_HELD: memory the caller (or a pl_writer watching the hasher,
 *   pipeline.h: pl_writer_watch) will not change before
 *   pl_sig_hasher_reading returns 0 for it or pl_sig_hasher_unpin
 *   returns: the writer's buffers, an input borrowed in place.  Push
 *   returns at once; up to PL_SIG_HASHER_DEPTH spans queue up.
 * - PL_SPAN_BORROWED: memory that changes at the caller's next step
 *   (the read-ahead's buffers, the AEAD stage's two): push returns at
 *   once, and the caller must call pl_sig_hasher_wait before it lets
 *   that memory change.  The hash then overlaps only what the caller
 *   does with the same span (writing it out, converting its line ends).
 *
 * Spans smaller than PL_SIG_HASHER_THREAD_MIN, and every span of a
 * hasher without a thread (a budget of one core, or a thread that could
 * not start), are hashed on the caller's thread, after what the thread
 * still holds (so the order holds).  When the thread holds
 * PL_SIG_HASHER_DEPTH spans and has not begun the oldest (it gets no
 * core on a busy machine), push takes them back and hashes them on the
 * caller's thread (pl_worker_take_back) instead of waiting; so does
 * unpin, for a writer that needs a buffer back.  Who hashes a span
 * changes nothing else.
 *
 * Errors.  The thread checks the job's cancel flag before each span: a
 * cancelled job stops hashing at once, and every later push and wait
 * returns GPG_ERR_CANCELED.  The first error (cancel, or one injected
 * by the tests, on either thread) is kept and returned by every later
 * push and wait; spans queued behind it are dropped unhashed, and the
 * hash contexts are then not to be used for a verdict: the job fails.
 */
#pragma once

#include <stdatomic.h>
#include <stddef.h>
#include <stdint.h>
#include <gpg-error.h>

#include "verify.h"
#include "worker.h"

/* Contexts one hasher feeds at most: a verifier's (PL_VERIFY_MAX), or
 * one per signer. */
#define PL_SIG_HASHER_MAX 16
/* Spans the thread holds, queued or hashing: six, as SEIPD v1's MDC
 * hasher is let behind its decryption (decrypt.c), so that neither
 * hasher catches up with the other's backlog when one loses its core. */
#define PL_SIG_HASHER_DEPTH 6
/* Below this, a handover (two thread wake-ups, some 10-20 µs) costs
 * about what hashing the span on the caller's thread does. */
#define PL_SIG_HASHER_THREAD_MIN (64 * 1024)

typedef enum
{
  PL_SPAN_HELD = 0,
  PL_SPAN_BORROWED = 1
} pl_span_kind;

typedef struct
{
  uint64_t handed;              /* octets handed to the thread */
  uint64_t on_thread;           /* octets the thread hashed */
  uint64_t on_caller;           /* octets hashed on the caller's thread */
  uint64_t taken_back;          /* of those, octets taken back */
} pl_sig_hasher_stats;

typedef struct
{
  pl_data_hash *h[PL_SIG_HASHER_MAX]; /* borrowed */
  size_t n;
  atomic_int *cancel;           /* borrowed; may be NULL */
  int threads;
  pl_worker worker;             /* started on the first large span */
  pl_worker *shared;            /* pl_sig_hasher_share_worker; borrowed */
  int thread_failed;            /* could not start: the caller's alone */
  gpg_error_t err;              /* the first of the caller's hashing */
  _Atomic uint64_t on_thread;
  _Atomic uint64_t hashed;      /* by either thread, for the fault */
  pl_sig_hasher_stats stats;
} pl_sig_hasher;

/* A hasher with no contexts yet, for a job with THREADS cores (> 1
 * allows the thread; 0 is taken as 1) and the job's CANCEL flag (may be
 * NULL).  Nothing is started here. */
void pl_sig_hasher_init (pl_sig_hasher *sh, int threads, atomic_int *cancel);

/* Adds H (which must outlive the hasher): every span pushed from now on
 * goes into it.  Before the first push only.  More than
 * PL_SIG_HASHER_MAX: GPG_ERR_TOO_MANY. */
gpg_error_t pl_sig_hasher_add (pl_sig_hasher *sh, pl_data_hash *h);

/* The spans go to W, a running worker the job shares among its hashes
 * (worker.h, pl_worker_start_shared: encrypt.c and decrypt.c, beside
 * SEIPD v1's MDC), instead of a thread of the hasher's own.  Everything above holds as
 * it is: the spans go in W's one order, behind the other stages' tasks;
 * a wait waits for those too, and a take back runs those it takes
 * with their own functions.  W must outlive every push and wait; clear
 * leaves it running.  NULL, or a W not running, changes nothing.  Before
 * the first push. */
void pl_sig_hasher_share_worker (pl_sig_hasher *sh, pl_worker *w);

/* 1 when contexts were added: the data must be pushed. */
int pl_sig_hasher_active (const pl_sig_hasher *sh);

/* Hashes P, N after everything pushed before, into every context; KIND
 * says what the caller may do with [P, P + N) afterwards (above).
 * Returns the thread's first error, if any. */
gpg_error_t pl_sig_hasher_push (pl_sig_hasher *sh, const uint8_t *p,
                                size_t n, pl_span_kind kind);

/* 1 while the thread reads from [LO, LO + LEN) (a queued or running
 * span).  SH is a pl_sig_hasher: the signature of pl_writer_watch's
 * READING (pipeline.h). */
int pl_sig_hasher_reading (void *sh, const void *lo, size_t len);

/* Returns once the thread no longer reads from [LO, LO + LEN): spans it
 * has not begun are taken back and hashed here, in order (a thread that
 * gets no core is not waited for); a span it hashes is waited for, and
 * meanwhile, on a shared worker, this thread runs the tasks it lends
 * (pl_worker_take_back_one).  SH is a pl_sig_hasher: pl_writer_watch's
 * UNPIN. */
void pl_sig_hasher_unpin (void *sh, const void *lo, size_t len);

/* Waits until every span pushed is hashed: then no span is read any
 * more, and the contexts may be read (a verdict, a signature made).
 * Returns the thread's first error. */
gpg_error_t pl_sig_hasher_wait (pl_sig_hasher *sh);

void pl_sig_hasher_get_stats (const pl_sig_hasher *sh,
                              pl_sig_hasher_stats *stats);

/* Stops the thread (waiting for the span it hashes, dropping the
 * queued ones: a job that stops early does not wait for them).  Safe on
 * a zeroed hasher and twice; the contexts are the caller's. */
void pl_sig_hasher_clear (pl_sig_hasher *sh);

/* For the tests: hashing fails with ERR once AFTER octets were hashed
 * (on the thread or the caller's), in every hasher of the process
 * until reset with ERR 0. */
void pl_sig_hasher_inject_fault (uint64_t after, gpg_error_t err);
