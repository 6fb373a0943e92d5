/* test-keywrap.c - AES key wrap (core/keywrap.h) against RFC 3394 §4
 *
 * The six test vectors of RFC 3394 §4 both ways; every octet of a wrap
 * flipped is GPG_ERR_CHECKSUM with the output wiped; the wrong KEK too;
 * lengths that cannot be a wrap and ciphers other than AES refused
 * before any work. */
#include <string.h>
#include <gcrypt.h>
#include "testutil.h"
#include "algo.h"
#include "keywrap.h"

typedef struct
{
  const char *name;
  int cipher_algo;
  const char *kek, *key, *wrapped;
} wrap_vector;

/* RFC 3394 §4.1-4.6. */
static const wrap_vector vectors[] = {
  { "4.1", PL_CIPHER_AES128, "000102030405060708090A0B0C0D0E0F",
    "00112233445566778899AABBCCDDEEFF",
    "1FA68B0A8112B447AEF34BD8FB5A7B829D3E862371D2CFE5" },
  { "4.2", PL_CIPHER_AES192,
    "000102030405060708090A0B0C0D0E0F1011121314151617",
    "00112233445566778899AABBCCDDEEFF",
    "96778B25AE6CA435F92B5B97C050AED2468AB8A17AD84E5D" },
  { "4.3", PL_CIPHER_AES256,
    "000102030405060708090A0B0C0D0E0F101112131415161718191A1B1C1D1E1F",
    "00112233445566778899AABBCCDDEEFF",
    "64E8C3F9CE0F5BA263E9777905818A2A93C8191E7D6E8AE7" },
  { "4.4", PL_CIPHER_AES192,
    "000102030405060708090A0B0C0D0E0F1011121314151617",
    "00112233445566778899AABBCCDDEEFF0001020304050607",
    "031D33264E15D33268F24EC260743EDCE1C6C7DDEE725A936BA814915C6762D2" },
  { "4.5", PL_CIPHER_AES256,
    "000102030405060708090A0B0C0D0E0F101112131415161718191A1B1C1D1E1F",
    "00112233445566778899AABBCCDDEEFF0001020304050607",
    "A8F9BC1612C68B3FF6E6F4FBE30E71E4769C8B80A32CB8958CD5D17D6B254DA1" },
  { "4.6", PL_CIPHER_AES256,
    "000102030405060708090A0B0C0D0E0F101112131415161718191A1B1C1D1E1F",
    "00112233445566778899AABBCCDDEEFF000102030405060708090A0B0C0D0E0F",
    "28C9F404C4B810F4CBCCB35CFB87F8263F5786E2D80ED326CBC7F0E71A99F43B"
    "FB988B9B7A02DD21" },
};

static gboolean
all_zero (const guint8 *p, gsize n)
{
  for (gsize i = 0; i < n; i++)
    if (p[i])
      return FALSE;
  return TRUE;
}

static void
test_vector (gconstpointer data)
{
  const wrap_vector *v = data;
  g_autoptr(GByteArray) kek = tu_unhex (v->kek);
  g_autoptr(GByteArray) key = tu_unhex (v->key);
  g_autoptr(GByteArray) wrapped = tu_unhex (v->wrapped);
  guint8 out[48];
  guint8 *plain = gcry_malloc_secure (key->len);

  g_assert_cmpuint (kek->len, ==, pl_cipher_key_length (v->cipher_algo));
  g_assert_cmpuint (wrapped->len, ==, key->len + 8);
  g_assert_cmpint (pl_keywrap_wrap (v->cipher_algo, kek->data, key->data,
                                    key->len, out), ==, 0);
  g_assert_cmpmem (out, wrapped->len, wrapped->data, wrapped->len);
  g_assert_cmpint (pl_keywrap_unwrap (v->cipher_algo, kek->data,
                                      wrapped->data, wrapped->len, plain),
                   ==, 0);
  g_assert_cmpmem (plain, key->len, key->data, key->len);
  gcry_free (plain);
}

/* Any octet flipped, and the right wrap under another KEK: the check
 * fails, and what was unwrapped is not left behind. */
static void
test_tampered (void)
{
  const wrap_vector *v = &vectors[5];
  g_autoptr(GByteArray) kek = tu_unhex (v->kek);
  g_autoptr(GByteArray) wrapped = tu_unhex (v->wrapped);
  guint8 *plain = gcry_malloc_secure (wrapped->len - 8);

  for (guint i = 0; i < wrapped->len; i++)
    for (guint bit = 0; bit < 8; bit += 7)
      {
        wrapped->data[i] ^= (guint8) (1u << bit);
        memset (plain, 0xA5, wrapped->len - 8);
        g_assert_cmpint (gpg_err_code (pl_keywrap_unwrap (
                           v->cipher_algo, kek->data, wrapped->data,
                           wrapped->len, plain)), ==, GPG_ERR_CHECKSUM);
        g_assert_true (all_zero (plain, wrapped->len - 8));
        wrapped->data[i] ^= (guint8) (1u << bit);
      }
  kek->data[31] ^= 1;
  g_assert_cmpint (gpg_err_code (pl_keywrap_unwrap (v->cipher_algo, kek->data,
                                                    wrapped->data,
                                                    wrapped->len, plain)),
                   ==, GPG_ERR_CHECKSUM);
  gcry_free (plain);
}

static void
test_refusals (void)
{
  static const guint8 kek[32], in[40];
  guint8 out[48] = { 0 };

  /* RFC 3394 wraps at least two 64-bit blocks, whole blocks only. */
  for (gsize len = 0; len <= 40; len++)
    {
      gpg_error_t want = len < 16 || len % 8 ? GPG_ERR_INV_LENGTH : 0;
      gpg_error_t unwant = len < 24 || len % 8 ? GPG_ERR_INV_LENGTH
                                               : GPG_ERR_CHECKSUM;

      g_assert_cmpint (gpg_err_code (pl_keywrap_wrap (PL_CIPHER_AES256, kek,
                                                      in, len, out)),
                       ==, want);
      g_assert_cmpint (gpg_err_code (pl_keywrap_unwrap (PL_CIPHER_AES256,
                                                        kek, in, len, out)),
                       ==, unwant);
    }
  /* ECDH's KEK is AES (RFC 9580 §11.5): no other cipher wraps. */
  for (int algo = 0; algo < 256; algo++)
    {
      gpg_error_t err = pl_keywrap_wrap (algo, kek, in, 16, out);

      if (algo == PL_CIPHER_AES128 || algo == PL_CIPHER_AES192
          || algo == PL_CIPHER_AES256)
        g_assert_cmpint (err, ==, 0);
      else
        g_assert_cmpint (gpg_err_code (err), ==, GPG_ERR_CIPHER_ALGO);
    }
}

int
main (int argc, char **argv)
{
  tu_init (&argc, &argv);
  for (gsize i = 0; i < G_N_ELEMENTS (vectors); i++)
    {
      g_autofree char *path = g_strdup_printf ("/keywrap/rfc3394/%s",
                                               vectors[i].name);

      g_test_add_data_func (path, &vectors[i], test_vector);
    }
  g_test_add_func ("/keywrap/tampered", test_tampered);
  g_test_add_func ("/keywrap/refusals", test_refusals);
  return g_test_run ();
}
