/* padlock-graph.h - the queue's throughput over the last 30 seconds */
#pragma once

#include <gtk/gtk.h>

G_BEGIN_DECLS

/* Ten samples a second, thirty seconds: a job shorter than a second
 * shows at its real rate (the samples are drawn smoothed). */
#define PADLOCK_GRAPH_N_SAMPLES 300
#define PADLOCK_GRAPH_INTERVAL_MS 100

#define PADLOCK_TYPE_GRAPH (padlock_graph_get_type ())
G_DECLARE_FINAL_TYPE (PadlockGraph, padlock_graph, PADLOCK, GRAPH, GtkWidget)

GtkWidget *padlock_graph_new   (void);
/* Appends a sample (bytes a second), dropping the oldest. */
void       padlock_graph_push  (PadlockGraph *self,
                                double        value);
void       padlock_graph_clear (PadlockGraph *self);
guint      padlock_graph_get_n_samples (PadlockGraph *self);
/* The peak the label names (bytes a second): the highest rate a row
 * showed (padlock_queue_get_peak_job_rate), not a sample's, which is of
 * every job together.  0: the highest sample.  Also its accessible
 * description. */
void       padlock_graph_set_peak (PadlockGraph *self,
                                   double        peak);
/* The peak labelled, 0 when there is none. */
double     padlock_graph_get_peak (PadlockGraph *self);
/* "peak 1.2 GB/s", as drawn at the top; NULL when there is no peak. */
char      *padlock_graph_get_peak_text (PadlockGraph *self);

G_END_DECLS
