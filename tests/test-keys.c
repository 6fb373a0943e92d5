/* test-keys.c - from the job's keys to session keys, and back
 * (core/keys.h): what pl_keys_lock emits for each profile opens through
 * pl_key_candidates to the same session key; a second passphrase's
 * packet; the key packets of another version than the data dropped
 * (PL_ERR_KEY_PACKET_VERSION); the failures after the last candidate;
 * refusals before anything is emitted; the derivation counter. */
#include <string.h>
#include <gcrypt.h>
#include "testutil.h"
#include "algo.h"
#include "errors.h"
#include "keys.h"
#include "packet.h"

/* The packets pl_keys_lock emits, one after the other. */
typedef struct
{
  GByteArray *all;
  guint count;
} emitted;

static gpg_error_t
on_emit (void *arg, const uint8_t *p, size_t n)
{
  emitted *e = arg;

  g_byte_array_append (e->all, p, (guint) n);
  e->count++;
  return 0;
}

static void
cheap_options (pl_encrypt_options *o, pl_profile profile, const pl_opener *keys,
               size_t n_keys)
{
  tu_cheap_options (o, profile, keys);
  o->n_openers = n_keys;
}

/* Adds every packet of E to a new candidate list for the passphrase PW
 * (told that DATA follows when not 0).  The list keeps a pointer to its
 * options, so they outlive this call: one list at a time. */
static pl_key_candidates *
candidates_for (emitted *e, const pl_opener *key, pl_data_kind data)
{
  static pl_decrypt_options d;
  pl_key_candidates *c = NULL;
  pl_mem_reader m;
  pl_cursor cur;
  pl_packet_body body;
  gpg_error_t err;

  memset (&d, 0, sizeof d);
  d.openers = key;
  d.n_openers = 1;
  g_assert_cmpint (pl_key_candidates_new (&c, &d, NULL), ==, 0);
  pl_mem_reader_init (&m, e->all->data, e->all->len);
  pl_cursor_init (&cur, &m.base);
  while (!(err = pl_packet_begin (&cur, &body)))
    {
      g_assert_true (pl_key_packet_tag (body.tag));
      g_assert_cmpint (pl_key_candidates_add_packet (c, &body), ==, 0);
    }
  g_assert_cmpint (gpg_err_code (err), ==, GPG_ERR_EOF);
  if (data)
    pl_key_candidates_for_data (c, data);
  return c;
}

static const struct
{
  const char *name;
  pl_profile profile;
  pl_data_kind data;
  int cipher_named;             /* the key packet names the cipher */
} profiles[] = {
  { "rfc4880", PL_PROFILE_RFC4880, PL_DATA_SEIPD1, 1 },
  { "librepgp", PL_PROFILE_LIBREPGP, PL_DATA_OCB_ENCRYPTED, 1 },
  { "rfc9580", PL_PROFILE_RFC9580, PL_DATA_SEIPD2, 0 },
};

/* One passphrase: one SKESK, which gives back the session key. */
static void
test_lock_open (gconstpointer data)
{
  const int i = GPOINTER_TO_INT (data);
  pl_opener key = pl_opener_passphrase ("pw", 2);
  pl_encrypt_options o;
  emitted e = { g_byte_array_new (), 0 };
  uint8_t *sk = gcry_malloc_secure (PL_SESSION_KEY_MAX);
  pl_key_candidates *c;
  const uint8_t *got;
  size_t got_len = 0, keylen = pl_cipher_key_length (PL_CIPHER_AES256);
  int cipher = -1;
  size_t before = pl_keys_derivations ();

  cheap_options (&o, profiles[i].profile, &key, 1);
  g_assert_cmpint (pl_keys_lock (&o, NULL, sk, keylen, on_emit, &e), ==, 0);
  g_assert_cmpuint (e.count, ==, 1);
  g_assert_cmpuint (pl_keys_derivations () - before, ==, 1);
  c = candidates_for (&e, &key, profiles[i].data);
  g_assert_cmpint (pl_key_candidates_next (c, &got, &got_len, &cipher), ==, 0);
  g_assert_cmpmem (got, got_len, sk, keylen);
  if (profiles[i].cipher_named)
    g_assert_cmpint (cipher, ==, o.cipher_algo);
  else
    g_assert_cmpint (cipher, ==, 0);
  g_assert_cmpuint (pl_keys_derivations () - before, ==, 2);
  pl_key_candidates_free (c);
  g_byte_array_unref (e.all);
  gcry_free (sk);
}

/* Two passphrases (RFC 9580: AEAD-wrapped, so a wrong one is told at
 * once): either opens; a third does not, and that is a wrong
 * passphrase. */
static void
test_two_passphrases (void)
{
  pl_opener keys[2] = { pl_opener_passphrase ("first", 5),
                     pl_opener_passphrase ("second", 6) };
  pl_opener other = pl_opener_passphrase ("third", 5);
  pl_encrypt_options o;
  emitted e = { g_byte_array_new (), 0 };
  uint8_t *sk = gcry_malloc_secure (PL_SESSION_KEY_MAX);
  size_t keylen = pl_cipher_key_length (PL_CIPHER_AES256);
  const uint8_t *got;
  size_t got_len;
  int cipher;

  cheap_options (&o, PL_PROFILE_RFC9580, keys, 2);
  g_assert_cmpint (pl_keys_lock (&o, NULL, sk, keylen, on_emit, &e), ==, 0);
  g_assert_cmpuint (e.count, ==, 2);
  for (int k = 0; k < 2; k++)
    {
      pl_key_candidates *c = candidates_for (&e, &keys[k], PL_DATA_SEIPD2);

      g_assert_cmpint (pl_key_candidates_next (c, &got, &got_len, &cipher),
                       ==, 0);
      g_assert_cmpmem (got, got_len, sk, keylen);
      pl_key_candidates_free (c);
    }
  {
    pl_key_candidates *c = candidates_for (&e, &other, PL_DATA_SEIPD2);

    g_assert_cmpint (gpg_err_code (pl_key_candidates_next (c, &got, &got_len,
                                                           &cipher)),
                     ==, GPG_ERR_EOF);
    g_assert_cmpint (gpg_err_code (pl_key_candidates_failure (c)), ==,
                     GPG_ERR_BAD_PASSPHRASE);
    pl_key_candidates_free (c);
  }
  g_byte_array_unref (e.all);
  gcry_free (sk);
}

/* An SKESK v6 before SEIPD v1, and a v4 one before SEIPD v2 (RFC 9580
 * §5.3 MUST NOT): dropped, and that is what the user hears. */
static void
test_wrong_version (void)
{
  static const struct { pl_profile made; pl_data_kind then; } cases[] = {
    { PL_PROFILE_RFC9580, PL_DATA_SEIPD1 },
    { PL_PROFILE_RFC4880, PL_DATA_SEIPD2 },
  };
  pl_opener key = pl_opener_passphrase ("pw", 2);

  for (gsize i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      pl_encrypt_options o;
      emitted e = { g_byte_array_new (), 0 };
      uint8_t *sk = gcry_malloc_secure (PL_SESSION_KEY_MAX);
      pl_key_candidates *c;
      const uint8_t *got;
      size_t got_len;
      int cipher;

      cheap_options (&o, cases[i].made, &key, 1);
      g_assert_cmpint (pl_keys_lock (&o, NULL, sk, 32, on_emit, &e), ==, 0);
      c = candidates_for (&e, &key, cases[i].then);
      g_assert_cmpint (gpg_err_code (pl_key_candidates_next (c, &got,
                                                             &got_len,
                                                             &cipher)),
                       ==, GPG_ERR_EOF);
      g_assert_cmpint (gpg_err_code (pl_key_candidates_failure (c)), ==,
                       PL_ERR_KEY_PACKET_VERSION);
      pl_key_candidates_free (c);
      g_byte_array_unref (e.all);
      gcry_free (sk);
    }
}

/* No key packet at all: nothing to try, and GPG_ERR_NO_DATA says so. */
static void
test_no_packets (void)
{
  pl_opener key = pl_opener_passphrase ("pw", 2);
  emitted e = { g_byte_array_new (), 0 };
  pl_key_candidates *c = candidates_for (&e, &key, PL_DATA_SEIPD2);
  const uint8_t *got;
  size_t got_len;
  int cipher;

  g_assert_cmpint (gpg_err_code (pl_key_candidates_next (c, &got, &got_len,
                                                         &cipher)),
                   ==, GPG_ERR_EOF);
  g_assert_cmpint (gpg_err_code (pl_key_candidates_failure (c)), ==,
                   GPG_ERR_NO_DATA);
  pl_key_candidates_free (c);
  g_byte_array_unref (e.all);
}

/* Refused before anything is emitted: no key, and a session key (a key
 * for decrypting, not for locking). */
static void
test_lock_refusals (void)
{
  static const uint8_t session[32];
  pl_opener key = pl_opener_session_key (session, sizeof session, PL_CIPHER_AES256);
  pl_encrypt_options o;
  emitted e = { g_byte_array_new (), 0 };
  uint8_t *sk = gcry_malloc_secure (PL_SESSION_KEY_MAX);

  cheap_options (&o, PL_PROFILE_RFC9580, NULL, 0);
  g_assert_cmpint (gpg_err_code (pl_keys_lock (&o, NULL, sk, 32, on_emit,
                                               &e)), ==, GPG_ERR_NO_KEY);
  cheap_options (&o, PL_PROFILE_RFC9580, &key, 1);
  g_assert_cmpint (gpg_err_code (pl_keys_lock (&o, NULL, sk, 32, on_emit,
                                               &e)), ==, GPG_ERR_INV_ARG);
  g_assert_cmpuint (e.count, ==, 0);
  g_byte_array_unref (e.all);
  gcry_free (sk);
}

static void
test_key_packet_tags (void)
{
  for (int tag = 0; tag < 64; tag++)
    g_assert_cmpint (pl_key_packet_tag (tag), ==,
                     tag == PL_PKT_PKESK || tag == PL_PKT_SKESK);
}

/* Which openers make a job wait (prealloc.h makes the output's room
 * meanwhile): passphrases, a secret key's passphrase, keys held by the
 * agent; not certificates, session keys or unlocked secret keys. */
static void
test_openers_wait (void)
{
  static const uint8_t sk[32];
  pl_opener pw = pl_opener_passphrase ("pw", 2);
  pl_opener session = pl_opener_session_key (sk, sizeof sk, PL_CIPHER_AES256);
  pl_opener cert = { PL_OPENER_CERT, NULL, 0, 0, 0 };
  pl_opener secret = { PL_OPENER_SECRET_KEYS, NULL, 0, 0, 0 };
  pl_opener key_pw = { PL_OPENER_KEY_PASSPHRASE, "k", 1, 0, 0 };
  pl_opener held = { PL_OPENER_HELD_KEYS, NULL, 0, 0, 0 };
  pl_opener quick[] = { session, cert, secret };
  pl_opener mixed[] = { cert, session, pw };

  g_assert_cmpint (pl_openers_wait (NULL, 0), ==, 0);
  g_assert_cmpint (pl_openers_wait (quick, G_N_ELEMENTS (quick)), ==, 0);
  g_assert_cmpint (pl_openers_wait (mixed, G_N_ELEMENTS (mixed)), ==, 1);
  g_assert_cmpint (pl_openers_wait (mixed, 2), ==, 0);
  g_assert_cmpint (pl_openers_wait (&key_pw, 1), ==, 1);
  g_assert_cmpint (pl_openers_wait (&held, 1), ==, 1);
}

int
main (int argc, char **argv)
{
  tu_init (&argc, &argv);
  for (gsize i = 0; i < G_N_ELEMENTS (profiles); i++)
    {
      g_autofree char *path = g_strdup_printf ("/keys/lock-open/%s",
                                               profiles[i].name);

      g_test_add_data_func (path, GINT_TO_POINTER ((int) i), test_lock_open);
    }
  g_test_add_func ("/keys/two-passphrases", test_two_passphrases);
  g_test_add_func ("/keys/wrong-version", test_wrong_version);
  g_test_add_func ("/keys/no-packets", test_no_packets);
  g_test_add_func ("/keys/lock-refusals", test_lock_refusals);
  g_test_add_func ("/keys/packet-tags", test_key_packet_tags);
  g_test_add_func ("/keys/openers-wait", test_openers_wait);
  return g_test_run ();
}
