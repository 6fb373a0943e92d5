/* padlock-digest.h - a source and a sink that count and hash what passes
 *
 * Used to verify an encrypted file before its original is deleted: the
 * plaintext's length and SHA-256 on the way in must equal those of the
 * output decrypted again.
 */
#pragma once

#include <glib.h>

#include "io.h"

G_BEGIN_DECLS

typedef struct
{
  GChecksum *checksum;
  guint64 length;
} PadlockDigest;

void         padlock_digest_init  (PadlockDigest       *digest);
void         padlock_digest_clear (PadlockDigest       *digest);
gboolean     padlock_digest_equal (const PadlockDigest *a,
                                   const PadlockDigest *b);

/* Reads through INNER (taking it over), counting into DIGEST. */
pl_source   *padlock_digest_source_new (pl_source     *inner,
                                        PadlockDigest *digest);
/* Throws away what it is given, counting into DIGEST. */
pl_sink     *padlock_digest_sink_new   (PadlockDigest *digest);

G_END_DECLS
