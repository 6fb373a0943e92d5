/* skesk.c - Symmetric-Key Encrypted Session Key packets
 *
 * v4 (RFC 9580 §5.3.1): version, cipher, S2K, and optionally the session
 *   key CFB-encrypted under the S2K output with an all-zero IV; the
 *   plaintext is the data cipher's id followed by the key.
 * v5 (LibrePGP §5.3): version, cipher, AEAD mode, S2K, IV, encrypted key,
 *   tag.  The S2K output is the key-encryption key.
 * v6 (RFC 9580 §5.3.2): version, count, cipher, AEAD mode, S2K length,
 *   S2K, IV, encrypted key, tag.  The KEK is HKDF-SHA256 over the S2K
 *   output with info = 0xC3 || version || cipher || AEAD mode.
 *
 * For v5 and v6 the associated data is the packet tag in new-format form
 * (0xC3), the version, the cipher and the AEAD mode.
 */
#include "skesk.h"

#include <string.h>
#include <gcrypt.h>

#include "algo.h"
#include "hkdf.h"

#define TAG_LEN 16


/* A cipher fit for AEAD: known to libgcrypt, 16-octet blocks. */
static int
aead_cipher_ok (int cipher_algo)
{
  return (pl_cipher_gcry_algo (cipher_algo)
          && pl_cipher_block_length (cipher_algo) == 16);
}


gpg_error_t
pl_skesk_parse (pl_skesk *skesk, const uint8_t *body, size_t len)
{
  gpg_error_t err;
  size_t off, used, s2k_len = 0, count = 0;
  size_t esk_len;

  memset (skesk, 0, sizeof *skesk);
  if (len < 1)
    return gpg_error (GPG_ERR_INV_PACKET);
  skesk->version = body[0];
  switch (skesk->version)
    {
    case 4:
      if (len < 2)
        return gpg_error (GPG_ERR_INV_PACKET);
      skesk->cipher_algo = body[1];
      if (!pl_cipher_gcry_algo (skesk->cipher_algo))
        return gpg_error (GPG_ERR_UNSUPPORTED_ALGORITHM);
      off = 2;
      break;

    case 5:
      if (len < 3)
        return gpg_error (GPG_ERR_INV_PACKET);
      skesk->cipher_algo = body[1];
      skesk->aead_algo = body[2];
      off = 3;
      break;

    case 6:
      /* The count covers cipher, AEAD mode, S2K length, S2K and IV; it
       * lets a reader skip to the encrypted key without understanding
       * the S2K, but we need the S2K anyway. */
      if (len < 5)
        return gpg_error (GPG_ERR_INV_PACKET);
      count = body[1];
      skesk->cipher_algo = body[2];
      skesk->aead_algo = body[3];
      s2k_len = body[4];
      off = 5;
      break;

    default:
      return gpg_error (GPG_ERR_UNKNOWN_VERSION);
    }

  if (skesk->version != 4)
    {
      if (!aead_cipher_ok (skesk->cipher_algo)
          || !pl_aead_gcry_mode (skesk->aead_algo))
        return gpg_error (GPG_ERR_UNSUPPORTED_ALGORITHM);
      skesk->iv_len = pl_aead_nonce_length (skesk->aead_algo);
    }
  if (skesk->version == 6)
    {
      if (count != 3 + s2k_len + skesk->iv_len || len < 2 + count)
        return gpg_error (GPG_ERR_INV_PACKET);
      /* Parse the S2K within its stated length only. */
      err = pl_s2k_parse (&skesk->s2k, body + off, s2k_len, &used);
      if (!err && used != s2k_len)
        err = gpg_error (GPG_ERR_INV_PACKET);
    }
  else
    err = pl_s2k_parse (&skesk->s2k, body + off, len - off, &used);
  if (gpg_err_code (err) == GPG_ERR_DIGEST_ALGO)
    err = gpg_error (GPG_ERR_UNSUPPORTED_ALGORITHM);
  if (err)
    return err;
  off += used;

  if (skesk->version != 4)
    {
      if (len - off < skesk->iv_len)
        return gpg_error (GPG_ERR_INV_PACKET);
      memcpy (skesk->iv, body + off, skesk->iv_len);
      off += skesk->iv_len;
    }

  esk_len = len - off;
  if (skesk->version == 4)
    {
      /* Absent, or the cipher octet and a key. */
      if (esk_len == 1 || esk_len > 1 + PL_SESSION_KEY_MAX)
        return gpg_error (GPG_ERR_INV_PACKET);
    }
  else if (skesk->version == 5)
    {
      /* v5 wraps a key for its own cipher, which the OCB packet uses. */
      if (esk_len != pl_cipher_key_length (skesk->cipher_algo) + TAG_LEN)
        return gpg_error (GPG_ERR_INV_PACKET);
    }
  else
    {
      /* v6 wraps a key for the cipher the SEIPD v2 header names; every
       * cipher with 16-octet blocks takes 16, 24 or 32 octets. */
      if (esk_len != 16 + TAG_LEN && esk_len != 24 + TAG_LEN
          && esk_len != 32 + TAG_LEN)
        return gpg_error (GPG_ERR_INV_PACKET);
    }
  memcpy (skesk->esk, body + off, esk_len);
  skesk->esk_len = esk_len;
  return 0;
}


/* Opens an AEAD handle for a v5/v6 SKESK under KEK with the packet's IV
 * and associated data, ready for the one and only encrypt or decrypt
 * call. */
static gpg_error_t
open_aead (gcry_cipher_hd_t *hd, const pl_skesk *skesk, const uint8_t *kek,
           size_t keklen)
{
  gpg_error_t err;
  uint8_t ad[4];

  ad[0] = 0xC3;
  ad[1] = (uint8_t) skesk->version;
  ad[2] = (uint8_t) skesk->cipher_algo;
  ad[3] = (uint8_t) skesk->aead_algo;

  err = gcry_cipher_open (hd, pl_cipher_gcry_algo (skesk->cipher_algo),
                          pl_aead_gcry_mode (skesk->aead_algo),
                          GCRY_CIPHER_SECURE);
  if (err)
    return err;
  err = gcry_cipher_setkey (*hd, kek, keklen);
  if (!err)
    err = gcry_cipher_setiv (*hd, skesk->iv, skesk->iv_len);
  if (!err)
    err = gcry_cipher_authenticate (*hd, ad, sizeof ad);
  if (!err)
    err = gcry_cipher_final (*hd);
  if (err)
    {
      gcry_cipher_close (*hd);
      *hd = NULL;
    }
  return err;
}


size_t
pl_skesk_s2k_length (const pl_skesk *skesk)
{
  return pl_cipher_key_length (skesk->cipher_algo);
}


/* The key-encryption key for SKESK into KEK (secure memory of the
 * cipher's key length): the S2K output, which v6 puts through HKDF. */
static gpg_error_t
kek_from_s2k (const pl_skesk *skesk, const uint8_t *s2k_key, uint8_t *kek,
              size_t keklen)
{
  uint8_t info[4];

  if (skesk->version != 6)
    {
      memcpy (kek, s2k_key, keklen);
      return 0;
    }
  info[0] = 0xC3;
  info[1] = (uint8_t) skesk->version;
  info[2] = (uint8_t) skesk->cipher_algo;
  info[3] = (uint8_t) skesk->aead_algo;
  return pl_hkdf_sha256 (NULL, 0, s2k_key, keklen, info, sizeof info, kek,
                         keklen);
}


gpg_error_t
pl_skesk_decrypt (const pl_skesk *skesk, const uint8_t *s2k_key,
                  uint8_t *session_key, size_t *keylen, int *cipher_algo)
{
  gpg_error_t err;
  gcry_cipher_hd_t hd = NULL;
  uint8_t *kek = NULL;
  uint8_t *plain = NULL;
  size_t keklen = pl_cipher_key_length (skesk->cipher_algo);
  size_t n;
  int algo;

  *keylen = 0;
  *cipher_algo = 0;
  if (!keklen || !pl_cipher_gcry_algo (skesk->cipher_algo))
    return gpg_error (GPG_ERR_UNSUPPORTED_ALGORITHM);
  /* The caller may have filled SKESK by hand: keep within bounds. */
  if (skesk->version == 4)
    {
      if (skesk->esk_len == 1 || skesk->esk_len > 1 + PL_SESSION_KEY_MAX)
        return gpg_error (GPG_ERR_INV_PACKET);
    }
  else if (skesk->version == 5 || skesk->version == 6)
    {
      if (skesk->esk_len <= TAG_LEN
          || skesk->esk_len > PL_SESSION_KEY_MAX + TAG_LEN
          || !skesk->iv_len
          || skesk->iv_len != pl_aead_nonce_length (skesk->aead_algo))
        return gpg_error (GPG_ERR_INV_PACKET);
    }
  else
    return gpg_error (GPG_ERR_UNKNOWN_VERSION);

  kek = gcry_malloc_secure (keklen + 1 + PL_SESSION_KEY_MAX);
  if (!kek)
    return gpg_error_from_syserror ();
  plain = kek + keklen;

  err = kek_from_s2k (skesk, s2k_key, kek, keklen);
  if (err)
    goto leave;

  if (skesk->version == 4 && !skesk->esk_len)
    {
      /* The S2K output is the session key itself. */
      memcpy (session_key, kek, keklen);
      *keylen = keklen;
      *cipher_algo = skesk->cipher_algo;
      goto leave;
    }

  if (skesk->version == 4)
    {
      err = gcry_cipher_open (&hd, pl_cipher_gcry_algo (skesk->cipher_algo),
                              GCRY_CIPHER_MODE_CFB, GCRY_CIPHER_SECURE);
      if (!err)
        err = gcry_cipher_setkey (hd, kek, keklen);
      /* A freshly opened handle has the all-zero IV. */
      if (!err)
        err = gcry_cipher_decrypt (hd, plain, skesk->esk_len, skesk->esk,
                                   skesk->esk_len);
      if (err)
        goto leave;
      /* Without an integrity check, a wrong passphrase shows only as
       * garbage: an unknown cipher or a key of the wrong length.  What
       * slips through is caught by the data packet. */
      algo = plain[0];
      n = skesk->esk_len - 1;
      if (!pl_cipher_gcry_algo (algo) || pl_cipher_key_length (algo) != n)
        {
          err = gpg_error (GPG_ERR_BAD_PASSPHRASE);
          goto leave;
        }
      memcpy (session_key, plain + 1, n);
      *keylen = n;
      *cipher_algo = algo;
      goto leave;
    }

  /* v5 and v6. */
  n = skesk->esk_len - TAG_LEN;
  err = open_aead (&hd, skesk, kek, keklen);
  if (!err)
    err = gcry_cipher_decrypt (hd, session_key, n, skesk->esk, n);
  if (!err)
    err = gcry_cipher_checktag (hd, skesk->esk + n, TAG_LEN);
  if (gpg_err_code (err) == GPG_ERR_CHECKSUM)
    err = gpg_error (GPG_ERR_BAD_PASSPHRASE);
  if (err)
    goto leave;
  *keylen = n;
  /* v6 leaves the data cipher to the SEIPD v2 header. */
  *cipher_algo = skesk->version == 5 ? skesk->cipher_algo : 0;

 leave:
  gcry_cipher_close (hd);
  pl_wipe (kek, keklen + 1 + PL_SESSION_KEY_MAX);
  gcry_free (kek);
  if (err)
    {
      pl_wipe (session_key, PL_SESSION_KEY_MAX);
      *keylen = 0;
      *cipher_algo = 0;
    }
  return err;
}


gpg_error_t
pl_skesk_encrypt (pl_skesk *skesk, const uint8_t *s2k_key,
                  const uint8_t *session_key, size_t keylen)
{
  gpg_error_t err;
  gcry_cipher_hd_t hd = NULL;
  uint8_t *kek = NULL;
  uint8_t *plain;
  size_t keklen = pl_cipher_key_length (skesk->cipher_algo);

  skesk->esk_len = 0;
  skesk->iv_len = 0;
  if (!keklen || !pl_cipher_gcry_algo (skesk->cipher_algo))
    return gpg_error (GPG_ERR_UNSUPPORTED_ALGORITHM);
  switch (skesk->version)
    {
    case 4:
      skesk->aead_algo = 0;
      if (!session_key)
        return 0;
      /* The wrapped key is CFB-encrypted with an all-zero IV, so only a
       * salt keeps two packets under one passphrase apart (RFC 9580
       * §5.3.1: MUST). */
      if (skesk->s2k.type == PL_S2K_SIMPLE)
        return gpg_error (GPG_ERR_INV_ARG);
      /* The API names one cipher: the key wrapped is for the SKESK's
       * own cipher, as gpg writes it. */
      if (keylen != keklen)
        return gpg_error (GPG_ERR_INV_KEYLEN);
      break;
    case 5:
    case 6:
      if (!aead_cipher_ok (skesk->cipher_algo)
          || !pl_aead_gcry_mode (skesk->aead_algo))
        return gpg_error (GPG_ERR_UNSUPPORTED_ALGORITHM);
      /* The lengths pl_skesk_parse accepts. */
      if (!session_key
          || (skesk->version == 5 && keylen != keklen)
          || (keylen != 16 && keylen != 24 && keylen != 32))
        return gpg_error (GPG_ERR_INV_KEYLEN);
      break;
    default:
      return gpg_error (GPG_ERR_UNKNOWN_VERSION);
    }

  kek = gcry_malloc_secure (keklen + 1 + PL_SESSION_KEY_MAX);
  if (!kek)
    return gpg_error_from_syserror ();
  plain = kek + keklen;

  if (skesk->version != 4)
    {
      /* A fresh nonce per packet; the S2K salt already makes the KEK
       * unique, but a nonce is cheap. */
      skesk->iv_len = pl_aead_nonce_length (skesk->aead_algo);
      gcry_randomize (skesk->iv, skesk->iv_len, GCRY_STRONG_RANDOM);
    }
  err = kek_from_s2k (skesk, s2k_key, kek, keklen);
  if (err)
    goto leave;

  if (skesk->version == 4)
    {
      plain[0] = (uint8_t) skesk->cipher_algo;
      memcpy (plain + 1, session_key, keylen);
      err = gcry_cipher_open (&hd, pl_cipher_gcry_algo (skesk->cipher_algo),
                              GCRY_CIPHER_MODE_CFB, GCRY_CIPHER_SECURE);
      if (!err)
        err = gcry_cipher_setkey (hd, kek, keklen);
      if (!err)
        err = gcry_cipher_encrypt (hd, skesk->esk, 1 + keylen, plain,
                                   1 + keylen);
      if (err)
        goto leave;
      skesk->esk_len = 1 + keylen;
      goto leave;
    }

  err = open_aead (&hd, skesk, kek, keklen);
  if (!err)
    err = gcry_cipher_encrypt (hd, skesk->esk, keylen, session_key, keylen);
  if (!err)
    err = gcry_cipher_gettag (hd, skesk->esk + keylen, TAG_LEN);
  if (err)
    goto leave;
  skesk->esk_len = keylen + TAG_LEN;

 leave:
  gcry_cipher_close (hd);
  pl_wipe (kek, keklen + 1 + PL_SESSION_KEY_MAX);
  gcry_free (kek);
  if (err)
    skesk->esk_len = 0;
  return err;
}


size_t
pl_skesk_write (const pl_skesk *skesk, uint8_t *body)
{
  size_t n = 0, s2k_len;
  uint8_t s2k[PL_S2K_SPEC_MAX];

  s2k_len = pl_s2k_write (&skesk->s2k, s2k);
  body[n++] = (uint8_t) skesk->version;
  if (skesk->version == 6)
    body[n++] = (uint8_t) (3 + s2k_len + skesk->iv_len);
  body[n++] = (uint8_t) skesk->cipher_algo;
  if (skesk->version != 4)
    body[n++] = (uint8_t) skesk->aead_algo;
  if (skesk->version == 6)
    body[n++] = (uint8_t) s2k_len;
  memcpy (body + n, s2k, s2k_len);
  n += s2k_len;
  if (skesk->version != 4)
    {
      memcpy (body + n, skesk->iv, skesk->iv_len);
      n += skesk->iv_len;
    }
  memcpy (body + n, skesk->esk, skesk->esk_len);
  n += skesk->esk_len;
  return n;
}
