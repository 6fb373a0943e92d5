/* test-worker.c - a thread that runs a stage's tasks in order, a few
 * queued (core/worker.h): the order, the depth a submit waits at, what
 * pl_worker_reading sees, the first failure stopping the rest; taking
 * queued tasks back; a task's end claiming the next; a worker shared by
 * two stages, which lends the caller a task of the stage it does not
 * run */
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
  tu_task_log l;
  pl_worker w;

  tu_task_log_init (&l);
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
      tu_task_log_open (&l);
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
  tu_task_log_clear (&l);
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
  tu_task_log l;
  pl_worker_task back[PL_WORKER_DEPTH_MAX];
  pl_worker w;
  int rounds_taken = 0;

  tu_task_log_init (&l);
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
  tu_task_log_open (&l);
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
  tu_task_log_clear (&l);
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
  tu_task_log l;
  pl_worker_task back[PL_WORKER_DEPTH_MAX];
  pl_worker w;
  guint64 polls = 0;

  tu_task_log_init (&l);
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
      tu_task_log_open (&l);
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
  tu_task_log_clear (&l);
}

/* Queues the one-octet task P of the stage that logs into L. */
static void
submit_one (pl_worker *w, tu_task_log *l, const uint8_t *p)
{
  g_assert_cmpint (pl_worker_submit_task (w, tu_log_task, l, p, 1), ==, 0);
}

/* Queues P as submit_one does, held at L's gate: returns once it runs. */
static void
submit_gated (pl_worker *w, tu_task_log *l, const uint8_t *p)
{
  l->closed = TRUE;
  submit_one (w, l, p);
  while (!g_atomic_int_get (&l->started))
    g_usleep (1000);
}

/* A worker shared by two stages, A and B, each its own task log:
 * - every task runs with its own function and argument;
 * - take_back_one lends the oldest task whose stage has none before it:
 *   never one of the running task's stage, never a second of a stage
 *   before the first, and none while one is lent;
 * - while B's task is lent, the thread runs A's but not B's next, which
 *   waits until it is given back (B's order holds);
 * - a lent task's error given back is the worker's: the queue is
 *   dropped, and submit and wait return it. */
static void
test_worker_shared (void)
{
  static const uint8_t a_tasks[] = "abcd", b_tasks[] = "wxyz";
  tu_task_log a, b;
  pl_worker w;
  pl_worker_task t;
  char *s;

  tu_task_log_init (&a);
  tu_task_log_init (&b);
  g_assert_cmpint (pl_worker_start_shared (&w, 4), ==, 0);
  g_assert_true (pl_worker_running (&w));
  /* Nothing held: nothing to lend. */
  g_assert_false (pl_worker_take_back_one (&w, &t));

  /* A's 'a' runs, held at its gate; behind it w, b, x. */
  submit_gated (&w, &a, a_tasks);
  submit_one (&w, &b, b_tasks);
  submit_one (&w, &a, a_tasks + 1);
  submit_one (&w, &b, b_tasks + 1);
  g_assert_true (pl_worker_full (&w));
  /* B's 'w' is lent: the first of its stage.  With it lent, nothing
   * more. */
  g_assert_true (pl_worker_take_back_one (&w, &t));
  g_assert_true (t.p == b_tasks && t.fn == tu_log_task && t.arg == &b);
  g_assert_false (pl_worker_full (&w));
  g_assert_false (pl_worker_take_back_one (&w, &t));
  /* The thread ends 'a', runs 'b' (A's), and stops before 'x' (B's):
   * 'w' has not run. */
  tu_task_log_open (&a);
  while (g_atomic_int_get (&a.started) < 2)
    g_usleep (1000);
  g_usleep (20000);
  s = tu_task_log_text (&b);
  g_assert_cmpstr (s, ==, "");
  g_free (s);
  g_assert_true (pl_worker_busy (&w));
  g_assert_cmpint (pl_worker_task_run (&t), ==, 0);
  pl_worker_give_back (&w, 0);
  g_assert_cmpint (pl_worker_wait (&w), ==, 0);
  s = tu_task_log_text (&a);
  g_assert_cmpstr (s, ==, "ab");
  g_free (s);
  s = tu_task_log_text (&b);
  g_assert_cmpstr (s, ==, "wx");
  g_free (s);

  /* Only the running task's stage queued: nothing to lend. */
  g_string_truncate (a.log, 0);
  g_string_truncate (b.log, 0);
  g_atomic_int_set (&a.started, 0);
  submit_gated (&w, &a, a_tasks);
  submit_one (&w, &a, a_tasks + 1);
  submit_one (&w, &a, a_tasks + 2);
  g_assert_false (pl_worker_take_back_one (&w, &t));
  /* B's 'y' behind them is lent, past A's queued ones. */
  submit_one (&w, &b, b_tasks + 2);
  g_assert_true (pl_worker_take_back_one (&w, &t));
  g_assert_true (t.p == b_tasks + 2);
  /* It fails: the queue behind is dropped, and the error is the
   * worker's. */
  b.fail_at = 'y';
  pl_worker_give_back (&w, pl_worker_task_run (&t));
  tu_task_log_open (&a);
  g_assert_cmpint (gpg_err_code (pl_worker_wait (&w)), ==, GPG_ERR_EIO);
  g_assert_cmpint (gpg_err_code (pl_worker_submit_task (&w, tu_log_task, &a,
                                                        a_tasks, 1)),
                   ==, GPG_ERR_EIO);
  s = tu_task_log_text (&a);
  g_assert_cmpstr (s, ==, "a");
  g_free (s);
  pl_worker_stop (&w);
  tu_task_log_clear (&a);
  tu_task_log_clear (&b);
}

/* While B's task is lent, the thread passes B's next task at the head
 * of the queue and runs A's behind it, then B's next once the lent one
 * is given back: each stage's order holds, and the thread does not idle
 * while the other stage has work (decrypt.c's MDC and signature hashes
 * in turns). */
static void
test_worker_passes_lent (void)
{
  static const uint8_t a_tasks[] = "abcd", b_tasks[] = "wxyz";
  tu_task_log a, b;
  pl_worker w;
  pl_worker_task t;
  gint64 deadline;
  char *s;

  tu_task_log_init (&a);
  tu_task_log_init (&b);
  g_assert_cmpint (pl_worker_start_shared (&w, 4), ==, 0);
  /* A's 'a' runs, held at its gate; behind it B's 'w' and 'x', then A's
   * 'b' and 'c'. */
  submit_gated (&w, &a, a_tasks);
  submit_one (&w, &b, b_tasks);
  submit_one (&w, &b, b_tasks + 1);
  submit_one (&w, &a, a_tasks + 1);
  g_assert_true (pl_worker_take_back_one (&w, &t));
  g_assert_true (t.p == b_tasks);
  submit_one (&w, &a, a_tasks + 2);
  /* 'x' heads the queue once 'a' ends; the thread goes on to 'b' and
   * 'c'. */
  tu_task_log_open (&a);
  deadline = g_get_monotonic_time () + 5 * G_USEC_PER_SEC;
  while (g_atomic_int_get (&a.started) < 3
         && g_get_monotonic_time () < deadline)
    g_usleep (1000);
  g_assert_cmpint (g_atomic_int_get (&a.started), ==, 3);
  g_usleep (20000);
  s = tu_task_log_text (&b);
  g_assert_cmpstr (s, ==, "");
  g_free (s);
  /* 'x' waits for 'w'. */
  g_assert_true (pl_worker_busy (&w));
  g_assert_true (pl_worker_reading (&w, b_tasks + 1, 1));
  g_assert_cmpint (pl_worker_task_run (&t), ==, 0);
  pl_worker_give_back (&w, 0);
  g_assert_cmpint (pl_worker_wait (&w), ==, 0);
  s = tu_task_log_text (&a);
  g_assert_cmpstr (s, ==, "abc");
  g_free (s);
  s = tu_task_log_text (&b);
  g_assert_cmpstr (s, ==, "wx");
  g_free (s);
  pl_worker_stop (&w);
  tu_task_log_clear (&a);
  tu_task_log_clear (&b);
}

/* The caller's thread, for counting the tasks lent to it. */
static GThread *caller;
static gint on_caller;

static gpg_error_t
counted_task (void *arg, const uint8_t *p, size_t n)
{
  if (g_thread_self () == caller)
    g_atomic_int_inc (&on_caller);
  return tu_log_task (arg, p, n);
}

/* Two stages submit through pl_worker_submit_sharing, as encrypt.c's MDC
 * and signature hashes do, with the thread slower than the caller: over
 * many tasks, whoever ran each, each stage's log is its order, and the
 * caller ran some (it took a share instead of waiting). */
static void
test_worker_sharing_order (void)
{
  enum { N = 400 };
  uint8_t *a_tasks = g_malloc (N), *b_tasks = g_malloc (N);
  GString *a_want = g_string_new (NULL), *b_want = g_string_new (NULL);
  tu_task_log a, b;
  pl_worker w;

  tu_task_log_init (&a);
  tu_task_log_init (&b);
  a.delay_us = 200;
  for (int i = 0; i < N; i++)
    {
      a_tasks[i] = (uint8_t) ('A' + i % 26);
      b_tasks[i] = (uint8_t) ('a' + i % 26);
      g_string_append_c (a_want, (char) a_tasks[i]);
      g_string_append_c (b_want, (char) b_tasks[i]);
    }
  caller = g_thread_self ();
  g_atomic_int_set (&on_caller, 0);
  g_assert_cmpint (pl_worker_start_shared (&w, 6), ==, 0);
  for (int i = 0; i < N; i++)
    {
      /* B's tasks come in runs of three, A's one at a time. */
      g_assert_cmpint (pl_worker_submit_sharing (&w, counted_task, &a,
                                                 a_tasks + i, 1), ==, 0);
      if (i % 3 == 0)
        for (int k = i; k < i + 3 && k < N; k++)
          g_assert_cmpint (pl_worker_submit_sharing (&w, counted_task, &b,
                                                     b_tasks + k, 1), ==, 0);
    }
  g_assert_cmpint (pl_worker_wait (&w), ==, 0);
  g_assert_cmpstr (a.log->str, ==, a_want->str);
  g_assert_cmpstr (b.log->str, ==, b_want->str);
  g_test_message ("%d of %d tasks ran on the caller",
                  g_atomic_int_get (&on_caller), 2 * N);
  g_assert_cmpint (g_atomic_int_get (&on_caller), >, 0);
  pl_worker_stop (&w);
  tu_task_log_clear (&a);
  tu_task_log_clear (&b);
  g_string_free (a_want, TRUE);
  g_string_free (b_want, TRUE);
  g_free (a_tasks);
  g_free (b_tasks);
}

int
main (int argc, char **argv)
{
  tu_init (&argc, &argv);
  g_test_add_func ("/worker/queue", test_worker_queue);
  g_test_add_func ("/worker/take-back", test_worker_take_back);
  g_test_add_func ("/worker/claims-next", test_worker_claims_next);
  g_test_add_func ("/worker/shared", test_worker_shared);
  g_test_add_func ("/worker/passes-lent", test_worker_passes_lent);
  g_test_add_func ("/worker/sharing-order", test_worker_sharing_order);
  return g_test_run ();
}
