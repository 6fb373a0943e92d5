/* test-padlock-checksums.c - the files a checksum list names, hashed and
 * compared (app/jobs/padlock-checksums.h), in real folders
 *
 * Lists made by the real sha256sum, sha512sum -b and sha256sum --tag
 * over six files (one in a subfolder, one whose name coreutils escapes,
 * and a seventh with a LF in its name, which the list may not name):
 * all match; then one altered and three removed (issue 34's test): 2
 * ok, 1 differs, 3 not here, and padlock --batch's lines say so.  A
 * FIFO, a folder and a conflicting entry; a list refused whole; cancel
 * while a file is hashed; a 64 MiB file hashed, its rate printed beside
 * sha256sum's on the same file.
 */
#include <errno.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/vfs.h>
#include <unistd.h>
#include <glib/gstdio.h>

#include "app-testutil.h"
#include "algo.h"
#include "padlock-checksums.h"
#include "padlock-error.h"
#include "padlock-signature.h"

#ifndef TMPFS_MAGIC
#define TMPFS_MAGIC 0x01021994
#endif

/* Runs ARGV in DIR: its standard output (the test fails unless it
 * exits 0). */
static char *
run_in (const char *dir, const char *const *argv)
{
  g_autoptr(GError) error = NULL;
  char *out = NULL;
  g_autofree char *err = NULL;
  int status = -1;

  g_assert_true (g_spawn_sync (dir, (char **) argv, NULL, G_SPAWN_SEARCH_PATH,
                               NULL, NULL, &out, &err, &status, &error));
  g_assert_no_error (error);
  if (!g_spawn_check_wait_status (status, NULL))
    g_error ("%s: %s", argv[0], err);
  return out;
}

/* The list file LIST_NAME in DIR, as a checker of DIR. */
static PadlockChecksums *
checker_for (const char *dir, const char *list_name)
{
  g_autofree char *path = g_build_filename (dir, list_name, NULL);
  g_autofree char *text = NULL;
  g_autoptr(GFile) folder = g_file_new_for_path (dir);
  g_autoptr(GError) error = NULL;
  gsize len;
  PadlockChecksums *self;

  g_assert_true (g_file_get_contents (path, &text, &len, NULL));
  self = padlock_checksums_new_from_data ((const guint8 *) text, len,
                                          list_name, folder, &error);
  g_assert_no_error (error);
  return self;
}

typedef struct
{
  guint calls;
  guint64 last_done, last_total;
  GCancellable *cancel_when_started;
} Progress;

static void
on_progress (guint64  done,
             guint64  total,
             gpointer data)
{
  Progress *p = data;

  g_assert_cmpuint (done, >=, p->last_done);
  g_assert_cmpuint (done, <=, total);
  p->calls++;
  p->last_done = done;
  p->last_total = total;
  if (p->cancel_when_started && done > 0)
    g_cancellable_cancel (p->cancel_when_started);
}

static guint
index_of (PadlockChecksums *self,
          const char       *name)
{
  for (guint i = 0; i < padlock_checksums_get_n_files (self); i++)
    if (!strcmp (padlock_checksums_get_entry (self, i)->name, name))
      return i;
  g_error ("%s is not in the list", name);
}

static void
run_checker (PadlockChecksums *self,
             Progress         *progress)
{
  g_autoptr(GError) error = NULL;

  g_assert_true (padlock_checksums_run (self, NULL, on_progress, progress,
                                        &error));
  g_assert_no_error (error);
  /* The last report is the whole. */
  g_assert_cmpuint (progress->last_done, ==, progress->last_total);
  g_assert_cmpuint (padlock_checksums_get_done (self), ==,
                    padlock_checksums_get_total (self));
}

static void
assert_totals (PadlockChecksums *self,
               guint ok, guint differ, guint not_here, guint unreadable)
{
  PadlockChecksumsTotals t;

  padlock_checksums_get_totals (self, &t);
  g_assert_cmpuint (t.n_ok, ==, ok);
  g_assert_cmpuint (t.n_differ, ==, differ);
  g_assert_cmpuint (t.n_not_here, ==, not_here);
  g_assert_cmpuint (t.n_unreadable, ==, unreadable);
  g_assert_cmpuint (t.n_pending, ==, 0);
  g_assert_cmpuint (t.n_weak, ==, 0);
}

static const char *const six[] = {
  "debian-12.iso", "netinst.iso", "dir/firmware.bin", "back\\slash",
  "empty.txt", "six.img",
};
/* Sizes: firmware.bin is mapped where the engine maps (tmpfs, 4 MiB). */
static const gsize six_sizes[] = { 300000, 1048583, 5 << 20, 100, 0, 65536 };

/* padlock --batch's lines for the issue's folder: one altered, two
 * that match, three not here. */
static void
assert_batch_lines (PadlockChecksums *self,
                    const char       *list)
{
  const char *algo = pl_checksums_algo_word (
    padlock_checksums_get_entry (self, 0)->sums[0].algo);
  const char *signature = "signature good ABCD \"Debian\"";
  g_autofree char *differs = padlock_checksums_file_line (
    self, list, index_of (self, "debian-12.iso"));
  g_autofree char *ok = padlock_checksums_file_line (
    self, list, index_of (self, "dir/firmware.bin"));
  g_autofree char *absent = padlock_checksums_file_line (
    self, list, index_of (self, "netinst.iso"));
  g_autofree char *summary = padlock_checksums_summary_line (self, list,
                                                             signature);
  g_autofree char *want = NULL;

  want = g_strdup_printf ("checked %s -> debian-12.iso %s differs", list,
                          algo);
  g_assert_cmpstr (differs, ==, want);
  g_free (want);
  want = g_strdup_printf ("checked %s -> dir/firmware.bin %s ok", list, algo);
  g_assert_cmpstr (ok, ==, want);
  g_free (want);
  want = g_strdup_printf ("checked %s: 2 ok, 1 differ, 3 not here, %s", list,
                          signature);
  g_assert_cmpstr (summary, ==, want);
  g_assert_null (absent);
}

/* Issue 34: the list made by the real tool TOOL (with its option OPTION,
 * or none) over six files names them all (a seventh, with a LF in its
 * name, counted unsafe) and all match; with debian-12.iso altered and
 * three removed, 2 ok, 1 differs, 3 not here. */
static void
test_issue_34 (gconstpointer data)
{
  const char *const *tool = data;      /* tool, option or NULL, list name */
  g_autofree char *dir = tu_new_dir ("sums");
  g_autofree char *sub = g_build_filename (dir, "dir", NULL);
  g_autofree char *list_path = g_build_filename (dir, tool[2], NULL);
  g_autofree char *nl = g_build_filename (dir, "new\nline", NULL);
  g_autofree char *list = NULL;
  g_autoptr(GPtrArray) argv = g_ptr_array_new ();
  g_autoptr(PadlockChecksums) all = NULL, some = NULL;
  Progress progress = { 0 };
  guint64 total = 0;

  if (!tu_have_peer (tool[0]))
    return;
  g_assert_cmpint (g_mkdir (sub, 0700), ==, 0);
  g_ptr_array_add (argv, (gpointer) tool[0]);
  if (tool[1])
    g_ptr_array_add (argv, (gpointer) tool[1]);
  for (guint i = 0; i < G_N_ELEMENTS (six); i++)
    {
      g_free (at_write_random (dir, six[i], six_sizes[i]));
      g_ptr_array_add (argv, (gpointer) six[i]);
      total += six_sizes[i];
    }
  g_assert_true (g_file_set_contents (nl, "x", 1, NULL));
  g_ptr_array_add (argv, (gpointer) "new\nline");
  g_ptr_array_add (argv, NULL);
  list = run_in (dir, (const char *const *) argv->pdata);
  g_test_message ("%s", list);
  g_assert_true (g_file_set_contents (list_path, list, -1, NULL));

  all = checker_for (dir, tool[2]);
  g_assert_cmpuint (padlock_checksums_get_n_files (all), ==, 6);
  g_assert_cmpuint (padlock_checksums_get_list (all)->n_unsafe, ==, 1);
  run_checker (all, &progress);
  g_assert_cmpuint (progress.last_total, ==, total);
  assert_totals (all, 6, 0, 0, 0);
  g_assert_true (padlock_checksums_all_match (all));
  for (guint i = 0; i < G_N_ELEMENTS (six); i++)
    {
      guint k = index_of (all, six[i]);

      g_assert_cmpuint (padlock_checksums_get_file_done (all, k), ==,
                        six_sizes[i]);
      g_assert_cmpint (padlock_checksums_get_file_size (all, k), ==,
                       (gint64) six_sizes[i]);
    }

  /* One octet of debian-12.iso changed; three files gone. */
  {
    g_autofree char *path = g_build_filename (dir, six[0], NULL);
    g_autofree char *text = NULL;
    gsize len;

    g_assert_true (g_file_get_contents (path, &text, &len, NULL));
    text[len / 2] ^= 0x20;
    g_assert_true (g_file_set_contents (path, text, (gssize) len, NULL));
    for (guint i = 4; i < 6; i++)
      {
        g_autofree char *gone = g_build_filename (dir, six[i], NULL);
        g_assert_cmpint (g_unlink (gone), ==, 0);
      }
    g_free (path);
    path = g_build_filename (dir, six[1], NULL);
    g_assert_cmpint (g_unlink (path), ==, 0);
  }
  some = checker_for (dir, tool[2]);
  padlock_checksums_set_threads (some, 2);
  memset (&progress, 0, sizeof progress);
  run_checker (some, &progress);
  assert_totals (some, 2, 1, 3, 0);
  g_assert_false (padlock_checksums_all_match (some));
  g_assert_cmpint (padlock_checksums_get_state (some, index_of (some, six[0])),
                   ==, PADLOCK_CHECKSUM_DIFFERS);
  g_assert_cmpint (padlock_checksums_get_state (some, index_of (some, six[1])),
                   ==, PADLOCK_CHECKSUM_NOT_HERE);
  g_assert_cmpint (padlock_checksums_get_state (some, index_of (some, six[2])),
                   ==, PADLOCK_CHECKSUM_OK);
  g_assert_cmpint (padlock_checksums_get_state (some, index_of (some, six[3])),
                   ==, PADLOCK_CHECKSUM_OK);
  assert_batch_lines (some, tool[2]);
}

static const char *const gnu_tool[] = { "sha256sum", NULL, "SHA256SUMS" };
static const char *const binary_tool[] = { "sha512sum", "-b", "SHA512SUMS" };
static const char *const bsd_tool[] = { "sha256sum", "--tag", "CHECKSUM" };

/* What cannot be hashed, and what need not be: a FIFO (opening it does
 * not wait), a folder, a name listed twice with two digests, and a
 * file matched by MD5 alone (weak). */
static void
test_odd_files (void)
{
  g_autofree char *dir = tu_new_dir ("odd");
  g_autofree char *fifo = g_build_filename (dir, "fifo", NULL);
  g_autofree char *folder_path = g_build_filename (dir, "folder", NULL);
  g_autofree char *ok = at_write_random (dir, "ok.bin", 1000);
  g_autofree char *twice = g_build_filename (dir, "twice.bin", NULL);
  g_autofree char *weak = g_build_filename (dir, "weak.bin", NULL);
  g_autofree char *sum = tu_file_sha256 (ok);
  g_autofree char *md5 = NULL;
  g_autofree char *list = NULL;
  g_autofree char *line = NULL;
  g_autoptr(GFile) folder = g_file_new_for_path (dir);
  g_autoptr(GError) error = NULL;
  g_autoptr(PadlockChecksums) self = NULL;
  PadlockChecksumsTotals t;
  const GError *why;
  Progress progress = { 0 };

  {
    g_autofree char *text = NULL;
    gsize len;

    g_assert_true (g_file_get_contents (ok, &text, &len, NULL));
    md5 = g_compute_checksum_for_data (G_CHECKSUM_MD5, (const guchar *) text, len);
  }
  g_assert_cmpint (mkfifo (fifo, 0600), ==, 0);
  g_assert_cmpint (g_mkdir (folder_path, 0700), ==, 0);
  list = g_strdup_printf ("%s  fifo\n%s  folder\n%s  missing\n%s  ok.bin\n"
                          "%s  ok.bin\nSHA256 (twice.bin) = %s\n"
                          "SHA256 (twice.bin) = %064d\n"
                          "MD5 (weak.bin) = %s\n",
                          sum, sum, sum, sum, sum, sum, 0, md5);
  tu_copy_file (ok, twice);
  tu_copy_file (ok, weak);
  self = padlock_checksums_new_from_data ((const guint8 *) list, strlen (list),
                                          "sums.txt", folder, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (padlock_checksums_get_list (self)->n_duplicates, ==, 1);
  run_checker (self, &progress);
  padlock_checksums_get_totals (self, &t);
  g_assert_cmpuint (t.n_ok, ==, 2);
  g_assert_cmpuint (t.n_weak, ==, 1);
  g_assert_cmpuint (t.n_differ, ==, 1);
  g_assert_cmpuint (t.n_not_here, ==, 1);
  g_assert_cmpuint (t.n_unreadable, ==, 2);
  g_assert_false (padlock_checksums_all_match (self));
  g_assert_cmpint (padlock_checksums_get_state (self, index_of (self, "twice.bin")),
                   ==, PADLOCK_CHECKSUM_DIFFERS);
  g_assert_true (padlock_checksums_get_weak (self, index_of (self, "weak.bin")));
  g_assert_false (padlock_checksums_get_weak (self, index_of (self, "ok.bin")));
  why = padlock_checksums_get_error (self, index_of (self, "fifo"));
  g_assert_nonnull (why);
  g_test_message ("%s", why->message);
  g_assert_nonnull (strstr (why->message, "fifo"));
  g_assert_nonnull (padlock_checksums_get_error (self, index_of (self, "folder")));
  g_assert_null (padlock_checksums_get_error (self, index_of (self, "ok.bin")));
  line = padlock_checksums_file_line (self, "sums.txt", index_of (self, "weak.bin"));
  g_assert_cmpstr (line, ==, "checked sums.txt -> weak.bin md5 ok-weak");
  g_free (line);
  line = padlock_checksums_file_line (self, "sums.txt", index_of (self, "fifo"));
  g_assert_cmpstr (line, ==, "checked sums.txt -> fifo sha256 unreadable");
  g_free (line);
  line = padlock_checksums_summary_line (self, "sums.txt", NULL);
  g_assert_cmpstr (line, ==, "checked sums.txt: 2 ok, 1 differ, 1 not here, "
                             "2 unreadable, 1 weak, unsigned");
}

/* A folder that holds none of the files is not a success; a list with
 * nothing to check is refused, in words. */
static void
test_nothing (void)
{
  g_autofree char *dir = tu_new_dir ("nothing");
  g_autoptr(GFile) folder = g_file_new_for_path (dir);
  g_autoptr(GError) error = NULL;
  g_autoptr(PadlockChecksums) self = NULL;
  g_autofree char *h = g_strnfill (64, 'a');
  g_autofree char *list = g_strdup_printf ("%s  gone.iso\n", h);
  Progress progress = { 0 };

  self = padlock_checksums_new_from_data ((const guint8 *) "hello\n", 6,
                                          "SHA256SUMS", folder, &error);
  g_assert_null (self);
  g_assert_error (error, PADLOCK_ERROR, PADLOCK_ERROR_MALFORMED);
  g_assert_nonnull (strstr (error->message, "SHA256SUMS"));
  g_clear_error (&error);

  self = padlock_checksums_new_from_data ((const guint8 *) list, strlen (list),
                                          "SHA256SUMS", folder, &error);
  g_assert_no_error (error);
  run_checker (self, &progress);
  assert_totals (self, 0, 0, 1, 0);
  g_assert_false (padlock_checksums_all_match (self));
}

/* Cancelled while a file is hashed: run says so, the file stays
 * pending, not all of it read.  A sparse file of 4 GiB costs no disk,
 * and hashing it takes seconds: the cancel comes with the first report
 * (50 ms), long before its end.  Read, not mapped (a mapping's reads of
 * a tmpfs hole would fill pages). */
static void
test_cancel (void)
{
  g_autofree char *dir = tu_new_dir ("cancel");
  g_autofree char *path = g_build_filename (dir, "huge.img", NULL);
  g_autoptr(GFile) folder = g_file_new_for_path (dir);
  g_autoptr(GCancellable) cancellable = g_cancellable_new ();
  g_autoptr(GError) error = NULL;
  g_autoptr(PadlockChecksums) self = NULL;
  g_autofree char *h = g_strnfill (64, '0');
  g_autofree char *list = g_strdup_printf ("%s  huge.img\n", h);
  const guint64 size = (guint64) 4 << 30;
  Progress progress = { 0 };
  gint64 start;
  FILE *f = fopen (path, "w");

  g_assert_nonnull (f);
  g_assert_cmpint (ftruncate (fileno (f), (off_t) size), ==, 0);
  fclose (f);
  self = padlock_checksums_new_from_data ((const guint8 *) list, strlen (list),
                                          "SHA256SUMS", folder, &error);
  g_assert_no_error (error);
  progress.cancel_when_started = cancellable;
  g_setenv ("PADLOCK_MAP", "0", TRUE);
  start = g_get_monotonic_time ();
  g_assert_false (padlock_checksums_run (self, cancellable, on_progress,
                                         &progress, &error));
  g_unsetenv ("PADLOCK_MAP");
  g_test_message ("cancelled after %" G_GUINT64_FORMAT " octets, %.3f s",
                  padlock_checksums_get_file_done (self, 0),
                  (g_get_monotonic_time () - start) / 1e6);
  g_assert_error (error, G_IO_ERROR, G_IO_ERROR_CANCELLED);
  g_assert_cmpint (padlock_checksums_get_state (self, 0), ==,
                   PADLOCK_CHECKSUM_PENDING);
  g_assert_cmpuint (padlock_checksums_get_file_done (self, 0), >, 0);
  g_assert_cmpuint (padlock_checksums_get_file_done (self, 0), <, size);
  g_assert_cmpuint (padlock_checksums_get_total (self), ==, size);
  g_assert_false (padlock_checksums_all_match (self));
}

/* Where the big file goes: tmpfs when /dev/shm is one (the engine maps
 * there), else the tests' folder. */
static char *
big_dir (void)
{
  struct statfs fs;

  if (!statfs ("/dev/shm", &fs) && fs.f_type == TMPFS_MAGIC
      && !access ("/dev/shm", W_OK))
    {
      g_autofree char *dir = g_build_filename ("/dev/shm",
                                               "padlock-test-XXXXXX", NULL);

      if (g_mkdtemp (dir))
        return g_steal_pointer (&dir);
    }
  return tu_new_dir ("big");
}

/* 64 MiB hashed by the checker on one thread, then by sha256sum, on the
 * same file in the same run: both rates printed (no timed assertion:
 * the machine is shared), and the checker agrees with sha256sum. */
static void
test_big_file (void)
{
  g_autofree char *dir = big_dir ();
  g_autofree char *path = at_write_random (dir, "big.img", 64 << 20);
  g_autofree char *list_path = g_build_filename (dir, "SHA256SUMS", NULL);
  const char *const argv[] = { "sha256sum", "big.img", NULL };
  g_autofree char *list = NULL;
  g_autoptr(PadlockChecksums) self = NULL;
  Progress progress = { 0 };
  gint64 start, ours, theirs;

  if (!tu_have_peer ("sha256sum"))
    return;
  /* Once before measuring, so that both read from the page cache. */
  g_free (run_in (dir, argv));
  start = g_get_monotonic_time ();
  list = run_in (dir, argv);
  theirs = g_get_monotonic_time () - start;
  g_assert_true (g_file_set_contents (list_path, list, -1, NULL));
  self = checker_for (dir, "SHA256SUMS");
  padlock_checksums_set_threads (self, 1);
  start = g_get_monotonic_time ();
  run_checker (self, &progress);
  ours = g_get_monotonic_time () - start;
  assert_totals (self, 1, 0, 0, 0);
  g_test_message ("64 MiB in %s: padlock-checksums %.0f MB/s, sha256sum %.0f "
                  "MB/s (its start included)", dir,
                  (64 << 20) / (double) MAX (ours, 1),
                  (64 << 20) / (double) MAX (theirs, 1));
  g_test_message ("progress: %u reports", progress.calls);
  tu_remove_tree (dir);
}

/* "HEX  NAME\n" of DATA by G_CHECKSUM TYPE. */
static char *
line_of (GChecksumType type, const char *data, const char *name)
{
  g_autofree char *hex = g_compute_checksum_for_string (type, data, -1);

  return g_strdup_printf ("%s  %s\n", hex, name);
}

/* A verdict as padlock-signature.h gives one. */
static GPtrArray *
verdicts (PadlockSignatureVerdict verdict, const char *signer)
{
  GPtrArray *array = g_ptr_array_new_with_free_func (
                       (GDestroyNotify) padlock_signature_free);
  PadlockSignature *s = g_new0 (PadlockSignature, 1);

  s->verdict = verdict;
  s->signer = g_strdup (signer);
  s->signer_name = g_strdup (signer);
  s->fingerprint = g_strdup ("0123456789ABCDEF0123456789ABCDEF01234567");
  g_ptr_array_add (array, s);
  return array;
}

/* The words of a checked list (the window's row, and a failed job's
 * error): the signature's verdict, then the files': the first that
 * differs and how many more, a weak match, none here; names escaped in
 * the row, raw in the error (whoever shows it escapes it). */
static void
test_words (void)
{
  g_autofree char *dir = tu_new_dir ("checksums-words");
  g_autoptr(GFile) folder = g_file_new_for_path (dir);
  g_autofree char *a = line_of (G_CHECKSUM_SHA256, "a\n", "a.iso");
  g_autofree char *b = line_of (G_CHECKSUM_SHA256, "b\n", "b\xe2\x80\xae.iso");
  g_autofree char *c = line_of (G_CHECKSUM_SHA256, "c\n", "c.iso");
  g_autofree char *d = line_of (G_CHECKSUM_SHA256, "d\n", "d.iso");
  g_autofree char *list = g_strconcat (a, b, c, d, NULL);
  g_autofree char *md5 = line_of (G_CHECKSUM_MD5, "a\n", "a.iso");
  g_autoptr(GPtrArray) good = verdicts (PADLOCK_SIGNATURE_GOOD,
                                        "Bob <bob@example.org>");
  g_autoptr(GPtrArray) unknown = verdicts (PADLOCK_SIGNATURE_UNKNOWN_KEY,
                                           NULL);
  static const char *const files[][2] = {
    { "a.iso", "a\n" }, { "b\xe2\x80\xae.iso", "B\n" }, { "c.iso", "C\n" },
  };

  for (guint i = 0; i < G_N_ELEMENTS (files); i++)
    {
      g_autofree char *path = g_build_filename (dir, files[i][0], NULL);

      g_assert_true (g_file_set_contents (path, files[i][1], -1, NULL));
    }
  {
    g_autoptr(PadlockChecksums) self = padlock_checksums_new_from_data (
      (const guint8 *) list, strlen (list), "SHA256SUMS", folder, NULL);
    g_autoptr(GError) error = NULL;
    g_autofree char *words = NULL;
    g_autofree char *row = NULL;

    g_assert_true (padlock_checksums_run (self, NULL, NULL, NULL, NULL));
    error = padlock_checksums_failure (self, "SHA256SUMS", TRUE);
    g_assert_error (error, PADLOCK_ERROR, PADLOCK_ERROR_INTEGRITY);
    g_assert_cmpstr (error->message, ==, "b\xe2\x80\xae.iso and 1 more file "
                     "do not match the signed checksums.");
    g_clear_error (&error);
    error = padlock_checksums_failure (self, "SHA256SUMS", FALSE);
    g_assert_cmpstr (error->message, ==, "b\xe2\x80\xae.iso and 1 more file "
                     "do not match the checksums in SHA256SUMS.");
    words = padlock_checksums_describe (self, "SHA256SUMS", good, FALSE);
    g_assert_cmpstr (words, ==, "SHA256SUMS: signed by Bob <bob@example.org> "
                     "· b\\u202E.iso and 1 more file do not match the "
                     "signed checksums");
    row = padlock_checksums_describe (self, "SHA256SUMS", unknown, TRUE);
    g_test_message ("%s", row);
    g_assert_true (g_str_has_prefix (row, "\xe2\x81\xa8SHA256SUMS\xe2\x81\xa9: "
                                          "Signed by an unknown key 0123 "));
    g_assert_true (g_str_has_suffix (row, "\xe2\x81\xa8" "b\\u202E.iso\xe2\x81\xa9 "
                                          "and 1 more file do not match the "
                                          "checksums in \xe2\x81\xa8SHA256SUMS"
                                          "\xe2\x81\xa9"));
  }
  {
    g_autoptr(PadlockChecksums) self = padlock_checksums_new_from_data (
      (const guint8 *) d, strlen (d), "SHA256SUMS", folder, NULL);
    g_autoptr(GError) error = NULL;
    g_autofree char *words = NULL;

    g_assert_true (padlock_checksums_run (self, NULL, NULL, NULL, NULL));
    error = padlock_checksums_failure (self, "SHA256SUMS", TRUE);
    g_assert_error (error, PADLOCK_ERROR, PADLOCK_ERROR_IO);
    g_assert_cmpstr (error->message, ==, "None of the files SHA256SUMS lists "
                     "is in its folder: nothing was checked.");
    words = padlock_checksums_describe (self, "SHA256SUMS", NULL, FALSE);
    g_assert_cmpstr (words, ==, "SHA256SUMS is not signed: nobody vouches "
                     "for it · none of the files SHA256SUMS lists is in its "
                     "folder");
  }
  {
    g_autoptr(PadlockChecksums) self = padlock_checksums_new_from_data (
      (const guint8 *) md5, strlen (md5), "MD5SUMS", folder, NULL);
    g_autofree char *words = NULL;

    g_assert_true (padlock_checksums_run (self, NULL, NULL, NULL, NULL));
    g_assert_null (padlock_checksums_failure (self, "MD5SUMS", TRUE));
    words = padlock_checksums_describe (self, "MD5SUMS", good, FALSE);
    g_assert_cmpstr (words, ==, "MD5SUMS: signed by Bob <bob@example.org> · "
                     "a.iso matches, by MD5 or SHA-1 only: a weak checksum");
  }
}

int
main (int argc, char **argv)
{
  tu_init (&argc, &argv);
  g_test_add_data_func ("/padlock-checksums/issue-34/sha256sum", gnu_tool,
                        test_issue_34);
  g_test_add_data_func ("/padlock-checksums/issue-34/sha512sum-binary",
                        binary_tool, test_issue_34);
  g_test_add_data_func ("/padlock-checksums/issue-34/sha256sum-tag", bsd_tool,
                        test_issue_34);
  g_test_add_func ("/padlock-checksums/odd-files", test_odd_files);
  g_test_add_func ("/padlock-checksums/nothing", test_nothing);
  g_test_add_func ("/padlock-checksums/cancel", test_cancel);
  g_test_add_func ("/padlock-checksums/big-file", test_big_file);
  g_test_add_func ("/padlock-checksums/words", test_words);
  return g_test_run ();
}
