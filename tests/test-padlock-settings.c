/* test-padlock-settings.c - the settings' cipher choices
 * (app/padlock-settings.h), through the core's one table */
#include <string.h>

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

/* Issue 37 §4: the program run from the build tree (`make run`) speaks
 * German to a German user with the build's translations, nothing
 * installed; the build tree's folders are found by its stamp. */
static void
test_build_tree_translations (void)
{
  const char *program = g_getenv ("PADLOCK_APP");
  const char *argv[] = { program, "--help-all", NULL };
  g_autofree char *out = NULL;
  g_autofree char *err = NULL;
  g_autofree char *dir = NULL;
  g_autofree char *mo = NULL;
  g_auto(GStrv) env = g_get_environ ();
  GError *error = NULL;
  int status;

  g_assert_nonnull (program);
  dir = padlock_settings_build_locale_dir (program);
  g_assert_nonnull (dir);
  mo = g_build_filename (dir, "de", "LC_MESSAGES", "padlock.mo", NULL);
  g_assert_true (g_file_test (mo, G_FILE_TEST_IS_REGULAR));
  g_assert_null (padlock_settings_build_locale_dir ("/usr/bin/padlock"));
  env = g_environ_setenv (env, "LANG", "C.UTF-8", TRUE);
  env = g_environ_unsetenv (env, "LC_ALL");
  env = g_environ_unsetenv (env, "LC_MESSAGES");
  env = g_environ_setenv (env, "LANGUAGE", "de", TRUE);
  g_assert_true (g_spawn_sync (NULL, (char **) argv, env, G_SPAWN_DEFAULT, NULL, NULL,
                               &out, &err, &status, &error));
  g_assert_no_error (error);
  g_test_message ("%s", out);
  g_assert_nonnull (strstr (out, "Die Dateien verschlüsseln"));
  g_assert_null (strstr (out, "Encrypt the files"));
}

int
main (int argc, char **argv)
{
  tu_init (&argc, &argv);
  g_test_add_func ("/settings/cipher-names", test_cipher_names);
  g_test_add_func ("/settings/build-tree-translations", test_build_tree_translations);
  return g_test_run ();
}
