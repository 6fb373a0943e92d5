/* derive.h - key derivation for one message: a budget, a cache, a cancel
 *
 * A message from a stranger chooses its own S2K specifiers, up to sixteen
 * of them, and each is tried with every passphrase variant.  A derivation
 * context bounds what that may cost before any of it runs:
 *
 *  - one specifier may ask for at most PL_DERIVE_SKESK_CAP units of work
 *    (pl_s2k_cost: Argon2 passes x KiB; hashed octets / 512), which no
 *    real encoder exceeds: RFC 9580 recommends t=1 with 2 GiB or t=3 with
 *    64 MiB, gpg's largest iterated count is 65011712;
 *  - all the distinct (passphrase, specifier, key length) triples a
 *    message may need together at most PL_DERIVE_BUDGET units.
 *
 * Over either, GPG_ERR_TOO_LARGE: "asks for more key-derivation work than
 * Padlock allows".  Each distinct triple is derived once per message; the
 * results stay in secure memory until pl_derive_clear wipes them.  A
 * derivation under way stops within one piece of work (see
 * pl_s2k_derive_controlled) once the cancel flag is set, with
 * GPG_ERR_CANCELED.
 *
 * Passphrases are borrowed: they must outlive the context.
 */
#pragma once

#include <stdatomic.h>
#include <stddef.h>
#include <stdint.h>
#include <gpg-error.h>

#include "s2k.h"

/* The longest S2K output asked for (an AES-256 key). */
#define PL_DERIVE_KEY_MAX 32

/* 2^21 units: Argon2 t=1 over 2 GiB. */
#define PL_DERIVE_SKESK_CAP (1ull << 21)
/* One and a half times that: at worst one-lane Argon2 over 2 GiB and
 * then over 1 GiB; the rfc9580 default (t=3, 64 MiB) fits 16 times,
 * gpg's largest iterated count 24 times (SHA-256) or 12 times (SHA-1:
 * two contexts for a 32-octet key).  README and bench/README.md
 * (bench/derive-budget) have what these take. */
#define PL_DERIVE_BUDGET (3ull << 20)

typedef struct pl_derive_entry pl_derive_entry;

typedef struct
{
  pl_derive_entry *entries;
  size_t n_entries;
  size_t cap_entries;
  uint64_t planned;             /* units the entries ask for in all */
  size_t derivations;           /* S2K runs done (the cache's proof) */
  pl_s2k_control ctl;
  uint32_t argon2_cap_kib;      /* 0: PL_S2K_ARGON2_DEFAULT_CAP_KIB */
} pl_derive;

/* CANCEL may be NULL; THREADS bounds the threads Argon2 lanes use. */
void pl_derive_init (pl_derive *d, const atomic_int *cancel, int threads,
                     uint32_t argon2_cap_kib);
/* Wipes and frees every derived key. */
void pl_derive_clear (pl_derive *d);

/* Announces that KEYLEN octets of S2K may be derived from PASSPHRASE:
 * charges the budget for a triple not seen before.  GPG_ERR_TOO_LARGE
 * over the cap or the budget (nothing is charged then).  The caller
 * plans every (key packet, passphrase variant) it may try before the
 * first pl_derive_key, so that a message over budget is refused before
 * any work. */
gpg_error_t pl_derive_plan (pl_derive *d, const pl_s2k *s2k, size_t keylen,
                            const char *passphrase, size_t passphrase_len);

/* The S2K output for the triple (planned first if it was not): from the
 * cache, or derived now.  *KEY points to KEYLEN octets of the context's
 * secure memory, valid until pl_derive_clear.  GPG_ERR_CANCELED once the
 * cancel flag is set; a cancelled derivation is not kept. */
gpg_error_t pl_derive_key (pl_derive *d, const pl_s2k *s2k, size_t keylen,
                           const char *passphrase, size_t passphrase_len,
                           const uint8_t **key);
