/* padlock-folder.h - folders in jobs: a folder encrypts as FOLDER.tar,
 * and an archive decrypts back into a folder
 *
 * What PadlockJob calls when its input is a folder (encryption) or may be
 * an archive (decryption).  The worker-thread functions never touch the
 * job; they report through a PadlockFolderStatus that the main context
 * reads on the job's tick.
 */
#pragma once

#include <gio/gio.h>
#include <stdatomic.h>

#include "io.h"
#include "literal.h"
#include "tar.h"

G_BEGIN_DECLS

/* Shared between a job's worker (writes) and the main context (reads). */
typedef struct
{
  atomic_int counting;          /* 1 while the folder is being scanned */
  atomic_uint_fast64_t counted; /* entries counted so far */
  GMutex lock;
  char *current;                /* under LOCK: the file being read */
  GPtrArray *skipped;           /* under LOCK: names left out */
} PadlockFolderStatus;

void         padlock_folder_status_init      (PadlockFolderStatus *status);
void         padlock_folder_status_clear     (PadlockFolderStatus *status);
/* Main context: the row's words for it, or NULL when there is nothing to
 * say: "Counting files… 1,234", then the file being read. */
char        *padlock_folder_status_describe  (PadlockFolderStatus *status);
/* Main context: the FIFOs, sockets and devices left out, or NULL. */
char        *padlock_folder_status_skipped   (PadlockFolderStatus *status);

/* For tests: FUNC runs on a job's worker thread at each of its folder
 * scan's reports (every 256 entries, and at the end), after the count is
 * stored where the row reads it.  It may block, which holds the scan
 * there: a test can see "Counting files… 256" without racing the scan.
 * NULL removes it.  The application never sets one. */
typedef void (*PadlockFolderScanHook) (guint64  counted,
                                       gpointer user_data);
void         padlock_folder_set_scan_hook    (PadlockFolderScanHook func,
                                              gpointer             user_data);

/* A folder (symbolic links to folders too). */
gboolean     padlock_folder_is_folder        (GFile               *file);
/* Several items in one archive: named after their folder when they share
 * one, else "Archive" (see padlock_job_new_archive). */
char        *padlock_folder_items_name       (GFile              **items,
                                              guint                n_items);
/* "Photos" -> "Photos.tar": the name stored in the message. */
char        *padlock_folder_archive_name     (const char          *folder_name);

/* Worker thread: scans the N_ITEMS ITEMS (one folder, or several items
 * put in TOP/: pl_tar_source_new_items), counting into STATUS, then opens
 * the tar source of them.  *TOTAL receives the archive's expected size,
 * for the progress bar (pax headers aside). */
gpg_error_t  padlock_folder_source_new       (const char *const   *items,
                                              guint                n_items,
                                              const char          *top,
                                              PadlockFolderStatus *status,
                                              atomic_int          *cancel,
                                              pl_source          **out,
                                              gint64              *total);

/* Decryption.  Whether the input's name says archive: *.tar.gpg, *.tar.pgp
 * or *.tar.asc. */
gboolean     padlock_folder_is_archive_name  (const char          *input_name);

/* Makes the sink for a decryption that may unpack: a pl_tar_detector whose
 * choice is the folder extractor (DIR/FOLDER, FOLDER the archive's name
 * without .tar) when the first header is a tar's and INPUT_NAME or the
 * name stored in LITERAL (read at that moment; filled by the decryption
 * before any plaintext) ends in .tar; else FILE_SINK, made by the caller
 * and owned from now on. */
pl_sink     *padlock_folder_sink_new         (const char          *dir,
                                              const char          *input_name,
                                              const pl_literal_header *literal,
                                              pl_sink             *file_sink);
/* After commit: the unpacked folder's path, or NULL when the output went
 * to the file sink. */
const char  *padlock_folder_sink_get_folder  (pl_sink             *sink);
/* The file sink given above (borrowed), whether or not it was chosen. */
pl_sink     *padlock_folder_sink_get_file_sink (pl_sink           *sink);

/* What went wrong in words that name the file or entry, when SRC (a
 * folder source) or SINK (a folder sink) has a tar problem; else NULL.
 * Either may be NULL or of another kind when IS_FOLDER_SOURCE /
 * IS_FOLDER_SINK say so. */
GError      *padlock_folder_error            (pl_source           *src,
                                              gboolean             is_folder_source,
                                              pl_sink             *sink,
                                              gboolean             is_folder_sink,
                                              gpg_error_t          err);

G_END_DECLS
