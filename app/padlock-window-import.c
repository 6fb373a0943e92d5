/* padlock-window-import.c - a key file dropped or opened: a row that
 * offers to import it into the GnuPG keyring
 *
 * A .asc/.gpg/.pgp holding certificates (the sniffer's
 * PL_SNIFF_PUBLIC_KEY; not a message) is not encrypted.  Its row, above
 * the jobs, names the first certificate ("Import Bob <bob@…> (0x…)"),
 * read by the engine's certificate parser, and says what the keyring
 * lacks of it (a new key, new user IDs, new subkeys), from the keyring's
 * listing.  Its button imports the file through GPGME
 * (padlock_keyring_import_async); the row then says what gpg added
 * (padlock_keyring_import_describe).
 */
#include "padlock-window-private.h"

#include <string.h>
#include <glib/gi18n.h>
#include <glib/gstdio.h>

#include "cert.h"

#include "padlock-error.h"
#include "padlock-name.h"
#include "text.h"

/* What is read of a key file bigger than this is not shown (gpg imports
 * it all the same). */
#define IMPORT_READ_MAX (16 * 1024 * 1024)

typedef struct
{
  PadlockWindow *window;        /* borrowed: the row is the window's */
  GFile *file;
  pl_cert **certs;              /* as the engine reads the file */
  size_t n_certs;
  char *label;                  /* "Bob <bob@…> (0x…)", or the file's name */
  AdwActionRow *row;
  GtkButton *button;
  gboolean busy;                /* importing */
  gboolean imported;
} ImportItem;

static void
import_item_free (gpointer data)
{
  ImportItem *item = data;

  g_object_unref (item->file);
  pl_certs_free (item->certs, item->n_certs);
  g_free (item->label);
  g_free (item);
}

static char *
cert_fingerprint (const pl_cert *cert)
{
  char hex[2 * PL_FPR_MAX + 3];

  pl_fpr_format (cert->primary.key.fpr, cert->primary.key.fpr_len, hex);
  return g_ascii_strup (hex + 2, -1);
}

/* "Bob <bob@example.org> (0x…)": the user ID to show and the key ID (a
 * v4 fingerprint's last 16 digits, a v6 one's first 16). */
static char *
cert_label (const pl_cert *cert)
{
  g_autofree char *fpr = cert_fingerprint (cert);
  g_autofree char *uid_escaped = NULL;
  gsize len = strlen (fpr);
  const char *key_id = len == 40 ? fpr + 24 : fpr;
  const pl_cert_uid *uid = pl_cert_user_id (cert);

  if (!uid || !uid->len)
    return g_strdup_printf ("0x%.16s", key_id);
  /* A hostile user ID is only text: escaped, whole. */
  uid_escaped = pl_text_escape_dup ((const char *) uid->data, uid->len, 0);
  if (!uid_escaped)
    g_error ("out of memory");
  return g_strdup_printf ("%s (0x%.16s)", uid_escaped, key_id);
}

/* Counts what the keyring does not hold of ITEM's certificates. */
static void
count_new (ImportItem *item,
           guint      *keys,
           guint      *uids,
           guint      *subkeys)
{
  *keys = *uids = *subkeys = 0;
  for (size_t i = 0; i < item->n_certs; i++)
    {
      const pl_cert *cert = item->certs[i];
      g_autofree char *fpr = cert_fingerprint (cert);
      PadlockKey *key = padlock_keyring_find_key (item->window->keyring, fpr,
                                                  FALSE, NULL);
      const char * const *known;

      if (!key)
        {
          (*keys)++;
          continue;
        }
      known = padlock_key_get_user_ids (key);
      for (size_t u = 0; u < cert->n_uids; u++)
        {
          g_autofree char *uid = NULL;

          if (cert->uids[u].tag != 13)
            continue;
          uid = g_strndup ((const char *) cert->uids[u].data, cert->uids[u].len);
          if (!known || !g_strv_contains (known, uid))
            (*uids)++;
        }
      for (size_t s = 0; s < cert->n_subkeys; s++)
        {
          char hex[2 * PL_FPR_MAX + 3];

          pl_fpr_format (cert->subkeys[s].key.fpr, cert->subkeys[s].key.fpr_len,
                         hex);
          if (!padlock_key_find_subkey (key, hex + 2))
            (*subkeys)++;
        }
    }
}

/* "1 new key, 2 new user IDs" from the counts (KEYS, UIDS, SUBKEYS)
 * of what an import would add; NULL when all are 0.  (What an import
 * did add is padlock_keyring_import_describe's to say.) */
static char *
describe_counts (guint keys,
                 guint uids,
                 guint subkeys)
{
  GString *text = g_string_new (NULL);
  char *parts[3] = {
    keys ? g_strdup_printf (g_dngettext (NULL, "%u new key", "%u new keys", keys),
                            keys) : NULL,
    uids ? g_strdup_printf (g_dngettext (NULL, "%u new user ID", "%u new user IDs",
                                         uids), uids) : NULL,
    subkeys ? g_strdup_printf (g_dngettext (NULL, "%u new subkey", "%u new subkeys",
                                            subkeys), subkeys) : NULL,
  };

  for (guint i = 0; i < G_N_ELEMENTS (parts); i++)
    {
      if (!parts[i])
        continue;
      if (text->len)
        g_string_append (text, ", ");
      g_string_append (text, parts[i]);
      g_free (parts[i]);
    }
  if (!text->len)
    {
      g_string_free (text, TRUE);
      return NULL;
    }
  return g_string_free (text, FALSE);
}

/* Whether ITEM's file holds a secret key, which the keyring would
 * refuse (padlock_keyring_import_async): the row says so at once. */
static gboolean
holds_secret_key (ImportItem *item)
{
  for (size_t i = 0; i < item->n_certs; i++)
    {
      if (item->certs[i]->primary.secret)
        return TRUE;
      for (size_t s = 0; s < item->certs[i]->n_subkeys; s++)
        if (item->certs[i]->subkeys[s].secret)
          return TRUE;
    }
  return FALSE;
}

/* The row before the import: what it would add. */
static void
show_offer (ImportItem *item)
{
  g_autofree char *title = NULL;
  g_autofree char *news = NULL;
  g_autofree char *subtitle = NULL;
  g_autofree char *said = NULL;
  guint keys, uids, subkeys;

  if (item->imported || item->busy)
    return;
  if (item->n_certs > 1)
    /* Translators: a key file's row; %s is "Name <email> (0x…)". */
    title = g_strdup_printf (g_dngettext (NULL, "Import %s and %u more",
                                          "Import %s and %u more",
                                          item->n_certs - 1),
                             item->label, (guint) item->n_certs - 1);
  else
    /* Translators: a key file's row; %s is "Name <email> (0x…)". */
    title = g_strdup_printf (_("Import %s"), item->label);
  adw_preferences_row_set_title (ADW_PREFERENCES_ROW (item->row), title);
  if (holds_secret_key (item))
    {
      adw_action_row_set_subtitle (item->row, padlock_keyring_secret_refusal ());
      gtk_widget_set_visible (GTK_WIDGET (item->button), FALSE);
      return;
    }
  if (!item->window->keyring
      || padlock_keyring_get_state (item->window->keyring) == PADLOCK_KEYRING_LOADING)
    subtitle = g_strdup (_("Reading your keyring…"));
  else
    {
      count_new (item, &keys, &uids, &subkeys);
      news = describe_counts (keys, uids, subkeys);
      subtitle = news ? g_strdup_printf (_("New to your keyring: %s"), news)
                      : g_strdup (_("Already in your keyring: nothing new"));
    }
  adw_action_row_set_subtitle (item->row, subtitle);
  gtk_widget_set_visible (GTK_WIDGET (item->button), TRUE);
  said = g_strdup_printf (_("Import %s"), item->label);
  gtk_accessible_update_property (GTK_ACCESSIBLE (item->button),
                                  GTK_ACCESSIBLE_PROPERTY_LABEL, said, -1);
}

static void
on_imported (GObject      *source,
             GAsyncResult *result,
             gpointer      user_data)
{
  GtkWidget *row = user_data;
  ImportItem *item = g_object_get_data (G_OBJECT (row), "padlock-import");
  g_autoptr(PadlockKeyringImport) import = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *subtitle = NULL;

  import = padlock_keyring_import_finish (PADLOCK_KEYRING (source), result,
                                          &error);
  if (!item || !gtk_widget_get_parent (row))
    {
      g_object_unref (row);
      return;                   /* the window went */
    }
  item->busy = FALSE;
  if (!import)
    {
      g_autofree char *reason = padlock_name_escape (error->message);

      /* Translators: the key file's row after gpg refused to import it. */
      subtitle = g_strdup_printf (_("Could not import it: %s"), reason);
      gtk_widget_set_sensitive (GTK_WIDGET (item->button), TRUE);
    }
  else
    {
      item->imported = TRUE;
      /* The one wording of an import (the window's paste, the encrypt
       * dialog): "Added Bob <bob@…>." */
      subtitle = padlock_keyring_import_describe (import);
      adw_preferences_row_set_title (ADW_PREFERENCES_ROW (item->row), item->label);
      gtk_widget_set_visible (GTK_WIDGET (item->button), FALSE);
    }
  adw_action_row_set_subtitle (item->row, subtitle);
  g_object_unref (row);
}

static void
on_import_clicked (GtkButton  *button,
                   ImportItem *item)
{
  if (item->busy || item->imported || !item->window->keyring)
    return;
  item->busy = TRUE;
  gtk_widget_set_sensitive (GTK_WIDGET (button), FALSE);
  adw_action_row_set_subtitle (item->row, _("Importing…"));
  padlock_keyring_import_async (item->window->keyring, item->file, NULL,
                                on_imported, g_object_ref (item->row));
}

/* Reads FILE's certificates; FALSE when the engine finds none (it is then
 * treated as any other file). */
static gboolean
read_certs (ImportItem *item)
{
  g_autofree char *data = NULL;
  g_autofree char *path = g_file_get_path (item->file);
  gsize len = 0;
  GStatBuf st;

  if (!path || g_stat (path, &st) != 0 || st.st_size > IMPORT_READ_MAX
      || !g_file_get_contents (path, &data, &len, NULL))
    return FALSE;
  if (pl_certs_read ((const uint8_t *) data, len, &item->certs, &item->n_certs)
      || !item->n_certs)
    return FALSE;
  item->label = cert_label (item->certs[0]);
  return TRUE;
}

gboolean
padlock_window_offer_import (PadlockWindow *self,
                             GFile         *file)
{
  ImportItem *item = g_new0 (ImportItem, 1);
  GtkWidget *icon;

  item->window = self;
  item->file = g_object_ref (file);
  if (!padlock_window_keys_get_keyring (self) || !read_certs (item))
    {
      import_item_free (item);
      return FALSE;
    }
  item->row = ADW_ACTION_ROW (adw_action_row_new ());
  /* A user ID is text, never markup ("<bob@…>"). */
  adw_preferences_row_set_use_markup (ADW_PREFERENCES_ROW (item->row), FALSE);
  icon = gtk_image_new_from_icon_name ("contact-new-symbolic");
  adw_action_row_add_prefix (item->row, icon);
  item->button = GTK_BUTTON (gtk_button_new_with_mnemonic (_("_Import")));
  gtk_widget_set_valign (GTK_WIDGET (item->button), GTK_ALIGN_CENTER);
  gtk_widget_add_css_class (GTK_WIDGET (item->button), "suggested-action");
  adw_action_row_add_suffix (item->row, GTK_WIDGET (item->button));
  adw_action_row_set_activatable_widget (item->row, GTK_WIDGET (item->button));
  g_signal_connect (item->button, "clicked", G_CALLBACK (on_import_clicked), item);
  g_object_set_data_full (G_OBJECT (item->row), "padlock-import", item,
                          import_item_free);
  gtk_list_box_append (self->imports_list, GTK_WIDGET (item->row));
  gtk_widget_set_visible (GTK_WIDGET (self->imports_list), TRUE);
  show_offer (item);
  padlock_window_update_summary (self);
  return TRUE;
}

void
padlock_window_imports_refresh (PadlockWindow *self)
{
  for (GtkWidget *row = gtk_widget_get_first_child (GTK_WIDGET (self->imports_list));
       row; row = gtk_widget_get_next_sibling (row))
    {
      ImportItem *item = g_object_get_data (G_OBJECT (row), "padlock-import");

      if (item)
        show_offer (item);
    }
}

gboolean
padlock_window_has_imports (PadlockWindow *self)
{
  return gtk_widget_get_first_child (GTK_WIDGET (self->imports_list)) != NULL;
}
