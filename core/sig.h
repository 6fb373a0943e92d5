/* sig.h - signature packets (RFC 9580 §5.2): v4 and v6, on keys
 *
 * Parsing keeps a copy of the body and the subpackets a certificate
 * needs (creation, expirations, key flags, features, issuer, embedded
 * signature).  Verification hashes what RFC 9580 §5.2.4 says for the
 * signature's type over a key, a user ID or a subkey, then checks the
 * signature with gcry_pk_verify: RSA (PKCS#1 v1.5), DSA (for the old keys
 * that carry ElGamal subkeys), ECDSA on the NIST and brainpool curves,
 * EdDSA legacy (22), Ed25519 (27) and Ed448 (28).
 *
 * Policy (pl_sig_verify): SHA-256/384/512/224 and SHA3-256/512; SHA-1
 * only for signatures made before 2023-01-01, as Sequoia's standard
 * policy; MD5 and RIPEMD-160 never.  A hashed subpacket marked critical
 * that we do not know makes the signature invalid (RFC 9580 §5.2.3.7),
 * and so does a critical notation (§5.2.3.24): we know no notation.  A
 * signature must say when it was made (§5.2.3.11), and may say a time
 * up to PL_SIG_CLOCK_SKEW after NOW.  Policy is not mathematics: each
 * policy refusal has its own code (pl_sig_policy_words), never
 * GPG_ERR_BAD_SIGNATURE, which says only that the octets do not match.
 */
#pragma once

#include <stddef.h>
#include <stdint.h>
#include <gpg-error.h>

#include "pubkey.h"

/* Signature types (RFC 9580 §5.2.1). */
enum
{
  PL_SIG_BINARY = 0x00,
  PL_SIG_GENERIC_CERT = 0x10,
  PL_SIG_POSITIVE_CERT = 0x13,
  PL_SIG_SUBKEY_BINDING = 0x18,
  PL_SIG_PRIMARY_BINDING = 0x19,
  PL_SIG_DIRECT_KEY = 0x1F,
  PL_SIG_KEY_REVOCATION = 0x20,
  PL_SIG_SUBKEY_REVOCATION = 0x28,
  PL_SIG_CERT_REVOCATION = 0x30
};

/* Key flags (RFC 9580 §5.2.3.29) and features (§5.2.3.32). */
enum
{
  PL_KEY_FLAG_CERTIFY = 0x01,
  PL_KEY_FLAG_SIGN = 0x02,
  PL_KEY_FLAG_ENCRYPT_COMMS = 0x04,
  PL_KEY_FLAG_ENCRYPT_STORAGE = 0x08,
  PL_FEATURE_SEIPD1 = 0x01,
  PL_FEATURE_LIBREPGP_AEAD = 0x02,     /* LibrePGP: OCB tag 20 */
  PL_FEATURE_SEIPD2 = 0x08
};

/* The first day SHA-1 signatures are no longer accepted: 2023-01-01. */
#define PL_SIG_SHA1_CUTOFF 1672531200u

/* How far after NOW a signature may say it was made and still count:
 * the signer's clock may run fast (gpg accepts any such signature, with
 * a note).  One figure for data signatures and for the self-signatures
 * and bindings of certificates, which check_policy applies to every
 * time it is given (the moment a data signature was made, too). */
#define PL_SIG_CLOCK_SKEW 600u

/* The most octets of a notation's name a reason shows. */
#define PL_SIG_NAME_SHOWN 64

typedef struct
{
  int version;                  /* 4 or 6 */
  int type;
  int pk_algo;
  int hash_algo;
  uint8_t *body;                /* owned copy of the packet body */
  size_t len;
  size_t hashed_len;            /* octets of the body the trailer counts */
  size_t salt_off, salt_len;    /* v6 */
  uint8_t left16[2];
  pl_field field[2];            /* the signature's MPIs or native octets */
  int n_fields;
  /* Subpackets (hashed, but the issuer's, which may be unhashed). */
  uint32_t created;
  uint32_t expires;             /* signature expiry, seconds after CREATED;
                                 * 0: never */
  uint32_t key_expires;         /* key expiry, seconds after the key's
                                 * creation; 0: never */
  int has_key_flags;
  uint8_t key_flags;
  int has_features;
  uint8_t features;
  int primary_uid;
  int has_issuer;
  uint8_t issuer[8];
  uint8_t issuer_fpr[PL_FPR_MAX];
  size_t issuer_fpr_len;
  size_t embedded_off, embedded_len; /* an embedded signature (0x19) */
  int unknown_critical;         /* a hashed critical subpacket we do not
                                 * know: never valid */
  int critical_type;            /* the first such subpacket's type; for a
                                 * notation (20) its name: */
  size_t critical_name_off, critical_name_len; /* in BODY; 0: malformed */
} pl_sig;

/* Parses a signature packet body into *SIG (which owns a copy).  A
 * version other than 4 or 6: GPG_ERR_UNKNOWN_VERSION; malformed
 * (lengths that run past the body, a subpacket of length 0, a v6 salt of
 * the wrong size for its hash): GPG_ERR_INV_PACKET.  On error *SIG is
 * cleared. */
gpg_error_t pl_sig_parse (pl_sig *sig, const uint8_t *body, size_t len);

void pl_sig_clear (pl_sig *sig);

/* What a signature over a key is about: the primary key, and a user ID
 * (certifications 0x10-0x13, 0x30; UID_TAG 13, or 17 for a user
 * attribute) or a subkey (0x18, 0x19, 0x28); neither for 0x1F and 0x20. */
typedef struct
{
  const pl_pubkey *primary;
  const pl_pubkey *subkey;
  const uint8_t *uid;
  size_t uid_len;
  int uid_tag;
} pl_sig_target;

/* Verifies SIG by SIGNER over TARGET at NOW (seconds since the epoch):
 * 0 when the signature is good, made at or before NOW + PL_SIG_CLOCK_SKEW,
 * not expired at NOW, of an accepted hash, made by SIGNER's algorithm;
 * GPG_ERR_BAD_SIGNATURE for a signature that does not verify or the
 * wrong issuer; GPG_ERR_PUBKEY_ALGO for an algorithm we cannot check;
 * the policy's refusals (pl_sig_policy_words) before the mathematics. */
gpg_error_t pl_sig_verify (const pl_sig *sig, const pl_pubkey *signer,
                           const pl_sig_target *target, uint32_t now);

/* The policy part of pl_sig_verify alone (the hash, the times, an unknown
 * critical subpacket), at NOW: pl_sig_verify is this, then the
 * mathematics, which does not depend on NOW.  cert.c keeps the verdict
 * of the mathematics and asks only this again.  Its refusals are those
 * of pl_sig_policy_words. */
gpg_error_t pl_sig_check_policy (const pl_sig *sig, uint32_t now);

/* When ERR is a refusal of the policy, writes why in words into OUT (N
 * octets, always terminated) and returns 1; else 0, OUT untouched:
 *   GPG_ERR_DIGEST_ALGO       "SHA-1 signature made after 2022",
 *                             "hash algorithm not accepted"
 *   GPG_ERR_SIG_EXPIRED       "signature expired"
 *   GPG_ERR_UNKNOWN_CRIT_EXTN "unknown critical notation NAME",
 *                             "unknown critical subpacket TYPE"
 *   GPG_ERR_TIME_CONFLICT     "made in the future (YYYY-MM-DD HH:MM:SS UTC)"
 *   GPG_ERR_INV_TIME          "no creation time"
 * NAME is pl_sig_critical_name's. */
int pl_sig_policy_words (const pl_sig *sig, gpg_error_t err, char *out,
                         size_t n);

/* The name of SIG's unknown critical notation into OUT (N octets, always
 * terminated): it comes from the sender, so only printable ASCII passes
 * (every other octet, UTF-8 and control characters among them, becomes
 * '?': nothing in it can move a terminal's cursor or reorder text), and
 * at most PL_SIG_NAME_SHOWN octets of it, "..." marking a cut.  "" when
 * the critical subpacket is no notation or a malformed one. */
void pl_sig_critical_name (const pl_sig *sig, char *out, size_t n);

/* The end of every verification: MD holds what the signature covers
 * (for a v6 signature, its salt first), of SIG's hash algorithm; this
 * adds SIG's hashed part and trailer (MD is changed: pass a copy to keep
 * it) and checks the signature by SIGNER.  GPG_ERR_BAD_SIGNATURE when it
 * does not verify (or names another issuer, or is of another algorithm
 * or version than SIGNER); only then the policy of pl_sig_verify (the
 * refusals of pl_sig_policy_words), so that a signature both altered and
 * refused is called altered.  A SIGNER that is broken (pubkey.h,
 * PL_KEY_BROKEN: e = 1 forges): GPG_ERR_UNUSABLE_PUBKEY, before
 * anything.  Shared with data signatures (verify.h). */
gpg_error_t pl_sig_verify_hashed (const pl_sig *sig, const pl_pubkey *signer,
                                  gcry_md_hd_t md, uint32_t now);

/* How many octets of a digest of GCRY_ALGO a signature by KEY signs:
 * the digest's length, cut to the group order's for DSA and ECDSA. */
size_t pl_sig_digest_length (const pl_pubkey *key, int gcry_algo);

/* The hash a signature of TYPE over TARGET takes, ready for the trailer:
 * a v6 signature's SALT first, then the key (and user ID or subkey).
 * Shared with signing (sign.c). */
void pl_sig_hash_target (gcry_md_hd_t md, int version, int type,
                         const uint8_t *salt, size_t salt_len,
                         const pl_sig_target *target);

/* The salt length a v6 signature takes with HASH_ALGO; 0 when unknown. */
size_t pl_sig_salt_length (int hash_algo);
