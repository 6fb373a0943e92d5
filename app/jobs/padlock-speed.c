/* padlock-speed.c - how fast this machine runs the ciphers, in memory
 *
 * The core's measurements (core/speed.h), run on a worker thread, with
 * the app's words for those the Speed Test window shows: every cipher
 * Preferences offers, the v1 hash and the AEAD modes.  The
 * core's own pipeline adds threads and I/O on top.
 */
#include "padlock-speed.h"

#include <glib/gi18n.h>

#include "speed.h"

/* What each of the window's tests measures. */
static const pl_speed_id core_measures[PADLOCK_SPEED_N_TESTS] = {
  [PADLOCK_SPEED_CFB_ENCRYPT] = PL_SPEED_AES256_CFB_ENCRYPT,
  [PADLOCK_SPEED_CFB_DECRYPT] = PL_SPEED_AES256_CFB_DECRYPT,
  [PADLOCK_SPEED_AES192_CFB] = PL_SPEED_AES192_CFB_ENCRYPT,
  [PADLOCK_SPEED_AES128_CFB] = PL_SPEED_AES128_CFB_ENCRYPT,
  [PADLOCK_SPEED_TWOFISH_CFB] = PL_SPEED_TWOFISH_CFB_ENCRYPT,
  [PADLOCK_SPEED_CAMELLIA_CFB] = PL_SPEED_CAMELLIA256_CFB_ENCRYPT,
  [PADLOCK_SPEED_SHA1] = PL_SPEED_SHA1,
  [PADLOCK_SPEED_OCB] = PL_SPEED_AES256_OCB_ENCRYPT,
  [PADLOCK_SPEED_EAX] = PL_SPEED_AES256_EAX_ENCRYPT,
  [PADLOCK_SPEED_GCM] = PL_SPEED_AES256_GCM_ENCRYPT,
};

typedef struct
{
  double seconds;
  PadlockSpeedFunc func;
  gpointer func_data;           /* a GObject, referenced */
  GMainContext *context;
} SpeedWork;

typedef struct
{
  PadlockSpeedFunc func;
  GObject *owner;
  PadlockSpeedTest test;
  double rate;
} SpeedReport;

const char *
padlock_speed_test_name (PadlockSpeedTest test)
{
  switch (test)
    {
    case PADLOCK_SPEED_CFB_ENCRYPT:
      return _("AES-256 CFB encryption (SEIPD v1)");
    case PADLOCK_SPEED_CFB_DECRYPT:
      return _("AES-256 CFB decryption (SEIPD v1)");
    case PADLOCK_SPEED_AES192_CFB:
      return _("AES-192 CFB encryption (SEIPD v1)");
    case PADLOCK_SPEED_AES128_CFB:
      return _("AES-128 CFB encryption (SEIPD v1)");
    case PADLOCK_SPEED_TWOFISH_CFB:
      return _("Twofish CFB encryption (SEIPD v1)");
    case PADLOCK_SPEED_CAMELLIA_CFB:
      return _("Camellia-256 CFB encryption (SEIPD v1)");
    case PADLOCK_SPEED_SHA1:
      return _("SHA-1 (the v1 integrity check)");
    case PADLOCK_SPEED_OCB:
      return _("AES-256 OCB (RFC 9580, LibrePGP)");
    case PADLOCK_SPEED_EAX:
      return _("AES-256 EAX (RFC 9580)");
    case PADLOCK_SPEED_GCM:
      return _("AES-256 GCM (RFC 9580)");
    default:
      g_return_val_if_reached (NULL);
    }
}

static void
speed_work_free (gpointer data)
{
  SpeedWork *work = data;

  g_main_context_unref (work->context);
  g_clear_object (&work->func_data);
  g_free (work);
}

static gboolean
deliver_report (gpointer data)
{
  SpeedReport *report = data;

  report->func (report->test, report->rate, report->owner);
  return G_SOURCE_REMOVE;
}

static void
speed_report_free (gpointer data)
{
  SpeedReport *report = data;

  g_clear_object (&report->owner);
  g_free (report);
}

/* Bytes a second; 0 when the test could not run. */
static double
measure (PadlockSpeedTest test,
         double           seconds)
{
  double mb_per_s = 0;

  if (pl_speed_measure (core_measures[test], seconds, &mb_per_s))
    return 0;
  return mb_per_s * 1e6;
}

static void
padlock_speed_thread (GTask        *task,
                      gpointer      source_object,
                      gpointer      task_data,
                      GCancellable *cancellable)
{
  SpeedWork *work = task_data;

  for (int test = 0; test < PADLOCK_SPEED_N_TESTS; test++)
    {
      SpeedReport *report;

      if (g_task_return_error_if_cancelled (task))
        return;
      report = g_new0 (SpeedReport, 1);
      report->func = work->func;
      report->owner = work->func_data ? g_object_ref (work->func_data) : NULL;
      report->test = test;
      report->rate = measure (test, work->seconds);
      if (work->func)
        g_main_context_invoke_full (work->context, G_PRIORITY_DEFAULT,
                                    deliver_report, report, speed_report_free);
      else
        speed_report_free (report);
    }
  g_task_return_boolean (task, TRUE);
}

void
padlock_speed_run_async (double               seconds,
                         PadlockSpeedFunc     func,
                         gpointer             func_data,
                         GCancellable        *cancellable,
                         GAsyncReadyCallback  callback,
                         gpointer             user_data)
{
  g_autoptr(GTask) task = NULL;
  SpeedWork *work;

  work = g_new0 (SpeedWork, 1);
  work->seconds = seconds;
  work->func = func;
  work->func_data = func_data ? g_object_ref (func_data) : NULL;
  work->context = g_main_context_ref_thread_default ();

  task = g_task_new (NULL, cancellable, callback, user_data);
  g_task_set_source_tag (task, padlock_speed_run_async);
  g_task_set_task_data (task, work, speed_work_free);
  g_task_run_in_thread (task, padlock_speed_thread);
}

gboolean
padlock_speed_run_finish (GAsyncResult  *result,
                          GError       **error)
{
  g_return_val_if_fail (g_task_is_valid (result, NULL), FALSE);
  return g_task_propagate_boolean (G_TASK (result), error);
}
