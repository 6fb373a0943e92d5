/* padlock-format.c - numbers in the words a row shows */
#include "padlock-format.h"

#include <math.h>
#include <glib/gi18n.h>

/* Each unit is chosen by the number as it will be shown, rounded: a rate
 * of 999,999 B/s is "1.0 MB/s", never "1000 kB/s". */
char *
padlock_format_rate (double rate)
{
  rate = MAX (rate, 0);
  if (round (rate) < 1e3)
    return g_strdup_printf (_("%.0f B/s"), rate);
  if (round (rate / 1e3) < 1e3)
    return g_strdup_printf (_("%.0f kB/s"), rate / 1e3);
  if (round (rate / 1e5) < 1e3)
    return g_strdup_printf (_("%.1f MB/s"), rate / 1e6);
  if (round (rate / 1e6) < 1e3)
    return g_strdup_printf (_("%.0f MB/s"), rate / 1e6);
  return g_strdup_printf (_("%.1f GB/s"), rate / 1e9);
}

/* Seconds rounded up (never "0 s" early), minutes to the nearest one, and
 * from 59 min 30 s on, hours and minutes: never "60 min left". */
char *
padlock_format_time_left (double seconds)
{
  guint s, m;

  if (seconds < 0 || !isfinite (seconds))
    return NULL;
  s = (guint) ceil (seconds);
  if (s < 60)
    return g_strdup_printf (_("%u s left"), s);
  m = (s + 30) / 60;
  if (m < 60)
    return g_strdup_printf (_("%u min left"), m);
  return g_strdup_printf (_("%u h %u min left"), m / 60, m % 60);
}
