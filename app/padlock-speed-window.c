/* padlock-speed-window.c - bars for each cipher and mode, measured here */
#include "padlock-speed-window-private.h"

#include <math.h>

#include <glib/gi18n.h>

#include "padlock-format.h"

#define SECONDS_PER_TEST 0.2

G_DEFINE_FINAL_TYPE (PadlockSpeedWindow, padlock_speed_window, ADW_TYPE_WINDOW)

static void start (PadlockSpeedWindow *self);

/* One logarithmic scale for every bar, whole decades from below the
 * slowest to above the fastest, at least two of them: rates here span
 * from hundreds of MB/s to tens of GB/s, which a linear scale would show
 * as a few full bars and slivers. */
static void
rescale (PadlockSpeedWindow *self)
{
  double slowest = 0, fastest = 0, decades;

  for (int i = 0; i < PADLOCK_SPEED_N_TESTS; i++)
    if (self->rates[i] > 0)
      {
        slowest = slowest > 0 ? MIN (slowest, self->rates[i]) : self->rates[i];
        fastest = MAX (fastest, self->rates[i]);
      }
  if (fastest > 0)
    {
      self->upper = pow (10, ceil (log10 (fastest) + 1e-9));
      self->lower = pow (10, floor (log10 (slowest)));
      if (self->upper / self->lower < 100)
        self->lower = self->upper / 100;
    }
  decades = log10 (self->upper / self->lower);
  for (int i = 0; i < PADLOCK_SPEED_N_TESTS; i++)
    {
      double rate = self->rates[i];

      gtk_level_bar_set_max_value (self->bars[i], decades);
      gtk_level_bar_set_value (self->bars[i], rate > 0 ? log10 (rate / self->lower) : 0);
      /* GTK 4.8 keeps the old fill when only the maximum changes. */
      gtk_widget_queue_allocate (GTK_WIDGET (self->bars[i]));
    }
  gtk_widget_queue_draw (self->axis);
}

/* The scale's marks under the bars: 100 MB/s, 1 GB/s, 10 GB/s… */
static void
draw_axis (GtkDrawingArea *area,
           cairo_t        *cr,
           int             width,
           int             height,
           gpointer        user_data)
{
  PadlockSpeedWindow *self = user_data;
  double decades = log10 (self->upper / self->lower);
  GdkRGBA color;
  double free_from = 0;         /* where the last label ended */

  gtk_style_context_get_color (gtk_widget_get_style_context (GTK_WIDGET (area)), &color);
  gdk_cairo_set_source_rgba (cr, &color);
  cairo_set_line_width (cr, 1);
  for (int k = 0; k <= (int) round (decades); k++)
    {
      double x = round ((width - 1) * k / decades) + 0.5;
      g_autofree char *text = padlock_format_rate (self->lower * pow (10, k));
      g_autoptr(PangoLayout) layout = gtk_widget_create_pango_layout (GTK_WIDGET (area), text);
      int text_width, text_height;

      cairo_move_to (cr, x, 0);
      cairo_line_to (cr, x, 4);
      cairo_stroke (cr);
      double text_x;

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
  gtk_label_set_text (self->summary_label,
                      _("Measured in memory on one core, about 0.2 s each. Padlock "
                        "uses more cores for large files, and disks are often "
                        "slower than this. Each mark on the scale is ten times "
                        "the one before."));
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
                                  _("Logarithmic scale: each mark is ten times the one before"),
                                  -1);
  gtk_grid_attach (self->grid, self->axis, 1, PADLOCK_SPEED_N_TESTS, 1, 1);
  self->lower = 1e8;
  self->upper = 1e10;
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
