/* padlock-error.h - the one boundary where gpg_error_t becomes GError */
#pragma once

#include <gio/gio.h>
#include <gpg-error.h>

G_BEGIN_DECLS

#define PADLOCK_ERROR (padlock_error_quark ())

/* The first codes mirror pl_outcome (core/errors.h) one to one. */
typedef enum
{
  PADLOCK_ERROR_BAD_PASSPHRASE = 1,
  PADLOCK_ERROR_INTEGRITY,
  PADLOCK_ERROR_MALFORMED,
  PADLOCK_ERROR_UNSUPPORTED,
  PADLOCK_ERROR_UNPROTECTED,
  PADLOCK_ERROR_PUBLIC_KEY,
  PADLOCK_ERROR_TOO_COSTLY,
  PADLOCK_ERROR_CANCELLED,
  PADLOCK_ERROR_IO,
  PADLOCK_ERROR_OUTPUT_EXISTS,
  PADLOCK_ERROR_OTHER,
  /* The app's own. */
  PADLOCK_ERROR_NOT_VERIFIED,
  PADLOCK_ERROR_FOLDER,
} PadlockError;

GQuark  padlock_error_quark    (void);
/* NULL when ERR is 0; else a PADLOCK_ERROR with the core's plain words. */
GError *padlock_error_from_gpg (gpg_error_t err);

/* A decryption that no key of the user's opened (GPG_ERR_NO_SECKEY):
 * "FILE_NAME is for RECIPIENTS, whose secret key is not in your
 * keyring." (N_RECIPIENTS of them: "keys are" for more than one); NULL
 * for any other ERR, or without RECIPIENTS.  The text is raw: whoever
 * shows it escapes it (padlock_name_escape), as every error. */
GError *padlock_error_for_recipients (gpg_error_t  err,
                                      const char  *file_name,
                                      const char  *recipients,
                                      guint        n_recipients);

G_END_DECLS
