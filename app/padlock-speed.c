/* padlock-speed.c - how fast this machine runs the ciphers, in memory
 *
 * libgcrypt directly, one thread, a 1 MiB buffer run through each mode
 * for a fixed time.  The core's own pipeline adds threads and I/O on top.
 */
#include "padlock-speed.h"

#include <gcrypt.h>
#include <glib/gi18n.h>

#define BUFFER_SIZE (1u << 20)

typedef struct
{
  double seconds;
  PadlockSpeedFunc func;
  gpointer func_data;           /* a GObject, referenced */
  GMainContext *context;
} SpeedRun;

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
speed_run_free (gpointer data)
{
  SpeedRun *run = data;

  g_main_context_unref (run->context);
  g_clear_object (&run->func_data);
  g_free (run);
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

/* One pass over BUF: BUFFER_SIZE octets through the mode. */
static gboolean
run_once (PadlockSpeedTest  test,
          gcry_cipher_hd_t  hd,
          guint8           *buf)
{
  static const guint8 nonce[16] = { 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16 };
  guint8 tag[16];
  gcry_error_t err = 0;

  switch (test)
    {
    case PADLOCK_SPEED_CFB_ENCRYPT:
      err = gcry_cipher_encrypt (hd, buf, BUFFER_SIZE, NULL, 0);
      break;
    case PADLOCK_SPEED_CFB_DECRYPT:
      err = gcry_cipher_decrypt (hd, buf, BUFFER_SIZE, NULL, 0);
      break;
    case PADLOCK_SPEED_SHA1:
      {
        guint8 digest[20];
        gcry_md_hash_buffer (GCRY_MD_SHA1, digest, buf, BUFFER_SIZE);
        buf[0] ^= digest[0];
      }
      break;
    case PADLOCK_SPEED_OCB:
    case PADLOCK_SPEED_EAX:
    case PADLOCK_SPEED_GCM:
      /* One AEAD chunk: a fresh nonce, the data, the tag. */
      err = gcry_cipher_setiv (hd, nonce, test == PADLOCK_SPEED_OCB ? 15
                                          : test == PADLOCK_SPEED_GCM ? 12 : 16);
      if (!err && test == PADLOCK_SPEED_OCB)
        err = gcry_cipher_final (hd);
      if (!err)
        err = gcry_cipher_encrypt (hd, buf, BUFFER_SIZE, NULL, 0);
      if (!err)
        err = gcry_cipher_gettag (hd, tag, sizeof tag);
      break;
    default:
      g_assert_not_reached ();
    }
  return err == 0;
}

static double
measure (PadlockSpeedTest  test,
         double            seconds,
         guint8           *buf)
{
  static const guint8 key[32] = { 0x42 };
  gcry_cipher_hd_t hd = NULL;
  int mode = 0;
  gint64 start, elapsed;
  guint64 bytes = 0;

  switch (test)
    {
    case PADLOCK_SPEED_CFB_ENCRYPT:
    case PADLOCK_SPEED_CFB_DECRYPT:
      mode = GCRY_CIPHER_MODE_CFB;
      break;
    case PADLOCK_SPEED_OCB:
      mode = GCRY_CIPHER_MODE_OCB;
      break;
    case PADLOCK_SPEED_EAX:
      mode = GCRY_CIPHER_MODE_EAX;
      break;
    case PADLOCK_SPEED_GCM:
      mode = GCRY_CIPHER_MODE_GCM;
      break;
    default:
      break;
    }
  if (mode)
    {
      if (gcry_cipher_open (&hd, GCRY_CIPHER_AES256, mode, 0)
          || gcry_cipher_setkey (hd, key, sizeof key))
        goto fail;
      if (mode == GCRY_CIPHER_MODE_CFB
          && gcry_cipher_setiv (hd, key, 16))
        goto fail;
    }

  start = g_get_monotonic_time ();
  do
    {
      if (!run_once (test, hd, buf))
        goto fail;
      bytes += BUFFER_SIZE;
      elapsed = g_get_monotonic_time () - start;
    }
  while (elapsed < seconds * G_USEC_PER_SEC);

  gcry_cipher_close (hd);
  return bytes / (elapsed / (double) G_USEC_PER_SEC);

 fail:
  gcry_cipher_close (hd);
  return 0;
}

static void
padlock_speed_thread (GTask        *task,
                      gpointer      source_object,
                      gpointer      task_data,
                      GCancellable *cancellable)
{
  SpeedRun *run = task_data;
  g_autofree guint8 *buf = g_malloc0 (BUFFER_SIZE);

  for (int test = 0; test < PADLOCK_SPEED_N_TESTS; test++)
    {
      SpeedReport *report;

      if (g_task_return_error_if_cancelled (task))
        return;
      report = g_new0 (SpeedReport, 1);
      report->func = run->func;
      report->owner = run->func_data ? g_object_ref (run->func_data) : NULL;
      report->test = test;
      report->rate = measure (test, run->seconds, buf);
      if (run->func)
        g_main_context_invoke_full (run->context, G_PRIORITY_DEFAULT,
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
  SpeedRun *run;

  run = g_new0 (SpeedRun, 1);
  run->seconds = seconds;
  run->func = func;
  run->func_data = func_data ? g_object_ref (func_data) : NULL;
  run->context = g_main_context_ref_thread_default ();

  task = g_task_new (NULL, cancellable, callback, user_data);
  g_task_set_source_tag (task, padlock_speed_run_async);
  g_task_set_task_data (task, run, speed_run_free);
  g_task_run_in_thread (task, padlock_speed_thread);
}

gboolean
padlock_speed_run_finish (GAsyncResult  *result,
                          GError       **error)
{
  g_return_val_if_fail (g_task_is_valid (result, NULL), FALSE);
  return g_task_propagate_boolean (G_TASK (result), error);
}
