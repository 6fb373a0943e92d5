/* sop-sigs.h - padlock-sop's signatures: verify, sign and their inline
 * forms, and what decrypt and encrypt need of them
 *
 * Verdicts come from core/verify.h, signatures from core/sign.h; this
 * file turns them into SOP's VERIFICATIONS lines and exit codes
 * (3 NO_SIGNATURE, 79 KEY_CANNOT_SIGN, 67 KEY_IS_PROTECTED).
 */
#pragma once

#include <stddef.h>
#include <stdio.h>

#include "seckey.h"
#include "sop-keys.h"
#include "verify.h"

#define SOP_MAX_SIGNERS 8

/* The VERIFICATIONS lines of the GOOD verdicts in V into F ("DATE
 * SIGNING_FPR PRIMARY_FPR mode:binary|text signed by USERID"); every
 * other verdict as a diagnostic on stderr.  Returns how many lines. */
size_t sop_print_verifications (FILE *f, const pl_verifications *v);

/* The same into a new file PATH: a SOP exit code. */
int sop_write_verifications (const char *path, const pl_verifications *v);

/* After a job with certificates to verify with: the verdicts V written
 * to OUT_PATH (NULL: the good ones on stderr with the rest); FAILED
 * when the job found no valid one (NO_SIGNATURE, nothing written).  A
 * SOP exit code. */
int sop_report_verifications (const pl_verifications *v, const char *out_path,
                              int failed);

/* Signing keys: from KEYS files, unlocked with the key passwords. */
typedef struct
{
  sop_keyring ring;
  pl_seckey keys[SOP_MAX_SIGNERS];
  const pl_seckey *ptrs[SOP_MAX_SIGNERS];
  size_t n;
  char *passwords[SOP_MAX_SIGNERS];
  size_t n_passwords;
} sop_signers;

/* Adds the key password SPEC (a file, @ENV:, @FD:): a SOP exit code. */
int sop_signers_add_password (sop_signers *s, const char *spec);

/* Reads the secret keys of the file PATH and unlocks each certificate's
 * signing key (the newest valid signing subkey, else the primary): a SOP
 * exit code (KEY_CANNOT_SIGN, KEY_IS_PROTECTED, BAD_DATA, ...). */
int sop_signers_add_file (sop_signers *s, const char *path);

/* encrypt's --sign-with=KEYS and --with-key-password=PASSWORD, kept for
 * sop_signers_load. */
typedef struct
{
  const char *files[SOP_MAX_SIGNERS];
  size_t n_files;
  const char *pw[SOP_MAX_SIGNERS];
  size_t n_pw;
} sop_sign_options;

/* When ARGV[*I] is one of those options: SOP_OK - 1 (-1) when taken
 * (*I past its value), or the SOP exit code of a refusal (too many);
 * else SOP_OK (0). */
int sop_sign_option (sop_sign_options *o, int argc, char **argv, int *i);

/* The N_PW key passwords PW_SPECS, then the N_FILES KEYS files FILES. */
int sop_signers_load (sop_signers *s, const char *const *pw_specs,
                      size_t n_pw, const char *const *files, size_t n_files);

void sop_signers_clear (sop_signers *s);

/* The subcommands; argv without the subcommand; a SOP exit code. */
int sop_cmd_verify (int argc, char **argv);
int sop_cmd_inline_verify (int argc, char **argv);
int sop_cmd_sign (int argc, char **argv);
int sop_cmd_inline_sign (int argc, char **argv);
int sop_cmd_inline_detach (int argc, char **argv);
