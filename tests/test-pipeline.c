/* test-pipeline.c - the read-ahead that fills several buffers ahead
 * (pl_read_ahead_init_queue, pipeline.h), which AEAD encryption file to
 * file runs on: every block in order and intact for every depth, size
 * and first want; a buffer the caller holds is never refilled; the
 * thread really is up to NBUF - 1 fills ahead and never more; no fill
 * after the input ended; a failing read comes back at its block, after
 * the blocks before it, and stays; clear with fills queued (cancel). */
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

int
main (int argc, char **argv)
{
  tu_init (&argc, &argv);
  g_test_add_func ("/pipeline/read-ahead/order", test_order);
  g_test_add_func ("/pipeline/read-ahead/ahead", test_ahead);
  g_test_add_func ("/pipeline/read-ahead/failing-read", test_failing_read);
  g_test_add_func ("/pipeline/read-ahead/clear-queued", test_clear_queued);
  return g_test_run ();
}
