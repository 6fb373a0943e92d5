/* test-app-winkeys.c - the window with the user's GnuPG keys: what
 * `gpg -e -r me` made opens with one pinentry and no passphrase dialog,
 * the row says whose passphrase the agent waits for (read over AT-SPI),
 * its cancel cuts the request, a mixed drop asks only for the files a
 * passphrase opens, and a key file gets an import row.  A real window
 * under Xvfb, a GnuPG home of the test's own (GNUPGHOME), a real
 * gpg-agent and the scripted pinentry (tests/test-pinentry.sh).
 * "Sign Files…" too: a detached signature of each file, no dialog; and
 * "Make Checksum List…": one signed SHA256SUMS of the files, by the
 * same key, which sha256sum -c and gpg --verify accept.
 */
#include <string.h>
#include <glib/gstdio.h>

#include "app-testutil.h"
#include "gnupg-home.h"
#include "padlock-error.h"
#include "padlock-job-row.h"

#define ALICE_PASSPHRASE "alice's key pass"
#define SKESK_PASSPHRASE "a passphrase for the file"
#define WAIT_MS 120000

static TgHome *home;            /* Alice's secret key, Bob's certificate */
static TgHome *erin_home;       /* Erin's key, to import into HOME */
static char *alice_fpr;
static char *bob_fpr;
static AtReader *reader;

static void
make_keys (void)
{
  g_autoptr(TgHome) bob_home = tg_home_new ();
  char *erin;

  alice_fpr = tg_gen_key (home, "Alice <alice@example.org>", "nistp256",
                          "cert,sign", "never", ALICE_PASSPHRASE, NULL);
  tg_add_key (home, alice_fpr, "nistp256", "encr", "never", ALICE_PASSPHRASE,
              NULL);
  bob_fpr = tg_gen_key (bob_home, "Bob <bob@example.org>", "nistp256",
                        "cert,sign", "never", "", NULL);
  tg_add_key (bob_home, bob_fpr, "nistp256", "encr", "never", "", NULL);
  tg_import_cert (home, bob_home, bob_fpr);
  erin = tg_gen_key (erin_home, "Erin <erin@example.org>", "nistp256",
                     "cert,sign", "never", "", NULL);
  tg_add_key (erin_home, erin, "nistp256", "encr", "never", "", NULL);
  g_free (erin);
  tg_gpgconf (erin_home, "--kill", "gpg-agent");
}

/* DIR/NAME.gpg holding TEXT, made by gpg: for R (a fingerprint, or NULL),
 * and with SKESK_PASSPHRASE too when SYMMETRIC; its path. */
static char *
gpg_encrypt (const char *dir, const char *name, const char *text,
             gboolean symmetric, const char *r)
{
  return tg_encrypt_file (home, dir, name, text,
                          symmetric ? SKESK_PASSPHRASE : NULL, r, NULL);
}

/* As the user clears the list: the header's graph and peak go too. */
static void
clear_window (PadlockWindow *window)
{
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (window),
                                             "win.clear-finished", NULL));
  for (GtkWidget *row;
       (row = gtk_widget_get_first_child (GTK_WIDGET (window->imports_list)));)
    gtk_list_box_remove (window->imports_list, row);
  at_settle (50);
}

/* "Double-click": the file manager opens PATH with Padlock. */
static void
open_file (const char *path)
{
  g_autoptr(GFile) file = g_file_new_for_path (path);
  GFile *files[] = { file };

  g_application_open (G_APPLICATION (at_application ()), files, 1, "");
}

/* `gpg -e -r alice`, opened: pinentry asks once (the agent's, not a
 * dialog of Padlock's), and the plain file is written beside it. */
static void
test_open_mine (void)
{
  g_autofree char *dir = tu_new_dir ("winkeys-open");
  g_autofree char *path = gpg_encrypt (dir, "letter.txt", "dear Alice\n",
                                       FALSE, alice_fpr);
  PadlockWindow *window = at_app_window ();
  guint asked;

  clear_window (window);
  tg_gpgconf (home, "--reload", "gpg-agent");
  tg_home_set_pinentry (home, ALICE_PASSPHRASE);
  asked = tg_home_pinentry_count (home);
  open_file (path);
  g_assert_true (at_wait_queue_idle (window->queue, WAIT_MS));
  g_assert_null (window->dialog);
  at_assert_opened (at_find_job (window, path), dir, "letter.txt", "dear Alice\n");
  g_assert_cmpuint (tg_home_pinentry_count (home), ==, asked + 1);
}

/* A label's text to wait for, and the label's whole text once seen. */
typedef struct
{
  const char *text;
  char *found;
} LabelWait;

static void
find_rows (GtkWidget *widget, GPtrArray *rows)
{
  if (PADLOCK_IS_JOB_ROW (widget))
    g_ptr_array_add (rows, widget);
  for (GtkWidget *child = gtk_widget_get_first_child (widget); child;
       child = gtk_widget_get_next_sibling (child))
    find_rows (child, rows);
}

/* The row that shows JOB. */
static GtkWidget *
row_of (PadlockWindow *window, PadlockJob *job)
{
  g_autoptr(GPtrArray) rows = g_ptr_array_new ();

  find_rows (GTK_WIDGET (window->job_list), rows);
  for (guint i = 0; i < rows->len; i++)
    if (padlock_job_row_get_job (rows->pdata[i]) == job)
      return rows->pdata[i];
  return NULL;
}

/* Nothing moves while pinentry is up: no bytes, no rate. */
static gboolean
is_still (gpointer data)
{
  PadlockJob *job = data;

  return padlock_job_get_bytes_done (job) == 0
         && padlock_job_get_progress (job) == 0
         && padlock_job_get_throughput (job) == 0;
}

/* The row's cancel while pinentry is up cuts the agent's request:
 * "Cancelled, nothing was written", and DIR holds LEFT alone. */
static void
cancel_while_waiting (PadlockWindow *window, PadlockJob *job,
                      const char *dir, const char *left)
{
  GtkWidget *row = row_of (window, job);
  g_autofree char *listing = NULL;

  g_assert_nonnull (row);
  g_assert_true (gtk_widget_activate_action (row, "row.cancel", NULL));
  g_assert_true (at_wait_until (at_job_is_finished, job, WAIT_MS));
  tg_home_release_pinentry (home);
  g_assert_cmpint (padlock_job_get_state (job), ==, PADLOCK_JOB_CANCELLED);
  g_assert_error (padlock_job_get_error (job), PADLOCK_ERROR,
                  PADLOCK_ERROR_CANCELLED);
  g_assert_cmpstr (padlock_job_get_error (job)->message, ==,
                   "Cancelled, nothing was written.");
  listing = tu_list_dir (dir);
  g_assert_cmpstr (listing, ==, left);
  /* GnuPG 2.2's agent keeps a pinentry up until it is answered. */
  tg_gpgconf (home, "--kill", "gpg-agent");
}

/* While pinentry is up the row says whose passphrase the agent waits
 * for, as a screen reader reads it, its bar stays empty and the header
 * shows no rate and its graph nothing (the file, read ahead at once, is
 * not decrypted yet);
 * the row's cancel cuts the agent's request: "Cancelled, nothing was
 * written", and nothing is. */
static void
test_waiting_and_cancel (void)
{
  g_autofree char *dir = tu_new_dir ("winkeys-waiting");
  g_autofree char *path = gpg_encrypt (dir, "waiting.txt", "never\n", FALSE,
                                       alice_fpr);
  PadlockWindow *window = at_app_window ();
  LabelWait wait = { "Waiting for the passphrase of Alice "
                     "<alice@example.org> (0x", NULL };
  PadlockJob *job;

  clear_window (window);
  gtk_window_set_default_size (GTK_WINDOW (window), 900, 330);
  tg_gpgconf (home, "--reload", "gpg-agent");
  tg_home_set_pinentry (home, "hang");
  open_file (path);
  wait.found = at_reader_wait_for (reader, "label", wait.text, WAIT_MS);
  g_test_message ("the row reads: %s", wait.found);
  g_assert_null (window->dialog);
  job = at_find_job (window, path);
  /* Two ticks of the job's and of the header's. */
  at_settle (1200);
  g_assert_true (at_wait_until (is_still, job, WAIT_MS));
  g_free (wait.found);
  wait = (LabelWait) { "Starting", NULL };
  wait.found = at_reader_wait_for (reader, "label", wait.text, WAIT_MS);
  g_assert_false (strstr (gtk_label_get_text (window->throughput_label),
                          "B/s"));
  /* Nor did the header's graph see anything move: no sample, no peak
   * (the file was read ahead before the agent was asked, and that read
   * once showed as "peak 382 B/s"). */
  g_assert_cmpfloat (padlock_queue_get_peak_job_rate (window->queue), ==, 0);
  g_assert_cmpfloat (padlock_graph_get_peak (window->graph), ==, 0);
  at_screenshot (GTK_WIDGET (window), "decrypt-waiting-pinentry");

  cancel_while_waiting (window, job, dir, "waiting.txt.gpg");
  g_free (wait.found);
}

/* A signed encryption: the agent makes the signature at the end, and
 * its pinentry asks for Alice's passphrase.  The row says so, as a
 * decryption's does, with its bar full (every octet was read and
 * encrypted) and no rate; its cancel cuts the agent's request, and
 * nothing is written. */
static void
test_sign_waiting_and_cancel (void)
{
  g_autofree char *dir = tu_new_dir ("winkeys-sign-waiting");
  g_autofree char *plain = g_build_filename (dir, "memo.txt", NULL);
  const char *paths[] = { plain, NULL };
  PadlockWindow *window = at_app_window ();
  PadlockPassphraseDialog *dialog;
  LabelWait wait = { "Waiting for the passphrase of Alice "
                     "<alice@example.org> (0x", NULL };
  PadlockJob *job;

  g_assert_true (g_file_set_contents (plain, "to be signed\n", -1, NULL));
  clear_window (window);
  tg_gpgconf (home, "--reload", "gpg-agent");
  tg_home_set_pinentry (home, "hang");
  at_drop (window, paths);
  dialog = at_wait_dialog (window);
  g_assert_true (at_wait_until (at_sign_as_shown, dialog, WAIT_MS));
  at_answer (dialog, SKESK_PASSPHRASE);
  wait.found = at_reader_wait_for (reader, "label", wait.text, WAIT_MS);
  g_test_message ("the row reads: %s", wait.found);
  job = at_find_job (window, plain);
  g_assert_nonnull (job);
  g_assert_nonnull (padlock_job_get_signing_key (job));
  g_assert_false (padlock_job_is_finished (job));
  /* A tick of the job's: the bar stays full, no rate. */
  at_settle (700);
  g_assert_cmpuint (padlock_job_get_bytes_done (job), ==, 13);
  g_assert_cmpfloat (padlock_job_get_throughput (job), ==, 0);

  cancel_while_waiting (window, job, dir, "memo.txt");
  g_free (wait.found);
}

/* "Sign Files…" (and the file managers' `padlock --sign --detach`):
 * no dialog of Padlock's, one pinentry for Alice's key, a row each
 * that ends "Signed …", and FILE.sig beside each file, which gpg
 * verifies as Alice's; a folder is not signed, and the window says so. */
static void
test_sign_files (void)
{
  g_autofree char *dir = tu_new_dir ("winkeys-sign");
  g_autofree char *a = at_write_random (dir, "a.bin", 100000);
  g_autofree char *b = g_build_filename (dir, "b.txt", NULL);
  g_autofree char *sub = g_build_filename (dir, "sub", NULL);
  g_autoptr(GFile) fa = g_file_new_for_path (a);
  g_autoptr(GFile) fb = g_file_new_for_path (b);
  g_autoptr(GFile) fsub = NULL;
  GFile *files[3];
  PadlockWindow *window = at_app_window ();
  LabelWait wait = { "Signed ", NULL };
  g_autofree char *listing = NULL;
  guint asked;

  g_assert_true (g_file_set_contents (b, "release notes\n", -1, NULL));
  g_assert_cmpint (g_mkdir (sub, 0700), ==, 0);
  fsub = g_file_new_for_path (sub);
  files[0] = fa;
  files[1] = fb;
  files[2] = fsub;
  clear_window (window);
  tg_gpgconf (home, "--reload", "gpg-agent");
  tg_home_set_pinentry (home, ALICE_PASSPHRASE);
  asked = tg_home_pinentry_count (home);
  padlock_window_add_files (window, files, 3, PADLOCK_OPEN_SIGN);
  g_assert_true (at_wait_queue_idle (window->queue, WAIT_MS));
  g_assert_null (window->dialog);
  g_assert_nonnull (window->last_notice);
  g_assert_nonnull (strstr (window->last_notice,
                            ": A folder is not signed: sign the files in it."));
  g_assert_cmpuint (tg_home_pinentry_count (home), ==, asked + 1);
  wait.found = at_reader_wait_for (reader, "label", wait.text, WAIT_MS);
  g_test_message ("the row reads: %s", wait.found);
  for (guint i = 0; i < 2; i++)
    {
      const char *path = i ? b : a;
      PadlockJob *job = at_find_job (window, path);
      g_autofree char *sig = g_strconcat (path, ".sig", NULL);
      g_autoptr(GBytes) status = NULL;
      g_autofree char *text = NULL;

      g_assert_nonnull (job);
      g_assert_cmpint (padlock_job_get_state (job), ==, PADLOCK_JOB_DONE);
      g_assert_cmpint (tg_gpg (home, NULL, NULL, &status, "--status-fd", "1",
                               "--verify", sig, path, NULL), ==, 0);
      text = g_strndup (g_bytes_get_data (status, NULL),
                        g_bytes_get_size (status));
      g_assert_nonnull (strstr (text, "[GNUPG:] GOODSIG "));
      g_assert_nonnull (strstr (text, alice_fpr));
    }
  listing = tu_list_dir (dir);
  g_assert_cmpstr (listing, ==, "a.bin|a.bin.sig|b.txt|b.txt.sig|sub");
  g_free (wait.found);
}

/* Whether the window's main menu has "Make Checksum List…"
 * (win.checksum-list) right after "Sign Files…" (win.sign). */
static gboolean
menu_lists_after_sign (PadlockWindow *window)
{
  GMenuModel *menu = gtk_menu_button_get_menu_model (window->menu_button);
  g_autofree char *previous = NULL;

  for (int s = 0; s < g_menu_model_get_n_items (menu); s++)
    {
      g_autoptr(GMenuModel) section = g_menu_model_get_item_link (menu, s,
                                                                  G_MENU_LINK_SECTION);

      for (int i = 0; section && i < g_menu_model_get_n_items (section); i++)
        {
          g_autofree char *action = NULL;

          g_menu_model_get_item_attribute (section, i, G_MENU_ATTRIBUTE_ACTION,
                                           "s", &action);
          if (!g_strcmp0 (action, "win.checksum-list"))
            return !g_strcmp0 (previous, "win.sign");
          g_free (previous);
          previous = g_steal_pointer (&action);
        }
    }
  return FALSE;
}

/* "Make Checksum List…": the menu's item opens the chooser for it; the
 * files chosen (three, one name with a space and one with a backslash)
 * become one job, signed by the key "Sign Files…" signs with, one
 * pinentry: "SHA256SUMS (1)" beside an existing SHA256SUMS, which stays
 * as it was, and its signature; sha256sum -c and gpg --verify accept
 * them.  Files of two folders make no list, and say why. */
static void
test_checksum_list (void)
{
  g_autofree char *dir = tu_new_dir ("winkeys-list");
  g_autofree char *other = tu_new_dir ("winkeys-list-other");
  g_autofree char *a = at_write_random (dir, "a.bin", 300000);
  g_autofree char *notes = g_build_filename (dir, "release notes.txt", NULL);
  g_autofree char *slash = g_build_filename (dir, "back\\slash", NULL);
  g_autofree char *taken = g_build_filename (dir, "SHA256SUMS", NULL);
  g_autofree char *list = g_build_filename (dir, "SHA256SUMS (1)", NULL);
  g_autofree char *sig = g_build_filename (dir, "SHA256SUMS (1).sig", NULL);
  g_autofree char *c = at_write_random (other, "c.bin", 1000);
  g_autofree char *kept = NULL, *listing = NULL, *err = NULL, *text = NULL;
  g_autofree char *command = NULL;
  g_autoptr(GFile) fa = g_file_new_for_path (a);
  g_autoptr(GFile) fn = g_file_new_for_path (notes);
  g_autoptr(GFile) fs = g_file_new_for_path (slash);
  g_autoptr(GFile) fc = g_file_new_for_path (c);
  g_autoptr(GBytes) out = NULL;
  g_autoptr(GBytes) status = NULL;
  GFile *files[] = { fa, fn, fs };
  GFile *apart[] = { fa, fc };
  PadlockWindow *window = at_app_window ();
  PadlockJob *job;
  guint asked, n_jobs;
  int code = -1;

  g_assert_true (g_file_set_contents (notes, "release notes\n", -1, NULL));
  g_assert_true (g_file_set_contents (slash, "a\\b\n", -1, NULL));
  g_assert_true (g_file_set_contents (taken, "keep\n", -1, NULL));
  clear_window (window);
  g_assert_true (menu_lists_after_sign (window));
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (window),
                                             "win.checksum-list", NULL));
  g_assert_nonnull (window->chooser);
  g_assert_cmpint (window->chooser_mode, ==, PADLOCK_OPEN_CHECKSUM_LIST);
  g_assert_cmpstr (gtk_native_dialog_get_title (GTK_NATIVE_DIALOG (window->chooser)),
                   ==, "Choose Files for a Checksum List");
  gtk_native_dialog_hide (GTK_NATIVE_DIALOG (window->chooser));
  padlock_window_chooser_response (GTK_NATIVE_DIALOG (window->chooser),
                                   GTK_RESPONSE_CANCEL, window);
  g_assert_null (window->chooser);

  tg_gpgconf (home, "--reload", "gpg-agent");
  tg_home_set_pinentry (home, ALICE_PASSPHRASE);
  asked = tg_home_pinentry_count (home);
  /* What the chooser's answer does with the files chosen. */
  padlock_window_add_files (window, files, 3, PADLOCK_OPEN_CHECKSUM_LIST);
  g_assert_true (at_wait_queue_idle (window->queue, WAIT_MS));
  job = at_find_job (window, dir);
  g_assert_true (padlock_job_get_makes_list (job));
  g_assert_cmpint (padlock_job_get_state (job), ==, PADLOCK_JOB_DONE);
  g_assert_cmpstr (padlock_job_get_output_name (job), ==, "SHA256SUMS (1)");
  g_assert_cmpuint (tg_home_pinentry_count (home), ==, asked + 1);
  g_assert_true (g_file_get_contents (taken, &kept, NULL, NULL));
  g_assert_cmpstr (kept, ==, "keep\n");
  listing = tu_list_dir (dir);
  g_assert_cmpstr (listing, ==, "SHA256SUMS|SHA256SUMS (1)|SHA256SUMS (1).sig|"
                                "a.bin|back\\slash|release notes.txt");
  command = g_strdup_printf ("cd '%s' && sha256sum -c 'SHA256SUMS (1)'", dir);
  g_assert_true (tu_run ((const char *const[]) { "/bin/sh", "-c", command,
                                                 NULL }, NULL, &out, &err,
                         &code));
  g_test_message ("sha256sum -c: %.*s", (int) g_bytes_get_size (out),
                  (const char *) g_bytes_get_data (out, NULL));
  g_assert_cmpint (code, ==, 0);
  g_assert_cmpint (tg_gpg (home, NULL, NULL, &status, "--status-fd", "1",
                           "--verify", sig, list, NULL), ==, 0);
  text = g_strndup (g_bytes_get_data (status, NULL), g_bytes_get_size (status));
  g_assert_nonnull (strstr (text, "[GNUPG:] GOODSIG "));
  g_assert_nonnull (strstr (text, alice_fpr));

  /* Two folders: said, and nothing made. */
  n_jobs = g_list_model_get_n_items (G_LIST_MODEL (window->queue));
  padlock_window_add_files (window, apart, 2, PADLOCK_OPEN_CHECKSUM_LIST);
  g_assert_true (at_wait_queue_idle (window->queue, WAIT_MS));
  g_assert_nonnull (window->last_notice);
  g_assert_nonnull (strstr (window->last_notice, "must all be in one folder"));
  g_assert_cmpuint (g_list_model_get_n_items (G_LIST_MODEL (window->queue)), ==,
                    n_jobs);
  g_free (listing);
  listing = tu_list_dir (other);
  g_assert_cmpstr (listing, ==, "c.bin");
}

/* A drop of four: for Alice (her key), for a passphrase only, for Bob
 * and a passphrase, for Bob only.  One dialog asks, for the two files a
 * passphrase opens and only those; Alice's opens through the agent;
 * Bob's says whom it is for. */
static void
test_mixed_drop (void)
{
  g_autofree char *dir = tu_new_dir ("winkeys-mixed");
  g_autofree char *mine = gpg_encrypt (dir, "mine.txt", "for me\n", FALSE,
                                       alice_fpr);
  g_autofree char *pw = gpg_encrypt (dir, "pw.txt", "passphrase\n", TRUE,
                                     NULL);
  g_autofree char *bobpw = gpg_encrypt (dir, "bobpw.txt", "bob or pw\n", TRUE,
                                        bob_fpr);
  g_autofree char *bob = gpg_encrypt (dir, "bob.txt", "bob only\n", FALSE,
                                      bob_fpr);
  const char *paths[] = { mine, pw, bobpw, bob, NULL };
  PadlockWindow *window = at_app_window ();
  PadlockPassphraseDialog *dialog;
  const GError *error;
  PadlockJob *bob_job;

  clear_window (window);
  tg_home_set_pinentry (home, ALICE_PASSPHRASE);
  at_drop (window, paths);
  dialog = at_wait_dialog (window);
  /* Names shown are isolated (U+2068 … U+2069). */
  g_assert_cmpstr (gtk_label_get_text (dialog->heading_label), ==,
                   "Enter the passphrase for \u2068pw.txt.gpg\u2069 and "
                   "\u2068bobpw.txt.gpg\u2069");
  at_answer (dialog, SKESK_PASSPHRASE);
  g_assert_true (at_wait_queue_idle (window->queue, WAIT_MS));
  at_settle (200);
  g_assert_null (window->dialog);
  at_assert_opened (at_find_job (window, mine), dir, "mine.txt", "for me\n");
  at_assert_opened (at_find_job (window, pw), dir, "pw.txt", "passphrase\n");
  at_assert_opened (at_find_job (window, bobpw), dir, "bobpw.txt", "bob or pw\n");
  bob_job = at_find_job (window, bob);
  g_assert_nonnull (bob_job);
  error = padlock_job_get_error (bob_job);
  g_assert_error (error, PADLOCK_ERROR, PADLOCK_ERROR_PUBLIC_KEY);
  g_test_message ("%s", error->message);
  g_assert_true (g_str_has_prefix (error->message, "bob.txt.gpg is for 0x"));
  g_assert_true (g_str_has_suffix (error->message,
                                   " (Bob <bob@example.org>), whose secret "
                                   "key is not in your keyring."));
}

static gboolean
dialog_shown (gpointer data)
{
  PadlockWindow *window = data;

  return window->dialog && gtk_widget_get_mapped (GTK_WIDGET (window->dialog));
}

/* For Alice and for a passphrase: Alice's pinentry gets a wrong answer
 * (the agent asks three times, then gives up), and then Padlock asks for
 * the file's passphrase, which opens it. */
static void
test_keys_then_passphrase (void)
{
  g_autofree char *dir = tu_new_dir ("winkeys-then");
  g_autofree char *both = gpg_encrypt (dir, "both.txt", "either\n", TRUE,
                                       alice_fpr);
  const char *paths[] = { both, NULL };
  PadlockWindow *window = at_app_window ();
  PadlockPassphraseDialog *dialog;

  clear_window (window);
  tg_gpgconf (home, "--reload", "gpg-agent");
  tg_home_set_pinentry (home, "not Alice's passphrase");
  at_drop (window, paths);
  /* Three pinentries and the agent's key derivations first. */
  g_assert_true (at_wait_until (dialog_shown, window, WAIT_MS));
  dialog = window->dialog;
  g_assert_cmpstr (gtk_label_get_text (dialog->error_label), ==,
                   "None of your keys opens \u2068both.txt.gpg\u2069; a "
                   "passphrase opens it too.");
  at_answer (dialog, SKESK_PASSPHRASE);
  g_assert_true (at_wait_queue_idle (window->queue, WAIT_MS));
  at_assert_opened (at_find_job (window, both), dir, "both.txt", "either\n");
}

static gboolean
row_subtitle_is_not (gpointer data)
{
  AdwActionRow *row = data;
  const char *subtitle = adw_action_row_get_subtitle (row);

  return subtitle && !g_str_has_suffix (subtitle, "…");
}

/* Erin's certificate, dropped: not encrypted; a row offers to import
 * her key, saying it is new, and after the import says what was added;
 * gpg then lists her key. */
static void
test_import_row (void)
{
  g_autofree char *dir = tu_new_dir ("winkeys-import");
  g_autofree char *asc = g_build_filename (dir, "erin.asc", NULL);
  g_autoptr(GBytes) cert = NULL;
  const char *paths[] = { asc, NULL };
  PadlockWindow *window = at_app_window ();
  LabelWait offer = { "Import Erin <erin@example.org> (0x", NULL };
  LabelWait added = { "Added \u2068Erin <erin@example.org>\u2069.", NULL };
  AdwActionRow *row;
  g_autofree char *listing = NULL;

  clear_window (window);
  g_assert_cmpint (tg_gpg (erin_home, NULL, NULL, &cert, "--armor", "--export",
                           "erin@example.org", NULL), ==, 0);
  g_assert_true (g_file_set_contents (asc, g_bytes_get_data (cert, NULL),
                                      g_bytes_get_size (cert), NULL));
  at_drop (window, paths);
  at_settle (100);
  g_assert_null (window->dialog);
  g_assert_cmpuint (g_list_model_get_n_items (G_LIST_MODEL (window->queue)), ==,
                    0);
  row = ADW_ACTION_ROW (gtk_widget_get_first_child (GTK_WIDGET (window->imports_list)));
  g_assert_nonnull (row);
  g_assert_true (at_wait_until (row_subtitle_is_not, row, WAIT_MS));
  g_assert_cmpstr (adw_action_row_get_subtitle (row), ==,
                   "New to your keyring: 1 new key");
  offer.found = at_reader_wait_for (reader, "label", offer.text, WAIT_MS);
  g_assert_true (g_str_has_prefix (offer.found, offer.text));
  adw_action_row_activate (row);
  added.found = at_reader_wait_for (reader, "label", added.text, WAIT_MS);
  g_assert_cmpstr (adw_action_row_get_subtitle (row), ==,
                   "Added \u2068Erin <erin@example.org>\u2069.");
  g_assert_cmpint (tg_gpg (home, NULL, NULL, NULL, "--list-keys",
                           "erin@example.org", NULL), ==, 0);
  listing = tu_list_dir (dir);
  g_assert_cmpstr (listing, ==, "erin.asc");
  g_free (offer.found);
  g_free (added.found);
}

/* A wrong passphrase at the agent's pinentry (three times, as gpg-agent
 * asks) fails the job "wrong passphrase" with its Retry button; Retry
 * has the agent ask again, and the right one opens the file. */
static void
test_wrong_then_retry (void)
{
  g_autofree char *dir = tu_new_dir ("winkeys-retry");
  g_autofree char *path = gpg_encrypt (dir, "retry.txt", "second time\n", FALSE,
                                       alice_fpr);
  PadlockWindow *window = at_app_window ();
  PadlockJob *job;

  clear_window (window);
  tg_gpgconf (home, "--reload", "gpg-agent");
  tg_home_set_pinentry (home, "not alice's key pass");
  open_file (path);
  g_assert_true (at_wait_queue_idle (window->queue, WAIT_MS));
  job = at_find_job (window, path);
  g_assert_nonnull (job);
  g_assert_cmpint (padlock_job_get_state (job), ==, PADLOCK_JOB_FAILED);
  g_assert_error (padlock_job_get_error (job), PADLOCK_ERROR,
                  PADLOCK_ERROR_BAD_PASSPHRASE);
  g_assert_null (window->dialog);
  tg_home_set_pinentry (home, ALICE_PASSPHRASE);
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (window), "win.retry", NULL));
  g_assert_null (window->dialog);
  g_assert_true (at_wait_queue_idle (window->queue, WAIT_MS));
  g_assert_null (window->dialog);
  at_assert_opened (job, dir, "retry.txt", "second time\n");
}

int
main (int argc, char **argv)
{
  int status;

  g_setenv ("GTK_A11Y", "atspi", TRUE);
  tu_init (&argc, &argv);
  home = tg_home_new ();
  erin_home = tg_home_new ();
  /* The application's keyring and agent are GNUPGHOME's; set before
   * any thread of ours runs. */
  g_setenv ("GNUPGHOME", home->dir, TRUE);
  make_keys ();
  at_application ();
  gtk_window_present (GTK_WINDOW (at_app_window ()));
  at_settle (200);
  reader = at_reader_new ();
  g_test_add_func ("/winkeys/open-mine", test_open_mine);
  g_test_add_func ("/winkeys/waiting-and-cancel", test_waiting_and_cancel);
  g_test_add_func ("/winkeys/sign-waiting-and-cancel",
                   test_sign_waiting_and_cancel);
  g_test_add_func ("/winkeys/sign-files", test_sign_files);
  g_test_add_func ("/winkeys/checksum-list", test_checksum_list);
  g_test_add_func ("/winkeys/mixed-drop", test_mixed_drop);
  g_test_add_func ("/winkeys/keys-then-passphrase", test_keys_then_passphrase);
  g_test_add_func ("/winkeys/import-row", test_import_row);
  g_test_add_func ("/winkeys/wrong-then-retry", test_wrong_then_retry);
  status = g_test_run ();
  at_reader_free (reader);
  g_clear_pointer (&home, tg_home_free);
  g_clear_pointer (&erin_home, tg_home_free);
  return status;
}
