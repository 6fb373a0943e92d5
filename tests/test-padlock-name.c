/* test-padlock-name.c - names as the window and the notices show them
 * (app/padlock-name.h): hidden characters escaped, bidi isolates */
#include <string.h>

#include "app-testutil.h"
#include "padlock-name.h"

/* A name shows every character it holds: hidden ones escaped, a
 * backslash doubled (so that "\\u202E" typed in a name is not taken for
 * an escape), invalid UTF-8 as U+FFFD; shown, it is in bidi isolates. */
static void
test_name_display (void)
{
  static const struct { const char *name; const char *escaped; } cases[] = {
    { "plain.txt", "plain.txt" },
    { "photo\xe2\x80\xaegpj.exe", "photo\\u202Egpj.exe" },          /* RLO, Cf */
    { "two\nlines\tand\r", "two\\nlines\\tand\\r" },                 /* Cc */
    { "bell\x07" "esc\x1b", "bell\\x07esc\\x1B" },
    { "del\x7f", "del\\x7F" },
    { "c1\xc2\x85", "c1\\u0085" },                                    /* NEL, Cc */
    { "zero\xe2\x80\x8bwidth", "zero\\u200Bwidth" },                  /* ZWSP, Cf */
    { "line\xe2\x80\xa8para\xe2\x80\xa9", "line\\u2028para\\u2029" }, /* Zl, Zp */
    { "tag\xf3\xa0\x80\x81", "tag\\U000E0001" },                      /* astral Cf */
    { "back\\u202E", "back\\\\u202E" },
    { "bad\xff.bin", "bad\xef\xbf\xbd.bin" },
    { "\xd7\xa9\xd7\x9c\xd7\x95\xd7\x9d.txt", "\xd7\xa9\xd7\x9c\xd7\x95\xd7\x9d.txt" }, /* Hebrew */
  };

  for (gsize i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_autofree char *escaped = padlock_name_escape (cases[i].name);
      g_autofree char *shown = padlock_name_display (cases[i].name);
      g_autofree char *isolated = g_strconcat ("\xe2\x81\xa8", cases[i].escaped,
                                               "\xe2\x81\xa9", NULL);

      g_assert_cmpstr (escaped, ==, cases[i].escaped);
      g_assert_cmpstr (shown, ==, isolated);
      g_assert_true (g_utf8_validate (shown, -1, NULL));
    }
  g_assert_true (padlock_name_changes_look ("photo\xe2\x80\xaegpj.exe"));
  g_assert_true (padlock_name_changes_look ("a\xe2\x81\xa6" "b"));       /* LRI */
  g_assert_true (padlock_name_changes_look ("a\xe2\x80\x8f" "b"));       /* RLM */
  g_assert_false (padlock_name_changes_look ("zero\xe2\x80\x8bwidth"));
  g_assert_false (padlock_name_changes_look ("\xd7\xa9\xd7\x9c\xd7\x95\xd7\x9d.txt"));
}

int
main (int argc, char **argv)
{
  tu_init (&argc, &argv);
  g_test_add_func ("/name/display", test_name_display);
  return g_test_run ();
}
