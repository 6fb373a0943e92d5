/* batch.h - key derivation shared by the jobs of one batch
 *
 * A batch is the files of one drop, one `padlock --batch` run: many jobs,
 * one passphrase.  Their jobs run on parallel threads and share one
 * pl_batch (the options' batch field), so that the S2K, the one step that
 * costs 0.1-1 s a file, runs once:
 *
 *  - encrypting, every file locks with the batch's one S2K specifier (one
 *    salt and count, or one set of Argon2 parameters), derived by the
 *    first job that asks; each file still gets its own random session
 *    key, wrapped in its own SKESK (keys.c).  What that costs: anyone who
 *    sees the files can tell that they were made with one passphrase.
 *    (SKESK v4 with a key shorter than 32 octets does not share: see
 *    batch_may_share in keys.c);
 *  - decrypting, each distinct (passphrase, specifier, key length) is
 *    derived once and remembered, so that a batch Padlock made opens with
 *    one derivation.  The keys a batch made for encryption open its own
 *    files too (verifying an output costs no derivation).
 *
 * Derived keys live in secure memory until pl_batch_free wipes them;
 * the passphrases are copied there too.  Decryption keeps at most
 * PL_BATCH_OPEN_KEYS of its keys (the oldest goes first), so that a
 * batch of 10,000 files made one by one (a salt each, nothing to share)
 * does not exhaust secure memory; a batch made by Padlock needs one.  A job that asks for a key that
 * another job is deriving waits for it, and stops waiting (with
 * GPG_ERR_CANCELED) once its own cancel flag is set.  A derivation that
 * fails or is cancelled is not kept: the next job that asks derives
 * again.  Different keys derive in parallel, one per asking thread.
 *
 * All functions but pl_batch_free are thread-safe.
 */
#pragma once

#include <stdatomic.h>
#include <stddef.h>
#include <gpg-error.h>

#include "keys.h"

#define PL_BATCH_OPEN_KEYS 64

/* The jobs' key derivation: fills KEY (its s2k already set when
 * decrypting; the derivation picks it when encrypting) with KEY->len
 * octets of S2K output.  Called without the batch's lock held. */
typedef gpg_error_t (*pl_batch_derive_fn) (void *arg, pl_derived_key *key);

gpg_error_t pl_batch_new (pl_batch **out);
/* Wipes and frees every key and passphrase; NULL is fine.  No job may
 * use the batch any more. */
void pl_batch_free (pl_batch *b);

/* S2K runs the batch has made: what tests count. */
size_t pl_batch_derivations (pl_batch *b);

/* Encryption: the batch's key for REQUEST (opaque octets, at most 64:
 * what the caller asks of the specifier, e.g. the profile and its
 * parameters) and PASSPHRASE, of KEYLEN octets.  The first call runs
 * DERIVE, which chooses a fresh specifier and derives with it; every
 * later call with equal REQUEST, PASSPHRASE and KEYLEN gets the same
 * key, copied into *KEY (the caller's secure memory). */
gpg_error_t pl_batch_lock_key (pl_batch *b, const void *request,
                               size_t request_len, const char *passphrase,
                               size_t passphrase_len, size_t keylen,
                               const atomic_int *cancel,
                               pl_batch_derive_fn derive, void *arg,
                               pl_derived_key *key);

/* Decryption: the KEYLEN octets of S2K output for (S2K, PASSPHRASE), from
 * the batch or derived now by DERIVE (and kept), copied into KEY (the
 * caller's secure memory, KEYLEN octets). */
gpg_error_t pl_batch_open_key (pl_batch *b, const pl_s2k *s2k,
                               size_t keylen, const char *passphrase,
                               size_t passphrase_len,
                               const atomic_int *cancel,
                               pl_batch_derive_fn derive, void *arg,
                               uint8_t *key);
