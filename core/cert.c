/* cert.c - transferable public and secret keys (RFC 9580 §10.1, §10.2) */
#include "cert.h"
#include "algo.h"
#include "armor.h"
#include "errors.h"
#include "packet.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <gcrypt.h>

enum
{
  TAG_SECRET_KEY = 5,
  TAG_PUBLIC_KEY = 6,
  TAG_SECRET_SUBKEY = 7,
  TAG_TRUST = 12,
  TAG_USER_ID = 13,
  TAG_PUBLIC_SUBKEY = 14,
  TAG_USER_ATTRIBUTE = 17
};

/* A key packet or signature larger than this is not one we read. */
#define PACKET_MAX (256u * 1024)

/* ---- Reading ------------------------------------------------------- */

static void
sig_list_clear (pl_sig_list *l)
{
  for (size_t i = 0; i < l->n; i++)
    pl_sig_clear (&l->v[i]);
  free (l->v);
  l->v = NULL;
  l->n = 0;
  l->checked = l->good = l->back_checked = l->back_good = 0;
}

static void
cert_key_clear (pl_cert_key *k)
{
  pl_pubkey_clear (&k->key);
  if (k->secret)
    {
      pl_wipe (k->secret, k->secret_len);
      gcry_free (k->secret);
    }
  k->secret = NULL;
  sig_list_clear (&k->sigs);
}

void
pl_cert_free (pl_cert *cert)
{
  if (!cert)
    return;
  cert_key_clear (&cert->primary);
  for (size_t i = 0; i < cert->n_uids; i++)
    {
      free (cert->uids[i].data);
      sig_list_clear (&cert->uids[i].sigs);
    }
  for (size_t i = 0; i < cert->n_subkeys; i++)
    cert_key_clear (&cert->subkeys[i]);
  free (cert->uids);
  free (cert->subkeys);
  if (cert->packets)
    pl_wipe (cert->packets, cert->packets_len);
  free (cert->packets);
  free (cert);
}

void
pl_certs_free (pl_cert **certs, size_t n)
{
  for (size_t i = 0; i < n; i++)
    pl_cert_free (certs[i]);
  free (certs);
}

/* Where the packet being read goes. */
typedef struct
{
  pl_cert **certs;
  size_t n_certs;
  pl_cert *cur;
  pl_sig_list *sigs;            /* the component signatures attach to */
  const uint8_t *base;          /* the binary input */
  size_t cert_start;
  int too_large;                /* a primary skipped as PL_ERR_KEY_TOO_LARGE */
} reading;

static gpg_error_t
grow (void **v, size_t n, size_t size)
{
  void *p = realloc (*v, (n + 1) * size);
  if (!p)
    return gpg_error (GPG_ERR_ENOMEM);
  *v = p;
  memset ((uint8_t *) p + n * size, 0, size);
  return 0;
}

/* The key packet BODY into K: its public part, and a secret one's rest
 * into secure memory. */
static gpg_error_t
read_key (pl_cert_key *k, const uint8_t *body, size_t len, int secret)
{
  size_t used = 0;
  gpg_error_t err = pl_pubkey_parse (&k->key, body, len,
                                     secret ? &used : NULL);

  if (err || !secret)
    return err;
  k->secret_len = len - used;
  k->secret = gcry_malloc_secure (k->secret_len ? k->secret_len : 1);
  if (!k->secret)
    return gpg_error (GPG_ERR_ENOMEM);
  memcpy (k->secret, body + used, k->secret_len);
  return 0;
}

/* Ends the certificate being read: keeps it with its packets' octets. */
static gpg_error_t
finish_cert (reading *r, size_t end)
{
  pl_cert *c = r->cur;
  gpg_error_t err;

  r->cur = NULL;
  r->sigs = NULL;
  if (!c)
    return 0;
  c->packets_len = end - r->cert_start;
  c->packets = malloc (c->packets_len);
  err = c->packets ? 0 : gpg_error (GPG_ERR_ENOMEM);
  if (!err && r->n_certs == PL_CERT_MAX_CERTS)
    err = gpg_error (GPG_ERR_TOO_LARGE);
  if (!err)
    err = grow ((void **) &r->certs, r->n_certs, sizeof *r->certs);
  if (err)
    {
      pl_cert_free (c);
      return err;
    }
  memcpy (c->packets, r->base + r->cert_start, c->packets_len);
  r->certs[r->n_certs++] = c;
  return 0;
}

static gpg_error_t
start_cert (reading *r, const uint8_t *body, size_t len, int secret,
            size_t start)
{
  pl_cert *c = calloc (1, sizeof *c);
  gpg_error_t err;

  if (!c)
    return gpg_error (GPG_ERR_ENOMEM);
  err = read_key (&c->primary, body, len, secret);
  if (err)
    {
      pl_cert_free (c);
      /* A primary we cannot read: the certificate is skipped (and when
       * nothing else is read, a key too large says so). */
      r->too_large |= gpg_err_code (err) == PL_ERR_KEY_TOO_LARGE;
      return gpg_err_code (err) == GPG_ERR_ENOMEM ? err : 0;
    }
  r->cur = c;
  r->sigs = &c->primary.sigs;
  r->cert_start = start;
  return 0;
}

static gpg_error_t
add_uid (reading *r, int tag, const uint8_t *body, size_t len)
{
  pl_cert *c = r->cur;
  pl_cert_uid *u;

  if (c->n_uids == PL_CERT_MAX_UIDS)
    return gpg_error (GPG_ERR_TOO_LARGE);
  if (grow ((void **) &c->uids, c->n_uids, sizeof *c->uids))
    return gpg_error (GPG_ERR_ENOMEM);
  u = &c->uids[c->n_uids];
  u->tag = tag;
  u->data = malloc (len ? len : 1);
  if (!u->data)
    return gpg_error (GPG_ERR_ENOMEM);
  memcpy (u->data, body, len);
  u->len = len;
  c->n_uids++;
  r->sigs = &u->sigs;
  return 0;
}

static gpg_error_t
add_subkey (reading *r, const uint8_t *body, size_t len, int secret)
{
  pl_cert *c = r->cur;
  gpg_error_t err;

  if (c->n_subkeys == PL_CERT_MAX_SUBKEYS)
    return gpg_error (GPG_ERR_TOO_LARGE);
  if (grow ((void **) &c->subkeys, c->n_subkeys, sizeof *c->subkeys))
    return gpg_error (GPG_ERR_ENOMEM);
  err = read_key (&c->subkeys[c->n_subkeys], body, len, secret);
  if (err)
    {
      cert_key_clear (&c->subkeys[c->n_subkeys]);
      r->sigs = NULL;           /* its signatures are skipped with it */
      return gpg_err_code (err) == GPG_ERR_ENOMEM ? err : 0;
    }
  {
    pl_pubkey *sub = &c->subkeys[c->n_subkeys].key;
    /* RFC 9580 §10.1.1: a v6 primary's subkeys are v6; a v6 subkey under
     * a v4 primary is not one RFC 9580 knows (§5.5.2). */
    if (sub->version != c->primary.key.version)
      {
        sub->safety = PL_KEY_BROKEN;
        snprintf (sub->unsafe_why, sizeof sub->unsafe_why,
                  "a v%d subkey under a v%d primary key", sub->version,
                  c->primary.key.version);
      }
  }
  r->sigs = &c->subkeys[c->n_subkeys++].sigs;
  return 0;
}

/* A signature for the current component, when it may be a self-signature. */
static gpg_error_t
add_sig (reading *r, const uint8_t *body, size_t len)
{
  const pl_pubkey *primary = &r->cur->primary.key;
  pl_sig sig;

  if (!r->sigs || pl_sig_parse (&sig, body, len))
    return 0;                   /* malformed signatures never verify */
  if ((sig.has_issuer && memcmp (sig.issuer, primary->keyid, 8))
      || (sig.issuer_fpr_len && (sig.issuer_fpr_len != primary->fpr_len
                                 || memcmp (sig.issuer_fpr, primary->fpr,
                                            primary->fpr_len)))
      || r->sigs->n == PL_CERT_MAX_SIGS)
    {
      pl_sig_clear (&sig);      /* a third party's, or too many */
      return 0;
    }
  if (grow ((void **) &r->sigs->v, r->sigs->n, sizeof sig))
    {
      pl_sig_clear (&sig);
      return gpg_error (GPG_ERR_ENOMEM);
    }
  r->sigs->v[r->sigs->n++] = sig;
  return 0;
}

static gpg_error_t
dispatch (reading *r, int tag, const uint8_t *body, size_t len, size_t start)
{
  gpg_error_t err;

  if (tag == TAG_PUBLIC_KEY || tag == TAG_SECRET_KEY)
    {
      err = finish_cert (r, start);
      return err ? err : start_cert (r, body, len, tag == TAG_SECRET_KEY,
                                     start);
    }
  if (!r->cur)
    return 0;
  switch (tag)
    {
    case TAG_USER_ID: case TAG_USER_ATTRIBUTE:
      return add_uid (r, tag, body, len);
    case TAG_PUBLIC_SUBKEY: case TAG_SECRET_SUBKEY:
      return add_subkey (r, body, len, tag == TAG_SECRET_SUBKEY);
    case PL_PKT_SIGNATURE:
      return add_sig (r, body, len);
    default:
      return 0;                 /* trust packets, padding, the unknown */
    }
}

/* Binary packets BIN into R. */
static gpg_error_t
read_packets (reading *r, uint8_t *bin, size_t len)
{
  pl_mem_reader m;
  pl_cursor cur;
  pl_packet_body *body = malloc (sizeof *body);
  uint8_t *buf = NULL;
  gpg_error_t err = body ? 0 : gpg_error (GPG_ERR_ENOMEM);

  r->base = bin;
  pl_mem_reader_init (&m, bin, len);
  pl_cursor_init (&cur, &m.base);
  while (!err)
    {
      size_t start = cur.p ? (size_t) (cur.p - bin) : 0, n;

      err = pl_packet_begin (&cur, body);
      if (gpg_err_code (err) == GPG_ERR_EOF)
        {
          err = finish_cert (r, len);
          break;
        }
      if (!err && (body->partial || body->until_eof))
        err = gpg_error (GPG_ERR_INV_PACKET);
      if (!err && body->remaining > PACKET_MAX)
        {
          /* A photo ID of megabytes, or a key we would not use: skipped,
           * and the signatures after it with it. */
          r->sigs = NULL;
          err = pl_packet_skip (body);
          continue;
        }
      if (!err && !(buf = malloc (body->remaining ? body->remaining : 1)))
        err = gpg_error (GPG_ERR_ENOMEM);
      if (!err)
        err = pl_packet_read_all (body, buf, body->remaining, &n);
      if (!err)
        err = dispatch (r, body->tag, buf, n, start);
      if (buf)
        pl_wipe (buf, body->total);
      free (buf);
      buf = NULL;
    }
  if (err)
    {
      pl_cert_free (r->cur);
      r->cur = NULL;
    }
  free (body);
  return err;
}

gpg_error_t
pl_certs_read (const uint8_t *data, size_t len, pl_cert ***certs, size_t *n)
{
  reading r;
  uint8_t *bin = NULL;
  size_t bin_len = 0;
  gpg_error_t err;

  memset (&r, 0, sizeof r);
  *certs = NULL;
  *n = 0;
  if (len && pl_armor_detect (data, len) == 1)
    err = pl_armor_dearmor_all (data, len, &bin, &bin_len);
  else if (!(bin = malloc (len ? len : 1)))
    err = gpg_error (GPG_ERR_ENOMEM);
  else
    {
      memcpy (bin, data, len);
      bin_len = len;
      err = 0;
    }
  if (!err)
    err = read_packets (&r, bin, bin_len);
  if (bin)
    pl_wipe (bin, bin_len);
  free (bin);
  if (!err && !r.n_certs)
    err = gpg_error (r.too_large ? PL_ERR_KEY_TOO_LARGE : GPG_ERR_NO_PUBKEY);
  if (err)
    {
      pl_certs_free (r.certs, r.n_certs);
      return err;
    }
  *certs = r.certs;
  *n = r.n_certs;
  return 0;
}

/* ---- Choosing ------------------------------------------------------ */

static void
say (char *why, size_t why_len, const char *prefix, const char *reason)
{
  if (why && why_len)
    snprintf (why, why_len, "%s%s", prefix, reason);
}

static void
format_expiry (char *out, size_t n, uint64_t when)
{
  time_t t = (time_t) when;
  struct tm tm;
  char date[32] = "?";

  if (gmtime_r (&t, &tm))
    strftime (date, sizeof date, "%Y-%m-%d", &tm);
  snprintf (out, n, "expired on %s", date);
}

_Static_assert (PL_CERT_MAX_SIGS <= 64, "pl_sig_list keeps a bit a signature");

/* 1 when SIG (the signature kept as bit BIT of *CHECKED, *GOOD) verifies
 * by SIGNER over T at NOW.  pl_sig_verify is the policy at NOW, then the
 * mathematics; the mathematics' verdict is kept in the bits once it ran
 * (cert.h: the list's signer and component never change), and only the
 * policy is asked again.  The bits are the list's cache, not its
 * content, hence the casts from a const certificate, which lives in
 * malloc'ed memory. */
static _Atomic size_t checks_made;

size_t
pl_cert_checks_made (void)
{
  return checks_made;
}

/* Past CERT's PL_CERT_MAX_CHECKS, a signature not checked yet is not
 * valid (and its verdict is not kept: it was never checked). */
static int
verifies (const pl_cert *cert, const pl_sig *sig,
          const _Atomic uint64_t *checked, const _Atomic uint64_t *good,
          uint64_t bit, const pl_pubkey *signer, const pl_sig_target *t,
          uint32_t now)
{
  int ok;

  if (pl_sig_check_policy (sig, now))
    return 0;
  if (*checked & bit)
    return (*good & bit) != 0;
  if ((*(_Atomic unsigned int *) &cert->checks)++ >= PL_CERT_MAX_CHECKS)
    return 0;
  checks_made++;
  ok = !pl_sig_verify (sig, signer, t, now);
  if (ok)
    *(_Atomic uint64_t *) good |= bit;
  *(_Atomic uint64_t *) checked |= bit;
  return ok;
}

/* The newest signature of L of one of TYPES that verifies by SIGNER over
 * T, or NULL. */
static const pl_sig *
newest_valid (const pl_cert *cert, const pl_sig_list *l, const int *types,
              size_t n_types, const pl_pubkey *signer,
              const pl_sig_target *t, uint32_t now)
{
  const pl_sig *best = NULL;

  for (size_t i = 0; i < l->n; i++)
    {
      const pl_sig *s = &l->v[i];
      int wanted = 0;

      for (size_t k = 0; k < n_types; k++)
        wanted |= s->type == types[k];
      if (!wanted || (best && best->created >= s->created))
        continue;
      if (verifies (cert, s, &l->checked, &l->good, (uint64_t) 1 << i, signer,
                    t, now))
        best = s;
    }
  return best;
}

/* The primary's self-signature that speaks for it: the newest valid
 * direct-key signature, else the newest valid certification of a user
 * ID that is not revoked (a primary user ID first). */
static const pl_sig *
primary_self_sig (const pl_cert *cert, uint32_t now)
{
  static const int direct[] = { PL_SIG_DIRECT_KEY };
  static const int certs[] = { 0x10, 0x11, 0x12, 0x13 };
  static const int revs[] = { PL_SIG_CERT_REVOCATION };
  const pl_pubkey *pk = &cert->primary.key;
  pl_sig_target t = { pk, NULL, NULL, 0, 0 };
  const pl_sig *best = newest_valid (cert, &cert->primary.sigs, direct, 1, pk, &t,
                                     now);

  if (best)
    return best;
  for (size_t i = 0; i < cert->n_uids; i++)
    {
      const pl_cert_uid *u = &cert->uids[i];
      const pl_sig *s, *rev;

      t.uid = u->data;
      t.uid_len = u->len;
      t.uid_tag = u->tag;
      s = newest_valid (cert, &u->sigs, certs, 4, pk, &t, now);
      rev = s ? newest_valid (cert, &u->sigs, revs, 1, pk, &t, now) : NULL;
      if (!s || (rev && rev->created >= s->created))
        continue;
      if (!best || (s->primary_uid > best->primary_uid)
          || (s->primary_uid == best->primary_uid
              && s->created > best->created))
        best = s;
    }
  return best;
}

gpg_error_t
pl_cert_check_primary (const pl_cert *cert, uint32_t now,
                       pl_cert_status *status, char *why, size_t why_len)
{
  static const int revs[] = { PL_SIG_KEY_REVOCATION };
  const pl_pubkey *pk = &cert->primary.key;
  pl_sig_target t = { pk, NULL, NULL, 0, 0 };
  const pl_sig *self;
  char reason[64];

  memset (status, 0, sizeof *status);
  if (newest_valid (cert, &cert->primary.sigs, revs, 1, pk, &t, now))
    {
      say (why, why_len, "", "revoked");
      return gpg_error (GPG_ERR_UNUSABLE_PUBKEY);
    }
  self = primary_self_sig (cert, now);
  if (!self)
    {
      say (why, why_len, "", "no valid self-signature");
      return gpg_error (GPG_ERR_UNUSABLE_PUBKEY);
    }
  status->features = self->has_features ? self->features : 0;
  if (self->key_expires)
    {
      status->expires = (uint32_t) ((uint64_t) pk->created
                                    + self->key_expires);
      if ((uint64_t) pk->created + self->key_expires <= now)
        {
          format_expiry (reason, sizeof reason,
                         (uint64_t) pk->created + self->key_expires);
          say (why, why_len, "", reason);
          return gpg_error (GPG_ERR_UNUSABLE_PUBKEY);
        }
    }
  return 0;
}

int
pl_cert_key_unsafe (const pl_cert *cert, const pl_cert_key *key,
                    int own_decryption, char *why, size_t why_len)
{
  const pl_pubkey *k = &key->key, *p = &cert->primary.key;

  if (k->safety == PL_KEY_BROKEN
      || (k->safety == PL_KEY_WEAK && !own_decryption))
    return say (why, why_len, "", k->unsafe_why), 1;
  /* A subkey is bound by the primary's signature: a primary that forges
   * (e = 1) or is too weak to trust binds nothing. */
  if (key != &cert->primary
      && (p->safety == PL_KEY_BROKEN
          || (p->safety == PL_KEY_WEAK && !own_decryption)))
    return say (why, why_len, "its primary key: ", p->unsafe_why), 1;
  return 0;
}

/* A subkey that may sign needs the subkey's own back-signature (0x19),
 * embedded in its binding. */
static int
back_signed (const pl_cert *cert, const pl_cert_key *sub,
             const pl_sig *binding, uint32_t now)
{
  pl_sig_target t = { &cert->primary.key, &sub->key, NULL, 0, 0 };
  uint64_t bit = (uint64_t) 1 << (binding - sub->sigs.v);
  pl_sig back;
  int ok;

  if (!binding->embedded_len
      || pl_sig_parse (&back, binding->body + binding->embedded_off,
                       binding->embedded_len))
    return 0;
  ok = back.type == PL_SIG_PRIMARY_BINDING
       && verifies (cert, &back, &sub->sigs.back_checked,
                    &sub->sigs.back_good, bit, &sub->key, &t, now);
  pl_sig_clear (&back);
  return ok;
}

/* Why SUB cannot encrypt, into REASON (REASON_LEN); 0 when it can, 2
 * when it is not safe to use (pl_cert_key_unsafe), else 1. */
static int
subkey_unusable (const pl_cert *cert, const pl_cert_key *sub, uint32_t now,
                 int for_decryption, char *reason, size_t reason_len)
{
  static const int bind[] = { PL_SIG_SUBKEY_BINDING };
  static const int revs[] = { PL_SIG_SUBKEY_REVOCATION };
  pl_sig_target t = { &cert->primary.key, &sub->key, NULL, 0, 0 };
  const pl_sig *b;
  uint8_t flags;

  if (!pl_pubkey_can_encrypt (&sub->key))
    return snprintf (reason, reason_len, "no encryption algorithm"), 1;
  if (pl_cert_key_unsafe (cert, sub, for_decryption, reason, reason_len))
    return 2;
  b = newest_valid (cert, &sub->sigs, bind, 1, &cert->primary.key, &t, now);
  if (!b)
    return snprintf (reason, reason_len, "no valid binding signature"), 1;
  flags = b->has_key_flags ? b->key_flags
          : PL_KEY_FLAG_ENCRYPT_COMMS | PL_KEY_FLAG_ENCRYPT_STORAGE;
  if (!(flags & (PL_KEY_FLAG_ENCRYPT_COMMS | PL_KEY_FLAG_ENCRYPT_STORAGE)))
    return snprintf (reason, reason_len, "not for encryption"), 1;
  if ((flags & PL_KEY_FLAG_SIGN) && !back_signed (cert, sub, b, now))
    return snprintf (reason, reason_len, "no valid back-signature"), 1;
  if (for_decryption)
    return 0;
  if (newest_valid (cert, &sub->sigs, revs, 1, &cert->primary.key, &t, now))
    return snprintf (reason, reason_len, "revoked"), 1;
  if (b->key_expires
      && (uint64_t) sub->key.created + b->key_expires <= now)
    {
      format_expiry (reason, reason_len,
                     (uint64_t) sub->key.created + b->key_expires);
      return 1;
    }
  return 0;
}

gpg_error_t
pl_cert_encryption_key (const pl_cert *cert, uint32_t now,
                        const pl_cert_key **key, char *why, size_t why_len)
{
  pl_cert_status status;
  const pl_cert_key *best = NULL;
  char reason[96] = "no encryption subkey", r[96];
  const pl_cert_key *unsafe_miss = NULL;
  int miss;
  gpg_error_t err;

  *key = NULL;
  if (pl_cert_key_unsafe (cert, &cert->primary, 0, r, sizeof r))
    {
      say (why, why_len, "not safe to use: ", r);
      return gpg_error (GPG_ERR_UNUSABLE_PUBKEY);
    }
  err = pl_cert_check_primary (cert, now, &status, r, sizeof r);
  if (err)
    {
      say (why, why_len, "no valid encryption subkey: ", r);
      return err;
    }
  for (size_t i = 0; i < cert->n_subkeys; i++)
    {
      const pl_cert_key *sub = &cert->subkeys[i];

      if ((miss = subkey_unusable (cert, sub, now, 0, r, sizeof r)))
        {
          memcpy (reason, r, sizeof reason);
          unsafe_miss = miss == 2 ? sub : NULL;
          continue;
        }
      if (!best || sub->key.created >= best->key.created)
        best = sub;
    }
  if (!best && pl_pubkey_can_encrypt (&cert->primary.key))
    {
      const pl_sig *self = primary_self_sig (cert, now);
      if (self && self->has_key_flags
          && (self->key_flags & (PL_KEY_FLAG_ENCRYPT_COMMS
                                 | PL_KEY_FLAG_ENCRYPT_STORAGE)))
        best = &cert->primary;
    }
  if (!best)
    {
      say (why, why_len, "no valid encryption subkey: ", reason);
      if (unsafe_miss && why && why_len)
        {
          char fpr[2 * PL_FPR_MAX + 3];
          pl_fpr_format (unsafe_miss->key.fpr, unsafe_miss->key.fpr_len, fpr);
          snprintf (why, why_len, "not safe to use: its subkey %s: %s", fpr,
                    reason);
        }
      return gpg_error (GPG_ERR_UNUSABLE_PUBKEY);
    }
  *key = best;
  return 0;
}

int
pl_cert_key_may_decrypt (const pl_cert *cert, const pl_cert_key *key,
                         uint32_t now)
{
  char r[96];
  const pl_sig *self;

  if (key != &cert->primary)
    return !subkey_unusable (cert, key, now, 1, r, sizeof r);
  if (!pl_pubkey_can_encrypt (&key->key)
      || pl_cert_key_unsafe (cert, key, 1, r, sizeof r))
    return 0;
  /* The primary's flags, when its self-signature gives them, must allow
   * encryption: a PKESK for a signing-only primary (named, or for
   * nobody) is not tried (issue 32: nor paid for, §6). */
  self = primary_self_sig (cert, now);
  return self && (!self->has_key_flags
                  || (self->key_flags & (PL_KEY_FLAG_ENCRYPT_COMMS
                                         | PL_KEY_FLAG_ENCRYPT_STORAGE)));
}

const pl_cert_uid *
pl_cert_user_id (const pl_cert *cert)
{
  for (size_t i = 0; i < cert->n_uids; i++)
    if (cert->uids[i].tag == TAG_USER_ID)
      return &cert->uids[i];
  return NULL;
}

/* ---- Writing ------------------------------------------------------- */

/* One packet of the public certificate for TAG and BODY into *OUT: a
 * secret key packet loses its secret part and becomes the public one. */
static gpg_error_t
put_public (uint8_t **out, size_t *len, size_t *cap, int tag,
            const uint8_t *body, size_t n)
{
  pl_pubkey k;
  size_t used = n;

  if (tag == TAG_SECRET_KEY || tag == TAG_SECRET_SUBKEY)
    {
      if (pl_pubkey_parse (&k, body, n, &used))
        return 0;               /* a key we do not read stays out */
      pl_pubkey_clear (&k);
      tag = tag == TAG_SECRET_KEY ? TAG_PUBLIC_KEY : TAG_PUBLIC_SUBKEY;
    }
  if (*len + used + 6 > *cap)
    {
      size_t c = 2 * (*cap + used + 6);
      uint8_t *p = realloc (*out, c);
      if (!p)
        return gpg_error (GPG_ERR_ENOMEM);
      *out = p;
      *cap = c;
    }
  *len += pl_packet_write_header (*out + *len, tag, used);
  memcpy (*out + *len, body, used);
  *len += used;
  return 0;
}

gpg_error_t
pl_cert_public_packets (const pl_cert *cert, uint8_t **out, size_t *out_len)
{
  pl_mem_reader m;
  pl_cursor cur;
  pl_packet_body *body = malloc (sizeof *body);
  uint8_t *buf = NULL;
  size_t cap = 0, n;
  gpg_error_t err = body ? 0 : gpg_error (GPG_ERR_ENOMEM);

  *out = NULL;
  *out_len = 0;
  pl_mem_reader_init (&m, cert->packets, cert->packets_len);
  pl_cursor_init (&cur, &m.base);
  while (!err)
    {
      n = 0;
      err = pl_packet_begin (&cur, body);
      if (gpg_err_code (err) == GPG_ERR_EOF)
        {
          err = 0;
          break;
        }
      if (!err && !(buf = malloc (body->remaining ? body->remaining : 1)))
        err = gpg_error (GPG_ERR_ENOMEM);
      if (!err)
        err = pl_packet_read_all (body, buf, body->remaining, &n);
      if (!err && body->tag != TAG_TRUST)
        err = put_public (out, out_len, &cap, body->tag, buf, n);
      if (buf)
        pl_wipe (buf, n);
      free (buf);
      buf = NULL;
    }
  free (body);
  if (err)
    {
      free (*out);
      *out = NULL;
      *out_len = 0;
    }
  return err;
}

/* ---- Signing keys -------------------------------------------------- */

gpg_error_t
pl_cert_key_may_sign (const pl_cert *cert, const pl_cert_key *key,
                      uint32_t when, uint32_t now, char *why, size_t why_len)
{
  static const int prim_revs[] = { PL_SIG_KEY_REVOCATION };
  static const int bind[] = { PL_SIG_SUBKEY_BINDING };
  static const int revs[] = { PL_SIG_SUBKEY_REVOCATION };
  const pl_pubkey *pk = &cert->primary.key;
  pl_sig_target t = { pk, NULL, NULL, 0, 0 };
  pl_cert_status status;
  const pl_sig *b;
  char r[96];
  uint8_t flags;

  if (pl_cert_key_unsafe (cert, key, 0, r, sizeof r))
    return say (why, why_len, "", r), gpg_error (GPG_ERR_WRONG_KEY_USAGE);
  /* A revocation counts whenever it was made; expiry counts at WHEN. */
  if (newest_valid (cert, &cert->primary.sigs, prim_revs, 1, pk, &t, now))
    return say (why, why_len, "", "revoked"),
           gpg_error (GPG_ERR_CERT_REVOKED);
  if (pl_cert_check_primary (cert, when, &status, r, sizeof r))
    return say (why, why_len, "at signing time: ", r),
           gpg_error (GPG_ERR_KEY_EXPIRED);
  if (!pl_pubkey_can_sign (&key->key))
    return say (why, why_len, "", "not a signing algorithm"),
           gpg_error (GPG_ERR_WRONG_KEY_USAGE);
  if (key == &cert->primary)
    {
      const pl_sig *self = primary_self_sig (cert, when);
      if (self && self->has_key_flags
          && !(self->key_flags & PL_KEY_FLAG_SIGN))
        return say (why, why_len, "", "the primary key is not for signing"),
               gpg_error (GPG_ERR_WRONG_KEY_USAGE);
      return 0;
    }
  t.subkey = &key->key;
  if (newest_valid (cert, &key->sigs, revs, 1, pk, &t, now))
    return say (why, why_len, "", "subkey revoked"),
           gpg_error (GPG_ERR_CERT_REVOKED);
  b = newest_valid (cert, &key->sigs, bind, 1, pk, &t, when);
  if (!b)
    return say (why, why_len, "", "no valid binding signature at signing "
                "time"), gpg_error (GPG_ERR_KEY_EXPIRED);
  flags = b->has_key_flags ? b->key_flags : 0;
  if (!(flags & PL_KEY_FLAG_SIGN))
    return say (why, why_len, "", "subkey not for signing"),
           gpg_error (GPG_ERR_WRONG_KEY_USAGE);
  if (!back_signed (cert, key, b, when))
    return say (why, why_len, "", "no valid back-signature"),
           gpg_error (GPG_ERR_WRONG_KEY_USAGE);
  if (b->key_expires && (uint64_t) key->key.created + b->key_expires <= when)
    {
      format_expiry (r, sizeof r, (uint64_t) key->key.created
                                  + b->key_expires);
      return say (why, why_len, "subkey at signing time: ", r),
             gpg_error (GPG_ERR_KEY_EXPIRED);
    }
  return 0;
}

const pl_cert_key *
pl_cert_find_key (const pl_cert *cert, const uint8_t *fpr, size_t fpr_len,
                  const uint8_t *keyid)
{
  for (size_t i = 0; i <= cert->n_subkeys; i++)
    {
      const pl_cert_key *k = i ? &cert->subkeys[i - 1] : &cert->primary;
      if (fpr_len ? (k->key.fpr_len == fpr_len
                     && !memcmp (k->key.fpr, fpr, fpr_len))
                  : (keyid && !memcmp (k->key.keyid, keyid, 8)))
        return k;
    }
  return NULL;
}
