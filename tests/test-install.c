/* test-install.c - `meson install --destdir`: every file a desktop needs
 * is there and says what it should; the MIME definition tells binary
 * OpenPGP messages from keys, as GIO sees them once update-mime-database
 * ran; and the installed program knows no build tree (its schema). */
#include "padlock-config.h"

#include <string.h>
#include <sys/resource.h>
#include <gio/gio.h>
#include <glib/gstdio.h>

#include "testutil.h"

#define APP_ID "io.github.padlock.Padlock"

static char *destdir;

/* DESTDIR + the configured absolute DIR + the rest. */
static char *
installed (const char *dir_variable,
           const char *first,
           ...)
{
  const char *dir = g_getenv (dir_variable);
  g_autoptr(GString) path = g_string_new (destdir);
  const char *part;
  va_list args;

  g_assert_nonnull (dir);
  g_assert_true (g_path_is_absolute (dir));
  g_string_append (path, dir);
  va_start (args, first);
  for (part = first; part; part = va_arg (args, const char *))
    {
      g_string_append_c (path, G_DIR_SEPARATOR);
      g_string_append (path, part);
    }
  va_end (args);
  return g_string_free (g_steal_pointer (&path), FALSE);
}

static char *
read_installed (const char *path)
{
  g_autoptr(GError) error = NULL;
  char *contents = NULL;

  g_assert_true (g_file_get_contents (path, &contents, NULL, &error));
  g_assert_no_error (error);
  return contents;
}

static void
assert_contains (const char *path,
                 const char *contents,
                 const char *needle)
{
  if (!strstr (contents, needle))
    g_error ("%s does not contain: %s", path, needle);
}

static void
run_ok (const char *const *argv,
        char              **out)
{
  g_autoptr(GBytes) stdout_bytes = NULL;
  g_autofree char *err = NULL;
  int status = -1;

  g_assert_true (tu_run (argv, NULL, &stdout_bytes, &err, &status));
  if (status != 0)
    g_error ("%s exited with %d: %s", argv[0], status, err);
  if (out)
    *out = g_strndup (g_bytes_get_data (stdout_bytes, NULL), g_bytes_get_size (stdout_bytes));
}

static void
test_files (void)
{
  static const char *const plain_files[][2] = {
    { "PADLOCK_INSTALL_BINDIR", "padlock" },
    { "PADLOCK_INSTALL_BINDIR", "padlock-sop" },
    { "PADLOCK_INSTALL_DATADIR", "icons/hicolor/scalable/apps/" APP_ID ".svg" },
    { "PADLOCK_INSTALL_DATADIR", "icons/hicolor/symbolic/apps/" APP_ID "-symbolic.svg" },
    { "PADLOCK_INSTALL_DATADIR", "glib-2.0/schemas/" APP_ID ".gschema.xml" },
    { "PADLOCK_INSTALL_DATADIR", "mime/packages/" APP_ID ".xml" },
    { "PADLOCK_INSTALL_LOCALEDIR", "de/LC_MESSAGES/padlock.mo" },
    { "PADLOCK_INSTALL_LOCALEDIR", "fr/LC_MESSAGES/padlock.mo" },
  };
  g_autofree char *desktop_path = installed ("PADLOCK_INSTALL_DATADIR", "applications",
                                             APP_ID ".desktop", NULL);
  g_autofree char *service_path = installed ("PADLOCK_INSTALL_DATADIR", "dbus-1", "services",
                                             APP_ID ".service", NULL);
  g_autofree char *metainfo_path = installed ("PADLOCK_INSTALL_DATADIR", "metainfo",
                                              APP_ID ".metainfo.xml", NULL);
  g_autofree char *desktop = NULL;
  g_autofree char *service = NULL;
  g_autofree char *metainfo = NULL;
  g_autofree char *exec = NULL;

  for (guint i = 0; i < G_N_ELEMENTS (plain_files); i++)
    {
      g_autofree char *path = installed (plain_files[i][0], plain_files[i][1], NULL);

      g_test_message ("%s", path);
      g_assert_true (g_file_test (path, G_FILE_TEST_IS_REGULAR));
    }

  desktop = read_installed (desktop_path);
  assert_contains (desktop_path, desktop, "\nMimeType=application/pgp-encrypted;\n");
  assert_contains (desktop_path, desktop, "\nDBusActivatable=true\n");
  assert_contains (desktop_path, desktop, "\nActions=encrypt;decrypt;\n");
  assert_contains (desktop_path, desktop, "\n[Desktop Action encrypt]\n");
  assert_contains (desktop_path, desktop, "\nExec=padlock --encrypt\n");
  assert_contains (desktop_path, desktop, "\n[Desktop Action decrypt]\n");
  assert_contains (desktop_path, desktop, "\nExec=padlock --decrypt\n");
  assert_contains (desktop_path, desktop, "\nIcon=" APP_ID "\n");
  assert_contains (desktop_path, desktop, "\nComment[de]=Dateien mit einer Passphrase");
  assert_contains (desktop_path, desktop, "\nComment[fr]=Chiffrer et déchiffrer");
  assert_contains (desktop_path, desktop, "\nName[de]=Dateien verschlüsseln …\n");

  /* D-Bus activation finds the program by the desktop file's name. */
  service = read_installed (service_path);
  exec = g_strdup_printf ("\nExec=%s/padlock --gapplication-service\n",
                          g_getenv ("PADLOCK_INSTALL_BINDIR"));
  assert_contains (service_path, service, "[D-BUS Service]\nName=" APP_ID "\n");
  assert_contains (service_path, service, exec);

  metainfo = read_installed (metainfo_path);
  assert_contains (metainfo_path, metainfo, "<launchable type=\"desktop-id\">" APP_ID ".desktop</launchable>");
  assert_contains (metainfo_path, metainfo, "<description>");
  assert_contains (metainfo_path, metainfo, "<screenshot type=\"default\">");
  assert_contains (metainfo_path, metainfo, "<release version=\"");
  assert_contains (metainfo_path, metainfo, "<content_rating type=\"oars-1.1\"");
  assert_contains (metainfo_path, metainfo, "xml:lang=\"de\"");
  assert_contains (metainfo_path, metainfo, "xml:lang=\"fr\"");

  for (guint i = 0; i < 3; i++)
    {
      static const char *const actions[] = { "encrypt", "decrypt", "sign" };
      static const char *const options[] = { "--encrypt", "--decrypt",
                                             "--sign --detach" };
      const char *action = actions[i];
      g_autofree char *kio_name = g_strdup_printf (APP_ID ".%s.desktop", action);
      g_autofree char *nemo_name = g_strdup_printf (APP_ID ".%s.nemo_action", action);
      g_autofree char *kio_path = installed ("PADLOCK_INSTALL_DATADIR", "kio", "servicemenus",
                                             kio_name, NULL);
      g_autofree char *nemo_path = installed ("PADLOCK_INSTALL_DATADIR", "nemo", "actions",
                                              nemo_name, NULL);
      g_autofree char *kio = read_installed (kio_path);
      g_autofree char *nemo = read_installed (nemo_path);
      g_autofree char *exec_line = g_strdup_printf ("\nExec=padlock %s %%F\n", options[i]);

      assert_contains (kio_path, kio, "[Desktop Entry]\nType=Service\n");
      assert_contains (kio_path, kio, exec_line);
      assert_contains (kio_path, kio, "Name[de]=");
      assert_contains (nemo_path, nemo, "[Nemo Action]\n");
      assert_contains (nemo_path, nemo, exec_line);
      assert_contains (nemo_path, nemo, "Name[fr]=");
      if (i == 2)
        {
          /* Files only: a folder is not signed. */
          assert_contains (kio_path, kio, "\nMimeType=all/allfiles;\n");
          assert_contains (nemo_path, nemo, "\nExtensions=nodirs;\n");
        }
      else if (i)
        {
          assert_contains (kio_path, kio, "\nMimeType=application/pgp-encrypted;\n");
          assert_contains (nemo_path, nemo, "\nMimetypes=application/pgp-encrypted;\n");
        }
    }

  for (guint i = 0; i < 2; i++)
    {
      const char *page = i ? "padlock-sop.1" : "padlock.1";
      g_autofree char *path = installed ("PADLOCK_INSTALL_MANDIR", "man1", page, NULL);
      g_autofree char *man = read_installed (path);

      assert_contains (path, man, ".TH PADLOCK");
      assert_contains (path, man, ".SH SYNOPSIS");
    }

  if (g_getenv ("PADLOCK_NAUTILUS_EXTENSION_DIR"))
    {
      g_autofree char *path = installed ("PADLOCK_NAUTILUS_EXTENSION_DIR",
                                         "libpadlock-nautilus.so", NULL);
      g_test_message ("%s", path);
      g_assert_true (g_file_test (path, G_FILE_TEST_IS_REGULAR));
    }
  else
    g_test_message ("the Nautilus extension is not built here");
}

/* --- The MIME definition, through GIO --- */

static char *samples_dir;

static char *
sample (const char *name)
{
  return g_build_filename (samples_dir, name, NULL);
}

/* tu_gpg with its arguments listed in the call, up to NULL. */
static void
gpg (const char *first,
     ...)
{
  g_autoptr(GPtrArray) argv = g_ptr_array_new ();
  va_list args;

  va_start (args, first);
  for (const char *a = first; a; a = va_arg (args, const char *))
    g_ptr_array_add (argv, (gpointer) a);
  va_end (args);
  g_ptr_array_add (argv, NULL);
  g_bytes_unref (tu_gpg ((const char *const *) argv->pdata, NULL));
}

static char *
gpg_fingerprint (const char *uid)
{
  const char *argv[] = { "gpg", "--homedir", tu_gnupg_home (), "--with-colons",
                         "--list-keys", uid, NULL };
  g_autofree char *out = NULL;
  g_auto(GStrv) lines = NULL;

  run_ok (argv, &out);
  lines = g_strsplit (out, "\n", -1);
  for (guint i = 0; lines[i]; i++)
    if (g_str_has_prefix (lines[i], "fpr:"))
      {
        g_auto(GStrv) fields = g_strsplit (lines[i], ":", -1);
        return g_strdup (fields[9]);
      }
  g_error ("no fingerprint for %s", uid);
}

/* The same key with its first packet's header in the new format (0xc6),
 * as Sequoia writes it. */
static void
write_new_format_key (const char *old_path,
                      const char *new_path)
{
  g_autofree char *data = NULL;
  g_autoptr(GByteArray) out = g_byte_array_new ();
  const guint8 *p;
  gsize length, header, body;

  g_assert_true (g_file_get_contents (old_path, &data, &length, NULL));
  p = (const guint8 *) data;
  g_assert_true ((p[0] & 0xc0) == 0x80);      /* old format */
  g_assert_cmpint ((p[0] >> 2) & 0x0f, ==, 6); /* public key */
  if ((p[0] & 3) == 0)
    header = 2, body = p[1];
  else
    {
      g_assert_cmpint (p[0] & 3, ==, 1);
      header = 3, body = ((gsize) p[1] << 8) | p[2];
    }
  g_byte_array_append (out, (const guint8 []) { 0xc6 }, 1);
  if (body < 192)
    g_byte_array_append (out, (const guint8 []) { (guint8) body }, 1);
  else
    {
      gsize b = body - 192;
      g_assert_cmpuint (b, <, 8192 - 192);
      g_byte_array_append (out, (const guint8 []) { (guint8) ((b >> 8) + 192),
                                                    (guint8) (b & 0xff) }, 2);
    }
  g_byte_array_append (out, p + header, (guint) (length - header));
  g_assert_true (g_file_set_contents (new_path, (const char *) out->data, out->len, NULL));
}

static void
make_samples (void)
{
  const char *sop = tu_sop_path ();
  g_autofree char *plain = sample ("plain.txt");
  g_autofree char *password = sample ("password");
  g_autofree char *rnp_home = sample ("rnp");
  g_autofree char *ed_fpr = NULL;
  g_autofree char *rsa_fpr = NULL;
  g_autofree char *out = NULL;
  g_autofree char *in = NULL;
  g_autoptr(GBytes) random = tu_random_bytes (4096);

  g_assert_true (g_file_set_contents (plain, "Quarterly numbers\n", -1, NULL));
  g_assert_true (g_file_set_contents (password, "correct horse\n", -1, NULL));
  g_assert_true (g_file_set_contents (out = sample ("random.bin"),
                                      g_bytes_get_data (random, NULL), 4096, NULL));
  g_clear_pointer (&out, g_free);

  /* Messages: gpg, symmetric (iterated and salted S2K) and to public keys
   * (ECDH: 0x84, RSA: 0x85), armored too. */
  gpg ("--passphrase", "pw", "--symmetric", "--output", out = sample ("gpg.pdf.gpg"), plain, NULL);
  g_clear_pointer (&out, g_free);
  gpg ("--passphrase", "pw", "--symmetric", "--s2k-mode", "1", "--cipher-algo", "AES128",
       "--output", out = sample ("gpg-salted"), plain, NULL);
  g_clear_pointer (&out, g_free);
  gpg ("--passphrase", "pw", "--symmetric", "--armor", "--output", out = sample ("gpg.asc"),
       plain, NULL);
  g_clear_pointer (&out, g_free);

  gpg ("--passphrase", "", "--quick-generate-key", "Ed <ed@example.org>", "ed25519", "sign",
       "never", NULL);
  ed_fpr = gpg_fingerprint ("ed@example.org");
  gpg ("--passphrase", "", "--quick-add-key", ed_fpr, "cv25519", "encr", "never", NULL);
  gpg ("--passphrase", "", "--quick-generate-key", "Rsa <rsa@example.org>", "rsa2048",
       "sign", "never", NULL);
  rsa_fpr = gpg_fingerprint ("rsa@example.org");
  gpg ("--passphrase", "", "--quick-add-key", rsa_fpr, "rsa2048", "encr", "never", NULL);
  gpg ("--encrypt", "--recipient", ed_fpr, "--output", out = sample ("to-ecdh.gpg"), plain, NULL);
  g_clear_pointer (&out, g_free);
  gpg ("--encrypt", "--recipient", rsa_fpr, "--output", out = sample ("to-rsa"), plain, NULL);
  g_clear_pointer (&out, g_free);

  /* Not messages: keys (0x98, 0x99, 0xc6, secret 0x94) and a signature. */
  gpg ("--export", "--output", out = sample ("ed-key.gpg"), ed_fpr, NULL);
  g_clear_pointer (&out, g_free);
  gpg ("--export", "--output", out = sample ("rsa-key.gpg"), rsa_fpr, NULL);
  g_clear_pointer (&out, g_free);
  gpg ("--passphrase", "", "--export-secret-keys", "--output", out = sample ("ed-secret.gpg"),
       ed_fpr, NULL);
  g_clear_pointer (&out, g_free);
  gpg ("--local-user", ed_fpr, "--detach-sign", "--output", out = sample ("plain.txt.sig"),
       plain, NULL);
  g_clear_pointer (&out, g_free);
  in = sample ("ed-key.gpg");
  write_new_format_key (in, out = sample ("ed-key-new-format.pgp"));
  g_clear_pointer (&out, g_free);

  /* RNP: SKESK v4 in the new format, and v5 with OCB. */
  {
    const char *argv[] = { "rnp", "--homedir", rnp_home, "--symmetric", "--password", "pw",
                           "--output", out = sample ("rnp.gpg"), plain, NULL };
    g_mkdir (rnp_home, 0700);
    run_ok (argv, NULL);
    g_clear_pointer (&out, g_free);
  }
  {
    const char *argv[] = { "rnp", "--homedir", rnp_home, "--symmetric", "--aead=ocb",
                           "--password", "pw", "--output", out = sample ("rnp-ocb"), plain,
                           NULL };
    run_ok (argv, NULL);
    g_clear_pointer (&out, g_free);
  }

  /* Padlock's own three profiles. */
  for (guint i = 0; i < 3; i++)
    {
      static const char *const profiles[] = { "rfc4880", "librepgp", "rfc9580" };
      g_autofree char *profile = g_strdup_printf ("--profile=%s", profiles[i]);
      g_autofree char *with_password = g_strdup_printf ("--with-password=%s", password);
      g_autofree char *name = g_strdup_printf ("padlock-%s.pgp", profiles[i]);
      const char *argv[] = { sop, "encrypt", "--no-armor", profile, with_password, NULL };
      g_autofree char *contents = NULL;
      g_autoptr(GBytes) input = NULL;
      g_autoptr(GBytes) output = NULL;
      gsize length;
      int status;

      g_assert_true (g_file_get_contents (plain, &contents, &length, NULL));
      input = g_bytes_new (contents, length);
      g_assert_true (tu_run (argv, input, &output, NULL, &status));
      g_assert_cmpint (status, ==, 0);
      g_assert_true (g_file_set_contents (out = sample (name), g_bytes_get_data (output, NULL),
                                          g_bytes_get_size (output), NULL));
      g_clear_pointer (&out, g_free);
    }

  {
    const char *argv[] = { "gpgconf", "--homedir", tu_gnupg_home (), "--kill", "all", NULL };
    run_ok (argv, NULL);
  }
}

/* NAME -> "by name|by content" */
static GHashTable *
guess_all (const char *data_dirs)
{
  const char *guess = g_getenv ("PADLOCK_MIME_GUESS");
  g_autofree char *empty_home = sample ("no-home");
  g_autoptr(GPtrArray) argv = g_ptr_array_new_with_free_func (g_free);
  g_autoptr(GDir) dir = NULL;
  g_auto(GStrv) env = g_get_environ ();
  g_auto(GStrv) lines = NULL;
  g_autofree char *out = NULL;
  g_autofree char *err = NULL;
  g_autoptr(GError) error = NULL;
  GHashTable *guesses = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, g_free);
  const char *name;
  int status;

  g_assert_nonnull (guess);
  g_mkdir (empty_home, 0700);
  env = g_environ_setenv (env, "XDG_DATA_DIRS", data_dirs, TRUE);
  env = g_environ_setenv (env, "XDG_DATA_HOME", empty_home, TRUE);
  g_ptr_array_add (argv, g_strdup (guess));
  dir = g_dir_open (samples_dir, 0, &error);
  g_assert_no_error (error);
  while ((name = g_dir_read_name (dir)))
    {
      g_autofree char *path = sample (name);
      if (g_file_test (path, G_FILE_TEST_IS_REGULAR) && strcmp (name, "password") != 0)
        g_ptr_array_add (argv, g_steal_pointer (&path));
    }
  g_ptr_array_add (argv, NULL);

  g_assert_true (g_spawn_sync (NULL, (char **) argv->pdata, env, G_SPAWN_DEFAULT, NULL, NULL,
                               &out, &err, &status, &error));
  g_assert_no_error (error);
  g_assert_true (g_spawn_check_wait_status (status, &error));
  g_assert_no_error (error);
  lines = g_strsplit (out, "\n", -1);
  for (guint i = 0; lines[i]; i++)
    {
      g_auto(GStrv) fields = g_strsplit (lines[i], "\t", 3);

      if (g_strv_length (fields) != 3)
        continue;
      g_test_message ("%-28s %-28s %s", fields[0], fields[1], fields[2]);
      g_hash_table_insert (guesses, g_strdup (fields[0]),
                           g_strdup_printf ("%s|%s", fields[1], fields[2]));
    }
  return guesses;
}

static void
test_mime (void)
{
  static const char *const messages[] = {
    "gpg.pdf.gpg", "gpg-salted", "gpg.asc", "to-ecdh.gpg", "to-rsa", "rnp.gpg", "rnp-ocb",
    "padlock-rfc4880.pgp", "padlock-librepgp.pgp", "padlock-rfc9580.pgp",
  };
  static const char *const keys[] = {
    "ed-key.gpg", "rsa-key.gpg", "ed-secret.gpg", "ed-key-new-format.pgp",
  };
  g_autofree char *mime_dir = installed ("PADLOCK_INSTALL_DATADIR", "mime", NULL);
  g_autofree char *share = installed ("PADLOCK_INSTALL_DATADIR", NULL);
  g_autofree char *ours = g_strdup_printf ("%s:/usr/share", share);
  g_autoptr(GHashTable) with_ours = NULL;
  g_autoptr(GHashTable) without = NULL;
  const char *update_argv[] = { "update-mime-database", mime_dir, NULL };
  g_autofree char *out = NULL;

  samples_dir = g_build_filename (tu_tmpdir (), "samples", NULL);
  g_assert_cmpint (g_mkdir_with_parents (samples_dir, 0700), ==, 0);
  make_samples ();

  run_ok (update_argv, &out);
  with_ours = guess_all (ours);

  for (guint i = 0; i < G_N_ELEMENTS (messages); i++)
    {
      g_test_message ("message %s", messages[i]);
      g_assert_cmpstr (g_hash_table_lookup (with_ours, messages[i]), ==,
                       "application/pgp-encrypted|application/pgp-encrypted");
    }
  /* Keys are keys, by content, and named *.gpg too (a name that
   * shared-mime-info gives to both types). */
  for (guint i = 0; i < G_N_ELEMENTS (keys); i++)
    {
      g_test_message ("key %s", keys[i]);
      g_assert_cmpstr (g_hash_table_lookup (with_ours, keys[i]), ==,
                       "application/pgp-keys|application/pgp-keys");
    }
  /* Neither a signature nor random octets is a message. */
  g_assert_null (strstr (g_hash_table_lookup (with_ours, "plain.txt.sig"), "pgp-encrypted"));
  g_assert_null (strstr (g_hash_table_lookup (with_ours, "random.bin"), "pgp-encrypted"));
  g_assert_cmpstr (g_hash_table_lookup (with_ours, "plain.txt"), ==, "text/plain|text/plain");

  /* And without our definition, a binary message is no message by content:
   * what the package adds. */
  without = guess_all ("/usr/share");
  if (!g_file_test ("/usr/share/mime/packages/" APP_ID ".xml", G_FILE_TEST_EXISTS))
    g_assert_cmpstr (g_hash_table_lookup (without, "gpg-salted"), !=,
                     "application/pgp-encrypted|application/pgp-encrypted");
}

/* --- The settings schema: the build tree's, or the installed one --- */

static void
no_core_dump (gpointer user_data)
{
  struct rlimit none = { 0, 0 };

  setrlimit (RLIMIT_CORE, &none);
}

/* Runs PROGRAM --batch with no schema but what XDG_DATA_DIRS (DATA_DIRS)
 * holds: 2 (bad usage) once it read its settings; else -1 or another
 * status, with *ERR the words on stderr. */
static int
run_batch (const char  *program,
           const char  *data_dirs,
           char       **err)
{
  const char *argv[] = { program, "--batch", NULL };
  g_autoptr(GSubprocessLauncher) launcher =
    g_subprocess_launcher_new (G_SUBPROCESS_FLAGS_STDOUT_SILENCE
                               | G_SUBPROCESS_FLAGS_STDERR_PIPE);
  g_autoptr(GSubprocess) proc = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *empty_home = g_build_filename (tu_tmpdir (), "schema-home", NULL);

  g_mkdir_with_parents (empty_home, 0700);
  g_subprocess_launcher_unsetenv (launcher, "GSETTINGS_SCHEMA_DIR");
  g_subprocess_launcher_setenv (launcher, "XDG_DATA_DIRS", data_dirs, TRUE);
  g_subprocess_launcher_setenv (launcher, "XDG_DATA_HOME", empty_home, TRUE);
  g_subprocess_launcher_setenv (launcher, "GSETTINGS_BACKEND", "memory", TRUE);
  g_subprocess_launcher_setenv (launcher, "DBUS_SESSION_BUS_ADDRESS", "disabled:", TRUE);
  g_subprocess_launcher_unsetenv (launcher, "DISPLAY");
  g_subprocess_launcher_unsetenv (launcher, "WAYLAND_DISPLAY");
  g_subprocess_launcher_set_child_setup (launcher, no_core_dump, NULL, NULL);
  proc = g_subprocess_launcher_spawnv (launcher, argv, &error);
  g_assert_no_error (error);
  g_assert_true (g_subprocess_communicate_utf8 (proc, NULL, NULL, NULL, err, &error));
  g_assert_no_error (error);
  g_test_message ("%s with XDG_DATA_DIRS=%s: %s", program, data_dirs, *err);
  return g_subprocess_get_if_exited (proc) ? g_subprocess_get_exit_status (proc) : -1;
}

static void
assert_no_schema (const char *program,
                  const char *data_dirs)
{
  g_autofree char *err = NULL;

  g_assert_cmpint (run_batch (program, data_dirs, &err), !=, 2);
  g_assert_nonnull (strstr (err, "The settings schema " APP_ID " is not installed"));
}

static void
assert_schema (const char *program,
               const char *data_dirs)
{
  g_autofree char *err = NULL;

  g_assert_cmpint (run_batch (program, data_dirs, &err), ==, 2);
  g_assert_nonnull (strstr (err, "--passphrase-file"));
}

/* Issue 20 §5: a program in the build tree finds the schema compiled
 * there by itself; an installed one knows nothing of the build tree, not
 * even its path, and finds the installed schema only. */
static void
test_schema (void)
{
  const char *build_dir = g_getenv ("PADLOCK_BUILD_DIR");
  g_autofree char *built = g_build_filename (build_dir, "app", "padlock", NULL);
  g_autofree char *program = installed ("PADLOCK_INSTALL_BINDIR", "padlock", NULL);
  g_autofree char *share = installed ("PADLOCK_INSTALL_DATADIR", NULL);
  g_autofree char *schemas = installed ("PADLOCK_INSTALL_DATADIR", "glib-2.0", "schemas", NULL);
  g_autofree char *nowhere = g_build_filename (tu_tmpdir (), "no-data", NULL);
  g_autofree char *prefix = g_build_filename (tu_tmpdir (), "prefix", NULL);
  g_autofree char *bin = g_build_filename (prefix, "bin", NULL);
  g_autofree char *data = g_build_filename (prefix, "data", NULL);
  g_autofree char *copy = g_build_filename (bin, "padlock", NULL);
  g_autofree char *compiled = g_build_filename (build_dir, "data", "gschemas.compiled", NULL);
  g_autofree char *compiled_copy = g_build_filename (data, "gschemas.compiled", NULL);
  g_autofree char *stamp = g_build_filename (prefix, PADLOCK_BUILD_TREE_STAMP, NULL);
  g_autofree char *stripped = g_build_filename (tu_tmpdir (), "padlock-stripped", NULL);
  g_autofree char *contents = NULL;
  const char *compile_argv[] = { "glib-compile-schemas", "--strict", schemas, NULL };
  const char *strip_argv[] = { "objcopy", "--strip-debug", program, stripped, NULL };
  gsize length;

  g_mkdir_with_parents (nowhere, 0700);
  assert_schema (built, nowhere);
  assert_no_schema (program, nowhere);
  run_ok (compile_argv, NULL);
  assert_schema (program, share);

  /* Beside a data/ with the schema compiled in it, as a build tree has:
   * only the build root's stamp makes it one. */
  g_assert_cmpint (g_mkdir_with_parents (bin, 0700), ==, 0);
  g_assert_cmpint (g_mkdir_with_parents (data, 0700), ==, 0);
  tu_copy_file (program, copy);
  g_assert_cmpint (g_chmod (copy, 0755), ==, 0);
  tu_copy_file (compiled, compiled_copy);
  assert_no_schema (copy, nowhere);
  g_assert_true (g_file_set_contents (stamp, "", 0, NULL));
  assert_schema (copy, nowhere);

  /* Nor does the installed program name the build tree (the debugging
   * information aside, which names the sources' folders). */
  run_ok (strip_argv, NULL);
  g_assert_true (g_file_get_contents (stripped, &contents, &length, NULL));
  g_assert_null (memmem (contents, length, build_dir, strlen (build_dir)));
}

int
main (int argc, char *argv[])
{
  const char *meson = g_getenv ("MESON");
  const char *build_dir = g_getenv ("PADLOCK_BUILD_DIR");
  g_autofree char *out = NULL;

  tu_init (&argc, &argv);
  g_assert_nonnull (meson);
  g_assert_nonnull (build_dir);

  /* One install for every test. */
  destdir = g_build_filename (tu_tmpdir (), "destdir", NULL);
  {
    const char *install_argv[] = { meson, "install", "-C", build_dir, "--no-rebuild",
                                   "--quiet", "--destdir", destdir, NULL };
    run_ok (install_argv, &out);
  }

  g_test_add_func ("/install/files", test_files);
  g_test_add_func ("/install/mime", test_mime);
  g_test_add_func ("/install/schema", test_schema);
  return g_test_run ();
}
