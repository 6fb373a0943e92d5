/* padlock-job-row.h - one job in the list: what, how far, how fast */
#pragma once

#include <gtk/gtk.h>

#include "padlock-job.h"

G_BEGIN_DECLS

#define PADLOCK_TYPE_JOB_ROW (padlock_job_row_get_type ())
G_DECLARE_FINAL_TYPE (PadlockJobRow, padlock_job_row, PADLOCK, JOB_ROW, GtkBox)

/* JOB may be NULL: a row the list view fills later. */
GtkWidget  *padlock_job_row_new     (PadlockJob    *job);
/* Shows JOB (or nothing: NULL), and follows its changes until it shows
 * another.  The row holds a reference to JOB and one notify handler on
 * it, both let go when it shows another job, NULL, or is disposed: a row
 * the list view recycles leaves nothing on the job it showed before. */
void        padlock_job_row_set_job (PadlockJobRow *self,
                                     PadlockJob    *job);
PadlockJob *padlock_job_row_get_job (PadlockJobRow *self);

/* While HOLD (the pointer is over the list), a row that shows its job in
 * full does not shrink to one line when the job finishes; it does when
 * HOLD ends. */
void        padlock_job_row_set_hold_layout (PadlockJobRow *self,
                                             gboolean       hold);

/* NARROW (a window below 500 px): the name has the first line to itself,
 * the verdict and the buttons go on the second. */
void        padlock_job_row_set_narrow      (PadlockJobRow *self,
                                             gboolean       narrow);

G_END_DECLS
