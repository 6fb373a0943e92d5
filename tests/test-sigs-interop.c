/* test-sigs-interop.c - signatures with the real peers, both ways: gpg
 * -se, -s, --textmode, --detach-sign and two signers verified by
 * padlock-sop, every octet of a signed message flipped, DSA keys, the
 * old form (signature before the literal), and gpg and sqop verifying
 * what padlock-sop signs (detached, inline, inside encryption);
 * cleartext signatures both ways with gpg and sqop; gpg's critical
 * notations and signatures from a clock that runs fast (issue 32) */
#include "testutil.h"
#include "gpg-keys.h"

#include <string.h>
#include <glib/gstdio.h>

/* The last padlock-sop run's standard error. */
static char *last_err;

/* Runs padlock-sop ARGS (NULL-terminated) on IN; *OUT its output. */
static int
sop (const char *const *args, GBytes *in, GBytes **out)
{
  char *err = NULL;
  int status = tu_run_sop (args, in, out, &err);

  if (status && g_test_verbose ())
    g_test_message ("padlock-sop: %s", err);
  g_free (last_err);
  last_err = err;
  return status;
}

static char *
read_text (const char *path)
{
  char *s = NULL;
  g_assert_true (g_file_get_contents (path, &s, NULL, NULL));
  return s;
}

/* A path in the temporary folder that does not exist yet. */
static char *
fresh_path (const char *name)
{
  static int n;
  return g_strdup_printf ("%s/%s-%d", tu_tmpdir (), name, n++);
}

/* gpg's verdict on a message (--decrypt) or a detached signature over
 * DATA_PATH: its status lines. */
static char *
gpg_status (const char *sig_path, const char *data_path, GBytes *in,
            GBytes **out)
{
  g_autofree char *err = NULL;
  const char *v[] = { "--status-fd", "2", "--verify", sig_path, data_path,
                      NULL };
  const char *d[] = { "--status-fd", "2", "--decrypt", NULL };

  tu_run_gpg (NULL, data_path ? v : d, in, out, &err);
  return g_steal_pointer (&err);
}

/* The certificate and secret key of KEY in files. */
static void
key_files (tk_gpg_key *key, char **cert_path, char **sec_path)
{
  GBytes *cert = tk_gpg_export (key->fpr, 1);
  GBytes *sec = tk_gpg_export_secret (key->fpr, key->passphrase);

  g_autofree char *cn = g_strdup_printf ("cert-%s", key->name);
  g_autofree char *sn = g_strdup_printf ("sec-%s", key->name);

  *cert_path = tu_write_temp_bytes (cn, cert);
  *sec_path = tu_write_temp_bytes (sn, sec);
  g_bytes_unref (cert);
  g_bytes_unref (sec);
}

/* VERIFICATIONS (a file's text) names FPR as signing key LINES times. */
static void
assert_good (const char *verifications, const char *fpr, int lines,
             const char *mode)
{
  g_auto (GStrv) l = g_strsplit (verifications, "\n", -1);
  int seen = 0;

  for (char **p = l; *p; p++)
    if (**p)
      {
        g_auto (GStrv) f = g_strsplit (*p, " ", 5);
        if (!f[0] || !f[1] || !f[2] || (mode && !f[3]))
          g_error ("not a verification line: %s", *p);
        /* sqop 0.27 writes no mode: MODE NULL. */
        if (mode)
          g_assert_cmpstr (f[3], ==, mode);
        seen += fpr == NULL || !strcmp (f[1], fpr) || !strcmp (f[2], fpr);
      }
  g_assert_cmpint (seen, ==, lines);
}

/* gpg -se by KEY to itself: padlock-sop decrypts and verifies; a flipped
 * octet anywhere past the key packet fails it. */
static void
test_gpg_se (gconstpointer p)
{
  tk_gpg_key *key = tk_ensure_key (&tk_keys[GPOINTER_TO_INT (p)]);
  GBytes *plain = tu_random_bytes (3000), *msg, *out = NULL;
  g_autofree char *cert = NULL, *sec = NULL, *ver = fresh_path ("ver");
  g_autofree char *vtext = NULL;
  const char *e[] = { "-se", "-u", key->fpr, "-r", key->fpr, NULL };

  key_files (key, &cert, &sec);
  msg = tu_gpg (e, plain);
  {
    const char *d[] = { "decrypt", "--verify-with", cert,
                        "--verifications-out", ver, sec, NULL };
    g_assert_cmpint (sop (d, msg, &out), ==, 0);
    g_assert_true (g_bytes_equal (out, plain));
    g_bytes_unref (out);
    vtext = read_text (ver);
    assert_good (vtext, key->fpr, 1, "mode:binary");
  }
  {
    /* Flipped octets in the second half (the encrypted signature and
     * data): an integrity failure or no valid signature, never 0. */
    gsize n = g_bytes_get_size (msg);
    const uint8_t *m = g_bytes_get_data (msg, NULL);
    for (gsize i = n / 2; i < n; i += 97)
      {
        guint8 *bad = g_memdup2 (m, n);
        GBytes *b;
        const char *d[] = { "decrypt", "--verify-with", cert, sec, NULL };
        bad[i] ^= 0x10;
        b = g_bytes_new_take (bad, n);
        g_assert_cmpint (sop (d, b, NULL), !=, 0);
        g_bytes_unref (b);
      }
  }
  g_bytes_unref (msg);
  g_bytes_unref (plain);
}

/* gpg -s (not compressed, not encrypted): padlock-sop inline-verify; every
 * octet of the data and of the signature packet flipped is caught (exit
 * not 0); the literal packet's name and date are not signed (RFC 9580
 * §5.9) and are left alone. */
static void
test_gpg_inline_flips (void)
{
  tk_gpg_key *key = tk_ensure_key (&tk_keys[1]);
  GBytes *plain = tu_bytes_text ("The quick brown fox jumps over the lazy dog.\n");
  GBytes *msg, *out = NULL;
  g_autofree char *cert = NULL, *sec = NULL;
  const char *s[] = { "-s", "-z", "0", "-u", key->fpr, NULL };
  const char *v[] = { "inline-verify", NULL, NULL };
  const uint8_t *m, *at;
  gsize n, data_at, checked = 0, sig_at, hashed, unhashed_at, unhashed_end;

  key_files (key, &cert, &sec);
  v[1] = cert;
  msg = tu_gpg (s, plain);
  g_assert_cmpint (sop (v, msg, &out), ==, 0);
  g_assert_true (g_bytes_equal (out, plain));
  g_bytes_unref (out);
  m = g_bytes_get_data (msg, &n);
  at = memmem (m, n, g_bytes_get_data (plain, NULL),
               g_bytes_get_size (plain));
  g_assert_nonnull (at);
  data_at = (gsize) (at - m);
  /* The signature packet after the data (a header of two
   * octets): its unhashed subpackets (the issuer's key ID) are not
   * signed, and a flip there may leave a good signature. */
  sig_at = data_at + g_bytes_get_size (plain);
  g_assert_true (m[sig_at] == 0xC2 || m[sig_at] == 0x88);
  hashed = (gsize) m[sig_at + 6] << 8 | m[sig_at + 7];
  unhashed_at = sig_at + 8 + hashed + 2;
  unhashed_end = unhashed_at + ((gsize) m[unhashed_at - 2] << 8
                                | m[unhashed_at - 1]);
  for (gsize i = data_at; i < n; i++)
    {
      if (i >= unhashed_at && i < unhashed_end)
        continue;
      /* EdDSA's r and s end the packet as MPIs of 32 octets: the low
       * octet of a bit count may change without changing the number
       * (as in every OpenPGP reader). */
      if (i == n - 67 || i == n - 33)
        continue;
      guint8 *bad = g_memdup2 (m, n);
      GBytes *b;
      bad[i] ^= 0x01;
      b = g_bytes_new_take (bad, n);
      if (!sop (v, b, NULL))
        g_error ("offset %zu of %zu (data at %zu) still verifies", i, n,
                 data_at);
      g_bytes_unref (b);
      checked++;
    }
  g_assert_cmpuint (checked, >, 100);
  g_bytes_unref (msg);
  g_bytes_unref (plain);
}

/* gpg --detach-sign, and gpg --textmode -s of text, and two signers. */
static void
test_gpg_forms (void)
{
  tk_gpg_key *a = tk_ensure_key (&tk_keys[0]), *b = tk_ensure_key (&tk_keys[1]);
  GBytes *plain = tu_bytes_text ("line one\nline two\n"), *sig, *out = NULL;
  g_autofree char *ca = NULL, *sa = NULL, *cb = NULL, *sb = NULL;
  g_autofree char *sig_path = NULL, *ver = fresh_path ("ver"), *vt = NULL;

  key_files (a, &ca, &sa);
  key_files (b, &cb, &sb);
  {
    const char *d[] = { "--detach-sign", "-u", a->fpr, NULL };
    sig = tu_gpg (d, plain);
    sig_path = tu_write_temp_bytes ("sig", sig);
    const char *v[] = { "verify", sig_path, ca, NULL };
    const char *w[] = { "verify", sig_path, cb, NULL };
    g_assert_cmpint (sop (v, plain, &out), ==, 0);
    {
      g_autofree char *lines = g_strndup (g_bytes_get_data (out, NULL),
                                          g_bytes_get_size (out));
      assert_good (lines, a->fpr, 1, "mode:binary");
    }
    g_bytes_unref (out);
    /* Another key's certificate: no signature (3). */
    g_assert_cmpint (sop (w, plain, NULL), ==, 3);
    /* Other data: 3. */
    {
      GBytes *other = tu_bytes_text ("line one\nline 2\n");
      g_assert_cmpint (sop (v, other, NULL), ==, 3);
      g_bytes_unref (other);
    }
    g_bytes_unref (sig);
  }
  {
    const char *t[] = { "--textmode", "-s", "-u", a->fpr, NULL };
    const char *v[] = { "inline-verify", "--verifications-out", ver, ca, NULL };
    sig = tu_gpg (t, plain);
    g_assert_cmpint (sop (v, sig, &out), ==, 0);
    g_assert_true (g_bytes_equal (out, plain));
    g_bytes_unref (out);
    vt = read_text (ver);
    assert_good (vt, a->fpr, 1, "mode:text");
    g_bytes_unref (sig);
  }
  {
    const char *t[] = { "-s", "-u", a->fpr, "-u", b->fpr, NULL };
    const char *v[] = { "inline-verify", "--verifications-out", NULL, ca, cb,
                        NULL };
    const char *only_b[] = { "inline-verify", cb, NULL };
    g_autofree char *ver2 = fresh_path ("ver"), *v2 = NULL;
    v[2] = ver2;
    sig = tu_gpg (t, plain);
    g_assert_cmpint (sop (v, sig, &out), ==, 0);
    g_bytes_unref (out);
    v2 = read_text (ver2);
    assert_good (v2, NULL, 2, "mode:binary");
    /* One of the two is enough. */
    g_assert_cmpint (sop (only_b, sig, NULL), ==, 0);
    g_bytes_unref (sig);
  }
  g_bytes_unref (plain);
}

/* The old form: a signature packet before the literal packet (PGP 2,
 * and what a detached signature in front of the data makes). */
static void
test_old_form (void)
{
  tk_gpg_key *a = tk_ensure_key (&tk_keys[1]);
  GBytes *plain = tu_bytes_text ("signed the old way\n"), *sig, *out = NULL, *msg;
  g_autofree char *ca = NULL, *sa = NULL;
  GByteArray *m = g_byte_array_new ();
  const char *d[] = { "--detach-sign", "-u", a->fpr, NULL };
  const char *v[] = { "inline-verify", NULL, NULL };
  gsize n = g_bytes_get_size (plain);
  guint8 lit[8] = { 0xCB, (guint8) (6 + n), 'b', 0, 0, 0, 0, 0 };

  key_files (a, &ca, &sa);
  v[1] = ca;
  sig = tu_gpg (d, plain);
  g_byte_array_append (m, g_bytes_get_data (sig, NULL), g_bytes_get_size (sig));
  g_byte_array_append (m, lit, 8);
  g_byte_array_append (m, g_bytes_get_data (plain, NULL), n);
  msg = g_byte_array_free_to_bytes (m);
  g_assert_cmpint (sop (v, msg, &out), ==, 0);
  g_assert_true (g_bytes_equal (out, plain));
  g_bytes_unref (out);
  g_bytes_unref (msg);
  g_bytes_unref (sig);
  g_bytes_unref (plain);
}

/* DSA (17) from an old gpg key: gpg -s, padlock-sop verifies. */
static tk_gpg_key dsa_key = { "dsa2048", "dsa2048", "elg2048", NULL, NULL,
                              NULL };

static void
test_gpg_dsa (void)
{
  tk_gpg_key *k = tk_ensure_key (&dsa_key);
  GBytes *plain = tu_random_bytes (1000), *msg, *out = NULL, *sig;
  g_autofree char *cert = NULL, *sec = NULL, *sig_path = NULL;
  const char *s[] = { "-s", "-u", k->fpr, NULL };
  const char *v[] = { "inline-verify", NULL, NULL };

  key_files (k, &cert, &sec);
  v[1] = cert;
  msg = tu_gpg (s, plain);
  g_assert_cmpint (sop (v, msg, &out), ==, 0);
  g_assert_true (g_bytes_equal (out, plain));
  g_bytes_unref (out);
  {
    const char *d[] = { "--detach-sign", "-u", k->fpr, NULL };
    sig = tu_gpg (d, plain);
    sig_path = tu_write_temp_bytes ("dsa-sig", sig);
    const char *vv[] = { "verify", sig_path, cert, NULL };
    g_assert_cmpint (sop (vv, plain, NULL), ==, 0);
    g_bytes_unref (sig);
  }
  g_bytes_unref (msg);
  g_bytes_unref (plain);
}

/* inline-detach of gpg's uncompressed -s and of padlock-sop's own
 * inline-sign: the data as it was, signatures that gpg and padlock-sop
 * verify over it. */
static void
test_inline_detach (void)
{
  tk_gpg_key *a = tk_ensure_key (&tk_keys[1]);
  GBytes *plain = tu_bytes_text ("detach me\nplease\n"), *msg, *out = NULL;
  g_autofree char *ca = NULL, *sa = NULL, *data_path = NULL;

  key_files (a, &ca, &sa);
  data_path = tu_write_temp_bytes ("detach-data", plain);
  for (int ours = 0; ours < 2; ours++)
    {
      const char *g[] = { "-s", "-z", "0", "-u", a->fpr, NULL };
      const char *p[] = { "inline-sign", sa, NULL };
      g_autofree char *sigs = fresh_path ("detached"), *st = NULL;
      const char *d[] = { "inline-detach", "--signatures-out", sigs, NULL };
      const char *v[] = { "verify", sigs, ca, NULL };
      if (ours)
        g_assert_cmpint (sop (p, plain, &msg), ==, 0);
      else
        msg = tu_gpg (g, plain);
      g_assert_cmpint (sop (d, msg, &out), ==, 0);
      g_assert_true (g_bytes_equal (out, plain));
      g_bytes_unref (out);
      g_assert_cmpint (sop (v, plain, NULL), ==, 0);
      st = gpg_status (sigs, data_path, NULL, NULL);
      g_assert_nonnull (strstr (st, "GOODSIG"));
      g_bytes_unref (msg);
    }
  g_bytes_unref (plain);
}

/* The user ID's first fingerprint. */
static char *
fpr_of (const char *uid)
{
  char **f = tk_gpg_fingerprints (uid);
  char *fpr = g_strdup (f[0]);
  g_strfreev (f);
  return fpr;
}

/* Good signatures by a key that later expired, or was revoked, or with
 * SHA-1 after 2022: NOT_VALID (3 and the reason), beside the controls
 * that hold. */
static void
test_not_valid (void)
{
  tk_gpg_key *a = tk_ensure_key (&tk_keys[0]);
  GBytes *plain = tu_bytes_text ("policy\n"), *sig, *cert;
  g_autofree char *ca = NULL, *sa = NULL, *exp = NULL, *rev = NULL;
  g_autofree char *cert_path = NULL, *rev_path = NULL, *rev_text = NULL;
  const char *v[] = { "inline-verify", NULL, NULL };

  key_files (a, &ca, &sa);
  v[1] = ca;
  {
    const char *s1[] = { "--digest-algo", "SHA1", "-s", "-u", a->fpr, NULL };
    const char *s2[] = { "--digest-algo", "SHA256", "-s", "-u", a->fpr, NULL };
    sig = tu_gpg (s1, plain);
    g_assert_cmpint (sop (v, sig, NULL), ==, 3);
    g_assert_nonnull (strstr (last_err, "SHA-1"));
    g_bytes_unref (sig);
    sig = tu_gpg (s2, plain);
    g_assert_cmpint (sop (v, sig, NULL), ==, 0);
    g_bytes_unref (sig);
  }
  {
    /* Made 2024-01-01, signing on 01-03 and 01-11; a self-signature of
     * 01-02 sets it to expire two days later. */
    const char *gen[] = { "--faked-system-time", "20240101T000000",
                          "--passphrase", "", "--quick-gen-key",
                          "exp <exp@example.org>", "ed25519", "sign,cert",
                          "never", NULL };
    GBytes *before, *after;
    g_assert_cmpint (tu_run_gpg (NULL, gen, NULL, NULL, NULL), ==, 0);
    exp = fpr_of ("exp@example.org");
    const char *set[] = { "--faked-system-time", "20240102T000000",
                          "--passphrase", "", "--quick-set-expire", exp, "2d",
                          NULL };
    const char *sb[] = { "--faked-system-time", "20240103T000000", "-s", "-u",
                         exp, NULL };
    const char *sl[] = { "--faked-system-time", "20240111T000000", "-s", "-u",
                         exp, NULL };
    /* Signed first (gpg will not sign with a key expired at the time),
     * then the expiry that covers the second signature's date. */
    before = tu_gpg (sb, plain);
    after = tu_gpg (sl, plain);
    g_assert_cmpint (tu_run_gpg (NULL, set, NULL, NULL, NULL), ==, 0);
    cert = tk_gpg_export (exp, 0);
    cert_path = tu_write_temp_bytes ("cert-exp", cert);
    v[1] = cert_path;
    /* Expired now, not when it signed: good. */
    g_assert_cmpint (sop (v, before, NULL), ==, 0);
    g_assert_cmpint (sop (v, after, NULL), ==, 3);
    g_assert_nonnull (strstr (last_err, "expired on 2024-01-04"));
    g_bytes_unref (before);
    g_bytes_unref (after);
    g_bytes_unref (cert);
  }
  {
    const char *gen[] = { "--passphrase", "", "--quick-gen-key",
                          "rev <rev@example.org>", "ed25519", "sign,cert",
                          "never", NULL };
    g_autofree char *rev_cert = NULL;
    char *dash;
    g_assert_cmpint (tu_run_gpg (NULL, gen, NULL, NULL, NULL), ==, 0);
    rev = fpr_of ("rev@example.org");
    const char *s[] = { "-s", "-u", rev, NULL };
    sig = tu_gpg (s, plain);
    rev_cert = g_strdup_printf ("%s/openpgp-revocs.d/%s.rev", tu_gnupg_home (),
                                rev);
    rev_text = read_text (rev_cert);
    /* gpg keeps it from being imported by mistake with a ':' before the
     * armor line. */
    dash = strstr (rev_text, ":-----BEGIN");
    g_assert_nonnull (dash);
    memmove (dash, dash + 1, strlen (dash));
    rev_path = tu_write_temp ("rev.asc", rev_text, strlen (rev_text));
    const char *imp[] = { "--import", rev_path, NULL };
    g_assert_cmpint (tu_run_gpg (NULL, imp, NULL, NULL, NULL), ==, 0);
    cert = tk_gpg_export (rev, 0);
    g_free (cert_path);
    cert_path = tu_write_temp_bytes ("cert-rev", cert);
    v[1] = cert_path;
    g_assert_cmpint (sop (v, sig, NULL), ==, 3);
    g_assert_nonnull (strstr (last_err, "revoked"));
    g_bytes_unref (cert);
    g_bytes_unref (sig);
  }
  g_bytes_unref (plain);
}

/* gpg 2.2 signs with a critical notation (--sig-notation '!…'): not
 * valid (3), naming it, inline and detached, while the same notation
 * not critical is good.  gpg signing on a clock two minutes fast: good;
 * an hour fast: not valid, "made in the future", never "bad". */
static void
test_gpg_policy (void)
{
  tk_gpg_key *a = tk_ensure_key (&tk_keys[0]);
  GBytes *plain = tu_bytes_text ("policy\n"), *sig;
  g_autofree char *ca = NULL, *sa = NULL;
  g_autofree char *soon = g_strdup_printf ("%" G_GINT64_FORMAT,
                                           g_get_real_time () / G_USEC_PER_SEC
                                           + 120);
  g_autofree char *late = g_strdup_printf ("%" G_GINT64_FORMAT,
                                           g_get_real_time () / G_USEC_PER_SEC
                                           + 3600);
  const char *v[] = { "inline-verify", NULL, NULL };

  key_files (a, &ca, &sa);
  v[1] = ca;
  {
    const char *crit[] = { "--sig-notation", "!name@example.org=value", "-s",
                           "-u", a->fpr, NULL };
    const char *plainnote[] = { "--sig-notation", "name@example.org=value",
                                "-s", "-u", a->fpr, NULL };
    const char *det[] = { "--sig-notation", "!name@example.org=value",
                          "--detach-sign", "-u", a->fpr, NULL };
    g_autofree char *sig_path = NULL;

    sig = tu_gpg (crit, plain);
    g_assert_cmpint (sop (v, sig, NULL), ==, 3);
    g_assert_nonnull (strstr (last_err, "not valid: unknown critical "
                                        "notation name@example.org"));
    g_bytes_unref (sig);
    sig = tu_gpg (plainnote, plain);
    g_assert_cmpint (sop (v, sig, NULL), ==, 0);
    g_bytes_unref (sig);
    sig = tu_gpg (det, plain);
    sig_path = tu_write_temp_bytes ("sig-crit", sig);
    const char *d[] = { "verify", sig_path, ca, NULL };
    g_assert_cmpint (sop (d, plain, NULL), ==, 3);
    g_assert_nonnull (strstr (last_err, "unknown critical notation"));
    g_bytes_unref (sig);
  }
  {
    const char *s1[] = { "--faked-system-time", soon, "-s", "-u", a->fpr,
                         NULL };
    const char *s2[] = { "--faked-system-time", late, "-s", "-u", a->fpr,
                         NULL };
    const char *d2[] = { "--faked-system-time", late, "--detach-sign", "-u",
                         a->fpr, NULL };
    g_autofree char *sig_path = NULL;

    sig = tu_gpg (s1, plain);
    g_assert_cmpint (sop (v, sig, NULL), ==, 0);
    g_bytes_unref (sig);
    sig = tu_gpg (s2, plain);
    g_assert_cmpint (sop (v, sig, NULL), ==, 3);
    g_assert_nonnull (strstr (last_err, "not valid: made in the future ("));
    g_assert_null (strstr (last_err, "bad"));
    g_bytes_unref (sig);
    sig = tu_gpg (d2, plain);
    sig_path = tu_write_temp_bytes ("sig-late", sig);
    const char *d[] = { "verify", sig_path, ca, NULL };
    g_assert_cmpint (sop (d, plain, NULL), ==, 3);
    g_assert_nonnull (strstr (last_err, "made in the future"));
    g_bytes_unref (sig);
  }
  g_bytes_unref (plain);
}

/* padlock-sop signs with KEY; gpg verifies: detached (binary, text,
 * armored or not), inline, and inside encryption (gpg -d). */
static void
test_gpg_verifies_ours (gconstpointer p)
{
  tk_gpg_key *key = tk_ensure_key (&tk_keys[GPOINTER_TO_INT (p)]);
  GBytes *plain = tu_bytes_text ("from padlock\nsecond line\n"), *sig, *out = NULL;
  g_autofree char *cert = NULL, *sec = NULL, *data_path = NULL;
  g_autofree char *good = g_strdup_printf ("VALIDSIG %s", key->fpr);

  key_files (key, &cert, &sec);
  data_path = tu_write_temp_bytes ("data", plain);
  for (int mode = 0; mode < 4; mode++)
    {
      const char *s[] = { "sign", mode & 1 ? "--as=text" : "--as=binary",
                          mode & 2 ? "--no-armor" : "--as=binary", sec,
                          NULL };
      g_autofree char *sig_path = NULL, *st = NULL;
      g_assert_cmpint (sop (s, plain, &sig), ==, 0);
      sig_path = tu_write_temp_bytes ("ours", sig);
      st = gpg_status (sig_path, data_path, NULL, NULL);
      g_assert_nonnull (strstr (st, "GOODSIG"));
      g_assert_nonnull (strstr (st, good));
      g_bytes_unref (sig);
    }
  for (int mode = 0; mode < 2; mode++)
    {
      const char *s[] = { "inline-sign", mode ? "--as=text" : "--as=binary",
                          sec, NULL };
      const char *e[] = { "encrypt", "--sign-with", sec, cert, NULL };
      g_autofree char *st = NULL;
      g_assert_cmpint (sop (mode ? e : s, plain, &sig), ==, 0);
      st = gpg_status (NULL, NULL, sig, &out);
      g_assert_nonnull (strstr (st, "GOODSIG"));
      g_assert_nonnull (strstr (st, good));
      g_assert_true (g_bytes_equal (out, plain));
      g_bytes_unref (out);
      /* And padlock-sop reads its own. */
      {
        const char *iv[] = { "inline-verify", cert, NULL };
        const char *d[] = { "decrypt", "--verify-with", cert, sec, NULL };
        g_assert_cmpint (sop (mode ? d : iv, sig, &out), ==, 0);
        g_assert_true (g_bytes_equal (out, plain));
        g_bytes_unref (out);
      }
      g_bytes_unref (sig);
    }
  g_bytes_unref (plain);
}

/* sqop's key: sqop signs, padlock-sop verifies; padlock-sop signs, sqop
 * verifies; detached and inline. */
/* A key made by sqop, and its certificate. */
static void
sqop_key (const char *sq, GBytes **sec, GBytes **cert)
{
  const char *g[] = { sq, "generate-key", "Sq <sq@example.org>", NULL };
  const char *x[] = { sq, "extract-cert", NULL };
  int status;

  g_assert_true (tu_run (g, NULL, sec, NULL, &status));
  g_assert_cmpint (status, ==, 0);
  g_assert_true (tu_run (x, *sec, cert, NULL, &status));
  g_assert_cmpint (status, ==, 0);
}

static void
test_sqop_both_ways (void)
{
  g_autofree char *sq = tu_peer ("sqop"), *sec_path = NULL, *cert_path = NULL;
  GBytes *plain = tu_bytes_text ("sqop and padlock\n"), *sec = NULL, *cert = NULL;
  GBytes *sig = NULL, *out = NULL;
  int status;

  if (!sq)
    return;
  sqop_key (sq, &sec, &cert);
  sec_path = tu_write_temp_bytes ("sq-sec", sec);
  cert_path = tu_write_temp_bytes ("sq-cert", cert);
  for (int ours = 0; ours < 2; ours++)
    {
      const char *sign[] = { sq, "sign", sec_path, NULL };
      const char *psign[] = { "sign", sec_path, NULL };
      g_autofree char *sig_path = NULL;
      if (ours)
        g_assert_cmpint (sop (psign, plain, &sig), ==, 0);
      else
        {
          g_assert_true (tu_run (sign, plain, &sig, NULL, &status));
          g_assert_cmpint (status, ==, 0);
        }
      sig_path = tu_write_temp_bytes ("sq-sig", sig);
      const char *v[] = { sq, "verify", sig_path, cert_path, NULL };
      const char *pv[] = { "verify", sig_path, cert_path, NULL };
      if (ours)
        {
          g_assert_true (tu_run (v, plain, &out, NULL, &status));
          g_assert_cmpint (status, ==, 0);
        }
      else
        g_assert_cmpint (sop (pv, plain, &out), ==, 0);
      {
        g_autofree char *lines = g_strndup (g_bytes_get_data (out, NULL),
                                            g_bytes_get_size (out));
        assert_good (lines, NULL, 1, ours ? NULL : "mode:binary");
      }
      g_bytes_unref (out);
      g_bytes_unref (sig);
    }
  for (int ours = 0; ours < 2; ours++)
    {
      const char *sign[] = { sq, "inline-sign", sec_path, NULL };
      const char *psign[] = { "inline-sign", sec_path, NULL };
      const char *v[] = { sq, "inline-verify", cert_path, NULL };
      const char *pv[] = { "inline-verify", cert_path, NULL };
      if (ours)
        g_assert_cmpint (sop (psign, plain, &sig), ==, 0);
      else
        {
          g_assert_true (tu_run (sign, plain, &sig, NULL, &status));
          g_assert_cmpint (status, ==, 0);
        }
      if (ours)
        {
          g_assert_true (tu_run (v, sig, &out, NULL, &status));
          g_assert_cmpint (status, ==, 0);
        }
      else
        g_assert_cmpint (sop (pv, sig, &out), ==, 0);
      g_assert_true (g_bytes_equal (out, plain));
      g_bytes_unref (out);
      g_bytes_unref (sig);
    }
  g_bytes_unref (sec);
  g_bytes_unref (cert);
  g_bytes_unref (plain);
}

/* ---- Cleartext signatures (RFC 9580 §7) ------------------------- */

/* Text that takes every rule: a dash line, a "From " line, trailing
 * whitespace, an empty line, CR LF. */
#define CLEARTEXT "Signed as cleartext\n- a dash line\nFrom me to you\n" \
                  "trailing   \t\n\r\nlast line\r\n"
/* What it reads as, signed: trailing whitespace gone, LF. */
#define CLEARTEXT_READ "Signed as cleartext\n- a dash line\nFrom me to you\n" \
                       "trailing\n\nlast line\n"

/* MSG, with the first WORD in its text changed: inline-verify exits 3
 * (no valid signature). */
static void
assert_changed_word_bad (GBytes *msg, const char *cert_path)
{
  const char *v[] = { "inline-verify", cert_path, NULL };
  gsize n;
  const char *m = g_bytes_get_data (msg, &n);
  g_autofree char *copy = g_strndup (m, n);
  char *at = strstr (copy, "cleartext");
  GBytes *bad;

  g_assert_nonnull (at);
  at[0] = 'C';
  bad = g_bytes_new (copy, n);
  g_assert_cmpint (sop (v, bad, NULL), ==, 3);
  g_bytes_unref (bad);
}

/* gpg --clearsign: padlock-sop inline-verify says good and gives the
 * text; a changed word: bad.  padlock-sop inline-sign --as=clearsigned:
 * gpg --decrypt says GOODSIG and gives the same text. */
static void
test_gpg_clearsign (gconstpointer p)
{
  tk_gpg_key *key = tk_ensure_key (&tk_keys[GPOINTER_TO_INT (p)]);
  GBytes *plain = tu_bytes_text (CLEARTEXT), *msg, *out = NULL;
  g_autofree char *cert = NULL, *sec = NULL, *ver = fresh_path ("ver");
  g_autofree char *vtext = NULL, *status = NULL;
  const char *cs[] = { "--clearsign", "-u", key->fpr, NULL };

  key_files (key, &cert, &sec);
  msg = tu_gpg (cs, plain);
  {
    const char *v[] = { "inline-verify", "--verifications-out", ver, cert,
                        NULL };
    g_assert_cmpint (sop (v, msg, &out), ==, 0);
    g_assert_cmpmem (g_bytes_get_data (out, NULL), g_bytes_get_size (out),
                     CLEARTEXT_READ, strlen (CLEARTEXT_READ));
    g_bytes_unref (out);
    vtext = read_text (ver);
    assert_good (vtext, key->fpr, 1, "mode:text");
  }
  assert_changed_word_bad (msg, cert);
  g_bytes_unref (msg);
  {
    const char *s[] = { "inline-sign", "--as=clearsigned", sec, NULL };
    g_assert_cmpint (sop (s, plain, &msg), ==, 0);
  }
  status = gpg_status (NULL, NULL, msg, &out);
  if (!strstr (status, "[GNUPG:] GOODSIG "))
    g_error ("gpg: %s", status);
  g_assert_cmpmem (g_bytes_get_data (out, NULL), g_bytes_get_size (out),
                   CLEARTEXT_READ, strlen (CLEARTEXT_READ));
  g_bytes_unref (out);
  g_bytes_unref (msg);
  g_bytes_unref (plain);
}

/* sqop inline-sign --as=clearsigned to padlock-sop and back: good, the
 * same text; a changed word: bad. */
static void
test_sqop_clearsign (void)
{
  g_autofree char *sq = tu_peer ("sqop"), *sec_path = NULL, *cert_path = NULL;
  GBytes *plain = tu_bytes_text (CLEARTEXT), *sec = NULL, *cert = NULL;
  GBytes *msg = NULL, *out = NULL;
  int status;

  if (!sq)
    return;
  sqop_key (sq, &sec, &cert);
  sec_path = tu_write_temp_bytes ("sq-cs-sec", sec);
  cert_path = tu_write_temp_bytes ("sq-cs-cert", cert);
  for (int ours = 0; ours < 2; ours++)
    {
      const char *sign[] = { sq, "inline-sign", "--as=clearsigned", sec_path,
                             NULL };
      const char *psign[] = { "inline-sign", "--as=clearsigned", sec_path,
                              NULL };
      const char *v[] = { sq, "inline-verify", cert_path, NULL };
      const char *pv[] = { "inline-verify", cert_path, NULL };

      if (ours)
        g_assert_cmpint (sop (psign, plain, &msg), ==, 0);
      else
        {
          g_assert_true (tu_run (sign, plain, &msg, NULL, &status));
          g_assert_cmpint (status, ==, 0);
        }
      g_assert_true (g_str_has_prefix (g_bytes_get_data (msg, NULL),
                                       "-----BEGIN PGP SIGNED MESSAGE-----"));
      if (ours)
        {
          g_assert_true (tu_run (v, msg, &out, NULL, &status));
          g_assert_cmpint (status, ==, 0);
        }
      else
        {
          g_assert_cmpint (sop (pv, msg, &out), ==, 0);
          assert_changed_word_bad (msg, cert_path);
        }
      g_assert_cmpmem (g_bytes_get_data (out, NULL), g_bytes_get_size (out),
                       CLEARTEXT_READ, strlen (CLEARTEXT_READ));
      g_bytes_unref (out);
      g_bytes_unref (msg);
    }
  g_bytes_unref (sec);
  g_bytes_unref (cert);
  g_bytes_unref (plain);
}

/* inline-detach of a message sqop cleartext-signed (SOP: inline-detach
 * accepts one): what was signed, without the armor, dash-escapes or
 * trailing whitespace and with no final line end, and the signatures,
 * which sqop verifies over it and which fail over a changed word. */
static void
test_sqop_clearsign_detach (void)
{
  g_autofree char *sq = tu_peer ("sqop"), *sec_path = NULL, *cert_path = NULL;
  g_autofree char *sigs = fresh_path ("cs-detached");
  GBytes *plain = tu_bytes_text (CLEARTEXT), *sec = NULL, *cert = NULL;
  GBytes *msg = NULL, *out = NULL, *changed;
  const char *d[] = { "inline-detach", "--signatures-out", sigs, NULL };
  int status;

  if (!sq)
    return;
  sqop_key (sq, &sec, &cert);
  sec_path = tu_write_temp_bytes ("sq-csd-sec", sec);
  cert_path = tu_write_temp_bytes ("sq-csd-cert", cert);
  {
    const char *sign[] = { sq, "inline-sign", "--as=clearsigned", sec_path,
                           NULL };
    g_assert_true (tu_run (sign, plain, &msg, NULL, &status));
    g_assert_cmpint (status, ==, 0);
  }
  g_assert_cmpint (sop (d, msg, &out), ==, 0);
  g_assert_cmpmem (g_bytes_get_data (out, NULL), g_bytes_get_size (out),
                   CLEARTEXT_READ, strlen (CLEARTEXT_READ) - 1);
  g_assert_true (g_file_test (sigs, G_FILE_TEST_EXISTS));
  {
    const char *v[] = { sq, "verify", sigs, cert_path, NULL };
    g_assert_true (tu_run (v, out, NULL, NULL, &status));
    g_assert_cmpint (status, ==, 0);
    changed = tu_bytes_text ("Signed as plaintext\n- a dash line\n"
                             "From me to you\ntrailing\n\nlast line");
    g_assert_true (tu_run (v, changed, NULL, NULL, &status));
    g_assert_cmpint (status, !=, 0);
    g_bytes_unref (changed);
  }
  /* The signatures file exists already: SOP's OUTPUT_EXISTS (59). */
  g_assert_cmpint (sop (d, msg, NULL), ==, 59);
  g_bytes_unref (out);
  g_bytes_unref (msg);
  g_bytes_unref (sec);
  g_bytes_unref (cert);
  g_bytes_unref (plain);
}

/* ---- OpenPGP.js 6 ------------------------------------------------- */

/* Runs the helper; asserts exit 0. */
static GBytes *
js (const char *const *args, GBytes *in)
{
  GBytes *out = NULL;
  g_assert_cmpint (tu_run_openpgpjs (args, in, &out), ==, 0);
  return out;
}

/* One key both ways, signatures only (KEY_PATH a secret key, CERT_PATH
 * its certificate, each readable by OpenPGP.js and padlock-sop). */
static void
js_both_ways (const char *key_path, const char *cert_path)
{
  GBytes *plain = tu_bytes_text ("OpenPGP.js and padlock\nline two\n"), *sig, *out;
  g_autofree char *sig_path = NULL;

  /* OpenPGP.js signs, padlock-sop verifies. */
  {
    const char *a[] = { "sign", key_path, "1", NULL };
    const char *v[] = { "verify", NULL, cert_path, NULL };
    sig = js (a, plain);
    sig_path = tu_write_temp_bytes ("js-sig", sig);
    v[1] = sig_path;
    g_assert_cmpint (sop (v, plain, NULL), ==, 0);
    g_bytes_unref (sig);
  }
  {
    const char *a[] = { "sign", key_path, "0", NULL };
    const char *v[] = { "inline-verify", cert_path, NULL };
    sig = js (a, plain);
    g_assert_cmpint (sop (v, sig, &out), ==, 0);
    g_assert_true (g_bytes_equal (out, plain));
    g_bytes_unref (out);
    g_bytes_unref (sig);
  }
  {
    const char *a[] = { "sign-encrypt", key_path, cert_path, NULL };
    const char *d[] = { "decrypt", "--verify-with", cert_path, key_path,
                        NULL };
    sig = js (a, plain);
    g_assert_cmpint (sop (d, sig, &out), ==, 0);
    g_assert_true (g_bytes_equal (out, plain));
    g_bytes_unref (out);
    g_bytes_unref (sig);
  }
  /* padlock-sop signs, OpenPGP.js verifies. */
  {
    const char *s[] = { "sign", key_path, NULL };
    const char *v[] = { "verify", cert_path, NULL, NULL };
    g_autofree char *ours = NULL;
    g_assert_cmpint (sop (s, plain, &sig), ==, 0);
    ours = tu_write_temp_bytes ("our-sig", sig);
    v[2] = ours;
    g_bytes_unref (js (v, plain));
    g_bytes_unref (sig);
  }
  {
    const char *s[] = { "inline-sign", key_path, NULL };
    const char *v[] = { "verify", cert_path, "-", NULL };
    g_assert_cmpint (sop (s, plain, &sig), ==, 0);
    out = js (v, sig);
    g_assert_true (g_bytes_equal (out, plain));
    g_bytes_unref (out);
    g_bytes_unref (sig);
  }
  {
    const char *s[] = { "encrypt", "--sign-with", key_path, cert_path, NULL };
    const char *d[] = { "decrypt-verify", key_path, cert_path, NULL };
    g_assert_cmpint (sop (s, plain, &sig), ==, 0);
    out = js (d, sig);
    g_assert_true (g_bytes_equal (out, plain));
    g_bytes_unref (out);
    g_bytes_unref (sig);
  }
  g_bytes_unref (plain);
}

/* OpenPGP.js's key (V6 "1": v6 Ed25519, salted v6 signatures; "0": v4). */
static void
test_openpgpjs (gconstpointer data)
{
  const char *v6 = data;
  GBytes *key, *cert;
  g_autofree char *key_path = NULL, *cert_path = NULL;

  if (!tu_have_openpgpjs ())
    return;
  {
    const char *a[] = { "genkey", v6, "0", "-", NULL };
    key = js (a, NULL);
  }
  key_path = tu_write_temp_bytes (v6[0] == '1' ? "js6-key" : "js4-key", key);
  {
    const char *a[] = { "cert", key_path, NULL };
    cert = js (a, NULL);
  }
  cert_path = tu_write_temp_bytes (v6[0] == '1' ? "js6-cert" : "js4-cert", cert);
  js_both_ways (key_path, cert_path);
  g_bytes_unref (key);
  g_bytes_unref (cert);
}

/* padlock-sop's own v6 key (generate-key --profile=rfc9580) with
 * OpenPGP.js. */
static void
test_own_v6_with_openpgpjs (void)
{
  const char *g[] = { "generate-key", "--profile=rfc9580",
                      "Own <own@example.org>", NULL };
  const char *x[] = { "extract-cert", NULL };
  GBytes *key = NULL, *cert = NULL;
  g_autofree char *key_path = NULL, *cert_path = NULL;

  if (!tu_have_openpgpjs ())
    return;
  g_assert_cmpint (sop (g, NULL, &key), ==, 0);
  g_assert_cmpint (sop (x, key, &cert), ==, 0);
  key_path = tu_write_temp_bytes ("own6-key", key);
  cert_path = tu_write_temp_bytes ("own6-cert", cert);
  js_both_ways (key_path, cert_path);
  g_bytes_unref (key);
  g_bytes_unref (cert);
}

int
main (int argc, char **argv)
{
  tu_init (&argc, &argv);
  if (tu_have_peer ("gpg"))
    {
      for (size_t i = 0; i < TK_N_KEYS; i++)
        {
          g_autofree char *se = g_strdup_printf ("/sigs/gpg/se/%s",
                                                 tk_keys[i].name);
          g_autofree char *ours = g_strdup_printf ("/sigs/gpg/ours/%s",
                                                   tk_keys[i].name);
          g_test_add_data_func (se, GINT_TO_POINTER ((int) i), test_gpg_se);
          g_test_add_data_func (ours, GINT_TO_POINTER ((int) i),
                                test_gpg_verifies_ours);
          g_autofree char *cs = g_strdup_printf ("/sigs/gpg/clearsign/%s",
                                                 tk_keys[i].name);
          g_test_add_data_func (cs, GINT_TO_POINTER ((int) i),
                                test_gpg_clearsign);
        }
      g_test_add_func ("/sigs/gpg/inline-flips", test_gpg_inline_flips);
      g_test_add_func ("/sigs/gpg/forms", test_gpg_forms);
      g_test_add_func ("/sigs/gpg/old-form", test_old_form);
      g_test_add_func ("/sigs/gpg/dsa", test_gpg_dsa);
      g_test_add_func ("/sigs/gpg/not-valid", test_not_valid);
      g_test_add_func ("/sigs/gpg/policy", test_gpg_policy);
      g_test_add_func ("/sigs/gpg/inline-detach", test_inline_detach);
    }
  g_test_add_func ("/sigs/sqop", test_sqop_both_ways);
  g_test_add_func ("/sigs/sqop/clearsign", test_sqop_clearsign);
  g_test_add_func ("/sigs/sqop/clearsign-detach",
                   test_sqop_clearsign_detach);
  g_test_add_data_func ("/sigs/openpgpjs/v6", "1", test_openpgpjs);
  g_test_add_data_func ("/sigs/openpgpjs/v4", "0", test_openpgpjs);
  g_test_add_func ("/sigs/openpgpjs/own-v6", test_own_v6_with_openpgpjs);
  return g_test_run ();
}
