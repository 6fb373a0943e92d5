/* pkesk.h - Public-Key Encrypted Session Key packets (RFC 9580 §5.1)
 *
 * v3 (before SEIPD v1 and OCB tag 20) and v6 (before SEIPD v2), for RSA
 * (EME-PKCS1-v1_5, §5.1.3), ECDH (§5.1.5, §11.5: the KDF over the
 * recipient's fingerprint, then AES key wrap; Curve25519 legacy and the
 * NIST and brainpool curves), X25519 (§5.1.6: HKDF-SHA256, AES-128
 * key wrap, no checksum) and X448 (§5.1.7: HKDF-SHA512, AES-256); ElGamal (§5.1.4) for decryption only, for old
 * keys.  These functions work on a whole packet body; the header is the
 * caller's.
 *
 * Decryption is one error for everything a hostile packet can make go
 * wrong after the secret key was used: a bad PKCS#1 padding, a wrong
 * checksum, a failed key unwrap, a point off the curve or of small order,
 * an all-zero shared secret are all GPG_ERR_DECRYPT_FAILED, and the
 * padding and checksum are checked without branching on secret data.
 */
#pragma once

#include <stddef.h>
#include <stdint.h>
#include <gpg-error.h>

#include "pubkey.h"
#include "seckey.h"

/* The algorithm's fields: an RSA value of PL_PUBKEY_BITS_MAX bits, or a
 * P-521 point and a wrapped key. */
#define PL_PKESK_DATA_MAX (2 + PL_PUBKEY_BITS_MAX / 8 + 8)
#define PL_PKESK_BODY_MAX (3 + PL_FPR_MAX + 1 + PL_PKESK_DATA_MAX)

typedef struct
{
  int version;                  /* 3 or 6 */
  int algo;                     /* OpenPGP public-key algorithm */
  uint8_t keyid[8];             /* v3: all zero for an anonymous recipient */
  int key_version;              /* v6: 0 for an anonymous recipient */
  uint8_t fpr[PL_FPR_MAX];      /* v6 */
  size_t fpr_len;
  uint8_t data[PL_PKESK_DATA_MAX]; /* the algorithm's fields as written */
  size_t data_len;
  pl_field f[2];                /* RSA: m^e; ElGamal: its two values;
                                 * ECDH and X25519: the ephemeral point
                                 * and the wrapped key */
  int sym_algo;                 /* X25519 v3: the cipher, in the clear */
} pl_pkesk;

/* Parses a body.  Malformed: GPG_ERR_INV_PACKET; an unknown version
 * GPG_ERR_UNKNOWN_VERSION; an algorithm we do not decrypt
 * GPG_ERR_PUBKEY_ALGO. */
gpg_error_t pl_pkesk_parse (pl_pkesk *p, const uint8_t *body, size_t len);

/* 1 for an anonymous recipient (key ID 0, or no fingerprint). */
int pl_pkesk_anonymous (const pl_pkesk *p);

/* 1 when P names KEY (its key ID, or for v6 its fingerprint). */
int pl_pkesk_names (const pl_pkesk *p, const pl_pubkey *key);

/* "0x" and the key ID (v3) or fingerprint (v6) in hex, or "anonymous",
 * into OUT (2 * PL_FPR_MAX + 3 octets). */
void pl_pkesk_recipient (const pl_pkesk *p, char *out);

/* Fills P by encrypting SESSION_KEY (KEYLEN octets, for CIPHER_ALGO,
 * which v3 carries) to KEY: a PKESK of VERSION (3 or 6), naming KEY or,
 * with ANONYMOUS, nobody.  Fresh randomness each call (PKCS#1 padding,
 * ephemeral keys).  An algorithm we cannot encrypt to:
 * GPG_ERR_PUBKEY_ALGO. */
gpg_error_t pl_pkesk_encrypt (pl_pkesk *p, int version, const pl_pubkey *key,
                              int anonymous, int cipher_algo,
                              const uint8_t *session_key, size_t keylen);

/* Serialises P into BODY (PL_PKESK_BODY_MAX octets); returns the length. */
size_t pl_pkesk_write (const pl_pkesk *p, uint8_t *body);

/* Recovers the session key with the secret key SK (whose public key must
 * be of P's algorithm) into SESSION_KEY (secure, PL_SESSION_KEY_MAX
 * octets): *KEYLEN its length, *CIPHER_ALGO the cipher (v3), or 0 (v6:
 * the SEIPD v2 header names it).  Everything that fails once the secret
 * key is in use: GPG_ERR_DECRYPT_FAILED. */
gpg_error_t pl_pkesk_decrypt (const pl_pkesk *p, const pl_seckey *sk,
                              uint8_t *session_key, size_t *keylen,
                              int *cipher_algo);

/* The end of a decryption whose secret-key step ran elsewhere (a key
 * held by gpg-agent or a card, pl_unwrap_fn): KEY is the recipient's
 * public (sub)key, whose fingerprint and KDF parameters ECDH needs, and
 * ANSWER (LEN octets) what the secret key made of P's fields:
 *   RSA, ElGamal  the decrypted block; PADDED 1 when it still carries
 *                 its EME-PKCS1-v1_5 padding (gpg-agent's own keys),
 *                 0 when the holder removed it (some cards)
 *   ECDH          the shared point, 0x04 || x || y, or 0x40 || x on
 *                 Curve25519 (the KDF of §11.5, then AES key unwrap)
 * The same code as pl_pkesk_decrypt's after its secret-key step, so the
 * same one error (GPG_ERR_DECRYPT_FAILED) and constant work for
 * padding and checksum.  X25519 and X448 (algorithms 25 and 26, which
 * gpg-agent 2.2 cannot decrypt): GPG_ERR_PUBKEY_ALGO. */
gpg_error_t pl_pkesk_finish (const pl_pkesk *p, const pl_pubkey *key,
                             const uint8_t *answer, size_t len, int padded,
                             uint8_t *session_key, size_t *keylen,
                             int *cipher_algo);
