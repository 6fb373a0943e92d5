/* padlock-job.c - one file to encrypt or decrypt, run on a worker thread */
#include "padlock-job.h"

#include <stdatomic.h>
#include <string.h>
#include <sys/stat.h>
#include <glib/gi18n.h>
#include <glib/gstdio.h>

#include "job.h"
#include "algo.h"
#include "compress.h"
#include "padlock-digest.h"
#include "padlock-error.h"
#include "padlock-folder.h"
#include "padlock-output.h"

#define TICK_MS 100             /* at most ten notifications a second */
#define N_SAMPLES 20            /* throughput over the last two seconds */

struct _PadlockJob
{
  GObject parent_instance;

  /* Owned */
  GFile *input;
  GFile *output;
  char *output_name;
  char *hidden_name;            /* with "Hide file names": the output's */
  char *archive_name;           /* a folder's: "NAME.tar" */
  char *archive_top;            /* several items': NAME */
  PadlockJobConfig config;
  PadlockSecret *secret;
  GError *error;
  GApplication *app;            /* held while running */

  PadlockDirection direction;
  PadlockJobState state;
  guint64 bytes_done;
  gint64 bytes_total;
  double throughput;
  double time_left;
  gboolean original_deleted;
  guint batch;
  gboolean is_folder;           /* encrypting a folder */
  GStrv items;                  /* several items in one archive, or NULL */
  char *detail;
  PadlockFolderStatus folder_status;
  gint64 plaintext_size;        /* decryption: -1 until done */

  guint tick_id;
  gint64 start_time;
  gint64 sample_time[N_SAMPLES];
  guint64 sample_bytes[N_SAMPLES];
  guint n_samples;
  guint next_sample;

  /* Shared with the worker */
  atomic_int cancel;
  atomic_int phase;             /* 1 while verifying */
  atomic_uint_fast64_t atomic_done;
  atomic_int_fast64_t atomic_total;
  /* Key derivation (issue 13): whether it runs, since when, and how long
   * it took in all, which the throughput leaves out. */
  atomic_int atomic_deriving;
  atomic_int_fast64_t deriving_since;
  atomic_int_fast64_t derive_us;
  gboolean deriving;
};

G_DEFINE_TYPE (PadlockJob, padlock_job, G_TYPE_OBJECT)

G_DEFINE_ENUM_TYPE (PadlockDirection, padlock_direction,
  G_DEFINE_ENUM_VALUE (PADLOCK_DIRECTION_ENCRYPT, "encrypt"),
  G_DEFINE_ENUM_VALUE (PADLOCK_DIRECTION_DECRYPT, "decrypt"))

G_DEFINE_ENUM_TYPE (PadlockJobState, padlock_job_state,
  G_DEFINE_ENUM_VALUE (PADLOCK_JOB_QUEUED, "queued"),
  G_DEFINE_ENUM_VALUE (PADLOCK_JOB_RUNNING, "running"),
  G_DEFINE_ENUM_VALUE (PADLOCK_JOB_VERIFYING, "verifying"),
  G_DEFINE_ENUM_VALUE (PADLOCK_JOB_DONE, "done"),
  G_DEFINE_ENUM_VALUE (PADLOCK_JOB_FAILED, "failed"),
  G_DEFINE_ENUM_VALUE (PADLOCK_JOB_CANCELLED, "cancelled"))

enum {
  PROP_0,
  PROP_INPUT,
  PROP_OUTPUT,
  PROP_OUTPUT_NAME,
  PROP_DIRECTION,
  PROP_STATE,
  PROP_BYTES_DONE,
  PROP_BYTES_TOTAL,
  PROP_PROGRESS,
  PROP_THROUGHPUT,
  PROP_TIME_LEFT,
  PROP_ERROR,
  PROP_DETAIL,
  PROP_DERIVING,
  N_PROPS
};

static GParamSpec *properties[N_PROPS];

/* The work handed to the job's thread: what it needs, copied so that it
 * never reads the job's fields, and what it produced. */
typedef struct
{
  PadlockDirection direction;
  int profile;
  int cipher_algo;
  int compress_algo;
  gboolean armor;
  gboolean delete_original;
  gboolean allow_expansion;
  int threads;
  char *input_path;
  char *input_name;
  PadlockOutputPlan *plan;
  PadlockSecret *secret;
  pl_decrypt_result result;
  gboolean folder;              /* encrypting a folder as NAME.tar */
  gboolean unpack;              /* decrypting: a tar may become a folder */
  char *stored_name;            /* in the literal packet */
  GStrv items;                  /* padlock_job_new_archive's */
  char *archive_top;            /* their archive's name, less .tar */
  /* Results */
  char *output_path;
  gboolean original_deleted;
  gint64 plaintext_size;        /* decryption: the output's size */
} JobWork;

static void
job_work_free (gpointer data)
{
  JobWork *work = data;

  g_free (work->input_path);
  g_free (work->input_name);
  g_clear_pointer (&work->plan, padlock_output_plan_free);
  g_free (work->output_path);
  g_free (work->stored_name);
  g_strfreev (work->items);
  g_free (work->archive_top);
  g_clear_pointer (&work->secret, padlock_secret_unref);
  g_free (work);
}

void
padlock_job_config_clear (PadlockJobConfig *config)
{
  g_clear_pointer (&config->output_dir, g_free);
}

static void
padlock_job_set_state (PadlockJob      *self,
                       PadlockJobState  state)
{
  if (self->state == state)
    return;
  self->state = state;
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_STATE]);
}

static void
padlock_job_set_output_name (PadlockJob *self,
                             const char *name)
{
  if (!g_strcmp0 (self->output_name, name))
    return;
  g_free (self->output_name);
  self->output_name = g_strdup (name);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_OUTPUT_NAME]);
}

static void
set_double (PadlockJob *self,
            double     *field,
            double      value,
            int         prop)
{
  if (*field == value)
    return;
  *field = value;
  g_object_notify_by_pspec (G_OBJECT (self), properties[prop]);
}

static void
set_bytes (PadlockJob *self,
           guint64     done,
           gint64      total)
{
  gboolean changed = FALSE;

  if (self->bytes_done != done)
    {
      self->bytes_done = done;
      g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_BYTES_DONE]);
      changed = TRUE;
    }
  if (self->bytes_total != total)
    {
      self->bytes_total = total;
      g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_BYTES_TOTAL]);
      changed = TRUE;
    }
  if (changed)
    g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_PROGRESS]);
}

static void
set_deriving (PadlockJob *self,
              gboolean    deriving)
{
  if (self->deriving == deriving)
    return;
  self->deriving = deriving;
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_DERIVING]);
}

static void
reset_samples (PadlockJob *self)
{
  self->n_samples = 0;
  self->next_sample = 0;
}

/* Main context: brings the properties up to what the worker stored. */
static void
padlock_job_update (PadlockJob *self)
{
  guint64 done = atomic_load (&self->atomic_done);
  gint64 total = atomic_load (&self->atomic_total);
  gint64 now = g_get_monotonic_time ();
  guint oldest;

  g_object_freeze_notify (G_OBJECT (self));

  if (atomic_load (&self->phase) == 1 && self->state == PADLOCK_JOB_RUNNING)
    {
      padlock_job_set_state (self, PADLOCK_JOB_VERIFYING);
      reset_samples (self);
    }
  if (total < 0)
    total = self->bytes_total;
  set_bytes (self, done, total);
  set_deriving (self, atomic_load (&self->atomic_deriving));

  self->sample_time[self->next_sample] = now;
  self->sample_bytes[self->next_sample] = done;
  self->next_sample = (self->next_sample + 1) % N_SAMPLES;
  if (self->n_samples < N_SAMPLES)
    self->n_samples++;
  oldest = (self->next_sample + N_SAMPLES - self->n_samples) % N_SAMPLES;

  if (now - self->sample_time[oldest] >= G_USEC_PER_SEC / 4
      && done >= self->sample_bytes[oldest])
    {
      double seconds = (now - self->sample_time[oldest]) / (double) G_USEC_PER_SEC;
      double rate = (done - self->sample_bytes[oldest]) / seconds;

      set_double (self, &self->throughput, rate, PROP_THROUGHPUT);
      if (rate > 0 && total >= 0 && (guint64) total >= done)
        set_double (self, &self->time_left, (total - done) / rate,
                    PROP_TIME_LEFT);
      else
        set_double (self, &self->time_left, -1, PROP_TIME_LEFT);
    }

  g_object_thaw_notify (G_OBJECT (self));
}

static void
set_detail (PadlockJob *self,
            char       *detail)
{
  if (!g_strcmp0 (self->detail, detail))
    {
      g_free (detail);
      return;
    }
  g_free (self->detail);
  self->detail = detail;
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_DETAIL]);
}

static gboolean
padlock_job_tick (gpointer user_data)
{
  PadlockJob *self = PADLOCK_JOB (user_data);

  padlock_job_update (self);
  if (self->is_folder)
    set_detail (self, padlock_folder_status_describe (&self->folder_status));
  return G_SOURCE_CONTINUE;
}

/* The job's thread: stores, never notifies. */
static void
on_core_progress (void     *user_data,
                  uint64_t  done,
                  int64_t   total)
{
  PadlockJob *self = user_data;

  atomic_store (&self->atomic_done, done);
  /* A folder's stream has no size: keep the scan's estimate. */
  if (total >= 0)
    atomic_store (&self->atomic_total, total);
}

/* The one place where the job hands its passphrase to encryption. */
static gpg_error_t
encrypt_with_secret (JobWork              *work,
                     pl_source            *src,
                     pl_sink              *sink,
                     const pl_job_control *ctl)
{
  pl_encrypt_options opts;
  gsize pw_len;
  const char *pw = padlock_secret_get_data (work->secret, &pw_len);
  GStatBuf st;

  pl_encrypt_options_init (&opts);
  opts.profile = (pl_profile) work->profile;
  if (work->cipher_algo)
    opts.cipher_algo = work->cipher_algo;
  opts.compress_algo = work->compress_algo;
  opts.armor = work->armor;
  /* The real name, also when the output's is hidden ("NAME.tar" for a
   * folder). */
  opts.file_name = work->stored_name;
  if (!g_stat (work->input_path, &st))
    opts.file_date = (uint32_t) st.st_mtime;
  pl_key key = pl_key_passphrase (pw, pw_len);
  opts.keys = &key;
  opts.n_keys = 1;
  /* The batch derives once for all its files (issue 13). */
  opts.batch = padlock_secret_get_batch (work->secret);
  return pl_encrypt (src, sink, &opts, ctl);
}

/* The one place where the job hands its passphrase (and any other
 * decryption option) to the engine: for the job, and to verify its
 * output. */
static gpg_error_t
decrypt_with_secret (JobWork              *work,
                     pl_source            *src,
                     pl_sink              *sink,
                     pl_decrypt_result    *result,
                     const pl_job_control *ctl)
{
  gsize pw_len;
  const char *pw = padlock_secret_get_data (work->secret, &pw_len);
  pl_key key = pl_key_passphrase (pw, pw_len);
  pl_decrypt_options opts = { 0 };

  opts.keys = &key;
  opts.n_keys = 1;
  if (work->allow_expansion)
    opts.expansion_floor = PL_INFLATE_NO_LIMIT;
  opts.batch = padlock_secret_get_batch (work->secret);
  return pl_decrypt (src, sink, &opts, result, ctl);
}

/* Decrypts what was just written and compares it with what was read. */
static gpg_error_t
verify_output (PadlockJob           *self,
               JobWork              *work,
               const PadlockDigest  *expected,
               const pl_job_control *ctl,
               gboolean             *verified)
{
  PadlockDigest digest;
  pl_source *src = NULL;
  pl_sink *sink = NULL;
  pl_decrypt_result result = { 0 };
  gpg_error_t err;

  *verified = FALSE;
  padlock_digest_init (&digest);
  atomic_store (&self->phase, 1);
  atomic_store (&self->atomic_done, 0);
  err = pl_source_new_file (work->output_path, &src);
  if (err)
    goto leave;
  sink = padlock_digest_sink_new (&digest);
  err = decrypt_with_secret (work, src, sink, &result, ctl);
  if (!err)
    *verified = padlock_digest_equal (expected, &digest);

 leave:
  pl_sink_free (sink);
  pl_source_free (src);
  padlock_digest_clear (&digest);
  return err;
}

/* After encrypting with "delete original": the output must decrypt to
 * what was read, else it goes and the input stays. */
static GError *
verify_and_delete (PadlockJob           *self,
                   JobWork              *work,
                   const PadlockDigest  *digest,
                   const pl_job_control *ctl)
{
  gboolean verified = FALSE;
  gpg_error_t err = verify_output (self, work, digest, ctl, &verified);

  /* Cancelled while verifying: the output stays, so does the input, and
   * the job is done. */
  if (err && atomic_load (&self->cancel))
    return NULL;
  if (!verified)
    {
      g_unlink (work->output_path);
      return g_error_new (PADLOCK_ERROR, PADLOCK_ERROR_NOT_VERIFIED,
                          _("The encrypted file did not decrypt to the "
                            "original, so it was removed and %s was kept."),
                          work->input_name);
    }
  if (g_unlink (work->input_path) == 0)
    work->original_deleted = TRUE;
  return NULL;
}

/* From the engine: key derivation starts or ends (on the job's thread). */
static void
on_core_deriving (void *user_data,
                  int   deriving)
{
  PadlockJob *self = user_data;
  gint64 now = g_get_monotonic_time ();

  if (deriving)
    atomic_store (&self->deriving_since, now);
  else
    atomic_fetch_add (&self->derive_us,
                      now - atomic_load (&self->deriving_since));
  atomic_store (&self->atomic_deriving, deriving);
}

static pl_job_control
job_control (PadlockJob *self,
             JobWork    *work)
{
  pl_job_control ctl = {
    .progress = on_core_progress,
    .user_data = self,
    .cancel = &self->cancel,
    .threads = work->threads,
    .deriving = on_core_deriving,
  };
  return ctl;
}

/* A folder: scanned (the row counts), then read as a tar stream. */
static gpg_error_t
open_folder_input (PadlockJob *self,
                   JobWork    *work,
                   pl_source **src)
{
  const char *one[1] = { work->input_path };
  gint64 total = -1;
  gpg_error_t err;

  if (work->items)
    err = padlock_folder_source_new ((const char *const *) work->items,
                                     g_strv_length (work->items),
                                     work->archive_top, &self->folder_status,
                                     &self->cancel, src, &total);
  else
    err = padlock_folder_source_new (one, 1, NULL, &self->folder_status,
                                     &self->cancel, src, &total);
  atomic_store (&self->atomic_total, total);
  return err;
}

/* The input, and the output as the plan names it. */
static gpg_error_t
open_input_output (PadlockJob  *self,
                   JobWork     *work,
                   pl_source  **src,
                   pl_sink    **sink)
{
  gpg_error_t err;

  if (work->folder)
    err = open_folder_input (self, work, src);
  else
    err = pl_source_new_file (work->input_path, src);
  if (err)
    return err;
  if ((*src)->size >= 0)
    atomic_store (&self->atomic_total, (*src)->size);
  err = padlock_output_sink_new (work->plan,
                                 work->direction == PADLOCK_DIRECTION_DECRYPT
                                 ? &work->result.literal : NULL,
                                 sink);
  if (!err && work->unpack)
    *sink = padlock_folder_sink_new (work->plan->dir, work->input_name,
                                     &work->result.literal, *sink);
  return err;
}

/* What was written: the file, or the folder an archive became. */
static char *
output_path (JobWork *work,
             pl_sink *sink)
{
  if (work->unpack && padlock_folder_sink_get_folder (sink))
    return g_strdup (padlock_folder_sink_get_folder (sink));
  return g_strdup (pl_sink_file_path (work->unpack
                                      ? padlock_folder_sink_get_file_sink (sink)
                                      : sink));
}

static void
return_outcome (GTask       *task,
                gpg_error_t  err,
                GError      *error)
{
  if (err && !error)
    error = padlock_error_from_gpg (err);
  if (error)
    g_task_return_error (task, error);
  else
    g_task_return_boolean (task, TRUE);
}

static void
padlock_job_encrypt_thread (GTask        *task,
                            gpointer      source_object,
                            gpointer      task_data,
                            GCancellable *cancellable)
{
  PadlockJob *self = source_object;
  JobWork *work = task_data;
  pl_job_control ctl = job_control (self, work);
  PadlockDigest digest = { 0 };
  pl_source *src = NULL;
  pl_sink *sink = NULL;
  GError *error = NULL;
  gpg_error_t err;

  err = open_input_output (self, work, &src, &sink);
  if (!err && work->delete_original)
    {
      padlock_digest_init (&digest);
      src = padlock_digest_source_new (src, &digest);
    }
  if (!err)
    err = encrypt_with_secret (work, src, sink, &ctl);
  if (!err)
    {
      work->output_path = g_strdup (pl_sink_file_path (sink));
      if (work->delete_original)
        error = verify_and_delete (self, work, &digest, &ctl);
    }
  if (err)
    error = padlock_folder_error (src, work->folder, NULL, FALSE, err);
  pl_sink_free (sink);
  pl_source_free (src);
  if (digest.checksum)
    padlock_digest_clear (&digest);
  return_outcome (task, err, error);
}

static void
padlock_job_decrypt_thread (GTask        *task,
                            gpointer      source_object,
                            gpointer      task_data,
                            GCancellable *cancellable)
{
  PadlockJob *self = source_object;
  JobWork *work = task_data;
  pl_job_control ctl = job_control (self, work);
  pl_source *src = NULL;
  pl_sink *sink = NULL;
  GError *error = NULL;
  gpg_error_t err;

  err = open_input_output (self, work, &src, &sink);
  if (!err)
    err = decrypt_with_secret (work, src, sink, &work->result, &ctl);
  if (!err)
    {
      GStatBuf st;

      work->output_path = output_path (work, sink);
      /* A file's size; a folder (an unpacked archive) has none to give. */
      if (g_stat (work->output_path, &st) == 0 && S_ISREG (st.st_mode))
        work->plaintext_size = st.st_size;
    }
  else
    error = padlock_folder_error (NULL, FALSE, sink, work->unpack, err);
  pl_sink_free (sink);
  pl_source_free (src);
  return_outcome (task, err, error);
}

static void
padlock_job_finished (GObject      *object,
                      GAsyncResult *result,
                      gpointer      user_data)
{
  PadlockJob *self = PADLOCK_JOB (object);
  JobWork *work = g_task_get_task_data (G_TASK (result));
  g_autoptr(GError) error = NULL;
  double seconds;

  g_clear_handle_id (&self->tick_id, g_source_remove);
  g_clear_pointer (&self->secret, padlock_secret_unref);
  if (self->app)
    {
      g_application_release (self->app);
      g_clear_object (&self->app);
    }

  g_object_freeze_notify (G_OBJECT (self));
  set_deriving (self, FALSE);
  if (self->is_folder)
    set_detail (self, padlock_folder_status_skipped (&self->folder_status));
  if (!g_task_propagate_boolean (G_TASK (result), &error))
    {
      g_clear_error (&self->error);
      self->error = g_steal_pointer (&error);
      g_object_notify_by_pspec (object, properties[PROP_ERROR]);
      set_double (self, &self->throughput, 0, PROP_THROUGHPUT);
      set_double (self, &self->time_left, -1, PROP_TIME_LEFT);
      padlock_job_set_state (self,
                             g_error_matches (self->error, PADLOCK_ERROR,
                                              PADLOCK_ERROR_CANCELLED)
                             ? PADLOCK_JOB_CANCELLED : PADLOCK_JOB_FAILED);
    }
  else
    {
      if (work->output_path)
        {
          g_autofree char *name = g_path_get_basename (work->output_path);

          g_clear_object (&self->output);
          self->output = g_file_new_for_path (work->output_path);
          g_object_notify_by_pspec (object, properties[PROP_OUTPUT]);
          padlock_job_set_output_name (self, name);
        }
      self->original_deleted = work->original_deleted;
      if (work->direction == PADLOCK_DIRECTION_DECRYPT)
        self->plaintext_size = work->plaintext_size;
      if (self->bytes_total >= 0)
        set_bytes (self, (guint64) self->bytes_total, self->bytes_total);
      /* When done, the throughput is the average over the whole job's
       * data time: key derivation left out. */
      seconds = (g_get_monotonic_time () - self->start_time
                 - atomic_load (&self->derive_us))
                / (double) G_USEC_PER_SEC;
      if (seconds > 0 && self->bytes_total > 0)
        set_double (self, &self->throughput, self->bytes_total / seconds,
                    PROP_THROUGHPUT);
      set_double (self, &self->time_left, 0, PROP_TIME_LEFT);
      padlock_job_set_state (self, PADLOCK_JOB_DONE);
    }
  g_object_thaw_notify (G_OBJECT (self));
}

/* What replaces the input's name in the output's: a hidden name, else a
 * folder's archive name ("Photos.tar", so "Photos.tar.gpg"), else none. */
static const char *
plain_output_name (PadlockJob *self)
{
  return self->hidden_name ? self->hidden_name : self->archive_name;
}

void
padlock_job_start (PadlockJob *self,
                   int         threads)
{
  g_autoptr(GTask) task = NULL;
  JobWork *work;

  g_return_if_fail (PADLOCK_IS_JOB (self));
  g_return_if_fail (self->state == PADLOCK_JOB_QUEUED);
  g_return_if_fail (self->secret != NULL);

  work = g_new0 (JobWork, 1);
  work->plaintext_size = -1;
  work->direction = self->direction;
  work->profile = self->config.profile;
  work->cipher_algo = self->config.cipher_algo;
  work->compress_algo = self->config.compress_algo;
  work->armor = self->config.armor;
  work->delete_original = self->config.delete_original;
  work->allow_expansion = self->config.allow_expansion;
  work->threads = MAX (threads, 1);
  work->input_path = g_file_get_path (self->input);
  work->input_name = g_file_get_basename (self->input);
  work->secret = padlock_secret_ref (self->secret);
  work->folder = self->is_folder;
  work->unpack = self->direction == PADLOCK_DIRECTION_DECRYPT
                 && self->config.unpack_archives;
  /* A folder is never deleted: verify-and-delete is for files. */
  if (work->folder)
    work->delete_original = FALSE;
  work->items = g_strdupv (self->items);
  work->archive_top = g_strdup (self->archive_top);
  work->stored_name = work->folder ? g_strdup (self->archive_name)
                                   : g_strdup (work->input_name);
  if (work->folder)
    {
      g_mutex_lock (&self->folder_status.lock);
      g_ptr_array_set_size (self->folder_status.skipped, 0);
      g_mutex_unlock (&self->folder_status.lock);
    }
  work->plan = padlock_output_plan (self->input, self->direction, &self->config,
                                   plain_output_name (self));
  /* The folder may have changed since the row was made. */
  padlock_job_set_output_name (self, work->plan->output_name);

  atomic_store (&self->cancel, 0);
  atomic_store (&self->phase, 0);
  atomic_store (&self->atomic_done, 0);
  atomic_store (&self->atomic_total, self->bytes_total);
  atomic_store (&self->atomic_deriving, 0);
  atomic_store (&self->derive_us, 0);
  reset_samples (self);
  self->start_time = g_get_monotonic_time ();
  g_clear_error (&self->error);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_ERROR]);
  padlock_job_set_state (self, PADLOCK_JOB_RUNNING);
  self->tick_id = g_timeout_add (TICK_MS, padlock_job_tick, self);

  /* The application outlives its window while a job runs, so that a
   * cancelled job's partial output is always cleaned up. */
  if (g_application_get_default ())
    {
      self->app = g_object_ref (g_application_get_default ());
      g_application_hold (self->app);
    }

  task = g_task_new (self, NULL, padlock_job_finished, NULL);
  g_task_set_source_tag (task, padlock_job_start);
  g_task_set_task_data (task, work, job_work_free);
  g_task_run_in_thread (task, self->direction == PADLOCK_DIRECTION_ENCRYPT
                              ? padlock_job_encrypt_thread
                              : padlock_job_decrypt_thread);
}

void
padlock_job_cancel (PadlockJob *self)
{
  g_return_if_fail (PADLOCK_IS_JOB (self));

  if (self->state == PADLOCK_JOB_QUEUED)
    {
      g_clear_pointer (&self->secret, padlock_secret_unref);
      g_clear_error (&self->error);
      self->error = padlock_error_from_gpg (gpg_error (GPG_ERR_CANCELED));
      g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_ERROR]);
      padlock_job_set_state (self, PADLOCK_JOB_CANCELLED);
    }
  else if (self->state == PADLOCK_JOB_RUNNING
           || self->state == PADLOCK_JOB_VERIFYING)
    atomic_store (&self->cancel, 1);
}

void
padlock_job_retry (PadlockJob    *self,
                   PadlockSecret *secret)
{
  g_return_if_fail (PADLOCK_IS_JOB (self));
  g_return_if_fail (secret != NULL);
  g_return_if_fail (padlock_job_is_finished (self));

  padlock_job_set_secret (self, secret);
  g_clear_error (&self->error);
  g_object_freeze_notify (G_OBJECT (self));
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_ERROR]);
  set_bytes (self, 0, self->bytes_total);
  set_double (self, &self->throughput, 0, PROP_THROUGHPUT);
  set_double (self, &self->time_left, -1, PROP_TIME_LEFT);
  padlock_job_set_state (self, PADLOCK_JOB_QUEUED);
  g_object_thaw_notify (G_OBJECT (self));
}

void
padlock_job_set_secret (PadlockJob    *self,
                        PadlockSecret *secret)
{
  g_return_if_fail (PADLOCK_IS_JOB (self));

  if (secret)
    padlock_secret_ref (secret);
  g_clear_pointer (&self->secret, padlock_secret_unref);
  self->secret = secret;
}

PadlockJob *
padlock_job_new (GFile                  *input,
                 PadlockDirection        direction,
                 const PadlockJobConfig *config)
{
  PadlockJob *self;
  g_autoptr(GFileInfo) info = NULL;
  g_autoptr(PadlockOutputPlan) plan = NULL;

  g_return_val_if_fail (G_IS_FILE (input), NULL);
  g_return_val_if_fail (config != NULL, NULL);

  self = g_object_new (PADLOCK_TYPE_JOB, NULL);
  self->input = g_object_ref (input);
  self->direction = direction;
  self->config = *config;
  self->config.output_dir = g_strdup (config->output_dir);

  info = g_file_query_info (input, G_FILE_ATTRIBUTE_STANDARD_SIZE,
                            G_FILE_QUERY_INFO_NONE, NULL, NULL);
  self->bytes_total = info ? g_file_info_get_size (info) : -1;
  self->is_folder = direction == PADLOCK_DIRECTION_ENCRYPT
                    && padlock_folder_is_folder (input);
  if (self->is_folder)
    {
      g_autofree char *name = g_file_get_basename (input);

      self->bytes_total = -1;   /* known after the scan */
      self->archive_name = padlock_folder_archive_name (name);
    }
  self->plaintext_size = -1;

  if (direction == PADLOCK_DIRECTION_ENCRYPT && config->hide_names)
    self->hidden_name = padlock_output_hidden_name_new ();
  plan = padlock_output_plan (input, direction, config,
                              plain_output_name (self));
  self->output_name = g_strdup (plan->output_name);
  return self;
}

PadlockJob *
padlock_job_new_archive (GFile                 **items,
                         guint                   n_items,
                         const PadlockJobConfig *config)
{
  g_autoptr(GFile) folder = NULL;
  g_autoptr(PadlockOutputPlan) plan = NULL;
  PadlockJobConfig here;
  PadlockJob *self;

  g_return_val_if_fail (items != NULL && n_items > 0, NULL);
  g_return_val_if_fail (config != NULL, NULL);

  folder = g_file_get_parent (items[0]);
  g_return_val_if_fail (folder != NULL, NULL);
  here = *config;
  if (!here.output_dir)
    here.output_dir = g_file_get_path (folder);
  else
    here.output_dir = g_strdup (here.output_dir);
  self = padlock_job_new (folder, PADLOCK_DIRECTION_ENCRYPT, &here);
  g_free (here.output_dir);

  self->items = g_new0 (char *, n_items + 1);
  for (guint i = 0; i < n_items; i++)
    self->items[i] = g_file_get_path (items[i]);
  self->archive_top = padlock_folder_items_name (items, n_items);
  g_free (self->archive_name);
  self->archive_name = padlock_folder_archive_name (self->archive_top);
  plan = padlock_output_plan (folder, PADLOCK_DIRECTION_ENCRYPT, &self->config,
                              plain_output_name (self));
  padlock_job_set_output_name (self, plan->output_name);
  return self;
}

static void
padlock_job_finalize (GObject *object)
{
  PadlockJob *self = (PadlockJob *) object;

  g_clear_handle_id (&self->tick_id, g_source_remove);
  g_clear_object (&self->input);
  g_clear_object (&self->output);
  g_clear_pointer (&self->output_name, g_free);
  g_clear_pointer (&self->hidden_name, g_free);
  g_clear_pointer (&self->archive_name, g_free);
  g_clear_pointer (&self->archive_top, g_free);
  g_clear_pointer (&self->items, g_strfreev);
  g_clear_pointer (&self->detail, g_free);
  padlock_folder_status_clear (&self->folder_status);
  g_clear_pointer (&self->secret, padlock_secret_unref);
  g_clear_error (&self->error);
  padlock_job_config_clear (&self->config);

  G_OBJECT_CLASS (padlock_job_parent_class)->finalize (object);
}

static void
padlock_job_get_property (GObject    *object,
                          guint       prop_id,
                          GValue     *value,
                          GParamSpec *pspec)
{
  PadlockJob *self = PADLOCK_JOB (object);

  switch (prop_id)
    {
    case PROP_INPUT:
      g_value_set_object (value, self->input);
      break;
    case PROP_OUTPUT:
      g_value_set_object (value, self->output);
      break;
    case PROP_OUTPUT_NAME:
      g_value_set_string (value, self->output_name);
      break;
    case PROP_DIRECTION:
      g_value_set_enum (value, self->direction);
      break;
    case PROP_STATE:
      g_value_set_enum (value, self->state);
      break;
    case PROP_BYTES_DONE:
      g_value_set_uint64 (value, self->bytes_done);
      break;
    case PROP_BYTES_TOTAL:
      g_value_set_int64 (value, self->bytes_total);
      break;
    case PROP_PROGRESS:
      g_value_set_double (value, padlock_job_get_progress (self));
      break;
    case PROP_THROUGHPUT:
      g_value_set_double (value, self->throughput);
      break;
    case PROP_TIME_LEFT:
      g_value_set_double (value, self->time_left);
      break;
    case PROP_ERROR:
      g_value_set_boxed (value, self->error);
      break;
    case PROP_DETAIL:
      g_value_set_string (value, self->detail);
      break;
    case PROP_DERIVING:
      g_value_set_boolean (value, self->deriving);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
padlock_job_class_init (PadlockJobClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GParamFlags flags = G_PARAM_READABLE | G_PARAM_EXPLICIT_NOTIFY
                      | G_PARAM_STATIC_STRINGS;

  object_class->finalize = padlock_job_finalize;
  object_class->get_property = padlock_job_get_property;

  properties[PROP_INPUT] =
    g_param_spec_object ("input", NULL, NULL, G_TYPE_FILE, flags);
  properties[PROP_OUTPUT] =
    g_param_spec_object ("output", NULL, NULL, G_TYPE_FILE, flags);
  properties[PROP_OUTPUT_NAME] =
    g_param_spec_string ("output-name", NULL, NULL, NULL, flags);
  properties[PROP_DIRECTION] =
    g_param_spec_enum ("direction", NULL, NULL, PADLOCK_TYPE_DIRECTION,
                       PADLOCK_DIRECTION_ENCRYPT, flags);
  properties[PROP_STATE] =
    g_param_spec_enum ("state", NULL, NULL, PADLOCK_TYPE_JOB_STATE,
                       PADLOCK_JOB_QUEUED, flags);
  properties[PROP_BYTES_DONE] =
    g_param_spec_uint64 ("bytes-done", NULL, NULL, 0, G_MAXUINT64, 0, flags);
  properties[PROP_BYTES_TOTAL] =
    g_param_spec_int64 ("bytes-total", NULL, NULL, -1, G_MAXINT64, -1, flags);
  properties[PROP_PROGRESS] =
    g_param_spec_double ("progress", NULL, NULL, 0, 1, 0, flags);
  properties[PROP_THROUGHPUT] =
    g_param_spec_double ("throughput", NULL, NULL, 0, G_MAXDOUBLE, 0, flags);
  properties[PROP_TIME_LEFT] =
    g_param_spec_double ("time-left", NULL, NULL, -1, G_MAXDOUBLE, -1, flags);
  properties[PROP_ERROR] =
    g_param_spec_boxed ("error", NULL, NULL, G_TYPE_ERROR, flags);

  properties[PROP_DETAIL] =
    g_param_spec_string ("detail", NULL, NULL, NULL, flags);
  properties[PROP_DERIVING] =
    g_param_spec_boolean ("deriving", NULL, NULL, FALSE, flags);

  g_object_class_install_properties (object_class, N_PROPS, properties);
}

static void
padlock_job_init (PadlockJob *self)
{
  self->bytes_total = -1;
  self->time_left = -1;
  padlock_folder_status_init (&self->folder_status);
}

GFile *
padlock_job_get_input (PadlockJob *self)
{
  g_return_val_if_fail (PADLOCK_IS_JOB (self), NULL);
  return self->input;
}

GFile *
padlock_job_get_output (PadlockJob *self)
{
  g_return_val_if_fail (PADLOCK_IS_JOB (self), NULL);
  return self->output;
}

const char *
padlock_job_get_output_name (PadlockJob *self)
{
  g_return_val_if_fail (PADLOCK_IS_JOB (self), NULL);
  return self->output_name;
}

PadlockDirection
padlock_job_get_direction (PadlockJob *self)
{
  g_return_val_if_fail (PADLOCK_IS_JOB (self), 0);
  return self->direction;
}

PadlockJobState
padlock_job_get_state (PadlockJob *self)
{
  g_return_val_if_fail (PADLOCK_IS_JOB (self), 0);
  return self->state;
}

gboolean
padlock_job_is_finished (PadlockJob *self)
{
  g_return_val_if_fail (PADLOCK_IS_JOB (self), FALSE);
  return self->state == PADLOCK_JOB_DONE
         || self->state == PADLOCK_JOB_FAILED
         || self->state == PADLOCK_JOB_CANCELLED;
}

guint64
padlock_job_get_bytes_done (PadlockJob *self)
{
  g_return_val_if_fail (PADLOCK_IS_JOB (self), 0);
  return self->bytes_done;
}

gint64
padlock_job_get_bytes_total (PadlockJob *self)
{
  g_return_val_if_fail (PADLOCK_IS_JOB (self), -1);
  return self->bytes_total;
}

double
padlock_job_get_progress (PadlockJob *self)
{
  g_return_val_if_fail (PADLOCK_IS_JOB (self), 0);
  if (self->state == PADLOCK_JOB_DONE)
    return 1;
  if (self->bytes_total <= 0)
    return 0;
  return CLAMP ((double) self->bytes_done / self->bytes_total, 0, 1);
}

double
padlock_job_get_throughput (PadlockJob *self)
{
  g_return_val_if_fail (PADLOCK_IS_JOB (self), 0);
  return self->throughput;
}

double
padlock_job_get_time_left (PadlockJob *self)
{
  g_return_val_if_fail (PADLOCK_IS_JOB (self), -1);
  return self->time_left;
}

const GError *
padlock_job_get_error (PadlockJob *self)
{
  g_return_val_if_fail (PADLOCK_IS_JOB (self), NULL);
  return self->error;
}

gboolean
padlock_job_get_original_deleted (PadlockJob *self)
{
  g_return_val_if_fail (PADLOCK_IS_JOB (self), FALSE);
  return self->original_deleted;
}

gint64
padlock_job_get_plaintext_size (PadlockJob *self)
{
  g_return_val_if_fail (PADLOCK_IS_JOB (self), -1);
  /* What is encrypted is the input (a folder's size is known after its
   * scan); what is decrypted is known at the end. */
  if (self->direction == PADLOCK_DIRECTION_ENCRYPT)
    return self->bytes_total;
  return self->plaintext_size;
}

int
padlock_job_get_profile (PadlockJob *self)
{
  g_return_val_if_fail (PADLOCK_IS_JOB (self), 0);
  return self->config.profile;
}

guint
padlock_job_get_batch (PadlockJob *self)
{
  g_return_val_if_fail (PADLOCK_IS_JOB (self), 0);
  return self->batch;
}

void
padlock_job_set_batch (PadlockJob *self,
                       guint       batch)
{
  g_return_if_fail (PADLOCK_IS_JOB (self));
  self->batch = batch;
}

const char *
padlock_job_get_detail (PadlockJob *self)
{
  g_return_val_if_fail (PADLOCK_IS_JOB (self), NULL);
  return self->detail;
}

gboolean
padlock_job_get_deriving (PadlockJob *self)
{
  g_return_val_if_fail (PADLOCK_IS_JOB (self), FALSE);
  return self->deriving;
}
