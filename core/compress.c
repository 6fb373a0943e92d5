/* compress.c - Compressed Data packets: ZIP, ZLIB and BZip2 */
#include "compress.h"
#include "algo.h"
#include "errors.h"

#define ZLIB_CONST
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <zlib.h>
#include <bzlib.h>

/* zlib and libbz2 count in unsigned int.  A longer buffer is handed over
 * in pieces; the caller's loop comes back for the rest. */
static unsigned int
clamp_len (size_t n)
{
  return n > UINT_MAX ? UINT_MAX : (unsigned int) n;
}

/* zlib rejects a null buffer even when its length is zero. */
static const uint8_t no_input[1];

static int
known_algo (int algo)
{
  return (algo == PL_COMPRESS_ZIP || algo == PL_COMPRESS_ZLIB
          || algo == PL_COMPRESS_BZIP2);
}

static gpg_error_t
zlib_error (int rc)
{
  switch (rc)
    {
    case Z_MEM_ERROR:
      return gpg_error (GPG_ERR_ENOMEM);
    case Z_DATA_ERROR:
    case Z_NEED_DICT:           /* OpenPGP has no preset dictionaries. */
      return gpg_error (GPG_ERR_BAD_DATA);
    default:
      return gpg_error (GPG_ERR_INTERNAL);
    }
}

static gpg_error_t
bz_error (int rc)
{
  switch (rc)
    {
    case BZ_MEM_ERROR:
      return gpg_error (GPG_ERR_ENOMEM);
    case BZ_DATA_ERROR:
    case BZ_DATA_ERROR_MAGIC:
      return gpg_error (GPG_ERR_BAD_DATA);
    default:
      return gpg_error (GPG_ERR_INTERNAL);
    }
}


/* ---- One call into either library ----------------------------------
 *
 * Both libraries keep a pointer back to the stream and check it, so the
 * stream lives on the heap where the caller's struct may not move it. */

typedef enum
{
  CODEC_INFLATE,
  CODEC_DEFLATE,                /* compress what comes in */
  CODEC_FINISH                  /* compress to the end of the stream */
} codec_op;

/* A stream of ALGO (known_algo) for inflating (CODEC_INFLATE) or
 * deflating (the others) at LEVEL 1..9. */
static gpg_error_t
codec_new (int algo, codec_op op, int level, void **stream)
{
  int rc;

  *stream = NULL;
  if (algo == PL_COMPRESS_BZIP2)
    {
      bz_stream *bz = calloc (1, sizeof *bz);

      if (!bz)
        return gpg_error_from_syserror ();
      /* The level picks the block size in units of 100k, as gpg does. */
      rc = op == CODEC_INFLATE ? BZ2_bzDecompressInit (bz, 0, 0)
                               : BZ2_bzCompressInit (bz, level, 0, 0);
      if (rc != BZ_OK)
        {
          free (bz);
          return bz_error (rc);
        }
      *stream = bz;
    }
  else
    {
      z_stream *zs = calloc (1, sizeof *zs);

      if (!zs)
        return gpg_error_from_syserror ();
      /* ZIP is raw deflate, ZLIB has the RFC 1950 header and checksum.
       * GnuPG writes ZIP with an 8k window so that PGP 2 can read it. */
      if (op == CODEC_INFLATE)
        rc = inflateInit2 (zs, algo == PL_COMPRESS_ZIP ? -15 : 15);
      else if (algo == PL_COMPRESS_ZIP)
        rc = deflateInit2 (zs, level, Z_DEFLATED, -13, 8, Z_DEFAULT_STRATEGY);
      else
        rc = deflateInit (zs, level);
      if (rc != Z_OK)
        {
          free (zs);
          return zlib_error (rc);
        }
      *stream = zs;
    }
  return 0;
}

static void
codec_free (int algo, codec_op op, void *stream)
{
  if (!stream)
    return;
  if (algo == PL_COMPRESS_BZIP2)
    op == CODEC_INFLATE ? BZ2_bzDecompressEnd (stream)
                        : BZ2_bzCompressEnd (stream);
  else
    op == CODEC_INFLATE ? inflateEnd (stream) : deflateEnd (stream);
  free (stream);
}

/* One step of OP over STREAM: from IN (LEN octets; NULL for none) into
 * OUT (OUTCAP octets; NULL for none), as much as the library does in one
 * call.  *CONSUMED and *PRODUCED say what it moved; *ENDED is set when
 * the stream reached its end.  Running out of input or of room is no
 * error: the caller brings more. */
static gpg_error_t
codec_step (int algo, void *stream, codec_op op, const uint8_t *in,
            size_t len, uint8_t *out, size_t outcap, size_t *consumed,
            size_t *produced, int *ended)
{
  unsigned int in_len = in ? clamp_len (len) : 0;
  unsigned int out_len = out ? clamp_len (outcap) : 0;
  unsigned int in_left, out_left;
  uint8_t spare;
  gpg_error_t err = 0;
  int rc;

  in = in ? in : no_input;
  out = out ? out : &spare;
  *ended = 0;
  if (algo == PL_COMPRESS_BZIP2)
    {
      bz_stream *bz = stream;

      bz->next_in = (char *) in;
      bz->avail_in = in_len;
      bz->next_out = (char *) out;
      bz->avail_out = out_len;
      rc = op == CODEC_INFLATE ? BZ2_bzDecompress (bz)
           : BZ2_bzCompress (bz, op == CODEC_FINISH ? BZ_FINISH : BZ_RUN);
      in_left = bz->avail_in;
      out_left = bz->avail_out;
      if (rc == BZ_STREAM_END)
        *ended = 1;
      /* libbz2 reports a call that moved nothing as BZ_PARAM_ERROR. */
      else if (rc != BZ_OK && rc != BZ_RUN_OK && rc != BZ_FINISH_OK
               && !(rc == BZ_PARAM_ERROR && in_left == in_len
                    && out_left == out_len))
        err = bz_error (rc);
    }
  else
    {
      z_stream *zs = stream;

      zs->next_in = in;
      zs->avail_in = in_len;
      zs->next_out = out;
      zs->avail_out = out_len;
      rc = op == CODEC_INFLATE ? inflate (zs, Z_NO_FLUSH)
           : deflate (zs, op == CODEC_FINISH ? Z_FINISH : Z_NO_FLUSH);
      in_left = zs->avail_in;
      out_left = zs->avail_out;
      /* Z_BUF_ERROR only says that nothing could be done with what was
       * offered; the caller brings more input or more room. */
      if (rc == Z_STREAM_END)
        *ended = 1;
      else if (rc != Z_OK && rc != Z_BUF_ERROR)
        err = zlib_error (rc);
    }
  *consumed = in_len - in_left;
  *produced = out_len - out_left;
  return err;
}


/* ---- Inflate ------------------------------------------------------- */

static void
inflate_release (pl_inflate *z)
{
  codec_free (z->algo, CODEC_INFLATE, z->stream);
  z->stream = NULL;
}

gpg_error_t
pl_inflate_init (pl_inflate *z, int algo)
{
  gpg_error_t err;

  memset (z, 0, sizeof *z);
  z->expansion_floor = PL_INFLATE_DEFAULT_FLOOR;
  if (!known_algo (algo))
    return gpg_error (GPG_ERR_COMPR_ALGO);
  err = codec_new (algo, CODEC_INFLATE, 0, &z->stream);
  if (!err)
    z->algo = algo;
  return err;
}

gpg_error_t
pl_inflate_push (pl_inflate *z, const uint8_t *in, size_t len,
                 size_t *consumed, uint8_t *out, size_t outcap,
                 size_t *produced)
{
  gpg_error_t err;

  *consumed = 0;
  *produced = 0;
  if (z->ended)
    {
      /* Whatever follows the end belongs to no one; GnuPG skips it too. */
      *consumed = len;
      return 0;
    }
  if (!z->stream)
    return gpg_error (GPG_ERR_INV_STATE);

  err = codec_step (z->algo, z->stream, CODEC_INFLATE, in, len, out, outcap,
                    consumed, produced, &z->ended);
  z->total_in += *consumed;
  z->total_out += *produced;
  if (z->ended)
    *consumed = len;
  if (!err && z->expansion_floor != PL_INFLATE_NO_LIMIT
      && z->total_out > z->expansion_floor
      && z->total_out / PL_INFLATE_MAX_RATIO >= z->total_in)
    err = gpg_error (PL_ERR_BOMB);
  /* A finished or broken stream has no further use; let its memory go now
   * and make further calls fail rather than resume after damage. */
  if (err || z->ended)
    inflate_release (z);
  return err;
}

void
pl_inflate_set_expansion_floor (pl_inflate *z, uint64_t floor)
{
  z->expansion_floor = floor ? floor : PL_INFLATE_DEFAULT_FLOOR;
}

gpg_error_t
pl_inflate_finish (pl_inflate *z)
{
  if (z->ended)
    return 0;
  if (!z->stream)
    return gpg_error (GPG_ERR_INV_STATE);
  /* PGP 2 wrote raw deflate without a final block; GnuPG reads such a
   * stream to the end of the packet and takes what it got. */
  if (z->algo == PL_COMPRESS_ZIP)
    return 0;
  return gpg_error (GPG_ERR_TRUNCATED);
}

void
pl_inflate_clear (pl_inflate *z)
{
  inflate_release (z);
  memset (z, 0, sizeof *z);
}


/* A pl_deflate whose stream is gone but whose algo is still set has
 * written its end; one with neither was never set up or failed. */

static void
deflate_release (pl_deflate *z)
{
  codec_free (z->algo, CODEC_DEFLATE, z->stream);
  z->stream = NULL;
}

static gpg_error_t
deflate_fail (pl_deflate *z, gpg_error_t err)
{
  deflate_release (z);
  z->algo = 0;
  return err;
}

gpg_error_t
pl_deflate_init (pl_deflate *z, int algo, int level)
{
  gpg_error_t err;

  memset (z, 0, sizeof *z);
  if (!known_algo (algo))
    return gpg_error (GPG_ERR_COMPR_ALGO);
  if (level < 1 || level > 9)
    return gpg_error (GPG_ERR_INV_VALUE);
  err = codec_new (algo, CODEC_DEFLATE, level, &z->stream);
  if (!err)
    z->algo = algo;
  return err;
}

gpg_error_t
pl_deflate_push (pl_deflate *z, const uint8_t *in, size_t len,
                 size_t *consumed, uint8_t *out, size_t outcap,
                 size_t *produced)
{
  gpg_error_t err;
  int ended;

  *consumed = 0;
  *produced = 0;
  if (!z->stream)
    return gpg_error (GPG_ERR_INV_STATE);
  err = codec_step (z->algo, z->stream, CODEC_DEFLATE, in, len, out, outcap,
                    consumed, produced, &ended);
  return err ? deflate_fail (z, err) : 0;
}

gpg_error_t
pl_deflate_finish (pl_deflate *z, uint8_t *out, size_t outcap,
                   size_t *produced, int *done)
{
  gpg_error_t err;
  size_t consumed;

  *produced = 0;
  *done = 0;
  if (!z->stream)
    {
      if (!z->algo)
        return gpg_error (GPG_ERR_INV_STATE);
      *done = 1;
      return 0;
    }
  /* libbz2 calls a finishing step without room a sequence error. */
  if (!out || !outcap)
    return 0;
  err = codec_step (z->algo, z->stream, CODEC_FINISH, NULL, 0, out, outcap,
                    &consumed, produced, done);
  if (err)
    return deflate_fail (z, err);
  if (*done)
    deflate_release (z);
  return 0;
}

void
pl_deflate_clear (pl_deflate *z)
{
  deflate_release (z);
  memset (z, 0, sizeof *z);
}
