/* test-app-mykey.c - the user's own key in the window, from an empty
 * GnuPG home: the first page offers "Create Your Key"; the dialog makes
 * the key (the scripted pinentry gives the passphrase), says so and
 * names the revocation certificate; "Share" opens the key's window,
 * whose Copy puts the armored public key on the clipboard; a key that
 * expires in 20 days shows the banner, whose Extend moves the expiry.
 * A real window under Xvfb, read over AT-SPI as a screen reader does, a
 * GnuPG home of the test's own and a real gpg-agent.
 */
#include <string.h>

#include "app-testutil.h"
#include "gnupg-home.h"
#include "padlock-create-key-dialog-private.h"
#include "padlock-my-key-window-private.h"

#define PASSPHRASE "my first key's passphrase"
#define WAIT_MS 120000
#define DAY ((gint64) 24 * 3600)

static TgHome *home;
static AtReader *reader;

/* Empty home → "Create Your Key" → name and email → the pinentry gives
 * the passphrase → "Your key is made", the fingerprint and where the
 * revocation certificate is; gpg -K lists it; Share → the key's window;
 * Copy → the armored public key on the clipboard. */
static void
test_create_and_share (void)
{
  PadlockWindow *window = at_app_window ();
  PadlockCreateKeyDialog *dialog;
  PadlockMyKeyWindow *key_window;
  g_autoptr (GPtrArray) sec = NULL, uid = NULL;
  g_autofree char *rev = NULL, *groups = NULL, *copied = NULL;
  g_autofree char *fpr = NULL;
  char *seen;

  g_free (at_reader_wait_for (reader, "push button", "Create Your Key", WAIT_MS));
  gtk_widget_activate (GTK_WIDGET (window->create_key_button));
  dialog = PADLOCK_CREATE_KEY_DIALOG (at_wait_toplevel (PADLOCK_TYPE_CREATE_KEY_DIALOG, WAIT_MS));
  g_assert_false (gtk_widget_get_sensitive (GTK_WIDGET (dialog->create_button)));
  gtk_editable_set_text (GTK_EDITABLE (dialog->name_row), "Alice Example");
  gtk_editable_set_text (GTK_EDITABLE (dialog->email_row), "alice@example");
  at_settle (100);
  /* Not an address yet: said, and Create waits. */
  g_assert_false (gtk_widget_get_sensitive (GTK_WIDGET (dialog->create_button)));
  gtk_editable_set_text (GTK_EDITABLE (dialog->email_row), "alice@example.org");
  at_settle (200);
  g_assert_true (gtk_widget_get_sensitive (GTK_WIDGET (dialog->create_button)));
  g_assert_false (gtk_widget_get_visible (GTK_WIDGET (dialog->error_label)));
  at_screenshot (GTK_WIDGET (dialog), "create-key");

  tg_home_set_pinentry (home, PASSPHRASE);
  gtk_widget_activate (GTK_WIDGET (dialog->create_button));
  seen = at_reader_wait_for (reader, "label", "revocation certificate", WAIT_MS);
  g_assert_nonnull (padlock_create_key_dialog_get_fingerprint (dialog));
  fpr = g_strdup (padlock_create_key_dialog_get_fingerprint (dialog));
  rev = g_strdup_printf ("%s/openpgp-revocs.d/%s.rev", home->dir, fpr);
  g_assert_nonnull (strstr (seen, rev));
  g_assert_true (g_file_test (rev, G_FILE_TEST_IS_REGULAR));
  g_free (seen);
  g_free (at_reader_wait_for (reader, "label", "Your key is made", WAIT_MS));
  groups = g_strdup_printf ("%.4s %.4s", fpr, fpr + 4);
  g_free (at_reader_wait_for (reader, "label", groups, WAIT_MS));
  at_screenshot (GTK_WIDGET (dialog), "create-key-done");

  sec = tg_colon_records (home, "--list-secret-keys", fpr, "sec");
  uid = tg_colon_records (home, "--list-secret-keys", fpr, "uid");
  g_assert_cmpuint (sec->len, ==, 1);
  g_assert_cmpstr (((char **) uid->pdata[0])[9], ==, "Alice Example <alice@example.org>");
  /* The first page offers it no more. */
  at_reader_wait_gone (reader, "push button", "Create Your Key", WAIT_MS);

  gtk_widget_activate (GTK_WIDGET (dialog->share_button));
  key_window = PADLOCK_MY_KEY_WINDOW (at_wait_toplevel (PADLOCK_TYPE_MY_KEY_WINDOW, WAIT_MS));
  g_free (at_reader_wait_for (reader, "label", groups, WAIT_MS));
  g_free (at_reader_wait_for (reader, "label", "Alice Example", WAIT_MS));
  g_free (at_reader_wait_for (reader, "label", "Expires on", WAIT_MS));
  g_assert_false (gtk_widget_get_visible (GTK_WIDGET (key_window->extend_button)));
  /* A screen reader reads each button by its name, once (issue 37 §4). */
  {
    const char *names[] = { "Copy", "Save As…", "Back Up Secret Key…" };

    for (guint i = 0; i < G_N_ELEMENTS (names); i++)
      {
        g_autofree char *name = at_reader_wait_for (reader, "push button", names[i], WAIT_MS);

        g_assert_cmpstr (name, ==, names[i]);
      }
  }
  gtk_widget_activate (GTK_WIDGET (key_window->copy_button));
  g_free (at_reader_wait_for (reader, "label", "Public key copied", WAIT_MS));
  copied = at_clipboard_text (GTK_WIDGET (key_window));
  g_assert_nonnull (copied);
  g_assert_true (g_str_has_prefix (copied, "-----BEGIN PGP PUBLIC KEY BLOCK-----"));
  at_screenshot (GTK_WIDGET (key_window), "my-key");
  gtk_window_destroy (GTK_WINDOW (key_window));

  /* The copied key is the one gpg made: another home imports it. */
  {
    g_autoptr (TgHome) other = tg_home_new ();
    g_autoptr (GBytes) armor = g_bytes_new (copied, strlen (copied));
    g_autoptr (GBytes) listed = NULL;

    g_assert_cmpint (tg_gpg (other, NULL, armor, NULL, "--import", NULL), ==, 0);
    g_assert_cmpint (tg_gpg (other, NULL, NULL, &listed, "--list-keys", fpr, NULL),
                     ==, 0);
  }
  /* Gone, for the next test (which needs the user's only key to expire). */
  g_assert_cmpint (tg_gpg (home, NULL, NULL, NULL, "--yes",
                           "--delete-secret-and-public-key", fpr, NULL), ==, 0);
}

/* A key that expires in 20 days: the banner says so, and its Extend
 * (the pinentry gives the passphrase) moves both expiries two years
 * from now; then the banner goes. */
static void
test_expiry_banner (void)
{
  PadlockWindow *window = at_app_window ();
  gint64 now = g_get_real_time () / G_USEC_PER_SEC;
  g_autofree char *fpr = tg_gen_key (home, "Soon <soon@example.org>", "ed25519",
                                     "cert,sign", "20d", PASSPHRASE, NULL);
  g_autoptr (GPtrArray) pub = NULL, sub = NULL;

  tg_add_key (home, fpr, "cv25519", "encr", "20d", PASSPHRASE, NULL);
  g_free (at_reader_wait_for (reader, "label", "Your key Soon <soon@example.org> expires on", WAIT_MS));
  g_free (at_reader_wait_for (reader, "push button", "Extend by 2 Years", WAIT_MS));
  at_screenshot (GTK_WIDGET (window), "my-key-expiring");

  tg_gpgconf (home, "--reload", "gpg-agent");
  tg_home_set_pinentry (home, PASSPHRASE);
  g_clear_pointer (&window->last_notice, g_free);
  gtk_widget_activate (GTK_WIDGET (window->extend_button));
  g_assert_cmpstr (at_wait_notice (window), ==, "Your key was extended by two years");
  at_reader_wait_gone (reader, "label", "Your key Soon", WAIT_MS);
  g_assert_false (gtk_revealer_get_reveal_child (window->expiry_revealer));
  pub = tg_colon_records (home, "--list-keys", fpr, "pub");
  sub = tg_colon_records (home, "--list-keys", fpr, "sub");
  g_assert_cmpint (g_ascii_strtoll (((char **) pub->pdata[0])[6], NULL, 10), >,
                   now + 2 * 365 * DAY - DAY);
  g_assert_cmpint (g_ascii_strtoll (((char **) sub->pdata[0])[6], NULL, 10), >,
                   now + 2 * 365 * DAY - DAY);
}

int
main (int argc, char **argv)
{
  int status;

  g_setenv ("GTK_A11Y", "atspi", TRUE);
  tu_init (&argc, &argv);
  home = tg_home_new ();
  /* The application's keyring and agent are GNUPGHOME's. */
  g_setenv ("GNUPGHOME", home->dir, TRUE);
  at_application ();
  gtk_window_present (GTK_WINDOW (at_app_window ()));
  at_settle (200);
  reader = at_reader_new ();
  g_test_add_func ("/app-mykey/create-and-share", test_create_and_share);
  g_test_add_func ("/app-mykey/expiry-banner", test_expiry_banner);
  status = g_test_run ();
  at_reader_free (reader);
  g_clear_pointer (&home, tg_home_free);
  return status;
}
