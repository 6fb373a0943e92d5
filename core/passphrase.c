/* passphrase.c - the one passphrase rule */
#include "passphrase.h"

#include <string.h>

/* gpg's --passphrase-file: up to the first "\n", without it. */
static size_t
first_line (const char *text, size_t len)
{
  const char *nl = memchr (text, '\n', len);
  return nl ? (size_t) (nl - text) : len;
}

/* SOP: trailing space, tab, CR and LF are not part of a password. */
static size_t
trimmed (const char *text, size_t len)
{
  while (len && strchr (" \t\r\n", text[len - 1]))
    len--;
  return len;
}

/* LEN less one line ending, "\n" or "\r\n". */
static size_t
less_line_ending (const char *text, size_t len)
{
  if (len && text[len - 1] == '\n')
    len--;
  if (len && text[len - 1] == '\r')
    len--;
  return len;
}

size_t
pl_passphrase_length (const char *text, size_t len, pl_passphrase_rule rule)
{
  switch (rule)
    {
    case PL_PASSPHRASE_FILE:
      return first_line (text, len);
    case PL_PASSPHRASE_SOP:
      return trimmed (text, first_line (text, len));
    case PL_PASSPHRASE_TYPED:
    default:
      return len;
    }
}

int
pl_utf8_valid (const char *str, size_t n)
{
  const unsigned char *s = (const unsigned char *) str;
  size_t i = 0;

  while (i < n)
    {
      unsigned char c = s[i];
      size_t k;
      unsigned long cp;

      if (c < 0x80)
        {
          i++;
          continue;
        }
      if ((c & 0xE0) == 0xC0)
        k = 1, cp = c & 0x1F;
      else if ((c & 0xF0) == 0xE0)
        k = 2, cp = c & 0x0F;
      else if ((c & 0xF8) == 0xF0)
        k = 3, cp = c & 0x07;
      else
        return 0;
      if (k >= n - i)
        return 0;
      for (size_t j = 1; j <= k; j++)
        {
          if ((s[i + j] & 0xC0) != 0x80)
            return 0;
          cp = (cp << 6) | (s[i + j] & 0x3F);
        }
      if ((k == 1 && cp < 0x80) || (k == 2 && cp < 0x800)
          || (k == 3 && (cp < 0x10000 || cp > 0x10FFFF))
          || (cp >= 0xD800 && cp <= 0xDFFF))
        return 0;
      i += k + 1;
    }
  return 1;
}

gpg_error_t
pl_passphrase_check (const char *text, size_t len, pl_passphrase_rule rule,
                     size_t *passphrase_len)
{
  size_t n, blank = 0;

  if (passphrase_len)
    *passphrase_len = 0;
  if (len > PL_PASSPHRASE_MAX)
    return gpg_error (PL_ERR_PASSPHRASE_TOO_LONG);
  n = pl_passphrase_length (text, len, rule);
  if (memchr (text, 0, n) || !pl_utf8_valid (text, n))
    return gpg_error (PL_ERR_PASSPHRASE_NOT_TEXT);
  while (blank < n && strchr (" \t\r\n\v\f", text[blank]))
    blank++;
  if (blank == n)
    return gpg_error (PL_ERR_PASSPHRASE_BLANK);
  if (passphrase_len)
    *passphrase_len = n;
  return 0;
}

static size_t
add_form (size_t *forms, size_t n, size_t len)
{
  for (size_t i = 0; i < n; i++)
    if (forms[i] == len)
      return n;
  forms[n] = len;
  return n + 1;
}

size_t
pl_passphrase_forms (const char *text, size_t len, pl_passphrase_rule rule,
                     size_t forms[PL_PASSPHRASE_FORMS])
{
  size_t line = first_line (text, len);
  size_t n = 0;

  n = add_form (forms, n, pl_passphrase_length (text, len, rule));
  /* gpg's reading, and less "\r\n" as Windows editors end a line. */
  n = add_form (forms, n, line);
  n = add_form (forms, n, less_line_ending (text, line + (line < len)));
  /* A SOP peer's encryption, from the first line or from all of it. */
  n = add_form (forms, n, trimmed (text, line));
  n = add_form (forms, n, trimmed (text, len));
  /* SOP's "as given", and earlier `--batch` (one "\n" less). */
  n = add_form (forms, n, len);
  if (n < PL_PASSPHRASE_FORMS)
    n = add_form (forms, n, less_line_ending (text, len));
  return n;
}
