/* derive.c - key derivation for one message: a budget, a cache, a cancel */
#include "derive.h"
#include "keycache.h"

#include <string.h>

gpg_error_t
pl_derive_init (pl_derive *d, pl_keycache *cache, const pl_s2k_control *ctl,
                uint32_t argon2_cap_kib)
{
  memset (d, 0, sizeof *d);
  if (ctl)
    d->ctl = *ctl;
  d->argon2_cap_kib = argon2_cap_kib;
  d->cache = cache;
  if (!cache)
    {
      gpg_error_t err = pl_keycache_new (&d->own_cache);
      if (err)
        return err;
      d->cache = d->own_cache;
    }
  return 0;
}

void
pl_derive_clear (pl_derive *d)
{
  pl_keycache_free (d->own_cache);
  memset (d, 0, sizeof *d);
}

typedef struct
{
  pl_derive *d;
  const char *passphrase;
  size_t passphrase_len;
  uint64_t cost;
} derivation;

/* The cache's derivation: runs only when the key is not in the cache,
 * so this is where the budget is charged. */
static gpg_error_t
run_derivation (void *arg, pl_derived_key *key)
{
  derivation *run = arg;
  pl_derive *d = run->d;

  if (d->spent + run->cost > PL_DERIVE_BUDGET)
    return gpg_error (GPG_ERR_TOO_LARGE);
  d->spent += run->cost;
  d->derivations++;
  return pl_s2k_derive_controlled (&key->s2k, run->passphrase,
                                   run->passphrase_len, key->key, key->len,
                                   d->argon2_cap_kib, &d->ctl);
}

gpg_error_t
pl_derive_key (pl_derive *d, const pl_s2k *s2k, size_t keylen,
               const char *passphrase, size_t passphrase_len, uint8_t *key)
{
  derivation run = { d, passphrase, passphrase_len, 0 };

  if (!keylen || keylen > PL_DERIVE_KEY_MAX)
    return gpg_error (GPG_ERR_INV_KEYLEN);
  run.cost = pl_s2k_cost (s2k, keylen);
  if (run.cost > PL_DERIVE_SKESK_CAP)
    return gpg_error (GPG_ERR_TOO_LARGE);
  return pl_keycache_open_key (d->cache, s2k, keylen, passphrase,
                               passphrase_len, d->ctl.cancel, run_derivation,
                               &run, key);
}
