/* padlock-sign-as.c - "Sign as Alice <alice@…>" in the encrypt dialog */
#include "padlock-sign-as.h"

#include <glib/gi18n.h>

#include "padlock-accessible.h"
#include "padlock-name.h"
#include "padlock-signer.h"

struct _PadlockSignAs
{
  GtkBox parent_instance;

  GtkCheckButton *check;
  PadlockKeyring *keyring;
  PadlockKey *key;              /* the one offered, or NULL */
};

G_DEFINE_FINAL_TYPE (PadlockSignAs, padlock_sign_as, GTK_TYPE_BOX)

static void
sync_key (PadlockSignAs *self)
{
  g_autoptr(PadlockKey) key = padlock_signer_choose_key (self->keyring, NULL);
  g_autofree char *name = NULL;
  g_autofree char *label = NULL;
  g_autofree char *said = NULL;
  g_autofree char *escaped = NULL;
  gboolean was_offered = self->key != NULL;

  g_set_object (&self->key, key);
  gtk_widget_set_visible (GTK_WIDGET (self), key != NULL);
  if (!key)
    return;
  name = padlock_name_display (padlock_key_get_label (key));
  /* Translators: a check button of the encrypt dialog; a user ID. */
  label = g_strdup_printf (_("_Sign as %s"), name);
  gtk_check_button_set_label (self->check, label);
  /* Said without the mnemonic or the isolates. */
  escaped = padlock_name_escape (padlock_key_get_label (key));
  said = g_strdup_printf (_("Sign as %s"), escaped);
  gtk_accessible_update_property (GTK_ACCESSIBLE (self->check),
                                  GTK_ACCESSIBLE_PROPERTY_LABEL, said, -1);
  /* On by default, as gpg -se; a choice the user made stays. */
  if (!was_offered)
    gtk_check_button_set_active (self->check, TRUE);
}

static void
on_loaded (PadlockSignAs *self)
{
  sync_key (self);
}

static void
padlock_sign_as_dispose (GObject *object)
{
  PadlockSignAs *self = PADLOCK_SIGN_AS (object);

  g_clear_object (&self->keyring);
  g_clear_object (&self->key);
  G_OBJECT_CLASS (padlock_sign_as_parent_class)->dispose (object);
}

static void
padlock_sign_as_class_init (PadlockSignAsClass *klass)
{
  G_OBJECT_CLASS (klass)->dispose = padlock_sign_as_dispose;
}

static void
padlock_sign_as_init (PadlockSignAs *self)
{
  self->check = GTK_CHECK_BUTTON (gtk_check_button_new ());
  gtk_check_button_set_use_underline (self->check, TRUE);
  /* Its name is set with the key's (sync_key): the user ID escaped,
   * without the isolates the label shows. */
  padlock_accessible_keep_name (GTK_WIDGET (self->check));
  gtk_widget_set_tooltip_text (GTK_WIDGET (self->check),
                               _("Sign the files with your key, so that who "
                                 "opens them can tell they come from you"));
  gtk_box_append (GTK_BOX (self), GTK_WIDGET (self->check));
}

GtkWidget *
padlock_sign_as_new (PadlockKeyring *keyring)
{
  PadlockSignAs *self = g_object_new (PADLOCK_TYPE_SIGN_AS, NULL);

  self->keyring = g_object_ref (keyring);
  g_signal_connect_object (keyring, "loaded", G_CALLBACK (on_loaded), self,
                           G_CONNECT_SWAPPED);
  sync_key (self);
  return GTK_WIDGET (self);
}

PadlockKey *
padlock_sign_as_get_key (PadlockSignAs *self)
{
  g_return_val_if_fail (PADLOCK_IS_SIGN_AS (self), NULL);

  return self->key && gtk_check_button_get_active (self->check) ? self->key : NULL;
}
