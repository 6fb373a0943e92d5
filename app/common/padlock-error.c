/* padlock-error.c - the one boundary where gpg_error_t becomes GError */
#include "padlock-error.h"

#include <glib/gi18n.h>

#include "errors.h"

G_DEFINE_QUARK (padlock-error-quark, padlock_error)

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
  /* The core's messages are in po/ through its PL_N_ keyword. */
  return g_error_new_literal (PADLOCK_ERROR, (int) outcome,
                              _(pl_error_message (err)));
}

GError *
padlock_error_for_recipients (gpg_error_t  err,
                              const char  *file_name,
                              const char  *recipients,
                              guint        n_recipients)
{
  if (gpg_err_code (err) != GPG_ERR_NO_SECKEY || !recipients || !*recipients)
    return NULL;
  /* Translators: the file's name, then the recipients: "0x… (Bob
   * <bob@example.org>) and 0x…". */
  return g_error_new (PADLOCK_ERROR, PADLOCK_ERROR_PUBLIC_KEY,
                      g_dngettext (NULL,
                                   "%s is for %s, whose secret key is not in "
                                   "your keyring.",
                                   "%s is for %s, whose secret keys are not "
                                   "in your keyring.", n_recipients),
                      file_name, recipients);
}
