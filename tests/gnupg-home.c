/* gnupg-home.c - a GnuPG home of a test's own, with a real gpg-agent */
#include "gnupg-home.h"

#include <glib/gstdio.h>
#include <signal.h>
#include <stdarg.h>
#include <string.h>
#include <unistd.h>

#include "packet-builder.h"
#include "testutil.h"

TgHome *
tg_home_new (void)
{
  TgHome *home = g_new0 (TgHome, 1);
  g_autoptr (GError) error = NULL;
  g_autofree char *pinentry = NULL;
  g_autofree char *link = NULL;
  g_autofree char *conf = NULL;
  g_autofree char *text = NULL;

  home->dir = g_dir_make_tmp ("pl-gpg-XXXXXX", &error);
  g_assert_no_error (error);
  pinentry = g_build_filename (g_getenv ("PADLOCK_SOURCE_DIR"), "tests",
                               "test-pinentry.sh", NULL);
  g_assert_true (g_file_test (pinentry, G_FILE_TEST_IS_EXECUTABLE));
  link = tg_home_path (home, "pinentry");
  g_assert_cmpint (symlink (pinentry, link), ==, 0);
  conf = tg_home_path (home, "gpg-agent.conf");
  text = g_strdup_printf ("pinentry-program %s\nallow-loopback-pinentry\n", link);
  g_assert_true (g_file_set_contents (conf, text, -1, NULL));
  /* A failed test must not leave its agents behind either. */
  tu_watch_gnupg_home (home->dir);
  return home;
}

void
tg_home_remove (TgHome *home)
{
  /* A gpg still at work in it would make it again once removed. */
  tu_wait_gnupg_clients (home->dir);
  /* Its agent must be gone by the test's end (checked at exit). */
  tu_stop_gnupg_daemons (home->dir);
  tu_remove_tree (home->dir);
}

void
tg_home_free (TgHome *home)
{
  if (!home)
    return;
  tu_unwatch_gnupg_home (home->dir);
  tg_home_remove (home);
  g_free (home->dir);
  g_free (home);
}

char *
tg_home_path (TgHome *home, const char *name)
{
  return g_build_filename (home->dir, name, NULL);
}

static int
run_gpg (TgHome *home, const char *passphrase, GBytes *in, GBytes **out,
         GPtrArray *args)
{
  /* Without a passphrase, gpg asks the home's agent (and its test
   * pinentry). */
  const char *options[] = { "--pinentry-mode", "loopback", "--passphrase",
                            passphrase, NULL };

  g_ptr_array_add (args, NULL);
  return tu_gpg_in (home->dir, passphrase ? options : NULL,
                    (const char *const *) args->pdata, in, out, NULL);
}

int
tg_gpg (TgHome *home, const char *passphrase, GBytes *in, GBytes **out, ...)
{
  g_autoptr (GPtrArray) args = g_ptr_array_new ();
  va_list ap;

  va_start (ap, out);
  for (const char *arg = va_arg (ap, const char *); arg; arg = va_arg (ap, const char *))
    g_ptr_array_add (args, (char *) arg);
  va_end (ap);
  return run_gpg (home, passphrase, in, out, args);
}

static void
make_key (TgHome *home, const char *command, const char *first,
          const char *algo, const char *usage, const char *expire,
          const char *passphrase, const char *faked_time)
{
  g_autoptr (GPtrArray) args = g_ptr_array_new ();

  if (faked_time)
    {
      g_ptr_array_add (args, "--faked-system-time");
      g_ptr_array_add (args, (char *) faked_time);
    }
  g_ptr_array_add (args, (char *) command);
  g_ptr_array_add (args, (char *) first);
  g_ptr_array_add (args, (char *) algo);
  g_ptr_array_add (args, (char *) usage);
  g_ptr_array_add (args, (char *) expire);
  g_assert_cmpint (run_gpg (home, passphrase, NULL, NULL, args), ==, 0);
}

/* The fpr: (or grp:) lines of gpg --with-colons for PATTERN. */
static GStrv
colon_field (TgHome *home, const char *pattern, const char *record)
{
  g_autoptr (GBytes) out = NULL;
  g_auto (GStrv) lines = NULL;
  g_autoptr (GStrvBuilder) found = g_strv_builder_new ();
  g_autofree char *text = NULL;

  g_assert_cmpint (tg_gpg (home, NULL, NULL, &out, "--with-colons",
                           "--with-keygrip", "--list-keys", pattern, NULL), ==, 0);
  text = g_strndup (g_bytes_get_data (out, NULL), g_bytes_get_size (out));
  lines = g_strsplit (text, "\n", -1);
  for (guint i = 0; lines[i]; i++)
    if (g_str_has_prefix (lines[i], record))
      {
        g_auto (GStrv) fields = g_strsplit (lines[i], ":", -1);

        g_assert_cmpuint (g_strv_length (fields), >, 9);
        g_strv_builder_add (found, fields[9]);
      }
  return g_strv_builder_end (found);
}

char *
tg_gen_key (TgHome *home, const char *uid, const char *algo, const char *usage,
            const char *expire, const char *passphrase, const char *faked_time)
{
  g_auto (GStrv) fprs = NULL;

  make_key (home, "--quick-gen-key", uid, algo, usage, expire, passphrase,
            faked_time);
  fprs = colon_field (home, uid, "fpr:");
  g_assert_nonnull (fprs[0]);
  return g_strdup (fprs[0]);
}

void
tg_add_key (TgHome *home, const char *fpr, const char *algo, const char *usage,
            const char *expire, const char *passphrase, const char *faked_time)
{
  make_key (home, "--quick-add-key", fpr, algo, usage, expire, passphrase,
            faked_time);
}

void
tg_revoke (TgHome *home, const char *fpr)
{
  g_autofree char *name = g_strdup_printf ("%s.rev", fpr);
  g_autofree char *path = g_build_filename (home->dir, "openpgp-revocs.d", name, NULL);
  g_autofree char *text = NULL;
  g_autoptr (GBytes) in = NULL;
  char *armor;

  g_assert_true (g_file_get_contents (path, &text, NULL, NULL));
  /* gpg puts a colon before the armor so that it is not imported by
   * mistake. */
  armor = strstr (text, ":-----BEGIN");
  g_assert_nonnull (armor);
  armor++;
  in = g_bytes_new (armor, strlen (armor));
  g_assert_cmpint (tg_gpg (home, NULL, in, NULL, "--import", NULL), ==, 0);
}

GStrv
tg_keygrips (TgHome *home, const char *fpr)
{
  return colon_field (home, fpr, "grp:");
}

void
tg_home_set_pinentry (TgHome *home, const char *answer)
{
  g_autofree char *path = tg_home_path (home, "pinentry.answer");
  g_autofree char *release = tg_home_path (home, "pinentry.release");

  /* A new "hang" waits again: an earlier test's release does not end it.
   * Any other answer keeps the release, for a pinentry still hanging. */
  if (answer && g_str_has_prefix (answer, "hang"))
    g_unlink (release);
  if (answer)
    g_assert_true (g_file_set_contents (path, answer, -1, NULL));
  else
    g_unlink (path);
}

void
tg_home_release_pinentry (TgHome *home)
{
  g_autofree char *path = tg_home_path (home, "pinentry.release");

  g_assert_true (g_file_set_contents (path, "", 0, NULL));
}

guint
tg_home_pinentry_count (TgHome *home)
{
  g_autofree char *path = tg_home_path (home, "pinentry.log");
  g_autofree char *text = NULL;
  guint count = 0;

  if (!g_file_get_contents (path, &text, NULL, NULL))
    return 0;
  for (const char *p = text; (p = strstr (p, "GETPIN\n")); p++)
    count++;
  return count;
}

void
tg_gpgconf (TgHome *home, const char *command, const char *component)
{
  const char *argv[] = { "gpgconf", "--homedir", home->dir, command, component,
                         NULL };
  int status;

  g_assert_true (g_spawn_sync (NULL, (char **) argv, NULL, G_SPAWN_SEARCH_PATH,
                               NULL, NULL, NULL, NULL, &status, NULL));
  g_assert_true (g_spawn_check_wait_status (status, NULL));
  /* gpgconf --kill returns once the agent was told; the agent removes
   * its socket as it exits, a moment later.  Under load (three ASan
   * suites at once) /agent/start saw the socket still there after the
   * kill: the kill is over when the socket is gone. */
  if (g_str_equal (command, "--kill")
      && (g_str_equal (component, "gpg-agent") || g_str_equal (component, "all")))
    {
      g_autofree char *socket = tg_home_path (home, "S.gpg-agent");
      gint64 until = g_get_monotonic_time () + 10 * G_USEC_PER_SEC;

      while (g_file_test (socket, G_FILE_TEST_EXISTS)
             && g_get_monotonic_time () < until)
        g_usleep (10 * 1000);
      if (g_file_test (socket, G_FILE_TEST_EXISTS))
        g_error ("gpg-agent of %s still has its socket 10 s after gpgconf --kill",
                 home->dir);
    }
}

char *
tg_gen_encryption_key (TgHome *home, const char *uid, const char *primary_algo,
                       const char *sub_algo, const char *expire,
                       const char *faked_time)
{
  char *fpr = tg_gen_key (home, uid, primary_algo, "cert,sign", expire, "",
                          faked_time);

  tg_add_key (home, fpr, sub_algo, "encr", expire, "", faked_time);
  return fpr;
}

GBytes *
tg_gpg_decrypt_file (TgHome *home, const char *path, const char *passphrase)
{
  g_autofree char *data = NULL;
  g_autoptr (GBytes) in = NULL;
  GBytes *out = NULL;
  gsize len = 0;

  g_assert_true (g_file_get_contents (path, &data, &len, NULL));
  in = g_bytes_new_take (g_steal_pointer (&data), len);
  if (tg_gpg (home, passphrase, in, &out, "--decrypt", NULL) != 0)
    g_clear_pointer (&out, g_bytes_unref);
  return out;
}

GBytes *
tg_bad_signature_message (TgHome *home, const char *signer, const char *name,
                          const char *text, const char *passphrase)
{
  g_autoptr(GBytes) in = g_bytes_new (text, strlen (text));
  g_autoptr(GBytes) signed_msg = NULL;
  GByteArray *msg;
  guint8 *inner;
  gsize len;

  g_assert_cmpint (tg_gpg (home, NULL, in, &signed_msg, "--set-filename", name,
                           "-z", "0", "--output", "-", "-u", signer, "-s",
                           NULL), ==, 0);
  inner = g_bytes_unref_to_data (g_steal_pointer (&signed_msg), &len);
  g_assert_cmpuint (len, >, 64);
  inner[len - 2] ^= 0x01;
  msg = pb_message (passphrase, inner, len, -1);
  g_free (inner);
  return g_byte_array_free_to_bytes (msg);
}

char *
tg_clearsign (TgHome *home, const char *signer, const char *text,
              const char *from, const char *to)
{
  g_autoptr(GBytes) in = g_bytes_new (text, strlen (text));
  g_autoptr(GBytes) out = NULL;
  char *msg, *at;

  g_assert_cmpint (tg_gpg (home, NULL, in, &out, "-u", signer, "--output", "-",
                           "--clearsign", NULL), ==, 0);
  msg = g_strndup (g_bytes_get_data (out, NULL), g_bytes_get_size (out));
  if (from)
    {
      at = strstr (msg, from);
      g_assert_true (at && at < strstr (msg, "-----BEGIN PGP SIGNATURE"));
      g_assert_cmpuint (strlen (from), ==, strlen (to));
      memcpy (at, to, strlen (to));
    }
  return msg;
}

char *
tg_encrypt_file (TgHome *home, const char *dir, const char *name,
                 const char *text, const char *passphrase, const char *r1,
                 const char *r2)
{
  g_autofree char *plain = g_build_filename (dir, name, NULL);
  char *path = g_strconcat (plain, ".gpg", NULL);
  g_autoptr(GBytes) in = g_bytes_new (text, strlen (text));
  g_autoptr(GBytes) sealed = NULL;
  g_autoptr(GError) error = NULL;

  /* Each option left out ends the list ("--no-tty" is already set). */
  g_assert_true (r1 || !r2);
  g_assert_cmpint (tg_gpg (home, passphrase, in, &sealed, "--trust-model",
                           "always", "--set-filename", name, "--output", "-",
                           passphrase ? "-c" : "--no-tty",
                           r1 ? "-e" : "--no-tty", r1 ? "-r" : NULL, r1,
                           r2 ? "-r" : NULL, r2, NULL), ==, 0);
  g_assert_true (g_file_set_contents (path, g_bytes_get_data (sealed, NULL),
                                      g_bytes_get_size (sealed), &error));
  g_assert_no_error (error);
  return path;
}

char *
tg_two_faced_key (TgHome *owner, TgHome *user, const char *claimed,
                  const char *real)
{
  char *fpr = tg_gen_encryption_key (owner, claimed, "ed25519", "cv25519",
                                     "never", NULL);

  g_assert_cmpint (tg_gpg (owner, "", NULL, NULL, "--quick-add-uid", fpr, real,
                           NULL), ==, 0);
  /* A newer self-signature would make REAL the primary otherwise. */
  g_assert_cmpint (tg_gpg (owner, "", NULL, NULL, "--quick-set-primary-uid",
                           fpr, claimed, NULL), ==, 0);
  tg_import_cert (user, owner, fpr);
  g_assert_cmpint (tg_gpg (user, NULL, NULL, NULL, "--quick-lsign-key", fpr,
                           real, NULL), ==, 0);
  return fpr;
}

void
tg_import_cert (TgHome *to, TgHome *from, const char *what)
{
  g_autoptr (GBytes) cert = NULL;

  g_assert_cmpint (tg_gpg (from, NULL, NULL, &cert, "--export", what, NULL),
                   ==, 0);
  g_assert_cmpint (g_bytes_get_size (cert), >, 0);
  g_assert_cmpint (tg_gpg (to, NULL, cert, NULL, "--import", NULL), ==, 0);
}

GPtrArray *
tg_colon_records (TgHome *home, const char *command, const char *pattern,
                  const char *record)
{
  g_autoptr (GBytes) out = NULL;
  g_autofree char *text = NULL;
  g_auto (GStrv) lines = NULL;
  GPtrArray *found = g_ptr_array_new_with_free_func ((GDestroyNotify) g_strfreev);

  g_assert_cmpint (tg_gpg (home, NULL, NULL, &out, "--with-colons", command,
                           pattern, NULL), ==, 0);
  text = g_strndup (g_bytes_get_data (out, NULL), g_bytes_get_size (out));
  lines = g_strsplit (text, "\n", -1);
  for (guint i = 0; lines[i]; i++)
    if (g_str_has_prefix (lines[i], record) && lines[i][strlen (record)] == ':')
      g_ptr_array_add (found, g_strsplit (lines[i], ":", -1));
  return found;
}
