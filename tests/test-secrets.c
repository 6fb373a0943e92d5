/* test-secrets.c - padlock-sop never echoes a passphrase or a session
 * key, and no command-line option of ours takes one literally
 *
 * The secrets are unique marker strings; whatever padlock-sop is given
 * (good input, bad input, bad passwords, mistyped options), the markers
 * never show on its standard output or standard error.
 */
#include "testutil.h"

#include <gio/gio.h>

#include <fcntl.h>
#include <string.h>
#include <unistd.h>
#include <glib/gstdio.h>

static char *marker;            /* the passphrase */
static char *marker2;           /* another one, never the right one */

static void
make_markers (void)
{
  g_autofree char *a = g_strdup_printf ("%08x%08x", g_random_int (), g_random_int ());
  g_autofree char *b = g_strdup_printf ("%08x%08x", g_random_int (), g_random_int ());

  marker = g_strconcat ("PLSECRET-", a, "-marker", NULL);
  marker2 = g_strconcat ("PLSECRET-", b, "-other", NULL);
}

/* Runs padlock-sop with ARGS, IN on stdin and, when FD3 is not -1, that
 * descriptor as its descriptor 3. */
static int
sop (const char *const *args, GBytes *in, int fd3, GBytes **out, char **err_text)
{
  g_autoptr(GPtrArray) argv = g_ptr_array_new ();
  g_autoptr(GSubprocessLauncher) launcher = NULL;
  g_autoptr(GSubprocess) proc = NULL;
  g_autoptr(GBytes) stdout_buf = NULL;
  g_autoptr(GBytes) stderr_buf = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *in_path = NULL;
  static int counter;
  gsize n;
  const char *d;
  int status;

  g_ptr_array_add (argv, (char *) tu_sop_path ());
  for (const char *const *a = args; *a; a++)
    g_ptr_array_add (argv, (char *) *a);
  g_ptr_array_add (argv, NULL);

  launcher = g_subprocess_launcher_new (G_SUBPROCESS_FLAGS_STDOUT_PIPE
                                        | G_SUBPROCESS_FLAGS_STDERR_PIPE);
  if (in)
    {
      g_autofree char *name = g_strdup_printf ("secrets-stdin-%d", counter++);
      in_path = tu_write_temp (name, g_bytes_get_data (in, NULL),
                               g_bytes_get_size (in));
      g_subprocess_launcher_set_stdin_file_path (launcher, in_path);
    }
  else
    g_subprocess_launcher_set_stdin_file_path (launcher, "/dev/null");
  if (fd3 >= 0)
    g_subprocess_launcher_take_fd (launcher, fd3, 3);
  proc = g_subprocess_launcher_spawnv (launcher,
                                       (const char *const *) argv->pdata,
                                       &error);
  g_assert_no_error (error);
  g_assert_true (g_subprocess_communicate (proc, NULL, NULL, &stdout_buf,
                                           &stderr_buf, &error));
  g_assert_no_error (error);
  status = g_subprocess_get_if_exited (proc)
           ? g_subprocess_get_exit_status (proc) : -1;
  if (out)
    *out = g_steal_pointer (&stdout_buf);
  d = g_bytes_get_data (stderr_buf, &n);
  *err_text = g_strndup (d ? d : "", n);
  if (in_path)
    g_unlink (in_path);
  return status;
}

static gboolean
bytes_contain (GBytes *b, const char *needle)
{
  gsize n;
  const char *d = b ? g_bytes_get_data (b, &n) : NULL;

  return d && memmem (d, n, needle, strlen (needle)) != NULL;
}

/* Neither marker, nor its random middle (in case of a partial echo),
 * nor EXTRA (when not NULL) shows in OUT or ERR_TEXT. */
static void
check_silent (const char *what, GBytes *out, const char *err_text,
              const char *extra)
{
  const char *secrets[] = { marker, marker2, marker + 9, marker2 + 9, extra };

  for (gsize i = 0; i < G_N_ELEMENTS (secrets); i++)
    {
      g_autofree char *middle = NULL;

      if (!secrets[i])
        continue;
      middle = g_strndup (secrets[i], 16);
      if (bytes_contain (out, middle) || strstr (err_text, middle))
        {
          g_test_message ("%s: a secret was echoed: %s", what, err_text);
          g_test_fail ();
        }
    }
}

static char *
secret_file (const char *name, const void *data, gssize len)
{
  return tu_write_temp (name, data, len < 0 ? strlen (data) : (gsize) len);
}

/* Every path through encrypt and decrypt, good and bad, with the
 * passphrase in a file, in the environment, on a descriptor. */
static void
test_sop_never_echoes (void)
{
  static const char *const profiles[] = { "rfc4880", "librepgp", "rfc9580" };
  g_autofree char *pw_file = secret_file ("secrets-pw", marker, -1);
  g_autofree char *pw2_file = secret_file ("secrets-pw2", marker2, -1);
  g_autofree char *pw_arg = g_strdup_printf ("--with-password=%s", pw_file);
  g_autofree char *pw2_arg = g_strdup_printf ("--with-password=%s", pw2_file);
  g_autoptr(GBytes) plain = tu_bytes_text ("the plaintext, which is no secret here\n");

  g_setenv ("PADLOCK_TEST_SECRET", marker, TRUE);
  for (gsize p = 0; p < G_N_ELEMENTS (profiles); p++)
    for (int armor = 0; armor <= 1; armor++)
      {
        g_autofree char *profile = g_strdup_printf ("--profile=%s", profiles[p]);
        g_autofree char *what = g_strdup_printf ("%s%s", profiles[p],
                                                 armor ? "" : " binary");
        const char *enc[] = { "encrypt", profile, pw_arg,
                              armor ? "--as=binary" : "--no-armor", NULL };
        const char *dec[] = { "decrypt", pw_arg, NULL };
        const char *dec_wrong[] = { "decrypt", pw2_arg, NULL };
        const char *dec_both[] = { "decrypt", pw2_arg, pw_arg, NULL };
        const char *dec_env[] = { "decrypt", "--with-password=@ENV:PADLOCK_TEST_SECRET", NULL };
        const char *dec_fd[] = { "decrypt", "--with-password=@FD:3", NULL };
        g_autoptr(GBytes) cipher = NULL;
        g_autoptr(GBytes) back = NULL;
        g_autofree char *e = NULL;
        gsize clen;
        const guint8 *cd;

        g_assert_cmpint (sop (enc, plain, -1, &cipher, &e), ==, 0);
        check_silent (what, cipher, e, NULL);
        g_clear_pointer (&e, g_free);
        cd = g_bytes_get_data (cipher, &clen);

        g_assert_cmpint (sop (dec, cipher, -1, &back, &e), ==, 0);
        g_assert_true (g_bytes_equal (back, plain));
        check_silent (what, back, e, NULL);
        g_clear_pointer (&e, g_free);
        g_clear_pointer (&back, g_bytes_unref);

        g_assert_cmpint (sop (dec_both, cipher, -1, &back, &e), ==, 0);
        check_silent (what, back, e, NULL);
        g_clear_pointer (&e, g_free);
        g_clear_pointer (&back, g_bytes_unref);

        g_assert_cmpint (sop (dec_env, cipher, -1, &back, &e), ==, 0);
        check_silent (what, back, e, NULL);
        g_clear_pointer (&e, g_free);
        g_clear_pointer (&back, g_bytes_unref);

        g_assert_cmpint (sop (dec_fd, cipher, open (pw_file, O_RDONLY | O_CLOEXEC),
                              &back, &e), ==, 0);
        g_assert_true (g_bytes_equal (back, plain));
        check_silent (what, back, e, NULL);
        g_clear_pointer (&e, g_free);
        g_clear_pointer (&back, g_bytes_unref);

        /* The wrong passphrase. */
        g_assert_cmpint (sop (dec_wrong, cipher, -1, &back, &e), ==, 29);
        g_assert_cmpuint (g_bytes_get_size (back), ==, 0);
        check_silent (what, back, e, NULL);
        g_clear_pointer (&e, g_free);
        g_clear_pointer (&back, g_bytes_unref);

        /* Damaged: cut short, an octet changed near the end, garbage. */
        {
          g_autoptr(GBytes) cut = g_bytes_new (cd, clen * 2 / 3);
          g_autofree guint8 *flipped = g_memdup2 (cd, clen);
          g_autoptr(GBytes) changed = NULL;
          g_autoptr(GBytes) garbage = tu_bytes_text ("this is not OpenPGP at all\n");
          g_autoptr(GBytes) empty = g_bytes_new (NULL, 0);
          GBytes *bad[] = { cut, NULL, garbage, empty };

          flipped[clen - (armor ? 40 : 5)] ^= 0x01;
          changed = g_bytes_new (flipped, clen);
          bad[1] = changed;
          for (gsize i = 0; i < G_N_ELEMENTS (bad); i++)
            {
              g_assert_cmpint (sop (dec, bad[i], -1, &back, &e), !=, 0);
              g_assert_cmpuint (g_bytes_get_size (back), ==, 0);
              check_silent (what, back, e, NULL);
              g_clear_pointer (&e, g_free);
              g_clear_pointer (&back, g_bytes_unref);
            }
        }
      }
  g_unsetenv ("PADLOCK_TEST_SECRET");
}

/* Passphrase files padlock-sop refuses: it says why, not what they hold. */
static void
test_sop_bad_secrets (void)
{
  g_autoptr(GBytes) plain = tu_bytes_text ("hello");
  g_autoptr(GString) with_nul = g_string_new (marker);
  g_autoptr(GString) not_utf8 = g_string_new (marker);
  g_autoptr(GString) too_long = g_string_new (NULL);
  struct { const char *name; GString *content; int enc_status; } cases[] = {
    { "secrets-nul", with_nul, 31 },
    { "secrets-latin1", not_utf8, 31 },
    { "secrets-long", too_long, 41 },
  };

  g_string_append_len (with_nul, "\0tail", 5);
  g_string_append (not_utf8, "\xe9t\xe9");
  while (too_long->len < 5000)
    g_string_append (too_long, marker);

  for (gsize i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_autofree char *path = secret_file (cases[i].name, cases[i].content->str,
                                           (gssize) cases[i].content->len);
      g_autofree char *arg = g_strdup_printf ("--with-password=%s", path);
      g_autofree char *key_arg = g_strdup_printf ("--with-session-key=%s", path);
      const char *enc[] = { "encrypt", arg, NULL };
      const char *dec[] = { "decrypt", arg, NULL };
      const char *dec_key[] = { "decrypt", key_arg, NULL };
      g_autoptr(GBytes) out = NULL;
      g_autofree char *e = NULL;

      g_assert_cmpint (sop (enc, plain, -1, &out, &e), ==, cases[i].enc_status);
      g_assert_cmpuint (g_bytes_get_size (out), ==, 0);
      check_silent (cases[i].name, out, e, NULL);
      g_clear_pointer (&e, g_free);
      g_clear_pointer (&out, g_bytes_unref);
      g_assert_cmpint (sop (dec, plain, -1, &out, &e), !=, 0);
      check_silent (cases[i].name, out, e, NULL);
      g_clear_pointer (&e, g_free);
      g_clear_pointer (&out, g_bytes_unref);
      g_assert_cmpint (sop (dec_key, plain, -1, &out, &e), !=, 0);
      check_silent (cases[i].name, out, e, NULL);
      g_clear_pointer (&e, g_free);
    }
}

/* Session keys are secrets too: a wrong one, a malformed one, and the
 * one --session-key-out writes, which goes to its file only. */
static void
test_sop_session_keys (void)
{
  g_autofree char *pw_file = secret_file ("secrets-sk-pw", marker, -1);
  g_autofree char *pw_arg = g_strdup_printf ("--with-password=%s", pw_file);
  g_autofree char *key_out = g_build_filename (tu_tmpdir (), "secrets-sk-out", NULL);
  g_autofree char *key_out_arg = g_strdup_printf ("--session-key-out=%s", key_out);
  g_autofree char *wrong_key = g_strdup_printf ("9:%s%s", "0123456789ABCDEF0123456789ABCDEF",
                                                "FEDCBA9876543210FEDCBA9876543210");
  g_autofree char *wrong_file = secret_file ("secrets-sk-wrong", wrong_key, -1);
  g_autofree char *wrong_arg = g_strdup_printf ("--with-session-key=%s", wrong_file);
  g_autofree char *junk_file = secret_file ("secrets-sk-junk", marker, -1);
  g_autofree char *junk_arg = g_strdup_printf ("--with-session-key=%s", junk_file);
  g_autoptr(GBytes) plain = tu_bytes_text ("session key test\n");
  g_autoptr(GBytes) cipher = NULL;
  g_autoptr(GBytes) out = NULL;
  g_autofree char *e = NULL;
  g_autofree char *key_text = NULL;
  const char *enc[] = { "encrypt", pw_arg, NULL };
  const char *dec_out[] = { "decrypt", pw_arg, key_out_arg, NULL };
  const char *dec_wrong[] = { "decrypt", wrong_arg, NULL };
  const char *dec_junk[] = { "decrypt", junk_arg, NULL };
  char *colon;

  g_assert_cmpint (sop (enc, plain, -1, &cipher, &e), ==, 0);
  g_clear_pointer (&e, g_free);

  g_unlink (key_out);
  g_assert_cmpint (sop (dec_out, cipher, -1, &out, &e), ==, 0);
  g_assert_true (g_file_get_contents (key_out, &key_text, NULL, NULL));
  g_strchomp (key_text);
  colon = strchr (key_text, ':');
  g_assert_nonnull (colon);
  g_assert_cmpuint (strlen (colon + 1), ==, 64);
  check_silent ("session-key-out", out, e, colon + 1);
  g_clear_pointer (&e, g_free);
  g_clear_pointer (&out, g_bytes_unref);

  g_assert_cmpint (sop (dec_wrong, cipher, -1, &out, &e), !=, 0);
  check_silent ("a wrong session key", out, e, wrong_key + 2);
  g_clear_pointer (&e, g_free);
  g_clear_pointer (&out, g_bytes_unref);

  g_assert_cmpint (sop (dec_junk, cipher, -1, &out, &e), ==, 41);
  check_silent ("a malformed session key", out, e, NULL);
  g_clear_pointer (&e, g_free);
  g_unlink (key_out);
}

/* A passphrase where a file name belongs, or behind a mistyped option:
 * refused, and not repeated. */
static void
test_sop_literal_refused (void)
{
  g_autoptr(GBytes) plain = tu_bytes_text ("hello");
  g_autofree char *eq = g_strdup_printf ("--with-password=%s", marker);
  g_autofree char *at = g_strdup_printf ("--with-password=@%s", marker);
  g_autofree char *at_fd = g_strdup_printf ("--with-password=@FD:%s", marker);
  g_autofree char *at_env = g_strdup_printf ("--with-password=@ENVX:%s", marker);
  g_autofree char *sk = g_strdup_printf ("--with-session-key=%s", marker);
  g_autofree char *typo = g_strdup_printf ("--with-pasword=%s", marker);
  g_autofree char *pass = g_strdup_printf ("--password=%s", marker);
  g_autofree char *passphrase = g_strdup_printf ("--passphrase=%s", marker);
  struct { const char *argv[5]; int status; } cases[] = {
    { { "encrypt", eq, NULL }, 61 },
    { { "decrypt", eq, NULL }, 61 },
    { { "encrypt", "--with-password", marker, NULL }, 61 },
    { { "decrypt", "--with-password", marker, NULL }, 61 },
    { { "encrypt", at, NULL }, 71 },
    { { "decrypt", at, NULL }, 71 },
    { { "encrypt", at_fd, NULL }, 71 },
    { { "encrypt", at_env, NULL }, 71 },
    { { "decrypt", sk, NULL }, 61 },
    { { "encrypt", typo, NULL }, 37 },
    { { "decrypt", typo, NULL }, 37 },
    { { "encrypt", pass, NULL }, 37 },
    { { "encrypt", passphrase, NULL }, 37 },
    { { "decrypt", passphrase, NULL }, 37 },
    { { "version", marker, NULL }, 37 },
    { { "armor", pass, NULL }, 37 },
    { { "dearmor", marker, NULL }, 37 },
    { { "speed", pass, NULL }, 37 },
  };

  for (gsize i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_autoptr(GBytes) out = NULL;
      g_autofree char *e = NULL;
      g_autofree char *joined = g_strjoinv (" ", (char **) cases[i].argv);
      g_auto(GStrv) parts = g_strsplit (joined, marker, -1);
      g_autofree char *what = g_strjoinv ("SECRET", parts);
      int status = sop (cases[i].argv, plain, -1, &out, &e);

      g_test_message ("%s: exit %d: %s", cases[i].argv[0], status, e);
      g_assert_cmpint (status, ==, cases[i].status);
      g_assert_cmpuint (g_bytes_get_size (out), ==, 0);
      /* Something is said, only not the secret. */
      g_assert_cmpuint (strlen (e), >, 0);
      check_silent (what, out, e, NULL);
    }
}

/* The options themselves: every one that carries a password or a key
 * takes it indirectly, and the application takes none but a file name
 * (--passphrase-file). */
static void
test_no_secret_options (void)
{
  static const char *const sop_allowed[] = {
    "--with-password",          /* a file, @ENV:NAME or @FD:N */
    "--with-session-key",       /* the same */
    "--session-key-out",        /* a file to create */
    "--with-key-password",      /* a file, @ENV:NAME or @FD:N */
  };
  const char *src_dir = g_getenv ("PADLOCK_SOURCE_DIR");
  g_autofree char *sop_c = NULL;
  g_autofree char *sop_path = NULL;
  g_autoptr(GRegex) long_option = NULL;
  g_autoptr(GRegex) option_entry = NULL;
  g_autoptr(GMatchInfo) match = NULL;
  g_autoptr(GPtrArray) app_sources = NULL;
  g_autofree char *e = NULL;
  g_autoptr(GBytes) help = NULL;
  guint n_options = 0, n_entries = 0;

  if (!src_dir)
    {
      g_test_skip ("PADLOCK_SOURCE_DIR is not set");
      return;
    }

  /* padlock-sop: every option named in its source. */
  sop_path = g_build_filename (src_dir, "sop", "sop.c", NULL);
  g_assert_true (g_file_get_contents (sop_path, &sop_c, NULL, NULL));
  long_option = g_regex_new ("\"(--[a-z][a-z-]*)", 0, 0, NULL);
  g_regex_match (long_option, sop_c, 0, &match);
  while (g_match_info_matches (match))
    {
      g_autofree char *opt = g_match_info_fetch (match, 1);
      g_autofree char *lower = g_ascii_strdown (opt, -1);
      gboolean secret = strstr (lower, "pass") || strstr (lower, "key")
                        || strstr (lower, "secret") || strstr (lower, "pin");

      n_options++;
      if (secret)
        {
          gboolean allowed = FALSE;
          for (gsize i = 0; i < G_N_ELEMENTS (sop_allowed); i++)
            allowed |= !strcmp (opt, sop_allowed[i]);
          if (!allowed)
            {
              g_test_message ("padlock-sop has a secret-bearing option %s", opt);
              g_test_fail ();
            }
        }
      g_match_info_next (match, NULL);
    }
  g_clear_pointer (&match, g_match_info_free);
  g_test_message ("padlock-sop: %u option names checked", n_options);
  g_assert_cmpuint (n_options, >, 5);

  /* --with-key-password: encryption takes it (for --sign-with) and
   * decryption too, and both still need a recipient, KEYS or a
   * password. */
  {
    g_autofree char *pw_file = secret_file ("secrets-keypw", marker, -1);
    g_autofree char *arg = g_strdup_printf ("--with-key-password=%s", pw_file);
    const char *enc[] = { "encrypt", arg, NULL };
    const char *dec[] = { "decrypt", arg, NULL };
    g_autoptr(GBytes) in = tu_bytes_text ("x");

    g_assert_cmpint (sop (enc, in, -1, NULL, &e), ==, 19);
    g_clear_pointer (&e, g_free);
    g_assert_cmpint (sop (dec, in, -1, NULL, &e), ==, 19);
    g_clear_pointer (&e, g_free);
  }

  /* Its usage says so. */
  {
    const char *args[] = { "--help", NULL };
    g_assert_cmpint (sop (args, NULL, -1, &help, &e), ==, 0);
    g_assert_true (bytes_contain (help, "PASSWORD and SESSIONKEY name a file, "
                                        "@ENV:NAME or @FD:N."));
  }

  /* The application, every room under app/: no GOptionEntry of any name that
   * holds a secret. */
  option_entry = g_regex_new ("\\{\\s*\"([A-Za-z0-9-]+)\"\\s*,\\s*(?:'.'|0)\\s*,"
                              "[^,]*,\\s*G_OPTION_ARG_([A-Z_]+)",
                              0, 0, NULL);
  app_sources = tu_source_files ("app", ".c");
  for (guint i = 0; i < app_sources->len; i++)
    {
      const char *name = g_ptr_array_index (app_sources, i);
      g_autofree char *path = g_build_filename (src_dir, name, NULL);
      g_autofree char *text = NULL;

      g_assert_true (g_file_get_contents (path, &text, NULL, NULL));
      g_regex_match (option_entry, text, 0, &match);
      while (g_match_info_matches (match))
        {
          g_autofree char *opt = g_match_info_fetch (match, 1);
          g_autofree char *arg = g_match_info_fetch (match, 2);
          g_autofree char *lower = g_ascii_strdown (opt, -1);

          n_entries++;
          g_test_message ("%s: --%s (G_OPTION_ARG_%s)", name, opt, arg);
          /* padlock --batch --passphrase-file names a file (or - for
           * the terminal); the passphrase itself is never an argument. */
          if (!strcmp (opt, "passphrase-file") && !strcmp (arg, "FILENAME"))
            ;
          else if (strstr (lower, "pass") || strstr (lower, "secret")
                   || strstr (lower, "key") || strstr (lower, "pin")
                   || strstr (lower, "pw"))
            {
              g_test_message ("%s: option --%s may carry a secret", name, opt);
              g_test_fail ();
            }
          g_match_info_next (match, NULL);
        }
      g_clear_pointer (&match, g_match_info_free);
    }
  g_assert_cmpuint (n_entries, >, 0);
}

int
main (int argc, char **argv)
{
  tu_init (&argc, &argv);
  make_markers ();

  g_test_add_func ("/secrets/sop/never-echoes", test_sop_never_echoes);
  g_test_add_func ("/secrets/sop/bad-secrets", test_sop_bad_secrets);
  g_test_add_func ("/secrets/sop/session-keys", test_sop_session_keys);
  g_test_add_func ("/secrets/sop/literal-refused", test_sop_literal_refused);
  g_test_add_func ("/secrets/options", test_no_secret_options);
  return g_test_run ();
}
