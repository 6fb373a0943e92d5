/* encrypt.c - the encrypt job
 *
 *   source ─► literal framing ─► [deflate ─► compressed framing]
 *          ─► SEIPD v1 (CFB + MDC) │ SEIPD v2 │ tag 20 ─► packet framing
 *          ─► [armor] ─► sink
 *
 * The stages are a short chain of writers, local to this file, around
 * the push stages of seipd.c, aead.c, compress.c and armor.c.  When the
 * input's size is known and nothing is compressed, every length is
 * definite and the data goes from the source buffer through the cipher
 * into the output buffer with no other copy.  From a pipe, packets get
 * partial body lengths, as GnuPG writes them.
 */
#include "job.h"
#include "algo.h"
#include "armor.h"
#include "aead.h"
#include "compress.h"
#include "packet.h"
#include "seipd.h"
#include "keys.h"
#include "skesk.h"
#include "worker.h"

#include <stdlib.h>
#include <string.h>
#include <gcrypt.h>

/* Partial body chunks of 2^20 octets: large, and a power of two. */
#define PARTIAL_EXP 20
#define PARTIAL_LEN (1u << PARTIAL_EXP)
/* A 5-octet length counts to 2^32 - 1; larger bodies go partial. */
#define DEFINITE_MAX 0xFFFFFFFFull

/* A writer: the glue between push stages. */
typedef struct writer writer;
struct writer
{
  gpg_error_t (*write) (writer *self, const uint8_t *p, size_t n);
  gpg_error_t (*finish) (writer *self);
  writer *next;
};

/* The end of the chain: armor (or not) and the sink.  Large writes go
 * to a thread of their own, so that the sink's copy into the page cache
 * overlaps the cipher.  Every stage that hands a buffer here calls
 * out_guard before it writes into that buffer again. */
typedef struct
{
  writer base;
  pl_sink *sink;
  int armor;
  int async;                    /* thread budget allows the writer */
  pl_armor_encoder enc;
  char *abuf;                   /* armored text */
  pl_worker worker;
} out_writer;

#define ASYNC_MIN (64 * 1024)

/* Armors (when asked) and writes: the whole of the output's work, so
 * that it can run on the writer thread.  Only one thread at a time runs
 * it: the writer, or the caller after waiting for the writer. */
static gpg_error_t
emit_now (out_writer *w, const uint8_t *p, size_t n)
{
  if (!w->armor)
    return w->sink->write (w->sink, p, n);
  while (n)
    {
      size_t k = n < PL_BLOCK_SIZE ? n : PL_BLOCK_SIZE;
      size_t len = pl_armor_encoder_push (&w->enc, p, k, w->abuf);
      gpg_error_t err = w->sink->write (w->sink, w->abuf, len);
      if (err)
        return err;
      p += k;
      n -= k;
    }
  return 0;
}

static gpg_error_t
emit_task (void *arg, const uint8_t *p, size_t n)
{
  return emit_now (arg, p, n);
}

static void
out_guard (out_writer *w, const void *buf, size_t len)
{
  pl_worker_wait_range (&w->worker, buf, len);
}

static gpg_error_t
out_write (writer *self, const uint8_t *p, size_t n)
{
  out_writer *w = (out_writer *) self;
  gpg_error_t err;

  /* Large blocks go to the writer thread; their owners guard them.
   * Small ones (headers, the MDC, often on the stack) are written here,
   * after the writer is done, so that the order holds. */
  if (w->async && n >= ASYNC_MIN)
    {
      if (pl_worker_running (&w->worker)
          || !pl_worker_start (&w->worker, emit_task, w))
        return pl_worker_submit (&w->worker, p, n);
      w->async = 0;
    }
  err = pl_worker_wait (&w->worker);
  return err ? err : emit_now (w, p, n);
}

static gpg_error_t
out_finish (writer *self)
{
  out_writer *w = (out_writer *) self;
  gpg_error_t err = pl_worker_wait (&w->worker);

  if (!err && w->armor)
    err = w->sink->write (w->sink, w->abuf,
                          pl_armor_encoder_finish (&w->enc, w->abuf));
  return err;
}

/* Reading ahead: the next block while this one is encrypted. */
typedef struct
{
  pl_source *src;
  pl_worker worker;
  size_t got;
} read_ahead;

static gpg_error_t
read_task (void *arg, const uint8_t *p, size_t n)
{
  read_ahead *r = arg;
  /* The worker's block is ours to fill: it is the one not in use. */
  return pl_source_read_full (r->src, (uint8_t *) p, n, &r->got);
}

/* Packet framing: a definite length up front, or partial chunks. */
typedef struct
{
  writer base;
  out_writer *out;
  int tag;
  int partial;
  int started;
  uint8_t *buf;                 /* partial: PARTIAL_LEN */
  size_t len;
} frame_writer;

static gpg_error_t
frame_write (writer *self, const uint8_t *p, size_t n)
{
  frame_writer *w = (frame_writer *) self;
  gpg_error_t err;

  if (!w->partial)
    return w->base.next->write (w->base.next, p, n);
  while (n)
    {
      size_t k;

      /* A chunk goes out only once a later octet proves it is not the
       * last, which must carry a definite length. */
      if (w->len == PARTIAL_LEN)
        {
          uint8_t hdr[2];
          size_t hl;
          if (!w->started)
            hl = pl_packet_write_partial_header (hdr, w->tag, PARTIAL_EXP);
          else
            {
              hdr[0] = pl_packet_partial_octet (PARTIAL_EXP);
              hl = 1;
            }
          w->started = 1;
          err = w->base.next->write (w->base.next, hdr, hl);
          if (!err)
            err = w->base.next->write (w->base.next, w->buf, w->len);
          if (err)
            return err;
          w->len = 0;
        }
      k = PARTIAL_LEN - w->len < n ? PARTIAL_LEN - w->len : n;
      if (!w->len)
        out_guard (w->out, w->buf, PARTIAL_LEN);
      memcpy (w->buf + w->len, p, k);
      w->len += k;
      p += k;
      n -= k;
    }
  return 0;
}

static gpg_error_t
frame_finish (writer *self)
{
  frame_writer *w = (frame_writer *) self;
  uint8_t hdr[6];
  size_t hl;
  gpg_error_t err;

  if (w->partial)
    {
      if (!w->started)
        hl = pl_packet_write_header (hdr, w->tag, w->len);
      else
        hl = pl_packet_write_length (hdr, w->len);
      err = w->base.next->write (w->base.next, hdr, hl);
      if (!err)
        err = w->base.next->write (w->base.next, w->buf, w->len);
      if (err)
        return err;
    }
  return w->base.next->finish (w->base.next);
}

/* Starts a packet: with a known body length, writes the header now. */
static gpg_error_t
frame_start (frame_writer *w, writer *next, out_writer *out, int tag,
             int64_t body_len)
{
  memset (w, 0, sizeof *w);
  w->out = out;
  w->base.write = frame_write;
  w->base.finish = frame_finish;
  w->base.next = next;
  w->tag = tag;
  if (body_len >= 0 && (uint64_t) body_len <= DEFINITE_MAX)
    {
      uint8_t hdr[6];
      size_t hl = pl_packet_write_header (hdr, tag, (uint64_t) body_len);
      return next->write (next, hdr, hl);
    }
  w->partial = 1;
  w->buf = malloc (PARTIAL_LEN);
  return w->buf ? 0 : gpg_error (GPG_ERR_ENOMEM);
}

/* SEIPD v1: MDC hash and CFB, into two buffers used in turn. */
typedef struct
{
  writer base;
  out_writer *out;
  pl_seipd1 st;
  uint8_t *buf[2];
  int turn;
} seipd1_writer;

static gpg_error_t
seipd1_write (writer *self, const uint8_t *p, size_t n)
{
  seipd1_writer *w = (seipd1_writer *) self;

  while (n)
    {
      size_t k = n < PL_BLOCK_SIZE ? n : PL_BLOCK_SIZE;
      uint8_t *b = w->buf[w->turn];
      gpg_error_t err;

      out_guard (w->out, b, PL_BLOCK_SIZE);
      err = pl_seipd1_encrypt_push (&w->st, p, b, k);
      if (!err)
        err = w->base.next->write (w->base.next, b, k);
      if (err)
        return err;
      w->turn ^= 1;
      p += k;
      n -= k;
    }
  return 0;
}

static gpg_error_t
seipd1_finish (writer *self)
{
  seipd1_writer *w = (seipd1_writer *) self;
  uint8_t mdc[PL_MDC_PACKET_LEN];
  gpg_error_t err = pl_seipd1_encrypt_finish (&w->st, mdc);

  if (!err)
    err = w->base.next->write (w->base.next, mdc, sizeof mdc);
  if (!err)
    err = w->base.next->finish (w->base.next);
  return err;
}

/* AEAD chunks. */
typedef struct
{
  writer base;
  out_writer *out;
  pl_aead_stream *s;
  size_t chunk_len;             /* chunk + tag */
  const uint8_t *handed[2];     /* the last two chunks handed out */
} aead_writer;

static gpg_error_t
aead_write (writer *self, const uint8_t *p, size_t n)
{
  aead_writer *w = (aead_writer *) self;

  while (n)
    {
      const uint8_t *out;
      size_t used = 0, outlen = 0;
      gpg_error_t err;

      /* The stage alternates two buffers: the chunk before last must be
       * out before its buffer is sealed into again. */
      if (w->handed[1])
        out_guard (w->out, w->handed[1], w->chunk_len);
      err = pl_aead_stream_push (w->s, p, n, &used, &out, &outlen);
      if (!err && outlen)
        {
          w->handed[1] = w->handed[0];
          w->handed[0] = out;
        }
      if (!err && outlen)
        err = w->base.next->write (w->base.next, out, outlen);
      if (err)
        return err;
      p += used;
      n -= used;
    }
  return 0;
}

static gpg_error_t
aead_finish (writer *self)
{
  aead_writer *w = (aead_writer *) self;
  const uint8_t *out;
  size_t outlen = 0;
  gpg_error_t err;

  if (w->handed[1])
    out_guard (w->out, w->handed[1], w->chunk_len);
  err = pl_aead_stream_finish (w->s, &out, &outlen);

  if (!err && outlen)
    err = w->base.next->write (w->base.next, out, outlen);
  if (!err)
    err = w->base.next->finish (w->base.next);
  return err;
}

/* Deflate. */
typedef struct
{
  writer base;
  pl_deflate z;
  uint8_t *buf;
} deflate_writer;

static gpg_error_t
deflate_write (writer *self, const uint8_t *p, size_t n)
{
  deflate_writer *w = (deflate_writer *) self;

  while (n)
    {
      size_t used = 0, produced = 0;
      gpg_error_t err = pl_deflate_push (&w->z, p, n, &used, w->buf,
                                         PL_BLOCK_SIZE, &produced);
      if (!err && produced)
        err = w->base.next->write (w->base.next, w->buf, produced);
      if (err)
        return err;
      p += used;
      n -= used;
    }
  return 0;
}

static gpg_error_t
deflate_finish (writer *self)
{
  deflate_writer *w = (deflate_writer *) self;
  int done = 0;

  while (!done)
    {
      size_t produced = 0;
      gpg_error_t err = pl_deflate_finish (&w->z, w->buf, PL_BLOCK_SIZE,
                                           &produced, &done);
      if (!err && produced)
        err = w->base.next->write (w->base.next, w->buf, produced);
      if (err)
        return err;
    }
  return w->base.next->finish (w->base.next);
}

typedef struct
{
  out_writer out;
  frame_writer data_frame;
  seipd1_writer seipd1;
  aead_writer aead;
  frame_writer compressed_frame;
  deflate_writer deflate;
  frame_writer literal_frame;
} chain;

static void
chain_clear (chain *ch)
{
  /* First the writer thread, which may still read any buffer below. */
  pl_worker_stop (&ch->out.worker);
  free (ch->out.abuf);
  free (ch->data_frame.buf);
  pl_seipd1_clear (&ch->seipd1.st);
  free (ch->seipd1.buf[0]);
  free (ch->seipd1.buf[1]);
  pl_aead_stream_free (ch->aead.s);
  free (ch->compressed_frame.buf);
  pl_deflate_clear (&ch->deflate.z);
  free (ch->deflate.buf);
  free (ch->literal_frame.buf);
}

static gpg_error_t
emit_key_packet (void *arg, const uint8_t *p, size_t n)
{
  writer *out = arg;
  return out->write (out, p, n);
}

/* Refuses what cannot make a message, before any output. */
static gpg_error_t
check_options (const pl_encrypt_options *o)
{
  if (!pl_profile_valid (o->profile)
      || o->chunk_octet > PL_AEAD_CHUNK_OCTET_MAX
      || !strchr ("btu", o->literal_format)
      || o->compress_algo < PL_COMPRESS_NONE
      || o->compress_algo > PL_COMPRESS_BZIP2
      || o->compress_level < 0 || o->compress_level > 9)
    return gpg_error (GPG_ERR_INV_ARG);
  if (!pl_cipher_gcry_algo (o->cipher_algo)
      || !pl_cipher_key_length (o->cipher_algo))
    return gpg_error (GPG_ERR_CIPHER_ALGO);
  /* AEAD takes 128-bit block ciphers only. */
  if (o->profile != PL_PROFILE_RFC4880
      && pl_cipher_block_length (o->cipher_algo) != 16)
    return gpg_error (GPG_ERR_CIPHER_ALGO);
  if (!o->n_keys || !o->keys)
    return gpg_error (GPG_ERR_NO_PASSPHRASE);
  return 0;
}

gpg_error_t
pl_encrypt (pl_source *src, pl_sink *sink, const pl_encrypt_options *opts,
            const pl_job_control *ctl)
{
  pl_encrypt_options o;
  chain ch;
  writer *head;
  pl_literal_header lit;
  uint8_t lit_head[PL_LITERAL_HEADER_MAX];
  uint8_t *key = NULL, *buf[2] = { NULL, NULL };
  read_ahead ra;
  int cur = 0;
  size_t read_len, next_len;
  size_t keylen, lit_head_len, head_len = 0;
  int64_t size = src->size, lit_body = -1, data_body = -1;
  uint64_t done = 0;
  uint8_t data_head[64];
  uint8_t *text_buf = NULL;
  int text, last_cr = 0;
  gpg_error_t err;

  memset (&ch, 0, sizeof ch);
  /* Before the first refusal: leave stops the read-ahead. */
  memset (&ra, 0, sizeof ra);
  if (opts)
    o = *opts;
  else
    pl_encrypt_options_init (&o);
  if (!o.cipher_algo)
    o.cipher_algo = PL_CIPHER_AES256;
  if (o.chunk_octet < 0)
    o.chunk_octet = PL_AEAD_CHUNK_OCTET_DEFAULT;
  if (!o.literal_format)
    o.literal_format = 'b';
  err = check_options (&o);
  if (err)
    goto leave;
  keylen = pl_cipher_key_length (o.cipher_algo);

  key = gcry_malloc_secure (PL_SESSION_KEY_MAX);
  ra.src = src;
  /* Reads are sized once the framing is known (below); AEAD chunks may be
   * up to 4 MiB, so the buffers are made for the larger of the two. */
  {
    size_t chunk = o.profile == PL_PROFILE_RFC4880
                   ? 0 : (size_t) 1 << (o.chunk_octet + 6);
    read_len = chunk > PL_BLOCK_SIZE ? chunk : PL_BLOCK_SIZE;
  }
  buf[0] = malloc (read_len);
  buf[1] = malloc (read_len);
  if (o.armor)
    ch.out.abuf = malloc (pl_armor_encoder_bound (PL_BLOCK_SIZE));
  if (!key || !buf[0] || !buf[1] || (o.armor && !ch.out.abuf))
    {
      err = gpg_error (GPG_ERR_ENOMEM);
      goto leave;
    }
  ch.out.base.write = out_write;
  ch.out.base.finish = out_finish;
  ch.out.sink = sink;
  ch.out.armor = o.armor;
  ch.out.async = pl_job_threads (ctl) > 1;
  /* RFC 9580 §6.1: no CRC24 around a v2 message. */
  pl_armor_encoder_init (&ch.out.enc, PL_ARMOR_MESSAGE,
                         o.profile != PL_PROFILE_RFC9580);

  err = pl_keys_lock (&o, ctl, key, keylen, emit_key_packet, &ch.out.base);
  if (err)
    goto leave;

  memset (&lit, 0, sizeof lit);
  lit.format = o.literal_format;
  pl_literal_set_name (&lit, o.file_name);
  lit.date = o.file_date;
  lit_head_len = pl_literal_write (&lit, lit_head);

  /* The encrypted data packet's header, and from it the body's length
   * when every length inside is known. */
  if (o.profile == PL_PROFILE_RFC4880)
    {
      data_head[0] = 1;
      head_len = 1;
    }
  else
    {
      pl_aead_header h;
      memset (&h, 0, sizeof h);
      h.format = o.profile == PL_PROFILE_RFC9580 ? PL_AEAD_FORMAT_SEIPD2
                                                 : PL_AEAD_FORMAT_OCB_PACKET;
      h.cipher_algo = o.cipher_algo;
      h.aead_algo = PL_AEAD_OCB;
      h.chunk_octet = o.chunk_octet;
      if (h.format == PL_AEAD_FORMAT_SEIPD2)
        gcry_randomize (h.salt, sizeof h.salt, GCRY_STRONG_RANDOM);
      else
        gcry_create_nonce (h.iv, pl_aead_nonce_length (PL_AEAD_OCB));
      head_len = pl_aead_header_write (&h, data_head);
      err = pl_aead_stream_new (&ch.aead.s, &h, key, keylen, 1);
      if (err)
        goto leave;
    }

  text = lit.format == 't' || lit.format == 'u';
  if (size >= 0 && !o.compress_algo && !text)
    {
      uint8_t tmp[6];
      lit_body = (int64_t) lit_head_len + size;
      if ((uint64_t) lit_body <= DEFINITE_MAX)
        {
          int64_t plain = lit_body + (int64_t) pl_packet_write_header
                                                  (tmp, PL_PKT_LITERAL,
                                                   (uint64_t) lit_body);
          if (o.profile == PL_PROFILE_RFC4880)
            data_body = (int64_t) head_len
                        + (int64_t) pl_cipher_block_length (o.cipher_algo) + 2
                        + plain + PL_MDC_PACKET_LEN;
          else
            {
              int64_t chunk = (int64_t) 1 << (o.chunk_octet + 6);
              int64_t chunks = (plain + chunk - 1) / chunk;
              /* One tag per chunk, and the final tag. */
              data_body = (int64_t) head_len + plain + 16 * (chunks + 1);
            }
        }
    }

  err = frame_start (&ch.data_frame, &ch.out.base, &ch.out,
                     o.profile == PL_PROFILE_LIBREPGP ? PL_PKT_OCB
                                                      : PL_PKT_SEIPD,
                     data_body);
  if (!err)
    err = ch.data_frame.base.write (&ch.data_frame.base, data_head, head_len);
  if (err)
    goto leave;

  if (o.profile == PL_PROFILE_RFC4880)
    {
      uint8_t prefix[PL_SEIPD1_PREFIX_MAX];
      size_t prefix_len;

      ch.seipd1.base.write = seipd1_write;
      ch.seipd1.base.finish = seipd1_finish;
      ch.seipd1.base.next = &ch.data_frame.base;
      ch.seipd1.out = &ch.out;
      ch.seipd1.buf[0] = malloc (PL_BLOCK_SIZE);
      ch.seipd1.buf[1] = malloc (PL_BLOCK_SIZE);
      if (!ch.seipd1.buf[0] || !ch.seipd1.buf[1])
        {
          err = gpg_error (GPG_ERR_ENOMEM);
          goto leave;
        }
      err = pl_seipd1_encrypt_init (&ch.seipd1.st, o.cipher_algo, key,
                                    keylen, prefix, &prefix_len);
      pl_seipd1_set_threads (&ch.seipd1.st, pl_job_threads (ctl));
      if (!err)
        err = ch.data_frame.base.write (&ch.data_frame.base, prefix,
                                        prefix_len);
      if (err)
        goto leave;
      head = &ch.seipd1.base;
    }
  else
    {
      ch.aead.base.write = aead_write;
      ch.aead.base.finish = aead_finish;
      ch.aead.base.next = &ch.data_frame.base;
      ch.aead.out = &ch.out;
      ch.aead.chunk_len = ((size_t) 1 << (o.chunk_octet + 6)) + 16;
      head = &ch.aead.base;
    }

  if (o.compress_algo)
    {
      uint8_t algo = (uint8_t) o.compress_algo;

      err = frame_start (&ch.compressed_frame, head, &ch.out,
                         PL_PKT_COMPRESSED, -1);
      if (!err)
        err = ch.compressed_frame.base.write (&ch.compressed_frame.base,
                                              &algo, 1);
      if (!err)
        err = pl_deflate_init (&ch.deflate.z, o.compress_algo,
                               o.compress_level ? o.compress_level : 6);
      if (err)
        goto leave;
      ch.deflate.buf = malloc (PL_BLOCK_SIZE);
      if (!ch.deflate.buf)
        {
          err = gpg_error (GPG_ERR_ENOMEM);
          goto leave;
        }
      ch.deflate.base.write = deflate_write;
      ch.deflate.base.finish = deflate_finish;
      ch.deflate.base.next = &ch.compressed_frame.base;
      head = &ch.deflate.base;
    }

  err = frame_start (&ch.literal_frame, head, &ch.out, PL_PKT_LITERAL,
                     lit_body);
  if (!err)
    err = ch.literal_frame.base.write (&ch.literal_frame.base, lit_head,
                                       lit_head_len);
  if (err)
    goto leave;

  next_len = read_len = PL_BLOCK_SIZE;
  if (o.profile != PL_PROFILE_RFC4880 && lit_body >= 0)
    {
      /* With every length known, line the reads up with the AEAD chunks:
       * the first read completes the chunk that the literal packet's
       * headers began, and each later one is a whole number of chunks,
       * which the stage then seals straight from our buffer, no copy. */
      size_t chunk = (size_t) 1 << (o.chunk_octet + 6);
      uint8_t tmp[6];
      size_t prefix = pl_packet_write_header (tmp, PL_PKT_LITERAL,
                                              (uint64_t) lit_body)
                      + lit_head_len;
      read_len = chunk >= PL_BLOCK_SIZE ? chunk
                                        : PL_BLOCK_SIZE / chunk * chunk;
      next_len = read_len - prefix % chunk;
    }
  /* Reading moves to a thread of its own when the input is large: the
   * next block is read while this one is encrypted. */
  if (ch.out.async && (size < 0 || size > PL_BLOCK_SIZE)
      && !pl_worker_start (&ra.worker, read_task, &ra))
    {
      err = pl_worker_submit (&ra.worker, buf[0], next_len);
      if (err)
        goto leave;
      next_len = read_len;
    }
  for (;;)
    {
      size_t n = 0;

      err = pl_job_check_cancel (ctl);
      if (err)
        goto leave;
      if (pl_worker_running (&ra.worker))
        {
          err = pl_worker_wait (&ra.worker);
          n = ra.got;
          if (!err && n)
            err = pl_worker_submit (&ra.worker, buf[cur ^ 1], read_len);
        }
      else
        {
          err = pl_source_read_full (src, buf[cur], next_len, &n);
          next_len = read_len;
        }
      if (err)
        goto leave;
      if (!n)
        break;
      done += n;
      if (size >= 0 && done > (uint64_t) size)
        {
          /* The file grew while we read it: the lengths written are
           * wrong now. */
          err = gpg_error (GPG_ERR_EIO);
          goto leave;
        }
      if (text)
        {
          /* Text goes in canonical form, CRLF line ends (RFC 9580
           * §5.9); a bare LF becomes CRLF, an existing CRLF stays. */
          size_t t = 0;
          if (!text_buf && !(text_buf = malloc (2 * PL_BLOCK_SIZE)))
            {
              err = gpg_error (GPG_ERR_ENOMEM);
              goto leave;
            }
          for (size_t i = 0; i < n; i++)
            {
              if (buf[cur][i] == '\n' && !last_cr)
                text_buf[t++] = '\r';
              last_cr = buf[cur][i] == '\r';
              text_buf[t++] = buf[cur][i];
            }
          err = ch.literal_frame.base.write (&ch.literal_frame.base,
                                             text_buf, t);
        }
      else
        err = ch.literal_frame.base.write (&ch.literal_frame.base, buf[cur],
                                           n);
      cur ^= 1;
      if (err)
        goto leave;
      pl_job_progress (ctl, done, size);
    }
  if (size >= 0 && done != (uint64_t) size)
    {
      err = gpg_error (GPG_ERR_EIO);
      goto leave;
    }
  err = ch.literal_frame.base.finish (&ch.literal_frame.base);
  if (!err)
    err = sink->commit (sink);

 leave:
  /* The writer thread may still be in a sink write: it must be done
   * before the sink is aborted, or abort races with that write (and the
   * write may even land after it). */
  pl_worker_stop (&ch.out.worker);
  if (err)
    sink->abort (sink);
  chain_clear (&ch);
  if (key)
    {
      pl_wipe (key, PL_SESSION_KEY_MAX);
      gcry_free (key);
    }
  pl_worker_stop (&ra.worker);
  free (buf[0]);
  free (buf[1]);
  free (text_buf);
  return err;
}
