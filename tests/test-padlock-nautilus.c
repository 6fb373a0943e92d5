/* test-padlock-nautilus.c - the GNOME Files extension
 * (desktop/nautilus/padlock-nautilus.c), loaded as Nautilus loads it:
 * GModule, nautilus_module_initialize and nautilus_module_list_types;
 * its menu items for files that a test double describes, and what
 * activating one runs (a recording stand-in for padlock). */
#include <string.h>
#include <gmodule.h>
#include <glib/gstdio.h>
#include <nautilus-extension.h>

#include "testutil.h"

/* --- A GTypeModule that loads the extension, as NautilusModule does --- */

#define TEST_TYPE_MODULE (test_module_get_type ())
G_DECLARE_FINAL_TYPE (TestModule, test_module, TEST, MODULE, GTypeModule)

struct _TestModule
{
  GTypeModule parent_instance;

  char *path;
  GModule *library;
  void (*initialize) (GTypeModule *module);
  void (*shutdown) (void);
  void (*list_types) (const GType **types, int *num_types);
};

G_DEFINE_TYPE (TestModule, test_module, G_TYPE_TYPE_MODULE)

static gboolean
test_module_load (GTypeModule *module)
{
  TestModule *self = TEST_MODULE (module);

  self->library = g_module_open (self->path, G_MODULE_BIND_LAZY | G_MODULE_BIND_LOCAL);
  if (!self->library)
    {
      g_test_message ("g_module_open: %s", g_module_error ());
      return FALSE;
    }
  if (!g_module_symbol (self->library, "nautilus_module_initialize",
                        (gpointer *) &self->initialize)
      || !g_module_symbol (self->library, "nautilus_module_shutdown",
                           (gpointer *) &self->shutdown)
      || !g_module_symbol (self->library, "nautilus_module_list_types",
                           (gpointer *) &self->list_types))
    {
      g_test_message ("g_module_symbol: %s", g_module_error ());
      g_module_close (self->library);
      self->library = NULL;
      return FALSE;
    }
  self->initialize (module);
  return TRUE;
}

static void
test_module_unload (GTypeModule *module)
{
  TestModule *self = TEST_MODULE (module);

  self->shutdown ();
  g_module_close (self->library);
  self->library = NULL;
}

static void
test_module_class_init (TestModuleClass *klass)
{
  G_TYPE_MODULE_CLASS (klass)->load = test_module_load;
  G_TYPE_MODULE_CLASS (klass)->unload = test_module_unload;
}

static void
test_module_init (TestModule *self)
{
}

/* --- A NautilusFileInfo test double --- */

#define TEST_TYPE_FILE_INFO (test_file_info_get_type ())
G_DECLARE_FINAL_TYPE (TestFileInfo, test_file_info, TEST, FILE_INFO, GObject)

struct _TestFileInfo
{
  GObject parent_instance;

  GFile *location;
  char *mime_type;
  GFileType file_type;
};

static void test_file_info_iface_init (NautilusFileInfoInterface *iface);

G_DEFINE_TYPE_WITH_CODE (TestFileInfo, test_file_info, G_TYPE_OBJECT,
                         G_IMPLEMENT_INTERFACE (NAUTILUS_TYPE_FILE_INFO,
                                                test_file_info_iface_init))

static gboolean
info_is_gone (NautilusFileInfo *info)
{
  return FALSE;
}

static char *
info_get_name (NautilusFileInfo *info)
{
  return g_file_get_basename (TEST_FILE_INFO (info)->location);
}

static char *
info_get_uri (NautilusFileInfo *info)
{
  return g_file_get_uri (TEST_FILE_INFO (info)->location);
}

static char *
info_get_parent_uri (NautilusFileInfo *info)
{
  g_autoptr(GFile) parent = g_file_get_parent (TEST_FILE_INFO (info)->location);

  return parent ? g_file_get_uri (parent) : g_strdup ("");
}

static char *
info_get_uri_scheme (NautilusFileInfo *info)
{
  return g_file_get_uri_scheme (TEST_FILE_INFO (info)->location);
}

static char *
info_get_mime_type (NautilusFileInfo *info)
{
  return g_strdup (TEST_FILE_INFO (info)->mime_type);
}

static gboolean
info_is_mime_type (NautilusFileInfo *info,
                   const char       *mime_type)
{
  return g_content_type_is_a (TEST_FILE_INFO (info)->mime_type, mime_type);
}

static gboolean
info_is_directory (NautilusFileInfo *info)
{
  return TEST_FILE_INFO (info)->file_type == G_FILE_TYPE_DIRECTORY;
}

static GFileType
info_get_file_type (NautilusFileInfo *info)
{
  return TEST_FILE_INFO (info)->file_type;
}

static GFile *
info_get_location (NautilusFileInfo *info)
{
  return g_object_ref (TEST_FILE_INFO (info)->location);
}

static GFile *
info_get_parent_location (NautilusFileInfo *info)
{
  return g_file_get_parent (TEST_FILE_INFO (info)->location);
}

static char *
info_get_activation_uri (NautilusFileInfo *info)
{
  return info_get_uri (info);
}

static gboolean
info_can_write (NautilusFileInfo *info)
{
  return TRUE;
}

static void
test_file_info_iface_init (NautilusFileInfoInterface *iface)
{
  iface->is_gone = info_is_gone;
  iface->get_name = info_get_name;
  iface->get_uri = info_get_uri;
  iface->get_parent_uri = info_get_parent_uri;
  iface->get_uri_scheme = info_get_uri_scheme;
  iface->get_mime_type = info_get_mime_type;
  iface->is_mime_type = info_is_mime_type;
  iface->is_directory = info_is_directory;
  iface->get_activation_uri = info_get_activation_uri;
  iface->get_file_type = info_get_file_type;
  iface->get_location = info_get_location;
  iface->get_parent_location = info_get_parent_location;
  iface->can_write = info_can_write;
}

static void
test_file_info_finalize (GObject *object)
{
  TestFileInfo *self = TEST_FILE_INFO (object);

  g_clear_object (&self->location);
  g_free (self->mime_type);
  G_OBJECT_CLASS (test_file_info_parent_class)->finalize (object);
}

static void
test_file_info_class_init (TestFileInfoClass *klass)
{
  G_OBJECT_CLASS (klass)->finalize = test_file_info_finalize;
}

static void
test_file_info_init (TestFileInfo *self)
{
}

/* URI_OR_PATH: an absolute path, or a URI. */
static NautilusFileInfo *
file_info_new (const char *uri_or_path,
               const char *mime_type,
               GFileType   file_type)
{
  TestFileInfo *info = g_object_new (TEST_TYPE_FILE_INFO, NULL);

  info->location = g_path_is_absolute (uri_or_path)
                   ? g_file_new_for_path (uri_or_path)
                   : g_file_new_for_uri (uri_or_path);
  info->mime_type = g_strdup (mime_type);
  info->file_type = file_type;
  return NAUTILUS_FILE_INFO (info);
}

/* --- The tests --- */

static NautilusMenuProvider *provider;
static char *record_path;

static GList *
file_items (NautilusFileInfo *first, ...)
{
  GList *files = NULL;
  GList *items;
  va_list args;

  va_start (args, first);
  for (NautilusFileInfo *info = first; info; info = va_arg (args, NautilusFileInfo *))
    files = g_list_append (files, info);
  va_end (args);
  items = nautilus_menu_provider_get_file_items (provider, files);
  g_list_free_full (files, g_object_unref);
  return items;
}

/* "encrypt|decrypt", from the items' names. */
static char *
item_names (GList *items)
{
  g_autoptr(GString) names = g_string_new (NULL);

  for (GList *l = items; l; l = l->next)
    {
      g_autofree char *name = NULL;

      g_assert_true (NAUTILUS_IS_MENU_ITEM (l->data));
      g_object_get (l->data, "name", &name, NULL);
      g_assert_true (g_str_has_prefix (name, "PadlockNautilus::"));
      g_string_append_printf (names, "%s%s", names->len ? "|" : "",
                              name + strlen ("PadlockNautilus::"));
    }
  return g_string_free (g_steal_pointer (&names), FALSE);
}

static GList *
find_item (GList      *items,
           const char *suffix)
{
  for (GList *l = items; l; l = l->next)
    {
      g_autofree char *name = NULL;

      g_object_get (l->data, "name", &name, NULL);
      if (g_str_has_suffix (name, suffix))
        return l;
    }
  return NULL;
}

static void
test_module_types (void)
{
  g_autoptr(NautilusFileInfo) folder =
    file_info_new ("/tmp", "inode/directory", G_FILE_TYPE_DIRECTORY);

  g_assert_true (G_TYPE_CHECK_INSTANCE_TYPE (provider, NAUTILUS_TYPE_MENU_PROVIDER));
  /* Nothing for a folder's background. */
  g_assert_null (nautilus_menu_provider_get_background_items (provider, folder));
}

static void
test_items (void)
{
  static const struct
  {
    const char *what;
    const char *paths[3];
    const char *mime_types[3];
    GFileType types[3];
    const char *expected;
  } cases[] = {
    { "one plain file", { "/home/u/report.pdf" }, { "application/pdf" },
      { G_FILE_TYPE_REGULAR }, "encrypt|sign" },
    { "two messages", { "/home/u/a.gpg", "/home/u/b.asc" },
      { "application/pgp-encrypted", "application/pgp-encrypted" },
      { G_FILE_TYPE_REGULAR, G_FILE_TYPE_REGULAR }, "encrypt|decrypt|open|sign" },
    { "a message and a plain file", { "/home/u/a.gpg", "/home/u/notes.txt" },
      { "application/pgp-encrypted", "text/plain" },
      { G_FILE_TYPE_REGULAR, G_FILE_TYPE_REGULAR }, "encrypt|sign" },
    { "a public key", { "/home/u/key.gpg" }, { "application/pgp-keys" },
      { G_FILE_TYPE_REGULAR }, "encrypt|sign" },
    { "a folder", { "/home/u/Documents" }, { "inode/directory" },
      { G_FILE_TYPE_DIRECTORY }, "encrypt" },
    { "a file and a folder", { "/home/u/report.pdf", "/home/u/Documents" },
      { "application/pdf", "inode/directory" },
      { G_FILE_TYPE_REGULAR, G_FILE_TYPE_DIRECTORY }, "encrypt" },
    { "a message and a folder", { "/home/u/a.gpg", "/home/u/Documents" },
      { "application/pgp-encrypted", "inode/directory" },
      { G_FILE_TYPE_REGULAR, G_FILE_TYPE_DIRECTORY }, "encrypt" },
    { "a remote file", { "sftp://host/home/u/report.pdf" }, { "application/pdf" },
      { G_FILE_TYPE_REGULAR }, "" },
    { "a device", { "/dev/null" }, { "inode/chardevice" },
      { G_FILE_TYPE_SPECIAL }, "" },
  };

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      GList *files = NULL;
      GList *items;
      g_autofree char *names = NULL;

      for (guint j = 0; j < 3 && cases[i].paths[j]; j++)
        files = g_list_append (files, file_info_new (cases[i].paths[j],
                                                     cases[i].mime_types[j],
                                                     cases[i].types[j]));
      items = nautilus_menu_provider_get_file_items (provider, files);
      names = item_names (items);
      g_test_message ("%s: %s", cases[i].what, names);
      g_assert_cmpstr (names, ==, cases[i].expected);
      g_list_free_full (items, g_object_unref);
      g_list_free_full (files, g_object_unref);
    }

  g_assert_null (nautilus_menu_provider_get_file_items (provider, NULL));
}

static void
test_labels (void)
{
  GList *items = file_items (file_info_new ("/home/u/a.gpg", "application/pgp-encrypted",
                                            G_FILE_TYPE_REGULAR), NULL);
  g_autofree char *label = NULL;
  g_autofree char *tip = NULL;
  g_autofree char *icon = NULL;

  g_object_get (find_item (items, "::encrypt")->data, "label", &label, "tip", &tip,
                "icon", &icon, NULL);
  g_assert_cmpstr (label, ==, "Encrypt with Padlock…");
  g_assert_cmpstr (tip, ==, "Encrypt the selected file with a passphrase");
  g_assert_cmpstr (icon, ==, "io.github.padlock.Padlock");
  g_clear_pointer (&label, g_free);
  g_object_get (find_item (items, "::decrypt")->data, "label", &label, NULL);
  g_assert_cmpstr (label, ==, "Decrypt with Padlock…");
  g_clear_pointer (&label, g_free);
  g_clear_pointer (&tip, g_free);
  g_object_get (find_item (items, "::open")->data, "label", &label, "tip", &tip,
                NULL);
  g_assert_cmpstr (label, ==, "Open Without Saving");
  g_assert_cmpstr (tip, ==, "Decrypt the selected OpenPGP message into memory and "
                   "open it, writing nothing to disk");
  g_clear_pointer (&label, g_free);
  g_clear_pointer (&tip, g_free);
  g_object_get (find_item (items, "::sign")->data, "label", &label, "tip", &tip,
                NULL);
  g_assert_cmpstr (label, ==, "Sign with Padlock…");
  g_assert_cmpstr (tip, ==, "Make a detached signature of the selected file");
  g_list_free_full (items, g_object_unref);
}

static gboolean
record_exists (gpointer data)
{
  return g_file_test (record_path, G_FILE_TEST_EXISTS);
}

/* Activates ITEM and returns the argv the stand-in recorded, one line
 * each. */
static char *
activate_and_record (NautilusMenuItem *item)
{
  char *recorded = NULL;
  gint64 deadline = g_get_monotonic_time () + 30 * G_USEC_PER_SEC;

  g_remove (record_path);
  nautilus_menu_item_activate (item);
  while (!record_exists (NULL) && g_get_monotonic_time () < deadline)
    g_usleep (10 * 1000);
  g_assert_true (record_exists (NULL));
  g_assert_true (g_file_get_contents (record_path, &recorded, NULL, NULL));
  return recorded;
}

static void
test_activate (void)
{
  g_autofree char *dir = g_build_filename (tu_tmpdir (), "files", NULL);
  g_autofree char *plain = g_build_filename (dir, "Quarterly report.pdf", NULL);
  g_autofree char *dashed = g_build_filename (dir, "-d", NULL);
  g_autofree char *message = g_build_filename (dir, "notes \"draft\".txt.gpg", NULL);
  g_autofree char *expected = NULL;
  g_autofree char *recorded = NULL;
  GList *items;

  items = file_items (file_info_new (plain, "application/pdf", G_FILE_TYPE_REGULAR),
                      file_info_new (dashed, "text/plain", G_FILE_TYPE_REGULAR), NULL);
  g_assert_cmpuint (g_list_length (items), ==, 2);
  recorded = activate_and_record (find_item (items, "::encrypt")->data);
  expected = g_strdup_printf ("--encrypt\n--\n%s\n%s\n", plain, dashed);
  g_assert_cmpstr (recorded, ==, expected);
  g_clear_pointer (&recorded, g_free);
  g_clear_pointer (&expected, g_free);
  /* Sign: as `padlock --batch --sign --detach` spells it. */
  recorded = activate_and_record (find_item (items, "::sign")->data);
  expected = g_strdup_printf ("--sign\n--detach\n--\n%s\n%s\n", plain, dashed);
  g_assert_cmpstr (recorded, ==, expected);
  g_list_free_full (items, g_object_unref);

  items = file_items (file_info_new (message, "application/pgp-encrypted",
                                     G_FILE_TYPE_REGULAR), NULL);
  g_clear_pointer (&recorded, g_free);
  g_clear_pointer (&expected, g_free);
  recorded = activate_and_record (find_item (items, "::decrypt")->data);
  expected = g_strdup_printf ("--decrypt\n--\n%s\n", message);
  g_assert_cmpstr (recorded, ==, expected);
  g_clear_pointer (&recorded, g_free);
  g_clear_pointer (&expected, g_free);
  recorded = activate_and_record (find_item (items, "::encrypt")->data);
  expected = g_strdup_printf ("--encrypt\n--\n%s\n", message);
  g_assert_cmpstr (recorded, ==, expected);
  g_clear_pointer (&recorded, g_free);
  g_clear_pointer (&expected, g_free);
  /* Open Without Saving (issue 38): the running window's --open. */
  recorded = activate_and_record (find_item (items, "::open")->data);
  expected = g_strdup_printf ("--open\n--\n%s\n", message);
  g_assert_cmpstr (recorded, ==, expected);
  g_list_free_full (items, g_object_unref);
}

int
main (int argc, char *argv[])
{
  const char *path = g_getenv ("PADLOCK_NAUTILUS_EXTENSION");
  g_autofree char *launcher = NULL;
  g_autofree char *script = NULL;
  TestModule *module;
  const GType *types = NULL;
  int n_types = 0;
  int status;

  tu_init (&argc, &argv);
  if (!path)
    g_error ("PADLOCK_NAUTILUS_EXTENSION names the extension to load");

  /* The stand-in for padlock: records its arguments, one a line, and
   * renames the record into place so that it appears whole. */
  record_path = g_build_filename (tu_tmpdir (), "launched", NULL);
  launcher = g_build_filename (tu_tmpdir (), "padlock-recorder", NULL);
  script = g_strdup_printf ("#!/bin/sh\n"
                            "for a in \"$@\"; do printf '%%s\\n' \"$a\"; done > '%s.tmp'\n"
                            "mv '%s.tmp' '%s'\n", record_path, record_path, record_path);
  g_assert_true (g_file_set_contents (launcher, script, -1, NULL));
  g_assert_cmpint (g_chmod (launcher, 0755), ==, 0);
  g_setenv ("PADLOCK_LAUNCHER", launcher, TRUE);

  module = g_object_new (TEST_TYPE_MODULE, NULL);
  module->path = g_strdup (path);
  g_type_module_set_name (G_TYPE_MODULE (module), path);
  g_assert_true (g_type_module_use (G_TYPE_MODULE (module)));
  module->list_types (&types, &n_types);
  g_assert_cmpint (n_types, ==, 1);
  g_assert_true (g_type_is_a (types[0], NAUTILUS_TYPE_MENU_PROVIDER));
  provider = g_object_new (types[0], NULL);

  g_test_add_func ("/nautilus/module-types", test_module_types);
  g_test_add_func ("/nautilus/items", test_items);
  g_test_add_func ("/nautilus/labels", test_labels);
  g_test_add_func ("/nautilus/activate", test_activate);
  status = g_test_run ();

  g_assert_finalize_object (provider);
  /* Like Nautilus, never unloads the module: a GTypeModule that
   * registered types stays. */
  g_free (record_path);
  return status;
}
