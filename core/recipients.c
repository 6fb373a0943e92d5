/* recipients.c - public-key recipients of a message, both directions */
#include "recipients.h"
#include "algo.h"
#include "cert.h"
#include "errors.h"
#include "packet.h"
#include "passphrase.h"
#include "seckey.h"
#include "skesk.h"

#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <gcrypt.h>

/* PKESKs kept per message: each may cost an unlock per secret key. */
#define MAX_PKESK 32

/* The secret-key work one message may make us do, in units of an
 * RSA-1024 decryption: an RSA or ElGamal one grows as the cube of its
 * size (bench/KEYS.md: 10 ms at 3,072 bits, 0.78 s at 16,384), so 4
 * trials of an RSA-16384 key (about 3 s), 32 of RSA-8192, all 32 PKESKs
 * with smaller keys; an elliptic-curve one counts 1 (0.2 ms).  A hostile
 * message of 32 PKESKs for nobody cost 43 s with one's own RSA-16384 key
 * (issue 32 §6, bench/key-cost wildcards); past the budget, a PKESK is
 * not tried and, when nothing opened the message, it says so
 * (PL_ERR_TOO_MANY_KEYS). */
#define PKESK_WORK_MAX (4 * 16 * 16 * 16)

static atomic_size_t trials_made;

size_t
pl_pkesk_trials_made (void)
{
  return atomic_load (&trials_made);
}

/* What one decryption with KEY costs, in PKESK_WORK_MAX's units. */
static size_t
trial_cost (const pl_pubkey *key)
{
  size_t k = (key->bits + 1023) / 1024;

  if (key->algo != PL_PK_RSA && key->algo != PL_PK_RSA_E
      && key->algo != PL_PK_ELGAMAL)
    return 1;
  return k ? k * k * k : 1;
}

/* ---- Encryption ---------------------------------------------------- */

static const pl_cert *
cert_of (const pl_opener *k)
{
  return k->kind == PL_OPENER_CERT && k->data ? k->data : NULL;
}

gpg_error_t
pl_recipients_check (const pl_opener *openers, size_t n_openers,
                     uint32_t now, char *why, size_t why_len)
{
  for (size_t i = 0; i < n_openers; i++)
    {
      const pl_cert *cert = cert_of (&openers[i]);
      const pl_cert_key *enc;
      char fpr[2 * PL_FPR_MAX + 3], reason[192];
      gpg_error_t err;

      if (!cert)
        continue;
      err = pl_cert_encryption_key (cert, now, &enc, reason, sizeof reason);
      pl_fpr_format (cert->primary.key.fpr, cert->primary.key.fpr_len, fpr);
      if (!err && enc->key.algo != PL_PK_RSA && enc->key.algo != PL_PK_RSA_E
          && enc->key.algo != PL_PK_ECDH && enc->key.algo != PL_PK_X25519
          && enc->key.algo != PL_PK_X448)
        {
          snprintf (reason, sizeof reason, "its encryption key's algorithm "
                    "(%d) is not supported", enc->key.algo);
          err = gpg_error (GPG_ERR_PUBKEY_ALGO);
        }
      if (err)
        {
          if (why && why_len)
            snprintf (why, why_len, "%s: %s", fpr, reason);
          return err;
        }
    }
  return 0;
}

/* What CERT's recipient reads: 1 << profile for each. */
static unsigned int
readable_profiles (const pl_cert *cert, uint32_t now)
{
  pl_cert_status st;
  const pl_cert_key *enc;
  unsigned int r = 1u << PL_PROFILE_RFC4880;

  if (pl_cert_check_primary (cert, now, &st, NULL, 0)
      || pl_cert_encryption_key (cert, now, &enc, NULL, 0))
    return r;
  if ((st.features & PL_FEATURE_SEIPD2) || cert->primary.key.version == 6)
    r |= 1u << PL_PROFILE_RFC9580;
  if (st.features & PL_FEATURE_LIBREPGP_AEAD)
    r |= 1u << PL_PROFILE_LIBREPGP;
  return r;
}

gpg_error_t
pl_recipients_profile (const pl_opener *openers, size_t n_openers,
                       int requested, uint32_t now, pl_profile *profile,
                       char *why, size_t why_len)
{
  static const char *names[] = { "rfc4880", "librepgp", "rfc9580" };
  unsigned int all = ~0u;
  int any = 0;

  *profile = requested >= 0 ? (pl_profile) requested : PL_PROFILE_RFC4880;
  for (size_t i = 0; i < n_openers; i++)
    {
      const pl_cert *cert = cert_of (&openers[i]);
      unsigned int r;

      if (!cert)
        continue;
      any = 1;
      r = readable_profiles (cert, now);
      all &= r;
      if (requested >= 0 && !(r & (1u << requested)))
        {
          char fpr[2 * PL_FPR_MAX + 3];
          pl_fpr_format (cert->primary.key.fpr, cert->primary.key.fpr_len,
                         fpr);
          if (why && why_len)
            snprintf (why, why_len, "%s cannot read the %s profile (its "
                      "certificate does not advertise it)", fpr,
                      names[requested]);
          return gpg_error (GPG_ERR_UNSUPPORTED_PROTOCOL);
        }
    }
  if (!any || requested >= 0)
    return 0;
  if (all & (1u << PL_PROFILE_RFC9580))
    *profile = PL_PROFILE_RFC9580;
  else if (all & (1u << PL_PROFILE_LIBREPGP))
    *profile = PL_PROFILE_LIBREPGP;
  else
    *profile = PL_PROFILE_RFC4880;
  return 0;
}

gpg_error_t
pl_recipient_lock (const pl_encrypt_options *o, const pl_cert *cert,
                   uint32_t now, const uint8_t *session_key, size_t keylen,
                   gpg_error_t (*emit) (void *, const uint8_t *, size_t),
                   void *arg)
{
  const pl_cert_key *enc;
  pl_pkesk *p = malloc (sizeof *p);
  uint8_t *packet = malloc (6 + PL_PKESK_BODY_MAX);
  gpg_error_t err = p && packet ? 0 : gpg_error (GPG_ERR_ENOMEM);
  size_t len, hl;

  if (!err)
    err = pl_cert_encryption_key (cert, now, &enc, NULL, 0);
  if (!err)
    err = pl_pkesk_encrypt (p, o->profile == PL_PROFILE_RFC9580 ? 6 : 3,
                            &enc->key, o->anonymous_recipients,
                            o->cipher_algo, session_key, keylen);
  if (!err)
    {
      len = pl_pkesk_write (p, packet + 6);
      hl = pl_packet_write_header (packet, PL_PKT_PKESK, len);
      memmove (packet + hl, packet + 6, len);
      err = emit (arg, packet, hl + len);
    }
  free (p);
  free (packet);
  return err;
}

/* ---- Decryption ---------------------------------------------------- */

struct pl_pkesk_list
{
  const pl_opener *openers;
  size_t n_openers;
  const atomic_int *cancel;
  uint32_t argon2_cap_kib;
  pl_pkesk *pkesk;              /* MAX_PKESK of them */
  size_t n;
  size_t n_seen;                /* also those we do not read */
  char names[256];              /* whom they are for */
  /* The iterator: PKESK x key of the options x key of its certificate. */
  size_t next_p, next_k, next_sub;
  size_t locked;                /* keys a PKESK named that stayed locked */
  gpg_error_t held_err;         /* what a holder answered */
  size_t work;                  /* spent of PKESK_WORK_MAX */
  int over_budget;              /* a trial was left out for it */
  size_t misaligned;            /* dropped: of another version than the
                                 * data packet takes */
  char warning[192];            /* of the key that gave the last candidate */
  int ordered;                  /* the holders' ranks sorted PKESK */
  /* Each secret key is unlocked at most once a message, however many
   * PKESKs name it (a hostile message may hold 32 anonymous ones): one
   * slot per key of each PL_OPENER_SECRET_KEYS certificate, from SLOT_BASE. */
  size_t *slot_base;            /* per key of the options */
  size_t n_slots;
  uint8_t *slot_state;          /* SLOT_UNKNOWN, SLOT_OPEN, SLOT_LOCKED */
  pl_seckey *slot_key;          /* the unlocked ones */
};

enum { SLOT_UNKNOWN = 0, SLOT_OPEN, SLOT_LOCKED };

gpg_error_t
pl_pkesk_list_new (pl_pkesk_list **out, const pl_opener *openers,
                   size_t n_openers, const atomic_int *cancel,
                   uint32_t argon2_cap_kib)
{
  pl_pkesk_list *l = calloc (1, sizeof *l);

  *out = NULL;
  if (!l || !(l->pkesk = calloc (MAX_PKESK, sizeof *l->pkesk)))
    {
      free (l);
      return gpg_error (GPG_ERR_ENOMEM);
    }
  l->openers = openers;
  l->n_openers = n_openers;
  l->cancel = cancel;
  l->argon2_cap_kib = argon2_cap_kib;
  l->slot_base = calloc (n_openers ? n_openers : 1, sizeof *l->slot_base);
  for (size_t i = 0; i < n_openers && l->slot_base; i++)
    {
      l->slot_base[i] = l->n_slots;
      if (openers[i].kind == PL_OPENER_SECRET_KEYS && openers[i].data)
        l->n_slots += 1 + ((const pl_cert *) openers[i].data)->n_subkeys;
    }
  l->slot_state = calloc (l->n_slots + 1, 1);
  l->slot_key = calloc (l->n_slots + 1, sizeof *l->slot_key);
  *out = l;
  if (l->slot_base && l->slot_state && l->slot_key)
    return 0;
  pl_pkesk_list_free (l);
  *out = NULL;
  return gpg_error (GPG_ERR_ENOMEM);
}

void
pl_pkesk_list_free (pl_pkesk_list *l)
{
  if (!l)
    return;
  for (size_t i = 0; i < l->n_slots && l->slot_key; i++)
    pl_seckey_clear (&l->slot_key[i]);
  free (l->slot_key);
  free (l->slot_state);
  free (l->slot_base);
  free (l->pkesk);
  free (l);
}

static void
add_name (pl_pkesk_list *l, const char *name)
{
  size_t used = strlen (l->names);

  if (strstr (l->names, name))
    return;
  if (used + strlen (name) + 3 < sizeof l->names)
    snprintf (l->names + used, sizeof l->names - used, "%s%s",
              used ? ", " : "", name);
}

gpg_error_t
pl_pkesk_list_add (pl_pkesk_list *l, const uint8_t *body, size_t len)
{
  pl_pkesk *p;
  char name[2 * PL_FPR_MAX + 3];
  gpg_error_t err;

  l->n_seen++;
  if (l->n == MAX_PKESK)
    return 0;
  p = &l->pkesk[l->n];
  err = pl_pkesk_parse (p, body, len);
  if (!err || gpg_err_code (err) == GPG_ERR_PUBKEY_ALGO)
    {
      pl_pkesk_recipient (p, name);
      add_name (l, name);
    }
  if (!err)
    l->n++;
  if (gpg_err_code (err) == GPG_ERR_PUBKEY_ALGO
      || gpg_err_code (err) == GPG_ERR_UNKNOWN_VERSION)
    err = 0;
  return err;
}

size_t
pl_pkesk_list_align (pl_pkesk_list *l, int version)
{
  size_t kept = 0;

  for (size_t i = 0; i < l->n; i++)
    if (l->pkesk[i].version == version)
      l->pkesk[kept++] = l->pkesk[i];
  l->misaligned += l->n - kept;
  l->n = kept;
  return l->misaligned;
}

size_t
pl_pkesk_list_count (const pl_pkesk_list *l)
{
  return l->n_seen;
}

void
pl_pkesk_list_recipients (const pl_pkesk_list *l, char *out, size_t out_len)
{
  if (out_len)
    snprintf (out, out_len, "%s", l->names);
}

gpg_error_t
pl_pkesk_list_failure (const pl_pkesk_list *l)
{
  if (l->locked)
    return gpg_error (PL_ERR_KEY_PROTECTED);
  if (l->held_err)
    return l->held_err;
  if (l->over_budget)
    return gpg_error (PL_ERR_TOO_MANY_KEYS);
  return l->n_seen ? gpg_error (GPG_ERR_NO_SECKEY) : 0;
}

/* 1 when KEY may take P: P names it, or names nobody and KEY's
 * algorithm is P's. */
static int
key_fits (const pl_pkesk *p, const pl_cert *cert, const pl_cert_key *key)
{
  if (!key->secret || (!pl_pkesk_names (p, &key->key)
                       && !(pl_pkesk_anonymous (p) && key->key.algo == p->algo)))
    return 0;
  return pl_cert_key_may_decrypt (cert, key, (uint32_t) time (NULL));
}

/* Unlocks KEY: in the clear, or with a key passphrase of the list, in
 * each of its forms (passphrase.h: its rule's first). */
static gpg_error_t
unlock (pl_pkesk_list *l, const pl_cert_key *key, int tag, pl_seckey *sk)
{
  int protection = pl_seckey_protection (key);
  gpg_error_t err = gpg_error (GPG_ERR_NO_SECKEY);

  if (protection < 0)
    return err;
  if (!protection)
    return pl_seckey_unlock (key, tag, NULL, 0, l->argon2_cap_kib, l->cancel,
                             sk);
  for (size_t i = 0; i < l->n_openers; i++)
    {
      const pl_opener *k = &l->openers[i];
      size_t forms[PL_PASSPHRASE_FORMS], n;

      if (k->kind != PL_OPENER_KEY_PASSPHRASE || !k->data)
        continue;
      n = pl_passphrase_forms (k->data, k->len, k->rule, forms);
      for (size_t f = 0; f < n; f++)
        {
          err = pl_seckey_unlock (key, tag, k->data, forms[f],
                                  l->argon2_cap_kib, l->cancel, sk);
          if (gpg_err_code (err) != GPG_ERR_BAD_PASSPHRASE)
            return err;
        }
    }
  l->locked++;
  return gpg_error (GPG_ERR_BAD_PASSPHRASE);
}

/* RFC 9580 §12.4, §12.6: decrypting with an RSA key below 3,072 bits or
 * an ElGamal key SHOULD warn; below 2,048 (PL_KEY_WEAK) such a key is
 * used only for this, so it warns (job.h, pl_decrypt_result.key_warning). */
static void
weak_key_warning (pl_pkesk_list *l, const pl_pubkey *key)
{
  char fpr[2 * PL_FPR_MAX + 3];

  if (key->safety != PL_KEY_WEAK)
    return;
  pl_fpr_format (key->fpr, key->fpr_len, fpr);
  snprintf (l->warning, sizeof l->warning, "the key that opened it, %s, "
            "is not safe to use: %s; make a new one", fpr, key->unsafe_why);
}

void
pl_pkesk_list_warning (const pl_pkesk_list *l, char *out, size_t out_len)
{
  if (out_len)
    snprintf (out, out_len, "%s", l->warning);
}

/* Tries the key at the iterator on PKESK P. */
static gpg_error_t
try_key (pl_pkesk_list *l, const pl_pkesk *p, const pl_opener *k,
         uint8_t *session_key, size_t *keylen, int *cipher_algo)
{
  const pl_cert *cert = k->data;
  const pl_cert_key *key;
  size_t slot;
  gpg_error_t err;

  if (k->kind == PL_OPENER_HELD_KEYS)
    {
      const pl_key_holder *h = k->data;
      err = h->unwrap (h->arg, p, session_key, keylen, cipher_algo);
      if (err && gpg_err_code (err) != GPG_ERR_NO_SECKEY
          && gpg_err_code (err) != GPG_ERR_CANCELED)
        {
          l->held_err = err;
          err = gpg_error (GPG_ERR_NO_SECKEY);
        }
      return err;
    }
  key = l->next_sub ? &cert->subkeys[l->next_sub - 1] : &cert->primary;
  if (!key_fits (p, cert, key))
    return gpg_error (GPG_ERR_NO_SECKEY);
  slot = l->slot_base[l->next_k] + l->next_sub;
  if (l->slot_state[slot] == SLOT_UNKNOWN)
    {
      err = unlock (l, key, l->next_sub ? 7 : 5, &l->slot_key[slot]);
      if (gpg_err_code (err) == GPG_ERR_CANCELED
          || gpg_err_code (err) == GPG_ERR_TOO_LARGE)
        return err;
      l->slot_state[slot] = err ? SLOT_LOCKED : SLOT_OPEN;
    }
  if (l->slot_state[slot] != SLOT_OPEN)
    return gpg_error (GPG_ERR_NO_SECKEY);
  if (l->work + trial_cost (&key->key) > PKESK_WORK_MAX)
    {
      l->over_budget = 1;
      return gpg_error (GPG_ERR_NO_SECKEY);
    }
  l->work += trial_cost (&key->key);
  atomic_fetch_add (&trials_made, 1);
  err = pl_pkesk_decrypt (p, &l->slot_key[slot], session_key, keylen,
                          cipher_algo);
  if (!err)
    weak_key_warning (l, &key->key);
  return err ? gpg_error (GPG_ERR_NO_SECKEY) : 0;
}

/* Moves the iterator on: the next key of the certificate, else the next
 * key of the options, else the next PKESK. */
static void
advance (pl_pkesk_list *l)
{
  const pl_opener *k = &l->openers[l->next_k];

  if (k->kind == PL_OPENER_SECRET_KEYS && k->data
      && l->next_sub < ((const pl_cert *) k->data)->n_subkeys)
    {
      l->next_sub++;
      return;
    }
  l->next_sub = 0;
  if (++l->next_k < l->n_openers)
    return;
  l->next_k = 0;
  l->next_p++;
}

/* The PKESKs in the order the holders' ranks ask for (the lowest rank
 * any holder gives each), stable: a message for two of the user's keys
 * is opened with the one whose passphrase the agent has cached before
 * the other's pinentry is shown.  Once, before the first PKESK. */
static void
order_pkesks (pl_pkesk_list *l)
{
  int rank[MAX_PKESK];
  int any = 0;

  l->ordered = 1;
  if (l->n < 2)
    return;
  for (size_t i = 0; i < l->n; i++)
    {
      rank[i] = INT_MAX;
      for (size_t k = 0; k < l->n_openers; k++)
        {
          const pl_key_holder *h = l->openers[k].data;
          int r;

          if (l->openers[k].kind != PL_OPENER_HELD_KEYS || !h || !h->rank)
            continue;
          r = h->rank (h->arg, &l->pkesk[i]);
          rank[i] = r < rank[i] ? r : rank[i];
          any = 1;
        }
    }
  if (!any)
    return;
  /* Insertion sort: at most MAX_PKESK, and stable. */
  for (size_t i = 1; i < l->n; i++)
    for (size_t j = i; j > 0 && rank[j - 1] > rank[j]; j--)
      {
        pl_pkesk t = l->pkesk[j];
        int r = rank[j];

        l->pkesk[j] = l->pkesk[j - 1];
        l->pkesk[j - 1] = t;
        rank[j] = rank[j - 1];
        rank[j - 1] = r;
      }
}

gpg_error_t
pl_pkesk_list_next (pl_pkesk_list *l, uint8_t *session_key, size_t *keylen,
                    int *cipher_algo)
{
  if (!l->n_openers)
    return gpg_error (GPG_ERR_EOF);
  if (!l->ordered)
    order_pkesks (l);
  l->warning[0] = 0;
  while (l->next_p < l->n)
    {
      const pl_opener *k = &l->openers[l->next_k];
      gpg_error_t err = gpg_error (GPG_ERR_NO_SECKEY);

      if (l->cancel && atomic_load (l->cancel))
        return gpg_error (GPG_ERR_CANCELED);
      if ((k->kind == PL_OPENER_SECRET_KEYS && k->data)
          || (k->kind == PL_OPENER_HELD_KEYS && k->data && !l->next_sub))
        err = try_key (l, &l->pkesk[l->next_p], k, session_key, keylen,
                       cipher_algo);
      advance (l);
      if (!err || gpg_err_code (err) == GPG_ERR_CANCELED
          || gpg_err_code (err) == GPG_ERR_TOO_LARGE)
        return err;
    }
  return gpg_error (GPG_ERR_EOF);
}
