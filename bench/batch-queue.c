/* batch-queue.c - the app's job queue without a window, for bench/batch
 *
 *   batch-queue encrypt|decrypt PROFILE PWFILE FILE...
 *
 * One PadlockSecret for all FILEs (one batch, as one drop in the window),
 * a PadlockQueue at its default concurrency (one job a core), default
 * job settings but PROFILE (rfc4880, librepgp, rfc9580); outputs go next
 * to the inputs.  Prints one line: files, failures, seconds from the
 * first job queued to the last finished (process start-up excluded),
 * and the S2K derivations the engine made.
 */
#include <stdio.h>
#include <string.h>

#include "job.h"
#include "keys.h"
#include "padlock-job.h"
#include "padlock-queue.h"
#include "padlock-secret.h"

static void
on_busy (PadlockQueue *queue, GParamSpec *pspec, GMainLoop *loop)
{
  if (!padlock_queue_get_busy (queue))
    g_main_loop_quit (loop);
}

int
main (int argc, char **argv)
{
  g_autoptr(PadlockQueue) queue = NULL;
  g_autoptr(PadlockSecret) secret = NULL;
  g_autoptr(GMainLoop) loop = NULL;
  g_autofree char *pw = NULL;
  PadlockJobConfig config = { 0 };
  PadlockDirection direction;
  guint failed = 0;
  gsize len;
  gint64 start;
  size_t derivations;

  if (argc < 5 || (strcmp (argv[1], "encrypt") && strcmp (argv[1], "decrypt"))
      || pl_profile_from_name (argv[2]) < 0)
    {
      fprintf (stderr, "usage: %s encrypt|decrypt PROFILE PWFILE FILE...\n",
               argv[0]);
      return 2;
    }
  if (pl_init ())
    return 1;
  direction = strcmp (argv[1], "encrypt") ? PADLOCK_DIRECTION_DECRYPT
                                          : PADLOCK_DIRECTION_ENCRYPT;
  config.profile = pl_profile_from_name (argv[2]);
  if (!g_file_get_contents (argv[3], &pw, &len, NULL))
    return 1;
  g_strchomp (pw);
  secret = padlock_secret_new (pw);
  loop = g_main_loop_new (NULL, FALSE);
  queue = padlock_queue_new ();
  g_signal_connect (queue, "notify::busy", G_CALLBACK (on_busy), loop);

  derivations = pl_keys_derivations ();
  start = g_get_monotonic_time ();
  for (int i = 4; i < argc; i++)
    {
      g_autoptr(GFile) file = g_file_new_for_path (argv[i]);
      g_autoptr(PadlockJob) job = padlock_job_new (file, direction, &config);

      padlock_job_set_secret (job, secret);
      padlock_queue_add (queue, job);
    }
  if (padlock_queue_get_busy (queue))
    g_main_loop_run (loop);
  for (guint i = 0; i < g_list_model_get_n_items (G_LIST_MODEL (queue)); i++)
    {
      g_autoptr(PadlockJob) job = g_list_model_get_item (G_LIST_MODEL (queue), i);

      if (padlock_job_get_state (job) != PADLOCK_JOB_DONE)
        {
          if (!failed)
            fprintf (stderr, "%s: %s\n", argv[4 + i],
                     padlock_job_get_error (job)
                     ? padlock_job_get_error (job)->message : "not done");
          failed++;
        }
    }
  printf ("files %d failed %u seconds %.3f derivations %zu\n", argc - 4,
          failed, (g_get_monotonic_time () - start) / 1e6,
          pl_keys_derivations () - derivations);
  return failed ? 1 : 0;
}
