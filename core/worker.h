/* worker.h - a thread that runs a stage's tasks in order, a few queued
 *
 * The stages hand work to a worker and go on: the MDC's SHA-1 while the
 * cipher runs, a sink write while the next block is decrypted.  A worker
 * holds up to DEPTH tasks, queued or running (pl_worker_start_queue; 1
 * for pl_worker_start), and submit waits while it holds DEPTH.  With
 * DEPTH 1 a stage that alternates two buffers overlaps exactly one task
 * with its own work; with a larger DEPTH the stage goes on while the
 * worker is up to DEPTH tasks behind, and must keep every buffer a task
 * was given unchanged until pl_worker_reading says the worker is done
 * with it (so a pool of DEPTH + 1 buffers is what a stage that fills one
 * while the worker reads the rest needs).
 *
 * Tasks run one at a time, in the order submitted, on the worker's
 * thread.  The first task that fails stops the rest: the tasks queued
 * behind it are dropped unrun, and every later submit and wait returns
 * its error.
 */
#pragma once

#include <stddef.h>
#include <stdint.h>
#include <pthread.h>
#include <gpg-error.h>

typedef gpg_error_t (*pl_task_fn) (void *arg, const uint8_t *p, size_t n);

/* The deepest queue a worker holds: each task pins a stage's buffer. */
#define PL_WORKER_DEPTH_MAX 8

/* A task: FN (ARG, P, N); FN and ARG are the worker's own unless the
 * task was submitted with pl_worker_submit_task. */
typedef struct
{
  const uint8_t *p;
  size_t n;
  pl_task_fn fn;
  void *arg;
} pl_worker_task;

typedef struct
{
  pthread_t thread;
  pthread_mutex_t lock;
  pthread_cond_t work;          /* the thread waits for a task */
  pthread_cond_t done;          /* submit and wait wait for tasks to end */
  pl_task_fn fn;
  void *arg;
  pl_worker_task q[PL_WORKER_DEPTH_MAX]; /* a ring: q[head] runs first */
  int head;
  int count;                    /* tasks queued or running */
  int running;                  /* q[head] is running on the thread */
  int start_waiters;            /* pl_worker_wait_running for a start */
  int depth;
  int quit;
  gpg_error_t err;              /* the first task error, kept */
  /* pl_worker_take_back_one: the task the caller runs; the thread runs
   * no task of its stage (same FN and ARG) before pl_worker_give_back. */
  int lent;
  pl_task_fn lent_fn;
  void *lent_arg;
} pl_worker;

/* Starts the thread.  FN (ARG, P, N) runs for each task.  One task at a
 * time is held: a submit waits for the previous task. */
gpg_error_t pl_worker_start (pl_worker *w, pl_task_fn fn, void *arg);

/* As pl_worker_start, holding up to DEPTH tasks (1 to
 * PL_WORKER_DEPTH_MAX; clamped). */
gpg_error_t pl_worker_start_queue (pl_worker *w, pl_task_fn fn, void *arg,
                                   int depth);

/* Waits while the worker holds DEPTH tasks, then queues FN (ARG, P, N)
 * behind them.  Returns the error of an earlier task, if any (and then
 * queues nothing). */
gpg_error_t pl_worker_submit (pl_worker *w, const uint8_t *p, size_t n);

/* A worker shared by stages (encrypt.c and decrypt.c: the MDC's SHA-1
 * and the signature's hash on one thread, so that a job of three chains
 * keeps two threads on two cores).  Started as pl_worker_start_queue with no
 * function of its own: each stage submits its tasks with
 * pl_worker_submit_task, and runs what it takes back with
 * pl_worker_task_run, each task with its own function.  The tasks of
 * all the stages run in the one order they were submitted in, so each
 * stage's tasks keep theirs.  A stage's pl_worker_wait then waits for
 * the other's tasks too, and its pl_worker_take_back takes the other's
 * back as well (runs them in order, which is all a take back needs);
 * the owner stops it, after the stages are done with it. */
gpg_error_t pl_worker_start_shared (pl_worker *w, int depth);

/* As pl_worker_submit, for the task FN (ARG, P, N). */
gpg_error_t pl_worker_submit_task (pl_worker *w, pl_task_fn fn, void *arg,
                                   const uint8_t *p, size_t n);

/* Runs T (one pl_worker_take_back gave) on the caller's thread. */
static inline gpg_error_t
pl_worker_task_run (const pl_worker_task *t)
{
  return t->fn (t->arg, t->p, t->n);
}

/* 1 while a queued or running task reads from [LO, LO + LEN): the
 * moment it returns 0 for a range, the worker is done with it.  For an
 * owner of buffers (pipeline.c) choosing one to refill. */
int pl_worker_reading (pl_worker *w, const void *lo, size_t len);

/* Waits until no queued or running task reads from [LO, LO + LEN) (as
 * pl_worker_reading says; at once when none does, or after a failure
 * dropped the queue): a sleep until the tasks up to the last that
 * reads it have ended, with no polling. */
void pl_worker_wait_reading (pl_worker *w, const void *lo, size_t len);

/* 1 while a task is queued or running.  With DEPTH 1: a submit now
 * would wait. */
int pl_worker_busy (pl_worker *w);

/* 1 while the worker holds DEPTH tasks: a submit now would wait. */
int pl_worker_full (pl_worker *w);

/* Takes back every queued task when none is running (the thread was
 * not scheduled since the submit woke it: a thread that ends a task
 * claims the next queued one in the same hold of the lock, so it is
 * never seen between two tasks): copies them,
 * in order, to TASKS (room for PL_WORKER_DEPTH_MAX) and returns how
 * many; 0 when a task runs, none is queued or a task failed.  The
 * caller then runs them itself, in that order, before it submits again:
 * every task before them has run, and none after them starts, so the
 * order holds.  For a stage whose worker gets no core on a busy machine
 * (seipd.c): the caller does the work instead of waiting for it.  0 too
 * while a task is lent (pl_worker_take_back_one). */
int pl_worker_take_back (pl_worker *w, pl_worker_task *tasks);

/* For a shared worker whose thread is busy, so that the caller takes
 * a share of the work instead of waiting for room: takes out of the
 * queue the oldest task whose stage (FN and ARG) has no task before it,
 * queued or running, copies it to *TASK and returns 1; 0 when there is
 * none (every queued task is of the running task's stage), a task is
 * lent already or one failed.  The caller runs it (pl_worker_task_run)
 * and hands its result to pl_worker_give_back; meanwhile the thread
 * goes on with the other stages' tasks, passing that stage's at the
 * head of the queue, and begins none of that stage's before the give
 * back, so each stage's order holds.  A lent task is out of the queue:
 * pl_worker_reading does not see it, so only the thread that took it
 * may look at its buffer's state meanwhile (it runs it first). */
int pl_worker_take_back_one (pl_worker *w, pl_worker_task *task);

/* The task pl_worker_take_back_one lent has run, with ERR: the thread
 * may go on with its stage.  An ERR is the worker's as a task's on the
 * thread would be: the queue is dropped, and every later submit and
 * wait returns it. */
void pl_worker_give_back (pl_worker *w, gpg_error_t err);

/* Takes one task pl_worker_take_back_one lends, runs it on the caller's
 * thread and gives it back with its result, which it also puts in *ERR
 * (0 when none ran); returns 1 when it ran one.  The one way the stages
 * of a shared worker run a lent task (pl_worker_submit_sharing, seipd.c,
 * sighash.c). */
int pl_worker_run_lent (pl_worker *w, gpg_error_t *err);

/* As pl_worker_submit_task, for a stage of a shared worker: while the
 * worker is full, runs the tasks pl_worker_take_back_one lends on the
 * caller's thread instead of waiting; waits for room only when none can
 * be lent.  So the caller's thread and the worker's share the hashing
 * when the caller's own work is the shorter (encrypt.c: CFB against
 * SHA-1 and SHA-256). */
gpg_error_t pl_worker_submit_sharing (pl_worker *w, pl_task_fn fn,
                                      void *arg, const uint8_t *p,
                                      size_t n);

/* Waits until the task running now ends; when none runs but some are
 * queued, until one begins or TIMEOUT seconds have passed; returns at
 * once when none is held.  With pl_worker_take_back, a wait that can
 * give up on a worker which does not get to its queue. */
void pl_worker_wait_running (pl_worker *w, double timeout);

/* Waits until every task submitted has run (or was dropped after a
 * failure); returns the first task error. */
gpg_error_t pl_worker_wait (pl_worker *w);

/* Waits for the running task, drops the queued ones unrun (a stage
 * stopping early, as on cancel, does not wait for them), stops and joins
 * the thread.  Safe on a zeroed, never started worker. */
void pl_worker_stop (pl_worker *w);

/* Spells on the caller's thread alone, for a stage whose helper thread
 * gets no core on a busy machine (aead-parallel.c, seipd.c): each
 * handover is scored when it ends, a hit or a miss as the stage judges;
 * LIMIT misses in a row start a spell of FIRST units (chunks, octets),
 * doubling after every spell that ends in misses again, up to MAX; a
 * hit starts over at FIRST.  Zeroed: no misses yet. */
typedef struct
{
  int misses;                   /* in a row */
  uint64_t next;                /* the next spell's length; 0: FIRST */
} pl_spells;

/* Scores a handover (HIT 0: a miss); returns the length of the spell to
 * start now, 0 for none. */
uint64_t pl_spells_score (pl_spells *s, int hit, int limit, uint64_t first,
                          uint64_t max);

/* Names the started thread NAME (at most 15 characters: what ps, top
 * and perf show as its comm), so that a profile tells the stages
 * apart.  Nothing happens when W is not running or the name does not
 * fit. */
void pl_worker_name (pl_worker *w, const char *name);

/* 1 when started. */
static inline int
pl_worker_running (const pl_worker *w)
{
  return w->fn != NULL;
}
