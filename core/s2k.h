/* s2k.h - String-to-key specifiers (RFC 9580 §3.7)
 *
 * Simple (0), salted (1), iterated and salted (3) and Argon2 (4).
 * Derived keys are secret: callers pass buffers from gcry_malloc_secure.
 */
#pragma once

#include <stdatomic.h>
#include <stddef.h>
#include <stdint.h>
#include <gpg-error.h>

enum
{
  PL_S2K_SIMPLE = 0,
  PL_S2K_SALTED = 1,
  PL_S2K_ITERATED = 3,
  PL_S2K_ARGON2 = 4
};

/* The default ceiling on Argon2 memory, in KiB: 2 GiB, enough for the
 * RFC 9580 Appendix A.12 vectors (m = 2^21 KiB). */
#define PL_S2K_ARGON2_DEFAULT_CAP_KIB (2u * 1024 * 1024)

typedef struct
{
  int type;
  int hash_algo;          /* OpenPGP hash id; types 0, 1, 3 */
  uint8_t salt[16];       /* 8 octets for types 1 and 3, 16 for Argon2 */
  uint8_t coded_count;    /* type 3 */
  uint8_t passes;         /* Argon2 t */
  uint8_t parallelism;    /* Argon2 p */
  uint8_t memory_exp;     /* Argon2 m = 2^memory_exp KiB */
} pl_s2k;

/* Parses an S2K specifier from P.  *USED receives its length.  Unknown or
 * GnuPG-private types (101) fail with GPG_ERR_UNSUPPORTED_ALGORITHM. */
gpg_error_t pl_s2k_parse (pl_s2k *s2k, const uint8_t *p, size_t len,
                          size_t *used);

/* The longest specifier as written: Argon2's type, 16-octet salt, t, p
 * and m. */
#define PL_S2K_SPEC_MAX 20

/* Writes the specifier to OUT (at most PL_S2K_SPEC_MAX octets) and
 * returns its length. */
size_t pl_s2k_write (const pl_s2k *s2k, uint8_t *out);

/* Iteration count decoded from the coded octet (RFC 9580 §3.7.1.3). */
unsigned long pl_s2k_decode_count (uint8_t coded);
/* The smallest coded octet whose count is >= COUNT. */
uint8_t pl_s2k_encode_count (unsigned long count);

/* Derives KEYLEN octets of key from the passphrase.  Argon2 memory above
 * ARGON2_CAP_KIB (0 = default cap) fails with GPG_ERR_TOO_LARGE. */
gpg_error_t pl_s2k_derive (const pl_s2k *s2k, const char *passphrase,
                           size_t passphrase_len, uint8_t *key, size_t keylen,
                           uint32_t argon2_cap_kib);

/* Called with 1 when an Argon2 derivation starts to wait for memory
 * (kdf-memory.h), and with 0 when the wait is over, in pairs, on the
 * deriving thread. */
typedef void (*pl_s2k_waiting_fn) (void *arg, int waiting);

/* How a long derivation runs: CANCEL (may be NULL) is polled while it
 * works and while it waits for memory, THREADS (0 or 1: the caller's
 * thread only) bounds the threads Argon2 lanes run on, WAITING (may be
 * NULL) hears of a wait for memory. */
typedef struct
{
  const atomic_int *cancel;
  int threads;
  pl_s2k_waiting_fn waiting;
  void *waiting_arg;
} pl_s2k_control;

/* pl_s2k_derive, cancellable: once *CTL->cancel is non-zero it fails with
 * GPG_ERR_CANCELED within a few milliseconds: the hashed types check
 * after each megabyte hashed; a cancellable Argon2 runs on a helper
 * thread that the caller leaves at once, and that stops once each of
 * its threads ends its current segment (memory / (4 * lanes) KiB of
 * block fills) and unmaps its memory itself.  Every Argon2 derivation
 * (pl_s2k_derive's too) first takes its memory from the process's budget
 * (kdf-memory.h), waiting while others hold it; the helper gives it back
 * once it has freed it. */
gpg_error_t pl_s2k_derive_controlled (const pl_s2k *s2k,
                                      const char *passphrase,
                                      size_t passphrase_len, uint8_t *key,
                                      size_t keylen, uint32_t argon2_cap_kib,
                                      const pl_s2k_control *ctl);

/* The work one derivation of KEYLEN octets asks for, in Argon2 block
 * fills (a pass over one KiB of Argon2 memory): passes x memory for
 * Argon2; octets hashed / PL_S2K_OCTETS_PER_UNIT for the hashed types.
 * The ratio was measured on one core: in the time of a block fill SHA-1
 * hashes about 480 octets and SHA-256 (with SHA-NI) about 960
 * (bench/README.md has the figures). */
#define PL_S2K_OCTETS_PER_UNIT 512
uint64_t pl_s2k_cost (const pl_s2k *s2k, size_t keylen);

/* The iteration count encrypt uses: the largest, 65011712 octets, as a
 * steady work factor (issue 13) rather than a per-launch calibration. */
#define PL_S2K_ITERATED_MAX_COUNT 65011712ul

/* A fresh iterated+salted specifier for HASH_ALGO with the count
 * PL_S2K_ITERATED_MAX_COUNT.  TARGET_MS non-zero is for tests only: the
 * count is then calibrated so that one derivation takes about TARGET_MS
 * on this machine, as gpg-agent calibrates (never below 65536). */
gpg_error_t pl_s2k_new_iterated (pl_s2k *s2k, int hash_algo,
                                 unsigned int target_ms);

/* A fresh Argon2id specifier with a random salt. */
void pl_s2k_new_argon2 (pl_s2k *s2k, uint8_t passes, uint8_t parallelism,
                        uint8_t memory_exp);
