/* padlock-keys-page.h - the window's "Keys" page: your keys and people
 *
 * Lists the keyring (padlock-keyring.h) in two sections: "Your Keys"
 * (keys whose secret the user holds) and "People" (the others), each row
 * with the name, email, short fingerprint (the key ID), validity in
 * words (padlock_key_get_validity_words; "Revoked" and "Expired" before
 * it), expiry and algorithm.  The search field filters both
 * (padlock_key_matches).  The page follows the keyring's "loaded": keys
 * `gpg --import` adds show up while it is open.
 *
 * A person's row opens that key's page (padlock-person-page.h).  A row
 * of your own activates win.show-my-key with the fingerprint, and the
 * empty "Your Keys" offers win.create-key ("Create Your Key");
 * win.import-key and win.paste-key are the header's "Add Key…" and
 * "Paste".  Those actions are the window's to install: a button whose
 * action is missing is insensitive, and your own key's row then opens
 * its page instead.
 */
#pragma once

#include <gtk/gtk.h>

#include "padlock-keyring.h"

G_BEGIN_DECLS

#define PADLOCK_TYPE_KEYS_PAGE (padlock_keys_page_get_type ())
G_DECLARE_FINAL_TYPE (PadlockKeysPage, padlock_keys_page, PADLOCK, KEYS_PAGE, GtkBox)

GtkWidget *padlock_keys_page_new         (void);
/* Shows KEYRING (a reference is taken); the first call starts what the
 * page shows, until then it says the keys are being read. */
void       padlock_keys_page_set_keyring (PadlockKeysPage *self,
                                          PadlockKeyring  *keyring);
/* Opens the page of the key FINGERPRINT (padlock-person-page.h) over
 * the page's window; FALSE when the keyring has no such key. */
gboolean   padlock_keys_page_show_person (PadlockKeysPage *self,
                                          const char      *fingerprint);
/* Gives the search field the focus. */
void       padlock_keys_page_focus_search (PadlockKeysPage *self);

G_END_DECLS
