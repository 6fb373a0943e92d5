/* padlock-window.h - the main window: drop files, watch them go */
#pragma once

#include <adwaita.h>

#include "padlock-queue.h"

G_BEGIN_DECLS

typedef enum
{
  PADLOCK_OPEN_AUTO,            /* by content: messages are decrypted */
  PADLOCK_OPEN_ENCRYPT,
  PADLOCK_OPEN_DECRYPT,
  PADLOCK_OPEN_SIGN,            /* a detached signature of each file */
  PADLOCK_OPEN_CHECKSUM_LIST,   /* one signed checksum list of them all */
} PadlockOpenMode;

#define PADLOCK_TYPE_WINDOW (padlock_window_get_type ())
G_DECLARE_FINAL_TYPE (PadlockWindow, padlock_window, PADLOCK, WINDOW, AdwApplicationWindow)

PadlockWindow *padlock_window_new       (GtkApplication   *application);
/* Sorts FILES into encrypt and decrypt jobs and asks for passphrases. */
void           padlock_window_add_files (PadlockWindow    *self,
                                         GFile           **files,
                                         guint             n_files,
                                         PadlockOpenMode   mode);
PadlockQueue  *padlock_window_get_queue (PadlockWindow    *self);
/* Asks for files with a file chooser, then adds them as MODE says. */
void           padlock_window_choose_files (PadlockWindow   *self,
                                            PadlockOpenMode  mode);

/* With jobs unfinished, asks whether to stop them and returns TRUE: when
 * the user agrees, the jobs are cancelled, and once they have ended the
 * window closes (and the application quits, if QUIT_APP).  FALSE when
 * nothing runs: the caller closes or quits at once. */
gboolean       padlock_window_ask_to_quit  (PadlockWindow   *self,
                                            gboolean         quit_app);

/* A row's "Try Again": JOB failed on a wrong passphrase, every such job
 * is asked for again (win.retry); JOB was cancelled, it runs again as it
 * was, asking first for the passphrase when it had one. */
void           padlock_window_try_again    (PadlockWindow   *self,
                                            PadlockJob      *job);

/* Open Without Saving (issue 38): FILES decrypted into memory, each
 * opened in its viewer once authenticated (padlock-window-open.c). */
void padlock_window_open_without_saving (PadlockWindow  *self,
                                         GFile         **files,
                                         guint           n_files);

G_END_DECLS
