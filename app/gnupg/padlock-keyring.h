/* padlock-keyring.h - the user's GnuPG keyring, through GPGME
 *
 * A GListModel of PadlockKey (padlock-key.h), in the keyring's order,
 * read with GPGME_KEYLIST_MODE_LOCAL | VALIDATE | WITH_KEYGRIP |
 * WITH_SECRET on a worker thread: gpg can take a while (a trust-database
 * check, a big keyring), so no GPGME call blocks the main thread.  A
 * file monitor on the GnuPG home reads it again when pubring, trustdb,
 * gpg.conf or private-keys-v1.d change, so keys that `gpg --import` adds
 * appear while a window is open; each new listing replaces the whole
 * model (one items-changed) and then emits "loaded".
 *
 * The keyring never creates a GnuPG home: when there is none, the state
 * says so and nothing runs gpg until one appears.
 *
 * Export and import go through GPGME too: export of chosen certificates
 * in their minimal form (for the engine's certificate parser), import of
 * a certificate file with what it added.
 */
#pragma once

#include <gio/gio.h>

#include "padlock-key.h"

G_BEGIN_DECLS

typedef enum
{
  PADLOCK_KEYRING_LOADING,  /* the first listing is under way */
  PADLOCK_KEYRING_READY,    /* it has keys */
  PADLOCK_KEYRING_EMPTY,    /* a GnuPG home without a key */
  PADLOCK_KEYRING_NO_HOME,  /* no GnuPG home: gpg has never run */
  PADLOCK_KEYRING_FAILED,   /* gpg could not list it: padlock_keyring_get_error () */
} PadlockKeyringState;

#define PADLOCK_TYPE_KEYRING_STATE (padlock_keyring_state_get_type ())
GType padlock_keyring_state_get_type (void) G_GNUC_CONST;

/* What an import added, from gpgme_import_result_t. */
typedef struct
{
  guint considered;         /* certificates in the file */
  guint imported;           /* certificates new to the keyring */
  guint unchanged;
  guint new_user_ids;
  guint new_subkeys;
  guint new_signatures;
  guint new_revocations;
  guint secret_imported;
  GStrv new_fingerprints;   /* of the new certificates */
  GStrv changed_fingerprints; /* of those that gained something */
  guint not_imported;       /* certificates gpg refused */
  GStrv new_names;          /* the primary user IDs of the new ones, in
                             * the order of new_fingerprints, as
                             * padlock_name_display shows them (one line,
                             * every character visible; "<" and "&" are
                             * still there: escape before markup) */
  GStrv changed_names;      /* the same for changed_fingerprints */
  GStrv refusals;           /* why gpg refused each of the not imported */
} PadlockKeyringImport;

void padlock_keyring_import_free (PadlockKeyringImport *import);
/* What IMPORT changed, in a sentence or a few for the user (plain text:
 * escape it before using it as markup): the new keys by name, new user
 * IDs, signatures and subkeys, the unchanged, the refused and why.  The
 * one wording of an import: the window's toast, the encrypt dialog and
 * the Keys page all use it. */
char *padlock_keyring_import_describe (const PadlockKeyringImport *import);
G_DEFINE_AUTOPTR_CLEANUP_FUNC (PadlockKeyringImport, padlock_keyring_import_free)

#define PADLOCK_TYPE_KEYRING (padlock_keyring_get_type ())
G_DECLARE_FINAL_TYPE (PadlockKeyring, padlock_keyring, PADLOCK, KEYRING, GObject)

/* The keyring of HOME_DIR, or of gpg's own home (GNUPGHOME, else
 * ~/.gnupg) when NULL; starts reading it at once. */
PadlockKeyring     *padlock_keyring_new             (const char     *home_dir);
const char         *padlock_keyring_get_home_dir    (PadlockKeyring *self);
/* gpg's home when none is named: GNUPGHOME, else ~/.gnupg (a new
 * string; the folder may not exist). */
char               *padlock_keyring_default_home    (void);
PadlockKeyringState padlock_keyring_get_state       (PadlockKeyring *self);
/* Why the state is FAILED; NULL otherwise. */
const GError       *padlock_keyring_get_error       (PadlockKeyring *self);
/* The key for "Also encrypt to me": gpg's default-key (gpg.conf, through
 * gpgconf) when it names a secret key that can encrypt, else the first
 * such key; NULL when there is none. */
PadlockKey         *padlock_keyring_get_default_key (PadlockKeyring *self);
/* Reads the keyring again (the file monitor does it on its own). */
void                padlock_keyring_reload          (PadlockKeyring *self);
/* Whether a listing is under way: its thread (and the gpg it runs) has
 * not returned yet.  "loaded" says when it has. */
gboolean            padlock_keyring_is_listing      (PadlockKeyring *self);

/* The keys padlock_key_matches () QUERY, in order; a new array of
 * references. */
GPtrArray          *padlock_keyring_search          (PadlockKeyring *self,
                                                     const char     *query);
/* The key with a subkey whose key ID or fingerprint is ID (as a PKESK
 * names it), and that subkey in *SUBKEY when not NULL; NULL when none.
 * With SECRET_ONLY, only keys whose secret half that subkey's is. */
PadlockKey         *padlock_keyring_find_key        (PadlockKeyring       *self,
                                                     const char           *id,
                                                     gboolean              secret_only,
                                                     const PadlockSubkey **subkey);

/* The certificates of FINGERPRINTS, exported with
 * GPGME_EXPORT_MODE_MINIMAL (binary; only the newest self-signatures,
 * no third-party certifications): for the engine's parser.  A
 * fingerprint the keyring does not hold is an error. */
void                padlock_keyring_export_async    (PadlockKeyring      *self,
                                                     const char * const  *fingerprints,
                                                     GCancellable        *cancellable,
                                                     GAsyncReadyCallback  callback,
                                                     gpointer             user_data);
GBytes             *padlock_keyring_export_finish   (PadlockKeyring      *self,
                                                     GAsyncResult        *result,
                                                     GError             **error);

/* The same, blocking, from any thread, for the keyring of HOME_DIR (as
 * padlock_keyring_get_home_dir gives it; NULL: gpg's default). */
GBytes             *padlock_keyring_export_home     (const char          *home_dir,
                                                     const char * const  *fingerprints,
                                                     GCancellable        *cancellable,
                                                     GError             **error);

/* The certificate whose primary key or subkey is ID (a key ID or a
 * fingerprint, hex, as a signature names its issuer), from the keyring
 * of HOME_DIR, blocking, from any thread: its minimal export (as
 * padlock_keyring_export_home) and, in *KEY, what gpg says of it (the
 * validity from the trust database).  NULL and no error when the keyring
 * has no such key. */
GBytes             *padlock_keyring_find_signer_home (const char         *home_dir,
                                                      const char         *id,
                                                      PadlockKey        **key,
                                                      GError            **error);

/* Imports the certificates of FILE (armored or binary) into the keyring
 * and reads it again; the result says what was new.  Public keys only:
 * data that holds a secret key (a backup, someone's mistake) is refused
 * whole, before gpg imports anything (PADLOCK_ERROR_UNSUPPORTED, "This
 * is a secret key, …"), since a secret key that is not the user's own
 * would make Padlock take it for theirs ("Also encrypt to me").  No
 * certificate at all: PADLOCK_ERROR_MALFORMED, "It holds no OpenPGP
 * key".  An error's message has no final period: it goes after a
 * colon.  A GnuPG home that does not exist yet is made (0700), as gpg
 * makes ~/.gnupg: a user who has never run gpg can add a key. */
void                padlock_keyring_import_async    (PadlockKeyring      *self,
                                                     GFile               *file,
                                                     GCancellable        *cancellable,
                                                     GAsyncReadyCallback  callback,
                                                     gpointer             user_data);
/* The same for certificates in memory (pasted armor, a lookup's
 * data); finished with padlock_keyring_import_finish. */
void                padlock_keyring_import_bytes_async (PadlockKeyring      *self,
                                                        GBytes              *bytes,
                                                        GCancellable        *cancellable,
                                                        GAsyncReadyCallback  callback,
                                                        gpointer             user_data);
/* Why a secret key is not imported, in words (no final period): the
 * refusal's error and a dropped key file's row say it. */
const char         *padlock_keyring_secret_refusal  (void);
PadlockKeyringImport *padlock_keyring_import_finish (PadlockKeyring      *self,
                                                     GAsyncResult        *result,
                                                     GError             **error);

G_END_DECLS
