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

#include <stdatomic.h>

#include "worker.h"

/* The MDC packet: D3 14 and a SHA-1. */
#define PL_MDC_PACKET_LEN 22
/* Room a decrypt push needs before its buffer. */
#define PL_SEIPD1_HEADROOM PL_MDC_PACKET_LEN
#define PL_SEIPD1_PREFIX_MAX 18

/* SHA-1 runs at about the speed of CFB encryption, so on more than one
 * core the MDC is computed on a thread of its own, overlapping the
 * cipher.  Encryption: pushes smaller than this are hashed inline: a handover costs
 * two thread wake-ups, which is a fifth of hashing 256 KiB (the blocks
 * of an input in memory) and more than the hasher saves there, but a
 * twentieth of hashing the 1 MiB blocks read from a file (bench/README.md
 * has the figures). */
#define PL_SEIPD1_THREAD_MIN (512 * 1024)

/* Decryption on more than one core.  The hasher is handed the released
 * plaintext as spans (contiguous releases joined, as on the encrypt
 * side) and holds up to PL_SEIPD1_HASH_DEPTH of them, so that it goes
 * from one to the next without sleeping while the caller decrypts
 * ahead: a buffer's worth at a time, or 64 KiB when it is idle.  CFB
 * decryption is some eight times faster than SHA-1 (bench/README.md),
 * so the caller mostly waits for the hasher to be done with a buffer
 * (pl_seipd1_decrypt_unpin).
 *
 * Adapting to a busy machine, as the AEAD stage does (aead-parallel.c):
 * when the hasher gets no core, the caller would wait for work it could
 * do itself.  So every wait of the caller is scored: a miss when it
 * took queued spans back from a hasher that had not begun them
 * (pl_worker_take_back: it hashes them itself, in order) or waited
 * longer than PL_SEIPD1_MISS_FACTOR times what hashing the buffer takes
 * at the best rate either thread was measured at (thread CPU time, which
 * the load does not stretch); a hit otherwise.  PL_SEIPD1_MISS_LIMIT
 * misses in a row start a spell of hashing on the caller's thread alone
 * (PL_SEIPD1_SOLO_FIRST octets, doubling after every spell that ends in
 * misses again, up to PL_SEIPD1_SOLO_MAX; a hit starts over).  Who
 * hashes a span changes nothing else: the MDC is over the same octets
 * in the same order. */
#define PL_SEIPD1_HASH_DEPTH 8
#define PL_SEIPD1_MISS_FACTOR 1.5
#define PL_SEIPD1_MISS_LIMIT 2
#define PL_SEIPD1_SOLO_FIRST ((uint64_t) 8 << 20)
#define PL_SEIPD1_SOLO_MAX ((uint64_t) 256 << 20)

typedef struct
{
  uint64_t on_caller;           /* octets the caller hashed (threads >= 2) */
  uint64_t on_hasher;           /* octets handed to the hasher */
  uint64_t taken_back;          /* of those, octets the caller took back */
  uint64_t misses;
  uint64_t spells;
  uint64_t on_shared;           /* of ON_HASHER, octets handed to a shared
                                   worker (decrypt_share_hasher) */
} pl_seipd1_stats;

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
  pl_worker *shared;            /* pl_seipd1_share_hasher, or
                                   _decrypt_share_hasher; borrowed */
  gpg_error_t shared_err;       /* decryption: a task of SHARED failed */
  /* Decryption's adapting (see above). */
  uint64_t released;            /* octets released so far */
  uint64_t solo_until;          /* RELEASED below this: hash on the caller */
  pl_spells spells;             /* the hasher's waits scored */
  double best_s_per_octet;      /* the caller's best, 0 unknown */
  _Atomic double hasher_s_per_octet; /* the hasher's best, 0 unknown */
  pl_seipd1_stats stats;
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

/* Encryption: the MDC is hashed on W, a running worker the job shares
 * among its hashes (worker.h, pl_worker_start_shared), instead of a
 * thread of the stage's own; W must outlive the stage's pushes and
 * finish.  The rules above hold, but for one: with a stable input each
 * push goes to W as a span of its own, not joined to the next (behind
 * the signature's task for the same octets, which the thread then
 * hashes again while they are in its cache).  The MDC's spans go in W's
 * one order, behind the other stages' tasks, and a wait for the hasher
 * waits for those too.  NULL, or a W not running, changes nothing.  Call
 * after init and set_threads. */
void pl_seipd1_share_hasher (pl_seipd1 *st, pl_worker *w);

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
 * writes them out: OUT must stay untouched until pl_seipd1_decrypt_unpin
 * over it, finish or clear returns, and the caller should keep a few OUT
 * buffers in turn (decrypt.c keeps three) so that decryption runs ahead
 * of the hashing.  A push whose OUT + PL_SEIPD1_HEADROOM is where the
 * last push's data ended (several pushes into one buffer) releases the
 * octets that follow the last release: the hasher gets them as one
 * span. */
gpg_error_t pl_seipd1_decrypt_push (pl_seipd1 *st, const uint8_t *in,
                                    size_t len, uint8_t *out, uint8_t **rel,
                                    size_t *rellen);

/* With the hasher thread: waits until no hashing reads [P, P + LEN)
 * (a buffer that decrypt_push released plaintext into), after which the
 * caller may change it.  Hands the hasher what is pending first, and
 * hashes on the caller's thread what the hasher did not begin (see
 * "Adapting" above).  At once without the thread. */
void pl_seipd1_decrypt_unpin (pl_seipd1 *st, const uint8_t *p, size_t len);

/* With the hasher thread: hands it the plaintext released so far now,
 * instead of at the next push into another buffer or at unpin, so that
 * it hashes a full buffer while the caller writes it out.  At once
 * without the thread. */
void pl_seipd1_decrypt_flush (pl_seipd1 *st);

/* Decryption, from the next push on: the MDC is hashed on W, a running
 * worker the job shares among its hashes (worker.h,
 * pl_worker_start_shared: decrypt.c, beside a signature's hash), instead
 * of the stage's own thread, whose spans are hashed first.  Each release
 * goes to W as a task of its own, right behind nothing but the tasks
 * before it; an unpin, and a push while W is full, run the tasks W lends
 * (pl_worker_take_back_one) on the caller's thread instead of waiting,
 * so that the two threads share three chains (CFB, SHA-1, the
 * signature's hash).  The spells of "Adapting" above end: the lending is
 * what balances.  A task of W that fails (a cancel in another stage's)
 * drops the MDC's tasks queued behind it: every later push, and finish,
 * return that error.  W must outlive the stage's pushes, finish and
 * clear (clear waits for W's tasks).  NULL, or a W not running, changes
 * nothing.  Call between pushes. */
void pl_seipd1_decrypt_share_hasher (pl_seipd1 *st, pl_worker *w);

/* For the tests: a spell of NOCTETS on the caller's thread alone starts
 * at the next push. */
void pl_seipd1_solo (pl_seipd1 *st, uint64_t noctets);
void pl_seipd1_get_stats (const pl_seipd1 *st, pl_seipd1_stats *stats);

/* At the end of the body: checks the held-back MDC packet.  Wrong:
 * GPG_ERR_CHECKSUM; too short to hold one: GPG_ERR_TRUNCATED. */
gpg_error_t pl_seipd1_decrypt_finish (pl_seipd1 *st);

/* After pl_seipd1_decrypt_finish: 1 when the 22 octets held back start
 * as an MDC packet does (D3 14), whether or not its hash matched; 0 when
 * the body was too short for one or ends in other octets.  decrypt.c
 * tells a missing MDC from a wrong one by it. */
int pl_seipd1_mdc_present (const pl_seipd1 *st);

/* Stops the hasher, releases the cipher and the MDC hash, and wipes ST
 * (the key schedule, the held-back octets) to zeros.  Safe on a zeroed ST,
 * after a failed init, and twice; ST is not NULL. */
void pl_seipd1_clear (pl_seipd1 *st);
