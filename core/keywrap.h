/* keywrap.h - AES key wrap (RFC 3394) with the default IV
 *
 * ECDH (RFC 9580 §11.5) and X25519 (§5.1.6) wrap the session key under a
 * key-encryption key.  libgcrypt's AESWRAP mode does the work; this file
 * holds the key in a secure handle and names the one failure.
 */
#pragma once

#include <stddef.h>
#include <stdint.h>
#include <gpg-error.h>

/* Wraps IN (LEN octets, a multiple of 8, at least 16) under KEK, a key
 * for the OpenPGP AES cipher CIPHER_ALGO (7, 8 or 9), into OUT (LEN + 8
 * octets). */
gpg_error_t pl_keywrap_wrap (int cipher_algo, const uint8_t *kek,
                             const uint8_t *in, size_t len, uint8_t *out);

/* Unwraps IN (LEN octets, a multiple of 8, at least 24) into OUT (LEN - 8
 * octets; secure memory).  A failed integrity check is GPG_ERR_CHECKSUM,
 * and then OUT is wiped; a length that cannot be a wrap is
 * GPG_ERR_INV_LENGTH. */
gpg_error_t pl_keywrap_unwrap (int cipher_algo, const uint8_t *kek,
                               const uint8_t *in, size_t len, uint8_t *out);
