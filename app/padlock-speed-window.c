/* padlock-speed-window.c - bars for each cipher and mode, measured here */
#include "padlock-speed-window.h"

#include <glib/gi18n.h>

#include "padlock-format.h"
#include "padlock-speed.h"

#define SECONDS_PER_TEST 0.2

struct _PadlockSpeedWindow
{
  AdwWindow parent_instance;

  /* Template widgets */
  GtkButton *run_button;
  GtkLabel *summary_label;
  GtkGrid *grid;

  /* Owned */
  GCancellable *cancellable;

  /* Borrowed: children of the grid */
  GtkLevelBar *bars[PADLOCK_SPEED_N_TESTS];
  GtkLabel *values[PADLOCK_SPEED_N_TESTS];

  double rates[PADLOCK_SPEED_N_TESTS];
  gboolean running;
};

G_DEFINE_FINAL_TYPE (PadlockSpeedWindow, padlock_speed_window, ADW_TYPE_WINDOW)

static void start (PadlockSpeedWindow *self);

static void
rescale (PadlockSpeedWindow *self)
{
  double peak = 0;

  for (int i = 0; i < PADLOCK_SPEED_N_TESTS; i++)
    peak = MAX (peak, self->rates[i]);
  for (int i = 0; i < PADLOCK_SPEED_N_TESTS; i++)
    {
      gtk_level_bar_set_max_value (self->bars[i], peak > 0 ? peak : 1);
      gtk_level_bar_set_value (self->bars[i], self->rates[i]);
    }
}

static void
on_result (PadlockSpeedTest test,
           double           rate,
           gpointer         user_data)
{
  PadlockSpeedWindow *self = user_data;
  g_autofree char *text = NULL;
  g_autofree char *description = NULL;

  if (!self->cancellable)
    return;                     /* the window closed meanwhile */
  self->rates[test] = rate;
  text = rate > 0 ? padlock_format_rate (rate) : g_strdup (_("not available"));
  gtk_label_set_text (self->values[test], text);
  description = g_strdup_printf ("%s: %s", padlock_speed_test_name (test), text);
  gtk_accessible_update_property (GTK_ACCESSIBLE (self->bars[test]),
                                  GTK_ACCESSIBLE_PROPERTY_LABEL, description, -1);
  rescale (self);
}

static void
on_finished (GObject      *object,
             GAsyncResult *result,
             gpointer      user_data)
{
  g_autoptr(PadlockSpeedWindow) self = user_data;

  padlock_speed_run_finish (result, NULL);
  self->running = FALSE;
  if (!self->cancellable)
    return;
  gtk_widget_set_sensitive (GTK_WIDGET (self->run_button), TRUE);
  gtk_label_set_text (self->summary_label,
                      _("Measured in memory on one core, about 0.2 s each. Padlock "
                        "uses more cores for large files, and disks are often "
                        "slower than this."));
}

static void
start (PadlockSpeedWindow *self)
{
  if (self->running)
    return;
  self->running = TRUE;
  for (int i = 0; i < PADLOCK_SPEED_N_TESTS; i++)
    {
      self->rates[i] = 0;
      gtk_label_set_text (self->values[i], "…");
    }
  rescale (self);
  gtk_widget_set_sensitive (GTK_WIDGET (self->run_button), FALSE);
  gtk_label_set_text (self->summary_label, _("Measuring…"));
  padlock_speed_run_async (SECONDS_PER_TEST, on_result, self, self->cancellable,
                           on_finished, g_object_ref (self));
}

static void
on_run_clicked (PadlockSpeedWindow *self)
{
  start (self);
}

static void
padlock_speed_window_dispose (GObject *object)
{
  PadlockSpeedWindow *self = (PadlockSpeedWindow *) object;

  if (self->cancellable)
    g_cancellable_cancel (self->cancellable);
  g_clear_object (&self->cancellable);
  gtk_widget_dispose_template (GTK_WIDGET (self), PADLOCK_TYPE_SPEED_WINDOW);

  G_OBJECT_CLASS (padlock_speed_window_parent_class)->dispose (object);
}

static void
padlock_speed_window_class_init (PadlockSpeedWindowClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->dispose = padlock_speed_window_dispose;

  gtk_widget_class_set_template_from_resource (widget_class,
      "/io/github/padlock/Padlock/padlock-speed-window.ui");
  gtk_widget_class_bind_template_child (widget_class, PadlockSpeedWindow, run_button);
  gtk_widget_class_bind_template_child (widget_class, PadlockSpeedWindow, summary_label);
  gtk_widget_class_bind_template_child (widget_class, PadlockSpeedWindow, grid);
  gtk_widget_class_bind_template_callback (widget_class, on_run_clicked);

  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_Escape, 0,
                                       "window.close", NULL);
}

static void
padlock_speed_window_init (PadlockSpeedWindow *self)
{
  gtk_widget_init_template (GTK_WIDGET (self));
  self->cancellable = g_cancellable_new ();

  for (int i = 0; i < PADLOCK_SPEED_N_TESTS; i++)
    {
      GtkWidget *name = gtk_label_new (padlock_speed_test_name (i));
      GtkWidget *bar = gtk_level_bar_new ();
      GtkWidget *value = gtk_label_new ("…");

      gtk_label_set_xalign (GTK_LABEL (name), 0);
      gtk_widget_set_hexpand (bar, TRUE);
      gtk_widget_set_valign (bar, GTK_ALIGN_CENTER);
      gtk_widget_set_size_request (bar, 160, -1);
      gtk_widget_add_css_class (bar, "speed-bar");
      /* One colour: these are measurements, not good and bad levels. */
      gtk_level_bar_remove_offset_value (GTK_LEVEL_BAR (bar), GTK_LEVEL_BAR_OFFSET_LOW);
      gtk_level_bar_remove_offset_value (GTK_LEVEL_BAR (bar), GTK_LEVEL_BAR_OFFSET_HIGH);
      gtk_level_bar_remove_offset_value (GTK_LEVEL_BAR (bar), GTK_LEVEL_BAR_OFFSET_FULL);
      gtk_label_set_xalign (GTK_LABEL (value), 1);
      gtk_label_set_width_chars (GTK_LABEL (value), 10);
      gtk_widget_add_css_class (value, "numeric");
      gtk_accessible_update_property (GTK_ACCESSIBLE (bar),
                                      GTK_ACCESSIBLE_PROPERTY_LABEL,
                                      padlock_speed_test_name (i), -1);
      gtk_grid_attach (self->grid, name, 0, i, 1, 1);
      gtk_grid_attach (self->grid, bar, 1, i, 1, 1);
      gtk_grid_attach (self->grid, value, 2, i, 1, 1);
      self->bars[i] = GTK_LEVEL_BAR (bar);
      self->values[i] = GTK_LABEL (value);
    }
  start (self);
}

GtkWindow *
padlock_speed_window_new (GtkWindow *parent)
{
  return g_object_new (PADLOCK_TYPE_SPEED_WINDOW, "transient-for", parent, NULL);
}

gboolean
padlock_speed_window_is_running (PadlockSpeedWindow *self)
{
  g_return_val_if_fail (PADLOCK_IS_SPEED_WINDOW (self), FALSE);
  return self->running;
}
