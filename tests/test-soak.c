/* test-soak.c - the application's job layer under load
 *
 * 32 files of mixed sizes (0 B to 8 MiB), profiles, armor and
 * compression, all encrypted at once, then all decrypted at once, three
 * rounds with more and more jobs running together: every output is its
 * input again (SHA-256).  Then a round where half of the jobs are
 * cancelled at random points: the folders hold the inputs and the outputs
 * of the jobs that were not cancelled, nothing else.
 */
#include <string.h>
#include <unistd.h>
#include <glib/gstdio.h>

#include "app-testutil.h"
#include "algo.h"
#include "padlock-error.h"
#include "padlock-job.h"
#include "padlock-queue.h"

#define PASSPHRASE "soak, but not too long"
#define N_FILES 32
#define TIMEOUT_MS (240 * 1000)
#define MIB (1024u * 1024u)

typedef struct
{
  char *name;
  char *path;
  gsize size;
  char *sha256;
  int profile;
  gboolean armor;
  int compress;
  /* How long its jobs took in the first round, in ms. */
  double encrypt_ms;
  double decrypt_ms;
} SoakFile;

static SoakFile files[N_FILES];
static char *input_dir;

static const char *const profile_names[] = { "rfc4880", "librepgp", "rfc9580" };

static void
make_files (void)
{
  static const gsize fixed[] = {
    0, 1, 2, 15, 16, 17, 511, 4095, 4096, 4097, 65535, 65536, 65537,
    MIB - 1, MIB, MIB + 1, 2 * MIB + 3, 8 * MIB - 1, 8 * MIB,
  };
  guint64 total = 0;

  input_dir = tu_new_dir ("soak-inputs");
  for (guint i = 0; i < N_FILES; i++)
    {
      SoakFile *f = &files[i];

      if (i < G_N_ELEMENTS (fixed))
        f->size = fixed[i];
      else
        f->size = (gsize) g_test_rand_int_range (0, 8 * MIB + 1);
      f->profile = i % 3;
      f->armor = (i / 3) % 2;
      f->compress = i % 7 == 5 ? PL_COMPRESS_ZLIB
                    : i % 11 == 4 ? PL_COMPRESS_ZIP
                    : i == 9 ? PL_COMPRESS_BZIP2 : PL_COMPRESS_NONE;
      f->name = g_strdup_printf ("f%02u-%zu.bin", i, f->size);
      f->path = at_write_random (input_dir, f->name, f->size);
      f->sha256 = tu_file_sha256 (f->path);
      total += f->size;
    }
  g_test_message ("%u files, %.1f MiB", N_FILES, total / (double) MIB);
}

/* Names in DIR that are not in EXPECTED (a set of names), and names of
 * EXPECTED that are not in DIR; both empty when all is well. */
static void
check_listing (const char *dir, GHashTable *expected, const char *what)
{
  g_autoptr(GDir) d = g_dir_open (dir, 0, NULL);
  g_autoptr(GHashTable) seen = g_hash_table_new (g_str_hash, g_str_equal);
  GHashTableIter iter;
  const char *name;
  gpointer key;

  g_assert_nonnull (d);
  while ((name = g_dir_read_name (d)))
    {
      if (!g_hash_table_contains (expected, name))
        {
          g_test_message ("%s: a stray file: %s", what, name);
          g_test_fail ();
        }
      else
        g_hash_table_add (seen, (gpointer) g_hash_table_lookup (expected, name));
    }
  g_hash_table_iter_init (&iter, expected);
  while (g_hash_table_iter_next (&iter, &key, NULL))
    if (!g_hash_table_contains (seen, key))
      {
        g_test_message ("%s: missing: %s", what, (const char *) key);
        g_test_fail ();
      }
}

static GHashTable *
name_set (void)
{
  return g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
}

static void
remove_files (const char *dir)
{
  g_autoptr(GDir) d = g_dir_open (dir, 0, NULL);
  const char *name;

  while (d && (name = g_dir_read_name (d)))
    {
      g_autofree char *path = g_build_filename (dir, name, NULL);
      g_unlink (path);
    }
  g_rmdir (dir);
}

/* Per job: which file, and when it ran. */
typedef struct
{
  SoakFile *file;
  gint64 started;
  gint64 ended;
  /* Cancellation */
  gboolean to_cancel;
  guint delay_ms;
  guint timeout_id;
  PadlockJobState state_at_cancel;
  gboolean cancel_sent;
  gboolean cancel_on_start;     /* cancel the moment it starts running */
} JobInfo;

static void job_info_free (gpointer data) { g_free (data); }

static gboolean
cancel_now (gpointer data)
{
  PadlockJob *job = data;
  JobInfo *info = g_object_get_data (G_OBJECT (job), "info");

  info->timeout_id = 0;
  info->cancel_sent = TRUE;
  info->state_at_cancel = padlock_job_get_state (job);
  padlock_job_cancel (job);
  return G_SOURCE_REMOVE;
}

static void
on_state (PadlockJob *job,
          GParamSpec *pspec,
          gpointer    user_data)
{
  JobInfo *info = g_object_get_data (G_OBJECT (job), "info");
  PadlockJobState state = padlock_job_get_state (job);

  if (state == PADLOCK_JOB_RUNNING && !info->started)
    {
      info->started = g_get_monotonic_time ();
      /* Half of the picked jobs at once, so that some cancels surely land
       * while their job runs, however fast it turns out to be; the others
       * at a random point of their run: the delay is drawn from how long
       * the same job took in the first round. */
      if (info->to_cancel && info->cancel_on_start && !info->cancel_sent)
        cancel_now (job);
      else if (info->to_cancel && !info->cancel_sent && !info->timeout_id)
        info->timeout_id = g_timeout_add_full (G_PRIORITY_DEFAULT, info->delay_ms,
                                               cancel_now, g_object_ref (job),
                                               g_object_unref);
    }
  if (padlock_job_is_finished (job) && !info->ended)
    info->ended = g_get_monotonic_time ();
}

static PadlockJob *
new_job (SoakFile         *file,
         const char       *input,
         PadlockDirection  direction,
         const char       *output_dir,
         PadlockSecret    *secret)
{
  g_autoptr(GFile) gfile = g_file_new_for_path (input);
  PadlockJobConfig config = {
    .profile = file->profile,
    .armor = file->armor,
    .compress_algo = file->compress,
    .output_dir = (char *) output_dir,
  };
  PadlockJob *job = padlock_job_new (gfile, direction, &config);
  JobInfo *info = g_new0 (JobInfo, 1);

  info->file = file;
  g_object_set_data_full (G_OBJECT (job), "info", info, job_info_free);
  g_signal_connect (job, "notify::state", G_CALLBACK (on_state), NULL);
  padlock_job_set_secret (job, secret);
  return job;
}

static gboolean
all_finished (gpointer data)
{
  GPtrArray *jobs = data;

  for (guint i = 0; i < jobs->len; i++)
    {
      PadlockJob *job = g_ptr_array_index (jobs, i);
      JobInfo *info = g_object_get_data (G_OBJECT (job), "info");
      if (!padlock_job_is_finished (job) || info->timeout_id)
        return FALSE;
    }
  return TRUE;
}

/* Adds the jobs all at once and waits for the last. */
static double
run_all (PadlockQueue *queue,
         GPtrArray    *jobs)
{
  gint64 start = g_get_monotonic_time ();

  for (guint i = 0; i < jobs->len; i++)
    padlock_queue_add (queue, g_ptr_array_index (jobs, i));
  g_assert_true (at_wait_until (all_finished, jobs, TIMEOUT_MS));
  g_assert_true (at_wait_queue_idle (queue, TIMEOUT_MS));
  padlock_queue_clear_finished (queue);
  return (g_get_monotonic_time () - start) / (double) G_USEC_PER_SEC;
}

static const char *
encrypted_name (SoakFile *f, char **buf)
{
  *buf = g_strconcat (f->name, f->armor ? ".asc" : ".gpg", NULL);
  return *buf;
}

static void
report (const char *what, const char *verb, guint n, guint64 bytes, double seconds)
{
  g_test_message ("%s: %s %u files, %.1f MiB, %.2f s, %.0f MB/s", what, verb, n,
                  bytes / (double) MIB, seconds, bytes / seconds / 1e6);
}

static guint64 total_bytes;
static double total_seconds;
static guint total_jobs;

/* Set once a round has recorded how long each file's jobs take. */
static gboolean timed;

/* Encrypt all, decrypt all, compare, with MAX_RUNNING jobs at a time
 * (0: one per core).  RECORD: keep how long each job took, for the
 * cancel round. */
static void
soak_round (PadlockQueue  *queue,
            PadlockSecret *secret,
            guint          max_running,
            gboolean       record,
            const char    *what)
{
  g_autofree char *enc_dir = tu_new_dir ("soak-encrypted");
  g_autofree char *dec_dir = tu_new_dir ("soak-decrypted");
  g_autoptr(GPtrArray) enc_jobs = g_ptr_array_new_with_free_func (g_object_unref);
  g_autoptr(GPtrArray) dec_jobs = g_ptr_array_new_with_free_func (g_object_unref);
  g_autoptr(GHashTable) enc_names = name_set ();
  g_autoptr(GHashTable) dec_names = name_set ();
  g_autofree char *label = NULL;
  guint64 bytes = 0;
  double enc_s, dec_s;

  padlock_queue_set_max_running (queue, max_running);
  for (guint i = 0; i < N_FILES; i++)
    {
      g_ptr_array_add (enc_jobs, new_job (&files[i], files[i].path,
                                          PADLOCK_DIRECTION_ENCRYPT,
                                          enc_dir, secret));
      bytes += files[i].size;
    }
  enc_s = run_all (queue, enc_jobs);

  for (guint i = 0; i < N_FILES; i++)
    {
      PadlockJob *job = g_ptr_array_index (enc_jobs, i);
      JobInfo *info = g_object_get_data (G_OBJECT (job), "info");
      g_autofree char *expected = NULL;
      g_autofree char *enc_path = NULL;

      g_assert_no_error (padlock_job_get_error (job));
      g_assert_cmpint (padlock_job_get_state (job), ==, PADLOCK_JOB_DONE);
      g_assert_cmpstr (padlock_job_get_output_name (job), ==,
                       encrypted_name (info->file, &expected));
      g_hash_table_add (enc_names, g_strdup (expected));
      if (record)
        info->file->encrypt_ms = (info->ended - info->started) / 1000.0;
      enc_path = g_build_filename (enc_dir, expected, NULL);
      g_ptr_array_add (dec_jobs, new_job (info->file, enc_path,
                                          PADLOCK_DIRECTION_DECRYPT,
                                          dec_dir, secret));
      g_hash_table_add (dec_names, g_strdup (info->file->name));
    }
  check_listing (enc_dir, enc_names, "encrypted");

  dec_s = run_all (queue, dec_jobs);
  for (guint i = 0; i < N_FILES; i++)
    {
      PadlockJob *job = g_ptr_array_index (dec_jobs, i);
      JobInfo *info = g_object_get_data (G_OBJECT (job), "info");
      g_autofree char *out = NULL;
      g_autofree char *hash = NULL;

      g_assert_no_error (padlock_job_get_error (job));
      g_assert_cmpint (padlock_job_get_state (job), ==, PADLOCK_JOB_DONE);
      g_assert_cmpstr (padlock_job_get_output_name (job), ==, info->file->name);
      if (record)
        info->file->decrypt_ms = (info->ended - info->started) / 1000.0;
      out = g_build_filename (dec_dir, info->file->name, NULL);
      hash = tu_file_sha256 (out);
      if (g_strcmp0 (hash, info->file->sha256))
        {
          g_test_message ("%s (%s%s, compression %d): decrypted to something else",
                          info->file->name, profile_names[info->file->profile],
                          info->file->armor ? ", armored" : "",
                          info->file->compress);
          g_test_fail ();
        }
    }
  check_listing (dec_dir, dec_names, "decrypted");

  label = g_strdup_printf ("%s, %u jobs at a time", what,
                           max_running ? max_running
                                       : (guint) pl_default_threads ());
  report (label, "encrypted", N_FILES, bytes, enc_s);
  report (label, "decrypted", N_FILES, bytes, dec_s);
  total_bytes += 2 * bytes;
  total_seconds += enc_s + dec_s;
  total_jobs += 2 * N_FILES;

  remove_files (enc_dir);
  remove_files (dec_dir);
  if (record)
    timed = TRUE;
}

static void
test_rounds (void)
{
  static const guint max_running[] = { 0, 4, 8 };
  g_autoptr(PadlockSecret) secret = padlock_secret_new (PASSPHRASE);
  g_autoptr(PadlockQueue) queue = padlock_queue_new ();

  for (guint round = 0; round < G_N_ELEMENTS (max_running); round++)
    {
      g_autofree char *what = g_strdup_printf ("round %u", round + 1);

      soak_round (queue, secret, max_running[round], round == 0, what);
    }
  report ("all rounds", "encrypted and decrypted", total_jobs, total_bytes, total_seconds);
}

/* Half of the jobs, picked at random, get cancelled: a few while still
 * queued, every other one of the rest the moment it starts running (so
 * that at least an eighth of all cancels land mid-run, however fast the
 * jobs), the others at a random point of their run. */
static void
pick_cancels (GPtrArray *jobs,
              gboolean   decrypting)
{
  guint picked = 0;

  while (picked < jobs->len / 2)
    {
      guint i = (guint) g_test_rand_int_range (0, (gint32) jobs->len);
      PadlockJob *job = g_ptr_array_index (jobs, i);
      JobInfo *info = g_object_get_data (G_OBJECT (job), "info");
      double ms = decrypting ? info->file->decrypt_ms : info->file->encrypt_ms;

      if (info->to_cancel)
        continue;
      info->to_cancel = TRUE;
      info->cancel_on_start = picked % 2 == 0;
      info->delay_ms = (guint) g_test_rand_int_range (0, (gint32) MAX (ms * 0.9, 20) + 1);
      picked++;
    }
}

/* Cancels the picked jobs that are still queued, every fourth of them. */
static void
cancel_some_queued (GPtrArray *jobs)
{
  guint n = 0;

  for (guint i = 0; i < jobs->len; i++)
    {
      PadlockJob *job = g_ptr_array_index (jobs, i);
      JobInfo *info = g_object_get_data (G_OBJECT (job), "info");

      if (info->to_cancel && padlock_job_get_state (job) == PADLOCK_JOB_QUEUED
          && n++ % 4 == 0)
        cancel_now (job);
    }
}

static void
count_cancels (GPtrArray  *jobs,
               const char *what)
{
  guint queued = 0, midway = 0, late = 0, cancelled = 0, done = 0;

  for (guint i = 0; i < jobs->len; i++)
    {
      PadlockJob *job = g_ptr_array_index (jobs, i);
      JobInfo *info = g_object_get_data (G_OBJECT (job), "info");
      PadlockJobState state = padlock_job_get_state (job);

      if (state != PADLOCK_JOB_DONE && state != PADLOCK_JOB_CANCELLED)
        {
          g_test_message ("%s: %s failed: %s", what, info->file->name,
                          padlock_job_get_error (job)->message);
          g_test_fail ();
        }
      if (state == PADLOCK_JOB_CANCELLED)
        {
          cancelled++;
          g_assert_true (info->to_cancel);
          g_assert_null (padlock_job_get_output (job));
          g_assert_error ((GError *) padlock_job_get_error (job), PADLOCK_ERROR,
                          PADLOCK_ERROR_CANCELLED);
        }
      else
        done++;
      if (info->to_cancel)
        {
          g_assert_true (info->cancel_sent);
          /* A queued job never starts once cancelled. */
          if (info->state_at_cancel == PADLOCK_JOB_QUEUED)
            {
              g_assert_cmpint (state, ==, PADLOCK_JOB_CANCELLED);
              queued++;
            }
          else if (info->state_at_cancel == PADLOCK_JOB_RUNNING)
            midway++;
          else
            late++;
        }
    }
  g_test_message ("%s: %u done, %u cancelled (%u while queued, %u while "
                  "running, %u after they had finished)", what, done,
                  cancelled, queued, midway, late);
  /* Most cancels land while their job runs, and some of those stop it (a
   * job may still finish when its cancel comes as it ends). */
  g_assert_cmpuint (midway, >=, jobs->len / 8);
  g_assert_cmpuint (cancelled, >, queued);
}

static void
test_cancel_round (void)
{
  g_autoptr(PadlockSecret) secret = padlock_secret_new (PASSPHRASE);
  g_autoptr(PadlockQueue) queue = padlock_queue_new ();
  g_autofree char *folder = tu_new_dir ("soak-cancel");
  g_autofree char *dec_dir = tu_new_dir ("soak-cancel-decrypted");
  g_autoptr(GPtrArray) enc_jobs = g_ptr_array_new_with_free_func (g_object_unref);
  g_autoptr(GPtrArray) dec_jobs = g_ptr_array_new_with_free_func (g_object_unref);
  g_autoptr(GHashTable) expected = name_set ();
  g_autoptr(GHashTable) dec_expected = name_set ();
  gint64 start = g_get_monotonic_time ();

  /* Run alone (-p /soak/cancel), it times the jobs itself first. */
  if (!timed)
    soak_round (queue, secret, 0, TRUE, "timing round");

  /* The inputs, copied (linked) into a folder of their own: outputs go
   * next to them. */
  for (guint i = 0; i < N_FILES; i++)
    {
      g_autofree char *path = g_build_filename (folder, files[i].name, NULL);

      g_assert_cmpint (link (files[i].path, path), ==, 0);
      g_hash_table_add (expected, g_strdup (files[i].name));
      g_ptr_array_add (enc_jobs, new_job (&files[i], path,
                                          PADLOCK_DIRECTION_ENCRYPT, NULL,
                                          secret));
    }
  pick_cancels (enc_jobs, FALSE);
  for (guint i = 0; i < enc_jobs->len; i++)
    padlock_queue_add (queue, g_ptr_array_index (enc_jobs, i));
  cancel_some_queued (enc_jobs);
  g_assert_true (at_wait_until (all_finished, enc_jobs, TIMEOUT_MS));
  g_assert_true (at_wait_queue_idle (queue, TIMEOUT_MS));
  padlock_queue_clear_finished (queue);
  count_cancels (enc_jobs, "encrypt");

  for (guint i = 0; i < enc_jobs->len; i++)
    {
      PadlockJob *job = g_ptr_array_index (enc_jobs, i);
      JobInfo *info = g_object_get_data (G_OBJECT (job), "info");
      g_autofree char *name = NULL;
      g_autofree char *path = NULL;

      if (padlock_job_get_state (job) != PADLOCK_JOB_DONE)
        continue;
      g_assert_cmpstr (padlock_job_get_output_name (job), ==,
                       encrypted_name (info->file, &name));
      g_hash_table_add (expected, g_strdup (name));
      path = g_build_filename (folder, name, NULL);
      g_ptr_array_add (dec_jobs, new_job (info->file, path,
                                          PADLOCK_DIRECTION_DECRYPT, dec_dir,
                                          secret));
    }
  check_listing (folder, expected, "after cancelling encryptions");

  /* The same with the decryption of what was encrypted. */
  pick_cancels (dec_jobs, TRUE);
  for (guint i = 0; i < dec_jobs->len; i++)
    padlock_queue_add (queue, g_ptr_array_index (dec_jobs, i));
  cancel_some_queued (dec_jobs);
  g_assert_true (at_wait_until (all_finished, dec_jobs, TIMEOUT_MS));
  g_assert_true (at_wait_queue_idle (queue, TIMEOUT_MS));
  count_cancels (dec_jobs, "decrypt");
  for (guint i = 0; i < dec_jobs->len; i++)
    {
      PadlockJob *job = g_ptr_array_index (dec_jobs, i);
      JobInfo *info = g_object_get_data (G_OBJECT (job), "info");
      g_autofree char *out = NULL;
      g_autofree char *hash = NULL;

      if (padlock_job_get_state (job) != PADLOCK_JOB_DONE)
        continue;
      g_hash_table_add (dec_expected, g_strdup (info->file->name));
      out = g_build_filename (dec_dir, info->file->name, NULL);
      hash = tu_file_sha256 (out);
      g_assert_cmpstr (hash, ==, info->file->sha256);
    }
  check_listing (dec_dir, dec_expected, "after cancelling decryptions");
  check_listing (folder, expected, "after decrypting");
  g_test_message ("cancel round: %.2f s",
                  (g_get_monotonic_time () - start) / (double) G_USEC_PER_SEC);

  remove_files (folder);
  remove_files (dec_dir);
}

int
main (int argc, char **argv)
{
  tu_init (&argc, &argv);
  make_files ();

  g_test_add_func ("/soak/rounds", test_rounds);
  g_test_add_func ("/soak/cancel", test_cancel_round);
  return g_test_run ();
}
