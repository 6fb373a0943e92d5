/* packet.c - OpenPGP packet framing */
#include "packet.h"

#include <stddef.h>
#include <string.h>

void
pl_cursor_init (pl_cursor *c, pl_reader *reader)
{
  memset (c, 0, sizeof *c);
  c->reader = reader;
}

static gpg_error_t
fill (pl_cursor *c)
{
  gpg_error_t err;

  while (!c->n && !c->eof)
    {
      err = c->reader->next (c->reader, &c->p, &c->n);
      if (err)
        return err;
      if (!c->n)
        c->eof = 1;
    }
  return 0;
}

gpg_error_t
pl_cursor_read (pl_cursor *c, uint8_t *dst, size_t n)
{
  size_t got = 0;
  gpg_error_t err;

  while (got < n)
    {
      size_t k;
      err = fill (c);
      if (err)
        return err;
      if (c->eof)
        return gpg_error (got ? GPG_ERR_TRUNCATED : GPG_ERR_EOF);
      k = c->n < n - got ? c->n : n - got;
      memcpy (dst + got, c->p, k);
      c->p += k;
      c->n -= k;
      got += k;
    }
  return 0;
}

gpg_error_t
pl_cursor_take (pl_cursor *c, size_t max, uint8_t **p, size_t *n)
{
  gpg_error_t err = fill (c);
  size_t k;

  if (err)
    return err;
  k = c->n < max ? c->n : max;
  *p = c->p;
  *n = k;
  c->p += k;
  c->n -= k;
  return 0;
}

gpg_error_t
pl_cursor_peek (pl_cursor *c, uint8_t **p, size_t *n)
{
  gpg_error_t err = fill (c);
  if (err)
    return err;
  *p = c->p;
  *n = c->n;
  return 0;
}

/* Reads a new-format length.  Sets *PARTIAL for a partial length. */
static gpg_error_t
read_new_length (pl_cursor *in, uint64_t *len, int *partial, int first)
{
  uint8_t b[4];
  gpg_error_t err;

  err = pl_cursor_read (in, b, 1);
  if (err)
    return gpg_err_code (err) == GPG_ERR_EOF ? gpg_error (GPG_ERR_TRUNCATED)
                                             : err;
  *partial = 0;
  if (b[0] < 192)
    *len = b[0];
  else if (b[0] < 224)
    {
      uint8_t c;
      err = pl_cursor_read (in, &c, 1);
      if (err)
        return pl_cursor_truncated (err);
      *len = ((uint64_t) (b[0] - 192) << 8) + c + 192;
    }
  else if (b[0] == 255)
    {
      err = pl_cursor_read (in, b, 4);
      if (err)
        return pl_cursor_truncated (err);
      *len = ((uint64_t) b[0] << 24) | ((uint64_t) b[1] << 16)
             | ((uint64_t) b[2] << 8) | b[3];
    }
  else
    {
      *len = (uint64_t) 1 << (b[0] & 0x1f);
      *partial = 1;
      /* RFC 9580 §4.2.1.4: the first partial length is at least 512. */
      if (first && *len < 512)
        return gpg_error (GPG_ERR_INV_PACKET);
    }
  return 0;
}

/* Copies short partial chunks together into B->coalesced, up to its size
 * or the end of the body. */
static gpg_error_t
body_coalesce (pl_packet_body *b, uint8_t **data, size_t *len)
{
  size_t got = 0;
  gpg_error_t err;

  while (got < sizeof b->coalesced)
    {
      pl_cursor *c = b->in;
      uint8_t *p;
      size_t n, want;

      /* The hot case, without calls: a short partial length octet and
       * its chunk, both in the current block. */
      while (!b->remaining && b->partial && c->n >= 2 && c->p[0] >= 224
             && c->p[0] < 255 && (1u << (c->p[0] & 0x1f)) < c->n
             && got + (1u << (c->p[0] & 0x1f)) <= sizeof b->coalesced)
        {
          size_t k = (size_t) 1 << (c->p[0] & 0x1f);
          memcpy (b->coalesced + got, c->p + 1, k);
          got += k;
          c->p += 1 + k;
          c->n -= 1 + k;
        }
      if (got == sizeof b->coalesced)
        break;
      while (!b->remaining && b->partial)
        {
          err = read_new_length (b->in, &b->remaining, &b->partial, 0);
          if (err)
            return err;
        }
      if (!b->remaining)
        break;
      want = sizeof b->coalesced - got;
      if (b->remaining < want)
        want = (size_t) b->remaining;
      err = pl_cursor_take (b->in, want, &p, &n);
      if (err)
        return err;
      if (!n)
        return gpg_error (GPG_ERR_TRUNCATED);
      memcpy (b->coalesced + got, p, n);
      got += n;
      b->remaining -= n;
    }
  b->total += got;
  *data = b->coalesced;
  *len = got;
  return 0;
}

static gpg_error_t
body_next (pl_reader *self, uint8_t **data, size_t *len)
{
  pl_packet_body *b = (pl_packet_body *) self;
  gpg_error_t err;
  size_t n;

  *len = 0;
  if (b->until_eof)
    {
      err = pl_cursor_take (b->in, SIZE_MAX, data, &n);
      if (err)
        return err;
      b->total += n;
      *len = n;
      return 0;
    }
  while (!b->remaining && b->partial)
    {
      err = read_new_length (b->in, &b->remaining, &b->partial, 0);
      if (err)
        return err;
    }
  if (!b->remaining)
    return 0;
  if (b->partial && b->remaining < PL_PACKET_COALESCE / 4)
    return body_coalesce (b, data, len);
  err = pl_cursor_take (b->in, b->remaining > SIZE_MAX ? SIZE_MAX
                                                       : (size_t) b->remaining,
                        data, &n);
  if (err)
    return err;
  if (!n)
    return gpg_error (GPG_ERR_TRUNCATED);
  b->remaining -= n;
  b->total += n;
  *len = n;
  return 0;
}

gpg_error_t
pl_packet_begin (pl_cursor *in, pl_packet_body *body)
{
  uint8_t ctb;
  gpg_error_t err;

  memset (body, 0, offsetof (pl_packet_body, coalesced));
  body->base.next = body_next;
  body->in = in;
  err = pl_cursor_read (in, &ctb, 1);
  if (err)
    return err;
  if (!(ctb & 0x80))
    return gpg_error (GPG_ERR_INV_PACKET);
  if (ctb & 0x40)
    {
      body->tag = ctb & 0x3f;
      err = read_new_length (in, &body->remaining, &body->partial, 1);
      if (err)
        return err;
    }
  else
    {
      uint8_t b[4];
      int type = ctb & 3;
      size_t n = type == 0 ? 1 : type == 1 ? 2 : type == 2 ? 4 : 0;

      body->tag = (ctb >> 2) & 0xf;
      if (n)
        {
          err = pl_cursor_read (in, b, n);
          if (err)
            return pl_cursor_truncated (err);
          for (size_t i = 0; i < n; i++)
            body->remaining = (body->remaining << 8) | b[i];
        }
      else
        body->until_eof = 1;
    }
  if (!body->tag)
    return gpg_error (GPG_ERR_INV_PACKET);
  return 0;
}

gpg_error_t
pl_packet_read_all (pl_packet_body *body, uint8_t *buf, size_t max,
                    size_t *len)
{
  size_t got = 0;
  gpg_error_t err;

  for (;;)
    {
      uint8_t *p;
      size_t n;

      /* A definite length says up front whether it fits. */
      if (body->partial || body->until_eof || got + body->remaining > max)
        return gpg_error (GPG_ERR_BAD_DATA);
      err = body->base.next (&body->base, &p, &n);
      if (err)
        return err;
      if (!n)
        break;
      if (n > max - got)
        return gpg_error (GPG_ERR_BAD_DATA);
      memcpy (buf + got, p, n);
      got += n;
    }
  *len = got;
  return 0;
}

gpg_error_t
pl_packet_skip (pl_packet_body *body)
{
  for (;;)
    {
      uint8_t *p;
      size_t n;
      gpg_error_t err = body->base.next (&body->base, &p, &n);
      if (err)
        return err;
      if (!n)
        return 0;
    }
}

size_t
pl_packet_write_length (uint8_t *out, uint64_t len)
{
  if (len < 192)
    {
      out[0] = (uint8_t) len;
      return 1;
    }
  if (len < 8384)
    {
      len -= 192;
      out[0] = (uint8_t) ((len >> 8) + 192);
      out[1] = (uint8_t) len;
      return 2;
    }
  out[0] = 255;
  out[1] = (uint8_t) (len >> 24);
  out[2] = (uint8_t) (len >> 16);
  out[3] = (uint8_t) (len >> 8);
  out[4] = (uint8_t) len;
  return 5;
}

size_t
pl_packet_write_header (uint8_t *out, int tag, uint64_t len)
{
  out[0] = (uint8_t) (0xC0 | tag);
  return 1 + pl_packet_write_length (out + 1, len);
}

size_t
pl_packet_write_partial_header (uint8_t *out, int tag, int exp)
{
  out[0] = (uint8_t) (0xC0 | tag);
  out[1] = pl_packet_partial_octet (exp);
  return 2;
}

static gpg_error_t
mem_next (pl_reader *self, uint8_t **data, size_t *len)
{
  pl_mem_reader *m = (pl_mem_reader *) self;

  /* The end is an empty block at the end, never NULL: the cursor adds
   * to the pointer. */
  *data = m->done ? m->p + m->n : m->p;
  *len = m->done ? 0 : m->n;
  m->done = 1;
  return 0;
}

void
pl_mem_reader_init (pl_mem_reader *m, uint8_t *p, size_t n)
{
  m->base.next = mem_next;
  m->p = p;
  m->n = n;
  m->done = 0;
}
