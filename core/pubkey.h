/* pubkey.h - public-key packets (RFC 9580 §5.5.2): v4 and v6
 *
 * A parsed key keeps its own copy of the packet's public part and points
 * into it: the algorithm's fields (MPIs without their length, or native
 * octet strings), the curve, the ECDH KDF parameters.  From it come the
 * fingerprint (v4: SHA-1 over 0x99 || len16 || body; v6: SHA-256 over
 * 0x9B || len32 || body), the key ID (v4: the fingerprint's last eight
 * octets; v6: its first eight) and the libgcrypt S-expression that
 * gcry_pk_verify / gcry_pk_encrypt take.
 *
 * v3 keys (RFC 9580 §5.5.2.1) are refused: GPG_ERR_UNKNOWN_VERSION.
 */
#pragma once

#include <stddef.h>
#include <stdint.h>
#include <gcrypt.h>
#include <gpg-error.h>

/* OpenPGP public-key algorithm ids (RFC 9580 §9.1). */
enum
{
  PL_PK_RSA = 1,
  PL_PK_RSA_E = 2,
  PL_PK_RSA_S = 3,
  PL_PK_ELGAMAL = 16,
  PL_PK_DSA = 17,
  PL_PK_ECDH = 18,
  PL_PK_ECDSA = 19,
  PL_PK_EDDSA = 22,             /* EdDSA legacy: Ed25519 with an OID */
  PL_PK_X25519 = 25,
  PL_PK_X448 = 26,
  PL_PK_ED25519 = 27,
  PL_PK_ED448 = 28
};

/* The curves RFC 9580 §9.2 names. */
typedef enum
{
  PL_CURVE_NONE = 0,
  PL_CURVE_P256,
  PL_CURVE_P384,
  PL_CURVE_P521,
  PL_CURVE_BP256,
  PL_CURVE_BP384,
  PL_CURVE_BP512,
  PL_CURVE_ED25519_LEGACY,      /* 1.3.6.1.4.1.11591.15.1, for algo 22 */
  PL_CURVE_CV25519_LEGACY       /* 1.3.6.1.4.1.3029.1.5.1, for algo 18 */
} pl_curve;

/* The largest fingerprint (v6) and the public fields an algorithm has. */
#define PL_FPR_MAX 32
#define PL_PUBKEY_FIELDS_MAX 4
/* A modulus or group above this many bits is refused (a hostile key must
 * not make us spend seconds per operation): PL_ERR_KEY_TOO_LARGE
 * (errors.h).  An RSA-16384 decryption takes about 1 s of CPU here, a
 * 32,768-bit one would take about 8 (README, bench/KEYS.md). */
#define PL_PUBKEY_BITS_MAX 16384
/* An RSA public exponent above this many bits is refused likewise: each
 * signature check and encryption costs one squaring of the modulus per
 * bit of it, so a 16,384-bit exponent would make a hostile certificate's
 * every self-signature cost what a decryption does.  Keys use 65537
 * (17 bits); OpenSSL holds exponents to 64 bits above 3072-bit moduli. */
#define PL_RSA_EXPONENT_BITS_MAX 64
/* RSA, DSA and ElGamal below this many bits (the modulus n, the group's
 * p) are too weak to use: RFC 9580 §12.4 says MUST NOT encrypt, sign or
 * verify with RSA below 2048; §12.5 and §12.6 go further (no DSA
 * signature checked, nothing encrypted to ElGamal, at any size), where
 * Padlock keeps gpg's old dsa2048 + elg2048 keys working (README, Old
 * keys) but holds them to RSA's floor: a 1024-bit p is some 80 bits of
 * security, as RSA-1024 is.  One's own such key still decrypts what was
 * sent to it, with a warning (cert.h, job.h). */
#define PL_PUBKEY_BITS_MIN 2048

/* Whether a key is safe to use, decided once, when it is read (DESIGN.md,
 * Trust: "Keys unsafe to use are refused where they are read"); every use
 * (cert.h: encrypting to it, verifying by it, decrypting with it) asks.
 * The reason is in words ("RSA-1024 is too weak"). */
typedef enum
{
  PL_KEY_SAFE = 0,
  PL_KEY_WEAK,                  /* RSA, DSA or ElGamal below
                                 * PL_PUBKEY_BITS_MIN: refused but
                                 * for decrypting with one's own key */
  PL_KEY_BROKEN                 /* never used: an RSA exponent below 3 or
                                 * even (e = 1 makes a "signature" s = EM
                                 * verify, and encryption the identity),
                                 * an even RSA modulus, an EC point off
                                 * its curve, a subkey of another version
                                 * than its primary (cert.c) */
} pl_key_safety;

typedef struct
{
  size_t off;                   /* into the key's body */
  size_t len;                   /* octets (an MPI's value, no prefix) */
} pl_field;

typedef struct
{
  int version;                  /* 4 or 6 */
  uint32_t created;
  int algo;
  pl_curve curve;
  int kdf_hash;                 /* ECDH: the KDF's hash (OpenPGP id) */
  int kdf_cipher;               /* ECDH: the key wrap's cipher */
  uint8_t *body;                /* owned: the public part of the packet */
  size_t body_len;
  size_t oid_off, oid_len;      /* curve OID (without its length octet) */
  pl_field field[PL_PUBKEY_FIELDS_MAX];
  int n_fields;
  unsigned int bits;            /* RSA modulus, or the curve's size */
  uint8_t fpr[PL_FPR_MAX];
  size_t fpr_len;               /* 20 (v4) or 32 (v6) */
  uint8_t keyid[8];
  pl_key_safety safety;
  char unsafe_why[48];          /* why, when not PL_KEY_SAFE */
} pl_pubkey;

/* Parses the public part of a key packet (tags 6, 14, and the front of
 * 5, 7) from BODY.  *USED, when not NULL, receives the octets the public
 * part took (a secret key's secret part follows).  A version other than 4
 * or 6: GPG_ERR_UNKNOWN_VERSION; an algorithm or curve we do not know:
 * GPG_ERR_PUBKEY_ALGO (the key is kept aside, never used); anything
 * short, long or inconsistent (a v6 length that does not match, a point
 * of the wrong size for its curve): GPG_ERR_INV_PACKET; an RSA, DSA or
 * ElGamal key over PL_PUBKEY_BITS_MAX, or an RSA exponent over
 * PL_RSA_EXPONENT_BITS_MAX: PL_ERR_KEY_TOO_LARGE.  A key that parses
 * but is not safe to use is kept, with its SAFETY and UNSAFE_WHY set:
 * RSA, DSA or ElGamal below PL_PUBKEY_BITS_MIN bits ("DSA-1024 is too
 * weak"), RSA with e < 3, an even e or an even n; an
 * ECDH or ECDSA point not on its NIST or brainpool curve (Curve25519 and
 * Ed25519 points are 32-octet strings, left as they are: X25519 takes
 * any u by design, and libgcrypt refuses an Ed25519 point that does not
 * decode when it verifies).
 * On error *KEY is cleared. */
gpg_error_t pl_pubkey_parse (pl_pubkey *key, const uint8_t *body, size_t len,
                             size_t *used);

/* Frees what pl_pubkey_parse allocated; the struct may be reused. */
void pl_pubkey_clear (pl_pubkey *key);

/* A deep copy into DST. */
gpg_error_t pl_pubkey_copy (pl_pubkey *dst, const pl_pubkey *src);

/* Feeds the key as signatures hash it (RFC 9580 §5.2.4): v4 0x99 || two
 * length octets || body, v6 0x9B || four length octets || body. */
void pl_pubkey_hash (const pl_pubkey *key, gcry_md_hd_t md);

/* 1 when the algorithm can encrypt (RSA 1/2, ElGamal, ECDH, X25519,
 * X448) or sign (RSA 1/3, DSA, ECDSA, EdDSA, Ed25519, Ed448). */
int pl_pubkey_can_encrypt (const pl_pubkey *key);
int pl_pubkey_can_sign (const pl_pubkey *key);

/* The libgcrypt curve name ("NIST P-256", "Ed25519"...), NULL for none. */
const char *pl_curve_gcry_name (pl_curve curve);
/* The octets of one coordinate (32 for P-256, 66 for P-521). */
size_t pl_curve_coordinate_length (pl_curve curve);

/* (public-key (rsa (n) (e))) / (public-key (ecc (curve) [flags] (q)))
 * for the signature algorithms and ECDH's NIST and brainpool curves.
 * GPG_ERR_PUBKEY_ALGO for the rest. */
gpg_error_t pl_pubkey_sexp (const pl_pubkey *key, gcry_sexp_t *out);

/* An MPI of the key: FIELD's octets as an unsigned integer. */
gpg_error_t pl_pubkey_mpi (const pl_pubkey *key, int field, gcry_mpi_t *out);

/* Pointer to FIELD's octets. */
static inline const uint8_t *
pl_pubkey_field (const pl_pubkey *key, int field)
{
  return key->body + key->field[field].off;
}

/* Reads one MPI (RFC 9580 §3.2) at P (LEN octets left): *OFF, *N the
 * value's position relative to P and its (bits + 7) / 8 octets, *USED the
 * octets it took.  The bit count is not held to the leading octet: peers
 * write native fields (0x40 || X) with counts of their own.  An MPI of
 * more than MAX_BITS, or cut short, is GPG_ERR_INV_PACKET.  Shared with
 * sig.c and seckey.c. */
gpg_error_t pl_mpi_read (const uint8_t *p, size_t len, unsigned int max_bits,
                         size_t *off, size_t *n, size_t *used);

/* Writes VALUE (N octets, leading zeros skipped) as an MPI into OUT;
 * returns the octets written (at most N + 2). */
size_t pl_mpi_write (const uint8_t *value, size_t n, uint8_t *out);

/* "0x" and the fingerprint in upper-case hex into OUT (2 * 32 + 3). */
void pl_fpr_format (const uint8_t *fpr, size_t len, char *out);
