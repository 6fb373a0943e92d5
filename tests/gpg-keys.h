/* gpg-keys.h - keys made by the real gpg in the tests' GnuPG home
 * (tu_gnupg_home), for the public-key tests */
#pragma once

#include <glib.h>

typedef struct
{
  const char *name;             /* also the user ID's local part */
  const char *primary_algo;     /* as --quick-gen-key spells it */
  const char *sub_algo;         /* the encryption subkey's */
  const char *passphrase;       /* NULL: unprotected */
  char *fpr;                    /* hex, upper case, as gpg lists it */
  char *sub_fpr;
} tk_gpg_key;

/* Makes KEY once: a primary that signs and certifies, then an encryption
 * subkey, both protected with KEY->passphrase when it is set. */
tk_gpg_key *tk_ensure_key (tk_gpg_key *key);

/* The fingerprints gpg lists for WHAT (a user ID or fingerprint):
 * primary first (g_strfreev). */
char **tk_gpg_fingerprints (const char *what);

/* gpg --export [--armor] WHAT. */
GBytes *tk_gpg_export (const char *what, int armor);

/* gpg --export-secret-keys WHAT, with KEY's passphrase (may be NULL). */
GBytes *tk_gpg_export_secret (const char *what, const char *passphrase);

/* RSA-3072, Ed25519 + cv25519, NIST P-256, P-384, P-521,
 * brainpoolP256r1 and brainpoolP512r1, each a primary and an encryption subkey of the same
 * algorithm (cv25519's primary is Ed25519), unprotected; made on first
 * use by tk_ensure_key, once per test process. */
#define TK_N_KEYS 7
extern tk_gpg_key tk_keys[TK_N_KEYS];
