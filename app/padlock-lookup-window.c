/* padlock-lookup-window.c - "Look Up Key": an unknown signer's key */
#include "padlock-lookup-window.h"

#include <glib/gi18n.h>

#include "padlock-signature.h"
#include "padlock-window.h"

struct _PadlockLookupWindow
{
  AdwWindow parent_instance;

  PadlockLookupBox *box;
  GtkWidget *check_button;       /* "Check the Signature Again" */
  GFile *signed_file;
};

G_DEFINE_FINAL_TYPE (PadlockLookupWindow, padlock_lookup_window, ADW_TYPE_WINDOW)

static void
on_imported (PadlockLookupWindow *self, const char *fingerprint)
{
  gtk_widget_set_visible (self->check_button, self->signed_file != NULL);
  if (self->signed_file)
    gtk_widget_grab_focus (self->check_button);
}

static void
on_check_clicked (PadlockLookupWindow *self)
{
  GtkWindow *parent = gtk_window_get_transient_for (GTK_WINDOW (self));

  if (PADLOCK_IS_WINDOW (parent) && self->signed_file)
    padlock_window_add_files (PADLOCK_WINDOW (parent), &self->signed_file, 1,
                              PADLOCK_OPEN_AUTO);
  gtk_window_destroy (GTK_WINDOW (self));
}

static GtkWidget *
wrapped_label (const char *text, const char *css_class)
{
  GtkWidget *label = gtk_label_new (text);

  gtk_label_set_wrap (GTK_LABEL (label), TRUE);
  gtk_label_set_wrap_mode (GTK_LABEL (label), PANGO_WRAP_WORD_CHAR);
  gtk_label_set_xalign (GTK_LABEL (label), 0);
  gtk_label_set_max_width_chars (GTK_LABEL (label), 40);
  if (css_class)
    gtk_widget_add_css_class (label, css_class);
  return label;
}

static void
build (PadlockLookupWindow *self, PadlockKeyring *keyring, const char *fingerprint)
{
  GtkWidget *outer = gtk_box_new (GTK_ORIENTATION_VERTICAL, 0);
  GtkWidget *content = gtk_box_new (GTK_ORIENTATION_VERTICAL, 12);
  g_autofree char *grouped = padlock_fingerprint_grouped (fingerprint);
  g_autofree char *said = g_strdup_printf (_("Fingerprint: %s"), grouped);

  gtk_box_append (GTK_BOX (outer), adw_header_bar_new ());
  gtk_widget_set_margin_start (content, 18);
  gtk_widget_set_margin_end (content, 18);
  gtk_widget_set_margin_top (content, 12);
  gtk_widget_set_margin_bottom (content, 18);
  gtk_box_append (GTK_BOX (content),
                  wrapped_label (_("The file was signed by a key that is not in "
                                   "your keyring."), "heading"));
  gtk_box_append (GTK_BOX (content), wrapped_label (said, "monospace"));
  self->box = PADLOCK_LOOKUP_BOX (padlock_lookup_box_new (keyring));
  gtk_box_append (GTK_BOX (content), GTK_WIDGET (self->box));
  self->check_button = gtk_button_new_with_mnemonic (_("_Check the Signature Again"));
  gtk_widget_set_halign (self->check_button, GTK_ALIGN_END);
  gtk_widget_add_css_class (self->check_button, "suggested-action");
  gtk_widget_set_visible (self->check_button, FALSE);
  g_signal_connect_swapped (self->check_button, "clicked",
                            G_CALLBACK (on_check_clicked), self);
  gtk_box_append (GTK_BOX (content), self->check_button);
  gtk_box_append (GTK_BOX (outer), content);
  adw_window_set_content (ADW_WINDOW (self), outer);
  g_signal_connect_object (self->box, "imported", G_CALLBACK (on_imported),
                           self, G_CONNECT_SWAPPED);
}

static void
padlock_lookup_window_dispose (GObject *object)
{
  PadlockLookupWindow *self = PADLOCK_LOOKUP_WINDOW (object);

  g_clear_object (&self->signed_file);
  G_OBJECT_CLASS (padlock_lookup_window_parent_class)->dispose (object);
}

static void
padlock_lookup_window_class_init (PadlockLookupWindowClass *klass)
{
  G_OBJECT_CLASS (klass)->dispose = padlock_lookup_window_dispose;
  gtk_widget_class_add_binding_action (GTK_WIDGET_CLASS (klass), GDK_KEY_Escape,
                                       0, "window.close", NULL);
}

static void
padlock_lookup_window_init (PadlockLookupWindow *self)
{
  gtk_window_set_title (GTK_WINDOW (self), _("Look Up Key"));
  gtk_window_set_default_size (GTK_WINDOW (self), 460, -1);
  gtk_window_set_modal (GTK_WINDOW (self), TRUE);
}

PadlockLookupWindow *
padlock_lookup_window_new (PadlockKeyring *keyring, const char *fingerprint,
                           GFile *signed_file, GtkWindow *parent)
{
  PadlockLookupWindow *self;

  g_return_val_if_fail (PADLOCK_IS_KEYRING (keyring), NULL);
  g_return_val_if_fail (fingerprint != NULL, NULL);

  self = g_object_new (PADLOCK_TYPE_LOOKUP_WINDOW, NULL);
  if (parent)
    gtk_window_set_transient_for (GTK_WINDOW (self), parent);
  self->signed_file = signed_file ? g_object_ref (signed_file) : NULL;
  build (self, keyring, fingerprint);
  padlock_lookup_box_set_query (self->box, fingerprint);
  /* The user asked for it: "Look Up Key…". */
  padlock_lookup_box_search (self->box);
  return self;
}

PadlockLookupBox *
padlock_lookup_window_get_box (PadlockLookupWindow *self)
{
  g_return_val_if_fail (PADLOCK_IS_LOOKUP_WINDOW (self), NULL);
  return self->box;
}
