/* hkdf.h - HKDF-SHA256 and HKDF-SHA512 (RFC 5869) on libgcrypt's HMAC
 *
 * libgcrypt 1.10 has no HKDF; RFC 9580 needs it for SEIPD v2 and SKESK v6
 * (SHA-256), X25519 (SHA-256) and X448 (SHA-512).
 */
#pragma once

#include <stddef.h>
#include <stdint.h>
#include <gpg-error.h>

/* Extract-then-expand.  SALT may be NULL (a zero salt of hash length).
 * OUTLEN is at most 255 * 32.  OUT should be secure memory. */
gpg_error_t pl_hkdf_sha256 (const uint8_t *salt, size_t salt_len,
                            const uint8_t *ikm, size_t ikm_len,
                            const uint8_t *info, size_t info_len,
                            uint8_t *out, size_t out_len);

/* The same with SHA-512: OUTLEN at most 255 * 64. */
gpg_error_t pl_hkdf_sha512 (const uint8_t *salt, size_t salt_len,
                            const uint8_t *ikm, size_t ikm_len,
                            const uint8_t *info, size_t info_len,
                            uint8_t *out, size_t out_len);
