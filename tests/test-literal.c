/* test-literal.c - the Literal Data packet's header (core/literal.h,
 * RFC 9580 §5.9): its octets, read back, cut short, with an unknown
 * format, and the name a path gives it */
#include <string.h>
#include "testutil.h"
#include "literal.h"

/* A known answer: 'b', "a.txt", 2023-11-14 22:13:20 UTC. */
static void
test_known_header (void)
{
  static const guint8 want[] = { 'b', 5, 'a', '.', 't', 'x', 't',
                                 0x65, 0x53, 0xF1, 0x00 };
  pl_literal_header h = { 0 }, back;
  guint8 out[PL_LITERAL_HEADER_MAX];
  size_t used = 0;

  h.format = 'b';
  pl_literal_set_name (&h, "a.txt");
  h.date = 1700000000;
  g_assert_cmpuint (pl_literal_write (&h, out), ==, sizeof want);
  g_assert_cmpmem (out, sizeof want, want, sizeof want);
  g_assert_cmpint (pl_literal_parse (&back, want, sizeof want, &used), ==, 0);
  g_assert_cmpuint (used, ==, sizeof want);
  g_assert_cmpint (back.format, ==, 'b');
  g_assert_cmpuint (back.name_len, ==, 5);
  g_assert_cmpstr (back.name, ==, "a.txt");
  g_assert_cmpuint (back.date, ==, 1700000000);

  /* No format set: binary. */
  h.format = 0;
  pl_literal_write (&h, out);
  g_assert_cmpint (out[0], ==, 'b');
}

/* Every format, names of 0, 1 and 255 octets (any octets, NUL too),
 * the dates' ends: what is written reads back, followed by the data. */
static void
test_roundtrip (void)
{
  static const int formats[] = { 'b', 't', 'u', 'm' };
  static const uint32_t dates[] = { 0, 1, 0x80000000u, 0xFFFFFFFFu };
  static const size_t name_lens[] = { 0, 1, 255 };

  for (gsize f = 0; f < G_N_ELEMENTS (formats); f++)
    for (gsize n = 0; n < G_N_ELEMENTS (name_lens); n++)
      for (gsize d = 0; d < G_N_ELEMENTS (dates); d++)
        {
          pl_literal_header h = { 0 }, back;
          guint8 out[PL_LITERAL_HEADER_MAX + 3];
          size_t len, used = 0;

          h.format = formats[f];
          h.name_len = name_lens[n];
          for (size_t i = 0; i < h.name_len; i++)
            h.name[i] = (char) (i * 7);     /* a NUL first, then others */
          h.date = dates[d];
          len = pl_literal_write (&h, out);
          g_assert_cmpuint (len, ==, 6 + h.name_len);
          memcpy (out + len, "abc", 3);
          g_assert_cmpint (pl_literal_parse (&back, out, len + 3, &used),
                           ==, 0);
          g_assert_cmpuint (used, ==, len);
          g_assert_cmpint (back.format, ==, h.format);
          g_assert_cmpmem (back.name, back.name_len, h.name, h.name_len);
          g_assert_cmpuint (back.date, ==, h.date);
        }
}

/* A name over 255 octets (the length is one octet) is cut to 255. */
static void
test_long_name (void)
{
  pl_literal_header h = { 0 }, back;
  guint8 out[PL_LITERAL_HEADER_MAX];
  g_autofree char *path = g_strnfill (300, 'n');
  size_t used;

  pl_literal_set_name (&h, path);
  g_assert_cmpuint (h.name_len, ==, 255);
  g_assert_cmpuint (strlen (h.name), ==, 255);
  h.name_len = sizeof h.name;   /* as a caller may set it by hand */
  g_assert_cmpuint (pl_literal_write (&h, out), ==, PL_LITERAL_HEADER_MAX);
  g_assert_cmpint (out[1], ==, 255);
  g_assert_cmpint (pl_literal_parse (&back, out, sizeof out, &used), ==, 0);
  g_assert_cmpuint (back.name_len, ==, 255);
}

static void
test_set_name (void)
{
  static const struct { const char *path, *name; } cases[] = {
    { "/home/alice/Report.pdf", "Report.pdf" },
    { "Report.pdf", "Report.pdf" },
    { "dir/", "" },
    { "/", "" },
    { "", "" },
    { "a/b/c d.txt", "c d.txt" },
  };
  pl_literal_header h;

  for (gsize i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      memset (&h, 0xFF, sizeof h);
      pl_literal_set_name (&h, cases[i].path);
      g_assert_cmpstr (h.name, ==, cases[i].name);
      g_assert_cmpuint (h.name_len, ==, strlen (cases[i].name));
    }
  pl_literal_set_name (&h, NULL);
  g_assert_cmpstr (h.name, ==, "");
  g_assert_cmpuint (h.name_len, ==, 0);
}

/* Short headers are truncated at every cut; a format octet outside
 * RFC 9580's and RFC 1991's ('l', '1') is not a literal packet. */
static void
test_refusals (void)
{
  static const guint8 good[] = { 't', 3, 'x', 'y', 'z', 0, 0, 0, 9 };
  pl_literal_header h;
  guint8 bad[sizeof good];
  size_t used = 0;

  for (size_t cut = 0; cut < sizeof good; cut++)
    g_assert_cmpint (gpg_err_code (pl_literal_parse (&h, good, cut, &used)),
                     ==, GPG_ERR_TRUNCATED);
  g_assert_cmpint (pl_literal_parse (&h, good, sizeof good, &used), ==, 0);
  memcpy (bad, good, sizeof good);
  for (int c = 0; c < 256; c++)
    {
      gpg_error_t err;

      bad[0] = (guint8) c;
      err = pl_literal_parse (&h, bad, sizeof bad, &used);
      if (c && strchr ("btum1l", c))
        g_assert_cmpint (err, ==, 0);
      else
        g_assert_cmpint (gpg_err_code (err), ==, GPG_ERR_INV_PACKET);
    }
}

int
main (int argc, char **argv)
{
  tu_init (&argc, &argv);
  g_test_add_func ("/literal/known-header", test_known_header);
  g_test_add_func ("/literal/roundtrip", test_roundtrip);
  g_test_add_func ("/literal/long-name", test_long_name);
  g_test_add_func ("/literal/set-name", test_set_name);
  g_test_add_func ("/literal/refusals", test_refusals);
  return g_test_run ();
}
