/* padlock-preferences-window.h - the settings, in plain words */
#pragma once

#include <adwaita.h>

G_BEGIN_DECLS

#define PADLOCK_TYPE_PREFERENCES_WINDOW (padlock_preferences_window_get_type ())
G_DECLARE_FINAL_TYPE (PadlockPreferencesWindow, padlock_preferences_window,
                      PADLOCK, PREFERENCES_WINDOW, AdwPreferencesWindow)

GtkWindow *padlock_preferences_window_new (GtkWindow *parent);

G_END_DECLS
