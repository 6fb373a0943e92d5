/* padlock-queue.c - the jobs, as a GListModel, started a few at a time */
#include "padlock-queue.h"

#include <string.h>

#include "job.h"
#include "buffers.h"
#include "padlock-rate.h"

/* A sample of the bytes all jobs went through at most this often: each
 * is a pass over the jobs. */
#define RATE_STEP_US (G_USEC_PER_SEC / 20)

struct _PadlockQueue
{
  GObject parent_instance;

  /* Owned */
  GPtrArray *jobs;

  guint max_running;
  guint n_finished;
  gboolean busy;
  /* Counted as the jobs' states change, so that scheduling does not go
   * through every job each time one changes (10,000 jobs). */
  guint n_in_state[PADLOCK_JOB_CANCELLED + 1];
  guint first_queued;           /* no job before it is queued */
  /* Bytes all jobs have been through, sampled when asked for the
   * throughput (the graph's); those of cleared jobs are kept in
   * CLEARED_BYTES. */
  guint64 bytes;                /* at the newest sample */
  guint64 cleared_bytes;
  gint64 sampled;               /* when, 0: never */
  /* The bytes of the jobs that ended before their rows showed a rate
   * (small files), and their rate, measured as each job's is: what the
   * rows' rates leave out. */
  guint64 unrated_bytes;
  PadlockRate unrated_rate;
  double rows_rate;             /* the sum of the moving jobs' rates */
  double peak_job_rate;         /* the highest a job showed */
};

static void list_model_iface_init (GListModelInterface *iface);

G_DEFINE_FINAL_TYPE_WITH_CODE (PadlockQueue, padlock_queue, G_TYPE_OBJECT,
                               G_IMPLEMENT_INTERFACE (G_TYPE_LIST_MODEL,
                                                      list_model_iface_init))

enum {
  PROP_0,
  PROP_BUSY,
  PROP_N_FINISHED,
  PROP_MAX_RUNNING,
  N_PROPS
};

static GParamSpec *properties[N_PROPS];

static GType
padlock_queue_get_item_type (GListModel *model)
{
  return PADLOCK_TYPE_JOB;
}

static guint
padlock_queue_get_n_items (GListModel *model)
{
  return PADLOCK_QUEUE (model)->jobs->len;
}

static gpointer
padlock_queue_get_item (GListModel *model,
                        guint       position)
{
  PadlockQueue *self = PADLOCK_QUEUE (model);

  if (position >= self->jobs->len)
    return NULL;
  return g_object_ref (g_ptr_array_index (self->jobs, position));
}

static void
list_model_iface_init (GListModelInterface *iface)
{
  iface->get_item_type = padlock_queue_get_item_type;
  iface->get_n_items = padlock_queue_get_n_items;
  iface->get_item = padlock_queue_get_item;
}

/* The plaintext bytes JOB has been through: those read so far while it
 * runs, all of them once it is checking its output or done. */
static guint64
job_bytes (PadlockJob *job)
{
  PadlockJobState state = padlock_job_get_state (job);
  gint64 total = padlock_job_get_bytes_total (job);

  if (state == PADLOCK_JOB_QUEUED)
    return 0;
  if ((state == PADLOCK_JOB_CHECKING_OUTPUT || state == PADLOCK_JOB_DONE)
      && total >= 0)
    return (guint64) total;
  return padlock_job_get_bytes_done (job);
}

static guint
effective_max (PadlockQueue *self)
{
  return self->max_running ? self->max_running
                           : (guint) pl_default_threads ();
}

static guint
n_running (PadlockQueue *self)
{
  return self->n_in_state[PADLOCK_JOB_RUNNING]
         + self->n_in_state[PADLOCK_JOB_CHECKING_OUTPUT];
}

static guint
n_ended (PadlockQueue *self)
{
  return self->n_in_state[PADLOCK_JOB_DONE]
         + self->n_in_state[PADLOCK_JOB_FAILED]
         + self->n_in_state[PADLOCK_JOB_CANCELLED];
}

/* Moves JOB from the counter of the state it was last seen in (kept on
 * the job) to its present state's; STILL FALSE takes it out. */
static void
count_job (PadlockQueue *self,
           PadlockJob   *job,
           gboolean      still)
{
  static GQuark seen_quark;
  gpointer seen;
  PadlockJobState state = padlock_job_get_state (job);

  if (!seen_quark)
    seen_quark = g_quark_from_static_string ("padlock-queue-seen-state");
  seen = g_object_get_qdata (G_OBJECT (job), seen_quark);
  if (seen)
    self->n_in_state[GPOINTER_TO_INT (seen) - 1]--;
  if (!still)
    {
      g_object_set_qdata (G_OBJECT (job), seen_quark, NULL);
      return;
    }
  self->n_in_state[state]++;
  g_object_set_qdata (G_OBJECT (job), seen_quark, GINT_TO_POINTER (state + 1));
  /* Tried again: queued once more, wherever it is. */
  if (state == PADLOCK_JOB_QUEUED && seen
      && GPOINTER_TO_INT (seen) - 1 != PADLOCK_JOB_QUEUED)
    self->first_queued = 0;
}

/* The first queued job, or NULL; moves FIRST_QUEUED past the others. */
static PadlockJob *
next_queued (PadlockQueue *self)
{
  for (; self->first_queued < self->jobs->len; self->first_queued++)
    {
      PadlockJob *job = g_ptr_array_index (self->jobs, self->first_queued);

      if (padlock_job_get_state (job) == PADLOCK_JOB_QUEUED)
        return job;
    }
  return NULL;
}

/* A batch starts: samples older than the rate's window (the window sat
 * idle while the user was in a dialog) say nothing of when the batch's
 * bytes will move, and would spread its first second over that pause;
 * from now on the count is known. */
static void
start_unrated_rate (PadlockQueue *self)
{
  gint64 now = g_get_monotonic_time ();
  gint64 last = padlock_rate_last_time (&self->unrated_rate);

  if (last && now - last > PADLOCK_RATE_WINDOW_US)
    padlock_rate_reset (&self->unrated_rate);
  padlock_rate_push (&self->unrated_rate, now, self->unrated_bytes, NULL);
}

/* Starts what may start, and tells when the numbers change. */
static void
padlock_queue_schedule (PadlockQueue *self)
{
  gboolean busy;
  int cores = pl_default_threads ();
  /* Once a call, not once a job: the core count is read from sysfs, and
   * a batch of 1,000 files calls this some 3,000 times. */
  guint max_running = effective_max (self);
  PadlockJob *job = NULL;
  guint queued = self->n_in_state[PADLOCK_JOB_QUEUED];

  if (queued && n_running (self) < max_running)
    job = next_queued (self);
  if (job)
    {
      /* One big job gets every core; several share them. */
      guint will_run = MIN (n_running (self) + queued, max_running);

      /* Starting notifies the state, which reschedules. */
      padlock_job_start (job, MAX (1, cores / (int) MAX (will_run, 1)));
      return;
    }

  if (self->n_finished != n_ended (self))
    {
      self->n_finished = n_ended (self);
      g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_N_FINISHED]);
    }
  busy = n_running (self) + queued > 0;
  if (self->busy != busy)
    {
      self->busy = busy;
      if (busy)
        start_unrated_rate (self);
      /* The batch is over: the buffers its jobs kept warm for each other
       * (core/buffers.h) go back to the kernel, so that a window left
       * open holds none of them. */
      if (!busy)
        pl_buffers_trim ();
      g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_BUSY]);
    }
}

static gboolean
is_moving (PadlockJobState state)
{
  return state == PADLOCK_JOB_RUNNING || state == PADLOCK_JOB_CHECKING_OUTPUT;
}

/* Marks on a job that its row showed a rate while it ran (this run). */
static GQuark
rated_quark (void)
{
  static GQuark quark;

  if (!quark)
    quark = g_quark_from_static_string ("padlock-queue-rated");
  return quark;
}

/* What JOB adds to the rows' rate, as last counted (kept on the job). */
static GQuark
counted_rate_quark (void)
{
  static GQuark quark;

  if (!quark)
    quark = g_quark_from_static_string ("padlock-queue-counted-rate");
  return quark;
}

/* Brings JOB's part of ROWS_RATE up to the rate its row shows while it
 * moves (0 otherwise); STILL FALSE takes it out. */
static void
count_rate (PadlockQueue *self,
            PadlockJob   *job,
            gboolean      still)
{
  double *counted = g_object_get_qdata (G_OBJECT (job), counted_rate_quark ());
  double rate = still && is_moving (padlock_job_get_state (job))
                ? padlock_job_get_throughput (job) : 0;

  if (!counted)
    {
      counted = g_new0 (double, 1);
      g_object_set_qdata_full (G_OBJECT (job), counted_rate_quark (), counted, g_free);
    }
  self->rows_rate += rate - *counted;
  *counted = rate;
  /* No drift when nothing moves. */
  if (!n_running (self))
    self->rows_rate = 0;
}

/* Every rate a row shows (padlock_job_get_throughput while running or
 * checking the output, the average when done) counts for the peak. */
static void
on_job_throughput (PadlockJob   *job,
                   GParamSpec   *pspec,
                   PadlockQueue *self)
{
  PadlockJobState state = padlock_job_get_state (job);
  double rate = padlock_job_get_throughput (job);

  count_rate (self, job, TRUE);
  if (is_moving (state) && rate > 0)
    g_object_set_qdata (G_OBJECT (job), rated_quark (), GINT_TO_POINTER (1));
  if (is_moving (state) || state == PADLOCK_JOB_DONE)
    self->peak_job_rate = MAX (self->peak_job_rate, rate);
}

static void
on_job_state (PadlockJob   *job,
              GParamSpec   *pspec,
              PadlockQueue *self)
{
  PadlockJobState state = padlock_job_get_state (job);

  count_job (self, job, TRUE);
  count_rate (self, job, TRUE);
  if (state == PADLOCK_JOB_QUEUED || state == PADLOCK_JOB_RUNNING)
    g_object_set_qdata (G_OBJECT (job), rated_quark (), NULL);
  /* Ended without a rate of its own: its bytes count by themselves. */
  if (padlock_job_is_finished (job)
      && !g_object_get_qdata (G_OBJECT (job), rated_quark ()))
    {
      self->unrated_bytes += job_bytes (job);
      g_object_set_qdata (G_OBJECT (job), rated_quark (), GINT_TO_POINTER (1));
    }
  if (state == PADLOCK_JOB_DONE)
    on_job_throughput (job, NULL, self);
  padlock_queue_schedule (self);
}

PadlockQueue *
padlock_queue_new (void)
{
  return g_object_new (PADLOCK_TYPE_QUEUE, NULL);
}

void
padlock_queue_add (PadlockQueue *self,
                   PadlockJob   *job)
{
  g_return_if_fail (PADLOCK_IS_QUEUE (self));
  g_return_if_fail (PADLOCK_IS_JOB (job));

  g_ptr_array_add (self->jobs, g_object_ref (job));
  count_job (self, job, TRUE);
  g_signal_connect_object (job, "notify::state", G_CALLBACK (on_job_state),
                           self, 0);
  g_signal_connect_object (job, "notify::throughput", G_CALLBACK (on_job_throughput),
                           self, 0);
  g_list_model_items_changed (G_LIST_MODEL (self), self->jobs->len - 1, 0, 1);
  padlock_queue_schedule (self);
}

/* Removes the finished jobs from JOBS[FROM, TO) (they all are), and tells
 * of it in one items-changed. */
static void
remove_range (PadlockQueue *self,
              guint         from,
              guint         to)
{
  for (guint i = from; i < to; i++)
    {
      PadlockJob *job = g_ptr_array_index (self->jobs, i);

      self->cleared_bytes += job_bytes (job);
      count_job (self, job, FALSE);
      count_rate (self, job, FALSE);
      g_signal_handlers_disconnect_by_func (job, on_job_state, self);
      g_signal_handlers_disconnect_by_func (job, on_job_throughput, self);
    }
  g_ptr_array_remove_range (self->jobs, from, to - from);
  g_list_model_items_changed (G_LIST_MODEL (self), from, to - from, 0);
}

void
padlock_queue_clear_finished (PadlockQueue *self)
{
  guint i;

  g_return_if_fail (PADLOCK_IS_QUEUE (self));

  /* From the end, one run of finished jobs at a time: one items-changed a
   * run (Clearing 10,000 finished jobs is one signal, not 10,000), and
   * what is moved down is only what follows the run, already thinned. */
  i = self->jobs->len;
  while (i > 0)
    {
      guint end;

      while (i > 0 && !padlock_job_is_finished (g_ptr_array_index (self->jobs, i - 1)))
        i--;
      end = i;
      while (i > 0 && padlock_job_is_finished (g_ptr_array_index (self->jobs, i - 1)))
        i--;
      if (i < end)
        remove_range (self, i, end);
    }
  self->first_queued = 0;
  padlock_queue_schedule (self);
}

void
padlock_queue_cancel_all (PadlockQueue *self)
{
  g_return_if_fail (PADLOCK_IS_QUEUE (self));

  for (guint i = 0; i < self->jobs->len; i++)
    padlock_job_cancel (g_ptr_array_index (self->jobs, i));
}

void
padlock_queue_set_max_running (PadlockQueue *self,
                               guint         max_running)
{
  g_return_if_fail (PADLOCK_IS_QUEUE (self));

  if (self->max_running == max_running)
    return;
  self->max_running = max_running;
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_MAX_RUNNING]);
  padlock_queue_schedule (self);
}

guint
padlock_queue_get_max_running (PadlockQueue *self)
{
  g_return_val_if_fail (PADLOCK_IS_QUEUE (self), 0);
  return self->max_running;
}

gboolean
padlock_queue_get_busy (PadlockQueue *self)
{
  g_return_val_if_fail (PADLOCK_IS_QUEUE (self), FALSE);
  return self->busy;
}

guint
padlock_queue_get_n_finished (PadlockQueue *self)
{
  g_return_val_if_fail (PADLOCK_IS_QUEUE (self), 0);
  return self->n_finished;
}

/* Brings the sample of every job's bytes up to date, at most every
 * RATE_STEP_US: the window asks on every job's change too, thousands of
 * times a second in a batch of small files. */
static void
padlock_queue_sample (PadlockQueue *self)
{
  gint64 now = g_get_monotonic_time ();
  guint64 bytes = self->cleared_bytes;

  if (self->sampled && now - self->sampled < RATE_STEP_US)
    return;
  self->sampled = now;
  padlock_rate_push (&self->unrated_rate, now, self->unrated_bytes, NULL);
  for (guint i = 0; i < self->jobs->len; i++)
    bytes += job_bytes (g_ptr_array_index (self->jobs, i));
  self->bytes = bytes;
}

double
padlock_queue_get_throughput (PadlockQueue *self)
{
  g_return_val_if_fail (PADLOCK_IS_QUEUE (self), 0);
  padlock_queue_sample (self);
  return MAX (self->rows_rate, 0) + padlock_rate_get (&self->unrated_rate);
}

guint64
padlock_queue_get_bytes (PadlockQueue *self)
{
  g_return_val_if_fail (PADLOCK_IS_QUEUE (self), 0);
  padlock_queue_sample (self);
  return self->bytes;
}

double
padlock_queue_get_peak_job_rate (PadlockQueue *self)
{
  g_return_val_if_fail (PADLOCK_IS_QUEUE (self), 0);
  padlock_queue_sample (self);
  return self->peak_job_rate;
}

void
padlock_queue_reset_peak_job_rate (PadlockQueue *self)
{
  g_return_if_fail (PADLOCK_IS_QUEUE (self));
  self->peak_job_rate = 0;
}

static void
padlock_queue_dispose (GObject *object)
{
  PadlockQueue *self = (PadlockQueue *) object;

  if (self->jobs)
    for (guint i = 0; i < self->jobs->len; i++)
      {
        count_job (self, g_ptr_array_index (self->jobs, i), FALSE);
        g_signal_handlers_disconnect_by_func (g_ptr_array_index (self->jobs, i),
                                              on_job_state, self);
        g_signal_handlers_disconnect_by_func (g_ptr_array_index (self->jobs, i),
                                              on_job_throughput, self);
      }
  g_clear_pointer (&self->jobs, g_ptr_array_unref);

  G_OBJECT_CLASS (padlock_queue_parent_class)->dispose (object);
}

static void
padlock_queue_get_property (GObject    *object,
                            guint       prop_id,
                            GValue     *value,
                            GParamSpec *pspec)
{
  PadlockQueue *self = PADLOCK_QUEUE (object);

  switch (prop_id)
    {
    case PROP_BUSY:
      g_value_set_boolean (value, self->busy);
      break;
    case PROP_N_FINISHED:
      g_value_set_uint (value, self->n_finished);
      break;
    case PROP_MAX_RUNNING:
      g_value_set_uint (value, self->max_running);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
padlock_queue_set_property (GObject      *object,
                            guint         prop_id,
                            const GValue *value,
                            GParamSpec   *pspec)
{
  PadlockQueue *self = PADLOCK_QUEUE (object);

  switch (prop_id)
    {
    case PROP_MAX_RUNNING:
      padlock_queue_set_max_running (self, g_value_get_uint (value));
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
padlock_queue_class_init (PadlockQueueClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);

  object_class->dispose = padlock_queue_dispose;
  object_class->get_property = padlock_queue_get_property;
  object_class->set_property = padlock_queue_set_property;

  properties[PROP_BUSY] =
    g_param_spec_boolean ("busy", NULL, NULL, FALSE,
                          G_PARAM_READABLE | G_PARAM_EXPLICIT_NOTIFY
                          | G_PARAM_STATIC_STRINGS);
  properties[PROP_N_FINISHED] =
    g_param_spec_uint ("n-finished", NULL, NULL, 0, G_MAXUINT, 0,
                       G_PARAM_READABLE | G_PARAM_EXPLICIT_NOTIFY
                       | G_PARAM_STATIC_STRINGS);
  properties[PROP_MAX_RUNNING] =
    g_param_spec_uint ("max-running", NULL, NULL, 0, 1024, 0,
                       G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY
                       | G_PARAM_STATIC_STRINGS);

  g_object_class_install_properties (object_class, N_PROPS, properties);
}

static void
padlock_queue_init (PadlockQueue *self)
{
  self->jobs = g_ptr_array_new_with_free_func (g_object_unref);
}

guint
padlock_queue_count_state (PadlockQueue    *self,
                           PadlockJobState  state)
{
  g_return_val_if_fail (PADLOCK_IS_QUEUE (self), 0);
  g_return_val_if_fail (state <= PADLOCK_JOB_CANCELLED, 0);
  return self->n_in_state[state];
}
