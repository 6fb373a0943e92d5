/* test-app-sigs-ui.c - a decrypted file's signature in its row, as a user
 * and a screen reader (AT-SPI) find it, under Xvfb with a real GnuPG
 * home: the signed row ("Signed by Alice <…>"), the bad-signature row
 * (in red, with Delete, which removes the output once confirmed), the
 * unknown-signer row (its fingerprint); screenshots of them; and the rows
 * of cleartext-signed files (gpg --clearsign), good and bad */
#include <string.h>
#include <glib/gstdio.h>

#include "app-testutil.h"
#include "gnupg-home.h"
#include "packet-builder.h"
#include "padlock-job-row.h"
#include "padlock-passphrase-dialog-private.h"
#include "padlock-sign-as.h"
#include "padlock-signature.h"
#include "padlock-window.h"

#define PASSPHRASE "tulip-orbit-canyon-42"
#define TIMEOUT_MS (180 * 1000)

static TgHome *home;            /* Alice's key: the user's keyring */
static TgHome *carol_home;      /* Carol's, whom the keyring does not know */
static char *alice_fpr, *carol_fpr;

static void
write_bytes (const char *path, GBytes *bytes)
{
  GError *error = NULL;

  g_assert_true (g_file_set_contents (path, g_bytes_get_data (bytes, NULL),
                                      g_bytes_get_size (bytes), &error));
  g_assert_no_error (error);
}

/* gpg -c -s: TEXT signed by SIGNER in H, encrypted with PASSPHRASE. */
static void
gpg_sign_symmetric (TgHome *h, const char *signer, const char *path,
                    const char *name, const char *text)
{
  g_autoptr(GBytes) in = g_bytes_new (text, strlen (text));
  g_autoptr(GBytes) sealed = NULL;

  g_assert_cmpint (tg_gpg (h, PASSPHRASE, in, &sealed, "--set-filename", name,
                           "--output", "-", "-u", signer, "-c", "-s", NULL),
                   ==, 0);
  write_bytes (path, sealed);
}

/* The row showing the job whose input is NAME. */
static PadlockJobRow *
find_row (GtkWidget *widget, const char *name)
{
  if (PADLOCK_IS_JOB_ROW (widget))
    {
      PadlockJob *job = padlock_job_row_get_job (PADLOCK_JOB_ROW (widget));
      g_autofree char *base = job ? g_file_get_basename (padlock_job_get_input (job))
                                  : NULL;

      return g_strcmp0 (base, name) == 0 ? PADLOCK_JOB_ROW (widget) : NULL;
    }
  for (GtkWidget *c = gtk_widget_get_first_child (widget); c;
       c = gtk_widget_get_next_sibling (c))
    {
      PadlockJobRow *row = find_row (c, name);

      if (row)
        return row;
    }
  return NULL;
}

static GtkWidget *
signature_box (PadlockJobRow *row)
{
  g_assert_nonnull (row);
  return GTK_WIDGET (gtk_widget_get_template_child (GTK_WIDGET (row), PADLOCK_TYPE_JOB_ROW,
                                                    "signature_box"));
}

static AdwMessageDialog *
find_message_dialog (void)
{
  g_autoptr(GList) toplevels = gtk_window_list_toplevels ();

  for (GList *l = toplevels; l; l = l->next)
    if (ADW_IS_MESSAGE_DIALOG (l->data)
        && gtk_widget_get_visible (GTK_WIDGET (l->data)))
      return l->data;
  return NULL;
}

static gboolean
has_message_dialog (gpointer data)
{
  return find_message_dialog () != NULL;
}

static void
test_signature_rows (void)
{
  g_autofree char *dir = tu_new_dir ("sig-rows");
  g_autofree char *good = g_build_filename (dir, "invoice.pdf.gpg", NULL);
  g_autofree char *bad = g_build_filename (dir, "contract.odt.gpg", NULL);
  g_autofree char *unknown = g_build_filename (dir, "notes.txt.gpg", NULL);
  g_autofree char *bad_out = g_build_filename (dir, "contract.odt", NULL);
  g_autofree char *carol = padlock_fingerprint_grouped (carol_fpr);
  g_autofree char *panels = NULL;
  g_autofree char *buttons = NULL;
  g_autofree char *labels = NULL;
  g_autofree char *expect = NULL;
  const char *paths[] = { good, bad, unknown, NULL };
  PadlockWindow *window = at_new_window ();
  AtReader *reader = at_reader_new ();
  PadlockPassphraseDialog *dialog;
  PadlockJobRow *row;
  AdwMessageDialog *confirm;

  gpg_sign_symmetric (home, alice_fpr, good, "invoice.pdf", "from Alice\n");
  {
    g_autoptr(GBytes) altered = tg_bad_signature_message (home, alice_fpr, "contract.odt",
                                                          "altered?\n", PASSPHRASE);
    write_bytes (bad, altered);
  }
  gpg_sign_symmetric (carol_home, carol_fpr, unknown, "notes.txt",
                      "from Carol\n");
  gtk_window_set_default_size (GTK_WINDOW (window), 900, 560);
  at_drop (window, paths);
  dialog = at_wait_dialog (window);
  at_answer (dialog, PASSPHRASE);
  g_assert_true (at_wait_queue_idle (window->queue, TIMEOUT_MS));
  at_settle (300);

  /* What a screen reader says of each row: the file, its state, the
   * signature's verdict. */
  panels = at_reader_list (reader, "panel");
  g_assert_nonnull (strstr (panels, "invoice.pdf.gpg, Decrypted"));
  g_assert_nonnull (strstr (panels, ", Signed by Alice <alice@example.org>"));
  g_assert_nonnull (strstr (panels, ", Signature does not match: the file may "
                                    "have been altered after Alice signed it"));
  expect = g_strconcat (", Signed by an unknown key ", carol, NULL);
  g_assert_nonnull (strstr (panels, expect));
  /* What it shows: the same words, the signer isolated. */
  labels = at_reader_list (reader, "label");
  g_assert_nonnull (strstr (labels, "Signed by \xe2\x81\xa8" "Alice <alice@example.org>"
                                    "\xe2\x81\xa9"));
  g_assert_nonnull (strstr (labels, "the file may have been altered after "
                                    "\xe2\x81\xa8" "Alice\xe2\x81\xa9 signed it"));
  buttons = at_reader_list (reader, "push button");
  g_assert_nonnull (strstr (buttons, "Delete contract.odt"));
  g_assert_null (strstr (buttons, "Delete invoice.pdf"));
  g_assert_null (strstr (buttons, "Delete notes.txt"));

  /* Red, with a check mark only for the good one. */
  row = find_row (GTK_WIDGET (window->job_list), "contract.odt.gpg");
  g_assert_nonnull (row);
  g_assert_true (gtk_widget_has_css_class (signature_box (row), "error"));
  g_assert_true (gtk_widget_has_css_class (
                   signature_box (find_row (GTK_WIDGET (window->job_list), "invoice.pdf.gpg")),
                   "success"));
  at_screenshot (GTK_WIDGET (window), "signatures");

  /* Delete asks first; Cancel keeps the file. */
  g_assert_true (g_file_test (bad_out, G_FILE_TEST_EXISTS));
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (row), "row.delete-output", NULL));
  g_assert_true (at_wait_until (has_message_dialog, NULL, TIMEOUT_MS));
  confirm = find_message_dialog ();
  at_screenshot (GTK_WIDGET (confirm), "signature-delete");
  adw_message_dialog_response (confirm, "cancel");
  at_settle (200);
  g_assert_true (g_file_test (bad_out, G_FILE_TEST_EXISTS));
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (row), "row.delete-output", NULL));
  g_assert_true (at_wait_until (has_message_dialog, NULL, TIMEOUT_MS));
  adw_message_dialog_response (find_message_dialog (), "delete");
  at_settle (300);
  g_assert_false (g_file_test (bad_out, G_FILE_TEST_EXISTS));
  /* The encrypted file stays; the row says the output went. */
  g_assert_true (g_file_test (bad, G_FILE_TEST_EXISTS));
  g_clear_pointer (&panels, g_free);
  g_clear_pointer (&buttons, g_free);
  panels = at_reader_list (reader, "panel");
  g_assert_nonnull (strstr (panels, "altered after Alice signed it. The decrypted "
                                    "file was deleted."));
  buttons = at_reader_list (reader, "push button");
  g_assert_null (strstr (buttons, "Delete contract.odt"));

  at_reader_free (reader);
  gtk_window_destroy (GTK_WINDOW (window));
  at_settle (50);
}

/* gpg --clearsign of TEXT by SIGNER in H into PATH, FROM (not NULL) then
 * changed to TO (tg_clearsign). */
static void
gpg_clearsign (TgHome *h, const char *signer, const char *path,
               const char *text, const char *from, const char *to)
{
  g_autofree char *msg = tg_clearsign (h, signer, text, from, to);

  g_assert_true (g_file_set_contents (path, msg, -1, NULL));
}

/* Cleartext-signed files dropped on the window: no dialog; each row
 * says it was checked ("Checked 20 bytes at …"), with the verdict as for a signed
 * encrypted file (good with a check mark; a word changed: red, with
 * Delete, after which the row says the text went), and Open and Show for
 * the text written. */
static void
test_clearsigned_rows (void)
{
  g_autofree char *dir = tu_new_dir ("sig-clearsigned");
  g_autofree char *good = g_build_filename (dir, "notes.txt.asc", NULL);
  g_autofree char *bad = g_build_filename (dir, "memo.txt.asc", NULL);
  g_autofree char *good_out = g_build_filename (dir, "notes.txt", NULL);
  g_autofree char *bad_out = g_build_filename (dir, "memo.txt", NULL);
  g_autofree char *panels = NULL;
  g_autofree char *buttons = NULL;
  g_autofree char *got = NULL;
  const char *paths[] = { good, bad, NULL };
  PadlockWindow *window = at_new_window ();
  AtReader *reader = at_reader_new ();
  PadlockJobRow *row;

  gtk_window_set_default_size (GTK_WINDOW (window), 900, 400);
  gpg_clearsign (home, alice_fpr, good, "- a list\nof things\n", NULL, NULL);
  gpg_clearsign (home, alice_fpr, bad, "pay Bob 100\n", "Bob", "Eve");
  at_drop (window, paths);
  g_assert_true (at_wait_queue_idle (window->queue, TIMEOUT_MS));
  at_settle (300);
  g_assert_null (window->dialog);

  panels = at_reader_list (reader, "panel");
  g_assert_nonnull (strstr (panels, "notes.txt.asc, Checked "));
  g_assert_nonnull (strstr (panels, "memo.txt.asc, Checked "));
  g_assert_nonnull (strstr (panels, ", Signed by Alice <alice@example.org>"));
  g_assert_nonnull (strstr (panels, ", Signature does not match: the file may "
                                    "have been altered after Alice signed it"));
  buttons = at_reader_list (reader, "push button");
  g_assert_nonnull (strstr (buttons, "Delete memo.txt"));
  g_assert_null (strstr (buttons, "Delete notes.txt"));
  g_assert_nonnull (strstr (buttons, "Open notes.txt"));
  g_assert_nonnull (strstr (buttons, "Show notes.txt in Files"));
  g_assert_true (gtk_widget_has_css_class (
                   signature_box (find_row (GTK_WIDGET (window->job_list), "notes.txt.asc")),
                   "success"));
  row = find_row (GTK_WIDGET (window->job_list), "memo.txt.asc");
  g_assert_true (gtk_widget_has_css_class (signature_box (row), "error"));
  g_assert_true (g_file_get_contents (good_out, &got, NULL, NULL));
  g_assert_cmpstr (got, ==, "- a list\nof things\n");
  at_screenshot (GTK_WIDGET (window), "clearsigned");

  /* Delete, confirmed: the text goes, the signed file stays. */
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (row), "row.delete-output", NULL));
  g_assert_true (at_wait_until (has_message_dialog, NULL, TIMEOUT_MS));
  adw_message_dialog_response (find_message_dialog (), "delete");
  at_settle (300);
  g_assert_false (g_file_test (bad_out, G_FILE_TEST_EXISTS));
  g_assert_true (g_file_test (bad, G_FILE_TEST_EXISTS));
  g_clear_pointer (&panels, g_free);
  panels = at_reader_list (reader, "panel");
  g_assert_nonnull (strstr (panels, "altered after Alice signed it. The signed "
                                    "text was deleted."));

  at_reader_free (reader);
  gtk_window_destroy (GTK_WINDOW (window));
  at_settle (50);
}

/* The encrypt dialog offers "Sign as Alice <…>", checked; what the window
 * then writes, gpg -d finds signed by Alice, through the agent. */
static void
test_sign_in_window (void)
{
  g_autofree char *dir = tu_new_dir ("sig-sign");
  g_autofree char *plain = g_build_filename (dir, "minutes.txt", NULL);
  g_autofree char *sealed = g_build_filename (dir, "minutes.txt.gpg", NULL);
  g_autofree char *back = g_build_filename (dir, "back.txt", NULL);
  g_autofree char *checks = NULL;
  g_autofree char *validsig = g_strconcat ("[GNUPG:] VALIDSIG ", alice_fpr, NULL);
  g_autofree char *got = NULL;
  g_autofree char *status_text = NULL;
  g_autoptr(GBytes) status = NULL;
  const char *paths[] = { plain, NULL };
  PadlockWindow *window = at_new_window ();
  AtReader *reader = at_reader_new ();
  PadlockPassphraseDialog *dialog;

  g_assert_true (g_file_set_contents (plain, "signed in the window\n", -1, NULL));
  at_drop (window, paths);
  dialog = at_wait_dialog (window);
  g_assert_true (at_wait_until (at_sign_as_shown, dialog, TIMEOUT_MS));
  at_settle (200);
  checks = at_reader_list (reader, "check box");
  g_assert_nonnull (strstr (checks, "Sign as Alice <alice@example.org>"));
  g_assert_nonnull (padlock_sign_as_get_key (at_find_sign_as (GTK_WIDGET (dialog))));
  gtk_editable_set_text (GTK_EDITABLE (dialog->entry), PASSPHRASE);
  gtk_editable_set_text (GTK_EDITABLE (dialog->confirm_entry), PASSPHRASE);
  at_screenshot (GTK_WIDGET (dialog), "sign-as");
  at_answer (dialog, PASSPHRASE);
  g_assert_true (at_wait_queue_idle (window->queue, TIMEOUT_MS));

  g_assert_cmpint (tg_gpg (home, PASSPHRASE, NULL, &status, "--status-fd", "1",
                           "--output", back, "--decrypt", sealed, NULL), ==, 0);
  status_text = g_strndup (g_bytes_get_data (status, NULL), g_bytes_get_size (status));
  g_test_message ("gpg: %s", status_text);
  g_assert_nonnull (strstr (status_text, "[GNUPG:] GOODSIG "));
  g_assert_nonnull (strstr (status_text, validsig));
  g_assert_true (g_file_get_contents (back, &got, NULL, NULL));
  g_assert_cmpstr (got, ==, "signed in the window\n");

  at_reader_free (reader);
  gtk_window_destroy (GTK_WINDOW (window));
  at_settle (50);
}

int
main (int argc, char **argv)
{
  g_autoptr(GBytes) alice = NULL;
  int status;

  /* GTK's accessibility over AT-SPI (read when the first widget is
   * made); the keyring is gpg's default home, as a user's. */
  g_setenv ("GTK_A11Y", "atspi", TRUE);
  tu_init (&argc, &argv);
  home = tg_home_new ();
  alice_fpr = tg_gen_key (home, "Alice <alice@example.org>", "ed25519",
                          "cert,sign", "never", "", NULL);
  carol_home = tg_home_new ();
  carol_fpr = tg_gen_key (carol_home, "Carol <carol@example.org>", "ed25519",
                          "cert,sign", "never", "", NULL);
  g_setenv ("GNUPGHOME", home->dir, TRUE);
  at_application ();
  g_test_add_func ("/sigs-ui/rows", test_signature_rows);
  g_test_add_func ("/sigs-ui/sign-as", test_sign_in_window);
  g_test_add_func ("/sigs-ui/clearsigned", test_clearsigned_rows);
  status = g_test_run ();
  g_clear_pointer (&home, tg_home_free);
  g_clear_pointer (&carol_home, tg_home_free);
  return status;
}
