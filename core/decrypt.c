/* decrypt.c - the decrypt job
 *
 * The data walks through a chain of readers, each handing out blocks:
 *
 *   source ─► [armor] ─► read-ahead ─► packets ─► key packets ─► keys.c
 *                                          └─► SEIPD v1 │ SEIPD v2 │ tag 20
 *                          ─► packets ─► [inflate ─► packets] ─► literal
 *                          ─► writer ─► sink
 *
 * The push stages (armor.c, seipd.c, aead.c, compress.c) do the work;
 * the read-ahead and the writer (pipeline.h) run reading and dearmoring,
 * and sink writes, on threads of their own; this file only drives them.
 * Every byte reaches the sink before it is authenticated only because
 * the sink is transactional: it is committed after the MDC or final AEAD
 * tag verified and the input ended cleanly.
 */
#include "job.h"
#include "algo.h"
#include "buffers.h"
#include "armor.h"
#include "aead.h"
#include "aead-parallel.h"
#include "compress.h"
#include "errors.h"
#include "keys.h"
#include "packet.h"
#include "pipeline.h"
#include "seipd.h"
#include "sighash.h"
#include "prealloc.h"
#include "skesk.h"

#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <gcrypt.h>

/* Compressed packets nest at most this deep.  GnuPG caps all packet
 * nesting (32 levels); no writer ever nests compression, and each level
 * multiplies a decompression bomb, so we allow one. */
#define MAX_COMPRESS_DEPTH 1

/* A one-pass or signature packet larger than this is not one we read. */
#define SIG_PACKET_MAX (64u * 1024)

/* Text's LF output buffers (decrypt_job). */
#define TEXT_BUFFERS (PL_WRITER_FOREIGN_MAX + 1)

/* Plaintext buffers: what a SEIPD v1 push needs, the largest. */
#define PLAINTEXT_BUFFER_SIZE (PL_SEIPD1_HEADROOM + PL_BLOCK_SIZE)

/* The source, by the block, with progress: in front of the armor
 * decoder, and for the first block, which decides whether there is
 * armor.  Two buffers in turn, so that a block handed out stays valid
 * while the armor decoder asks for the next; none for an input in
 * memory, which is borrowed. */
typedef struct
{
  pl_reader base;
  struct decrypt_job *j;
  uint8_t *buf[2];
  int turn;
} source_reader;

/* ASCII armor, undone into the read-ahead's buffers. */
typedef struct
{
  pl_cursor *in;                /* over the source_reader */
  pl_armor_decoder dec;
} armor_filter;

/* The read-ahead as a pl_reader, for the packet cursor on top. */
typedef struct
{
  pl_reader base;
  pl_read_ahead *ra;
} read_ahead_reader;

typedef struct decrypt_job
{
  pl_source *src;
  pl_sink *sink;
  const pl_decrypt_options *opts;
  pl_decrypt_result *result;
  const pl_job_control *ctl;
  /* The octets read (on the read-ahead's thread or the caller's), and
   * whether they are reported yet: not before the data is being
   * decrypted (a key opened it) or read (a signed message).  Until then
   * what is read is read ahead while a key is derived or the agent asks
   * for a passphrase, and a progress that moves then, and a rate from
   * it, would tell of work not done (the header's graph drew a spike of
   * it and kept it as its peak).  The reports themselves go out under
   * REPORT_LOCK, each the count at that moment and none smaller than
   * the one before: start_moving's first report and the read-ahead's
   * next one may be made at the same time on two threads. */
  _Atomic uint64_t done;
  atomic_int moving;
  pthread_mutex_t report_lock;
  uint64_t reported;            /* under REPORT_LOCK */
  int have_literal;
  /* When parse_plaintext failed inside a top-level packet: the octets
   * that packet still wanted; INT64_MAX when it runs to the end of the
   * data (indeterminate length); -1 when not known (partial lengths, or
   * it failed between packets). */
  int64_t top_left;
  source_reader source;
  pl_cursor source_cursor;      /* over SOURCE */
  armor_filter armor;
  pl_read_ahead ra;
  read_ahead_reader ra_reader;
  pl_cursor message;            /* over the read-ahead: the packets */
  pl_writer writer;             /* plaintext to the sink */
  /* Text's LF output, blocks taken in turns, one more than the writes
   * a write from memory of the caller's may be read behind (pipeline.h,
   * PL_WRITER_FOREIGN_MAX): not the writer's own buffers, one of which
   * may still hold the block being converted (inflate's output). */
  uint8_t *text_buf[TEXT_BUFFERS];
  int text_next;
  int verifying;                /* the options give certificates */
  pl_verifier verifier;
  pl_sig_hasher sig_hasher;     /* the verifier's hashes, on a thread */
  pl_seipd1 *seipd1;            /* the SEIPD v1 stage under way, or NULL */
  pl_worker hashes;             /* its MDC and the signatures' hashes, on
                                   two cores (start_sig_hash) */
  const pl_cert *found_certs[PL_VERIFY_MAX]; /* opts->find_cert's */
} decrypt_job;

static gpg_error_t
emit_plaintext (void *arg, const uint8_t *p, size_t n)
{
  pl_sink *sink = arg;
  return sink->write (sink, p, n);
}

static gpg_error_t
write_plaintext (decrypt_job *j, const uint8_t *p, size_t n)
{
  return pl_writer_write (&j->writer, p, n);
}

/* One report of the count read by now, unless a larger one went out. */
static void
report_done (decrypt_job *j)
{
  uint64_t done;

  pthread_mutex_lock (&j->report_lock);
  done = atomic_load (&j->done);
  if (done >= j->reported)
    {
      j->reported = done;
      pl_job_progress (j->ctl, done, j->src->size);
    }
  pthread_mutex_unlock (&j->report_lock);
}

/* After a read of LEN octets that ERR ended: the progress. */
static gpg_error_t
count_read (decrypt_job *j, gpg_error_t err, size_t len)
{
  if (err)
    return err;
  atomic_fetch_add (&j->done, len);
  if (atomic_load (&j->moving))
    report_done (j);
  return 0;
}

/* From now on what is read is reported, starting with what was read
 * ahead by now. */
static void
start_moving (decrypt_job *j)
{
  if (!atomic_exchange (&j->moving, 1))
    report_done (j);
}

/* A whole block (or the rest of the input), not what one read of a pipe
 * happens to return: armor detection looks at the first block.  Runs on
 * the read-ahead's thread or the caller's. */
static gpg_error_t
read_source (void *arg, uint8_t *buf, size_t want, size_t *len)
{
  decrypt_job *j = arg;
  gpg_error_t err = pl_job_check_cancel (j->ctl);

  *len = 0;
  if (!err)
    err = pl_source_read_full (j->src, buf, want, len);
  return count_read (j, err, *len);
}

/* read_source for an input in memory: borrowed, not copied. */
static gpg_error_t
borrow_source (void *arg, size_t want, const uint8_t **p, size_t *len)
{
  decrypt_job *j = arg;
  gpg_error_t err = pl_job_check_cancel (j->ctl);

  *len = 0;
  if (!err)
    err = j->src->borrow (j->src, want, p, len);
  return count_read (j, err, *len);
}

static gpg_error_t
source_next (pl_reader *self, uint8_t **data, size_t *len)
{
  source_reader *r = (source_reader *) self;
  gpg_error_t err;

  /* An input in memory: armor text and the first block, borrowed. */
  if (r->j->src->borrow)
    return borrow_source (r->j, PL_BLOCK_SIZE, (const uint8_t **) data,
                          len);
  err = read_source (r->j, r->buf[r->turn], PL_BLOCK_SIZE, len);
  if (err)
    return err;
  *data = r->buf[r->turn];
  r->turn ^= 1;
  return 0;
}

/* Fills BUF with dearmored octets; *LEN 0 at the armor's end, where the
 * CRC is checked. */
static gpg_error_t
read_armor (void *arg, uint8_t *buf, size_t want, size_t *len)
{
  armor_filter *a = arg;
  gpg_error_t err;

  (void) want;                  /* a block of text yields less */
  *len = 0;
  for (;;)
    {
      uint8_t *p;
      size_t n = 0;

      if (!pl_armor_decoder_done (&a->dec))
        {
          err = pl_cursor_take (a->in, PL_BLOCK_SIZE, &p, &n);
          if (err)
            return err;
        }
      if (!n)
        {
          err = pl_armor_decoder_finish (&a->dec);
          /* A bad CRC24 is damaged armor (bad data), not a tampered
           * message: the MDC or AEAD tag says that. */
          return gpg_err_code (err) == GPG_ERR_CHECKSUM
                 ? gpg_error (GPG_ERR_INV_ARMOR) : err;
        }
      err = pl_armor_decoder_push (&a->dec, p, n, buf, len);
      if (err || *len)
        return err;
    }
}

static gpg_error_t
read_ahead_next (pl_reader *self, uint8_t **data, size_t *len)
{
  return pl_read_ahead_next (((read_ahead_reader *) self)->ra, data, len);
}

/* SEIPD v1 body, decrypted into the writer's buffers; the end verifies
 * the MDC.  Each block handed out fills a buffer with as many pushes as
 * it holds (one span for the MDC thread, one write).  The MDC thread
 * hashes behind the decryption, by up to the SEIPD1_HELD buffers kept
 * here: the oldest goes back only once it is hashed (unpin).  Six, not
 * the three that keep SHA-1 busy alone: a signed message's hash is a
 * third busy thread on two cores, and whichever hasher loses its core
 * for a while must find buffers still ahead of it when it gets it back,
 * or the other catches up with the decryption and a core idles.
 * Measured (bench/sig-speed, signed/unsigned, runs of each in turns): at
 * load 2, 0.65-0.84 with three and 0.67-0.88 with six, six better in
 * each of three turns; on the idle machine no difference (medians 0.812
 * and 0.805 of five turns each).  The cost is 3 MiB of peak RSS. */
#define SEIPD1_HELD 6

typedef struct
{
  pl_reader base;
  pl_cursor *in;                /* over the packet body */
  pl_writer *out;
  pl_seipd1 st;
  uint8_t *held[SEIPD1_HELD];   /* newest first */
  int eof;                      /* the body ended */
  int ended;                    /* and the MDC was checked */
} seipd1_reader;

static void
seipd1_reader_release (seipd1_reader *r)
{
  for (int i = 0; i < SEIPD1_HELD; i++)
    {
      pl_writer_release (r->out, r->held[i]);
      r->held[i] = NULL;
    }
}

/* A buffer for the next block: the oldest held goes back once hashed. */
static gpg_error_t
seipd1_next_buffer (seipd1_reader *r)
{
  uint8_t *oldest = r->held[SEIPD1_HELD - 1];

  if (oldest)
    {
      pl_seipd1_decrypt_unpin (&r->st, oldest, PLAINTEXT_BUFFER_SIZE);
      pl_writer_release (r->out, oldest);
    }
  memmove (r->held + 1, r->held, (SEIPD1_HELD - 1) * sizeof r->held[0]);
  r->held[0] = NULL;
  return pl_writer_acquire (r->out, &r->held[0]);
}

static gpg_error_t
seipd1_next (pl_reader *self, uint8_t **data, size_t *len)
{
  seipd1_reader *r = (seipd1_reader *) self;
  size_t used = 0;
  gpg_error_t err;

  *len = 0;
  while (!r->ended)
    {
      uint8_t *p, *rel;
      size_t n, rellen;

      if (!r->eof && used < PL_BLOCK_SIZE)
        {
          err = pl_cursor_take (r->in, PL_BLOCK_SIZE - used, &p, &n);
          if (err)
            return err;
          r->eof = !n;
          if (n)
            {
              if (!used && (err = seipd1_next_buffer (r)))
                return err;
              /* Pushes into one buffer release one run (seipd.h). */
              err = pl_seipd1_decrypt_push (&r->st, p, n, r->held[0] + used,
                                            &rel, &rellen);
              if (err)
                return err;
              used += n;
              if (!*len)
                *data = rel;
              *len += rellen;
              continue;
            }
        }
      /* The buffer is full, or the body ended: what was released goes
       * out first (hashed meanwhile); the MDC is checked at the call
       * after. */
      if (*len)
        {
          pl_seipd1_decrypt_flush (&r->st);
          return 0;
        }
      if (r->eof)
        {
          r->ended = 1;
          return pl_seipd1_decrypt_finish (&r->st);
        }
      used = 0;
    }
  return 0;
}

/* AEAD body (SEIPD v2 or tag 20), chunk by verified chunk.  The stage
 * hands out chunks from two buffers of its own in turn; read_literal
 * writes every block it takes before it takes the next, which is the
 * writer's contract for such a producer (pipeline.h).  Chunks are at
 * least 64 octets, so each holds literal data or ends the packet. */
typedef struct
{
  pl_reader base;
  pl_cursor *in;
  pl_aead_stream *s;
  pl_aead_parallel *par;        /* over S, on the job's threads */
  int stable;                   /* large blocks are borrowed from memory */
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
      if (!n)
        {
          err = pl_aead_parallel_finish (r->par, &out, &outlen);
          /* The stage hands out what is pending one call at a time. */
          r->ended = !err && !outlen;
        }
      else
        {
          /* A block no larger than a coalesced one may be the packet
           * body's own copy (packet.h), which does not stay. */
          err = pl_aead_parallel_push (r->par, p, n,
                                       r->stable && n > PL_PACKET_COALESCE,
                                       &used, &out, &outlen);
          r->in->p += used;
          r->in->n -= used;
        }
      if (err)
        return err;
      if (outlen)
        {
          *data = (uint8_t *) out;
          *len = outlen;
          return 0;
        }
    }
  return 0;
}

/* A Compressed Data body, inflated into the writer's buffers. */
typedef struct
{
  pl_reader base;
  pl_cursor *in;
  pl_inflate z;
  pl_writer *out;
  uint8_t *held;                /* the block handed out last */
  int ended;
  decrypt_job *j;
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
      if (!err)
        err = pl_cursor_peek (r->in, &p, &n);
      if (!err && !r->held)
        err = pl_writer_acquire (r->out, &r->held);
      if (err)
        return err;
      /* At the end of input the decompressor may still hold output
       * (bzip2 keeps up to a 900k block): push until it has none. */
      err = pl_inflate_push (&r->z, n ? p : NULL, n, &used, r->held,
                             PL_BLOCK_SIZE, &produced);
      if (err)
        return err;
      r->in->p += used;
      r->in->n -= used;
      if (produced)
        {
          *data = r->held;
          *len = produced;
          /* Ours again at the next call, once a write from it is done. */
          pl_writer_release (r->out, r->held);
          r->held = NULL;
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
read_to_end (pl_cursor *c)
{
  uint8_t *p;
  size_t n;
  gpg_error_t err;

  do
    err = pl_cursor_take (c, SIZE_MAX, &p, &n);
  while (!err && n);
  return err;
}

static gpg_error_t parse_plaintext (decrypt_job *j, pl_cursor *in, int depth);

/* Copies P, N to DST turning CRLF into LF, and returns the new length.
 * A CR that ends the block is dropped and flagged in *CR_PENDING:
 * whether it was part of a CRLF shows only in the next block. */
static size_t
crlf_to_lf (uint8_t *dst, const uint8_t *p, size_t n, int *cr_pending)
{
  size_t o = 0, i = 0;
  const uint8_t *cr;

  while ((cr = memchr (p + i, '\r', n - i)))
    {
      size_t k = (size_t) (cr - (p + i));
      memcpy (dst + o, p + i, k);
      o += k;
      i += k;
      if (i + 1 == n)
        {
          *cr_pending = 1;
          return o;
        }
      if (p[i + 1] != '\n')
        dst[o++] = '\r';
      i++;
    }
  memcpy (dst + o, p + i, n - i);
  return o + n - i;
}

/* Text: P, N with CRLF as LF, through the job's text buffers.  Not
 * in place: SEIPD v1's MDC thread may still be hashing the block
 * (seipd.h), which must stay as decrypted until it is unpinned. */
static gpg_error_t
write_text (decrypt_job *j, const uint8_t *p, size_t n, int *cr_pending)
{
  gpg_error_t err = 0;

  while (n && !err)
    {
      size_t k = n < PL_BLOCK_SIZE ? n : PL_BLOCK_SIZE;
      uint8_t *buf;

      if (*cr_pending && p[0] != '\n')
        err = write_plaintext (j, (const uint8_t *) "\r", 1);
      *cr_pending = 0;
      if (err)
        return err;
      if (!j->text_buf[j->text_next])
        j->text_buf[j->text_next] = pl_buffer_take (PL_BLOCK_SIZE);
      buf = j->text_buf[j->text_next];
      if (!buf)
        return gpg_error_from_syserror ();
      j->text_next = (j->text_next + 1) % TEXT_BUFFERS;
      err = write_plaintext (j, buf, crlf_to_lf (buf, p, k, cr_pending));
      p += k;
      n -= k;
    }
  return err;
}

/* A signed SEIPD v1 message on two cores has three chains: CFB (with
 * the sink's writes), the MDC's SHA-1 and the signature's hash.  As
 * three threads, each hasher on its own, a signed decryption ran at
 * 0.84-0.86 of the unsigned speed against a stage bound of 0.91
 * (bench/sig-speed; encrypt.c tells the same of encryption).  So both
 * hashes go to one worker, and this thread runs the tasks it lends
 * whenever it would wait for it (seipd.h, pl_seipd1_decrypt_share_hasher;
 * sighash.h): two threads for three chains.  On more cores each hasher
 * keeps a thread. */
static void
share_hashes (decrypt_job *j)
{
  if (!j->seipd1 || pl_job_threads (j->ctl) != 2
      || pl_worker_start_shared (&j->hashes, PL_WORKER_DEPTH_MAX))
    return;
  pl_worker_name (&j->hashes, "pl-hashes");
  pl_seipd1_decrypt_share_hasher (j->seipd1, &j->hashes);
  pl_sig_hasher_share_worker (&j->sig_hasher, &j->hashes);
}

/* The literal data begins: the hashes the signatures announced so far
 * (none: no hasher) go to the signature hasher, which the writer then
 * watches, since the hasher reads the writer's buffers. */
static gpg_error_t
start_sig_hash (decrypt_job *j)
{
  gpg_error_t err = 0;

  pl_verifier_data_begin (&j->verifier);
  pl_sig_hasher_init (&j->sig_hasher, pl_job_threads (j->ctl),
                      j->ctl ? j->ctl->cancel : NULL);
  for (size_t i = 0; !err && i < j->verifier.n_hashes; i++)
    err = pl_sig_hasher_add (&j->sig_hasher, &j->verifier.h[i]);
  if (!err && pl_sig_hasher_active (&j->sig_hasher))
    {
      share_hashes (j);
      pl_writer_watch (&j->writer, pl_sig_hasher_reading,
                       pl_sig_hasher_unpin, &j->sig_hasher);
    }
  return err;
}

/* A block of literal data, as stored (the signatures cover it before the
 * LF output), to the signature hasher: held while the writer owns its
 * buffer (SEIPD v1's and inflate's blocks), else borrowed until the next
 * take (*BORROWED set). */
static gpg_error_t
hash_signed (decrypt_job *j, const uint8_t *p, size_t n, int *borrowed)
{
  *borrowed = 0;
  if (!pl_sig_hasher_active (&j->sig_hasher))
    return 0;
  *borrowed = !pl_writer_owns (&j->writer, p, n);
  return pl_sig_hasher_push (&j->sig_hasher, p, n,
                             *borrowed ? PL_SPAN_BORROWED : PL_SPAN_HELD);
}

/* 1 when P, N (literal data just written) lies in the read-ahead's
 * buffers, which a signed message not encrypted hands out as they are:
 * the one before it is refilled at the next take, while the writer's
 * thread may still be writing from it (pipeline.h: a write from memory
 * not the writer's is read until the next write returns).  Such a block
 * is waited for before the next take. */
static int
unencrypted_read_block (decrypt_job *j, const uint8_t *p, size_t n)
{
  return j->opts->signed_only && !j->src->borrow
         && !pl_writer_owns (&j->writer, p, n);
}

static gpg_error_t
read_literal (decrypt_job *j, pl_packet_body *body)
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
  err = start_sig_hash (j);
  for (int borrowed = 0; !err;)
    {
      uint8_t *p;
      size_t n;

      /* A borrowed span changes at the take (sighash.h). */
      if (borrowed && (err = pl_sig_hasher_wait (&j->sig_hasher)))
        return err;
      err = pl_cursor_take (&c, SIZE_MAX, &p, &n);
      if (err)
        return err;
      if (!n)
        break;
      err = hash_signed (j, p, n, &borrowed);
      /* Even when nothing is left of it (a lone CR): the writer's
       * contract for the AEAD stage wants a write per block. */
      if (!err)
        err = text ? write_text (j, p, n, &cr_pending)
                   : write_plaintext (j, p, n);
      if (!err && !text && unencrypted_read_block (j, p, n))
        err = pl_writer_finish (&j->writer);
    }
  if (!err && cr_pending)
    err = write_plaintext (j, (const uint8_t *) "\r", 1);
  if (!err)
    err = pl_writer_finish (&j->writer);
  /* The verdicts read the hashes. */
  if (!err)
    err = pl_sig_hasher_wait (&j->sig_hasher);
  return err;
}

static gpg_error_t
read_compressed (decrypt_job *j, pl_packet_body *body, int depth)
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
  pl_inflate_set_expansion_floor (&r.z, j->opts->expansion_floor);
  /* Inflate is this thread's long chain: the writes go to the writer's
   * thread (seipd1_share_cores). */
  pl_writer_set_threaded (&j->writer, 1);
  r.base.next = inflate_next;
  r.out = &j->writer;
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
  pl_writer_release (&j->writer, r.held);
  pl_inflate_clear (&r.z);
  return err;
}

/* A one-pass signature or signature packet: to the verifier when there
 * are certificates to verify with, else skipped unread. */
static gpg_error_t
read_signature_packet (decrypt_job *j, pl_packet_body *body)
{
  uint8_t *buf;
  size_t n;
  gpg_error_t err;

  j->result->signed_inside = 1;
  if (!j->verifying)
    return pl_packet_skip (body);
  buf = malloc (SIG_PACKET_MAX);
  if (!buf)
    return gpg_error (GPG_ERR_ENOMEM);
  err = pl_packet_read_all (body, buf, SIG_PACKET_MAX, &n);
  if (!err && body->tag == PL_PKT_ONEPASS_SIG)
    err = pl_verifier_onepass (&j->verifier, buf, n);
  else if (!err)
    err = pl_verifier_signature (&j->verifier, buf, n);
  free (buf);
  return err;
}

/* One packet inside the encryption (or a compression) layer. */
static gpg_error_t
read_plaintext_packet (decrypt_job *j, pl_packet_body *body, int depth)
{
  switch (body->tag)
    {
    case PL_PKT_LITERAL:
      return read_literal (j, body);
    case PL_PKT_COMPRESSED:
      return read_compressed (j, body, depth);
    case PL_PKT_ONEPASS_SIG:
    case PL_PKT_SIGNATURE:
      return read_signature_packet (j, body);
    default:
      return pl_packet_skippable (body->tag) ? pl_packet_skip (body)
                                             : gpg_error (GPG_ERR_BAD_DATA);
    }
}

/* Packets inside the encryption (or a compression) layer. */
static gpg_error_t
parse_plaintext (decrypt_job *j, pl_cursor *in, int depth)
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
      err = read_plaintext_packet (j, &body, depth);
      if (err && !depth)
        j->top_left = body.until_eof ? INT64_MAX
                      : body.partial ? -1 : (int64_t) body.remaining;
      if (err)
        return err;
    }
  if (!depth && !j->have_literal)
    return gpg_error (GPG_ERR_NO_DATA);
  return 0;
}

static void
keep_session_key (decrypt_job *j, const uint8_t *key, size_t keylen)
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
try_candidates (decrypt_job *j, pl_key_candidates *c, open_fn open,
                void *stage)
{
  for (;;)
    {
      const uint8_t *key;
      size_t keylen = 0;
      int algo = 0, retryable = 0;
      gpg_error_t err = pl_key_candidates_next (c, &key, &keylen, &algo);

      if (gpg_err_code (err) == GPG_ERR_EOF)
        {
          pl_key_candidates_recipients (c, j->result->recipients,
                                        sizeof j->result->recipients);
          return pl_key_candidates_failure (c);
        }
      if (err)
        return err;
      err = open (stage, key, keylen, algo, &retryable);
      if (!err)
        {
          keep_session_key (j, key, keylen);
          pl_key_candidates_warning (c, j->result->key_warning,
                                     sizeof j->result->key_warning);
          return 0;
        }
      if (!retryable)
        return err;
      pl_key_candidates_reject (c, err);
    }
}

/* try_candidates, while the output's pages are made on another core
 * (prealloc.h): the S2K, Argon2 or the agent take a while.  The input's
 * size is the guess at the output's. */
static gpg_error_t
open_with_candidates (decrypt_job *j, pl_key_candidates *c, open_fn open,
                      void *stage)
{
  pl_prealloc *room = pl_prealloc_for_keys (j->sink, j->src, j->ctl,
                                            j->opts->openers,
                                            j->opts->n_openers);
  gpg_error_t err = try_candidates (j, c, open, stage);
  pl_prealloc_stop (room);
  if (!err)
    start_moving (j);
  return err;
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

/* On two cores SEIPD v1 decryption of an input lent in place is two
 * chains (bench/README.md, the stage model): SHA-1 on the hasher's
 * thread, and map-in, CFB and the sink writes on this one, about as
 * long.  A writer thread as well would be a third thread time-sliced
 * with those two, with a wake-up for every block, so the writes stay
 * here; on more cores the writer has a thread of its own, and so it
 * has beside a read-ahead thread (armor, a pipe: three threads anyway,
 * bench/STAGES.md).  Inflate, far slower than SHA-1, gives the writes
 * back to the thread (read_compressed). */
static void
seipd1_share_cores (decrypt_job *j)
{
  if (pl_job_threads (j->ctl) == 2 && !j->ra.threaded)
    pl_writer_set_threaded (&j->writer, 0);
}

static gpg_error_t
decrypt_seipd1 (decrypt_job *j, pl_key_candidates *c, pl_cursor *bc)
{
  seipd1_reader r;
  seipd1_opening opening;
  pl_seipd1_stats stats;
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
  j->top_left = -1;
  opening.st = &r.st;
  opening.in = bc;
  pl_key_candidates_for_data (c, PL_DATA_SEIPD1);
  err = open_with_candidates (j, c, seipd1_open, &opening);
  if (err)
    goto leave;
  j->result->cipher_algo = opening.cipher_algo;

  pl_seipd1_set_threads (&r.st, pl_job_threads (j->ctl));
  seipd1_share_cores (j);
  j->seipd1 = &r.st;
  r.base.next = seipd1_next;
  r.in = bc;
  r.out = &j->writer;
  pl_cursor_init (&inner, &r.base);
  err = parse_plaintext (j, &inner, 0);
  /* The body ended with no MDC packet: too short to hold one, or the
   * packet inside runs exactly to its end, claiming every octet held
   * back for the MDC.  Stripped, or never written: that is no integrity
   * protection, not a file cut short nor one tampered with (issue 19
   * §9).  A wrong MDC, or a packet that claims only some of those
   * octets (a length changed), stays a checksum error. */
  if ((gpg_err_code (err) == GPG_ERR_TRUNCATED
       || gpg_err_code (err) == GPG_ERR_CHECKSUM)
      && r.ended && !pl_seipd1_mdc_present (&r.st)
      && (r.st.held_len < PL_MDC_PACKET_LEN || j->top_left == INT64_MAX
          || j->top_left == (int64_t) r.st.held_len))
    err = gpg_error (PL_ERR_UNPROTECTED);
  if (!err && !r.ended)
    {
      /* The literal ended before the body did: read to the MDC. */
      err = read_to_end (&inner);
      if (!err)
        err = gpg_error (GPG_ERR_BAD_DATA);
    }

 leave:
  /* The MDC thread first: it may still hash a buffer held.  A shared
   * worker (share_hashes) waits until the job's end. */
  pl_seipd1_get_stats (&r.st, &stats);
  j->result->mdc_hashed_shared += stats.on_shared;
  pl_seipd1_clear (&r.st);
  j->seipd1 = NULL;
  seipd1_reader_release (&r);
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
decrypt_aead (decrypt_job *j, pl_key_candidates *c, pl_cursor *bc,
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
      || (format == PL_AEAD_FORMAT_OCB_ENCRYPTED && head[0] != 1))
    return gpg_error (GPG_ERR_UNKNOWN_VERSION);
  err = pl_cursor_read (bc, head + 4, head_len - 4);
  if (err)
    return pl_cursor_truncated (err);
  err = pl_aead_header_parse (&h, format, head, head_len, &used);
  if (err)
    return err;
  j->result->data_kind = format == PL_AEAD_FORMAT_SEIPD2 ? PL_DATA_SEIPD2
                                                         : PL_DATA_OCB_ENCRYPTED;
  j->result->cipher_algo = h.cipher_algo;
  j->result->aead_algo = h.aead_algo;

  opening.s = &r.s;
  opening.h = &h;
  pl_key_candidates_for_data (c, j->result->data_kind);
  err = open_with_candidates (j, c, aead_open, &opening);
  if (err)
    return err;
  /* Unarmored blocks of an input in memory are borrowed (start_reading)
   * and stay valid as long as the source. */
  r.stable = j->src->borrow && !j->result->armored;
  err = pl_aead_parallel_new (&r.par, r.s,
                              pl_aead_parallel_threads
                                (r.s, pl_job_threads (j->ctl), r.stable));
  if (err)
    {
      pl_aead_stream_free (r.s);
      return err;
    }
  /* The writer may read the stage's chunks as many writes back as the
   * stage keeps them: it then goes from one chunk to the next without
   * waiting for this thread to hand it over (bench/README.md). */
  pl_writer_set_foreign_depth (&j->writer,
                               pl_aead_parallel_keep (r.par,
                                                      PL_WRITER_FOREIGN_MAX));
  r.base.next = aead_next;
  r.in = bc;
  pl_cursor_init (&inner, &r.base);
  err = parse_plaintext (j, &inner, 0);
  if (!err && !r.ended)
    {
      err = read_to_end (&inner);
      if (!err)
        err = gpg_error (GPG_ERR_BAD_DATA);
    }
  /* The writer may still read the stage's last chunks. */
  if (!err)
    err = pl_writer_finish (&j->writer);
  else
    pl_writer_finish (&j->writer);
  pl_writer_set_foreign_depth (&j->writer, 1);
  pl_aead_parallel_free (r.par);
  pl_aead_stream_free (r.s);
  return err;
}

/* The encrypted data packet: the version octet decides between SEIPD
 * v1 and v2. */
static gpg_error_t
decrypt_data_packet (decrypt_job *j, pl_key_candidates *c,
                     pl_packet_body *body)
{
  pl_cursor bc;
  uint8_t *p;
  size_t n;
  gpg_error_t err;

  pl_cursor_init (&bc, &body->base);
  err = pl_cursor_peek (&bc, &p, &n);
  if (!err && !n)
    err = gpg_error (GPG_ERR_TRUNCATED);
  if (err)
    return err;
  if (body->tag == PL_PKT_OCB_ENCRYPTED)
    return decrypt_aead (j, c, &bc, PL_AEAD_FORMAT_OCB_ENCRYPTED);
  if (p[0] == 1)
    return decrypt_seipd1 (j, c, &bc);
  if (p[0] == 2)
    return decrypt_aead (j, c, &bc, PL_AEAD_FORMAT_SEIPD2);
  return gpg_error (GPG_ERR_UNKNOWN_VERSION);
}

/* One packet of the message, before the encrypted data; *HAVE_DATA is set
 * once that was decrypted. */
static gpg_error_t
read_outer_packet (decrypt_job *j, pl_key_candidates *c,
                   pl_packet_body *body, int *have_data)
{
  /* A signed message (inline-verify): its packets, as inside. */
  if (j->opts->signed_only)
    {
      if (pl_key_packet_tag (body->tag) || body->tag == PL_PKT_SEIPD
          || body->tag == PL_PKT_OCB_ENCRYPTED || body->tag == PL_PKT_SED)
        return gpg_error (GPG_ERR_BAD_DATA);
      start_moving (j);
      return read_plaintext_packet (j, body, 0);
    }
  if (pl_key_packet_tag (body->tag))
    return pl_key_candidates_add_packet (c, body);
  switch (body->tag)
    {
    case PL_PKT_SED:
      return gpg_error (PL_ERR_UNPROTECTED);
    case PL_PKT_SEIPD:
    case PL_PKT_OCB_ENCRYPTED:
      *have_data = 1;
      return decrypt_data_packet (j, c, body);
    case PL_PKT_LITERAL:
    case PL_PKT_COMPRESSED:
    case PL_PKT_ONEPASS_SIG:
    case PL_PKT_SIGNATURE:
      return gpg_error (GPG_ERR_NOT_ENCRYPTED);
    default:
      return pl_packet_skippable (body->tag) ? pl_packet_skip (body)
                                             : gpg_error (GPG_ERR_INV_PACKET);
    }
}

/* The message's packets: key packets, the encrypted data, padding. */
static gpg_error_t
read_message (decrypt_job *j)
{
  pl_key_candidates *c = NULL;
  int have_data = 0;
  gpg_error_t err = pl_key_candidates_new (&c, j->opts, j->ctl);

  while (!err)
    {
      pl_packet_body body;

      err = pl_packet_begin (&j->message, &body);
      if (gpg_err_code (err) == GPG_ERR_EOF)
        {
          err = have_data || (j->opts->signed_only && j->have_literal)
                ? 0 : gpg_error (GPG_ERR_NO_DATA);
          break;
        }
      if (err)
        break;
      if (!have_data)
        err = read_outer_packet (j, c, &body, &have_data);
      /* Only padding may follow the encrypted data. */
      else if (!pl_packet_skippable (body.tag))
        err = gpg_error (GPG_ERR_BAD_DATA);
      else
        err = pl_packet_skip (&body);
    }
  pl_key_candidates_free (c);
  return err;
}

/* The first block decides: armor, or binary packets.  Then reading (and
 * dearmoring) goes to the read-ahead, on a thread of its own for a large
 * input when the budget allows.  From there on only that thread touches
 * the source and the armor decoder. */
static gpg_error_t
start_reading (decrypt_job *j)
{
  int64_t size = j->src->size;
  int threaded = pl_job_threads (j->ctl) > 1
                 && (size < 0 || size > PL_BLOCK_SIZE);
  uint8_t *p;
  size_t n;
  gpg_error_t err;

  j->source.base.next = source_next;
  j->source.j = j;
  if (!j->src->borrow)
    {
      j->source.buf[0] = pl_buffer_take (PL_BLOCK_SIZE);
      j->source.buf[1] = pl_buffer_take (PL_BLOCK_SIZE);
      if (!j->source.buf[0] || !j->source.buf[1])
        return gpg_error (GPG_ERR_ENOMEM);
    }
  pl_cursor_init (&j->source_cursor, &j->source.base);
  err = pl_cursor_peek (&j->source_cursor, &p, &n);
  if (err)
    return err;
  if (!n)
    return gpg_error (GPG_ERR_NO_DATA);
  if (pl_armor_detect (p, n))
    {
      j->result->armored = 1;
      j->armor.in = &j->source_cursor;
      pl_armor_decoder_init (&j->armor.dec);
      err = pl_read_ahead_init (&j->ra, read_armor, &j->armor,
                                PL_BLOCK_SIZE, threaded);
    }
  else if (!(p[0] & 0x80))
    return gpg_error (GPG_ERR_BAD_DATA);
  else
    {
      /* Ciphertext in pl_read_size blocks, which the AEAD stage takes
       * piece by piece.  An input in memory is borrowed: no copy, no
       * thread (which would only make the copy on the other core). */
      if (j->src->borrow)
        pl_read_ahead_init_borrowing (&j->ra, borrow_source, j,
                                      PL_READ_SIZE);
      else
        err = pl_read_ahead_init (&j->ra, read_source, j,
                                  pl_read_size (threaded), threaded);
      /* The block already read comes first. */
      pl_read_ahead_unread (&j->ra, p, n);
      j->source_cursor.n = 0;
    }
  j->ra_reader.base.next = read_ahead_next;
  j->ra_reader.ra = &j->ra;
  pl_cursor_init (&j->message, &j->ra_reader.base);
  return err;
}

static gpg_error_t
decrypt_message (decrypt_job *j)
{
  gpg_error_t err = start_reading (j);

  if (!err)
    err = read_message (j);
  if (!err)
    err = pl_writer_finish (&j->writer);
  /* Read to the END line so that the CRC is checked. */
  if (!err && j->result->armored)
    err = read_to_end (&j->message);
  if (!err)
    err = pl_job_check_cancel (j->ctl);
  if (!err && j->verifying && j->opts->find_cert)
    pl_verifier_lookup (&j->verifier, j->opts->find_cert,
                        j->opts->find_cert_data, j->found_certs);
  if (!err && j->verifying)
    pl_verifier_finish (&j->verifier, (uint32_t) time (NULL),
                        &j->result->verifications);
  /* Unencrypted, the signature is the message's only authentication:
   * a good one, or (any_verdict) at least one to show. */
  if (!err && j->opts->signed_only && j->opts->any_verdict)
    {
      if (!j->result->verifications.n && !j->result->verifications.skipped)
        err = gpg_error (GPG_ERR_NOT_ENCRYPTED);
    }
  else if (!err && (j->opts->signed_only || j->opts->require_signature)
           && !pl_verifications_good (&j->result->verifications))
    err = gpg_error (GPG_ERR_BAD_SIGNATURE);
  return err;
}

static void
record_sig_hash (decrypt_job *j)
{
  pl_sig_hasher_stats st;

  pl_sig_hasher_get_stats (&j->sig_hasher, &st);
  j->result->sig_hashed_on_thread = st.on_thread;
  j->result->sig_hashed_on_caller = st.on_caller;
  j->result->sig_hash_handed = st.handed;
}

gpg_error_t
pl_decrypt (pl_source *src, pl_sink *sink, const pl_decrypt_options *opts,
            pl_decrypt_result *result, const pl_job_control *ctl)
{
  pl_decrypt_result ignored;
  decrypt_job *j = calloc (1, sizeof *j);
  gpg_error_t err = 0;

  if (!result)
    result = &ignored;
  memset (result, 0, sizeof *result);
  if (!j)
    err = gpg_error (GPG_ERR_ENOMEM);
  else if (!opts
           || ((!opts->n_openers || !opts->openers) && !opts->signed_only))
    err = gpg_error (GPG_ERR_NO_KEY);
  if (err)
    {
      sink->abort (sink);
      free (j);
      return err;
    }
  pthread_mutex_init (&j->report_lock, NULL);
  j->src = src;
  j->sink = sink;
  j->opts = opts;
  j->result = result;
  j->ctl = ctl;
  j->verifying = opts->n_verify_certs > 0 || opts->find_cert;
  pl_verifier_init (&j->verifier, opts->verify_certs, opts->n_verify_certs);
  /* Certificates found at the end (pl_verifier_lookup): every signature
   * is hashed, its signer unknown until then. */
  j->verifier.certs_final = !opts->find_cert;
  pl_writer_init (&j->writer, emit_plaintext, sink, PLAINTEXT_BUFFER_SIZE,
                  pl_job_threads (ctl) > 1);
  err = decrypt_message (j);
  if (!err)
    err = pl_source_check (src);
  if (!err)
    err = sink->commit (sink);
  pl_read_ahead_clear (&j->ra);
  /* Before the writer's buffers it reads and the hashes it writes. */
  pl_worker_stop (&j->hashes);
  pl_sig_hasher_clear (&j->sig_hasher);
  record_sig_hash (j);
  pl_verifier_clear (&j->verifier);
  /* Before the abort: the writer may still be in a sink write. */
  pl_writer_clear (&j->writer);
  if (err)
    sink->abort (sink);
  for (int i = 0; i < TEXT_BUFFERS; i++)
    pl_buffer_give (j->text_buf[i], PL_BLOCK_SIZE, PL_BLOCK_SIZE);
  /* The message as read: nothing to wipe. */
  pl_buffer_give (j->source.buf[0], PL_BLOCK_SIZE, 0);
  pl_buffer_give (j->source.buf[1], PL_BLOCK_SIZE, 0);
  pthread_mutex_destroy (&j->report_lock);
  free (j);
  return err;
}
