/* testutil.c - helpers shared by the tests */
#include "testutil.h"
#include "buffers.h"
#include "keygen.h"

#include <gio/gio.h>

#include <errno.h>
#include <stdio.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sched.h>
#include <unistd.h>
#include <sys/mount.h>
#include <sys/wait.h>
#include <gcrypt.h>
#include <time.h>
#include <glib/gstdio.h>

static char *tmpdir;

void
tu_remove_tree (const char *path)
{
  GDir *d = g_dir_open (path, 0, NULL);
  const char *name;

  if (d)
    {
      while ((name = g_dir_read_name (d)))
        {
          char *p = g_build_filename (path, name, NULL);
          if (g_file_test (p, G_FILE_TEST_IS_DIR)
              && !g_file_test (p, G_FILE_TEST_IS_SYMLINK))
            tu_remove_tree (p);
          else
            g_unlink (p);
          g_free (p);
        }
      g_dir_close (d);
    }
  g_rmdir (path);
}

static gboolean agents_gone (void);
/* The homes whose daemons were stopped: at exit, none may run any more. */
static GPtrArray *stopped_homes;

static void
cleanup (void)
{
  char *home = tmpdir ? g_build_filename (tmpdir, "gnupg", NULL) : NULL;
  gboolean gone;

  /* gpg-agent may hold a socket in our GnuPG home. */
  if (home && g_file_test (home, G_FILE_TEST_IS_DIR))
    tu_stop_gnupg_daemons (home);
  g_free (home);
  gone = agents_gone ();
  /* A home removed while a gpg of the test's still ran (a keyring's
   * listing on a thread of its own) may have been made again by that gpg
   * or by the agent it started: gone now, it goes too. */
  for (guint i = 0; stopped_homes && i < stopped_homes->len; i++)
    if (g_str_has_prefix (stopped_homes->pdata[i], g_get_tmp_dir ())
        && g_file_test (stopped_homes->pdata[i], G_FILE_TEST_IS_DIR))
      tu_remove_tree (stopped_homes->pdata[i]);
  if (tmpdir)
    tu_remove_tree (tmpdir);
  if (!gone)
    {
      fflush (stdout);
      _exit (1);                /* at exit, a test can fail only so */
    }
}

static void
register_cleanup (void)
{
  static gboolean registered;

  if (!registered)
    atexit (cleanup);
  registered = TRUE;
}

/* A job that ends gives every buffer back (core/buffers.h): one taken
 * and never given is a leak LeakSanitizer cannot see in the pool's
 * mappings.  Checked when a suite exits normally. */
static void
check_buffers_given_back (void)
{
  size_t n = pl_buffers_in_use ();

  if (n)
    {
      fprintf (stderr, "Bail out! %zu pool buffers (core/buffers.h) were "
               "never given back\n", n);
      fflush (stderr);
      _exit (1);
    }
}

void
tu_init (int *argc, char ***argv)
{
  atexit (check_buffers_given_back);
  g_test_init (argc, argv, NULL);
  /* A child that stops reading early must not kill the test. */
  signal (SIGPIPE, SIG_IGN);
  g_assert_no_error (NULL);
  g_assert_cmpuint (pl_init (), ==, 0);
}

GBytes *
tu_random_bytes (gsize len)
{
  /* SplitMix64, seeded from the test's own random numbers (so that
   * --seed repeats a run): eight octets a step, 0.35 s for 512 MiB where
   * g_test_rand_int for each four took 2.9 s (and far longer under
   * valgrind, for the round trips' 8 MiB messages). */
  guint64 s = (guint64) g_test_rand_int () << 32 | g_test_rand_int ();
  guint8 *p = g_malloc (len ? len : 1);

  for (gsize i = 0; i < len; i += 8)
    {
      guint64 z = (s += 0x9e3779b97f4a7c15u);

      z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9u;
      z = (z ^ (z >> 27)) * 0x94d049bb133111ebu;
      z ^= z >> 31;
      memcpy (p + i, &z, len - i < 8 ? len - i : 8);
    }
  return g_bytes_new_take (p, len);
}

typedef struct
{
  atomic_int *flag;
  guint ms;
} cancel_after;

static gpointer
cancel_after_run (gpointer data)
{
  cancel_after *c = data;

  g_usleep (c->ms * (gulong) 1000);
  atomic_store (c->flag, 1);
  g_free (c);
  return NULL;
}

GThread *
tu_cancel_after (atomic_int *flag, guint ms)
{
  cancel_after *c = g_new (cancel_after, 1);

  c->flag = flag;
  c->ms = ms;
  return g_thread_new ("cancel", cancel_after_run, c);
}

gpg_error_t
tu_log_task (void *arg, const uint8_t *p, size_t n)
{
  tu_task_log *l = arg;

  g_assert_cmpuint (n, >, 0);
  g_atomic_int_inc (&l->started);
  g_mutex_lock (&l->lock);
  while (l->closed)
    g_cond_wait (&l->opened, &l->lock);
  g_mutex_unlock (&l->lock);
  g_usleep (l->delay_us);
  g_mutex_lock (&l->lock);
  g_string_append_c (l->log, (char) p[0]);
  g_mutex_unlock (&l->lock);
  return p[0] == l->fail_at ? gpg_error (GPG_ERR_EIO) : 0;
}

void
tu_task_log_init (tu_task_log *l)
{
  memset (l, 0, sizeof *l);
  l->log = g_string_new (NULL);
  l->fail_at = -1;
  g_mutex_init (&l->lock);
  g_cond_init (&l->opened);
}

void
tu_task_log_clear (tu_task_log *l)
{
  g_cond_clear (&l->opened);
  g_mutex_clear (&l->lock);
  g_string_free (l->log, TRUE);
}

void
tu_task_log_open (tu_task_log *l)
{
  g_mutex_lock (&l->lock);
  l->closed = FALSE;
  g_cond_broadcast (&l->opened);
  g_mutex_unlock (&l->lock);
}

char *
tu_task_log_text (tu_task_log *l)
{
  char *s;

  g_mutex_lock (&l->lock);
  s = g_strdup (l->log->str);
  g_mutex_unlock (&l->lock);
  return s;
}

char *
tu_sha256_hex (const void *data, gsize len)
{
  /* libgcrypt's, not GLib's GChecksum (plain C, some 200 MB/s): test-faults
   * hashes its input files before and after each of its 288 jobs, and
   * GChecksum was 65 % of its time under ASan. */
  guint8 digest[32];
  char *hex = g_malloc (2 * sizeof digest + 1);

  gcry_md_hash_buffer (GCRY_MD_SHA256, digest, data, len);
  for (gsize i = 0; i < sizeof digest; i++)
    g_snprintf (hex + 2 * i, 3, "%02x", digest[i]);
  return hex;
}

gpg_error_t
tu_encrypt (const pl_encrypt_options *o, const char *pw, const void *in,
            gsize len, GBytes **out)
{
  pl_source *src = pl_source_new_memory (in, len);
  pl_sink *sink = pl_sink_new_memory ();
  pl_encrypt_options with_key = *o;
  pl_opener key = pl_opener_passphrase (pw, strlen (pw));
  gpg_error_t err;

  with_key.openers = &key;
  with_key.n_openers = 1;
  err = pl_encrypt (src, sink, &with_key, NULL);
  size_t n;
  const uint8_t *d = pl_sink_memory_data (sink, &n);

  *out = err ? NULL : g_bytes_new (d, n);
  pl_sink_free (sink);
  pl_source_free (src);
  return err;
}

void
tu_cheap_kdf (pl_encrypt_options *o)
{
  o->s2k_ms = 1;
  o->argon2_passes = 1;
  o->argon2_parallelism = 1;
  o->argon2_memory_exp = 3;
}

void
tu_cheap_options (pl_encrypt_options *o, pl_profile profile,
                  const pl_opener *key)
{
  pl_encrypt_options_init (o);
  o->profile = profile;
  tu_cheap_kdf (o);
  o->openers = key;
  o->n_openers = 1;
}

gpg_error_t
tu_decrypt (const char *pw, const void *in, gsize len, GBytes **out,
            pl_decrypt_result *result)
{
  pl_source *src = pl_source_new_memory (in, len);
  pl_sink *sink = pl_sink_new_memory ();
  pl_opener key = pl_opener_passphrase (pw, strlen (pw));
  pl_decrypt_options o = { 0 };
  gpg_error_t err;
  size_t n;
  const uint8_t *d;

  o.openers = &key;
  o.n_openers = 1;
  err = pl_decrypt (src, sink, &o, result, NULL);
  d = pl_sink_memory_data (sink, &n);
  /* An aborted memory sink is empty: what a failed job leaves. */
  *out = g_bytes_new (d, n);
  pl_sink_free (sink);
  pl_source_free (src);
  return err;
}

const char *
tu_tmpdir (void)
{
  if (!tmpdir)
    {
      GError *error = NULL;
      tmpdir = g_dir_make_tmp ("padlock-test-XXXXXX", &error);
      g_assert_no_error (error);
      register_cleanup ();
    }
  return tmpdir;
}

char *
tu_write_temp (const char *name, const void *data, gsize len)
{
  char *path = g_build_filename (tu_tmpdir (), name, NULL);
  GError *error = NULL;
  g_unlink (path);
  g_file_set_contents (path, data, (gssize) len, &error);
  g_assert_no_error (error);
  return path;
}

char *
tu_write_temp_bytes (const char *name, GBytes *b)
{
  return tu_write_temp (name, g_bytes_get_data (b, NULL), g_bytes_get_size (b));
}

GBytes *
tu_bytes_text (const char *s)
{
  return g_bytes_new (s, strlen (s));
}

gboolean
tu_run (const char *const *argv, GBytes *in, GBytes **out, char **err_text,
        int *status)
{
  GSubprocessLauncher *launcher;
  GSubprocess *proc;
  GError *error = NULL;
  GBytes *stdout_buf = NULL, *stderr_buf = NULL;
  char *in_path = NULL;
  gboolean ok;
  static int counter;

  /* Standard input comes from a file: a child that stops reading early
   * (it refused the data) must not make the write fail. */
  launcher = g_subprocess_launcher_new (G_SUBPROCESS_FLAGS_STDOUT_PIPE
                                        | G_SUBPROCESS_FLAGS_STDERR_PIPE);
  if (in)
    {
      char *name = g_strdup_printf ("stdin-%d", counter++);
      in_path = tu_write_temp (name, g_bytes_get_data (in, NULL),
                               g_bytes_get_size (in));
      g_free (name);
      g_subprocess_launcher_set_stdin_file_path (launcher, in_path);
    }
  else
    g_subprocess_launcher_set_stdin_file_path (launcher, "/dev/null");
  proc = g_subprocess_launcher_spawnv (launcher, argv, &error);
  g_object_unref (launcher);
  if (!proc)
    {
      g_test_message ("cannot run %s: %s", argv[0], error->message);
      g_error_free (error);
      g_free (in_path);
      return FALSE;
    }
  ok = g_subprocess_communicate (proc, NULL, NULL, &stdout_buf, &stderr_buf,
                                 &error);
  g_assert_no_error (error);
  g_assert_true (ok);
  *status = g_subprocess_get_if_exited (proc)
            ? g_subprocess_get_exit_status (proc) : -1;
  if (out)
    *out = stdout_buf;
  else
    g_bytes_unref (stdout_buf);
  if (err_text)
    {
      gsize n;
      const char *d = g_bytes_get_data (stderr_buf, &n);
      *err_text = g_strndup (d ? d : "", n);
    }
  g_bytes_unref (stderr_buf);
  g_object_unref (proc);
  if (in_path)
    g_unlink (in_path);
  g_free (in_path);
  return TRUE;
}

int
tu_compare_strings (gconstpointer a,
                    gconstpointer b)
{
  return g_strcmp0 (*(char *const *) a, *(char *const *) b);
}

char *
tu_new_dir (const char *name)
{
  static guint counter;
  g_autofree char *base = g_strdup_printf ("%s-%u", name, counter++);
  char *dir = g_build_filename (tu_tmpdir (), base, NULL);

  g_assert_cmpint (g_mkdir_with_parents (dir, 0700), ==, 0);
  return dir;
}

char *
tu_file_sha256 (const char *path)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(GMappedFile) map = g_mapped_file_new (path, FALSE, &error);

  g_assert_no_error (error);
  /* An empty file maps to NULL. */
  return tu_sha256_hex (g_mapped_file_get_contents (map)
                        ? g_mapped_file_get_contents (map) : "",
                        g_mapped_file_get_length (map));
}

void
tu_copy_file (const char *from,
              const char *to)
{
  g_autofree char *data = NULL;
  gsize len = 0;

  g_assert_true (g_file_get_contents (from, &data, &len, NULL));
  g_assert_true (g_file_set_contents (to, data, (gssize) len, NULL));
}

guint
tu_count (const char *haystack,
          const char *needle)
{
  guint n = 0;

  g_assert_true (*needle);
  for (const char *p = strstr (haystack, needle); p;
       p = strstr (p + strlen (needle), needle))
    n++;
  return n;
}

char *
tu_list_dir (const char *dir)
{
  g_autoptr(GDir) d = g_dir_open (dir, 0, NULL);
  g_autoptr(GPtrArray) names = g_ptr_array_new_with_free_func (g_free);
  const char *name;

  g_assert_nonnull (d);
  while ((name = g_dir_read_name (d)))
    g_ptr_array_add (names, g_strdup (name));
  g_ptr_array_sort (names, tu_compare_strings);
  g_ptr_array_add (names, NULL);
  return g_strjoinv ("|", (char **) names->pdata);
}

static void
source_files_under (const char *src, const char *rel, const char *suffix,
                    GPtrArray *out)
{
  g_autofree char *path = g_build_filename (src, rel, NULL);
  g_autoptr(GDir) dir = g_dir_open (path, 0, NULL);
  const char *name;

  g_assert_nonnull (dir);
  while ((name = g_dir_read_name (dir)))
    {
      g_autofree char *sub = g_strdup_printf ("%s/%s", rel, name);
      g_autofree char *full = g_build_filename (src, sub, NULL);

      if (g_file_test (full, G_FILE_TEST_IS_DIR))
        source_files_under (src, sub, suffix, out);
      else if (g_str_has_suffix (name, suffix))
        g_ptr_array_add (out, g_steal_pointer (&sub));
    }
}

GPtrArray *
tu_source_files (const char *rel, const char *suffix)
{
  const char *src = g_getenv ("PADLOCK_SOURCE_DIR");
  GPtrArray *out = g_ptr_array_new_with_free_func (g_free);

  g_assert_nonnull (src);
  source_files_under (src, rel, suffix, out);
  g_ptr_array_sort (out, tu_compare_strings);
  return out;
}

char *
tu_find_program (const char *name)
{
  return g_find_program_in_path (name);
}

/* The one rule for a peer that is not there: in CI (CI set, as CI
 * services and .ci/run set it) the run is meant to have every peer, so
 * the test fails; on a developer's machine it is skipped.  Either way
 * the log says why. */
static void
missing_peer (const char *why)
{
  if (g_getenv ("CI"))
    {
      g_test_message ("%s", why);
      g_test_fail ();
    }
  else
    g_test_skip (why);
}

char *
tu_peer (const char *name)
{
  char *path = g_find_program_in_path (name);

  if (!path)
    {
      g_autofree char *why = g_strdup_printf ("%s is not on PATH (build-aux/"
                                              "install-deps installs it)", name);
      missing_peer (why);
    }
  return path;
}

gboolean
tu_have_peer (const char *name)
{
  g_autofree char *path = tu_peer (name);

  return path != NULL;
}

const char *
tu_sop_path (void)
{
  const char *p = g_getenv ("PADLOCK_SOP");
  g_assert_nonnull (p);
  return p;
}

int
tu_run_sop (const char *const *args, GBytes *in, GBytes **out,
            char **err_text)
{
  GPtrArray *argv = g_ptr_array_new ();
  int status = -1;

  g_ptr_array_add (argv, (char *) tu_sop_path ());
  for (; *args; args++)
    g_ptr_array_add (argv, (char *) *args);
  g_ptr_array_add (argv, NULL);
  g_assert_true (tu_run ((const char *const *) argv->pdata, in, out, err_text,
                         &status));
  g_ptr_array_free (argv, TRUE);
  return status;
}

const char *
tu_vectors_dir (void)
{
  static char *dir;

  if (!dir)
    {
      const char *src = g_getenv ("PADLOCK_SOURCE_DIR");

      g_assert_nonnull (src);
      dir = g_build_filename (src, "tests", "data", "vectors", NULL);
    }
  return dir;
}

char *
tu_data_path (const char *name)
{
  const char *src = g_getenv ("PADLOCK_SOURCE_DIR");

  g_assert_nonnull (src);
  return g_build_filename (src, "tests", "data", name, NULL);
}

GBytes *
tu_data_bytes (const char *name)
{
  g_autofree char *path = tu_data_path (name);
  gchar *text;
  gsize len;

  g_assert_true (g_file_get_contents (path, &text, &len, NULL));
  return g_bytes_new_take (text, len);
}

/* The GnuPG homes whose daemons a fatal signal must stop too. */
static GPtrArray *watched_homes;

/* Neither an assertion's abort, nor a fatal warning's trap, nor meson's
 * SIGTERM at a timeout (to the whole process group) runs atexit, and a
 * gpg-agent, a daemon in a session of its own, outlives the test: with
 * its home left behind, until the machine stops, keeping its inotify
 * instance (128 a user).  gpgconf is waited for: a SIGKILL may follow
 * the SIGTERM within half a second, and would take gpgconf along.  A
 * crash's signals are left to the sanitizers, which report it; the test
 * that runs last (tests/agents-left.sh) finds what a crash left. */
static const int fatal_signals[] = { SIGABRT, SIGTRAP, SIGTERM, SIGINT, SIGHUP };

static void
kill_agents_on_signal (int signum)
{
  pid_t pids[32];
  guint n = 0;

  for (guint i = 0; watched_homes && i < watched_homes->len && n < G_N_ELEMENTS (pids); i++)
    {
      pid_t pid = fork ();

      if (pid == 0)
        {
          execlp ("gpgconf", "gpgconf", "--homedir",
                  (char *) watched_homes->pdata[i], "--kill", "all",
                  (char *) NULL);
          _exit (127);
        }
      if (pid > 0)
        pids[n++] = pid;
    }
  for (guint i = 0; i < n; i++)
    while (waitpid (pids[i], NULL, 0) < 0 && errno == EINTR)
      ;
  signal (signum, SIG_DFL);
  raise (signum);
}

void
tu_watch_gnupg_home (const char *dir)
{
  const char *build = g_getenv ("PADLOCK_BUILD_DIR");

  if (!watched_homes)
    {
      watched_homes = g_ptr_array_new_with_free_func (g_free);
      for (gsize i = 0; i < G_N_ELEMENTS (fatal_signals); i++)
        signal (fatal_signals[i], kill_agents_on_signal);
    }
  g_ptr_array_add (watched_homes, g_strdup (dir));
  if (build)
    {
      char *marker = g_build_filename (dir, "padlock-test-build", NULL);
      char *text = g_strconcat (build, "\n", NULL);

      g_file_set_contents (marker, text, -1, NULL);
      g_free (text);
      g_free (marker);
    }
}

/* Whether process PID is a GnuPG program started with --homedir HOME:
 * its gpg-agent when AGENT, else a client (gpg, gpgsm, gpgconf: anything
 * but the daemons, which tu_stop_gnupg_daemons stops). */
static gboolean
runs_in_home (const char *pid,
              const char *home,
              gboolean    agent)
{
  static const char *const daemons[] = { "gpg-agent", "dirmngr", "scdaemon",
                                         "keyboxd", NULL };
  char *path = g_build_filename ("/proc", pid, "cmdline", NULL);
  char *args = NULL;
  gsize len = 0;
  gboolean found = FALSE;

  if (g_file_get_contents (path, &args, &len, NULL) && len)
    {
      const char *end = args + len;
      const char *arg = args;
      char *name = g_path_get_basename (args);
      gboolean is_agent = !strcmp (name, "gpg-agent");

      if (agent ? is_agent
                : !g_strv_contains (daemons, name) && g_str_has_prefix (name, "gpg"))
        for (; arg < end && !found; arg += strlen (arg) + 1)
          found = !strcmp (arg, "--homedir") && arg + strlen (arg) + 1 < end
                  && !strcmp (arg + strlen (arg) + 1, home);
      g_free (name);
    }
  g_free (args);
  g_free (path);
  return found;
}

/* The pids of HOME's gpg-agents (AGENT), or of its clients. */
static GArray *
pids_in_home (const char *home, gboolean agent)
{
  GArray *pids = g_array_new (FALSE, FALSE, sizeof (pid_t));
  GDir *proc = g_dir_open ("/proc", 0, NULL);
  const char *name;

  while (proc && (name = g_dir_read_name (proc)))
    if (g_ascii_isdigit (name[0]) && runs_in_home (name, home, agent))
      {
        pid_t pid = (pid_t) g_ascii_strtoll (name, NULL, 10);

        g_array_append_val (pids, pid);
      }
  if (proc)
    g_dir_close (proc);
  return pids;
}

static GArray *
agents_of (const char *home)
{
  return pids_in_home (home, TRUE);
}

void
tu_wait_gnupg_clients (const char *home)
{
  gint64 end = g_get_monotonic_time () + 20 * G_USEC_PER_SEC;

  for (;;)
    {
      GArray *left = pids_in_home (home, FALSE);
      guint n = left->len;

      g_array_unref (left);
      if (!n || g_get_monotonic_time () > end)
        break;
      g_usleep (10000);
    }
}

static void kill_daemons (const char *home);

void
tu_stop_gnupg_daemons (const char *home)
{
  kill_daemons (home);
  if (!stopped_homes)
    stopped_homes = g_ptr_array_new_with_free_func (g_free);
  if (!g_ptr_array_find_with_equal_func (stopped_homes, home, g_str_equal, NULL))
    g_ptr_array_add (stopped_homes, g_strdup (home));
  register_cleanup ();
}

static void
kill_daemons (const char *home)
{
  const char *argv[] = { "gpgconf", "--homedir", home, "--kill", "all", NULL };

  g_spawn_sync (NULL, (char **) argv, NULL,
                G_SPAWN_SEARCH_PATH | G_SPAWN_STDOUT_TO_DEV_NULL
                | G_SPAWN_STDERR_TO_DEV_NULL, NULL, NULL, NULL, NULL, NULL, NULL);
}

/* Whether every stopped home's gpg-agent has gone: an agent answers
 * KILLAGENT, then goes at its next tick (1 to 2 s here), so they are
 * waited for together, once, up to 20 s.  A home that still has one
 * after 5 s is told again: a gpg the test's last call ran after the
 * first kill (under load, a keyring listing in flight) starts an agent
 * of its own, which that kill never reached.  The survivors of 20 s are
 * named on stdout (TAP) and killed. */
static gboolean
agents_gone (void)
{
  gint64 start = g_get_monotonic_time ();
  gint64 end = start + 20 * G_USEC_PER_SEC;
  gboolean gone = FALSE, told_again = FALSE;

  while (stopped_homes && !gone)
    {
      gint64 now = g_get_monotonic_time ();
      gboolean last = now >= end;
      gboolean tell_again = !told_again && now >= start + 5 * G_USEC_PER_SEC;

      told_again |= tell_again;
      gone = TRUE;
      for (guint i = 0; i < stopped_homes->len; i++)
        {
          GArray *left = agents_of (stopped_homes->pdata[i]);

          if (tell_again && left->len)
            kill_daemons (stopped_homes->pdata[i]);

          for (guint j = 0; last && j < left->len; j++)
            {
              printf ("Bail out! gpg-agent %d of %s outlived gpgconf --kill all\n",
                      (int) g_array_index (left, pid_t, j),
                      (char *) stopped_homes->pdata[i]);
              kill (g_array_index (left, pid_t, j), SIGKILL);
            }
          gone = gone && !left->len;
          g_array_unref (left);
        }
      if (last)
        return gone;
      if (!gone)
        g_usleep (50 * 1000);
    }
  return TRUE;
}

void
tu_unwatch_gnupg_home (const char *dir)
{
  for (guint i = 0; watched_homes && i < watched_homes->len; i++)
    if (!strcmp (watched_homes->pdata[i], dir))
      {
        g_ptr_array_remove_index (watched_homes, i);
        return;
      }
}

const char *
tu_gnupg_home (void)
{
  static char *home;
  if (!home)
    {
      home = g_build_filename (tu_tmpdir (), "gnupg", NULL);
      g_mkdir (home, 0700);
      tu_watch_gnupg_home (home);
      char *conf = g_build_filename (home, "gpg-agent.conf", NULL);
      /* Loopback pinentry: passphrases come from files, never a dialog. */
      g_file_set_contents (conf, "allow-loopback-pinentry\n", -1, NULL);
      g_free (conf);
    }
  return home;
}

/* The length of the packet whose header starts at P[0] (the header's
 * length in *HL): RFC 9580 §4.2, definite lengths only. */
static gsize
packet_length (const guint8 *p, gsize avail, gsize *hl)
{
  gsize len = 0;

  g_assert_true (p[0] & 0x80);
  if (p[0] & 0x40)
    {
      g_assert_cmpuint (avail, >=, 2);
      if (p[1] < 192)
        return *hl = 2, p[1];
      if (p[1] < 224)
        {
          g_assert_cmpuint (avail, >=, 3);
          return *hl = 3, ((gsize) (p[1] - 192) << 8) + p[2] + 192;
        }
      g_assert_cmpuint (p[1], ==, 255);     /* no partial lengths */
      *hl = 6;
    }
  else
    {
      int lt = p[0] & 3;

      g_assert_cmpint (lt, !=, 3);          /* no indeterminate length */
      *hl = 1 + (lt == 0 ? 1 : lt == 1 ? 2 : 4);
    }
  g_assert_cmpuint (avail, >=, *hl);
  for (gsize i = (p[0] & 0x40) ? 2 : 1; i < *hl; i++)
    len = (len << 8) | p[i];
  return len;
}

GArray *
tu_split_packets (const guint8 *p, gsize len)
{
  GArray *a = g_array_new (FALSE, FALSE, sizeof (tu_packet));

  for (gsize pos = 0; pos < len;)
    {
      gsize hl, n = packet_length (p + pos, len - pos, &hl);
      tu_packet k = { 0 };

      k.tag = (p[pos] & 0x40) ? p[pos] & 0x3F : (p[pos] >> 2) & 0x0F;
      k.start = pos;
      k.body = p + pos + hl;
      k.len = n;
      g_assert_cmpuint (n, <=, len - pos - hl);
      k.end = pos + hl + n;
      g_array_append_val (a, k);
      pos = k.end;
    }
  return a;
}

GBytes *
tu_dearmor (const char *text)
{
  const char *begin = strstr (text, "-----BEGIN PGP ");
  GString *b64 = g_string_new (NULL);
  gchar **lines;
  gboolean in_body = FALSE;
  guchar *bin;
  gsize binlen;

  g_assert_nonnull (begin);
  lines = g_strsplit (begin, "\n", -1);
  for (gsize i = 1; lines[i]; i++)
    {
      char *l = g_strstrip (lines[i]);

      if (!in_body)
        {
          if (!*l)
            in_body = TRUE;
          continue;
        }
      if (g_str_has_prefix (l, "-----END") || l[0] == '=')
        break;
      g_string_append (b64, l);
    }
  g_strfreev (lines);
  g_assert_true (in_body);
  bin = g_base64_decode (b64->str, &binlen);
  g_string_free (b64, TRUE);
  return g_bytes_new_take (bin, binlen);
}

GByteArray *
tu_unhex (const char *s)
{
  GByteArray *a = g_byte_array_new ();

  for (; *s; s++)
    {
      guint8 b;

      if (*s == ' ')
        continue;
      g_assert_true (g_ascii_isxdigit (s[0]) && g_ascii_isxdigit (s[1]));
      b = (guint8) ((g_ascii_xdigit_value (s[0]) << 4)
                    | g_ascii_xdigit_value (s[1]));
      g_byte_array_append (a, &b, 1);
      s++;
    }
  return a;
}

char *
tu_random_passphrase (void)
{
  static const char alphabet[] =
    "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789"
    "!#%&()*+,-./:;<=>?@[]^_{|}~ äöü€";
  GString *s = g_string_new (NULL);
  int n = g_test_rand_int_range (8, 40);

  for (int i = 0; i < n; i++)
    {
      /* Whole characters, so multi-octet UTF-8 stays intact. */
      const char *p = g_utf8_offset_to_pointer (alphabet,
        g_test_rand_int_range (0, (int) g_utf8_strlen (alphabet, -1)));
      /* Never a space last: SOP's rule trims trailing white space from a
       * password, and a peer reading the file raw (OpenPGP.js) does not,
       * so about one run in 90 failed (seed
       * R02S36d2fe61b41f47e8f01ae9a9685b0562, CI at 23:50 UTC
       * 2026-12-01).  Tests of the trimming use fixed strings. */
      if (*p == ' ' && i == n - 1)
        {
          i--;
          continue;
        }
      g_string_append_len (s, p, g_utf8_next_char (p) - p);
    }
  return g_string_free (s, FALSE);
}

int
tu_gpg_in (const char *home, const char *const *options,
           const char *const *args, GBytes *in, GBytes **out,
           char **err_text)
{
  g_autoptr (GPtrArray) argv = g_ptr_array_new ();
  char *err = NULL;
  int status;

  g_ptr_array_add (argv, "gpg");
  g_ptr_array_add (argv, "--homedir");
  g_ptr_array_add (argv, (char *) home);
  g_ptr_array_add (argv, "--batch");
  g_ptr_array_add (argv, "--no-tty");
  g_ptr_array_add (argv, "--yes");
  for (; options && *options; options++)
    g_ptr_array_add (argv, (char *) *options);
  for (; *args; args++)
    g_ptr_array_add (argv, (char *) *args);
  g_ptr_array_add (argv, NULL);
  g_assert_true (tu_run ((const char *const *) argv->pdata, in, out, &err,
                         &status));
  if (status)
    g_test_message ("gpg: %s", err);
  if (err_text)
    *err_text = err;
  else
    g_free (err);
  return status;
}

int
tu_run_gpg (const char *pwfile, const char *const *args, GBytes *in,
            GBytes **out, char **err_text)
{
  const char *options[] = { "--quiet", "--pinentry-mode", "loopback",
                            "--passphrase-file", pwfile, NULL };

  /* Without a file, the options end before --passphrase-file. */
  if (!pwfile)
    options[3] = NULL;
  return tu_gpg_in (tu_gnupg_home (), options, args, in, out, err_text);
}

GBytes *
tu_gpg (const char *const *args, GBytes *in)
{
  g_autoptr(GPtrArray) a = g_ptr_array_new ();
  GBytes *out = NULL;

  g_ptr_array_add (a, "--trust-model");
  g_ptr_array_add (a, "always");
  for (; *args; args++)
    g_ptr_array_add (a, (char *) *args);
  g_ptr_array_add (a, NULL);
  g_assert_cmpint (tu_run_gpg (NULL, (const char *const *) a->pdata, in, &out,
                               NULL), ==, 0);
  return out;
}

char *
tu_mount_tmpfs (const char *name, const char *size)
{
  static gboolean own_namespace;
  char *dir = g_build_filename (tu_tmpdir (), name, NULL);
  g_autofree char *options = g_strdup_printf ("size=%s", size);

  g_assert_cmpint (g_mkdir_with_parents (dir, 0755), ==, 0);
  if (!own_namespace && unshare (CLONE_NEWNS) == 0
      && mount (NULL, "/", NULL, MS_REC | MS_PRIVATE, NULL) == 0)
    own_namespace = TRUE;
  if (mount ("tmpfs", dir, "tmpfs", MS_NOSUID | MS_NODEV, options) != 0)
    {
      g_test_skip_printf ("cannot mount a tmpfs (%s): needs root",
                          g_strerror (errno));
      g_rmdir (dir);
      g_free (dir);
      return NULL;
    }
  g_test_message ("a %s tmpfs on %s%s", size, dir,
                  own_namespace ? ", in a mount namespace of our own" : "");
  return dir;
}

void
tu_unmount_tmpfs (char *dir)
{
  g_assert_cmpint (umount (dir), ==, 0);
  g_rmdir (dir);
  g_free (dir);
}

/* ---- OpenPGP.js ---------------------------------------------------- */

static char *node;
static char *helper;
static const char *skip_reason;

/* Finds node, the openpgp module and our helper once; sets OPENPGPJS_DIR
 * for the helper (children inherit our environment). */
static void
find_openpgpjs (void)
{
  const char *build = g_getenv ("PADLOCK_BUILD_DIR");
  const char *source = g_getenv ("PADLOCK_SOURCE_DIR");
  char *dir, *module;

  node = tu_find_program ("node");
  if (!node)
    {
      skip_reason = "node is not installed";
      return;
    }
  if (!build || !source)
    {
      skip_reason = "PADLOCK_BUILD_DIR or PADLOCK_SOURCE_DIR is not set";
      return;
    }
  dir = g_build_filename (build, "node", "node_modules", "openpgp", NULL);
  module = g_build_filename (dir, "dist", "node", "openpgp.mjs", NULL);
  helper = g_build_filename (source, "tests", "openpgpjs-helper.mjs", NULL);
  if (!g_file_test (module, G_FILE_TEST_IS_REGULAR))
    skip_reason = "OpenPGP.js is not installed in the build folder "
                  "(run build-aux/install-deps BUILDDIR)";
  else if (!g_file_test (helper, G_FILE_TEST_IS_REGULAR))
    skip_reason = "tests/openpgpjs-helper.mjs is missing";
  else
    g_setenv ("OPENPGPJS_DIR", dir, TRUE);
  g_free (module);
  g_free (dir);
}

gboolean
tu_have_openpgpjs (void)
{
  static int found;

  if (!found)
    find_openpgpjs ();
  found = 1;
  if (skip_reason)
    missing_peer (skip_reason);
  return skip_reason == NULL;
}

/* node helper.mjs ARGS..., IN on stdin.  Returns the exit status. */
int
tu_run_openpgpjs (const char *const *args, GBytes *in, GBytes **out)
{
  GPtrArray *argv = g_ptr_array_new ();
  char *err_text;
  int status;

  g_ptr_array_add (argv, node);
  g_ptr_array_add (argv, helper);
  for (const char *const *a = args; *a; a++)
    g_ptr_array_add (argv, (char *) *a);
  g_ptr_array_add (argv, NULL);
  g_assert_true (tu_run ((const char *const *) argv->pdata, in, out,
                         &err_text, &status));
  if (status)
    g_test_message ("openpgpjs-helper: %s", err_text);
  g_ptr_array_free (argv, TRUE);
  g_free (err_text);
  return status;
}


void
tu_key_make (tu_key *k, int profile)
{
  const char *uid[] = { "T <t@example.org>" };
  uint8_t *bin;
  size_t len;

  g_assert_cmpint (pl_keygen ((pl_keygen_profile) profile, uid, 1, NULL, 0,
                              (uint32_t) time (NULL) - 10, &bin, &len), ==, 0);
  g_assert_cmpint (pl_certs_read (bin, len, &k->certs, &k->n), ==, 0);
  gcry_free (bin);               /* secure memory (keygen.h) */
  g_assert_cmpint (pl_seckey_unlock (&k->certs[0]->primary, 5, NULL, 0, 0,
                                     NULL, &k->sk), ==, 0);
}

void
tu_key_free (tu_key *k)
{
  pl_seckey_clear (&k->sk);
  pl_certs_free (k->certs, k->n);
}

static gpg_error_t
record_write (pl_sink *s, const void *buf, size_t len)
{
  tu_record_sink *r = (tu_record_sink *) s;

  r->written += len;
  return r->inner ? r->inner->write (r->inner, buf, len) : 0;
}

static gpg_error_t
record_commit (pl_sink *s)
{
  tu_record_sink *r = (tu_record_sink *) s;

  r->committed++;
  return r->inner ? r->inner->commit (r->inner) : 0;
}

static void
record_abort (pl_sink *s)
{
  tu_record_sink *r = (tu_record_sink *) s;

  r->aborted++;
  if (r->inner)
    r->inner->abort (r->inner);
}

static gpg_error_t
record_allocate (pl_sink *s, uint64_t off, uint64_t len)
{
  tu_record_sink *r = (tu_record_sink *) s;

  r->allocated += len;
  return r->inner->allocate (r->inner, off, len);
}

static gpg_error_t
record_write_at (pl_sink *s, uint64_t off, const void *buf, size_t len)
{
  tu_record_sink *r = (tu_record_sink *) s;

  r->written_at += len;
  return r->fail_write_at ? gpg_error (GPG_ERR_EIO)
                          : r->inner->write_at (r->inner, off, buf, len);
}

void
tu_record_sink_init (tu_record_sink *s, pl_sink *inner)
{
  memset (s, 0, sizeof *s);
  s->base.write = record_write;
  s->base.commit = record_commit;
  s->base.abort = record_abort;
  if (inner && inner->allocate)
    s->base.allocate = record_allocate;
  if (inner && inner->write_at)
    s->base.write_at = record_write_at;
  s->inner = inner;
}

void
tu_record_sink_clear (tu_record_sink *s)
{
  pl_sink_free (s->inner);
  s->inner = NULL;
}
