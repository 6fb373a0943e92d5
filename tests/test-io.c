/* test-io.c - the transactional file sink: never replaces, picks the next
 * free name, shortens the stem to fit NAME_MAX on a UTF-8 boundary; the
 * mapped file source: every size, a file cut short under it (an error,
 * never a crash or output), cancel, and the fallbacks */
#include <fcntl.h>
#include <limits.h>
#include <setjmp.h>
#include <signal.h>
#include <string.h>
#include <unistd.h>
#include <sys/mman.h>
#include <glib/gstdio.h>

#include "io.h"
#include "job.h"
#include "mapsource.h"
#include "refuse-tmpfile.h"
#include "streamsource.h"
#include "testutil.h"

static char *
numbered (const char *name,
          const char *suffix,
          unsigned    attempt)
{
  char buf[NAME_MAX + 1];

  g_assert_cmpuint (pl_file_name_numbered (name, suffix, attempt, buf, sizeof buf), ==, 0);
  g_assert_cmpuint (strlen (buf), <=, NAME_MAX);
  g_assert_true (g_utf8_validate (buf, -1, NULL));
  return g_strdup (buf);
}

static void
test_numbered (void)
{
  g_autofree char *a = numbered ("report.pdf", ".gpg", 0);
  g_autofree char *b = numbered ("report.pdf", ".gpg", 1);
  g_autofree char *c = numbered ("report.pdf", "", 2);
  g_autofree char *d = numbered ("README", NULL, 3);
  g_autofree char *e = numbered (".bashrc", "", 1);
  char small[16];

  g_assert_cmpstr (a, ==, "report.pdf.gpg");
  g_assert_cmpstr (b, ==, "report (1).pdf.gpg");
  g_assert_cmpstr (c, ==, "report (2).pdf");
  g_assert_cmpstr (d, ==, "README (3)");
  g_assert_cmpstr (e, ==, ".bashrc (1)");
  g_assert_cmpint (gpg_err_code (pl_file_name_numbered ("a", "", 0, small, sizeof small)),
                   ==, GPG_ERR_ENAMETOOLONG);
}

/* A 255-octet name: the stem gives way to the number and the suffix, cut
 * between characters, and the extension stays. */
static void
test_numbered_too_long (void)
{
  g_autoptr(GString) name = g_string_new (NULL);
  g_autoptr(GString) wide = g_string_new (NULL);
  g_autoptr(GString) long_ext = g_string_new ("x.");
  g_autofree char *n0 = NULL, *n1 = NULL, *n12 = NULL, *w1 = NULL, *x1 = NULL;

  while (name->len < NAME_MAX - 4)
    g_string_append_c (name, 'a');
  g_string_append (name, ".txt");
  g_assert_cmpuint (name->len, ==, NAME_MAX);
  n0 = numbered (name->str, "", 0);
  g_assert_cmpstr (n0, ==, name->str);
  n1 = numbered (name->str, "", 1);
  g_assert_cmpuint (strlen (n1), ==, NAME_MAX);
  g_assert_true (g_str_has_suffix (n1, "a (1).txt"));
  n12 = numbered (name->str, ".gpg", 12);
  g_assert_cmpuint (strlen (n12), ==, NAME_MAX);
  g_assert_true (g_str_has_suffix (n12, "a (12).txt.gpg"));

  /* Two-octet characters: the cut never splits one. */
  while (wide->len < NAME_MAX - 1)
    g_string_append (wide, "é");
  g_string_append_c (wide, 'z');
  w1 = numbered (wide->str, "", 1);
  g_assert_cmpuint (strlen (w1), <=, NAME_MAX);
  g_assert_true (g_str_has_suffix (w1, "é (1)"));

  /* An extension that leaves no room for a stem is shortened too. */
  while (long_ext->len < NAME_MAX)
    g_string_append_c (long_ext, 'e');
  x1 = numbered (long_ext->str, ".gpg", 1);
  g_assert_cmpuint (strlen (x1), ==, NAME_MAX);
  g_assert_true (g_str_has_prefix (x1, "x.eee"));
  g_assert_true (g_str_has_suffix (x1, "e (1).gpg"));
}

static gpg_error_t
name_numbered (void     *user_data,
               unsigned  attempt,
               char     *buf,
               size_t    size)
{
  return pl_file_name_numbered (user_data, "", attempt, buf, size);
}

static void
commit_text (pl_sink    *sink,
             const char *text)
{
  g_assert_cmpuint (sink->write (sink, text, strlen (text)), ==, 0);
  g_assert_cmpuint (sink->commit (sink), ==, 0);
}

/* Two outputs of one 255-octet name in one folder, as when a message is
 * decrypted twice: the second is numbered, shortened, and the first stays. */
static void
test_sink_next_free_name (void)
{
  g_autofree char *dir = tu_new_dir ("next-free");
  g_autoptr(GString) name = g_string_new (NULL);
  pl_sink *first = NULL, *second = NULL, *third = NULL;
  g_autofree char *contents = NULL;
  g_autofree char *expected = NULL;

  while (name->len < NAME_MAX)
    g_string_append_c (name, 'n');
  g_assert_cmpuint (pl_sink_new_file_in (dir, name->str, name_numbered, name->str, &first), ==, 0);
  g_assert_cmpuint (pl_sink_new_file_in (dir, name->str, name_numbered, name->str, &second), ==, 0);
  g_assert_cmpuint (pl_sink_new_file_in (dir, name->str, name_numbered, name->str, &third), ==, 0);
  g_assert_null (pl_sink_file_path (first));
  commit_text (first, "first");
  commit_text (second, "second");
  third->abort (third);

  g_assert_true (g_str_has_suffix (pl_sink_file_path (first), name->str));
  expected = numbered (name->str, "", 1);
  g_assert_true (g_str_has_suffix (pl_sink_file_path (second), expected));
  g_assert_true (g_file_get_contents (pl_sink_file_path (first), &contents, NULL, NULL));
  g_assert_cmpstr (contents, ==, "first");
  g_clear_pointer (&contents, g_free);
  g_assert_true (g_file_get_contents (pl_sink_file_path (second), &contents, NULL, NULL));
  g_assert_cmpstr (contents, ==, "second");
  pl_sink_free (first);
  pl_sink_free (second);
  pl_sink_free (third);
  {
    g_autoptr(GDir) d = g_dir_open (dir, 0, NULL);
    guint n = 0;
    while (g_dir_read_name (d))
      n++;
    g_assert_cmpuint (n, ==, 2);
  }
}

/* Without O_TMPFILE: a visible NAME.XXXXXX while writing, linked under the
 * next free name at commit, gone after commit or abort.  A 255-octet name
 * leaves room for the six X. */
static void
test_sink_fallback (void)
{
  g_autofree char *dir = tu_new_dir ("fallback");
  g_autofree char *taken = g_build_filename (dir, "report.txt", NULL);
  g_autoptr(GString) long_name = g_string_new (NULL);
  pl_sink *sink = NULL, *aborted = NULL, *long_sink = NULL;
  g_autofree char *during = NULL, *after = NULL, *expected = NULL;

  while (long_name->len < NAME_MAX)
    g_string_append_c (long_name, 'l');
  g_assert_true (g_file_set_contents (taken, "keep me", -1, NULL));
  tu_refuse_tmpfile (TRUE);
  g_assert_cmpuint (pl_sink_new_file_in (dir, "report.txt", name_numbered, "report.txt", &sink), ==, 0);
  g_assert_cmpuint (pl_sink_new_file_in (dir, "other", NULL, NULL, &aborted), ==, 0);
  g_assert_cmpuint (pl_sink_new_file_in (dir, long_name->str, NULL, NULL, &long_sink), ==, 0);
  tu_refuse_tmpfile (FALSE);
  during = tu_list_dir (dir);
  g_assert_true (g_str_has_prefix (during, "llll"));
  g_assert_nonnull (strstr (during, "|other."));
  g_assert_nonnull (strstr (during, "|report.txt|report.txt."));

  commit_text (sink, "mine");
  commit_text (long_sink, "long");
  aborted->abort (aborted);
  after = tu_list_dir (dir);
  expected = g_strconcat (long_name->str, "|report (1).txt|report.txt", NULL);
  g_assert_cmpstr (after, ==, expected);
  g_assert_true (g_str_has_suffix (pl_sink_file_path (sink), "/report (1).txt"));
  pl_sink_free (sink);
  pl_sink_free (aborted);
  pl_sink_free (long_sink);
}

/* Without a name function: exactly one name, and an existing file stays. */
static void
test_sink_one_name (void)
{
  g_autofree char *dir = tu_new_dir ("one-name");
  g_autofree char *path = g_build_filename (dir, "out", NULL);
  g_autofree char *contents = NULL;
  pl_sink *sink = NULL;

  g_assert_cmpuint (pl_sink_new_file (path, &sink), ==, 0);
  g_assert_true (g_file_set_contents (path, "raced", -1, NULL));
  g_assert_cmpuint (sink->write (sink, "mine", 4), ==, 0);
  g_assert_cmpint (gpg_err_code (sink->commit (sink)), ==, GPG_ERR_EEXIST);
  sink->abort (sink);
  pl_sink_free (sink);
  g_assert_true (g_file_get_contents (path, &contents, NULL, NULL));
  g_assert_cmpstr (contents, ==, "raced");
  g_assert_cmpint (gpg_err_code (pl_sink_new_file_in (dir, "a/b", NULL, NULL, &sink)), ==,
                   GPG_ERR_INV_NAME);
  g_assert_null (sink);
}


/* ---- The mapped source ------------------------------------------------ */

/* A file of LEN octets of a pattern that tells positions apart. */
static char *
pattern_file (const char *name, gsize len, guint8 **data)
{
  guint8 *d = g_malloc (len ? len : 1);
  char *path;

  for (gsize i = 0; i < len; i++)
    d[i] = (guint8) (i * 7 + i / 4099);
  path = tu_write_temp (name, d, len);
  *data = d;
  return path;
}

static pl_source *
mapped (int fd)
{
  pl_source *src = NULL;

  g_assert_cmpint (pl_source_new_mapped (fd, 0, &src), ==, 0);
  g_assert_nonnull (src->borrow);
  return src;
}

/* Borrows and reads in turn, in uneven steps, from offset SKIP: every
 * octet comes once, in order; the check passes; the descriptor's offset
 * ends after the last one. */
static void
check_mapped_size (gsize len, gsize skip)
{
  g_autofree guint8 *data = NULL;
  g_autofree char *path = pattern_file ("mapped", len, &data);
  int fd = open (path, O_RDONLY);
  gsize pos = skip, steps[] = { 1000, 1 << 20, 4095, 3 << 20, 1 };
  pl_source *src;
  guint8 *buf = g_malloc (3 << 20);

  g_assert_cmpint (fd, >=, 0);
  g_assert_cmpint (lseek (fd, (off_t) skip, SEEK_SET), ==, (off_t) skip);
  src = mapped (fd);
  g_assert_cmpint (src->size, ==, (gint64) (len - skip));
  for (int i = 0;; i++)
    {
      gsize want = steps[i % G_N_ELEMENTS (steps)], n = 0;
      const uint8_t *p = NULL;

      if (i % 3 == 2)
        {
          g_assert_cmpint (src->read (src, buf, want, &n), ==, 0);
          p = buf;
        }
      else
        g_assert_cmpint (src->borrow (src, want, &p, &n), ==, 0);
      if (!n)
        break;
      g_assert_cmpuint (n, <=, want);
      g_assert_cmpuint (pos + n, <=, len);
      g_assert_true (memcmp (p, data + pos, n) == 0);
      pos += n;
    }
  g_assert_cmpuint (pos, ==, len);
  g_assert_cmpint (pl_source_check (src), ==, 0);
  pl_source_free (src);
  g_assert_cmpint (lseek (fd, 0, SEEK_CUR), ==, (off_t) len);
  close (fd);
  g_unlink (path);
  g_free (buf);
}

static void
test_mapped_sizes (void)
{
  gsize page = (gsize) sysconf (_SC_PAGESIZE);
  gsize sizes[] = { 0, 1, page - 1, page, page + 1, (5 << 20) + 3,
                    (40 << 20) + 123 };

  for (gsize i = 0; i < G_N_ELEMENTS (sizes); i++)
    {
      check_mapped_size (sizes[i], 0);
      if (sizes[i] > 3)
        check_mapped_size (sizes[i], 3);
    }
}

/* A pipe is not mapped: pl_source_new_mapped says so, and pl_source_new_fd
 * reads it even when told to map. */
static void
test_mapped_pipe_falls_back (void)
{
  int fds[2];
  pl_source *src = NULL;
  char buf[16];
  size_t n = 0;

  g_assert_cmpint (pipe (fds), ==, 0);
  g_assert_cmpint (gpg_err_code (pl_source_new_mapped (fds[0], 0, &src)), ==,
                   GPG_ERR_NOT_SUPPORTED);
  g_assert_null (src);
  g_assert_true (g_setenv ("PADLOCK_MAP", "1", TRUE));
  g_assert_false (pl_source_map_pays (fds[0]));
  src = pl_source_new_fd (fds[0], 1);
  g_assert_null (src->borrow);
  g_assert_cmpint (write (fds[1], "through", 7), ==, 7);
  close (fds[1]);
  g_assert_cmpint (pl_source_read_full (src, buf, sizeof buf, &n), ==, 0);
  g_assert_cmpmem (buf, n, "through", 7);
  pl_source_free (src);
  g_unsetenv ("PADLOCK_MAP");
}

/* pl_source_new_fd maps a regular file where it pays, and not a small
 * one. */
static void
test_mapped_policy (void)
{
  g_autofree guint8 *data = NULL;
  g_autofree char *path = pattern_file ("small", 100, &data);
  int fd = open (path, O_RDONLY);
  pl_source *src;

  g_assert_true (g_setenv ("PADLOCK_MAP", "1", TRUE));
  src = pl_source_new_fd (fd, 0);
  g_assert_nonnull (src->borrow);
  pl_source_free (src);
  g_assert_true (g_setenv ("PADLOCK_MAP", "0", TRUE));
  src = pl_source_new_fd (fd, 0);
  g_assert_null (src->borrow);
  pl_source_free (src);
  g_unsetenv ("PADLOCK_MAP");
  /* 100 octets are below PL_MAP_MIN on any filesystem. */
  src = pl_source_new_fd (fd, 0);
  g_assert_null (src->borrow);
  pl_source_free (src);
  close (fd);
  g_unlink (path);
}

/* The file is cut short before the octets are lent: the next borrow
 * fails, and so do the check and every later call. */
static void
test_mapped_truncated_before_borrow (void)
{
  g_autofree guint8 *data = NULL;
  g_autofree char *path = pattern_file ("cut", 16 << 20, &data);
  int fd = open (path, O_RDWR);
  pl_source *src = mapped (fd);
  const uint8_t *p;
  size_t n;

  g_assert_cmpint (src->borrow (src, 1 << 20, &p, &n), ==, 0);
  g_assert_cmpuint (n, ==, 1 << 20);
  g_assert_cmpint (ftruncate (fd, 2 << 20), ==, 0);
  g_assert_cmpint (gpg_err_code (src->borrow (src, 1 << 20, &p, &n)), ==,
                   GPG_ERR_EIO);
  g_assert_cmpuint (n, ==, 0);
  g_assert_cmpint (gpg_err_code (pl_source_check (src)), ==, GPG_ERR_EIO);
  g_assert_cmpint (gpg_err_code (src->read (src, (void *) data, 1, &n)), ==,
                   GPG_ERR_EIO);
  pl_source_free (src);
  close (fd);
  g_unlink (path);
}

/* The file grows while it is lent: the next borrow, and the check after
 * the last one, fail, as reading it would (the lengths written are
 * wrong). */
static void
test_mapped_grown (void)
{
  g_autofree guint8 *data = NULL;
  g_autofree char *path = pattern_file ("grow", 2 << 20, &data);
  int fd = open (path, O_RDWR);
  pl_source *src = mapped (fd);
  const uint8_t *p;
  size_t n;

  g_assert_cmpint (src->borrow (src, 2 << 20, &p, &n), ==, 0);
  g_assert_cmpuint (n, ==, 2 << 20);
  g_assert_cmpint (pl_source_check (src), ==, 0);
  g_assert_cmpint (pwrite (fd, "more", 4, 2 << 20), ==, 4);
  g_assert_cmpint (gpg_err_code (src->borrow (src, 1, &p, &n)), ==,
                   GPG_ERR_EIO);
  g_assert_cmpint (gpg_err_code (pl_source_check (src)), ==, GPG_ERR_EIO);
  pl_source_free (src);
  close (fd);
  g_unlink (path);
}

/* The file is cut short while a block is lent and not yet read: the
 * loads raise SIGBUS, the guard gives them zeros, and the source is
 * marked: the process lives, and the check fails. */
static void
test_mapped_truncated_while_borrowed (void)
{
  g_autofree guint8 *data = NULL;
  g_autofree char *path = pattern_file ("cut-lent", 16 << 20, &data);
  int fd = open (path, O_RDWR);
  pl_source *src = mapped (fd);
  const uint8_t *p, *q;
  size_t n;
  guint sum = 0;

  /* Valgrind's own signal handling turns the kernel's SIGBUS for a page
   * past the file's end into a SIGSEGV, which the guard leaves alone. */
  if (strstr (g_getenv ("LD_PRELOAD") ? g_getenv ("LD_PRELOAD") : "",
              "vgpreload"))
    {
      pl_source_free (src);
      close (fd);
      g_unlink (path);
      g_test_skip ("under valgrind, SIGBUS arrives as SIGSEGV");
      return;
    }
  g_assert_cmpint (src->borrow (src, 4 << 20, &p, &n), ==, 0);
  g_assert_cmpint (src->borrow (src, 1 << 20, &q, &n), ==, 0);
  g_assert_cmpuint (n, ==, 1 << 20);
  g_assert_cmpint (ftruncate (fd, 4 << 20), ==, 0);
  for (size_t i = 0; i < n; i += 512)
    sum += ((const volatile uint8_t *) q)[i];
  g_assert_cmpuint (sum, ==, 0);
  /* What is still in the file reads as before. */
  g_assert_true (memcmp (p, data, 4 << 20) == 0);
  g_assert_cmpint (gpg_err_code (pl_source_check (src)), ==, GPG_ERR_EIO);
  g_assert_cmpint (gpg_err_code (src->borrow (src, 1, &p, &n)), ==,
                   GPG_ERR_EIO);
  pl_source_free (src);
  close (fd);
  g_unlink (path);
}

/* PROFILE with KEY, at the cheapest key derivation. */
static void
fast_options (pl_encrypt_options *o, pl_profile profile, const pl_key *key)
{
  pl_encrypt_options_init (o);
  o->profile = profile;
  tu_cheap_kdf (o);
  o->keys = key;
  o->n_keys = 1;
}

typedef struct
{
  int fd;                       /* cut short at 4 MiB, or -1 */
  atomic_int cancel;
  int cancel_at_4m;
} mid_job;

static void
mid_job_progress (void *user_data, uint64_t done, int64_t total)
{
  mid_job *m = user_data;

  (void) total;
  if (done < (4 << 20))
    return;
  if (m->fd >= 0 && ftruncate (m->fd, 4 << 20) == 0)
    m->fd = -1;
  if (m->cancel_at_4m)
    atomic_store (&m->cancel, 1);
}

/* A whole job over a mapped file of 24 MiB, into a file sink in a fresh
 * folder, that something cuts short or cancels at 4 MiB: the job fails
 * with WANT and the folder stays empty. */
static void
mapped_job_fails (pl_profile profile, int truncate, gpg_error_t want)
{
  g_autofree guint8 *data = NULL;
  g_autofree char *path = pattern_file ("job-in", 24 << 20, &data);
  g_autofree char *dir = tu_new_dir ("mapped-job");
  g_autofree char *out = g_build_filename (dir, "out.gpg", NULL);
  int fd = open (path, O_RDWR);
  mid_job m = { .fd = truncate ? fd : -1, .cancel_at_4m = !truncate };
  pl_job_control ctl = { mid_job_progress, &m, &m.cancel, 2, NULL };
  pl_key key = pl_key_passphrase ("pw", 2);
  pl_encrypt_options o;
  pl_source *src = mapped (fd);
  pl_sink *sink = NULL;
  g_autoptr(GDir) listing = NULL;

  fast_options (&o, profile, &key);
  g_assert_cmpint (pl_sink_new_file (out, &sink), ==, 0);
  g_assert_cmpint (gpg_err_code (pl_encrypt (src, sink, &o, &ctl)), ==, want);
  pl_sink_free (sink);
  pl_source_free (src);
  close (fd);
  listing = g_dir_open (dir, 0, NULL);
  g_assert_null (g_dir_read_name (listing));
  g_rmdir (dir);
  g_unlink (path);
}

static void
test_mapped_job_truncated (void)
{
  mapped_job_fails (PL_PROFILE_RFC4880, 1, GPG_ERR_EIO);
  mapped_job_fails (PL_PROFILE_LIBREPGP, 1, GPG_ERR_EIO);
}

static void
test_mapped_job_cancel (void)
{
  mapped_job_fails (PL_PROFILE_RFC4880, 0, GPG_ERR_CANCELED);
  mapped_job_fails (PL_PROFILE_RFC9580, 0, GPG_ERR_CANCELED);
}

/* Every profile, encrypted from a mapped file and decrypted from one. */
static void
test_mapped_roundtrip (void)
{
  gsize len = (9 << 20) + 5;
  g_autofree guint8 *data = NULL;
  g_autofree char *path = pattern_file ("round", len, &data);
  pl_profile profiles[] = { PL_PROFILE_RFC4880, PL_PROFILE_LIBREPGP,
                            PL_PROFILE_RFC9580 };

  for (gsize i = 0; i < G_N_ELEMENTS (profiles); i++)
    {
      g_autofree char *dir = tu_new_dir ("mapped-round");
      g_autofree char *out = g_build_filename (dir, "round.gpg", NULL);
      pl_key key = pl_key_passphrase ("pw", 2);
      pl_encrypt_options o;
      pl_decrypt_options d = { .keys = &key, .n_keys = 1 };
      pl_source *src;
      pl_sink *sink;
      const uint8_t *back;
      size_t n;
      int fd = open (path, O_RDONLY);

      fast_options (&o, profiles[i], &key);
      src = mapped (fd);
      g_assert_cmpint (pl_sink_new_file (out, &sink), ==, 0);
      g_assert_cmpint (pl_encrypt (src, sink, &o, NULL), ==, 0);
      pl_sink_free (sink);
      pl_source_free (src);
      close (fd);

      fd = open (out, O_RDONLY);
      src = mapped (fd);
      sink = pl_sink_new_memory ();
      g_assert_cmpint (pl_decrypt (src, sink, &d, NULL, NULL), ==, 0);
      back = pl_sink_memory_data (sink, &n);
      g_assert_cmpuint (n, ==, len);
      g_assert_true (memcmp (back, data, len) == 0);
      pl_sink_free (sink);
      pl_source_free (src);
      close (fd);
      g_unlink (out);
      g_rmdir (dir);
    }
  g_unlink (path);
}

/* A SIGBUS that is not the guard's (a mapping of its own) still reaches
 * the handler that was there before the guard. */
static sigjmp_buf earlier_jump;

static void
earlier_handler (int sig)
{
  (void) sig;
  siglongjmp (earlier_jump, 1);
}

static void
test_mapped_guard_chains (void)
{
  if (g_test_subprocess ())
    {
      g_autofree guint8 *data = NULL;
      g_autofree char *path = pattern_file ("chain", 1 << 20, &data);
      int fd = open (path, O_RDWR);
      struct sigaction sa = { 0 };
      pl_source *src;
      const volatile uint8_t *own;

      sa.sa_handler = earlier_handler;
      sigemptyset (&sa.sa_mask);
      g_assert_cmpint (sigaction (SIGBUS, &sa, NULL), ==, 0);
      src = mapped (fd);        /* installs the guard */
      own = mmap (NULL, 1 << 20, PROT_READ, MAP_SHARED, fd, 0);
      g_assert_true (own != MAP_FAILED);
      g_assert_cmpint (ftruncate (fd, 0), ==, 0);
      if (!sigsetjmp (earlier_jump, 1))
        {
          (void) own[8192];
          g_assert_not_reached ();
        }
      g_print ("earlier handler ran\n");
      pl_source_free (src);
      close (fd);
      g_unlink (path);
      return;
    }
  g_test_trap_subprocess (NULL, 0, G_TEST_SUBPROCESS_DEFAULT);
  g_test_trap_assert_passed ();
  g_test_trap_assert_stdout ("*earlier handler ran*");
}

/* An input of unknown length (a pipe, a folder's tar) in SEIPD v1: the
 * literal packet's partial chunks come from overlapping reads
 * (encrypt.c).  Lengths around each chunk's end, with the literal
 * header (6 octets: no name) in the first; decrypted by padlock, and by
 * gpg. */
static void
test_unknown_length_chunks (void)
{
  const gsize p = 1 << 20, h = 6;
  const gsize sizes[] = { 0, 1, p - h - 1, p - h, p - h + 1, 2 * p - h,
                          2 * p - h + 1, 3 * p + 7 };
  g_autofree char *gpg = tu_peer ("gpg");
  g_autofree char *pwfile = tu_write_temp ("pw", "pw", 2);
  g_autoptr(GBytes) data = tu_random_bytes (3 * p + 7);
  pl_key key = pl_key_passphrase ("pw", 2);
  pl_decrypt_options d = { .keys = &key, .n_keys = 1 };

  for (gsize i = 0; i < G_N_ELEMENTS (sizes); i++)
    {
      const guint8 *in = g_bytes_get_data (data, NULL);
      pl_source *src = pl_source_new_memory (in, sizes[i]);
      pl_sink *sink = pl_sink_new_memory ();
      pl_encrypt_options o;
      const uint8_t *ct, *back;
      size_t ct_len, n;

      g_test_message ("size %zu", sizes[i]);
      /* Neither a length nor octets to borrow: read as from a pipe. */
      src->size = -1;
      src->borrow = NULL;
      fast_options (&o, PL_PROFILE_RFC4880, &key);
      g_assert_cmpint (pl_encrypt (src, sink, &o, NULL), ==, 0);
      pl_source_free (src);
      ct = pl_sink_memory_data (sink, &ct_len);
      g_autoptr(GBytes) cipher = g_bytes_new (ct, ct_len);
      pl_sink_free (sink);

      src = pl_source_new_memory (g_bytes_get_data (cipher, NULL), ct_len);
      sink = pl_sink_new_memory ();
      g_assert_cmpint (pl_decrypt (src, sink, &d, NULL, NULL), ==, 0);
      back = pl_sink_memory_data (sink, &n);
      g_assert_cmpmem (back, n, in, sizes[i]);
      pl_sink_free (sink);
      pl_source_free (src);

      if (gpg)
        {
          const char *args[] = { "--decrypt", NULL };
          g_autoptr(GBytes) out = NULL;

          g_assert_cmpint (tu_run_gpg (pwfile, args, cipher, &out, NULL), ==, 0);
          g_assert_cmpmem (g_bytes_get_data (out, NULL), g_bytes_get_size (out),
                           in, sizes[i]);
        }
    }
}

/* The octets sniffed, then the rest: every octet once, in order, by
 * reads and by borrows; size and check are the rest's. */
static void
test_replay (void)
{
  GBytes *data = tu_random_bytes (100000);
  const guint8 *d = g_bytes_get_data (data, NULL);

  for (int borrowing = 0; borrowing < 2; borrowing++)
    for (gsize cut = 0; cut <= 8192; cut += 4096)
      {
        pl_source *rest = pl_source_new_memory (d, 100000);
        pl_source *src;
        guint8 head[8192], back[100000];
        size_t got = 0, n = 0;

        g_assert_cmpuint (pl_source_read_full (rest, head, cut, &n), ==, 0);
        g_assert_cmpuint (n, ==, cut);
        src = pl_source_new_replay (head, cut, rest);
        g_assert_nonnull (src);
        g_assert_cmpint (src->size, ==, 100000);
        g_assert_true (!src->borrow == !rest->borrow);
        while (got < sizeof back)
          {
            if (borrowing)
              {
                const uint8_t *p;
                g_assert_cmpuint (src->borrow (src, 777, &p, &n), ==, 0);
                memcpy (back + got, p, n);
              }
            else
              g_assert_cmpuint (src->read (src, back + got, 777, &n), ==, 0);
            g_assert_cmpuint (n, >, 0);
            got += n;
          }
        g_assert_cmpuint (src->read (src, back, 1, &n), ==, 0);
        g_assert_cmpuint (n, ==, 0);
        g_assert_cmpmem (back, got, d, 100000);
        g_assert_cmpuint (pl_source_check (src), ==, 0);
        pl_source_free (src);
      }
  g_bytes_unref (data);
}

typedef struct
{
  pl_source *src;
  atomic_int started;
  gpg_error_t err;
  size_t n;
} stream_reader;

static gpointer
read_stream (gpointer data)
{
  stream_reader *r = data;
  guint8 buf[64];

  atomic_store (&r->started, 1);
  r->err = r->src->read (r->src, buf, sizeof buf, &r->n);
  return NULL;
}

/* A pipe: what is written comes out, the end is the end; a read waiting
 * on a writer that writes nothing ends when cancelled, and so does one
 * on a FIFO opened without waiting, whose writer never comes. */
static void
test_stream (void)
{
  int p[2];
  atomic_int cancel = 0;
  guint8 buf[16];
  size_t n = 0;
  pl_source *src;

  g_assert_cmpint (pipe (p), ==, 0);
  src = pl_source_new_stream (p[0], 1, &cancel);
  g_assert_cmpint (src->size, ==, -1);
  g_assert_cmpint (write (p[1], "hello", 5), ==, 5);
  g_assert_cmpuint (src->read (src, buf, sizeof buf, &n), ==, 0);
  g_assert_cmpmem (buf, n, "hello", 5);

  /* Cancelled while it waits (or just before: the outcome is the same). */
  {
    stream_reader r = { .src = src };
    GThread *t = g_thread_new ("reader", read_stream, &r);

    while (!atomic_load (&r.started))
      g_usleep (1000);
    atomic_store (&cancel, 1);
    g_thread_join (t);
    g_assert_cmpint (gpg_err_code (r.err), ==, GPG_ERR_CANCELED);
    atomic_store (&cancel, 0);
  }
  g_assert_cmpint (write (p[1], "!", 1), ==, 1);
  close (p[1]);
  g_assert_cmpuint (src->read (src, buf, sizeof buf, &n), ==, 0);
  g_assert_cmpmem (buf, n, "!", 1);
  g_assert_cmpuint (src->read (src, buf, sizeof buf, &n), ==, 0);
  g_assert_cmpuint (n, ==, 0);
  pl_source_free (src);

  /* A FIFO nobody writes to: open does not wait, read does, cancel ends it. */
  {
    g_autofree char *fifo = g_build_filename (tu_tmpdir (), "fifo", NULL);
    stream_reader r = { 0 };
    GThread *t;
    int fd;

    g_assert_cmpint (mkfifo (fifo, 0600), ==, 0);
    fd = open (fifo, O_RDONLY | O_NONBLOCK | O_CLOEXEC);
    g_assert_cmpint (fd, >=, 0);
    r.src = pl_source_new_stream (fd, 1, &cancel);
    t = g_thread_new ("reader", read_stream, &r);
    while (!atomic_load (&r.started))
      g_usleep (1000);
    atomic_store (&cancel, 1);
    g_thread_join (t);
    g_assert_cmpint (gpg_err_code (r.err), ==, GPG_ERR_CANCELED);
    pl_source_free (r.src);
    g_unlink (fifo);
  }
}

int
main (int argc, char **argv)
{
  tu_init (&argc, &argv);
  g_test_add_func ("/io/name/numbered", test_numbered);
  g_test_add_func ("/io/name/too-long", test_numbered_too_long);
  g_test_add_func ("/io/file-sink/next-free-name", test_sink_next_free_name);
  g_test_add_func ("/io/file-sink/one-name", test_sink_one_name);
  g_test_add_func ("/io/file-sink/mkstemp-fallback", test_sink_fallback);
  g_test_add_func ("/io/mapped/sizes", test_mapped_sizes);
  g_test_add_func ("/io/mapped/pipe-falls-back", test_mapped_pipe_falls_back);
  g_test_add_func ("/io/mapped/policy", test_mapped_policy);
  g_test_add_func ("/io/mapped/truncated-before-borrow",
                   test_mapped_truncated_before_borrow);
  g_test_add_func ("/io/mapped/truncated-while-borrowed",
                   test_mapped_truncated_while_borrowed);
  g_test_add_func ("/io/mapped/grown", test_mapped_grown);
  g_test_add_func ("/io/mapped/job-truncated", test_mapped_job_truncated);
  g_test_add_func ("/io/mapped/job-cancel", test_mapped_job_cancel);
  g_test_add_func ("/io/mapped/roundtrip", test_mapped_roundtrip);
  g_test_add_func ("/io/mapped/guard-chains", test_mapped_guard_chains);
  g_test_add_func ("/io/unknown-length/chunks", test_unknown_length_chunks);
  g_test_add_func ("/io/replay", test_replay);
  g_test_add_func ("/io/stream", test_stream);
  return g_test_run ();
}
