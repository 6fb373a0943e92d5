/* padlock-narrow.c - what keeps a window within 360 px */
#include "padlock-narrow.h"

void
padlock_check_button_wrap (GtkCheckButton *check)
{
  g_return_if_fail (GTK_IS_CHECK_BUTTON (check));

  for (GtkWidget *child = gtk_widget_get_first_child (GTK_WIDGET (check));
       child; child = gtk_widget_get_next_sibling (child))
    if (GTK_IS_LABEL (child))
      {
        gtk_label_set_wrap (GTK_LABEL (child), TRUE);
        gtk_label_set_wrap_mode (GTK_LABEL (child), PANGO_WRAP_WORD_CHAR);
        gtk_label_set_xalign (GTK_LABEL (child), 0);
        /* As wide as the dialog's other texts before it wraps. */
        gtk_label_set_max_width_chars (GTK_LABEL (child), 40);
      }
}

void
padlock_dialog_fit_parent (GtkWindow *dialog,
                           GtkWindow *parent)
{
  int width;

  g_return_if_fail (GTK_IS_WINDOW (dialog));

  if (!parent)
    return;
  width = gtk_widget_get_width (GTK_WIDGET (parent));
  if (width > 0 && width < PADLOCK_DIALOG_WIDTH)
    gtk_window_set_default_size (dialog, MAX (width, PADLOCK_NARROW_WIDTH), -1);
}
