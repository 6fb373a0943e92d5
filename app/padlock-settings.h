/* padlock-settings.h - the app's GSettings, and what jobs take from them */
#pragma once

#include <gio/gio.h>

#include "padlock-job.h"

G_BEGIN_DECLS

/* The io.github.padlock.Padlock settings; from the build folder when the
 * schema is not installed (`make run`). */
GSettings *padlock_settings_new              (void);
void       padlock_job_config_from_settings  (GSettings        *settings,
                                              PadlockJobConfig *config);
int        padlock_settings_cipher_algo      (const char       *name);
int        padlock_settings_compress_algo    (const char       *name);

G_END_DECLS
