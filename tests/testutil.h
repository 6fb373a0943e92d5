/* testutil.h - helpers shared by the tests */
#pragma once

#include <glib.h>
#include <stdatomic.h>
#include <stdint.h>
#include <gpg-error.h>

#include "job.h"
#include "cert.h"
#include "seckey.h"

/* 1 in a build under AddressSanitizer (gcc or clang): for the tests that
 * limit or count memory, which its shadow and quarantine change. */
#if defined(__SANITIZE_ADDRESS__)
#define UNDER_SANITIZER 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define UNDER_SANITIZER 1
#endif
#endif

/* pl_init, g_test_init and a fixed random seed message. */
void tu_init (int *argc, char ***argv);

/* A thread that sets *FLAG to 1 after MS milliseconds: a cancel that
 * comes while a job or a derivation runs (g_thread_join it). */
GThread *tu_cancel_after (atomic_int *flag, guint ms);

/* Tasks for a worker or a writer (worker.h, pipeline.h): tu_log_task
 * with a tu_task_log for its ARG appends each task's first octet to LOG
 * (the order they ran in), sleeps DELAY_US (so that the queue fills
 * behind it) and fails on octet FAIL_AT. */
typedef struct
{
  GMutex lock;
  GString *log;
  gulong delay_us;
  int fail_at;
  gint started;                 /* tasks begun */
  GCond opened;
  gboolean closed;              /* tasks wait at their start until open */
} tu_task_log;

gpg_error_t tu_log_task (void *arg, const uint8_t *p, size_t n);

/* An empty log, gate open, failing on no octet; cleared with
 * tu_task_log_clear. */
void tu_task_log_init (tu_task_log *l);
void tu_task_log_clear (tu_task_log *l);

/* Opens L's gate: the tasks waiting at their start go on. */
void tu_task_log_open (tu_task_log *l);

/* A copy of L's log now (the tasks may still append to it). */
char *tu_task_log_text (tu_task_log *l);

/* Random octets (non-cryptographic, for test data). */
GBytes *tu_random_bytes (gsize len);

/* Lower-case hex SHA-256. */
char *tu_sha256_hex (const void *data, gsize len);

/* Encrypt or decrypt memory to memory through the engine. */
gpg_error_t tu_encrypt (const pl_encrypt_options *o, const char *pw,
                        const void *in, gsize len, GBytes **out);
gpg_error_t tu_decrypt (const char *pw, const void *in, gsize len,
                        GBytes **out, pl_decrypt_result *result);

/* The cheapest key derivations O allows (S2K calibrated to 1 ms, Argon2
 * with one pass, one lane and 8 KiB, RFC 9580's least), for tests about
 * the data path. */
void tu_cheap_kdf (pl_encrypt_options *o);

/* O initialized for PROFILE with KEY (one key; not copied), at the
 * cheapest key derivations (tu_cheap_kdf). */
void tu_cheap_options (pl_encrypt_options *o, pl_profile profile,
                       const pl_opener *key);

/* A fresh temporary directory, removed (with its files) at exit. */
const char *tu_tmpdir (void);

/* A new directory NAME-N under tu_tmpdir (g_free): each call its own. */
char *tu_new_dir (const char *name);

/* PATH's content as lower-case hex SHA-256 (fails when it cannot be
 * read). */
char *tu_file_sha256 (const char *path);

/* Copies FROM's octets to TO (fails when either cannot be). */
void tu_copy_file (const char *from, const char *to);

/* How many times NEEDLE occurs in HAYSTACK, without overlaps. */
guint tu_count (const char *haystack, const char *needle);

/* For g_ptr_array_sort and qsort over strings: compares *A and *B. */
int tu_compare_strings (gconstpointer a, gconstpointer b);

/* Runs ARGV (NULL-terminated) with IN on stdin; collects stdout and the
 * exit status.  Returns FALSE if it could not be run. */
gboolean tu_run (const char *const *argv, GBytes *in, GBytes **out,
                 char **err_text, int *status);

/* Path of a program on PATH, or NULL. */
char *tu_find_program (const char *name);

/* The names in DIR, sorted, joined with "|" (fails when DIR cannot be
 * read). */
char *tu_list_dir (const char *dir);

/* The files under the source tree's folder REL (PADLOCK_SOURCE_DIR) and
 * its subfolders whose names end in SUFFIX, as paths relative to the
 * source tree ("app/jobs/padlock-job.c"), sorted.  The rooms of app/ and
 * desktop/ are subfolders: a new one is walked without being named
 * (tests/test-rooms.py is the one list of rooms).  Fails when REL cannot
 * be read or PADLOCK_SOURCE_DIR is not set. */
GPtrArray *tu_source_files (const char *rel, const char *suffix);

/* Path of a peer the tests run (gpg, gpgtar, rnp, sqop, node, python3,
 * tar: build-aux/install-deps installs them).  When it is not on PATH,
 * NULL comes back and the test fails in CI (CI set) or is skipped
 * elsewhere, saying why: one rule for every missing peer. */
char *tu_peer (const char *name);

/* Whether tu_peer (NAME) finds it (tu_peer's rule when it does not). */
gboolean tu_have_peer (const char *name);

/* The project's padlock-sop executable. */
const char *tu_sop_path (void);

/* Runs padlock-sop ARGS (NULL-terminated) with IN on stdin: its exit
 * status, stdout in *OUT and stderr in *ERR_TEXT (either may be NULL). */
int tu_run_sop (const char *const *args, GBytes *in, GBytes **out,
                char **err_text);

/* tests/data/vectors in the source tree (the peers' messages and their
 * MANIFEST.tsv); never NULL. */
const char *tu_vectors_dir (void);

/* tests/data/NAME in the source tree: its path (g_free), or read whole. */
char *tu_data_path (const char *name);
GBytes *tu_data_bytes (const char *name);

/* A GnuPG home of our own, so that tests never touch the user's. */
const char *tu_gnupg_home (void);

/* A GnuPG home whose daemons are stopped (gpgconf --kill all) when the
 * test dies of a signal, as atexit is not run then: an assertion
 * (SIGABRT), a fatal warning (SIGTRAP), meson's timeout or Ctrl-C
 * (SIGTERM, SIGINT, SIGHUP).  tu_gnupg_home's is watched from
 * the start.  Unwatch before removing it.  Watching also leaves in DIR
 * the file padlock-test-build naming $PADLOCK_BUILD_DIR, by which the
 * test that runs last (tests/agents-left.sh) knows this build's homes. */
void tu_watch_gnupg_home (const char *dir);
void tu_unwatch_gnupg_home (const char *dir);
/* Stops HOME's daemons (gpgconf --kill all).  At exit the test waits,
 * up to 20 s in all, until no gpg-agent runs for any home so stopped (or
 * for tu_gnupg_home's), and fails (TAP "Bail out!", the survivors
 * killed) when one still does. */
void tu_stop_gnupg_daemons (const char *home);
/* Waits (up to 20 s) until no gpg client runs in HOME any more (one
 * started with --homedir HOME: a listing that a keyring started on a
 * thread of its own may outlive the keyring's last reference).  Before a
 * home is removed: a gpg still running would make it again. */
void tu_wait_gnupg_clients (const char *home);

/* Removes PATH and everything below it (links are not followed). */
void tu_remove_tree (const char *path);

/* Runs gpg (from PATH) with --homedir HOME --batch --no-tty --yes, then
 * OPTIONS and ARGS (each NULL-terminated; OPTIONS may be NULL), IN on
 * stdin; *OUT and *ERR_TEXT as tu_run_gpg's.  The one gpg wrapper:
 * tu_run_gpg and tests/gnupg-home.c's homes call it. */
int tu_gpg_in (const char *home, const char *const *options,
               const char *const *args, GBytes *in, GBytes **out,
               char **err_text);

/* Runs gpg (from PATH) in tu_gnupg_home, in batch mode with loopback
 * pinentry, the passphrase from PWFILE (NULL: none), then ARGS
 * (NULL-terminated), with IN on stdin; collects stdout in *OUT and
 * stderr in *ERR_TEXT (either may be NULL).  Returns gpg's exit status
 * (asserts that gpg could be run), and logs stderr when it is not 0. */
int tu_run_gpg (const char *pwfile, const char *const *args, GBytes *in,
                GBytes **out, char **err_text);

/* tu_run_gpg without a passphrase file and with --trust-model always
 * before ARGS: gpg must succeed; its stdout (g_bytes_unref). */
GBytes *tu_gpg (const char *const *args, GBytes *in);

/* One packet of a binary message: its tag, where it starts and ends
 * (header included) and its body. */
typedef struct
{
  int tag;
  gsize start, end;
  const guint8 *body;
  gsize len;
} tu_packet;

/* The packets of the binary message P (old and new headers, definite
 * lengths only: fails on anything else, or a packet cut short), as a
 * GArray of tu_packet that points into P. */
GArray *tu_split_packets (const guint8 *p, gsize len);

/* The octets of the first armored block ("-----BEGIN PGP ...") in TEXT,
 * decoded by GLib's base64 (a reference independent of armor.c): the
 * armor headers skipped up to the blank line, the CRC line and the end
 * line not read. */
GBytes *tu_dearmor (const char *text);

/* Octets from hex (spaces allowed); asserts on a bad digit. */
GByteArray *tu_unhex (const char *hex);

#define tu_assert_hex(got, got_len, hex)                          \
  do {                                                            \
    GByteArray *want_ = tu_unhex (hex);                           \
    g_assert_cmpmem ((got), (got_len), want_->data, want_->len);  \
    g_byte_array_unref (want_);                                   \
  } while (0)

/* A random passphrase of 8 to 39 characters, some of them beyond ASCII. */
char *tu_random_passphrase (void);

/* Writes DATA to a new file in tu_tmpdir; returns its path. */
char *tu_write_temp (const char *name, const void *data, gsize len);
/* The same for the bytes B. */
char *tu_write_temp_bytes (const char *name, GBytes *b);
/* A new GBytes holding the string S, without its NUL. */
GBytes *tu_bytes_text (const char *s);

/* A tmpfs of SIZE ("2m") mounted on a new folder under tu_tmpdir, in a
 * mount namespace of the process's own when it may make one (the mount
 * then goes with the process even if the test dies first).  Needs root:
 * elsewhere, or when the mount fails, the test is marked skipped (with
 * why) and NULL is returned. */
char *tu_mount_tmpfs (const char *name, const char *size);
/* Unmounts it, removes the folder and frees DIR. */
void tu_unmount_tmpfs (char *dir);

/* Whether node, OpenPGP.js (in the build folder, by
 * build-aux/install-deps) and tests/openpgpjs-helper.mjs are all there
 * (OPENPGPJS_DIR is then set for the helper); when not, tu_peer's rule
 * (fail in CI, else skip, saying why). */
gboolean tu_have_openpgpjs (void);

/* node tests/openpgpjs-helper.mjs ARGS... (NULL-terminated) with IN on
 * stdin; *OUT its output.  Returns the exit status (logs stderr when it
 * is not 0).  Call tu_have_openpgpjs first. */
int tu_run_openpgpjs (const char *const *args, GBytes *in, GBytes **out);

/* A key made by pl_keygen (PROFILE: a pl_keygen_profile; one user ID,
 * made 10 s ago, unprotected): its certificates, and its primary key
 * unlocked for signing. */
typedef struct
{
  pl_cert **certs;
  size_t n;
  pl_seckey sk;
} tu_key;

void tu_key_make (tu_key *k, int profile);
void tu_key_free (tu_key *k);

/* A sink that records what happened to it: the octets written, whether
 * it was committed or aborted; it passes all of that on to INNER when
 * not NULL (pl_sink_new_memory, to read the output back), which it then
 * owns. */
typedef struct
{
  pl_sink base;
  pl_sink *inner;
  size_t written;
  int committed;
  int aborted;
  /* Room asked for (io.h's allocate, which the record sink has when
   * INNER has it), possibly from a job's room thread: read it after the
   * job. */
  uint64_t allocated;
  /* Octets written again (io.h's write_at, which the record sink has
   * when INNER has it); FAIL_WRITE_AT: each fails with GPG_ERR_EIO. */
  size_t written_at;
  int fail_write_at;
} tu_record_sink;

void tu_record_sink_init (tu_record_sink *s, pl_sink *inner);
/* Frees INNER. */
void tu_record_sink_clear (tu_record_sink *s);
