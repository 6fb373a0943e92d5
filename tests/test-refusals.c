/* test-refusals.c - what pl_encrypt and pl_decrypt refuse before they
 * start: no key, a cipher that cannot be used, an unknown profile, bad
 * options.  Each refusal must leave the sink aborted and nothing behind;
 * `make memcheck` runs this test under valgrind, which also sees any
 * thread or buffer a refusal forgets (or, as once, stops without having
 * started it). */
#include "testutil.h"
#include "algo.h"
#include "aead.h"
#include "skesk.h"

#include <string.h>

/* Large enough that a job would start its read-ahead and writer
 * threads, had it got that far. */
#define INPUT_LEN (3u << 20)

static void
check_encrypt (const pl_encrypt_options *o, const pl_job_control *ctl,
               gpg_err_code_t want)
{
  static uint8_t input[INPUT_LEN];
  pl_source *src = pl_source_new_memory (input, sizeof input);
  tu_record_sink sink;

  tu_record_sink_init (&sink, NULL);
  g_assert_cmpstr (gpg_strerror (pl_encrypt (src, &sink.base, o, ctl)), ==,
                   gpg_strerror (want));
  g_assert_true (sink.aborted);
  g_assert_false (sink.committed);
  g_assert_cmpuint (sink.written, ==, 0);
  pl_source_free (src);
}

static pl_key test_key;

static void
options_with_key (pl_encrypt_options *o)
{
  pl_encrypt_options_init (o);
  test_key = pl_key_passphrase ("pw", 2);
  o->keys = &test_key;
  o->n_keys = 1;
  o->s2k_ms = 1;
}

static void
test_encrypt_no_key (void)
{
  pl_encrypt_options o;
  pl_job_control two = { NULL, NULL, NULL, 2 };

  options_with_key (&o);
  o.keys = NULL;
  o.n_keys = 0;
  check_encrypt (&o, NULL, GPG_ERR_NO_KEY);
  check_encrypt (&o, &two, GPG_ERR_NO_KEY);
  /* NULL options are the defaults, which name no key. */
  check_encrypt (NULL, &two, GPG_ERR_NO_KEY);
}

static void
test_encrypt_unknown_cipher (void)
{
  pl_encrypt_options o;
  pl_job_control two = { NULL, NULL, NULL, 2 };

  options_with_key (&o);
  o.cipher_algo = 99;
  check_encrypt (&o, &two, GPG_ERR_CIPHER_ALGO);
  /* A 64-bit block cipher has no AEAD mode. */
  options_with_key (&o);
  o.cipher_algo = PL_CIPHER_CAST5;
  o.profile = PL_PROFILE_RFC9580;
  check_encrypt (&o, &two, GPG_ERR_CIPHER_ALGO);
}

static void
test_encrypt_unknown_profile (void)
{
  pl_encrypt_options o;
  pl_job_control two = { NULL, NULL, NULL, 2 };

  options_with_key (&o);
  o.profile = (pl_profile) 3;
  check_encrypt (&o, &two, GPG_ERR_INV_ARG);
  o.profile = (pl_profile) -1;
  check_encrypt (&o, NULL, GPG_ERR_INV_ARG);
}

static void
test_encrypt_bad_options (void)
{
  pl_encrypt_options o;
  pl_job_control two = { NULL, NULL, NULL, 2 };
  pl_key session = pl_key_session ((const uint8_t *) "0123456789abcdef",
                                   16, PL_CIPHER_AES128);

  options_with_key (&o);
  o.profile = PL_PROFILE_RFC9580;
  o.chunk_octet = PL_AEAD_CHUNK_OCTET_MAX + 1;
  check_encrypt (&o, &two, GPG_ERR_INV_ARG);
  options_with_key (&o);
  o.literal_format = 'x';
  check_encrypt (&o, &two, GPG_ERR_INV_ARG);
  options_with_key (&o);
  o.compress_algo = 7;
  check_encrypt (&o, &two, GPG_ERR_INV_ARG);
  options_with_key (&o);
  o.compress_algo = PL_COMPRESS_ZLIB;
  o.compress_level = 10;
  check_encrypt (&o, &two, GPG_ERR_INV_ARG);
  /* Encryption locks with passphrases; a bare session key is no key
   * packet. */
  options_with_key (&o);
  o.keys = &session;
  check_encrypt (&o, &two, GPG_ERR_INV_ARG);
}

/* A real message, so that decryption refusals are about the keys. */
static GBytes *
message (pl_profile profile)
{
  pl_encrypt_options o;
  GBytes *out = NULL;
  static const char text[] = "refusals";

  pl_encrypt_options_init (&o);
  o.profile = profile;
  o.s2k_ms = 1;
  o.argon2_passes = 1;
  o.argon2_parallelism = 1;
  o.argon2_memory_exp = 3;
  g_assert_cmpuint (tu_encrypt (&o, "pw", text, sizeof text - 1, &out), ==,
                    0);
  return out;
}

static void
check_decrypt (GBytes *msg, const pl_decrypt_options *o,
               gpg_err_code_t want)
{
  pl_source *src = pl_source_new_memory (g_bytes_get_data (msg, NULL),
                                         g_bytes_get_size (msg));
  pl_job_control two = { NULL, NULL, NULL, 2 };
  pl_decrypt_result result;
  tu_record_sink sink;

  tu_record_sink_init (&sink, NULL);
  g_assert_cmpstr (gpg_strerror (pl_decrypt (src, &sink.base, o, &result,
                                             &two)),
                   ==, gpg_strerror (want));
  g_assert_true (sink.aborted);
  g_assert_false (sink.committed);
  g_assert_cmpuint (result.session_key_len, ==, 0);
  pl_source_free (src);
}

static void
test_decrypt_no_key (void)
{
  GBytes *msg = message (PL_PROFILE_RFC4880);
  pl_decrypt_options o = { 0 };

  check_decrypt (msg, &o, GPG_ERR_NO_KEY);
  check_decrypt (msg, NULL, GPG_ERR_NO_KEY);
  g_bytes_unref (msg);
}

static void
test_decrypt_unknown_cipher (void)
{
  static const uint8_t zero[32];
  GBytes *msgs[] = { message (PL_PROFILE_RFC4880),
                     message (PL_PROFILE_LIBREPGP),
                     message (PL_PROFILE_RFC9580) };
  pl_key key = pl_key_session (zero, 32, 99);
  pl_decrypt_options o = { &key, 1, 0, NULL };

  /* SEIPD v1 takes the cipher from the candidate: one we do not know. */
  check_decrypt (msgs[0], &o, GPG_ERR_CIPHER_ALGO);
  /* The AEAD headers name AES-256: a 16-octet key cannot be it. */
  key = pl_key_session (zero, 16, PL_CIPHER_AES128);
  check_decrypt (msgs[1], &o, GPG_ERR_BAD_PASSPHRASE);
  check_decrypt (msgs[2], &o, GPG_ERR_BAD_PASSPHRASE);
  for (size_t i = 0; i < G_N_ELEMENTS (msgs); i++)
    g_bytes_unref (msgs[i]);
}

static void
test_decrypt_bad_options (void)
{
  static const uint8_t zero[64];
  GBytes *msg = message (PL_PROFILE_RFC4880);
  pl_key key = pl_key_session (zero, 33, PL_CIPHER_AES256);
  pl_decrypt_options o = { &key, 1, 0, NULL };

  /* A session key longer than any cipher's. */
  check_decrypt (msg, &o, GPG_ERR_BAD_KEY);
  /* A wrong passphrase, and a list where only the second is right. */
  {
    pl_key keys[2] = { pl_key_passphrase ("nope", 4),
                       pl_key_passphrase ("pw", 2) };
    pl_decrypt_options two = { keys, 1, 0, NULL };
    pl_source *src = pl_source_new_memory (g_bytes_get_data (msg, NULL),
                                           g_bytes_get_size (msg));
    pl_sink *sink = pl_sink_new_memory ();
    uint8_t *key_out = gcry_malloc_secure (PL_SESSION_KEY_MAX);
    pl_decrypt_result result;

    check_decrypt (msg, &two, GPG_ERR_BAD_PASSPHRASE);
    two.n_keys = 2;
    two.session_key_out = key_out;
    g_assert_cmpuint (pl_decrypt (src, sink, &two, &result, NULL), ==, 0);
    g_assert_cmpuint (result.session_key_len, ==, 32);
    gcry_free (key_out);
    pl_sink_free (sink);
    pl_source_free (src);
  }
  g_bytes_unref (msg);
}

int
main (int argc, char **argv)
{
  tu_init (&argc, &argv);
  g_test_add_func ("/refusals/encrypt/no-key", test_encrypt_no_key);
  g_test_add_func ("/refusals/encrypt/unknown-cipher",
                   test_encrypt_unknown_cipher);
  g_test_add_func ("/refusals/encrypt/unknown-profile",
                   test_encrypt_unknown_profile);
  g_test_add_func ("/refusals/encrypt/bad-options", test_encrypt_bad_options);
  g_test_add_func ("/refusals/decrypt/no-key", test_decrypt_no_key);
  g_test_add_func ("/refusals/decrypt/unknown-cipher",
                   test_decrypt_unknown_cipher);
  g_test_add_func ("/refusals/decrypt/bad-options", test_decrypt_bad_options);
  return g_test_run ();
}
