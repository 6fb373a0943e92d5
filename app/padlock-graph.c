/* padlock-graph.c - the queue's throughput over the last 30 seconds
 *
 * One bar a sample, newest on the right, scaled to the peak of what is
 * shown, drawn straight into the snapshot.
 */
#include "padlock-graph.h"

#include <glib/gi18n.h>

struct _PadlockGraph
{
  GtkWidget parent_instance;

  double samples[PADLOCK_GRAPH_N_SAMPLES];
  guint next;                   /* where the next sample goes */
  guint count;
};

G_DEFINE_FINAL_TYPE (PadlockGraph, padlock_graph, GTK_TYPE_WIDGET)

static void
padlock_graph_snapshot (GtkWidget   *widget,
                        GtkSnapshot *snapshot)
{
  PadlockGraph *self = PADLOCK_GRAPH (widget);
  int width = gtk_widget_get_width (widget);
  int height = gtk_widget_get_height (widget);
  double peak = padlock_graph_get_peak (self);
  float bar = (float) width / PADLOCK_GRAPH_N_SAMPLES;
  GdkRGBA color, line;

  gtk_style_context_get_color (gtk_widget_get_style_context (widget), &color);
  line = color;
  line.alpha *= 0.15f;
  /* The baseline, so that an idle graph still reads as a graph. */
  gtk_snapshot_append_color (snapshot, &line,
                             &GRAPHENE_RECT_INIT (0, height - 1, width, 1));
  if (peak <= 0)
    return;

  color.alpha *= 0.8f;
  for (guint i = 0; i < self->count; i++)
    {
      /* Oldest first; the newest sits at the right edge. */
      guint slot = (self->next + PADLOCK_GRAPH_N_SAMPLES - self->count + i)
                   % PADLOCK_GRAPH_N_SAMPLES;
      float x = width - (self->count - i) * bar;
      float h = (float) (self->samples[slot] / peak) * (height - 2);

      if (h < 0.5f)
        continue;
      gtk_snapshot_append_color (snapshot, &color,
                                 &GRAPHENE_RECT_INIT (x, height - 1 - h,
                                                   MAX (bar - 1, 1), h));
    }
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
      *minimum = PADLOCK_GRAPH_N_SAMPLES;
      *natural = PADLOCK_GRAPH_N_SAMPLES * 3;
    }
  else
    {
      *minimum = 32;
      *natural = 56;
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
  gtk_widget_queue_draw (GTK_WIDGET (self));
}

void
padlock_graph_clear (PadlockGraph *self)
{
  g_return_if_fail (PADLOCK_IS_GRAPH (self));

  self->count = 0;
  self->next = 0;
  gtk_widget_queue_draw (GTK_WIDGET (self));
}

double
padlock_graph_get_peak (PadlockGraph *self)
{
  double peak = 0;

  g_return_val_if_fail (PADLOCK_IS_GRAPH (self), 0);
  for (guint i = 0; i < self->count; i++)
    peak = MAX (peak, self->samples[i]);
  return peak;
}
