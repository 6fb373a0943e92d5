/* window-rows.c - the window's list with many jobs (issue 13 item 4)
 *
 *   window-rows [N]        (under Xvfb: tests/run-ui-test bench/...)
 *
 * Opens the real window, adds N jobs (10,000 by default) to its queue in
 * one go, as one drop of N files does, and measures, wall and CPU
 * (user+sys) time of the process:
 *   add    the N padlock_queue_add calls (the list hears of each);
 *   frame  from the start to the first frame painted after the adds;
 *   idle   from the start until every job has ended (their files do not
 *          exist: each fails at once, on a worker, as a missing file
 *          does) and a frame is painted after that.
 * Needs GSETTINGS_BACKEND=memory and GSETTINGS_SCHEMA_DIR=build/data.
 */
#include <stdio.h>
#include <stdlib.h>
#include <sys/resource.h>
#include <glib/gstdio.h>

#include "padlock-application.h"
#include "padlock-queue.h"
#include "padlock-secret.h"
#include "padlock-window.h"

typedef struct
{
  gint64 wall;
  double cpu;
} Stamp;

static void
stamp (Stamp *s)
{
  struct rusage ru;

  getrusage (RUSAGE_SELF, &ru);
  s->wall = g_get_monotonic_time ();
  s->cpu = ru.ru_utime.tv_sec + ru.ru_utime.tv_usec / 1e6
           + ru.ru_stime.tv_sec + ru.ru_stime.tv_usec / 1e6;
}

static gboolean painted;

static void
on_after_paint (GdkFrameClock *clock,
                gpointer       data)
{
  painted = TRUE;
}

static gboolean
wake (gpointer data)
{
  return G_SOURCE_CONTINUE;
}

/* Runs the main loop until a frame is painted (or 120 s). */
static void
wait_frame (GtkWidget *window)
{
  gint64 end = g_get_monotonic_time () + 120 * G_USEC_PER_SEC;
  guint wake_id = g_timeout_add (100, wake, NULL);

  painted = FALSE;
  gtk_widget_queue_draw (window);
  while (!painted && g_get_monotonic_time () < end)
    g_main_context_iteration (NULL, TRUE);
  g_source_remove (wake_id);
  if (!painted)
    fprintf (stderr, "no frame painted in 120 s\n");
}

static void
print_span (const char  *what,
            const Stamp *from,
            const Stamp *to)
{
  printf ("%-6s wall %8.3f s  cpu %8.3f s\n", what,
          (to->wall - from->wall) / 1e6, to->cpu - from->cpu);
  /* Each as it comes: a run stopped by a time limit still tells. */
  fflush (stdout);
}

int
main (int argc, char **argv)
{
  guint n = argc > 1 ? (guint) atoi (argv[1]) : 10000;
  g_autoptr(GError) error = NULL;
  g_autoptr(PadlockSecret) secret = NULL;
  g_autofree char *dir = g_dir_make_tmp ("window-rows-XXXXXX", NULL);
  PadlockApplication *app;
  PadlockWindow *window;
  PadlockQueue *queue;
  PadlockJobConfig config = { 0 };
  GdkFrameClock *clock;
  Stamp start, added, framed, idle;

  gtk_init ();
  app = padlock_application_new ();
  if (!g_application_register (G_APPLICATION (app), NULL, &error))
    {
      fprintf (stderr, "%s\n", error->message);
      return 1;
    }
  window = padlock_window_new (GTK_APPLICATION (app));
  gtk_window_set_default_size (GTK_WINDOW (window), 640, 560);
  gtk_window_present (GTK_WINDOW (window));
  clock = gtk_widget_get_frame_clock (GTK_WIDGET (window));
  g_signal_connect (clock, "after-paint", G_CALLBACK (on_after_paint), NULL);
  wait_frame (GTK_WIDGET (window));

  queue = padlock_window_get_queue (window);
  secret = padlock_secret_new ("window-rows");
  stamp (&start);
  for (guint i = 0; i < n; i++)
    {
      g_autofree char *name = g_strdup_printf ("%s/missing-%05u.txt", dir, i);
      g_autoptr(GFile) file = g_file_new_for_path (name);
      g_autoptr(PadlockJob) job = padlock_job_new (file, PADLOCK_DIRECTION_ENCRYPT,
                                                   &config);

      padlock_job_set_secret (job, secret);
      padlock_queue_add (queue, job);
    }
  stamp (&added);
  printf ("%u jobs\n", n);
  print_span ("add", &start, &added);
  wait_frame (GTK_WIDGET (window));
  stamp (&framed);
  print_span ("frame", &start, &framed);
  while (padlock_queue_get_busy (queue))
    g_main_context_iteration (NULL, TRUE);
  wait_frame (GTK_WIDGET (window));
  stamp (&idle);
  print_span ("idle", &start, &idle);
  printf ("%u ended\n", padlock_queue_get_n_finished (queue));
  gtk_window_destroy (GTK_WINDOW (window));
  g_rmdir (dir);
  return 0;
}
