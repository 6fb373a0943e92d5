/* sighash.c - the data hash of signatures, on a thread of its own */
#include "sighash.h"

#include <string.h>

static _Atomic uint64_t fault_after;
static _Atomic gpg_error_t fault_err;

void
pl_sig_hasher_inject_fault (uint64_t after, gpg_error_t err)
{
  atomic_store (&fault_after, after);
  atomic_store (&fault_err, err);
}

void
pl_sig_hasher_init (pl_sig_hasher *sh, int threads, atomic_int *cancel)
{
  memset (sh, 0, sizeof *sh);
  sh->threads = threads < 1 ? 1 : threads;
  sh->cancel = cancel;
}

gpg_error_t
pl_sig_hasher_add (pl_sig_hasher *sh, pl_data_hash *h)
{
  if (sh->n == PL_SIG_HASHER_MAX)
    return gpg_error (GPG_ERR_TOO_MANY);
  sh->h[sh->n++] = h;
  return 0;
}

int
pl_sig_hasher_active (const pl_sig_hasher *sh)
{
  return sh->n > 0;
}

static void
hash_span (pl_sig_hasher *sh, const uint8_t *p, size_t n)
{
  for (size_t i = 0; i < sh->n; i++)
    pl_data_hash_write (sh->h[i], p, n);
}

/* On the thread. */
static gpg_error_t
hash_task (void *arg, const uint8_t *p, size_t n)
{
  pl_sig_hasher *sh = arg;
  gpg_error_t ferr = atomic_load (&fault_err);

  if (sh->cancel && atomic_load (sh->cancel))
    return gpg_error (GPG_ERR_CANCELED);
  if (ferr && atomic_load (&sh->on_thread) + n > atomic_load (&fault_after))
    return ferr;
  hash_span (sh, p, n);
  atomic_fetch_add (&sh->on_thread, n);
  return 0;
}

/* On the caller's thread, after what the thread holds. */
static gpg_error_t
hash_here (pl_sig_hasher *sh, const uint8_t *p, size_t n)
{
  gpg_error_t err = pl_worker_wait (&sh->worker);

  if (err)
    return err;
  hash_span (sh, p, n);
  sh->stats.on_caller += n;
  return 0;
}

/* A thread that holds DEPTH spans and has not begun the oldest gets no
 * core: its spans are hashed here, in order, before the next. */
static void
take_back (pl_sig_hasher *sh)
{
  pl_worker_task t[PL_WORKER_DEPTH_MAX];
  int k;

  if (!pl_worker_full (&sh->worker))
    return;
  k = pl_worker_take_back (&sh->worker, t);
  for (int i = 0; i < k; i++)
    {
      hash_span (sh, t[i].p, t[i].n);
      sh->stats.on_caller += t[i].n;
      sh->stats.taken_back += t[i].n;
    }
}

gpg_error_t
pl_sig_hasher_push (pl_sig_hasher *sh, const uint8_t *p, size_t n,
                    pl_span_kind kind)
{
  (void) kind;                  /* the caller's promise; see sighash.h */
  if (!n || !sh->n)
    return 0;
  if (sh->threads < 2 || sh->thread_failed || n < PL_SIG_HASHER_THREAD_MIN)
    return hash_here (sh, p, n);
  if (!pl_worker_running (&sh->worker)
      && pl_worker_start_queue (&sh->worker, hash_task, sh,
                                PL_SIG_HASHER_DEPTH))
    {
      sh->thread_failed = 1;
      return hash_here (sh, p, n);
    }
  take_back (sh);
  return pl_worker_submit (&sh->worker, p, n);
}

int
pl_sig_hasher_reading (pl_sig_hasher *sh, const void *lo, size_t len)
{
  return pl_worker_reading (&sh->worker, lo, len);
}

pl_worker *
pl_sig_hasher_worker (pl_sig_hasher *sh)
{
  return &sh->worker;
}

gpg_error_t
pl_sig_hasher_wait (pl_sig_hasher *sh)
{
  return pl_worker_wait (&sh->worker);
}

void
pl_sig_hasher_get_stats (const pl_sig_hasher *sh, pl_sig_hasher_stats *stats)
{
  *stats = sh->stats;
  stats->on_thread = atomic_load (&sh->on_thread);
}

void
pl_sig_hasher_clear (pl_sig_hasher *sh)
{
  pl_worker_stop (&sh->worker);
  sh->n = 0;
}
