/* s2k.c - String-to-key specifiers (RFC 9580 §3.7) */
#include "s2k.h"
#include "argon2.h"
#include "condwait.h"
#include "kdf-memory.h"
#include "algo.h"

#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <pthread.h>
#include <gcrypt.h>

unsigned long
pl_s2k_decode_count (uint8_t coded)
{
  return (16ul + (coded & 15)) << ((coded >> 4) + 6);
}

uint8_t
pl_s2k_encode_count (unsigned long count)
{
  for (unsigned int c = 0; c < 256; c++)
    if (pl_s2k_decode_count ((uint8_t) c) >= count)
      return (uint8_t) c;
  return 255;
}

gpg_error_t
pl_s2k_parse (pl_s2k *s2k, const uint8_t *p, size_t len, size_t *used)
{
  size_t need;

  memset (s2k, 0, sizeof *s2k);
  if (len < 1)
    return gpg_error (GPG_ERR_INV_PACKET);
  s2k->type = p[0];
  switch (s2k->type)
    {
    case PL_S2K_SIMPLE: need = 2; break;
    case PL_S2K_SALTED: need = 10; break;
    case PL_S2K_ITERATED: need = 11; break;
    case PL_S2K_ARGON2: need = 20; break;
    default:
      /* 101 is GnuPG's private "no secret key" marker; nothing else to
       * decrypt with it either. */
      return gpg_error (GPG_ERR_UNSUPPORTED_ALGORITHM);
    }
  if (len < need)
    return gpg_error (GPG_ERR_INV_PACKET);
  if (s2k->type == PL_S2K_ARGON2)
    {
      memcpy (s2k->salt, p + 1, 16);
      s2k->passes = p[17];
      s2k->parallelism = p[18];
      s2k->memory_exp = p[19];
      /* RFC 9580 §3.7.1.4: m must be at least 8 * p KiB, and the exponent
       * below 32. */
      if (!s2k->passes || !s2k->parallelism || s2k->memory_exp > 31
          || (1ull << s2k->memory_exp) < 8ull * s2k->parallelism)
        return gpg_error (GPG_ERR_INV_PACKET);
    }
  else
    {
      s2k->hash_algo = p[1];
      if (!pl_hash_gcry_algo (s2k->hash_algo))
        return gpg_error (GPG_ERR_DIGEST_ALGO);
      if (s2k->type != PL_S2K_SIMPLE)
        memcpy (s2k->salt, p + 2, 8);
      if (s2k->type == PL_S2K_ITERATED)
        s2k->coded_count = p[10];
    }
  *used = need;
  return 0;
}

size_t
pl_s2k_write (const pl_s2k *s2k, uint8_t *out)
{
  size_t n = 0;

  out[n++] = (uint8_t) s2k->type;
  if (s2k->type == PL_S2K_ARGON2)
    {
      memcpy (out + n, s2k->salt, 16);
      n += 16;
      out[n++] = s2k->passes;
      out[n++] = s2k->parallelism;
      out[n++] = s2k->memory_exp;
      return n;
    }
  out[n++] = (uint8_t) s2k->hash_algo;
  if (s2k->type == PL_S2K_SALTED || s2k->type == PL_S2K_ITERATED)
    {
      memcpy (out + n, s2k->salt, 8);
      n += 8;
    }
  if (s2k->type == PL_S2K_ITERATED)
    out[n++] = s2k->coded_count;
  return n;
}

static int
cancelled (const pl_s2k_control *ctl)
{
  return ctl && ctl->cancel && atomic_load (ctl->cancel);
}

/* Argon2id (argon2.h), its lanes on up to THREADS threads, stopping
 * between segments once *STOP (may be NULL) is set. */
static gpg_error_t
argon2_compute_key (const pl_s2k *s2k, const char *passphrase, size_t len,
                    uint8_t *key, size_t keylen, int threads,
                    const atomic_int *stop)
{
  pl_argon2_params params = {
    .password = passphrase,
    .password_len = len,
    .salt = s2k->salt,
    .salt_len = 16,
    .passes = s2k->passes,
    .lanes = s2k->parallelism,
    .memory_kib = 1u << s2k->memory_exp,
  };
  gpg_error_t err;

  err = pl_argon2id (&params, key, keylen, threads, stop);
  if (gpg_err_code (err) == GPG_ERR_ENOMEM)
    err = gpg_error (GPG_ERR_TOO_LARGE);
  return err;
}

/* The memory one Argon2 run fills, in KiB: what it takes from the
 * process's budget (kdf-memory.h). */
static uint64_t
argon2_kib (const pl_s2k *s2k)
{
  return 1ull << s2k->memory_exp;
}

/* A cancellable Argon2 runs on a helper thread that owns everything it
 * touches: on cancel the caller returns at once, and the helper stops at
 * its next segment (up to memory / (4 * lanes) KiB of work; bench/README.md
 * has its time), then frees its memory and itself.  It never reads the
 * caller's cancel flag, which may be gone by then. */
typedef struct
{
  pthread_mutex_t lock;
  pthread_cond_t cond;
  int refs;                     /* the caller and the helper */
  int done;
  atomic_int abandoned;
  gpg_error_t err;
  pl_s2k s2k;
  int threads;
  char *passphrase;             /* secret: a copy in secure memory */
  size_t passphrase_len;
  uint8_t *key;                 /* secret: secure memory */
  size_t keylen;
} argon2_run;

static void
argon2_run_unref (argon2_run *run)
{
  int last;

  pthread_mutex_lock (&run->lock);
  last = !--run->refs;
  pthread_mutex_unlock (&run->lock);
  if (!last)
    return;
  if (run->passphrase)
    {
      pl_wipe (run->passphrase, run->passphrase_len + 1);
      gcry_free (run->passphrase);
    }
  if (run->key)
    {
      pl_wipe (run->key, run->keylen);
      gcry_free (run->key);
    }
  pthread_cond_destroy (&run->cond);
  pthread_mutex_destroy (&run->lock);
  free (run);
}

static void *
argon2_helper (void *arg)
{
  argon2_run *run = arg;
  gpg_error_t err;

  err = argon2_compute_key (&run->s2k, run->passphrase, run->passphrase_len,
                            run->key, run->keylen, run->threads,
                            &run->abandoned);
  /* Unmapped by now (pl_argon2id), also when the caller left. */
  pl_kdf_memory_give (argon2_kib (&run->s2k));
  pthread_mutex_lock (&run->lock);
  run->err = err;
  run->done = 1;
  pthread_cond_broadcast (&run->cond);
  pthread_mutex_unlock (&run->lock);
  argon2_run_unref (run);
  return NULL;
}

static gpg_error_t
argon2_on_helper (const pl_s2k *s2k, const char *passphrase, size_t len,
                  uint8_t *key, size_t keylen, const pl_s2k_control *ctl)
{
  argon2_run *run = calloc (1, sizeof *run);
  pthread_attr_t attr;
  pthread_t thread;
  gpg_error_t err;
  int started;

  if (!run)
    {
      pl_kdf_memory_give (argon2_kib (s2k));
      return gpg_error_from_syserror ();
    }
  pthread_mutex_init (&run->lock, NULL);
  pthread_cond_init (&run->cond, NULL);
  run->refs = 1;
  run->s2k = *s2k;
  run->threads = ctl->threads;
  run->passphrase = gcry_malloc_secure (len + 1);
  run->key = gcry_malloc_secure (keylen);
  if (!run->passphrase || !run->key)
    {
      err = gpg_error (GPG_ERR_ENOMEM);
      argon2_run_unref (run);
      pl_kdf_memory_give (argon2_kib (s2k));
      return err;
    }
  memcpy (run->passphrase, passphrase, len);
  run->passphrase[len] = 0;
  run->passphrase_len = len;
  run->keylen = keylen;

  run->refs = 2;
  pthread_attr_init (&attr);
  pthread_attr_setdetachstate (&attr, PTHREAD_CREATE_DETACHED);
  started = !pthread_create (&thread, &attr, argon2_helper, run);
  pthread_attr_destroy (&attr);
  if (!started)
    {
      /* No helper to be had: derive here, cancellable by segment. */
      run->refs = 1;
      argon2_run_unref (run);
      err = argon2_compute_key (s2k, passphrase, len, key, keylen,
                                ctl->threads, ctl->cancel);
      pl_kdf_memory_give (argon2_kib (s2k));
      return err;
    }

  pthread_mutex_lock (&run->lock);
  while (!run->done)
    {
      if (cancelled (ctl))
        {
          atomic_store (&run->abandoned, 1);
          break;
        }
      pl_cond_wait_ns (&run->cond, &run->lock, 20 * 1000 * 1000);
    }
  if (run->done)
    {
      err = run->err;
      if (!err)
        memcpy (key, run->key, keylen);
    }
  else
    err = gpg_error (GPG_ERR_CANCELED);
  pthread_mutex_unlock (&run->lock);
  argon2_run_unref (run);
  return err;
}

static gpg_error_t
derive_argon2 (const pl_s2k *s2k, const char *passphrase, size_t len,
               uint8_t *key, size_t keylen, uint32_t cap_kib,
               const pl_s2k_control *ctl)
{
  gpg_error_t err;

  if (!cap_kib)
    cap_kib = PL_S2K_ARGON2_DEFAULT_CAP_KIB;
  /* Refuse before allocating: a hostile packet can ask for 2^31 KiB. */
  if ((1ull << s2k->memory_exp) > cap_kib)
    return gpg_error (GPG_ERR_TOO_LARGE);
  if (cancelled (ctl))
    return gpg_error (GPG_ERR_CANCELED);
  err = pl_kdf_memory_take (argon2_kib (s2k), ctl ? ctl->cancel : NULL,
                            ctl ? ctl->waiting : NULL,
                            ctl ? ctl->waiting_arg : NULL);
  if (err)
    return err;
  /* From here the memory is given back by whoever frees it. */
  if (ctl && ctl->cancel)
    return argon2_on_helper (s2k, passphrase, len, key, keylen, ctl);
  err = argon2_compute_key (s2k, passphrase, len, key, keylen,
                            ctl ? ctl->threads : 1, NULL);
  pl_kdf_memory_give (argon2_kib (s2k));
  return err;
}

/* The octets one context of a hashed S2K puts through the hash: the salt
 * and passphrase once, or, iterated, repeated up to the count (RFC 9580
 * §3.7.1.3; a count below their length still hashes them whole). */
static uint64_t
hashed_octets (const pl_s2k *s2k, size_t passphrase_len)
{
  uint64_t unit = (s2k->type == PL_S2K_SIMPLE ? 0 : 8) + passphrase_len;
  uint64_t count = unit;

  if (s2k->type == PL_S2K_ITERATED)
    count = pl_s2k_decode_count (s2k->coded_count);
  return count < unit ? unit : count;
}

/* The simple, salted and iterated S2K (RFC 9580 §3.7.1.1-3), by hand
 * rather than through gcry_kdf_derive, for two reasons: libgcrypt refuses
 * the empty passphrase that OpenPGP allows, and hashing in pieces lets a
 * cancel stop a 65-million-octet count within a megabyte. */
static gpg_error_t
derive_hashed (int algo, const pl_s2k *s2k, const char *passphrase,
               size_t passphrase_len, uint8_t *key, size_t keylen,
               const pl_s2k_control *ctl)
{
  enum { PIECE = 4096, CHECK_EVERY = 1 << 20 };
  static const uint8_t zero[64];
  size_t salt_len = s2k->type == PL_S2K_SIMPLE ? 0 : 8;
  size_t unit = salt_len + passphrase_len;
  size_t dlen = gcry_md_get_algo_dlen (algo);
  uint64_t count = hashed_octets (s2k, passphrase_len);
  size_t piece_len = unit >= PIECE || !unit ? unit : PIECE / unit * unit;
  uint8_t *piece = NULL;        /* secret: the passphrase, repeated */
  gcry_md_hd_t md = NULL;
  gpg_error_t err = 0;

  if (piece_len)
    {
      piece = gcry_malloc_secure (piece_len);
      if (!piece)
        return gpg_error_from_syserror ();
      for (size_t o = 0; o < piece_len; o += unit)
        {
          memcpy (piece + o, s2k->salt, salt_len);
          memcpy (piece + o + salt_len, passphrase, passphrase_len);
        }
    }
  for (size_t done = 0, ctx = 0; done < keylen && !err; ctx++)
    {
      size_t n = keylen - done < dlen ? keylen - done : dlen;
      uint64_t since_check = 0;

      err = gcry_md_open (&md, algo, GCRY_MD_FLAG_SECURE);
      if (err)
        break;
      gcry_md_write (md, zero, ctx);
      /* PIECE_LEN is whole units, so pieces in a row keep the cycle. */
      for (uint64_t left = count; left && !err;)
        {
          size_t k = left < piece_len ? (size_t) left : piece_len;
          gcry_md_write (md, piece, k);
          left -= k;
          since_check += k;
          if (since_check >= CHECK_EVERY)
            {
              since_check = 0;
              if (cancelled (ctl))
                err = gpg_error (GPG_ERR_CANCELED);
            }
        }
      if (!err)
        memcpy (key + done, gcry_md_read (md, algo), n);
      gcry_md_close (md);
      done += n;
    }
  if (piece)
    {
      pl_wipe (piece, piece_len);
      gcry_free (piece);
    }
  return err;
}

gpg_error_t
pl_s2k_derive_controlled (const pl_s2k *s2k, const char *passphrase,
                          size_t passphrase_len, uint8_t *key, size_t keylen,
                          uint32_t argon2_cap_kib, const pl_s2k_control *ctl)
{
  int algo;

  if (s2k->type == PL_S2K_ARGON2)
    return derive_argon2 (s2k, passphrase, passphrase_len, key, keylen,
                          argon2_cap_kib, ctl);
  if (s2k->type != PL_S2K_SIMPLE && s2k->type != PL_S2K_SALTED
      && s2k->type != PL_S2K_ITERATED)
    return gpg_error (GPG_ERR_UNSUPPORTED_ALGORITHM);
  algo = pl_hash_gcry_algo (s2k->hash_algo);
  if (!algo)
    return gpg_error (GPG_ERR_DIGEST_ALGO);
  return derive_hashed (algo, s2k, passphrase, passphrase_len, key, keylen,
                        ctl);
}

gpg_error_t
pl_s2k_derive (const pl_s2k *s2k, const char *passphrase,
               size_t passphrase_len, uint8_t *key, size_t keylen,
               uint32_t argon2_cap_kib)
{
  return pl_s2k_derive_controlled (s2k, passphrase, passphrase_len, key,
                                   keylen, argon2_cap_kib, NULL);
}

uint64_t
pl_s2k_cost (const pl_s2k *s2k, size_t keylen)
{
  uint64_t contexts = 1, dlen;

  if (s2k->type == PL_S2K_ARGON2)
    return (uint64_t) s2k->passes << s2k->memory_exp;
  /* A key longer than the digest takes one more context each. */
  dlen = gcry_md_get_algo_dlen (pl_hash_gcry_algo (s2k->hash_algo));
  if (dlen)
    contexts = (keylen + dlen - 1) / dlen;
  if (!contexts)
    contexts = 1;
  /* The passphrase's own length is left out: it is bounded by the
   * caller, and the iterated count dwarfs it. */
  return contexts * hashed_octets (s2k, 0) / PL_S2K_OCTETS_PER_UNIT + 1;
}

static double
now_seconds (void)
{
  struct timespec ts;
  clock_gettime (CLOCK_MONOTONIC, &ts);
  return ts.tv_sec + ts.tv_nsec / 1e9;
}

/* Calibration costs a few tens of milliseconds, so it is done once per
 * process and hash algorithm, as gpg-agent does. */
static pthread_mutex_t calibrate_lock = PTHREAD_MUTEX_INITIALIZER;
static struct { int hash_algo; unsigned int ms; uint8_t coded; } calibrated[8];

static uint8_t
calibrate (int gcry_algo, unsigned int target_ms)
{
  static const char pw[] = "calibration";
  uint8_t salt[8] = { 0 };
  uint8_t out[32];
  unsigned long count = 65536;
  double elapsed = 0;

  /* Double the count until a derivation takes a measurable 10 ms, then
   * scale to the target. */
  for (;;)
    {
      double start = now_seconds ();
      gcry_kdf_derive (pw, sizeof pw - 1, GCRY_KDF_ITERSALTED_S2K, gcry_algo,
                       salt, 8, count, sizeof out, out);
      elapsed = now_seconds () - start;
      if (elapsed >= 0.010 || count >= 65011712ul)
        break;
      count *= 2;
    }
  count = (unsigned long) (count * (target_ms / 1000.0) / elapsed);
  if (count < 65536)
    count = 65536;
  if (count > 65011712ul)
    count = 65011712ul;
  return pl_s2k_encode_count (count);
}

gpg_error_t
pl_s2k_new_iterated (pl_s2k *s2k, int hash_algo, unsigned int target_ms)
{
  int algo = pl_hash_gcry_algo (hash_algo);
  uint8_t coded = 0;
  int found = 0;

  if (!algo)
    return gpg_error (GPG_ERR_DIGEST_ALGO);
  memset (s2k, 0, sizeof *s2k);
  s2k->type = PL_S2K_ITERATED;
  s2k->hash_algo = hash_algo;
  gcry_randomize (s2k->salt, 8, GCRY_STRONG_RANDOM);
  if (!target_ms)
    {
      s2k->coded_count = pl_s2k_encode_count (PL_S2K_ITERATED_MAX_COUNT);
      return 0;
    }

  pthread_mutex_lock (&calibrate_lock);
  for (size_t i = 0; i < sizeof calibrated / sizeof calibrated[0]; i++)
    if (calibrated[i].hash_algo == hash_algo && calibrated[i].ms == target_ms)
      {
        coded = calibrated[i].coded;
        found = 1;
        break;
      }
  if (!found)
    {
      coded = calibrate (algo, target_ms);
      for (size_t i = 0; i < sizeof calibrated / sizeof calibrated[0]; i++)
        if (!calibrated[i].hash_algo)
          {
            calibrated[i].hash_algo = hash_algo;
            calibrated[i].ms = target_ms;
            calibrated[i].coded = coded;
            break;
          }
    }
  pthread_mutex_unlock (&calibrate_lock);
  s2k->coded_count = coded;
  return 0;
}

void
pl_s2k_new_argon2 (pl_s2k *s2k, uint8_t passes, uint8_t parallelism,
                   uint8_t memory_exp)
{
  memset (s2k, 0, sizeof *s2k);
  s2k->type = PL_S2K_ARGON2;
  s2k->passes = passes;
  s2k->parallelism = parallelism;
  s2k->memory_exp = memory_exp;
  gcry_randomize (s2k->salt, 16, GCRY_STRONG_RANDOM);
}
