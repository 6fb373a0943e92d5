/* padlock-lookup-window.h - "Look Up Key": an unknown signer's key
 *
 * A row whose signature is by a key the keyring lacks ("Signed by an
 * unknown key DAB5 …") offers "Look Up Key…" (win.look-up-key): this
 * window, over the main one, names the fingerprint in groups of four
 * and looks it up at once (the user asked) with the same lookup as the
 * search fields (padlock-lookup-box.h): what it finds is shown, and
 * imported only on the user's click.  After an import, "Check the
 * Signature Again" gives the signed file to the window again
 * (padlock_window_add_files), whose new row checks the signature with
 * the key now in the keyring.
 */
#pragma once

#include <adwaita.h>

#include "padlock-keyring.h"
#include "padlock-lookup-box.h"

G_BEGIN_DECLS

#define PADLOCK_TYPE_LOOKUP_WINDOW (padlock_lookup_window_get_type ())
G_DECLARE_FINAL_TYPE (PadlockLookupWindow, padlock_lookup_window, PADLOCK,
                      LOOKUP_WINDOW, AdwWindow)

/* Looks FINGERPRINT up through KEYRING's GnuPG home; SIGNED (may be
 * NULL) is the file whose signature named it, given again to PARENT (a
 * PadlockWindow) by "Check the Signature Again". */
PadlockLookupWindow *padlock_lookup_window_new (PadlockKeyring *keyring,
                                                const char     *fingerprint,
                                                GFile          *signed_file,
                                                GtkWindow      *parent);
/* The lookup inside, for the tests. */
PadlockLookupBox    *padlock_lookup_window_get_box (PadlockLookupWindow *self);

G_END_DECLS
