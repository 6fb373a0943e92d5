/* test-padlock-lookup.c - finding Bob's key on a keyserver through the
 * user's dirmngr, and importing it only when asked
 *
 * The user's GnuPG home has a dirmngr.conf that names an HKP keyserver
 * this test runs on 127.0.0.1 (tests/hkp-server.c), which serves Bob's
 * certificate, made in a home of his own.  What the lookup found is
 * checked against gpg's own listing of the user's keyring, before and
 * after the import.
 *
 * Web Key Directory is not served here: gpg 2.2's dirmngr fetches WKD
 * from https://openpgpkey.DOMAIN or https://DOMAIN on port 443 (another
 * port only from a DNS SRV record), resolves names through
 * /etc/resolv.conf and /etc/hosts, and checks the TLS certificate
 * against the system's CAs only (ks_action_fetch asks ks_http_fetch for
 * no HTTP_FLAG_TRUST_CFG; the configured CAs would come from
 * /etc/gnupg/trusted-certs anyway).  No GnuPG-home option can bring a
 * test CA or a test host, so WKD_GET runs, finds nothing, and the
 * lookup goes on to the keyserver, as it must.  The addresses are at
 * example.invalid (RFC 6761: never resolves), so that WKD_GET asks no
 * server but the resolver, even on a machine that is online.
 */
#include <string.h>

#include "app-testutil.h"
#include "gnupg-home.h"
#include "hkp-server.h"
#include "padlock-error.h"
#include "padlock-keyring.h"
#include "padlock-lookup.h"
#include "padlock-signature.h"

#define WAIT_MS 60000
#define BOB "Bob <bob@example.invalid>"
#define BOB_EMAIL "bob@example.invalid"

typedef struct
{
  TgHome         *bob_home;
  TgHome         *home;      /* the user's */
  char           *bob;       /* fingerprint */
  HkpServer      *server;
  PadlockKeyring *keyring;
} Fixture;

static void
fixture_set_up (Fixture *f, gconstpointer data)
{
  g_autoptr (GBytes) armor = NULL;
  g_autofree char *text = NULL;

  f->bob_home = tg_home_new ();
  f->home = tg_home_new ();
  f->bob = tg_gen_encryption_key (f->bob_home, BOB, "ed25519", "cv25519",
                                  "never", NULL);
  g_assert_cmpint (tg_gpg (f->bob_home, NULL, NULL, &armor, "--armor",
                           "--export", f->bob, NULL), ==, 0);
  text = g_strndup (g_bytes_get_data (armor, NULL), g_bytes_get_size (armor));
  f->server = hkp_server_new ();
  hkp_server_add (f->server, f->bob, BOB_EMAIL, text);
  tg_home_use_keyserver (f->home, f->server);
  f->keyring = padlock_keyring_new (f->home->dir);
  at_wait_keyring_loaded (f->keyring, WAIT_MS);
}

static void
fixture_tear_down (Fixture *f, gconstpointer data)
{
  at_keyring_release (&f->keyring);
  g_clear_pointer (&f->bob_home, tg_home_free);
  g_clear_pointer (&f->home, tg_home_free);
  g_clear_pointer (&f->server, hkp_server_free);
  g_free (f->bob);
}

/* Whether the user's gpg --list-keys lists FPR. */
static gboolean
gpg_lists (Fixture *f, const char *fpr)
{
  return tg_gpg (f->home, NULL, NULL, NULL, "--with-colons", "--list-keys",
                 fpr, NULL) == 0;
}

/* Looks QUERY up, cancelling CANCELLABLE once the server was asked when
 * it is not NULL; the seconds it took in *SECONDS. */
static PadlockLookupResult *
look_up (Fixture *f, const char *query, GCancellable *cancellable,
         double *seconds, GError **error)
{
  g_autoptr (GAsyncResult) result = NULL;
  gint64 start = g_get_monotonic_time ();

  padlock_lookup_async (f->home->dir, query, cancellable, at_on_result, &result);
  if (cancellable)
    {
      while (!hkp_server_requests (f->server) && !result)
        g_main_context_iteration (NULL, TRUE);
      start = g_get_monotonic_time ();
      g_cancellable_cancel (cancellable);
    }
  g_assert_true (at_wait_until (at_has_result, &result, WAIT_MS));
  *seconds = (g_get_monotonic_time () - start) / (double) G_USEC_PER_SEC;
  return padlock_lookup_finish (result, error);
}

static void
assert_found_bob (Fixture *f, PadlockLookupResult *found)
{
  PadlockLookupKey *key;

  g_assert_nonnull (found);
  g_assert_cmpuint (found->keys->len, ==, 1);
  key = found->keys->pdata[0];
  g_assert_cmpstr (key->fingerprint, ==, f->bob);
  g_assert_nonnull (key->user_ids);
  g_assert_cmpstr (key->user_ids[0], ==, BOB);
  g_assert_cmpstr (key->algorithm, ==, "ed25519");
  g_assert_cmpint (key->created, >, 0);
  g_assert_cmpuint (g_bytes_get_size (found->data), >, 0);
}

static gboolean
keyring_has_bob (gpointer data)
{
  Fixture *f = data;

  return padlock_keyring_find_key (f->keyring, f->bob, FALSE, NULL) != NULL;
}

/* The user's click: Bob's certificate goes into the keyring. */
static void
import_found (Fixture *f, PadlockLookupResult *found)
{
  g_autoptr (GAsyncResult) result = NULL;
  g_autoptr (PadlockKeyringImport) import = NULL;
  g_autoptr (GError) error = NULL;
  g_autofree char *said = NULL;

  padlock_keyring_import_bytes_async (f->keyring, found->data, NULL,
                                      at_on_result, &result);
  g_assert_true (at_wait_until (at_has_result, &result, WAIT_MS));
  import = padlock_keyring_import_finish (f->keyring, result, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (g_strv_length (import->new_fingerprints), ==, 1);
  g_assert_cmpstr (import->new_fingerprints[0], ==, f->bob);
  said = padlock_keyring_import_describe (import);
  /* Names are isolated (padlock_name_display), as everywhere they are shown. */
  g_assert_cmpstr (said, ==, "Added \u2068" BOB "\u2069.");
  g_assert_true (gpg_lists (f, f->bob));
  g_assert_true (at_wait_until (keyring_has_bob, f, WAIT_MS));
}

/* By address: WKD finds nothing, the keyserver finds Bob; nothing is
 * imported until asked, then Bob is. */
static void
test_by_address (Fixture *f, gconstpointer data)
{
  g_autoptr (PadlockLookupResult) found = NULL;
  g_autoptr (GError) error = NULL;
  g_autofree char *search = NULL;
  double seconds;

  g_assert_false (gpg_lists (f, f->bob));
  found = look_up (f, " " BOB_EMAIL " ", NULL, &seconds, &error);
  g_assert_no_error (error);
  g_test_message ("found by address in %.2f s", seconds);
  g_assert_cmpfloat (seconds, <, PADLOCK_LOOKUP_TIMEOUT);
  assert_found_bob (f, found);
  search = hkp_server_last_search (f->server);
  g_assert_cmpstr (search, ==, BOB_EMAIL);
  g_assert_false (gpg_lists (f, f->bob));
  g_assert_false (keyring_has_bob (f));
  import_found (f, found);
}

/* By fingerprint, as the app shows it (groups of four): the keyserver
 * alone is asked, with 0x and the fingerprint. */
static void
test_by_fingerprint (Fixture *f, gconstpointer data)
{
  g_autoptr (PadlockLookupResult) found = NULL;
  g_autoptr (GError) error = NULL;
  g_autofree char *grouped = padlock_fingerprint_grouped (f->bob);
  g_autofree char *search = NULL;
  g_autofree char *expected = g_strconcat ("0x", f->bob, NULL);
  double seconds;

  found = look_up (f, grouped, NULL, &seconds, &error);
  g_assert_no_error (error);
  g_test_message ("found by fingerprint in %.2f s", seconds);
  assert_found_bob (f, found);
  search = hkp_server_last_search (f->server);
  g_assert_cmpstr (search, ==, expected);
  g_assert_cmpuint (hkp_server_requests (f->server), ==, 1);
  g_assert_false (gpg_lists (f, f->bob));
  import_found (f, found);
}

/* What "Import This Key" takes out of FOUND (two keys, as found): the
 * second key's certificate alone, or an error that says why not. */
static void
assert_key_data (PadlockLookupResult *found)
{
  g_autoptr (GBytes) fetched = g_bytes_ref (found->data);
  g_autoptr (GError) error = NULL;
  GBytes *one = padlock_lookup_result_key_data (found, 1, &error);

  g_assert_no_error (error);
  g_assert_nonnull (one);
  g_assert_cmpuint (g_bytes_get_size (one), <, g_bytes_get_size (fetched));

  /* In those octets alone the second key is found again and the first
   * is not: importing them imports nothing of it.  Data where the core
   * does not find a listed key (one of an algorithm it does not read)
   * leave importing them all as the only way, and the error says so. */
  g_bytes_unref (found->data);
  found->data = one;
  g_bytes_unref (padlock_lookup_result_key_data (found, 1, &error));
  g_assert_no_error (error);
  g_assert_null (padlock_lookup_result_key_data (found, 0, &error));
  g_assert_error (error, PADLOCK_ERROR, PADLOCK_ERROR_OTHER);
  g_assert_nonnull (strstr (error->message, "import all of them instead"));
  g_clear_error (&error);

  /* Data the core cannot read at all: its reader's error. */
  g_bytes_unref (found->data);
  found->data = g_bytes_new_static ("\x99\x00\x05garbage", 10);
  g_assert_null (padlock_lookup_result_key_data (found, 0, &error));
  g_assert_nonnull (error);
  g_test_message ("unreadable data: %s", error->message);
  g_clear_error (&error);

  g_bytes_unref (found->data);
  found->data = g_steal_pointer (&fetched);
}

/* Two keys for one address (Mallory made one with Bob's name): both are
 * listed, each with its own fingerprint, and neither is imported. */
static void
test_two_keys (Fixture *f, gconstpointer data)
{
  g_autoptr (TgHome) mallory_home = tg_home_new ();
  g_autofree char *mallory = tg_gen_encryption_key (mallory_home, BOB, "ed25519",
                                                    "cv25519", "never", NULL);
  g_autoptr (GBytes) bob_armor = NULL;
  g_autoptr (GBytes) mallory_armor = NULL;
  g_autoptr (PadlockLookupResult) found = NULL;
  g_autoptr (GError) error = NULL;
  g_autofree char *both = NULL;
  double seconds;

  g_assert_cmpint (tg_gpg (f->bob_home, NULL, NULL, &bob_armor, "--armor",
                           "--export", f->bob, NULL), ==, 0);
  g_assert_cmpint (tg_gpg (mallory_home, NULL, NULL, &mallory_armor, "--armor",
                           "--export", mallory, NULL), ==, 0);
  both = g_strdup_printf ("%.*s%.*s", (int) g_bytes_get_size (bob_armor),
                          (const char *) g_bytes_get_data (bob_armor, NULL),
                          (int) g_bytes_get_size (mallory_armor),
                          (const char *) g_bytes_get_data (mallory_armor, NULL));
  hkp_server_add (f->server, mallory, BOB_EMAIL, both);
  found = look_up (f, BOB_EMAIL, NULL, &seconds, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (found->keys->len, ==, 2);
  g_assert_cmpstr (((PadlockLookupKey *) found->keys->pdata[0])->fingerprint, ==, f->bob);
  g_assert_cmpstr (((PadlockLookupKey *) found->keys->pdata[1])->fingerprint, ==, mallory);
  g_assert_cmpstr (((PadlockLookupKey *) found->keys->pdata[1])->user_ids[0], ==, BOB);
  g_assert_false (gpg_lists (f, f->bob));
  g_assert_false (gpg_lists (f, mallory));
  assert_key_data (found);
}


/* An address nobody published: one line, soon. */
static void
test_not_found (Fixture *f, gconstpointer data)
{
  g_autoptr (PadlockLookupResult) found = NULL;
  g_autoptr (GError) error = NULL;
  double seconds;

  found = look_up (f, "nobody@example.invalid", NULL, &seconds, &error);
  g_assert_null (found);
  g_assert_error (error, G_IO_ERROR, G_IO_ERROR_NOT_FOUND);
  g_assert_cmpstr (error->message, ==, "No key found for nobody@example.invalid.");
  g_test_message ("not found in %.2f s", seconds);
  g_assert_cmpfloat (seconds, <, PADLOCK_LOOKUP_TIMEOUT);
  g_assert_cmpuint (hkp_server_requests (f->server), ==, 1);
}

/* A keyserver that takes the request and never answers: the lookup
 * ends with its timeout, not dirmngr's (which is longer). */
static void
test_timeout (Fixture *f, gconstpointer data)
{
  g_autoptr (PadlockLookupResult) found = NULL;
  g_autoptr (GError) error = NULL;
  double seconds;

  hkp_server_set_hang (f->server, TRUE);
  found = look_up (f, f->bob, NULL, &seconds, &error);
  g_assert_null (found);
  g_assert_error (error, G_IO_ERROR, G_IO_ERROR_TIMED_OUT);
  g_assert_null (strchr (error->message, '\n'));
  g_test_message ("timed out after %.2f s: %s", seconds, error->message);
  g_assert_cmpfloat (seconds, >=, PADLOCK_LOOKUP_TIMEOUT - 0.5);
  g_assert_cmpfloat (seconds, <, PADLOCK_LOOKUP_TIMEOUT + 2);
  g_assert_cmpuint (hkp_server_requests (f->server), ==, 1);
  g_assert_false (gpg_lists (f, f->bob));
}

/* No keyserver listening (a server that is down, a machine offline
 * behind a router that refuses): one line, soon, and not "not found". */
static void
test_refused (Fixture *f, gconstpointer data)
{
  g_autoptr (PadlockLookupResult) found = NULL;
  g_autoptr (GError) error = NULL;
  double seconds;

  g_clear_pointer (&f->server, hkp_server_free);
  found = look_up (f, f->bob, NULL, &seconds, &error);
  g_assert_null (found);
  g_assert_error (error, G_IO_ERROR, G_IO_ERROR_HOST_UNREACHABLE);
  g_assert_true (g_str_has_prefix (error->message, "The key server could not be "
                                                   "reached: are you offline? ("));
  g_assert_null (strchr (error->message, '\n'));
  g_test_message ("refused in %.2f s: %s", seconds, error->message);
  g_assert_cmpfloat (seconds, <, PADLOCK_LOOKUP_TIMEOUT);
}

/* Cancelled while the keyserver is being asked: it ends at once. */
static void
test_cancel (Fixture *f, gconstpointer data)
{
  g_autoptr (GCancellable) cancellable = g_cancellable_new ();
  g_autoptr (PadlockLookupResult) found = NULL;
  g_autoptr (GError) error = NULL;
  double seconds;

  hkp_server_set_hang (f->server, TRUE);
  found = look_up (f, BOB_EMAIL, cancellable, &seconds, &error);
  g_assert_null (found);
  g_assert_error (error, G_IO_ERROR, G_IO_ERROR_CANCELLED);
  g_test_message ("cancelled in %.3f s", seconds);
  g_assert_cmpfloat (seconds, <, 0.5);
}

/* The pids of the dirmngrs that run for HOME. */
static guint
dirmngrs_of (TgHome *home)
{
  g_autoptr (GDir) proc = g_dir_open ("/proc", 0, NULL);
  const char *name;
  guint n = 0;

  while ((name = g_dir_read_name (proc)))
    {
      g_autofree char *path = g_build_filename ("/proc", name, "cmdline", NULL);
      g_autofree char *args = NULL;
      gsize len = 0;

      if (!g_ascii_isdigit (name[0])
          || !g_file_get_contents (path, &args, &len, NULL) || !len
          || !g_str_has_suffix (args, "dirmngr"))
        continue;
      for (const char *arg = args; arg < args + len; arg += strlen (arg) + 1)
        if (!strcmp (arg, home->dir))
          n++;
    }
  return n;
}

static gboolean
no_dirmngr (gpointer home)
{
  return dirmngrs_of (home) == 0;
}

/* The lookup started the home's dirmngr; freeing the home stops it. */
static void
test_dirmngr_stopped (Fixture *f, gconstpointer data)
{
  g_autoptr (PadlockLookupResult) found = NULL;
  g_autoptr (GError) error = NULL;
  TgHome *kept;
  double seconds;

  found = look_up (f, f->bob, NULL, &seconds, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (dirmngrs_of (f->home), ==, 1);
  at_keyring_release (&f->keyring);
  kept = g_new0 (TgHome, 1);
  kept->dir = g_strdup (f->home->dir);
  g_clear_pointer (&f->home, tg_home_free);
  g_assert_true (at_wait_until (no_dirmngr, kept, 5000));
  g_free (kept->dir);
  g_free (kept);
}

/* What the search fields offer to look up. */
static void
test_queries (void)
{
  g_assert_true (padlock_lookup_is_address ("bob@example.org"));
  g_assert_true (padlock_lookup_is_address ("Bob.Smith+x@mail.example.org"));
  g_assert_false (padlock_lookup_is_address ("bob"));
  g_assert_false (padlock_lookup_is_address ("bob@"));
  g_assert_false (padlock_lookup_is_address ("@example.org"));
  g_assert_false (padlock_lookup_is_address ("bob@example"));
  g_assert_false (padlock_lookup_is_address ("bob@example."));
  g_assert_false (padlock_lookup_is_address ("bob@@example.org"));
  g_assert_false (padlock_lookup_is_address ("Bob <bob@example.invalid>"));
  g_assert_true (padlock_lookup_is_fingerprint ("0x0123456789ABCDEF"));
  g_assert_true (padlock_lookup_is_fingerprint ("0123 4567 89ab cdef 0123  4567 89AB CDEF 0123 4567"));
  g_assert_false (padlock_lookup_is_fingerprint ("0123456789ABCDE"));
  g_assert_false (padlock_lookup_is_fingerprint ("bob@example.invalid"));
  g_assert_false (padlock_lookup_is_fingerprint ("cafe"));
  g_assert_false (padlock_lookup_is_fingerprint (""));
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/lookup/queries", test_queries);
  g_test_add ("/lookup/by-address", Fixture, NULL, fixture_set_up,
              test_by_address, fixture_tear_down);
  g_test_add ("/lookup/by-fingerprint", Fixture, NULL, fixture_set_up,
              test_by_fingerprint, fixture_tear_down);
  g_test_add ("/lookup/two-keys", Fixture, NULL, fixture_set_up,
              test_two_keys, fixture_tear_down);
  g_test_add ("/lookup/not-found", Fixture, NULL, fixture_set_up,
              test_not_found, fixture_tear_down);
  g_test_add ("/lookup/timeout", Fixture, NULL, fixture_set_up,
              test_timeout, fixture_tear_down);
  g_test_add ("/lookup/refused", Fixture, NULL, fixture_set_up,
              test_refused, fixture_tear_down);
  g_test_add ("/lookup/cancel", Fixture, NULL, fixture_set_up,
              test_cancel, fixture_tear_down);
  g_test_add ("/lookup/dirmngr-stopped", Fixture, NULL, fixture_set_up,
              test_dirmngr_stopped, fixture_tear_down);
  return g_test_run ();
}
