/* test-verify.c - the signature verifier (verify.h) on messages built
 * here with sign.h: nested one-pass signatures past PL_VERIFY_MAX matched
 * innermost first, text signatures over LF and CR LF, a signature that
 * contradicts its one-pass packet, one never closed, a signature with
 * nothing to close, signed-only messages through pl_decrypt (a bad
 * one writes nothing), and the policy (issue 32): a critical notation or
 * an unknown critical subpacket, a signature or key from a clock that
 * runs fast, each "not valid" with its reason and never "bad"; and a
 * detached signature checked over a data stream as a job's stage
 * (detached.h): progress, cancel, one octet changed */
#include "testutil.h"
#include "cert.h"
#include "keygen.h"
#include "key-builder.h"
#include "packet.h"
#include "seckey.h"
#include "sign.h"
#include "verify.h"
#include "detached.h"

#include <string.h>
#include <time.h>
#include <gcrypt.h>

/* N signatures by K (text or binary) over SIGNED, one-pass packets into
 * V, then STORED as the literal data, then the signatures. */
static void
run (pl_verifier *v, tu_key *k, int n, int text, const char *signed_data,
     const char *stored)
{
  pl_data_signer *s = g_new0 (pl_data_signer, n);
  uint8_t ops[PL_ONEPASS_MAX], body[PL_SIG_BODY_MAX];
  size_t len;

  for (int i = 0; i < n; i++)
    {
      g_assert_cmpint (pl_data_signer_init (&s[i], &k->sk, text,
                                            (uint32_t) time (NULL)), ==, 0);
      pl_data_signer_push (&s[i], (const uint8_t *) signed_data,
                           strlen (signed_data));
      len = pl_data_signer_onepass (&s[i], i + 1 == n, ops);
      g_assert_cmpint (pl_verifier_onepass (v, ops, len), ==, 0);
    }
  pl_verifier_data_begin (v);
  pl_verifier_push (v, (const uint8_t *) stored, strlen (stored));
  for (int i = n; i-- > 0;)
    {
      g_assert_cmpint (pl_data_signer_finish (&s[i], body, &len), ==, 0);
      g_assert_cmpint (pl_verifier_signature (v, body, len), ==, 0);
      pl_data_signer_clear (&s[i]);
    }
  g_free (s);
}

static void
test_nested_past_max (gconstpointer p)
{
  tu_key k;
  pl_verifier v;
  pl_verifications out;

  tu_key_make (&k, GPOINTER_TO_INT (p));
  pl_verifier_init (&v, (const pl_cert *const *) k.certs, k.n);
  run (&v, &k, PL_VERIFY_MAX + 3, 0, "data", "data");
  /* All but the 3 innermost hash; their signatures come first. */
  g_assert_cmpuint (v.n_hashes, ==, 1 + (GPOINTER_TO_INT (p) == 1
                                         ? PL_VERIFY_MAX - 1 : 0));
  pl_verifier_finish (&v, (uint32_t) time (NULL), &out);
  pl_verifier_clear (&v);
  g_assert_cmpuint (out.n, ==, PL_VERIFY_MAX);
  g_assert_cmpuint (out.skipped, ==, 3);
  for (size_t i = 0; i < out.n; i++)
    {
      g_assert_cmpint (out.v[i].verdict, ==, PL_VERDICT_GOOD);
      g_assert_true (out.v[i].cert == k.certs[0]);
    }
  tu_key_free (&k);
}

/* A text signature over LF lines verifies over the same text stored with
 * CR LF; a binary one does not. */
static void
test_text (void)
{
  tu_key k;
  pl_verifier v;
  pl_verifications out;

  tu_key_make (&k, PL_KEYGEN_DEFAULT);
  for (int text = 0; text < 2; text++)
    {
      pl_verifier_init (&v, (const pl_cert *const *) k.certs, k.n);
      run (&v, &k, 1, text, "one\ntwo\r\nthree\n", "one\r\ntwo\r\nthree\r\n");
      pl_verifier_finish (&v, (uint32_t) time (NULL), &out);
      pl_verifier_clear (&v);
      g_assert_cmpuint (out.n, ==, 1);
      g_assert_cmpint (out.v[0].verdict, ==,
                       text ? PL_VERDICT_GOOD : PL_VERDICT_BAD);
      g_assert_cmpint (out.v[0].type, ==, text);
    }
  tu_key_free (&k);
}

/* The signature by another key than its one-pass packet named: bad; a
 * one-pass packet never closed: bad; a certificate not given: unknown. */
static void
test_mismatch (void)
{
  tu_key a, b;
  pl_verifier v;
  pl_verifications out;
  pl_data_signer sa, sb;
  uint8_t ops[PL_ONEPASS_MAX], body[PL_SIG_BODY_MAX];
  size_t len;

  tu_key_make (&a, PL_KEYGEN_DEFAULT);
  tu_key_make (&b, PL_KEYGEN_DEFAULT);
  pl_verifier_init (&v, (const pl_cert *const *) a.certs, a.n);
  g_assert_cmpint (pl_data_signer_init (&sa, &a.sk, 0, time (NULL)), ==, 0);
  g_assert_cmpint (pl_data_signer_init (&sb, &b.sk, 0, time (NULL)), ==, 0);
  pl_data_signer_push (&sb, (const uint8_t *) "x", 1);
  len = pl_data_signer_onepass (&sa, 0, ops);
  g_assert_cmpint (pl_verifier_onepass (&v, ops, len), ==, 0);
  len = pl_data_signer_onepass (&sa, 1, ops);
  g_assert_cmpint (pl_verifier_onepass (&v, ops, len), ==, 0);
  pl_verifier_data_begin (&v);
  pl_verifier_push (&v, (const uint8_t *) "x", 1);
  g_assert_cmpint (pl_data_signer_finish (&sb, body, &len), ==, 0);
  g_assert_cmpint (pl_verifier_signature (&v, body, len), ==, 0);
  /* A one-pass packet after the data is a malformed message. */
  g_assert_cmpint (gpg_err_code (pl_verifier_onepass (&v, ops, len)), ==,
                   GPG_ERR_BAD_DATA);
  pl_verifier_finish (&v, time (NULL), &out);
  g_assert_cmpuint (out.n, ==, 2);
  g_assert_cmpint (out.v[0].verdict, ==, PL_VERDICT_BAD);   /* not closed */
  g_assert_cmpint (out.v[1].verdict, ==, PL_VERDICT_BAD);   /* B's */
  /* Nothing more to close. */
  g_assert_cmpint (pl_verifier_signature (&v, body, len), ==, 0);
  g_assert_cmpint (gpg_err_code (pl_verifier_signature (&v, body, len)), ==,
                   GPG_ERR_BAD_DATA);
  pl_verifier_clear (&v);

  /* B's signature alone, with only A's certificate: unknown key, named. */
  pl_verifier_init (&v, (const pl_cert *const *) a.certs, a.n);
  g_assert_cmpint (pl_verifier_signature (&v, body, len), ==, 0);
  pl_verifier_data_begin (&v);
  pl_verifier_push (&v, (const uint8_t *) "x", 1);
  pl_verifier_finish (&v, time (NULL), &out);
  pl_verifier_clear (&v);
  g_assert_cmpint (out.v[0].verdict, ==, PL_VERDICT_UNKNOWN_KEY);
  g_assert_cmpmem (out.v[0].issuer_fpr, out.v[0].issuer_fpr_len,
                   b.certs[0]->primary.key.fpr, 20);
  pl_data_signer_clear (&sa);
  pl_data_signer_clear (&sb);
  tu_key_free (&a);
  tu_key_free (&b);
}

/* pl_encrypt signs only; pl_decrypt reads it signed-only: the data when
 * the signature holds, nothing (GPG_ERR_BAD_SIGNATURE) when a data octet
 * was flipped. */
static void
test_signed_only_job (gconstpointer p)
{
  tu_key k;
  pl_encrypt_options eo;
  pl_decrypt_options d;
  pl_decrypt_result *r = g_new0 (pl_decrypt_result, 1);
  const pl_seckey *signers[1];
  const char *plain = "signed, not encrypted";
  pl_source *src;
  pl_sink *sink = pl_sink_new_memory ();
  const uint8_t *msg, *out;
  size_t msg_len, out_len;
  uint8_t *bad;

  tu_key_make (&k, GPOINTER_TO_INT (p));
  signers[0] = &k.sk;
  pl_encrypt_options_init (&eo);
  eo.sign_only = 1;
  eo.signers = signers;
  eo.n_signers = 1;
  src = pl_source_new_memory (plain, strlen (plain));
  g_assert_cmpint (pl_encrypt (src, sink, &eo, NULL), ==, 0);
  pl_source_free (src);
  msg = pl_sink_memory_data (sink, &msg_len);

  memset (&d, 0, sizeof d);
  d.signed_only = 1;
  d.verify_certs = (const pl_cert *const *) k.certs;
  d.n_verify_certs = k.n;
  {
    pl_sink *o = pl_sink_new_memory ();
    src = pl_source_new_memory (msg, msg_len);
    g_assert_cmpint (pl_decrypt (src, o, &d, r, NULL), ==, 0);
    out = pl_sink_memory_data (o, &out_len);
    g_assert_cmpmem (out, out_len, plain, strlen (plain));
    g_assert_cmpuint (r->verifications.n, ==, 1);
    g_assert_cmpint (r->verifications.v[0].verdict, ==, PL_VERDICT_GOOD);
    g_assert_cmpint (r->verifications.v[0].version, ==,
                     GPOINTER_TO_INT (p) ? 6 : 4);
    pl_source_free (src);
    pl_sink_free (o);
  }
  bad = g_memdup2 (msg, msg_len);
  bad[(guint8 *) memmem (bad, msg_len, plain, strlen (plain)) - bad + 3] ^= 1;
  {
    pl_sink *o = pl_sink_new_memory ();
    src = pl_source_new_memory (bad, msg_len);
    g_assert_cmpint (gpg_err_code (pl_decrypt (src, o, &d, r, NULL)), ==,
                     GPG_ERR_BAD_SIGNATURE);
    g_assert_cmpint (r->verifications.v[0].verdict, ==, PL_VERDICT_BAD);
    pl_source_free (src);
    pl_sink_free (o);
  }
  g_free (bad);
  pl_sink_free (sink);
  g_free (r);
  tu_key_free (&k);
}

/* What a lookup (pl_cert_lookup_fn) was asked, and holds. */
typedef struct
{
  const pl_cert *known;         /* the one certificate it finds */
  int calls;
} lookup_state;

static const pl_cert *
lookup_one (void *data, const uint8_t *fpr, size_t fpr_len,
            const uint8_t *keyid)
{
  lookup_state *l = data;

  l->calls++;
  g_assert_true (fpr_len > 0 || keyid);
  return pl_cert_find_key (l->known, fpr, fpr_len, keyid) ? l->known : NULL;
}

/* Signed by A and B: the lookup finds A's certificate and not B's, and
 * is asked only for the issuers that the given certificates lack. */
static void
test_lookup (void)
{
  tu_key a, b;
  lookup_state l = { 0 };
  const pl_cert *found[PL_VERIFY_MAX];
  pl_verifier v;
  pl_verifications out;

  tu_key_make (&a, PL_KEYGEN_DEFAULT);
  tu_key_make (&b, PL_KEYGEN_RFC9580);
  l.known = a.certs[0];
  for (int given = 0; given < 2; given++)
    {
      pl_data_signer s[2];
      uint8_t ops[PL_ONEPASS_MAX], body[PL_SIG_BODY_MAX];
      size_t len;
      tu_key *keys[2] = { &a, &b };

      l.calls = 0;
      pl_verifier_init (&v, given ? (const pl_cert *const *) b.certs : NULL,
                        given ? b.n : 0);
      for (int i = 0; i < 2; i++)
        {
          g_assert_cmpint (pl_data_signer_init (&s[i], &keys[i]->sk, 0,
                                                (uint32_t) time (NULL)), ==, 0);
          pl_data_signer_push (&s[i], (const uint8_t *) "data", 4);
          len = pl_data_signer_onepass (&s[i], i == 1, ops);
          g_assert_cmpint (pl_verifier_onepass (&v, ops, len), ==, 0);
        }
      pl_verifier_data_begin (&v);
      pl_verifier_push (&v, (const uint8_t *) "data", 4);
      for (int i = 2; i-- > 0;)
        {
          g_assert_cmpint (pl_data_signer_finish (&s[i], body, &len), ==, 0);
          g_assert_cmpint (pl_verifier_signature (&v, body, len), ==, 0);
          pl_data_signer_clear (&s[i]);
        }
      g_assert_cmpuint (pl_verifier_lookup (&v, lookup_one, &l, found), ==,
                        given ? 2 : 1);
      pl_verifier_finish (&v, (uint32_t) time (NULL), &out);
      pl_verifier_clear (&v);
      /* B's certificate given: only A's issuer is asked for. */
      g_assert_cmpint (l.calls, ==, given ? 1 : 2);
      g_assert_cmpuint (out.n, ==, 2);
      g_assert_cmpint (out.v[0].verdict, ==, PL_VERDICT_GOOD);
      g_assert_true (out.v[0].cert == a.certs[0]);
      g_assert_cmpint (out.v[1].verdict, ==,
                       given ? PL_VERDICT_GOOD : PL_VERDICT_UNKNOWN_KEY);
    }
  tu_key_free (&a);
  tu_key_free (&b);
}

/* A held signer (seckey.h's pl_sign_fn) for a test key: libgcrypt signs
 * here what an agent would; FAIL makes it refuse, FLIP alters its R. */
typedef struct
{
  const pl_seckey *real;
  gpg_error_t fail;
  int flip;
  int calls;
} held_state;

static gpg_error_t
held_sign (void *data, const pl_pubkey *pub, int gcry_md_algo,
           const uint8_t *digest, size_t digest_len, gcry_sexp_t *sig)
{
  held_state *h = data;
  const pl_field *d = &h->real->field[0];
  uint8_t seed[32] = { 0 };
  gcry_sexp_t key = NULL, in = NULL;
  gcry_sexp_t r = NULL, s = NULL;
  const void *rp, *sp;
  size_t rn, sn;
  uint8_t rv[32];

  h->calls++;
  g_assert_cmpint (gcry_md_algo, ==, GCRY_MD_SHA256);
  if (h->fail)
    return h->fail;
  /* As sign.c does for its own Ed25519 keys. */
  memcpy (seed + 32 - d->len, h->real->mem + d->off, d->len);
  g_assert_cmpint (gcry_sexp_build (&key, NULL, "(private-key (ecc (curve Ed25519)"
                                    " (flags eddsa) (q %b) (d %b)))",
                                    (int) pub->field[0].len,
                                    pl_pubkey_field (pub, 0), 32, seed), ==, 0);
  g_assert_cmpint (gcry_sexp_build (&in, NULL, "(data (flags eddsa) (hash-algo "
                                    "sha512) (value %b))", (int) digest_len,
                                    digest), ==, 0);
  g_assert_cmpint (gcry_pk_sign (sig, in, key), ==, 0);
  if (h->flip)
    {
      r = gcry_sexp_find_token (*sig, "r", 0);
      s = gcry_sexp_find_token (*sig, "s", 0);
      rp = gcry_sexp_nth_data (r, 1, &rn);
      sp = gcry_sexp_nth_data (s, 1, &sn);
      g_assert_cmpuint (rn, <=, 32);
      memcpy (rv, rp, rn);
      rv[0] ^= 1;
      gcry_sexp_release (*sig);
      g_assert_cmpint (gcry_sexp_build (sig, NULL, "(sig-val (eddsa (r %b) (s %b)))",
                                        (int) rn, rv, (int) sn, sp), ==, 0);
    }
  gcry_sexp_release (r);
  gcry_sexp_release (s);
  gcry_sexp_release (key);
  gcry_sexp_release (in);
  return 0;
}

/* A signed-only message made by a held signer: verified GOOD against the
 * key's certificate; an altered answer BAD; a refusal ends the job with
 * that error and nothing written. */
static void
test_held_signer (void)
{
  tu_key k;
  const char *plain = "signed elsewhere";

  tu_key_make (&k, PL_KEYGEN_DEFAULT);
  for (int round = 0; round < 3; round++)
    {
      held_state h = { &k.sk, round == 2 ? gpg_error (GPG_ERR_CANCELED) : 0,
                       round == 1, 0 };
      pl_seckey held = { 0 };
      const pl_seckey *signers[1] = { &held };
      pl_encrypt_options eo;
      pl_decrypt_options d = { 0 };
      pl_decrypt_result *r = g_new0 (pl_decrypt_result, 1);
      pl_sink *sink = pl_sink_new_memory ();
      pl_sink *o = pl_sink_new_memory ();
      pl_source *src = pl_source_new_memory (plain, strlen (plain));
      const uint8_t *msg;
      size_t msg_len;
      gpg_error_t err;

      held.pub = &k.certs[0]->primary.key;
      held.sign = held_sign;
      held.sign_data = &h;
      pl_encrypt_options_init (&eo);
      eo.sign_only = 1;
      eo.signers = signers;
      eo.n_signers = 1;
      err = pl_encrypt (src, sink, &eo, NULL);
      pl_source_free (src);
      g_assert_cmpint (h.calls, ==, 1);
      if (round == 2)
        {
          g_assert_cmpint (gpg_err_code (err), ==, GPG_ERR_CANCELED);
          msg = pl_sink_memory_data (sink, &msg_len);
          g_assert_cmpuint (msg_len, ==, 0);
        }
      else
        {
          g_assert_cmpint (err, ==, 0);
          msg = pl_sink_memory_data (sink, &msg_len);
          d.signed_only = 1;
          d.verify_certs = (const pl_cert *const *) k.certs;
          d.n_verify_certs = k.n;
          src = pl_source_new_memory (msg, msg_len);
          err = pl_decrypt (src, o, &d, r, NULL);
          pl_source_free (src);
          g_assert_cmpuint (r->verifications.n, ==, 1);
          g_assert_cmpint (r->verifications.v[0].verdict, ==,
                           round ? PL_VERDICT_BAD : PL_VERDICT_GOOD);
          g_assert_cmpint (gpg_err_code (err), ==,
                           round ? GPG_ERR_BAD_SIGNATURE : GPG_ERR_NO_ERROR);
        }
      pl_sink_free (o);
      pl_sink_free (sink);
      g_free (r);
    }
  tu_key_free (&k);
}

/* pl_decrypt with find_cert and no certificate given: the job verifies,
 * and asks the lookup for the signer. */
static void
test_decrypt_find_cert (void)
{
  tu_key k;
  lookup_state l = { 0 };
  const pl_seckey *signers[1];
  pl_encrypt_options eo;
  pl_decrypt_options d = { 0 };
  pl_decrypt_result *r = g_new0 (pl_decrypt_result, 1);
  pl_sink *sink = pl_sink_new_memory ();
  pl_sink *o = pl_sink_new_memory ();
  pl_source *src = pl_source_new_memory ("x", 1);
  const uint8_t *msg;
  size_t msg_len;

  tu_key_make (&k, PL_KEYGEN_RFC9580);
  signers[0] = &k.sk;
  l.known = k.certs[0];
  pl_encrypt_options_init (&eo);
  eo.sign_only = 1;
  eo.signers = signers;
  eo.n_signers = 1;
  g_assert_cmpint (pl_encrypt (src, sink, &eo, NULL), ==, 0);
  pl_source_free (src);
  msg = pl_sink_memory_data (sink, &msg_len);
  d.signed_only = 1;
  d.find_cert = lookup_one;
  d.find_cert_data = &l;
  src = pl_source_new_memory (msg, msg_len);
  g_assert_cmpint (pl_decrypt (src, o, &d, r, NULL), ==, 0);
  pl_source_free (src);
  g_assert_cmpint (l.calls, ==, 1);
  g_assert_cmpint (r->verifications.v[0].verdict, ==, PL_VERDICT_GOOD);
  g_assert_true (r->verifications.v[0].cert == k.certs[0]);
  pl_sink_free (o);
  pl_sink_free (sink);
  g_free (r);
  tu_key_free (&k);
}

/* Issue 32 §5: a signature by an RSA key with e = 1 (its "signature" is
 * the encoded message itself, s = EM: anyone forges it) was good, and so
 * was one by an RSA-1024 key (RFC 9580 §12.4: MUST NOT verify).  Both
 * are not valid now, with the reason; an RSA-2048 key's stays good. */
static void
test_unsafe_signer (void)
{
  static const struct { unsigned int bits; int how; const char *why; }
  keys[] = {
    { 2048, KB_RSA_GOOD, NULL },
    { 2048, KB_RSA_E1, "its RSA exponent e = 1 is unsafe" },
    { 1024, KB_RSA_GOOD, "RSA-1024 is too weak" },
  };
  uint32_t t = (uint32_t) time (NULL) - 60;

  for (gsize i = 0; i < G_N_ELEMENTS (keys); i++)
    {
      kb_key kb;
      GBytes *bytes;
      tu_key k;
      pl_verifier v;
      pl_verifications out;

      kb_rsa (&kb, keys[i].bits, keys[i].how, t);
      bytes = kb_cert (&kb, 0x03, NULL, 0, 0, t);
      g_assert_cmpint (pl_certs_read (g_bytes_get_data (bytes, NULL),
                                      g_bytes_get_size (bytes), &k.certs,
                                      &k.n), ==, 0);
      k.sk = kb.sk;
      pl_verifier_init (&v, (const pl_cert *const *) k.certs, k.n);
      run (&v, &k, 1, 0, "data", "data");
      pl_verifier_finish (&v, (uint32_t) time (NULL), &out);
      pl_verifier_clear (&v);
      g_assert_cmpuint (out.n, ==, 1);
      g_test_message ("%u bits, e spoiled %d: verdict %d, %s", keys[i].bits,
                      keys[i].how, out.v[0].verdict, out.v[0].reason);
      g_assert_cmpint (out.v[0].verdict, ==, keys[i].why
                       ? PL_VERDICT_NOT_VALID : PL_VERDICT_GOOD);
      if (keys[i].why)
        g_assert_cmpstr (out.v[0].reason, ==, keys[i].why);
      pl_certs_free (k.certs, k.n);
      g_bytes_unref (bytes);
      kb_clear (&kb);
    }
}

/* Issue 32 §5: gpg 2.2's detached SHA-256 signature by its dsa1024 key
 * (tests/data) was good; a DSA key below 2048 bits is too weak as RSA's
 * is (pubkey.h, PL_PUBKEY_BITS_MIN), so it is not valid, saying why. */
static void
test_weak_dsa_signer (void)
{
  static const char data[] = "signed by an old key\n";
  GBytes *key = tu_data_bytes ("dsa1024-elg1024-sec.asc");
  GBytes *sig = tu_data_bytes ("dsa1024-signed.sig");
  const uint8_t *s = g_bytes_get_data (sig, NULL);
  pl_cert **certs;
  size_t n;
  pl_verifier v;
  pl_verifications out;

  g_assert_cmpuint (pl_certs_read (g_bytes_get_data (key, NULL),
                                   g_bytes_get_size (key), &certs, &n), ==, 0);
  /* An old-format signature packet with a one-octet length. */
  g_assert_cmpint (s[0], ==, 0x88);
  g_assert_cmpuint (s[1] + 2u, ==, g_bytes_get_size (sig));
  pl_verifier_init (&v, (const pl_cert *const *) certs, n);
  g_assert_cmpint (pl_verifier_signature (&v, s + 2, s[1]), ==, 0);
  pl_verifier_data_begin (&v);
  pl_verifier_push (&v, (const uint8_t *) data, sizeof data - 1);
  pl_verifier_finish (&v, (uint32_t) time (NULL), &out);
  pl_verifier_clear (&v);
  g_assert_cmpuint (out.n, ==, 1);
  g_test_message ("verdict %d, %s", out.v[0].verdict, out.v[0].reason);
  g_assert_cmpint (out.v[0].verdict, ==, PL_VERDICT_NOT_VALID);
  g_assert_cmpstr (out.v[0].reason, ==, "DSA-1024 is too weak");
  pl_certs_free (certs, n);
  g_bytes_unref (sig);
  g_bytes_unref (key);
}

/* A binary signature by K made at CREATED over SIGNED, with the
 * HASHED_LEN octets of subpackets at HASHED in its hashed area, judged
 * at NOW (the signature before the data, which is STORED) into *OUT;
 * BODY (PL_SIG_BODY_MAX) and *LEN receive the signature. */
static void
judge_crafted (tu_key *k, uint32_t created, const uint8_t *hashed,
               size_t hashed_len, const char *signed_data,
               const char *stored, uint32_t now, pl_verification *out)
{
  pl_sig_builder b;
  pl_verifier v;
  pl_verifications all;
  uint8_t body[PL_SIG_BODY_MAX];
  size_t len;

  g_assert_cmpint (pl_sig_begin (&b, &k->sk, PL_SIG_BINARY, created, hashed,
                                 hashed_len), ==, 0);
  gcry_md_write (b.md, signed_data, strlen (signed_data));
  g_assert_cmpint (pl_sig_end (&b, body, &len), ==, 0);
  pl_sig_builder_clear (&b);
  pl_verifier_init (&v, (const pl_cert *const *) k->certs, k->n);
  g_assert_cmpint (pl_verifier_signature (&v, body, len), ==, 0);
  pl_verifier_data_begin (&v);
  pl_verifier_push (&v, (const uint8_t *) stored, strlen (stored));
  pl_verifier_finish (&v, now, &all);
  pl_verifier_clear (&v);
  g_assert_cmpuint (all.n, ==, 1);
  *out = all.v[0];
}

/* A notation subpacket (RFC 9580 §5.2.3.24), human-readable, NAME_LEN
 * octets of NAME and the value "v", at OUT + *POS; CRITICAL sets the
 * critical bit. */
static void
put_notation (uint8_t *out, size_t *pos, int critical, const char *name,
              size_t name_len)
{
  uint8_t n[190] = { 0x80, 0, 0, 0 };

  g_assert_cmpuint (8 + name_len + 1, <=, sizeof n);
  n[4] = (uint8_t) (name_len >> 8);
  n[5] = (uint8_t) name_len;
  n[6] = 0;
  n[7] = 1;
  memcpy (n + 8, name, name_len);
  n[8 + name_len] = 'v';
  pl_subpacket_put (out, pos, 20 | (critical ? 0x80 : 0), n, 8 + name_len + 1);
}

/* A critical notation makes the signature not valid, naming it; the
 * same notation not critical changes nothing; an unknown critical
 * subpacket of another type is not valid too, with its type; the data
 * altered is bad whatever the subpackets.  A hostile name reaches the
 * reason as printable ASCII, at most PL_SIG_NAME_SHOWN octets of it. */
static void
test_critical_notation (gconstpointer p)
{
  static const char evil[] = "a\033[2K\rb\nc\xe2\x80\xae" "d@example.org";
  uint32_t now = (uint32_t) time (NULL);
  uint8_t hashed[200], unknown[] = { 1, 2 };
  char long_name[150];
  size_t pos;
  pl_verification out;
  tu_key k;

  tu_key_make (&k, GPOINTER_TO_INT (p));
  pos = 0;
  put_notation (hashed, &pos, 0, "name@example.org", 16);
  judge_crafted (&k, now, hashed, pos, "data", "data", now, &out);
  g_assert_cmpint (out.verdict, ==, PL_VERDICT_GOOD);

  pos = 0;
  put_notation (hashed, &pos, 1, "name@example.org", 16);
  judge_crafted (&k, now, hashed, pos, "data", "data", now, &out);
  g_assert_cmpint (out.verdict, ==, PL_VERDICT_NOT_VALID);
  g_assert_cmpint (gpg_err_code (out.why), ==, GPG_ERR_UNKNOWN_CRIT_EXTN);
  g_assert_cmpstr (out.reason, ==, "unknown critical notation name@example.org");
  g_assert_cmpstr (out.critical, ==, "name@example.org");
  g_assert_true (out.cert == k.certs[0]);
  judge_crafted (&k, now, hashed, pos, "data", "dat4", now, &out);
  g_assert_cmpint (out.verdict, ==, PL_VERDICT_BAD);

  pos = 0;
  put_notation (hashed, &pos, 1, evil, sizeof evil - 1);
  judge_crafted (&k, now, hashed, pos, "data", "data", now, &out);
  g_assert_cmpint (out.verdict, ==, PL_VERDICT_NOT_VALID);
  g_assert_cmpstr (out.critical, ==, "a?[2K?b?c???d@example.org");
  g_assert_cmpstr (out.reason, ==,
                   "unknown critical notation a?[2K?b?c???d@example.org");

  memset (long_name, 'x', sizeof long_name);
  pos = 0;
  put_notation (hashed, &pos, 1, long_name, sizeof long_name);
  judge_crafted (&k, now, hashed, pos, "data", "data", now, &out);
  g_assert_cmpint (out.verdict, ==, PL_VERDICT_NOT_VALID);
  g_assert_cmpuint (strlen (out.critical), ==, PL_SIG_NAME_SHOWN + 3);
  g_assert_true (g_str_has_suffix (out.critical, "x..."));
  g_assert_cmpuint (strlen (out.reason), <, sizeof out.reason);

  /* Another type, unknown and critical (100): not valid, not bad. */
  pos = 0;
  pl_subpacket_put (hashed, &pos, 100 | 0x80, unknown, sizeof unknown);
  judge_crafted (&k, now, hashed, pos, "data", "data", now, &out);
  g_assert_cmpint (out.verdict, ==, PL_VERDICT_NOT_VALID);
  g_assert_cmpstr (out.reason, ==, "unknown critical subpacket 100");
  g_assert_cmpstr (out.critical, ==, "");
  /* Not critical: ignored. */
  pos = 0;
  pl_subpacket_put (hashed, &pos, 100, unknown, sizeof unknown);
  judge_crafted (&k, now, hashed, pos, "data", "data", now, &out);
  g_assert_cmpint (out.verdict, ==, PL_VERDICT_GOOD);
  tu_key_free (&k);
}

/* A signature made two minutes ahead of the verifier's clock is good;
 * one made past PL_SIG_CLOCK_SKEW ahead is not valid, saying when it
 * claims it was made; altered, either is bad. */
static void
test_future (gconstpointer p)
{
  uint32_t now = (uint32_t) time (NULL);
  uint32_t far = now + PL_SIG_CLOCK_SKEW + 60;
  char want[64], date[32];
  time_t t = (time_t) far;
  struct tm tm;
  pl_verification out;
  tu_key k;

  tu_key_make (&k, GPOINTER_TO_INT (p));
  judge_crafted (&k, now + 120, NULL, 0, "data", "data", now, &out);
  g_assert_cmpint (out.verdict, ==, PL_VERDICT_GOOD);
  g_assert_cmpuint (out.created, ==, now + 120);
  judge_crafted (&k, now + PL_SIG_CLOCK_SKEW, NULL, 0, "data", "data", now,
                 &out);
  g_assert_cmpint (out.verdict, ==, PL_VERDICT_GOOD);
  judge_crafted (&k, now + 120, NULL, 0, "data", "dat4", now, &out);
  g_assert_cmpint (out.verdict, ==, PL_VERDICT_BAD);

  judge_crafted (&k, far, NULL, 0, "data", "data", now, &out);
  g_assert_cmpint (out.verdict, ==, PL_VERDICT_NOT_VALID);
  g_assert_cmpint (gpg_err_code (out.why), ==, GPG_ERR_TIME_CONFLICT);
  gmtime_r (&t, &tm);
  strftime (date, sizeof date, "%Y-%m-%d %H:%M:%S UTC", &tm);
  g_snprintf (want, sizeof want, "made in the future (%s)", date);
  g_assert_cmpstr (out.reason, ==, want);
  judge_crafted (&k, far, NULL, 0, "data", "dat4", now, &out);
  g_assert_cmpint (out.verdict, ==, PL_VERDICT_BAD);
  tu_key_free (&k);
}

/* A key made on a clock two minutes fast: its self-signatures and
 * binding are from the future too, and count (the same skew); past the
 * skew they do not. */
static void
test_future_key (gconstpointer p)
{
  const char *uid[] = { "F <f@example.org>" };
  uint32_t now = (uint32_t) time (NULL);
  uint32_t ahead[] = { now + 120, now + PL_SIG_CLOCK_SKEW + 60 };

  for (int i = 0; i < 2; i++)
    {
      pl_cert_status status;
      const pl_cert_key *enc;
      char why[128];
      uint8_t *bin;
      size_t len;
      tu_key k;

      g_assert_cmpint (pl_keygen ((pl_keygen_profile) GPOINTER_TO_INT (p), uid,
                                  1, NULL, 0, ahead[i], &bin, &len), ==, 0);
      g_assert_cmpint (pl_certs_read (bin, len, &k.certs, &k.n), ==, 0);
      gcry_free (bin);
      g_assert_cmpint (pl_seckey_unlock (&k.certs[0]->primary, 5, NULL, 0, 0,
                                         NULL, &k.sk), ==, 0);
      g_assert_cmpint (pl_cert_check_primary (k.certs[0], now, &status, why,
                                              sizeof why) == 0, ==, i == 0);
      g_assert_cmpint (pl_cert_encryption_key (k.certs[0], now, &enc, why,
                                               sizeof why) == 0, ==, i == 0);
      if (i == 0)
        {
          pl_verification out;

          judge_crafted (&k, ahead[i], NULL, 0, "data", "data", now, &out);
          g_assert_cmpint (out.verdict, ==, PL_VERDICT_GOOD);
        }
      tu_key_free (&k);
    }
}

/* The detached signature by K over DATA (N octets): one signature
 * packet, framed. */
static GBytes *
detached_signature (tu_key *k, const uint8_t *data, size_t n)
{
  pl_data_signer s;
  uint8_t body[PL_SIG_BODY_MAX];
  GByteArray *out = g_byte_array_new ();
  uint8_t head[3] = { 0xC2 };
  size_t len;

  g_assert_cmpint (pl_data_signer_init (&s, &k->sk, 0, (uint32_t) time (NULL)),
                   ==, 0);
  pl_data_signer_push (&s, data, n);
  g_assert_cmpint (pl_data_signer_finish (&s, body, &len), ==, 0);
  pl_data_signer_clear (&s);
  /* A new-format length: one octet, else two (RFC 9580 §4.2.1.2). */
  g_assert_cmpuint (len, <, 8384);
  if (len < 192)
    head[1] = (uint8_t) len;
  else
    {
      head[1] = (uint8_t) (((len - 192) >> 8) + 192);
      head[2] = (uint8_t) ((len - 192) & 0xff);
    }
  g_byte_array_append (out, head, len < 192 ? 2 : 3);
  g_byte_array_append (out, body, (guint) len);
  return g_byte_array_free_to_bytes (out);
}

typedef struct
{
  uint64_t done;
  int64_t total;
  int calls;
  atomic_int cancel;
  int cancel_at;                /* set the cancel flag at this call */
} progress_state;

static void
on_progress (void *data, uint64_t done, int64_t total)
{
  progress_state *p = data;

  g_assert_cmpuint (done, >=, p->done);
  p->done = done;
  p->total = total;
  if (++p->calls == p->cancel_at)
    atomic_store (&p->cancel, 1);
}

/* pl_detached_run over SRC (a copy of DATA, LEN octets, as FROM says: 0
 * memory, 1 a file) with THREADS, cancelled at progress call CANCEL_AT
 * (0: never); its error, the verdict in *VERDICT. */
static gpg_error_t
detached_run (tu_key *k, GBytes *sig, const uint8_t *data, size_t len,
              int from, int threads, int cancel_at, progress_state *p,
              pl_verdict *verdict)
{
  g_autofree char *dir = NULL;
  g_autofree char *path = NULL;
  pl_source *src = NULL;
  pl_verifications out;
  pl_job_control ctl = { on_progress, p, &p->cancel, threads, NULL };
  gpg_error_t err;

  memset (p, 0, sizeof *p);
  p->cancel_at = cancel_at;
  if (from)
    {
      dir = tu_new_dir ("detached");
      path = g_build_filename (dir, "data", NULL);
      g_assert_true (g_file_set_contents (path, (const char *) data,
                                          (gssize) len, NULL));
      g_assert_cmpint (pl_source_new_file (path, &src), ==, 0);
    }
  else
    src = pl_source_new_memory (data, len);
  err = pl_detached_run (g_bytes_get_data (sig, NULL), g_bytes_get_size (sig),
                         src, (const pl_cert *const *) k->certs, k->n, NULL,
                         NULL, (uint32_t) time (NULL), &out, &ctl);
  pl_source_free (src);
  *verdict = out.n == 1 ? out.v[0].verdict : 0;
  return err;
}

/* A detached signature (v4, or v6 with its salt: P the keygen profile)
 * over 3 MiB and some, from memory and from a file, on one core and
 * two: good, with progress to the end; one octet changed, bad; the
 * cancel flag set after the first block, cancelled. */
static void
test_detached_stage (gconstpointer profile)
{
  size_t len = 3 * 1024 * 1024 + 12345;
  g_autofree uint8_t *data = g_malloc (len);
  g_autoptr(GBytes) sig = NULL;
  progress_state p;
  pl_verdict verdict;
  tu_key k;

  tu_key_make (&k, GPOINTER_TO_INT (profile));
  gcry_create_nonce (data, len);
  sig = detached_signature (&k, data, len);
  for (int from = 0; from < 2; from++)
    for (int threads = 1; threads <= 2; threads++)
      {
        g_test_message ("from %s, %d thread(s)", from ? "a file" : "memory",
                        threads);
        g_assert_cmpint (detached_run (&k, sig, data, len, from, threads, 0,
                                       &p, &verdict), ==, 0);
        g_assert_cmpint (verdict, ==, PL_VERDICT_GOOD);
        g_assert_cmpuint (p.done, ==, len);
        g_assert_cmpint (p.total, ==, (int64_t) len);
        g_assert_cmpint (p.calls, >=, 4);
        data[len - 7] ^= 1;
        g_assert_cmpint (detached_run (&k, sig, data, len, from, threads, 0,
                                       &p, &verdict), ==, 0);
        g_assert_cmpint (verdict, ==, PL_VERDICT_BAD);
        data[len - 7] ^= 1;
        g_assert_cmpint (gpg_err_code (detached_run (&k, sig, data, len, from,
                                                     threads, 1, &p,
                                                     &verdict)),
                         ==, GPG_ERR_CANCELED);
        g_assert_cmpuint (p.done, <, len);
      }
  /* No signature packet in it: not a detached signature. */
  {
    g_autoptr(GBytes) none = g_bytes_new_static ("\xCB\x02" "b\0", 4);
    pl_source *src = pl_source_new_memory (data, 10);
    pl_verifications out;

    g_assert_cmpint (pl_detached_run (g_bytes_get_data (none, NULL), 4, src,
                                      NULL, 0, NULL, NULL, 0, &out, NULL),
                     !=, 0);
    pl_source_free (src);
  }
  tu_key_free (&k);
}

int
main (int argc, char **argv)
{
  tu_init (&argc, &argv);
  g_test_add_data_func ("/verify/nested-past-max/v4",
                        GINT_TO_POINTER (PL_KEYGEN_DEFAULT),
                        test_nested_past_max);
  g_test_add_data_func ("/verify/nested-past-max/v6",
                        GINT_TO_POINTER (PL_KEYGEN_RFC9580),
                        test_nested_past_max);
  g_test_add_func ("/verify/text", test_text);
  g_test_add_data_func ("/verify/detached-stage/v4",
                        GINT_TO_POINTER (PL_KEYGEN_DEFAULT),
                        test_detached_stage);
  g_test_add_data_func ("/verify/detached-stage/v6",
                        GINT_TO_POINTER (PL_KEYGEN_RFC9580),
                        test_detached_stage);
  g_test_add_func ("/verify/unsafe-signer", test_unsafe_signer);
  g_test_add_func ("/verify/unsafe-signer/dsa1024", test_weak_dsa_signer);
  g_test_add_func ("/verify/mismatch", test_mismatch);
  g_test_add_func ("/verify/lookup", test_lookup);
  g_test_add_func ("/verify/held-signer", test_held_signer);
  g_test_add_func ("/verify/decrypt-find-cert", test_decrypt_find_cert);
  g_test_add_data_func ("/verify/signed-only/v4",
                        GINT_TO_POINTER (PL_KEYGEN_DEFAULT),
                        test_signed_only_job);
  g_test_add_data_func ("/verify/signed-only/v6",
                        GINT_TO_POINTER (PL_KEYGEN_RFC9580),
                        test_signed_only_job);
  g_test_add_data_func ("/verify/critical-notation/v4",
                        GINT_TO_POINTER (PL_KEYGEN_DEFAULT),
                        test_critical_notation);
  g_test_add_data_func ("/verify/critical-notation/v6",
                        GINT_TO_POINTER (PL_KEYGEN_RFC9580),
                        test_critical_notation);
  g_test_add_data_func ("/verify/future/v4",
                        GINT_TO_POINTER (PL_KEYGEN_DEFAULT), test_future);
  g_test_add_data_func ("/verify/future/v6",
                        GINT_TO_POINTER (PL_KEYGEN_RFC9580), test_future);
  g_test_add_data_func ("/verify/future-key/v4",
                        GINT_TO_POINTER (PL_KEYGEN_DEFAULT), test_future_key);
  g_test_add_data_func ("/verify/future-key/v6",
                        GINT_TO_POINTER (PL_KEYGEN_RFC9580), test_future_key);
  return g_test_run ();
}
