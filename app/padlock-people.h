/* padlock-people.h - the encrypt dialog's "People": whom to encrypt to
 *
 * A search field completing over the names, emails and key IDs of the
 * GnuPG keyring (padlock_keyring_search), each match with its name,
 * email, short fingerprint and validity; the chosen people as removable
 * rows; "Also encrypt to me (Name <email>)", on when the keyring has a
 * default key (padlock_keyring_get_default_key); "Hide recipients".
 *
 * An expired, revoked or disabled key is shown but cannot be picked,
 * with the reason; a key that is not verified (validity below full) is
 * picked only after a warning, "Padlock cannot tell that this key
 * belongs to Bob".  Without a GnuPG home or keys it says so, how to
 * import one (`gpg --import`), and offers a file chooser that imports a
 * certificate through GPGME.  New keys appear while it is open (the
 * keyring's "loaded").
 *
 * The last recipients and "Hide recipients" are remembered in GSettings
 * (last-recipients, hide-recipients).  The passphrase dialog only hosts
 * it (padlock_passphrase_dialog_set_people); the window reads the
 * result.
 */
#pragma once

#include <gtk/gtk.h>

#include "padlock-keyring.h"
#include "padlock-recipients.h"

G_BEGIN_DECLS

#define PADLOCK_TYPE_PEOPLE (padlock_people_get_type ())
G_DECLARE_FINAL_TYPE (PadlockPeople, padlock_people, PADLOCK, PEOPLE, GtkBox)

/* Emits "changed" whenever the people, "you", "Hide recipients" or the
 * format (known once the certificates are read) change. */
PadlockPeople     *padlock_people_new            (PadlockKeyring *keyring,
                                                  GSettings      *settings);
/* Whether someone other than "you" is chosen: the passphrase is then
 * optional. */
gboolean           padlock_people_has_people     (PadlockPeople  *self);
/* Whether anyone can open the files without a passphrase: someone
 * chosen, or "you" alone (a backup only the user's own key opens).
 * The passphrase is then optional. */
gboolean           padlock_people_has_recipients (PadlockPeople  *self);
/* Whether a passphrase will lock the files too, for the sentence "Bob,
 * you, and anyone with the passphrase". */
void               padlock_people_set_passphrase (PadlockPeople  *self,
                                                  gboolean        passphrase);
/* "OpenPGP (RFC 4880) · all recipients' software reads it" once the
 * chosen certificates are read; NULL before, and without recipients. */
const char        *padlock_people_get_format     (PadlockPeople  *self);
/* The recipients to hand to the jobs (people and "you"), or NULL when
 * there are none; remembers them in GSettings (last-recipients). */
PadlockRecipients *padlock_people_dup_recipients (PadlockPeople  *self);

G_END_DECLS
