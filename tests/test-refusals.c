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
#include "cert.h"
#include "key-builder.h"
#include "packet-builder.h"
#include "packet.h"
#include "pkesk.h"
#include "recipients.h"
#include "errors.h"

#include <string.h>
#include <time.h>
#include <gcrypt.h>

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

static pl_opener test_key;

static void
options_with_key (pl_encrypt_options *o)
{
  pl_encrypt_options_init (o);
  test_key = pl_opener_passphrase ("pw", 2);
  o->openers = &test_key;
  o->n_openers = 1;
  o->s2k_ms = 1;
}

static void
test_encrypt_no_key (void)
{
  pl_encrypt_options o;
  pl_job_control two = { NULL, NULL, NULL, 2 };

  options_with_key (&o);
  o.openers = NULL;
  o.n_openers = 0;
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
  pl_opener session
    = pl_opener_session_key ((const uint8_t *) "0123456789abcdef", 16,
                             PL_CIPHER_AES128);

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
  o.openers = &session;
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
  tu_cheap_kdf (&o);
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
  pl_opener key = pl_opener_session_key (zero, 32, 99);
  pl_decrypt_options o = { &key, 1, 0, NULL };

  /* SEIPD v1 takes the cipher from the candidate: one we do not know. */
  check_decrypt (msgs[0], &o, GPG_ERR_CIPHER_ALGO);
  /* The AEAD headers name AES-256: a 16-octet key cannot be it. */
  key = pl_opener_session_key (zero, 16, PL_CIPHER_AES128);
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
  pl_opener key = pl_opener_session_key (zero, 33, PL_CIPHER_AES256);
  pl_decrypt_options o = { &key, 1, 0, NULL };

  /* A session key longer than any cipher's. */
  check_decrypt (msg, &o, GPG_ERR_BAD_KEY);
  /* A wrong passphrase, and a list where only the second is right. */
  {
    pl_opener keys[2] = { pl_opener_passphrase ("nope", 4),
                       pl_opener_passphrase ("pw", 2) };
    pl_decrypt_options two = { keys, 1, 0, NULL };
    pl_source *src = pl_source_new_memory (g_bytes_get_data (msg, NULL),
                                           g_bytes_get_size (msg));
    pl_sink *sink = pl_sink_new_memory ();
    uint8_t *key_out = gcry_malloc_secure (PL_SESSION_KEY_MAX);
    pl_decrypt_result result;

    check_decrypt (msg, &two, GPG_ERR_BAD_PASSPHRASE);
    two.n_openers = 2;
    two.session_key_out = key_out;
    g_assert_cmpuint (pl_decrypt (src, sink, &two, &result, NULL), ==, 0);
    g_assert_cmpuint (result.session_key_len, ==, 32);
    gcry_free (key_out);
    pl_sink_free (sink);
    pl_source_free (src);
  }
  g_bytes_unref (msg);
}

/* ---- Keys not safe to use, and what one's own keys may cost -------- */

/* MSG (a whole message, binary) without its first packet; the octets
 * from there into *REST. */
static GBytes *
drop_first_packet (GBytes *msg)
{
  const uint8_t *p = g_bytes_get_data (msg, NULL);
  gsize n = g_bytes_get_size (msg), hl, len;

  g_assert_true (p[0] & 0x40);  /* pl_packet_write_header's form */
  if (p[1] < 192)
    hl = 2, len = p[1];
  else if (p[1] < 224)
    hl = 3, len = ((gsize) (p[1] - 192) << 8) + p[2] + 192;
  else
    hl = 6, len = (gsize) p[2] << 24 | (gsize) p[3] << 16
                  | (gsize) p[4] << 8 | p[5];
  return g_bytes_new (p + hl + len, n - hl - len);
}

/* The encrypted data of PROFILE's message of "refusals" (AES-256),
 * without its key packet, its session key into KEY (32 octets). */
static GBytes *
bare_data (uint8_t *key, pl_profile profile)
{
  GBytes *msg = message (profile), *rest;
  pl_opener pw = pl_opener_passphrase ("pw", 2);
  pl_decrypt_options o = { &pw, 1, 0, NULL };
  pl_source *src = pl_source_new_memory (g_bytes_get_data (msg, NULL),
                                         g_bytes_get_size (msg));
  pl_sink *sink = pl_sink_new_memory ();
  pl_decrypt_result result;

  o.session_key_out = key;
  g_assert_cmpuint (pl_decrypt (src, sink, &o, &result, NULL), ==, 0);
  g_assert_cmpuint (result.session_key_len, ==, 32);
  rest = drop_first_packet (msg);
  g_assert_cmpint (((const uint8_t *) g_bytes_get_data (rest, NULL))[0],
                   ==, 0xC0 | (profile == PL_PROFILE_LIBREPGP
                               ? PL_PKT_OCB_ENCRYPTED : PL_PKT_SEIPD));
  pl_sink_free (sink);
  pl_source_free (src);
  g_bytes_unref (msg);
  return rest;
}

/* PKESK P as a packet, appended to OUT. */
static GByteArray *
with_pkesk (GByteArray *out, const pl_pkesk *p)
{
  uint8_t body[PL_PKESK_BODY_MAX];

  pb_packet (out, PL_PKT_PKESK, body, pl_pkesk_write (p, body));
  return out;
}

/* One's own RSA key, a signing primary (flags 0x03) with an encryption
 * subkey (0x0C), as a transferable secret key; and the encrypted data of
 * a message, without its key packets, whose session key the tests lock
 * in key packets of their own making. */
typedef struct
{
  kb_key primary, sub;
  pl_cert **certs;              /* the secret key, read */
  size_t n_certs;
  uint8_t *key;                 /* secure: DATA's session key, 32 octets */
  GBytes *data;
} own_key;

/* F's data becomes PROFILE's (bare_data). */
static void
own_key_profile (own_key *f, pl_profile profile)
{
  if (f->data)
    g_bytes_unref (f->data);
  f->data = bare_data (f->key, profile);
}

/* A subkey of SUB_BITS, the data of the rfc4880 profile (SEIPD v1).  The
 * RSA keys are the process's (kb_rsa_shared), the key packets, the
 * certificate and the data each test's own. */
static void
own_key_setup (own_key *f, unsigned int sub_bits)
{
  uint32_t t = (uint32_t) time (NULL) - 60;
  GBytes *sec;

  memset (f, 0, sizeof *f);
  kb_rsa_shared (&f->primary, 2048, 0, KB_RSA_GOOD, t);
  kb_rsa_shared (&f->sub, sub_bits, 1, KB_RSA_GOOD, t);
  sec = kb_cert (&f->primary, 0x03, &f->sub, 0x0C, 1, t);
  g_assert_cmpint (pl_certs_read (g_bytes_get_data (sec, NULL),
                                  g_bytes_get_size (sec), &f->certs,
                                  &f->n_certs), ==, 0);
  g_bytes_unref (sec);
  f->key = gcry_malloc_secure (32);
  own_key_profile (f, PL_PROFILE_RFC4880);
}

static void
own_key_teardown (own_key *f)
{
  pl_certs_free (f->certs, f->n_certs);
  kb_clear (&f->primary);
  kb_clear (&f->sub);
  gcry_free (f->key);
  g_bytes_unref (f->data);
}

/* A VERSION PKESK of F's session key to TO (anonymous: for nobody). */
static pl_pkesk
own_key_pkesk (const own_key *f, int version, const pl_pubkey *to,
               int anonymous)
{
  pl_pkesk p;

  g_assert_cmpint (pl_pkesk_encrypt (&p, version, to, anonymous,
                                     PL_CIPHER_AES256, f->key, 32), ==, 0);
  return p;
}

/* pl_decrypt, with F's secret key, of the key packets in MSG (taken and
 * freed), then the PKESK P when not NULL, then F's data. */
static gpg_error_t
own_key_open (const own_key *f, GByteArray *msg, const pl_pkesk *p,
              pl_decrypt_result *result)
{
  pl_opener key = { PL_OPENER_SECRET_KEYS, f->certs[0], 0, 0, 0 };
  pl_decrypt_options o = { &key, 1, 0, NULL };
  pl_source *src;
  pl_sink *sink = pl_sink_new_memory ();
  gpg_error_t err;

  if (p)
    with_pkesk (msg, p);
  g_byte_array_append (msg, g_bytes_get_data (f->data, NULL),
                       (guint) g_bytes_get_size (f->data));
  src = pl_source_new_memory (msg->data, msg->len);
  memset (result, 0, sizeof *result);
  err = pl_decrypt (src, sink, &o, result, NULL);
  pl_sink_free (sink);
  pl_source_free (src);
  g_byte_array_unref (msg);
  return err;
}

/* Issue 32 §5: a PKESK for a primary whose key flags leave encryption
 * out (sign and certify, 0x03) opened the message, named or for nobody;
 * the subkey whose flags allow it still does. */
static void
test_decrypt_primary_flags (void)
{
  own_key f;
  pl_decrypt_result result;

  own_key_setup (&f, 2048);
  for (int anonymous = 0; anonymous < 2; anonymous++)
    for (int to_sub = 0; to_sub < 2; to_sub++)
      {
        pl_pkesk p = own_key_pkesk (&f, 3, to_sub ? &f.sub.pub
                                                  : &f.primary.pub, anonymous);

        g_assert_cmpstr (gpg_strerror (own_key_open (&f, g_byte_array_new (),
                                                     &p, &result)), ==,
                         gpg_strerror (to_sub ? 0 : GPG_ERR_NO_SECKEY));
      }
  own_key_teardown (&f);
}

/* Issue 32 §5: an RSA value c >= n was reduced by libgcrypt and opened
 * the message: c + n is refused; c itself opens it. */
static void
test_decrypt_rsa_value_over_modulus (void)
{
  own_key f;
  pl_decrypt_result result;

  own_key_setup (&f, 2048);
  for (int over = 0; over < 2; over++)
    {
      pl_pkesk p = own_key_pkesk (&f, 3, &f.sub.pub, 0);
      gcry_mpi_t c, n;
      size_t len;

      g_assert_cmpint (gcry_mpi_scan (&c, GCRYMPI_FMT_USG,
                                      p.data + p.f[0].off, p.f[0].len, NULL),
                       ==, 0);
      g_assert_cmpint (pl_pubkey_mpi (&f.sub.pub, 0, &n), ==, 0);
      if (over)
        gcry_mpi_add (c, c, n);
      g_assert_cmpint (gcry_mpi_print (GCRYMPI_FMT_PGP, p.data,
                                       sizeof p.data, &len, c), ==, 0);
      p.data_len = len;
      g_assert_cmpstr (gpg_strerror (own_key_open (&f, g_byte_array_new (),
                                                   &p, &result)), ==,
                       gpg_strerror (over ? GPG_ERR_NO_SECKEY : 0));
      gcry_mpi_release (c);
      gcry_mpi_release (n);
    }
  own_key_teardown (&f);
}

/* Issue 32 §5: one's own RSA-1024 subkey still opens what was sent to it
 * (RFC 9580 §12.4), and the result warns, naming it and why. */
static void
test_decrypt_weak_own_key_warns (void)
{
  own_key f;
  pl_decrypt_result result;
  pl_pkesk p;
  char fpr[2 * PL_FPR_MAX + 3];

  own_key_setup (&f, 1024);
  p = own_key_pkesk (&f, 3, &f.sub.pub, 0);
  g_assert_cmpint (own_key_open (&f, g_byte_array_new (), &p, &result), ==, 0);
  pl_fpr_format (f.sub.pub.fpr, f.sub.pub.fpr_len, fpr);
  g_assert_nonnull (strstr (result.key_warning, fpr));
  g_assert_nonnull (strstr (result.key_warning, "RSA-1024 is too weak"));
  own_key_teardown (&f);
}

/* Issue 32 §5: a v3 PKESK before a v2 SEIPD opened it (RFC 9580
 * §5.1.1: MUST NOT; §10.3.2.1: such a key packet is dropped).  Now the
 * message is refused saying why; a v6 PKESK opens it, and before a v1
 * SEIPD a v6 PKESK is refused likewise. */
static void
test_decrypt_pkesk_version (void)
{
  own_key f;
  pl_decrypt_result result;

  own_key_setup (&f, 2048);
  for (int seipd2 = 0; seipd2 < 2; seipd2++)
    {
      own_key_profile (&f, seipd2 ? PL_PROFILE_RFC9580 : PL_PROFILE_RFC4880);
      for (int v6 = 0; v6 < 2; v6++)
        {
          pl_pkesk p = own_key_pkesk (&f, v6 ? 6 : 3, &f.sub.pub, 0);

          g_assert_cmpstr (gpg_strerror (own_key_open (&f, g_byte_array_new (),
                                                       &p, &result)), ==,
                           gpg_strerror (seipd2 == v6 ? 0
                                         : PL_ERR_KEY_PACKET_VERSION));
        }
    }
  own_key_teardown (&f);
}

/* An SKESK of VERSION (4 with an encrypted key; 5 and 6 with OCB) that
 * wraps KEY (32 octets, AES-256) for the passphrase "pw", into OUT. */
static void
put_skesk (GByteArray *out, int version, const uint8_t *key)
{
  pl_skesk sk;
  uint8_t body[PL_SKESK_BODY_MAX], *s2k_key = gcry_malloc_secure (32);

  memset (&sk, 0, sizeof sk);
  sk.version = version;
  sk.cipher_algo = PL_CIPHER_AES256;
  sk.aead_algo = version == 4 ? 0 : PL_AEAD_OCB;
  sk.s2k.type = PL_S2K_ITERATED;
  sk.s2k.hash_algo = PL_HASH_SHA256;
  gcry_randomize (sk.s2k.salt, 8, GCRY_WEAK_RANDOM);
  g_assert_cmpuint (pl_s2k_derive (&sk.s2k, "pw", 2, s2k_key, 32, 0), ==, 0);
  g_assert_cmpint (pl_skesk_encrypt (&sk, s2k_key, key, 32), ==, 0);
  pb_packet (out, PL_PKT_SKESK, body, pl_skesk_write (&sk, body));
  gcry_free (s2k_key);
}

/* Issue 32 §5: an SKESK of another version than the data packet takes
 * (RFC 9580 §5.3.1, §5.3.2, §10.3.2.1: a v4 SKESK MUST NOT precede a v2
 * SEIPD, nor a v6 one a v1 SEIPD; LibrePGP's OCB packet takes v5) opened
 * it when its session key fit: a v4 or v5 one before SEIPD v2, a v5 one
 * before SEIPD v1, a v4 or v6 one before the OCB packet.  Now each is
 * dropped, as if absent, and the message refused saying why; the aligned
 * one opens it, and so it does after a misaligned one. */
static void
test_decrypt_skesk_version (void)
{
  static const struct { pl_profile profile; int aligned; } data[] = {
    { PL_PROFILE_RFC4880, 4 },
    { PL_PROFILE_LIBREPGP, 5 },
    { PL_PROFILE_RFC9580, 6 },
  };
  uint8_t *key = gcry_malloc_secure (32);
  pl_opener pw = pl_opener_passphrase ("pw", 2);
  pl_decrypt_options o = { &pw, 1, 0, NULL };

  for (gsize i = 0; i < G_N_ELEMENTS (data); i++)
    {
      GBytes *bare = bare_data (key, data[i].profile);

      for (int version = 4; version <= 7; version++)
        {
          GByteArray *msg = g_byte_array_new ();
          GBytes *m;

          /* Version 7: the misaligned one, then the aligned one. */
          put_skesk (msg, version == 7 ? 4 + (data[i].aligned == 4)
                                       : version, key);
          if (version == 7)
            put_skesk (msg, data[i].aligned, key);
          g_byte_array_append (msg, g_bytes_get_data (bare, NULL),
                               (guint) g_bytes_get_size (bare));
          m = g_byte_array_free_to_bytes (msg);
          g_test_message ("SKESK v%d before data of profile %d", version,
                          data[i].profile);
          if (version == data[i].aligned || version == 7)
            {
              pl_source *src = pl_source_new_memory (g_bytes_get_data (m,
                                                                       NULL),
                                                     g_bytes_get_size (m));
              pl_sink *sink = pl_sink_new_memory ();
              pl_decrypt_result result;

              g_assert_cmpint (pl_decrypt (src, sink, &o, &result, NULL),
                               ==, 0);
              pl_sink_free (sink);
              pl_source_free (src);
            }
          else
            check_decrypt (m, &o, PL_ERR_KEY_PACKET_VERSION);
          g_bytes_unref (m);
        }
      g_bytes_unref (bare);
    }
  gcry_free (key);
}

/* N v3 PKESKs for nobody, of algorithm 1, each a random value of BITS -
 * 8 bits, into MSG. */
static GByteArray *
put_wildcards (GByteArray *msg, int n, unsigned int bits)
{
  for (int i = 0; i < n; i++)
    {
      pl_pkesk p;
      uint8_t v[PL_PUBKEY_BITS_MAX / 8];
      size_t len = (bits - 8) / 8;

      memset (&p, 0, sizeof p);
      p.version = 3;
      p.algo = PL_PK_RSA;
      gcry_randomize (v, len, GCRY_WEAK_RANDOM);
      v[0] |= 0x80;
      p.data_len = pl_mpi_write (v, len, p.data);
      with_pkesk (msg, &p);
    }
  return msg;
}

/* Issue 32 §6: 32 PKESKs for nobody against one's own RSA-16384 key were
 * 64 private-key operations (the primary, whose flags forbid encryption,
 * and the subkey, each time): 43 s of CPU.  Now the primary is not tried
 * and the trials stop at the work budget (4 RSA-16384 decryptions),
 * saying so; with an RSA-2048 key all 32 are tried, and the real one,
 * last, opens the message. */
static void
test_decrypt_wildcard_budget (void)
{
  own_key f;
  pl_decrypt_result result;
  pl_pkesk p;
  g_autofree char *path = g_build_filename (g_getenv ("PADLOCK_SOURCE_DIR"),
                                            "tests", "data",
                                            "rsa16384-sec.asc", NULL);
  gchar *text;
  gsize text_len;
  size_t before;

  own_key_setup (&f, 2048);
  p = own_key_pkesk (&f, 3, &f.sub.pub, 1);
  before = pl_pkesk_trials_made ();
  g_assert_cmpint (own_key_open (&f, put_wildcards (g_byte_array_new (), 31,
                                                    2048), &p, &result),
                   ==, 0);
  g_assert_cmpuint (pl_pkesk_trials_made () - before, ==, 32);

  /* The same data, one's own key RSA-16384. */
  pl_certs_free (f.certs, f.n_certs);
  g_assert_true (g_file_get_contents (path, &text, &text_len, NULL));
  g_assert_cmpint (pl_certs_read ((const uint8_t *) text, text_len, &f.certs,
                                  &f.n_certs), ==, 0);
  g_free (text);
  before = pl_pkesk_trials_made ();
  g_assert_cmpstr (gpg_strerror (own_key_open (&f, put_wildcards
                                                 (g_byte_array_new (), 32,
                                                  16384), NULL, &result)),
                   ==, gpg_strerror (PL_ERR_TOO_MANY_KEYS));
  g_assert_cmpuint (pl_pkesk_trials_made () - before, ==, 4);
  own_key_teardown (&f);
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
  g_test_add_func ("/refusals/decrypt/primary-flags",
                   test_decrypt_primary_flags);
  g_test_add_func ("/refusals/decrypt/rsa-value-over-modulus",
                   test_decrypt_rsa_value_over_modulus);
  g_test_add_func ("/refusals/decrypt/weak-own-key-warns",
                   test_decrypt_weak_own_key_warns);
  g_test_add_func ("/refusals/decrypt/pkesk-version",
                   test_decrypt_pkesk_version);
  g_test_add_func ("/refusals/decrypt/skesk-version",
                   test_decrypt_skesk_version);
  g_test_add_func ("/refusals/decrypt/wildcard-budget",
                   test_decrypt_wildcard_budget);
  return g_test_run ();
}
