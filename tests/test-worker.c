/* test-worker.c - a thread that runs a stage's tasks in order, a few
 * queued (core/worker.h): the order, the depth a submit waits at, what
 * pl_worker_reading sees, the first failure stopping the rest; taking
 * queued tasks back; a task's end claiming the next */
#include <string.h>

#include "testutil.h"
#include "worker.h"

/* A queue of DEPTH tasks: they run in order; submit goes on while fewer
 * than DEPTH are held; pl_worker_reading sees every queued task's
 * buffer, not only the running one's; a failure mid-queue drops what is
 * behind it, and every later submit and wait returns it; stop drops the
 * queued tasks unrun (a cancel does not wait for them). */
static void
test_worker_queue (void)
{
  static const uint8_t tasks[] = "abcdefghijklmnop";
  tu_task_log l = { .log = g_string_new (NULL), .fail_at = -1 };
  pl_worker w;

  g_mutex_init (&l.lock);
  g_cond_init (&l.opened);
  for (int depth = 1; depth <= PL_WORKER_DEPTH_MAX; depth *= 2)
    {
      g_string_truncate (l.log, 0);
      l.delay_us = 2000;
      l.fail_at = -1;
      g_assert_cmpint (pl_worker_start_queue (&w, tu_log_task, &l, depth), ==,
                       0);
      for (int i = 0; i < 16; i++)
        g_assert_cmpint (pl_worker_submit (&w, tasks + i, 1), ==, 0);
      /* The last DEPTH tasks are at most queued or running: at least
       * the 16 - DEPTH - 1 before them have run. */
      g_mutex_lock (&l.lock);
      g_assert_cmpuint (l.log->len, >=, 16 - depth - 1);
      g_mutex_unlock (&l.lock);
      g_assert_cmpint (pl_worker_wait (&w), ==, 0);
      g_assert_cmpstr (l.log->str, ==, (const char *) tasks);
      g_assert_false (pl_worker_reading (&w, tasks, 16));
      g_assert_false (pl_worker_busy (&w));

      /* Held at the gate: the running task's buffer and every queued
       * one's are being read, the rest not. */
      g_string_truncate (l.log, 0);
      l.closed = TRUE;
      for (int i = 0; i < depth; i++)
        g_assert_cmpint (pl_worker_submit (&w, tasks + i, 1), ==, 0);
      g_assert_true (pl_worker_busy (&w));
      for (int i = 0; i < depth; i++)
        g_assert_true (pl_worker_reading (&w, tasks + i, 1));
      g_assert_false (pl_worker_reading (&w, tasks + depth, 16 - depth));
      g_mutex_lock (&l.lock);
      l.closed = FALSE;
      g_cond_broadcast (&l.opened);
      g_mutex_unlock (&l.lock);
      g_assert_cmpint (pl_worker_wait (&w), ==, 0);
      g_assert_cmpuint (l.log->len, ==, (guint) depth);
      g_assert_false (pl_worker_reading (&w, tasks, 16));

      /* A failure at 'e': what is queued behind it never runs. */
      g_string_truncate (l.log, 0);
      l.fail_at = 'e';
      for (int i = 0; i < 16; i++)
        if (pl_worker_submit (&w, tasks + i, 1))
          break;
      g_assert_cmpint (gpg_err_code (pl_worker_wait (&w)), ==, GPG_ERR_EIO);
      g_assert_cmpstr (l.log->str, ==, "abcde");
      g_assert_cmpint (gpg_err_code (pl_worker_submit (&w, tasks, 1)), ==,
                       GPG_ERR_EIO);
      g_assert_cmpint (gpg_err_code (pl_worker_wait (&w)), ==, GPG_ERR_EIO);
      g_assert_false (pl_worker_reading (&w, tasks, 16));
      pl_worker_stop (&w);

      /* Stop with a full queue: the running task ends, the rest are
       * dropped. */
      g_string_truncate (l.log, 0);
      l.fail_at = -1;
      l.delay_us = 50000;
      g_assert_cmpint (pl_worker_start_queue (&w, tu_log_task, &l, depth), ==,
                       0);
      g_atomic_int_set (&l.started, 0);
      for (int i = 0; i < depth; i++)
        g_assert_cmpint (pl_worker_submit (&w, tasks + i, 1), ==, 0);
      /* Once the first task runs (however slow the machine), the others
       * are still queued behind its 50 ms. */
      while (!g_atomic_int_get (&l.started))
        g_usleep (1000);
      pl_worker_stop (&w);
      g_assert_cmpuint (l.log->len, >=, 1);
      g_assert_cmpuint (l.log->len, <, MAX (depth, 2));
      g_assert_false (pl_worker_running (&w));
    }
  /* A depth beyond the ring is clamped, never overruns it. */
  g_string_truncate (l.log, 0);
  l.delay_us = 100;
  g_assert_cmpint (pl_worker_start_queue (&w, tu_log_task, &l, 99), ==, 0);
  g_assert_cmpint (w.depth, ==, PL_WORKER_DEPTH_MAX);
  for (int i = 0; i < 16; i++)
    g_assert_cmpint (pl_worker_submit (&w, tasks + i, 1), ==, 0);
  g_assert_cmpint (pl_worker_wait (&w), ==, 0);
  g_assert_cmpstr (l.log->str, ==, (const char *) tasks);
  pl_worker_stop (&w);
  g_cond_clear (&l.opened);
  g_mutex_clear (&l.lock);
  g_string_free (l.log, TRUE);
}

/* Taking back: while a task runs, nothing is taken back (the order would
 * break) and a timed wait does not return before it ends; taken back
 * before the worker begins, the tasks run on the caller in their order, and the
 * worker runs none of them: over many rounds, whoever ran each task, the
 * log is the order submitted. */
static void
test_worker_take_back (void)
{
  static const uint8_t tasks[] = "abcdefgh";
  tu_task_log l = { .log = g_string_new (NULL), .fail_at = -1 };
  pl_worker_task back[PL_WORKER_DEPTH_MAX];
  pl_worker w;
  int rounds_taken = 0;

  g_mutex_init (&l.lock);
  g_cond_init (&l.opened);
  g_assert_cmpint (pl_worker_start_queue (&w, tu_log_task, &l, 4), ==, 0);
  /* Nothing held: nothing to take, no wait. */
  g_assert_cmpint (pl_worker_take_back (&w, back), ==, 0);
  pl_worker_wait_running (&w, 10.0);
  g_assert_false (pl_worker_full (&w));

  l.closed = TRUE;
  g_atomic_int_set (&l.started, 0);
  for (int i = 0; i < 4; i++)
    g_assert_cmpint (pl_worker_submit (&w, tasks + i, 1), ==, 0);
  g_assert_true (pl_worker_full (&w));
  while (!g_atomic_int_get (&l.started))
    g_usleep (1000);
  /* 'a' runs (held at the gate): b, c, d stay queued. */
  g_assert_cmpint (pl_worker_take_back (&w, back), ==, 0);
  g_assert_true (pl_worker_reading (&w, tasks + 1, 3));
  g_mutex_lock (&l.lock);
  l.closed = FALSE;
  g_cond_broadcast (&l.opened);
  g_mutex_unlock (&l.lock);
  /* Returns once 'a' ended. */
  pl_worker_wait_running (&w, 0);
  g_mutex_lock (&l.lock);
  g_assert_cmpuint (l.log->len, >=, 1);
  g_mutex_unlock (&l.lock);
  g_assert_cmpint (pl_worker_wait (&w), ==, 0);
  g_assert_cmpstr (l.log->str, ==, "abcd");

  l.delay_us = 0;
  for (int r = 0; r < 300; r++)
    {
      int n;

      g_string_truncate (l.log, 0);
      for (int i = 0; i < 4; i++)
        g_assert_cmpint (pl_worker_submit (&w, tasks + i, 1), ==, 0);
      n = pl_worker_take_back (&w, back);
      g_assert_cmpint (n, <=, 4);
      rounds_taken += n > 0;
      if (n)
        g_assert_false (pl_worker_busy (&w));
      for (int i = 0; i < n; i++)
        {
          g_assert_true (back[i].p == tasks + 4 - n + i);
          tu_log_task (&l, back[i].p, back[i].n);
        }
      g_assert_cmpint (pl_worker_wait (&w), ==, 0);
      g_assert_cmpstr (l.log->str, ==, "abcd");
    }
  g_test_message ("taken back in %d of 300 rounds", rounds_taken);
  pl_worker_stop (&w);
  g_cond_clear (&l.opened);
  g_mutex_clear (&l.lock);
  g_string_free (l.log, TRUE);
}

/* A worker that ends a task claims the next queued one before anybody
 * else can look: from the moment it began the first of a queue until the
 * queue is empty, a caller polling pl_worker_take_back as fast as it can
 * never finds it between two tasks.  (It did, one task boundary in a
 * few, when the worker let go of its lock between ending one task and
 * beginning the next: the signature hasher's queue then went to the
 * caller, bench/sig-speed.) */
static void
test_worker_claims_next (void)
{
  static const uint8_t tasks[] = "abcdefgh";
  tu_task_log l = { .log = g_string_new (NULL), .fail_at = -1 };
  pl_worker_task back[PL_WORKER_DEPTH_MAX];
  pl_worker w;
  guint64 polls = 0;

  g_mutex_init (&l.lock);
  g_cond_init (&l.opened);
  g_assert_cmpint (pl_worker_start_queue (&w, tu_log_task, &l, 8), ==, 0);
  for (int r = 0; r < 200; r++)
    {
      g_string_truncate (l.log, 0);
      l.closed = TRUE;
      g_atomic_int_set (&l.started, 0);
      for (int i = 0; i < 8; i++)
        g_assert_cmpint (pl_worker_submit (&w, tasks + i, 1), ==, 0);
      while (!g_atomic_int_get (&l.started))
        g_usleep (100);
      g_mutex_lock (&l.lock);
      l.closed = FALSE;
      g_cond_broadcast (&l.opened);
      g_mutex_unlock (&l.lock);
      while (pl_worker_busy (&w))
        {
          g_assert_cmpint (pl_worker_take_back (&w, back), ==, 0);
          polls++;
        }
      g_assert_cmpint (pl_worker_wait (&w), ==, 0);
      g_assert_cmpstr (l.log->str, ==, "abcdefgh");
    }
  g_test_message ("%" G_GUINT64_FORMAT " polls", polls);
  pl_worker_stop (&w);
  g_cond_clear (&l.opened);
  g_mutex_clear (&l.lock);
  g_string_free (l.log, TRUE);
}

int
main (int argc, char **argv)
{
  tu_init (&argc, &argv);
  g_test_add_func ("/worker/queue", test_worker_queue);
  g_test_add_func ("/worker/take-back", test_worker_take_back);
  g_test_add_func ("/worker/claims-next", test_worker_claims_next);
  return g_test_run ();
}
