/* pkesk.c - Public-Key Encrypted Session Key packets (RFC 9580 §5.1) */
#include "pkesk.h"
#include "algo.h"
#include "hkdf.h"
#include "keywrap.h"
#include "skesk.h"

#include <stdio.h>
#include <string.h>
#include <gcrypt.h>

/* The largest "m": a cipher octet, a 32-octet key, the checksum. */
#define M_MAX (1 + PL_SESSION_KEY_MAX + 2)
/* A wrapped key: M_MAX padded to 8, plus the wrap's 8. */
#define WRAPPED_MAX 48

/* ---- Parsing and writing ------------------------------------------- */

static gpg_error_t
parse_fields (pl_pkesk *p)
{
  const uint8_t *d = p->data;
  size_t n = p->data_len, off, len, used, pos = 0;
  gpg_error_t err;

  switch (p->algo)
    {
    case PL_PK_RSA: case PL_PK_RSA_E: case PL_PK_ELGAMAL:
      for (int i = 0; i < (p->algo == PL_PK_ELGAMAL ? 2 : 1); i++)
        {
          err = pl_mpi_read (d + pos, n - pos, PL_PUBKEY_BITS_MAX, &off, &len,
                             &used);
          if (err)
            return err;
          p->f[i].off = pos + off;
          p->f[i].len = len;
          pos += used;
        }
      return pos == n ? 0 : gpg_error (GPG_ERR_INV_PACKET);
    case PL_PK_ECDH:
      err = pl_mpi_read (d, n, (1 + 2 * 66) * 8, &off, &len, &used);
      if (err)
        return err;
      p->f[0].off = off;
      p->f[0].len = len;
      pos = used;
      break;
    case PL_PK_X25519: case PL_PK_X448:
      pos = p->algo == PL_PK_X448 ? 56 : 32;
      if (n < pos)
        return gpg_error (GPG_ERR_INV_PACKET);
      p->f[0].off = 0;
      p->f[0].len = pos;
      break;
    default:
      return gpg_error (GPG_ERR_PUBKEY_ALGO);
    }
  /* A size octet, (X25519/X448 v3: the cipher,) the wrapped key. */
  if (pos >= n || d[pos] == 0xFF || d[pos] != n - pos - 1)
    return gpg_error (GPG_ERR_INV_PACKET);
  pos++;
  if ((p->algo == PL_PK_X25519 || p->algo == PL_PK_X448) && p->version == 3)
    {
      if (pos >= n)
        return gpg_error (GPG_ERR_INV_PACKET);
      p->sym_algo = d[pos++];
    }
  p->f[1].off = pos;
  p->f[1].len = n - pos;
  if (p->f[1].len < 24 || p->f[1].len > WRAPPED_MAX || p->f[1].len % 8)
    return gpg_error (GPG_ERR_INV_PACKET);
  return 0;
}

gpg_error_t
pl_pkesk_parse (pl_pkesk *p, const uint8_t *body, size_t len)
{
  size_t pos;

  memset (p, 0, sizeof *p);
  if (!len)
    return gpg_error (GPG_ERR_INV_PACKET);
  p->version = body[0];
  if (p->version == 3)
    {
      if (len < 10)
        return gpg_error (GPG_ERR_INV_PACKET);
      memcpy (p->keyid, body + 1, 8);
      pos = 9;
    }
  else if (p->version == 6)
    {
      size_t n = len > 1 ? body[1] : 0;
      if (len < 2 || n > len - 2 || (n && n != 21 && n != 33))
        return gpg_error (GPG_ERR_INV_PACKET);
      if (n)
        {
          p->key_version = body[2];
          if ((p->key_version == 4) != (n == 21)
              || (p->key_version != 4 && p->key_version != 6))
            return gpg_error (GPG_ERR_INV_PACKET);
          p->fpr_len = n - 1;
          memcpy (p->fpr, body + 3, p->fpr_len);
        }
      pos = 2 + n;
    }
  else
    return gpg_error (GPG_ERR_UNKNOWN_VERSION);
  if (pos >= len || len - pos - 1 > sizeof p->data)
    return gpg_error (GPG_ERR_INV_PACKET);
  p->algo = body[pos++];
  p->data_len = len - pos;
  memcpy (p->data, body + pos, p->data_len);
  return parse_fields (p);
}

int
pl_pkesk_anonymous (const pl_pkesk *p)
{
  static const uint8_t zero[8];
  return p->version == 3 ? !memcmp (p->keyid, zero, 8) : !p->key_version;
}

int
pl_pkesk_names (const pl_pkesk *p, const pl_pubkey *key)
{
  if (p->version == 3)
    return !memcmp (p->keyid, key->keyid, 8);
  return p->fpr_len == key->fpr_len && !memcmp (p->fpr, key->fpr, key->fpr_len);
}

void
pl_pkesk_recipient (const pl_pkesk *p, char *out)
{
  if (pl_pkesk_anonymous (p))
    strcpy (out, "anonymous");
  else if (p->version == 3)
    pl_fpr_format (p->keyid, 8, out);
  else
    pl_fpr_format (p->fpr, p->fpr_len, out);
}

size_t
pl_pkesk_write (const pl_pkesk *p, uint8_t *body)
{
  size_t pos = 0;

  body[pos++] = (uint8_t) p->version;
  if (p->version == 3)
    {
      memcpy (body + pos, p->keyid, 8);
      pos += 8;
    }
  else
    {
      body[pos++] = (uint8_t) (p->key_version ? 1 + p->fpr_len : 0);
      if (p->key_version)
        {
          body[pos++] = (uint8_t) p->key_version;
          memcpy (body + pos, p->fpr, p->fpr_len);
          pos += p->fpr_len;
        }
    }
  body[pos++] = (uint8_t) p->algo;
  memcpy (body + pos, p->data, p->data_len);
  return pos + p->data_len;
}

/* ---- Constant-time helpers ------------------------------------------ */

/* 1 when A == B, else 0, without a branch. */
static unsigned int
ct_eq (size_t a, size_t b)
{
  size_t x = a ^ b;
  return (unsigned int) (1 ^ ((x | (0 - x)) >> (sizeof x * 8 - 1)));
}

/* 1 when A < B (both below 2^63). */
static unsigned int
ct_lt (size_t a, size_t b)
{
  return (unsigned int) ((a - b) >> (sizeof a * 8 - 1));
}

static uint8_t
ct_byte_at (const uint8_t *p, size_t n, size_t index)
{
  uint8_t r = 0;
  for (size_t i = 0; i < n; i++)
    r |= p[i] & (uint8_t) (0 - ct_eq (i, index));
  return r;
}

/* The session key in BUF[START, END) (START secret, END not): v3 a cipher
 * octet, the key, its checksum; v6 the key and checksum.  Returns 1 when
 * the framing and checksum hold, reading every octet either way. */
static unsigned int
ct_take_session_key (const uint8_t *buf, size_t n, size_t start, size_t end,
                     int v3, uint8_t *key, size_t *keylen, int *algo)
{
  size_t len = end - start, klen = len - (v3 ? 3 : 2), kstart = start + !!v3;
  unsigned int good = ct_lt (start, end) & ct_lt (len, M_MAX + 1);
  unsigned int sum = 0;
  uint8_t s0, s1;

  good &= ct_eq (klen, 16) | ct_eq (klen, 24) | ct_eq (klen, 32);
  *algo = v3 ? ct_byte_at (buf, n, start) : 0;
  for (size_t j = 0; j < PL_SESSION_KEY_MAX; j++)
    {
      uint8_t mask = (uint8_t) (0 - ct_lt (j, klen));
      key[j] = ct_byte_at (buf, n, kstart + j) & mask;
      sum += key[j];
    }
  s0 = ct_byte_at (buf, n, kstart + klen);
  s1 = ct_byte_at (buf, n, kstart + klen + 1);
  good &= ct_eq (s0, (sum >> 8) & 0xFF) & ct_eq (s1, sum & 0xFF);
  *keylen = klen;
  return good;
}

/* "m" for the session key: v3 with the cipher octet, then the checksum. */
static size_t
make_m (uint8_t *m, int v3, int cipher_algo, const uint8_t *key, size_t n)
{
  unsigned int sum = 0;
  size_t pos = 0;

  if (v3)
    m[pos++] = (uint8_t) cipher_algo;
  memcpy (m + pos, key, n);
  pos += n;
  for (size_t i = 0; i < n; i++)
    sum += key[i];
  m[pos++] = (uint8_t) (sum >> 8);
  m[pos++] = (uint8_t) sum;
  return pos;
}

/* An MPI of a result S-expression's TOKEN, as octets into OUT (*LEN in:
 * its size; out: the octets, left-padded to PAD when PAD is not 0). */
static gpg_error_t
sexp_octets (gcry_sexp_t s, const char *token, uint8_t *out, size_t *len,
             size_t pad)
{
  gcry_sexp_t l = gcry_sexp_find_token (s, token, 0);
  gcry_mpi_t m = l ? gcry_sexp_nth_mpi (l, 1, GCRYMPI_FMT_USG) : NULL;
  size_t n = 0;
  gpg_error_t err = m ? 0 : gpg_error (GPG_ERR_DECRYPT_FAILED);

  if (!err && gcry_mpi_get_flag (m, GCRYMPI_FLAG_OPAQUE))
    {
      unsigned int bits;
      const void *p = gcry_mpi_get_opaque (m, &bits);
      n = (bits + 7) / 8;
      if (n > *len)
        err = gpg_error (GPG_ERR_DECRYPT_FAILED);
      else
        memcpy (out, p, n);
    }
  else if (!err)
    err = gcry_mpi_print (GCRYMPI_FMT_USG, out, *len, &n, m);
  if (!err && pad && n < pad && pad <= *len)
    {
      memmove (out + pad - n, out, n);
      memset (out, 0, pad - n);
      n = pad;
    }
  *len = n;
  gcry_mpi_release (m);
  gcry_sexp_release (l);
  return err;
}

/* ---- RSA ----------------------------------------------------------- */

static gpg_error_t
rsa_encrypt (pl_pkesk *p, const pl_pubkey *key, const uint8_t *m, size_t mlen)
{
  gcry_sexp_t pk = NULL, data = NULL, res = NULL;
  size_t n = sizeof p->data - 2;
  gpg_error_t err = pl_pubkey_sexp (key, &pk);

  if (!err)
    err = gcry_sexp_build (&data, NULL, "(data (flags pkcs1) (value %b))",
                           (int) mlen, m);
  if (!err)
    err = gcry_pk_encrypt (&res, data, pk);
  if (!err)
    err = sexp_octets (res, "a", p->data + 2, &n, 0);
  if (!err)
    p->data_len = pl_mpi_write (p->data + 2, n, p->data);
  gcry_sexp_release (pk);
  gcry_sexp_release (data);
  gcry_sexp_release (res);
  return err;
}

static gpg_error_t
rsa_private (const pl_seckey *sk, gcry_sexp_t *out)
{
  gcry_mpi_t v[6] = { NULL };
  gpg_error_t err = pl_pubkey_mpi (sk->pub, 0, &v[0]);

  if (!err)
    err = pl_pubkey_mpi (sk->pub, 1, &v[1]);
  for (int i = 0; i < 4 && !err; i++)
    err = pl_seckey_mpi (sk, i, &v[2 + i]);
  if (!err)
    err = gcry_sexp_build (out, NULL, "(private-key (rsa (n %m) (e %m) (d %m)"
                           " (p %m) (q %m) (u %m)))", v[0], v[1], v[2], v[3],
                           v[4], v[5]);
  for (int i = 0; i < 6; i++)
    gcry_mpi_release (v[i]);
  return err;
}

/* EME-PKCS1-v1_5 decoding (RFC 8017 §7.2.2 step 3) of EM (K octets),
 * then the session key, without a branch on EM. */
static unsigned int
rsa_unpad (const uint8_t *em, size_t k, int v3, uint8_t *key, size_t *keylen,
           int *algo)
{
  unsigned int good = ct_eq (em[0], 0) & ct_eq (em[1], 2), found = 0;
  size_t sep = 0;

  for (size_t i = 2; i < k; i++)
    {
      unsigned int zero = ct_eq (em[i], 0);
      sep |= i & (0 - (size_t) (zero & (found ^ 1)));
      found |= zero;
    }
  /* At least eight octets of padding. */
  good &= found & (ct_lt (sep, 10) ^ 1);
  return good & ct_take_session_key (em, k, sep + 1, k, v3, key, keylen, algo);
}

/* ElGamal's secret key: p, g, y and x. */
static gpg_error_t
elg_private (const pl_seckey *sk, gcry_sexp_t *out)
{
  gcry_mpi_t v[4] = { NULL };
  gpg_error_t err = 0;

  for (int i = 0; i < 3 && !err; i++)
    err = pl_pubkey_mpi (sk->pub, i, &v[i]);
  if (!err)
    err = pl_seckey_mpi (sk, 0, &v[3]);
  if (!err)
    err = gcry_sexp_build (out, NULL, "(private-key (elg (p %m) (g %m) (y %m)"
                           " (x %m)))", v[0], v[1], v[2], v[3]);
  for (int i = 0; i < 4; i++)
    gcry_mpi_release (v[i]);
  return err;
}

/* The PKESK's value(s) for libgcrypt: RSA's m^e, ElGamal's pair.  Each
 * must be below the modulus (RSA's n, ElGamal's p) of PUB: libgcrypt
 * would reduce a larger one and decrypt it, so that one session key had
 * many PKESKs (issue 32 §5).  Public values, so no secret is branched
 * on. */
static gpg_error_t
pkcs1_enc_val (const pl_pkesk *p, const pl_pubkey *pub, gcry_sexp_t *out)
{
  gcry_mpi_t a = NULL, b = NULL, n = NULL;
  gpg_error_t err = gcry_mpi_scan (&a, GCRYMPI_FMT_USG, p->data + p->f[0].off,
                                   p->f[0].len, NULL);

  if (!err && p->algo == PL_PK_ELGAMAL)
    err = gcry_mpi_scan (&b, GCRYMPI_FMT_USG, p->data + p->f[1].off,
                         p->f[1].len, NULL);
  if (!err)
    err = pl_pubkey_mpi (pub, 0, &n);
  if (!err && (gcry_mpi_cmp (a, n) >= 0 || (b && gcry_mpi_cmp (b, n) >= 0)))
    err = gpg_error (GPG_ERR_DECRYPT_FAILED);
  gcry_mpi_release (n);
  if (!err && p->algo == PL_PK_ELGAMAL)
    err = gcry_sexp_build (out, NULL, "(enc-val (flags raw) (elg (a %m)"
                           " (b %m)))", a, b);
  else if (!err)
    err = gcry_sexp_build (out, NULL, "(enc-val (flags raw) (rsa (a %m)))", a);
  gcry_mpi_release (a);
  gcry_mpi_release (b);
  return err;
}

/* EM (N octets, left-padded to K) decoded: the step the in-memory
 * secret key and a key held elsewhere share.  1 when it holds. */
static unsigned int
pkcs1_take (const pl_pkesk *p, const uint8_t *em, size_t n, size_t k,
            uint8_t *key, size_t *keylen, int *algo)
{
  if (n != k || k < 11)
    return 0;
  return rsa_unpad (em, k, p->version == 3, key, keylen, algo);
}

/* RSA and ElGamal: the raw decryption, then EME-PKCS1-v1_5 decoding. */
static gpg_error_t
pkcs1_decrypt (const pl_pkesk *p, const pl_seckey *sk, uint8_t *key,
               size_t *keylen, int *algo)
{
  size_t k = sk->pub->field[0].len, n = k;
  gcry_sexp_t priv = NULL, data = NULL, res = NULL;
  uint8_t *em = gcry_malloc_secure (k);
  unsigned int good = 0;
  gpg_error_t err = em ? 0 : gpg_error (GPG_ERR_ENOMEM);

  if (!err)
    err = p->algo == PL_PK_ELGAMAL ? elg_private (sk, &priv)
                                   : rsa_private (sk, &priv);
  if (!err)
    err = pkcs1_enc_val (p, sk->pub, &data);
  if (!err && gcry_pk_decrypt (&res, data, priv))
    err = gpg_error (GPG_ERR_DECRYPT_FAILED);
  if (!err && k >= 11)
    err = sexp_octets (res, "value", em, &n, k);
  if (!err)
    good = pkcs1_take (p, em, n, k, key, keylen, algo);
  if (!err && !good)
    err = gpg_error (GPG_ERR_DECRYPT_FAILED);
  if (em)
    pl_wipe (em, k);
  gcry_free (em);
  gcry_sexp_release (priv);
  gcry_sexp_release (data);
  gcry_sexp_release (res);
  return err;
}

/* ---- ECDH and X25519 ----------------------------------------------- */

/* The point a key's Q is on, for libgcrypt: the Montgomery curves go
 * through Curve25519 with the djb tweak, and 0x40 || u. */
static int
is_25519 (const pl_pubkey *key)
{
  return key->algo == PL_PK_X25519 || key->curve == PL_CURVE_CV25519_LEGACY;
}

static gpg_error_t
ecdh_public (const pl_pubkey *key, gcry_sexp_t *out)
{
  uint8_t q[33];

  if (key->algo == PL_PK_X25519)
    {
      q[0] = 0x40;
      memcpy (q + 1, pl_pubkey_field (key, 0), 32);
      return gcry_sexp_build (out, NULL, "(public-key (ecc (curve Curve25519)"
                              " (flags djb-tweak) (q %b)))", 33, q);
    }
  if (is_25519 (key))
    return gcry_sexp_build (out, NULL, "(public-key (ecc (curve Curve25519)"
                            " (flags djb-tweak) (q %b)))",
                            (int) key->field[0].len, pl_pubkey_field (key, 0));
  return pl_pubkey_sexp (key, out);
}

/* The shared secret's octets (ZB): the x coordinate, fixed length. */
static gpg_error_t
shared_x (const pl_pubkey *key, const uint8_t *point, size_t n, uint8_t *zb,
          size_t *zb_len)
{
  size_t coord = is_25519 (key) ? 32 : pl_curve_coordinate_length (key->curve);
  uint8_t acc = 0;

  /* The whole point, 0x40 || x or 0x04 || x || y: nothing shorter or
   * longer (a held key's answer comes from outside). */
  if (!coord || n != 1 + coord * (is_25519 (key) ? 1 : 2)
      || point[0] != (is_25519 (key) ? 0x40 : 0x04))
    return gpg_error (GPG_ERR_DECRYPT_FAILED);
  memcpy (zb, point + 1, coord);
  *zb_len = coord;
  for (size_t i = 0; i < coord; i++)
    acc |= zb[i];
  /* RFC 7748 §6.1: an all-zero X25519 output means a small-order point. */
  return acc ? 0 : gpg_error (GPG_ERR_DECRYPT_FAILED);
}

/* The KEK by RFC 9580 §11.5 (ECDH) into KEK, of KEY's KDF cipher. */
static gpg_error_t
ecdh_kek (const pl_pubkey *key, const uint8_t *zb, size_t zb_len, uint8_t *kek)
{
  static const uint8_t counter[4] = { 0, 0, 0, 1 };
  static const char sender[] = "Anonymous Sender    ";
  int algo = pl_hash_gcry_algo (key->kdf_hash);
  uint8_t head[6] = { (uint8_t) key->oid_len };
  uint8_t kdf[5] = { PL_PK_ECDH, 3, 1, (uint8_t) key->kdf_hash,
                     (uint8_t) key->kdf_cipher };
  gcry_md_hd_t md;
  gpg_error_t err = gcry_md_open (&md, algo, GCRY_MD_FLAG_SECURE);

  if (err)
    return err;
  gcry_md_write (md, counter, 4);
  gcry_md_write (md, zb, zb_len);
  gcry_md_write (md, head, 1);
  gcry_md_write (md, key->body + key->oid_off, key->oid_len);
  gcry_md_write (md, kdf, 5);
  gcry_md_write (md, sender, 20);
  gcry_md_write (md, key->fpr, key->fpr_len);
  memcpy (kek, gcry_md_read (md, algo), pl_cipher_key_length (key->kdf_cipher));
  gcry_md_close (md);
  return 0;
}

/* The X25519 KEK (RFC 9580 §5.1.6): HKDF-SHA256 over E || R || S. */
static gpg_error_t
x25519_kek (const pl_pubkey *key, const uint8_t *eph, const uint8_t *s,
            uint8_t *kek)
{
  static const char info[] = "OpenPGP X25519";
  uint8_t *ikm = gcry_malloc_secure (96);
  gpg_error_t err;

  if (!ikm)
    return gpg_error (GPG_ERR_ENOMEM);
  memcpy (ikm, eph, 32);
  memcpy (ikm + 32, pl_pubkey_field (key, 0), 32);
  memcpy (ikm + 64, s, 32);
  err = pl_hkdf_sha256 (NULL, 0, ikm, 96, (const uint8_t *) info,
                        sizeof info - 1, kek, 16);
  pl_wipe (ikm, 96);
  gcry_free (ikm);
  return err;
}

/* The KEK for KEY from the shared point and the ephemeral public key
 * EPH (native for X25519), and its cipher. */
static gpg_error_t
derive_kek (const pl_pubkey *key, const uint8_t *shared, size_t shared_len,
            const uint8_t *eph, uint8_t *kek, int *kek_cipher)
{
  uint8_t zb[66];
  size_t zb_len = 0;
  gpg_error_t err = shared_x (key, shared, shared_len, zb, &zb_len);

  if (!err && key->algo == PL_PK_X25519)
    {
      *kek_cipher = PL_CIPHER_AES128;
      err = x25519_kek (key, eph, zb, kek);
    }
  else if (!err)
    {
      *kek_cipher = key->kdf_cipher;
      err = ecdh_kek (key, zb, zb_len, kek);
    }
  pl_wipe (zb, sizeof zb);
  return err;
}

/* Writes the ephemeral point and the wrapped key into P's fields. */
static void
put_ecdh_fields (pl_pkesk *p, const uint8_t *eph, size_t eph_len,
                 const uint8_t *wrapped, size_t wlen, int cipher_algo)
{
  size_t pos;

  if (p->algo == PL_PK_X25519)
    {
      memcpy (p->data, eph + 1, 32);    /* native: no 0x40 */
      pos = 32;
    }
  else
    pos = pl_mpi_write (eph, eph_len, p->data);
  p->data[pos++] = (uint8_t) (wlen + (p->algo == PL_PK_X25519
                                      && p->version == 3));
  if (p->algo == PL_PK_X25519 && p->version == 3)
    p->data[pos++] = (uint8_t) cipher_algo;
  memcpy (p->data + pos, wrapped, wlen);
  p->data_len = pos + wlen;
}

static gpg_error_t
ecdh_encrypt (pl_pkesk *p, const pl_pubkey *key, int cipher_algo,
              const uint8_t *session_key, size_t keylen)
{
  gcry_sexp_t pk = NULL, data = NULL, res = NULL;
  gcry_mpi_t k = gcry_mpi_snew (key->bits);
  uint8_t *sec = gcry_malloc_secure (2 * 133 + 32 + M_MAX + 8);
  uint8_t *shared = sec, *kek = sec + 133, *m = kek + 32, eph[133];
  uint8_t wrapped[WRAPPED_MAX];
  size_t shared_len = 133, eph_len = sizeof eph, mlen = 0, wlen;
  int kek_cipher = 0;
  gpg_error_t err = sec && k ? 0 : gpg_error (GPG_ERR_ENOMEM);

  if (!err)
    {
      gcry_mpi_randomize (k, is_25519 (key) ? 256 : key->bits,
                          GCRY_STRONG_RANDOM);
      err = ecdh_public (key, &pk);
    }
  if (!err)
    err = gcry_sexp_build (&data, NULL, "%m", k);
  if (!err)
    err = gcry_pk_encrypt (&res, data, pk);
  if (!err)
    err = sexp_octets (res, "s", shared, &shared_len, 0);
  if (!err)
    err = sexp_octets (res, "e", eph, &eph_len, 0);
  if (!err)
    err = derive_kek (key, shared, shared_len, eph + 1, kek, &kek_cipher);
  if (!err && key->algo == PL_PK_X25519)
    {
      memcpy (m, session_key, keylen);
      mlen = keylen;
    }
  else if (!err)
    {
      /* PKCS#5 padding to a multiple of 8 (RFC 9580 §11.5). */
      size_t pad;
      mlen = make_m (m, p->version == 3, cipher_algo, session_key, keylen);
      pad = 8 - mlen % 8;
      memset (m + mlen, (int) pad, pad);
      mlen += pad;
    }
  if (!err)
    err = pl_keywrap_wrap (kek_cipher, kek, m, mlen, wrapped);
  wlen = mlen + 8;
  if (!err)
    put_ecdh_fields (p, eph, eph_len, wrapped, wlen, cipher_algo);
  if (sec)
    pl_wipe (sec, 2 * 133 + 32 + M_MAX + 8);
  gcry_free (sec);
  gcry_mpi_release (k);
  gcry_sexp_release (pk);
  gcry_sexp_release (data);
  gcry_sexp_release (res);
  return err;
}

/* The secret key for libgcrypt: d as an integer (X25519's native octets
 * are little-endian; legacy Curve25519 already stores them reversed). */
static gpg_error_t
ecdh_private (const pl_seckey *sk, gcry_sexp_t *out)
{
  const pl_pubkey *key = sk->pub;
  gcry_mpi_t d = NULL;
  gpg_error_t err;

  if (key->algo == PL_PK_X25519)
    {
      uint8_t *be = gcry_malloc_secure (32);
      if (!be)
        return gpg_error (GPG_ERR_ENOMEM);
      for (int i = 0; i < 32; i++)
        be[i] = sk->mem[sk->field[0].off + 31 - i];
      err = gcry_mpi_scan (&d, GCRYMPI_FMT_USG, be, 32, NULL);
      pl_wipe (be, 32);
      gcry_free (be);
    }
  else
    err = pl_seckey_mpi (sk, 0, &d);
  if (!err && is_25519 (key))
    err = gcry_sexp_build (out, NULL, "(private-key (ecc (curve Curve25519)"
                           " (flags djb-tweak) (d %m)))", d);
  else if (!err)
    err = gcry_sexp_build (out, NULL, "(private-key (ecc (curve %s) (d %m)))",
                           pl_curve_gcry_name (key->curve), d);
  gcry_mpi_release (d);
  return err;
}

/* Unwraps the wrapped key with KEK and takes the session key from it. */
static gpg_error_t
ecdh_unwrap (const pl_pkesk *p, const uint8_t *kek, int kek_cipher,
             uint8_t *key, size_t *keylen, int *algo)
{
  size_t wlen = p->f[1].len, mlen = wlen - 8;
  uint8_t *m = gcry_malloc_secure (WRAPPED_MAX);
  unsigned int good;
  gpg_error_t err = m ? 0 : gpg_error (GPG_ERR_ENOMEM);

  if (!err && pl_keywrap_unwrap (kek_cipher, kek, p->data + p->f[1].off,
                                 wlen, m))
    err = gpg_error (GPG_ERR_DECRYPT_FAILED);
  if (!err && (p->algo == PL_PK_X25519 || p->algo == PL_PK_X448))
    {
      good = ct_eq (mlen, 16) | ct_eq (mlen, 24) | ct_eq (mlen, 32);
      memcpy (key, m, mlen <= PL_SESSION_KEY_MAX ? mlen : 0);
      *keylen = mlen;
      *algo = p->version == 3 ? p->sym_algo : 0;
      if (!good)
        err = gpg_error (GPG_ERR_DECRYPT_FAILED);
    }
  else if (!err)
    {
      size_t pad = m[mlen - 1];
      good = ct_lt (pad - 1, 8);          /* 1 to 8 */
      for (size_t i = 0; i < 8; i++)
        good &= (ct_lt (i, pad) ^ 1) | ct_eq (m[mlen - 1 - i], pad);
      good &= ct_take_session_key (m, mlen, 0, mlen - (pad & 15), p->version == 3,
                                   key, keylen, algo);
      if (!good)
        err = gpg_error (GPG_ERR_DECRYPT_FAILED);
    }
  if (m)
    pl_wipe (m, WRAPPED_MAX);
  gcry_free (m);
  return err;
}

/* From the shared point SHARED (SHARED_LEN octets, with its prefix
 * octet) on: the KEK for PUB (EPH: the native ephemeral key, X25519's
 * HKDF input) into KEK (secure, 32 octets), then the unwrap.  The
 * step the in-memory secret key and a key held elsewhere share. */
static gpg_error_t
ecdh_finish (const pl_pkesk *p, const pl_pubkey *pub, const uint8_t *shared,
             size_t shared_len, const uint8_t *eph, uint8_t *kek,
             uint8_t *key, size_t *keylen, int *algo)
{
  int kek_cipher = 0;
  gpg_error_t err = derive_kek (pub, shared, shared_len, eph, kek,
                                &kek_cipher);

  if (!err)
    err = ecdh_unwrap (p, kek, kek_cipher, key, keylen, algo);
  return err;
}

/* Whether E is an ECDH ephemeral point of its curve's form and size:
 * 0x40 || x on Curve25519, 0x04 || x || y on the NIST and brainpool
 * curves.  Checked before libgcrypt sees it: libgcrypt 1.10 writes past
 * its buffer for a Curve25519 point of the wrong length (fuzz-pkesk). */
static int
ecdh_point_ok (const pl_pubkey *pub, const uint8_t *e, size_t e_len)
{
  size_t c = pl_curve_coordinate_length (pub->curve);

  if (!c || !e_len)
    return 0;
  if (pub->curve == PL_CURVE_CV25519_LEGACY)
    return e_len == 1 + c && e[0] == 0x40;
  return e_len == 1 + 2 * c && e[0] == 0x04;
}

static gpg_error_t
ecdh_decrypt (const pl_pkesk *p, const pl_seckey *sk, uint8_t *key,
              size_t *keylen, int *algo)
{
  const pl_pubkey *pub = sk->pub;
  gcry_sexp_t priv = NULL, data = NULL, res = NULL;
  uint8_t *sec = gcry_malloc_secure (133 + 32);
  uint8_t *shared = sec, *kek = sec + 133, eph[33];
  const uint8_t *e = p->data + p->f[0].off;
  size_t shared_len = 133, e_len = p->f[0].len;
  gpg_error_t err = sec ? 0 : gpg_error (GPG_ERR_ENOMEM);

  if (p->algo == PL_PK_X25519)
    {
      eph[0] = 0x40;
      memcpy (eph + 1, e, 32);
      e = eph;
      e_len = 33;
    }
  if (!err && p->algo != PL_PK_X25519 && !ecdh_point_ok (pub, e, e_len))
    err = gpg_error (GPG_ERR_DECRYPT_FAILED);
  if (!err)
    err = ecdh_private (sk, &priv);
  if (!err)
    err = gcry_sexp_build (&data, NULL, "(enc-val (ecdh (e %b)))", (int) e_len,
                           e);
  /* libgcrypt refuses points off the curve and, on Curve25519, those of
   * small order (ecc_decrypt_raw). */
  if (!err && gcry_pk_decrypt (&res, data, priv))
    err = gpg_error (GPG_ERR_DECRYPT_FAILED);
  if (!err)
    err = sexp_octets (res, "value", shared, &shared_len, 0);
  if (!err)
    err = ecdh_finish (p, pub, shared, shared_len, e + 1, kek, key, keylen,
                       algo);
  if (err && gpg_err_code (err) != GPG_ERR_ENOMEM)
    err = gpg_error (GPG_ERR_DECRYPT_FAILED);
  if (sec)
    pl_wipe (sec, 133 + 32);
  gcry_free (sec);
  gcry_sexp_release (priv);
  gcry_sexp_release (data);
  gcry_sexp_release (res);
  return err;
}

/* ---- X448 ----------------------------------------------------------- */

/* The X448 KEK (RFC 9580 §5.1.7): HKDF-SHA512 over E || R || S, for
 * AES-256 key wrap; S all zero (a small-order point) is refused. */
static gpg_error_t
x448_kek (const pl_pubkey *key, const uint8_t *eph, const uint8_t *s,
          uint8_t *kek)
{
  static const char info[] = "OpenPGP X448";
  uint8_t *ikm = gcry_malloc_secure (3 * 56), acc = 0;
  gpg_error_t err;

  for (int i = 0; i < 56; i++)
    acc |= s[i];
  if (!acc)
    err = gpg_error (GPG_ERR_DECRYPT_FAILED);
  else if (!ikm)
    err = gpg_error (GPG_ERR_ENOMEM);
  else
    {
      memcpy (ikm, eph, 56);
      memcpy (ikm + 56, pl_pubkey_field (key, 0), 56);
      memcpy (ikm + 112, s, 56);
      err = pl_hkdf_sha512 (NULL, 0, ikm, 3 * 56, (const uint8_t *) info,
                            sizeof info - 1, kek, 32);
    }
  if (ikm)
    pl_wipe (ikm, 3 * 56);
  gcry_free (ikm);
  return err;
}

/* libgcrypt's X448 (RFC 7748 §5) takes the scalar in native order. */
static gpg_error_t
x448_encrypt (pl_pkesk *p, const pl_pubkey *key, int cipher_algo,
              const uint8_t *session_key, size_t keylen)
{
  uint8_t *sec = gcry_malloc_secure (56 + 56 + 32), eph[57];
  uint8_t *k = sec, *shared = sec + 56, *kek = sec + 112;
  uint8_t wrapped[WRAPPED_MAX];
  gpg_error_t err = sec ? 0 : gpg_error (GPG_ERR_ENOMEM);

  if (!err)
    {
      gcry_randomize (k, 56, GCRY_STRONG_RANDOM);
      err = gcry_ecc_mul_point (GCRY_ECC_CURVE448, eph + 1, k, NULL);
    }
  if (!err)
    err = gcry_ecc_mul_point (GCRY_ECC_CURVE448, shared, k,
                              pl_pubkey_field (key, 0));
  if (!err)
    err = x448_kek (key, eph + 1, shared, kek);
  if (!err)
    err = pl_keywrap_wrap (PL_CIPHER_AES256, kek, session_key, keylen,
                           wrapped);
  if (!err)
    {
      size_t pos = 56;
      memcpy (p->data, eph + 1, 56);
      p->data[pos++] = (uint8_t) (keylen + 8 + (p->version == 3));
      if (p->version == 3)
        p->data[pos++] = (uint8_t) cipher_algo;
      memcpy (p->data + pos, wrapped, keylen + 8);
      p->data_len = pos + keylen + 8;
    }
  if (sec)
    pl_wipe (sec, 56 + 56 + 32);
  gcry_free (sec);
  return err;
}

static gpg_error_t
x448_decrypt (const pl_pkesk *p, const pl_seckey *sk, uint8_t *key,
              size_t *keylen, int *algo)
{
  uint8_t *sec = gcry_malloc_secure (56 + 32);
  uint8_t *shared = sec, *kek = sec + 56;
  const uint8_t *e = p->data + p->f[0].off;
  gpg_error_t err = sec ? 0 : gpg_error (GPG_ERR_ENOMEM);

  if (!err && gcry_ecc_mul_point (GCRY_ECC_CURVE448, shared,
                                  sk->mem + sk->field[0].off, e))
    err = gpg_error (GPG_ERR_DECRYPT_FAILED);
  if (!err)
    err = x448_kek (sk->pub, e, shared, kek);
  if (!err)
    err = ecdh_unwrap (p, kek, PL_CIPHER_AES256, key, keylen, algo);
  if (err && gpg_err_code (err) != GPG_ERR_ENOMEM)
    err = gpg_error (GPG_ERR_DECRYPT_FAILED);
  if (sec)
    pl_wipe (sec, 56 + 32);
  gcry_free (sec);
  return err;
}

/* ---- Both directions ----------------------------------------------- */

gpg_error_t
pl_pkesk_encrypt (pl_pkesk *p, int version, const pl_pubkey *key,
                  int anonymous, int cipher_algo, const uint8_t *session_key,
                  size_t keylen)
{
  uint8_t *m;
  gpg_error_t err;

  memset (p, 0, sizeof *p);
  p->version = version;
  p->algo = key->algo;
  if (!anonymous && version == 3)
    memcpy (p->keyid, key->keyid, 8);
  else if (!anonymous)
    {
      p->key_version = key->version;
      p->fpr_len = key->fpr_len;
      memcpy (p->fpr, key->fpr, key->fpr_len);
    }
  if (keylen > PL_SESSION_KEY_MAX || (version != 3 && version != 6))
    return gpg_error (GPG_ERR_INV_ARG);
  switch (key->algo)
    {
    case PL_PK_RSA: case PL_PK_RSA_E:
      if (!(m = gcry_malloc_secure (M_MAX)))
        return gpg_error (GPG_ERR_ENOMEM);
      err = rsa_encrypt (p, key, m, make_m (m, version == 3, cipher_algo,
                                            session_key, keylen));
      pl_wipe (m, M_MAX);
      gcry_free (m);
      break;
    case PL_PK_ECDH: case PL_PK_X25519: case PL_PK_X448:
      if (key->algo != PL_PK_ECDH && version == 3
          && cipher_algo != PL_CIPHER_AES128 && cipher_algo != PL_CIPHER_AES192
          && cipher_algo != PL_CIPHER_AES256)
        return gpg_error (GPG_ERR_CIPHER_ALGO);
      err = key->algo == PL_PK_X448
            ? x448_encrypt (p, key, cipher_algo, session_key, keylen)
            : ecdh_encrypt (p, key, cipher_algo, session_key, keylen);
      break;
    default:
      return gpg_error (GPG_ERR_PUBKEY_ALGO);
    }
  if (!err)
    err = parse_fields (p);
  return err;
}

gpg_error_t
pl_pkesk_decrypt (const pl_pkesk *p, const pl_seckey *sk,
                  uint8_t *session_key, size_t *keylen, int *cipher_algo)
{
  gpg_error_t err;

  *keylen = 0;
  *cipher_algo = 0;
  if (sk->pub->algo != p->algo
      && !(p->algo == PL_PK_RSA && sk->pub->algo == PL_PK_RSA_E))
    return gpg_error (GPG_ERR_DECRYPT_FAILED);
  if (p->algo == PL_PK_RSA || p->algo == PL_PK_RSA_E
      || p->algo == PL_PK_ELGAMAL)
    err = pkcs1_decrypt (p, sk, session_key, keylen, cipher_algo);
  else if (p->algo == PL_PK_X448)
    err = x448_decrypt (p, sk, session_key, keylen, cipher_algo);
  else
    err = ecdh_decrypt (p, sk, session_key, keylen, cipher_algo);
  if (err)
    {
      pl_wipe (session_key, PL_SESSION_KEY_MAX);
      *keylen = 0;
      *cipher_algo = 0;
    }
  return err;
}

/* A held key's RSA or ElGamal answer: left-padded to the modulus's
 * length into secure memory, then what pkcs1_decrypt does; or, when the
 * holder removed the padding, "m" as it stands. */
static gpg_error_t
pkcs1_finish (const pl_pkesk *p, const pl_pubkey *pub, const uint8_t *answer,
              size_t len, int padded, uint8_t *key, size_t *keylen, int *algo)
{
  size_t k = pub->field[0].len;
  uint8_t *em;
  unsigned int good;

  if (!padded)
    good = ct_take_session_key (answer, len, 0, len, p->version == 3, key,
                                keylen, algo);
  else
    {
      if (len > k || !(em = gcry_malloc_secure (k ? k : 1)))
        return gpg_error (len > k ? GPG_ERR_DECRYPT_FAILED : GPG_ERR_ENOMEM);
      memset (em, 0, k - len);
      memcpy (em + k - len, answer, len);
      good = pkcs1_take (p, em, k, k, key, keylen, algo);
      pl_wipe (em, k);
      gcry_free (em);
    }
  return good ? 0 : gpg_error (GPG_ERR_DECRYPT_FAILED);
}

gpg_error_t
pl_pkesk_finish (const pl_pkesk *p, const pl_pubkey *key,
                 const uint8_t *answer, size_t len, int padded,
                 uint8_t *session_key, size_t *keylen, int *cipher_algo)
{
  uint8_t *kek;
  gpg_error_t err;

  *keylen = 0;
  *cipher_algo = 0;
  if (key->algo != p->algo
      && !(p->algo == PL_PK_RSA && key->algo == PL_PK_RSA_E))
    return gpg_error (GPG_ERR_DECRYPT_FAILED);
  switch (p->algo)
    {
    case PL_PK_RSA: case PL_PK_RSA_E: case PL_PK_ELGAMAL:
      err = pkcs1_finish (p, key, answer, len, padded, session_key, keylen,
                          cipher_algo);
      break;
    case PL_PK_ECDH:
      if (!(kek = gcry_malloc_secure (32)))
        return gpg_error (GPG_ERR_ENOMEM);
      err = ecdh_finish (p, key, answer, len, NULL, kek, session_key, keylen,
                         cipher_algo);
      pl_wipe (kek, 32);
      gcry_free (kek);
      if (err && gpg_err_code (err) != GPG_ERR_ENOMEM)
        err = gpg_error (GPG_ERR_DECRYPT_FAILED);
      break;
    default:
      return gpg_error (GPG_ERR_PUBKEY_ALGO);
    }
  if (err)
    {
      pl_wipe (session_key, PL_SESSION_KEY_MAX);
      *keylen = 0;
      *cipher_algo = 0;
    }
  return err;
}
