/* test-cert.c - certificates from the real gpg: parsing, fingerprints,
 * binding signatures, the choice of the encryption subkey, and the
 * hostile ones (an appended subkey, expired, revoked) */
#include "testutil.h"
#include "gpg-keys.h"
#include "cert.h"
#include "pubkey.h"
#include "errors.h"
#include "key-builder.h"
#include "packet-builder.h"

#include <gcrypt.h>

#include <string.h>
#include <time.h>
#include <glib/gstdio.h>

/* tk_keys: the six kinds gpg makes (gpg-keys.h), in this process's
 * GnuPG home. */

static char *
hex_fpr (const pl_pubkey *k)
{
  char buf[2 * PL_FPR_MAX + 3];
  pl_fpr_format (k->fpr, k->fpr_len, buf);
  return g_strdup (buf + 2);
}

static uint32_t
now (void)
{
  return (uint32_t) time (NULL);
}

/* The subkey we choose for gpg's key is the one gpg made for encryption,
 * from binary and armored exports. */
static void
test_chooses_gpg_subkey (gconstpointer p)
{
  tk_gpg_key *key = &tk_keys[GPOINTER_TO_INT (p)];

  if (!tu_have_peer ("gpg"))
    return;
  tk_ensure_key (key);
  for (int armor = 0; armor < 2; armor++)
    {
      GBytes *cert = tk_gpg_export (key->fpr, armor);
      pl_cert **certs;
      size_t n;
      const pl_cert_key *enc;
      char why[128] = "";
      g_autofree char *fpr = NULL, *sub = NULL;

      g_assert_cmpuint (pl_certs_read (g_bytes_get_data (cert, NULL),
                                       g_bytes_get_size (cert), &certs, &n),
                        ==, 0);
      g_assert_cmpuint (n, ==, 1);
      fpr = hex_fpr (&certs[0]->primary.key);
      g_assert_cmpstr (fpr, ==, key->fpr);
      g_assert_cmpuint (pl_cert_encryption_key (certs[0], now (), &enc, why,
                                                sizeof why), ==, 0);
      sub = hex_fpr (&enc->key);
      g_assert_cmpstr (sub, ==, key->sub_fpr);
      pl_certs_free (certs, n);
      g_bytes_unref (cert);
    }
}

/* A keyring of every key above, in one armor block. */
static void
test_keyring (void)
{
  GPtrArray *args = g_ptr_array_new ();
  GBytes *out = NULL;
  pl_cert **certs;
  size_t n;

  if (!tu_have_peer ("gpg"))
    return;
  g_ptr_array_add (args, "--armor");
  g_ptr_array_add (args, "--export");
  for (gsize i = 0; i < TK_N_KEYS; i++)
    g_ptr_array_add (args, tk_ensure_key (&tk_keys[i])->fpr);
  g_ptr_array_add (args, NULL);
  g_assert_cmpint (tu_run_gpg (NULL, (const char *const *) args->pdata, NULL,
                               &out, NULL), ==, 0);
  g_assert_cmpuint (pl_certs_read (g_bytes_get_data (out, NULL),
                                   g_bytes_get_size (out), &certs, &n), ==, 0);
  g_assert_cmpuint (n, ==, TK_N_KEYS);
  for (size_t i = 0; i < n; i++)
    {
      g_autofree char *fpr = hex_fpr (&certs[i]->primary.key);
      g_assert_cmpstr (fpr, ==, tk_keys[i].fpr);
    }
  pl_certs_free (certs, n);
  g_bytes_unref (out);
  g_ptr_array_free (args, TRUE);

  /* Two armor blocks one after the other, text around them. */
  {
    GBytes *a = tk_gpg_export (tk_keys[1].fpr, 1), *b = tk_gpg_export (tk_keys[2].fpr, 1);
    GByteArray *both = g_byte_array_new ();
    g_byte_array_append (both, (const guint8 *) "Alice's key:\n", 13);
    g_byte_array_append (both, g_bytes_get_data (a, NULL), (guint) g_bytes_get_size (a));
    g_byte_array_append (both, (const guint8 *) "\nand Bob's:\n", 12);
    g_byte_array_append (both, g_bytes_get_data (b, NULL), (guint) g_bytes_get_size (b));
    g_assert_cmpuint (pl_certs_read (both->data, both->len, &certs, &n), ==, 0);
    g_assert_cmpuint (n, ==, 2);
    pl_certs_free (certs, n);
    g_byte_array_unref (both);
    g_bytes_unref (a);
    g_bytes_unref (b);
  }
}

/* ---- Hostile certificates ------------------------------------------ */

/* The packets of BYTES (a GArray of tu_packet). */
static GArray *
split_packets (GBytes *bytes)
{
  return tu_split_packets (g_bytes_get_data (bytes, NULL),
                           g_bytes_get_size (bytes));
}

/* The packets of CERT before its first subkey, and then those of OTHER
 * from its first subkey on (that subkey and its binding by OTHER's
 * primary), with or without CERT's own subkeys in between. */
static GBytes *
graft_subkey (GBytes *cert, GBytes *other, gboolean keep_own)
{
  GArray *a = split_packets (cert), *b = split_packets (other);
  GByteArray *out = g_byte_array_new ();
  gboolean in_sub = FALSE;

  for (guint i = 0; i < a->len; i++)
    {
      tu_packet *s = &g_array_index (a, tu_packet, i);
      in_sub = in_sub || s->tag == 14;
      if (!in_sub || keep_own)
        g_byte_array_append (out, (const guint8 *) g_bytes_get_data (cert, NULL)
                                  + s->start, (guint) (s->end - s->start));
    }
  in_sub = FALSE;
  for (guint i = 0; i < b->len; i++)
    {
      tu_packet *s = &g_array_index (b, tu_packet, i);
      in_sub = in_sub || s->tag == 14;
      if (in_sub)
        g_byte_array_append (out, (const guint8 *) g_bytes_get_data (other, NULL)
                                  + s->start, (guint) (s->end - s->start));
    }
  g_array_unref (a);
  g_array_unref (b);
  return g_byte_array_free_to_bytes (out);
}

static gpg_error_t
choose (GBytes *cert, char **fpr, char *why, size_t why_len)
{
  pl_cert **certs;
  size_t n;
  const pl_cert_key *enc = NULL;
  gpg_error_t err;

  g_assert_cmpuint (pl_certs_read (g_bytes_get_data (cert, NULL),
                                   g_bytes_get_size (cert), &certs, &n), ==, 0);
  g_assert_cmpuint (n, ==, 1);
  err = pl_cert_encryption_key (certs[0], now (), &enc, why, why_len);
  *fpr = enc ? hex_fpr (&enc->key) : NULL;
  pl_certs_free (certs, n);
  return err;
}

/* Another key's subkey appended to a certificate, with that key's valid
 * binding: never chosen, whether or not the certificate has its own. */
static void
test_appended_subkey (void)
{
  GBytes *a, *b, *grafted;
  char why[128] = "";
  char *fpr = NULL;

  if (!tu_have_peer ("gpg"))
    return;
  a = tk_gpg_export (tk_ensure_key (&tk_keys[1])->fpr, 0);
  b = tk_gpg_export (tk_ensure_key (&tk_keys[2])->fpr, 0);
  /* B's subkey is newer than A's, so it would win if it counted. */
  grafted = graft_subkey (a, b, TRUE);
  g_assert_cmpuint (choose (grafted, &fpr, why, sizeof why), ==, 0);
  g_assert_cmpstr (fpr, ==, tk_keys[1].sub_fpr);
  g_free (fpr);
  g_bytes_unref (grafted);

  grafted = graft_subkey (a, b, FALSE);
  g_assert_cmpuint (gpg_err_code (choose (grafted, &fpr, why, sizeof why)), ==,
                    GPG_ERR_UNUSABLE_PUBKEY);
  g_assert_null (fpr);
  g_assert_cmpstr (why, ==,
                   "no valid encryption subkey: no valid binding signature");
  g_bytes_unref (grafted);
  g_bytes_unref (a);
  g_bytes_unref (b);
}

/* A binding signature with one octet of its signature flipped. */
static void
test_bad_binding (void)
{
  GBytes *a;
  GArray *spans;
  GByteArray *bad;
  char why[128] = "";
  char *fpr = NULL;
  guint last_sig = 0;

  if (!tu_have_peer ("gpg"))
    return;
  a = tk_gpg_export (tk_ensure_key (&tk_keys[1])->fpr, 0);
  spans = split_packets (a);
  for (guint i = 0; i < spans->len; i++)
    if (g_array_index (spans, tu_packet, i).tag == 2)
      last_sig = i;
  bad = g_byte_array_new ();
  g_byte_array_append (bad, g_bytes_get_data (a, NULL), (guint) g_bytes_get_size (a));
  bad->data[g_array_index (spans, tu_packet, last_sig).end - 5] ^= 0x01;
  {
    GBytes *b = g_byte_array_free_to_bytes (bad);
    g_assert_cmpuint (gpg_err_code (choose (b, &fpr, why, sizeof why)), ==,
                      GPG_ERR_UNUSABLE_PUBKEY);
    g_assert_cmpstr (why, ==,
                     "no valid encryption subkey: no valid binding signature");
    g_bytes_unref (b);
  }
  g_array_unref (spans);
  g_bytes_unref (a);
}

/* The verdicts a certificate keeps (cert.h) are the mathematics' only:
 * one certificate asked again and again, at other times, gives what a
 * fresh one gives.  A flipped binding stays refused when asked twice; a
 * good one, once verified, still fails the policy at a time before it
 * was made (a signature from the future, past PL_SIG_CLOCK_SKEW), and a
 * back-signature's kept verdict likewise, through pl_cert_key_may_sign. */
static void
test_kept_verdicts (void)
{
  tk_gpg_key *key;
  GBytes *a;
  pl_cert **certs;
  size_t n;
  const pl_cert_key *enc;
  uint32_t made;
  char why[128];

  if (!tu_have_peer ("gpg"))
    return;
  key = tk_ensure_key (&tk_keys[1]);
  a = tk_gpg_export (key->fpr, 0);
  g_assert_cmpuint (pl_certs_read (g_bytes_get_data (a, NULL),
                                   g_bytes_get_size (a), &certs, &n), ==, 0);
  for (int round = 0; round < 3; round++)
    {
      g_assert_cmpuint (pl_cert_encryption_key (certs[0], now (), &enc, why,
                                                sizeof why), ==, 0);
      g_assert_true (enc == &certs[0]->subkeys[0]);
    }
  /* Before it was made, by more than a fast clock's skew. */
  made = certs[0]->subkeys[0].sigs.v[0].created - PL_SIG_CLOCK_SKEW;
  g_assert_cmpuint (gpg_err_code (pl_cert_encryption_key (certs[0], made - 1,
                                                          &enc, why,
                                                          sizeof why)), ==,
                    GPG_ERR_UNUSABLE_PUBKEY);
  g_assert_cmpuint (pl_cert_encryption_key (certs[0], now (), &enc, why,
                                            sizeof why), ==, 0);
  /* The primary signs: its verdict kept, then asked before it was made. */
  g_assert_cmpuint (pl_cert_key_may_sign (certs[0], &certs[0]->primary,
                                          now (), now (), why, sizeof why),
                    ==, 0);
  g_assert_cmpuint (pl_cert_key_may_sign (certs[0], &certs[0]->primary,
                                          certs[0]->primary.key.created
                                          - PL_SIG_CLOCK_SKEW - 1,
                                          now (), why, sizeof why), !=, 0);
  pl_certs_free (certs, n);

  /* The flipped binding of test_bad_binding, asked three times. */
  {
    GArray *spans = split_packets (a);
    GByteArray *bad = g_byte_array_new ();
    guint last_sig = 0;

    for (guint i = 0; i < spans->len; i++)
      if (g_array_index (spans, tu_packet, i).tag == 2)
        last_sig = i;
    g_byte_array_append (bad, g_bytes_get_data (a, NULL),
                         (guint) g_bytes_get_size (a));
    bad->data[g_array_index (spans, tu_packet, last_sig).end - 5] ^= 0x01;
    g_assert_cmpuint (pl_certs_read (bad->data, bad->len, &certs, &n), ==, 0);
    for (int round = 0; round < 3; round++)
      {
        g_assert_cmpuint (gpg_err_code (pl_cert_encryption_key (certs[0],
                                                                now (), &enc,
                                                                why,
                                                                sizeof why)),
                          ==, GPG_ERR_UNUSABLE_PUBKEY);
        g_assert_cmpstr (why, ==, "no valid encryption subkey: no valid "
                         "binding signature");
        g_assert_false (pl_cert_key_may_decrypt (certs[0],
                                                 &certs[0]->subkeys[0],
                                                 now ()));
      }
    pl_certs_free (certs, n);
    g_byte_array_unref (bad);
    g_array_unref (spans);
  }
  g_bytes_unref (a);
}

/* An MPI of BITS random bits (the top one set, odd) onto B. */
static void
put_mpi (GByteArray *b, guint bits)
{
  gsize n = (bits + 7) / 8;
  guint8 *v = g_malloc (n), h[2] = { (guint8) (bits >> 8), (guint8) bits };

  gcry_create_nonce (v, n);
  v[0] &= (guint8) (0xFF >> (8 * n - bits));
  v[0] |= (guint8) (0x80 >> (8 * n - bits));
  v[n - 1] |= 1;
  g_byte_array_append (b, h, 2);
  g_byte_array_append (b, v, (guint) n);
  g_free (v);
}

/* A v4 RSA key packet body: an N_BITS modulus, an E_BITS exponent (both
 * random: only their sizes matter before any signature is checked). */
static GByteArray *
rsa_key_body (guint n_bits, guint e_bits)
{
  static const guint8 head[] = { 4, 0x65, 0x00, 0x00, 0x00, 1 };
  GByteArray *b = g_byte_array_new ();

  g_byte_array_append (b, head, sizeof head);
  put_mpi (b, n_bits);
  put_mpi (b, e_bits);
  return b;
}

/* A certificate of an RSA primary of N_BITS / E_BITS and a user ID, and,
 * when SUB_BITS is not 0, an RSA subkey of SUB_BITS. */
static GByteArray *
rsa_cert (guint n_bits, guint e_bits, guint sub_bits)
{
  GByteArray *out = g_byte_array_new (), *k = rsa_key_body (n_bits, e_bits);
  static const char uid[] = "big <big@example.org>";

  pb_packet (out, 6, k->data, k->len);
  pb_packet (out, 13, (const guint8 *) uid, sizeof uid - 1);
  g_byte_array_unref (k);
  if (sub_bits)
    {
      k = rsa_key_body (sub_bits, 17);
      pb_packet (out, 14, k->data, k->len);
      g_byte_array_unref (k);
    }
  return out;
}

/* A key over the sizes Padlock uses (pubkey.h: 16,384-bit moduli, 64-bit
 * RSA exponents) is refused as too large, in words, before any
 * arithmetic on it; one at the bounds is read; a certificate beside it
 * in a keyring, and a good primary with such a subkey, are read without
 * it.  padlock-sop says why. */
static void
test_oversized_key (void)
{
  static const guint sizes[][2] = { { 16385, 17 }, { 32768, 17 },
                                    { 16384, 65 }, { 2048, 16384 } };
  GByteArray *c;
  pl_cert **certs;
  size_t n;

  for (gsize i = 0; i < G_N_ELEMENTS (sizes); i++)
    {
      c = rsa_cert (sizes[i][0], sizes[i][1], 0);
      g_assert_cmpuint (gpg_err_code (pl_certs_read (c->data, c->len, &certs,
                                                     &n)), ==,
                        PL_ERR_KEY_TOO_LARGE);
      g_byte_array_unref (c);
    }
  g_assert_nonnull (strstr (pl_error_message (gpg_error (PL_ERR_KEY_TOO_LARGE)),
                            "16,384 bits"));

  c = rsa_cert (16384, 64, 0);
  g_assert_cmpuint (pl_certs_read (c->data, c->len, &certs, &n), ==, 0);
  g_assert_cmpuint (certs[0]->primary.key.bits, ==, 16384);
  pl_certs_free (certs, n);
  g_byte_array_unref (c);

  c = rsa_cert (3072, 17, 32768);
  g_assert_cmpuint (pl_certs_read (c->data, c->len, &certs, &n), ==, 0);
  g_assert_cmpuint (n, ==, 1);
  g_assert_cmpuint (certs[0]->n_subkeys, ==, 0);
  pl_certs_free (certs, n);
  g_byte_array_unref (c);

  c = rsa_cert (32768, 17, 0);
  {
    GByteArray *more = rsa_cert (3072, 17, 0);
    g_byte_array_append (c, more->data, more->len);
    g_byte_array_unref (more);
  }
  g_assert_cmpuint (pl_certs_read (c->data, c->len, &certs, &n), ==, 0);
  g_assert_cmpuint (n, ==, 1);
  g_assert_cmpuint (certs[0]->primary.key.bits, ==, 3072);
  pl_certs_free (certs, n);
  g_byte_array_unref (c);

  c = rsa_cert (32768, 17, 0);
  {
    g_autofree char *path = tu_write_temp ("rsa32768.cert", c->data, c->len);
    g_autofree char *err = NULL;
    const char *args[] = { "encrypt", path, NULL };
    GBytes *in = tu_bytes_text ("x"), *out = NULL;

    g_assert_cmpint (tu_run_sop (args, in, &out, &err), ==, 41);
    g_assert_nonnull (strstr (err, "The key is larger than Padlock accepts "
                              "(RSA up to 16,384 bits)"));
    g_bytes_unref (in);
    if (out)
      g_bytes_unref (out);
  }
  g_byte_array_unref (c);
}

/* A certificate padded with forged self-signatures that pass every cheap
 * test (issuer, the digest's left 16 bits: only the signature's value is
 * changed), 64 on each of 9 user IDs: more than PL_CERT_MAX_CHECKS.
 * Choosing its key checks at most that many, then gives up ("no valid
 * self-signature"), and asked again checks none; a genuine certificate
 * checks its two signatures once. */
static void
test_check_budget (void)
{
  GBytes *a;
  GArray *spans;
  GByteArray *bad;
  const guint8 *p;
  tu_packet uid = { 0 }, sig = { 0 };
  pl_cert **certs;
  size_t n, before;
  const pl_cert_key *enc;
  char why[128];

  if (!tu_have_peer ("gpg"))
    return;
  a = tk_gpg_export (tk_ensure_key (&tk_keys[1])->fpr, 0);
  p = g_bytes_get_data (a, NULL);
  spans = split_packets (a);
  for (guint i = 0; i + 1 < spans->len; i++)
    if (g_array_index (spans, tu_packet, i).tag == 13)
      {
        uid = g_array_index (spans, tu_packet, i);
        sig = g_array_index (spans, tu_packet, i + 1);
        break;
      }
  g_assert_cmpint (sig.tag, ==, 2);

  before = pl_cert_checks_made ();
  g_assert_cmpuint (pl_certs_read (p, g_bytes_get_size (a), &certs, &n), ==, 0);
  for (int round = 0; round < 2; round++)
    g_assert_cmpuint (pl_cert_encryption_key (certs[0], now (), &enc, why,
                                              sizeof why), ==, 0);
  g_assert_cmpuint (pl_cert_checks_made () - before, ==, 2);
  pl_certs_free (certs, n);

  bad = g_byte_array_new ();
  g_byte_array_append (bad, p, (guint) g_array_index (spans, tu_packet,
                                                      0).end);
  for (int u = 0; u < 9; u++)
    {
      g_byte_array_append (bad, p + uid.start, (guint) (uid.end - uid.start));
      for (int k = 0; k < PL_CERT_MAX_SIGS; k++)
        {
          g_byte_array_append (bad, p + sig.start,
                               (guint) (sig.end - sig.start));
          bad->data[bad->len - 1 - k % 8] ^= (guint8) (1 + k / 8);
        }
    }
  g_assert_cmpuint (pl_certs_read (bad->data, bad->len, &certs, &n), ==, 0);
  g_assert_cmpuint (certs[0]->n_uids, ==, 9);
  before = pl_cert_checks_made ();
  g_assert_cmpuint (gpg_err_code (pl_cert_encryption_key (certs[0], now (),
                                                          &enc, why,
                                                          sizeof why)), ==,
                    GPG_ERR_UNUSABLE_PUBKEY);
  g_assert_cmpstr (why, ==, "no valid encryption subkey: no valid "
                   "self-signature");
  g_assert_cmpuint (pl_cert_checks_made () - before, ==, PL_CERT_MAX_CHECKS);
  before = pl_cert_checks_made ();
  g_assert_cmpuint (gpg_err_code (pl_cert_encryption_key (certs[0], now (),
                                                          &enc, why,
                                                          sizeof why)), ==,
                    GPG_ERR_UNUSABLE_PUBKEY);
  g_assert_cmpuint (pl_cert_checks_made () - before, ==, 0);
  pl_certs_free (certs, n);
  g_byte_array_unref (bad);
  g_array_unref (spans);
  g_bytes_unref (a);
}

/* A key made in 2020 whose encryption subkey expired after a year. */
static void
test_expired_subkey (void)
{
  const char *uid = "pk-expired <expired@example.org>";
  char **fprs;
  GBytes *cert;
  char why[128] = "";
  char *fpr = NULL;

  if (!tu_have_peer ("gpg"))
    return;
  {
    const char *gen[] = { "--faked-system-time", "20200301T120000",
                          "--passphrase", "", "--quick-gen-key", uid,
                          "ed25519", "sign,cert", "never", NULL };
    g_assert_cmpint (tu_run_gpg (NULL, gen, NULL, NULL, NULL), ==, 0);
  }
  fprs = tk_gpg_fingerprints (uid);
  {
    const char *add[] = { "--faked-system-time", "20200301T120000",
                          "--passphrase", "", "--quick-add-key", fprs[0],
                          "cv25519", "encr", "2021-03-01", NULL };
    g_assert_cmpint (tu_run_gpg (NULL, add, NULL, NULL, NULL), ==, 0);
  }
  cert = tk_gpg_export (fprs[0], 0);
  g_assert_cmpuint (gpg_err_code (choose (cert, &fpr, why, sizeof why)), ==,
                    GPG_ERR_UNUSABLE_PUBKEY);
  g_assert_true (g_str_has_prefix (why,
                                   "no valid encryption subkey: expired on 2021-03-0"));
  g_bytes_unref (cert);
  g_strfreev (fprs);
}

/* A key revoked with the revocation certificate gpg made for it. */
static void
test_revoked_key (void)
{
  const char *uid = "pk-revoked <revoked@example.org>";
  char **fprs;
  GBytes *cert;
  char *rev_path, *text, *armor;
  gsize len;
  char why[128] = "";
  char *fpr = NULL;

  if (!tu_have_peer ("gpg"))
    return;
  {
    const char *gen[] = { "--passphrase", "", "--quick-gen-key", uid,
                          "future-default", "default", "never", NULL };
    g_assert_cmpint (tu_run_gpg (NULL, gen, NULL, NULL, NULL), ==, 0);
  }
  fprs = tk_gpg_fingerprints (uid);
  cert = tk_gpg_export (fprs[0], 0);
  g_assert_cmpuint (choose (cert, &fpr, why, sizeof why), ==, 0);
  g_free (fpr);
  g_bytes_unref (cert);
  rev_path = g_strdup_printf ("%s/openpgp-revocs.d/%s.rev", tu_gnupg_home (),
                              fprs[0]);
  g_assert_true (g_file_get_contents (rev_path, &text, &len, NULL));
  /* gpg guards the armor line with a leading colon. */
  armor = strstr (text, ":-----BEGIN");
  g_assert_nonnull (armor);
  {
    GBytes *in = g_bytes_new (armor + 1, strlen (armor + 1));
    const char *imp[] = { "--import", NULL };
    g_assert_cmpint (tu_run_gpg (NULL, imp, in, NULL, NULL), ==, 0);
    g_bytes_unref (in);
  }
  cert = tk_gpg_export (fprs[0], 1);
  g_assert_cmpuint (gpg_err_code (choose (cert, &fpr, why, sizeof why)), ==,
                    GPG_ERR_UNUSABLE_PUBKEY);
  g_assert_cmpstr (why, ==, "no valid encryption subkey: revoked");
  g_bytes_unref (cert);
  g_free (text);
  g_free (rev_path);
  g_strfreev (fprs);
}

/* A subkey that signs as well as encrypts needs its back-signature
 * (0x19), which gpg embeds in the binding: verified, it is chosen. */
static void
test_signing_subkey_back_signed (void)
{
  const char *uid = "pk-backsig <backsig@example.org>";
  char **fprs;
  GBytes *cert;
  char why[128] = "";
  char *fpr = NULL;

  if (!tu_have_peer ("gpg"))
    return;
  {
    const char *gen[] = { "--passphrase", "", "--quick-gen-key", uid,
                          "rsa3072", "cert", "never", NULL };
    g_assert_cmpint (tu_run_gpg (NULL, gen, NULL, NULL, NULL), ==, 0);
  }
  fprs = tk_gpg_fingerprints (uid);
  {
    const char *add[] = { "--passphrase", "", "--quick-add-key", fprs[0],
                          "rsa3072", "sign,encr", "never", NULL };
    g_assert_cmpint (tu_run_gpg (NULL, add, NULL, NULL, NULL), ==, 0);
  }
  g_strfreev (fprs);
  fprs = tk_gpg_fingerprints (uid);
  cert = tk_gpg_export (fprs[0], 0);
  g_assert_cmpuint (choose (cert, &fpr, why, sizeof why), ==, 0);
  g_assert_cmpstr (fpr, ==, fprs[1]);
  g_free (fpr);
  g_bytes_unref (cert);
  g_strfreev (fprs);
}

/* Cut anywhere, flipped anywhere: an error or a certificate, no crash. */
static void
test_every_cut_and_flip (void)
{
  GBytes *a;
  const guint8 *p;
  gsize n;

  if (!tu_have_peer ("gpg"))
    return;
  a = tk_gpg_export (tk_ensure_key (&tk_keys[2])->fpr, 0);
  p = g_bytes_get_data (a, &n);
  for (gsize i = 0; i < n; i++)
    {
      guint8 *q = g_memdup2 (p, n);
      pl_cert **certs;
      size_t count;
      const pl_cert_key *enc;

      if (!pl_certs_read (p, i, &certs, &count))
        pl_certs_free (certs, count);
      q[i] ^= 0x55;
      if (!pl_certs_read (q, n, &certs, &count))
        {
          for (size_t c = 0; c < count; c++)
            (void) pl_cert_encryption_key (certs[c], now (), &enc, NULL, 0);
          pl_certs_free (certs, count);
        }
      g_free (q);
    }
  g_bytes_unref (a);
}

/* ---- Keys not safe to use (issue 32 §5) ----------------------------- */

/* CERT (its bytes) is refused for encryption with a WHY holding WANT;
 * WANT NULL: its encryption key is SUB. */
static void
assert_encryption (GBytes *cert, const char *want, const pl_pubkey *sub)
{
  pl_cert **certs;
  size_t n;
  const pl_cert_key *enc;
  char why[256] = "";
  gpg_error_t err;

  g_assert_cmpuint (pl_certs_read (g_bytes_get_data (cert, NULL),
                                   g_bytes_get_size (cert), &certs, &n), ==, 0);
  err = pl_cert_encryption_key (certs[0], now (), &enc, why, sizeof why);
  if (want)
    {
      g_test_message ("refused: %s", why);
      g_assert_cmpstr (gpg_strerror (err), ==,
                       gpg_strerror (GPG_ERR_UNUSABLE_PUBKEY));
      g_assert_true (g_str_has_prefix (why, "not safe to use: "));
      g_assert_nonnull (strstr (why, want));
    }
  else
    {
      g_assert_cmpuint (err, ==, 0);
      g_assert_cmpmem (enc->key.fpr, enc->key.fpr_len, sub->fpr, sub->fpr_len);
    }
  pl_certs_free (certs, n);
}

/* Issue 32 §5 (RFC 9580 §12.4-12.6): DSA and ElGamal keys of 1024 bits,
 * gpg's dsa1024 + elg1024 and an elg1024 subkey under an Ed25519 primary
 * (tests/data, made by gpg 2.2), were read as safe: a DSA-1024
 * signature was good, and encrypting to the ElGamal subkey was refused
 * only as an algorithm Padlock does not encrypt to.  Now each is too
 * weak, with the reason, as RSA-1024 is; one's own still decrypts. */
static void
test_unsafe_dsa_elgamal (void)
{
  GBytes *old = tu_data_bytes ("dsa1024-elg1024-sec.asc");
  GBytes *elg = tu_data_bytes ("ed25519-elg1024-cert.asc");
  pl_cert **certs;
  size_t n;

  g_assert_cmpuint (pl_certs_read (g_bytes_get_data (old, NULL),
                                   g_bytes_get_size (old), &certs, &n), ==, 0);
  g_assert_cmpuint (n, ==, 1);
  g_assert_cmpuint (certs[0]->n_subkeys, ==, 1);
  g_assert_cmpint (certs[0]->primary.key.safety, ==, PL_KEY_WEAK);
  g_assert_cmpstr (certs[0]->primary.key.unsafe_why, ==,
                   "DSA-1024 is too weak");
  g_assert_cmpint (certs[0]->subkeys[0].key.safety, ==, PL_KEY_WEAK);
  g_assert_cmpstr (certs[0]->subkeys[0].key.unsafe_why, ==,
                   "ElGamal-1024 is too weak");
  g_assert_true (pl_cert_key_may_decrypt (certs[0], &certs[0]->subkeys[0],
                                          now ()));
  pl_certs_free (certs, n);
  assert_encryption (old, "not safe to use: DSA-1024 is too weak", NULL);
  assert_encryption (elg, "its subkey 0x204CB2610D6C86AFEFE8569CE02CB283AC9AB64D"
                     ": ElGamal-1024 is too weak", NULL);
  g_bytes_unref (old);
  g_bytes_unref (elg);
}

/* RSA subkeys with e = 1, an even e, an even modulus, or 1024 bits, and a
 * primary of 1024 bits: each was encrypted to (with e = 1 the PKESK
 * carries the session key in the clear). */
static void
test_unsafe_rsa (void)
{
  static const struct { unsigned int bits; int how; const char *why; }
  subs[] = {
    { 2048, KB_RSA_GOOD, NULL },
    { 2048, KB_RSA_E1, ": its RSA exponent e = 1 is unsafe" },
    { 2048, KB_RSA_E_EVEN, ": its RSA exponent is even" },
    { 2048, KB_RSA_N_EVEN, ": its RSA modulus is even" },
    { 1024, KB_RSA_GOOD, ": RSA-1024 is too weak" },
  };
  uint32_t t = now () - 60;
  kb_key primary, weak;

  kb_rsa (&primary, 2048, KB_RSA_GOOD, t);
  for (gsize i = 0; i < G_N_ELEMENTS (subs); i++)
    {
      kb_key sub;
      GBytes *cert;

      kb_rsa (&sub, subs[i].bits, subs[i].how, t);
      cert = kb_cert (&primary, 0x03, &sub, 0x0C, 0, t);
      assert_encryption (cert, subs[i].why, &sub.pub);
      g_bytes_unref (cert);
      kb_clear (&sub);
    }
  /* A weak primary binds nothing, and is no recipient itself. */
  kb_rsa (&weak, 1024, KB_RSA_GOOD, t);
  {
    kb_key sub;
    GBytes *cert;

    kb_rsa (&sub, 2048, KB_RSA_GOOD, t);
    cert = kb_cert (&weak, 0x03, &sub, 0x0C, 0, t);
    assert_encryption (cert, "not safe to use: RSA-1024 is too weak",
                       &sub.pub);
    g_bytes_unref (cert);
    cert = kb_cert (&weak, 0x0F, NULL, 0, 0, t);
    assert_encryption (cert, "not safe to use: RSA-1024 is too weak", NULL);
    g_bytes_unref (cert);
    kb_clear (&sub);
  }
  kb_clear (&weak);
  /* An e = 1 primary's self-signature (s = EM, which anyone can make)
   * does not verify (sig.c): its certificate has no valid one. */
  {
    kb_key forger;
    GBytes *cert;
    pl_cert **certs;
    size_t n;
    pl_cert_status st;
    char why[128] = "";

    kb_rsa (&forger, 2048, KB_RSA_E1, t);
    cert = kb_cert (&forger, 0x03, NULL, 0, 0, t);
    g_assert_cmpuint (pl_certs_read (g_bytes_get_data (cert, NULL),
                                     g_bytes_get_size (cert), &certs, &n),
                      ==, 0);
    g_assert_cmpuint (pl_cert_check_primary (certs[0], now (), &st, why,
                                             sizeof why), ==,
                      gpg_error (GPG_ERR_UNUSABLE_PUBKEY));
    g_assert_cmpstr (why, ==, "no valid self-signature");
    pl_certs_free (certs, n);
    g_bytes_unref (cert);
    kb_clear (&forger);
  }
  kb_clear (&primary);
}

/* An ECDH subkey body (v4, made T) on CURVE (its OID) with the point Q. */
static GByteArray *
ecdh_body (const uint8_t *oid, gsize oid_len, const uint8_t *q, gsize q_len,
           uint32_t t)
{
  GByteArray *b = g_byte_array_new ();
  uint8_t head[7] = { 4, (uint8_t) (t >> 24), (uint8_t) (t >> 16),
                      (uint8_t) (t >> 8), (uint8_t) t, 18, (uint8_t) oid_len };
  uint8_t bits[2] = { (uint8_t) ((q_len * 8 - 5) >> 8),
                      (uint8_t) (q_len * 8 - 5) };
  static const uint8_t kdf[4] = { 3, 1, 8, 9 };

  g_byte_array_append (b, head, 7);
  g_byte_array_append (b, oid, (guint) oid_len);
  g_byte_array_append (b, bits, 2);
  g_byte_array_append (b, q, (guint) q_len);
  g_byte_array_append (b, kdf, 4);
  return b;
}

/* ECDH subkeys whose point is not on their curve (random x and y) were
 * encrypted to; a point libgcrypt made is still taken. */
static void
test_unsafe_ecdh_point (void)
{
  static const struct { const char *name; uint8_t oid[9]; gsize oid_len; }
  curves[] = {
    { "NIST P-256", { 0x2A, 0x86, 0x48, 0xCE, 0x3D, 0x03, 0x01, 0x07 }, 8 },
    { "NIST P-384", { 0x2B, 0x81, 0x04, 0x00, 0x22 }, 5 },
    { "NIST P-521", { 0x2B, 0x81, 0x04, 0x00, 0x23 }, 5 },
    { "brainpoolP256r1", { 0x2B, 0x24, 0x03, 0x03, 0x02, 0x08, 0x01, 0x01,
                           0x07 }, 9 },
  };
  uint32_t t = now () - 60;
  kb_key primary;

  kb_rsa (&primary, 2048, KB_RSA_GOOD, t);
  for (gsize i = 0; i < G_N_ELEMENTS (curves); i++)
    for (int on = 0; on < 2; on++)
      {
        gcry_sexp_t parm, key, q;
        const uint8_t *point;
        size_t len;
        uint8_t spoiled[1 + 2 * 66];
        GByteArray *body;
        kb_key sub;
        GBytes *cert;

        g_assert_cmpint (gcry_sexp_build (&parm, NULL, "(genkey (ecc (curve "
                                          "%s)))", curves[i].name), ==, 0);
        g_assert_cmpint (gcry_pk_genkey (&key, parm), ==, 0);
        q = gcry_sexp_find_token (key, "q", 0);
        point = (const uint8_t *) gcry_sexp_nth_data (q, 1, &len);
        memcpy (spoiled, point, len);
        if (!on)
          spoiled[len - 1] ^= 1;  /* y off by one: not on the curve */
        body = ecdh_body (curves[i].oid, curves[i].oid_len, spoiled, len, t);
        kb_public (&sub, body->data, body->len);
        cert = kb_cert (&primary, 0x03, &sub, 0x0C, 0, t);
        assert_encryption (cert, on ? NULL : "its point is not on", &sub.pub);
        g_bytes_unref (cert);
        kb_clear (&sub);
        g_byte_array_unref (body);
        gcry_sexp_release (q);
        gcry_sexp_release (key);
        gcry_sexp_release (parm);
      }
  kb_clear (&primary);
}

/* A v6 X25519 subkey bound to a v4 primary was encrypted to (RFC 9580
 * §10.1.1: a v6 primary's subkeys are v6, and v6 subkeys have a v6
 * primary). */
static void
test_unsafe_v6_subkey (void)
{
  uint32_t t = now () - 60;
  uint8_t body[10 + 32] = { 6, (uint8_t) (t >> 24), (uint8_t) (t >> 16),
                            (uint8_t) (t >> 8), (uint8_t) t, 25, 0, 0, 0, 32 };
  kb_key primary, sub;
  GBytes *cert;

  gcry_randomize (body + 10, 32, GCRY_WEAK_RANDOM);
  kb_rsa (&primary, 2048, KB_RSA_GOOD, t);
  kb_public (&sub, body, sizeof body);
  cert = kb_cert (&primary, 0x03, &sub, 0x0C, 0, t);
  assert_encryption (cert, ": a v6 subkey under a v4 primary",
                     NULL);
  g_bytes_unref (cert);
  /* The same key as a v4 subkey is taken. */
  body[0] = 4;
  memmove (body + 6, body + 10, 32);
  kb_clear (&sub);
  kb_public (&sub, body, 6 + 32);
  cert = kb_cert (&primary, 0x03, &sub, 0x0C, 0, t);
  assert_encryption (cert, NULL, &sub.pub);
  g_bytes_unref (cert);
  kb_clear (&sub);
  kb_clear (&primary);
}

int
main (int argc, char **argv)
{
  tu_init (&argc, &argv);
  for (gsize i = 0; i < TK_N_KEYS; i++)
    {
      char *path = g_strdup_printf ("/cert/gpg-subkey/%s", tk_keys[i].name);
      g_test_add_data_func (path, GINT_TO_POINTER ((int) i),
                            test_chooses_gpg_subkey);
      g_free (path);
    }
  g_test_add_func ("/cert/keyring", test_keyring);
  g_test_add_func ("/cert/unsafe/rsa", test_unsafe_rsa);
  g_test_add_func ("/cert/unsafe/dsa-elgamal", test_unsafe_dsa_elgamal);
  g_test_add_func ("/cert/unsafe/ecdh-point", test_unsafe_ecdh_point);
  g_test_add_func ("/cert/unsafe/v6-subkey", test_unsafe_v6_subkey);
  g_test_add_func ("/cert/hostile/appended-subkey", test_appended_subkey);
  g_test_add_func ("/cert/hostile/bad-binding", test_bad_binding);
  g_test_add_func ("/cert/kept-verdicts", test_kept_verdicts);
  g_test_add_func ("/cert/hostile/oversized-key", test_oversized_key);
  g_test_add_func ("/cert/hostile/check-budget", test_check_budget);
  g_test_add_func ("/cert/hostile/expired-subkey", test_expired_subkey);
  g_test_add_func ("/cert/hostile/revoked-key", test_revoked_key);
  g_test_add_func ("/cert/hostile/cut-and-flip", test_every_cut_and_flip);
  g_test_add_func ("/cert/signing-subkey-back-signed",
                   test_signing_subkey_back_signed);
  return g_test_run ();
}
