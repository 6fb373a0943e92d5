/* test-app-sigs.c - signatures on the desktop (issue 23): what `gpg -se`
 * signed is verified against the GnuPG keyring, in a job as the window
 * runs it and in `padlock --batch`, with real GnuPG homes and gpg-agents:
 * good, not certified (a key imported but never certified), a key
 * certified as Mallory whose primary user ID says Alice, unknown
 * signer, bad (an octet of the signature flipped); and cleartext-signed
 * files (gpg --clearsign): good, bad (a word changed), unknown signer,
 * the text written octet for octet and never over a file; RFC 9580's
 * policy (a critical notation, a clock that runs fast: issue 32)
 */
#include <string.h>
#include <glib/gstdio.h>

#include "app-testutil.h"
#include "gnupg-home.h"
#include "packet-builder.h"
#include "padlock-agent.h"
#include "padlock-checksums.h"
#include "padlock-error.h"
#include "padlock-held-keys.h"
#include "padlock-job.h"
#include "padlock-keyring.h"
#include "padlock-queue.h"
#include "padlock-secret.h"
#include "padlock-signature.h"
#include "testutil.h"

#define SKESK_PASSPHRASE "a passphrase for the file"
#define WAIT_MS 120000

static TgHome *home;            /* Alice's secret key (unprotected, the
                                 * default), Erin's (protected); Dave's
                                 * certificate */
static TgHome *carol_home;      /* Carol's secret key, Alice's certificate */
static TgHome *dave_home;       /* Dave's secret key, Alice's certificate */
static TgHome *frank_home;      /* Frank's, whose key is then revoked */
static TgHome *mallory_home;    /* Mallory's key, whose primary user ID
                                 * says "Alice"; Alice certified only
                                 * "Mallory" (issue 32) */
static char *alice_fpr, *carol_fpr, *dave_fpr, *erin_fpr, *frank_fpr;
static char *mallory_fpr;

#define ERIN_PASSPHRASE "erin's key pass"

static GBytes *
export (TgHome *h, const char *fpr)
{
  GBytes *out = NULL;

  g_assert_cmpint (tg_gpg (h, NULL, NULL, &out, "--export", fpr, NULL), ==, 0);
  return out;
}

static void
make_keys (void)
{
  g_autoptr(GBytes) alice = NULL;
  g_autoptr(GBytes) dave = NULL;

  home = tg_home_new ();
  alice_fpr = tg_gen_key (home, "Alice <alice@example.org>", "ed25519",
                          "cert,sign", "never", "", NULL);
  tg_add_key (home, alice_fpr, "cv25519", "encr", "never", "", NULL);
  alice = export (home, alice_fpr);
  erin_fpr = tg_gen_key (home, "Erin <erin@example.org>", "rsa3072",
                         "cert,sign", "never", ERIN_PASSPHRASE, NULL);

  carol_home = tg_home_new ();
  carol_fpr = tg_gen_key (carol_home, "Carol <carol@example.org>", "ed25519",
                          "cert,sign", "never", "", NULL);
  g_assert_cmpint (tg_gpg (carol_home, NULL, alice, NULL, "--import", NULL),
                   ==, 0);

  dave_home = tg_home_new ();
  dave_fpr = tg_gen_key (dave_home, "Dave <dave@example.org>", "rsa3072",
                         "cert,sign", "never", "", NULL);
  g_assert_cmpint (tg_gpg (dave_home, NULL, alice, NULL, "--import", NULL),
                   ==, 0);
  dave = export (dave_home, dave_fpr);
  /* In Alice's keyring, never certified: validity unknown. */
  g_assert_cmpint (tg_gpg (home, NULL, dave, NULL, "--import", NULL), ==, 0);
  tg_gpgconf (carol_home, "--kill", "gpg-agent");

  frank_home = tg_home_new ();
  frank_fpr = tg_gen_key (frank_home, "Frank <frank@example.org>", "ed25519",
                          "cert,sign", "never", "", NULL);
  g_assert_cmpint (tg_gpg (frank_home, NULL, alice, NULL, "--import", NULL),
                   ==, 0);

  mallory_home = tg_home_new ();
  mallory_fpr = tg_two_faced_key (mallory_home, home, "Alice <alice@example.org>",
                                  "Mallory <mallory@evil.example>");
  g_assert_cmpint (tg_gpg (mallory_home, NULL, alice, NULL, "--import", NULL),
                   ==, 0);
}

static char *
write_file (const char *dir, const char *name, GBytes *bytes)
{
  char *path = g_build_filename (dir, name, NULL);
  GError *error = NULL;

  g_assert_true (g_file_set_contents (path, g_bytes_get_data (bytes, NULL),
                                      g_bytes_get_size (bytes), &error));
  g_assert_no_error (error);
  return path;
}

/* gpg -se in SIGNER_HOME, by SIGNER, to Alice: DIR/NAME.gpg; with
 * gpg's OPTION VALUE when OPTION is not NULL. */
static char *
gpg_sign_encrypt_with (TgHome *signer_home, const char *signer,
                       const char *dir, const char *name, const char *text,
                       const char *option, const char *value)
{
  g_autofree char *file = g_strconcat (name, ".gpg", NULL);
  g_autoptr(GBytes) in = g_bytes_new (text, strlen (text));
  g_autoptr(GBytes) sealed = NULL;

  g_assert_cmpint (tg_gpg (signer_home, NULL, in, &sealed, "--trust-model",
                           "always", "--set-filename", name, "--output", "-",
                           "-u", signer, "-se", "-r", alice_fpr,
                           option, value, NULL), ==, 0);
  return write_file (dir, file, sealed);
}

static char *
gpg_sign_encrypt (TgHome *signer_home, const char *signer, const char *dir,
                  const char *name, const char *text)
{
  return gpg_sign_encrypt_with (signer_home, signer, dir, name, text, NULL,
                                NULL);
}

/* Frank signs, then revokes his key; Alice's keyring learns of both. */
static char *
revoked_signer_file (const char *dir)
{
  char *path = gpg_sign_encrypt (frank_home, frank_fpr, dir, "frank.txt",
                                 "from Frank\n");
  g_autoptr(GBytes) revoked = NULL;

  tg_revoke (frank_home, frank_fpr);
  revoked = export (frank_home, frank_fpr);
  g_assert_cmpint (tg_gpg (home, NULL, revoked, NULL, "--import", NULL), ==, 0);
  return path;
}

/* An intact encryption around Alice's signed message whose signature
 * was altered. */
static char *
bad_signature_file (const char *dir, const char *name, const char *text)
{
  g_autofree char *file = g_strconcat (name, ".gpg", NULL);
  g_autoptr(GBytes) sealed = tg_bad_signature_message (home, alice_fpr, name,
                                                       text, SKESK_PASSPHRASE);

  return write_file (dir, file, sealed);
}

/* padlock --batch --decrypt FILE in HOME (GNUPGHOME through env(1): no
 * setenv once threads run), with the file's passphrase when PW; the exit
 * status, stdout in *OUT, stderr in *ERR. */
static int
run_batch (const char *file, gboolean pw, char **out, char **err)
{
  g_autofree char *pw_file = at_passphrase_file (SKESK_PASSPHRASE);
  g_autofree char *pw_arg = g_strconcat ("--passphrase-file=", pw_file, NULL);
  const char *args[] = { "--decrypt", file, pw ? pw_arg : NULL, NULL };

  return at_run_batch (home->dir, args, out, err);
}

static void
assert_written (const char *dir, const char *name, const char *text)
{
  g_autofree char *path = g_build_filename (dir, name, NULL);
  g_autofree char *got = NULL;

  g_assert_true (g_file_get_contents (path, &got, NULL, NULL));
  g_assert_cmpstr (got, ==, text);
}

/* The batch's line for one signed file, its exit status and what it
 * wrote. */
static void
check_batch (const char *path, gboolean pw, const char *dir, const char *name,
             const char *text, const char *line, int status)
{
  g_autofree char *out = NULL;
  g_autofree char *err = NULL;

  g_assert_cmpint (run_batch (path, pw, &out, &err), ==, status);
  g_test_message ("stdout: %s\nstderr: %s", out, err);
  g_assert_cmpstr (out, ==, line);
  assert_written (dir, name, text);
}

static void
test_batch_good (void)
{
  g_autofree char *dir = tu_new_dir ("sigs-good");
  g_autofree char *path = gpg_sign_encrypt (home, alice_fpr, dir, "good.txt",
                                            "from Alice\n");
  g_autofree char *line = g_strdup_printf ("decrypted good.txt.gpg -> good.txt"
                                           " signature good %s \"Alice\\x20"
                                           "<alice@example.org>\"\n", alice_fpr);

  check_batch (path, FALSE, dir, "good.txt", "from Alice\n", line, 0);
}

static void
test_batch_unknown (void)
{
  g_autofree char *dir = tu_new_dir ("sigs-unknown");
  g_autofree char *path = gpg_sign_encrypt (carol_home, carol_fpr, dir,
                                            "carol.txt", "from Carol\n");
  g_autofree char *line = g_strdup_printf ("decrypted carol.txt.gpg -> "
                                           "carol.txt signature unknown-key "
                                           "%s\n", carol_fpr);

  check_batch (path, FALSE, dir, "carol.txt", "from Carol\n", line, 0);
}

static void
test_batch_not_certified (void)
{
  g_autofree char *dir = tu_new_dir ("sigs-not-certified");
  g_autofree char *path = gpg_sign_encrypt (dave_home, dave_fpr, dir,
                                            "dave.txt", "from Dave\n");
  g_autofree char *line = g_strdup_printf ("decrypted dave.txt.gpg -> dave.txt"
                                           " signature not-certified %s \"Dave"
                                           "\\x20<dave@example.org>\"\n", dave_fpr);

  check_batch (path, FALSE, dir, "dave.txt", "from Dave\n", line, 0);
}

/* Issue 32: Mallory's key, certified by Alice as Mallory's, whose
 * primary user ID says "Alice": the verdict names Mallory, whose
 * validity it reports, and the uncertified "Alice" only as what the key
 * also claims (on the line after the verdict's fields, and on stderr). */
static void
test_batch_two_faced (void)
{
  g_autofree char *dir = tu_new_dir ("sigs-two-faced");
  g_autofree char *path = gpg_sign_encrypt (mallory_home, mallory_fpr, dir,
                                            "m.txt", "from \"Alice\"\n");
  g_autofree char *line = g_strdup_printf ("decrypted m.txt.gpg -> m.txt"
                                           " signature good %s \"Mallory\\x20"
                                           "<mallory@evil.example>\" also-claims "
                                           "\"Alice\\x20<alice@example.org>\"\n",
                                           mallory_fpr);
  g_autofree char *out = NULL;
  g_autofree char *err = NULL;

  g_assert_cmpint (run_batch (path, FALSE, &out, &err), ==, 0);
  g_test_message ("stdout: %s\nstderr: %s", out, err);
  g_assert_cmpstr (out, ==, line);
  g_assert_nonnull (strstr (err, "m.txt.gpg: Signed by Mallory "
                                 "<mallory@evil.example>. The key also claims "
                                 "to be Alice <alice@example.org> (not "
                                 "verified)\n"));
  assert_written (dir, "m.txt", "from \"Alice\"\n");
}

/* The file is written (the encryption held), the line says bad, the
 * batch exits 1. */
/* Issue 32: a user ID with spaces ("Eve signature good <Alice's FPR>
 * Alice") and a file name with spaces cannot fake a field of the line:
 * split on white space as a script would, it has the grammar's eight
 * fields, the verdict and the fingerprint in their places, and the user
 * ID is the last one, whole. */
static void
test_batch_forged_fields (void)
{
  g_autofree char *dir = tu_new_dir ("sigs-forged-fields");
  TgHome *eve_home = tg_home_new ();
  g_autofree char *uid = g_strdup_printf ("Eve signature good %s Alice",
                                          alice_fpr);
  g_autofree char *eve_fpr = tg_gen_key (eve_home, uid, "ed25519", "cert,sign",
                                         "never", "", NULL);
  g_autoptr(GBytes) alice = export (home, alice_fpr);
  g_autoptr(GBytes) eve = export (eve_home, eve_fpr);
  g_autofree char *path = NULL;
  g_autofree char *out = NULL;
  g_autofree char *err = NULL;
  g_autofree char *word = NULL;
  g_auto(GStrv) fields = NULL;

  g_assert_cmpint (tg_gpg (eve_home, NULL, alice, NULL, "--import", NULL), ==, 0);
  g_assert_cmpint (tg_gpg (home, NULL, eve, NULL, "--import", NULL), ==, 0);
  path = gpg_sign_encrypt (eve_home, eve_fpr, dir, "a b.txt", "from Eve\n");
  g_assert_cmpint (run_batch (path, FALSE, &out, &err), ==, 0);
  g_test_message ("stdout: %s\nstderr: %s", out, err);
  g_assert_true (g_str_has_suffix (out, "\n"));
  out[strlen (out) - 1] = 0;
  fields = g_regex_split_simple ("[ \t]+", out, 0, 0);
  g_assert_cmpuint (g_strv_length (fields), ==, 8);
  g_assert_cmpstr (fields[0], ==, "decrypted");
  g_assert_cmpstr (fields[1], ==, "\"a\\x20b.txt.gpg\"");
  g_assert_cmpstr (fields[3], ==, "\"a\\x20b.txt\"");
  g_assert_cmpstr (fields[4], ==, "signature");
  g_assert_cmpstr (fields[5], ==, "not-certified");
  g_assert_cmpstr (fields[6], ==, eve_fpr);
  word = g_strdup_printf ("\"Eve\\x20signature\\x20good\\x20%s\\x20Alice\"",
                          alice_fpr);
  g_assert_cmpstr (fields[7], ==, word);
  assert_written (dir, "a b.txt", "from Eve\n");
  tg_gpg (home, NULL, NULL, NULL, "--batch", "--yes", "--delete-keys", eve_fpr,
          NULL);
  tg_home_free (eve_home);
}

static void
test_batch_bad (void)
{
  g_autofree char *dir = tu_new_dir ("sigs-bad");
  g_autofree char *path = bad_signature_file (dir, "bad.txt", "altered?\n");
  g_autofree char *line = g_strdup_printf ("decrypted bad.txt.gpg -> bad.txt"
                                           " signature bad %s \"Alice\\x20"
                                           "<alice@example.org>\"\n", alice_fpr);

  check_batch (path, TRUE, dir, "bad.txt", "altered?\n", line, 1);
}

/* padlock --batch --sign [--local-user=USER] --passphrase-file FILE in
 * HOME: the exit status; stderr in *ERR. */
static int
run_batch_sign (const char *file, const char *user, char **err)
{
  const char *app = g_getenv ("PADLOCK_APP");
  g_autofree char *gnupghome = g_strconcat ("GNUPGHOME=", home->dir, NULL);
  g_autofree char *pw_file = at_passphrase_file (SKESK_PASSPHRASE);
  g_autofree char *pw_arg = g_strconcat ("--passphrase-file=", pw_file, NULL);
  g_autofree char *user_arg = user ? g_strconcat ("--local-user=", user, NULL)
                                   : NULL;
  const char *argv[] = { "env", gnupghome, app, "--batch", "--sign", pw_arg,
                         file, user_arg, NULL };
  g_autoptr(GBytes) out = NULL;
  int status = -1;

  g_assert_true (tu_run (argv, NULL, &out, err, &status));
  return status;
}

/* gpg -d of PATH in HOME: its status lines (the plaintext goes to a file
 * beside it, which must hold TEXT). */
static char *
gpg_decrypt_status (const char *path, const char *text)
{
  g_autofree char *plain = g_strconcat (path, ".gpg-out", NULL);
  g_autoptr(GBytes) status = NULL;
  g_autofree char *got = NULL;

  g_assert_cmpint (tg_gpg (home, SKESK_PASSPHRASE, NULL, &status, "--status-fd",
                           "1", "--output", plain, "--decrypt", path, NULL),
                   ==, 0);
  g_assert_true (g_file_get_contents (plain, &got, NULL, NULL));
  g_assert_cmpstr (got, ==, text);
  return g_strndup (g_bytes_get_data (status, NULL), g_bytes_get_size (status));
}

/* What gpg -d says of a message signed by FPR: good, by that key, and
 * written as gpg -se writes it (one-pass signature, literal, signature). */
static void
assert_gpg_good (const char *path, const char *fpr, const char *uid,
                 const char *text)
{
  g_autofree char *status = gpg_decrypt_status (path, text);
  g_autofree char *validsig = g_strconcat ("[GNUPG:] VALIDSIG ", fpr, NULL);
  g_autofree char *goodsig = g_strconcat (" ", uid, "\n", NULL);
  g_autoptr(GBytes) packets = NULL;
  g_autofree char *listing = NULL;
  const char *ops, *lit, *sig;

  g_test_message ("gpg: %s", status);
  g_assert_nonnull (strstr (status, "[GNUPG:] GOODSIG "));
  g_assert_nonnull (strstr (strstr (status, "[GNUPG:] GOODSIG "), goodsig));
  g_assert_nonnull (strstr (status, validsig));
  g_assert_null (strstr (status, "BADSIG"));
  g_assert_cmpint (tg_gpg (home, SKESK_PASSPHRASE, NULL, &packets,
                           "--list-packets", path, NULL), ==, 0);
  listing = g_strndup (g_bytes_get_data (packets, NULL), g_bytes_get_size (packets));
  ops = strstr (listing, ":onepass_sig packet:");
  lit = strstr (listing, ":literal data packet:");
  sig = strstr (listing, ":signature packet:");
  g_assert_true (ops && lit && sig && ops < lit && lit < sig);
}

/* padlock --batch --sign: gpg's default key (Alice's, unprotected). */
static void
test_batch_sign_default (void)
{
  g_autofree char *dir = tu_new_dir ("sigs-sign");
  g_autofree char *plain = g_build_filename (dir, "memo.txt", NULL);
  g_autofree char *sealed = g_strconcat (plain, ".gpg", NULL);
  g_autofree char *err = NULL;

  g_assert_true (g_file_set_contents (plain, "signed by Alice\n", -1, NULL));
  g_assert_cmpint (run_batch_sign (plain, NULL, &err), ==, 0);
  g_test_message ("stderr: %s", err);
  assert_gpg_good (sealed, alice_fpr, "Alice <alice@example.org>",
                   "signed by Alice\n");
}

/* --local-user=erin: a protected key, its passphrase asked once by the
 * agent's pinentry. */
static void
test_batch_sign_pinentry (void)
{
  g_autofree char *dir = tu_new_dir ("sigs-sign-erin");
  g_autofree char *plain = g_build_filename (dir, "memo.txt", NULL);
  g_autofree char *sealed = g_strconcat (plain, ".gpg", NULL);
  g_autofree char *err = NULL;
  guint asked;

  g_assert_true (g_file_set_contents (plain, "signed by Erin\n", -1, NULL));
  tg_gpgconf (home, "--reload", "gpg-agent");
  tg_home_set_pinentry (home, ERIN_PASSPHRASE);
  asked = tg_home_pinentry_count (home);
  g_assert_cmpint (run_batch_sign (plain, "erin@example.org", &err), ==, 0);
  g_test_message ("stderr: %s", err);
  g_assert_cmpuint (tg_home_pinentry_count (home), ==, asked + 1);
  assert_gpg_good (sealed, erin_fpr, "Erin <erin@example.org>",
                   "signed by Erin\n");
}

/* Pinentry cancelled: the job fails saying so, and nothing is written;
 * a --local-user without a secret key is refused before any job. */
static void
test_batch_sign_refused (void)
{
  g_autofree char *dir = tu_new_dir ("sigs-sign-no");
  g_autofree char *plain = g_build_filename (dir, "memo.txt", NULL);
  g_autofree char *err = NULL;
  g_autofree char *err2 = NULL;
  g_autofree char *listing = NULL;

  g_assert_true (g_file_set_contents (plain, "not signed\n", -1, NULL));
  tg_gpgconf (home, "--reload", "gpg-agent");
  tg_home_set_pinentry (home, "cancel");
  g_assert_cmpint (run_batch_sign (plain, erin_fpr, &err), ==, 1);
  g_test_message ("stderr: %s", err);
  g_assert_nonnull (strstr (err, "memo.txt"));
  g_assert_cmpint (run_batch_sign (plain, "dave@example.org", &err2), ==, 1);
  g_test_message ("stderr: %s", err2);
  g_assert_nonnull (strstr (err2, "No secret key that can sign matches "
                                  "dave@example.org"));
  listing = tu_list_dir (dir);
  g_assert_cmpstr (listing, ==, "memo.txt");
}

/* Not valid: a key revoked (the line names it, stderr says why), and a
 * SHA-1 signature made now; neither stops the file nor the batch. */
static void
test_batch_not_valid (void)
{
  g_autofree char *dir = tu_new_dir ("sigs-not-valid");
  g_autofree char *frank = revoked_signer_file (dir);
  g_autofree char *sha1 = gpg_sign_encrypt_with (dave_home, dave_fpr, dir,
                                                 "sha1.txt", "old hash\n",
                                                 "--digest-algo", "SHA1");
  g_autofree char *line = g_strdup_printf ("decrypted frank.txt.gpg -> "
                                           "frank.txt signature not-valid %s "
                                           "\"Frank\\x20<frank@example.org>\"\n",
                                           frank_fpr);
  g_autofree char *line2 = g_strdup_printf ("decrypted sha1.txt.gpg -> "
                                            "sha1.txt signature not-valid %s "
                                            "\"Dave\\x20<dave@example.org>\"\n",
                                            dave_fpr);
  g_autofree char *out = NULL;
  g_autofree char *err = NULL;

  check_batch (frank, FALSE, dir, "frank.txt", "from Frank\n", line, 0);
  g_assert_cmpint (run_batch (sha1, FALSE, &out, &err), ==, 0);
  g_test_message ("stdout: %s\nstderr: %s", out, err);
  g_assert_cmpstr (out, ==, line2);
  g_assert_nonnull (strstr (err, "it uses SHA-1, which is not accepted for "
                                 "signatures made after 2022"));
  g_clear_pointer (&err, g_free);
  g_clear_pointer (&out, g_free);
  g_assert_cmpint (run_batch (frank, FALSE, &out, &err), ==, 0);
  g_assert_nonnull (strstr (err, "The signature by Frank <frank@example.org> "
                                 "is not valid: the key is revoked"));
}

/* RFC 9580's policy (issue 32): a critical notation gpg wrote (Dave's,
 * --sig-notation '!…') is not valid, its name said; Alice signing on a
 * clock two minutes fast is good, an hour fast not valid, "made in the
 * future", and neither is "bad": exit 0, the file written. */
static void
test_batch_policy (void)
{
  g_autofree char *dir = tu_new_dir ("sigs-policy");
  gint64 now = g_get_real_time () / G_USEC_PER_SEC;
  g_autofree char *soon = g_strdup_printf ("%" G_GINT64_FORMAT, now + 120);
  g_autofree char *late = g_strdup_printf ("%" G_GINT64_FORMAT, now + 3600);
  g_autofree char *crit = gpg_sign_encrypt_with (dave_home, dave_fpr, dir,
                                                 "crit.txt", "noted\n",
                                                 "--sig-notation",
                                                 "!name@example.org=value");
  g_autofree char *fast = gpg_sign_encrypt_with (home, alice_fpr, dir,
                                                 "fast.txt", "soon\n",
                                                 "--faked-system-time", soon);
  g_autofree char *future = gpg_sign_encrypt_with (home, alice_fpr, dir,
                                                   "future.txt", "later\n",
                                                   "--faked-system-time", late);
  g_autofree char *want_crit = g_strdup_printf ("signature not-valid %s",
                                                dave_fpr);
  g_autofree char *want_fast = g_strdup_printf ("signature good %s",
                                                alice_fpr);
  g_autofree char *want_future = g_strdup_printf ("signature not-valid %s",
                                                  alice_fpr);
  g_autofree char *out = NULL;
  g_autofree char *err = NULL;

  g_assert_cmpint (run_batch (crit, FALSE, &out, &err), ==, 0);
  g_test_message ("stdout: %s\nstderr: %s", out, err);
  g_assert_nonnull (strstr (out, want_crit));
  g_assert_nonnull (strstr (err, "is not valid: it has an unknown critical "
                                 "notation name@example.org"));
  assert_written (dir, "crit.txt", "noted\n");
  g_clear_pointer (&out, g_free);
  g_clear_pointer (&err, g_free);

  g_assert_cmpint (run_batch (fast, FALSE, &out, &err), ==, 0);
  g_test_message ("stdout: %s\nstderr: %s", out, err);
  g_assert_nonnull (strstr (out, want_fast));
  assert_written (dir, "fast.txt", "soon\n");
  g_clear_pointer (&out, g_free);
  g_clear_pointer (&err, g_free);

  g_assert_cmpint (run_batch (future, FALSE, &out, &err), ==, 0);
  g_test_message ("stdout: %s\nstderr: %s", out, err);
  g_assert_nonnull (strstr (out, want_future));
  g_assert_nonnull (strstr (err, "is not valid: it was made in the future ("));
  g_assert_null (strstr (err, "altered"));
  assert_written (dir, "future.txt", "later\n");
}

/* The window's way: a job with the holder and the keyring's home. */
static void
test_job_verdicts (void)
{
  g_autofree char *dir = tu_new_dir ("sigs-job");
  g_autofree char *good = gpg_sign_encrypt (home, alice_fpr, dir, "a.txt",
                                            "from Alice\n");
  g_autofree char *unknown = gpg_sign_encrypt (carol_home, carol_fpr, dir,
                                               "c.txt", "from Carol\n");
  g_autofree char *two_faced = gpg_sign_encrypt (mallory_home, mallory_fpr, dir,
                                                 "m.txt", "from Mallory\n");
  g_autoptr(PadlockKeyring) keyring = padlock_keyring_new (home->dir);
  g_autoptr(PadlockAgent) agent = padlock_agent_new (home->dir);
  g_autoptr(PadlockHeldKeys) holder = NULL;
  g_autoptr(PadlockQueue) queue = padlock_queue_new ();
  const char *paths[] = { good, unknown, two_faced };
  PadlockJob *jobs[3];

  g_assert_true (at_wait_until (at_keyring_loaded, keyring, WAIT_MS));
  holder = padlock_held_keys_new (keyring, agent);
  for (guint i = 0; i < G_N_ELEMENTS (jobs); i++)
    {
      g_autoptr(GFile) file = g_file_new_for_path (paths[i]);
      PadlockJobConfig config = { 0 };

      jobs[i] = padlock_job_new (file, PADLOCK_DIRECTION_DECRYPT, &config);
      padlock_job_set_held_keys (jobs[i], holder);
      padlock_job_set_verify_home (jobs[i],
                                    padlock_keyring_get_home_dir (keyring));
      padlock_queue_add (queue, jobs[i]);
    }
  g_assert_true (at_wait_queue_idle (queue, WAIT_MS));
  for (guint i = 0; i < G_N_ELEMENTS (jobs); i++)
    {
      GPtrArray *sigs = padlock_job_get_signatures (jobs[i]);
      const PadlockSignature *s;
      g_autofree char *words = NULL;

      g_assert_no_error (padlock_job_get_error (jobs[i]));
      g_assert_nonnull (sigs);
      g_assert_cmpuint (sigs->len, ==, 1);
      s = sigs->pdata[0];
      words = padlock_signature_describe (s, FALSE);
      if (i == 0)
        {
          g_assert_cmpint (s->verdict, ==, PADLOCK_SIGNATURE_GOOD);
          g_assert_cmpstr (s->fingerprint, ==, alice_fpr);
          g_assert_cmpstr (words, ==, "Signed by Alice <alice@example.org>");
          g_assert_cmpint (s->created, >, 0);
          g_assert_null (s->also_claims);
        }
      else if (i == 2)
        {
          /* The row's words, for the user ID that is verified. */
          g_assert_cmpint (s->verdict, ==, PADLOCK_SIGNATURE_GOOD);
          g_assert_cmpstr (s->fingerprint, ==, mallory_fpr);
          g_assert_cmpstr (s->signer, ==, "Mallory <mallory@evil.example>");
          g_assert_cmpstr (s->signer_name, ==, "Mallory");
          g_assert_nonnull (s->also_claims);
          g_assert_cmpstr (s->also_claims[0], ==, "Alice <alice@example.org>");
          g_assert_null (s->also_claims[1]);
          g_assert_cmpstr (words, ==, "Signed by Mallory <mallory@evil.example>."
                                      " The key also claims to be Alice "
                                      "<alice@example.org> (not verified)");
        }
      else
        {
          g_assert_cmpint (s->verdict, ==, PADLOCK_SIGNATURE_UNKNOWN_KEY);
          g_assert_cmpstr (s->fingerprint, ==, carol_fpr);
          g_assert_nonnull (strstr (words, "unknown key"));
        }
      g_object_unref (jobs[i]);
    }
  assert_written (dir, "a.txt", "from Alice\n");
  assert_written (dir, "c.txt", "from Carol\n");
  assert_written (dir, "m.txt", "from Mallory\n");
}

/* Cleartext-signed files (gpg --clearsign): the text as signed, with a
 * dash-escaped line, every line ending LF and a final one, so that what
 * Padlock writes is this file again, octet for octet. */
#define NOTES "Meeting notes\n- bring the plan\n--- and the budget\nend\n"

/* gpg --clearsign in SIGNER_HOME by SIGNER of TEXT: DIR/NAME.asc; WORD
 * (not NULL) then changed to ALTERED (tg_clearsign). */
static char *
gpg_clearsign (TgHome *signer_home, const char *signer, const char *dir,
               const char *name, const char *text, const char *word,
               const char *altered)
{
  g_autofree char *file = g_strconcat (name, ".asc", NULL);
  g_autofree char *msg = tg_clearsign (signer_home, signer, text, word,
                                       altered);
  g_autoptr(GBytes) out = NULL;

  /* gpg escapes the lines that begin with a dash. */
  g_assert_nonnull (strstr (msg, "\n- - bring the plan\n"));
  out = g_bytes_new (msg, strlen (msg));
  return write_file (dir, file, out);
}

/* padlock --batch --decrypt of a file Alice clearsigned, with no
 * passphrase: its line, exit 0, the text equal to the file signed; again
 * (sorted by content this time): "notes (1).txt", notes.txt untouched,
 * nothing else written. */
static void
test_clearsigned_batch_good (void)
{
  g_autofree char *dir = tu_new_dir ("clearsigned-good");
  g_autofree char *path = gpg_clearsign (home, alice_fpr, dir, "notes.txt",
                                         NOTES, NULL, NULL);
  g_autofree char *line = g_strdup_printf ("verified notes.txt.asc -> "
                                           "notes.txt signature good %s "
                                           "\"Alice\\x20<alice@example.org>\"\n",
                                           alice_fpr);
  g_autofree char *line2 = g_strdup_printf ("verified notes.txt.asc -> "
                                            "\"notes\\x20(1).txt\" signature good "
                                            "%s \"Alice\\x20<alice@example.org>\"\n",
                                            alice_fpr);
  g_autofree char *out = NULL;
  g_autofree char *err = NULL;
  g_autofree char *listing = NULL;
  g_autofree char *original = g_build_filename (dir, "notes.txt", NULL);
  g_autoptr(GBytes) notes = g_bytes_new_static (NOTES, strlen (NOTES));

  check_batch (path, FALSE, dir, "notes.txt", NOTES, line, 0);
  g_assert_true (at_same_content (original, notes));
  /* Without --decrypt, and with notes.txt there already. */
  {
    const char *app = g_getenv ("PADLOCK_APP");
    g_autofree char *gnupghome = g_strconcat ("GNUPGHOME=", home->dir, NULL);
    const char *argv[] = { "env", gnupghome, app, "--batch", path, NULL };
    g_autoptr(GBytes) stdout_bytes = NULL;
    int status = -1;

    g_assert_true (tu_run (argv, NULL, &stdout_bytes, &err, &status));
    out = g_strndup (g_bytes_get_data (stdout_bytes, NULL),
                     g_bytes_get_size (stdout_bytes));
    g_test_message ("stdout: %s\nstderr: %s", out, err);
    g_assert_cmpint (status, ==, 0);
  }
  g_assert_cmpstr (out, ==, line2);
  g_assert_true (at_same_content (original, notes));
  assert_written (dir, "notes (1).txt", NOTES);
  listing = tu_list_dir (dir);
  g_assert_cmpstr (listing, ==, "notes (1).txt|notes.txt|notes.txt.asc");
}

/* One word of the text changed after signing: the line says bad, the
 * batch exits 1, and the text is written as it stands (the verdict is
 * the result's, as for a signed encrypted file). */
static void
test_clearsigned_batch_bad (void)
{
  g_autofree char *dir = tu_new_dir ("clearsigned-bad");
  g_autofree char *path = gpg_clearsign (home, alice_fpr, dir, "notes.txt",
                                         NOTES, "budget", "bridge");
  g_autofree char *line = g_strdup_printf ("verified notes.txt.asc -> "
                                           "notes.txt signature bad %s "
                                           "\"Alice\\x20<alice@example.org>\"\n",
                                           alice_fpr);
  g_autofree char *out = NULL;
  g_autofree char *err = NULL;

  g_assert_cmpint (run_batch (path, FALSE, &out, &err), ==, 1);
  g_test_message ("stdout: %s\nstderr: %s", out, err);
  g_assert_cmpstr (out, ==, line);
  g_assert_nonnull (strstr (err, "notes.txt.asc: Signature does not match: "
                                 "the file may have been altered after "
                                 "Alice signed it"));
  assert_written (dir, "notes.txt",
                  "Meeting notes\n- bring the plan\n--- and the bridge\nend\n");
}

/* Carol's key is not in Alice's keyring: unknown, with her fingerprint
 * (the issuer subpacket gpg writes); exit 1, as every "verified" line
 * whose signature is neither good nor not-certified (issue 34 §5: the
 * signature is all that was checked), the text written all the same. */
static void
test_clearsigned_batch_unknown (void)
{
  g_autofree char *dir = tu_new_dir ("clearsigned-unknown");
  g_autofree char *path = gpg_clearsign (carol_home, carol_fpr, dir,
                                         "carol.txt", NOTES, NULL, NULL);
  g_autofree char *line = g_strdup_printf ("verified carol.txt.asc -> "
                                           "carol.txt signature unknown-key "
                                           "%s\n", carol_fpr);

  check_batch (path, FALSE, dir, "carol.txt", NOTES, line, 1);
}

/* A job as the window makes one for a file it did not sniff (no
 * passphrase dialog is its way, but a "Decrypt…" with a passphrase still
 * ends here): the worker finds the cleartext, says so, and the verdict
 * is the result's. */
static void
test_clearsigned_job (void)
{
  g_autofree char *dir = tu_new_dir ("clearsigned-job");
  g_autofree char *path = gpg_clearsign (home, alice_fpr, dir, "notes.txt",
                                         NOTES, NULL, NULL);
  g_autoptr(GFile) file = g_file_new_for_path (path);
  g_autoptr(PadlockQueue) queue = padlock_queue_new ();
  g_autoptr(PadlockSecret) secret = padlock_secret_new (SKESK_PASSPHRASE);
  PadlockJobConfig config = { 0 };
  g_autoptr(PadlockJob) job = padlock_job_new (file, PADLOCK_DIRECTION_DECRYPT,
                                               &config);
  GPtrArray *sigs;
  const PadlockSignature *s;

  g_assert_false (padlock_job_get_clearsigned (job));
  padlock_job_set_secret (job, secret);
  padlock_job_set_verify_home (job, home->dir);
  padlock_queue_add (queue, job);
  g_assert_true (at_wait_queue_idle (queue, WAIT_MS));
  g_assert_no_error (padlock_job_get_error (job));
  g_assert_true (padlock_job_get_clearsigned (job));
  g_assert_cmpstr (padlock_job_get_output_name (job), ==, "notes.txt");
  g_assert_cmpint (padlock_job_get_plaintext_size (job), ==, strlen (NOTES));
  sigs = padlock_job_get_signatures (job);
  g_assert_nonnull (sigs);
  g_assert_cmpuint (sigs->len, ==, 1);
  s = sigs->pdata[0];
  g_assert_cmpint (s->verdict, ==, PADLOCK_SIGNATURE_GOOD);
  g_assert_cmpstr (s->fingerprint, ==, alice_fpr);
  assert_written (dir, "notes.txt", NOTES);
}

/* DIR/NAME: gpg OPTION (--detach-sign, -s) by Alice over DATA. */
static char *
gpg_sign_file (const char *dir, const char *name, const char *data,
               const char *option)
{
  g_autoptr(GBytes) in = g_bytes_new (data, strlen (data));
  g_autoptr(GBytes) out = NULL;

  g_assert_cmpint (tg_gpg (home, NULL, in, &out, "--output", "-", "-u",
                           alice_fpr, option, NULL), ==, 0);
  return write_file (dir, name, out);
}

/* A job as the window makes one for a plan CHECK_DETACHED or
 * CHECK_SIGNED (issue 34): by path, not sniffed, no passphrase nor keys;
 * done, its verdicts; the caller checks the rest. */
static PadlockJob *
run_check_job (const char *path)
{
  g_autoptr(GFile) file = g_file_new_for_path (path);
  g_autoptr(PadlockQueue) queue = padlock_queue_new ();
  PadlockJobConfig config = { 0 };
  PadlockJob *job = padlock_job_new (file, PADLOCK_DIRECTION_DECRYPT,
                                     &config);

  padlock_job_set_checks_only (job, TRUE);
  padlock_job_set_verify_home (job, home->dir);
  padlock_queue_add (queue, job);
  g_assert_true (at_wait_queue_idle (queue, WAIT_MS));
  return job;
}

static PadlockSignatureVerdict
only_verdict (PadlockJob *job)
{
  GPtrArray *sigs = padlock_job_get_signatures (job);
  const PadlockSignature *s;

  g_assert_nonnull (sigs);
  g_assert_cmpuint (sigs->len, ==, 1);
  s = sigs->pdata[0];
  g_assert_cmpstr (s->fingerprint, ==, alice_fpr);
  return s->verdict;
}

/* gpg --detach-sign: the data file beside the signature is read, nothing
 * is written (no output, the folder as it was), the verdict good; one
 * octet of the data changed, bad; the data file gone, the job fails
 * saying so. */
static void
test_detached_job (void)
{
  g_autofree char *dir = tu_new_dir ("detached-job");
  g_autofree char *data = g_build_filename (dir, "data.txt", NULL);
  g_autofree char *sig = gpg_sign_file (dir, "data.txt.sig", "from Alice\n",
                                        "--detach-sign");
  g_autoptr(PadlockJob) good = NULL;
  g_autoptr(PadlockJob) bad = NULL;
  g_autoptr(PadlockJob) missing = NULL;
  g_autofree char *listing = NULL;

  g_assert_true (g_file_set_contents (data, "from Alice\n", -1, NULL));
  good = run_check_job (sig);
  g_assert_no_error (padlock_job_get_error (good));
  g_assert_true (padlock_job_get_detached (good));
  g_assert_true (padlock_job_get_verifies (good));
  g_assert_null (padlock_job_get_output (good));
  g_assert_cmpstr (padlock_job_get_output_name (good), ==, "data.txt");
  g_assert_cmpint (only_verdict (good), ==, PADLOCK_SIGNATURE_GOOD);
  listing = tu_list_dir (dir);
  g_assert_cmpstr (listing, ==, "data.txt|data.txt.sig");

  g_assert_true (g_file_set_contents (data, "from Alicf\n", -1, NULL));
  bad = run_check_job (sig);
  g_assert_no_error (padlock_job_get_error (bad));
  g_assert_cmpint (only_verdict (bad), ==, PADLOCK_SIGNATURE_BAD);

  g_assert_cmpint (g_unlink (data), ==, 0);
  missing = run_check_job (sig);
  g_assert_cmpint (padlock_job_get_state (missing), ==, PADLOCK_JOB_FAILED);
  g_assert_cmpstr (padlock_job_get_error (missing)->message, ==,
                   "The signed file data.txt is not beside it. Drop both "
                   "together.");
}

/* A list's job as the window makes one for a plan CHECK_LIST: by path,
 * not sniffed, no passphrase nor keys. */
static PadlockJob *
run_list_job (const char *path)
{
  g_autoptr(GFile) file = g_file_new_for_path (path);
  g_autoptr(PadlockQueue) queue = padlock_queue_new ();
  PadlockJobConfig config = { 0 };
  PadlockJob *job = padlock_job_new (file, PADLOCK_DIRECTION_DECRYPT,
                                     &config);

  padlock_job_set_checks_list (job);
  padlock_job_set_verify_home (job, home->dir);
  padlock_queue_add (queue, job);
  g_assert_true (at_wait_queue_idle (queue, WAIT_MS));
  return job;
}

/* "HEX  NAME\n" for DATA, as sha256sum writes it. */
static char *
sum_line (const char *data, const char *name)
{
  g_autofree char *hex = g_compute_checksum_for_string (G_CHECKSUM_SHA256,
                                                        data, -1);

  return g_strdup_printf ("%s  %s\n", hex, name);
}

#define ISO "an image\n"
/* A name with U+202E RIGHT-TO-LEFT OVERRIDE: shown escaped. */
#define RLO_NAME "a\xe2\x80\xaeosi.txt"

/* A checksum list (issue 34 §3) as the window checks it: SHA256SUMS of
 * three files, one here, its signature beside it.  The list alone and
 * its signature alone each make the list's job: the signature good, the
 * file matching, the others counted, nothing written, and the row's
 * words; the file altered, the job fails naming it; the list changed by
 * one octet, the signature is bad and no file is checked; unsigned, it
 * is checked, saying nobody vouches for it; a name that could lie is
 * escaped. */
static void
test_list_job (void)
{
  g_autofree char *dir = tu_new_dir ("list-job");
  g_autofree char *iso = g_build_filename (dir, "debian-12.iso", NULL);
  g_autofree char *list = g_build_filename (dir, "SHA256SUMS", NULL);
  g_autofree char *l1 = sum_line (ISO, "debian-12.iso");
  g_autofree char *l2 = sum_line ("other\n", "debian-12-dvd.iso");
  g_autofree char *l3 = sum_line ("more\n", "debian-12-cd.iso");
  g_autofree char *text = g_strconcat (l1, l2, l3, NULL);
  g_autofree char *sig = gpg_sign_file (dir, "SHA256SUMS.gpg", text,
                                        "--detach-sign");
  const char *good_words = "SHA256SUMS: signed by Alice <alice@example.org> "
                           "· debian-12.iso matches";
  const char *inputs[] = { list, sig };
  PadlockChecksumsTotals t;

  g_assert_true (g_file_set_contents (iso, ISO, -1, NULL));
  g_assert_true (g_file_set_contents (list, text, -1, NULL));
  for (guint i = 0; i < G_N_ELEMENTS (inputs); i++)
    {
      g_autoptr(PadlockJob) job = run_list_job (inputs[i]);
      g_autofree char *words = NULL;
      g_autofree char *listing = NULL;

      g_test_message ("%s", inputs[i]);
      g_assert_no_error (padlock_job_get_error (job));
      g_assert_cmpint (padlock_job_get_state (job), ==, PADLOCK_JOB_DONE);
      g_assert_true (padlock_job_get_checks_list (job));
      g_assert_false (padlock_job_get_detached (job));
      g_assert_true (padlock_job_get_verifies (job));
      g_assert_null (padlock_job_get_output (job));
      g_assert_cmpstr (padlock_job_get_output_name (job), ==, "SHA256SUMS");
      g_assert_cmpint (only_verdict (job), ==, PADLOCK_SIGNATURE_GOOD);
      padlock_checksums_get_totals (padlock_job_get_checksums (job), &t);
      g_assert_cmpuint (t.n_ok, ==, 1);
      g_assert_cmpuint (t.n_not_here, ==, 2);
      g_assert_cmpuint (t.n_differ + t.n_unreadable + t.n_pending, ==, 0);
      /* It read the present file: its octets are the job's. */
      g_assert_cmpuint (padlock_job_get_bytes_done (job), ==, strlen (ISO));
      words = padlock_job_dup_list_verdict (job, FALSE);
      g_assert_cmpstr (words, ==, good_words);
      listing = tu_list_dir (dir);
      g_assert_cmpstr (listing, ==, "SHA256SUMS|SHA256SUMS.gpg|debian-12.iso");
    }

  /* The image altered: the job fails, naming it. */
  g_assert_true (g_file_set_contents (iso, "an imagf\n", -1, NULL));
  {
    g_autoptr(PadlockJob) job = run_list_job (list);
    g_autofree char *words = padlock_job_dup_list_verdict (job, FALSE);

    g_assert_cmpint (padlock_job_get_state (job), ==, PADLOCK_JOB_FAILED);
    g_assert_cmpstr (padlock_job_get_error (job)->message, ==,
                     "debian-12.iso does not match the signed checksum.");
    g_assert_cmpint (only_verdict (job), ==, PADLOCK_SIGNATURE_GOOD);
    g_assert_cmpstr (words, ==, "SHA256SUMS: signed by Alice "
                     "<alice@example.org> · debian-12.iso does not match the "
                     "signed checksum");
  }
  g_assert_true (g_file_set_contents (iso, ISO, -1, NULL));

  /* One octet of the list changed: bad, nothing checked. */
  {
    g_autofree char *changed = g_strdup (text);
    g_autoptr(PadlockJob) job = NULL;

    changed[0] = changed[0] == '0' ? '1' : '0';
    g_assert_true (g_file_set_contents (list, changed, -1, NULL));
    job = run_list_job (sig);
    g_assert_cmpint (padlock_job_get_state (job), ==, PADLOCK_JOB_FAILED);
    g_assert_true (g_error_matches (padlock_job_get_error (job),
                                    PADLOCK_ERROR, PADLOCK_ERROR_INTEGRITY));
    g_assert_cmpint (only_verdict (job), ==, PADLOCK_SIGNATURE_BAD);
    g_assert_null (padlock_job_get_checksums (job));
  }

  /* Unsigned, and a name with a bidi control. */
  g_assert_cmpint (g_unlink (sig), ==, 0);
  {
    g_autofree char *rlo = g_build_filename (dir, RLO_NAME, NULL);
    g_autofree char *line = sum_line ("rlo\n", RLO_NAME);
    g_autoptr(PadlockJob) job = NULL;
    g_autofree char *words = NULL;

    g_assert_true (g_file_set_contents (rlo, "rlo\n", -1, NULL));
    g_assert_true (g_file_set_contents (list, line, -1, NULL));
    job = run_list_job (list);
    g_assert_no_error (padlock_job_get_error (job));
    g_assert_cmpuint (padlock_job_get_signatures (job)->len, ==, 0);
    words = padlock_job_dup_list_verdict (job, FALSE);
    g_assert_cmpstr (words, ==, "SHA256SUMS is not signed: nobody vouches "
                     "for it · a\\u202Eosi.txt matches the list");
  }
}

/* gpg -s (signed, not encrypted): no passphrase, its data written as
 * the name less .gpg, the verdict good. */
static void
test_signed_only_job (void)
{
  g_autofree char *dir = tu_new_dir ("signed-only-job");
  g_autofree char *path = gpg_sign_file (dir, "note.txt.gpg", "from Alice\n",
                                         "-s");
  g_autoptr(PadlockJob) job = run_check_job (path);

  g_assert_no_error (padlock_job_get_error (job));
  g_assert_true (padlock_job_get_signed_only (job));
  g_assert_true (padlock_job_get_verifies (job));
  g_assert_cmpstr (padlock_job_get_output_name (job), ==, "note.txt");
  g_assert_cmpint (only_verdict (job), ==, PADLOCK_SIGNATURE_GOOD);
  assert_written (dir, "note.txt", "from Alice\n");
}

int
main (int argc, char **argv)
{
  int status;

  tu_init (&argc, &argv);
  g_test_add_func ("/app-sigs/batch/good", test_batch_good);
  g_test_add_func ("/app-sigs/batch/unknown-signer", test_batch_unknown);
  g_test_add_func ("/app-sigs/batch/not-certified", test_batch_not_certified);
  g_test_add_func ("/app-sigs/batch/bad", test_batch_bad);
  g_test_add_func ("/app-sigs/batch/two-faced", test_batch_two_faced);
  g_test_add_func ("/app-sigs/batch/forged-fields", test_batch_forged_fields);
  g_test_add_func ("/app-sigs/batch/not-valid", test_batch_not_valid);
  g_test_add_func ("/app-sigs/batch/policy", test_batch_policy);
  g_test_add_func ("/app-sigs/job/verdicts", test_job_verdicts);
  g_test_add_func ("/app-sigs/clearsigned/batch-good",
                   test_clearsigned_batch_good);
  g_test_add_func ("/app-sigs/clearsigned/batch-bad",
                   test_clearsigned_batch_bad);
  g_test_add_func ("/app-sigs/clearsigned/batch-unknown-signer",
                   test_clearsigned_batch_unknown);
  g_test_add_func ("/app-sigs/clearsigned/job", test_clearsigned_job);
  g_test_add_func ("/app-sigs/detached/job", test_detached_job);
  g_test_add_func ("/app-sigs/list/job", test_list_job);
  g_test_add_func ("/app-sigs/signed-only/job", test_signed_only_job);
  g_test_add_func ("/app-sigs/batch/sign-default", test_batch_sign_default);
  g_test_add_func ("/app-sigs/batch/sign-pinentry", test_batch_sign_pinentry);
  g_test_add_func ("/app-sigs/batch/sign-refused", test_batch_sign_refused);
  make_keys ();
  status = g_test_run ();
  g_clear_pointer (&home, tg_home_free);
  g_clear_pointer (&carol_home, tg_home_free);
  g_clear_pointer (&dave_home, tg_home_free);
  g_clear_pointer (&frank_home, tg_home_free);
  g_clear_pointer (&mallory_home, tg_home_free);
  return status;
}
