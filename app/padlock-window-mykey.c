/* padlock-window-mykey.c - the user's own key in the window: "Create
 * Your Key" on the first page, the key's own window (win.show-my-key),
 * and the banner before it expires
 *
 * The application's keyring is asked for once the window is mapped (so
 * the first page knows whether the user has a key); each listing says
 * anew whether to offer "Create Your Key" (no secret key at all) and
 * whether the banner shows (padlock_my_key_find_expiring: the user's
 * key expires within 30 days, or has expired, and no other key of the
 * user's is fine).
 */
#include "padlock-window-private.h"

#include <glib/gi18n.h>

#include "padlock-accessible.h"
#include "padlock-create-key-dialog.h"
#include "padlock-my-key-window.h"
#include "padlock-mykey.h"
#include "padlock-name.h"

static void
sync_mykey (PadlockWindow *self)
{
  PadlockKeyring *keyring = self->keyring;
  PadlockKeyringState state = keyring ? padlock_keyring_get_state (keyring)
                                      : PADLOCK_KEYRING_LOADING;
  gint64 now = g_get_real_time () / G_USEC_PER_SEC;
  g_autoptr (PadlockKey) expiring = NULL;

  gtk_widget_set_visible (GTK_WIDGET (self->create_key_button),
                          (state == PADLOCK_KEYRING_EMPTY
                           || state == PADLOCK_KEYRING_NO_HOME
                           || state == PADLOCK_KEYRING_READY)
                          && !padlock_my_key_has_any (keyring));
  expiring = keyring && state == PADLOCK_KEYRING_READY
             ? padlock_my_key_find_expiring (keyring, now) : NULL;
  g_clear_pointer (&self->expiring_fingerprint, g_free);
  if (expiring)
    {
      gint64 expires = padlock_key_get_expires (expiring);
      g_autoptr (GDateTime) date = g_date_time_new_from_unix_local (expires);
      g_autofree char *day = g_date_time_format (date, "%x");
      g_autofree char *label = padlock_name_escape (padlock_key_get_label (expiring));
      g_autofree char *text = NULL;

      self->expiring_fingerprint = g_strdup (padlock_key_get_fingerprint (expiring));
      /* Translators: a key's name and email, then a date. */
      text = g_strdup_printf (expires <= now
                              ? _("Your key %s expired on %s. Until you extend "
                                  "it, nobody can encrypt files to you.")
                              : _("Your key %s expires on %s. Extend it, or "
                                  "people can no longer encrypt files to you."),
                              label, day);
      gtk_label_set_text (self->expiry_label, text);
    }
  /* Hidden, not only folded: a screen reader would still read it. */
  gtk_widget_set_visible (GTK_WIDGET (self->expiry_revealer), expiring != NULL);
  gtk_revealer_set_reveal_child (self->expiry_revealer, expiring != NULL);
  gtk_widget_action_set_enabled (GTK_WIDGET (self), "win.extend-my-key",
                                 expiring != NULL && !self->mykey_cancellable);
}

static void
on_map (PadlockWindow *self)
{
  PadlockKeyring *keyring = padlock_window_keys_get_keyring (self);

  if (keyring)
    {
      /* Once, however often the window is mapped. */
      g_signal_handlers_disconnect_by_func (keyring, sync_mykey, self);
      g_signal_connect_object (keyring, "loaded", G_CALLBACK (sync_mykey), self,
                               G_CONNECT_SWAPPED);
    }
  sync_mykey (self);
}

static void
create_key_action (GtkWidget  *widget,
                   const char *action_name,
                   GVariant   *parameter)
{
  PadlockWindow *self = PADLOCK_WINDOW (widget);
  PadlockKeyring *keyring = padlock_window_keys_get_keyring (self);

  if (!keyring)
    return;
  gtk_window_present (padlock_create_key_dialog_new (GTK_WINDOW (self), keyring));
}

static void
show_my_key_action (GtkWidget  *widget,
                    const char *action_name,
                    GVariant   *parameter)
{
  PadlockWindow *self = PADLOCK_WINDOW (widget);
  PadlockKeyring *keyring = padlock_window_keys_get_keyring (self);

  if (!keyring)
    return;
  gtk_window_present (padlock_my_key_window_new (GTK_WINDOW (self), keyring,
                                                 g_variant_get_string (parameter,
                                                                       NULL)));
}

static void
on_extended (GObject      *source,
             GAsyncResult *result,
             gpointer      user_data)
{
  g_autoptr (PadlockWindow) self = user_data;
  g_autoptr (GError) error = NULL;
  gint64 expires = padlock_my_key_extend_finish (PADLOCK_KEYRING (source), result,
                                                 &error);

  g_clear_object (&self->mykey_cancellable);
  if (!self->keyring)
    return;                     /* the window is gone */
  if (expires < 0)
    padlock_window_notice (self, error->message);
  else
    padlock_window_notice (self, _("Your key was extended by two years"));
  sync_mykey (self);
}

static void
extend_my_key_action (GtkWidget  *widget,
                      const char *action_name,
                      GVariant   *parameter)
{
  PadlockWindow *self = PADLOCK_WINDOW (widget);

  if (!self->keyring || !self->expiring_fingerprint || self->mykey_cancellable)
    return;
  self->mykey_cancellable = g_cancellable_new ();
  gtk_widget_action_set_enabled (widget, "win.extend-my-key", FALSE);
  padlock_my_key_extend_async (self->keyring, self->expiring_fingerprint,
                               self->mykey_cancellable, on_extended,
                               g_object_ref (self));
}

void
padlock_window_mykey_class_init (GtkWidgetClass *widget_class)
{
  gtk_widget_class_install_action (widget_class, "win.create-key", NULL,
                                   create_key_action);
  gtk_widget_class_install_action (widget_class, "win.show-my-key", "s",
                                   show_my_key_action);
  gtk_widget_class_install_action (widget_class, "win.extend-my-key", NULL,
                                   extend_my_key_action);
}

void
padlock_window_init_mykey (PadlockWindow *self)
{
  /* Named in the template, once (padlock-accessible.h leaves them be). */
  padlock_accessible_keep_name (GTK_WIDGET (self->create_key_button));
  padlock_accessible_keep_name (GTK_WIDGET (self->extend_button));
  gtk_widget_action_set_enabled (GTK_WIDGET (self), "win.extend-my-key", FALSE);
  g_signal_connect (self, "map", G_CALLBACK (on_map), NULL);
}

void
padlock_window_dispose_mykey (PadlockWindow *self)
{
  if (self->mykey_cancellable)
    g_cancellable_cancel (self->mykey_cancellable);
  g_clear_object (&self->mykey_cancellable);
  g_clear_pointer (&self->expiring_fingerprint, g_free);
}
