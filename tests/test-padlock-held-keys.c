/* test-padlock-held-keys.c - decryption jobs with the user's GnuPG keys: what
 * `gpg -e -r` made opens through a real gpg-agent (padlock-held-keys.h),
 * in a job as the window runs it and in `padlock --batch`
 */
#include <string.h>
#include <glib/gstdio.h>

#include "app-testutil.h"
#include "gnupg-home.h"
#include "padlock-agent.h"
#include "padlock-error.h"
#include "padlock-held-keys.h"
#include "padlock-job.h"
#include "padlock-keyring.h"
#include "padlock-queue.h"
#include "testutil.h"

#define PASSPHRASE "carol's key pass"
#define SKESK_PASSPHRASE "a passphrase for the file"
#define DAVE_PASSPHRASE "dave's own pass"
#define WAIT_MS 120000

static TgHome *home;            /* Alice's (three subkeys) and Carol's */
static TgHome *others_home;     /* no secret key: Bob's certificate only */
static TgHome *bob_home;        /* Bob's secret key; his certificate is
                                 * in HOME too */
static char *alice_subs[3];     /* rsa3072, cv25519, nistp256 */
static const char *const sub_names[3] = { "rsa3072", "cv25519", "nistp256" };
static char *carol_fpr;
static char *dave_fpr;          /* protected too, nistp256 as Carol */
static char *bob_fpr;
static char *erin_fpr;          /* Bob's colleague, not mine either */

/* The fingerprints of FPR's subkeys after the primary, in gpg's order. */
static GStrv
subkey_fingerprints (TgHome *h, const char *fpr)
{
  g_autoptr(GBytes) out = NULL;
  g_auto(GStrv) lines = NULL;
  GPtrArray *fprs = g_ptr_array_new ();
  gboolean primary_seen = FALSE;

  g_assert_cmpint (tg_gpg (h, NULL, NULL, &out, "--with-colons",
                           "--list-keys", fpr, NULL), ==, 0);
  lines = g_strsplit (g_bytes_get_data (out, NULL), "\n", -1);
  for (guint i = 0; lines[i]; i++)
    if (g_str_has_prefix (lines[i], "fpr:"))
      {
        g_auto(GStrv) f = g_strsplit (lines[i], ":", -1);
        if (primary_seen)
          g_ptr_array_add (fprs, g_strdup (f[9]));
        primary_seen = TRUE;
      }
  g_ptr_array_add (fprs, NULL);
  return (GStrv) g_ptr_array_free (fprs, FALSE);
}

static void
make_keys (void)
{
  g_auto(GStrv) subs = NULL;
  char *alice;

  home = tg_home_new ();
  alice = tg_gen_key (home, "Alice <alice@example.org>", "rsa3072",
                      "cert,sign", "never", "", NULL);
  for (guint i = 0; i < 3; i++)
    tg_add_key (home, alice, sub_names[i], "encr", "never", "", NULL);
  subs = subkey_fingerprints (home, alice);
  g_assert_cmpuint (g_strv_length (subs), ==, 3);
  for (guint i = 0; i < 3; i++)
    alice_subs[i] = g_strdup (subs[i]);
  g_free (alice);
  carol_fpr = tg_gen_key (home, "Carol <carol@example.org>", "nistp256",
                          "cert,sign", "never", PASSPHRASE, NULL);
  tg_add_key (home, carol_fpr, "nistp256", "encr", "never", PASSPHRASE, NULL);
  dave_fpr = tg_gen_key (home, "Dave <dave@example.org>", "nistp256",
                         "cert,sign", "never", DAVE_PASSPHRASE, NULL);
  tg_add_key (home, dave_fpr, "nistp256", "encr", "never", DAVE_PASSPHRASE,
              NULL);

  bob_home = tg_home_new ();
  bob_fpr = tg_gen_key (bob_home, "Bob <bob@example.org>", "rsa3072",
                        "cert,sign", "never", "", NULL);
  tg_add_key (bob_home, bob_fpr, "rsa3072", "encr", "never", "", NULL);
  tg_import_cert (home, bob_home, bob_fpr);
  others_home = tg_home_new ();
  tg_import_cert (others_home, bob_home, bob_fpr);
  erin_fpr = tg_gen_key (bob_home, "Erin <erin@example.org>", "ed25519",
                         "cert,sign", "never", "", NULL);
  tg_add_key (bob_home, erin_fpr, "cv25519", "encr", "never", "", NULL);
  tg_import_cert (home, bob_home, erin_fpr);
  /* Bob's agent is not needed again. */
  tg_gpgconf (bob_home, "--kill", "gpg-agent");
}

/* A file NAME.gpg in DIR holding TEXT, encrypted by gpg to R1 (and R2
 * when not NULL; "FPR!" for that subkey), also with SKESK_PASSPHRASE
 * when SYMMETRIC; returns its path. */
static char *
gpg_encrypt (const char *dir, const char *name, const char *text,
             gboolean symmetric, const char *r1, const char *r2)
{
  return tg_encrypt_file (home, dir, name, text,
                          symmetric ? SKESK_PASSPHRASE : NULL, r1, r2);
}

/* The holder of HOME's keys, as the window and --batch make it. */
static PadlockHeldKeys *
new_holder (void)
{
  g_autoptr(PadlockKeyring) keyring = padlock_keyring_new (home->dir);
  g_autoptr(PadlockAgent) agent = padlock_agent_new (home->dir);

  g_assert_true (at_wait_until (at_keyring_loaded, keyring, WAIT_MS));
  g_assert_cmpint (padlock_keyring_get_state (keyring), ==,
                   PADLOCK_KEYRING_READY);
  return padlock_held_keys_new (keyring, agent);
}

/* Decrypts PATH in a job with HOLDER (and PASSPHRASE when not NULL);
 * returns the finished job. */
static PadlockJob *
decrypt (PadlockQueue *queue, PadlockHeldKeys *holder, const char *path,
         const char *passphrase)
{
  g_autoptr(GFile) file = g_file_new_for_path (path);
  PadlockJobConfig config = { 0 };
  PadlockJob *job = padlock_job_new (file, PADLOCK_DIRECTION_DECRYPT, &config);

  padlock_job_set_held_keys (job, holder);
  if (passphrase)
    {
      g_autoptr(PadlockSecret) secret = padlock_secret_new (passphrase);
      padlock_job_set_secret (job, secret);
    }
  padlock_queue_add (queue, job);
  return job;
}

/* gpg -e -r SUBKEY! for each of Alice's subkeys: the job opens it with
 * no passphrase, through the agent. */
static void
test_gpg_to_subkey (gconstpointer data)
{
  guint i = GPOINTER_TO_UINT (data);
  g_autofree char *dir = tu_new_dir ("keys-subkey");
  g_autofree char *r = g_strconcat (alice_subs[i], "!", NULL);
  g_autofree char *text = g_strdup_printf ("for Alice's %s subkey\n",
                                           sub_names[i]);
  g_autofree char *path = gpg_encrypt (dir, "note.txt", text, FALSE, r, NULL);
  g_autoptr(PadlockHeldKeys) holder = new_holder ();
  g_autoptr(PadlockQueue) queue = padlock_queue_new ();
  g_autoptr(PadlockJob) job = decrypt (queue, holder, path, NULL);

  g_assert_true (at_wait_queue_idle (queue, WAIT_MS));
  at_assert_opened (job, dir, "note.txt", text);
}

/* gpg --throw-keyids: the PKESK names nobody, and each secret subkey of
 * its algorithm is tried until one opens it. */
static void
test_anonymous (void)
{
  g_autofree char *dir = tu_new_dir ("keys-anonymous");
  g_autofree char *r = g_strconcat (alice_subs[2], "!", NULL);
  g_autofree char *plain = g_build_filename (dir, "anon.txt", NULL);
  g_autofree char *path = g_strconcat (plain, ".gpg", NULL);
  g_autoptr(GBytes) in = g_bytes_new_static ("nobody named\n", 13);
  g_autoptr(GBytes) sealed = NULL;
  g_autoptr(PadlockHeldKeys) holder = new_holder ();
  g_autoptr(PadlockQueue) queue = padlock_queue_new ();
  g_autoptr(PadlockJob) job = NULL;

  g_assert_cmpint (tg_gpg (home, NULL, in, &sealed, "--trust-model", "always",
                           "--throw-keyids", "--set-filename", "anon.txt",
                           "--output", "-", "-e", "-r", r, NULL), ==, 0);
  g_assert_true (g_file_set_contents (path, g_bytes_get_data (sealed, NULL),
                                      g_bytes_get_size (sealed), NULL));
  /* Carol's protected nistp256 key may be tried too: it does not open
   * it, whatever passphrase is given. */
  tg_home_set_pinentry (home, PASSPHRASE);
  job = decrypt (queue, holder, path, NULL);
  g_assert_true (at_wait_queue_idle (queue, WAIT_MS));
  at_assert_opened (job, dir, "anon.txt", "nobody named\n");
}

/* Carol's key is protected: pinentry asks once, and the agent's cache
 * opens a second file without asking again. */
static void
test_protected_asked_once (void)
{
  g_autofree char *dir = tu_new_dir ("keys-protected");
  g_autofree char *one = gpg_encrypt (dir, "one.txt", "first\n", FALSE,
                                      carol_fpr, NULL);
  g_autofree char *two = gpg_encrypt (dir, "two.txt", "second\n", FALSE,
                                      carol_fpr, NULL);
  g_autoptr(PadlockHeldKeys) holder = new_holder ();
  g_autoptr(PadlockQueue) queue = padlock_queue_new ();
  g_autoptr(PadlockJob) first = NULL;
  g_autoptr(PadlockJob) second = NULL;
  guint asked;

  tg_gpgconf (home, "--reload", "gpg-agent");
  tg_home_set_pinentry (home, PASSPHRASE);
  asked = tg_home_pinentry_count (home);
  first = decrypt (queue, holder, one, NULL);
  g_assert_true (at_wait_queue_idle (queue, WAIT_MS));
  at_assert_opened (first, dir, "one.txt", "first\n");
  g_assert_cmpuint (tg_home_pinentry_count (home), ==, asked + 1);
  second = decrypt (queue, holder, two, NULL);
  g_assert_true (at_wait_queue_idle (queue, WAIT_MS));
  at_assert_opened (second, dir, "two.txt", "second\n");
  g_assert_cmpuint (tg_home_pinentry_count (home), ==, asked + 1);
}

/* Sixteen files for Carol's protected key, eight jobs at once, her
 * passphrase not cached: one pinentry for all (the holder's turn: the
 * first job asks, the others wait for the agent's cache). */
static void
test_concurrent_asked_once (void)
{
  g_autofree char *dir = tu_new_dir ("keys-concurrent");
  g_autoptr(PadlockHeldKeys) holder = new_holder ();
  g_autoptr(PadlockQueue) queue = padlock_queue_new ();
  g_autoptr(GPtrArray) jobs = g_ptr_array_new_with_free_func (g_object_unref);
  guint asked;

  padlock_queue_set_max_running (queue, 8);
  for (guint i = 0; i < 16; i++)
    {
      g_autofree char *name = g_strdup_printf ("c%u.txt", i);
      g_autofree char *path = gpg_encrypt (dir, name, "at once\n", FALSE,
                                           carol_fpr, NULL);
      (void) path;
    }
  tg_gpgconf (home, "--reload", "gpg-agent");
  tg_home_set_pinentry (home, PASSPHRASE);
  asked = tg_home_pinentry_count (home);
  for (guint i = 0; i < 16; i++)
    {
      g_autofree char *path = g_strdup_printf ("%s/c%u.txt.gpg", dir, i);
      g_ptr_array_add (jobs, decrypt (queue, holder, path, NULL));
    }
  g_assert_true (at_wait_queue_idle (queue, WAIT_MS));
  for (guint i = 0; i < 16; i++)
    {
      g_autofree char *name = g_strdup_printf ("c%u.txt", i);
      at_assert_opened (jobs->pdata[i], dir, name, "at once\n");
    }
  g_assert_cmpuint (tg_home_pinentry_count (home), ==, asked + 1);
}

static gboolean
is_waiting (gpointer data)
{
  const char *detail = padlock_job_get_detail (data);
  return detail && g_str_has_prefix (detail, "Waiting for the passphrase of "
                                     "Carol <carol@example.org> (0x");
}

/* ANSWER "cancel": pinentry cancelled.  "hang": while pinentry is up the
 * job says whose passphrase it waits for, and the job's own cancel cuts
 * the agent request.  Either way "Cancelled, nothing was written", and
 * nothing is. */
static void
test_cancelled (gconstpointer data)
{
  gboolean anonymous = !strcmp (data, "hang-anonymous");
  const char *answer = anonymous ? "hang" : data;
  g_autofree char *dir = tu_new_dir ("keys-cancel");
  g_autofree char *path = NULL;
  g_autoptr(PadlockHeldKeys) holder = new_holder ();
  g_autoptr(PadlockQueue) queue = padlock_queue_new ();
  g_autoptr(PadlockJob) job = NULL;
  g_autofree char *listing = NULL;

  if (anonymous)
    {
      /* Nobody named: each secret key of the algorithm is tried, and the
       * row names the one whose passphrase is asked for (Carol's, the
       * first protected nistp256 key: Alice's asks nothing and fails). */
      g_autofree char *plain = g_build_filename (dir, "secret.txt", NULL);
      g_autoptr(GBytes) in = g_bytes_new_static ("never\n", 6);
      g_autoptr(GBytes) sealed = NULL;

      path = g_strconcat (plain, ".gpg", NULL);
      g_assert_cmpint (tg_gpg (home, NULL, in, &sealed, "--trust-model",
                               "always", "--throw-keyids", "--set-filename",
                               "secret.txt", "--output", "-", "-e", "-r",
                               carol_fpr, NULL), ==, 0);
      g_assert_true (g_file_set_contents (path, g_bytes_get_data (sealed, NULL),
                                          g_bytes_get_size (sealed), NULL));
    }
  else
    path = gpg_encrypt (dir, "secret.txt", "never\n", FALSE, carol_fpr, NULL);
  tg_gpgconf (home, "--reload", "gpg-agent");
  tg_home_set_pinentry (home, answer);
  job = decrypt (queue, holder, path, NULL);
  if (!strcmp (answer, "hang"))
    {
      g_assert_true (at_wait_until (is_waiting, job, WAIT_MS));
      padlock_job_cancel (job);
    }
  g_assert_true (at_wait_until (at_job_is_finished, job, WAIT_MS));
  if (!strcmp (answer, "hang"))
    tg_home_release_pinentry (home);
  g_assert_error (padlock_job_get_error (job), PADLOCK_ERROR,
                  PADLOCK_ERROR_CANCELLED);
  g_assert_cmpint (padlock_job_get_state (job), ==, PADLOCK_JOB_CANCELLED);
  g_assert_null (padlock_job_get_detail (job));
  listing = tu_list_dir (dir);
  g_assert_cmpstr (listing, ==, "secret.txt.gpg");
  /* GnuPG 2.2's agent keeps a pinentry up until it is answered. */
  tg_gpgconf (home, "--kill", "gpg-agent");
}

/* A message for Bob, whose secret key is not here: the clear error names
 * him, and nothing is written. */
static void
test_not_mine (void)
{
  g_autofree char *dir = tu_new_dir ("keys-not-mine");
  g_autofree char *path = gpg_encrypt (dir, "bob.txt", "for Bob\n", FALSE,
                                       bob_fpr, erin_fpr);
  g_autoptr(PadlockHeldKeys) holder = new_holder ();
  g_autoptr(PadlockQueue) queue = padlock_queue_new ();
  g_autoptr(PadlockJob) job = decrypt (queue, holder, path, NULL);
  g_autofree char *listing = NULL;
  const GError *error;

  g_assert_true (at_wait_queue_idle (queue, WAIT_MS));
  error = padlock_job_get_error (job);
  g_assert_error (error, PADLOCK_ERROR, PADLOCK_ERROR_PUBLIC_KEY);
  g_assert_true (g_str_has_prefix (error->message, "bob.txt.gpg is for 0x"));
  g_assert_true (g_str_has_suffix (error->message,
                                   ", whose secret keys are not in your "
                                   "keyring."));
  /* Both named, the last two joined by "and". */
  g_assert_nonnull (strstr (error->message, " (Bob <bob@example.org>) and 0x"));
  g_assert_nonnull (strstr (error->message, " (Erin <erin@example.org>), "));
  listing = tu_list_dir (dir);
  g_assert_cmpstr (listing, ==, "bob.txt.gpg");
}

/* For Bob and with a passphrase: the passphrase still opens it. */
static void
test_pkesk_and_skesk (void)
{
  g_autofree char *dir = tu_new_dir ("keys-mixed");
  g_autofree char *path = gpg_encrypt (dir, "both.txt", "either way\n", TRUE,
                                       bob_fpr, NULL);
  g_autoptr(PadlockHeldKeys) holder = new_holder ();
  g_autoptr(PadlockQueue) queue = padlock_queue_new ();
  g_autoptr(PadlockJob) job = decrypt (queue, holder, path, SKESK_PASSPHRASE);

  g_assert_true (at_wait_queue_idle (queue, WAIT_MS));
  at_assert_opened (job, dir, "both.txt", "either way\n");
}

/* Two of the user's protected keys, Dave's passphrase cached by the
 * agent: a file for Carol and Dave (Carol's PKESK first), or for both
 * anonymously with THROW_KEYIDS, opens with Dave's key and no pinentry
 * (padlock-held-keys.h: KEYINFO ranks the keys), though a pinentry for
 * Carol's would cancel. */
static void
test_cached_first (gconstpointer data)
{
  gboolean throw_keyids = GPOINTER_TO_INT (data);
  g_autofree char *dir = tu_new_dir ("keys-cached-first");
  g_autofree char *dave_only = gpg_encrypt (dir, "dave.txt", "for Dave\n",
                                            FALSE, dave_fpr, NULL);
  g_autofree char *plain = g_build_filename (dir, "both.txt", NULL);
  g_autofree char *both = g_strconcat (plain, ".gpg", NULL);
  g_autoptr(GBytes) in = g_bytes_new_static ("for either\n", 11);
  g_autoptr(GBytes) sealed = NULL;
  g_autoptr(GBytes) packets = NULL;
  g_autoptr(PadlockHeldKeys) holder = new_holder ();
  g_autoptr(PadlockQueue) queue = padlock_queue_new ();
  g_autoptr(PadlockJob) first = NULL;
  g_autoptr(PadlockJob) job = NULL;
  g_auto(GStrv) carol_subs = subkey_fingerprints (home, carol_fpr);
  g_auto(GStrv) dave_subs = subkey_fingerprints (home, dave_fpr);
  const char *listed;
  guint asked;

  g_assert_cmpint (tg_gpg (home, NULL, in, &sealed, "--trust-model", "always",
                           throw_keyids ? "--throw-keyids" : "--no-tty",
                           "--set-filename", "both.txt", "--output", "-",
                           "-e", "-r", carol_fpr, "-r", dave_fpr, NULL), ==, 0);
  g_assert_true (g_file_set_contents (both, g_bytes_get_data (sealed, NULL),
                                      g_bytes_get_size (sealed), NULL));
  if (!throw_keyids)
    {
      /* The case is the one to prove only when Carol's comes first. */
      g_assert_cmpint (tg_gpg (home, NULL, sealed, &packets, "--list-packets",
                               "--list-only", NULL), ==, 0);
      listed = g_bytes_get_data (packets, NULL);
      g_assert_nonnull (strstr (listed, carol_subs[0] + 24));
      g_assert_nonnull (strstr (listed, dave_subs[0] + 24));
      g_assert_true (strstr (listed, carol_subs[0] + 24)
                     < strstr (listed, dave_subs[0] + 24));
    }

  tg_gpgconf (home, "--reload", "gpg-agent");
  tg_home_set_pinentry (home, DAVE_PASSPHRASE);
  first = decrypt (queue, holder, dave_only, NULL);
  g_assert_true (at_wait_queue_idle (queue, WAIT_MS));
  at_assert_opened (first, dir, "dave.txt", "for Dave\n");

  tg_home_set_pinentry (home, "cancel");
  asked = tg_home_pinentry_count (home);
  job = decrypt (queue, holder, both, NULL);
  g_assert_true (at_wait_queue_idle (queue, WAIT_MS));
  at_assert_opened (job, dir, "both.txt", "for either\n");
  g_assert_cmpuint (tg_home_pinentry_count (home), ==, asked);
}

/* The agent cannot show a pinentry (its program is missing): the job's
 * error says what to install, in the agent module's words, and nothing
 * is written. */
static void
test_no_pinentry (void)
{
  g_autofree char *dir = tu_new_dir ("keys-no-pinentry");
  g_autofree char *path = gpg_encrypt (dir, "locked.txt", "locked\n", FALSE,
                                       carol_fpr, NULL);
  g_autofree char *conf = tg_home_path (home, "gpg-agent.conf");
  g_autofree char *saved = NULL;
  g_autoptr(PadlockHeldKeys) holder = new_holder ();
  g_autoptr(PadlockQueue) queue = padlock_queue_new ();
  g_autoptr(PadlockJob) job = NULL;
  g_autofree char *listing = NULL;
  const GError *error;

  g_assert_true (g_file_get_contents (conf, &saved, NULL, NULL));
  g_assert_true (g_file_set_contents (conf, "pinentry-program "
                                      "/nonexistent/pinentry\n", -1, NULL));
  tg_gpgconf (home, "--reload", "gpg-agent");
  job = decrypt (queue, holder, path, NULL);
  g_assert_true (at_wait_queue_idle (queue, WAIT_MS));
  g_assert_true (g_file_set_contents (conf, saved, -1, NULL));
  tg_gpgconf (home, "--reload", "gpg-agent");
  error = padlock_job_get_error (job);
  g_assert_nonnull (error);
  g_test_message ("%s", error->message);
  g_assert_cmpint (padlock_job_get_state (job), ==, PADLOCK_JOB_FAILED);
  g_assert_nonnull (strstr (error->message, "Install pinentry-gnome3"));
  listing = tu_list_dir (dir);
  g_assert_cmpstr (listing, ==, "locked.txt.gpg");
}

/* padlock --batch --decrypt FILE with GNUPGHOME set to DIR (through
 * env(1): no setenv once threads run); the exit status. */
static int
run_batch_in (const char *dir, const char *file, char **err_text)
{
  const char *args[] = { "--decrypt", file, NULL };

  return at_run_batch (dir, args, NULL, err_text);
}

static int
run_batch (const char *file, char **err_text)
{
  return run_batch_in (home->dir, file, err_text);
}

/* Issue 32 §7: a file for Bob, from a keyring with no secret key at all
 * (his certificate only): exit 1 saying for whom it is, not a usage
 * error asking for a passphrase; nothing written. */
static void
test_batch_no_secret_key (void)
{
  g_autofree char *dir = tu_new_dir ("keys-batch-others");
  g_autofree char *bobs = gpg_encrypt (dir, "b.txt", "for Bob\n", FALSE,
                                       bob_fpr, NULL);
  g_autofree char *err = NULL;
  g_autofree char *listing = NULL;

  g_assert_cmpint (run_batch_in (others_home->dir, bobs, &err), ==, 1);
  g_test_message ("%s", err);
  g_assert_nonnull (strstr (err, "b.txt.gpg is for 0x"));
  g_assert_nonnull (strstr (err, " (Bob <bob@example.org>), whose secret key "
                                 "is not in your keyring."));
  g_assert_null (strstr (err, "--passphrase-file"));
  listing = tu_list_dir (dir);
  g_assert_cmpstr (listing, ==, "b.txt.gpg");
}

/* Issue 32 §7: a file for Bob, and no keyring at all (a GnuPG home that
 * is empty, or none): exit 1 saying for which key it is, by its key ID
 * alone (no certificate names Bob), not a usage error asking for a
 * passphrase; nothing written, the missing home not made. */
static void
test_batch_no_keyring (void)
{
  g_autofree char *dir = tu_new_dir ("keys-batch-no-keyring");
  g_autofree char *bobs = gpg_encrypt (dir, "b.txt", "for Bob\n", FALSE,
                                       bob_fpr, NULL);
  g_autofree char *empty = g_build_filename (dir, "empty-home", NULL);
  g_autofree char *missing = g_build_filename (dir, "no-home", NULL);
  g_auto(GStrv) subs = subkey_fingerprints (bob_home, bob_fpr);
  g_autofree char *want = g_strdup_printf ("padlock: b.txt.gpg: b.txt.gpg is "
                                           "for 0x%s, "
                                           "whose secret key is not in your "
                                           "keyring.\n",
                                           subs[0] + strlen (subs[0]) - 16);
  const char *homes[] = { empty, missing };

  g_assert_cmpint (g_mkdir (empty, 0700), ==, 0);
  for (guint i = 0; i < G_N_ELEMENTS (homes); i++)
    {
      g_autofree char *err = NULL;
      g_autofree char *listing = NULL;

      g_assert_cmpint (run_batch_in (homes[i], bobs, &err), ==, 1);
      g_test_message ("%s", err);
      g_assert_cmpstr (err, ==, want);
      listing = tu_list_dir (dir);
      g_assert_cmpstr (listing, ==, "b.txt.gpg|empty-home");
    }
}

/* `padlock --batch --decrypt` of a PKESK-only file needs no
 * --passphrase-file, nor does one for my key and a passphrase; one for
 * someone else exits 1 saying whom it is for, and one for someone else
 * and a passphrase asks for the passphrase (exit 2, usage). */
static void
test_batch (void)
{
  g_autofree char *dir = tu_new_dir ("keys-batch");
  g_autofree char *mine = gpg_encrypt (dir, "mine.txt", "batch\n", FALSE,
                                       alice_subs[1], NULL);
  g_autofree char *bobs = gpg_encrypt (dir, "bobs.txt", "not mine\n", FALSE,
                                       bob_fpr, NULL);
  g_autofree char *err = NULL;
  g_autofree char *err2 = NULL;
  g_autofree char *listing = NULL;
  g_autofree char *got = NULL;
  g_autofree char *out = g_build_filename (dir, "mine.txt", NULL);

  g_assert_cmpint (run_batch (mine, &err), ==, 0);
  g_assert_true (g_file_get_contents (out, &got, NULL, NULL));
  g_assert_cmpstr (got, ==, "batch\n");
  g_assert_cmpint (run_batch (bobs, &err2), ==, 1);
  g_assert_nonnull (strstr (err2, "bobs.txt.gpg is for 0x"));
  g_assert_nonnull (strstr (err2, " (Bob <bob@example.org>), whose secret key "
                                  "is not in your keyring."));
  {
    g_autofree char *both = gpg_encrypt (dir, "both.txt", "either\n", TRUE,
                                         alice_subs[1], NULL);
    g_autofree char *bobpw = gpg_encrypt (dir, "bobpw.txt", "his\n", TRUE,
                                          bob_fpr, NULL);
    g_autofree char *err3 = NULL;
    g_autofree char *err4 = NULL;
    g_autofree char *got2 = NULL;
    g_autofree char *out2 = g_build_filename (dir, "both.txt", NULL);

    g_assert_cmpint (run_batch (both, &err3), ==, 0);
    g_assert_true (g_file_get_contents (out2, &got2, NULL, NULL));
    g_assert_cmpstr (got2, ==, "either\n");
    g_assert_cmpint (run_batch (bobpw, &err4), ==, 2);
    g_assert_nonnull (strstr (err4, "--passphrase-file"));
  }
  listing = tu_list_dir (dir);
  g_assert_cmpstr (listing, ==, "bobpw.txt.gpg|bobs.txt.gpg|both.txt|both.txt.gpg|"
                                "mine.txt|mine.txt.gpg");
}

int
main (int argc, char **argv)
{
  int status;

  tu_init (&argc, &argv);
  for (guint i = 0; i < 3; i++)
    {
      g_autofree char *path = g_strdup_printf ("/holder/gpg-to/%s",
                                               sub_names[i]);
      g_test_add_data_func (path, GUINT_TO_POINTER (i), test_gpg_to_subkey);
    }
  g_test_add_func ("/holder/anonymous", test_anonymous);
  g_test_add_func ("/holder/protected-asked-once", test_protected_asked_once);
  g_test_add_func ("/holder/concurrent-asked-once",
                   test_concurrent_asked_once);
  g_test_add_data_func ("/holder/cancelled/pinentry", "cancel",
                        test_cancelled);
  g_test_add_data_func ("/holder/cancelled/while-waiting", "hang",
                        test_cancelled);
  g_test_add_data_func ("/holder/cancelled/anonymous-waiting",
                        "hang-anonymous", test_cancelled);
  g_test_add_func ("/holder/not-mine", test_not_mine);
  g_test_add_func ("/holder/pkesk-and-skesk", test_pkesk_and_skesk);
  g_test_add_func ("/holder/batch", test_batch);
  g_test_add_func ("/holder/batch-no-secret-key", test_batch_no_secret_key);
  g_test_add_func ("/holder/batch-no-keyring", test_batch_no_keyring);
  g_test_add_func ("/holder/no-pinentry", test_no_pinentry);
  g_test_add_data_func ("/holder/cached-first/named", GINT_TO_POINTER (0),
                        test_cached_first);
  g_test_add_data_func ("/holder/cached-first/anonymous",
                        GINT_TO_POINTER (1), test_cached_first);
  make_keys ();
  status = g_test_run ();
  g_clear_pointer (&home, tg_home_free);
  g_clear_pointer (&bob_home, tg_home_free);
  g_clear_pointer (&others_home, tg_home_free);
  return status;
}
