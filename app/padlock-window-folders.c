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
  padlock_window_show_chooser (self, PADLOCK_OPEN_ENCRYPT,
                               _("Choose Folders to Encrypt"),
                               GTK_FILE_CHOOSER_ACTION_SELECT_FOLDER);
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
}
