/* padlock-rate.c - a rate in bytes a second, measured one way */
#include "padlock-rate.h"

#define AT(self, i) (((self)->first + (i)) % PADLOCK_RATE_N_SAMPLES)

void
padlock_rate_reset (PadlockRate *self)
{
  self->first = 0;
  self->n = 0;
  self->rate = 0;
}

gboolean
padlock_rate_push (PadlockRate *self,
                   gint64       now,
                   guint64      bytes,
                   double      *rate)
{
  guint oldest;

  if (self->n && self->bytes[AT (self, self->n - 1)] > bytes)
    padlock_rate_reset (self);
  /* Out of the window, or no room: the oldest go, but one older than
   * the window stays as long as it is the only one that spans it. */
  while (self->n > 1 && now - self->time[AT (self, 1)] >= PADLOCK_RATE_WINDOW_US)
    {
      self->first = AT (self, 1);
      self->n--;
    }
  if (self->n == PADLOCK_RATE_N_SAMPLES)
    {
      self->first = AT (self, 1);
      self->n--;
    }
  self->time[AT (self, self->n)] = now;
  self->bytes[AT (self, self->n)] = bytes;
  self->n++;

  oldest = AT (self, 0);
  if (now - self->time[oldest] < PADLOCK_RATE_MIN_SPAN_US)
    return FALSE;
  self->rate = padlock_rate_average (bytes - self->bytes[oldest], now - self->time[oldest]);
  if (rate)
    *rate = self->rate;
  return TRUE;
}

double
padlock_rate_get (const PadlockRate *self)
{
  return self->rate;
}

gint64
padlock_rate_last_time (const PadlockRate *self)
{
  return self->n ? self->time[AT (self, self->n - 1)] : 0;
}

double
padlock_rate_average (guint64 bytes,
                      gint64  us)
{
  return us > 0 ? bytes * (double) G_USEC_PER_SEC / us : 0;
}
