/* test-padlock-rate.c - a job's and the queue's rate (app/padlock-rate.h)
 * from known progress at known times */
#include <math.h>

#include "app-testutil.h"
#include "padlock-rate.h"

/* Known progress, known rates: nothing before a quarter second of
 * samples, then the rise over the last two seconds; a count that goes
 * back starts over. */
static void
test_rate_known (void)
{
  PadlockRate rate;
  double r = -1;
  const gint64 ms = 1000;

  padlock_rate_reset (&rate);
  g_assert_cmpfloat (padlock_rate_get (&rate), ==, 0);
  g_assert_false (padlock_rate_push (&rate, 1000 * ms, 0, &r));
  g_assert_false (padlock_rate_push (&rate, 1100 * ms, 1000000, &r));
  g_assert_cmpfloat (r, ==, -1);
  g_assert_true (padlock_rate_push (&rate, 1250 * ms, 2500000, &r));
  g_assert_cmpfloat (r, ==, 10e6);                 /* 2.5 MB in 250 ms */
  g_assert_cmpint (padlock_rate_last_time (&rate), ==, 1250 * ms);
  /* 2.25 s later: the samples at 0 and 100 ms are out of the window, the
   * one at 250 ms spans it. */
  g_assert_true (padlock_rate_push (&rate, 3500 * ms, 25000000, &r));
  g_assert_cmpfloat (r, ==, 10e6);
  g_assert_true (padlock_rate_push (&rate, 3750 * ms, 25000000 + 1250000, &r));
  /* From 250 ms still (the next, at 3.5 s, is not 2 s old): 23.75 MB
   * in 2.5 s. */
  g_assert_cmpfloat (fabs (r - 23750000 / 2.5), <, 1e-6);
  /* Many samples in the window: the oldest go, the rate stays known. */
  for (guint i = 1; i <= 100; i++)
    g_assert_true (padlock_rate_push (&rate, (3750 + 10 * i) * ms,
                                      26250000 + i * 100000, &r));
  g_assert_cmpfloat (r, >, 0);
  /* Tried again: from 0, not measured until a quarter second has gone. */
  g_assert_false (padlock_rate_push (&rate, 5000 * ms, 0, &r));
  g_assert_cmpfloat (padlock_rate_get (&rate), ==, 0);
  g_assert_cmpfloat (padlock_rate_average (1000000, 500 * ms), ==, 2e6);
  g_assert_cmpfloat (padlock_rate_average (1000000, 0), ==, 0);
}

int
main (int argc, char **argv)
{
  tu_init (&argc, &argv);
  g_test_add_func ("/rate/known", test_rate_known);
  return g_test_run ();
}
