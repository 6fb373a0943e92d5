/* padlock-nautilus.c - Encrypt, Decrypt and Sign with Padlock in GNOME
 * Files
 *
 * The extension looks only at what Nautilus already knows about the
 * selection (its type, MIME type and path), so opening a menu never reads
 * a file, and it does no cryptography: activating an item runs
 * `padlock --encrypt|--decrypt|--sign --detach -- FILE…`, whose
 * GApplication hands the files to the running window or starts one.
 */
#include <string.h>
#include <glib/gi18n-lib.h>
#include <gmodule.h>
#include <nautilus-extension.h>

#define PADLOCK_MESSAGE_TYPE "application/pgp-encrypted"

#define PADLOCK_TYPE_NAUTILUS_PROVIDER (padlock_nautilus_provider_get_type ())
G_DECLARE_FINAL_TYPE (PadlockNautilusProvider, padlock_nautilus_provider,
                      PADLOCK, NAUTILUS_PROVIDER, GObject)

struct _PadlockNautilusProvider
{
  GObject parent_instance;
};

static void padlock_nautilus_menu_provider_init (NautilusMenuProviderInterface *iface);

G_DEFINE_DYNAMIC_TYPE_EXTENDED (PadlockNautilusProvider, padlock_nautilus_provider,
                                G_TYPE_OBJECT, G_TYPE_FLAG_FINAL,
                                G_IMPLEMENT_INTERFACE_DYNAMIC (NAUTILUS_TYPE_MENU_PROVIDER,
                                                               padlock_nautilus_menu_provider_init))

/* PADLOCK_LAUNCHER lets tests (or a Flatpak wrapper) stand in for the app;
 * otherwise the padlock installed with this extension, or the one in PATH. */
static char *
find_launcher (void)
{
  const char *launcher = g_getenv ("PADLOCK_LAUNCHER");
  const char *installed = PADLOCK_BINDIR G_DIR_SEPARATOR_S "padlock";

  if (launcher && *launcher)
    return g_strdup (launcher);
  if (g_file_test (installed, G_FILE_TEST_IS_EXECUTABLE))
    return g_strdup (installed);
  return g_find_program_in_path ("padlock");
}

static void
on_item_activate (NautilusMenuItem *item,
                  const char       *option)
{
  const char *const *paths = g_object_get_data (G_OBJECT (item), "padlock-paths");
  g_autoptr(GPtrArray) argv = g_ptr_array_new_with_free_func (g_free);
  g_autoptr(GError) error = NULL;
  char *launcher = find_launcher ();

  if (!launcher)
    {
      g_warning ("Cannot find the padlock program in %s or in PATH", PADLOCK_BINDIR);
      return;
    }
  g_ptr_array_add (argv, launcher);
  g_ptr_array_add (argv, g_strdup (option));
  /* Sign: a detached signature of each file, as --batch spells it. */
  if (!strcmp (option, "--sign"))
    g_ptr_array_add (argv, g_strdup ("--detach"));
  /* A file named "-d" is a file. */
  g_ptr_array_add (argv, g_strdup ("--"));
  for (guint i = 0; paths && paths[i]; i++)
    g_ptr_array_add (argv, g_strdup (paths[i]));
  g_ptr_array_add (argv, NULL);

  /* Without G_SPAWN_DO_NOT_REAP_CHILD the child is reaped for us. */
  if (!g_spawn_async (NULL, (char **) argv->pdata, NULL, G_SPAWN_DEFAULT,
                      NULL, NULL, NULL, &error))
    g_warning ("Cannot start %s: %s", launcher, error->message);
}

static NautilusMenuItem *
make_item (const char         *name,
           const char         *label,
           const char         *tip,
           const char         *option,
           const char *const  *paths)
{
  NautilusMenuItem *item = nautilus_menu_item_new (name, label, tip, PADLOCK_APP_ID);

  g_object_set_data_full (G_OBJECT (item), "padlock-paths",
                          g_strdupv ((char **) paths), (GDestroyNotify) g_strfreev);
  /* OPTION is a string literal, so it outlives the item. */
  g_signal_connect (item, "activate", G_CALLBACK (on_item_activate), (gpointer) option);
  return item;
}

/* Encrypt for a selection of local files and folders (a folder becomes
 * one archive); Decrypt too when every one of them is an OpenPGP message;
 * Sign (a detached signature each) when none is a folder.  Remote files
 * and special files get nothing: the app works on local files. */
static GList *
padlock_nautilus_get_file_items (NautilusMenuProvider *provider,
                                 GList                *files)
{
  g_autoptr(GPtrArray) paths = g_ptr_array_new_with_free_func (g_free);
  gboolean all_messages = TRUE;
  gboolean any_folder = FALSE;
  GList *items = NULL;

  if (!files)
    return NULL;
  for (GList *l = files; l; l = l->next)
    {
      NautilusFileInfo *info = l->data;
      GFileType type = nautilus_file_info_get_file_type (info);
      g_autoptr(GFile) location = NULL;
      char *path;

      if (type != G_FILE_TYPE_REGULAR && type != G_FILE_TYPE_DIRECTORY)
        return NULL;
      location = nautilus_file_info_get_location (info);
      path = location ? g_file_get_path (location) : NULL;
      if (!path)
        return NULL;
      g_ptr_array_add (paths, path);
      if (!nautilus_file_info_is_mime_type (info, PADLOCK_MESSAGE_TYPE))
        all_messages = FALSE;
      if (type == G_FILE_TYPE_DIRECTORY)
        any_folder = TRUE;
    }
  g_ptr_array_add (paths, NULL);

  items = g_list_append (items,
      make_item ("PadlockNautilus::encrypt",
                 _("Encrypt with Padlock…"),
                 g_dngettext (GETTEXT_PACKAGE,
                              "Encrypt the selected file with a passphrase",
                              "Encrypt the selected files with a passphrase",
                              paths->len - 1),
                 "--encrypt", (const char *const *) paths->pdata));
  if (all_messages)
    items = g_list_append (items,
        make_item ("PadlockNautilus::decrypt",
                   _("Decrypt with Padlock…"),
                   g_dngettext (GETTEXT_PACKAGE,
                                "Decrypt the selected OpenPGP message",
                                "Decrypt the selected OpenPGP messages",
                                paths->len - 1),
                   "--decrypt", (const char *const *) paths->pdata));
  /* Issue 38: decrypted into memory and shown, no plaintext on disk. */
  if (all_messages)
    items = g_list_append (items,
        make_item ("PadlockNautilus::open",
                   _("Open Without Saving"),
                   g_dngettext (GETTEXT_PACKAGE,
                                "Decrypt the selected OpenPGP message into "
                                "memory and open it, writing nothing to disk",
                                "Decrypt the selected OpenPGP messages into "
                                "memory and open them, writing nothing to disk",
                                paths->len - 1),
                   "--open", (const char *const *) paths->pdata));
  if (!any_folder)
    items = g_list_append (items,
        make_item ("PadlockNautilus::sign",
                   _("Sign with Padlock…"),
                   g_dngettext (GETTEXT_PACKAGE,
                                "Make a detached signature of the selected file",
                                "Make a detached signature of each selected file",
                                paths->len - 1),
                   "--sign", (const char *const *) paths->pdata));
  return items;
}

static void
padlock_nautilus_menu_provider_init (NautilusMenuProviderInterface *iface)
{
  iface->get_file_items = padlock_nautilus_get_file_items;
}

static void
padlock_nautilus_provider_class_init (PadlockNautilusProviderClass *klass)
{
}

static void
padlock_nautilus_provider_class_finalize (PadlockNautilusProviderClass *klass)
{
}

static void
padlock_nautilus_provider_init (PadlockNautilusProvider *self)
{
}

/* The module's entry points, which Nautilus looks up by name. */

G_MODULE_EXPORT void
nautilus_module_initialize (GTypeModule *module)
{
  bindtextdomain (GETTEXT_PACKAGE, LOCALEDIR);
  bind_textdomain_codeset (GETTEXT_PACKAGE, "UTF-8");
  padlock_nautilus_provider_register_type (module);
}

G_MODULE_EXPORT void
nautilus_module_shutdown (void)
{
}

G_MODULE_EXPORT void
nautilus_module_list_types (const GType **types,
                            int          *num_types)
{
  static GType type_list[1];

  type_list[0] = PADLOCK_TYPE_NAUTILUS_PROVIDER;
  *types = type_list;
  *num_types = G_N_ELEMENTS (type_list);
}
