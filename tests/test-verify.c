/* test-verify.c - the signature verifier (verify.h) on messages built
 * here with sign.h: nested one-pass signatures past PL_VERIFY_MAX matched
 * innermost first, text signatures over LF and CR LF, a signature that
 * contradicts its one-pass packet, one never closed, a signature with
 * nothing to close, and signed-only messages through pl_decrypt (a bad
 * one writes nothing) */
#include "testutil.h"
#include "cert.h"
#include "keygen.h"
#include "packet.h"
#include "seckey.h"
#include "sign.h"
#include "verify.h"

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
  g_test_add_func ("/verify/mismatch", test_mismatch);
  g_test_add_data_func ("/verify/signed-only/v4",
                        GINT_TO_POINTER (PL_KEYGEN_DEFAULT),
                        test_signed_only_job);
  g_test_add_data_func ("/verify/signed-only/v6",
                        GINT_TO_POINTER (PL_KEYGEN_RFC9580),
                        test_signed_only_job);
  return g_test_run ();
}
