/* padlock-thunar.h - our custom actions in Thunar's uca.xml: Encrypt,
 * Decrypt, Sign and Open Without Saving */
#pragma once

#include <gio/gio.h>

G_BEGIN_DECLS

/* The unique-id of each action: what tells ours from the user's. */
#define PADLOCK_THUNAR_ENCRYPT_ID "padlock-encrypt"
#define PADLOCK_THUNAR_DECRYPT_ID "padlock-decrypt"
#define PADLOCK_THUNAR_SIGN_ID "padlock-sign"
#define PADLOCK_THUNAR_OPEN_ID "padlock-open"

/* $XDG_CONFIG_HOME/Thunar/uca.xml */
char     *padlock_thunar_get_actions_path (void);

/* Returns CONTENTS (a uca.xml; NULL or empty for none yet) with our
 * actions in it: an action of ours that is there is replaced where it
 * stands, a missing one goes last.  Every other byte is kept as it was, so
 * merging the result again changes nothing.  Fails with a GMarkupError
 * when CONTENTS is not well-formed or its root is not <actions>. */
char     *padlock_thunar_merge_actions    (const char  *contents,
                                           gssize       length,
                                           GError     **error);

/* Merges our actions into the file at PATH (created, with its folder, when
 * missing) and writes it atomically, only when that changes it.  CHANGED
 * (may be NULL) tells whether it did. */
gboolean  padlock_thunar_add_actions      (const char  *path,
                                           gboolean    *changed,
                                           GError     **error);

G_END_DECLS
