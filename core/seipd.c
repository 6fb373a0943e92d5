/* seipd.c - SEIPD v1: CFB with a random prefix, and the MDC */
#include "seipd.h"
#include "algo.h"

#include <string.h>
#include <time.h>

/* Spans smaller than this are hashed on the caller's thread when the
 * hasher is idle: a handover costs a wake-up of the hasher, more than
 * hashing them (decryption only; see seipd.h). */
#define INLINE_MAX (64 * 1024)
/* How long a hasher that has not begun gets before the caller takes its
 * spans back, before either thread's rate was measured: SHA-1 of
 * PL_SEIPD1_THREAD_MIN, and more, at the rates bench/README.md gives. */
#define GRACE_UNKNOWN 0.002

static gpg_error_t
hash_task (void *arg, const uint8_t *p, size_t n)
{
  gcry_md_write ((gcry_md_hd_t) arg, p, n);
  return 0;
}

/* The worker that hashes: the job's shared one, or the stage's own. */
static pl_worker *
hasher_of (pl_seipd1 *st)
{
  return st->shared ? st->shared : &st->hasher;
}

/* The hasher, when the budget allows it and the push is worth it; NULL
 * means hash inline (also when the thread could not start). */
static pl_worker *
use_hasher (pl_seipd1 *st, size_t len)
{
  if (st->threads < 2 || len < PL_SEIPD1_THREAD_MIN)
    {
      pl_worker_wait (hasher_of (st));
      return NULL;
    }
  /* A thread that cannot start leaves the hashing inline. */
  if (!pl_worker_running (hasher_of (st)))
    {
      if (pl_worker_start (&st->hasher, hash_task, st->mdc))
        return NULL;
      pl_worker_name (&st->hasher, "pl-mdc");
    }
  return hasher_of (st);
}

void
pl_seipd1_set_threads (pl_seipd1 *st, int threads)
{
  st->threads = threads;
}

void
pl_seipd1_share_hasher (pl_seipd1 *st, pl_worker *w)
{
  st->shared = w && pl_worker_running (w) ? w : NULL;
}

void
pl_seipd1_set_stable_input (pl_seipd1 *st, int stable)
{
  st->stable_input = stable;
}

static gpg_error_t
open_cipher (pl_seipd1 *st, int cipher_algo, const uint8_t *key,
             size_t keylen)
{
  int algo = pl_cipher_gcry_algo (cipher_algo);
  gpg_error_t err;

  memset (st, 0, sizeof *st);
  if (!algo)
    return gpg_error (GPG_ERR_CIPHER_ALGO);
  if (keylen != pl_cipher_key_length (cipher_algo))
    return gpg_error (GPG_ERR_BAD_KEY);
  st->block_len = pl_cipher_block_length (cipher_algo);
  /* SEIPD v1 is plain CFB from a zero IV over the whole body: the random
   * prefix does the IV's work and there is no OpenPGP resync. */
  err = gcry_cipher_open (&st->cipher, algo, GCRY_CIPHER_MODE_CFB,
                          GCRY_CIPHER_SECURE);
  if (!err)
    err = gcry_cipher_setkey (st->cipher, key, keylen);
  if (!err)
    err = gcry_md_open (&st->mdc, GCRY_MD_SHA1, 0);
  if (err)
    pl_seipd1_clear (st);
  return err;
}

gpg_error_t
pl_seipd1_encrypt_init (pl_seipd1 *st, int cipher_algo, const uint8_t *key,
                        size_t keylen, uint8_t *prefix, size_t *prefix_len)
{
  gpg_error_t err = open_cipher (st, cipher_algo, key, keylen);
  size_t bl;

  if (err)
    return err;
  bl = st->block_len;
  gcry_create_nonce (prefix, bl);
  prefix[bl] = prefix[bl - 2];
  prefix[bl + 1] = prefix[bl - 1];
  *prefix_len = bl + 2;
  return pl_seipd1_encrypt_push (st, prefix, prefix, bl + 2);
}

/* Hands the pending span to the hasher (waiting for its last task). */
static void
hash_span_submit (pl_seipd1 *st)
{
  if (!st->span_len)
    return;
  if (st->shared)
    pl_worker_submit_sharing (st->shared, hash_task, st->mdc, st->span,
                              st->span_len);
  else
    pl_worker_submit (&st->hasher, st->span, st->span_len);
  st->hashing = st->span;
  st->hashing_len = st->span_len;
  st->span_len = 0;
}

/* P, N joins the pending span; a span it does not continue is handed
 * on first, by FLUSH. */
static void
span_join (pl_seipd1 *st, const uint8_t *p, size_t n,
           void (*flush) (pl_seipd1 *))
{
  if (st->span_len && st->span + st->span_len != p)
    flush (st);
  if (!st->span_len)
    st->span = p;
  st->span_len += n;
}

/* Stable input: IN joins the pending span, which goes to the hasher
 * as soon as it is free (or is too long to wait). */
static void
hash_span_add (pl_seipd1 *st, const uint8_t *in, size_t len)
{
  span_join (st, in, len, hash_span_submit);
  /* A shared worker gets each push as a task of its own, right behind
   * the signature's task for the same octets: the thread hashes them a
   * second time while they are in its cache (joined into spans of up to
   * 4 MiB, a signed encryption ran at 0.898-0.903 of the unsigned
   * speed against 0.914-0.927, three sig-speed runs of each). */
  if (st->span_len >= PL_SEIPD1_SPAN_MAX || st->shared
      || !pl_worker_reading (hasher_of (st), st->hashing, st->hashing_len))
    hash_span_submit (st);
}

gpg_error_t
pl_seipd1_encrypt_push (pl_seipd1 *st, const uint8_t *in, uint8_t *out,
                        size_t len)
{
  pl_worker *h;
  gpg_error_t err;

  /* Hashed inline or not, IN comes after the span in the MDC. */
  if (st->span_len && (in == out || len < PL_SEIPD1_THREAD_MIN))
    hash_span_submit (st);
  h = in == out ? NULL : use_hasher (st, len);
  if (h && st->stable_input)
    {
      hash_span_add (st, in, len);
      return gcry_cipher_encrypt (st->cipher, out, len, in, len);
    }
  if (!h)
    {
      gcry_md_write (st->mdc, in, len);
      if (in == out)
        return gcry_cipher_encrypt (st->cipher, out, len, NULL, 0);
      return gcry_cipher_encrypt (st->cipher, out, len, in, len);
    }
  /* The hasher reads IN while we encrypt it into OUT; IN is the caller's
   * again when we return, so wait. */
  pl_worker_submit_task (h, hash_task, st->mdc, in, len);
  err = gcry_cipher_encrypt (st->cipher, out, len, in, len);
  pl_worker_wait (h);
  return err;
}

gpg_error_t
pl_seipd1_encrypt_finish (pl_seipd1 *st, uint8_t *out)
{
  hash_span_submit (st);
  pl_worker_wait (hasher_of (st));
  out[0] = 0xD3;
  out[1] = 0x14;
  gcry_md_write (st->mdc, out, 2);
  memcpy (out + 2, gcry_md_read (st->mdc, GCRY_MD_SHA1), 20);
  return gcry_cipher_encrypt (st->cipher, out, PL_MDC_PACKET_LEN, NULL, 0);
}

/* ---- Decryption's hasher (seipd.h, "Decryption on more than one core") */

static double
clock_s (clockid_t clock)
{
  struct timespec ts;

  clock_gettime (clock, &ts);
  return (double) ts.tv_sec + ts.tv_nsec / 1e9;
}

/* The hasher's task when decrypting: it times itself in its thread's CPU
 * time, which says how fast it hashes when it has a core. */
static gpg_error_t
hash_task_timed (void *arg, const uint8_t *p, size_t n)
{
  pl_seipd1 *st = arg;
  double t0 = n >= INLINE_MAX ? clock_s (CLOCK_THREAD_CPUTIME_ID) : 0;

  gcry_md_write (st->mdc, p, n);
  if (t0)
    {
      double r = (clock_s (CLOCK_THREAD_CPUTIME_ID) - t0) / (double) n;
      double best = atomic_load (&st->hasher_s_per_octet);

      if (r > 0 && (!best || r < best))
        atomic_store (&st->hasher_s_per_octet, r);
    }
  return 0;
}

/* Hashes P, N on the caller's thread, timed as the hasher is. */
static void
hash_on_caller (pl_seipd1 *st, const uint8_t *p, size_t n)
{
  double t0 = n >= INLINE_MAX ? clock_s (CLOCK_THREAD_CPUTIME_ID) : 0;

  gcry_md_write (st->mdc, p, n);
  if (st->threads >= 2)
    st->stats.on_caller += n;
  if (t0)
    {
      double r = (clock_s (CLOCK_THREAD_CPUTIME_ID) - t0) / (double) n;

      if (r > 0 && (!st->best_s_per_octet || r < st->best_s_per_octet))
        st->best_s_per_octet = r;
    }
}

/* The best rate measured on either thread, seconds per octet; 0 when
 * none was. */
static double
best_rate (pl_seipd1 *st)
{
  double h = atomic_load (&st->hasher_s_per_octet);
  double c = st->best_s_per_octet;

  return !h ? c : !c ? h : h < c ? h : c;
}

/* Scores a wait for the hasher: HIT 0 for a miss.  PL_SEIPD1_MISS_LIMIT
 * misses in a row start a spell on the caller's thread. */
static void
score (pl_seipd1 *st, int hit)
{
  uint64_t spell = pl_spells_score (&st->spells, hit, PL_SEIPD1_MISS_LIMIT,
                                    PL_SEIPD1_SOLO_FIRST, PL_SEIPD1_SOLO_MAX);

  if (!hit)
    st->stats.misses++;
  if (spell)
    pl_seipd1_solo (st, spell);
}

/* Takes back what the hasher has not begun and hashes it here; returns
 * the octets so hashed. */
static size_t
take_back (pl_seipd1 *st)
{
  pl_worker_task t[PL_WORKER_DEPTH_MAX];
  int n = pl_worker_take_back (&st->hasher, t);
  size_t octets = 0;

  for (int i = 0; i < n; i++)
    {
      hash_on_caller (st, t[i].p, t[i].n);
      octets += t[i].n;
    }
  st->stats.taken_back += octets;
  return octets;
}

/* Waits until the hasher has room (P NULL) or reads nothing of [P, P +
 * LEN).  A hasher that has not begun what it holds gets GRACE_FACTOR
 * times what hashing LEN would take it (GRACE_UNKNOWN seconds before a
 * rate was measured), then the caller takes it back.  The wait is
 * scored. */
static void
hasher_wait (pl_seipd1 *st, const uint8_t *p, size_t len)
{
  double rate = best_rate (st);
  size_t octets = p ? len : PL_SEIPD1_SPAN_MAX;
  double limit = rate ? PL_SEIPD1_MISS_FACTOR * rate * (double) octets
                      : GRACE_UNKNOWN;
  double start = clock_s (CLOCK_MONOTONIC), waited = 0;
  size_t took = 0;

  while (p ? pl_worker_reading (&st->hasher, p, len)
           : pl_worker_full (&st->hasher))
    {
      waited = clock_s (CLOCK_MONOTONIC) - start;
      if (waited >= limit)
        {
          size_t n = take_back (st);

          took += n;
          if (n)
            continue;
        }
      pl_worker_wait_running (&st->hasher, limit - waited);
    }
  if (took || waited > 0)
    score (st, !took && waited <= limit);
}

static void dec_span_submit (pl_seipd1 *st);

/* A shared worker (pl_seipd1_decrypt_share_hasher): until no task of
 * W reads [P, P + LEN) (P NULL: until W holds no task), runs the tasks W
 * lends, of any stage, on this thread, and otherwise waits for the task
 * running.  A failed task's error is kept in SHARED_ERR. */
static void
shared_wait (pl_seipd1 *st, const uint8_t *p, size_t len)
{
  pl_worker *w = st->shared;
  gpg_error_t err;

  while (p ? pl_worker_reading (w, p, len) : pl_worker_busy (w))
    if (pl_worker_run_lent (w, &err))
      {
        if (err && !st->shared_err)
          st->shared_err = err;
      }
    else
      pl_worker_wait_running (w, 0.001);
}

/* Every span handed to the hasher is hashed when this returns, on
 * whichever thread; then the pending one, here. */
static void
hash_drain (pl_seipd1 *st)
{
  if (st->shared)
    {
      dec_span_submit (st);
      shared_wait (st, NULL, 0);
      if (!st->shared_err)
        st->shared_err = pl_worker_wait (st->shared);
      return;
    }
  while (pl_worker_busy (&st->hasher))
    if (!take_back (st))
      pl_worker_wait_running (&st->hasher, 0);
  if (st->span_len)
    hash_on_caller (st, st->span, st->span_len);
  st->span_len = 0;
}

/* Hands the pending span to the hasher (started here), or hashes it
 * here when the thread cannot start. */
static void
dec_span_submit (pl_seipd1 *st)
{
  if (!st->span_len)
    return;
  if (st->shared)
    {
      gpg_error_t err = pl_worker_submit_sharing (st->shared,
                                                  hash_task_timed, st,
                                                  st->span, st->span_len);

      if (err && !st->shared_err)
        st->shared_err = err;
      st->stats.on_hasher += st->span_len;
      st->stats.on_shared += st->span_len;
      st->span_len = 0;
      return;
    }
  if (!pl_worker_running (&st->hasher))
    {
      if (pl_worker_start_queue (&st->hasher, hash_task_timed, st,
                                 PL_SEIPD1_HASH_DEPTH))
        {
          hash_on_caller (st, st->span, st->span_len);
          st->span_len = 0;
          return;
        }
      pl_worker_name (&st->hasher, "pl-mdc");
    }
  if (pl_worker_full (&st->hasher))
    hasher_wait (st, NULL, 0);
  pl_worker_submit (&st->hasher, st->span, st->span_len);
  st->stats.on_hasher += st->span_len;
  st->span_len = 0;
}

/* The pending span, small, to an idle hasher: hashed here (a handover
 * would cost more); otherwise handed over. */
static void
dec_span_flush (pl_seipd1 *st)
{
  if (st->span_len && st->span_len < INLINE_MAX
      && !pl_worker_busy (hasher_of (st)))
    {
      hash_on_caller (st, st->span, st->span_len);
      st->span_len = 0;
    }
  dec_span_submit (st);
}

/* Released plaintext P, N joins the pending span, which goes to the
 * hasher once it is PL_SEIPD1_SPAN_MAX, or INLINE_MAX when the hasher
 * is idle; otherwise when the next push does not continue it (the
 * caller went on to another buffer) or at unpin.  So a busy hasher gets
 * a buffer a task: its waiting caller is woken once a buffer. */
static void
dec_span_add (pl_seipd1 *st, const uint8_t *p, size_t n)
{
  span_join (st, p, n, dec_span_flush);
  /* A shared worker gets each release as a task of its own, so that the
   * signature's task for the same octets follows it at once. */
  if (st->span_len >= PL_SEIPD1_SPAN_MAX || st->shared
      || (st->span_len >= INLINE_MAX && !pl_worker_busy (&st->hasher)))
    dec_span_submit (st);
}

/* Released plaintext P, N into the MDC: to the hasher, or here (no
 * thread budget, or a spell on the caller's thread). */
static void
dec_hash (pl_seipd1 *st, const uint8_t *p, size_t n)
{
  int solo = st->released < st->solo_until;

  st->released += n;
  if (!n)
    return;
  if ((st->threads >= 2 && !solo) || st->shared)
    {
      dec_span_add (st, p, n);
      return;
    }
  /* Whatever the hasher has comes first. */
  hash_drain (st);
  hash_on_caller (st, p, n);
}

void
pl_seipd1_decrypt_unpin (pl_seipd1 *st, const uint8_t *p, size_t len)
{
  /* The pending span goes first (it may lie in P), so that the hasher
   * has its next work while the caller waits. */
  dec_span_flush (st);
  if (st->shared)
    shared_wait (st, p, len);
  else
    hasher_wait (st, p, len);
}

void
pl_seipd1_decrypt_flush (pl_seipd1 *st)
{
  dec_span_flush (st);
}

void
pl_seipd1_decrypt_share_hasher (pl_seipd1 *st, pl_worker *w)
{
  if (!w || !pl_worker_running (w) || st->shared)
    return;
  /* What the own thread holds, and the pending span, come first. */
  hash_drain (st);
  pl_worker_stop (&st->hasher);
  st->shared = w;
}

void
pl_seipd1_solo (pl_seipd1 *st, uint64_t noctets)
{
  if (st->threads < 2)
    return;
  if (st->released + noctets > st->solo_until)
    st->solo_until = st->released + noctets;
  st->stats.spells++;
}

void
pl_seipd1_get_stats (const pl_seipd1 *st, pl_seipd1_stats *stats)
{
  *stats = st->stats;
}

gpg_error_t
pl_seipd1_decrypt_init (pl_seipd1 *st, int cipher_algo, const uint8_t *key,
                        size_t keylen, const uint8_t *prefix,
                        size_t prefix_len)
{
  uint8_t plain[PL_SEIPD1_PREFIX_MAX];
  gpg_error_t err = open_cipher (st, cipher_algo, key, keylen);
  size_t bl;

  if (err)
    return err;
  bl = st->block_len;
  if (prefix_len != bl + 2)
    {
      pl_seipd1_clear (st);
      return gpg_error (GPG_ERR_TRUNCATED);
    }
  err = gcry_cipher_decrypt (st->cipher, plain, bl + 2, prefix, bl + 2);
  if (err)
    {
      pl_seipd1_clear (st);
      return err;
    }
  /* The quick check is what tells a wrong passphrase from damage before a
   * single octet of output is produced. */
  if (plain[bl - 2] != plain[bl] || plain[bl - 1] != plain[bl + 1])
    {
      pl_wipe (plain, sizeof plain);
      pl_seipd1_clear (st);
      return gpg_error (GPG_ERR_BAD_PASSPHRASE);
    }
  gcry_md_write (st->mdc, plain, bl + 2);
  pl_wipe (plain, sizeof plain);
  return 0;
}

gpg_error_t
pl_seipd1_decrypt_push (pl_seipd1 *st, const uint8_t *in, size_t len,
                        uint8_t *out, uint8_t **rel, size_t *rellen)
{
  uint8_t *data = out + PL_SEIPD1_HEADROOM;
  uint8_t *start = data - st->held_len;
  size_t total = st->held_len + len;
  size_t release;
  gpg_error_t err;

  if (in == data)
    err = gcry_cipher_decrypt (st->cipher, data, len, NULL, 0);
  else
    err = gcry_cipher_decrypt (st->cipher, data, len, in, len);
  if (err)
    return err;
  /* Put back what the last push held, in front of the new plaintext, then
   * hold back the last 22 octets of the lot: they may be the MDC. */
  memcpy (start, st->held, st->held_len);
  release = total > PL_MDC_PACKET_LEN ? total - PL_MDC_PACKET_LEN : 0;
  st->held_len = total - release;
  memcpy (st->held, start + release, st->held_len);
  dec_hash (st, start, release);
  *rel = start;
  *rellen = release;
  return st->shared_err;
}

gpg_error_t
pl_seipd1_decrypt_finish (pl_seipd1 *st)
{
  const uint8_t *digest;

  hash_drain (st);
  if (st->shared_err)
    return st->shared_err;
  if (st->held_len != PL_MDC_PACKET_LEN)
    return gpg_error (GPG_ERR_TRUNCATED);
  if (st->held[0] != 0xD3 || st->held[1] != 0x14)
    return gpg_error (GPG_ERR_CHECKSUM);
  gcry_md_write (st->mdc, st->held, 2);
  digest = gcry_md_read (st->mdc, GCRY_MD_SHA1);
  if (!pl_equal_const_time (digest, st->held + 2, 20))
    return gpg_error (GPG_ERR_CHECKSUM);
  return 0;
}

int
pl_seipd1_mdc_present (const pl_seipd1 *st)
{
  return st->held_len == PL_MDC_PACKET_LEN && st->held[0] == 0xD3
         && st->held[1] == 0x14;
}

void
pl_seipd1_clear (pl_seipd1 *st)
{
  pl_worker_stop (&st->hasher);
  /* A shared worker's tasks may still hash into the MDC. */
  if (st->shared && pl_worker_running (st->shared))
    pl_worker_wait (st->shared);
  if (st->cipher)
    gcry_cipher_close (st->cipher);
  if (st->mdc)
    gcry_md_close (st->mdc);
  pl_wipe (st, sizeof *st);
}
