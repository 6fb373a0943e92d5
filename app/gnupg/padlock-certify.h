/* padlock-certify.h - "I compared the fingerprint": verifying a person's
 * key with a local certification, and forgetting it
 *
 * Verifying a key is what gpg calls lsign: a certification of each of
 * its user IDs, made with the user's own key, marked not exportable
 * (the Exportable Certification subpacket set to 0).  gpg's trust model
 * then gives every user ID the user's key certified full validity, so
 * the keyring's next listing says the key is verified
 * (padlock_key_is_verified) wherever Padlock reads it, in the window as
 * in --batch.  The signature never leaves the machine: `gpg --export`
 * leaves it out, so nobody learns whom the user verified.
 *
 * Both operations run gpg on a worker thread of their own (the window
 * never waits on gpg) and, once done, have the keyring read itself
 * again (from _finish, on the thread the task was started from).
 * Both may run beside each other and beside the keyring's listing: gpg
 * locks its keyring itself.
 *
 * Cancelling the GCancellable stops gpg (a pinentry left up is the
 * agent's to close): the operation fails with PADLOCK_ERROR_CANCELLED,
 * unless gpg had already finished, and then it succeeds.  A cancelled
 * forget deleted nothing (gpg is stopped before it saves, or while it
 * renames its new keyring file into place).  A certification wakes at
 * its GCancellable's cancel, also while gpg waits for the agent's
 * pinentry (gpgme_cancel_async alone would wait for gpg's next word),
 * and closes gpg's pipes (gpgme_cancel, padlock-gpgme-run.h): gpg stops
 * at its next status line, so one cut off after the agent signed may
 * already be stored, which the keyring's next listing tells.  A
 * cancelled pinentry fails the certification before anything is
 * written.
 */
#pragma once

#include <gio/gio.h>

#include "padlock-keyring.h"

G_BEGIN_DECLS

/* Certifies locally every user ID of the key FINGERPRINT (40 or 64 hex
 * digits, the primary key's) of the keyring's home, with
 * gpgme_op_keysign (…, GPGME_KEYSIGN_LOCAL), as `gpg --quick-lsign-key`.
 * The certification is made by SIGNER (the fingerprint of a key whose
 * secret the user holds and that can certify), or with SIGNER NULL by
 * gpg's own choice: default-key from gpg.conf, else the first secret key
 * that can certify.  gpg-agent makes the signature: its pinentry asks
 * for that key's passphrase (or a card's PIN) unless it has it cached.
 * gpg skips revoked and expired user IDs, and those SIGNER already
 * certified: certifying a verified key again changes nothing and
 * succeeds.  Certification expiry is gpg's default-cert-expire (none
 * unless gpg.conf sets one).
 *
 * Fails (padlock_keyring_certify_local_finish) with PADLOCK_ERROR:
 *   OTHER           the keyring has no key FINGERPRINT, or gpg ended
 *                   without an error and without the certification;
 *   PUBLIC_KEY      the key is revoked or expired, or the user has no
 *                   secret key that can certify (SIGNER NULL), or
 *                   SIGNER is not one;
 *   CANCELLED       the pinentry was cancelled, or CANCELLABLE was;
 *   BAD_PASSPHRASE  the passphrase was wrong (the agent's tries ran out);
 *   others          as padlock_error_from_gpg () maps gpg's error.
 * On failure the keyring is as it was. */
void     padlock_keyring_certify_local_async  (PadlockKeyring      *self,
                                               const char          *fingerprint,
                                               const char          *signer,
                                               GCancellable        *cancellable,
                                               GAsyncReadyCallback  callback,
                                               gpointer             user_data);
/* TRUE when FINGERPRINT now carries a certification by SIGNER (by one
 * of the user's secret keys for SIGNER NULL) on a user ID that is not
 * revoked; then starts a new listing (padlock_keyring_reload), whose
 * "loaded" tells when the model shows the new validity. */
gboolean padlock_keyring_certify_local_finish (PadlockKeyring      *self,
                                               GAsyncResult        *result,
                                               GError             **error);

/* "Forget verification": deletes from the key FINGERPRINT every
 * certification that is not exportable and was made by a key whose
 * secret the user holds, on any user ID.  Deleted, not revoked: a local
 * certification never left the keyring, so nobody holds a copy to be
 * told that it no longer counts; a revocation (gpgme_op_revsig, `gpg
 * --quick-revoke-sig`) would ask for the passphrase again, stay in the
 * keyring beside the certification for good, and make gpg refuse to
 * certify the key again ("already signed").  Deletion leaves the key as
 * it was before padlock_keyring_certify_local_async, and gpg's trust
 * model gives it back the validity it had then: unknown ('-' or 'q' in
 * `gpg --list-keys --with-colons`) unless someone the user trusts
 * certified it.  Exportable certifications (made with `gpg --sign-key`)
 * are the user's public statement and stay: the key then stays
 * verified.
 *
 * GPGME's edit interface cannot tell which signature gpg asks about, so
 * this runs the engine GPGME uses (gpgme_get_dirinfo ("gpg-name")) as
 * `gpg --with-colons --status-fd 1 --command-fd 0 --edit-key
 * FINGERPRINT`, where each "sig:" line comes before its prompt on one
 * stream: "uid *", "delsig", then "y" only to a good certification
 * whose colon line says it is local (class 10-13, flag 'l') and whose
 * issuer is one of the user's secret keys, "n" to every other, then
 * "save" (or "quit" when none was deleted).  A prompt it does not know
 * ends gpg without saving, and the operation fails.  No passphrase is
 * asked: deleting needs no signature.
 *
 * Fails (padlock_keyring_forget_local_finish) with PADLOCK_ERROR:
 *   OTHER      the keyring has no key FINGERPRINT, or gpg asked what it
 *              was not expected to, or failed;
 *   CANCELLED  CANCELLABLE was cancelled (gpg is stopped before it
 *              saves: nothing is deleted). */
void     padlock_keyring_forget_local_async   (PadlockKeyring      *self,
                                               const char          *fingerprint,
                                               GCancellable        *cancellable,
                                               GAsyncReadyCallback  callback,
                                               gpointer             user_data);
/* TRUE on success, with in *N_DELETED (when not NULL) how many
 * certifications were deleted (0 when the key had none of the user's:
 * nothing to forget is not an error); then, when some were, starts a
 * new listing (padlock_keyring_reload). */
gboolean padlock_keyring_forget_local_finish  (PadlockKeyring      *self,
                                               GAsyncResult        *result,
                                               guint               *n_deleted,
                                               GError             **error);

G_END_DECLS
