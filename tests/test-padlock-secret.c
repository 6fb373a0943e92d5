/* test-padlock-secret.c - a passphrase in secure memory
 * (app/padlock-secret.h): the text kept as read and the rule's octets
 * as the passphrase, in secure memory; the key the engine gets; one
 * derived-key cache for the jobs that share it; a text over
 * PL_PASSPHRASE_MAX refused in the engine's words */
#include <string.h>
#include <gcrypt.h>
#include "app-testutil.h"
#include "padlock-error.h"
#include "errors.h"
#include "padlock-secret.h"
#include "keycache.h"
#include "passphrase.h"

/* A file's content: the rule takes off one line ending (passphrase.h);
 * the key keeps the whole text and the rule, so that decryption tries
 * the other forms too. */
static void
test_file_rule (void)
{
  static const char text[] = "pass word\n";
  g_autoptr(GError) error = NULL;
  g_autoptr(PadlockSecret) s =
    padlock_secret_new_full (text, sizeof text - 1, PL_PASSPHRASE_FILE,
                             &error);
  gsize len = 0;
  const char *data;
  pl_opener key;

  g_assert_no_error (error);
  data = padlock_secret_get_data (s, &len);
  g_assert_cmpuint (len, ==, pl_passphrase_length (text, sizeof text - 1,
                                                   PL_PASSPHRASE_FILE));
  g_assert_cmpmem (data, len, "pass word", 9);
  g_assert_cmpint (data[len], ==, 0);
  g_assert_true (gcry_is_secure (data));
  key = padlock_secret_get_opener (s);
  g_assert_cmpint (key.kind, ==, PL_OPENER_PASSPHRASE);
  g_assert_cmpmem (key.data, key.len, text, sizeof text - 1);
  g_assert_true (gcry_is_secure (key.data));
  g_assert_cmpint (key.rule, ==, PL_PASSPHRASE_FILE);
}

/* Typed: the text is the passphrase.  A reference shares the text and
 * the cache; the last one to let go frees them. */
static void
test_typed_and_shared (void)
{
  PadlockSecret *s = padlock_secret_new ("  spaces kept  ");
  PadlockSecret *again = padlock_secret_ref (s);
  gsize len = 0;

  g_assert_true (again == s);
  g_assert_cmpstr (padlock_secret_get_data (s, &len), ==, "  spaces kept  ");
  g_assert_cmpuint (len, ==, 15);
  g_assert_nonnull (padlock_secret_get_keycache (s));
  g_assert_true (padlock_secret_get_keycache (again)
                 == padlock_secret_get_keycache (s));
  g_assert_cmpuint (pl_keycache_derivations (padlock_secret_get_keycache (s)),
                    ==, 0);
  padlock_secret_unref (s);
  g_assert_cmpstr (padlock_secret_get_data (again, NULL), ==,
                   "  spaces kept  ");
  padlock_secret_unref (again);

  /* Two secrets, two caches, even for the same text. */
  {
    g_autoptr(PadlockSecret) a = padlock_secret_new ("same");
    g_autoptr(PadlockSecret) b = padlock_secret_new ("same");

    g_assert_true (padlock_secret_get_keycache (a)
                   != padlock_secret_get_keycache (b));
  }
}

/* PL_PASSPHRASE_MAX octets are taken, one more is refused, as the
 * engine words it. */
static void
test_too_long (void)
{
  g_autofree char *text = g_strnfill (PL_PASSPHRASE_MAX + 1, 'x');
  g_autoptr(GError) error = NULL;
  PadlockSecret *s;

  s = padlock_secret_new_full (text, PL_PASSPHRASE_MAX, PL_PASSPHRASE_TYPED,
                               &error);
  g_assert_no_error (error);
  g_assert_nonnull (s);
  padlock_secret_unref (s);
  s = padlock_secret_new_full (text, PL_PASSPHRASE_MAX + 1,
                               PL_PASSPHRASE_TYPED, &error);
  g_assert_null (s);
  g_assert_error (error, PADLOCK_ERROR, PADLOCK_ERROR_BAD_PASSPHRASE);
  g_assert_cmpstr (error->message, ==,
                   pl_error_message (gpg_error (PL_ERR_PASSPHRASE_TOO_LONG)));
}

int
main (int argc, char **argv)
{
  tu_init (&argc, &argv);
  g_test_add_func ("/secret/file-rule", test_file_rule);
  g_test_add_func ("/secret/typed-and-shared", test_typed_and_shared);
  g_test_add_func ("/secret/too-long", test_too_long);
  return g_test_run ();
}
