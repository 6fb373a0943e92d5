/* encrypt.c - the encrypt job
 *
 *   source ─► read-ahead ─► literal framing ─► [deflate ─► compressed
 *          framing] ─► SEIPD v1 (CFB + MDC) │ SEIPD v2 │ tag 20
 *          ─► packet framing ─► writer: [armor] ─► sink
 *
 * The stages are a short chain of writers, local to this file, around
 * the push stages of seipd.c, aead.c, compress.c and armor.c, between
 * the read-ahead and the writer of pipeline.h.  When the input's size is
 * known and nothing is compressed, every length is definite and the data
 * goes from the read-ahead's buffer through the cipher into the output
 * buffer with no other copy.  From a pipe, packets get partial body
 * lengths, as GnuPG writes them.
 */
#include "job.h"
#include "buffers.h"
#include "sighash.h"
#include "sign.h"
#include "algo.h"
#include "armor.h"
#include "aead.h"
#include "aead-parallel.h"
#include "compress.h"
#include "keys.h"
#include "packet.h"
#include "pipeline.h"
#include "seipd.h"
#include "prealloc.h"
#include "skesk.h"
#include "keyroom.h"

#include <stdlib.h>
#include <string.h>
#include <time.h>
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

/* The end of the chain: the pipeline's writer, which armors (when asked)
 * and writes to the sink, on its own thread when the budget allows, so
 * that both overlap the cipher. */
typedef struct
{
  writer base;
  pl_writer writer;
  pl_sink *sink;
  int armor;
  /* AEAD: the armor is made on the job's thread, into the writer's
   * buffers, ARMOR_IN octets at a time, and the writer's thread only
   * writes.  The writer's thread had the longer chain there: the
   * encoding and the writes of 1.37 times the octets, alone on a core
   * for 64% of the wall of librepgp's armored encryption, while the job
   * thread and the AEAD worker, at 0.2 s of 0.53, slept (bench/timeline,
   * 512 MiB).  SEIPD v1 keeps it on the writer's thread: there the job's
   * thread is CFB's long chain. */
  int armor_here;
  size_t armor_in;
  pl_armor_encoder enc;
  char *armored;                /* a block's armored text */
} output_writer;

/* Armors (when asked, and not armor_here) and writes: the whole of the
 * output's work, on the writer's thread or the caller's, one call at a
 * time. */
static gpg_error_t
emit_output (void *arg, const uint8_t *p, size_t n)
{
  output_writer *w = arg;

  if (!w->armor || w->armor_here)
    return w->sink->write (w->sink, p, n);
  while (n)
    {
      size_t k = n < PL_BLOCK_SIZE ? n : PL_BLOCK_SIZE;
      size_t len = pl_armor_encoder_push (&w->enc, p, k, w->armored);
      gpg_error_t err = w->sink->write (w->sink, w->armored, len);
      if (err)
        return err;
      p += k;
      n -= k;
    }
  return 0;
}

static gpg_error_t
output_write (writer *self, const uint8_t *p, size_t n)
{
  output_writer *w = (output_writer *) self;

  if (!w->armor_here)
    return pl_writer_write (&w->writer, p, n);
  /* P, N is read here and now: the writer only sees its own buffers. */
  while (n)
    {
      size_t k = n < w->armor_in ? n : w->armor_in;
      uint8_t *b;
      gpg_error_t err = pl_writer_acquire (&w->writer, &b);

      if (err)
        return err;
      err = pl_writer_write (&w->writer, b,
                             pl_armor_encoder_push (&w->enc, p, k,
                                                    (char *) b));
      pl_writer_release (&w->writer, b);
      if (err)
        return err;
      p += k;
      n -= k;
    }
  return 0;
}

static gpg_error_t
output_finish (writer *self)
{
  output_writer *w = (output_writer *) self;
  gpg_error_t err = pl_writer_finish (&w->writer);

  if (!err && w->armor)
    err = w->sink->write (w->sink, w->armored,
                          pl_armor_encoder_finish (&w->enc, w->armored));
  return err;
}

/* Packet framing: a definite length up front, or partial chunks, which
 * are gathered in a buffer of the writer's. */
typedef struct
{
  writer base;
  pl_writer *out;
  int tag;
  int partial;
  int started;
  uint8_t *buf;                 /* partial: PARTIAL_LEN, acquired */
  size_t len;
} frame_writer;

/* Sends the full partial chunk on; its buffer goes back to the writer. */
static gpg_error_t
frame_flush_chunk (frame_writer *w)
{
  uint8_t hdr[2];
  size_t hl;
  gpg_error_t err;

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
  pl_writer_release (w->out, w->buf);
  w->buf = NULL;
  w->len = 0;
  return err;
}

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
      if (w->len == PARTIAL_LEN && (err = frame_flush_chunk (w)))
        return err;
      if (!w->buf && (err = pl_writer_acquire (w->out, &w->buf)))
        return err;
      k = PARTIAL_LEN - w->len < n ? PARTIAL_LEN - w->len : n;
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
  gpg_error_t err = 0;

  if (w->partial)
    {
      if (!w->started)
        hl = pl_packet_write_header (hdr, w->tag, w->len);
      else
        hl = pl_packet_write_length (hdr, w->len);
      err = w->base.next->write (w->base.next, hdr, hl);
      if (!err && w->len)
        err = w->base.next->write (w->base.next, w->buf, w->len);
      pl_writer_release (w->out, w->buf);
      w->buf = NULL;
      if (err)
        return err;
    }
  return w->base.next->finish (w->base.next);
}

/* Starts a packet: with a known body length, writes the header now. */
static gpg_error_t
frame_start (frame_writer *w, writer *next, pl_writer *out, int tag,
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
  return 0;
}

/* SEIPD v1: MDC hash and CFB, into a buffer of the writer's per block. */
typedef struct
{
  writer base;
  pl_writer *out;
  pl_seipd1 st;
} seipd1_writer;

static gpg_error_t
seipd1_write (writer *self, const uint8_t *p, size_t n)
{
  seipd1_writer *w = (seipd1_writer *) self;

  while (n)
    {
      size_t k = n < PL_BLOCK_SIZE ? n : PL_BLOCK_SIZE;
      uint8_t *b;
      gpg_error_t err = pl_writer_acquire (w->out, &b);

      if (err)
        return err;
      err = pl_seipd1_encrypt_push (&w->st, p, b, k);
      if (!err)
        err = w->base.next->write (w->base.next, b, k);
      pl_writer_release (w->out, b);
      if (err)
        return err;
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

/* AEAD chunks, on the job's threads (aead-parallel.h).  The stage seals
 * into buffers of its own and every chunk it hands out is written at
 * once: the writer's contract for such a producer (pipeline.h), so
 * nothing here waits.  [STABLE_LO, STABLE_HI) is the block borrowed from
 * an input in memory, if any: octets from there stay valid, and the
 * stage reads them in place. */
typedef struct
{
  writer base;
  pl_aead_stream *s;
  pl_aead_parallel *par;
  const uint8_t *stable_lo, *stable_hi;
} aead_writer;

static gpg_error_t
aead_write (writer *self, const uint8_t *p, size_t n)
{
  aead_writer *w = (aead_writer *) self;
  int stable = p >= w->stable_lo && p + n <= w->stable_hi;

  while (n)
    {
      const uint8_t *out;
      size_t used = 0, outlen = 0;
      gpg_error_t err = pl_aead_parallel_push (w->par, p, n, stable, &used,
                                               &out, &outlen);
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
  gpg_error_t err;

  for (;;)
    {
      const uint8_t *out;
      size_t outlen = 0;

      err = pl_aead_parallel_finish (w->par, &out, &outlen);
      if (err || !outlen)
        break;
      err = w->base.next->write (w->base.next, out, outlen);
      if (err)
        return err;
    }
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

/* Signing: above the literal frame, every data octet into each signer's
 * hash (SIGNERS set); below it, after the literal packet, the signature
 * packets, innermost first. */
typedef struct
{
  writer base;
  pl_data_signer *signers;
  size_t n;
  /* The signers' hashes, on a thread of its own (sighash.h); HELD: the
   * blocks stay as they are until the job ends (an input in memory),
   * else they change at the next read, and the hashing of each ends
   * before this write returns, having overlapped the cipher's. */
  pl_sig_hasher *hasher;
  int held;
  /* Signing only, the literal packet goes straight to the output, whose
   * thread reads a block it did not lend until the next write returns
   * (pipeline.h): a block that changes at the next read is waited for
   * too.  NULL when encrypting (the cipher copies). */
  pl_writer *direct;
} sign_writer;

static gpg_error_t
sign_hash_write (writer *self, const uint8_t *p, size_t n)
{
  sign_writer *w = (sign_writer *) self;
  gpg_error_t err = pl_sig_hasher_push (w->hasher, p, n, w->held
                                        ? PL_SPAN_HELD : PL_SPAN_BORROWED);

  if (!err)
    err = w->base.next->write (w->base.next, p, n);
  if (!err && !w->held)
    err = pl_sig_hasher_wait (w->hasher);
  if (!err && !w->held && w->direct)
    err = pl_writer_finish (w->direct);
  return err;
}

static gpg_error_t
sign_pass_write (writer *self, const uint8_t *p, size_t n)
{
  return self->next->write (self->next, p, n);
}

static gpg_error_t
sign_pass_finish (writer *self)
{
  return self->next->finish (self->next);
}

/* One packet (header and BODY) into W. */
static gpg_error_t
write_packet (writer *w, int tag, const uint8_t *body, size_t n)
{
  uint8_t hdr[6];
  size_t hl = pl_packet_write_header (hdr, tag, n);
  gpg_error_t err = w->write (w, hdr, hl);

  return err ? err : w->write (w, body, n);
}

static gpg_error_t
sign_tail_finish (writer *self)
{
  sign_writer *w = (sign_writer *) self;
  uint8_t *body = malloc (PL_SIG_BODY_MAX);
  size_t n;
  gpg_error_t err = body ? 0 : gpg_error (GPG_ERR_ENOMEM);

  if (!err)
    err = pl_sig_hasher_wait (w->hasher);
  for (size_t i = w->n; i-- > 0 && !err;)
    {
      err = pl_data_signer_finish (&w->signers[i], body, &n);
      if (!err)
        err = write_packet (w->base.next, PL_PKT_SIGNATURE, body, n);
    }
  free (body);
  return err ? err : w->base.next->finish (w->base.next);
}

/* The job: its options, the chain of writers and the read-ahead. */
typedef struct
{
  pl_encrypt_options o;
  const pl_job_control *ctl;
  pl_source *src;
  size_t keylen;
  uint8_t *key;                 /* secure: PL_SESSION_KEY_MAX */
  /* The literal packet's header, and the lengths known up front (-1:
   * partial). */
  uint8_t lit_head[PL_LITERAL_HEADER_MAX];
  size_t lit_head_len;
  int64_t lit_body;
  int64_t data_body;
  uint8_t data_head[64];        /* the encrypted data packet's header */
  size_t data_head_len;
  pl_aead_header aead_head;
  int text;                     /* 't' or 'u': to canonical line ends */
  uint8_t *text_buf;
  int last_cr;
  /* The chain, sink end first. */
  output_writer out;
  frame_writer data_frame;
  seipd1_writer seipd1;
  aead_writer aead;
  frame_writer compressed_frame;
  deflate_writer deflate;
  frame_writer literal_frame;
  pl_data_signer *signers;      /* O.n_signers of them */
  pl_sig_hasher sig_hasher;     /* their hashes */
  /* Signing into SEIPD v1 on more than one core: one thread for both the
   * MDC's SHA-1 and the signature's hash (start_encryption). */
  pl_worker hashes;
  sign_writer sign_hash, sign_tail;
  writer *head;
  pl_read_ahead ra;
  /* Overlapping reads (read_overlapping): the last octet of the previous
   * block, to begin the next one. */
  int overlap;
  uint8_t carry;
  int carry_valid;
  /* The passphrases' SKESKs, made beside the data (lock_message), after
   * KEY_OCTETS octets of PKESKs. */
  pl_key_room *room;
  uint64_t key_octets;
} encrypt_job;

static void
encrypt_job_clear (encrypt_job *j)
{
  /* First the threads, which may still read any buffer below. */
  pl_key_room_free (j->room);
  pl_worker_stop (&j->hashes);
  pl_sig_hasher_clear (&j->sig_hasher);
  pl_read_ahead_clear (&j->ra);
  pl_writer_clear (&j->out.writer);
  /* Ciphertext, as text: nothing to wipe. */
  pl_buffer_give (j->out.armored, pl_armor_encoder_bound (PL_BLOCK_SIZE), 0);
  pl_seipd1_clear (&j->seipd1.st);
  pl_aead_parallel_free (j->aead.par);
  pl_aead_stream_free (j->aead.s);
  pl_deflate_clear (&j->deflate.z);
  /* Both held plaintext (compressed, or as text). */
  pl_buffer_give (j->deflate.buf, PL_BLOCK_SIZE, PL_BLOCK_SIZE);
  pl_buffer_give (j->text_buf, 2 * PL_BLOCK_SIZE, 2 * PL_BLOCK_SIZE);
  for (size_t i = 0; j->signers && i < j->o.n_signers; i++)
    pl_data_signer_clear (&j->signers[i]);
  free (j->signers);
  if (j->key)
    {
      pl_wipe (j->key, PL_SESSION_KEY_MAX);
      gcry_free (j->key);
    }
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
  if (o->sign_only ? !o->n_signers : (!o->n_openers || !o->openers))
    return gpg_error (GPG_ERR_NO_KEY);
  for (size_t i = 0; i < o->n_signers; i++)
    if (!pl_sig_can_make (o->signers[i]->pub))
      return gpg_error (GPG_ERR_PUBKEY_ALGO);
  return 0;
}

static size_t
aead_chunk_size (const encrypt_job *j)
{
  return (size_t) 1 << (j->o.chunk_octet + 6);
}

/* The literal packet's header and the encrypted data packet's, and from
 * them the bodies' lengths when every length inside is known. */
static void
plan_packets (encrypt_job *j)
{
  const pl_encrypt_options *o = &j->o;
  pl_literal_header lit;
  uint8_t tmp[6];
  int64_t plain;

  memset (&lit, 0, sizeof lit);
  lit.format = o->literal_format;
  pl_literal_set_name (&lit, o->file_name);
  lit.date = o->file_date;
  j->lit_head_len = pl_literal_write (&lit, j->lit_head);
  j->text = lit.format == 't' || lit.format == 'u';
  j->lit_body = j->data_body = -1;

  if (o->profile == PL_PROFILE_RFC4880)
    {
      j->data_head[0] = 1;
      j->data_head_len = 1;
    }
  else
    {
      pl_aead_header *h = &j->aead_head;
      h->format = o->profile == PL_PROFILE_RFC9580
                  ? PL_AEAD_FORMAT_SEIPD2 : PL_AEAD_FORMAT_OCB_ENCRYPTED;
      h->cipher_algo = o->cipher_algo;
      h->aead_algo = PL_AEAD_OCB;
      h->chunk_octet = o->chunk_octet;
      if (h->format == PL_AEAD_FORMAT_SEIPD2)
        gcry_randomize (h->salt, sizeof h->salt, GCRY_STRONG_RANDOM);
      else
        gcry_create_nonce (h->iv, pl_aead_nonce_length (PL_AEAD_OCB));
      j->data_head_len = pl_aead_header_write (h, j->data_head);
    }

  if (j->src->size < 0 || o->compress_algo || j->text)
    return;
  j->lit_body = (int64_t) j->lit_head_len + j->src->size;
  if ((uint64_t) j->lit_body > DEFINITE_MAX)
    return;
  plain = j->lit_body + (int64_t) pl_packet_write_header
                                    (tmp, PL_PKT_LITERAL,
                                     (uint64_t) j->lit_body);
  if (o->profile == PL_PROFILE_RFC4880)
    j->data_body = (int64_t) j->data_head_len
                   + (int64_t) pl_cipher_block_length (o->cipher_algo) + 2
                   + plain + PL_MDC_PACKET_LEN;
  else
    {
      int64_t chunk = (int64_t) aead_chunk_size (j);
      int64_t chunks = (plain + chunk - 1) / chunk;
      /* One tag per chunk, and the final tag. */
      j->data_body = (int64_t) j->data_head_len + plain + 16 * (chunks + 1);
    }
}

/* The output end: the writer, and armor around it when asked. */
static gpg_error_t
start_output (encrypt_job *j, pl_sink *sink)
{
  output_writer *w = &j->out;

  w->base.write = output_write;
  w->base.finish = output_finish;
  w->sink = sink;
  w->armor = j->o.armor;
  if (w->armor
      && !(w->armored = pl_buffer_take (pl_armor_encoder_bound (PL_BLOCK_SIZE))))
    return gpg_error (GPG_ERR_ENOMEM);
  /* RFC 9580 §6.1: no CRC24 around a v2 message. */
  pl_armor_encoder_init (&w->enc, PL_ARMOR_MESSAGE,
                         j->o.profile != PL_PROFILE_RFC9580);
  pl_writer_init (&w->writer, emit_output, w, PL_BLOCK_SIZE,
                  pl_job_threads (j->ctl) > 1);
  w->armor_here = w->armor && j->o.profile != PL_PROFILE_RFC4880
                  && pl_job_threads (j->ctl) > 1;
  /* Whole lines of input whose armor fits a writer's buffer. */
  for (w->armor_in = PL_BLOCK_SIZE / 65 * 48;
       pl_armor_encoder_bound (w->armor_in) > PL_BLOCK_SIZE;)
    w->armor_in -= 48;
  return 0;
}

static gpg_error_t
emit_key_packet (void *arg, const uint8_t *p, size_t n)
{
  writer *out = arg;
  return out->write (out, p, n);
}

/* A PKESK, counted: the SKESKs' room comes after them. */
static gpg_error_t
emit_counted (void *arg, const uint8_t *p, size_t n)
{
  encrypt_job *j = arg;

  j->key_octets += n;
  return emit_key_packet (&j->out.base, p, n);
}

/* The SKESKs' room, as zeros, for pl_key_room_finish to fill in. */
static gpg_error_t
write_room (encrypt_job *j, size_t len)
{
  static const uint8_t zeros[256];
  gpg_error_t err = 0;

  while (len && !err)
    {
      size_t n = len < sizeof zeros ? len : sizeof zeros;
      err = emit_key_packet (&j->out.base, zeros, n);
      len -= n;
    }
  return err;
}

/* The key packets.  A passphrase's derivation takes a while on one core
 * (keyroom.h): with a random session key, a binary output whose sink
 * can write again and a second thread, the SKESKs are made beside the
 * data; otherwise here, the output's pages made on another thread
 * meanwhile (prealloc.h). */
static gpg_error_t
lock_message (encrypt_job *j, pl_sink *sink)
{
  pl_prealloc *pages;
  size_t later = 0;
  gpg_error_t err;

  if (!j->o.armor && sink->write_at && pl_job_threads (j->ctl) > 1
      && pl_keys_lock_defers (&j->o))
    {
      err = pl_keys_lock_begin (&j->o, j->ctl, j->key, j->keylen, 1,
                                emit_counted, j, &later);
      if (err || !later)
        return err;
      j->room = pl_key_room_start (&j->o, j->ctl, j->key, j->keylen,
                                   j->key_octets, later);
      if (j->room)
        return write_room (j, later);
      return pl_keys_lock_passphrases (&j->o, j->ctl, j->key, j->keylen,
                                       emit_key_packet, &j->out.base);
    }
  pages = pl_prealloc_for_keys (sink, j->src, j->ctl, j->o.openers,
                                j->o.n_openers);
  err = pl_keys_lock (&j->o, j->ctl, j->key, j->keylen, emit_key_packet,
                      &j->out.base);
  pl_prealloc_stop (pages);
  return err;
}

/* The writer may read the AEAD stage's chunks as many writes back as
 * the stage keeps them (pl_aead_parallel_keep, pl_writer_set_foreign_depth):
 * it then goes from one chunk to the next while the stage seals the one
 * after, instead of sleeping after every chunk until the job thread
 * hands the next over (the writer alone for 47% of the wall of OCB
 * encryption, bench/timeline), as decryption does.  A stage on one
 * thread alternates two buffers and keeps 1: nothing changes.  The
 * writer is cleared before the stage is freed (encrypt_job_clear), so
 * no write outlives the chunks it reads. */
static void
aead_queue_writes (encrypt_job *j)
{
  pl_writer_set_foreign_depth (&j->out.writer,
                               pl_aead_parallel_keep (j->aead.par,
                                                      PL_WRITER_FOREIGN_MAX));
}

/* The encrypted data packet and its cipher stage, into J->head. */
static gpg_error_t
start_encryption (encrypt_job *j)
{
  writer *frame = &j->data_frame.base;
  uint8_t prefix[PL_SEIPD1_PREFIX_MAX];
  size_t prefix_len;
  gpg_error_t err;

  err = frame_start (&j->data_frame, &j->out.base, &j->out.writer,
                     j->o.profile == PL_PROFILE_LIBREPGP ? PL_PKT_OCB_ENCRYPTED
                                                         : PL_PKT_SEIPD,
                     j->data_body);
  if (!err)
    err = frame->write (frame, j->data_head, j->data_head_len);
  if (err)
    return err;
  if (j->o.profile != PL_PROFILE_RFC4880)
    {
      j->aead.base.write = aead_write;
      j->aead.base.finish = aead_finish;
      j->aead.base.next = frame;
      j->head = &j->aead.base;
      err = pl_aead_stream_new (&j->aead.s, &j->aead_head, j->key,
                                j->keylen, 1);
      /* Borrowed input reaches the stage in place unless text or
       * compression rewrites it first (see encrypt_blocks). */
      if (!err)
        err = pl_aead_parallel_new (&j->aead.par, j->aead.s,
                                    pl_aead_parallel_threads
                                      (j->aead.s, pl_job_threads (j->ctl),
                                       j->src->borrow && !j->text
                                       && !j->o.compress_algo
                                       && !j->o.n_signers));
      if (!err)
        aead_queue_writes (j);
      return err;
    }
  j->seipd1.base.write = seipd1_write;
  j->seipd1.base.finish = seipd1_finish;
  j->seipd1.base.next = frame;
  j->seipd1.out = &j->out.writer;
  j->head = &j->seipd1.base;
  err = pl_seipd1_encrypt_init (&j->seipd1.st, j->o.cipher_algo, j->key,
                                j->keylen, prefix, &prefix_len);
  pl_seipd1_set_threads (&j->seipd1.st, pl_job_threads (j->ctl));
  /* A borrowed input reaches the stage in place, unless text or
   * compression makes it anew, or partial framing gathers it.  Signing
   * changes nothing there: the one-pass and signature packets, made on
   * the stack, are small pushes, hashed inline after the span pending
   * (seipd.c), so the cipher need not wait for the MDC hasher after each
   * block beside the signature's (bench/sig-speed, signed/unsigned,
   * runs of each in turns: 0.58-0.71 with that wait and 0.65-0.81
   * without at load 2.2, four each; on the idle machine 0.66-0.73 and
   * 0.75-0.82, medians 0.691 and 0.794 of five each). */
  pl_seipd1_set_stable_input (&j->seipd1.st,
                              j->src->borrow && !j->text
                              && !j->o.compress_algo
                              && j->lit_body >= 0
                              && (uint64_t) j->lit_body <= DEFINITE_MAX);
  /* Signed, the job has three chains: CFB, the MDC and the signature's
   * hash.  As three threads on two cores, the kernel kept the job's
   * thread and the signature's on one core, taking turns, while the
   * MDC's left the other half idle (perf sched: the job woke each time
   * the signature's thread ended a span and preempted it), and a signed
   * encryption ran at 0.79-0.85 of the unsigned speed.  So both hashes
   * go to one thread, CFB on the job's beside it. */
  if (!err && j->o.n_signers && pl_job_threads (j->ctl) > 1
      && !pl_worker_start_shared (&j->hashes, PL_SIG_HASHER_DEPTH + 1))
    {
      pl_worker_name (&j->hashes, "pl-hashes");
      pl_seipd1_share_hasher (&j->seipd1.st, &j->hashes);
    }
  return err ? err : frame->write (frame, prefix, prefix_len);
}

/* The one-pass signature packets into J->head, and the signers. */
static gpg_error_t
start_signing (encrypt_job *j)
{
  size_t n = j->o.n_signers;
  uint32_t now = (uint32_t) time (NULL);
  uint8_t ops[PL_ONEPASS_MAX];
  gpg_error_t err = 0;

  if (!(j->signers = calloc (n, sizeof *j->signers)))
    return gpg_error (GPG_ERR_ENOMEM);
  pl_sig_hasher_init (&j->sig_hasher, pl_job_threads (j->ctl),
                      j->ctl ? j->ctl->cancel : NULL);
  pl_sig_hasher_share_worker (&j->sig_hasher, &j->hashes);
  for (size_t i = 0; i < n && !err; i++)
    {
      err = pl_data_signer_init (&j->signers[i], j->o.signers[i], j->text,
                                 now);
      if (!err)
        err = pl_sig_hasher_add (&j->sig_hasher, &j->signers[i].h);
      if (!err)
        err = write_packet (j->head, PL_PKT_ONEPASS_SIG, ops,
                            pl_data_signer_onepass (&j->signers[i],
                                                    i + 1 == n, ops));
    }
  j->sign_tail.base.write = sign_pass_write;
  j->sign_tail.base.finish = sign_tail_finish;
  j->sign_tail.base.next = j->head;
  j->sign_tail.signers = j->signers;
  j->sign_tail.n = n;
  j->sign_tail.hasher = &j->sig_hasher;
  j->head = &j->sign_tail.base;
  return err;
}

/* Compression (when asked) and the literal packet, in front of J->head. */
static gpg_error_t
start_plaintext (encrypt_job *j)
{
  gpg_error_t err;

  if (j->o.compress_algo)
    {
      uint8_t algo = (uint8_t) j->o.compress_algo;

      err = frame_start (&j->compressed_frame, j->head, &j->out.writer,
                         PL_PKT_COMPRESSED, -1);
      if (!err)
        err = j->compressed_frame.base.write (&j->compressed_frame.base,
                                              &algo, 1);
      if (!err)
        err = pl_deflate_init (&j->deflate.z, j->o.compress_algo,
                               j->o.compress_level ? j->o.compress_level
                                                   : 6);
      if (err)
        return err;
      if (!(j->deflate.buf = pl_buffer_take (PL_BLOCK_SIZE)))
        return gpg_error (GPG_ERR_ENOMEM);
      j->deflate.base.write = deflate_write;
      j->deflate.base.finish = deflate_finish;
      j->deflate.base.next = &j->compressed_frame.base;
      j->head = &j->deflate.base;
    }
  /* Overlapping reads frame the literal packet themselves
   * (encrypt_overlapping). */
  if (j->overlap)
    return 0;
  if (j->o.n_signers && (err = start_signing (j)))
    return err;
  err = frame_start (&j->literal_frame, j->head, &j->out.writer,
                     PL_PKT_LITERAL, j->lit_body);
  j->head = &j->literal_frame.base;
  if (!err)
    err = j->head->write (j->head, j->lit_head, j->lit_head_len);
  if (!err && j->o.n_signers)
    {
      j->sign_hash.base.write = sign_hash_write;
      j->sign_hash.base.finish = sign_pass_finish;
      j->sign_hash.base.next = j->head;
      j->sign_hash.signers = j->signers;
      j->sign_hash.n = j->o.n_signers;
      j->sign_hash.hasher = &j->sig_hasher;
      /* Text is converted into a buffer of the job's, used again. */
      j->sign_hash.held = j->src->borrow && !j->text;
      j->sign_hash.direct = j->o.sign_only && !j->o.compress_algo
                            ? &j->out.writer : NULL;
      j->head = &j->sign_hash.base;
    }
  return err;
}

static gpg_error_t
read_source (void *arg, uint8_t *buf, size_t want, size_t *len)
{
  return pl_source_read_full (arg, buf, want, len);
}

/* An input of unknown length (a folder's tar, a pipe) goes in partial
 * chunks of PARTIAL_LEN, and a chunk may go out only once a later octet
 * proves it is not the last.  Instead of gathering the octets into a
 * buffer of the framing's own (a copy, on the cipher's thread, that
 * perf put at a quarter of that thread's time on a folder), each read
 * asks for one octet more than its chunk, and the next read begins with
 * that octet again: a block of the whole WANT holds a chunk and the
 * proof that more follows; a shorter one is the last part.  Runs on the
 * read-ahead's thread, one call at a time. */
static gpg_error_t
read_overlapping (void *arg, uint8_t *buf, size_t want, size_t *len)
{
  encrypt_job *j = arg;
  size_t pos = 0, got = 0;
  gpg_error_t err;

  if (j->carry_valid)
    buf[pos++] = j->carry;
  err = pl_source_read_full (j->src, buf + pos, want - pos, &got);
  if (err)
    return err;
  *len = pos + got;
  j->carry_valid = *len == want;
  if (j->carry_valid)
    j->carry = buf[want - 1];
  return 0;
}

static gpg_error_t
borrow_source (void *arg, size_t want, const uint8_t **p, size_t *len)
{
  pl_source *src = arg;
  return src->borrow (src, want, p, len);
}

/* How many buffers a read-ahead thread fills ahead of the job.  An AEAD
 * chunk (4 MiB) is four threaded reads and is written at once: with two
 * buffers the reads stopped while the job waited for the writer to take
 * the chunk before, and reads, cipher and writes took turns instead of
 * overlapping (bench/STAGES.md, OCB encryption).  With a chunk's worth
 * of buffers the reads go on meanwhile. */
static int
read_ahead_buffers (int aead)
{
  return aead ? PL_READ_AHEAD_BUFFERS : 2;
}

/* The read-ahead.  AEAD reads are pl_read_size blocks, which the stage
 * seals piece by piece straight from the read-ahead's buffer.  With
 * every length known they line up with the chunks: the first completes
 * the block that the literal packet's headers began, so that a chunk
 * boundary never splits a read. */
static gpg_error_t
start_reading (encrypt_job *j)
{
  int aead = j->o.profile != PL_PROFILE_RFC4880;
  int64_t size = j->src->size;
  /* An input in memory is borrowed, not read: no copy, and no thread,
   * which would only make the copy on the other core.  Otherwise reading
   * moves to a thread of its own when the input is large: the next
   * block is read while this one is encrypted. */
  int threaded = !j->src->borrow && pl_job_threads (j->ctl) > 1
                 && (size < 0 || size > PL_BLOCK_SIZE);
  size_t read_len = aead ? pl_read_size (threaded) : PL_BLOCK_SIZE;
  gpg_error_t err = 0;

  if (j->src->borrow)
    pl_read_ahead_init_borrowing (&j->ra, borrow_source, j->src, read_len);
  else if (j->overlap)
    {
      /* The first chunk also holds the literal packet's header. */
      err = pl_read_ahead_init (&j->ra, read_overlapping, j,
                                PARTIAL_LEN + 1, threaded);
      pl_read_ahead_set_first_want (&j->ra,
                                    PARTIAL_LEN - j->lit_head_len + 1);
    }
  else
    err = pl_read_ahead_init_queue (&j->ra, read_source, j->src, read_len,
                                    threaded, read_ahead_buffers (aead));
  if (!err && aead && j->lit_body >= 0)
    {
      uint8_t tmp[6];
      size_t prefix = pl_packet_write_header (tmp, PL_PKT_LITERAL,
                                              (uint64_t) j->lit_body)
                      + j->lit_head_len;
      /* Chunks (64 octets to 4 MiB) and reads are powers of two. */
      pl_read_ahead_set_first_want (&j->ra, read_len - prefix % read_len);
    }
  return err;
}

/* Text goes in canonical form, CRLF line ends (RFC 9580 §5.9): a bare LF
 * becomes CRLF, an existing CRLF stays. */
static gpg_error_t
write_text (encrypt_job *j, const uint8_t *p, size_t n)
{
  size_t t = 0;

  if (!j->text_buf && !(j->text_buf = pl_buffer_take (2 * PL_BLOCK_SIZE)))
    return gpg_error (GPG_ERR_ENOMEM);
  for (size_t i = 0; i < n; i++)
    {
      if (p[i] == '\n' && !j->last_cr)
        j->text_buf[t++] = '\r';
      j->last_cr = p[i] == '\r';
      j->text_buf[t++] = p[i];
    }
  return j->head->write (j->head, j->text_buf, t);
}

/* The literal packet from overlapping reads (read_overlapping), its
 * headers written here, its data handed on in place. */
static gpg_error_t
encrypt_overlapping (encrypt_job *j)
{
  int64_t size = j->src->size;
  size_t whole = PARTIAL_LEN - j->lit_head_len + 1;
  uint64_t done = 0;
  int first = 1;

  for (;;)
    {
      uint8_t *p, hdr[6];
      size_t n, hl;
      gpg_error_t err = pl_job_check_cancel (j->ctl);

      if (!err)
        err = pl_read_ahead_next (&j->ra, &p, &n);
      if (err)
        return err;
      int more = n == whole;
      size_t data = more ? n - 1 : n;
      if (more)
        hl = first ? pl_packet_write_partial_header (hdr, PL_PKT_LITERAL,
                                                     PARTIAL_EXP)
                   : (hdr[0] = pl_packet_partial_octet (PARTIAL_EXP), 1);
      else
        hl = first ? pl_packet_write_header (hdr, PL_PKT_LITERAL,
                                             j->lit_head_len + data)
                   : pl_packet_write_length (hdr, data);
      err = j->head->write (j->head, hdr, hl);
      if (!err && first)
        err = j->head->write (j->head, j->lit_head, j->lit_head_len);
      if (!err && data)
        err = j->head->write (j->head, p, data);
      if (err)
        return err;
      done += data;
      if (size >= 0 && done > (uint64_t) size)
        return gpg_error (GPG_ERR_EIO);
      pl_job_progress (j->ctl, done, size);
      if (!more)
        break;
      first = 0;
      whole = PARTIAL_LEN + 1;
    }
  if (size >= 0 && done != (uint64_t) size)
    return gpg_error (GPG_ERR_EIO);
  return j->head->finish (j->head);
}

/* The source, block by block, into the chain. */
static gpg_error_t
encrypt_blocks (encrypt_job *j)
{
  int64_t size = j->src->size;
  uint64_t done = 0;
  gpg_error_t err;

  for (;;)
    {
      uint8_t *p;
      size_t n;

      err = pl_job_check_cancel (j->ctl);
      if (!err)
        err = pl_read_ahead_next (&j->ra, &p, &n);
      if (err)
        return err;
      if (!n)
        break;
      done += n;
      if (j->src->borrow)
        {
          j->aead.stable_lo = p;
          j->aead.stable_hi = p + n;
        }
      /* The file grew while we read it: the lengths written are wrong
       * now. */
      if (size >= 0 && done > (uint64_t) size)
        return gpg_error (GPG_ERR_EIO);
      err = j->text ? write_text (j, p, n) : j->head->write (j->head, p, n);
      if (err)
        return err;
      pl_job_progress (j->ctl, done, size);
    }
  if (size >= 0 && done != (uint64_t) size)
    return gpg_error (GPG_ERR_EIO);
  return j->head->finish (j->head);
}

static gpg_error_t
encrypt_message (encrypt_job *j, pl_sink *sink)
{
  gpg_error_t err;

  if (!(j->key = gcry_malloc_secure (PL_SESSION_KEY_MAX)))
    return gpg_error (GPG_ERR_ENOMEM);
  err = start_output (j, sink);
  if (!err && !j->o.sign_only)
    err = lock_message (j, sink);
  if (err)
    return err;
  plan_packets (j);
  /* Signature packets around the literal: its length is the only one
   * known. */
  if (j->o.n_signers)
    j->data_body = -1;
  /* SEIPD v1 from a read input of unknown (or beyond definite) length. */
  j->overlap = j->o.profile == PL_PROFILE_RFC4880 && !j->src->borrow
               && !j->text && !j->o.compress_algo && !j->o.n_signers
               && (j->lit_body < 0 || (uint64_t) j->lit_body > DEFINITE_MAX);
  if (j->o.sign_only)
    j->head = &j->out.base;
  else
    err = start_encryption (j);
  if (!err)
    err = start_plaintext (j);
  if (!err)
    err = start_reading (j);
  if (!err)
    err = j->overlap ? encrypt_overlapping (j) : encrypt_blocks (j);
  /* Every octet has reached the sink (output_finish): the room's too. */
  if (!err && j->room)
    err = pl_key_room_finish (j->room, sink);
  return err;
}

gpg_error_t
pl_encrypt (pl_source *src, pl_sink *sink, const pl_encrypt_options *opts,
            const pl_job_control *ctl)
{
  encrypt_job *j = calloc (1, sizeof *j);
  gpg_error_t err;

  if (!j)
    {
      sink->abort (sink);
      return gpg_error (GPG_ERR_ENOMEM);
    }
  if (opts)
    j->o = *opts;
  else
    pl_encrypt_options_init (&j->o);
  if (!j->o.cipher_algo)
    j->o.cipher_algo = PL_CIPHER_AES256;
  if (j->o.chunk_octet < 0)
    j->o.chunk_octet = PL_AEAD_CHUNK_OCTET_DEFAULT;
  if (!j->o.literal_format)
    j->o.literal_format = 'b';
  j->ctl = ctl;
  j->src = src;
  j->keylen = pl_cipher_key_length (j->o.cipher_algo);
  err = check_options (&j->o);
  if (!err)
    err = encrypt_message (j, sink);
  if (!err)
    err = pl_source_check (src);
  if (!err)
    err = sink->commit (sink);
  /* The writer thread may still be in a sink write: it must be done
   * before the sink is aborted, or abort races with that write (and the
   * write may even land after it). */
  pl_writer_clear (&j->out.writer);
  if (err)
    sink->abort (sink);
  encrypt_job_clear (j);
  pl_wipe (j, sizeof *j);
  free (j);
  return err;
}
