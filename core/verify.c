/* verify.c - signatures over data (RFC 9580 §5.2.1 types 0x00, 0x01) */
#include "verify.h"
#include "detached.h"
#include "algo.h"
#include "armor.h"
#include "job.h"
#include "packet.h"

#include <stdlib.h>
#include <string.h>

/* A signature packet larger than this is not one we read. */
#define SIG_PACKET_MAX (64u * 1024)

void
pl_verifier_init (pl_verifier *v, const pl_cert *const *certs, size_t n_certs)
{
  memset (v, 0, sizeof *v);
  v->certs = certs;
  v->n_certs = n_certs;
}

int
pl_verifier_active (const pl_verifier *v)
{
  return v->n_hashes > 0;
}

int
pl_verifications_good (const pl_verifications *v)
{
  for (size_t i = 0; i < v->n; i++)
    if (v->v[i].verdict == PL_VERDICT_GOOD)
      return 1;
  return 0;
}

static const pl_cert_key *find_signer (const pl_verifier *v, const pl_sig *s,
                                       const pl_cert **cert);

/* 1 when a certificate given holds the key that E names (a one-pass
 * packet's key ID or fingerprint, a signature's issuer), or E names
 * none (gpg --throw-keyids): its signature can be judged. */
static int
signer_may_be_known (const pl_verifier *v, const pl_verify_entry *e)
{
  const pl_cert *cert;

  if (!e->onepass)
    return find_signer (v, &e->sig, &cert) != NULL
           || (!e->sig.issuer_fpr_len && !e->sig.has_issuer);
  if (e->issuer_len == 8 && !memcmp (e->issuer, "\0\0\0\0\0\0\0\0", 8))
    return 1;
  for (size_t i = 0; i < v->n_certs; i++)
    if (pl_cert_find_key (v->certs[i], e->issuer,
                          e->issuer_len == 8 ? 0 : e->issuer_len,
                          e->issuer_len == 8 ? e->issuer : NULL))
      return 1;
  return 0;
}

/* The hash context for entry E: shared with an earlier entry of the same
 * input (hash, text or binary, salt), else a new one.  Unknown hashes get
 * none (the verdict is UNSUPPORTED), and neither does a signature by a
 * key no certificate holds: its verdict is UNKNOWN_KEY whatever the data
 * (GnuPG's T5820: no needless hash contexts). */
static gpg_error_t
attach_hash (pl_verifier *v, pl_verify_entry *e)
{
  int galgo = pl_hash_gcry_algo (e->hash_algo);
  int text = e->type == PL_SIG_TEXT;
  pl_data_hash *h;

  e->hash = -1;
  if (!galgo || (e->type != PL_SIG_BINARY && e->type != PL_SIG_TEXT))
    return 0;
  if (v->certs_final && !signer_may_be_known (v, e))
    {
      e->unknown_signer = 1;
      return 0;
    }
  for (size_t i = 0; i < v->n_hashes; i++)
    {
      h = &v->h[i];
      if (h->hash_algo == e->hash_algo && h->text == text
          && h->salt_len == e->salt_len
          && !memcmp (h->salt, e->salt, e->salt_len))
        {
          e->hash = (int) i;
          return 0;
        }
    }
  h = &v->h[v->n_hashes];
  memset (h, 0, sizeof *h);
  if (gcry_md_open (&h->md, galgo, 0))
    return gpg_error (GPG_ERR_DIGEST_ALGO);
  h->hash_algo = e->hash_algo;
  h->text = text;
  h->salt_len = e->salt_len;
  memcpy (h->salt, e->salt, e->salt_len);
  /* A v6 signature's salt comes before the data (RFC 9580 §5.2.4). */
  gcry_md_write (h->md, h->salt, h->salt_len);
  e->hash = (int) v->n_hashes++;
  return 0;
}

/* The next entry, or NULL when PL_VERIFY_MAX are taken. */
static pl_verify_entry *
new_entry (pl_verifier *v)
{
  pl_verify_entry *e;

  if (v->n == PL_VERIFY_MAX)
    {
      v->skipped++;
      return NULL;
    }
  e = &v->e[v->n++];
  memset (e, 0, sizeof *e);
  e->hash = -1;
  return e;
}

gpg_error_t
pl_verifier_onepass (pl_verifier *v, const uint8_t *b, size_t len)
{
  pl_verify_entry *e;
  size_t want;

  if (v->data_started)
    return gpg_error (GPG_ERR_BAD_DATA);
  /* v3: version, type, hash, algorithm, key ID (8), nested flag;
   * v6: ... salt length, salt, fingerprint (32), nested flag. */
  if (len < 4 || (b[0] != 3 && b[0] != 6))
    return gpg_error (GPG_ERR_INV_PACKET);
  want = b[0] == 3 ? 13 : (len > 4 ? 4 + 1 + (size_t) b[4] + 32 + 1 : 0);
  if (len != want || (b[0] == 6 && b[4] > 32))
    return gpg_error (GPG_ERR_INV_PACKET);
  e = new_entry (v);
  if (!e)
    {
      v->skipped_open++;
      return 0;
    }
  e->onepass = 1;
  e->version = b[0];
  e->type = b[1];
  e->hash_algo = b[2];
  e->pk_algo = b[3];
  if (b[0] == 3)
    {
      memcpy (e->issuer, b + 4, 8);
      e->issuer_len = 8;
    }
  else
    {
      e->salt_len = b[4];
      memcpy (e->salt, b + 5, e->salt_len);
      memcpy (e->issuer, b + 5 + e->salt_len, 32);
      e->issuer_len = 32;
    }
  return attach_hash (v, e);
}

/* Whether the signature E->sig says what its one-pass packet said. */
static int
matches_onepass (const pl_verify_entry *e)
{
  const pl_sig *s = &e->sig;

  if (s->type != e->type || s->hash_algo != e->hash_algo
      || s->pk_algo != e->pk_algo || (s->version == 6) != (e->version == 6))
    return 0;
  if (e->version == 6)
    return s->salt_len == e->salt_len
           && !memcmp (s->body + s->salt_off, e->salt, e->salt_len)
           && (!s->issuer_fpr_len
               || (s->issuer_fpr_len == 32
                   && !memcmp (s->issuer_fpr, e->issuer, 32)));
  /* A v3 one-pass packet's key ID of 0 names no one (gpg --throw-keyids). */
  if (!memcmp (e->issuer, "\0\0\0\0\0\0\0\0", 8) || !s->has_issuer)
    return 1;
  return !memcmp (s->issuer, e->issuer, 8);
}

static pl_verify_entry *
newest_open (pl_verifier *v)
{
  for (size_t i = v->n; i-- > 0;)
    if (v->e[i].onepass && !v->e[i].closed)
      return &v->e[i];
  return NULL;
}

gpg_error_t
pl_verifier_signature (pl_verifier *v, const uint8_t *body, size_t len)
{
  pl_verify_entry *e;
  gpg_error_t err;

  if (!v->data_started)
    {
      e = new_entry (v);
      if (!e)
        return 0;
      e->err = pl_sig_parse (&e->sig, body, len);
      if (e->err)
        return gpg_err_code (e->err) == GPG_ERR_ENOMEM ? e->err : 0;
      e->closed = 1;
      e->version = e->sig.version;
      e->type = e->sig.type;
      e->hash_algo = e->sig.hash_algo;
      e->pk_algo = e->sig.pk_algo;
      e->salt_len = e->sig.salt_len;
      memcpy (e->salt, e->sig.body + e->sig.salt_off, e->salt_len);
      return attach_hash (v, e);
    }
  /* The innermost one-pass packets were the skipped ones. */
  if (v->skipped_open)
    {
      v->skipped_open--;
      return 0;
    }
  e = newest_open (v);
  if (!e)
    return gpg_error (GPG_ERR_BAD_DATA);
  e->closed = 1;
  err = pl_sig_parse (&e->sig, body, len);
  if (gpg_err_code (err) == GPG_ERR_ENOMEM)
    return err;
  if (err)
    e->err = err;
  else if (!matches_onepass (e))
    e->err = gpg_error (GPG_ERR_BAD_SIGNATURE);
  return 0;
}

void
pl_verifier_data_begin (pl_verifier *v)
{
  v->data_started = 1;
}

/* Text: every LF not after a CR is hashed as CR LF. */
static void
hash_text (pl_data_hash *h, const uint8_t *p, size_t n)
{
  size_t start = 0;

  for (size_t i = 0; i < n; i++)
    {
      int prev_cr = i ? p[i - 1] == '\r' : h->cr;
      if (p[i] != '\n' || prev_cr)
        continue;
      gcry_md_write (h->md, p + start, i - start);
      gcry_md_write (h->md, "\r", 1);
      start = i;
    }
  gcry_md_write (h->md, p + start, n - start);
  if (n)
    h->cr = p[n - 1] == '\r';
}

void
pl_data_hash_write (pl_data_hash *h, const uint8_t *p, size_t n)
{
  if (h->text)
    hash_text (h, p, n);
  else
    gcry_md_write (h->md, p, n);
}

void
pl_verifier_push (pl_verifier *v, const uint8_t *p, size_t n)
{
  for (size_t i = 0; i < v->n_hashes; i++)
    pl_data_hash_write (&v->h[i], p, n);
}

/* The certificate and key that issued S, or NULL. */
static const pl_cert_key *
find_signer (const pl_verifier *v, const pl_sig *s, const pl_cert **cert)
{
  for (size_t i = 0; i < v->n_certs; i++)
    {
      const pl_cert_key *k
        = pl_cert_find_key (v->certs[i], s->issuer_fpr, s->issuer_fpr_len,
                            s->has_issuer ? s->issuer : NULL);
      if (k)
        {
          *cert = v->certs[i];
          return k;
        }
    }
  return NULL;
}

size_t
pl_verifier_lookup (pl_verifier *v, pl_cert_lookup_fn lookup,
                    void *user_data, const pl_cert **found)
{
  size_t n = 0;

  /* V's own certificates first: a signer among them is asked for no
   * further. */
  for (size_t i = 0; i < v->n_certs && n < PL_VERIFY_MAX; i++)
    found[n++] = v->certs[i];
  v->certs = found;
  v->n_certs = n;
  for (size_t i = 0; i < v->n && n < PL_VERIFY_MAX; i++)
    {
      const pl_verify_entry *e = &v->e[i];
      const pl_sig *s = &e->sig;
      const pl_cert *cert, *known;

      /* Not closed or already judged: no key changes its verdict. */
      if (!e->closed || e->err || (!s->issuer_fpr_len && !s->has_issuer)
          || find_signer (v, s, &known))
        continue;
      cert = lookup (user_data, s->issuer_fpr, s->issuer_fpr_len,
                     s->has_issuer ? s->issuer : NULL);
      if (cert)
        found[n++] = cert;
      v->n_certs = n;
    }
  return n;
}

/* The verdict of entry E, whose signature was parsed, into OUT. */
static void
judge (const pl_verifier *v, const pl_verify_entry *e, uint32_t now,
       pl_verification *out)
{
  const pl_sig *s = &e->sig;
  const pl_cert_key *k;
  gcry_md_hd_t md = NULL;
  gpg_error_t err;

  out->created = s->created;
  memcpy (out->issuer_fpr, s->issuer_fpr, s->issuer_fpr_len);
  out->issuer_fpr_len = s->issuer_fpr_len;
  memcpy (out->issuer, s->issuer, 8);
  out->has_issuer = s->has_issuer;
  k = find_signer (v, s, &out->cert);
  if (!k)
    {
      out->verdict = PL_VERDICT_UNKNOWN_KEY;
      out->why = gpg_error (GPG_ERR_NO_PUBKEY);
      return;
    }
  memcpy (out->key_fpr, k->key.fpr, k->key.fpr_len);
  out->key_fpr_len = k->key.fpr_len;
  /* Not hashed for an unknown key, the one-pass packet named: it named
   * another key than its signature does. */
  if (e->unknown_signer)
    {
      out->verdict = PL_VERDICT_BAD;
      out->why = gpg_error (GPG_ERR_BAD_SIGNATURE);
      return;
    }
  /* A key not safe to use is refused before its mathematics: "not
   * valid: RSA-1024 is too weak", never "good" nor "bad" (DESIGN.md). */
  if (pl_cert_key_unsafe (out->cert, k, 0, out->reason, sizeof out->reason))
    {
      out->verdict = PL_VERDICT_NOT_VALID;
      out->why = gpg_error (GPG_ERR_WRONG_KEY_USAGE);
      return;
    }
  if (e->hash < 0 || gcry_md_copy (&md, v->h[e->hash].md))
    {
      out->verdict = PL_VERDICT_UNSUPPORTED;
      out->why = gpg_error (GPG_ERR_DIGEST_ALGO);
      return;
    }
  err = pl_sig_verify_hashed (s, &k->key, md, now);
  gcry_md_close (md);
  out->why = err;
  if (!err)
    {
      err = pl_cert_key_may_sign (out->cert, k, s->created, now, out->reason,
                                  sizeof out->reason);
      out->why = err;
      out->verdict = err ? PL_VERDICT_NOT_VALID : PL_VERDICT_GOOD;
    }
  else if (pl_sig_policy_words (s, err, out->reason, sizeof out->reason))
    {
      /* It matches; the policy refuses it (hash, times, criticality). */
      out->verdict = PL_VERDICT_NOT_VALID;
      if (gpg_err_code (err) == GPG_ERR_UNKNOWN_CRIT_EXTN)
        pl_sig_critical_name (s, out->critical, sizeof out->critical);
    }
  else if (gpg_err_code (err) == GPG_ERR_PUBKEY_ALGO)
    out->verdict = PL_VERDICT_UNSUPPORTED;
  else
    out->verdict = PL_VERDICT_BAD;
}

void
pl_verifier_finish (pl_verifier *v, uint32_t now, pl_verifications *out)
{
  memset (out, 0, sizeof *out);
  out->skipped = v->skipped;
  for (size_t i = 0; i < v->n; i++)
    {
      const pl_verify_entry *e = &v->e[i];
      pl_verification *o = &out->v[out->n++];

      o->version = e->version == 3 ? 4 : e->version;
      o->type = e->type;
      o->hash_algo = e->hash_algo;
      o->pk_algo = e->pk_algo;
      if (!e->closed)
        {
          o->verdict = PL_VERDICT_BAD;
          o->why = gpg_error (GPG_ERR_NO_DATA);
        }
      else if (e->err)
        {
          o->why = e->err;
          o->verdict = gpg_err_code (e->err) == GPG_ERR_BAD_SIGNATURE
                       ? PL_VERDICT_BAD : PL_VERDICT_UNSUPPORTED;
        }
      else
        judge (v, e, now, o);
    }
}

void
pl_verifier_clear (pl_verifier *v)
{
  for (size_t i = 0; i < v->n; i++)
    pl_sig_clear (&v->e[i].sig);
  for (size_t i = 0; i < v->n_hashes; i++)
    gcry_md_close (v->h[i].md);
  v->n = v->n_hashes = 0;
}

/* The signature packets of BIN into V. */
static gpg_error_t
read_detached (pl_verifier *v, uint8_t *bin, size_t len)
{
  pl_mem_reader m;
  pl_cursor cur;
  pl_packet_body *body = malloc (sizeof *body);
  uint8_t *buf = malloc (SIG_PACKET_MAX);
  size_t n, count = 0;
  gpg_error_t err = body && buf ? 0 : gpg_error (GPG_ERR_ENOMEM);

  pl_mem_reader_init (&m, bin, len);
  pl_cursor_init (&cur, &m.base);
  while (!err)
    {
      err = pl_packet_begin (&cur, body);
      if (gpg_err_code (err) == GPG_ERR_EOF)
        {
          err = count ? 0 : gpg_error (GPG_ERR_NO_DATA);
          break;
        }
      if (!err && body->tag != PL_PKT_SIGNATURE)
        err = pl_packet_skippable (body->tag) ? pl_packet_skip (body)
                                              : gpg_error (GPG_ERR_BAD_DATA);
      else if (!err)
        {
          err = pl_packet_read_all (body, buf, SIG_PACKET_MAX, &n);
          if (!err)
            err = pl_verifier_signature (v, buf, n);
          count++;
        }
    }
  free (body);
  free (buf);
  return err;
}

gpg_error_t
pl_verify_detached (const uint8_t *sigs, size_t sigs_len, pl_source *src,
                    const pl_cert *const *certs, size_t n_certs,
                    uint32_t now, pl_verifications *out)
{
  return pl_verify_detached_lookup (sigs, sigs_len, src, certs, n_certs,
                                    NULL, NULL, now, out);
}

gpg_error_t
pl_verifier_read_detached (pl_verifier *v, const uint8_t *sigs,
                           size_t sigs_len)
{
  uint8_t *bin = NULL;
  size_t bin_len = 0;
  gpg_error_t err;

  if (pl_armor_detect (sigs, sigs_len))
    err = pl_armor_dearmor_all (sigs, sigs_len, &bin, &bin_len);
  else if (!(bin = malloc (sigs_len ? sigs_len : 1)))
    err = gpg_error (GPG_ERR_ENOMEM);
  else
    {
      memcpy (bin, sigs, sigs_len);
      bin_len = sigs_len;
      err = 0;
    }
  if (!err)
    err = read_detached (v, bin, bin_len);
  free (bin);
  return err;
}

gpg_error_t
pl_verify_detached_lookup (const uint8_t *sigs, size_t sigs_len,
                           pl_source *src, const pl_cert *const *certs,
                           size_t n_certs, pl_cert_lookup_fn find_cert,
                           void *find_cert_data, uint32_t now,
                           pl_verifications *out)
{
  /* The stage's own run (detached.h), on this thread, without progress
   * or cancel: one place reads the signatures and hashes the data. */
  return pl_detached_run (sigs, sigs_len, src, certs, n_certs, find_cert,
                          find_cert_data, now, out, NULL);
}
