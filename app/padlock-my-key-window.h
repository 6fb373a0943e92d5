/* padlock-my-key-window.h - "Your Key": share it, back it up, extend it
 *
 * For one key of the user's (a secret key of the keyring): its name and
 * email, its fingerprint in groups of four, large, monospace and
 * selectable, for reading aloud; "Copy" puts the armored public key on
 * the clipboard ("Public key copied"); "Save As…" writes it to a file
 * chosen with the native chooser (NAME.asc by default; the chooser asks
 * before replacing a file); "Back Up Secret Key…" warns in plain words,
 * then writes the armored secret key (mode 0600), the agent's pinentry
 * asking for the passphrase; the expiry, with "Extend by 2 Years" when
 * the key expires within 30 days or has expired
 * (padlock_my_key_expires_soon).  The window follows the keyring's
 * listings (after Extend, or gpg run elsewhere).
 */
#pragma once

#include <adwaita.h>

#include "padlock-keyring.h"

G_BEGIN_DECLS

#define PADLOCK_TYPE_MY_KEY_WINDOW (padlock_my_key_window_get_type ())
G_DECLARE_FINAL_TYPE (PadlockMyKeyWindow, padlock_my_key_window,
                      PADLOCK, MY_KEY_WINDOW, AdwWindow)

GtkWindow *padlock_my_key_window_new (GtkWindow      *parent,
                                      PadlockKeyring *keyring,
                                      const char     *fingerprint);

G_END_DECLS
