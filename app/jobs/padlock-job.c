/* padlock-job.c - one file to encrypt or decrypt: the GObject on the main
 * context (its worker is padlock-job-run.c) */
#include "padlock-job-private.h"

#include <glib/gi18n.h>

#include "padlock-error.h"
#include "padlock-plan.h"

#define TICK_MS 100             /* at most ten notifications a second */

G_DEFINE_TYPE (PadlockJob, padlock_job, G_TYPE_OBJECT)

G_DEFINE_ENUM_TYPE (PadlockDirection, padlock_direction,
  G_DEFINE_ENUM_VALUE (PADLOCK_DIRECTION_ENCRYPT, "encrypt"),
  G_DEFINE_ENUM_VALUE (PADLOCK_DIRECTION_DECRYPT, "decrypt"),
  G_DEFINE_ENUM_VALUE (PADLOCK_DIRECTION_SIGN, "sign"))

G_DEFINE_ENUM_TYPE (PadlockJobState, padlock_job_state,
  G_DEFINE_ENUM_VALUE (PADLOCK_JOB_QUEUED, "queued"),
  G_DEFINE_ENUM_VALUE (PADLOCK_JOB_RUNNING, "running"),
  G_DEFINE_ENUM_VALUE (PADLOCK_JOB_CHECKING_OUTPUT, "checking-output"),
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
  PROP_WAITING_FOR_MEMORY,
  N_PROPS
};

static GParamSpec *properties[N_PROPS];

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
              gboolean    deriving,
              gboolean    waiting_for_memory)
{
  waiting_for_memory = deriving && waiting_for_memory;
  if (self->deriving != deriving)
    {
      self->deriving = deriving;
      g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_DERIVING]);
    }
  if (self->waiting_for_memory != waiting_for_memory)
    {
      self->waiting_for_memory = waiting_for_memory;
      g_object_notify_by_pspec (G_OBJECT (self),
                                properties[PROP_WAITING_FOR_MEMORY]);
    }
}

/* Main context: brings the properties up to what the worker stored. */
static void
padlock_job_update (PadlockJob *self)
{
  guint64 done = atomic_load (&self->atomic_done);
  gint64 total = atomic_load (&self->atomic_total);
  gint64 now = g_get_monotonic_time ();
  gboolean waiting;
  double rate;

  g_object_freeze_notify (G_OBJECT (self));

  if (atomic_load (&self->phase) == 1 && self->state == PADLOCK_JOB_RUNNING)
    {
      padlock_job_set_state (self, PADLOCK_JOB_CHECKING_OUTPUT);
      padlock_rate_reset (&self->rate);
    }
  if (total < 0)
    total = self->bytes_total;
  g_mutex_lock (&self->waiting_lock);
  waiting = self->waiting != NULL;
  g_mutex_unlock (&self->waiting_lock);
  /* While pinentry is up nothing moves until the user answers: no rate,
   * and the rate starts again from there.  The bar stays where it is:
   * empty for a decryption (the engine counts nothing before a key
   * opened the data, core/decrypt.c), full for a signature made at the
   * end of an encryption. */
  if (waiting)
    {
      padlock_rate_reset (&self->rate);
      set_double (self, &self->throughput, 0, PROP_THROUGHPUT);
      set_double (self, &self->time_left, -1, PROP_TIME_LEFT);
    }
  set_bytes (self, done, total);
  set_deriving (self, atomic_load (&self->atomic_deriving),
                atomic_load (&self->atomic_waiting_for_memory));

  if (!waiting && padlock_rate_push (&self->rate, now, done, &rate))
    {
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
  else
    {
      g_mutex_lock (&self->waiting_lock);
      set_detail (self, g_strdup (self->waiting));
      g_mutex_unlock (&self->waiting_lock);
    }
  return G_SOURCE_CONTINUE;
}


/* The verdicts of a decryption's signatures, before the state says DONE
 * (a row reads them then). */
static void
take_signatures (PadlockJob *self, PadlockJobRun *run)
{
  g_clear_pointer (&self->signatures, g_ptr_array_unref);
  self->signatures = g_steal_pointer (&run->signatures);
}

/* A checksum list's check: its verdicts and files, whether it is done
 * or failed, and its name, the list's.  Once its input, a signature,
 * turned out to sign no list, the job is the detached check it also
 * was. */
static void
take_list_results (PadlockJob *self, PadlockJobRun *run)
{
  g_autofree char *name = NULL;

  if (!self->list)
    return;
  if (!run->list)
    {
      self->list = FALSE;
      return;
    }
  take_signatures (self, run);
  g_clear_pointer (&self->checksums, padlock_checksums_free);
  self->checksums = g_steal_pointer (&run->checksums);
  name = g_path_get_basename (run->signed_path ? run->signed_path
                                                : run->input_path);
  padlock_job_set_output_name (self, name);
}

/* A checksum list made: what it listed, and its signature, before the
 * state says DONE.  What it hashed is the job's size. */
static void
take_made_list (PadlockJob *self, PadlockJobRun *run)
{
  if (!run->list_files)
    return;
  g_clear_pointer (&self->listed, padlock_checksums_free);
  self->listed = g_steal_pointer (&run->listed);
  g_clear_object (&self->list_signature);
  if (run->signature_path)
    self->list_signature = g_file_new_for_path (run->signature_path);
  self->bytes_total = atomic_load (&self->atomic_total);
}

/* The time the job's data moved so far: since it started, less key
 * derivation and the waits for pinentry (one still going too). */
static gint64
data_time (PadlockJob *self)
{
  gint64 now = g_get_monotonic_time ();
  gint64 waited;

  g_mutex_lock (&self->waiting_lock);
  waited = self->wait_us + (self->waiting ? now - self->waiting_since : 0);
  g_mutex_unlock (&self->waiting_lock);
  return now - self->start_time - atomic_load (&self->derive_us) - waited;
}

static void
padlock_job_finished (GObject      *object,
                      GAsyncResult *result,
                      gpointer      user_data)
{
  PadlockJob *self = PADLOCK_JOB (object);
  PadlockJobRun *run = g_task_get_task_data (G_TASK (result));
  g_autoptr(GError) error = NULL;
  guint64 moved;

  g_clear_handle_id (&self->tick_id, g_source_remove);
  g_clear_pointer (&self->secret, padlock_secret_unref);
  /* A stream is read; a file opened once is let go (a retry opens its
   * path). */
  g_clear_pointer (&self->opened, padlock_input_unref);
  if (self->app)
    {
      g_application_release (self->app);
      g_clear_object (&self->app);
    }

  g_object_freeze_notify (G_OBJECT (self));
  set_deriving (self, FALSE, FALSE);
  if (self->is_folder)
    set_detail (self, padlock_folder_status_skipped (&self->folder_status));
  else
    set_detail (self, NULL);    /* no longer waiting for a pinentry */
  take_list_results (self, run);
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
      if (run->output_path)
        {
          g_autofree char *name = g_path_get_basename (run->output_path);

          g_clear_object (&self->output);
          self->output = g_file_new_for_path (run->output_path);
          g_object_notify_by_pspec (object, properties[PROP_OUTPUT]);
          padlock_job_set_output_name (self, name);
        }
      self->original_deleted = run->original_deleted;
      g_clear_pointer (&self->memfd, padlock_memfd_unref);
      self->memfd = g_steal_pointer (&run->memfd);
      take_made_list (self, run);
      if (run->direction == PADLOCK_DIRECTION_DECRYPT)
        self->plaintext_size = run->plaintext_size;
      if (!self->list)
        take_signatures (self, run);
      else
        /* What it hashed: the present files. */
        self->bytes_total = atomic_load (&self->atomic_total);
      self->clearsigned |= run->clearsigned;
      self->signed_only |= run->signed_only;
      /* A detached check names its data file, found beside it. */
      if (run->detached && run->signed_path)
        {
          g_autofree char *name = g_path_get_basename (run->signed_path);

          self->detached = TRUE;
          padlock_job_set_output_name (self, name);
          /* What it read is the data file, not the signature. */
          self->bytes_total = atomic_load (&self->atomic_total);
        }
      /* A folder's total is what went through, once it is all through
       * (a small one finishes before its scan is published). */
      moved = self->bytes_total >= 0 ? (guint64) self->bytes_total
                                     : atomic_load (&self->atomic_done);
      set_bytes (self, moved, (gint64) moved);
      /* When done, the throughput is the average over the whole job's
       * data time (key derivation and pinentry's waits left out), of the
       * size the row shows: one count, one clock. */
      set_double (self, &self->throughput,
                  padlock_rate_average (moved, data_time (self)),
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

/* What a job needs besides a passphrase to run: keys to decrypt with,
 * a signature to check, people to encrypt to, a key to sign with. */
static gboolean
runs_without_passphrase (PadlockJob *self)
{
  switch (self->direction)
    {
    case PADLOCK_DIRECTION_DECRYPT:
      return self->held_keys != NULL || padlock_job_get_verifies (self)
             || self->checks_only;
    case PADLOCK_DIRECTION_ENCRYPT:
      return self->recipients != NULL;
    case PADLOCK_DIRECTION_SIGN:
      return self->sign_key != NULL;
    default:
      return FALSE;
    }
}

gboolean
padlock_job_can_retry_alone (PadlockJob *self)
{
  g_return_val_if_fail (PADLOCK_IS_JOB (self), FALSE);

  /* An encryption that a passphrase opened too would lose it. */
  if (self->direction == PADLOCK_DIRECTION_ENCRYPT && self->with_passphrase)
    return FALSE;
  return runs_without_passphrase (self);
}

void
padlock_job_start (PadlockJob *self,
                   int         threads)
{
  g_autoptr(GTask) task = NULL;
  PadlockJobRun *run;

  g_return_if_fail (PADLOCK_IS_JOB (self));
  g_return_if_fail (self->state == PADLOCK_JOB_QUEUED);
  g_return_if_fail (self->secret != NULL || runs_without_passphrase (self));

  run = g_new0 (PadlockJobRun, 1);
  run->plaintext_size = -1;
  run->direction = self->direction;
  run->profile = self->config.profile;
  run->cipher_algo = self->config.cipher_algo;
  run->compress_algo = self->config.compress_algo;
  run->armor = self->config.armor;
  run->delete_original = self->config.delete_original;
  run->allow_expansion = self->config.allow_expansion;
  run->threads = MAX (threads, 1);
  run->input_path = g_file_get_path (self->input);
  if (self->opened)
    run->opened = padlock_input_ref (self->opened);
  run->input_name = g_file_get_basename (self->input);
  if (self->secret)
    run->secret = padlock_secret_ref (self->secret);
  if (self->held_keys && self->direction == PADLOCK_DIRECTION_DECRYPT)
    run->held_keys = padlock_held_keys_ref (self->held_keys);
  if (self->recipients && self->direction == PADLOCK_DIRECTION_ENCRYPT)
    run->recipients = padlock_recipients_ref (self->recipients);
  run->verify_home = g_strdup (self->verify_home);
  if (self->signed_file)
    run->signed_path = g_file_get_path (self->signed_file);
  run->list = self->list;
  if (self->sign_key && self->direction != PADLOCK_DIRECTION_DECRYPT)
    {
      run->sign_key = g_object_ref (self->sign_key);
      run->sign_agent = g_object_ref (self->sign_agent);
      run->sign_home = g_strdup (self->sign_home);
    }
  g_clear_object (&self->cancellable);
  self->cancellable = g_cancellable_new ();
  run->cancellable = g_object_ref (self->cancellable);
  run->folder = self->is_folder;
  run->sink = self->direction == PADLOCK_DIRECTION_DECRYPT
              && self->config.unpack_archives
              ? PADLOCK_JOB_SINK_FOLDER : PADLOCK_JOB_SINK_FILE;
  /* Open Without Saving (issue 38): into memory, never a file. */
  if (self->open_limit && self->direction == PADLOCK_DIRECTION_DECRYPT)
    {
      run->sink = PADLOCK_JOB_SINK_MEMFD;
      run->open_limit = self->open_limit;
    }
  /* A folder is never deleted: check-and-delete is for files; nor is a
   * pipe or FIFO, which holds no data once read; nor what is signed. */
  if (run->folder || run->direction == PADLOCK_DIRECTION_SIGN
      || (self->opened && padlock_input_is_stream (self->opened)))
    run->delete_original = FALSE;
  /* Check-and-delete decrypts the output again, which takes the
   * passphrase: for people only, their secret keys are not Padlock's to
   * ask for, so the original stays. */
  self->original_kept = run->delete_original && !run->secret;
  if (!run->secret)
    run->delete_original = FALSE;
  run->items = g_strdupv (self->items);
  run->archive_top = g_strdup (self->archive_top);
  run->stored_name = run->folder ? g_strdup (self->archive_name)
                                   : g_strdup (run->input_name);
  if (run->folder)
    {
      g_mutex_lock (&self->folder_status.lock);
      g_ptr_array_set_size (self->folder_status.skipped, 0);
      g_mutex_unlock (&self->folder_status.lock);
    }
  run->plan = padlock_output_plan (self->input, self->direction, &self->config,
                                   plain_output_name (self));
  /* The folder may have changed since the row was made.  A detached
   * check writes nothing: its name is its data file's. */
  if (self->list_files)
    {
      g_autofree char *name = padlock_list_output_first_free (run->input_path,
                                                              PADLOCK_LIST_NAME);

      run->list_files = g_strdupv (self->list_files);
      padlock_job_set_output_name (self, name);
    }
  else if (!self->detached && !self->list)
    padlock_job_set_output_name (self, run->plan->output_name);

  atomic_store (&self->cancel, 0);
  atomic_store (&self->phase, 0);
  atomic_store (&self->atomic_done, 0);
  atomic_store (&self->atomic_total, self->bytes_total);
  atomic_store (&self->atomic_deriving, 0);
  atomic_store (&self->atomic_waiting_for_memory, 0);
  atomic_store (&self->derive_us, 0);
  g_mutex_lock (&self->waiting_lock);
  self->wait_us = 0;
  g_mutex_unlock (&self->waiting_lock);
  padlock_rate_reset (&self->rate);
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
  g_task_set_task_data (task, run, padlock_job_run_free);
  g_task_run_in_thread (task, padlock_job_run_worker);
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
           || self->state == PADLOCK_JOB_CHECKING_OUTPUT)
    {
      atomic_store (&self->cancel, 1);
      g_cancellable_cancel (self->cancellable);
    }
}

void
padlock_job_retry (PadlockJob    *self,
                   PadlockSecret *secret)
{
  g_return_if_fail (PADLOCK_IS_JOB (self));
  g_return_if_fail (secret != NULL || self->held_keys != NULL
                    || padlock_job_can_retry_alone (self));
  g_return_if_fail (padlock_job_is_finished (self));

  if (secret)
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
  self->with_passphrase = secret != NULL;
}

void
padlock_job_set_recipients (PadlockJob        *self,
                            PadlockRecipients *recipients)
{
  g_return_if_fail (PADLOCK_IS_JOB (self));

  if (recipients)
    padlock_recipients_ref (recipients);
  g_clear_pointer (&self->recipients, padlock_recipients_unref);
  self->recipients = recipients;
}

PadlockRecipients *
padlock_job_get_recipients (PadlockJob *self)
{
  g_return_val_if_fail (PADLOCK_IS_JOB (self), NULL);
  return self->recipients;
}

char *
padlock_job_dup_openers (PadlockJob *self)
{
  g_return_val_if_fail (PADLOCK_IS_JOB (self), NULL);

  if (!self->recipients || self->direction != PADLOCK_DIRECTION_ENCRYPT)
    return NULL;
  return padlock_recipients_describe (self->recipients, self->with_passphrase);
}

void
padlock_job_set_held_keys (PadlockJob      *self,
                           PadlockHeldKeys *held_keys)
{
  g_return_if_fail (PADLOCK_IS_JOB (self));

  if (held_keys)
    padlock_held_keys_ref (held_keys);
  g_clear_pointer (&self->held_keys, padlock_held_keys_unref);
  self->held_keys = held_keys;
}

void
padlock_job_set_verify_home (PadlockJob *self,
                             const char *home_dir)
{
  g_return_if_fail (PADLOCK_IS_JOB (self));

  g_free (self->verify_home);
  self->verify_home = g_strdup (home_dir);
}

void
padlock_job_set_signing_key (PadlockJob   *self,
                             PadlockKey   *key,
                             PadlockAgent *agent,
                             const char   *home_dir)
{
  g_return_if_fail (PADLOCK_IS_JOB (self));
  g_return_if_fail (!key || PADLOCK_IS_AGENT (agent));

  g_set_object (&self->sign_key, key);
  g_clear_object (&self->sign_agent);
  if (key)
    self->sign_agent = g_object_ref (agent);
  g_free (self->sign_home);
  self->sign_home = key ? g_strdup (home_dir) : NULL;
}

PadlockKey *
padlock_job_get_signing_key (PadlockJob *self)
{
  g_return_val_if_fail (PADLOCK_IS_JOB (self), NULL);

  return self->sign_key;
}

/* FILE and, for a folder, what it holds, deepest first; a symbolic link
 * is removed, never followed. */
static gboolean
delete_tree (GFile *file, GError **error)
{
  g_autoptr(GFileEnumerator) children = NULL;
  GFileType type = g_file_query_file_type (file, G_FILE_QUERY_INFO_NOFOLLOW_SYMLINKS,
                                           NULL);

  if (type == G_FILE_TYPE_DIRECTORY)
    {
      GFileInfo *info;
      GFile *child;

      children = g_file_enumerate_children (file, G_FILE_ATTRIBUTE_STANDARD_NAME,
                                            G_FILE_QUERY_INFO_NOFOLLOW_SYMLINKS,
                                            NULL, error);
      if (!children)
        return FALSE;
      while (g_file_enumerator_iterate (children, &info, &child, NULL, error)
             && info)
        if (!delete_tree (child, error))
          return FALSE;
      if (error && *error)
        return FALSE;
    }
  return g_file_delete (file, NULL, error);
}

gboolean
padlock_job_delete_output (PadlockJob  *self,
                           GError     **error)
{
  g_return_val_if_fail (PADLOCK_IS_JOB (self), FALSE);
  g_return_val_if_fail (self->state == PADLOCK_JOB_DONE && self->output, FALSE);

  if (self->output_deleted)
    return TRUE;
  if (!delete_tree (self->output, error))
    return FALSE;
  /* A checksum list goes with its signature. */
  if (self->list_signature && !delete_tree (self->list_signature, error))
    return FALSE;
  self->output_deleted = TRUE;
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_OUTPUT]);
  return TRUE;
}

gboolean
padlock_job_get_output_deleted (PadlockJob *self)
{
  g_return_val_if_fail (PADLOCK_IS_JOB (self), FALSE);

  return self->output_deleted;
}

GPtrArray *
padlock_job_get_signatures (PadlockJob *self)
{
  g_return_val_if_fail (PADLOCK_IS_JOB (self), NULL);

  return self->signatures;
}

gboolean
padlock_job_get_clearsigned (PadlockJob *self)
{
  g_return_val_if_fail (PADLOCK_IS_JOB (self), FALSE);
  return self->clearsigned;
}

void
padlock_job_set_clearsigned (PadlockJob *self,
                             gboolean    clearsigned)
{
  g_return_if_fail (PADLOCK_IS_JOB (self));
  g_return_if_fail (self->direction == PADLOCK_DIRECTION_DECRYPT);
  self->clearsigned = clearsigned;
}

gboolean
padlock_job_get_signed_only (PadlockJob *self)
{
  g_return_val_if_fail (PADLOCK_IS_JOB (self), FALSE);
  return self->signed_only;
}

gboolean
padlock_job_get_detached (PadlockJob *self)
{
  g_return_val_if_fail (PADLOCK_IS_JOB (self), FALSE);
  return self->detached && !self->list;
}

void
padlock_job_set_checks_list (PadlockJob *self)
{
  g_return_if_fail (PADLOCK_IS_JOB (self));
  g_return_if_fail (self->direction == PADLOCK_DIRECTION_DECRYPT);

  self->list = TRUE;
  /* What its input's sniff said (padlock_job_new_for_input) is the
   * list's job's to read: a cleartext-signed list writes no text. */
  self->clearsigned = FALSE;
  self->signed_only = FALSE;
  /* Its name is the list's: the signed file's when its input is a
   * signature (named already), else its input's. */
  if (!self->signed_file)
    {
      g_autofree char *name = g_file_get_basename (self->input);

      padlock_job_set_output_name (self, name);
    }
}

gboolean
padlock_job_get_checks_list (PadlockJob *self)
{
  g_return_val_if_fail (PADLOCK_IS_JOB (self), FALSE);
  return self->list;
}

PadlockChecksums *
padlock_job_get_checksums (PadlockJob *self)
{
  g_return_val_if_fail (PADLOCK_IS_JOB (self), NULL);
  return self->checksums;
}

char *
padlock_job_dup_list_verdict (PadlockJob *self,
                              gboolean    isolate)
{
  g_return_val_if_fail (PADLOCK_IS_JOB (self), NULL);
  if (!self->checksums)
    return NULL;
  return padlock_checksums_describe (self->checksums, self->output_name,
                                     self->signatures, isolate);
}

GFile *
padlock_job_get_signed_file (PadlockJob *self)
{
  g_return_val_if_fail (PADLOCK_IS_JOB (self), NULL);
  return self->signed_file;
}

void
padlock_job_set_signed_file (PadlockJob *self,
                             GFile      *file)
{
  g_autoptr(GFileInfo) info = NULL;
  g_autofree char *name = NULL;

  g_return_if_fail (PADLOCK_IS_JOB (self));
  g_return_if_fail (G_IS_FILE (file));
  g_return_if_fail (self->direction == PADLOCK_DIRECTION_DECRYPT);

  g_set_object (&self->signed_file, file);
  self->detached = TRUE;
  /* What the job reads, and what its line names. */
  info = g_file_query_info (file, G_FILE_ATTRIBUTE_STANDARD_SIZE,
                            G_FILE_QUERY_INFO_NONE, NULL, NULL);
  self->bytes_total = info ? g_file_info_get_size (info) : -1;
  name = g_file_get_basename (file);
  padlock_job_set_output_name (self, name);
}

gboolean
padlock_job_get_verifies (PadlockJob *self)
{
  g_return_val_if_fail (PADLOCK_IS_JOB (self), FALSE);
  return self->clearsigned || self->signed_only || self->detached
         || self->checks_only || self->list;
}

void
padlock_job_set_checks_only (PadlockJob *self,
                             gboolean    checks_only)
{
  g_return_if_fail (PADLOCK_IS_JOB (self));
  g_return_if_fail (self->direction == PADLOCK_DIRECTION_DECRYPT);
  self->checks_only = checks_only;
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
padlock_job_new_for_input (PadlockInput           *input,
                           PadlockDirection        direction,
                           const PadlockJobConfig *config)
{
  const pl_sniff_result *sniffed;
  PadlockJob *self;

  g_return_val_if_fail (input != NULL, NULL);

  self = padlock_job_new (padlock_input_get_file (input), direction, config);
  sniffed = padlock_input_get_sniff (input);
  if (direction == PADLOCK_DIRECTION_DECRYPT)
    {
      self->clearsigned = sniffed->kind == PL_SNIFF_CLEARSIGNED;
      self->signed_only = sniffed->kind == PL_SNIFF_MESSAGE
                          && sniffed->unencrypted;
      if (sniffed->kind == PL_SNIFF_SIGNATURE)
        {
          g_autoptr(GFile) beside
            = padlock_plan_signed_file (padlock_input_get_file (input));

          self->detached = TRUE;
          if (beside)
            padlock_job_set_signed_file (self, beside);
        }
    }
  if (!padlock_input_is_folder (input))
    {
      self->opened = padlock_input_ref (input);
      if (!self->signed_file)
        self->bytes_total = padlock_input_get_size (input);
    }
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

/* Whether FILES can make one checksum list: local files (no folder),
 * all in one folder; *FOLDER then that folder.  Else ERROR. */
static gboolean
files_listable (GFile **files,
                guint   n_files,
                GFile **folder,
                GError **error)
{
  *folder = g_file_get_parent (files[0]);
  for (guint i = 0; i < n_files; i++)
    {
      g_autoptr(GFile) parent = g_file_get_parent (files[i]);
      g_autofree char *name = g_file_get_basename (files[i]);
      g_autofree char *first = g_file_get_basename (files[0]);

      if (!g_file_is_native (files[i]) || !parent)
        g_set_error (error, PADLOCK_ERROR, PADLOCK_ERROR_IO,
                     _("Only local files are supported: %s"), name);
      else if (padlock_folder_is_folder (files[i]))
        g_set_error (error, PADLOCK_ERROR, PADLOCK_ERROR_IO,
                     _("%s is a folder: a checksum list lists files, so list "
                       "the files in it."), name);
      else if (!g_file_equal (parent, *folder))
        g_set_error (error, PADLOCK_ERROR, PADLOCK_ERROR_IO,
                     _("The files of one checksum list must all be in one "
                       "folder: %s is not in the folder of %s."), name, first);
      if (error && *error)
        {
          g_clear_object (folder);
          return FALSE;
        }
    }
  return TRUE;
}

PadlockJob *
padlock_job_new_checksum_list (GFile                 **files,
                               guint                   n_files,
                               const PadlockJobConfig *config,
                               GError                **error)
{
  g_autoptr(GFile) folder = NULL;
  g_autoptr(PadlockChecksums) check = NULL;
  g_autoptr(GPtrArray) names = g_ptr_array_new_with_free_func (g_free);
  g_autofree char *dir = NULL;
  PadlockJobConfig here;
  PadlockJob *self;
  gint64 total = 0;

  g_return_val_if_fail (files != NULL && n_files > 0, NULL);
  g_return_val_if_fail (config != NULL, NULL);

  if (!files_listable (files, n_files, &folder, error))
    return NULL;
  for (guint i = 0; i < n_files; i++)
    {
      g_autoptr(GFileInfo) info = g_file_query_info (files[i],
                                                     G_FILE_ATTRIBUTE_STANDARD_SIZE,
                                                     G_FILE_QUERY_INFO_NONE,
                                                     NULL, NULL);

      g_ptr_array_add (names, g_file_get_basename (files[i]));
      total += info ? g_file_info_get_size (info) : 0;
    }
  g_ptr_array_add (names, NULL);
  /* A name no list can hold is said now, before any key is asked for. */
  check = padlock_checksums_new_for_files ((const char *const *) names->pdata,
                                           n_files, PADLOCK_LIST_ALGO, folder,
                                           error);
  if (!check)
    return NULL;
  here = *config;
  here.output_dir = dir = g_file_get_path (folder);
  self = padlock_job_new (folder, PADLOCK_DIRECTION_SIGN, &here);
  self->list_files = (GStrv) g_ptr_array_free (g_steal_pointer (&names), FALSE);
  self->bytes_total = total;
  {
    g_autofree char *name = padlock_list_output_first_free (dir,
                                                            PADLOCK_LIST_NAME);

    padlock_job_set_output_name (self, name);
  }
  return self;
}

gboolean
padlock_job_get_makes_list (PadlockJob *self)
{
  g_return_val_if_fail (PADLOCK_IS_JOB (self), FALSE);
  return self->list_files != NULL;
}

PadlockChecksums *
padlock_job_get_listed (PadlockJob *self)
{
  g_return_val_if_fail (PADLOCK_IS_JOB (self), NULL);
  return self->listed;
}

GFile *
padlock_job_get_list_signature (PadlockJob *self)
{
  g_return_val_if_fail (PADLOCK_IS_JOB (self), NULL);
  return self->list_signature;
}

static void
padlock_job_finalize (GObject *object)
{
  PadlockJob *self = (PadlockJob *) object;

  g_clear_handle_id (&self->tick_id, g_source_remove);
  g_clear_object (&self->input);
  g_clear_pointer (&self->opened, padlock_input_unref);
  g_clear_object (&self->output);
  g_clear_pointer (&self->output_name, g_free);
  g_clear_pointer (&self->hidden_name, g_free);
  g_clear_pointer (&self->archive_name, g_free);
  g_clear_pointer (&self->archive_top, g_free);
  g_clear_pointer (&self->items, g_strfreev);
  g_clear_pointer (&self->detail, g_free);
  padlock_folder_status_clear (&self->folder_status);
  g_clear_pointer (&self->secret, padlock_secret_unref);
  g_clear_pointer (&self->held_keys, padlock_held_keys_unref);
  g_clear_pointer (&self->recipients, padlock_recipients_unref);
  g_free (self->verify_home);
  g_clear_object (&self->signed_file);
  g_clear_pointer (&self->checksums, padlock_checksums_free);
  g_clear_pointer (&self->signatures, g_ptr_array_unref);
  g_clear_object (&self->sign_key);
  g_clear_object (&self->sign_agent);
  g_free (self->sign_home);
  g_strfreev (self->list_files);
  g_clear_pointer (&self->listed, padlock_checksums_free);
  g_clear_object (&self->list_signature);
  g_clear_object (&self->cancellable);
  g_mutex_clear (&self->waiting_lock);
  g_free (self->waiting);
  g_clear_error (&self->error);
  padlock_job_config_clear (&self->config);

  g_clear_pointer (&self->memfd, padlock_memfd_unref);
  g_free (self->opened_in);
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
    case PROP_WAITING_FOR_MEMORY:
      g_value_set_boolean (value, self->waiting_for_memory);
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
  properties[PROP_WAITING_FOR_MEMORY] =
    g_param_spec_boolean ("waiting-for-memory", NULL, NULL, FALSE, flags);

  g_object_class_install_properties (object_class, N_PROPS, properties);
}

static void
padlock_job_init (PadlockJob *self)
{
  self->bytes_total = -1;
  self->time_left = -1;
  padlock_folder_status_init (&self->folder_status);
  g_mutex_init (&self->waiting_lock);
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

/* TRUE when "Delete the original" was asked for and the original was
 * kept, because only people (no passphrase) can open the output. */
gboolean
padlock_job_get_original_kept (PadlockJob *self)
{
  g_return_val_if_fail (PADLOCK_IS_JOB (self), FALSE);
  return self->original_kept;
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
  int theirs;

  g_return_val_if_fail (PADLOCK_IS_JOB (self), 0);
  theirs = self->recipients && self->direction == PADLOCK_DIRECTION_ENCRYPT
           ? padlock_recipients_get_profile (self->recipients) : -1;
  return theirs >= 0 ? theirs : self->config.profile;
}

guint
padlock_job_get_group (PadlockJob *self)
{
  g_return_val_if_fail (PADLOCK_IS_JOB (self), 0);
  return self->group;
}

void
padlock_job_set_group (PadlockJob *self,
                       guint       group)
{
  g_return_if_fail (PADLOCK_IS_JOB (self));
  self->group = group;
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

gboolean
padlock_job_get_waiting_for_memory (PadlockJob *self)
{
  g_return_val_if_fail (PADLOCK_IS_JOB (self), FALSE);
  return self->waiting_for_memory;
}
void
padlock_job_set_open_without_saving (PadlockJob *self,
                                     guint64     limit)
{
  g_return_if_fail (PADLOCK_IS_JOB (self));
  g_return_if_fail (self->direction == PADLOCK_DIRECTION_DECRYPT);
  g_return_if_fail (self->state == PADLOCK_JOB_QUEUED);
  self->open_limit = limit;
}

gboolean
padlock_job_get_open_without_saving (PadlockJob *self)
{
  g_return_val_if_fail (PADLOCK_IS_JOB (self), FALSE);
  return self->open_limit != 0;
}

PadlockMemfd *
padlock_job_get_memfd (PadlockJob *self)
{
  g_return_val_if_fail (PADLOCK_IS_JOB (self), NULL);
  return self->memfd;
}

const char *
padlock_job_get_opened_in (PadlockJob *self)
{
  g_return_val_if_fail (PADLOCK_IS_JOB (self), NULL);
  return self->opened_in;
}

void
padlock_job_set_opened_in (PadlockJob *self,
                           const char *app_name)
{
  g_return_if_fail (PADLOCK_IS_JOB (self));
  g_free (self->opened_in);
  self->opened_in = g_strdup (app_name);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_OUTPUT]);
}
