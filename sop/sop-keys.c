/* sop-keys.c - padlock-sop's CERTS and KEYS: files of certificates */
#include "sop-keys.h"
#include "sop-io.h"

#include "algo.h"
#include "armor.h"
#include "text.h"
#include "errors.h"
#include "io.h"
#include "keygen.h"
#include "passphrase.h"

#include <errno.h>
#include <stdarg.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <gcrypt.h>

int
sop_keyring_add_file (sop_keyring *ring, const char *path, int secret)
{
  unsigned char *data = NULL;
  size_t len = 0, n = 0, kept = 0;
  pl_cert **certs = NULL, **all;
  int code;
  gpg_error_t err;

  code = sop_read_file (path, &data, &len);
  if (code)
    return code;
  err = pl_certs_read (data, len, &certs, &n);
  pl_wipe (data, len);
  free (data);
  if (!err && secret)
    for (size_t i = 0; i < n; i++)
      kept += certs[i]->primary.secret != NULL;
  if (err || (secret && !kept))
    {
      sop_say_path (path, "holds no %s: %s",
                    secret ? "secret key" : "certificate",
               err ? pl_error_message (err) : "only public keys");
      pl_certs_free (certs, n);
      return SOP_BAD_DATA;
    }
  all = realloc (ring->certs, (ring->n + n) * sizeof *all);
  if (!all)
    {
      pl_certs_free (certs, n);
      return 1;
    }
  memcpy (all + ring->n, certs, n * sizeof *certs);
  ring->certs = all;
  ring->n += n;
  free (certs);
  return SOP_OK;
}

size_t
sop_keyring_keys (const sop_keyring *ring, pl_key_kind kind, pl_key *keys,
                  size_t max)
{
  size_t n = 0;

  for (size_t i = 0; i < ring->n && n < max; i++)
    {
      pl_key k = { kind, ring->certs[i], 0, 0 };
      keys[n++] = k;
    }
  return n;
}

void
sop_keyring_clear (sop_keyring *ring)
{
  pl_certs_free (ring->certs, ring->n);
  ring->certs = NULL;
  ring->n = 0;
}

void
sop_list_generate_profiles (void)
{
  printf ("default: (default) a v4 Ed25519 key with a Curve25519 encryption "
          "subkey, as gpg 2.2 and sqop read\n");
  printf ("rfc9580: a v6 Ed25519 key with an X25519 encryption subkey "
          "(RFC 9580)\n");
}

int
sop_cmd_generate_key (int argc, char **argv)
{
  const char *uids[64], *pw_spec = NULL;
  size_t n_uids = 0, pw_len = 0, len = 0;
  int binary = 0, code = SOP_OK;
  pl_keygen_profile profile = PL_KEYGEN_DEFAULT;
  char *pw = NULL;
  uint8_t *key = NULL;
  gpg_error_t err;

  for (int i = 0; i < argc; i++)
    {
      if (!strcmp (argv[i], "--no-armor"))
        binary = 1;
      else if (!strncmp (argv[i], "--with-key-password=", 20))
        pw_spec = argv[i] + 20;
      else if (!strcmp (argv[i], "--profile=default"))
        profile = PL_KEYGEN_DEFAULT;
      else if (!strcmp (argv[i], "--profile=rfc9580"))
        profile = PL_KEYGEN_RFC9580;
      else if (!strncmp (argv[i], "--profile=", 10))
        {
          fprintf (stderr, "padlock-sop: unknown profile %s\n", argv[i] + 10);
          return SOP_UNSUPPORTED_PROFILE;
        }
      else if (!strcmp (argv[i], "--signing-only"))
        {
          fprintf (stderr, "padlock-sop: --signing-only is not supported\n");
          return SOP_UNSUPPORTED_OPTION;
        }
      else if (argv[i][0] == '-' && argv[i][1] == '-')
        {
          fprintf (stderr, "padlock-sop: unsupported option %s\n", argv[i]);
          return SOP_UNSUPPORTED_OPTION;
        }
      else if (n_uids < sizeof uids / sizeof uids[0])
        uids[n_uids++] = argv[i];
    }
  if (!n_uids)
    {
      fprintf (stderr, "padlock-sop: generate-key needs a USERID\n");
      return SOP_MISSING_ARG;
    }
  if (pw_spec)
    {
      code = sop_read_indirect (pw_spec, &pw, &pw_len);
      if (code)
        return code;
      /* The one passphrase rule (SOP's: no trailing white space). */
      pw_len = pl_passphrase_length (pw, pw_len, PL_PASSPHRASE_SOP);
    }
  err = pl_keygen (profile, uids, n_uids, pw, pw_len, (uint32_t) time (NULL),
                   &key, &len);
  if (err)
    code = 1, fprintf (stderr, "padlock-sop: generate-key failed: %s\n",
                       pl_error_message (err));
  else
    code = sop_write_output (key, len, PL_ARMOR_PRIVATE_KEY, binary);
  if (key)
    {
      pl_wipe (key, len);
      gcry_free (key);
    }
  sop_free_secret (pw);
  return code;
}

int
sop_cmd_extract_cert (int argc, char **argv)
{
  unsigned char *data = NULL;
  size_t len = 0, n = 0;
  pl_cert **certs = NULL;
  uint8_t *all = NULL;
  size_t all_len = 0;
  int binary = 0, code;
  gpg_error_t err;

  for (int i = 0; i < argc; i++)
    if (!strcmp (argv[i], "--no-armor"))
      binary = 1;
    else
      {
        fprintf (stderr, "padlock-sop: unsupported option %s\n", argv[i]);
        return SOP_UNSUPPORTED_OPTION;
      }
  code = sop_read_stdin (&data, &len);
  if (code)
    return code;
  err = pl_certs_read (data, len, &certs, &n);
  pl_wipe (data, len);
  free (data);
  for (size_t i = 0; i < n && !err; i++)
    {
      uint8_t *one;
      size_t one_len;
      err = pl_cert_public_packets (certs[i], &one, &one_len);
      if (!err)
        {
          uint8_t *p = realloc (all, all_len + one_len + 1);
          if (p)
            {
              all = p;
              memcpy (all + all_len, one, one_len);
              all_len += one_len;
            }
          else
            err = gpg_error (GPG_ERR_ENOMEM);
          free (one);
        }
    }
  pl_certs_free (certs, n);
  if (err)
    {
      fprintf (stderr, "padlock-sop: extract-cert: %s\n",
               pl_error_message (err));
      free (all);
      return SOP_BAD_DATA;
    }
  code = sop_write_output (all, all_len, PL_ARMOR_PUBLIC_KEY, binary);
  free (all);
  return code;
}
