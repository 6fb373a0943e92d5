/* sign.c - making signatures over keys (RFC 9580 §5.2.4) with libgcrypt */
#include "sign.h"
#include "algo.h"

#include <string.h>
#include <gcrypt.h>

void
pl_subpacket_put (uint8_t *out, size_t *pos, int type, const uint8_t *data,
                  size_t n)
{
  /* Every subpacket written here is shorter than 191 octets. */
  out[(*pos)++] = (uint8_t) (n + 1);
  out[(*pos)++] = (uint8_t) type;
  memcpy (out + *pos, data, n);
  *pos += n;
}

static void
put_be (uint8_t *p, uint32_t v, int octets)
{
  for (int i = 0; i < octets; i++)
    p[i] = (uint8_t) (v >> (8 * (octets - 1 - i)));
}

/* EdDSA over DIGEST with the 32-octet seed of SIGNER into R and S. */
static gpg_error_t
eddsa_sign (const pl_seckey *signer, const uint8_t *digest, size_t dlen,
            uint8_t *r, uint8_t *s)
{
  const pl_pubkey *pub = signer->pub;
  const pl_field *d = &signer->field[0];
  uint8_t *seed = gcry_malloc_secure (32);
  gcry_sexp_t key = NULL, data = NULL, sig = NULL;
  gpg_error_t err = seed ? 0 : gpg_error (GPG_ERR_ENOMEM);
  const void *p;
  size_t n;

  if (!err && d->len > 32)
    err = gpg_error (GPG_ERR_BAD_SECKEY);
  if (!err)
    {
      /* Legacy EdDSA keeps the seed as an MPI: leading zeros dropped. */
      memset (seed, 0, 32 - d->len);
      memcpy (seed + 32 - d->len, signer->mem + d->off, d->len);
      err = gcry_sexp_build (&key, NULL, "(private-key (ecc (curve Ed25519)"
                             " (flags eddsa) (q %b) (d %b)))",
                             (int) pub->field[0].len, pl_pubkey_field (pub, 0),
                             32, seed);
    }
  if (!err)
    err = gcry_sexp_build (&data, NULL, "(data (flags eddsa) (hash-algo sha512)"
                           " (value %b))", (int) dlen, digest);
  if (!err)
    err = gcry_pk_sign (&sig, data, key);
  for (int i = 0; i < 2 && !err; i++)
    {
      gcry_sexp_t l = gcry_sexp_find_token (sig, i ? "s" : "r", 0);
      p = l ? gcry_sexp_nth_data (l, 1, &n) : NULL;
      if (!p || n > 32)
        err = gpg_error (GPG_ERR_BAD_SIGNATURE);
      else
        {
          uint8_t *out = i ? s : r;
          memset (out, 0, 32 - n);
          memcpy (out + 32 - n, p, n);
        }
      gcry_sexp_release (l);
    }
  if (seed)
    pl_wipe (seed, 32);
  gcry_free (seed);
  gcry_sexp_release (key);
  gcry_sexp_release (data);
  gcry_sexp_release (sig);
  return err;
}

/* The hashed area: creation time, issuer fingerprint, HASHED. */
static size_t
hashed_area (const pl_pubkey *pub, uint32_t created, const uint8_t *hashed,
             size_t hashed_len, uint8_t *out)
{
  uint8_t t[4], fpr[1 + PL_FPR_MAX];
  size_t pos = 0;

  put_be (t, created, 4);
  pl_subpacket_put (out, &pos, 2, t, 4);
  fpr[0] = (uint8_t) pub->version;
  memcpy (fpr + 1, pub->fpr, pub->fpr_len);
  pl_subpacket_put (out, &pos, 33, fpr, 1 + pub->fpr_len);
  memcpy (out + pos, hashed, hashed_len);
  return pos + hashed_len;
}

gpg_error_t
pl_sig_sign (const pl_seckey *signer, int type, const pl_sig_target *target,
             uint32_t created, const uint8_t *hashed, size_t hashed_len,
             uint8_t *body, size_t *len)
{
  const pl_pubkey *pub = signer->pub;
  int v6 = pub->version == 6, wide = v6 ? 4 : 2;
  uint8_t salt[32], trailer[6], r[32], s[32];
  size_t pos = 4, area, salt_len = v6 ? pl_sig_salt_length (PL_HASH_SHA512) : 0;
  gcry_md_hd_t md;
  gpg_error_t err;

  if ((pub->algo != PL_PK_EDDSA && pub->algo != PL_PK_ED25519)
      || hashed_len > 200)
    return gpg_error (GPG_ERR_PUBKEY_ALGO);
  body[0] = (uint8_t) pub->version;
  body[1] = (uint8_t) type;
  body[2] = (uint8_t) pub->algo;
  body[3] = PL_HASH_SHA512;
  area = hashed_area (pub, created, hashed, hashed_len, body + pos + wide);
  put_be (body + pos, (uint32_t) area, wide);
  pos += wide + area;
  put_be (trailer + 2, (uint32_t) pos, 4);
  trailer[0] = (uint8_t) pub->version;
  trailer[1] = 0xFF;
  if (v6)
    gcry_randomize (salt, salt_len, GCRY_STRONG_RANDOM);
  err = gcry_md_open (&md, GCRY_MD_SHA512, 0);
  if (err)
    return err;
  pl_sig_hash_target (md, pub->version, type, salt, salt_len, target);
  gcry_md_write (md, body, pos);
  gcry_md_write (md, trailer, 6);
  err = eddsa_sign (signer, gcry_md_read (md, GCRY_MD_SHA512), 64, r, s);
  if (!err)
    {
      /* Unhashed: the issuer's key ID (v4 only). */
      put_be (body + pos, v6 ? 0 : 10, wide);
      pos += wide;
      if (!v6)
        pl_subpacket_put (body, &pos, 16, pub->keyid, 8);
      memcpy (body + pos, gcry_md_read (md, GCRY_MD_SHA512), 2);
      pos += 2;
    }
  gcry_md_close (md);
  if (err)
    return err;
  if (v6)
    {
      body[pos++] = (uint8_t) salt_len;
      memcpy (body + pos, salt, salt_len);
      pos += salt_len;
      memcpy (body + pos, r, 32);
      memcpy (body + pos + 32, s, 32);
      pos += 64;
    }
  else
    {
      pos += pl_mpi_write (r, 32, body + pos);
      pos += pl_mpi_write (s, 32, body + pos);
    }
  pl_wipe (r, 32);
  pl_wipe (s, 32);
  *len = pos;
  return 0;
}
