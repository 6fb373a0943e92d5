/* keys.c - from the job's keys to session keys, and back */
#include "keys.h"
#include "algo.h"
#include "aead.h"
#include "batch.h"
#include "derive.h"
#include "errors.h"
#include "recipients.h"
#include "s2k.h"
#include "skesk.h"

#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <gcrypt.h>

/* Key packets kept per message: more is a denial of service (each costs
 * an S2K per passphrase), not a use. */
#define MAX_SKESK 16

static atomic_size_t derivations;

size_t
pl_keys_derivations (void)
{
  return atomic_load (&derivations);
}

/* Encryption's S2K keys are derived here, cancellable (s2k.h), each
 * counted.  Decryption's go through the message's derivation context
 * (derive.h: budget, cache, cancel) in message_s2k_key, and through the
 * batch first when there is one (batch.h). */
static gpg_error_t
derive_s2k_key (const pl_job_control *ctl, const pl_s2k *s2k,
                const void *passphrase, size_t passphrase_len,
                uint32_t argon2_cap_kib, uint8_t *out, size_t outlen)
{
  pl_s2k_control s2k_ctl = { ctl ? ctl->cancel : NULL,
                             pl_job_threads (ctl) };
  gpg_error_t err = pl_job_check_cancel (ctl);

  if (err)
    return err;
  atomic_fetch_add (&derivations, 1);
  return pl_s2k_derive_controlled (s2k, passphrase, passphrase_len, out,
                                   outlen, argon2_cap_kib, &s2k_ctl);
}

/* What a batch's derivation needs to run derive_s2k_key (encryption). */
typedef struct
{
  const pl_job_control *ctl;
  const pl_encrypt_options *o;  /* encryption: the profile's specifier */
  const void *passphrase;
  size_t passphrase_len;
} batch_derivation;

static const atomic_int *
cancel_flag (const pl_job_control *ctl)
{
  return ctl ? ctl->cancel : NULL;
}

/* Tells the caller that key derivation starts (1) or ends (0). */
static void
tell_deriving (const pl_job_control *ctl, int deriving)
{
  if (ctl && ctl->deriving)
    ctl->deriving (ctl->user_data, deriving);
}

/* ---- Encryption ---------------------------------------------------- */

/* The SKESK fields that the profile decides, but the S2K: version,
 * cipher, AEAD mode. */
static void
skesk_for_profile (const pl_encrypt_options *o, pl_skesk *sk)
{
  memset (sk, 0, sizeof *sk);
  sk->cipher_algo = o->cipher_algo;
  if (o->profile == PL_PROFILE_RFC9580)
    sk->version = 6;
  else
    sk->version = o->profile == PL_PROFILE_LIBREPGP ? 5 : 4;
  sk->aead_algo = sk->version == 4 ? 0 : PL_AEAD_OCB;
}

/* A fresh S2K specifier for the profile of O.  An iterated one is made
 * once per message (TEMPLATE: a test's calibration runs once), then each
 * packet gets a fresh salt. */
static gpg_error_t
s2k_for_profile (const pl_encrypt_options *o, pl_s2k *template,
                 int *calibrated, pl_s2k *s2k)
{
  gpg_error_t err;

  if (o->profile == PL_PROFILE_RFC9580)
    {
      pl_s2k_new_argon2 (s2k, o->argon2_passes ? o->argon2_passes : 3,
                         o->argon2_parallelism ? o->argon2_parallelism : 4,
                         o->argon2_memory_exp ? o->argon2_memory_exp : 16);
      return 0;
    }
  if (!*calibrated)
    {
      /* 0: the steady count, 65011712 (issue 13 item 3). */
      err = pl_s2k_new_iterated (template, PL_HASH_SHA256, o->s2k_ms);
      if (err)
        return err;
      *calibrated = 1;
      *s2k = *template;
      return 0;
    }
  *s2k = *template;
  gcry_randomize (s2k->salt, 8, GCRY_STRONG_RANDOM);
  return 0;
}

/* The batch's derivation when encrypting: a fresh specifier, derived. */
static gpg_error_t
make_batch_key (void *arg, pl_derived_key *key)
{
  const batch_derivation *d = arg;
  pl_s2k template;
  int calibrated = 0;
  gpg_error_t err = s2k_for_profile (d->o, &template, &calibrated, &key->s2k);

  if (!err)
    err = derive_s2k_key (d->ctl, &key->s2k, d->passphrase,
                          d->passphrase_len, 0, key->key, key->len);
  pl_wipe (&template, sizeof template);
  return err;
}

gpg_error_t
pl_keys_derive (const pl_encrypt_options *o, const char *pw, size_t pw_len,
                const pl_job_control *ctl, pl_derived_key *out)
{
  batch_derivation d = { ctl, o, pw, pw_len };
  gpg_error_t err;

  memset (out, 0, sizeof *out);
  out->len = pl_cipher_key_length (o->cipher_algo);
  if (!out->len || out->len > sizeof out->key)
    return gpg_error (GPG_ERR_CIPHER_ALGO);
  err = make_batch_key (&d, out);
  if (err)
    pl_wipe (out, sizeof *out);
  return err;
}

/* The batch's key for the passphrase KEY: every job of the batch that
 * asks with the same profile and parameters shares one specifier. */
static gpg_error_t
batch_lock_key (const pl_encrypt_options *o, const pl_job_control *ctl,
                const pl_key *key, size_t s2k_len, pl_derived_key *derived)
{
  struct
  {
    int profile, cipher_algo, passes, parallelism, memory_exp;
    unsigned int s2k_ms;
  } request;
  batch_derivation d = { ctl, o, key->data, key->len };

  memset (&request, 0, sizeof request);
  request.profile = o->profile;
  request.cipher_algo = o->cipher_algo;
  request.passes = o->argon2_passes;
  request.parallelism = o->argon2_parallelism;
  request.memory_exp = o->argon2_memory_exp;
  request.s2k_ms = o->s2k_ms;
  return pl_batch_lock_key (o->batch, &request, sizeof request, key->data,
                            key->len, s2k_len, cancel_flag (ctl),
                            make_batch_key, &d, derived);
}

/* Whether the files of a batch may share SK's S2K key.  SKESK v4 wraps
 * the session key in CFB with a zero IV: under one key the first block
 * of keystream repeats, so two files' wrapped keys XOR to the XOR of
 * their keys' first 15 octets.  With a 32-octet key 17 octets (136 bits)
 * stay unrelated; a shorter one would be left with 1 to 9, so it gets a
 * derivation of its own.  v5 and v6 wrap with AEAD under a random nonce. */
static int
batch_may_share (const pl_skesk *sk, size_t s2k_len)
{
  return sk->version != 4 || s2k_len >= 32;
}

/* One SKESK for KEY: a passphrase (through the batch when there is one)
 * or a derived key.  With S2K_IS_KEY (v4, the only key, no batch) the
 * S2K output becomes SESSION_KEY; otherwise it wraps it. */
static gpg_error_t
lock_with_key (const pl_encrypt_options *o, const pl_job_control *ctl,
               const pl_key *key, pl_s2k *template, int *calibrated,
               int s2k_is_key, uint8_t *session_key, size_t keylen,
               pl_packet_emit_fn emit, void *arg)
{
  pl_skesk sk;
  uint8_t packet[6 + PL_SKESK_BODY_MAX];
  pl_derived_key *s2k = gcry_calloc_secure (1, sizeof *s2k);
  size_t len, hl;
  gpg_error_t err = 0;

  if (!s2k)
    return gpg_error (GPG_ERR_ENOMEM);
  skesk_for_profile (o, &sk);
  s2k->len = pl_skesk_s2k_length (&sk);
  if (key->kind == PL_KEY_DERIVED)
    *s2k = *(const pl_derived_key *) key->data;
  else
    {
      tell_deriving (ctl, 1);
      if (o->batch && batch_may_share (&sk, s2k->len))
        err = batch_lock_key (o, ctl, key, s2k->len, s2k);
      else
        {
          err = s2k_for_profile (o, template, calibrated, &s2k->s2k);
          if (!err)
            err = derive_s2k_key (ctl, &s2k->s2k, key->data, key->len, 0,
                                  s2k->key, s2k->len);
        }
      tell_deriving (ctl, 0);
    }
  if (err)
    goto leave;
  sk.s2k = s2k->s2k;
  if (s2k_is_key)
    {
      memcpy (session_key, s2k->key, keylen);
      err = pl_skesk_encrypt (&sk, NULL, NULL, 0);
    }
  else
    err = pl_skesk_encrypt (&sk, s2k->key, session_key, keylen);
  if (err)
    goto leave;
  len = pl_skesk_write (&sk, packet + 6);
  hl = pl_packet_write_header (packet, PL_PKT_SKESK, len);
  memmove (packet + hl, packet + 6, len);
  err = emit (arg, packet, hl + len);

 leave:
  pl_wipe (&sk, sizeof sk);
  pl_wipe (s2k, sizeof *s2k);
  gcry_free (s2k);
  return err;
}

/* 1 when KEY can lock a message for the cipher of O. */
static int
key_locks (const pl_encrypt_options *o, const pl_key *key)
{
  const pl_derived_key *derived = key->data;

  if (!key->data)
    return 0;
  if (key->kind == PL_KEY_PASSPHRASE || key->kind == PL_KEY_CERT)
    return 1;
  return key->kind == PL_KEY_DERIVED && key->len == sizeof *derived
         && derived->len == pl_cipher_key_length (o->cipher_algo);
}

gpg_error_t
pl_keys_lock (const pl_encrypt_options *o, const pl_job_control *ctl,
              uint8_t *session_key, size_t keylen, pl_packet_emit_fn emit,
              void *arg)
{
  pl_s2k template;
  int calibrated = 0, s2k_is_key;
  uint32_t now = (uint32_t) time (NULL);
  pl_profile readable;
  gpg_error_t err = 0;

  if (!o->n_keys || !o->keys)
    return gpg_error (GPG_ERR_NO_KEY);
  for (size_t i = 0; i < o->n_keys; i++)
    if (!key_locks (o, &o->keys[i]))
      return gpg_error (GPG_ERR_INV_ARG);
  /* Every certificate can take a PKESK and read the profile, before
   * anything is emitted. */
  err = pl_recipients_check (o->keys, o->n_keys, now, NULL, 0);
  if (!err)
    err = pl_recipients_profile (o->keys, o->n_keys, (int) o->profile, now,
                                 &readable, NULL, 0);
  if (err)
    return err;
  /* As gpg -c: one passphrase, SKESK v4, and the S2K output is the
   * session key.  More passphrases need a key each can wrap, and so do
   * the files of a batch, which share their S2K output. */
  s2k_is_key = o->profile == PL_PROFILE_RFC4880 && o->n_keys == 1
               && o->keys[0].kind == PL_KEY_PASSPHRASE && !o->batch;
  if (!s2k_is_key)
    gcry_randomize (session_key, keylen, GCRY_STRONG_RANDOM);
  /* PKESKs first, as gpg writes them: gpg reads the key packets in order
   * and asks for a passphrase at an SKESK even when it holds the key. */
  for (size_t i = 0; i < o->n_keys && !err; i++)
    if (o->keys[i].kind == PL_KEY_CERT)
      err = pl_recipient_lock (o, o->keys[i].data, now, session_key, keylen,
                               emit, arg);
  for (size_t i = 0; i < o->n_keys && !err; i++)
    if (o->keys[i].kind != PL_KEY_CERT)
      err = lock_with_key (o, ctl, &o->keys[i], &template, &calibrated,
                           s2k_is_key, session_key, keylen, emit, arg);
  pl_wipe (&template, sizeof template);
  return err;
}

/* ---- Decryption ---------------------------------------------------- */

struct pl_key_candidates
{
  const pl_decrypt_options *o;
  const pl_job_control *ctl;
  pl_skesk skesk[MAX_SKESK];
  size_t n_dropped;             /* SKESKs past MAX_SKESK: never tried */
  pl_derive derive;             /* every S2K key of the message */
  int planned;
  size_t n_skesk;
  int n_pkesk;
  pl_pkesk_list *pkesks;        /* the PKESKs, tried first (recipients.h) */
  uint8_t *s2k_key;             /* secure: PL_SESSION_KEY_MAX each */
  uint8_t *session_key;         /* the candidate handed out */
  /* The iterator: session keys first, then SKESK x passphrase x
   * (as given, trimmed). */
  size_t next_session;
  size_t next_skesk;
  size_t next_key;
  int next_trimmed;
  int session_tried;
  gpg_error_t last;             /* why candidates failed, the hardest kept */
};

gpg_error_t
pl_key_candidates_new (pl_key_candidates **out, const pl_decrypt_options *o,
                       const pl_job_control *ctl)
{
  pl_key_candidates *c = calloc (1, sizeof *c);

  *out = c;
  if (c)
    {
      c->o = o;
      c->ctl = ctl;
      pl_derive_init (&c->derive, ctl ? ctl->cancel : NULL,
                      pl_job_threads (ctl), o->argon2_cap_kib);
      c->s2k_key = gcry_malloc_secure (2 * PL_SESSION_KEY_MAX);
      c->session_key = c->s2k_key + PL_SESSION_KEY_MAX;
      if (pl_pkesk_list_new (&c->pkesks, o->keys, o->n_keys,
                             ctl ? ctl->cancel : NULL, o->argon2_cap_kib))
        c->pkesks = NULL;
    }
  if (c && c->s2k_key && c->pkesks)
    return 0;
  if (c)
    gcry_free (c->s2k_key);
  free (c);
  *out = NULL;
  return gpg_error (GPG_ERR_ENOMEM);
}

void
pl_key_candidates_free (pl_key_candidates *c)
{
  if (!c)
    return;
  pl_derive_clear (&c->derive);
  pl_pkesk_list_free (c->pkesks);
  if (c->s2k_key)
    pl_wipe (c->s2k_key, 2 * PL_SESSION_KEY_MAX);
  gcry_free (c->s2k_key);
  pl_wipe (c, sizeof *c);
  free (c);
}

int
pl_key_packet_tag (int tag)
{
  return tag == PL_PKT_SKESK || tag == PL_PKT_PKESK;
}

gpg_error_t
pl_key_candidates_add_packet (pl_key_candidates *c, pl_packet_body *body)
{
  uint8_t buf[PL_SKESK_BODY_MAX * 4];
  size_t len;
  gpg_error_t err;

  if (body->tag == PL_PKT_PKESK)
    {
      uint8_t *pk = malloc (PL_PKESK_BODY_MAX);
      c->n_pkesk++;
      err = pk ? pl_packet_read_all (body, pk, PL_PKESK_BODY_MAX, &len)
               : gpg_error (GPG_ERR_ENOMEM);
      if (!err)
        err = pl_pkesk_list_add (c->pkesks, pk, len);
      free (pk);
      return err;
    }
  err = pl_packet_read_all (body, buf, sizeof buf, &len);
  if (!err && c->n_skesk == MAX_SKESK)
    c->n_dropped++;
  if (err || c->n_skesk == MAX_SKESK)
    return err;
  err = pl_skesk_parse (&c->skesk[c->n_skesk], buf, len);
  pl_wipe (buf, sizeof buf);
  if (!err)
    c->n_skesk++;
  else if (gpg_err_code (err) == GPG_ERR_UNKNOWN_VERSION
           || gpg_err_code (err) == GPG_ERR_UNSUPPORTED_ALGORITHM
           || gpg_err_code (err) == GPG_ERR_DIGEST_ALGO
           || gpg_err_code (err) == GPG_ERR_CIPHER_ALGO)
    err = 0;  /* another key packet may still open it */
  return err;
}

/* Trailing whitespace (space, tab, CR, LF) is trimmed as SOP asks. */
static size_t
trimmed_length (const char *s, size_t n)
{
  while (n && strchr (" \t\r\n", s[n - 1]))
    n--;
  return n;
}

/* 1 when DERIVED was derived with SK's specifier, for its key length. */
static int
derived_opens (const pl_derived_key *derived, const pl_skesk *sk)
{
  uint8_t a[20], b[20];
  size_t n = pl_s2k_write (&derived->s2k, a);

  return derived->len == pl_skesk_s2k_length (sk)
         && pl_s2k_write (&sk->s2k, b) == n && !memcmp (a, b, n);
}

/* The next key to try on SK: a derived key made with its specifier
 * (*DERIVED), or a passphrase and how much of it, each as given, then
 * trimmed when that differs.  0 when the keys are through for SK. */
static int
next_secret (pl_key_candidates *c, const pl_skesk *sk, const char **pw,
             size_t *len, const pl_derived_key **derived)
{
  *derived = NULL;
  while (c->next_key < c->o->n_keys)
    {
      const pl_key *k = &c->o->keys[c->next_key];

      if (k->kind == PL_KEY_DERIVED && k->data && k->len == sizeof **derived
          && derived_opens (k->data, sk))
        {
          c->next_key++;
          *derived = k->data;
          return 1;
        }
      if (k->kind != PL_KEY_PASSPHRASE || !k->data)
        {
          c->next_key++;
          continue;
        }
      *pw = k->data;
      *len = k->len;
      if (!c->next_trimmed)
        {
          c->next_trimmed = 1;
          return 1;
        }
      c->next_trimmed = 0;
      c->next_key++;
      *len = trimmed_length (*pw, k->len);
      if (*len != k->len)
        return 1;
    }
  return 0;
}

/* SK's S2K output for the passphrase PW from the message's derivation
 * context (derive.h), counted when it ran an S2K. */
static gpg_error_t
message_s2k_key (pl_key_candidates *c, const pl_skesk *sk, const char *pw,
                 size_t len, const uint8_t **s2k_key)
{
  size_t s2k_len = pl_skesk_s2k_length (sk);
  size_t before = c->derive.derivations;
  gpg_error_t err;

  if (!s2k_len)
    return gpg_error (GPG_ERR_CIPHER_ALGO);
  err = pl_derive_key (&c->derive, &sk->s2k, s2k_len, pw, len, s2k_key);
  atomic_fetch_add (&derivations, c->derive.derivations - before);
  return err;
}

/* What the batch's derivation needs when decrypting. */
typedef struct
{
  pl_key_candidates *c;
  const pl_skesk *sk;
  const char *pw;
  size_t len;
} batch_opening;

/* The batch's derivation when decrypting: through the message's
 * context, so that its budget and cancel hold. */
static gpg_error_t
derive_batch_key (void *arg, pl_derived_key *key)
{
  const batch_opening *o = arg;
  const uint8_t *s2k_key;
  gpg_error_t err = message_s2k_key (o->c, o->sk, o->pw, o->len, &s2k_key);

  if (!err)
    memcpy (key->key, s2k_key, key->len);
  return err;
}

/* SK's S2K output for the passphrase PW: from the batch when there is
 * one (which derives it through the message's context the first time),
 * copied into the list's own secure memory, else from the message's
 * context.  *S2K_KEY is valid until the next call or the list is freed. */
static gpg_error_t
s2k_key_for (pl_key_candidates *c, const pl_skesk *sk, const char *pw,
             size_t len, const uint8_t **s2k_key)
{
  size_t s2k_len = pl_skesk_s2k_length (sk);
  batch_opening o = { c, sk, pw, len };
  gpg_error_t err;

  if (!c->o->batch || !s2k_len)
    return message_s2k_key (c, sk, pw, len, s2k_key);
  err = pl_batch_open_key (c->o->batch, &sk->s2k, s2k_len, pw, len,
                           cancel_flag (c->ctl), derive_batch_key, &o,
                           c->s2k_key);
  *s2k_key = err ? NULL : c->s2k_key;
  return err;
}

static int
next_session_key (pl_key_candidates *c, uint8_t *key, size_t *keylen,
                  int *cipher_algo)
{
  while (c->next_session < c->o->n_keys)
    {
      const pl_key *k = &c->o->keys[c->next_session++];

      if (k->kind != PL_KEY_SESSION)
        continue;
      c->session_tried = 1;
      if (!k->data || !k->len || k->len > PL_SESSION_KEY_MAX)
        {
          c->last = gpg_error (GPG_ERR_BAD_KEY);
          continue;
        }
      memcpy (key, k->data, k->len);
      *keylen = k->len;
      *cipher_algo = k->cipher_algo;
      return 1;
    }
  return 0;
}

/* Charges the derivation budget (derive.h) for every SKESK with every
 * passphrase as given and trimmed, before the first derivation, so that a
 * message over budget is refused before any work. */
static gpg_error_t
plan_derivations (pl_key_candidates *c)
{
  gpg_error_t err = 0;

  for (size_t s = 0; s < c->n_skesk && !err; s++)
    {
      const pl_skesk *sk = &c->skesk[s];
      size_t keylen = pl_skesk_s2k_length (sk);

      for (size_t i = 0; i < c->o->n_keys && keylen && !err; i++)
        {
          const pl_key *k = &c->o->keys[i];
          size_t trimmed;

          if (k->kind != PL_KEY_PASSPHRASE || !k->data)
            continue;
          trimmed = trimmed_length (k->data, k->len);
          err = pl_derive_plan (&c->derive, &sk->s2k, keylen, k->data,
                                k->len);
          if (!err && trimmed != k->len)
            err = pl_derive_plan (&c->derive, &sk->s2k, keylen, k->data,
                                  trimmed);
        }
    }
  return err;
}

gpg_error_t
pl_key_candidates_next (pl_key_candidates *c, const uint8_t **key,
                        size_t *keylen, int *cipher_algo)
{
  gpg_error_t pk_err;

  *key = c->session_key;
  if (next_session_key (c, c->session_key, keylen, cipher_algo))
    return 0;
  /* Public-key recipients before any S2K runs. */
  pk_err = pl_pkesk_list_next (c->pkesks, c->session_key, keylen, cipher_algo);
  if (gpg_err_code (pk_err) != GPG_ERR_EOF)
    return pk_err;
  if (!c->planned)
    {
      gpg_error_t err = plan_derivations (c);
      if (err)
        return err;
      c->planned = 1;
    }
  for (; c->next_skesk < c->n_skesk; c->next_skesk++, c->next_key = 0)
    {
      const pl_skesk *sk = &c->skesk[c->next_skesk];
      const pl_derived_key *derived;
      const char *pw = NULL;
      size_t len = 0;

      while (next_secret (c, sk, &pw, &len, &derived))
        {
          const uint8_t *s2k_key = NULL;
          gpg_error_t err = 0;

          if (derived)
            s2k_key = derived->key;
          else
            {
              tell_deriving (c->ctl, 1);
              err = s2k_key_for (c, sk, pw, len, &s2k_key);
              tell_deriving (c->ctl, 0);
            }
          if (gpg_err_code (err) == GPG_ERR_CANCELED
              || gpg_err_code (err) == GPG_ERR_TOO_LARGE)
            return err;
          if (!err)
            err = pl_skesk_decrypt (sk, s2k_key, c->session_key, keylen,
                                    cipher_algo);
          if (!err)
            return 0;
          if (gpg_err_code (err) != GPG_ERR_BAD_PASSPHRASE || !c->last)
            c->last = err;
        }
    }
  return gpg_error (GPG_ERR_EOF);
}

void
pl_key_candidates_reject (pl_key_candidates *c, gpg_error_t why)
{
  c->last = why;
}

/* 1 when the options give a passphrase for SKESKs. */
static int
has_passphrase (const pl_decrypt_options *o)
{
  for (size_t i = 0; i < o->n_keys; i++)
    if (o->keys[i].kind == PL_KEY_PASSPHRASE
        || o->keys[i].kind == PL_KEY_DERIVED)
      return 1;
  return 0;
}

void
pl_key_candidates_recipients (const pl_key_candidates *c, char *out,
                              size_t out_len)
{
  pl_pkesk_list_recipients (c->pkesks, out, out_len);
}

gpg_error_t
pl_key_candidates_failure (const pl_key_candidates *c)
{
  if (c->last && (gpg_err_code (c->last) != GPG_ERR_BAD_PASSPHRASE
                  || c->session_tried))
    return c->last;
  if (c->n_pkesk && (!c->n_skesk || !has_passphrase (c->o)))
    return pl_pkesk_list_failure (c->pkesks);
  if (c->n_dropped)
    return gpg_error (PL_ERR_TOO_MANY_KEYS);
  if (!c->n_skesk)
    return gpg_error (GPG_ERR_NO_DATA);
  return gpg_error (GPG_ERR_BAD_PASSPHRASE);
}
