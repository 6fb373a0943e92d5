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


int
main (int argc, char **argv)
{
  tu_init (&argc, &argv);
  g_test_add_func ("/seipd1/holdback", test_holdback);
  g_test_add_func ("/seipd1/failures", test_failures);
  g_test_add_func ("/seipd1/failed-init", test_failed_init);
  g_test_add_func ("/seipd1/hasher-spells", test_hasher_spells);
  return g_test_run ();
}
