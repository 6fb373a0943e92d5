/* test-rfc-messages.c - the complete sample messages of RFC 9580
 * Appendix A.9-A.12 and GnuPG's OCB samples, through the whole decrypt
 * job (tests/data/SOURCES.md says where each comes from) */
#include "testutil.h"
#include "algo.h"

#include <string.h>

typedef struct
{
  const char *file;
  const char *plaintext;
  pl_data_kind kind;
  int aead_algo;
  int cipher_algo;
} sample;

static void
check_sample (gconstpointer p)
{
  const sample *s = p;
  char *path = g_build_filename (g_getenv ("PADLOCK_SOURCE_DIR"), "tests",
                                 "data", s->file, NULL);
  char *data;
  gsize len;
  GBytes *out;
  pl_decrypt_result r = { 0 };
  gpg_error_t err;

  g_assert_true (g_file_get_contents (path, &data, &len, NULL));
  err = tu_decrypt ("password", data, len, &out, &r);
  g_assert_cmpstr (gpg_strerror (err), ==, gpg_strerror (0));
  g_assert_cmpmem (g_bytes_get_data (out, NULL), g_bytes_get_size (out),
                   s->plaintext, strlen (s->plaintext));
  g_assert_cmpint (r.data_kind, ==, s->kind);
  g_assert_cmpint (r.cipher_algo, ==, s->cipher_algo);
  if (s->aead_algo)
    g_assert_cmpint (r.aead_algo, ==, s->aead_algo);
  g_assert_true (r.armored);
  g_bytes_unref (out);

  /* The same message opens nothing with another passphrase. */
  err = tu_decrypt ("passw0rd", data, len, &out, NULL);
  g_assert_cmpint (gpg_err_code (err), ==, GPG_ERR_BAD_PASSPHRASE);
  g_assert_cmpuint (g_bytes_get_size (out), ==, 0);
  g_bytes_unref (out);
  g_free (data);
  g_free (path);
}

int
main (int argc, char **argv)
{
  static const sample samples[] = {
    { "rfc9580-a9-eax.asc", "Hello, world!", PL_DATA_SEIPD2, PL_AEAD_EAX, PL_CIPHER_AES128 },
    { "rfc9580-a10-ocb.asc", "Hello, world!", PL_DATA_SEIPD2, PL_AEAD_OCB, PL_CIPHER_AES128 },
    { "rfc9580-a11-gcm.asc", "Hello, world!", PL_DATA_SEIPD2, PL_AEAD_GCM, PL_CIPHER_AES128 },
    { "rfc9580-a12-argon2-aes128.asc", "Hello, world!", PL_DATA_SEIPD1, 0, PL_CIPHER_AES128 },
    { "rfc9580-a12-argon2-aes192.asc", "Hello, world!", PL_DATA_SEIPD1, 0, PL_CIPHER_AES192 },
    { "rfc9580-a12-argon2-aes256.asc", "Hello, world!", PL_DATA_SEIPD1, 0, PL_CIPHER_AES256 },
    { "gnupg-enc-sym-ocb-1.asc", "Hello, world!\n", PL_DATA_OCB_ENCRYPTED, PL_AEAD_OCB, PL_CIPHER_AES128 },
    { "gnupg-enc-sym-ocb-2.asc", "Hello, world!\n", PL_DATA_OCB_ENCRYPTED, PL_AEAD_OCB, PL_CIPHER_AES256 },
  };

  tu_init (&argc, &argv);
  for (gsize i = 0; i < G_N_ELEMENTS (samples); i++)
    {
      char *name = g_strdup_printf ("/rfc-messages/%s", samples[i].file);
      g_test_add_data_func (name, &samples[i], check_sample);
      g_free (name);
    }
  return g_test_run ();
}
