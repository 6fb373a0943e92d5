/* padlock-batch.c - `padlock --batch`: the window's jobs, without a window */
#include "padlock-config.h"
#include "padlock-batch.h"
#include "padlock-viewer.h"
#include "padlock-memfd-archive.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>
#include <glib/gi18n.h>
#include <glib-unix.h>
#include <gcrypt.h>

#include "job.h"
#include "packet.h"
#include "padlock-checksums.h"
#include "padlock-format.h"
#include "padlock-held-keys.h"
#include "padlock-input.h"
#include "padlock-job.h"
#include "padlock-name.h"
#include "padlock-plan.h"
#include "padlock-queue.h"
#include "padlock-recipients.h"
#include "padlock-error.h"
#include "padlock-secret.h"
#include "padlock-secret-input.h"
#include "padlock-keyring.h"
#include "padlock-signature.h"
#include "padlock-signer.h"
#include "passphrase.h"
#include "padlock-settings.h"

#define PROGRESS_MS 250

static const GOptionEntry batch_options[] = {
  { "batch", 0, 0, G_OPTION_ARG_NONE, NULL,
    N_("Run the jobs in this terminal, without a window"), NULL },
  { "passphrase-file", 0, 0, G_OPTION_ARG_FILENAME, NULL,
    N_("With --batch: read the passphrase from FILE (- asks on the terminal)"),
    N_("FILE") },
  { "output-dir", 0, 0, G_OPTION_ARG_FILENAME, NULL,
    N_("With --batch: write the output into DIR"), N_("DIR") },
  { "profile", 0, 0, G_OPTION_ARG_STRING, NULL,
    N_("With --batch: the encryption profile (rfc4880, librepgp, rfc9580)"),
    N_("NAME") },
  { "armor", 0, 0, G_OPTION_ARG_NONE, NULL,
    N_("With --batch: write ASCII-armored output (.asc)"), NULL },
  { "recipient", 'r', 0, G_OPTION_ARG_STRING_ARRAY, NULL,
    N_("With --batch: also encrypt to the GnuPG key of this key ID, email "
       "or fingerprint (repeatable)"), N_("KEY") },
  { "encrypt-to-self", 0, 0, G_OPTION_ARG_NONE, NULL,
    N_("With --batch: also encrypt to your own key (gpg's default-key)"),
    NULL },
  { "hide-recipients", 0, 0, G_OPTION_ARG_NONE, NULL,
    N_("With --batch: the encrypted files do not name their recipients' "
       "keys"), NULL },
  { "sign", 0, 0, G_OPTION_ARG_NONE, NULL,
    N_("With --batch: sign what is encrypted, with a key gpg-agent holds"),
    NULL },
  { "local-user", 0, 0, G_OPTION_ARG_STRING, NULL,
    N_("With --sign: the key to sign with (default: gpg's default-key)"),
    N_("KEY") },
  { "detach", 0, 0, G_OPTION_ARG_NONE, NULL,
    N_("With --sign: a detached signature of each file (FILE.sig, FILE.asc "
       "with --armor), nothing encrypted"), NULL },
  { "checksum-list", 0, 0, G_OPTION_ARG_NONE, NULL,
    N_("A signed checksum list of the files, all in one folder: "
       "SHA256SUMS and SHA256SUMS.sig (.asc with --armor) beside them"),
    NULL },
  { NULL }
};

const GOptionEntry *
padlock_batch_option_entries (void)
{
  return batch_options;
}

typedef struct
{
  GMainLoop *loop;
  PadlockQueue *queue;
  GPtrArray *inputs;            /* PadlockInput, each opened once; then
                                 * the jobs', until their plans are
                                 * final */
  GPtrArray *jobs;
  GArray *plans;                /* PadlockPlan: each job's (padlock-plan.h) */
  guint n_left;
  guint n_failed;
  gboolean progress_shown;
  guint64 open_limit;           /* --open: padlock_memfd_limit's; else 0 */
  gboolean tty;
  /* SIGINT and SIGTERM, at any moment from opening the inputs on */
  GCancellable *interrupt;
  gboolean interrupted;         /* handled while a job was unfinished */
  PadlockKeyring *keyring;      /* GnuPG's, once asked for */
  PadlockHeldKeys *held_keys;   /* the user's GnuPG secret keys, or NULL */
  PadlockRecipients *recipients; /* --recipient, --encrypt-to-self */
  char *gnupg_home;             /* its keyring verifies signatures and
                                 * holds --sign's key */
  guint n_bad_signatures;
  PadlockKey *sign_key;         /* --sign: the key that signs the
                                 * encryptions */
  PadlockAgent *sign_agent;
} Batch;

static int
usage_error (const char *message)
{
  g_printerr ("padlock: %s\n", message);
  g_printerr ("%s\n", _("Usage: padlock --batch [--encrypt|--decrypt] "
                        "[--passphrase-file=FILE] [--recipient=KEY…] "
                        "[--encrypt-to-self] [--hide-recipients] "
                        "[--output-dir=DIR] [--profile=NAME] [--armor] "
                        "[--sign [--local-user=KEY]] PATH…"));
  g_printerr ("%s\n", _("       padlock --batch --sign --detach "
                        "[--local-user=KEY] [--output-dir=DIR] [--armor] "
                        "FILE…"));
  g_printerr ("%s\n", _("       padlock --batch --checksum-list "
                        "[--local-user=KEY] [--armor] FILE…"));
  return PADLOCK_BATCH_EXIT_USAGE;
}

/* Sets ERROR to a G_OPTION_ERROR_BAD_VALUE saying FORMAT; FALSE. */
static gboolean G_GNUC_PRINTF (2, 3)
bad_usage (GError     **error,
           const char  *format,
           ...)
{
  va_list args;

  va_start (args, format);
  g_propagate_error (error, g_error_new_valist (G_OPTION_ERROR,
                                                G_OPTION_ERROR_BAD_VALUE,
                                                format, args));
  va_end (args);
  return FALSE;
}

/* The passphrase SOURCE (a file's name, or the terminal) could not give:
 * in the words of the engine's one table, or the system's. */
static gboolean
secret_unreadable (gpg_error_t  err,
                   const char  *source,
                   GError     **error)
{
  g_autoptr(GError) words = NULL;

  if (gpg_err_code (err) == PL_ERR_PASSPHRASE_NOT_TEXT)
    return bad_usage (error, _("%s holds a NUL character"), source);
  if (gpg_err_code (err) & GPG_ERR_SYSTEM_ERROR)
    return bad_usage (error, "%s: %s", source, gpg_strerror (err));
  words = padlock_error_from_gpg (err);
  return bad_usage (error, "%s: %s", source, words->message);
}

/* TEXT (LEN octets from SOURCE, read under RULE) as the batch's secret:
 * by the one passphrase rule (core/passphrase.h), which must accept it
 * for encryption when the batch ENCRYPTS anything. */
static PadlockSecret *
secret_from_text (const char          *text,
                  size_t               len,
                  pl_passphrase_rule   rule,
                  gboolean             encrypts,
                  const char          *source,
                  GError             **error)
{
  gpg_error_t err = 0;

  if (!pl_passphrase_length (text, len, rule))
    {
      bad_usage (error, _("%s holds no passphrase"), source);
      return NULL;
    }
  if (encrypts)
    err = pl_passphrase_check (text, len, rule, NULL);
  if (err)
    {
      secret_unreadable (err, source, error);
      return NULL;
    }
  return padlock_secret_new_full (text, len, rule, error);
}

/* "-": from the terminal (padlock-secret-input.h), twice when encrypting
 * so that a typo does not lock the files away. */
static PadlockSecret *
passphrase_from_tty (gboolean confirm, GError **error)
{
  char *first = NULL, *again = NULL;
  size_t len = 0, again_len = 0;
  PadlockSecret *secret = NULL;
  gpg_error_t err = padlock_secret_read_terminal (_("Passphrase: "), &first,
                                                  &len);

  if (!err && confirm)
    err = padlock_secret_read_terminal (_("Passphrase again: "), &again,
                                        &again_len);
  if (gpg_err_code (err) == GPG_ERR_ENOTTY)
    bad_usage (error, "%s", _("--passphrase-file=- needs a terminal"));
  else if (err)
    secret_unreadable (err, _("The terminal"), error);
  else if (confirm && (len != again_len || memcmp (first, again, len)))
    bad_usage (error, "%s", _("The passphrases differ"));
  else if (!len)
    bad_usage (error, "%s", _("The passphrase is empty"));
  else
    secret = secret_from_text (first, len, PL_PASSPHRASE_TYPED, confirm,
                               _("The passphrase"), error);
  padlock_secret_text_free (first, len);
  padlock_secret_text_free (again, again_len);
  return secret;
}

/* A passphrase file, read as gpg reads --passphrase-file
 * (PL_PASSPHRASE_FILE), at most PL_PASSPHRASE_MAX octets. */
static PadlockSecret *
passphrase_from_file (const char  *path,
                      gboolean     encrypts,
                      GError     **error)
{
  PadlockSecret *secret;
  char *text = NULL;
  size_t len = 0;
  gpg_error_t err = padlock_secret_read (path, 0, &text, &len);

  if (err)
    {
      secret_unreadable (err, path, error);
      return NULL;
    }
  secret = secret_from_text (text, len, PL_PASSPHRASE_FILE, encrypts, path,
                             error);
  padlock_secret_text_free (text, len);
  return secret;
}

static void
clear_progress (Batch *batch)
{
  if (batch->progress_shown)
    {
      g_printerr ("\r\033[K");
      batch->progress_shown = FALSE;
    }
}

static gboolean
show_progress (gpointer user_data)
{
  Batch *batch = user_data;
  guint64 done = 0, total = 0;
  g_autofree char *rate = NULL;

  for (guint i = 0; i < batch->jobs->len; i++)
    {
      PadlockJob *job = g_ptr_array_index (batch->jobs, i);
      gint64 t = padlock_job_get_bytes_total (job);

      done += padlock_job_get_bytes_done (job);
      if (t > 0)
        total += (guint64) t;
    }
  rate = padlock_format_rate (padlock_queue_get_throughput (batch->queue));
  g_printerr ("\r\033[K");
  /* Translators: the live progress line: jobs finished of all, percent
   * done, and a rate such as "412 MB/s". */
  g_printerr (_("%u of %u done, %.0f%%, %s"),
              batch->jobs->len - batch->n_left, batch->jobs->len,
              total ? 100.0 * (double) MIN (done, total) / (double) total : 0.0,
              rate);
  batch->progress_shown = TRUE;
  return G_SOURCE_CONTINUE;
}

/* The verdicts of a decrypted file's signatures, for the end of its line
 * (the README's grammar): " signature good 0123…ABCD
 * \"Bob\x20<bob@example.org>\"" each, the verdict and the fingerprint
 * first, the user ID last as one word (padlock_name_word: a user ID with
 * spaces cannot fake a field; unknown-key: the issuer's fingerprint
 * alone; not-valid and unsupported: the reason in words on stderr too),
 * then " also-claims WORD" for each other user ID of the key that is not
 * verified (said on stderr too); "" when it was not signed.  Counts the
 * bad ones, and for a job that only checks signatures
 * (padlock_job_get_verifies) every one neither good nor not-certified:
 * they make the batch exit 1. */
static char *
signatures_line (Batch *batch, PadlockJob *job)
{
  GPtrArray *signatures = padlock_job_get_signatures (job);
  GString *line = g_string_new (NULL);
  /* Where the signature is all that was checked, only a good one (or
   * not certified) lets the batch exit 0 (issue 34 §5); a decrypted
   * file's integrity was checked by its encryption: only a bad one. */
  gboolean verifies = padlock_job_get_verifies (job);

  for (guint i = 0; signatures && i < signatures->len; i++)
    {
      const PadlockSignature *s = signatures->pdata[i];

      g_string_append_printf (line, " signature %s %s",
                              padlock_signature_verdict_word (s->verdict),
                              s->fingerprint ? s->fingerprint : "-");
      if (s->signer && s->verdict != PADLOCK_SIGNATURE_UNKNOWN_KEY)
        {
          g_autofree char *word = padlock_name_word (s->signer);

          g_string_append_printf (line, " %s", word);
        }
      /* After the verdict's own fields: the user IDs the key also
       * claims, which nobody the user trusts certified. */
      for (guint j = 0; s->also_claims && s->also_claims[j]; j++)
        {
          g_autofree char *word = padlock_name_word (s->also_claims[j]);

          g_string_append_printf (line, " also-claims %s", word);
        }
      if (s->verdict == PADLOCK_SIGNATURE_BAD
          || (verifies && s->verdict != PADLOCK_SIGNATURE_GOOD
              && s->verdict != PADLOCK_SIGNATURE_NOT_CERTIFIED))
        batch->n_bad_signatures++;
      if (s->verdict != PADLOCK_SIGNATURE_GOOD || s->also_claims)
        {
          g_autofree char *name = g_file_get_basename (padlock_job_get_input (job));
          g_autofree char *input = padlock_name_word (name);
          g_autofree char *words = padlock_signature_describe (s, FALSE);

          g_printerr ("padlock: %s: %s\n", input, words);
        }
    }
  return g_string_free (line, FALSE);
}

/* A detached signature made (--sign --detach): "signed INPUT -> OUTPUT
 * FPR", FPR the signing key's (a subkey's when a subkey signs), as a
 * verdict on that signature names it.  Not translated: for scripts. */
static void
print_signed (PadlockJob *job, const char *input, const char *output)
{
  const PadlockSubkey *sub = padlock_key_get_signing_subkey (padlock_job_get_signing_key (job));

  g_print ("signed %s -> %s %s\n", input, output,
           sub ? sub->fingerprint : "-");
  fflush (stdout);
}

/* A checksum list made (--checksum-list): "listed FILE -> LIST sha256"
 * for each file, in the list's order, then "signed LIST -> LIST.sig
 * FPR" as a signed file's line.  Not translated: for scripts. */
static void
print_listed (PadlockJob *job)
{
  PadlockChecksums *listed = padlock_job_get_listed (job);
  const char *list = padlock_job_get_output_name (job);
  g_autofree char *sig = g_file_get_basename (padlock_job_get_list_signature (job));
  g_autofree char *list_word = padlock_name_word (list);
  g_autofree char *sig_word = padlock_name_word (sig);

  for (guint i = 0; i < padlock_checksums_get_n_files (listed); i++)
    {
      g_autofree char *line = padlock_checksums_listed_line (listed, list, i);

      g_print ("%s\n", line);
    }
  print_signed (job, list_word, sig_word);
}

/* A job the signal found unfinished that committed all the same: the
 * engine looks at the cancel flag only before the output's commit (a
 * folder's takes a syncfs, and a job ends on this thread after it), so a
 * signal handled meanwhile finds the job running and its output in place
 * a moment later.  The signal came first: the job is cancelled, and its
 * output removed; INPUT (a word) names it.  Not when the original was
 * deleted (check-and-delete): the output is then the only copy, and
 * done.  TRUE when undone. */
static gboolean
undo_late_commit (PadlockJob *job, const char *input)
{
  g_autoptr(GError) cancelled = padlock_error_from_gpg (gpg_error (GPG_ERR_CANCELED));
  g_autoptr(GError) error = NULL;

  if (padlock_job_get_state (job) != PADLOCK_JOB_DONE
      || !padlock_job_get_output (job)
      || padlock_job_get_original_deleted (job))
    return FALSE;
  if (padlock_job_delete_output (job, &error))
    g_printerr ("padlock: %s: %s\n", input, cancelled->message);
  else
    {
      g_autofree char *reason = padlock_name_escape (error->message);

      g_printerr ("padlock: %s: %s %s\n", input, cancelled->message, reason);
    }
  return TRUE;
}

/* A checksum list's check, once its files were looked at: a line per
 * present file, "checked SHA256SUMS -> debian-12.iso sha256 ok" (or
 * "differs", "unreadable"), then the summary, "checked SHA256SUMS: 1 ok,
 * 0 differ, 5 not here, signature good FPR WORD" (padlock-checksums.h;
 * "unsigned" when the list has no signature).  Not translated: for
 * scripts.  A signature neither good nor not certified counts as bad
 * (signatures_line); an unsigned list is said on stderr and fails the
 * batch too: nobody vouches for it, so exit 0 says nothing of it. */
static void
print_list (Batch *batch, PadlockJob *job, const char *word)
{
  PadlockChecksums *checksums = padlock_job_get_checksums (job);
  const char *list = padlock_job_get_output_name (job);
  g_autofree char *verdicts = signatures_line (batch, job);
  g_autofree char *summary = NULL;

  for (guint i = 0; i < padlock_checksums_get_n_files (checksums); i++)
    {
      g_autofree char *line = padlock_checksums_file_line (checksums, list, i);

      if (line)
        g_print ("%s\n", line);
    }
  summary = padlock_checksums_summary_line (checksums, list,
                                            *verdicts ? verdicts + 1 : NULL);
  g_print ("%s\n", summary);
  fflush (stdout);
  if (!*verdicts)
    {
      g_printerr ("padlock: %s: %s\n", word,
                  /* Not a job's failure: its files were checked. */
                  _("not signed: nobody vouches for this list, so its "
                    "checksums say only that the files are the ones its "
                    "writer listed."));
      batch->n_bad_signatures++;
    }
}

static void
job_ended (Batch *batch)
{
  if (--batch->n_left == 0)
    g_main_loop_quit (batch->loop);
}

static void
on_viewer_released (gpointer user_data)
{
  job_ended (user_data);
}

/* --open: JOB's plaintext, in memory, handed to its viewer, and the line
 * "opened INPUT -> APP (not saved)"; TRUE when the batch then waits for
 * the viewer to let go of it (on_viewer_released ends the job).  No
 * session bus in a terminal without one: the viewer is launched. */
static gboolean
open_in_viewer (Batch      *batch,
                PadlockJob *job,
                const char *input)
{
  g_autoptr(GDBusConnection) bus = g_bus_get_sync (G_BUS_TYPE_SESSION, NULL, NULL);
  g_autoptr(GError) error = NULL;
  g_autofree char *app = NULL;
  g_autofree char *app_word = NULL;
  g_autofree char *verdicts = signatures_line (batch, job);

  if (!padlock_viewer_open (padlock_job_get_memfd (job), bus, &app,
                            on_viewer_released, batch, &error))
    {
      g_autofree char *reason = padlock_name_escape (error->message);

      batch->n_failed++;
      g_printerr ("padlock: %s: %s\n", input, reason);
      return FALSE;
    }
  app_word = padlock_name_escape (app);
  /* A line for scripts: not translated. */
  g_print ("opened %s -> %s (not saved)%s\n", input, app_word, verdicts);
  if (!padlock_memfd_get_locked (padlock_job_get_memfd (job)))
    g_printerr ("padlock: %s: %s\n", input,
                _("its memory could not all be locked (RLIMIT_MEMLOCK): "
                  "the plaintext may reach swap"));
  fflush (stdout);
  return TRUE;
}

/* --open of a folder's message (a tar archive, Padlock's or gpgtar's):
 * its files listed and nothing opened, since a terminal has no list to
 * pick one from.  Lines for scripts, not translated:
 * "archive INPUT -> N files (not saved)", then one "file NAME SIZE TIME"
 * per file (NAME one escaped word, TIME in UTC as 2024-05-01T12:00:00Z,
 * "-" when the archive gave none).  A damaged archive lists nothing. */
static void
print_archive_files (Batch      *batch,
                     PadlockJob *job,
                     const char *input)
{
  g_autoptr(GError) error = NULL;
  pl_tar_listing files = { NULL, 0 };
  g_autofree char *verdicts = signatures_line (batch, job);

  if (!padlock_memfd_archive_list (padlock_job_get_memfd (job), input,
                                   &files, &error))
    {
      g_autofree char *reason = padlock_name_escape (error->message);

      batch->n_failed++;
      g_printerr ("padlock: %s: %s\n", input, reason);
      pl_tar_listing_clear (&files);
      return;
    }
  g_print ("archive %s -> %zu files (not saved)%s\n", input, files.n,
           verdicts);
  for (size_t i = 0; i < files.n; i++)
    {
      g_autofree char *name = padlock_name_word (files.v[i].name);
      g_autofree char *time = NULL;

      if (files.v[i].has_mtime)
        {
          g_autoptr(GDateTime) t = g_date_time_new_from_unix_utc (files.v[i].mtime);

          time = t ? g_date_time_format (t, "%Y-%m-%dT%H:%M:%SZ") : NULL;
        }
      g_print ("file %s %" G_GUINT64_FORMAT " %s\n", name, files.v[i].size,
               time ? time : "-");
    }
  fflush (stdout);
  pl_tar_listing_clear (&files);
}

static void
on_job_state (PadlockJob *job,
              GParamSpec *pspec,
              Batch      *batch)
{
  g_autofree char *input = NULL;
  g_autofree char *output = NULL;
  const char *detail;

  if (!padlock_job_is_finished (job))
    return;
  g_signal_handlers_disconnect_by_data (job, batch);
  clear_progress (batch);
  /* One word each, not isolated: a terminal draws no bidi, and scripts
   * split these lines on spaces (the README's grammar). */
  {
    g_autofree char *name = g_file_get_basename (padlock_job_get_input (job));

    /* A checksum list's job is named by its list, not by its folder. */
    input = padlock_name_word (padlock_job_get_makes_list (job)
                               ? padlock_job_get_output_name (job) : name);
    output = padlock_name_word (padlock_job_get_output_name (job));
  }
  detail = padlock_job_get_detail (job);
  if (batch->interrupted && undo_late_commit (job, input))
    batch->n_failed++;
  else if (padlock_job_get_state (job) == PADLOCK_JOB_DONE
           && padlock_job_get_makes_list (job))
    print_listed (job);
  else if (padlock_job_get_state (job) == PADLOCK_JOB_DONE
           && padlock_job_get_direction (job) == PADLOCK_DIRECTION_SIGN)
    print_signed (job, input, output);
  else if (padlock_job_get_checksums (job)
           && padlock_job_get_state (job) != PADLOCK_JOB_CANCELLED)
    {
      /* Done, or failed by a file that differs: the lines either way. */
      print_list (batch, job, output);
      if (padlock_job_get_state (job) == PADLOCK_JOB_FAILED)
        {
          g_autofree char *reason = padlock_name_escape (padlock_job_get_error (job)->message);

          batch->n_failed++;
          g_printerr ("padlock: %s: %s\n", output, reason);
        }
    }
  else if (padlock_job_get_state (job) == PADLOCK_JOB_DONE
           && padlock_job_get_memfd (job)
           && padlock_memfd_is_archive (padlock_job_get_memfd (job)))
    print_archive_files (batch, job, input);
  else if (padlock_job_get_state (job) == PADLOCK_JOB_DONE
           && padlock_job_get_memfd (job))
    {
      /* Ends the job's line once the viewer lets go of it. */
      if (open_in_viewer (batch, job, input))
        return;
    }
  else if (padlock_job_get_state (job) == PADLOCK_JOB_DONE)
    {
      g_autofree char *verdicts = signatures_line (batch, job);

      /* A line for scripts: not translated.  A cleartext-signed file, a
       * signed message not encrypted and a detached signature were not
       * decrypted: their signatures were checked, the signed text or
       * data written (a detached signature's data file is named, and
       * nothing written). */
      g_print ("%s %s -> %s%s\n",
               padlock_job_get_direction (job) == PADLOCK_DIRECTION_ENCRYPT
               ? "encrypted"
               : padlock_job_get_verifies (job) ? "verified" : "decrypted",
               input, output, verdicts);
      /* Each job's line as its job ends, into a pipe or a file too (stdio
       * holds them till the exit otherwise): a script reading them sees
       * a result when it is final. */
      fflush (stdout);
    }
  else
    {
      g_autofree char *reason = padlock_name_escape (padlock_job_get_error (job)->message);

      batch->n_failed++;
      g_printerr ("padlock: %s: %s\n", input, reason);
    }
  if (detail)
    {
      g_autofree char *escaped = padlock_name_escape (detail);
      g_printerr ("padlock: %s: %s\n", input, escaped);
    }
  job_ended (batch);
}

/* SIGINT, SIGTERM: whatever runs stops (a stream's first read, the
 * jobs, which remove what they wrote, undo_late_commit) and the batch
 * exits 1.  Handled once every job has ended (the loop quits at the end
 * of this dispatch): nothing is left to stop, and the batch's status
 * stands. */
static gboolean
on_interrupt (gpointer user_data)
{
  Batch *batch = user_data;

  g_cancellable_cancel (batch->interrupt);
  if (batch->queue && batch->n_left)
    {
      batch->interrupted = TRUE;
      padlock_queue_cancel_all (batch->queue);
    }
  return G_SOURCE_CONTINUE;
}

static gboolean
on_late_signal (gpointer user_data)
{
  return G_SOURCE_CONTINUE;
}

/* Once the batch's status is decided, the signal's source ID stays till
 * the process ends, heard and ignored: removing GLib's last source of a
 * signal restores its default action, and a SIGTERM in the moments
 * between the last job's line and the exit killed the process (status
 * 143) with every output complete. */
static void
ignore_signal_from_now (guint id)
{
  g_source_set_callback (g_main_context_find_source_by_id (NULL, id),
                         on_late_signal, NULL, NULL);
}

/* Opens each PATH once (without waiting on a FIFO); what cannot be
 * opened is said and counted. */
static void
open_inputs (Batch              *batch,
             const char *const  *paths)
{
  /* Every input is held open from the start to its job's end. */
  padlock_input_raise_open_files_limit ();
  for (guint i = 0; paths[i]; i++)
    {
      g_autoptr(GFile) file = g_file_new_for_commandline_arg (paths[i]);
      g_autoptr(GError) error = NULL;
      PadlockInput *input = padlock_input_open (file, &error);

      if (input)
        g_ptr_array_add (batch->inputs, input);
      else
        {
          /* A path is anybody's octets (find's output), and GIO's
           * message quotes it. */
          g_autofree char *path = padlock_name_word (paths[i]);
          g_autofree char *reason = padlock_name_escape (error->message);

          g_printerr ("padlock: %s: %s\n", path, reason);
          batch->n_failed++;
        }
    }
}

static void
on_prefix_read (GObject      *object,
                GAsyncResult *result,
                gpointer      user_data)
{
  Batch *batch = user_data;
  g_autoptr(GError) error = NULL;

  if (!padlock_input_read_prefix_finish (NULL, result, &error)
      && !g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
    {
      g_autofree char *reason = padlock_name_escape (error->message);

      g_printerr ("padlock: %s\n", reason);
      batch->n_failed++;
    }
  if (--batch->n_left == 0)
    g_main_loop_quit (batch->loop);
}

/* A stream's first octets (a pipe, a FIFO, /dev/stdin) tell what it is;
 * they are read as they come, with the signals heard meanwhile (a FIFO's
 * writer may never come).  One that fails is said and counted; FALSE
 * when interrupted. */
static gboolean
read_prefixes (Batch *batch)
{
  batch->n_left = 0;
  for (guint i = 0; i < batch->inputs->len; i++)
    {
      PadlockInput *input = g_ptr_array_index (batch->inputs, i);

      if (!padlock_input_is_stream (input))
        continue;
      batch->n_left++;
      padlock_input_read_prefix_async (input, batch->interrupt,
                                       on_prefix_read, batch);
    }
  if (batch->n_left)
    g_main_loop_run (batch->loop);
  return !g_cancellable_is_cancelled (batch->interrupt);
}

/* A job of DIRECTION for INPUT, added to the batch's jobs, and INPUT to
 * PLANNED (the inputs that have a job).  A pipe's output goes to the
 * current folder, not to /dev/fd. */
static PadlockJob *
add_job (Batch                  *batch,
         PadlockInput           *input,
         PadlockDirection        direction,
         const PadlockJobConfig *config,
         GPtrArray              *planned)
{
  PadlockJobConfig here = *config;
  g_autofree char *cwd = NULL;
  PadlockJob *job;

  if (padlock_input_is_stream (input) && !here.output_dir)
    here.output_dir = cwd = g_get_current_dir ();
  job = padlock_job_new_for_input (input, direction, &here);
  g_ptr_array_add (batch->jobs, job);
  g_ptr_array_add (planned, padlock_input_ref (input));
  return job;
}

/* Each sniffed input's plan (padlock-plan.h) and job, by its content
 * and name unless ASK forces a direction.  The user's keys are not
 * listed yet: a message for a public key waits for them (decide_keys).
 * BATCH->inputs keeps the jobs' inputs, in the jobs' order. */
static void
make_jobs (Batch                  *batch,
           PadlockPlanAsk          ask,
           const PadlockJobConfig *config)
{
  GPtrArray *planned = g_ptr_array_new_with_free_func ((GDestroyNotify) padlock_input_unref);
  g_autofree int *pairs = g_new (int, batch->inputs->len + 1);

  padlock_plan_pair ((PadlockInput *const *) batch->inputs->pdata,
                     batch->inputs->len, ask, pairs);
  for (guint i = 0; i < batch->inputs->len; i++)
    {
      PadlockInput *input = g_ptr_array_index (batch->inputs, i);
      PadlockPlan plan;
      PadlockJob *job;

      if (!padlock_input_is_sniffed (input))
        continue;               /* its first read failed, and said so */
      plan = padlock_plan_decide (input, ask, NULL, PADLOCK_PLAN_KEYS_PENDING);
      /* A data file given with its signature: the signature's job reads
       * it. */
      if (pairs[i] == PADLOCK_PLAN_SIGNED_DATA)
        continue;
      g_array_append_val (batch->plans, plan);
      job = add_job (batch, input, padlock_plan_direction (plan), config,
                     planned);
      /* A signature given with its data file: a list's signature too,
       * whose job is the list's. */
      if ((plan == PADLOCK_PLAN_CHECK_DETACHED
           || plan == PADLOCK_PLAN_CHECK_LIST) && pairs[i] >= 0)
        padlock_job_set_signed_file (job, padlock_input_get_file (
                                            g_ptr_array_index (batch->inputs,
                                                               pairs[i])));
      if (plan == PADLOCK_PLAN_CHECK_LIST)
        padlock_job_set_checks_list (job);
    }
  g_ptr_array_unref (batch->inputs);
  batch->inputs = planned;
}

/* --sign --detach: a signing job (PADLOCK_DIRECTION_SIGN) for each
 * sniffed input, whatever it holds; a folder is refused (its files are
 * signed one by one), said and counted. */
static void
make_sign_jobs (Batch                  *batch,
                const PadlockJobConfig *config)
{
  GPtrArray *planned = g_ptr_array_new_with_free_func ((GDestroyNotify) padlock_input_unref);

  for (guint i = 0; i < batch->inputs->len; i++)
    {
      PadlockInput *input = g_ptr_array_index (batch->inputs, i);

      if (!padlock_input_is_sniffed (input))
        continue;               /* its first read failed, and said so */
      if (padlock_input_is_folder (input))
        {
          g_autofree char *name = g_file_get_basename (padlock_input_get_file (input));
          g_autofree char *word = padlock_name_word (name);

          g_printerr ("padlock: %s: %s\n", word,
                      _("A folder is not signed: sign the files in it."));
          batch->n_failed++;
          continue;
        }
      add_job (batch, input, PADLOCK_DIRECTION_SIGN, config, planned);
    }
  g_ptr_array_unref (batch->inputs);
  batch->inputs = planned;
}

/* --checksum-list: one job for every input, a list of them all
 * (padlock_job_new_checksum_list), unless one of them cannot be listed
 * (a pipe, a folder, not in the first one's folder, an input that could
 * not be opened), said and counted: then nothing is written. */
static void
make_list_job (Batch                  *batch,
               const PadlockJobConfig *config)
{
  g_autoptr(GPtrArray) files = g_ptr_array_new ();
  g_autoptr(GError) error = NULL;
  PadlockJob *job;

  for (guint i = 0; i < batch->inputs->len; i++)
    {
      PadlockInput *input = g_ptr_array_index (batch->inputs, i);
      GFile *file = padlock_input_get_file (input);

      if (!padlock_input_is_sniffed (input))
        continue;               /* its first read failed, and said so */
      if (padlock_input_is_stream (input))
        {
          g_autofree char *name = g_file_get_basename (file);
          g_autofree char *word = padlock_name_word (name);

          g_printerr ("padlock: %s: %s\n", word,
                      _("A pipe or FIFO cannot be listed: a checksum list "
                        "names files in its folder."));
          batch->n_failed++;
        }
      g_ptr_array_add (files, file);
    }
  if (batch->n_failed || !files->len)
    return;
  job = padlock_job_new_checksum_list ((GFile **) files->pdata, files->len,
                                       config, &error);
  if (!job)
    {
      g_autofree char *reason = padlock_name_escape (error->message);

      g_printerr ("padlock: %s\n", reason);
      batch->n_failed++;
      return;
    }
  g_ptr_array_add (batch->jobs, job);
}

/* --checksum-list: with none of the options that encrypt, decrypt or
 * write elsewhere (the list's names are relative to its folder); TRUE
 * without it. */
static gboolean
list_usage (GVariantDict *options, GError **error)
{
  static const char *const others[] = { "detach", "encrypt", "decrypt",
                                        "recipient", "encrypt-to-self",
                                        "hide-recipients", "passphrase-file",
                                        "profile", "output-dir" };

  if (!g_variant_dict_contains (options, "checksum-list"))
    return TRUE;
  for (guint i = 0; i < G_N_ELEMENTS (others); i++)
    if (g_variant_dict_contains (options, others[i]))
      return bad_usage (error, _("--checksum-list writes a signed list "
                                 "beside its files: --%s does not go with "
                                 "it."), others[i]);
  return TRUE;
}

/* --detach: with --sign, and with none of the options that encrypt or
 * decrypt; TRUE without --detach. */
static gboolean
detach_usage (GVariantDict *options, GError **error)
{
  static const char *const others[] = { "encrypt", "decrypt", "recipient",
                                        "encrypt-to-self", "hide-recipients",
                                        "passphrase-file", "profile" };

  if (!g_variant_dict_contains (options, "detach"))
    return TRUE;
  if (!g_variant_dict_contains (options, "sign"))
    return bad_usage (error, "%s", _("--detach needs --sign."));
  for (guint i = 0; i < G_N_ELEMENTS (others); i++)
    if (g_variant_dict_contains (options, others[i]))
      return bad_usage (error, _("--detach makes signatures only: --%s does "
                                 "not go with it."), others[i]);
  return TRUE;
}

/* Reads the options into CONFIG and the rest; FALSE and a
 * G_OPTION_ERROR on bad usage. */
static gboolean
read_options (GVariantDict      *options,
              PadlockJobConfig  *config,
              PadlockPlanAsk    *ask,
              const char       **pw_file,
              const char      ***paths,
              GError           **error)
{
  const char *profile = NULL, *output_dir = NULL;
  int p;

  *ask = PADLOCK_PLAN_ASK_NOTHING;
  if (g_variant_dict_contains (options, "encrypt")
      && g_variant_dict_contains (options, "decrypt"))
    return bad_usage (error, "%s",
                      _("Choose --encrypt or --decrypt, not both."));
  if (g_variant_dict_contains (options, "open")
      && g_variant_dict_contains (options, "encrypt"))
    return bad_usage (error, "%s",
                      _("--open decrypts: choose --open or --encrypt."));
  if (g_variant_dict_contains (options, "encrypt"))
    *ask = PADLOCK_PLAN_ASK_ENCRYPT;
  else if (g_variant_dict_contains (options, "decrypt")
           || g_variant_dict_contains (options, "open"))
    *ask = PADLOCK_PLAN_ASK_DECRYPT;
  /* Without one, decryption asks gpg-agent for the user's keys only
   * (checked once the jobs' plans are final: decide_keys). */
  g_variant_dict_lookup (options, "passphrase-file", "^&ay", pw_file);
  if (!g_variant_dict_lookup (options, G_OPTION_REMAINING, "^a&ay", paths)
      || !(*paths)[0])
    return bad_usage (error, "%s", _("No files or folders given."));
  if (g_variant_dict_lookup (options, "profile", "&s", &profile))
    {
      p = pl_profile_from_name (profile);
      if (p < 0)
        return bad_usage (error, _("Unknown profile %s: choose rfc4880, "
                                   "librepgp or rfc9580."), profile);
      config->profile = p;
    }
  if (g_variant_dict_contains (options, "armor"))
    config->armor = TRUE;
  if (g_variant_dict_lookup (options, "output-dir", "^&ay", &output_dir))
    {
      if (!g_file_test (output_dir, G_FILE_TEST_IS_DIR))
        return bad_usage (error, _("%s is not a folder."), output_dir);
      g_free (config->output_dir);
      config->output_dir = g_canonicalize_filename (output_dir, NULL);
    }
  return TRUE;
}

static void
on_keyring_loaded (PadlockKeyring *keyring,
                   gpointer        user_data)
{
  g_main_loop_quit (user_data);
}

/* GnuPG's keyring (GNUPGHOME, else ~/.gnupg), listed: made once, for
 * the recipients and the held keys. */
static PadlockKeyring *
load_keyring (Batch *batch)
{
  gulong id;

  if (batch->keyring)
    return batch->keyring;
  batch->keyring = padlock_keyring_new (NULL);
  id = g_signal_connect (batch->keyring, "loaded",
                         G_CALLBACK (on_keyring_loaded), batch->loop);
  if (padlock_keyring_get_state (batch->keyring) == PADLOCK_KEYRING_LOADING)
    g_main_loop_run (batch->loop);
  g_signal_handler_disconnect (batch->keyring, id);
  return batch->keyring;
}

/* --sign: the key named by --local-user (else gpg's default) into the
 * batch; FALSE, saying why, when there is none to sign with. */
static gboolean
load_signing_key (Batch *batch, const char *local_user, GError **error)
{
  PadlockKeyring *keyring = load_keyring (batch);

  batch->sign_key = padlock_keyring_get_state (keyring) == PADLOCK_KEYRING_READY
                    ? padlock_signer_choose_key (keyring, local_user) : NULL;
  if (!batch->sign_key)
    {
      if (local_user)
        g_set_error (error, PADLOCK_ERROR, PADLOCK_ERROR_PUBLIC_KEY,
                     _("No secret key that can sign matches %s."), local_user);
      else
        g_set_error (error, PADLOCK_ERROR, PADLOCK_ERROR_PUBLIC_KEY, "%s",
                     _("--sign needs a secret key that can sign in your "
                       "GnuPG keyring."));
      return FALSE;
    }
  batch->sign_agent = padlock_agent_new (padlock_keyring_get_home_dir (keyring));
  return TRUE;
}

/* The user's secret keys in GnuPG, for the decryptions; NULL when gpg
 * could not list the keyring.  Kept without a secret key too, and
 * without a keyring (an empty GnuPG home, or none): a message for others
 * then fails naming them, from the keyring's public keys when it has
 * them ("b.gpg is for 0x… (Bob <bob@…>), whose secret key is not in your
 * keyring", else the key ID alone), as the window's does, instead of
 * asking for a passphrase it cannot use.  A PadlockHeldKeys of no keys never
 * asks the agent. */
static PadlockHeldKeys *
load_held_keys (Batch *batch)
{
  PadlockKeyring *keyring = load_keyring (batch);
  g_autoptr(PadlockAgent) agent = NULL;

  if (padlock_keyring_get_state (keyring) == PADLOCK_KEYRING_FAILED)
    return NULL;
  agent = padlock_agent_new (padlock_keyring_get_home_dir (keyring));
  return padlock_held_keys_new (keyring, agent);
}

/* Whether some job's plan is PLAN. */
static gboolean
any_plan (Batch *batch, PadlockPlan plan)
{
  for (guint i = 0; i < batch->plans->len; i++)
    if (g_array_index (batch->plans, PadlockPlan, i) == plan)
      return TRUE;
  return FALSE;
}

/* The plans that wait for the user's keys (messages for public keys:
 * GnuPG is asked only for them) decided again, with the held keys, or
 * with none when gpg could not list them (then a passphrase).  The
 * batch then lets its inputs go: the jobs hold them, each let go when
 * its job ends. */
static void
decide_keys (Batch *batch, PadlockPlanAsk ask)
{
  if (any_plan (batch, PADLOCK_PLAN_WAIT_FOR_KEYS))
    batch->held_keys = load_held_keys (batch);
  for (guint i = 0; i < batch->plans->len; i++)
    {
      PadlockPlan *plan = &g_array_index (batch->plans, PadlockPlan, i);

      if (*plan == PADLOCK_PLAN_WAIT_FOR_KEYS)
        *plan = padlock_plan_decide (g_ptr_array_index (batch->inputs, i),
                                     ask, batch->held_keys, 0);
    }
  g_ptr_array_set_size (batch->inputs, 0);
}

/* "Bob <bob@…> (0x…): why", for each recipient of SPECS (and the
 * user's own key with TO_SELF) that cannot be used: said on stderr, each
 * of them; FALSE then.  Else the batch's recipients, their certificates
 * read (so that the engine's refusal is said before a file is
 * written). */
static gboolean
load_recipients (Batch              *batch,
                 const char *const  *specs,
                 gboolean            to_self,
                 gboolean            hide,
                 int                 requested)
{
  PadlockKeyring *keyring = load_keyring (batch);
  g_autoptr(GPtrArray) keys = g_ptr_array_new_with_free_func (g_object_unref);
  g_autoptr(GError) error = NULL;
  PadlockKey *me = NULL;
  gboolean ok = TRUE;

  if (padlock_keyring_get_state (keyring) == PADLOCK_KEYRING_FAILED)
    {
      g_printerr ("padlock: %s\n", padlock_keyring_get_error (keyring)->message);
      return FALSE;
    }
  for (guint i = 0; specs && specs[i]; i++)
    {
      PadlockKey *key = padlock_recipients_resolve (keyring, specs[i], &error);

      if (key)
        g_ptr_array_add (keys, key);
      else
        {
          g_printerr ("padlock: %s\n", error->message);
          g_clear_error (&error);
          ok = FALSE;
        }
    }
  if (to_self && !(me = padlock_keyring_get_default_key (keyring)))
    {
      g_printerr ("padlock: %s\n",
                  _("--encrypt-to-self: you have no secret key that can "
                    "encrypt in GnuPG"));
      ok = FALSE;
    }
  if (!ok)
    return FALSE;
  batch->recipients = padlock_recipients_new (padlock_keyring_get_home_dir (keyring),
                                              (PadlockKey *const *) keys->pdata,
                                              keys->len, me, hide, requested);
  if (!padlock_recipients_load (batch->recipients, batch->interrupt, &error))
    {
      g_printerr ("padlock: %s\n", error->message);
      return FALSE;
    }
  return TRUE;
}

/* The batch's passphrase, from PW_FILE (- for the terminal; NULL: none
 * given): needed when a job's plan is DECRYPT_PASSPHRASE, or to encrypt
 * without recipients.  NULL without one, and with a usage error when
 * one was needed or could not be read. */
static PadlockSecret *
read_secret (Batch       *batch,
             const char  *pw_file,
             gboolean     encrypts,
             GError     **error)
{
  if (!pw_file
      && ((encrypts && !batch->recipients)
          || any_plan (batch, PADLOCK_PLAN_DECRYPT_PASSPHRASE)))
    bad_usage (error, "%s",
               _("--batch needs --passphrase-file=FILE (or - to type it), or "
                 "--recipient to encrypt to people's keys; a passphrase is "
                 "never taken on the command line.  Files for your own keys "
                 "need none."));
  if (!pw_file)
    return NULL;
  return strcmp (pw_file, "-") ? passphrase_from_file (pw_file, encrypts, error)
                               : passphrase_from_tty (encrypts, error);
}

static int
run_jobs (Batch *batch, PadlockSecret *secret, guint concurrency)
{
  guint progress_id = 0;

  batch->queue = padlock_queue_new ();
  padlock_queue_set_max_running (batch->queue, concurrency);
  batch->n_left = batch->jobs->len;
  batch->tty = isatty (STDERR_FILENO);
  for (guint i = 0; i < batch->jobs->len; i++)
    {
      PadlockJob *job = g_ptr_array_index (batch->jobs, i);

      padlock_job_set_group (job, 1);
      padlock_job_set_secret (job, secret);
      if (padlock_job_get_direction (job) == PADLOCK_DIRECTION_DECRYPT)
        {
          /* A signed text or message too: its data into memory. */
          if (batch->open_limit)
            padlock_job_set_open_without_saving (job, batch->open_limit);
          padlock_job_set_held_keys (job, batch->held_keys);
          padlock_job_set_verify_home (job, batch->gnupg_home);
        }
      else
        {
          padlock_job_set_recipients (job, batch->recipients);
          if (batch->sign_key)
            padlock_job_set_signing_key (job, batch->sign_key,
                                         batch->sign_agent, batch->gnupg_home);
        }
      g_signal_connect (job, "notify::state", G_CALLBACK (on_job_state), batch);
      padlock_queue_add (batch->queue, job);
    }
  if (batch->tty)
    progress_id = g_timeout_add (PROGRESS_MS, show_progress, batch);
  if (batch->n_left)
    g_main_loop_run (batch->loop);
  clear_progress (batch);

  g_clear_handle_id (&progress_id, g_source_remove);
  g_clear_object (&batch->queue);
  return batch->n_failed || batch->n_bad_signatures ? 1 : 0;
}

int
padlock_batch_run (GVariantDict *options)
{
  g_autoptr(GSettings) settings = padlock_settings_new ();
  g_autoptr(PadlockSecret) secret = NULL;
  g_autofree const char **paths = NULL;
  g_autoptr(GError) problem = NULL;
  PadlockJobConfig config = { 0 };
  Batch batch = { 0 };
  const char *pw_file = NULL, *profile_name = NULL;
  g_autofree const char **specs = NULL;
  gboolean any_encrypt, to_self, hide, lists;
  PadlockPlanAsk ask;
  int status = 1;
  guint int_id, term_id;
  g_autoptr(GError) sign_problem = NULL;

  padlock_job_config_from_settings (settings, &config);
  if (g_variant_dict_contains (options, "open"))
    batch.open_limit = padlock_memfd_limit (
                         g_settings_get_uint64 (settings, "open-memory-limit"),
                         padlock_memfd_available ());
  if (!read_options (options, &config, &ask, &pw_file, &paths, &problem)
      || !list_usage (options, &problem)
      || !detach_usage (options, &problem))
    {
      padlock_job_config_clear (&config);
      return usage_error (problem->message);
    }

  batch.loop = g_main_loop_new (NULL, FALSE);
  batch.interrupt = g_cancellable_new ();
  batch.inputs = g_ptr_array_new_with_free_func ((GDestroyNotify) padlock_input_unref);
  batch.jobs = g_ptr_array_new_with_free_func (g_object_unref);
  batch.plans = g_array_new (FALSE, FALSE, sizeof (PadlockPlan));
  int_id = g_unix_signal_add (SIGINT, on_interrupt, &batch);
  term_id = g_unix_signal_add (SIGTERM, on_interrupt, &batch);
  open_inputs (&batch, paths);
  if (!read_prefixes (&batch))
    goto leave;
  lists = g_variant_dict_contains (options, "checksum-list");
  if (lists)
    make_list_job (&batch, &config);
  else if (g_variant_dict_contains (options, "detach"))
    make_sign_jobs (&batch, &config);
  else
    make_jobs (&batch, ask, &config);
  batch.gnupg_home = padlock_keyring_default_home ();
  any_encrypt = any_plan (&batch, PADLOCK_PLAN_ENCRYPT);

  g_variant_dict_lookup (options, "recipient", "^a&s", &specs);
  to_self = g_variant_dict_contains (options, "encrypt-to-self");
  hide = g_variant_dict_contains (options, "hide-recipients");
  /* A profile asked for is checked against the recipients; else theirs
   * is the files' (the engine's rule). */
  g_variant_dict_lookup (options, "profile", "&s", &profile_name);
  if (any_encrypt && ((specs && specs[0]) || to_self)
      && !load_recipients (&batch, specs, to_self, hide,
                           profile_name ? config.profile : -1))
    goto leave;
  /* GnuPG is asked only for messages to public keys, and to sign. */
  decide_keys (&batch, ask);
  if (lists && !batch.jobs->len)
    goto leave;                 /* nothing to list: said why */
  if (g_variant_dict_contains (options, "sign") || lists)
    {
      const char *local_user = NULL;

      g_variant_dict_lookup (options, "local-user", "&s", &local_user);
      if (!any_encrypt && !lists
          && !g_variant_dict_contains (options, "detach"))
        bad_usage (&problem, "%s", _("--sign signs what is encrypted; these "
                                     "files are all to decrypt."));
      else if (!load_signing_key (&batch, local_user, &sign_problem))
        {
          g_printerr ("padlock: %s\n", sign_problem->message);
          status = 1;
          goto leave;
        }
    }
  if (!problem)
    secret = read_secret (&batch, pw_file, any_encrypt, &problem);
  if (g_cancellable_is_cancelled (batch.interrupt))
    status = 1;
  else if (!secret && problem)
    status = usage_error (problem->message);
  else
    {
      guint failed_before = batch.n_failed;

      status = run_jobs (&batch, secret,
                         (guint) g_settings_get_int (settings, "concurrency"));
      if (failed_before)
        status = 1;
    }

 leave:
  ignore_signal_from_now (int_id);
  ignore_signal_from_now (term_id);
  g_ptr_array_unref (batch.jobs);
  g_array_unref (batch.plans);
  g_ptr_array_unref (batch.inputs);
  g_clear_pointer (&batch.held_keys, padlock_held_keys_unref);
  g_clear_pointer (&batch.recipients, padlock_recipients_unref);
  g_clear_object (&batch.keyring);
  g_free (batch.gnupg_home);
  g_clear_object (&batch.sign_key);
  g_clear_object (&batch.sign_agent);
  g_clear_object (&batch.interrupt);
  g_clear_pointer (&batch.loop, g_main_loop_unref);
  padlock_job_config_clear (&config);
  return status;
}
