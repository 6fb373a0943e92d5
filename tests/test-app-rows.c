/* test-app-rows.c - rows that say what happened, and cancel, quit, retry
 * (issue 37 §2 and §5), in a real window under Xvfb with a real GnuPG
 * home, read as a user sees it (what is drawn, cut or wrapped) and as a
 * screen reader hears it (AT-SPI): a signed encryption's row says whom it
 * was signed as and who can open it; a done row's size and rate are never
 * cut, its name is; after Delete the row says "Deleted" and offers
 * nothing that needs the file; new rows come into sight unless the user
 * scrolled away; the header's wrapped lines never start with "·"; a
 * cancelled job has Try Again; rows keep their height while the pointer
 * is over the list; and Quit asked while a job runs quits once it ends. */
#include <string.h>
#include <errno.h>
#include <fcntl.h>
#include <unistd.h>
#include <sys/stat.h>
#include <glib/gstdio.h>

#include "app-testutil.h"
#include "gnupg-home.h"
#include "padlock-agent.h"
#include "padlock-format.h"
#include "padlock-job-row.h"
#include "padlock-keyring.h"
#include "padlock-recipients.h"
#include "padlock-signer.h"

#define PASSPHRASE "rows-walnut-ember-73"
#define TIMEOUT_MS (180 * 1000)
#define FSI "\xe2\x81\xa8"
#define PDI "\xe2\x81\xa9"

static TgHome *home;            /* Alice's (the user's) and Bob's keys */
static char *alice_fpr, *bob_fpr;

/* The pointer far from the window (at 0, 0: Xvfb has no window manager
 * to place it), so that finished rows take one line. */
static void
pointer_away (AtReader *reader)
{
  at_move_pointer (reader, 1270, 1015);
}

static GtkLabel *
row_label (PadlockJobRow *row,
           const char    *name)
{
  g_assert_nonnull (row);
  return GTK_LABEL (gtk_widget_get_template_child (GTK_WIDGET (row), PADLOCK_TYPE_JOB_ROW,
                                                   name));
}

static PadlockJob *
new_job (const char       *path,
         PadlockDirection  direction)
{
  g_autoptr(GFile) file = g_file_new_for_path (path);
  PadlockJobConfig config = { 0 };

  return padlock_job_new (file, direction, &config);
}

/* §2: a file encrypted to Bob and the user, signed as Alice: its row,
 * once on one line, says so, and a screen reader says it too. */
static void
test_signed_as (void)
{
  g_autofree char *dir = tu_new_dir ("rows-signed");
  g_autofree char *plain = at_write_random (dir, "report.pdf", 20000);
  g_autofree char *passphrase_only = at_write_random (dir, "notes.txt", 3000);
  g_autoptr(PadlockKeyring) keyring = padlock_keyring_new (home->dir);
  g_autoptr(PadlockAgent) agent = padlock_agent_new (home->dir);
  g_autoptr(PadlockKey) alice = NULL;
  g_autoptr(PadlockRecipients) recipients = NULL;
  g_autoptr(PadlockSecret) secret = padlock_secret_new (PASSPHRASE);
  g_autoptr(PadlockJob) job = new_job (plain, PADLOCK_DIRECTION_ENCRYPT);
  g_autoptr(PadlockJob) other = new_job (passphrase_only, PADLOCK_DIRECTION_ENCRYPT);
  g_autofree char *panels = NULL;
  g_autofree char *labels = NULL;
  PadlockKey *bob;
  PadlockWindow *window = at_new_window ();
  AtReader *reader = at_reader_new ();

  pointer_away (reader);
  g_assert_true (at_wait_until (at_keyring_loaded, keyring, TIMEOUT_MS));
  alice = padlock_signer_choose_key (keyring, "alice@example.org");
  g_assert_nonnull (alice);
  bob = at_key_of (keyring, bob_fpr);
  recipients = padlock_recipients_new (home->dir, &bob, 1, alice, FALSE, -1);
  padlock_job_set_recipients (job, recipients);
  padlock_job_set_signing_key (job, alice, agent, home->dir);
  padlock_job_set_secret (other, secret);
  padlock_queue_add (window->queue, job);
  padlock_queue_add (window->queue, other);
  g_assert_true (at_wait_queue_idle (window->queue, TIMEOUT_MS));
  at_settle (300);
  g_assert_no_error (padlock_job_get_error (job));
  g_assert_cmpint (padlock_job_get_state (job), ==, PADLOCK_JOB_DONE);

  /* Shown in the row (one line now), names isolated. */
  labels = at_reader_list (reader, "label");
  g_assert_nonnull (strstr (labels, "|Signed as " FSI "Alice" PDI " · for "
                                    FSI "Bob <bob@example.org>" PDI " and you|"));
  /* Said with the row. */
  panels = at_reader_list (reader, "panel");
  g_assert_nonnull (strstr (panels, "report.pdf, Encrypted "));
  g_assert_nonnull (strstr (panels, ", Signed as Alice · for Bob <bob@example.org> and you"));
  at_screenshot (GTK_WIDGET (window), "row-signed-as");
  /* A passphrase alone: no such line. */
  g_assert_null (strstr (panels, "notes.txt, Encrypted 3.0 kB at"
                                 ", Signed"));
  g_assert_false (gtk_widget_get_visible (GTK_WIDGET (gtk_widget_get_template_child (
                    GTK_WIDGET (at_find_job_row (GTK_WIDGET (window->job_list), "notes.txt")),
                    PADLOCK_TYPE_JOB_ROW, "signature_box"))));
  at_reader_free (reader);
  at_close_window (window);
}

/* A done row's verdict shows its size and rate whole (not cut), the
 * name giving way: at 640 and 1280 px, with a long name. */
static void
check_verdict_whole (PadlockWindow *window,
                     PadlockJob    *job,
                     const char    *name,
                     int            width)
{
  PadlockJobRow *row;
  GtkLabel *verdict;
  g_autofree char *size = g_format_size (padlock_job_get_plaintext_size (job));
  g_autofree char *spaced = padlock_format_rate (padlock_job_get_throughput (job));
  g_auto(GStrv) words = g_strsplit (spaced, " ", -1);
  /* Glued to its unit, as the size is. */
  g_autofree char *rate = g_strjoinv ("\u00a0", words);
  const char *text;

  gtk_window_set_default_size (GTK_WINDOW (window), width, 560);
  at_settle (500);
  /* Less what the client-side decoration takes. */
  g_assert_cmpint (gtk_widget_get_width (GTK_WIDGET (window)), >, width - 40);
  g_assert_cmpint (gtk_widget_get_width (GTK_WIDGET (window)), <=, width);
  row = at_find_job_row (GTK_WIDGET (window->job_list), name);
  verdict = row_label (row, "verdict_label");
  text = gtk_label_get_text (verdict);
  g_test_message ("%d px: verdict “%s”, %d px wide", width, text,
                  gtk_widget_get_width (GTK_WIDGET (verdict)));
  g_assert_true (gtk_widget_get_visible (GTK_WIDGET (verdict)));
  g_assert_nonnull (strstr (text, size));
  g_assert_nonnull (strstr (text, rate));
  g_assert_false (pango_layout_is_ellipsized (gtk_label_get_layout (verdict)));
  /* The name gives way. */
  g_assert_true (pango_layout_is_ellipsized (gtk_label_get_layout (
                   row_label (row, "title_label"))));
}

static void
test_sizes_whole (void)
{
  g_autofree char *dir = tu_new_dir ("rows-sizes");
  const char *name = "Quarterly report of the regional office for the "
                     "northern districts, final version, approved.pdf";
  g_autofree char *sealed_name = g_strconcat (name, ".gpg", NULL);
  g_autofree char *plain = at_write_random (dir, name, 21 * 1000 * 1000);
  g_autofree char *sealed = g_build_filename (dir, sealed_name, NULL);
  g_autofree char *out = g_build_filename (dir, "out", NULL);
  g_autofree char *moved = g_build_filename (out, sealed_name, NULL);
  PadlockWindow *window = at_new_window ();
  AtReader *reader = at_reader_new ();
  PadlockJob *job;

  pointer_away (reader);
  at_gpg_encrypt (plain, sealed, PASSPHRASE, NULL);
  g_assert_cmpint (g_mkdir (out, 0755), ==, 0);
  g_assert_cmpint (g_rename (sealed, moved), ==, 0);
  job = at_run_job (window->queue, moved, PADLOCK_DIRECTION_DECRYPT, NULL, PASSPHRASE);
  g_assert_true (at_wait_queue_idle (window->queue, TIMEOUT_MS));
  g_assert_cmpint (padlock_job_get_state (job), ==, PADLOCK_JOB_DONE);
  check_verdict_whole (window, job, sealed_name, 640);
  check_verdict_whole (window, job, sealed_name, 1280);
  at_reader_free (reader);
  at_close_window (window);
}

/* After Delete beside a bad signature: the row says "Deleted", points at
 * no file, and offers neither Open nor Show. */
static void
test_deleted (void)
{
  g_autofree char *dir = tu_new_dir ("rows-deleted");
  g_autofree char *bad = g_build_filename (dir, "contract-badsig.txt.gpg", NULL);
  g_autofree char *bad_out = g_build_filename (dir, "contract-badsig.txt", NULL);
  g_autofree char *buttons = NULL;
  g_autofree char *labels = NULL;
  const char *paths[] = { bad, NULL };
  PadlockWindow *window = at_new_window ();
  AtReader *reader = at_reader_new ();
  PadlockJobRow *row;

  pointer_away (reader);
  {
    g_autoptr(GBytes) altered = tg_bad_signature_message (home, alice_fpr,
                                                          "contract-badsig.txt",
                                                          "altered?\n", PASSPHRASE);

    g_assert_true (g_file_set_contents (bad, g_bytes_get_data (altered, NULL),
                                        g_bytes_get_size (altered), NULL));
  }
  gtk_window_set_default_size (GTK_WINDOW (window), 900, 560);
  at_drop (window, paths);
  at_answer (at_wait_dialog (window), PASSPHRASE);
  g_assert_true (at_wait_queue_idle (window->queue, TIMEOUT_MS));
  at_settle (300);
  buttons = at_reader_list (reader, "push button");
  g_assert_nonnull (strstr (buttons, "Open contract-badsig.txt"));
  g_assert_nonnull (strstr (buttons, "Delete contract-badsig.txt"));
  row = at_find_job_row (GTK_WIDGET (window->job_list), "contract-badsig.txt.gpg");
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (row), "row.delete-output", NULL));
  g_assert_true (at_wait_until (at_has_message_dialog, NULL, TIMEOUT_MS));
  adw_message_dialog_response (at_find_message_dialog (), "delete");
  at_settle (300);
  pointer_away (reader);
  g_assert_false (g_file_test (bad_out, G_FILE_TEST_EXISTS));

  g_clear_pointer (&buttons, g_free);
  buttons = at_reader_list (reader, "push button");
  g_assert_null (strstr (buttons, "Open contract-badsig.txt"));
  g_assert_null (strstr (buttons, "Show contract-badsig.txt"));
  g_assert_null (strstr (buttons, "Delete contract-badsig.txt"));
  labels = at_reader_list (reader, "label");
  g_assert_nonnull (strstr (labels, "|Deleted|"));
  g_assert_null (strstr (labels, "→ "));
  /* Nothing that needs the file can be done from the keyboard either. */
  g_clear_pointer (&window->last_notice, g_free);
  gtk_widget_activate_action (GTK_WIDGET (row), "row.open", NULL);
  gtk_widget_activate_action (GTK_WIDGET (row), "row.show", NULL);
  at_settle (500);
  g_assert_null (window->last_notice);
  at_reader_free (reader);
  at_close_window (window);
}

/* Whether the list shows its end (within a few pixels). */
static gboolean
at_list_end (PadlockWindow *window)
{
  GtkAdjustment *adj = gtk_scrolled_window_get_vadjustment (window->scroller);

  return gtk_adjustment_get_value (adj) + gtk_adjustment_get_page_size (adj)
         >= gtk_adjustment_get_upper (adj) - 8;
}

/* Whether the row of NAME is drawn inside the list's scroller. */
static gboolean
row_in_sight (PadlockWindow *window,
              const char    *name)
{
  PadlockJobRow *row = at_find_job_row (GTK_WIDGET (window->job_list), name);
  graphene_rect_t bounds;

  if (!row || !gtk_widget_get_mapped (GTK_WIDGET (row))
      || !gtk_widget_compute_bounds (GTK_WIDGET (row), GTK_WIDGET (window->scroller), &bounds))
    return FALSE;
  return bounds.origin.y >= 0
         && bounds.origin.y + bounds.size.height
            <= gtk_widget_get_height (GTK_WIDGET (window->scroller)) + 1;
}

static void
add_waiting (PadlockWindow *window,
             const char    *dir,
             guint          from,
             guint          n)
{
  for (guint i = from; i < from + n; i++)
    {
      g_autofree char *name = g_strdup_printf ("file-%03u.txt", i);
      g_autofree char *path = g_build_filename (dir, name, NULL);

      at_run_job (window->queue, path, PADLOCK_DIRECTION_ENCRYPT, NULL, PASSPHRASE);
    }
  at_settle (400);
}

/* New rows come into sight; not after the user scrolled up; again once
 * they scrolled back to the end. */
static void
test_follow_new_rows (void)
{
  g_autofree char *dir = tu_new_dir ("rows-follow");
  PadlockWindow *window = at_new_window ();
  AtReader *reader = at_reader_new ();
  GtkAdjustment *adj = gtk_scrolled_window_get_vadjustment (window->scroller);

  pointer_away (reader);
  padlock_queue_set_max_running (window->queue, 0);     /* all wait */
  add_waiting (window, dir, 0, 30);
  g_assert_true (row_in_sight (window, "file-029.txt"));
  g_assert_true (at_list_end (window));
  add_waiting (window, dir, 30, 5);
  g_assert_true (row_in_sight (window, "file-034.txt"));

  /* The user goes back to the top: new rows leave the list there. */
  gtk_adjustment_set_value (adj, 0);
  at_settle (300);
  add_waiting (window, dir, 35, 5);
  g_assert_cmpfloat (gtk_adjustment_get_value (adj), ==, 0);
  g_assert_true (row_in_sight (window, "file-000.txt"));
  g_assert_false (row_in_sight (window, "file-039.txt"));

  /* Back at the end, it follows again. */
  gtk_adjustment_set_value (adj, gtk_adjustment_get_upper (adj));
  at_settle (300);
  add_waiting (window, dir, 40, 3);
  g_assert_true (row_in_sight (window, "file-042.txt"));

  padlock_queue_cancel_all (window->queue);
  at_settle (200);
  padlock_queue_set_max_running (window->queue, 0);
  at_reader_free (reader);
  at_close_window (window);
}

/* Whether a line of LAYOUT (its text wrapped) starts with "·". */
static gboolean
line_starts_with_dot (PangoLayout *layout)
{
  const char *text = pango_layout_get_text (layout);

  for (GSList *l = pango_layout_get_lines_readonly (layout); l; l = l->next)
    {
      PangoLayoutLine *line = l->data;

      if (g_str_has_prefix (text + line->start_index, "·"))
        return TRUE;
    }
  return FALSE;
}

/* The header's counts wrap between phrases, never before a "·": at
 * 360 px as drawn, and at every width the label could be given. */
static void
test_header_dots (void)
{
  g_autofree char *dir = tu_new_dir ("rows-header");
  g_autofree char *plain = at_write_random (dir, "done.txt", 1000);
  g_autofree char *missing = g_build_filename (dir, "gone.txt", NULL);
  g_autofree char *cancelled = at_write_random (dir, "cancelled.txt", 1000);
  g_autofree char *waiting = at_write_random (dir, "waiting.txt", 1000);
  PadlockWindow *window = at_new_window ();
  PadlockJob *job;
  PangoLayout *layout;
  guint tried = 0;

  at_run_job (window->queue, plain, PADLOCK_DIRECTION_ENCRYPT, NULL, PASSPHRASE);
  at_run_job (window->queue, missing, PADLOCK_DIRECTION_ENCRYPT, NULL, PASSPHRASE);
  g_assert_true (at_wait_queue_idle (window->queue, TIMEOUT_MS));
  padlock_queue_set_max_running (window->queue, 0);
  job = at_run_job (window->queue, cancelled, PADLOCK_DIRECTION_ENCRYPT, NULL, PASSPHRASE);
  padlock_job_cancel (job);
  at_run_job (window->queue, waiting, PADLOCK_DIRECTION_ENCRYPT, NULL, PASSPHRASE);
  window->earlier_batches = TRUE;
  padlock_window_update_summary (window);
  gtk_window_set_default_size (GTK_WINDOW (window), 360, 560);
  at_settle (500);
  layout = gtk_label_get_layout (window->files_label);
  g_test_message ("header: “%s”, %d lines at 360 px", gtk_label_get_text (window->files_label),
                  pango_layout_get_line_count (layout));
  g_assert_nonnull (strstr (gtk_label_get_text (window->files_label), "this"));
  g_assert_cmpint (pango_layout_get_line_count (layout), >=, 2);
  g_assert_false (line_starts_with_dot (layout));
  /* Every width from one phrase to the whole line. */
  {
    g_autoptr(PangoLayout) copy = pango_layout_copy (layout);
    int whole;

    pango_layout_set_width (copy, -1);
    pango_layout_get_pixel_size (copy, &whole, NULL);
    for (int w = whole / 6; w < whole; w += 2)
      {
        pango_layout_set_width (copy, w * PANGO_SCALE);
        if (pango_layout_get_line_count (copy) < 2)
          continue;
        tried++;
        if (line_starts_with_dot (copy))
          g_error ("at %d px the header wraps before a “·”", w);
      }
  }
  g_assert_cmpuint (tried, >, 10);
  padlock_queue_cancel_all (window->queue);
  padlock_queue_set_max_running (window->queue, 2);
  at_close_window (window);
}

static void
release_fifo (const char *path)
{
  int fd = open (path, O_WRONLY | O_NONBLOCK);

  ssize_t n;

  g_assert_cmpint (fd, >=, 0);
  /* EPIPE: the job opened the FIFO and has since let it go (cancelled
   * under load before this ran): nothing is left to release. */
  n = write (fd, "data\n", 5);
  if (n < 0)
    g_assert_cmpint (errno, ==, EPIPE);
  else
    g_assert_cmpint (n, ==, 5);
  close (fd);
}

static gboolean
job_is_queued_or_later (gpointer data)
{
  return padlock_job_get_state (data) != PADLOCK_JOB_CANCELLED;
}

/* §5: a cancelled job has Try Again, as a screen reader finds it; it
 * asks for the passphrase (the job let it go) and runs again; a job
 * that needs none (a signature with an unprotected key) runs again at
 * once. */
static void
test_cancelled_try_again (void)
{
  g_autofree char *dir = tu_new_dir ("rows-retry");
  g_autofree char *plain = at_write_random (dir, "budget.ods", 5000);
  g_autofree char *sealed = g_build_filename (dir, "budget.ods.gpg", NULL);
  g_autofree char *fifo = g_build_filename (dir, "held", NULL);
  g_autoptr(GFile) fifo_file = g_file_new_for_path (fifo);
  g_autoptr(PadlockSecret) secret = padlock_secret_new (PASSPHRASE);
  g_autoptr(PadlockJob) held = NULL;
  g_autoptr(PadlockJob) sign = NULL;
  g_autofree char *minutes = at_write_random (dir, "minutes.txt", 2000);
  g_autofree char *minutes_sig = g_build_filename (dir, "minutes.txt.sig", NULL);
  g_autofree char *buttons = NULL;
  g_autoptr(GBytes) back = NULL;
  PadlockWindow *window = at_new_window ();
  AtReader *reader = at_reader_new ();
  PadlockJobRow *row;
  PadlockJob *job;
  GtkWidget *retry;

  pointer_away (reader);
  /* One at a time, the first held on a FIFO: budget.ods waits. */
  g_assert_cmpint (mkfifo (fifo, 0600), ==, 0);
  padlock_queue_set_max_running (window->queue, 1);
  held = at_new_job (fifo_file, secret);
  padlock_queue_add (window->queue, held);
  job = at_run_job (window->queue, plain, PADLOCK_DIRECTION_ENCRYPT, NULL, PASSPHRASE);
  at_settle (200);
  g_assert_cmpint (padlock_job_get_state (job), ==, PADLOCK_JOB_QUEUED);
  padlock_job_cancel (job);
  at_settle (300);
  g_assert_cmpint (padlock_job_get_state (job), ==, PADLOCK_JOB_CANCELLED);
  buttons = at_reader_list (reader, "push button");
  g_assert_nonnull (strstr (buttons, "|Try budget.ods again|"));
  row = at_find_job_row (GTK_WIDGET (window->job_list), "budget.ods");
  retry = GTK_WIDGET (gtk_widget_get_template_child (GTK_WIDGET (row), PADLOCK_TYPE_JOB_ROW,
                                                    "retry_button"));
  g_assert_true (gtk_widget_get_visible (retry));
  g_assert_true (gtk_widget_activate (retry));
  at_answer (at_wait_dialog (window), PASSPHRASE);

  /* A detached signature needs no passphrase (Alice's key has none): it
   * waits again at once, no dialog. */
  {
    g_autoptr(PadlockKeyring) keyring = padlock_keyring_new (home->dir);
    g_autoptr(PadlockAgent) agent = padlock_agent_new (home->dir);
    g_autoptr(PadlockKey) alice = NULL;

    g_assert_true (at_wait_until (at_keyring_loaded, keyring, TIMEOUT_MS));
    alice = padlock_signer_choose_key (keyring, "alice@example.org");
    sign = new_job (minutes, PADLOCK_DIRECTION_SIGN);
    padlock_job_set_signing_key (sign, alice, agent, home->dir);
    padlock_queue_add (window->queue, sign);
    at_settle (200);
    padlock_job_cancel (sign);
    at_settle (300);
    g_assert_cmpint (padlock_job_get_state (sign), ==, PADLOCK_JOB_CANCELLED);
    g_clear_pointer (&buttons, g_free);
    buttons = at_reader_list (reader, "push button");
    g_assert_nonnull (strstr (buttons, "|Try minutes.txt again|"));
    g_assert_true (gtk_widget_activate_action (GTK_WIDGET (at_find_job_row (
                     GTK_WIDGET (window->job_list), "minutes.txt")), "row.retry", NULL));
    at_settle (300);
    g_assert_cmpint (padlock_job_get_state (sign), ==, PADLOCK_JOB_QUEUED);
  }
  g_assert_null (window->dialog);
  release_fifo (fifo);
  g_assert_true (at_wait_until (job_is_queued_or_later, job, TIMEOUT_MS));
  g_assert_true (at_wait_until (at_job_is_finished, job, TIMEOUT_MS));
  g_assert_no_error (padlock_job_get_error (job));
  g_assert_cmpint (padlock_job_get_state (job), ==, PADLOCK_JOB_DONE);
  back = at_gpg_decrypt (sealed, PASSPHRASE);
  g_assert_nonnull (back);
  g_assert_true (at_same_content (plain, back));
  g_assert_true (at_wait_until (at_job_is_finished, sign, TIMEOUT_MS));
  g_assert_no_error (padlock_job_get_error (sign));
  g_assert_true (g_file_test (minutes_sig, G_FILE_TEST_EXISTS));
  at_settle (200);
  g_clear_pointer (&buttons, g_free);
  buttons = at_reader_list (reader, "push button");
  g_assert_null (strstr (buttons, "Try budget.ods again"));
  g_assert_null (strstr (buttons, "Try minutes.txt again"));
  padlock_queue_set_max_running (window->queue, 2);
  at_reader_free (reader);
  at_close_window (window);
}

/* A row's place: its top and height in the window. */
typedef struct
{
  PadlockJob *job;
  float y, height;
} Place;

static void
collect_places (GtkWidget *widget,
                GtkWidget *window,
                GArray    *places)
{
  if (PADLOCK_IS_JOB_ROW (widget))
    {
      graphene_rect_t b;
      Place p = { padlock_job_row_get_job (PADLOCK_JOB_ROW (widget)), 0, 0 };

      if (p.job && gtk_widget_get_mapped (widget)
          && gtk_widget_compute_bounds (widget, window, &b))
        {
          p.y = b.origin.y;
          p.height = b.size.height;
          g_array_append_val (places, p);
        }
      return;
    }
  for (GtkWidget *c = gtk_widget_get_first_child (widget); c;
       c = gtk_widget_get_next_sibling (c))
    collect_places (c, window, places);
}

static GArray *
places_of (PadlockWindow *window)
{
  GArray *places = g_array_new (FALSE, FALSE, sizeof (Place));

  collect_places (GTK_WIDGET (window->job_list), GTK_WIDGET (window), places);
  return places;
}

/* §5: while the pointer is over the list, jobs that end (one done, one
 * cancelled, one done signed to Bob) move no row: each keeps its top and
 * its height; once the pointer leaves, the finished rows take one line. */
static void
test_steady_under_pointer (void)
{
  g_autofree char *dir = tu_new_dir ("rows-steady");
  const char *names[] = { "first", "second", "third" };
  g_autoptr(PadlockSecret) secret = padlock_secret_new (PASSPHRASE);
  g_autoptr(PadlockKeyring) keyring = padlock_keyring_new (home->dir);
  g_autoptr(PadlockAgent) agent = padlock_agent_new (home->dir);
  g_autoptr(PadlockKey) alice = NULL;
  g_autoptr(PadlockRecipients) recipients = NULL;
  g_autoptr(GArray) before = NULL;
  g_autoptr(GArray) after = NULL;
  g_autoptr(GArray) left = NULL;
  PadlockJob *jobs[3];
  PadlockKey *bob;
  PadlockWindow *window = at_new_window ();
  AtReader *reader = at_reader_new ();
  graphene_rect_t bounds;

  g_assert_true (at_wait_until (at_keyring_loaded, keyring, TIMEOUT_MS));
  alice = padlock_signer_choose_key (keyring, "alice@example.org");
  bob = at_key_of (keyring, bob_fpr);
  recipients = padlock_recipients_new (home->dir, &bob, 1, alice, FALSE, -1);
  padlock_queue_set_max_running (window->queue, 3);
  for (guint i = 0; i < 3; i++)
    {
      g_autofree char *path = g_build_filename (dir, names[i], NULL);
      g_autoptr(GFile) file = g_file_new_for_path (path);

      g_assert_cmpint (mkfifo (path, 0600), ==, 0);
      jobs[i] = at_new_job (file, i < 2 ? secret : NULL);
      if (i == 2)
        {
          padlock_job_set_recipients (jobs[i], recipients);
          padlock_job_set_signing_key (jobs[i], alice, agent, home->dir);
        }
      padlock_queue_add (window->queue, jobs[i]);
    }
  at_settle (500);
  g_assert_true (gtk_widget_compute_bounds (GTK_WIDGET (window->job_list),
                                            GTK_WIDGET (window), &bounds));
  /* Over the first row's name, as a user about to click its button. */
  at_move_pointer (reader, (int) (bounds.origin.x + bounds.size.width / 2),
                (int) (bounds.origin.y + 12));
  g_assert_true (window->pointer_in_list);
  before = places_of (window);
  g_assert_cmpuint (before->len, ==, 3);

  {
    g_autofree char *first = g_build_filename (dir, names[0], NULL);
    g_autofree char *third = g_build_filename (dir, names[2], NULL);

    g_autofree char *second = g_build_filename (dir, names[1], NULL);

    release_fifo (first);
    /* Stopped (the FIFO let go, or the job waits for it for ever). */
    padlock_job_cancel (jobs[1]);
    release_fifo (second);
    release_fifo (third);
  }
  for (guint i = 0; i < 3; i++)
    {
      if (!at_wait_until (at_job_is_finished, jobs[i], 20 * 1000))
        g_error ("%s: state %d, “%s”", names[i], padlock_job_get_state (jobs[i]),
                 padlock_job_get_detail (jobs[i]));
    }
  at_settle (500);
  g_assert_cmpint (padlock_job_get_state (jobs[0]), ==, PADLOCK_JOB_DONE);
  g_assert_cmpint (padlock_job_get_state (jobs[1]), ==, PADLOCK_JOB_CANCELLED);
  g_assert_no_error (padlock_job_get_error (jobs[2]));
  g_assert_cmpint (padlock_job_get_state (jobs[2]), ==, PADLOCK_JOB_DONE);
  g_assert_true (window->pointer_in_list);
  after = places_of (window);
  g_assert_cmpuint (after->len, ==, before->len);
  for (guint i = 0; i < before->len; i++)
    {
      Place *b = &g_array_index (before, Place, i);
      Place *a = &g_array_index (after, Place, i);

      g_test_message ("row %u: top %.0f → %.0f, height %.0f → %.0f", i, b->y, a->y,
                      b->height, a->height);
      g_assert_true (a->job == b->job);
      g_assert_cmpfloat (a->y, ==, b->y);
      g_assert_cmpfloat (a->height, ==, b->height);
    }
  /* The pointer gone, they take one line, the signed one saying so. */
  pointer_away (reader);
  g_assert_false (window->pointer_in_list);
  left = places_of (window);
  for (guint i = 0; i < left->len; i++)
    g_assert_cmpfloat (g_array_index (left, Place, i).height, <,
                       g_array_index (before, Place, i).height);
  {
    g_autofree char *panels = at_reader_list (reader, "panel");

    g_assert_nonnull (strstr (panels, "third, Encrypted "));
    g_assert_nonnull (strstr (panels, "Signed as Alice · for Bob <bob@example.org> and you"));
  }
  for (guint i = 0; i < 3; i++)
    g_object_unref (jobs[i]);
  padlock_queue_set_max_running (window->queue, 2);
  at_reader_free (reader);
  at_close_window (window);
}

static gboolean
is_null (gpointer data)
{
  return *(gpointer *) data == NULL;
}

/* §5: Ctrl+Q (app.quit) while a job runs asks "Stop 1 running job?";
 * the job then ends by itself: the question goes and the window closes,
 * as asked.  Last: it takes the window. */
static void
test_quit_when_done (void)
{
  g_autofree char *dir = tu_new_dir ("rows-quit");
  g_autofree char *fifo = g_build_filename (dir, "held", NULL);
  g_autoptr(GFile) file = g_file_new_for_path (fifo);
  g_autoptr(PadlockSecret) secret = padlock_secret_new (PASSPHRASE);
  g_autoptr(PadlockJob) job = NULL;
  g_autofree char *labels = NULL;
  PadlockWindow *window = at_new_window ();
  gpointer watched = window;
  AtReader *reader = at_reader_new ();

  g_object_add_weak_pointer (G_OBJECT (window), &watched);
  g_assert_cmpint (mkfifo (fifo, 0600), ==, 0);
  job = at_new_job (file, secret);
  padlock_queue_add (window->queue, job);
  at_settle (300);
  g_action_group_activate_action (G_ACTION_GROUP (at_application ()), "quit", NULL);
  at_settle (300);
  labels = at_reader_list (reader, "label");
  g_assert_nonnull (strstr (labels, "|Stop 1 running job?|"));
  g_assert_nonnull (watched);
  release_fifo (fifo);
  g_assert_true (at_wait_until (at_job_is_finished, job, TIMEOUT_MS));
  g_assert_cmpint (padlock_job_get_state (job), ==, PADLOCK_JOB_DONE);
  g_assert_true (at_wait_until (is_null, &watched, 10 * 1000));
  g_assert_null (at_find_message_dialog ());
  at_reader_free (reader);
}

int
main (int argc, char **argv)
{
  int status;

  g_setenv ("GTK_A11Y", "atspi", TRUE);
  tu_init (&argc, &argv);
  home = tg_home_new ();
  alice_fpr = tg_gen_encryption_key (home, "Alice <alice@example.org>", "ed25519",
                                     "cv25519", "never", NULL);
  bob_fpr = tg_gen_encryption_key (home, "Bob <bob@example.org>", "ed25519",
                                   "cv25519", "never", NULL);
  g_setenv ("GNUPGHOME", home->dir, TRUE);
  at_application ();
  g_test_add_func ("/rows/signed-as", test_signed_as);
  g_test_add_func ("/rows/sizes-whole", test_sizes_whole);
  g_test_add_func ("/rows/deleted", test_deleted);
  g_test_add_func ("/rows/follow-new-rows", test_follow_new_rows);
  g_test_add_func ("/rows/header-dots", test_header_dots);
  g_test_add_func ("/rows/cancelled-try-again", test_cancelled_try_again);
  g_test_add_func ("/rows/steady-under-pointer", test_steady_under_pointer);
  g_test_add_func ("/rows/quit-when-done", test_quit_when_done);
  status = g_test_run ();
  g_clear_pointer (&home, tg_home_free);
  return status;
}
