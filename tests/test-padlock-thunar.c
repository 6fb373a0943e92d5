/* test-padlock-thunar.c - padlock --add-thunar-actions: our two actions merged
 * into a uca.xml that holds the user's own, idempotently */
#include <string.h>
#include <unistd.h>
#include <sys/stat.h>
#include <glib/gstdio.h>

#include "padlock-thunar.h"
#include "testutil.h"

/* As Thunar writes it, with two actions of the user's, a translated name,
 * entities, an attribute holding '>' and a comment that mentions <action>. */
static const char user_file[] =
  "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
  "<actions>\n"
  "<action>\n"
  "\t<icon>utilities-terminal</icon>\n"
  "\t<name>Open Terminal Here</name>\n"
  "\t<name xml:lang=\"de\">Terminal hier öffnen</name>\n"
  "\t<submenu></submenu>\n"
  "\t<unique-id>1591534458409419-1</unique-id>\n"
  "\t<command>exo-open --working-directory %f --launch TerminalEmulator</command>\n"
  "\t<description>Open a terminal &amp; more &lt;here&gt;</description>\n"
  "\t<range></range>\n"
  "\t<patterns>*</patterns>\n"
  "\t<startup-notify/>\n"
  "\t<directories/>\n"
  "</action>\n"
  "<!-- mine: <action> padlock-encrypt </action> -->\n"
  "<action note=\"a > b\">\n"
  "\t<icon>image</icon>\n"
  "\t<name>Shrink</name>\n"
  "\t<unique-id>1591534458409419-2</unique-id>\n"
  "\t<command>convert %f -resize 50%% %f</command>\n"
  "\t<patterns>*.png;*.jpg</patterns>\n"
  "\t<image-files/>\n"
  "</action>\n"
  "</actions>\n";

static char *
merge (const char *contents)
{
  g_autoptr(GError) error = NULL;
  char *merged = padlock_thunar_merge_actions (contents, -1, &error);

  g_assert_no_error (error);
  g_assert_nonnull (merged);
  return merged;
}

/* Well-formed, with <actions> at the root, and each of ours once. */
static void
check_actions_file (const char *contents)
{
  g_autoptr(GMarkupParseContext) context = NULL;
  g_autoptr(GError) error = NULL;
  static const GMarkupParser nothing = { NULL };

  context = g_markup_parse_context_new (&nothing, 0, NULL, NULL);
  g_assert_true (g_markup_parse_context_parse (context, contents, -1, &error));
  g_assert_true (g_markup_parse_context_end_parse (context, &error));
  g_assert_no_error (error);
  g_assert_cmpuint (tu_count (contents, "<unique-id>padlock-encrypt</unique-id>"), ==, 1);
  g_assert_cmpuint (tu_count (contents, "<unique-id>padlock-decrypt</unique-id>"), ==, 1);
  g_assert_cmpuint (tu_count (contents, "<command>padlock --encrypt %F</command>"), ==, 1);
  g_assert_cmpuint (tu_count (contents, "<command>padlock --decrypt %F</command>"), ==, 1);
  g_assert_cmpuint (tu_count (contents, "<patterns>*.gpg;*.pgp;*.asc</patterns>"), ==, 2);
  /* Open Without Saving (issue 38), for the same messages as Decrypt. */
  g_assert_cmpuint (tu_count (contents, "<unique-id>padlock-open</unique-id>"), ==, 1);
  g_assert_cmpuint (tu_count (contents, "<command>padlock --open %F</command>"), ==, 1);
  g_assert_cmpuint (tu_count (contents, "<name>Open Without Saving</name>"), ==, 1);
  g_assert_cmpuint (tu_count (contents, "<unique-id>padlock-sign</unique-id>"), ==, 1);
  g_assert_cmpuint (tu_count (contents, "<command>padlock --sign --detach %F</command>"), ==, 1);
  /* Folders are encrypted (one archive each), never signed. */
  {
    const char *sign = strstr (contents, "<unique-id>padlock-sign</unique-id>");
    g_autofree char *action = g_strndup (sign, strstr (sign, "</action>") - sign);

    g_assert_null (strstr (action, "<directories/>"));
    g_assert_nonnull (strstr (action, "<other-files/>"));
  }
}

static void
test_merge_keeps_user_actions (void)
{
  g_autofree char *once = merge (user_file);
  g_autofree char *twice = merge (once);
  const char *end_tag = strstr (user_file, "</actions>");
  gsize head = (gsize) (end_tag - user_file);

  check_actions_file (once);
  /* Everything of the user's, byte for byte, ours just before </actions>. */
  g_assert_true (strncmp (once, user_file, head) == 0);
  g_assert_true (g_str_has_suffix (once, "</action>\n</actions>\n"));
  g_assert_true (strstr (once + head, "<unique-id>padlock-encrypt</unique-id>")
                 < strstr (once + head, "<unique-id>padlock-decrypt</unique-id>"));
  g_assert_true (strstr (once + head, "<unique-id>padlock-decrypt</unique-id>")
                 < strstr (once + head, "<unique-id>padlock-sign</unique-id>"));
  g_assert_true (strstr (once + head, "<unique-id>padlock-sign</unique-id>")
                 < strstr (once + head, "<unique-id>padlock-open</unique-id>"));
  /* Idempotent. */
  g_assert_cmpstr (twice, ==, once);
}

/* An older copy of ours, between the user's, is replaced where it stands. */
static void
test_merge_replaces_ours_in_place (void)
{
  static const char before[] =
    "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
    "<actions>\n"
    "<action><name>First</name><unique-id>1-1</unique-id><command>a %f</command></action>\n"
    "  <action>\n"
    "\t<name>Old encrypt</name>\n"
    "\t<unique-id> padlock-encrypt </unique-id>\n"
    "\t<command>/opt/old/padlock -e %F</command>\n"
    "  </action>\n"
    "<action><name>Last</name><unique-id>1-2</unique-id><command>b %f</command></action>\n"
    "</actions>";
  g_autofree char *merged = merge (before);
  g_autofree char *again = merge (merged);
  const char *first_end = strstr (before, "  <action>\n") + 2;
  const char *last = strstr (before, "<action><name>Last");
  const char *merged_last = strstr (merged, "<action><name>Last");

  check_actions_file (merged);
  g_assert_null (strstr (merged, "Old encrypt"));
  g_assert_null (strstr (merged, "/opt/old/padlock"));
  /* Up to the old action, and from after it, the user's bytes. */
  g_assert_true (strncmp (merged, before, first_end - before) == 0);
  g_assert_true (g_str_has_prefix (merged + (first_end - before),
                                   "<action>\n\t<icon>io.github.padlock.Padlock</icon>"));
  g_assert_nonnull (merged_last);
  /* The new decrypt action goes last, before </actions>, which had no
   * newline after it and still has none. */
  g_assert_true (g_str_has_prefix (merged_last,
    "<action><name>Last</name><unique-id>1-2</unique-id><command>b %f</command></action>\n"
    "<action>\n"));
  g_assert_true (g_str_has_suffix (merged, "</action>\n</actions>"));
  g_assert_true (strstr (merged, "padlock-encrypt") < merged_last);
  g_assert_true (strstr (merged, "padlock-decrypt") > merged_last);
  (void) last;
  g_assert_cmpstr (again, ==, merged);
}

static void
test_merge_drops_duplicates (void)
{
  g_autofree char *once = merge (user_file);
  g_autofree char *doubled = NULL;
  g_autofree char *merged = NULL;
  const char *start = strstr (once, "<action>\n\t<icon>io.github.padlock.Padlock");
  const char *end = strstr (once, "</actions>");
  g_autoptr(GString) s = g_string_new_len (once, end - once);

  /* Ours twice over. */
  g_string_append_len (s, start, end - start);
  g_string_append (s, end);
  doubled = g_string_free (g_steal_pointer (&s), FALSE);
  g_assert_cmpuint (tu_count (doubled, "padlock-encrypt"), ==, 3);

  merged = merge (doubled);
  check_actions_file (merged);
  g_assert_cmpstr (merged, ==, once);
}

static void
test_merge_new_and_empty (void)
{
  g_autoptr(GError) error = NULL;
  g_autofree char *fresh = padlock_thunar_merge_actions (NULL, 0, &error);
  g_autofree char *blank = merge ("\n  \n");
  g_autofree char *empty_root = merge ("<?xml version=\"1.0\"?>\n<actions/>\n");
  g_autofree char *spaced_root = merge ("<actions >\n</actions >\n");

  g_assert_no_error (error);
  check_actions_file (fresh);
  g_assert_true (g_str_has_prefix (fresh, "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<actions>\n"));
  g_assert_cmpstr (blank, ==, fresh);
  check_actions_file (empty_root);
  g_assert_true (g_str_has_prefix (empty_root, "<?xml version=\"1.0\"?>\n<actions>\n<action>"));
  g_assert_true (g_str_has_suffix (empty_root, "</action>\n</actions>\n"));
  check_actions_file (spaced_root);
  g_assert_true (g_str_has_prefix (spaced_root, "<actions >\n<action>"));
  g_assert_true (g_str_has_suffix (spaced_root, "</action>\n</actions >\n"));
}

static void
test_merge_refuses (void)
{
  static const char *const bad[] = {
    "<actions><action></actions>",              /* not well-formed */
    "not xml at all",
    "<?xml version=\"1.0\"?>\n<menu><action/></menu>\n",  /* another root */
  };

  for (guint i = 0; i < G_N_ELEMENTS (bad); i++)
    {
      g_autoptr(GError) error = NULL;
      g_autofree char *merged = padlock_thunar_merge_actions (bad[i], -1, &error);

      g_assert_null (merged);
      g_assert_error (error, G_MARKUP_ERROR, error->code);
    }
}

static void
test_add_actions_file (void)
{
  g_autofree char *dir = g_build_filename (tu_tmpdir (), "config", "Thunar", NULL);
  g_autofree char *path = g_build_filename (dir, "uca.xml", NULL);
  g_autofree char *first = NULL;
  g_autofree char *second = NULL;
  g_autoptr(GError) error = NULL;
  gboolean changed = FALSE;
  struct stat st;

  /* No folder yet: made. */
  g_assert_true (padlock_thunar_add_actions (path, &changed, &error));
  g_assert_no_error (error);
  g_assert_true (changed);
  g_assert_true (g_file_get_contents (path, &first, NULL, NULL));
  check_actions_file (first);

  /* The user's file, with its mode, and the second run writes nothing. */
  g_assert_true (g_file_set_contents (path, user_file, -1, NULL));
  g_assert_cmpint (g_chmod (path, 0600), ==, 0);
  g_assert_true (padlock_thunar_add_actions (path, &changed, &error));
  g_assert_true (changed);
  g_assert_cmpint (g_stat (path, &st), ==, 0);
  g_assert_cmpint (st.st_mode & 0777, ==, 0600);
  g_assert_true (padlock_thunar_add_actions (path, &changed, &error));
  g_assert_no_error (error);
  g_assert_false (changed);
  g_assert_true (g_file_get_contents (path, &second, NULL, NULL));
  g_assert_true (g_str_has_prefix (second, "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<actions>\n<action>\n\t<icon>utilities-terminal"));
  check_actions_file (second);

  /* A broken file is left alone. */
  g_assert_true (g_file_set_contents (path, "<actions><oops></actions>", -1, NULL));
  g_assert_false (padlock_thunar_add_actions (path, &changed, &error));
  g_assert_nonnull (error);
  g_assert_false (changed);
  g_clear_pointer (&second, g_free);
  g_assert_true (g_file_get_contents (path, &second, NULL, NULL));
  g_assert_cmpstr (second, ==, "<actions><oops></actions>");
}

/* A uca.xml linked from a dotfiles folder stays a link. */
static void
test_add_actions_symlink (void)
{
  g_autofree char *dir = g_build_filename (tu_tmpdir (), "linked", "Thunar", NULL);
  g_autofree char *path = g_build_filename (dir, "uca.xml", NULL);
  g_autofree char *real = g_build_filename (tu_tmpdir (), "linked", "dotfiles-uca.xml", NULL);
  g_autofree char *contents = NULL;
  g_autoptr(GError) error = NULL;
  gboolean changed;
  struct stat st;

  g_assert_cmpint (g_mkdir_with_parents (dir, 0700), ==, 0);
  g_assert_true (g_file_set_contents (real, user_file, -1, NULL));
  g_assert_cmpint (symlink (real, path), ==, 0);
  g_assert_true (padlock_thunar_add_actions (path, &changed, &error));
  g_assert_no_error (error);
  g_assert_true (changed);
  g_assert_cmpint (g_lstat (path, &st), ==, 0);
  g_assert_true (S_ISLNK (st.st_mode));
  g_assert_true (g_file_get_contents (real, &contents, NULL, NULL));
  check_actions_file (contents);
}

/* The command line, twice, in XDG_CONFIG_HOME. */
static void
test_command_line (void)
{
  const char *app = g_getenv ("PADLOCK_APP");
  g_autofree char *home = g_build_filename (tu_tmpdir (), "cli", NULL);
  g_autofree char *dir = g_build_filename (home, "Thunar", NULL);
  g_autofree char *path = g_build_filename (dir, "uca.xml", NULL);
  g_autofree char *first = NULL;
  g_autofree char *second = NULL;
  g_auto(GStrv) env = g_get_environ ();
  const char *argv[] = { app, "--add-thunar-actions", NULL };

  if (!app)
    {
      g_test_skip ("PADLOCK_APP is not set");
      return;
    }
  g_assert_cmpint (g_mkdir_with_parents (dir, 0700), ==, 0);
  g_assert_true (g_file_set_contents (path, user_file, -1, NULL));
  env = g_environ_setenv (env, "XDG_CONFIG_HOME", home, TRUE);
  env = g_environ_setenv (env, "LANGUAGE", "C", TRUE);

  for (int run = 0; run < 2; run++)
    {
      g_autofree char *out = NULL;
      g_autofree char *err = NULL;
      g_autoptr(GError) error = NULL;
      int status;

      g_assert_true (g_spawn_sync (NULL, (char **) argv, env, G_SPAWN_DEFAULT, NULL, NULL,
                                   &out, &err, &status, &error));
      g_assert_no_error (error);
      g_test_message ("run %d: %s%s", run, out, err);
      g_assert_true (g_spawn_check_wait_status (status, &error));
      g_assert_no_error (error);
      g_assert_nonnull (strstr (out, path));
      g_assert_true (g_file_get_contents (path, run ? &second : &first, NULL, NULL));
    }
  check_actions_file (first);
  g_assert_cmpstr (first, ==, second);
  g_assert_true (strncmp (first, user_file, strstr (user_file, "</actions>") - user_file) == 0);
}

int
main (int argc, char *argv[])
{
  tu_init (&argc, &argv);
  g_test_add_func ("/thunar/merge/keeps-user-actions", test_merge_keeps_user_actions);
  g_test_add_func ("/thunar/merge/replaces-ours-in-place", test_merge_replaces_ours_in_place);
  g_test_add_func ("/thunar/merge/drops-duplicates", test_merge_drops_duplicates);
  g_test_add_func ("/thunar/merge/new-and-empty", test_merge_new_and_empty);
  g_test_add_func ("/thunar/merge/refuses", test_merge_refuses);
  g_test_add_func ("/thunar/file", test_add_actions_file);
  g_test_add_func ("/thunar/symlink", test_add_actions_symlink);
  g_test_add_func ("/thunar/command-line", test_command_line);
  return g_test_run ();
}
