/* worker.c - a one-task-at-a-time thread */
#include "worker.h"

#include <string.h>

static void *
worker_main (void *arg)
{
  pl_worker *w = arg;

  pthread_mutex_lock (&w->lock);
  for (;;)
    {
      gpg_error_t err;

      while (!w->busy && !w->quit)
        pthread_cond_wait (&w->cond, &w->lock);
      if (w->quit && !w->busy)
        break;
      pthread_mutex_unlock (&w->lock);
      err = w->fn (w->arg, w->p, w->n);
      pthread_mutex_lock (&w->lock);
      if (err && !w->err)
        w->err = err;
      w->busy = 0;
      pthread_cond_broadcast (&w->cond);
    }
  pthread_mutex_unlock (&w->lock);
  return NULL;
}

gpg_error_t
pl_worker_start (pl_worker *w, pl_task_fn fn, void *arg)
{
  memset (w, 0, sizeof *w);
  pthread_mutex_init (&w->lock, NULL);
  pthread_cond_init (&w->cond, NULL);
  w->fn = fn;
  w->arg = arg;
  if (pthread_create (&w->thread, NULL, worker_main, w))
    {
      pthread_cond_destroy (&w->cond);
      pthread_mutex_destroy (&w->lock);
      memset (w, 0, sizeof *w);
      return gpg_error (GPG_ERR_ENOMEM);
    }
  return 0;
}

gpg_error_t
pl_worker_submit (pl_worker *w, const uint8_t *p, size_t n)
{
  gpg_error_t err;

  pthread_mutex_lock (&w->lock);
  while (w->busy)
    pthread_cond_wait (&w->cond, &w->lock);
  err = w->err;
  if (!err)
    {
      w->p = p;
      w->n = n;
      w->busy = 1;
      pthread_cond_broadcast (&w->cond);
    }
  pthread_mutex_unlock (&w->lock);
  return err;
}

int
pl_worker_reading (pl_worker *w, const void *lo, size_t len)
{
  const uint8_t *a = lo, *b = a + len;
  int reading;

  if (!w->fn)
    return 0;
  pthread_mutex_lock (&w->lock);
  reading = w->busy && w->p < b && w->p + w->n > a;
  pthread_mutex_unlock (&w->lock);
  return reading;
}

int
pl_worker_busy (pl_worker *w)
{
  int busy;

  if (!w->fn)
    return 0;
  pthread_mutex_lock (&w->lock);
  busy = w->busy;
  pthread_mutex_unlock (&w->lock);
  return busy;
}

gpg_error_t
pl_worker_wait (pl_worker *w)
{
  gpg_error_t err;

  if (!w->fn)
    return 0;
  pthread_mutex_lock (&w->lock);
  while (w->busy)
    pthread_cond_wait (&w->cond, &w->lock);
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
  pthread_cond_broadcast (&w->cond);
  pthread_mutex_unlock (&w->lock);
  pthread_join (w->thread, NULL);
  pthread_cond_destroy (&w->cond);
  pthread_mutex_destroy (&w->lock);
  memset (w, 0, sizeof *w);
}
