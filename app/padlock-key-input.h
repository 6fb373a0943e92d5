/* padlock-key-input.h - how a key comes in: pasted text, a key file
 *
 * What the window's Ctrl+V, the Keys page and the encrypt dialog's
 * People share, so that they agree on what a key is.
 */
#pragma once

#include <gtk/gtk.h>

G_BEGIN_DECLS

/* Whether TEXT (may be NULL) holds an OpenPGP key block: a line
 * "-----BEGIN PGP PUBLIC KEY BLOCK-----" or "-----BEGIN PGP PRIVATE KEY
 * BLOCK-----" anywhere in it (a mail's text around it is fine).  It is
 * then imported (padlock_keyring_import_bytes_async, which refuses a
 * secret key), never taken as a name to search. */
gboolean       padlock_text_holds_key_block (const char *text);

/* "OpenPGP keys": *.asc, *.gpg, *.pgp, *.key, for a file chooser (a new
 * reference). */
GtkFileFilter *padlock_key_file_filter_new  (void);

/* The sentence for an import that failed with ERROR: "No key was added
 * from SOURCE: why." (SOURCE a file's name as shown, or NULL: "No key
 * was added: why."); plain text. */
char          *padlock_key_import_failure   (const char   *source,
                                             const GError *error);

G_END_DECLS
