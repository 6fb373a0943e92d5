/* padlock-speed-window.c - bars for each cipher and mode, measured here */
#include "padlock-speed-window-private.h"

#include <math.h>

#include <glib/gi18n.h>

#include "padlock-format.h"

#define SECONDS_PER_TEST 0.2

G_DEFINE_FINAL_TYPE (PadlockSpeedWindow, padlock_speed_window, ADW_TYPE_WINDOW)

static void start (PadlockSpeedWindow *self);

/* One linear scale for every bar, from 0 to the fastest result (the
 * fastest bar full): a log scale made 1.2 GB/s look like an empty bar.
 * The marks are at a round step, 1, 2 or 5 times a power of ten, three
 * to six of them. */
static double
mark_step (double upper)
{
  double power = pow (10, floor (log10 (upper)));

  for (const double *m = (const double[]) { 0.1, 0.2, 0.5, 1, 2, 5 }; *m <= 5; m++)
    if (upper / (*m * power) <= 6)
      return *m * power;
  return 5 * power;
}

static void
rescale (PadlockSpeedWindow *self)
{
  double fastest = 0;

  for (int i = 0; i < PADLOCK_SPEED_N_TESTS; i++)
    fastest = MAX (fastest, self->rates[i]);
  self->upper = fastest > 0 ? fastest : 1e9;
  for (int i = 0; i < PADLOCK_SPEED_N_TESTS; i++)
    {
      /* GTK 4.8 keeps the old fill when only the maximum changes: the
       * value goes through 0, so that it changes too. */
      gtk_level_bar_set_value (self->bars[i], 0);
      gtk_level_bar_set_max_value (self->bars[i], self->upper);
      gtk_level_bar_set_value (self->bars[i], MAX (self->rates[i], 0));
      gtk_widget_queue_allocate (GTK_WIDGET (self->bars[i]));
    }
  gtk_widget_queue_draw (self->axis);
}

/* The scale's marks under the bars: 0, 500 MB/s, 1.0 GB/s… */
static void
draw_axis (GtkDrawingArea *area,
           cairo_t        *cr,
           int             width,
           int             height,
           gpointer        user_data)
{
  PadlockSpeedWindow *self = user_data;
  double step = mark_step (self->upper);
  GdkRGBA color;
  double free_from = 0;         /* where the last label ended */

  gtk_style_context_get_color (gtk_widget_get_style_context (GTK_WIDGET (area)), &color);
  gdk_cairo_set_source_rgba (cr, &color);
  cairo_set_line_width (cr, 1);
  for (int k = 0; k * step <= self->upper * (1 + 1e-9); k++)
    {
      double x = round ((width - 1) * k * step / self->upper) + 0.5;
      g_autofree char *text = k ? padlock_format_rate (k * step) : g_strdup ("0");
      g_autoptr(PangoLayout) layout = gtk_widget_create_pango_layout (GTK_WIDGET (area), text);
      int text_width, text_height;
      double text_x;

      cairo_move_to (cr, x, 0);
      cairo_line_to (cr, x, 4);
      cairo_stroke (cr);
      pango_layout_get_pixel_size (layout, &text_width, &text_height);
      text_x = CLAMP (x - text_width / 2.0, 0, width - text_width);
      /* A mark whose label would touch the previous one keeps only its tick. */
      if (k > 0 && text_x < free_from + 6)
        continue;
      cairo_move_to (cr, text_x, 6);
      pango_cairo_show_layout (cr, layout);
      free_from = text_x + text_width;
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
      gtk_widget_set_size_request (bar, 220, -1);
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
  self->axis = gtk_drawing_area_new ();
  gtk_drawing_area_set_content_height (GTK_DRAWING_AREA (self->axis), 24);
  gtk_drawing_area_set_draw_func (GTK_DRAWING_AREA (self->axis), draw_axis, self, NULL);
  gtk_widget_add_css_class (self->axis, "dim-label");
  gtk_widget_add_css_class (self->axis, "caption");
  gtk_accessible_update_property (GTK_ACCESSIBLE (self->axis),
                                  GTK_ACCESSIBLE_PROPERTY_LABEL,
                                  _("Linear scale, from 0 to the fastest result"),
                                  -1);
  /* In place from the start, the same while it runs and after: it does
   * not jump in when the run ends. */
  gtk_label_set_text (self->summary_label,
                      _("Measured in memory on one core, about 0.2 s each. Padlock "
                        "uses more cores for large files, and disks are often "
                        "slower than this."));
  gtk_grid_attach (self->grid, self->axis, 1, PADLOCK_SPEED_N_TESTS, 1, 1);
  self->upper = 1e9;
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
