/* algo.h - OpenPGP algorithm identifiers and their libgcrypt counterparts
 *
 * OpenPGP numbers its algorithms itself (RFC 9580 §9); libgcrypt has its
 * own numbers.  Everything in the engine speaks OpenPGP ids and converts
 * here, in one table.
 */
#pragma once

#include <stddef.h>
#include <stdint.h>
#include <gcrypt.h>

/* OpenPGP symmetric-key algorithm ids (RFC 9580 §9.3). */
enum
{
  PL_CIPHER_IDEA = 1,
  PL_CIPHER_3DES = 2,
  PL_CIPHER_CAST5 = 3,
  PL_CIPHER_BLOWFISH = 4,
  PL_CIPHER_AES128 = 7,
  PL_CIPHER_AES192 = 8,
  PL_CIPHER_AES256 = 9,
  PL_CIPHER_TWOFISH = 10,
  PL_CIPHER_CAMELLIA128 = 11,
  PL_CIPHER_CAMELLIA192 = 12,
  PL_CIPHER_CAMELLIA256 = 13
};

/* OpenPGP hash algorithm ids (RFC 9580 §9.5). */
enum
{
  PL_HASH_MD5 = 1,
  PL_HASH_SHA1 = 2,
  PL_HASH_RIPEMD160 = 3,
  PL_HASH_SHA256 = 8,
  PL_HASH_SHA384 = 9,
  PL_HASH_SHA512 = 10,
  PL_HASH_SHA224 = 11,
  PL_HASH_SHA3_256 = 12,
  PL_HASH_SHA3_512 = 14
};

/* OpenPGP AEAD algorithm ids (RFC 9580 §9.6). */
enum
{
  PL_AEAD_EAX = 1,
  PL_AEAD_OCB = 2,
  PL_AEAD_GCM = 3
};

/* OpenPGP compression algorithm ids (RFC 9580 §9.4). */
enum
{
  PL_COMPRESS_NONE = 0,
  PL_COMPRESS_ZIP = 1,
  PL_COMPRESS_ZLIB = 2,
  PL_COMPRESS_BZIP2 = 3
};

/* Every id below may be any int: an id that is not in the tables (or
 * one libgcrypt lacks, where said) gives 0 or "unknown", never an error.
 * Names are static strings. */

/* Returns the libgcrypt cipher id for an OpenPGP cipher id, or 0 when the
 * id is unknown or libgcrypt lacks the cipher. */
int pl_cipher_gcry_algo (int cipher_algo);

/* Key and block length in octets; 0 for an unknown id. */
size_t pl_cipher_key_length (int cipher_algo);
size_t pl_cipher_block_length (int cipher_algo);

/* The name people know ("AES-256", "Camellia-256", "Twofish"), for the
 * preferences and messages; "unknown" for an unknown id.  The one table of
 * cipher names: pl_cipher_from_name reads these back. */
const char *pl_cipher_name (int cipher_algo);

/* Parses a name as gpg spells it ("AES256", "aes-256", "camellia128"...),
 * as the settings spell it ("aes256") or as pl_cipher_name gives it;
 * returns 0 when unknown.  NAME is not NULL. */
int pl_cipher_from_name (const char *name);

/* Returns the libgcrypt hash id (GCRY_MD_*) for an OpenPGP hash id, or 0
 * when the id is unknown or libgcrypt lacks the hash. */
int pl_hash_gcry_algo (int hash_algo);

/* Nonce length for an AEAD mode: 16 (EAX), 15 (OCB), 12 (GCM); 0 if unknown. */
size_t pl_aead_nonce_length (int aead_algo);
/* The libgcrypt mode for an AEAD id: GCRY_CIPHER_MODE_EAX, _OCB or _GCM;
 * 0 (GCRY_CIPHER_MODE_NONE) for an unknown id. */
int pl_aead_gcry_mode (int aead_algo);
/* "EAX", "OCB" or "GCM"; "unknown" for an unknown id. */
const char *pl_aead_name (int aead_algo);

/* Compares two buffers in time that does not depend on their contents
 * (only on LEN).  Returns 1 when they are equal; LEN 0 is equal. */
int pl_equal_const_time (const void *a, const void *b, size_t len);

/* Overwrites a buffer in a way the compiler may not remove.  P may be
 * NULL when LEN is 0. */
void pl_wipe (void *p, size_t len);
