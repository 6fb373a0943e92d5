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

void
pl_sig_hasher_share_worker (pl_sig_hasher *sh, pl_worker *w)
{
  sh->shared = w && pl_worker_running (w) ? w : NULL;
}

/* The worker the spans go to: the job's shared one, or the hasher's
 * own. */
static pl_worker *
worker_of (pl_sig_hasher *sh)
{
  return sh->shared ? sh->shared : &sh->worker;
}

int
pl_sig_hasher_active (const pl_sig_hasher *sh)
{
  return sh->n > 0;
}

/* Into every context, on whichever thread; the injected fault first. */
static gpg_error_t
hash_span (pl_sig_hasher *sh, const uint8_t *p, size_t n)
{
  gpg_error_t ferr = atomic_load (&fault_err);

  if (ferr && atomic_fetch_add (&sh->hashed, n) + n
              > atomic_load (&fault_after))
    return ferr;
  for (size_t i = 0; i < sh->n; i++)
    pl_data_hash_write (sh->h[i], p, n);
  return 0;
}

/* A span's task: on the thread, or on the caller's when taken back or
 * lent; the cancel flag is checked either way. */
static gpg_error_t
hash_task (void *arg, const uint8_t *p, size_t n)
{
  pl_sig_hasher *sh = arg;
  gpg_error_t err = 0;

  if (sh->cancel && atomic_load (sh->cancel))
    err = gpg_error (GPG_ERR_CANCELED);
  if (!err)
    err = hash_span (sh, p, n);
  if (err)
    return err;
  /* Taken back (take_back_all), or lent by a shared worker (worker.h):
   * on the caller's thread. */
  if (pthread_equal (pthread_self (), worker_of (sh)->thread))
    atomic_fetch_add (&sh->on_thread, n);
  else
    {
      sh->stats.on_caller += n;
      sh->stats.taken_back += n;
    }
  return 0;
}

/* On the caller's thread, after what the thread holds. */
static gpg_error_t
hash_here (pl_sig_hasher *sh, const uint8_t *p, size_t n)
{
  gpg_error_t err = pl_worker_wait (worker_of (sh));

  if (!err && !sh->err)
    sh->err = hash_span (sh, p, n);
  if (!err && !sh->err)
    sh->stats.on_caller += n;
  return err ? err : sh->err;
}

/* Hashes here the spans the thread has not begun, in order, each with
 * its task's own function (hash_task, or another stage's on a shared
 * worker); 0 when it hashes one now (or holds none). */
static int
take_back_all (pl_sig_hasher *sh)
{
  pl_worker_task t[PL_WORKER_DEPTH_MAX];
  int k = pl_worker_take_back (worker_of (sh), t);

  for (int i = 0; i < k && !sh->err; i++)
    sh->err = pl_worker_task_run (&t[i]);
  return k;
}

gpg_error_t
pl_sig_hasher_push (pl_sig_hasher *sh, const uint8_t *p, size_t n,
                    pl_span_kind kind)
{
  (void) kind;                  /* the caller's promise; see sighash.h */
  if (sh->err)
    return sh->err;
  if (!n || !sh->n)
    return 0;
  if (sh->threads < 2 || sh->thread_failed || n < PL_SIG_HASHER_THREAD_MIN)
    return hash_here (sh, p, n);
  if (!pl_worker_running (worker_of (sh))
      && pl_worker_start_queue (&sh->worker, hash_task, sh,
                                PL_SIG_HASHER_DEPTH))
    {
      sh->thread_failed = 1;
      return hash_here (sh, p, n);
    }
  /* A thread that holds DEPTH spans and has not begun the oldest gets
   * no core: its spans are hashed here, in order, before this one. */
  if (pl_worker_full (worker_of (sh)) && take_back_all (sh) && sh->err)
    return sh->err;
  sh->stats.handed += n;
  /* A shared worker's thread that is busy and full: the caller takes a
   * share of the work instead of waiting for room. */
  if (sh->shared)
    return pl_worker_submit_sharing (sh->shared, hash_task, sh, p, n);
  return pl_worker_submit (&sh->worker, p, n);
}

int
pl_sig_hasher_reading (void *arg, const void *lo, size_t len)
{
  pl_sig_hasher *sh = arg;
  return pl_worker_reading (worker_of (sh), lo, len);
}

void
pl_sig_hasher_unpin (void *arg, const void *lo, size_t len)
{
  pl_sig_hasher *sh = arg;
  gpg_error_t lent_err;

  /* A shared worker lends a task of a stage that is not running
   * (worker.h): this thread runs it meanwhile.  Its error is the
   * worker's, which the next push or wait returns. */
  while (pl_worker_reading (worker_of (sh), lo, len))
    if (!(sh->shared && pl_worker_run_lent (sh->shared, &lent_err))
        && !take_back_all (sh))
      /* It hashes a span: until that ends; or it was about to begin. */
      pl_worker_wait_running (worker_of (sh), 0.001);
}

gpg_error_t
pl_sig_hasher_wait (pl_sig_hasher *sh)
{
  gpg_error_t err = pl_worker_wait (worker_of (sh));

  return err ? err : sh->err;
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
  sh->shared = NULL;
  sh->n = 0;
}
