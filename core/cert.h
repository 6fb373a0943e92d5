/* cert.h - transferable public and secret keys (RFC 9580 §10.1, §10.2)
 *
 * A certificate is its primary key, the primary's direct-key signatures
 * and revocations, its user IDs (and user attributes) each with their
 * self-certifications, and its subkeys each with their binding signatures
 * and revocations.  Signatures by other keys (third-party certifications)
 * are dropped when read: nothing here uses them.  A transferable secret
 * key is the same with secret-key packets (tags 5 and 7); the secret part
 * of each key, as stored (maybe encrypted), is kept in secure memory for
 * seckey.h to unlock.
 *
 * Reading takes binary or armored input, several certificates in one
 * file (a keyring: one armor block or several).  Nothing is trusted when
 * read: the choice of a key (pl_cert_encryption_key) verifies the
 * signatures it relies on at that moment, so that an appended, unbound
 * subkey is never used.
 */
#pragma once

#include <stddef.h>
#include <stdint.h>
#include <gpg-error.h>

#include "pubkey.h"
#include "sig.h"

/* Bounds on what one hostile certificate may hold. */
#define PL_CERT_MAX_SUBKEYS 64
#define PL_CERT_MAX_UIDS 64
#define PL_CERT_MAX_SIGS 64     /* self-signatures per component (at most
                                 * 64: pl_sig_list's bits) */
#define PL_CERT_MAX_CERTS 1024  /* certificates per input */

/* A component's self-signatures.  What the mathematics of each said is
 * kept beside them (bit I for V[I], and for the back-signature embedded
 * in V[I]), set on first use by cert.c, which verifies a list always by
 * the same signer over the same component: a certificate that serves
 * many messages (a batch, the several checks of one job) verifies each
 * of its signatures once.  Atomic, as one certificate may serve jobs on
 * several threads; the policy (times, hash) is checked at every use. */
typedef struct
{
  pl_sig *v;
  size_t n;
  _Atomic uint64_t checked, good;
  _Atomic uint64_t back_checked, back_good;
} pl_sig_list;

typedef struct
{
  pl_pubkey key;
  uint8_t *secret;              /* secure memory: the secret part of a tag
                                 * 5 or 7 packet as stored; NULL when
                                 * public */
  size_t secret_len;
  pl_sig_list sigs;             /* primary: 0x1F, 0x20; subkey: 0x18, 0x28 */
} pl_cert_key;

typedef struct
{
  int tag;                      /* 13 user ID, 17 user attribute */
  uint8_t *data;
  size_t len;
  pl_sig_list sigs;             /* 0x10-0x13, 0x30 by the primary */
} pl_cert_uid;

typedef struct
{
  pl_cert_key primary;
  pl_cert_uid *uids;
  size_t n_uids;
  pl_cert_key *subkeys;
  size_t n_subkeys;
  uint8_t *packets;             /* the packets as read (public ones, or
                                 * the secret key's), for extract-cert */
  size_t packets_len;
  /* Signature checks made on this certificate so far (at most
   * PL_CERT_MAX_CHECKS; cert.c's, as the verdict bits). */
  _Atomic unsigned int checks;
} pl_cert;

/* The signatures' mathematics a certificate may make us check over its
 * life: past it, a signature not yet checked counts as not valid.  Each
 * check is at most 10 ms here (an RSA-16384 key with a 64-bit exponent,
 * pubkey.h), so a hostile certificate costs at most about 5 s, not the
 * 80 s that its 8,256 signatures could (README, Key sizes); a genuine one
 * needs a check for each self-signature it has at most. */
#define PL_CERT_MAX_CHECKS 512

/* Signature checks made by every certificate of this process so far (for
 * tests and benchmarks). */
size_t pl_cert_checks_made (void);

/* Reads every certificate in DATA (binary packets, or one or more armor
 * blocks) into a new array *CERTS of *N (free with pl_certs_free).
 * Packets we do not read (unknown versions or algorithms, trust packets,
 * a subkey with an unknown algorithm and its signatures) are skipped;
 * a certificate whose primary we cannot read is skipped whole.  Nothing
 * readable at all: GPG_ERR_NO_PUBKEY, or PL_ERR_KEY_TOO_LARGE when a
 * primary was skipped for its size (pubkey.h); bad armor or framing, or more
 * than the bounds above: the error (GPG_ERR_INV_PACKET,
 * GPG_ERR_INV_ARMOR, GPG_ERR_TOO_LARGE). */
gpg_error_t pl_certs_read (const uint8_t *data, size_t len, pl_cert ***certs,
                           size_t *n);

void pl_cert_free (pl_cert *cert);
void pl_certs_free (pl_cert **certs, size_t n);

/* What a certificate's valid self-signature says about the primary, at
 * NOW: its features (0 when it names none) and when it expires (0:
 * never).  GPG_ERR_UNUSABLE_PUBKEY with WHY (WHY_LEN octets, may be 0)
 * set to "revoked", "expired on 2025-03-01" or "no valid
 * self-signature" when the primary is not valid. */
typedef struct
{
  uint8_t features;
  uint32_t expires;
} pl_cert_status;

gpg_error_t pl_cert_check_primary (const pl_cert *cert, uint32_t now,
                                   pl_cert_status *status, char *why,
                                   size_t why_len);

/* The encryption key of CERT at NOW (RFC 9580 §5.2.3.29, as gpg chooses):
 * of the subkeys with a valid binding signature (0x18) from the primary
 * whose newest one gives key flags 0x04 or 0x08, that is not expired
 * (key expiry relative to the subkey's creation), not revoked (0x28),
 * and, when it may also sign, has a valid back-signature (0x19), the
 * newest; else the primary when its own self-signature gives it those
 * flags.  The primary must be valid (pl_cert_check_primary), and
 * neither it nor the key chosen unsafe (pl_cert_key_unsafe: WHY then
 * "not safe to use: RSA-1024 is too weak", or for the subkey that came
 * nearest "not safe to use: its subkey 0x...: RSA-1024 is too weak").  None:
 * GPG_ERR_UNUSABLE_PUBKEY, with WHY "no valid encryption subkey: " and
 * the reason of the nearest miss ("expired on 2025-03-01", "revoked",
 * "no binding signature", ...). */
gpg_error_t pl_cert_encryption_key (const pl_cert *cert, uint32_t now,
                                    const pl_cert_key **key, char *why,
                                    size_t why_len);

/* 1 when KEY (of CERT) is not safe to use (pubkey.h's safety, decided
 * when the certificate was read), with WHY (may be NULL) in words: "RSA-1024
 * is too weak", "its RSA exponent e = 1 is unsafe", "its point is not on
 * NIST P-256", "a v6 subkey under a v4 primary key", or for a subkey
 * "its primary key: ..." (the primary's signature is what binds it).
 * OWN_DECRYPTION: decrypting with one's own secret key, where a weak key
 * (RSA, DSA or ElGamal below 2048 bits) is still used, with a warning
 * (job.h); a
 * broken one never is.  Every use asks this: pl_cert_encryption_key,
 * pl_cert_key_may_decrypt, pl_cert_key_may_sign, verify.c. */
int pl_cert_key_unsafe (const pl_cert *cert, const pl_cert_key *key,
                        int own_decryption, char *why, size_t why_len);

/* 1 when KEY (of CERT) may decrypt: an algorithm that encrypts, safe
 * enough for one's own key (pl_cert_key_unsafe), and for a subkey a
 * valid binding signature whose key flags, when it has them, allow
 * encryption, for the primary a valid self-signature whose key flags,
 * when it has them, allow it (expired or revoked keys still decrypt
 * what was sent to them before). */
int pl_cert_key_may_decrypt (const pl_cert *cert, const pl_cert_key *key,
                             uint32_t now);

/* Whether KEY (of CERT) could make a data signature at WHEN, seen at
 * NOW: the primary valid at WHEN (not expired then, with a valid
 * self-signature), neither it nor KEY revoked by NOW (a revocation counts
 * whenever it was made), a signing algorithm, and for a subkey a binding
 * signature valid at WHEN with the signing flag, a valid back-signature
 * (0x19) and no expiry by WHEN; for the primary, no self-signature whose
 * key flags leave out signing.  GPG_ERR_CERT_REVOKED, GPG_ERR_KEY_EXPIRED
 * or GPG_ERR_WRONG_KEY_USAGE, with WHY (may be NULL) in words. */
gpg_error_t pl_cert_key_may_sign (const pl_cert *cert, const pl_cert_key *key,
                                  uint32_t when, uint32_t now, char *why,
                                  size_t why_len);

/* The key of CERT (primary or subkey) with the fingerprint FPR (FPR_LEN
 * octets), or when FPR_LEN is 0 the key ID KEYID; NULL when none. */
const pl_cert_key *pl_cert_find_key (const pl_cert *cert, const uint8_t *fpr,
                                     size_t fpr_len, const uint8_t *keyid);

/* The user ID of CERT to show (its first; user attributes are skipped),
 * or NULL when it has none.  Its octets are the key owner's text, of any
 * length and content (a NUL, a newline, U+202E): they reach a reader only
 * through pl_text_escape (text.h). */
const pl_cert_uid *pl_cert_user_id (const pl_cert *cert);

/* The certificate of CERT as packets (binary, *OUT malloc'ed): a secret
 * key's packets with their secret parts dropped (tags 5 and 7 become 6
 * and 14), every other packet as read but trust packets. */
gpg_error_t pl_cert_public_packets (const pl_cert *cert, uint8_t **out,
                                    size_t *out_len);
