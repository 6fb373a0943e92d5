/* test-app-paste.c - keys added from the clipboard (padlock-window-paste.c)
 * and from the encrypt dialog (padlock-people.c), as a user and a screen
 * reader (AT-SPI) meet them: Bob's armored key on the clipboard, Ctrl+V
 * in the window, "Added Bob <bob@example.org>." read out, Bob in the
 * Keys page's People and in `gpg --list-keys`; Ctrl+V in a search entry
 * pastes text as usual; text that is no key, a secret key, and files on
 * the clipboard; the encrypt dialog offers key text pasted into its
 * search for import, says what it imported, and imports a second key.
 * A real window under Xvfb, a GnuPG home of the test's own (GNUPGHOME)
 * and a real gpg-agent.
 */
#include <string.h>

#include "app-testutil.h"
#include "gnupg-home.h"
#include "padlock-people-private.h"
#include "padlock-window-private.h"

#define WAIT_MS 60000
#define FSI "\xe2\x81\xa8"
#define PDI "\xe2\x81\xa9"

static TgHome *home;            /* Alice's secret key */
static TgHome *others;          /* Bob's, Carol's, Dave's and Erin's */
static char *alice_fpr;
static char *bob_fpr;
static char *carol_fpr;
static char *dave_fpr;
static char *erin_fpr;
static AtReader *reader;

static void
make_keys (void)
{
  alice_fpr = tg_gen_encryption_key (home, "Alice <alice@example.org>", "ed25519",
                                     "cv25519", "never", NULL);
  bob_fpr = tg_gen_encryption_key (others, "Bob <bob@example.org>", "ed25519",
                                   "cv25519", "never", NULL);
  carol_fpr = tg_gen_encryption_key (others, "Carol <carol@example.org>", "ed25519",
                                     "cv25519", "never", NULL);
  dave_fpr = tg_gen_encryption_key (others, "Dave <dave@example.org>", "ed25519",
                                    "cv25519", "never", NULL);
  erin_fpr = tg_gen_encryption_key (others, "Erin <erin@example.org>", "ed25519",
                                    "cv25519", "never", NULL);
}

static char *
armored (const char *fpr, gboolean secret)
{
  g_autoptr(GBytes) out = NULL;

  g_assert_cmpint (tg_gpg (others, NULL, NULL, &out, "--armor",
                           secret ? "--export-secret-keys" : "--export", fpr, NULL),
                   ==, 0);
  return g_strndup (g_bytes_get_data (out, NULL), g_bytes_get_size (out));
}

/* Whether the test's home's gpg lists FPR (with its secret key). */
static gboolean
gpg_has (const char *fpr, gboolean secret)
{
  return tg_gpg (home, NULL, NULL, NULL, secret ? "--list-secret-keys" : "--list-keys",
                 fpr, NULL) == 0;
}

/* The reader sees an object of ROLE whose name holds TEXT. */
static void
wait_role (const char *role, const char *text)
{
  g_free (at_reader_wait_for (reader, role, text, WAIT_MS));
}

static void
set_clipboard_text (const char *text)
{
  gdk_clipboard_set_text (gtk_widget_get_clipboard (GTK_WIDGET (at_app_window ())), text);
}

/* Ctrl+V, pressed on the keyboard as the reader does, in the window;
 * the notice it gives (the test cleared the last one before). */
static const char *
press_paste (void)
{
  PadlockWindow *window = at_app_window ();

  g_autofree char *focus = NULL;

  g_clear_pointer (&window->last_notice, g_free);
  at_focus_window (GTK_WINDOW (window));
  focus = at_reader_focus (reader);
  g_test_message ("focus before Ctrl+V: %s", focus);
  at_reader_key (reader, "Control+v");
  return at_wait_notice (window);
}

/* Bob's key on the clipboard, Ctrl+V on the Files page: the notice names
 * him, a screen reader reads it, gpg lists him, and so does the Keys
 * page's People. */
static void
test_ctrl_v_adds_bob (void)
{
  PadlockWindow *window = at_app_window ();
  g_autofree char *bob = armored (bob_fpr, FALSE);
  g_autofree char *mail = g_strconcat ("Hi, here is my key:\n\n", bob, "\nBob\n", NULL);
  const char *said;

  g_assert_false (gpg_has (bob_fpr, FALSE));
  /* Text around the block, as in a mail, is fine. */
  set_clipboard_text (mail);
  g_assert_cmpstr (adw_view_stack_get_visible_child_name (window->view_stack),
                   ==, "files");
  said = press_paste ();
  g_assert_cmpstr (said, ==, "Added " FSI "Bob <bob@example.org>" PDI ".");
  wait_role ("label", "Added " FSI "Bob <bob@example.org>" PDI ".");
  g_assert_true (gpg_has (bob_fpr, FALSE));
  g_assert_false (gpg_has (bob_fpr, TRUE));
  at_screenshot (GTK_WIDGET (window), "paste-key");

  at_reader_key (reader, "Alt+2");
  wait_role ("label", "bob@example.org" PDI " · 0x");
  at_reader_key (reader, "Alt+1");

  /* Again: nothing new, and said so. */
  said = press_paste ();
  g_assert_cmpstr (said, ==, "1 key was already there, unchanged.");
}

/* With the focus in a text entry, Ctrl+V pastes text there, as always:
 * no import, no notice. */
static void
test_entry_keeps_ctrl_v (void)
{
  PadlockWindow *window = at_app_window ();
  GtkWidget *entry;

  at_focus_window (GTK_WINDOW (window));
  at_reader_key (reader, "Alt+2");     /* the Keys page's search, focused */
  entry = at_find_widget (GTK_WIDGET (window->keys_page), GTK_TYPE_SEARCH_ENTRY);
  g_assert_nonnull (entry);
  g_assert_true (gtk_widget_has_focus (entry)
                 || gtk_widget_has_focus (gtk_widget_get_first_child (entry))
                 || gtk_root_get_focus (GTK_ROOT (window))
                    == at_find_widget (entry, GTK_TYPE_TEXT));
  set_clipboard_text ("carol");
  g_clear_pointer (&window->last_notice, g_free);
  at_reader_key (reader, "Control+v");
  at_settle (1000);
  g_assert_cmpstr (gtk_editable_get_text (GTK_EDITABLE (entry)), ==, "carol");
  g_assert_null (window->last_notice);
  gtk_editable_set_text (GTK_EDITABLE (entry), "");
  at_reader_key (reader, "Alt+1");
}

/* Text that is no key, and a secret key: said, nothing imported. */
static void
test_not_a_key (void)
{
  PadlockWindow *window = at_app_window ();
  g_autofree char *secret = armored (erin_fpr, TRUE);
  const char *said;

  set_clipboard_text ("bob@example.org");
  said = press_paste ();
  g_assert_true (g_str_has_prefix (said, "The clipboard holds no OpenPGP key."));

  set_clipboard_text (secret);
  said = press_paste ();
  g_test_message ("%s", said);
  g_assert_true (g_str_has_prefix (said, "No key was added: This is a secret key"));
  g_assert_true (g_str_has_suffix (said, "nothing was imported."));
  g_assert_nonnull (strstr (said, "nothing was imported"));
  g_assert_false (gpg_has (erin_fpr, FALSE));
  g_assert_false (gpg_has (erin_fpr, TRUE));

  /* The Keys page's "Paste" button does what Ctrl+V does. */
  set_clipboard_text ("hello");
  g_clear_pointer (&window->last_notice, g_free);
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (window->keys_page),
                                             "win.paste-key", NULL));
  said = at_wait_notice (window);
  g_assert_true (g_str_has_prefix (said, "The clipboard holds no OpenPGP key."));
}

static gboolean
has_job (gpointer data)
{
  return g_list_model_get_n_items (G_LIST_MODEL (at_app_window ()->queue)) > 0
         || at_app_window ()->dialog != NULL;
}

/* Files on the clipboard go where dropped files go: here a plain file
 * is to be encrypted, so the passphrase dialog asks. */
static void
test_files (void)
{
  PadlockWindow *window = at_app_window ();
  g_autofree char *dir = tu_new_dir ("paste-files");
  g_autofree char *path = g_build_filename (dir, "notes.txt", NULL);
  g_autoptr(GFile) file = g_file_new_for_path (path);
  GSList *list = g_slist_append (NULL, file);
  GdkFileList *files = gdk_file_list_new_from_list (list);
  g_autoptr(GdkContentProvider) provider = NULL;
  GFile *asked;

  g_slist_free (list);
  g_assert_true (g_file_set_contents (path, "notes\n", -1, NULL));
  provider = gdk_content_provider_new_typed (GDK_TYPE_FILE_LIST, files);
  g_boxed_free (GDK_TYPE_FILE_LIST, files);
  g_assert_true (gdk_clipboard_set_content (gtk_widget_get_clipboard (GTK_WIDGET (window)),
                                            provider));
  at_focus_window (GTK_WINDOW (window));
  at_reader_key (reader, "Control+v");
  g_assert_true (at_wait_until (has_job, NULL, 10000));
  at_wait_dialog (window);
  g_assert_nonnull (window->request);
  g_assert_cmpuint (window->request->files->len, ==, 1);
  asked = window->request->files->pdata[0];
  g_assert_true (g_file_equal (asked, file));
  gtk_window_close (GTK_WINDOW (window->dialog));
  at_settle (300);
}

static gboolean
hint_holds (gpointer data)
{
  PadlockPeople *people = PADLOCK_PEOPLE (at_app_window ()->dialog->people);

  return gtk_widget_get_visible (GTK_WIDGET (people->import_hint_label))
         && strstr (gtk_label_get_text (people->import_hint_label), data);
}

static gboolean
keyring_read (gpointer data)
{
  return padlock_keyring_get_state (((PadlockPeople *) data)->keyring)
         == PADLOCK_KEYRING_READY;
}

/* Key text pasted (Ctrl+V) into the People search, offered for import;
 * imported, said; the button stays for a second key, pasted likewise. */
static void
import_in_dialog (PadlockPeople *people, const char *fpr, const char *name)
{
  g_autofree char *key = armored (fpr, FALSE);
  g_autofree char *said = g_strdup_printf ("Added " FSI "%s" PDI ".", name);

  set_clipboard_text (key);
  gtk_widget_grab_focus (GTK_WIDGET (people->search_entry));
  at_reader_key (reader, "Control+v");
  wait_role ("push button", "Import the Pasted Key");
  /* Not searched: no "No key in your keyring matches". */
  g_assert_false (gtk_widget_get_visible (GTK_WIDGET (people->match_list)));
  g_signal_emit_by_name (people->paste_import_button, "clicked");
  g_assert_true (at_wait_until (hint_holds, (gpointer) said, WAIT_MS));
  wait_role ("label", said);
  g_assert_true (gpg_has (fpr, FALSE));
  g_assert_cmpstr (gtk_editable_get_text (GTK_EDITABLE (people->search_entry)), ==, "");
  g_assert_false (gtk_widget_get_visible (GTK_WIDGET (people->paste_import_button)));
}

static void
test_dialog_imports_two (void)
{
  PadlockWindow *window = at_app_window ();
  g_autofree char *dir = tu_new_dir ("paste-dialog");
  g_autofree char *path = g_build_filename (dir, "minutes.txt", NULL);
  const char *paths[] = { path, NULL };
  PadlockPassphraseDialog *dialog;
  PadlockPeople *people;

  g_assert_true (g_file_set_contents (path, "minutes\n", -1, NULL));
  at_drop (window, paths);
  dialog = at_wait_dialog (window);
  people = PADLOCK_PEOPLE (dialog->people);
  g_assert_true (at_wait_until (keyring_read, people, WAIT_MS));
  at_focus_window (GTK_WINDOW (dialog));
  /* The keyring has keys, and the button is there all the same. */
  g_assert_true (gtk_widget_get_visible (GTK_WIDGET (people->import_button)));

  import_in_dialog (people, carol_fpr, "Carol <carol@example.org>");
  at_settle (500);              /* the keyring's new listing */
  g_assert_true (gtk_widget_get_visible (GTK_WIDGET (people->import_button)));
  g_assert_true (hint_holds ((gpointer) "Carol"));
  at_screenshot (GTK_WIDGET (dialog), "people-imported");

  import_in_dialog (people, dave_fpr, "Dave <dave@example.org>");
  at_settle (500);
  g_assert_true (gtk_widget_get_visible (GTK_WIDGET (people->import_button)));

  /* And Dave can be found and picked now. */
  gtk_editable_set_text (GTK_EDITABLE (people->search_entry), "dave");
  wait_role ("label", "dave@example.org");
  gtk_window_close (GTK_WINDOW (dialog));
  at_settle (300);
}

static gboolean
has_chooser (gpointer data)
{
  GListModel *toplevels = gtk_window_get_toplevels ();

  for (guint i = 0; i < g_list_model_get_n_items (toplevels); i++)
    {
      g_autoptr(GtkWindow) window = g_list_model_get_item (toplevels, i);

      if (GTK_IS_FILE_CHOOSER (window) && gtk_widget_get_visible (GTK_WIDGET (window)))
        {
          *(GtkWindow **) data = window;
          return TRUE;
        }
    }
  return FALSE;
}

/* The Keys page's "Add Key…": a chooser for several key files; the
 * files it gives are imported in turn and one notice says what each
 * did. */
static void
test_add_key_files (void)
{
  PadlockWindow *window = at_app_window ();
  g_autofree char *dir = tu_new_dir ("paste-add");
  g_autofree char *erin_path = g_build_filename (dir, "erin.asc", NULL);
  g_autofree char *junk_path = g_build_filename (dir, "junk.asc", NULL);
  g_autofree char *erin = armored (erin_fpr, FALSE);
  g_autoptr(GFile) erin_file = g_file_new_for_path (erin_path);
  g_autoptr(GFile) junk_file = g_file_new_for_path (junk_path);
  GFile *files[] = { erin_file, junk_file };
  GtkWindow *chooser = NULL;
  g_autoptr(GListModel) filters = NULL;
  g_autoptr(GtkFileFilter) filter = NULL;
  const char *said;

  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (window->keys_page),
                                             "win.import-key", NULL));
  g_assert_true (at_wait_until (has_chooser, &chooser, 10000));
  g_assert_cmpstr (gtk_window_get_title (chooser), ==, "Add Keys");
  g_assert_true (gtk_file_chooser_get_select_multiple (GTK_FILE_CHOOSER (chooser)));
  filters = gtk_file_chooser_get_filters (GTK_FILE_CHOOSER (chooser));
  g_assert_cmpuint (g_list_model_get_n_items (filters), ==, 1);
  filter = g_list_model_get_item (filters, 0);
  g_assert_cmpstr (gtk_file_filter_get_name (filter), ==, "OpenPGP keys");
  gtk_dialog_response (GTK_DIALOG (chooser), GTK_RESPONSE_CANCEL);
  at_settle (300);

  g_assert_true (g_file_set_contents (erin_path, erin, -1, NULL));
  g_assert_true (g_file_set_contents (junk_path, "no key here\n", -1, NULL));
  /* A notice on screen: the next one shows at once, not 8 s later. */
  padlock_window_notice (window, "An earlier notice.");
  wait_role ("label", "An earlier notice.");
  g_clear_pointer (&window->last_notice, g_free);
  padlock_window_import_key_files (window, files, G_N_ELEMENTS (files));
  said = at_wait_notice (window);
  g_test_message ("%s", said);
  g_assert_cmpstr (said, ==, "Added " FSI "Erin <erin@example.org>" PDI
                                   ". No key was added from " FSI "junk.asc" PDI ": "
                             "It holds no OpenPGP key.");
  g_free (at_reader_wait_for (reader, "label",
                              "Added " FSI "Erin <erin@example.org>" PDI ".", 5000));
  g_assert_true (gpg_has (erin_fpr, FALSE));
}

/* A dropped key file with a secret key after a public one (a secret
 * key alone is a file to encrypt, as a backup is): its row says at once
 * that it holds a secret key, and offers no import. */
static void
test_drop_secret_key (void)
{
  PadlockWindow *window = at_app_window ();
  g_autofree char *dir = tu_new_dir ("paste-drop-secret");
  g_autofree char *path = g_build_filename (dir, "erin-secret.asc", NULL);
  g_autofree char *secret = armored (erin_fpr, TRUE);
  g_autofree char *bob = armored (bob_fpr, FALSE);
  g_autofree char *both = g_strconcat (bob, secret, NULL);
  const char *paths[] = { path, NULL };
  GtkWidget *row;
  GtkWidget *button;

  g_assert_true (g_file_set_contents (path, both, -1, NULL));
  at_drop (window, paths);
  at_settle (300);
  g_assert_null (window->dialog);         /* not encrypted */
  row = gtk_widget_get_last_child (GTK_WIDGET (window->imports_list));
  g_assert_true (ADW_IS_ACTION_ROW (row));
  g_assert_true (g_str_has_prefix (adw_action_row_get_subtitle (ADW_ACTION_ROW (row)),
                                   "This is a secret key"));
  wait_role ("label", "Padlock adds only public keys");
  button = at_find_widget (row, GTK_TYPE_BUTTON);
  g_assert_true (button == NULL || !gtk_widget_get_visible (button));
  g_assert_false (gpg_has (erin_fpr, TRUE));
}

/* The Keyboard Shortcuts window tells of Ctrl+V. */
static void
test_shortcuts_window (void)
{
  PadlockWindow *window = at_app_window ();
  g_autofree char *text = NULL;

  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (window),
                                             "win.show-help-overlay", NULL));
  at_settle (500);
  text = at_reader_list (reader, "label");
  g_assert_nonnull (strstr (text, "|Ctrl|+|V|Paste a key or files (not in a text field)|"));
  gtk_window_destroy (GTK_WINDOW (gtk_application_window_get_help_overlay (
                                    GTK_APPLICATION_WINDOW (window))));
  at_settle (200);
}

int
main (int argc, char **argv)
{
  int status;

  g_setenv ("GTK_A11Y", "atspi", TRUE);
  tu_init (&argc, &argv);
  home = tg_home_new ();
  others = tg_home_new ();
  g_setenv ("GNUPGHOME", home->dir, TRUE);
  make_keys ();
  at_application ();
  gtk_window_present (GTK_WINDOW (at_app_window ()));
  at_settle (200);
  /* The keyring, read before the first paste (the window asks for it
   * when needed; a paste does too). */
  g_assert_true (at_wait_until (at_keyring_loaded,
                                padlock_window_keys_get_keyring (at_app_window ()),
                                WAIT_MS));
  reader = at_reader_new ();
  g_test_add_func ("/paste/ctrl-v-adds-bob", test_ctrl_v_adds_bob);
  g_test_add_func ("/paste/entry-keeps-ctrl-v", test_entry_keeps_ctrl_v);
  g_test_add_func ("/paste/not-a-key", test_not_a_key);
  g_test_add_func ("/paste/files", test_files);
  g_test_add_func ("/paste/drop-secret-key", test_drop_secret_key);
  g_test_add_func ("/paste/add-key-files", test_add_key_files);
  g_test_add_func ("/paste/dialog-imports-two", test_dialog_imports_two);
  g_test_add_func ("/paste/shortcuts-window", test_shortcuts_window);
  status = g_test_run ();
  at_reader_free (reader);
  g_clear_pointer (&home, tg_home_free);
  g_clear_pointer (&others, tg_home_free);
  return status;
}
