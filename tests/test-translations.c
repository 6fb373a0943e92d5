/* test-translations.c - every string the user sees is translated in every
 * language of po/LINGUAS (the core's error messages among them, through
 * their PL_N_ keyword, the profile words of core/job.c too) */
#include <string.h>
#include <glib/gstdio.h>

#include "testutil.h"

static const char *source_dir;
static char *pot_path;

static char *
source_file (const char *first,
             ...)
{
  g_autoptr(GPtrArray) parts = g_ptr_array_new ();
  va_list args;

  g_ptr_array_add (parts, (gpointer) source_dir);
  va_start (args, first);
  for (const char *p = first; p; p = va_arg (args, const char *))
    g_ptr_array_add (parts, (gpointer) p);
  va_end (args);
  g_ptr_array_add (parts, NULL);
  return g_build_filenamev ((char **) parts->pdata);
}

/* The C string literals in TEXT, adjacent ones joined: one per
 * `return "…" "…";` or `N_("…" "…")`. */
static GPtrArray *
literals (const char *text,
          const char *pattern)
{
  g_autoptr(GRegex) statement = g_regex_new (pattern, G_REGEX_DOTALL, 0, NULL);
  g_autoptr(GRegex) literal = g_regex_new ("\"((?:[^\"\\\\]|\\\\.)*)\"", 0, 0, NULL);
  g_autoptr(GMatchInfo) match = NULL;
  GPtrArray *found = g_ptr_array_new_with_free_func (g_free);

  g_regex_match (statement, text, 0, &match);
  while (g_match_info_matches (match))
    {
      g_autofree char *body = g_match_info_fetch (match, 1);
      g_autoptr(GMatchInfo) part = NULL;
      g_autoptr(GString) joined = g_string_new (NULL);

      g_regex_match (literal, body, 0, &part);
      while (g_match_info_matches (part))
        {
          g_autofree char *s = g_match_info_fetch (part, 1);
          g_autofree char *unescaped = g_strcompress (s);

          g_string_append (joined, unescaped);
          g_match_info_next (part, NULL);
        }
      g_ptr_array_add (found, g_string_free (g_steal_pointer (&joined), FALSE));
      g_match_info_next (match, NULL);
    }
  return found;
}

/* A template made now from the sources in po/POTFILES.in, as
 * `ninja padlock-pot` makes it. */
static void
make_pot (void)
{
  g_autofree char *potfiles = source_file ("po", "POTFILES.in", NULL);
  const char *argv[] = {
    "xgettext", "--package-name=padlock", "--from-code=UTF-8", "--add-comments",
    "--keyword=_", "--keyword=N_", "--keyword=PL_N_", "--keyword=C_:1c,2", "--keyword=NC_:1c,2",
    "--keyword=g_dcgettext:2", "--keyword=g_dngettext:2,3", "--keyword=g_dpgettext2:2c,3",
    "--files-from", potfiles, "--directory", source_dir, "--output", pot_path, NULL,
  };
  g_autofree char *err = NULL;
  int status = -1;

  g_assert_true (tu_run (argv, NULL, NULL, &err, &status));
  if (status != 0)
    g_error ("xgettext: %s", err);
}

#define LITERALS "((?:\\s*\"(?:[^\"\\\\]|\\\\.)*\")+)"

/* The core has no gettext: its profile words (core/job.c, marked PL_N_)
 * reach the template through po/POTFILES.in, from that one table. */
static void
test_core_messages (void)
{
  size_t n;
  const pl_profile_info *p = pl_profiles (&n);
  g_autofree char *pot = NULL;
  g_autoptr(GPtrArray) ids = NULL;

  if (!g_file_test (pot_path, G_FILE_TEST_EXISTS))
    make_pot ();
  g_assert_true (g_file_get_contents (pot_path, &pot, NULL, NULL));
  ids = literals (pot, "msgid" LITERALS);
  for (size_t i = 0; i < n; i++)
    {
      const char *words[] = { p[i].title, p[i].format, p[i].readers };

      for (guint w = 0; w < G_N_ELEMENTS (words); w++)
        {
          gboolean found = FALSE;

          for (guint j = 0; j < ids->len && !found; j++)
            found = strcmp (words[w], g_ptr_array_index (ids, j)) == 0;
          if (!found)
            g_error ("core/job.c says \"%s\", which the template lacks",
                     words[w]);
        }
    }
}

static void
test_potfiles_complete (void)
{
  const char *dirs[] = { "app", "core", "sop", "desktop" };
  g_autofree char *potfiles_path = source_file ("po", "POTFILES.in", NULL);
  g_autofree char *potfiles = NULL;
  g_auto(GStrv) listed = NULL;
  g_autoptr(GRegex) marked = g_regex_new ("\\b(PL_N_|N_|_) ?\\(\"", 0, 0,
                                          NULL);

  g_assert_true (g_file_get_contents (potfiles_path, &potfiles, NULL, NULL));
  listed = g_strsplit (potfiles, "\n", -1);
  /* Every C source that marks a message (_(), N_(), PL_N_()) is listed
   * in po/POTFILES.in: a file missing there has its messages in no
   * template, so test_language cannot see them untranslated. */
  for (guint d = 0; d < G_N_ELEMENTS (dirs); d++)
    {
      g_autoptr(GPtrArray) sources = tu_source_files (dirs[d], ".c");

      for (guint i = 0; i < sources->len; i++)
        {
          const char *rel = g_ptr_array_index (sources, i);
          g_autofree char *path = source_file (rel, NULL);
          g_autofree char *text = NULL;

          g_assert_true (g_file_get_contents (path, &text, NULL, NULL));
          if (g_regex_match (marked, text, 0, NULL)
              && !g_strv_contains ((const char *const *) listed, rel))
            g_error ("%s marks messages but is not in po/POTFILES.in", rel);
        }
    }
}

static void
test_language (gconstpointer data)
{
  const char *lang = data;
  g_autofree char *po_name = g_strconcat (lang, ".po", NULL);
  g_autofree char *po = source_file ("po", po_name, NULL);
  const char *cmp_argv[] = { "msgcmp", po, pot_path, NULL };
  const char *fmt_argv[] = { "msgfmt", "--check", "--statistics", "-o", "/dev/null", po, NULL };
  g_autofree char *err = NULL;
  int status = -1;

  if (!g_file_test (pot_path, G_FILE_TEST_EXISTS))
    make_pot ();

  /* Every message of the sources has a translation that is not fuzzy. */
  g_assert_true (tu_run (cmp_argv, NULL, NULL, &err, &status));
  if (status != 0)
    g_error ("po/%s is missing translations (update it with `ninja -C build "
             "padlock-update-po`):\n%s", po_name, err);
  g_clear_pointer (&err, g_free);

  /* Formats match, and nothing is fuzzy or untranslated. */
  g_assert_true (tu_run (fmt_argv, NULL, NULL, &err, &status));
  g_test_message ("%s: %s", po_name, err);
  g_assert_cmpint (status, ==, 0);
  g_assert_null (strstr (err, "fuzzy"));
  g_assert_null (strstr (err, "untranslated"));
}

int
main (int argc, char *argv[])
{
  g_autofree char *linguas_path = NULL;
  g_autofree char *linguas = NULL;
  g_auto(GStrv) lines = NULL;

  tu_init (&argc, &argv);
  source_dir = g_getenv ("PADLOCK_SOURCE_DIR");
  g_assert_nonnull (source_dir);
  pot_path = g_build_filename (tu_tmpdir (), "padlock.pot", NULL);

  g_test_add_func ("/translations/core-messages", test_core_messages);
  g_test_add_func ("/translations/potfiles-complete", test_potfiles_complete);

  linguas_path = source_file ("po", "LINGUAS", NULL);
  g_assert_true (g_file_get_contents (linguas_path, &linguas, NULL, NULL));
  lines = g_strsplit (linguas, "\n", -1);
  for (guint i = 0; lines[i]; i++)
    {
      char *lang = g_strstrip (lines[i]);
      g_autofree char *path = NULL;

      if (!*lang || *lang == '#')
        continue;
      path = g_strdup_printf ("/translations/complete/%s", lang);
      g_test_add_data_func (path, lang, test_language);
    }
  return g_test_run ();
}
