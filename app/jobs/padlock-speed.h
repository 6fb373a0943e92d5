/* padlock-speed.h - how fast this machine runs the ciphers, in memory */
#pragma once

#include <gio/gio.h>

G_BEGIN_DECLS

typedef enum
{
  PADLOCK_SPEED_CFB_ENCRYPT,
  PADLOCK_SPEED_CFB_DECRYPT,
  /* Every other cipher Preferences offers, as it encrypts. */
  PADLOCK_SPEED_AES192_CFB,
  PADLOCK_SPEED_AES128_CFB,
  PADLOCK_SPEED_TWOFISH_CFB,
  PADLOCK_SPEED_CAMELLIA_CFB,
  PADLOCK_SPEED_SHA1,
  PADLOCK_SPEED_OCB,
  PADLOCK_SPEED_EAX,
  PADLOCK_SPEED_GCM,
  PADLOCK_SPEED_N_TESTS
} PadlockSpeedTest;

/* "AES-256 CFB encrypt (SEIPD v1)" */
const char *padlock_speed_test_name (PadlockSpeedTest test);

/* Called on the caller's main context after each test, with bytes a
 * second (0 when the test could not run). */
typedef void (*PadlockSpeedFunc) (PadlockSpeedTest test,
                                  double           rate,
                                  gpointer         user_data);

/* Runs each test for about SECONDS on a worker thread.  FUNC_DATA is a
 * GObject, kept alive until the last report. */
void     padlock_speed_run_async  (double               seconds,
                                   PadlockSpeedFunc     func,
                                   gpointer             func_data,
                                   GCancellable        *cancellable,
                                   GAsyncReadyCallback  callback,
                                   gpointer             user_data);
gboolean padlock_speed_run_finish (GAsyncResult        *result,
                                   GError             **error);

G_END_DECLS
