/* padlock-keys-page.c - the window's "Keys" page: your keys and people */
#include "padlock-keys-page.h"

#include <adwaita.h>
#include <glib/gi18n.h>

#include "padlock-list-box.h"
#include "padlock-lookup-box.h"
#include "padlock-name.h"
#include "padlock-person-page.h"

struct _PadlockKeysPage
{
  GtkBox parent_instance;

  /* Template widgets */
  GtkSearchEntry *search_entry;
  GtkStack *content_stack;      /* "status" or "keys" */
  AdwStatusPage *status_page;
  GtkListBox *mine_list;
  GtkWidget *mine_empty;        /* "Create Your Key" */
  GtkListBox *people_list;
  GtkLabel *people_empty_label;
  PadlockLookupBox *lookup_box; /* "Search on the Internet for …" */

  /* Owned */
  PadlockKeyring *keyring;
  gulong loaded_id;
};

G_DEFINE_FINAL_TYPE (PadlockKeysPage, padlock_keys_page, GTK_TYPE_BOX)

/* "bob@example.org · 0x… · Not verified · expires 2029-01-02 ·
 * ed25519": what the row says under the name. */
static char *
row_subtitle (PadlockKey *key)
{
  const PadlockSubkey *primary = padlock_key_get_subkey (key, 0);
  const char *email = padlock_key_get_email (key);
  gint64 expires = padlock_key_get_expires (key);
  GString *out = g_string_new (NULL);

  if (*email)
    {
      g_autofree char *shown = padlock_name_display (email);

      g_string_append_printf (out, "%s · ", shown);
    }
  g_string_append_printf (out, "0x%s · ", padlock_key_get_key_id (key));
  if (padlock_key_get_revoked (key))
    g_string_append (out, _("Revoked"));
  else if (padlock_key_get_expired (key))
    g_string_append (out, _("Expired"));
  else
    g_string_append (out, padlock_key_get_validity_words (key));
  if (expires && !padlock_key_get_expired (key))
    {
      g_autoptr(GDateTime) when = g_date_time_new_from_unix_local (expires);
      g_autofree char *date = g_date_time_format (when, "%x");

      g_string_append (out, " · ");
      /* Translators: a key's expiry date. */
      g_string_append_printf (out, _("expires %s"), date);
    }
  if (primary && primary->algorithm)
    g_string_append_printf (out, " · %s", primary->algorithm);
  return g_string_free (out, FALSE);
}

static GtkWidget *
key_row (PadlockKey *key)
{
  g_autofree char *subtitle = row_subtitle (key);
  g_autofree char *title = padlock_name_display (*padlock_key_get_name (key)
                                                 ? padlock_key_get_name (key)
                                                 : padlock_key_get_label (key));
  GtkWidget *row = adw_action_row_new ();

  /* The texts are the key's own: no markup in them. */
  adw_preferences_row_set_use_markup (ADW_PREFERENCES_ROW (row), FALSE);
  adw_preferences_row_set_title (ADW_PREFERENCES_ROW (row), title);
  adw_action_row_set_subtitle (ADW_ACTION_ROW (row), subtitle);
  gtk_list_box_row_set_activatable (GTK_LIST_BOX_ROW (row), TRUE);
  adw_action_row_add_suffix (ADW_ACTION_ROW (row),
                             gtk_image_new_from_icon_name ("go-next-symbolic"));
  g_object_set_data_full (G_OBJECT (row), "padlock-key", g_object_ref (key),
                          g_object_unref);
  return row;
}

static void
show_status (PadlockKeysPage *self,
             const char      *title,
             const char      *description)
{
  adw_status_page_set_title (self->status_page, title);
  adw_status_page_set_description (self->status_page, description);
  gtk_stack_set_visible_child_name (self->content_stack, "status");
}

/* Says why there is nothing to list; FALSE when there are keys. */
static gboolean
show_keyring_state (PadlockKeysPage *self)
{
  switch (padlock_keyring_get_state (self->keyring))
    {
    case PADLOCK_KEYRING_LOADING:
      show_status (self, _("Reading Your Keys…"), NULL);
      return TRUE;
    case PADLOCK_KEYRING_FAILED:
      show_status (self, _("GnuPG Could Not List Your Keys"),
                   padlock_keyring_get_error (self->keyring)->message);
      return TRUE;
    default:
      return FALSE;
    }
}

static void
refill (PadlockKeysPage *self)
{
  GListModel *model = G_LIST_MODEL (self->keyring);
  const char *query = gtk_editable_get_text (GTK_EDITABLE (self->search_entry));
  guint n_mine = 0, n_people = 0, n_all = 0;

  padlock_list_box_remove_all (self->mine_list);
  padlock_list_box_remove_all (self->people_list);
  padlock_lookup_box_set_query (self->lookup_box, query);
  if (show_keyring_state (self))
    return;
  for (guint i = 0; i < g_list_model_get_n_items (model); i++)
    {
      g_autoptr(PadlockKey) key = g_list_model_get_item (model, i);
      gboolean mine = padlock_key_get_has_secret (key);

      n_all++;
      if (!padlock_key_matches (key, query))
        continue;
      gtk_list_box_append (mine ? self->mine_list : self->people_list, key_row (key));
      if (mine)
        n_mine++;
      else
        n_people++;
    }
  gtk_widget_set_visible (GTK_WIDGET (self->mine_list), n_mine > 0);
  gtk_widget_set_visible (self->mine_empty, n_mine == 0 && !*query);
  gtk_widget_set_visible (GTK_WIDGET (self->people_list), n_people > 0);
  gtk_label_set_text (self->people_empty_label,
                      *query ? _("No key matches the search.")
                             : _("No keys of other people yet. Paste one someone "
                                 "sent you (Ctrl+V), add its file, or drop the file "
                                 "on the window."));
  gtk_widget_set_visible (GTK_WIDGET (self->people_empty_label),
                          n_people == 0 && (n_mine == 0 || !*query));
  gtk_stack_set_visible_child_name (self->content_stack, "keys");
  (void) n_all;
}

static void
on_row_activated (GtkListBox      *list,
                  GtkListBoxRow   *row,
                  PadlockKeysPage *self)
{
  PadlockKey *key = g_object_get_data (G_OBJECT (row), "padlock-key");
  const char *fingerprint = padlock_key_get_fingerprint (key);

  if (list == self->mine_list
      && gtk_widget_activate_action (GTK_WIDGET (self), "win.show-my-key", "s",
                                     fingerprint))
    return;
  padlock_keys_page_show_person (self, fingerprint);
}

gboolean
padlock_keys_page_show_person (PadlockKeysPage *self,
                               const char      *fingerprint)
{
  GtkRoot *root;
  PadlockPersonPage *page;

  g_return_val_if_fail (PADLOCK_IS_KEYS_PAGE (self), FALSE);
  if (!self->keyring)
    return FALSE;
  root = gtk_widget_get_root (GTK_WIDGET (self));
  page = padlock_person_page_new (self->keyring, fingerprint,
                                  GTK_IS_WINDOW (root) ? GTK_WINDOW (root) : NULL);
  if (!page)
    return FALSE;
  gtk_window_present (GTK_WINDOW (page));
  return TRUE;
}

void
padlock_keys_page_focus_search (PadlockKeysPage *self)
{
  g_return_if_fail (PADLOCK_IS_KEYS_PAGE (self));
  gtk_widget_grab_focus (GTK_WIDGET (self->search_entry));
}

void
padlock_keys_page_set_keyring (PadlockKeysPage *self,
                               PadlockKeyring  *keyring)
{
  g_return_if_fail (PADLOCK_IS_KEYS_PAGE (self));
  g_return_if_fail (PADLOCK_IS_KEYRING (keyring));

  if (self->keyring == keyring)
    return;
  g_clear_signal_handler (&self->loaded_id, self->keyring);
  g_set_object (&self->keyring, keyring);
  padlock_lookup_box_set_keyring (self->lookup_box, keyring);
  self->loaded_id = g_signal_connect_object (keyring, "loaded",
                                             G_CALLBACK (refill), self,
                                             G_CONNECT_SWAPPED);
  refill (self);
}

static void
padlock_keys_page_dispose (GObject *object)
{
  PadlockKeysPage *self = PADLOCK_KEYS_PAGE (object);

  g_clear_signal_handler (&self->loaded_id, self->keyring);
  g_clear_object (&self->keyring);
  gtk_widget_dispose_template (GTK_WIDGET (self), PADLOCK_TYPE_KEYS_PAGE);
  G_OBJECT_CLASS (padlock_keys_page_parent_class)->dispose (object);
}

static void
padlock_keys_page_class_init (PadlockKeysPageClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->dispose = padlock_keys_page_dispose;
  g_type_ensure (PADLOCK_TYPE_LOOKUP_BOX);
  gtk_widget_class_set_template_from_resource (widget_class,
      "/io/github/padlock/Padlock/padlock-keys-page.ui");
  gtk_widget_class_bind_template_child (widget_class, PadlockKeysPage, lookup_box);
  gtk_widget_class_bind_template_child (widget_class, PadlockKeysPage, search_entry);
  gtk_widget_class_bind_template_child (widget_class, PadlockKeysPage, content_stack);
  gtk_widget_class_bind_template_child (widget_class, PadlockKeysPage, status_page);
  gtk_widget_class_bind_template_child (widget_class, PadlockKeysPage, mine_list);
  gtk_widget_class_bind_template_child (widget_class, PadlockKeysPage, mine_empty);
  gtk_widget_class_bind_template_child (widget_class, PadlockKeysPage, people_list);
  gtk_widget_class_bind_template_child (widget_class, PadlockKeysPage, people_empty_label);
  gtk_widget_class_bind_template_callback (widget_class, on_row_activated);
  gtk_widget_class_bind_template_callback (widget_class, refill);
}

static void
padlock_keys_page_init (PadlockKeysPage *self)
{
  gtk_widget_init_template (GTK_WIDGET (self));
}

GtkWidget *
padlock_keys_page_new (void)
{
  return g_object_new (PADLOCK_TYPE_KEYS_PAGE, NULL);
}
