/* padlock-recipients.h - the people an encryption is for
 *
 * The one place where keys of the GnuPG keyring (padlock-key.h) become
 * the engine's certificates, for the window's jobs and `padlock --batch`
 * alike: the chosen keys' certificates are exported in their minimal form
 * through GPGME (padlock_keyring_export_home) and parsed, with their
 * self-signatures checked, by core (cert.h); each becomes a PKESK
 * (recipients.h), beside an SKESK when the job also has a passphrase.
 *
 * The format follows the recipients, by the engine's rule
 * (pl_recipients_profile): the newest that every recipient's software
 * reads, or the one asked for when all of them read it.
 *
 * A PadlockRecipients is made on the main thread from the keys (cheap:
 * no gpg runs) and shared by reference between the jobs of one dialog or
 * batch; the export and parsing run once, on the first thread that needs
 * them (padlock_recipients_load), and what they made is then read-only.
 */
#pragma once

#include <gio/gio.h>

#include "job.h"
#include "padlock-key.h"
#include "padlock-keyring.h"

G_BEGIN_DECLS

typedef struct _PadlockRecipients PadlockRecipients;

#define PADLOCK_TYPE_RECIPIENTS (padlock_recipients_get_type ())
GType padlock_recipients_get_type (void) G_GNUC_CONST;

/* The recipients KEYS (N_KEYS, borrowed) and ME (may be NULL, or one of
 * KEYS: "you"), from the keyring of HOME_DIR (padlock_keyring_get_home_dir;
 * NULL: gpg's own).  With ANONYMOUS, the PKESKs name no key (gpg's
 * --throw-keyids).  REQUESTED is the profile asked for, or -1: the
 * recipients' own. */
PadlockRecipients *padlock_recipients_new        (const char        *home_dir,
                                                  PadlockKey *const *keys,
                                                  guint              n_keys,
                                                  PadlockKey        *me,
                                                  gboolean           anonymous,
                                                  int                requested);
PadlockRecipients *padlock_recipients_ref        (PadlockRecipients *self);
void               padlock_recipients_unref      (PadlockRecipients *self);

/* Exports and parses the certificates once (blocking: any thread but
 * the main one, or a terminal's).  A key the keyring no longer holds, a
 * certificate whose encryption key the engine refuses (expired, revoked,
 * unbound), or a profile asked for that a recipient cannot read is an
 * error naming the recipient; the same error every later call. */
gboolean           padlock_recipients_load       (PadlockRecipients *self,
                                                  GCancellable      *cancellable,
                                                  GError           **error);
/* The same on a worker thread. */
void               padlock_recipients_load_async (PadlockRecipients  *self,
                                                  GCancellable       *cancellable,
                                                  GAsyncReadyCallback callback,
                                                  gpointer            user_data);
gboolean           padlock_recipients_load_finish (PadlockRecipients *self,
                                                   GAsyncResult      *result,
                                                   GError           **error);

/* After a successful load: the pl_profile the messages use, and one
 * PL_KEY_CERT per recipient into KEYS (room for
 * padlock_recipients_get_n_keys), valid while SELF lives.  Before: -1
 * and 0. */
int                padlock_recipients_get_profile (PadlockRecipients *self);
gsize              padlock_recipients_fill_keys  (PadlockRecipients *self,
                                                  pl_key            *keys);

/* How many keys, "you" included. */
guint              padlock_recipients_get_n_keys (PadlockRecipients *self);
gboolean           padlock_recipients_get_anonymous (PadlockRecipients *self);
/* "Bob <bob@…>, you, and anyone with the passphrase": who can open what
 * is encrypted to SELF, with PASSPHRASE or not; translated, for the
 * window: each key's label escaped and in bidi isolates
 * (padlock_name_display). */
char              *padlock_recipients_describe   (PadlockRecipients *self,
                                                  gboolean           passphrase);
/* The same sentence for OTHERS' labels (may be empty), YOU and
 * PASSPHRASE: for a dialog before its recipients are made. */
char              *padlock_recipients_describe_labels (const char *const *others,
                                                       gboolean           you,
                                                       gboolean           passphrase);

/* How a recipient names a key (padlock_recipients_match). */
typedef enum
{
  PADLOCK_RECIPIENT_NO_MATCH,
  PADLOCK_RECIPIENT_UNVERIFIED,  /* only through user IDs the user has not
                                  * verified, or by a key ID (or a part of
                                  * a fingerprint) of a key not verified */
  PADLOCK_RECIPIENT_VERIFIED,    /* through a verified user ID, or it is
                                  * the user's own key */
  PADLOCK_RECIPIENT_FINGERPRINT, /* by its whole fingerprint (of the
                                  * primary or a subkey): the user's
                                  * explicit choice */
} PadlockRecipientMatch;

/* The recipient rule (DESIGN.md, "Trust"), for --recipient and the
 * dialog's search alike: how SPEC names KEY.  SPEC is a key ID or a
 * whole fingerprint (16, 40 or 64 hex digits; "0x" and spaces ignored),
 * an email (a user ID's, exactly, any case; "<…>" allowed), or else any
 * text of a user ID (any case), or four hex digits or more of a
 * fingerprint.  With TYPING (a search field, as the user types), an
 * email is text too: "alice@exa" is a part of a user ID.  A text
 * matches only through the user IDs that hold it, neither revoked nor
 * invalid (any of them when all are, as in a revoked key): VERIFIED
 * when one of those is of full or ultimate validity, or when KEY is the
 * user's own (a secret key, or ultimate validity); else UNVERIFIED, so
 * that a key certified as "Mallory" is not taken for the "Alice" it
 * also claims to be.  *USER_ID (may be NULL) is the
 * user ID to name: the first verified one that matched, else the first
 * that matched, else (a key ID, a fingerprint) the key's named one
 * (padlock_key_get_named_user_id); NULL for NO_MATCH. */
PadlockRecipientMatch padlock_recipients_match   (PadlockKey           *key,
                                                  const char           *spec,
                                                  gboolean              typing,
                                                  const PadlockUserId **user_id);

/* The one key of KEYRING that SPEC names, for --recipient, by
 * padlock_recipients_match: of the keys that match and can be encrypted
 * to, the one matched as VERIFIED or by its FINGERPRINT.  An error
 * (PADLOCK_ERROR_OTHER) names SPEC when no key matches ("unknown"), when
 * two or more such keys do ("ambiguous", with each listed), when the
 * usable keys that match are all UNVERIFIED (each listed, with how to
 * accept one: certify it, or name it by its fingerprint), or when every
 * match is refused (padlock_key_dup_refusal: expired, revoked…). */
PadlockKey        *padlock_recipients_resolve    (PadlockKeyring    *keyring,
                                                  const char        *spec,
                                                  GError           **error);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (PadlockRecipients, padlock_recipients_unref)

G_END_DECLS
