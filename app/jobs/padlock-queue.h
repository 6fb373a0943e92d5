/* padlock-queue.h - the jobs, as a GListModel, started a few at a time */
#pragma once

#include <gio/gio.h>

#include "padlock-job.h"

G_BEGIN_DECLS

#define PADLOCK_TYPE_QUEUE (padlock_queue_get_type ())
G_DECLARE_FINAL_TYPE (PadlockQueue, padlock_queue, PADLOCK, QUEUE, GObject)

PadlockQueue *padlock_queue_new                (void);
void          padlock_queue_add                (PadlockQueue *self,
                                                PadlockJob   *job);
/* Removes the jobs that have finished. */
void          padlock_queue_clear_finished     (PadlockQueue *self);
void          padlock_queue_cancel_all         (PadlockQueue *self);
/* 0: one per core. */
void          padlock_queue_set_max_running    (PadlockQueue *self,
                                                guint         max_running);
guint         padlock_queue_get_max_running    (PadlockQueue *self);
gboolean      padlock_queue_get_busy           (PadlockQueue *self);
guint         padlock_queue_get_n_finished     (PadlockQueue *self);
/* How many jobs are in STATE now, kept as they change: a summary of
 * 10,000 jobs need not go through them. */
guint         padlock_queue_count_state        (PadlockQueue    *self,
                                                PadlockJobState  state);
/* Plaintext bytes a second, all jobs together: the sum of the rates
 * their rows show (padlock_job_get_throughput of the running jobs, 0
 * while one waits for pinentry), and the rate of the bytes of the jobs
 * that ended before their rows showed one (a batch of small files),
 * measured as a job's is (padlock-rate.h).  A call takes a sample (a
 * pass over the jobs) at most every 50 ms, and otherwise gives the last
 * rate: cheap to call on every change. */
double        padlock_queue_get_throughput     (PadlockQueue *self);
/* The bytes every job went through so far, cleared ones too. */
guint64       padlock_queue_get_bytes          (PadlockQueue *self);
/* The highest rate a job's row showed: a running job's throughput at
 * the samples, a finished one's average; 0 after a reset. */
double        padlock_queue_get_peak_job_rate  (PadlockQueue *self);
void          padlock_queue_reset_peak_job_rate (PadlockQueue *self);

G_END_DECLS
