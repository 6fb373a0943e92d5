/* padlock-speed-window.h - bars for each cipher and mode, measured here */
#pragma once

#include <adwaita.h>

G_BEGIN_DECLS

#define PADLOCK_TYPE_SPEED_WINDOW (padlock_speed_window_get_type ())
G_DECLARE_FINAL_TYPE (PadlockSpeedWindow, padlock_speed_window,
                      PADLOCK, SPEED_WINDOW, AdwWindow)

/* Starts measuring as soon as it is made. */
GtkWindow *padlock_speed_window_new        (GtkWindow          *parent);
gboolean   padlock_speed_window_is_running (PadlockSpeedWindow *self);

G_END_DECLS
