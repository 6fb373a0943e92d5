/* seckey.c - the secret part of secret-key packets (RFC 9580 §5.5.3) */
#include "seckey.h"
#include "algo.h"
#include "hkdf.h"
#include "s2k.h"
#include "skesk.h"

#include <string.h>

enum
{
  USAGE_CLEAR = 0,
  USAGE_AEAD = 253,
  USAGE_SHA1 = 254,
  USAGE_CHECKSUM = 255
};

/* The protection parameters in front of the secret fields. */
typedef struct
{
  int usage;
  int cipher_algo;
  int aead_algo;
  pl_s2k s2k;
  const uint8_t *iv;
  size_t iv_len;
  const uint8_t *data;          /* the (encrypted) fields and their check */
  size_t data_len;
} protection;

static gpg_error_t
parse_protection (const pl_cert_key *key, protection *p)
{
  const uint8_t *s = key->secret;
  size_t n = key->secret_len, pos = 1, used, end = 0;
  int v6 = key->key.version == 6;
  gpg_error_t err;

  memset (p, 0, sizeof *p);
  if (!s || !n)
    return gpg_error (GPG_ERR_NO_SECKEY);
  p->usage = s[0];
  if (p->usage == USAGE_CLEAR)
    goto fields;
  if ((p->usage != USAGE_AEAD && p->usage != USAGE_SHA1
       && p->usage != USAGE_CHECKSUM) || (v6 && p->usage == USAGE_CHECKSUM))
    return gpg_error (GPG_ERR_NO_SECKEY);
  if (v6)
    {
      if (n < 2)
        return gpg_error (GPG_ERR_INV_PACKET);
      end = 2 + (size_t) s[1];
      pos = 2;
    }
  if (n - pos < 2)
    return gpg_error (GPG_ERR_INV_PACKET);
  p->cipher_algo = s[pos++];
  if (p->usage == USAGE_AEAD)
    p->aead_algo = s[pos++];
  if (v6)
    pos++;                      /* the S2K's length, checked below */
  err = pl_s2k_parse (&p->s2k, s + pos, n - pos, &used);
  if (err)
    return gpg_err_code (err) == GPG_ERR_UNSUPPORTED_ALGORITHM
           ? gpg_error (GPG_ERR_NO_SECKEY) : err;
  if (v6 && s[pos - 1] != used)
    return gpg_error (GPG_ERR_INV_PACKET);
  pos += used;
  p->iv_len = p->usage == USAGE_AEAD ? pl_aead_nonce_length (p->aead_algo)
                                     : pl_cipher_block_length (p->cipher_algo);
  if (!p->iv_len || !pl_cipher_gcry_algo (p->cipher_algo))
    return gpg_error (GPG_ERR_NO_SECKEY);
  if (n - pos < p->iv_len || (v6 && pos + p->iv_len != end))
    return gpg_error (GPG_ERR_INV_PACKET);
  p->iv = s + pos;
  pos += p->iv_len;
 fields:
  p->data = s + pos;
  p->data_len = n - pos;
  return 0;
}

int
pl_seckey_protection (const pl_cert_key *key)
{
  protection p;

  if (parse_protection (key, &p))
    return -1;
  return p.usage != USAGE_CLEAR;
}

/* The fields of the cleartext in SK->mem: how many and of what kind. */
static gpg_error_t
parse_fields (pl_seckey *sk, size_t len)
{
  int mpis = 1;
  size_t native = 0, pos = 0;

  switch (sk->pub->algo)
    {
    case PL_PK_RSA: case PL_PK_RSA_E: case PL_PK_RSA_S: mpis = 4; break;
    case PL_PK_X25519: case PL_PK_ED25519: native = 32; break;
    case PL_PK_X448: native = 56; break;
    case PL_PK_ED448: native = 57; break;
    default: break;
    }
  if (native)
    {
      if (len < native)
        return gpg_error (GPG_ERR_INV_PACKET);
      sk->field[0].off = 0;
      sk->field[0].len = native;
      sk->n_fields = 1;
      return 0;
    }
  for (int i = 0; i < mpis; i++)
    {
      size_t off, n, used;
      gpg_error_t err = pl_mpi_read (sk->mem + pos, len - pos,
                                     PL_PUBKEY_BITS_MAX, &off, &n, &used);
      if (err)
        return err;
      sk->field[i].off = pos + off;
      sk->field[i].len = n;
      pos += used;
    }
  sk->n_fields = mpis;
  return 0;
}

/* The octets the fields took (their check follows). */
static size_t
fields_end (const pl_seckey *sk)
{
  const pl_field *last = &sk->field[sk->n_fields - 1];
  return last->off + last->len;
}

static int
checksum_ok (const uint8_t *p, size_t n, const uint8_t *check)
{
  unsigned int sum = 0;

  for (size_t i = 0; i < n; i++)
    sum += p[i];
  return check[0] == (uint8_t) (sum >> 8) && check[1] == (uint8_t) sum;
}

/* CFB (254, 255) or AEAD (253) with the S2K output KEY, in place: on
 * decryption *LEN includes the AEAD tag and loses it; on encryption
 * (ENCRYPT) the tag is appended after *LEN octets and counted. */
static gpg_error_t
crypt_fields (const pl_pubkey *pub, int tag, const protection *p,
              const uint8_t *key, uint8_t *buf, size_t *len, int encrypt)
{
  gcry_cipher_hd_t hd;
  int aead = p->usage == USAGE_AEAD;
  int mode = aead ? pl_aead_gcry_mode (p->aead_algo) : GCRY_CIPHER_MODE_CFB;
  size_t keylen = pl_cipher_key_length (p->cipher_algo);
  uint8_t *hkey = gcry_malloc_secure (PL_SESSION_KEY_MAX);
  gpg_error_t err;

  if (!hkey)
    return gpg_error (GPG_ERR_ENOMEM);
  memcpy (hkey, key, keylen);
  if (aead && !encrypt && *len < 16)
    err = gpg_error (GPG_ERR_INV_PACKET);
  else if (aead)
    {
      uint8_t info[4] = { (uint8_t) (0xC0 | tag), (uint8_t) pub->version,
                          (uint8_t) p->cipher_algo, (uint8_t) p->aead_algo };
      err = pl_hkdf_sha256 (NULL, 0, key, keylen, info, 4, hkey, keylen);
    }
  else
    err = 0;
  if (!err)
    err = gcry_cipher_open (&hd, pl_cipher_gcry_algo (p->cipher_algo),
                            mode, GCRY_CIPHER_SECURE);
  if (err)
    goto leave;
  err = gcry_cipher_setkey (hd, hkey, keylen);
  if (!err)
    err = gcry_cipher_setiv (hd, p->iv, p->iv_len);
  if (!err && aead)
    {
      uint8_t head = (uint8_t) (0xC0 | tag);
      if (!encrypt)
        *len -= 16;
      err = gcry_cipher_authenticate (hd, &head, 1);
      if (!err)
        err = gcry_cipher_authenticate (hd, pub->body, pub->body_len);
      if (!err)
        err = gcry_cipher_final (hd);
    }
  if (!err && encrypt)
    err = gcry_cipher_encrypt (hd, buf, *len, NULL, 0);
  else if (!err)
    err = gcry_cipher_decrypt (hd, buf, *len, NULL, 0);
  if (!err && aead && encrypt)
    {
      err = gcry_cipher_gettag (hd, buf + *len, 16);
      *len += 16;
    }
  else if (!err && aead && gcry_cipher_checktag (hd, buf + *len, 16))
    err = gpg_error (GPG_ERR_BAD_PASSPHRASE);
  gcry_cipher_close (hd);
 leave:
  pl_wipe (hkey, PL_SESSION_KEY_MAX);
  gcry_free (hkey);
  return err;
}

/* The check after the fields: none (v6 clear, AEAD), SHA-1 (254) or the
 * 2-octet sum (v4 clear, 255). */
static gpg_error_t
check_fields (const pl_seckey *sk, const protection *p, size_t len)
{
  size_t end = fields_end (sk);

  if (p->usage == USAGE_AEAD || (p->usage == USAGE_CLEAR
                                 && sk->pub->version == 6))
    return end == len ? 0 : gpg_error (GPG_ERR_INV_PACKET);
  if (p->usage == USAGE_SHA1)
    {
      uint8_t digest[20];
      int ok;
      if (len != end + 20)
        return gpg_error (GPG_ERR_BAD_PASSPHRASE);
      gcry_md_hash_buffer (GCRY_MD_SHA1, digest, sk->mem, end);
      ok = !memcmp (digest, sk->mem + end, 20);
      pl_wipe (digest, sizeof digest);
      return ok ? 0 : gpg_error (GPG_ERR_BAD_PASSPHRASE);
    }
  if (len != end + 2 || !checksum_ok (sk->mem, end, sk->mem + end))
    return gpg_error (p->usage == USAGE_CLEAR ? GPG_ERR_INV_PACKET
                                              : GPG_ERR_BAD_PASSPHRASE);
  return 0;
}

gpg_error_t
pl_seckey_unlock (const pl_cert_key *key, int tag, const char *passphrase,
                  size_t passphrase_len, uint32_t argon2_cap_kib,
                  const atomic_int *cancel, pl_seckey *out)
{
  pl_s2k_control ctl = { cancel, 1 };
  protection p;
  uint8_t *s2k_key = NULL;
  size_t len;
  gpg_error_t err;

  memset (out, 0, sizeof *out);
  out->pub = &key->key;
  err = parse_protection (key, &p);
  if (err)
    return err;
  len = p.data_len;
  out->mem = gcry_malloc_secure (len ? len : 1);
  if (!out->mem)
    return gpg_error (GPG_ERR_ENOMEM);
  out->mem_len = len;
  memcpy (out->mem, p.data, len);
  if (p.usage != USAGE_CLEAR)
    {
      size_t keylen = pl_cipher_key_length (p.cipher_algo);
      s2k_key = gcry_malloc_secure (PL_SESSION_KEY_MAX);
      err = s2k_key ? 0 : gpg_error (GPG_ERR_ENOMEM);
      if (!err && keylen > PL_SESSION_KEY_MAX)
        err = gpg_error (GPG_ERR_CIPHER_ALGO);
      if (!err)
        err = pl_s2k_derive_controlled (&p.s2k, passphrase ? passphrase : "",
                                        passphrase_len, s2k_key, keylen,
                                        argon2_cap_kib, &ctl);
      if (!err)
        err = crypt_fields (&key->key, tag, &p, s2k_key, out->mem, &len, 0);
    }
  if (!err)
    {
      err = parse_fields (out, len);
      /* Garbage from a wrong CFB key fails here as often as at the check. */
      if (err && p.usage != USAGE_CLEAR && p.usage != USAGE_AEAD)
        err = gpg_error (GPG_ERR_BAD_PASSPHRASE);
    }
  if (!err)
    err = check_fields (out, &p, len);
  if (s2k_key)
    {
      pl_wipe (s2k_key, PL_SESSION_KEY_MAX);
      gcry_free (s2k_key);
    }
  if (err)
    pl_seckey_clear (out);
  return err;
}

gpg_error_t
pl_seckey_mpi (const pl_seckey *sk, int field, gcry_mpi_t *out)
{
  /* The buffer is secure, so the MPI is allocated in secure memory. */
  return gcry_mpi_scan (out, GCRYMPI_FMT_USG, sk->mem + sk->field[field].off,
                        sk->field[field].len, NULL);
}

void
pl_seckey_clear (pl_seckey *sk)
{
  if (sk->mem)
    {
      pl_wipe (sk->mem, sk->mem_len);
      gcry_free (sk->mem);
    }
  memset (sk, 0, sizeof *sk);
}

/* The protection parameters a new key gets: v4 S2K usage 254 with
 * AES-256 and iterated SHA-256 (what gpg 2.2 reads), v6 usage 253 with
 * AES-256 OCB and Argon2 (RFC 9580 §3.7.2.1). */
static gpg_error_t
new_protection (const pl_pubkey *pub, protection *p, uint8_t *iv)
{
  gpg_error_t err = 0;

  memset (p, 0, sizeof *p);
  p->cipher_algo = PL_CIPHER_AES256;
  if (pub->version == 6)
    {
      p->usage = USAGE_AEAD;
      p->aead_algo = PL_AEAD_OCB;
      pl_s2k_new_argon2 (&p->s2k, 3, 4, 16);
    }
  else
    {
      p->usage = USAGE_SHA1;
      err = pl_s2k_new_iterated (&p->s2k, PL_HASH_SHA256, 0);
    }
  p->iv_len = p->usage == USAGE_AEAD ? pl_aead_nonce_length (p->aead_algo)
                                     : pl_cipher_block_length (p->cipher_algo);
  gcry_randomize (iv, p->iv_len, GCRY_STRONG_RANDOM);
  p->iv = iv;
  return err;
}

/* The octets before the fields for P (usage, cipher, S2K, IV) into OUT. */
static size_t
write_protection (const pl_pubkey *pub, const protection *p, uint8_t *out)
{
  uint8_t s2k[20];
  size_t s2k_len = pl_s2k_write (&p->s2k, s2k), pos = 0;

  out[pos++] = (uint8_t) p->usage;
  if (pub->version == 6)
    out[pos++] = (uint8_t) (1 + (p->usage == USAGE_AEAD) + 1 + s2k_len
                            + p->iv_len);
  out[pos++] = (uint8_t) p->cipher_algo;
  if (p->usage == USAGE_AEAD)
    out[pos++] = (uint8_t) p->aead_algo;
  if (pub->version == 6)
    out[pos++] = (uint8_t) s2k_len;
  memcpy (out + pos, s2k, s2k_len);
  pos += s2k_len;
  memcpy (out + pos, p->iv, p->iv_len);
  return pos + p->iv_len;
}

gpg_error_t
pl_seckey_seal (const pl_pubkey *pub, int tag, const uint8_t *fields,
                size_t len, const char *passphrase, size_t passphrase_len,
                uint8_t *out, size_t *out_len)
{
  protection p;
  uint8_t iv[16], *key = NULL, *data;
  size_t pos = 0, n = len;
  gpg_error_t err = 0;

  if (!passphrase)
    {
      out[pos++] = USAGE_CLEAR;
      memcpy (out + pos, fields, len);
      pos += len;
      if (pub->version != 6)
        {
          unsigned int sum = 0;
          for (size_t i = 0; i < len; i++)
            sum += fields[i];
          out[pos++] = (uint8_t) (sum >> 8);
          out[pos++] = (uint8_t) sum;
        }
      *out_len = pos;
      return 0;
    }
  err = new_protection (pub, &p, iv);
  key = err ? NULL : gcry_malloc_secure (PL_SESSION_KEY_MAX);
  if (!err && !key)
    err = gpg_error (GPG_ERR_ENOMEM);
  if (!err)
    err = pl_s2k_derive (&p.s2k, passphrase, passphrase_len, key,
                         pl_cipher_key_length (p.cipher_algo), 0);
  if (err)
    goto leave;
  pos = write_protection (pub, &p, out);
  data = out + pos;
  memcpy (data, fields, len);
  if (p.usage == USAGE_SHA1)
    {
      gcry_md_hash_buffer (GCRY_MD_SHA1, data + len, fields, len);
      n += 20;
    }
  err = crypt_fields (pub, tag, &p, key, data, &n, 1);
  *out_len = pos + n;
 leave:
  if (key)
    pl_wipe (key, PL_SESSION_KEY_MAX);
  gcry_free (key);
  return err;
}
