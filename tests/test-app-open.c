/* test-app-open.c - Open Without Saving in the window (issue 38): files
 * given to padlock_window_open_without_saving (what `padlock --open` and
 * the file managers call) are decrypted into memory after the passphrase
 * dialog, handed to a stub viewer (tests/stub-viewer.c, the default
 * application for PDF and PNG through this test's XDG_DATA_HOME), and
 * their rows say "Opened in Stub Viewer · not saved" with no file to show
 * and "Save As…" instead of Open; nothing is written beside the input; a tampered message
 * starts no viewer and its row says it was not decrypted.  Under
 * tests/run-ui-test: its session bus has no OpenURI portal, so the
 * viewer is launched on /proc/PID/fd/N.
 */
#include <string.h>
#include <unistd.h>
#include <glib/gstdio.h>

#include "app-testutil.h"
#include "padlock-job-row.h"

#define PASSPHRASE "tulip-orbit-canyon-42"
#define TIMEOUT_MS (120 * 1000)

static char *result_path;

static GtkWidget *
row_child (PadlockWindow *window,
           guint          index,
           const char    *name)
{
  GtkWidget *list = GTK_WIDGET (window->job_list);
  guint i = 0;

  /* The list view's rows, in order: each child's first child is the row. */
  for (GtkWidget *item = gtk_widget_get_first_child (list); item;
       item = gtk_widget_get_next_sibling (item))
    {
      GtkWidget *row = gtk_widget_get_first_child (item);

      if (!PADLOCK_IS_JOB_ROW (row))
        continue;
      if (i++ == index)
        return GTK_WIDGET (gtk_widget_get_template_child (row, PADLOCK_TYPE_JOB_ROW,
                                                         name));
    }
  g_assert_not_reached ();
}

static gboolean
result_exists (gpointer data)
{
  return g_file_test (result_path, G_FILE_TEST_EXISTS);
}

/* The stub viewer's copy, once it wrote it whole (it exits then). */
static GBytes *
wait_viewed (void)
{
  g_autofree char *arg_path = g_strconcat (result_path, ".arg", NULL);
  char *data;
  gsize len;

  g_assert_true (at_wait_until (result_exists, NULL, 20000));
  at_settle (500);
  g_assert_true (g_file_get_contents (result_path, &data, &len, NULL));
  g_unlink (result_path);
  g_unlink (arg_path);
  return g_bytes_new_take (data, len);
}

static void
on_subprocess_exit (GObject      *source,
                    GAsyncResult *result,
                    gpointer      data)
{
  g_subprocess_wait_finish (G_SUBPROCESS (source), result, NULL);
  *(gboolean *) data = TRUE;
}

static gboolean
is_true (gpointer data)
{
  return *(gboolean *) data;
}

/* `padlock --open PATH`, a second instance: the window's gets it. */
static void
run_open_command (const char *path)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(GSubprocess) proc = NULL;
  gboolean done = FALSE;

  proc = g_subprocess_new (G_SUBPROCESS_FLAGS_NONE, &error,
                           g_getenv ("PADLOCK_APP"), "--open", path, NULL);
  g_assert_no_error (error);
  g_subprocess_wait_async (proc, NULL, on_subprocess_exit, &done);
  g_assert_true (at_wait_until (is_true, &done, 30000));
  g_assert_cmpint (g_subprocess_get_exit_status (proc), ==, 0);
}

/* NAME (SIZE octets) opened without saving, through the window's
 * function, or with COMMAND_LINE through `padlock --open`. */
static void
open_one (const char *name,
          gsize       size,
          gboolean    command_line)
{
  g_autofree char *dir = tu_new_dir ("open");
  g_autofree char *plain = at_write_random (dir, name, size);
  g_autofree char *message = g_strconcat (plain, ".gpg", NULL);
  g_autoptr(GFile) file = g_file_new_for_path (message);
  g_autoptr(GBytes) plain_bytes = NULL;
  g_autoptr(GBytes) viewed = NULL;
  g_autoptr(GDir) listing = NULL;
  PadlockWindow *window = at_new_window ();
  g_autofree char *expected = NULL;
  char *data;
  gsize len;

  g_assert_true (g_file_get_contents (plain, &data, &len, NULL));
  plain_bytes = g_bytes_new_take (data, len);
  at_gpg_encrypt (plain, message, PASSPHRASE, name);
  g_unlink (plain);

  if (command_line)
    run_open_command (message);
  else
    padlock_window_open_without_saving (window, &file, 1);
  at_answer (at_wait_dialog (window), PASSPHRASE);
  g_assert_true (at_wait_queue_idle (window->queue, TIMEOUT_MS));
  viewed = wait_viewed ();
  g_assert_true (g_bytes_equal (viewed, plain_bytes));
  at_settle (100);
  g_assert_cmpstr (gtk_label_get_text (GTK_LABEL (row_child (window, 0, "status_label"))),
                   ==, "Opened in Stub Viewer · not saved");
  /* No file to show; its one action is a copy to save. */
  g_assert_false (gtk_widget_get_visible (row_child (window, 0, "show_button")));
  g_assert_true (gtk_widget_get_visible (row_child (window, 0, "open_button")));
  g_assert_cmpstr (gtk_button_get_label (GTK_BUTTON (row_child (window, 0, "open_button"))),
                   ==, "Save _As…");
  /* Only the message is in its folder: no plaintext was written. */
  listing = g_dir_open (dir, 0, NULL);
  expected = g_path_get_basename (message);
  g_assert_cmpstr (g_dir_read_name (listing), ==, expected);
  g_assert_null (g_dir_read_name (listing));
  at_close_window (window);
}

static void
test_open_pdf (void)
{
  open_one ("contract.pdf", 200 * 1024, FALSE);
}

static void
test_command_line (void)
{
  g_assert_nonnull (g_getenv ("PADLOCK_APP"));
  open_one ("letter.pdf", 10 * 1024, TRUE);
}

static void
test_open_png (void)
{
  open_one ("scan.png", 30 * 1024, FALSE);
}

/* One octet flipped: no viewer, and the row says so. */
static void
test_tampered (void)
{
  g_autofree char *dir = tu_new_dir ("tampered");
  g_autofree char *plain = at_write_random (dir, "report.pdf", 50 * 1024);
  g_autofree char *message = g_strconcat (plain, ".gpg", NULL);
  g_autoptr(GFile) file = g_file_new_for_path (message);
  PadlockWindow *window = at_new_window ();
  char *data;
  gsize len;

  at_gpg_encrypt (plain, message, PASSPHRASE, "report.pdf");
  g_unlink (plain);
  g_assert_true (g_file_get_contents (message, &data, &len, NULL));
  data[len / 2] ^= 0x01;
  g_assert_true (g_file_set_contents (message, data, (gssize) len, NULL));
  g_free (data);

  padlock_window_open_without_saving (window, &file, 1);
  at_answer (at_wait_dialog (window), PASSPHRASE);
  g_assert_true (at_wait_queue_idle (window->queue, TIMEOUT_MS));
  at_settle (3000);
  g_assert_false (g_file_test (result_path, G_FILE_TEST_EXISTS));
  g_assert_cmpstr (gtk_label_get_text (GTK_LABEL (row_child (window, 0, "status_label"))),
                   ==, "Not decrypted");
  at_close_window (window);
}

/* The stub viewer, the only application, for PDF and PNG. */
static void
register_viewer (void)
{
  g_autofree char *root = g_dir_make_tmp ("padlock-app-open-XXXXXX", NULL);
  g_autofree char *apps = g_build_filename (root, "data", "applications", NULL);
  g_autofree char *system = g_build_filename (root, "system", NULL);
  g_autofree char *mime = g_build_filename (system, "mime", NULL);
  g_autofree char *desktop = NULL;
  g_autofree char *desktop_path = g_build_filename (apps, "padlock-stub-viewer.desktop", NULL);
  g_autofree char *list_path = g_build_filename (apps, "mimeapps.list", NULL);
  g_autofree char *data_home = g_build_filename (root, "data", NULL);

  g_assert_nonnull (g_getenv ("PADLOCK_STUB_VIEWER"));
  g_assert_cmpint (g_mkdir_with_parents (apps, 0700), ==, 0);
  g_assert_cmpint (g_mkdir_with_parents (system, 0700), ==, 0);
  g_assert_cmpint (symlink ("/usr/share/mime", mime), ==, 0);
  desktop = g_strdup_printf ("[Desktop Entry]\nType=Application\nName=Stub Viewer\n"
                             "Exec=%s %%f\nMimeType=application/pdf;image/png;\n",
                             g_getenv ("PADLOCK_STUB_VIEWER"));
  g_assert_true (g_file_set_contents (desktop_path, desktop, -1, NULL));
  g_assert_true (g_file_set_contents (list_path,
                                      "[Default Applications]\n"
                                      "application/pdf=padlock-stub-viewer.desktop\n"
                                      "image/png=padlock-stub-viewer.desktop\n", -1, NULL));
  g_setenv ("XDG_DATA_HOME", data_home, TRUE);
  g_setenv ("XDG_DATA_DIRS", system, TRUE);
  result_path = g_build_filename (root, "viewed", NULL);
  g_setenv ("PADLOCK_TEST_VIEWER_RESULT", result_path, TRUE);
}

int
main (int argc, char **argv)
{
  register_viewer ();
  tu_init (&argc, &argv);
  at_application ();

  g_test_add_func ("/open/pdf", test_open_pdf);
  g_test_add_func ("/open/png", test_open_png);
  g_test_add_func ("/open/tampered", test_tampered);
  g_test_add_func ("/open/command-line", test_command_line);
  return g_test_run ();
}
