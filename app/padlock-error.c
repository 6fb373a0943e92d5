/* padlock-error.c - the one boundary where gpg_error_t becomes GError */
#include "padlock-error.h"

#include <glib/gi18n.h>

#include "errors.h"

G_DEFINE_QUARK (padlock-error-quark, padlock_error)

/* The core has no GLib and no gettext: its messages are translated here,
 * where they become GErrors.  The same words as pl_error_message
 * (core/errors.c), for xgettext; tests/test-app-i18n checks that they
 * stay the same. */
static const char *const core_messages[] G_GNUC_UNUSED = {
  N_("The passphrase is wrong."),
  N_("No passphrase was given."),
  N_("The file is damaged or has been tampered with; nothing was written."),
  N_("The file is incomplete: it ends too early."),
  N_("The file's ASCII armor is damaged."),
  N_("The file is an OpenPGP message, but it is not encrypted."),
  N_("The file is not an OpenPGP message, or it is damaged."),
  N_("The file uses a cipher that Padlock does not support."),
  N_("The file uses a hash algorithm that Padlock does not support."),
  N_("The file uses a compression method that Padlock does not support."),
  N_("The file uses an OpenPGP feature that Padlock does not support."),
  N_("The file has no integrity protection, so it could have been altered "
     "undetectably; Padlock refuses to decrypt it."),
  N_("The file is encrypted to a public key, not with a passphrase."),
  N_("The file asks for more memory to derive its key than Padlock allows."),
  N_("Cancelled."),
  N_("The output file already exists."),
  N_("The disk is full."),
  N_("A read or write error occurred."),
  N_("The file does not exist."),
  N_("Permission denied."),
};

G_STATIC_ASSERT ((int) PADLOCK_ERROR_BAD_PASSPHRASE == PL_OUTCOME_BAD_PASSPHRASE);
G_STATIC_ASSERT ((int) PADLOCK_ERROR_OTHER == PL_OUTCOME_OTHER);

GError *
padlock_error_from_gpg (gpg_error_t err)
{
  pl_outcome outcome;

  if (!err)
    return NULL;
  outcome = pl_error_outcome (err);
  if (outcome == PL_OUTCOME_OK)
    outcome = PL_OUTCOME_OTHER;
  return g_error_new_literal (PADLOCK_ERROR, (int) outcome,
                              _(pl_error_message (err)));
}
