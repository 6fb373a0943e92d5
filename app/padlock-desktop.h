/* padlock-desktop.h - handing a file over to the rest of the desktop */
#pragma once

#include <gtk/gtk.h>

G_BEGIN_DECLS

/* org.freedesktop.FileManager1.ShowItems; the folder when no file manager
 * answers. */
void padlock_show_in_files (GtkWidget *widget,
                            GFile     *file);
/* The default application for FILE. */
void padlock_open_file     (GtkWidget *widget,
                            GFile     *file);

G_END_DECLS
