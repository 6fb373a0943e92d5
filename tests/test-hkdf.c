/* test-hkdf.c - HKDF-SHA256 against RFC 5869 Appendix A, test cases 1-3 */
#include <string.h>
#include <glib.h>
#include <gcrypt.h>

#include "hkdf.h"
#include "testutil.h"

typedef struct
{
  const char *ikm, *salt, *info, *okm;
} hkdf_vector;

/* RFC 5869 Appendix A.1-A.3 (SHA-256).  Test case 3 has an empty salt
 * and empty info. */
static const hkdf_vector vectors[] = {
  {
    "0b0b0b0b0b0b0b0b0b0b0b0b0b0b0b0b0b0b0b0b0b0b",
    "000102030405060708090a0b0c",
    "f0f1f2f3f4f5f6f7f8f9",
    "3cb25f25faacd57a90434f64d0362f2a2d2d0a90cf1a5a4c5db02d56ecc4c5bf"
    "34007208d5b887185865"
  },
  {
    "000102030405060708090a0b0c0d0e0f101112131415161718191a1b1c1d1e1f"
    "202122232425262728292a2b2c2d2e2f303132333435363738393a3b3c3d3e3f"
    "404142434445464748494a4b4c4d4e4f",
    "606162636465666768696a6b6c6d6e6f707172737475767778797a7b7c7d7e7f"
    "808182838485868788898a8b8c8d8e8f909192939495969798999a9b9c9d9e9f"
    "a0a1a2a3a4a5a6a7a8a9aaabacadaeaf",
    "b0b1b2b3b4b5b6b7b8b9babbbcbdbebfc0c1c2c3c4c5c6c7c8c9cacbcccdcecf"
    "d0d1d2d3d4d5d6d7d8d9dadbdcdddedfe0e1e2e3e4e5e6e7e8e9eaebecedeeef"
    "f0f1f2f3f4f5f6f7f8f9fafbfcfdfeff",
    "b11e398dc80327a1c8e7f78c596a49344f012eda2d4efad8a050cc4c19afa97c"
    "59045a99cac7827271cb41c65e590e09da3275600c2f09b8367793a9aca3db71"
    "cc30c58179ec3e87c14c01d5c1f3434f1d87"
  },
  {
    "0b0b0b0b0b0b0b0b0b0b0b0b0b0b0b0b0b0b0b0b0b0b",
    "",
    "",
    "8da4e775a563c18f715f802a063c5a31b8a11f5c5ee1879ec3454e5f3c738d2d"
    "9d201395faa4b61a96c8"
  },
};

static void
check_vector (gconstpointer data)
{
  const hkdf_vector *v = data;
  GByteArray *ikm = tu_unhex (v->ikm);
  GByteArray *salt = tu_unhex (v->salt);
  GByteArray *info = tu_unhex (v->info);
  GByteArray *okm = tu_unhex (v->okm);
  guint8 *out = gcry_malloc_secure (okm->len);

  g_assert_nonnull (out);
  g_assert_cmpint (pl_hkdf_sha256 (salt->len ? salt->data : NULL, salt->len,
                                   ikm->data, ikm->len,
                                   info->data, info->len,
                                   out, okm->len), ==, 0);
  g_assert_cmpmem (out, okm->len, okm->data, okm->len);

  /* A prefix of the output is the output for a shorter length. */
  memset (out, 0, okm->len);
  g_assert_cmpint (pl_hkdf_sha256 (salt->data, salt->len, ikm->data,
                                   ikm->len, info->data, info->len,
                                   out, 17), ==, 0);
  g_assert_cmpmem (out, 17, okm->data, 17);

  gcry_free (out);
  g_byte_array_unref (ikm);
  g_byte_array_unref (salt);
  g_byte_array_unref (info);
  g_byte_array_unref (okm);
}

static void
test_limits (void)
{
  guint8 ikm[4] = { 1, 2, 3, 4 };
  guint8 *out = gcry_malloc_secure (255 * 32 + 1);

  g_assert_cmpint (pl_hkdf_sha256 (NULL, 0, ikm, 4, NULL, 0,
                                   out, 255 * 32), ==, 0);
  g_assert_cmpint (gpg_err_code (pl_hkdf_sha256 (NULL, 0, ikm, 4, NULL, 0,
                                                 out, 255 * 32 + 1)),
                   ==, GPG_ERR_INV_ARG);
  g_assert_cmpint (pl_hkdf_sha256 (NULL, 0, ikm, 4, NULL, 0, out, 0), ==, 0);
  gcry_free (out);
}

int
main (int argc, char **argv)
{
  tu_init (&argc, &argv);

  g_test_add_data_func ("/hkdf/rfc5869/case1", &vectors[0], check_vector);
  g_test_add_data_func ("/hkdf/rfc5869/case2", &vectors[1], check_vector);
  g_test_add_data_func ("/hkdf/rfc5869/case3", &vectors[2], check_vector);
  g_test_add_func ("/hkdf/limits", test_limits);
  return g_test_run ();
}
