/* keycache.c - the derived-key cache */
#include "keycache.h"
#include "condwait.h"
#include "algo.h"

#include <errno.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <gcrypt.h>

#define REQUEST_MAX 64
/* How often a job waiting for another's derivation looks at its own
 * cancel flag. */
#define WAIT_POLL_NS (50 * 1000 * 1000)

typedef struct
{
  uint8_t request[REQUEST_MAX]; /* encryption's; request_len 0: decryption's */
  size_t request_len;
  uint8_t spec[PL_S2K_SPEC_MAX];       /* the specifier as written; 0 long while an
                                 * encryption key is being made */
  size_t spec_len;
  char *passphrase;             /* secret: after KEY, in its allocation */
  size_t passphrase_len;
  size_t keylen;
  pl_derived_key *key;          /* secret: secure memory */
  int ready;
} entry;

struct pl_keycache
{
  pthread_mutex_t lock;
  pthread_cond_t changed;       /* an entry became ready or went away */
  entry **entries;
  size_t n_entries;
  size_t cap_entries;
  size_t derivations;
};

gpg_error_t
pl_keycache_new (pl_keycache **out)
{
  pl_keycache *b = calloc (1, sizeof *b);

  *out = b;
  if (!b)
    return gpg_error_from_syserror ();
  pthread_mutex_init (&b->lock, NULL);
  pthread_cond_init (&b->changed, NULL);
  return 0;
}

static void
entry_free (entry *e)
{
  if (!e)
    return;
  if (e->key)
    pl_wipe (e->key, sizeof *e->key + e->passphrase_len + 1);
  gcry_free (e->key);
  pl_wipe (e, sizeof *e);
  free (e);
}

void
pl_keycache_free (pl_keycache *b)
{
  if (!b)
    return;
  for (size_t i = 0; i < b->n_entries; i++)
    entry_free (b->entries[i]);
  free (b->entries);
  pthread_cond_destroy (&b->changed);
  pthread_mutex_destroy (&b->lock);
  free (b);
}

size_t
pl_keycache_derivations (pl_keycache *b)
{
  size_t n;

  pthread_mutex_lock (&b->lock);
  n = b->derivations;
  pthread_mutex_unlock (&b->lock);
  return n;
}

/* WANT's fields name the key: a request (encryption) or a specifier
 * (decryption), the passphrase and the length. */
static int
entry_matches (const entry *e, const entry *want)
{
  if (e->keylen != want->keylen
      || e->passphrase_len != want->passphrase_len
      || !pl_equal_const_time (e->passphrase, want->passphrase,
                               want->passphrase_len))
    return 0;
  if (want->request_len)
    return e->request_len == want->request_len
           && !memcmp (e->request, want->request, want->request_len);
  return e->spec_len == want->spec_len
         && !memcmp (e->spec, want->spec, want->spec_len);
}

static entry *
find (pl_keycache *b, const entry *want)
{
  for (size_t i = 0; i < b->n_entries; i++)
    if (entry_matches (b->entries[i], want))
      return b->entries[i];
  return NULL;
}

/* Takes E out of the cache (keeping the others' order: oldest first). */
static void
forget (pl_keycache *b, entry *e)
{
  for (size_t i = 0; i < b->n_entries; i++)
    if (b->entries[i] == e)
      {
        memmove (b->entries + i, b->entries + i + 1,
                 (b->n_entries - i - 1) * sizeof *b->entries);
        b->n_entries--;
        break;
      }
  entry_free (e);
}

/* Makes room for one more decryption key: the oldest ready one goes. */
static void
bound_open_keys (pl_keycache *b)
{
  size_t n = 0;
  entry *oldest = NULL;

  for (size_t i = 0; i < b->n_entries; i++)
    if (!b->entries[i]->request_len)
      {
        n++;
        if (!oldest && b->entries[i]->ready)
          oldest = b->entries[i];
      }
  if (n >= PL_KEYCACHE_OPEN_KEYS && oldest)
    forget (b, oldest);
}

/* A pending copy of WANT in the cache, its secrets in secure memory. */
static gpg_error_t
add (pl_keycache *b, const entry *want, const pl_s2k *s2k, entry **out)
{
  entry *e = calloc (1, sizeof *e);

  *out = NULL;
  if (!e)
    return gpg_error_from_syserror ();
  *e = *want;
  /* One allocation for the key and the passphrase: secure memory is a
   * pool of 1 MiB (pl_init). */
  e->key = gcry_calloc_secure (1, sizeof *e->key + want->passphrase_len + 1);
  e->passphrase = e->key ? (char *) (e->key + 1) : NULL;
  if (e->passphrase)
    memcpy (e->passphrase, want->passphrase, want->passphrase_len);
  if (!want->request_len)
    bound_open_keys (b);
  if (b->n_entries == b->cap_entries && e->key)
    {
      size_t cap = b->cap_entries ? 2 * b->cap_entries : 8;
      entry **grown = realloc (b->entries, cap * sizeof *grown);

      if (grown)
        {
          b->entries = grown;
          b->cap_entries = cap;
        }
    }
  if (!e->key || b->n_entries == b->cap_entries)
    {
      entry_free (e);
      return gpg_error (GPG_ERR_ENOMEM);
    }
  e->key->len = want->keylen;
  if (s2k)
    e->key->s2k = *s2k;
  b->entries[b->n_entries++] = e;
  *out = e;
  return 0;
}

/* Waits a little for another job's derivation, unless CANCEL is set. */
static gpg_error_t
wait_for_other (pl_keycache *b, const atomic_int *cancel)
{
  if (cancel && atomic_load (cancel))
    return gpg_error (GPG_ERR_CANCELED);
  pl_cond_wait_ns (&b->changed, &b->lock, WAIT_POLL_NS);
  return 0;
}

/* The key WANT names: ready, awaited, or derived here (the lock is
 * released while DERIVE runs, so that other keys derive meanwhile), and
 * copied into OUT under the lock (an old key may go once it is out). */
static gpg_error_t
get_key (pl_keycache *b, const entry *want, const pl_s2k *s2k,
         const atomic_int *cancel, pl_keycache_derive_fn derive, void *arg,
         pl_derived_key *out)
{
  entry *e;
  gpg_error_t err = 0;

  pthread_mutex_lock (&b->lock);
  while ((e = find (b, want)) && !e->ready && !err)
    err = wait_for_other (b, cancel);
  if (!err && e)
    *out = *e->key;
  if (err || e)
    {
      pthread_mutex_unlock (&b->lock);
      return err;
    }
  err = add (b, want, s2k, &e);
  pthread_mutex_unlock (&b->lock);
  if (err)
    return err;

  err = derive (arg, e->key);

  pthread_mutex_lock (&b->lock);
  if (err)
    forget (b, e);
  else
    {
      if (!e->spec_len)
        e->spec_len = pl_s2k_write (&e->key->s2k, e->spec);
      e->ready = 1;
      b->derivations++;
      *out = *e->key;
    }
  pthread_cond_broadcast (&b->changed);
  pthread_mutex_unlock (&b->lock);
  return err;
}

gpg_error_t
pl_keycache_lock_key (pl_keycache *b, const void *request, size_t request_len,
                   const char *passphrase, size_t passphrase_len,
                   size_t keylen, const atomic_int *cancel,
                   pl_keycache_derive_fn derive, void *arg,
                   pl_derived_key *key)
{
  entry want = { 0 };

  if (!request_len || request_len > REQUEST_MAX || !keylen
      || keylen > PL_SESSION_KEY_MAX)
    return gpg_error (GPG_ERR_INV_ARG);
  memcpy (want.request, request, request_len);
  want.request_len = request_len;
  want.passphrase = (char *) passphrase;
  want.passphrase_len = passphrase_len;
  want.keylen = keylen;
  return get_key (b, &want, NULL, cancel, derive, arg, key);
}

gpg_error_t
pl_keycache_open_key (pl_keycache *b, const pl_s2k *s2k, size_t keylen,
                   const char *passphrase, size_t passphrase_len,
                   const atomic_int *cancel, pl_keycache_derive_fn derive,
                   void *arg, uint8_t *key)
{
  entry want = { 0 };
  pl_derived_key *got;
  gpg_error_t err;

  if (!keylen || keylen > PL_SESSION_KEY_MAX)
    return gpg_error (GPG_ERR_INV_KEYLEN);
  got = gcry_malloc_secure (sizeof *got);
  if (!got)
    return gpg_error (GPG_ERR_ENOMEM);
  want.spec_len = pl_s2k_write (s2k, want.spec);
  want.passphrase = (char *) passphrase;
  want.passphrase_len = passphrase_len;
  want.keylen = keylen;
  err = get_key (b, &want, s2k, cancel, derive, arg, got);
  if (!err)
    memcpy (key, got->key, keylen);
  pl_wipe (got, sizeof *got);
  gcry_free (got);
  return err;
}
