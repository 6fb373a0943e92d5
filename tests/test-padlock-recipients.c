/* test-padlock-recipients.c - encrypting to people's keys from the
 * GnuPG keyring (padlock-recipients.h): in a job as the window runs it and in
 * `padlock --batch --recipient`, each file opened by the real gpg with
 * the colleague's secret key, in a GnuPG home of the colleague's own
 */
#include <string.h>
#include <glib/gstdio.h>

#include "app-testutil.h"
#include "gnupg-home.h"
#include "job.h"
#include "padlock-error.h"
#include "padlock-job.h"
#include "padlock-keyring.h"
#include "padlock-queue.h"
#include "padlock-recipients.h"
#include "testutil.h"

#define PASSPHRASE "a passphrase beside the keys"
#define WAIT_MS 120000

static TgHome *home;            /* the user's: Alice's secret key, the
                                 * colleagues' certificates, and the keys
                                 * that cannot be used */
static TgHome *colleagues;      /* the colleagues' secret keys */
static PadlockKeyring *keyring; /* HOME's */
static TgHome *victor;          /* issue 32: Victor's secret key, and the
                                 * certificates of Mallory's key, which
                                 * Victor certified as Mallory's though
                                 * its primary user ID says Alice, and of
                                 * Zoe's, which he never certified */
static TgHome *strangers;       /* Mallory's and Zoe's secret keys */
static PadlockKeyring *victor_keyring;
static char *mallory_fpr;
static char *zoe_fpr;

typedef struct
{
  const char *uid;
  const char *primary;
  const char *sub;
  char *fpr;
} Colleague;

static Colleague people[3] = {
  { "Rita <rita@example.org>", "rsa3072", "rsa3072", NULL },
  { "Cara <cara@example.org>", "ed25519", "cv25519", NULL },
  { "Nina <nina@example.org>", "nistp256", "nistp256", NULL },
};
static char *alice_fpr;
static char *expired_fpr;
static char *revoked_fpr;
static char *dup_fprs[2];

static void
make_keys (void)
{
  g_autoptr(GBytes) certs = NULL;

  colleagues = tg_home_new ();
  for (guint i = 0; i < G_N_ELEMENTS (people); i++)
    people[i].fpr = tg_gen_encryption_key (colleagues, people[i].uid,
                                           people[i].primary, people[i].sub,
                                           "never", NULL);
  g_assert_cmpint (tg_gpg (colleagues, NULL, NULL, &certs, "--export", NULL),
                   ==, 0);

  home = tg_home_new ();
  alice_fpr = tg_gen_encryption_key (home, "Alice <alice@example.org>",
                                     "ed25519", "cv25519", "never", NULL);
  g_assert_cmpint (tg_gpg (home, NULL, certs, NULL, "--import", NULL), ==, 0);
  /* Alice has compared their fingerprints: a recipient named by email
   * or text must be verified. */
  for (guint i = 0; i < G_N_ELEMENTS (people); i++)
    g_assert_cmpint (tg_gpg (home, NULL, NULL, NULL, "--quick-lsign-key",
                             people[i].fpr, NULL), ==, 0);
  /* Expired a year after 2020 began. */
  expired_fpr = tg_gen_encryption_key (home, "Olga <olga@example.org>",
                                       "ed25519", "cv25519", "1y",
                                       "20200101T000000");
  revoked_fpr = tg_gen_encryption_key (home, "Rolf <rolf@example.org>",
                                       "ed25519", "cv25519", "never", NULL);
  tg_revoke (home, revoked_fpr);
  dup_fprs[0] = tg_gen_encryption_key (home, "Dana <dup@example.org>",
                                       "ed25519", "cv25519", "never", NULL);
  dup_fprs[1] = tg_gen_encryption_key (home, "Dora <dup@example.org>",
                                       "ed25519", "cv25519", "never", NULL);

  keyring = padlock_keyring_new (home->dir);
  g_assert_true (at_wait_until (at_keyring_loaded, keyring, WAIT_MS));
  g_assert_cmpint (padlock_keyring_get_state (keyring), ==,
                   PADLOCK_KEYRING_READY);

  victor = tg_home_new ();
  g_free (tg_gen_encryption_key (victor, "Victor <victor@example.org>",
                                 "ed25519", "cv25519", "never", NULL));
  strangers = tg_home_new ();
  mallory_fpr = tg_two_faced_key (strangers, victor, "Alice <alice@example.org>",
                                  "Mallory <mallory@evil.example>");
  zoe_fpr = tg_gen_encryption_key (strangers, "Zoe <zoe@example.org>",
                                   "ed25519", "cv25519", "never", NULL);
  tg_import_cert (victor, strangers, zoe_fpr);
  victor_keyring = padlock_keyring_new (victor->dir);
  g_assert_true (at_wait_until (at_keyring_loaded, victor_keyring, WAIT_MS));
  g_assert_cmpint (padlock_keyring_get_state (victor_keyring), ==,
                   PADLOCK_KEYRING_READY);
}

/* A reference to the key of FPR in KEYRING. */
static PadlockKey *
key_of (const char *fpr)
{
  return g_object_ref (at_key_of (keyring, fpr));
}

/* `gpg --list-packets` of PATH, in H (no key needed). */
static char *
gpg_packets (TgHome *h, const char *path)
{
  g_autoptr(GBytes) out = NULL;

  tg_gpg (h, NULL, NULL, &out, "--list-packets", path, NULL);
  return g_strndup (g_bytes_get_data (out, NULL), g_bytes_get_size (out));
}

/* Encrypts IN (a file, or a folder) in a job to RECIPIENTS, with
 * PASSPHRASE when not NULL; CONFIG_PROFILE is the settings' profile.
 * The finished job. */
static PadlockJob *
encrypt (const char *in, PadlockRecipients *recipients,
         const char *passphrase, int config_profile)
{
  g_autoptr(GFile) file = g_file_new_for_path (in);
  g_autoptr(PadlockQueue) queue = padlock_queue_new ();
  PadlockJobConfig config = { .profile = config_profile };
  PadlockJob *job;

  /* A folder becomes NAME.tar, as the window does. */
  job = padlock_job_new (file, PADLOCK_DIRECTION_ENCRYPT, &config);
  padlock_job_set_recipients (job, recipients);
  if (passphrase)
    {
      g_autoptr(PadlockSecret) secret = padlock_secret_new (passphrase);
      padlock_job_set_secret (job, secret);
    }
  padlock_queue_add (queue, job);
  g_assert_true (at_wait_queue_idle (queue, WAIT_MS));
  return job;
}

static char *
output_path (PadlockJob *job)
{
  g_assert_no_error (padlock_job_get_error (job));
  g_assert_cmpint (padlock_job_get_state (job), ==, PADLOCK_JOB_DONE);
  return g_file_get_path (padlock_job_get_output (job));
}

static void
assert_bytes (GBytes *got, const char *text)
{
  g_assert_nonnull (got);
  g_assert_cmpmem (g_bytes_get_data (got, NULL), g_bytes_get_size (got),
                   text, strlen (text));
}

/* A job to one colleague, whose format follows the recipient (gpg 2.2's
 * keys read SEIPD v1 only, whatever the settings say): the colleague's
 * gpg opens it, and only one PKESK names their key. */
static void
test_job_to (gconstpointer data)
{
  const Colleague *c = &people[GPOINTER_TO_UINT (data)];
  g_autofree char *dir = tu_new_dir (c->sub);
  g_autofree char *in = g_build_filename (dir, "note.txt", NULL);
  g_autoptr(PadlockKey) key = key_of (c->fpr);
  g_autoptr(PadlockRecipients) r = padlock_recipients_new (home->dir, &key, 1,
                                                           NULL, FALSE, -1);
  g_autoptr(PadlockJob) job = NULL;
  g_autofree char *out = NULL;
  g_autofree char *packets = NULL;
  g_autoptr(GBytes) plain = NULL;
  g_autoptr(GBytes) none = NULL;

  g_assert_true (g_file_set_contents (in, c->uid, -1, NULL));
  job = encrypt (in, r, NULL, PL_PROFILE_RFC9580);
  out = output_path (job);
  g_assert_cmpint (padlock_job_get_profile (job), ==, PL_PROFILE_RFC4880);
  plain = tg_gpg_decrypt_file (colleagues, out, NULL);
  assert_bytes (plain, c->uid);
  packets = gpg_packets (colleagues, out);
  g_assert_cmpuint (tu_count (packets, ":pubkey enc packet:"), ==, 1);
  g_assert_cmpuint (tu_count (packets, ":symkey enc packet:"), ==, 0);
  /* Alice holds no key for it. */
  none = tg_gpg_decrypt_file (home, out, NULL);
  g_assert_null (none);
}

/* Two colleagues, the user ("you") and a passphrase: each of them opens
 * it, one packet each, and the rows' sentence names them. */
static void
test_job_mixed (void)
{
  g_autofree char *dir = tu_new_dir ("mixed");
  g_autofree char *in = g_build_filename (dir, "plan.txt", NULL);
  g_autoptr(PadlockKey) rita = key_of (people[0].fpr);
  g_autoptr(PadlockKey) nina = key_of (people[2].fpr);
  PadlockKey *keys[2] = { rita, nina };
  PadlockKey *me = padlock_keyring_get_default_key (keyring);
  g_autoptr(PadlockRecipients) r = NULL;
  g_autoptr(PadlockJob) job = NULL;
  g_autoptr(TgHome) stranger = tg_home_new ();
  g_autofree char *out = NULL;
  g_autofree char *packets = NULL;
  g_autofree char *who = NULL;
  g_autoptr(GBytes) theirs = NULL;
  g_autoptr(GBytes) mine = NULL;
  g_autoptr(GBytes) anyone = NULL;

  g_assert_nonnull (me);
  g_assert_cmpstr (padlock_key_get_fingerprint (me), ==, alice_fpr);
  r = padlock_recipients_new (home->dir, keys, 2, me, FALSE, -1);
  who = padlock_recipients_describe (r, TRUE);
  /* Each label escaped and isolated: it is the key's own text. */
  g_assert_cmpstr (who, ==, "\u2068Rita <rita@example.org>\u2069, "
                            "\u2068Nina <nina@example.org>\u2069, "
                            "you, and anyone with the passphrase");
  g_assert_true (g_file_set_contents (in, "mixed\n", -1, NULL));
  job = encrypt (in, r, PASSPHRASE, PL_PROFILE_RFC4880);
  out = output_path (job);
  packets = gpg_packets (colleagues, out);
  g_assert_cmpuint (tu_count (packets, ":pubkey enc packet:"), ==, 3);
  g_assert_cmpuint (tu_count (packets, ":symkey enc packet:"), ==, 1);
  theirs = tg_gpg_decrypt_file (colleagues, out, NULL);
  assert_bytes (theirs, "mixed\n");
  mine = tg_gpg_decrypt_file (home, out, NULL);
  assert_bytes (mine, "mixed\n");
  /* A home without any key: the passphrase alone. */
  anyone = tg_gpg_decrypt_file (stranger, out, PASSPHRASE);
  assert_bytes (anyone, "mixed\n");
}

/* "Hide recipients": every PKESK names key ID 0, and gpg still finds
 * the colleague's key among its secret keys. */
static void
test_job_hidden (void)
{
  g_autofree char *dir = tu_new_dir ("hidden");
  g_autofree char *in = g_build_filename (dir, "secret.txt", NULL);
  g_autoptr(PadlockKey) cara = key_of (people[1].fpr);
  g_autoptr(PadlockKey) rita = key_of (people[0].fpr);
  PadlockKey *keys[2] = { cara, rita };
  g_autoptr(PadlockRecipients) r = padlock_recipients_new (home->dir, keys, 2,
                                                           NULL, TRUE, -1);
  g_autoptr(PadlockJob) job = NULL;
  g_autofree char *out = NULL;
  g_autofree char *packets = NULL;
  g_autoptr(GBytes) plain = NULL;

  g_assert_true (g_file_set_contents (in, "nobody named\n", -1, NULL));
  job = encrypt (in, r, NULL, PL_PROFILE_RFC4880);
  out = output_path (job);
  packets = gpg_packets (colleagues, out);
  g_assert_cmpuint (tu_count (packets, ":pubkey enc packet:"), ==, 2);
  g_assert_cmpuint (tu_count (packets, "keyid 0000000000000000"), ==, 2);
  for (guint i = 0; i < G_N_ELEMENTS (people); i++)
    {
      g_autofree char *id = g_strndup (people[i].fpr + 24, 16);
      g_assert_null (strstr (packets, id));
    }
  plain = tg_gpg_decrypt_file (colleagues, out, NULL);
  assert_bytes (plain, "nobody named\n");
}

/* A folder to a colleague opens with `gpg -d | tar x`. */
static void
test_job_folder (void)
{
  g_autofree char *dir = tu_new_dir ("folder");
  g_autofree char *folder = g_build_filename (dir, "Report", NULL);
  g_autofree char *a = g_build_filename (folder, "a.txt", NULL);
  g_autofree char *sub = g_build_filename (folder, "figures", NULL);
  g_autofree char *b = g_build_filename (sub, "b.txt", NULL);
  g_autoptr(PadlockKey) cara = key_of (people[1].fpr);
  g_autoptr(PadlockRecipients) r = padlock_recipients_new (home->dir, &cara, 1,
                                                           NULL, FALSE, -1);
  g_autoptr(PadlockJob) job = NULL;
  g_autofree char *out = NULL;
  g_autofree char *there = tu_new_dir ("folder-opened");
  g_autofree char *tar = tu_peer ("tar");
  g_autoptr(GBytes) archive = NULL;
  g_autofree char *got_a = NULL;
  g_autofree char *got_b = NULL;
  g_autofree char *opened_a = g_build_filename (there, "Report", "a.txt", NULL);
  g_autofree char *opened_b = g_build_filename (there, "Report", "figures",
                                                "b.txt", NULL);
  int status = -1;

  g_assert_cmpint (g_mkdir_with_parents (sub, 0700), ==, 0);
  g_assert_true (g_file_set_contents (a, "first\n", -1, NULL));
  g_assert_true (g_file_set_contents (b, "second\n", -1, NULL));
  job = encrypt (folder, r, NULL, PL_PROFILE_RFC4880);
  out = output_path (job);
  g_assert_true (g_str_has_suffix (out, "Report.tar.gpg"));
  archive = tg_gpg_decrypt_file (colleagues, out, NULL);
  g_assert_nonnull (archive);
  {
    const char *argv[] = { tar, "-x", "-C", there, NULL };
    g_assert_true (tu_run (argv, archive, NULL, NULL, &status));
  }
  g_assert_cmpint (status, ==, 0);
  g_assert_true (g_file_get_contents (opened_a, &got_a, NULL, NULL));
  g_assert_true (g_file_get_contents (opened_b, &got_b, NULL, NULL));
  g_assert_cmpstr (got_a, ==, "first\n");
  g_assert_cmpstr (got_b, ==, "second\n");
}

/* A key the engine refuses fails the job with the person's name, and
 * nothing is written. */
static void
test_job_refused (void)
{
  g_autofree char *dir = tu_new_dir ("refused");
  g_autofree char *in = g_build_filename (dir, "x.txt", NULL);
  g_autoptr(PadlockKey) olga = key_of (expired_fpr);
  g_autoptr(PadlockRecipients) r = padlock_recipients_new (home->dir, &olga, 1,
                                                           NULL, FALSE, -1);
  g_autoptr(PadlockJob) job = NULL;
  g_autofree char *listing = NULL;
  const GError *error;

  g_assert_true (g_file_set_contents (in, "x\n", -1, NULL));
  job = encrypt (in, r, NULL, PL_PROFILE_RFC4880);
  g_assert_cmpint (padlock_job_get_state (job), ==, PADLOCK_JOB_FAILED);
  error = padlock_job_get_error (job);
  g_assert_nonnull (error);
  g_assert_nonnull (strstr (error->message, "Olga <olga@example.org>"));
  g_assert_nonnull (strstr (error->message, "expired"));
  listing = tu_list_dir (dir);
  g_assert_cmpstr (listing, ==, "x.txt");
}

/* A load cut by its cancellable (the dialog went before the
 * certificates were read) is not the answer: the job's own load reads
 * them, and encrypts. */
static void
test_load_cancelled (void)
{
  g_autofree char *dir = tu_new_dir ("cancelled-load");
  g_autofree char *in = g_build_filename (dir, "c.txt", NULL);
  g_autoptr(PadlockKey) nina = key_of (people[2].fpr);
  g_autoptr(PadlockRecipients) r = padlock_recipients_new (home->dir, &nina, 1,
                                                           NULL, FALSE, -1);
  g_autoptr(GCancellable) cancel = g_cancellable_new ();
  g_autoptr(GError) error = NULL;
  g_autoptr(PadlockJob) job = NULL;
  g_autofree char *out = NULL;
  g_autoptr(GBytes) plain = NULL;

  g_cancellable_cancel (cancel);
  g_assert_false (padlock_recipients_load (r, cancel, &error));
  g_assert_error (error, PADLOCK_ERROR, PADLOCK_ERROR_CANCELLED);
  g_assert_cmpint (padlock_recipients_get_profile (r), ==, -1);
  g_assert_true (g_file_set_contents (in, "again\n", -1, NULL));
  job = encrypt (in, r, NULL, PL_PROFILE_RFC4880);
  out = output_path (job);
  plain = tg_gpg_decrypt_file (colleagues, out, NULL);
  assert_bytes (plain, "again\n");
}

/* padlock --batch ARGS… with H as GnuPG's home; the exit status. */
static int
run_batch_in (TgHome *h, const char *const *args, char **err_text)
{
  return at_run_batch (h->dir, args, NULL, err_text);
}

/* The same with HOME. */
static int
run_batch (const char *const *args, char **err_text)
{
  return run_batch_in (home, args, err_text);
}

/* The colleagues by email, key ID and fingerprint (0x and spaces too),
 * and --encrypt-to-self: no passphrase file needed, and each opens it. */
static void
test_batch_recipients (void)
{
  g_autofree char *dir = tu_new_dir ("batch");
  g_autofree char *in = g_build_filename (dir, "memo.txt", NULL);
  g_autofree char *out = g_build_filename (dir, "memo.txt.gpg", NULL);
  g_autofree char *by_id = g_strconcat ("--recipient=0x", people[1].fpr + 24,
                                        NULL);
  g_autofree char *by_fpr = g_strconcat ("--recipient=", people[2].fpr, NULL);
  const char *args[] = { "--encrypt", "--recipient=RITA@example.org",
                         by_id, by_fpr, "--encrypt-to-self", in, NULL };
  g_autofree char *err = NULL;
  g_autofree char *packets = NULL;
  g_autoptr(GBytes) theirs = NULL;
  g_autoptr(GBytes) mine = NULL;

  g_assert_true (g_file_set_contents (in, "memo\n", -1, NULL));
  g_assert_cmpint (run_batch (args, &err), ==, 0);
  packets = gpg_packets (colleagues, out);
  g_assert_cmpuint (tu_count (packets, ":pubkey enc packet:"), ==, 4);
  g_assert_cmpuint (tu_count (packets, ":symkey enc packet:"), ==, 0);
  theirs = tg_gpg_decrypt_file (colleagues, out, NULL);
  assert_bytes (theirs, "memo\n");
  mine = tg_gpg_decrypt_file (home, out, NULL);
  assert_bytes (mine, "memo\n");
}

/* --hide-recipients with a passphrase file: anonymous PKESKs beside an
 * SKESK; gpg opens it with the key, and with the passphrase. */
static void
test_batch_hidden (void)
{
  g_autofree char *dir = tu_new_dir ("batch-hidden");
  g_autofree char *in = g_build_filename (dir, "h.txt", NULL);
  g_autofree char *out = g_build_filename (dir, "h.txt.gpg", NULL);
  g_autofree char *pw = at_passphrase_file (PASSPHRASE);
  g_autofree char *pw_arg = g_strconcat ("--passphrase-file=", pw, NULL);
  const char *args[] = { "--encrypt", "-r", "<nina@example.org>",
                         "--hide-recipients", pw_arg, in, NULL };
  g_autoptr(TgHome) stranger = tg_home_new ();
  g_autofree char *err = NULL;
  g_autofree char *packets = NULL;
  g_autoptr(GBytes) theirs = NULL;
  g_autoptr(GBytes) anyone = NULL;

  g_assert_true (g_file_set_contents (in, "hidden\n", -1, NULL));
  g_assert_cmpint (run_batch (args, &err), ==, 0);
  packets = gpg_packets (colleagues, out);
  g_assert_cmpuint (tu_count (packets, "keyid 0000000000000000"), ==, 1);
  g_assert_cmpuint (tu_count (packets, ":symkey enc packet:"), ==, 1);
  theirs = tg_gpg_decrypt_file (colleagues, out, NULL);
  assert_bytes (theirs, "hidden\n");
  anyone = tg_gpg_decrypt_file (stranger, out, PASSPHRASE);
  assert_bytes (anyone, "hidden\n");
}

/* Unknown, expired, revoked and ambiguous recipients: exit 1, each one
 * named (the ambiguous one with both matches), nothing written; and a
 * profile asked for that the recipient's software cannot read. */
static void
test_batch_refused (void)
{
  g_autofree char *dir = tu_new_dir ("batch-refused");
  g_autofree char *in = g_build_filename (dir, "r.txt", NULL);
  const char *args[] = { "--encrypt", "--recipient=nobody@example.org",
                         "--recipient=olga@example.org",
                         "--recipient=rolf@example.org",
                         "--recipient=dup@example.org",
                         "--recipient=rita@example.org", in, NULL };
  g_autofree char *rita = g_strconcat ("--recipient=", people[0].fpr, NULL);
  const char *profile_args[] = { "--encrypt", "--profile=rfc9580", rita, in,
                                 NULL };
  const char *none_args[] = { "--encrypt", in, NULL };
  g_autofree char *err = NULL;
  g_autofree char *err2 = NULL;
  g_autofree char *err3 = NULL;
  g_autofree char *listing = NULL;

  g_assert_true (g_file_set_contents (in, "r\n", -1, NULL));
  g_assert_cmpint (run_batch (args, &err), ==, 1);
  g_test_message ("%s", err);
  g_assert_nonnull (strstr (err, "No key in the keyring matches the "
                                 "recipient nobody@example.org"));
  g_assert_nonnull (strstr (err, "olga@example.org cannot be encrypted to"));
  g_assert_nonnull (strstr (err, "expired on 202"));
  g_assert_nonnull (strstr (err, "rolf@example.org cannot be encrypted to"));
  g_assert_nonnull (strstr (err, "revoked"));
  g_assert_nonnull (strstr (err, "dup@example.org is ambiguous"));
  g_assert_nonnull (strstr (err, dup_fprs[0]));
  g_assert_nonnull (strstr (err, dup_fprs[1]));
  g_assert_null (strstr (err, "rita"));

  g_assert_cmpint (run_batch (profile_args, &err2), ==, 1);
  g_test_message ("%s", err2);
  g_assert_nonnull (strstr (err2, "Rita <rita@example.org>"));
  /* Neither a passphrase nor a recipient: usage. */
  g_assert_cmpint (run_batch (none_args, &err3), ==, 2);
  g_assert_nonnull (strstr (err3, "--recipient"));
  listing = tu_list_dir (dir);
  g_assert_cmpstr (listing, ==, "r.txt");
}

/* The recipient rule, padlock_recipients_match: SPEC names the key of
 * FPR in Victor's keyring as EXPECTED, through the user ID UID (NULL:
 * none). */
static void
assert_match (const char *fpr, const char *spec, gboolean typing,
              PadlockRecipientMatch expected, const char *uid)
{
  PadlockKey *key = padlock_keyring_find_key (victor_keyring, fpr, FALSE, NULL);
  const PadlockUserId *named = NULL;

  g_assert_nonnull (key);
  g_test_message ("%s %s", spec, typing ? "(typed)" : "");
  g_assert_cmpint (padlock_recipients_match (key, spec, typing, &named), ==,
                   expected);
  g_assert_cmpstr (named ? named->text : NULL, ==, uid);
}

static void
test_match (void)
{
  g_autofree char *mallory_id = g_strconcat ("0x", mallory_fpr + 24, NULL);
  g_autofree char *zoe_id = g_strdup (zoe_fpr + 24);
  g_autofree char *mallory_part = g_strndup (mallory_fpr + 8, 8);
  PadlockKey *victors = padlock_keyring_get_default_key (victor_keyring);
  const char *mallory = "Mallory <mallory@evil.example>";
  const char *alice = "Alice <alice@example.org>";
  const char *zoe = "Zoe <zoe@example.org>";

  /* Mallory's key is Alice only through a user ID nobody certified. */
  assert_match (mallory_fpr, "alice@example.org", FALSE,
                PADLOCK_RECIPIENT_UNVERIFIED, alice);
  assert_match (mallory_fpr, "<ALICE@example.org>", FALSE,
                PADLOCK_RECIPIENT_UNVERIFIED, alice);
  assert_match (mallory_fpr, "alice", FALSE, PADLOCK_RECIPIENT_UNVERIFIED, alice);
  assert_match (mallory_fpr, "alice@exa", TRUE, PADLOCK_RECIPIENT_UNVERIFIED,
                alice);
  assert_match (mallory_fpr, "alice@exa", FALSE, PADLOCK_RECIPIENT_NO_MATCH,
                NULL);
  /* It is Mallory's, verified; a text both hold names the verified one. */
  assert_match (mallory_fpr, "mallory@evil.example", FALSE,
                PADLOCK_RECIPIENT_VERIFIED, mallory);
  assert_match (mallory_fpr, "mallory@evil", TRUE, PADLOCK_RECIPIENT_VERIFIED,
                mallory);
  assert_match (mallory_fpr, "<", FALSE, PADLOCK_RECIPIENT_VERIFIED, mallory);
  /* By its key ID (or a part of its fingerprint): the key's own validity,
   * and its named user ID; by its whole fingerprint: the user's choice. */
  assert_match (mallory_fpr, mallory_id, FALSE, PADLOCK_RECIPIENT_VERIFIED,
                mallory);
  assert_match (mallory_fpr, mallory_part, TRUE, PADLOCK_RECIPIENT_VERIFIED,
                mallory);
  assert_match (mallory_fpr, mallory_fpr, FALSE, PADLOCK_RECIPIENT_FINGERPRINT,
                mallory);
  /* Zoe's key, never certified: by text or key ID it is not verified;
   * by its whole fingerprint, chosen. */
  assert_match (zoe_fpr, "zoe@example.org", FALSE, PADLOCK_RECIPIENT_UNVERIFIED,
                zoe);
  assert_match (zoe_fpr, zoe_id, FALSE, PADLOCK_RECIPIENT_UNVERIFIED, zoe);
  assert_match (zoe_fpr, zoe_fpr, TRUE, PADLOCK_RECIPIENT_FINGERPRINT, zoe);
  assert_match (zoe_fpr, "alice", FALSE, PADLOCK_RECIPIENT_NO_MATCH, NULL);
  assert_match (zoe_fpr, "  ", TRUE, PADLOCK_RECIPIENT_NO_MATCH, NULL);
  /* The user's own key. */
  g_assert_nonnull (victors);
  assert_match (padlock_key_get_fingerprint (victors), "victor", TRUE,
                PADLOCK_RECIPIENT_VERIFIED, "Victor <victor@example.org>");
}

/* padlock --batch -r in Victor's keyring: alice@example.org and "Alice"
 * name only Mallory's key, through the user ID nobody certified: exit 1,
 * the key named, how to accept it said, nothing written.  Mallory's
 * whole fingerprint (the user's choice) and his verified email are
 * accepted, and Mallory's gpg opens what they made. */
static void
test_batch_unverified (void)
{
  g_autofree char *dir = tu_new_dir ("batch-unverified");
  g_autofree char *in = g_build_filename (dir, "u.txt", NULL);
  g_autofree char *out = g_build_filename (dir, "u.txt.gpg", NULL);
  const char *by_email[] = { "--encrypt", "-r", "alice@example.org", in, NULL };
  const char *by_text[] = { "--encrypt", "-r", "Alice", in, NULL };
  const char *by_fpr[] = { "--encrypt", "-r", mallory_fpr, in, NULL };
  const char *by_his[] = { "--encrypt", "-r", "mallory@evil.example", in,
                           NULL };
  g_autofree char *lsign = g_strconcat ("gpg --quick-lsign-key ", mallory_fpr,
                                        NULL);
  g_autofree char *named = g_strconcat ("--recipient=", mallory_fpr, NULL);
  g_autofree char *err = NULL;
  g_autofree char *err2 = NULL;
  g_autofree char *listing = NULL;
  g_autoptr(GBytes) plain = NULL;

  g_assert_true (g_file_set_contents (in, "for Alice?\n", -1, NULL));
  g_assert_cmpint (run_batch_in (victor, by_email, &err), ==, 1);
  g_test_message ("%s", err);
  g_assert_nonnull (strstr (err, "The recipient alice@example.org matches "
                                 "only keys you have not verified:\n"));
  g_assert_nonnull (strstr (err, "  Mallory <mallory@evil.example> (0x"));
  g_assert_nonnull (strstr (err, mallory_fpr));
  g_assert_nonnull (strstr (err, "which also claims to be Alice "
                                 "<alice@example.org> (not verified)"));
  g_assert_nonnull (strstr (err, lsign));
  g_assert_nonnull (strstr (err, named));
  g_assert_cmpint (run_batch_in (victor, by_text, &err2), ==, 1);
  g_assert_nonnull (strstr (err2, "The recipient Alice matches only keys you "
                                  "have not verified"));
  listing = tu_list_dir (dir);
  g_assert_cmpstr (listing, ==, "u.txt");

  g_clear_pointer (&err, g_free);
  g_assert_cmpint (run_batch_in (victor, by_fpr, &err), ==, 0);
  plain = tg_gpg_decrypt_file (strangers, out, NULL);
  assert_bytes (plain, "for Alice?\n");
  g_assert_cmpint (g_unlink (out), ==, 0);
  g_clear_pointer (&err, g_free);
  g_assert_cmpint (run_batch_in (victor, by_his, &err), ==, 0);
  g_clear_pointer (&plain, g_bytes_unref);
  plain = tg_gpg_decrypt_file (strangers, out, NULL);
  assert_bytes (plain, "for Alice?\n");
}

int
main (int argc, char **argv)
{
  int status;

  tu_init (&argc, &argv);
  for (guint i = 0; i < G_N_ELEMENTS (people); i++)
    {
      g_autofree char *path = g_strdup_printf ("/recipients/job/to/%s",
                                               people[i].sub);
      g_test_add_data_func (path, GUINT_TO_POINTER (i), test_job_to);
    }
  g_test_add_func ("/recipients/job/mixed", test_job_mixed);
  g_test_add_func ("/recipients/job/hidden", test_job_hidden);
  g_test_add_func ("/recipients/job/folder", test_job_folder);
  g_test_add_func ("/recipients/job/refused", test_job_refused);
  g_test_add_func ("/recipients/job/load-cancelled", test_load_cancelled);
  g_test_add_func ("/recipients/batch/recipients", test_batch_recipients);
  g_test_add_func ("/recipients/batch/hidden", test_batch_hidden);
  g_test_add_func ("/recipients/batch/refused", test_batch_refused);
  g_test_add_func ("/recipients/match", test_match);
  g_test_add_func ("/recipients/batch/unverified", test_batch_unverified);
  make_keys ();
  status = g_test_run ();
  g_clear_object (&keyring);
  g_clear_pointer (&home, tg_home_free);
  g_clear_pointer (&colleagues, tg_home_free);
  g_clear_object (&victor_keyring);
  g_clear_pointer (&victor, tg_home_free);
  g_clear_pointer (&strangers, tg_home_free);
  g_clear_pointer (&mallory_fpr, g_free);
  g_clear_pointer (&zoe_fpr, g_free);
  /* The fingerprints too: a static written once and read only where it
   * was made is not a root LeakSanitizer sees once optimized away. */
  g_clear_pointer (&alice_fpr, g_free);
  g_clear_pointer (&expired_fpr, g_free);
  g_clear_pointer (&revoked_fpr, g_free);
  g_clear_pointer (&dup_fprs[0], g_free);
  g_clear_pointer (&dup_fprs[1], g_free);
  return status;
}
