/* derive.h - key derivation for one message: a budget, a cache, a cancel
 *
 * A message from a stranger chooses its own S2K specifiers, up to sixteen
 * of them, and each may be tried with every form of every passphrase.  A
 * derivation context bounds what that may cost:
 *
 *  - one specifier may ask for at most PL_DERIVE_SKESK_CAP units of work
 *    (pl_s2k_cost: Argon2 passes x KiB; hashed octets / 512), which no
 *    real encoder exceeds: RFC 9580 recommends t=1 with 2 GiB or t=3 with
 *    64 MiB, gpg's largest iterated count is 65011712.  One over it is
 *    refused before it runs;
 *  - the derivations that run for the message together at most
 *    PL_DERIVE_BUDGET units.  Only a derivation that runs is charged,
 *    when it is about to run: a key already in the cache costs nothing,
 *    and the candidates after the one that opens the message are never
 *    derived, so never charged.
 *
 * Over either, GPG_ERR_TOO_LARGE: "asks for more key-derivation work than
 * Padlock allows", and nothing more is derived.  The keys come from a
 * derived-key cache (keycache.h): the caller's, shared with other jobs,
 * or one of the context's own, so each distinct (passphrase, specifier,
 * key length) is derived once per message at most; they stay in secure
 * memory until the cache is freed.  A derivation under way stops within
 * one piece of work (see pl_s2k_derive_controlled) once the cancel flag
 * is set, with GPG_ERR_CANCELED.
 */
#pragma once

#include <stdatomic.h>
#include <stddef.h>
#include <stdint.h>
#include <gpg-error.h>

#include "job.h"
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

typedef struct
{
  pl_keycache *cache;           /* borrowed, or OWN_CACHE's */
  pl_keycache *own_cache;       /* made here when the caller has none */
  uint64_t spent;               /* units of the derivations that ran */
  size_t derivations;           /* S2K runs done (the budget's proof) */
  pl_s2k_control ctl;
  uint32_t argon2_cap_kib;      /* 0: PL_S2K_ARGON2_DEFAULT_CAP_KIB */
} pl_derive;

/* CACHE (may be NULL: one of the context's own) keeps the keys; CTL's
 * cancel flag and thread budget hold for every derivation (CTL may be
 * NULL).  GPG_ERR_ENOMEM when no cache could be made. */
gpg_error_t pl_derive_init (pl_derive *d, pl_keycache *cache,
                            const pl_s2k_control *ctl,
                            uint32_t argon2_cap_kib);
/* Frees the context's own cache (wiping its keys); NULL-safe after a
 * failed init. */
void pl_derive_clear (pl_derive *d);

/* The KEYLEN octets of S2K output for (S2K, PASSPHRASE) into KEY (the
 * caller's secure memory): from the cache, or derived now and charged.
 * GPG_ERR_TOO_LARGE over the cap or the budget (nothing is charged or
 * derived then); GPG_ERR_CANCELED once the cancel flag is set (a
 * cancelled derivation is not kept). */
gpg_error_t pl_derive_key (pl_derive *d, const pl_s2k *s2k, size_t keylen,
                           const char *passphrase, size_t passphrase_len,
                           uint8_t *key);
