/* worker.c - a thread that runs a stage's tasks in order
 *
 * Each side signals the other after unlocking, on a condition of its
 * own: signalled under the lock, the woken thread ran at once on the
 * other core (or preempted the signaller), found the lock held and slept
 * on it again, which made four context switches of each handover (perf
 * sched_switch, rfc4880 decryption in memory: 16 per 1 MiB block on 2
 * threads, a third of them in __lll_lock_wait / __lll_lock_wake). */
#include "worker.h"

#include <errno.h>
#include <string.h>
#include <time.h>

/* 1 when T is of the stage whose task the caller runs (lent). */
static int
lent_stage (const pl_worker *w, const pl_worker_task *t)
{
  return w->lent && t->fn == w->lent_fn && t->arg == w->lent_arg;
}

/* 1 when the thread may begin the task at the head.  While a stage's
 * task is lent, the oldest task of another stage comes to the head
 * first, ahead of the lent stage's (each stage's order holds: every
 * task it passes is of the lent stage), so that the thread goes on with
 * the other stages instead of waiting for the give back: with the MDC's
 * and the signature's tasks in turns, a thread that waited at each lent
 * task idled a tenth of the time, and the caller that ran the lent ones
 * became the long chain (a signed decryption at 0.60-0.77 of the
 * unsigned speed, against 0.85-0.87 with a thread for each hash). */
static int
head_ready (pl_worker *w)
{
  int i = 0;

  while (i < w->count
         && lent_stage (w, &w->q[(w->head + i) % PL_WORKER_DEPTH_MAX]))
    i++;
  if (i == w->count)
    return 0;
  if (i > 0)
    {
      pl_worker_task t = w->q[(w->head + i) % PL_WORKER_DEPTH_MAX];

      for (; i > 0; i--)
        w->q[(w->head + i) % PL_WORKER_DEPTH_MAX]
          = w->q[(w->head + i - 1) % PL_WORKER_DEPTH_MAX];
      w->q[w->head] = t;
    }
  return 1;
}

static void *
worker_main (void *arg)
{
  pl_worker *w = arg;

  pthread_mutex_lock (&w->lock);
  for (;;)
    {
      pl_worker_task t;
      gpg_error_t err;
      int start_waiters;

      while (!w->running && !head_ready (w) && !w->quit)
        pthread_cond_wait (&w->work, &w->lock);
      if (!w->running && w->quit)
        break;
      /* The task stays in the ring while it runs: pl_worker_reading
       * sees it. */
      t = w->q[w->head];
      w->running = 1;
      start_waiters = w->start_waiters;
      pthread_mutex_unlock (&w->lock);
      /* pl_worker_wait_running may wait for a task to begin. */
      if (start_waiters)
        pthread_cond_broadcast (&w->done);
      err = t.fn (t.arg, t.p, t.n);
      pthread_mutex_lock (&w->lock);
      if (err && !w->err)
        w->err = err;
      if (w->err)
        /* A failed task stops the rest, in order. */
        w->count = 0;
      else
        {
          w->head = (w->head + 1) % PL_WORKER_DEPTH_MAX;
          w->count--;
        }
      /* The next queued task is claimed before the lock goes, so a
       * thread between two tasks is never seen idle with work queued:
       * pl_worker_take_back takes only from a thread that has not run
       * since the submit.  (Letting go of the lock in between handed
       * the whole queue to a caller woken by the broadcast below
       * whenever it won the lock, a busy thread's queue hashed on the
       * caller's after waiting for it: 4-29 MiB of a signed 128 MiB
       * decryption, bench/sig-speed.) */
      w->running = head_ready (w) && !w->quit;
      pthread_mutex_unlock (&w->lock);
      /* Submit and wait may both be waiting (a stage's two threads). */
      pthread_cond_broadcast (&w->done);
      pthread_mutex_lock (&w->lock);
    }
  pthread_mutex_unlock (&w->lock);
  return NULL;
}

gpg_error_t
pl_worker_start_queue (pl_worker *w, pl_task_fn fn, void *arg, int depth)
{
  memset (w, 0, sizeof *w);
  pthread_mutex_init (&w->lock, NULL);
  pthread_cond_init (&w->work, NULL);
  pthread_cond_init (&w->done, NULL);
  w->fn = fn;
  w->arg = arg;
  w->depth = depth < 1 ? 1
             : depth > PL_WORKER_DEPTH_MAX ? PL_WORKER_DEPTH_MAX : depth;
  if (pthread_create (&w->thread, NULL, worker_main, w))
    {
      pthread_cond_destroy (&w->work);
      pthread_cond_destroy (&w->done);
      pthread_mutex_destroy (&w->lock);
      memset (w, 0, sizeof *w);
      return gpg_error (GPG_ERR_ENOMEM);
    }
  return 0;
}

void
pl_worker_name (pl_worker *w, const char *name)
{
  if (pl_worker_running (w) && strlen (name) < 16)
    pthread_setname_np (w->thread, name);
}

gpg_error_t
pl_worker_start (pl_worker *w, pl_task_fn fn, void *arg)
{
  return pl_worker_start_queue (w, fn, arg, 1);
}

/* A shared worker's own function: never run, every task names its
 * own. */
static gpg_error_t
no_task (void *arg, const uint8_t *p, size_t n)
{
  (void) arg;
  (void) p;
  (void) n;
  return gpg_error (GPG_ERR_INTERNAL);
}

gpg_error_t
pl_worker_start_shared (pl_worker *w, int depth)
{
  return pl_worker_start_queue (w, no_task, NULL, depth);
}

gpg_error_t
pl_worker_submit (pl_worker *w, const uint8_t *p, size_t n)
{
  return pl_worker_submit_task (w, w->fn, w->arg, p, n);
}

gpg_error_t
pl_worker_submit_task (pl_worker *w, pl_task_fn fn, void *arg,
                       const uint8_t *p, size_t n)
{
  gpg_error_t err;

  pthread_mutex_lock (&w->lock);
  while (w->count >= w->depth && !w->err)
    pthread_cond_wait (&w->done, &w->lock);
  err = w->err;
  if (!err)
    {
      w->q[(w->head + w->count) % PL_WORKER_DEPTH_MAX]
        = (pl_worker_task) { p, n, fn, arg };
      w->count++;
    }
  pthread_mutex_unlock (&w->lock);
  if (!err)
    pthread_cond_signal (&w->work);
  return err;
}

/* pl_worker_reading, W's lock held. */
static int
reading_locked (const pl_worker *w, const void *lo, size_t len)
{
  const uint8_t *a = lo, *b = a + len;

  for (int i = 0; i < w->count; i++)
    {
      const pl_worker_task *t = &w->q[(w->head + i) % PL_WORKER_DEPTH_MAX];

      if (t->p < b && t->p + t->n > a)
        return 1;
    }
  return 0;
}

int
pl_worker_reading (pl_worker *w, const void *lo, size_t len)
{
  int reading;

  if (!w->fn)
    return 0;
  pthread_mutex_lock (&w->lock);
  reading = reading_locked (w, lo, len);
  pthread_mutex_unlock (&w->lock);
  return reading;
}

void
pl_worker_wait_reading (pl_worker *w, const void *lo, size_t len)
{
  if (!w->fn)
    return;
  pthread_mutex_lock (&w->lock);
  /* Every task's end (and a failure's drop) broadcasts DONE. */
  while (reading_locked (w, lo, len))
    pthread_cond_wait (&w->done, &w->lock);
  pthread_mutex_unlock (&w->lock);
}

int
pl_worker_busy (pl_worker *w)
{
  int busy;

  if (!w->fn)
    return 0;
  pthread_mutex_lock (&w->lock);
  busy = w->count > 0;
  pthread_mutex_unlock (&w->lock);
  return busy;
}

int
pl_worker_full (pl_worker *w)
{
  int full;

  if (!w->fn)
    return 0;
  pthread_mutex_lock (&w->lock);
  full = w->count >= w->depth;
  pthread_mutex_unlock (&w->lock);
  return full;
}

int
pl_worker_take_back (pl_worker *w, pl_worker_task *tasks)
{
  int n = 0;

  if (!w->fn)
    return 0;
  pthread_mutex_lock (&w->lock);
  if (!w->running && !w->err && !w->lent)
    {
      for (n = 0; n < w->count; n++)
        tasks[n] = w->q[(w->head + n) % PL_WORKER_DEPTH_MAX];
      w->count = 0;
    }
  pthread_mutex_unlock (&w->lock);
  if (n)
    /* A submit of another thread may wait for room. */
    pthread_cond_broadcast (&w->done);
  return n;
}

int
pl_worker_take_back_one (pl_worker *w, pl_worker_task *task)
{
  int found = -1;

  if (!w->fn)
    return 0;
  pthread_mutex_lock (&w->lock);
  for (int i = w->running; i < w->count && !w->err && !w->lent; i++)
    {
      const pl_worker_task *t = &w->q[(w->head + i) % PL_WORKER_DEPTH_MAX];
      int first = 1;

      for (int k = 0; k < i && first; k++)
        {
          const pl_worker_task *e
            = &w->q[(w->head + k) % PL_WORKER_DEPTH_MAX];
          first = e->fn != t->fn || e->arg != t->arg;
        }
      if (first)
        {
          found = i;
          break;
        }
    }
  if (found >= 0)
    {
      *task = w->q[(w->head + found) % PL_WORKER_DEPTH_MAX];
      for (int i = found; i + 1 < w->count; i++)
        w->q[(w->head + i) % PL_WORKER_DEPTH_MAX]
          = w->q[(w->head + i + 1) % PL_WORKER_DEPTH_MAX];
      w->count--;
      w->lent = 1;
      w->lent_fn = task->fn;
      w->lent_arg = task->arg;
    }
  pthread_mutex_unlock (&w->lock);
  if (found >= 0)
    /* A submit of another thread may wait for room. */
    pthread_cond_broadcast (&w->done);
  return found >= 0;
}

void
pl_worker_give_back (pl_worker *w, gpg_error_t err)
{
  pthread_mutex_lock (&w->lock);
  w->lent = 0;
  if (err && !w->err)
    w->err = err;
  if (w->err && !w->running)
    /* As a failed task on the thread stops the rest; a running one
     * drops them when it ends. */
    w->count = 0;
  pthread_mutex_unlock (&w->lock);
  pthread_cond_signal (&w->work);
  pthread_cond_broadcast (&w->done);
}

int
pl_worker_run_lent (pl_worker *w, gpg_error_t *err)
{
  pl_worker_task t;

  *err = 0;
  if (!pl_worker_take_back_one (w, &t))
    return 0;
  *err = pl_worker_task_run (&t);
  pl_worker_give_back (w, *err);
  return 1;
}

gpg_error_t
pl_worker_submit_sharing (pl_worker *w, pl_task_fn fn, void *arg,
                          const uint8_t *p, size_t n)
{
  gpg_error_t lent_err;

  /* A lent task's error is the worker's (give back): the submit below
   * returns it. */
  while (pl_worker_full (w) && pl_worker_run_lent (w, &lent_err))
    ;
  return pl_worker_submit_task (w, fn, arg, p, n);
}

void
pl_worker_wait_running (pl_worker *w, double timeout)
{
  if (!w->fn)
    return;
  pthread_mutex_lock (&w->lock);
  if (w->running)
    {
      /* The ring's head moves on when the task ends (or all are
       * dropped on a failure). */
      int head = w->head, count = w->count;

      while (w->running && w->head == head && w->count == count)
        pthread_cond_wait (&w->done, &w->lock);
    }
  else if (w->count && timeout > 0)
    {
      struct timespec until;
      long ns;

      clock_gettime (CLOCK_REALTIME, &until);
      ns = until.tv_nsec + (long) ((timeout - (double) (time_t) timeout) * 1e9);
      until.tv_sec += (time_t) timeout + ns / 1000000000L;
      until.tv_nsec = ns % 1000000000L;
      w->start_waiters++;
      while (!w->running && w->count && !w->quit)
        if (pthread_cond_timedwait (&w->done, &w->lock, &until) == ETIMEDOUT)
          break;
      w->start_waiters--;
    }
  pthread_mutex_unlock (&w->lock);
}

gpg_error_t
pl_worker_wait (pl_worker *w)
{
  gpg_error_t err;

  if (!w->fn)
    return 0;
  pthread_mutex_lock (&w->lock);
  while (w->count)
    pthread_cond_wait (&w->done, &w->lock);
  err = w->err;
  pthread_mutex_unlock (&w->lock);
  return err;
}

void
pl_worker_stop (pl_worker *w)
{
  if (!w->fn)
    return;
  pthread_mutex_lock (&w->lock);
  w->quit = 1;
  pthread_mutex_unlock (&w->lock);
  pthread_cond_signal (&w->work);
  pthread_join (w->thread, NULL);
  pthread_cond_destroy (&w->work);
  pthread_cond_destroy (&w->done);
  pthread_mutex_destroy (&w->lock);
  memset (w, 0, sizeof *w);
}

uint64_t
pl_spells_score (pl_spells *s, int hit, int limit, uint64_t first,
                 uint64_t max)
{
  uint64_t len;

  if (hit)
    {
      s->misses = 0;
      s->next = first;
      return 0;
    }
  if (++s->misses < limit)
    return 0;
  s->misses = 0;
  len = s->next ? s->next : first;
  s->next = len * 2 > max ? max : len * 2;
  return len;
}
