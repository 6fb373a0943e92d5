/* padlock-my-key-window.c - "Your Key": share it, back it up, extend it */
#include "padlock-my-key-window-private.h"

#include <glib/gi18n.h>

#include "padlock-accessible.h"
#include "padlock-error.h"
#include "padlock-mykey.h"
#include "padlock-name.h"


G_DEFINE_FINAL_TYPE (PadlockMyKeyWindow, padlock_my_key_window, ADW_TYPE_WINDOW)

static void
toast (PadlockMyKeyWindow *self, const char *text)
{
  g_autofree char *shown = padlock_name_escape (text);
  g_autofree char *markup = g_markup_escape_text (shown, -1);
  AdwToast *toast = adw_toast_new (markup);

  adw_toast_set_timeout (toast, 6);
  adw_toast_overlay_add_toast (self->toast_overlay, toast);
}

static char *
expiry_text (PadlockKey *key, gint64 now)
{
  gint64 expires = padlock_key_get_expires (key);
  g_autoptr (GDateTime) date = NULL;
  g_autofree char *day = NULL;

  if (expires == 0)
    return g_strdup (_("Never expires"));
  date = g_date_time_new_from_unix_local (expires);
  day = g_date_time_format (date, "%x");
  /* Translators: a date. */
  return g_strdup_printf (expires <= now ? _("Expired on %s") : _("Expires on %s"),
                          day);
}

/* The labels, from the keyring's listing. */
static void
sync_key (PadlockMyKeyWindow *self)
{
  PadlockKey *key = padlock_keyring_find_key (self->keyring, self->fingerprint,
                                              TRUE, NULL);
  gint64 now = g_get_real_time () / G_USEC_PER_SEC;
  g_autofree char *name = NULL, *email = NULL, *groups = NULL, *expiry = NULL;

  if (!key)
    return;                     /* not listed yet, or gone: as it was */
  g_set_object (&self->key, key);
  name = padlock_name_escape (padlock_key_get_name (key));
  email = padlock_name_escape (padlock_key_get_email (key));
  groups = padlock_my_key_format_fingerprint (padlock_key_get_fingerprint (key));
  expiry = expiry_text (key, now);
  gtk_label_set_text (self->name_label, *name ? name : email);
  gtk_label_set_text (self->email_label, *name ? email : "");
  gtk_widget_set_visible (GTK_WIDGET (self->email_label), *name && *email);
  gtk_label_set_text (self->fingerprint_label, groups);
  gtk_label_set_text (self->expiry_label, expiry);
  gtk_widget_set_visible (GTK_WIDGET (self->extend_button),
                          padlock_my_key_expires_soon (key, now));
}

/* Copy */

static void
on_copied (GObject *source, GAsyncResult *result, gpointer user_data)
{
  g_autoptr (PadlockMyKeyWindow) self = user_data;
  g_autoptr (GError) error = NULL;
  g_autoptr (GBytes) armor = padlock_my_key_export_finish (PADLOCK_KEYRING (source),
                                                          result, &error);
  g_autofree char *text = NULL;

  if (!self->keyring)
    return;                     /* closed meanwhile */
  if (!armor)
    {
      toast (self, error->message);
      return;
    }
  text = g_strndup (g_bytes_get_data (armor, NULL), g_bytes_get_size (armor));
  gdk_clipboard_set_text (gtk_widget_get_clipboard (GTK_WIDGET (self)), text);
  toast (self, _("Public key copied"));
}

static void
on_copy_clicked (PadlockMyKeyWindow *self)
{
  padlock_my_key_export_async (self->keyring, self->fingerprint, FALSE,
                               self->cancellable, on_copied, g_object_ref (self));
}

/* Save As…, and the backup */

typedef struct
{
  PadlockMyKeyWindow *self;
  GFile *file;
  gboolean secret;
} Saving;

static void
saving_free (Saving *saving)
{
  g_object_unref (saving->self);
  g_object_unref (saving->file);
  g_free (saving);
}

static void
on_exported_for_file (GObject *source, GAsyncResult *result, gpointer user_data)
{
  Saving *saving = user_data;
  PadlockMyKeyWindow *self = saving->self;
  g_autoptr (GError) error = NULL;
  g_autoptr (GBytes) armor = padlock_my_key_export_finish (PADLOCK_KEYRING (source),
                                                          result, &error);
  /* A secret key's file is the user's alone. */
  GFileCreateFlags flags = saving->secret ? G_FILE_CREATE_PRIVATE
                                          : G_FILE_CREATE_NONE;
  g_autofree char *name = g_file_get_basename (saving->file);
  g_autofree char *done = NULL;

  if (armor && !g_file_replace_contents (saving->file, g_bytes_get_data (armor, NULL),
                                         g_bytes_get_size (armor), NULL, FALSE,
                                         flags | G_FILE_CREATE_REPLACE_DESTINATION,
                                         NULL, NULL, &error))
    g_clear_pointer (&armor, g_bytes_unref);
  if (self->keyring && !armor)
    toast (self, error->message);
  else if (self->keyring)
    {
      /* Translators: a file's name. */
      done = g_strdup_printf (saving->secret ? _("Secret key saved in %s")
                                             : _("Public key saved in %s"), name);
      toast (self, done);
    }
  saving_free (saving);
}

static void
on_chooser_response (GtkNativeDialog *chooser, int response,
                     PadlockMyKeyWindow *self)
{
  g_autoptr (GFile) file = NULL;
  Saving *saving;

  if (response == GTK_RESPONSE_ACCEPT)
    file = gtk_file_chooser_get_file (GTK_FILE_CHOOSER (chooser));
  g_clear_object (&self->chooser);
  if (!file)
    return;
  saving = g_new0 (Saving, 1);
  saving->self = g_object_ref (self);
  saving->file = g_steal_pointer (&file);
  saving->secret = self->choosing_secret;
  padlock_my_key_export_async (self->keyring, self->fingerprint, saving->secret,
                               self->cancellable, on_exported_for_file, saving);
}

/* "Alice Example.asc": the key's name, else its email, else its key ID,
 * with no slash. */
static char *
file_name (PadlockMyKeyWindow *self, gboolean secret)
{
  const char *name = self->key ? padlock_key_get_name (self->key) : "";
  g_autofree char *stem = NULL;

  if (!*name && self->key)
    name = padlock_key_get_email (self->key);
  if (!*name)
    name = self->key ? padlock_key_get_key_id (self->key) : "key";
  stem = padlock_name_escape (name);
  g_strdelimit (stem, "/\\", '-');
  /* Translators: the file name of a secret key's backup; %s is a name. */
  return secret ? g_strdup_printf (_("%s secret key.asc"), stem)
                : g_strdup_printf ("%s.asc", stem);
}

static void
choose_file (PadlockMyKeyWindow *self, gboolean secret)
{
  g_autofree char *name = file_name (self, secret);

  if (self->chooser)
    return;
  self->choosing_secret = secret;
  self->chooser = gtk_file_chooser_native_new (secret ? _("Back Up Secret Key")
                                                      : _("Save Public Key"),
                                               GTK_WINDOW (self),
                                               GTK_FILE_CHOOSER_ACTION_SAVE,
                                               _("_Save"), _("_Cancel"));
  gtk_native_dialog_set_modal (GTK_NATIVE_DIALOG (self->chooser), TRUE);
  gtk_file_chooser_set_current_name (GTK_FILE_CHOOSER (self->chooser), name);
  g_signal_connect_object (self->chooser, "response",
                           G_CALLBACK (on_chooser_response), self, 0);
  gtk_native_dialog_show (GTK_NATIVE_DIALOG (self->chooser));
}

static void
on_save_clicked (PadlockMyKeyWindow *self)
{
  choose_file (self, FALSE);
}

static void
on_backup_response (AdwMessageDialog *dialog, const char *response,
                    PadlockMyKeyWindow *self)
{
  if (g_strcmp0 (response, "backup") == 0)
    choose_file (self, TRUE);
}

static void
on_backup_clicked (PadlockMyKeyWindow *self)
{
  GtkWidget *dialog = adw_message_dialog_new (GTK_WINDOW (self),
                                              _("Back Up Your Secret Key?"),
                                              _("Anyone with this file and your "
                                                "passphrase can read your messages "
                                                "and sign as you. Keep it where "
                                                "only you can reach it, such as a "
                                                "USB stick in a drawer."));

  adw_message_dialog_add_responses (ADW_MESSAGE_DIALOG (dialog),
                                    "cancel", _("_Cancel"),
                                    "backup", _("_Back Up…"), NULL);
  adw_message_dialog_set_response_appearance (ADW_MESSAGE_DIALOG (dialog), "backup",
                                              ADW_RESPONSE_SUGGESTED);
  adw_message_dialog_set_default_response (ADW_MESSAGE_DIALOG (dialog), "cancel");
  adw_message_dialog_set_close_response (ADW_MESSAGE_DIALOG (dialog), "cancel");
  g_signal_connect_object (dialog, "response", G_CALLBACK (on_backup_response),
                           self, 0);
  gtk_window_present (GTK_WINDOW (dialog));
}

/* Extend */

static void
on_extended (GObject *source, GAsyncResult *result, gpointer user_data)
{
  g_autoptr (PadlockMyKeyWindow) self = user_data;
  g_autoptr (GError) error = NULL;
  gint64 expires = padlock_my_key_extend_finish (PADLOCK_KEYRING (source), result,
                                                 &error);

  if (!self->keyring)
    return;
  gtk_widget_set_sensitive (GTK_WIDGET (self->extend_button), TRUE);
  if (expires < 0)
    toast (self, error->message);
  else
    toast (self, _("Your key was extended by two years"));
}

static void
on_extend_clicked (PadlockMyKeyWindow *self)
{
  gtk_widget_set_sensitive (GTK_WIDGET (self->extend_button), FALSE);
  padlock_my_key_extend_async (self->keyring, self->fingerprint,
                               self->cancellable, on_extended,
                               g_object_ref (self));
}

static void
padlock_my_key_window_dispose (GObject *object)
{
  PadlockMyKeyWindow *self = PADLOCK_MY_KEY_WINDOW (object);

  if (self->cancellable)
    g_cancellable_cancel (self->cancellable);
  g_clear_object (&self->cancellable);
  if (self->chooser)
    gtk_native_dialog_destroy (GTK_NATIVE_DIALOG (self->chooser));
  g_clear_object (&self->chooser);
  if (self->keyring)
    g_signal_handlers_disconnect_by_data (self->keyring, self);
  g_clear_object (&self->keyring);
  g_clear_object (&self->key);
  g_clear_pointer (&self->fingerprint, g_free);
  gtk_widget_dispose_template (GTK_WIDGET (self), PADLOCK_TYPE_MY_KEY_WINDOW);
  G_OBJECT_CLASS (padlock_my_key_window_parent_class)->dispose (object);
}

static void
padlock_my_key_window_class_init (PadlockMyKeyWindowClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->dispose = padlock_my_key_window_dispose;
  gtk_widget_class_set_template_from_resource (widget_class,
      "/io/github/padlock/Padlock/padlock-my-key-window.ui");
  gtk_widget_class_bind_template_child (widget_class, PadlockMyKeyWindow, toast_overlay);
  gtk_widget_class_bind_template_child (widget_class, PadlockMyKeyWindow, name_label);
  gtk_widget_class_bind_template_child (widget_class, PadlockMyKeyWindow, email_label);
  gtk_widget_class_bind_template_child (widget_class, PadlockMyKeyWindow, fingerprint_label);
  gtk_widget_class_bind_template_child (widget_class, PadlockMyKeyWindow, expiry_label);
  gtk_widget_class_bind_template_child (widget_class, PadlockMyKeyWindow, extend_button);
  gtk_widget_class_bind_template_child (widget_class, PadlockMyKeyWindow, copy_button);
  gtk_widget_class_bind_template_child (widget_class, PadlockMyKeyWindow, save_button);
  gtk_widget_class_bind_template_child (widget_class, PadlockMyKeyWindow, backup_button);
  gtk_widget_class_bind_template_callback (widget_class, on_copy_clicked);
  gtk_widget_class_bind_template_callback (widget_class, on_save_clicked);
  gtk_widget_class_bind_template_callback (widget_class, on_backup_clicked);
  gtk_widget_class_bind_template_callback (widget_class, on_extend_clicked);
}

static void
padlock_my_key_window_init (PadlockMyKeyWindow *self)
{
  gtk_widget_init_template (GTK_WIDGET (self));
  /* Their names are in the template (GTK 4.8 adds the mnemonic label). */
  padlock_accessible_keep_name (GTK_WIDGET (self->extend_button));
  padlock_accessible_keep_name (GTK_WIDGET (self->copy_button));
  padlock_accessible_keep_name (GTK_WIDGET (self->save_button));
  padlock_accessible_keep_name (GTK_WIDGET (self->backup_button));
  self->cancellable = g_cancellable_new ();
}

GtkWindow *
padlock_my_key_window_new (GtkWindow *parent, PadlockKeyring *keyring,
                           const char *fingerprint)
{
  PadlockMyKeyWindow *self;

  g_return_val_if_fail (PADLOCK_IS_KEYRING (keyring), NULL);
  g_return_val_if_fail (fingerprint != NULL, NULL);

  self = g_object_new (PADLOCK_TYPE_MY_KEY_WINDOW, "transient-for", parent, NULL);
  self->keyring = g_object_ref (keyring);
  self->fingerprint = g_strdup (fingerprint);
  g_signal_connect_object (keyring, "loaded", G_CALLBACK (sync_key), self,
                           G_CONNECT_SWAPPED);
  sync_key (self);
  return GTK_WINDOW (self);
}
