/* test-app-rates.c - the header's rate against the rows' (issue 37 §1),
 * in a real window with a real GnuPG home: one job of each kind
 * (passphrase, public-key signed, decryption, detached signature,
 * folder, checksum list), each started after the window sat idle as it
 * does while the user is in a dialog; while a job moves, the header's
 * rate is the sum of the rows'; and a finished row's rate counts the
 * time data moved, not the time pinentry waited for the user. */
#include <string.h>
#include <glib/gstdio.h>

#include "app-testutil.h"
#include "gnupg-home.h"
#include "padlock-agent.h"
#include "padlock-keyring.h"
#include "padlock-recipients.h"
#include "padlock-signer.h"

#define PASSPHRASE "meadow-cobalt-river-58"
#define KEY_PASSPHRASE "alice-key-lantern-9"
#define TIMEOUT_MS (300 * 1000)
#define BIG (512 * 1024 * 1024)

static TgHome *home;
static char *alice_fpr, *bob_fpr;

/* The sum of the rates the rows show of the jobs that move. */
static double
rows_rate (PadlockQueue *queue)
{
  double sum = 0;

  for (guint i = 0; i < g_list_model_get_n_items (G_LIST_MODEL (queue)); i++)
    {
      g_autoptr(PadlockJob) job = g_list_model_get_item (G_LIST_MODEL (queue), i);
      PadlockJobState state = padlock_job_get_state (job);

      if (state == PADLOCK_JOB_RUNNING || state == PADLOCK_JOB_CHECKING_OUTPUT)
        sum += padlock_job_get_throughput (job);
    }
  return sum;
}

/* Sits idle for longer than the rates' window (the user in a dialog),
 * then runs JOB in WINDOW, comparing the header with the rows every
 * 100 ms while a row shows a rate; the comparisons made. */
static guint
run_and_compare (PadlockWindow *window,
                 PadlockJob    *job,
                 const char    *kind)
{
  guint compared = 0;

  at_settle (2500);
  padlock_queue_add (window->queue, job);
  while (!padlock_job_is_finished (job))
    {
      double rows, header;

      at_settle (100);
      rows = rows_rate (window->queue);
      header = padlock_queue_get_throughput (window->queue);
      if (rows <= 0 || padlock_job_is_finished (job))
        continue;
      g_test_message ("%s: header %.1f MB/s, rows %.1f MB/s", kind,
                      header / 1e6, rows / 1e6);
      /* The same figure, up to the tick between the two reads. */
      g_assert_cmpfloat (header, >=, rows * 0.8);
      g_assert_cmpfloat (header, <=, rows * 1.25);
      compared++;
    }
  g_assert_no_error (padlock_job_get_error (job));
  g_assert_cmpint (padlock_job_get_state (job), ==, PADLOCK_JOB_DONE);
  g_test_message ("%s: %u comparisons, done at %.1f MB/s", kind, compared,
                  padlock_job_get_throughput (job) / 1e6);
  return compared;
}

static PadlockJob *
new_job (const char *path, PadlockDirection direction)
{
  g_autoptr(GFile) file = g_file_new_for_path (path);
  PadlockJobConfig config = { 0 };

  return padlock_job_new (file, direction, &config);
}

static gboolean
is_waiting (gpointer data)
{
  const char *detail = padlock_job_get_detail (data);

  return detail && g_str_has_prefix (detail, "Waiting for the passphrase");
}

/* Issue 37 §1: every kind of job, the header against the rows. */
static void
test_header_is_rows (void)
{
  g_autofree char *dir = tu_new_dir ("rates");
  g_autofree char *big = at_write_random (dir, "big.bin", BIG);
  g_autofree char *folder = g_build_filename (dir, "Folder", NULL);
  g_autofree char *in_folder = g_build_filename (folder, "big.bin", NULL);
  g_autofree char *sealed = g_build_filename (dir, "big.bin.gpg", NULL);
  g_autofree char *decrypt_dir = g_build_filename (dir, "out", NULL);
  g_autofree char *sealed2 = g_build_filename (decrypt_dir, "big.bin.gpg", NULL);
  g_autoptr(PadlockKeyring) keyring = padlock_keyring_new (home->dir);
  g_autoptr(PadlockAgent) agent = padlock_agent_new (home->dir);
  g_autoptr(PadlockSecret) secret = padlock_secret_new (PASSPHRASE);
  g_autoptr(PadlockKey) alice = NULL;
  PadlockKey *bob = NULL;           /* the keyring's */
  g_autoptr(PadlockRecipients) recipients = NULL;
  g_autoptr(GError) error = NULL;
  PadlockWindow *window = at_new_window ();
  guint compared = 0;
  PadlockJob *job;

  g_assert_true (at_wait_until (at_keyring_loaded, keyring, TIMEOUT_MS));
  alice = padlock_signer_choose_key (keyring, "alice@example.org");
  g_assert_nonnull (alice);
  bob = at_key_of (keyring, bob_fpr);
  recipients = padlock_recipients_new (home->dir, &bob, 1, NULL, FALSE, -1);
  padlock_queue_set_max_running (window->queue, 1);
  tg_home_set_pinentry (home, KEY_PASSPHRASE);

  /* A passphrase. */
  job = new_job (big, PADLOCK_DIRECTION_ENCRYPT);
  padlock_job_set_secret (job, secret);
  compared += run_and_compare (window, job, "passphrase");
  g_object_unref (job);
  /* Its output decrypted, from a folder of its own. */
  g_assert_cmpint (g_mkdir (decrypt_dir, 0755), ==, 0);
  g_assert_cmpint (g_rename (sealed, sealed2), ==, 0);
  job = new_job (sealed2, PADLOCK_DIRECTION_DECRYPT);
  padlock_job_set_secret (job, secret);
  compared += run_and_compare (window, job, "decryption");
  g_object_unref (job);
  /* To Bob, signed as Alice. */
  job = new_job (big, PADLOCK_DIRECTION_ENCRYPT);
  padlock_job_set_recipients (job, recipients);
  padlock_job_set_signing_key (job, alice, agent, home->dir);
  compared += run_and_compare (window, job, "public key, signed");
  g_object_unref (job);
  /* A detached signature. */
  job = new_job (big, PADLOCK_DIRECTION_SIGN);
  padlock_job_set_signing_key (job, alice, agent, home->dir);
  compared += run_and_compare (window, job, "detached signature");
  g_object_unref (job);
  /* A folder. */
  g_assert_cmpint (g_mkdir (folder, 0755), ==, 0);
  g_assert_cmpint (link (big, in_folder), ==, 0);
  job = new_job (folder, PADLOCK_DIRECTION_ENCRYPT);
  padlock_job_set_secret (job, secret);
  compared += run_and_compare (window, job, "folder");
  g_object_unref (job);
  /* A checksum list. */
  {
    g_autoptr(GFile) file = g_file_new_for_path (in_folder);
    PadlockJobConfig config = { 0 };

    job = padlock_job_new_checksum_list (&file, 1, &config, &error);
    g_assert_no_error (error);
    padlock_job_set_signing_key (job, alice, agent, home->dir);
    compared += run_and_compare (window, job, "checksum list");
    g_object_unref (job);
  }
  /* Rows of every kind showed rates that were compared. */
  g_assert_cmpuint (compared, >=, 6);
  at_close_window (window);
}

/* Issue 37 §1: the user takes 2 s to answer pinentry for the signing
 * key at the end of an encryption; the finished row's rate is of the
 * time the data moved. */
static void
test_finished_rate_leaves_out_pinentry (void)
{
  g_autofree char *dir = tu_new_dir ("rates-wait");
  g_autofree char *big = at_write_random (dir, "big.bin", BIG);
  g_autoptr(PadlockKeyring) keyring = padlock_keyring_new (home->dir);
  g_autoptr(PadlockAgent) agent = padlock_agent_new (home->dir);
  g_autoptr(PadlockKey) alice = NULL;
  PadlockKey *bob = NULL;           /* the keyring's */
  g_autoptr(PadlockRecipients) recipients = NULL;
  g_autoptr(PadlockQueue) queue = padlock_queue_new ();
  g_autoptr(PadlockJob) job = new_job (big, PADLOCK_DIRECTION_ENCRYPT);
  const gint64 wait_us = 2 * G_USEC_PER_SEC;
  gint64 start, waited, end;
  double moved_rate;

  g_assert_true (at_wait_until (at_keyring_loaded, keyring, TIMEOUT_MS));
  alice = padlock_signer_choose_key (keyring, "alice@example.org");
  bob = at_key_of (keyring, bob_fpr);
  recipients = padlock_recipients_new (home->dir, &bob, 1, NULL, FALSE, -1);
  padlock_job_set_recipients (job, recipients);
  padlock_job_set_signing_key (job, alice, agent, home->dir);
  tg_gpgconf (home, "--reload", "gpg-agent");
  tg_home_set_pinentry (home, "hang:" KEY_PASSPHRASE);
  start = g_get_monotonic_time ();
  padlock_queue_add (queue, job);
  g_assert_true (at_wait_until (is_waiting, job, TIMEOUT_MS));
  waited = g_get_monotonic_time ();
  at_settle (wait_us / 1000);
  tg_home_release_pinentry (home);
  g_assert_true (at_wait_until (at_job_is_finished, job, TIMEOUT_MS));
  end = g_get_monotonic_time ();
  g_assert_no_error (padlock_job_get_error (job));
  /* Pinentry said what the passphrase was for (issue 37 §4). */
  {
    g_autofree char *log_path = tg_home_path (home, "pinentry.log");
    g_autofree char *log = NULL;

    g_assert_true (g_file_get_contents (log_path, &log, NULL, NULL));
    g_assert_nonnull (strstr (log, "to sign “big.bin”"));
    g_assert_null (strstr (log, "to open “big.bin”"));
  }
  /* Pinentry was up at WAITED and WAIT_US after: the data moved in
   * less than the rest of the time. */
  g_assert_cmpint (end - waited, >, wait_us);
  moved_rate = BIG * (double) G_USEC_PER_SEC / (end - start - wait_us);
  g_test_message ("row %.1f MB/s; %.1f s in all, of which %.1f s waiting; "
                  "the data's rate at least %.1f MB/s",
                  padlock_job_get_throughput (job) / 1e6, (end - start) / 1e6,
                  wait_us / 1e6, moved_rate / 1e6);
  g_assert_cmpfloat (padlock_job_get_throughput (job), >=, moved_rate * 0.95);
  tg_home_set_pinentry (home, KEY_PASSPHRASE);
}

int
main (int argc, char **argv)
{
  int status;

  g_setenv ("GTK_A11Y", "atspi", TRUE);
  tu_init (&argc, &argv);
  home = tg_home_new ();
  alice_fpr = tg_gen_key (home, "Alice <alice@example.org>", "ed25519",
                          "cert,sign", "never", KEY_PASSPHRASE, NULL);
  bob_fpr = tg_gen_encryption_key (home, "Bob <bob@example.org>", "ed25519",
                                   "cv25519", "never", NULL);
  g_setenv ("GNUPGHOME", home->dir, TRUE);
  at_application ();
  g_test_add_func ("/rates/header-is-rows", test_header_is_rows);
  g_test_add_func ("/rates/finished-leaves-out-pinentry",
                   test_finished_rate_leaves_out_pinentry);
  status = g_test_run ();
  g_clear_pointer (&home, tg_home_free);
  return status;
}
