/* test-padlock-lookup-box.c - "Search on the Internet for …"
 * (padlock-lookup-box.h) in the encrypt dialog's People and on the Keys
 * page, under Xvfb, read as a screen reader reads it (AT-SPI)
 *
 * The user's GnuPG home sends dirmngr to an HKP keyserver of the test's
 * own on 127.0.0.1 (tests/hkp-server.c) that has Bob's certificate.
 * The addresses are at example.invalid, which never resolves: WKD asks
 * no server (see test-padlock-lookup.c).
 */
#include <string.h>

#include "app-testutil.h"
#include "gnupg-home.h"
#include "hkp-server.h"
#include "padlock-job-row.h"
#include "padlock-keys-page.h"
#include "padlock-lookup-box.h"
#include "padlock-lookup-window.h"
#include "padlock-people-private.h"
#include "padlock-signature.h"

#define WAIT_MS 60000
#define BOB "Bob <bob@example.invalid>"
#define BOB_EMAIL "bob@example.invalid"

static TgHome *home;            /* the user's */
static TgHome *bob_home;
static char *bob_fpr;
static HkpServer *server;
static AtReader *reader;

static void
set_up (void)
{
  g_autoptr (GBytes) armor = NULL;
  g_autofree char *text = NULL;

  bob_home = tg_home_new ();
  bob_fpr = tg_gen_encryption_key (bob_home, BOB, "ed25519", "cv25519",
                                   "never", NULL);
  g_assert_cmpint (tg_gpg (bob_home, NULL, NULL, &armor, "--armor", "--export",
                           bob_fpr, NULL), ==, 0);
  text = g_strndup (g_bytes_get_data (armor, NULL), g_bytes_get_size (armor));
  server = hkp_server_new ();
  hkp_server_add (server, bob_fpr, BOB_EMAIL, text);
  home = tg_home_new ();
  tg_gen_encryption_key (home, "Alice <alice@example.invalid>", "ed25519",
                         "cv25519", "never", NULL);
  tg_home_use_keyserver (home, server);
}

static gboolean
user_has_bob (void)
{
  return tg_gpg (home, NULL, NULL, NULL, "--with-colons", "--list-keys",
                 bob_fpr, NULL) == 0;
}

static gboolean
not_busy (gpointer box)
{
  return !padlock_lookup_box_is_busy (box);
}

static gboolean
keyring_read (gpointer keyring)
{
  return padlock_keyring_get_state (keyring) != PADLOCK_KEYRING_LOADING;
}

static gboolean
keyring_has_bob (gpointer keyring)
{
  return padlock_keyring_find_key (keyring, bob_fpr, FALSE, NULL) != NULL;
}

static gboolean
keyring_lacks_bob (gpointer keyring)
{
  return !keyring_has_bob (keyring);
}

static char *
offer_for (const char *query)
{
  return g_strdup_printf ("Search on the Internet for %s", query);
}

/* People: Bob's address offers the search, which does not run by
 * itself; it finds Bob with his fingerprint; Import adds him, and he is
 * pickable (after the unverified key's warning). */
static void
test_people (void)
{
  g_autoptr (PadlockKeyring) keyring = padlock_keyring_new (home->dir);
  g_autoptr (GSettings) settings = g_settings_new ("io.github.padlock.Padlock");
  GtkWidget *window = gtk_window_new ();
  PadlockPeople *people = padlock_people_new (keyring, settings);
  g_autofree char *offer = offer_for (BOB_EMAIL);
  g_autofree char *grouped = padlock_fingerprint_grouped (bob_fpr);
  g_autofree char *said_fpr = g_strdup_printf ("Fingerprint: %s", grouped);
  g_autofree char *buttons = NULL;
  g_autofree char *labels = NULL;
  gint64 start;

  gtk_window_set_child (GTK_WINDOW (window), GTK_WIDGET (people));
  gtk_window_present (GTK_WINDOW (window));
  g_assert_true (at_wait_until (keyring_read, keyring, WAIT_MS));
  reader = at_reader_new ();
  /* A name is not looked up: no offer. */
  gtk_editable_set_text (GTK_EDITABLE (people->search_entry), "bob");
  at_settle (300);
  buttons = at_reader_list (reader, "push button");
  g_assert_null (strstr (buttons, "Search on the Internet"));
  g_clear_pointer (&buttons, g_free);

  gtk_editable_set_text (GTK_EDITABLE (people->search_entry), BOB_EMAIL);
  at_settle (1000);
  buttons = at_reader_list (reader, "push button");
  g_assert_nonnull (strstr (buttons, offer));
  labels = at_reader_list (reader, "label");
  g_assert_nonnull (strstr (labels, "No key in your keyring matches"));
  /* It never runs by itself. */
  g_assert_cmpuint (hkp_server_requests (server), ==, 0);

  start = g_get_monotonic_time ();
  at_click_button (GTK_WIDGET (people), offer, WAIT_MS);
  g_assert_true (padlock_lookup_box_is_busy (people->lookup_box));
  g_assert_true (at_wait_until (not_busy, people->lookup_box, WAIT_MS));
  g_test_message ("found in %.2f s",
                  (g_get_monotonic_time () - start) / (double) G_USEC_PER_SEC);
  at_settle (300);
  g_clear_pointer (&labels, g_free);
  labels = at_reader_list (reader, "label");
  g_test_message ("%s", labels);
  g_assert_nonnull (strstr (labels, "\u2068" BOB "\u2069"));
  g_assert_nonnull (strstr (labels, said_fpr));
  g_assert_nonnull (strstr (labels, "importing it does not make it verified"));
  g_assert_false (user_has_bob ());
  g_clear_pointer (&buttons, g_free);
  buttons = at_reader_list (reader, "push button");
  g_assert_nonnull (strstr (buttons, "Import"));
  at_screenshot (window, "lookup-found");

  /* The user's click. */
  at_click_button (GTK_WIDGET (people), "Import", WAIT_MS);
  g_assert_true (at_wait_until (not_busy, people->lookup_box, WAIT_MS));
  g_assert_true (user_has_bob ());
  g_assert_true (at_wait_until (keyring_has_bob, keyring, WAIT_MS));
  at_settle (300);
  g_clear_pointer (&labels, g_free);
  labels = at_reader_list (reader, "label");
  g_assert_nonnull (strstr (labels, "Added \u2068" BOB "\u2069."));
  /* Now in the picker: not verified, so after the warning. */
  g_signal_emit_by_name (people->search_entry, "activate");
  at_settle (200);
  g_assert_true (gtk_widget_get_visible (people->warning_box));
  g_signal_emit_by_name (people->warning_use_button, "clicked");
  at_settle (200);
  g_assert_true (padlock_people_has_people (people));
  g_assert_cmpuint (hkp_server_requests (server), ==, 1);
  g_clear_pointer (&reader, at_reader_free);
  gtk_window_destroy (GTK_WINDOW (window));
}

/* The Keys page: a fingerprint offers the search; a keyserver that
 * never answers shows the spinner and Cancel, which ends it at once;
 * an address nobody published says so in one line. */
static void
test_keys_page (void)
{
  g_autoptr (PadlockKeyring) keyring = padlock_keyring_new (home->dir);
  GtkWidget *window = gtk_window_new ();
  GtkWidget *page = padlock_keys_page_new ();
  GtkWidget *entry = at_find_widget (page, GTK_TYPE_SEARCH_ENTRY);
  PadlockLookupBox *box = PADLOCK_LOOKUP_BOX (at_find_widget (page, PADLOCK_TYPE_LOOKUP_BOX));
  g_autofree char *offer = offer_for (bob_fpr);
  g_autofree char *nobody = offer_for ("nobody@example.invalid");
  g_autofree char *offer_bob = offer_for (BOB_EMAIL);
  g_autofree char *buttons = NULL;
  g_autofree char *labels = NULL;
  guint asked = hkp_server_requests (server);
  gint64 start;
  double seconds;

  padlock_keys_page_set_keyring (PADLOCK_KEYS_PAGE (page), keyring);
  gtk_window_set_child (GTK_WINDOW (window), page);
  gtk_window_set_default_size (GTK_WINDOW (window), 600, 500);
  gtk_window_present (GTK_WINDOW (window));
  g_assert_true (at_wait_until (keyring_read, keyring, WAIT_MS));
  reader = at_reader_new ();

  hkp_server_set_hang (server, TRUE);
  gtk_editable_set_text (GTK_EDITABLE (entry), bob_fpr);
  at_settle (1000);
  g_assert_cmpuint (hkp_server_requests (server), ==, asked);
  at_click_button (page, offer, WAIT_MS);
  while (hkp_server_requests (server) == asked)
    g_main_context_iteration (NULL, TRUE);
  at_settle (200);
  buttons = at_reader_list (reader, "push button");
  g_assert_nonnull (strstr (buttons, "Cancel"));
  labels = at_reader_list (reader, "label");
  g_assert_nonnull (strstr (labels, "Searching the Internet for"));
  start = g_get_monotonic_time ();
  at_click_button (page, "Cancel", WAIT_MS);
  g_assert_false (padlock_lookup_box_is_busy (box));
  at_settle (200);
  seconds = (g_get_monotonic_time () - start) / (double) G_USEC_PER_SEC;
  g_clear_pointer (&buttons, g_free);
  buttons = at_reader_list (reader, "push button");
  g_assert_nonnull (strstr (buttons, offer));
  g_assert_null (strstr (buttons, "Cancel"));
  g_test_message ("cancelled, offer back in %.2f s", seconds);
  hkp_server_set_hang (server, FALSE);

  gtk_editable_set_text (GTK_EDITABLE (entry), "nobody@example.invalid");
  at_settle (500);
  start = g_get_monotonic_time ();
  at_click_button (page, nobody, WAIT_MS);
  g_assert_true (at_wait_until (not_busy, box, WAIT_MS));
  seconds = (g_get_monotonic_time () - start) / (double) G_USEC_PER_SEC;
  g_test_message ("nothing found, said in %.2f s", seconds);
  g_assert_cmpfloat (seconds, <, 10.5);
  at_settle (300);
  g_clear_pointer (&labels, g_free);
  labels = at_reader_list (reader, "label");
  g_assert_nonnull (strstr (labels, "No key found for nobody@example.invalid."));

  /* Bob by address: imported on the click, then listed among People. */
  tg_gpg (home, NULL, NULL, NULL, "--yes", "--delete-keys", bob_fpr, NULL);
  g_assert_true (at_wait_until (keyring_lacks_bob, keyring, WAIT_MS));
  gtk_editable_set_text (GTK_EDITABLE (entry), BOB_EMAIL);
  at_settle (500);
  g_clear_pointer (&labels, g_free);
  labels = at_reader_list (reader, "label");
  g_assert_nonnull (strstr (labels, "No key matches the search."));
  at_click_button (page, offer_bob, WAIT_MS);
  g_assert_true (at_wait_until (not_busy, box, WAIT_MS));
  g_assert_false (user_has_bob ());
  at_click_button (page, "Import", WAIT_MS);
  g_assert_true (at_wait_until (not_busy, box, WAIT_MS));
  g_assert_true (user_has_bob ());
  g_assert_true (at_wait_until (keyring_has_bob, keyring, WAIT_MS));
  at_settle (300);
  g_clear_pointer (&labels, g_free);
  labels = at_reader_list (reader, "label");
  g_assert_nonnull (strstr (labels, "Added \u2068" BOB "\u2069."));
  g_assert_null (strstr (labels, "No key matches the search."));
  g_assert_nonnull (at_find_action_row (page, "\u2068Bob\u2069"));

  /* Closed while a lookup runs: it ends, and nothing is left to call. */
  hkp_server_set_hang (server, TRUE);
  asked = hkp_server_requests (server);
  gtk_editable_set_text (GTK_EDITABLE (entry), bob_fpr);
  at_settle (500);
  at_click_button (page, offer, WAIT_MS);
  while (hkp_server_requests (server) == asked)
    g_main_context_iteration (NULL, TRUE);
  g_clear_pointer (&reader, at_reader_free);
  gtk_window_destroy (GTK_WINDOW (window));
  at_settle (500);
  hkp_server_set_hang (server, FALSE);
}

static PadlockLookupWindow *
find_lookup_window (void)
{
  g_autoptr (GList) toplevels = gtk_window_list_toplevels ();

  for (GList *l = toplevels; l; l = l->next)
    if (PADLOCK_IS_LOOKUP_WINDOW (l->data) && gtk_widget_get_visible (l->data))
      return l->data;
  return NULL;
}

static gboolean
has_lookup_window (gpointer data)
{
  return find_lookup_window () != NULL;
}

static gboolean
two_jobs (gpointer queue)
{
  return g_list_model_get_n_items (queue) == 2;
}

/* A text Bob signed, read while the keyring lacks his key: the row
 * offers "Look Up Key…", which finds him by fingerprint; after Import,
 * "Check the Signature Again" checks it anew: his, not verified. */
static void
test_unknown_signer (void)
{
  g_autofree char *dir = tu_new_dir ("unknown-signer");
  g_autofree char *notes = g_build_filename (dir, "notes.txt.asc", NULL);
  g_autofree char *signed_text = tg_clearsign (bob_home, bob_fpr, "from Bob\n",
                                               NULL, NULL);
  g_autofree char *grouped = padlock_fingerprint_grouped (bob_fpr);
  g_autofree char *unknown = g_strconcat ("Signed by an unknown key ", grouped, NULL);
  g_autofree char *look_up = g_strconcat ("Look up the key ", grouped, NULL);
  g_autofree char *said_fpr = g_strdup_printf ("Fingerprint: %s", grouped);
  g_autofree char *panels = NULL;
  g_autofree char *buttons = NULL;
  g_autofree char *labels = NULL;
  const char *paths[] = { notes, NULL };
  PadlockWindow *window;
  PadlockLookupWindow *lookup;
  PadlockJobRow *row;
  GtkWidget *button;
  guint asked = hkp_server_requests (server);

  /* Bob's key is not in the keyring (an earlier test may have added it). */
  tg_gpg (home, NULL, NULL, NULL, "--yes", "--delete-keys", bob_fpr, NULL);
  g_assert_false (user_has_bob ());
  g_assert_true (g_file_set_contents (notes, signed_text, -1, NULL));
  window = at_new_window ();
  gtk_window_set_default_size (GTK_WINDOW (window), 900, 500);
  reader = at_reader_new ();
  at_drop (window, paths);
  g_assert_true (at_wait_queue_idle (window->queue, WAIT_MS));
  at_settle (300);
  panels = at_reader_list (reader, "panel");
  g_assert_nonnull (strstr (panels, unknown));
  buttons = at_reader_list (reader, "push button");
  g_assert_nonnull (strstr (buttons, look_up));
  g_assert_cmpuint (hkp_server_requests (server), ==, asked);
  at_screenshot (GTK_WIDGET (window), "unknown-signer-look-up");

  row = at_find_job_row (GTK_WIDGET (window->job_list), "notes.txt.asc");
  g_assert_nonnull (row);
  button = GTK_WIDGET (gtk_widget_get_template_child (GTK_WIDGET (row), PADLOCK_TYPE_JOB_ROW,
                                                      "look_up_button"));
  g_signal_emit_by_name (button, "clicked");
  g_assert_true (at_wait_until (has_lookup_window, NULL, WAIT_MS));
  lookup = find_lookup_window ();
  g_assert_true (at_wait_until (not_busy, padlock_lookup_window_get_box (lookup), WAIT_MS));
  at_settle (300);
  labels = at_reader_list (reader, "label");
  g_test_message ("%s", labels);
  g_assert_nonnull (strstr (labels, "\u2068" BOB "\u2069"));
  g_assert_nonnull (strstr (labels, said_fpr));
  g_assert_false (user_has_bob ());
  at_screenshot (GTK_WIDGET (lookup), "unknown-signer-found");

  at_click_button (GTK_WIDGET (lookup), "Import", WAIT_MS);
  g_assert_true (at_wait_until (not_busy, padlock_lookup_window_get_box (lookup), WAIT_MS));
  g_assert_true (user_has_bob ());
  at_click_button (GTK_WIDGET (lookup), "Check the Signature Again", WAIT_MS);
  g_assert_true (at_wait_until (two_jobs, window->queue, WAIT_MS));
  g_assert_true (at_wait_queue_idle (window->queue, WAIT_MS));
  at_settle (300);
  g_clear_pointer (&panels, g_free);
  panels = at_reader_list (reader, "panel");
  g_test_message ("%s", panels);
  g_assert_nonnull (strstr (panels, ", Signed by " BOB ", but you have not certified"));
  g_clear_pointer (&reader, at_reader_free);
  gtk_window_destroy (GTK_WINDOW (window));
  at_settle (50);
}

/* Two keys for one address, Dave's and one Mallory made in his name:
 * both are shown, each with "Import This Key" named by its fingerprint
 * for a screen reader, and the user imports Dave's alone. */
static void
test_one_of_two (void)
{
  g_autoptr (TgHome) dave_home = tg_home_new ();
  g_autoptr (TgHome) mallory_home = tg_home_new ();
  g_autofree char *dave = tg_gen_encryption_key (dave_home, "Dave <dave@example.invalid>",
                                                 "ed25519", "cv25519", "never", NULL);
  g_autofree char *mallory = tg_gen_encryption_key (mallory_home,
                                                    "Dave <dave@example.invalid>",
                                                    "ed25519", "cv25519", "never", NULL);
  g_autoptr (GBytes) dave_armor = NULL;
  g_autoptr (GBytes) mallory_armor = NULL;
  g_autofree char *both = NULL;
  g_autoptr (PadlockKeyring) keyring = padlock_keyring_new (home->dir);
  GtkWidget *window = gtk_window_new ();
  GtkWidget *box = padlock_lookup_box_new (keyring);
  g_autofree char *dave_grouped = padlock_fingerprint_grouped (dave);
  g_autofree char *mallory_grouped = padlock_fingerprint_grouped (mallory);
  g_autofree char *import_dave = g_strdup_printf ("Import the key %s", dave_grouped);
  g_autofree char *import_mallory = g_strdup_printf ("Import the key %s", mallory_grouped);
  g_autofree char *buttons = NULL;
  g_autofree char *labels = NULL;
  GtkWidget *button = NULL;

  g_assert_cmpint (tg_gpg (dave_home, NULL, NULL, &dave_armor, "--armor", "--export",
                           dave, NULL), ==, 0);
  g_assert_cmpint (tg_gpg (mallory_home, NULL, NULL, &mallory_armor, "--armor",
                           "--export", mallory, NULL), ==, 0);
  /* Mallory's first: the one to import is not simply the first. */
  both = g_strdup_printf ("%.*s%.*s", (int) g_bytes_get_size (mallory_armor),
                          (const char *) g_bytes_get_data (mallory_armor, NULL),
                          (int) g_bytes_get_size (dave_armor),
                          (const char *) g_bytes_get_data (dave_armor, NULL));
  hkp_server_add (server, dave, "dave@example.invalid", both);
  tg_gpgconf (dave_home, "--kill", "gpg-agent");
  tg_gpgconf (mallory_home, "--kill", "gpg-agent");

  gtk_window_set_child (GTK_WINDOW (window), box);
  gtk_window_present (GTK_WINDOW (window));
  g_assert_true (at_wait_until (keyring_read, keyring, WAIT_MS));
  reader = at_reader_new ();
  padlock_lookup_box_set_query (PADLOCK_LOOKUP_BOX (box), "dave@example.invalid");
  padlock_lookup_box_search (PADLOCK_LOOKUP_BOX (box));
  g_assert_true (at_wait_until (not_busy, box, WAIT_MS));
  at_settle (300);
  buttons = at_reader_list (reader, "push button");
  g_test_message ("%s", buttons);
  /* Each read once, by its fingerprint. */
  {
    g_auto (GStrv) names = g_strsplit (buttons, "|", -1);

    g_assert_true (g_strv_contains ((const char *const *) names, import_dave));
    g_assert_true (g_strv_contains ((const char *const *) names, import_mallory));
  }
  g_assert_nonnull (strstr (buttons, "Import All 2 Keys"));
  at_screenshot (window, "lookup-two-keys");

  /* Dave's row's button: found by its accessible name, as the reader
   * would reach it. */
  for (GtkWidget *row = at_find_widget (box, GTK_TYPE_LIST_BOX_ROW); row;
       row = gtk_widget_get_next_sibling (row))
    for (GtkWidget *w = at_find_widget (row, GTK_TYPE_LABEL); w;
         w = gtk_widget_get_next_sibling (w))
      if (GTK_IS_LABEL (w) && strstr (gtk_label_get_text (GTK_LABEL (w)), dave_grouped))
        button = at_find_widget (row, GTK_TYPE_BUTTON);
  g_assert_nonnull (button);
  g_signal_emit_by_name (button, "clicked");
  g_assert_true (at_wait_until (not_busy, box, WAIT_MS));
  g_assert_cmpint (tg_gpg (home, NULL, NULL, NULL, "--with-colons", "--list-keys",
                           dave, NULL), ==, 0);
  g_assert_cmpint (tg_gpg (home, NULL, NULL, NULL, "--with-colons", "--list-keys",
                           mallory, NULL), !=, 0);
  at_settle (300);
  labels = at_reader_list (reader, "label");
  g_assert_nonnull (strstr (labels, "Added \u2068Dave <dave@example.invalid>\u2069."));
  g_clear_pointer (&reader, at_reader_free);
  gtk_window_destroy (GTK_WINDOW (window));
}

int
main (int argc, char **argv)
{
  int status;

  g_setenv ("GTK_A11Y", "atspi", TRUE);
  tu_init (&argc, &argv);
  set_up ();
  g_setenv ("GNUPGHOME", home->dir, TRUE);
  at_application ();
  g_test_add_func ("/lookup-box/people", test_people);
  g_test_add_func ("/lookup-box/unknown-signer", test_unknown_signer);
  g_test_add_func ("/lookup-box/keys-page", test_keys_page);
  g_test_add_func ("/lookup-box/one-of-two", test_one_of_two);
  status = g_test_run ();
  g_clear_pointer (&home, tg_home_free);
  g_clear_pointer (&bob_home, tg_home_free);
  g_clear_pointer (&server, hkp_server_free);
  g_free (bob_fpr);
  return status;
}
