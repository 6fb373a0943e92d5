/* padlock-window.c - the main window: drop files, watch them go */
#include "padlock-window-private.h"

#include <string.h>
#include <glib/gi18n.h>

#include "padlock-accessible.h"
#include "padlock-format.h"
#include "padlock-rate.h"
#include "padlock-settings.h"

G_DEFINE_FINAL_TYPE (PadlockWindow, padlock_window, ADW_TYPE_APPLICATION_WINDOW)

/* The graph keeps moving this long after the queue went idle. */
#define IDLE_TICKS (30 * 1000 / PADLOCK_GRAPH_INTERVAL_MS)

/* What happened to the jobs in the list, counted from their states. */
typedef struct
{
  guint queued, running, done, failed, cancelled;
} JobCounts;

/* Kept by the queue as states change: no pass over 10,000 jobs. */
static void
count_jobs (PadlockWindow *self,
            JobCounts     *counts)
{
  PadlockQueue *q = self->queue;

  counts->queued = padlock_queue_count_state (q, PADLOCK_JOB_QUEUED);
  counts->running = padlock_queue_count_state (q, PADLOCK_JOB_RUNNING)
                    + padlock_queue_count_state (q,
                                                 PADLOCK_JOB_CHECKING_OUTPUT);
  counts->done = padlock_queue_count_state (q, PADLOCK_JOB_DONE);
  counts->failed = padlock_queue_count_state (q, PADLOCK_JOB_FAILED);
  counts->cancelled = padlock_queue_count_state (q, PADLOCK_JOB_CANCELLED);
}

/* PHRASE after " · ", whole on its line ("2 running", never "2 /
 * running"): the label wraps only between phrases, after the "·" (held
 * to the phrase before it by a no-break space), so that no line starts
 * with one. */
static void
append_phrase (GString    *text,
               const char *phrase)
{
  g_auto(GStrv) words = g_strsplit (phrase, " ", -1);
  g_autofree char *whole = g_strjoinv ("\u00a0", words);

  if (text->len)
    g_string_append (text, "\u00a0· ");
  g_string_append (text, whole);
}

static void
append_count (GString    *text,
              guint       n,
              const char *format)
{
  g_autofree char *phrase = NULL;

  if (!n)
    return;
  phrase = g_strdup_printf (format, n);
  append_phrase (text, phrase);
}

/* "2 running · 3 waiting · 5 done · 1 failed": only the counts that are
 * not zero, so that nothing is claimed that did not happen. */
static char *
counts_text (const JobCounts *c)
{
  GString *text = g_string_new (NULL);

  append_count (text, c->running,
                g_dngettext (NULL, "%u running", "%u running", c->running));
  append_count (text, c->queued,
                g_dngettext (NULL, "%u waiting", "%u waiting", c->queued));
  append_count (text, c->done,
                g_dngettext (NULL, "%u done", "%u done", c->done));
  append_count (text, c->failed,
                g_dngettext (NULL, "%u failed", "%u failed", c->failed));
  append_count (text, c->cancelled,
                g_dngettext (NULL, "%u cancelled", "%u cancelled", c->cancelled));
  return g_string_free (text, FALSE);
}

/* The big label: the rate while jobs run, what came of them after. */
static const char *
idle_title (const JobCounts *c)
{
  if (c->done)
    return _("Done");
  if (c->failed)
    return _("Failed");
  if (c->cancelled)
    return _("Cancelled");
  return "";
}

static void
set_quit_heading (AdwMessageDialog *dialog,
                  guint             n)
{
  adw_message_dialog_format_heading (dialog, g_dngettext (NULL, "Stop %u running job?",
                                                          "Stop %u running jobs?", n),
                                     n);
}

static gboolean finish_quitting (gpointer user_data);

/* Once: the jobs' ends and the question's may both come to it. */
static void
schedule_finish (PadlockWindow *self)
{
  if (self->finish_scheduled)
    return;
  self->finish_scheduled = TRUE;
  g_idle_add_full (G_PRIORITY_DEFAULT, finish_quitting, g_object_ref (self),
                   g_object_unref);
}

/* The question follows the jobs: its count as they end; and when none
 * is left to stop, the question is moot and the window closes (or the
 * application quits) as the user asked. */
static void
sync_quit_dialog (PadlockWindow   *self,
                  const JobCounts *counts)
{
  guint n = counts->running + counts->queued;

  if (!self->quit_dialog)
    return;
  if (n)
    {
      set_quit_heading (self->quit_dialog, n);
      return;
    }
  gtk_window_destroy (GTK_WINDOW (g_steal_pointer (&self->quit_dialog)));
  self->quitting = TRUE;
  schedule_finish (self);
}

void
padlock_window_update_summary (PadlockWindow *self)
{
  guint n = g_list_model_get_n_items (G_LIST_MODEL (self->queue));
  g_autofree char *files = NULL;
  JobCounts counts;
  gboolean busy;

  count_jobs (self, &counts);
  busy = counts.running + counts.queued > 0;
  gtk_stack_set_visible_child_name (self->stack,
                                    n || padlock_window_has_imports (self)
                                    ? "jobs" : "empty");
  files = counts_text (&counts);
  if (!n)
    self->earlier_batches = FALSE;
  /* The counts are of every job in the list: after a second batch, say
   * so ("597 done · 3 failed · this session"). */
  if (self->earlier_batches && *files)
    {
      g_autoptr(GString) text = g_string_new (files);

      /* Translators: after "5 done · 1 failed" when the list holds the
       * jobs of more than one batch. */
      append_phrase (text, _("this session"));
      g_free (files);
      files = g_string_free (g_steal_pointer (&text), FALSE);
    }
  gtk_label_set_text (self->files_label, files);
  if (!busy)
    gtk_label_set_text (self->throughput_label, idle_title (&counts));
  else if (padlock_queue_get_throughput (self->queue) <= 0)
    gtk_label_set_text (self->throughput_label, _("Starting…"));
  gtk_widget_action_set_enabled (GTK_WIDGET (self), "win.clear-finished",
                                 counts.done + counts.failed + counts.cancelled > 0);
  gtk_widget_action_set_enabled (GTK_WIDGET (self), "win.cancel-all", busy);
  padlock_window_list_sync_failures (self, counts.failed + counts.cancelled);
  sync_quit_dialog (self, &counts);
}

static gboolean
on_graph_tick (gpointer user_data)
{
  PadlockWindow *self = user_data;
  double rate = padlock_queue_get_throughput (self->queue);
  gboolean busy = padlock_queue_get_busy (self->queue);
  gint64 now = g_get_monotonic_time ();
  guint64 bytes = padlock_queue_get_bytes (self->queue);

  /* A bin: the bytes since the last tick over the time since, so that a
   * short job shows at its rate (the header's rate is over 2 s). */
  if (self->graph_time && bytes >= self->graph_bytes)
    padlock_graph_push (self->graph, padlock_rate_average (bytes - self->graph_bytes,
                                                           now - self->graph_time));
  self->graph_time = now;
  self->graph_bytes = bytes;
  padlock_graph_set_peak (self->graph, padlock_queue_get_peak_job_rate (self->queue));
  if (busy)
    {
      /* Until the first bytes go by, the label says "Starting…"; so it
       * does again while no job moves (pinentry is up: the jobs' bytes
       * read ahead do not count, padlock-job.c). */
      if (rate > 0)
        {
          g_autofree char *text = padlock_format_rate (rate);
          gtk_label_set_text (self->throughput_label, text);
        }
      else
        gtk_label_set_text (self->throughput_label, _("Starting…"));
      self->idle_ticks = 0;
    }
  else if (++self->idle_ticks >= IDLE_TICKS)
    {
      self->graph_id = 0;
      return G_SOURCE_REMOVE;
    }
  return G_SOURCE_CONTINUE;
}

static void
notify_finished (PadlockWindow *self)
{
  GApplication *app = G_APPLICATION (gtk_window_get_application (GTK_WINDOW (self)));
  g_autoptr(GNotification) notification = NULL;
  g_autofree char *body = NULL;
  JobCounts counts;

  if (!app || gtk_window_is_active (GTK_WINDOW (self)))
    return;
  count_jobs (self, &counts);
  if (counts.failed)
    /* Translators: the first %u counts the files done, the second (which
     * chooses the plural) those that failed. */
    body = g_strdup_printf (g_dngettext (NULL, "%u done, %u failed", "%u done, %u failed",
                                         counts.failed),
                            counts.done, counts.failed);
  else
    body = g_strdup_printf (g_dngettext (NULL, "%u file done", "%u files done",
                                         counts.done),
                            counts.done);
  notification = g_notification_new (counts.failed ? _("Some files failed")
                                                   : _("Files are ready"));
  g_notification_set_body (notification, body);
  g_application_send_notification (app, "batch-finished", notification);
}

static gboolean
finish_quitting (gpointer user_data)
{
  PadlockWindow *self = user_data;
  GApplication *app = G_APPLICATION (gtk_window_get_application (GTK_WINDOW (self)));
  gboolean quit_app = self->quit_app;

  if (app)
    g_application_hold (app);
  gtk_window_destroy (GTK_WINDOW (self));
  if (app)
    {
      if (quit_app)
        g_application_quit (app);
      g_application_release (app);
    }
  return G_SOURCE_REMOVE;
}

static void
on_quit_response (AdwMessageDialog *dialog,
                  const char       *response,
                  PadlockWindow    *self)
{
  if (self->quit_dialog != dialog)
    return;                     /* answered already */
  self->quit_dialog = NULL;
  if (g_strcmp0 (response, "stop") != 0)
    {
      self->quit_app = FALSE;
      return;
    }
  /* The jobs end first, so that each removes what it had written. */
  self->quitting = TRUE;
  padlock_queue_cancel_all (self->queue);
  if (!padlock_queue_get_busy (self->queue))
    schedule_finish (self);
}

gboolean
padlock_window_ask_to_quit (PadlockWindow *self,
                            gboolean       quit_app)
{
  JobCounts counts;
  guint n;
  GtkWidget *dialog;

  g_return_val_if_fail (PADLOCK_IS_WINDOW (self), FALSE);

  self->quit_app = self->quit_app || quit_app;
  if (self->quitting)
    return TRUE;
  count_jobs (self, &counts);
  n = counts.running + counts.queued;
  if (n == 0)
    return FALSE;
  if (self->quit_dialog)
    {
      gtk_window_present (GTK_WINDOW (self->quit_dialog));
      return TRUE;
    }
  dialog = adw_message_dialog_new (GTK_WINDOW (self), NULL, NULL);
  set_quit_heading (ADW_MESSAGE_DIALOG (dialog), n);
  adw_message_dialog_set_body (ADW_MESSAGE_DIALOG (dialog),
                               _("Files still being encrypted or decrypted are "
                                 "not finished: what they wrote so far is removed, "
                                 "and the originals stay as they are."));
  adw_message_dialog_add_responses (ADW_MESSAGE_DIALOG (dialog),
                                    "cancel", _("_Keep Running"),
                                    "stop", _("_Stop and Quit"),
                                    NULL);
  adw_message_dialog_set_response_appearance (ADW_MESSAGE_DIALOG (dialog), "stop",
                                              ADW_RESPONSE_DESTRUCTIVE);
  adw_message_dialog_set_default_response (ADW_MESSAGE_DIALOG (dialog), "cancel");
  adw_message_dialog_set_close_response (ADW_MESSAGE_DIALOG (dialog), "cancel");
  self->quit_dialog = ADW_MESSAGE_DIALOG (dialog);
  g_signal_connect_object (dialog, "response", G_CALLBACK (on_quit_response), self, 0);
  gtk_window_present (GTK_WINDOW (dialog));
  return TRUE;
}

static gboolean
padlock_window_close_request (GtkWindow *window)
{
  if (padlock_window_ask_to_quit (PADLOCK_WINDOW (window), FALSE))
    return TRUE;
  return GTK_WINDOW_CLASS (padlock_window_parent_class)->close_request (window);
}

static void
on_busy_changed (PadlockWindow *self)
{
  if (self->quitting && !padlock_queue_get_busy (self->queue))
    schedule_finish (self);

  if (padlock_queue_get_busy (self->queue))
    {
      self->idle_ticks = 0;
      if (!self->graph_id)
        {
          self->graph_time = 0;
          self->graph_id = g_timeout_add (PADLOCK_GRAPH_INTERVAL_MS, on_graph_tick, self);
          on_graph_tick (self);
        }
    }
  else if (!self->quitting)     /* stopped on request: nothing to announce */
    notify_finished (self);
  padlock_window_update_summary (self);
}

static void
on_concurrency_changed (PadlockWindow *self)
{
  padlock_queue_set_max_running (self->queue,
      (guint) MAX (0, g_settings_get_int (self->settings, "concurrency")));
}

GPtrArray *
padlock_window_chosen_files (GtkNativeDialog *chooser)
{
  g_autoptr(GListModel) files =
    gtk_file_chooser_get_files (GTK_FILE_CHOOSER (chooser));
  GPtrArray *array = g_ptr_array_new_with_free_func (g_object_unref);

  for (guint i = 0; i < g_list_model_get_n_items (files); i++)
    g_ptr_array_add (array, g_list_model_get_item (files, i));
  return array;
}

void
padlock_window_chooser_response (GtkNativeDialog *chooser,
                                 int              response,
                                 PadlockWindow   *self)
{
  if (response == GTK_RESPONSE_ACCEPT)
    {
      g_autoptr(GPtrArray) array = padlock_window_chosen_files (chooser);

      padlock_window_add_files (self, (GFile **) array->pdata, array->len,
                                self->chooser_mode);
    }
  g_clear_object (&self->chooser);
}

void
padlock_window_choose_files (PadlockWindow   *self,
                             PadlockOpenMode  mode)
{
  const char *title;

  g_return_if_fail (PADLOCK_IS_WINDOW (self));

  if (self->chooser)
    return;
  switch (mode)
    {
    case PADLOCK_OPEN_ENCRYPT:
      title = _("Choose Files to Encrypt");
      break;
    case PADLOCK_OPEN_DECRYPT:
      title = _("Choose Files to Decrypt");
      break;
    case PADLOCK_OPEN_SIGN:
      title = _("Choose Files to Sign");
      break;
    case PADLOCK_OPEN_CHECKSUM_LIST:
      title = _("Choose Files for a Checksum List");
      break;
    case PADLOCK_OPEN_AUTO:
    default:
      title = _("Choose Files to Encrypt or Decrypt");
      break;
    }
  padlock_window_show_chooser (self, mode, title, GTK_FILE_CHOOSER_ACTION_OPEN);
}

void
padlock_window_show_chooser (PadlockWindow        *self,
                             PadlockOpenMode       mode,
                             const char           *title,
                             GtkFileChooserAction  action)
{
  g_assert (self->chooser == NULL);

  self->chooser_mode = mode;
  self->chooser = gtk_file_chooser_native_new (title, GTK_WINDOW (self), action,
                                               _("_Choose"), _("_Cancel"));
  gtk_native_dialog_set_modal (GTK_NATIVE_DIALOG (self->chooser), TRUE);
  gtk_file_chooser_set_select_multiple (GTK_FILE_CHOOSER (self->chooser), TRUE);
  g_signal_connect_object (self->chooser, "response",
                           G_CALLBACK (padlock_window_chooser_response), self, 0);
  gtk_native_dialog_show (GTK_NATIVE_DIALOG (self->chooser));
}

static void
open_action (GtkWidget  *widget,
             const char *action_name,
             GVariant   *parameter)
{
  padlock_window_choose_files (PADLOCK_WINDOW (widget), PADLOCK_OPEN_AUTO);
}

static void
clear_finished_action (GtkWidget  *widget,
                       const char *action_name,
                       GVariant   *parameter)
{
  PadlockWindow *self = PADLOCK_WINDOW (widget);

  padlock_queue_clear_finished (self->queue);
  /* The graph tells of the jobs in the list; they are gone. */
  if (!padlock_queue_get_busy (self->queue))
    {
      g_clear_handle_id (&self->graph_id, g_source_remove);
      padlock_graph_clear (self->graph);
      padlock_queue_reset_peak_job_rate (self->queue);
      self->earlier_batches = FALSE;
    }
}

static void
cancel_all_action (GtkWidget  *widget,
                   const char *action_name,
                   GVariant   *parameter)
{
  padlock_queue_cancel_all (PADLOCK_WINDOW (widget)->queue);
}

static void
notice_action (GtkWidget  *widget,
               const char *action_name,
               GVariant   *parameter)
{
  padlock_window_notice (PADLOCK_WINDOW (widget), g_variant_get_string (parameter, NULL));
}

static void
retry_action (GtkWidget  *widget,
              const char *action_name,
              GVariant   *parameter)
{
  padlock_window_retry_failed (PADLOCK_WINDOW (widget));
}

static void
padlock_window_dispose (GObject *object)
{
  PadlockWindow *self = (PadlockWindow *) object;

  if (self->queue)
    padlock_queue_cancel_all (self->queue);
  g_clear_handle_id (&self->graph_id, g_source_remove);
  padlock_window_dispose_files (self);
  padlock_window_dispose_mykey (self);
  padlock_window_dispose_keys (self);
  padlock_window_dispose_list (self);
  g_clear_pointer (&self->open_pending, g_hash_table_unref);   /* issue 38 */
  if (self->chooser)
    gtk_native_dialog_destroy (GTK_NATIVE_DIALOG (self->chooser));
  g_clear_object (&self->chooser);
  if (self->quit_dialog)
    gtk_window_destroy (GTK_WINDOW (g_steal_pointer (&self->quit_dialog)));
  gtk_widget_dispose_template (GTK_WIDGET (self), PADLOCK_TYPE_WINDOW);
  self->job_filter_model = NULL;        /* went with the list view */
  g_clear_object (&self->queue);
  g_clear_object (&self->settings);
  g_clear_pointer (&self->last_notice, g_free);

  G_OBJECT_CLASS (padlock_window_parent_class)->dispose (object);
}

static void
padlock_window_class_init (PadlockWindowClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->dispose = padlock_window_dispose;
  GTK_WINDOW_CLASS (klass)->close_request = padlock_window_close_request;

  g_type_ensure (PADLOCK_TYPE_GRAPH);
  gtk_widget_class_set_template_from_resource (widget_class,
      "/io/github/padlock/Padlock/padlock-window.ui");
  gtk_widget_class_bind_template_child (widget_class, PadlockWindow, toast_overlay);
  gtk_widget_class_bind_template_child (widget_class, PadlockWindow, stack);
  gtk_widget_class_bind_template_child (widget_class, PadlockWindow, status_page);
  gtk_widget_class_bind_template_child (widget_class, PadlockWindow, choose_button);
  gtk_widget_class_bind_template_child (widget_class, PadlockWindow, drop_hint);
  gtk_widget_class_bind_template_child (widget_class, PadlockWindow, job_list);
  gtk_widget_class_bind_template_child (widget_class, PadlockWindow, graph);
  gtk_widget_class_bind_template_child (widget_class, PadlockWindow, throughput_label);
  gtk_widget_class_bind_template_child (widget_class, PadlockWindow, files_label);
  gtk_widget_class_bind_template_child (widget_class, PadlockWindow, menu_button);
  gtk_widget_class_bind_template_child (widget_class, PadlockWindow, summary_box);
  gtk_widget_class_bind_template_child (widget_class, PadlockWindow, scroller);
  gtk_widget_class_bind_template_child (widget_class, PadlockWindow, failures_button);
  gtk_widget_class_bind_template_child (widget_class, PadlockWindow, imports_list);
  gtk_widget_class_bind_template_child (widget_class, PadlockWindow, create_key_button);
  gtk_widget_class_bind_template_child (widget_class, PadlockWindow, expiry_revealer);
  gtk_widget_class_bind_template_child (widget_class, PadlockWindow, expiry_label);
  gtk_widget_class_bind_template_child (widget_class, PadlockWindow, extend_button);

  gtk_widget_class_install_action (widget_class, "win.open", NULL, open_action);
  gtk_widget_class_install_action (widget_class, "win.clear-finished", NULL,
                                   clear_finished_action);
  gtk_widget_class_install_action (widget_class, "win.cancel-all", NULL,
                                   cancel_all_action);
  gtk_widget_class_install_action (widget_class, "win.retry", NULL, retry_action);
  padlock_window_folders_class_init (widget_class);
  padlock_window_sign_class_init (widget_class);
  padlock_window_pages_class_init (widget_class);
  padlock_window_paste_class_init (widget_class);
  padlock_window_mykey_class_init (widget_class);
  _padlock_window_open_class_init (widget_class);
  gtk_widget_class_install_action (widget_class, "win.notice", "s", notice_action);
}

static void
padlock_window_init (PadlockWindow *self)
{
  gtk_widget_init_template (GTK_WIDGET (self));
  /* Their names are in the template: GTK 4.8 would add the mnemonic's
   * label they are labelled by ("Choose Files… Choose Files…"). */
  padlock_accessible_keep_name (GTK_WIDGET (self->choose_button));
  padlock_accessible_keep_name (GTK_WIDGET (self->failures_button));

  self->settings = padlock_settings_new ();
  self->queue = padlock_queue_new ();

  g_settings_bind (self->settings, "window-width", self, "default-width",
                   G_SETTINGS_BIND_DEFAULT);
  g_settings_bind (self->settings, "window-height", self, "default-height",
                   G_SETTINGS_BIND_DEFAULT);
  g_signal_connect_object (self->settings, "changed::concurrency",
                           G_CALLBACK (on_concurrency_changed), self,
                           G_CONNECT_SWAPPED);
  on_concurrency_changed (self);

  padlock_window_init_list (self);
  g_signal_connect_object (self->queue, "items-changed",
                           G_CALLBACK (padlock_window_update_summary), self,
                           G_CONNECT_SWAPPED);
  g_signal_connect_object (self->queue, "notify::busy",
                           G_CALLBACK (on_busy_changed), self, G_CONNECT_SWAPPED);

  padlock_window_init_files (self);
  padlock_window_init_pages (self);
  padlock_window_init_mykey (self);
  padlock_window_update_summary (self);
  gtk_widget_grab_focus (GTK_WIDGET (self->choose_button));
}

PadlockWindow *
padlock_window_new (GtkApplication *application)
{
  return g_object_new (PADLOCK_TYPE_WINDOW, "application", application, NULL);
}

PadlockQueue *
padlock_window_get_queue (PadlockWindow *self)
{
  g_return_val_if_fail (PADLOCK_IS_WINDOW (self), NULL);
  return self->queue;
}
