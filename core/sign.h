/* sign.h - making signatures (RFC 9580 §5.2.4) with libgcrypt
 *
 * Over keys, for the self-signatures of the keys keygen.c makes, and
 * over data (binary 0x00 or text 0x01), for sop sign, inline-sign and
 * encrypt --sign-with.  A v4 signature for a v4 key, a v6 one (salted)
 * for a v6 key; SHA-512, but for ECDSA the hash of the curve's size
 * (SHA-256 for P-256, SHA-384 for P-384), as gpg does; by RSA (PKCS#1 v1.5), ECDSA, EdDSA legacy
 * (22) or Ed25519 (27).  The hashed area holds the creation time and the
 * issuer fingerprint; a v4 signature also names the issuer's key ID,
 * unhashed.  Verification (sig.h, verify.h) reads what this writes.
 */
#pragma once

#include <stddef.h>
#include <stdint.h>
#include <gpg-error.h>

#include "seckey.h"
#include "sig.h"
#include "verify.h"

/* The most octets a body made here takes. */
#define PL_SIG_BODY_MAX 2400  /* an RSA-16384 signature and the rest */

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

/* 1 when signatures by PUB's algorithm can be made here. */
int pl_sig_can_make (const pl_pubkey *pub);

/* A signature being made: its hashed part written, its hash open. */
typedef struct
{
  const pl_seckey *signer;      /* borrowed */
  int hash_algo;
  uint8_t salt[32];
  size_t salt_len;              /* v6 */
  uint8_t body[PL_SIG_BODY_MAX];
  size_t pos;                   /* octets of BODY: the hashed part */
  gcry_md_hd_t md;              /* the salt (v6) already in */
} pl_sig_builder;

/* Starts a signature of TYPE by SIGNER made at CREATED, with the
 * HASHED_LEN octets of subpackets at HASHED (at most 200) in its hashed
 * area.  Then what it covers goes into B->md, and pl_sig_end signs it.
 * An algorithm pl_sig_can_make refuses: GPG_ERR_PUBKEY_ALGO.  Clear B
 * (pl_sig_builder_clear) whatever this returns. */
gpg_error_t pl_sig_begin (pl_sig_builder *b, const pl_seckey *signer,
                          int type, uint32_t created, const uint8_t *hashed,
                          size_t hashed_len);

/* The signature packet body into BODY (PL_SIG_BODY_MAX), *LEN octets. */
gpg_error_t pl_sig_end (pl_sig_builder *b, uint8_t *body, size_t *len);

void pl_sig_builder_clear (pl_sig_builder *b);

/* A signature over data: init, the one-pass packet if wanted, the data
 * pushed as the literal packet stores it, finish. */
typedef struct
{
  pl_sig_builder b;
  pl_data_hash h;               /* over B.md, text or binary */
} pl_data_signer;

gpg_error_t pl_data_signer_init (pl_data_signer *s, const pl_seckey *signer,
                                 int text, uint32_t created);

/* The one-pass signature packet body for S into OUT (PL_ONEPASS_MAX):
 * v3 for a v4 key, v6 (with the salt and fingerprint) for a v6 key;
 * LAST set on the one written next to the literal data.  Returns its
 * length. */
#define PL_ONEPASS_MAX 80
size_t pl_data_signer_onepass (const pl_data_signer *s, int last,
                               uint8_t *out);

void pl_data_signer_push (pl_data_signer *s, const uint8_t *p, size_t n);

gpg_error_t pl_data_signer_finish (pl_data_signer *s, uint8_t *body,
                                   size_t *len);

void pl_data_signer_clear (pl_data_signer *s);
