/* padlock-job-row.h - one job in the list: what, how far, how fast */
#pragma once

#include <gtk/gtk.h>

#include "padlock-job.h"

G_BEGIN_DECLS

#define PADLOCK_TYPE_JOB_ROW (padlock_job_row_get_type ())
G_DECLARE_FINAL_TYPE (PadlockJobRow, padlock_job_row, PADLOCK, JOB_ROW, GtkListBoxRow)

GtkWidget  *padlock_job_row_new     (PadlockJob    *job);
PadlockJob *padlock_job_row_get_job (PadlockJobRow *self);

G_END_DECLS
