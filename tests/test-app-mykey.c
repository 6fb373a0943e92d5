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

static PadlockWindow *
app_window (void)
{
  return padlock_application_get_window (at_application ());
}

static char *
wait_seen (const char *role, const char *text)
{
  return at_reader_wait_for (reader, role, text, WAIT_MS);
}

static gboolean
has_toplevel (gpointer type)
{
  return at_find_toplevel ((GType) GPOINTER_TO_SIZE (type)) != NULL;
}

static GtkWidget *
wait_toplevel (GType type)
{
  g_assert_true (at_wait_until (has_toplevel, GSIZE_TO_POINTER (type), WAIT_MS));
  return GTK_WIDGET (at_find_toplevel (type));
}

typedef struct
{
  char *text;
  gboolean done;
} ClipboardRead;

static void
on_clipboard_text (GObject *source, GAsyncResult *result, gpointer data)
{
  ClipboardRead *read = data;

  read->text = gdk_clipboard_read_text_finish (GDK_CLIPBOARD (source), result, NULL);
  read->done = TRUE;
}

static gboolean
clipboard_read (gpointer data)
{
  return ((ClipboardRead *) data)->done;
}

static char *
clipboard_text (GtkWidget *widget)
{
  ClipboardRead read = { NULL, FALSE };

  gdk_clipboard_read_text_async (gtk_widget_get_clipboard (widget), NULL,
                                 on_clipboard_text, &read);
  g_assert_true (at_wait_until (clipboard_read, &read, WAIT_MS));
  return read.text;
}

/* Empty home → "Create Your Key" → name and email → the pinentry gives
 * the passphrase → "Your key is made", the fingerprint and where the
 * revocation certificate is; gpg -K lists it; Share → the key's window;
 * Copy → the armored public key on the clipboard. */
static void
test_create_and_share (void)
{
  PadlockWindow *window = app_window ();
  PadlockCreateKeyDialog *dialog;
  PadlockMyKeyWindow *key_window;
  g_autoptr (GPtrArray) sec = NULL, uid = NULL;
  g_autofree char *rev = NULL, *groups = NULL, *copied = NULL;
  g_autofree char *fpr = NULL;
  char *seen;

  g_free (wait_seen ("push button", "Create Your Key"));
  gtk_widget_activate (GTK_WIDGET (window->create_key_button));
  dialog = PADLOCK_CREATE_KEY_DIALOG (wait_toplevel (PADLOCK_TYPE_CREATE_KEY_DIALOG));
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
  seen = wait_seen ("label", "revocation certificate");
  g_assert_nonnull (padlock_create_key_dialog_get_fingerprint (dialog));
  fpr = g_strdup (padlock_create_key_dialog_get_fingerprint (dialog));
  rev = g_strdup_printf ("%s/openpgp-revocs.d/%s.rev", home->dir, fpr);
  g_assert_nonnull (strstr (seen, rev));
  g_assert_true (g_file_test (rev, G_FILE_TEST_IS_REGULAR));
  g_free (seen);
  g_free (wait_seen ("label", "Your key is made"));
  groups = g_strdup_printf ("%.4s %.4s", fpr, fpr + 4);
  g_free (wait_seen ("label", groups));
  at_screenshot (GTK_WIDGET (dialog), "create-key-done");

  sec = tg_colon_records (home, "--list-secret-keys", fpr, "sec");
  uid = tg_colon_records (home, "--list-secret-keys", fpr, "uid");
  g_assert_cmpuint (sec->len, ==, 1);
  g_assert_cmpstr (((char **) uid->pdata[0])[9], ==, "Alice Example <alice@example.org>");
  /* The first page offers it no more. */
  at_reader_wait_gone (reader, "push button", "Create Your Key", WAIT_MS);

  gtk_widget_activate (GTK_WIDGET (dialog->share_button));
  key_window = PADLOCK_MY_KEY_WINDOW (wait_toplevel (PADLOCK_TYPE_MY_KEY_WINDOW));
  g_free (wait_seen ("label", groups));
  g_free (wait_seen ("label", "Alice Example"));
  g_free (wait_seen ("label", "Expires on"));
  g_assert_false (gtk_widget_get_visible (GTK_WIDGET (key_window->extend_button)));
  /* A screen reader reads each button by its name, once (issue 37 §4). */
  {
    const char *names[] = { "Copy", "Save As…", "Back Up Secret Key…" };

    for (guint i = 0; i < G_N_ELEMENTS (names); i++)
      {
        g_autofree char *name = wait_seen ("push button", names[i]);

        g_assert_cmpstr (name, ==, names[i]);
      }
  }
  gtk_widget_activate (GTK_WIDGET (key_window->copy_button));
  g_free (wait_seen ("label", "Public key copied"));
  copied = clipboard_text (GTK_WIDGET (key_window));
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
  PadlockWindow *window = app_window ();
  gint64 now = g_get_real_time () / G_USEC_PER_SEC;
  g_autofree char *fpr = tg_gen_key (home, "Soon <soon@example.org>", "ed25519",
                                     "cert,sign", "20d", PASSPHRASE, NULL);
  g_autoptr (GPtrArray) pub = NULL, sub = NULL;

  tg_add_key (home, fpr, "cv25519", "encr", "20d", PASSPHRASE, NULL);
  g_free (wait_seen ("label", "Your key Soon <soon@example.org> expires on"));
  g_free (wait_seen ("push button", "Extend by 2 Years"));
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
  gtk_window_present (GTK_WINDOW (app_window ()));
  at_settle (200);
  reader = at_reader_new ();
  g_test_add_func ("/app-mykey/create-and-share", test_create_and_share);
  g_test_add_func ("/app-mykey/expiry-banner", test_expiry_banner);
  status = g_test_run ();
  at_reader_free (reader);
  g_clear_pointer (&home, tg_home_free);
  return status;
}
