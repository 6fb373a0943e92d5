/* s2k.c - String-to-key specifiers (RFC 9580 §3.7) */
#include "s2k.h"
#include "algo.h"

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

static gpg_error_t
derive_argon2 (const pl_s2k *s2k, const char *passphrase, size_t len,
               uint8_t *key, size_t keylen, uint32_t cap_kib)
{
  gcry_kdf_hd_t hd = NULL;
  unsigned long params[4];
  gpg_error_t err;

  if (!cap_kib)
    cap_kib = PL_S2K_ARGON2_DEFAULT_CAP_KIB;
  /* Refuse before allocating: a hostile packet can ask for 2^31 KiB. */
  if ((1ull << s2k->memory_exp) > cap_kib)
    return gpg_error (GPG_ERR_TOO_LARGE);

  params[0] = keylen;
  params[1] = s2k->passes;
  params[2] = 1ul << s2k->memory_exp;
  params[3] = s2k->parallelism;
  err = gcry_kdf_open (&hd, GCRY_KDF_ARGON2, GCRY_KDF_ARGON2ID, params, 4,
                       passphrase, len, s2k->salt, 16, NULL, 0, NULL, 0);
  if (err)
    goto leave;
  err = gcry_kdf_compute (hd, NULL);
  if (err)
    goto leave;
  err = gcry_kdf_final (hd, keylen, key);

 leave:
  if (hd)
    gcry_kdf_close (hd);
  if (gpg_err_code (err) == GPG_ERR_ENOMEM)
    err = gpg_error (GPG_ERR_TOO_LARGE);
  return err;
}

/* libgcrypt's S2K refuses an empty passphrase, which OpenPGP allows (and
 * the RFC 9580 §3.7.1 algorithm defines): do it by hand for that case. */
static gpg_error_t
derive_empty (int algo, const pl_s2k *s2k, unsigned long count,
              uint8_t *key, size_t keylen)
{
  size_t salt_len = s2k->type == PL_S2K_SIMPLE ? 0 : 8;
  size_t dlen = gcry_md_get_algo_dlen (algo);
  static const uint8_t zero[64];
  gpg_error_t err;

  if (count < salt_len)
    count = salt_len;
  for (size_t done = 0, ctx = 0; done < keylen; ctx++)
    {
      gcry_md_hd_t md;
      size_t n = keylen - done < dlen ? keylen - done : dlen;

      err = gcry_md_open (&md, algo, GCRY_MD_FLAG_SECURE);
      if (err)
        return err;
      gcry_md_write (md, zero, ctx);
      for (unsigned long left = count; left && salt_len;)
        {
          size_t k = left < salt_len ? left : salt_len;
          gcry_md_write (md, s2k->salt, k);
          left -= k;
        }
      memcpy (key + done, gcry_md_read (md, algo), n);
      gcry_md_close (md);
      done += n;
    }
  return 0;
}

gpg_error_t
pl_s2k_derive (const pl_s2k *s2k, const char *passphrase,
               size_t passphrase_len, uint8_t *key, size_t keylen,
               uint32_t argon2_cap_kib)
{
  int algo;
  unsigned long iterations = 0;

  if (s2k->type == PL_S2K_ARGON2)
    return derive_argon2 (s2k, passphrase, passphrase_len, key, keylen,
                          argon2_cap_kib);

  algo = pl_hash_gcry_algo (s2k->hash_algo);
  if (!algo)
    return gpg_error (GPG_ERR_DIGEST_ALGO);
  if (!passphrase_len && s2k->type <= PL_S2K_ITERATED)
    return derive_empty (algo, s2k, s2k->type == PL_S2K_ITERATED
                         ? pl_s2k_decode_count (s2k->coded_count) : 0,
                         key, keylen);
  switch (s2k->type)
    {
    case PL_S2K_SIMPLE:
      return gcry_kdf_derive (passphrase, passphrase_len, GCRY_KDF_SIMPLE_S2K,
                              algo, NULL, 0, 0, keylen, key);
    case PL_S2K_SALTED:
      return gcry_kdf_derive (passphrase, passphrase_len, GCRY_KDF_SALTED_S2K,
                              algo, s2k->salt, 8, 0, keylen, key);
    case PL_S2K_ITERATED:
      iterations = pl_s2k_decode_count (s2k->coded_count);
      return gcry_kdf_derive (passphrase, passphrase_len,
                              GCRY_KDF_ITERSALTED_S2K, algo, s2k->salt, 8,
                              iterations, keylen, key);
    default:
      return gpg_error (GPG_ERR_UNSUPPORTED_ALGORITHM);
    }
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
