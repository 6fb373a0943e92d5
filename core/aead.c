/* aead.c - chunked AEAD encryption: SEIPD v2 (RFC 9580 §5.13.2) and the
 * LibrePGP OCB Encrypted Data packet (tag 20, LibrePGP §5.16)
 *
 * Both formats cut the plaintext into chunks of 2^(c+6) octets, seal each
 * chunk with its own nonce and a 16-octet tag, and end with a final tag
 * over the empty string whose associated data carries the total length,
 * so that truncation at a chunk boundary is detected.  They differ in the
 * key schedule, the nonce and the associated data:
 *
 *   SEIPD v2: key || IV = HKDF-SHA256 (salt, session key,
 *                                      0xD2 02 cipher aead chunkoctet),
 *             nonce = IV || be64 (index),
 *             AD = 0xD2 02 cipher aead chunkoctet
 *                  [|| be64 (total) for the final tag].
 *   Tag 20:   key = session key, nonce = IV ^ be64 (index) in its last
 *             8 octets,
 *             AD = 0xD4 01 cipher aead chunkoctet || be64 (index)
 *                  [|| be64 (total) for the final tag].
 *
 * Empty plaintext.  RFC 9580 §5.13.2 says a v2 SEIPD packet "consists of
 * one or more chunks of data", and LibrePGP §5.16 says the same of tag
 * 20.  Implementations disagree on what that means for zero octets:
 * OpenPGP.js always seals chunk #0, even when empty (16-octet chunk tag,
 * then the final tag with index 1), and rejects a lone final tag; Sequoia
 * writes no chunk at all (final tag with index 0) and rejects empty
 * chunks; GnuPG never produces an empty stream (there is always a Literal
 * Data packet inside) and its reader handles neither form cleanly.  We
 * follow the RFC wording and OpenPGP.js when writing: an empty plaintext
 * becomes one empty chunk #0 plus the final tag (32 octets).  When reading
 * we accept both: 16 octets are a lone final tag (index 0, total 0), and
 * 32 octets at the end are an empty last chunk plus the final tag.  Both
 * are authenticated by distinct nonces and associated data, so accepting
 * both does not let an attacker turn one message into another.  A message
 * whose length is a multiple of the chunk size ends with the last full
 * chunk, then the final tag (no trailing empty chunk), as all three write
 * it for non-empty input.
 *
 * Framing when reading.  The last chunk may be short, so a full chunk can
 * only be told from "short last chunk + tag + final tag" once chunk + tag
 * + 16 more octets are at hand: a short last chunk of L < C octets makes
 * the rest of the packet exactly L + 32 < C + 32 octets.  (aead.h words
 * this as "one more octet"; one octet beyond chunk + tag is not enough, a
 * final tag's worth is.)  Everything before those 16 octets is never held
 * back longer than needed.
 *
 * Chunks in pieces.  The caller's blocks need not line up with chunks:
 * the stage runs the cipher over each piece as it arrives, from the
 * caller's buffer straight into its own (whole 16-octet blocks, as OCB
 * wants until its final call), and holds back only what it cannot run
 * yet: the last partial block, and when decrypting the 32 octets that may
 * turn out to be the tag and final tag of a short last chunk.  So the
 * plaintext of a 4 MiB chunk read in 1 MiB blocks is not gathered by a
 * copy first.  Decrypted octets stay in the stage, unseen, until their
 * chunk's tag verified.
 */
#include "aead.h"

#include <stdlib.h>
#include <string.h>

#include "algo.h"
#include "buffers.h"
#include "hkdf.h"

#define TAG_LEN 16
#define SEIPD2_VERSION 2
#define OCB_PACKET_VERSION 1
#define SEIPD2_SALT_LEN 32
#define SEIPD2_HEADER_LEN (4 + SEIPD2_SALT_LEN)

struct pl_aead_stream
{
  pl_aead_format format;
  int encrypt;
  size_t chunk_size;
  size_t nonce_len;
  uint8_t nonce_base[16];       /* SEIPD2: IV || 0^8; tag 20: start IV. */
  uint8_t ad[5];                /* Packet tag, version, algos, chunk. */

  gcry_cipher_hd_t hd;          /* Reused for every chunk. */
  int gcry_algo, gcry_mode;     /* For more handles: */
  uint8_t *key;                 /* the message key, in secure memory. */
  size_t keylen;

  /* Decryption: ciphertext of the current chunk and what follows it, up
   * to chunk + tag + final tag.  The plaintext of a verified chunk is
   * handed out from its start.  Encryption: plaintext of the current
   * chunk, sealed in place, then its tag and the final tag. */
  uint8_t *buf;                 /* BUFS[CUR] */
  uint8_t *bufs[2];             /* Used in turn: what was handed out stays
                                 * valid while the next chunk is worked
                                 * on, so a writer thread can overlap. */
  int cur;
  int handed;                   /* A chunk was handed out from BUF. */
  size_t bufsize;
  size_t fill;
  size_t skip;                  /* Octets handed out, to drop next call. */
  size_t done;                  /* Octets of the current chunk the cipher
                                 * ran over (the start of BUF); FILL -
                                 * DONE octets after them are held back
                                 * raw. */
  int open;                     /* HD is set up for the current chunk. */
  size_t dirty;                 /* How much of BUF was ever written: what
                                 * to wipe, so that a small message with 4
                                 * MiB chunks does not wipe 4 MiB. */

  uint64_t index;               /* Index of the next chunk. */
  uint64_t total;               /* Plaintext octets sealed or verified. */
  gpg_error_t err;              /* Sticky: once failed, always failed. */
  int finished;
};


static inline void
mark_dirty (pl_aead_stream *s, size_t end)
{
  if (end > s->dirty)
    s->dirty = end;
}


static void
put_be64 (uint8_t *p, uint64_t v)
{
  for (int i = 7; i >= 0; i--, v >>= 8)
    p[i] = (uint8_t) v;
}


/* Sets HD up for chunk INDEX: its nonce and associated data (with
 * FINAL_TOTAL set, those of the final tag). */
static gpg_error_t
begin_chunk (const pl_aead_stream *s, gcry_cipher_hd_t hd, uint64_t index,
             const uint64_t *final_total)
{
  gpg_error_t err;
  uint8_t nonce[16];
  uint8_t ad[sizeof s->ad + 8 + 8];
  size_t adlen = sizeof s->ad;
  size_t i;

  memcpy (nonce, s->nonce_base, s->nonce_len);
  for (i = 0; i < 8; i++)
    nonce[s->nonce_len - 1 - i] ^= (uint8_t) (index >> (8 * i));

  memcpy (ad, s->ad, sizeof s->ad);
  if (s->format == PL_AEAD_FORMAT_OCB_ENCRYPTED)
    {
      put_be64 (ad + adlen, index);
      adlen += 8;
    }
  if (final_total)
    {
      put_be64 (ad + adlen, *final_total);
      adlen += 8;
    }

  err = gcry_cipher_reset (hd);
  if (!err)
    err = gcry_cipher_setiv (hd, nonce, s->nonce_len);
  if (!err)
    err = gcry_cipher_authenticate (hd, ad, adlen);
  return err;
}

/* Runs the cipher over LEN octets from IN (NULL: in place) to OUT.  Until
 * the final call, LEN must be a multiple of 16. */
static inline gpg_error_t
run_cipher (const pl_aead_stream *s, gcry_cipher_hd_t hd, uint8_t *out,
            const uint8_t *in, size_t len)
{
  return s->encrypt ? gcry_cipher_encrypt (hd, out, len, in, in ? len : 0)
                    : gcry_cipher_decrypt (hd, out, len, in, in ? len : 0);
}

/* After the last run_cipher of a chunk: the tag, written or checked. */
static gpg_error_t
end_chunk (const pl_aead_stream *s, gcry_cipher_hd_t hd,
           const uint8_t *tag_in, uint8_t *tag_out)
{
  gpg_error_t err;

  if (s->encrypt)
    return gcry_cipher_gettag (hd, tag_out, TAG_LEN);
  err = gcry_cipher_checktag (hd, tag_in, TAG_LEN);
  /* A bad tag is the message's fault, not libgcrypt's: report it with
   * our error source. */
  if (gpg_err_code (err) == GPG_ERR_CHECKSUM)
    err = gpg_error (GPG_ERR_CHECKSUM);
  return err;
}

/* Seals (encryption) or opens (decryption) one chunk: LEN octets from IN
 * (NULL: in place) to OUT, under the nonce and associated data for chunk
 * INDEX.  With FINAL_TOTAL set this is the final tag over the empty
 * string instead.  Encryption writes the tag to TAG_OUT; decryption
 * checks TAG_IN in constant time.  Only S's read-only setup is used, so
 * chunks can be handled on several threads, each with its own HD. */
static gpg_error_t
crypt_chunk (const pl_aead_stream *s, gcry_cipher_hd_t hd, uint64_t index,
             const uint64_t *final_total, uint8_t *out, const uint8_t *in,
             size_t len, const uint8_t *tag_in, uint8_t *tag_out)
{
  gpg_error_t err = begin_chunk (s, hd, index, final_total);

  /* OCB needs to know that the next call is the last one; the other
   * modes do not mind.  The call must happen even for zero octets, or
   * OCB has no tag to give. */
  if (!err)
    err = gcry_cipher_final (hd);
  if (!err)
    err = run_cipher (s, hd, out, in, len);
  if (!err)
    err = end_chunk (s, hd, tag_in, tag_out);
  return err;
}


/* The header checks shared by parsing and setting up a stream. */
static gpg_error_t
check_params (pl_aead_format format, int cipher_algo, int aead_algo,
              int chunk_octet)
{
  if (!pl_cipher_gcry_algo (cipher_algo)
      || pl_cipher_block_length (cipher_algo) != 16)
    return gpg_error (GPG_ERR_UNSUPPORTED_ALGORITHM);
  /* LibrePGP defines OCB and EAX for tag 20; OpenPGP.js can also write
   * GCM there, and reading it costs nothing. */
  if (!pl_aead_gcry_mode (aead_algo) || !pl_aead_nonce_length (aead_algo))
    return gpg_error (GPG_ERR_UNSUPPORTED_ALGORITHM);
  if (chunk_octet < 0 || chunk_octet > PL_AEAD_CHUNK_OCTET_MAX)
    return gpg_error (GPG_ERR_INV_PACKET);
  if (format != PL_AEAD_FORMAT_SEIPD2 && format != PL_AEAD_FORMAT_OCB_ENCRYPTED)
    return gpg_error (GPG_ERR_INV_ARG);
  return 0;
}


gpg_error_t
pl_aead_header_parse (pl_aead_header *h, pl_aead_format format,
                      const uint8_t *p, size_t len, size_t *used)
{
  gpg_error_t err;
  size_t need;

  memset (h, 0, sizeof *h);
  *used = 0;
  if (format != PL_AEAD_FORMAT_SEIPD2 && format != PL_AEAD_FORMAT_OCB_ENCRYPTED)
    return gpg_error (GPG_ERR_INV_ARG);
  /* A body too short for its header is cut off; GPG_ERR_TRUNCATED also
   * tells a streaming caller that more octets would help. */
  if (!len)
    return gpg_error (GPG_ERR_TRUNCATED);
  if (p[0] != (format == PL_AEAD_FORMAT_SEIPD2
               ? SEIPD2_VERSION : OCB_PACKET_VERSION))
    return gpg_error (GPG_ERR_UNKNOWN_VERSION);
  if (len < 4)
    return gpg_error (GPG_ERR_TRUNCATED);

  h->format = format;
  h->cipher_algo = p[1];
  h->aead_algo = p[2];
  h->chunk_octet = p[3];
  err = check_params (format, h->cipher_algo, h->aead_algo, h->chunk_octet);
  if (err)
    return err;

  if (format == PL_AEAD_FORMAT_SEIPD2)
    need = SEIPD2_HEADER_LEN;
  else
    need = 4 + pl_aead_nonce_length (h->aead_algo);
  if (len < need)
    return gpg_error (GPG_ERR_TRUNCATED);
  if (format == PL_AEAD_FORMAT_SEIPD2)
    memcpy (h->salt, p + 4, SEIPD2_SALT_LEN);
  else
    memcpy (h->iv, p + 4, need - 4);
  *used = need;
  return 0;
}


size_t
pl_aead_header_write (const pl_aead_header *h, uint8_t *out)
{
  size_t n;

  out[0] = (h->format == PL_AEAD_FORMAT_SEIPD2
            ? SEIPD2_VERSION : OCB_PACKET_VERSION);
  out[1] = (uint8_t) h->cipher_algo;
  out[2] = (uint8_t) h->aead_algo;
  out[3] = (uint8_t) h->chunk_octet;
  if (h->format == PL_AEAD_FORMAT_SEIPD2)
    {
      memcpy (out + 4, h->salt, SEIPD2_SALT_LEN);
      return SEIPD2_HEADER_LEN;
    }
  n = pl_aead_nonce_length (h->aead_algo);
  memcpy (out + 4, h->iv, n);
  return 4 + n;
}


gpg_error_t
pl_aead_stream_new (pl_aead_stream **out, const pl_aead_header *h,
                    const uint8_t *session_key, size_t keylen, int encrypt)
{
  gpg_error_t err;
  pl_aead_stream *s = NULL;
  uint8_t *okm = NULL;
  size_t okm_len = 0;
  size_t cipher_keylen;

  *out = NULL;
  err = check_params (h->format, h->cipher_algo, h->aead_algo,
                      h->chunk_octet);
  if (err)
    return err;
  cipher_keylen = pl_cipher_key_length (h->cipher_algo);
  if (keylen != cipher_keylen)
    return gpg_error (GPG_ERR_INV_KEYLEN);

  s = calloc (1, sizeof *s);
  if (!s)
    return gpg_error_from_syserror ();
  s->format = h->format;
  s->encrypt = !!encrypt;
  s->chunk_size = (size_t) 1 << (h->chunk_octet + 6);
  s->nonce_len = pl_aead_nonce_length (h->aead_algo);
  s->ad[0] = h->format == PL_AEAD_FORMAT_SEIPD2 ? 0xD2 : 0xD4;
  s->ad[1] = (h->format == PL_AEAD_FORMAT_SEIPD2
              ? SEIPD2_VERSION : OCB_PACKET_VERSION);
  s->ad[2] = (uint8_t) h->cipher_algo;
  s->ad[3] = (uint8_t) h->aead_algo;
  s->ad[4] = (uint8_t) h->chunk_octet;

  /* Room for a full chunk, its tag and the final tag: the most a reader
   * must hold before it knows where the chunk ends, and the most the
   * writer emits at once (a short last chunk, its tag, the final tag).
   * Allocated once for the whole message. */
  s->bufsize = s->chunk_size + 2 * TAG_LEN;
  s->bufs[0] = pl_buffer_take (s->bufsize);
  s->bufs[1] = pl_buffer_take (s->bufsize);
  s->buf = s->bufs[0];
  if (!s->bufs[0] || !s->bufs[1])
    {
      err = gpg_error_from_syserror ();
      goto leave;
    }

  s->gcry_algo = pl_cipher_gcry_algo (h->cipher_algo);
  s->gcry_mode = pl_aead_gcry_mode (h->aead_algo);
  s->keylen = cipher_keylen;
  s->key = gcry_malloc_secure (cipher_keylen);
  if (!s->key)
    {
      err = gpg_error_from_syserror ();
      goto leave;
    }

  if (h->format == PL_AEAD_FORMAT_SEIPD2)
    {
      size_t ivlen = s->nonce_len - 8;

      /* The HKDF info is the same five octets as the chunks' AD. */
      okm_len = cipher_keylen + ivlen;
      okm = gcry_malloc_secure (okm_len);
      if (!okm)
        {
          err = gpg_error_from_syserror ();
          goto leave;
        }
      err = pl_hkdf_sha256 (h->salt, sizeof h->salt, session_key, keylen,
                            s->ad, sizeof s->ad, okm, okm_len);
      if (err)
        goto leave;
      memcpy (s->key, okm, cipher_keylen);
      memcpy (s->nonce_base, okm + cipher_keylen, ivlen);
    }
  else
    {
      memcpy (s->key, session_key, keylen);
      memcpy (s->nonce_base, h->iv, s->nonce_len);
    }
  err = pl_aead_stream_open_handle (s, &s->hd);
  if (err)
    goto leave;

  *out = s;
  s = NULL;

 leave:
  if (okm)
    {
      pl_wipe (okm, okm_len);
      gcry_free (okm);
    }
  pl_aead_stream_free (s);
  return err;
}


gpg_error_t
pl_aead_stream_open_handle (const pl_aead_stream *s, gcry_cipher_hd_t *hd)
{
  gpg_error_t err;

  *hd = NULL;
  err = gcry_cipher_open (hd, s->gcry_algo, s->gcry_mode, GCRY_CIPHER_SECURE);
  if (!err)
    err = gcry_cipher_setkey (*hd, s->key, s->keylen);
  if (err)
    {
      gcry_cipher_close (*hd);
      *hd = NULL;
    }
  return err;
}


size_t
pl_aead_stream_chunk_size (const pl_aead_stream *s)
{
  return s->chunk_size;
}


int
pl_aead_stream_encrypting (const pl_aead_stream *s)
{
  return s->encrypt;
}


gpg_error_t
pl_aead_chunk_crypt (const pl_aead_stream *s, gcry_cipher_hd_t hd,
                     uint64_t index, uint8_t *out, const uint8_t *in,
                     size_t len, const uint8_t *tag_in, uint8_t *tag_out)
{
  if (len > s->chunk_size)
    return gpg_error (GPG_ERR_INV_ARG);
  return crypt_chunk (s, hd, index, NULL, out, in, len, tag_in, tag_out);
}


gpg_error_t
pl_aead_final_tag (const pl_aead_stream *s, gcry_cipher_hd_t hd,
                   uint64_t index, uint64_t total, const uint8_t *tag_in,
                   uint8_t *tag_out)
{
  uint8_t scratch[1];

  return crypt_chunk (s, hd, index, &total, scratch, NULL, 0, tag_in,
                      tag_out);
}


/* Marks the stream failed: no later call may hand anything out, and the
 * buffer, which may hold unverified plaintext, is wiped. */
static gpg_error_t
fail (pl_aead_stream *s, gpg_error_t err)
{
  s->err = err;
  pl_wipe (s->bufs[0], s->dirty);
  pl_wipe (s->bufs[1], s->dirty);
  s->fill = 0;
  s->skip = 0;
  s->done = 0;
  s->open = 0;
  return err;
}


/* Drops the chunk handed out by the previous call and turns to the other
 * buffer; what followed the chunk (at most a tag's worth) moves to its
 * front.  The chunk itself stays where it was until the call after
 * next. */
static void
drop_handed_out (pl_aead_stream *s)
{
  uint8_t *next;

  if (!s->handed)
    return;
  next = s->bufs[s->cur ^ 1];
  memcpy (next, s->buf + s->skip, s->fill - s->skip);
  s->fill -= s->skip;
  s->skip = 0;
  s->cur ^= 1;
  s->buf = next;
  s->handed = 0;
}


#define BLOCK 16

/* Runs the current chunk's cipher up to chunk octet TARGET: first over the
 * octets held back in BUF (in place), then over IN's (out of place, into
 * BUF).  Unless LAST, TARGET is a multiple of BLOCK; with LAST the chunk's
 * data ends at TARGET and the cipher's final call is made.  *USED receives
 * the octets taken from IN. */
static gpg_error_t
advance (pl_aead_stream *s, const uint8_t *in, size_t target, int last,
         size_t *used)
{
  gpg_error_t err = 0;
  size_t held, from_in;

  *used = 0;
  if (!s->open)
    {
      err = begin_chunk (s, s->hd, s->index, NULL);
      if (err)
        return err;
      s->open = 1;
    }
  held = (s->fill < target ? s->fill : target) - s->done;
  from_in = target > s->fill ? target - s->fill : 0;
  if (from_in && held % BLOCK)
    {
      /* Round what is held up to a whole block from IN, so that the rest
       * can run out of place. */
      size_t k = BLOCK - held % BLOCK;

      if (k > from_in)
        k = from_in;
      memcpy (s->buf + s->fill, in, k);
      s->fill += k;
      held += k;
      in += k;
      from_in -= k;
      *used = k;
    }
  if (last && !from_in)
    err = gcry_cipher_final (s->hd);
  if (!err && (held || (last && !from_in)))
    err = run_cipher (s, s->hd, s->buf + s->done, NULL, held);
  s->done += held;
  if (!err && from_in)
    {
      if (last)
        err = gcry_cipher_final (s->hd);
      if (!err)
        err = run_cipher (s, s->hd, s->buf + s->done, in, from_in);
      s->done += from_in;
      s->fill = s->done;
      *used += from_in;
    }
  mark_dirty (s, s->fill);
  return err;
}

/* Holds back LEN octets of IN after what BUF holds. */
static void
hold (pl_aead_stream *s, const uint8_t *in, size_t len)
{
  memcpy (s->buf + s->fill, in, len);
  s->fill += len;
  mark_dirty (s, s->fill);
}

/* Runs the cipher over the chunk up to TARGET octets (rounded down to
 * whole blocks), taking them from IN, and holds back the rest of IN's LEN
 * octets: the chunk is not complete yet. */
static gpg_error_t
advance_and_hold (pl_aead_stream *s, const uint8_t *in, size_t len,
                  size_t target, size_t *consumed)
{
  size_t used = 0;

  target -= target % BLOCK;
  if (target > s->done)
    {
      gpg_error_t err = advance (s, in, target, 0, &used);
      if (err)
        return fail (s, err);
    }
  hold (s, in + used, len - used);
  *consumed = len;
  return 0;
}

/* The current chunk is sealed or opened: hand out its LEN octets. */
static void
chunk_done (pl_aead_stream *s, size_t len, const uint8_t **out,
            size_t *outlen)
{
  s->index++;
  s->total += s->chunk_size;
  s->handed = 1;
  s->open = 0;
  s->done = 0;
  *out = s->buf;
  *outlen = len;
}

static gpg_error_t
push_decrypt (pl_aead_stream *s, const uint8_t *in, size_t len,
              size_t *consumed, const uint8_t **out, size_t *outlen)
{
  gpg_error_t err;
  const size_t c = s->chunk_size;
  const size_t need = c + 2 * TAG_LEN;
  size_t used, seen = s->fill + len;

  if (!s->fill && len >= need)
    {
      /* The whole chunk and its tag are in the caller's buffer, and a
       * final tag's worth after them shows the chunk is full: decrypt
       * straight into ours in one go.  The octets after the tag stay the
       * caller's. */
      mark_dirty (s, c);
      err = crypt_chunk (s, s->hd, s->index, NULL, s->buf, in, c,
                         in + c, NULL);
      if (err)
        return fail (s, err);
      *consumed = c + TAG_LEN;
      chunk_done (s, c, out, outlen);
      return 0;
    }

  if (seen < need)
    {
      /* Octets with 32 more after them are chunk data, whether the chunk
       * is full or a short last one (see "Framing" above). */
      return advance_and_hold (s, in, len,
                               seen > 2 * TAG_LEN ? seen - 2 * TAG_LEN : 0,
                               consumed);
    }

  /* The chunk is full.  Take only up to the end of its tag; the caller
   * keeps the rest, so that the next chunk can again come straight from
   * its buffer.  If we already hold more (an earlier short push), the
   * surplus is less than a tag and moves to the front next call. */
  err = advance (s, in, c, 1, &used);
  if (!err && s->fill < c + TAG_LEN)
    {
      size_t k = c + TAG_LEN - s->fill;

      hold (s, in + used, k);
      used += k;
    }
  if (!err)
    err = end_chunk (s, s->hd, s->buf + c, NULL);
  if (err)
    return fail (s, err);
  *consumed = used;
  s->skip = c + TAG_LEN;
  chunk_done (s, c, out, outlen);
  return 0;
}


static gpg_error_t
push_encrypt (pl_aead_stream *s, const uint8_t *in, size_t len,
              size_t *consumed, const uint8_t **out, size_t *outlen)
{
  gpg_error_t err;
  const size_t c = s->chunk_size;
  size_t used;

  if (!s->fill && len >= c)
    {
      /* A whole chunk in the caller's buffer: encrypt it straight into
       * ours in one go. */
      mark_dirty (s, c + TAG_LEN);
      err = crypt_chunk (s, s->hd, s->index, NULL, s->buf, in, c,
                         NULL, s->buf + c);
      if (err)
        return fail (s, err);
      *consumed = c;
      chunk_done (s, c + TAG_LEN, out, outlen);
      return 0;
    }

  if (s->fill + len < c)
    {
      return advance_and_hold (s, in, len, s->fill + len, consumed);
    }

  mark_dirty (s, c + TAG_LEN);
  err = advance (s, in, c, 1, &used);
  if (!err)
    err = end_chunk (s, s->hd, NULL, s->buf + c);
  if (err)
    return fail (s, err);
  *consumed = used;
  s->fill = 0;
  chunk_done (s, c + TAG_LEN, out, outlen);
  return 0;
}


gpg_error_t
pl_aead_stream_push (pl_aead_stream *s, const uint8_t *in, size_t len,
                     size_t *consumed, const uint8_t **out, size_t *outlen)
{
  *consumed = 0;
  *out = NULL;
  *outlen = 0;
  if (s->err)
    return s->err;
  if (s->finished)
    return gpg_error (GPG_ERR_INV_STATE);
  drop_handed_out (s);
  if (!len)
    return 0;
  if (s->encrypt)
    return push_encrypt (s, in, len, consumed, out, outlen);
  return push_decrypt (s, in, len, consumed, out, outlen);
}


static gpg_error_t
finish_decrypt (pl_aead_stream *s, const uint8_t **out, size_t *outlen)
{
  gpg_error_t err;
  size_t last;
  uint64_t total;

  /* What is left is either a lone final tag (the data ended on a chunk
   * boundary, or there was none), or a last chunk of fewer than C
   * octets (possibly empty), its tag and the final tag.  Less than a
   * tag, or something between one and two tags, was cut off. */
  if (s->fill == TAG_LEN)
    {
      err = crypt_chunk (s, s->hd, s->index, &s->total, s->buf, NULL, 0,
                         s->buf, NULL);
      if (err)
        return fail (s, err);
      return 0;
    }
  if (s->fill < 2 * TAG_LEN)
    return fail (s, gpg_error (GPG_ERR_TRUNCATED));

  last = s->fill - 2 * TAG_LEN;
  if (s->open)
    {
      size_t used;

      /* Part of the chunk ran through the cipher already. */
      err = advance (s, NULL, last, 1, &used);
      if (!err)
        err = end_chunk (s, s->hd, s->buf + last, NULL);
    }
  else
    err = crypt_chunk (s, s->hd, s->index, NULL, s->buf, NULL, last,
                       s->buf + last, NULL);
  if (err)
    return fail (s, err);
  /* Hand the last chunk out only once the final tag vouches that the
   * message ends here. */
  total = s->total + last;
  err = crypt_chunk (s, s->hd, s->index + 1, &total, s->buf + last, NULL,
                     0, s->buf + last + TAG_LEN, NULL);
  if (err)
    return fail (s, err);
  s->index++;
  s->total = total;
  *out = s->buf;
  *outlen = last;
  return 0;
}


static gpg_error_t
finish_encrypt (pl_aead_stream *s, const uint8_t **out, size_t *outlen)
{
  gpg_error_t err;
  size_t pos = 0;

  mark_dirty (s, s->fill + 2 * TAG_LEN);
  /* The last, short chunk; or chunk #0 of an empty message, which the
   * RFC's "one or more chunks" asks for (see the top of this file).
   * After a full chunk nothing is pending and only the final tag
   * follows. */
  if (s->fill || !s->index)
    {
      if (s->open)
        {
          size_t used;

          err = advance (s, NULL, s->fill, 1, &used);
          if (!err)
            err = end_chunk (s, s->hd, NULL, s->buf + s->fill);
        }
      else
        err = crypt_chunk (s, s->hd, s->index, NULL, s->buf, NULL, s->fill,
                           NULL, s->buf + s->fill);
      if (err)
        return fail (s, err);
      s->index++;
      s->total += s->fill;
      pos = s->fill + TAG_LEN;
    }
  err = crypt_chunk (s, s->hd, s->index, &s->total, s->buf + pos, NULL, 0,
                     NULL, s->buf + pos);
  if (err)
    return fail (s, err);
  s->fill = 0;
  *out = s->buf;
  *outlen = pos + TAG_LEN;
  return 0;
}


gpg_error_t
pl_aead_stream_finish (pl_aead_stream *s, const uint8_t **out,
                       size_t *outlen)
{
  gpg_error_t err;

  *out = NULL;
  *outlen = 0;
  if (s->err)
    return s->err;
  if (s->finished)
    return gpg_error (GPG_ERR_INV_STATE);
  drop_handed_out (s);
  if (s->encrypt)
    err = finish_encrypt (s, out, outlen);
  else
    err = finish_decrypt (s, out, outlen);
  if (!err)
    s->finished = 1;
  return err;
}


void
pl_aead_stream_free (pl_aead_stream *s)
{
  if (!s)
    return;
  gcry_cipher_close (s->hd);
  if (s->key)
    {
      pl_wipe (s->key, s->keylen);
      gcry_free (s->key);
    }
  /* The buffers held plaintext. */
  for (int i = 0; i < 2; i++)
    pl_buffer_give (s->bufs[i], s->bufsize, s->dirty);
  pl_wipe (s, sizeof *s);
  free (s);
}
