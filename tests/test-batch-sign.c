/* test-batch-sign.c - detached signatures (issue 34 §4): `padlock
 * --batch --sign --detach FILE…` and the job behind it
 * (PADLOCK_DIRECTION_SIGN), in a GnuPG home of the test's own with a
 * real gpg-agent and the test pinentry, checked by the real gpg: `gpg
 * --verify FILE.sig FILE` says good, and bad once one octet of FILE
 * changed; binary and armored; a signing subkey named on the line; an
 * existing FILE.sig never replaced; a cancelled or hanging pinentry
 * leaves nothing; usage refused before anything is read.
 *
 * Checksum lists made (`padlock --batch --checksum-list FILE…`, issue
 * 34 §4): SHA256SUMS and its signature, accepted by sha256sum -c, gpg
 * --verify and padlock's own check, names with spaces and backslashes
 * as they are, an existing SHA256SUMS kept; what cannot be listed
 * refused with nothing written.  And where writing fails (a full disk,
 * a short write, a failing fsync, a file size limit, with and without
 * O_TMPFILE): no partial FILE.sig, SHA256SUMS or signature is left, and
 * the job or the batch says so (exit 1).
 */
#include <string.h>
#include <glib/gstdio.h>

#include <errno.h>
#include <fcntl.h>
#include <unistd.h>

#include "app-testutil.h"
#include "fail-io.h"
#include "gnupg-home.h"
#include "padlock-agent.h"
#include "padlock-error.h"
#include "padlock-job.h"
#include "padlock-keyring.h"
#include "padlock-queue.h"
#include "padlock-signer.h"
#include "refuse-tmpfile.h"
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


/* sha256sum -c LIST, run in DIR: its exit status (its words logged). */
static int
sha256sum_check (const char *dir, const char *list)
{
  g_autofree char *command = g_strdup_printf ("cd '%s' && sha256sum -c '%s'",
                                              dir, list);
  g_autoptr(GBytes) out = NULL;
  g_autofree char *err = NULL;
  int status = -1;

  g_assert_true (tu_run ((const char *const[]) { "/bin/sh", "-c", command,
                                                 NULL }, NULL, &out, &err,
                         &status));
  g_test_message ("sha256sum -c %s: %.*s%s", list, (int) g_bytes_get_size (out),
                  (const char *) g_bytes_get_data (out, NULL), err);
  return status;
}

/* Four files, one name with spaces, one with a backslash, one of
 * several read blocks, beside an existing SHA256SUMS: "SHA256SUMS (1)"
 * and its signature, the lines for scripts, sha256sum's text to the
 * octet; sha256sum -c, gpg --verify and `padlock --batch` on the list
 * all say good; the SHA256SUMS that was there keeps its octets.  Then
 * --armor: "SHA256SUMS (2).asc". */
static void
test_checksum_list (void)
{
  g_autofree char *dir = tu_new_dir ("list-make");
  g_autofree char *iso = at_write_random (dir, "debian-12.iso",
                                          3 * 1024 * 1024 + 17);
  g_autofree char *notes = g_build_filename (dir, "release notes.txt", NULL);
  g_autofree char *slash = g_build_filename (dir, "back\\slash", NULL);
  g_autofree char *empty = g_build_filename (dir, "empty", NULL);
  g_autofree char *taken = g_build_filename (dir, "SHA256SUMS", NULL);
  g_autofree char *list = g_build_filename (dir, "SHA256SUMS (1)", NULL);
  g_autofree char *sig = g_build_filename (dir, "SHA256SUMS (1).sig", NULL);
  g_autofree char *asc = g_build_filename (dir, "SHA256SUMS (2).asc", NULL);
  g_autofree char *list2 = g_build_filename (dir, "SHA256SUMS (2)", NULL);
  g_autofree char *out = NULL, *err = NULL, *text = NULL, *kept = NULL;
  g_autofree char *listing = NULL, *expected = NULL, *armored = NULL;
  g_autofree char *iso_sum = NULL, *notes_sum = NULL, *slash_sum = NULL;
  g_autofree char *check_out = NULL, *check_err = NULL;
  g_autofree char *out2 = NULL, *err2 = NULL;
  g_autofree char *empty_sum = tu_sha256_hex ("", 0);

  g_assert_true (g_file_set_contents (notes, "release notes\n", -1, NULL));
  g_assert_true (g_file_set_contents (slash, "a\\b\n", -1, NULL));
  g_assert_true (g_file_set_contents (empty, "", 0, NULL));
  g_assert_true (g_file_set_contents (taken, "keep me\n", -1, NULL));
  iso_sum = tu_file_sha256 (iso);
  notes_sum = tu_file_sha256 (notes);
  slash_sum = tu_file_sha256 (slash);
  g_assert_cmpint (run_batch (&out, &err, "--checksum-list", iso, notes,
                              slash, empty, NULL), ==, 0);
  expected = g_strdup_printf ("listed \"back\\\\slash\" -> \"SHA256SUMS\\x20(1)\" sha256\n"
                              "listed debian-12.iso -> \"SHA256SUMS\\x20(1)\" sha256\n"
                              "listed empty -> \"SHA256SUMS\\x20(1)\" sha256\n"
                              "listed \"release\\x20notes.txt\" -> \"SHA256SUMS\\x20(1)\" sha256\n"
                              "signed \"SHA256SUMS\\x20(1)\" -> \"SHA256SUMS\\x20(1).sig\" %s\n",
                              alice_fpr);
  g_assert_cmpstr (out, ==, expected);
  listing = tu_list_dir (dir);
  g_assert_cmpstr (listing, ==, "SHA256SUMS|SHA256SUMS (1)|SHA256SUMS (1).sig|"
                                "back\\slash|debian-12.iso|empty|"
                                "release notes.txt");
  g_assert_true (g_file_get_contents (taken, &kept, NULL, NULL));
  g_assert_cmpstr (kept, ==, "keep me\n");
  g_free (expected);
  expected = g_strdup_printf ("\\%s  back\\\\slash\n%s  debian-12.iso\n"
                              "%s  empty\n%s  release notes.txt\n",
                              slash_sum, iso_sum, empty_sum, notes_sum);
  g_assert_true (g_file_get_contents (list, &text, NULL, NULL));
  g_assert_cmpstr (text, ==, expected);
  g_assert_cmpint (sha256sum_check (dir, "SHA256SUMS (1)"), ==, 0);
  assert_good (sig, list, alice_fpr, alice_fpr);
  /* Padlock's own check of what it wrote. */
  g_assert_cmpint (run_batch (&check_out, &check_err, list, NULL), ==, 0);
  g_assert_nonnull (strstr (check_out, "checked \"SHA256SUMS\\x20(1)\" -> "
                                       "\"back\\\\slash\" sha256 ok\n"));
  g_assert_nonnull (strstr (check_out, "checked \"SHA256SUMS\\x20(1)\": 4 ok, "
                                       "0 differ, 0 not here, signature good "));
  /* Armored: the next number, and .asc. */
  g_assert_cmpint (run_batch (&out2, &err2, "--checksum-list", "--armor",
                              iso, NULL), ==, 0);
  g_assert_true (g_file_get_contents (asc, &armored, NULL, NULL));
  g_assert_true (g_str_has_prefix (armored, "-----BEGIN PGP SIGNATURE-----\n"));
  assert_good (asc, list2, alice_fpr, alice_fpr);
  g_assert_cmpint (sha256sum_check (dir, "SHA256SUMS (2)"), ==, 0);
  /* Changed after it was listed: sha256sum and gpg both see it. */
  flip_octet (iso, 2 * 1024 * 1024);
  g_assert_cmpint (sha256sum_check (dir, "SHA256SUMS (1)"), !=, 0);
  flip_octet (list, 3);
  assert_bad (sig, list);
}

/* A free SHA256SUMS beside a signature of that name (a stale
 * SHA256SUMS.gpg, which a check would take for the list's): the list
 * takes the next number, and the signature that was there stays. */
static void
test_checksum_list_stale_signature (void)
{
  g_autofree char *dir = tu_new_dir ("list-stale");
  g_autofree char *file = at_write_random (dir, "f.bin", 1000);
  g_autofree char *stale = g_build_filename (dir, "SHA256SUMS.gpg", NULL);
  g_autofree char *out = NULL, *err = NULL, *listing = NULL, *kept = NULL;

  g_assert_true (g_file_set_contents (stale, "stale\n", -1, NULL));
  g_assert_cmpint (run_batch (&out, &err, "--checksum-list", file, NULL),
                   ==, 0);
  listing = tu_list_dir (dir);
  g_assert_cmpstr (listing, ==, "SHA256SUMS (1)|SHA256SUMS (1).sig|"
                                "SHA256SUMS.gpg|f.bin");
  g_assert_true (g_file_get_contents (stale, &kept, NULL, NULL));
  g_assert_cmpstr (kept, ==, "stale\n");
}

/* What --checksum-list refuses: options (exit 2), and inputs it cannot
 * list (exit 1): files of two folders, a folder, a missing file, a name
 * with a control character.  Nothing is written, in either folder. */
static void
test_checksum_list_refused (void)
{
  g_autofree char *dir = tu_new_dir ("list-refused");
  g_autofree char *other = tu_new_dir ("list-refused-other");
  g_autofree char *file = at_write_random (dir, "f.bin", 100);
  g_autofree char *there = at_write_random (other, "g.bin", 100);
  g_autofree char *sub = g_build_filename (dir, "sub", NULL);
  g_autofree char *missing = g_build_filename (dir, "missing", NULL);
  g_autofree char *esc = at_write_random (dir, "esc\x1b[2Kape", 10);
  g_autofree char *listing = NULL;
  const char *options[] = { "--detach", "--encrypt", "--decrypt",
                            "--recipient=alice", "--passphrase-file=pw",
                            "--profile=rfc9580", "--output-dir=/tmp" };
  const struct
  {
    const char *a, *b, *says;
  } inputs[] = {
    { file, there, "must all be in one folder: g.bin is not in the folder "
                   "of f.bin" },
    { file, sub, "sub is a folder" },
    { file, missing, "/missing: No such file or directory" },
    { file, esc, "esc\\x1B[2Kape cannot be listed" },
  };

  g_assert_cmpint (g_mkdir (sub, 0700), ==, 0);
  for (guint i = 0; i < G_N_ELEMENTS (options); i++)
    {
      g_autofree char *out = NULL, *err = NULL;

      g_assert_cmpint (run_batch (&out, &err, "--checksum-list", options[i],
                                  file, NULL), ==, 2);
      g_assert_nonnull (strstr (err, "does not go with it"));
    }
  for (guint i = 0; i < G_N_ELEMENTS (inputs); i++)
    {
      g_autofree char *out = NULL, *err = NULL;

      g_assert_cmpint (run_batch (&out, &err, "--checksum-list", inputs[i].a,
                                  inputs[i].b, NULL), ==, 1);
      g_assert_cmpstr (out, ==, "");
      g_assert_nonnull (strstr (err, inputs[i].says));
    }
  listing = tu_list_dir (dir);
  g_assert_cmpstr (listing, ==, "esc\x1b[2Kape|f.bin|sub");
  g_free (listing);
  listing = tu_list_dir (other);
  g_assert_cmpstr (listing, ==, "g.bin");
}

/* A cancelled pinentry: the list's job fails (exit 1, the list named)
 * and writes nothing. */
static void
test_checksum_list_cancelled (void)
{
  g_autofree char *dir = tu_new_dir ("list-cancel");
  g_autofree char *file = at_write_random (dir, "c.bin", 5000);
  g_autofree char *out = NULL, *err = NULL, *listing = NULL;

  tg_gpgconf (home, "--reload", "gpg-agent");
  tg_home_set_pinentry (home, "cancel");
  g_assert_cmpint (run_batch (&out, &err, "--checksum-list",
                              "--local-user=erin@example.org", file, NULL),
                   ==, 1);
  g_assert_cmpstr (out, ==, "");
  g_assert_nonnull (strstr (err, "padlock: SHA256SUMS: "));
  listing = tu_list_dir (dir);
  g_assert_cmpstr (listing, ==, "c.bin");
}

/* A list's job as the window runs it: its size is the files', it says
 * whose passphrase it waits for once they are hashed, and its cancel
 * cuts the request: cancelled, neither the list nor its signature. */
static void
test_checksum_list_job_cancelled (void)
{
  g_autofree char *dir = tu_new_dir ("list-job");
  g_autofree char *a = at_write_random (dir, "a.bin", 2 * 1024 * 1024);
  g_autofree char *b = at_write_random (dir, "b.bin", 12345);
  g_autoptr(GFile) fa = g_file_new_for_path (a);
  g_autoptr(GFile) fb = g_file_new_for_path (b);
  GFile *files[] = { fa, fb };
  g_autoptr(PadlockKeyring) keyring = padlock_keyring_new (home->dir);
  g_autoptr(PadlockAgent) agent = padlock_agent_new (home->dir);
  g_autoptr(PadlockQueue) queue = padlock_queue_new ();
  g_autoptr(PadlockKey) key = NULL;
  g_autoptr(PadlockJob) job = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *listing = NULL;
  PadlockJobConfig config = { 0 };

  g_assert_true (at_wait_until (at_keyring_loaded, keyring, WAIT_MS));
  key = padlock_signer_choose_key (keyring, "erin@example.org");
  g_assert_nonnull (key);
  job = padlock_job_new_checksum_list (files, 2, &config, &error);
  g_assert_no_error (error);
  g_assert_true (padlock_job_get_makes_list (job));
  g_assert_cmpint (padlock_job_get_direction (job), ==, PADLOCK_DIRECTION_SIGN);
  g_assert_cmpstr (padlock_job_get_output_name (job), ==, "SHA256SUMS");
  g_assert_cmpint (padlock_job_get_bytes_total (job), ==, 2 * 1024 * 1024 + 12345);
  padlock_job_set_signing_key (job, key, agent, home->dir);
  tg_gpgconf (home, "--reload", "gpg-agent");
  tg_home_set_pinentry (home, "hang");
  padlock_queue_add (queue, job);
  g_assert_true (at_wait_until (is_waiting, job, WAIT_MS));
  /* Hashed, all of it, before the agent was asked. */
  g_assert_cmpuint (padlock_job_get_bytes_done (job), ==, 2 * 1024 * 1024 + 12345);
  padlock_job_cancel (job);
  g_assert_true (at_wait_until (at_job_is_finished, job, WAIT_MS));
  tg_home_release_pinentry (home);
  g_assert_cmpint (padlock_job_get_state (job), ==, PADLOCK_JOB_CANCELLED);
  g_assert_null (padlock_job_get_listed (job));
  g_assert_null (padlock_job_get_list_signature (job));
  listing = tu_list_dir (dir);
  g_assert_cmpstr (listing, ==, "a.bin|b.bin");
  tg_gpgconf (home, "--kill", "gpg-agent");
}

/* Writes into FD until the disk says it is full. */
static void
fill_disk (const char *path)
{
  static const char block[4096];
  int fd = open (path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0600);

  g_assert_cmpint (fd, >=, 0);
  while (write (fd, block, sizeof block) > 0)
    ;
  g_assert_cmpint (errno, ==, ENOSPC);
  while (write (fd, block, 1) > 0)
    ;
  g_assert_cmpint (close (fd), ==, 0);
}

/* A full disk (a tmpfs, filled): `--sign --detach` and
 * `--checksum-list` exit 1 saying so, the file named, and leave nothing
 * (no FILE.sig, no SHA256SUMS, no signature, no temporary file). */
static void
test_full_disk (void)
{
  g_autofree char *mnt = tu_mount_tmpfs ("batch-sign-full", "1m");
  g_autofree char *a = NULL, *b = NULL, *filler = NULL;
  const char *runs[][2] = { { "--sign", "--detach" },
                            { "--checksum-list", NULL } };

  if (!mnt)
    return;
  a = at_write_random (mnt, "a.bin", 20000);
  b = at_write_random (mnt, "b.bin", 30000);
  filler = g_build_filename (mnt, "filler", NULL);
  fill_disk (filler);
  for (guint i = 0; i < G_N_ELEMENTS (runs); i++)
    {
      g_autofree char *out = NULL, *err = NULL, *listing = NULL;

      g_assert_cmpint (run_batch (&out, &err, runs[i][0],
                                  runs[i][1] ? runs[i][1] : a,
                                  runs[i][1] ? a : b, runs[i][1] ? b : NULL,
                                  NULL), ==, 1);
      g_assert_cmpstr (out, ==, "");
      g_assert_nonnull (strstr (err, "The disk is full."));
      g_assert_nonnull (strstr (err, i ? "padlock: SHA256SUMS: "
                                       : "padlock: a.bin: "));
      listing = tu_list_dir (mnt);
      g_assert_cmpstr (listing, ==, "a.bin|b.bin|filler");
    }
  g_unlink (filler);
  g_unlink (a);
  g_unlink (b);
  tu_unmount_tmpfs (g_steal_pointer (&mnt));
}

/* A file size limit (ulimit -f 0: every octet written to a file is one
 * too many, EFBIG, SIGXFSZ ignored): the same, exit 1 and nothing left. */
static void
test_file_size_limit (void)
{
  g_autofree char *dir = tu_new_dir ("sign-limit");
  g_autofree char *a = at_write_random (dir, "a.bin", 5000);
  const char *app = g_getenv ("PADLOCK_APP");
  g_autofree char *gnupghome = g_strconcat ("GNUPGHOME=", home->dir, NULL);
  g_autoptr(GBytes) keys = NULL;

  /* The agent runs already: it is not started under the limit. */
  g_assert_cmpint (tg_gpg (home, NULL, NULL, &keys, "--list-secret-keys",
                           NULL), ==, 0);
  for (int list = 0; list < 2; list++)
    {
      const char *argv[] = { "env", gnupghome, "/bin/sh", "-c",
                             "ulimit -f 0; exec \"$@\"", "sh", app,
                             "--batch", list ? "--checksum-list" : "--sign",
                             list ? a : "--detach", list ? NULL : a, NULL };
      g_autoptr(GBytes) out = NULL;
      g_autofree char *err = NULL, *listing = NULL;
      int status = -1;

      g_assert_true (tu_run (argv, NULL, &out, &err, &status));
      g_test_message ("stderr: %s", err);
      g_assert_cmpint (status, ==, 1);
      g_assert_cmpuint (g_bytes_get_size (out), ==, 0);
      g_assert_nonnull (strstr (err, "larger than the disk or a limit"));
      listing = tu_list_dir (dir);
      g_assert_cmpstr (listing, ==, "a.bin");
    }
}

static gboolean
is_finished (gpointer job)
{
  return padlock_job_is_finished (job);
}

/* A signing job (a file's, or a list's: LIST) of DIR/a.bin and
 * DIR/b.bin by Alice, run in this process while tu_fail_io is armed
 * with CALL, N, ERRNO_ and SHORT: it fails with the engine's words for
 * ERRNO_, and DIR holds the two files only. */
static void
run_failing_job (const char *dir, gboolean list, tu_io_call call, guint n,
                 int errno_, gboolean short_write, const char *says)
{
  g_autofree char *a = g_build_filename (dir, "a.bin", NULL);
  g_autofree char *b = g_build_filename (dir, "b.bin", NULL);
  g_autoptr(GFile) fa = g_file_new_for_path (a);
  g_autoptr(GFile) fb = g_file_new_for_path (b);
  GFile *files[] = { fa, fb };
  g_autoptr(PadlockKeyring) keyring = padlock_keyring_new (home->dir);
  g_autoptr(PadlockAgent) agent = padlock_agent_new (home->dir);
  g_autoptr(PadlockQueue) queue = padlock_queue_new ();
  g_autoptr(PadlockKey) key = NULL;
  g_autoptr(PadlockJob) job = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *listing = NULL;
  PadlockJobConfig config = { 0 };

  g_assert_true (at_wait_until (at_keyring_loaded, keyring, WAIT_MS));
  key = padlock_signer_choose_key (keyring, "alice@example.org");
  g_assert_nonnull (key);
  job = list ? padlock_job_new_checksum_list (files, 2, &config, &error)
             : padlock_job_new (fa, PADLOCK_DIRECTION_SIGN, &config);
  g_assert_no_error (error);
  padlock_job_set_signing_key (job, key, agent, home->dir);
  tu_fail_io (dir, call, n, errno_, short_write);
  padlock_queue_add (queue, job);
  g_assert_true (at_wait_until (is_finished, job, WAIT_MS));
  g_test_message ("%u calls counted", tu_fail_io_count ());
  tu_fail_io_off ();
  g_assert_cmpint (padlock_job_get_state (job), ==, PADLOCK_JOB_FAILED);
  g_test_message ("%s", padlock_job_get_error (job)->message);
  g_assert_nonnull (strstr (padlock_job_get_error (job)->message, says));
  g_assert_null (padlock_job_get_output (job));
  listing = tu_list_dir (dir);
  g_assert_cmpstr (listing, ==, "a.bin|b.bin");
}

/* In this process, each write of the signature or the list failing in
 * turn (a full disk, a write cut short, then the disk full), and each
 * fsync (an I/O error: the list's, and the signature's once the list
 * is linked, which must go again), with O_TMPFILE and with its visible
 * fallback: the job fails saying why, and nothing is left. */
static void
test_failing_writes (void)
{
  g_autofree char *dir = tu_new_dir ("sign-faults");
  g_autofree char *a = at_write_random (dir, "a.bin", 200000);
  g_autofree char *b = at_write_random (dir, "b.bin", 1000);
  g_autofree char *canonical = g_canonicalize_filename (dir, NULL);

  tg_gpgconf (home, "--reload", "gpg-agent");
  for (int fallback = 0; fallback < 2; fallback++)
    {
      tu_refuse_tmpfile (fallback);
      for (int list = 0; list < 2; list++)
        {
          /* The signature's one write; the list's, then its signature's. */
          for (guint n = 1; n <= (list ? 2u : 1u); n++)
            {
              g_test_message ("%s, %s: write %u of ENOSPC, then short",
                              fallback ? "mkstemp" : "O_TMPFILE",
                              list ? "list" : "file", n);
              run_failing_job (canonical, list, TU_IO_WRITE, n, ENOSPC, FALSE,
                               "The disk is full.");
              run_failing_job (canonical, list, TU_IO_WRITE, n, ENOSPC, TRUE,
                               "The disk is full.");
              run_failing_job (canonical, list, TU_IO_WRITE, n, EFBIG, FALSE,
                               "larger than the disk or a limit");
            }
          for (guint n = 1; n <= (list ? 2u : 1u); n++)
            {
              g_test_message ("%s, %s: fsync %u of EIO",
                              fallback ? "mkstemp" : "O_TMPFILE",
                              list ? "list" : "file", n);
              run_failing_job (canonical, list, TU_IO_FSYNC, n, EIO, FALSE,
                               "");
            }
        }
    }
  tu_refuse_tmpfile (FALSE);
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
  g_test_add_func ("/batch-sign/checksum-list", test_checksum_list);
  g_test_add_func ("/batch-sign/checksum-list-stale-signature",
                   test_checksum_list_stale_signature);
  g_test_add_func ("/batch-sign/checksum-list-refused",
                   test_checksum_list_refused);
  g_test_add_func ("/batch-sign/checksum-list-cancelled",
                   test_checksum_list_cancelled);
  g_test_add_func ("/batch-sign/checksum-list-job-cancelled",
                   test_checksum_list_job_cancelled);
  g_test_add_func ("/batch-sign/full-disk", test_full_disk);
  g_test_add_func ("/batch-sign/file-size-limit", test_file_size_limit);
  g_test_add_func ("/batch-sign/failing-writes", test_failing_writes);
  make_keys ();
  status = g_test_run ();
  g_clear_pointer (&home, tg_home_free);
  return status;
}
