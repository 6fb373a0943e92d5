/* test-mapsource.c - a regular file's octets lent in place from a
 * mapping (core/mapsource.h): every size, a pipe falling back to reads,
 * the policy that picks it, a file cut short or grown under it (an
 * error, never a crash or output; the guard's SIGBUS handler chains to
 * one installed before), cancel, and whole jobs over it */
#include <fcntl.h>
#include <setjmp.h>
#include <signal.h>
#include <string.h>
#include <unistd.h>
#include <sys/mman.h>
#include <glib/gstdio.h>
#include "io.h"
#include "job.h"
#include "mapsource.h"
#include "testutil.h"

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
  g_assert_false (pl_source_should_map (fds[0]));
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
  pl_opener key = pl_opener_passphrase ("pw", 2);
  pl_encrypt_options o;
  pl_source *src = mapped (fd);
  pl_sink *sink = NULL;
  g_autoptr(GDir) listing = NULL;

  tu_cheap_options (&o, profile, &key);
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
      pl_opener key = pl_opener_passphrase ("pw", 2);
      pl_encrypt_options o;
      pl_decrypt_options d = { .openers = &key, .n_openers = 1 };
      pl_source *src;
      pl_sink *sink;
      const uint8_t *back;
      size_t n;
      int fd = open (path, O_RDONLY);

      tu_cheap_options (&o, profiles[i], &key);
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

int
main (int argc, char **argv)
{
  tu_init (&argc, &argv);
  g_test_add_func ("/mapsource/sizes", test_mapped_sizes);
  g_test_add_func ("/mapsource/pipe-falls-back", test_mapped_pipe_falls_back);
  g_test_add_func ("/mapsource/policy", test_mapped_policy);
  g_test_add_func ("/mapsource/truncated-before-borrow",
                   test_mapped_truncated_before_borrow);
  g_test_add_func ("/mapsource/truncated-while-borrowed",
                   test_mapped_truncated_while_borrowed);
  g_test_add_func ("/mapsource/grown", test_mapped_grown);
  g_test_add_func ("/mapsource/job-truncated", test_mapped_job_truncated);
  g_test_add_func ("/mapsource/job-cancel", test_mapped_job_cancel);
  g_test_add_func ("/mapsource/roundtrip", test_mapped_roundtrip);
  g_test_add_func ("/mapsource/guard-chains", test_mapped_guard_chains);
  return g_test_run ();
}
