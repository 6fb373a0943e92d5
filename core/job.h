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

typedef enum
{
  PL_PROFILE_RFC4880 = 0,       /* SEIPD v1, AES-256: every tool reads it */
  PL_PROFILE_LIBREPGP,          /* tag 20 OCB + SKESK v5 */
  PL_PROFILE_RFC9580            /* SEIPD v2 OCB + SKESK v6 + Argon2 */
} pl_profile;

typedef struct
{
  const char *name;
  const char *description;      /* one line in plain words */
} pl_profile_info;

/* The profiles, default first; *COUNT receives how many. */
const pl_profile_info *pl_profiles (size_t *count);
/* -1 when NAME is no profile; "default" names the default. */
int pl_profile_from_name (const char *name);

/* Bytes done so far and the total, or -1 when the total is unknown. */
typedef void (*pl_progress_fn) (void *user_data, uint64_t done, int64_t total);

typedef struct
{
  pl_progress_fn progress;      /* may be NULL; called from the job's threads
                                 * (the caller's or its read-ahead thread) */
  void *user_data;
  atomic_int *cancel;           /* may be NULL; non-zero stops the job */
  int threads;                  /* thread budget; 0 = all cores */
} pl_job_control;

typedef struct
{
  pl_profile profile;
  int cipher_algo;              /* 0: AES-256 */
  int armor;
  int compress_algo;            /* 0: none (the default) */
  int compress_level;           /* 0: 6 */
  int literal_format;           /* 'b' (default), 't' or 'u' */
  const char *file_name;        /* stored in the literal packet; may be NULL */
  uint32_t file_date;
  int chunk_octet;              /* AEAD; -1: default (16) */
  unsigned int s2k_ms;          /* iterated S2K target; 0: 100 ms */
  int argon2_passes;            /* 0: defaults t=3, p=4, m=2^16 KiB */
  int argon2_parallelism;
  int argon2_memory_exp;
} pl_encrypt_options;

void pl_encrypt_options_init (pl_encrypt_options *opts);

typedef struct
{
  const char *const *passphrases; /* tried in order; each as given, then
                                   * with trailing whitespace trimmed */
  size_t n_passphrases;
  const uint8_t *session_key;   /* instead of passphrases; may be NULL */
  size_t session_key_len;
  int session_key_algo;         /* cipher id that goes with it */
  uint32_t argon2_cap_kib;      /* 0: PL_S2K_ARGON2_DEFAULT_CAP_KIB */
} pl_decrypt_options;

typedef enum
{
  PL_DATA_SEIPD1 = 1,
  PL_DATA_SEIPD2,
  PL_DATA_OCB
} pl_data_kind;

typedef struct
{
  pl_literal_header literal;    /* name, date and format of the content */
  pl_data_kind data_kind;
  int cipher_algo;
  int aead_algo;
  int compress_algo;            /* 0 when not compressed */
  int armored;
  int signed_inside;            /* one-pass signature or signature seen;
                                 * never verified (no keys here) */
  /* When not NULL (caller's secure memory, PL_SESSION_KEY_MAX octets), the
   * session key is copied here. */
  uint8_t *session_key_out;
  size_t session_key_len;
} pl_decrypt_result;

/* The number of cores online: the default thread budget. */
int pl_default_threads (void);

/* For the jobs' stages (job.c), each NULL-safe in CTL: the thread budget
 * (CTL's, else pl_default_threads ()); GPG_ERR_CANCELED once the cancel
 * flag is set, else 0; and one progress report. */
int pl_job_threads (const pl_job_control *ctl);
gpg_error_t pl_job_check_cancel (const pl_job_control *ctl);
void pl_job_progress (const pl_job_control *ctl, uint64_t done,
                      int64_t total);

/* 1 when PROFILE is one of pl_profile's values. */
int pl_profile_valid (int profile);

/* Sets up libgcrypt (version check, secure memory).  Call once, early. */
gpg_error_t pl_init (void);

gpg_error_t pl_encrypt (pl_source *src, pl_sink *sink,
                        const pl_encrypt_options *opts,
                        const char *passphrase, size_t passphrase_len,
                        const pl_job_control *ctl);

gpg_error_t pl_decrypt (pl_source *src, pl_sink *sink,
                        const pl_decrypt_options *opts,
                        pl_decrypt_result *result,
                        const pl_job_control *ctl);

/* The size of the blocks a job reads and writes. */
#define PL_BLOCK_SIZE (1u << 20)
