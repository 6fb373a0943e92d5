/* test-app-window.c - the window, driven as a user would: drops, the
 * passphrase dialog, rows, preferences */
#include <string.h>
#include <glib/gstdio.h>

#include "app-testutil.h"
#include "job.h"
#include "padlock-error.h"
#include "padlock-job-row.h"
#include "padlock-preferences-window-private.h"

#define PASSPHRASE "tulip-orbit-canyon-42"
#define OTHER_PASSPHRASE "a different one, 17"
#define TIMEOUT_MS (180 * 1000)

static GBytes *
read_bytes (const char *path)
{
  char *data;
  gsize len;

  g_assert_true (g_file_get_contents (path, &data, &len, NULL));
  return g_bytes_new_take (data, len);
}

static void
close_window (PadlockWindow *window)
{
  gtk_window_destroy (GTK_WINDOW (window));
  at_settle (50);
}

/* A mixed drop: the plain file is encrypted, the message decrypted, each
 * with its own passphrase dialog; gpg reads what was encrypted. */
static void
test_mixed_drop (void)
{
  g_autofree char *dir = at_new_dir ("mixed");
  g_autofree char *plain = at_write_random (dir, "notes.txt", 300 * 1024);
  g_autofree char *source = at_write_random (dir, "budget.ods", 100 * 1024);
  g_autofree char *message = g_build_filename (dir, "budget.ods.gpg", NULL);
  g_autofree char *encrypted = g_build_filename (dir, "notes.txt.gpg", NULL);
  g_autoptr(GBytes) plain_bytes = read_bytes (plain);
  g_autoptr(GBytes) source_bytes = read_bytes (source);
  g_autoptr(GBytes) decrypted = NULL;
  PadlockWindow *window = at_new_window ();
  PadlockPassphraseDialog *dialog;
  const char *paths[] = { plain, message, NULL };

  at_gpg_encrypt (source, message, OTHER_PASSPHRASE, NULL);
  g_unlink (source);
  g_assert_cmpstr (gtk_stack_get_visible_child_name (window->stack), ==, "empty");

  at_drop (window, paths);
  dialog = at_wait_dialog (window);
  g_assert_cmpint (dialog->mode, ==, PADLOCK_PASSPHRASE_ENCRYPT);
  g_assert_true (gtk_widget_is_ancestor (gtk_window_get_focus (GTK_WINDOW (dialog)),
                                         GTK_WIDGET (dialog->entry)));
  g_assert_true (gtk_widget_get_visible (GTK_WIDGET (dialog->confirm_entry)));
  g_assert_true (gtk_widget_get_visible (GTK_WIDGET (dialog->strength_bar)));
  /* Mismatched entries keep the button off. */
  gtk_editable_set_text (GTK_EDITABLE (dialog->entry), PASSPHRASE);
  gtk_editable_set_text (GTK_EDITABLE (dialog->confirm_entry), "typo");
  g_assert_false (gtk_widget_get_sensitive (GTK_WIDGET (dialog->ok_button)));
  g_assert_cmpfloat (gtk_level_bar_get_value (dialog->strength_bar), >, 0);
  at_answer (dialog, PASSPHRASE);

  dialog = at_wait_dialog (window);
  g_assert_cmpint (dialog->mode, ==, PADLOCK_PASSPHRASE_DECRYPT);
  g_assert_false (gtk_widget_get_visible (GTK_WIDGET (dialog->confirm_entry)));
  at_answer (dialog, OTHER_PASSPHRASE);

  g_assert_true (at_wait_queue_idle (window->queue, TIMEOUT_MS));
  g_assert_cmpstr (gtk_stack_get_visible_child_name (window->stack), ==, "jobs");
  g_assert_cmpuint (g_list_model_get_n_items (G_LIST_MODEL (window->queue)), ==, 2);
  g_assert_cmpstr (gtk_label_get_text (window->files_label), ==, "2 of 2 files");

  decrypted = at_gpg_decrypt (encrypted, PASSPHRASE);
  g_assert_true (decrypted && g_bytes_equal (decrypted, plain_bytes));
  g_assert_true (at_same_content (source, source_bytes));

  /* Nobody focused the window (no window manager here): the batch's end
   * was announced. */
  if (!gtk_window_is_active (GTK_WINDOW (window)))
    {
      at_settle (200);
      g_assert_cmpuint (at_notifications ()->len, >=, 1);
      g_assert_cmpstr (g_ptr_array_index (at_notifications (), 0), ==, "Files are ready");
    }
  close_window (window);
}

static PadlockJob *
find_job (PadlockWindow *window,
          const char    *input_name)
{
  GListModel *model = G_LIST_MODEL (window->queue);

  for (guint i = 0; i < g_list_model_get_n_items (model); i++)
    {
      g_autoptr(PadlockJob) job = g_list_model_get_item (model, i);
      g_autofree char *name = g_file_get_basename (padlock_job_get_input (job));

      if (!strcmp (name, input_name))
        return job;
    }
  g_assert_not_reached ();
}

/* A passphrase that opens one file of two: the dialog comes back for the
 * other only, saying why, and nothing is written for it meanwhile. */
static void
test_wrong_passphrase (void)
{
  g_autofree char *dir = at_new_dir ("wrong");
  g_autofree char *a = at_write_random (dir, "a.pdf", 5000);
  g_autofree char *b = at_write_random (dir, "report.pdf", 7000);
  g_autofree char *a_gpg = g_build_filename (dir, "a.pdf.gpg", NULL);
  g_autofree char *b_gpg = g_build_filename (dir, "report.pdf.gpg", NULL);
  g_autofree char *listing = NULL;
  g_autoptr(GBytes) b_bytes = read_bytes (b);
  PadlockWindow *window = at_new_window ();
  PadlockPassphraseDialog *dialog;
  const char *paths[] = { a_gpg, b_gpg, NULL };
  PadlockJob *job;

  at_gpg_encrypt (a, a_gpg, PASSPHRASE, NULL);
  at_gpg_encrypt (b, b_gpg, OTHER_PASSPHRASE, NULL);
  g_unlink (a);
  g_unlink (b);

  at_drop (window, paths);
  dialog = at_wait_dialog (window);
  g_assert_false (gtk_widget_get_visible (GTK_WIDGET (dialog->error_label)));
  at_answer (dialog, PASSPHRASE);
  g_assert_true (at_wait_queue_idle (window->queue, TIMEOUT_MS));

  job = find_job (window, "report.pdf.gpg");
  g_assert_cmpint (padlock_job_get_state (job), ==, PADLOCK_JOB_FAILED);
  g_assert_error ((GError *) padlock_job_get_error (job), PADLOCK_ERROR,
                  PADLOCK_ERROR_BAD_PASSPHRASE);
  g_assert_cmpint (padlock_job_get_state (find_job (window, "a.pdf.gpg")), ==,
                   PADLOCK_JOB_DONE);
  listing = at_list_dir (dir);
  g_assert_cmpstr (listing, ==, "a.pdf|a.pdf.gpg|report.pdf.gpg");

  dialog = at_wait_dialog (window);
  g_assert_cmpint (dialog->mode, ==, PADLOCK_PASSPHRASE_DECRYPT);
  g_assert_true (gtk_widget_get_visible (GTK_WIDGET (dialog->error_label)));
  g_assert_cmpstr (gtk_label_get_text (dialog->error_label), ==,
                   "Wrong passphrase for report.pdf.gpg");
  at_answer (dialog, OTHER_PASSPHRASE);
  g_assert_true (at_wait_queue_idle (window->queue, TIMEOUT_MS));
  g_assert_cmpint (padlock_job_get_state (job), ==, PADLOCK_JOB_DONE);
  g_assert_true (at_same_content (b, b_bytes));
  close_window (window);
}

/* Cancelling the dialog with Escape starts nothing. */
static void
test_dialog_escape (void)
{
  g_autofree char *dir = at_new_dir ("escape");
  g_autofree char *a = at_write_random (dir, "a.txt", 10);
  PadlockWindow *window = at_new_window ();
  PadlockPassphraseDialog *dialog;
  const char *paths[] = { a, NULL };

  at_drop (window, paths);
  dialog = at_wait_dialog (window);
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (dialog), "window.close", NULL));
  at_settle (100);
  g_assert_null (window->dialog);
  g_assert_cmpuint (g_list_model_get_n_items (G_LIST_MODEL (window->queue)), ==, 0);
  close_window (window);
}

/* Closing the dialog that asks again leaves the file failed; "Try Again"
 * asks once more. */
static void
test_try_again (void)
{
  g_autofree char *dir = at_new_dir ("again");
  g_autofree char *a = at_write_random (dir, "diary.txt", 999);
  g_autofree char *a_gpg = g_build_filename (dir, "diary.txt.gpg", NULL);
  g_autoptr(GBytes) bytes = read_bytes (a);
  PadlockWindow *window = at_new_window ();
  PadlockPassphraseDialog *dialog;
  const char *paths[] = { a_gpg, NULL };

  at_gpg_encrypt (a, a_gpg, PASSPHRASE, NULL);
  g_unlink (a);
  at_drop (window, paths);
  at_answer (at_wait_dialog (window), "nope");
  g_assert_true (at_wait_queue_idle (window->queue, TIMEOUT_MS));
  dialog = at_wait_dialog (window);
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (dialog), "window.close", NULL));
  at_settle (100);
  g_assert_null (window->dialog);

  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (window), "win.retry", NULL));
  dialog = at_wait_dialog (window);
  g_assert_cmpstr (gtk_label_get_text (dialog->error_label), ==,
                   "Wrong passphrase for diary.txt.gpg");
  at_answer (dialog, PASSPHRASE);
  g_assert_true (at_wait_queue_idle (window->queue, TIMEOUT_MS));
  g_assert_true (at_same_content (a, bytes));
  close_window (window);
}

static gboolean
job_has_progress (gpointer data)
{
  PadlockJob *job = data;

  return padlock_job_get_bytes_done (job) > 0 || padlock_job_is_finished (job);
}

/* A 200 MiB file caught mid-way: the row's cancel removes every trace. */
static void
test_cancel (void)
{
  g_autofree char *dir = at_new_dir ("cancel");
  g_autofree char *big = at_write_random (dir, "video.mkv", 200 * 1024 * 1024);
  g_autofree char *listing = NULL;
  PadlockWindow *window = at_new_window ();
  GtkListBoxRow *row;
  PadlockJob *job;
  const char *paths[] = { big, NULL };

  at_drop (window, paths);
  at_answer (at_wait_dialog (window), PASSPHRASE);
  row = gtk_list_box_get_row_at_index (window->job_list, 0);
  g_assert_true (PADLOCK_IS_JOB_ROW (row));
  job = padlock_job_row_get_job (PADLOCK_JOB_ROW (row));
  g_assert_true (at_wait_until (job_has_progress, job, TIMEOUT_MS));
  g_assert_false (padlock_job_is_finished (job));
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (row), "row.cancel", NULL));
  g_assert_true (at_wait_queue_idle (window->queue, TIMEOUT_MS));
  g_assert_cmpint (padlock_job_get_state (job), ==, PADLOCK_JOB_CANCELLED);
  listing = at_list_dir (dir);
  g_assert_cmpstr (listing, ==, "video.mkv");
  close_window (window);
}

/* Same name, same output folder: neither output replaces the other. */
static void
test_same_output_name (void)
{
  g_autofree char *a = at_new_dir ("same-a");
  g_autofree char *b = at_new_dir ("same-b");
  g_autofree char *out = at_new_dir ("same-out");
  g_autofree char *in_a = at_write_random (a, "photo.jpg", 4000);
  g_autofree char *in_b = at_write_random (b, "photo.jpg", 6000);
  g_autofree char *listing = NULL;
  g_autofree char *out_a = NULL;
  g_autofree char *out_b = NULL;
  g_autoptr(GBytes) bytes_a = read_bytes (in_a);
  g_autoptr(GBytes) bytes_b = read_bytes (in_b);
  g_autoptr(GBytes) plain_a = NULL;
  g_autoptr(GBytes) plain_b = NULL;
  PadlockWindow *window = at_new_window ();
  const char *paths[] = { in_a, in_b, NULL };

  g_settings_set_string (window->settings, "output-folder", out);
  at_drop (window, paths);
  at_answer (at_wait_dialog (window), PASSPHRASE);
  g_assert_true (at_wait_queue_idle (window->queue, TIMEOUT_MS));
  g_settings_reset (window->settings, "output-folder");

  listing = at_list_dir (out);
  g_assert_cmpstr (listing, ==, "photo (1).jpg.gpg|photo.jpg.gpg");
  out_a = g_build_filename (out, "photo.jpg.gpg", NULL);
  out_b = g_build_filename (out, "photo (1).jpg.gpg", NULL);
  plain_a = at_gpg_decrypt (out_a, PASSPHRASE);
  plain_b = at_gpg_decrypt (out_b, PASSPHRASE);
  g_assert_nonnull (plain_a);
  g_assert_nonnull (plain_b);
  /* Which came first does not matter; both made it, intact. */
  g_assert_true ((g_bytes_equal (plain_a, bytes_a) && g_bytes_equal (plain_b, bytes_b))
                 || (g_bytes_equal (plain_a, bytes_b) && g_bytes_equal (plain_b, bytes_a)));
  close_window (window);
}

/* A dropped folder is encrypted as one archive, FOLDER.tar.gpg, which
 * decrypts back into a folder beside it (the first one still there, so
 * "FOLDER (1)"); forcing decryption of a plain file fails in plain
 * words. */
static void
test_folder_and_forced (void)
{
  g_autofree char *dir = at_new_dir ("folder");
  g_autofree char *sub = g_build_filename (dir, "Holiday Photos", NULL);
  g_autofree char *plain = at_write_random (dir, "plain.txt", 100);
  g_autofree char *archive = g_build_filename (dir, "Holiday Photos.tar.gpg",
                                               NULL);
  g_autofree char *unpacked = g_build_filename (dir, "Holiday Photos (1)",
                                                "beach.jpg", NULL);
  g_autofree char *photo = NULL;
  g_autoptr(GFile) file = g_file_new_for_path (plain);
  g_autoptr(GFile) archive_file = g_file_new_for_path (archive);
  g_autofree char *want = NULL, *got = NULL;
  gsize want_len, got_len;
  PadlockWindow *window = at_new_window ();
  const char *paths[] = { sub, NULL };
  PadlockJob *job;

  g_mkdir (sub, 0700);
  photo = at_write_random (sub, "beach.jpg", 5000);
  at_drop (window, paths);
  at_answer (at_wait_dialog (window), PASSPHRASE);
  g_assert_true (at_wait_queue_idle (window->queue, TIMEOUT_MS));
  job = find_job (window, "Holiday Photos");
  g_assert_cmpint (padlock_job_get_state (job), ==, PADLOCK_JOB_DONE);
  g_assert_cmpstr (padlock_job_get_output_name (job), ==,
                   "Holiday Photos.tar.gpg");
  g_assert_true (g_file_test (archive, G_FILE_TEST_IS_REGULAR));

  padlock_window_add_files (window, &archive_file, 1, PADLOCK_OPEN_AUTO);
  at_answer (at_wait_dialog (window), PASSPHRASE);
  g_assert_true (at_wait_queue_idle (window->queue, TIMEOUT_MS));
  job = find_job (window, "Holiday Photos.tar.gpg");
  g_assert_cmpint (padlock_job_get_state (job), ==, PADLOCK_JOB_DONE);
  g_assert_cmpstr (padlock_job_get_output_name (job), ==, "Holiday Photos (1)");
  g_assert_true (g_file_get_contents (photo, &want, &want_len, NULL));
  g_assert_true (g_file_get_contents (unpacked, &got, &got_len, NULL));
  g_assert_cmpmem (want, want_len, got, got_len);

  padlock_window_add_files (window, &file, 1, PADLOCK_OPEN_DECRYPT);
  at_answer (at_wait_dialog (window), PASSPHRASE);
  g_assert_true (at_wait_queue_idle (window->queue, TIMEOUT_MS));
  job = find_job (window, "plain.txt");
  g_assert_cmpint (padlock_job_get_state (job), ==, PADLOCK_JOB_FAILED);
  g_assert_error ((GError *) padlock_job_get_error (job), PADLOCK_ERROR,
                  PADLOCK_ERROR_MALFORMED);
  close_window (window);
}

/* Several items dropped: the dialog offers "Put them in one archive", off
 * for files alone (two jobs), on with a folder among them (one job, one
 * archive named after their folder). */
static void
test_one_archive_offer (void)
{
  g_autofree char *dir = at_new_dir ("offer");
  g_autofree char *album = g_build_filename (dir, "Album", NULL);
  g_autofree char *a = at_write_random (dir, "a.txt", 100);
  g_autofree char *b = at_write_random (dir, "b.txt", 100);
  g_autofree char *c = NULL;
  g_autofree char *base = g_path_get_basename (dir);
  g_autofree char *archive_name = g_strconcat (base, ".tar.gpg", NULL);
  const char *files_only[] = { a, b, NULL };
  const char *with_folder[] = { a, album, NULL };
  PadlockWindow *window = at_new_window ();
  PadlockPassphraseDialog *dialog;
  PadlockJob *job;

  g_mkdir (album, 0700);
  c = at_write_random (album, "c.jpg", 100);

  at_drop (window, files_only);
  dialog = at_wait_dialog (window);
  g_assert_true (gtk_widget_get_visible (GTK_WIDGET (dialog->one_archive_check)));
  g_assert_false (gtk_check_button_get_active (dialog->one_archive_check));
  at_answer (dialog, PASSPHRASE);
  g_assert_true (at_wait_queue_idle (window->queue, TIMEOUT_MS));
  g_assert_cmpuint (g_list_model_get_n_items (G_LIST_MODEL (window->queue)), ==, 2);

  at_drop (window, with_folder);
  dialog = at_wait_dialog (window);
  g_assert_true (gtk_check_button_get_active (dialog->one_archive_check));
  at_answer (dialog, PASSPHRASE);
  g_assert_true (at_wait_queue_idle (window->queue, TIMEOUT_MS));
  g_assert_cmpuint (g_list_model_get_n_items (G_LIST_MODEL (window->queue)), ==, 3);
  job = find_job (window, base);
  g_assert_cmpint (padlock_job_get_state (job), ==, PADLOCK_JOB_DONE);
  g_assert_cmpstr (padlock_job_get_output_name (job), ==, archive_name);
  close_window (window);
}

static gboolean
subprocess_done (gpointer data)
{
  return *(gboolean *) data;
}

static void
on_subprocess_exit (GObject      *object,
                    GAsyncResult *result,
                    gpointer      user_data)
{
  g_subprocess_wait_finish (G_SUBPROCESS (object), result, NULL);
  *(gboolean *) user_data = TRUE;
}

/* `padlock --decrypt FILE` while Padlock runs: the file goes to the
 * running window (this test is that instance), with the direction forced. */
static void
run_second_instance (const char *option,
                     const char *path,
                     int        *status)
{
  const char *app = g_getenv ("PADLOCK_APP");
  g_autoptr(GError) error = NULL;
  g_autoptr(GSubprocess) proc = NULL;
  gboolean done = FALSE;

  proc = g_subprocess_new (G_SUBPROCESS_FLAGS_NONE, &error, app, option, path, NULL);
  g_assert_no_error (error);
  g_subprocess_wait_async (proc, NULL, on_subprocess_exit, &done);
  g_assert_true (at_wait_until (subprocess_done, &done, 30000));
  *status = g_subprocess_get_exit_status (proc);
}

static void
test_command_line (void)
{
  g_autofree char *dir = at_new_dir ("cli");
  g_autofree char *plain = at_write_random (dir, "plain.txt", 100);
  g_autofree char *message = g_build_filename (dir, "plain.txt.gpg", NULL);
  PadlockWindow *window;
  PadlockPassphraseDialog *dialog;
  int status = -1;

  if (!g_getenv ("PADLOCK_APP"))
    {
      g_test_skip ("PADLOCK_APP is not set");
      return;
    }
  at_gpg_encrypt (plain, message, PASSPHRASE, NULL);
  window = at_new_window ();

  run_second_instance ("--decrypt", plain, &status);
  g_assert_cmpint (status, ==, 0);
  dialog = at_wait_dialog (window);
  g_assert_cmpint (dialog->mode, ==, PADLOCK_PASSPHRASE_DECRYPT);
  gtk_window_close (GTK_WINDOW (dialog));
  at_settle (100);

  run_second_instance ("--encrypt", message, &status);
  g_assert_cmpint (status, ==, 0);
  dialog = at_wait_dialog (window);
  g_assert_cmpint (dialog->mode, ==, PADLOCK_PASSPHRASE_ENCRYPT);
  gtk_window_close (GTK_WINDOW (dialog));
  at_settle (100);
  g_assert_cmpuint (g_list_model_get_n_items (G_LIST_MODEL (window->queue)), ==, 0);
  close_window (window);
}

static void
test_actions_and_accels (void)
{
  PadlockApplication *app = at_application ();
  struct { const char *action; const char *accel; } expected[] = {
    { "app.quit", "<Control>q" },
    { "app.preferences", "<Control>comma" },
    { "win.open", "<Control>o" },
    { "win.show-help-overlay", "<Control>question" },
  };
  PadlockWindow *window = at_new_window ();

  for (guint i = 0; i < G_N_ELEMENTS (expected); i++)
    {
      g_auto(GStrv) accels =
        gtk_application_get_accels_for_action (GTK_APPLICATION (app), expected[i].action);
      g_assert_true (g_strv_contains ((const char *const *) accels, expected[i].accel));
    }
  g_assert_nonnull (gtk_application_window_get_help_overlay (GTK_APPLICATION_WINDOW (window)));
  close_window (window);
}

/* Icon-only controls carry a name for screen readers. */
static void
test_accessible_names (void)
{
  g_autofree char *dir = at_new_dir ("a11y");
  g_autofree char *plain = at_write_random (dir, "budget.ods", 64 * 1024 * 1024);
  PadlockWindow *window = at_new_window ();
  const char *paths[] = { plain, NULL };
  GtkListBoxRow *row;
  GtkWidget *child;

  at_drop (window, paths);
  at_answer (at_wait_dialog (window), PASSPHRASE);
  row = gtk_list_box_get_row_at_index (window->job_list, 0);
  g_assert_nonnull (row);
  /* The cancel button is the row's only icon-only button. */
  for (child = gtk_widget_get_first_child (GTK_WIDGET (row)); child;)
    {
      if (GTK_IS_BUTTON (child) && gtk_button_get_icon_name (GTK_BUTTON (child)))
        break;
      if (gtk_widget_get_first_child (child))
        child = gtk_widget_get_first_child (child);
      else
        {
          while (child && !gtk_widget_get_next_sibling (child))
            child = gtk_widget_get_parent (child);
          child = child ? gtk_widget_get_next_sibling (child) : NULL;
        }
    }
  g_assert_nonnull (child);
  gtk_test_accessible_assert_property (GTK_ACCESSIBLE (child),
                                       GTK_ACCESSIBLE_PROPERTY_LABEL,
                                       "Cancel encrypting budget.ods");
  gtk_test_accessible_assert_property (GTK_ACCESSIBLE (window->graph),
                                       GTK_ACCESSIBLE_PROPERTY_LABEL,
                                       "Throughput over the last 30 seconds");
  padlock_queue_cancel_all (window->queue);
  g_assert_true (at_wait_queue_idle (window->queue, TIMEOUT_MS));
  close_window (window);
}

static void
test_preferences (void)
{
  PadlockWindow *window = at_new_window ();
  PadlockPreferencesWindow *prefs;
  size_t n;
  const pl_profile_info *profiles = pl_profiles (&n);

  prefs = PADLOCK_PREFERENCES_WINDOW (padlock_preferences_window_new (GTK_WINDOW (window)));
  gtk_window_present (GTK_WINDOW (prefs));
  at_settle (100);

  /* The default profile, in plain words. */
  g_assert_cmpuint (adw_combo_row_get_selected (prefs->profile_row), ==, 0);
  g_assert_cmpstr (adw_action_row_get_subtitle (ADW_ACTION_ROW (prefs->profile_row)), ==,
                   profiles[0].description);
  g_assert_cmpuint (adw_combo_row_get_selected (prefs->cipher_row), ==, 0);

  /* Settings and rows follow each other, both ways. */
  g_settings_set_string (window->settings, "profile", "rfc9580");
  g_assert_cmpuint (adw_combo_row_get_selected (prefs->profile_row), ==, 2);
  g_assert_cmpstr (adw_action_row_get_subtitle (ADW_ACTION_ROW (prefs->profile_row)), ==,
                   profiles[2].description);
  adw_combo_row_set_selected (prefs->compression_row, 2);
  {
    g_autofree char *compression = g_settings_get_string (window->settings, "compression");
    g_assert_cmpstr (compression, ==, "zlib");
  }
  gtk_switch_set_active (prefs->armor_switch, TRUE);
  g_assert_true (g_settings_get_boolean (window->settings, "armor"));
  gtk_spin_button_set_value (prefs->concurrency_spin, 3);
  g_assert_cmpint (g_settings_get_int (window->settings, "concurrency"), ==, 3);
  g_assert_cmpuint (padlock_queue_get_max_running (window->queue), ==, 3);

  /* Escape closes it. */
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (prefs), "window.close", NULL));
  at_settle (100);

  g_settings_reset (window->settings, "profile");
  g_settings_reset (window->settings, "compression");
  g_settings_reset (window->settings, "armor");
  g_settings_reset (window->settings, "concurrency");
  close_window (window);
}

/* Armored output when asked: a .asc that gpg reads, and that Padlock sorts
 * back into a decryption by its content. */
static void
test_armor (void)
{
  g_autofree char *dir = at_new_dir ("armor");
  g_autofree char *plain = at_write_random (dir, "letter.odt", 20000);
  g_autofree char *asc = g_build_filename (dir, "letter.odt.asc", NULL);
  g_autofree char *renamed = g_build_filename (dir, "letter-message", NULL);
  g_autoptr(GBytes) bytes = read_bytes (plain);
  g_autoptr(GBytes) decrypted = NULL;
  PadlockWindow *window = at_new_window ();
  const char *paths[] = { plain, NULL };
  const char *again[] = { renamed, NULL };
  PadlockJob *job;

  g_settings_set_boolean (window->settings, "armor", TRUE);
  at_drop (window, paths);
  at_answer (at_wait_dialog (window), PASSPHRASE);
  g_assert_true (at_wait_queue_idle (window->queue, TIMEOUT_MS));
  g_settings_reset (window->settings, "armor");
  decrypted = at_gpg_decrypt (asc, PASSPHRASE);
  g_assert_true (decrypted && g_bytes_equal (decrypted, bytes));

  /* No telling suffix: the content says it is a message, and the name
   * stored in it names the output. */
  g_assert_cmpint (g_rename (asc, renamed), ==, 0);
  g_unlink (plain);
  at_drop (window, again);
  g_assert_cmpint (at_wait_dialog (window)->mode, ==, PADLOCK_PASSPHRASE_DECRYPT);
  at_answer (window->dialog, PASSPHRASE);
  g_assert_true (at_wait_queue_idle (window->queue, TIMEOUT_MS));
  job = find_job (window, "letter-message");
  g_assert_cmpint (padlock_job_get_state (job), ==, PADLOCK_JOB_DONE);
  g_assert_cmpstr (padlock_job_get_output_name (job), ==, "letter.odt");
  g_assert_true (at_same_content (plain, bytes));
  close_window (window);
}

int
main (int argc, char **argv)
{
  tu_init (&argc, &argv);
  at_application ();

  g_test_add_func ("/ui/mixed-drop", test_mixed_drop);
  g_test_add_func ("/ui/wrong-passphrase", test_wrong_passphrase);
  g_test_add_func ("/ui/dialog-escape", test_dialog_escape);
  g_test_add_func ("/ui/try-again", test_try_again);
  g_test_add_func ("/ui/cancel", test_cancel);
  g_test_add_func ("/ui/same-output-name", test_same_output_name);
  g_test_add_func ("/ui/folder-and-forced", test_folder_and_forced);
  g_test_add_func ("/ui/one-archive-offer", test_one_archive_offer);
  g_test_add_func ("/ui/actions-and-accels", test_actions_and_accels);
  g_test_add_func ("/ui/command-line", test_command_line);
  g_test_add_func ("/ui/preferences", test_preferences);
  g_test_add_func ("/ui/armor", test_armor);
  g_test_add_func ("/ui/accessible-names", test_accessible_names);
  return g_test_run ();
}
