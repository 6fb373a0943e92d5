/* padlock-window-paste.c - keys added from the clipboard or from files:
 * win.paste-key (Ctrl+V anywhere in the window, and the Keys page's
 * "Paste") and win.import-key (the Keys page's "Add Key…")
 *
 * Ctrl+V is the window's own binding, at the bubble phase: a text entry
 * that has the focus takes Ctrl+V first and pastes text, as always.  The
 * clipboard's files go where dropped files go (padlock_window_add_files,
 * by content); its text, when it holds an OpenPGP key block, is imported
 * through GPGME on a worker thread (padlock_keyring_import_bytes_async),
 * and one notice names what changed (padlock_keyring_import_describe).
 * A secret key block is refused by the keyring, and the notice says
 * why.  Other text is not taken for a key, and the notice says what to
 * copy instead.
 */
#include "padlock-window-private.h"

#include <glib/gi18n.h>
#include <string.h>

#include "padlock-key-input.h"
#include "padlock-name.h"

/* Pasted text longer than this is no key anybody copied by hand. */
#define PASTE_MAX (4 * 1024 * 1024)

typedef struct
{
  PadlockWindow *window;        /* a reference */
  PadlockKeyring *keyring;      /* a reference: the window's */
  GPtrArray *files;             /* GFile: still to import, for win.import-key */
  GString *said;                /* what the imports so far changed */
} KeyImport;

static void
key_import_free (KeyImport *import)
{
  g_object_unref (import->window);
  g_object_unref (import->keyring);
  g_clear_pointer (&import->files, g_ptr_array_unref);
  g_string_free (import->said, TRUE);
  g_free (import);
}

static void import_next_file (KeyImport *import);

/* Adds the sentence of RESULT (or of ERROR, about SOURCE: a file's name,
 * or NULL for the clipboard) to IMPORT's. */
static void
add_outcome (KeyImport                  *import,
             const PadlockKeyringImport *result,
             const GError               *error,
             const char                 *source)
{
  g_autofree char *sentence = NULL;

  if (result)
    sentence = padlock_keyring_import_describe (result);
  else
    sentence = padlock_key_import_failure (source, error);
  if (import->said->len)
    g_string_append_c (import->said, ' ');
  g_string_append (import->said, sentence);
}

static void
on_key_imported (GObject      *source,
                 GAsyncResult *result,
                 gpointer      user_data)
{
  KeyImport *import = user_data;
  g_autoptr(PadlockKeyringImport) done = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *name = NULL;

  done = padlock_keyring_import_finish (PADLOCK_KEYRING (source), result, &error);
  if (import->files)
    {
      name = padlock_name_display_file (import->files->pdata[0]);
      g_ptr_array_remove_index (import->files, 0);
    }
  add_outcome (import, done, error, name);
  if (import->files && import->files->len)
    {
      import_next_file (import);
      return;
    }
  /* Unless the window went meanwhile (its toasts with it). */
  if (import->window->toast_overlay)
    padlock_window_notice (import->window, import->said->str);
  key_import_free (import);
}

static void
import_next_file (KeyImport *import)
{
  padlock_keyring_import_async (import->keyring, import->files->pdata[0], NULL,
                                on_key_imported, import);
}

static KeyImport *
key_import_new (PadlockWindow  *self,
                PadlockKeyring *keyring)
{
  KeyImport *import = g_new0 (KeyImport, 1);

  import->window = g_object_ref (self);
  import->keyring = g_object_ref (keyring);
  import->said = g_string_new (NULL);
  return import;
}

void
padlock_window_import_key_text (PadlockWindow *self,
                                const char    *text)
{
  PadlockKeyring *keyring;
  g_autoptr(GBytes) bytes = NULL;

  g_return_if_fail (PADLOCK_IS_WINDOW (self));
  g_return_if_fail (text != NULL);

  keyring = padlock_window_keys_get_keyring (self);
  if (!keyring)
    {
      padlock_window_notice (self, _("GnuPG is not available, so no key can be "
                                     "added."));
      return;
    }
  bytes = g_bytes_new (text, strlen (text));
  padlock_keyring_import_bytes_async (keyring, bytes, NULL, on_key_imported,
                                      key_import_new (self, keyring));
}

void
padlock_window_import_key_files (PadlockWindow  *self,
                                 GFile         **files,
                                 guint           n_files)
{
  PadlockKeyring *keyring;
  KeyImport *import;

  g_return_if_fail (PADLOCK_IS_WINDOW (self));
  if (!n_files)
    return;
  keyring = padlock_window_keys_get_keyring (self);
  if (!keyring)
    {
      padlock_window_notice (self, _("GnuPG is not available, so no key can be "
                                     "added."));
      return;
    }
  import = key_import_new (self, keyring);
  import->files = g_ptr_array_new_with_free_func (g_object_unref);
  for (guint i = 0; i < n_files; i++)
    g_ptr_array_add (import->files, g_object_ref (files[i]));
  import_next_file (import);
}

/* The clipboard */

static void
on_text_read (GObject      *source,
              GAsyncResult *result,
              gpointer      user_data)
{
  g_autoptr(PadlockWindow) self = user_data;
  g_autofree char *text = gdk_clipboard_read_text_finish (GDK_CLIPBOARD (source),
                                                          result, NULL);

  if (text && strlen (text) <= PASTE_MAX && padlock_text_holds_key_block (text))
    padlock_window_import_key_text (self, text);
  else
    padlock_window_notice (self, _("The clipboard holds no OpenPGP key. Copy a "
                                   "public key (the text from “-----BEGIN PGP "
                                   "PUBLIC KEY BLOCK-----” to its END line) or "
                                   "files, then paste."));
}

static void
on_files_read (GObject      *source,
               GAsyncResult *result,
               gpointer      user_data)
{
  g_autoptr(PadlockWindow) self = user_data;
  const GValue *value = gdk_clipboard_read_value_finish (GDK_CLIPBOARD (source),
                                                         result, NULL);
  GdkFileList *list = value ? g_value_get_boxed (value) : NULL;

  if (!list)
    {
      padlock_window_notice (self, _("The clipboard's files could not be read."));
      return;
    }
  /* As if they were dropped. */
  padlock_window_add_file_list (self, list);
}

void
padlock_window_paste (PadlockWindow *self)
{
  GdkClipboard *clipboard;
  GdkContentFormats *formats;

  g_return_if_fail (PADLOCK_IS_WINDOW (self));

  clipboard = gtk_widget_get_clipboard (GTK_WIDGET (self));
  formats = gdk_clipboard_get_formats (clipboard);
  if (gdk_content_formats_contain_gtype (formats, GDK_TYPE_FILE_LIST))
    gdk_clipboard_read_value_async (clipboard, GDK_TYPE_FILE_LIST, G_PRIORITY_DEFAULT,
                                    NULL, on_files_read, g_object_ref (self));
  else
    gdk_clipboard_read_text_async (clipboard, NULL, on_text_read,
                                   g_object_ref (self));
}

static void
paste_key_action (GtkWidget  *widget,
                  const char *action_name,
                  GVariant   *parameter)
{
  padlock_window_paste (PADLOCK_WINDOW (widget));
}

/* "Add Key…" */

static void
on_import_chooser_response (GtkNativeDialog *chooser,
                            int              response,
                            PadlockWindow   *self)
{
  if (response == GTK_RESPONSE_ACCEPT)
    {
      g_autoptr(GPtrArray) array = padlock_window_chosen_files (chooser);

      padlock_window_import_key_files (self, (GFile **) array->pdata, array->len);
    }
  gtk_native_dialog_destroy (chooser);
  g_object_unref (chooser);
}

static void
import_key_action (GtkWidget  *widget,
                   const char *action_name,
                   GVariant   *parameter)
{
  GtkFileChooserNative *chooser =
    gtk_file_chooser_native_new (_("Add Keys"), GTK_WINDOW (widget),
                                 GTK_FILE_CHOOSER_ACTION_OPEN, _("_Add"), NULL);
  g_autoptr(GtkFileFilter) filter = padlock_key_file_filter_new ();

  gtk_file_chooser_add_filter (GTK_FILE_CHOOSER (chooser), filter);
  gtk_file_chooser_set_select_multiple (GTK_FILE_CHOOSER (chooser), TRUE);
  gtk_native_dialog_set_modal (GTK_NATIVE_DIALOG (chooser), TRUE);
  g_signal_connect_object (chooser, "response",
                           G_CALLBACK (on_import_chooser_response), widget, 0);
  gtk_native_dialog_show (GTK_NATIVE_DIALOG (chooser));
}

void
padlock_window_paste_class_init (GtkWidgetClass *widget_class)
{
  gtk_widget_class_install_action (widget_class, "win.paste-key", NULL,
                                   paste_key_action);
  gtk_widget_class_install_action (widget_class, "win.import-key", NULL,
                                   import_key_action);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_v, GDK_CONTROL_MASK,
                                       "win.paste-key", NULL);
}
