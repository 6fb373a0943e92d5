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
  /* A word: one field, whatever it holds. */
  out = esc ("Bob \"x\" signature good", 22, PL_TEXT_WORD);
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

/* Undoes a word's quotes and escapes (the README's grammar, as a script
 * would): NULL when WORD is not one well-formed word. */
static char *
unword (const char *word)
{
  GString *out = g_string_new (NULL);
  const char *p = word;

  if (*p != '"')
    {
      g_assert_null (strpbrk (word, "\\\""));
      return g_string_free (g_string_append (out, word), FALSE);
    }
  for (p++; *p && *p != '"'; p++)
    {
      unsigned long c;
      int digits;

      if (*p != '\\')
        {
          g_string_append_c (out, *p);
          continue;
        }
      p++;
      switch (*p)
        {
        case '\\': case '"': g_string_append_c (out, *p); continue;
        case 'n': g_string_append_c (out, '\n'); continue;
        case 't': g_string_append_c (out, '\t'); continue;
        case 'r': g_string_append_c (out, '\r'); continue;
        case 'x': digits = 2; break;
        case 'u': digits = 4; break;
        case 'U': digits = 8; break;
        default: g_string_free (out, TRUE); return NULL;
        }
      {
        char hex[9] = { 0 };

        memcpy (hex, p + 1, digits);
        c = strtoul (hex, NULL, 16);
        p += digits;
      }
      if (c == 0)
        g_string_append_len (out, "", 1);
      else
        g_string_append_unichar (out, c);
    }
  g_assert_true (*p == '"' && p[1] == 0);
  return g_string_free (out, FALSE);
}

/* A word is bare exactly when it is safe; else quoted, with every kind
 * of space escaped (Python's split() splits on U+00A0 and U+3000 too),
 * and it always reads back as the (made valid) text. */
static void
test_word (void)
{
  static const struct { const char *in, *want; } cases[] = {
    { "report.pdf", "report.pdf" },
    { "alice@example.org", "alice@example.org" },
    { "", "\"\"" },
    { "\"x", "\"\\\"x\"" },
    { "a\\b", "\"a\\\\b\"" },
    { "Bob <bob@example.org>", "\"Bob\\x20<bob@example.org>\"" },
    { "a\xc2\xa0" "b\xe3\x80\x80" "c", "\"a\\u00A0b\\u3000c\"" },
    { "a\tb\x1b", "\"a\\tb\\x1B\"" },
    { "a\xff", "\"a\xef\xbf\xbd\"" },
  };
  GRand *rand = g_rand_new_with_seed (32);

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_autofree char *out = esc (cases[i].in, strlen (cases[i].in), PL_TEXT_WORD);

      g_assert_cmpstr (out, ==, cases[i].want);
    }
  /* Random text from a hostile alphabet: one field for Python's and
   * awk's split, and its escapes undone give the text back. */
  for (guint i = 0; i < 20000; i++)
    {
      static const char *const parts[] = {
        " ", "\"", "\\", "\n", "\r", "\t", "\x1b", "a", "good", "\xc2\xa0",
        "\xe3\x80\x80", "\xe2\x80\xae", "\xe2\x80\xa8", "\xf0\x9f\x94\x92", "x20",
      };
      GString *in = g_string_new (NULL);
      guint n = g_rand_int_range (rand, 0, 8);
      g_autofree char *out = NULL;
      g_autofree char *back = NULL;

      for (guint j = 0; j < n; j++)
        g_string_append (in, parts[g_rand_int_range (rand, 0, G_N_ELEMENTS (parts))]);
      out = esc (in->str, in->len, PL_TEXT_WORD);
      for (const char *p = out; *p; p = g_utf8_next_char (p))
        g_assert_false (g_unichar_isspace (g_utf8_get_char (p))
                        || g_unichar_type (g_utf8_get_char (p)) == G_UNICODE_SPACE_SEPARATOR);
      back = unword (out);
      g_assert_nonnull (back);
      g_assert_cmpstr (back, ==, in->str);
      g_string_free (in, TRUE);
    }
  g_rand_free (rand);
}

int
main (int argc, char **argv)
{
  tu_init (&argc, &argv);
  g_test_add_func ("/text/table", test_table);
  g_test_add_func ("/text/forgeries", test_forgeries);
  g_test_add_func ("/text/invalid-and-cut", test_invalid_and_cut);
  g_test_add_func ("/text/word", test_word);
  return g_test_run ();
}
