/* mapsource.c - a regular file's octets lent in place from a mapping */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include "mapsource.h"

#include <errno.h>
#include <pthread.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/vfs.h>

#ifndef TMPFS_MAGIC
#define TMPFS_MAGIC 0x01021994
#endif

/* Pages are dropped behind the position this much at a time. */
#define MAP_WINDOW (4 * 1024 * 1024)
/* What stays mapped behind the position: blocks the job still works on
 * (the AEAD stage may hold a few chunks; the MDC hasher may be two spans
 * behind, seipd.h) are touched there without faulting again.  A page
 * touched again after it was dropped would stay resident until the
 * source is freed. */
#define MAP_KEEP (12 * 1024 * 1024)
#define MAP_SLACK (32 * 1024 * 1024)

/* ---- The SIGBUS guard ---------------------------------------------- */

/* The mappings the guard covers.  A slot is taken by setting its start
 * last (after its end) and given back by clearing its start first, so
 * that the handler, which reads start then end, never sees a half-made
 * one. */
#define GUARD_SLOTS 32

typedef struct
{
  _Atomic uintptr_t start;
  _Atomic uintptr_t end;
  atomic_int hit;               /* a fault was covered with zeros */
} guard_slot;

static guard_slot guard_slots[GUARD_SLOTS];
static struct sigaction guard_previous;
static long guard_page;             /* sysconf () is not for a handler */
static pthread_once_t guard_once = PTHREAD_ONCE_INIT;
static int guard_installed;

/* Hands a fault that is not ours to the handler before us; with none,
 * restores the default, so that the load, made again, ends the process
 * as it would have without us. */
static void
guard_chain (int sig, siginfo_t *info, void *ctx)
{
  if ((guard_previous.sa_flags & SA_SIGINFO) && guard_previous.sa_sigaction)
    guard_previous.sa_sigaction (sig, info, ctx);
  else if (guard_previous.sa_handler != SIG_DFL
           && guard_previous.sa_handler != SIG_IGN)
    guard_previous.sa_handler (sig);
  else
    signal (SIGBUS, SIG_DFL);
}

static void
guard_handler (int sig, siginfo_t *info, void *ctx)
{
  uintptr_t addr = (uintptr_t) info->si_addr;
  long page = guard_page;
  int saved_errno = errno;

  for (int i = 0; i < GUARD_SLOTS; i++)
    {
      uintptr_t start = atomic_load (&guard_slots[i].start);
      if (!start || addr < start || addr >= atomic_load (&guard_slots[i].end))
        continue;
      /* A page of zeros in place of the one the file lost: the load
       * completes, and the mark makes the job fail. */
      void *at = (void *) (addr & ~(uintptr_t) (page - 1));
      if (mmap (at, (size_t) page, PROT_READ,
                MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED, -1, 0) == MAP_FAILED)
        break;
      atomic_store (&guard_slots[i].hit, 1);
      errno = saved_errno;
      return;
    }
  errno = saved_errno;
  guard_chain (sig, info, ctx);
}

static void
guard_install (void)
{
  struct sigaction sa;

  guard_page = sysconf (_SC_PAGESIZE);
  memset (&sa, 0, sizeof sa);
  sa.sa_sigaction = guard_handler;
  sa.sa_flags = SA_SIGINFO | SA_RESTART | SA_ONSTACK;
  sigemptyset (&sa.sa_mask);
  guard_installed = !sigaction (SIGBUS, &sa, &guard_previous);
}

/* A slot covering [P, P + LEN), or NULL when all are taken. */
static guard_slot *
guard_add (const void *p, size_t len)
{
  pthread_once (&guard_once, guard_install);
  if (!guard_installed)
    return NULL;
  for (int i = 0; i < GUARD_SLOTS; i++)
    {
      guard_slot *s = &guard_slots[i];
      uintptr_t none = 0;
      /* Claim the slot with a start no mapping has (1), then fill it. */
      if (!atomic_compare_exchange_strong (&s->start, &none, 1))
        continue;
      atomic_store (&s->hit, 0);
      atomic_store (&s->end, (uintptr_t) p + len);
      atomic_store (&s->start, (uintptr_t) p);
      return s;
    }
  return NULL;
}

static void
guard_remove (guard_slot *s)
{
  atomic_store (&s->end, 0);
  atomic_store (&s->start, 0);
}

/* ---- The source ---------------------------------------------------- */

typedef struct
{
  pl_source base;
  int fd;
  int close_fd;
  off_t start;                  /* the file offset of octet 0 */
  uint64_t len;                 /* the octets there were to hand out */
  uint64_t pos;                 /* handed out so far */
  uint8_t *map;                 /* NULL when LEN is 0 */
  size_t map_len;
  size_t skip;                  /* START's distance past the page it is in */
  uint64_t dropped;             /* octets from 0 dropped from the mapping */
  uint64_t populated;           /* octets from 0 made present in bulk */
  guard_slot *guard;
  int failed;
} map_source;

/* Whether the file changed size since it was mapped: the guard covered
 * a fault on a page it lost, or its length is not what it was.  A file
 * that grew fails as well, as it does when read (encrypt.c): what was
 * lent is then not the whole file. */
static int
map_source_changed (map_source *m)
{
  struct stat st;

  if (m->failed || (m->guard && atomic_load (&m->guard->hit)))
    return 1;
  return fstat (m->fd, &st) || (uint64_t) st.st_size != m->start + m->len;
}

static gpg_error_t
map_source_fail (map_source *m)
{
  m->failed = 1;
  return gpg_error (GPG_ERR_EIO);
}

/* Drops what lies more than MAP_KEEP behind the position.  Each time
 * the MAP_SLACK before the last drop goes again: a consumer further
 * behind than MAP_KEEP (the AEAD stage's workers may hold up to 4
 * chunks of 4 MiB, aead-parallel.h) faults pages back in there, and
 * they would otherwise stay until the source is freed. */
static void
map_source_drop_behind (map_source *m)
{
  long page = sysconf (_SC_PAGESIZE);

  if (m->pos < m->dropped + MAP_KEEP + MAP_WINDOW)
    return;
  uint64_t to = (m->skip + m->pos - MAP_KEEP) & ~(uint64_t) (page - 1);
  uint64_t from = m->dropped > MAP_SLACK ? m->skip + m->dropped - MAP_SLACK
                                         : 0;
  from &= ~(uint64_t) (page - 1);
  if (to > from)
    madvise (m->map + from, (size_t) (to - from), MADV_DONTNEED);
  m->dropped = to - m->skip;
}

#ifndef MADV_POPULATE_READ
#define MADV_POPULATE_READ 22   /* Linux 5.14 */
#endif

/* Makes the pages up to END present, a MAP_WINDOW at a time, with one
 * madvise each instead of a fault every 16 pages (fault-around): on a
 * VM each fault is an exception the hypervisor sees, and issue 36
 * counted 9,000 of them for 512 MiB, a tenth of the samples.  The pages
 * are still counted as minor faults by getrusage (the kernel faults them
 * in for us), but no exception is taken: perf's page-faults event, which
 * counts those, goes from 8,200 to none for the mapping (bench/README.md).
 * Before Linux 5.14 (EINVAL) the loads fault the pages in as before. */
static void
map_source_populate (map_source *m, uint64_t end)
{
  long page = sysconf (_SC_PAGESIZE);

  while (m->populated < end && m->populated < m->len)
    {
      uint64_t from = (m->skip + m->populated) & ~(uint64_t) (page - 1);
      uint64_t to = m->populated + MAP_WINDOW;

      if (to > m->len)
        to = m->len;
      m->populated = to;
      if (madvise (m->map + from, (size_t) (m->skip + to - from),
                   MADV_POPULATE_READ))
        {
          /* EINVAL: not supported; EFAULT: the file shrank (the guard and
           * map_source_changed report that).  Either way, stop trying. */
          m->populated = m->len;
          break;
        }
    }
}

static gpg_error_t
map_source_borrow (pl_source *self, size_t len, const uint8_t **p, size_t *n)
{
  map_source *m = (map_source *) self;
  uint64_t left = m->len - m->pos;

  *n = 0;
  *p = NULL;
  /* One fstat a block: a file cut short is found before its lost pages
   * are lent, not only when a load faults on them. */
  if (map_source_changed (m))
    return map_source_fail (m);
  if (!left)
    return 0;
  if (len > left)
    len = (size_t) left;
  map_source_populate (m, m->pos + len);
  *p = m->map + m->skip + m->pos;
  *n = len;
  m->pos += len;
  map_source_drop_behind (m);
  return 0;
}

static gpg_error_t
map_source_read (pl_source *self, void *buf, size_t len, size_t *nread)
{
  map_source *m = (map_source *) self;
  uint64_t left = m->len - m->pos;
  ssize_t got;

  *nread = 0;
  if (m->failed)
    return gpg_error (GPG_ERR_EIO);
  if (len > left)
    len = (size_t) left;
  if (!len)
    return 0;
  do
    got = pread (m->fd, buf, len, (off_t) (m->start + m->pos));
  while (got < 0 && errno == EINTR);
  if (got < 0)
    return pl_error_from_errno (errno);
  /* Shorter than the length we mapped: the file shrank. */
  if (!got)
    return map_source_fail (m);
  m->pos += (uint64_t) got;
  *nread = (size_t) got;
  return 0;
}

static gpg_error_t
map_source_check (pl_source *self)
{
  map_source *m = (map_source *) self;
  return map_source_changed (m) ? map_source_fail (m) : 0;
}

static void
map_source_free (pl_source *self)
{
  map_source *m = (map_source *) self;

  if (m->guard)
    guard_remove (m->guard);
  if (m->map)
    munmap (m->map, m->map_len);
  if (m->close_fd)
    close (m->fd);
  else
    lseek (m->fd, m->start + (off_t) m->pos, SEEK_SET);
  free (m);
}

/* Maps [START, START + LEN) of M's file, and guards the mapping. */
static gpg_error_t
map_source_map (map_source *m)
{
  long page = sysconf (_SC_PAGESIZE);
  off_t map_from = m->start & ~(off_t) (page - 1);

  m->skip = (size_t) (m->start - map_from);
  if (!m->len)
    return 0;
  if (m->len > SIZE_MAX - m->skip)
    return gpg_error (GPG_ERR_NOT_SUPPORTED);
  m->map_len = m->skip + (size_t) m->len;
  m->map = mmap (NULL, m->map_len, PROT_READ, MAP_SHARED, m->fd, map_from);
  if (m->map == MAP_FAILED)
    {
      m->map = NULL;
      return gpg_error (GPG_ERR_NOT_SUPPORTED);
    }
  madvise (m->map, m->map_len, MADV_SEQUENTIAL);
  m->guard = guard_add (m->map, m->map_len);
  return m->guard ? 0 : gpg_error (GPG_ERR_NOT_SUPPORTED);
}

gpg_error_t
pl_source_new_mapped (int fd, int close_fd, pl_source **out)
{
  map_source *m;
  struct stat st;
  off_t pos;
  gpg_error_t err;

  *out = NULL;
  if (fstat (fd, &st) || !S_ISREG (st.st_mode)
      || (pos = lseek (fd, 0, SEEK_CUR)) < 0)
    return gpg_error (GPG_ERR_NOT_SUPPORTED);
  m = calloc (1, sizeof *m);
  if (!m)
    return gpg_error (GPG_ERR_ENOMEM);
  m->fd = fd;
  m->start = pos;
  m->len = st.st_size > pos ? (uint64_t) (st.st_size - pos) : 0;
  err = map_source_map (m);
  if (err)
    {
      map_source_free (&m->base);
      return err;
    }
  m->close_fd = close_fd;
  m->base.read = map_source_read;
  m->base.borrow = map_source_borrow;
  m->base.check = map_source_check;
  m->base.free = map_source_free;
  m->base.size = (int64_t) m->len;
  *out = &m->base;
  return 0;
}

int
pl_source_should_map (int fd)
{
  const char *env = getenv ("PADLOCK_MAP");
  struct stat st;
  struct statfs fs;
  off_t pos;

  if (fstat (fd, &st) || !S_ISREG (st.st_mode)
      || (pos = lseek (fd, 0, SEEK_CUR)) < 0)
    return 0;
  if (env && *env)
    return env[0] == '1';
  return st.st_size - pos >= PL_MAP_MIN && !fstatfs (fd, &fs)
         && fs.f_type == TMPFS_MAGIC;
}
