/* test-padlock-remove.c - removing a person's key (gpgme_op_delete_ext
 * without a secret), checked with gpg's own listing
 *
 * The user's home holds the user's key (with its secret) and Carol's
 * certificate, made in a home of her own.
 */
#include <string.h>

#include "app-testutil.h"
#include "gnupg-home.h"
#include "padlock-error.h"
#include "padlock-keyring.h"
#include "padlock-remove.h"

#define WAIT_MS 60000

typedef struct
{
  TgHome         *carol_home;
  TgHome         *home;      /* the user's */
  char           *carol;     /* fingerprints */
  char           *me;
  PadlockKeyring *keyring;
} Fixture;

static void
fixture_set_up (Fixture *f, gconstpointer data)
{
  f->carol_home = tg_home_new ();
  f->home = tg_home_new ();
  f->carol = tg_gen_encryption_key (f->carol_home, "Carol <carol@example.org>",
                                    "ed25519", "cv25519", "never", NULL);
  f->me = tg_gen_key (f->home, "Me <me@example.org>", "ed25519", "cert,sign",
                      "never", "", NULL);
  tg_import_cert (f->home, f->carol_home, f->carol);
  f->keyring = padlock_keyring_new (f->home->dir);
  at_wait_keyring_loaded (f->keyring, WAIT_MS);
  g_assert_cmpint (padlock_keyring_get_state (f->keyring), ==,
                   PADLOCK_KEYRING_READY);
}

static void
fixture_tear_down (Fixture *f, gconstpointer data)
{
  at_keyring_release (&f->keyring);
  g_clear_pointer (&f->carol_home, tg_home_free);
  g_clear_pointer (&f->home, tg_home_free);
  g_free (f->carol);
  g_free (f->me);
}

/* Whether gpg --list-keys (or, with SECRET, --list-secret-keys) lists FPR. */
static gboolean
gpg_lists (TgHome *home, const char *fpr, gboolean secret)
{
  return tg_gpg (home, NULL, NULL, NULL, "--with-colons",
                 secret ? "--list-secret-keys" : "--list-keys", fpr, NULL) == 0;
}

static GError *
remove_key (Fixture *f, const char *fpr)
{
  g_autoptr (GAsyncResult) result = NULL;
  GError *error = NULL;
  gboolean ok;

  padlock_keyring_remove_key_async (f->keyring, fpr, NULL, at_on_result, &result);
  g_assert_true (at_wait_until (at_has_result, &result, WAIT_MS));
  ok = padlock_keyring_remove_key_finish (f->keyring, result, &error);
  g_assert_true (ok == (error == NULL));
  return error;
}

static gboolean
carol_gone (gpointer data)
{
  Fixture *f = data;

  return padlock_keyring_find_key (f->keyring, f->carol, FALSE, NULL) == NULL;
}

/* Carol's key goes, from gpg's listing and then from the keyring's;
 * the user's stays. */
static void
test_removes_person (Fixture *f, gconstpointer data)
{
  g_autoptr (GError) error = NULL;

  g_assert_true (gpg_lists (f->home, f->carol, FALSE));
  error = remove_key (f, f->carol);
  g_assert_no_error (error);
  g_assert_false (gpg_lists (f->home, f->carol, FALSE));
  g_assert_true (gpg_lists (f->home, f->me, TRUE));
  g_assert_true (at_wait_until (carol_gone, f, WAIT_MS));
}

/* A key whose secret the user holds is refused, and stays whole. */
static void
test_refuses_own_key (Fixture *f, gconstpointer data)
{
  g_autoptr (GError) error = remove_key (f, f->me);

  g_assert_error (error, PADLOCK_ERROR, PADLOCK_ERROR_PUBLIC_KEY);
  g_assert_true (gpg_lists (f->home, f->me, FALSE));
  g_assert_true (gpg_lists (f->home, f->me, TRUE));
}

/* A key the keyring does not hold. */
static void
test_unknown_key (Fixture *f, gconstpointer data)
{
  g_autoptr (GError) error = remove_key (f, "0123456789ABCDEF0123456789ABCDEF01234567");

  g_assert_error (error, PADLOCK_ERROR, PADLOCK_ERROR_OTHER);
  g_assert_true (gpg_lists (f->home, f->carol, FALSE));
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add ("/remove/person", Fixture, NULL, fixture_set_up,
              test_removes_person, fixture_tear_down);
  g_test_add ("/remove/own-key", Fixture, NULL, fixture_set_up,
              test_refuses_own_key, fixture_tear_down);
  g_test_add ("/remove/unknown", Fixture, NULL, fixture_set_up,
              test_unknown_key, fixture_tear_down);
  return g_test_run ();
}
