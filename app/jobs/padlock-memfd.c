/* padlock-memfd.c - plaintext held in memory only, for Open Without Saving */
#include "padlock-memfd.h"

#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>
#include <glib/gi18n.h>

#include "padlock-error.h"

/* Room is reserved (and locked) in steps of at least this much. */
#define MEMFD_STEP (1024 * 1024)

struct _PadlockMemfd
{
  gint ref_count;
  int fd;
  guint8 *map;                  /* our writable mapping: MAP_SHARED */
  gsize cap;                    /* mapped (and the file's size until commit) */
  gsize size;                   /* written */
  guint64 limit;
  gboolean locked;              /* every mapped page is mlocked */
  gboolean sealed;
  char *name;
};

typedef struct
{
  pl_sink base;
  PadlockMemfd *memfd;
  gboolean committed;
} MemfdSink;

guint64
padlock_memfd_available (void)
{
  g_autofree char *text = NULL;
  const char *line;
  guint64 kib;

  if (!g_file_get_contents ("/proc/meminfo", &text, NULL, NULL))
    return 0;
  line = strstr (text, "MemAvailable:");
  if (!line || sscanf (line, "MemAvailable: %" G_GUINT64_FORMAT " kB", &kib) != 1)
    return 0;
  return kib * 1024;
}

guint64
padlock_memfd_limit (guint64 setting,
                     guint64 available)
{
  if (available && setting > available / 2)
    return available / 2;
  return setting;
}

char *
padlock_memfd_too_large (const char *name,
                         guint64     limit)
{
  g_autofree char *size = g_format_size (limit);

  return g_strdup_printf (_("%s is too large to open without saving "
                            "(limit %s): save it instead"), name, size);
}

static void
memfd_wipe (PadlockMemfd *self)
{
  if (self->map && self->size)
    explicit_bzero (self->map, self->size);
}

static gsize
round_to_page (guint64 n)
{
  guint64 page = (guint64) sysconf (_SC_PAGESIZE);

  return (gsize) ((n + page - 1) / page * page);
}

/* Room for NEED octets: the file grown, the mapping grown and locked. */
static gpg_error_t
memfd_reserve (PadlockMemfd *self,
               guint64       need)
{
  gsize cap;
  void *map;

  if (need <= self->cap)
    return 0;
  if (need > self->limit)
    return gpg_error (GPG_ERR_EFBIG);
  cap = round_to_page (MIN (MAX (MAX (need, (guint64) self->cap * 2),
                                 MEMFD_STEP),
                            self->limit));
  if (ftruncate (self->fd, (off_t) cap) != 0)
    return pl_error_from_errno (errno);
  map = self->map ? mremap (self->map, self->cap, cap, MREMAP_MAYMOVE)
                  : mmap (NULL, cap, PROT_READ | PROT_WRITE, MAP_SHARED,
                          self->fd, 0);
  /* A locked mapping grows locked, and fails past RLIMIT_MEMLOCK: from
   * there on it is unlocked. */
  if (map == MAP_FAILED && errno == EAGAIN && self->locked)
    {
      munlock (self->map, self->cap);
      self->locked = FALSE;
      map = mremap (self->map, self->cap, cap, MREMAP_MAYMOVE);
    }
  if (map == MAP_FAILED)
    return pl_error_from_errno (errno);
  /* A locked mapping stays locked as it moves; only the new pages are
   * locked here.  Past RLIMIT_MEMLOCK they are not, and say so. */
  if (self->locked
      && mlock ((guint8 *) map + self->cap, cap - self->cap) != 0)
    self->locked = FALSE;
  self->map = map;
  self->cap = cap;
  return 0;
}

static gpg_error_t
memfd_sink_write (pl_sink    *sink,
                  const void *buf,
                  size_t      len)
{
  MemfdSink *s = (MemfdSink *) sink;
  PadlockMemfd *m = s->memfd;
  gpg_error_t err = memfd_reserve (m, (guint64) m->size + len);

  if (err)
    return err;
  if (len)
    memcpy (m->map + m->size, buf, len);
  m->size += len;
  return 0;
}

/* The file cut to what was written, then sealed: nobody else may write,
 * grow or shrink it, nor change the seals. */
static gpg_error_t
memfd_sink_commit (pl_sink *sink)
{
  MemfdSink *s = (MemfdSink *) sink;
  PadlockMemfd *m = s->memfd;
  gsize cap = round_to_page (m->size);

  if (m->map && cap < m->cap)
    {
      if (cap == 0)
        {
          munmap (m->map, m->cap);
          m->map = NULL;
        }
      else if (mremap (m->map, m->cap, cap, 0) == MAP_FAILED)
        return pl_error_from_errno (errno);
      m->cap = cap;
    }
  if (ftruncate (m->fd, (off_t) m->size) != 0
      || fcntl (m->fd, F_ADD_SEALS, F_SEAL_FUTURE_WRITE | F_SEAL_GROW
                                    | F_SEAL_SHRINK | F_SEAL_SEAL) != 0)
    return pl_error_from_errno (errno);
  m->sealed = TRUE;
  s->committed = TRUE;
  return 0;
}

static void
memfd_sink_abort (pl_sink *sink)
{
  MemfdSink *s = (MemfdSink *) sink;

  s->committed = FALSE;
  memfd_wipe (s->memfd);
  s->memfd->size = 0;
}

static void
memfd_sink_free (pl_sink *sink)
{
  MemfdSink *s = (MemfdSink *) sink;

  if (!s->committed)
    memfd_wipe (s->memfd);
  padlock_memfd_unref (s->memfd);
  g_free (s);
}

gpg_error_t
padlock_memfd_sink_new (const char  *name,
                        guint64      limit,
                        pl_sink    **out)
{
  MemfdSink *s;
  int fd;

  *out = NULL;
  fd = memfd_create (name && *name ? name : "padlock",
                     MFD_CLOEXEC | MFD_ALLOW_SEALING);
  if (fd < 0)
    return pl_error_from_errno (errno);
  s = g_new0 (MemfdSink, 1);
  s->base.write = memfd_sink_write;
  s->base.commit = memfd_sink_commit;
  s->base.abort = memfd_sink_abort;
  s->base.free = memfd_sink_free;
  s->memfd = g_new0 (PadlockMemfd, 1);
  s->memfd->ref_count = 1;
  s->memfd->fd = fd;
  s->memfd->limit = limit;
  s->memfd->locked = TRUE;
  *out = &s->base;
  return 0;
}

PadlockMemfd *
padlock_memfd_sink_take (pl_sink *sink)
{
  MemfdSink *s = (MemfdSink *) sink;

  g_return_val_if_fail (sink && sink->write == memfd_sink_write, NULL);
  return s->committed ? padlock_memfd_ref (s->memfd) : NULL;
}

PadlockMemfd *
padlock_memfd_ref (PadlockMemfd *self)
{
  g_return_val_if_fail (self != NULL, NULL);
  g_atomic_int_inc (&self->ref_count);
  return self;
}

void
padlock_memfd_unref (PadlockMemfd *self)
{
  if (!self || !g_atomic_int_dec_and_test (&self->ref_count))
    return;
  memfd_wipe (self);
  if (self->map)
    {
      munlock (self->map, self->cap);
      munmap (self->map, self->cap);
    }
  close (self->fd);
  g_free (self->name);
  g_free (self);
}

int
padlock_memfd_get_fd (PadlockMemfd *self)
{
  return self->fd;
}

const guint8 *
padlock_memfd_get_data (PadlockMemfd *self,
                        gsize        *size)
{
  *size = self->size;
  return self->map ? self->map : (const guint8 *) "";
}

gboolean
padlock_memfd_get_locked (PadlockMemfd *self)
{
  return self->locked;
}

const char *
padlock_memfd_get_name (PadlockMemfd *self)
{
  return self->name;
}

void
padlock_memfd_set_name (PadlockMemfd *self,
                        const char   *name)
{
  g_free (self->name);
  self->name = g_strdup (name);
}

gboolean
padlock_memfd_save (PadlockMemfd *self,
                    const char   *path,
                    GError      **error)
{
  pl_sink *sink = NULL;
  gpg_error_t err = pl_sink_new_file (path, &sink);

  if (!err)
    err = sink->write (sink, self->map ? self->map : (const guint8 *) "",
                       self->size);
  if (!err)
    err = sink->commit (sink);
  if (err && sink)
    sink->abort (sink);
  pl_sink_free (sink);
  if (err)
    g_propagate_error (error, padlock_error_from_gpg (err));
  return !err;
}
