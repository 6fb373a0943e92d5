/* test-seipd.c - the SEIPD v1 stage: prefix, quick check, MDC hold-back */
#include "testutil.h"
#include "algo.h"
#include "seipd.h"
#include "worker.h"
#include "pipeline.h"

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

/* Decrypts BODY on two threads as decrypt.c does: pushes of STEP octets
 * (several to a buffer of BUF), three buffers in turn, each unpinned
 * before it is reused, and a spell on the caller's thread alone of
 * SOLO_LEN octets started once SOLO_AT octets were pushed (none when
 * SOLO_LEN is 0).  Returns the released plaintext, the finish result and
 * the stage's counts. */
static gpg_error_t
decrypt_threaded (const guint8 *key, const guint8 *d, gsize len, gsize step,
                  gsize buf_len, guint64 solo_at, guint64 solo_len,
                  GByteArray *out, pl_seipd1_stats *stats)
{
  pl_seipd1 st;
  guint8 *bufs[3];
  gsize used = 0, pushed = 0;
  int turn = 0;
  gboolean solo = solo_len == 0;
  gpg_error_t err;

  err = pl_seipd1_decrypt_init (&st, PL_CIPHER_AES256, key, 32, d, 18);
  if (err)
    return err;
  pl_seipd1_set_threads (&st, 2);
  for (int i = 0; i < 3; i++)
    bufs[i] = g_malloc (PL_SEIPD1_HEADROOM + buf_len);
  for (gsize off = 18; off < len;)
    {
      gsize k = MIN (MIN (step, len - off), buf_len - used);
      uint8_t *rel;
      size_t rellen;

      if (!used)
        {
          turn = (turn + 1) % 3;
          pl_seipd1_decrypt_unpin (&st, bufs[turn],
                                   PL_SEIPD1_HEADROOM + buf_len);
          /* The stage must not read what it was done with: scribble. */
          memset (bufs[turn], 0x5a, PL_SEIPD1_HEADROOM + buf_len);
        }
      if (!solo && pushed >= solo_at)
        {
          pl_seipd1_solo (&st, solo_len);
          solo = TRUE;
        }
      g_assert_cmpint (pl_seipd1_decrypt_push (&st, d + off, k,
                                               bufs[turn] + used, &rel,
                                               &rellen), ==, 0);
      g_byte_array_append (out, rel, (guint) rellen);
      used = used + k == buf_len ? 0 : used + k;
      /* Every other full buffer goes to the hasher at once, as
       * decrypt.c hands it over before writing it out; the others at
       * the next push or unpin. */
      if (!used && turn % 2)
        pl_seipd1_decrypt_flush (&st);
      off += k;
      pushed += k;
    }
  err = pl_seipd1_decrypt_finish (&st);
  pl_seipd1_get_stats (&st, stats);
  pl_seipd1_clear (&st);
  for (int i = 0; i < 3; i++)
    g_free (bufs[i]);
  return err;
}

/* The MDC on two threads, with spells on the caller's thread switching
 * mid-stream (at a push, inside a buffer, across the end): every way of
 * sharing the hashing gives the one plaintext and verifies; an octet
 * flipped anywhere (a span the hasher got, one the caller hashed in a
 * spell, the MDC) fails the check, and so does every cut. */
static void
test_hasher_spells (void)
{
  const gsize len = 5 * 1024 * 1024 + 333;
  const gsize buf_len = 1024 * 1024;
  static const struct
  {
    gsize step;
    guint64 solo_at, solo_len;
  } runs[] = {
    { 256 * 1024, 0, 0 },                       /* the hasher only */
    { 256 * 1024, 0, 1 << 30 },                 /* the caller only */
    { 256 * 1024, 1024 * 1024, 1536 * 1024 },   /* a spell mid-stream */
    { 100 * 1000, 700 * 1000, 900 * 1000 },     /* inside buffers */
    { 1024 * 1024, 2 * 1024 * 1024, 1024 * 1024 },
    { 777, 4 * 1024 * 1024, 64 * 1024 },        /* small pushes */
    { 300 * 1024, 5 * 1024 * 1024, 1 << 20 },   /* over the end */
  };
  guint8 key[32];
  GBytes *plain = tu_random_bytes (len);
  GBytes *body;
  const guint8 *d;
  gsize blen;

  memset (key, 3, sizeof key);
  body = encrypt_body (key, g_bytes_get_data (plain, NULL), len);
  d = g_bytes_get_data (body, &blen);
  for (gsize i = 0; i < G_N_ELEMENTS (runs); i++)
    {
      GByteArray *out = g_byte_array_new ();
      pl_seipd1_stats stats;
      guint8 *bad = g_memdup2 (d, blen);
      gsize flips[] = { 18, 18 + runs[i].solo_at + 5,
                        18 + runs[i].solo_at + runs[i].solo_len / 2,
                        18 + buf_len, blen / 2, blen - 30, blen - 1 };

      g_assert_cmpint (decrypt_threaded (key, d, blen, runs[i].step, buf_len,
                                         runs[i].solo_at, runs[i].solo_len,
                                         out, &stats), ==, 0);
      g_assert_cmpmem (out->data, out->len, g_bytes_get_data (plain, NULL),
                       len);
      /* Who hashed what: all of it, once, on one thread or the other. */
      g_assert_cmpuint (stats.on_caller + stats.on_hasher - stats.taken_back,
                        ==, len);
      if (runs[i].solo_len)
        g_assert_cmpuint (stats.spells, >=, 1);
      if (runs[i].solo_at)
        g_assert_cmpuint (stats.on_hasher, >, 0);
      /* The spell, but for the push it began in. */
      if (runs[i].solo_len && runs[i].solo_at < len
          && MIN (runs[i].solo_len, len - runs[i].solo_at) > runs[i].step)
        g_assert_cmpuint (stats.on_caller, >=,
                          MIN (runs[i].solo_len, len - runs[i].solo_at)
                          - runs[i].step);
      for (gsize f = 0; f < G_N_ELEMENTS (flips); f++)
        {
          gsize at = MIN (flips[f], blen - 1);

          g_byte_array_set_size (out, 0);
          bad[at] ^= 0x01;
          g_assert_cmpint (gpg_err_code (decrypt_threaded
                                         (key, bad, blen, runs[i].step,
                                          buf_len, runs[i].solo_at,
                                          runs[i].solo_len, out, &stats)),
                           ==, GPG_ERR_CHECKSUM);
          bad[at] ^= 0x01;
        }
      for (gsize cut = 1; cut < blen - 18; cut = cut * 3 + 7)
        {
          g_byte_array_set_size (out, 0);
          g_assert_cmpint (gpg_err_code (decrypt_threaded
                                         (key, d, blen - cut, runs[i].step,
                                          buf_len, runs[i].solo_at,
                                          runs[i].solo_len, out, &stats)),
                           !=, 0);
        }
      g_free (bad);
      g_byte_array_unref (out);
    }
  g_bytes_unref (body);
  g_bytes_unref (plain);
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
  task_log l = { .log = g_string_new (NULL), .fail_at = -1 };
  pl_worker_task back[PL_WORKER_DEPTH_MAX];
  pl_worker w;
  int rounds_taken = 0;

  g_mutex_init (&l.lock);
  g_cond_init (&l.opened);
  g_assert_cmpint (pl_worker_start_queue (&w, log_task, &l, 4), ==, 0);
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
          log_task (&l, back[i].p, back[i].n);
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
  task_log l = { .log = g_string_new (NULL), .fail_at = -1 };
  pl_worker_task back[PL_WORKER_DEPTH_MAX];
  pl_worker w;
  guint64 polls = 0;

  g_mutex_init (&l.lock);
  g_cond_init (&l.opened);
  g_assert_cmpint (pl_worker_start_queue (&w, log_task, &l, 8), ==, 0);
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

/* The writer's queue (pipeline.h): writes from its own buffers queue up
 * to PL_WRITER_DEPTH on the thread and return at once; acquire never
 * hands out a buffer a queued write reads (it waits for that write); a
 * write from elsewhere is done by the time the next write returns; the
 * sink sees everything in order. */
static void
test_writer_queue (void)
{
  task_log l = { .log = g_string_new (NULL), .fail_at = -1 };
  const size_t size = PL_WRITER_THREAD_MIN;
  uint8_t *bufs[PL_WRITER_BUFFERS];
  static uint8_t foreign[PL_WRITER_THREAD_MIN];
  pl_writer w;

  g_mutex_init (&l.lock);
  g_cond_init (&l.opened);
  pl_writer_init (&w, log_task, &l, size, 1);
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
  g_mutex_lock (&l.lock);
  l.closed = FALSE;
  g_cond_broadcast (&l.opened);
  g_mutex_unlock (&l.lock);
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
  g_cond_clear (&l.opened);
  g_mutex_clear (&l.lock);
  g_string_free (l.log, TRUE);
}

/* pl_writer_set_threaded: a write on the caller's thread, made while
 * writes are queued on the thread, comes after them in the output (and
 * returns their error); back to the thread, the order still holds; a
 * writer whose budget allowed no thread stays on the caller's. */
static void
test_writer_switch (void)
{
  task_log l = { .log = g_string_new (NULL), .fail_at = -1 };
  const size_t size = PL_WRITER_THREAD_MIN;
  static uint8_t foreign[PL_WRITER_THREAD_MIN];
  uint8_t *b;
  pl_writer w;

  g_mutex_init (&l.lock);
  g_cond_init (&l.opened);
  for (int fail = 0; fail < 2; fail++)
    {
      g_string_truncate (l.log, 0);
      l.delay_us = 20000;
      l.fail_at = fail ? 'b' : -1;
      pl_writer_init (&w, log_task, &l, size, 1);
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
      g_mutex_lock (&l.lock);
      l.closed = FALSE;
      g_cond_broadcast (&l.opened);
      g_mutex_unlock (&l.lock);
      g_assert_cmpint (pl_writer_finish (&w), ==, 0);
      g_assert_cmpstr (l.log->str, ==, "abzcy");
      pl_writer_clear (&w);
    }

  /* No thread in the budget: set_threaded (1) does not start one. */
  g_string_truncate (l.log, 0);
  l.fail_at = -1;
  l.delay_us = 2000;
  pl_writer_init (&w, log_task, &l, size, 0);
  pl_writer_set_threaded (&w, 1);
  memset (foreign, 'q', sizeof foreign);
  g_assert_cmpint (pl_writer_write (&w, foreign, size), ==, 0);
  g_assert_cmpstr (l.log->str, ==, "q");
  g_assert_false (pl_worker_running (&w.worker));
  pl_writer_clear (&w);
  g_cond_clear (&l.opened);
  g_mutex_clear (&l.lock);
  g_string_free (l.log, TRUE);
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
  task_log l = { .log = g_string_new (NULL), .fail_at = -1 };
  const size_t size = PL_WRITER_THREAD_MIN;
  static uint8_t f[PL_WRITER_FOREIGN_MAX + 1][PL_WRITER_THREAD_MIN];
  pl_writer w;

  g_mutex_init (&l.lock);
  g_cond_init (&l.opened);
  for (int depth = 1; depth <= PL_WRITER_FOREIGN_MAX; depth++)
    {
      late_write lw;
      GThread *t;

      g_string_truncate (l.log, 0);
      pl_writer_init (&w, log_task, &l, size, 1);
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
      g_mutex_lock (&l.lock);
      l.closed = FALSE;
      g_cond_broadcast (&l.opened);
      g_mutex_unlock (&l.lock);
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
  g_test_add_func ("/seipd1/worker-take-back", test_worker_take_back);
  g_test_add_func ("/seipd1/worker-claims-next", test_worker_claims_next);
  g_test_add_func ("/seipd1/hasher-spells", test_hasher_spells);
  g_test_add_func ("/pipeline/writer-queue", test_writer_queue);
  g_test_add_func ("/pipeline/writer-switch", test_writer_switch);
  g_test_add_func ("/pipeline/writer-foreign-depth",
                   test_writer_foreign_depth);
  return g_test_run ();
}
