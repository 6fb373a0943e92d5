/* keywrap.c - AES key wrap (RFC 3394) with the default IV */
#include "keywrap.h"
#include "algo.h"

#include <gcrypt.h>

static gpg_error_t
open_kek (int cipher_algo, const uint8_t *kek, gcry_cipher_hd_t *hd)
{
  int algo = pl_cipher_gcry_algo (cipher_algo);
  gpg_error_t err;

  if (cipher_algo != PL_CIPHER_AES128 && cipher_algo != PL_CIPHER_AES192
      && cipher_algo != PL_CIPHER_AES256)
    return gpg_error (GPG_ERR_CIPHER_ALGO);
  err = gcry_cipher_open (hd, algo, GCRY_CIPHER_MODE_AESWRAP,
                          GCRY_CIPHER_SECURE);
  if (!err)
    err = gcry_cipher_setkey (*hd, kek, pl_cipher_key_length (cipher_algo));
  if (err)
    gcry_cipher_close (*hd);
  return err;
}

gpg_error_t
pl_keywrap_wrap (int cipher_algo, const uint8_t *kek, const uint8_t *in,
                 size_t len, uint8_t *out)
{
  gcry_cipher_hd_t hd;
  gpg_error_t err;

  if (len < 16 || len % 8)
    return gpg_error (GPG_ERR_INV_LENGTH);
  err = open_kek (cipher_algo, kek, &hd);
  if (err)
    return err;
  err = gcry_cipher_encrypt (hd, out, len + 8, in, len);
  gcry_cipher_close (hd);
  return err;
}

gpg_error_t
pl_keywrap_unwrap (int cipher_algo, const uint8_t *kek, const uint8_t *in,
                   size_t len, uint8_t *out)
{
  gcry_cipher_hd_t hd;
  gpg_error_t err;

  if (len < 24 || len % 8)
    return gpg_error (GPG_ERR_INV_LENGTH);
  err = open_kek (cipher_algo, kek, &hd);
  if (err)
    return err;
  err = gcry_cipher_decrypt (hd, out, len - 8, in, len);
  gcry_cipher_close (hd);
  if (err)
    {
      pl_wipe (out, len - 8);
      return gpg_error (GPG_ERR_CHECKSUM);
    }
  return 0;
}
