/* padlock-signer.h - signing what the desktop encrypts, with a key
 * gpg-agent holds
 *
 * The engine's signer (core/seckey.h's pl_sign_fn) is a key whose public
 * half comes from the GnuPG keyring (its minimal export, for the
 * signature's algorithm, fingerprint and key ID) and whose signatures
 * gpg-agent makes, as gpg's sign.c asks it: SIGKEY <keygrip>, SETHASH
 * <algo> <digest>, PKSIGN (padlock_agent_pksign).  The agent's pinentry
 * asks for the key's passphrase (or a card's PIN) and caches it; Padlock
 * never sees the secret key.  The encryption job then writes what
 * `gpg -se` writes: a one-pass signature packet, the literal data, the
 * signature.
 */
#pragma once

#include <gio/gio.h>

#include "padlock-agent.h"
#include "padlock-key.h"
#include "seckey.h"

G_BEGIN_DECLS

/* The subkey of KEY that signs for it now: one that may sign, whose
 * secret gpg-agent holds, neither expired, revoked, disabled nor
 * invalid; the newest such, as gpg chooses.  NULL when none. */
const PadlockSubkey *padlock_key_get_signing_subkey (PadlockKey *key);

/* The key to sign with, a new reference or NULL: the first of KEYRING
 * that matches QUERY (padlock_keyring_search: a user ID's text, a key ID
 * or fingerprint) and has a signing subkey; without QUERY, gpg's
 * default key (padlock_keyring_get_default_key) when it can sign, else
 * the first key that can. */
typedef struct _PadlockKeyring PadlockKeyring;
PadlockKey          *padlock_signer_choose_key      (PadlockKeyring *keyring,
                                                     const char     *query);

typedef struct _PadlockSigner PadlockSigner;

/* A signer for KEY (of the keyring of HOME_DIR), through AGENT, its
 * pinentry naming FILE_NAME.  Blocks (the certificate's export): from a
 * worker thread.  Fails with PADLOCK_ERROR_PUBLIC_KEY when KEY has no
 * signing subkey it can use. */
PadlockSigner   *padlock_signer_new        (const char    *home_dir,
                                            PadlockAgent  *agent,
                                            PadlockKey    *key,
                                            const char    *file_name,
                                            GCancellable  *cancellable,
                                            GError       **error);
void             padlock_signer_free       (PadlockSigner *signer);
G_DEFINE_AUTOPTR_CLEANUP_FUNC (PadlockSigner, padlock_signer_free)

/* While the agent's pinentry asks for the signing key's passphrase (or a
 * card's PIN), WAITING (USER_DATA, "Waiting for the passphrase of NAME
 * <email> (0x…)") on the job's thread, and WAITING (USER_DATA, NULL)
 * when the agent answered; the same words as a decryption's
 * (padlock-held-keys.h). */
typedef void (*PadlockSignerWaitingFunc) (gpointer    user_data,
                                          const char *waiting);
void             padlock_signer_set_waiting (PadlockSigner            *signer,
                                             PadlockSignerWaitingFunc  waiting,
                                             gpointer                  user_data);

/* For pl_encrypt_options.signers; valid while SIGNER is. */
const pl_seckey *padlock_signer_get_seckey (PadlockSigner *signer);

/* The agent's error behind the engine's ERR (its pinentry cancelled, a
 * wrong passphrase, a card missing), for the job to report; NULL when
 * ERR is not the agent's. */
GError          *padlock_signer_take_error (PadlockSigner *signer,
                                            gpg_error_t    err);

G_END_DECLS
