/* fail-io.c - write, ftruncate, fsync, syncfs and close failing on demand */
#include "fail-io.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdatomic.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>
#include <sys/stat.h>
#include <sys/syscall.h>

static atomic_int armed;
static atomic_int kind;
static atomic_uint count, fail_at;
static atomic_int fail_errno, fail_short, failing;
static atomic_uint delay_us;
static char under[PATH_MAX];
static size_t under_len;

void
tu_fail_io (const char *dir, tu_io_call call, guint n, int errno_,
            gboolean short_write)
{
  g_assert (strlen (dir) + 1 < sizeof under);
  atomic_store (&armed, 0);
  g_snprintf (under, sizeof under, "%s/", dir);
  under_len = strlen (under);
  atomic_store (&kind, call);
  atomic_store (&count, 0);
  atomic_store (&fail_at, n);
  atomic_store (&fail_errno, errno_);
  atomic_store (&fail_short, short_write);
  atomic_store (&failing, 0);
  atomic_store (&delay_us, 0);
  atomic_store (&armed, 1);
}

void
tu_fail_io_slow (guint usec)
{
  atomic_store (&delay_us, usec);
}

guint
tu_fail_io_count (void)
{
  return atomic_load (&count);
}

void
tu_fail_io_off (void)
{
  atomic_store (&armed, 0);
}

static int
is_under (int fd)
{
  char link[64], path[PATH_MAX];
  ssize_t n;

  snprintf (link, sizeof link, "/proc/self/fd/%d", fd);
  n = syscall (SYS_readlinkat, AT_FDCWD, link, path, sizeof path - 1);
  if (n <= 0)
    return 0;
  path[n] = 0;
  return !strncmp (path, under, under_len);
}

/* 0: let the call through; 1: fail it with errno set; 2: a short write. */
static int
verdict (tu_io_call call, int fd)
{
  guint n;

  if (!atomic_load (&armed) || atomic_load (&kind) != (int) call
      || !is_under (fd))
    return 0;
  if (atomic_load (&failing))
    {
      errno = atomic_load (&fail_errno);
      return 1;
    }
  if (atomic_load (&delay_us))
    g_usleep (atomic_load (&delay_us));
  n = atomic_fetch_add (&count, 1) + 1;
  if (n != atomic_load (&fail_at))
    return 0;
  if (atomic_load (&fail_short))
    {
      atomic_store (&failing, 1);
      return 2;
    }
  errno = atomic_load (&fail_errno);
  return 1;
}

ssize_t
write (int fd, const void *buf, size_t len)
{
  switch (verdict (TU_IO_WRITE, fd))
    {
    case 1:
      return -1;
    case 2:
      len = len > 1 ? len / 2 : len;
      break;
    }
  return syscall (SYS_write, fd, buf, len);
}

int
ftruncate64 (int fd, off64_t length)
{
  if (verdict (TU_IO_FTRUNCATE, fd))
    return -1;
  return (int) syscall (SYS_ftruncate, fd, length);
}

int
fsync (int fd)
{
  if (verdict (TU_IO_FSYNC, fd))
    return -1;
  return (int) syscall (SYS_fsync, fd);
}

int
syncfs (int fd)
{
  if (verdict (TU_IO_FSYNC, fd))
    return -1;
  return (int) syscall (SYS_syncfs, fd);
}

/* Regular files only: a folder's close reports nothing worth having.
 * Linux closes the descriptor whatever close() reports. */
int
close (int fd)
{
  struct stat st;
  int fail = atomic_load (&armed) && fstat (fd, &st) == 0
             && S_ISREG (st.st_mode) && verdict (TU_IO_CLOSE, fd);
  int e = errno;
  int r = (int) syscall (SYS_close, fd);

  if (fail)
    {
      errno = e;
      return -1;
    }
  return r;
}
