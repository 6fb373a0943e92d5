/* keys.c - from the job's openers to session keys, and back */
#include "keys.h"
#include "algo.h"
#include "aead.h"
#include "derive.h"
#include "errors.h"
#include "keycache.h"
#include "passphrase.h"
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

/* From the S2K: a wait for memory starts (1) or ends (0), while the job
 * derives. */
static void
on_memory_wait (void *arg, int waiting)
{
  pl_job_deriving (arg, waiting ? PL_DERIVING_WAITING_FOR_MEMORY
                              : PL_DERIVING);
}

static pl_s2k_control
s2k_control (const pl_job_control *ctl)
{
  pl_s2k_control s2k_ctl = { ctl ? ctl->cancel : NULL, pl_job_threads (ctl),
                             on_memory_wait, (void *) ctl };
  return s2k_ctl;
}

size_t
pl_keys_derivations (void)
{
  return atomic_load (&derivations);
}

/* Encryption's S2K keys are derived here, cancellable (s2k.h), each
 * counted.  Decryption's go through the message's derivation context
 * (derive.h: budget, cache, cancel) in s2k_key_for. */
static gpg_error_t
derive_s2k_key (const pl_job_control *ctl, const pl_s2k *s2k,
                const void *passphrase, size_t passphrase_len,
                uint32_t argon2_cap_kib, uint8_t *out, size_t outlen)
{
  pl_s2k_control s2k_ctl = s2k_control (ctl);
  gpg_error_t err = pl_job_check_cancel (ctl);

  if (err)
    return err;
  atomic_fetch_add (&derivations, 1);
  return pl_s2k_derive_controlled (s2k, passphrase, passphrase_len, out,
                                   outlen, argon2_cap_kib, &s2k_ctl);
}

/* What a cache's derivation needs to run derive_s2k_key (encryption). */
typedef struct
{
  const pl_job_control *ctl;
  const pl_encrypt_options *o;  /* encryption: the profile's specifier */
  const void *passphrase;
  size_t passphrase_len;
} lock_derivation;

static const atomic_int *
cancel_flag (const pl_job_control *ctl)
{
  return ctl ? ctl->cancel : NULL;
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

/* The cache's derivation when encrypting: a fresh specifier, derived. */
static gpg_error_t
make_lock_key (void *arg, pl_derived_key *key)
{
  const lock_derivation *d = arg;
  pl_s2k template;
  int calibrated = 0;
  gpg_error_t err = s2k_for_profile (d->o, &template, &calibrated, &key->s2k);

  if (!err)
    err = derive_s2k_key (d->ctl, &key->s2k, d->passphrase,
                          d->passphrase_len, 0, key->key, key->len);
  pl_wipe (&template, sizeof template);
  return err;
}

/* The cache's key for the passphrase PW: every job sharing the cache
 * that asks with the same profile and parameters shares one specifier. */
static gpg_error_t
cache_lock_key (const pl_encrypt_options *o, const pl_job_control *ctl,
                const char *pw, size_t pw_len, size_t s2k_len,
                pl_derived_key *derived)
{
  struct
  {
    int profile, cipher_algo, passes, parallelism, memory_exp;
    unsigned int s2k_ms;
  } request;
  lock_derivation d = { ctl, o, pw, pw_len };

  memset (&request, 0, sizeof request);
  request.profile = o->profile;
  request.cipher_algo = o->cipher_algo;
  request.passes = o->argon2_passes;
  request.parallelism = o->argon2_parallelism;
  request.memory_exp = o->argon2_memory_exp;
  request.s2k_ms = o->s2k_ms;
  return pl_keycache_lock_key (o->keycache, &request, sizeof request, pw,
                               pw_len, s2k_len, cancel_flag (ctl),
                               make_lock_key, &d, derived);
}

/* Whether the files sharing a cache may share SK's S2K key.  SKESK v4 wraps
 * the session key in CFB with a zero IV: under one key the first block
 * of keystream repeats, so two files' wrapped keys XOR to the XOR of
 * their keys' first 15 octets.  With a 32-octet key 17 octets (136 bits)
 * stay unrelated; a shorter one would be left with 1 to 9, so it gets a
 * derivation of its own.  v5 and v6 wrap with AEAD under a random nonce. */
static int
keycache_may_share (const pl_skesk *sk, size_t s2k_len)
{
  return sk->version != 4 || s2k_len >= 32;
}

/* One SKESK for the passphrase KEY (its rule's form, passphrase.h),
 * through the cache when there is one.  With S2K_IS_KEY (v4, the only
 * key, no cache) the S2K output becomes SESSION_KEY; otherwise it wraps
 * it. */
static gpg_error_t
lock_with_key (const pl_encrypt_options *o, const pl_job_control *ctl,
               const pl_opener *key, pl_s2k *template, int *calibrated,
               int s2k_is_key, uint8_t *session_key, size_t keylen,
               pl_packet_emit_fn emit, void *arg)
{
  pl_skesk sk;
  uint8_t packet[6 + PL_SKESK_BODY_MAX];
  pl_derived_key *s2k = gcry_calloc_secure (1, sizeof *s2k);
  size_t len, hl;
  size_t pw_len = pl_passphrase_length (key->data, key->len, key->rule);
  gpg_error_t err = 0;

  if (!s2k)
    return gpg_error (GPG_ERR_ENOMEM);
  skesk_for_profile (o, &sk);
  s2k->len = pl_skesk_s2k_length (&sk);
  pl_job_deriving (ctl, PL_DERIVING);
  if (o->keycache && keycache_may_share (&sk, s2k->len))
    err = cache_lock_key (o, ctl, key->data, pw_len, s2k->len, s2k);
  else
    {
      err = s2k_for_profile (o, template, calibrated, &s2k->s2k);
      if (!err)
        err = derive_s2k_key (ctl, &s2k->s2k, key->data, pw_len, 0,
                              s2k->key, s2k->len);
    }
  pl_job_deriving (ctl, 0);
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

/* 1 when KEY can lock a message. */
static int
key_locks (const pl_opener *key)
{
  return key->data && (key->kind == PL_OPENER_PASSPHRASE
                       || key->kind == PL_OPENER_CERT);
}

int
pl_openers_wait (const pl_opener *o, size_t n)
{
  for (size_t i = 0; o && i < n; i++)
    if (o[i].kind == PL_OPENER_PASSPHRASE
        || o[i].kind == PL_OPENER_KEY_PASSPHRASE
        || o[i].kind == PL_OPENER_HELD_KEYS)
      return 1;
  return 0;
}

/* As gpg -c: one passphrase, SKESK v4, and the S2K output is the
 * session key.  More passphrases need a key each can wrap, and so do the
 * files sharing a cache, which share their S2K output. */
static int
s2k_is_session_key (const pl_encrypt_options *o)
{
  return o->profile == PL_PROFILE_RFC4880 && o->n_openers == 1
         && o->openers[0].kind == PL_OPENER_PASSPHRASE && !o->keycache;
}

int
pl_keys_lock_defers (const pl_encrypt_options *o)
{
  int passphrase = 0;

  for (size_t i = 0; o->openers && i < o->n_openers; i++)
    passphrase |= o->openers[i].kind == PL_OPENER_PASSPHRASE;
  return passphrase && !s2k_is_session_key (o);
}

/* The exact length of one SKESK packet (header and body) that
 * lock_with_key makes for O: the same code makes a throwaway one, since
 * the length depends on the version, the specifier's type, the nonce and
 * the key, never on the passphrase or the salt. */
static gpg_error_t
skesk_packet_length (const pl_encrypt_options *o, size_t keylen, size_t *len)
{
  static const uint8_t zero[PL_SESSION_KEY_MAX];
  pl_encrypt_options steady = *o;
  pl_skesk sk;
  pl_s2k template;
  int calibrated = 0;
  uint8_t body[PL_SKESK_BODY_MAX], hdr[6];
  size_t n;
  gpg_error_t err;

  /* The profile's specifier, uncalibrated: a calibration would change
   * only the count, and costs its time. */
  steady.s2k_ms = 0;
  skesk_for_profile (o, &sk);
  err = s2k_for_profile (&steady, &template, &calibrated, &sk.s2k);
  if (!err)
    err = pl_skesk_encrypt (&sk, zero, zero, keylen);
  if (err)
    return err;
  n = pl_skesk_write (&sk, body);
  *len = pl_packet_write_header (hdr, PL_PKT_SKESK, n) + n;
  return 0;
}

/* One SKESK per passphrase of O, in order (lock_with_key). */
static gpg_error_t
lock_passphrases (const pl_encrypt_options *o, const pl_job_control *ctl,
                  int s2k_is_key, uint8_t *session_key, size_t keylen,
                  pl_packet_emit_fn emit, void *arg)
{
  pl_s2k template;
  int calibrated = 0;
  gpg_error_t err = 0;

  for (size_t i = 0; i < o->n_openers && !err; i++)
    if (o->openers[i].kind != PL_OPENER_CERT)
      err = lock_with_key (o, ctl, &o->openers[i], &template, &calibrated,
                           s2k_is_key, session_key, keylen, emit, arg);
  pl_wipe (&template, sizeof template);
  return err;
}

gpg_error_t
pl_keys_lock_begin (const pl_encrypt_options *o, const pl_job_control *ctl,
                    uint8_t *session_key, size_t keylen, int defer,
                    pl_packet_emit_fn emit, void *arg, size_t *deferred)
{
  int s2k_is_key;
  uint32_t now = (uint32_t) time (NULL);
  pl_profile readable;
  gpg_error_t err = 0;

  *deferred = 0;
  if (!o->n_openers || !o->openers)
    return gpg_error (GPG_ERR_NO_KEY);
  for (size_t i = 0; i < o->n_openers; i++)
    if (!key_locks (&o->openers[i]))
      return gpg_error (GPG_ERR_INV_ARG);
  /* Every certificate can take a PKESK and read the profile, before
   * anything is emitted. */
  err = pl_recipients_check (o->openers, o->n_openers, now, NULL, 0);
  if (!err)
    err = pl_recipients_profile (o->openers, o->n_openers, (int) o->profile,
                                 now, &readable, NULL, 0);
  if (err)
    return err;
  s2k_is_key = s2k_is_session_key (o);
  if (!s2k_is_key)
    gcry_randomize (session_key, keylen, GCRY_STRONG_RANDOM);
  /* PKESKs first, as gpg writes them: gpg reads the key packets in order
   * and asks for a passphrase at an SKESK even when it holds the key. */
  for (size_t i = 0; i < o->n_openers && !err; i++)
    if (o->openers[i].kind == PL_OPENER_CERT)
      err = pl_recipient_lock (o, o->openers[i].data, now, session_key, keylen,
                               emit, arg);
  if (!err && defer && !s2k_is_key)
    {
      size_t one = 0;

      for (size_t i = 0; i < o->n_openers && !err; i++)
        if (o->openers[i].kind != PL_OPENER_CERT)
          {
            if (!one)
              err = skesk_packet_length (o, keylen, &one);
            *deferred += one;
          }
      return err;
    }
  return err ? err : lock_passphrases (o, ctl, s2k_is_key, session_key,
                                       keylen, emit, arg);
}

gpg_error_t
pl_keys_lock_passphrases (const pl_encrypt_options *o,
                          const pl_job_control *ctl,
                          const uint8_t *session_key, size_t keylen,
                          pl_packet_emit_fn emit, void *arg)
{
  /* Not S2K-is-key: SESSION_KEY is only read. */
  return lock_passphrases (o, ctl, 0, (uint8_t *) session_key, keylen, emit,
                           arg);
}

gpg_error_t
pl_keys_lock (const pl_encrypt_options *o, const pl_job_control *ctl,
              uint8_t *session_key, size_t keylen, pl_packet_emit_fn emit,
              void *arg)
{
  size_t deferred;

  return pl_keys_lock_begin (o, ctl, session_key, keylen, 0, emit, arg,
                             &deferred);
}

/* ---- Decryption ---------------------------------------------------- */

struct pl_key_candidates
{
  const pl_decrypt_options *o;
  const pl_job_control *ctl;
  pl_skesk skesk[MAX_SKESK];
  size_t n_dropped;             /* SKESKs past MAX_SKESK: never tried */
  pl_derive derive;             /* every S2K key of the message */
  size_t n_skesk;
  int n_pkesk;
  pl_pkesk_list *pkesks;        /* the PKESKs, tried first (recipients.h) */
  uint8_t *s2k_key;             /* secure: PL_SESSION_KEY_MAX each */
  uint8_t *session_key;         /* the candidate handed out */
  /* The iterator: session keys first, then SKESK x passphrase x form
   * (passphrase.h). */
  size_t next_session;
  size_t next_skesk;
  size_t next_key;
  size_t next_form;
  int session_tried;
  int from_pkesk;               /* the last candidate came from a PKESK */
  size_t misaligned;            /* key packets of another version than
                                 * the data packet takes: dropped */
  gpg_error_t last;             /* why candidates failed, the hardest kept */
};

gpg_error_t
pl_key_candidates_new (pl_key_candidates **out, const pl_decrypt_options *o,
                       const pl_job_control *ctl)
{
  pl_key_candidates *c = calloc (1, sizeof *c);
  pl_s2k_control s2k_ctl = s2k_control (ctl);
  gpg_error_t err = gpg_error (GPG_ERR_ENOMEM);

  *out = NULL;
  if (!c)
    return err;
  c->o = o;
  c->ctl = ctl;
  c->s2k_key = gcry_malloc_secure (2 * PL_SESSION_KEY_MAX);
  c->session_key = c->s2k_key + PL_SESSION_KEY_MAX;
  if (c->s2k_key)
    err = pl_derive_init (&c->derive, o->keycache, &s2k_ctl,
                          o->argon2_cap_kib);
  if (!err && pl_pkesk_list_new (&c->pkesks, o->openers, o->n_openers,
                                 ctl ? ctl->cancel : NULL, o->argon2_cap_kib))
    err = gpg_error (GPG_ERR_ENOMEM);
  if (err)
    {
      pl_key_candidates_free (c);
      return err;
    }
  *out = c;
  return 0;
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

/* The next passphrase to try on the current SKESK: a key's text and
 * the length of its next form (passphrase.h).  0 when the keys are
 * through for it. */
static int
next_passphrase (pl_key_candidates *c, const char **pw, size_t *len)
{
  for (; c->next_key < c->o->n_openers; c->next_key++, c->next_form = 0)
    {
      const pl_opener *k = &c->o->openers[c->next_key];
      size_t forms[PL_PASSPHRASE_FORMS];
      size_t n;

      if (k->kind != PL_OPENER_PASSPHRASE || !k->data)
        continue;
      n = pl_passphrase_forms (k->data, k->len, k->rule, forms);
      if (c->next_form < n)
        {
          *pw = k->data;
          *len = forms[c->next_form++];
          return 1;
        }
    }
  return 0;
}

/* SK's S2K output for the passphrase PW, from the message's derivation
 * context (derive.h: the options' cache or the message's own), into the
 * list's secure memory; counted when it ran an S2K. */
static gpg_error_t
s2k_key_for (pl_key_candidates *c, const pl_skesk *sk, const char *pw,
             size_t len)
{
  size_t s2k_len = pl_skesk_s2k_length (sk);
  size_t before = c->derive.derivations;
  gpg_error_t err;

  if (!s2k_len)
    return gpg_error (GPG_ERR_CIPHER_ALGO);
  pl_job_deriving (c->ctl, PL_DERIVING);
  err = pl_derive_key (&c->derive, &sk->s2k, s2k_len, pw, len, c->s2k_key);
  pl_job_deriving (c->ctl, 0);
  atomic_fetch_add (&derivations, c->derive.derivations - before);
  return err;
}

static int
next_session_key (pl_key_candidates *c, uint8_t *key, size_t *keylen,
                  int *cipher_algo)
{
  while (c->next_session < c->o->n_openers)
    {
      const pl_opener *k = &c->o->openers[c->next_session++];

      if (k->kind != PL_OPENER_SESSION_KEY)
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

gpg_error_t
pl_key_candidates_next (pl_key_candidates *c, const uint8_t **key,
                        size_t *keylen, int *cipher_algo)
{
  gpg_error_t pk_err;

  *key = c->session_key;
  c->from_pkesk = 0;
  if (next_session_key (c, c->session_key, keylen, cipher_algo))
    return 0;
  /* Public-key recipients before any S2K runs. */
  pk_err = pl_pkesk_list_next (c->pkesks, c->session_key, keylen, cipher_algo);
  c->from_pkesk = !pk_err;
  if (gpg_err_code (pk_err) != GPG_ERR_EOF)
    return pk_err;
  for (; c->next_skesk < c->n_skesk;
       c->next_skesk++, c->next_key = 0, c->next_form = 0)
    {
      const pl_skesk *sk = &c->skesk[c->next_skesk];
      const char *pw = NULL;
      size_t len = 0;

      while (next_passphrase (c, &pw, &len))
        {
          gpg_error_t err = s2k_key_for (c, sk, pw, len);

          /* Past the budget, a passphrase's other forms are skipped and
           * the verdict stays what the forms that ran said (a wrong
           * passphrase on a 2 GiB Argon2 message is a wrong passphrase);
           * a passphrase as given that cannot run is the refusal. */
          if (gpg_err_code (err) == GPG_ERR_TOO_LARGE && c->next_form > 1)
            continue;
          if (gpg_err_code (err) == GPG_ERR_CANCELED
              || gpg_err_code (err) == GPG_ERR_TOO_LARGE)
            return err;
          if (!err)
            err = pl_skesk_decrypt (sk, c->s2k_key, c->session_key, keylen,
                                    cipher_algo);
          if (!err)
            return 0;
          if (gpg_err_code (err) != GPG_ERR_BAD_PASSPHRASE || !c->last)
            c->last = err;
        }
    }
  return gpg_error (GPG_ERR_EOF);
}

/* RFC 9580 §10.3.2.1 (Table 26): the key packets' versions each data
 * packet takes; LibrePGP's OCB packet (tag 20) takes v3 PKESKs and v5
 * SKESKs, the only ones GnuPG and OpenPGP.js 5 write before it.  A v3
 * PKESK or v4 SKESK names a cipher that a v2 SEIPD names again; a v6 one
 * names none for SEIPD v1; a v5 SKESK wraps its key for the OCB packet. */
static const struct
{
  pl_data_kind data;
  int pkesk, skesk;
} aligned[] = {
  { PL_DATA_SEIPD1, 3, 4 },
  { PL_DATA_OCB_ENCRYPTED, 3, 5 },
  { PL_DATA_SEIPD2, 6, 6 },
};

void
pl_key_candidates_for_data (pl_key_candidates *c, pl_data_kind data)
{
  size_t row = 0, kept = 0;

  while (row + 1 < sizeof aligned / sizeof aligned[0]
         && aligned[row].data != data)
    row++;
  c->misaligned = pl_pkesk_list_align (c->pkesks, aligned[row].pkesk);
  for (size_t i = 0; i < c->n_skesk; i++)
    if (c->skesk[i].version == aligned[row].skesk)
      c->skesk[kept++] = c->skesk[i];
  c->misaligned += c->n_skesk - kept;
  c->n_skesk = kept;
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
  for (size_t i = 0; i < o->n_openers; i++)
    if (o->openers[i].kind == PL_OPENER_PASSPHRASE)
      return 1;
  return 0;
}

void
pl_key_candidates_warning (const pl_key_candidates *c, char *out,
                           size_t out_len)
{
  if (c->from_pkesk)
    pl_pkesk_list_warning (c->pkesks, out, out_len);
  else if (out_len)
    out[0] = 0;
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
  if (c->misaligned && !c->session_tried)
    return gpg_error (PL_ERR_KEY_PACKET_VERSION);
  if (c->n_pkesk && (!c->n_skesk || !has_passphrase (c->o)))
    return pl_pkesk_list_failure (c->pkesks);
  if (c->n_dropped)
    return gpg_error (PL_ERR_TOO_MANY_KEYS);
  if (!c->n_skesk)
    return gpg_error (GPG_ERR_NO_DATA);
  return gpg_error (GPG_ERR_BAD_PASSPHRASE);
}
