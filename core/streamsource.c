/* streamsource.c - sources for inputs that can be read only once (see
 * streamsource.h) */
#include "streamsource.h"

#include <errno.h>
#include <limits.h>
#include <poll.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

typedef struct
{
  pl_source base;
  pl_source *rest;
  size_t len, pos;
  uint8_t prefix[];             /* LEN octets */
} replay_source;

static gpg_error_t
replay_read (pl_source *self, void *buf, size_t len, size_t *nread)
{
  replay_source *s = (replay_source *) self;

  if (s->pos < s->len)
    {
      size_t n = s->len - s->pos < len ? s->len - s->pos : len;

      memcpy (buf, s->prefix + s->pos, n);
      s->pos += n;
      *nread = n;
      return 0;
    }
  return s->rest->read (s->rest, buf, len, nread);
}

static gpg_error_t
replay_borrow (pl_source *self, size_t len, const uint8_t **p, size_t *n)
{
  replay_source *s = (replay_source *) self;

  if (s->pos < s->len)
    {
      *n = s->len - s->pos < len ? s->len - s->pos : len;
      *p = s->prefix + s->pos;
      s->pos += *n;
      return 0;
    }
  return s->rest->borrow (s->rest, len, p, n);
}

static gpg_error_t
replay_check (pl_source *self)
{
  return pl_source_check (((replay_source *) self)->rest);
}

static void
replay_free (pl_source *self)
{
  replay_source *s = (replay_source *) self;

  pl_source_free (s->rest);
  free (s);
}

pl_source *
pl_source_new_replay (const void *prefix, size_t len, pl_source *rest)
{
  replay_source *s = malloc (sizeof *s + len);

  if (!s)
    {
      pl_source_free (rest);
      return NULL;
    }
  memset (s, 0, sizeof *s);
  s->base.read = replay_read;
  s->base.free = replay_free;
  s->base.size = rest->size;
  s->base.borrow = rest->borrow ? replay_borrow : NULL;
  s->base.check = rest->check ? replay_check : NULL;
  s->rest = rest;
  s->len = len;
  if (len)
    memcpy (s->prefix, prefix, len);
  return &s->base;
}

typedef struct
{
  pl_source base;
  int fd;
  int close_fd;
  const atomic_int *cancel;
} stream_source;

static int
cancelled (const stream_source *s)
{
  return s->cancel && atomic_load (s->cancel);
}

static gpg_error_t
stream_read (pl_source *self, void *buf, size_t len, size_t *nread)
{
  stream_source *s = (stream_source *) self;

  if (len > (size_t) SSIZE_MAX)
    len = SSIZE_MAX;
  for (;;)
    {
      struct pollfd p = { .fd = s->fd, .events = POLLIN };
      ssize_t n;
      int ready;

      if (cancelled (s))
        return gpg_error (GPG_ERR_CANCELED);
      ready = poll (&p, 1, PL_STREAM_CANCEL_MS);
      if (ready < 0 && errno != EINTR)
        return pl_error_from_errno (errno);
      if (ready <= 0)
        continue;
      /* Readable, ended, or failed: read says which. */
      n = read (s->fd, buf, len);
      if (n < 0 && (errno == EINTR || errno == EAGAIN
                    || errno == EWOULDBLOCK))
        continue;
      if (n < 0)
        return pl_error_from_errno (errno);
      *nread = (size_t) n;
      return 0;
    }
}

static void
stream_free (pl_source *self)
{
  stream_source *s = (stream_source *) self;

  if (s->close_fd)
    close (s->fd);
  free (s);
}

pl_source *
pl_source_new_stream (int fd, int close_fd, const atomic_int *cancel)
{
  stream_source *s = calloc (1, sizeof *s);

  if (!s)
    return NULL;
  s->base.read = stream_read;
  s->base.free = stream_free;
  s->base.size = -1;
  s->fd = fd;
  s->close_fd = close_fd;
  s->cancel = cancel;
  return &s->base;
}

gpg_error_t
pl_source_sniff (pl_source **src, pl_sniff_result *result)
{
  uint8_t head[PL_SNIFF_SIZE];
  size_t n = 0;
  int64_t size = (*src)->size;
  gpg_error_t err = pl_source_read_full (*src, head, sizeof head, &n);

  memset (result, 0, sizeof *result);
  if (err)
    return err;
  pl_sniff (head, n, n < sizeof head ? (int64_t) n : size, result);
  *src = pl_source_new_replay (head, n, *src);
  return *src ? 0 : gpg_error (GPG_ERR_ENOMEM);
}
