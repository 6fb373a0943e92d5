/* padlock-settings.c - the app's GSettings, and what jobs take from them */
#include "padlock-config.h"
#include "padlock-settings.h"

#include "algo.h"
#include "job.h"

/* The build root PROGRAM runs from (the stamp there says so), or NULL. */
static char *
build_root (const char *program)
{
  g_autofree char *dir = NULL;
  g_autofree char *root = NULL;
  g_autofree char *stamp = NULL;

  g_return_val_if_fail (program != NULL, NULL);

  dir = g_path_get_dirname (program);
  root = g_path_get_dirname (dir);
  stamp = g_build_filename (root, PADLOCK_BUILD_TREE_STAMP, NULL);
  if (!g_file_test (stamp, G_FILE_TEST_IS_REGULAR))
    return NULL;
  return g_steal_pointer (&root);
}

char *
padlock_settings_build_schema_dir (const char *program)
{
  g_autofree char *root = build_root (program);

  return root ? g_build_filename (root, "data", NULL) : NULL;
}

char *
padlock_settings_build_locale_dir (const char *program)
{
  g_autofree char *root = build_root (program);

  return root ? g_build_filename (root, "po", NULL) : NULL;
}

/* The schema compiled in the build tree this program runs from, if it
 * runs from one (Linux: /proc/self/exe names the program). */
static GSettingsSchema *
lookup_build_tree (GSettingsSchemaSource *parent)
{
  g_autofree char *program = g_file_read_link ("/proc/self/exe", NULL);
  g_autofree char *dir = NULL;
  g_autoptr(GSettingsSchemaSource) source = NULL;

  if (program)
    dir = padlock_settings_build_schema_dir (program);
  if (dir)
    source = g_settings_schema_source_new_from_directory (dir, parent, FALSE,
                                                          NULL);
  if (!source)
    return NULL;
  return g_settings_schema_source_lookup (source, PADLOCK_APP_ID, TRUE);
}

GSettings *
padlock_settings_new (void)
{
  GSettingsSchemaSource *source = g_settings_schema_source_get_default ();
  g_autoptr(GSettingsSchema) schema = NULL;

  if (source)
    schema = g_settings_schema_source_lookup (source, PADLOCK_APP_ID, TRUE);
  if (!schema)
    schema = lookup_build_tree (source);
  if (!schema)
    g_error ("The settings schema %s is not installed", PADLOCK_APP_ID);
  return g_settings_new_full (schema, NULL, NULL);
}

int
padlock_settings_cipher_algo (const char *name)
{
  int algo = name ? pl_cipher_from_name (name) : 0;

  return algo ? algo : PL_CIPHER_AES256;
}

int
padlock_settings_compress_algo (const char *name)
{
  if (!g_strcmp0 (name, "zip"))
    return PL_COMPRESS_ZIP;
  if (!g_strcmp0 (name, "zlib"))
    return PL_COMPRESS_ZLIB;
  if (!g_strcmp0 (name, "bzip2"))
    return PL_COMPRESS_BZIP2;
  return PL_COMPRESS_NONE;
}

void
padlock_job_config_from_settings (GSettings        *settings,
                                  PadlockJobConfig *config)
{
  g_autofree char *profile = NULL;
  g_autofree char *cipher = NULL;
  g_autofree char *compression = NULL;
  int p;

  g_return_if_fail (G_IS_SETTINGS (settings));
  g_return_if_fail (config != NULL);

  profile = g_settings_get_string (settings, "profile");
  cipher = g_settings_get_string (settings, "cipher");
  compression = g_settings_get_string (settings, "compression");
  p = pl_profile_from_name (profile);
  config->profile = p < 0 ? PL_PROFILE_RFC4880 : p;
  config->cipher_algo = padlock_settings_cipher_algo (cipher);
  config->compress_algo = padlock_settings_compress_algo (compression);
  config->armor = g_settings_get_boolean (settings, "armor");
  config->unpack_archives = g_settings_get_boolean (settings, "unpack-archives");
  config->delete_original = g_settings_get_boolean (settings, "delete-original");
  config->hide_names = g_settings_get_boolean (settings, "hide-names");
  config->allow_expansion = !g_settings_get_boolean (settings, "limit-expansion");
  config->output_dir = g_settings_get_string (settings, "output-folder");
  if (!*config->output_dir)
    g_clear_pointer (&config->output_dir, g_free);
}
