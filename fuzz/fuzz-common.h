/* fuzz-common.h - helpers shared by the fuzz targets
 *
 * A sink that keeps what it is given up to a cap and refuses more (a
 * decompression bomb ends there instead of in the RSS limit), and a
 * source that hands out at most N octets per read so that the engine's
 * block boundaries fall anywhere.
 */
#pragma once

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "io.h"

#define FUZZ_SINK_CAP (4u << 20)

typedef struct
{
  pl_sink base;
  uint8_t *data;
  size_t len, cap;
  int committed;
  int aborted;
} fuzz_sink;

static gpg_error_t
fuzz_sink_write (pl_sink *self, const void *buf, size_t len)
{
  fuzz_sink *s = (fuzz_sink *) self;

  if (s->committed || s->aborted)
    abort ();                   /* writing after the end is a bug */
  if (len > FUZZ_SINK_CAP - s->len)
    return gpg_error (GPG_ERR_TOO_LARGE);
  if (s->len + len > s->cap)
    {
      size_t cap = s->cap ? s->cap : 4096;
      while (cap < s->len + len)
        cap *= 2;
      s->data = realloc (s->data, cap);
      if (!s->data)
        abort ();
      s->cap = cap;
    }
  if (len)
    memcpy (s->data + s->len, buf, len);
  s->len += len;
  return 0;
}

static gpg_error_t
fuzz_sink_commit (pl_sink *self)
{
  fuzz_sink *s = (fuzz_sink *) self;

  if (s->committed || s->aborted)
    abort ();
  s->committed = 1;
  return 0;
}

static void
fuzz_sink_abort (pl_sink *self)
{
  fuzz_sink *s = (fuzz_sink *) self;

  if (s->committed)
    abort ();                   /* a committed sink is never aborted */
  s->aborted = 1;
  s->len = 0;
}

static void
fuzz_sink_free (pl_sink *self)
{
  fuzz_sink *s = (fuzz_sink *) self;
  free (s->data);
  free (s);
}

static fuzz_sink *
fuzz_sink_new (void)
{
  fuzz_sink *s = calloc (1, sizeof *s);

  if (!s)
    abort ();
  s->base.write = fuzz_sink_write;
  s->base.commit = fuzz_sink_commit;
  s->base.abort = fuzz_sink_abort;
  s->base.free = fuzz_sink_free;
  return s;
}

typedef struct
{
  pl_source base;
  const uint8_t *data;
  size_t len, pos;
  size_t max_read;              /* 0: as much as asked for */
  unsigned int reads;
} fuzz_source;

static gpg_error_t
fuzz_source_read (pl_source *self, void *buf, size_t len, size_t *nread)
{
  fuzz_source *s = (fuzz_source *) self;
  size_t n = s->len - s->pos;

  if (n > len)
    n = len;
  if (s->max_read && n > s->max_read)
    n = s->max_read;
  /* Copied so that ASan sees a read past what we handed out. */
  memcpy (buf, s->data + s->pos, n);
  s->pos += n;
  s->reads++;
  *nread = n;
  return 0;
}

static void
fuzz_source_free (pl_source *self)
{
  free (self);
}

static fuzz_source *
fuzz_source_new (const uint8_t *data, size_t len, size_t max_read)
{
  fuzz_source *s = calloc (1, sizeof *s);

  if (!s)
    abort ();
  s->base.read = fuzz_source_read;
  s->base.free = fuzz_source_free;
  s->base.size = (int64_t) len;
  s->data = data;
  s->len = len;
  s->max_read = max_read;
  return s;
}

/* A small deterministic generator for split points, seeded from the
 * input so that a crash reproduces. */
static inline uint32_t
fuzz_rand (uint32_t *state)
{
  uint32_t x = *state ? *state : 0x9E3779B9u;
  x ^= x << 13;
  x ^= x >> 17;
  x ^= x << 5;
  *state = x;
  return x;
}
