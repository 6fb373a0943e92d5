/* test-pubkey-interop.c - messages to public keys, both ways, with the
 * real peers: gpg's keys of every algorithm it makes, protected keys, two
 * recipients and a passphrase, anonymous recipients; sqop's and rnp's
 * keys; and the hostile PKESKs (bad padding, wrong checksum, failed
 * unwrap, bad points) that must all give the one error */
#include "testutil.h"
#include "gpg-keys.h"
#include "cert.h"
#include "algo.h"
#include "errors.h"
#include "keygen.h"
#include "recipients.h"
#include "pkesk.h"
#include "seckey.h"
#include "skesk.h"

#include <string.h>
#include <time.h>
#include <glib/gstdio.h>
#include <gcrypt.h>

/* tk_keys: the six kinds gpg makes (gpg-keys.h), in this process's
 * GnuPG home. */

static tk_gpg_key protected_keys[] = {
  { "locked-cv25519", "ed25519", "cv25519", "key pass \xc3\xa4", NULL, NULL },
  { "locked-rsa3072", "rsa3072", "rsa3072", "key pass \xc3\xa4", NULL, NULL },
};

static void
assert_sop_decrypts (const char *const *args, GBytes *msg, GBytes *plain)
{
  GBytes *out = NULL;
  g_autofree char *err = NULL;

  g_assert_cmpint (tu_run_sop (args, msg, &out, &err), ==, 0);
  g_assert_true (g_bytes_equal (out, plain));
  g_bytes_unref (out);
}

/* gpg -e to the key, padlock-sop decrypt with its secret key; padlock-sop
 * encrypt to its certificate, gpg -d. */
static void
test_gpg_both_ways (gconstpointer p)
{
  tk_gpg_key *key = &tk_keys[GPOINTER_TO_INT (p)];
  GBytes *plain = tu_random_bytes (70000), *msg, *cert, *sec, *out = NULL;
  g_autofree char *cert_path = NULL, *sec_path = NULL;

  if (!tu_have_peer ("gpg"))
    return;
  tk_ensure_key (key);
  cert = tk_gpg_export (key->fpr, 1);
  sec = tk_gpg_export_secret (key->fpr, NULL);
  cert_path = tu_write_temp_bytes ("cert", cert);
  sec_path = tu_write_temp_bytes ("sec", sec);
  {
    const char *e[] = { "-e", "-r", key->fpr, NULL };
    const char *d[] = { "decrypt", sec_path, NULL };
    msg = tu_gpg (e, plain);
    assert_sop_decrypts (d, msg, plain);
    g_bytes_unref (msg);
  }
  {
    const char *e[] = { "encrypt", cert_path, NULL };
    const char *d[] = { "--decrypt", NULL };
    g_assert_cmpint (tu_run_sop (e, plain, &msg, NULL), ==, 0);
    g_assert_cmpint (tu_run_gpg (NULL, d, msg, &out, NULL), ==, 0);
    g_assert_true (g_bytes_equal (out, plain));
    g_bytes_unref (out);
    g_bytes_unref (msg);
  }
  g_bytes_unref (cert);
  g_bytes_unref (sec);
  g_bytes_unref (plain);
}

/* A key protected by gpg: locked without --with-key-password or with a
 * wrong one (67), opened with the right one, as a later password. */
static void
test_gpg_protected (gconstpointer p)
{
  tk_gpg_key *key = &protected_keys[GPOINTER_TO_INT (p)];
  GBytes *plain = tu_bytes_text ("for a locked key\n"), *msg, *sec;
  g_autofree char *sec_path = NULL, *good = NULL, *bad = NULL;
  g_autofree char *good_opt = NULL, *bad_opt = NULL, *err = NULL;

  if (!tu_have_peer ("gpg"))
    return;
  tk_ensure_key (key);
  sec = tk_gpg_export_secret (key->fpr, key->passphrase);
  sec_path = tu_write_temp_bytes ("locked-sec", sec);
  good = tu_write_temp ("good-pw", key->passphrase, strlen (key->passphrase));
  bad = tu_write_temp ("bad-pw", "not it", 6);
  good_opt = g_strdup_printf ("--with-key-password=%s", good);
  bad_opt = g_strdup_printf ("--with-key-password=%s", bad);
  {
    const char *e[] = { "-e", "-r", key->fpr, NULL };
    msg = tu_gpg (e, plain);
  }
  {
    const char *d[] = { "decrypt", sec_path, NULL };
    g_assert_cmpint (tu_run_sop (d, msg, NULL, &err), ==, 67);
    g_free (g_steal_pointer (&err));
  }
  {
    const char *d[] = { "decrypt", bad_opt, sec_path, NULL };
    g_assert_cmpint (tu_run_sop (d, msg, NULL, NULL), ==, 67);
  }
  {
    const char *d[] = { "decrypt", bad_opt, good_opt, sec_path, NULL };
    assert_sop_decrypts (d, msg, plain);
  }
  g_bytes_unref (msg);
  g_bytes_unref (sec);
  g_bytes_unref (plain);
}

/* An old DSA + ElGamal key: gpg encrypts to it and we decrypt (the DSA
 * self-signatures verify); we do not encrypt to ElGamal (13). */
static void
test_gpg_elgamal (void)
{
  static tk_gpg_key key = { "elg2048", "dsa2048", "elg2048", NULL, NULL,
                            NULL };
  GBytes *plain = tu_bytes_text ("for an old key\n"), *msg, *sec, *cert;
  g_autofree char *sec_path = NULL, *cert_path = NULL, *err = NULL;

  if (!tu_have_peer ("gpg"))
    return;
  tk_ensure_key (&key);
  sec = tk_gpg_export_secret (key.fpr, NULL);
  cert = tk_gpg_export (key.fpr, 0);
  sec_path = tu_write_temp_bytes ("elg-sec", sec);
  cert_path = tu_write_temp_bytes ("elg-cert", cert);
  {
    const char *e[] = { "-e", "-r", key.fpr, NULL };
    const char *d[] = { "decrypt", sec_path, NULL };
    msg = tu_gpg (e, plain);
    assert_sop_decrypts (d, msg, plain);
    g_bytes_unref (msg);
  }
  {
    const char *e[] = { "encrypt", cert_path, NULL };
    g_assert_cmpint (tu_run_sop (e, plain, NULL, &err), ==, 13);
  }
  g_bytes_unref (sec);
  g_bytes_unref (cert);
  g_bytes_unref (plain);
}

/* Two recipients and a passphrase, both ways: each key alone opens it,
 * and so does the passphrase. */
static void
test_two_and_passphrase (void)
{
  GBytes *plain = tu_bytes_text ("two and a passphrase\n"), *msg, *out = NULL;
  g_autofree char *pwfile = NULL, *pw_opt = NULL;
  char *sec[2], *cert[2];

  if (!tu_have_peer ("gpg"))
    return;
  for (int i = 0; i < 2; i++)
    {
      GBytes *b;
      tk_ensure_key (&tk_keys[i + 1]);
      b = tk_gpg_export_secret (tk_keys[i + 1].fpr, NULL);
      sec[i] = tu_write_temp_bytes ("two-sec", b);
      g_bytes_unref (b);
      b = tk_gpg_export (tk_keys[i + 1].fpr, 0);
      cert[i] = tu_write_temp_bytes ("two-cert", b);
      g_bytes_unref (b);
    }
  pwfile = tu_write_temp ("two-pw", "message pass", 12);
  pw_opt = g_strdup_printf ("--with-password=%s", pwfile);
  {
    const char *e[] = { "--passphrase-file", pwfile, "-c", "-e", "-r",
                        tk_keys[1].fpr, "-r", tk_keys[2].fpr, NULL };
    msg = tu_gpg (e, plain);
  }
  for (int i = 0; i < 3; i++)
    {
      const char *d[] = { "decrypt", i < 2 ? sec[i] : pw_opt, NULL };
      assert_sop_decrypts (d, msg, plain);
    }
  g_bytes_unref (msg);
  {
    const char *e[] = { "encrypt", pw_opt, cert[0], cert[1], NULL };
    const char *d[] = { "--decrypt", NULL };
    g_assert_cmpint (tu_run_sop (e, plain, &msg, NULL), ==, 0);
    g_assert_cmpint (tu_run_gpg (NULL, d, msg, &out, NULL), ==, 0);
    g_assert_true (g_bytes_equal (out, plain));
    g_bytes_unref (out);
  }
  for (int i = 0; i < 3; i++)
    {
      const char *d[] = { "decrypt", i < 2 ? sec[i] : pw_opt, NULL };
      assert_sop_decrypts (d, msg, plain);
    }
  g_bytes_unref (msg);
  for (int i = 0; i < 2; i++)
    {
      g_free (sec[i]);
      g_free (cert[i]);
    }
  g_bytes_unref (plain);
}

/* gpg --throw-keyids: anonymous PKESKs, tried with every key given; a
 * key that is not the recipient's fails with 29 and names the
 * recipients. */
static void
test_throw_keyids (void)
{
  GBytes *plain = tu_bytes_text ("anonymous\n"), *msg, *a, *b;
  g_autofree char *pa = NULL, *pb = NULL, *err = NULL;

  if (!tu_have_peer ("gpg"))
    return;
  a = tk_gpg_export_secret (tk_ensure_key (&tk_keys[1])->fpr, NULL);
  b = tk_gpg_export_secret (tk_ensure_key (&tk_keys[5])->fpr, NULL);
  pa = tu_write_temp_bytes ("anon-a", a);
  pb = tu_write_temp_bytes ("anon-b", b);
  {
    const char *e[] = { "--throw-keyids", "-e", "-r", tk_keys[5].fpr, NULL };
    msg = tu_gpg (e, plain);
  }
  {
    const char *d[] = { "decrypt", pa, pb, NULL };
    assert_sop_decrypts (d, msg, plain);
  }
  {
    const char *d[] = { "decrypt", pa, NULL };
    g_assert_cmpint (tu_run_sop (d, msg, NULL, &err), ==, 29);
    g_assert_nonnull (strstr (err, "the message is for anonymous"));
  }
  g_bytes_unref (msg);
  g_free (g_steal_pointer (&err));
  {
    const char *e[] = { "-e", "-r", tk_keys[5].fpr, NULL };
    const char *d[] = { "decrypt", pa, NULL };
    g_autofree char *want = g_strdup_printf ("0x%s", tk_keys[5].sub_fpr + 24);
    msg = tu_gpg (e, plain);
    g_assert_cmpint (tu_run_sop (d, msg, NULL, &err), ==, 29);
    g_assert_nonnull (strstr (err, want));
    g_bytes_unref (msg);
  }
  g_bytes_unref (a);
  g_bytes_unref (b);
  g_bytes_unref (plain);
}

/* A profile the recipient does not advertise is refused (17); without
 * --profile, gpg 2.2's keys get SEIPD v1. */
static void
test_profile_refused (void)
{
  GBytes *plain = tu_bytes_text ("x"), *cert, *msg = NULL;
  g_autofree char *path = NULL, *err = NULL;

  if (!tu_have_peer ("gpg"))
    return;
  cert = tk_gpg_export (tk_ensure_key (&tk_keys[1])->fpr, 0);
  path = tu_write_temp_bytes ("profile-cert", cert);
  {
    const char *e[] = { "encrypt", "--profile=rfc9580", path, NULL };
    g_assert_cmpint (tu_run_sop (e, plain, &msg, &err), ==, 17);
    g_assert_nonnull (strstr (err, "cannot read the rfc9580 profile"));
    g_assert_cmpuint (g_bytes_get_size (msg), ==, 0);
    g_bytes_unref (msg);
  }
  g_bytes_unref (cert);
  g_bytes_unref (plain);
}

/* ---- sqop and rnp -------------------------------------------------- */

/* sqop's generate-key: sqop encrypts, we decrypt; we encrypt, sqop
 * decrypts. */
static void
test_sqop_both_ways (void)
{
  GBytes *plain = tu_random_bytes (5000), *sec = NULL, *cert = NULL;
  GBytes *msg = NULL, *out = NULL;
  g_autofree char *sq = NULL, *sec_path = NULL, *cert_path = NULL;
  int status;

  if (!tu_have_peer ("sqop"))
    return;
  sq = tu_find_program ("sqop");
  {
    const char *argv[] = { sq, "generate-key", "Sq <sq@example.org>", NULL };
    g_assert_true (tu_run (argv, NULL, &sec, NULL, &status));
    g_assert_cmpint (status, ==, 0);
  }
  {
    const char *argv[] = { sq, "extract-cert", NULL };
    g_assert_true (tu_run (argv, sec, &cert, NULL, &status));
    g_assert_cmpint (status, ==, 0);
  }
  sec_path = tu_write_temp_bytes ("sq-sec", sec);
  cert_path = tu_write_temp_bytes ("sq-cert", cert);
  {
    const char *argv[] = { sq, "encrypt", cert_path, NULL };
    const char *d[] = { "decrypt", sec_path, NULL };
    g_assert_true (tu_run (argv, plain, &msg, NULL, &status));
    g_assert_cmpint (status, ==, 0);
    assert_sop_decrypts (d, msg, plain);
    g_bytes_unref (msg);
  }
  {
    const char *e[] = { "encrypt", cert_path, NULL };
    const char *argv[] = { sq, "decrypt", sec_path, NULL };
    g_assert_cmpint (tu_run_sop (e, plain, &msg, NULL), ==, 0);
    g_assert_true (tu_run (argv, msg, &out, NULL, &status));
    g_assert_cmpint (status, ==, 0);
    g_assert_true (g_bytes_equal (out, plain));
    g_bytes_unref (out);
    g_bytes_unref (msg);
  }
  g_bytes_unref (sec);
  g_bytes_unref (cert);
  g_bytes_unref (plain);
}

/* rnp's own Ed25519 + Curve25519 key, both ways. */
static void
test_rnp_both_ways (void)
{
  GBytes *plain = tu_random_bytes (5000), *sec = NULL, *cert = NULL;
  GBytes *msg = NULL, *out = NULL, *in;
  g_autofree char *rnp = NULL, *rnpkeys = NULL, *home = NULL;
  g_autofree char *sec_path = NULL, *cert_path = NULL;
  int status;

  if (!tu_have_peer ("rnp") || !tu_have_peer ("rnpkeys"))
    return;
  rnp = tu_find_program ("rnp");
  rnpkeys = tu_find_program ("rnpkeys");
  home = g_build_filename (tu_tmpdir (), "rnp-keys", NULL);
  g_mkdir_with_parents (home, 0700);
  in = tu_bytes_text ("22\n");
  {
    const char *argv[] = { rnpkeys, "--homedir", home, "--generate-key",
                           "--userid", "Rn <rn@example.org>", "--password",
                           "", "--expert", NULL };
    g_assert_true (tu_run (argv, in, NULL, NULL, &status));
    g_assert_cmpint (status, ==, 0);
  }
  {
    const char *argv[] = { rnpkeys, "--homedir", home, "--export-key",
                           "rn@example.org", NULL };
    g_assert_true (tu_run (argv, NULL, &cert, NULL, &status));
    g_assert_cmpint (status, ==, 0);
  }
  {
    const char *argv[] = { rnpkeys, "--homedir", home, "--export-key",
                           "--secret", "rn@example.org", NULL };
    g_assert_true (tu_run (argv, NULL, &sec, NULL, &status));
    g_assert_cmpint (status, ==, 0);
  }
  sec_path = tu_write_temp_bytes ("rn-sec", sec);
  cert_path = tu_write_temp_bytes ("rn-cert", cert);
  {
    const char *argv[] = { rnp, "--homedir", home, "-e", "-r",
                           "rn@example.org", "--output", "-", NULL };
    const char *d[] = { "decrypt", sec_path, NULL };
    g_assert_true (tu_run (argv, plain, &msg, NULL, &status));
    g_assert_cmpint (status, ==, 0);
    assert_sop_decrypts (d, msg, plain);
    g_bytes_unref (msg);
  }
  {
    const char *e[] = { "encrypt", cert_path, NULL };
    const char *argv[] = { rnp, "--homedir", home, "--password", "", "-d",
                           "--output", "-", NULL };
    g_assert_cmpint (tu_run_sop (e, plain, &msg, NULL), ==, 0);
    g_assert_true (tu_run (argv, msg, &out, NULL, &status));
    g_assert_cmpint (status, ==, 0);
    g_assert_true (g_bytes_equal (out, plain));
    g_bytes_unref (out);
    g_bytes_unref (msg);
  }
  g_bytes_unref (in);
  g_bytes_unref (sec);
  g_bytes_unref (cert);
  g_bytes_unref (plain);
}

/* ---- RSA-16384 ----------------------------------------------------- */

/* tests/data/rsa16384-{cert,sec}.asc: an RSA-16384 key (primary and
 * encryption subkey, no passphrase, no expiry), made once by rnpkeys
 * (tests/data/SOURCES.md): making one takes minutes.  16,384 bits is
 * the largest Padlock takes (pubkey.h). */
static GBytes *
data_file (const char *name)
{
  g_autofree char *path = g_build_filename (g_getenv ("PADLOCK_SOURCE_DIR"),
                                            "tests", "data", name, NULL);
  char *text;
  gsize len;

  g_assert_true (g_file_get_contents (path, &text, &len, NULL));
  return g_bytes_new_take (text, len);
}

/* Padlock encrypts to it and decrypts with it; gpg decrypts what Padlock
 * encrypted (the secret key imported into the tests' GnuPG home) and
 * encrypts what Padlock decrypts. */
static void
test_rsa16384 (void)
{
  GBytes *plain = tu_random_bytes (3000), *cert = data_file ("rsa16384-cert.asc");
  GBytes *sec = data_file ("rsa16384-sec.asc"), *msg = NULL, *out = NULL;
  g_autofree char *cert_path = tu_write_temp_bytes ("r16-cert", cert);
  g_autofree char *sec_path = tu_write_temp_bytes ("r16-sec", sec);
  pl_cert **certs;
  size_t n;
  const pl_cert_key *enc;

  g_assert_cmpuint (pl_certs_read (g_bytes_get_data (cert, NULL),
                                   g_bytes_get_size (cert), &certs, &n), ==, 0);
  g_assert_cmpuint (pl_cert_encryption_key (certs[0], (uint32_t) time (NULL),
                                            &enc, NULL, 0), ==, 0);
  g_assert_cmpuint (enc->key.bits, ==, 16384);
  g_assert_cmpuint (certs[0]->primary.key.bits, ==, 16384);
  pl_certs_free (certs, n);
  {
    const char *e[] = { "encrypt", cert_path, NULL };
    const char *d[] = { "decrypt", sec_path, NULL };
    g_assert_cmpint (tu_run_sop (e, plain, &msg, NULL), ==, 0);
    assert_sop_decrypts (d, msg, plain);
  }
  if (tu_have_peer ("gpg"))
    {
      const char *imp[] = { "--import", NULL };
      const char *d[] = { "--decrypt", NULL };
      const char *e[] = { "-e", "-r", "rsa16384@padlock.test", NULL };
      const char *sd[] = { "decrypt", sec_path, NULL };
      GBytes *gmsg;

      g_assert_cmpint (tu_run_gpg (NULL, imp, sec, NULL, NULL), ==, 0);
      g_assert_cmpint (tu_run_gpg (NULL, d, msg, &out, NULL), ==, 0);
      g_assert_true (g_bytes_equal (out, plain));
      gmsg = tu_gpg (e, plain);
      assert_sop_decrypts (sd, gmsg, plain);
      g_bytes_unref (gmsg);
      g_bytes_unref (out);
    }
  g_bytes_unref (msg);
  g_bytes_unref (cert);
  g_bytes_unref (sec);
  g_bytes_unref (plain);
}

/* ---- OpenPGP.js ---------------------------------------------------- */

typedef struct
{
  const char *name;
  const char *v6;               /* "1": a v6 key (PKESK v6, SEIPD v2) */
  const char *aead_protect;     /* "1": S2K usage 253 */
  gboolean locked;
  const char *type;             /* curve25519 (Ed25519 + X25519) or
                                 * curve448 (Ed448 + X448) */
} js_key;

static const js_key js_keys[] = {
  { "v6", "1", "0", FALSE, "curve25519" },
  { "v6-locked", "1", "0", TRUE, "curve25519" },
  { "v6-aead-locked", "1", "1", TRUE, "curve25519" },
  { "v4-x25519", "0", "0", FALSE, "curve25519" },
  { "v4-x25519-aead-locked", "0", "1", TRUE, "curve25519" },
  { "v6-x448", "1", "0", FALSE, "curve448" },
  { "v4-x448-locked", "0", "0", TRUE, "curve448" },
};

/* OpenPGP.js 6 makes an Ed25519 + X25519 (or Ed448 + X448) key: it
 * encrypts to it and we decrypt; we encrypt to its certificate and it
 * decrypts. */
static void
test_openpgpjs_both_ways (gconstpointer data)
{
  const js_key *k = data;
  GBytes *plain = tu_random_bytes (9000), *key = NULL, *cert = NULL;
  GBytes *msg = NULL, *out = NULL;
  g_autofree char *pw = NULL, *key_path = NULL, *cert_path = NULL;
  g_autofree char *pw_opt = NULL;

  if (!tu_have_openpgpjs ())
    {
      g_bytes_unref (plain);
      return;
    }
  pw = tu_write_temp ("js-pw", "js key pass", 11);
  pw_opt = g_strdup_printf ("--with-key-password=%s", pw);
  {
    const char *a[] = { "genkey", k->v6, k->aead_protect,
                        k->locked ? pw : "-", k->type, NULL };
    g_assert_cmpint (tu_run_openpgpjs (a, NULL, &key), ==, 0);
  }
  key_path = tu_write_temp_bytes ("js-key", key);
  {
    const char *a[] = { "cert", key_path, NULL };
    g_assert_cmpint (tu_run_openpgpjs (a, NULL, &cert), ==, 0);
  }
  cert_path = tu_write_temp_bytes ("js-cert", cert);
  {
    const char *a[] = { "encrypt-to", cert_path, NULL };
    const char *d[] = { "decrypt", pw_opt, key_path, NULL };
    g_assert_cmpint (tu_run_openpgpjs (a, plain, &msg), ==, 0);
    assert_sop_decrypts (d, msg, plain);
    g_bytes_unref (msg);
  }
  {
    const char *e[] = { "encrypt", cert_path, NULL };
    const char *a[] = { "decrypt-with", key_path, k->locked ? pw : "-", NULL };
    g_assert_cmpint (tu_run_sop (e, plain, &msg, NULL), ==, 0);
    /* A v6 key gets PKESK v6 before SEIPD v2, and so does a v4 key that
     * advertises SEIPD v2 (OpenPGP.js does with aeadProtect); else v3. */
    {
      const char *d[] = { "dearmor", NULL };
      GBytes *bin = NULL;
      const guint8 *b;
      g_assert_cmpint (tu_run_sop (d, msg, &bin, NULL), ==, 0);
      b = g_bytes_get_data (bin, NULL);
      g_assert_cmpint (b[0] & 0x3F, ==, 1);
      g_assert_cmpint (b[2], ==, (k->v6[0] == '1' || k->aead_protect[0] == '1')
                                 ? 6 : 3);
      g_bytes_unref (bin);
    }
    g_assert_cmpint (tu_run_openpgpjs (a, msg, &out), ==, 0);
    g_assert_true (g_bytes_equal (out, plain));
    g_bytes_unref (out);
    g_bytes_unref (msg);
  }
  g_bytes_unref (key);
  g_bytes_unref (cert);
  g_bytes_unref (plain);
}

/* ---- Padlock's own keys ---------------------------------------------- */

/* padlock-sop generate-key (PROFILE, locked with PW when not NULL) and
 * extract-cert into files; returns the secret key's path. */
static char *
own_key (const char *profile, const char *uid, const char *pwfile,
         char **cert_path)
{
  g_autofree char *pw_opt = pwfile ? g_strdup_printf ("--with-key-password=%s",
                                                      pwfile) : NULL;
  g_autofree char *prof = g_strdup_printf ("--profile=%s", profile);
  const char *g[] = { "generate-key", prof, uid, pw_opt, NULL };
  const char *x[] = { "extract-cert", NULL };
  GBytes *sec = NULL, *cert = NULL;
  char *path;

  g_assert_cmpint (tu_run_sop (g, NULL, &sec, NULL), ==, 0);
  g_assert_cmpint (tu_run_sop (x, sec, &cert, NULL), ==, 0);
  path = tu_write_temp_bytes ("own-sec", sec);
  *cert_path = tu_write_temp_bytes ("own-cert", cert);
  g_bytes_unref (sec);
  g_bytes_unref (cert);
  return path;
}

/* gpg imports what generate-key makes, finds both self-signatures good,
 * and the key works both ways with gpg and with sqop; locked with a
 * password, too. */
static void
test_own_key_with_gpg_and_sqop (gconstpointer data)
{
  const char *pw = data;
  g_autofree char *cert_path = NULL, *sec_path = NULL, *pwfile = NULL;
  g_autofree char *uid = g_strdup_printf ("Own %s <own-%s@example.org>",
                                          pw ? "locked" : "plain",
                                          pw ? "locked" : "plain");
  g_autofree char *pw_opt = NULL, *sq = tu_find_program ("sqop");
  GBytes *plain = tu_random_bytes (3000), *msg, *out = NULL, *listing = NULL;
  gchar *contents;
  gsize len;
  int good = 0;

  if (!tu_have_peer ("gpg"))
    return;
  pwfile = pw ? tu_write_temp ("own-pw", pw, strlen (pw)) : NULL;
  pw_opt = pw ? g_strdup_printf ("--with-key-password=%s", pwfile) : NULL;
  sec_path = own_key ("default", uid, pwfile, &cert_path);
  g_assert_true (g_file_get_contents (sec_path, &contents, &len, NULL));
  {
    GBytes *in = g_bytes_new_take (contents, len);
    const char *imp[] = { "--passphrase", pw ? pw : "", "--import", NULL };
    g_assert_cmpint (tu_run_gpg (NULL, imp, in, NULL, NULL), ==, 0);
    g_bytes_unref (in);
  }
  {
    const char *chk[] = { "--with-colons", "--check-sigs", uid, NULL };
    char **lines;
    g_assert_cmpint (tu_run_gpg (NULL, chk, NULL, &listing, NULL), ==, 0);
    lines = g_strsplit (g_bytes_get_data (listing, NULL), "\n", -1);
    for (char **l = lines; *l; l++)
      good += g_str_has_prefix (*l, "sig:!:");
    g_strfreev (lines);
    g_assert_cmpint (good, ==, 2);
  }
  {
    const char *e[] = { "-e", "-r", uid, NULL };
    const char *d[] = { "decrypt", sec_path, pw_opt, NULL };
    msg = tu_gpg (e, plain);
    assert_sop_decrypts (d, msg, plain);
    g_bytes_unref (msg);
  }
  {
    const char *e[] = { "encrypt", cert_path, NULL };
    const char *d[] = { "--passphrase", pw ? pw : "", "--decrypt", NULL };
    g_assert_cmpint (tu_run_sop (e, plain, &msg, NULL), ==, 0);
    g_assert_cmpint (tu_run_gpg (NULL, d, msg, &out, NULL), ==, 0);
    g_assert_true (g_bytes_equal (out, plain));
    g_bytes_unref (out);
    if (sq)
      {
        const char *sd[] = { sq, "decrypt", pw ? "--with-key-password"
                             : sec_path, pw ? pwfile : NULL, sec_path, NULL };
        int status;
        g_assert_true (tu_run (sd, msg, &out, NULL, &status));
        g_assert_cmpint (status, ==, 0);
        g_assert_true (g_bytes_equal (out, plain));
        g_bytes_unref (out);
      }
    g_bytes_unref (msg);
  }
  if (sq)
    {
      const char *se[] = { sq, "encrypt", cert_path, NULL };
      const char *d[] = { "decrypt", sec_path, pw_opt, NULL };
      int status;
      g_assert_true (tu_run (se, plain, &msg, NULL, &status));
      g_assert_cmpint (status, ==, 0);
      assert_sop_decrypts (d, msg, plain);
      g_bytes_unref (msg);
    }
  g_bytes_unref (listing);
  g_bytes_unref (plain);
}

/* The rfc9580 profile's v6 key, plain and locked (S2K usage 253,
 * Argon2), both ways with OpenPGP.js 6. */
static void
test_own_v6_key_with_openpgpjs (gconstpointer data)
{
  const char *pw = data;
  g_autofree char *cert_path = NULL, *sec_path = NULL, *pwfile = NULL;
  g_autofree char *pw_opt = NULL;
  GBytes *plain = tu_random_bytes (3000), *msg, *out = NULL;

  if (!tu_have_openpgpjs ())
    {
      g_bytes_unref (plain);
      return;
    }
  pwfile = pw ? tu_write_temp ("own6-pw", pw, strlen (pw)) : NULL;
  pw_opt = pw ? g_strdup_printf ("--with-key-password=%s", pwfile) : NULL;
  sec_path = own_key ("rfc9580", "Six <six@example.org>", pwfile, &cert_path);
  {
    const char *e[] = { "encrypt", cert_path, NULL };
    const char *a[] = { "decrypt-with", sec_path, pw ? pwfile : "-", NULL };
    g_assert_cmpint (tu_run_sop (e, plain, &msg, NULL), ==, 0);
    g_assert_cmpint (tu_run_openpgpjs (a, msg, &out), ==, 0);
    g_assert_true (g_bytes_equal (out, plain));
    g_bytes_unref (out);
    g_bytes_unref (msg);
  }
  {
    const char *a[] = { "encrypt-to", cert_path, NULL };
    const char *d[] = { "decrypt", sec_path, pw_opt, NULL };
    g_assert_cmpint (tu_run_openpgpjs (a, plain, &msg), ==, 0);
    assert_sop_decrypts (d, msg, plain);
    g_bytes_unref (msg);
  }
  g_bytes_unref (plain);
}

/* ---- Through the engine: keys held elsewhere, anonymous recipients --- */

typedef struct
{
  const pl_cert *cert;          /* what the "agent" holds */
  gpg_error_t answer;           /* 0: unwrap; else answer this */
  int calls;
  int named_it;                 /* the PKESK named the held subkey */
} holder_state;

/* A stand-in for gpg-agent: unwraps with the secret key it holds. */
static gpg_error_t
unwrap_held (void *arg, const pl_pkesk *p, uint8_t *session_key,
             size_t *keylen, int *cipher_algo)
{
  holder_state *h = arg;
  const pl_cert_key *sub = &h->cert->subkeys[0];
  pl_seckey sk;
  gpg_error_t err;

  h->calls++;
  h->named_it |= pl_pkesk_names (p, &sub->key);
  if (h->answer)
    return h->answer;
  if (!pl_pkesk_names (p, &sub->key))
    return gpg_error (GPG_ERR_NO_SECKEY);
  err = pl_seckey_unlock (sub, 7, NULL, 0, 0, NULL, &sk);
  if (!err)
    err = pl_pkesk_decrypt (p, &sk, session_key, keylen, cipher_algo);
  pl_seckey_clear (&sk);
  return err;
}

static gpg_error_t
engine_decrypt (GBytes *msg, const pl_opener *keys, size_t n, GBytes **out,
                pl_decrypt_result *result)
{
  pl_decrypt_options o;
  pl_source *src = pl_source_new_memory (g_bytes_get_data (msg, NULL),
                                         g_bytes_get_size (msg));
  pl_sink *sink = pl_sink_new_memory ();
  gpg_error_t err;
  const uint8_t *p;
  size_t len;

  memset (&o, 0, sizeof o);
  o.openers = keys;
  o.n_openers = n;
  err = pl_decrypt (src, sink, &o, result, NULL);
  p = pl_sink_memory_data (sink, &len);
  *out = err ? NULL : g_bytes_new (p, len);
  pl_sink_free (sink);
  pl_source_free (src);
  return err;
}

/* gpg encrypts to a key the engine does not hold: the holder's callback
 * is asked with the PKESK that names it, and its answers come through:
 * the session key, "not mine", "cancelled". */
static void
test_held_elsewhere (void)
{
  GBytes *plain = tu_bytes_text ("held elsewhere\n"), *msg, *sec, *out = NULL;
  pl_cert **certs;
  size_t n;
  holder_state h;
  pl_key_holder holder = { unwrap_held, &h };
  pl_opener k = pl_opener_held_keys (&holder);
  pl_decrypt_result result;

  if (!tu_have_peer ("gpg"))
    return;
  sec = tk_gpg_export_secret (tk_ensure_key (&tk_keys[1])->fpr, NULL);
  g_assert_cmpuint (pl_certs_read (g_bytes_get_data (sec, NULL),
                                   g_bytes_get_size (sec), &certs, &n), ==, 0);
  {
    const char *e[] = { "-e", "-r", tk_keys[1].fpr, NULL };
    msg = tu_gpg (e, plain);
  }
  memset (&h, 0, sizeof h);
  h.cert = certs[0];
  g_assert_cmpuint (engine_decrypt (msg, &k, 1, &out, &result), ==, 0);
  g_assert_true (g_bytes_equal (out, plain));
  g_assert_cmpint (h.calls, ==, 1);
  g_assert_true (h.named_it);
  g_bytes_unref (out);

  h.answer = gpg_error (GPG_ERR_NO_SECKEY);
  g_assert_cmpuint (gpg_err_code (engine_decrypt (msg, &k, 1, &out, &result)),
                    ==, GPG_ERR_NO_SECKEY);
  g_assert_nonnull (strstr (result.recipients, "0x"));
  h.answer = gpg_error (GPG_ERR_CANCELED);
  g_assert_cmpuint (gpg_err_code (engine_decrypt (msg, &k, 1, &out, &result)),
                    ==, GPG_ERR_CANCELED);
  g_bytes_unref (msg);
  pl_certs_free (certs, n);
  g_bytes_unref (sec);
  g_bytes_unref (plain);
}

/* The engine's anonymous recipients (gpg's --throw-keyids): key ID 0 in
 * each PKESK, and gpg still decrypts. */
static void
test_engine_anonymous (void)
{
  GBytes *plain = tu_bytes_text ("anonymous from us\n"), *cert, *out = NULL, *msg;
  pl_cert **certs;
  size_t n, len;
  pl_encrypt_options o;
  pl_opener k;
  pl_sink *sink;
  pl_source *src;
  const uint8_t *p;

  if (!tu_have_peer ("gpg"))
    return;
  cert = tk_gpg_export (tk_ensure_key (&tk_keys[2])->fpr, 0);
  g_assert_cmpuint (pl_certs_read (g_bytes_get_data (cert, NULL),
                                   g_bytes_get_size (cert), &certs, &n), ==, 0);
  k.kind = PL_OPENER_CERT;
  k.data = certs[0];
  k.len = 0;
  k.cipher_algo = 0;
  pl_encrypt_options_init (&o);
  o.openers = &k;
  o.n_openers = 1;
  o.anonymous_recipients = 1;
  src = pl_source_new_memory (g_bytes_get_data (plain, NULL),
                              g_bytes_get_size (plain));
  sink = pl_sink_new_memory ();
  g_assert_cmpuint (pl_encrypt (src, sink, &o, NULL), ==, 0);
  p = pl_sink_memory_data (sink, &len);
  /* A PKESK v3 whose key ID is all zeros. */
  g_assert_cmpint (p[0] & 0x3F, ==, 1);
  for (int i = 0; i < 8; i++)
    g_assert_cmpint (p[3 + i], ==, 0);
  msg = g_bytes_new (p, len);
  {
    const char *d[] = { "--decrypt", NULL };
    g_assert_cmpint (tu_run_gpg (NULL, d, msg, &out, NULL), ==, 0);
    g_assert_true (g_bytes_equal (out, plain));
  }
  g_bytes_unref (out);
  g_bytes_unref (msg);
  pl_sink_free (sink);
  pl_source_free (src);
  pl_certs_free (certs, n);
  g_bytes_unref (cert);
  g_bytes_unref (plain);
}

/* ---- Hostile PKESKs -------------------------------------------------- */

/* KEY's secret encryption subkey, unlocked, and its certificate. */
static pl_cert **
load_secret (tk_gpg_key *key, pl_seckey *sk, const pl_cert_key **sub)
{
  GBytes *sec = tk_gpg_export_secret (tk_ensure_key (key)->fpr, NULL);
  pl_cert **certs;
  size_t n;

  g_assert_cmpuint (pl_certs_read (g_bytes_get_data (sec, NULL),
                                   g_bytes_get_size (sec), &certs, &n), ==, 0);
  g_assert_cmpuint (n, ==, 1);
  g_assert_cmpuint (certs[0]->n_subkeys, ==, 1);
  *sub = &certs[0]->subkeys[0];
  g_assert_cmpuint (pl_seckey_unlock (*sub, 7, NULL, 0, 0, NULL, sk), ==, 0);
  g_bytes_unref (sec);
  return certs;
}

static gpg_error_t
try_open (const pl_pkesk *p, const pl_seckey *sk)
{
  uint8_t *key = gcry_malloc_secure (PL_SESSION_KEY_MAX);
  size_t keylen;
  int algo;
  gpg_error_t err = pl_pkesk_decrypt (p, sk, key, &keylen, &algo);

  gcry_free (key);
  return err;
}

/* RSA: m^e for an EM of our making (raw RSA with the public key). */
static void
rsa_raw (pl_pkesk *p, const pl_pubkey *pub, const uint8_t *em, size_t k)
{
  gcry_sexp_t key, data, res, a;
  gcry_mpi_t n, e, c;
  uint8_t buf[2048];
  size_t len;

  g_assert_cmpuint (pl_pubkey_mpi (pub, 0, &n), ==, 0);
  g_assert_cmpuint (pl_pubkey_mpi (pub, 1, &e), ==, 0);
  g_assert_cmpuint (gcry_sexp_build (&key, NULL, "(public-key (rsa (n %m) "
                                     "(e %m)))", n, e), ==, 0);
  g_assert_cmpuint (gcry_sexp_build (&data, NULL, "(data (flags raw) "
                                     "(value %b))", (int) k, em), ==, 0);
  g_assert_cmpuint (gcry_pk_encrypt (&res, data, key), ==, 0);
  a = gcry_sexp_find_token (res, "a", 0);
  c = gcry_sexp_nth_mpi (a, 1, GCRYMPI_FMT_USG);
  gcry_sexp_release (a);
  g_assert_cmpuint (gcry_mpi_print (GCRYMPI_FMT_USG, buf, sizeof buf, &len,
                                    c), ==, 0);
  p->data_len = pl_mpi_write (buf, len, p->data);
  p->f[0].off = 2;
  p->f[0].len = p->data_len - 2;
  gcry_mpi_release (n);
  gcry_mpi_release (e);
  gcry_mpi_release (c);
  gcry_sexp_release (key);
  gcry_sexp_release (data);
  gcry_sexp_release (res);
}

/* What gpg-agent answers PKDECRYPT for P with SK, done here with
 * libgcrypt as the agent does: RSA the raw block, still padded; ECDH
 * the shared point.  Into OUT (*LEN). */
static void
agent_answer (const pl_pkesk *p, const pl_seckey *sk, uint8_t *out,
              size_t *len)
{
  gcry_sexp_t priv, data, res, v;
  gcry_mpi_t m;
  int ecdh = p->algo == PL_PK_ECDH;
  gcry_mpi_t f[6] = { NULL };

  if (!ecdh)
    {
      g_assert_cmpuint (pl_pubkey_mpi (sk->pub, 0, &f[0]), ==, 0);
      g_assert_cmpuint (pl_pubkey_mpi (sk->pub, 1, &f[1]), ==, 0);
      for (int i = 0; i < 4; i++)
        g_assert_cmpuint (pl_seckey_mpi (sk, i, &f[2 + i]), ==, 0);
      g_assert_cmpuint (gcry_sexp_build (&priv, NULL, "(private-key (rsa "
                                         "(n %m) (e %m) (d %m) (p %m) (q %m)"
                                         " (u %m)))", f[0], f[1], f[2], f[3],
                                         f[4], f[5]), ==, 0);
      g_assert_cmpuint (gcry_mpi_scan (&m, GCRYMPI_FMT_USG,
                                       p->data + p->f[0].off, p->f[0].len,
                                       NULL), ==, 0);
      g_assert_cmpuint (gcry_sexp_build (&data, NULL, "(enc-val (flags raw)"
                                         " (rsa (a %m)))", m), ==, 0);
      gcry_mpi_release (m);
    }
  else
    {
      g_assert_cmpuint (pl_seckey_mpi (sk, 0, &f[0]), ==, 0);
      if (sk->pub->curve == PL_CURVE_CV25519_LEGACY)
        g_assert_cmpuint (gcry_sexp_build (&priv, NULL, "(private-key (ecc "
                                           "(curve Curve25519) (flags "
                                           "djb-tweak) (d %m)))", f[0]), ==, 0);
      else
        g_assert_cmpuint (gcry_sexp_build (&priv, NULL, "(private-key (ecc "
                                           "(curve %s) (d %m)))",
                                           pl_curve_gcry_name (sk->pub->curve),
                                           f[0]), ==, 0);
      g_assert_cmpuint (gcry_sexp_build (&data, NULL, "(enc-val (ecdh "
                                         "(e %b)))", (int) p->f[0].len,
                                         p->data + p->f[0].off), ==, 0);
    }
  g_assert_cmpuint (gcry_pk_decrypt (&res, data, priv), ==, 0);
  v = gcry_sexp_find_token (res, "value", 0);
  m = gcry_sexp_nth_mpi (v, 1, GCRYMPI_FMT_USG);
  g_assert_cmpuint (gcry_mpi_print (GCRYMPI_FMT_USG, out, *len, len, m), ==,
                    0);
  for (int i = 0; i < 6; i++)
    gcry_mpi_release (f[i]);
  gcry_mpi_release (m);
  gcry_sexp_release (v);
  gcry_sexp_release (res);
  gcry_sexp_release (data);
  gcry_sexp_release (priv);
}

/* Whether octet I of an agent's answer of LEN octets is one the result
 * depends on: RSA's block type (its leading zero is not in the answer),
 * separator, key and checksum (the cipher octet is no checked field,
 * the padding any non-zero octets); ECDH the prefix and x, not y. */
static int
answer_octet_counts (const pl_pkesk *p, const uint8_t *answer, size_t len,
                     size_t i)
{
  if (p->algo == PL_PK_ECDH)
    return answer[0] == 0x40 || i <= (len - 1) / 2;
  return i == 0 || i == len - 35 - (p->version == 3) || i >= len - 34;
}

/* A key held elsewhere: what the agent's secret-key step gives, finished
 * by pl_pkesk_finish, is the session key pl_pkesk_decrypt recovers (v3
 * and v6); every octet of the answer it depends on flipped, and the
 * answer cut by an octet, are the one error. */
static void
test_finish_agent_answer (gconstpointer data)
{
  tk_gpg_key *key = &tk_keys[GPOINTER_TO_INT (data)];
  static const uint8_t session[32] = { 1, 2, 3, 4, 5, 6, 7, 8, 9, 10 };
  uint8_t *got = gcry_malloc_secure (PL_SESSION_KEY_MAX);
  uint8_t answer[1024];
  const pl_cert_key *sub;
  pl_seckey sk;
  pl_cert **certs = load_secret (key, &sk, &sub);
  pl_pkesk p;

  for (int version = 3; version <= 6; version += 3)
    {
      size_t len = sizeof answer, keylen = 0;
      int algo = -1;

      g_assert_cmpuint (pl_pkesk_encrypt (&p, version, sk.pub, 0,
                                          PL_CIPHER_AES256, session, 32), ==,
                        0);
      agent_answer (&p, &sk, answer, &len);
      g_assert_cmpuint (pl_pkesk_finish (&p, sk.pub, answer, len, 1, got,
                                         &keylen, &algo), ==, 0);
      g_assert_cmpuint (keylen, ==, 32);
      g_assert_cmpint (algo, ==, version == 3 ? PL_CIPHER_AES256 : 0);
      g_assert_cmpmem (got, 32, session, 32);
      for (size_t i = 0; i < len; i++)
        {
          if (!answer_octet_counts (&p, answer, len, i))
            continue;
          answer[i] ^= 0x01;
          g_assert_cmpuint (gpg_err_code (pl_pkesk_finish (&p, sk.pub, answer,
                                                           len, 1, got,
                                                           &keylen, &algo)),
                            ==, GPG_ERR_DECRYPT_FAILED);
          g_assert_cmpuint (keylen, ==, 0);
          answer[i] ^= 0x01;
        }
      g_assert_cmpuint (gpg_err_code (pl_pkesk_finish (&p, sk.pub, answer,
                                                       len - 1, 1, got,
                                                       &keylen, &algo)),
                        ==, GPG_ERR_DECRYPT_FAILED);
    }
  pl_seckey_clear (&sk);
  pl_certs_free (certs, 1);
  gcry_free (got);
}

/* Bad PKCS#1 padding and a wrong checksum, each well-formed otherwise:
 * one error; the same EM with both right opens. */
static void
test_hostile_rsa (void)
{
  pl_seckey sk;
  const pl_cert_key *sub;
  pl_cert **certs;
  size_t k;
  uint8_t em[512];
  pl_pkesk p;

  if (!tu_have_peer ("gpg"))
    return;
  certs = load_secret (&tk_keys[0], &sk, &sub);
  k = sub->key.field[0].len;
  for (int variant = 0; variant < 4; variant++)
    {
      size_t m = k - 35;
      unsigned int sum = 0;

      em[0] = 0;
      em[1] = 2;
      for (size_t i = 2; i < m - 1; i++)
        em[i] = (uint8_t) (1 + g_test_rand_int_range (0, 255));
      em[m - 1] = 0;
      em[m] = 9;                /* AES-256 */
      for (int i = 0; i < 32; i++)
        sum += em[m + 1 + i] = (uint8_t) g_test_rand_int ();
      em[k - 2] = (uint8_t) (sum >> 8);
      em[k - 1] = (uint8_t) sum;
      if (variant == 1)
        em[1] = 1;              /* not type 2 */
      else if (variant == 2)
        em[k - 1] ^= 1;         /* the checksum */
      else if (variant == 3)
        memset (em + 2, 0, 4);  /* padding too short */
      memset (&p, 0, sizeof p);
      p.version = 3;
      p.algo = sub->key.algo;
      rsa_raw (&p, &sub->key, em, k);
      g_assert_cmpuint (gpg_err_code (try_open (&p, &sk)), ==,
                        variant ? GPG_ERR_DECRYPT_FAILED : 0);
    }
  pl_seckey_clear (&sk);
  pl_certs_free (certs, 1);
}

/* A real PKESK to each EC key, then its point moved off the curve (or,
 * on Curve25519, to small-order points), and its wrapped key flipped:
 * one error each time. */
static void
test_hostile_ecdh (gconstpointer data)
{
  tk_gpg_key *key = &tk_keys[GPOINTER_TO_INT (data)];
  static const uint8_t session[32] = { 1, 2, 3, 4, 5 };
  pl_seckey sk;
  const pl_cert_key *sub;
  pl_cert **certs;
  pl_pkesk p, bad;

  if (!tu_have_peer ("gpg"))
    return;
  certs = load_secret (key, &sk, &sub);
  g_assert_cmpuint (pl_pkesk_encrypt (&p, 3, &sub->key, 0, 9, session, 32),
                    ==, 0);
  g_assert_cmpuint (try_open (&p, &sk), ==, 0);
  /* Off the curve: the last octet of y (or u) changed. */
  bad = p;
  bad.data[bad.f[0].off + bad.f[0].len - 1] ^= 0x01;
  g_assert_cmpuint (gpg_err_code (try_open (&bad, &sk)), ==,
                    GPG_ERR_DECRYPT_FAILED);
  if (sub->key.curve == PL_CURVE_CV25519_LEGACY)
    for (int u = 0; u < 2; u++)
      {
        bad = p;
        memset (bad.data + bad.f[0].off + 1, 0, 32);
        bad.data[bad.f[0].off + 1] = (uint8_t) u;   /* u = 0, u = 1 */
        g_assert_cmpuint (gpg_err_code (try_open (&bad, &sk)), ==,
                          GPG_ERR_DECRYPT_FAILED);
      }
  for (size_t i = 0; i < p.f[1].len; i += 7)
    {
      bad = p;
      bad.data[bad.f[1].off + i] ^= 0x80;
      g_assert_cmpuint (gpg_err_code (try_open (&bad, &sk)), ==,
                        GPG_ERR_DECRYPT_FAILED);
    }
  pl_seckey_clear (&sk);
  pl_certs_free (certs, 1);
}

/* X25519 (algo 25, our rfc9580 key): small-order ephemeral points (u = 0,
 * u = 1, and the order-8 point) and a flipped wrapped key give the one
 * error. */
static void
test_hostile_x25519 (void)
{
  static const uint8_t session[32] = { 9, 8, 7 };
  static const uint8_t order8[32] = {
    0xe0, 0xeb, 0x7a, 0x7c, 0x3b, 0x41, 0xb8, 0xae, 0x16, 0x56, 0xe3, 0xfa,
    0xf1, 0x9f, 0xc4, 0x6a, 0xda, 0x09, 0x8d, 0xeb, 0x9c, 0x32, 0xb1, 0xfd,
    0x86, 0x62, 0x05, 0x16, 0x5f, 0x49, 0xb8, 0x00 };
  const char *uids[] = { "X <x@example.org>" };
  uint8_t *tsk;
  size_t len, n;
  pl_cert **certs;
  pl_seckey sk;
  pl_pkesk p, bad;

  g_assert_cmpuint (pl_keygen (PL_KEYGEN_RFC9580, uids, 1, NULL, 0,
                               1700000000u, &tsk, &len), ==, 0);
  g_assert_cmpuint (pl_certs_read (tsk, len, &certs, &n), ==, 0);
  g_assert_cmpint (certs[0]->subkeys[0].key.algo, ==, 25);
  g_assert_cmpuint (pl_seckey_unlock (&certs[0]->subkeys[0], 7, NULL, 0, 0,
                                      NULL, &sk), ==, 0);
  g_assert_cmpuint (pl_pkesk_encrypt (&p, 6, &certs[0]->subkeys[0].key, 0, 0,
                                      session, 32), ==, 0);
  g_assert_cmpuint (try_open (&p, &sk), ==, 0);
  for (int v = 0; v < 3; v++)
    {
      bad = p;
      memset (bad.data, 0, 32);
      if (v == 1)
        bad.data[0] = 1;
      else if (v == 2)
        memcpy (bad.data, order8, 32);
      g_assert_cmpuint (gpg_err_code (try_open (&bad, &sk)), ==,
                        GPG_ERR_DECRYPT_FAILED);
    }
  bad = p;
  bad.data[bad.f[1].off + 3] ^= 1;
  g_assert_cmpuint (gpg_err_code (try_open (&bad, &sk)), ==,
                    GPG_ERR_DECRYPT_FAILED);
  pl_seckey_clear (&sk);
  pl_certs_free (certs, n);
  pl_wipe (tsk, len);
  gcry_free (tsk);
}

int
main (int argc, char **argv)
{
  tu_init (&argc, &argv);
  for (gsize i = 0; i < TK_N_KEYS; i++)
    {
      char *path = g_strdup_printf ("/pubkey-interop/gpg/%s", tk_keys[i].name);
      g_test_add_data_func (path, GINT_TO_POINTER ((int) i),
                            test_gpg_both_ways);
      g_free (path);
      if (i == 0)
        continue;
      path = g_strdup_printf ("/pubkey-interop/hostile/ecdh-%s", tk_keys[i].name);
      g_test_add_data_func (path, GINT_TO_POINTER ((int) i),
                            test_hostile_ecdh);
      g_free (path);
    }
  for (gsize i = 0; i < G_N_ELEMENTS (protected_keys); i++)
    {
      char *path = g_strdup_printf ("/pubkey-interop/gpg/%s",
                                    protected_keys[i].name);
      g_test_add_data_func (path, GINT_TO_POINTER ((int) i),
                            test_gpg_protected);
      g_free (path);
    }
  g_test_add_func ("/pubkey-interop/gpg/two-and-passphrase",
                   test_two_and_passphrase);
  g_test_add_func ("/pubkey-interop/gpg/throw-keyids", test_throw_keyids);
  g_test_add_func ("/pubkey-interop/gpg/elgamal", test_gpg_elgamal);
  g_test_add_func ("/pubkey-interop/gpg/profile-refused", test_profile_refused);
  g_test_add_func ("/pubkey-interop/sqop", test_sqop_both_ways);
  g_test_add_func ("/pubkey-interop/rnp", test_rnp_both_ways);
  g_test_add_func ("/pubkey-interop/rsa16384", test_rsa16384);
  for (int i = 0; i < 3; i++)
    {
      char path[96];
      g_snprintf (path, sizeof path, "/pubkey-interop/finish/%s",
                  tk_keys[i].name);
      g_test_add_data_func (path, GINT_TO_POINTER (i),
                            test_finish_agent_answer);
    }
  g_test_add_func ("/pubkey-interop/hostile/rsa", test_hostile_rsa);
  g_test_add_func ("/pubkey-interop/hostile/x25519", test_hostile_x25519);
  g_test_add_func ("/pubkey-interop/engine/held-elsewhere",
                   test_held_elsewhere);
  g_test_add_func ("/pubkey-interop/engine/anonymous", test_engine_anonymous);
  g_test_add_data_func ("/pubkey-interop/own/default", NULL,
                        test_own_key_with_gpg_and_sqop);
  g_test_add_data_func ("/pubkey-interop/own/default-locked",
                        "own key pass", test_own_key_with_gpg_and_sqop);
  g_test_add_data_func ("/pubkey-interop/own/rfc9580", NULL,
                        test_own_v6_key_with_openpgpjs);
  g_test_add_data_func ("/pubkey-interop/own/rfc9580-locked",
                        "own key pass", test_own_v6_key_with_openpgpjs);
  for (gsize i = 0; i < G_N_ELEMENTS (js_keys); i++)
    {
      char *path = g_strdup_printf ("/pubkey-interop/openpgpjs/%s",
                                    js_keys[i].name);
      g_test_add_data_func (path, &js_keys[i], test_openpgpjs_both_ways);
      g_free (path);
    }
  return g_test_run ();
}
