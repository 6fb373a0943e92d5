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
 *
 * Folders (a .tar.gpg made by Padlock, and one by gpgtar): the archive
 * window lists the files, as a screen reader reads them over AT-SPI;
 * Enter on the focused row opens that file in the stub viewer, byte for
 * byte, and the other opens from the list too; nothing is written beside
 * the message, nor under HOME, /tmp or /var/tmp; a tampered one lists
 * nothing and starts no viewer.
 */
#include <string.h>
#include <unistd.h>
#include <sys/stat.h>
#include <glib/gstdio.h>

#include "app-testutil.h"
#include "padlock-archive-window-private.h"
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

/* FSI NAME PDI: how the window shows a name (padlock_name_display). */
#define SHOWN(name) "\xe2\x81\xa8" name "\xe2\x81\xa9"

static gint64 test_start;
static char *marker;

/* The archive window on screen, or NULL. */
static PadlockArchiveWindow *
archive_window (void)
{
  g_autoptr(GList) windows = gtk_window_list_toplevels ();

  for (GList *l = windows; l; l = l->next)
    if (PADLOCK_IS_ARCHIVE_WINDOW (l->data)
        && gtk_widget_get_visible (l->data))
      return l->data;
  return NULL;
}

static gboolean
archive_window_shown (gpointer data)
{
  return archive_window () != NULL;
}

/* Whether a file changed since the test began under DIR holds the
 * marker (files over 64 MiB, not ours, are left out). */
static gboolean
marker_under (const char *dir)
{
  g_autoptr(GDir) d = g_dir_open (dir, 0, NULL);
  const char *name;

  if (!d)
    return FALSE;
  while ((name = g_dir_read_name (d)))
    {
      g_autofree char *path = g_build_filename (dir, name, NULL);
      g_autofree char *data = NULL;
      struct stat st;
      gsize len;

      if (lstat (path, &st) != 0)
        continue;
      if (S_ISDIR (st.st_mode) && marker_under (path))
        return TRUE;
      if (!S_ISREG (st.st_mode) || st.st_size > (64 << 20)
          || st.st_mtime < test_start / G_USEC_PER_SEC)
        continue;
      if (g_file_get_contents (path, &data, &len, NULL)
          && memmem (data, len, marker, strlen (marker)))
        {
          g_test_message ("the plaintext's marker is in %s", path);
          return TRUE;
        }
    }
  return FALSE;
}

/* DIR/src/Scans: a PDF and a PNG (its subfolder's), each holding the
 * marker; their contents in *PDF and *PNG. */
static char *
make_scans (const char *dir,
            GBytes    **pdf,
            GBytes    **png)
{
  g_autofree char *src = g_build_filename (dir, "src", NULL);
  g_autofree char *sub = g_build_filename (src, "Scans", "2024", NULL);
  g_autofree char *pdf_path = g_build_filename (src, "Scans", "passport.pdf", NULL);
  g_autofree char *png_path = g_build_filename (sub, "photo.png", NULL);
  g_autofree char *pdf_text = g_strdup_printf ("%%PDF-1.4\n%% %s\n%s", marker,
                                               "1 0 obj << >> endobj\n%%EOF\n");
  GString *png_data = g_string_new_len ("\211PNG\r\n\032\n", 8);

  g_string_append (png_data, marker);
  g_string_append_len (png_data, "\0\1\2\3", 4);
  g_assert_cmpint (g_mkdir_with_parents (sub, 0700), ==, 0);
  g_assert_true (g_file_set_contents (pdf_path, pdf_text, -1, NULL));
  g_assert_true (g_file_set_contents (png_path, png_data->str,
                                      (gssize) png_data->len, NULL));
  *pdf = g_bytes_new (pdf_text, strlen (pdf_text));
  *png = g_string_free_to_bytes (png_data);
  return g_steal_pointer (&src);
}

/* SRC/Scans into DIR/Scans.tar.gpg, by Padlock or by gpgtar. */
static char *
encrypt_scans (const char *dir,
               const char *src,
               gboolean    by_gpgtar)
{
  g_autofree char *pw = at_passphrase_file (PASSPHRASE);
  g_autofree char *folder = g_build_filename (src, "Scans", NULL);
  char *message = g_build_filename (dir, "Scans.tar.gpg", NULL);
  g_autofree char *out = NULL;
  g_autofree char *err = NULL;
  int status = -1;

  if (by_gpgtar)
    {
      g_autofree char *gpg_args = g_strdup_printf (
        "--homedir=%s --batch --no-tty --pinentry-mode=loopback "
        "--passphrase-file=%s", tu_gnupg_home (), pw);
      const char *argv[] = { "gpgtar", "--gpg-args", gpg_args, "--encrypt",
                             "--symmetric", "--output", message,
                             "--directory", src, "Scans", NULL };

      g_assert_true (tu_run (argv, NULL, NULL, &err, &status));
    }
  else
    {
      g_autofree char *pw_arg = g_strconcat ("--passphrase-file=", pw, NULL);
      g_autofree char *dir_arg = g_strconcat ("--output-dir=", dir, NULL);
      const char *args[] = { "--encrypt", pw_arg, dir_arg, folder, NULL };

      status = at_run_batch (tu_gnupg_home (), args, &out, &err);
    }
  g_test_message ("%s: %s", by_gpgtar ? "gpgtar" : "padlock", err ? err : "");
  g_assert_cmpint (status, ==, 0);
  g_assert_true (g_file_test (message, G_FILE_TEST_IS_REGULAR));
  return message;
}

/* The position of NAME in the archive window's list. */
static guint
position_of (PadlockArchiveWindow *list,
             const char           *name)
{
  for (guint i = 0; i < list->files.n; i++)
    if (!strcmp (list->files.v[i].name, name))
      return i;
  g_error ("%s is not in the list", name);
}

static void
test_folder (gconstpointer data)
{
  gboolean by_gpgtar = GPOINTER_TO_INT (data);
  g_autofree char *dir = tu_new_dir (by_gpgtar ? "gpgtar" : "padlock-made");
  g_autoptr(GBytes) pdf = NULL;
  g_autoptr(GBytes) png = NULL;
  g_autofree char *src = make_scans (dir, &pdf, &png);
  g_autofree char *message = encrypt_scans (dir, src, by_gpgtar);
  g_autoptr(GFile) file = g_file_new_for_path (message);
  g_autoptr(GBytes) viewed = NULL;
  g_autoptr(GDir) listing = NULL;
  g_autofree char *labels = NULL;
  g_autofree char *focus = NULL;
  PadlockWindow *window;
  PadlockArchiveWindow *list;
  AtReader *reader;
  gboolean pdf_first;

  if (by_gpgtar && !tu_have_peer ("gpgtar"))
    {
      g_test_skip ("no gpgtar");
      return;
    }
  tu_remove_tree (src);
  window = at_new_window ();
  reader = at_reader_new ();
  padlock_window_open_without_saving (window, &file, 1);
  at_answer (at_wait_dialog (window), PASSPHRASE);
  g_assert_true (at_wait_queue_idle (window->queue, TIMEOUT_MS));
  g_assert_true (at_wait_until (archive_window_shown, NULL, 20000));
  list = archive_window ();
  at_settle (300);
  g_assert_cmpstr (gtk_label_get_text (GTK_LABEL (row_child (window, 0, "status_label"))),
                   ==, "Opened in a list of its files · not saved");
  g_assert_cmpuint (list->files.n, ==, 2);

  /* What a screen reader reads: the files, their sizes, no folder. */
  labels = at_reader_list (reader, "label");
  g_assert_nonnull (strstr (labels, "Scans/passport.pdf"));
  g_assert_nonnull (strstr (labels, "Scans/2024/photo.png"));
  g_assert_null (strstr (labels, "Scans/2024|"));
  {
    g_autofree char *size = g_format_size (g_bytes_get_size (pdf));

    g_assert_nonnull (strstr (labels, size));
  }

  /* The keyboard: Tab reaches a row, which is read as its name, size
   * and date; Enter opens it. */
  at_focus_window (GTK_WINDOW (list));
  /* The reader names the first focused object of the application, and
   * the main window, behind, keeps its row's: it lets go of it. */
  gtk_window_set_focus (GTK_WINDOW (window), NULL);
  for (guint i = 0; i < 6; i++)
    {
      g_clear_pointer (&focus, g_free);
      focus = at_reader_focus (reader);
      g_test_message ("focus: %s", focus);
      if (strstr (focus, "\tScans/"))
        break;
      at_reader_key (reader, "Tab");
    }
  g_assert_nonnull (strstr (focus, "\tScans/"));
  pdf_first = strstr (focus, "\tScans/passport.pdf, ") != NULL;
  g_assert_nonnull (strstr (focus, pdf_first ? "Scans/passport.pdf, 70 bytes · "
                                             : "Scans/2024/photo.png, 43 bytes · "));
  at_reader_key (reader, "Return");
  viewed = wait_viewed ();
  g_assert_true (g_bytes_equal (viewed, pdf_first ? pdf : png));
  g_assert_nonnull (strstr (gtk_label_get_text (list->status_label),
                            pdf_first ? SHOWN ("passport.pdf") " in " SHOWN ("Stub Viewer")
                                       : SHOWN ("photo.png") " in " SHOWN ("Stub Viewer")));
  g_clear_pointer (&viewed, g_bytes_unref);

  /* The other file, from the list too. */
  g_assert_true (padlock_archive_window_open (list, position_of (list, "Scans/2024/photo.png")));
  viewed = wait_viewed ();
  g_assert_true (g_bytes_equal (viewed, png));
  g_clear_pointer (&viewed, g_bytes_unref);
  g_assert_true (padlock_archive_window_open (list, position_of (list, "Scans/passport.pdf")));
  viewed = wait_viewed ();
  g_assert_true (g_bytes_equal (viewed, pdf));

  /* Nothing beside the message, nothing with the plaintext elsewhere. */
  listing = g_dir_open (dir, 0, NULL);
  g_assert_cmpstr (g_dir_read_name (listing), ==, "Scans.tar.gpg");
  g_assert_null (g_dir_read_name (listing));
  g_assert_false (marker_under (g_get_home_dir ()));
  g_assert_false (marker_under ("/tmp"));
  g_assert_false (marker_under ("/var/tmp"));

  /* Closed, the list comes back from the row's button, which says so. */
  gtk_window_destroy (GTK_WINDOW (list));
  at_settle (200);
  g_assert_null (archive_window ());
  {
    GtkWidget *show = row_child (window, 0, "show_button");

    g_assert_true (gtk_widget_get_visible (show));
    g_assert_cmpstr (gtk_widget_get_tooltip_text (show), ==,
                     "Show the Files It Holds");
    g_signal_emit_by_name (show, "clicked");
  }
  g_assert_true (at_wait_until (archive_window_shown, NULL, 5000));
  list = archive_window ();
  g_assert_cmpuint (list->files.n, ==, 2);
  /* Once, however often the button is pressed. */
  g_signal_emit_by_name (row_child (window, 0, "show_button"), "clicked");
  at_settle (300);
  {
    g_autoptr(GList) windows = gtk_window_list_toplevels ();
    guint lists = 0;

    for (GList *l = windows; l; l = l->next)
      lists += PADLOCK_IS_ARCHIVE_WINDOW (l->data);
    g_assert_cmpuint (lists, ==, 1);
  }
  g_assert_true (padlock_archive_window_open (list, position_of (list, "Scans/2024/photo.png")));
  g_clear_pointer (&viewed, g_bytes_unref);
  viewed = wait_viewed ();
  g_assert_true (g_bytes_equal (viewed, png));

  gtk_window_destroy (GTK_WINDOW (list));
  at_reader_free (reader);
  at_close_window (window);
}

/* One octet flipped in a folder's message: no list, no viewer. */
static void
test_folder_tampered (void)
{
  g_autofree char *dir = tu_new_dir ("folder-tampered");
  g_autoptr(GBytes) pdf = NULL;
  g_autoptr(GBytes) png = NULL;
  g_autofree char *src = make_scans (dir, &pdf, &png);
  g_autofree char *message = encrypt_scans (dir, src, FALSE);
  g_autoptr(GFile) file = g_file_new_for_path (message);
  PadlockWindow *window;
  char *data;
  gsize len;

  tu_remove_tree (src);
  g_assert_true (g_file_get_contents (message, &data, &len, NULL));
  data[len / 2] ^= 0x01;
  g_assert_true (g_file_set_contents (message, data, (gssize) len, NULL));
  g_free (data);
  window = at_new_window ();
  padlock_window_open_without_saving (window, &file, 1);
  at_answer (at_wait_dialog (window), PASSPHRASE);
  g_assert_true (at_wait_queue_idle (window->queue, TIMEOUT_MS));
  at_settle (3000);
  g_assert_null (archive_window ());
  g_assert_false (g_file_test (result_path, G_FILE_TEST_EXISTS));
  g_assert_cmpstr (gtk_label_get_text (GTK_LABEL (row_child (window, 0, "status_label"))),
                   ==, "Not decrypted");
  at_close_window (window);
}

/* Authentic, but the archive inside is cut within a file's data: no
 * list, no viewer, and a notice says why. */
static void
test_folder_damaged (void)
{
  g_autofree char *dir = tu_new_dir ("folder-damaged");
  g_autofree char *src = g_build_filename (dir, "cutsrc", NULL);
  g_autofree char *cut = g_build_filename (dir, "cut.tar", NULL);
  g_autofree char *message = g_strconcat (cut, ".gpg", NULL);
  g_autoptr(GFile) file = g_file_new_for_path (message);
  g_autoptr(GBytes) tar = NULL;
  g_autofree char *a = NULL;
  PadlockWindow *window;
  int status = -1;

  g_assert_cmpint (g_mkdir (src, 0700), ==, 0);
  a = at_write_random (src, "a.pdf", 5000);
  {
    const char *argv[] = { "tar", "-cf", "-", "-C", dir, "cutsrc", NULL };

    g_assert_true (tu_run (argv, NULL, &tar, NULL, &status));
    g_assert_cmpint (status, ==, 0);
  }
  g_assert_cmpuint (g_bytes_get_size (tar), >, 2600);
  g_assert_true (g_file_set_contents (cut, g_bytes_get_data (tar, NULL),
                                      2600, NULL));
  at_gpg_encrypt (cut, message, PASSPHRASE, "cut.tar");
  g_unlink (cut);
  tu_remove_tree (src);
  window = at_new_window ();
  padlock_window_open_without_saving (window, &file, 1);
  at_answer (at_wait_dialog (window), PASSPHRASE);
  g_assert_true (at_wait_queue_idle (window->queue, TIMEOUT_MS));
  g_assert_cmpstr (at_wait_notice (window), ==,
                   "cut.tar.gpg holds a damaged archive. Nothing was opened.");
  at_settle (1000);
  g_assert_null (archive_window ());
  g_assert_false (g_file_test (result_path, G_FILE_TEST_EXISTS));
  at_close_window (window);
}

/* The folder register_viewer makes, removed when the tests end. */
static char *viewer_root;

/* The stub viewer, the only application, for PDF and PNG. */
static void
register_viewer (void)
{
  const char *root = viewer_root
    = g_dir_make_tmp ("padlock-app-open-XXXXXX", NULL);
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
  int ret;

  register_viewer ();
  /* The archive window is read as a screen reader reads it. */
  g_setenv ("GTK_A11Y", "atspi", TRUE);
  tu_init (&argc, &argv);
  at_application ();
  test_start = g_get_real_time ();
  marker = g_strdup_printf ("padlock-marker-%08x%08x", g_random_int (),
                            g_random_int ());

  g_test_add_func ("/open/pdf", test_open_pdf);
  g_test_add_func ("/open/png", test_open_png);
  g_test_add_func ("/open/tampered", test_tampered);
  g_test_add_func ("/open/command-line", test_command_line);
  g_test_add_data_func ("/open/folder/padlock-made", GINT_TO_POINTER (FALSE),
                        test_folder);
  g_test_add_data_func ("/open/folder/gpgtar-made", GINT_TO_POINTER (TRUE),
                        test_folder);
  g_test_add_func ("/open/folder/tampered", test_folder_tampered);
  g_test_add_func ("/open/folder/damaged", test_folder_damaged);
  ret = g_test_run ();
  /* It was left in /tmp by every run. */
  tu_remove_tree (viewer_root);
  g_free (viewer_root);
  return ret;
}
