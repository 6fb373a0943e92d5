/* derive.c - key derivation for one message: a budget, a cache, a cancel */
#include "derive.h"
#include "algo.h"

#include <stdlib.h>
#include <string.h>
#include <gcrypt.h>

#define SPEC_MAX 20             /* pl_s2k_write's longest */

struct pl_derive_entry
{
  const char *passphrase;       /* borrowed */
  size_t passphrase_len;
  uint8_t spec[SPEC_MAX];       /* the S2K specifier as written */
  size_t spec_len;
  size_t keylen;
  uint8_t *key;                 /* secret: secure memory, once derived */
};

void
pl_derive_init (pl_derive *d, const atomic_int *cancel, int threads,
                uint32_t argon2_cap_kib)
{
  memset (d, 0, sizeof *d);
  d->ctl.cancel = cancel;
  d->ctl.threads = threads;
  d->argon2_cap_kib = argon2_cap_kib;
}

void
pl_derive_clear (pl_derive *d)
{
  for (size_t i = 0; i < d->n_entries; i++)
    if (d->entries[i].key)
      {
        pl_wipe (d->entries[i].key, d->entries[i].keylen);
        gcry_free (d->entries[i].key);
      }
  if (d->entries)
    {
      pl_wipe (d->entries, d->cap_entries * sizeof *d->entries);
      free (d->entries);
    }
  memset (d, 0, sizeof *d);
}

static pl_derive_entry *
find (pl_derive *d, const uint8_t *spec, size_t spec_len, size_t keylen,
      const char *passphrase, size_t passphrase_len)
{
  for (size_t i = 0; i < d->n_entries; i++)
    {
      pl_derive_entry *e = &d->entries[i];
      if (e->spec_len == spec_len && e->keylen == keylen
          && e->passphrase_len == passphrase_len
          && !memcmp (e->spec, spec, spec_len)
          && !memcmp (e->passphrase, passphrase, passphrase_len))
        return e;
    }
  return NULL;
}

/* The entry for the triple, added and charged when new. */
static gpg_error_t
plan (pl_derive *d, const pl_s2k *s2k, size_t keylen, const char *passphrase,
      size_t passphrase_len, pl_derive_entry **out)
{
  uint8_t spec[SPEC_MAX];
  size_t spec_len = pl_s2k_write (s2k, spec);
  uint64_t cost;
  pl_derive_entry *e;

  *out = NULL;
  if (!keylen || keylen > PL_DERIVE_KEY_MAX)
    return gpg_error (GPG_ERR_INV_KEYLEN);
  e = find (d, spec, spec_len, keylen, passphrase, passphrase_len);
  if (e)
    {
      *out = e;
      return 0;
    }
  cost = pl_s2k_cost (s2k, keylen);
  if (cost > PL_DERIVE_SKESK_CAP || d->planned + cost > PL_DERIVE_BUDGET)
    return gpg_error (GPG_ERR_TOO_LARGE);
  if (d->n_entries == d->cap_entries)
    {
      size_t cap = d->cap_entries ? 2 * d->cap_entries : 16;
      pl_derive_entry *grown = calloc (cap, sizeof *grown);
      if (!grown)
        return gpg_error_from_syserror ();
      if (d->entries)
        {
          memcpy (grown, d->entries, d->n_entries * sizeof *grown);
          pl_wipe (d->entries, d->cap_entries * sizeof *grown);
          free (d->entries);
        }
      d->entries = grown;
      d->cap_entries = cap;
    }
  e = &d->entries[d->n_entries++];
  e->passphrase = passphrase;
  e->passphrase_len = passphrase_len;
  memcpy (e->spec, spec, spec_len);
  e->spec_len = spec_len;
  e->keylen = keylen;
  d->planned += cost;
  *out = e;
  return 0;
}

gpg_error_t
pl_derive_plan (pl_derive *d, const pl_s2k *s2k, size_t keylen,
                const char *passphrase, size_t passphrase_len)
{
  pl_derive_entry *e;
  return plan (d, s2k, keylen, passphrase, passphrase_len, &e);
}

gpg_error_t
pl_derive_key (pl_derive *d, const pl_s2k *s2k, size_t keylen,
               const char *passphrase, size_t passphrase_len,
               const uint8_t **key)
{
  pl_derive_entry *e;
  gpg_error_t err;

  *key = NULL;
  err = plan (d, s2k, keylen, passphrase, passphrase_len, &e);
  if (err)
    return err;
  if (!e->key)
    {
      uint8_t *out = gcry_malloc_secure (e->keylen);
      if (!out)
        return gpg_error_from_syserror ();
      err = pl_s2k_derive_controlled (s2k, passphrase, passphrase_len, out,
                                      e->keylen, d->argon2_cap_kib, &d->ctl);
      if (err)
        {
          /* Not kept: a cancelled derivation is no result. */
          pl_wipe (out, e->keylen);
          gcry_free (out);
          return err;
        }
      e->key = out;
      d->derivations++;
    }
  *key = e->key;
  return 0;
}
