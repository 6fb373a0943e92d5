/* padlock-application.h - one instance; files from the command line and
 * the file manager go to its window */
#pragma once

#include <adwaita.h>

#include "padlock-window.h"

G_BEGIN_DECLS

#define PADLOCK_TYPE_APPLICATION (padlock_application_get_type ())
G_DECLARE_FINAL_TYPE (PadlockApplication, padlock_application, PADLOCK, APPLICATION,
                      AdwApplication)

PadlockApplication *padlock_application_new        (void);
/* The window, made on first use. */
PadlockWindow      *padlock_application_get_window (PadlockApplication *self);

G_END_DECLS
