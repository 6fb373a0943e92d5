/* sign.c - making signatures over keys (RFC 9580 §5.2.4) with libgcrypt */
#include "sign.h"
#include "algo.h"
#include "verify.h"

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

/* An EdDSA signature's R and S (32 octets each, zeros first) from SIG. */
static gpg_error_t
eddsa_values (gcry_sexp_t sig, uint8_t *r, uint8_t *s)
{
  gpg_error_t err = 0;

  for (int i = 0; i < 2 && !err; i++)
    {
      gcry_sexp_t l = gcry_sexp_find_token (sig, i ? "s" : "r", 0);
      size_t n = 0;
      const void *p = l ? gcry_sexp_nth_data (l, 1, &n) : NULL;

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
  return err;
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
  if (!err)
    err = eddsa_values (sig, r, s);
  if (seed)
    pl_wipe (seed, 32);
  gcry_free (seed);
  gcry_sexp_release (key);
  gcry_sexp_release (data);
  gcry_sexp_release (sig);
  return err;
}

/* Appends the value of the S-expression token NAME in SIG to OUT + *POS
 * as an MPI (at most MAX octets of value). */
static gpg_error_t
put_sexp_mpi (gcry_sexp_t sig, const char *name, size_t max, uint8_t *out,
              size_t *pos)
{
  gcry_sexp_t l = gcry_sexp_find_token (sig, name, 0);
  size_t n = 0;
  const void *p = l ? gcry_sexp_nth_data (l, 1, &n) : NULL;
  gpg_error_t err = 0;

  if (!p || n > max)
    err = gpg_error (GPG_ERR_BAD_SIGNATURE);
  else
    *pos += pl_mpi_write (p, n, out + *pos);
  gcry_sexp_release (l);
  return err;
}

/* The secret key of SIGNER (RSA or ECDSA) as libgcrypt takes it. */
static gpg_error_t
secret_sexp (const pl_seckey *signer, gcry_sexp_t *key)
{
  const pl_pubkey *pub = signer->pub;
  gcry_mpi_t m[6] = { NULL };
  gpg_error_t err = 0;

  if (pub->algo == PL_PK_ECDSA)
    {
      err = pl_seckey_mpi (signer, 0, &m[0]);
      if (!err)
        err = gcry_sexp_build (key, NULL, "(private-key (ecc (curve %s)"
                               " (q %b) (d %m)))",
                               pl_curve_gcry_name (pub->curve),
                               (int) pub->field[0].len,
                               pl_pubkey_field (pub, 0), m[0]);
      gcry_mpi_release (m[0]);
      return err;
    }
  err = pl_pubkey_mpi (pub, 0, &m[0]);
  if (!err)
    err = pl_pubkey_mpi (pub, 1, &m[1]);
  for (int i = 0; i < 4 && !err; i++)
    err = pl_seckey_mpi (signer, i, &m[2 + i]);
  /* OpenPGP's u is p^-1 mod q, with p < q: as libgcrypt has it. */
  if (!err)
    err = gcry_sexp_build (key, NULL, "(private-key (rsa (n %m) (e %m)"
                           " (d %m) (p %m) (q %m) (u %m)))", m[0], m[1],
                           m[2], m[3], m[4], m[5]);
  for (int i = 0; i < 6; i++)
    gcry_mpi_release (m[i]);
  return err;
}

/* RSA (PKCS#1 v1.5) or ECDSA over DIGEST: the signature's MPIs. */
static gpg_error_t
gcry_sign (const pl_seckey *signer, int hash_algo, const uint8_t *digest,
           size_t dlen, uint8_t *out, size_t *pos)
{
  int rsa = signer->pub->algo != PL_PK_ECDSA;
  const char *hname = gcry_md_algo_name (pl_hash_gcry_algo (hash_algo));
  gcry_sexp_t key = NULL, data = NULL, sig = NULL;
  gpg_error_t err = secret_sexp (signer, &key);

  if (!err)
    err = rsa ? gcry_sexp_build (&data, NULL,
                                 "(data (flags pkcs1) (hash %s %b))", hname,
                                 (int) dlen, digest)
              : gcry_sexp_build (&data, NULL, "(data (flags raw) (value %b))",
                                 (int) dlen, digest);
  if (!err)
    err = gcry_pk_sign (&sig, data, key);
  if (!err)
    err = put_sexp_mpi (sig, rsa ? "s" : "r", PL_PUBKEY_BITS_MAX / 8, out,
                        pos);
  if (!err && !rsa)
    err = put_sexp_mpi (sig, "s", 66, out, pos);
  gcry_sexp_release (key);
  gcry_sexp_release (data);
  gcry_sexp_release (sig);
  return err;
}

/* R and S of EdDSA at OUT + *POS: native for Ed25519 (27), MPIs for
 * the legacy EdDSA (22). */
static void
put_eddsa (int algo, uint8_t *r, uint8_t *s, uint8_t *out, size_t *pos)
{
  if (algo == PL_PK_ED25519)
    {
      memcpy (out + *pos, r, 32);
      memcpy (out + *pos + 32, s, 32);
      *pos += 64;
    }
  else
    {
      *pos += pl_mpi_write (r, 32, out + *pos);
      *pos += pl_mpi_write (s, 32, out + *pos);
    }
}

/* A signer held elsewhere: its callback signs, and its answer's values
 * are written as ours would be. */
static gpg_error_t
held_sign (const pl_seckey *signer, int hash_algo, const uint8_t *digest,
           size_t dlen, uint8_t *out, size_t *pos)
{
  const pl_pubkey *pub = signer->pub;
  gcry_sexp_t sig = NULL;
  uint8_t r[32], s[32];
  gpg_error_t err = signer->sign (signer->sign_data, pub,
                                  pl_hash_gcry_algo (hash_algo), digest, dlen,
                                  &sig);

  if (!err && !sig)
    err = gpg_error (GPG_ERR_BAD_SIGNATURE);
  if (!err)
    switch (pub->algo)
      {
      case PL_PK_RSA: case PL_PK_RSA_S:
        err = put_sexp_mpi (sig, "s", PL_PUBKEY_BITS_MAX / 8, out, pos);
        break;
      case PL_PK_ECDSA:
        err = put_sexp_mpi (sig, "r", 66, out, pos);
        if (!err)
          err = put_sexp_mpi (sig, "s", 66, out, pos);
        break;
      case PL_PK_EDDSA: case PL_PK_ED25519:
        err = eddsa_values (sig, r, s);
        if (!err)
          put_eddsa (pub->algo, r, s, out, pos);
        break;
      default:
        err = gpg_error (GPG_ERR_PUBKEY_ALGO);
      }
  gcry_sexp_release (sig);
  return err;
}

/* The signature material of SIGNER over DIGEST at OUT + *POS. */
static gpg_error_t
sign_digest (const pl_seckey *signer, int hash_algo, const uint8_t *digest,
             size_t dlen, uint8_t *out, size_t *pos)
{
  uint8_t r[32], s[32];
  gpg_error_t err;

  if (signer->sign)
    return held_sign (signer, hash_algo, digest, dlen, out, pos);
  switch (signer->pub->algo)
    {
    case PL_PK_RSA: case PL_PK_RSA_S: case PL_PK_ECDSA:
      return gcry_sign (signer, hash_algo, digest, dlen, out, pos);
    case PL_PK_EDDSA: case PL_PK_ED25519:
      err = eddsa_sign (signer, digest, dlen, r, s);
      if (err)
        return err;
      put_eddsa (signer->pub->algo, r, s, out, pos);
      pl_wipe (r, 32);
      pl_wipe (s, 32);
      return 0;
    default:
      return gpg_error (GPG_ERR_PUBKEY_ALGO);
    }
}

/* The hash gpg 2.2 picks (g10/sign.c, DEFAULT_DIGEST_ALGO SHA-256): SHA-256
 * for RSA and Ed25519 (legacy EdDSA and v6), which runs at 2.2x SHA-512's
 * speed on this project's machine (SHA-NI; bench/sig-speed); Ed448 needs a 512-bit hash (RFC 9580 5.2.3.5);
 * ECDSA takes the hash of the curve's size (a longer one would only be cut
 * to the order). */
static int
sign_hash (const pl_pubkey *pub)
{
  switch (pub->algo)
    {
    case PL_PK_ED448:
      return PL_HASH_SHA512;
    case PL_PK_ECDSA:
      switch (pl_curve_coordinate_length (pub->curve))
        {
        case 32: return PL_HASH_SHA256;
        case 48: return PL_HASH_SHA384;
        default: return PL_HASH_SHA512;
        }
    default:
      return PL_HASH_SHA256;
    }
}

int
pl_sig_can_make (const pl_pubkey *pub)
{
  switch (pub->algo)
    {
    case PL_PK_RSA: case PL_PK_RSA_S: case PL_PK_ECDSA: case PL_PK_EDDSA:
    case PL_PK_ED25519:
      return 1;
    default:
      return 0;
    }
}

gpg_error_t
pl_sig_begin (pl_sig_builder *b, const pl_seckey *signer, int type,
              uint32_t created, const uint8_t *hashed, size_t hashed_len)
{
  const pl_pubkey *pub = signer->pub;
  int wide = pub->version == 6 ? 4 : 2;
  uint8_t t[4], fpr[1 + PL_FPR_MAX];
  size_t area = 0, at = 4 + (size_t) wide;
  gpg_error_t err;

  memset (b, 0, sizeof *b);
  if (!pl_sig_can_make (pub) || hashed_len > 200)
    return gpg_error (GPG_ERR_PUBKEY_ALGO);
  b->signer = signer;
  b->hash_algo = sign_hash (pub);
  b->body[0] = (uint8_t) pub->version;
  b->body[1] = (uint8_t) type;
  b->body[2] = (uint8_t) pub->algo;
  b->body[3] = (uint8_t) b->hash_algo;
  /* The hashed area: creation time, issuer fingerprint, HASHED. */
  put_be (t, created, 4);
  pl_subpacket_put (b->body + at, &area, 2, t, 4);
  fpr[0] = (uint8_t) pub->version;
  memcpy (fpr + 1, pub->fpr, pub->fpr_len);
  pl_subpacket_put (b->body + at, &area, 33, fpr, 1 + pub->fpr_len);
  if (hashed_len)
    memcpy (b->body + at + area, hashed, hashed_len);
  area += hashed_len;
  put_be (b->body + 4, (uint32_t) area, wide);
  b->pos = at + area;
  err = gcry_md_open (&b->md, pl_hash_gcry_algo (b->hash_algo), 0);
  if (err)
    return err;
  if (pub->version == 6)
    {
      b->salt_len = pl_sig_salt_length (b->hash_algo);
      gcry_randomize (b->salt, b->salt_len, GCRY_STRONG_RANDOM);
      gcry_md_write (b->md, b->salt, b->salt_len);
    }
  return 0;
}

gpg_error_t
pl_sig_end (pl_sig_builder *b, uint8_t *body, size_t *len)
{
  const pl_pubkey *pub = b->signer->pub;
  int v6 = pub->version == 6, wide = v6 ? 4 : 2;
  int galgo = pl_hash_gcry_algo (b->hash_algo);
  uint8_t trailer[6];
  size_t pos = b->pos;
  const uint8_t *digest;

  trailer[0] = (uint8_t) pub->version;
  trailer[1] = 0xFF;
  put_be (trailer + 2, (uint32_t) pos, 4);
  gcry_md_write (b->md, b->body, pos);
  gcry_md_write (b->md, trailer, 6);
  digest = gcry_md_read (b->md, galgo);
  memcpy (body, b->body, pos);
  /* Unhashed: the issuer's key ID (v4 only). */
  put_be (body + pos, v6 ? 0 : 10, wide);
  pos += (size_t) wide;
  if (!v6)
    pl_subpacket_put (body, &pos, 16, pub->keyid, 8);
  memcpy (body + pos, digest, 2);
  pos += 2;
  if (v6)
    {
      body[pos++] = (uint8_t) b->salt_len;
      memcpy (body + pos, b->salt, b->salt_len);
      pos += b->salt_len;
    }
  *len = pos;
  return sign_digest (b->signer, b->hash_algo, digest,
                      pl_sig_digest_length (pub, galgo), body, len);
}

void
pl_sig_builder_clear (pl_sig_builder *b)
{
  gcry_md_close (b->md);
  b->md = NULL;
}

gpg_error_t
pl_sig_sign (const pl_seckey *signer, int type, const pl_sig_target *target,
             uint32_t created, const uint8_t *hashed, size_t hashed_len,
             uint8_t *body, size_t *len)
{
  pl_sig_builder b;
  gpg_error_t err = pl_sig_begin (&b, signer, type, created, hashed,
                                  hashed_len);

  if (!err)
    {
      /* The salt went in first, in pl_sig_begin. */
      pl_sig_hash_target (b.md, 4, type, NULL, 0, target);
      err = pl_sig_end (&b, body, len);
    }
  pl_sig_builder_clear (&b);
  return err;
}

/* ---- Data signatures ----------------------------------------------- */

gpg_error_t
pl_data_signer_init (pl_data_signer *s, const pl_seckey *signer, int text,
                     uint32_t created)
{
  gpg_error_t err = pl_sig_begin (&s->b, signer,
                                  text ? PL_SIG_TEXT : PL_SIG_BINARY,
                                  created, NULL, 0);

  memset (&s->h, 0, sizeof s->h);
  s->h.text = text;
  s->h.md = s->b.md;
  return err;
}

size_t
pl_data_signer_onepass (const pl_data_signer *s, int last, uint8_t *out)
{
  const pl_pubkey *pub = s->b.signer->pub;
  size_t pos = 0;

  out[pos++] = pub->version == 6 ? 6 : 3;
  out[pos++] = s->b.body[1];
  out[pos++] = (uint8_t) s->b.hash_algo;
  out[pos++] = (uint8_t) pub->algo;
  if (pub->version == 6)
    {
      out[pos++] = (uint8_t) s->b.salt_len;
      memcpy (out + pos, s->b.salt, s->b.salt_len);
      pos += s->b.salt_len;
      memcpy (out + pos, pub->fpr, 32);
      pos += 32;
    }
  else
    {
      memcpy (out + pos, pub->keyid, 8);
      pos += 8;
    }
  out[pos++] = last ? 1 : 0;
  return pos;
}

void
pl_data_signer_push (pl_data_signer *s, const uint8_t *p, size_t n)
{
  pl_data_hash_write (&s->h, p, n);
}

gpg_error_t
pl_data_signer_finish (pl_data_signer *s, uint8_t *body, size_t *len)
{
  return pl_sig_end (&s->b, body, len);
}

void
pl_data_signer_clear (pl_data_signer *s)
{
  pl_sig_builder_clear (&s->b);
}
