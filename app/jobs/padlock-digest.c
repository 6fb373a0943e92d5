/* padlock-digest.c - a source and a sink that count and hash what passes */
#include "padlock-digest.h"

#include <string.h>

void
padlock_digest_init (PadlockDigest *digest)
{
  digest->checksum = g_checksum_new (G_CHECKSUM_SHA256);
  digest->length = 0;
}

void
padlock_digest_clear (PadlockDigest *digest)
{
  g_clear_pointer (&digest->checksum, g_checksum_free);
}

gboolean
padlock_digest_equal (const PadlockDigest *a,
                      const PadlockDigest *b)
{
  return a->length == b->length
         && !g_strcmp0 (g_checksum_get_string (a->checksum),
                        g_checksum_get_string (b->checksum));
}

static void
digest_update (PadlockDigest *digest,
               const void    *buf,
               size_t         len)
{
  const guint8 *p = buf;

  /* g_checksum_update takes a gssize. */
  while (len)
    {
      size_t n = MIN (len, (size_t) G_MAXSSIZE);
      g_checksum_update (digest->checksum, p, (gssize) n);
      p += n;
      len -= n;
    }
}

typedef struct
{
  pl_source base;
  pl_source *inner;
  PadlockDigest *digest;
} DigestSource;

static gpg_error_t
digest_source_read (pl_source *self,
                    void      *buf,
                    size_t     len,
                    size_t    *nread)
{
  DigestSource *s = (DigestSource *) self;
  gpg_error_t err = s->inner->read (s->inner, buf, len, nread);

  if (!err && *nread)
    {
      g_checksum_update (s->digest->checksum, buf, (gssize) *nread);
      s->digest->length += *nread;
    }
  return err;
}

static void
digest_source_free (pl_source *self)
{
  DigestSource *s = (DigestSource *) self;

  pl_source_free (s->inner);
  g_free (s);
}

pl_source *
padlock_digest_source_new (pl_source     *inner,
                           PadlockDigest *digest)
{
  DigestSource *s = g_new0 (DigestSource, 1);

  s->base.read = digest_source_read;
  s->base.free = digest_source_free;
  s->base.size = inner->size;
  s->inner = inner;
  s->digest = digest;
  return &s->base;
}

typedef struct
{
  pl_sink base;
  PadlockDigest *digest;
} DigestSink;

static gpg_error_t
digest_sink_write (pl_sink    *self,
                   const void *buf,
                   size_t      len)
{
  DigestSink *s = (DigestSink *) self;

  digest_update (s->digest, buf, len);
  s->digest->length += len;
  return 0;
}

static gpg_error_t
digest_sink_commit (pl_sink *self)
{
  return 0;
}

static void
digest_sink_abort (pl_sink *self)
{
}

static void
digest_sink_free (pl_sink *self)
{
  g_free (self);
}

pl_sink *
padlock_digest_sink_new (PadlockDigest *digest)
{
  DigestSink *s = g_new0 (DigestSink, 1);

  s->base.write = digest_sink_write;
  s->base.commit = digest_sink_commit;
  s->base.abort = digest_sink_abort;
  s->base.free = digest_sink_free;
  s->digest = digest;
  return &s->base;
}
