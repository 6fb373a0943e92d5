/* keys.h - from the job's openers to session keys, and back
 *
 * The one place that knows key packets.  Encryption: the session key is
 * chosen and each opener of the options (job.h) becomes a key packet: a
 * passphrase an SKESK (skesk.c), a certificate a PKESK (recipients.h).
 * Decryption: the key packets read before the data and the options'
 * openers become a list of candidate session keys, which the data packet
 * tries in turn; a PKESK is opened by the options' secret keys or keys
 * held elsewhere (recipients.h, pkesk.h).  The jobs in encrypt.c and
 * decrypt.c know none of this.
 *
 * Every S2K key of a decryption comes through the message's derivation
 * context (derive.h: budget, cancel) from a derived-key cache
 * (keycache.h): the options' one, or the message's own.  Encryption's
 * come from the options' cache when there is one.
 */
#pragma once

#include <stddef.h>
#include <stdint.h>
#include <gpg-error.h>

#include "job.h"
#include "packet.h"
#include "s2k.h"
#include "skesk.h"

/* S2K runs made by every job of this process so far (one counter, for
 * tests and benchmarks that prove where derivations went). */
size_t pl_keys_derivations (void);

/* Writes one packet (header and body) where the job's output goes. */
typedef gpg_error_t (*pl_packet_emit_fn) (void *arg, const uint8_t *p,
                                          size_t n);

/* 1 when one of the N openers at O takes a while to use: a passphrase
 * (its S2K or Argon2), a secret key's passphrase (its unlocking), keys
 * held by gpg-agent (a round trip, perhaps the user at a pinentry);
 * certificates and session keys take well under a millisecond.  The
 * jobs make the output's room during such a wait (prealloc.h). */
int pl_openers_wait (const pl_opener *o, size_t n);

/* Encryption.  Chooses the session key for the profile of O (KEYLEN
 * octets for O->cipher_algo) into SESSION_KEY (secure memory,
 * PL_SESSION_KEY_MAX octets) and emits one key packet per opener in
 * O->openers, in order; a passphrase locks with its rule's form
 * (passphrase.h).  A single passphrase with the rfc4880 profile and no
 * cache writes an SKESK v4 whose S2K output is the session key, as
 * gpg -c does; otherwise the session key is random and each packet wraps
 * it.  With O->keycache, a passphrase's key comes from the cache, under
 * its one specifier.  No opener, or one this direction cannot use (a
 * session key): GPG_ERR_NO_KEY / GPG_ERR_INV_ARG, before anything is
 * emitted.
 * A certificate (PL_OPENER_CERT) becomes a PKESK (recipients.h); one
 * without a valid encryption key is GPG_ERR_UNUSABLE_PUBKEY, and one
 * that cannot read the profile of O GPG_ERR_UNSUPPORTED_PROTOCOL, also
 * before anything is emitted. */
gpg_error_t pl_keys_lock (const pl_encrypt_options *o,
                          const pl_job_control *ctl, uint8_t *session_key,
                          size_t keylen, pl_packet_emit_fn emit, void *arg);

/* pl_keys_lock in two steps, so that the passphrases' derivations can
 * run beside the data (keyroom.h).  pl_keys_lock_begin does what
 * pl_keys_lock does, with DEFER 0 all of it (*DEFERRED 0); with DEFER 1
 * and a random session key (not the S2K-is-key case above) it stops
 * before the SKESKs and sets *DEFERRED to their exact length, headers
 * included (0: no passphrase).  pl_keys_lock_passphrases then emits
 * those SKESKs, in that many octets, wrapping SESSION_KEY; it may run on
 * another thread, under a CTL of its own, while SESSION_KEY is read
 * elsewhere (nothing writes it).  pl_keys_lock_defers is 1 when O has
 * a passphrase and a random session key: when DEFER defers. */
int pl_keys_lock_defers (const pl_encrypt_options *o);
gpg_error_t pl_keys_lock_begin (const pl_encrypt_options *o,
                                const pl_job_control *ctl,
                                uint8_t *session_key, size_t keylen,
                                int defer, pl_packet_emit_fn emit, void *arg,
                                size_t *deferred);
gpg_error_t pl_keys_lock_passphrases (const pl_encrypt_options *o,
                                      const pl_job_control *ctl,
                                      const uint8_t *session_key,
                                      size_t keylen, pl_packet_emit_fn emit,
                                      void *arg);

/* Decryption. */
typedef struct pl_key_candidates pl_key_candidates;

/* A list for the candidates in O (borrowed: it must outlive the list). */
gpg_error_t pl_key_candidates_new (pl_key_candidates **out,
                                   const pl_decrypt_options *o,
                                   const pl_job_control *ctl);

/* 1 for the packet tags that carry a session key (SKESK, PKESK). */
int pl_key_packet_tag (int tag);

/* Reads the key packet BODY to its end and keeps what it can open.  A
 * packet of a version or algorithm we do not read is skipped (another
 * may still open the message); a malformed one fails. */
gpg_error_t pl_key_candidates_add_packet (pl_key_candidates *c,
                                          pl_packet_body *body);

/* The next candidate (session keys; then what the PKESKs give with the
 * secret keys and holders (recipients.h); then per key packet, each
 * passphrase in each of its forms, passphrase.h): *KEY points to *KEYLEN
 * octets in the list's secure memory, valid until the next call or free;
 * *CIPHER_ALGO is 0 when the data packet names the cipher (SKESK v6).
 * A derivation runs only when its candidate's turn comes, so the
 * message's budget (derive.h) counts only what ran.  GPG_ERR_EOF when
 * the list is exhausted; other errors (cancelled, a specifier over the
 * cap, the budget spent) end the job. */
gpg_error_t pl_key_candidates_next (pl_key_candidates *c,
                                    const uint8_t **key, size_t *keylen,
                                    int *cipher_algo);

/* Tells the list which data packet follows, before the first candidate:
 * the key packets of another version than it takes (RFC 9580
 * §10.3.2.1: a v3 PKESK or a v4 SKESK before SEIPD v1, v6 ones before
 * SEIPD v2; LibrePGP: a v3 PKESK or a v5 SKESK before its OCB packet) are
 * dropped, as if absent (PKESKs: recipients.h, pl_pkesk_list_align), and
 * when none of the rest opens the message, that is the failure
 * (PL_ERR_KEY_PACKET_VERSION). */
void pl_key_candidates_for_data (pl_key_candidates *c, pl_data_kind data);

/* The data packet refused the last candidate, for WHY. */
void pl_key_candidates_reject (pl_key_candidates *c, gpg_error_t why);

/* After GPG_ERR_EOF: what tells the user most.  A hard error from a
 * candidate (or a refused session key) as it is; key packets of the
 * wrong version dropped (pl_key_candidates_for_data), no session key given:
 * PL_ERR_KEY_PACKET_VERSION; a message with PKESKs
 * and no SKESK (or no passphrase for them) what pl_pkesk_list_failure
 * says (GPG_ERR_NO_SECKEY, PL_ERR_KEY_PROTECTED); no key packet at all
 * GPG_ERR_NO_DATA; else GPG_ERR_BAD_PASSPHRASE. */
gpg_error_t pl_key_candidates_failure (const pl_key_candidates *c);

/* What to warn of about the key that gave the last candidate (a weak
 * RSA key of one's own, recipients.h), or "", into OUT. */
void pl_key_candidates_warning (const pl_key_candidates *c, char *out,
                                size_t out_len);

/* Whom the message's PKESKs are for ("0x<key ID>, ..."), into OUT. */
void pl_key_candidates_recipients (const pl_key_candidates *c, char *out,
                                   size_t out_len);

/* Wipes and frees; NULL is fine. */
void pl_key_candidates_free (pl_key_candidates *c);
