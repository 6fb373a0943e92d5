/* padlock-list-box.c - what GTK 4.8's GtkListBox lacks */
#include "padlock-list-box.h"

void
padlock_list_box_remove_all (GtkListBox *list)
{
  GtkWidget *child;

  g_return_if_fail (GTK_IS_LIST_BOX (list));
  while ((child = gtk_widget_get_first_child (GTK_WIDGET (list))))
    gtk_list_box_remove (list, child);
}
