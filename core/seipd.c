/* seipd.c - SEIPD v1: CFB with a random prefix, and the MDC */
#include "seipd.h"
#include "algo.h"

#include <string.h>

static gpg_error_t
hash_task (void *arg, const uint8_t *p, size_t n)
{
  gcry_md_write ((gcry_md_hd_t) arg, p, n);
  return 0;
}

/* The hasher, when the budget allows it and the push is worth it; NULL
 * means hash inline (also when the thread could not start). */
static pl_worker *
use_hasher (pl_seipd1 *st, size_t len)
{
  if (st->threads < 2 || len < PL_SEIPD1_THREAD_MIN)
    {
      pl_worker_wait (&st->hasher);
      return NULL;
    }
  /* A thread that cannot start leaves the hashing inline. */
  if (!pl_worker_running (&st->hasher)
      && pl_worker_start (&st->hasher, hash_task, st->mdc))
    return NULL;
  return &st->hasher;
}

void
pl_seipd1_set_threads (pl_seipd1 *st, int threads)
{
  st->threads = threads;
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
  pl_worker_submit (&st->hasher, st->span, st->span_len);
  st->hashing = st->span;
  st->hashing_len = st->span_len;
  st->span_len = 0;
}

/* Stable input: IN joins the pending span, which goes to the hasher
 * as soon as it is free (or is too long to wait). */
static void
hash_span_add (pl_seipd1 *st, const uint8_t *in, size_t len)
{
  if (st->span_len && st->span + st->span_len != in)
    hash_span_submit (st);
  if (!st->span_len)
    st->span = in;
  st->span_len += len;
  if (st->span_len >= PL_SEIPD1_SPAN_MAX
      || !pl_worker_reading (&st->hasher, st->hashing, st->hashing_len))
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
  pl_worker_submit (h, in, len);
  err = gcry_cipher_encrypt (st->cipher, out, len, in, len);
  pl_worker_wait (h);
  return err;
}

gpg_error_t
pl_seipd1_encrypt_finish (pl_seipd1 *st, uint8_t *out)
{
  hash_span_submit (st);
  pl_worker_wait (&st->hasher);
  out[0] = 0xD3;
  out[1] = 0x14;
  gcry_md_write (st->mdc, out, 2);
  memcpy (out + 2, gcry_md_read (st->mdc, GCRY_MD_SHA1), 20);
  return gcry_cipher_encrypt (st->cipher, out, PL_MDC_PACKET_LEN, NULL, 0);
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
  pl_worker *h = use_hasher (st, len);
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
  if (h)
    pl_worker_submit (h, start, release);
  else
    gcry_md_write (st->mdc, start, release);
  *rel = start;
  *rellen = release;
  return 0;
}

gpg_error_t
pl_seipd1_decrypt_finish (pl_seipd1 *st)
{
  const uint8_t *digest;

  pl_worker_wait (&st->hasher);
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
  if (st->cipher)
    gcry_cipher_close (st->cipher);
  if (st->mdc)
    gcry_md_close (st->mdc);
  pl_wipe (st, sizeof *st);
}
