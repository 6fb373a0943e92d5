/* speed.c - in-memory speed of each cipher and mode */
#include "speed.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <gcrypt.h>

/* 4 MiB: the AEAD chunk we write, and large enough that per-call costs
 * vanish while small enough to stay near the cache. */
#define BUF_LEN (4u << 20)

typedef enum { CFB_ENC, CFB_DEC, AEAD_ENC, AEAD_DEC, HASH, COPY } kind;

typedef struct
{
  const char *name;
  const char *group;
  kind k;
  int algo;                     /* gcry cipher or md algo */
  int mode;                     /* gcry cipher mode */
} measure;

static const measure measures[] = {
  { "AES-256-CFB encrypt", "SEIPD v1", CFB_ENC, GCRY_CIPHER_AES256, GCRY_CIPHER_MODE_CFB },
  { "AES-256-CFB decrypt", "SEIPD v1", CFB_DEC, GCRY_CIPHER_AES256, GCRY_CIPHER_MODE_CFB },
  { "AES-128-CFB encrypt", "SEIPD v1", CFB_ENC, GCRY_CIPHER_AES128, GCRY_CIPHER_MODE_CFB },
  { "AES-192-CFB encrypt", "SEIPD v1", CFB_ENC, GCRY_CIPHER_AES192, GCRY_CIPHER_MODE_CFB },
  { "Camellia-256-CFB encrypt", "SEIPD v1", CFB_ENC, GCRY_CIPHER_CAMELLIA256, GCRY_CIPHER_MODE_CFB },
  { "Twofish-CFB encrypt", "SEIPD v1", CFB_ENC, GCRY_CIPHER_TWOFISH, GCRY_CIPHER_MODE_CFB },
  { "SHA-1 (MDC)", "SEIPD v1", HASH, GCRY_MD_SHA1, 0 },
  { "AES-256-OCB encrypt", "AEAD", AEAD_ENC, GCRY_CIPHER_AES256, GCRY_CIPHER_MODE_OCB },
  { "AES-256-OCB decrypt", "AEAD", AEAD_DEC, GCRY_CIPHER_AES256, GCRY_CIPHER_MODE_OCB },
  { "AES-256-EAX encrypt", "AEAD", AEAD_ENC, GCRY_CIPHER_AES256, GCRY_CIPHER_MODE_EAX },
  { "AES-256-GCM encrypt", "AEAD", AEAD_ENC, GCRY_CIPHER_AES256, GCRY_CIPHER_MODE_GCM },
  { "SHA-256", "hash", HASH, GCRY_MD_SHA256, 0 },
  { "memcpy", "memory", COPY, 0, 0 },
};

#define N_MEASURES (sizeof measures / sizeof measures[0])
_Static_assert (N_MEASURES == PL_SPEED_N, "pl_speed_id follows measures[]");

static pl_speed_result list[N_MEASURES];

const pl_speed_result *
pl_speed_list (size_t *count)
{
  for (size_t i = 0; i < N_MEASURES; i++)
    {
      list[i].name = measures[i].name;
      list[i].group = measures[i].group;
      list[i].mb_per_s = 0;
    }
  *count = N_MEASURES;
  return list;
}

static double
now (void)
{
  struct timespec ts;
  clock_gettime (CLOCK_MONOTONIC, &ts);
  return ts.tv_sec + ts.tv_nsec / 1e9;
}

/* One pass over the buffer. */
static gpg_error_t
pass (const measure *m, gcry_cipher_hd_t hd, uint8_t *buf, uint8_t *out,
      uint8_t *tag)
{
  static const uint8_t nonce[16];
  gpg_error_t err = 0;

  switch (m->k)
    {
    case CFB_ENC:
      gcry_cipher_setiv (hd, nonce, gcry_cipher_get_algo_blklen (m->algo));
      return gcry_cipher_encrypt (hd, buf, BUF_LEN, NULL, 0);
    case CFB_DEC:
      gcry_cipher_setiv (hd, nonce, gcry_cipher_get_algo_blklen (m->algo));
      return gcry_cipher_decrypt (hd, buf, BUF_LEN, NULL, 0);
    case AEAD_ENC:
    case AEAD_DEC:
      gcry_cipher_reset (hd);
      err = gcry_cipher_setiv (hd, nonce, m->mode == GCRY_CIPHER_MODE_OCB ? 15
                               : m->mode == GCRY_CIPHER_MODE_GCM ? 12 : 16);
      if (!err)
        err = gcry_cipher_authenticate (hd, nonce, 5);
      if (!err && m->mode == GCRY_CIPHER_MODE_OCB)
        gcry_cipher_final (hd);
      if (!err && m->k == AEAD_ENC)
        err = gcry_cipher_encrypt (hd, buf, BUF_LEN, NULL, 0);
      else if (!err)
        err = gcry_cipher_decrypt (hd, buf, BUF_LEN, NULL, 0);
      if (!err)
        err = gcry_cipher_gettag (hd, tag, 16);
      return err;
    case HASH:
      gcry_md_hash_buffer (m->algo, tag, buf, BUF_LEN);
      return 0;
    case COPY:
      memcpy (out, buf, BUF_LEN);
      return 0;
    }
  return 0;
}

static gpg_error_t
run_one (const measure *m, double seconds, uint8_t *buf, uint8_t *out,
         double *mb_per_s)
{
  gcry_cipher_hd_t hd = NULL;
  uint8_t key[32] = { 1 }, tag[64];
  double start, elapsed;
  unsigned long passes = 0;
  gpg_error_t err = 0;

  *mb_per_s = 0;
  if (m->k != HASH && m->k != COPY)
    {
      if (gcry_cipher_test_algo (m->algo))
        return 0;
      err = gcry_cipher_open (&hd, m->algo, m->mode, 0);
      if (!err)
        err = gcry_cipher_setkey (hd, key, gcry_cipher_get_algo_keylen (m->algo));
      if (err)
        goto leave;
    }
  /* One pass to warm caches and code paths. */
  err = pass (m, hd, buf, out, tag);
  if (err)
    goto leave;
  start = now ();
  do
    {
      err = pass (m, hd, buf, out, tag);
      if (err)
        goto leave;
      passes++;
      elapsed = now () - start;
    }
  while (elapsed < seconds);
  *mb_per_s = passes * (double) BUF_LEN / elapsed / 1e6;

 leave:
  if (hd)
    gcry_cipher_close (hd);
  return err;
}

gpg_error_t
pl_speed_measure (pl_speed_id id, double seconds, double *mb_per_s)
{
  uint8_t *buf, *out;
  gpg_error_t err;

  *mb_per_s = 0;
  if ((unsigned) id >= N_MEASURES)
    return gpg_error (GPG_ERR_INV_ARG);
  buf = malloc (BUF_LEN);
  out = malloc (BUF_LEN);
  if (!buf || !out)
    {
      free (buf);
      free (out);
      return gpg_error (GPG_ERR_ENOMEM);
    }
  if (seconds <= 0)
    seconds = 0.2;
  memset (buf, 0x5a, BUF_LEN);
  memset (out, 0, BUF_LEN);
  err = run_one (&measures[id], seconds, buf, out, mb_per_s);
  free (buf);
  free (out);
  return err;
}

gpg_error_t
pl_speed_run (double seconds, pl_speed_result *results, pl_speed_fn fn,
              void *user_data)
{
  gpg_error_t err = 0;

  for (size_t i = 0; i < N_MEASURES && !err; i++)
    {
      results[i].name = measures[i].name;
      results[i].group = measures[i].group;
      err = pl_speed_measure ((pl_speed_id) i, seconds, &results[i].mb_per_s);
      if (!err && fn)
        fn (user_data, &results[i], i, N_MEASURES);
    }
  return err;
}
