/* keygen.h - new transferable secret keys (RFC 9580 §10.2)
 *
 * Two shapes, as SOP's generate-key profiles name them:
 * - default: a v4 key, EdDSA legacy (22) Ed25519 primary that certifies
 *   and signs, and a Curve25519 legacy ECDH (18) subkey that encrypts
 *   (KDF SHA-256, AES-256 key wrap): what sqop and gpg 2.2 make and read;
 *   features SEIPD v1 only, so that gpg 2.2 and sqop can read what is
 *   sent to it;
 * - rfc9580: a v6 key, Ed25519 (27) primary with a direct-key signature,
 *   and an X25519 (25) subkey; features SEIPD v1 and v2.
 * The self-signatures (sign.h) are SHA-512 EdDSA: a positive
 * certification (0x13) per user ID, the first one primary, and a subkey
 * binding (0x18).  Secret parts as seckey.h's pl_seckey_seal writes
 * them.
 */
#pragma once

#include <stddef.h>
#include <stdint.h>
#include <gpg-error.h>

typedef enum
{
  PL_KEYGEN_DEFAULT = 0,        /* v4 Ed25519 + Cv25519 */
  PL_KEYGEN_RFC9580             /* v6 Ed25519 + X25519 */
} pl_keygen_profile;

/* Makes a key of PROFILE for the N_UIDS user IDs UIDS (at least one, each
 * at most 1024 octets), created at NOW, its secrets protected with
 * PASSPHRASE (NULL: in the clear).  *OUT (gcry_malloc_secure; wipe *OUT_LEN
 * octets and gcry_free) receives the binary packets. */
gpg_error_t pl_keygen (pl_keygen_profile profile, const char *const *uids,
                       size_t n_uids, const char *passphrase,
                       size_t passphrase_len, uint32_t now, uint8_t **out,
                       size_t *out_len);
