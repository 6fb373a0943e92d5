/* keys.c - from the job's keys to session keys, and back */
#include "keys.h"
#include "algo.h"
#include "aead.h"
#include "derive.h"
#include "errors.h"
#include "s2k.h"
#include "skesk.h"

#include <stdlib.h>
#include <string.h>
#include <gcrypt.h>

/* Key packets kept per message: more is a denial of service (each costs
 * an S2K per passphrase), not a use. */
#define MAX_SKESK 16

/* Encryption's S2K keys are derived here, cancellable (s2k.h).
 * Decryption's go through the message's derivation context (derive.h:
 * budget, cache, cancel) in pl_key_candidates_next. */
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
  return pl_s2k_derive_controlled (s2k, passphrase, passphrase_len, out,
                                   outlen, argon2_cap_kib, &s2k_ctl);
}

/* ---- Encryption ---------------------------------------------------- */

/* The SKESK fields that the profile decides: version, AEAD mode and S2K.
 * Iterated S2K is calibrated once per message (TEMPLATE), then each
 * packet gets a fresh salt. */
static gpg_error_t
skesk_for_profile (const pl_encrypt_options *o, pl_s2k *template,
                   int *calibrated, pl_skesk *sk)
{
  gpg_error_t err;

  memset (sk, 0, sizeof *sk);
  sk->cipher_algo = o->cipher_algo;
  if (o->profile == PL_PROFILE_RFC9580)
    {
      sk->version = 6;
      sk->aead_algo = PL_AEAD_OCB;
      pl_s2k_new_argon2 (&sk->s2k, o->argon2_passes ? o->argon2_passes : 3,
                         o->argon2_parallelism ? o->argon2_parallelism : 4,
                         o->argon2_memory_exp ? o->argon2_memory_exp : 16);
      return 0;
    }
  sk->version = o->profile == PL_PROFILE_LIBREPGP ? 5 : 4;
  sk->aead_algo = sk->version == 5 ? PL_AEAD_OCB : 0;
  if (!*calibrated)
    {
      err = pl_s2k_new_iterated (template, PL_HASH_SHA256,
                                 o->s2k_ms ? o->s2k_ms : 100);
      if (err)
        return err;
      *calibrated = 1;
      sk->s2k = *template;
      return 0;
    }
  sk->s2k = *template;
  gcry_randomize (sk->s2k.salt, 8, GCRY_STRONG_RANDOM);
  return 0;
}

/* One SKESK for the passphrase KEY.  With S2K_IS_KEY (v4, the only key)
 * the S2K output becomes SESSION_KEY; otherwise it wraps it. */
static gpg_error_t
lock_with_passphrase (const pl_encrypt_options *o, const pl_job_control *ctl,
                      const pl_key *key, pl_s2k *template, int *calibrated,
                      int s2k_is_key, uint8_t *session_key, size_t keylen,
                      pl_packet_emit_fn emit, void *arg)
{
  pl_skesk sk;
  uint8_t packet[6 + PL_SKESK_BODY_MAX];
  uint8_t *s2k_key = gcry_malloc_secure (PL_SESSION_KEY_MAX);
  size_t len, hl;
  gpg_error_t err;

  if (!s2k_key)
    return gpg_error (GPG_ERR_ENOMEM);
  err = skesk_for_profile (o, template, calibrated, &sk);
  if (!err)
    err = derive_s2k_key (ctl, &sk.s2k, key->data, key->len, 0, s2k_key,
                          pl_skesk_s2k_length (&sk));
  if (err)
    goto leave;
  if (s2k_is_key)
    {
      memcpy (session_key, s2k_key, keylen);
      err = pl_skesk_encrypt (&sk, NULL, NULL, 0);
    }
  else
    err = pl_skesk_encrypt (&sk, s2k_key, session_key, keylen);
  if (err)
    goto leave;
  len = pl_skesk_write (&sk, packet + 6);
  hl = pl_packet_write_header (packet, PL_PKT_SKESK, len);
  memmove (packet + hl, packet + 6, len);
  err = emit (arg, packet, hl + len);

 leave:
  pl_wipe (&sk, sizeof sk);
  pl_wipe (s2k_key, PL_SESSION_KEY_MAX);
  gcry_free (s2k_key);
  return err;
}

gpg_error_t
pl_keys_lock (const pl_encrypt_options *o, const pl_job_control *ctl,
              uint8_t *session_key, size_t keylen, pl_packet_emit_fn emit,
              void *arg)
{
  pl_s2k template;
  int calibrated = 0, s2k_is_key;
  gpg_error_t err = 0;

  if (!o->n_keys || !o->keys)
    return gpg_error (GPG_ERR_NO_PASSPHRASE);
  for (size_t i = 0; i < o->n_keys; i++)
    if (o->keys[i].kind != PL_KEY_PASSPHRASE || !o->keys[i].data)
      return gpg_error (GPG_ERR_INV_ARG);
  /* As gpg -c: one passphrase, SKESK v4, and the S2K output is the
   * session key.  More passphrases need a key each can wrap. */
  s2k_is_key = o->profile == PL_PROFILE_RFC4880 && o->n_keys == 1;
  if (!s2k_is_key)
    gcry_randomize (session_key, keylen, GCRY_STRONG_RANDOM);
  for (size_t i = 0; i < o->n_keys && !err; i++)
    err = lock_with_passphrase (o, ctl, &o->keys[i], &template, &calibrated,
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
    }
  if (c && c->s2k_key)
    return 0;
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
      /* No secret keys here: counted, so that the failure can say so. */
      c->n_pkesk++;
      return pl_packet_skip (body);
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

/* The next passphrase to try, and how much of it: each as given, then
 * trimmed when that differs.  0 when the passphrases are through for the
 * current SKESK. */
static int
next_passphrase (pl_key_candidates *c, const char **pw, size_t *len)
{
  while (c->next_key < c->o->n_keys)
    {
      const pl_key *k = &c->o->keys[c->next_key];

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
  *key = c->session_key;
  if (next_session_key (c, c->session_key, keylen, cipher_algo))
    return 0;
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
      const char *pw;
      size_t len;

      while (next_passphrase (c, &pw, &len))
        {
          const uint8_t *s2k_key = NULL;
          size_t s2k_len = pl_skesk_s2k_length (sk);
          gpg_error_t err = s2k_len ? pl_derive_key (&c->derive, &sk->s2k,
                                                     s2k_len, pw, len,
                                                     &s2k_key)
                                    : gpg_error (GPG_ERR_CIPHER_ALGO);
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

gpg_error_t
pl_key_candidates_failure (const pl_key_candidates *c)
{
  if (c->last && (gpg_err_code (c->last) != GPG_ERR_BAD_PASSPHRASE
                  || c->session_tried))
    return c->last;
  if (!c->n_skesk && c->n_pkesk)
    return gpg_error (GPG_ERR_NO_SECKEY);
  if (c->n_dropped)
    return gpg_error (PL_ERR_TOO_MANY_KEYS);
  if (!c->n_skesk)
    return gpg_error (GPG_ERR_NO_DATA);
  return gpg_error (GPG_ERR_BAD_PASSPHRASE);
}
