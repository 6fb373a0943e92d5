/* test-padlock-speed.c - the speed test on a worker thread
 * (app/padlock-speed.h): every cipher and mode measured, every report
 * delivered */
#include "app-testutil.h"
#include "padlock-speed.h"

#define TIMEOUT_MS (120 * 1000)

static void
on_speed (PadlockSpeedTest test,
          double           rate,
          gpointer         user_data)
{
  double *rates = g_object_get_data (user_data, "rates");
  rates[test] = rate;
}

static void
on_speed_done (GObject      *object,
               GAsyncResult *result,
               gpointer      user_data)
{
  g_autoptr(GError) error = NULL;

  g_assert_true (padlock_speed_run_finish (result, &error));
  g_assert_no_error (error);
  *(gboolean *) user_data = TRUE;
}

static gboolean
flag_set (gpointer data)
{
  return *(gboolean *) data;
}

static void
test_speed (void)
{
  g_autoptr(GObject) owner = g_object_new (G_TYPE_OBJECT, NULL);
  double rates[PADLOCK_SPEED_N_TESTS] = { 0 };
  gboolean done = FALSE;

  g_object_set_data (owner, "rates", rates);
  padlock_speed_run_async (0.01, on_speed, owner, NULL, on_speed_done, &done);
  g_assert_true (at_wait_until (flag_set, &done, TIMEOUT_MS));
  /* Reports queued before the task returned still come. */
  while (g_main_context_iteration (NULL, FALSE))
    ;
  for (int i = 0; i < PADLOCK_SPEED_N_TESTS; i++)
    {
      g_test_message ("%s: %.0f MB/s", padlock_speed_test_name (i), rates[i] / 1e6);
      g_assert_cmpfloat (rates[i], >, 0);
    }
}

int
main (int argc, char **argv)
{
  tu_init (&argc, &argv);
  g_test_add_func ("/speed/run", test_speed);
  return g_test_run ();
}
