/* test-passphrase.c - the one passphrase rule (core/passphrase.h) */
#include "testutil.h"
#include "passphrase.h"

#include <string.h>

typedef struct
{
  const char *text;
  const char *typed, *file, *sop;   /* each rule's passphrase */
} reading;

/* What each rule reads from a source; FILE's column is gpg 2.2.40's
 * --passphrase-file, measured (test-interop-gpg's passphrase-files test
 * checks it against gpg itself). */
static void
test_readings (void)
{
  static const reading cases[] = {
    { "secret", "secret", "secret", "secret" },
    { "secret\n", "secret\n", "secret", "secret" },
    { "secret\r\n", "secret\r\n", "secret\r", "secret" },
    { "secret\n\n", "secret\n\n", "secret", "secret" },
    { "two words \n", "two words \n", "two words ", "two words" },
    { "first\nsecond\n", "first\nsecond\n", "first", "first" },
    { "\n", "\n", "", "" },
    { "", "", "", "" },
  };

  for (gsize i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      const reading *c = &cases[i];
      size_t len = strlen (c->text);

      g_assert_cmpuint (pl_passphrase_length (c->text, len,
                                              PL_PASSPHRASE_TYPED), ==,
                        strlen (c->typed));
      g_assert_cmpuint (pl_passphrase_length (c->text, len,
                                              PL_PASSPHRASE_FILE), ==,
                        strlen (c->file));
      g_assert_cmpuint (pl_passphrase_length (c->text, len,
                                              PL_PASSPHRASE_SOP), ==,
                        strlen (c->sop));
    }
}

/* Decryption's forms: the rule's own first, each once, every one a
 * prefix that some reader makes. */
static void
test_forms (void)
{
  size_t f[PL_PASSPHRASE_FORMS];
  const char *crlf = "secret\r\n";

  g_assert_cmpuint (pl_passphrase_forms ("secret", 6, PL_PASSPHRASE_FILE, f),
                    ==, 1);
  g_assert_cmpuint (f[0], ==, 6);
  /* FILE: gpg's "secret\r" first, then "secret" (SOP, or less "\r\n"),
   * then the text as given. */
  g_assert_cmpuint (pl_passphrase_forms (crlf, 8, PL_PASSPHRASE_FILE, f), ==,
                    3);
  g_assert_cmpuint (f[0], ==, 7);
  g_assert_cmpuint (f[1], ==, 6);
  g_assert_cmpuint (f[2], ==, 8);
  /* SOP: its own "secret" first. */
  g_assert_cmpuint (pl_passphrase_forms (crlf, 8, PL_PASSPHRASE_SOP, f), ==,
                    3);
  g_assert_cmpuint (f[0], ==, 6);
  g_assert_cmpuint (f[1], ==, 7);
  /* "secret\n\n": "secret", and what earlier --batch made ("secret\n"),
   * and the text as given. */
  g_assert_cmpuint (pl_passphrase_forms ("secret\n\n", 8, PL_PASSPHRASE_FILE,
                                         f), ==, 3);
  g_assert_cmpuint (f[0], ==, 6);
  g_assert_cmpuint (f[1], ==, 8);
  g_assert_cmpuint (f[2], ==, 7);
  /* Typed with a trailing space: as typed, then trimmed. */
  g_assert_cmpuint (pl_passphrase_forms ("pw ", 3, PL_PASSPHRASE_TYPED, f),
                    ==, 2);
  g_assert_cmpuint (f[0], ==, 3);
  g_assert_cmpuint (f[1], ==, 2);
  /* At most PL_PASSPHRASE_FORMS, all distinct. */
  {
    const char *t = "a \r\nb \r\n";
    size_t n = pl_passphrase_forms (t, strlen (t), PL_PASSPHRASE_SOP, f);

    g_assert_cmpuint (n, <=, PL_PASSPHRASE_FORMS);
    for (size_t i = 0; i < n; i++)
      for (size_t j = i + 1; j < n; j++)
        g_assert_cmpuint (f[i], !=, f[j]);
  }
}

/* What may lock a message, from every entry point alike. */
static void
test_check (void)
{
  char *big = g_malloc (PL_PASSPHRASE_MAX + 2);
  size_t n = 99;

  g_assert_cmpuint (pl_passphrase_check ("secret\n", 7, PL_PASSPHRASE_FILE,
                                         &n), ==, 0);
  g_assert_cmpuint (n, ==, 6);
  g_assert_cmpuint (gpg_err_code (pl_passphrase_check (" \t\n", 3,
                                                       PL_PASSPHRASE_FILE,
                                                       &n)), ==,
                    PL_ERR_PASSPHRASE_BLANK);
  g_assert_cmpuint (n, ==, 0);
  g_assert_cmpuint (gpg_err_code (pl_passphrase_check ("\n", 1,
                                                       PL_PASSPHRASE_SOP,
                                                       NULL)), ==,
                    PL_ERR_PASSPHRASE_BLANK);
  g_assert_cmpuint (gpg_err_code (pl_passphrase_check ("", 0,
                                                       PL_PASSPHRASE_TYPED,
                                                       NULL)), ==,
                    PL_ERR_PASSPHRASE_BLANK);
  g_assert_cmpuint (gpg_err_code (pl_passphrase_check ("\xff\xfe", 2,
                                                       PL_PASSPHRASE_TYPED,
                                                       NULL)), ==,
                    PL_ERR_PASSPHRASE_NOT_TEXT);
  g_assert_cmpuint (gpg_err_code (pl_passphrase_check ("a\0b", 3,
                                                       PL_PASSPHRASE_TYPED,
                                                       NULL)), ==,
                    PL_ERR_PASSPHRASE_NOT_TEXT);
  /* What follows the first line is not read, so it may be anything. */
  g_assert_cmpuint (pl_passphrase_check ("ok\n\xff", 4, PL_PASSPHRASE_FILE,
                                         NULL), ==, 0);
  g_assert_cmpuint (pl_passphrase_check ("gr\xc3\xbc\xc3\x9f", 6,
                                         PL_PASSPHRASE_TYPED, NULL), ==, 0);
  memset (big, 'x', PL_PASSPHRASE_MAX + 1);
  g_assert_cmpuint (pl_passphrase_check (big, PL_PASSPHRASE_MAX,
                                         PL_PASSPHRASE_TYPED, NULL), ==, 0);
  g_assert_cmpuint (gpg_err_code (pl_passphrase_check (big,
                                                       PL_PASSPHRASE_MAX + 1,
                                                       PL_PASSPHRASE_TYPED,
                                                       NULL)), ==,
                    PL_ERR_PASSPHRASE_TOO_LONG);
  g_free (big);
}

static void
test_utf8 (void)
{
  g_assert_true (pl_utf8_valid ("", 0));
  g_assert_true (pl_utf8_valid ("\xf0\x9f\x94\x92", 4));
  g_assert_false (pl_utf8_valid ("\xf0\x9f\x94", 3));   /* cut short */
  g_assert_false (pl_utf8_valid ("\xc0\xaf", 2));       /* overlong */
  g_assert_false (pl_utf8_valid ("\xed\xa0\x80", 3));   /* a surrogate */
  g_assert_false (pl_utf8_valid ("\xf4\x90\x80\x80", 4)); /* > U+10FFFF */
}

int
main (int argc, char **argv)
{
  tu_init (&argc, &argv);
  g_test_add_func ("/passphrase/readings", test_readings);
  g_test_add_func ("/passphrase/forms", test_forms);
  g_test_add_func ("/passphrase/check", test_check);
  g_test_add_func ("/passphrase/utf8", test_utf8);
  return g_test_run ();
}
