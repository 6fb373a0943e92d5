/* recipients.h - public-key recipients of a message, both directions
 *
 * Encryption: each certificate of the options (PL_OPENER_CERT) becomes a
 * PKESK (pkesk.h) for its encryption key (cert.h), v3 before SEIPD v1 and
 * OCB tag 20, v6 before SEIPD v2; and the certificates decide which of
 * those a message may use (pl_recipients_profile).
 *
 * Decryption: the message's PKESKs, tried against the options' secret
 * keys (PL_OPENER_SECRET_KEYS, unlocked with the PL_OPENER_KEY_PASSPHRASE
 * passphrases only when a PKESK names one of their keys or names none)
 * and keys held elsewhere (PL_OPENER_HELD_KEYS: a callback), give candidate
 * session keys.  keys.c asks for them before any SKESK's S2K runs.
 */
#pragma once

#include <stdatomic.h>
#include <stddef.h>
#include <stdint.h>
#include <gpg-error.h>

#include "job.h"
#include "pkesk.h"

/* A key held elsewhere (gpg-agent, a smartcard): UNWRAP recovers the
 * session key of PKESK, which names its key by key ID (v3) or
 * fingerprint (v6), or names none (anonymous).  It answers 0 with the
 * session key in SESSION_KEY (secure, PL_SESSION_KEY_MAX octets), *KEYLEN
 * and *CIPHER_ALGO (0 for a v6 PKESK); GPG_ERR_NO_SECKEY when the key is
 * not one it holds; GPG_ERR_CANCELED when the user cancelled (the job
 * ends); any other error is kept as the reason and the next candidate is
 * tried.  Called on the job's thread.  PKESK stays where it is, unchanged,
 * until the decryption is over: a holder may come back to an earlier
 * one by its address. */
typedef gpg_error_t (*pl_unwrap_fn) (void *arg, const pl_pkesk *pkesk,
                                     uint8_t *session_key, size_t *keylen,
                                     int *cipher_algo);

/* How soon a holder would like to be asked for PKESK: lower first (a
 * key that opens it without asking the user: 0), the message's order
 * among equals.  Called once per PKESK, before any UNWRAP, on the job's
 * thread; must not ask the user anything. */
typedef int (*pl_rank_fn) (void *arg, const pl_pkesk *pkesk);

typedef struct
{
  pl_unwrap_fn unwrap;
  void *arg;
  pl_rank_fn rank;              /* NULL: the message's order */
} pl_key_holder;

static inline pl_opener
pl_opener_held_keys (const pl_key_holder *holder)
{
  pl_opener o = { PL_OPENER_HELD_KEYS, holder, sizeof *holder, 0 };
  return o;
}

/* ---- Encryption ---------------------------------------------------- */

/* Checks that every certificate among OPENERS has an encryption key at NOW:
 * GPG_ERR_UNUSABLE_PUBKEY with WHY ("0x<fingerprint>: no valid
 * encryption subkey: expired on 2025-03-01") for the first that has
 * none.  A certificate of an algorithm we cannot encrypt to:
 * GPG_ERR_PUBKEY_ALGO. */
gpg_error_t pl_recipients_check (const pl_opener *openers, size_t n_openers,
                                 uint32_t now, char *why, size_t why_len);

/* The data format the certificates among OPENERS can all read: SEIPD v2 (the
 * rfc9580 profile) when each advertises it (feature 0x08) or is a v6
 * key; OCB tag 20 (librepgp) when each advertises LibrePGP AEAD (0x02);
 * else SEIPD v1 (rfc4880).  REQUESTED (-1: none) is checked against it:
 * a profile some recipient cannot read is GPG_ERR_UNSUPPORTED_PROTOCOL
 * with WHY naming the recipient.  Without certificates, REQUESTED (or
 * the default) as it is. */
gpg_error_t pl_recipients_profile (const pl_opener *openers,
                                   size_t n_openers,
                                   int requested, uint32_t now,
                                   pl_profile *profile, char *why,
                                   size_t why_len);

/* Emits the PKESK that encrypts SESSION_KEY (KEYLEN octets for the
 * cipher of O) to CERT's encryption key at NOW, for O's profile;
 * anonymous when O asks (throw_keyids). */
gpg_error_t pl_recipient_lock (const pl_encrypt_options *o,
                               const pl_cert *cert, uint32_t now,
                               const uint8_t *session_key, size_t keylen,
                               gpg_error_t (*emit) (void *, const uint8_t *,
                                                    size_t),
                               void *arg);

/* ---- Decryption ---------------------------------------------------- */

typedef struct pl_pkesk_list pl_pkesk_list;

/* A list for the secret keys, key passphrases and holders among OPENERS
 * (borrowed).  CANCEL (may be NULL) and ARGON2_CAP_KIB bound unlocking. */
gpg_error_t pl_pkesk_list_new (pl_pkesk_list **out, const pl_opener *openers,
                               size_t n_openers, const atomic_int *cancel,
                               uint32_t argon2_cap_kib);

/* Keeps the PKESK BODY (LEN octets); one of a version or algorithm we do
 * not read is skipped (counted as a recipient all the same); malformed
 * is GPG_ERR_INV_PACKET. */
gpg_error_t pl_pkesk_list_add (pl_pkesk_list *l, const uint8_t *body,
                               size_t len);

/* RFC 9580 §10.3.2.1: keeps only the PKESKs of VERSION, the one the
 * data packet takes (6 before SEIPD v2, 3 before SEIPD v1 and OCB
 * tag 20), and drops the rest: a v3 PKESK names a cipher that a v2 SEIPD
 * names again, and a v6 one none for SEIPD v1.  Before the first
 * pl_pkesk_list_next.  Returns how many were dropped. */
size_t pl_pkesk_list_align (pl_pkesk_list *l, int version);

/* The next session key a PKESK gives with a key of the list, into
 * SESSION_KEY (secure, PL_SESSION_KEY_MAX octets).  GPG_ERR_EOF when
 * none is left; GPG_ERR_CANCELED, and Argon2 over the cap
 * (GPG_ERR_TOO_LARGE), end the job. */
gpg_error_t pl_pkesk_list_next (pl_pkesk_list *l, uint8_t *session_key,
                                size_t *keylen, int *cipher_algo);

/* The warning for the key that gave the last session key (a weak RSA
 * key of one's own: "the key that opened it, 0x..., is not safe to use:
 * RSA-1024 is too weak; make a new one"), or "" into OUT. */
void pl_pkesk_list_warning (const pl_pkesk_list *l, char *out,
                            size_t out_len);

/* Secret-key decryptions of PKESKs made by this process so far (for
 * tests and benchmarks).  A message may make at most about 3 s of them
 * (recipients.c, PKESK_WORK_MAX: 4 with an RSA-16384 key, 32 with
 * RSA-8192 or smaller); only keys whose flags allow encryption are tried
 * (cert.h, pl_cert_key_may_decrypt), a PKESK for nobody too. */
size_t pl_pkesk_trials_made (void);

/* How many PKESKs the message had. */
size_t pl_pkesk_list_count (const pl_pkesk_list *l);

/* After the list is through: PL_ERR_KEY_PROTECTED when a key a PKESK
 * names stayed locked (no key passphrase, or none fitting); an error a
 * holder answered; PL_ERR_TOO_MANY_KEYS when the work budget left
 * trials out; else GPG_ERR_NO_SECKEY (with PKESKs) or 0 (none). */
gpg_error_t pl_pkesk_list_failure (const pl_pkesk_list *l);

/* "0x<key ID>, 0x<fingerprint>, anonymous": whom the PKESKs are for,
 * into OUT (at most OUT_LEN octets, NUL-terminated, cut at a name). */
void pl_pkesk_list_recipients (const pl_pkesk_list *l, char *out,
                               size_t out_len);

/* Wipes and frees; NULL is fine. */
void pl_pkesk_list_free (pl_pkesk_list *l);
