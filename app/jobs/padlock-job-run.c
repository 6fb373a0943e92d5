/* padlock-job-run.c - a job's worker: what runs on its GTask's thread
 *
 * See padlock-job-private.h.  Everything here runs on the job's thread
 * and touches only the run (PadlockJobRun) and the job's shared fields.
 */
#include "padlock-job-private.h"

#include <sys/stat.h>
#include <time.h>
#include <glib/gi18n.h>
#include <glib/gstdio.h>

#include "checksums.h"
#include "clearsign.h"
#include "errors.h"
#include "detached.h"
#include "compress.h"
#include "sign-file.h"
#include "padlock-digest.h"
#include "padlock-error.h"
#include "padlock-plan.h"
#include "padlock-signature.h"
#include "padlock-signer.h"
#include "streamsource.h"

void
padlock_job_run_free (gpointer data)
{
  PadlockJobRun *run = data;

  g_free (run->input_path);
  g_free (run->input_name);
  g_clear_pointer (&run->opened, padlock_input_unref);
  g_clear_pointer (&run->plan, padlock_output_plan_free);
  g_free (run->output_path);
  g_clear_pointer (&run->memfd, padlock_memfd_unref);
  g_free (run->stored_name);
  g_strfreev (run->items);
  g_free (run->archive_top);
  g_clear_pointer (&run->secret, padlock_secret_unref);
  g_clear_pointer (&run->held_keys, padlock_held_keys_unref);
  g_clear_pointer (&run->recipients, padlock_recipients_unref);
  g_clear_object (&run->cancellable);
  g_free (run->verify_home);
  g_free (run->signed_path);
  g_clear_object (&run->sign_key);
  g_clear_object (&run->sign_agent);
  g_free (run->sign_home);
  g_clear_pointer (&run->signatures, g_ptr_array_unref);
  g_clear_pointer (&run->checksums, padlock_checksums_free);
  g_strfreev (run->list_files);
  g_clear_pointer (&run->listed, padlock_checksums_free);
  g_free (run->signature_path);
  g_free (run);
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
job_sink_new (PadlockJobRun       *run,
              PadlockJobSinkKind   kind,
              PadlockDigest       *digest,
              pl_sink            **out)
{
  const pl_literal_header *stored =
    run->direction == PADLOCK_DIRECTION_DECRYPT ? &run->result.literal : NULL;
  pl_sink *file = NULL;
  gpg_error_t err;

  *out = NULL;
  switch (kind)
    {
    case PADLOCK_JOB_SINK_FILE:
      return padlock_output_sink_new (run->plan, stored, out);
    case PADLOCK_JOB_SINK_FOLDER:
      g_assert (stored != NULL);
      err = padlock_output_sink_new (run->plan, stored, &file);
      if (!err)
        *out = padlock_folder_sink_new (run->plan->dir, run->input_name,
                                        stored, file);
      return err;
    case PADLOCK_JOB_SINK_DIGEST:
      g_assert (digest != NULL);
      *out = padlock_digest_sink_new (digest);
      return 0;
    case PADLOCK_JOB_SINK_MEMFD:
      return padlock_memfd_sink_new (run->input_name, run->open_limit, out);
    default:
      g_assert_not_reached ();
    }
}

/* After commit, what SINK (of WORK's kind) wrote: the file, or the folder
 * an archive became. */
static char *
job_sink_written_path (PadlockJobRun *run,
                       pl_sink       *sink)
{
  switch (run->sink)
    {
    case PADLOCK_JOB_SINK_FILE:
      return g_strdup (pl_sink_file_path (sink));
    case PADLOCK_JOB_SINK_FOLDER:
      if (padlock_folder_sink_get_folder (sink))
        return g_strdup (padlock_folder_sink_get_folder (sink));
      sink = padlock_folder_sink_get_file_sink (sink);
      return g_strdup (pl_sink_file_path (sink));
    case PADLOCK_JOB_SINK_MEMFD:
      return NULL;
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
encrypt_with_keys (PadlockJobRun        *run,
                   pl_source            *src,
                   pl_sink              *sink,
                   const pl_job_control *ctl,
                   PadlockSigner        *signer)
{
  g_autofree pl_opener *openers = NULL;
  pl_encrypt_options opts;
  size_t n_openers = 0;
  const pl_seckey *signers[1];
  GStatBuf st;

  openers = g_new0 (pl_opener,
                    1 + (run->recipients
                         ? padlock_recipients_get_n_keys (run->recipients)
                         : 0));
  if (run->secret)
    openers[n_openers++] = padlock_secret_get_opener (run->secret);
  pl_encrypt_options_init (&opts);
  opts.profile = (pl_profile) run->profile;
  if (run->recipients)
    {
      n_openers += padlock_recipients_fill_keys (run->recipients,
                                                 openers + n_openers);
      opts.profile = (pl_profile) padlock_recipients_get_profile (run->recipients);
      opts.anonymous_recipients = padlock_recipients_get_anonymous (run->recipients);
    }
  if (run->cipher_algo)
    opts.cipher_algo = run->cipher_algo;
  opts.compress_algo = run->compress_algo;
  opts.armor = run->armor;
  /* The real name, also when the output's is hidden ("NAME.tar" for a
   * folder). */
  opts.file_name = run->stored_name;
  if (run->opened)
    opts.file_date = (uint32_t) padlock_input_get_mtime (run->opened);
  else if (!g_stat (run->input_path, &st))
    opts.file_date = (uint32_t) st.st_mtime;
  opts.openers = openers;
  opts.n_openers = n_openers;
  /* Signed as gpg -se signs: one-pass signature, data, signature. */
  if (signer)
    {
      signers[0] = padlock_signer_get_seckey (signer);
      opts.signers = signers;
      opts.n_signers = 1;
    }
  /* The jobs sharing the passphrase derive once for all (issue 13). */
  if (run->secret)
    opts.keycache = padlock_secret_get_keycache (run->secret);
  return pl_encrypt (src, sink, &opts, ctl);
}

/* The one place where the job hands its passphrase (and any other
 * decryption option) to the engine: for the job, and to check its
 * output. */
static gpg_error_t
decrypt_with_secret (PadlockJobRun          *run,
                     pl_source              *src,
                     pl_sink                *sink,
                     pl_decrypt_result      *result,
                     const pl_job_control   *ctl,
                     const pl_key_holder    *held,
                     PadlockSignatureLookup *lookup)
{
  pl_opener openers[2];
  pl_decrypt_options opts = { 0 };

  /* Signed, not encrypted (issue 34): no key, and the data written
   * whatever the verdicts, which are shown beside it. */
  opts.signed_only = run->signed_only;
  opts.any_verdict = run->signed_only;
  if (run->secret)
    {
      /* The text and its rule: the engine tries its other forms too. */
      openers[opts.n_openers++] = padlock_secret_get_opener (run->secret);
      opts.keycache = padlock_secret_get_keycache (run->secret);
    }
  /* The engine asks the keys held elsewhere before any S2K runs. */
  if (held)
    openers[opts.n_openers++] = pl_opener_held_keys (held);
  opts.openers = openers;
  if (run->allow_expansion)
    opts.expansion_floor = PL_INFLATE_NO_LIMIT;
  /* The signers' certificates come from the keyring as the signatures
   * name them; the verdicts never stop the file (issue 23). */
  if (lookup)
    {
      opts.find_cert = padlock_signature_lookup_find;
      opts.find_cert_data = lookup;
    }
  return pl_decrypt (src, sink, &opts, result, ctl);
}

/* Decrypts what was just written and compares it with what was read. */
static gpg_error_t
check_output (PadlockJob           *self,
              PadlockJobRun        *run,
              const PadlockDigest  *expected,
              const pl_job_control *ctl,
              gboolean             *same)
{
  PadlockDigest digest;
  pl_source *src = NULL;
  pl_sink *sink = NULL;
  pl_decrypt_result result = { 0 };
  gpg_error_t err;

  *same = FALSE;
  padlock_digest_init (&digest);
  atomic_store (&self->phase, 1);
  atomic_store (&self->atomic_done, 0);
  err = pl_source_new_file (run->output_path, &src);
  if (err)
    goto leave;
  err = job_sink_new (run, PADLOCK_JOB_SINK_DIGEST, &digest, &sink);
  if (!err)
    err = decrypt_with_secret (run, src, sink, &result, ctl, NULL, NULL);
  if (!err)
    *same = padlock_digest_equal (expected, &digest);

 leave:
  pl_sink_free (sink);
  pl_source_free (src);
  padlock_digest_clear (&digest);
  return err;
}

/* After encrypting with "delete original": the output must decrypt to
 * what was read, else it goes and the input stays. */
static GError *
check_output_and_delete (PadlockJob           *self,
                         PadlockJobRun        *run,
                         const PadlockDigest  *digest,
                         const pl_job_control *ctl)
{
  gboolean same = FALSE;
  gpg_error_t err = check_output (self, run, digest, ctl, &same);

  /* Cancelled while checking the output: the output stays, so does the
   * input, and the job is done. */
  if (err && atomic_load (&self->cancel))
    return NULL;
  if (!same)
    {
      g_unlink (run->output_path);
      return g_error_new (PADLOCK_ERROR, PADLOCK_ERROR_OUTPUT_CHECK_FAILED,
                          _("The encrypted file did not decrypt to the "
                            "original, so it was removed and %s was kept."),
                          run->input_name);
    }
  if (g_unlink (run->input_path) == 0)
    run->original_deleted = TRUE;
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
job_control (PadlockJob    *self,
             PadlockJobRun *run)
{
  pl_job_control ctl = {
    .progress = on_core_progress,
    .user_data = self,
    .cancel = &self->cancel,
    .threads = run->threads,
    .deriving = on_core_deriving,
  };
  return ctl;
}

/* A folder: scanned (the row counts), then read as a tar stream. */
static gpg_error_t
open_folder_input (PadlockJob     *self,
                   PadlockJobRun  *run,
                   pl_source     **src)
{
  const char *one[1] = { run->input_path };
  gint64 total = -1;
  gpg_error_t err;

  if (run->items)
    err = padlock_folder_source_new ((const char *const *) run->items,
                                     g_strv_length (run->items),
                                     run->archive_top, &self->folder_status,
                                     &self->cancel, src, &total);
  else
    err = padlock_folder_source_new (one, 1, NULL, &self->folder_status,
                                     &self->cancel, src, &total);
  atomic_store (&self->atomic_total, total);
  return err;
}

/* The input. */
static gpg_error_t
open_input (PadlockJob     *self,
            PadlockJobRun  *run,
            pl_source     **src)
{
  gpg_error_t err;

  if (run->folder)
    err = open_folder_input (self, run, src);
  else if (run->opened)
    err = padlock_input_take_source (run->opened, &self->cancel, src);
  else
    err = pl_source_new_file (run->input_path, src);
  if (err)
    return err;
  if ((*src)->size >= 0)
    atomic_store (&self->atomic_total, (*src)->size);
  return 0;
}

/* The input, and the output's sink of the run's kind. */
static gpg_error_t
open_input_output (PadlockJob     *self,
                   PadlockJobRun  *run,
                   pl_source     **src,
                   pl_sink       **sink)
{
  gpg_error_t err = open_input (self, run, src);

  return err ? err : job_sink_new (run, run->sink, NULL, sink);
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

/* From the held keys or the signer, on the job's thread: pinentry is up
 * (TEXT) or over. */
static void
on_agent_waiting (gpointer    user_data,
                   const char *text)
{
  PadlockJob *self = user_data;
  gint64 now = g_get_monotonic_time ();

  g_mutex_lock (&self->waiting_lock);
  if (self->waiting && !text)
    self->wait_us += now - self->waiting_since;
  else if (!self->waiting && text)
    self->waiting_since = now;
  g_free (self->waiting);
  self->waiting = g_strdup (text);
  g_mutex_unlock (&self->waiting_lock);
}

static void
encrypt_thread (GTask         *task,
                PadlockJob    *self,
                PadlockJobRun *run)
{
  pl_job_control ctl = job_control (self, run);
  PadlockDigest digest = { 0 };
  pl_source *src = NULL;
  pl_sink *sink = NULL;
  GError *error = NULL;
  gpg_error_t err;
  g_autoptr(PadlockSigner) signer = NULL;

  /* The certificates, once for all the jobs that share them, before
   * anything is opened: a recipient the engine refuses fails the job
   * with its name. */
  if (run->recipients
      && !padlock_recipients_load (run->recipients, run->cancellable, &error))
    {
      if (atomic_load (&self->cancel))
        g_clear_error (&error);
      return_outcome (task, error ? 0 : gpg_error (GPG_ERR_CANCELED), error);
      return;
    }
  /* Before any output: a signer that cannot be made stops the job. */
  if (run->sign_key
      && !(signer = padlock_signer_new (run->sign_home, run->sign_agent,
                                        run->sign_key, run->input_name,
                                        run->cancellable, &error)))
    {
      return_outcome (task, 0, error);
      return;
    }
  if (signer)
    padlock_signer_set_waiting (signer, on_agent_waiting, self);
  err = open_input_output (self, run, &src, &sink);
  if (!err && run->delete_original)
    {
      padlock_digest_init (&digest);
      src = padlock_digest_source_new (src, &digest);
    }
  if (!err)
    err = encrypt_with_keys (run, src, sink, &ctl, signer);
  if (!err)
    {
      run->output_path = job_sink_written_path (run, sink);
      if (run->delete_original)
        error = check_output_and_delete (self, run, &digest, &ctl);
    }
  /* The agent's own words: pinentry cancelled, a card missing. */
  if (err && signer)
    error = padlock_signer_take_error (signer, err);
  if (err && !error)
    error = padlock_folder_error (src, run->folder, NULL, FALSE, err);
  pl_sink_free (sink);
  pl_source_free (src);
  if (digest.checksum)
    padlock_digest_clear (&digest);
  return_outcome (task, err, error);
}

/* PADLOCK_DIRECTION_SIGN: a detached signature of the input
 * (core/sign-file.h), through the agent as an encryption signs; the
 * signer is made before anything is opened, so a key that cannot sign
 * writes nothing, and the agent's pinentry comes once the file is
 * hashed. */
static void
sign_thread (GTask         *task,
             PadlockJob    *self,
             PadlockJobRun *run)
{
  pl_job_control ctl = job_control (self, run);
  g_autoptr(PadlockSigner) signer = NULL;
  pl_source *src = NULL;
  pl_sink *sink = NULL;
  GError *error = NULL;
  gpg_error_t err;

  signer = padlock_signer_new (run->sign_home, run->sign_agent, run->sign_key,
                               run->input_name, run->cancellable, &error);
  if (!signer)
    {
      return_outcome (task, 0, error);
      return;
    }
  padlock_signer_set_waiting (signer, on_agent_waiting, self);
  err = open_input_output (self, run, &src, &sink);
  if (!err)
    err = pl_sign_detached (src, sink, padlock_signer_get_seckey (signer),
                            run->armor, (uint32_t) time (NULL), &ctl);
  if (!err)
    run->output_path = job_sink_written_path (run, sink);
  else
    error = padlock_signer_take_error (signer, err);
  pl_sink_free (sink);
  pl_source_free (src);
  return_outcome (task, err, error);
}

/* "0x… (Bob <bob@…>), 0x…": the engine's recipients, each with the name
 * the keyring (public keys too) knows for it; *N how many. */
static char *
name_recipients (PadlockHeldKeys *held_keys,
                 const char      *recipients,
                 guint           *n)
{
  g_auto(GStrv) ids = g_strsplit (recipients, ", ", -1);
  GString *out = g_string_new (NULL);

  *n = g_strv_length (ids);
  for (guint i = 0; ids[i]; i++)
    {
      const char *label = held_keys && g_str_has_prefix (ids[i], "0x")
                          ? padlock_held_keys_find_label (held_keys, ids[i] + 2)
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

/* The error of a decryption that failed with ERR (CALL: the held keys',
 * or NULL when none were asked): the agent's own words
 * when they are what ended it, else the engine's, naming the recipients
 * when none of the user's keys opens it. */
static GError *
decrypt_error (PadlockJobRun       *run,
               PadlockHeldKeysCall *call,
               gpg_error_t          err)
{
  g_autofree char *names = NULL;
  GError *error = call ? padlock_held_keys_call_take_error (call, err) : NULL;
  guint n;

  if (error || !run->result.recipients[0])
    return error;
  names = name_recipients (run->held_keys, run->result.recipients, &n);
  return padlock_error_for_recipients (err, run->input_name, names, n);
}

/* A cleartext-signed input (issue 23): the same job as a signed message
 * without encryption.  The signers come from the keyring as a signed
 * message's do, the text goes where a decryption's plaintext goes (the
 * plan's name, never over a file), and the verdicts are the result's:
 * they do not stop the text.  The core reads it whole, so it is bounded
 * (PL_CLEARSIGN_MAX, 256 MiB; more fails with its own error). */
static gpg_error_t
verify_clearsigned (PadlockJobRun          *run,
                    pl_source              *src,
                    pl_sink                *sink,
                    const pl_job_control   *ctl,
                    PadlockSignatureLookup *lookup)
{
  run->clearsigned = TRUE;
  return pl_clearsign_verify_stream (src, sink, NULL, 0,
                                     padlock_signature_lookup_find, lookup,
                                     (uint32_t) time (NULL),
                                     &run->result.verifications, ctl);
}

/* A detached signature is a few packets: more than this is no
 * signature to read whole. */
#define SIGNATURE_MAX (1024 * 1024)

/* SRC's octets into *OUT, until it ends or more than MAX were read
 * (then a block more at most: the caller judges). */
static gpg_error_t
read_whole (pl_source   *src,
            gsize        max,
            GByteArray **out)
{
  g_autofree guint8 *buf = g_malloc (64 * 1024);
  GByteArray *data = g_byte_array_new ();
  gpg_error_t err;
  size_t n;

  do
    {
      err = pl_source_read_full (src, buf, 64 * 1024, &n);
      if (!err)
        g_byte_array_append (data, buf, (guint) n);
    }
  while (!err && n && data->len <= max);
  if (err)
    g_byte_array_unref (data);
  else
    *out = data;
  return err;
}

/* SRC's octets, whole, into *OUT. */
static gpg_error_t
read_signature (pl_source   *src,
                GByteArray **out)
{
  gpg_error_t err = read_whole (src, SIGNATURE_MAX, out);

  if (!err && (*out)->len > SIGNATURE_MAX)
    {
      g_clear_pointer (out, g_byte_array_unref);
      err = gpg_error (GPG_ERR_BAD_DATA);
    }
  return err;
}

/* The file the detached signature signs: the run's (the one given with
 * it), else the one beside it that its name names. */
static GError *
signed_file_path (PadlockJobRun  *run,
                  char          **path)
{
  g_autoptr(GFile) signature = NULL;
  g_autoptr(GFile) beside = NULL;

  if (run->signed_path)
    {
      *path = g_strdup (run->signed_path);
      return NULL;
    }
  signature = g_file_new_for_path (run->input_path);
  beside = padlock_plan_signed_file (signature);
  if (!beside)
    return g_error_new (PADLOCK_ERROR, PADLOCK_ERROR_MALFORMED,
                        _("%s is a detached signature, and its name does not "
                          "say which file it signs (FILE.sig, FILE.asc, "
                          "FILE.sign or FILE.gpg). Drop both together."),
                        run->input_name);
  *path = g_file_get_path (beside);
  return NULL;
}

/* The detached signature's data file (signed_file_path), opened: its
 * path into *PATH, its source into *DATA. */
static GError *
open_signed_file (PadlockJobRun  *run,
                  char          **path,
                  pl_source     **data)
{
  GError *error = signed_file_path (run, path);
  gpg_error_t err;

  if (error)
    return error;
  err = pl_source_new_file (*path, data);
  if (gpg_err_code (err) == GPG_ERR_ENOENT)
    {
      g_autofree char *name = g_path_get_basename (*path);

      return g_error_new (PADLOCK_ERROR, PADLOCK_ERROR_IO,
                          _("The signed file %s is not beside it. Drop both "
                            "together."), name);
    }
  return err ? padlock_error_from_gpg (err) : NULL;
}

/* A detached signature (issue 34): SRC's signature checked over its data
 * file, read at the hash's speed (core/detached.h) with the job's
 * progress and cancel; nothing is written, and the verdicts are the
 * result's, found in the keyring as a signed message's are. */
static GError *
check_detached (PadlockJob             *self,
                PadlockJobRun          *run,
                pl_source              *src,
                const pl_job_control   *ctl,
                PadlockSignatureLookup *lookup)
{
  g_autoptr(GByteArray) sig = NULL;
  g_autofree char *path = NULL;
  pl_source *data = NULL;
  GError *error;
  gpg_error_t err;

  run->detached = TRUE;
  err = read_signature (src, &sig);
  if (err)
    return padlock_error_from_gpg (err);
  error = open_signed_file (run, &path, &data);
  if (error)
    return error;
  g_free (run->signed_path);
  run->signed_path = g_steal_pointer (&path);
  atomic_store (&self->atomic_done, 0);
  atomic_store (&self->atomic_total, data->size);
  err = pl_detached_run (sig->data, sig->len, data, NULL, 0,
                         padlock_signature_lookup_find, lookup,
                         (uint32_t) time (NULL), &run->result.verifications,
                         ctl);
  pl_source_free (data);
  return err ? padlock_error_from_gpg (err) : NULL;
}

/* A sniffed input decrypted into SINK: cleartext-signed text checked, a
 * message signed and not encrypted checked (no key asked: issue 34), an
 * encrypted one opened; anything else said to be no message. */
static gpg_error_t
decrypt_sniffed (PadlockJob             *self,
                 PadlockJobRun          *run,
                 const pl_sniff_result  *sniffed,
                 pl_source              *src,
                 pl_sink                *sink,
                 const pl_job_control   *ctl,
                 PadlockSignatureLookup *lookup,
                 GError                **error)
{
  PadlockHeldKeysCall call;
  gboolean keys;
  gpg_error_t err;

  if (sniffed->kind == PL_SNIFF_CLEARSIGNED)
    return verify_clearsigned (run, src, sink, ctl, lookup);
  /* What the name or the user took for a message, and is none, says so
   * (issue 19 §9) instead of whatever the packet parser trips on. */
  if (sniffed->kind != PL_SNIFF_MESSAGE)
    {
      *error = g_error_new (PADLOCK_ERROR, PADLOCK_ERROR_MALFORMED,
                            _("%s is not an OpenPGP message."),
                            run->input_name);
      sink->abort (sink);
      return 0;
    }
  run->signed_only = sniffed->unencrypted;
  keys = run->held_keys && !run->signed_only;
  if (keys)
    padlock_held_keys_call_init (&call, run->held_keys, run->input_name,
                                 run->cancellable, on_agent_waiting, self);
  err = decrypt_with_secret (run, src, sink, &run->result, ctl,
                             keys ? &call.core : NULL, lookup);
  if (err)
    *error = decrypt_error (run, keys ? &call : NULL, err);
  else if (keys)
    g_clear_error (&call.error);
  return err;
}

/* Open Without Saving (issue 38): the sealed plaintext into the run's
 * result, named for its viewer.  Authenticated already (the sink is
 * committed after the MDC or the last AEAD tag); a signature that says
 * the data was altered opens nothing either. */
static GError *
take_memfd (PadlockJobRun *run,
            pl_sink       *sink)
{
  const pl_literal_header *stored = &run->result.literal;
  g_autofree char *stripped = NULL;
  gsize size;

  for (size_t i = 0; i < run->result.verifications.n; i++)
    if (run->result.verifications.v[i].verdict == PL_VERDICT_BAD)
      return g_error_new (PADLOCK_ERROR, PADLOCK_ERROR_INTEGRITY,
                          _("%s has a bad signature: its data was altered. "
                            "Nothing was opened."), run->input_name);
  run->memfd = padlock_memfd_sink_take (sink);
  if (!run->memfd)
    return padlock_error_from_gpg (gpg_error (GPG_ERR_INTERNAL));
  if (stored->name_len
      && padlock_output_name_is_safe (stored->name, stored->name_len))
    {
      g_autofree char *name = g_strndup (stored->name, stored->name_len);

      padlock_memfd_set_name (run->memfd, name);
    }
  else
    {
      stripped = padlock_output_stripped_name (run->input_name);
      padlock_memfd_set_name (run->memfd,
                              stripped ? stripped : run->input_name);
    }
  padlock_memfd_get_data (run->memfd, &size);
  run->plaintext_size = (gint64) size;
  return NULL;
}

static void
decrypt_thread (GTask         *task,
                PadlockJob    *self,
                PadlockJobRun *run)
{
  pl_job_control ctl = job_control (self, run);
  pl_sniff_result sniffed;
  pl_source *src = NULL;
  pl_sink *sink = NULL;
  GError *error = NULL;
  gpg_error_t err;
  PadlockSignatureLookup *lookup
    = padlock_signature_lookup_new (run->verify_home);

  err = open_input (self, run, &src);
  if (!err)
    err = pl_source_sniff (&src, &sniffed);
  /* A detached signature writes nothing: no sink. */
  if (!err && sniffed.kind == PL_SNIFF_SIGNATURE)
    error = check_detached (self, run, src, &ctl, lookup);
  else if (!err)
    {
      err = job_sink_new (run, run->sink, NULL, &sink);
      if (!err)
        err = decrypt_sniffed (self, run, &sniffed, src, sink, &ctl, lookup,
                               &error);
    }
  if (!err && !error)
    {
      GStatBuf st;

      if (sink)
        run->output_path = job_sink_written_path (run, sink);
      /* A file's size; a folder (an unpacked archive) has none to give. */
      if (run->output_path && g_stat (run->output_path, &st) == 0
          && S_ISREG (st.st_mode))
        run->plaintext_size = st.st_size;
      run->signatures = padlock_signature_lookup_verdicts (
                          lookup, &run->result.verifications);
      if (run->sink == PADLOCK_JOB_SINK_MEMFD)
        error = take_memfd (run, sink);
    }
  else if (err && !error && run->sink == PADLOCK_JOB_SINK_MEMFD
           && gpg_err_code (err) == GPG_ERR_EFBIG)
    {
      g_autofree char *why = padlock_memfd_too_large (run->input_name,
                                                      run->open_limit);

      error = g_error_new_literal (PADLOCK_ERROR, PADLOCK_ERROR_OTHER, why);
    }
  else if (err && !error)
    error = padlock_folder_error (NULL, FALSE, sink,
                                  run->sink == PADLOCK_JOB_SINK_FOLDER, err);
  pl_sink_free (sink);
  pl_source_free (src);
  padlock_signature_lookup_free (lookup);
  return_outcome (task, err, error);
}

/* A checksum list is a few MiB at most (core/checksums.h); its
 * cleartext-signed form has headers and a signature around it, and its
 * dash-escapes. */
#define CLEARSIGNED_LIST_MAX (PL_CHECKSUMS_MAX_LIST + PL_CHECKSUMS_MAX_LIST / 4)

/* What a list's job reads before it hashes a file: the list's octets
 * (or, cleartext-signed, its signed text), its path, and its detached
 * signature's octets, or none. */
typedef struct
{
  GByteArray *list;
  char *path;
  GByteArray *sig;
  char *sig_name;
} ListRead;

static void
list_read_clear (ListRead *read)
{
  g_clear_pointer (&read->list, g_byte_array_unref);
  g_clear_pointer (&read->sig, g_byte_array_unref);
  g_clear_pointer (&read->path, g_free);
  g_clear_pointer (&read->sig_name, g_free);
}

/* Beside the list at PATH, its detached signature: the first of
 * LIST.gpg, .sign, .asc and .sig that is a regular file; NULL: none. */
static char *
list_signature_beside (const char *path)
{
  static const char *const suffixes[] = { ".gpg", ".sign", ".asc", ".sig" };

  for (guint i = 0; i < G_N_ELEMENTS (suffixes); i++)
    {
      char *sig = g_strconcat (path, suffixes[i], NULL);

      if (g_file_test (sig, G_FILE_TEST_IS_REGULAR))
        return sig;
      g_free (sig);
    }
  return NULL;
}

/* ERR as the job's error, said of the signature file NAME ("SHA256SUMS.gpg:
 * …"): a list's job reads two files, and its error must say which. */
static GError *
signature_error (const char *name, gpg_error_t err)
{
  g_autoptr(GError) error = padlock_error_from_gpg (err);

  return g_error_new (error->domain, error->code, "%s: %s", name,
                      error->message);
}

/* The detached signature at PATH, read into READ. */
static GError *
read_list_signature (ListRead   *read,
                     const char *path)
{
  pl_source *src = NULL;
  gpg_error_t err = pl_source_new_file (path, &src);

  if (!err)
    err = read_signature (src, &read->sig);
  pl_source_free (src);
  read->sig_name = g_path_get_basename (path);
  return err ? signature_error (read->sig_name, err) : NULL;
}

/* The list, as the job's input SRC (SNIFFED) gives it: a detached
 * signature, and the list is its signed file; a cleartext-signed list,
 * checked here (its verdicts into the run's); or the list itself, with
 * its signature beside it, if any. */
static GError *
read_list (PadlockJobRun          *run,
           const pl_sniff_result  *sniffed,
           pl_source              *src,
           const pl_job_control   *ctl,
           PadlockSignatureLookup *lookup,
           ListRead               *read)
{
  g_autofree char *sig_path = NULL;
  pl_source *data = NULL;
  GError *error = NULL;
  gpg_error_t err;

  if (sniffed->kind == PL_SNIFF_SIGNATURE)
    {
      err = read_signature (src, &read->sig);
      if (err)
        return padlock_error_from_gpg (err);
      read->sig_name = g_strdup (run->input_name);
      error = open_signed_file (run, &read->path, &data);
      if (!error && (err = read_whole (data, PL_CHECKSUMS_MAX_LIST,
                                       &read->list)))
        error = padlock_error_from_gpg (err);
      pl_source_free (data);
      return error;
    }
  read->path = g_strdup (run->input_path);
  if (sniffed->kind == PL_SNIFF_CLEARSIGNED)
    {
      g_autofree uint8_t *msg = NULL;
      size_t len = 0, text_len = 0;
      pl_sink *sink = pl_sink_new_memory ();
      const uint8_t *text;

      err = pl_clearsign_read (src, CLEARSIGNED_LIST_MAX, ctl, &msg, &len);
      if (!err)
        {
          data = pl_source_new_memory (msg, len);
          err = pl_clearsign_verify_stream (data, sink, NULL, 0,
                                            padlock_signature_lookup_find,
                                            lookup, (uint32_t) time (NULL),
                                            &run->result.verifications, ctl);
          pl_source_free (data);
        }
      if (!err)
        {
          text = pl_sink_memory_data (sink, &text_len);
          read->list = g_byte_array_sized_new ((guint) text_len);
          g_byte_array_append (read->list, text, (guint) text_len);
        }
      pl_sink_free (sink);
      if (gpg_err_code (err) == PL_ERR_CLEARSIGN_TOO_LARGE)
        /* As padlock-checksums.c says it of a list's text (the name
         * raw, as in any job's error). */
        return g_error_new (PADLOCK_ERROR, PADLOCK_ERROR_TOO_COSTLY,
                            _("%s is too large for a checksum list: "
                              "Padlock reads at most 16 MiB of one."),
                            run->input_name);
      return err ? padlock_error_from_gpg (err) : NULL;
    }
  err = read_whole (src, PL_CHECKSUMS_MAX_LIST, &read->list);
  if (err)
    return padlock_error_from_gpg (err);
  sig_path = list_signature_beside (read->path);
  return sig_path ? read_list_signature (read, sig_path) : NULL;
}

/* The list's detached signature, if it has one, checked over the list's
 * octets in memory: the verdicts into the run's. */
static GError *
check_list_signature (PadlockJobRun          *run,
                      ListRead               *read,
                      const pl_job_control   *ctl,
                      PadlockSignatureLookup *lookup)
{
  pl_source *data;
  gpg_error_t err;

  if (!read->sig)
    return NULL;
  data = pl_source_new_memory (read->list->data, read->list->len);
  err = pl_detached_run (read->sig->data, read->sig->len, data, NULL, 0,
                         padlock_signature_lookup_find, lookup,
                         (uint32_t) time (NULL), &run->result.verifications,
                         ctl);
  pl_source_free (data);
  return err ? signature_error (read->sig_name, err) : NULL;
}

/* A bad signature: the list is not the one signed, and nothing in it is
 * believed; NULL for any other verdict. */
static GError *
bad_list_signature (GPtrArray *signatures)
{
  PadlockSignatureVerdict worst;
  guint index;

  if (!padlock_signatures_worst (signatures, &worst, &index)
      || worst != PADLOCK_SIGNATURE_BAD)
    return NULL;
  return g_error_new_literal (PADLOCK_ERROR, PADLOCK_ERROR_INTEGRITY,
                              _("The list's signature does not match: the "
                                "list may have been altered after it was "
                                "signed. None of its files was checked."));
}

/* The checker's progress, on the job's thread: the present files'
 * octets. */
static void
on_list_progress (guint64  done,
                  guint64  total,
                  gpointer user_data)
{
  PadlockJob *self = user_data;

  atomic_store (&self->atomic_done, done);
  atomic_store (&self->atomic_total, (gint64) total);
}

/* The files READ's list names in its folder, hashed with the job's
 * budget, progress and cancel (padlock-checksums.h); the run's
 * checksums then, and the job's outcome. */
static GError *
check_list_files (PadlockJob    *self,
                  PadlockJobRun *run,
                  ListRead      *read)
{
  g_autofree char *name = g_path_get_basename (read->path);
  PadlockSignatureVerdict worst;
  GError *error = NULL;
  guint index;

  atomic_store (&self->atomic_done, 0);
  atomic_store (&self->atomic_total, 0);
  padlock_checksums_set_threads (run->checksums, (guint) run->threads);
  if (!padlock_checksums_run (run->checksums, run->cancellable,
                              on_list_progress, self, &error))
    {
      if (g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
        {
          g_clear_error (&error);
          return padlock_error_from_gpg (gpg_error (GPG_ERR_CANCELED));
        }
      return error;
    }
  return padlock_checksums_failure (
           run->checksums, name,
           padlock_signatures_worst (run->signatures, &worst, &index)
           && (worst == PADLOCK_SIGNATURE_GOOD
               || worst == PADLOCK_SIGNATURE_NOT_CERTIFIED));
}

/* A checksum list's check (issue 34 §3, padlock_job_set_checks_list):
 * the list and its signature read, the signature checked over the list
 * (or the cleartext one), then the list parsed from those very octets
 * and its files hashed.  Nothing is written. */
static void
list_thread (GTask         *task,
             PadlockJob    *self,
             PadlockJobRun *run)
{
  pl_job_control ctl = job_control (self, run);
  PadlockSignatureLookup *lookup
    = padlock_signature_lookup_new (run->verify_home);
  ListRead read = { 0 };
  pl_sniff_result sniffed;
  pl_source *src = NULL;
  GError *error = NULL;
  gpg_error_t err;

  err = open_input (self, run, &src);
  if (!err)
    err = pl_source_sniff (&src, &sniffed);
  if (!err)
    error = read_list (run, &sniffed, src, &ctl, lookup, &read);
  if (!err && !error)
    error = check_list_signature (run, &read, &ctl, lookup);
  if (!err && !error)
    {
      g_autofree char *name = g_path_get_basename (read.path);
      g_autofree char *dir = g_path_get_dirname (read.path);
      g_autoptr(GFile) folder = g_file_new_for_path (dir);

      run->signatures = padlock_signature_lookup_verdicts (
                          lookup, &run->result.verifications);
      if (sniffed.kind == PL_SNIFF_SIGNATURE)
        {
          g_free (run->signed_path);
          run->signed_path = g_strdup (read.path);
        }
      run->checksums = padlock_checksums_new_from_data (read.list->data,
                                                        read.list->len, name,
                                                        folder, &error);
      /* A signature of what is no list: the detached check it also
       * was, done. */
      if (!run->checksums && sniffed.kind == PL_SNIFF_SIGNATURE
          && g_error_matches (error, PADLOCK_ERROR, PADLOCK_ERROR_MALFORMED))
        {
          g_clear_error (&error);
          run->list = FALSE;
          run->detached = TRUE;
        }
      else if (run->checksums
               && (error = bad_list_signature (run->signatures)))
        /* Nothing in it is believed: no file was looked at. */
        g_clear_pointer (&run->checksums, padlock_checksums_free);
      else if (run->checksums)
        error = check_list_files (self, run, &read);
    }
  list_read_clear (&read);
  pl_source_free (src);
  padlock_signature_lookup_free (lookup);
  return_outcome (task, err, error);
}

/* The checksum list's files (RUN->list_files, in its input folder)
 * hashed into RUN->listed with the job's budget, progress and cancel,
 * as a list's check hashes them; an error when one could not be. */
static GError *
hash_listed_files (PadlockJob    *self,
                   PadlockJobRun *run)
{
  g_autoptr(GFile) folder = g_file_new_for_path (run->input_path);
  GError *error = NULL;

  run->listed = padlock_checksums_new_for_files ((const char *const *) run->list_files,
                                                 g_strv_length (run->list_files),
                                                 PADLOCK_LIST_ALGO, folder,
                                                 &error);
  if (!run->listed)
    return error;
  atomic_store (&self->atomic_done, 0);
  padlock_checksums_set_threads (run->listed, (guint) run->threads);
  if (!padlock_checksums_run (run->listed, run->cancellable, on_list_progress,
                              self, &error))
    {
      if (g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
        {
          g_clear_error (&error);
          return padlock_error_from_gpg (gpg_error (GPG_ERR_CANCELED));
        }
      return error;
    }
  return padlock_checksums_make_failure (run->listed);
}

/* The list's TEXT signed as a file is (pl_sign_detached, its signature
 * held in memory), then the list and its signature written into the
 * run's folder, both or neither (padlock-output.h). */
static gpg_error_t
write_signed_list (PadlockJobRun        *run,
                   GBytes               *text,
                   PadlockSigner        *signer,
                   const pl_job_control *ctl)
{
  /* The progress is the files': the list's few octets do not move it. */
  pl_job_control sign_ctl = { .cancel = ctl->cancel, .threads = ctl->threads };
  PadlockListOutput out = { 0 };
  pl_source *src = pl_source_new_memory (g_bytes_get_data (text, NULL),
                                         g_bytes_get_size (text));
  pl_sink *sig = pl_sink_new_memory ();
  const uint8_t *sig_data = NULL;
  size_t sig_len = 0;
  gpg_error_t err = !src || !sig ? gpg_error (GPG_ERR_ENOMEM) : 0;

  if (!err)
    err = pl_sign_detached (src, sig, padlock_signer_get_seckey (signer),
                            run->armor, (uint32_t) time (NULL), &sign_ctl);
  if (!err)
    {
      sig_data = pl_sink_memory_data (sig, &sig_len);
      err = padlock_list_output_open (&out, run->input_path, PADLOCK_LIST_NAME,
                                      run->armor ? ".asc" : ".sig");
    }
  if (!err)
    err = out.list->write (out.list, g_bytes_get_data (text, NULL),
                           g_bytes_get_size (text));
  if (!err)
    err = out.sig->write (out.sig, sig_data, sig_len);
  if (!err)
    err = pl_job_check_cancel (ctl);
  if (!err)
    err = padlock_list_output_commit (&out);
  if (!err)
    {
      run->output_path = g_strdup (out.list_path);
      run->signature_path = g_strdup (out.sig_path);
    }
  padlock_list_output_clear (&out);
  pl_sink_free (sig);
  pl_source_free (src);
  return err;
}

/* "Make a checksum list" (padlock_job_new_checksum_list): the signer
 * made first, as a file's signing job makes it (a key that cannot sign
 * writes nothing), then the files hashed, the list written and signed
 * through the agent, whose pinentry comes once every file is read. */
static void
make_list_thread (GTask         *task,
                  PadlockJob    *self,
                  PadlockJobRun *run)
{
  pl_job_control ctl = job_control (self, run);
  g_autoptr(PadlockSigner) signer = NULL;
  g_autoptr(GBytes) text = NULL;
  GError *error = NULL;
  gpg_error_t err = 0;

  signer = padlock_signer_new (run->sign_home, run->sign_agent, run->sign_key,
                               PADLOCK_LIST_NAME, run->cancellable, &error);
  if (!signer)
    {
      return_outcome (task, 0, error);
      return;
    }
  padlock_signer_set_waiting (signer, on_agent_waiting, self);
  error = hash_listed_files (self, run);
  if (!error)
    text = padlock_checksums_dup_text (run->listed, &error);
  if (!error)
    err = write_signed_list (run, text, signer, &ctl);
  if (err)
    error = padlock_signer_take_error (signer, err);
  return_outcome (task, err, error);
}

void
padlock_job_run_worker (GTask        *task,
                        gpointer      source_object,
                        gpointer      task_data,
                        GCancellable *cancellable)
{
  PadlockJobRun *run = task_data;

  if (run->direction == PADLOCK_DIRECTION_ENCRYPT)
    encrypt_thread (task, PADLOCK_JOB (source_object), run);
  else if (run->direction == PADLOCK_DIRECTION_SIGN && run->list_files)
    make_list_thread (task, PADLOCK_JOB (source_object), run);
  else if (run->direction == PADLOCK_DIRECTION_SIGN)
    sign_thread (task, PADLOCK_JOB (source_object), run);
  else if (run->list)
    list_thread (task, PADLOCK_JOB (source_object), run);
  else
    decrypt_thread (task, PADLOCK_JOB (source_object), run);
}
