/* padlock-format.c - numbers in the words a row shows */
#include "padlock-format.h"

#include <math.h>
#include <glib/gi18n.h>

char *
padlock_format_rate (double rate)
{
  if (rate >= 1e9)
    return g_strdup_printf (_("%.1f GB/s"), rate / 1e9);
  if (rate >= 100e6)
    return g_strdup_printf (_("%.0f MB/s"), rate / 1e6);
  if (rate >= 1e6)
    return g_strdup_printf (_("%.1f MB/s"), rate / 1e6);
  if (rate >= 1e3)
    return g_strdup_printf (_("%.0f kB/s"), rate / 1e3);
  return g_strdup_printf (_("%.0f B/s"), MAX (rate, 0));
}

char *
padlock_format_time_left (double seconds)
{
  guint s;

  if (seconds < 0 || !isfinite (seconds))
    return NULL;
  s = (guint) ceil (seconds);
  if (s < 60)
    return g_strdup_printf (_("%u s left"), s);
  if (s < 3600)
    return g_strdup_printf (_("%u min left"), (s + 30) / 60);
  return g_strdup_printf (_("%u h %u min left"), s / 3600, (s % 3600) / 60);
}
