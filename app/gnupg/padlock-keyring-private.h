/* padlock-keyring-private.h - what the keyring's aspect files share
 *
 * For the files that add operations on the keyring (padlock-certify.c,
 * padlock-mykey.c, padlock-remove.c): GPGME contexts on its home, made
 * the keyring's way, and one key looked up in them (an operation they
 * start runs to its end in padlock-gpgme-run.h).  For those that hand
 * what gpg exported or dirmngr fetched to the core
 * (padlock-recipients.c, padlock-lookup.c): one certificate among those
 * read, by the fingerprint GPGME gives.
 */
#pragma once

#include <gio/gio.h>
#include <gpgme.h>

#include "cert.h"

G_BEGIN_DECLS

/* A GPGME OpenPGP context on HOME_DIR (NULL: gpg's default), for the
 * calling thread only; GPGME is initialised once, from any thread. */
gpgme_error_t _padlock_keyring_new_context (const char  *home_dir,
                                            gpgme_ctx_t *ctx);

/* "The keyring has no key FINGERPRINT": an export's words, and every
 * operation's that finds no such key. */
GError *_padlock_keyring_no_such_key (const char *fingerprint);

/* The key FINGERPRINT of CTX's keyring in *KEY (public, or with SECRET
 * its secret half), with the mode CTX has: NULL, else the error to
 * return, _padlock_keyring_no_such_key's when gpg lists none (or a key
 * without subkeys) and *KEY stays NULL. */
GError *_padlock_keyring_get_key (gpgme_ctx_t  ctx,
                                  const char  *fingerprint,
                                  gboolean     secret,
                                  gpgme_key_t *key);

/* The certificate of CERTS (N of them, from pl_certs_read; a NULL one is
 * skipped) whose primary key's fingerprint is FPR (hex, any case), or
 * NULL. */
pl_cert *_padlock_certs_find (pl_cert    **certs,
                              size_t       n,
                              const char  *fpr);

G_END_DECLS
