/* padlock-window.c - the main window: drop files, watch them go */
#include "padlock-window-private.h"

#include <glib/gi18n.h>

#include "padlock-format.h"
#include "padlock-job-row.h"
#include "padlock-settings.h"

G_DEFINE_FINAL_TYPE (PadlockWindow, padlock_window, ADW_TYPE_APPLICATION_WINDOW)

/* The graph keeps moving this long after the queue went idle. */
#define IDLE_TICKS (30 * 1000 / PADLOCK_GRAPH_INTERVAL_MS)

static GtkWidget *
create_row (gpointer item,
            gpointer user_data)
{
  return padlock_job_row_new (PADLOCK_JOB (item));
}

static void
update_summary (PadlockWindow *self)
{
  guint n = g_list_model_get_n_items (G_LIST_MODEL (self->queue));
  guint finished = padlock_queue_get_n_finished (self->queue);
  g_autofree char *files = NULL;

  gtk_stack_set_visible_child_name (self->stack, n ? "jobs" : "empty");
  files = g_strdup_printf (g_dngettext (NULL, "%u of %u file", "%u of %u files", n),
                           finished, n);
  gtk_label_set_text (self->files_label, files);
  if (!padlock_queue_get_busy (self->queue))
    gtk_label_set_text (self->throughput_label, n ? _("Done") : "");
}

static gboolean
on_graph_tick (gpointer user_data)
{
  PadlockWindow *self = user_data;
  double rate = padlock_queue_get_throughput (self->queue);
  gboolean busy = padlock_queue_get_busy (self->queue);

  padlock_graph_push (self->graph, rate);
  if (busy)
    {
      g_autofree char *text = padlock_format_rate (rate);
      gtk_label_set_text (self->throughput_label, text);
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
  GListModel *model = G_LIST_MODEL (self->queue);
  GApplication *app = G_APPLICATION (gtk_window_get_application (GTK_WINDOW (self)));
  g_autoptr(GNotification) notification = NULL;
  g_autofree char *body = NULL;
  guint done = 0, failed = 0;

  if (!app || gtk_window_is_active (GTK_WINDOW (self)))
    return;
  for (guint i = 0; i < g_list_model_get_n_items (model); i++)
    {
      g_autoptr(PadlockJob) job = g_list_model_get_item (model, i);

      if (padlock_job_get_state (job) == PADLOCK_JOB_DONE)
        done++;
      else if (padlock_job_get_state (job) == PADLOCK_JOB_FAILED)
        failed++;
    }
  if (failed)
    /* Translators: the first %u counts the files done, the second (which
     * chooses the plural) those that failed. */
    body = g_strdup_printf (g_dngettext (NULL, "%u done, %u failed", "%u done, %u failed",
                                         failed),
                            done, failed);
  else
    body = g_strdup_printf (g_dngettext (NULL, "%u file done", "%u files done", done),
                            done);
  notification = g_notification_new (failed ? _("Some files failed")
                                            : _("Files are ready"));
  g_notification_set_body (notification, body);
  g_application_send_notification (app, "batch-finished", notification);
}

static void
on_busy_changed (PadlockWindow *self)
{
  if (padlock_queue_get_busy (self->queue))
    {
      self->idle_ticks = 0;
      if (!self->graph_id)
        self->graph_id = g_timeout_add (PADLOCK_GRAPH_INTERVAL_MS, on_graph_tick, self);
    }
  else
    notify_finished (self);
  update_summary (self);
}

static void
on_concurrency_changed (PadlockWindow *self)
{
  padlock_queue_set_max_running (self->queue,
      (guint) MAX (0, g_settings_get_int (self->settings, "concurrency")));
}

void
padlock_window_chooser_response (GtkNativeDialog *chooser,
                                 int              response,
                                 PadlockWindow   *self)
{
  if (response == GTK_RESPONSE_ACCEPT)
    {
      g_autoptr(GListModel) files =
        gtk_file_chooser_get_files (GTK_FILE_CHOOSER (chooser));
      g_autoptr(GPtrArray) array = g_ptr_array_new_with_free_func (g_object_unref);

      for (guint i = 0; i < g_list_model_get_n_items (files); i++)
        g_ptr_array_add (array, g_list_model_get_item (files, i));
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
    case PADLOCK_OPEN_AUTO:
    default:
      title = _("Choose Files to Encrypt or Decrypt");
      break;
    }
  self->chooser_mode = mode;
  self->chooser = gtk_file_chooser_native_new (title,
                                               GTK_WINDOW (self),
                                               GTK_FILE_CHOOSER_ACTION_OPEN,
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
  padlock_queue_clear_finished (PADLOCK_WINDOW (widget)->queue);
}

static void
cancel_all_action (GtkWidget  *widget,
                   const char *action_name,
                   GVariant   *parameter)
{
  padlock_queue_cancel_all (PADLOCK_WINDOW (widget)->queue);
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
  if (self->chooser)
    gtk_native_dialog_destroy (GTK_NATIVE_DIALOG (self->chooser));
  g_clear_object (&self->chooser);
  gtk_widget_dispose_template (GTK_WIDGET (self), PADLOCK_TYPE_WINDOW);
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

  gtk_widget_class_install_action (widget_class, "win.open", NULL, open_action);
  gtk_widget_class_install_action (widget_class, "win.clear-finished", NULL,
                                   clear_finished_action);
  gtk_widget_class_install_action (widget_class, "win.cancel-all", NULL,
                                   cancel_all_action);
  gtk_widget_class_install_action (widget_class, "win.retry", NULL, retry_action);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_o, GDK_CONTROL_MASK,
                                       "win.open", NULL);
  padlock_window_folders_class_init (widget_class);
}

static void
padlock_window_init (PadlockWindow *self)
{
  gtk_widget_init_template (GTK_WIDGET (self));

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

  gtk_list_box_bind_model (self->job_list, G_LIST_MODEL (self->queue),
                           create_row, NULL, NULL);
  g_signal_connect_object (self->queue, "items-changed",
                           G_CALLBACK (update_summary), self, G_CONNECT_SWAPPED);
  g_signal_connect_object (self->queue, "notify::n-finished",
                           G_CALLBACK (update_summary), self, G_CONNECT_SWAPPED);
  g_signal_connect_object (self->queue, "notify::busy",
                           G_CALLBACK (on_busy_changed), self, G_CONNECT_SWAPPED);

  padlock_window_init_files (self);
  update_summary (self);
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
