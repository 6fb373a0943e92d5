/* padlock-narrow.h - what keeps a window within 360 px (a phone's width)
 *
 * libadwaita 1.2 has no breakpoints: what must fit a narrow screen is
 * laid out so that its minimum width is small, and wraps where it would
 * otherwise widen its window.
 */
#pragma once

#include <gtk/gtk.h>

G_BEGIN_DECLS

/* The widest a dialog is made (its default width) and the narrowest
 * screen everything must fit. */
#define PADLOCK_DIALOG_WIDTH 440
#define PADLOCK_NARROW_WIDTH 360

/* Wraps CHECK's label (a user ID can be long; GTK 4.8's check button
 * does not wrap its text).  Call after its label is set: the label GTK
 * made keeps the wrapping when the text changes. */
void padlock_check_button_wrap     (GtkCheckButton *check);
/* Sizes DIALOG no wider than PARENT (when PARENT is narrower than
 * PADLOCK_DIALOG_WIDTH): over a 360 px window, a 360 px dialog. */
void padlock_dialog_fit_parent     (GtkWindow      *dialog,
                                    GtkWindow      *parent);

G_END_DECLS
