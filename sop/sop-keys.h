/* sop-keys.h - padlock-sop's CERTS and KEYS: files of certificates
 *
 * encrypt's CERTS and decrypt's KEYS name files (binary or armored, one
 * or more keys each: cert.h reads them).  A sop_keyring holds what they
 * held, for the job's keys.
 */
#pragma once

#include <stddef.h>

#include "armor.h"
#include "cert.h"
#include "job.h"

typedef struct
{
  pl_cert **certs;
  size_t n;
} sop_keyring;

/* Reads the file PATH (or @FD:N) and adds its certificates to RING.
 * Returns a SOP exit code: SOP_MISSING_INPUT when it cannot be read,
 * SOP_BAD_DATA when it holds no certificate (with SECRET, no secret
 * key), else SOP_OK. */
int sop_keyring_add_file (sop_keyring *ring, const char *path, int secret);

/* One key of KIND (PL_KEY_CERT or PL_KEY_SECRET) per certificate of RING
 * into KEYS (at most MAX); returns how many. */
size_t sop_keyring_keys (const sop_keyring *ring, pl_key_kind kind,
                         pl_key *keys, size_t max);

void sop_keyring_clear (sop_keyring *ring);

/* generate-key [--no-armor] [--with-key-password=PASSWORD]
 * [--profile=default|rfc9580] USERID...: a new secret key on standard
 * output (keygen.h).  argv without the subcommand; a SOP exit code. */
int sop_cmd_generate_key (int argc, char **argv);

/* extract-cert [--no-armor]: the certificates of the secret keys on
 * standard input. */
int sop_cmd_extract_cert (int argc, char **argv);

/* The profiles of generate-key, for list-profiles. */
void sop_list_generate_profiles (void);

