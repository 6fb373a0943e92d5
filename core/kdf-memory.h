/* kdf-memory.h - one process-wide budget for key-derivation memory
 *
 * An Argon2 derivation fills up to 2 GiB (RFC 9580's first recommended
 * parameters are t=1, p=4, m=2^21 KiB), and the jobs of a batch run one
 * per core: without a bound, two such messages in one batch held 4.1 GB.
 * So every Argon2 run (s2k.c) first takes its memory from one budget of
 * the process, PL_KDF_MEMORY_BUDGET_KIB, and gives it back once the
 * memory is freed:
 *
 *  - pl_kdf_memory_take returns at once while the budget has room, and
 *    otherwise waits: one derivation of 2 GiB runs at a time, while 32
 *    of 64 MiB (the rfc9580 profile's) run together.  Waiters are served
 *    in the order they came, so small derivations do not starve a large
 *    one.  A request larger than the budget runs alone.
 *  - A wait ends with GPG_ERR_CANCELED within 20 ms of *CANCEL becoming
 *    non-zero; nothing is taken then.
 *  - No deadlock: what holds memory is a derivation under way, which
 *    needs nothing else to finish; a job that waits holds none.  (A job
 *    waiting for another job's key in a derived-key cache, keycache.h,
 *    holds none either.)
 *  - A cancelled Argon2 is left by its caller at once, but its helper
 *    thread keeps the memory until its current segment ends and
 *    pl_argon2id unmaps it (s2k.h, argon2.h): the budget is given back
 *    then, not before, so that a cancel never lets two 2 GiB fills
 *    overlap.
 *
 * All functions are thread-safe.
 */
#pragma once

#include <stdatomic.h>
#include <stdint.h>
#include <gpg-error.h>

/* 2 GiB: PL_S2K_ARGON2_DEFAULT_CAP_KIB, the largest derivation allowed
 * by default. */
#define PL_KDF_MEMORY_BUDGET_KIB (2u * 1024 * 1024)

/* Called with 1 before a wait and 0 after it, with ARG. */
typedef void (*pl_kdf_memory_waiting_fn) (void *arg, int waiting);

/* Takes KIB from the budget, waiting while it has no room (WAITING, may
 * be NULL, hears of it).  CANCEL may be NULL.  0 or GPG_ERR_CANCELED. */
gpg_error_t pl_kdf_memory_take (uint64_t kib, const atomic_int *cancel,
                                pl_kdf_memory_waiting_fn waiting,
                                void *arg);

/* Gives back what one pl_kdf_memory_take of KIB took. */
void pl_kdf_memory_give (uint64_t kib);

/* What the budget has seen, for tests and benchmarks. */
typedef struct
{
  uint64_t in_use_kib;          /* taken now */
  uint64_t peak_kib;            /* the most ever taken at once */
  uint64_t waits;               /* takes that had to wait */
  uint64_t waiting;             /* takes waiting now */
} pl_kdf_memory_stats;

void pl_kdf_memory_get_stats (pl_kdf_memory_stats *stats);
