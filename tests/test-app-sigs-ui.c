/* test-app-sigs-ui.c - a decrypted file's signature in its row, as a user
 * and a screen reader (AT-SPI) find it, under Xvfb with a real GnuPG
 * home: the signed row ("Signed by Alice <…>"), the bad-signature row
 * (in red, with Delete, which removes the output once confirmed), the
 * unknown-signer row (its fingerprint); screenshots of them; the rows
 * of cleartext-signed files (gpg --clearsign), good and bad; a detached
 * signature (gpg --detach-sign) dropped with its data file, one row,
 * good and with one octet changed; signed-only messages (gpg -s); and
 * checksum lists (sha256sum's SHA256SUMS, signed detached or cleartext,
 * or not at all) */
#include <string.h>
#include <glib/gstdio.h>

#include "app-testutil.h"
#include "gnupg-home.h"
#include "packet-builder.h"
#include "padlock-error.h"
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

static GtkWidget *
signature_box (PadlockJobRow *row)
{
  g_assert_nonnull (row);
  return GTK_WIDGET (gtk_widget_get_template_child (GTK_WIDGET (row), PADLOCK_TYPE_JOB_ROW,
                                                    "signature_box"));
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
  /* What it shows: the same words, the signer isolated.  The reader
   * hears of a label's new text by an event of its own, which can come
   * after the row's name under load (ASan, three suites at once): the
   * labels are waited for, as a reader's user would. */
  labels = at_reader_wait_for_all (reader, "label", (const char *[]) {
                                     "Signed by \xe2\x81\xa8" "Alice <alice@example.org>"
                                     "\xe2\x81\xa9",
                                     "the file may have been altered after "
                                     "\xe2\x81\xa8" "Alice\xe2\x81\xa9 signed it",
                                     NULL }, TIMEOUT_MS);
  buttons = at_reader_list (reader, "push button");
  g_assert_nonnull (strstr (buttons, "Delete contract.odt"));
  g_assert_null (strstr (buttons, "Delete invoice.pdf"));
  g_assert_null (strstr (buttons, "Delete notes.txt"));

  /* Red, with a check mark only for the good one. */
  row = at_find_job_row (GTK_WIDGET (window->job_list), "contract.odt.gpg");
  g_assert_nonnull (row);
  g_assert_true (gtk_widget_has_css_class (signature_box (row), "error"));
  g_assert_true (gtk_widget_has_css_class (
                   signature_box (at_find_job_row (GTK_WIDGET (window->job_list), "invoice.pdf.gpg")),
                   "success"));
  at_screenshot (GTK_WIDGET (window), "signatures");

  /* Delete asks first; Cancel keeps the file. */
  g_assert_true (g_file_test (bad_out, G_FILE_TEST_EXISTS));
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (row), "row.delete-output", NULL));
  g_assert_true (at_wait_until (at_has_message_dialog, NULL, TIMEOUT_MS));
  confirm = at_find_message_dialog ();
  at_screenshot (GTK_WIDGET (confirm), "signature-delete");
  adw_message_dialog_response (confirm, "cancel");
  at_settle (200);
  g_assert_true (g_file_test (bad_out, G_FILE_TEST_EXISTS));
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (row), "row.delete-output", NULL));
  g_assert_true (at_wait_until (at_has_message_dialog, NULL, TIMEOUT_MS));
  adw_message_dialog_response (at_find_message_dialog (), "delete");
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
                   signature_box (at_find_job_row (GTK_WIDGET (window->job_list), "notes.txt.asc")),
                   "success"));
  row = at_find_job_row (GTK_WIDGET (window->job_list), "memo.txt.asc");
  g_assert_true (gtk_widget_has_css_class (signature_box (row), "error"));
  g_assert_true (g_file_get_contents (good_out, &got, NULL, NULL));
  g_assert_cmpstr (got, ==, "- a list\nof things\n");
  at_screenshot (GTK_WIDGET (window), "clearsigned");

  /* Delete, confirmed: the text goes, the signed file stays. */
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (row), "row.delete-output", NULL));
  g_assert_true (at_wait_until (at_has_message_dialog, NULL, TIMEOUT_MS));
  adw_message_dialog_response (at_find_message_dialog (), "delete");
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

/* The job of WINDOW's queue at POSITION, and its row. */
static PadlockJob *
job_at (PadlockWindow *window, guint position)
{
  g_autoptr(PadlockJob) job = g_list_model_get_item (G_LIST_MODEL (window->queue),
                                                     position);

  g_assert_nonnull (job);
  return job;                   /* the queue holds it */
}

static PadlockJobRow *
find_job_row (GtkWidget *widget, PadlockJob *job)
{
  if (PADLOCK_IS_JOB_ROW (widget))
    return padlock_job_row_get_job (PADLOCK_JOB_ROW (widget)) == job
           ? PADLOCK_JOB_ROW (widget) : NULL;
  for (GtkWidget *c = gtk_widget_get_first_child (widget); c;
       c = gtk_widget_get_next_sibling (c))
    {
      PadlockJobRow *row = find_job_row (c, job);

      if (row)
        return row;
    }
  return NULL;
}

/* DIR holds exactly the names of EXPECT ("a|b", sorted): nothing was
 * encrypted or written beside them. */
static void
assert_dir_holds (const char *dir, const char *expect)
{
  g_autofree char *names = tu_list_dir (dir);

  g_assert_cmpstr (names, ==, expect);
}

/* gpg --detach-sign of DATA by SIGNER in H into SIG. */
static void
gpg_detach_sign (TgHome *h, const char *signer, const char *data,
                 const char *sig)
{
  g_assert_cmpint (tg_gpg (h, NULL, NULL, NULL, "-u", signer, "--output", sig,
                           "--detach-sign", data, NULL), ==, 0);
}

/* Flips one octet in the middle of the file PATH. */
static void
change_one_octet (const char *path)
{
  g_autofree char *data = NULL;
  gsize len = 0;

  g_assert_true (g_file_get_contents (path, &data, &len, NULL));
  g_assert_cmpuint (len, >, 0);
  data[len / 2] ^= 0x01;
  g_assert_true (g_file_set_contents (path, data, len, NULL));
}

/* iso.img and iso.img.sig (gpg --detach-sign) dropped together: no
 * dialog, one job, the signature's, which read iso.img; its row says
 * "iso.img.sig → iso.img", checked, signed by Alice, with a check mark,
 * and offers to show the image but neither to open nor to delete it;
 * nothing is encrypted or written.  Then one octet of iso.img changed,
 * the two given again (through the application's open, as `padlock A
 * B` and the file manager give them): one row, in red, "does not
 * match", still no Delete. */
static void
test_detached_rows (void)
{
  g_autofree char *dir = tu_new_dir ("sig-detached");
  g_autofree char *data = at_write_random (dir, "iso.img", 3 * 1024 * 1024 + 17);
  g_autofree char *sig = g_build_filename (dir, "iso.img.sig", NULL);
  g_autofree char *panels = NULL;
  g_autofree char *labels = NULL;
  g_autofree char *buttons = NULL;
  const char *paths[] = { data, sig, NULL };
  const char *holds = "iso.img|iso.img.sig";
  PadlockWindow *window = at_new_window ();
  AtReader *reader = at_reader_new ();
  PadlockJob *job;
  PadlockJobRow *row;

  gpg_detach_sign (home, alice_fpr, data, sig);
  gtk_window_set_default_size (GTK_WINDOW (window), 900, 400);
  at_drop (window, paths);
  g_assert_true (at_wait_queue_idle (window->queue, TIMEOUT_MS));
  at_settle (300);
  /* No passphrase asked: nothing to encrypt, nothing to decrypt. */
  g_assert_null (window->dialog);
  g_assert_cmpuint (g_list_model_get_n_items (G_LIST_MODEL (window->queue)), ==, 1);
  job = job_at (window, 0);
  {
    g_autofree char *name = g_file_get_basename (padlock_job_get_input (job));
    g_autofree char *read = g_file_get_path (padlock_job_get_signed_file (job));

    g_assert_cmpstr (name, ==, "iso.img.sig");
    g_assert_cmpstr (read, ==, data);
  }
  g_assert_cmpint (padlock_job_get_state (job), ==, PADLOCK_JOB_DONE);
  g_assert_true (padlock_job_get_detached (job));
  g_assert_null (padlock_job_get_output (job));

  panels = at_reader_list (reader, "panel");
  g_assert_nonnull (strstr (panels, "iso.img.sig \xe2\x86\x92 iso.img, Checked "));
  g_assert_nonnull (strstr (panels, ", Signed by Alice <alice@example.org>"));
  /* The labels are waited for (see test_signature_rows). */
  labels = at_reader_wait_for_all (reader, "label", (const char *[]) {
                                     "\xe2\x86\x92 \xe2\x81\xa8" "iso.img\xe2\x81\xa9",
                                     "Signed by \xe2\x81\xa8" "Alice <alice@example.org>"
                                     "\xe2\x81\xa9", NULL }, TIMEOUT_MS);
  buttons = at_reader_list (reader, "push button");
  g_assert_nonnull (strstr (buttons, "Show iso.img in Files"));
  g_assert_null (strstr (buttons, "Open iso.img"));
  g_assert_null (strstr (buttons, "Delete iso.img"));
  row = find_job_row (GTK_WIDGET (window->job_list), job);
  g_assert_true (gtk_widget_has_css_class (signature_box (row), "success"));
  assert_dir_holds (dir, holds);

  /* One octet of the image changed after it was signed. */
  change_one_octet (data);
  {
    GFile *files[] = { g_file_new_for_path (sig), g_file_new_for_path (data) };

    g_application_open (G_APPLICATION (at_application ()), files, 2, "");
    g_object_unref (files[0]);
    g_object_unref (files[1]);
  }
  at_settle (100);
  g_assert_true (at_wait_queue_idle (window->queue, TIMEOUT_MS));
  at_settle (300);
  g_assert_null (window->dialog);
  g_assert_cmpuint (g_list_model_get_n_items (G_LIST_MODEL (window->queue)), ==, 2);
  job = job_at (window, 1);
  g_assert_true (padlock_job_get_detached (job));
  g_clear_pointer (&panels, g_free);
  g_clear_pointer (&buttons, g_free);
  panels = at_reader_list (reader, "panel");
  g_assert_nonnull (strstr (panels, ", Signature does not match: the file may "
                                    "have been altered after Alice signed it"));
  buttons = at_reader_list (reader, "push button");
  g_assert_null (strstr (buttons, "Delete iso.img"));
  row = find_job_row (GTK_WIDGET (window->job_list), job);
  g_assert_true (gtk_widget_has_css_class (signature_box (row), "error"));
  g_assert_false (gtk_widget_get_visible (
                    GTK_WIDGET (gtk_widget_get_template_child (GTK_WIDGET (row),
                                                               PADLOCK_TYPE_JOB_ROW,
                                                               "delete_button"))));
  assert_dir_holds (dir, holds);
  at_screenshot (GTK_WIDGET (window), "detached-signature");

  at_reader_free (reader);
  gtk_window_destroy (GTK_WINDOW (window));
  at_settle (50);
}

/* A signature and its data file dropped from two folders: the data
 * file given is the one read, not a file beside the signature (there is
 * none); one job, good.  Two signatures of one file (iso.img.sig and
 * iso.img.asc, armored) given with it: two jobs, both over it, neither
 * encrypting it. */
static void
test_detached_pairs (void)
{
  g_autofree char *dir = tu_new_dir ("sig-pairs");
  g_autofree char *sigs = g_build_filename (dir, "sigs", NULL);
  g_autofree char *files = g_build_filename (dir, "files", NULL);
  g_autofree char *data = NULL;
  g_autofree char *sig = g_build_filename (sigs, "tools.tar.sig", NULL);
  g_autofree char *asc = g_build_filename (files, "tools.tar.asc", NULL);
  g_autofree char *binary = g_build_filename (files, "tools.tar.sig", NULL);
  g_autofree char *panels = NULL;
  const char *apart[] = { sig, NULL, NULL };
  const char *both[] = { NULL, asc, binary, NULL };
  PadlockWindow *window = at_new_window ();
  AtReader *reader = at_reader_new ();

  g_assert_cmpint (g_mkdir (sigs, 0700), ==, 0);
  g_assert_cmpint (g_mkdir (files, 0700), ==, 0);
  data = at_write_random (files, "tools.tar", 40000);
  apart[1] = both[0] = data;
  gpg_detach_sign (home, alice_fpr, data, sig);
  gpg_detach_sign (home, alice_fpr, data, binary);
  g_assert_cmpint (tg_gpg (home, NULL, NULL, NULL, "-u", alice_fpr, "--armor",
                           "--output", asc, "--detach-sign", data, NULL), ==, 0);

  at_drop (window, apart);
  g_assert_true (at_wait_queue_idle (window->queue, TIMEOUT_MS));
  g_assert_null (window->dialog);
  g_assert_cmpuint (g_list_model_get_n_items (G_LIST_MODEL (window->queue)), ==, 1);
  g_assert_cmpint (padlock_job_get_state (job_at (window, 0)), ==, PADLOCK_JOB_DONE);

  at_drop (window, both);
  g_assert_true (at_wait_queue_idle (window->queue, TIMEOUT_MS));
  at_settle (300);
  g_assert_null (window->dialog);
  g_assert_cmpuint (g_list_model_get_n_items (G_LIST_MODEL (window->queue)), ==, 3);
  for (guint i = 0; i < 3; i++)
    {
      PadlockJob *job = job_at (window, i);
      g_autofree char *read = g_file_get_path (padlock_job_get_signed_file (job));

      g_assert_cmpint (padlock_job_get_state (job), ==, PADLOCK_JOB_DONE);
      g_assert_cmpstr (read, ==, data);
      g_assert_cmpuint (padlock_job_get_signatures (job)->len, ==, 1);
    }
  panels = at_reader_list (reader, "panel");
  g_assert_nonnull (strstr (panels, "tools.tar.asc \xe2\x86\x92 tools.tar, Checked "));
  g_assert_null (strstr (panels, "Signature does not match"));
  assert_dir_holds (files, "tools.tar|tools.tar.asc|tools.tar.sig");
  assert_dir_holds (sigs, "tools.tar.sig");

  /* A signature alone: the file beside it, when there is one; else its
   * row says so, and nothing is asked. */
  {
    const char *beside[] = { binary, NULL };
    const char *alone[] = { sig, NULL };
    PadlockJob *job;
    g_autofree char *read = NULL;
    g_autofree char *errors = NULL;

    at_drop (window, beside);
    g_assert_true (at_wait_queue_idle (window->queue, TIMEOUT_MS));
    g_assert_cmpuint (g_list_model_get_n_items (G_LIST_MODEL (window->queue)), ==, 4);
    job = job_at (window, 3);
    read = g_file_get_path (padlock_job_get_signed_file (job));
    g_assert_cmpint (padlock_job_get_state (job), ==, PADLOCK_JOB_DONE);
    g_assert_cmpstr (read, ==, data);
    at_drop (window, alone);
    g_assert_true (at_wait_queue_idle (window->queue, TIMEOUT_MS));
    at_settle (300);
    g_assert_null (window->dialog);
    g_assert_cmpuint (g_list_model_get_n_items (G_LIST_MODEL (window->queue)), ==, 5);
    job = job_at (window, 4);
    g_assert_cmpint (padlock_job_get_state (job), ==, PADLOCK_JOB_FAILED);
    errors = at_reader_list (reader, "label");
    g_assert_nonnull (strstr (errors, "|The signed file tools.tar is not beside "
                                      "it. Drop both together."));
  }

  at_reader_free (reader);
  gtk_window_destroy (GTK_WINDOW (window));
  at_settle (50);
}

/* gpg -s of DATA by SIGNER in H into OUT (binary, or armored). */
static void
gpg_sign_only (TgHome *h, const char *signer, const char *data,
               const char *out, gboolean armor)
{
  g_assert_cmpint (tg_gpg (h, NULL, NULL, NULL, "-u", signer, "--output", out,
                           armor ? "--armor" : "--no-armor", "--sign", data,
                           NULL), ==, 0);
}

/* Signed-only messages (gpg -s, gpg -sa) dropped on the window: no
 * dialog; each row says it was checked, with the verdict (Alice's good,
 * Carol's by a key the keyring does not know), and offers to open and
 * show the data it wrote beside it, which is the data signed; nothing
 * is encrypted. */
static void
test_signed_only_rows (void)
{
  g_autofree char *dir = tu_new_dir ("sig-signed-only");
  g_autofree char *src = tu_new_dir ("sig-signed-only-src");
  g_autofree char *report_in = at_write_random (src, "report.pdf", 200000);
  g_autofree char *notes_in = g_build_filename (src, "notes.txt", NULL);
  g_autofree char *report = g_build_filename (dir, "report.pdf.gpg", NULL);
  g_autofree char *notes = g_build_filename (dir, "notes.txt.asc", NULL);
  g_autofree char *report_out = g_build_filename (dir, "report.pdf", NULL);
  g_autofree char *notes_out = g_build_filename (dir, "notes.txt", NULL);
  g_autofree char *carol = padlock_fingerprint_grouped (carol_fpr);
  g_autofree char *expect = NULL;
  g_autofree char *panels = NULL;
  g_autofree char *buttons = NULL;
  g_autofree char *got = NULL;
  g_autofree char *want = NULL;
  gsize got_len = 0, want_len = 0;
  const char *paths[] = { report, notes, NULL };
  const char *holds = "notes.txt|notes.txt.asc|report.pdf|report.pdf.gpg";
  PadlockWindow *window = at_new_window ();
  AtReader *reader = at_reader_new ();

  g_assert_true (g_file_set_contents (notes_in, "from Carol\n", -1, NULL));
  gpg_sign_only (home, alice_fpr, report_in, report, FALSE);
  gpg_sign_only (carol_home, carol_fpr, notes_in, notes, TRUE);
  gtk_window_set_default_size (GTK_WINDOW (window), 900, 400);
  at_drop (window, paths);
  g_assert_true (at_wait_queue_idle (window->queue, TIMEOUT_MS));
  at_settle (300);
  g_assert_null (window->dialog);
  g_assert_cmpuint (g_list_model_get_n_items (G_LIST_MODEL (window->queue)), ==, 2);

  panels = at_reader_list (reader, "panel");
  g_assert_nonnull (strstr (panels, "report.pdf.gpg, Checked "));
  g_assert_nonnull (strstr (panels, ", Signed by Alice <alice@example.org>"));
  g_assert_nonnull (strstr (panels, "notes.txt.asc, Checked "));
  expect = g_strconcat (", Signed by an unknown key ", carol, NULL);
  g_assert_nonnull (strstr (panels, expect));
  buttons = at_reader_list (reader, "push button");
  g_assert_nonnull (strstr (buttons, "Open report.pdf"));
  g_assert_nonnull (strstr (buttons, "Show report.pdf in Files"));
  g_assert_nonnull (strstr (buttons, "Open notes.txt"));
  g_assert_true (gtk_widget_has_css_class (
                   signature_box (at_find_job_row (GTK_WIDGET (window->job_list), "report.pdf.gpg")),
                   "success"));
  g_assert_true (gtk_widget_has_css_class (
                   signature_box (at_find_job_row (GTK_WIDGET (window->job_list), "notes.txt.asc")),
                   "warning"));
  /* The data written is the data signed; nothing else is written. */
  g_assert_true (g_file_get_contents (report_out, &got, &got_len, NULL));
  g_assert_true (g_file_get_contents (report_in, &want, &want_len, NULL));
  g_assert_cmpmem (got, got_len, want, want_len);
  g_clear_pointer (&got, g_free);
  g_assert_true (g_file_get_contents (notes_out, &got, NULL, NULL));
  g_assert_cmpstr (got, ==, "from Carol\n");
  assert_dir_holds (dir, holds);
  at_screenshot (GTK_WIDGET (window), "signed-only");

  at_reader_free (reader);
  gtk_window_destroy (GTK_WINDOW (window));
  at_settle (50);
}

/* `sha256sum NAMES…` run in DIR, its output written to DIR/LIST: the
 * list a release manager publishes. */
static void
write_sha256sums (const char *dir, const char *list, const char *const *names)
{
  g_autoptr(GPtrArray) argv = g_ptr_array_new ();
  g_autofree char *program = tu_peer ("sha256sum");
  g_autofree char *out = NULL;
  g_autofree char *err = NULL;
  g_autofree char *path = g_build_filename (dir, list, NULL);
  GError *error = NULL;
  int status = -1;

  g_assert_nonnull (program);
  g_ptr_array_add (argv, program);
  for (guint i = 0; names[i]; i++)
    g_ptr_array_add (argv, (char *) names[i]);
  g_ptr_array_add (argv, NULL);
  g_assert_true (g_spawn_sync (dir, (char **) argv->pdata, NULL, G_SPAWN_DEFAULT,
                               NULL, NULL, &out, &err, &status, &error));
  g_assert_no_error (error);
  g_assert_true (g_spawn_check_wait_status (status, NULL));
  g_assert_true (g_file_set_contents (path, out, -1, NULL));
}

/* What the list's row shows and says once WINDOW's queue is idle, the
 * last job being the list's: one more row, done or failed as STATE. */
static PadlockJob *
wait_list_job (PadlockWindow *window, guint n_rows, PadlockJobState state)
{
  PadlockJob *job;

  g_assert_true (at_wait_queue_idle (window->queue, TIMEOUT_MS));
  at_settle (300);
  /* Nothing to decrypt, nothing to encrypt: nothing asked. */
  g_assert_null (window->dialog);
  g_assert_cmpuint (g_list_model_get_n_items (G_LIST_MODEL (window->queue)), ==, n_rows);
  job = job_at (window, n_rows - 1);
  g_assert_true (padlock_job_get_checks_list (job));
  g_assert_cmpint (padlock_job_get_state (job), ==, state);
  g_assert_null (padlock_job_get_output (job));
  g_assert_nonnull (padlock_job_get_checksums (job));
  return job;
}

typedef struct
{
  PadlockWindow *window;
  gboolean seen;                /* a row said "Checking SHA256SUMS…" */
} ListWatch;

/* Whether a row of the watched window showed a checksum list's job
 * running: "Checking SHA256SUMS…" (the name isolated) above its bar; or
 * no job runs any more, so that none will. */
static gboolean
shows_list_checking (gpointer data)
{
  ListWatch *watch = data;
  PadlockWindow *window = watch->window;
  guint n = g_list_model_get_n_items (G_LIST_MODEL (window->queue));
  gboolean running = FALSE;

  for (guint i = 0; i < n; i++)
    {
      PadlockJob *job = job_at (window, i);
      PadlockJobRow *row = find_job_row (GTK_WIDGET (window->job_list), job);
      GtkWidget *status, *bar;

      running |= !padlock_job_is_finished (job);
      if (!row || !padlock_job_get_checks_list (job)
          || padlock_job_get_state (job) != PADLOCK_JOB_RUNNING)
        continue;
      status = GTK_WIDGET (gtk_widget_get_template_child (GTK_WIDGET (row),
                                                          PADLOCK_TYPE_JOB_ROW,
                                                          "status_label"));
      bar = GTK_WIDGET (gtk_widget_get_template_child (GTK_WIDGET (row),
                                                       PADLOCK_TYPE_JOB_ROW,
                                                       "progress_bar"));
      if (g_str_has_prefix (gtk_label_get_text (GTK_LABEL (status)),
                            "Checking \xe2\x81\xa8" "SHA256SUMS\xe2\x81\xa9\xe2\x80\xa6")
          && gtk_widget_get_visible (bar) && gtk_widget_get_mapped (status))
        watch->seen = TRUE;
    }
  return watch->seen || (n > 0 && !running);
}

/* Checksum lists dropped on the window (issue 34 §3): SHA256SUMS made by
 * sha256sum over a.iso, b.iso and three files the folder does not hold,
 * signed by gpg --detach-sign (SHA256SUMS.gpg).  Both dropped: one row,
 * "SHA256SUMS: signed by Alice <…> · 2 files match", "2 ok, 0 differ, 3
 * not here", a check mark, Show and neither Open nor Delete; b.iso
 * changed by one octet: in red, "b.iso does not match the signed
 * checksum"; the same list cleartext-signed (SHA256SUMS.asc, InRelease
 * style), alone; and a list alone with no signature: "nobody vouches
 * for it".  A screen reader hears the same.  Nothing is asked, nothing
 * written. */
static void
test_checksum_list_rows (void)
{
  g_autofree char *dir = tu_new_dir ("sig-list");
  g_autofree char *plain = tu_new_dir ("sig-list-plain");
  /* Large enough to be seen hashing. */
  g_autofree char *a = at_write_random (dir, "a.iso", 48 * 1024 * 1024 + 5);
  g_autofree char *b = at_write_random (dir, "b.iso", 1024 * 1024 + 3);
  g_autofree char *list = g_build_filename (dir, "SHA256SUMS", NULL);
  g_autofree char *sig = g_build_filename (dir, "SHA256SUMS.gpg", NULL);
  g_autofree char *asc = g_build_filename (dir, "SHA256SUMS.asc", NULL);
  g_autofree char *plain_list = g_build_filename (plain, "SHA256SUMS", NULL);
  g_autofree char *b_copy = NULL;
  g_autofree char *text = NULL;
  g_autofree char *panels = NULL;
  g_autofree char *labels = NULL;
  g_autofree char *buttons = NULL;
  const char *names[] = { "a.iso", "b.iso", "c.iso", "d.iso", "e.iso", NULL };
  const char *pair[] = { list, sig, NULL };
  const char *cleartext[] = { asc, NULL };
  const char *unsigned_list[] = { plain_list, NULL };
  const char *holds = "SHA256SUMS|SHA256SUMS.gpg|a.iso|b.iso";
  PadlockWindow *window = at_new_window ();
  AtReader *reader = at_reader_new ();
  PadlockJob *job;
  PadlockJobRow *row;

  /* Three listed files the folder does not hold: listed, then gone (a
   * user downloads two images out of five). */
  for (guint i = 2; i < 5; i++)
    g_free (at_write_random (dir, names[i], 1000 + i));
  write_sha256sums (dir, "SHA256SUMS", names);
  for (guint i = 2; i < 5; i++)
    {
      g_autofree char *gone = g_build_filename (dir, names[i], NULL);

      g_assert_cmpint (g_unlink (gone), ==, 0);
    }
  gpg_detach_sign (home, alice_fpr, list, sig);
  gtk_window_set_default_size (GTK_WINDOW (window), 900, 600);

  /* The list with its signature: one row, saying which list it checks
   * while it runs, then good. */
  at_drop (window, pair);
  {
    ListWatch watch = { window, FALSE };

    g_assert_true (at_wait_until (shows_list_checking, &watch, TIMEOUT_MS));
    g_assert_true (watch.seen);
  }
  job = wait_list_job (window, 1, PADLOCK_JOB_DONE);
  panels = at_reader_list (reader, "panel");
  g_assert_nonnull (strstr (panels, "SHA256SUMS.gpg \xe2\x86\x92 SHA256SUMS, Checked "));
  g_assert_nonnull (strstr (panels, ", SHA256SUMS: signed by Alice <alice@example.org> "
                                    "\xc2\xb7 2 files match \xc2\xb7 2 ok, 0 differ, "
                                    "3 not here"));
  /* The label is waited for (see test_signature_rows). */
  labels = at_reader_wait_for_all (reader, "label", (const char *[]) {
                                     "SHA256SUMS\xe2\x81\xa9: signed by \xe2\x81\xa8"
                                     "Alice <alice@example.org>\xe2\x81\xa9 \xc2\xb7 "
                                     "2 files match \xc2\xb7 2 ok, 0 differ, 3 not here",
                                     NULL }, TIMEOUT_MS);
  buttons = at_reader_list (reader, "push button");
  g_assert_nonnull (strstr (buttons, "Show SHA256SUMS in Files"));
  g_assert_null (strstr (buttons, "Open SHA256SUMS"));
  g_assert_null (strstr (buttons, "Delete"));
  row = find_job_row (GTK_WIDGET (window->job_list), job);
  g_assert_true (gtk_widget_has_css_class (signature_box (row), "success"));
  assert_dir_holds (dir, holds);

  /* One octet of b.iso changed: red, the file named; still one row. */
  b_copy = g_build_filename (plain, "b.iso.orig", NULL);
  tu_copy_file (b, b_copy);
  change_one_octet (b);
  at_drop (window, pair);
  job = wait_list_job (window, 2, PADLOCK_JOB_FAILED);
  g_assert_error (padlock_job_get_error (job), PADLOCK_ERROR, PADLOCK_ERROR_INTEGRITY);
  g_clear_pointer (&panels, g_free);
  g_clear_pointer (&labels, g_free);
  g_clear_pointer (&buttons, g_free);
  panels = at_reader_list (reader, "panel");
  g_assert_nonnull (strstr (panels, "SHA256SUMS.gpg \xe2\x86\x92 SHA256SUMS, "
                                    "b.iso does not match the signed checksum., "
                                    "SHA256SUMS: signed by Alice <alice@example.org> "
                                    "\xc2\xb7 b.iso does not match the signed checksum "
                                    "\xc2\xb7 1 ok, 1 differ, 3 not here"));
  labels = at_reader_list (reader, "label");
  g_assert_nonnull (strstr (labels, "|b.iso does not match the signed checksum."));
  buttons = at_reader_list (reader, "push button");
  g_assert_null (strstr (buttons, "Delete"));
  g_assert_null (strstr (buttons, "Try "));
  row = find_job_row (GTK_WIDGET (window->job_list), job);
  g_assert_true (gtk_widget_has_css_class (signature_box (row), "error"));
  g_assert_true (gtk_widget_has_css_class (
                   GTK_WIDGET (gtk_widget_get_template_child (GTK_WIDGET (row),
                                                              PADLOCK_TYPE_JOB_ROW,
                                                              "verdict_label")),
                   "error"));
  assert_dir_holds (dir, holds);

  /* The same list cleartext-signed, InRelease style, alone (b.iso as it
   * was): its signature checked, its files; no text written. */
  tu_copy_file (b_copy, b);
  g_assert_true (g_file_get_contents (list, &text, NULL, NULL));
  {
    g_autofree char *clear = tg_clearsign (home, alice_fpr, text, NULL, NULL);

    g_assert_true (g_file_set_contents (asc, clear, -1, NULL));
  }
  at_drop (window, cleartext);
  job = wait_list_job (window, 3, PADLOCK_JOB_DONE);
  g_clear_pointer (&panels, g_free);
  panels = at_reader_list (reader, "panel");
  g_assert_nonnull (strstr (panels, "SHA256SUMS.asc, Checked "));
  g_assert_nonnull (strstr (panels, ", SHA256SUMS.asc: signed by Alice "
                                    "<alice@example.org> \xc2\xb7 2 files match "
                                    "\xc2\xb7 2 ok, 0 differ, 3 not here"));
  row = find_job_row (GTK_WIDGET (window->job_list), job);
  g_assert_true (gtk_widget_has_css_class (signature_box (row), "success"));
  assert_dir_holds (dir, "SHA256SUMS|SHA256SUMS.asc|SHA256SUMS.gpg|a.iso|b.iso");

  /* A list alone, no signature beside it: checked, and said plainly
   * that nobody vouches for it. */
  tu_copy_file (list, plain_list);
  {
    g_autofree char *a_copy = g_build_filename (plain, "a.iso", NULL);

    tu_copy_file (a, a_copy);
  }
  at_drop (window, unsigned_list);
  job = wait_list_job (window, 4, PADLOCK_JOB_DONE);
  g_assert_cmpuint (padlock_job_get_signatures (job)->len, ==, 0);
  g_clear_pointer (&panels, g_free);
  g_clear_pointer (&buttons, g_free);
  panels = at_reader_list (reader, "panel");
  g_assert_nonnull (strstr (panels, "SHA256SUMS, Checked "));
  g_assert_nonnull (strstr (panels, ", SHA256SUMS is not signed: nobody vouches for "
                                    "it \xc2\xb7 a.iso matches the list \xc2\xb7 1 ok, "
                                    "0 differ, 4 not here"));
  row = find_job_row (GTK_WIDGET (window->job_list), job);
  g_assert_true (gtk_widget_has_css_class (signature_box (row), "warning"));
  buttons = at_reader_list (reader, "push button");
  g_assert_null (strstr (buttons, "Delete"));
  assert_dir_holds (plain, "SHA256SUMS|a.iso|b.iso.orig");
  at_screenshot (GTK_WIDGET (window), "checksum-list");

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
  g_test_add_func ("/sigs-ui/detached", test_detached_rows);
  g_test_add_func ("/sigs-ui/detached-pairs", test_detached_pairs);
  g_test_add_func ("/sigs-ui/signed-only", test_signed_only_rows);
  g_test_add_func ("/sigs-ui/checksum-list", test_checksum_list_rows);
  status = g_test_run ();
  g_clear_pointer (&home, tg_home_free);
  g_clear_pointer (&carol_home, tg_home_free);
  return status;
}
