/* test-padlock-keyring.c - the GnuPG keyring through GPGME, on keys gpg made
 *
 * One home with keys of every kind the listing must tell apart is made
 * once (key generation is the slow part) and only read; the tests that
 * change a keyring get a home of their own.
 */
#include <glib/gstdio.h>
#include <string.h>

#include "app-testutil.h"
#include "gnupg-home.h"
#include "padlock-error.h"
#include "padlock-keyring.h"

#define WAIT_MS 60000

static struct
{
  TgHome *home;
  char   *alice;  /* rsa3072 + rsa3072 encryption subkey */
  char   *bob;    /* ed25519 + cv25519 */
  char   *carol;  /* nistp256 + nistp256 */
  char   *dave;   /* ed25519 + cv25519, expired in 2021 */
  char   *eve;    /* ed25519 + cv25519, revoked */
  char   *frank;  /* a certificate only: the secret key is elsewhere */
  GBytes *frank_cert; /* armored */
} keys;

static void
make_keys (void)
{
  g_autoptr (TgHome) elsewhere = tg_home_new ();

  keys.home = tg_home_new ();
  keys.alice = tg_gen_key (keys.home, "Alice <alice@example.org>", "rsa3072",
                           "cert,sign", "never", "", NULL);
  tg_add_key (keys.home, keys.alice, "rsa3072", "encr", "never", "", NULL);
  keys.bob = tg_gen_key (keys.home, "Bob Builder <bob@example.org>", "ed25519",
                         "cert,sign", "never", "", NULL);
  tg_add_key (keys.home, keys.bob, "cv25519", "encr", "never", "", NULL);
  keys.carol = tg_gen_key (keys.home, "Carol <carol@example.org>", "nistp256",
                           "cert,sign", "never", "", NULL);
  tg_add_key (keys.home, keys.carol, "nistp256", "encr", "never", "", NULL);
  keys.dave = tg_gen_key (keys.home, "Dave <dave@example.org>", "ed25519",
                          "cert,sign", "1y", "", "20200101T000000");
  tg_add_key (keys.home, keys.dave, "cv25519", "encr", "1y", "", "20200101T000100");
  keys.eve = tg_gen_key (keys.home, "Eve <eve@example.org>", "ed25519",
                         "cert,sign", "never", "", NULL);
  tg_add_key (keys.home, keys.eve, "cv25519", "encr", "never", "", NULL);
  tg_revoke (keys.home, keys.eve);
  keys.frank = tg_gen_key (elsewhere, "Frank <frank@example.net>", "ed25519",
                           "cert,sign", "never", "", NULL);
  tg_add_key (elsewhere, keys.frank, "cv25519", "encr", "never", "", NULL);
  g_assert_cmpint (tg_gpg (elsewhere, NULL, NULL, &keys.frank_cert, "--armor",
                           "--export", keys.frank, NULL), ==, 0);
  g_assert_cmpint (tg_gpg (keys.home, NULL, keys.frank_cert, NULL, "--import", NULL),
                   ==, 0);
}


static PadlockKeyring *
open_keyring (const char *dir)
{
  PadlockKeyring *keyring = padlock_keyring_new (dir);

  g_assert_cmpint (padlock_keyring_get_state (keyring), ==, PADLOCK_KEYRING_LOADING);
  at_wait_keyring_loaded (keyring, WAIT_MS);
  return keyring;
}

static void
check_usable (PadlockKey *key, const char *algorithm, const char *email)
{
  g_autofree char *refusal = padlock_key_dup_refusal (key);
  const PadlockSubkey *sub;

  g_assert_null (refusal);
  g_assert_cmpstr (padlock_key_get_email (key), ==, email);
  g_assert_true (padlock_key_get_can_encrypt (key));
  g_assert_false (padlock_key_get_revoked (key));
  g_assert_false (padlock_key_get_expired (key));
  g_assert_cmpuint (padlock_key_get_n_subkeys (key), ==, 2);
  sub = padlock_key_get_subkey (key, 0);
  g_assert_true (sub->can_sign && sub->can_certify && !sub->can_encrypt);
  sub = padlock_key_get_subkey (key, 1);
  g_assert_cmpstr (sub->algorithm, ==, algorithm);
  g_assert_true (sub->can_encrypt && !sub->can_sign);
  g_assert_true (padlock_subkey_can_encrypt_now (sub));
}

static void
test_list (void)
{
  g_autoptr (PadlockKeyring) keyring = open_keyring (keys.home->dir);
  g_autoptr (GDateTime) expiry = NULL;
  g_autofree char *refusal = NULL;
  const char *fprs[] = { keys.alice, keys.bob, keys.carol, keys.dave, keys.eve,
                         keys.frank };
  PadlockKey *key;

  g_assert_cmpint (padlock_keyring_get_state (keyring), ==, PADLOCK_KEYRING_READY);
  g_assert_cmpuint (g_list_model_get_n_items (G_LIST_MODEL (keyring)), ==, 6);
  g_assert_true (g_list_model_get_item_type (G_LIST_MODEL (keyring)) == PADLOCK_TYPE_KEY);

  /* Keygrips per subkey, as gpg --with-keygrip lists them. */
  for (guint i = 0; i < G_N_ELEMENTS (fprs); i++)
    {
      g_auto (GStrv) grips = tg_keygrips (keys.home, fprs[i]);

      key = at_key_of (keyring, fprs[i]);
      g_assert_cmpuint (padlock_key_get_n_subkeys (key), ==, g_strv_length (grips));
      for (guint j = 0; grips[j]; j++)
        g_assert_cmpstr (padlock_key_get_subkey (key, j)->keygrip, ==, grips[j]);
      g_assert_cmpuint (strlen (padlock_key_get_key_id (key)), ==, 16);
      g_assert_true (g_str_has_suffix (fprs[i], padlock_key_get_key_id (key)));
    }

  key = at_key_of (keyring, keys.alice);
  check_usable (key, "rsa3072", "alice@example.org");
  g_assert_cmpstr (padlock_key_get_name (key), ==, "Alice");
  g_assert_cmpstr (padlock_key_get_label (key), ==, "Alice <alice@example.org>");
  g_assert_cmpint (padlock_key_get_validity (key), ==, PADLOCK_KEY_VALIDITY_ULTIMATE);
  g_assert_true (padlock_key_is_verified (key));
  g_assert_true (padlock_key_get_has_secret (key));
  g_assert_false (padlock_key_get_is_card_key (key));
  g_assert_cmpint (padlock_key_get_expires (key), ==, 0);
  check_usable (at_key_of (keyring, keys.bob), "cv25519", "bob@example.org");
  check_usable (at_key_of (keyring, keys.carol), "nistp256", "carol@example.org");

  /* Expired a year after 2020-01-01, by gpg's faked clock. */
  key = at_key_of (keyring, keys.dave);
  g_assert_true (padlock_key_get_expired (key));
  g_assert_false (padlock_key_get_can_encrypt (key));
  expiry = g_date_time_new_from_unix_utc (padlock_key_get_expires (key));
  g_assert_cmpint (g_date_time_get_year (expiry), ==, 2020);
  refusal = padlock_key_dup_refusal (key);
  g_assert_cmpstr (refusal, ==, "The key expired on 2020-12-31");
  g_clear_pointer (&refusal, g_free);
  g_assert_true (padlock_key_get_subkey (key, 1)->expired);

  key = at_key_of (keyring, keys.eve);
  g_assert_true (padlock_key_get_revoked (key));
  g_assert_false (padlock_key_get_can_encrypt (key));
  refusal = padlock_key_dup_refusal (key);
  g_assert_cmpstr (refusal, ==, "The key is revoked");
  g_clear_pointer (&refusal, g_free);

  /* Someone else's certificate: can be picked, after a warning. */
  key = at_key_of (keyring, keys.frank);
  g_assert_false (padlock_key_get_has_secret (key));
  g_assert_false (padlock_key_get_subkey (key, 1)->has_secret);
  g_assert_true (padlock_key_get_can_encrypt (key));
  g_assert_false (padlock_key_is_verified (key));
  g_assert_cmpint (padlock_key_get_validity (key), <, PADLOCK_KEY_VALIDITY_FULL);
  refusal = padlock_key_dup_refusal (key);
  g_assert_null (refusal);
}

/* Issue 32: a key certified as Mallory whose primary user ID says Alice
 * is named Mallory, with Mallory's validity, and "also claims" Alice;
 * the user's own key claims nothing more. */
static void
test_named_user_id (void)
{
  g_autoptr (TgHome) owner = tg_home_new ();
  g_autoptr (TgHome) user = tg_home_new ();
  g_autofree char *victor = tg_gen_key (user, "Victor <victor@example.org>",
                                        "ed25519", "cert,sign", "never", "",
                                        NULL);
  g_autofree char *fpr = tg_two_faced_key (owner, user,
                                           "Alice <alice@example.org>",
                                           "Mallory <mallory@evil.example>");
  g_autoptr (PadlockKeyring) keyring = open_keyring (user->dir);
  PadlockKey *key = at_key_of (keyring, fpr);
  const PadlockUserId *named = padlock_key_get_named_user_id (key);
  const PadlockUserId *primary = padlock_key_get_user_id (key, 0);
  g_auto (GStrv) claims = padlock_key_dup_unverified_claims (key);
  g_auto (GStrv) mine = NULL;

  /* gpg lists the primary user ID first: the one nobody certified. */
  g_assert_cmpuint (padlock_key_get_n_user_ids (key), ==, 2);
  g_assert_cmpstr (primary->text, ==, "Alice <alice@example.org>");
  g_assert_cmpint (primary->validity, <, PADLOCK_KEY_VALIDITY_MARGINAL);
  g_assert_false (padlock_user_id_is_verified (primary));
  g_assert_nonnull (named);
  g_assert_cmpstr (named->text, ==, "Mallory <mallory@evil.example>");
  g_assert_cmpint (named->validity, ==, PADLOCK_KEY_VALIDITY_FULL);
  g_assert_true (padlock_user_id_is_verified (named));
  g_assert_cmpstr (padlock_key_get_label (key), ==, "Mallory <mallory@evil.example>");
  g_assert_cmpstr (padlock_key_get_name (key), ==, "Mallory");
  g_assert_cmpstr (padlock_key_get_email (key), ==, "mallory@evil.example");
  g_assert_cmpint (padlock_key_get_validity (key), ==, PADLOCK_KEY_VALIDITY_FULL);
  g_assert_true (padlock_key_is_verified (key));
  g_assert_cmpuint (g_strv_length (claims), ==, 1);
  g_assert_cmpstr (claims[0], ==, "Alice <alice@example.org>");

  key = at_key_of (keyring, victor);
  mine = padlock_key_dup_unverified_claims (key);
  g_assert_cmpstr (padlock_key_get_label (key), ==, "Victor <victor@example.org>");
  g_assert_cmpint (padlock_key_get_validity (key), ==, PADLOCK_KEY_VALIDITY_ULTIMATE);
  g_assert_cmpuint (g_strv_length (mine), ==, 0);
}

/* Nobody certified either user ID: the key is named by its primary, as
 * before, not verified, and also claims the other. */
static void
test_named_unverified (void)
{
  g_autoptr (TgHome) owner = tg_home_new ();
  g_autoptr (TgHome) user = tg_home_new ();
  g_autofree char *fpr = tg_gen_encryption_key (owner, "Alice <alice@example.org>",
                                                "ed25519", "cv25519", "never",
                                                NULL);
  g_autoptr (PadlockKeyring) keyring = NULL;
  g_auto (GStrv) claims = NULL;
  PadlockKey *key;

  g_assert_cmpint (tg_gpg (owner, "", NULL, NULL, "--quick-add-uid", fpr,
                           "Mallory <mallory@evil.example>", NULL), ==, 0);
  g_assert_cmpint (tg_gpg (owner, "", NULL, NULL, "--quick-set-primary-uid",
                           fpr, "Alice <alice@example.org>", NULL), ==, 0);
  tg_import_cert (user, owner, fpr);
  keyring = open_keyring (user->dir);
  key = at_key_of (keyring, fpr);
  claims = padlock_key_dup_unverified_claims (key);
  g_assert_cmpstr (padlock_key_get_label (key), ==, "Alice <alice@example.org>");
  g_assert_false (padlock_key_is_verified (key));
  g_assert_cmpuint (g_strv_length (claims), ==, 1);
  g_assert_cmpstr (claims[0], ==, "Mallory <mallory@evil.example>");
}

static void
assert_search (PadlockKeyring *keyring, const char *query, const char *first,
               guint n)
{
  g_autoptr (GPtrArray) found = padlock_keyring_search (keyring, query);

  g_assert_cmpuint (found->len, ==, n);
  if (first)
    g_assert_cmpstr (padlock_key_get_fingerprint (found->pdata[0]), ==, first);
}

static void
test_search (void)
{
  g_autoptr (PadlockKeyring) keyring = open_keyring (keys.home->dir);
  const PadlockSubkey *subkey = NULL;
  PadlockKey *bob = at_key_of (keyring, keys.bob);
  const char *bob_sub_id = padlock_key_get_subkey (bob, 1)->key_id;
  g_autofree char *with_0x = g_strdup_printf ("0x%s", padlock_key_get_key_id (bob));
  g_autofree char *lower = g_ascii_strdown (keys.carol + 20, -1);

  assert_search (keyring, "ali", keys.alice, 1);
  assert_search (keyring, "BUILDER", keys.bob, 1);
  assert_search (keyring, "example.org", keys.alice, 5);
  assert_search (keyring, "@example.", keys.alice, 6);
  assert_search (keyring, "frank@example.net", keys.frank, 1);
  assert_search (keyring, "", keys.alice, 6);
  assert_search (keyring, "nobody", NULL, 0);
  assert_search (keyring, with_0x, keys.bob, 1);
  assert_search (keyring, lower, keys.carol, 1);
  /* A subkey's ID finds its key. */
  assert_search (keyring, bob_sub_id, keys.bob, 1);

  /* As a PKESK names its recipient: by the encryption subkey's ID. */
  g_assert_true (padlock_keyring_find_key (keyring, bob_sub_id, TRUE, &subkey) == bob);
  g_assert_true (subkey == padlock_key_get_subkey (bob, 1));
  g_assert_nonnull (padlock_keyring_find_key (keyring, keys.frank, FALSE, NULL));
  g_assert_null (padlock_keyring_find_key (keyring, keys.frank, TRUE, NULL));
  g_assert_null (padlock_keyring_find_key (keyring, "0123456789ABCDEF", FALSE, NULL));
}

static void
set_gpg_conf (TgHome *home, const char *text)
{
  g_autofree char *path = tg_home_path (home, "gpg.conf");

  g_assert_true (g_file_set_contents (path, text, -1, NULL));
}

static void
test_default_key (void)
{
  g_autoptr (PadlockKeyring) keyring = NULL;

  /* No default-key: the first secret key that can encrypt. */
  keyring = open_keyring (keys.home->dir);
  g_assert_cmpstr (padlock_key_get_fingerprint (padlock_keyring_get_default_key (keyring)),
                   ==, keys.alice);
  g_clear_object (&keyring);

  set_gpg_conf (keys.home, "default-key bob@example.org\n");
  keyring = open_keyring (keys.home->dir);
  g_assert_cmpstr (padlock_key_get_fingerprint (padlock_keyring_get_default_key (keyring)),
                   ==, keys.bob);
  g_clear_object (&keyring);

  /* An expired default cannot take a message: the first one that can. */
  set_gpg_conf (keys.home, "default-key dave@example.org\n");
  keyring = open_keyring (keys.home->dir);
  g_assert_cmpstr (padlock_key_get_fingerprint (padlock_keyring_get_default_key (keyring)),
                   ==, keys.alice);
  g_clear_object (&keyring);
  set_gpg_conf (keys.home, "");
}

static GAsyncResult *
wait_result (GAsyncResult **result)
{
  g_assert_true (at_wait_until (at_has_result, result, WAIT_MS));
  return *result;
}

static void
test_export (void)
{
  g_autoptr (PadlockKeyring) keyring = open_keyring (keys.home->dir);
  g_autoptr (TgHome) other = tg_home_new ();
  g_autoptr (GAsyncResult) result = NULL;
  g_autoptr (GBytes) exported = NULL;
  g_autoptr (GBytes) listed = NULL;
  g_autoptr (GError) error = NULL;
  const char *both[] = { keys.alice, keys.bob, NULL };
  const char *unknown[] = { keys.alice, "0123456789ABCDEF0123456789ABCDEF01234567", NULL };
  const guint8 *octets;

  padlock_keyring_export_async (keyring, both, NULL, at_on_result, &result);
  exported = padlock_keyring_export_finish (keyring, wait_result (&result), &error);
  g_assert_no_error (error);
  g_assert_nonnull (exported);
  /* Binary, starting with a public-key packet (tag 6). */
  octets = g_bytes_get_data (exported, NULL);
  g_assert_cmpuint (g_bytes_get_size (exported), >, 400);
  g_assert_true ((octets[0] & 0xc0) && ((octets[0] & 0x40) ? (octets[0] & 0x3f) == 6
                                        : ((octets[0] >> 2) & 0xf) == 6));

  /* gpg takes it, and finds both keys with their encryption subkeys. */
  g_assert_cmpint (tg_gpg (other, NULL, exported, NULL, "--import", NULL), ==, 0);
  g_assert_cmpint (tg_gpg (other, NULL, NULL, &listed, "--with-colons", "--list-keys",
                           NULL), ==, 0);
  g_assert_nonnull (g_strstr_len (g_bytes_get_data (listed, NULL),
                                  g_bytes_get_size (listed), keys.alice));
  g_assert_nonnull (g_strstr_len (g_bytes_get_data (listed, NULL),
                                  g_bytes_get_size (listed), keys.bob));
  g_assert_null (g_strstr_len (g_bytes_get_data (listed, NULL),
                               g_bytes_get_size (listed), keys.carol));
  g_clear_object (&result);
  g_clear_pointer (&listed, g_bytes_unref);
  g_assert_cmpint (tg_gpg (other, NULL, NULL, &listed, "--with-colons", "--list-keys",
                           "bob@example.org", NULL), ==, 0);
  g_assert_nonnull (g_strstr_len (g_bytes_get_data (listed, NULL),
                                  g_bytes_get_size (listed), ":e:"));

  /* A key the keyring does not hold is an error, not an omission. */
  padlock_keyring_export_async (keyring, unknown, NULL, at_on_result, &result);
  g_assert_null (padlock_keyring_export_finish (keyring, wait_result (&result), &error));
  g_assert_error (error, PADLOCK_ERROR, PADLOCK_ERROR_OTHER);
  g_assert_nonnull (strstr (error->message, unknown[1]));
}

/* How many signature packets by KEY_ID (16 hex digits) DATA holds, by
 * gpg --list-packets. */
static guint
count_signatures_by (TgHome *home, GBytes *data, const char *key_id)
{
  g_autoptr (GBytes) listed = NULL;
  g_autofree char *text = NULL;
  g_autofree char *needle = g_strdup_printf ("KEYID %s", key_id);
  guint n = 0;

  g_assert_cmpint (tg_gpg (home, NULL, data, &listed, "--list-packets", NULL), ==, 0);
  /* ":signature packet: algo 22, keyid …"; a key packet says "keyid:". */
  text = g_ascii_strup (g_bytes_get_data (listed, NULL), g_bytes_get_size (listed));
  for (const char *p = text; (p = strstr (p, needle)); p++)
    n++;
  return n;
}

/* Minimal: the certificate without the certifications others made. */
static void
test_export_minimal (void)
{
  g_autoptr (TgHome) home = tg_home_new ();
  g_autoptr (PadlockKeyring) keyring = NULL;
  g_autoptr (GAsyncResult) result = NULL;
  g_autoptr (GBytes) full = NULL;
  g_autoptr (GBytes) minimal = NULL;
  g_autoptr (GError) error = NULL;
  g_autofree char *me = tg_gen_key (home, "Me <me@example.org>", "ed25519",
                                    "default", "never", "", NULL);
  const char *frank[] = { keys.frank, NULL };
  const char *my_id = me + 24;

  g_assert_cmpint (tg_gpg (home, NULL, keys.frank_cert, NULL, "--import", NULL), ==, 0);
  g_assert_cmpint (tg_gpg (home, NULL, NULL, NULL, "--quick-sign-key", keys.frank, NULL),
                   ==, 0);
  g_assert_cmpint (tg_gpg (home, NULL, NULL, &full, "--export", keys.frank, NULL), ==, 0);
  g_assert_cmpuint (count_signatures_by (home, full, my_id), ==, 1);

  keyring = open_keyring (home->dir);
  /* Certified by the user now: verified. */
  g_assert_true (padlock_key_is_verified (at_key_of (keyring, keys.frank)));
  padlock_keyring_export_async (keyring, frank, NULL, at_on_result, &result);
  minimal = padlock_keyring_export_finish (keyring, wait_result (&result), &error);
  g_assert_no_error (error);
  g_assert_cmpuint (count_signatures_by (home, minimal, my_id), ==, 0);
  g_assert_cmpuint (count_signatures_by (home, minimal, keys.frank + 24), >=, 2);
  g_assert_cmpuint (g_bytes_get_size (minimal), <, g_bytes_get_size (full));
}

static void
test_import (void)
{
  g_autoptr (TgHome) home = tg_home_new ();
  g_autoptr (PadlockKeyring) keyring = open_keyring (home->dir);
  g_autoptr (PadlockKeyringImport) import = NULL;
  g_autoptr (GAsyncResult) result = NULL;
  g_autoptr (GError) error = NULL;
  g_autofree char *path = tg_home_path (home, "frank.asc");
  g_autofree char *junk_path = tg_home_path (home, "junk.asc");
  g_autoptr (GFile) file = g_file_new_for_path (path);
  g_autoptr (GFile) junk = g_file_new_for_path (junk_path);

  g_assert_cmpint (padlock_keyring_get_state (keyring), ==, PADLOCK_KEYRING_EMPTY);
  g_assert_cmpuint (g_list_model_get_n_items (G_LIST_MODEL (keyring)), ==, 0);
  g_assert_null (padlock_keyring_get_default_key (keyring));
  g_assert_true (g_file_set_contents (path, g_bytes_get_data (keys.frank_cert, NULL),
                                      g_bytes_get_size (keys.frank_cert), NULL));

  padlock_keyring_import_async (keyring, file, NULL, at_on_result, &result);
  import = padlock_keyring_import_finish (keyring, wait_result (&result), &error);
  g_assert_no_error (error);
  g_assert_cmpuint (import->considered, ==, 1);
  g_assert_cmpuint (import->imported, ==, 1);
  g_assert_cmpuint (import->unchanged, ==, 0);
  g_assert_cmpuint (import->secret_imported, ==, 0);
  g_assert_cmpuint (g_strv_length (import->new_fingerprints), ==, 1);
  g_assert_cmpstr (import->new_fingerprints[0], ==, keys.frank);
  at_wait_keyring_loaded (keyring, WAIT_MS);
  g_assert_cmpint (padlock_keyring_get_state (keyring), ==, PADLOCK_KEYRING_READY);
  g_assert_cmpuint (g_list_model_get_n_items (G_LIST_MODEL (keyring)), ==, 1);
  at_key_of (keyring, keys.frank);
  /* A certificate is not a key of mine. */
  g_assert_null (padlock_keyring_get_default_key (keyring));

  /* Again: nothing new. */
  g_clear_object (&result);
  g_clear_pointer (&import, padlock_keyring_import_free);
  padlock_keyring_import_async (keyring, file, NULL, at_on_result, &result);
  import = padlock_keyring_import_finish (keyring, wait_result (&result), &error);
  g_assert_no_error (error);
  g_assert_cmpuint (import->imported, ==, 0);
  g_assert_cmpuint (import->unchanged, ==, 1);
  g_assert_cmpuint (g_strv_length (import->new_fingerprints), ==, 0);

  /* Not a certificate. */
  g_clear_object (&result);
  g_clear_pointer (&import, padlock_keyring_import_free);
  g_assert_true (g_file_set_contents (junk_path, "not a key\n", -1, NULL));
  padlock_keyring_import_async (keyring, junk, NULL, at_on_result, &result);
  import = padlock_keyring_import_finish (keyring, wait_result (&result), &error);
  g_assert_null (import);
  g_assert_error (error, PADLOCK_ERROR, PADLOCK_ERROR_MALFORMED);
}

static gboolean
has_n_keys (gpointer data)
{
  PadlockKeyring *keyring = data;

  return g_list_model_get_n_items (G_LIST_MODEL (keyring)) == 2
         && padlock_keyring_get_state (keyring) == PADLOCK_KEYRING_READY;
}

static gboolean
has_3_keys (gpointer data)
{
  return g_list_model_get_n_items (G_LIST_MODEL (data)) == 3;
}

static void
count_changes (GListModel *model, guint position, guint removed, guint added,
               guint *changes)
{
  (*changes)++;
}

static void
test_monitor (void)
{
  g_autoptr (TgHome) home = tg_home_new ();
  g_autoptr (PadlockKeyring) keyring = NULL;
  g_autofree char *first = NULL;
  g_autofree char *second = NULL;
  guint changes = 0;

  first = tg_gen_key (home, "First <first@example.org>", "ed25519", "default",
                      "never", "", NULL);
  keyring = open_keyring (home->dir);
  g_assert_cmpuint (g_list_model_get_n_items (G_LIST_MODEL (keyring)), ==, 1);
  g_signal_connect (keyring, "items-changed", G_CALLBACK (count_changes), &changes);

  /* gpg imports a certificate while the keyring is open (pubring.kbx
   * only: no secret key changes): it appears. */
  g_assert_cmpint (tg_gpg (home, NULL, keys.frank_cert, NULL, "--import", NULL), ==, 0);
  g_assert_true (at_wait_until (has_n_keys, keyring, WAIT_MS));
  g_assert_cmpuint (changes, >=, 1);
  at_key_of (keyring, keys.frank);

  /* And a new secret key (private-keys-v1.d, then pubring.kbx). */
  second = tg_gen_key (home, "Second <second@example.org>", "ed25519", "default",
                       "never", "", NULL);
  g_assert_true (at_wait_until (has_3_keys, keyring, WAIT_MS));
  at_key_of (keyring, first);
  g_assert_true (padlock_key_get_has_secret (at_key_of (keyring, second)));
}

/* The owner lets go of the keyring while a listing is under way: the
 * keyring goes at once, its monitors with it; the listing's gpg ends on
 * its own, and its keys are dropped when it returns.  A listing's task
 * used to hold the keyring, whose monitor then listed the home again
 * after a test had removed it (gpg made the home again, and its agent
 * outlived the test: "Bail out! gpg-agent ... outlived gpgconf --kill
 * all", 3 runs of padlock-mykey in 72 with eight at once). */
static void
test_let_go (void)
{
  g_autoptr (TgHome) home = tg_home_new ();
  PadlockKeyring *keyring = open_keyring (home->dir);
  gpointer gone = keyring;

  g_object_add_weak_pointer (G_OBJECT (keyring), &gone);
  padlock_keyring_reload (keyring);
  g_object_unref (keyring);
  g_assert_null (gone);

  /* The listing returns to no keyring (under ASan, a use after free
   * if it did not know). */
  tu_wait_gnupg_clients (home->dir);
  for (guint i = 0; i < 50; i++)
    {
      while (g_main_context_iteration (NULL, FALSE))
        ;
      g_usleep (10 * 1000);
    }
}

static gboolean
is_ready (gpointer data)
{
  return padlock_keyring_get_state (data) == PADLOCK_KEYRING_READY;
}

static void
test_no_home (void)
{
  g_autoptr (TgHome) home = tg_home_new ();
  g_autoptr (PadlockKeyring) keyring = NULL;

  /* Said so, and not created behind the user's back. */
  tg_home_remove (home);
  keyring = open_keyring (home->dir);
  g_assert_cmpint (padlock_keyring_get_state (keyring), ==, PADLOCK_KEYRING_NO_HOME);
  g_assert_cmpuint (g_list_model_get_n_items (G_LIST_MODEL (keyring)), ==, 0);
  g_assert_null (padlock_keyring_get_error (keyring));
  g_assert_false (g_file_test (home->dir, G_FILE_TEST_EXISTS));

  /* The user runs gpg for the first time (which creates ~/.gnupg; with
   * --homedir it does not): the keyring follows. */
  g_assert_cmpint (g_mkdir (home->dir, 0700), ==, 0);
  g_assert_cmpint (tg_gpg (home, NULL, keys.frank_cert, NULL, "--import", NULL), ==, 0);
  g_assert_true (at_wait_until (is_ready, keyring, WAIT_MS));
  g_assert_cmpuint (g_list_model_get_n_items (G_LIST_MODEL (keyring)), ==, 1);
  at_key_of (keyring, keys.frank);
}

int
main (int argc, char **argv)
{
  int status;

  tu_init (&argc, &argv);
  g_test_add_func ("/keyring/no-home", test_no_home);
  g_test_add_func ("/keyring/import", test_import);
  g_test_add_func ("/keyring/monitor", test_monitor);
  g_test_add_func ("/keyring/let-go", test_let_go);
  g_test_add_func ("/keyring/list", test_list);
  g_test_add_func ("/keyring/named-user-id", test_named_user_id);
  g_test_add_func ("/keyring/named-unverified", test_named_unverified);
  g_test_add_func ("/keyring/search", test_search);
  g_test_add_func ("/keyring/default-key", test_default_key);
  g_test_add_func ("/keyring/export", test_export);
  g_test_add_func ("/keyring/export-minimal", test_export_minimal);
  make_keys ();
  status = g_test_run ();
  g_clear_pointer (&keys.home, tg_home_free);
  return status;
}
