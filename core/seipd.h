/* seipd.h - Symmetrically Encrypted Integrity Protected Data, version 1
 * (RFC 9580 §5.13.1): CFB with a random prefix and the MDC
 *
 * The MDC is SHA-1 over the prefix, the plaintext and the octets D3 14; it
 * travels encrypted as the last 22 octets.  On decryption those 22 octets
 * are held back: what the stage releases is known not to be MDC, but it is
 * not yet authenticated; the caller must not make it final before
 * pl_seipd1_decrypt_finish succeeds.
 */
#pragma once

#include <stddef.h>
#include <stdint.h>
#include <gcrypt.h>
#include <gpg-error.h>

#include "worker.h"

/* The MDC packet: D3 14 and a SHA-1. */
#define PL_MDC_PACKET_LEN 22
/* Room a decrypt push needs before its buffer. */
#define PL_SEIPD1_HEADROOM PL_MDC_PACKET_LEN
#define PL_SEIPD1_PREFIX_MAX 18

/* SHA-1 runs at about the speed of CFB encryption, so on more than one
 * core the MDC is computed on a thread of its own, overlapping the
 * cipher.  Pushes smaller than this are hashed inline: a handover costs
 * two thread wake-ups, which is a fifth of hashing 256 KiB (the blocks
 * of an input in memory) and more than the hasher saves there, but a
 * twentieth of hashing the 1 MiB blocks read from a file (bench/README.md
 * has the figures). */
#define PL_SEIPD1_THREAD_MIN (512 * 1024)

typedef struct
{
  gcry_cipher_hd_t cipher;
  gcry_md_hd_t mdc;
  size_t block_len;
  uint8_t held[PL_MDC_PACKET_LEN];
  size_t held_len;
  int threads;                  /* thread budget: > 1 allows the hasher */
  int stable_input;             /* pl_seipd1_set_stable_input */
  const uint8_t *span;          /* stable input pushed, not yet hashed */
  size_t span_len;
  const uint8_t *hashing;       /* the span the hasher was last given */
  size_t hashing_len;
  pl_worker hasher;             /* started on the first large push */
} pl_seipd1;

/* Sets the thread budget (default 1: everything on the caller's thread).
 * Call after init. */
void pl_seipd1_set_threads (pl_seipd1 *st, int threads);

/* Encryption, when every IN pushed stays valid and unchanged until
 * finish (an input borrowed in place, io.h): the hasher is handed what
 * was pushed since its last task, as one span, whenever it is free, and
 * push never waits for it, so that the cipher goes straight on; only a
 * span of PL_SEIPD1_SPAN_MAX, or an IN that does not continue the span,
 * waits for the hasher to take it.  Call after init.  The hasher is
 * then at most two spans behind the cipher: a mapped input
 * (mapsource.c) keeps more than that mapped behind its position, so the
 * hasher never faults dropped pages back in. */
#define PL_SEIPD1_SPAN_MAX (4 * 1024 * 1024)
void pl_seipd1_set_stable_input (pl_seipd1 *st, int stable);

/* No argument may be NULL.  Either init needs no preparation of ST: it
 * overwrites ST, which therefore must not hold what an earlier successful
 * init set up (clear that first).  A failed init leaves ST cleared: it
 * holds nothing to release, pl_seipd1_clear on it is harmless, and init
 * may be called on it again (decrypt.c so tries the next key and clears
 * at the end whatever happened).  An unknown or unsupported cipher is
 * GPG_ERR_CIPHER_ALGO, KEYLEN not the cipher's key length
 * GPG_ERR_BAD_KEY. */

/* Encryption: writes the encrypted prefix (block length + 2 octets) to
 * PREFIX and returns its length in *PREFIX_LEN. */
gpg_error_t pl_seipd1_encrypt_init (pl_seipd1 *st, int cipher_algo,
                                    const uint8_t *key, size_t keylen,
                                    uint8_t *prefix, size_t *prefix_len);
/* Hashes LEN plaintext octets and encrypts them into OUT (may equal IN). */
gpg_error_t pl_seipd1_encrypt_push (pl_seipd1 *st, const uint8_t *in,
                                    uint8_t *out, size_t len);
/* Writes the encrypted MDC packet (22 octets). */
gpg_error_t pl_seipd1_encrypt_finish (pl_seipd1 *st, uint8_t *out);

/* Decryption: PREFIX is the first block length + 2 octets of the body
 * (another PREFIX_LEN is GPG_ERR_TRUNCATED).  A failed quick check is
 * GPG_ERR_BAD_PASSPHRASE (the key is wrong, or, one time in 65536, the
 * data is damaged). */
gpg_error_t pl_seipd1_decrypt_init (pl_seipd1 *st, int cipher_algo,
                                    const uint8_t *key, size_t keylen,
                                    const uint8_t *prefix, size_t prefix_len);

/* Decrypts LEN octets of ciphertext from IN into OUT + PL_SEIPD1_HEADROOM
 * (OUT has room for LEN + PL_SEIPD1_HEADROOM octets; IN may equal
 * OUT + PL_SEIPD1_HEADROOM).  Sets *REL to the start of the plaintext now
 * released (inside OUT) and *RELLEN to its length.
 *
 * With the hasher thread, the released octets are hashed while the caller
 * writes them out: OUT must stay untouched until the next push or finish,
 * and the caller should alternate two OUT buffers so that decryption of
 * one overlaps hashing of the other. */
gpg_error_t pl_seipd1_decrypt_push (pl_seipd1 *st, const uint8_t *in,
                                    size_t len, uint8_t *out, uint8_t **rel,
                                    size_t *rellen);

/* At the end of the body: checks the held-back MDC packet.  Wrong:
 * GPG_ERR_CHECKSUM; too short to hold one: GPG_ERR_TRUNCATED. */
gpg_error_t pl_seipd1_decrypt_finish (pl_seipd1 *st);

/* Stops the hasher, releases the cipher and the MDC hash, and wipes ST
 * (the key schedule, the held-back octets) to zeros.  Safe on a zeroed ST,
 * after a failed init, and twice; ST is not NULL. */
void pl_seipd1_clear (pl_seipd1 *st);
