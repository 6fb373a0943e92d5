/* test-padlock-import.c - importing certificates from memory (pasted
 * armor, a lookup's data) into a real GnuPG home, and the sentence that
 * says what changed
 *
 * The keys are made once in a home of their own ("elsewhere", standing
 * for the people who send them); each test imports into a fresh, empty
 * home through padlock_keyring_import_bytes_async and checks the result
 * against `gpg --list-keys --with-colons` of that home.
 */
#include <glib/gstdio.h>
#include <string.h>

#include "app-testutil.h"
#include "gnupg-home.h"
#include "padlock-error.h"
#include "padlock-keyring.h"

#define WAIT_MS 60000
/* U+2068 FIRST STRONG ISOLATE, U+2069 POP DIRECTIONAL ISOLATE: around
 * every name the window shows (padlock_name_display). */
#define FSI "\xe2\x81\xa8"
#define PDI "\xe2\x81\xa9"

static struct
{
  TgHome *elsewhere;
  char   *bob;      /* ed25519 + cv25519 */
  char   *carol;
  char   *dave;
  char   *mallory;  /* a user ID with U+202E and a newline in it */
} keys;

static void
make_keys (void)
{
  keys.elsewhere = tg_home_new ();
  keys.bob = tg_gen_encryption_key (keys.elsewhere, "Bob <bob@example.org>",
                                    "ed25519", "cv25519", "never", NULL);
  keys.carol = tg_gen_encryption_key (keys.elsewhere, "Carol <carol@example.org>",
                                      "ed25519", "cv25519", "never", NULL);
  keys.dave = tg_gen_encryption_key (keys.elsewhere, "Dave & Co <dave@example.org>",
                                     "ed25519", "cv25519", "never", NULL);
  keys.mallory = tg_gen_encryption_key (keys.elsewhere,
                                        "Mal\xe2\x80\xaeyrol <b>x</b> <mallory@example.org>",
                                        "ed25519", "cv25519", "never", NULL);
}

/* `gpg --armor --export WHAT…` (up to NULL) from the senders' home. */
static GBytes *
export_armored (const char *what, ...)
{
  g_autoptr (GPtrArray) args = g_ptr_array_new ();
  GBytes *out = NULL;
  va_list ap;
  int status;

  va_start (ap, what);
  for (const char *arg = what; arg; arg = va_arg (ap, const char *))
    g_ptr_array_add (args, (char *) arg);
  va_end (ap);
  g_assert_cmpuint (args->len, <=, 2);
  status = tg_gpg (keys.elsewhere, NULL, NULL, &out, "--armor", "--export",
                   args->pdata[0], args->len > 1 ? args->pdata[1] : NULL, NULL);
  g_assert_cmpint (status, ==, 0);
  g_assert_nonnull (strstr (g_bytes_get_data (out, NULL), "BEGIN PGP PUBLIC KEY BLOCK"));
  return out;
}

static GBytes *
text_bytes (const char *text)
{
  return g_bytes_new (text, strlen (text));
}

static PadlockKeyringImport *
import (PadlockKeyring *keyring, GBytes *bytes, GError **error)
{
  g_autoptr (GAsyncResult) result = NULL;

  padlock_keyring_import_bytes_async (keyring, bytes, NULL, at_on_result, &result);
  g_assert_true (at_wait_until (at_has_result, &result, WAIT_MS));
  return padlock_keyring_import_finish (keyring, result, error);
}

/* What HOME's gpg lists of WHAT, with colons ("" when nothing). */
static char *
colons (TgHome *home, const char *what, gboolean secret)
{
  g_autoptr (GBytes) out = NULL;

  tg_gpg (home, NULL, NULL, &out, "--with-colons",
          secret ? "--list-secret-keys" : "--list-keys", what, NULL);
  if (!out || !g_bytes_get_size (out))
    return g_strdup ("");
  return g_strndup (g_bytes_get_data (out, NULL), g_bytes_get_size (out));
}

/* How many lines of TEXT start with PREFIX. */
static guint
count_lines (const char *text, const char *prefix)
{
  g_auto (GStrv) lines = g_strsplit (text, "\n", -1);
  guint n = 0;

  for (guint i = 0; lines[i]; i++)
    n += g_str_has_prefix (lines[i], prefix);
  return n;
}

static PadlockKeyring *
open_keyring (TgHome *home)
{
  PadlockKeyring *keyring = padlock_keyring_new (home->dir);

  at_wait_keyring_loaded (keyring, WAIT_MS);
  return keyring;
}

static void
test_new_then_unchanged (void)
{
  g_autoptr (TgHome) home = tg_home_new ();
  g_autoptr (PadlockKeyring) keyring = open_keyring (home);
  g_autoptr (GBytes) bob = export_armored (keys.bob, NULL);
  g_autoptr (PadlockKeyringImport) result = NULL;
  g_autoptr (GError) error = NULL;
  g_autofree char *listed = NULL;
  g_autofree char *said = NULL;

  g_assert_cmpuint (g_list_model_get_n_items (G_LIST_MODEL (keyring)), ==, 0);
  result = import (keyring, bob, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (result->imported, ==, 1);
  g_assert_cmpuint (result->secret_imported, ==, 0);
  g_assert_cmpstrv (result->new_fingerprints, ((const char *[]) { keys.bob, NULL }));
  said = padlock_keyring_import_describe (result);
  g_assert_cmpstr (said, ==, "Added " FSI "Bob <bob@example.org>" PDI ".");
  listed = colons (home, keys.bob, FALSE);
  g_assert_cmpuint (count_lines (listed, "pub:"), ==, 1);
  g_assert_nonnull (strstr (listed, "Bob <bob@example.org>"));
  /* A certificate: no secret key came with it. */
  g_clear_pointer (&listed, g_free);
  listed = colons (home, keys.bob, TRUE);
  g_assert_cmpuint (count_lines (listed, "sec:"), ==, 0);
  /* The keyring reads itself again. */
  at_wait_keyring_loaded (keyring, WAIT_MS);
  at_key_of (keyring, keys.bob);

  /* The same again: nothing new, and the sentence says so. */
  g_clear_pointer (&result, padlock_keyring_import_free);
  g_clear_pointer (&said, g_free);
  result = import (keyring, bob, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (result->imported, ==, 0);
  g_assert_cmpuint (result->unchanged, ==, 1);
  g_assert_cmpuint (g_strv_length (result->new_fingerprints), ==, 0);
  g_assert_cmpuint (g_strv_length (result->changed_fingerprints), ==, 0);
  said = padlock_keyring_import_describe (result);
  g_assert_cmpstr (said, ==, "1 key was already there, unchanged.");
}

static void
test_new_user_id_and_signature (void)
{
  g_autoptr (TgHome) home = tg_home_new ();
  g_autoptr (TgHome) sender = tg_home_new ();
  g_autoptr (PadlockKeyring) keyring = open_keyring (home);
  g_autoptr (PadlockKeyringImport) result = NULL;
  g_autoptr (GError) error = NULL;
  g_autoptr (GBytes) first = NULL;
  g_autoptr (GBytes) second = NULL;
  g_autoptr (GBytes) third = NULL;
  g_autoptr (GBytes) secret = NULL;
  g_autoptr (GBytes) sigs = NULL;
  g_autofree char *listed = NULL;
  g_autofree char *said = NULL;
  g_autofree char *erin = NULL;

  /* Erin's key, in a home of its own (it changes), which also holds
   * Carol's secret key to certify Erin's with. */
  erin = tg_gen_encryption_key (sender, "Erin <erin@example.org>", "ed25519",
                                "cv25519", "never", NULL);
  g_assert_cmpint (tg_gpg (sender, NULL, NULL, &first, "--armor", "--export", erin,
                           NULL), ==, 0);
  result = import (keyring, first, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (result->imported, ==, 1);
  g_clear_pointer (&result, padlock_keyring_import_free);

  /* A new user ID. */
  g_assert_cmpint (tg_gpg (sender, NULL, NULL, NULL, "--quick-add-uid", erin,
                           "Erin <erin@work.example>", NULL), ==, 0);
  g_assert_cmpint (tg_gpg (sender, NULL, NULL, &second, "--armor", "--export", erin,
                           NULL), ==, 0);
  result = import (keyring, second, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (result->imported, ==, 0);
  g_assert_cmpuint (result->new_user_ids, ==, 1);
  g_assert_cmpstrv (result->changed_fingerprints, ((const char *[]) { erin, NULL }));
  said = padlock_keyring_import_describe (result);
  g_test_message ("new user ID: %s", said);
  /* Named by gpg's primary user ID (now the newer one); the new user
   * ID's self-signature is a new signature too. */
  g_assert_true (g_str_has_prefix (said, "Updated " FSI "Erin <erin@"));
  g_assert_nonnull (strstr (said, PDI ": 1 new user ID"));
  g_assert_true (g_str_has_suffix (said, "."));
  g_assert_null (strstr (said, "Added"));
  listed = colons (home, erin, FALSE);
  g_assert_cmpuint (count_lines (listed, "uid:"), ==, 2);
  g_assert_nonnull (strstr (listed, "Erin <erin@work.example>"));
  g_clear_pointer (&result, padlock_keyring_import_free);
  g_clear_pointer (&said, g_free);
  g_clear_pointer (&listed, g_free);

  /* A new signature: Carol certifies Erin's first user ID (exportable). */
  g_assert_cmpint (tg_gpg (keys.elsewhere, NULL, NULL, &secret, "--armor",
                           "--export-secret-keys", keys.carol, NULL), ==, 0);
  g_assert_cmpint (tg_gpg (sender, NULL, secret, NULL, "--import", NULL), ==, 0);
  g_assert_cmpint (tg_gpg (sender, NULL, NULL, NULL, "--default-key", keys.carol,
                           "--quick-sign-key", erin, "Erin <erin@example.org>",
                           NULL), ==, 0);
  g_assert_cmpint (tg_gpg (sender, NULL, NULL, &third, "--armor", "--export", erin,
                           NULL), ==, 0);
  result = import (keyring, third, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (result->imported, ==, 0);
  g_assert_cmpuint (result->new_user_ids, ==, 0);
  g_assert_cmpuint (result->new_signatures, ==, 1);
  said = padlock_keyring_import_describe (result);
  g_assert_true (g_str_has_prefix (said, "Updated " FSI "Erin <erin@"));
  g_assert_true (g_str_has_suffix (said, PDI ": 1 new signature."));
  /* gpg --list-sigs shows Carol's certification. */
  g_assert_cmpint (tg_gpg (home, NULL, NULL, &sigs, "--with-colons", "--list-sigs",
                           erin, NULL), ==, 0);
  listed = g_strndup (g_bytes_get_data (sigs, NULL), g_bytes_get_size (sigs));
  g_assert_nonnull (strstr (listed, keys.carol + 24));
}

static void
test_two_keys (void)
{
  g_autoptr (TgHome) home = tg_home_new ();
  g_autoptr (PadlockKeyring) keyring = open_keyring (home);
  g_autoptr (GBytes) both = export_armored (keys.carol, keys.dave, NULL);
  g_autoptr (PadlockKeyringImport) result = NULL;
  g_autoptr (GError) error = NULL;
  g_autofree char *listed = NULL;
  g_autofree char *said = NULL;

  result = import (keyring, both, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (result->considered, ==, 2);
  g_assert_cmpuint (result->imported, ==, 2);
  g_assert_cmpuint (g_strv_length (result->new_fingerprints), ==, 2);
  said = padlock_keyring_import_describe (result);
  /* Both named, in the order of the data; "&" left for the markup's
   * escaping (the window's). */
  g_assert_cmpstr (said, ==, "Added 2 keys: " FSI "Carol <carol@example.org>" PDI ", "
                             FSI "Dave & Co <dave@example.org>" PDI ".");
  listed = colons (home, NULL, FALSE);
  g_assert_cmpuint (count_lines (listed, "pub:"), ==, 2);
  g_assert_nonnull (strstr (listed, keys.carol));
  g_assert_nonnull (strstr (listed, keys.dave));
}

static void
test_hostile_name (void)
{
  g_autoptr (TgHome) home = tg_home_new ();
  g_autoptr (PadlockKeyring) keyring = open_keyring (home);
  g_autoptr (GBytes) mallory = export_armored (keys.mallory, NULL);
  g_autoptr (PadlockKeyringImport) result = NULL;
  g_autoptr (GError) error = NULL;
  g_autofree char *said = NULL;

  result = import (keyring, mallory, &error);
  g_assert_no_error (error);
  said = padlock_keyring_import_describe (result);
  /* U+202E is written out, not obeyed. */
  g_assert_cmpstr (said, ==, "Added " FSI "Mal\\u202Eyrol <b>x</b> "
                             "<mallory@example.org>" PDI ".");
  g_assert_null (strstr (said, "\xe2\x80\xae"));
}

static void
test_garbage (void)
{
  g_autoptr (TgHome) home = tg_home_new ();
  g_autoptr (PadlockKeyring) keyring = open_keyring (home);
  const char *junk[] = {
    "not a key\n",
    "-----BEGIN PGP PUBLIC KEY BLOCK-----\n\nbm90IGEga2V5Cg==\n"
    "=AAAA\n-----END PGP PUBLIC KEY BLOCK-----\n",
    "",
  };
  g_autofree char *listed = NULL;

  for (guint i = 0; i < G_N_ELEMENTS (junk); i++)
    {
      g_autoptr (GBytes) bytes = text_bytes (junk[i]);
      g_autoptr (PadlockKeyringImport) result = NULL;
      g_autoptr (GError) error = NULL;

      result = import (keyring, bytes, &error);
      g_assert_null (result);
      g_assert_error (error, PADLOCK_ERROR, PADLOCK_ERROR_MALFORMED);
      g_assert_cmpstr (error->message, ==, "It holds no OpenPGP key");
    }
  listed = colons (home, NULL, FALSE);
  g_assert_cmpuint (count_lines (listed, "pub:"), ==, 0);
}

static void
test_secret_key_refused (void)
{
  g_autoptr (TgHome) home = tg_home_new ();
  g_autoptr (PadlockKeyring) keyring = open_keyring (home);
  g_autoptr (GBytes) secret = NULL;
  g_autoptr (GBytes) mixed = NULL;
  g_autoptr (GBytes) bob = export_armored (keys.bob, NULL);
  g_autoptr (GBytes) protected = NULL;
  g_autofree char *listed = NULL;
  g_autofree char *frank = NULL;
  GByteArray *joined = g_byte_array_new ();

  g_assert_cmpint (tg_gpg (keys.elsewhere, NULL, NULL, &secret, "--armor",
                           "--export-secret-keys", keys.carol, NULL), ==, 0);
  g_assert_nonnull (strstr (g_bytes_get_data (secret, NULL), "PRIVATE KEY BLOCK"));
  /* A public key first, the secret one after it: refused whole. */
  g_byte_array_append (joined, g_bytes_get_data (bob, NULL), g_bytes_get_size (bob));
  g_byte_array_append (joined, g_bytes_get_data (secret, NULL),
                       g_bytes_get_size (secret));
  mixed = g_byte_array_free_to_bytes (joined);

  /* And a secret key protected by a passphrase: refused all the same,
   * before gpg or its agent could ask for anything. */
  frank = tg_gen_key (keys.elsewhere, "Frank <frank@example.org>", "ed25519",
                      "default", "never", "frank's passphrase", NULL);
  g_assert_cmpint (tg_gpg (keys.elsewhere, "frank's passphrase", NULL, &protected,
                           "--armor", "--export-secret-keys", frank, NULL), ==, 0);
  g_assert_nonnull (strstr (g_bytes_get_data (protected, NULL), "PRIVATE KEY BLOCK"));

  for (guint i = 0; i < 3; i++)
    {
      GBytes *inputs[] = { secret, mixed, protected };
      g_autoptr (PadlockKeyringImport) result = NULL;
      g_autoptr (GError) error = NULL;

      result = import (keyring, inputs[i], &error);
      g_assert_null (result);
      g_assert_error (error, PADLOCK_ERROR, PADLOCK_ERROR_UNSUPPORTED);
      g_assert_nonnull (strstr (error->message, "secret key"));
      g_assert_nonnull (strstr (error->message, "nothing was imported"));
    }
  /* Nothing at all: neither the secret key nor the public ones. */
  listed = colons (home, NULL, TRUE);
  g_assert_cmpuint (count_lines (listed, "sec:"), ==, 0);
  g_clear_pointer (&listed, g_free);
  listed = colons (home, NULL, FALSE);
  g_assert_cmpuint (count_lines (listed, "pub:"), ==, 0);
}

static gboolean
is_ready (gpointer data)
{
  return padlock_keyring_get_state (data) == PADLOCK_KEYRING_READY;
}

/* A user who has never run gpg adds a key: the home is made, 0700, and
 * the keyring follows. */
static void
test_no_home (void)
{
  g_autoptr (TgHome) home = tg_home_new ();
  g_autoptr (PadlockKeyring) keyring = NULL;
  g_autoptr (GBytes) bob = export_armored (keys.bob, NULL);
  g_autoptr (PadlockKeyringImport) result = NULL;
  g_autoptr (GError) error = NULL;
  GStatBuf st;

  tg_home_remove (home);
  keyring = open_keyring (home);
  g_assert_cmpint (padlock_keyring_get_state (keyring), ==, PADLOCK_KEYRING_NO_HOME);
  result = import (keyring, bob, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (result->imported, ==, 1);
  g_assert_cmpint (g_stat (home->dir, &st), ==, 0);
  g_assert_cmpint (st.st_mode & 0777, ==, 0700);
  g_assert_true (at_wait_until (is_ready, keyring, WAIT_MS));
  at_key_of (keyring, keys.bob);
}

int
main (int argc, char **argv)
{
  int status;

  tu_init (&argc, &argv);
  g_test_add_func ("/import/new-then-unchanged", test_new_then_unchanged);
  g_test_add_func ("/import/new-user-id-and-signature", test_new_user_id_and_signature);
  g_test_add_func ("/import/two-keys", test_two_keys);
  g_test_add_func ("/import/hostile-name", test_hostile_name);
  g_test_add_func ("/import/garbage", test_garbage);
  g_test_add_func ("/import/secret-key-refused", test_secret_key_refused);
  g_test_add_func ("/import/no-home", test_no_home);
  make_keys ();
  status = g_test_run ();
  g_clear_pointer (&keys.elsewhere, tg_home_free);
  return status;
}
