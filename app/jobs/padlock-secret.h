/* padlock-secret.h - a passphrase in libgcrypt's secure memory
 *
 * The text of a passphrase source as it was read (typed, or a file's
 * content), and the rule that says which of its octets are the
 * passphrase (core/passphrase.h).  Copied out of the entry once, shared
 * by the jobs of one drop or `padlock --batch` run (by reference), and
 * wiped when the last of them lets go.  With it goes their derived-key
 * cache (core/keycache.h): the keys derived from it once for all those
 * jobs, wiped at the same time.
 */
#pragma once

#include <glib-object.h>

#include "job.h"
#include "passphrase.h"

G_BEGIN_DECLS

#define PADLOCK_TYPE_SECRET (padlock_secret_get_type ())

typedef struct _PadlockSecret PadlockSecret;

GType          padlock_secret_get_type (void) G_GNUC_CONST;
/* TEXT (LEN octets) as read under RULE.  Refused, with a PADLOCK_ERROR:
 * a text over PL_PASSPHRASE_MAX octets, and no secure memory left (which
 * is an error like any other, never an abort). */
PadlockSecret *padlock_secret_new_full (const char          *text,
                                        gsize                len,
                                        pl_passphrase_rule   rule,
                                        GError             **error);
/* A passphrase as typed (NUL-terminated); NULL on the errors above. */
PadlockSecret *padlock_secret_new      (const char    *text);
PadlockSecret *padlock_secret_ref      (PadlockSecret *self);
void           padlock_secret_unref    (PadlockSecret *self);
/* The passphrase: the rule's octets of the text (NUL-terminated). */
const char    *padlock_secret_get_data (PadlockSecret *self,
                                        gsize         *len);
/* The key for the engine: the text and its rule, so that decryption also
 * tries the text's other forms. */
pl_key         padlock_secret_get_key  (PadlockSecret *self);
/* The derived-key cache of the jobs sharing this passphrase: for the
 * engine's options (keycache). */
pl_keycache   *padlock_secret_get_keycache (PadlockSecret *self);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (PadlockSecret, padlock_secret_unref)

G_END_DECLS
