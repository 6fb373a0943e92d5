/* compress.h - Compressed Data packets (RFC 9580 §5.6): ZIP, ZLIB, BZip2
 *
 * Push-style stages in zlib's manner: each push consumes what it can of
 * the input and produces at most OUTCAP octets, so a decompression bomb
 * never grows memory; the caller loops until the input is consumed.  At
 * the end of input the stage may still hold output (bzip2 keeps up to a
 * 900k block): keep pushing an empty input until a push produces nothing,
 * then call finish.
 */
#pragma once

#include <stddef.h>
#include <stdint.h>
#include <gpg-error.h>

typedef struct
{
  int algo;               /* PL_COMPRESS_* */
  int ended;              /* the compressed stream said it is complete */
  void *stream;           /* z_stream or bz_stream, owned */
  uint64_t total_in;      /* compressed octets consumed so far */
  uint64_t total_out;     /* octets produced so far */
  uint64_t expansion_floor;
} pl_inflate;

/* Decompression bombs: once the output passes both the expansion floor
 * and PL_INFLATE_MAX_RATIO times the compressed input consumed so far, a
 * push fails with PL_ERR_BOMB (errors.h).  Real data compresses 3-20
 * fold; deflate cannot pass about 1032 fold, bzip2 can pass a million.
 * The floor keeps small files of zeros (a sparse image) working. */
#define PL_INFLATE_MAX_RATIO 1000
#define PL_INFLATE_DEFAULT_FLOOR (1ull << 30)
#define PL_INFLATE_NO_LIMIT UINT64_MAX

/* No argument is NULL, but IN and OUT of a push may be when LEN or OUTCAP
 * is 0 (no input, no room).  Init needs no preparation of
 * Z: it overwrites Z, which therefore must not hold a stream from an
 * earlier successful init (clear that first).  A failed init leaves Z
 * without a stream: push and finish then fail with GPG_ERR_INV_STATE,
 * and clear is harmless, as it is on a zeroed Z and twice. */

/* ALGO is an OpenPGP compression id (1, 2 or 3); anything else fails with
 * GPG_ERR_COMPR_ALGO.  The expansion floor starts at the default. */
gpg_error_t pl_inflate_init (pl_inflate *z, int algo);

/* FLOOR in octets; 0 for PL_INFLATE_DEFAULT_FLOOR; PL_INFLATE_NO_LIMIT
 * lifts the limit (the user's explicit switch). */
void pl_inflate_set_expansion_floor (pl_inflate *z, uint64_t floor);

/* Decompresses from IN/LEN into OUT/OUTCAP.  *CONSUMED and *PRODUCED receive
 * the octets used and written.  Damaged data fails with GPG_ERR_BAD_DATA.
 * Input after the end of the compressed stream is consumed and ignored. */
gpg_error_t pl_inflate_push (pl_inflate *z, const uint8_t *in, size_t len,
                             size_t *consumed, uint8_t *out, size_t outcap,
                             size_t *produced);

/* Called at the end of input: GPG_ERR_TRUNCATED unless the stream ended.
 * (A ZIP stream from old PGP versions may lack its end marker; that is
 * accepted, as GnuPG accepts it.) */
gpg_error_t pl_inflate_finish (pl_inflate *z);
/* Releases Z's stream and zeroes Z. */
void pl_inflate_clear (pl_inflate *z);

typedef struct
{
  int algo;
  void *stream;
} pl_deflate;

/* LEVEL 1..9, as zlib and bzip2 use them (else GPG_ERR_INV_VALUE); an
 * unknown ALGO is GPG_ERR_COMPR_ALGO.  Init and clear as for pl_inflate
 * above; a push or finish that fails also drops the stream, so that
 * later calls fail with GPG_ERR_INV_STATE. */
gpg_error_t pl_deflate_init (pl_deflate *z, int algo, int level);
gpg_error_t pl_deflate_push (pl_deflate *z, const uint8_t *in, size_t len,
                             size_t *consumed, uint8_t *out, size_t outcap,
                             size_t *produced);
/* Flushes the end of the stream; call until *DONE is 1. */
gpg_error_t pl_deflate_finish (pl_deflate *z, uint8_t *out, size_t outcap,
                               size_t *produced, int *done);
/* Releases Z's stream and zeroes Z. */
void pl_deflate_clear (pl_deflate *z);
