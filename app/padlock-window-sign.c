/* padlock-window-sign.c - "Sign Files…": detached signatures (issue 34
 * §4), from the window's menu and from the file managers' "Sign with
 * Padlock" (`padlock --sign --detach FILE…`); and "Make Checksum
 * List…" (`padlock --checksum-list FILE…`)
 *
 * Each file gets a job of its own (PADLOCK_DIRECTION_SIGN): FILE.sig
 * beside it (FILE.asc with the armor preference), signed by the user's
 * signing key (padlock_signer_choose_key: gpg's default key when it can
 * sign, else the first that can) through the application's gpg-agent,
 * whose pinentry asks for the key's passphrase.  A checksum list is one
 * job for all the files (padlock_job_new_checksum_list): SHA256SUMS and
 * SHA256SUMS.sig in their folder, signed by the same key the same way.
 * No dialog of Padlock's: there is nothing to choose but the files.
 */
#include "padlock-window-private.h"

#include <glib/gi18n.h>

#include "padlock-application.h"
#include "padlock-folder.h"
#include "padlock-name.h"
#include "padlock-settings.h"
#include "padlock-signer.h"

/* Files waiting for the keyring's first listing. */
typedef struct
{
  GWeakRef window;
  GPtrArray *files;             /* GFile */
  gboolean list;                /* one checksum list of them */
} SignWait;

static void
sign_wait_free (gpointer data, GClosure *closure)
{
  SignWait *wait = data;

  g_weak_ref_clear (&wait->window);
  g_ptr_array_unref (wait->files);
  g_free (wait);
}

/* Whether FILE can be signed here; if not, the window says why. */
static gboolean
can_sign (PadlockWindow *self, GFile *file)
{
  g_autofree char *name = padlock_name_display_file (file);
  g_autofree char *text = NULL;

  if (!g_file_is_native (file))
    text = g_strdup_printf (_("Only local files are supported: %s"), name);
  else if (padlock_folder_is_folder (file))
    text = g_strdup_printf ("%s: %s", name,
                            _("A folder is not signed: sign the files in it."));
  if (text)
    padlock_window_notice (self, text);
  return text == NULL;
}

/* A job for each of FILES, signed by KEY. */
static void
start_sign_jobs (PadlockWindow *self, GPtrArray *files, PadlockKey *key,
                 PadlockKeyring *keyring)
{
  PadlockApplication *app = PADLOCK_APPLICATION (g_application_get_default ());
  PadlockJobConfig config = { 0 };
  guint group = ++self->next_group;

  padlock_job_config_from_settings (self->settings, &config);
  for (guint i = 0; i < files->len; i++)
    {
      GFile *file = g_ptr_array_index (files, i);
      g_autoptr(PadlockJob) job = NULL;

      if (!can_sign (self, file))
        continue;
      job = padlock_job_new (file, PADLOCK_DIRECTION_SIGN, &config);
      padlock_job_set_group (job, group);
      padlock_job_set_signing_key (job, key, padlock_application_get_agent (app),
                                   padlock_keyring_get_home_dir (keyring));
      padlock_queue_add (self->queue, job);
    }
  padlock_job_config_clear (&config);
}

/* One job for FILES' checksum list, signed by KEY; or the window says
 * why the files cannot be listed. */
static void
start_list_job (PadlockWindow *self, GPtrArray *files, PadlockKey *key,
                PadlockKeyring *keyring)
{
  PadlockApplication *app = PADLOCK_APPLICATION (g_application_get_default ());
  PadlockJobConfig config = { 0 };
  g_autoptr(PadlockJob) job = NULL;
  g_autoptr(GError) error = NULL;

  padlock_job_config_from_settings (self->settings, &config);
  job = padlock_job_new_checksum_list ((GFile **) files->pdata, files->len,
                                       &config, &error);
  padlock_job_config_clear (&config);
  if (!job)
    {
      g_autofree char *text = padlock_name_escape (error->message);

      padlock_window_notice (self, text);
      return;
    }
  padlock_job_set_group (job, ++self->next_group);
  padlock_job_set_signing_key (job, key, padlock_application_get_agent (app),
                               padlock_keyring_get_home_dir (keyring));
  padlock_queue_add (self->queue, job);
}

/* The keyring is listed: FILES are signed (or listed, with LIST), or
 * the window says why they cannot be. */
static void
sign_with_keyring (PadlockWindow *self, GPtrArray *files, gboolean list,
                   PadlockKeyring *keyring)
{
  g_autoptr(PadlockKey) key = NULL;

  if (padlock_keyring_get_state (keyring) == PADLOCK_KEYRING_READY)
    key = padlock_signer_choose_key (keyring, NULL);
  if (!key)
    {
      padlock_window_notice (self, _("To sign files, you need a secret key "
                                     "that can sign in your GnuPG keyring."));
      return;
    }
  if (list)
    start_list_job (self, files, key, keyring);
  else
    start_sign_jobs (self, files, key, keyring);
}

static void
on_keyring_loaded (PadlockKeyring *keyring, SignWait *wait)
{
  g_autoptr(PadlockWindow) self = g_weak_ref_get (&wait->window);
  g_autoptr(GPtrArray) files = g_ptr_array_ref (wait->files);

  /* Once: WAIT is freed when the handler goes. */
  g_signal_handlers_disconnect_by_func (keyring, on_keyring_loaded, wait);
  if (self)
    sign_with_keyring (self, files, wait->list, keyring);
}

void
padlock_window_sign_files (PadlockWindow  *self,
                           GFile         **files,
                           guint           n_files,
                           gboolean        list)
{
  PadlockKeyring *keyring = padlock_window_keys_get_keyring (self);
  g_autoptr(GPtrArray) array = g_ptr_array_new_with_free_func (g_object_unref);
  SignWait *wait;

  for (guint i = 0; i < n_files; i++)
    g_ptr_array_add (array, g_object_ref (files[i]));
  if (!keyring)
    {
      padlock_window_notice (self, _("To sign files, you need a secret key "
                                     "that can sign in your GnuPG keyring."));
      return;
    }
  if (!n_files)
    return;
  if (padlock_keyring_get_state (keyring) != PADLOCK_KEYRING_LOADING)
    {
      sign_with_keyring (self, array, list, keyring);
      return;
    }
  wait = g_new0 (SignWait, 1);
  g_weak_ref_init (&wait->window, self);
  wait->files = g_steal_pointer (&array);
  wait->list = list;
  g_signal_connect_data (keyring, "loaded", G_CALLBACK (on_keyring_loaded),
                         wait, sign_wait_free, 0);
}

static void
sign_action (GtkWidget  *widget,
             const char *action_name,
             GVariant   *parameter)
{
  PadlockWindow *self = PADLOCK_WINDOW (widget);

  padlock_window_choose_files (self, PADLOCK_OPEN_SIGN);
}

static void
checksum_list_action (GtkWidget  *widget,
                      const char *action_name,
                      GVariant   *parameter)
{
  PadlockWindow *self = PADLOCK_WINDOW (widget);

  padlock_window_choose_files (self, PADLOCK_OPEN_CHECKSUM_LIST);
}

void
padlock_window_sign_class_init (GtkWidgetClass *widget_class)
{
  gtk_widget_class_install_action (widget_class, "win.sign", NULL,
                                   sign_action);
  gtk_widget_class_install_action (widget_class, "win.checksum-list", NULL,
                                   checksum_list_action);
}
