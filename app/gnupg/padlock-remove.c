/* padlock-remove.c - removing a person's key from the keyring */
#include "padlock-remove.h"

#include <glib/gi18n.h>

#include "padlock-error.h"
#include "padlock-keyring-private.h"

static GError *
remove_key (const char *home_dir, const char *fingerprint)
{
  gpgme_ctx_t ctx = NULL;
  gpgme_key_t key = NULL;
  gpgme_key_t secret = NULL;
  gpgme_error_t err;
  GError *error = NULL;

  err = _padlock_keyring_new_context (home_dir, &ctx);
  if (err)
    return padlock_error_from_gpg (err);
  error = _padlock_keyring_get_key (ctx, fingerprint, FALSE, &key);
  if (!error)
    {
      GError *none = _padlock_keyring_get_key (ctx, fingerprint, TRUE, &secret);

      if (!none)
        error = g_error_new_literal (PADLOCK_ERROR, PADLOCK_ERROR_PUBLIC_KEY,
                                     _("This is one of your own keys: Padlock does not remove it"));
      g_clear_error (&none);
    }
  /* Without ALLOW_SECRET gpg refuses a key with a secret part anyway. */
  if (!error && (err = gpgme_op_delete_ext (ctx, key, GPGME_DELETE_FORCE)))
    error = padlock_error_from_gpg (err);
  g_clear_pointer (&secret, gpgme_key_unref);
  g_clear_pointer (&key, gpgme_key_unref);
  gpgme_release (ctx);
  return error;
}

static void
remove_thread (GTask *task, gpointer source, gpointer task_data,
               GCancellable *cancellable)
{
  PadlockKeyring *keyring = source;
  GError *error = remove_key (padlock_keyring_get_home_dir (keyring), task_data);

  if (error)
    g_task_return_error (task, error);
  else
    g_task_return_boolean (task, TRUE);
}

void
padlock_keyring_remove_key_async (PadlockKeyring *self,
                                  const char *fingerprint,
                                  GCancellable *cancellable,
                                  GAsyncReadyCallback callback,
                                  gpointer user_data)
{
  g_autoptr (GTask) task = NULL;

  g_return_if_fail (PADLOCK_IS_KEYRING (self));
  g_return_if_fail (fingerprint != NULL);

  task = g_task_new (self, cancellable, callback, user_data);
  g_task_set_source_tag (task, padlock_keyring_remove_key_async);
  g_task_set_task_data (task, g_strdup (fingerprint), g_free);
  g_task_run_in_thread (task, remove_thread);
}

gboolean
padlock_keyring_remove_key_finish (PadlockKeyring *self, GAsyncResult *result,
                                   GError **error)
{
  g_return_val_if_fail (g_task_is_valid (result, self), FALSE);
  g_return_val_if_fail (g_task_get_source_tag (G_TASK (result))
                        == padlock_keyring_remove_key_async, FALSE);

  if (!g_task_propagate_boolean (G_TASK (result), error))
    return FALSE;
  padlock_keyring_reload (self);
  return TRUE;
}
