/* test-app-counting.c - a folder's scan as a screen reader reads it:
 * "Counting files… N" in the row, the count rising, then the job's
 * progress and its end; and Cancel during the scan
 *
 * The scan is held at its reports (padlock_folder_set_scan_hook), so that
 * what the reader must see stays on screen until it has seen it, however
 * slow the machine: nothing here depends on how long anything takes. */
#include <string.h>
#include <glib/gstdio.h>

#include "app-testutil.h"
#include "padlock-folder.h"
#include "padlock-job-row.h"

#define PASSPHRASE "counting-lantern-meadow-17"
#define TIMEOUT_MS (180 * 1000)
/* Four reports: at 256, 512 and 768 entries, and at the end (1001). */
#define N_FILES 1000

/* The scan's side: each report waits until the test has let that many
 * through. */
typedef struct
{
  GMutex lock;
  GCond cond;
  guint reports;                /* seen so far */
  guint allowed;                /* may pass; G_MAXUINT: all */
  guint64 last;                 /* the last count reported */
} Gate;

static void
gate_on_report (guint64  counted,
                gpointer user_data)
{
  Gate *gate = user_data;

  g_mutex_lock (&gate->lock);
  gate->last = counted;
  gate->reports++;
  g_cond_broadcast (&gate->cond);
  while (gate->reports > gate->allowed)
    g_cond_wait (&gate->cond, &gate->lock);
  g_mutex_unlock (&gate->lock);
}

static void
gate_allow (Gate  *gate,
            guint  allowed)
{
  g_mutex_lock (&gate->lock);
  gate->allowed = allowed;
  g_cond_broadcast (&gate->cond);
  g_mutex_unlock (&gate->lock);
}

static guint
gate_reports (Gate *gate)
{
  guint n;

  g_mutex_lock (&gate->lock);
  n = gate->reports;
  g_mutex_unlock (&gate->lock);
  return n;
}

/* DIR/NAME holding N_FILES small files in one folder: the kind of folder
 * whose scan used to say "Counting files… 0" throughout. */
static char *
make_flat_folder (const char *dir,
                  const char *name)
{
  char *folder = g_build_filename (dir, name, NULL);

  g_assert_cmpint (g_mkdir (folder, 0755), ==, 0);
  for (guint i = 0; i < N_FILES; i++)
    {
      g_autofree char *file = g_strdup_printf ("note-%04u.txt", i);

      g_free (at_write_random (folder, file, 16));
    }
  return folder;
}

/* Asks the reader until a label holds WANT (the main loop runs meanwhile,
 * so the job's tick publishes what the held scan stored); fails after
 * TIMEOUT_MS, far beyond what it ever takes. */
static void
wait_for_label (AtReader   *reader,
                const char *want)
{
  gint64 end = g_get_monotonic_time () + TIMEOUT_MS * (gint64) 1000;
  g_autofree char *labels = NULL;

  do
    {
      g_clear_pointer (&labels, g_free);
      labels = at_reader_list (reader, "label");
      if (strstr (labels, want))
        {
          g_test_message ("seen: %s", want);
          return;
        }
    }
  while (g_get_monotonic_time () < end);
  g_test_message ("labels: %s", labels);
  g_error ("the reader never saw “%s”", want);
}

/* Holds the scan at its first report, drops FOLDER on WINDOW, gives the
 * passphrase and waits until the reader sees the count.  gate_clear
 * after. */
static void
start_held (Gate          *gate,
            PadlockWindow *window,
            AtReader      *reader,
            const char    *folder)
{
  const char *paths[] = { folder, NULL };

  g_mutex_init (&gate->lock);
  g_cond_init (&gate->cond);
  gate->allowed = 0;
  padlock_folder_set_scan_hook (gate_on_report, gate);
  at_drop (window, paths);
  at_answer (at_wait_dialog (window), PASSPHRASE);
  wait_for_label (reader, "Counting files… 256");
}

static void
gate_clear (Gate *gate)
{
  padlock_folder_set_scan_hook (NULL, NULL);
  g_mutex_clear (&gate->lock);
  g_cond_clear (&gate->cond);
}

static PadlockJob *
first_job (PadlockWindow *window)
{
  return g_list_model_get_n_items (G_LIST_MODEL (window->queue))
         ? g_list_model_get_item (G_LIST_MODEL (window->queue), 0) : NULL;
}

/* A folder dropped and encrypted: its row says "Counting files… 256",
 * then "Counting files… 512", then the scan goes on and the job ends; a
 * screen reader reads each of them. */
static void
test_counting_rises (void)
{
  g_autofree char *dir = tu_new_dir ("counting");
  g_autofree char *folder = make_flat_folder (dir, "Notes");
  g_autofree char *archive = g_build_filename (dir, "Notes.tar.gpg", NULL);
  g_autofree char *labels = NULL;
  g_autofree char *panels = NULL;
  g_autoptr(PadlockJob) job = NULL;
  Gate gate = { 0 };
  PadlockWindow *window = at_new_window ();
  AtReader *reader = at_reader_new ();

  /* Held at its first report. */
  start_held (&gate, window, reader, folder);
  panels = at_reader_list (reader, "panel");
  g_test_message ("panels: %s", panels);
  g_assert_nonnull (strstr (panels, "Notes, Encrypting… · Counting files… 256"));
  job = first_job (window);
  g_assert_nonnull (job);
  g_assert_cmpint (padlock_job_get_state (job), ==, PADLOCK_JOB_RUNNING);

  /* One report further: the count rose. */
  gate_allow (&gate, 1);
  wait_for_label (reader, "Counting files… 512");

  /* Let it run: the count gives way to the job, which ends. */
  gate_allow (&gate, G_MAXUINT);
  g_assert_true (at_wait_queue_idle (window->queue, TIMEOUT_MS));
  at_settle (200);
  g_assert_no_error (padlock_job_get_error (job));
  g_assert_cmpint (padlock_job_get_state (job), ==, PADLOCK_JOB_DONE);
  g_assert_cmpuint (gate.last, ==, N_FILES + 1);
  g_assert_true (g_file_test (archive, G_FILE_TEST_IS_REGULAR));
  wait_for_label (reader, "Encrypted ");
  labels = at_reader_list (reader, "label");
  g_test_message ("labels: %s", labels);
  g_assert_null (strstr (labels, "Counting files"));
  g_clear_pointer (&panels, g_free);
  panels = at_reader_list (reader, "panel");
  g_assert_nonnull (strstr (panels, "Notes, Encrypted "));

  gate_clear (&gate);
  at_reader_free (reader);
  at_close_window (window);
}

/* Cancel while the row says "Counting files…": the scan stops at once
 * (it reports nothing more), the row says so, and nothing is written. */
static void
test_cancel_while_counting (void)
{
  g_autofree char *dir = tu_new_dir ("counting-cancel");
  g_autofree char *folder = make_flat_folder (dir, "Held");
  g_autofree char *listing = NULL;
  g_autofree char *panels = NULL;
  g_autoptr(PadlockJob) job = NULL;
  Gate gate = { 0 };
  PadlockWindow *window = at_new_window ();
  AtReader *reader = at_reader_new ();
  GtkWidget *row;

  start_held (&gate, window, reader, folder);
  job = first_job (window);
  g_assert_nonnull (job);

  /* The row's Cancel, as its button does it. */
  row = gtk_widget_get_first_child (GTK_WIDGET (window->job_list));
  while (row && !PADLOCK_IS_JOB_ROW (row))
    row = gtk_widget_get_first_child (row);
  g_assert_nonnull (row);
  g_assert_true (padlock_job_row_get_job (PADLOCK_JOB_ROW (row)) == job);
  g_assert_true (gtk_widget_activate_action (row, "row.cancel", NULL));
  gate_allow (&gate, G_MAXUINT);
  g_assert_true (at_wait_until (at_job_is_finished, job, TIMEOUT_MS));
  g_assert_cmpint (padlock_job_get_state (job), ==, PADLOCK_JOB_CANCELLED);
  /* Released, the scan saw the cancel at its next entry. */
  g_assert_cmpuint (gate_reports (&gate), ==, 1);
  listing = tu_list_dir (dir);
  g_assert_cmpstr (listing, ==, "Held");
  at_settle (200);
  panels = at_reader_list (reader, "panel");
  g_test_message ("panels: %s", panels);
  g_assert_nonnull (strstr (panels, "Held, Cancelled · nothing was written"));

  gate_clear (&gate);
  at_reader_free (reader);
  at_close_window (window);
}

int
main (int    argc,
      char **argv)
{
  /* GTK's accessibility over AT-SPI (read when the first widget is
   * made). */
  g_setenv ("GTK_A11Y", "atspi", TRUE);
  tu_init (&argc, &argv);
  at_application ();
  g_test_add_func ("/counting/rises", test_counting_rises);
  g_test_add_func ("/counting/cancel", test_cancel_while_counting);
  return g_test_run ();
}
