/* test-pipeline.c - the two threads around a job's stages (pipeline.h).
 *
 * The read-ahead that fills several buffers ahead
 * (pl_read_ahead_init_queue), which AEAD encryption file to file runs
 * on: every block in order and intact for every depth, size
 * and first want; a buffer the caller holds is never refilled; the
 * thread really is up to NBUF - 1 fills ahead and never more; no fill
 * after the input ended; a failing read comes back at its block, after
 * the blocks before it, and stays; clear with fills queued (cancel).
 * The writer: its queue of writes, the switch between the caller's
 * thread and its own, the depth of writes from other buffers. */
#include <stdatomic.h>
#include <string.h>

#include "pipeline.h"
#include "testutil.h"

#define BLOCK 4096

typedef struct
{
  const uint8_t *data;
  size_t size, pos;
  atomic_int calls;             /* fills run */
  atomic_int after_end;         /* fills run after one returned 0 */
  int ended;
  int fail_at;                  /* the fill that fails; -1: none */
  _Atomic (const uint8_t *) held; /* the block the caller holds */
  atomic_int refilled_held;     /* fills into it */
  atomic_int gate;              /* 0: fills wait until it opens */
} src;

static gpg_error_t
fill (void *arg, uint8_t *buf, size_t want, size_t *len)
{
  src *s = arg;
  int call = atomic_fetch_add (&s->calls, 1);

  while (!atomic_load (&s->gate))
    g_usleep (100);
  if (atomic_load (&s->held) == buf)
    atomic_fetch_add (&s->refilled_held, 1);
  if (s->ended)
    atomic_fetch_add (&s->after_end, 1);
  if (call == s->fail_at)
    return gpg_error (GPG_ERR_EIO);
  *len = MIN (want, s->size - s->pos);
  memcpy (buf, s->data + s->pos, *len);
  s->pos += *len;
  s->ended = !*len;
  return 0;
}

static void
src_init (src *s, const uint8_t *data, size_t size)
{
  memset (s, 0, sizeof *s);
  s->data = data;
  s->size = size;
  s->fail_at = -1;
  atomic_store (&s->gate, 1);
}

static uint8_t *
pattern (size_t n)
{
  uint8_t *p = g_malloc (n);

  for (size_t i = 0; i < n; i++)
    p[i] = (uint8_t) (i * 131 + (i >> 12));
  return p;
}

/* Every block in order, for every depth, threaded or not, sizes around
 * the block and a first want that lines later reads up. */
static void
test_order (void)
{
  size_t sizes[] = { 0, 1, BLOCK - 1, BLOCK, BLOCK + 1, 10 * BLOCK + 17,
                     37 * BLOCK };
  g_autofree uint8_t *data = pattern (37 * BLOCK);

  for (int threaded = 0; threaded < 2; threaded++)
    for (int nbuf = 1; nbuf <= PL_READ_AHEAD_BUFFERS + 1; nbuf++)
      for (guint k = 0; k < G_N_ELEMENTS (sizes); k++)
        for (size_t first = 0; first < 2; first++)
          {
            src s;
            pl_read_ahead ra;
            size_t got = 0, n;
            uint8_t *p;

            src_init (&s, data, sizes[k]);
            g_assert_cmpint (pl_read_ahead_init_queue (&ra, fill, &s, BLOCK,
                                                       threaded, nbuf),
                             ==, 0);
            if (first)
              pl_read_ahead_set_first_want (&ra, 100);
            for (;;)
              {
                /* Asking for the next block gives the last one back. */
                atomic_store (&s.held, NULL);
                g_assert_cmpint (pl_read_ahead_next (&ra, &p, &n), ==, 0);
                if (!n)
                  break;
                g_assert_cmpuint (n, <=, first && !got ? 100 : BLOCK);
                atomic_store (&s.held, p);
                g_assert_cmpmem (p, n, data + got, n);
                /* The caller may change its block in place. */
                memset (p, 0xee, n);
                got += n;
              }
            g_assert_cmpuint (got, ==, sizes[k]);
            /* Asked again after the end: still the end. */
            g_assert_cmpint (pl_read_ahead_next (&ra, &p, &n), ==, 0);
            g_assert_cmpuint (n, ==, 0);
            pl_read_ahead_clear (&ra);
            g_assert_cmpint (atomic_load (&s.refilled_held), ==, 0);
            g_assert_cmpint (atomic_load (&s.after_end), ==, 0);
          }
}

/* The thread fills NBUF - 1 blocks ahead of the one the caller holds,
 * and not one more: while the caller holds block 0 and does not ask for
 * the next, fills 1 .. NBUF - 1 run and no other (the count is read after
 * the last expected fill ran, then again after the next call handed out
 * block 1, when exactly one more may have begun). */
static void
test_ahead (void)
{
  g_autofree uint8_t *data = pattern (40 * BLOCK);

  for (int nbuf = 2; nbuf <= PL_READ_AHEAD_BUFFERS; nbuf++)
    {
      src s;
      pl_read_ahead ra;
      size_t n;
      uint8_t *p;

      src_init (&s, data, 40 * BLOCK);
      g_assert_cmpint (pl_read_ahead_init_queue (&ra, fill, &s, BLOCK, 1,
                                                 nbuf), ==, 0);
      g_assert_cmpint (pl_read_ahead_next (&ra, &p, &n), ==, 0);
      g_assert_cmpuint (n, ==, BLOCK);
      /* Fill 0 was handed out; NBUF - 1 more were submitted. */
      while (atomic_load (&s.calls) < nbuf)
        g_usleep (1000);
      /* The worker holds NBUF - 1 at most: the caller's buffer is not
       * among them, so none may start before the caller asks. */
      g_usleep (20000);
      g_assert_cmpint (atomic_load (&s.calls), ==, nbuf);
      g_assert_cmpint (pl_read_ahead_next (&ra, &p, &n), ==, 0);
      g_assert_cmpmem (p, n, data + BLOCK, BLOCK);
      g_assert_cmpint (atomic_load (&s.calls), <=, nbuf + 1);
      pl_read_ahead_clear (&ra);
      g_assert_cmpint (atomic_load (&s.refilled_held), ==, 0);
    }
}

/* A read that fails comes back at its block, after every block before
 * it came out intact, and again at every later call. */
static void
test_failing_read (void)
{
  g_autofree uint8_t *data = pattern (20 * BLOCK);

  for (int nbuf = 2; nbuf <= PL_READ_AHEAD_BUFFERS; nbuf++)
    for (int threaded = 0; threaded < 2; threaded++)
      for (int fail_at = 0; fail_at < 6; fail_at++)
        {
          src s;
          pl_read_ahead ra;
          size_t n = 0;
          uint8_t *p;
          gpg_error_t err;
          int blocks = 0;

          src_init (&s, data, 20 * BLOCK);
          s.fail_at = fail_at;
          g_assert_cmpint (pl_read_ahead_init_queue (&ra, fill, &s, BLOCK,
                                                     threaded, nbuf), ==, 0);
          while (!(err = pl_read_ahead_next (&ra, &p, &n)))
            {
              g_assert_cmpuint (n, ==, BLOCK);
              g_assert_cmpmem (p, n, data + blocks * BLOCK, BLOCK);
              blocks++;
            }
          g_assert_cmpint (gpg_err_code (err), ==, GPG_ERR_EIO);
          g_assert_cmpint (blocks, ==, fail_at);
          for (int again = 0; again < nbuf + 1; again++)
            g_assert_cmpint (gpg_err_code (pl_read_ahead_next (&ra, &p, &n)),
                             ==, GPG_ERR_EIO);
          pl_read_ahead_clear (&ra);
        }
}

static gpointer
open_gate_later (gpointer arg)
{
  src *s = arg;

  g_usleep (20000);
  atomic_store (&s->gate, 1);
  return NULL;
}

/* Clear at any moment, with fills queued behind one in progress (a job
 * cancelled or failed downstream): it waits for the running fill (held
 * at a gate that opens while clear waits), drops the queued ones unrun,
 * and no fill runs after it returned. */
static void
test_clear_queued (void)
{
  g_autofree uint8_t *data = pattern (40 * BLOCK);

  for (int nbuf = 2; nbuf <= PL_READ_AHEAD_BUFFERS; nbuf++)
    for (int taken = 0; taken < 3; taken++)
      {
        src s;
        pl_read_ahead ra;
        size_t n;
        uint8_t *p;
        GThread *opener;
        int calls;

        src_init (&s, data, 40 * BLOCK);
        g_assert_cmpint (pl_read_ahead_init_queue (&ra, fill, &s, BLOCK, 1,
                                                   nbuf), ==, 0);
        for (int i = 0; i < taken; i++)
          g_assert_cmpint (pl_read_ahead_next (&ra, &p, &n), ==, 0);
        /* The fills after the last block handed out run into the gate:
         * one waits there, the rest are queued. */
        atomic_store (&s.gate, 0);
        while (taken && atomic_load (&s.calls) < taken + 1)
          g_usleep (1000);
        opener = g_thread_new ("opener", open_gate_later, &s);
        pl_read_ahead_clear (&ra);
        g_thread_join (opener);
        calls = atomic_load (&s.calls);
        g_assert_cmpint (calls, <=, taken + nbuf - 1);
        g_usleep (10000);
        g_assert_cmpint (atomic_load (&s.calls), ==, calls);
      }
}

/* The writer's queue (pipeline.h): writes from its own buffers queue up
 * to PL_WRITER_DEPTH on the thread and return at once; acquire never
 * hands out a buffer a queued write reads (it waits for that write); a
 * write from elsewhere is done by the time the next write returns; the
 * sink sees everything in order. */
static void
test_writer_queue (void)
{
  tu_task_log l;
  const size_t size = PL_WRITER_THREAD_MIN;
  uint8_t *bufs[PL_WRITER_BUFFERS];
  static uint8_t foreign[PL_WRITER_THREAD_MIN];
  pl_writer w;

  tu_task_log_init (&l);
  pl_writer_init (&w, tu_log_task, &l, size, 1);
  /* Held at the gate: the first write runs, the rest queue; none of
   * them waits. */
  l.closed = TRUE;
  for (int i = 0; i < PL_WRITER_DEPTH; i++)
    {
      g_assert_cmpint (pl_writer_acquire (&w, &bufs[i]), ==, 0);
      memset (bufs[i], 'a' + i, size);
      g_assert_cmpint (pl_writer_write (&w, bufs[i], size), ==, 0);
      pl_writer_release (&w, bufs[i]);
    }
  g_assert_cmpuint (l.log->len, ==, 0);
  /* The buffers being written are not handed out again. */
  for (int i = PL_WRITER_DEPTH; i < PL_WRITER_BUFFERS; i++)
    {
      g_assert_cmpint (pl_writer_acquire (&w, &bufs[i]), ==, 0);
      for (int k = 0; k < PL_WRITER_DEPTH; k++)
        g_assert_true (bufs[i] != bufs[k]);
    }
  for (int i = PL_WRITER_DEPTH; i < PL_WRITER_BUFFERS; i++)
    pl_writer_release (&w, bufs[i]);
  tu_task_log_open (&l);
  g_assert_cmpint (pl_writer_finish (&w), ==, 0);
  g_assert_cmpstr (l.log->str, ==, "abc");

  /* Acquire with every buffer held but one being written: it waits for
   * that write, and gets its buffer. */
  g_string_truncate (l.log, 0);
  l.delay_us = 20000;
  for (int i = 0; i < PL_WRITER_BUFFERS; i++)
    g_assert_cmpint (pl_writer_acquire (&w, &bufs[i]), ==, 0);
  memset (bufs[0], 'x', size);
  g_assert_cmpint (pl_writer_write (&w, bufs[0], size), ==, 0);
  pl_writer_release (&w, bufs[0]);
  {
    uint8_t *again;

    g_assert_cmpint (pl_writer_acquire (&w, &again), ==, 0);
    g_assert_true (again == bufs[0]);
    g_mutex_lock (&l.lock);
    g_assert_cmpstr (l.log->str, ==, "x");
    g_mutex_unlock (&l.lock);
    pl_writer_release (&w, again);
  }
  for (int i = 1; i < PL_WRITER_BUFFERS; i++)
    pl_writer_release (&w, bufs[i]);

  /* A write from elsewhere (the AEAD stage's own buffers) is done when
   * the next write returns, queued writes before it or not. */
  g_string_truncate (l.log, 0);
  for (int round = 0; round < 20; round++)
    {
      uint8_t *b;

      g_assert_cmpint (pl_writer_acquire (&w, &b), ==, 0);
      memset (b, 'p', size);
      g_assert_cmpint (pl_writer_write (&w, b, size), ==, 0);
      pl_writer_release (&w, b);
      memset (foreign, 'f', sizeof foreign);
      g_assert_cmpint (pl_writer_write (&w, foreign, sizeof foreign), ==, 0);
      g_assert_cmpint (pl_writer_acquire (&w, &b), ==, 0);
      memset (b, 'q', size);
      g_assert_cmpint (pl_writer_write (&w, b, size), ==, 0);
      pl_writer_release (&w, b);
      g_mutex_lock (&l.lock);
      g_assert_true (g_str_has_suffix (l.log->str, "pf"));
      g_mutex_unlock (&l.lock);
      /* The producer refills its buffer now: the write is long done. */
      memset (foreign, 'F', sizeof foreign);
      l.delay_us = round % 2 ? 0 : 2000;
    }
  g_assert_cmpint (pl_writer_finish (&w), ==, 0);
  for (int round = 0; round < 20; round++)
    g_assert_cmpint (strncmp (l.log->str + 3 * round, "pfq", 3), ==, 0);
  pl_writer_clear (&w);
  tu_task_log_clear (&l);
}

/* pl_writer_set_threaded: a write on the caller's thread, made while
 * writes are queued on the thread, comes after them in the output (and
 * returns their error); back to the thread, the order still holds; a
 * writer whose budget allowed no thread stays on the caller's. */
static void
test_writer_switch (void)
{
  tu_task_log l;
  const size_t size = PL_WRITER_THREAD_MIN;
  static uint8_t foreign[PL_WRITER_THREAD_MIN];
  uint8_t *b;
  pl_writer w;

  tu_task_log_init (&l);
  for (int fail = 0; fail < 2; fail++)
    {
      g_string_truncate (l.log, 0);
      l.delay_us = 20000;
      l.fail_at = fail ? 'b' : -1;
      pl_writer_init (&w, tu_log_task, &l, size, 1);
      for (int i = 0; i < 2; i++)
        {
          g_assert_cmpint (pl_writer_acquire (&w, &b), ==, 0);
          memset (b, 'a' + i, size);
          g_assert_cmpint (pl_writer_write (&w, b, size), ==, 0);
          pl_writer_release (&w, b);
        }
      /* Both are queued or running (20 ms each) when the switch comes. */
      pl_writer_set_threaded (&w, 0);
      memset (foreign, 'z', sizeof foreign);
      if (fail)
        {
          g_assert_cmpint (gpg_err_code (pl_writer_write (&w, foreign, size)),
                           ==, GPG_ERR_EIO);
          g_assert_cmpstr (l.log->str, ==, "ab");
          pl_writer_clear (&w);
          continue;
        }
      g_assert_cmpint (pl_writer_write (&w, foreign, size), ==, 0);
      /* Done on this thread, after the two. */
      g_assert_cmpstr (l.log->str, ==, "abz");
      pl_writer_set_threaded (&w, 1);
      /* Held at the gate: back on the thread, the writes return. */
      l.closed = TRUE;
      g_assert_cmpint (pl_writer_acquire (&w, &b), ==, 0);
      memset (b, 'c', size);
      g_assert_cmpint (pl_writer_write (&w, b, size), ==, 0);
      pl_writer_release (&w, b);
      memset (foreign, 'y', sizeof foreign);
      g_assert_cmpint (pl_writer_write (&w, foreign, size), ==, 0);
      g_assert_cmpstr (l.log->str, ==, "abz");
      tu_task_log_open (&l);
      g_assert_cmpint (pl_writer_finish (&w), ==, 0);
      g_assert_cmpstr (l.log->str, ==, "abzcy");
      pl_writer_clear (&w);
    }

  /* No thread in the budget: set_threaded (1) does not start one. */
  g_string_truncate (l.log, 0);
  l.fail_at = -1;
  l.delay_us = 2000;
  pl_writer_init (&w, tu_log_task, &l, size, 0);
  pl_writer_set_threaded (&w, 1);
  memset (foreign, 'q', sizeof foreign);
  g_assert_cmpint (pl_writer_write (&w, foreign, size), ==, 0);
  g_assert_cmpstr (l.log->str, ==, "q");
  g_assert_false (pl_worker_running (&w.worker));
  pl_writer_clear (&w);
  tu_task_log_clear (&l);
}

typedef struct
{
  pl_writer *w;
  const uint8_t *p;
  size_t n;
  gpg_error_t err;
  gint returned;
} late_write;

static gpointer
late_write_run (gpointer data)
{
  late_write *lw = data;

  lw->err = pl_writer_write (lw->w, lw->p, lw->n);
  g_atomic_int_set (&lw->returned, 1);
  return NULL;
}

/* pl_writer_set_foreign_depth (pipeline.h): with depth D, D writes from
 * elsewhere are queued at once, held at the gate, and none returns late;
 * the next one waits until the one D writes back is done (it has not
 * returned while the gate is closed), then all come out in order.
 * Depth 1 (the default) waits for the previous one.  A failed write's
 * error comes back at a later write and at finish. */
static void
test_writer_foreign_depth (void)
{
  tu_task_log l;
  const size_t size = PL_WRITER_THREAD_MIN;
  static uint8_t f[PL_WRITER_FOREIGN_MAX + 1][PL_WRITER_THREAD_MIN];
  pl_writer w;

  tu_task_log_init (&l);
  for (int depth = 1; depth <= PL_WRITER_FOREIGN_MAX; depth++)
    {
      late_write lw;
      GThread *t;

      g_string_truncate (l.log, 0);
      pl_writer_init (&w, tu_log_task, &l, size, 1);
      pl_writer_set_foreign_depth (&w, depth);
      l.closed = TRUE;
      for (int i = 0; i < depth; i++)
        {
          memset (f[i], 'a' + i, size);
          g_assert_cmpint (pl_writer_write (&w, f[i], size), ==, 0);
        }
      for (int i = 0; i < depth; i++)
        g_assert_true (pl_worker_reading (&w.worker, f[i], size));
      /* One more: it waits for the first (held at the gate). */
      memset (f[depth], 'a' + depth, size);
      lw = (late_write) { &w, f[depth], size, 0, 0 };
      t = g_thread_new ("late-write", late_write_run, &lw);
      g_usleep (50000);
      g_assert_cmpint (g_atomic_int_get (&lw.returned), ==, 0);
      g_assert_true (pl_worker_reading (&w.worker, f[0], size));
      tu_task_log_open (&l);
      g_thread_join (t);
      g_assert_cmpint (lw.err, ==, 0);
      /* The first is done when the late write returned. */
      g_assert_false (pl_worker_reading (&w.worker, f[0], size));
      g_assert_cmpint (pl_writer_finish (&w), ==, 0);
      g_assert_cmpuint (l.log->len, ==, (guint) depth + 1);
      for (int i = 0; i <= depth; i++)
        g_assert_cmpint (l.log->str[i], ==, 'a' + i);

      /* A failure: the writes behind it are dropped, and every later
       * call says so. */
      g_string_truncate (l.log, 0);
      l.fail_at = 'a';
      for (int i = 0; i < 8; i++)
        {
          gpg_error_t err = pl_writer_write (&w, f[i % (depth + 1)], size);

          g_assert_true (!err || gpg_err_code (err) == GPG_ERR_EIO);
        }
      g_assert_cmpint (gpg_err_code (pl_writer_finish (&w)), ==, GPG_ERR_EIO);
      g_assert_cmpstr (l.log->str, ==, "a");
      l.fail_at = -1;
      pl_writer_clear (&w);
    }
  tu_task_log_clear (&l);
}

int
main (int argc, char **argv)
{
  tu_init (&argc, &argv);
  g_test_add_func ("/pipeline/read-ahead/order", test_order);
  g_test_add_func ("/pipeline/read-ahead/ahead", test_ahead);
  g_test_add_func ("/pipeline/read-ahead/failing-read", test_failing_read);
  g_test_add_func ("/pipeline/read-ahead/clear-queued", test_clear_queued);
  g_test_add_func ("/pipeline/writer-queue", test_writer_queue);
  g_test_add_func ("/pipeline/writer-switch", test_writer_switch);
  g_test_add_func ("/pipeline/writer-foreign-depth",
                   test_writer_foreign_depth);
  return g_test_run ();
}
