/* test-padlock-certify.c - verifying a person's key (a local
 * certification through GPGME and gpg-agent) and forgetting it, checked
 * with gpg's own listing
 *
 * Each test has two homes with a real gpg-agent and the test pinentry:
 * Bob's, where gpg made his key (two user IDs, which a verification
 * certifies both), and the user's, with a key protected by a passphrase
 * (so that the agent's pinentry is asked) and Bob's certificate.
 */
#include <glib/gstdio.h>
#include <string.h>

#include "app-testutil.h"
#include "gnupg-home.h"
#include "padlock-certify.h"
#include "padlock-error.h"
#include "padlock-keyring.h"

#define WAIT_MS 60000
#define PASSPHRASE "correct horse"
#define BOB_UID "Bob <bob@example.org>"
#define BOB_WORK_UID "Bob Builder <bob@work.example>"

typedef struct
{
  TgHome         *bob_home;
  TgHome         *home;      /* the user's */
  char           *bob;       /* fingerprints */
  char           *me;
  PadlockKeyring *keyring;   /* the user's */
} Fixture;


static void
fixture_set_up (Fixture *f, gconstpointer data)
{
  f->bob_home = tg_home_new ();
  f->home = tg_home_new ();
  f->bob = tg_gen_encryption_key (f->bob_home, BOB_UID, "ed25519", "cv25519",
                                  "never", NULL);
  g_assert_cmpint (tg_gpg (f->bob_home, "", NULL, NULL, "--quick-add-uid",
                           f->bob, BOB_WORK_UID, NULL), ==, 0);
  f->me = tg_gen_key (f->home, "Me <me@example.org>", "ed25519", "cert,sign",
                      "never", PASSPHRASE, NULL);
  tg_import_cert (f->home, f->bob_home, f->bob);
  /* The agent keeps the passphrase a key was made with: forgotten, so
   * that certifying asks the pinentry. */
  tg_gpgconf (f->home, "--reload", "gpg-agent");
  f->keyring = padlock_keyring_new (f->home->dir);
  at_wait_keyring_loaded (f->keyring, WAIT_MS);
  g_assert_cmpint (padlock_keyring_get_state (f->keyring), ==,
                   PADLOCK_KEYRING_READY);
}

static void
fixture_tear_down (Fixture *f, gconstpointer data)
{
  at_keyring_release (&f->keyring);
  g_clear_pointer (&f->bob_home, tg_home_free);
  g_clear_pointer (&f->home, tg_home_free);
  g_free (f->bob);
  g_free (f->me);
}

/* The colon lines of gpg --list-keys --with-colons (or --list-sigs) for
 * FPR in HOME, as gpg itself says them. */
static char *
gpg_colons (TgHome *home, const char *command, const char *fpr)
{
  g_autoptr (GBytes) out = NULL;

  g_assert_cmpint (tg_gpg (home, NULL, NULL, &out, "--with-colons", command, fpr,
                           NULL), ==, 0);
  return g_strndup (g_bytes_get_data (out, NULL), g_bytes_get_size (out));
}

/* Field 2 (the validity) of each RECORD ("pub", "uid") line, joined:
 * "f", "ff", "-q"… */
static char *
gpg_validities (TgHome *home, const char *fpr, const char *record)
{
  g_autofree char *text = gpg_colons (home, "--list-keys", fpr);
  g_auto (GStrv) lines = g_strsplit (text, "\n", -1);
  GString *found = g_string_new (NULL);

  for (guint i = 0; lines[i]; i++)
    {
      g_auto (GStrv) fields = g_strsplit (lines[i], ":", -1);

      if (g_strv_length (fields) > 2 && g_str_equal (fields[0], record))
        g_string_append (found, fields[1][0] ? fields[1] : "_");
    }
  return g_string_free (found, FALSE);
}

/* How many certifications by KEY_ID gpg --list-sigs shows on FPR, and of
 * them in *LOCAL those marked not exportable (class "10l" … "13l"). */
static guint
gpg_certifications_by (TgHome *home, const char *fpr, const char *key_id,
                       guint *local)
{
  g_autofree char *text = gpg_colons (home, "--list-sigs", fpr);
  g_auto (GStrv) lines = g_strsplit (text, "\n", -1);
  guint n = 0;

  *local = 0;
  for (guint i = 0; lines[i]; i++)
    {
      g_auto (GStrv) fields = g_strsplit (lines[i], ":", -1);

      if (g_strv_length (fields) > 10 && g_str_equal (fields[0], "sig")
          && g_str_equal (fields[4], key_id))
        {
          n++;
          *local += g_str_has_suffix (fields[10], "l");
        }
    }
  return n;
}

/* How many signature packets by KEY_ID the certificate FPR holds as
 * `gpg --export` (with OPTIONS, or none) gives it, by gpg --list-packets. */
static guint
exported_signatures_by (TgHome *home, const char *fpr, const char *key_id,
                        const char *options)
{
  g_autoptr (GBytes) cert = NULL;
  g_autoptr (GBytes) listed = NULL;
  g_autofree char *text = NULL;
  g_autofree char *needle = g_strdup_printf ("KEYID %s", key_id);
  guint n = 0;

  if (options)
    g_assert_cmpint (tg_gpg (home, NULL, NULL, &cert, "--export-options",
                             options, "--export", fpr, NULL), ==, 0);
  else
    g_assert_cmpint (tg_gpg (home, NULL, NULL, &cert, "--export", fpr, NULL),
                     ==, 0);
  g_assert_cmpuint (g_bytes_get_size (cert), >, 0);
  g_assert_cmpint (tg_gpg (home, NULL, cert, &listed, "--list-packets", NULL),
                   ==, 0);
  /* ":signature packet: algo 22, keyid …" */
  text = g_ascii_strup (g_bytes_get_data (listed, NULL), g_bytes_get_size (listed));
  for (const char *p = text; (p = strstr (p, needle)); p++)
    n++;
  return n;
}

static GAsyncResult *
wait_result (GAsyncResult **result)
{
  g_assert_true (at_wait_until (at_has_result, result, WAIT_MS));
  return *result;
}

/* Certifies (waiting for the listing after it when it succeeds); the
 * error, NULL on success. */
static GError *
certify (Fixture *f, const char *fpr, const char *signer,
         GCancellable *cancellable)
{
  g_autoptr (GAsyncResult) result = NULL;
  GError *error = NULL;
  gboolean ok;

  padlock_keyring_certify_local_async (f->keyring, fpr, signer, cancellable,
                                       at_on_result, &result);
  ok = padlock_keyring_certify_local_finish (f->keyring, wait_result (&result),
                                             &error);
  g_assert_true (ok == (error == NULL));
  return error;
}

/* Forgets; how many certifications were deleted. */
static guint
forget (Fixture *f, const char *fpr)
{
  g_autoptr (GAsyncResult) result = NULL;
  g_autoptr (GError) error = NULL;
  guint deleted = G_MAXUINT;

  padlock_keyring_forget_local_async (f->keyring, fpr, NULL, at_on_result,
                                      &result);
  g_assert_true (padlock_keyring_forget_local_finish (f->keyring,
                                                      wait_result (&result),
                                                      &deleted, &error));
  g_assert_no_error (error);
  g_assert_cmpuint (deleted, !=, G_MAXUINT);
  return deleted;
}

/* Bob clearsigns a note; padlock --batch, in the user's home, says its
 * verdict word ("good", "not-certified"). */
static void
assert_batch_verdict (Fixture *f, const char *word)
{
  g_autofree char *dir = tu_new_dir ("certify-batch");
  g_autofree char *path = g_build_filename (dir, "note.txt.asc", NULL);
  g_autofree char *signed_text = tg_clearsign (f->bob_home, f->bob,
                                               "See you at noon.\n", NULL, NULL);
  g_autofree char *want = g_strdup_printf (" signature %s %s ", word, f->bob);
  const char *args[] = { path, NULL };
  g_autofree char *out = NULL;
  g_autofree char *err = NULL;
  int status;

  g_assert_true (g_file_set_contents (path, signed_text, -1, NULL));
  status = at_run_batch (f->home->dir, args, &out, &err);
  g_test_message ("stdout: %s\nstderr: %s", out, err);
  g_assert_cmpint (status, ==, 0);
  g_assert_nonnull (strstr (out, want));
}

static gboolean
bob_is_verified (gpointer data)
{
  Fixture *f = data;

  return padlock_key_is_verified (at_key_of (f->keyring, f->bob));
}

static gboolean
bob_is_not_verified (gpointer data)
{
  return !bob_is_verified (data);
}

/* What the user's keyring (once a listing after the change ended: the
 * one _finish starts, or the file monitor's) and gpg's listing say of
 * Bob: not verified, as on import (VALIDITY: gpg's pub field then). */
static void
assert_not_verified (Fixture *f, const char *validity)
{
  g_autofree char *now = gpg_validities (f->home, f->bob, "pub");
  g_autofree char *uids = gpg_validities (f->home, f->bob, "uid");
  PadlockKey *key;
  guint local;

  g_assert_true (at_wait_until (bob_is_not_verified, f, WAIT_MS));
  key = at_key_of (f->keyring, f->bob);

  g_assert_cmpstr (now, ==, validity);
  g_assert_cmpuint (strlen (now), ==, 1);
  g_assert_nonnull (strchr ("-q_", now[0]));
  g_assert_null (strchr (uids, 'f'));
  g_assert_false (padlock_key_is_verified (key));
  g_assert_cmpint (padlock_key_get_validity (key), <, PADLOCK_KEY_VALIDITY_MARGINAL);
  g_assert_cmpuint (gpg_certifications_by (f->home, f->bob, f->me + 24, &local),
                    ==, 0);
}

static void
assert_verified (Fixture *f)
{
  g_autofree char *pub = gpg_validities (f->home, f->bob, "pub");
  g_autofree char *uids = gpg_validities (f->home, f->bob, "uid");
  PadlockKey *key;

  g_assert_true (at_wait_until (bob_is_verified, f, WAIT_MS));
  key = at_key_of (f->keyring, f->bob);
  g_assert_cmpstr (pub, ==, "f");
  g_assert_cmpstr (uids, ==, "ff");
  g_assert_true (padlock_key_is_verified (key));
  g_assert_cmpint (padlock_key_get_validity (key), ==, PADLOCK_KEY_VALIDITY_FULL);
  for (guint i = 0; i < padlock_key_get_n_user_ids (key); i++)
    g_assert_true (padlock_user_id_is_verified (padlock_key_get_user_id (key, i)));
}

/* Verify, forget, verify again: each time gpg's listing, the keyring's
 * and --batch agree; the certification is local, made by the agent with
 * the user's key (the pinentry asked), and forgetting it asks nothing. */
static void
test_certify_and_forget (Fixture *f, gconstpointer data)
{
  g_autofree char *before = gpg_validities (f->home, f->bob, "pub");
  const char *my_id = f->me + 24;
  g_autoptr (GError) error = NULL;
  guint local, asked;

  assert_not_verified (f, before);
  assert_batch_verdict (f, "not-certified");

  tg_home_set_pinentry (f->home, PASSPHRASE);
  error = certify (f, f->bob, f->me, NULL);
  g_assert_no_error (error);
  asked = tg_home_pinentry_count (f->home);
  g_assert_cmpuint (asked, ==, 1);
  assert_verified (f);
  assert_batch_verdict (f, "good");
  /* One certification a user ID, not exportable. */
  g_assert_cmpuint (gpg_certifications_by (f->home, f->bob, my_id, &local), ==, 2);
  g_assert_cmpuint (local, ==, 2);
  g_assert_cmpuint (exported_signatures_by (f->home, f->bob, my_id, NULL), ==, 0);
  g_assert_cmpuint (exported_signatures_by (f->home, f->bob, my_id,
                                            "export-local-sigs"), ==, 2);

  /* Again: already certified, nothing new. */
  error = certify (f, f->bob, NULL, NULL);
  g_assert_no_error (error);
  g_assert_cmpuint (gpg_certifications_by (f->home, f->bob, my_id, &local), ==, 2);

  g_assert_cmpuint (forget (f, f->bob), ==, 2);
  g_assert_cmpuint (tg_home_pinentry_count (f->home), ==, asked);
  assert_not_verified (f, before);
  assert_batch_verdict (f, "not-certified");
  /* Nothing left to forget. */
  g_assert_cmpuint (forget (f, f->bob), ==, 0);

  /* Deleted, not revoked: gpg certifies it again. */
  error = certify (f, f->bob, NULL, NULL);
  g_assert_no_error (error);
  assert_verified (f);
}

/* The pinentry cancelled: PADLOCK_ERROR_CANCELLED, and nothing changed. */
static void
test_pinentry_cancelled (Fixture *f, gconstpointer data)
{
  g_autofree char *before = gpg_validities (f->home, f->bob, "pub");
  g_autoptr (GError) error = NULL;

  tg_home_set_pinentry (f->home, "cancel");
  error = certify (f, f->bob, f->me, NULL);
  g_assert_error (error, PADLOCK_ERROR, PADLOCK_ERROR_CANCELLED);
  g_assert_cmpuint (tg_home_pinentry_count (f->home), ==, 1);
  padlock_keyring_reload (f->keyring);
  at_wait_keyring_loaded (f->keyring, WAIT_MS);
  assert_not_verified (f, before);
}

static gboolean
pinentry_is_up (gpointer data)
{
  return tg_home_pinentry_count (data) > 0;
}

/* Cancelled while the pinentry is up: PADLOCK_ERROR_CANCELLED, nothing
 * stored, also once the pinentry went away. */
static void
test_cancelled (Fixture *f, gconstpointer data)
{
  g_autofree char *before = gpg_validities (f->home, f->bob, "pub");
  g_autoptr (GCancellable) cancellable = g_cancellable_new ();
  g_autoptr (GAsyncResult) result = NULL;
  g_autoptr (GError) error = NULL;

  tg_home_set_pinentry (f->home, "hang");
  padlock_keyring_certify_local_async (f->keyring, f->bob, NULL, cancellable,
                                       at_on_result, &result);
  g_assert_true (at_wait_until (pinentry_is_up, f->home, WAIT_MS));
  g_cancellable_cancel (cancellable);
  g_assert_false (padlock_keyring_certify_local_finish (f->keyring,
                                                        wait_result (&result),
                                                        &error));
  g_assert_error (error, PADLOCK_ERROR, PADLOCK_ERROR_CANCELLED);
  tg_home_release_pinentry (f->home);
  /* The agent's answer to a gpg that is gone changes nothing. */
  g_usleep (G_USEC_PER_SEC / 2);
  padlock_keyring_reload (f->keyring);
  at_wait_keyring_loaded (f->keyring, WAIT_MS);
  assert_not_verified (f, before);

  /* A forget cancelled before it starts deletes nothing either. */
  g_clear_object (&result);
  g_clear_error (&error);
  padlock_keyring_forget_local_async (f->keyring, f->bob, cancellable,
                                      at_on_result, &result);
  g_assert_false (padlock_keyring_forget_local_finish (f->keyring,
                                                       wait_result (&result),
                                                       NULL, &error));
  g_assert_error (error, PADLOCK_ERROR, PADLOCK_ERROR_CANCELLED);
}

/* An exportable certification (`gpg --quick-sign-key`) is the user's
 * public word: forgetting leaves it, and the key stays verified; a
 * local one beside it by another key of the user's goes. */
static void
test_forget_keeps_exportable (Fixture *f, gconstpointer data)
{
  g_autofree char *other = tg_gen_key (f->home, "Me Too <me2@example.org>",
                                       "ed25519", "cert,sign", "never", "",
                                       NULL);
  guint local;

  g_assert_cmpint (tg_gpg (f->home, PASSPHRASE, NULL, NULL, "-u", f->me,
                           "--quick-sign-key", f->bob, NULL), ==, 0);
  g_assert_cmpint (tg_gpg (f->home, "", NULL, NULL, "-u", other,
                           "--quick-lsign-key", f->bob, NULL), ==, 0);
  padlock_keyring_reload (f->keyring);
  at_wait_keyring_loaded (f->keyring, WAIT_MS);
  g_assert_cmpuint (gpg_certifications_by (f->home, f->bob, other + 24, &local),
                    ==, 2);
  g_assert_cmpuint (local, ==, 2);

  g_assert_cmpuint (forget (f, f->bob), ==, 2);
  g_assert_cmpuint (gpg_certifications_by (f->home, f->bob, other + 24, &local),
                    ==, 0);
  g_assert_cmpuint (gpg_certifications_by (f->home, f->bob, f->me + 24, &local),
                    ==, 2);
  g_assert_cmpuint (local, ==, 0);
  assert_verified (f);
}

/* What cannot be certified, said before gpg asks anything. */
static void
test_refused (Fixture *f, gconstpointer data)
{
  const char *nobody = "0123456789ABCDEF0123456789ABCDEF01234567";
  g_autoptr (GAsyncResult) result = NULL;
  g_autoptr (GError) error = NULL;

  error = certify (f, nobody, NULL, NULL);
  g_assert_error (error, PADLOCK_ERROR, PADLOCK_ERROR_OTHER);
  g_assert_nonnull (strstr (error->message, nobody));
  g_clear_error (&error);

  /* Bob's certificate is not a key of the user's. */
  error = certify (f, f->me, f->bob, NULL);
  g_assert_error (error, PADLOCK_ERROR, PADLOCK_ERROR_PUBLIC_KEY);
  g_clear_error (&error);

  padlock_keyring_forget_local_async (f->keyring, nobody, NULL, at_on_result,
                                      &result);
  g_assert_false (padlock_keyring_forget_local_finish (f->keyring,
                                                       wait_result (&result),
                                                       NULL, &error));
  g_assert_error (error, PADLOCK_ERROR, PADLOCK_ERROR_OTHER);
  g_assert_cmpuint (tg_home_pinentry_count (f->home), ==, 0);
}

/* A user without a key of their own cannot verify anyone. */
static void
test_no_key_of_mine (void)
{
  g_autoptr (TgHome) bob_home = tg_home_new ();
  g_autoptr (TgHome) home = tg_home_new ();
  g_autofree char *bob = tg_gen_encryption_key (bob_home, BOB_UID, "ed25519",
                                                "cv25519", "never", NULL);
  g_autoptr (PadlockKeyring) keyring = NULL;
  g_autoptr (GAsyncResult) result = NULL;
  g_autoptr (GError) error = NULL;

  tg_import_cert (home, bob_home, bob);
  keyring = padlock_keyring_new (home->dir);
  at_wait_keyring_loaded (keyring, WAIT_MS);
  padlock_keyring_certify_local_async (keyring, bob, NULL, NULL, at_on_result,
                                       &result);
  g_assert_false (padlock_keyring_certify_local_finish (keyring,
                                                        wait_result (&result),
                                                        &error));
  g_assert_error (error, PADLOCK_ERROR, PADLOCK_ERROR_PUBLIC_KEY);
}

#define ADD(path, func) \
  g_test_add (path, Fixture, NULL, fixture_set_up, func, fixture_tear_down)

int
main (int argc, char **argv)
{
  tu_init (&argc, &argv);
  ADD ("/certify/certify-and-forget", test_certify_and_forget);
  ADD ("/certify/pinentry-cancelled", test_pinentry_cancelled);
  ADD ("/certify/cancelled", test_cancelled);
  ADD ("/certify/forget-keeps-exportable", test_forget_keeps_exportable);
  ADD ("/certify/refused", test_refused);
  g_test_add_func ("/certify/no-key-of-mine", test_no_key_of_mine);
  return g_test_run ();
}
