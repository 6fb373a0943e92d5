/* test-padlock-memfd.c - the memory sink of Open Without Saving (issue 38):
 * what it was given comes back whole once committed, sealed against every
 * other writer; past its limit it fails at once; an abort leaves no
 * plaintext; the limit never passes half of the available memory; its
 * pages are locked within RLIMIT_MEMLOCK and it still works past it. */
#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <unistd.h>
#include <stdio.h>
#include <glib.h>

#include "padlock-memfd.h"

static GBytes *
random_bytes (gsize n)
{
  guint8 *p = g_malloc (n);

  for (gsize i = 0; i < n; i++)
    p[i] = (guint8) g_random_int ();
  return g_bytes_new_take (p, n);
}

/* Written in uneven pieces, as the core's writer hands them. */
static PadlockMemfd *
write_and_commit (GBytes *data, guint64 limit)
{
  gsize len;
  const guint8 *p = g_bytes_get_data (data, &len);
  pl_sink *sink = NULL;
  PadlockMemfd *memfd;

  g_assert_cmpint (padlock_memfd_sink_new ("test", limit, &sink), ==, 0);
  for (gsize off = 0; off < len;)
    {
      gsize n = MIN (len - off, 12345 + off % 777);

      g_assert_cmpint (sink->write (sink, p + off, n), ==, 0);
      off += n;
    }
  g_assert_null (padlock_memfd_sink_take (sink));
  g_assert_cmpint (sink->commit (sink), ==, 0);
  memfd = padlock_memfd_sink_take (sink);
  pl_sink_free (sink);
  return memfd;
}

static void
test_round_trip_sealed (void)
{
  g_autoptr(GBytes) data = random_bytes (3 * 1024 * 1024 + 17);
  g_autoptr(PadlockMemfd) memfd = write_and_commit (data, 64 * 1024 * 1024);
  g_autofree char *proc = NULL;
  g_autofree char *read_back = NULL;
  gsize len;
  const guint8 *p;
  int fd, other, seals;

  g_assert_nonnull (memfd);
  p = padlock_memfd_get_data (memfd, &len);
  g_assert_cmpmem (p, len, g_bytes_get_data (data, NULL), g_bytes_get_size (data));
  fd = padlock_memfd_get_fd (memfd);
  g_assert_cmpint (lseek (fd, 0, SEEK_END), ==, (off_t) len);
  g_assert_cmpint (fcntl (fd, F_GETFD) & FD_CLOEXEC, !=, 0);
  seals = fcntl (fd, F_GET_SEALS);
  g_assert_cmpint (seals & (F_SEAL_FUTURE_WRITE | F_SEAL_GROW | F_SEAL_SHRINK
                            | F_SEAL_SEAL), ==,
                   F_SEAL_FUTURE_WRITE | F_SEAL_GROW | F_SEAL_SHRINK | F_SEAL_SEAL);
  /* A viewer opens /proc/PID/fd/N: it reads the plaintext, and can
   * neither write, grow, shrink nor unseal it. */
  proc = g_strdup_printf ("/proc/self/fd/%d", fd);
  g_assert_true (g_file_get_contents (proc, &read_back, &len, NULL));
  g_assert_cmpmem (read_back, len, g_bytes_get_data (data, NULL), g_bytes_get_size (data));
  other = open (proc, O_RDWR);
  g_assert_cmpint (other, >=, 0);
  g_assert_cmpint (pwrite (other, "x", 1, 0), ==, -1);
  g_assert_cmpint (errno, ==, EPERM);
  g_assert_cmpint (ftruncate (other, 1), ==, -1);
  g_assert_cmpint (ftruncate (other, (off_t) len + 4096), ==, -1);
  g_assert_cmpint (fcntl (other, F_ADD_SEALS, F_SEAL_WRITE), ==, -1);
  g_assert_true (mmap (NULL, 4096, PROT_READ | PROT_WRITE, MAP_SHARED, other, 0)
                 == MAP_FAILED);
  close (other);
}

/* Save As: a new file with the plaintext, never over an existing one. */
static void
test_save (void)
{
  g_autoptr(GBytes) data = random_bytes (70000);
  g_autoptr(PadlockMemfd) memfd = write_and_commit (data, 1 << 20);
  g_autofree char *dir = g_dir_make_tmp ("padlock-memfd-XXXXXX", NULL);
  g_autofree char *path = g_build_filename (dir, "copy.pdf", NULL);
  g_autoptr(GError) error = NULL;
  char *back;
  gsize len;

  g_assert_true (padlock_memfd_save (memfd, path, &error));
  g_assert_true (g_file_get_contents (path, &back, &len, NULL));
  g_assert_cmpmem (back, len, g_bytes_get_data (data, NULL), g_bytes_get_size (data));
  g_free (back);
  g_assert_false (padlock_memfd_save (memfd, path, &error));
  g_assert_nonnull (error);
  g_assert_cmpint (remove (path), ==, 0);
  g_assert_cmpint (remove (dir), ==, 0);
}

static void
test_limit (void)
{
  g_autoptr(GBytes) data = random_bytes (300 * 1024);
  pl_sink *sink = NULL;
  gsize len;
  const guint8 *p = g_bytes_get_data (data, &len);
  g_autofree char *said = NULL;

  g_assert_cmpint (padlock_memfd_sink_new ("big", 256 * 1024, &sink), ==, 0);
  g_assert_cmpint (sink->write (sink, p, 200 * 1024), ==, 0);
  g_assert_cmpint (gpg_err_code (sink->write (sink, p, 100 * 1024)), ==, GPG_ERR_EFBIG);
  sink->abort (sink);
  g_assert_null (padlock_memfd_sink_take (sink));
  pl_sink_free (sink);
  /* Exactly the limit fits. */
  g_bytes_unref (data);
  data = random_bytes (256 * 1024);
  {
    g_autoptr(PadlockMemfd) memfd = write_and_commit (data, 256 * 1024);
    g_assert_nonnull (memfd);
  }
  g_assert_cmpuint (padlock_memfd_limit (1 << 30, 1000), ==, 500);
  g_assert_cmpuint (padlock_memfd_limit (1 << 30, 0), ==, 1 << 30);
  g_assert_cmpuint (padlock_memfd_limit (1000, G_GUINT64_CONSTANT (1) << 40), ==, 1000);
  g_assert_cmpuint (padlock_memfd_available (), >, 0);
  said = padlock_memfd_too_large ("scan.pdf.gpg", 1000);
  g_assert_cmpstr (said, ==, "scan.pdf.gpg is too large to open without saving "
                             "(limit 1.0\u00a0kB): save it instead");
}

/* An aborted sink's pages, read through another descriptor before the
 * sink goes: no plaintext octet is left. */
static void
test_abort_wipes (void)
{
  static const char secret[] = "the plaintext that must go";
  pl_sink *sink = NULL;
  g_autofree char *proc = NULL;
  char buf[sizeof secret];
  int other;

  g_assert_cmpint (padlock_memfd_sink_new ("wipe", 1 << 20, &sink), ==, 0);
  g_assert_cmpint (sink->write (sink, secret, sizeof secret), ==, 0);
  /* The test peeks at its own descriptor, as nobody else can. */
  for (int fd = 3; fd < 1024 && !proc; fd++)
    {
      char link[64] = "";
      g_autofree char *path = g_strdup_printf ("/proc/self/fd/%d", fd);

      if (readlink (path, link, sizeof link - 1) > 0
          && g_str_has_prefix (link, "/memfd:wipe"))
        proc = g_steal_pointer (&path);
    }
  g_assert_nonnull (proc);
  other = open (proc, O_RDONLY);
  g_assert_cmpint (other, >=, 0);
  g_assert_cmpint (pread (other, buf, sizeof buf, 0), ==, sizeof buf);
  g_assert_cmpmem (buf, sizeof buf, secret, sizeof secret);
  sink->abort (sink);
  g_assert_cmpint (pread (other, buf, sizeof buf, 0), ==, sizeof buf);
  for (gsize i = 0; i < sizeof buf; i++)
    g_assert_cmpint (buf[i], ==, 0);
  pl_sink_free (sink);
  close (other);
}

/* Under a 64 KiB RLIMIT_MEMLOCK, a 1 MiB plaintext is not all locked,
 * says so, and still comes back whole; a small one is locked. */
static void
test_memlock (void)
{
  struct rlimit old, small = { 64 * 1024, 64 * 1024 };
  g_autoptr(GBytes) big = random_bytes (1024 * 1024 + 1);
  g_autoptr(GBytes) tiny = random_bytes (100);

  g_assert_cmpint (getrlimit (RLIMIT_MEMLOCK, &old), ==, 0);
  if (old.rlim_cur != RLIM_INFINITY && old.rlim_cur < 4 * 1024 * 1024)
    {
      g_test_skip ("RLIMIT_MEMLOCK below 4 MiB: the locked case cannot be shown");
      return;
    }
  {
    g_autoptr(PadlockMemfd) memfd = write_and_commit (tiny, 1 << 20);
    g_assert_true (padlock_memfd_get_locked (memfd));
  }
  small.rlim_max = old.rlim_max;
  g_assert_cmpint (setrlimit (RLIMIT_MEMLOCK, &small), ==, 0);
  /* CAP_IPC_LOCK (root) locks past the limit: nothing to show then. */
  {
    void *probe = mmap (NULL, 1 << 20, PROT_READ | PROT_WRITE,
                        MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    gboolean capable = probe != MAP_FAILED && mlock (probe, 1 << 20) == 0;

    if (probe != MAP_FAILED)
      munmap (probe, 1 << 20);
    if (capable)
      {
        g_assert_cmpint (setrlimit (RLIMIT_MEMLOCK, &old), ==, 0);
        g_test_skip ("mlock passes RLIMIT_MEMLOCK here (CAP_IPC_LOCK)");
        return;
      }
  }
  {
    g_autoptr(PadlockMemfd) memfd = write_and_commit (big, 8 << 20);
    gsize len;
    const guint8 *p = padlock_memfd_get_data (memfd, &len);

    g_assert_false (padlock_memfd_get_locked (memfd));
    g_assert_cmpmem (p, len, g_bytes_get_data (big, NULL), g_bytes_get_size (big));
  }
  g_assert_cmpint (setrlimit (RLIMIT_MEMLOCK, &old), ==, 0);
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/memfd/round-trip-sealed", test_round_trip_sealed);
  g_test_add_func ("/memfd/limit", test_limit);
  g_test_add_func ("/memfd/save", test_save);
  g_test_add_func ("/memfd/abort-wipes", test_abort_wipes);
  g_test_add_func ("/memfd/memlock", test_memlock);
  return g_test_run ();
}
