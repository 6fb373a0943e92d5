/* padlock-archive-window.h - the files of a folder opened without saving,
 * to open one of them (issue 38)
 *
 * Shown when a message opened without saving holds a tar archive (a
 * folder encrypted by Padlock or gpgtar): the archive is in memory,
 * authenticated, and listed (padlock-memfd-archive.h).  Each row is a
 * file: its path inside the archive, size and date, escaped.  Enter or a
 * double click on a row (GtkListView's activate) copies that file into a
 * memory file of its own and hands it to its viewer (padlock-viewer.h);
 * the line under the list says where it opened, or why not.  The window
 * holds the archive's memory until it is closed.
 */
#pragma once

#include <adwaita.h>

#include "padlock-memfd.h"
#include "tar-read.h"

G_BEGIN_DECLS

#define PADLOCK_TYPE_ARCHIVE_WINDOW (padlock_archive_window_get_type ())

G_DECLARE_FINAL_TYPE (PadlockArchiveWindow, padlock_archive_window,
                      PADLOCK, ARCHIVE_WINDOW, AdwWindow)

/* INPUT: the message's name (the title); ARCHIVE: its plaintext, listed
 * into FILES, which the window takes (FILES is emptied); LIMIT: the
 * memory a file opened may take (padlock_memfd_limit's). */
PadlockArchiveWindow *padlock_archive_window_new  (GtkWindow      *parent,
                                                   const char     *input,
                                                   PadlockMemfd   *archive,
                                                   pl_tar_listing *files,
                                                   guint64         limit);
/* The archive the window lists (borrowed). */
PadlockMemfd         *padlock_archive_window_get_archive (PadlockArchiveWindow *self);
/* Opens the file at POSITION in the list, as activating its row does.
 * The status line says what happened; FALSE when nothing was opened. */
gboolean              padlock_archive_window_open (PadlockArchiveWindow *self,
                                                   guint                 position);

G_END_DECLS
