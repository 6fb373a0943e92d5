/* padlock-create-key-dialog.c - "Create Your Key" */
#include "padlock-create-key-dialog-private.h"

#include <glib/gi18n.h>
#include <string.h>

#include "padlock-accessible.h"
#include "padlock-error.h"
#include "padlock-mykey.h"
#include "padlock-name.h"


G_DEFINE_FINAL_TYPE (PadlockCreateKeyDialog, padlock_create_key_dialog, ADW_TYPE_WINDOW)

static void
show_error (PadlockCreateKeyDialog *self, const char *message)
{
  g_autofree char *shown = message ? padlock_name_escape (message) : NULL;

  gtk_label_set_text (self->error_label, shown ? shown : "");
  gtk_widget_set_visible (GTK_WIDGET (self->error_label), message != NULL);
}

/* Create is offered once what was typed makes a user ID; what is wrong
 * is said only once the email looks finished (it has a dot after '@'). */
static void
on_changed (PadlockCreateKeyDialog *self)
{
  const char *email = gtk_editable_get_text (GTK_EDITABLE (self->email_row));
  g_autoptr (GError) error = NULL;
  g_autofree char *uid =
    padlock_my_key_user_id (gtk_editable_get_text (GTK_EDITABLE (self->name_row)),
                            email, &error);

  gtk_widget_set_sensitive (GTK_WIDGET (self->create_button), uid != NULL);
  gtk_widget_set_sensitive (GTK_WIDGET (self->years_button),
                            !gtk_switch_get_active (self->never_switch));
  show_error (self, uid || !*email || !strchr (email, '@') ? NULL : error->message);
}

static void
show_done (PadlockCreateKeyDialog *self, PadlockMyKeyCreated *created)
{
  g_autofree char *groups = padlock_my_key_format_fingerprint (created->fingerprint);
  g_autofree char *where = NULL;

  self->fingerprint = g_strdup (created->fingerprint);
  gtk_label_set_text (self->fingerprint_label, groups);
  if (created->revocation_path)
    {
      g_autofree char *path = padlock_name_escape (created->revocation_path);

      /* Translators: the path of a file. */
      where = g_strdup_printf (_("GnuPG kept a revocation certificate in %s. "
                                 "Should you lose your key or your passphrase, "
                                 "it tells others not to use the key any more: "
                                 "keep a copy somewhere safe."), path);
    }
  else
    where = g_strdup (_("GnuPG kept no revocation certificate for this key."));
  gtk_label_set_text (self->revocation_label, where);
  gtk_button_set_label (self->cancel_button, _("_Close"));
  gtk_widget_set_visible (GTK_WIDGET (self->create_button), FALSE);
  gtk_stack_set_visible_child_name (self->stack, "done");
}

static void
on_created (GObject *source, GAsyncResult *result, gpointer user_data)
{
  g_autoptr (PadlockCreateKeyDialog) self = user_data;
  g_autoptr (PadlockMyKeyCreated) created = NULL;
  g_autoptr (GError) error = NULL;

  created = padlock_my_key_create_finish (PADLOCK_KEYRING (source), result, &error);
  g_clear_object (&self->cancellable);
  if (!self->keyring)
    return;                     /* closed meanwhile (disposed) */
  gtk_spinner_stop (self->spinner);
  if (created)
    {
      show_done (self, created);
      return;
    }
  gtk_stack_set_visible_child_name (self->stack, "form");
  gtk_widget_set_sensitive (GTK_WIDGET (self->create_button), TRUE);
  if (g_error_matches (error, PADLOCK_ERROR, PADLOCK_ERROR_CANCELLED))
    show_error (self, _("No key was made: the passphrase was not given."));
  else
    show_error (self, error->message);
}

static void
on_create_clicked (PadlockCreateKeyDialog *self)
{
  gint64 lifetime = 0;

  if (self->cancellable || self->fingerprint
      || !gtk_widget_get_sensitive (GTK_WIDGET (self->create_button)))
    return;
  if (!gtk_switch_get_active (self->never_switch))
    lifetime = (gint64) gtk_spin_button_get_value_as_int (self->years_button)
               * 365 * 24 * 3600;
  show_error (self, NULL);
  self->cancellable = g_cancellable_new ();
  gtk_widget_set_sensitive (GTK_WIDGET (self->create_button), FALSE);
  gtk_stack_set_visible_child_name (self->stack, "working");
  gtk_spinner_start (self->spinner);
  padlock_my_key_create_async (self->keyring,
                               gtk_editable_get_text (GTK_EDITABLE (self->name_row)),
                               gtk_editable_get_text (GTK_EDITABLE (self->email_row)),
                               lifetime, self->cancellable, on_created,
                               g_object_ref (self));
}

static void
on_cancel_clicked (PadlockCreateKeyDialog *self)
{
  if (self->cancellable)
    {
      /* Back to the form once gpg stopped (on_created). */
      g_cancellable_cancel (self->cancellable);
      return;
    }
  gtk_window_close (GTK_WINDOW (self));
}

static void
on_share_clicked (PadlockCreateKeyDialog *self)
{
  GtkWindow *parent = gtk_window_get_transient_for (GTK_WINDOW (self));
  g_autofree char *fingerprint = g_strdup (self->fingerprint);

  gtk_window_close (GTK_WINDOW (self));
  if (parent && fingerprint)
    gtk_widget_activate_action (GTK_WIDGET (parent), "win.show-my-key", "s",
                                fingerprint);
}

static void
padlock_create_key_dialog_dispose (GObject *object)
{
  PadlockCreateKeyDialog *self = PADLOCK_CREATE_KEY_DIALOG (object);

  /* Closed while gpg works: it is stopped. */
  if (self->cancellable)
    g_cancellable_cancel (self->cancellable);
  g_clear_object (&self->cancellable);
  g_clear_object (&self->keyring);
  g_clear_pointer (&self->fingerprint, g_free);
  gtk_widget_dispose_template (GTK_WIDGET (self), PADLOCK_TYPE_CREATE_KEY_DIALOG);
  G_OBJECT_CLASS (padlock_create_key_dialog_parent_class)->dispose (object);
}

static void
padlock_create_key_dialog_class_init (PadlockCreateKeyDialogClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->dispose = padlock_create_key_dialog_dispose;
  gtk_widget_class_set_template_from_resource (widget_class,
      "/io/github/padlock/Padlock/padlock-create-key-dialog.ui");
  gtk_widget_class_bind_template_child (widget_class, PadlockCreateKeyDialog, cancel_button);
  gtk_widget_class_bind_template_child (widget_class, PadlockCreateKeyDialog, create_button);
  gtk_widget_class_bind_template_child (widget_class, PadlockCreateKeyDialog, stack);
  gtk_widget_class_bind_template_child (widget_class, PadlockCreateKeyDialog, name_row);
  gtk_widget_class_bind_template_child (widget_class, PadlockCreateKeyDialog, email_row);
  gtk_widget_class_bind_template_child (widget_class, PadlockCreateKeyDialog, years_button);
  gtk_widget_class_bind_template_child (widget_class, PadlockCreateKeyDialog, never_switch);
  gtk_widget_class_bind_template_child (widget_class, PadlockCreateKeyDialog, error_label);
  gtk_widget_class_bind_template_child (widget_class, PadlockCreateKeyDialog, spinner);
  gtk_widget_class_bind_template_child (widget_class, PadlockCreateKeyDialog, fingerprint_label);
  gtk_widget_class_bind_template_child (widget_class, PadlockCreateKeyDialog, revocation_label);
  gtk_widget_class_bind_template_child (widget_class, PadlockCreateKeyDialog, share_button);
  gtk_widget_class_bind_template_callback (widget_class, on_changed);
  gtk_widget_class_bind_template_callback (widget_class, on_create_clicked);
  gtk_widget_class_bind_template_callback (widget_class, on_cancel_clicked);
  gtk_widget_class_bind_template_callback (widget_class, on_share_clicked);
}

static void
padlock_create_key_dialog_init (PadlockCreateKeyDialog *self)
{
  gtk_widget_init_template (GTK_WIDGET (self));
  padlock_accessible_keep_name (GTK_WIDGET (self->create_button));
  padlock_accessible_keep_name (GTK_WIDGET (self->share_button));
}

GtkWindow *
padlock_create_key_dialog_new (GtkWindow *parent, PadlockKeyring *keyring)
{
  PadlockCreateKeyDialog *self;

  g_return_val_if_fail (PADLOCK_IS_KEYRING (keyring), NULL);

  self = g_object_new (PADLOCK_TYPE_CREATE_KEY_DIALOG, "transient-for", parent,
                       NULL);
  self->keyring = g_object_ref (keyring);
  return GTK_WINDOW (self);
}

const char *
padlock_create_key_dialog_get_fingerprint (PadlockCreateKeyDialog *self)
{
  g_return_val_if_fail (PADLOCK_IS_CREATE_KEY_DIALOG (self), NULL);
  return self->fingerprint;
}
