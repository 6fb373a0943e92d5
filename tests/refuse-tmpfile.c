/* refuse-tmpfile.c - O_TMPFILE refused on demand */
#include "refuse-tmpfile.h"

#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdatomic.h>
#include <unistd.h>
#include <sys/syscall.h>

static atomic_int refuse_tmpfile;

void
tu_refuse_tmpfile (gboolean refuse)
{
  atomic_store (&refuse_tmpfile, refuse);
}

int
open64 (const char *path, int flags, ...)
{
  mode_t mode = 0;

  if ((flags & O_CREAT) || (flags & O_TMPFILE) == O_TMPFILE)
    {
      va_list ap;
      va_start (ap, flags);
      mode = (mode_t) va_arg (ap, int);
      va_end (ap);
    }
  if (atomic_load (&refuse_tmpfile) && (flags & O_TMPFILE) == O_TMPFILE)
    {
      errno = EOPNOTSUPP;
      return -1;
    }
  return (int) syscall (SYS_openat, AT_FDCWD, path, flags, mode);
}
