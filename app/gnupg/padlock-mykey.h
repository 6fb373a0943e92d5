/* padlock-mykey.h - the user's own key: made, shared, backed up, and kept
 * from expiring
 *
 * Every operation runs gpg through GPGME on a worker thread of its own
 * (the window never waits on gpg), in the keyring's GnuPG home, and
 * gpg-agent asks for passphrases with its own pinentry (never
 * loopback): Padlock never sees the passphrase nor the secret key
 * except as the armored backup the user asked for.
 *
 * Cancelling the GCancellable stops gpg at once, also while the agent's
 * pinentry is up (gpg's pipes are closed, padlock-gpgme-run.h; the
 * pinentry left up is the agent's to close): the operation fails with
 * PADLOCK_ERROR_CANCELLED, unless gpg had already finished.  A cancelled
 * pinentry fails it with PADLOCK_ERROR_CANCELLED too.
 */
#pragma once

#include <gio/gio.h>

#include "padlock-keyring.h"

G_BEGIN_DECLS

/* A new key's lifetime unless the user picks another: three years of
 * 365 days, as gpg's "3y". */
#define PADLOCK_MY_KEY_DEFAULT_LIFETIME ((gint64) 3 * 365 * 24 * 3600)
/* "Extend by 2 Years": the new expiry is this long from now. */
#define PADLOCK_MY_KEY_EXTENSION ((gint64) 2 * 365 * 24 * 3600)
/* A key of the user's that expires sooner than this is said so. */
#define PADLOCK_MY_KEY_WARN_BEFORE ((gint64) 30 * 24 * 3600)

/* The user ID "NAME <EMAIL>" ("NAME" or "EMAIL" alone when the other
 * is empty, as gpg makes it) from what the user typed, both trimmed; NULL with an error
 * (PADLOCK_ERROR_OTHER, in words for the dialog) when both are empty,
 * when EMAIL is not shaped as local@domain.tld (one '@', no space, no
 * '<' or '>'), or when either holds a control character, '<' or '>' in
 * NAME, or is longer than 256 octets. */
char    *padlock_my_key_user_id (const char  *name,
                                 const char  *email,
                                 GError     **error);

typedef struct
{
  char *fingerprint;        /* the new key's, 40 hex digits */
  char *revocation_path;    /* HOME/openpgp-revocs.d/FPR.rev, where gpg
                             * kept the revocation certificate; NULL when
                             * gpg wrote none there */
} PadlockMyKeyCreated;

void padlock_my_key_created_free (PadlockMyKeyCreated *created);
G_DEFINE_AUTOPTR_CLEANUP_FUNC (PadlockMyKeyCreated, padlock_my_key_created_free)

/* Makes a key pair for NAME and EMAIL (checked and trimmed as
 * padlock_my_key_user_id does; either may be empty) in the
 * keyring's home (gpg makes the home when there is none): an Ed25519
 * primary key that signs and certifies and a Curve25519 encryption
 * subkey, what gpg 2.2 calls "future-default", both expiring LIFETIME
 * seconds from now (0: never).  The agent's pinentry asks for the new
 * passphrase (twice).
 *
 * gpg 2.2.40's --quick-gen-key (gpgme_op_createkey) gives
 * future-default's subkey no expiry, and setting it afterwards
 * (gpgme_op_setexpire) is a second gpg and a second pinentry: so the key
 * is made with gpgme_op_genkey's parameters (`gpg --batch --gen-key`),
 * whose Expire-Date is both keys', in one gpg and one pinentry.
 *
 * Fails (_finish) with PADLOCK_ERROR: CANCELLED (the pinentry or
 * CANCELLABLE), OTHER (a bad user ID, or gpg made no key), others as
 * padlock_error_from_gpg () maps gpg's error. */
void                 padlock_my_key_create_async  (PadlockKeyring      *keyring,
                                                   const char          *name,
                                                   const char          *email,
                                                   gint64               lifetime,
                                                   GCancellable        *cancellable,
                                                   GAsyncReadyCallback  callback,
                                                   gpointer             user_data);
/* What was made; then starts a new listing (padlock_keyring_reload). */
PadlockMyKeyCreated *padlock_my_key_create_finish (PadlockKeyring      *keyring,
                                                   GAsyncResult        *result,
                                                   GError             **error);

/* The key FINGERPRINT armored: with SECRET FALSE its public certificate
 * to share, as `gpg --export --armor` gives it (whole: its
 * certifications by others travel with it, local ones never do); with
 * SECRET TRUE its secret keys too, for a backup, as `gpg
 * --export-secret-keys --armor` (the agent's pinentry asks for the
 * key's passphrase, and the key stays protected by it in the file).
 * Fails with PADLOCK_ERROR_OTHER when the keyring has no key (no secret
 * key, with SECRET) FINGERPRINT. */
void     padlock_my_key_export_async  (PadlockKeyring      *keyring,
                                       const char          *fingerprint,
                                       gboolean             secret,
                                       GCancellable        *cancellable,
                                       GAsyncReadyCallback  callback,
                                       gpointer             user_data);
GBytes  *padlock_my_key_export_finish (PadlockKeyring      *keyring,
                                       GAsyncResult        *result,
                                       GError             **error);

/* "Extend by 2 Years": the primary key FINGERPRINT and every subkey of
 * it that is not revoked now expire PADLOCK_MY_KEY_EXTENSION from now
 * (from now, not from the old date: an expired key comes back for two
 * whole years, and a date long past gives no date already past).  Two
 * gpg runs (gpgme_op_setexpire for the primary, then for "*", its
 * subkeys): the agent asks for the passphrase once and keeps it for the
 * second unless its cache is off.  A key that never expires, or whose
 * expiry is already later, is left as it is (never shortened).
 * Fails with PADLOCK_ERROR_OTHER when the keyring has no secret key
 * FINGERPRINT, CANCELLED as above. */
void     padlock_my_key_extend_async  (PadlockKeyring      *keyring,
                                       const char          *fingerprint,
                                       GCancellable        *cancellable,
                                       GAsyncReadyCallback  callback,
                                       gpointer             user_data);
/* The new expiry (seconds since the epoch, 0: never); then starts a new
 * listing.  -1 on failure. */
gint64   padlock_my_key_extend_finish (PadlockKeyring      *keyring,
                                       GAsyncResult        *result,
                                       GError             **error);

/* Whether KEY, a key of the user's (a secret one), needs extending at
 * NOW: it is not revoked and its primary expires (or expired) within
 * PADLOCK_MY_KEY_WARN_BEFORE. */
gboolean    padlock_my_key_expires_soon   (PadlockKey     *key,
                                           gint64          now);
/* The user's key to warn about at NOW (seconds since the epoch), a new
 * reference, or NULL: none when the user holds a secret key that is
 * neither revoked nor expiring soon (the one in use: an old key left to
 * expire beside a new one is no news); else the first of the keyring's
 * secret keys, not revoked, that expires soon. */
PadlockKey *padlock_my_key_find_expiring  (PadlockKeyring *keyring,
                                           gint64          now);
/* FINGERPRINT (hex) in groups of four digits, upper case, for reading
 * aloud: five groups a line, the lines joined by "\n" (a v4 key's 40
 * digits make two lines). */
char       *padlock_my_key_format_fingerprint (const char *fingerprint);
/* Whether the keyring holds a secret key of the user's at all. */
gboolean    padlock_my_key_has_any        (PadlockKeyring *keyring);

G_END_DECLS
