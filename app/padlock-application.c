/* padlock-application.c - one instance; files from the command line and
 * the file manager go to its window */
#include "padlock-config.h"
#include "padlock-application.h"
#include "padlock-accessible.h"

#include <gcrypt.h>
#include <glib/gi18n.h>

#include "job.h"
#include "padlock-batch.h"
#include "padlock-preferences-window.h"
#include "padlock-speed-window.h"
#include "padlock-thunar.h"

struct _PadlockApplication
{
  AdwApplication parent_instance;

  gboolean options_parsed;      /* handle_local_options ran */
  PadlockKeyring *keyring;      /* made on first use */
  PadlockAgent *agent;          /* made on first use */
};

G_DEFINE_FINAL_TYPE (PadlockApplication, padlock_application, ADW_TYPE_APPLICATION)

PadlockKeyring *
padlock_application_get_keyring (PadlockApplication *self)
{
  g_return_val_if_fail (PADLOCK_IS_APPLICATION (self), NULL);
  if (!self->keyring)
    self->keyring = padlock_keyring_new (NULL);
  return self->keyring;
}

PadlockAgent *
padlock_application_get_agent (PadlockApplication *self)
{
  g_return_val_if_fail (PADLOCK_IS_APPLICATION (self), NULL);
  if (!self->agent)
    self->agent = padlock_agent_new (padlock_keyring_get_home_dir (
                                       padlock_application_get_keyring (self)));
  return self->agent;
}

static const GOptionEntry options[] = {
  { "encrypt", 'e', 0, G_OPTION_ARG_NONE, NULL,
    N_("Encrypt the files, whatever they hold"), NULL },
  { "decrypt", 'd', 0, G_OPTION_ARG_NONE, NULL,
    N_("Decrypt the files"), NULL },
  { "open", 0, 0, G_OPTION_ARG_NONE, NULL,
    N_("Decrypt the files into memory and open them in their viewers, "
       "saving nothing"), NULL },
  { "add-thunar-actions", 0, 0, G_OPTION_ARG_NONE, NULL,
    N_("Add Encrypt and Decrypt to Thunar’s custom actions and exit"), NULL },
  { "version", 0, 0, G_OPTION_ARG_NONE, NULL,
    N_("Print the version and exit"), NULL },
  /* The usage line's "[FILE…]" is the context's parameter string. */
  { G_OPTION_REMAINING, 0, 0, G_OPTION_ARG_FILENAME_ARRAY, NULL, NULL, NULL },
  { NULL }
};

PadlockWindow *
padlock_application_get_window (PadlockApplication *self)
{
  GtkWindow *window;

  g_return_val_if_fail (PADLOCK_IS_APPLICATION (self), NULL);

  for (GList *l = gtk_application_get_windows (GTK_APPLICATION (self)); l; l = l->next)
    if (PADLOCK_IS_WINDOW (l->data))
      return l->data;
  window = GTK_WINDOW (padlock_window_new (GTK_APPLICATION (self)));
  return PADLOCK_WINDOW (window);
}

static void
padlock_application_activate (GApplication *app)
{
  gtk_window_present (GTK_WINDOW (padlock_application_get_window (PADLOCK_APPLICATION (app))));
}

static void
padlock_application_open (GApplication  *app,
                          GFile        **files,
                          int            n_files,
                          const char    *hint)
{
  PadlockWindow *window = padlock_application_get_window (PADLOCK_APPLICATION (app));

  gtk_window_present (GTK_WINDOW (window));
  padlock_window_add_files (window, files, (guint) n_files, PADLOCK_OPEN_AUTO);
}

static int
padlock_application_handle_local_options (GApplication *app,
                                          GVariantDict *dict)
{
  PADLOCK_APPLICATION (app)->options_parsed = TRUE;
  if (g_variant_dict_contains (dict, "version"))
    {
      g_print ("padlock %s\n", PADLOCK_VERSION);
      return 0;
    }
  /* Before registration and startup: no D-Bus name, no display. */
  if (g_variant_dict_contains (dict, "batch"))
    return padlock_batch_run (dict);

  if (g_variant_dict_contains (dict, "add-thunar-actions"))
    {
      g_autoptr(GError) error = NULL;
      g_autofree char *path = padlock_thunar_get_actions_path ();
      gboolean changed = FALSE;

      if (!padlock_thunar_add_actions (path, &changed, &error))
        {
          g_printerr (_("Could not add the Thunar actions to %s: %s\n"),
                      path, error->message);
          return 1;
        }
      if (changed)
        g_print (_("Added Encrypt and Decrypt with Padlock to %s. Restart Thunar "
                   "(thunar -q) to see them.\n"), path);
      else
        g_print (_("%s already has the Padlock actions.\n"), path);
      return 0;
    }
  if (g_variant_dict_contains (dict, "encrypt")
      && g_variant_dict_contains (dict, "decrypt"))
    {
      g_printerr ("%s\n", _("Choose --encrypt or --decrypt, not both."));
      return 1;
    }
  return -1;
}

/* Runs in the primary instance, for its own command line and for those of
 * later `padlock` runs, with the options that force a direction. */
static int
padlock_application_command_line (GApplication            *app,
                                  GApplicationCommandLine *command_line)
{
  GVariantDict *dict = g_application_command_line_get_options_dict (command_line);
  PadlockOpenMode mode = PADLOCK_OPEN_AUTO;
  g_autofree const char **args = NULL;
  g_autoptr(GPtrArray) files = g_ptr_array_new_with_free_func (g_object_unref);
  PadlockWindow *window;

  if (g_variant_dict_contains (dict, "encrypt"))
    mode = PADLOCK_OPEN_ENCRYPT;
  else if (g_variant_dict_contains (dict, "decrypt"))
    mode = PADLOCK_OPEN_DECRYPT;
  /* The file managers' "Sign with Padlock", as --batch spells it. */
  else if (g_variant_dict_contains (dict, "sign")
           && g_variant_dict_contains (dict, "detach"))
    mode = PADLOCK_OPEN_SIGN;
  /* As --batch spells it: one signed list of the files. */
  else if (g_variant_dict_contains (dict, "checksum-list"))
    mode = PADLOCK_OPEN_CHECKSUM_LIST;
  g_variant_dict_lookup (dict, G_OPTION_REMAINING, "^a&ay", &args);
  for (guint i = 0; args && args[i]; i++)
    g_ptr_array_add (files, g_application_command_line_create_file_for_arg (command_line,
                                                                            args[i]));

  g_debug ("command line: %u files, mode %d, %s", files->len, mode,
           g_application_command_line_get_is_remote (command_line) ? "remote" : "local");
  window = padlock_application_get_window (PADLOCK_APPLICATION (app));
  gtk_window_present (GTK_WINDOW (window));
  /* Open Without Saving (issue 38): never a file written. */
  if (files->len && g_variant_dict_contains (dict, "open"))
    padlock_window_open_without_saving (window, (GFile **) files->pdata,
                                        files->len);
  else if (files->len)
    padlock_window_add_files (window, (GFile **) files->pdata, files->len, mode);
  else if (mode != PADLOCK_OPEN_AUTO)
    /* The desktop file's Encrypt Files… and Decrypt Files… */
    padlock_window_choose_files (window, mode);
  return 0;
}

static void
quit_action (GSimpleAction *action,
             GVariant      *parameter,
             gpointer       user_data)
{
  GtkApplication *app = user_data;

  /* Only an existing window may have jobs; none is made to ask. */
  for (GList *l = gtk_application_get_windows (app); l; l = l->next)
    if (PADLOCK_IS_WINDOW (l->data)
        && padlock_window_ask_to_quit (PADLOCK_WINDOW (l->data), TRUE))
      return;
  g_application_quit (G_APPLICATION (app));
}

static void
preferences_action (GSimpleAction *action,
                    GVariant      *parameter,
                    gpointer       user_data)
{
  PadlockWindow *window = padlock_application_get_window (user_data);
  GtkWindow *prefs = padlock_preferences_window_new (GTK_WINDOW (window));

  gtk_window_present (prefs);
}

static void
speed_test_action (GSimpleAction *action,
                   GVariant      *parameter,
                   gpointer       user_data)
{
  PadlockWindow *window = padlock_application_get_window (user_data);
  GtkWindow *speed = padlock_speed_window_new (GTK_WINDOW (window));

  gtk_window_present (speed);
}

/* The desktop file's actions, when it is D-Bus activated. */
static void
encrypt_action (GSimpleAction *action,
                GVariant      *parameter,
                gpointer       user_data)
{
  PadlockWindow *window = padlock_application_get_window (user_data);

  gtk_window_present (GTK_WINDOW (window));
  padlock_window_choose_files (window, PADLOCK_OPEN_ENCRYPT);
}

static void
decrypt_action (GSimpleAction *action,
                GVariant      *parameter,
                gpointer       user_data)
{
  PadlockWindow *window = padlock_application_get_window (user_data);

  gtk_window_present (GTK_WINDOW (window));
  padlock_window_choose_files (window, PADLOCK_OPEN_DECRYPT);
}

static void
about_action (GSimpleAction *action,
              GVariant      *parameter,
              gpointer       user_data)
{
  PadlockWindow *window = padlock_application_get_window (user_data);
  g_autofree char *debug = NULL;
  GtkEventController *escape;
  GtkWidget *about;

  debug = g_strdup_printf ("Padlock %s\nlibgcrypt %s\nGTK %u.%u.%u\nlibadwaita %u.%u.%u\n"
                           "GLib %u.%u.%u\nThreads: %d\n",
                           PADLOCK_VERSION, gcry_check_version (NULL),
                           gtk_get_major_version (), gtk_get_minor_version (),
                           gtk_get_micro_version (),
                           adw_get_major_version (), adw_get_minor_version (),
                           adw_get_micro_version (),
                           glib_major_version, glib_minor_version, glib_micro_version,
                           pl_default_threads ());
  about = g_object_new (ADW_TYPE_ABOUT_WINDOW,
                        "transient-for", window,
                        "modal", TRUE,
                        "application-name", _("Padlock"),
                        "application-icon", PADLOCK_APP_ID,
                        "developer-name", _("The Padlock developers"),
                        "version", PADLOCK_VERSION,
                        "comments", _("Encrypt and decrypt files with a passphrase, "
                                      "in the OpenPGP format."),
                        "license-type", GTK_LICENSE_GPL_3_0,
                        "debug-info", debug,
                        "debug-info-filename", "padlock-debug-info.txt",
                        NULL);
  /* Escape closes it, as it does every other dialog here. */
  escape = gtk_shortcut_controller_new ();
  gtk_shortcut_controller_add_shortcut (GTK_SHORTCUT_CONTROLLER (escape),
      gtk_shortcut_new (gtk_keyval_trigger_new (GDK_KEY_Escape, 0),
                        gtk_named_action_new ("window.close")));
  gtk_widget_add_controller (about, escape);
  gtk_window_present (GTK_WINDOW (about));
}

static const GActionEntry app_actions[] = {
  { "quit", quit_action },
  { "preferences", preferences_action },
  { "speed-test", speed_test_action },
  { "about", about_action },
  { "encrypt", encrypt_action },
  { "decrypt", decrypt_action },
};

static void
padlock_application_startup (GApplication *app)
{
  static const char *quit_accels[] = { "<Control>q", NULL };
  static const char *preferences_accels[] = { "<Control>comma", NULL };
  static const char *open_accels[] = { "<Control>o", NULL };
  /* An accelerator, not a binding: the Keyboard Shortcuts window lists
   * it under its action. */
  static const char *open_folder_accels[] = { "<Control><Shift>o", NULL };

  G_APPLICATION_CLASS (padlock_application_parent_class)->startup (app);
  padlock_accessible_tidy_windows ();

  g_action_map_add_action_entries (G_ACTION_MAP (app), app_actions,
                                   G_N_ELEMENTS (app_actions), app);
  gtk_application_set_accels_for_action (GTK_APPLICATION (app), "app.quit", quit_accels);
  gtk_application_set_accels_for_action (GTK_APPLICATION (app), "app.preferences",
                                         preferences_accels);
  gtk_application_set_accels_for_action (GTK_APPLICATION (app), "win.open", open_accels);
  gtk_application_set_accels_for_action (GTK_APPLICATION (app), "win.open-folder",
                                         open_folder_accels);
}

/* GApplication answers a command line it cannot parse with exit status 1
 * before handle_local_options runs.  For --batch, whose callers are
 * scripts, bad usage is 2 (padlock-batch.h), whichever part finds it. */
static gboolean
padlock_application_local_command_line (GApplication   *app,
                                        char         ***arguments,
                                        int            *exit_status)
{
  gboolean batch = g_strv_contains ((const char *const *) *arguments, "--batch");
  gboolean handled = G_APPLICATION_CLASS (padlock_application_parent_class)
    ->local_command_line (app, arguments, exit_status);

  if (batch && handled && *exit_status == 1
      && !PADLOCK_APPLICATION (app)->options_parsed)
    *exit_status = PADLOCK_BATCH_EXIT_USAGE;
  return handled;
}

static void
padlock_application_dispose (GObject *object)
{
  PadlockApplication *self = PADLOCK_APPLICATION (object);

  g_clear_object (&self->agent);
  g_clear_object (&self->keyring);
  G_OBJECT_CLASS (padlock_application_parent_class)->dispose (object);
}

static void
padlock_application_class_init (PadlockApplicationClass *klass)
{
  GApplicationClass *app_class = G_APPLICATION_CLASS (klass);

  G_OBJECT_CLASS (klass)->dispose = padlock_application_dispose;

  app_class->local_command_line = padlock_application_local_command_line;
  app_class->startup = padlock_application_startup;
  app_class->activate = padlock_application_activate;
  app_class->open = padlock_application_open;
  app_class->command_line = padlock_application_command_line;
  app_class->handle_local_options = padlock_application_handle_local_options;
}

static void
padlock_application_init (PadlockApplication *self)
{
  pl_init ();
  g_application_add_main_option_entries (G_APPLICATION (self), options);
  g_application_add_main_option_entries (G_APPLICATION (self),
                                         padlock_batch_option_entries ());
  g_application_set_option_context_parameter_string (G_APPLICATION (self), _("[FILE…]"));
}

PadlockApplication *
padlock_application_new (void)
{
  return g_object_new (PADLOCK_TYPE_APPLICATION,
                       "application-id", PADLOCK_APP_ID,
                       "flags", G_APPLICATION_HANDLES_OPEN
                                | G_APPLICATION_HANDLES_COMMAND_LINE,
                       "resource-base-path", "/io/github/padlock/Padlock",
                       NULL);
}
