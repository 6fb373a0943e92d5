/* padlock-accessible.h - buttons that a screen reader reads once
 *
 * GTK 4.8 names a button with a text label by its accessible label and
 * then by the label it holds (the labelled-by relation GtkButton sets),
 * and gtk_button_set_label makes the raw text, mnemonic and all, its
 * accessible label: "_Cancel Cancel"; a check button's is its raw
 * text: "Also encrypt to _me". */
#pragma once

#include <gtk/gtk.h>

G_BEGIN_DECLS

/* Every button and check button under ROOT whose label has a mnemonic
 * is read by that label alone, as shown ("Cancel"), now and as its
 * label changes. */
void padlock_accessible_tidy_buttons (GtkWidget *root);
/* BUTTON has a name of its own, the accessible label its template or
 * its code gives it: its labelled-by relation goes (else GTK reads the
 * label it holds too), and tidying leaves it alone. */
void padlock_accessible_keep_name (GtkWidget *button);
/* Tidies every window of the application when it is shown. */
void padlock_accessible_tidy_windows (void);

G_END_DECLS
