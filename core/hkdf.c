/* hkdf.c - HKDF-SHA256 and HKDF-SHA512 (RFC 5869) on libgcrypt's HMAC
 *
 * libgcrypt 1.10 has no KDF for HKDF, so this builds extract and expand
 * from GCRY_MAC_HMAC_SHA256 (or _SHA512, for X448).  The pseudorandom key and every output
 * block are secret: they live in secure memory and are wiped.
 */
#include "hkdf.h"

#include <string.h>
#include <gcrypt.h>

#include "algo.h"

#define HASH_MAX 64

static gpg_error_t
hkdf (int mac_algo, size_t hash_len, const uint8_t *salt, size_t salt_len,
      const uint8_t *ikm, size_t ikm_len, const uint8_t *info,
      size_t info_len, uint8_t *out, size_t out_len)
{
  gpg_error_t err;
  gcry_mac_hd_t hd = NULL;
  uint8_t *prk = NULL;          /* PRK, then T(i); both secret. */
  uint8_t *block;
  size_t n, done;
  uint8_t counter;
  static const uint8_t zero_salt_max[HASH_MAX];

  if (out_len > 255 * hash_len || (!out && out_len))
    return gpg_error (GPG_ERR_INV_ARG);
  if (!out_len)
    return 0;

  prk = gcry_malloc_secure (2 * hash_len);
  if (!prk)
    return gpg_error_from_syserror ();
  block = prk + hash_len;

  err = gcry_mac_open (&hd, mac_algo, GCRY_MAC_FLAG_SECURE, NULL);
  if (err)
    goto leave;

  /* Extract.  An absent salt is HashLen zero octets (RFC 5869 §2.2);
   * HMAC pads its key with zeros anyway, so an empty salt is the same,
   * and passing the zeros spares libgcrypt a zero-length key. */
  if (!salt || !salt_len)
    {
      salt = zero_salt_max;
      salt_len = hash_len;
    }
  err = gcry_mac_setkey (hd, salt, salt_len);
  if (!err && ikm_len)
    err = gcry_mac_write (hd, ikm, ikm_len);
  if (!err)
    {
      n = hash_len;
      err = gcry_mac_read (hd, prk, &n);
    }
  if (err)
    goto leave;

  /* Expand: T(i) = HMAC (PRK, T(i-1) || info || i), T(0) empty. */
  err = gcry_mac_setkey (hd, prk, hash_len);
  if (err)
    goto leave;
  for (done = 0, counter = 1; done < out_len; counter++)
    {
      if (counter > 1)
        {
          err = gcry_mac_reset (hd);
          if (!err)
            err = gcry_mac_write (hd, block, hash_len);
          if (err)
            goto leave;
        }
      if (info_len)
        {
          err = gcry_mac_write (hd, info, info_len);
          if (err)
            goto leave;
        }
      err = gcry_mac_write (hd, &counter, 1);
      if (err)
        goto leave;
      n = hash_len;
      err = gcry_mac_read (hd, block, &n);
      if (err)
        goto leave;

      n = out_len - done < hash_len ? out_len - done : hash_len;
      memcpy (out + done, block, n);
      done += n;
    }

 leave:
  gcry_mac_close (hd);
  pl_wipe (prk, 2 * hash_len);
  gcry_free (prk);
  if (err && out)
    pl_wipe (out, out_len);
  return err;
}

gpg_error_t
pl_hkdf_sha256 (const uint8_t *salt, size_t salt_len,
                const uint8_t *ikm, size_t ikm_len,
                const uint8_t *info, size_t info_len,
                uint8_t *out, size_t out_len)
{
  return hkdf (GCRY_MAC_HMAC_SHA256, 32, salt, salt_len, ikm, ikm_len, info,
               info_len, out, out_len);
}

gpg_error_t
pl_hkdf_sha512 (const uint8_t *salt, size_t salt_len,
                const uint8_t *ikm, size_t ikm_len,
                const uint8_t *info, size_t info_len,
                uint8_t *out, size_t out_len)
{
  return hkdf (GCRY_MAC_HMAC_SHA512, 64, salt, salt_len, ikm, ikm_len, info,
               info_len, out, out_len);
}
