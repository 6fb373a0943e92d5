/* padlock-graph.c - the queue's throughput over the last 30 seconds
 *
 * A smooth line through the samples, filled below, newest on the right,
 * scaled so that its peak reaches the top of the plot, and labelled with
 * that peak.  The plot keeps clear of the rounded corners and of the label.
 */
#include "padlock-graph.h"

#include <glib/gi18n.h>

#include "padlock-format.h"

/* Room kept free inside the widget's rounded corners (style.css: 8 px). */
#define INSET 8.0

struct _PadlockGraph
{
  GtkWidget parent_instance;

  double samples[PADLOCK_GRAPH_N_SAMPLES];
  guint next;                   /* where the next sample goes */
  guint count;
  double peak;                  /* the label's; 0: the highest sample */
};

G_DEFINE_FINAL_TYPE (PadlockGraph, padlock_graph, GTK_TYPE_WIDGET)

static void padlock_graph_sync_description (PadlockGraph *self);

static double
sample_at (PadlockGraph *self,
           guint         i)             /* 0: the oldest shown */
{
  return self->samples[(self->next + PADLOCK_GRAPH_N_SAMPLES - self->count + i)
                       % PADLOCK_GRAPH_N_SAMPLES];
}

/* A sample drawn: with half of each neighbour's weight ([1 2 1] / 4),
 * so that 100 ms bins do not draw as noise. */
static double
drawn_at (PadlockGraph *self,
          guint         i)
{
  double before = sample_at (self, i > 0 ? i - 1 : i);
  double after = sample_at (self, i + 1 < self->count ? i + 1 : i);

  return (before + 2 * sample_at (self, i) + after) / 4;
}

static double
highest_sample (PadlockGraph *self)
{
  double highest = 0;

  for (guint i = 0; i < self->count; i++)
    highest = MAX (highest, sample_at (self, i));
  return highest;
}

/* Through the midpoints between samples, with each sample as the control
 * point: the curve stays within the samples' range, so it never dips
 * below zero or rises over the peak (as a spline through them would). */
static void
trace_line (PadlockGraph *self,
            cairo_t      *cr,
            double        left,
            double        step,
            double        bottom,
            double        scale)
{
  double x0 = left, y0 = bottom - drawn_at (self, 0) * scale;
  double x1 = left + step, y1 = bottom - drawn_at (self, 1) * scale;
  double qx = (x0 + x1) / 2, qy = (y0 + y1) / 2;      /* where the curve is */

  cairo_move_to (cr, x0, y0);
  cairo_line_to (cr, qx, qy);
  for (guint i = 1; i + 1 < self->count; i++)
    {
      double px = left + i * step, py = bottom - drawn_at (self, i) * scale;
      double nx = px + step, ny = bottom - drawn_at (self, i + 1) * scale;
      double mx = (px + nx) / 2, my = (py + ny) / 2;

      /* The quadratic (q, p, m), written as a cubic. */
      cairo_curve_to (cr, qx + 2.0 / 3 * (px - qx), qy + 2.0 / 3 * (py - qy),
                      mx + 2.0 / 3 * (px - mx), my + 2.0 / 3 * (py - my), mx, my);
      qx = mx;
      qy = my;
    }
  cairo_line_to (cr, left + (self->count - 1) * step,
                 bottom - drawn_at (self, self->count - 1) * scale);
}

static void
padlock_graph_snapshot (GtkWidget   *widget,
                        GtkSnapshot *snapshot)
{
  PadlockGraph *self = PADLOCK_GRAPH (widget);
  int width = gtk_widget_get_width (widget);
  int height = gtk_widget_get_height (widget);
  double peak = padlock_graph_get_peak (self);
  g_autofree char *label = NULL;
  g_autoptr(PangoLayout) layout = NULL;
  cairo_t *cr;
  GdkRGBA color, fill, line;
  int label_height = 0;
  double left, right, top, bottom, step, scale;

  gtk_style_context_get_color (gtk_widget_get_style_context (widget), &color);
  line = color;
  line.alpha *= 0.15f;
  /* The baseline, so that an idle graph still reads as a graph. */
  gtk_snapshot_append_color (snapshot, &line,
                             &GRAPHENE_RECT_INIT (INSET, height - INSET, width - 2 * INSET, 1));
  if (peak <= 0 || self->count < 2)
    return;

  label = padlock_graph_get_peak_text (self);
  layout = gtk_widget_create_pango_layout (widget, label);
  pango_layout_get_pixel_size (layout, NULL, &label_height);
  gtk_snapshot_save (snapshot);
  gtk_snapshot_translate (snapshot, &GRAPHENE_POINT_INIT (INSET, INSET / 2));
  gtk_snapshot_append_layout (snapshot, layout, &color);
  gtk_snapshot_restore (snapshot);

  /* The samples fill the last 30 s from the right, one step each. */
  left = INSET;
  right = width - INSET;
  top = INSET / 2 + label_height + 2;
  bottom = height - INSET;
  if (bottom - top < 4)
    return;
  step = (right - left) / (PADLOCK_GRAPH_N_SAMPLES - 1);
  /* The drawn line is of every job together: it may rise over a row's
   * peak, and stays in the plot. */
  scale = (bottom - top) / MAX (peak, highest_sample (self));
  left = right - (self->count - 1) * step;

  cr = gtk_snapshot_append_cairo (snapshot, &GRAPHENE_RECT_INIT (0, 0, width, height));
  trace_line (self, cr, left, step, bottom, scale);
  cairo_set_line_width (cr, 2);
  cairo_set_line_join (cr, CAIRO_LINE_JOIN_ROUND);
  gdk_cairo_set_source_rgba (cr, &color);
  cairo_stroke_preserve (cr);
  cairo_line_to (cr, right, bottom);
  cairo_line_to (cr, left, bottom);
  cairo_close_path (cr);
  fill = color;
  fill.alpha *= 0.25f;
  gdk_cairo_set_source_rgba (cr, &fill);
  cairo_fill (cr);
  cairo_destroy (cr);
}

static void
padlock_graph_measure (GtkWidget      *widget,
                       GtkOrientation  orientation,
                       int             for_size,
                       int            *minimum,
                       int            *natural,
                       int            *minimum_baseline,
                       int            *natural_baseline)
{
  if (orientation == GTK_ORIENTATION_HORIZONTAL)
    {
      *minimum = 96;
      *natural = PADLOCK_GRAPH_N_SAMPLES * 3;
    }
  else
    {
      *minimum = 48;
      *natural = 64;
    }
}

static void
padlock_graph_class_init (PadlockGraphClass *klass)
{
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  widget_class->snapshot = padlock_graph_snapshot;
  widget_class->measure = padlock_graph_measure;
  gtk_widget_class_set_css_name (widget_class, "graph");
  gtk_widget_class_set_accessible_role (widget_class, GTK_ACCESSIBLE_ROLE_IMG);
}

static void
padlock_graph_init (PadlockGraph *self)
{
  gtk_accessible_update_property (GTK_ACCESSIBLE (self),
                                  GTK_ACCESSIBLE_PROPERTY_LABEL,
                                  _("Throughput over the last 30 seconds"),
                                  -1);
}

GtkWidget *
padlock_graph_new (void)
{
  return g_object_new (PADLOCK_TYPE_GRAPH, NULL);
}

void
padlock_graph_push (PadlockGraph *self,
                    double        value)
{
  g_return_if_fail (PADLOCK_IS_GRAPH (self));

  self->samples[self->next] = MAX (value, 0);
  self->next = (self->next + 1) % PADLOCK_GRAPH_N_SAMPLES;
  if (self->count < PADLOCK_GRAPH_N_SAMPLES)
    self->count++;
  if (self->peak <= 0)
    padlock_graph_sync_description (self);
  gtk_widget_queue_draw (GTK_WIDGET (self));
}

void
padlock_graph_clear (PadlockGraph *self)
{
  g_return_if_fail (PADLOCK_IS_GRAPH (self));

  self->count = 0;
  self->next = 0;
  self->peak = 0;
  padlock_graph_sync_description (self);
  gtk_widget_queue_draw (GTK_WIDGET (self));
}

guint
padlock_graph_get_n_samples (PadlockGraph *self)
{
  g_return_val_if_fail (PADLOCK_IS_GRAPH (self), 0);
  return self->count;
}

static void
padlock_graph_sync_description (PadlockGraph *self)
{
  g_autofree char *text = padlock_graph_get_peak_text (self);

  if (text)
    gtk_accessible_update_property (GTK_ACCESSIBLE (self),
                                    GTK_ACCESSIBLE_PROPERTY_DESCRIPTION, text, -1);
  else
    gtk_accessible_reset_property (GTK_ACCESSIBLE (self),
                                   GTK_ACCESSIBLE_PROPERTY_DESCRIPTION);
}

void
padlock_graph_set_peak (PadlockGraph *self,
                        double        peak)
{
  g_return_if_fail (PADLOCK_IS_GRAPH (self));
  if (self->peak == peak)
    return;
  self->peak = MAX (peak, 0);
  padlock_graph_sync_description (self);
  gtk_widget_queue_draw (GTK_WIDGET (self));
}

double
padlock_graph_get_peak (PadlockGraph *self)
{
  g_return_val_if_fail (PADLOCK_IS_GRAPH (self), 0);
  if (self->peak > 0)
    return self->peak;
  return highest_sample (self);
}

char *
padlock_graph_get_peak_text (PadlockGraph *self)
{
  g_autofree char *rate = NULL;

  g_return_val_if_fail (PADLOCK_IS_GRAPH (self), NULL);
  if (padlock_graph_get_peak (self) <= 0)
    return NULL;
  rate = padlock_format_rate (padlock_graph_get_peak (self));
  /* Translators: the top of the throughput graph, "peak 1.2 GB/s". */
  return g_strdup_printf (_("peak %s"), rate);
}
