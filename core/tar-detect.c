/* tar-detect.c - telling a tar archive by its first header (see tar.h) */
#include "tar.h"

#include <stdlib.h>
#include <string.h>

#define TAR_BLOCK 512

int
pl_tar_header_is_valid (const void *block, size_t len)
{
  const unsigned char *h = block;
  unsigned long stored = 0, sum = 0;
  size_t i;

  if (len < TAR_BLOCK)
    return 0;
  /* POSIX "ustar\0" "00", or GNU "ustar " " \0". */
  if (memcmp (h + 257, "ustar\0" "00", 8) && memcmp (h + 257, "ustar  \0", 8))
    return 0;
  for (i = 148; i < 156 && h[i] == ' '; i++)
    ;
  if (i == 156 || h[i] < '0' || h[i] > '7')
    return 0;
  for (; i < 156 && h[i] >= '0' && h[i] <= '7'; i++)
    stored = stored * 8 + (unsigned long) (h[i] - '0');
  for (i = 0; i < TAR_BLOCK; i++)
    sum += (i >= 148 && i < 156) ? ' ' : h[i];
  return sum == stored;
}

typedef struct
{
  pl_sink base;
  pl_tar_choose_fn choose;
  void *user_data;
  pl_sink *chosen;
  unsigned char head[TAR_BLOCK];
  size_t head_len;
} detector;

static gpg_error_t
choose_now (detector *self)
{
  gpg_error_t err = 0;
  int is_tar = pl_tar_header_is_valid (self->head, self->head_len);

  self->chosen = self->choose (self->user_data, is_tar, &err);
  if (!self->chosen)
    return err ? err : gpg_error (GPG_ERR_GENERAL);
  return self->head_len
         ? self->chosen->write (self->chosen, self->head, self->head_len) : 0;
}

static gpg_error_t
detector_write (pl_sink *base, const void *buf, size_t len)
{
  detector *self = (detector *) base;
  gpg_error_t err;

  if (!self->chosen)
    {
      size_t n = TAR_BLOCK - self->head_len;

      if (n > len)
        n = len;
      memcpy (self->head + self->head_len, buf, n);
      self->head_len += n;
      buf = (const unsigned char *) buf + n;
      len -= n;
      if (self->head_len < TAR_BLOCK)
        return 0;
      if ((err = choose_now (self)))
        return err;
    }
  return len ? self->chosen->write (self->chosen, buf, len) : 0;
}

static gpg_error_t
detector_commit (pl_sink *base)
{
  detector *self = (detector *) base;
  gpg_error_t err;

  if (!self->chosen && (err = choose_now (self)))
    return err;
  return self->chosen->commit (self->chosen);
}

static void
detector_abort (pl_sink *base)
{
  detector *self = (detector *) base;

  if (self->chosen)
    self->chosen->abort (self->chosen);
}

static void
detector_free (pl_sink *base)
{
  detector *self = (detector *) base;

  pl_sink_free (self->chosen);
  free (self);
}

pl_sink *
pl_tar_detector_new (pl_tar_choose_fn choose, void *user_data)
{
  detector *self = calloc (1, sizeof *self);

  if (!self)
    return NULL;
  self->base.write = detector_write;
  self->base.commit = detector_commit;
  self->base.abort = detector_abort;
  self->base.free = detector_free;
  self->choose = choose;
  self->user_data = user_data;
  return &self->base;
}
