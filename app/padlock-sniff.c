/* padlock-sniff.c - is a file an OpenPGP message?  By content, not name. */
#include "padlock-sniff.h"

#include <string.h>
#include <glib/gi18n.h>

#include "armor.h"
#include "compress.h"
#include "padlock-error.h"

/* Reads a packet header: the tag, the header's length, and the body's
 * length (-1: partial or indeterminate, which only data packets use). */
static gboolean
parse_header (const guint8 *buf,
              gsize         len,
              int          *tag,
              gsize        *hdr,
              gint64       *body_len)
{
  guint8 b = buf[0];

  if (!(b & 0x80))
    return FALSE;
  if (b & 0x40)
    {
      *tag = b & 0x3f;
      if (len < 2)
        return FALSE;
      if (buf[1] < 192)
        *hdr = 2, *body_len = buf[1];
      else if (buf[1] < 224)
        {
          if (len < 3)
            return FALSE;
          *hdr = 3, *body_len = ((buf[1] - 192) << 8) + buf[2] + 192;
        }
      else if (buf[1] < 255)
        *hdr = 2, *body_len = -1;
      else
        {
          if (len < 6)
            return FALSE;
          *hdr = 6;
          *body_len = ((gint64) buf[2] << 24) | (buf[3] << 16) | (buf[4] << 8) | buf[5];
        }
    }
  else
    {
      static const gsize length_octets[4] = { 1, 2, 4, 0 };
      gsize n = length_octets[b & 3];

      *tag = (b >> 2) & 0x0f;
      if (len < 1 + n)
        return FALSE;
      *hdr = 1 + n;
      *body_len = n ? 0 : -1;
      for (gsize i = 0; i < n; i++)
        *body_len = (*body_len << 8) | buf[1 + i];
    }
  return TRUE;
}

/* Whether a packet that a compressed packet holds may start with P: a
 * literal, or a signed message's one-pass signature or signature. */
static gboolean
plausible_inner_packet (const guint8 *p,
                        gsize         len)
{
  int tag = 0;
  gsize hdr = 0;
  gint64 body_len = 0;

  if (!parse_header (p, len, &tag, &hdr, &body_len))
    return len < 6 && len && (p[0] & 0x80); /* too short to judge */
  return tag == 11 || tag == 4 || tag == 2;
}

/* Whether a compressed packet's stream (P, LEN: from its algorithm octet
 * on, as far as the buffer goes) starts as a message's would: gpg writes
 * compressed packets with the old format's indeterminate length, 0xa3,
 * and 0xa3 0x00-0x03 starts one random file in 16,384.  The stream must
 * inflate without error as far as the buffer and OUT hold it, and what
 * it inflates to must begin with a packet that a message compresses. */
static gboolean
plausible_compressed (const guint8 *p,
                      gsize         len)
{
  pl_inflate z;
  guint8 out[1024];
  size_t consumed = 0, produced = 0;
  gpg_error_t err;

  if (len < 2)
    return TRUE;                /* nothing more to judge by */
  if (p[0] == 0)                /* uncompressed */
    return plausible_inner_packet (p + 1, len - 1);
  if (pl_inflate_init (&z, p[0]))
    return FALSE;
  pl_inflate_set_expansion_floor (&z, PL_INFLATE_NO_LIMIT);
  err = pl_inflate_push (&z, p + 1, len - 1, &consumed, out, sizeof out,
                         &produced);
  pl_inflate_clear (&z);
  return !err && (!produced || plausible_inner_packet (out, produced));
}

/* Whether the first packet could start a message, judged strictly enough
 * that an ordinary file whose first octet happens to look like a tag is
 * not taken for one.  TOTAL is the file's size, or -1. */
static gboolean
plausible_packet (const guint8 *buf,
                  gsize         len,
                  gint64        total)
{
  gsize hdr = 0;
  gint64 body_len = 0;
  int tag = 0, version;
  /* A data packet at the top level is the message's last: with a definite
   * length, it fills the file. */
  gboolean fills;

  if (!parse_header (buf, len, &tag, &hdr, &body_len))
    return FALSE;
  version = hdr < len ? buf[hdr] : -1;
  fills = body_len < 0 || total < 0 || (gint64) hdr + body_len == total;

  switch (tag)
    {
    case 3:                     /* SKESK v4, v5, v6: short, and more follows */
      return (version == 4 || version == 5 || version == 6)
             && body_len >= 4 && body_len <= 512
             && (total < 0 || (gint64) hdr + body_len < total);
    case 1:                     /* PKESK v3, v6 */
      return (version == 3 || version == 6)
             && body_len >= 10 && body_len <= 8192
             && (total < 0 || (gint64) hdr + body_len < total);
    case 18:                    /* SEIPD v1, v2 */
      return (version == 1 || version == 2) && fills;
    case 20:                    /* OCB Encrypted Data (LibrePGP) */
      return version == 1 && fills;
    case 8:                     /* compressed: the algorithm */
      return version >= 0 && version <= 3 && fills
             && plausible_compressed (buf + hdr, len - hdr);
    case 10:                    /* marker: "PGP" */
      return body_len == 3 && hdr + 3 <= len && !memcmp (buf + hdr, "PGP", 3);
    case 9:
      /* SED has no version octet to check: only an exact fit, or a partial
       * length, counts (an old-style indeterminate length is one octet,
       * 0xa7, that too many ordinary files start with). */
      return body_len < 0 ? (buf[0] & 0x40) != 0 : fills;
    default:
      return FALSE;
    }
}

PadlockSniff
padlock_sniff_buffer (const guint8 *buf,
                      gsize         len,
                      gint64        total)
{
  static const char begin[] = "-----BEGIN PGP MESSAGE-----";

  if (len == 0)
    return PADLOCK_SNIFF_PLAIN;
  if (pl_armor_detect (buf, len) == 1)
    return memmem (buf, len, begin, sizeof begin - 1) ? PADLOCK_SNIFF_ARMORED
                                                      : PADLOCK_SNIFF_PLAIN;
  return plausible_packet (buf, len, total) ? PADLOCK_SNIFF_BINARY
                                     : PADLOCK_SNIFF_PLAIN;
}

gboolean
padlock_sniff_file (GFile        *file,
                    PadlockSniff *kind,
                    GError      **error)
{
  g_autoptr(GFileInputStream) in = NULL;
  g_autoptr(GFileInfo) info = NULL;
  g_autofree guint8 *buf = NULL;
  gsize n = 0;

  g_return_val_if_fail (G_IS_FILE (file), FALSE);
  g_return_val_if_fail (kind != NULL, FALSE);

  /* A folder is encrypted, as one archive (padlock-folder.h). */
  if (g_file_query_file_type (file, G_FILE_QUERY_INFO_NONE, NULL)
      == G_FILE_TYPE_DIRECTORY)
    {
      *kind = PADLOCK_SNIFF_PLAIN;
      return TRUE;
    }
  in = g_file_read (file, NULL, error);
  if (!in)
    return FALSE;
  buf = g_malloc (PADLOCK_SNIFF_SIZE);
  if (!g_input_stream_read_all (G_INPUT_STREAM (in), buf, PADLOCK_SNIFF_SIZE,
                                &n, NULL, error))
    return FALSE;
  info = g_file_input_stream_query_info (in, G_FILE_ATTRIBUTE_STANDARD_SIZE, NULL, NULL);
  *kind = padlock_sniff_buffer (buf, n, info ? g_file_info_get_size (info) : -1);
  return TRUE;
}
