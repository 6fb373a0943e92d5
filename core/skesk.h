/* skesk.h - Symmetric-Key Encrypted Session Key packets
 *
 * v4 (RFC 9580 §5.3.1), v5 (LibrePGP §5.3, written by GnuPG with
 * --force-ocb and by OpenPGP.js 5) and v6 (RFC 9580 §5.3.2).  These
 * functions work on a whole packet body; the packet header is the caller's.
 */
#pragma once

#include <stddef.h>
#include <stdint.h>
#include <gpg-error.h>

#include "s2k.h"

/* The largest session key (AES-256) and a v5/v6 body's upper bound. */
#define PL_SESSION_KEY_MAX 32
#define PL_SKESK_BODY_MAX 128

typedef struct
{
  int version;                  /* 4, 5 or 6 */
  int cipher_algo;              /* OpenPGP cipher id */
  int aead_algo;                /* v5 and v6 */
  pl_s2k s2k;
  uint8_t iv[16];               /* v5 and v6: the AEAD nonce */
  size_t iv_len;
  uint8_t esk[PL_SESSION_KEY_MAX + 1 + 16]; /* encrypted session key (+tag) */
  size_t esk_len;               /* 0: v4 whose S2K output is the key */
} pl_skesk;

/* Parses a body.  Malformed bodies fail with GPG_ERR_INV_PACKET, unknown
 * versions with GPG_ERR_UNKNOWN_VERSION, unknown algorithms with
 * GPG_ERR_UNSUPPORTED_ALGORITHM. */
gpg_error_t pl_skesk_parse (pl_skesk *skesk, const uint8_t *body, size_t len);

/* How many octets of S2K output the two functions below take: the
 * SKESK cipher's key length.  The caller derives them (pl_s2k_derive
 * over SKESK->s2k, from keys.c), so that the S2K's cost is paid in one
 * place. */
size_t pl_skesk_s2k_length (const pl_skesk *skesk);

/* Recovers the session key with S2K_KEY, the output of SKESK's S2K for a
 * passphrase (pl_skesk_s2k_length octets).  SESSION_KEY must be secure
 * memory of PL_SESSION_KEY_MAX octets.  *KEYLEN receives the key's length
 * and *CIPHER_ALGO the cipher the data packet uses (v4; for v5 the SKESK's
 * own cipher; for v6 0, since the SEIPD v2 header names it).
 *
 * A v5/v6 AEAD tag that fails, or a v4 encrypted session key naming an
 * unknown cipher or the wrong length, is GPG_ERR_BAD_PASSPHRASE.  A v4
 * SKESK without an encrypted key cannot tell: its key is checked later by
 * the data packet's quick check. */
gpg_error_t pl_skesk_decrypt (const pl_skesk *skesk, const uint8_t *s2k_key,
                              uint8_t *session_key, size_t *keylen,
                              int *cipher_algo);

/* Fills SKESK (version, cipher, AEAD mode, S2K already set by the caller)
 * by encrypting SESSION_KEY under S2K_KEY, the S2K output for the
 * passphrase (pl_skesk_s2k_length octets): v4 with SESSION_KEY NULL
 * writes no encrypted key and reads no S2K_KEY (the S2K output is the
 * session key, as gpg -c does); v5 and v6 pick a random IV and wrap the
 * key with AEAD. */
gpg_error_t pl_skesk_encrypt (pl_skesk *skesk, const uint8_t *s2k_key,
                              const uint8_t *session_key, size_t keylen);

/* Serialises SKESK into BODY (PL_SKESK_BODY_MAX octets); returns the
 * length. */
size_t pl_skesk_write (const pl_skesk *skesk, uint8_t *body);
