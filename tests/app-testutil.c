/* app-testutil.c - helpers shared by the application's tests */
#include "app-testutil.h"

#include <string.h>
#include <glib/gstdio.h>

char *
at_new_dir (const char *name)
{
  static guint counter;
  g_autofree char *base = g_strdup_printf ("%s-%u", name, counter++);
  char *dir = g_build_filename (tu_tmpdir (), base, NULL);

  g_assert_cmpint (g_mkdir_with_parents (dir, 0700), ==, 0);
  return dir;
}

char *
at_write_random (const char *dir,
                 const char *name,
                 gsize       len)
{
  char *path = g_build_filename (dir, name, NULL);
  g_autoptr(GBytes) data = tu_random_bytes (len);
  g_autoptr(GError) error = NULL;

  g_file_set_contents (path, g_bytes_get_data (data, NULL), (gssize) len, &error);
  g_assert_no_error (error);
  return path;
}

char *
at_passphrase_file (const char *passphrase)
{
  static guint counter;
  g_autofree char *name = g_strdup_printf ("passphrase-%u", counter++);
  char *path = g_build_filename (tu_tmpdir (), name, NULL);
  g_autoptr(GError) error = NULL;

  g_file_set_contents (path, passphrase, -1, &error);
  g_assert_no_error (error);
  return path;
}

GBytes *
at_gpg_decrypt (const char *path,
                const char *passphrase)
{
  g_autofree char *pw_file = at_passphrase_file (passphrase);
  g_autofree char *err_text = NULL;
  const char *argv[] = { "gpg", "--homedir", tu_gnupg_home (), "--batch",
                         "--quiet", "--pinentry-mode", "loopback",
                         "--passphrase-file", pw_file, "-d", path, NULL };
  GBytes *out = NULL;
  int status = -1;

  g_assert_true (tu_run (argv, NULL, &out, &err_text, &status));
  if (status != 0)
    {
      g_test_message ("gpg -d %s: %s", path, err_text);
      g_clear_pointer (&out, g_bytes_unref);
    }
  return out;
}

void
at_gpg_encrypt (const char *in,
                const char *out,
                const char *passphrase,
                const char *literal_name)
{
  g_autofree char *pw_file = at_passphrase_file (passphrase);
  g_autofree char *err_text = NULL;
  g_autoptr(GPtrArray) argv = g_ptr_array_new ();
  int status = -1;

  g_ptr_array_add (argv, "gpg");
  g_ptr_array_add (argv, "--homedir");
  g_ptr_array_add (argv, (char *) tu_gnupg_home ());
  g_ptr_array_add (argv, "--batch");
  g_ptr_array_add (argv, "--yes");
  g_ptr_array_add (argv, "--pinentry-mode");
  g_ptr_array_add (argv, "loopback");
  g_ptr_array_add (argv, "--passphrase-file");
  g_ptr_array_add (argv, pw_file);
  if (literal_name)
    {
      g_ptr_array_add (argv, "--set-filename");
      g_ptr_array_add (argv, (char *) literal_name);
    }
  g_ptr_array_add (argv, "-o");
  g_ptr_array_add (argv, (char *) out);
  g_ptr_array_add (argv, "--symmetric");
  g_ptr_array_add (argv, (char *) in);
  g_ptr_array_add (argv, NULL);
  g_assert_true (tu_run ((const char *const *) argv->pdata, NULL, NULL,
                         &err_text, &status));
  if (status != 0)
    g_error ("gpg --symmetric: %s", err_text);
}

gboolean
at_wait_until (gboolean (*cond) (gpointer),
               gpointer   data,
               guint      timeout_ms)
{
  gint64 end = g_get_monotonic_time () + timeout_ms * (gint64) 1000;

  while (!cond (data))
    {
      if (g_get_monotonic_time () > end)
        return FALSE;
      /* Worker threads finish through idle sources: poll, never block. */
      if (!g_main_context_iteration (NULL, FALSE))
        g_usleep (2000);
    }
  return TRUE;
}

static gboolean
queue_idle (gpointer data)
{
  PadlockQueue *queue = data;

  return g_list_model_get_n_items (G_LIST_MODEL (queue)) > 0
         && !padlock_queue_get_busy (queue);
}

gboolean
at_wait_queue_idle (PadlockQueue *queue,
                    guint         timeout_ms)
{
  return at_wait_until (queue_idle, queue, timeout_ms);
}

/* g_ptr_array_sort passes pointers to the elements. */
static int
compare_names (gconstpointer a,
               gconstpointer b)
{
  return g_strcmp0 (*(char *const *) a, *(char *const *) b);
}

char *
at_list_dir (const char *dir)
{
  g_autoptr(GDir) d = g_dir_open (dir, 0, NULL);
  g_autoptr(GPtrArray) names = g_ptr_array_new_with_free_func (g_free);
  const char *name;

  g_assert_nonnull (d);
  while ((name = g_dir_read_name (d)))
    g_ptr_array_add (names, g_strdup (name));
  g_ptr_array_sort (names, compare_names);
  g_ptr_array_add (names, NULL);
  return g_strjoinv ("|", (char **) names->pdata);
}

gboolean
at_same_content (const char *a,
                 GBytes     *b)
{
  g_autofree char *data = NULL;
  gsize len = 0;

  if (!b || !g_file_get_contents (a, &data, &len, NULL))
    return FALSE;
  return len == g_bytes_get_size (b)
         && memcmp (data, g_bytes_get_data (b, NULL), len) == 0;
}
