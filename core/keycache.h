/* keycache.h - the derived-key cache: S2K outputs, kept to be used again
 *
 * The one cache of S2K outputs.  Every decryption derives through one
 * (derive.h): its own, for the one message, or the one the options name,
 * shared by the jobs of a drop or of one `padlock --batch` run (many
 * files, one passphrase), so that the S2K, the one step that costs
 * 0.1-2 s a file, runs once:
 *
 *  - encrypting, every file locks with the cache's one S2K specifier (one
 *    salt and count, or one set of Argon2 parameters), derived by the
 *    first job that asks; each file still gets its own random session
 *    key, wrapped in its own SKESK (keys.c).  What that costs: anyone who
 *    sees the files can tell that they were made with one passphrase.
 *    (SKESK v4 with a key shorter than 32 octets does not share: see
 *    keycache_may_share in keys.c);
 *  - decrypting, each distinct (passphrase, specifier, key length) is
 *    derived once and remembered, so that files Padlock made together
 *    open with one derivation.  The keys made for encryption open those
 *    files too (checking an output before its original is deleted
 *    costs no derivation).
 *
 * Derived keys live in secure memory until pl_keycache_free wipes them;
 * the passphrases are copied there too, and compared in constant time.
 * Decryption keeps at most PL_KEYCACHE_OPEN_KEYS of its keys (the oldest
 * goes first), so that 10,000 files made one by one (a salt each, nothing
 * to share) do not exhaust secure memory; files Padlock made together
 * need one.  A job that asks for a key that another job is deriving
 * waits for it, and stops waiting (with GPG_ERR_CANCELED) once its own
 * cancel flag is set.  A derivation that fails or is cancelled is not
 * kept: the next job that asks derives again.  Different keys derive in
 * parallel, one per asking thread.
 *
 * All functions but pl_keycache_free are thread-safe.
 */
#pragma once

#include <stdatomic.h>
#include <stddef.h>
#include <gpg-error.h>

#include "job.h"
#include "s2k.h"
#include "skesk.h"

/* An S2K output and the specifier it came from: secret, so in secure
 * memory. */
typedef struct
{
  pl_s2k s2k;
  size_t len;                   /* octets of KEY: the SKESK cipher's key */
  uint8_t key[PL_SESSION_KEY_MAX];
} pl_derived_key;

#define PL_KEYCACHE_OPEN_KEYS 64

/* The jobs' key derivation: fills KEY (its s2k already set when
 * decrypting; the derivation picks it when encrypting) with KEY->len
 * octets of S2K output.  Called without the cache's lock held. */
typedef gpg_error_t (*pl_keycache_derive_fn) (void *arg, pl_derived_key *key);

gpg_error_t pl_keycache_new (pl_keycache **out);
/* Wipes and frees every key and passphrase; NULL is fine.  No job may
 * use the cache any more. */
void pl_keycache_free (pl_keycache *b);

/* S2K runs made through the cache: what tests count. */
size_t pl_keycache_derivations (pl_keycache *b);

/* Encryption: the cache's key for REQUEST (opaque octets, at most 64:
 * what the caller asks of the specifier, e.g. the profile and its
 * parameters) and PASSPHRASE, of KEYLEN octets.  The first call runs
 * DERIVE, which chooses a fresh specifier and derives with it; every
 * later call with equal REQUEST, PASSPHRASE and KEYLEN gets the same
 * key, copied into *KEY (the caller's secure memory). */
gpg_error_t pl_keycache_lock_key (pl_keycache *b, const void *request,
                               size_t request_len, const char *passphrase,
                               size_t passphrase_len, size_t keylen,
                               const atomic_int *cancel,
                               pl_keycache_derive_fn derive, void *arg,
                               pl_derived_key *key);

/* Decryption: the KEYLEN octets of S2K output for (S2K, PASSPHRASE), from
 * the cache or derived now by DERIVE (and kept), copied into KEY (the
 * caller's secure memory, KEYLEN octets). */
gpg_error_t pl_keycache_open_key (pl_keycache *b, const pl_s2k *s2k,
                               size_t keylen, const char *passphrase,
                               size_t passphrase_len,
                               const atomic_int *cancel,
                               pl_keycache_derive_fn derive, void *arg,
                               uint8_t *key);
