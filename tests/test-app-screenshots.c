/* test-app-screenshots.c - PNGs of each screen, into build/screenshots/,
 * for people to look at */
#include <fcntl.h>
#include <locale.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <unistd.h>
#include <glib/gi18n.h>
#include <string.h>
#include <glib/gstdio.h>

#include "app-testutil.h"
#include "padlock-preferences-window.h"
#include "padlock-speed-window.h"
#include "padlock-window.h"

#define PASSPHRASE "tulip-orbit-canyon-42"
#define TIMEOUT_MS (180 * 1000)

static gboolean
job_fifth_done (gpointer data)
{
  PadlockJob *job = data;
  gint64 total = padlock_job_get_bytes_total (job);

  return padlock_job_is_finished (job)
         || (padlock_job_get_throughput (job) > 0
             && padlock_job_get_bytes_done (job) > (guint64) total / 5);
}

static void
test_screenshots (void)
{
  g_autofree char *dir = tu_new_dir ("shots");
  g_autofree char *big = at_write_random (dir, "Holiday video.mkv", 600 * 1024 * 1024);
  g_autofree char *report = at_write_random (dir, "Quarterly report.pdf", 3 * 1024 * 1024);
  g_autofree char *notes = at_write_random (dir, "notes.txt", 40 * 1024);
  g_autofree char *tax = at_write_random (dir, "tax-2024.ods", 900 * 1024);
  g_autofree char *tax_gpg = g_build_filename (dir, "tax-2024.ods.gpg", NULL);
  g_autofree char *letter = at_write_random (dir, "letter.odt", 30 * 1024);
  g_autofree char *letter_gpg = g_build_filename (dir, "letter.odt.gpg", NULL);
  PadlockWindow *window = at_new_window ();
  PadlockPassphraseDialog *dialog;
  GtkWindow *prefs, *speed;
  PadlockJob *big_job;
  const char *first[] = { report, notes, big, letter_gpg, NULL };
  const char *second[] = { tax_gpg, NULL };

  at_gpg_encrypt (tax, tax_gpg, "another passphrase", NULL);
  g_unlink (tax);
  at_gpg_encrypt (letter, letter_gpg, PASSPHRASE, NULL);
  g_unlink (letter);

  at_screenshot (GTK_WIDGET (window), "01-empty-window");

  gtk_widget_set_visible (window->drop_hint, TRUE);
  at_screenshot (GTK_WIDGET (window), "02-drop-highlight");
  gtk_widget_set_visible (window->drop_hint, FALSE);

  at_drop (window, first);
  /* The encrypt dialog: the format, the decrypt dialog to come, a weak
   * passphrase in plain words; then a generated one, ready to copy. */
  dialog = at_wait_dialog (window);
  gtk_editable_set_text (GTK_EDITABLE (dialog->entry), "tulip");
  gtk_editable_set_text (GTK_EDITABLE (dialog->confirm_entry), "tul");
  at_settle (1000);
  { int mn, nat; gtk_widget_measure (GTK_WIDGET (dialog), GTK_ORIENTATION_VERTICAL, 430, &mn, &nat, NULL, NULL); g_test_message ("dialog %d x %d min %d nat %d mapped people %d", gtk_widget_get_width (GTK_WIDGET (dialog)), gtk_widget_get_height (GTK_WIDGET (dialog)), mn, nat, gtk_widget_get_height (GTK_WIDGET (dialog->people))); }
  at_screenshot (GTK_WIDGET (dialog), "03-passphrase-dialog");
  g_signal_emit_by_name (dialog->generate_button, "clicked");
  at_screenshot (GTK_WIDGET (dialog), "03b-passphrase-generated");
  at_answer (dialog, PASSPHRASE);
  dialog = at_wait_dialog (window);
  at_screenshot (GTK_WIDGET (dialog), "03c-passphrase-decrypt");
  at_answer (dialog, PASSPHRASE);

  /* Borrowed: the queue keeps it. */
  big_job = g_list_model_get_item (G_LIST_MODEL (window->queue), 2);
  g_object_unref (big_job);
  g_assert_true (at_wait_until (job_fifth_done, big_job, TIMEOUT_MS));
  at_settle (1000);
  at_screenshot (GTK_WIDGET (window), "04-jobs-running");

  g_assert_true (at_wait_queue_idle (window->queue, TIMEOUT_MS));
  at_screenshot (GTK_WIDGET (window), "05-jobs-finished");

  /* A phone-sized window. */
  gtk_window_set_default_size (GTK_WINDOW (window), 360, 640);
  at_settle (300);
  at_screenshot (GTK_WIDGET (window), "05b-narrow-window");
  gtk_window_set_default_size (GTK_WINDOW (window), 640, 560);
  at_settle (300);

  at_drop (window, second);
  dialog = at_wait_dialog (window);
  at_answer (dialog, "not the passphrase");
  g_assert_true (at_wait_queue_idle (window->queue, TIMEOUT_MS));
  dialog = at_wait_dialog (window);
  at_screenshot (GTK_WIDGET (dialog), "06-passphrase-again");
  gtk_window_close (GTK_WINDOW (dialog));
  at_settle (200);
  {
    GtkAdjustment *adjustment = gtk_scrolled_window_get_vadjustment (window->scroller);

    /* The failed row is the last one. */
    gtk_adjustment_set_value (adjustment, gtk_adjustment_get_upper (adjustment));
  }
  at_screenshot (GTK_WIDGET (window), "07-failed-job");

  prefs = padlock_preferences_window_new (GTK_WINDOW (window));
  /* Tall enough for every group, so that the picture shows them all. */
  gtk_window_set_default_size (prefs, 550, 1040);
  gtk_window_present (prefs);
  at_screenshot (GTK_WIDGET (prefs), "08-preferences");
  gtk_window_destroy (prefs);

  speed = padlock_speed_window_new (GTK_WINDOW (window));
  gtk_window_present (speed);
  g_assert_true (at_wait_until (at_speed_done, speed, TIMEOUT_MS));
  at_screenshot (GTK_WIDGET (speed), "09-speed-test");
  gtk_window_destroy (speed);

  g_action_group_activate_action (G_ACTION_GROUP (at_application ()), "about", NULL);
  at_settle (300);
  for (GList *l = gtk_window_list_toplevels (); l; l = g_list_delete_link (l, l))
    if (ADW_IS_ABOUT_WINDOW (l->data))
      {
        at_screenshot (l->data, "10-about");
        gtk_window_destroy (l->data);
      }

  gtk_widget_activate_action (GTK_WIDGET (window), "win.show-help-overlay", NULL);
  at_screenshot (GTK_WIDGET (gtk_application_window_get_help_overlay (
                   GTK_APPLICATION_WINDOW (window))), "11-shortcuts");

  gtk_window_destroy (GTK_WINDOW (window));
}

/* The question Ctrl+Q asks while a job runs.  The job reads a FIFO that
 * nobody writes until the picture is taken, so that it cannot end while
 * the question is drawn: when the jobs end, the question closes by
 * itself and the window with it, as the user asked (once, over a 600 MB
 * file, it did, and the test crashed on the dialog it still held). */
static void
test_quit_screenshot (void)
{
  g_autofree char *dir = tu_new_dir ("quit");
  g_autofree char *fifo = g_build_filename (dir, "Holiday video.mkv", NULL);
  g_autoptr(GFile) fifo_file = g_file_new_for_path (fifo);
  g_autoptr(PadlockSecret) secret = padlock_secret_new (PASSPHRASE);
  g_autoptr(PadlockJob) held = NULL;
  PadlockWindow *window = at_new_window ();
  int fd;

  g_assert_cmpint (mkfifo (fifo, 0600), ==, 0);
  held = at_new_job (fifo_file, secret);
  padlock_queue_add (window->queue, held);
  g_action_group_activate_action (G_ACTION_GROUP (at_application ()), "quit", NULL);
  g_assert_nonnull (window->quit_dialog);
  at_screenshot (GTK_WIDGET (window->quit_dialog), "04b-quit-confirmation");
  g_assert_false (padlock_job_is_finished (held));
  adw_message_dialog_response (window->quit_dialog, "cancel");
  g_assert_null (window->quit_dialog);

  /* Let the job go: an empty input. */
  fd = open (fifo, O_WRONLY | O_NONBLOCK);
  if (fd >= 0)
    close (fd);
  g_assert_true (at_wait_queue_idle (window->queue, TIMEOUT_MS));
  at_close_window (window);
}

static gboolean
queue_idle_or_done (gpointer data)
{
  return !padlock_queue_get_busy (data);
}

/* The window at 1280 and at 360 px, in English and in German: rows that
 * name what they wrote ("→ a (1).jpg"), a folder's row, the graph
 * beside them.  Into build/screenshots as window-WIDTH-LANG.png (the
 * ones in data/screenshots are copied from there). */
static void
test_window_sizes (void)
{
  static const char *languages[] = { "en", "de" };
  static const int widths[] = { 1280, 360 };
  g_autofree char *locale_dir = g_build_filename (g_getenv ("PADLOCK_BUILD_DIR"), "po", NULL);

  /* The build's translations (po/LANG/LC_MESSAGES/padlock.mo). */
  bindtextdomain ("padlock", locale_dir);
  bind_textdomain_codeset ("padlock", "UTF-8");
  textdomain ("padlock");
  setlocale (LC_ALL, "C.UTF-8");
  for (guint l = 0; l < G_N_ELEMENTS (languages); l++)
    {
      g_autofree char *dir = tu_new_dir (languages[l]);
      g_autofree char *photo = at_write_random (dir, "a.jpg", 2 * 1024 * 1024);
      g_autofree char *photo_gpg = g_build_filename (dir, "a.jpg.gpg", NULL);
      g_autofree char *report = at_write_random (dir, "Quarterly report.pdf",
                                                 40 * 1024 * 1024);
      g_autofree char *folder = g_build_filename (dir, "Holiday Photos", NULL);
      const char *encrypt[] = { report, NULL };
      const char *folders[] = { folder, NULL };
      const char *decrypt[] = { photo_gpg, NULL };
      PadlockWindow *window;

      g_setenv ("LANGUAGE", languages[l], TRUE);
      g_mkdir (folder, 0700);
      for (guint i = 0; i < 212; i++)
        {
          g_autofree char *name = g_strdup_printf ("IMG_%04u.jpg", i);
          g_free (at_write_random (folder, name, 20000));
        }
      at_gpg_encrypt (photo, photo_gpg, PASSPHRASE, NULL);
      window = at_new_window ();
      at_drop (window, decrypt);
      at_answer (at_wait_dialog (window), PASSPHRASE);
      g_assert_true (at_wait_queue_idle (window->queue, TIMEOUT_MS));
      at_drop (window, folders);
      at_answer (at_wait_dialog (window), PASSPHRASE);
      g_assert_true (at_wait_queue_idle (window->queue, TIMEOUT_MS));
      at_drop (window, encrypt);
      at_answer (at_wait_dialog (window), PASSPHRASE);
      g_assert_true (at_wait_until (queue_idle_or_done, window->queue, TIMEOUT_MS));
      at_settle (1000);
      for (guint w = 0; w < G_N_ELEMENTS (widths); w++)
        {
          g_autofree char *name = g_strdup_printf ("window-%d-%s", widths[w], languages[l]);

          gtk_window_set_default_size (GTK_WINDOW (window), widths[w],
                                       widths[w] > 500 ? 720 : 640);
          at_settle (500);
          at_screenshot (GTK_WIDGET (window), name);
        }
      gtk_window_destroy (GTK_WINDOW (window));
      at_settle (100);
    }
  g_unsetenv ("LANGUAGE");
}

/* The screenshots the metainfo names are in data/screenshots, at the size
 * it gives, and the README shows each of them. */
static void
test_metainfo_screenshots (void)
{
  const char *source = g_getenv ("PADLOCK_SOURCE_DIR");
  g_autofree char *metainfo_path = NULL;
  g_autofree char *readme_path = NULL;
  g_autofree char *metainfo = NULL;
  g_autofree char *readme = NULL;
  g_autoptr(GRegex) image = g_regex_new ("<image type=\"source\" width=\"(\\d+)\" "
                                         "height=\"(\\d+)\">[^<]*/data/screenshots/"
                                         "([a-z-]+\\.png)</image>", 0, 0, NULL);
  g_autoptr(GMatchInfo) match = NULL;
  guint n = 0;

  g_assert_nonnull (source);
  metainfo_path = g_build_filename (source, "data", "io.github.padlock.Padlock.metainfo.xml.in",
                                    NULL);
  readme_path = g_build_filename (source, "README.md", NULL);
  g_assert_true (g_file_get_contents (metainfo_path, &metainfo, NULL, NULL));
  g_assert_true (g_file_get_contents (readme_path, &readme, NULL, NULL));

  g_regex_match (image, metainfo, 0, &match);
  for (; g_match_info_matches (match); g_match_info_next (match, NULL), n++)
    {
      g_autofree char *width = g_match_info_fetch (match, 1);
      g_autofree char *height = g_match_info_fetch (match, 2);
      g_autofree char *name = g_match_info_fetch (match, 3);
      g_autofree char *path = g_build_filename (source, "data", "screenshots", name, NULL);
      g_autofree char *link = g_strconcat ("(data/screenshots/", name, ")", NULL);
      g_autoptr(GError) error = NULL;
      g_autoptr(GdkTexture) texture = gdk_texture_new_from_filename (path, &error);

      g_assert_no_error (error);
      g_assert_cmpint (gdk_texture_get_width (texture), ==, atoi (width));
      g_assert_cmpint (gdk_texture_get_height (texture), ==, atoi (height));
      g_assert_nonnull (strstr (readme, link));
    }
  g_assert_cmpuint (n, >=, 3);
}

int
main (int argc, char **argv)
{
  tu_init (&argc, &argv);
  at_application ();
  g_test_add_func ("/screenshots/metainfo", test_metainfo_screenshots);
  g_test_add_func ("/screenshots", test_screenshots);
  g_test_add_func ("/screenshots/quit", test_quit_screenshot);
  g_test_add_func ("/screenshots/window-sizes", test_window_sizes);
  return g_test_run ();
}
