/* aead-parallel.h - AEAD chunks sealed and opened on several threads
 *
 * The push stage of aead.h, one chunk at a time, on a budget of threads:
 * consecutive chunks are sealed (or opened) concurrently, the caller's
 * thread taking every Nth and workers (worker.h) the others, each thread
 * with its own cipher handle (pl_aead_stream_open_handle).  Output comes
 * out in chunk order, as from pl_aead_stream_push; at most THREADS + 1
 * chunks are held at once (THREADS + KEPT, pl_aead_parallel_keep).
 *
 * Decryption hands out a chunk's plaintext only after that chunk's tag
 * verified, and nothing at all after a tag failed (the failed chunk and
 * every later one, opened or not, are wiped).  Its last chunk, and the
 * chunks still pending at the end, come out only after the final tag
 * verified.
 *
 * On a machine whose cores are all taken, a worker that gets no core in
 * time costs more than it saves; the stage notices (chunks the caller
 * had to take back or wait long for) and then seals or opens every chunk
 * on the caller's thread for a spell, trying the workers again after it
 * (see aead-parallel.c, "Adapting").  Output and checks are the same on
 * any thread.
 *
 * With a budget of one thread, or chunks too small to be worth a handover,
 * every call goes straight to the pl_aead_stream underneath: the same
 * path as without this stage.
 */
#pragma once

#include <stddef.h>
#include <stdint.h>
#include <gpg-error.h>

#include "aead.h"

/* At most this many threads per stage: each adds a chunk buffer (4 MiB
 * by default), and memory stays bounded on a machine with many cores. */
#define PL_AEAD_PARALLEL_MAX_THREADS 4

/* Chunks handed out that stay valid at most (pl_aead_parallel_keep). */
#define PL_AEAD_PARALLEL_KEPT_MAX 2

/* Chunks smaller than this stay on one thread: a handover costs more
 * than sealing them. */
#define PL_AEAD_PARALLEL_MIN_CHUNK (256 * 1024)

typedef struct pl_aead_parallel pl_aead_parallel;

/* The number of threads a job with a budget of BUDGET threads gives a
 * stage over S.  More than one only where a second thread can help:
 * chunks of at least PL_AEAD_PARALLEL_MIN_CHUNK, and input READ_IN_PLACE
 * (pushed as stable, see pl_aead_parallel_push).  Input the stage would
 * have to copy first is left to one thread: the copy costs as much as the
 * cipher saves, and such a job (a file read into buffers, armor,
 * compression) keeps its other threads busy reading and writing already.
 * Then BUDGET, capped at PL_AEAD_PARALLEL_MAX_THREADS. */
int pl_aead_parallel_threads (const pl_aead_stream *s, int budget,
                              int read_in_place);

/* A stage over S (which it borrows: S must outlive it, and must not be
 * pushed or finished directly any more) on THREADS threads, the caller's
 * included.  THREADS < 2: the stage passes every call to S.  Workers start
 * when the first chunk is handed to one, so a one-chunk message starts no
 * thread. */
gpg_error_t pl_aead_parallel_new (pl_aead_parallel **out, pl_aead_stream *s,
                                  int threads);

/* As pl_aead_stream_push: consumes input (*CONSUMED octets, possibly
 * fewer than LEN, possibly none while it hands out a chunk) and sets *OUT /
 * *OUTLEN to the next chunk's output when one is ready, else *OUTLEN 0
 * (then all of IN was consumed).  Call again with the rest.
 *
 * STABLE: IN stays valid and unchanged until the stage is freed (an input
 * borrowed from memory).  Then the stage reads its chunks in place, and a
 * chunk's octets that lie in one run of such input are never copied.
 * Otherwise the stage copies what it consumes.
 *
 * What is handed out stays valid until the call after the one that hands
 * out the next chunk: a writer thread may read it meanwhile (pipeline.h).
 * Errors are sticky, as pl_aead_stream_push's. */
gpg_error_t pl_aead_parallel_push (pl_aead_parallel *p, const uint8_t *in,
                                   size_t len, int stable, size_t *consumed,
                                   const uint8_t **out, size_t *outlen);

/* End of input.  Hands out the chunks still pending, one per call, then
 * (encryption) the final tag; *OUTLEN 0 when all is out.  Call until it
 * is.  Errors as pl_aead_stream_finish's. */
gpg_error_t pl_aead_parallel_finish (pl_aead_parallel *p, const uint8_t **out,
                                     size_t *outlen);

/* The chunks gathered from now on, up to NCHUNKS of them, are sealed or
 * opened on the caller's thread, none handed to a worker (a spell, as
 * the stage starts itself when workers get no core in time).  A spell
 * that is already longer stays.  Nothing else changes: order, checks and
 * what is held.  For a caller that knows the machine is saturated, and
 * for tests that switch threads mid-stream. */
void pl_aead_parallel_solo (pl_aead_parallel *p, uint64_t nchunks);

/* Before the first push or finish: what is handed out stays valid until
 * the call after the one that hands out the KEPT-th chunk after it
 * (KEPT 1, the default, is the rule of pl_aead_parallel_push; up to
 * PL_AEAD_PARALLEL_KEPT_MAX, clamped), for a writer that may still read
 * KEPT writes back (pipeline.h, pl_writer_set_foreign_depth).  Costs
 * KEPT - 1 more chunk buffers.  Returns what holds from now on: 1 for
 * a stage that passes every call to S (it alternates two buffers), or
 * when a buffer could not be had. */
int pl_aead_parallel_keep (pl_aead_parallel *p, int kept);

/* What the stage did so far, for benchmarks and tests. */
typedef struct
{
  uint64_t on_caller;           /* chunks sealed or opened by the caller */
  uint64_t on_workers;          /* by workers */
  uint64_t misses;              /* worker chunks taken back or waited for
                                 * long */
  uint64_t spells;              /* spells on the caller's thread alone */
} pl_aead_parallel_stats;

void pl_aead_parallel_get_stats (const pl_aead_parallel *p,
                                 pl_aead_parallel_stats *stats);

/* Waits for the workers and stops them, wipes the buffers.  NULL-safe. */
void pl_aead_parallel_free (pl_aead_parallel *p);
