/* test-padlock-format.c - numbers in the words a row shows
 * (app/padlock-format.h): rates in B/s to GB/s with the precision each
 * range keeps, and the time left rounded up, in s, min, then h and min;
 * no time for what cannot be one */
#include <math.h>
#include "app-testutil.h"
#include "padlock-format.h"

static void
test_rate (void)
{
  static const struct { double rate; const char *words; } cases[] = {
    { -5, "0 B/s" },                    /* never a negative rate */
    { 0, "0 B/s" },
    { 999, "999 B/s" },
    { 999.6, "1 kB/s" },                /* the unit of the rounded number */
    { 1000, "1 kB/s" },
    { 12345, "12 kB/s" },
    { 999999, "1.0 MB/s" },             /* was "1000 kB/s" */
    { 1e6, "1.0 MB/s" },
    { 1.56e6, "1.6 MB/s" },
    { 99.9e6, "99.9 MB/s" },
    { 99.96e6, "100 MB/s" },            /* was "100.0 MB/s" */
    { 100e6, "100 MB/s" },
    { 412.4e6, "412 MB/s" },
    { 999.6e6, "1.0 GB/s" },            /* was "1000 MB/s" */
    { 1e9, "1.0 GB/s" },
    { 2.46e9, "2.5 GB/s" },
  };

  for (gsize i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_autofree char *words = padlock_format_rate (cases[i].rate);

      g_assert_cmpstr (words, ==, cases[i].words);
    }
}

static void
test_time_left (void)
{
  static const struct { double seconds; const char *words; } cases[] = {
    { 0, "0 s left" },
    { 0.2, "1 s left" },                /* rounded up: never "0 s" early */
    { 59, "59 s left" },
    { 59.5, "1 min left" },
    { 89, "1 min left" },
    { 90, "2 min left" },
    { 3569, "59 min left" },
    { 3570, "1 h 0 min left" },         /* 3599 s was "60 min left" */
    { 3599, "1 h 0 min left" },
    { 3630, "1 h 1 min left" },
    { 3900, "1 h 5 min left" },
    { 7200, "2 h 0 min left" },
  };

  for (gsize i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_autofree char *words = padlock_format_time_left (cases[i].seconds);

      g_assert_cmpstr (words, ==, cases[i].words);
    }
  g_assert_null (padlock_format_time_left (-1));
  g_assert_null (padlock_format_time_left (NAN));
  g_assert_null (padlock_format_time_left (INFINITY));
}

int
main (int argc, char **argv)
{
  tu_init (&argc, &argv);
  g_test_add_func ("/format/rate", test_rate);
  g_test_add_func ("/format/time-left", test_time_left);
  return g_test_run ();
}
