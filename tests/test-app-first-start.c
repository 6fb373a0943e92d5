/* test-app-first-start.c - issue 35's walk, from an empty GnuPG home,
 * with the window alone, as a user does it and a screen reader reads it:
 * "Create Your Key" (the scripted pinentry gives the passphrase), share
 * it (Copy: Bob's gpg imports what was copied), add Carol by pasting her
 * key (Ctrl+V pressed in the window), add Bob by his address ("Search on
 * the Internet for bob@…" on the Keys page, a keyserver of the test's own
 * on 127.0.0.1), verify Bob on his page, encrypt a file to Bob signed as
 * you; Bob's gpg decrypts it and says "Good signature" from you.
 *
 * A real window under Xvfb, read over AT-SPI, keys pressed through XTest,
 * a GnuPG home with no key in it at first, a real gpg-agent and
 * dirmngr.  Each step of the others' tests (test-app-mykey,
 * test-app-paste, test-padlock-lookup-box, test-padlock-keys-page,
 * test-padlock-people, test-app-sigs-ui) in one run, in a user's order:
 * what one step leaves is what the next one meets.
 */
#include <string.h>

#include "app-testutil.h"
#include "gnupg-home.h"
#include "hkp-server.h"
#include "padlock-create-key-dialog-private.h"
#include "padlock-lookup-box.h"
#include "padlock-my-key-window-private.h"
#include "padlock-people-private.h"
#include "padlock-person-page.h"
#include "padlock-signature.h"

#define PASSPHRASE "a first key's passphrase"
#define WAIT_MS 120000
#define ALICE "Alice Example <alice@example.invalid>"
#define BOB "Bob <bob@example.invalid>"
#define BOB_EMAIL "bob@example.invalid"
#define CAROL "Carol <carol@example.invalid>"
#define FSI "\u2068"
#define PDI "\u2069"

static TgHome *home;            /* the user's: empty at first */
static TgHome *bob_home;
static TgHome *carol_home;
static char *bob_fpr;
static char *carol_fpr;
static HkpServer *server;
static AtReader *reader;

static gboolean
user_has (const char *fpr)
{
  return tg_gpg (home, NULL, NULL, NULL, "--with-colons", "--list-keys", fpr,
                 NULL) == 0;
}

/* gpg's validity of FPR in the user's home (pub's second field). */
static char *
validity_of (const char *fpr)
{
  g_autoptr (GPtrArray) pub = tg_colon_records (home, "--list-keys", fpr, "pub");

  g_assert_cmpuint (pub->len, ==, 1);
  return g_strdup (((char **) pub->pdata[0])[1]);
}

static gboolean
not_busy (gpointer box)
{
  return !padlock_lookup_box_is_busy (box);
}

static gboolean
people_ready (gpointer data)
{
  PadlockPeople *people = data;

  return padlock_keyring_get_state (people->keyring) == PADLOCK_KEYRING_READY
         && gtk_widget_get_sensitive (GTK_WIDGET (people->search_entry));
}

static gboolean
dialog_gone (gpointer window)
{
  return PADLOCK_WINDOW (window)->dialog == NULL;
}

/* Create Your Key, on the first page of an empty home; its
 * fingerprint. */
static char *
create_key (PadlockWindow *window)
{
  PadlockCreateKeyDialog *dialog;
  char *fpr;

  g_free (at_reader_wait_for (reader, "push button", "Create Your Key", WAIT_MS));
  gtk_widget_activate (GTK_WIDGET (window->create_key_button));
  dialog = PADLOCK_CREATE_KEY_DIALOG (at_wait_toplevel (PADLOCK_TYPE_CREATE_KEY_DIALOG, WAIT_MS));
  gtk_editable_set_text (GTK_EDITABLE (dialog->name_row), "Alice Example");
  gtk_editable_set_text (GTK_EDITABLE (dialog->email_row), "alice@example.invalid");
  g_assert_true (at_wait_until ((gboolean (*) (gpointer)) gtk_widget_get_sensitive,
                                dialog->create_button, WAIT_MS));
  tg_home_set_pinentry (home, PASSPHRASE);
  gtk_widget_activate (GTK_WIDGET (dialog->create_button));
  g_free (at_reader_wait_for (reader, "label", "revocation certificate", WAIT_MS));
  g_free (at_reader_wait_for (reader, "label", "Your key is made", WAIT_MS));
  fpr = g_strdup (padlock_create_key_dialog_get_fingerprint (dialog));
  g_assert_nonnull (fpr);
  g_assert_cmpuint (tg_colon_records (home, "--list-secret-keys", fpr, "sec")->len,
                    ==, 1);

  /* Share: the key's window; Copy puts the public key on the clipboard,
   * and what was copied is what Bob's gpg imports. */
  gtk_widget_activate (GTK_WIDGET (dialog->share_button));
  {
    PadlockMyKeyWindow *key_window =
      PADLOCK_MY_KEY_WINDOW (at_wait_toplevel (PADLOCK_TYPE_MY_KEY_WINDOW, WAIT_MS));
    g_autofree char *copied = NULL;
    g_autoptr (GBytes) armor = NULL;

    gtk_widget_activate (GTK_WIDGET (key_window->copy_button));
    g_free (at_reader_wait_for (reader, "label", "Public key copied", WAIT_MS));
    copied = at_clipboard_text (GTK_WIDGET (key_window));
    g_assert_true (g_str_has_prefix (copied, "-----BEGIN PGP PUBLIC KEY BLOCK-----"));
    armor = g_bytes_new (copied, strlen (copied));
    g_assert_cmpint (tg_gpg (bob_home, NULL, armor, NULL, "--import", NULL), ==, 0);
    g_assert_cmpint (tg_gpg (bob_home, NULL, NULL, NULL, "--list-keys", fpr, NULL),
                     ==, 0);
    gtk_window_destroy (GTK_WINDOW (key_window));
  }
  if (at_find_toplevel (PADLOCK_TYPE_CREATE_KEY_DIALOG))
    gtk_window_destroy (GTK_WINDOW (dialog));
  return fpr;
}

/* Carol's key, sent in a mail: on the clipboard, Ctrl+V in the window. */
static void
paste_carol (PadlockWindow *window)
{
  g_autoptr (GBytes) armor = NULL;
  g_autofree char *mail = NULL;

  g_assert_cmpint (tg_gpg (carol_home, NULL, NULL, &armor, "--armor", "--export",
                           carol_fpr, NULL), ==, 0);
  mail = g_strdup_printf ("Hi, here is my key:\n\n%.*s\nCarol\n",
                          (int) g_bytes_get_size (armor),
                          (const char *) g_bytes_get_data (armor, NULL));
  gdk_clipboard_set_text (gtk_widget_get_clipboard (GTK_WIDGET (window)), mail);
  g_clear_pointer (&window->last_notice, g_free);
  at_focus_window (GTK_WINDOW (window));
  at_reader_key (reader, "Control+v");
  g_assert_nonnull (strstr (at_wait_notice (window), "Added " FSI CAROL PDI));
  g_free (at_reader_wait_for (reader, "label", "Added " FSI CAROL PDI, WAIT_MS));
  g_assert_true (user_has (carol_fpr));
}

/* Bob by his address, on the Keys page: the search offers the lookup,
 * which shows his fingerprint; Import is the user's click. */
static void
look_up_bob (PadlockWindow *window)
{
  GtkWidget *page = GTK_WIDGET (window->keys_page);
  GtkWidget *entry = at_find_widget (page, GTK_TYPE_SEARCH_ENTRY);
  GtkWidget *box = at_find_widget (page, PADLOCK_TYPE_LOOKUP_BOX);
  g_autofree char *grouped = padlock_fingerprint_grouped (bob_fpr);
  g_autofree char *said_fpr = g_strdup_printf ("Fingerprint: %s", grouped);

  at_focus_window (GTK_WINDOW (window));
  at_reader_key (reader, "Alt+2");
  g_assert_cmpstr (adw_view_stack_get_visible_child_name (window->view_stack),
                   ==, "keys");
  g_assert_false (user_has (bob_fpr));
  gtk_editable_set_text (GTK_EDITABLE (entry), BOB_EMAIL);
  g_free (at_reader_wait_for (reader, "push button", "Search on the Internet for " BOB_EMAIL, WAIT_MS));
  g_assert_cmpuint (hkp_server_requests (server), ==, 0);
  at_click_button (page, "Search on the Internet for " BOB_EMAIL, WAIT_MS);
  g_assert_true (at_wait_until (not_busy, box, WAIT_MS));
  g_free (at_reader_wait_for (reader, "label", said_fpr, WAIT_MS));
  g_assert_false (user_has (bob_fpr));
  at_click_button (page, "Import", WAIT_MS);
  g_assert_true (at_wait_until (not_busy, box, WAIT_MS));
  g_free (at_reader_wait_for (reader, "label", "Added " FSI BOB PDI, WAIT_MS));
  g_assert_true (user_has (bob_fpr));
  gtk_editable_set_text (GTK_EDITABLE (entry), "");
}

static gboolean
bob_listed (gpointer page)
{
  return at_find_action_row (page, FSI "Bob" PDI) != NULL;
}

/* Bob's page, from his row: "I Compared the Fingerprint with Bob", the
 * agent signing with the user's key (the pinentry gives its passphrase);
 * gpg then holds Bob's key valid (f). */
static void
verify_bob (PadlockWindow *window, const char *alice_fpr)
{
  GtkWidget *keys = GTK_WIDGET (window->keys_page);
  g_autofree char *before = validity_of (bob_fpr);
  g_autofree char *after = NULL;
  g_autofree char *grouped = g_strdup_printf ("%.4s %.4s", bob_fpr, bob_fpr + 4);
  GtkWidget *page;

  g_assert_cmpstr (before, !=, "f");
  g_assert_true (at_wait_until (bob_listed, keys, WAIT_MS));
  g_assert_true (gtk_widget_activate (at_find_action_row (keys, FSI "Bob" PDI)));
  page = GTK_WIDGET (at_wait_toplevel (PADLOCK_TYPE_PERSON_PAGE, WAIT_MS));
  g_free (at_reader_wait_for (reader, "label", grouped, WAIT_MS));
  tg_home_set_pinentry (home, PASSPHRASE);
  at_click_button (page, "I Compared the Fingerprint with " FSI "Bob", WAIT_MS);
  g_free (at_reader_wait_for (reader, "push button", "Forget Verification", WAIT_MS));
  after = validity_of (bob_fpr);
  g_assert_cmpstr (after, ==, "f");
  g_assert_cmpstr (validity_of (alice_fpr), ==, "u");
  gtk_window_destroy (GTK_WINDOW (page));
  at_settle (100);
}

/* A file dropped on the window, to Bob (verified: no warning), signed as
 * the user, no passphrase; the row says so; the message file. */
static char *
encrypt_to_bob (PadlockWindow *window, const char *dir)
{
  g_autofree char *in = g_build_filename (dir, "plans.txt", NULL);
  const char *paths[] = { in, NULL };
  PadlockPassphraseDialog *dialog;
  PadlockPeople *people;
  g_autofree char *checks = NULL;
  g_autofree char *row = NULL;

  g_assert_true (g_file_set_contents (in, "meet at the old mill at noon\n", -1, NULL));
  /* Dropped while the Keys page shows: the Files page, where its row
   * will be, comes first. */
  g_assert_cmpstr (adw_view_stack_get_visible_child_name (window->view_stack),
                   ==, "keys");
  at_drop (window, paths);
  g_assert_cmpstr (adw_view_stack_get_visible_child_name (window->view_stack),
                   ==, "files");
  dialog = at_wait_dialog (window);
  people = dialog->people;
  g_assert_nonnull (people);
  g_assert_true (at_wait_until (people_ready, people, WAIT_MS));
  g_assert_true (at_wait_until (at_sign_as_shown, dialog, WAIT_MS));
  checks = at_reader_wait_for (reader, "check box", "Sign as " ALICE, WAIT_MS);
  g_assert_nonnull (checks);
  gtk_editable_set_text (GTK_EDITABLE (people->search_entry), "bob");
  at_settle (200);
  g_signal_emit_by_name (people->search_entry, "activate");
  at_settle (200);
  g_assert_false (gtk_widget_get_visible (people->warning_box));
  g_assert_cmpuint (people->chosen->len, ==, 1);
  g_free (at_reader_wait_for (reader, "label", "Who can open it: " FSI BOB PDI, WAIT_MS));
  g_assert_true (gtk_widget_get_sensitive (GTK_WIDGET (dialog->ok_button)));
  tg_home_set_pinentry (home, PASSPHRASE);
  g_object_ref (dialog);
  g_assert_true (gtk_widget_activate (GTK_WIDGET (dialog->ok_button)));
  g_assert_true (at_wait_until (dialog_gone, window, WAIT_MS));
  g_object_unref (dialog);
  g_assert_true (at_wait_queue_idle (window->queue, WAIT_MS));
  g_assert_cmpint (padlock_job_get_state (at_find_job (window, in)), ==,
                   PADLOCK_JOB_DONE);
  /* The row, as a screen reader reads it: signed, and for whom. */
  row = at_reader_wait_for (reader, "label", "Signed as " FSI "Alice Example" PDI, WAIT_MS);
  g_assert_nonnull (strstr (row, "Bob"));
  return g_strconcat (in, ".gpg", NULL);
}

/* The whole walk, in one window, from an empty home. */
static void
test_first_start (void)
{
  PadlockWindow *window = at_app_window ();
  g_autofree char *dir = tu_new_dir ("first-start");
  g_autofree char *alice_fpr = NULL;
  g_autofree char *message = NULL;
  g_autofree char *back = g_build_filename (dir, "back.txt", NULL);
  g_autofree char *said = NULL;
  g_autofree char *got = NULL;
  g_autofree char *good = NULL;
  g_autoptr (GBytes) out = NULL;

  {
    g_autoptr (GBytes) keys = NULL;

    g_assert_cmpint (tg_gpg (home, NULL, NULL, &keys, "--list-keys", NULL), ==, 0);
    g_assert_cmpuint (g_bytes_get_size (keys), ==, 0);
  }
  alice_fpr = create_key (window);
  paste_carol (window);
  look_up_bob (window);
  verify_bob (window, alice_fpr);
  message = encrypt_to_bob (window, dir);

  /* Bob's own gpg, with nothing of Padlock's: the plaintext, and a good
   * signature by the key that the window made. */
  g_assert_cmpint (tg_gpg (bob_home, NULL, NULL, &out, "--status-fd", "1",
                           "--logger-fd", "1", "--output", back, "--decrypt",
                           message, NULL), ==, 0);
  said = g_strndup (g_bytes_get_data (out, NULL), g_bytes_get_size (out));
  g_test_message ("Bob's gpg: %s", said);
  good = g_strdup_printf ("Good signature from \"%s\"", ALICE);
  g_assert_nonnull (strstr (said, good));
  g_assert_nonnull (strstr (said, "[GNUPG:] GOODSIG "));
  {
    g_autofree char *validsig = g_strconcat ("[GNUPG:] VALIDSIG ", alice_fpr, NULL);

    g_assert_nonnull (strstr (said, validsig));
  }
  g_assert_true (g_file_get_contents (back, &got, NULL, NULL));
  g_assert_cmpstr (got, ==, "meet at the old mill at noon\n");
  g_assert_cmpuint (hkp_server_requests (server), ==, 1);
}

int
main (int argc, char **argv)
{
  g_autoptr (GBytes) armor = NULL;
  g_autofree char *text = NULL;
  int status;

  g_setenv ("GTK_A11Y", "atspi", TRUE);
  tu_init (&argc, &argv);
  bob_home = tg_home_new ();
  bob_fpr = tg_gen_encryption_key (bob_home, BOB, "ed25519", "cv25519", "never", NULL);
  carol_home = tg_home_new ();
  carol_fpr = tg_gen_encryption_key (carol_home, CAROL, "ed25519", "cv25519",
                                     "never", NULL);
  tg_gpgconf (carol_home, "--kill", "gpg-agent");
  g_assert_cmpint (tg_gpg (bob_home, NULL, NULL, &armor, "--armor", "--export",
                           bob_fpr, NULL), ==, 0);
  text = g_strndup (g_bytes_get_data (armor, NULL), g_bytes_get_size (armor));
  server = hkp_server_new ();
  hkp_server_add (server, bob_fpr, BOB_EMAIL, text);
  /* The user's home: no key in it; its agent's pinentry is the test's,
   * and its dirmngr asks the test's keyserver (the machine's setup, as
   * a user's gpg-agent.conf and dirmngr.conf would be). */
  home = tg_home_new ();
  tg_home_use_keyserver (home, server);
  g_setenv ("GNUPGHOME", home->dir, TRUE);
  at_application ();
  gtk_window_present (GTK_WINDOW (at_app_window ()));
  at_settle (200);
  reader = at_reader_new ();
  g_test_add_func ("/first-start/walk", test_first_start);
  status = g_test_run ();
  at_reader_free (reader);
  g_clear_pointer (&home, tg_home_free);
  g_clear_pointer (&bob_home, tg_home_free);
  g_clear_pointer (&carol_home, tg_home_free);
  g_clear_pointer (&server, hkp_server_free);
  return status;
}
