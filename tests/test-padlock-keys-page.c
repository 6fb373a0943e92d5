/* test-padlock-keys-page.c - the window's Keys page and a person's
 * page, as a user and a screen reader (AT-SPI) meet them: Alt+2 opens
 * it, "Your Keys" holds Alice's, "People" Carol's "Not verified"; the
 * search filters; Carol's page verifies her key (gpg --list-sigs shows
 * Alice's local certification, the page, the list and padlock --batch
 * say verified), forgets it, and removes the key after the question; a
 * key `gpg --import` adds meanwhile shows up.  A real window under Xvfb,
 * a GnuPG home of the test's own (GNUPGHOME) and a real gpg-agent.
 */
#include <string.h>

#include "app-testutil.h"
#include "gnupg-home.h"
#include "padlock-job.h"
#include "padlock-person-page.h"
#include "padlock-signature.h"
#include "padlock-window-private.h"

#define WAIT_MS 60000

static TgHome *home;            /* Alice's secret key, Carol's certificate */
static TgHome *carol_home;
static TgHome *dave_home;       /* Dave's key, imported during the test */
static char *alice_fpr;
static char *carol_fpr;
static char *dave_fpr;
static AtReader *reader;

static void
make_keys (void)
{
  alice_fpr = tg_gen_key (home, "Alice <alice@example.org>", "ed25519",
                          "cert,sign", "never", "", NULL);
  carol_fpr = tg_gen_encryption_key (carol_home, "Carol <carol@example.org>",
                                     "ed25519", "cv25519", "never", NULL);
  tg_import_cert (home, carol_home, carol_fpr);
  dave_fpr = tg_gen_encryption_key (dave_home, "Dave <dave@example.org>",
                                    "ed25519", "cv25519", "never", NULL);
}

/* The reader sees an object of ROLE whose name (a label's text) holds
 * TEXT (PRESENT), or none (!PRESENT). */
static void
wait_role (const char *role, const char *text, gboolean present)
{
  if (present)
    g_free (at_reader_wait_for (reader, role, text, WAIT_MS));
  else
    at_reader_wait_gone (reader, role, text, WAIT_MS);
}

static void
wait_label (const char *text, gboolean present)
{
  wait_role ("label", text, present);
}

/* Carol's row subtitle as the reader reads it holds WORDS. */
static void
wait_carol_says (const char *words)
{
  g_autofree char *line = g_strdup_printf ("carol@example.org\u2069 · 0x%s · %s",
                                           carol_fpr + 24, words);

  wait_label (line, TRUE);
}

static void
find_widgets (GtkWidget *widget, GType type, GPtrArray *found)
{
  if (G_TYPE_CHECK_INSTANCE_TYPE (widget, type))
    g_ptr_array_add (found, widget);
  for (GtkWidget *child = gtk_widget_get_first_child (widget); child;
       child = gtk_widget_get_next_sibling (child))
    find_widgets (child, type, found);
}

static gboolean
has_person_page (gpointer data)
{
  return at_find_toplevel (PADLOCK_TYPE_PERSON_PAGE) != NULL;
}

static gboolean
no_person_page (gpointer data)
{
  return !has_person_page (data);
}

/* Local certifications by Alice on Carol's key in gpg --list-sigs. */
static guint
alice_local_certifications (void)
{
  g_autoptr(GBytes) out = NULL;
  g_autofree char *text = NULL;
  g_auto(GStrv) lines = NULL;
  guint n = 0;

  g_assert_cmpint (tg_gpg (home, NULL, NULL, &out, "--with-colons",
                           "--list-sigs", carol_fpr, NULL), ==, 0);
  text = g_strndup (g_bytes_get_data (out, NULL), g_bytes_get_size (out));
  lines = g_strsplit (text, "\n", -1);
  for (guint i = 0; lines[i]; i++)
    {
      g_auto(GStrv) fields = g_strsplit (lines[i], ":", -1);

      if (g_strv_length (fields) > 10 && g_str_equal (fields[0], "sig")
          && g_str_equal (fields[4], alice_fpr + 24)
          && g_str_has_suffix (fields[10], "l"))
        n++;
    }
  return n;
}

/* Carol clearsigns a note; padlock --batch says its verdict WORD. */
static void
assert_batch_verdict (const char *word)
{
  g_autofree char *dir = tu_new_dir ("keys-page-batch");
  g_autofree char *path = g_build_filename (dir, "note.txt.asc", NULL);
  g_autofree char *signed_text = tg_clearsign (carol_home, carol_fpr,
                                               "See you at noon.\n", NULL, NULL);
  g_autofree char *want = g_strdup_printf (" signature %s %s ", word, carol_fpr);
  const char *args[] = { path, NULL };
  g_autofree char *out = NULL;
  g_autofree char *err = NULL;

  g_assert_true (g_file_set_contents (path, signed_text, -1, NULL));
  g_assert_cmpint (at_run_batch (home->dir, args, &out, &err), ==, 0);
  g_test_message ("stdout: %s\nstderr: %s", out, err);
  g_assert_nonnull (strstr (out, want));
}

/* Alt+2 shows the Keys page: both sections, Alice's key as hers,
 * Carol's not verified. */
static void
test_shortcut_and_sections (void)
{
  PadlockWindow *window = at_app_window ();

  g_assert_cmpstr (adw_view_stack_get_visible_child_name (window->view_stack),
                   ==, "files");
  at_focus_window (GTK_WINDOW (window));
  at_reader_key (reader, "Alt+2");
  g_assert_cmpstr (adw_view_stack_get_visible_child_name (window->view_stack),
                   ==, "keys");
  wait_label ("Your Keys", TRUE);
  wait_label ("People", TRUE);
  wait_label ("Alice", TRUE);
  wait_label ("alice@example.org\u2069 · 0x", TRUE);
  wait_label ("Your own key", TRUE);
  wait_carol_says ("Not verified");
  at_screenshot (GTK_WIDGET (window), "keys-page");
}

/* The search field filters both sections. */
static void
test_search (void)
{
  PadlockWindow *window = at_app_window ();
  GtkWidget *entry;
  g_autoptr(GPtrArray) entries = g_ptr_array_new ();

  find_widgets (GTK_WIDGET (window->keys_page), GTK_TYPE_SEARCH_ENTRY, entries);
  g_assert_cmpuint (entries->len, ==, 1);
  entry = entries->pdata[0];
  gtk_editable_set_text (GTK_EDITABLE (entry), "carol");
  wait_label ("alice@example.org", FALSE);
  wait_carol_says ("Not verified");
  gtk_editable_set_text (GTK_EDITABLE (entry), "");
  wait_label ("alice@example.org", TRUE);
}

/* Carol's page: "I Compared…" certifies her key locally; the page, the
 * list and --batch say verified; "Forget Verification" undoes it. */
static void
test_verify_and_forget (void)
{
  PadlockWindow *window = at_app_window ();
  GtkWidget *row;
  GtkWindow *page;
  g_autofree char *grouped = NULL;

  assert_batch_verdict ("not-certified");
  /* gpg may have touched its trust database: the list is made anew. */
  at_settle (500);
  row = at_find_action_row (GTK_WIDGET (window->keys_page), "Carol");
  g_assert_nonnull (row);
  g_assert_true (gtk_widget_activate (row));
  g_assert_true (at_wait_until (has_person_page, NULL, WAIT_MS));
  page = at_find_toplevel (PADLOCK_TYPE_PERSON_PAGE);
  /* The fingerprint in groups of four, as the reader reads it. */
  grouped = g_strdup_printf ("%.4s %.4s", carol_fpr, carol_fpr + 4);
  wait_label (grouped, TRUE);
  at_screenshot (GTK_WIDGET (page), "person-page");
  g_assert_null (at_find_button (GTK_WIDGET (page), "Forget Verification"));
  g_assert_cmpuint (alice_local_certifications (), ==, 0);

  g_signal_emit_by_name (at_find_button (GTK_WIDGET (page), "I Compared the Fingerprint with \u2068Carol"),
                         "clicked");
  wait_role ("push button", "Forget Verification", TRUE);     /* the page, anew */
  g_assert_cmpuint (alice_local_certifications (), ==, 1);
  wait_carol_says ("Verified");                 /* the list */
  assert_batch_verdict ("good");

  g_signal_emit_by_name (at_find_button (GTK_WIDGET (page), "Forget Verification"),
                         "clicked");
  wait_role ("push button", "I Compared the Fingerprint with \u2068Carol", TRUE);
  g_assert_cmpuint (alice_local_certifications (), ==, 0);
  wait_carol_says ("Not verified");
  assert_batch_verdict ("not-certified");
  /* Escape closes it. */
  at_focus_window (page);
  at_reader_key (reader, "Escape");
  g_assert_true (at_wait_until (no_person_page, NULL, WAIT_MS));
}

/* The window's newest job. */
static PadlockJob *
last_job (PadlockWindow *window)
{
  GListModel *jobs = G_LIST_MODEL (window->queue);
  guint n = g_list_model_get_n_items (jobs);
  g_autoptr(PadlockJob) job = NULL;

  g_assert_cmpuint (n, >, 0);
  job = g_list_model_get_item (jobs, n - 1);
  return job;                   /* the queue holds it */
}

static PadlockSignatureVerdict
opened_verdict (PadlockWindow *window, const char *path)
{
  g_autoptr(GFile) file = g_file_new_for_path (path);
  GFile *files[] = { file };
  PadlockJob *job;
  GPtrArray *signatures;

  g_application_open (G_APPLICATION (at_application ()), files, 1, "");
  at_settle (200);
  g_assert_true (at_wait_queue_idle (window->queue, WAIT_MS));
  job = last_job (window);
  g_assert_cmpint (padlock_job_get_state (job), ==, PADLOCK_JOB_DONE);
  signatures = padlock_job_get_signatures (job);
  g_assert_nonnull (signatures);
  g_assert_cmpuint (signatures->len, ==, 1);
  return ((PadlockSignature *) signatures->pdata[0])->verdict;
}

/* The yellow "not verified" verdict of a row resolved in two clicks:
 * "Verify…" opens Carol's page, "I Compared…" verifies her key; the
 * next job over her signature says good.  Alt+1 shows the files. */
static void
test_verify_from_row (void)
{
  PadlockWindow *window = at_app_window ();
  g_autofree char *dir = tu_new_dir ("keys-page-row");
  g_autofree char *path = g_build_filename (dir, "note.txt.asc", NULL);
  g_autofree char *signed_text = tg_clearsign (carol_home, carol_fpr,
                                               "See you at noon.\n", NULL, NULL);
  g_autofree char *path2 = g_build_filename (dir, "again.txt.asc", NULL);
  GtkWidget *verify;
  GtkWindow *page;

  at_focus_window (GTK_WINDOW (window));
  at_reader_key (reader, "Alt+1");
  g_assert_cmpstr (adw_view_stack_get_visible_child_name (window->view_stack),
                   ==, "files");
  g_assert_true (g_file_set_contents (path, signed_text, -1, NULL));
  g_assert_true (g_file_set_contents (path2, signed_text, -1, NULL));
  g_assert_cmpint (opened_verdict (window, path), ==,
                   PADLOCK_SIGNATURE_NOT_CERTIFIED);
  wait_role ("push button", "Verify the key of \u2068Carol", TRUE);
  verify = at_find_button (GTK_WIDGET (window->job_list), "Verify");
  g_assert_nonnull (verify);
  g_signal_emit_by_name (verify, "clicked");                    /* one */
  g_assert_true (at_wait_until (has_person_page, NULL, WAIT_MS));
  page = at_find_toplevel (PADLOCK_TYPE_PERSON_PAGE);
  g_signal_emit_by_name (at_find_button (GTK_WIDGET (page), "I Compared"), "clicked"); /* two */
  wait_role ("push button", "Forget Verification", TRUE);
  g_assert_cmpuint (alice_local_certifications (), ==, 1);
  gtk_window_destroy (page);
  g_assert_true (at_wait_until (no_person_page, NULL, WAIT_MS));
  g_assert_cmpint (opened_verdict (window, path2), ==, PADLOCK_SIGNATURE_GOOD);
  at_reader_key (reader, "Alt+2");
}

/* "Remove Key…", answered "Remove": gpg no longer lists Carol, the page
 * closes and her row goes.  Alice's own key has no such button. */
static void
test_remove (void)
{
  PadlockWindow *window = at_app_window ();
  GtkWindow *page;
  GtkWindow *dialog;

  g_assert_true (padlock_keys_page_show_person (window->keys_page, carol_fpr));
  page = at_find_toplevel (PADLOCK_TYPE_PERSON_PAGE);
  g_assert_nonnull (page);
  g_signal_emit_by_name (at_find_button (GTK_WIDGET (page), "Remove Key"), "clicked");
  g_assert_true (at_wait_until (at_has_message_dialog, NULL, WAIT_MS));
  dialog = at_find_toplevel (ADW_TYPE_MESSAGE_DIALOG);
  adw_message_dialog_response (ADW_MESSAGE_DIALOG (dialog), "remove");
  g_assert_true (at_wait_until (no_person_page, NULL, WAIT_MS));
  g_assert_cmpint (tg_gpg (home, NULL, NULL, NULL, "--list-keys", carol_fpr, NULL),
                   !=, 0);
  wait_label ("carol@example.org\u2069 · 0x", FALSE);   /* her row */
  wait_label ("No keys of other people yet", TRUE);

  /* Alice's own page (no win.show-my-key here): nothing to remove. */
  g_assert_true (padlock_keys_page_show_person (window->keys_page, alice_fpr));
  page = at_find_toplevel (PADLOCK_TYPE_PERSON_PAGE);
  g_assert_nonnull (page);
  g_assert_null (at_find_button (GTK_WIDGET (page), "Remove Key"));
  g_assert_null (at_find_button (GTK_WIDGET (page), "I Compared"));
  gtk_window_destroy (page);
  g_assert_true (at_wait_until (no_person_page, NULL, WAIT_MS));
}

/* `gpg --import` from elsewhere while the page is open: Dave shows up. */
static void
test_live_import (void)
{
  wait_label ("dave@example.org", FALSE);
  tg_import_cert (home, dave_home, dave_fpr);
  wait_label ("dave@example.org", TRUE);
}

int
main (int argc, char **argv)
{
  int status;

  g_setenv ("GTK_A11Y", "atspi", TRUE);
  tu_init (&argc, &argv);
  home = tg_home_new ();
  carol_home = tg_home_new ();
  dave_home = tg_home_new ();
  g_setenv ("GNUPGHOME", home->dir, TRUE);
  make_keys ();
  at_application ();
  gtk_window_present (GTK_WINDOW (at_app_window ()));
  at_settle (200);
  reader = at_reader_new ();
  g_test_add_func ("/keys-page/shortcut-and-sections", test_shortcut_and_sections);
  g_test_add_func ("/keys-page/search", test_search);
  g_test_add_func ("/keys-page/verify-and-forget", test_verify_and_forget);
  g_test_add_func ("/keys-page/verify-from-row", test_verify_from_row);
  g_test_add_func ("/keys-page/remove", test_remove);
  g_test_add_func ("/keys-page/live-import", test_live_import);
  status = g_test_run ();
  at_reader_free (reader);
  g_clear_pointer (&home, tg_home_free);
  g_clear_pointer (&carol_home, tg_home_free);
  g_clear_pointer (&dave_home, tg_home_free);
  return status;
}
