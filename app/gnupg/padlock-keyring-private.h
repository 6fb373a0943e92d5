/* padlock-keyring-private.h - what the keyring's aspect files share
 *
 * For the files that add operations on the keyring (padlock-certify.c):
 * GPGME contexts on its home, made the keyring's way.
 */
#pragma once

#include <gio/gio.h>
#include <gpgme.h>

G_BEGIN_DECLS

/* A GPGME OpenPGP context on HOME_DIR (NULL: gpg's default), for the
 * calling thread only; GPGME is initialised once, from any thread. */
gpgme_error_t _padlock_keyring_new_context (const char  *home_dir,
                                            gpgme_ctx_t *ctx);

G_END_DECLS
