/* test-app-encrypt-dialog.c - the encrypt dialog (padlock-passphrase-dialog
 * hosting padlock-people) as a user meets it, issue 37 §3: encrypting to
 * oneself alone, the keyboard from People's search into its matches, the
 * unverified key's warning (its focus, its fingerprint, "Verify…"), and
 * nothing wider than 360 px, the dialog nor the window's rows, in English
 * and German.  A real window under Xvfb read over AT-SPI, keys typed
 * through XTest, a GnuPG home of the test's own with a real gpg-agent.
 */
#include <locale.h>
#include <string.h>
#include <glib/gi18n.h>
#include <glib/gstdio.h>

#include "app-testutil.h"
#include "gnupg-home.h"
#include "padlock-job-row.h"
#include "padlock-people-private.h"
#include "padlock-person-page.h"
#include "padlock-signature.h"

#define WAIT_MS 120000
#define PASSPHRASE "correct horse battery staple"
#define NARROW 360

static TgHome *home;            /* Alice's: her key; Bob's (certified by
                                 * her), Eve's and Carol's (not) */
static TgHome *colleagues;      /* Bob's, Eve's and Carol's secret keys */
static char *alice_fpr;
static char *bob_fpr;
static char *eve_fpr;
static char *carol_fpr;
static AtReader *reader;

static void
make_keys (void)
{
  g_autoptr(GBytes) certs = NULL;

  colleagues = tg_home_new ();
  bob_fpr = tg_gen_encryption_key (colleagues, "Bob <bob@example.org>",
                                   "ed25519", "cv25519", "never", NULL);
  eve_fpr = tg_gen_encryption_key (colleagues, "Eve <eve@example.org>",
                                   "ed25519", "cv25519", "never", NULL);
  carol_fpr = tg_gen_encryption_key (colleagues, "Carol <carol@example.org>",
                                     "ed25519", "cv25519", "never", NULL);
  g_assert_cmpint (tg_gpg (colleagues, NULL, NULL, &certs, "--export", NULL),
                   ==, 0);
  tg_gpgconf (colleagues, "--kill", "gpg-agent");

  home = tg_home_new ();
  alice_fpr = tg_gen_encryption_key (home, "Alice <alice@example.org>",
                                     "ed25519", "cv25519", "never", NULL);
  g_assert_cmpint (tg_gpg (home, NULL, certs, NULL, "--import", NULL), ==, 0);
  g_assert_cmpint (tg_gpg (home, NULL, NULL, NULL, "--quick-lsign-key",
                           bob_fpr, NULL), ==, 0);
}

static gboolean
keyring_read (gpointer data)
{
  PadlockPeople *people = data;

  return padlock_keyring_get_state (people->keyring) == PADLOCK_KEYRING_READY
         && gtk_widget_get_sensitive (GTK_WIDGET (people->search_entry));
}

static gboolean
dialog_gone (gpointer data)
{
  return PADLOCK_WINDOW (data)->dialog == NULL;
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

/* The fingerprint of the person chosen at INDEX. */
static const char *
chosen_fpr (PadlockPeople *people, guint index)
{
  g_assert_cmpuint (index, <, people->chosen->len);
  return padlock_key_get_fingerprint (g_ptr_array_index (people->chosen, index));
}

/* TEXT typed key by key (XTest), as a user types it. */
static void
type_text (const char *text)
{
  g_autofree char *command = g_strconcat ("type ", text, NULL);
  g_auto(GStrv) answer = at_reader_ask (reader, command);

  g_assert_cmpstr (answer[0], ==, "ok");
  at_settle (50);
}

/* What the reader says has the focus ("ROLE\tNAME"), logged. */
static char *
focus (void)
{
  char *seen = at_reader_focus (reader);

  g_test_message ("focus: %s", seen);
  return seen;
}

/* Drops PATHS on a new window, waits for the dialog and its People, the
 * keyring read, and gives the dialog the keyboard. */
static PadlockPassphraseDialog *
open_dialog (PadlockWindow *window, const char *const *paths)
{
  PadlockPassphraseDialog *dialog;

  at_drop (window, paths);
  dialog = at_wait_dialog (window);
  if (!reader)
    reader = at_reader_new ();
  g_assert_nonnull (dialog->people);
  g_assert_true (at_wait_until (keyring_read, dialog->people, WAIT_MS));
  at_focus_window (GTK_WINDOW (dialog));
  at_settle (200);
  return dialog;
}

static void
close_dialog (PadlockWindow *window, PadlockPassphraseDialog *dialog)
{
  gtk_window_close (GTK_WINDOW (dialog));
  g_assert_true (at_wait_until (dialog_gone, window, 10000));
}

/* A file in a new folder NAME; its path. */
static char *
new_file (const char *name, const char *text)
{
  g_autofree char *dir = tu_new_dir (name);
  char *path = g_build_filename (dir, "notes.txt", NULL);

  g_assert_true (g_file_set_contents (path, text, -1, NULL));
  return path;
}

/* "Only me": "Also encrypt to me" ticked, nobody else, no passphrase.
 * The dialog says who can open it ("you"), Encrypt is enabled, and the
 * file is encrypted to Alice's key alone: her gpg opens it, and it holds
 * one public-key packet and no passphrase packet. */
static void
test_only_me (void)
{
  g_autofree char *in = new_file ("only-me", "a backup only I open\n");
  g_autofree char *out = g_strconcat (in, ".gpg", NULL);
  const char *paths[] = { in, NULL };
  PadlockWindow *window = at_new_window ();
  PadlockPassphraseDialog *dialog = open_dialog (window, paths);
  PadlockPeople *people = dialog->people;
  g_autofree char *labels = NULL;
  g_autofree char *packets = NULL;
  g_autoptr(GBytes) plain = NULL;
  g_autoptr(GBytes) listing = NULL;
  g_autoptr(GFile) out_file = g_file_new_for_path (out);

  g_assert_cmpuint (people->chosen->len, ==, 0);
  g_assert_true (gtk_widget_get_visible (GTK_WIDGET (people->me_check)));
  g_assert_true (gtk_check_button_get_active (people->me_check));
  labels = at_reader_list (reader, "label");
  g_assert_nonnull (strstr (labels, "Who can open it: you"));
  g_assert_true (gtk_widget_get_sensitive (GTK_WIDGET (dialog->ok_button)));
  /* The hint under the passphrase says why it is optional: her own key,
   * not "the people below" (there are none). */
  g_assert_nonnull (strstr (labels, "Optional: your own key opens the files "
                                    "without a passphrase."));
  g_assert_null (strstr (labels, "people below"));

  /* Unticked, nobody can open it without a passphrase: disabled again. */
  gtk_check_button_set_active (people->me_check, FALSE);
  at_settle (100);
  g_assert_false (gtk_widget_get_sensitive (GTK_WIDGET (dialog->ok_button)));
  g_assert_cmpstr (gtk_label_get_text (dialog->strength_label), ==,
                   "Use a long passphrase, or let Padlock generate one.");
  gtk_check_button_set_active (people->me_check, TRUE);
  at_settle (100);
  g_assert_true (gtk_widget_get_sensitive (GTK_WIDGET (dialog->ok_button)));

  g_object_ref (dialog);
  g_assert_true (gtk_widget_activate (GTK_WIDGET (dialog->ok_button)));
  g_assert_true (at_wait_until (dialog_gone, window, 10000));
  g_object_unref (dialog);
  g_assert_true (at_wait_queue_idle (window->queue, WAIT_MS));
  g_assert_cmpint (padlock_job_get_state (at_find_job (window, in)), ==,
                   PADLOCK_JOB_DONE);
  plain = tg_gpg_decrypt_file (home, out, NULL);
  g_assert_nonnull (plain);
  g_assert_cmpmem (g_bytes_get_data (plain, NULL), g_bytes_get_size (plain),
                   "a backup only I open\n", 21);
  /* Nobody else's key and no passphrase: one PKESK, no SKESK. */
  {
    g_autoptr(GBytes) data = g_file_load_bytes (out_file, NULL, NULL, NULL);

    g_assert_nonnull (data);
    g_assert_cmpint (tg_gpg (home, NULL, data, &listing, "--list-packets",
                             NULL), ==, 0);
  }
  packets = g_strndup (g_bytes_get_data (listing, NULL), g_bytes_get_size (listing));
  g_test_message ("%s", packets);
  g_assert_nonnull (strstr (packets, ":pubkey enc packet:"));
  g_assert_null (strstr (strstr (packets, ":pubkey enc packet:") + 1,
                         ":pubkey enc packet:"));
  g_assert_null (strstr (packets, ":symkey enc packet:"));
  /* Colleagues cannot open it. */
  g_clear_pointer (&plain, g_bytes_unref);
  plain = tg_gpg_decrypt_file (colleagues, out, NULL);
  g_assert_null (plain);
  tg_gpgconf (colleagues, "--kill", "gpg-agent");
  at_close_window (window);
}

static gboolean
has_match_rows (gpointer data)
{
  PadlockPeople *people = data;

  return gtk_widget_get_visible (GTK_WIDGET (people->match_list))
         && n_rows (people->match_list) > 0;
}

/* Focus in the search field, as a click there or the mnemonic puts it,
 * checked over AT-SPI. */
static void
focus_search (PadlockPeople *people)
{
  g_autofree char *seen = NULL;

  gtk_editable_set_text (GTK_EDITABLE (people->search_entry), "");
  gtk_widget_grab_focus (GTK_WIDGET (people->search_entry));
  at_settle (100);
  seen = focus ();
  g_assert_true (g_str_has_prefix (seen, "text\t") || g_str_has_prefix (seen, "entry\t"));
}

/* Issue 37's keyboard trap: type "bob", Down, Return at typing speed.
 * Down goes into the matches (Bob's row has the focus), Return picks
 * the highlighted match, and "Also encrypt to me" stays ticked, never
 * reached.  Down twice over two matches highlights the second, which
 * Return picks; Up from the first match goes back to the search. */
static void
test_search_keys (void)
{
  g_autofree char *in = new_file ("search-keys", "keys\n");
  const char *paths[] = { in, NULL };
  PadlockWindow *window = at_new_window ();
  PadlockPassphraseDialog *dialog = open_dialog (window, paths);
  PadlockPeople *people = dialog->people;
  g_autofree char *seen = NULL;
  g_autofree char *second = NULL;
  GtkWidget *row;

  g_assert_true (gtk_check_button_get_active (people->me_check));
  focus_search (people);
  type_text ("bob");
  at_reader_key (reader, "Down");
  at_settle (300);
  seen = focus ();
  g_assert_false (g_str_has_prefix (seen, "check box"));
  g_assert_nonnull (strstr (seen, "Bob <bob@example.org>"));
  at_reader_key (reader, "Return");
  at_settle (300);
  /* Not the dialog's default: it is still open, nothing encrypted. */
  g_assert_true (window->dialog == dialog);
  g_assert_cmpuint (g_list_model_get_n_items (G_LIST_MODEL (window->queue)), ==, 0);
  g_assert_cmpuint (people->chosen->len, ==, 1);
  g_assert_cmpstr (chosen_fpr (people, 0), ==, bob_fpr);
  g_assert_true (gtk_check_button_get_active (people->me_check));
  g_assert_false (gtk_widget_get_visible (people->warning_box));
  g_assert_cmpstr (gtk_label_get_text (dialog->strength_label), ==,
                   "Optional: the people below can open the files without "
                   "a passphrase.");
  /* Picked, the focus is back in the search for the next person. */
  g_clear_pointer (&seen, g_free);
  seen = focus ();
  g_assert_true (g_str_has_prefix (seen, "text\t") || g_str_has_prefix (seen, "entry\t"));

  /* Two matches: the second is the one picked. */
  focus_search (people);
  type_text ("example.org");
  at_reader_key (reader, "Down");
  g_assert_true (at_wait_until (has_match_rows, people, 10000));
  g_assert_cmpuint (n_rows (people->match_list), >=, 2);
  at_reader_key (reader, "Up");
  at_settle (200);
  g_clear_pointer (&seen, g_free);
  seen = focus ();
  g_assert_true (g_str_has_prefix (seen, "text\t") || g_str_has_prefix (seen, "entry\t"));
  at_reader_key (reader, "Down");
  at_reader_key (reader, "Down");
  at_settle (200);
  row = gtk_widget_get_next_sibling (gtk_widget_get_first_child (GTK_WIDGET (people->match_list)));
  second = g_strdup (padlock_key_get_fingerprint (g_object_get_data (G_OBJECT (row), "padlock-key")));
  g_clear_pointer (&seen, g_free);
  seen = focus ();
  g_assert_false (g_str_has_prefix (seen, "check box"));
  at_reader_key (reader, "Return");
  at_settle (300);
  if (gtk_widget_get_visible (people->warning_box))
    {
      /* Not verified: the warning is about the second match. */
      g_assert_cmpstr (padlock_key_get_fingerprint (people->pending), ==, second);
      g_signal_emit_by_name (people->warning_use_button, "clicked");
      at_settle (200);
    }
  g_assert_cmpuint (people->chosen->len, ==, 2);
  g_assert_cmpstr (chosen_fpr (people, 1), ==, second);
  g_assert_true (gtk_check_button_get_active (people->me_check));
  close_dialog (window, dialog);
  at_close_window (window);
}

static gboolean
warning_shown (gpointer data)
{
  return gtk_widget_get_visible (PADLOCK_PEOPLE (data)->warning_box);
}

static gboolean
has_person_page (gpointer data)
{
  return at_find_toplevel (PADLOCK_TYPE_PERSON_PAGE) != NULL;
}

/* Eve's key is not verified: "eve", Return.  The warning takes the
 * focus on its safe button ("Don't Use It"), so that a second Return
 * does not use the key; it shows her fingerprint in groups of four, as
 * her own gpg and the person page show it, and offers "Verify…".  For
 * Carol, "Verify…" opens her page, and "I Compared the Fingerprint"
 * there picks her key with no warning left. */
static void
test_warning (void)
{
  g_autofree char *in = new_file ("warning", "warning\n");
  const char *paths[] = { in, NULL };
  PadlockWindow *window = at_new_window ();
  PadlockPassphraseDialog *dialog = open_dialog (window, paths);
  PadlockPeople *people = dialog->people;
  g_autofree char *grouped = padlock_fingerprint_grouped (eve_fpr);
  g_autofree char *carol_grouped = padlock_fingerprint_grouped (carol_fpr);
  g_autofree char *seen = NULL;
  g_autofree char *labels = NULL;
  g_autofree char *buttons = NULL;
  guint before = people->chosen->len;
  GtkWindow *page;

  focus_search (people);
  type_text ("eve@");
  at_reader_key (reader, "Return");
  g_assert_true (at_wait_until (warning_shown, people, 10000));
  at_settle (300);
  seen = focus ();
  g_assert_cmpstr (seen, ==, "push button\tDon't Use It");
  labels = at_reader_list (reader, "label");
  g_test_message ("%s", labels);
  g_assert_nonnull (strstr (labels, grouped));
  g_assert_null (strstr (labels, eve_fpr));
  buttons = at_reader_list (reader, "push button");
  g_assert_nonnull (strstr (buttons, "Verify…"));
  at_screenshot (GTK_WIDGET (dialog), "encrypt-dialog-warning");
  /* Return on the focused button: not used. */
  at_reader_key (reader, "Return");
  at_settle (300);
  g_assert_false (gtk_widget_get_visible (people->warning_box));
  g_assert_cmpuint (people->chosen->len, ==, before);

  /* Carol: Verify…, compared, picked. */
  focus_search (people);
  type_text ("carol");
  at_reader_key (reader, "Return");
  g_assert_true (at_wait_until (warning_shown, people, 10000));
  g_signal_emit_by_name (at_find_button (people->warning_box, "Verify"), "clicked");
  g_assert_true (at_wait_until (has_person_page, NULL, WAIT_MS));
  page = at_find_toplevel (PADLOCK_TYPE_PERSON_PAGE);
  g_clear_pointer (&labels, g_free);
  at_settle (300);
  labels = at_reader_list (reader, "label");
  g_assert_nonnull (strstr (labels, carol_grouped));
  g_signal_emit_by_name (at_find_button (GTK_WIDGET (page), "I Compared"), "clicked");
  {
    gboolean picked = FALSE;

    for (guint i = 0; i < 600 && !picked; i++)
      {
        at_settle (100);
        picked = people->chosen->len == before + 1;
      }
    g_assert_true (picked);
  }
  g_assert_cmpstr (chosen_fpr (people, before), ==, carol_fpr);
  g_assert_false (gtk_widget_get_visible (people->warning_box));
  gtk_window_destroy (page);
  close_dialog (window, dialog);
  at_close_window (window);
}

/* The widest WIDGET can be made: its minimum width. */
static int
min_width (GtkWidget *widget)
{
  int min = 0, nat = 0;

  gtk_widget_measure (widget, GTK_ORIENTATION_HORIZONTAL, -1, &min, &nat,
                      NULL, NULL);
  return min;
}

/* The widest widget under ROOT, by its minimum width, logged: what
 * keeps a window from being narrower. */
static void
log_widest (GtkWidget *root, int depth)
{
  for (GtkWidget *c = gtk_widget_get_first_child (root); c;
       c = gtk_widget_get_next_sibling (c))
    {
      if (!gtk_widget_get_visible (c))
        continue;
      if (depth < 24 && min_width (c) > 150)
        {
          g_test_message ("%*s%s %d%s%s", depth * 2, "", G_OBJECT_TYPE_NAME (c),
                          min_width (c),
                          GTK_IS_LABEL (c) ? " " : "",
                          GTK_IS_LABEL (c) ? gtk_label_get_text (GTK_LABEL (c)) : "");
          log_widest (c, depth + 1);
        }
    }
}

/* Translations from the build's po/ (LANGUAGE set by the caller). */
static void
use_build_translations (void)
{
  g_autofree char *locale_dir = g_build_filename (g_getenv ("PADLOCK_BUILD_DIR"),
                                                  "po", NULL);

  bindtextdomain ("padlock", locale_dir);
  bind_textdomain_codeset ("padlock", "UTF-8");
  textdomain ("padlock");
  setlocale (LC_ALL, "C.UTF-8");
}

/* The dialog over a 360 px window, at its widest: two files (the
 * one-archive check), Bob chosen, "Also encrypt to me", "Sign as", the
 * warning about Eve.  Its minimum width and its width fit 360 px. */
static void
check_narrow_dialog (const char *language)
{
  g_autofree char *in = new_file ("narrow-dialog", "one\n");
  g_autofree char *in2 = g_strconcat (in, ".two", NULL);
  const char *paths[] = { in, in2, NULL };
  PadlockWindow *window = at_new_window ();
  PadlockPassphraseDialog *dialog;
  PadlockPeople *people;
  g_autofree char *name = g_strdup_printf ("encrypt-dialog-360-%s", language);

  g_assert_true (g_file_set_contents (in2, "two\n", -1, NULL));
  gtk_window_set_default_size (GTK_WINDOW (window), NARROW, 640);
  at_settle (300);
  dialog = open_dialog (window, paths);
  people = dialog->people;
  gtk_editable_set_text (GTK_EDITABLE (people->search_entry), "bob@");
  g_signal_emit_by_name (people->search_entry, "activate");
  at_settle (300);
  gtk_editable_set_text (GTK_EDITABLE (people->search_entry), "eve@");
  g_signal_emit_by_name (people->search_entry, "activate");
  g_assert_true (at_wait_until (warning_shown, people, 10000));
  gtk_editable_set_text (GTK_EDITABLE (people->search_entry), "example.org");
  g_assert_true (at_wait_until (has_match_rows, people, 10000));
  at_settle (500);
  g_test_message ("%s: dialog %d px wide, at least %d; window %d px",
                  language, gtk_widget_get_width (GTK_WIDGET (dialog)),
                  min_width (GTK_WIDGET (dialog)),
                  gtk_widget_get_width (GTK_WIDGET (window)));
  log_widest (GTK_WIDGET (dialog), 0);
  at_screenshot (GTK_WIDGET (dialog), name);
  g_assert_cmpint (min_width (GTK_WIDGET (dialog)), <=, NARROW);
  g_assert_cmpint (gtk_widget_get_width (GTK_WIDGET (dialog)), <=, NARROW);
  g_assert_cmpint (gtk_widget_get_width (GTK_WIDGET (window)), <=, NARROW);
  close_dialog (window, dialog);
  at_close_window (window);
}

static void
test_narrow_dialog (void)
{
  use_build_translations ();
  g_setenv ("LANGUAGE", "en", TRUE);
  check_narrow_dialog ("en");
  g_setenv ("LANGUAGE", "de", TRUE);
  check_narrow_dialog ("de");
  g_unsetenv ("LANGUAGE");
}

static void
find_rows (GtkWidget *widget, GPtrArray *rows)
{
  if (PADLOCK_IS_JOB_ROW (widget))
    g_ptr_array_add (rows, widget);
  for (GtkWidget *child = gtk_widget_get_first_child (widget); child;
       child = gtk_widget_get_next_sibling (child))
    find_rows (child, rows);
}

/* The bounds of NAME (a template child of ROW) in ROW. */
static graphene_rect_t
bounds_in_row (GtkWidget *row, const char *name)
{
  GtkWidget *child = GTK_WIDGET (gtk_widget_get_template_child (row, PADLOCK_TYPE_JOB_ROW,
                                                                name));
  graphene_rect_t rect;

  g_assert_true (gtk_widget_get_mapped (child));
  g_assert_true (gtk_widget_compute_bounds (child, row, &rect));
  return rect;
}

/* In the row of the bad signature: the verdict under the name, Delete,
 * Show and Open on a line under the verdict, within the row. */
static void
check_row_lines (PadlockWindow *window)
{
  g_autoptr(GPtrArray) rows = g_ptr_array_new ();
  PadlockJob *job = at_find_job (window, "contract-badsig.txt.gpg");
  GtkWidget *row = NULL;
  graphene_rect_t title, verdict, delete, open;

  find_rows (GTK_WIDGET (window->job_list), rows);
  for (guint i = 0; i < rows->len; i++)
    if (padlock_job_row_get_job (rows->pdata[i]) == job)
      row = rows->pdata[i];
  g_assert_nonnull (row);
  title = bounds_in_row (row, "title_label");
  verdict = bounds_in_row (row, "verdict_label");
  delete = bounds_in_row (row, "delete_button");
  open = bounds_in_row (row, "open_button");
  g_assert_cmpfloat (verdict.origin.y, >=, title.origin.y + title.size.height);
  g_assert_cmpfloat (delete.origin.y, >=, verdict.origin.y + verdict.size.height);
  g_assert_cmpfloat (open.origin.y, ==, delete.origin.y);
  g_assert_cmpfloat (open.origin.x + open.size.width, <=, gtk_widget_get_width (row));
}

/* A 360 px window with finished rows whose buttons are Delete, Show and
 * Open (a bad signature), Show and Open (a good one), and Verify… (a
 * key not verified): the window stays 360 px wide, the rows put their
 * buttons on a line of their own under the name. */
static void
check_narrow_rows (const char *language)
{
  g_autofree char *dir = tu_new_dir ("narrow-rows");
  g_autoptr(GBytes) bad = tg_bad_signature_message (home, alice_fpr,
                                                    "contract-badsig.txt",
                                                    "the contract\n", PASSPHRASE);
  g_autofree char *bad_path = g_build_filename (dir, "contract-badsig.txt.gpg", NULL);
  g_autofree char *plain = g_build_filename (dir, "Quarterly report with a long name.txt", NULL);
  g_autofree char *encrypted = g_strconcat (plain, ".gpg", NULL);
  const char *paths[] = { bad_path, encrypted, NULL };
  g_autofree char *name = g_strdup_printf ("window-rows-360-%s", language);
  PadlockWindow *window = at_new_window ();

  if (!reader)
    reader = at_reader_new ();
  g_assert_true (g_file_set_contents (bad_path, g_bytes_get_data (bad, NULL),
                                      g_bytes_get_size (bad), NULL));
  g_assert_true (g_file_set_contents (plain, "report\n", -1, NULL));
  at_gpg_encrypt (plain, encrypted, PASSPHRASE, NULL);
  g_unlink (plain);
  gtk_window_set_default_size (GTK_WINDOW (window), NARROW, 640);
  at_settle (300);
  at_drop (window, paths);
  at_answer (at_wait_dialog (window), PASSPHRASE);
  g_assert_true (at_wait_queue_idle (window->queue, WAIT_MS));
  at_settle (800);
  g_test_message ("%s: window %d px wide, at least %d", language,
                  gtk_widget_get_width (GTK_WIDGET (window)),
                  min_width (GTK_WIDGET (window)));
  log_widest (GTK_WIDGET (window), 0);
  at_screenshot (GTK_WIDGET (window), name);
  {
    g_autofree char *buttons = at_reader_list (reader, "push button");

    g_test_message ("buttons: %s", buttons);
    g_assert_true (strstr (buttons, "Delete") || strstr (buttons, "Löschen"));
  }
  g_assert_cmpint (min_width (GTK_WIDGET (window)), <=, NARROW);
  g_assert_cmpint (gtk_widget_get_width (GTK_WIDGET (window)), <=, NARROW);
  check_row_lines (window);
  at_close_window (window);
}

static void
test_narrow_rows (void)
{
  use_build_translations ();
  g_setenv ("LANGUAGE", "en", TRUE);
  check_narrow_rows ("en");
  g_setenv ("LANGUAGE", "de", TRUE);
  check_narrow_rows ("de");
  g_unsetenv ("LANGUAGE");
}

int
main (int argc, char **argv)
{
  int status;

  g_setenv ("GTK_A11Y", "atspi", TRUE);
  tu_init (&argc, &argv);
  make_keys ();
  g_setenv ("GNUPGHOME", home->dir, TRUE);
  at_application ();
  g_test_add_func ("/encrypt-dialog/only-me", test_only_me);
  g_test_add_func ("/encrypt-dialog/search-keys", test_search_keys);
  g_test_add_func ("/encrypt-dialog/warning", test_warning);
  g_test_add_func ("/encrypt-dialog/narrow", test_narrow_dialog);
  g_test_add_func ("/encrypt-dialog/narrow-rows", test_narrow_rows);
  status = g_test_run ();
  g_clear_pointer (&reader, at_reader_free);
  g_clear_pointer (&home, tg_home_free);
  g_clear_pointer (&colleagues, tg_home_free);
  return status;
}
