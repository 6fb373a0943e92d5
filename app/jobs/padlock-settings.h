/* padlock-settings.h - the app's GSettings, and what jobs take from them */
#pragma once

#include <gio/gio.h>

#include "padlock-job.h"

G_BEGIN_DECLS

/* The io.github.padlock.Padlock settings, from the schema GSettings finds
 * (installed, or in GSETTINGS_SCHEMA_DIR); else, for a program that runs
 * from a build tree (`make run`, the tests, the benchmarks), from that
 * tree's data/.  An installed program knows no build tree: it carries no
 * build path, and a missing schema is a fatal error. */
GSettings *padlock_settings_new              (void);
/* Where the build tree's compiled schema is for PROGRAM (an absolute path)
 * when it sits one folder below a build root (app/, tests/, bench/), as
 * the stamp there says (PADLOCK_BUILD_TREE_STAMP, padlock-config.h, which
 * meson.build writes into the build root and nothing installs):
 * ROOT/data; else NULL. */
char      *padlock_settings_build_schema_dir (const char       *program);
/* Likewise, the build tree's translations (ROOT/po, which holds
 * LANG/LC_MESSAGES/padlock.mo as the build makes them), for
 * bindtextdomain: `make run` speaks the user's language before anything
 * is installed; else NULL. */
char      *padlock_settings_build_locale_dir (const char       *program);
void       padlock_job_config_from_settings  (GSettings        *settings,
                                              PadlockJobConfig *config);
int        padlock_settings_cipher_algo      (const char       *name);
int        padlock_settings_compress_algo    (const char       *name);

G_END_DECLS
