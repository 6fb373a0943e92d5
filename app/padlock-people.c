/* padlock-people.c - the encrypt dialog's "People": whom to encrypt to */
#include "padlock-people-private.h"

#include <adwaita.h>
#include <glib/gi18n.h>
#include <string.h>

#include "padlock-key-input.h"
#include "padlock-list-box.h"
#include "padlock-name.h"
#include "padlock-narrow.h"
#include "padlock-person-page.h"
#include "padlock-profile.h"
#include "padlock-signature.h"

#define MAX_MATCHES 8

G_DEFINE_FINAL_TYPE (PadlockPeople, padlock_people, GTK_TYPE_BOX)

enum {
  CHANGED,
  N_SIGNALS
};

static guint signals[N_SIGNALS];

static void choice_changed (PadlockPeople *self);

/* "0x1234ABCD5678EF90": the key ID, the fingerprint's short form. */
static char *
short_fingerprint (PadlockKey *key)
{
  return g_strconcat ("0x", padlock_key_get_key_id (key), NULL);
}

/* The name to call UID's owner by in a sentence: "Bob", else the whole
 * user ID, else KEY's label; escaped and isolated (padlock_name_display:
 * it is the key's own text). */
static char *
owner_name (PadlockKey          *key,
            const PadlockUserId *uid)
{
  if (uid && *uid->name)
    return padlock_name_display (uid->name);
  if (uid && *uid->text)
    return padlock_name_display (uid->text);
  return padlock_name_display (padlock_key_get_label (key));
}

/* "bob@example.org · 0x… · Verified", or the reason it cannot be picked
 * instead of the validity; then each user ID the key also claims that is
 * not verified.  The email and validity are the named user ID's
 * (padlock_key_get_named_user_id), as the row's title is. */
static char *
key_subtitle (PadlockKey *key,
              const char *refusal)
{
  g_autofree char *fpr = short_fingerprint (key);
  g_auto(GStrv) claims = padlock_key_dup_unverified_claims (key);
  const char *email = padlock_key_get_email (key);
  GString *out = g_string_new (NULL);

  if (email && *email)
    {
      g_autofree char *shown = padlock_name_display (email);

      g_string_append_printf (out, "%s · ", shown);
    }
  g_string_append_printf (out, "%s · %s", fpr,
                          refusal ? refusal
                                  : padlock_key_get_validity_words (key));
  for (guint i = 0; claims[i]; i++)
    {
      g_autofree char *claim = padlock_name_display (claims[i]);

      g_string_append (out, " · ");
      /* Translators: another user ID of the key, which nobody the user
       * trusts has certified. */
      g_string_append_printf (out, _("also claims to be %s (not verified)"),
                              claim);
    }
  return g_string_free (out, FALSE);
}

static gboolean
is_chosen (PadlockPeople *self,
           PadlockKey    *key)
{
  for (guint i = 0; i < self->chosen->len; i++)
    if (g_str_equal (padlock_key_get_fingerprint (g_ptr_array_index (self->chosen, i)),
                     padlock_key_get_fingerprint (key)))
      return TRUE;
  return FALSE;
}

static PadlockKey *
me (PadlockPeople *self)
{
  return padlock_keyring_get_default_key (self->keyring);
}

static void
on_remove_clicked (GtkButton     *button,
                   PadlockPeople *self)
{
  PadlockKey *key = g_object_get_data (G_OBJECT (button), "padlock-key");

  g_ptr_array_remove (self->chosen, key);
  choice_changed (self);
}

/* The chosen people as rows, each with its remove button. */
static void
show_chosen (PadlockPeople *self)
{
  padlock_list_box_remove_all (self->chosen_list);
  for (guint i = 0; i < self->chosen->len; i++)
    {
      PadlockKey *key = g_ptr_array_index (self->chosen, i);
      GtkWidget *row = adw_action_row_new ();
      GtkWidget *remove = gtk_button_new_from_icon_name ("list-remove-symbolic");
      g_autofree char *subtitle = key_subtitle (key, NULL);
      /* The key's own text: escaped, and isolated where it is drawn. */
      g_autofree char *label = padlock_name_escape (padlock_key_get_label (key));
      g_autofree char *title = padlock_name_display (padlock_key_get_label (key));
      g_autofree char *remove_label = g_strdup_printf (_("Remove %s"), label);

      /* Names are text, not markup ("<bob@…>"). */
      adw_preferences_row_set_use_markup (ADW_PREFERENCES_ROW (row), FALSE);
      adw_preferences_row_set_title (ADW_PREFERENCES_ROW (row), title);
      adw_action_row_set_subtitle (ADW_ACTION_ROW (row), subtitle);
      gtk_accessible_update_property (GTK_ACCESSIBLE (row),
                                      GTK_ACCESSIBLE_PROPERTY_LABEL, label,
                                      GTK_ACCESSIBLE_PROPERTY_DESCRIPTION,
                                      subtitle, -1);
      gtk_widget_set_valign (remove, GTK_ALIGN_CENTER);
      gtk_widget_add_css_class (remove, "flat");
      gtk_widget_set_tooltip_text (remove, remove_label);
      gtk_accessible_update_property (GTK_ACCESSIBLE (remove),
                                      GTK_ACCESSIBLE_PROPERTY_LABEL,
                                      remove_label, -1);
      g_object_set_data (G_OBJECT (remove), "padlock-key", key);
      g_signal_connect (remove, "clicked", G_CALLBACK (on_remove_clicked), self);
      adw_action_row_add_suffix (ADW_ACTION_ROW (row), remove);
      gtk_list_box_append (self->chosen_list, row);
    }
  gtk_widget_set_visible (GTK_WIDGET (self->chosen_list), self->chosen->len > 0);
}

/* Each match of the search, pickable or with the reason it is not. */
static void
show_matches (PadlockPeople *self)
{
  const char *text = gtk_editable_get_text (GTK_EDITABLE (self->search_entry));
  g_autoptr(GPtrArray) found = NULL;
  guint shown = 0;

  padlock_list_box_remove_all (self->match_list);
  g_free (self->matched);
  self->matched = g_strdup (text);
  /* Pasted key text is no name: it is offered for import instead. */
  gtk_widget_set_visible (GTK_WIDGET (self->paste_import_button),
                          padlock_text_holds_key_block (text));
  if (padlock_text_holds_key_block (text))
    {
      gtk_widget_set_visible (GTK_WIDGET (self->match_list), FALSE);
      return;
    }
  if (*text)
    found = padlock_keyring_search (self->keyring, text);
  for (guint i = 0; found && i < found->len && shown < MAX_MATCHES; i++)
    {
      PadlockKey *key = g_ptr_array_index (found, i);
      g_autofree char *refusal = padlock_key_dup_refusal (key);
      g_autofree char *subtitle = NULL;
      g_autofree char *label = padlock_name_escape (padlock_key_get_label (key));
      g_autofree char *title = padlock_name_display (padlock_key_get_label (key));
      GtkWidget *row;

      if (is_chosen (self, key))
        continue;
      subtitle = key_subtitle (key, refusal);
      row = adw_action_row_new ();
      adw_preferences_row_set_use_markup (ADW_PREFERENCES_ROW (row), FALSE);
      adw_preferences_row_set_title (ADW_PREFERENCES_ROW (row), title);
      adw_action_row_set_subtitle (ADW_ACTION_ROW (row), subtitle);
      gtk_accessible_update_property (GTK_ACCESSIBLE (row),
                                      GTK_ACCESSIBLE_PROPERTY_LABEL, label,
                                      GTK_ACCESSIBLE_PROPERTY_DESCRIPTION,
                                      subtitle, -1);
      g_object_set_data_full (G_OBJECT (row), "padlock-key",
                              g_object_ref (key), g_object_unref);
      /* Shown, with its reason, but not pickable. */
      gtk_list_box_row_set_activatable (GTK_LIST_BOX_ROW (row), !refusal);
      gtk_widget_set_sensitive (row, !refusal);
      gtk_list_box_append (self->match_list, row);
      shown++;
    }
  if (*text && !shown)
    {
      GtkWidget *row = adw_action_row_new ();

      adw_preferences_row_set_title (ADW_PREFERENCES_ROW (row),
                                     _("No key in your keyring matches"));
      gtk_list_box_row_set_activatable (GTK_LIST_BOX_ROW (row), FALSE);
      gtk_list_box_append (self->match_list, row);
    }
  gtk_widget_set_visible (GTK_WIDGET (self->match_list), *text != '\0');
}

/* The matches of what the search holds now: the field tells of a change
 * only after a pause, and a key pressed before it (Down, Return) must
 * not act on the matches of what was typed before. */
static void
update_matches (PadlockPeople *self)
{
  const char *text = gtk_editable_get_text (GTK_EDITABLE (self->search_entry));

  if (g_strcmp0 (self->matched, text) != 0)
    show_matches (self);
}

/* Picked, the search is emptied and keeps the focus, for the next
 * person (the match that had it is gone). */
static void
add_person (PadlockPeople *self,
            PadlockKey    *key)
{
  if (!is_chosen (self, key))
    g_ptr_array_add (self->chosen, g_object_ref (key));
  gtk_editable_set_text (GTK_EDITABLE (self->search_entry), "");
  choice_changed (self);
  gtk_widget_grab_focus (GTK_WIDGET (self->search_entry));
}

static void
hide_warning (PadlockPeople *self)
{
  g_clear_object (&self->pending);
  gtk_widget_set_visible (self->warning_box, FALSE);
}

/* A pickable key: one that what was typed names as verified (or by its
 * whole fingerprint) is added at once; the others after the warning,
 * which names the user ID that matched (padlock_recipients_match). */
static void
pick (PadlockPeople *self,
      PadlockKey    *key)
{
  const char *typed = gtk_editable_get_text (GTK_EDITABLE (self->search_entry));
  const PadlockUserId *uid = NULL;
  PadlockRecipientMatch match = padlock_recipients_match (key, typed, TRUE, &uid);
  g_autofree char *warning = NULL;
  g_autofree char *detail = NULL;
  g_autofree char *owner = NULL;
  g_autofree char *fingerprint = NULL;

  if (match == PADLOCK_RECIPIENT_VERIFIED
      || match == PADLOCK_RECIPIENT_FINGERPRINT)
    {
      hide_warning (self);
      add_person (self, key);
      return;
    }
  if (!uid)
    uid = padlock_key_get_named_user_id (key);
  g_set_object (&self->pending, key);
  owner = owner_name (key, uid);
  warning = g_strdup_printf (_("Padlock cannot tell that this key belongs to %s"),
                             owner);
  /* In groups of four, as it is read aloud and as the key's page and
   * gpg show it. */
  fingerprint = padlock_fingerprint_grouped (padlock_key_get_fingerprint (key));
  detail = g_strdup_printf (_("Nobody you trust has certified it. Anyone can make "
                              "a key with any name on it: compare its fingerprint "
                              "with %s first, for instance on the phone: %s"),
                            owner, fingerprint);
  gtk_label_set_text (self->warning_label, warning);
  gtk_label_set_text (self->warning_detail_label, detail);
  gtk_accessible_update_property (GTK_ACCESSIBLE (self->warning_box),
                                  GTK_ACCESSIBLE_PROPERTY_LABEL, warning,
                                  GTK_ACCESSIBLE_PROPERTY_DESCRIPTION, detail,
                                  -1);
  gtk_widget_set_visible (self->warning_box, TRUE);
  /* The safe answer has the focus: Return, pressed once more after the
   * search's, must not use a key nobody verified. */
  gtk_widget_grab_focus (GTK_WIDGET (self->warning_cancel_button));
}

static void
on_match_activated (PadlockPeople *self,
                    GtkListBoxRow *row)
{
  PadlockKey *key = g_object_get_data (G_OBJECT (row), "padlock-key");

  if (key && gtk_list_box_row_get_activatable (row))
    pick (self, key);
}

/* Enter picks the first pickable match. */
static void
on_search_activate (PadlockPeople *self)
{
  update_matches (self);
  for (GtkWidget *row = gtk_widget_get_first_child (GTK_WIDGET (self->match_list));
       row; row = gtk_widget_get_next_sibling (row))
    if (gtk_list_box_row_get_activatable (GTK_LIST_BOX_ROW (row))
        && g_object_get_data (G_OBJECT (row), "padlock-key"))
      {
        on_match_activated (self, GTK_LIST_BOX_ROW (row));
        return;
      }
}

static void
on_search_changed (PadlockPeople *self)
{
  update_matches (self);
  padlock_lookup_box_set_query (self->lookup_box,
                                gtk_editable_get_text (GTK_EDITABLE (self->search_entry)));
}

/* Down from the search goes into the matches, to the first that can be
 * picked, and nowhere else: not on to "Also encrypt to me", which the
 * Return meant for a match would untick. */
static gboolean
on_search_key_pressed (PadlockPeople   *self,
                       guint            keyval,
                       guint            keycode,
                       GdkModifierType  state)
{
  if ((keyval != GDK_KEY_Down && keyval != GDK_KEY_KP_Down)
      || (state & (GDK_SHIFT_MASK | GDK_CONTROL_MASK | GDK_ALT_MASK)))
    return FALSE;
  update_matches (self);
  for (GtkWidget *row = gtk_widget_get_first_child (GTK_WIDGET (self->match_list));
       row; row = gtk_widget_get_next_sibling (row))
    if (gtk_widget_get_sensitive (row)
        && gtk_list_box_row_get_activatable (GTK_LIST_BOX_ROW (row))
        && g_object_get_data (G_OBJECT (row), "padlock-key"))
      {
        gtk_widget_grab_focus (row);
        break;
      }
  return TRUE;
}

/* Return (or space) on a match picks it, here: else it would reach the
 * dialog's default button and encrypt without the person. */
static gboolean
on_matches_key_pressed (PadlockPeople   *self,
                        guint            keyval,
                        guint            keycode,
                        GdkModifierType  state)
{
  GtkWidget *focus = gtk_root_get_focus (gtk_widget_get_root (GTK_WIDGET (self)));
  GtkWidget *row = focus ? gtk_widget_get_ancestor (focus, GTK_TYPE_LIST_BOX_ROW) : NULL;

  if (keyval != GDK_KEY_Return && keyval != GDK_KEY_KP_Enter
      && keyval != GDK_KEY_ISO_Enter && keyval != GDK_KEY_space)
    return FALSE;
  if (!row || gtk_widget_get_parent (row) != GTK_WIDGET (self->match_list))
    return FALSE;
  on_match_activated (self, GTK_LIST_BOX_ROW (row));
  return TRUE;
}

/* Past the matches' ends: Up from the first goes back to the search,
 * Down from the last stays. */
static gboolean
on_matches_keynav_failed (PadlockPeople    *self,
                          GtkDirectionType  direction)
{
  if (direction == GTK_DIR_UP)
    gtk_widget_grab_focus (GTK_WIDGET (self->search_entry));
  return direction == GTK_DIR_UP || direction == GTK_DIR_DOWN;
}

/* "Verify…": the key's page (padlock-person-page.h), over the dialog. */
static void
on_warning_verify_clicked (PadlockPeople *self)
{
  GtkRoot *root = gtk_widget_get_root (GTK_WIDGET (self));
  PadlockPersonPage *page;

  if (!self->pending)
    return;
  page = padlock_person_page_new (self->keyring,
                                  padlock_key_get_fingerprint (self->pending),
                                  GTK_IS_WINDOW (root) ? GTK_WINDOW (root) : NULL);
  if (page)
    gtk_window_present (GTK_WINDOW (page));
}

static void
on_warning_use_clicked (PadlockPeople *self)
{
  g_autoptr(PadlockKey) key = g_steal_pointer (&self->pending);

  hide_warning (self);
  if (key)
    add_person (self, key);
}

static void
on_warning_cancel_clicked (PadlockPeople *self)
{
  hide_warning (self);
}

/* What the keyring's state means for the user.  A dialog is sized when
 * it is shown, often while the keyring is still read, and may not grow
 * after: so while it is read, the section already has the layout it
 * will most likely have (no GnuPG home: the sentence and the import;
 * else the search, unusable until the keys are there). */
static void
show_state (PadlockPeople *self)
{
  PadlockKeyringState state = padlock_keyring_get_state (self->keyring);
  const char *status = NULL;
  const char *home = padlock_keyring_get_home_dir (self->keyring);
  gboolean can_import = FALSE, search;

  if (state == PADLOCK_KEYRING_LOADING && home
      && !g_file_test (home, G_FILE_TEST_IS_DIR))
    state = PADLOCK_KEYRING_NO_HOME;
  switch (state)
    {
    case PADLOCK_KEYRING_LOADING:
      status = _("Reading your GnuPG keyring…");
      break;
    case PADLOCK_KEYRING_NO_HOME:
      status = _("There is no GnuPG keyring yet, so there is nobody's key to "
                 "encrypt to.");
      can_import = TRUE;
      break;
    case PADLOCK_KEYRING_EMPTY:
      status = _("Your GnuPG keyring has no keys yet.");
      can_import = TRUE;
      break;
    case PADLOCK_KEYRING_FAILED:
      status = padlock_keyring_get_error (self->keyring)->message;
      break;
    case PADLOCK_KEYRING_READY:
    default:
      break;
    }
  gtk_label_set_text (self->status_label, status ? status : "");
  gtk_widget_set_visible (GTK_WIDGET (self->status_label), status != NULL);
  /* The import's outcome stays said, over the keyring's new listing; and
   * the button stays, for the next key. */
  if (self->import_said)
    gtk_label_set_text (self->import_hint_label, self->import_said);
  gtk_widget_set_visible (GTK_WIDGET (self->import_hint_label),
                          can_import || self->import_said);
  gtk_widget_set_visible (GTK_WIDGET (self->import_button),
                          state != PADLOCK_KEYRING_FAILED);
  /* Without keys there is nothing to hide; the search stays, as the
   * place to paste a key into. */
  search = state == PADLOCK_KEYRING_READY || state == PADLOCK_KEYRING_LOADING;
  gtk_widget_set_visible (GTK_WIDGET (self->search_entry),
                          state != PADLOCK_KEYRING_FAILED);
  gtk_widget_set_visible (GTK_WIDGET (self->hide_check), search);
  gtk_widget_set_sensitive (GTK_WIDGET (self->search_entry),
                            state != PADLOCK_KEYRING_LOADING
                            && state != PADLOCK_KEYRING_FAILED);
}

static void
show_me (PadlockPeople *self)
{
  PadlockKey *mine = me (self);

  gtk_widget_set_visible (GTK_WIDGET (self->me_check), mine != NULL);
  if (mine)
    {
      g_autofree char *name = padlock_name_display (padlock_key_get_label (mine));
      g_auto(GStrv) pieces = g_strsplit (name, "_", -1);
      g_autofree char *unmarked = g_strjoinv ("__", pieces);
      g_autofree char *label = NULL;

      /* An underscore of the name is no mnemonic: "__" draws one. */
      label = g_strdup_printf (_("Also encrypt to _me (%s)"), unmarked);
      gtk_check_button_set_label (self->me_check, label);
      padlock_check_button_wrap (self->me_check);
    }
}

/* The last recipients, chosen again once the keyring is read: those
 * still in it that can be encrypted to (they were accepted before, so
 * without the warning). */
static void
restore_last (PadlockPeople *self)
{
  g_auto(GStrv) last = NULL;

  if (self->restored
      || padlock_keyring_get_state (self->keyring) != PADLOCK_KEYRING_READY)
    return;
  self->restored = TRUE;
  last = g_settings_get_strv (self->settings, "last-recipients");
  for (guint i = 0; last[i]; i++)
    {
      PadlockKey *key = padlock_keyring_find_key (self->keyring, last[i], FALSE,
                                                  NULL);
      g_autofree char *refusal = key ? padlock_key_dup_refusal (key) : NULL;
      PadlockKey *mine = me (self);

      if (key && !refusal && !is_chosen (self, key)
          && (!mine || !g_str_equal (padlock_key_get_fingerprint (key),
                                     padlock_key_get_fingerprint (mine))))
        g_ptr_array_add (self->chosen, g_object_ref (key));
    }
}

/* The key the warning is about, from the new listing: verified meanwhile
 * (its page's "I Compared…"), it is picked again, which the warning no
 * longer stops when what was typed names it as verified. */
static void
recheck_pending (PadlockPeople *self)
{
  PadlockKey *key;

  if (!self->pending)
    return;
  key = padlock_keyring_find_key (self->keyring,
                                  padlock_key_get_fingerprint (self->pending),
                                  FALSE, NULL);
  if (!key)
    hide_warning (self);
  else if (padlock_key_is_verified (key))
    pick (self, key);
}

static void
on_keyring_loaded (PadlockPeople *self)
{
  show_state (self);
  show_me (self);
  restore_last (self);
  show_matches (self);
  recheck_pending (self);
  choice_changed (self);
}

static void
on_imported (GObject      *source,
             GAsyncResult *result,
             gpointer      user_data)
{
  g_autoptr(PadlockPeople) self = user_data;
  g_autoptr(GError) error = NULL;
  g_autoptr(PadlockKeyringImport) import =
    padlock_keyring_import_finish (PADLOCK_KEYRING (source), result, &error);

  g_free (self->import_said);
  if (import)
    self->import_said = padlock_keyring_import_describe (import);
  else
    self->import_said = padlock_key_import_failure (NULL, error);
  gtk_label_set_text (self->import_hint_label, self->import_said);
  gtk_widget_set_visible (GTK_WIDGET (self->import_hint_label), TRUE);
  gtk_widget_set_sensitive (GTK_WIDGET (self->import_button), TRUE);
  gtk_widget_set_sensitive (GTK_WIDGET (self->paste_import_button), TRUE);
}

/* The key text in the search, imported; the search is emptied. */
static void
on_paste_import_clicked (PadlockPeople *self)
{
  const char *text = gtk_editable_get_text (GTK_EDITABLE (self->search_entry));
  g_autoptr(GBytes) bytes = NULL;

  if (!padlock_text_holds_key_block (text))
    return;
  bytes = g_bytes_new (text, strlen (text));
  gtk_widget_set_sensitive (GTK_WIDGET (self->paste_import_button), FALSE);
  padlock_keyring_import_bytes_async (self->keyring, bytes, NULL, on_imported,
                                      g_object_ref (self));
  gtk_editable_set_text (GTK_EDITABLE (self->search_entry), "");
  gtk_widget_grab_focus (GTK_WIDGET (self->search_entry));
}

static void
on_import_response (GtkNativeDialog *chooser,
                    int              response,
                    PadlockPeople   *self)
{
  g_autoptr(GFile) file = NULL;

  if (response == GTK_RESPONSE_ACCEPT)
    file = gtk_file_chooser_get_file (GTK_FILE_CHOOSER (chooser));
  if (file)
    padlock_keyring_import_async (self->keyring, file, NULL, on_imported,
                                  g_object_ref (self));
  gtk_native_dialog_destroy (chooser);
  g_object_unref (chooser);
}

static void
on_import_clicked (PadlockPeople *self)
{
  GtkRoot *root = gtk_widget_get_root (GTK_WIDGET (self));
  GtkFileChooserNative *chooser =
    gtk_file_chooser_native_new (_("Import a Key"),
                                 GTK_IS_WINDOW (root) ? GTK_WINDOW (root) : NULL,
                                 GTK_FILE_CHOOSER_ACTION_OPEN, _("_Import"),
                                 NULL);
  g_autoptr(GtkFileFilter) filter = padlock_key_file_filter_new ();

  gtk_file_chooser_add_filter (GTK_FILE_CHOOSER (chooser), filter);
  gtk_native_dialog_set_modal (GTK_NATIVE_DIALOG (chooser), TRUE);
  g_signal_connect (chooser, "response", G_CALLBACK (on_import_response), self);
  gtk_native_dialog_show (GTK_NATIVE_DIALOG (chooser));
}

static gboolean
to_me (PadlockPeople *self)
{
  return me (self) != NULL && gtk_check_button_get_active (self->me_check);
}

static void
show_who (PadlockPeople *self)
{
  g_autoptr(GPtrArray) labels = g_ptr_array_new ();
  g_autofree char *who = NULL;
  g_autofree char *text = NULL;

  for (guint i = 0; i < self->chosen->len; i++)
    g_ptr_array_add (labels, (gpointer) padlock_key_get_label (g_ptr_array_index (self->chosen, i)));
  g_ptr_array_add (labels, NULL);
  who = padlock_recipients_describe_labels ((const char *const *) labels->pdata,
                                            to_me (self), self->passphrase);
  /* Translators: then "Bob <bob@…>, you, and anyone with the
   * passphrase". */
  text = g_strdup_printf (_("Who can open it: %s"), who);
  gtk_label_set_text (self->who_label, text);
  gtk_widget_set_visible (GTK_WIDGET (self->who_label),
                          self->chosen->len > 0 || to_me (self));
}

static void
on_certificates_read (GObject      *source,
                      GAsyncResult *result,
                      gpointer      user_data)
{
  PadlockRecipients *recipients = user_data;
  g_autoptr(GError) error = NULL;
  PadlockPeople *self;

  if (!padlock_recipients_load_finish (recipients, result, &error)
      && g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
    {
      padlock_recipients_unref (recipients);
      return;                   /* the choice changed meanwhile */
    }
  self = g_object_get_data (G_OBJECT (g_task_get_cancellable (G_TASK (result))),
                            "padlock-people");
  if (self && self->recipients == recipients)
    {
      g_clear_pointer (&self->format, g_free);
      if (error)
        self->format = g_strdup (error->message);
      else
        self->format = padlock_profile_for_recipients (padlock_recipients_get_profile (recipients));
      g_signal_emit (self, signals[CHANGED], 0);
    }
  padlock_recipients_unref (recipients);
}

/* The recipients of the current choice, their certificates read on a
 * worker thread for the format the files will have. */
static void
make_recipients (PadlockPeople *self)
{
  PadlockKey *mine = to_me (self) ? me (self) : NULL;

  if (self->loading)
    {
      g_object_set_data (G_OBJECT (self->loading), "padlock-people", NULL);
      g_cancellable_cancel (self->loading);
      g_clear_object (&self->loading);
    }
  g_clear_pointer (&self->recipients, padlock_recipients_unref);
  g_clear_pointer (&self->format, g_free);
  if (!self->chosen->len && !mine)
    return;
  self->recipients = padlock_recipients_new (padlock_keyring_get_home_dir (self->keyring),
                                             (PadlockKey *const *) self->chosen->pdata,
                                             self->chosen->len, mine,
                                             gtk_check_button_get_active (self->hide_check),
                                             -1);
  self->loading = g_cancellable_new ();
  /* The widget may go before the answer: the cancellable carries it,
   * and dispose cancels. */
  g_object_set_data (G_OBJECT (self->loading), "padlock-people", self);
  padlock_recipients_load_async (self->recipients, self->loading,
                                 on_certificates_read,
                                 padlock_recipients_ref (self->recipients));
}

static void
choice_changed (PadlockPeople *self)
{
  show_chosen (self);
  show_matches (self);
  show_who (self);
  make_recipients (self);
  g_signal_emit (self, signals[CHANGED], 0);
}

static void
on_option_toggled (PadlockPeople *self)
{
  choice_changed (self);
}

gboolean
padlock_people_has_recipients (PadlockPeople *self)
{
  g_return_val_if_fail (PADLOCK_IS_PEOPLE (self), FALSE);
  return self->chosen->len > 0 || to_me (self);
}

gboolean
padlock_people_has_people (PadlockPeople *self)
{
  g_return_val_if_fail (PADLOCK_IS_PEOPLE (self), FALSE);
  return self->chosen->len > 0;
}

void
padlock_people_set_passphrase (PadlockPeople *self,
                               gboolean       passphrase)
{
  g_return_if_fail (PADLOCK_IS_PEOPLE (self));

  if (self->passphrase == !!passphrase)
    return;
  self->passphrase = !!passphrase;
  show_who (self);
}

const char *
padlock_people_get_format (PadlockPeople *self)
{
  g_return_val_if_fail (PADLOCK_IS_PEOPLE (self), NULL);
  return self->format;
}

PadlockRecipients *
padlock_people_dup_recipients (PadlockPeople *self)
{
  g_autoptr(GPtrArray) fprs = g_ptr_array_new ();

  g_return_val_if_fail (PADLOCK_IS_PEOPLE (self), NULL);

  for (guint i = 0; i < self->chosen->len; i++)
    g_ptr_array_add (fprs, (gpointer) padlock_key_get_fingerprint (g_ptr_array_index (self->chosen, i)));
  g_ptr_array_add (fprs, NULL);
  g_settings_set_strv (self->settings, "last-recipients",
                       (const char *const *) fprs->pdata);
  return self->recipients ? padlock_recipients_ref (self->recipients) : NULL;
}

static void
padlock_people_dispose (GObject *object)
{
  PadlockPeople *self = PADLOCK_PEOPLE (object);

  if (self->loading)
    {
      g_object_set_data (G_OBJECT (self->loading), "padlock-people", NULL);
      g_cancellable_cancel (self->loading);
      g_clear_object (&self->loading);
    }
  g_clear_signal_handler (&self->loaded_id, self->keyring);
  gtk_widget_dispose_template (GTK_WIDGET (self), PADLOCK_TYPE_PEOPLE);
  G_OBJECT_CLASS (padlock_people_parent_class)->dispose (object);
}

static void
padlock_people_finalize (GObject *object)
{
  PadlockPeople *self = PADLOCK_PEOPLE (object);

  g_clear_pointer (&self->chosen, g_ptr_array_unref);
  g_clear_object (&self->pending);
  g_clear_pointer (&self->recipients, padlock_recipients_unref);
  g_clear_pointer (&self->format, g_free);
  g_clear_pointer (&self->matched, g_free);
  g_clear_pointer (&self->import_said, g_free);
  g_clear_object (&self->keyring);
  g_clear_object (&self->settings);
  G_OBJECT_CLASS (padlock_people_parent_class)->finalize (object);
}

static void
padlock_people_class_init (PadlockPeopleClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->dispose = padlock_people_dispose;
  object_class->finalize = padlock_people_finalize;

  signals[CHANGED] =
    g_signal_new ("changed", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST,
                  0, NULL, NULL, NULL, G_TYPE_NONE, 0);

  g_type_ensure (PADLOCK_TYPE_LOOKUP_BOX);
  gtk_widget_class_set_template_from_resource (widget_class,
      "/io/github/padlock/Padlock/padlock-people.ui");
  gtk_widget_class_bind_template_child (widget_class, PadlockPeople, lookup_box);
  gtk_widget_class_bind_template_child (widget_class, PadlockPeople, status_label);
  gtk_widget_class_bind_template_child (widget_class, PadlockPeople, import_hint_label);
  gtk_widget_class_bind_template_child (widget_class, PadlockPeople, import_button);
  gtk_widget_class_bind_template_child (widget_class, PadlockPeople, paste_import_button);
  gtk_widget_class_bind_template_child (widget_class, PadlockPeople, search_entry);
  gtk_widget_class_bind_template_child (widget_class, PadlockPeople, match_list);
  gtk_widget_class_bind_template_child (widget_class, PadlockPeople, warning_box);
  gtk_widget_class_bind_template_child (widget_class, PadlockPeople, warning_label);
  gtk_widget_class_bind_template_child (widget_class, PadlockPeople, warning_detail_label);
  gtk_widget_class_bind_template_child (widget_class, PadlockPeople, warning_use_button);
  gtk_widget_class_bind_template_child (widget_class, PadlockPeople, warning_cancel_button);
  gtk_widget_class_bind_template_child (widget_class, PadlockPeople, chosen_list);
  gtk_widget_class_bind_template_child (widget_class, PadlockPeople, me_check);
  gtk_widget_class_bind_template_child (widget_class, PadlockPeople, hide_check);
  gtk_widget_class_bind_template_child (widget_class, PadlockPeople, who_label);
  gtk_widget_class_bind_template_callback (widget_class, on_search_changed);
  gtk_widget_class_bind_template_callback (widget_class, on_search_activate);
  gtk_widget_class_bind_template_callback (widget_class, on_search_key_pressed);
  gtk_widget_class_bind_template_callback (widget_class, on_matches_keynav_failed);
  gtk_widget_class_bind_template_callback (widget_class, on_matches_key_pressed);
  gtk_widget_class_bind_template_callback (widget_class, on_match_activated);
  gtk_widget_class_bind_template_callback (widget_class, on_warning_use_clicked);
  gtk_widget_class_bind_template_callback (widget_class, on_warning_verify_clicked);
  gtk_widget_class_bind_template_callback (widget_class, on_warning_cancel_clicked);
  gtk_widget_class_bind_template_callback (widget_class, on_import_clicked);
  gtk_widget_class_bind_template_callback (widget_class, on_paste_import_clicked);
  gtk_widget_class_bind_template_callback (widget_class, on_option_toggled);
}

static void
padlock_people_init (PadlockPeople *self)
{
  self->chosen = g_ptr_array_new_with_free_func (g_object_unref);
  gtk_widget_init_template (GTK_WIDGET (self));
}

PadlockPeople *
padlock_people_new (PadlockKeyring *keyring,
                    GSettings      *settings)
{
  PadlockPeople *self;

  g_return_val_if_fail (PADLOCK_IS_KEYRING (keyring), NULL);
  g_return_val_if_fail (G_IS_SETTINGS (settings), NULL);

  self = g_object_new (PADLOCK_TYPE_PEOPLE, NULL);
  self->keyring = g_object_ref (keyring);
  self->settings = g_object_ref (settings);
  padlock_lookup_box_set_keyring (self->lookup_box, keyring);
  /* Bound before "toggled" is connected to anything that reads it. */
  g_settings_bind (settings, "hide-recipients", self->hide_check, "active",
                   G_SETTINGS_BIND_DEFAULT);
  self->loaded_id = g_signal_connect_swapped (keyring, "loaded",
                                              G_CALLBACK (on_keyring_loaded),
                                              self);
  on_keyring_loaded (self);
  return self;
}
