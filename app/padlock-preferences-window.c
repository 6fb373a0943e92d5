/* padlock-preferences-window.c - the settings, in plain words */
#include "padlock-preferences-window-private.h"

#include <glib/gi18n.h>

#include "job.h"
#include "padlock-profile.h"
#include "algo.h"
#include "padlock-settings.h"


G_DEFINE_FINAL_TYPE (PadlockPreferencesWindow, padlock_preferences_window,
                     ADW_TYPE_PREFERENCES_WINDOW)

/* In the order of the rows' models. */
static const char *const compression_names[] = {
  "none", "zip", "zlib", "bzip2", NULL
};
static const char *profile_names[8];

static gboolean
name_to_index (GValue   *value,
               GVariant *variant,
               gpointer  user_data)
{
  const char *const *names = user_data;
  const char *name = g_variant_get_string (variant, NULL);

  for (guint i = 0; names[i]; i++)
    if (!g_strcmp0 (names[i], name))
      {
        g_value_set_uint (value, i);
        return TRUE;
      }
  g_value_set_uint (value, 0);
  return TRUE;
}

static GVariant *
index_to_name (const GValue       *value,
               const GVariantType *type,
               gpointer            user_data)
{
  const char *const *names = user_data;
  guint index = g_value_get_uint (value);

  for (guint i = 0; names[i]; i++)
    if (i == index)
      return g_variant_new_string (names[i]);
  return NULL;
}

static void
bind_choice (PadlockPreferencesWindow *self,
             const char               *key,
             AdwComboRow              *row,
             const char *const        *names)
{
  g_settings_bind_with_mapping (self->settings, key, row, "selected",
                                G_SETTINGS_BIND_DEFAULT,
                                name_to_index, index_to_name,
                                g_strdupv ((char **) names),
                                (GDestroyNotify) g_strfreev);
}

/* The values the schema allows KEY (an enumerated string), in order. */
static GStrv
schema_choices (GSettings  *settings,
                const char *key)
{
  g_autoptr(GSettingsSchema) schema = NULL;
  g_autoptr(GSettingsSchemaKey) schema_key = NULL;
  g_autoptr(GVariant) range = NULL;
  g_autoptr(GVariant) values = NULL;
  const char *type = NULL;

  g_object_get (settings, "settings-schema", &schema, NULL);
  schema_key = g_settings_schema_get_key (schema, key);
  range = g_settings_schema_key_get_range (schema_key);
  g_variant_get (range, "(&sv)", &type, &values);
  g_assert (g_str_equal (type, "enum"));
  return g_variant_dup_strv (values, NULL);
}

/* The cipher row: the schema's choices, named by the core's one cipher
 * table (pl_cipher_name). */
static void
bind_cipher (PadlockPreferencesWindow *self)
{
  g_auto(GStrv) names = schema_choices (self->settings, "cipher");
  g_autoptr(GtkStringList) labels = gtk_string_list_new (NULL);

  for (guint i = 0; names[i]; i++)
    gtk_string_list_append (labels,
                            pl_cipher_name (pl_cipher_from_name (names[i])));
  adw_combo_row_set_model (self->cipher_row, G_LIST_MODEL (labels));
  bind_choice (self, "cipher", self->cipher_row, (const char *const *) names);
}

static void
update_profile_subtitle (PadlockPreferencesWindow *self)
{
  size_t n;
  guint selected = adw_combo_row_get_selected (self->profile_row);

  pl_profiles (&n);
  if (selected < n)
    {
      g_autofree char *details = padlock_profile_details ((int) selected);
      adw_action_row_set_subtitle (ADW_ACTION_ROW (self->profile_row), details);
    }
}

static void
update_folder (PadlockPreferencesWindow *self)
{
  g_autofree char *folder = g_settings_get_string (self->settings, "output-folder");

  if (*folder)
    {
      g_autoptr(GFile) file = g_file_new_for_path (folder);
      g_autofree char *name = g_file_get_parse_name (file);
      adw_action_row_set_subtitle (ADW_ACTION_ROW (self->folder_row), name);
    }
  else
    adw_action_row_set_subtitle (ADW_ACTION_ROW (self->folder_row),
                                 _("Next to each file"));
  gtk_widget_set_visible (self->folder_reset_button, *folder != '\0');
}

static void
on_chooser_response (GtkNativeDialog          *chooser,
                     int                       response,
                     PadlockPreferencesWindow *self)
{
  if (response == GTK_RESPONSE_ACCEPT)
    {
      g_autoptr(GFile) folder = gtk_file_chooser_get_file (GTK_FILE_CHOOSER (chooser));
      g_autofree char *path = folder ? g_file_get_path (folder) : NULL;

      if (path)
        g_settings_set_string (self->settings, "output-folder", path);
    }
  g_clear_object (&self->chooser);
}

static void
on_folder_clicked (PadlockPreferencesWindow *self)
{
  if (self->chooser)
    return;
  self->chooser = gtk_file_chooser_native_new (_("Choose the Output Folder"),
                                               GTK_WINDOW (self),
                                               GTK_FILE_CHOOSER_ACTION_SELECT_FOLDER,
                                               _("_Select"), _("_Cancel"));
  gtk_native_dialog_set_modal (GTK_NATIVE_DIALOG (self->chooser), TRUE);
  g_signal_connect_object (self->chooser, "response",
                           G_CALLBACK (on_chooser_response), self, 0);
  gtk_native_dialog_show (GTK_NATIVE_DIALOG (self->chooser));
}

static void
on_folder_reset_clicked (PadlockPreferencesWindow *self)
{
  g_settings_set_string (self->settings, "output-folder", "");
}

/* 0 files at once is "Automatic" (one per core), in words, both ways. */
static gboolean
on_concurrency_output (GtkSpinButton *spin)
{
  if (gtk_adjustment_get_value (gtk_spin_button_get_adjustment (spin)) != 0)
    return FALSE;
  gtk_editable_set_text (GTK_EDITABLE (spin), _("Automatic"));
  return TRUE;
}

static int
on_concurrency_input (GtkSpinButton *spin,
                      double        *value)
{
  const char *text = gtk_editable_get_text (GTK_EDITABLE (spin));

  if (g_strcmp0 (text, _("Automatic")) != 0)
    return FALSE;
  *value = 0;
  return TRUE;
}

static void
padlock_preferences_window_dispose (GObject *object)
{
  PadlockPreferencesWindow *self = (PadlockPreferencesWindow *) object;

  if (self->chooser)
    gtk_native_dialog_destroy (GTK_NATIVE_DIALOG (self->chooser));
  g_clear_object (&self->chooser);
  g_clear_object (&self->settings);
  gtk_widget_dispose_template (GTK_WIDGET (self), PADLOCK_TYPE_PREFERENCES_WINDOW);

  G_OBJECT_CLASS (padlock_preferences_window_parent_class)->dispose (object);
}

static void
padlock_preferences_window_class_init (PadlockPreferencesWindowClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->dispose = padlock_preferences_window_dispose;

  gtk_widget_class_set_template_from_resource (widget_class,
      "/io/github/padlock/Padlock/padlock-preferences-window.ui");
  gtk_widget_class_bind_template_child (widget_class, PadlockPreferencesWindow, profile_row);
  gtk_widget_class_bind_template_child (widget_class, PadlockPreferencesWindow, profile_list);
  gtk_widget_class_bind_template_child (widget_class, PadlockPreferencesWindow, cipher_row);
  gtk_widget_class_bind_template_child (widget_class, PadlockPreferencesWindow, compression_row);
  gtk_widget_class_bind_template_child (widget_class, PadlockPreferencesWindow, armor_switch);
  gtk_widget_class_bind_template_child (widget_class, PadlockPreferencesWindow, folder_row);
  gtk_widget_class_bind_template_child (widget_class, PadlockPreferencesWindow, folder_reset_button);
  gtk_widget_class_bind_template_child (widget_class, PadlockPreferencesWindow, delete_switch);
  gtk_widget_class_bind_template_child (widget_class, PadlockPreferencesWindow, hide_names_switch);
  gtk_widget_class_bind_template_child (widget_class, PadlockPreferencesWindow, unpack_switch);
  gtk_widget_class_bind_template_child (widget_class, PadlockPreferencesWindow, concurrency_spin);
  gtk_widget_class_bind_template_callback (widget_class, on_folder_clicked);
  gtk_widget_class_bind_template_callback (widget_class, on_folder_reset_clicked);
  gtk_widget_class_bind_template_callback (widget_class, on_concurrency_output);
  gtk_widget_class_bind_template_callback (widget_class, on_concurrency_input);

  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_Escape, 0,
                                       "window.close", NULL);
}

/* Open Without Saving's memory (issue 38): the choices, in octets. */
static const guint64 open_limits[] = {
  G_GUINT64_CONSTANT (256) << 20, G_GUINT64_CONSTANT (512) << 20,
  G_GUINT64_CONSTANT (1) << 30, G_GUINT64_CONSTANT (2) << 30,
  G_GUINT64_CONSTANT (4) << 30, G_GUINT64_CONSTANT (8) << 30,
};

/* The largest choice not above the setting (a value set elsewhere, with
 * gsettings, shows as the choice that holds it). */
static gboolean
limit_to_index (GValue   *value,
                GVariant *variant,
                gpointer  user_data)
{
  guint64 limit = g_variant_get_uint64 (variant);
  guint index = 0;

  for (guint i = 0; i < G_N_ELEMENTS (open_limits); i++)
    if (open_limits[i] <= limit)
      index = i;
  g_value_set_uint (value, index);
  return TRUE;
}

static GVariant *
index_to_limit (const GValue       *value,
                const GVariantType *type,
                gpointer            user_data)
{
  guint index = g_value_get_uint (value);

  if (index >= G_N_ELEMENTS (open_limits))
    return NULL;
  return g_variant_new_uint64 (open_limits[index]);
}

static GtkWidget *
expansion_row (PadlockPreferencesWindow *self)
{
  GtkWidget *row = adw_action_row_new ();
  GtkWidget *sw = gtk_switch_new ();

  adw_preferences_row_set_title (ADW_PREFERENCES_ROW (row),
                                 _("_Refuse Decompression Bombs"));
  adw_preferences_row_set_use_underline (ADW_PREFERENCES_ROW (row), TRUE);
  adw_action_row_set_subtitle (ADW_ACTION_ROW (row),
                               _("Stop a file that expands more than "
                                 "1000-fold past 1 GiB, and write nothing"));
  gtk_widget_set_valign (sw, GTK_ALIGN_CENTER);
  adw_action_row_add_suffix (ADW_ACTION_ROW (row), sw);
  adw_action_row_set_activatable_widget (ADW_ACTION_ROW (row), sw);
  g_settings_bind (self->settings, "limit-expansion", sw, "active",
                   G_SETTINGS_BIND_DEFAULT);
  return row;
}

static GtkWidget *
open_limit_row (PadlockPreferencesWindow *self)
{
  g_autoptr (GtkStringList) labels = gtk_string_list_new (NULL);
  AdwComboRow *row = ADW_COMBO_ROW (adw_combo_row_new ());

  for (guint i = 0; i < G_N_ELEMENTS (open_limits); i++)
    {
      g_autofree char *size = g_format_size_full (open_limits[i],
                                                  G_FORMAT_SIZE_IEC_UNITS);

      gtk_string_list_append (labels, size);
    }
  adw_combo_row_set_model (row, G_LIST_MODEL (labels));
  adw_preferences_row_set_title (ADW_PREFERENCES_ROW (row),
                                 _("_Largest File to Open Without Saving"));
  adw_preferences_row_set_use_underline (ADW_PREFERENCES_ROW (row), TRUE);
  adw_action_row_set_subtitle (ADW_ACTION_ROW (row),
                               _("Decrypted into memory, never more than half "
                                 "of what is free: a larger file is saved "
                                 "instead"));
  g_settings_bind_with_mapping (self->settings, "open-memory-limit", row,
                                "selected", G_SETTINGS_BIND_DEFAULT,
                                limit_to_index, index_to_limit, NULL, NULL);
  self->open_limit_row = row;
  return GTK_WIDGET (row);
}

/* "Safety": the decompression-bomb limit (issue 11) and Open Without
 * Saving's memory (issue 38), in a group of its own on the page of the
 * other file rows; built here rather than in the template so that it
 * stays one additive hunk. */
static void
add_safety_group (PadlockPreferencesWindow *self)
{
  GtkWidget *page = gtk_widget_get_ancestor (GTK_WIDGET (self->delete_switch),
                                             ADW_TYPE_PREFERENCES_PAGE);
  AdwPreferencesGroup *group;

  if (!page)
    return;
  group = ADW_PREFERENCES_GROUP (adw_preferences_group_new ());
  adw_preferences_group_set_title (group, _("Safety"));
  adw_preferences_group_add (group, expansion_row (self));
  adw_preferences_group_add (group, open_limit_row (self));
  adw_preferences_page_add (ADW_PREFERENCES_PAGE (page), group);
}

static void
padlock_preferences_window_init (PadlockPreferencesWindow *self)
{
  size_t n;
  const pl_profile_info *profiles = pl_profiles (&n);

  gtk_widget_init_template (GTK_WIDGET (self));
  self->settings = padlock_settings_new ();

  n = MIN (n, G_N_ELEMENTS (profile_names) - 1);
  for (size_t i = 0; i < n; i++)
    {
      profile_names[i] = profiles[i].name;
      gtk_string_list_append (self->profile_list,
                              padlock_profile_title (pl_profile_from_name (profiles[i].name)));
    }

  bind_choice (self, "profile", self->profile_row, profile_names);
  bind_cipher (self);
  bind_choice (self, "compression", self->compression_row, compression_names);
  g_settings_bind (self->settings, "armor", self->armor_switch, "active",
                   G_SETTINGS_BIND_DEFAULT);
  g_settings_bind (self->settings, "delete-original", self->delete_switch, "active",
                   G_SETTINGS_BIND_DEFAULT);
  g_settings_bind (self->settings, "hide-names", self->hide_names_switch, "active",
                   G_SETTINGS_BIND_DEFAULT);
  g_settings_bind (self->settings, "unpack-archives", self->unpack_switch, "active",
                   G_SETTINGS_BIND_DEFAULT);
  g_settings_bind (self->settings, "concurrency",
                   gtk_spin_button_get_adjustment (self->concurrency_spin), "value",
                   G_SETTINGS_BIND_DEFAULT);

  add_safety_group (self);

  g_signal_connect_object (self->profile_row, "notify::selected",
                           G_CALLBACK (update_profile_subtitle), self,
                           G_CONNECT_SWAPPED);
  g_signal_connect_object (self->settings, "changed::output-folder",
                           G_CALLBACK (update_folder), self, G_CONNECT_SWAPPED);
  update_profile_subtitle (self);
  update_folder (self);
}

GtkWindow *
padlock_preferences_window_new (GtkWindow *parent)
{
  return g_object_new (PADLOCK_TYPE_PREFERENCES_WINDOW,
                       "transient-for", parent,
                       NULL);
}
