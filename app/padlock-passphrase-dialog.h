/* padlock-passphrase-dialog.h - asks for the passphrase of one batch
 *
 * Encryption asks twice, with a strength meter and a generator
 * (libpwquality); decryption asks once, and says why when it asks again.
 * The passphrase leaves the entries for secure memory, once.
 */
#pragma once

#include <adwaita.h>

#include "padlock-people.h"
#include "padlock-secret.h"

G_BEGIN_DECLS

typedef enum
{
  PADLOCK_PASSPHRASE_ENCRYPT,
  PADLOCK_PASSPHRASE_DECRYPT,
} PadlockPassphraseMode;

#define PADLOCK_TYPE_PASSPHRASE_DIALOG (padlock_passphrase_dialog_get_type ())
G_DECLARE_FINAL_TYPE (PadlockPassphraseDialog, padlock_passphrase_dialog,
                      PADLOCK, PASSPHRASE_DIALOG, AdwWindow)

/* HEADING says what it is for; ERROR (may be NULL) why it asks again.
 * Emits "finished" once, with the secret or NULL when cancelled. */
PadlockPassphraseDialog *padlock_passphrase_dialog_new (GtkWindow             *parent,
                                                        PadlockPassphraseMode  mode,
                                                        const char            *heading,
                                                        const char            *error);
PadlockPassphraseMode    padlock_passphrase_dialog_get_mode (PadlockPassphraseDialog *self);
/* Encrypting several items: shows "Put them in one archive", checked when
 * ACTIVE; the answer is read after "finished". */
void     padlock_passphrase_dialog_offer_one_archive (PadlockPassphraseDialog *self,
                                                      gboolean                 active);
gboolean padlock_passphrase_dialog_get_one_archive   (PadlockPassphraseDialog *self);
/* Encryption: the format written and who opens it (NULL hides it). */
void                     padlock_passphrase_dialog_set_format (PadlockPassphraseDialog *self,
                                                               const char              *format);
/* Encryption: hosts PEOPLE (padlock-people.h, taken), whose choice makes
 * the passphrase optional; "finished" then comes with a NULL secret when
 * none was typed. */
void                     padlock_passphrase_dialog_set_people (PadlockPassphraseDialog *self,
                                                               PadlockPeople           *people);
/* After "finished": the recipients chosen, or NULL (none, or
 * cancelled); remembers them (padlock_people_dup_recipients). */
PadlockRecipients       *padlock_passphrase_dialog_dup_recipients (PadlockPassphraseDialog *self);
/* Encryption: SECTION (such as "Sign as", padlock-sign-as.h) under the
 * entries, in the order added. */
void                     padlock_passphrase_dialog_add_section (PadlockPassphraseDialog *self,
                                                                GtkWidget               *section);
/* What comes next, such as a second dialog (NULL hides it). */
void                     padlock_passphrase_dialog_set_note (PadlockPassphraseDialog *self,
                                                             const char              *note);

G_END_DECLS
