/* decrypt.c - the decrypt job
 *
 * The data walks through a chain of readers, each owning one buffer and
 * handing out blocks:
 *
 *   source ─► [armor] ─► packets ─► SKESKs ─► session key
 *                            └─► SEIPD v1 │ SEIPD v2 │ tag 20 ─► packets
 *                                      ─► [inflate ─► packets] ─► literal ─► sink
 *
 * The push stages (armor.c, seipd.c, aead.c, compress.c) do the work;
 * this file only drives them.  Every byte reaches the sink before it is
 * authenticated only because the sink is transactional: it is committed
 * after the MDC or final AEAD tag verified and the input ended cleanly.
 */
#include "job.h"
#include "algo.h"
#include "armor.h"
#include "aead.h"
#include "compress.h"
#include "errors.h"
#include "packet.h"
#include "seipd.h"
#include "keys.h"
#include "skesk.h"
#include "worker.h"

#include <stdlib.h>
#include <string.h>
#include <gcrypt.h>

/* Compressed packets nest at most this deep.  GnuPG caps all packet
 * nesting (32 levels); no writer ever nests compression, and each level
 * multiplies a decompression bomb, so we allow one. */
#define MAX_COMPRESS_DEPTH 1

typedef struct
{
  pl_source *src;
  pl_sink *sink;
  const pl_decrypt_options *opts;
  pl_decrypt_result *result;
  const pl_job_control *ctl;
  uint64_t done;
  int have_literal;
  /* Sink writes on a thread of their own, overlapping the next block's
   * decryption, when the layer that produces plaintext keeps each block
   * until it calls wait_for_writer on that buffer (SEIPD v1 and inflate
   * alternate two buffers and do). */
  int async_write;
  pl_worker writer;
} job;

static gpg_error_t
sink_task (void *arg, const uint8_t *p, size_t n)
{
  pl_sink *sink = arg;
  return sink->write (sink, p, n);
}

/* Before a reader reuses BUF: the writer must be done with it. */
static void
wait_for_writer (job *j, const void *buf, size_t len)
{
  pl_worker_wait_range (&j->writer, buf, len);
}

static gpg_error_t
write_plaintext (job *j, const uint8_t *p, size_t n)
{
  if (j->async_write && n >= 64 * 1024)
    {
      if (!pl_worker_running (&j->writer)
          && pl_worker_start (&j->writer, sink_task, j->sink))
        j->async_write = 0;
      else
        return pl_worker_submit (&j->writer, p, n);
    }
  {
    gpg_error_t err = pl_worker_wait (&j->writer);
    return err ? err : j->sink->write (j->sink, p, n);
  }
}

/* The source, by the block, with progress.  Two buffers in turn, so that
 * a block handed out stays valid while the next one is read ahead. */
typedef struct
{
  pl_reader base;
  job *j;
  uint8_t *buf[2];
  int turn;
} source_reader;

static gpg_error_t
source_next (pl_reader *self, uint8_t **data, size_t *len)
{
  source_reader *r = (source_reader *) self;
  gpg_error_t err = pl_job_check_cancel (r->j->ctl);

  if (err)
    return err;
  /* A whole block (or the rest of the input), not what one read of a
   * pipe happens to return: armor detection looks at the first block. */
  err = pl_source_read_full (r->j->src, r->buf[r->turn], PL_BLOCK_SIZE,
                             len);
  if (err)
    return err;
  *data = r->buf[r->turn];
  r->turn ^= 1;
  r->j->done += *len;
  pl_job_progress (r->j->ctl, r->j->done, r->j->src->size);
  return 0;
}

/* ASCII armor, undone, into two buffers in turn. */
typedef struct
{
  pl_reader base;
  pl_cursor *in;
  pl_armor_decoder dec;
  uint8_t *buf[2];
  int turn;
  int ended;
} armor_reader;

static gpg_error_t
armor_next (pl_reader *self, uint8_t **data, size_t *len)
{
  armor_reader *r = (armor_reader *) self;
  gpg_error_t err;

  *len = 0;
  while (!r->ended)
    {
      uint8_t *p;
      size_t n, out = 0;

      if (pl_armor_decoder_done (&r->dec))
        n = 0;
      else
        {
          err = pl_cursor_take (r->in, PL_BLOCK_SIZE, &p, &n);
          if (err)
            return err;
        }
      if (!n)
        {
          r->ended = 1;
          return pl_armor_decoder_finish (&r->dec);
        }
      err = pl_armor_decoder_push (&r->dec, p, n, r->buf[r->turn], &out);
      if (err)
        return err;
      if (out)
        {
          *data = r->buf[r->turn];
          *len = out;
          r->turn ^= 1;
          return 0;
        }
    }
  return 0;
}

/* Reads ahead on a thread of its own: while the caller works on one
 * block, the worker fetches the next from INNER (the source, or the armor
 * decoder over it), which must keep a block valid until the call after
 * next.  The first block may be one the caller already peeked at. */
typedef struct
{
  pl_reader base;
  pl_reader *inner;
  pl_worker worker;
  uint8_t *first;               /* a block already fetched, or NULL */
  size_t first_len;
  uint8_t *ahead;               /* what the worker fetched */
  size_t ahead_len;
  int submitted;
  int ended;
} prefetch_reader;

static gpg_error_t
prefetch_task (void *arg, const uint8_t *unused_p, size_t unused_n)
{
  prefetch_reader *r = arg;
  return r->inner->next (r->inner, &r->ahead, &r->ahead_len);
}

static gpg_error_t
prefetch_next (pl_reader *self, uint8_t **data, size_t *len)
{
  prefetch_reader *r = (prefetch_reader *) self;
  gpg_error_t err;

  *len = 0;
  if (r->ended)
    return 0;
  if (r->first)
    {
      *data = r->first;
      *len = r->first_len;
      r->first = NULL;
    }
  else
    {
      if (!r->submitted)
        {
          err = pl_worker_submit (&r->worker, NULL, 0);
          if (err)
            return err;
        }
      err = pl_worker_wait (&r->worker);
      if (err)
        return err;
      r->submitted = 0;
      *data = r->ahead;
      *len = r->ahead_len;
    }
  if (!*len)
    {
      r->ended = 1;
      return 0;
    }
  /* Fetch the next block while the caller works on this one. */
  err = pl_worker_submit (&r->worker, NULL, 0);
  if (err)
    return err;
  r->submitted = 1;
  return 0;
}

/* SEIPD v1 body, decrypted; the end verifies the MDC. */
typedef struct
{
  pl_reader base;
  pl_cursor *in;                /* over the packet body */
  job *j;
  pl_seipd1 st;
  /* Two buffers of PL_SEIPD1_HEADROOM + PL_BLOCK_SIZE, used in turn: the
   * MDC thread hashes one while the next block is decrypted into the
   * other. */
  uint8_t *buf[2];
  int turn;
  int ended;
} seipd1_reader;

static gpg_error_t
seipd1_next (pl_reader *self, uint8_t **data, size_t *len)
{
  seipd1_reader *r = (seipd1_reader *) self;
  gpg_error_t err;

  *len = 0;
  while (!r->ended)
    {
      uint8_t *p;
      size_t n;

      err = pl_cursor_take (r->in, PL_BLOCK_SIZE, &p, &n);
      if (err)
        return err;
      if (!n)
        {
          r->ended = 1;
          return pl_seipd1_decrypt_finish (&r->st);
        }
      wait_for_writer (r->j, r->buf[r->turn],
                       PL_SEIPD1_HEADROOM + PL_BLOCK_SIZE);
      err = pl_seipd1_decrypt_push (&r->st, p, n, r->buf[r->turn], data,
                                    len);
      r->turn ^= 1;
      if (err)
        return err;
      if (*len)
        return 0;
    }
  return 0;
}

/* AEAD body (SEIPD v2 or tag 20), chunk by verified chunk. */
typedef struct
{
  pl_reader base;
  pl_cursor *in;
  job *j;
  pl_aead_stream *s;
  size_t chunk_size;
  const uint8_t *handed[2];     /* the last two chunks handed out */
  int ended;
} aead_reader;

static gpg_error_t
aead_next (pl_reader *self, uint8_t **data, size_t *len)
{
  aead_reader *r = (aead_reader *) self;
  const uint8_t *out;
  gpg_error_t err;

  *len = 0;
  while (!r->ended)
    {
      uint8_t *p;
      size_t n, used = 0, outlen = 0;

      err = pl_cursor_peek (r->in, &p, &n);
      if (err)
        return err;
      /* The stage is about to reuse the buffer of the chunk before
       * last: the writer must be done with it. */
      if (r->handed[1])
        wait_for_writer (r->j, r->handed[1], r->chunk_size);
      if (!n)
        {
          r->ended = 1;
          err = pl_aead_stream_finish (r->s, &out, &outlen);
          if (err)
            return err;
        }
      else
        {
          err = pl_aead_stream_push (r->s, p, n, &used, &out, &outlen);
          if (err)
            return err;
          r->in->p += used;
          r->in->n -= used;
        }
      if (outlen)
        {
          /* The stage's chunk buffer is ours until the call after next. */
          r->handed[1] = r->handed[0];
          r->handed[0] = out;
          *data = (uint8_t *) out;
          *len = outlen;
          return 0;
        }
    }
  return 0;
}

/* A Compressed Data body, inflated. */
typedef struct
{
  pl_reader base;
  pl_cursor *in;
  pl_inflate z;
  uint8_t *buf[2];              /* used in turn, as in seipd1_reader */
  int turn;
  int ended;
  job *j;
} inflate_reader;

static gpg_error_t
inflate_next (pl_reader *self, uint8_t **data, size_t *len)
{
  inflate_reader *r = (inflate_reader *) self;
  gpg_error_t err;

  *len = 0;
  while (!r->ended)
    {
      uint8_t *p;
      size_t n, used = 0, produced = 0;

      /* A bomb produces much from little: stop it by the block. */
      err = pl_job_check_cancel (r->j->ctl);
      if (err)
        return err;
      err = pl_cursor_peek (r->in, &p, &n);
      if (err)
        return err;
      /* At the end of input the decompressor may still hold output
       * (bzip2 keeps up to a 900k block): drain it before finishing. */
      wait_for_writer (r->j, r->buf[r->turn], PL_BLOCK_SIZE);
      err = pl_inflate_push (&r->z, n ? p : NULL, n, &used, r->buf[r->turn],
                             PL_BLOCK_SIZE, &produced);
      if (err)
        return err;
      r->in->p += used;
      r->in->n -= used;
      if (produced)
        {
          *data = r->buf[r->turn];
          *len = produced;
          r->turn ^= 1;
          return 0;
        }
      if (!n)
        {
          r->ended = 1;
          return pl_inflate_finish (&r->z);
        }
      if (!used)
        return gpg_error (GPG_ERR_BAD_DATA);
    }
  return 0;
}

/* Reads to the end of a layer, so that its end checks (MDC, final tag,
 * CRC) run. */
static gpg_error_t
drain (pl_cursor *c)
{
  uint8_t *p;
  size_t n;
  gpg_error_t err;

  do
    err = pl_cursor_take (c, SIZE_MAX, &p, &n);
  while (!err && n);
  return err;
}

static gpg_error_t parse_plaintext (job *j, pl_cursor *in, int depth);

/* Turns CRLF into LF in place and returns the new length.  A CR that
 * ends the block is dropped and flagged in *CR_PENDING: whether it was
 * part of a CRLF shows only in the next block. */
static size_t
crlf_to_lf (uint8_t *p, size_t n, int *cr_pending)
{
  size_t o = 0, i = 0;
  uint8_t *cr;

  while ((cr = memchr (p + i, '\r', n - i)))
    {
      size_t k = (size_t) (cr - (p + i));
      memmove (p + o, p + i, k);
      o += k;
      i += k;
      if (i + 1 == n)
        {
          *cr_pending = 1;
          return o;
        }
      if (p[i + 1] != '\n')
        p[o++] = '\r';
      i++;
    }
  memmove (p + o, p + i, n - i);
  return o + n - i;
}

static gpg_error_t
read_literal (job *j, pl_packet_body *body)
{
  pl_cursor c;
  uint8_t head[PL_LITERAL_HEADER_MAX];
  size_t used;
  int text, cr_pending = 0;
  gpg_error_t err;

  if (j->have_literal)
    return gpg_error (GPG_ERR_BAD_DATA);
  j->have_literal = 1;
  pl_cursor_init (&c, &body->base);
  err = pl_cursor_read (&c, head, 2);
  if (!err)
    err = pl_cursor_read (&c, head + 2, head[1] + 4u);
  if (err)
    return gpg_err_code (err) == GPG_ERR_EOF ? gpg_error (GPG_ERR_TRUNCATED)
                                             : err;
  err = pl_literal_parse (&j->result->literal, head, head[1] + 6u, &used);
  if (err)
    return err;
  /* Text is stored with CRLF line ends; like GnuPG we give it back with
   * the local LF. */
  text = j->result->literal.format == 't' || j->result->literal.format == 'u';
  for (;;)
    {
      uint8_t *p;
      size_t n;

      err = pl_cursor_take (&c, SIZE_MAX, &p, &n);
      if (err)
        return err;
      if (!n)
        break;
      if (text)
        {
          if (cr_pending && p[0] != '\n')
            err = write_plaintext (j, (const uint8_t *) "\r", 1);
          cr_pending = 0;
          if (err)
            return err;
          n = crlf_to_lf (p, n, &cr_pending);
        }
      if (n)
        err = write_plaintext (j, p, n);
      if (err)
        return err;
    }
  if (cr_pending)
    err = write_plaintext (j, (const uint8_t *) "\r", 1);
  if (!err)
    err = pl_worker_wait (&j->writer);
  return err;
}

static gpg_error_t
read_compressed (job *j, pl_packet_body *body, int depth)
{
  inflate_reader r;
  pl_cursor c, inner;
  uint8_t algo;
  gpg_error_t err;

  if (depth >= MAX_COMPRESS_DEPTH)
    return gpg_error (GPG_ERR_BAD_DATA);
  memset (&r, 0, sizeof r);
  pl_cursor_init (&c, &body->base);
  err = pl_cursor_read (&c, &algo, 1);
  if (err)
    return pl_cursor_truncated (err);
  if (!j->result->compress_algo)
    j->result->compress_algo = algo;
  err = pl_inflate_init (&r.z, algo);
  if (err)
    return err;
  r.buf[0] = malloc (PL_BLOCK_SIZE);
  r.buf[1] = malloc (PL_BLOCK_SIZE);
  if (!r.buf[0] || !r.buf[1])
    {
      err = gpg_error (GPG_ERR_ENOMEM);
      goto leave;
    }
  r.base.next = inflate_next;
  r.in = &c;
  r.j = j;
  pl_cursor_init (&inner, &r.base);
  err = parse_plaintext (j, &inner, depth + 1);
  if (err)
    goto leave;
  /* Whatever follows the compressed stream inside the packet is
   * ignored, as zlib ignores it; but it must be read. */
  err = pl_packet_skip (body);

 leave:
  /* The writer may still read our buffers. */
  if (!err)
    err = pl_worker_wait (&j->writer);
  else
    pl_worker_wait (&j->writer);
  pl_inflate_clear (&r.z);
  free (r.buf[0]);
  free (r.buf[1]);
  return err;
}

/* Packets inside the encryption (or a compression) layer. */
static gpg_error_t
parse_plaintext (job *j, pl_cursor *in, int depth)
{
  gpg_error_t err;

  for (;;)
    {
      pl_packet_body body;

      err = pl_packet_begin (in, &body);
      if (gpg_err_code (err) == GPG_ERR_EOF)
        break;
      if (err)
        return err;
      switch (body.tag)
        {
        case PL_PKT_LITERAL:
          err = read_literal (j, &body);
          break;
        case PL_PKT_COMPRESSED:
          err = read_compressed (j, &body, depth);
          break;
        case PL_PKT_ONEPASS_SIG:
        case PL_PKT_SIGNATURE:
          j->result->signed_inside = 1;
          err = pl_packet_skip (&body);
          break;
        case PL_PKT_MARKER:
        case PL_PKT_PADDING:
          err = pl_packet_skip (&body);
          break;
        default:
          err = gpg_error (GPG_ERR_BAD_DATA);
          break;
        }
      if (err)
        return err;
    }
  if (!depth && !j->have_literal)
    return gpg_error (GPG_ERR_NO_DATA);
  return 0;
}

static void
keep_session_key (job *j, const uint8_t *key, size_t keylen)
{
  if (j->opts->session_key_out)
    {
      memcpy (j->opts->session_key_out, key, keylen);
      j->result->session_key_len = keylen;
    }
}

/* Opens the data layer STAGE with one candidate session key; fails with
 * RETRYABLE set when another candidate may still do. */
typedef gpg_error_t (*open_fn) (void *stage, const uint8_t *key,
                                size_t keylen, int cipher_algo,
                                int *retryable);

/* The candidate loop: each candidate in turn until OPEN takes one. */
static gpg_error_t
open_with_candidates (job *j, pl_key_candidates *c, uint8_t *key,
                      open_fn open, void *stage)
{
  for (;;)
    {
      size_t keylen = 0;
      int algo = 0, retryable = 0;
      gpg_error_t err = pl_key_candidates_next (c, key, &keylen, &algo);

      if (gpg_err_code (err) == GPG_ERR_EOF)
        return pl_key_candidates_failure (c);
      if (err)
        return err;
      err = open (stage, key, keylen, algo, &retryable);
      if (!err)
        {
          keep_session_key (j, key, keylen);
          return 0;
        }
      if (!retryable)
        return err;
      pl_key_candidates_reject (c, err);
    }
}

/* Opening SEIPD v1 with a candidate.  The prefix's length depends on the
 * cipher, which may only be known from the candidate: the octets read so
 * far are kept for the next one. */
typedef struct
{
  pl_seipd1 *st;
  pl_cursor *in;
  uint8_t prefix[PL_SEIPD1_PREFIX_MAX];
  size_t prefix_len;
  int cipher_algo;              /* the candidate's that opened it */
} seipd1_opening;

static gpg_error_t
seipd1_open (void *stage, const uint8_t *key, size_t keylen, int algo,
             int *retryable)
{
  seipd1_opening *o = stage;
  size_t bl = pl_cipher_block_length (algo);
  gpg_error_t err;

  *retryable = 1;
  if (!bl || !pl_cipher_gcry_algo (algo))
    return gpg_error (GPG_ERR_CIPHER_ALGO);
  if (o->prefix_len < bl + 2)
    {
      err = pl_cursor_read (o->in, o->prefix + o->prefix_len,
                            bl + 2 - o->prefix_len);
      if (err)
        {
          *retryable = 0;
          return pl_cursor_truncated (err);
        }
      o->prefix_len = bl + 2;
    }
  else if (o->prefix_len > bl + 2)
    /* A candidate with a smaller block than one tried before: the prefix
     * octets read past it are ciphertext we cannot put back.  Only a mix
     * of 64- and 128-bit ciphers across SKESKs gets here. */
    return gpg_error (GPG_ERR_NOT_SUPPORTED);
  err = pl_seipd1_decrypt_init (o->st, algo, key, keylen, o->prefix,
                                o->prefix_len);
  *retryable = gpg_err_code (err) == GPG_ERR_BAD_PASSPHRASE;
  if (!err)
    o->cipher_algo = algo;
  return err;
}

static gpg_error_t
decrypt_seipd1 (job *j, pl_key_candidates *c, pl_cursor *bc, uint8_t *key)
{
  seipd1_reader r;
  seipd1_opening opening;
  pl_cursor inner;
  uint8_t version;
  gpg_error_t err;

  memset (&r, 0, sizeof r);
  memset (&opening, 0, sizeof opening);
  err = pl_cursor_read (bc, &version, 1);
  if (err)
    return pl_cursor_truncated (err);
  if (version != 1)
    return gpg_error (GPG_ERR_UNKNOWN_VERSION);
  j->result->data_kind = PL_DATA_SEIPD1;
  opening.st = &r.st;
  opening.in = bc;
  err = open_with_candidates (j, c, key, seipd1_open, &opening);
  if (err)
    goto leave;
  j->result->cipher_algo = opening.cipher_algo;

  pl_seipd1_set_threads (&r.st, pl_job_threads (j->ctl));
  r.buf[0] = malloc (PL_SEIPD1_HEADROOM + PL_BLOCK_SIZE);
  r.buf[1] = malloc (PL_SEIPD1_HEADROOM + PL_BLOCK_SIZE);
  if (!r.buf[0] || !r.buf[1])
    {
      err = gpg_error (GPG_ERR_ENOMEM);
      goto leave;
    }
  r.base.next = seipd1_next;
  r.in = bc;
  r.j = j;
  j->async_write = pl_job_threads (j->ctl) > 1;
  pl_cursor_init (&inner, &r.base);
  err = parse_plaintext (j, &inner, 0);
  if (!err && !r.ended)
    {
      /* The literal ended before the body did: read to the MDC. */
      err = drain (&inner);
      if (!err)
        err = gpg_error (GPG_ERR_BAD_DATA);
    }

 leave:
  pl_worker_wait (&j->writer);
  pl_seipd1_clear (&r.st);
  free (r.buf[0]);
  free (r.buf[1]);
  return err;
}

/* Opening an AEAD layer with a candidate: the header names the cipher,
 * so a key of another length is the wrong one. */
typedef struct
{
  pl_aead_stream **s;
  const pl_aead_header *h;
} aead_opening;

static gpg_error_t
aead_open (void *stage, const uint8_t *key, size_t keylen, int algo,
           int *retryable)
{
  aead_opening *o = stage;

  (void) algo;
  *retryable = keylen != pl_cipher_key_length (o->h->cipher_algo);
  if (*retryable)
    return gpg_error (GPG_ERR_BAD_PASSPHRASE);
  return pl_aead_stream_new (o->s, o->h, key, keylen, 0);
}

static gpg_error_t
decrypt_aead (job *j, pl_key_candidates *c, pl_cursor *bc, uint8_t *key,
              pl_aead_format format)
{
  aead_reader r;
  aead_opening opening;
  pl_aead_header h;
  pl_cursor inner;
  uint8_t head[64];
  size_t head_len, used;
  gpg_error_t err;

  memset (&r, 0, sizeof r);
  /* Both headers are fixed-size once the AEAD mode is known: version,
   * cipher, mode, chunk octet, then a 32-octet salt (v2) or a nonce. */
  err = pl_cursor_read (bc, head, 4);
  if (err)
    return pl_cursor_truncated (err);
  if (format == PL_AEAD_FORMAT_SEIPD2)
    head_len = 4 + 32;
  else
    head_len = 4 + pl_aead_nonce_length (head[2]);
  if (head_len == 4)
    return gpg_error (GPG_ERR_UNSUPPORTED_ALGORITHM);
  if ((format == PL_AEAD_FORMAT_SEIPD2 && head[0] != 2)
      || (format == PL_AEAD_FORMAT_OCB_PACKET && head[0] != 1))
    return gpg_error (GPG_ERR_UNKNOWN_VERSION);
  err = pl_cursor_read (bc, head + 4, head_len - 4);
  if (err)
    return pl_cursor_truncated (err);
  err = pl_aead_header_parse (&h, format, head, head_len, &used);
  if (err)
    return err;
  j->result->data_kind = format == PL_AEAD_FORMAT_SEIPD2 ? PL_DATA_SEIPD2
                                                         : PL_DATA_OCB;
  j->result->cipher_algo = h.cipher_algo;
  j->result->aead_algo = h.aead_algo;

  opening.s = &r.s;
  opening.h = &h;
  err = open_with_candidates (j, c, key, aead_open, &opening);
  if (err)
    return err;
  r.base.next = aead_next;
  r.in = bc;
  r.j = j;
  r.chunk_size = (size_t) 1 << (h.chunk_octet + 6);
  j->async_write = pl_job_threads (j->ctl) > 1;
  pl_cursor_init (&inner, &r.base);
  err = parse_plaintext (j, &inner, 0);
  if (!err && !r.ended)
    {
      err = drain (&inner);
      if (!err)
        err = gpg_error (GPG_ERR_BAD_DATA);
    }
  pl_worker_wait (&j->writer);
  pl_aead_stream_free (r.s);
  return err;
}

static gpg_error_t
run (job *j, pl_cursor *top)
{
  pl_key_candidates *c = NULL;
  uint8_t *key = NULL;
  int have_data = 0;
  gpg_error_t err = 0;

  err = pl_key_candidates_new (&c, j->opts, j->ctl);
  if (err)
    return err;
  key = gcry_malloc_secure (PL_SESSION_KEY_MAX);
  if (!key)
    {
      err = gpg_error (GPG_ERR_ENOMEM);
      goto leave;
    }
  for (;;)
    {
      pl_packet_body body;

      err = pl_packet_begin (top, &body);
      if (gpg_err_code (err) == GPG_ERR_EOF)
        {
          err = have_data ? 0 : gpg_error (GPG_ERR_NO_DATA);
          break;
        }
      if (err)
        break;
      if (have_data)
        {
          /* Only padding may follow the encrypted data. */
          if (body.tag != PL_PKT_MARKER && body.tag != PL_PKT_PADDING)
            {
              err = gpg_error (GPG_ERR_BAD_DATA);
              break;
            }
          err = pl_packet_skip (&body);
          if (err)
            break;
          continue;
        }
      switch (body.tag)
        {
        case PL_PKT_SKESK:
        case PL_PKT_PKESK:
          err = pl_key_candidates_add_packet (c, &body);
          break;
        case PL_PKT_MARKER:
        case PL_PKT_PADDING:
          err = pl_packet_skip (&body);
          break;
        case PL_PKT_SED:
          err = gpg_error (PL_ERR_UNPROTECTED);
          break;
        case PL_PKT_SEIPD:
        case PL_PKT_OCB:
          {
            pl_cursor bc;
            uint8_t *p;
            size_t n;

            have_data = 1;
            pl_cursor_init (&bc, &body.base);
            /* The version octet decides between SEIPD v1 and v2. */
            err = pl_cursor_peek (&bc, &p, &n);
            if (!err && !n)
              err = gpg_error (GPG_ERR_TRUNCATED);
            if (err)
              break;
            if (body.tag == PL_PKT_OCB)
              err = decrypt_aead (j, c, &bc, key, PL_AEAD_FORMAT_OCB_PACKET);
            else if (p[0] == 1)
              err = decrypt_seipd1 (j, c, &bc, key);
            else if (p[0] == 2)
              err = decrypt_aead (j, c, &bc, key, PL_AEAD_FORMAT_SEIPD2);
            else
              err = gpg_error (GPG_ERR_UNKNOWN_VERSION);
          }
          break;
        case PL_PKT_LITERAL:
        case PL_PKT_COMPRESSED:
        case PL_PKT_ONEPASS_SIG:
        case PL_PKT_SIGNATURE:
          err = gpg_error (GPG_ERR_NOT_ENCRYPTED);
          break;
        default:
          err = gpg_error (GPG_ERR_INV_PACKET);
          break;
        }
      if (err)
        break;
    }

 leave:
  if (key)
    {
      pl_wipe (key, PL_SESSION_KEY_MAX);
      gcry_free (key);
    }
  pl_key_candidates_free (c);
  return err;
}

gpg_error_t
pl_decrypt (pl_source *src, pl_sink *sink, const pl_decrypt_options *opts,
            pl_decrypt_result *result, const pl_job_control *ctl)
{
  job j;
  source_reader sr;
  armor_reader ar;
  prefetch_reader pf;
  pl_cursor c0, c1, c2, *top = &c0;
  pl_decrypt_result dummy;
  uint8_t *p;
  size_t n;
  gpg_error_t err;

  memset (&j, 0, sizeof j);
  memset (&sr, 0, sizeof sr);
  memset (&ar, 0, sizeof ar);
  memset (&pf, 0, sizeof pf);
  if (!result)
    result = &dummy;
  memset (result, 0, sizeof *result);
  if (!opts || !opts->n_keys || !opts->keys)
    {
      err = gpg_error (GPG_ERR_NO_PASSPHRASE);
      goto leave;
    }
  j.src = src;
  j.sink = sink;
  j.opts = opts;
  j.result = result;
  j.ctl = ctl;

  sr.base.next = source_next;
  sr.j = &j;
  sr.buf[0] = malloc (PL_BLOCK_SIZE);
  sr.buf[1] = malloc (PL_BLOCK_SIZE);
  if (!sr.buf[0] || !sr.buf[1])
    {
      err = gpg_error (GPG_ERR_ENOMEM);
      goto leave;
    }
  pl_cursor_init (&c0, &sr.base);
  err = pl_cursor_peek (&c0, &p, &n);
  if (err)
    goto leave;
  if (!n)
    {
      err = gpg_error (GPG_ERR_NO_DATA);
      goto leave;
    }
  if (pl_armor_detect (p, n))
    {
      result->armored = 1;
      ar.base.next = armor_next;
      ar.in = &c0;
      pl_armor_decoder_init (&ar.dec);
      ar.buf[0] = malloc (PL_BLOCK_SIZE);
      ar.buf[1] = malloc (PL_BLOCK_SIZE);
      if (!ar.buf[0] || !ar.buf[1])
        {
          err = gpg_error (GPG_ERR_ENOMEM);
          goto leave;
        }
      pl_cursor_init (&c1, &ar.base);
      top = &c1;
    }
  else if (!(p[0] & 0x80))
    {
      err = gpg_error (GPG_ERR_BAD_DATA);
      goto leave;
    }
  if (pl_job_threads (j.ctl) > 1 && (src->size < 0 || src->size > PL_BLOCK_SIZE)
      && !pl_worker_start (&pf.worker, prefetch_task, &pf))
    {
      /* Reading (and dearmoring) moves to a thread of its own.  From here
       * on only that thread touches the source and the armor decoder. */
      pf.base.next = prefetch_next;
      if (result->armored)
        pf.inner = &ar.base;
      else
        {
          /* The block already peeked at comes first. */
          pf.inner = &sr.base;
          pf.first = p;
          pf.first_len = n;
          c0.n = 0;
        }
      pl_cursor_init (&c2, &pf.base);
      top = &c2;
    }
  err = run (&j, top);
  {
    gpg_error_t werr = pl_worker_wait (&j.writer);
    if (!err)
      err = werr;
  }
  if (!err && result->armored)
    {
      /* Read to the END line so that the CRC is checked. */
      err = drain (top);
    }
  if (!err)
    err = pl_job_check_cancel (j.ctl);
  if (!err)
    err = sink->commit (sink);

 leave:
  pl_worker_stop (&pf.worker);
  pl_worker_stop (&j.writer);
  if (err)
    sink->abort (sink);
  free (sr.buf[0]);
  free (sr.buf[1]);
  free (ar.buf[0]);
  free (ar.buf[1]);
  return err;
}
