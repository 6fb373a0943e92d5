/* padlock-person-page.c - one person's key: compare, verify, forget, remove */
#include "padlock-person-page.h"

#include <glib/gi18n.h>
#include <string.h>

#include "padlock-certify.h"
#include "padlock-name.h"
#include "padlock-remove.h"
#include "padlock-signature.h"

struct _PadlockPersonPage
{
  AdwWindow parent_instance;

  /* Template widgets */
  GtkLabel *name_label;
  GtkLabel *user_ids_label;
  GtkLabel *fingerprint_label;
  GtkLabel *validity_label;
  GtkLabel *compare_label;
  GtkWidget *actions_box;       /* none for a key of the user's own */
  GtkButton *verify_button;
  GtkButton *forget_button;
  GtkButton *remove_button;
  GtkSpinner *spinner;
  GtkLabel *error_label;

  /* Owned */
  PadlockKeyring *keyring;
  char *fingerprint;
  PadlockKey *key;              /* from the last listing */
  GCancellable *cancellable;    /* the operation under way, or NULL */
  gulong loaded_id;
};

G_DEFINE_FINAL_TYPE (PadlockPersonPage, padlock_person_page, ADW_TYPE_WINDOW)

/* FINGERPRINT in groups of four (padlock_fingerprint_grouped), five
 * to a line. */
static char *
grouped_fingerprint (const char *fingerprint)
{
  char *grouped = padlock_fingerprint_grouped (fingerprint);

  for (gsize i = 24; i < strlen (grouped); i += 25)
    grouped[i] = '\n';
  return grouped;
}

/* The name to call the key's owner by in a sentence, escaped. */
static char *
owner_name (PadlockKey *key)
{
  const char *name = padlock_key_get_name (key);

  return padlock_name_display (*name ? name : padlock_key_get_label (key));
}

static char *
user_ids_text (PadlockKey *key)
{
  GString *out = g_string_new (NULL);

  for (guint i = 0; i < padlock_key_get_n_user_ids (key); i++)
    {
      const PadlockUserId *uid = padlock_key_get_user_id (key, i);
      g_autofree char *shown = padlock_name_display (uid->text);

      if (out->len)
        g_string_append_c (out, '\n');
      if (uid->revoked)
        /* Translators: a user ID its owner revoked. */
        g_string_append_printf (out, _("%s (revoked)"), shown);
      else
        g_string_append (out, shown);
    }
  return g_string_free (out, FALSE);
}

static const char *
validity_text (PadlockKey *key)
{
  if (padlock_key_get_revoked (key))
    return _("Revoked");
  if (padlock_key_get_expired (key))
    return _("Expired");
  return padlock_key_get_validity_words (key);
}

static void
set_busy (PadlockPersonPage *self,
          gboolean           busy)
{
  gtk_spinner_set_spinning (self->spinner, busy);
  gtk_widget_set_visible (GTK_WIDGET (self->spinner), busy);
  gtk_widget_set_sensitive (self->actions_box, !busy);
}

static void
show_key (PadlockPersonPage *self)
{
  PadlockKey *key = self->key;
  gboolean mine = padlock_key_get_has_secret (key);
  gboolean verified = padlock_key_is_verified (key);
  g_autofree char *name = owner_name (key);
  g_autofree char *uids = user_ids_text (key);
  g_autofree char *grouped = grouped_fingerprint (padlock_key_get_fingerprint (key));
  g_autofree char *compare = NULL;
  g_autofree char *verify = NULL;

  gtk_window_set_title (GTK_WINDOW (self), name);
  gtk_label_set_text (self->name_label, name);
  gtk_label_set_text (self->user_ids_label, uids);
  gtk_label_set_text (self->fingerprint_label, grouped);
  gtk_label_set_text (self->validity_label, validity_text (key));
  gtk_widget_set_visible (self->actions_box, !mine);
  /* Translators: %s is the key's owner's name. */
  compare = g_strdup_printf (_("Ask %s for their fingerprint, in person or on the "
                               "phone, and compare it with this one."), name);
  gtk_label_set_text (self->compare_label, compare);
  gtk_widget_set_visible (GTK_WIDGET (self->compare_label), !mine && !verified);
  /* Translators: %s is the key's owner's name. */
  verify = g_strdup_printf (_("I Compared the Fingerprint with %s"), name);
  gtk_button_set_label (self->verify_button, verify);
  gtk_widget_set_visible (GTK_WIDGET (self->verify_button), !verified
                          && !padlock_key_get_revoked (key)
                          && !padlock_key_get_expired (key));
  gtk_widget_set_visible (GTK_WIDGET (self->forget_button), verified);
}

/* The keyring listed again: the key anew, or the page closes when it
 * is gone. */
static void
on_loaded (PadlockPersonPage *self)
{
  PadlockKey *key = padlock_keyring_find_key (self->keyring, self->fingerprint,
                                              FALSE, NULL);
  if (!key)
    {
      gtk_window_destroy (GTK_WINDOW (self));
      return;
    }
  g_set_object (&self->key, key);
  show_key (self);
}

static void
show_error (PadlockPersonPage *self,
            GError            *error)
{
  set_busy (self, FALSE);
  if (g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
    return;
  gtk_label_set_text (self->error_label, error->message);
  gtk_widget_set_visible (GTK_WIDGET (self->error_label), TRUE);
}

/* An operation's end: its error in words, or the next listing shows
 * what changed. */
static void
operation_done (GObject      *source,
                GAsyncResult *result,
                gpointer      user_data)
{
  g_autoptr(PadlockPersonPage) self = user_data;
  PadlockKeyring *keyring = PADLOCK_KEYRING (source);
  g_autoptr(GError) error = NULL;
  gpointer tag = g_task_get_source_tag (G_TASK (result));
  gboolean ok;

  if (tag == padlock_keyring_certify_local_async)
    ok = padlock_keyring_certify_local_finish (keyring, result, &error);
  else if (tag == padlock_keyring_forget_local_async)
    ok = padlock_keyring_forget_local_finish (keyring, result, NULL, &error);
  else
    ok = padlock_keyring_remove_key_finish (keyring, result, &error);
  if (!self->keyring)
    return;                     /* the page was closed */
  g_clear_object (&self->cancellable);
  if (!ok)
    show_error (self, error);
  else
    set_busy (self, FALSE);
}

static GCancellable *
start_operation (PadlockPersonPage *self)
{
  g_assert (!self->cancellable);
  gtk_widget_set_visible (GTK_WIDGET (self->error_label), FALSE);
  set_busy (self, TRUE);
  self->cancellable = g_cancellable_new ();
  return self->cancellable;
}

static void
on_verify_clicked (PadlockPersonPage *self)
{
  padlock_keyring_certify_local_async (self->keyring, self->fingerprint, NULL,
                                       start_operation (self), operation_done,
                                       g_object_ref (self));
}

static void
on_forget_clicked (PadlockPersonPage *self)
{
  padlock_keyring_forget_local_async (self->keyring, self->fingerprint,
                                      start_operation (self), operation_done,
                                      g_object_ref (self));
}

static void
on_remove_response (AdwMessageDialog  *dialog,
                    const char        *response,
                    PadlockPersonPage *self)
{
  if (!g_str_equal (response, "remove") || self->cancellable)
    return;
  padlock_keyring_remove_key_async (self->keyring, self->fingerprint,
                                    start_operation (self), operation_done,
                                    g_object_ref (self));
}

static void
on_remove_clicked (PadlockPersonPage *self)
{
  g_autofree char *name = owner_name (self->key);
  GtkWidget *dialog;

  dialog = adw_message_dialog_new (GTK_WINDOW (self), _("Remove This Key?"), NULL);
  /* Translators: %s is the key's owner's name. */
  adw_message_dialog_format_body (ADW_MESSAGE_DIALOG (dialog),
                                  _("You will no longer be able to encrypt files to %s "
                                    "or check their signatures, until you add the key again."),
                                  name);
  adw_message_dialog_add_responses (ADW_MESSAGE_DIALOG (dialog),
                                    "cancel", _("_Cancel"),
                                    "remove", _("_Remove"), NULL);
  adw_message_dialog_set_response_appearance (ADW_MESSAGE_DIALOG (dialog), "remove",
                                              ADW_RESPONSE_DESTRUCTIVE);
  adw_message_dialog_set_default_response (ADW_MESSAGE_DIALOG (dialog), "cancel");
  adw_message_dialog_set_close_response (ADW_MESSAGE_DIALOG (dialog), "cancel");
  g_signal_connect_object (dialog, "response", G_CALLBACK (on_remove_response),
                           self, 0);
  gtk_window_present (GTK_WINDOW (dialog));
}

static void
padlock_person_page_dispose (GObject *object)
{
  PadlockPersonPage *self = PADLOCK_PERSON_PAGE (object);

  if (self->cancellable)
    g_cancellable_cancel (self->cancellable);
  g_clear_signal_handler (&self->loaded_id, self->keyring);
  g_clear_object (&self->keyring);
  g_clear_object (&self->key);
  g_clear_pointer (&self->fingerprint, g_free);
  gtk_widget_dispose_template (GTK_WIDGET (self), PADLOCK_TYPE_PERSON_PAGE);
  G_OBJECT_CLASS (padlock_person_page_parent_class)->dispose (object);
}

static void
padlock_person_page_class_init (PadlockPersonPageClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->dispose = padlock_person_page_dispose;
  gtk_widget_class_set_template_from_resource (widget_class,
      "/io/github/padlock/Padlock/padlock-person-page.ui");
  gtk_widget_class_bind_template_child (widget_class, PadlockPersonPage, name_label);
  gtk_widget_class_bind_template_child (widget_class, PadlockPersonPage, user_ids_label);
  gtk_widget_class_bind_template_child (widget_class, PadlockPersonPage, fingerprint_label);
  gtk_widget_class_bind_template_child (widget_class, PadlockPersonPage, validity_label);
  gtk_widget_class_bind_template_child (widget_class, PadlockPersonPage, compare_label);
  gtk_widget_class_bind_template_child (widget_class, PadlockPersonPage, actions_box);
  gtk_widget_class_bind_template_child (widget_class, PadlockPersonPage, verify_button);
  gtk_widget_class_bind_template_child (widget_class, PadlockPersonPage, forget_button);
  gtk_widget_class_bind_template_child (widget_class, PadlockPersonPage, remove_button);
  gtk_widget_class_bind_template_child (widget_class, PadlockPersonPage, spinner);
  gtk_widget_class_bind_template_child (widget_class, PadlockPersonPage, error_label);
  gtk_widget_class_bind_template_callback (widget_class, on_verify_clicked);
  gtk_widget_class_bind_template_callback (widget_class, on_forget_clicked);
  gtk_widget_class_bind_template_callback (widget_class, on_remove_clicked);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_Escape, 0,
                                       "window.close", NULL);
}

static void
padlock_person_page_init (PadlockPersonPage *self)
{
  gtk_widget_init_template (GTK_WIDGET (self));
}

PadlockPersonPage *
padlock_person_page_new (PadlockKeyring *keyring,
                         const char     *fingerprint,
                         GtkWindow      *parent)
{
  PadlockKey *key;
  PadlockPersonPage *self;

  g_return_val_if_fail (PADLOCK_IS_KEYRING (keyring), NULL);
  g_return_val_if_fail (fingerprint != NULL, NULL);

  key = padlock_keyring_find_key (keyring, fingerprint, FALSE, NULL);
  if (!key)
    return NULL;
  self = g_object_new (PADLOCK_TYPE_PERSON_PAGE,
                       "transient-for", parent,
                       "modal", parent != NULL,
                       NULL);
  self->keyring = g_object_ref (keyring);
  self->fingerprint = g_strdup (padlock_key_get_fingerprint (key));
  self->key = g_object_ref (key);
  self->loaded_id = g_signal_connect_object (keyring, "loaded",
                                             G_CALLBACK (on_loaded), self,
                                             G_CONNECT_SWAPPED);
  show_key (self);
  /* The first step, not a selectable label (whose text focus selects). */
  if (gtk_widget_get_visible (GTK_WIDGET (self->verify_button)))
    gtk_window_set_focus (GTK_WINDOW (self), GTK_WIDGET (self->verify_button));
  else if (gtk_widget_get_visible (GTK_WIDGET (self->forget_button)))
    gtk_window_set_focus (GTK_WINDOW (self), GTK_WIDGET (self->forget_button));
  return self;
}
