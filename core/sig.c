/* sig.c - signature packets (RFC 9580 §5.2): v4 and v6, on keys */
#include "sig.h"
#include "algo.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <gcrypt.h>

static uint32_t
be32 (const uint8_t *p)
{
  return ((uint32_t) p[0] << 24) | ((uint32_t) p[1] << 16)
         | ((uint32_t) p[2] << 8) | p[3];
}

size_t
pl_sig_salt_length (int hash_algo)
{
  switch (hash_algo)
    {
    case PL_HASH_SHA256: case PL_HASH_SHA224: case PL_HASH_SHA3_256:
      return 16;
    case PL_HASH_SHA384: return 24;
    case PL_HASH_SHA512: case PL_HASH_SHA3_512: return 32;
    default: return 0;
    }
}

/* The subpacket types we read or may ignore (RFC 9580 §5.2.3.7): a
 * critical one outside this list voids the signature.  A notation (20)
 * is not in it: the criticality of a notation is its own (§5.2.3.24),
 * and we know no notation, so a critical one voids the signature too;
 * one not critical is ignored. */
static int
known_subpacket (int type)
{
  static const uint8_t known[] = { 2, 3, 4, 5, 6, 7, 9, 11, 12, 16, 21,
                                   22, 23, 24, 25, 26, 27, 28, 29, 30, 31,
                                   32, 33, 34, 35, 37, 39 };
  for (size_t i = 0; i < sizeof known; i++)
    if (known[i] == type)
      return 1;
  return 0;
}

/* A hashed critical subpacket of TYPE we do not know, N octets at P
 * (offset OFF in the body): the first one is kept for the reason.  A
 * notation is 4 octets of flags, the name's and the value's lengths (2
 * each), the name, the value (RFC 9580 §5.2.3.24). */
static void
note_unknown_critical (pl_sig *sig, int type, const uint8_t *p, size_t n,
                       size_t off)
{
  size_t name_len;

  if (sig->unknown_critical)
    return;
  sig->unknown_critical = 1;
  sig->critical_type = type;
  if (type != 20 || n < 8)
    return;
  name_len = (size_t) p[4] << 8 | p[5];
  if (8 + name_len + ((size_t) p[6] << 8 | p[7]) != n)
    return;
  sig->critical_name_off = off + 8;
  sig->critical_name_len = name_len;
}

/* One subpacket of TYPE, N octets at P (offset OFF in the body). */
static void
take_subpacket (pl_sig *sig, int hashed, int type, const uint8_t *p,
                size_t n, size_t off)
{
  switch (type)
    {
    case 2: if (hashed && n == 4) sig->created = be32 (p); break;
    case 3: if (hashed && n == 4) sig->expires = be32 (p); break;
    case 9: if (hashed && n == 4) sig->key_expires = be32 (p); break;
    case 25: if (hashed && n == 1) sig->primary_uid = p[0] != 0; break;
    case 27:
      if (hashed && n >= 1)
        sig->has_key_flags = 1, sig->key_flags = p[0];
      break;
    case 30:
      if (hashed && n >= 1)
        sig->has_features = 1, sig->features = p[0];
      break;
    case 16:
      if (n == 8)
        sig->has_issuer = 1, memcpy (sig->issuer, p, 8);
      break;
    case 33:
      if (n >= 2 && n - 1 <= PL_FPR_MAX)
        {
          sig->issuer_fpr_len = n - 1;
          memcpy (sig->issuer_fpr, p + 1, n - 1);
        }
      break;
    case 32:
      sig->embedded_off = off;
      sig->embedded_len = n;
      break;
    default:
      break;
    }
  if (hashed && (p[-1] & 0x80) && !known_subpacket (type))
    note_unknown_critical (sig, type, p, n, off);
}

/* The subpacket area at OFF, LEN octets. */
static gpg_error_t
parse_subpackets (pl_sig *sig, size_t off, size_t len, int hashed)
{
  const uint8_t *p = sig->body + off;
  size_t pos = 0;

  while (pos < len)
    {
      size_t n, hl;

      if (p[pos] < 192)
        n = p[pos], hl = 1;
      else if (p[pos] < 255)
        {
          if (len - pos < 2)
            return gpg_error (GPG_ERR_INV_PACKET);
          n = ((size_t) (p[pos] - 192) << 8) + p[pos + 1] + 192, hl = 2;
        }
      else
        {
          if (len - pos < 5)
            return gpg_error (GPG_ERR_INV_PACKET);
          n = be32 (p + pos + 1), hl = 5;
        }
      if (!n || n > len - pos - hl)
        return gpg_error (GPG_ERR_INV_PACKET);
      take_subpacket (sig, hashed, p[pos + hl] & 0x7F, p + pos + hl + 1, n - 1,
                      off + pos + hl + 1);
      pos += hl + n;
    }
  return 0;
}

/* The signature's own fields after the left 16 bits. */
static gpg_error_t
parse_material (pl_sig *sig, size_t pos)
{
  size_t count = 0, native = 0;

  switch (sig->pk_algo)
    {
    case PL_PK_RSA: case PL_PK_RSA_S: count = 1; break;
    case PL_PK_DSA: case PL_PK_ECDSA: case PL_PK_EDDSA: count = 2; break;
    case PL_PK_ED25519: native = 64; break;
    case PL_PK_ED448: native = 114; break;
    default: return 0;   /* kept, but never verifies */
    }
  if (native)
    {
      if (sig->len - pos != native)
        return gpg_error (GPG_ERR_INV_PACKET);
      sig->field[0].off = pos;
      sig->field[0].len = native;
      sig->n_fields = 1;
      return 0;
    }
  for (size_t i = 0; i < count; i++)
    {
      size_t off, n, used;
      gpg_error_t err = pl_mpi_read (sig->body + pos, sig->len - pos,
                                     PL_PUBKEY_BITS_MAX, &off, &n, &used);
      if (err)
        return err;
      sig->field[i].off = pos + off;
      sig->field[i].len = n;
      pos += used;
    }
  sig->n_fields = (int) count;
  return pos == sig->len ? 0 : gpg_error (GPG_ERR_INV_PACKET);
}

static gpg_error_t
parse_body (pl_sig *sig)
{
  const uint8_t *b = sig->body;
  size_t n = sig->len, wide = sig->version == 6 ? 4 : 2, pos, hashed, unhashed;
  gpg_error_t err;

  if (n < 4 + wide)
    return gpg_error (GPG_ERR_INV_PACKET);
  sig->type = b[1];
  sig->pk_algo = b[2];
  sig->hash_algo = b[3];
  hashed = wide == 4 ? be32 (b + 4) : ((size_t) b[4] << 8 | b[5]);
  pos = 4 + wide;
  if (hashed > n - pos)
    return gpg_error (GPG_ERR_INV_PACKET);
  err = parse_subpackets (sig, pos, hashed, 1);
  if (err)
    return err;
  pos += hashed;
  sig->hashed_len = pos;
  if (n - pos < wide)
    return gpg_error (GPG_ERR_INV_PACKET);
  unhashed = wide == 4 ? be32 (b + pos) : ((size_t) b[pos] << 8 | b[pos + 1]);
  pos += wide;
  if (unhashed > n - pos)
    return gpg_error (GPG_ERR_INV_PACKET);
  err = parse_subpackets (sig, pos, unhashed, 0);
  if (err)
    return err;
  pos += unhashed;
  if (n - pos < 2)
    return gpg_error (GPG_ERR_INV_PACKET);
  memcpy (sig->left16, b + pos, 2);
  pos += 2;
  if (sig->version == 6)
    {
      if (pos >= n || b[pos] != pl_sig_salt_length (sig->hash_algo)
          || b[pos] > n - pos - 1)
        return gpg_error (GPG_ERR_INV_PACKET);
      sig->salt_off = pos + 1;
      sig->salt_len = b[pos];
      pos += 1 + b[pos];
    }
  return parse_material (sig, pos);
}

gpg_error_t
pl_sig_parse (pl_sig *sig, const uint8_t *body, size_t len)
{
  gpg_error_t err;

  memset (sig, 0, sizeof *sig);
  if (!len)
    return gpg_error (GPG_ERR_INV_PACKET);
  if (body[0] != 4 && body[0] != 6)
    return gpg_error (GPG_ERR_UNKNOWN_VERSION);
  sig->body = malloc (len);
  if (!sig->body)
    return gpg_error (GPG_ERR_ENOMEM);
  memcpy (sig->body, body, len);
  sig->len = len;
  sig->version = body[0];
  err = parse_body (sig);
  if (err)
    pl_sig_clear (sig);
  return err;
}

void
pl_sig_clear (pl_sig *sig)
{
  free (sig->body);
  memset (sig, 0, sizeof *sig);
}

void
pl_sig_hash_target (gcry_md_hd_t md, int version, int type,
                    const uint8_t *salt, size_t salt_len,
                    const pl_sig_target *t)
{
  if (version == 6)
    gcry_md_write (md, salt, salt_len);
  if (t->primary)
    pl_pubkey_hash (t->primary, md);
  if (type == PL_SIG_SUBKEY_BINDING || type == PL_SIG_PRIMARY_BINDING
      || type == PL_SIG_SUBKEY_REVOCATION)
    {
      if (t->subkey)
        pl_pubkey_hash (t->subkey, md);
    }
  else if ((type >= PL_SIG_GENERIC_CERT && type <= PL_SIG_POSITIVE_CERT)
           || type == PL_SIG_CERT_REVOCATION)
    {
      uint8_t head[5];
      head[0] = t->uid_tag == 17 ? 0xD1 : 0xB4;
      head[1] = (uint8_t) (t->uid_len >> 24);
      head[2] = (uint8_t) (t->uid_len >> 16);
      head[3] = (uint8_t) (t->uid_len >> 8);
      head[4] = (uint8_t) t->uid_len;
      gcry_md_write (md, head, 5);
      gcry_md_write (md, t->uid, t->uid_len);
    }
}

static gpg_error_t
check_policy (const pl_sig *sig, uint32_t now)
{
  switch (sig->hash_algo)
    {
    case PL_HASH_SHA256: case PL_HASH_SHA384: case PL_HASH_SHA512:
    case PL_HASH_SHA224: case PL_HASH_SHA3_256: case PL_HASH_SHA3_512:
      break;
    case PL_HASH_SHA1:
      if (sig->created < PL_SIG_SHA1_CUTOFF)
        break;
      /* fall through */
    default:
      return gpg_error (GPG_ERR_DIGEST_ALGO);
    }
  if (sig->unknown_critical)
    return gpg_error (GPG_ERR_UNKNOWN_CRIT_EXTN);
  if (!sig->created)
    return gpg_error (GPG_ERR_INV_TIME);
  if ((uint64_t) sig->created > (uint64_t) now + PL_SIG_CLOCK_SKEW)
    return gpg_error (GPG_ERR_TIME_CONFLICT);
  if (sig->expires && (uint64_t) sig->created + sig->expires <= now)
    return gpg_error (GPG_ERR_SIG_EXPIRED);
  return 0;
}

gpg_error_t
pl_sig_check_policy (const pl_sig *sig, uint32_t now)
{
  return check_policy (sig, now);
}

void
pl_sig_critical_name (const pl_sig *sig, char *out, size_t n)
{
  const uint8_t *name = sig->body + sig->critical_name_off;
  size_t len = sig->critical_name_len, room;
  int cut;

  if (!n)
    return;
  room = n - 1;
  cut = len > PL_SIG_NAME_SHOWN || len > room;
  if (cut)
    {
      len = PL_SIG_NAME_SHOWN;
      if (len + 3 > room)
        len = room > 3 ? room - 3 : 0;
    }
  for (size_t i = 0; i < len; i++)
    out[i] = name[i] >= 0x20 && name[i] < 0x7F ? (char) name[i] : '?';
  out[len] = 0;
  if (cut)
    snprintf (out + len, n - len, "...");
}

int
pl_sig_policy_words (const pl_sig *sig, gpg_error_t err, char *out, size_t n)
{
  char name[PL_SIG_NAME_SHOWN + 4], date[32] = "?";
  time_t t = (time_t) sig->created;
  struct tm tm;

  switch (gpg_err_code (err))
    {
    case GPG_ERR_DIGEST_ALGO:
      snprintf (out, n, "%s", sig->hash_algo == PL_HASH_SHA1
                ? "SHA-1 signature made after 2022"
                : "hash algorithm not accepted");
      return 1;
    case GPG_ERR_SIG_EXPIRED:
      snprintf (out, n, "signature expired");
      return 1;
    case GPG_ERR_UNKNOWN_CRIT_EXTN:
      pl_sig_critical_name (sig, name, sizeof name);
      if (sig->critical_type != 20)
        snprintf (out, n, "unknown critical subpacket %d", sig->critical_type);
      else if (name[0])
        snprintf (out, n, "unknown critical notation %s", name);
      else
        snprintf (out, n, "malformed critical notation");
      return 1;
    case GPG_ERR_TIME_CONFLICT:
      if (gmtime_r (&t, &tm))
        strftime (date, sizeof date, "%Y-%m-%d %H:%M:%S UTC", &tm);
      snprintf (out, n, "made in the future (%s)", date);
      return 1;
    case GPG_ERR_INV_TIME:
      snprintf (out, n, "no creation time");
      return 1;
    default:
      return 0;
    }
}

/* The issuer named in SIG, when it names one, is SIGNER. */
static int
issuer_matches (const pl_sig *sig, const pl_pubkey *signer)
{
  if (sig->issuer_fpr_len
      && (sig->issuer_fpr_len != signer->fpr_len
          || memcmp (sig->issuer_fpr, signer->fpr, signer->fpr_len)))
    return 0;
  return !sig->has_issuer || !memcmp (sig->issuer, signer->keyid, 8);
}

/* A field's octets left-padded to N (EdDSA's r and s are MPIs in v4). */
static int
padded (const pl_sig *sig, int i, uint8_t *out, size_t n)
{
  const pl_field *f = &sig->field[i];
  if (f->len > n)
    return 0;
  memset (out, 0, n - f->len);
  memcpy (out + n - f->len, sig->body + f->off, f->len);
  return 1;
}

static gpg_error_t
build_sexps (const pl_sig *sig, const uint8_t *digest, size_t dlen,
             gcry_sexp_t *data, gcry_sexp_t *sv)
{
  const char *hname = gcry_md_algo_name (pl_hash_gcry_algo (sig->hash_algo));
  uint8_t r[32], s[32];
  gcry_mpi_t a = NULL, b = NULL;
  gpg_error_t err;

  switch (sig->pk_algo)
    {
    case PL_PK_RSA: case PL_PK_RSA_S:
      err = gcry_sexp_build (data, NULL, "(data (flags pkcs1) (hash %s %b))",
                             hname, (int) dlen, digest);
      if (!err)
        err = gcry_sexp_build (sv, NULL, "(sig-val (rsa (s %b)))",
                               (int) sig->field[0].len,
                               sig->body + sig->field[0].off);
      return err;
    case PL_PK_ECDSA: case PL_PK_DSA:
      err = gcry_mpi_scan (&a, GCRYMPI_FMT_USG, sig->body + sig->field[0].off,
                           sig->field[0].len, NULL);
      if (!err)
        err = gcry_mpi_scan (&b, GCRYMPI_FMT_USG,
                             sig->body + sig->field[1].off, sig->field[1].len,
                             NULL);
      if (!err)
        err = gcry_sexp_build (data, NULL, "(data (flags raw) (value %b))",
                               (int) dlen, digest);
      if (!err)
        err = gcry_sexp_build (sv, NULL, sig->pk_algo == PL_PK_DSA
                               ? "(sig-val (dsa (r %m) (s %m)))"
                               : "(sig-val (ecdsa (r %m) (s %m)))", a, b);
      gcry_mpi_release (a);
      gcry_mpi_release (b);
      return err;
    case PL_PK_EDDSA: case PL_PK_ED25519:
      if (sig->pk_algo == PL_PK_ED25519)
        {
          memcpy (r, sig->body + sig->field[0].off, 32);
          memcpy (s, sig->body + sig->field[0].off + 32, 32);
        }
      else if (!padded (sig, 0, r, 32) || !padded (sig, 1, s, 32))
        return gpg_error (GPG_ERR_BAD_SIGNATURE);
      err = gcry_sexp_build (data, NULL, "(data (flags eddsa) (hash-algo sha512)"
                             " (value %b))", (int) dlen, digest);
      if (!err)
        err = gcry_sexp_build (sv, NULL, "(sig-val (eddsa (r %b) (s %b)))",
                               32, r, 32, s);
      return err;
    case PL_PK_ED448:
      /* Ed448 over the digest as its message, no context (RFC 9580
       * §5.2.3.4). */
      err = gcry_sexp_build (data, NULL, "(data (value %b))", (int) dlen,
                             digest);
      if (!err)
        err = gcry_sexp_build (sv, NULL, "(sig-val (eddsa (r %b) (s %b)))",
                               57, sig->body + sig->field[0].off, 57,
                               sig->body + sig->field[0].off + 57);
      return err;
    default:
      return gpg_error (GPG_ERR_PUBKEY_ALGO);
    }
}

size_t
pl_sig_digest_length (const pl_pubkey *key, int gcry_algo)
{
  size_t dlen = gcry_md_get_algo_dlen (gcry_algo), order = 0;

  /* DSA and ECDSA take the digest's leftmost bits, as many as the group
   * order has (FIPS 186-4 §4.6, §6.4; gpg truncates so): with the order
   * a whole number of octets but for P-521, which no hash exceeds. */
  if (key->algo == PL_PK_DSA)
    order = key->field[1].len;
  else if (key->algo == PL_PK_ECDSA)
    order = pl_curve_coordinate_length (key->curve);
  return order && order < dlen ? order : dlen;
}

gpg_error_t
pl_sig_verify_hashed (const pl_sig *sig, const pl_pubkey *signer,
                      gcry_md_hd_t md, uint32_t now)
{
  int galgo = pl_hash_gcry_algo (sig->hash_algo);
  uint8_t trailer[6];
  gcry_sexp_t key = NULL, data = NULL, sv = NULL;
  const uint8_t *digest;
  gpg_error_t err = 0;

  if (sig->pk_algo != signer->algo || sig->version != signer->version
      || !sig->n_fields || !issuer_matches (sig, signer))
    return gpg_error (GPG_ERR_BAD_SIGNATURE);
  /* A broken key's mathematics proves nothing (with e = 1, s = EM
   * verifies for anyone): no signature by it verifies, a self-signature
   * neither (pubkey.h).  A weak one's still do, for one's own old key;
   * its uses refuse it (cert.h, pl_cert_key_unsafe). */
  if (signer->safety == PL_KEY_BROKEN)
    return gpg_error (GPG_ERR_UNUSABLE_PUBKEY);
  if (!galgo || !gcry_md_is_enabled (md, galgo))
    return gpg_error (GPG_ERR_DIGEST_ALGO);
  gcry_md_write (md, sig->body, sig->hashed_len);
  trailer[0] = (uint8_t) sig->version;
  trailer[1] = 0xFF;
  trailer[2] = (uint8_t) (sig->hashed_len >> 24);
  trailer[3] = (uint8_t) (sig->hashed_len >> 16);
  trailer[4] = (uint8_t) (sig->hashed_len >> 8);
  trailer[5] = (uint8_t) sig->hashed_len;
  gcry_md_write (md, trailer, 6);
  digest = gcry_md_read (md, galgo);
  if (digest[0] != sig->left16[0] || digest[1] != sig->left16[1])
    err = gpg_error (GPG_ERR_BAD_SIGNATURE);
  if (!err)
    err = pl_pubkey_sexp (signer, &key);
  if (!err)
    err = build_sexps (sig, digest, pl_sig_digest_length (signer, galgo),
                       &data, &sv);
  if (!err && gcry_pk_verify (sv, data, key))
    err = gpg_error (GPG_ERR_BAD_SIGNATURE);
  gcry_sexp_release (key);
  gcry_sexp_release (data);
  gcry_sexp_release (sv);
  /* The signature's own policy (hash, times) after the mathematics, so
   * that a caller can tell "does not match" from "not acceptable". */
  return err ? err : check_policy (sig, now);
}

gpg_error_t
pl_sig_verify (const pl_sig *sig, const pl_pubkey *signer,
               const pl_sig_target *target, uint32_t now)
{
  int galgo = pl_hash_gcry_algo (sig->hash_algo);
  gcry_md_hd_t md = NULL;
  gpg_error_t err = check_policy (sig, now);

  if (err)
    return err;
  if (!galgo || gcry_md_open (&md, galgo, 0))
    return gpg_error (GPG_ERR_DIGEST_ALGO);
  pl_sig_hash_target (md, sig->version, sig->type, sig->body + sig->salt_off,
                      sig->salt_len, target);
  err = pl_sig_verify_hashed (sig, signer, md, now);
  gcry_md_close (md);
  return err;
}
