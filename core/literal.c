/* literal.c - Literal Data packets */
#include "literal.h"

#include <string.h>

gpg_error_t
pl_literal_parse (pl_literal_header *h, const uint8_t *p, size_t len,
                  size_t *used)
{
  size_t nl;

  memset (h, 0, sizeof *h);
  if (len < 2)
    return gpg_error (GPG_ERR_TRUNCATED);
  h->format = p[0];
  /* 'l' and '1' are RFC 1991 spellings of local/binary data. */
  if (!strchr ("btum1l", h->format) || !h->format)
    return gpg_error (GPG_ERR_INV_PACKET);
  nl = p[1];
  if (len < 2 + nl + 4)
    return gpg_error (GPG_ERR_TRUNCATED);
  memcpy (h->name, p + 2, nl);
  h->name[nl] = 0;
  h->name_len = nl;
  h->date = ((uint32_t) p[2 + nl] << 24) | ((uint32_t) p[3 + nl] << 16)
            | ((uint32_t) p[4 + nl] << 8) | p[5 + nl];
  *used = 2 + nl + 4;
  return 0;
}

size_t
pl_literal_write (const pl_literal_header *h, uint8_t *out)
{
  size_t nl = h->name_len > 255 ? 255 : h->name_len;

  out[0] = (uint8_t) (h->format ? h->format : 'b');
  out[1] = (uint8_t) nl;
  memcpy (out + 2, h->name, nl);
  out[2 + nl] = (uint8_t) (h->date >> 24);
  out[3 + nl] = (uint8_t) (h->date >> 16);
  out[4 + nl] = (uint8_t) (h->date >> 8);
  out[5 + nl] = (uint8_t) h->date;
  return 6 + nl;
}

void
pl_literal_set_name (pl_literal_header *h, const char *path)
{
  const char *base = path ? strrchr (path, '/') : NULL;
  size_t n;

  base = base ? base + 1 : path ? path : "";
  n = strlen (base);
  if (n > 255)
    n = 255;
  memcpy (h->name, base, n);
  h->name[n] = 0;
  h->name_len = n;
}
