/* padlock-sign-as.h - "Sign as Alice <alice@…>" in the encrypt dialog
 *
 * A check button for the user's signing key (padlock_signer_choose_key:
 * gpg's default key when it can sign, else the first that can), checked
 * by default; hidden while the keyring loads and when the user has no
 * secret key that can sign.  It follows the keyring: a key imported
 * while the dialog is up appears.
 */
#pragma once

#include <gtk/gtk.h>

#include "padlock-key.h"
#include "padlock-keyring.h"

G_BEGIN_DECLS

#define PADLOCK_TYPE_SIGN_AS (padlock_sign_as_get_type ())
G_DECLARE_FINAL_TYPE (PadlockSignAs, padlock_sign_as, PADLOCK, SIGN_AS, GtkBox)

GtkWidget  *padlock_sign_as_new     (PadlockKeyring *keyring);
/* The key to sign with: the one shown, when it is checked; else NULL. */
PadlockKey *padlock_sign_as_get_key (PadlockSignAs  *self);

G_END_DECLS
