/* test-padlock-gpgme-run.c - GPGME operations run to their end on the
 * calling thread's own loop (padlock-gpgme-run): cancelled ones leave
 * nothing that fails the next, threads run beside each other, a cancel
 * stops gpg while the pinentry is up, and every end hands the context
 * back with no pipe open and GPGME's own loop for its next keylist.
 * gpg and a real gpg-agent in a home of the test's own.
 */
#include <glib/gstdio.h>
#include <string.h>

#include "app-testutil.h"
#include "gnupg-home.h"
#include "padlock-gpgme-run.h"
#include "padlock-keyring-private.h"

#define PASSPHRASE "correct horse battery"
#define WAIT_MS 120000

typedef struct
{
  TgHome *home;
  char   *fpr;
} Fixture;

static void
fixture_set_up (Fixture *f, gconstpointer data)
{
  f->home = tg_home_new ();
  f->fpr = tg_gen_key (f->home, "Alice <alice@example.org>", "ed25519",
                       "cert,sign", "never", PASSPHRASE, NULL);
}

static void
fixture_tear_down (Fixture *f, gconstpointer data)
{
  g_free (f->fpr);
  g_clear_pointer (&f->home, tg_home_free);
}

/* The number of this process's open file descriptors: after a test, no
 * more than before (fewer when something of GLib's closed meanwhile). */
static guint
open_fds (void)
{
  GDir *dir = g_dir_open ("/proc/self/fd", 0, NULL);
  guint n = 0;

  g_assert_nonnull (dir);
  while (g_dir_read_name (dir))
    n++;
  g_dir_close (dir);
  return n;
}

/* Exports FPR (its secret half with SECRET) from HOME through a run,
 * with CANCELLABLE; the armored text in *TEXT when it succeeds. */
static gpgme_error_t
export (const char *home, const char *fpr, gboolean secret,
        GCancellable *cancellable, char **text)
{
  gpgme_ctx_t ctx = NULL;
  gpgme_data_t data = NULL;
  PadlockGpgmeRun run;
  gpgme_error_t err;

  g_assert_cmpint (_padlock_keyring_new_context (home, &ctx), ==, 0);
  gpgme_set_armor (ctx, 1);
  g_assert_cmpint (gpgme_data_new (&data), ==, 0);
  _padlock_gpgme_run_prepare (&run, ctx);
  err = gpgme_op_export_start (ctx, fpr, secret ? GPGME_EXPORT_MODE_SECRET : 0,
                               data);
  err = _padlock_gpgme_run_finish (&run, err, cancellable);
  g_assert_null (run.watches);
  if (!err && text)
    {
      size_t len = 0;
      char *octets = gpgme_data_release_and_get_mem (data, &len);

      *text = g_strndup (octets, len);
      gpgme_free (octets);
      data = NULL;
    }
  gpgme_data_release (data);
  gpgme_release (ctx);
  return err;
}

static void
assert_public_key (const char *text)
{
  g_assert_nonnull (text);
  g_assert_true (g_str_has_prefix (text, "-----BEGIN PGP PUBLIC KEY BLOCK-----"));
}

/* A cancelled operation, then the next on the same thread: the next
 * one's context is often at the cancelled one's address (malloc gives
 * the chunk just freed back), where GPGME's global loop still listed a
 * finished, cancelled context. */
static void
test_cancelled_then_next (Fixture *f, gconstpointer data)
{
  g_autoptr (GCancellable) cancelled = g_cancellable_new ();
  guint fds = open_fds ();

  g_cancellable_cancel (cancelled);
  for (guint i = 0; i < 10; i++)
    {
      g_autofree char *text = NULL;

      g_assert_cmpint (gpg_err_code (export (f->home->dir, f->fpr, FALSE,
                                             cancelled, NULL)),
                       ==, GPG_ERR_CANCELED);
      g_assert_cmpint (export (f->home->dir, f->fpr, FALSE, NULL, &text), ==, 0);
      assert_public_key (text);
    }
  g_assert_cmpuint (open_fds (), <=, fds);
}

typedef struct
{
  Fixture *f;
  guint    failed;
} Worker;

static gpointer
export_many (gpointer data)
{
  Worker *worker = data;

  for (guint i = 0; i < 6; i++)
    {
      g_autofree char *text = NULL;

      if (export (worker->f->home->dir, worker->f->fpr, FALSE, NULL, &text)
          || !text || !g_str_has_prefix (text, "-----BEGIN PGP PUBLIC KEY BLOCK-----"))
        worker->failed++;
    }
  return NULL;
}

/* Four threads, each running its own operations at the same time. */
static void
test_threads (Fixture *f, gconstpointer data)
{
  Worker workers[4];
  GThread *threads[G_N_ELEMENTS (workers)];
  guint fds = open_fds ();

  for (guint i = 0; i < G_N_ELEMENTS (workers); i++)
    {
      workers[i] = (Worker) { f, 0 };
      threads[i] = g_thread_new ("export", export_many, &workers[i]);
    }
  for (guint i = 0; i < G_N_ELEMENTS (workers); i++)
    {
      g_thread_join (threads[i]);
      g_assert_cmpuint (workers[i].failed, ==, 0);
    }
  g_assert_cmpuint (open_fds (), <=, fds);
}

typedef struct
{
  Fixture      *f;
  GCancellable *cancellable;
  gpgme_error_t err;
  gboolean      ended;
} Backup;

static gpointer
back_up (gpointer data)
{
  Backup *backup = data;

  backup->err = export (backup->f->home->dir, backup->f->fpr, TRUE,
                        backup->cancellable, NULL);
  g_atomic_int_set (&backup->ended, TRUE);
  return NULL;
}

static gboolean
pinentry_is_up (gpointer data)
{
  return tg_home_pinentry_count (data) > 0;
}

static gboolean
has_ended (gpointer data)
{
  return g_atomic_int_get (&((Backup *) data)->ended);
}

/* A secret backup waits on the agent's pinentry, and gpg says nothing
 * meanwhile: the cancel, from another thread, ends the run before the
 * pinentry does. */
static void
test_cancel_at_pinentry (Fixture *f, gconstpointer data)
{
  g_autoptr (GCancellable) cancellable = g_cancellable_new ();
  g_autofree char *release = tg_home_path (f->home, "pinentry.release");
  Backup backup = { f, cancellable, 0, FALSE };
  GThread *thread;

  tg_gpgconf (f->home, "--reload", "gpg-agent");
  tg_home_set_pinentry (f->home, "hang:" PASSPHRASE);
  thread = g_thread_new ("backup", back_up, &backup);
  g_assert_true (at_wait_until (pinentry_is_up, f->home, WAIT_MS));
  g_usleep (G_USEC_PER_SEC / 5);
  g_assert_false (has_ended (&backup));
  g_cancellable_cancel (cancellable);
  g_assert_true (at_wait_until (has_ended, &backup, WAIT_MS));
  /* Still up: the pinentry is the agent's to close. */
  g_assert_false (g_file_test (release, G_FILE_TEST_EXISTS));
  g_thread_join (thread);
  g_assert_cmpint (gpg_err_code (backup.err), ==, GPG_ERR_CANCELED);
  tg_home_release_pinentry (f->home);
}

/* A failed start, and an operation gpg fails: the error comes back,
 * no pipe stays open, and the context lists keys again through GPGME's
 * own loop (a keylist through the run's freed callbacks would crash). */
static void
test_failures (Fixture *f, gconstpointer data)
{
  static const char bad[] = "<GnupgKeyParms format=\"internal\">\n"
                            "Key-Type: no-such-algorithm\n"
                            "</GnupgKeyParms>\n";
  guint fds = open_fds ();
  gpgme_ctx_t ctx = NULL;
  gpgme_key_t key = NULL;
  PadlockGpgmeRun run;
  gpgme_error_t err;

  g_assert_cmpint (_padlock_keyring_new_context (f->home->dir, &ctx), ==, 0);
  _padlock_gpgme_run_prepare (&run, ctx);
  err = _padlock_gpgme_run_finish (&run, gpg_error (GPG_ERR_INV_VALUE), NULL);
  g_assert_cmpint (gpg_err_code (err), ==, GPG_ERR_INV_VALUE);
  g_assert_cmpint (gpgme_get_key (ctx, f->fpr, &key, 0), ==, 0);
  g_clear_pointer (&key, gpgme_key_unref);

  _padlock_gpgme_run_prepare (&run, ctx);
  err = gpgme_op_genkey_start (ctx, bad, NULL, NULL);
  err = _padlock_gpgme_run_finish (&run, err, NULL);
  g_assert_cmpint (err, !=, 0);
  g_assert_cmpint (gpgme_get_key (ctx, f->fpr, &key, 0), ==, 0);
  g_clear_pointer (&key, gpgme_key_unref);
  gpgme_release (ctx);
  g_assert_cmpuint (open_fds (), <=, fds);
}

#define ADD(path, func) \
  g_test_add (path, Fixture, NULL, fixture_set_up, func, fixture_tear_down)

int
main (int argc, char **argv)
{
  tu_init (&argc, &argv);
  ADD ("/gpgme-run/cancelled-then-next", test_cancelled_then_next);
  ADD ("/gpgme-run/threads", test_threads);
  ADD ("/gpgme-run/cancel-at-pinentry", test_cancel_at_pinentry);
  ADD ("/gpgme-run/failures", test_failures);
  return g_test_run ();
}
