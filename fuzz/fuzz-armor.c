/* fuzz-armor.c - libFuzzer target for the ASCII armor decoder
 *
 * Input: octet 0 seeds the split points, the rest is armored text.
 *  1. The text is decoded in one push and again in pushes of random size
 *     (1..96 octets, sometimes 0); both must agree on the outcome and,
 *     when they succeed, on every octet.
 *  2. The same octets, taken as binary, are encoded (with and without
 *     CRC, in random pushes) and decoded back; that must give them back.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "armor.h"
#include "fuzz-common.h"

typedef struct
{
  gpg_error_t err;              /* first error of a push, or of finish */
  int done;
  size_t len;
} outcome;

static outcome
decode (const uint8_t *in, size_t len, uint8_t *out, uint32_t seed)
{
  pl_armor_decoder dec;
  outcome o = { 0, 0, 0 };
  size_t pos = 0;

  pl_armor_decoder_init (&dec);
  while (pos < len)
    {
      size_t n = len - pos, got = 0;

      if (seed)
        {
          uint32_t r = fuzz_rand (&seed);
          size_t want = (r & 0xff) == 0 ? 0 : 1 + (r >> 8) % 96;
          if (n > want)
            n = want;
        }
      /* OUT must hold N octets: give it exactly that much room at the end
       * of what was written so far. */
      o.err = pl_armor_decoder_push (&dec, in + pos, n, out + o.len, &got);
      if (got > n)
        abort ();
      o.len += got;
      pos += n;
      if (o.err)
        break;
    }
  o.done = pl_armor_decoder_done (&dec);
  if (!o.err)
    o.err = pl_armor_decoder_finish (&dec);
  return o;
}

static void
round_trip (const uint8_t *in, size_t len, uint32_t seed, int with_crc)
{
  pl_armor_encoder enc;
  size_t cap = 4096, pos = 0, n = 0;
  char *text = malloc (cap);
  uint8_t *back;
  outcome o;

  if (!text)
    abort ();
  pl_armor_encoder_init (&enc, PL_ARMOR_MESSAGE, with_crc);
  while (pos <= len)
    {
      size_t k = 1 + fuzz_rand (&seed) % 200, room;
      if (k > len - pos)
        k = len - pos;
      /* Exactly the room the encoder asks for, so that ASan sees any
       * octet written past its own bound. */
      room = pos == len ? pl_armor_encoder_bound (0)
                        : pl_armor_encoder_bound (k);
      if (n + room > cap)
        {
          cap = 2 * (n + room);
          text = realloc (text, cap);
          if (!text)
            abort ();
        }
      {
        char *dst = malloc (room);
        size_t w;
        if (!dst)
          abort ();
        w = pos == len ? pl_armor_encoder_finish (&enc, dst)
                       : pl_armor_encoder_push (&enc, in + pos, k, dst);
        if (w > room)
          abort ();
        memcpy (text + n, dst, w);
        n += w;
        free (dst);
      }
      if (pos == len)
        break;
      pos += k;
    }
  if (!pl_armor_detect ((const uint8_t *) text, n))
    abort ();
  back = malloc (n + 1);
  if (!back)
    abort ();
  o = decode ((const uint8_t *) text, n, back, seed | 1);
  if (o.err || !o.done || o.len != len || memcmp (back, in, len))
    {
      fprintf (stderr, "armor round trip failed: %s, %zu of %zu octets\n",
               gpg_strerror (o.err), o.len, len);
      abort ();
    }
  free (text);
  free (back);
}

int
LLVMFuzzerTestOneInput (const uint8_t *data, size_t size)
{
  uint32_t seed;
  int with_crc;
  uint8_t *a, *b;
  outcome one, split;

  if (size < 1)
    return 0;
  seed = 0x01000193u * (data[0] + 1u);
  with_crc = data[0] & 1;
  data++;
  size--;

  a = malloc (size + 1);
  b = malloc (size + 1);
  if (!a || !b)
    abort ();
  one = decode (data, size, a, 0);
  split = decode (data, size, b, seed);
  if (gpg_err_code (one.err) != gpg_err_code (split.err)
      || one.done != split.done
      || (!one.err && (one.len != split.len || memcmp (a, b, one.len))))
    {
      fprintf (stderr, "armor: one push: %s done=%d len=%zu;"
               " split pushes: %s done=%d len=%zu\n",
               gpg_strerror (one.err), one.done, one.len,
               gpg_strerror (split.err), split.done, split.len);
      abort ();
    }
  /* The detector must not read past what it is given. */
  (void) pl_armor_detect (data, size);
  free (a);
  free (b);

  round_trip (data, size, seed, with_crc);
  return 0;
}
