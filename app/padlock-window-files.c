/* padlock-window-files.c - files in: drops, sorting, passphrases, retries */
#include "padlock-window-private.h"
#include "padlock-application.h"
#include "padlock-keyring.h"
#include "padlock-sign-as.h"

#include <glib/gi18n.h>

#include "padlock-application.h"
#include "padlock-error.h"
#include "padlock-name.h"
#include "padlock-profile.h"
#include "padlock-settings.h"
#include "padlock-input.h"

#define MAX_NAMES 3

static void show_next_request (PadlockWindow *self);

static void
padlock_request_free (PadlockRequest *request)
{
  g_clear_pointer (&request->files, g_ptr_array_unref);
  g_clear_pointer (&request->jobs, g_ptr_array_unref);
  g_free (request->heading);
  g_free (request->error);
  g_free (request->note);
  g_clear_object (&request->sign_as);
  g_free (request);
}

/* "a.gpg", "a.gpg and b.gpg", "a.gpg, b.gpg, c.gpg and 2 more" */
static char *
join_names (GPtrArray *files)
{
  g_autoptr(GString) names = g_string_new (NULL);
  guint shown = MIN (files->len, MAX_NAMES);

  for (guint i = 0; i < shown; i++)
    {
      g_autofree char *name = padlock_name_display_file (g_ptr_array_index (files, i));

      if (i > 0)
        /* Translators: between the last two names of a list, "a and b". */
        g_string_append (names, i + 1 == shown && shown == files->len
                                ? _(" and ") : ", ");
      g_string_append (names, name);
    }
  if (files->len > shown)
    /* Translators: after a list of names, "a, b, c and 2 more". */
    g_string_append_printf (names, g_dngettext (NULL, " and %u more", " and %u more",
                                                files->len - shown),
                            files->len - shown);
  return g_string_free (g_steal_pointer (&names), FALSE);
}

static char *
request_heading (PadlockPassphraseMode  mode,
                 GPtrArray             *files)
{
  g_autofree char *names = join_names (files);

  /* What the dialog does, whichever locks are chosen in it: a
   * passphrase, people, or both ("Choose a passphrase" was wrong as soon
   * as only people were chosen). */
  if (mode == PADLOCK_PASSPHRASE_ENCRYPT)
    return files->len == 1
           ? g_strdup_printf (_("Encrypt %s"), names)
           : g_strdup_printf (g_dngettext (NULL, "Encrypt %u file",
                                           "Encrypt %u files",
                                           files->len),
                              files->len);
  /* The files by name (the first three), so that it is clear which
   * passphrase is asked for. */
  return g_strdup_printf (_("Enter the passphrase for %s"), names);
}

static void
push_request (PadlockWindow  *self,
              PadlockRequest *request)
{
  g_queue_push_tail (&self->requests, request);
  show_next_request (self);
}

void
padlock_window_notice (PadlockWindow *self,
                       const char    *message)
{
  AdwToast *toast = adw_toast_new (message);
  GtkWidget *title = gtk_label_new (message);

  /* A toast's own title is one line, cut at the end: a long path would
   * lose its file name.  This one wraps. */
  gtk_label_set_wrap (GTK_LABEL (title), TRUE);
  gtk_label_set_wrap_mode (GTK_LABEL (title), PANGO_WRAP_WORD_CHAR);
  gtk_label_set_max_width_chars (GTK_LABEL (title), 50);
  gtk_label_set_xalign (GTK_LABEL (title), 0);
  adw_toast_set_custom_title (toast, title);
  adw_toast_set_timeout (toast, 8);
  /* The newest shows at once, and the one on screen goes back to the
   * queue: behind it, the last of several notices waited 8 s for each. */
  adw_toast_set_priority (toast, ADW_TOAST_PRIORITY_HIGH);
  adw_toast_overlay_add_toast (self->toast_overlay, toast);
  g_free (self->last_notice);
  self->last_notice = g_strdup (message);
}

/* Encrypting: "Sign as", under the entries. */
static void
add_sign_as (PadlockWindow *self, PadlockRequest *request)
{
  GApplication *app = g_application_get_default ();

  if (!PADLOCK_IS_APPLICATION (app))
    return;
  request->sign_as = g_object_ref_sink (padlock_sign_as_new (
                       padlock_application_get_keyring (PADLOCK_APPLICATION (app))));
  padlock_passphrase_dialog_add_section (self->dialog, request->sign_as);
}

/* The encryption jobs of REQUEST are signed by the key "Sign as" offers
 * when it is checked, through the application's agent. */
static void
set_signing_key (PadlockRequest *request, PadlockJob *job)
{
  PadlockApplication *app = PADLOCK_APPLICATION (g_application_get_default ());
  PadlockKey *key = request->sign_as
                    ? padlock_sign_as_get_key (PADLOCK_SIGN_AS (request->sign_as))
                    : NULL;

  if (key)
    padlock_job_set_signing_key (job, key, padlock_application_get_agent (app),
                                 padlock_keyring_get_home_dir (
                                   padlock_application_get_keyring (app)));
}

void
padlock_window_set_verify_home (PadlockJob *job)
{
  g_autofree char *home = padlock_keyring_default_home ();

  padlock_job_set_verify_home (job, home);
}

/* SECRET and RECIPIENTS (either may be NULL) lock the request's files. */
static void
start_jobs (PadlockWindow     *self,
            PadlockRequest    *request,
            PadlockSecret     *secret,
            PadlockRecipients *recipients,
            gboolean           one_archive)
{
  PadlockJobConfig config = { 0 };
  PadlockDirection direction = request->mode == PADLOCK_PASSPHRASE_ENCRYPT
                               ? PADLOCK_DIRECTION_ENCRYPT
                               : PADLOCK_DIRECTION_DECRYPT;
  guint group = ++self->next_group;

  padlock_job_config_from_settings (self->settings, &config);
  if (one_archive)
    {
      g_autoptr(PadlockJob) job =
        padlock_job_new_archive ((GFile **) request->files->pdata,
                                 request->files->len, &config);

      padlock_job_set_group (job, group);
      padlock_job_set_secret (job, secret);
      padlock_job_set_recipients (job, recipients);
      set_signing_key (request, job);
      padlock_queue_add (self->queue, job);
      padlock_job_config_clear (&config);
      return;
    }
  for (guint i = 0; i < request->files->len; i++)
    {
      g_autoptr(PadlockJob) job =
        padlock_job_new (g_ptr_array_index (request->files, i), direction, &config);

      padlock_job_set_group (job, group);
      padlock_job_set_secret (job, secret);
      if (direction == PADLOCK_DIRECTION_DECRYPT)
        {
          padlock_window_set_verify_home (job);
          padlock_window_keys_set_held_keys (self, job);
        }
      else
        {
          padlock_job_set_recipients (job, recipients);
          set_signing_key (request, job);
        }
      padlock_queue_add (self->queue, job);
    }
  padlock_job_config_clear (&config);
}

static void
on_dialog_finished (PadlockPassphraseDialog *dialog,
                    PadlockSecret           *secret,
                    PadlockWindow           *self)
{
  PadlockRequest *request = g_steal_pointer (&self->request);
  g_autoptr(PadlockRecipients) recipients =
    padlock_passphrase_dialog_dup_recipients (dialog);

  self->dialog = NULL;
  if ((secret || recipients) && request->files)
    start_jobs (self, request, secret, recipients,
                padlock_passphrase_dialog_get_one_archive (dialog));
  else if (secret && request->jobs)
    for (guint i = 0; i < request->jobs->len; i++)
      padlock_job_retry (g_ptr_array_index (request->jobs, i), secret);
  padlock_request_free (request);
  show_next_request (self);
}

/* "report.pdf", or "3 files": what the dialog is about. */
static char *
request_title (PadlockRequest *request)
{
  guint n = request->files ? request->files->len : request->jobs->len;
  GFile *first;

  if (n != 1)
    return g_strdup_printf (g_dngettext (NULL, "%u file", "%u files", n), n);
  first = request->files ? g_ptr_array_index (request->files, 0)
                         : padlock_job_get_input (g_ptr_array_index (request->jobs, 0));
  return padlock_name_display_file (first);
}

/* Encryption: "People" in the dialog, over the application's keyring
 * (padlock_application_get_keyring, read on first use). */
static void
add_people (PadlockWindow *self)
{
  GtkApplication *app = gtk_window_get_application (GTK_WINDOW (self));
  PadlockKeyring *keyring;

  if (!PADLOCK_IS_APPLICATION (app))
    return;
  keyring = padlock_application_get_keyring (PADLOCK_APPLICATION (app));
  padlock_passphrase_dialog_set_people (self->dialog,
                                        padlock_people_new (keyring,
                                                            self->settings));
}

static void
show_next_request (PadlockWindow *self)
{
  if (self->dialog || g_queue_is_empty (&self->requests))
    return;

  self->request = g_queue_pop_head (&self->requests);
  self->dialog = padlock_passphrase_dialog_new (GTK_WINDOW (self),
                                                self->request->mode,
                                                self->request->heading,
                                                self->request->error);
  /* The title names the files, the button the action (in German both
   * were "Verschlüsseln", side by side). */
  {
    g_autofree char *title = request_title (self->request);
    gtk_window_set_title (GTK_WINDOW (self->dialog), title);
  }
  if (self->request->mode == PADLOCK_PASSPHRASE_ENCRYPT
      && self->request->files && self->request->files->len > 1)
    padlock_passphrase_dialog_offer_one_archive (self->dialog,
        padlock_window_any_folder (self->request->files));
  padlock_passphrase_dialog_set_note (self->dialog, self->request->note);
  if (self->request->mode == PADLOCK_PASSPHRASE_ENCRYPT)
    {
      PadlockJobConfig config = { 0 };
      g_autofree char *format = NULL;

      padlock_job_config_from_settings (self->settings, &config);
      format = padlock_profile_summary (config.profile);
      padlock_passphrase_dialog_set_format (self->dialog, format);
      padlock_job_config_clear (&config);
      /* A job tried again keeps its people and its signer. */
      if (self->request->files)
        {
          add_people (self);
          add_sign_as (self, self->request);
        }
    }
  g_signal_connect_object (self->dialog, "finished",
                           G_CALLBACK (on_dialog_finished), self, 0);
  gtk_window_present (GTK_WINDOW (self->dialog));
}

/* A passphrase's job that failed on it; a key job's "bad passphrase" is
 * the agent's, whose pinentry asked already. */
static gboolean
wrong_passphrase (PadlockWindow *self,
                  PadlockJob    *job)
{
  return !padlock_window_keys_is_key_job (self, job)
         && padlock_job_get_state (job) == PADLOCK_JOB_FAILED
         && g_error_matches (padlock_job_get_error (job), PADLOCK_ERROR,
                             PADLOCK_ERROR_BAD_PASSPHRASE);
}

/* Asks again for JOBS, saying why: a wrong passphrase, or (NO_KEY) that
 * none of the user's keys opened them. */
static void
ask_again (PadlockWindow *self,
           GPtrArray     *jobs,
           gboolean       no_key)
{
  g_autoptr(GPtrArray) files = g_ptr_array_new_with_free_func (g_object_unref);
  g_autofree char *names = NULL;
  PadlockRequest *request;

  for (guint i = 0; i < jobs->len; i++)
    g_ptr_array_add (files, g_object_ref (padlock_job_get_input (g_ptr_array_index (jobs, i))));
  names = join_names (files);
  request = g_new0 (PadlockRequest, 1);
  request->mode = PADLOCK_PASSPHRASE_DECRYPT;
  request->jobs = g_ptr_array_ref (jobs);
  request->heading = request_heading (request->mode, files);
  request->error = no_key
    /* Translators: %s is one or more file names. */
    ? g_strdup_printf (_("None of your keys opens %s; a passphrase opens it "
                         "too."), names)
    : g_strdup_printf (_("Wrong passphrase for %s"), names);
  push_request (self, request);
}

/* When the last job of a decryption's group ends, the files its
 * passphrase did not open are asked for again, and only those. */
static void
check_group (PadlockWindow *self,
             guint          group)
{
  GListModel *model = G_LIST_MODEL (self->queue);
  g_autoptr(GPtrArray) jobs = g_ptr_array_new_with_free_func (g_object_unref);
  g_autoptr(GPtrArray) no_key = g_ptr_array_new_with_free_func (g_object_unref);

  for (guint i = 0; i < g_list_model_get_n_items (model); i++)
    {
      g_autoptr(PadlockJob) job = g_list_model_get_item (model, i);

      if (padlock_job_get_group (job) != group)
        continue;
      if (!padlock_job_is_finished (job))
        return;
      if (wrong_passphrase (self, job))
        g_ptr_array_add (jobs, g_object_ref (job));
    }
  for (guint i = 0; i < g_list_model_get_n_items (model); i++)
    {
      g_autoptr(PadlockJob) job = g_list_model_get_item (model, i);

      if (padlock_job_get_group (job) == group
          && padlock_window_keys_offer_passphrase (self, job))
        g_ptr_array_add (no_key, g_object_ref (job));
    }
  if (jobs->len)
    ask_again (self, jobs, FALSE);
  if (no_key->len)
    ask_again (self, no_key, TRUE);
}

static gboolean
request_has_job (PadlockRequest *request,
                 PadlockJob     *job)
{
  return request && request->jobs && g_ptr_array_find (request->jobs, job, NULL);
}

void
padlock_window_retry_failed (PadlockWindow *self)
{
  GListModel *model = G_LIST_MODEL (self->queue);
  g_autoptr(GPtrArray) jobs = g_ptr_array_new_with_free_func (g_object_unref);

  for (guint i = 0; i < g_list_model_get_n_items (model); i++)
    {
      g_autoptr(PadlockJob) job = g_list_model_get_item (model, i);
      gboolean asking = request_has_job (self->request, job);

      for (GList *l = self->requests.head; l && !asking; l = l->next)
        asking = request_has_job (l->data, job);
      if (wrong_passphrase (self, job) && !asking)
        g_ptr_array_add (jobs, g_object_ref (job));
      /* A key's passphrase was wrong at the agent's pinentry: it asks
       * again, not Padlock. */
      else if (padlock_window_keys_is_key_job (self, job)
               && padlock_job_get_state (job) == PADLOCK_JOB_FAILED
               && g_error_matches (padlock_job_get_error (job), PADLOCK_ERROR,
                                   PADLOCK_ERROR_BAD_PASSPHRASE))
        padlock_job_retry (job, NULL);
    }
  if (jobs->len)
    ask_again (self, jobs, FALSE);
}

/* A cancelled job runs again as it was: at once when it needs no
 * passphrase (padlock_job_can_retry_alone), else once the passphrase
 * (the finished job let it go) is asked for again, with no error. */
static void
try_cancelled_again (PadlockWindow *self,
                     PadlockJob    *job)
{
  g_autoptr(GPtrArray) files = g_ptr_array_new_with_free_func (g_object_unref);
  PadlockRequest *request;

  if (padlock_job_can_retry_alone (job))
    {
      padlock_job_retry (job, NULL);
      return;
    }
  g_ptr_array_add (files, g_object_ref (padlock_job_get_input (job)));
  request = g_new0 (PadlockRequest, 1);
  request->mode = padlock_job_get_direction (job) == PADLOCK_DIRECTION_ENCRYPT
                  ? PADLOCK_PASSPHRASE_ENCRYPT : PADLOCK_PASSPHRASE_DECRYPT;
  request->jobs = g_ptr_array_new_with_free_func (g_object_unref);
  g_ptr_array_add (request->jobs, g_object_ref (job));
  request->heading = request_heading (request->mode, files);
  push_request (self, request);
}

void
padlock_window_try_again (PadlockWindow *self,
                          PadlockJob    *job)
{
  gboolean asking;

  g_return_if_fail (PADLOCK_IS_WINDOW (self));
  g_return_if_fail (PADLOCK_IS_JOB (job));

  if (padlock_job_get_state (job) == PADLOCK_JOB_FAILED)
    {
      padlock_window_retry_failed (self);
      return;
    }
  if (padlock_job_get_state (job) != PADLOCK_JOB_CANCELLED)
    return;
  asking = request_has_job (self->request, job);
  for (GList *l = self->requests.head; l && !asking; l = l->next)
    asking = request_has_job (l->data, job);
  if (!asking)
    try_cancelled_again (self, job);
}

static void
on_job_state (PadlockJob    *job,
              GParamSpec    *pspec,
              PadlockWindow *self)
{
  /* Jobs that start, end or fail change the header's counts. */
  padlock_window_update_summary (self);
  padlock_window_list_job_state (self, job);
  _padlock_window_open_job_done (self, job);   /* issue 38 */
  if (padlock_job_is_finished (job)
      && padlock_job_get_direction (job) == PADLOCK_DIRECTION_DECRYPT)
    check_group (self, padlock_job_get_group (job));
}

static void
on_queue_items_changed (GListModel    *model,
                        guint          position,
                        guint          removed,
                        guint          added,
                        PadlockWindow *self)
{
  for (guint i = position; i < position + added; i++)
    {
      g_autoptr(PadlockJob) job = g_list_model_get_item (model, i);

      g_signal_connect_object (job, "notify::state", G_CALLBACK (on_job_state),
                               self, 0);
      _padlock_window_open_mark (self, job);   /* issue 38 */
    }
}

/* The passphrase dialog for new FILES (none when empty). */
static void
push_files_request (PadlockWindow         *self,
                    PadlockPassphraseMode  mode,
                    GPtrArray             *files,
                    const char            *note)
{
  PadlockRequest *request;

  if (!files->len)
    return;
  request = g_new0 (PadlockRequest, 1);
  request->mode = mode;
  request->files = g_ptr_array_ref (files);
  request->heading = request_heading (mode, files);
  request->note = g_strdup (note);
  push_request (self, request);
}

void
padlock_window_ask_decrypt (PadlockWindow *self,
                            GPtrArray     *files,
                            const char    *note)
{
  push_files_request (self, PADLOCK_PASSPHRASE_DECRYPT, files, note);
}

/* FILES opened (padlock-input.h), each sniffed once; those that cannot
 * be (not local, unreadable, a pipe) are said in a notice and left out.
 * All are held open together, so that signatures pair with their data
 * files (padlock_plan_pair). */
static GPtrArray *
open_inputs (PadlockWindow  *self,
             GFile         **files,
             guint           n_files)
{
  GPtrArray *inputs = g_ptr_array_new_with_free_func ((GDestroyNotify) padlock_input_unref);

  padlock_input_raise_open_files_limit ();
  for (guint i = 0; i < n_files; i++)
    {
      g_autoptr(GError) error = NULL;
      g_autofree char *name = NULL;
      g_autofree char *text = NULL;
      PadlockInput *input;

      if (!g_file_is_native (files[i]))
        {
          g_autofree char *parse_name = g_file_get_parse_name (files[i]);

          name = padlock_name_display (parse_name);
          text = g_strdup_printf (_("Only local files are supported: %s"), name);
          padlock_window_notice (self, text);
          continue;
        }
      name = padlock_name_display_file (files[i]);
      input = padlock_input_open (files[i], &error);
      if (!input)
        {
          /* The reason may quote a path: escaped too. */
          g_autofree char *reason = padlock_name_escape (error->message);

          text = g_strdup_printf (_("Cannot read %s: %s"), name, reason);
          padlock_window_notice (self, text);
          continue;
        }
      /* The window's jobs wait in a queue and may be retried: they read
       * files, which can be read again.  A pipe or FIFO is read once, by
       * padlock --batch (README). */
      if (padlock_input_is_stream (input))
        {
          text = g_strdup_printf (_("%s is not a file or folder: a pipe or FIFO "
                                    "can be read by padlock --batch."), name);
          padlock_window_notice (self, text);
          padlock_input_unref (input);
          continue;
        }
      g_ptr_array_add (inputs, input);
    }
  return inputs;
}

void
padlock_window_add_files (PadlockWindow    *self,
                          GFile           **files,
                          guint             n_files,
                          PadlockOpenMode   mode)
{
  g_autoptr(GPtrArray) encrypt = g_ptr_array_new_with_free_func (g_object_unref);
  g_autoptr(GPtrArray) asked = g_ptr_array_new_with_free_func (g_object_unref);
  g_autoptr(GPtrArray) inputs = NULL;
  g_autofree int *pairs = NULL;
  g_autofree char *note = NULL;
  PadlockPlanAsk ask = mode == PADLOCK_OPEN_ENCRYPT ? PADLOCK_PLAN_ASK_ENCRYPT
                       : mode == PADLOCK_OPEN_DECRYPT ? PADLOCK_PLAN_ASK_DECRYPT
                       : PADLOCK_PLAN_ASK_NOTHING;
  guint group = 0;

  g_return_if_fail (PADLOCK_IS_WINDOW (self));

  /* Their rows are on the Files page: dropped on the Keys page, the
   * files were encrypted out of sight. */
  adw_view_stack_set_visible_child_name (self->view_stack, "files");
  if (mode == PADLOCK_OPEN_SIGN || mode == PADLOCK_OPEN_CHECKSUM_LIST)
    {
      padlock_window_sign_files (self, files, n_files,
                                 mode == PADLOCK_OPEN_CHECKSUM_LIST);
      return;
    }
  /* A new batch (a drop, a choice, a command line) while the list holds
   * an earlier one's: the header's counts are of both. */
  if (g_list_model_get_n_items (G_LIST_MODEL (self->queue)) > 0)
    self->earlier_batches = TRUE;
  inputs = open_inputs (self, files, n_files);
  /* A signature given with its data file is one job, the signature's
   * (padlock-plan.h), as in --batch. */
  pairs = g_new (int, inputs->len + 1);
  padlock_plan_pair ((PadlockInput *const *) inputs->pdata, inputs->len, ask,
                     pairs);
  for (guint i = 0; i < inputs->len; i++)
    {
      PadlockInput *input = g_ptr_array_index (inputs, i);
      GFile *file = padlock_input_get_file (input);
      PadlockPlan plan;

      if (pairs[i] == PADLOCK_PLAN_SIGNED_DATA)
        continue;
      /* What it is and needs: padlock-plan.h.  A key file is imported,
       * not encrypted (issue 22), when the keyring can take it; else it
       * is any file. */
      plan = padlock_window_keys_plan (self, input, ask, PADLOCK_PLAN_IMPORT);
      if (plan == PADLOCK_PLAN_IMPORT_KEYS)
        {
          if (padlock_window_offer_import (self, file))
            continue;
          plan = padlock_window_keys_plan (self, input, ask, 0);
        }
      if (plan == PADLOCK_PLAN_ENCRYPT)
        g_ptr_array_add (encrypt, g_object_ref (file));
      else
        /* Those the user's keys open start now, without a dialog; a
         * signature reads the data file given with it. */
        padlock_window_keys_start (self, file, plan,
                                   pairs[i] >= 0
                                   ? padlock_input_get_file (g_ptr_array_index (inputs, pairs[i]))
                                   : NULL,
                                   &group, asked);
    }

  if (asked->len)
    note = g_strdup_printf (g_dngettext (NULL,
        "Next, a second dialog asks for the passphrase of the %u file to decrypt.",
        "Next, a second dialog asks for the passphrase of the %u files to decrypt.",
        asked->len), asked->len);
  push_files_request (self, PADLOCK_PASSPHRASE_ENCRYPT, encrypt, note);
  push_files_request (self, PADLOCK_PASSPHRASE_DECRYPT, asked, NULL);
}

static gboolean
on_drop (GtkDropTarget *target,
         const GValue  *value,
         double         x,
         double         y,
         PadlockWindow *self)
{
  GdkFileList *list = g_value_get_boxed (value);

  gtk_widget_set_visible (self->drop_hint, FALSE);
  if (!list)
    return FALSE;
  padlock_window_add_file_list (self, list);
  return TRUE;
}

void
padlock_window_add_file_list (PadlockWindow *self, GdkFileList *list)
{
  GSList *files = gdk_file_list_get_files (list);
  g_autoptr(GPtrArray) array = g_ptr_array_new ();

  for (GSList *l = files; l; l = l->next)
    g_ptr_array_add (array, l->data);
  padlock_window_add_files (self, (GFile **) array->pdata, array->len,
                            PADLOCK_OPEN_AUTO);
  g_slist_free (files);
}

static GdkDragAction
on_drop_enter (GtkDropTarget *target,
               double         x,
               double         y,
               PadlockWindow *self)
{
  gtk_widget_set_visible (self->drop_hint, TRUE);
  return GDK_ACTION_COPY;
}

static void
on_drop_leave (GtkDropTarget *target,
               PadlockWindow *self)
{
  gtk_widget_set_visible (self->drop_hint, FALSE);
}

void
padlock_window_init_files (PadlockWindow *self)
{
  g_queue_init (&self->requests);

  self->drop_target = gtk_drop_target_new (GDK_TYPE_FILE_LIST, GDK_ACTION_COPY);
  g_object_ref (self->drop_target);
  g_signal_connect_object (self->drop_target, "drop", G_CALLBACK (on_drop), self, 0);
  g_signal_connect_object (self->drop_target, "enter", G_CALLBACK (on_drop_enter), self, 0);
  g_signal_connect_object (self->drop_target, "leave", G_CALLBACK (on_drop_leave), self, 0);
  gtk_widget_add_controller (GTK_WIDGET (self), GTK_EVENT_CONTROLLER (self->drop_target));

  g_signal_connect_object (self->queue, "items-changed",
                           G_CALLBACK (on_queue_items_changed), self, 0);
}

void
padlock_window_dispose_files (PadlockWindow *self)
{
  PadlockRequest *request;

  while ((request = g_queue_pop_head (&self->requests)))
    padlock_request_free (request);
  g_clear_pointer (&self->request, padlock_request_free);
  g_clear_object (&self->drop_target);
}
