/* argon2.h - Argon2id, version 0x13 (RFC 9106), for the Argon2 S2K
 *
 * The memory-hard function of RFC 9580 §3.7.1.4, computed here rather
 * than by libgcrypt so that its memory is one huge-page mapping instead
 * of a malloc of small pages, and its compression runs in AVX-512 or
 * AVX2 where the CPU has them (bench/README.md, "Argon2", has what each
 * costs).
 *
 * Only Argon2id (type 2) and only version 0x13.  Every parameter RFC 9106
 * allows is accepted: passes t >= 1, lanes p from 1 to 2^24 - 1, memory
 * m >= 8p KiB, a tag of 4 to 2^32 - 1 octets, and password, salt, secret
 * and associated data of any length (RFC 9106 asks a salt of at least 8
 * octets of its callers; OpenPGP's is 16, and this does not check).
 */
#pragma once

#include <stdatomic.h>
#include <stddef.h>
#include <stdint.h>
#include <gpg-error.h>

typedef struct
{
  const void *password;         /* secret; may be NULL when its length is 0 */
  size_t password_len;
  const void *salt;
  size_t salt_len;
  const void *secret;           /* K, optional: NULL and 0 */
  size_t secret_len;
  const void *ad;               /* X, optional: NULL and 0 */
  size_t ad_len;
  uint32_t passes;              /* t */
  uint32_t lanes;               /* p */
  uint32_t memory_kib;          /* m */
} pl_argon2_params;

/* Computes the Argon2id tag of TAGLEN octets into TAG (secret: the
 * caller's buffer; nothing secret is left on this function's stack or in
 * its heap, and its block memory goes back to the kernel unwiped, which
 * hands out only zeroed pages).
 *
 * The memory, floor (m / 4p) * 4p KiB, is one anonymous mapping aligned
 * to 2 MiB and marked MADV_HUGEPAGE, unmapped before returning.  The
 * lanes of each slice run on up to THREADS threads (0 or 1: the caller's
 * only; never more than p), the caller's among them; the threads meet at
 * every slice boundary.
 *
 * STOP (may be NULL) is polled before each segment a thread starts (a
 * thread fills two lanes' segments at a time, a block of each in turn):
 * once it is non-zero each thread ends the segments it is filling (m /
 * 4p KiB of block fills each) and starts no other, the threads meet at
 * the slice boundary, and the call fails with GPG_ERR_CANCELED, TAG
 * untouched.
 *
 * Errors: GPG_ERR_INV_VALUE for parameters outside the ones above,
 * GPG_ERR_ENOMEM when the memory cannot be mapped, GPG_ERR_CANCELED. */
gpg_error_t pl_argon2id (const pl_argon2_params *params, uint8_t *tag,
                         size_t taglen, int threads, const atomic_int *stop);

/* The compression kernel pl_argon2id uses: "avx512", "avx2" or "scalar".
 * The best the CPU runs is chosen at first use, unless the environment
 * variable PADLOCK_ARGON2_SIMD names another supported one. */
const char *pl_argon2_impl_name (void);

/* For tests and benchmarks: makes later calls use the kernel NAME (NULL:
 * the best one again).  GPG_ERR_NOT_SUPPORTED if this CPU or build has no
 * such kernel.  Not to be called while a pl_argon2id runs. */
gpg_error_t pl_argon2_force_impl (const char *name);
