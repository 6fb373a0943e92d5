/* test-padlock-mykey.c - the user's own key (padlock-mykey): made,
 * exported, backed up and extended through GPGME and a real gpg-agent,
 * whose test pinentry gives the passphrase; checked with gpg's own
 * listing and by gpg in other homes.
 */
#include <glib/gstdio.h>
#include <string.h>

#include "app-testutil.h"
#include "gnupg-home.h"
#include "padlock-error.h"
#include "padlock-keyring.h"
#include "padlock-mykey.h"

#define WAIT_MS 120000
#define PASSPHRASE "correct horse battery"
#define DAY ((gint64) 24 * 3600)

typedef struct
{
  TgHome         *home;
  PadlockKeyring *keyring;
} Fixture;

static void
fixture_set_up (Fixture *f, gconstpointer data)
{
  f->home = tg_home_new ();
  f->keyring = padlock_keyring_new (f->home->dir);
  at_wait_keyring_loaded (f->keyring, WAIT_MS);
}

static void
fixture_tear_down (Fixture *f, gconstpointer data)
{
  at_keyring_release (&f->keyring);
  g_clear_pointer (&f->home, tg_home_free);
}

static GAsyncResult *
wait_result (GAsyncResult **result)
{
  g_assert_true (at_wait_until (at_has_result, result, WAIT_MS));
  return *result;
}

static PadlockMyKeyCreated *
create (Fixture *f, const char *name, const char *email, gint64 lifetime,
        GCancellable *cancellable, GError **error)
{
  g_autoptr (GAsyncResult) result = NULL;

  padlock_my_key_create_async (f->keyring, name, email, lifetime, cancellable,
                               at_on_result, &result);
  return padlock_my_key_create_finish (f->keyring, wait_result (&result), error);
}

static GBytes *
export (Fixture *f, const char *fpr, gboolean secret, GError **error)
{
  g_autoptr (GAsyncResult) result = NULL;

  padlock_my_key_export_async (f->keyring, fpr, secret, NULL, at_on_result,
                               &result);
  return padlock_my_key_export_finish (f->keyring, wait_result (&result), error);
}

static gint64
field_time (GPtrArray *records, guint i, guint field)
{
  char **fields = g_ptr_array_index (records, i);

  return g_ascii_strtoll (fields[field], NULL, 10);
}

static const char *
field (GPtrArray *records, guint i, guint field)
{
  return ((char **) g_ptr_array_index (records, i))[field];
}

static void
assert_near (gint64 value, gint64 wanted)
{
  g_assert_cmpint (value, >=, wanted - DAY);
  g_assert_cmpint (value, <=, wanted + DAY);
}

static void
test_user_id (void)
{
  struct { const char *name, *email, *uid; } cases[] = {
    { "Alice", "alice@example.org", "Alice <alice@example.org>" },
    { "  Alice  ", " alice@example.org ", "Alice <alice@example.org>" },
    { "Alice", "", "Alice" },
    { "", "alice@example.org", "alice@example.org" },
    { "", "", NULL },
    { "Alice", "alice", NULL },
    { "Alice", "alice@example", NULL },
    { "Alice", "a@b@example.org", NULL },
    { "Alice", "al ice@example.org", NULL },
    { "Alice\nKey-Type: RSA", "alice@example.org", NULL },
    { "Alice", "alice@example.org\n%commit", NULL },
    { "Al\u202Eice", "alice@example.org", NULL },
    { "Alice <evil@example.org>", "alice@example.org", NULL },
  };

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_autoptr (GError) error = NULL;
      g_autofree char *uid = padlock_my_key_user_id (cases[i].name,
                                                     cases[i].email, &error);

      g_assert_cmpstr (uid, ==, cases[i].uid);
      if (!cases[i].uid)
        g_assert_error (error, PADLOCK_ERROR, PADLOCK_ERROR_OTHER);
    }
}

static void
test_format_fingerprint (void)
{
  g_autofree char *text = padlock_my_key_format_fingerprint (
    "0x7d68369a9faec3b4981f7dcf2cd06e3a7469ffd4");

  g_assert_cmpstr (text, ==, "7D68 369A 9FAE C3B4 981F\n7DCF 2CD0 6E3A 7469 FFD4");
}

/* Made with the pinentry's passphrase: Ed25519 that signs and
 * certifies, a Curve25519 subkey that encrypts, both expiring in three
 * years; the revocation certificate where gpg keeps it. */
static void
test_create (Fixture *f, gconstpointer data)
{
  g_autoptr (PadlockMyKeyCreated) created = NULL;
  g_autoptr (GError) error = NULL;
  g_autoptr (GPtrArray) sec = NULL, ssb = NULL, uid = NULL;
  gint64 now = g_get_real_time () / G_USEC_PER_SEC;
  g_autofree char *rev = NULL;

  g_assert_cmpint (padlock_keyring_get_state (f->keyring), ==,
                   PADLOCK_KEYRING_EMPTY);
  g_assert_false (padlock_my_key_has_any (f->keyring));
  tg_home_set_pinentry (f->home, PASSPHRASE);
  created = create (f, "Alice Example", "alice@example.org",
                    PADLOCK_MY_KEY_DEFAULT_LIFETIME, NULL, &error);
  g_assert_no_error (error);
  g_assert_nonnull (created);
  g_assert_cmpuint (strlen (created->fingerprint), ==, 40);
  /* New passphrase, then again. */
  g_assert_cmpuint (tg_home_pinentry_count (f->home), >=, 1);

  sec = tg_colon_records (f->home, "--list-secret-keys", created->fingerprint, "sec");
  ssb = tg_colon_records (f->home, "--list-secret-keys", created->fingerprint, "ssb");
  uid = tg_colon_records (f->home, "--list-secret-keys", created->fingerprint, "uid");
  g_assert_cmpuint (sec->len, ==, 1);
  g_assert_cmpuint (ssb->len, ==, 1);
  g_assert_cmpuint (uid->len, ==, 1);
  g_assert_cmpstr (field (sec, 0, 16), ==, "ed25519");
  g_assert_cmpstr (field (ssb, 0, 16), ==, "cv25519");
  g_assert_cmpstr (field (ssb, 0, 11), ==, "e");
  g_assert_true (strchr (field (sec, 0, 11), 's')
                 && strchr (field (sec, 0, 11), 'c'));
  g_assert_cmpstr (field (uid, 0, 9), ==, "Alice Example <alice@example.org>");
  assert_near (field_time (sec, 0, 6), now + 3 * 365 * DAY);
  assert_near (field_time (ssb, 0, 6), now + 3 * 365 * DAY);

  rev = g_strdup_printf ("%s/openpgp-revocs.d/%s.rev", f->home->dir,
                         created->fingerprint);
  g_assert_cmpstr (created->revocation_path, ==, rev);
  g_assert_true (g_file_test (rev, G_FILE_TEST_IS_REGULAR));

  /* The keyring lists it anew: the user now has a key. */
  at_wait_keyring_loaded (f->keyring, WAIT_MS);
  g_assert_true (padlock_my_key_has_any (f->keyring));
  g_assert_null (padlock_my_key_find_expiring (f->keyring, now));
}

/* "Never", under Advanced: neither key expires. */
static void
test_create_never (Fixture *f, gconstpointer data)
{
  g_autoptr (PadlockMyKeyCreated) created = NULL;
  g_autoptr (GError) error = NULL;
  g_autoptr (GPtrArray) sec = NULL, ssb = NULL, uid = NULL;

  tg_home_set_pinentry (f->home, PASSPHRASE);
  created = create (f, "", "bob@example.org", 0, NULL, &error);
  g_assert_no_error (error);
  sec = tg_colon_records (f->home, "--list-keys", created->fingerprint, "pub");
  ssb = tg_colon_records (f->home, "--list-keys", created->fingerprint, "sub");
  uid = tg_colon_records (f->home, "--list-keys", created->fingerprint, "uid");
  g_assert_cmpstr (field (sec, 0, 6), ==, "");
  g_assert_cmpstr (field (ssb, 0, 6), ==, "");
  g_assert_cmpstr (field (uid, 0, 9), ==, "bob@example.org");
}

/* A cancelled pinentry, a bad user ID, a cancel while the pinentry is
 * up: clear errors, no key, no hang. */
static gboolean
pinentry_is_up (gpointer data)
{
  return tg_home_pinentry_count (data) > 0;
}

static void
test_create_refused (Fixture *f, gconstpointer data)
{
  g_autoptr (GCancellable) cancellable = g_cancellable_new ();
  g_autoptr (GAsyncResult) result = NULL;
  GError *error = NULL;
  gint64 start = g_get_monotonic_time ();

  tg_home_set_pinentry (f->home, "cancel");
  g_assert_null (create (f, "Alice", "alice@example.org",
                         PADLOCK_MY_KEY_DEFAULT_LIFETIME, NULL, &error));
  g_assert_error (error, PADLOCK_ERROR, PADLOCK_ERROR_CANCELLED);
  g_clear_error (&error);
  g_assert_cmpint (g_get_monotonic_time () - start, <, 30 * G_USEC_PER_SEC);

  g_assert_null (create (f, "Alice", "not an address", 0, NULL, &error));
  g_assert_error (error, PADLOCK_ERROR, PADLOCK_ERROR_OTHER);
  g_clear_error (&error);

  tg_home_set_pinentry (f->home, "hang");
  padlock_my_key_create_async (f->keyring, "Alice", "alice@example.org", 0,
                               cancellable, at_on_result, &result);
  g_assert_true (at_wait_until (pinentry_is_up, f->home, WAIT_MS));
  g_cancellable_cancel (cancellable);
  g_assert_null (padlock_my_key_create_finish (f->keyring, wait_result (&result),
                                               &error));
  g_assert_error (error, PADLOCK_ERROR, PADLOCK_ERROR_CANCELLED);
  g_clear_error (&error);
  tg_home_release_pinentry (f->home);
  g_usleep (G_USEC_PER_SEC / 2);

  /* gpg lists no key, secret or public. */
  padlock_keyring_reload (f->keyring);
  at_wait_keyring_loaded (f->keyring, WAIT_MS);
  g_assert_false (padlock_my_key_has_any (f->keyring));
  g_assert_cmpint (padlock_keyring_get_state (f->keyring), ==,
                   PADLOCK_KEYRING_EMPTY);
}

/* The public key, armored, imports into another home; the secret backup
 * (the agent asks for the passphrase) imports into a fresh one, which
 * then decrypts what was encrypted to the key. */
static void
test_export (Fixture *f, gconstpointer data)
{
  g_autoptr (PadlockMyKeyCreated) created = NULL;
  g_autoptr (GError) error = NULL;
  g_autoptr (GBytes) public = NULL, secret = NULL, plain = NULL;
  g_autoptr (TgHome) other = tg_home_new ();
  g_autoptr (TgHome) fresh = tg_home_new ();
  g_autoptr (GPtrArray) pub = NULL, sec = NULL;
  g_autofree char *dir = tu_new_dir ("mykey-export");
  g_autofree char *path = NULL;
  guint asked;

  tg_home_set_pinentry (f->home, PASSPHRASE);
  created = create (f, "Alice", "alice@example.org",
                    PADLOCK_MY_KEY_DEFAULT_LIFETIME, NULL, &error);
  g_assert_no_error (error);

  public = export (f, created->fingerprint, FALSE, &error);
  g_assert_no_error (error);
  g_assert_true (g_str_has_prefix (g_bytes_get_data (public, NULL),
                                   "-----BEGIN PGP PUBLIC KEY BLOCK-----"));
  g_assert_cmpint (tg_gpg (other, NULL, public, NULL, "--import", NULL), ==, 0);
  pub = tg_colon_records (other, "--list-keys", created->fingerprint, "pub");
  g_assert_cmpuint (pub->len, ==, 1);

  /* The backup asks for the passphrase (forgotten first). */
  tg_gpgconf (f->home, "--reload", "gpg-agent");
  asked = tg_home_pinentry_count (f->home);
  secret = export (f, created->fingerprint, TRUE, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (tg_home_pinentry_count (f->home), >, asked);
  g_assert_true (g_str_has_prefix (g_bytes_get_data (secret, NULL),
                                   "-----BEGIN PGP PRIVATE KEY BLOCK-----"));
  g_assert_cmpint (tg_gpg (fresh, PASSPHRASE, secret, NULL, "--import", NULL),
                   ==, 0);
  sec = tg_colon_records (fresh, "--list-secret-keys", created->fingerprint, "sec");
  g_assert_cmpuint (sec->len, ==, 1);
  path = tg_encrypt_file (other, dir, "note.txt", "for Alice only\n", NULL,
                          created->fingerprint, NULL);
  plain = tg_gpg_decrypt_file (fresh, path, PASSPHRASE);
  g_assert_nonnull (plain);
  g_assert_cmpmem (g_bytes_get_data (plain, NULL), g_bytes_get_size (plain),
                   "for Alice only\n", 15);
  tu_remove_tree (dir);
}

/* A cancelled pinentry fails the backup, and a key not held is said. */
static void
test_export_refused (Fixture *f, gconstpointer data)
{
  g_autofree char *fpr = tg_gen_key (f->home, "Alice <alice@example.org>",
                                     "ed25519", "cert,sign", "never", PASSPHRASE,
                                     NULL);
  g_autoptr (GBytes) bytes = NULL;
  GError *error = NULL;

  tg_gpgconf (f->home, "--reload", "gpg-agent");
  tg_home_set_pinentry (f->home, "cancel");
  bytes = export (f, fpr, TRUE, &error);
  g_assert_null (bytes);
  g_assert_error (error, PADLOCK_ERROR, PADLOCK_ERROR_CANCELLED);
  g_clear_error (&error);

  bytes = export (f, "0123456789ABCDEF0123456789ABCDEF01234567", FALSE, &error);
  g_assert_null (bytes);
  g_assert_error (error, PADLOCK_ERROR, PADLOCK_ERROR_OTHER);
  g_clear_error (&error);
}

static gint64
extend (Fixture *f, const char *fpr, GError **error)
{
  g_autoptr (GAsyncResult) result = NULL;

  padlock_my_key_extend_async (f->keyring, fpr, NULL, at_on_result, &result);
  return padlock_my_key_extend_finish (f->keyring, wait_result (&result), error);
}

/* FPR as the keyring lists it after this moment (a listing already
 * under way may have begun before gpg changed the key: one more). */
static PadlockKey *
find_key (Fixture *f, const char *fpr)
{
  padlock_keyring_reload (f->keyring);
  at_wait_keyring_loaded (f->keyring, WAIT_MS);
  padlock_keyring_reload (f->keyring);
  at_wait_keyring_loaded (f->keyring, WAIT_MS);
  return padlock_keyring_find_key (f->keyring, fpr, FALSE, NULL);
}

/* A key that expires in 20 days is expiring soon; Extend moves its
 * primary's and its subkey's expiry two years from now. */
static void
test_extend (Fixture *f, gconstpointer data)
{
  gint64 now = g_get_real_time () / G_USEC_PER_SEC;
  g_autofree char *fpr = tg_gen_key (f->home, "Alice <alice@example.org>",
                                     "ed25519", "cert,sign", "20d", PASSPHRASE,
                                     NULL);
  g_autoptr (PadlockKey) expiring = NULL;
  g_autoptr (GPtrArray) pub = NULL, sub = NULL;
  g_autoptr (GError) error = NULL;
  PadlockKey *key;
  gint64 expires;

  tg_add_key (f->home, fpr, "cv25519", "encr", "20d", PASSPHRASE, NULL);
  key = find_key (f, fpr);
  g_assert_nonnull (key);
  g_assert_true (padlock_my_key_expires_soon (key, now));
  g_assert_false (padlock_my_key_expires_soon (key, now - 20 * DAY));
  expiring = padlock_my_key_find_expiring (f->keyring, now);
  g_assert_true (expiring == key);

  tg_gpgconf (f->home, "--reload", "gpg-agent");
  tg_home_set_pinentry (f->home, PASSPHRASE);
  expires = extend (f, fpr, &error);
  g_assert_no_error (error);
  assert_near (expires, now + 2 * 365 * DAY);
  /* Asked once: the agent keeps it for the subkeys' run. */
  g_assert_cmpuint (tg_home_pinentry_count (f->home), ==, 1);
  pub = tg_colon_records (f->home, "--list-keys", fpr, "pub");
  sub = tg_colon_records (f->home, "--list-keys", fpr, "sub");
  assert_near (field_time (pub, 0, 6), now + 2 * 365 * DAY);
  assert_near (field_time (sub, 0, 6), now + 2 * 365 * DAY);

  key = find_key (f, fpr);
  g_assert_false (padlock_my_key_expires_soon (key, now));
  g_assert_null (padlock_my_key_find_expiring (f->keyring, now));
  /* Never shortened: a key that expires in three years keeps its date,
   * and gpg is not run (nothing is asked). */
  g_free (fpr);
  fpr = tg_gen_key (f->home, "Later <later@example.org>", "ed25519",
                    "cert,sign", "3y", PASSPHRASE, NULL);
  g_clear_pointer (&pub, g_ptr_array_unref);
  pub = tg_colon_records (f->home, "--list-keys", fpr, "pub");
  find_key (f, fpr);
  tg_gpgconf (f->home, "--reload", "gpg-agent");
  g_assert_cmpint (extend (f, fpr, &error), ==, field_time (pub, 0, 6));
  g_assert_no_error (error);
  g_assert_cmpuint (tg_home_pinentry_count (f->home), ==, 1);
}

/* A key made 400 days ago for a year has expired: it is said, and
 * Extend brings it back; a key that is fine beside it silences it. */
static void
test_expired (Fixture *f, gconstpointer data)
{
  gint64 now = g_get_real_time () / G_USEC_PER_SEC;
  g_autofree char *then = g_strdup_printf ("%" G_GINT64_FORMAT, now - 400 * DAY);
  g_autofree char *fpr = tg_gen_key (f->home, "Old <old@example.org>", "ed25519",
                                     "cert,sign", "1y", PASSPHRASE, then);
  g_autoptr (PadlockKey) expiring = NULL;
  g_autoptr (GError) error = NULL;
  g_autofree char *other = NULL;
  PadlockKey *key;

  key = find_key (f, fpr);
  g_assert_true (padlock_key_get_expired (key));
  expiring = padlock_my_key_find_expiring (f->keyring, now);
  g_assert_true (expiring == key);

  /* Cancelled pinentry: a clear error, and the key as it was. */
  tg_gpgconf (f->home, "--reload", "gpg-agent");
  tg_home_set_pinentry (f->home, "cancel");
  g_assert_cmpint (extend (f, fpr, &error), ==, -1);
  g_assert_error (error, PADLOCK_ERROR, PADLOCK_ERROR_CANCELLED);
  g_clear_error (&error);
  g_assert_true (padlock_key_get_expired (find_key (f, fpr)));

  tg_home_set_pinentry (f->home, PASSPHRASE);
  assert_near (extend (f, fpr, &error), now + 2 * 365 * DAY);
  g_assert_no_error (error);
  key = find_key (f, fpr);
  g_assert_false (padlock_key_get_expired (key));

  /* Soon again (on a clock moved forward), but a new key beside it is
   * the one in use. */
  g_assert_nonnull (padlock_my_key_find_expiring (f->keyring,
                                                  now + 2 * 365 * DAY - DAY));
  other = tg_gen_key (f->home, "New <new@example.org>", "ed25519", "cert,sign",
                      "never", "", NULL);
  find_key (f, other);
  g_assert_null (padlock_my_key_find_expiring (f->keyring,
                                               now + 2 * 365 * DAY - DAY));
}

#define ADD(path, func) \
  g_test_add (path, Fixture, NULL, fixture_set_up, func, fixture_tear_down)

int
main (int argc, char **argv)
{
  tu_init (&argc, &argv);
  g_test_add_func ("/mykey/user-id", test_user_id);
  g_test_add_func ("/mykey/format-fingerprint", test_format_fingerprint);
  ADD ("/mykey/create", test_create);
  ADD ("/mykey/create-never", test_create_never);
  ADD ("/mykey/create-refused", test_create_refused);
  ADD ("/mykey/export", test_export);
  ADD ("/mykey/export-refused", test_export_refused);
  ADD ("/mykey/extend", test_extend);
  ADD ("/mykey/expired", test_expired);
  return g_test_run ();
}
