/* test-text.c - core/text.h: the one escaping function */
#include <glib.h>
#include <string.h>

#include "testutil.h"
#include "text.h"

/* Unicode 15.0's Cc, Cf, Zl and Zp, by GLib 2.74, for every code point:
 * the core's table is the same. */
static void
test_table (void)
{
  for (gunichar c = 0; c <= 0x10FFFF; c++)
    {
      GUnicodeType t = g_unichar_type (c);
      int hidden = t == G_UNICODE_CONTROL || t == G_UNICODE_FORMAT
                   || t == G_UNICODE_LINE_SEPARATOR
                   || t == G_UNICODE_PARAGRAPH_SEPARATOR;

      if (hidden != pl_text_char_is_hidden (c))
        g_error ("U+%04X: GLib says %d", c, hidden);
    }
}

static char *
esc (const char *in, size_t len, unsigned flags)
{
  char *out = pl_text_escape_dup (in, len, flags);

  g_assert_nonnull (out);
  return out;
}

/* The forgeries of issue 32: a user ID that erases the line and writes
 * its own, one that adds a SOP verification line, one that reorders. */
static void
test_forgeries (void)
{
  static const char uid[] = "x\x1b[2K\rverified x.asc -> x signature good "
                            "AAAA Alice\n2026-01-01T00:00:00Z AAAA AAAA "
                            "mode:binary signed by \xe2\x80\xae" "Alice\\n";
  char *out = esc (uid, sizeof uid - 1, 0);

  g_assert_cmpstr (out, ==, "x\\x1B[2K\\rverified x.asc -> x signature good "
                   "AAAA Alice\\n2026-01-01T00:00:00Z AAAA AAAA "
                   "mode:binary signed by \\u202EAlice\\\\n");
  g_assert_null (strchr (out, '\n'));
  g_free (out);
  /* Quoted: one word, whatever it holds. */
  out = esc ("Bob \"x\" signature good", 22, PL_TEXT_QUOTED);
  g_assert_cmpstr (out, ==, "\"Bob\\x20\\\"x\\\"\\x20signature\\x20good\"");
  g_assert_null (strchr (out, ' '));
  g_free (out);
}

/* Invalid UTF-8 is U+FFFD an octet, as g_utf8_make_valid; a NUL is
 * "\x00" and does not end the text; a cut falls between escapes. */
static void
test_invalid_and_cut (void)
{
  static const char in[] = "a\xc0\xaf" "b\xed\xa0\x80" "c\xf4\x90\x80\x80"
                           "\0d\xe2\x81";
  char *out = esc (in, sizeof in - 1, 0);
  char small[8];
  size_t need;

  g_assert_cmpstr (out, ==, "a\xef\xbf\xbd\xef\xbf\xbd" "b"
                   "\xef\xbf\xbd\xef\xbf\xbd\xef\xbf\xbd" "c"
                   "\xef\xbf\xbd\xef\xbf\xbd\xef\xbf\xbd\xef\xbf\xbd"
                   "\\x00d\xef\xbf\xbd\xef\xbf\xbd");
  g_free (out);
  need = pl_text_escape ("ab\ncd", 5, 0, small, 4);
  g_assert_cmpuint (need, ==, 6);
  g_assert_cmpstr (small, ==, "ab");
}

int
main (int argc, char **argv)
{
  tu_init (&argc, &argv);
  g_test_add_func ("/text/table", test_table);
  g_test_add_func ("/text/forgeries", test_forgeries);
  g_test_add_func ("/text/invalid-and-cut", test_invalid_and_cut);
  return g_test_run ();
}
