/* test-padlock-folder.c - folders as PadlockJobs: FOLDER.tar.gpg and back,
 * the row's detail, cancel, the unpack preference, hostile archives */
#include <string.h>
#include <sys/stat.h>
#include <glib/gstdio.h>

#include "app-testutil.h"
#include "padlock-error.h"
#include "padlock-folder.h"
#include "padlock-job.h"
#include "tar.h"

#define PASSPHRASE "folder test passphrase"
#define TIMEOUT_MS 120000

/* DIR/Photos with N files of SIZE octets, and a FIFO when FIFO. */
static char *
make_folder (const char *dir, guint n, gsize size, gboolean fifo)
{
  char *folder = g_build_filename (dir, "Photos", NULL);
  g_autofree char *sub = g_build_filename (folder, "sub", NULL);

  g_assert_cmpint (g_mkdir_with_parents (sub, 0755), ==, 0);
  for (guint i = 0; i < n; i++)
    {
      g_autofree char *name = g_strdup_printf ("photo-%02u.jpg", i);
      g_free (at_write_random (i % 2 ? sub : folder, name, size));
    }
  if (fifo)
    {
      g_autofree char *path = g_build_filename (folder, "fifo", NULL);
      g_assert_cmpint (mkfifo (path, 0600), ==, 0);
    }
  return folder;
}

static void
assert_same_file (const char *a, const char *b)
{
  g_autofree char *da = NULL, *db = NULL;
  gsize la, lb;

  g_assert_true (g_file_get_contents (a, &da, &la, NULL));
  g_assert_true (g_file_get_contents (b, &db, &lb, NULL));
  g_assert_cmpmem (da, la, db, lb);
}

/* Encrypted as Photos.tar.gpg, the FIFO listed; unpacked into a folder,
 * or kept as Photos.tar when the preference is off. */
static void
test_roundtrip (void)
{
  g_autofree char *dir = tu_new_dir ("folder-roundtrip");
  g_autofree char *out = tu_new_dir ("folder-roundtrip-out");
  g_autofree char *folder = make_folder (dir, 4, 100000, TRUE);
  g_autofree char *archive = g_build_filename (dir, "Photos.tar.gpg", NULL);
  g_autofree char *tar = g_build_filename (out, "Photos.tar", NULL);
  g_autofree char *a = g_build_filename (folder, "sub", "photo-01.jpg", NULL);
  g_autofree char *b = g_build_filename (out, "Photos", "sub", "photo-01.jpg",
                                         NULL);
  g_autofree char *head = NULL;
  g_autoptr(PadlockQueue) queue = padlock_queue_new ();
  g_autoptr(PadlockJob) enc = NULL, dec = NULL, kept = NULL;
  PadlockJobConfig plain = { 0 };
  PadlockJobConfig unpack = { .output_dir = out, .unpack_archives = TRUE };
  PadlockJobConfig keep = { .output_dir = out, .unpack_archives = FALSE };
  gsize len;

  enc = at_run_job (queue, folder, PADLOCK_DIRECTION_ENCRYPT, &plain, PASSPHRASE);
  g_assert_cmpstr (padlock_job_get_output_name (enc), ==, "Photos.tar.gpg");
  g_assert_true (at_wait_queue_idle (queue, TIMEOUT_MS));
  g_assert_no_error (padlock_job_get_error (enc));
  g_assert_cmpint (padlock_job_get_state (enc), ==, PADLOCK_JOB_DONE);
  g_assert_cmpfloat (padlock_job_get_progress (enc), ==, 1.0);
  g_assert_true (g_file_test (archive, G_FILE_TEST_IS_REGULAR));
  g_assert_nonnull (padlock_job_get_detail (enc));
  g_assert_nonnull (strstr (padlock_job_get_detail (enc), "fifo"));

  dec = at_run_job (queue, archive, PADLOCK_DIRECTION_DECRYPT, &unpack, PASSPHRASE);
  g_assert_true (at_wait_queue_idle (queue, TIMEOUT_MS));
  g_assert_no_error (padlock_job_get_error (dec));
  g_assert_cmpstr (padlock_job_get_output_name (dec), ==, "Photos");
  assert_same_file (a, b);

  kept = at_run_job (queue, archive, PADLOCK_DIRECTION_DECRYPT, &keep, PASSPHRASE);
  g_assert_true (at_wait_queue_idle (queue, TIMEOUT_MS));
  g_assert_no_error (padlock_job_get_error (kept));
  g_assert_cmpstr (padlock_job_get_output_name (kept), ==, "Photos.tar");
  g_assert_true (g_file_get_contents (tar, &head, &len, NULL));
  g_assert_true (pl_tar_header_is_valid (head, len));
}

/* While the data flows, the row's detail is the file being read; a
 * cancel leaves nothing but the folder. */
static void
test_detail_and_cancel (void)
{
  g_autofree char *dir = tu_new_dir ("folder-cancel");
  g_autofree char *folder = make_folder (dir, 40, 4 << 20, FALSE);
  g_autofree char *listing = NULL;
  g_autoptr(PadlockQueue) queue = padlock_queue_new ();
  g_autoptr(PadlockJob) job = NULL;
  PadlockJobConfig plain = { 0 };
  const char *detail;

  job = at_run_job (queue, folder, PADLOCK_DIRECTION_ENCRYPT, &plain, PASSPHRASE);
  g_assert_true (at_wait_until (at_job_is_midway, job, TIMEOUT_MS));
  g_assert_false (padlock_job_is_finished (job));
  detail = padlock_job_get_detail (job);
  g_assert_nonnull (detail);
  g_test_message ("detail midway: %s", detail);
  g_assert_true (g_str_has_suffix (detail, ".jpg"));
  g_assert_cmpint (padlock_job_get_bytes_total (job), >, 40 * (4 << 20));
  padlock_job_cancel (job);
  g_assert_true (at_wait_until (at_job_is_finished, job, TIMEOUT_MS));
  g_assert_cmpint (padlock_job_get_state (job), ==, PADLOCK_JOB_CANCELLED);
  listing = tu_list_dir (dir);
  g_assert_cmpstr (listing, ==, "Photos");
}

/* The scan's words. */
static void
test_counting_words (void)
{
  PadlockFolderStatus status;
  g_autofree char *text = NULL;
  g_autoptr(GString) digits = g_string_new (NULL);

  padlock_folder_status_init (&status);
  g_assert_null (padlock_folder_status_describe (&status));
  atomic_store (&status.counting, 1);
  atomic_store (&status.counted, 1234);
  text = padlock_folder_status_describe (&status);
  g_assert_true (g_str_has_prefix (text, "Counting files… "));
  for (const char *p = text; *p; p++)
    if (g_ascii_isdigit (*p))
      g_string_append_c (digits, *p);
  g_assert_cmpstr (digits->str, ==, "1234");
  padlock_folder_status_clear (&status);
}

/* A hostile archive fails the job in words naming the entry and what is
 * wrong with it, and leaves nothing. */
typedef struct
{
  const char *name;             /* tar-hostile.py's */
  const char *entry;
  const char *says;
} HostileCase;

static const HostileCase hostile_cases[] = {
  { "through-symlink", "top/out/padlock-through.txt",
    "would be written outside its folder" },
  { "hardlink-missing", "top/h",
    "is a hard link to a file that is not in the archive" },
};

static void
test_hostile (gconstpointer data)
{
  const HostileCase *hc = data;
  g_autofree char *dir = tu_new_dir ("folder-hostile");
  g_autofree char *out = tu_new_dir ("folder-hostile-out");
  g_autofree char *tar = g_build_filename (dir, "evil.tar", NULL);
  g_autofree char *archive = g_build_filename (dir, "evil.tar.gpg", NULL);
  g_autofree char *script = g_build_filename (g_getenv ("PADLOCK_SOURCE_DIR"),
                                              "tests", "tar-hostile.py", NULL);
  g_autofree char *python = tu_peer ("python3");
  g_autofree char *listing = NULL;
  g_autofree char *want = NULL;
  g_autoptr(GBytes) named = NULL;
  g_autoptr(PadlockQueue) queue = padlock_queue_new ();
  g_autoptr(PadlockJob) job = NULL;
  PadlockJobConfig unpack = { .output_dir = out, .unpack_archives = TRUE };
  const GError *error;
  int status;

  if (!python)
    return;
  {
    const char *argv[] = { python, script, hc->name, tar, NULL };
    g_assert_true (tu_run (argv, NULL, &named, NULL, &status));
    g_assert_cmpint (status, ==, 0);
  }
  at_gpg_encrypt (tar, archive, PASSPHRASE, NULL);
  job = at_run_job (queue, archive, PADLOCK_DIRECTION_DECRYPT, &unpack, PASSPHRASE);
  g_assert_true (at_wait_queue_idle (queue, TIMEOUT_MS));
  error = padlock_job_get_error (job);
  g_assert_error ((GError *) error, PADLOCK_ERROR, PADLOCK_ERROR_FOLDER);
  g_test_message ("%s", error->message);
  want = g_strdup_printf ("“%s” %s", hc->entry, hc->says);
  g_assert_nonnull (strstr (error->message, want));
  listing = tu_list_dir (out);
  g_assert_cmpstr (listing, ==, "");
}

/* Several items in one archive, named after their folder, unpacked as
 * that folder; items from different folders make Archive.tar.gpg. */
static void
test_one_archive (void)
{
  g_autofree char *dir = tu_new_dir ("Trip");
  g_autofree char *out = tu_new_dir ("one-archive-out");
  g_autofree char *elsewhere = tu_new_dir ("elsewhere");
  g_autofree char *folder = make_folder (dir, 2, 1000, FALSE);
  g_autofree char *a = at_write_random (dir, "a.txt", 100);
  g_autofree char *b = at_write_random (elsewhere, "b.txt", 100);
  g_autofree char *base = g_path_get_basename (dir);
  g_autofree char *archive_name = g_strconcat (base, ".tar.gpg", NULL);
  g_autofree char *archive = g_build_filename (dir, archive_name, NULL);
  g_autofree char *unpacked_a = g_build_filename (out, base, "a.txt", NULL);
  g_autofree char *unpacked_photo = g_build_filename (out, base, "Photos",
                                                      "photo-00.jpg", NULL);
  g_autofree char *photo = g_build_filename (folder, "photo-00.jpg", NULL);
  g_autoptr(GFile) fa = g_file_new_for_path (a);
  g_autoptr(GFile) fb = g_file_new_for_path (b);
  g_autoptr(GFile) ff = g_file_new_for_path (folder);
  g_autoptr(GFile) fz = g_file_new_for_path (archive);
  GFile *together[] = { fa, ff };
  GFile *apart[] = { fa, fb };
  g_autoptr(PadlockQueue) queue = padlock_queue_new ();
  g_autoptr(PadlockJob) enc = NULL, dec = NULL, mixed = NULL;
  g_autoptr(PadlockSecret) secret = padlock_secret_new (PASSPHRASE);
  PadlockJobConfig plain = { 0 };
  PadlockJobConfig unpack = { .output_dir = out, .unpack_archives = TRUE };

  enc = padlock_job_new_archive (together, 2, &plain);
  g_assert_cmpstr (padlock_job_get_output_name (enc), ==, archive_name);
  padlock_job_set_secret (enc, secret);
  padlock_queue_add (queue, enc);
  g_assert_true (at_wait_queue_idle (queue, TIMEOUT_MS));
  g_assert_no_error (padlock_job_get_error (enc));
  g_assert_true (g_file_test (archive, G_FILE_TEST_IS_REGULAR));

  dec = padlock_job_new (fz, PADLOCK_DIRECTION_DECRYPT, &unpack);
  padlock_job_set_secret (dec, secret);
  padlock_queue_add (queue, dec);
  g_assert_true (at_wait_queue_idle (queue, TIMEOUT_MS));
  g_assert_no_error (padlock_job_get_error (dec));
  g_assert_cmpstr (padlock_job_get_output_name (dec), ==, base);
  assert_same_file (a, unpacked_a);
  assert_same_file (photo, unpacked_photo);

  mixed = padlock_job_new_archive (apart, 2, &plain);
  g_assert_cmpstr (padlock_job_get_output_name (mixed), ==, "Archive.tar.gpg");
}

int
main (int argc, char **argv)
{
  tu_init (&argc, &argv);

  g_test_add_func ("/app/folder/roundtrip", test_roundtrip);
  g_test_add_func ("/app/folder/detail-and-cancel", test_detail_and_cancel);
  g_test_add_func ("/app/folder/counting-words", test_counting_words);
  for (gsize i = 0; i < G_N_ELEMENTS (hostile_cases); i++)
    {
      g_autofree char *path = g_strdup_printf ("/app/folder/hostile/%s",
                                               hostile_cases[i].name);
      g_test_add_data_func (path, &hostile_cases[i], test_hostile);
    }
  g_test_add_func ("/app/folder/one-archive", test_one_archive);
  return g_test_run ();
}
