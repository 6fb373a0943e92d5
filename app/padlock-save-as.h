/* padlock-save-as.h - "Save As…" for a file opened without saving
 * (issue 38): the plaintext still held in memory, copied into a file the
 * user chooses. */
#pragma once

#include <gtk/gtk.h>

#include "padlock-job.h"

G_BEGIN_DECLS

/* Asks where (a file chooser over WIDGET's window, the plaintext's name
 * suggested, in the input's folder) and writes JOB's plaintext there,
 * never over an existing file (padlock_memfd_save); a failure is said in
 * a dialog.  JOB must hold its plaintext (padlock_job_get_memfd), which
 * it keeps until the row is cleared. */
void padlock_save_as_run (GtkWidget  *widget,
                          PadlockJob *job);

G_END_DECLS
