/* test-padlock-output.c - the names outputs get (app/padlock-output.h):
 * planned before the job, never a name that could mislead or harm,
 * random ones when names are hidden */
#include <string.h>

#include "app-testutil.h"
#include "padlock-output.h"

static char *
planned_name (const char       *path,
              PadlockDirection  direction,
              gboolean          armor,
              const char       *hidden_name)
{
  g_autoptr(GFile) input = g_file_new_for_path (path);
  PadlockJobConfig config = { .armor = armor };
  g_autoptr(PadlockOutputPlan) plan =
    padlock_output_plan (input, direction, &config, hidden_name);

  return g_strdup (plan->output_name);
}

static void
test_output_names (void)
{
  g_autofree char *dir = tu_new_dir ("names");
  g_autofree char *report = g_build_filename (dir, "report.pdf", NULL);
  g_autofree char *taken = g_build_filename (dir, "report.pdf.gpg", NULL);
  g_autofree char *readme = g_build_filename (dir, "README", NULL);
  g_autofree char *a = NULL, *b = NULL, *c = NULL, *d = NULL, *e = NULL, *f = NULL;
  g_autofree char *stripped = padlock_output_stripped_name ("report.pdf.gpg");
  g_autofree char *notes = padlock_output_stripped_name ("notes.PGP");

  a = planned_name (report, PADLOCK_DIRECTION_ENCRYPT, FALSE, NULL);
  b = planned_name (report, PADLOCK_DIRECTION_ENCRYPT, TRUE, NULL);
  g_assert_true (g_file_set_contents (taken, "", 0, NULL));
  /* The plan shows the name the job will write, from the start. */
  c = planned_name (report, PADLOCK_DIRECTION_ENCRYPT, FALSE, NULL);
  d = planned_name (taken, PADLOCK_DIRECTION_DECRYPT, FALSE, NULL);
  e = planned_name (readme, PADLOCK_DIRECTION_DECRYPT, FALSE, NULL);
  f = planned_name (report, PADLOCK_DIRECTION_ENCRYPT, FALSE, "7f3k9q2m");
  g_assert_cmpstr (a, ==, "report.pdf.gpg");
  g_assert_cmpstr (b, ==, "report.pdf.asc");
  g_assert_cmpstr (c, ==, "report (1).pdf.gpg");
  g_assert_cmpstr (d, ==, "report.pdf");
  g_assert_cmpstr (e, ==, "README");
  g_assert_cmpstr (f, ==, "7f3k9q2m.gpg");

  g_assert_cmpstr (stripped, ==, "report.pdf");
  g_assert_cmpstr (notes, ==, "notes");
  g_assert_null (padlock_output_stripped_name ("photo.jpg"));
  g_assert_null (padlock_output_stripped_name (".gpg"));
  /* A signed message may be named so (issue 34). */
  {
    g_autofree char *sig = padlock_output_stripped_name ("notes.txt.sig");

    g_assert_cmpstr (sig, ==, "notes.txt");
  }
}

static void
test_output_name_safety (void)
{
  g_assert_true (padlock_output_name_is_safe ("report.pdf", 10));
  g_assert_true (padlock_output_name_is_safe ("Übersicht 2024.ods", strlen ("Übersicht 2024.ods")));
  g_assert_true (padlock_output_name_is_safe ("a-b~c d.e", 9));
  for (guint i = 0; at_unsafe_names[i]; i++)
    if (padlock_output_name_is_safe (at_unsafe_names[i], strlen (at_unsafe_names[i])))
      g_error ("\"%s\" passed as safe", g_strescape (at_unsafe_names[i], NULL));
  g_assert_false (padlock_output_name_is_safe ("a\0b", 3));
  g_assert_false (padlock_output_name_is_safe ("", 0));
  g_assert_false (padlock_output_name_is_safe ("\xff", 1));
}

static void
test_hidden_names (void)
{
  for (guint i = 0; i < 100; i++)
    {
      g_autofree char *name = padlock_output_hidden_name_new ();
      g_autofree char *other = padlock_output_hidden_name_new ();

      g_assert_true (padlock_output_name_is_hidden (name));
      g_assert_cmpstr (name, !=, other);
    }
  g_assert_true (padlock_output_name_is_hidden ("7f3k9q2m"));
  g_assert_false (padlock_output_name_is_hidden ("abcdefgh"));
  g_assert_false (padlock_output_name_is_hidden ("7f3k9q2"));
  g_assert_false (padlock_output_name_is_hidden ("7F3K9Q2M"));
  g_assert_false (padlock_output_name_is_hidden ("report.pdf"));
}

int
main (int argc, char **argv)
{
  tu_init (&argc, &argv);
  g_test_add_func ("/output/names", test_output_names);
  g_test_add_func ("/output/name-safety", test_output_name_safety);
  g_test_add_func ("/output/hidden-names", test_hidden_names);
  return g_test_run ();
}
