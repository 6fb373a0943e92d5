/* sign.h - making signatures over keys (RFC 9580 §5.2.4) with libgcrypt
 *
 * For the self-signatures of the keys keygen.c makes: a v4 or v6
 * signature packet body by an Ed25519 key (EdDSA legacy, 22, or Ed25519,
 * 27), SHA-512, over what sig.h's pl_sig_hash_target hashes for its type.
 * Verification (sig.h) reads what this writes.
 */
#pragma once

#include <stddef.h>
#include <stdint.h>
#include <gpg-error.h>

#include "seckey.h"
#include "sig.h"

/* The most octets a body made here takes. */
#define PL_SIG_BODY_MAX 512

/* Signs TARGET with SIGNER as a signature of TYPE made at CREATED, into
 * BODY (PL_SIG_BODY_MAX octets; *LEN its length).  The hashed area holds
 * the creation time, the issuer fingerprint and the HASHED_LEN octets of
 * subpackets at HASHED (whole subpackets, as they are written); a v4
 * signature also names the issuer's key ID, unhashed.  A signer of
 * another algorithm: GPG_ERR_PUBKEY_ALGO. */
gpg_error_t pl_sig_sign (const pl_seckey *signer, int type,
                         const pl_sig_target *target, uint32_t created,
                         const uint8_t *hashed, size_t hashed_len,
                         uint8_t *body, size_t *len);

/* Appends one subpacket (TYPE, N octets of DATA) at OUT + *POS. */
void pl_subpacket_put (uint8_t *out, size_t *pos, int type,
                       const uint8_t *data, size_t n);
