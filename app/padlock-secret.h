/* padlock-secret.h - a passphrase in libgcrypt's secure memory
 *
 * Copied out of the entry once, shared by the jobs of one batch (by
 * reference), and wiped when the last of them lets go.  With it goes
 * the batch's key derivation (core/batch.h): the keys derived from it
 * once for all the batch's jobs, wiped at the same time.
 */
#pragma once

#include <glib-object.h>

#include "job.h"

G_BEGIN_DECLS

#define PADLOCK_TYPE_SECRET (padlock_secret_get_type ())

typedef struct _PadlockSecret PadlockSecret;

GType          padlock_secret_get_type (void) G_GNUC_CONST;
PadlockSecret *padlock_secret_new      (const char    *text);
PadlockSecret *padlock_secret_ref      (PadlockSecret *self);
void           padlock_secret_unref    (PadlockSecret *self);
const char    *padlock_secret_get_data (PadlockSecret *self,
                                        gsize         *len);
/* The batch the jobs sharing this passphrase derive their keys in: for
 * the engine's options (pl_encrypt_options.batch). */
pl_batch      *padlock_secret_get_batch (PadlockSecret *self);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (PadlockSecret, padlock_secret_unref)

G_END_DECLS
