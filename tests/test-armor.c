/* test-armor.c - tests for core/armor.c */
#include "armor.h"
#include "testutil.h"

#include <glib.h>
#include <string.h>


/* The bitwise CRC24 of RFC 9580 §6.1.1, as an independent reference.  */
static uint32_t
crc24_slow (uint32_t crc, const uint8_t *octets, size_t len)
{
  while (len--)
    {
      crc ^= (uint32_t) (*octets++) << 16;
      for (int i = 0; i < 8; i++)
        {
          crc <<= 1;
          if (crc & 0x1000000)
            {
              crc &= 0xffffff;
              crc ^= 0x864cfb;
            }
        }
    }
  return crc & 0xffffff;
}

static uint8_t *
random_bytes (size_t len)
{
  uint8_t *buf = g_malloc (len ? len : 1);

  for (size_t i = 0; i < len; i++)
    buf[i] = (uint8_t) g_test_rand_int_range (0, 256);
  return buf;
}

/* Split modes for pushes.  */
enum
{
  SPLIT_WHOLE,
  SPLIT_ONE,
  SPLIT_SEVEN,
  SPLIT_RANDOM,
  N_SPLITS
};

static size_t
next_chunk (int mode, size_t left)
{
  size_t n;

  switch (mode)
    {
    case SPLIT_ONE: n = 1; break;
    case SPLIT_SEVEN: n = 7; break;
    case SPLIT_RANDOM:
      /* Mostly small, sometimes large.  */
      n = g_test_rand_bit () ? (size_t) g_test_rand_int_range (1, 80)
                             : (size_t) g_test_rand_int_range (1, 70000);
      break;
    default: n = left; break;
    }
  return n < left ? n : left;
}


/* --- CRC24 --- */

static void
test_crc24 (void)
{
  static const uint8_t abc[] = "123456789";

  g_assert_cmphex (pl_crc24_update (PL_CRC24_INIT, abc, 0), ==, 0xb704ce);
  g_assert_cmphex (crc24_slow (PL_CRC24_INIT, abc, 0), ==, 0xb704ce);
  /* CRC-24/OPENPGP check value.  */
  g_assert_cmphex (crc24_slow (PL_CRC24_INIT, abc, 9), ==, 0x21cf02);
  g_assert_cmphex (pl_crc24_update (PL_CRC24_INIT, abc, 9), ==, 0x21cf02);

  for (int round = 0; round < 200; round++)
    {
      size_t len = (size_t) g_test_rand_int_range (0, round < 100 ? 40 : 5000);
      uint8_t *buf = random_bytes (len);
      uint32_t want = crc24_slow (PL_CRC24_INIT, buf, len);
      uint32_t crc;
      size_t split;

      g_assert_cmphex (pl_crc24_update (PL_CRC24_INIT, buf, len), ==, want);

      /* Any split of the data gives the same CRC.  */
      split = len ? (size_t) g_test_rand_int_range (0, (gint32) len + 1) : 0;
      crc = pl_crc24_update (PL_CRC24_INIT, buf, split);
      crc = pl_crc24_update (crc, buf + split, len - split);
      g_assert_cmphex (crc, ==, want);

      /* Unaligned start.  */
      if (len > 3)
        g_assert_cmphex (pl_crc24_update (PL_CRC24_INIT, buf + 3, len - 3),
                         ==, crc24_slow (PL_CRC24_INIT, buf + 3, len - 3));
      g_free (buf);
    }
}


/* --- radix-64 --- */

static void
test_radix64 (void)
{
  for (size_t len = 0; len <= 300; len++)
    {
      uint8_t *buf = random_bytes (len);
      char *want = g_base64_encode (buf, len);
      size_t cap = 4 * ((len + 2) / 3);
      char *out = g_malloc (cap + 1);
      size_t n = pl_radix64_encode (buf, len, out);

      g_assert_cmpuint (n, ==, cap);
      out[n] = 0;
      g_assert_cmpstr (out, ==, want);
      g_free (out);
      g_free (want);
      g_free (buf);
    }
}


/* --- encoder and decoder helpers --- */

static const char *const label_names[] = {
  "MESSAGE", "PUBLIC KEY BLOCK", "PRIVATE KEY BLOCK", "SIGNATURE"
};

/* Armors DATA with pushes split by MODE; checks each push against the
 * bound with a buffer that ends right at the bound.  */
static char *
encode_all (const uint8_t *data, size_t len, pl_armor_label label,
            int with_crc, int mode, size_t *outlen)
{
  pl_armor_encoder enc;
  GString *s = g_string_new (NULL);
  size_t off = 0;
  size_t cap = pl_armor_encoder_bound (MAX (len, 70000));
  char *scratch = g_malloc (cap);

  pl_armor_encoder_init (&enc, label, with_crc);
  do
    {
      size_t n = next_chunk (mode, len - off);
      size_t bound = pl_armor_encoder_bound (n);
      char *o;
      size_t w;

      g_assert_cmpuint (bound, <=, cap);
      o = scratch + cap - bound;
      w = pl_armor_encoder_push (&enc, data + off, n, o);
      g_assert_cmpuint (w, <=, bound);
      g_string_append_len (s, o, (gssize) w);
      off += n;
    }
  while (off < len);

  {
    size_t bound = pl_armor_encoder_bound (0);
    char *o = scratch + cap - bound;
    size_t w = pl_armor_encoder_finish (&enc, o);

    g_assert_cmpuint (w, <=, bound);
    g_string_append_len (s, o, (gssize) w);
  }
  g_free (scratch);
  *outlen = s->len;
  return g_string_free (s, FALSE);
}

/* Decodes TEXT with pushes split by MODE.  Each push writes into a buffer
 * that ends right after LEN octets, so that any overrun is caught by the
 * sanitizers.  Returns the error of the first failing push, else that of
 * finish.  */
static gpg_error_t
decode_all (const char *text, size_t len, int mode, uint8_t **out,
            size_t *outlen, pl_armor_decoder *decp)
{
  pl_armor_decoder dec;
  GByteArray *a = g_byte_array_new ();
  size_t off = 0;
  size_t cap = MAX (len, 70000);
  uint8_t *scratch = g_malloc (cap);
  gpg_error_t err = 0;

  pl_armor_decoder_init (&dec);
  while (off < len)
    {
      size_t n = next_chunk (mode, len - off);
      uint8_t *o = scratch + cap - n;
      size_t w = (size_t) -1;

      err = pl_armor_decoder_push (&dec, (const uint8_t *) text + off, n,
                                   o, &w);
      g_assert_cmpuint (w, <=, n);
      if (err)
        break;
      g_byte_array_append (a, o, (guint) w);
      off += n;
    }
  if (!err)
    err = pl_armor_decoder_finish (&dec);
  g_free (scratch);
  if (decp)
    *decp = dec;
  *outlen = a->len;
  *out = g_byte_array_free (a, FALSE);
  return err;
}

/* Decodes TEXT with every split mode; all must agree on the error and,
 * when there is none, on WANT.  */
static void
check_decode (const char *text, size_t len, gpg_err_code_t want_err,
              const uint8_t *want, size_t want_len)
{
  for (int mode = 0; mode < N_SPLITS; mode++)
    {
      uint8_t *out;
      size_t outlen;
      gpg_error_t err = decode_all (text, len, mode, &out, &outlen, NULL);

      if (gpg_err_code (err) != want_err)
        g_error ("split mode %d: got %s, want %s", mode,
                 gpg_strerror (err), gpg_strerror (gpg_error (want_err)));
      if (!want_err)
        {
          g_assert_cmpuint (outlen, ==, want_len);
          g_assert_true (outlen == 0 || !memcmp (out, want, outlen));
        }
      g_free (out);
    }
}

/* TEXT cut at each '\n', as g_strsplit (TEXT, "\n", -1) does.  Not
 * g_strsplit itself: it calls strstr once a line, and ASan's strstr
 * measures the whole rest of the text each time, so a 1 MiB message's
 * 22,000 lines cost 12 s under ASan, against 0.07 s plain. */
static gchar **
split_lines (const char *text, size_t len)
{
  GPtrArray *lines = g_ptr_array_new ();
  const char *p = text, *end = text + len, *nl;

  while ((nl = memchr (p, '\n', end - p)))
    {
      g_ptr_array_add (lines, g_strndup (p, nl - p));
      p = nl + 1;
    }
  g_ptr_array_add (lines, g_strndup (p, end - p));
  g_ptr_array_add (lines, NULL);
  return (gchar **) g_ptr_array_free (lines, FALSE);
}

/* Checks the shape of encoder output.  */
static void
check_armor_shape (const char *text, size_t len, const uint8_t *data,
                   size_t dlen, pl_armor_label label, int with_crc)
{
  gchar **lines;
  char *begin = g_strdup_printf ("-----BEGIN PGP %s-----",
                                 label_names[label]);
  char *endl = g_strdup_printf ("-----END PGP %s-----", label_names[label]);
  char *b64 = g_base64_encode (data, dlen);
  GString *body = g_string_new (NULL);
  guint n, i;

  g_assert_cmpuint (strlen (text), ==, len);
  g_assert_true (len > 0 && text[len - 1] == '\n');
  lines = split_lines (text, len);
  n = g_strv_length (lines);
  g_assert_cmpuint (n, >=, 4);
  g_assert_cmpstr (lines[0], ==, begin);
  g_assert_cmpstr (lines[1], ==, "");
  g_assert_cmpstr (lines[n - 1], ==, "");
  g_assert_cmpstr (lines[n - 2], ==, endl);
  i = 2;
  for (; i < n - 2; i++)
    {
      if (lines[i][0] == '=')
        break;
      g_assert_cmpuint (strlen (lines[i]), >, 0);
      g_assert_cmpuint (strlen (lines[i]), <=, 64);
      if (i + 1 < n - 2 && lines[i + 1][0] != '=')
        g_assert_cmpuint (strlen (lines[i]), ==, 64);
      g_string_append (body, lines[i]);
    }
  g_assert_cmpstr (body->str, ==, b64);
  if (with_crc)
    {
      uint32_t crc = crc24_slow (PL_CRC24_INIT, data, dlen);
      uint8_t c[3] = { crc >> 16, crc >> 8, crc };
      char *want = g_base64_encode (c, 3);

      g_assert_cmpuint (i, ==, n - 3);
      g_assert_cmpuint (strlen (lines[i]), ==, 5);
      g_assert_cmpstr (lines[i] + 1, ==, want);
      g_free (want);
    }
  else
    g_assert_cmpuint (i, ==, n - 2);

  g_string_free (body, TRUE);
  g_free (b64);
  g_free (begin);
  g_free (endl);
  g_strfreev (lines);
}


/* --- round trips --- */

static void
test_roundtrip (void)
{
  static const size_t lengths[] = { 0, 1, 2, 3, 47, 48, 49, 65536,
                                    1048577 };

  for (size_t li = 0; li < G_N_ELEMENTS (lengths); li++)
    {
      size_t len = lengths[li];
      uint8_t *data = random_bytes (len);

      for (int with_crc = 0; with_crc < 2; with_crc++)
        {
          pl_armor_label label = (pl_armor_label) ((li + with_crc) % 4);
          size_t ref_len;
          char *ref = encode_all (data, len, label, with_crc, SPLIT_WHOLE,
                                  &ref_len);

          check_armor_shape (ref, ref_len, data, len, label, with_crc);

          for (int emode = 1; emode < N_SPLITS; emode++)
            {
              size_t tlen;
              char *text = encode_all (data, len, label, with_crc, emode,
                                       &tlen);

              g_assert_cmpuint (tlen, ==, ref_len);
              g_assert_true (!memcmp (text, ref, tlen));
              g_free (text);
            }

          for (int dmode = 0; dmode < N_SPLITS; dmode++)
            {
              pl_armor_decoder dec;
              uint8_t *out;
              size_t outlen;
              gpg_error_t err = decode_all (ref, ref_len, dmode, &out,
                                            &outlen, &dec);

              g_assert_cmpint (err, ==, 0);
              g_assert_true (pl_armor_decoder_done (&dec));
              g_assert_cmpint (dec.label, ==, label);
              g_assert_cmpuint (outlen, ==, len);
              g_assert_true (len == 0 || !memcmp (out, data, len));
              g_free (out);
            }
          g_free (ref);
        }
      g_free (data);
    }
}


/* --- decoder tolerance --- */

static char *
replace_all (const char *s, const char *from, const char *to)
{
  gchar **parts = g_strsplit (s, from, -1);
  char *r = g_strjoinv (to, parts);

  g_strfreev (parts);
  return r;
}

/* A reference armor with CRC for the tolerance tests.  */
typedef struct
{
  uint8_t *data;
  size_t len;
  char *text;
  char *begin_line;   /* points into text: "-----BEGIN..." */
  char *body;         /* first body line */
  char *crc_line;     /* "=XXXX" */
  char *end_line;     /* "-----END..." */
} fixture;

static void
fixture_init (fixture *f, size_t len)
{
  size_t tlen;

  f->len = len;
  f->data = random_bytes (len);
  f->text = encode_all (f->data, len, PL_ARMOR_MESSAGE, 1, SPLIT_WHOLE,
                        &tlen);
  f->begin_line = f->text;
  f->body = strstr (f->text, "\n\n") + 2;
  f->crc_line = strstr (f->text, "\n=") + 1;
  f->end_line = strstr (f->text, "-----END");
}

static void
fixture_free (fixture *f)
{
  g_free (f->data);
  g_free (f->text);
}

static void
check_text (const fixture *f, const char *text, gpg_err_code_t want)
{
  check_decode (text, strlen (text), want, f->data, f->len);
}

/* The body lines between BODY and CRC_LINE as one string.  */
static char *
fixture_body (const fixture *f)
{
  return g_strndup (f->body, (gsize) (f->crc_line - f->body));
}

static void
test_tolerance (void)
{
  fixture f;
  char *t, *u, *body, *crc, *endl;

  fixture_init (&f, 1000);
  body = fixture_body (&f);
  crc = g_strndup (f.crc_line, 6);              /* "=XXXX\n" */
  endl = g_strdup (f.end_line);

  /* As is.  */
  check_text (&f, f.text, 0);

  /* CRLF line ends.  */
  t = replace_all (f.text, "\n", "\r\n");
  check_text (&f, t, 0);
  g_free (t);

  /* Blank lines, also whitespace-only, inside the body.  */
  t = replace_all (body, "\n", "\n\n \t\r\n");
  u = g_strconcat ("-----BEGIN PGP MESSAGE-----\n\n", t, crc, endl, NULL);
  check_text (&f, u, 0);
  g_free (t);
  g_free (u);

  /* Trailing blanks and tabs on every line.  */
  t = replace_all (f.text, "\n", " \t  \n");
  check_text (&f, t, 0);
  g_free (t);
  t = replace_all (f.text, "\n", " \t\r\n");
  check_text (&f, t, 0);
  g_free (t);

  /* Armor headers, including a very long one.  */
  {
    GString *g = g_string_new ("-----BEGIN PGP MESSAGE-----\n"
                               "Version: GnuPG v2.4.4 (GNU/Linux)\n"
                               "Comment: https://example.org: a comment\r\n"
                               "Hash: SHA256\n"
                               "X-Funny-Key: =-=-=\n"
                               "Comment: ");
    for (int i = 0; i < 600; i++)
      g_string_append_c (g, "abcdefgh-=: "[i % 12]);
    g_string_append (g, "\n\n");
    g_string_append (g, body);
    g_string_append (g, crc);
    g_string_append (g, endl);
    check_text (&f, g->str, 0);

    /* ...and without the blank line after them.  */
    t = replace_all (g->str, "\n\n", "\n");
    check_text (&f, t, 0);
    g_free (t);
    g_string_free (g, TRUE);
  }

  /* No blank line after the BEGIN line at all.  */
  u = g_strconcat ("-----BEGIN PGP MESSAGE-----\n", body, crc, endl, NULL);
  check_text (&f, u, 0);
  g_free (u);

  /* Text before the armor, including dashes and an unrelated BEGIN.  */
  u = g_strconcat ("Hello,\r\n\nhere is the message:\n"
                   "----- forwarded -----\n"
                   "-----BEGIN PGP\n"
                   "x-----BEGIN PGP MESSAGE-----\n",
                   f.text, NULL);
  check_text (&f, u, 0);
  g_free (u);

  /* Indented BEGIN line.  */
  u = g_strconcat ("  \t", f.text, NULL);
  check_text (&f, u, 0);
  g_free (u);

  /* Text after the END line is ignored.  */
  u = g_strconcat (f.text, "trailing junk *** \n-----BEGIN PGP SIGNATURE\n",
                   NULL);
  check_text (&f, u, 0);
  g_free (u);

  /* END line without its final LF.  */
  t = g_strndup (f.text, strlen (f.text) - 1);
  check_text (&f, t, 0);
  g_free (t);

  /* Missing CRC.  */
  u = g_strconcat ("-----BEGIN PGP MESSAGE-----\n\n", body, endl, NULL);
  check_text (&f, u, 0);
  g_free (u);

  /* 76-column lines and a single line.  */
  {
    char *flat = replace_all (body, "\n", "");
    GString *g = g_string_new ("-----BEGIN PGP MESSAGE-----\n\n");
    size_t n = strlen (flat);

    for (size_t i = 0; i < n; i += 76)
      {
        g_string_append_len (g, flat + i, (gssize) MIN (76, n - i));
        g_string_append_c (g, '\n');
      }
    g_string_append (g, crc);
    g_string_append (g, endl);
    check_text (&f, g->str, 0);
    g_string_free (g, TRUE);

    u = g_strconcat ("-----BEGIN PGP MESSAGE-----\n\n", flat, "\n", crc,
                     endl, NULL);
    check_text (&f, u, 0);
    g_free (u);
    u = g_strconcat ("-----BEGIN PGP MESSAGE-----\n", flat, "\n", crc,
                     endl, NULL);
    check_text (&f, u, 0);
    g_free (u);

    /* Padding wrapped onto its own line (1000 octets end in "==").  */
    g_assert_true (flat[n - 1] == '=' && flat[n - 2] == '=');
    flat[n - 1] = 0;
    u = g_strconcat ("-----BEGIN PGP MESSAGE-----\n\n", flat, "\n=\n", crc,
                     endl, NULL);
    check_text (&f, u, 0);
    g_free (u);

    /* Padding left out, in part or in whole.  */
    u = g_strconcat ("-----BEGIN PGP MESSAGE-----\n\n", flat, "\n", crc,
                     endl, NULL);
    check_text (&f, u, 0);
    g_free (u);
    flat[n - 2] = 0;
    u = g_strconcat ("-----BEGIN PGP MESSAGE-----\n\n", flat, "\n", crc,
                     endl, NULL);
    check_text (&f, u, 0);
    g_free (u);
    g_free (flat);
  }

  /* Wrong CRC.  */
  t = g_strdup (f.text);
  {
    char *c = t + (f.crc_line - f.text) + 1;

    *c = *c == 'A' ? 'B' : 'A';
  }
  check_text (&f, t, GPG_ERR_CHECKSUM);
  g_free (t);

  /* Flipped data under a good CRC.  */
  t = g_strdup (f.text);
  {
    char *c = t + (f.body - f.text) + 10;

    *c = *c == 'A' ? 'B' : 'A';
  }
  check_text (&f, t, GPG_ERR_CHECKSUM);
  g_free (t);

  /* Truncated: no END line, or cut in the middle of the data.  */
  t = g_strndup (f.text, (gsize) (f.end_line - f.text));
  check_text (&f, t, GPG_ERR_TRUNCATED);
  g_free (t);
  t = g_strndup (f.text, (gsize) (f.body - f.text) + 100);
  check_text (&f, t, GPG_ERR_TRUNCATED);
  g_free (t);
  t = g_strndup (f.text, (gsize) (f.end_line - f.text) + 10);
  check_text (&f, t, GPG_ERR_TRUNCATED);
  g_free (t);

  /* Garbage characters in the body.  */
  for (const char *g = "*.!~\x80\xff:-="; *g; g++)
    {
      t = g_strdup (f.text);
      t[(f.body - f.text) + 20] = *g;
      check_text (&f, t, GPG_ERR_INV_ARMOR);
      g_free (t);
    }

  /* Data after the padding.  */
  u = g_strconcat ("-----BEGIN PGP MESSAGE-----\n\nAA==AAAA\n", endl, NULL);
  check_text (&f, u, GPG_ERR_INV_ARMOR);
  g_free (u);

  /* Malformed CRC line, data after the CRC line.  */
  u = g_strconcat ("-----BEGIN PGP MESSAGE-----\n\n", body, "=AB*D\n", endl,
                   NULL);
  check_text (&f, u, GPG_ERR_INV_ARMOR);
  g_free (u);
  u = g_strconcat ("-----BEGIN PGP MESSAGE-----\n\n", body, crc, "AAAA\n",
                   endl, NULL);
  check_text (&f, u, GPG_ERR_INV_ARMOR);
  g_free (u);

  /* Unknown or mismatched labels; no armor at all.  */
  t = replace_all (f.text, "BEGIN PGP MESSAGE", "BEGIN PGP MASSAGE");
  check_text (&f, t, GPG_ERR_INV_ARMOR);
  g_free (t);
  t = replace_all (f.text, "END PGP MESSAGE", "END PGP SIGNATURE");
  check_text (&f, t, GPG_ERR_INV_ARMOR);
  g_free (t);
  check_text (&f, "-----BEGIN PGP SIGNED MESSAGE-----\n", GPG_ERR_INV_ARMOR);
  check_text (&f, "just some text\nwithout armor\n", GPG_ERR_INV_ARMOR);
  check_text (&f, "", GPG_ERR_INV_ARMOR);

  /* A header line that is not one.  */
  u = g_strconcat ("-----BEGIN PGP MESSAGE-----\nNot a clue\n\n", body,
                   endl, NULL);
  check_text (&f, u, GPG_ERR_INV_ARMOR);
  g_free (u);

  g_free (body);
  g_free (crc);
  g_free (endl);
  fixture_free (&f);

  /* Empty armors.  */
  {
    static const char *const empty[] = {
      "-----BEGIN PGP MESSAGE-----\n\n-----END PGP MESSAGE-----\n",
      "-----BEGIN PGP MESSAGE-----\n-----END PGP MESSAGE-----",
      "-----BEGIN PGP SIGNATURE-----\n\n=twTO\n-----END PGP SIGNATURE-----\n",
      "-----BEGIN PGP SIGNATURE-----\n=twTO\n\n-----END PGP SIGNATURE-----\n",
    };

    for (size_t i = 0; i < G_N_ELEMENTS (empty); i++)
      check_decode (empty[i], strlen (empty[i]), 0, NULL, 0);
  }

  /* Lines after the BEGIN line that are short data, not headers.  */
  {
    static const uint8_t want[] = { 1, 2, 3, 4 };
    static const char *const texts[] = {
      "-----BEGIN PGP MESSAGE-----\nAQID\nBA==\n-----END PGP MESSAGE-----",
      "-----BEGIN PGP MESSAGE-----\r\nAQIDBA\r\n-----END PGP MESSAGE-----",
      "-----BEGIN PGP MESSAGE-----\nVersion: 1\nAQIDBA==\n=eHjN\n"
      "-----END PGP MESSAGE-----\n",
    };

    for (size_t i = 0; i < G_N_ELEMENTS (texts); i++)
      check_decode (texts[i], strlen (texts[i]), 0, want, 4);
  }

  /* A short message in one line with no blank line, pushed an octet at a
   * time: its octets are owed across pushes and must still all arrive.  */
  {
    static const uint8_t want[] = "0123456789abcdefghijklmnopqrstu";
    char *b = g_base64_encode (want, 31);

    u = g_strconcat ("-----BEGIN PGP MESSAGE-----\n", b,
                     "\n-----END PGP MESSAGE-----", NULL);
    check_decode (u, strlen (u), 0, want, 31);
    g_free (u);
    g_free (b);
  }
}

/* The decoder stops at the END line and reports done.  */
static void
test_done (void)
{
  static const char text[] = "-----BEGIN PGP MESSAGE-----\n\nAQID\n"
                             "-----END PGP MESSAGE-----\ngarbage ***";
  pl_armor_decoder dec;
  uint8_t out[sizeof text];
  size_t n;

  pl_armor_decoder_init (&dec);
  g_assert_false (pl_armor_decoder_done (&dec));
  g_assert_cmpint (pl_armor_decoder_push (&dec, (const uint8_t *) text,
                                          sizeof text - 1, out, &n), ==, 0);
  g_assert_cmpuint (n, ==, 3);
  g_assert_cmpint (out[0], ==, 1);
  g_assert_cmpint (out[2], ==, 3);
  g_assert_true (pl_armor_decoder_done (&dec));
  g_assert_cmpint (pl_armor_decoder_push (&dec, (const uint8_t *) "***", 3,
                                          out, &n), ==, 0);
  g_assert_cmpuint (n, ==, 0);
  g_assert_cmpint (pl_armor_decoder_finish (&dec), ==, 0);

  /* Errors stick.  */
  pl_armor_decoder_init (&dec);
  g_assert_cmpint (gpg_err_code (pl_armor_decoder_push
                                 (&dec, (const uint8_t *)
                                  "-----BEGIN PGP MESSAGE-----\n\n**", 31,
                                  out, &n)), ==, GPG_ERR_INV_ARMOR);
  g_assert_cmpint (gpg_err_code (pl_armor_decoder_push
                                 (&dec, (const uint8_t *) "AAAA", 4,
                                  out, &n)), ==, GPG_ERR_INV_ARMOR);
  g_assert_cmpint (gpg_err_code (pl_armor_decoder_finish (&dec)), ==,
                   GPG_ERR_INV_ARMOR);
}


/* Randomly damaged armor: whatever the outcome, every split of the input
 * must reach the same one.  */
static void
test_split_consistency (void)
{
  static const char noise[] = "\n\r\t -=:A/+*\n=";
  fixture f;

  fixture_init (&f, 200);
  for (int round = 0; round < 400; round++)
    {
      GString *g = g_string_new (f.text);
      int edits = g_test_rand_int_range (1, 4);
      gpg_error_t err0 = 0;
      uint8_t *out0 = NULL;
      size_t len0 = 0;

      if (round % 2)
        g_string_insert (g, 28, "Comment: x\r\n");
      for (int e = 0; e < edits; e++)
        {
          gssize pos = g_test_rand_int_range (0, (gint32) g->len);

          if (g_test_rand_bit ())
            g_string_erase (g, pos, 1);
          else
            g_string_insert_c (g, pos, noise[g_test_rand_int_range
                                              (0, sizeof noise - 1)]);
        }
      for (int mode = 0; mode < N_SPLITS; mode++)
        {
          uint8_t *out;
          size_t outlen;
          gpg_error_t err = decode_all (g->str, g->len, mode, &out, &outlen,
                                        NULL);

          if (mode == 0)
            {
              err0 = err;
              out0 = out;
              len0 = outlen;
              continue;
            }
          g_assert_cmpint (err, ==, err0);
          if (!err)
            {
              g_assert_cmpuint (outlen, ==, len0);
              g_assert_true (!outlen || !memcmp (out, out0, outlen));
            }
          g_free (out);
        }
      g_free (out0);
      g_string_free (g, TRUE);
    }
  fixture_free (&f);
}


/* --- a real GnuPG message --- */

static void
test_gnupg_vector (void)
{
  char *text;
  gsize len;
  pl_armor_decoder dec;
  uint8_t *out;
  size_t outlen;

  char *path = g_build_filename (tu_vectors_dir (), "g-aes128.asc", NULL);

  g_assert_true (g_file_get_contents (path, &text, &len, NULL));
  g_free (path);
  g_assert_true (pl_armor_detect ((const uint8_t *) text, len));
  for (int mode = 0; mode < N_SPLITS; mode++)
    {
      g_assert_cmpint (decode_all (text, len, mode, &out, &outlen, &dec),
                       ==, 0);
      g_assert_true (dec.have_crc);   /* so the CRC was checked */
      g_assert_cmpuint (outlen, >, 0);
      g_assert_true (out[0] & 0x80);
      g_free (out);
    }
  g_free (text);
}


/* --- detection --- */

static void
test_detect (void)
{
  static const char armored[] = "-----BEGIN PGP MESSAGE-----\n\nAQID\n"
                                "-----END PGP MESSAGE-----\n";
  static const char clearsigned[] =
    "\n \r\n-----BEGIN PGP SIGNED MESSAGE-----\nHash: SHA256\n\nhello\n"
    "-----BEGIN PGP SIGNATURE-----\n";
  static const char mail[] = "Dear Bob,\nsee below.\n\n"
                             "-----BEGIN PGP MESSAGE-----\n";
  static const char plain[] = "Just some text, with a - dash.\n";
  static const char inline_begin[] = "text -----BEGIN PGP MESSAGE-----\n";
  static const uint8_t bin1[] = { 0x8c, 0x0d, 0x04, 0x07, 0x03 };
  static const uint8_t bin2[] = { 0xc3, 0x1e, 0x05, 0x07 };
  char *big;

#define DETECT(s) pl_armor_detect ((const uint8_t *) (s), strlen (s))
  g_assert_cmpint (DETECT (armored), ==, 1);
  g_assert_cmpint (DETECT ("  \n\t" "-----BEGIN PGP PUBLIC KEY BLOCK-----"),
                   ==, 1);
  g_assert_cmpint (DETECT (clearsigned), ==, 1);
  g_assert_cmpint (DETECT (mail), ==, 1);
  g_assert_cmpint (DETECT (plain), ==, 0);
  g_assert_cmpint (DETECT (inline_begin), ==, 0);
  g_assert_cmpint (DETECT (""), ==, 0);
  g_assert_cmpint (DETECT ("\n\n  "), ==, 0);
  g_assert_cmpint (DETECT ("-----BEGIN PGP"), ==, 0);
  g_assert_cmpint (pl_armor_detect (bin1, sizeof bin1), ==, 0);
  g_assert_cmpint (pl_armor_detect (bin2, sizeof bin2), ==, 0);
  /* Truncated view of an armor: only the part given counts.  */
  g_assert_cmpint (pl_armor_detect ((const uint8_t *) armored, 10), ==, 0);

  /* Far beyond the window.  */
  big = g_strnfill (100000, 'x');
  memcpy (big + 99000, "\n-----BEGIN PGP MESSAGE-----\n", 29);
  g_assert_cmpint (DETECT (big), ==, 0);
  g_free (big);
#undef DETECT
}


/* --- bound --- */

static void
test_bound (void)
{
  /* Worst case per push: a carry of two octets completes a group and
   * lines break as often as possible.  */
  for (size_t carry = 0; carry < 3; carry++)
    for (size_t len = 0; len < 400; len++)
      for (int with_crc = 0; with_crc < 2; with_crc++)
        {
          pl_armor_encoder enc;
          uint8_t data[400] = { 0 };
          char *buf = g_malloc (pl_armor_encoder_bound (400));
          size_t w;

          pl_armor_encoder_init (&enc, PL_ARMOR_PRIVATE_KEY, with_crc);
          /* Leave CARRY octets and a column just short of the end.  */
          w = pl_armor_encoder_push (&enc, data, 45 + carry, buf);
          g_assert_cmpuint (w, <=, pl_armor_encoder_bound (45 + carry));
          w = pl_armor_encoder_push (&enc, data, len, buf);
          g_assert_cmpuint (w, <=, pl_armor_encoder_bound (len));
          w = pl_armor_encoder_finish (&enc, buf);
          g_assert_cmpuint (w, <=, pl_armor_encoder_bound (0));
          g_free (buf);
        }
  g_assert_cmpuint (pl_armor_encoder_bound ((size_t) -1), ==, (size_t) -1);
}

/* --- vector kernels against the portable code --- */

static const char *const simd_levels[] = { "avx512", "avx2", "ssse3",
                                            "scalar" };

/* Decodes TEXT whole with level LEVEL, then in random pushes.  */
static gpg_error_t
decode_at_level (const char *level, const char *text, size_t len,
                 uint8_t **out, size_t *outlen)
{
  g_assert_cmpint (pl_armor_force_simd (level), ==, 0);
  return decode_all (text, len, SPLIT_RANDOM, out, outlen, NULL);
}

/* Decodes TEXT with every level this CPU has; all must agree with the
 * portable decoder on the error and the octets.  */
static void
check_levels_agree (const char *text, size_t len)
{
  uint8_t *ref;
  size_t ref_len;
  gpg_error_t ref_err = decode_at_level ("scalar", text, len, &ref,
                                         &ref_len);

  for (size_t i = 0; i < G_N_ELEMENTS (simd_levels); i++)
    {
      uint8_t *out;
      size_t outlen;
      gpg_error_t err;

      if (pl_armor_force_simd (simd_levels[i]))
        continue;
      err = decode_at_level (simd_levels[i], text, len, &out, &outlen);
      if (err != ref_err)
        g_error ("level %s: got %s, scalar got %s on:\n%.*s", simd_levels[i],
                 gpg_strerror (err), gpg_strerror (ref_err), (int) len, text);
      if (!err)
        {
          g_assert_cmpuint (outlen, ==, ref_len);
          g_assert_true (!outlen || !memcmp (out, ref, outlen));
        }
      g_free (out);
    }
  g_free (ref);
  pl_armor_force_simd (NULL);
}

/* Rewraps the radix-64 of DATA into lines of random lengths (mostly the
 * vector block sizes and around them), each ending in LF or CR LF, with
 * now and then trailing blanks or a blank line.  */
static GString *
random_layout (const uint8_t *data, size_t len, int with_crc)
{
  static const int widths[] = { 64, 64, 76, 32, 16, 48, 60, 63, 65, 33, 1 };
  char *b64 = g_base64_encode (data, len);
  size_t n = strlen (b64);
  GString *g = g_string_new ("-----BEGIN PGP MESSAGE-----\n");
  int width = widths[g_test_rand_int_range (0, G_N_ELEMENTS (widths))];
  int crlf = g_test_rand_int_range (0, 3);

  if (g_test_rand_bit ())
    g_string_append (g, "Comment: layout test\n");
  g_string_append (g, "\n");
  for (size_t off = 0; off < n;)
    {
      size_t k = g_test_rand_int_range (0, 4)
                 ? (size_t) width : (size_t) g_test_rand_int_range (1, 100);

      k = MIN (k, n - off);
      g_string_append_len (g, b64 + off, (gssize) k);
      off += k;
      if (g_test_rand_int_range (0, 20) == 0)
        g_string_append (g, g_test_rand_bit () ? " " : "\t ");
      g_string_append (g, crlf == 2 || (crlf == 1 && g_test_rand_bit ())
                          ? "\r\n" : "\n");
      if (g_test_rand_int_range (0, 30) == 0)
        g_string_append (g, "\n");
    }
  if (with_crc)
    {
      uint32_t crc = crc24_slow (PL_CRC24_INIT, data, len);
      uint8_t c[3] = { crc >> 16, crc >> 8, crc };
      char *sum = g_base64_encode (c, 3);

      g_string_append_printf (g, "=%s\n", sum);
      g_free (sum);
    }
  g_string_append (g, "-----END PGP MESSAGE-----\n");
  g_free (b64);
  return g;
}

static void
test_simd_encode (void)
{
  for (size_t len = 0; len <= 300; len++)
    {
      uint8_t *data = random_bytes (len);
      size_t ref_len;
      char *ref;

      g_assert_cmpint (pl_armor_force_simd ("scalar"), ==, 0);
      ref = encode_all (data, len, PL_ARMOR_MESSAGE, len % 2, SPLIT_RANDOM,
                        &ref_len);
      check_armor_shape (ref, ref_len, data, len, PL_ARMOR_MESSAGE, len % 2);
      for (size_t i = 0; i < G_N_ELEMENTS (simd_levels); i++)
        {
          size_t tlen;
          char *text;

          if (pl_armor_force_simd (simd_levels[i]))
            continue;
          text = encode_all (data, len, PL_ARMOR_MESSAGE, len % 2,
                             SPLIT_RANDOM, &tlen);
          g_assert_cmpuint (tlen, ==, ref_len);
          g_assert_true (!memcmp (text, ref, tlen));
          g_free (text);
        }
      g_free (ref);
      g_free (data);
    }
  pl_armor_force_simd (NULL);
}

static void
test_simd_decode_layouts (void)
{
  for (size_t len = 0; len <= 300; len++)
    for (int round = 0; round < 4; round++)
      {
        uint8_t *data = random_bytes (len);
        GString *g = random_layout (data, len, round % 2);
        uint8_t *out;
        size_t outlen;

        /* Valid armor: the portable decoder gets the data back...  */
        g_assert_cmpint (decode_at_level ("scalar", g->str, g->len, &out,
                                          &outlen), ==, 0);
        g_assert_cmpuint (outlen, ==, len);
        g_assert_true (!len || !memcmp (out, data, len));
        g_free (out);
        /* ...and so does every level.  */
        check_levels_agree (g->str, g->len);

        /* A stray octet anywhere: all levels agree, error or not.  */
        if (g->len)
          {
            gssize pos = g_test_rand_int_range (0, (gint32) g->len);

            g->str[pos] = (char) g_test_rand_int_range (0, 256);
            check_levels_agree (g->str, g->len);
          }
        g_string_free (g, TRUE);
        g_free (data);
      }
}

/* Every octet value at every place of a 64-character line, so that each
 * lane of each vector sees every value: the kernels must accept exactly
 * the radix-64 alphabet.  */
static void
test_simd_alphabet (void)
{
  uint8_t data[96];
  char *body;

  for (size_t i = 0; i < sizeof data; i++)
    data[i] = (uint8_t) g_test_rand_int_range (0, 256);
  {
    char *b64 = g_base64_encode (data, sizeof data);   /* 128 characters */

    body = g_strdup_printf ("-----BEGIN PGP MESSAGE-----\n\n%.64s\n%s\n"
                            "-----END PGP MESSAGE-----\n", b64, b64 + 64);
    g_free (b64);
  }
  for (size_t pos = 0; pos < 64; pos++)
    for (int c = 0; c < 256; c++)
      {
        char *t = g_strdup (body);

        t[29 + pos] = (char) c;
        check_levels_agree (t, strlen (body));
        g_free (t);
      }
  g_free (body);
}

/* Runs one of the tests above with the level in DATA forced, so that
 * every test covers every level the CPU has.  */
typedef struct
{
  const char *level;
  GTestFunc func;
} level_case;

static void
run_at_level (gconstpointer data)
{
  const level_case *c = data;

  if (pl_armor_force_simd (c->level))
    {
      g_test_skip ("this CPU lacks the level");
      return;
    }
  c->func ();
  pl_armor_force_simd (NULL);
}

static void
add_at_levels (const char *name, GTestFunc func)
{
  for (size_t i = 0; i < G_N_ELEMENTS (simd_levels); i++)
    {
      level_case *c = g_new (level_case, 1);   /* freed with the test case */
      char *path = g_strdup_printf ("/armor/%s/%s", simd_levels[i], name);

      c->level = simd_levels[i];
      c->func = func;
      g_test_add_data_func_full (path, c, run_at_level, g_free);
      g_free (path);
    }
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);

  add_at_levels ("crc24", test_crc24);
  g_test_add_func ("/armor/radix64", test_radix64);
  g_test_add_func ("/armor/bound", test_bound);
  add_at_levels ("roundtrip", test_roundtrip);
  add_at_levels ("tolerance", test_tolerance);
  add_at_levels ("done", test_done);
  add_at_levels ("split-consistency", test_split_consistency);
  add_at_levels ("gnupg-vector", test_gnupg_vector);
  g_test_add_func ("/armor/detect", test_detect);
  g_test_add_func ("/armor/simd-encode", test_simd_encode);
  g_test_add_func ("/armor/simd-decode-layouts", test_simd_decode_layouts);
  g_test_add_func ("/armor/simd-alphabet", test_simd_alphabet);

  return g_test_run ();
}
