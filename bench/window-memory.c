/* window-memory.c - the window's start-up and resident memory (issue 37 §6)
 *
 *   window-memory START_NS [ROWS [DIR]]      (run by bench/window-memory)
 *
 * Starts the application as build/app/padlock does (main.c: the locale,
 * the translations, padlock_application_new, g_application_run), with
 * no file to open, and prints:
 *   first-frame  seconds from START_NS (the wall clock, in nanoseconds
 *                since the epoch, taken by the script just before it
 *                started this process) to the end of the window's first
 *                painted frame;
 *   rss-idle     VmRSS (MB, 10^6 octets) 3 s after the first frame,
 *                nothing done;
 *   rss-rows     with ROWS (1,000) finished rows: ROWS small files in DIR
 *                encrypted with one passphrase through the window's own
 *                queue, every job done, a frame painted, 3 s later;
 *   renderer     the GSK renderer the window got (GSK_RENDERER decides).
 * Then it quits.  Needs a display (tests/run-ui-test), GSETTINGS_BACKEND=
 * memory and GSETTINGS_SCHEMA_DIR=build/data.
 */
#include <locale.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <glib/gi18n.h>

#include "padlock-application.h"
#include "padlock-queue.h"
#include "padlock-secret.h"
#include "padlock-window.h"

#define IDLE_MS 3000

static gint64 start_ns;
static guint n_rows;
static const char *rows_dir;
static gboolean first_painted;
static gboolean painted;

/* VmRSS of this process, in MB. */
static double
rss_mb (void)
{
  g_autofree char *status = NULL;
  const char *line;

  if (!g_file_get_contents ("/proc/self/status", &status, NULL, NULL))
    return -1;
  line = strstr (status, "VmRSS:");
  return line ? g_ascii_strtod (line + 6, NULL) * 1024 / 1e6 : -1;
}

static void
on_after_paint (GdkFrameClock *clock,
                gpointer       data)
{
  painted = TRUE;
  if (!first_painted)
    {
      first_painted = TRUE;
      printf ("first-frame %.3f s\n", (g_get_real_time () * 1000 - start_ns) / 1e9);
      fflush (stdout);
    }
}

static gboolean
wake (gpointer data)
{
  return G_SOURCE_CONTINUE;
}

/* Runs the main loop for MS milliseconds. */
static void
settle (guint ms)
{
  gint64 end = g_get_monotonic_time () + ms * 1000;
  guint wake_id = g_timeout_add (50, wake, NULL);

  while (g_get_monotonic_time () < end)
    g_main_context_iteration (NULL, TRUE);
  g_source_remove (wake_id);
}

/* Until WINDOW paints a frame (or 120 s). */
static void
wait_frame (GtkWidget *window)
{
  gint64 end = g_get_monotonic_time () + 120 * G_USEC_PER_SEC;
  guint wake_id = g_timeout_add (50, wake, NULL);

  painted = FALSE;
  gtk_widget_queue_draw (window);
  while (!painted && g_get_monotonic_time () < end)
    g_main_context_iteration (NULL, TRUE);
  g_source_remove (wake_id);
}

/* N_ROWS files of DIR encrypted by the window's queue, as one drop of
 * them with one passphrase does; waits until every job has ended. */
static void
add_rows (PadlockWindow *window)
{
  PadlockQueue *queue = padlock_window_get_queue (window);
  g_autoptr(PadlockSecret) secret = padlock_secret_new ("window-memory bench");
  PadlockJobConfig config = { 0 };
  guint done = 0;

  for (guint i = 0; i < n_rows; i++)
    {
      g_autofree char *name = g_strdup_printf ("%s/file-%04u.txt", rows_dir, i);
      g_autoptr(GFile) file = g_file_new_for_path (name);
      g_autoptr(PadlockJob) job = NULL;

      if (!g_file_set_contents (name, "a few words\n", -1, NULL))
        g_error ("cannot write %s", name);
      job = padlock_job_new (file, PADLOCK_DIRECTION_ENCRYPT, &config);
      padlock_job_set_secret (job, secret);
      padlock_queue_add (queue, job);
    }
  while (padlock_queue_get_busy (queue))
    g_main_context_iteration (NULL, TRUE);
  for (guint i = 0; i < g_list_model_get_n_items (G_LIST_MODEL (queue)); i++)
    {
      g_autoptr(PadlockJob) job = g_list_model_get_item (G_LIST_MODEL (queue), i);

      done += padlock_job_get_state (job) == PADLOCK_JOB_DONE;
    }
  printf ("rows %u done of %u\n", done, n_rows);
}

static void
measure (GtkWindow *window)
{
  GskRenderer *renderer = gtk_native_get_renderer (GTK_NATIVE (window));

  printf ("renderer %s\n", renderer ? G_OBJECT_TYPE_NAME (renderer) : "none");
  settle (IDLE_MS);
  printf ("rss-idle %.1f MB\n", rss_mb ());
  fflush (stdout);
  if (n_rows && PADLOCK_IS_WINDOW (window))
    {
      add_rows (PADLOCK_WINDOW (window));
      wait_frame (GTK_WIDGET (window));
      settle (IDLE_MS);
      printf ("rss-rows %.1f MB\n", rss_mb ());
    }
  fflush (stdout);
  g_application_quit (g_application_get_default ());
}

static gboolean
on_first_frame_idle (gpointer data)
{
  measure (data);
  return G_SOURCE_REMOVE;
}

static void
on_first_paint (GdkFrameClock *clock,
                GtkWindow     *window)
{
  g_signal_handlers_disconnect_by_func (clock, on_first_paint, window);
  g_idle_add (on_first_frame_idle, window);
}

/* The window's frame clock exists once it is realized. */
static void
on_realize (GtkWidget *window)
{
  GdkFrameClock *clock = gtk_widget_get_frame_clock (window);

  g_signal_connect (clock, "after-paint", G_CALLBACK (on_after_paint), NULL);
  g_signal_connect (clock, "after-paint", G_CALLBACK (on_first_paint), window);
}

static void
on_window_added (GtkApplication *app,
                 GtkWindow      *window)
{
  if (PADLOCK_IS_WINDOW (window))
    g_signal_connect (window, "realize", G_CALLBACK (on_realize), NULL);
}

int
main (int argc, char **argv)
{
  g_autoptr(PadlockApplication) app = NULL;
  char *args[] = { argv[0], NULL };

  if (argc < 2)
    {
      fprintf (stderr, "usage: window-memory START_NS [ROWS [DIR]]\n");
      return 2;
    }
  start_ns = g_ascii_strtoll (argv[1], NULL, 10);
  n_rows = argc > 2 ? (guint) atoi (argv[2]) : 0;
  rows_dir = argc > 3 ? argv[3] : g_get_tmp_dir ();
  /* As main.c. */
  setlocale (LC_ALL, "");
  textdomain ("padlock");
  app = padlock_application_new ();
  g_signal_connect (app, "window-added", G_CALLBACK (on_window_added), NULL);
  return g_application_run (G_APPLICATION (app), 1, args);
}
