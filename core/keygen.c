/* keygen.c - new transferable secret keys (RFC 9580 §10.2) */
#include "keygen.h"
#include "algo.h"
#include "packet.h"
#include "pubkey.h"
#include "seckey.h"
#include "sign.h"

#include <string.h>
#include <gcrypt.h>

#define UID_MAX 1024

/* A new key: its public part, parsed, and its secret fields as written. */
typedef struct
{
  pl_pubkey pub;
  uint8_t *fields;              /* secure */
  size_t fields_len;
  uint8_t seed[32];             /* Ed25519: for signing (the struct is in
                                 * secure memory) */
} new_key;

/* The output being written: secure, bounded by the caller's estimate. */
typedef struct
{
  uint8_t *p;
  size_t len, cap;
} out_buf;

static gpg_error_t
put_packet (out_buf *o, int tag, const uint8_t *body, size_t len)
{
  if (o->cap - o->len < len + 6)
    return gpg_error (GPG_ERR_TOO_LARGE);
  o->len += pl_packet_write_header (o->p + o->len, tag, len);
  memcpy (o->p + o->len, body, len);
  o->len += len;
  return 0;
}

/* One of libgcrypt's new ECC keys: Q (33 octets, 0x40 || x) and D's
 * octets, left-padded to DMAX. */
static gpg_error_t
gen_ecc (const char *spec, uint8_t *q, size_t *qlen, uint8_t *d, size_t dmax,
         size_t *dlen)
{
  gcry_sexp_t parms = NULL, key = NULL, lq = NULL, ld = NULL;
  const void *p;
  size_t n = 0;
  gpg_error_t err = gcry_sexp_new (&parms, spec, 0, 1);

  if (!err)
    err = gcry_pk_genkey (&key, parms);
  if (!err)
    {
      lq = gcry_sexp_find_token (key, "q", 0);
      ld = gcry_sexp_find_token (key, "d", 0);
      /* Q as 0x40 || x: Ed25519 comes without the prefix. */
      p = lq ? gcry_sexp_nth_data (lq, 1, &n) : NULL;
      if (p && n == 32)
        {
          q[0] = 0x40;
          memcpy (q + 1, p, 32);
          *qlen = 33;
        }
      else if (p && n == 33 && ((const uint8_t *) p)[0] == 0x40)
        memcpy (q, p, *qlen = n);
      else
        err = gpg_error (GPG_ERR_INTERNAL);
    }
  if (!err)
    {
      p = ld ? gcry_sexp_nth_data (ld, 1, &n) : NULL;
      if (!p || n > dmax)
        err = gpg_error (GPG_ERR_INTERNAL);
      else
        {
          /* Left-padded: D is an integer (big-endian). */
          memset (d, 0, dmax - n);
          memcpy (d + dmax - n, p, n);
          *dlen = dmax;
        }
    }
  gcry_sexp_release (lq);
  gcry_sexp_release (ld);
  gcry_sexp_release (key);
  gcry_sexp_release (parms);
  return err;
}

/* The public packet body: version, NOW, ALGO, (v6: length,) MATERIAL. */
static gpg_error_t
make_pub (new_key *k, int v6, uint32_t now, int algo,
          const uint8_t *material, size_t len)
{
  uint8_t body[128];
  size_t pos = 0;

  body[pos++] = (uint8_t) (v6 ? 6 : 4);
  for (int i = 3; i >= 0; i--)
    body[pos++] = (uint8_t) (now >> (8 * i));
  body[pos++] = (uint8_t) algo;
  if (v6)
    for (int i = 3; i >= 0; i--)
      body[pos++] = (uint8_t) (len >> (8 * i));
  memcpy (body + pos, material, len);
  return pl_pubkey_parse (&k->pub, body, pos + len, NULL);
}

/* The Ed25519 primary (v4: EdDSA legacy with its OID; v6: Ed25519). */
static gpg_error_t
make_primary (new_key *k, int v6, uint32_t now)
{
  static const uint8_t oid[] = { 9, 0x2B, 0x06, 0x01, 0x04, 0x01, 0xDA, 0x47,
                                 0x0F, 0x01 };
  uint8_t q[33], m[64];
  size_t qlen = 0, dlen = 0, pos = 0;
  gpg_error_t err = gen_ecc ("(genkey (ecc (curve Ed25519) (flags eddsa)))",
                             q, &qlen, k->seed, 32, &dlen);

  if (err)
    return err;
  if (v6)
    err = make_pub (k, 1, now, PL_PK_ED25519, q + 1, 32);
  else
    {
      memcpy (m, oid, sizeof oid);
      pos = sizeof oid;
      pos += pl_mpi_write (q, qlen, m + pos);
      err = make_pub (k, 0, now, PL_PK_EDDSA, m, pos);
    }
  if (err)
    return err;
  if (v6)
    memcpy (k->fields, k->seed, 32), k->fields_len = 32;
  else
    k->fields_len = pl_mpi_write (k->seed, 32, k->fields);
  return 0;
}

/* The encryption subkey (v4: Curve25519 legacy ECDH; v6: X25519). */
static gpg_error_t
make_subkey (new_key *k, int v6, uint32_t now)
{
  static const uint8_t oid[] = { 10, 0x2B, 0x06, 0x01, 0x04, 0x01, 0x97,
                                 0x55, 0x01, 0x05, 0x01 };
  static const uint8_t kdf[] = { 3, 1, PL_HASH_SHA256, PL_CIPHER_AES256 };
  uint8_t q[33], m[64], *d = k->seed;
  size_t qlen = 0, dlen = 0, pos = 0;
  gpg_error_t err = gen_ecc ("(genkey (ecc (curve Curve25519)"
                             " (flags djb-tweak comp)))", q, &qlen, d, 32,
                             &dlen);

  if (err)
    return err;
  if (v6)
    {
      err = make_pub (k, 1, now, PL_PK_X25519, q + 1, 32);
      /* X25519 keeps the scalar in its native, little-endian order. */
      for (int i = 0; i < 32; i++)
        k->fields[i] = d[31 - i];
      k->fields_len = 32;
    }
  else
    {
      memcpy (m, oid, sizeof oid);
      pos = sizeof oid;
      pos += pl_mpi_write (q, qlen, m + pos);
      memcpy (m + pos, kdf, sizeof kdf);
      err = make_pub (k, 0, now, PL_PK_ECDH, m, pos + sizeof kdf);
      k->fields_len = pl_mpi_write (d, 32, k->fields);
    }
  return err;
}

/* A key packet of TAG: the public body and the sealed secret part. */
static gpg_error_t
put_key (out_buf *o, int tag, const new_key *k, const char *pw, size_t pwlen)
{
  size_t cap = k->pub.body_len + k->fields_len + 160, n = 0;
  uint8_t *body = gcry_malloc_secure (cap);
  gpg_error_t err = body ? 0 : gpg_error (GPG_ERR_ENOMEM);

  if (!err)
    {
      memcpy (body, k->pub.body, k->pub.body_len);
      err = pl_seckey_seal (&k->pub, tag, k->fields, k->fields_len, pw, pwlen,
                            body + k->pub.body_len, &n);
    }
  if (!err)
    err = put_packet (o, tag, body, k->pub.body_len + n);
  if (body)
    pl_wipe (body, cap);
  gcry_free (body);
  return err;
}

/* A signature of TYPE by the primary over T, with SUBPACKETS hashed. */
static gpg_error_t
put_sig (out_buf *o, new_key *primary, int type, const pl_sig_target *t,
         uint32_t now, const uint8_t *subpackets, size_t n)
{
  pl_seckey signer;
  uint8_t body[PL_SIG_BODY_MAX];
  size_t len;
  gpg_error_t err;

  memset (&signer, 0, sizeof signer);
  signer.pub = &primary->pub;
  signer.mem = primary->seed;
  signer.mem_len = 32;
  signer.field[0].len = 32;
  signer.n_fields = 1;
  err = pl_sig_sign (&signer, type, t, now, subpackets, n, body, &len);
  return err ? err : put_packet (o, PL_PKT_SIGNATURE, body, len);
}

/* The primary's preferences and flags (v4: on each user ID's
 * certification; v6: on the direct-key signature). */
static size_t
key_subpackets (int v6, uint8_t *out)
{
  static const uint8_t flags[] = { 0x03 }, sym[] = { 9, 8, 7 };
  static const uint8_t hash[] = { 10, 9, 8 }, zip[] = { 2, 1 };
  static const uint8_t aead[] = { 9, 2, 7, 2 };
  uint8_t features = v6 ? 0x09 : 0x01;
  size_t pos = 0;

  pl_subpacket_put (out, &pos, 27, flags, 1);
  pl_subpacket_put (out, &pos, 11, sym, sizeof sym);
  pl_subpacket_put (out, &pos, 21, hash, sizeof hash);
  pl_subpacket_put (out, &pos, 22, zip, sizeof zip);
  if (v6)
    pl_subpacket_put (out, &pos, 39, aead, sizeof aead);
  pl_subpacket_put (out, &pos, 30, &features, 1);
  return pos;
}

static gpg_error_t
write_key (out_buf *o, new_key *primary, new_key *sub, int v6,
           const char *const *uids, size_t n_uids, const char *pw,
           size_t pwlen, uint32_t now)
{
  static const uint8_t enc_flags[] = { 0x0C }, yes[] = { 1 };
  uint8_t sp[64];
  size_t n;
  pl_sig_target t = { &primary->pub, NULL, NULL, 0, 13 };
  gpg_error_t err = put_key (o, 5, primary, pw, pwlen);

  if (!err && v6)
    err = put_sig (o, primary, PL_SIG_DIRECT_KEY, &t, now, sp,
                   key_subpackets (1, sp));
  for (size_t i = 0; i < n_uids && !err; i++)
    {
      n = v6 ? 0 : key_subpackets (0, sp);
      if (!i)
        pl_subpacket_put (sp, &n, 25, yes, 1);
      t.uid = (const uint8_t *) uids[i];
      t.uid_len = strlen (uids[i]);
      err = put_packet (o, 13, t.uid, t.uid_len);
      if (!err)
        err = put_sig (o, primary, PL_SIG_POSITIVE_CERT, &t, now, sp, n);
    }
  t.uid = NULL;
  t.subkey = &sub->pub;
  if (!err)
    err = put_key (o, 7, sub, pw, pwlen);
  n = 0;
  pl_subpacket_put (sp, &n, 27, enc_flags, 1);
  if (!err)
    err = put_sig (o, primary, PL_SIG_SUBKEY_BINDING, &t, now, sp, n);
  return err;
}

gpg_error_t
pl_keygen (pl_keygen_profile profile, const char *const *uids, size_t n_uids,
           const char *passphrase, size_t passphrase_len, uint32_t now,
           uint8_t **out, size_t *out_len)
{
  int v6 = profile == PL_KEYGEN_RFC9580;
  new_key *k = gcry_calloc_secure (2, sizeof *k + 128);
  out_buf o = { NULL, 0, 4096 + n_uids * (UID_MAX + 6 + PL_SIG_BODY_MAX + 6) };
  gpg_error_t err = k ? 0 : gpg_error (GPG_ERR_ENOMEM);

  *out = NULL;
  *out_len = 0;
  if (!n_uids || (profile != PL_KEYGEN_DEFAULT && profile != PL_KEYGEN_RFC9580))
    err = gpg_error (GPG_ERR_INV_ARG);
  for (size_t i = 0; i < n_uids && !err; i++)
    if (strlen (uids[i]) > UID_MAX)
      err = gpg_error (GPG_ERR_TOO_LARGE);
  if (!err)
    {
      k[0].fields = (uint8_t *) (k + 2);
      k[1].fields = k[0].fields + 64;
      o.p = gcry_malloc_secure (o.cap);
      err = o.p ? 0 : gpg_error (GPG_ERR_ENOMEM);
    }
  if (!err)
    err = make_primary (&k[0], v6, now);
  if (!err)
    err = make_subkey (&k[1], v6, now);
  if (!err)
    err = write_key (&o, &k[0], &k[1], v6, uids, n_uids, passphrase,
                     passphrase_len, now);
  if (k)
    {
      pl_pubkey_clear (&k[0].pub);
      pl_pubkey_clear (&k[1].pub);
      pl_wipe (k, 2 * (sizeof *k + 128));
      gcry_free (k);
    }
  if (err && o.p)
    {
      pl_wipe (o.p, o.cap);
      gcry_free (o.p);
    }
  else if (!err)
    {
      *out = o.p;
      *out_len = o.len;
    }
  return err;
}
