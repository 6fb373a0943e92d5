/* padlock-secret.h - a passphrase in libgcrypt's secure memory
 *
 * Copied out of the entry once, shared by the jobs of one batch (by
 * reference), and wiped when the last of them lets go.
 */
#pragma once

#include <glib-object.h>

G_BEGIN_DECLS

#define PADLOCK_TYPE_SECRET (padlock_secret_get_type ())

typedef struct _PadlockSecret PadlockSecret;

GType          padlock_secret_get_type (void) G_GNUC_CONST;
PadlockSecret *padlock_secret_new      (const char    *text);
PadlockSecret *padlock_secret_ref      (PadlockSecret *self);
void           padlock_secret_unref    (PadlockSecret *self);
const char    *padlock_secret_get_data (PadlockSecret *self,
                                        gsize         *len);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (PadlockSecret, padlock_secret_unref)

G_END_DECLS
