/* padlock-lookup-box.h - "Search on the Internet for bob@example.org"
 *
 * Under a search field (the encrypt dialog's People, the Keys page) or
 * in the unknown signer's window: when the text looks like an email
 * address or a fingerprint (padlock_lookup_is_address,
 * padlock_lookup_is_fingerprint), a button offers to look it up through
 * the user's dirmngr (padlock-lookup.h).  The lookup never runs by
 * itself: only that button, or padlock_lookup_box_search (a "Look Up
 * Key" the user pressed), starts it.
 *
 * While it runs: a spinner, what is looked up, and Cancel.  What it
 * found: each key's user IDs (as the network gave them, shown with
 * padlock_name_display), its fingerprint in groups of four, its
 * algorithm and creation date, a line saying that nothing of it is
 * verified, and "Import", which is the user's click: nothing is
 * imported before it (padlock_keyring_import_bytes_async).  Then the
 * import's one line (padlock_keyring_import_describe) and "imported".
 * Nothing found, offline or a timeout: one line, within
 * PADLOCK_LOOKUP_TIMEOUT seconds.
 *
 * No GPGME or dirmngr call runs on the main loop: both steps are GIO
 * asynchronous calls.
 */
#pragma once

#include <gtk/gtk.h>

#include "padlock-keyring.h"

G_BEGIN_DECLS

#define PADLOCK_TYPE_LOOKUP_BOX (padlock_lookup_box_get_type ())
G_DECLARE_FINAL_TYPE (PadlockLookupBox, padlock_lookup_box, PADLOCK, LOOKUP_BOX, GtkBox)

/* KEYRING may be NULL until padlock_lookup_box_set_keyring; without
 * one the box shows nothing.  Emits "imported" (const char *fingerprint:
 * the first new or changed key's) after an import that added or
 * changed a key. */
GtkWidget *padlock_lookup_box_new         (PadlockKeyring   *keyring);
void       padlock_lookup_box_set_keyring (PadlockLookupBox *self,
                                           PadlockKeyring   *keyring);
/* What the search field holds now.  A different text cancels a
 * running lookup and forgets what was found; the offer is shown when
 * the text can be looked up. */
void       padlock_lookup_box_set_query   (PadlockLookupBox *self,
                                           const char       *text);
/* Starts the lookup of the current text now (when it can be looked up
 * and none runs). */
void       padlock_lookup_box_search      (PadlockLookupBox *self);
/* Whether a lookup or an import is running. */
gboolean   padlock_lookup_box_is_busy     (PadlockLookupBox *self);

G_END_DECLS
