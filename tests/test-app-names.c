/* test-app-names.c - every button's accessible name as a screen reader
 * reads it (AT-SPI), in the window, the encrypt dialog with People, a
 * finished row and the quit question: no mnemonic underscore, no word
 * said twice in a row ("_Encrypt Encrypt", "Delete memo.txt Delete")
 * (issue 37 §4) */
#include <string.h>
#include <glib/gstdio.h>

#include "app-testutil.h"
#include "gnupg-home.h"
#include "padlock-folder.h"

#define PASSPHRASE "names-harbor-violet-31"
#define TIMEOUT_MS (180 * 1000)

static TgHome *home;

/* Fails on a name of ROLE in what the reader lists that keeps a
 * mnemonic's underscore or says its first words again at its end. */
static guint
check_names (AtReader   *reader,
             const char *role,
             const char *where)
{
  g_autofree char *list = at_reader_list (reader, role);
  g_auto(GStrv) names = g_strsplit (list, "|", -1);
  guint n = 0;

  g_test_message ("%s, %s: %s", where, role, list);
  for (guint i = 0; names[i]; i++)
    {
      const char *name = names[i];
      g_auto(GStrv) words = g_strsplit (name, " ", -1);
      guint n_words = g_strv_length (words);

      if (!*name)
        continue;
      n++;
      /* No name at all: an AT-SPI reader shows the widget's type. */
      if (g_str_has_prefix (name, "Gtk") || g_str_has_prefix (name, "Adw"))
        g_error ("%s: a %s has no name (“%s”)", where, role, name);
      if (strchr (name, '_'))
        g_error ("%s: the %s “%s” keeps a mnemonic's underscore", where, role, name);
      /* "Cancel Cancel", "Delete memo.txt Delete", "Stop and Quit Stop
       * and Quit": the child's text after the name. */
      for (guint k = 1; k <= n_words / 2; k++)
        {
          gboolean same = TRUE;

          for (guint j = 0; j < k && same; j++)
            same = !g_strcmp0 (words[j], words[n_words - k + j]);
          if (same)
            g_error ("%s: the %s “%s” says “%s” twice", where, role, name, words[0]);
        }
    }
  return n;
}

/* A folder's scan, held at its first report until released. */
static GMutex hold_lock;
static GCond hold_cond;
static gboolean held;

static void
hold_scan (guint64 counted, gpointer data)
{
  g_mutex_lock (&hold_lock);
  while (held)
    g_cond_wait (&hold_cond, &hold_lock);
  g_mutex_unlock (&hold_lock);
}

static void
release_scan (void)
{
  g_mutex_lock (&hold_lock);
  held = FALSE;
  g_cond_broadcast (&hold_cond);
  g_mutex_unlock (&hold_lock);
}

static void
test_button_names (void)
{
  g_autofree char *dir = tu_new_dir ("names");
  g_autofree char *memo = at_write_random (dir, "memo.txt", 4096);
  g_autofree char *folder = g_build_filename (dir, "Notes", NULL);
  const char *paths[] = { memo, NULL };
  const char *folders[] = { folder, NULL };
  PadlockWindow *window = at_new_window ();
  AtReader *reader = at_reader_new ();
  PadlockPassphraseDialog *dialog;
  guint n = 0;

  n += check_names (reader, "push button", "the empty window");
  at_drop (window, paths);
  dialog = at_wait_dialog (window);
  at_settle (500);
  n += check_names (reader, "push button", "the encrypt dialog");
  n += check_names (reader, "check box", "the encrypt dialog");
  n += check_names (reader, "toggle button", "the encrypt dialog");
  at_answer (dialog, PASSPHRASE);
  g_assert_true (at_wait_queue_idle (window->queue, TIMEOUT_MS));
  at_settle (300);
  n += check_names (reader, "push button", "a finished row");
  /* The quit question, with a folder's job held at its scan. */
  g_assert_cmpint (g_mkdir (folder, 0755), ==, 0);
  for (guint i = 0; i < 300; i++)
    {
      g_autofree char *name = g_strdup_printf ("n%03u.txt", i);

      g_free (at_write_random (folder, name, 16));
    }
  held = TRUE;
  padlock_folder_set_scan_hook (hold_scan, NULL);
  at_drop (window, folders);
  at_answer (at_wait_dialog (window), PASSPHRASE);
  g_assert_true (padlock_window_ask_to_quit (window, TRUE));
  at_settle (500);
  g_assert_true (padlock_queue_get_busy (window->queue));
  {
    g_autofree char *buttons = at_reader_list (reader, "push button");

    g_assert_nonnull (strstr (buttons, "Stop and Quit"));
  }
  n += check_names (reader, "push button", "the quit question");
  g_assert_cmpuint (n, >=, 5);
  padlock_queue_cancel_all (window->queue);
  release_scan ();
  g_assert_true (at_wait_queue_idle (window->queue, TIMEOUT_MS));
  padlock_folder_set_scan_hook (NULL, NULL);
  at_reader_free (reader);
  at_close_window (window);
}

int
main (int argc, char **argv)
{
  int status;

  g_setenv ("GTK_A11Y", "atspi", TRUE);
  tu_init (&argc, &argv);
  home = tg_home_new ();
  g_free (tg_gen_encryption_key (home, "Alice <alice@example.org>", "ed25519",
                                 "cv25519", "never", NULL));
  g_setenv ("GNUPGHOME", home->dir, TRUE);
  at_application ();
  g_test_add_func ("/names/buttons", test_button_names);
  status = g_test_run ();
  g_clear_pointer (&home, tg_home_free);
  return status;
}
