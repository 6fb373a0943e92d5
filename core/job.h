/* job.h - the engine's two jobs: encrypt and decrypt one message
 *
 * A job reads a source, writes a sink, reports progress through a
 * callback, stops when the cancel flag is set, and either commits the sink
 * (success) or aborts it (any failure).  Results are gpg_error_t; errors.h
 * sorts them into the outcomes a user must tell apart.
 */
#pragma once

#include <stdatomic.h>
#include <stddef.h>
#include <stdint.h>
#include <gpg-error.h>

#include "io.h"
#include "literal.h"
#include "seckey.h"
#include "verify.h"

typedef enum
{
  PL_PROFILE_RFC4880 = 0,       /* SEIPD v1, AES-256: every tool reads it */
  PL_PROFILE_LIBREPGP,          /* tag 20 OCB + SKESK v5 */
  PL_PROFILE_RFC9580            /* SEIPD v2 OCB + SKESK v6 + Argon2 */
} pl_profile;

/* A profile in words, each marked with PL_N_ (errors.h) for the app to
 * translate: the one table of what each profile is called and who reads
 * it (padlock-sop list-profiles, the window's rows and preferences). */
typedef struct
{
  const char *name;             /* "rfc4880": --profile, SOP */
  const char *title;            /* the standard's name: "OpenPGP (RFC 4880)" */
  const char *format;           /* what it writes: "SEIPD v1 with AES-256" */
  const char *readers;          /* who opens it: "opens in GnuPG, …" */
} pl_profile_info;

/* The profiles, default first; *COUNT receives how many. */
const pl_profile_info *pl_profiles (size_t *count);
/* -1 when NAME is no profile; "default" names the default. */
int pl_profile_from_name (const char *name);

/* Bytes done so far and the total, or -1 when the total is unknown. */
typedef void (*pl_progress_fn) (void *user_data, uint64_t done, int64_t total);

/* PL_DERIVING when the job starts deriving a key from a passphrase (or
 * waiting for another job of its derived-key cache to), 0 when that is
 * over: the time between is not data time.  An encryption that derives
 * beside its data (keyroom.h) tells only the time it waits for the key
 * once the data is done, if any.  In between,
 * PL_DERIVING_WAITING_FOR_MEMORY while the derivation waits for the
 * process's key-derivation memory (kdf-memory.h), and PL_DERIVING again
 * when it has it. */
enum
{
  PL_DERIVING = 1,
  PL_DERIVING_WAITING_FOR_MEMORY = 2
};
typedef void (*pl_deriving_fn) (void *user_data, int deriving);

typedef struct
{
  pl_progress_fn progress;      /* may be NULL; called from the job's threads
                                 * (the caller's or its read-ahead thread) */
  void *user_data;
  atomic_int *cancel;           /* may be NULL; non-zero stops the job */
  int threads;                  /* thread budget; 0 = all cores */
  pl_deriving_fn deriving;      /* may be NULL; from the job's thread, with
                                 * USER_DATA: 1, (2, 1)..., 0 */
} pl_job_control;

/* An opener: what locks a message (encryption) or may open it
 * (decryption), a passphrase, a key or a certificate; one word for them
 * all, since the jobs treat them as one list.  The job reads it, never
 * keeps it; DATA may be secure memory. */
typedef enum
{
  PL_OPENER_PASSPHRASE = 1,     /* DATA, LEN: the passphrase's source, as
                                 * read; RULE: how (passphrase.h) */
  PL_OPENER_SESSION_KEY,        /* DATA, LEN: a session key for
                                 * CIPHER_ALGO (decryption only) */
  PL_OPENER_CERT,               /* DATA: a pl_cert (cert.h) to encrypt to:
                                 * a PKESK for its encryption key
                                 * (encryption only) */
  PL_OPENER_SECRET_KEYS,        /* DATA: a pl_cert with secret keys
                                 * (cert.h) (decryption only) */
  PL_OPENER_KEY_PASSPHRASE,     /* DATA, LEN: a passphrase that unlocks
                                 * the PL_OPENER_SECRET_KEYS keys, never
                                 * tried on an SKESK (decryption only) */
  PL_OPENER_HELD_KEYS           /* DATA: a pl_key_holder (recipients.h):
                                 * secret keys held elsewhere (decryption
                                 * only) */
} pl_opener_kind;

/* A derived-key cache (keycache.h), which the jobs of one drop or
 * `padlock --batch` run share; NULL: none. */
typedef struct pl_keycache pl_keycache;

typedef struct
{
  pl_opener_kind kind;
  const void *data;
  size_t len;
  int cipher_algo;              /* PL_OPENER_SESSION_KEY: the OpenPGP
                                 * cipher id */
  int rule;                     /* PL_OPENER_PASSPHRASE: a pl_passphrase_rule */
} pl_opener;

/* A passphrase as typed: every octet counts (PL_PASSPHRASE_TYPED). */
static inline pl_opener
pl_opener_passphrase (const char *passphrase, size_t len)
{
  pl_opener o = { PL_OPENER_PASSPHRASE, passphrase, len, 0, 0 };
  return o;
}

/* The TEXT of a passphrase source as read under RULE (passphrase.h):
 * encryption locks with RULE's passphrase, decryption also tries the
 * text's other forms. */
static inline pl_opener
pl_opener_passphrase_source (const char *text, size_t len, int rule)
{
  pl_opener o = { PL_OPENER_PASSPHRASE, text, len, 0, rule };
  return o;
}

static inline pl_opener
pl_opener_session_key (const uint8_t *session_key, size_t len, int cipher_algo)
{
  pl_opener o = { PL_OPENER_SESSION_KEY, session_key, len, cipher_algo, 0 };
  return o;
}

typedef struct
{
  /* What locks the message: one key packet each (passphrases: SKESK,
   * certificates: PKESK).  At least one. */
  const pl_opener *openers;
  size_t n_openers;
  pl_profile profile;
  int cipher_algo;              /* 0: AES-256 */
  int armor;
  int compress_algo;            /* 0: none (the default) */
  int compress_level;           /* 0: 6 */
  int literal_format;           /* 'b' (default), 't' or 'u' */
  const char *file_name;        /* stored in the literal packet; may be NULL */
  uint32_t file_date;
  int chunk_octet;              /* AEAD; -1: default (16) */
  unsigned int s2k_ms;          /* 0: the iterated count 65011712, always;
                                 * tests set a time target to go faster */
  int argon2_passes;            /* 0: defaults t=3, p=4, m=2^16 KiB */
  int argon2_parallelism;
  int argon2_memory_exp;
  /* Not NULL: every passphrase locks with the cache's one S2K specifier,
   * derived once for all its jobs; the session key is random and
   * wrapped in each SKESK, also with the rfc4880 profile (keycache.h). */
  pl_keycache *keycache;
  /* PKESKs name no recipient (key ID 0, no fingerprint), as gpg's
   * --throw-keyids. */
  int anonymous_recipients;
  /* Signing keys, unlocked (seckey.h; they must outlive the job): a
   * one-pass signature packet each before the literal packet and a
   * signature each after it, as gpg -se writes (sign.h); text signatures
   * (0x01) for a 't' or 'u' literal, else binary (0x00). */
  const pl_seckey *const *signers;
  size_t n_signers;
  /* No key packet and no encryption: the signed message only (sop
   * inline-sign); needs signers, takes no keys. */
  int sign_only;
} pl_encrypt_options;

void pl_encrypt_options_init (pl_encrypt_options *opts);

typedef struct
{
  /* The candidates, at least one: session keys first, as given; then
   * each key packet with each passphrase, in each of its forms
   * (passphrase.h), until one opens it (keys.c). */
  const pl_opener *openers;
  size_t n_openers;
  uint32_t argon2_cap_kib;      /* 0: PL_S2K_ARGON2_DEFAULT_CAP_KIB */
  /* When not NULL (caller's secure memory, PL_SESSION_KEY_MAX octets),
   * receives the session key that opened the message; its length goes
   * to the result's session_key_len. */
  uint8_t *session_key_out;

  /* Decompression bombs (compress.h): output may pass 1000 times the
   * compressed input only below this many octets.  0: 1 GiB;
   * PL_INFLATE_NO_LIMIT (UINT64_MAX) lifts the limit. */
  uint64_t expansion_floor;
  /* Not NULL: each (passphrase, S2K specifier) the job derives is looked
   * up in the cache first and kept there (keycache.h); NULL: a cache of
   * the job's own. */
  pl_keycache *keycache;
  /* Signatures (verify.h) are checked against these certificates (which
   * must outlive the job); none: signature packets are skipped, and no
   * data hash runs.  The verdicts go to the result's verifications; they
   * never decide whether an encrypted message's plaintext is written. */
  const pl_cert *const *verify_certs;
  size_t n_verify_certs;
  /* Not NULL: signatures are verified also when no certificate is given,
   * and once the data is read the job asks FIND_CERT (from its thread,
   * with FIND_CERT_DATA) for each issuer that VERIFY_CERTS lack
   * (pl_verifier_lookup): the desktop finds them in the GnuPG keyring. */
  pl_cert_lookup_fn find_cert;
  void *find_cert_data;
  /* A message that is signed, not encrypted (sop inline-verify): no key
   * is needed (N_KEYS may be 0), an encrypted one is GPG_ERR_BAD_DATA,
   * and as the signature is then the only authentication, the sink is
   * committed only when one verdict is GOOD: else the job fails with
   * GPG_ERR_BAD_SIGNATURE (verdicts still in the result). */
  int signed_only;
  /* With signed_only: the sink is committed whatever the verdicts (the
   * desktop: the data written, each verdict shown beside it, as for a
   * cleartext-signed text), as long as the message holds a signature;
   * one that holds none (a literal packet alone) is GPG_ERR_NOT_ENCRYPTED,
   * nothing written. */
  int any_verdict;
  /* With verify_certs: the sink is committed only when one verdict is
   * GOOD, else the job fails with GPG_ERR_BAD_SIGNATURE (sop decrypt
   * --verify-with).  The desktop leaves it 0: the file is written, and
   * the verdict shown beside it. */
  int require_signature;
} pl_decrypt_options;

typedef enum
{
  PL_DATA_SEIPD1 = 1,
  PL_DATA_SEIPD2,
  PL_DATA_OCB_ENCRYPTED
} pl_data_kind;

typedef struct
{
  pl_literal_header literal;    /* name, date and format of the content */
  pl_data_kind data_kind;
  int cipher_algo;
  int aead_algo;
  int compress_algo;            /* 0 when not compressed */
  int armored;
  int signed_inside;            /* one-pass signature or signature seen */
  /* With the options' verify_certs: a verdict per signature, in the
   * order they were announced. */
  pl_verifications verifications;
  size_t session_key_len;       /* in the options' session_key_out */
  /* When no key opened a message with PKESKs: whom they are for,
   * "0x<key ID>, 0x<fingerprint>, anonymous" (recipients.h). */
  char recipients[256];
  /* Not "" when the message opened but the user should hear of a risk:
   * the key that opened it, one's own, is not safe to use any more ("the
   * key that opened it, 0x..., is not safe to use: RSA-1024 is too weak;
   * make a new one": RFC 9580 §12.4, cert.h).  padlock-sop prints it on
   * stderr as a warning; the job succeeds all the same. */
  char key_warning[192];
  /* The signatures' data hash (sighash.h): octets hashed on its thread
   * and on the job's own (for the tests and bench/). */
  uint64_t sig_hashed_on_thread, sig_hashed_on_caller;
  uint64_t sig_hash_handed;     /* octets handed to its thread (some
                                 * may have been taken back) */
  /* SEIPD v1's MDC: octets handed to the worker it shares with the
   * signatures' hash (decrypt.c, share_hashes; two cores). */
  uint64_t mdc_hashed_shared;
} pl_decrypt_result;

/* The number of cores online: the default thread budget. */
int pl_default_threads (void);

/* For the jobs' stages (job.c), each NULL-safe in CTL: the thread budget
 * (CTL's, else pl_default_threads ()); GPG_ERR_CANCELED once the cancel
 * flag is set, else 0; one progress report; one deriving state
 * (PL_DERIVING, PL_DERIVING_WAITING_FOR_MEMORY or 0). */
int pl_job_threads (const pl_job_control *ctl);
gpg_error_t pl_job_check_cancel (const pl_job_control *ctl);
void pl_job_progress (const pl_job_control *ctl, uint64_t done,
                      int64_t total);
void pl_job_deriving (const pl_job_control *ctl, int deriving);

/* 1 when PROFILE is one of pl_profile's values. */
int pl_profile_valid (int profile);

/* Sets up libgcrypt (version check, secure memory).  Call once, early. */
gpg_error_t pl_init (void);

/* Encrypts SRC into SINK for OPTS->openers.  Refusals before any output
 * (the sink is aborted): no opener (GPG_ERR_NO_KEY), a certificate without
 * a valid encryption key (GPG_ERR_UNUSABLE_PUBKEY), a cipher that
 * cannot be used (GPG_ERR_CIPHER_ALGO), an unknown profile, compression,
 * literal format or chunk size, or an opener that locks nothing (a session
 * key) (GPG_ERR_INV_ARG). */
gpg_error_t pl_encrypt (pl_source *src, pl_sink *sink,
                        const pl_encrypt_options *opts,
                        const pl_job_control *ctl);

/* Decrypts SRC into SINK with the first candidate of OPTS->openers that
 * opens it; RESULT may be NULL.  No candidate at all (or OPTS NULL) is
 * GPG_ERR_NO_KEY, before reading. */
gpg_error_t pl_decrypt (pl_source *src, pl_sink *sink,
                        const pl_decrypt_options *opts,
                        pl_decrypt_result *result,
                        const pl_job_control *ctl);

/* The size of the blocks a job reads and writes. */
#define PL_BLOCK_SIZE (1u << 20)
