/* padlock-lookup-box.c - "Search on the Internet for bob@example.org" */
#include "padlock-lookup-box.h"

#include <glib/gi18n.h>

#include "padlock-accessible.h"
#include "padlock-list-box.h"
#include "padlock-lookup.h"
#include "padlock-name.h"
#include "padlock-signature.h"

struct _PadlockLookupBox
{
  GtkBox parent_instance;

  /* Template widgets */
  GtkButton *offer_button;
  GtkLabel *offer_label;
  GtkWidget *busy_box;
  GtkSpinner *spinner;
  GtkLabel *busy_label;
  GtkButton *cancel_button;
  GtkWidget *found_box;
  GtkListBox *found_list;
  GtkButton *import_button;
  GtkLabel *message_label;

  /* Owned */
  PadlockKeyring *keyring;
  char *query;                   /* what can be looked up, or NULL */
  GCancellable *cancellable;     /* of the running step, or NULL */
  PadlockLookupResult *found;    /* what the last lookup found */
};

G_DEFINE_FINAL_TYPE (PadlockLookupBox, padlock_lookup_box, GTK_TYPE_BOX)

enum { IMPORTED, N_SIGNALS };
static guint signals[N_SIGNALS];

/* One line for the user (an error, what an import did); NULL hides it. */
static void
show_message (PadlockLookupBox *self, const char *text)
{
  gtk_label_set_text (self->message_label, text ? text : "");
  gtk_widget_set_visible (GTK_WIDGET (self->message_label), text != NULL);
}

/* What the box shows follows its state: offer, busy, found. */
static void
show_state (PadlockLookupBox *self)
{
  gboolean busy = self->cancellable != NULL;

  gtk_widget_set_visible (GTK_WIDGET (self), self->keyring && self->query);
  gtk_widget_set_visible (GTK_WIDGET (self->offer_button),
                          self->query && !busy && !self->found);
  gtk_widget_set_visible (self->busy_box, busy);
  gtk_spinner_set_spinning (self->spinner, busy);
  gtk_widget_set_visible (self->found_box, self->found != NULL);
  gtk_widget_set_sensitive (GTK_WIDGET (self->import_button), !busy);
}

static void
stop (PadlockLookupBox *self)
{
  if (self->cancellable)
    g_cancellable_cancel (self->cancellable);
  g_clear_object (&self->cancellable);
}

static void
forget_found (PadlockLookupBox *self)
{
  g_clear_pointer (&self->found, padlock_lookup_result_free);
  padlock_list_box_remove_all (self->found_list);
}

static void on_import_one_clicked (GtkButton *button, PadlockLookupBox *self);

/* A found key's row: its user IDs, fingerprint, algorithm and date; and
 * when more than one was found, "Import This Key" (two keys for one
 * address may be the person's and someone else's in their name). */
static GtkWidget *
found_row (PadlockLookupBox *self,
           guint             index)
{
  PadlockLookupKey *key = self->found->keys->pdata[index];
  GtkWidget *box = gtk_box_new (GTK_ORIENTATION_VERTICAL, 3);
  GtkWidget *row = gtk_list_box_row_new ();
  g_autofree char *grouped = padlock_fingerprint_grouped (key->fingerprint);
  g_autofree char *fingerprint = g_strdup_printf (_("Fingerprint: %s"), grouped);
  g_autoptr (GDateTime) when = g_date_time_new_from_unix_utc (key->created);
  g_autofree char *date = when ? g_date_time_format (when, "%x") : g_strdup ("?");
  /* Translators: a found key's algorithm and the day it was made. */
  g_autofree char *about = g_strdup_printf (_("%s · made %s"), key->algorithm, date);
  GtkWidget *label;

  gtk_widget_set_margin_start (box, 12);
  gtk_widget_set_margin_end (box, 12);
  gtk_widget_set_margin_top (box, 6);
  gtk_widget_set_margin_bottom (box, 6);
  for (guint i = 0; key->user_ids && key->user_ids[i]; i++)
    {
      g_autofree char *shown = padlock_name_display (key->user_ids[i]);

      label = gtk_label_new (shown);
      gtk_label_set_xalign (GTK_LABEL (label), 0);
      gtk_label_set_wrap (GTK_LABEL (label), TRUE);
      gtk_label_set_wrap_mode (GTK_LABEL (label), PANGO_WRAP_WORD_CHAR);
      if (i == 0)
        gtk_widget_add_css_class (label, "heading");
      gtk_box_append (GTK_BOX (box), label);
    }
  label = gtk_label_new (fingerprint);
  gtk_label_set_xalign (GTK_LABEL (label), 0);
  gtk_label_set_wrap (GTK_LABEL (label), TRUE);
  gtk_widget_add_css_class (label, "monospace");
  gtk_box_append (GTK_BOX (box), label);
  label = gtk_label_new (about);
  gtk_label_set_xalign (GTK_LABEL (label), 0);
  gtk_widget_add_css_class (label, "caption");
  gtk_widget_add_css_class (label, "dim-label");
  gtk_box_append (GTK_BOX (box), label);
  if (self->found->keys->len > 1)
    {
      GtkWidget *button = gtk_button_new_with_mnemonic (_("Import _This Key"));
      /* Translators: the button of one found key among several; %s is
       * its fingerprint in groups of four. */
      g_autofree char *name = g_strdup_printf (_("Import the key %s"), grouped);

      gtk_widget_set_halign (button, GTK_ALIGN_START);
      gtk_widget_set_margin_top (button, 6);
      gtk_accessible_update_property (GTK_ACCESSIBLE (button),
                                      GTK_ACCESSIBLE_PROPERTY_LABEL, name, -1);
      padlock_accessible_keep_name (button);
      g_object_set_data (G_OBJECT (button), "padlock-index", GUINT_TO_POINTER (index));
      g_signal_connect (button, "clicked", G_CALLBACK (on_import_one_clicked), self);
      gtk_box_append (GTK_BOX (box), button);
    }
  gtk_list_box_row_set_child (GTK_LIST_BOX_ROW (row), box);
  gtk_list_box_row_set_activatable (GTK_LIST_BOX_ROW (row), FALSE);
  return row;
}

static void
show_found (PadlockLookupBox *self)
{
  guint n = self->found->keys->len;
  g_autofree char *label = NULL;

  padlock_list_box_remove_all (self->found_list);
  for (guint i = 0; i < n; i++)
    gtk_list_box_append (self->found_list, found_row (self, i));
  /* Import takes what was fetched: every key shown, never one not. */
  label = n == 1 ? g_strdup (_("_Import"))
                 : g_strdup_printf (g_dngettext (NULL, "_Import %u Key",
                                                 "_Import All %u Keys", n), n);
  gtk_button_set_label (self->import_button, label);
}

typedef struct
{
  PadlockLookupBox *self;        /* a reference */
  GCancellable *cancellable;     /* the step's */
} Step;

static Step *
step_new (PadlockLookupBox *self)
{
  Step *step = g_new0 (Step, 1);

  stop (self);
  self->cancellable = g_cancellable_new ();
  step->self = g_object_ref (self);
  step->cancellable = g_object_ref (self->cancellable);
  return step;
}

/* Whether STEP is still the box's (not cancelled, replaced or disposed);
 * frees it either way, and the box's step is over. */
static gboolean
step_end (Step *step)
{
  PadlockLookupBox *self = step->self;
  gboolean current = self->cancellable == step->cancellable
                     && !g_cancellable_is_cancelled (step->cancellable);

  if (current)
    g_clear_object (&self->cancellable);
  g_object_unref (step->cancellable);
  g_object_unref (step->self);
  g_free (step);
  return current;
}

static void
on_looked_up (GObject *source, GAsyncResult *result, gpointer data)
{
  Step *step = data;
  PadlockLookupBox *self = step->self;
  g_autoptr (GError) error = NULL;
  PadlockLookupResult *found = padlock_lookup_finish (result, &error);

  g_object_ref (self);
  if (!step_end (step))
    {
      g_clear_pointer (&found, padlock_lookup_result_free);
      g_object_unref (self);
      return;
    }
  forget_found (self);
  self->found = found;
  if (found)
    show_found (self);
  show_message (self, error ? error->message : NULL);
  show_state (self);
  if (found)
    gtk_widget_grab_focus (GTK_WIDGET (self->import_button));
  g_object_unref (self);
}

void
padlock_lookup_box_search (PadlockLookupBox *self)
{
  g_autofree char *busy = NULL;
  Step *step;

  g_return_if_fail (PADLOCK_IS_LOOKUP_BOX (self));
  if (!self->keyring || !self->query || self->cancellable)
    return;
  forget_found (self);
  show_message (self, NULL);
  step = step_new (self);
  busy = g_strdup_printf (_("Searching the Internet for %s…"), self->query);
  gtk_label_set_text (self->busy_label, busy);
  padlock_lookup_async (padlock_keyring_get_home_dir (self->keyring), self->query,
                        step->cancellable, on_looked_up, step);
  show_state (self);
  gtk_widget_grab_focus (GTK_WIDGET (self->cancel_button));
}

static void
on_cancel_clicked (PadlockLookupBox *self)
{
  gboolean focused = gtk_widget_has_focus (GTK_WIDGET (self->cancel_button));

  stop (self);
  show_state (self);
  if (focused)
    gtk_widget_grab_focus (GTK_WIDGET (self->offer_button));
}

static void
on_imported (GObject *source, GAsyncResult *result, gpointer data)
{
  Step *step = data;
  PadlockLookupBox *self = g_object_ref (step->self);
  g_autoptr (GError) error = NULL;
  g_autoptr (PadlockKeyringImport) import =
    padlock_keyring_import_finish (PADLOCK_KEYRING (source), result, &error);
  g_autofree char *said = NULL;
  const char *fingerprint = NULL;

  if (!step_end (step))
    {
      g_object_unref (self);
      return;
    }
  if (import)
    {
      said = padlock_keyring_import_describe (import);
      if (import->new_fingerprints && import->new_fingerprints[0])
        fingerprint = import->new_fingerprints[0];
      else if (import->changed_fingerprints && import->changed_fingerprints[0])
        fingerprint = import->changed_fingerprints[0];
      forget_found (self);
    }
  show_message (self, import ? said : error->message);
  show_state (self);
  if (fingerprint)
    g_signal_emit (self, signals[IMPORTED], 0, fingerprint);
  g_object_unref (self);
}

static void
start_import (PadlockLookupBox *self,
              GBytes           *data)
{
  Step *step = step_new (self);

  padlock_keyring_import_bytes_async (self->keyring, data, step->cancellable,
                                      on_imported, step);
  gtk_label_set_text (self->busy_label, _("Importing…"));
  show_state (self);
}

/* The user's click: what was fetched goes into the keyring. */
static void
on_import_clicked (PadlockLookupBox *self)
{
  if (!self->found || self->cancellable)
    return;
  start_import (self, self->found->data);
}

/* One key of several: its certificate alone. */
static void
on_import_one_clicked (GtkButton        *button,
                       PadlockLookupBox *self)
{
  guint index = GPOINTER_TO_UINT (g_object_get_data (G_OBJECT (button), "padlock-index"));
  g_autoptr (GError) error = NULL;
  g_autoptr (GBytes) data = NULL;

  if (!self->found || self->cancellable || index >= self->found->keys->len)
    return;
  data = padlock_lookup_result_key_data (self->found, index, &error);
  if (!data)
    {
      show_message (self, error->message);
      return;
    }
  start_import (self, data);
}

void
padlock_lookup_box_set_query (PadlockLookupBox *self, const char *text)
{
  g_autofree char *query = NULL;
  g_autofree char *offer = NULL;

  g_return_if_fail (PADLOCK_IS_LOOKUP_BOX (self));
  query = text ? g_strstrip (g_strdup (text)) : NULL;
  if (query && !padlock_lookup_is_address (query)
      && !padlock_lookup_is_fingerprint (query))
    g_clear_pointer (&query, g_free);
  if (!g_strcmp0 (query, self->query))
    return;
  stop (self);
  forget_found (self);
  show_message (self, NULL);
  g_free (self->query);
  self->query = g_steal_pointer (&query);
  if (self->query)
    {
      offer = g_strdup_printf (_("Search on the Internet for %s"), self->query);
      gtk_label_set_text (self->offer_label, offer);
      gtk_accessible_update_property (GTK_ACCESSIBLE (self->offer_button),
                                      GTK_ACCESSIBLE_PROPERTY_LABEL, offer, -1);
    }
  show_state (self);
}

void
padlock_lookup_box_set_keyring (PadlockLookupBox *self, PadlockKeyring *keyring)
{
  g_return_if_fail (PADLOCK_IS_LOOKUP_BOX (self));
  g_return_if_fail (!keyring || PADLOCK_IS_KEYRING (keyring));

  if (self->keyring == keyring)
    return;
  stop (self);
  forget_found (self);
  g_set_object (&self->keyring, keyring);
  show_state (self);
}

gboolean
padlock_lookup_box_is_busy (PadlockLookupBox *self)
{
  g_return_val_if_fail (PADLOCK_IS_LOOKUP_BOX (self), FALSE);
  return self->cancellable != NULL;
}

static void
padlock_lookup_box_dispose (GObject *object)
{
  PadlockLookupBox *self = PADLOCK_LOOKUP_BOX (object);

  stop (self);
  g_clear_pointer (&self->found, padlock_lookup_result_free);
  g_clear_object (&self->keyring);
  gtk_widget_dispose_template (GTK_WIDGET (self), PADLOCK_TYPE_LOOKUP_BOX);
  G_OBJECT_CLASS (padlock_lookup_box_parent_class)->dispose (object);
}

static void
padlock_lookup_box_finalize (GObject *object)
{
  PadlockLookupBox *self = PADLOCK_LOOKUP_BOX (object);

  g_free (self->query);
  G_OBJECT_CLASS (padlock_lookup_box_parent_class)->finalize (object);
}

static void
padlock_lookup_box_class_init (PadlockLookupBoxClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->dispose = padlock_lookup_box_dispose;
  object_class->finalize = padlock_lookup_box_finalize;

  signals[IMPORTED] =
    g_signal_new ("imported", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST,
                  0, NULL, NULL, NULL, G_TYPE_NONE, 1, G_TYPE_STRING);

  gtk_widget_class_set_template_from_resource (widget_class,
      "/io/github/padlock/Padlock/padlock-lookup-box.ui");
  gtk_widget_class_bind_template_child (widget_class, PadlockLookupBox, offer_button);
  gtk_widget_class_bind_template_child (widget_class, PadlockLookupBox, offer_label);
  gtk_widget_class_bind_template_child (widget_class, PadlockLookupBox, busy_box);
  gtk_widget_class_bind_template_child (widget_class, PadlockLookupBox, spinner);
  gtk_widget_class_bind_template_child (widget_class, PadlockLookupBox, busy_label);
  gtk_widget_class_bind_template_child (widget_class, PadlockLookupBox, cancel_button);
  gtk_widget_class_bind_template_child (widget_class, PadlockLookupBox, found_box);
  gtk_widget_class_bind_template_child (widget_class, PadlockLookupBox, found_list);
  gtk_widget_class_bind_template_child (widget_class, PadlockLookupBox, import_button);
  gtk_widget_class_bind_template_child (widget_class, PadlockLookupBox, message_label);
  gtk_widget_class_bind_template_callback (widget_class, padlock_lookup_box_search);
  gtk_widget_class_bind_template_callback (widget_class, on_cancel_clicked);
  gtk_widget_class_bind_template_callback (widget_class, on_import_clicked);
}

static void
padlock_lookup_box_init (PadlockLookupBox *self)
{
  gtk_widget_init_template (GTK_WIDGET (self));
}

GtkWidget *
padlock_lookup_box_new (PadlockKeyring *keyring)
{
  PadlockLookupBox *self = g_object_new (PADLOCK_TYPE_LOOKUP_BOX, NULL);

  padlock_lookup_box_set_keyring (self, keyring);
  return GTK_WIDGET (self);
}
