/* padlock-sniff.h - is a file an OpenPGP message?  By content, not name. */
#pragma once

#include <gio/gio.h>

G_BEGIN_DECLS

typedef enum
{
  PADLOCK_SNIFF_PLAIN = 0,      /* anything else: encrypt it */
  PADLOCK_SNIFF_BINARY,         /* a binary OpenPGP message */
  PADLOCK_SNIFF_ARMORED,        /* an ASCII-armored OpenPGP message */
} PadlockSniff;

/* How many octets padlock_sniff_buffer wants to see. */
#define PADLOCK_SNIFF_SIZE 8192

/* TOTAL: the whole file's size, or -1 when unknown. */
PadlockSniff padlock_sniff_buffer (const guint8 *buf,
                                   gsize         len,
                                   gint64        total);
/* Reads the first PADLOCK_SNIFF_SIZE octets of FILE.  A folder is
 * PADLOCK_SNIFF_PLAIN: it is encrypted as an archive. */
gboolean     padlock_sniff_file   (GFile        *file,
                                   PadlockSniff *kind,
                                   GError      **error);

G_END_DECLS
