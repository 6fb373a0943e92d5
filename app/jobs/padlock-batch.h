/* padlock-batch.h - `padlock --batch`: the window's jobs, without a window
 *
 * padlock --batch [--encrypt|--decrypt] [--passphrase-file=FILE]
 *                 [--recipient=KEY…] [--encrypt-to-self] [--hide-recipients]
 *                 [--output-dir=DIR] [--profile=NAME] [--armor] PATH…
 *
 * Runs in the process that was started, from handle-local-options: before
 * the application registers, so it takes no D-Bus name, and before
 * startup, so it needs no display.  The PATHs become PadlockJobs of one
 * batch in a PadlockQueue, as the window's files do, each planned as
 * the window plans it (padlock-plan.h): by content and name unless a
 * direction is forced; folders are archived.  Each PATH is opened once (padlock-input.h): pipes, FIFOs
 * and /dev/stdin work both ways, their output going to --output-dir or
 * the current folder.  SIGINT and SIGTERM end it at any moment with exit
 * status 1, what unfinished jobs wrote removed (a commit that ends after
 * the signal is undone); once every job has finished, a signal changes
 * nothing (exit 0 when all succeeded).
 * Recipients are resolved in GnuPG's keyring (padlock_recipients_resolve)
 * before a file is opened for writing; each one that cannot be used is
 * said, and the batch exits 1.
 * Settings (cipher, compression, concurrency...) come from GSettings as in
 * the window; the options override them.
 */
#pragma once

#include <gio/gio.h>

G_BEGIN_DECLS

/* The options --batch adds, for g_application_add_main_option_entries. */
const GOptionEntry *padlock_batch_option_entries (void);

/* Exit status: 0 every job succeeded, 1 any failed, 2 bad usage. */
#define PADLOCK_BATCH_EXIT_USAGE 2
int                 padlock_batch_run            (GVariantDict *options);

G_END_DECLS
