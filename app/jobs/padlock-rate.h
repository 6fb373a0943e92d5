/* padlock-rate.h - a rate in bytes a second, measured one way for a job's
 * row, the header and the graph
 *
 * The caller pushes a running count of bytes with the monotonic time it
 * read it at (g_get_monotonic_time); the rate is the count's rise over
 * the samples of the last PADLOCK_RATE_WINDOW_US, once those span at
 * least PADLOCK_RATE_MIN_SPAN_US (until then it is not measured).  A
 * count that goes back (a job tried again starts from 0) starts over.
 * Not thread-safe: one owner, on one thread. */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

#define PADLOCK_RATE_WINDOW_US (2 * G_USEC_PER_SEC)
#define PADLOCK_RATE_MIN_SPAN_US (G_USEC_PER_SEC / 4)
#define PADLOCK_RATE_N_SAMPLES 64   /* more in the window drop the oldest */

typedef struct
{
  gint64 time[PADLOCK_RATE_N_SAMPLES];
  guint64 bytes[PADLOCK_RATE_N_SAMPLES];
  guint first;                  /* the oldest sample */
  guint n;
  double rate;                  /* the last measured, 0 before */
} PadlockRate;

void     padlock_rate_reset    (PadlockRate *self);
/* Adds a sample; TRUE when it measured the rate anew (*RATE, may be
 * NULL), FALSE while the samples span less than the minimum. */
gboolean padlock_rate_push     (PadlockRate *self,
                                gint64       now,
                                guint64      bytes,
                                double      *rate);
/* The last measured rate; 0 before the first. */
double   padlock_rate_get      (const PadlockRate *self);
/* The newest sample's time, or 0 when there is none. */
gint64   padlock_rate_last_time (const PadlockRate *self);
/* BYTES over US microseconds, in bytes a second (0 for no time): a
 * finished job's average, on the same clock. */
double   padlock_rate_average  (guint64      bytes,
                                gint64       us);

G_END_DECLS
