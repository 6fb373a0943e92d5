/* prealloc.h - the output's room, made while a key is derived
 *
 * Before the first octet of data, a job waits for its session key: gpg's
 * iterated S2K takes about 40 ms, the rfc9580 profile's Argon2 about
 * 120 ms, and a secret key asks gpg-agent (and perhaps the user).  One
 * core does that; the other has nothing to do.  Meanwhile the output's
 * writes are the job's floor: 512 MiB into fresh tmpfs pages costs 0.17 s
 * of system time, 0.11 s of it the pages' allocation (bench/COPY.md).  A
 * pl_prealloc spends the wait on that allocation, on a thread of its
 * own, through the sink's allocate (io.h): copy-limit's kdf-falloc-rw2
 * takes 0.192 s where kdf-rw2 (a 40 ms derivation, then the copy) takes
 * 0.223 s, and the copy alone 0.184 s.
 *
 *  - pl_prealloc_start allocates the sink's octets [0, LEN) in steps of
 *    PL_PREALLOC_STEP, from the sink's first octet on, until LEN or until
 *    pl_prealloc_stop.  It returns NULL, and nothing is done, when the
 *    sink has no allocate, LEN is below PL_PREALLOC_MIN, or no thread can
 *    be had: the room is an optimisation, never needed.
 *  - pl_prealloc_stop returns within one step (about 0.5 ms on tmpfs),
 *    after the thread has ended: from then on the sink is the caller's
 *    alone.  It returns the octets allocated.  NULL-safe.
 *  - The caller may write to the sink while the thread runs (allocate is
 *    safe beside write), but only the wait is meant: stop before the
 *    data's writes, which would otherwise contend for the file's lock.
 *  - LEN is a guess (the input's size); what was allocated past the
 *    output's end is given back by the sink's commit or abort.  A step
 *    that fails (a full disk, a filesystem without fallocate) ends the
 *    thread quietly; the writes then meet the same condition and report
 *    it themselves.
 */
#pragma once

#include <stddef.h>
#include <stdint.h>

#include "io.h"
#include "job.h"

#define PL_PREALLOC_STEP (2u << 20)
#define PL_PREALLOC_MIN (16u << 20)

typedef struct pl_prealloc pl_prealloc;

pl_prealloc *pl_prealloc_start (pl_sink *sink, uint64_t len);
uint64_t pl_prealloc_stop (pl_prealloc *p);

/* The jobs' one decision: room for SRC's size in SINK while OPENERS (N
 * of them) are used, when one of them waits (pl_openers_wait, keys.h)
 * and CTL's budget has a second thread for it; else NULL.  Stop it once
 * the key is had, with pl_prealloc_stop. */
pl_prealloc *pl_prealloc_for_keys (pl_sink *sink, const pl_source *src,
                                   const pl_job_control *ctl,
                                   const pl_opener *openers, size_t n);
