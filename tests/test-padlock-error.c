/* test-padlock-error.c - the engine's errors as GErrors of PADLOCK_ERROR
 * (app/padlock-error.h), in the engine's words */
#include "app-testutil.h"
#include "padlock-error.h"

static void
test_error_mapping (void)
{
  g_autoptr(GError) bad = padlock_error_from_gpg (gpg_error (GPG_ERR_BAD_PASSPHRASE));
  g_autoptr(GError) exists = padlock_error_from_gpg (gpg_error (GPG_ERR_EEXIST));
  g_autoptr(GError) damaged = padlock_error_from_gpg (gpg_error (GPG_ERR_CHECKSUM));
  g_autoptr(GError) cancelled = padlock_error_from_gpg (gpg_error (GPG_ERR_CANCELED));

  g_assert_null (padlock_error_from_gpg (0));
  g_assert_error (bad, PADLOCK_ERROR, PADLOCK_ERROR_BAD_PASSPHRASE);
  g_assert_error (exists, PADLOCK_ERROR, PADLOCK_ERROR_OUTPUT_EXISTS);
  g_assert_error (damaged, PADLOCK_ERROR, PADLOCK_ERROR_INTEGRITY);
  g_assert_error (cancelled, PADLOCK_ERROR, PADLOCK_ERROR_CANCELLED);
  g_assert_cmpstr (bad->message, ==, "The passphrase is wrong.");
}

int
main (int argc, char **argv)
{
  tu_init (&argc, &argv);
  g_test_add_func ("/error/mapping", test_error_mapping);
  return g_test_run ();
}
