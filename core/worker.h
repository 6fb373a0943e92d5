/* worker.h - a thread that runs one task at a time for a pipeline stage
 *
 * The stages hand work to a worker and go on: the MDC's SHA-1 while the
 * cipher runs, a sink write while the next block is decrypted.  Submit
 * waits for the previous task, so a stage that alternates two buffers
 * overlaps exactly one task with its own work and never touches a buffer
 * the worker still reads.
 */
#pragma once

#include <stddef.h>
#include <stdint.h>
#include <pthread.h>
#include <gpg-error.h>

typedef gpg_error_t (*pl_task_fn) (void *arg, const uint8_t *p, size_t n);

typedef struct
{
  pthread_t thread;
  pthread_mutex_t lock;
  pthread_cond_t cond;
  pl_task_fn fn;
  void *arg;
  const uint8_t *p;
  size_t n;
  int busy;
  int quit;
  gpg_error_t err;              /* the first task error, kept */
} pl_worker;

/* Starts the thread.  FN (ARG, P, N) runs for each task. */
gpg_error_t pl_worker_start (pl_worker *w, pl_task_fn fn, void *arg);

/* Waits for the previous task, then queues FN (ARG, P, N).  Returns the
 * error of an earlier task, if any (and then queues nothing). */
gpg_error_t pl_worker_submit (pl_worker *w, const uint8_t *p, size_t n);

/* 1 while the queued or running task reads from [LO, LO + LEN): the
 * moment it returns 0 for a range, the worker is done with it.  For an
 * owner of buffers (pipeline.c) choosing one to refill. */
int pl_worker_reading (pl_worker *w, const void *lo, size_t len);

/* 1 while a task is queued or running: a submit now would wait. */
int pl_worker_busy (pl_worker *w);

/* Waits until no task runs; returns the first task error. */
gpg_error_t pl_worker_wait (pl_worker *w);

/* Waits, stops and joins the thread.  Safe on a zeroed, never started
 * worker. */
void pl_worker_stop (pl_worker *w);

/* 1 when started. */
static inline int
pl_worker_running (const pl_worker *w)
{
  return w->fn != NULL;
}
