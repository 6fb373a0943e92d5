/* padlock-agent.h - asking gpg-agent to use a secret key, as gpg does
 *
 * The user's secret keys stay in gpg-agent (on disk or on a card);
 * Padlock hands it one PKESK's encrypted session key material and gets
 * back what the secret key makes of it, exactly as gpg's call-agent.c
 * does.  The agent's own pinentry asks for the key's passphrase and the
 * agent caches it, so a batch of files costs one question.  Padlock never
 * sees a secret key or its passphrase.
 *
 * This is what sits behind the engine's keys held elsewhere
 * (PL_OPENER_HELD_KEYS, pl_unwrap_fn in core/recipients.h).  The
 * callback, on the job's thread, finds the secret subkey the PKESK names
 * in the keyring (padlock_keyring_find_key: its keygrip), builds the
 * agent's ciphertext from the PKESK's fields (padlock_agent_ciphertext_new
 * with pl_pkesk's f[0] and f[1], MPI values without their prefixes), calls
 * padlock_agent_pkdecrypt, and has the engine finish what the agent
 * answers, as gpg's pubkey-enc.c and ecdh.c do: GnuPG 2.2's agent gives
 *   RSA   (enc-val (rsa (a C)))               -> the PKCS#1-padded block
 *   ECDH  (enc-val (ecdh (s W) (e EPHEMERAL))) -> the shared point, for
 *                                                the KDF and AES key unwrap
 *   ElG   (enc-val (elg (a A) (b B)))         -> the padded block
 * PADLOCK_ERROR_CANCELLED is the callback's GPG_ERR_CANCELED, and
 * PADLOCK_ERROR_PUBLIC_KEY its GPG_ERR_NO_SECKEY.
 *
 * For signatures (next), padlock_agent_pksign () asks it to sign a digest.
 *
 * Every request may block (a connection, pinentry): call them on a worker
 * thread, or padlock_agent_pkdecrypt_async.  Requests are independent and may
 * run on several threads at once; each runs on a connection of its own,
 * kept for the next request when it ends cleanly.  A request waits for a
 * busy connection rather than open another while that one's request is
 * short (no pinentry up for it): a batch's jobs share one connection.
 *
 * Cancelling a request's GCancellable cuts its connection at once: the
 * request fails with PADLOCK_ERROR_CANCELLED.  gpg-agent 2.3 and later
 * then close the pinentry; GnuPG 2.2's agent leaves it up until it is
 * answered, and discards the answer.
 */
#pragma once

#include <gcrypt.h>
#include <gio/gio.h>

G_BEGIN_DECLS

/* The agent's answer to PKDECRYPT, in libgcrypt secure memory. */
typedef struct
{
  unsigned char       *sexp;       /* canonical "(5:value<n>:<octets>)" */
  gsize                sexp_len;
  const unsigned char *value;      /* the octets, inside SEXP */
  gsize                value_len;
  /* The agent's PADDING status: -1 when it sent none (its own keys,
   * whose value is still padded), 0 when the value is unpadded, 1 when a
   * card removed PKCS#1 padding. */
  int                  padding;
} PadlockAgentDecrypted;

void padlock_agent_decrypted_free (PadlockAgentDecrypted *decrypted);
G_DEFINE_AUTOPTR_CLEANUP_FUNC (PadlockAgentDecrypted, padlock_agent_decrypted_free)

/* What the agent knows of one keygrip (KEYINFO). */
typedef struct
{
  gboolean present;   /* the agent holds this secret key */
  gboolean on_card;   /* … as a stub for a smartcard key */
  gboolean cached;    /* its passphrase is cached: no pinentry */
  gboolean protected_; /* it has a passphrase */
  char     serialno[64]; /* the card's serial number, or "" */
} PadlockAgentKeyInfo;

/* Called on the request's thread when the agent has started pinentry
 * for it (INQUIRE PINENTRY_LAUNCHED): the moment to say "Waiting for the
 * passphrase of …". */
typedef void (*PadlockAgentPinentryFunc) (gpointer user_data);

#define PADLOCK_TYPE_AGENT (padlock_agent_get_type ())
G_DECLARE_FINAL_TYPE (PadlockAgent, padlock_agent, PADLOCK, AGENT, GObject)

/* The agent of HOME_DIR's GnuPG home, or of gpg's default home when
 * NULL.  Nothing is connected until the first request, which starts the
 * agent (`gpgconf --launch gpg-agent`) when it is not running. */
PadlockAgent *padlock_agent_new               (const char                *home_dir);

/* What the key's passphrase is asked for: to open (decrypt) a file, or
 * to sign one. */
typedef enum
{
  PADLOCK_AGENT_TO_OPEN,
  PADLOCK_AGENT_TO_SIGN,
} PadlockAgentPurpose;

/* The text pinentry shows for KEY_LABEL ("Alice <alice@…>"), KEY_ID (16
 * hex digits) and FILE_NAME (a file's name, or NULL), "… to open “NAME”"
 * or "… to sign “NAME”" as PURPOSE says, translated; the label and the
 * name escaped (padlock_name_escape). */
char         *padlock_agent_describe_request  (const char                *key_label,
                                               const char                *key_id,
                                               const char                *file_name,
                                               PadlockAgentPurpose        purpose);

/* The text a job's row shows while the agent's pinentry asks for
 * KEY_LABEL's passphrase (decrypting or signing), translated; the label
 * escaped. */
char         *padlock_agent_describe_waiting  (const char                *key_label,
                                               const char                *key_id);

/* The agent's ciphertext for a PKESK of PUBKEY_ALGO (OpenPGP's numbers),
 * from the values of its MPIs (unsigned big-endian, as they stand in the
 * packet without their bit counts), as gpg's pubkey-enc.c builds it:
 *   RSA (1, 2)    FIRST = m^e mod n                       (enc-val (rsa (a …)))
 *   ElGamal (16)  FIRST = g^k, SECOND = m·y^k             (enc-val (elg (a …) (b …)))
 *   ECDH (18)     FIRST = the ephemeral point, SECOND = the wrapped key
 *                 (carried along: the agent uses the point) (enc-val (ecdh (s …) (e …)))
 * NULL with PADLOCK_ERROR_UNSUPPORTED for another algorithm. */
gcry_sexp_t   padlock_agent_ciphertext_new    (int                       pubkey_algo,
                                               const unsigned char      *first,
                                               gsize                     first_len,
                                               const unsigned char      *second,
                                               gsize                     second_len,
                                               GError                  **error);

/* Asks the agent to decrypt CIPHERTEXT (an "(enc-val …)" S-expression)
 * with the secret key of KEYGRIP (40 hex digits), pinentry showing
 * DESCRIPTION (or the agent's own words when NULL).  Blocks.  Returns
 * the answer, or NULL with PADLOCK_ERROR_CANCELLED ("Cancelled, nothing
 * was written"; also when the user cancelled pinentry),
 * PADLOCK_ERROR_PUBLIC_KEY (the agent has no such secret key),
 * PADLOCK_ERROR_BAD_PASSPHRASE, or PADLOCK_ERROR_OTHER with words that
 * say what to do (no pinentry, card not inserted, no agent). */
PadlockAgentDecrypted *padlock_agent_pkdecrypt (PadlockAgent             *self,
                                                const char               *keygrip,
                                                const char               *description,
                                                gcry_sexp_t               ciphertext,
                                                PadlockAgentPinentryFunc  pinentry_launched,
                                                gpointer                  user_data,
                                                GCancellable             *cancellable,
                                                GError                  **error);
/* The same on a worker thread; PINENTRY_LAUNCHED, when not NULL, is then
 * called in the thread-default main context of the caller. */
void          padlock_agent_pkdecrypt_async   (PadlockAgent             *self,
                                               const char               *keygrip,
                                               const char               *description,
                                               gcry_sexp_t               ciphertext,
                                               PadlockAgentPinentryFunc  pinentry_launched,
                                               gpointer                  user_data,
                                               GCancellable             *cancellable,
                                               GAsyncReadyCallback       callback,
                                               gpointer                  callback_data);
PadlockAgentDecrypted *padlock_agent_pkdecrypt_finish (PadlockAgent      *self,
                                                       GAsyncResult      *result,
                                                       GError           **error);

/* PKSIGN: signs DIGEST, made with HASH_ALGO (a GCRY_MD_ number), with
 * the secret key of KEYGRIP, as gpg's agent_pksign asks (SIGKEY, SETHASH,
 * PKSIGN); the agent encodes the digest for the key's algorithm (PKCS#1
 * for RSA, the raw value for ECDSA, EdDSA over the digest).  Returns the
 * agent's "(sig-val …)".  Blocks; fails as padlock_agent_pkdecrypt. */
gcry_sexp_t   padlock_agent_pksign            (PadlockAgent             *self,
                                               const char               *keygrip,
                                               const char               *description,
                                               int                       hash_algo,
                                               const unsigned char      *digest,
                                               gsize                     digest_len,
                                               PadlockAgentPinentryFunc  pinentry_launched,
                                               gpointer                  user_data,
                                               GCancellable             *cancellable,
                                               GError                  **error);

/* The engine's code for a request's ERROR: GPG_ERR_CANCELED
 * (PADLOCK_ERROR_CANCELLED), GPG_ERR_NO_SECKEY (PADLOCK_ERROR_PUBLIC_KEY),
 * GPG_ERR_BAD_PASSPHRASE, else GPG_ERR_GENERAL; what the engine's
 * callbacks (held keys, signer) return for it. */
gpg_error_t   padlock_agent_error_code        (const GError             *error);

/* KEYINFO: whether the agent holds KEYGRIP's secret key, on a card, with
 * its passphrase cached.  Blocks; never asks the user.  A key it does not
 * hold is no error: INFO->present is FALSE. */
gboolean      padlock_agent_get_key_info      (PadlockAgent             *self,
                                               const char               *keygrip,
                                               PadlockAgentKeyInfo      *info,
                                               GCancellable             *cancellable,
                                               GError                  **error);

/* READKEY: the public key of KEYGRIP as libgcrypt reads it
 * ("(public-key (rsa (n …) (e …)))"). Blocks. */
gcry_sexp_t   padlock_agent_read_key          (PadlockAgent             *self,
                                               const char               *keygrip,
                                               GCancellable             *cancellable,
                                               GError                  **error);

G_END_DECLS
