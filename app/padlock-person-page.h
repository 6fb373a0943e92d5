/* padlock-person-page.h - one person's key: compare, verify, forget, remove
 *
 * A window over the main one (Escape closes it) with the key's name,
 * every user ID (escaped: padlock_name_display), the fingerprint in
 * groups of four, large, monospace and selectable, to read aloud, and
 * its validity in words (padlock_key_get_validity_words).  For a key
 * whose secret the user does not hold:
 *   - "I Compared the Fingerprint with Bob": a local certification
 *     (padlock_keyring_certify_local_async), with a spinner; a failure
 *     is said in words;
 *   - "Forget Verification", once verified
 *     (padlock_keyring_forget_local_async);
 *   - "Remove Key…", after an AdwMessageDialog
 *     (padlock_keyring_remove_key_async); the page then closes.
 * A key of the user's own offers none of them.  The page follows the
 * keyring: after each listing it shows the key FINGERPRINT anew.
 */
#pragma once

#include <adwaita.h>

#include "padlock-keyring.h"

G_BEGIN_DECLS

#define PADLOCK_TYPE_PERSON_PAGE (padlock_person_page_get_type ())
G_DECLARE_FINAL_TYPE (PadlockPersonPage, padlock_person_page, PADLOCK, PERSON_PAGE, AdwWindow)

/* The page of the key FINGERPRINT of KEYRING, transient for PARENT
 * (may be NULL); NULL when the keyring has no such key. */
PadlockPersonPage *padlock_person_page_new (PadlockKeyring *keyring,
                                            const char     *fingerprint,
                                            GtkWindow      *parent);

G_END_DECLS
