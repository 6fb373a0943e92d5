/* test-kdf-memory.c - the process-wide budget for key-derivation memory
 * (core/kdf-memory.h, issue 19 item 6), with RFC 9580 A.12's Argon2
 * t=1 p=4 m=2^21 KiB (2 GiB) messages: counted by the budget's own
 * counters and the process's VmHWM, never timed.
 *
 * The first test must run first: VmHWM is the process's peak so far. */
#include "testutil.h"
#include "errors.h"
#include "job.h"
#include "kdf-memory.h"

#include <pthread.h>
#include <stdio.h>
#include <string.h>

#define A12_KIB (1u << 21)

static GBytes *a12;             /* rfc9580-a12-argon2-aes256.asc */

typedef struct
{
  atomic_int cancel;
  atomic_int waited;            /* PL_DERIVING_WAITING_FOR_MEMORY seen */
  gpg_error_t err;
  GBytes *out;
} job;

static void
on_deriving (void *user_data, int deriving)
{
  job *j = user_data;

  if (deriving == PL_DERIVING_WAITING_FOR_MEMORY)
    atomic_store (&j->waited, 1);
}

static gpointer
decrypt_a12 (gpointer data)
{
  job *j = data;
  pl_opener key = pl_opener_passphrase ("password", 8);
  pl_decrypt_options o = { 0 };
  pl_job_control ctl = { 0 };
  pl_source *src = pl_source_new_memory (g_bytes_get_data (a12, NULL),
                                         g_bytes_get_size (a12));
  pl_sink *sink = pl_sink_new_memory ();
  const uint8_t *d;
  size_t n;

  o.openers = &key;
  o.n_openers = 1;
  ctl.cancel = &j->cancel;
  ctl.deriving = on_deriving;
  ctl.user_data = j;
  j->err = pl_decrypt (src, sink, &o, NULL, &ctl);
  d = pl_sink_memory_data (sink, &n);
  j->out = g_bytes_new (d, n);
  pl_sink_free (sink);
  pl_source_free (src);
  return NULL;
}

/* The process's peak resident set, in KiB. */
static guint64
vm_hwm_kib (void)
{
  g_autofree char *status = NULL;
  const char *line;

  g_assert_true (g_file_get_contents ("/proc/self/status", &status, NULL,
                                      NULL));
  line = strstr (status, "VmHWM:");
  g_assert_nonnull (line);
  return g_ascii_strtoull (line + 6, NULL, 10);
}

static void
wait_until_waiting (guint64 n)
{
  pl_kdf_memory_stats s;

  for (;;)
    {
      pl_kdf_memory_get_stats (&s);
      if (s.waiting >= n)
        return;
      g_usleep (5000);
    }
}

/* Two jobs of a 2 GiB message at once: the second waits for the first's
 * memory, says so, and both open the message; the budget never held more
 * than 2 GiB, and neither did the process (4.1 GB before). */
static void
test_two_jobs (void)
{
  job a = { 0 }, b = { 0 };
  GThread *ta, *tb;
  pl_kdf_memory_stats before, after;
  guint64 hwm;

  /* Both start waiting (held here), so that they meet whatever the
   * load: then the budget lets one derive, and the other waits on. */
  pl_kdf_memory_get_stats (&before);
  g_assert_cmpint (pl_kdf_memory_take (PL_KDF_MEMORY_BUDGET_KIB, NULL, NULL,
                                       NULL), ==, 0);
  ta = g_thread_new ("a", decrypt_a12, &a);
  tb = g_thread_new ("b", decrypt_a12, &b);
  wait_until_waiting (2);
  pl_kdf_memory_give (PL_KDF_MEMORY_BUDGET_KIB);
  g_thread_join (ta);
  g_thread_join (tb);
  pl_kdf_memory_get_stats (&after);
  hwm = vm_hwm_kib ();
  g_test_message ("VmHWM after two parallel 2 GiB derivations: %" G_GUINT64_FORMAT
                  " KiB; budget peak %" G_GUINT64_FORMAT " KiB, %"
                  G_GUINT64_FORMAT " wait(s)", hwm, after.peak_kib,
                  after.waits - before.waits);
  g_assert_cmpint (a.err, ==, 0);
  g_assert_cmpint (b.err, ==, 0);
  g_assert_cmpmem (g_bytes_get_data (a.out, NULL), g_bytes_get_size (a.out),
                   "Hello, world!", 13);
  g_assert_true (g_bytes_equal (a.out, b.out));
  g_assert_cmpuint (after.peak_kib, <=, PL_KDF_MEMORY_BUDGET_KIB);
  g_assert_cmpuint (after.waits - before.waits, ==, 2);
  g_assert_true (atomic_load (&a.waited) && atomic_load (&b.waited));
  g_assert_cmpuint (after.in_use_kib, ==, 0);
  /* One 2 GiB fill and change, not two. */
  g_assert_cmpuint (hwm, <, A12_KIB + A12_KIB / 2);
  g_bytes_unref (a.out);
  g_bytes_unref (b.out);
}

/* A job waiting for memory stops at once when cancelled, having taken
 * none. */
static void
test_cancel_waiting (void)
{
  job j = { 0 };
  GThread *t;
  pl_kdf_memory_stats s;

  g_assert_cmpint (pl_kdf_memory_take (PL_KDF_MEMORY_BUDGET_KIB, NULL, NULL,
                                       NULL), ==, 0);
  t = g_thread_new ("waiting", decrypt_a12, &j);
  wait_until_waiting (1);
  g_assert_true (atomic_load (&j.waited));
  atomic_store (&j.cancel, 1);
  g_thread_join (t);
  g_assert_cmpint (gpg_err_code (j.err), ==, GPG_ERR_CANCELED);
  g_assert_cmpuint (g_bytes_get_size (j.out), ==, 0);
  pl_kdf_memory_get_stats (&s);
  g_assert_cmpuint (s.in_use_kib, ==, PL_KDF_MEMORY_BUDGET_KIB);
  g_assert_cmpuint (s.waiting, ==, 0);
  pl_kdf_memory_give (PL_KDF_MEMORY_BUDGET_KIB);
  g_bytes_unref (j.out);
}

static double
now (void)
{
  return g_get_monotonic_time () / (double) G_USEC_PER_SEC;
}

/* A running 2 GiB Argon2, cancelled: the job ends at once, and its
 * helper holds the memory (and the budget) until its segment ends; what
 * that takes is measured, for the README, not asserted. */
static void
test_cancel_running (void)
{
  job j = { 0 };
  GThread *t;
  pl_kdf_memory_stats s;
  double cancelled, ended, freed;

  t = g_thread_new ("running", decrypt_a12, &j);
  do
    {
      g_usleep (10000);
      pl_kdf_memory_get_stats (&s);
    }
  while (!s.in_use_kib);
  g_usleep (300000);
  cancelled = now ();
  atomic_store (&j.cancel, 1);
  g_thread_join (t);
  ended = now ();
  g_assert_cmpint (gpg_err_code (j.err), ==, GPG_ERR_CANCELED);
  do
    {
      pl_kdf_memory_get_stats (&s);
      if (s.in_use_kib)
        g_usleep (5000);
    }
  while (s.in_use_kib);
  freed = now ();
  g_test_message ("cancelled 0.3 s into a 2 GiB Argon2: the job ended after "
                  "%.3f s, the memory was freed after %.3f s (under this "
                  "machine's load)", ended - cancelled, freed - cancelled);
  g_bytes_unref (j.out);
}

int
main (int argc, char **argv)
{
  g_autofree char *path = NULL;
  char *text = NULL;
  gsize len = 0;

  tu_init (&argc, &argv);
  path = g_build_filename (g_getenv ("PADLOCK_SOURCE_DIR"), "tests", "data",
                           "rfc9580-a12-argon2-aes256.asc", NULL);
  g_assert_true (g_file_get_contents (path, &text, &len, NULL));
  a12 = g_bytes_new_take (text, len);
  g_test_add_func ("/kdf-memory/two-jobs", test_two_jobs);
  g_test_add_func ("/kdf-memory/cancel-waiting", test_cancel_waiting);
  g_test_add_func ("/kdf-memory/cancel-running", test_cancel_running);
  return g_test_run ();
}
