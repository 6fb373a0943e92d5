/* padlock-list-box.h - what GTK 4.8's GtkListBox lacks */
#pragma once

#include <gtk/gtk.h>

G_BEGIN_DECLS

/* Removes every row of LIST (gtk_list_box_remove_all is GTK 4.12's). */
void padlock_list_box_remove_all (GtkListBox *list);

G_END_DECLS
