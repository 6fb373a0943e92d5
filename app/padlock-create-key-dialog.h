/* padlock-create-key-dialog.h - "Create Your Key": a name and an email
 * address, a key pair made by the user's GnuPG
 *
 * Name and email only; "Advanced" holds the expiry (years, or never;
 * three years by default).  Create runs padlock_my_key_create_async
 * (padlock-mykey.h) off the main thread with a spinner, gpg-agent's
 * pinentry asking for the passphrase, and Cancel stops it.  At the end
 * the dialog says the key was made, shows its fingerprint and where gpg
 * kept the revocation certificate, and offers "Share Your Key…", which
 * activates win.show-my-key (the fingerprint) on the window it is
 * transient for.
 */
#pragma once

#include <adwaita.h>

#include "padlock-keyring.h"

G_BEGIN_DECLS

#define PADLOCK_TYPE_CREATE_KEY_DIALOG (padlock_create_key_dialog_get_type ())
G_DECLARE_FINAL_TYPE (PadlockCreateKeyDialog, padlock_create_key_dialog,
                      PADLOCK, CREATE_KEY_DIALOG, AdwWindow)

GtkWindow  *padlock_create_key_dialog_new (GtkWindow      *parent,
                                           PadlockKeyring *keyring);
/* The new key's fingerprint once made; NULL before. */
const char *padlock_create_key_dialog_get_fingerprint (PadlockCreateKeyDialog *self);

G_END_DECLS
