/* fuzz-inflate.c - libFuzzer target for the decompressor (compress.c)
 *
 * Input: octet 0 picks the algorithm (1 ZIP, 2 ZLIB, 3 BZip2) and seeds
 * the split points; the rest is compressed data.  It is inflated twice:
 * in one push with a large buffer, and in random-sized pushes (some
 * empty) into small output buffers (1..300 octets).  Both must end the
 * same way and produce the same octets.  Output stops at a cap so that a
 * bomb costs bounded time.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "compress.h"
#include "fuzz-common.h"

#define OUT_CAP (1u << 20)

typedef struct
{
  gpg_error_t err;
  size_t len;
  int capped;
} outcome;

static outcome
inflate_all (int algo, const uint8_t *in, size_t len, uint8_t *out,
             uint32_t seed)
{
  pl_inflate z;
  outcome o = { 0, 0, 0 };
  size_t pos = 0;
  int idle = 0;

  o.err = pl_inflate_init (&z, algo);
  if (o.err)
    return o;
  for (;;)
    {
      size_t n = len - pos, room = OUT_CAP - o.len, used = 0, produced = 0;

      if (seed)
        {
          uint32_t r = fuzz_rand (&seed);
          size_t want = (r & 0x1f) == 0 ? 0 : 1 + (r >> 5) % 257;
          size_t outcap = 1 + (r >> 16) % 300;
          if (n > want)
            n = want;
          if (room > outcap)
            room = outcap;
        }
      o.err = pl_inflate_push (&z, n ? in + pos : NULL, n, &used,
                               out + o.len, room, &produced);
      if (used > n || produced > room)
        abort ();
      pos += used;
      o.len += produced;
      if (o.err)
        break;
      if (o.len == OUT_CAP)
        {
          o.capped = 1;
          break;
        }
      if (pos == len && !produced)
        {
          /* End of input and nothing more came out: done. */
          o.err = pl_inflate_finish (&z);
          break;
        }
      /* No progress with input and room on offer: the stage is stuck.
       * A split push may offer no input (n == 0) now and then. */
      if (!used && !produced && n)
        {
          if (++idle > 4)
            {
              o.err = gpg_error (GPG_ERR_BAD_DATA);
              break;
            }
        }
      else
        idle = 0;
    }
  pl_inflate_clear (&z);
  return o;
}

int
LLVMFuzzerTestOneInput (const uint8_t *data, size_t size)
{
  static uint8_t *a, *b;
  int algo;
  uint32_t seed;
  outcome one, split;

  if (size < 1)
    return 0;
  if (!a)
    {
      a = malloc (OUT_CAP);
      b = malloc (OUT_CAP);
      if (!a || !b)
        abort ();
    }
  algo = 1 + data[0] % 3;
  seed = 0x2545F491u * (data[0] + 1u);
  data++;
  size--;

  one = inflate_all (algo, data, size, a, 0);
  split = inflate_all (algo, data, size, b, seed);
  if (one.capped || split.capped)
    {
      size_t n = one.len < split.len ? one.len : split.len;
      if (memcmp (a, b, n))
        abort ();
      return 0;
    }
  if (gpg_err_code (one.err) != gpg_err_code (split.err)
      || (!one.err && (one.len != split.len || memcmp (a, b, one.len))))
    {
      fprintf (stderr, "inflate algo %d: one push: %s, %zu octets;"
               " split: %s, %zu octets\n", algo, gpg_strerror (one.err),
               one.len, gpg_strerror (split.err), split.len);
      abort ();
    }
  return 0;
}
