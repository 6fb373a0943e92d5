/* padlock-application.h - one instance; files from the command line and
 * the file manager go to its window */
#pragma once

#include <adwaita.h>

#include "padlock-agent.h"
#include "padlock-keyring.h"
#include "padlock-window.h"

G_BEGIN_DECLS

#define PADLOCK_TYPE_APPLICATION (padlock_application_get_type ())
G_DECLARE_FINAL_TYPE (PadlockApplication, padlock_application, PADLOCK, APPLICATION,
                      AdwApplication)

PadlockApplication *padlock_application_new        (void);
/* The window, made on first use. */
PadlockWindow      *padlock_application_get_window (PadlockApplication *self);

/* The user's GnuPG keyring (GNUPGHOME, else ~/.gnupg), one for every
 * window and dialog of the process, made on first use: a session that
 * never needs a key never runs gpg.  It follows the home's changes on
 * its own (padlock-keyring.h). */
PadlockKeyring     *padlock_application_get_keyring (PadlockApplication *self);
/* The gpg-agent of that keyring's home, made on first use; it connects
 * only when a request is made (padlock-agent.h). */
PadlockAgent       *padlock_application_get_agent  (PadlockApplication *self);

G_END_DECLS
