/* verify.h - signatures over data (RFC 9580 §5.2.1 types 0x00, 0x01)
 *
 * A pl_verifier follows a message's signature packets around its literal
 * data, hashes the data for them and gives each signature a verdict
 * against the certificates it was handed:
 *
 *   OPS_1 ... OPS_n  literal  SIG_n ... SIG_1      one-pass (gpg -s, -se)
 *   SIG_1 ... SIG_n  literal                       signatures first (old)
 *
 * and a mix of both; compression in between changes nothing (the caller
 * feeds the packets it meets, at any depth).  A trailing signature
 * belongs to the newest one-pass signature still open: one-pass
 * signatures nest, and every one of them, nested or not, covers the
 * literal data only (RFC 9580 §5.4; no implementation hashes the inner
 * packets).  A trailing signature that contradicts its one-pass packet
 * (type, hash, algorithm, issuer, v6 salt) is bad; one with no one-pass
 * packet to close, or a one-pass packet after the data, makes the
 * message malformed.
 *
 * Hashing starts only for a signature that announces itself: a message
 * without one costs nothing, and one by a key that no certificate holds
 * (the one-pass packet's key ID or fingerprint, or the signature's
 * issuer) costs no hash either when the caller says no certificate will
 * be found later (certs_final): its verdict is UNKNOWN_KEY.  Signatures that need the same input share
 * one hash context (same algorithm, binary or text, no salt: every v4
 * signature by one signer's several keys); v6 signatures hash their
 * salt first and so each take their own.  At most PL_VERIFY_MAX
 * signatures of one message are checked; the rest are counted, not
 * hashed (a hostile message must not buy a hash context per packet).
 *
 * Text signatures (0x01) hash the data with every line ending as CR LF
 * (a lone LF becomes CR LF; CR LF stays), what gpg and Sequoia do.
 */
#pragma once

#include <stddef.h>
#include <stdint.h>
#include <gcrypt.h>
#include <gpg-error.h>

#include "cert.h"
#include "io.h"
#include "sig.h"

#define PL_VERIFY_MAX 8

/* Data signature types. */
enum
{
  PL_SIG_TEXT = 0x01
};

typedef enum
{
  PL_VERDICT_GOOD = 1,          /* verifies, by a key that could sign then */
  PL_VERDICT_BAD,               /* the data (or the signature) was altered */
  PL_VERDICT_UNKNOWN_KEY,       /* no certificate given holds the issuer */
  PL_VERDICT_NOT_VALID,         /* verifies, but the key was expired at
                                 * signing time, is revoked or may not
                                 * sign, or the signature is refused by
                                 * policy (SHA-1 after 2023, expired, an
                                 * unknown critical subpacket or notation,
                                 * made in the future past
                                 * PL_SIG_CLOCK_SKEW, no creation time:
                                 * pl_sig_policy_words), never BAD; or
                                 * the key is not safe to use (RSA or
                                 * DSA below 2048 bits, e = 1...:
                                 * cert.h), checked
                                 * before the mathematics */
  PL_VERDICT_UNSUPPORTED        /* a version, algorithm or hash we cannot
                                 * check, or a malformed signature */
} pl_verdict;

typedef struct
{
  pl_verdict verdict;
  gpg_error_t why;              /* the error behind a verdict not GOOD */
  char reason[128];             /* for NOT_VALID: in words */
  char critical[PL_SIG_NAME_SHOWN + 4]; /* NOT_VALID for an unknown
                                 * critical notation: its name, printable
                                 * ASCII (pl_sig_critical_name) */
  int version, type, hash_algo, pk_algo;
  uint32_t created;             /* the signature's creation time */
  /* The issuer as the signature names it (fingerprint, else key ID). */
  uint8_t issuer_fpr[PL_FPR_MAX];
  size_t issuer_fpr_len;
  uint8_t issuer[8];
  int has_issuer;
  /* GOOD, BAD, NOT_VALID: the signing key and its certificate, one of
   * those handed to the verifier (borrowed). */
  const pl_cert *cert;
  uint8_t key_fpr[PL_FPR_MAX];
  size_t key_fpr_len;
} pl_verification;

typedef struct
{
  pl_verification v[PL_VERIFY_MAX];
  size_t n;
  size_t skipped;               /* signatures past PL_VERIFY_MAX, unchecked */
} pl_verifications;

/* 1 when some verification of V is GOOD. */
int pl_verifications_good (const pl_verifications *v);

/* One hash context: what signatures of one kind take. */
typedef struct
{
  int hash_algo;                /* OpenPGP id */
  int text;                     /* CR LF line endings */
  int cr;                       /* text: the last octet hashed was CR */
  uint8_t salt[32];
  size_t salt_len;              /* v6 */
  gcry_md_hd_t md;
} pl_data_hash;

/* N octets of data into H->md, as H's mode wants them (text: CR LF). */
void pl_data_hash_write (pl_data_hash *h, const uint8_t *p, size_t n);

typedef struct
{
  int onepass;                  /* announced by a one-pass packet */
  int closed;                   /* its signature packet was read */
  int version, type, hash_algo, pk_algo;
  uint8_t salt[32];
  size_t salt_len;
  uint8_t issuer[PL_FPR_MAX];   /* the one-pass packet's key ID or (v6)
                                 * fingerprint */
  size_t issuer_len;
  pl_sig sig;
  gpg_error_t err;              /* a verdict already reached (malformed,
                                 * contradicting its one-pass packet) */
  int hash;                     /* into the verifier's hashes; -1: none */
  int unknown_signer;           /* no certificate holds the key named:
                                 * not hashed */
} pl_verify_entry;

typedef struct
{
  const pl_cert *const *certs;  /* borrowed */
  size_t n_certs;
  pl_verify_entry e[PL_VERIFY_MAX];
  size_t n;
  size_t skipped;
  size_t skipped_open;          /* skipped one-pass packets not closed */
  pl_data_hash h[PL_VERIFY_MAX];
  size_t n_hashes;
  int data_started;
  /* Set by the caller after init (0 there, as before it existed) when
   * the certificates given are all there will be (no
   * pl_verifier_lookup): a signature by a key none holds is then not
   * hashed.  The decrypt job sets it without a find_cert, and
   * pl_verify_detached always. */
  int certs_final;
} pl_verifier;

/* A verifier for the N_CERTS certificates CERTS (which must outlive it). */
void pl_verifier_init (pl_verifier *v, const pl_cert *const *certs,
                       size_t n_certs);

/* 1 once a signature announced itself: the data must be pushed. */
int pl_verifier_active (const pl_verifier *v);

/* A one-pass signature packet's BODY (LEN octets): before the data only
 * (else GPG_ERR_BAD_DATA).  A version we do not read (not 3 or 6) or a
 * malformed body is GPG_ERR_INV_PACKET (RFC 9580 §5.4 gives no way to
 * skip it and still match the signatures). */
gpg_error_t pl_verifier_onepass (pl_verifier *v, const uint8_t *body,
                                 size_t len);

/* A signature packet's BODY: before the data, one that covers it; after
 * it, the one that closes the newest open one-pass packet (none open:
 * GPG_ERR_BAD_DATA).  A signature we cannot parse gets its verdict
 * (UNSUPPORTED or BAD); only memory errors are returned. */
gpg_error_t pl_verifier_signature (pl_verifier *v, const uint8_t *body,
                                   size_t len);

/* The literal data begins: no one-pass packet may follow. */
void pl_verifier_data_begin (pl_verifier *v);

/* N octets of the literal data, as stored (before any line-ending
 * conversion for output). */
void pl_verifier_push (pl_verifier *v, const uint8_t *p, size_t n);

/* A certificate found when it is needed (the desktop's keyring): the
 * issuer as a signature names it, by fingerprint (FPR_LEN octets; 0 when
 * it names none) and by key ID (NULL when it names none).  Returns the
 * certificate (borrowed: it must outlive the verdicts) or NULL. */
typedef const pl_cert *(*pl_cert_lookup_fn) (void *user_data,
                                             const uint8_t *fpr,
                                             size_t fpr_len,
                                             const uint8_t *keyid);

/* Before pl_verifier_finish: asks LOOKUP for the issuer of every
 * signature read whose issuer no certificate of V (or found before) holds,
 * puts the certificates found into FOUND (PL_VERIFY_MAX, which must
 * outlive V's finish) after V's own, and makes V verify with them.
 * Returns how many FOUND holds. */
size_t pl_verifier_lookup (pl_verifier *v, pl_cert_lookup_fn lookup,
                           void *user_data, const pl_cert **found);

/* The verdicts at NOW into *OUT: every signature in the order it was
 * announced.  A one-pass packet never closed is BAD. */
void pl_verifier_finish (pl_verifier *v, uint32_t now,
                         pl_verifications *out);

/* Frees the hash contexts and signatures; V may be reused after init. */
void pl_verifier_clear (pl_verifier *v);

/* The signature packets of a detached signature SIGS (SIGS_LEN octets:
 * binary, or armored "PGP SIGNATURE" blocks) into V, before any data
 * (pl_verifier_signature each).  Not one signature packet:
 * GPG_ERR_NO_DATA; another packet that is not skippable:
 * GPG_ERR_BAD_DATA; armor and framing errors as they are.  SIGS is not
 * kept.  (detached.h makes a job's stage of it.) */
gpg_error_t pl_verifier_read_detached (pl_verifier *v, const uint8_t *sigs,
                                       size_t sigs_len);

/* Detached signatures (sop verify): every signature packet in SIGS
 * (binary, or armored "PGP SIGNATURE" blocks) over the data read from
 * SRC, against CERTS, at NOW.  Not one signature packet: GPG_ERR_NO_DATA;
 * more than PL_VERIFY_MAX are counted in OUT->skipped; framing errors,
 * read errors as they are. */
gpg_error_t pl_verify_detached (const uint8_t *sigs, size_t sigs_len,
                                pl_source *src, const pl_cert *const *certs,
                                size_t n_certs, uint32_t now,
                                pl_verifications *out);

/* pl_verify_detached, with the certificates of the issuers none of CERTS
 * holds asked of FIND_CERT (FIND_CERT_DATA) once the signatures are read
 * (pl_verifier_lookup: the desktop's keyring); NULL FIND_CERT is
 * pl_verify_detached.  What FIND_CERT returns must outlive OUT. */
gpg_error_t pl_verify_detached_lookup (const uint8_t *sigs, size_t sigs_len,
                                       pl_source *src,
                                       const pl_cert *const *certs,
                                       size_t n_certs,
                                       pl_cert_lookup_fn find_cert,
                                       void *find_cert_data, uint32_t now,
                                       pl_verifications *out);
