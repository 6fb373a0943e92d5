/* test-padlock-people.c - the encrypt dialog's "People" (padlock-people.h) in
 * a real window under Xvfb, over a GnuPG home of the test's own, read as
 * a screen reader reads it (AT-SPI); the file it writes opens with the
 * colleagues' gpg -d.
 */
#include <string.h>
#include <glib/gstdio.h>

#include "app-testutil.h"
#include "gnupg-home.h"
#include "padlock-people-private.h"
#include "padlock-signature.h"

#define WAIT_MS 120000

static TgHome *home;            /* Alice's: her key, Bob's (certified by
                                 * her), Eve's (not), Olga's (expired) */
static TgHome *colleagues;      /* Bob's and Eve's secret keys */
static char *bob_fpr;
static char *eve_fpr;

static void
make_keys (void)
{
  g_autoptr(GBytes) certs = NULL;
  g_autofree char *alice = NULL;
  g_autofree char *olga = NULL;

  colleagues = tg_home_new ();
  bob_fpr = tg_gen_encryption_key (colleagues, "Bob <bob@example.org>",
                                   "ed25519", "cv25519", "never", NULL);
  eve_fpr = tg_gen_encryption_key (colleagues, "Eve <eve@example.org>",
                                   "ed25519", "cv25519", "never", NULL);
  g_assert_cmpint (tg_gpg (colleagues, NULL, NULL, &certs, "--export", NULL),
                   ==, 0);
  tg_gpgconf (colleagues, "--kill", "gpg-agent");

  home = tg_home_new ();
  alice = tg_gen_encryption_key (home, "Alice <alice@example.org>",
                                 "ed25519", "cv25519", "never", NULL);
  g_assert_cmpint (tg_gpg (home, NULL, certs, NULL, "--import", NULL), ==, 0);
  /* Alice has checked Bob's fingerprint: his key is verified (full). */
  g_assert_cmpint (tg_gpg (home, NULL, NULL, NULL, "--quick-lsign-key",
                           bob_fpr, NULL), ==, 0);
  olga = tg_gen_encryption_key (home, "Olga <olga@example.org>", "ed25519",
                                "cv25519", "1y", "20200101T000000");
  /* The dialog signs as Alice by default ("Sign as"): her colleagues have
   * her certificate, so their gpg -d checks the signature too. */
  g_clear_pointer (&certs, g_bytes_unref);
  g_assert_cmpint (tg_gpg (home, NULL, NULL, &certs, "--export", alice, NULL),
                   ==, 0);
  g_assert_cmpint (tg_gpg (colleagues, NULL, certs, NULL, "--import", NULL),
                   ==, 0);
  tg_gpgconf (colleagues, "--kill", "gpg-agent");
}

/* What the reader sees of the whole application, one string. */
static char *
seen (AtReader *reader)
{
  g_auto(GStrv) tree = at_reader_ask (reader, "tree");

  return g_strjoinv ("\n", tree);
}

static gboolean
keyring_read (gpointer data)
{
  PadlockPeople *people = data;

  return padlock_keyring_get_state (people->keyring) != PADLOCK_KEYRING_LOADING;
}

static gboolean
has_matches (gpointer data)
{
  PadlockPeople *people = data;

  return gtk_widget_get_visible (GTK_WIDGET (people->match_list))
         && gtk_widget_get_first_child (GTK_WIDGET (people->match_list));
}

static gboolean
format_known (gpointer data)
{
  return padlock_people_get_format (data) != NULL;
}

/* Types TEXT into the search field, as a user does, and waits for the
 * matches (the field's own delay). */
static void
search (PadlockPeople *people, const char *text)
{
  gtk_editable_set_text (GTK_EDITABLE (people->search_entry), "");
  gtk_editable_set_text (GTK_EDITABLE (people->search_entry), text);
  g_assert_true (at_wait_until (has_matches, people, 10000));
  at_settle (200);
}

static guint
n_rows (GtkListBox *list)
{
  guint n = 0;

  for (GtkWidget *w = gtk_widget_get_first_child (GTK_WIDGET (list)); w;
       w = gtk_widget_get_next_sibling (w))
    n++;
  return n;
}

static gboolean
dialog_gone (gpointer data)
{
  return PADLOCK_WINDOW (data)->dialog == NULL;
}

/* Bob by a part of his name, Eve after the warning, Olga shown but not
 * pickable; no passphrase; the row and the dialog name who can open it,
 * and Bob's gpg does. */
static void
test_encrypt_to_people (void)
{
  g_autofree char *dir = tu_new_dir ("people");
  g_autofree char *in = g_build_filename (dir, "minutes.txt", NULL);
  g_autofree char *out = g_build_filename (dir, "minutes.txt.gpg", NULL);
  const char *paths[] = { in, NULL };
  PadlockWindow *window = at_new_window ();
  AtReader *reader = at_reader_new ();
  PadlockPassphraseDialog *dialog;
  PadlockPeople *people;
  g_autofree char *text = NULL;
  g_autofree char *tree = NULL;
  g_autoptr(GBytes) plain = NULL;
  g_auto(GStrv) last = NULL;
  GtkWidget *row;

  g_assert_true (g_file_set_contents (in, "minutes of the meeting\n", -1, NULL));
  /* "Delete the original" on: with people only it cannot be checked
   * (their keys are not Padlock's to ask), so it is kept, and said. */
  g_settings_set_boolean (window->settings, "delete-original", TRUE);
  at_drop (window, paths);
  dialog = at_wait_dialog (window);
  people = dialog->people;
  g_assert_nonnull (people);
  g_assert_true (at_wait_until (keyring_read, people, WAIT_MS));
  g_assert_cmpint (padlock_keyring_get_state (people->keyring), ==,
                   PADLOCK_KEYRING_READY);
  /* Only "you" yet: Alice's key opens it, no passphrase needed (issue 37
   * §3; test-app-encrypt-dialog /encrypt-dialog/only-me). */
  g_assert_true (gtk_widget_get_sensitive (GTK_WIDGET (dialog->ok_button)));

  /* "bo" completes to Bob: name, email, short fingerprint, validity. */
  search (people, "bo");
  tree = seen (reader);
  g_test_message ("%s", tree);
  g_assert_nonnull (strstr (tree, "Bob <bob@example.org>"));
  g_assert_cmpuint (n_rows (people->match_list), ==, 1);
  row = gtk_widget_get_first_child (GTK_WIDGET (people->match_list));
  {
    g_autofree char *id = g_strconcat ("0x", bob_fpr + 24, NULL);
    const char *subtitle = adw_action_row_get_subtitle (ADW_ACTION_ROW (row));

    g_assert_nonnull (strstr (subtitle, "bob@example.org"));
    g_assert_nonnull (strstr (subtitle, id));
    g_assert_nonnull (strstr (subtitle, "Verified"));
  }
  g_signal_emit_by_name (people->search_entry, "activate");
  at_settle (200);
  /* The chip: a row named Bob in "Recipients", with its remove button. */
  g_clear_pointer (&tree, g_free);
  tree = seen (reader);
  g_assert_nonnull (strstr (tree, "Remove Bob <bob@example.org>"));
  g_assert_cmpuint (n_rows (people->chosen_list), ==, 1);
  g_assert_false (gtk_widget_get_visible (people->warning_box));

  /* Eve's key is not certified: the warning first. */
  search (people, "eve@");
  g_signal_emit_by_name (people->search_entry, "activate");
  at_settle (200);
  g_assert_true (gtk_widget_get_visible (people->warning_box));
  text = at_reader_list (reader, "label");
  g_assert_nonnull (strstr (text, "Padlock cannot tell that this key belongs "
                                  "to \u2068Eve\u2069"));
  {
    g_autofree char *grouped = padlock_fingerprint_grouped (eve_fpr);

    g_assert_nonnull (strstr (text, grouped));      /* "E63B 7941 …" */
  }
  g_assert_cmpuint (n_rows (people->chosen_list), ==, 1);
  at_screenshot (GTK_WIDGET (dialog), "people-warning");
  g_signal_emit_by_name (people->warning_use_button, "clicked");
  at_settle (200);
  g_assert_cmpuint (n_rows (people->chosen_list), ==, 2);

  /* Olga's expired key: shown with the reason, not pickable. */
  search (people, "olga");
  row = gtk_widget_get_first_child (GTK_WIDGET (people->match_list));
  g_assert_false (gtk_widget_get_sensitive (row));
  g_assert_nonnull (strstr (adw_action_row_get_subtitle (ADW_ACTION_ROW (row)),
                            "expired on 20"));
  g_signal_emit_by_name (people->search_entry, "activate");
  at_settle (200);
  g_assert_cmpuint (n_rows (people->chosen_list), ==, 2);
  gtk_editable_set_text (GTK_EDITABLE (people->search_entry), "");

  /* Who can open it, and the format the recipients chose. */
  g_assert_true (at_wait_until (format_known, people, WAIT_MS));
  at_settle (300);
  g_clear_pointer (&text, g_free);
  text = at_reader_list (reader, "label");
  g_assert_nonnull (strstr (text, "Also encrypt to me (\u2068Alice <alice@example.org>\u2069)"));
  g_assert_nonnull (strstr (text, "Who can open it: \u2068Bob <bob@example.org>\u2069, "
                                  "\u2068Eve <eve@example.org>\u2069, and you"));
  g_assert_nonnull (strstr (text, "OpenPGP (RFC 4880) · all recipients' "
                                  "software reads it"));
  /* The heading names what the dialog does, people chosen and no
   * passphrase: not "Choose a passphrase…".  The name is isolated
   * (U+2068 … U+2069), as every file name shown. */
  g_assert_nonnull (strstr (text, "Encrypt \u2068minutes.txt\u2069"));
  g_assert_null (strstr (text, "Choose a passphrase"));
  g_assert_true (gtk_widget_get_sensitive (GTK_WIDGET (dialog->ok_button)));
  at_screenshot (GTK_WIDGET (dialog), "people-recipients");

  /* Encrypt, with no passphrase. */
  g_object_ref (dialog);
  g_assert_true (gtk_widget_activate (GTK_WIDGET (dialog->ok_button)));
  g_assert_true (at_wait_until (dialog_gone, window, 10000));
  g_object_unref (dialog);
  g_assert_true (at_wait_queue_idle (window->queue, WAIT_MS));
  at_settle (300);
  g_clear_pointer (&text, g_free);
  text = at_reader_list (reader, "label");
  /* A finished row is one line: what it wrote, in which format and for
   * whom, is its verdict's tooltip, which the reader gets as the
   * description. */
  {
    g_auto(GStrv) described = at_reader_ask (reader, "describe label");

    g_clear_pointer (&text, g_free);
    text = g_strjoinv ("\n", described);
  }
  g_test_message ("%s", text);
  g_assert_nonnull (strstr (text, "OpenPGP (RFC 4880) · for \u2068Bob <bob@example.org>\u2069, "
                                  "\u2068Eve <eve@example.org>\u2069, and you"));
  at_screenshot (GTK_WIDGET (window), "people-row");
  g_clear_pointer (&text, g_free);
  text = at_reader_list (reader, "label");
  g_assert_nonnull (strstr (text, "original kept: only the people chosen can "
                                  "open the copy"));
  g_assert_true (g_file_test (in, G_FILE_TEST_EXISTS));
  g_settings_set_boolean (window->settings, "delete-original", FALSE);
  plain = tg_gpg_decrypt_file (colleagues, out, NULL);
  g_assert_nonnull (plain);
  g_assert_cmpmem (g_bytes_get_data (plain, NULL), g_bytes_get_size (plain),
                   "minutes of the meeting\n", 23);

  /* Remembered for the next dialog. */
  last = g_settings_get_strv (window->settings, "last-recipients");
  g_assert_cmpuint (g_strv_length (last), ==, 2);
  g_assert_cmpstr (last[0], ==, bob_fpr);
  g_assert_cmpstr (last[1], ==, eve_fpr);

  at_reader_free (reader);
  gtk_window_destroy (GTK_WINDOW (window));
}

static gboolean
carol_found (gpointer data)
{
  PadlockPeople *people = data;
  g_autoptr(GPtrArray) found = padlock_keyring_search (people->keyring,
                                                       "carol@");

  return found->len == 1;
}

/* The next dialog chooses the last recipients again; a key that gpg
 * imports while it is open can be found at once. */
static void
test_remembered_and_new (void)
{
  g_autofree char *dir = tu_new_dir ("people-again");
  g_autofree char *in = g_build_filename (dir, "agenda.txt", NULL);
  const char *paths[] = { in, NULL };
  PadlockWindow *window = at_new_window ();
  g_autoptr(TgHome) carols = tg_home_new ();
  g_autofree char *carol = tg_gen_encryption_key (carols,
                                                  "Carol <carol@example.org>",
                                                  "ed25519", "cv25519",
                                                  "never", NULL);
  g_autoptr(GBytes) cert = NULL;
  PadlockPassphraseDialog *dialog;
  PadlockPeople *people;
  GtkWidget *row;

  g_assert_true (g_file_set_contents (in, "agenda\n", -1, NULL));
  at_drop (window, paths);
  dialog = at_wait_dialog (window);
  people = dialog->people;
  g_assert_true (at_wait_until (keyring_read, people, WAIT_MS));
  g_assert_cmpuint (n_rows (people->chosen_list), ==, 2);
  g_assert_true (gtk_widget_get_sensitive (GTK_WIDGET (dialog->ok_button)));

  g_assert_cmpint (tg_gpg (carols, NULL, NULL, &cert, "--export", carol, NULL),
                   ==, 0);
  g_assert_cmpint (tg_gpg (home, NULL, cert, NULL, "--import", NULL), ==, 0);
  /* The keyring's file monitor reads it again. */
  g_assert_true (at_wait_until (carol_found, people, WAIT_MS));
  search (people, "carol");
  row = gtk_widget_get_first_child (GTK_WIDGET (people->match_list));
  g_assert_cmpstr (adw_preferences_row_get_title (ADW_PREFERENCES_ROW (row)),
                   ==, "\u2068Carol <carol@example.org>\u2069");
  g_assert_true (gtk_widget_get_sensitive (row));
  gtk_window_close (GTK_WINDOW (dialog));
  g_assert_true (at_wait_until (dialog_gone, window, 10000));
  gtk_window_destroy (GTK_WINDOW (window));
}

static gboolean
carl_found (gpointer data)
{
  PadlockPeople *people = data;
  g_autoptr(GPtrArray) found = padlock_keyring_search (people->keyring,
                                                       "carl@");

  return found->len == 1;
}

/* Issue 32: a key Alice certified as Mallory's whose primary user ID
 * says Carl (with ESC [2K and U+202E, shown escaped).  Found by "carl", its row names Mallory (verified) and says
 * that it also claims to be Carl (not verified), and picking it warns
 * for Carl, the user ID that matched; found by "mallory@", it is picked
 * at once, and "Who can open it" names Mallory, never Carl. */
static void
test_two_faced (void)
{
  g_autofree char *dir = tu_new_dir ("people-two-faced");
  g_autofree char *in = g_build_filename (dir, "plan.txt", NULL);
  const char *paths[] = { in, NULL };
  g_autoptr(TgHome) mallorys = tg_home_new ();
  /* Carl's user ID carries ESC [2K and U+202E: shown escaped. */
  g_autofree char *fpr = tg_two_faced_key (mallorys, home,
                                           "Carl \x1b[2K\u202Eevil "
                                           "<carl@example.org>",
                                           "Mallory <mallory@evil.example>");
  PadlockWindow *window = at_new_window ();
  AtReader *reader = at_reader_new ();
  PadlockPassphraseDialog *dialog;
  PadlockPeople *people;
  g_autofree char *text = NULL;
  const char *subtitle, *who;
  GtkWidget *row;
  guint before;

  g_assert_true (g_file_set_contents (in, "plan\n", -1, NULL));
  at_drop (window, paths);
  dialog = at_wait_dialog (window);
  people = dialog->people;
  g_assert_true (at_wait_until (keyring_read, people, WAIT_MS));
  g_assert_true (at_wait_until (carl_found, people, WAIT_MS));
  before = n_rows (people->chosen_list);

  search (people, "carl");
  g_assert_cmpuint (n_rows (people->match_list), ==, 1);
  row = gtk_widget_get_first_child (GTK_WIDGET (people->match_list));
  g_assert_cmpstr (adw_preferences_row_get_title (ADW_PREFERENCES_ROW (row)),
                   ==, "\u2068Mallory <mallory@evil.example>\u2069");
  subtitle = adw_action_row_get_subtitle (ADW_ACTION_ROW (row));
  g_test_message ("%s", subtitle);
  g_assert_nonnull (strstr (subtitle, "\u2068mallory@evil.example\u2069 · 0x"));
  g_assert_nonnull (strstr (subtitle, "Verified · also claims to be "
                                      "\u2068Carl \\x1B[2K\\u202Eevil "
                                      "<carl@example.org>\u2069 "
                                      "(not verified)"));
  g_signal_emit_by_name (people->search_entry, "activate");
  at_settle (200);
  g_assert_true (gtk_widget_get_visible (people->warning_box));
  text = at_reader_list (reader, "label");
  g_assert_nonnull (strstr (text, "Padlock cannot tell that this key belongs "
                                  "to \u2068Carl \\x1B[2K\\u202Eevil\u2069"));
  {
    g_autofree char *grouped = padlock_fingerprint_grouped (fpr);

    g_assert_nonnull (strstr (text, grouped));
  }
  g_assert_cmpuint (n_rows (people->chosen_list), ==, before);

  search (people, "mallory@");
  g_signal_emit_by_name (people->search_entry, "activate");
  at_settle (200);
  g_assert_false (gtk_widget_get_visible (people->warning_box));
  g_assert_cmpuint (n_rows (people->chosen_list), ==, before + 1);
  who = gtk_label_get_text (people->who_label);
  g_test_message ("%s", who);
  g_assert_nonnull (strstr (who, "Mallory <mallory@evil.example>"));
  g_assert_null (strstr (who, "Carl"));

  gtk_window_close (GTK_WINDOW (dialog));
  g_assert_true (at_wait_until (dialog_gone, window, 10000));
  at_reader_free (reader);
  gtk_window_destroy (GTK_WINDOW (window));
}

/* A user who never ran gpg: the section says so, and how to add a key. */
static void
test_no_home (void)
{
  g_autofree char *missing = g_build_filename (tu_tmpdir (), "never-ran-gpg",
                                               NULL);
  g_autoptr(PadlockKeyring) keyring = padlock_keyring_new (missing);
  g_autoptr(GSettings) settings = g_settings_new ("io.github.padlock.Padlock");
  GtkWidget *window = gtk_window_new ();
  AtReader *reader;
  PadlockPeople *people = padlock_people_new (keyring, settings);
  g_autofree char *text = NULL;

  gtk_window_set_child (GTK_WINDOW (window), GTK_WIDGET (people));
  gtk_window_present (GTK_WINDOW (window));
  reader = at_reader_new ();
  g_assert_cmpint (padlock_keyring_get_state (keyring), ==,
                   PADLOCK_KEYRING_NO_HOME);
  at_settle (300);
  text = at_reader_list (reader, "label");
  g_assert_nonnull (strstr (text, "There is no GnuPG keyring yet"));
  g_assert_nonnull (strstr (text, "paste it into the search field below"));
  g_assert_true (gtk_widget_get_visible (GTK_WIDGET (people->import_button)));
  /* The place to paste a key into (issue 35 §3). */
  g_assert_true (gtk_widget_get_visible (GTK_WIDGET (people->search_entry)));
  g_assert_true (gtk_widget_get_sensitive (GTK_WIDGET (people->search_entry)));
  g_assert_false (gtk_widget_get_visible (GTK_WIDGET (people->hide_check)));
  g_assert_false (padlock_people_has_people (people));
  g_assert_null (padlock_people_dup_recipients (people));
  at_reader_free (reader);
  gtk_window_destroy (GTK_WINDOW (window));
}

int
main (int argc, char **argv)
{
  int status;

  /* GTK's accessibility over AT-SPI (read when the first widget is
   * made). */
  g_setenv ("GTK_A11Y", "atspi", TRUE);
  tu_init (&argc, &argv);
  make_keys ();
  /* The application's keyring is GnuPG's own: this test's home, set
   * before the application exists. */
  g_setenv ("GNUPGHOME", home->dir, TRUE);
  at_application ();
  g_test_add_func ("/app-people/encrypt-to-people", test_encrypt_to_people);
  g_test_add_func ("/app-people/remembered-and-new", test_remembered_and_new);
  g_test_add_func ("/app-people/two-faced", test_two_faced);
  g_test_add_func ("/app-people/no-home", test_no_home);
  status = g_test_run ();
  g_clear_pointer (&home, tg_home_free);
  g_clear_pointer (&colleagues, tg_home_free);
  return status;
}
