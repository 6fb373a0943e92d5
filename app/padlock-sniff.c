/* padlock-sniff.c - is a file an OpenPGP message?  By content, not name. */
#include "padlock-sniff.h"

#include <string.h>
#include <glib/gi18n.h>

#include "armor.h"
#include "padlock-error.h"

/* The packets a message may start with, and a plausible first body octet
 * for each (-1: anything), so that a random file whose first octet happens
 * to look like a tag is not taken for a message. */
static gboolean
plausible_packet (const guint8 *buf,
                  gsize         len)
{
  guint8 b = buf[0];
  gsize hdr;
  int tag, body;

  if (!(b & 0x80))
    return FALSE;
  if (b & 0x40)
    {
      tag = b & 0x3f;
      if (len < 2)
        return FALSE;
      if (buf[1] < 192 || (buf[1] >= 224 && buf[1] < 255))
        hdr = 2;
      else if (buf[1] < 224)
        hdr = 3;
      else
        hdr = 6;
    }
  else
    {
      static const gsize length_octets[4] = { 1, 2, 4, 0 };
      tag = (b >> 2) & 0x0f;
      hdr = 1 + length_octets[b & 3];
    }
  body = hdr < len ? buf[hdr] : -1;

  switch (tag)
    {
    case 3:                     /* SKESK v4, v5, v6 */
      return body == 4 || body == 5 || body == 6;
    case 1:                     /* PKESK v3, v6 */
      return body == 3 || body == 6;
    case 18:                    /* SEIPD v1, v2 */
      return body == 1 || body == 2;
    case 20:                    /* OCB Encrypted Data (LibrePGP) */
      return body == 1;
    case 8:                     /* compressed: the algorithm */
      return body >= 0 && body <= 3;
    case 10:                    /* marker: "PGP" */
      return hdr + 3 <= len && !memcmp (buf + hdr, "PGP", 3);
    case 9:                     /* SED: no version octet to check */
      return TRUE;
    default:
      return FALSE;
    }
}

PadlockSniff
padlock_sniff_buffer (const guint8 *buf,
                      gsize         len)
{
  static const char begin[] = "-----BEGIN PGP MESSAGE-----";

  if (len == 0)
    return PADLOCK_SNIFF_PLAIN;
  if (pl_armor_detect (buf, len) == 1)
    return memmem (buf, len, begin, sizeof begin - 1) ? PADLOCK_SNIFF_ARMORED
                                                      : PADLOCK_SNIFF_PLAIN;
  return plausible_packet (buf, len) ? PADLOCK_SNIFF_BINARY
                                     : PADLOCK_SNIFF_PLAIN;
}

gboolean
padlock_sniff_file (GFile        *file,
                    PadlockSniff *kind,
                    GError      **error)
{
  g_autoptr(GFileInputStream) in = NULL;
  g_autofree guint8 *buf = NULL;
  gsize n = 0;

  g_return_val_if_fail (G_IS_FILE (file), FALSE);
  g_return_val_if_fail (kind != NULL, FALSE);

  if (g_file_query_file_type (file, G_FILE_QUERY_INFO_NONE, NULL)
      == G_FILE_TYPE_DIRECTORY)
    {
      g_autofree char *name = g_file_get_basename (file);
      g_set_error (error, PADLOCK_ERROR, PADLOCK_ERROR_FOLDER,
                   _("Folders are not supported yet: %s"), name);
      return FALSE;
    }
  in = g_file_read (file, NULL, error);
  if (!in)
    return FALSE;
  buf = g_malloc (PADLOCK_SNIFF_SIZE);
  if (!g_input_stream_read_all (G_INPUT_STREAM (in), buf, PADLOCK_SNIFF_SIZE,
                                &n, NULL, error))
    return FALSE;
  *kind = padlock_sniff_buffer (buf, n);
  return TRUE;
}
