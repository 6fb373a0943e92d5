/* test-padlock-settings.c - the settings' cipher choices
 * (app/padlock-settings.h), through the core's one table */
#include "app-testutil.h"
#include "padlock-settings.h"
#include "algo.h"

/* The settings' cipher choices, through the core's one table. */
static void
test_cipher_names (void)
{
  static const struct { const char *setting; int algo; const char *label; } want[] = {
    { "aes256", PL_CIPHER_AES256, "AES-256" },
    { "aes192", PL_CIPHER_AES192, "AES-192" },
    { "aes128", PL_CIPHER_AES128, "AES-128" },
    { "twofish", PL_CIPHER_TWOFISH, "Twofish" },
    { "camellia256", PL_CIPHER_CAMELLIA256, "Camellia-256" },
  };

  for (guint i = 0; i < G_N_ELEMENTS (want); i++)
    {
      int algo = padlock_settings_cipher_algo (want[i].setting);
      g_assert_cmpint (algo, ==, want[i].algo);
      g_assert_cmpstr (pl_cipher_name (algo), ==, want[i].label);
      g_assert_cmpint (pl_cipher_from_name (pl_cipher_name (algo)), ==, algo);
    }
  /* gpg's spellings read too; an unknown name falls back to AES-256. */
  g_assert_cmpint (pl_cipher_from_name ("CAMELLIA128"), ==, PL_CIPHER_CAMELLIA128);
  g_assert_cmpint (pl_cipher_from_name ("aes-192"), ==, PL_CIPHER_AES192);
  g_assert_cmpint (padlock_settings_cipher_algo ("rot13"), ==, PL_CIPHER_AES256);
  g_assert_cmpint (padlock_settings_cipher_algo (NULL), ==, PL_CIPHER_AES256);
}

int
main (int argc, char **argv)
{
  tu_init (&argc, &argv);
  g_test_add_func ("/settings/cipher-names", test_cipher_names);
  return g_test_run ();
}
