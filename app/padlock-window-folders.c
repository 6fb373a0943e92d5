/* padlock-window-folders.c - choosing folders to encrypt (Ctrl+Shift+O),
 * and whether several items go into one archive
 *
 * GTK's file chooser picks files or folders, never both at once; Ctrl+O
 * keeps choosing files (and drops take folders too), and this action
 * chooses folders, each encrypted as one archive (padlock-folder.h).
 */
#include "padlock-window-private.h"

#include <glib/gi18n.h>

#include "padlock-folder.h"

static void
open_folder_action (GtkWidget  *widget,
                    const char *action_name,
                    GVariant   *parameter)
{
  PadlockWindow *self = PADLOCK_WINDOW (widget);

  if (self->chooser)
    return;
  self->chooser_mode = PADLOCK_OPEN_ENCRYPT;
  self->chooser = gtk_file_chooser_native_new (_("Choose Folders to Encrypt"),
                                               GTK_WINDOW (self),
                                               GTK_FILE_CHOOSER_ACTION_SELECT_FOLDER,
                                               _("_Choose"), _("_Cancel"));
  gtk_native_dialog_set_modal (GTK_NATIVE_DIALOG (self->chooser), TRUE);
  gtk_file_chooser_set_select_multiple (GTK_FILE_CHOOSER (self->chooser), TRUE);
  g_signal_connect_object (self->chooser, "response",
                           G_CALLBACK (padlock_window_chooser_response), self, 0);
  gtk_native_dialog_show (GTK_NATIVE_DIALOG (self->chooser));
}

gboolean
padlock_window_any_folder (GPtrArray *files)
{
  for (guint i = 0; i < files->len; i++)
    if (padlock_folder_is_folder (g_ptr_array_index (files, i)))
      return TRUE;
  return FALSE;
}

void
padlock_window_folders_class_init (GtkWidgetClass *widget_class)
{
  gtk_widget_class_install_action (widget_class, "win.open-folder", NULL,
                                   open_folder_action);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_o,
                                       GDK_CONTROL_MASK | GDK_SHIFT_MASK,
                                       "win.open-folder", NULL);
}
