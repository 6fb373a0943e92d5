/* test-seipd.c - the SEIPD v1 stage: prefix, quick check, MDC hold-back */
#include "testutil.h"
#include "algo.h"
#include "seipd.h"
#include "worker.h"

#include <string.h>

static GBytes *
encrypt_body (const guint8 *key, const guint8 *plain, gsize len)
{
  pl_seipd1 st;
  guint8 *out = g_malloc (len + 18 + 22);
  gsize prefix_len;

  g_assert_cmpuint (pl_seipd1_encrypt_init (&st, PL_CIPHER_AES256, key, 32,
                                            out, &prefix_len), ==, 0);
  g_assert_cmpuint (prefix_len, ==, 18);
  g_assert_cmpuint (pl_seipd1_encrypt_push (&st, plain, out + 18, len), ==, 0);
  g_assert_cmpuint (pl_seipd1_encrypt_finish (&st, out + 18 + len), ==, 0);
  pl_seipd1_clear (&st);
  return g_bytes_new_take (out, len + 18 + 22);
}

/* Decrypts in pushes of STEP octets; returns the released plaintext and
 * the finish result. */
static gpg_error_t
decrypt_body (const guint8 *key, GBytes *body, gsize step, GByteArray *out)
{
  pl_seipd1 st;
  gsize len;
  const guint8 *d = g_bytes_get_data (body, &len);
  guint8 *buf = g_malloc (PL_SEIPD1_HEADROOM + step);
  gpg_error_t err;

  err = pl_seipd1_decrypt_init (&st, PL_CIPHER_AES256, key, 32, d, 18);
  if (err)
    {
      g_free (buf);
      return err;
    }
  for (gsize off = 18; off < len; off += step)
    {
      gsize k = MIN (step, len - off);
      uint8_t *rel;
      size_t rellen;
      g_assert_cmpuint (pl_seipd1_decrypt_push (&st, d + off, k, buf, &rel,
                                                &rellen), ==, 0);
      g_byte_array_append (out, rel, (guint) rellen);
    }
  err = pl_seipd1_decrypt_finish (&st);
  pl_seipd1_clear (&st);
  g_free (buf);
  return err;
}

static void
test_holdback (void)
{
  guint8 key[32];
  static const gsize sizes[] = { 0, 1, 21, 22, 23, 1000 };

  for (int i = 0; i < 32; i++)
    key[i] = (guint8) i;
  for (gsize s = 0; s < G_N_ELEMENTS (sizes); s++)
    {
      GBytes *plain = tu_random_bytes (sizes[s]);
      GBytes *body = encrypt_body (key, g_bytes_get_data (plain, NULL),
                                   sizes[s]);
      for (gsize step = 1; step < 100; step += 7)
        {
          GByteArray *out = g_byte_array_new ();
          g_assert_cmpuint (decrypt_body (key, body, step, out), ==, 0);
          /* Never a byte of the MDC packet in the output. */
          g_assert_cmpmem (out->data, out->len,
                           g_bytes_get_data (plain, NULL), sizes[s]);
          g_byte_array_unref (out);
        }
      g_bytes_unref (body);
      g_bytes_unref (plain);
    }
}

static void
test_failures (void)
{
  guint8 key[32], wrong[32];
  GBytes *plain = tu_random_bytes (100);
  GBytes *body;
  guint8 *d;
  gsize len;
  GByteArray *out = g_byte_array_new ();

  memset (key, 1, sizeof key);
  memset (wrong, 2, sizeof wrong);
  body = encrypt_body (key, g_bytes_get_data (plain, NULL), 100);
  /* The quick check catches a wrong key. */
  g_assert_cmpint (gpg_err_code (decrypt_body (wrong, body, 16, out)), ==,
                   GPG_ERR_BAD_PASSPHRASE);
  /* Any flipped octet after the prefix breaks the MDC. */
  d = g_bytes_unref_to_data (body, &len);
  for (gsize i = 18; i < len; i++)
    {
      GBytes *bad;
      d[i] ^= 0x01;
      bad = g_bytes_new (d, len);
      g_byte_array_set_size (out, 0);
      g_assert_cmpint (gpg_err_code (decrypt_body (key, bad, 33, out)), ==,
                       GPG_ERR_CHECKSUM);
      g_bytes_unref (bad);
      d[i] ^= 0x01;
    }
  /* Too short to hold an MDC packet. */
  body = g_bytes_new (d, 18 + 10);
  g_byte_array_set_size (out, 0);
  g_assert_cmpint (gpg_err_code (decrypt_body (key, body, 5, out)), ==,
                   GPG_ERR_TRUNCATED);
  g_bytes_unref (body);
  g_free (d);
  g_byte_array_unref (out);
  g_bytes_unref (plain);
}

static gboolean
all_zero (const void *p, gsize len)
{
  const guint8 *b = p;

  for (gsize i = 0; i < len; i++)
    if (b[i])
      return FALSE;
  return TRUE;
}

/* What seipd.h promises and decrypt.c relies on: a failed init leaves
 * the stage cleared (nothing to release: clear is harmless, also twice),
 * and init may be called again on it, as the next candidate key is. */
static void
test_failed_init (void)
{
  guint8 key[32], wrong[32], prefix[18];
  GBytes *plain = tu_random_bytes (100);
  GBytes *body;
  const guint8 *d;
  GByteArray *out = g_byte_array_new ();
  gsize len, prefix_len;
  pl_seipd1 st;
  struct
  {
    int algo;
    const guint8 *key;
    size_t keylen, prefix_len;
    gpg_err_code_t want;
  } fails[] = {
    { 99, key, 32, 18, GPG_ERR_CIPHER_ALGO },
    { PL_CIPHER_AES256, key, 16, 18, GPG_ERR_BAD_KEY },
    { PL_CIPHER_AES256, key, 32, 17, GPG_ERR_TRUNCATED },
    { PL_CIPHER_AES256, wrong, 32, 18, GPG_ERR_BAD_PASSPHRASE },
  };

  memset (key, 1, sizeof key);
  memset (wrong, 2, sizeof wrong);
  body = encrypt_body (key, g_bytes_get_data (plain, NULL), 100);
  d = g_bytes_get_data (body, &len);
  for (gsize i = 0; i < G_N_ELEMENTS (fails); i++)
    {
      memset (&st, 0xa5, sizeof st);    /* init needs no preparation */
      g_assert_cmpint (gpg_err_code (pl_seipd1_decrypt_init
                                     (&st, fails[i].algo, fails[i].key,
                                      fails[i].keylen, d,
                                      fails[i].prefix_len)),
                       ==, fails[i].want);
      g_assert_true (all_zero (&st, sizeof st));
      pl_seipd1_clear (&st);
      pl_seipd1_clear (&st);
    }
  /* The same stage, after a failed init, opens with the right key. */
  g_assert_cmpint (pl_seipd1_decrypt_init (&st, PL_CIPHER_AES256, wrong, 32,
                                           d, 18), !=, 0);
  g_assert_cmpint (pl_seipd1_decrypt_init (&st, PL_CIPHER_AES256, key, 32,
                                           d, 18), ==, 0);
  {
    guint8 *buf = g_malloc (PL_SEIPD1_HEADROOM + len - 18);
    uint8_t *rel;
    size_t rellen;

    g_assert_cmpint (pl_seipd1_decrypt_push (&st, d + 18, len - 18, buf,
                                             &rel, &rellen), ==, 0);
    g_byte_array_append (out, rel, (guint) rellen);
    g_assert_cmpint (pl_seipd1_decrypt_finish (&st), ==, 0);
    g_assert_cmpmem (out->data, out->len, g_bytes_get_data (plain, NULL), 100);
    g_free (buf);
  }
  pl_seipd1_clear (&st);
  g_assert_true (all_zero (&st, sizeof st));
  pl_seipd1_clear (&st);

  /* Encryption's init fails the same way. */
  g_assert_cmpint (gpg_err_code (pl_seipd1_encrypt_init
                                 (&st, 99, key, 32, prefix, &prefix_len)),
                   ==, GPG_ERR_CIPHER_ALGO);
  g_assert_true (all_zero (&st, sizeof st));
  g_assert_cmpint (gpg_err_code (pl_seipd1_encrypt_init
                                 (&st, PL_CIPHER_AES256, key, 24, prefix,
                                  &prefix_len)), ==, GPG_ERR_BAD_KEY);
  g_assert_true (all_zero (&st, sizeof st));
  pl_seipd1_clear (&st);
  g_byte_array_unref (out);
  g_bytes_unref (body);
  g_bytes_unref (plain);
}


/* A worker's tasks for the tests: each appends its first octet to LOG
 * (the order they ran in), sleeps DELAY_US (so that the queue fills
 * behind it) and fails on octet FAIL_AT. */
typedef struct
{
  GMutex lock;
  GString *log;
  gulong delay_us;
  int fail_at;
  gint started;                 /* tasks begun */
  GCond opened;
  gboolean closed;              /* tasks wait at their start until open */
} task_log;

static gpg_error_t
log_task (void *arg, const uint8_t *p, size_t n)
{
  task_log *l = arg;

  g_assert_cmpuint (n, >, 0);
  g_atomic_int_inc (&l->started);
  g_mutex_lock (&l->lock);
  while (l->closed)
    g_cond_wait (&l->opened, &l->lock);
  g_mutex_unlock (&l->lock);
  g_usleep (l->delay_us);
  g_mutex_lock (&l->lock);
  g_string_append_c (l->log, (char) p[0]);
  g_mutex_unlock (&l->lock);
  return p[0] == l->fail_at ? gpg_error (GPG_ERR_EIO) : 0;
}

/* A queue of DEPTH tasks: they run in order; submit goes on while fewer
 * than DEPTH are held; pl_worker_reading sees every queued task's
 * buffer, not only the running one's; a failure mid-queue drops what is
 * behind it, and every later submit and wait returns it; stop drops the
 * queued tasks unrun (a cancel does not wait for them). */
static void
test_worker_queue (void)
{
  static const uint8_t tasks[] = "abcdefghijklmnop";
  task_log l = { .log = g_string_new (NULL), .fail_at = -1 };
  pl_worker w;

  g_mutex_init (&l.lock);
  g_cond_init (&l.opened);
  for (int depth = 1; depth <= PL_WORKER_DEPTH_MAX; depth *= 2)
    {
      g_string_truncate (l.log, 0);
      l.delay_us = 2000;
      l.fail_at = -1;
      g_assert_cmpint (pl_worker_start_queue (&w, log_task, &l, depth), ==,
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
      g_assert_cmpint (pl_worker_start_queue (&w, log_task, &l, depth), ==,
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
  g_assert_cmpint (pl_worker_start_queue (&w, log_task, &l, 99), ==, 0);
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

int
main (int argc, char **argv)
{
  tu_init (&argc, &argv);
  g_test_add_func ("/seipd1/holdback", test_holdback);
  g_test_add_func ("/seipd1/failures", test_failures);
  g_test_add_func ("/seipd1/failed-init", test_failed_init);
  g_test_add_func ("/seipd1/worker-queue", test_worker_queue);
  return g_test_run ();
}
