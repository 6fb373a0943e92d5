/* padlock-job-work.c - a job's worker: what runs on its GTask's thread
 *
 * See padlock-job-private.h.  Everything here runs on the job's thread
 * and touches only the work and the job's shared fields.
 */
#include "padlock-job-private.h"

#include <sys/stat.h>
#include <time.h>
#include <glib/gi18n.h>
#include <glib/gstdio.h>

#include "clearsign.h"
#include "compress.h"
#include "padlock-digest.h"
#include "padlock-error.h"
#include "padlock-signature.h"
#include "padlock-signer.h"
#include "streamsource.h"

void
padlock_job_work_free (gpointer data)
{
  PadlockJobWork *work = data;

  g_free (work->input_path);
  g_free (work->input_name);
  g_clear_pointer (&work->opened, padlock_input_unref);
  g_clear_pointer (&work->plan, padlock_output_plan_free);
  g_free (work->output_path);
  g_free (work->stored_name);
  g_strfreev (work->items);
  g_free (work->archive_top);
  g_clear_pointer (&work->secret, padlock_secret_unref);
  g_clear_pointer (&work->holder, padlock_holder_unref);
  g_clear_pointer (&work->recipients, padlock_recipients_unref);
  g_clear_object (&work->cancellable);
  g_free (work->verify_home);
  g_clear_object (&work->sign_key);
  g_clear_object (&work->sign_agent);
  g_free (work->sign_home);
  g_clear_pointer (&work->signatures, g_ptr_array_unref);
  g_free (work);
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

/* The one place where a sink of KIND is made, for WORK's output or, with
 * DIGEST (PADLOCK_JOB_SINK_DIGEST only), to count into. */
static gpg_error_t
job_sink_new (PadlockJobWork     *work,
              PadlockJobSinkKind  kind,
              PadlockDigest      *digest,
              pl_sink           **out)
{
  const pl_literal_header *stored =
    work->direction == PADLOCK_DIRECTION_DECRYPT ? &work->result.literal : NULL;
  pl_sink *file = NULL;
  gpg_error_t err;

  *out = NULL;
  switch (kind)
    {
    case PADLOCK_JOB_SINK_FILE:
      return padlock_output_sink_new (work->plan, stored, out);
    case PADLOCK_JOB_SINK_FOLDER:
      g_assert (stored != NULL);
      err = padlock_output_sink_new (work->plan, stored, &file);
      if (!err)
        *out = padlock_folder_sink_new (work->plan->dir, work->input_name,
                                        stored, file);
      return err;
    case PADLOCK_JOB_SINK_DIGEST:
      g_assert (digest != NULL);
      *out = padlock_digest_sink_new (digest);
      return 0;
    default:
      g_assert_not_reached ();
    }
}

/* After commit, what SINK (of WORK's kind) wrote: the file, or the folder
 * an archive became. */
static char *
job_sink_written_path (PadlockJobWork *work,
                       pl_sink        *sink)
{
  switch (work->sink)
    {
    case PADLOCK_JOB_SINK_FILE:
      return g_strdup (pl_sink_file_path (sink));
    case PADLOCK_JOB_SINK_FOLDER:
      if (padlock_folder_sink_get_folder (sink))
        return g_strdup (padlock_folder_sink_get_folder (sink));
      sink = padlock_folder_sink_get_file_sink (sink);
      return g_strdup (pl_sink_file_path (sink));
    case PADLOCK_JOB_SINK_DIGEST:
    default:
      g_assert_not_reached ();
    }
}

/* The one place where the job hands its keys to encryption: the
 * passphrase (an SKESK) and the recipients (a PKESK each), all wrapping
 * one session key.  The recipients' certificates are loaded already
 * (encrypt_thread), and their profile is the message's. */
static gpg_error_t
encrypt_with_keys (PadlockJobWork       *work,
                   pl_source            *src,
                   pl_sink              *sink,
                   const pl_job_control *ctl,
                   PadlockSigner        *signer)
{
  g_autofree pl_key *keys = NULL;
  pl_encrypt_options opts;
  size_t n_keys = 0;
  const pl_seckey *signers[1];
  GStatBuf st;

  keys = g_new0 (pl_key, 1 + (work->recipients
                              ? padlock_recipients_get_n_keys (work->recipients)
                              : 0));
  if (work->secret)
    keys[n_keys++] = padlock_secret_get_key (work->secret);
  pl_encrypt_options_init (&opts);
  opts.profile = (pl_profile) work->profile;
  if (work->recipients)
    {
      n_keys += padlock_recipients_fill_keys (work->recipients, keys + n_keys);
      opts.profile = (pl_profile) padlock_recipients_get_profile (work->recipients);
      opts.anonymous_recipients = padlock_recipients_get_anonymous (work->recipients);
    }
  if (work->cipher_algo)
    opts.cipher_algo = work->cipher_algo;
  opts.compress_algo = work->compress_algo;
  opts.armor = work->armor;
  /* The real name, also when the output's is hidden ("NAME.tar" for a
   * folder). */
  opts.file_name = work->stored_name;
  if (work->opened)
    opts.file_date = (uint32_t) padlock_input_get_mtime (work->opened);
  else if (!g_stat (work->input_path, &st))
    opts.file_date = (uint32_t) st.st_mtime;
  opts.keys = keys;
  opts.n_keys = n_keys;
  /* Signed as gpg -se signs: one-pass signature, data, signature. */
  if (signer)
    {
      signers[0] = padlock_signer_get_seckey (signer);
      opts.signers = signers;
      opts.n_signers = 1;
    }
  /* The jobs sharing the passphrase derive once for all (issue 13). */
  if (work->secret)
    opts.keycache = padlock_secret_get_keycache (work->secret);
  return pl_encrypt (src, sink, &opts, ctl);
}

/* The one place where the job hands its passphrase (and any other
 * decryption option) to the engine: for the job, and to verify its
 * output. */
static gpg_error_t
decrypt_with_secret (PadlockJobWork       *work,
                     pl_source            *src,
                     pl_sink              *sink,
                     pl_decrypt_result    *result,
                     const pl_job_control *ctl,
                     const pl_key_holder  *held,
                     PadlockSignerLookup  *lookup)
{
  pl_key keys[2];
  pl_decrypt_options opts = { 0 };

  if (work->secret)
    {
      /* The text and its rule: the engine tries its other forms too. */
      keys[opts.n_keys++] = padlock_secret_get_key (work->secret);
      opts.keycache = padlock_secret_get_keycache (work->secret);
    }
  /* The engine asks the keys held elsewhere before any S2K runs. */
  if (held)
    keys[opts.n_keys++] = pl_key_held (held);
  opts.keys = keys;
  if (work->allow_expansion)
    opts.expansion_floor = PL_INFLATE_NO_LIMIT;
  /* The signers' certificates come from the keyring as the signatures
   * name them; the verdicts never stop the file (issue 23). */
  if (lookup)
    {
      opts.find_cert = padlock_signer_lookup_find;
      opts.find_cert_data = lookup;
    }
  return pl_decrypt (src, sink, &opts, result, ctl);
}

/* Decrypts what was just written and compares it with what was read. */
static gpg_error_t
verify_output (PadlockJob           *self,
               PadlockJobWork       *work,
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
  err = job_sink_new (work, PADLOCK_JOB_SINK_DIGEST, &digest, &sink);
  if (!err)
    err = decrypt_with_secret (work, src, sink, &result, ctl, NULL, NULL);
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
                   PadlockJobWork       *work,
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

/* From the engine: key derivation starts, waits for the process's
 * key-derivation memory and has it, or ends (on the job's thread; job.h:
 * PL_DERIVING, then PL_DERIVING_WAITING_FOR_MEMORY and PL_DERIVING in
 * pairs, then 0). */
static void
on_core_deriving (void *user_data,
                  int   deriving)
{
  PadlockJob *self = user_data;
  gint64 now = g_get_monotonic_time ();

  atomic_store (&self->atomic_waiting_for_memory,
                deriving == PL_DERIVING_WAITING_FOR_MEMORY);
  if (deriving && atomic_load (&self->atomic_deriving))
    return;                     /* a wait for memory begins or ends */
  if (deriving)
    atomic_store (&self->deriving_since, now);
  else
    atomic_fetch_add (&self->derive_us,
                      now - atomic_load (&self->deriving_since));
  atomic_store (&self->atomic_deriving, deriving != 0);
}

static pl_job_control
job_control (PadlockJob     *self,
             PadlockJobWork *work)
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
open_folder_input (PadlockJob     *self,
                   PadlockJobWork *work,
                   pl_source     **src)
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

/* The input, and the output's sink of the work's kind. */
static gpg_error_t
open_input_output (PadlockJob      *self,
                   PadlockJobWork  *work,
                   pl_source      **src,
                   pl_sink        **sink)
{
  gpg_error_t err;

  if (work->folder)
    err = open_folder_input (self, work, src);
  else if (work->opened)
    err = padlock_input_take_source (work->opened, &self->cancel, src);
  else
    err = pl_source_new_file (work->input_path, src);
  if (err)
    return err;
  if ((*src)->size >= 0)
    atomic_store (&self->atomic_total, (*src)->size);
  return job_sink_new (work, work->sink, NULL, sink);
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

/* From the holder or the signer, on the job's thread: pinentry is up
 * (TEXT) or over. */
static void
on_agent_waiting (gpointer    user_data,
                   const char *text)
{
  PadlockJob *self = user_data;

  g_mutex_lock (&self->waiting_lock);
  g_free (self->waiting);
  self->waiting = g_strdup (text);
  g_mutex_unlock (&self->waiting_lock);
}

static void
encrypt_thread (GTask          *task,
                PadlockJob     *self,
                PadlockJobWork *work)
{
  pl_job_control ctl = job_control (self, work);
  PadlockDigest digest = { 0 };
  pl_source *src = NULL;
  pl_sink *sink = NULL;
  GError *error = NULL;
  gpg_error_t err;
  g_autoptr(PadlockSigner) signer = NULL;

  /* The certificates, once for all the jobs that share them, before
   * anything is opened: a recipient the engine refuses fails the job
   * with its name. */
  if (work->recipients
      && !padlock_recipients_load (work->recipients, work->cancellable, &error))
    {
      if (atomic_load (&self->cancel))
        g_clear_error (&error);
      return_outcome (task, error ? 0 : gpg_error (GPG_ERR_CANCELED), error);
      return;
    }
  /* Before any output: a signer that cannot be made stops the job. */
  if (work->sign_key
      && !(signer = padlock_signer_new (work->sign_home, work->sign_agent,
                                        work->sign_key, work->input_name,
                                        work->cancellable, &error)))
    {
      return_outcome (task, 0, error);
      return;
    }
  if (signer)
    padlock_signer_set_waiting (signer, on_agent_waiting, self);
  err = open_input_output (self, work, &src, &sink);
  if (!err && work->delete_original)
    {
      padlock_digest_init (&digest);
      src = padlock_digest_source_new (src, &digest);
    }
  if (!err)
    err = encrypt_with_keys (work, src, sink, &ctl, signer);
  if (!err)
    {
      work->output_path = job_sink_written_path (work, sink);
      if (work->delete_original)
        error = verify_and_delete (self, work, &digest, &ctl);
    }
  /* The agent's own words: pinentry cancelled, a card missing. */
  if (err && signer)
    error = padlock_signer_take_error (signer, err);
  if (err && !error)
    error = padlock_folder_error (src, work->folder, NULL, FALSE, err);
  pl_sink_free (sink);
  pl_source_free (src);
  if (digest.checksum)
    padlock_digest_clear (&digest);
  return_outcome (task, err, error);
}

/* "0x… (Bob <bob@…>), 0x…": the engine's recipients, each with the name
 * the keyring (public keys too) knows for it; *N how many. */
static char *
name_recipients (PadlockHolder *holder,
                 const char    *recipients,
                 guint         *n)
{
  g_auto(GStrv) ids = g_strsplit (recipients, ", ", -1);
  GString *out = g_string_new (NULL);

  *n = g_strv_length (ids);
  for (guint i = 0; ids[i]; i++)
    {
      const char *label = holder && g_str_has_prefix (ids[i], "0x")
                          ? padlock_holder_find_label (holder, ids[i] + 2)
                          : NULL;

      if (out->len)
        /* Translators: between the last two names of a list, "a and b". */
        g_string_append (out, ids[i + 1] ? ", " : _(" and "));
      if (label)
        g_string_append_printf (out, "%s (%s)", ids[i], label);
      else
        g_string_append (out, ids[i]);
    }
  return g_string_free (out, FALSE);
}

/* The error of a decryption that failed with ERR: the agent's own words
 * when they are what ended it, else the engine's, naming the recipients
 * when none of the user's keys opens it. */
static GError *
decrypt_error (PadlockJobWork    *work,
               PadlockHolderCall *call,
               gpg_error_t        err)
{
  g_autofree char *names = NULL;
  GError *error = work->holder ? padlock_holder_call_take_error (call, err)
                               : NULL;
  guint n;

  if (error || !work->result.recipients[0])
    return error;
  names = name_recipients (work->holder, work->result.recipients, &n);
  return padlock_error_for_recipients (err, work->input_name, names, n);
}

/* A cleartext-signed input (issue 23): the same job as a signed message
 * without encryption.  The signers come from the keyring as a signed
 * message's do, the text goes where a decryption's plaintext goes (the
 * plan's name, never over a file), and the verdicts are the result's:
 * they do not stop the text.  The core reads it whole, so it is bounded
 * (PL_CLEARSIGN_MAX, 256 MiB; more fails with its own error). */
static gpg_error_t
verify_clearsigned (PadlockJobWork       *work,
                    pl_source            *src,
                    pl_sink              *sink,
                    const pl_job_control *ctl,
                    PadlockSignerLookup  *lookup)
{
  work->clearsigned = TRUE;
  return pl_clearsign_verify_stream (src, sink, NULL, 0,
                                     padlock_signer_lookup_find, lookup,
                                     (uint32_t) time (NULL),
                                     &work->result.verifications, ctl);
}

static void
decrypt_thread (GTask          *task,
                PadlockJob     *self,
                PadlockJobWork *work)
{
  pl_job_control ctl = job_control (self, work);
  pl_sniff_result sniffed;
  PadlockHolderCall call;
  pl_source *src = NULL;
  pl_sink *sink = NULL;
  GError *error = NULL;
  gpg_error_t err;
  PadlockSignerLookup *lookup = padlock_signer_lookup_new (work->verify_home);

  err = open_input_output (self, work, &src, &sink);
  /* What the name or the user took for a message, and is none, says so
   * (issue 19 §9) instead of whatever the packet parser trips on. */
  if (!err)
    err = pl_source_sniff (&src, &sniffed);
  if (!err && sniffed.kind == PL_SNIFF_CLEARSIGNED)
    err = verify_clearsigned (work, src, sink, &ctl, lookup);
  else if (!err && sniffed.kind != PL_SNIFF_MESSAGE)
    {
      error = g_error_new (PADLOCK_ERROR, PADLOCK_ERROR_MALFORMED,
                           _("%s is not an OpenPGP message."),
                           work->input_name);
      sink->abort (sink);
    }
  else if (!err)
    {
      if (work->holder)
        padlock_holder_call_init (&call, work->holder, work->input_name,
                                  work->cancellable, on_agent_waiting, self);
      err = decrypt_with_secret (work, src, sink, &work->result, &ctl,
                                 work->holder ? &call.core : NULL, lookup);
      if (err)
        error = decrypt_error (work, &call, err);
      else if (work->holder)
        g_clear_error (&call.error);
    }
  if (!err && !error)
    {
      GStatBuf st;

      work->output_path = job_sink_written_path (work, sink);
      /* A file's size; a folder (an unpacked archive) has none to give. */
      if (g_stat (work->output_path, &st) == 0 && S_ISREG (st.st_mode))
        work->plaintext_size = st.st_size;
      work->signatures = padlock_signer_lookup_verdicts (lookup,
                                                         &work->result.verifications);
    }
  else if (err && !error)
    error = padlock_folder_error (NULL, FALSE, sink,
                                  work->sink == PADLOCK_JOB_SINK_FOLDER, err);
  pl_sink_free (sink);
  pl_source_free (src);
  padlock_signer_lookup_free (lookup);
  return_outcome (task, err, error);
}

void
padlock_job_work_thread (GTask        *task,
                         gpointer      source_object,
                         gpointer      task_data,
                         GCancellable *cancellable)
{
  PadlockJobWork *work = task_data;

  if (work->direction == PADLOCK_DIRECTION_ENCRYPT)
    encrypt_thread (task, PADLOCK_JOB (source_object), work);
  else
    decrypt_thread (task, PADLOCK_JOB (source_object), work);
}
