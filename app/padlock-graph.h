/* padlock-graph.h - the queue's throughput over the last 30 seconds */
#pragma once

#include <gtk/gtk.h>

G_BEGIN_DECLS

/* Four samples a second, thirty seconds. */
#define PADLOCK_GRAPH_N_SAMPLES 120
#define PADLOCK_GRAPH_INTERVAL_MS 250

#define PADLOCK_TYPE_GRAPH (padlock_graph_get_type ())
G_DECLARE_FINAL_TYPE (PadlockGraph, padlock_graph, PADLOCK, GRAPH, GtkWidget)

GtkWidget *padlock_graph_new   (void);
/* Appends a sample (bytes a second), dropping the oldest. */
void       padlock_graph_push  (PadlockGraph *self,
                                double        value);
void       padlock_graph_clear (PadlockGraph *self);
guint      padlock_graph_get_n_samples (PadlockGraph *self);
/* The highest sample shown (bytes a second), 0 when empty. */
double     padlock_graph_get_peak (PadlockGraph *self);
/* "peak 1.2 GB/s", as drawn at the top; NULL when there is no peak. */
char      *padlock_graph_get_peak_text (PadlockGraph *self);

G_END_DECLS
