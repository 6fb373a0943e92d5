/* padlock-remove.h - removing a person's key from the keyring
 *
 * "Remove Key…" on a person's page: deletes the public key FINGERPRINT
 * from the keyring with gpgme_op_delete_ext (…, GPGME_DELETE_FORCE),
 * without GPGME_DELETE_ALLOW_SECRET: a key whose secret the user holds
 * is refused, never deleted (gpg would ask for confirmation and then
 * take the secret key too; Padlock never does that).  gpg runs on a
 * worker thread of its own; once done, the keyring reads itself again.
 */
#pragma once

#include <gio/gio.h>

#include "padlock-keyring.h"

G_BEGIN_DECLS

/* Deletes the key FINGERPRINT (40 or 64 hex digits, the primary key's)
 * from the keyring's home.
 *
 * Fails (padlock_keyring_remove_key_finish) with PADLOCK_ERROR:
 *   OTHER       the keyring has no key FINGERPRINT;
 *   PUBLIC_KEY  the user holds its secret key: nothing is deleted;
 *   others      as padlock_error_from_gpg () maps gpg's error.
 * On failure the keyring is as it was. */
void     padlock_keyring_remove_key_async  (PadlockKeyring      *self,
                                            const char          *fingerprint,
                                            GCancellable        *cancellable,
                                            GAsyncReadyCallback  callback,
                                            gpointer             user_data);
/* TRUE when the key is gone; then starts a new listing
 * (padlock_keyring_reload). */
gboolean padlock_keyring_remove_key_finish (PadlockKeyring      *self,
                                            GAsyncResult        *result,
                                            GError             **error);

G_END_DECLS
