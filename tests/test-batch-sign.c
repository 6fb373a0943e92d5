/* test-batch-sign.c - detached signatures (issue 34 §4): `padlock
 * --batch --sign --detach FILE…` and the job behind it
 * (PADLOCK_DIRECTION_SIGN), in a GnuPG home of the test's own with a
 * real gpg-agent and the test pinentry, checked by the real gpg: `gpg
 * --verify FILE.sig FILE` says good, and bad once one octet of FILE
 * changed; binary and armored; a signing subkey named on the line; an
 * existing FILE.sig never replaced; a cancelled or hanging pinentry
 * leaves nothing; usage refused before anything is read.
 */
#include <string.h>
#include <glib/gstdio.h>

#include "app-testutil.h"
#include "gnupg-home.h"
#include "padlock-agent.h"
#include "padlock-error.h"
#include "padlock-job.h"
#include "padlock-keyring.h"
#include "padlock-queue.h"
#include "padlock-signer.h"
#include "testutil.h"

#define WAIT_MS 60000
#define ERIN_PASSPHRASE "erin's key pass"

static TgHome *home;            /* Alice (unprotected, the default key),
                                 * Erin (protected), Sam (signs with a
                                 * subkey) */
static char *alice_fpr, *erin_fpr, *sam_fpr, *sam_sub_fpr;

static void
make_keys (void)
{
  g_autoptr(GBytes) listing = NULL;
  g_autofree char *text = NULL;
  g_auto(GStrv) lines = NULL;

  home = tg_home_new ();
  alice_fpr = tg_gen_key (home, "Alice <alice@example.org>", "ed25519",
                          "cert,sign", "never", "", NULL);
  erin_fpr = tg_gen_key (home, "Erin <erin@example.org>", "ed25519",
                         "cert,sign", "never", ERIN_PASSPHRASE, NULL);
  sam_fpr = tg_gen_key (home, "Sam <sam@example.org>", "ed25519", "cert",
                        "never", "", NULL);
  tg_add_key (home, sam_fpr, "ed25519", "sign", "never", "", NULL);
  /* The subkey's fingerprint: the second "fpr" record. */
  g_assert_cmpint (tg_gpg (home, NULL, NULL, &listing, "--with-colons",
                           "--list-keys", sam_fpr, NULL), ==, 0);
  text = g_strndup (g_bytes_get_data (listing, NULL),
                    g_bytes_get_size (listing));
  lines = g_strsplit (text, "\n", -1);
  for (guint i = 0, seen = 0; lines[i]; i++)
    if (g_str_has_prefix (lines[i], "fpr:") && ++seen == 2)
      {
        g_auto(GStrv) f = g_strsplit (lines[i], ":", -1);
        sam_sub_fpr = g_strdup (f[9]);
      }
  g_assert_nonnull (sam_sub_fpr);
  g_assert_cmpstr (sam_sub_fpr, !=, sam_fpr);
}

/* `padlock --batch --sign --detach` ARGS… in the home, from DIR: the
 * exit status; stdout in *OUT, stderr in *ERR. */
static int
run_batch (char **out, char **err, ...)
{
  const char *app = g_getenv ("PADLOCK_APP");
  g_autofree char *gnupghome = g_strconcat ("GNUPGHOME=", home->dir, NULL);
  g_autoptr(GPtrArray) argv = g_ptr_array_new ();
  g_autoptr(GBytes) stdout_bytes = NULL;
  int status = -1;
  const char *arg;
  va_list args;

  g_ptr_array_add (argv, (gpointer) "env");
  g_ptr_array_add (argv, gnupghome);
  g_ptr_array_add (argv, (gpointer) app);
  g_ptr_array_add (argv, (gpointer) "--batch");
  va_start (args, err);
  while ((arg = va_arg (args, const char *)))
    g_ptr_array_add (argv, (gpointer) arg);
  va_end (args);
  g_ptr_array_add (argv, NULL);
  g_assert_true (tu_run ((const char *const *) argv->pdata, NULL,
                         &stdout_bytes, err, &status));
  /* Empty bytes may hold no data at all. */
  *out = g_bytes_get_size (stdout_bytes)
         ? g_strndup (g_bytes_get_data (stdout_bytes, NULL),
                      g_bytes_get_size (stdout_bytes))
         : g_strdup ("");
  g_test_message ("stdout: %s\nstderr: %s", *out, *err);
  return status;
}

/* gpg --verify SIG DATA: its exit status; the status lines in *STATUS. */
static int
gpg_verify (const char *sig, const char *data, char **status)
{
  g_autoptr(GBytes) out = NULL;
  int code = tg_gpg (home, NULL, NULL, &out, "--status-fd", "1", "--verify",
                     sig, data, NULL);

  *status = g_strndup (g_bytes_get_data (out, NULL), g_bytes_get_size (out));
  return code;
}

/* gpg says SIG over DATA is good, made by SIGNER (the signing key) of
 * PRIMARY, a binary signature (class 00) of version 4. */
static void
assert_good (const char *sig, const char *data, const char *signer,
             const char *primary)
{
  g_autofree char *status = NULL;
  g_autofree char *validsig = g_strconcat ("[GNUPG:] VALIDSIG ", signer, " ",
                                           NULL);
  const char *line;

  g_assert_cmpint (gpg_verify (sig, data, &status), ==, 0);
  g_assert_nonnull (strstr (status, "[GNUPG:] GOODSIG "));
  line = strstr (status, validsig);
  g_assert_nonnull (line);
  /* VALIDSIG fpr date ts expire version reserved pk-algo hash-algo class
   * primary-fpr */
  {
    g_autofree char *one = g_strndup (line, strcspn (line, "\n"));
    g_auto(GStrv) f = g_strsplit (one, " ", -1);

    g_assert_cmpuint (g_strv_length (f), >=, 12);
    g_assert_cmpstr (f[6], ==, "4");
    g_assert_cmpstr (f[10], ==, "00");
    g_assert_cmpstr (f[11], ==, primary);
  }
}

/* gpg says SIG over DATA is bad. */
static void
assert_bad (const char *sig, const char *data)
{
  g_autofree char *status = NULL;

  g_assert_cmpint (gpg_verify (sig, data, &status), !=, 0);
  g_assert_nonnull (strstr (status, "[GNUPG:] BADSIG "));
  g_assert_null (strstr (status, "GOODSIG"));
}

/* One octet of PATH, at AT, changed. */
static void
flip_octet (const char *path, gsize at)
{
  g_autofree char *data = NULL;
  gsize len = 0;

  g_assert_true (g_file_get_contents (path, &data, &len, NULL));
  g_assert_cmpuint (at, <, len);
  data[at] ^= 0x01;
  g_assert_true (g_file_set_contents (path, data, len, NULL));
}

/* A file of several read blocks and an odd tail, signed binary by the
 * default key: the line, the octets of the file unchanged, gpg good;
 * then bad once one octet in its second block changes.  An empty file
 * signs too. */
static void
test_binary (void)
{
  g_autofree char *dir = tu_new_dir ("sign-binary");
  g_autofree char *iso = at_write_random (dir, "iso.img",
                                          3 * 1024 * 1024 + 17);
  g_autofree char *empty = g_build_filename (dir, "empty", NULL);
  g_autofree char *sig = g_strconcat (iso, ".sig", NULL);
  g_autofree char *empty_sig = g_strconcat (empty, ".sig", NULL);
  g_autofree char *before = tu_file_sha256 (iso);
  g_autofree char *after = NULL;
  g_autofree char *out = NULL, *err = NULL, *listing = NULL;
  g_autofree char *line1 = g_strdup_printf ("signed iso.img -> iso.img.sig "
                                            "%s\n", alice_fpr);
  g_autofree char *line2 = g_strdup_printf ("signed empty -> empty.sig %s\n",
                                            alice_fpr);
  g_autofree char *head = NULL;
  gsize len = 0;

  g_assert_true (g_file_set_contents (empty, "", 0, NULL));
  g_assert_cmpint (run_batch (&out, &err, "--sign", "--detach", iso, empty,
                              NULL), ==, 0);
  /* A line each, in the order the jobs end. */
  g_assert_cmpuint (strlen (out), ==, strlen (line1) + strlen (line2));
  g_assert_nonnull (strstr (out, line1));
  g_assert_nonnull (strstr (out, line2));
  after = tu_file_sha256 (iso);
  g_assert_cmpstr (after, ==, before);
  listing = tu_list_dir (dir);
  g_assert_cmpstr (listing, ==, "empty|empty.sig|iso.img|iso.img.sig");
  /* One signature packet and nothing else: tag 2 (new format, one
   * length octet for an Ed25519 signature), v4, over binary data. */
  g_assert_true (g_file_get_contents (sig, &head, &len, NULL));
  g_assert_cmpuint (len, >, 60);
  g_assert_cmpuint ((guint8) head[0], ==, 0xC2);
  g_assert_cmpuint ((guint8) head[1], ==, len - 2);
  g_assert_cmpuint ((guint8) head[2], ==, 4);
  g_assert_cmpuint ((guint8) head[3], ==, 0x00);
  assert_good (sig, iso, alice_fpr, alice_fpr);
  assert_good (empty_sig, empty, alice_fpr, alice_fpr);
  flip_octet (iso, 1024 * 1024 + 5);
  assert_bad (sig, iso);
}

/* --armor: FILE.asc, "PGP SIGNATURE", good; and bad after a change in
 * its last octet. */
static void
test_armored (void)
{
  g_autofree char *dir = tu_new_dir ("sign-armored");
  g_autofree char *notes = g_build_filename (dir, "notes.txt", NULL);
  g_autofree char *asc = g_strconcat (notes, ".asc", NULL);
  g_autofree char *out = NULL, *err = NULL, *text = NULL;
  g_autofree char *expected = g_strdup_printf ("signed notes.txt -> "
                                               "notes.txt.asc %s\n", alice_fpr);

  g_assert_true (g_file_set_contents (notes, "release notes\r\nline two\n",
                                      -1, NULL));
  g_assert_cmpint (run_batch (&out, &err, "--sign", "--detach", "--armor",
                              notes, NULL), ==, 0);
  g_assert_cmpstr (out, ==, expected);
  g_assert_true (g_file_get_contents (asc, &text, NULL, NULL));
  g_assert_true (g_str_has_prefix (text, "-----BEGIN PGP SIGNATURE-----\n"));
  g_assert_true (g_str_has_suffix (text, "-----END PGP SIGNATURE-----\n"));
  assert_good (asc, notes, alice_fpr, alice_fpr);
  /* The octets as they are (binary): a line end changed is bad. */
  flip_octet (notes, strlen ("release notes\r"));
  assert_bad (asc, notes);
}

/* An existing iso.img.sig is never replaced: the signature is
 * numbered, and the file that was there keeps its octets. */
static void
test_taken_name (void)
{
  g_autofree char *dir = tu_new_dir ("sign-taken");
  g_autofree char *iso = at_write_random (dir, "iso.img", 4096);
  g_autofree char *taken = g_strconcat (iso, ".sig", NULL);
  g_autofree char *numbered = g_build_filename (dir, "iso (1).img.sig", NULL);
  g_autofree char *out = NULL, *err = NULL, *kept = NULL, *listing = NULL;
  g_autofree char *expected = g_strdup_printf ("signed iso.img -> "
                                               "\"iso\\x20(1).img.sig\" %s\n",
                                               alice_fpr);

  g_assert_true (g_file_set_contents (taken, "keep me\n", -1, NULL));
  g_assert_cmpint (run_batch (&out, &err, "--sign", "--detach", iso, NULL),
                   ==, 0);
  g_assert_cmpstr (out, ==, expected);
  g_assert_true (g_file_get_contents (taken, &kept, NULL, NULL));
  g_assert_cmpstr (kept, ==, "keep me\n");
  listing = tu_list_dir (dir);
  g_assert_cmpstr (listing, ==, "iso (1).img.sig|iso.img|iso.img.sig");
  assert_good (numbered, iso, alice_fpr, alice_fpr);
}

/* --local-user of a key that signs with a subkey: the line names the
 * subkey, as gpg's VALIDSIG does, with the primary after it. */
static void
test_subkey (void)
{
  g_autofree char *dir = tu_new_dir ("sign-subkey");
  g_autofree char *file = at_write_random (dir, "data.bin", 10000);
  g_autofree char *sig = g_strconcat (file, ".sig", NULL);
  g_autofree char *out = NULL, *err = NULL;
  g_autofree char *expected = g_strdup_printf ("signed data.bin -> "
                                               "data.bin.sig %s\n",
                                               sam_sub_fpr);

  g_assert_cmpint (run_batch (&out, &err, "--sign", "--detach",
                              "--local-user=sam@example.org", file, NULL),
                   ==, 0);
  g_assert_cmpstr (out, ==, expected);
  assert_good (sig, file, sam_sub_fpr, sam_fpr);
}

/* A protected key: the agent's pinentry asked once for the batch's two
 * files; then, its passphrase forgotten, a cancelled pinentry fails
 * both jobs (exit 1, the file named) and writes nothing. */
static void
test_pinentry (void)
{
  g_autofree char *dir = tu_new_dir ("sign-pinentry");
  g_autofree char *a = at_write_random (dir, "a.bin", 5000);
  g_autofree char *b = at_write_random (dir, "b.bin", 7000);
  g_autofree char *a_sig = g_strconcat (a, ".sig", NULL);
  g_autofree char *b_sig = g_strconcat (b, ".sig", NULL);
  g_autofree char *out = NULL, *err = NULL, *out2 = NULL, *err2 = NULL;
  g_autofree char *listing = NULL;
  g_autofree char *c = NULL;
  g_autofree char *c_dir = tu_new_dir ("sign-cancel");
  guint asked;

  tg_gpgconf (home, "--reload", "gpg-agent");
  tg_home_set_pinentry (home, ERIN_PASSPHRASE);
  asked = tg_home_pinentry_count (home);
  g_assert_cmpint (run_batch (&out, &err, "--sign", "--detach",
                              "--local-user=erin@example.org", a, b, NULL),
                   ==, 0);
  g_assert_cmpuint (tg_home_pinentry_count (home), ==, asked + 1);
  assert_good (a_sig, a, erin_fpr, erin_fpr);
  assert_good (b_sig, b, erin_fpr, erin_fpr);

  c = at_write_random (c_dir, "c.bin", 5000);
  tg_gpgconf (home, "--reload", "gpg-agent");
  tg_home_set_pinentry (home, "cancel");
  g_assert_cmpint (run_batch (&out2, &err2, "--sign", "--detach",
                              "--local-user", erin_fpr, c, NULL), ==, 1);
  g_assert_cmpstr (out2, ==, "");
  g_assert_nonnull (strstr (err2, "padlock: c.bin: "));
  listing = tu_list_dir (c_dir);
  g_assert_cmpstr (listing, ==, "c.bin");
}

static gboolean
is_waiting (gpointer data)
{
  const char *detail = padlock_job_get_detail (data);
  return detail && g_str_has_prefix (detail, "Waiting for the passphrase of "
                                     "Erin <erin@example.org> (0x");
}

/* The job as the window will run it: while the agent's pinentry is up
 * the job says whose passphrase it waits for, and its cancel cuts the
 * request: cancelled, nothing written. */
static void
test_job_cancelled (void)
{
  g_autofree char *dir = tu_new_dir ("sign-job");
  g_autofree char *path = at_write_random (dir, "big.bin", 2 * 1024 * 1024);
  g_autoptr(GFile) file = g_file_new_for_path (path);
  g_autoptr(PadlockKeyring) keyring = padlock_keyring_new (home->dir);
  g_autoptr(PadlockAgent) agent = padlock_agent_new (home->dir);
  g_autoptr(PadlockQueue) queue = padlock_queue_new ();
  g_autoptr(PadlockKey) key = NULL;
  g_autoptr(PadlockJob) job = NULL;
  g_autofree char *listing = NULL;
  PadlockJobConfig config = { 0 };

  g_assert_true (at_wait_until (at_keyring_loaded, keyring, WAIT_MS));
  key = padlock_signer_choose_key (keyring, "erin@example.org");
  g_assert_nonnull (key);
  job = padlock_job_new (file, PADLOCK_DIRECTION_SIGN, &config);
  g_assert_cmpstr (padlock_job_get_output_name (job), ==, "big.bin.sig");
  padlock_job_set_signing_key (job, key, agent, home->dir);
  tg_gpgconf (home, "--reload", "gpg-agent");
  tg_home_set_pinentry (home, "hang");
  padlock_queue_add (queue, job);
  g_assert_true (at_wait_until (is_waiting, job, WAIT_MS));
  padlock_job_cancel (job);
  g_assert_true (at_wait_until (at_job_is_finished, job, WAIT_MS));
  tg_home_release_pinentry (home);
  g_assert_cmpint (padlock_job_get_state (job), ==, PADLOCK_JOB_CANCELLED);
  g_assert_error (padlock_job_get_error (job), PADLOCK_ERROR,
                  PADLOCK_ERROR_CANCELLED);
  listing = tu_list_dir (dir);
  g_assert_cmpstr (listing, ==, "big.bin");
  /* GnuPG 2.2's agent keeps a pinentry up until it is answered. */
  tg_gpgconf (home, "--kill", "gpg-agent");
}

/* What --detach refuses, before any file is read (exit 2), and a folder
 * (its job fails, exit 1): nothing written either way. */
static void
test_usage (void)
{
  g_autofree char *dir = tu_new_dir ("sign-usage");
  g_autofree char *file = at_write_random (dir, "f.bin", 100);
  g_autofree char *folder = g_build_filename (dir, "sub", NULL);
  g_autofree char *listing = NULL;
  const char *with[] = { "--encrypt", "--decrypt", "--recipient=alice",
                         "--encrypt-to-self", "--hide-recipients",
                         "--profile=rfc9580" };

  g_assert_cmpint (g_mkdir (folder, 0700), ==, 0);
  {
    g_autofree char *out = NULL, *err = NULL;

    g_assert_cmpint (run_batch (&out, &err, "--detach", file, NULL), ==, 2);
    g_assert_nonnull (strstr (err, "--detach needs --sign."));
  }
  for (guint i = 0; i < G_N_ELEMENTS (with); i++)
    {
      g_autofree char *out = NULL, *err = NULL;

      g_assert_cmpint (run_batch (&out, &err, "--sign", "--detach", with[i],
                                  file, NULL), ==, 2);
      g_assert_nonnull (strstr (err, "--detach makes signatures only"));
    }
  {
    g_autofree char *out = NULL, *err = NULL;

    g_assert_cmpint (run_batch (&out, &err, "--sign", "--detach", folder,
                                NULL), ==, 1);
    g_assert_nonnull (strstr (err, "padlock: sub: A folder is not signed"));
  }
  listing = tu_list_dir (dir);
  g_assert_cmpstr (listing, ==, "f.bin|sub");
}

int
main (int argc, char **argv)
{
  int status;

  tu_init (&argc, &argv);
  g_test_add_func ("/batch-sign/binary", test_binary);
  g_test_add_func ("/batch-sign/armored", test_armored);
  g_test_add_func ("/batch-sign/taken-name", test_taken_name);
  g_test_add_func ("/batch-sign/subkey", test_subkey);
  g_test_add_func ("/batch-sign/pinentry", test_pinentry);
  g_test_add_func ("/batch-sign/job-cancelled", test_job_cancelled);
  g_test_add_func ("/batch-sign/usage", test_usage);
  make_keys ();
  status = g_test_run ();
  g_clear_pointer (&home, tg_home_free);
  return status;
}
