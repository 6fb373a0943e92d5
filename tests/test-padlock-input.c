/* test-padlock-input.c - inputs opened once (app/padlock-input.h): a
 * folder, a file, random octets named .gpg, a FIFO without a writer */
#include <fcntl.h>
#include <string.h>
#include <unistd.h>
#include <sys/stat.h>

#include "app-testutil.h"
#include "padlock-input.h"

typedef struct
{
  GMainLoop *loop;
  gboolean ok;
  GError *error;
} PrefixWait;

static void
on_prefix (GObject      *object,
           GAsyncResult *result,
           gpointer      user_data)
{
  PrefixWait *w = user_data;

  w->ok = padlock_input_read_prefix_finish (NULL, result, &w->error);
  g_main_loop_quit (w->loop);
}

static gboolean
read_prefix (PadlockInput  *input,
             GCancellable  *cancellable,
             GError       **error)
{
  PrefixWait w = { g_main_loop_new (NULL, FALSE), FALSE, NULL };

  padlock_input_read_prefix_async (input, cancellable, on_prefix, &w);
  g_main_loop_run (w.loop);
  g_main_loop_unref (w.loop);
  if (w.error)
    g_propagate_error (error, w.error);
  return w.ok;
}

static gboolean
cancel_soon (gpointer data)
{
  g_cancellable_cancel (data);
  return G_SOURCE_REMOVE;
}

/* Inputs opened once and sniffed (what each then needs is
 * test-padlock-plan.c's): a folder has no source, a text file is read
 * from its first octet every time, random data named x.gpg is not
 * OpenPGP; a FIFO opens without a writer, its first octets are read as
 * they come, and a cancel ends the wait for a writer that never comes. */
static void
test_input (void)
{
  g_autofree char *dir = tu_new_dir ("input");
  g_autofree char *text = g_build_filename (dir, "notes.txt", NULL);
  g_autofree char *fake = g_build_filename (dir, "x.gpg", NULL);
  g_autofree char *fifo = g_build_filename (dir, "fifo", NULL);
  g_autoptr(GFile) folder = g_file_new_for_path (dir);
  g_autoptr(GError) error = NULL;
  GBytes *random = tu_random_bytes (5000);
  PadlockInput *input;
  pl_source *src = NULL;

  g_assert_true (g_file_set_contents (text, "hello\n", -1, NULL));
  g_assert_true (g_file_set_contents (fake, g_bytes_get_data (random, NULL),
                                      5000, NULL));
  g_bytes_unref (random);

  input = padlock_input_open (folder, &error);
  g_assert_no_error (error);
  g_assert_true (padlock_input_is_folder (input));
  g_assert_cmpint (gpg_err_code (padlock_input_take_source (input, NULL, &src)),
                   ==, GPG_ERR_EISDIR);
  padlock_input_unref (input);

  {
    g_autoptr(GFile) file = g_file_new_for_path (text);
    guint8 buf[16];
    size_t n = 0;

    input = padlock_input_open (file, &error);
    g_assert_no_error (error);
    g_assert_false (padlock_input_is_stream (input));
    g_assert_cmpint (padlock_input_get_size (input), ==, 6);
    g_assert_cmpint (padlock_input_get_sniff (input)->kind, ==, PL_SNIFF_NOT_OPENPGP);
    /* From the first octet, every time (a retry). */
    for (int i = 0; i < 2; i++)
      {
        g_assert_cmpuint (padlock_input_take_source (input, NULL, &src), ==, 0);
        g_assert_cmpuint (pl_source_read_full (src, buf, sizeof buf, &n), ==, 0);
        g_assert_cmpmem (buf, n, "hello\n", 6);
        pl_source_free (src);
      }
    padlock_input_unref (input);
  }
  {
    g_autoptr(GFile) file = g_file_new_for_path (fake);
    input = padlock_input_open (file, &error);
    g_assert_no_error (error);
    g_assert_cmpint (padlock_input_get_sniff (input)->kind, ==, PL_SNIFF_NOT_OPENPGP);
    padlock_input_unref (input);
  }

  /* A FIFO: the open does not wait; the first octets do, until a writer
   * wrote them and left; they come back in front of the rest. */
  {
    g_autoptr(GFile) file = g_file_new_for_path (fifo);
    g_autoptr(GCancellable) cancellable = g_cancellable_new ();
    guint8 buf[16];
    size_t n = 0;
    int fd;

    g_assert_cmpint (mkfifo (fifo, 0600), ==, 0);
    input = padlock_input_open (file, &error);
    g_assert_no_error (error);
    g_assert_true (padlock_input_is_stream (input));
    g_assert_cmpint (gpg_err_code (padlock_input_take_source (input, NULL, &src)),
                     ==, GPG_ERR_EPIPE);
    /* No writer: the wait ends when cancelled. */
    g_idle_add (cancel_soon, cancellable);
    g_assert_false (read_prefix (input, cancellable, &error));
    g_assert_error (error, G_IO_ERROR, G_IO_ERROR_CANCELLED);
    g_clear_error (&error);
    fd = open (fifo, O_WRONLY | O_NONBLOCK);
    g_assert_cmpint (fd, >=, 0);
    g_assert_cmpint (write (fd, "-----BEGIN", 10), ==, 10);
    close (fd);
    g_assert_true (read_prefix (input, NULL, &error));
    g_assert_no_error (error);
    g_assert_cmpuint (padlock_input_take_source (input, NULL, &src), ==, 0);
    g_assert_cmpuint (pl_source_read_full (src, buf, sizeof buf, &n), ==, 0);
    g_assert_cmpmem (buf, n, "-----BEGIN", 10);
    pl_source_free (src);
    g_assert_cmpint (gpg_err_code (padlock_input_take_source (input, NULL, &src)),
                     ==, GPG_ERR_EPIPE);
    padlock_input_unref (input);
  }
}

int
main (int argc, char **argv)
{
  tu_init (&argc, &argv);
  g_test_add_func ("/input/open", test_input);
  return g_test_run ();
}
