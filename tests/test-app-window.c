/* test-app-window.c - the window, driven as a user would: drops, the
 * passphrase dialog, rows, preferences */
#include <string.h>
#include <unistd.h>
#include <glib/gstdio.h>

#include "app-testutil.h"
#include "job.h"
#include "kdf-memory.h"
#include "padlock-error.h"
#include "padlock-format.h"
#include "padlock-job-row.h"
#include "padlock-preferences-window-private.h"
#include "padlock-profile.h"
#include "padlock-speed-window-private.h"

#include <math.h>

#define PASSPHRASE "tulip-orbit-canyon-42"
/* A name shown in the window is in bidi isolates (padlock-name.h). */
#define FSI "\xe2\x81\xa8"
#define PDI "\xe2\x81\xa9"
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

static gboolean
is_icon_button (GtkWidget *widget,
                gpointer   data)
{
  return GTK_IS_BUTTON (widget) && gtk_button_get_icon_name (GTK_BUTTON (widget));
}

static gboolean
is_label_with_text (GtkWidget *widget,
                    gpointer   text)
{
  return GTK_IS_LABEL (widget) && !g_strcmp0 (gtk_label_get_label (GTK_LABEL (widget)), text);
}

/* A menu item (GtkModelButton, private to GTK) by its text. */
static gboolean
is_menu_item (GtkWidget *widget,
              gpointer   text)
{
  g_autofree char *item_text = NULL;

  if (g_strcmp0 (G_OBJECT_TYPE_NAME (widget), "GtkModelButton") != 0)
    return FALSE;
  g_object_get (widget, "text", &item_text, NULL);
  return !g_strcmp0 (item_text, text);
}

/* Whether the main menu's item with TEXT can be chosen. */
static gboolean
menu_item_enabled (PadlockWindow *window,
                   const char    *text)
{
  GtkPopover *popover;
  GtkWidget *item;
  gboolean enabled;

  /* As a user sees it: the menu open. */
  gtk_menu_button_popup (window->menu_button);
  at_settle (50);
  popover = gtk_menu_button_get_popover (window->menu_button);
  item = at_find_widget_where (GTK_WIDGET (popover), is_menu_item, (gpointer) text);
  g_assert_nonnull (item);
  enabled = gtk_widget_get_sensitive (item);
  gtk_menu_button_popdown (window->menu_button);
  at_settle (50);
  return enabled;
}

static gboolean
is_row_of_job (GtkWidget *widget,
               gpointer   job)
{
  return PADLOCK_IS_JOB_ROW (widget)
         && padlock_job_row_get_job (PADLOCK_JOB_ROW (widget)) == job;
}

/* The row the list view shows the queue's job INDEX in (it makes rows
 * only for the jobs in sight). */
static GtkWidget *
row_at (PadlockWindow *window,
        guint          index)
{
  g_autoptr(PadlockJob) job = g_list_model_get_item (G_LIST_MODEL (window->queue), index);
  GtkWidget *row;

  g_assert_nonnull (job);
  row = at_find_widget_where (GTK_WIDGET (window->job_list), is_row_of_job, job);
  g_assert_nonnull (row);
  return row;
}

static GtkWidget *
row_child (PadlockWindow *window,
           guint          index,
           const char    *name)
{
  return GTK_WIDGET (gtk_widget_get_template_child (row_at (window, index),
                                                   PADLOCK_TYPE_JOB_ROW, name));
}

/* A mixed drop: the plain file is encrypted, the message decrypted, each
 * with its own passphrase dialog; gpg reads what was encrypted. */
static void
test_mixed_drop (void)
{
  g_autofree char *dir = tu_new_dir ("mixed");
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
  /* It says that a second dialog follows, and what is written. */
  g_assert_true (gtk_widget_get_visible (GTK_WIDGET (dialog->note_label)));
  g_assert_cmpstr (gtk_label_get_text (dialog->note_label), ==,
                   "Next, a second dialog asks for the passphrase of the 1 file to decrypt.");
  g_assert_true (gtk_widget_get_visible (GTK_WIDGET (dialog->format_label)));
  g_assert_cmpstr (gtk_label_get_text (dialog->format_label), ==,
                   "OpenPGP (RFC 4880) · opens in GnuPG, Kleopatra, RNP, Sequoia, OpenPGP.js");
  at_answer (dialog, PASSPHRASE);

  dialog = at_wait_dialog (window);
  g_assert_cmpint (dialog->mode, ==, PADLOCK_PASSPHRASE_DECRYPT);
  g_assert_false (gtk_widget_get_visible (GTK_WIDGET (dialog->confirm_entry)));
  g_assert_false (gtk_widget_get_visible (GTK_WIDGET (dialog->note_label)));
  g_assert_false (gtk_widget_get_visible (GTK_WIDGET (dialog->format_label)));
  g_assert_cmpstr (gtk_label_get_text (dialog->heading_label), ==,
                   "Enter the passphrase for " FSI "budget.ods.gpg" PDI);
  at_answer (dialog, OTHER_PASSPHRASE);

  g_assert_true (at_wait_queue_idle (window->queue, TIMEOUT_MS));
  g_assert_cmpstr (gtk_stack_get_visible_child_name (window->stack), ==, "jobs");
  g_assert_cmpuint (g_list_model_get_n_items (G_LIST_MODEL (window->queue)), ==, 2);
  g_assert_cmpstr (gtk_label_get_text (window->files_label), ==, "2\u00a0done");
  g_assert_cmpstr (gtk_label_get_text (window->throughput_label), ==, "Done");
  at_settle (100);
  /* Finished, each row is compact: the name and under it what it wrote,
   * the verdict, the actions; the format in the verdict's tooltip. */
  g_assert_cmpstr (gtk_label_get_text (GTK_LABEL (row_child (window, 0, "format_label"))), ==,
                   "OpenPGP (RFC 4880) · opens in GnuPG, Kleopatra, RNP, Sequoia, OpenPGP.js");
  g_assert_false (gtk_widget_get_visible (row_child (window, 1, "format_label")));
  for (guint i = 0; i < 2; i++)
    {
      GtkWidget *verdict = row_child (window, i, "verdict_label");

      g_assert_true (gtk_widget_get_visible (verdict));
      g_assert_true (gtk_widget_get_mapped (verdict));
      g_assert_false (gtk_widget_get_mapped (row_child (window, i, "progress_bar")));
      g_assert_true (gtk_widget_get_mapped (row_child (window, i, "subtitle_label")));
      g_assert_true (gtk_widget_has_css_class (row_at (window, i), "compact"));
      g_assert_cmpstr (gtk_label_get_text (GTK_LABEL (verdict)), ==,
                       gtk_label_get_text (GTK_LABEL (row_child (window, i, "status_label"))));
    }
  g_assert_nonnull (strstr (gtk_widget_get_tooltip_text (row_child (window, 0, "verdict_label")),
                            "opens in GnuPG"));
  g_assert_cmpstr (gtk_label_get_text (GTK_LABEL (row_child (window, 0, "subtitle_label"))), ==,
                   "→ " FSI "notes.txt.gpg" PDI);
  g_assert_true (gtk_widget_get_visible (row_child (window, 1, "open_button")));
  g_assert_false (gtk_widget_get_visible (row_child (window, 0, "open_button")));

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
  at_close_window (window);
}

/* A passphrase that opens one file of two: the dialog comes back for the
 * other only, saying why, and nothing is written for it meanwhile. */
static void
test_wrong_passphrase (void)
{
  g_autofree char *dir = tu_new_dir ("wrong");
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
  g_assert_cmpstr (gtk_label_get_text (dialog->heading_label), ==,
                   "Enter the passphrase for " FSI "a.pdf.gpg" PDI " and " FSI "report.pdf.gpg" PDI);
  at_answer (dialog, PASSPHRASE);
  g_assert_true (at_wait_queue_idle (window->queue, TIMEOUT_MS));

  job = at_find_job (window, "report.pdf.gpg");
  /* One drop, one passphrase: one group, whose end brings the dialog. */
  g_assert_cmpuint (padlock_job_get_group (job), !=, 0);
  g_assert_cmpuint (padlock_job_get_group (job), ==,
                    padlock_job_get_group (at_find_job (window, "a.pdf.gpg")));
  g_assert_cmpint (padlock_job_get_state (job), ==, PADLOCK_JOB_FAILED);
  g_assert_error ((GError *) padlock_job_get_error (job), PADLOCK_ERROR,
                  PADLOCK_ERROR_BAD_PASSPHRASE);
  g_assert_cmpint (padlock_job_get_state (at_find_job (window, "a.pdf.gpg")), ==,
                   PADLOCK_JOB_DONE);
  listing = tu_list_dir (dir);
  g_assert_cmpstr (listing, ==, "a.pdf|a.pdf.gpg|report.pdf.gpg");

  dialog = at_wait_dialog (window);
  g_assert_cmpint (dialog->mode, ==, PADLOCK_PASSPHRASE_DECRYPT);
  g_assert_true (gtk_widget_get_visible (GTK_WIDGET (dialog->error_label)));
  g_assert_cmpstr (gtk_label_get_text (dialog->error_label), ==,
                   "Wrong passphrase for " FSI "report.pdf.gpg" PDI);
  at_answer (dialog, OTHER_PASSPHRASE);
  g_assert_true (at_wait_queue_idle (window->queue, TIMEOUT_MS));
  g_assert_cmpint (padlock_job_get_state (job), ==, PADLOCK_JOB_DONE);
  g_assert_true (at_same_content (b, b_bytes));

  /* The next dialog starts clean: no word of the earlier mistake. */
  g_unlink (b);
  {
    const char *again[] = { b_gpg, NULL };

    at_drop (window, again);
    dialog = at_wait_dialog (window);
    g_assert_false (gtk_widget_get_visible (GTK_WIDGET (dialog->error_label)));
    g_assert_cmpstr (gtk_label_get_text (dialog->error_label), ==, "");
    gtk_window_close (GTK_WINDOW (dialog));
    at_settle (100);
  }
  at_close_window (window);
}

/* Cancelling the dialog with Escape starts nothing. */
static void
test_dialog_escape (void)
{
  g_autofree char *dir = tu_new_dir ("escape");
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
  at_close_window (window);
}

static gboolean
dialog_is_finished (gpointer data)
{
  return PADLOCK_PASSPHRASE_DIALOG (data)->finished;
}

/* Closing the dialog that asks again leaves the file failed; "Try Again"
 * asks once more. */
static void
test_try_again (void)
{
  g_autofree char *dir = tu_new_dir ("again");
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
                   "Wrong passphrase for " FSI "diary.txt.gpg" PDI);
  /* One entry when decrypting: Enter in it decrypts. */
  gtk_editable_set_text (GTK_EDITABLE (dialog->entry), PASSPHRASE);
  g_object_ref (dialog);
  g_signal_emit_by_name (gtk_widget_get_first_child (GTK_WIDGET (dialog->entry)), "activate");
  g_assert_true (at_wait_until (dialog_is_finished, dialog, 10000));
  g_object_unref (dialog);
  g_assert_true (at_wait_queue_idle (window->queue, TIMEOUT_MS));
  g_assert_true (at_same_content (a, bytes));
  at_close_window (window);
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
  g_autofree char *dir = tu_new_dir ("cancel");
  g_autofree char *big = at_write_random (dir, "video.mkv", 200 * 1024 * 1024);
  g_autofree char *listing = NULL;
  PadlockWindow *window = at_new_window ();
  GtkWidget *row;
  PadlockJob *job;
  const char *paths[] = { big, NULL };

  at_drop (window, paths);
  at_answer (at_wait_dialog (window), PASSPHRASE);
  at_settle (50);
  row = row_at (window, 0);
  job = padlock_job_row_get_job (PADLOCK_JOB_ROW (row));
  g_assert_true (at_wait_until (job_has_progress, job, TIMEOUT_MS));
  g_assert_false (padlock_job_is_finished (job));
  /* Running, the row has its full layout: the bar under the name. */
  g_assert_true (gtk_widget_get_mapped (row_child (window, 0, "progress_bar")));
  g_assert_false (gtk_widget_get_visible (row_child (window, 0, "verdict_label")));
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (row), "row.cancel", NULL));
  g_assert_true (at_wait_queue_idle (window->queue, TIMEOUT_MS));
  g_assert_cmpint (padlock_job_get_state (job), ==, PADLOCK_JOB_CANCELLED);
  listing = tu_list_dir (dir);
  g_assert_cmpstr (listing, ==, "video.mkv");
  at_close_window (window);
}

/* Same name, same output folder: neither output replaces the other. */
static void
test_same_output_name (void)
{
  g_autofree char *a = tu_new_dir ("same-a");
  g_autofree char *b = tu_new_dir ("same-b");
  g_autofree char *out = tu_new_dir ("same-out");
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

  listing = tu_list_dir (out);
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
  at_close_window (window);
}

/* A dropped folder is encrypted as one archive, FOLDER.tar.gpg, which
 * decrypts back into a folder beside it (the first one still there, so
 * "FOLDER (1)"); forcing decryption of a plain file fails in plain
 * words. */
static void
test_folder_and_forced (void)
{
  g_autofree char *dir = tu_new_dir ("folder");
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
  job = at_find_job (window, "Holiday Photos");
  g_assert_cmpint (padlock_job_get_state (job), ==, PADLOCK_JOB_DONE);
  g_assert_cmpstr (padlock_job_get_output_name (job), ==,
                   "Holiday Photos.tar.gpg");
  g_assert_true (g_file_test (archive, G_FILE_TEST_IS_REGULAR));

  padlock_window_add_files (window, &archive_file, 1, PADLOCK_OPEN_AUTO);
  at_answer (at_wait_dialog (window), PASSPHRASE);
  g_assert_true (at_wait_queue_idle (window->queue, TIMEOUT_MS));
  job = at_find_job (window, "Holiday Photos.tar.gpg");
  g_assert_cmpint (padlock_job_get_state (job), ==, PADLOCK_JOB_DONE);
  g_assert_cmpstr (padlock_job_get_output_name (job), ==, "Holiday Photos (1)");
  g_assert_true (g_file_get_contents (photo, &want, &want_len, NULL));
  g_assert_true (g_file_get_contents (unpacked, &got, &got_len, NULL));
  g_assert_cmpmem (want, want_len, got, got_len);

  padlock_window_add_files (window, &file, 1, PADLOCK_OPEN_DECRYPT);
  at_answer (at_wait_dialog (window), PASSPHRASE);
  g_assert_true (at_wait_queue_idle (window->queue, TIMEOUT_MS));
  job = at_find_job (window, "plain.txt");
  g_assert_cmpint (padlock_job_get_state (job), ==, PADLOCK_JOB_FAILED);
  g_assert_error ((GError *) padlock_job_get_error (job), PADLOCK_ERROR,
                  PADLOCK_ERROR_MALFORMED);
  at_close_window (window);
}

/* Several items dropped: the dialog offers "Put them in one archive", off
 * for files alone (two jobs), on with a folder among them (one job, one
 * archive named after their folder). */
static void
test_one_archive_offer (void)
{
  g_autofree char *dir = tu_new_dir ("offer");
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
  job = at_find_job (window, base);
  g_assert_cmpint (padlock_job_get_state (job), ==, PADLOCK_JOB_DONE);
  g_assert_cmpstr (padlock_job_get_output_name (job), ==, archive_name);
  at_close_window (window);
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
  g_autofree char *dir = tu_new_dir ("cli");
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
  at_close_window (window);
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
  at_close_window (window);
}

/* Icon-only controls carry a name for screen readers. */
static void
test_accessible_names (void)
{
  g_autofree char *dir = tu_new_dir ("a11y");
  g_autofree char *plain = at_write_random (dir, "budget.ods", 64 * 1024 * 1024);
  PadlockWindow *window = at_new_window ();
  const char *paths[] = { plain, NULL };
  GtkWidget *child;

  at_drop (window, paths);
  at_answer (at_wait_dialog (window), PASSPHRASE);
  at_settle (50);
  child = row_child (window, 0, "cancel_button");
  g_assert_true (is_icon_button (child, NULL));
  gtk_test_accessible_assert_property (GTK_ACCESSIBLE (child),
                                       GTK_ACCESSIBLE_PROPERTY_LABEL,
                                       "Cancel encrypting budget.ods");
  gtk_test_accessible_assert_property (GTK_ACCESSIBLE (row_child (window, 0, "show_button")),
                                       GTK_ACCESSIBLE_PROPERTY_LABEL,
                                       "Show budget.ods.gpg in Files");
  gtk_test_accessible_assert_property (GTK_ACCESSIBLE (window->graph),
                                       GTK_ACCESSIBLE_PROPERTY_LABEL,
                                       "Throughput over the last 30 seconds");
  padlock_queue_cancel_all (window->queue);
  g_assert_true (at_wait_queue_idle (window->queue, TIMEOUT_MS));
  at_close_window (window);
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
  {
    g_autofree char *details = padlock_profile_details (0);
    g_assert_cmpstr (adw_action_row_get_subtitle (ADW_ACTION_ROW (prefs->profile_row)), ==,
                     details);
    g_assert_nonnull (strstr (details, profiles[0].readers));
  }
  g_assert_cmpuint (adw_combo_row_get_selected (prefs->cipher_row), ==, 0);
  /* The schema's choices, in the core's names. */
  {
    GListModel *ciphers = adw_combo_row_get_model (prefs->cipher_row);
    g_autofree char *cipher = NULL;

    g_assert_cmpuint (g_list_model_get_n_items (ciphers), ==, 5);
    g_assert_cmpstr (gtk_string_list_get_string (GTK_STRING_LIST (ciphers), 0), ==, "AES-256");
    g_assert_cmpstr (gtk_string_list_get_string (GTK_STRING_LIST (ciphers), 4), ==, "Camellia-256");
    adw_combo_row_set_selected (prefs->cipher_row, 4);
    cipher = g_settings_get_string (window->settings, "cipher");
    g_assert_cmpstr (cipher, ==, "camellia256");
    g_settings_reset (window->settings, "cipher");
  }
  /* Open Without Saving's memory: 1 GiB by default, in words; a choice
   * sets the octets, and a value set elsewhere shows as the choice that
   * holds it. */
  {
    GListModel *limits = adw_combo_row_get_model (prefs->open_limit_row);
    guint selected = adw_combo_row_get_selected (prefs->open_limit_row);

    g_assert_cmpstr (gtk_string_list_get_string (GTK_STRING_LIST (limits), selected),
                     ==, "1.0\u00a0GiB");
    adw_combo_row_set_selected (prefs->open_limit_row, selected + 1);
    g_assert_cmpuint (g_settings_get_uint64 (window->settings, "open-memory-limit"),
                      ==, G_GUINT64_CONSTANT (2) << 30);
    g_settings_set_uint64 (window->settings, "open-memory-limit", 3000000000u);
    g_assert_cmpuint (adw_combo_row_get_selected (prefs->open_limit_row), ==, selected + 1);
    g_settings_reset (window->settings, "open-memory-limit");
    g_assert_cmpuint (adw_combo_row_get_selected (prefs->open_limit_row), ==, selected);
  }
  /* 0 files at once reads as what it means. */
  g_assert_cmpstr (gtk_editable_get_text (GTK_EDITABLE (prefs->concurrency_spin)), ==,
                   "Automatic");

  /* Settings and rows follow each other, both ways. */
  g_settings_set_string (window->settings, "profile", "rfc9580");
  g_assert_cmpuint (adw_combo_row_get_selected (prefs->profile_row), ==, 2);
  {
    g_autofree char *details = padlock_profile_details (2);
    g_assert_cmpstr (adw_action_row_get_subtitle (ADW_ACTION_ROW (prefs->profile_row)), ==,
                     details);
  }
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
  at_close_window (window);
}

/* Armored output when asked: a .asc that gpg reads, and that Padlock sorts
 * back into a decryption by its content. */
static void
test_armor (void)
{
  g_autofree char *dir = tu_new_dir ("armor");
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
  job = at_find_job (window, "letter-message");
  g_assert_cmpint (padlock_job_get_state (job), ==, PADLOCK_JOB_DONE);
  g_assert_cmpstr (padlock_job_get_output_name (job), ==, "letter.odt");
  g_assert_true (at_same_content (plain, bytes));
  at_close_window (window);
}

/* A file of LEN zero octets that takes no room: big enough to keep a job
 * running for seconds whatever the machine, at no cost to write. */
static char *
sparse_file (const char *dir,
             const char *name,
             gint64      len)
{
  char *path = g_build_filename (dir, name, NULL);

  g_assert_true (g_file_set_contents (path, "", 0, NULL));
  g_assert_cmpint (truncate (path, len), ==, 0);
  return path;
}

static gboolean
is_destroyed (gpointer data)
{
  return *(gpointer *) data == NULL;
}

/* The header counts what happened (running, waiting, done, failed,
 * cancelled); the menu offers only what can be done; the graph empties
 * with the list; quitting with jobs unfinished asks first. */
static void
test_counts_and_quit (void)
{
  g_autofree char *dir = tu_new_dir ("counts");
  g_autofree char *big = sparse_file (dir, "video.mkv", G_GINT64_CONSTANT (4) << 30);
  g_autofree char *small = at_write_random (dir, "small.txt", 1000);
  g_autofree char *other = at_write_random (dir, "other.txt", 2000);
  g_autofree char *plain = at_write_random (dir, "plain.txt", 100);
  g_autofree char *listing = NULL;
  g_autoptr(GFile) plain_file = g_file_new_for_path (plain);
  PadlockApplication *app = at_application ();
  PadlockWindow *window = at_new_window ();
  gpointer alive = window;
  const char *paths[] = { big, small, other, NULL };
  const char *one[] = { small, NULL };
  PadlockJob *job;
  AdwMessageDialog *ask;

  g_object_add_weak_pointer (G_OBJECT (window), &alive);
  /* Nothing to clear or cancel in an empty window. */
  g_assert_false (menu_item_enabled (window, "Clear Finished"));
  g_assert_false (menu_item_enabled (window, "Cancel All"));

  g_settings_set_int (window->settings, "concurrency", 1);
  at_drop (window, paths);
  at_answer (at_wait_dialog (window), PASSPHRASE);
  job = at_find_job (window, "video.mkv");
  g_assert_true (at_wait_until (job_has_progress, job, TIMEOUT_MS));
  g_assert_cmpstr (gtk_label_get_text (window->files_label), ==, "1\u00a0running\u00a0· 2\u00a0waiting");
  g_assert_cmpstr (gtk_label_get_text (window->throughput_label), !=, "Done");

  /* Ctrl+Q asks (the main loop does not run in between: no job can end
   * meanwhile); keeping them running changes nothing. */
  g_action_group_activate_action (G_ACTION_GROUP (app), "quit", NULL);
  ask = window->quit_dialog;
  g_assert_nonnull (ask);
  g_assert_cmpstr (adw_message_dialog_get_heading (ask), ==, "Stop 3 running jobs?");
  adw_message_dialog_response (ask, "cancel");
  gtk_window_destroy (GTK_WINDOW (ask));
  g_assert_null (window->quit_dialog);
  g_assert_cmpint (padlock_job_get_state (job), !=, PADLOCK_JOB_CANCELLED);
  g_assert_false (menu_item_enabled (window, "Clear Finished"));
  g_assert_true (menu_item_enabled (window, "Cancel All"));

  /* Cancel All: nothing is claimed done. */
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (window), "win.cancel-all", NULL));
  g_assert_true (at_wait_queue_idle (window->queue, TIMEOUT_MS));
  g_assert_cmpstr (gtk_label_get_text (window->files_label), ==, "3\u00a0cancelled");
  g_assert_cmpstr (gtk_label_get_text (window->throughput_label), ==, "Cancelled");
  g_assert_true (menu_item_enabled (window, "Clear Finished"));
  g_assert_false (menu_item_enabled (window, "Cancel All"));
  /* The graph is labelled with its peak: the highest rate a row showed
   * when there is one (padlock_graph_set_peak), else its highest sample. */
  padlock_graph_set_peak (window->graph, 0);
  padlock_graph_push (window->graph, 3e6);
  {
    g_autofree char *rate = padlock_format_rate (padlock_graph_get_peak (window->graph));
    g_autofree char *expected = g_strconcat ("peak ", rate, NULL);
    g_autofree char *peak = padlock_graph_get_peak_text (window->graph);

    g_assert_cmpfloat (padlock_graph_get_peak (window->graph), >=, 3e6);
    g_assert_cmpstr (peak, ==, expected);
    padlock_graph_set_peak (window->graph, 593e6);
    g_clear_pointer (&peak, g_free);
    peak = padlock_graph_get_peak_text (window->graph);
    g_assert_cmpstr (peak, ==, "peak 593 MB/s");
  }

  /* Clear Finished empties the list, and the graph with it. */
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (window), "win.clear-finished", NULL));
  g_assert_cmpuint (g_list_model_get_n_items (G_LIST_MODEL (window->queue)), ==, 0);
  g_assert_cmpuint (padlock_graph_get_n_samples (window->graph), ==, 0);
  g_assert_false (menu_item_enabled (window, "Clear Finished"));

  /* One done, one failed. */
  at_drop (window, one);
  at_answer (at_wait_dialog (window), PASSPHRASE);
  g_assert_true (at_wait_queue_idle (window->queue, TIMEOUT_MS));
  padlock_window_add_files (window, &plain_file, 1, PADLOCK_OPEN_DECRYPT);
  at_answer (at_wait_dialog (window), PASSPHRASE);
  g_assert_true (at_wait_queue_idle (window->queue, TIMEOUT_MS));
  /* Two batches in the list: the counts say so. */
  g_assert_cmpstr (gtk_label_get_text (window->files_label), ==, "1\u00a0done\u00a0· 1\u00a0failed\u00a0· this\u00a0session");
  g_assert_cmpstr (gtk_label_get_text (window->throughput_label), ==, "Done");
  g_settings_reset (window->settings, "concurrency");

  /* Closing the window asks too; stopping removes the partial output,
   * then the window goes. */
  {
    g_autofree char *small_gpg = g_build_filename (dir, "small.txt.gpg", NULL);
    const char *again[] = { big, NULL };

    g_unlink (small_gpg);
    at_drop (window, again);
  }
  at_answer (at_wait_dialog (window), PASSPHRASE);
  job = at_find_job (window, "video.mkv");
  while (padlock_job_is_finished (job))        /* the cancelled one */
    {
      GListModel *model = G_LIST_MODEL (window->queue);
      g_autoptr(PadlockJob) last = g_list_model_get_item (model,
                                                          g_list_model_get_n_items (model) - 1);
      job = last;
    }
  g_assert_true (at_wait_until (job_has_progress, job, TIMEOUT_MS));
  g_object_ref (job);
  gtk_window_close (GTK_WINDOW (window));
  g_assert_nonnull (alive);
  ask = window->quit_dialog;
  g_assert_nonnull (ask);
  g_assert_cmpstr (adw_message_dialog_get_heading (ask), ==, "Stop 1 running job?");
  adw_message_dialog_response (ask, "stop");
  g_assert_true (at_wait_until (is_destroyed, &alive, TIMEOUT_MS));
  g_assert_cmpint (padlock_job_get_state (job), ==, PADLOCK_JOB_CANCELLED);
  g_object_unref (job);
  listing = tu_list_dir (dir);
  g_assert_cmpstr (listing, ==, "other.txt|plain.txt|small.txt|video.mkv");
}

/* A row says how big the plain file is, not the message. */
static void
test_plaintext_size (void)
{
  g_autofree char *dir = tu_new_dir ("size");
  g_autofree char *path = g_build_filename (dir, "zeros.raw", NULL);
  g_autofree char *message = g_build_filename (dir, "zeros.raw.gpg", NULL);
  g_autofree char *zeros = g_malloc0 (3 * 1000 * 1000);
  g_autofree char *size = g_format_size (3 * 1000 * 1000);
  g_autofree char *expected = g_strdup_printf ("Decrypted %s at ", size);
  PadlockWindow *window = at_new_window ();
  const char *paths[] = { message, NULL };
  PadlockJob *job;
  GStatBuf st;

  g_assert_true (g_file_set_contents (path, zeros, 3 * 1000 * 1000, NULL));
  at_gpg_encrypt (path, message, PASSPHRASE, NULL);
  g_unlink (path);
  /* gpg compressed it: the message is far smaller than what it holds. */
  g_assert_cmpint (g_stat (message, &st), ==, 0);
  g_assert_cmpint (st.st_size, <, 100 * 1000);

  at_drop (window, paths);
  at_answer (at_wait_dialog (window), PASSPHRASE);
  g_assert_true (at_wait_queue_idle (window->queue, TIMEOUT_MS));
  job = at_find_job (window, "zeros.raw.gpg");
  g_assert_cmpint (padlock_job_get_state (job), ==, PADLOCK_JOB_DONE);
  g_assert_cmpint (padlock_job_get_plaintext_size (job), ==, 3 * 1000 * 1000);
  at_settle (100);
  g_assert_true (g_str_has_prefix (gtk_label_get_text (GTK_LABEL (
                   row_child (window, 0, "status_label"))), expected));
  at_close_window (window);
}

/* The encrypt dialog: Enter moves on, blank passphrases are refused,
 * weakness in plain words, the generated passphrase can be copied; the
 * RFC 9580 profile says GnuPG cannot open it. */
static void
test_passphrase_dialog (void)
{
  g_autofree char *dir = tu_new_dir ("dialog");
  g_autofree char *a = at_write_random (dir, "a.txt", 10);
  PadlockWindow *window = at_new_window ();
  PadlockPassphraseDialog *dialog;
  const char *paths[] = { a, NULL };
  GdkContentProvider *content;
  GValue value = G_VALUE_INIT;
  g_autofree char *generated = NULL;

  g_settings_set_string (window->settings, "profile", "rfc9580");
  at_drop (window, paths);
  dialog = at_wait_dialog (window);
  g_settings_reset (window->settings, "profile");
  g_assert_cmpstr (gtk_label_get_text (dialog->format_label), ==,
                   "OpenPGP v6 (RFC 9580) · opens in Sequoia, OpenPGP.js 6, GopenPGP; "
                   "not GnuPG 2.2/2.4");
  g_assert_false (gtk_widget_get_visible (GTK_WIDGET (dialog->note_label)));

  /* Spaces only: the button stays off, though both entries match. */
  gtk_editable_set_text (GTK_EDITABLE (dialog->entry), "   ");
  gtk_editable_set_text (GTK_EDITABLE (dialog->confirm_entry), "   ");
  g_assert_false (gtk_widget_get_sensitive (GTK_WIDGET (dialog->ok_button)));
  gtk_editable_set_text (GTK_EDITABLE (dialog->entry), " x ");
  gtk_editable_set_text (GTK_EDITABLE (dialog->confirm_entry), " x ");
  g_assert_true (gtk_widget_get_sensitive (GTK_WIDGET (dialog->ok_button)));
  /* Over the one limit of every entry point (4096 bytes): off, and said. */
  {
    g_autofree char *too_long = g_strnfill (4097, 'x');

    gtk_editable_set_text (GTK_EDITABLE (dialog->entry), too_long);
    gtk_editable_set_text (GTK_EDITABLE (dialog->confirm_entry), too_long);
    g_assert_false (gtk_widget_get_sensitive (GTK_WIDGET (dialog->ok_button)));
    g_assert_cmpstr (gtk_label_get_text (dialog->match_label), ==,
                     "The passphrase is too long: at most 4096 bytes.");
    too_long[4096] = 0;
    gtk_editable_set_text (GTK_EDITABLE (dialog->entry), too_long);
    gtk_editable_set_text (GTK_EDITABLE (dialog->confirm_entry), too_long);
    g_assert_true (gtk_widget_get_sensitive (GTK_WIDGET (dialog->ok_button)));
  }

  /* Weak, said plainly (libpwquality's own sentence names "password"). */
  gtk_editable_set_text (GTK_EDITABLE (dialog->entry), "abc");
  g_assert_cmpstr (gtk_label_get_text (dialog->strength_label), ==,
                   "Weak: too short. Longer is stronger: try a few words.");

  /* Enter in the first entry moves to the second and starts nothing. */
  gtk_widget_grab_focus (GTK_WIDGET (dialog->entry));
  g_signal_emit_by_name (gtk_widget_get_first_child (GTK_WIDGET (dialog->entry)),
                         "activate");
  at_settle (50);
  g_assert_false (dialog->finished);
  g_assert_true (gtk_widget_is_ancestor (gtk_window_get_focus (GTK_WINDOW (dialog)),
                                         GTK_WIDGET (dialog->confirm_entry)));

  /* Generate, then copy. */
  g_assert_false (gtk_widget_get_visible (GTK_WIDGET (dialog->copy_button)));
  g_signal_emit_by_name (dialog->generate_button, "clicked");
  g_assert_true (gtk_widget_get_visible (GTK_WIDGET (dialog->copy_button)));
  generated = g_strdup (gtk_editable_get_text (GTK_EDITABLE (dialog->entry)));
  g_assert_cmpuint (strlen (generated), >=, 10);
  /* No look-alikes, and its strength said as what it is; each one new
   * (of 80 bits, two alike would be a broken generator). */
  g_assert_cmpstr (gtk_label_get_text (dialog->strength_label), ==, "Strong: 80 random bits");
  g_assert_true (gtk_widget_get_sensitive (GTK_WIDGET (dialog->ok_button)));
  for (guint i = 0; i < 50; i++)
    {
      g_autofree char *before = g_strdup (gtk_editable_get_text (GTK_EDITABLE (dialog->entry)));
      const char *text;

      g_signal_emit_by_name (dialog->generate_button, "clicked");
      text = gtk_editable_get_text (GTK_EDITABLE (dialog->entry));
      g_assert_cmpuint (strlen (text), ==, 19);
      g_assert_cmpstr (text, !=, before);
      g_assert_true (g_regex_match_simple ("^[a-km-np-z2-9]{4}(-[a-km-np-z2-9]{4}){3}$",
                                           text, 0, 0));
    }
  g_free (generated);
  generated = g_strdup (gtk_editable_get_text (GTK_EDITABLE (dialog->entry)));
  g_signal_emit_by_name (dialog->copy_button, "clicked");
  content = gdk_clipboard_get_content (gtk_widget_get_clipboard (GTK_WIDGET (dialog)));
  g_assert_nonnull (content);
  g_value_init (&value, G_TYPE_STRING);
  g_assert_true (gdk_content_provider_get_value (content, &value, NULL));
  g_assert_cmpstr (g_value_get_string (&value), ==, generated);
  g_value_unset (&value);
  /* Typing something else hides it: it copies only what was generated. */
  gtk_editable_set_text (GTK_EDITABLE (dialog->entry), "typed");
  g_assert_false (gtk_widget_get_visible (GTK_WIDGET (dialog->copy_button)));

  gtk_window_close (GTK_WINDOW (dialog));
  at_settle (100);
  at_close_window (window);
}

/* Random octets named x.gpg are a decryption that says what they are not
 * (issue 19 §9), nothing encrypted to x.gpg.gpg; a FIFO dropped is
 * refused with a notice, without waiting for a writer (issue 19 §2). */
static void
test_not_openpgp_drop (void)
{
  g_autofree char *dir = tu_new_dir ("not-openpgp");
  g_autofree char *fake = at_write_random (dir, "x.gpg", 5000);
  g_autofree char *fifo = g_build_filename (dir, "fifo", NULL);
  g_autofree char *listing = NULL;
  PadlockWindow *window = at_new_window ();
  const char *paths[] = { fake, NULL };
  const char *fifos[] = { fifo, NULL };
  g_autoptr(PadlockJob) job = NULL;

  at_drop (window, paths);
  g_assert_cmpint (at_wait_dialog (window)->mode, ==, PADLOCK_PASSPHRASE_DECRYPT);
  at_answer (at_wait_dialog (window), PASSPHRASE);
  g_assert_true (at_wait_queue_idle (window->queue, TIMEOUT_MS));
  job = g_list_model_get_item (G_LIST_MODEL (window->queue), 0);
  g_assert_cmpint (padlock_job_get_state (job), ==, PADLOCK_JOB_FAILED);
  g_assert_cmpstr (padlock_job_get_error (job)->message, ==,
                   "x.gpg is not an OpenPGP message.");

  g_assert_cmpint (mkfifo (fifo, 0600), ==, 0);
  g_clear_pointer (&window->last_notice, g_free);
  at_drop (window, fifos);
  g_assert_nonnull (window->last_notice);
  g_assert_true (g_str_has_prefix (window->last_notice,
                                   FSI "fifo" PDI " is not a file or folder"));
  g_assert_cmpuint (g_list_model_get_n_items (G_LIST_MODEL (window->queue)), ==, 1);
  listing = tu_list_dir (dir);
  g_assert_cmpstr (listing, ==, "fifo|x.gpg");
  at_close_window (window);
}

static gboolean
has_one_finished_job (gpointer data)
{
  PadlockWindow *window = data;
  g_autoptr(PadlockJob) job = g_list_model_get_item (G_LIST_MODEL (window->queue), 0);

  return job && padlock_job_is_finished (job);
}

/* Issue 32 §7: a file for a public key only (RFC 9580 A.8, for the A.3
 * sample key's X25519 subkey) dropped on a window without a GnuPG
 * keyring (the tests' GNUPGHOME does not exist): no passphrase dialog;
 * the row says for which key it is, by its fingerprint alone (a v6
 * PKESK names the subkey's; no certificate names anyone), as `padlock
 * --batch` does (/app-keys/batch-no-keyring), and nothing is written. */
static void
test_not_mine_no_keyring (void)
{
  g_autofree char *dir = tu_new_dir ("not-mine-no-keyring");
  g_autofree char *sample = g_build_filename (g_getenv ("PADLOCK_SOURCE_DIR"),
                                              "tests", "data",
                                              "rfc9580-a8-x25519-ocb.asc", NULL);
  g_autofree char *path = g_build_filename (dir, "b.txt.asc", NULL);
  g_autofree char *text = NULL;
  g_autofree char *listing = NULL;
  gsize len = 0;
  PadlockWindow *window = at_new_window ();
  const char *paths[] = { path, NULL };
  g_autoptr(PadlockJob) job = NULL;
  GtkWidget *error_label;

  g_assert_true (g_file_get_contents (sample, &text, &len, NULL));
  g_assert_true (g_file_set_contents (path, text, len, NULL));
  at_drop (window, paths);
  g_assert_true (at_wait_until (has_one_finished_job, window, TIMEOUT_MS));
  at_settle (50);
  g_assert_null (window->dialog);
  job = g_list_model_get_item (G_LIST_MODEL (window->queue), 0);
  g_assert_cmpint (padlock_job_get_state (job), ==, PADLOCK_JOB_FAILED);
  g_assert_error (padlock_job_get_error (job), PADLOCK_ERROR,
                  PADLOCK_ERROR_PUBLIC_KEY);
  error_label = row_child (window, 0, "error_label");
  g_assert_true (gtk_widget_get_visible (error_label));
  g_assert_cmpstr (gtk_label_get_text (GTK_LABEL (error_label)), ==,
                   "b.txt.asc is for 0x12C83F1E706F6308FE151A417743A1F0"
                   "33790E93E9978488D1DB378DA9930885, whose secret key is "
                   "not in your keyring.");
  listing = tu_list_dir (dir);
  g_assert_cmpstr (listing, ==, "b.txt.asc");
  at_close_window (window);
}

/* Show in Files and Open say why they failed, in a toast that shows the
 * whole message. */
static void
test_open_failure (void)
{
  g_autofree char *dir = tu_new_dir ("open");
  g_autofree char *plain = at_write_random (dir, "data.padlocktest", 500);
  g_autofree char *message = g_build_filename (dir, "data.padlocktest.gpg", NULL);
  g_autoptr(GAppInfo) handler = g_app_info_get_default_for_type ("application/octet-stream",
                                                                  FALSE);
  PadlockWindow *window = at_new_window ();
  const char *paths[] = { message, NULL };
  GtkWidget *row;
  GtkWidget *title;

  if (handler)
    {
      g_test_skip ("this system opens any file");
      at_close_window (window);
      return;
    }
  at_gpg_encrypt (plain, message, PASSPHRASE, NULL);
  g_unlink (plain);
  at_drop (window, paths);
  at_answer (at_wait_dialog (window), PASSPHRASE);
  g_assert_true (at_wait_queue_idle (window->queue, TIMEOUT_MS));
  at_settle (50);
  row = row_at (window, 0);
  g_clear_pointer (&window->last_notice, g_free);
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (row), "row.open", NULL));
  g_assert_true (g_str_has_prefix (at_wait_notice (window), "Could not open the file: "));
  /* The toast's title wraps rather than cutting the message short. */
  title = at_find_widget_where (GTK_WIDGET (window->toast_overlay), is_label_with_text,
                       window->last_notice);
  g_assert_nonnull (title);
  g_assert_true (gtk_label_get_wrap (GTK_LABEL (title)));
  g_assert_cmpint (gtk_label_get_ellipsize (GTK_LABEL (title)), ==, PANGO_ELLIPSIZE_NONE);
  at_close_window (window);
}

static gboolean
triggers_ctrl_o (GtkShortcut *shortcut)
{
  GtkShortcutTrigger *trigger = gtk_shortcut_get_trigger (shortcut);

  return GTK_IS_KEYVAL_TRIGGER (trigger)
         && gtk_keyval_trigger_get_keyval (GTK_KEYVAL_TRIGGER (trigger)) == GDK_KEY_o
         && gtk_keyval_trigger_get_modifiers (GTK_KEYVAL_TRIGGER (trigger)) == GDK_CONTROL_MASK;
}

/* Shortcuts on Ctrl+O among the window's controllers. */
static guint
count_ctrl_o (PadlockWindow *window)
{
  g_autoptr(GListModel) controllers = gtk_widget_observe_controllers (GTK_WIDGET (window));
  guint n = 0;

  for (guint i = 0; i < g_list_model_get_n_items (controllers); i++)
    {
      g_autoptr(GObject) controller = g_list_model_get_item (controllers, i);

      if (!GTK_IS_SHORTCUT_CONTROLLER (controller))
        continue;
      for (guint j = 0; j < g_list_model_get_n_items (G_LIST_MODEL (controller)); j++)
        {
          g_autoptr(GtkShortcut) shortcut = g_list_model_get_item (G_LIST_MODEL (controller), j);

          n += triggers_ctrl_o (shortcut);
        }
    }
  return n;
}

/* Ctrl+O is bound in one place (the application's accelerators), and the
 * header and the list have one width, at any window width down to 360. */
static void
test_layout_and_bindings (void)
{
  g_autofree char *dir = tu_new_dir ("layout");
  g_autoptr(GPtrArray) paths = g_ptr_array_new_with_free_func (g_free);
  PadlockApplication *app = at_application ();
  PadlockWindow *window = at_new_window ();
  g_auto(GStrv) accels = gtk_application_get_accels_for_action (GTK_APPLICATION (app),
                                                                "win.open");
  const char *none[] = { NULL };
  guint bindings;
  graphene_rect_t header, list;
  int minimum, width;

  /* Without the application's accelerator, nothing is left on Ctrl+O. */
  g_assert_cmpuint (g_strv_length (accels), ==, 1);
  g_assert_cmpuint (count_ctrl_o (window), >, 0);
  gtk_application_set_accels_for_action (GTK_APPLICATION (app), "win.open", none);
  bindings = count_ctrl_o (window);
  gtk_application_set_accels_for_action (GTK_APPLICATION (app), "win.open",
                                         (const char *const *) accels);
  g_assert_cmpuint (bindings, ==, 0);

  /* Enough rows to scroll, and scrollbars that take room (as when a
   * mouse is plugged in, or overlay scrolling is off). */
  gtk_scrolled_window_set_overlay_scrolling (window->scroller, FALSE);
  for (guint i = 0; i < 10; i++)
    {
      g_autofree char *name = g_strdup_printf ("a rather long file name, number %u.txt", i);
      g_ptr_array_add (paths, at_write_random (dir, name, 1000));
    }
  g_ptr_array_add (paths, NULL);
  at_drop (window, (const char *const *) paths->pdata);
  at_answer (at_wait_dialog (window), PASSPHRASE);
  g_assert_true (at_wait_queue_idle (window->queue, TIMEOUT_MS));
  at_settle (200);
  g_assert_true (gtk_widget_compute_bounds (window->summary_box, GTK_WIDGET (window), &header));
  /* The list's column: the list view and its scrollbar. */
  g_assert_true (gtk_widget_compute_bounds (GTK_WIDGET (window->scroller), GTK_WIDGET (window),
                                            &list));
  g_assert_true (gtk_widget_get_visible (
                   gtk_scrolled_window_get_vscrollbar (window->scroller)));
  g_assert_cmpfloat (header.size.width, >, 100);
  g_assert_cmpfloat (header.origin.x, ==, list.origin.x);
  g_assert_cmpfloat (header.size.width, ==, list.size.width);

  gtk_widget_measure (GTK_WIDGET (window), GTK_ORIENTATION_HORIZONTAL, -1,
                      &minimum, NULL, NULL, NULL);
  g_assert_cmpint (minimum, <=, 360);
  gtk_window_set_default_size (GTK_WINDOW (window), 360, 560);
  at_settle (300);
  width = gtk_widget_get_width (GTK_WIDGET (window));
  g_assert_cmpint (width, <=, 360);
  g_assert_true (gtk_widget_compute_bounds (window->summary_box, GTK_WIDGET (window), &header));
  g_assert_true (gtk_widget_compute_bounds (GTK_WIDGET (window->scroller), GTK_WIDGET (window),
                                            &list));
  g_assert_cmpfloat (header.origin.x + header.size.width, <=, width);
  g_assert_cmpfloat (list.origin.x + list.size.width, <=, width);
  g_assert_cmpfloat (header.size.width, ==, list.size.width);
  at_close_window (window);
}

/* Bar I's fill as drawn, and the share of the scale its number says. */
static void
speed_bar_shares (PadlockSpeedWindow *speed, int i, double *share,
                  double *drawn)
{
  GtkWidget *trough = gtk_widget_get_first_child (GTK_WIDGET (speed->bars[i]));
  GtkWidget *block = gtk_widget_get_first_child (trough);
  double rate = speed->rates[i];

  *share = rate > 0 ? rate / speed->upper : 0;
  *drawn = (double) gtk_widget_get_width (block) / gtk_widget_get_width (trough);
}

/* Every bar has been laid out at its final value (on a busy machine the
 * frame after the last result can come late). */
static gboolean
speed_bars_laid_out (gpointer data)
{
  for (int i = 0; i < PADLOCK_SPEED_N_TESTS; i++)
    {
      double share, drawn;

      speed_bar_shares (data, i, &share, &drawn);
      if (fabs (drawn - share) >= 0.03)
        return FALSE;
    }
  return TRUE;
}

/* The Speed Test's bars on one linear scale up to the fastest result:
 * each bar's fill is its rate's share of the fastest, as drawn; every
 * cipher Preferences offers is measured; the explanation is there from
 * the start and does not change when the run ends. */
static void
test_speed_scale (void)
{
  PadlockWindow *window = at_new_window ();
  PadlockSpeedWindow *speed =
    PADLOCK_SPEED_WINDOW (padlock_speed_window_new (GTK_WINDOW (window)));
  g_autofree char *explanation = NULL;
  g_autoptr(GString) names = g_string_new (NULL);
  double fastest = 0;

  gtk_window_present (GTK_WINDOW (speed));
  at_settle (50);
  g_assert_true (padlock_speed_window_is_running (speed));
  explanation = g_strdup (gtk_label_get_text (speed->summary_label));
  g_assert_true (g_str_has_prefix (explanation, "Measured in memory"));
  g_assert_true (at_wait_until (at_speed_done, speed, TIMEOUT_MS));
  g_assert_cmpstr (gtk_label_get_text (speed->summary_label), ==, explanation);
  /* Waits for the layout, not for a result: a bar drawn at the wrong
   * share stays wrong, and the loop below then fails. */
  at_wait_until (speed_bars_laid_out, speed, TIMEOUT_MS);
  for (int i = 0; i < PADLOCK_SPEED_N_TESTS; i++)
    fastest = MAX (fastest, speed->rates[i]);
  g_assert_cmpfloat (speed->upper, ==, fastest);
  for (int i = 0; i < PADLOCK_SPEED_N_TESTS; i++)
    {
      double rate = speed->rates[i];
      double share, drawn;

      speed_bar_shares (speed, i, &share, &drawn);
      g_string_append_printf (names, "%s|", padlock_speed_test_name (i));
      g_assert_cmpfloat (rate, >, 0);
      g_test_message ("%s: %.0f MB/s, %.2f of the scale, %.2f drawn",
                      padlock_speed_test_name (i), rate / 1e6, share, drawn);
      g_assert_cmpfloat (fabs (gtk_level_bar_get_value (speed->bars[i])
                               / gtk_level_bar_get_max_value (speed->bars[i]) - share),
                         <, 0.001);
      g_assert_cmpfloat (fabs (drawn - share), <, 0.03);
    }
  /* The ciphers of Preferences' cipher row. */
  for (const char *const *c = (const char *const[]) { "AES-256", "AES-192", "AES-128",
                                                      "Twofish", "Camellia-256", NULL };
       *c; c++)
    g_assert_nonnull (strstr (names->str, *c));
  gtk_window_destroy (GTK_WINDOW (speed));
  at_close_window (window);
}

/* A job on FILE_NAME in DIR that has its passphrase; the file need not
 * exist (the job then fails, as a missing file does). */
static PadlockJob *
new_job (const char    *dir,
         const char    *file_name,
         PadlockSecret *secret)
{
  g_autofree char *path = g_build_filename (dir, file_name, NULL);
  g_autoptr(GFile) file = g_file_new_for_path (path);

  return at_new_job (file, secret);
}

static void
count_signal (guint *count)
{
  (*count)++;
}

static guint
count_rows (GtkWidget *root)
{
  guint n = 0;

  for (GtkWidget *child = gtk_widget_get_first_child (root); child;
       child = gtk_widget_get_next_sibling (child))
    n += PADLOCK_IS_JOB_ROW (child) ? 1 : count_rows (child);
  return n;
}

static GListModel *
view_model (PadlockWindow *window)
{
  return G_LIST_MODEL (gtk_list_view_get_model (window->job_list));
}

/* 10,000 jobs in one go: the list view holds them all, but makes rows
 * only for those in sight; scrolled to the end, its rows show the last
 * jobs; Clear Finished removes them in one items-changed, not 10,000. */
static void
test_ten_thousand (void)
{
  g_autofree char *dir = tu_new_dir ("many");
  g_autoptr(PadlockSecret) secret = padlock_secret_new (PASSPHRASE);
  PadlockWindow *window = at_new_window ();
  GtkAdjustment *adjustment;
  guint changes = 0;
  guint rows;

  for (guint i = 0; i < 10000; i++)
    {
      g_autofree char *name = g_strdup_printf ("missing-%05u.txt", i);
      g_autoptr(PadlockJob) job = new_job (dir, name, secret);

      padlock_queue_add (window->queue, job);
    }
  /* The first few start (and fail: no such file); the rest wait, and
   * are cancelled here, before they can start. */
  padlock_queue_cancel_all (window->queue);
  g_assert_cmpuint (g_list_model_get_n_items (view_model (window)), ==, 10000);
  at_settle (200);
  rows = count_rows (GTK_WIDGET (window->job_list));
  g_assert_cmpuint (rows, >, 0);
  g_assert_cmpuint (rows, <, 500);
  g_assert_cmpstr (gtk_label_get_text (GTK_LABEL (row_child (window, 0, "title_label"))), ==,
                   FSI "missing-00000.txt" PDI);

  /* At the end, rows (made anew or given other jobs) show the last jobs. */
  adjustment = gtk_scrollable_get_vadjustment (GTK_SCROLLABLE (window->job_list));
  gtk_adjustment_set_value (adjustment, gtk_adjustment_get_upper (adjustment));
  at_settle (200);
  gtk_adjustment_set_value (adjustment, gtk_adjustment_get_upper (adjustment));
  at_settle (200);
  g_assert_cmpstr (gtk_label_get_text (GTK_LABEL (row_child (window, 9999, "title_label"))),
                   ==, FSI "missing-09999.txt" PDI);
  g_assert_cmpuint (count_rows (GTK_WIDGET (window->job_list)), <, 500);

  g_assert_true (at_wait_queue_idle (window->queue, TIMEOUT_MS));
  g_assert_cmpuint (padlock_queue_count_state (window->queue, PADLOCK_JOB_FAILED)
                    + padlock_queue_count_state (window->queue, PADLOCK_JOB_CANCELLED),
                    ==, 10000);
  g_signal_connect_swapped (window->queue, "items-changed", G_CALLBACK (count_signal),
                            &changes);
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (window), "win.clear-finished",
                                             NULL));
  g_assert_cmpuint (changes, ==, 1);
  g_assert_cmpuint (g_list_model_get_n_items (view_model (window)), ==, 0);
  g_signal_handlers_disconnect_by_func (window->queue, count_signal, &changes);
  at_settle (100);
  g_assert_cmpstr (gtk_stack_get_visible_child_name (window->stack), ==, "empty");
  at_close_window (window);
}

/* Clear Finished takes out each run of finished jobs in one items-changed
 * and leaves the jobs that are not finished, in their order. */
static void
test_clear_ranges (void)
{
  g_autofree char *dir = tu_new_dir ("ranges");
  g_autofree char *big = sparse_file (dir, "big.iso", G_GINT64_CONSTANT (4) << 30);
  g_autoptr(PadlockSecret) secret = padlock_secret_new (PASSPHRASE);
  g_autoptr(PadlockQueue) queue = padlock_queue_new ();
  g_autoptr(GPtrArray) jobs = g_ptr_array_new_with_free_func (g_object_unref);
  /* Finished (x) or not (.): three runs of finished jobs.  One job runs
   * at a time: the first that is not finished (a 4 GiB file), and the
   * others wait behind it. */
  const char *pattern = "xx.xxx..x.";
  guint changes = 0;

  padlock_queue_set_max_running (queue, 1);
  for (guint i = 0; pattern[i]; i++)
    {
      g_autofree char *name = g_strdup_printf ("file-%u.txt", i);
      PadlockJob *job = i == 2 ? new_job (dir, "big.iso", secret)
                               : new_job (dir, name, secret);

      if (pattern[i] == 'x')
        padlock_job_cancel (job);
      g_ptr_array_add (jobs, job);
      padlock_queue_add (queue, job);
    }
  g_assert_cmpint (padlock_job_get_state (jobs->pdata[2]), ==, PADLOCK_JOB_RUNNING);
  g_signal_connect_swapped (queue, "items-changed", G_CALLBACK (count_signal), &changes);
  padlock_queue_clear_finished (queue);
  g_assert_cmpuint (changes, ==, 3);
  g_assert_cmpuint (g_list_model_get_n_items (G_LIST_MODEL (queue)), ==, 4);
  for (guint i = 0, j = 0; pattern[i]; i++)
    if (pattern[i] == '.')
      {
        g_autoptr(PadlockJob) job = g_list_model_get_item (G_LIST_MODEL (queue), j++);

        g_assert_true (job == jobs->pdata[i]);
      }
  g_assert_cmpuint (padlock_queue_count_state (queue, PADLOCK_JOB_CANCELLED), ==, 0);
  g_assert_cmpuint (padlock_queue_count_state (queue, PADLOCK_JOB_QUEUED), ==, 3);
  padlock_queue_cancel_all (queue);
  g_assert_true (at_wait_queue_idle (queue, TIMEOUT_MS));
  g_signal_handlers_disconnect_by_func (queue, count_signal, &changes);
}

typedef struct
{
  PadlockWindow *window;
  guint n;
} ViewCount;

static gboolean
view_has_n (gpointer data)
{
  ViewCount *count = data;

  return g_list_model_get_n_items (view_model (count->window)) == count->n;
}

/* "Only Failures": offered only when something failed or was cancelled;
 * on, the list shows exactly those jobs, and jobs that fail or are
 * cancelled later come in; off again once they are cleared. */
static void
test_failures_filter (void)
{
  g_autofree char *dir = tu_new_dir ("failures");
  g_autofree char *plain = at_write_random (dir, "fine.txt", 1000);
  g_autofree char *big_path = sparse_file (dir, "big.iso", G_GINT64_CONSTANT (4) << 30);
  g_autoptr(PadlockSecret) secret = padlock_secret_new (PASSPHRASE);
  g_autoptr(PadlockJob) fine = new_job (dir, "fine.txt", secret);
  g_autoptr(PadlockJob) lost = new_job (dir, "lost.txt", secret);
  g_autoptr(PadlockJob) big = new_job (dir, "big.iso", secret);
  g_autoptr(PadlockJob) waiting = new_job (dir, "waiting.txt", secret);
  g_autoptr(PadlockJob) later = new_job (dir, "gone too.txt", secret);
  PadlockWindow *window = at_new_window ();
  GtkWidget *toggle = GTK_WIDGET (window->failures_button);
  ViewCount count = { window, 0 };

  padlock_queue_add (window->queue, fine);
  g_assert_true (at_wait_queue_idle (window->queue, TIMEOUT_MS));
  at_settle (50);
  g_assert_cmpint (padlock_job_get_state (fine), ==, PADLOCK_JOB_DONE);
  g_assert_false (gtk_widget_get_visible (toggle));

  padlock_queue_add (window->queue, lost);
  g_assert_true (at_wait_queue_idle (window->queue, TIMEOUT_MS));
  g_assert_cmpint (padlock_job_get_state (lost), ==, PADLOCK_JOB_FAILED);
  g_assert_true (gtk_widget_get_visible (toggle));
  gtk_toggle_button_set_active (window->failures_button, TRUE);
  g_assert_cmpuint (g_list_model_get_n_items (view_model (window)), ==, 1);
  at_settle (50);
  g_assert_cmpstr (gtk_label_get_text (GTK_LABEL (row_child (window, 1, "title_label"))), ==,
                   FSI "lost.txt" PDI);
  g_assert_cmpuint (count_rows (GTK_WIDGET (window->job_list)), ==, 1);

  /* One at a time: BIG runs, WAITING and LATER wait; neither is shown. */
  padlock_queue_set_max_running (window->queue, 1);
  padlock_queue_add (window->queue, big);
  padlock_queue_add (window->queue, waiting);
  padlock_queue_add (window->queue, later);
  at_settle (100);
  g_assert_cmpint (padlock_job_get_state (waiting), ==, PADLOCK_JOB_QUEUED);
  g_assert_cmpuint (g_list_model_get_n_items (view_model (window)), ==, 1);
  /* Cancelled, WAITING comes in; BIG too; LATER then runs and fails. */
  padlock_job_cancel (waiting);
  count.n = 2;
  g_assert_true (at_wait_until (view_has_n, &count, TIMEOUT_MS));
  padlock_job_cancel (big);
  g_assert_true (at_wait_queue_idle (window->queue, TIMEOUT_MS));
  g_assert_cmpint (padlock_job_get_state (big), ==, PADLOCK_JOB_CANCELLED);
  g_assert_cmpint (padlock_job_get_state (later), ==, PADLOCK_JOB_FAILED);
  count.n = 4;
  g_assert_true (at_wait_until (view_has_n, &count, TIMEOUT_MS));
  for (guint i = 0; i < 4; i++)
    {
      g_autoptr(PadlockJob) job = g_list_model_get_item (view_model (window), i);

      g_assert_true (job == lost || job == big || job == waiting || job == later);
    }

  /* Off: every job again. */
  gtk_toggle_button_set_active (window->failures_button, FALSE);
  g_assert_cmpuint (g_list_model_get_n_items (view_model (window)), ==, 5);
  gtk_toggle_button_set_active (window->failures_button, TRUE);
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (window), "win.clear-finished",
                                             NULL));
  g_assert_false (gtk_widget_get_visible (toggle));
  g_assert_false (gtk_toggle_button_get_active (window->failures_button));
  g_assert_cmpuint (g_list_model_get_n_items (view_model (window)), ==, 0);
  padlock_queue_set_max_running (window->queue, 0);
  at_close_window (window);
}

static gboolean
job_waits_for_memory (gpointer job)
{
  return padlock_job_get_waiting_for_memory (job);
}

/* Issue 19 item 6: while the process's key-derivation memory is taken
 * (here, all of it by the test), an rfc9580 job's Argon2 waits, and its
 * row says "Waiting for memory…"; a cancel ends the wait at once (the
 * memory is still held: the job never got it). */
static void
test_waiting_for_memory (void)
{
  g_autofree char *dir = tu_new_dir ("waiting-for-memory");
  g_autofree char *path = at_write_random (dir, "small.bin", 1000);
  g_autoptr(GFile) file = g_file_new_for_path (path);
  g_autoptr(PadlockSecret) secret = padlock_secret_new (PASSPHRASE);
  g_autoptr(PadlockQueue) queue = padlock_queue_new ();
  PadlockJobConfig config = { .profile = PL_PROFILE_RFC9580 };
  g_autoptr(PadlockJob) job = padlock_job_new (file, PADLOCK_DIRECTION_ENCRYPT,
                                               &config);
  PadlockJobRow *row = PADLOCK_JOB_ROW (g_object_ref_sink (padlock_job_row_new (job)));
  GtkLabel *status = GTK_LABEL (gtk_widget_get_template_child (GTK_WIDGET (row),
                                                               PADLOCK_TYPE_JOB_ROW,
                                                               "status_label"));
  g_autofree char *listing = NULL;
  pl_kdf_memory_stats stats;

  at_application ();
  g_assert_cmpint (pl_kdf_memory_take (PL_KDF_MEMORY_BUDGET_KIB, NULL, NULL,
                                       NULL), ==, 0);
  padlock_job_set_secret (job, secret);
  padlock_queue_add (queue, job);
  g_assert_true (at_wait_until (job_waits_for_memory, job, 60000));
  g_assert_cmpstr (gtk_label_get_text (status), ==, "Waiting for memory…");
  padlock_job_cancel (job);
  g_assert_true (at_wait_until (at_job_is_finished, job, 60000));
  g_assert_cmpint (padlock_job_get_state (job), ==, PADLOCK_JOB_CANCELLED);
  g_assert_false (padlock_job_get_waiting_for_memory (job));
  g_assert_cmpstr (gtk_label_get_text (status), ==,
                   "Cancelled · nothing was written");
  pl_kdf_memory_get_stats (&stats);
  g_assert_cmpuint (stats.in_use_kib, ==, PL_KDF_MEMORY_BUDGET_KIB);
  g_assert_cmpuint (stats.waiting, ==, 0);
  pl_kdf_memory_give (PL_KDF_MEMORY_BUDGET_KIB);
  listing = tu_list_dir (dir);
  g_assert_cmpstr (listing, ==, "small.bin");
  g_object_unref (row);
}

/* A row the list view gives another job shows that job, and the job it
 * showed before no longer reaches it, nor keeps a handler of it. */
static void
test_row_recycle (void)
{
  g_autofree char *dir = tu_new_dir ("recycle");
  g_autoptr(PadlockJob) alpha = new_job (dir, "alpha.txt", NULL);
  g_autoptr(PadlockJob) beta = new_job (dir, "beta.txt", NULL);
  guint notify_id = g_signal_lookup ("notify", G_TYPE_OBJECT);
  PadlockJobRow *row = PADLOCK_JOB_ROW (g_object_ref_sink (padlock_job_row_new (NULL)));
  GtkLabel *title = GTK_LABEL (gtk_widget_get_template_child (GTK_WIDGET (row),
                                                              PADLOCK_TYPE_JOB_ROW,
                                                              "title_label"));
  GtkLabel *status = GTK_LABEL (gtk_widget_get_template_child (GTK_WIDGET (row),
                                                               PADLOCK_TYPE_JOB_ROW,
                                                               "status_label"));

  at_application ();
  padlock_job_row_set_job (row, alpha);
  g_assert_cmpstr (gtk_label_get_text (title), ==, FSI "alpha.txt" PDI);
  g_assert_true (g_signal_has_handler_pending (alpha, notify_id, 0, FALSE));

  padlock_job_row_set_job (row, beta);
  g_assert_true (padlock_job_row_get_job (row) == beta);
  g_assert_cmpstr (gtk_label_get_text (title), ==, FSI "beta.txt" PDI);
  g_assert_cmpstr (gtk_label_get_text (status), ==, "Waiting");
  g_assert_false (g_signal_has_handler_pending (alpha, notify_id, 0, FALSE));
  g_assert_cmpuint (G_OBJECT (alpha)->ref_count, ==, 1);
  /* ALPHA changes: the row, showing BETA, does not. */
  padlock_job_cancel (alpha);
  g_assert_cmpstr (gtk_label_get_text (title), ==, FSI "beta.txt" PDI);
  g_assert_cmpstr (gtk_label_get_text (status), ==, "Waiting");
  g_assert_true (gtk_widget_get_visible (GTK_WIDGET (gtk_widget_get_template_child (
                   GTK_WIDGET (row), PADLOCK_TYPE_JOB_ROW, "progress_bar"))));
  /* BETA does: the row follows, and compacts to one line. */
  padlock_job_cancel (beta);
  g_assert_cmpstr (gtk_label_get_text (status), ==, "Cancelled · nothing was written");
  g_assert_true (gtk_widget_has_css_class (GTK_WIDGET (row), "compact"));

  padlock_job_row_set_job (row, NULL);
  g_assert_null (padlock_job_row_get_job (row));
  g_assert_false (g_signal_has_handler_pending (beta, notify_id, 0, FALSE));
  g_assert_cmpuint (G_OBJECT (beta)->ref_count, ==, 1);
  /* Nothing to act on: the row's actions are off. */
  g_assert_false (gtk_widget_get_sensitive (GTK_WIDGET (gtk_widget_get_template_child (
                    GTK_WIDGET (row), PADLOCK_TYPE_JOB_ROW, "cancel_button"))));
  /* Disposed while showing a job, it lets go of it too. */
  padlock_job_row_set_job (row, alpha);
  g_object_unref (row);
  g_assert_false (g_signal_has_handler_pending (alpha, notify_id, 0, FALSE));
  g_assert_cmpuint (G_OBJECT (alpha)->ref_count, ==, 1);
}

/* Below 500 px a row takes two lines: a long name keeps the first to
 * itself, the verdict and the buttons are under it; wider, one line. */
static void
test_narrow_rows (void)
{
  g_autofree char *dir = tu_new_dir ("narrow");
  g_autofree char *plain = at_write_random (dir, "A long name for the holiday video of the summer.mkv",
                                            4000);
  PadlockWindow *window = at_new_window ();
  const char *paths[] = { plain, NULL };
  graphene_rect_t title, verdict, show, row;

  at_drop (window, paths);
  at_answer (at_wait_dialog (window), PASSPHRASE);
  g_assert_true (at_wait_queue_idle (window->queue, TIMEOUT_MS));
  gtk_window_set_default_size (GTK_WINDOW (window), 360, 640);
  at_settle (500);
  g_assert_true (window->narrow_rows);
  g_assert_true (gtk_widget_compute_bounds (row_child (window, 0, "title_label"),
                                            row_at (window, 0), &title));
  g_assert_true (gtk_widget_compute_bounds (row_child (window, 0, "verdict_label"),
                                            row_at (window, 0), &verdict));
  g_assert_true (gtk_widget_compute_bounds (row_child (window, 0, "show_button"),
                                            row_at (window, 0), &show));
  g_assert_true (gtk_widget_compute_bounds (row_at (window, 0), row_at (window, 0), &row));
  g_assert_true (gtk_widget_get_mapped (row_child (window, 0, "verdict_label")));
  /* The verdict and the button on the second line, under the name. */
  g_assert_cmpfloat (verdict.origin.y, >=, title.origin.y + title.size.height);
  g_assert_cmpfloat (show.origin.y, >=, title.origin.y + title.size.height);
  /* The name has the line's width, less the icon. */
  g_assert_cmpfloat (title.size.width, >, row.size.width / 2);
  /* The verdict is not cut to a few letters ("Encryp…"). */
  g_assert_false (pango_layout_is_ellipsized (gtk_label_get_layout (
                    GTK_LABEL (row_child (window, 0, "verdict_label")))));

  gtk_window_set_default_size (GTK_WINDOW (window), 640, 560);
  at_settle (500);
  g_assert_false (window->narrow_rows);
  g_assert_true (gtk_widget_compute_bounds (row_child (window, 0, "title_label"),
                                            row_at (window, 0), &title));
  g_assert_true (gtk_widget_compute_bounds (row_child (window, 0, "show_button"),
                                            row_at (window, 0), &show));
  g_assert_cmpfloat (show.origin.y, <, title.origin.y + title.size.height);
  at_close_window (window);
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
  g_test_add_func ("/ui/counts-and-quit", test_counts_and_quit);
  g_test_add_func ("/ui/plaintext-size", test_plaintext_size);
  g_test_add_func ("/ui/passphrase-dialog", test_passphrase_dialog);
  g_test_add_func ("/ui/open-failure", test_open_failure);
  g_test_add_func ("/ui/not-openpgp-drop", test_not_openpgp_drop);
  g_test_add_func ("/ui/not-mine-no-keyring", test_not_mine_no_keyring);
  g_test_add_func ("/ui/layout-and-bindings", test_layout_and_bindings);
  g_test_add_func ("/ui/speed-scale", test_speed_scale);
  g_test_add_func ("/ui/ten-thousand", test_ten_thousand);
  g_test_add_func ("/ui/clear-ranges", test_clear_ranges);
  g_test_add_func ("/ui/failures-filter", test_failures_filter);
  g_test_add_func ("/ui/row-recycle", test_row_recycle);
  g_test_add_func ("/ui/narrow-rows", test_narrow_rows);
  g_test_add_func ("/ui/waiting-for-memory", test_waiting_for_memory);
  return g_test_run ();
}
