/* test-hostile.c - hand-built hostile messages (issue 11)
 *
 * Each test builds its message with packet-builder.c and checks the
 * outcome: the error, its words, and that nothing was written.
 */
#include "testutil.h"
#include "packet-builder.h"

#include <fcntl.h>
#include <signal.h>
#include <string.h>
#include <unistd.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <gcrypt.h>
#include <gio/gio.h>

#include "algo.h"
#include "compress.h"
#include "derive.h"
#include "keys.h"
#include "passphrase.h"
#include "s2k.h"
#include "packet.h"
#include "errors.h"
#include "skesk.h"

typedef struct
{
  const char *const *passphrases;
  size_t n;
  atomic_int *cancel;
  uint64_t bomb_limit;
} run_opts;

static gpg_error_t
run_decrypt (const run_opts *r, GByteArray *msg, GBytes **out)
{
  pl_source *src = pl_source_new_memory (msg->data, msg->len);
  pl_sink *sink = pl_sink_new_memory ();
  pl_decrypt_options o = { 0 };
  pl_job_control ctl = { 0 };
  pl_opener keys[8];
  gpg_error_t err;
  const uint8_t *d;
  size_t n;

  g_assert_cmpuint (r->n, <=, G_N_ELEMENTS (keys));
  for (size_t i = 0; i < r->n; i++)
    keys[i] = pl_opener_passphrase (r->passphrases[i],
                                 strlen (r->passphrases[i]));
  o.openers = keys;
  o.n_openers = r->n;
  o.expansion_floor = r->bomb_limit;
  ctl.cancel = r->cancel;
  err = pl_decrypt (src, sink, &o, NULL, &ctl);
  d = pl_sink_memory_data (sink, &n);
  *out = g_bytes_new (d, n);
  pl_sink_free (sink);
  pl_source_free (src);
  return err;
}

static void
append_valid (GByteArray *msg, const char *pw, const char *text)
{
  GByteArray *lit = pb_literal_body (text, strlen (text));
  GByteArray *inner = g_byte_array_new ();
  guint8 key[32];

  pb_packet (inner, 11, lit->data, lit->len);
  pb_skesk_v4 (msg, pw, key);
  pb_seipd1 (msg, key, inner->data, inner->len, -1);
  g_byte_array_unref (inner);
  g_byte_array_unref (lit);
}

static void
assert_refused (GByteArray *msg, const char *const *pws, size_t n,
                gpg_error_t want, const char *words)
{
  run_opts r = { pws, n, NULL, 0 };
  GBytes *out = NULL;
  gpg_error_t err = run_decrypt (&r, msg, &out);

  g_assert_cmpint (gpg_err_code (err), ==, gpg_err_code (want));
  g_assert_nonnull (strstr (pl_error_message (err), words));
  g_assert_cmpuint (g_bytes_get_size (out), ==, 0);
  g_bytes_unref (out);
}

/* padlock-sop on MSG with password PW: the exit code and the words. */
static void
assert_sop (GByteArray *msg, const char *pw, int want_status,
            const char *words)
{
  g_autofree char *pwfile = tu_write_temp ("pw", pw, strlen (pw));
  const char *argv[] = { tu_sop_path (), "decrypt", "--with-password",
                         pwfile, NULL };
  g_autoptr (GBytes) in = g_bytes_new (msg->data, msg->len);
  g_autoptr (GBytes) out = NULL;
  g_autofree char *err_text = NULL;
  int status = -1;

  g_assert_true (tu_run (argv, in, &out, &err_text, &status));
  g_assert_cmpint (status, ==, want_status);
  if (words)
    g_assert_nonnull (strstr (err_text, words));
  if (want_status)
    g_assert_cmpuint (g_bytes_get_size (out), ==, 0);
}

/* One Argon2 SKESK asking for 255 passes over 2 GiB (about 400 s): refused
 * before any derivation, so this test ends at once or times out. */
static void
test_argon2_bomb (void)
{
  const char *pws[] = { "password" };
  GByteArray *msg = g_byte_array_new ();

  pb_skesk_v4_argon2 (msg, 255, 4, 21, 1);
  append_valid (msg, "password", "hello");
  assert_refused (msg, pws, 1, gpg_error (GPG_ERR_TOO_LARGE),
                  "more key-derivation work than Padlock allows");
  assert_sop (msg, "password", 41,
              "more key-derivation work than Padlock allows");
  g_byte_array_unref (msg);
}

/* Fifteen SKESKs at gpg's largest count, tried with eight passphrases
 * that each have a trimmed form: 240 candidates, each allowed.  The
 * budget lets as many derivations run as fit (24), counted as they run,
 * and then refuses the message. */
static void
test_budget (void)
{
  const char *eight[] = { "a ", "b ", "c ", "d ", "e ", "f ", "g ", "h " };
  GByteArray *msg = g_byte_array_new ();
  pl_s2k s2k = { .type = PL_S2K_ITERATED, .hash_algo = 8,
                 .coded_count = 255 };
  size_t before = pl_keys_derivations ();

  for (int i = 0; i < 15; i++)
    pb_skesk_v4_count (msg, 255, i);
  append_valid (msg, "password", "hello");
  assert_refused (msg, eight, 8, gpg_error (GPG_ERR_TOO_LARGE),
                  "key-derivation work");
  g_assert_cmpuint (pl_keys_derivations () - before, ==,
                    PL_DERIVE_BUDGET / pl_s2k_cost (&s2k, 32));
  g_byte_array_unref (msg);
}

/* A message whose one derivation takes more than half the budget (Argon2
 * t=255 over 8 MiB: 2088960 units, the work of t=1 over 2 GiB) opens
 * with the first candidate that opens it, and the budget counts only
 * the derivations that ran (issue 19 item 5): a passphrase file
 * "secret\n", or "secret" and then another passphrase, open it with one
 * derivation; a wrong passphrase first leaves no room for the second. */
static void
test_budget_counts_runs (void)
{
  static const char text[] = "hello";
  pl_encrypt_options o;
  pl_opener lock = pl_opener_passphrase ("secret", 6);
  pl_source *src = pl_source_new_memory (text, 5);
  pl_sink *sink = pl_sink_new_memory ();
  GByteArray *msg = g_byte_array_new ();
  const char *right_first[] = { "secret", "other" };
  const char *wrong_first[] = { "other", "secret" };
  run_opts r = { right_first, 2, NULL, 0 };
  pl_decrypt_options d = { 0 };
  pl_opener file = pl_opener_passphrase_source ("secret\n", 7, PL_PASSPHRASE_FILE);
  GBytes *out = NULL;
  const uint8_t *data;
  size_t n, before;

  pl_encrypt_options_init (&o);
  o.profile = PL_PROFILE_RFC9580;
  o.argon2_passes = 255;
  o.argon2_parallelism = 1;
  o.argon2_memory_exp = 13;
  o.openers = &lock;
  o.n_openers = 1;
  g_assert_cmpuint (pl_encrypt (src, sink, &o, NULL), ==, 0);
  data = pl_sink_memory_data (sink, &n);
  g_byte_array_append (msg, data, n);
  pl_sink_free (sink);
  pl_source_free (src);

  before = pl_keys_derivations ();
  src = pl_source_new_memory (msg->data, msg->len);
  sink = pl_sink_new_memory ();
  d.openers = &file;
  d.n_openers = 1;
  g_assert_cmpuint (pl_decrypt (src, sink, &d, NULL, NULL), ==, 0);
  data = pl_sink_memory_data (sink, &n);
  g_assert_cmpmem (data, n, text, 5);
  pl_sink_free (sink);
  pl_source_free (src);
  g_assert_cmpuint (pl_keys_derivations () - before, ==, 1);

  before = pl_keys_derivations ();
  g_assert_cmpuint (run_decrypt (&r, msg, &out), ==, 0);
  g_assert_cmpmem (g_bytes_get_data (out, NULL), g_bytes_get_size (out),
                   text, 5);
  g_bytes_unref (out);
  g_assert_cmpuint (pl_keys_derivations () - before, ==, 1);

  before = pl_keys_derivations ();
  assert_refused (msg, wrong_first, 2, gpg_error (GPG_ERR_TOO_LARGE),
                  "key-derivation work");
  g_assert_cmpuint (pl_keys_derivations () - before, ==, 1);

  /* A wrong passphrase file: its form as the rule reads it runs, the
   * other forms no longer fit, and the verdict is a wrong passphrase,
   * not too much work. */
  {
    pl_opener wrong = pl_opener_passphrase_source ("other\n", 6,
                                             PL_PASSPHRASE_FILE);
    before = pl_keys_derivations ();
    src = pl_source_new_memory (msg->data, msg->len);
    sink = pl_sink_new_memory ();
    d.openers = &wrong;
    g_assert_cmpuint (gpg_err_code (pl_decrypt (src, sink, &d, NULL, NULL)),
                      ==, GPG_ERR_BAD_PASSPHRASE);
    pl_sink_free (sink);
    pl_source_free (src);
    g_assert_cmpuint (pl_keys_derivations () - before, ==, 1);
  }
  g_byte_array_unref (msg);
}

/* A message at its budget's edge still opens: one SKESK per passphrase
 * at the largest count, and the right one last. */
static void
test_within_budget (void)
{
  const char *pws[] = { "wrong", "password" };
  run_opts r = { pws, 2, NULL, 0 };
  GByteArray *msg = g_byte_array_new ();
  GBytes *out = NULL;

  pb_skesk_v4_count (msg, 255, 7);
  append_valid (msg, "password", "hello");
  g_assert_cmpuint (run_decrypt (&r, msg, &out), ==, 0);
  g_assert_cmpmem (g_bytes_get_data (out, NULL), g_bytes_get_size (out),
                   "hello", 5);
  g_bytes_unref (out);
  g_byte_array_unref (msg);
}

/* Each distinct (passphrase, specifier, key length) is derived once per
 * message, and what comes back is the S2K's output. */
static void
test_derive_once (void)
{
  pl_s2k a, b;
  pl_derive d;
  guint8 *k = gcry_malloc_secure (3 * 32), *k1 = k, *k2 = k + 32,
         *k3 = k + 64;
  guint8 want[32];

  g_assert_cmpuint (pl_s2k_new_iterated (&a, PL_HASH_SHA256, 1), ==, 0);
  b = a;
  b.salt[0] ^= 1;
  g_assert_cmpuint (pl_derive_init (&d, NULL, NULL, 0), ==, 0);
  for (int round = 0; round < 3; round++)
    {
      g_assert_cmpuint (pl_derive_key (&d, &a, 32, "pw", 2, k1), ==, 0);
      g_assert_cmpuint (pl_derive_key (&d, &a, 32, "pw ", 2, k2), ==, 0);
      g_assert_cmpmem (k1, 32, k2, 32);
    }
  g_assert_cmpuint (d.derivations, ==, 1);
  g_assert_cmpuint (pl_s2k_derive (&a, "pw", 2, want, 32, 0), ==, 0);
  g_assert_cmpmem (k1, 32, want, 32);
  /* Another salt, another passphrase, another length: each its own. */
  g_assert_cmpuint (pl_derive_key (&d, &b, 32, "pw", 2, k3), ==, 0);
  g_assert_cmpuint (pl_derive_key (&d, &a, 32, "pw ", 3, k3), ==, 0);
  g_assert_cmpuint (pl_derive_key (&d, &a, 16, "pw", 2, k3), ==, 0);
  g_assert_cmpuint (d.derivations, ==, 4);
  g_assert_cmpmem (k3, 16, want, 16);
  pl_derive_clear (&d);
  gcry_free (k);
}

/* A cancel during key derivation ends the job as cancelled, not as a
 * wrong passphrase (nor, had it run on, a success): two Argon2 SKESKs of
 * 3 passes over 512 MiB take several seconds to try; cancelled after
 * 0.3 s, the job must end well within a generous 10 s. */
static void
test_cancel_during_derivation (void)
{
  const char *pws[] = { "password" };
  atomic_int flag = 0;
  run_opts r = { pws, 1, &flag, 0 };
  GByteArray *msg = g_byte_array_new ();
  GBytes *out = NULL;
  GThread *t;
  GTimer *timer;
  gpg_error_t err;

  pb_skesk_v4_argon2 (msg, 3, 4, 19, 100);
  pb_skesk_v4_argon2 (msg, 2, 4, 19, 101);
  append_valid (msg, "password", "hello");
  timer = g_timer_new ();
  t = tu_cancel_after (&flag, 300);
  err = run_decrypt (&r, msg, &out);
  g_thread_join (t);
  g_assert_cmpint (gpg_err_code (err), ==, GPG_ERR_CANCELED);
  g_assert_cmpint (pl_error_outcome (err), ==, PL_OUTCOME_CANCELLED);
  g_assert_cmpfloat (g_timer_elapsed (timer, NULL), <, 10.0);
  g_assert_cmpuint (g_bytes_get_size (out), ==, 0);
  g_timer_destroy (timer);
  g_bytes_unref (out);
  g_byte_array_unref (msg);
}

/* Encryption's key derivation stops on cancel too: an Argon2 of 20
 * passes over 512 MiB (ten seconds and more) cancelled after 0.3 s. */
static void
test_cancel_encrypt_derivation (void)
{
  pl_encrypt_options o;
  pl_job_control ctl = { 0 };
  atomic_int flag = 0;
  pl_source *src = pl_source_new_memory ("data", 4);
  pl_sink *sink = pl_sink_new_memory ();
  GThread *t;
  const uint8_t *d;
  size_t n;

  pl_encrypt_options_init (&o);
  o.profile = PL_PROFILE_RFC9580;
  o.argon2_passes = 20;
  o.argon2_memory_exp = 19;
  ctl.cancel = &flag;
  t = tu_cancel_after (&flag, 300);
  pl_opener key = pl_opener_passphrase ("pw", 2);

  o.openers = &key;
  o.n_openers = 1;
  g_assert_cmpint (gpg_err_code (pl_encrypt (src, sink, &o, &ctl)),
                   ==, GPG_ERR_CANCELED);
  g_thread_join (t);
  d = pl_sink_memory_data (sink, &n);
  g_assert_cmpuint (n, ==, 0);
  (void) d;
  pl_sink_free (sink);
  pl_source_free (src);
}

/* The 17th SKESK would open the message, but only 16 are tried. */
static void
test_too_many_keys (void)
{
  const char *pws[] = { "password" };
  GByteArray *msg = g_byte_array_new ();

  for (int i = 0; i < 16; i++)
    pb_skesk_v4_count (msg, 0, i);
  append_valid (msg, "password", "hello");
  assert_refused (msg, pws, 1, gpg_error (PL_ERR_TOO_MANY_KEYS),
                  "too many key packets");
  assert_sop (msg, "password", 41, "too many key packets");
  g_byte_array_unref (msg);
}

/* padlock-sop encrypt refuses a password with nothing but whitespace. */
static void
test_empty_passphrase (void)
{
  const char *bad[] = { "", " ", "\t \n", "\r\n", "   \v" };

  for (gsize i = 0; i < G_N_ELEMENTS (bad); i++)
    {
      g_autofree char *pwfile = tu_write_temp ("pw", bad[i], strlen (bad[i]));
      const char *argv[] = { tu_sop_path (), "encrypt", "--with-password",
                             pwfile, NULL };
      g_autoptr (GBytes) in = g_bytes_new_static ("data", 4);
      g_autoptr (GBytes) out = NULL;
      g_autofree char *err_text = NULL;
      int status = -1;

      g_assert_true (tu_run (argv, in, &out, &err_text, &status));
      g_assert_cmpint (status, ==, 31);
      g_assert_nonnull (strstr (err_text, "empty or only whitespace"));
      g_assert_cmpuint (g_bytes_get_size (out), ==, 0);
    }
}

/* RFC 9580 §4.3: unknown non-critical packets (40-63) are skipped
 * wherever they are; unknown critical ones (22-39) still fail. */
static void
test_unknown_packets (void)
{
  const char *pws[] = { "password" };
  static const guint8 junk[] = { 1, 2, 3, 4, 5 };
  run_opts r = { pws, 1, NULL, 0 };
  GByteArray *lit = pb_literal_body ("hello", 5);
  GByteArray *inner = g_byte_array_new ();
  GByteArray *msg = g_byte_array_new ();
  GBytes *out = NULL;
  guint8 key[32];

  pb_packet (inner, 63, junk, sizeof junk);
  pb_packet (inner, 11, lit->data, lit->len);
  pb_packet (inner, 40, junk, sizeof junk);
  pb_packet (msg, 40, junk, sizeof junk);
  pb_skesk_v4 (msg, "password", key);
  pb_packet (msg, 50, junk, sizeof junk);
  pb_seipd1 (msg, key, inner->data, inner->len, -1);
  pb_packet (msg, 63, junk, sizeof junk);
  g_assert_cmpuint (run_decrypt (&r, msg, &out), ==, 0);
  g_assert_cmpmem (g_bytes_get_data (out, NULL), g_bytes_get_size (out),
                   "hello", 5);
  g_bytes_unref (out);
  g_byte_array_unref (msg);

  msg = g_byte_array_new ();
  pb_packet (msg, 39, junk, sizeof junk);
  pb_skesk_v4 (msg, "password", key);
  pb_seipd1 (msg, key, inner->data, inner->len, -1);
  g_assert_cmpint (pl_error_outcome (run_decrypt (&r, msg, &out)), ==,
                   PL_OUTCOME_MALFORMED);
  g_assert_cmpuint (g_bytes_get_size (out), ==, 0);
  g_bytes_unref (out);
  g_byte_array_unref (msg);
  g_byte_array_unref (inner);
  g_byte_array_unref (lit);
}

/* An SKESK over 512 octets, or of indeterminate length, is bad data. */
static void
test_skesk_length (void)
{
  guint8 big[600] = { 4, 9, 3, 8 };
  GByteArray *msg = g_byte_array_new ();

  pb_packet (msg, 3, big, sizeof big);
  append_valid (msg, "password", "hello");
  assert_sop (msg, "password", 41, "not an OpenPGP message, or it is damaged");
  g_byte_array_unref (msg);

  /* Indeterminate: the SKESK is the last packet and runs to the end. */
  msg = g_byte_array_new ();
  append_valid (msg, "password", "hello");
  pb_packet_indeterminate (msg, 3, big, 13);
  assert_sop (msg, "password", 41, "not an OpenPGP message");
  g_byte_array_unref (msg);
}

/* A session key whose length does not fit its cipher: a SOP code, with
 * words, not exit 1. */
static void
test_session_key_length (void)
{
  GByteArray *msg = g_byte_array_new ();
  g_autofree char *skfile = tu_write_temp ("sk", "9:00112233", 10);
  const char *argv[] = { tu_sop_path (), "decrypt", "--with-session-key",
                         skfile, NULL };
  g_autoptr (GBytes) in = NULL;
  g_autoptr (GBytes) out = NULL;
  g_autofree char *err_text = NULL;
  int status = -1;

  append_valid (msg, "password", "hello");
  in = g_bytes_new (msg->data, msg->len);
  g_assert_true (tu_run (argv, in, &out, &err_text, &status));
  g_assert_cmpint (status, ==, 41);
  g_assert_nonnull (strstr (err_text, "does not fit its cipher"));
  g_assert_cmpuint (g_bytes_get_size (out), ==, 0);
  g_byte_array_unref (msg);
}

/* A bad armor CRC is bad data (41), not a tampered message (29). */
static void
test_armor_crc (void)
{
  GByteArray *msg = g_byte_array_new ();
  const char *argv[] = { tu_sop_path (), "armor", NULL };
  g_autoptr (GBytes) in = NULL;
  g_autoptr (GBytes) armored = NULL;
  g_autofree char *err_text = NULL;
  GByteArray *bad;
  char *crc;
  int status = -1;

  append_valid (msg, "password", "hello");
  in = g_bytes_new (msg->data, msg->len);
  g_assert_true (tu_run (argv, in, &armored, &err_text, &status));
  g_assert_cmpint (status, ==, 0);
  bad = g_byte_array_new ();
  g_byte_array_append (bad, g_bytes_get_data (armored, NULL),
                       g_bytes_get_size (armored));
  g_byte_array_append (bad, (const guint8 *) "", 1);
  crc = strstr ((char *) bad->data, "\n=");
  g_assert_nonnull (crc);
  crc[2] = crc[2] == 'A' ? 'B' : 'A';
  g_byte_array_set_size (bad, bad->len - 1);
  assert_sop (bad, "password", 41, "armor is damaged");
  g_byte_array_unref (bad);
  g_byte_array_unref (msg);
}

/* padlock-sop decrypt with stdout on PATH opened for appending. */
static GSubprocess *
launch_appending (const char *path, const char *pw, GSubprocessFlags flags)
{
  g_autoptr (GSubprocessLauncher) l = g_subprocess_launcher_new (flags);
  g_autofree char *pwfile = tu_write_temp ("pw", pw, strlen (pw));
  g_autoptr (GError) error = NULL;
  GSubprocess *p;
  int fd = open (path, O_WRONLY | O_APPEND | O_CLOEXEC);

  g_assert_cmpint (fd, >=, 0);
  g_subprocess_launcher_take_stdout_fd (l, fd);
  p = g_subprocess_launcher_spawn (l, &error, tu_sop_path (), "decrypt",
                                   "--with-password", pwfile, NULL);
  g_assert_no_error (error);
  return p;
}

static void
assert_file (const char *path, const char *want)
{
  g_autofree char *got = NULL;
  gsize len;

  g_assert_true (g_file_get_contents (path, &got, &len, NULL));
  g_assert_cmpmem (got, len, want, strlen (want));
}

/* `padlock-sop decrypt ... >> log` with a wrong password leaves log as it
 * was (a fresh O_APPEND descriptor's offset is 0: the length is what
 * counts); with the right one, appends. */
static void
test_append_restored (void)
{
  GByteArray *msg = g_byte_array_new ();
  g_autofree char *log = tu_write_temp ("log", "line one\n", 9);
  g_autoptr (GBytes) in = NULL;
  g_autoptr (GError) error = NULL;

  append_valid (msg, "password", "hello");
  in = g_bytes_new (msg->data, msg->len);
  for (int right = 0; right < 2; right++)
    {
      g_autoptr (GSubprocess) p =
        launch_appending (log, right ? "password" : "wrong",
                          G_SUBPROCESS_FLAGS_STDIN_PIPE
                          | G_SUBPROCESS_FLAGS_STDERR_SILENCE);
      g_assert_true (g_subprocess_communicate (p, in, NULL, NULL, NULL,
                                               &error));
      g_assert_no_error (error);
      g_assert_cmpint (g_subprocess_get_exit_status (p), ==, right ? 0 : 29);
      assert_file (log, right ? "line one\nhello" : "line one\n");
    }
  g_byte_array_unref (msg);
}

/* SIGTERM while plaintext is being written in place: the file goes back
 * to its length at the start before the process ends. */
static void
test_interrupt_restored (void)
{
  gsize size = 16u << 20;
  g_autofree guint8 *data = g_malloc0 (size);
  g_autofree char *log = tu_write_temp ("log2", "line one\n", 9);
  GByteArray *lit = pb_literal_body (data, size);
  GByteArray *inner = g_byte_array_new ();
  GByteArray *msg;
  g_autoptr (GSubprocess) p = NULL;
  g_autoptr (GError) error = NULL;
  GOutputStream *to;
  struct stat st;
  gint64 deadline;

  pb_packet_partial (inner, 11, lit->data, lit->len, 20);
  msg = pb_message ("password", inner->data, inner->len, 20);
  p = launch_appending (log, "password", G_SUBPROCESS_FLAGS_STDIN_PIPE
                        | G_SUBPROCESS_FLAGS_STDERR_SILENCE);
  to = g_subprocess_get_stdin_pipe (p);
  /* Half the message: plaintext reaches the file, the end does not. */
  g_assert_true (g_output_stream_write_all (to, msg->data, msg->len / 2,
                                            NULL, NULL, &error));
  g_assert_no_error (error);
  deadline = g_get_monotonic_time () + 60 * G_USEC_PER_SEC;
  do
    {
      g_usleep (10 * 1000);
      g_assert_cmpint (stat (log, &st), ==, 0);
    }
  while (st.st_size <= 9 && g_get_monotonic_time () < deadline);
  g_assert_cmpint (st.st_size, >, 9);
  g_subprocess_send_signal (p, SIGTERM);
  g_assert_true (g_subprocess_wait (p, NULL, &error));
  g_assert_true (g_subprocess_get_if_signaled (p));
  g_assert_cmpint (g_subprocess_get_term_sig (p), ==, SIGTERM);
  assert_file (log, "line one\n");
  g_byte_array_unref (msg);
  g_byte_array_unref (inner);
  g_byte_array_unref (lit);
}

/* A message whose literal packet is compressed with ALGO. */
static GByteArray *
compressed_message (int algo, const void *data, gsize len)
{
  GByteArray *lit = pb_literal_body (data, len);
  GByteArray *litp = g_byte_array_new (), *comp, *inner, *msg;

  pb_packet (litp, 11, lit->data, lit->len);
  comp = pb_compressed_body (algo, litp->data, litp->len);
  inner = g_byte_array_new ();
  pb_packet (inner, 8, comp->data, comp->len);
  msg = pb_message ("password", inner->data, inner->len, -1);
  g_byte_array_unref (inner);
  g_byte_array_unref (comp);
  g_byte_array_unref (litp);
  g_byte_array_unref (lit);
  return msg;
}

/* Output past both the floor and 1000x the compressed input stops with
 * the bomb's words and nothing written; the switch lifts it, and the
 * default floor (1 GiB) lets small messages through.  The floor is 1 MiB
 * here so that the test stays small. */
static void
test_decompression_bomb (void)
{
  const char *pws[] = { "password" };
  gsize size = 4u << 20;
  g_autofree guint8 *zeros = g_malloc0 (size);
  GString *text = g_string_new (NULL);

  g_assert_cmpuint (PL_INFLATE_DEFAULT_FLOOR, ==, 1u << 30);
  for (int algo = 1; algo <= 3; algo++)
    {
      GByteArray *msg = compressed_message (algo, zeros, size);
      run_opts r = { pws, 1, NULL, 1u << 20 };
      GBytes *out = NULL;
      gpg_error_t err = run_decrypt (&r, msg, &out);

      g_assert_cmpint (gpg_err_code (err), ==, PL_ERR_BOMB);
      g_assert_nonnull (strstr (pl_error_message (err),
                                "expands more than 1000-fold: likely a "
                                "decompression bomb"));
      g_assert_cmpuint (g_bytes_get_size (out), ==, 0);
      g_bytes_unref (out);

      r.bomb_limit = PL_INFLATE_NO_LIMIT;
      g_assert_cmpuint (run_decrypt (&r, msg, &out), ==, 0);
      g_assert_cmpuint (g_bytes_get_size (out), ==, size);
      g_bytes_unref (out);

      r.bomb_limit = 0;
      g_assert_cmpuint (run_decrypt (&r, msg, &out), ==, 0);
      g_assert_cmpuint (g_bytes_get_size (out), ==, size);
      g_bytes_unref (out);
      g_byte_array_unref (msg);
    }

  /* Ordinary text (tens of times smaller compressed) is not affected,
   * even over the floor. */
  while (text->len < size)
    g_string_append_printf (text, "line %u of an ordinary log file, %u\n",
                            (unsigned) text->len, g_test_rand_int ());
  {
    GByteArray *msg = compressed_message (3, text->str, text->len);
    run_opts r = { pws, 1, NULL, 1u << 20 };
    GBytes *out = NULL;

    g_assert_cmpuint (run_decrypt (&r, msg, &out), ==, 0);
    g_assert_cmpuint (g_bytes_get_size (out), ==, text->len);
    g_bytes_unref (out);
    g_byte_array_unref (msg);
  }
  g_string_free (text, TRUE);
}

/* padlock-sop takes the switch. */
static void
test_sop_expansion_switch (void)
{
  static const char data[] = "compressible compressible compressible";
  GByteArray *msg = compressed_message (2, data, sizeof data - 1);
  g_autofree char *pwfile = tu_write_temp ("pw", "password", 8);
  const char *argv[] = { tu_sop_path (), "decrypt", "--no-expansion-limit",
                         "--with-password", pwfile, NULL };
  g_autoptr (GBytes) in = g_bytes_new (msg->data, msg->len);
  g_autoptr (GBytes) out = NULL;
  g_autofree char *err_text = NULL;
  int status = -1;

  g_assert_true (tu_run (argv, in, &out, &err_text, &status));
  g_assert_cmpint (status, ==, 0);
  g_assert_cmpmem (g_bytes_get_data (out, NULL), g_bytes_get_size (out),
                   data, sizeof data - 1);
  g_byte_array_unref (msg);
}

/* A memory sink that counts the writes it is asked for. */
typedef struct
{
  pl_sink base;
  pl_sink *inner;
  gsize writes;
} counting_sink;

static gpg_error_t
counting_write (pl_sink *self, const void *buf, size_t len)
{
  counting_sink *s = (counting_sink *) self;
  s->writes++;
  return s->inner->write (s->inner, buf, len);
}

static gpg_error_t
counting_commit (pl_sink *self)
{
  counting_sink *s = (counting_sink *) self;
  return s->inner->commit (s->inner);
}

static void
counting_abort (pl_sink *self)
{
  counting_sink *s = (counting_sink *) self;
  s->inner->abort (s->inner);
}

/* One-octet partial lengths (after the first 512, for the encrypted
 * packet and the literal packet inside it) decrypt to the right data in
 * large writes, not one write per chunk.  The time it takes is in
 * bench/partials. */
static void
test_one_octet_partials (void)
{
  const char *pws[] = { "password" };
  gsize size = 4u << 20;
  g_autoptr (GBytes) data = tu_random_bytes (size);
  GByteArray *lit = pb_literal_body (g_bytes_get_data (data, NULL), size);
  GByteArray *inner = g_byte_array_new (), *msg;
  counting_sink sink = { { 0 } };
  pl_decrypt_options o = { 0 };
  pl_source *src;
  const uint8_t *d;
  size_t n;

  pb_packet_partial (inner, 11, lit->data, lit->len, 0);
  msg = pb_message ("password", inner->data, inner->len, 0);
  g_assert_cmpuint (msg->len, >, 3 * size);
  sink.base.write = counting_write;
  sink.base.commit = counting_commit;
  sink.base.abort = counting_abort;
  sink.inner = pl_sink_new_memory ();
  {
    static pl_opener key;
    key = pl_opener_passphrase (pws[0], strlen (pws[0]));
    o.openers = &key;
    o.n_openers = 1;
  }
  src = pl_source_new_memory (msg->data, msg->len);
  g_assert_cmpuint (pl_decrypt (src, &sink.base, &o, NULL, NULL), ==, 0);
  d = pl_sink_memory_data (sink.inner, &n);
  g_assert_cmpmem (d, n, g_bytes_get_data (data, NULL), size);
  /* Blocks of PL_PACKET_COALESCE, give or take the edges. */
  g_assert_cmpuint (sink.writes, <=, 2 * size / PL_PACKET_COALESCE + 4);
  pl_source_free (src);
  pl_sink_free (sink.inner);
  g_byte_array_unref (msg);
  g_byte_array_unref (inner);
  g_byte_array_unref (lit);
}

int
main (int argc, char **argv)
{
  tu_init (&argc, &argv);
  g_test_add_func ("/hostile/argon2-bomb", test_argon2_bomb);
  g_test_add_func ("/hostile/budget", test_budget);
  g_test_add_func ("/hostile/within-budget", test_within_budget);
  g_test_add_func ("/hostile/budget-counts-runs", test_budget_counts_runs);
  g_test_add_func ("/hostile/derive-once", test_derive_once);
  g_test_add_func ("/hostile/cancel-during-derivation",
                   test_cancel_during_derivation);
  g_test_add_func ("/hostile/too-many-keys", test_too_many_keys);
  g_test_add_func ("/hostile/cancel-encrypt-derivation",
                   test_cancel_encrypt_derivation);
  g_test_add_func ("/hostile/empty-passphrase", test_empty_passphrase);
  g_test_add_func ("/hostile/unknown-packets", test_unknown_packets);
  g_test_add_func ("/hostile/skesk-length", test_skesk_length);
  g_test_add_func ("/hostile/session-key-length", test_session_key_length);
  g_test_add_func ("/hostile/armor-crc", test_armor_crc);
  g_test_add_func ("/hostile/append-restored", test_append_restored);
  g_test_add_func ("/hostile/interrupt-restored", test_interrupt_restored);
  g_test_add_func ("/hostile/decompression-bomb", test_decompression_bomb);
  g_test_add_func ("/hostile/sop-expansion-switch",
                   test_sop_expansion_switch);
  g_test_add_func ("/hostile/one-octet-partials", test_one_octet_partials);
  return g_test_run ();
}
