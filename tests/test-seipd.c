/* test-seipd.c - the SEIPD v1 stage: prefix, quick check, MDC hold-back */
#include "testutil.h"
#include "algo.h"
#include "seipd.h"

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

int
main (int argc, char **argv)
{
  tu_init (&argc, &argv);
  g_test_add_func ("/seipd1/holdback", test_holdback);
  g_test_add_func ("/seipd1/failures", test_failures);
  return g_test_run ();
}
