/* test-app-a11y.c - the window as a screen reader and the keyboard reach
 * it: the accessibility tree over AT-SPI (tests/a11y-reader), keys
 * pressed through the X server */
#include <fcntl.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <glib/gstdio.h>

#include "app-testutil.h"
#include "padlock-format.h"
#include "padlock-job-row.h"

#define PASSPHRASE "tulip-orbit-canyon-42"
#define TIMEOUT_MS (180 * 1000)
#define N_FILES 201

/* What the reader says has the focus, logged with the tree when it is
 * not what a test expects. */
static char *
focus_of (AtReader *reader)
{
  char *focus = at_reader_focus (reader);

  g_test_message ("focus: %s", focus);
  return focus;
}

static void
log_tree (AtReader *reader)
{
  g_auto(GStrv) tree = at_reader_ask (reader, "tree all");
  g_autofree char *text = g_strjoinv ("\n", tree);

  g_test_message ("%s", text);
}

/* Tabs from wherever the focus is until it is on a row of the list (a
 * row's name starts with its file's); at most a window's worth of
 * stops. */
static char *
tab_into_list (AtReader   *reader,
               const char *first_name)
{
  for (guint i = 0; i < 12; i++)
    {
      g_autofree char *focus = focus_of (reader);

      if (strstr (focus, first_name))
        return g_steal_pointer (&focus);
      at_reader_key (reader, "Tab");
    }
  log_tree (reader);
  g_error ("Tab never reached the row of %s", first_name);
}

/* "ROLE\tNAME": the name, after the role. */
static const char *
name_part (const char *focus)
{
  const char *tab = strchr (focus, '\t');

  return tab ? tab + 1 : "";
}

/* Presses KEY: the reader then names what has the focus PREFIX...
 * within 10 s (the key goes through the X server, and the reader answers
 * at once from the focus events). */
static void
press_expecting (AtReader   *reader,
                 const char *key,
                 const char *prefix)
{
  g_autofree char *focus = NULL;
  gint64 end;

  at_reader_key (reader, key);
  end = g_get_monotonic_time () + 10 * G_USEC_PER_SEC;
  focus = focus_of (reader);
  while (!g_str_has_prefix (name_part (focus), prefix)
         && g_get_monotonic_time () < end)
    {
      at_settle (100);
      g_free (focus);
      focus = focus_of (reader);
    }
  g_assert_true (g_str_has_prefix (name_part (focus), prefix));
}

/* Whether NAME holds a mnemonic's underscore ("_Open"), not one inside
 * a word ("file_200"). */
static gboolean
has_mnemonic (const char *name)
{
  for (const char *u = strchr (name, '_'); u; u = strchr (u + 1, '_'))
    if ((u == name || u[-1] == ' ') && g_ascii_isalnum (u[1]))
      return TRUE;
  return FALSE;
}

/* 201 decrypted files: the keyboard alone goes down the rows with the
 * arrow keys and End, up to row 200, Tabs into it, reaches its Open and activates it; every
 * row, and every button, has a name a screen reader can say. */
static void
test_keyboard_rows (void)
{
  g_autofree char *dir = tu_new_dir ("keyboard");
  g_autofree char *plain = at_write_random (dir, "plain", 4096);
  g_autofree char *message = g_build_filename (dir, "message.gpg", NULL);
  g_autoptr(GPtrArray) paths = g_ptr_array_new_with_free_func (g_free);
  g_autoptr(GAppInfo) handler = g_app_info_get_default_for_type ("application/octet-stream",
                                                                  FALSE);
  PadlockWindow *window;
  AtReader *reader;
  g_autofree char *focus = NULL;
  g_auto(GStrv) buttons = NULL;

  if (handler)
    {
      g_test_skip ("this system opens any file: Open would launch it");
      return;
    }
  at_gpg_encrypt (plain, message, PASSPHRASE, NULL);
  for (guint i = 1; i <= N_FILES; i++)
    {
      g_autofree char *name = g_strdup_printf ("file_%03u.padlocktest.gpg", i);
      char *path = g_build_filename (dir, name, NULL);

      tu_copy_file (message, path);
      g_ptr_array_add (paths, path);
    }
  g_unlink (message);
  g_unlink (plain);
  g_ptr_array_add (paths, NULL);

  window = at_new_window ();
  reader = at_reader_new ();
  at_drop (window, (const char *const *) paths->pdata);
  at_answer (at_wait_dialog (window), PASSPHRASE);
  g_assert_true (at_wait_queue_idle (window->queue, TIMEOUT_MS));
  at_focus_window (GTK_WINDOW (window));
  at_settle (200);

  /* A row says its file and its state. */
  focus = tab_into_list (reader, "file_001.padlocktest.gpg");
  g_assert_true (g_str_has_prefix (name_part (focus),
                                   "file_001.padlocktest.gpg, Decrypted"));
  g_clear_pointer (&focus, g_free);
  press_expecting (reader, "Down", "file_002.padlocktest.gpg, Decrypted");
  /* To the end, and one up (200 presses of Down would take minutes on a
   * loaded machine; each one is a round trip through the X server). */
  press_expecting (reader, "End", "file_201.padlocktest.gpg, Decrypted");
  press_expecting (reader, "Up", "file_200.padlocktest.gpg, Decrypted");

  /* Into the row: Show in Files, then Open. */
  at_reader_key (reader, "Tab");
  focus = focus_of (reader);
  g_assert_cmpstr (focus, ==, "push button\tShow file_200.padlocktest in Files");
  g_clear_pointer (&focus, g_free);
  at_reader_key (reader, "Tab");
  focus = focus_of (reader);
  g_assert_cmpstr (focus, ==, "push button\tOpen file_200.padlocktest");
  g_clear_pointer (&focus, g_free);
  /* Nothing opens that type here: the try shows up as the notice. */
  g_clear_pointer (&window->last_notice, g_free);
  at_reader_key (reader, "Return");
  g_assert_true (g_str_has_prefix (at_wait_notice (window), "Could not open the file: "));

  /* Every button in sight has a name, in words (GTK 4.8 puts a
   * mnemonic's "_Open" in a name it makes up). */
  buttons = at_reader_ask (reader, "list push button");
  g_assert_cmpuint (g_strv_length (buttons), >, 3);
  for (guint i = 0; buttons[i]; i++)
    {
      g_test_message ("button: %s", buttons[i]);
      g_assert_cmpstr (buttons[i], !=, "");
      g_assert_false (has_mnemonic (buttons[i]));
    }
  {
    g_auto(GStrv) toggles = at_reader_ask (reader, "list toggle button");

    for (guint i = 0; toggles[i]; i++)
      {
        g_assert_cmpstr (toggles[i], !=, "");
        g_assert_false (has_mnemonic (toggles[i]));
      }
  }

  at_reader_free (reader);
  at_close_window (window);
}

/* Delete cancels the job of the row that has the focus, and only it. */
static void
test_delete_cancels (void)
{
  g_autofree char *dir = tu_new_dir ("delete");
  g_autofree char *fifo = g_build_filename (dir, "held", NULL);
  g_autofree char *a = at_write_random (dir, "a.padlocktest", 1000);
  g_autofree char *b = at_write_random (dir, "b.padlocktest", 1000);
  PadlockWindow *window = at_new_window ();
  AtReader *reader = at_reader_new ();
  g_autoptr(GFile) fifo_file = g_file_new_for_path (fifo);
  g_autoptr(GFile) a_file = g_file_new_for_path (a);
  g_autoptr(GFile) b_file = g_file_new_for_path (b);
  g_autoptr(PadlockSecret) secret = padlock_secret_new (PASSPHRASE);
  g_autoptr(PadlockJob) held = NULL;
  g_autoptr(PadlockJob) job_a = NULL;
  g_autoptr(PadlockJob) job_b = NULL;
  g_autofree char *focus = NULL;
  int fd;

  /* The first job reads a FIFO that nobody writes yet: it runs until the
   * test lets it go, and A and B wait behind it. */
  g_assert_cmpint (mkfifo (fifo, 0600), ==, 0);
  padlock_queue_set_max_running (window->queue, 1);
  held = at_new_job (fifo_file, secret);
  job_a = at_new_job (a_file, secret);
  job_b = at_new_job (b_file, secret);
  padlock_queue_add (window->queue, held);
  padlock_queue_add (window->queue, job_a);
  padlock_queue_add (window->queue, job_b);
  at_focus_window (GTK_WINDOW (window));
  at_settle (300);
  g_assert_cmpint (padlock_job_get_state (job_a), ==, PADLOCK_JOB_QUEUED);

  focus = tab_into_list (reader, "held");
  g_clear_pointer (&focus, g_free);
  at_reader_key (reader, "Down");
  at_reader_key (reader, "Down");
  focus = focus_of (reader);
  g_assert_true (g_str_has_prefix (name_part (focus), "b.padlocktest, Waiting"));
  at_reader_key (reader, "Delete");
  g_assert_cmpint (padlock_job_get_state (job_b), ==, PADLOCK_JOB_CANCELLED);
  g_assert_cmpint (padlock_job_get_state (job_a), ==, PADLOCK_JOB_QUEUED);
  g_assert_false (padlock_job_is_finished (held));

  /* Let the FIFO's job go: an empty input, and A after it. */
  fd = open (fifo, O_WRONLY | O_NONBLOCK);
  if (fd >= 0)
    close (fd);
  padlock_queue_cancel_all (window->queue);
  g_assert_true (at_wait_queue_idle (window->queue, TIMEOUT_MS));
  padlock_queue_set_max_running (window->queue, 0);
  at_reader_free (reader);
  at_close_window (window);
}

#define RLO "\xe2\x80\xae"     /* U+202E RIGHT-TO-LEFT OVERRIDE */
#define FSI "\xe2\x81\xa8"
#define PDI "\xe2\x81\xa9"
#define WARNING "This name contains characters that change how it looks"

/* No text a screen reader finds, nor a label, holds a U+202E itself. */
static void
assert_no_override (AtReader *reader)
{
  g_auto(GStrv) tree = at_reader_ask (reader, "tree");

  for (guint i = 0; tree[i]; i++)
    g_assert_null (strstr (tree[i], RLO));
}

/* A file named "photo<U+202E>gpj.exe.gpg" (it draws as
 * "photoexe.jpg.gpg"): the dialog, the row, its tooltip and what it says
 * to a screen reader show the override escaped, each name in bidi
 * isolates, and the row warns; a toast does the same. */
static void
test_hostile_names (void)
{
  g_autofree char *dir = tu_new_dir ("names");
  g_autofree char *plain = at_write_random (dir, "plain", 1000);
  g_autofree char *message = g_build_filename (dir, "photo" RLO "gpj.exe.gpg", NULL);
  g_autofree char *missing = g_build_filename (dir, "gone" RLO "txt.gpg", NULL);
  g_autofree char *labels = NULL;
  g_autofree char *images = NULL;
  g_autofree char *panels = NULL;
  g_autofree char *buttons = NULL;
  const char *tooltip;
  const char *paths[] = { message, NULL };
  const char *missing_paths[] = { missing, NULL };
  PadlockWindow *window = at_new_window ();
  AtReader *reader = at_reader_new ();
  PadlockPassphraseDialog *dialog;
  GtkWidget *row;

  at_gpg_encrypt (plain, message, PASSPHRASE, NULL);
  g_unlink (plain);
  at_drop (window, paths);
  dialog = at_wait_dialog (window);
  at_settle (200);
  labels = at_reader_list (reader, "label");
  g_assert_nonnull (strstr (labels, "Enter the passphrase for "
                                    FSI "photo\\u202Egpj.exe.gpg" PDI));
  assert_no_override (reader);
  g_clear_pointer (&labels, g_free);
  /* The dialog's title (its header bar's label, before the heading)
   * names the file; its button, the action: "Decrypt" once, on it. */
  {
    g_autofree char *title_labels = at_reader_list (reader, "label");
    g_autofree char *buttons_now = at_reader_list (reader, "push button");

    g_assert_nonnull (strstr (title_labels, "|Cancel|" FSI "photo\\u202Egpj.exe.gpg" PDI
                                            "|Decrypt|Enter the passphrase for "));
    g_assert_nonnull (strstr (buttons_now, "Decrypt"));
  }
  at_answer (dialog, PASSPHRASE);
  g_assert_true (at_wait_queue_idle (window->queue, TIMEOUT_MS));
  at_settle (200);

  labels = at_reader_list (reader, "label");
  g_assert_nonnull (strstr (labels, "|" FSI "photo\\u202Egpj.exe.gpg" PDI "|"));
  images = at_reader_list (reader, "image");
  g_assert_nonnull (strstr (images, WARNING));
  panels = at_reader_list (reader, "panel");
  g_assert_nonnull (strstr (panels, "photo\\u202Egpj.exe.gpg, Decrypted"));
  buttons = at_reader_list (reader, "push button");
  g_assert_nonnull (strstr (buttons, "Show photo\\u202Egpj.exe in Files"));
  g_assert_nonnull (strstr (buttons, "Open photo\\u202Egpj.exe"));
  assert_no_override (reader);
  /* What it wrote, in the verdict's tooltip. */
  row = gtk_widget_get_first_child (GTK_WIDGET (window->job_list));
  while (row && !PADLOCK_IS_JOB_ROW (row))
    row = gtk_widget_get_first_child (row) ? gtk_widget_get_first_child (row)
                                           : gtk_widget_get_next_sibling (row);
  g_assert_nonnull (row);
  tooltip = gtk_widget_get_tooltip_text (GTK_WIDGET (gtk_widget_get_template_child (
                                           row, PADLOCK_TYPE_JOB_ROW, "verdict_label")));
  g_assert_nonnull (strstr (tooltip, "→ " FSI "photo\\u202Egpj.exe" PDI));
  g_assert_null (strstr (tooltip, RLO));

  /* A toast names the file the same way. */
  g_clear_pointer (&window->last_notice, g_free);
  at_drop (window, missing_paths);
  g_assert_true (g_str_has_prefix (at_wait_notice (window),
                                   "Cannot read " FSI "gone\\u202Etxt.gpg" PDI ": "));
  g_clear_pointer (&labels, g_free);
  labels = at_reader_list (reader, "label");
  g_assert_nonnull (strstr (labels, "Cannot read " FSI "gone\\u202Etxt.gpg" PDI));
  assert_no_override (reader);

  at_reader_free (reader);
  at_close_window (window);
}

static void
note_rate (PadlockJob *job,
           GParamSpec *pspec,
           double     *highest)
{
  PadlockJobState state = padlock_job_get_state (job);

  /* What its row shows: a running job's rate, a finished one's average. */
  if (state == PADLOCK_JOB_RUNNING || state == PADLOCK_JOB_CHECKING_OUTPUT
      || state == PADLOCK_JOB_DONE)
    *highest = MAX (*highest, padlock_job_get_throughput (job));
}

static void
watch_rates (PadlockQueue *queue,
             guint         position,
             guint         removed,
             guint         added,
             double       *highest)
{
  for (guint i = position; i < position + added; i++)
    {
      g_autoptr(PadlockJob) job = g_list_model_get_item (G_LIST_MODEL (queue), i);

      g_signal_connect (job, "notify::throughput", G_CALLBACK (note_rate), highest);
      g_signal_connect (job, "notify::state", G_CALLBACK (note_rate), highest);
    }
}

/* The row of the job named NAME, as the reader reads it ("NAME, ..."). */
static char *
row_said (AtReader   *reader,
          const char *name)
{
  g_auto(GStrv) panels = at_reader_ask (reader, "list panel");
  g_autofree char *prefix = g_strconcat (name, ", ", NULL);

  for (guint i = 0; panels[i]; i++)
    if (g_str_has_prefix (panels[i], prefix))
      return g_strdup (panels[i]);
  log_tree (reader);
  g_error ("no row for %s", name);
}

/* Numbers that agree: a folder of 212 entries finishes with its size and
 * a rate; the graph's peak is the highest rate a row showed; the header
 * keeps each count whole, and says "this session" once the list holds a
 * second batch. */
static void
test_numbers (void)
{
  g_autofree char *dir = tu_new_dir ("numbers");
  g_autofree char *folder = g_build_filename (dir, "Photos", NULL);
  g_autofree char *big = at_write_random (dir, "big.bin", 24 * 1024 * 1024);
  g_autofree char *small = at_write_random (dir, "small.bin", 300 * 1024);
  g_autofree char *said = NULL;
  g_autofree char *files = NULL;
  g_autofree char *want_peak = NULL;
  g_autofree char *want_description = NULL;
  g_auto(GStrv) images = NULL;
  const char *folder_paths[] = { folder, NULL };
  const char *file_paths[] = { big, small, NULL };
  PadlockWindow *window = at_new_window ();
  AtReader *reader = at_reader_new ();
  double highest = 0;
  gboolean graph_found = FALSE;
  /* g_format_size puts a no-break space before the unit; so does the
   * row before a rate's. */
  GRegex *finished = g_regex_new ("^Photos, Encrypted [0-9.,]+\u00a0(bytes|kB|MB) at "
                                  "[0-9.,]+\u00a0(B|kB|MB|GB)/s$", 0, 0, NULL);

  g_signal_connect (window->queue, "items-changed", G_CALLBACK (watch_rates), &highest);
  g_mkdir (folder, 0700);
  for (guint i = 0; i < 211; i++)
    {
      g_autofree char *name = g_strdup_printf ("IMG_%04u.jpg", i);
      g_free (at_write_random (folder, name, 2000 + i));
    }
  {
    g_autofree char *sub = g_build_filename (folder, "Trip", NULL);
    g_mkdir (sub, 0700);        /* the 212th entry */
  }
  at_drop (window, folder_paths);
  at_answer (at_wait_dialog (window), PASSPHRASE);
  g_assert_true (at_wait_queue_idle (window->queue, TIMEOUT_MS));
  at_settle (300);
  said = row_said (reader, "Photos");
  g_test_message ("folder row: %s", said);
  g_assert_true (g_regex_match (finished, said, 0, NULL));
  g_assert_null (strstr (said, "  "));
  g_assert_null (strstr (said, " 0\u00a0B/s"));

  /* A second batch: a big file and a small one. */
  at_drop (window, file_paths);
  at_answer (at_wait_dialog (window), PASSPHRASE);
  g_assert_true (at_wait_queue_idle (window->queue, TIMEOUT_MS));
  at_settle (500);
  g_assert_cmpfloat (highest, >, 0);
  want_peak = padlock_format_rate (highest);
  want_description = g_strconcat ("peak ", want_peak, NULL);
  images = at_reader_ask (reader, "describe image");
  for (guint i = 0; images[i]; i++)
    if (g_str_has_prefix (images[i], "Throughput over the last 30 seconds\t"))
      {
        g_test_message ("graph: %s", images[i]);
        g_assert_cmpstr (strchr (images[i], '\t') + 1, ==, want_description);
        graph_found = TRUE;
      }
  g_assert_true (graph_found);

  files = at_reader_list (reader, "label");
  g_assert_nonnull (strstr (files, "|3\u00a0done\u00a0· this\u00a0session|"));
  g_regex_unref (finished);
  at_reader_free (reader);
  at_close_window (window);
}

static guint
count_of (AtReader   *reader,
          const char *role)
{
  g_autofree char *command = g_strconcat ("list ", role, NULL);
  g_auto(GStrv) found = at_reader_ask (reader, command);

  return g_strv_length (found);
}

/* Where did my file go: a finished row names what it wrote in its second
 * line ("→ a (1).jpg"), a failed one says nothing was written, and a row
 * that finishes under the pointer keeps its height until the pointer
 * leaves the list. */
static void
test_where_it_went (void)
{
  g_autofree char *dir = tu_new_dir ("went");
  g_autofree char *plain = at_write_random (dir, "a.jpg", 3000);
  g_autofree char *message = g_build_filename (dir, "a.jpg.gpg", NULL);
  g_autofree char *wrong = g_build_filename (dir, "b.jpg.gpg", NULL);
  g_autofree char *fifo = g_build_filename (dir, "held", NULL);
  g_autofree char *labels = NULL;
  g_autoptr(GFile) fifo_file = g_file_new_for_path (fifo);
  g_autoptr(PadlockSecret) secret = padlock_secret_new (PASSPHRASE);
  g_autoptr(PadlockJob) held = NULL;
  const char *paths[] = { message, NULL };
  const char *wrong_paths[] = { wrong, NULL };
  PadlockWindow *window = at_new_window ();
  AtReader *reader = at_reader_new ();
  PadlockPassphraseDialog *dialog;
  graphene_rect_t bounds;
  const char *tooltip = NULL;
  int fd;

  at_gpg_encrypt (plain, message, PASSPHRASE, NULL);
  at_gpg_encrypt (plain, wrong, "another passphrase", NULL);
  at_drop (window, paths);
  at_answer (at_wait_dialog (window), PASSPHRASE);
  g_assert_true (at_wait_queue_idle (window->queue, TIMEOUT_MS));
  at_settle (200);
  labels = at_reader_list (reader, "label");
  g_assert_nonnull (strstr (labels, "|→ " FSI "a (1).jpg" PDI "|"));

  /* Show in Files, with no FileManager1 on this bus and nothing to open
   * a folder with: where the file is, in plain words. */
  if (!g_app_info_get_default_for_type ("inode/directory", FALSE))
    {
      g_autoptr(PadlockJob) first = g_list_model_get_item (G_LIST_MODEL (window->queue), 0);
      g_autofree char *expected = g_strconcat ("No file manager could show the file. It is in "
                                               FSI, dir, PDI, NULL);
      GtkWidget *row = gtk_widget_get_first_child (GTK_WIDGET (window->job_list));

      while (row && !PADLOCK_IS_JOB_ROW (row))
        row = gtk_widget_get_first_child (row);
      g_assert_nonnull (row);
      g_assert_true (padlock_job_row_get_job (PADLOCK_JOB_ROW (row)) == first);
      g_clear_pointer (&window->last_notice, g_free);
      g_assert_true (gtk_widget_activate_action (row, "row.show", NULL));
      g_assert_cmpstr (at_wait_notice (window), ==, expected);
      g_clear_pointer (&labels, g_free);
      labels = at_reader_list (reader, "label");
      g_assert_nonnull (strstr (labels, expected));
    }
  else
    g_test_message ("this system opens folders: Show in Files not tried");

  /* A wrong passphrase, asked again and then given up: nothing written. */
  at_drop (window, wrong_paths);
  at_answer (at_wait_dialog (window), PASSPHRASE);
  dialog = at_wait_dialog (window);
  gtk_window_close (GTK_WINDOW (dialog));
  g_assert_true (at_wait_queue_idle (window->queue, TIMEOUT_MS));
  at_settle (200);
  for (GtkWidget *w = gtk_widget_get_first_child (GTK_WIDGET (window->job_list)); w;
       w = gtk_widget_get_next_sibling (w))
    {
      GtkWidget *row = gtk_widget_get_first_child (w);

      if (row && PADLOCK_IS_JOB_ROW (row)
          && padlock_job_get_state (padlock_job_row_get_job (PADLOCK_JOB_ROW (row)))
             == PADLOCK_JOB_FAILED)
        tooltip = gtk_widget_get_tooltip_text (GTK_WIDGET (gtk_widget_get_template_child (
                                                 row, PADLOCK_TYPE_JOB_ROW, "verdict_label")));
    }
  g_assert_nonnull (tooltip);
  g_test_message ("failed row's tooltip: %s", tooltip);
  g_assert_true (g_str_has_prefix (tooltip, "Nothing was written\n"));
  g_assert_null (strstr (tooltip, "→"));

  /* A job that runs until the test lets it go, with the pointer over
   * the list (the window is at the screen's corner: Xvfb has no window
   * manager to move it). */
  g_assert_cmpint (mkfifo (fifo, 0600), ==, 0);
  held = at_new_job (fifo_file, secret);
  padlock_queue_add (window->queue, held);
  at_settle (300);
  g_assert_true (gtk_widget_compute_bounds (GTK_WIDGET (window->job_list),
                                            GTK_WIDGET (window), &bounds));
  at_move_pointer (reader, (int) (bounds.origin.x + bounds.size.width / 2),
                (int) (bounds.origin.y + 20));
  g_assert_true (window->pointer_in_list);
  g_assert_cmpuint (count_of (reader, "progress bar"), ==, 1);
  fd = open (fifo, O_WRONLY | O_NONBLOCK);
  g_assert_cmpint (fd, >=, 0);
  close (fd);
  g_assert_true (at_wait_queue_idle (window->queue, TIMEOUT_MS));
  at_settle (300);
  g_assert_cmpint (padlock_job_get_state (held), ==, PADLOCK_JOB_DONE);
  /* Finished under the pointer: its full layout stays. */
  g_assert_cmpuint (count_of (reader, "progress bar"), ==, 1);
  /* The pointer gone, it takes one line (and the name of its output). */
  at_move_pointer (reader, 1200, 1000);
  g_assert_false (window->pointer_in_list);
  g_assert_cmpuint (count_of (reader, "progress bar"), ==, 0);
  g_clear_pointer (&labels, g_free);
  labels = at_reader_list (reader, "label");
  g_assert_nonnull (strstr (labels, "|→ " FSI "held.gpg" PDI "|"));

  at_reader_free (reader);
  at_close_window (window);
}

static void
release_fifo (const char *path)
{
  int fd = open (path, O_WRONLY | O_NONBLOCK);

  g_assert_cmpint (fd, >=, 0);
  close (fd);
}

/* The quit question follows the jobs: "Stop 2 running jobs?", then "Stop
 * 1 running job?" when one ends; when none is left, the window closes. */
static void
test_quit_follows (void)
{
  g_autofree char *dir = tu_new_dir ("quit");
  g_autofree char *one = g_build_filename (dir, "one", NULL);
  g_autofree char *two = g_build_filename (dir, "two", NULL);
  g_autoptr(GFile) one_file = g_file_new_for_path (one);
  g_autoptr(GFile) two_file = g_file_new_for_path (two);
  g_autoptr(PadlockSecret) secret = padlock_secret_new (PASSPHRASE);
  g_autoptr(PadlockJob) job_one = NULL;
  g_autoptr(PadlockJob) job_two = NULL;
  g_autofree char *labels = NULL;
  PadlockWindow *window = at_new_window ();
  AtReader *reader = at_reader_new ();

  g_assert_cmpint (mkfifo (one, 0600), ==, 0);
  g_assert_cmpint (mkfifo (two, 0600), ==, 0);
  padlock_queue_set_max_running (window->queue, 2);
  job_one = at_new_job (one_file, secret);
  job_two = at_new_job (two_file, secret);
  padlock_queue_add (window->queue, job_one);
  padlock_queue_add (window->queue, job_two);
  at_settle (300);
  g_assert_true (padlock_window_ask_to_quit (window, FALSE));
  at_settle (300);
  labels = at_reader_list (reader, "label");
  g_assert_nonnull (strstr (labels, "|Stop 2 running jobs?|"));
  g_clear_pointer (&labels, g_free);

  release_fifo (one);
  g_assert_true (at_wait_until (at_job_is_finished, job_one, TIMEOUT_MS));
  at_settle (300);
  labels = at_reader_list (reader, "label");
  g_assert_nonnull (strstr (labels, "|Stop 1 running job?|"));
  g_assert_null (strstr (labels, "Stop 2"));
  g_clear_pointer (&labels, g_free);

  /* None left to stop: the question is moot, and the window closes as
   * asked (issue 37 §5). */
  g_object_add_weak_pointer (G_OBJECT (window), (gpointer *) &window);
  release_fifo (two);
  g_assert_true (at_wait_until (at_job_is_finished, job_two, TIMEOUT_MS));
  for (guint i = 0; i < 100 && window; i++)
    at_settle (100);
  g_assert_null (window);
  labels = at_reader_list (reader, "label");
  g_assert_null (strstr (labels, "running job"));
  at_reader_free (reader);
}

/* The Keyboard Shortcuts window lists every shortcut, Ctrl+Shift+O for
 * folders and Delete for a row among them, as a screen reader reads it. */
static void
test_shortcuts_window (void)
{
  PadlockWindow *window = at_new_window ();
  AtReader *reader = at_reader_new ();
  g_autofree char *text = NULL;

  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (window), "win.show-help-overlay",
                                             NULL));
  at_settle (500);
  text = at_reader_list (reader, "label");
  /* Each shortcut's keys come before its title. */
  g_assert_nonnull (strstr (text, "|Shift|+|Ctrl|+|O|Choose folders to encrypt|"));
  g_assert_nonnull (strstr (text, "|Delete|Cancel the selected file|"));
  at_reader_free (reader);
  gtk_window_destroy (GTK_WINDOW (gtk_application_window_get_help_overlay (
                                    GTK_APPLICATION_WINDOW (window))));
  at_close_window (window);
}

int
main (int    argc,
      char **argv)
{
  /* GTK's accessibility over AT-SPI, not its test context (read when
   * the first widget is made). */
  g_setenv ("GTK_A11Y", "atspi", TRUE);
  tu_init (&argc, &argv);
  at_application ();
  g_test_add_func ("/a11y/keyboard-rows", test_keyboard_rows);
  g_test_add_func ("/a11y/delete-cancels", test_delete_cancels);
  g_test_add_func ("/a11y/shortcuts-window", test_shortcuts_window);
  g_test_add_func ("/a11y/hostile-names", test_hostile_names);
  g_test_add_func ("/a11y/numbers", test_numbers);
  g_test_add_func ("/a11y/where-it-went", test_where_it_went);
  g_test_add_func ("/a11y/quit-follows", test_quit_follows);
  return g_test_run ();
}
