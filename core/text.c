/* text.c - text from a key or a message, as it can be shown without lying */
#include "text.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Unicode 15.0's format characters (Cf), as ranges. */
static const uint32_t format_chars[][2] = {
  { 0x00AD, 0x00AD }, { 0x0600, 0x0605 }, { 0x061C, 0x061C },
  { 0x06DD, 0x06DD }, { 0x070F, 0x070F }, { 0x0890, 0x0891 },
  { 0x08E2, 0x08E2 }, { 0x180E, 0x180E }, { 0x200B, 0x200F },
  { 0x202A, 0x202E }, { 0x2060, 0x2064 }, { 0x2066, 0x206F },
  { 0xFEFF, 0xFEFF }, { 0xFFF9, 0xFFFB }, { 0x110BD, 0x110BD },
  { 0x110CD, 0x110CD }, { 0x13430, 0x1343F }, { 0x1BCA0, 0x1BCA3 },
  { 0x1D173, 0x1D17A }, { 0xE0001, 0xE0001 }, { 0xE0020, 0xE007F },
};

int
pl_text_char_is_hidden (uint32_t c)
{
  if (c < 0x20 || (c >= 0x7F && c <= 0x9F))     /* Cc */
    return 1;
  if (c == 0x2028 || c == 0x2029)               /* Zl, Zp */
    return 1;
  for (size_t i = 0; i < sizeof format_chars / sizeof format_chars[0]; i++)
    if (c >= format_chars[i][0] && c <= format_chars[i][1])
      return 1;
  return 0;
}

/* The character at P (N octets left, N > 0) into *C; returns its length,
 * or 0 when P does not begin a valid UTF-8 sequence (RFC 3629's table:
 * no overlong form, no surrogate, nothing past U+10FFFF). */
static size_t
decode (const unsigned char *p, size_t n, uint32_t *c)
{
  unsigned char b = p[0], lo = 0x80, hi = 0xBF;
  size_t len;

  if (b < 0x80)
    return (*c = b), 1;
  if (b >= 0xC2 && b <= 0xDF)
    len = 2, *c = b & 0x1F;
  else if (b >= 0xE0 && b <= 0xEF)
    {
      len = 3, *c = b & 0x0F;
      if (b == 0xE0)
        lo = 0xA0;
      else if (b == 0xED)
        hi = 0x9F;
    }
  else if (b >= 0xF0 && b <= 0xF4)
    {
      len = 4, *c = b & 0x07;
      if (b == 0xF0)
        lo = 0x90;
      else if (b == 0xF4)
        hi = 0x8F;
    }
  else
    return 0;
  if (n < len || p[1] < lo || p[1] > hi)
    return 0;
  for (size_t i = 1; i < len; i++)
    {
      if (i > 1 && (p[i] & 0xC0) != 0x80)
        return 0;
      *c = (*c << 6) | (p[i] & 0x3F);
    }
  return len;
}

/* Whether C is a space separator (Unicode Zs, 15.0): what a script may
 * split a line on, besides the hidden ones (tab, newline, U+2028…). */
static int
is_space (uint32_t c)
{
  return c == 0x20 || c == 0xA0 || c == 0x1680 || (c >= 0x2000 && c <= 0x200A)
         || c == 0x202F || c == 0x205F || c == 0x3000;
}

/* The escape of C, or NULL when it stands for itself. */
static const char *
escape_char (uint32_t c, unsigned flags, char buf[16])
{
  if (c == '\\')
    return "\\\\";
  if ((flags & PL_TEXT_WORD) && c == '"')
    return "\\\"";
  if ((flags & PL_TEXT_WORD) && c == ' ')
    return "\\x20";
  if (!pl_text_char_is_hidden (c) && !((flags & PL_TEXT_WORD) && is_space (c)))
    return NULL;
  if (c == '\n')
    return "\\n";
  if (c == '\t')
    return "\\t";
  if (c == '\r')
    return "\\r";
  if (c < 0x80)
    snprintf (buf, 16, "\\x%02X", (unsigned) c);
  else if (c < 0x10000)
    snprintf (buf, 16, "\\u%04X", (unsigned) c);
  else
    snprintf (buf, 16, "\\U%08X", (unsigned) c);
  return buf;
}

/* Appends the N octets at S to OUT when they fit whole (with room for
 * the NUL), and counts them in *NEED either way; once one piece did not
 * fit, nothing more is written, so the text is cut between pieces. */
static void
put (char *out, size_t out_len, size_t *used, int *full, size_t *need,
     const char *s, size_t n)
{
  if (!*full && *used + n < out_len)
    {
      memcpy (out + *used, s, n);
      *used += n;
    }
  else
    *full = 1;
  *need += n;
}

/* Whether the LEN octets at P cannot be a bare word (PL_TEXT_WORD): they
 * are empty, or hold an octet that is not valid UTF-8 or a character
 * that is escaped in a word. */
static int
needs_quotes (const unsigned char *p, size_t len)
{
  char buf[16];

  if (len == 0)
    return 1;
  for (size_t pos = 0, n; pos < len; pos += n)
    {
      uint32_t c;

      n = decode (p + pos, len - pos, &c);
      if (!n || escape_char (c, PL_TEXT_WORD, buf))
        return 1;
    }
  return 0;
}

size_t
pl_text_escape (const char *in, size_t len, unsigned flags, char *out,
                size_t out_len)
{
  const unsigned char *p = (const unsigned char *) in;
  size_t used = 0, need = 0, pos = 0;
  int full = 0;

  int quote = (flags & PL_TEXT_WORD) && needs_quotes (p, len);

  if (quote)
    put (out, out_len, &used, &full, &need, "\"", 1);
  while (pos < len)
    {
      uint32_t c;
      size_t n = decode (p + pos, len - pos, &c);
      char buf[16];
      const char *esc;

      if (!n)
        {
          put (out, out_len, &used, &full, &need, "\xEF\xBF\xBD", 3);
          pos++;
          continue;
        }
      esc = escape_char (c, flags, buf);
      if (esc)
        put (out, out_len, &used, &full, &need, esc, strlen (esc));
      else
        put (out, out_len, &used, &full, &need, in + pos, n);
      pos += n;
    }
  if (quote)
    put (out, out_len, &used, &full, &need, "\"", 1);
  if (out_len)
    out[used] = 0;
  return need;
}

char *
pl_text_escape_dup (const char *in, size_t len, unsigned flags)
{
  size_t need = pl_text_escape (in, len, flags, NULL, 0);
  char *out = malloc (need + 1);

  if (out)
    pl_text_escape (in, len, flags, out, need + 1);
  return out;
}
