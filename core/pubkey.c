/* pubkey.c - public-key packets (RFC 9580 §5.5.2): v4 and v6 */
#include "pubkey.h"
#include "errors.h"
#include "algo.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct
{
  pl_curve curve;
  const char *gcry_name;
  uint8_t oid[10];
  size_t oid_len;
  size_t coord;                 /* octets of one coordinate */
} curve_info;

/* RFC 9580 §9.2, Table 17. */
static const curve_info curves[] = {
  { PL_CURVE_P256, "NIST P-256",
    { 0x2A, 0x86, 0x48, 0xCE, 0x3D, 0x03, 0x01, 0x07 }, 8, 32 },
  { PL_CURVE_P384, "NIST P-384", { 0x2B, 0x81, 0x04, 0x00, 0x22 }, 5, 48 },
  { PL_CURVE_P521, "NIST P-521", { 0x2B, 0x81, 0x04, 0x00, 0x23 }, 5, 66 },
  { PL_CURVE_BP256, "brainpoolP256r1",
    { 0x2B, 0x24, 0x03, 0x03, 0x02, 0x08, 0x01, 0x01, 0x07 }, 9, 32 },
  { PL_CURVE_BP384, "brainpoolP384r1",
    { 0x2B, 0x24, 0x03, 0x03, 0x02, 0x08, 0x01, 0x01, 0x0B }, 9, 48 },
  { PL_CURVE_BP512, "brainpoolP512r1",
    { 0x2B, 0x24, 0x03, 0x03, 0x02, 0x08, 0x01, 0x01, 0x0D }, 9, 64 },
  { PL_CURVE_ED25519_LEGACY, "Ed25519",
    { 0x2B, 0x06, 0x01, 0x04, 0x01, 0xDA, 0x47, 0x0F, 0x01 }, 9, 32 },
  { PL_CURVE_CV25519_LEGACY, "Curve25519",
    { 0x2B, 0x06, 0x01, 0x04, 0x01, 0x97, 0x55, 0x01, 0x05, 0x01 }, 10, 32 },
};

static const curve_info *
curve_by_id (pl_curve curve)
{
  for (size_t i = 0; i < sizeof curves / sizeof curves[0]; i++)
    if (curves[i].curve == curve)
      return &curves[i];
  return NULL;
}

const char *
pl_curve_gcry_name (pl_curve curve)
{
  const curve_info *c = curve_by_id (curve);
  return c ? c->gcry_name : NULL;
}

size_t
pl_curve_coordinate_length (pl_curve curve)
{
  const curve_info *c = curve_by_id (curve);
  return c ? c->coord : 0;
}

gpg_error_t
pl_mpi_read (const uint8_t *p, size_t len, unsigned int max_bits,
             size_t *off, size_t *n, size_t *used)
{
  unsigned int bits;

  if (len < 2)
    return gpg_error (GPG_ERR_INV_PACKET);
  bits = ((unsigned int) p[0] << 8) | p[1];
  if (!bits || bits > max_bits || (bits + 7) / 8 > len - 2)
    return gpg_error (GPG_ERR_INV_PACKET);
  *off = 2;
  *n = (bits + 7) / 8;
  *used = 2 + *n;
  return 0;
}

size_t
pl_mpi_write (const uint8_t *value, size_t n, uint8_t *out)
{
  unsigned int bits;
  uint8_t top;

  while (n > 1 && !*value)
    value++, n--;
  top = n ? value[0] : 0;
  bits = (unsigned int) (n ? (n - 1) * 8 : 0);
  while (top)
    bits++, top >>= 1;
  out[0] = (uint8_t) (bits >> 8);
  out[1] = (uint8_t) bits;
  memcpy (out + 2, value, n);
  return 2 + n;
}

/* Cursor over the key material. */
typedef struct
{
  pl_pubkey *key;
  size_t pos;
  size_t end;
} material;

static gpg_error_t
take_mpi (material *m, unsigned int max_bits)
{
  size_t off, n, used;
  gpg_error_t err;

  if (m->key->n_fields == PL_PUBKEY_FIELDS_MAX)
    return gpg_error (GPG_ERR_INV_PACKET);
  err = pl_mpi_read (m->key->body + m->pos, m->end - m->pos, max_bits, &off,
                     &n, &used);
  if (err)
    return err;
  m->key->field[m->key->n_fields].off = m->pos + off;
  m->key->field[m->key->n_fields].len = n;
  m->key->n_fields++;
  m->pos += used;
  return 0;
}

/* An MPI of an RSA, DSA or ElGamal key: one whose bit count is over
 * MAX_BITS is a key too large to use (PL_ERR_KEY_TOO_LARGE), told apart
 * from a malformed one. */
static gpg_error_t
take_group_mpi (material *m, unsigned int max_bits)
{
  const uint8_t *p = m->key->body + m->pos;

  if (m->end - m->pos >= 2 && (((unsigned int) p[0] << 8) | p[1]) > max_bits)
    return gpg_error (PL_ERR_KEY_TOO_LARGE);
  return take_mpi (m, max_bits);
}

static gpg_error_t
take_native (material *m, size_t n)
{
  if (m->end - m->pos < n)
    return gpg_error (GPG_ERR_INV_PACKET);
  m->key->field[m->key->n_fields].off = m->pos;
  m->key->field[m->key->n_fields].len = n;
  m->key->n_fields++;
  m->pos += n;
  return 0;
}

/* The curve OID: a length octet (0 and 0xFF reserved) and the OID. */
static gpg_error_t
take_curve (material *m)
{
  pl_pubkey *k = m->key;
  size_t n;

  if (m->pos >= m->end)
    return gpg_error (GPG_ERR_INV_PACKET);
  n = k->body[m->pos];
  if (!n || n == 0xFF || m->end - m->pos - 1 < n)
    return gpg_error (GPG_ERR_INV_PACKET);
  k->oid_off = m->pos + 1;
  k->oid_len = n;
  m->pos += 1 + n;
  for (size_t i = 0; i < sizeof curves / sizeof curves[0]; i++)
    if (curves[i].oid_len == n && !memcmp (curves[i].oid, k->body + k->oid_off, n))
      {
        k->curve = curves[i].curve;
        k->bits = (unsigned int) curves[i].coord * 8;
        return 0;
      }
  return gpg_error (GPG_ERR_UNKNOWN_CURVE);
}

/* The point of an EC key: uncompressed 0x04 || x || y on the Weierstrass
 * curves, 0x40 || x for the legacy 25519 ones. */
static gpg_error_t
check_point (const pl_pubkey *k)
{
  const pl_field *q = &k->field[0];
  const uint8_t *p = k->body + q->off;
  size_t coord = pl_curve_coordinate_length (k->curve);

  if (k->curve == PL_CURVE_ED25519_LEGACY || k->curve == PL_CURVE_CV25519_LEGACY)
    return q->len == 33 && p[0] == 0x40 ? 0 : gpg_error (GPG_ERR_INV_PACKET);
  return q->len == 1 + 2 * coord && p[0] == 0x04
         ? 0 : gpg_error (GPG_ERR_INV_PACKET);
}

/* ECDH's KDF parameters (RFC 9580 §5.5.5.6): length 3, version 1, hash,
 * cipher.  Other versions and sizes are refused, not guessed at. */
static gpg_error_t
take_kdf (material *m)
{
  pl_pubkey *k = m->key;
  const uint8_t *p = k->body + m->pos;

  if (m->end - m->pos < 4 || p[0] != 3 || p[1] != 1)
    return gpg_error (GPG_ERR_INV_PACKET);
  k->kdf_hash = p[2];
  k->kdf_cipher = p[3];
  m->pos += 4;
  if (k->kdf_hash != PL_HASH_SHA256 && k->kdf_hash != PL_HASH_SHA384
      && k->kdf_hash != PL_HASH_SHA512)
    return gpg_error (GPG_ERR_DIGEST_ALGO);
  if (k->kdf_cipher != PL_CIPHER_AES128 && k->kdf_cipher != PL_CIPHER_AES192
      && k->kdf_cipher != PL_CIPHER_AES256)
    return gpg_error (GPG_ERR_CIPHER_ALGO);
  return 0;
}

/* The size of K's first field, RSA's n or DSA's and ElGamal's p, in
 * bits.  An MPI's count is not held to its leading octet (pl_mpi_read),
 * so the value may begin with zero octets: they do not count. */
static unsigned int
modulus_bits (const pl_pubkey *k)
{
  const uint8_t *n = pl_pubkey_field (k, 0);
  size_t len = k->field[0].len;
  unsigned int bits;

  while (len && !n[0])
    n++, len--;
  if (!len)
    return 0;
  bits = (unsigned int) (len * 8);
  for (uint8_t top = n[0]; top < 0x80; top <<= 1)
    bits--;
  return bits;
}

static gpg_error_t
parse_material (material *m)
{
  pl_pubkey *k = m->key;
  gpg_error_t err = 0;

  switch (k->algo)
    {
    case PL_PK_RSA: case PL_PK_RSA_E: case PL_PK_RSA_S:
      err = take_group_mpi (m, PL_PUBKEY_BITS_MAX);
      if (!err)
        err = take_group_mpi (m, PL_RSA_EXPONENT_BITS_MAX);
      k->bits = err ? 0 : modulus_bits (k);
      return err;
    case PL_PK_ELGAMAL: case PL_PK_DSA:
      for (int i = 0; i < (k->algo == PL_PK_DSA ? 4 : 3) && !err; i++)
        err = take_group_mpi (m, PL_PUBKEY_BITS_MAX);
      k->bits = err ? 0 : modulus_bits (k);
      return err;
    case PL_PK_ECDSA: case PL_PK_EDDSA: case PL_PK_ECDH:
      err = take_curve (m);
      if (!err)
        err = take_mpi (m, (1 + 2 * 66) * 8); /* P-521: 0x04 || x || y */
      if (!err)
        err = check_point (k);
      if (!err && k->algo == PL_PK_ECDH)
        err = take_kdf (m);
      if (!err && ((k->algo == PL_PK_EDDSA)
                   != (k->curve == PL_CURVE_ED25519_LEGACY)))
        err = gpg_error (GPG_ERR_UNKNOWN_CURVE);
      if (!err && k->algo == PL_PK_ECDSA && k->curve == PL_CURVE_CV25519_LEGACY)
        err = gpg_error (GPG_ERR_UNKNOWN_CURVE);
      return err;
    case PL_PK_X25519: k->bits = 255; return take_native (m, 32);
    case PL_PK_ED25519: k->bits = 255; return take_native (m, 32);
    case PL_PK_X448: k->bits = 448; return take_native (m, 56);
    case PL_PK_ED448: k->bits = 448; return take_native (m, 57);
    default:
      return gpg_error (GPG_ERR_PUBKEY_ALGO);
    }
}

/* 1 when the point Q of K (0x04 || x || y) is on K's curve. */
static int
point_on_curve (const pl_pubkey *k)
{
  gcry_sexp_t param = NULL;
  gcry_ctx_t ctx = NULL;
  gcry_mpi_point_t q = NULL;
  int ok = 0;

  if (!gcry_sexp_build (&param, NULL, "(public-key (ecc (curve %s) (q %b)))",
                        pl_curve_gcry_name (k->curve),
                        (int) k->field[0].len, pl_pubkey_field (k, 0))
      && !gcry_mpi_ec_new (&ctx, param, NULL))
    {
      q = gcry_mpi_ec_get_point ("q", ctx, 1);
      ok = q && gcry_mpi_ec_curve_point (q, ctx);
    }
  gcry_mpi_point_release (q);
  gcry_ctx_release (ctx);
  gcry_sexp_release (param);
  return ok;
}

/* An RSA key's flaw, in words into WHY; PL_KEY_SAFE when it has none.
 * An MPI's count is not held to its leading octet (pl_mpi_read), so E
 * may begin with zeros: e = 1 written in two octets is still 1. */
static pl_key_safety
rsa_safety (const pl_pubkey *k, char *why, size_t why_len)
{
  const uint8_t *n = pl_pubkey_field (k, 0), *e = pl_pubkey_field (k, 1);
  size_t e_len = k->field[1].len;

  while (e_len > 1 && !e[0])
    e++, e_len--;
  if (!(n[k->field[0].len - 1] & 1))
    return snprintf (why, why_len, "its RSA modulus is even"), PL_KEY_BROKEN;
  if (!(e[e_len - 1] & 1))
    return snprintf (why, why_len, "its RSA exponent is even"),
           PL_KEY_BROKEN;
  if (e_len == 1 && e[0] == 1)
    return snprintf (why, why_len, "its RSA exponent e = 1 is unsafe"),
           PL_KEY_BROKEN;
  if (k->bits < PL_PUBKEY_BITS_MIN)
    return snprintf (why, why_len, "RSA-%u is too weak", k->bits), PL_KEY_WEAK;
  return PL_KEY_SAFE;
}

/* Decides K's safety (pubkey.h), once, when it is read. */
static void
judge_safety (pl_pubkey *k)
{
  switch (k->algo)
    {
    case PL_PK_RSA: case PL_PK_RSA_E: case PL_PK_RSA_S:
      k->safety = rsa_safety (k, k->unsafe_why, sizeof k->unsafe_why);
      return;
    case PL_PK_DSA: case PL_PK_ELGAMAL:
      if (k->bits >= PL_PUBKEY_BITS_MIN)
        return;
      k->safety = PL_KEY_WEAK;
      snprintf (k->unsafe_why, sizeof k->unsafe_why, "%s-%u is too weak",
                k->algo == PL_PK_DSA ? "DSA" : "ElGamal", k->bits);
      return;
    case PL_PK_ECDH: case PL_PK_ECDSA:
      if (k->curve == PL_CURVE_CV25519_LEGACY || point_on_curve (k))
        return;
      k->safety = PL_KEY_BROKEN;
      snprintf (k->unsafe_why, sizeof k->unsafe_why,
                "its point is not on %s", pl_curve_gcry_name (k->curve));
      return;
    default:
      return;
    }
}

static void
compute_fingerprint (pl_pubkey *k)
{
  int algo = k->version == 6 ? GCRY_MD_SHA256 : GCRY_MD_SHA1;
  gcry_md_hd_t md;

  if (gcry_md_open (&md, algo, 0))
    return;
  pl_pubkey_hash (k, md);
  k->fpr_len = gcry_md_get_algo_dlen (algo);
  memcpy (k->fpr, gcry_md_read (md, algo), k->fpr_len);
  gcry_md_close (md);
  memcpy (k->keyid, k->version == 6 ? k->fpr : k->fpr + k->fpr_len - 8, 8);
}

gpg_error_t
pl_pubkey_parse (pl_pubkey *key, const uint8_t *body, size_t len,
                 size_t *used)
{
  material m;
  size_t head = 6;
  gpg_error_t err;

  memset (key, 0, sizeof *key);
  if (len < 1)
    return gpg_error (GPG_ERR_INV_PACKET);
  if (body[0] != 4 && body[0] != 6)
    return gpg_error (GPG_ERR_UNKNOWN_VERSION);
  key->version = body[0];
  if (key->version == 6)
    head = 10;
  if (len < head)
    return gpg_error (GPG_ERR_INV_PACKET);
  key->created = ((uint32_t) body[1] << 24) | ((uint32_t) body[2] << 16)
                 | ((uint32_t) body[3] << 8) | body[4];
  key->algo = body[5];
  m.key = key;
  m.pos = head;
  m.end = len;
  if (key->version == 6)
    {
      uint32_t n = ((uint32_t) body[6] << 24) | ((uint32_t) body[7] << 16)
                   | ((uint32_t) body[8] << 8) | body[9];
      if (n > len - head)
        return gpg_error (GPG_ERR_INV_PACKET);
      m.end = head + n;
    }
  /* Parse in place, then copy only what the public part took. */
  key->body = (uint8_t *) body;
  err = parse_material (&m);
  if (!err && key->version == 6 && m.pos != m.end)
    err = gpg_error (GPG_ERR_INV_PACKET);
  if (!err && !used && m.pos != len)
    err = gpg_error (GPG_ERR_INV_PACKET);
  if (err)
    {
      int algo = key->algo;
      memset (key, 0, sizeof *key);
      key->algo = algo;
      return err;
    }
  key->body_len = m.pos;
  key->body = malloc (m.pos);
  if (!key->body)
    {
      memset (key, 0, sizeof *key);
      return gpg_error (GPG_ERR_ENOMEM);
    }
  memcpy (key->body, body, m.pos);
  compute_fingerprint (key);
  judge_safety (key);
  if (used)
    *used = m.pos;
  return 0;
}

void
pl_pubkey_clear (pl_pubkey *key)
{
  free (key->body);
  memset (key, 0, sizeof *key);
}

gpg_error_t
pl_pubkey_copy (pl_pubkey *dst, const pl_pubkey *src)
{
  *dst = *src;
  dst->body = malloc (src->body_len ? src->body_len : 1);
  if (!dst->body)
    {
      memset (dst, 0, sizeof *dst);
      return gpg_error (GPG_ERR_ENOMEM);
    }
  memcpy (dst->body, src->body, src->body_len);
  return 0;
}

void
pl_pubkey_hash (const pl_pubkey *key, gcry_md_hd_t md)
{
  uint8_t head[5];
  size_t n = key->body_len;

  if (key->version == 6)
    {
      head[0] = 0x9B;
      head[1] = (uint8_t) (n >> 24);
      head[2] = (uint8_t) (n >> 16);
      head[3] = (uint8_t) (n >> 8);
      head[4] = (uint8_t) n;
      gcry_md_write (md, head, 5);
    }
  else
    {
      head[0] = 0x99;
      head[1] = (uint8_t) (n >> 8);
      head[2] = (uint8_t) n;
      gcry_md_write (md, head, 3);
    }
  gcry_md_write (md, key->body, n);
}

int
pl_pubkey_can_encrypt (const pl_pubkey *key)
{
  switch (key->algo)
    {
    case PL_PK_RSA: case PL_PK_RSA_E: case PL_PK_ELGAMAL: case PL_PK_ECDH:
    case PL_PK_X25519: case PL_PK_X448:
      return 1;
    default:
      return 0;
    }
}

int
pl_pubkey_can_sign (const pl_pubkey *key)
{
  switch (key->algo)
    {
    case PL_PK_RSA: case PL_PK_RSA_S: case PL_PK_DSA: case PL_PK_ECDSA:
    case PL_PK_EDDSA: case PL_PK_ED25519: case PL_PK_ED448:
      return 1;
    default:
      return 0;
    }
}

gpg_error_t
pl_pubkey_mpi (const pl_pubkey *key, int field, gcry_mpi_t *out)
{
  return gcry_mpi_scan (out, GCRYMPI_FMT_USG, pl_pubkey_field (key, field),
                        key->field[field].len, NULL);
}

/* DSA (p, q, g, y) and ElGamal (p, g, y): the fields in order. */
static gpg_error_t
fields_sexp (const pl_pubkey *key, gcry_sexp_t *out)
{
  gcry_mpi_t v[4] = { NULL };
  gpg_error_t err = 0;

  for (int i = 0; i < key->n_fields && !err; i++)
    err = pl_pubkey_mpi (key, i, &v[i]);
  if (!err && key->algo == PL_PK_DSA)
    err = gcry_sexp_build (out, NULL, "(public-key (dsa (p %m) (q %m) (g %m)"
                           " (y %m)))", v[0], v[1], v[2], v[3]);
  else if (!err)
    err = gcry_sexp_build (out, NULL, "(public-key (elg (p %m) (g %m)"
                           " (y %m)))", v[0], v[1], v[2]);
  for (int i = 0; i < 4; i++)
    gcry_mpi_release (v[i]);
  return err;
}

gpg_error_t
pl_pubkey_sexp (const pl_pubkey *key, gcry_sexp_t *out)
{
  const uint8_t *q = pl_pubkey_field (key, 0);
  int qlen = (int) key->field[0].len;
  gcry_mpi_t n = NULL, e = NULL;
  gpg_error_t err;

  *out = NULL;
  switch (key->algo)
    {
    case PL_PK_RSA: case PL_PK_RSA_E: case PL_PK_RSA_S:
      err = pl_pubkey_mpi (key, 0, &n);
      if (!err)
        err = pl_pubkey_mpi (key, 1, &e);
      if (!err)
        err = gcry_sexp_build (out, NULL, "(public-key (rsa (n %m) (e %m)))",
                               n, e);
      gcry_mpi_release (n);
      gcry_mpi_release (e);
      return err;
    case PL_PK_DSA: case PL_PK_ELGAMAL:
      return fields_sexp (key, out);
    case PL_PK_ECDSA:
      return gcry_sexp_build (out, NULL, "(public-key (ecc (curve %s) (q %b)))",
                              pl_curve_gcry_name (key->curve), qlen, q);
    case PL_PK_ECDH:
      if (key->curve == PL_CURVE_CV25519_LEGACY)
        return gpg_error (GPG_ERR_PUBKEY_ALGO);
      return gcry_sexp_build (out, NULL, "(public-key (ecc (curve %s) (q %b)))",
                              pl_curve_gcry_name (key->curve), qlen, q);
    case PL_PK_EDDSA: case PL_PK_ED25519:
      return gcry_sexp_build (out, NULL,
                              "(public-key (ecc (curve Ed25519) (flags eddsa)"
                              " (q %b)))", qlen, q);
    case PL_PK_ED448:
      return gcry_sexp_build (out, NULL,
                              "(public-key (ecc (curve Ed448) (q %b)))", qlen,
                              q);
    default:
      return gpg_error (GPG_ERR_PUBKEY_ALGO);
    }
}

void
pl_fpr_format (const uint8_t *fpr, size_t len, char *out)
{
  out[0] = '0';
  out[1] = 'x';
  for (size_t i = 0; i < len && i < PL_FPR_MAX; i++)
    snprintf (out + 2 + 2 * i, 3, "%02X", fpr[i]);
  out[2 + 2 * (len < PL_FPR_MAX ? len : PL_FPR_MAX)] = 0;
}
