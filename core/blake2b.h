/* blake2b.h - BLAKE2b (RFC 7693), unkeyed, for Argon2
 *
 * Argon2 (RFC 9106) hashes with BLAKE2b of a chosen output length and no
 * key; that is all this offers.  Not for general use: libgcrypt's
 * GCRY_MD_BLAKE2B_* serve everything else.  The state holds what was
 * hashed (up to one block of it), so callers wipe it with pl_blake2b_wipe
 * when the input was secret; pl_blake2b_final does that itself.
 */
#pragma once

#include <stddef.h>
#include <stdint.h>

#define PL_BLAKE2B_BLOCK 128
#define PL_BLAKE2B_OUT_MAX 64

typedef struct
{
  uint64_t h[8];
  uint64_t t[2];                /* octets hashed so far */
  uint8_t buf[PL_BLAKE2B_BLOCK];
  size_t buflen;
  size_t outlen;
} pl_blake2b_state;

/* Starts a hash of OUTLEN octets, 1 to PL_BLAKE2B_OUT_MAX (the length is
 * part of the parameter block, so BLAKE2b-256 is not a prefix of
 * BLAKE2b-512). */
void pl_blake2b_init (pl_blake2b_state *s, size_t outlen);

/* Hashes LEN octets of IN (IN may be NULL when LEN is 0). */
void pl_blake2b_update (pl_blake2b_state *s, const void *in, size_t len);

/* Writes the OUTLEN octets of the hash to OUT and wipes *S. */
void pl_blake2b_final (pl_blake2b_state *s, uint8_t *out);

/* The whole hash of IN in one call. */
void pl_blake2b_hash (uint8_t *out, size_t outlen, const void *in, size_t len);

/* The little-endian words and the rotation that BLAKE2b's rounds and
 * Argon2's (argon2.c) share. */
static inline uint64_t
pl_rotr64 (uint64_t x, unsigned int n)
{
  return (x >> n) | (x << (64 - n));
}

static inline uint64_t
pl_load64_le (const uint8_t *p)
{
  uint64_t v = 0;

  for (int i = 7; i >= 0; i--)
    v = (v << 8) | p[i];
  return v;
}

static inline void
pl_store64_le (uint8_t *p, uint64_t v)
{
  for (int i = 0; i < 8; i++)
    p[i] = (uint8_t) (v >> (8 * i));
}
