/* padlock-batch.c - `padlock --batch`: the window's jobs, without a window */
#include "padlock-config.h"
#include "padlock-batch.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <termios.h>
#include <unistd.h>
#include <glib/gi18n.h>
#include <glib-unix.h>
#include <gcrypt.h>

#include "job.h"
#include "padlock-format.h"
#include "padlock-job.h"
#include "padlock-name.h"
#include "padlock-queue.h"
#include "padlock-secret.h"
#include "padlock-settings.h"
#include "padlock-sniff.h"

#define PROGRESS_MS 250
#define PASSPHRASE_MAX 4096

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
  GPtrArray *jobs;
  guint n_left;
  guint n_failed;
  gboolean progress_shown;
  gboolean tty;
} Batch;

static int
usage_error (const char *message)
{
  g_printerr ("padlock: %s\n", message);
  g_printerr ("%s\n", _("Usage: padlock --batch [--encrypt|--decrypt] "
                        "--passphrase-file=FILE [--output-dir=DIR] "
                        "[--profile=NAME] [--armor] PATH…"));
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

/* Reads a line from the terminal with echo off, into secure memory. */
static char *
read_tty_line (int fd, const char *prompt)
{
  struct termios old, quiet;
  char *line = gcry_malloc_secure (PASSPHRASE_MAX);
  size_t len = 0;
  char c;

  if (!line)
    return NULL;
  if (tcgetattr (fd, &old))
    {
      gcry_free (line);
      return NULL;
    }
  quiet = old;
  quiet.c_lflag &= ~(tcflag_t) ECHO;
  quiet.c_lflag |= ECHONL;
  if (write (fd, prompt, strlen (prompt)) < 0
      || tcsetattr (fd, TCSAFLUSH, &quiet))
    {
      gcry_free (line);
      return NULL;
    }
  while (read (fd, &c, 1) == 1 && c != '\n')
    if (len + 1 < PASSPHRASE_MAX)
      line[len++] = c;
  line[len] = 0;
  c = 0;
  tcsetattr (fd, TCSAFLUSH, &old);
  return line;
}

/* "-": from the terminal, twice when encrypting so that a typo does not
 * lock the files away. */
static PadlockSecret *
passphrase_from_tty (gboolean confirm, GError **error)
{
  int fd = open ("/dev/tty", O_RDWR | O_CLOEXEC);
  char *first = NULL, *again = NULL;
  PadlockSecret *secret = NULL;

  if (fd < 0)
    {
      bad_usage (error, "%s", _("--passphrase-file=- needs a terminal"));
      return NULL;
    }
  first = read_tty_line (fd, _("Passphrase: "));
  if (first && confirm)
    again = read_tty_line (fd, _("Passphrase again: "));
  close (fd);
  if (!first || (confirm && !again))
    g_set_error_literal (error, G_IO_ERROR, G_IO_ERROR_FAILED,
                         _("Could not read the passphrase from the terminal"));
  else if (confirm && strcmp (first, again))
    bad_usage (error, "%s", _("The passphrases differ"));
  else if (!*first)
    bad_usage (error, "%s", _("The passphrase is empty"));
  else
    secret = padlock_secret_new (first);
  if (first)
    gcry_free (first);          /* secure memory is wiped when freed */
  if (again)
    gcry_free (again);
  return secret;
}

/* The file's content less one trailing newline. */
static PadlockSecret *
passphrase_from_file (const char *path, GError **error)
{
  PadlockSecret *secret = NULL;
  char *text = NULL;
  gsize len = 0;

  if (!g_file_get_contents (path, &text, &len, error))
    return NULL;
  if (len && text[len - 1] == '\n')
    text[--len] = 0;
  if (strlen (text) != len)
    bad_usage (error, _("%s holds a NUL character"), path);
  else if (!len)
    bad_usage (error, _("%s holds no passphrase"), path);
  else
    secret = padlock_secret_new (text);
  explicit_bzero (text, len);
  g_free (text);
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
  /* Escaped, not isolated: a terminal draws no bidi, and scripts read
   * these lines. */
  {
    g_autofree char *name = g_file_get_basename (padlock_job_get_input (job));

    input = padlock_name_escape (name);
    output = padlock_name_escape (padlock_job_get_output_name (job));
  }
  detail = padlock_job_get_detail (job);
  if (padlock_job_get_state (job) == PADLOCK_JOB_DONE)
    /* A line for scripts: not translated. */
    g_print ("%s %s -> %s\n",
             padlock_job_get_direction (job) == PADLOCK_DIRECTION_ENCRYPT
             ? "encrypted" : "decrypted",
             input, output);
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
  if (--batch->n_left == 0)
    g_main_loop_quit (batch->loop);
}

static gboolean
on_interrupt (gpointer user_data)
{
  Batch *batch = user_data;

  padlock_queue_cancel_all (batch->queue);
  return G_SOURCE_CONTINUE;
}

/* Sorts one PATH into a job, as the window sorts what is dropped on it. */
static PadlockJob *
job_for_path (const char             *path,
              int                     forced,
              const PadlockJobConfig *config)
{
  g_autoptr(GFile) file = g_file_new_for_commandline_arg (path);
  g_autoptr(GError) error = NULL;
  PadlockSniff kind = PADLOCK_SNIFF_PLAIN;
  PadlockDirection direction;

  if (!padlock_sniff_file (file, &kind, &error))
    {
      g_printerr ("padlock: %s: %s\n", path, error->message);
      return NULL;
    }
  if (forced >= 0)
    direction = (PadlockDirection) forced;
  else
    direction = kind == PADLOCK_SNIFF_PLAIN ? PADLOCK_DIRECTION_ENCRYPT
                                            : PADLOCK_DIRECTION_DECRYPT;
  return padlock_job_new (file, direction, config);
}

/* Reads the options into CONFIG and the rest; FALSE and a
 * G_OPTION_ERROR on bad usage. */
static gboolean
read_options (GVariantDict      *options,
              PadlockJobConfig  *config,
              int               *forced,
              const char       **pw_file,
              const char      ***paths,
              GError           **error)
{
  const char *profile = NULL, *output_dir = NULL;
  int p;

  *forced = -1;
  if (g_variant_dict_contains (options, "encrypt")
      && g_variant_dict_contains (options, "decrypt"))
    return bad_usage (error, "%s",
                      _("Choose --encrypt or --decrypt, not both."));
  if (g_variant_dict_contains (options, "encrypt"))
    *forced = PADLOCK_DIRECTION_ENCRYPT;
  else if (g_variant_dict_contains (options, "decrypt"))
    *forced = PADLOCK_DIRECTION_DECRYPT;
  if (!g_variant_dict_lookup (options, "passphrase-file", "^&ay", pw_file))
    return bad_usage (error, "%s",
                      _("--batch needs --passphrase-file=FILE (or - to type "
                        "it); a passphrase is never taken on the command "
                        "line."));
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

static int
run_jobs (Batch *batch, PadlockSecret *secret, guint concurrency)
{
  guint progress_id = 0, int_id, term_id;

  batch->loop = g_main_loop_new (NULL, FALSE);
  batch->queue = padlock_queue_new ();
  padlock_queue_set_max_running (batch->queue, concurrency);
  batch->n_left = batch->jobs->len;
  batch->tty = isatty (STDERR_FILENO);
  for (guint i = 0; i < batch->jobs->len; i++)
    {
      PadlockJob *job = g_ptr_array_index (batch->jobs, i);

      padlock_job_set_group (job, 1);
      padlock_job_set_secret (job, secret);
      g_signal_connect (job, "notify::state", G_CALLBACK (on_job_state), batch);
      padlock_queue_add (batch->queue, job);
    }
  int_id = g_unix_signal_add (SIGINT, on_interrupt, batch);
  term_id = g_unix_signal_add (SIGTERM, on_interrupt, batch);
  if (batch->tty)
    progress_id = g_timeout_add (PROGRESS_MS, show_progress, batch);
  if (batch->n_left)
    g_main_loop_run (batch->loop);
  clear_progress (batch);

  g_clear_handle_id (&progress_id, g_source_remove);
  g_source_remove (int_id);
  g_source_remove (term_id);
  g_clear_object (&batch->queue);
  g_clear_pointer (&batch->loop, g_main_loop_unref);
  return batch->n_failed ? 1 : 0;
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
  const char *pw_file = NULL;
  gboolean any_encrypt = FALSE;
  int forced, status;

  padlock_job_config_from_settings (settings, &config);
  if (!read_options (options, &config, &forced, &pw_file, &paths, &problem))
    {
      padlock_job_config_clear (&config);
      return usage_error (problem->message);
    }

  batch.jobs = g_ptr_array_new_with_free_func (g_object_unref);
  for (guint i = 0; paths[i]; i++)
    {
      PadlockJob *job = job_for_path (paths[i], forced, &config);

      if (!job)
        batch.n_failed++;
      else
        {
          any_encrypt |= padlock_job_get_direction (job)
                         == PADLOCK_DIRECTION_ENCRYPT;
          g_ptr_array_add (batch.jobs, job);
        }
    }

  secret = strcmp (pw_file, "-") ? passphrase_from_file (pw_file, &problem)
                                 : passphrase_from_tty (any_encrypt, &problem);
  if (!secret)
    status = usage_error (problem->message);
  else
    {
      guint failed_before = batch.n_failed;

      status = run_jobs (&batch, secret,
                         (guint) g_settings_get_int (settings, "concurrency"));
      if (failed_before)
        status = 1;
    }
  g_ptr_array_unref (batch.jobs);
  padlock_job_config_clear (&config);
  return status;
}
