/* armor-speed.c - the armor stages and CRC24 alone, in memory
 *
 * Encodes 64 MiB of random octets through pl_armor_encoder_push in 1 MiB
 * pushes (with and without CRC24), decodes the result through
 * pl_armor_decoder_push in 1 MiB pushes, and runs pl_crc24_update over the
 * buffer.  Then the same three on one 1 MiB push, 64 times over, so that
 * it stays in cache as a pipeline's stage finds it (names ending in
 * "-1M").  Best of 5 passes, one thread.  With an argument (scalar,
 * ssse3, avx2, avx512) the coder is forced to that level first, so one
 * binary compares the levels.  Output: one line per figure, "name MB/s" with MB = 10^6
 * octets of binary data.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "armor.h"

#define LEN ((size_t) 64 << 20)
#define PUSH ((size_t) 1 << 20)
#define PASSES 5

static double
now (void)
{
  struct timespec ts;
  clock_gettime (CLOCK_MONOTONIC, &ts);
  return ts.tv_sec + ts.tv_nsec / 1e9;
}

static size_t
encode_all (const uint8_t *in, char *out, int with_crc)
{
  pl_armor_encoder enc;
  size_t n = 0;

  pl_armor_encoder_init (&enc, PL_ARMOR_MESSAGE, with_crc);
  for (size_t off = 0; off < LEN; off += PUSH)
    n += pl_armor_encoder_push (&enc, in + off, PUSH, out + n);
  n += pl_armor_encoder_finish (&enc, out + n);
  return n;
}

static void
decode_all (const char *text, size_t len, uint8_t *out)
{
  pl_armor_decoder dec;
  size_t n = 0;

  pl_armor_decoder_init (&dec);
  for (size_t off = 0; off < len; off += PUSH)
    {
      size_t k = len - off < PUSH ? len - off : PUSH, got;

      if (pl_armor_decoder_push (&dec, (const uint8_t *) text + off, k,
                                 out + n, &got))
        {
          fprintf (stderr, "armor-speed: decoding failed\n");
          exit (1);
        }
      n += got;
    }
  if (pl_armor_decoder_finish (&dec) || n != LEN)
    {
      fprintf (stderr, "armor-speed: decoding failed at the end\n");
      exit (1);
    }
}

/* The in-cache figures: one 1 MiB message encoded, decoded and summed
 * LEN / PUSH times. */
static void
hot (const uint8_t *in, char *text, uint8_t *back, double best[3])
{
  volatile uint32_t sink = 0;
  size_t tlen = 0;
  double t0 = now (), t1, t2, t3;

  for (size_t r = 0; r < LEN / PUSH; r++)
    {
      pl_armor_encoder enc;

      pl_armor_encoder_init (&enc, PL_ARMOR_MESSAGE, 1);
      tlen = pl_armor_encoder_push (&enc, in, PUSH, text);
      tlen += pl_armor_encoder_finish (&enc, text + tlen);
    }
  t1 = now ();
  for (size_t r = 0; r < LEN / PUSH; r++)
    {
      pl_armor_decoder dec;
      size_t got;

      pl_armor_decoder_init (&dec);
      if (pl_armor_decoder_push (&dec, (const uint8_t *) text, tlen, back,
                                 &got)
          || pl_armor_decoder_finish (&dec) || got != PUSH
          || memcmp (back, in, PUSH))
        {
          fprintf (stderr, "armor-speed: the 1 MiB round trip failed\n");
          exit (1);
        }
    }
  t2 = now ();
  for (size_t r = 0; r < LEN / PUSH; r++)
    sink ^= pl_crc24_update (PL_CRC24_INIT, in, PUSH);
  t3 = now ();
  best[0] = t1 - t0 < best[0] ? t1 - t0 : best[0];
  best[1] = t2 - t1 < best[1] ? t2 - t1 : best[1];
  best[2] = t3 - t2 < best[2] ? t3 - t2 : best[2];
}

static void
report (const char *name, double best)
{
  printf ("%s %.0f\n", name, LEN / best / 1e6);
}

int
main (int argc, char **argv)
{
  uint8_t *in = malloc (LEN), *back = malloc (LEN);
  char *text = malloc (pl_armor_encoder_bound (LEN) + PUSH);
  double enc_best = 1e9, crc_enc_best = 1e9, dec_best = 1e9, crc_best = 1e9;
  size_t tlen = 0;
  volatile uint32_t sink = 0;
  double hot_best[3] = { 1e9, 1e9, 1e9 };

  if (!in || !back || !text)
    return 1;
  if (argc > 1 && pl_armor_force_simd (argv[1]))
    {
      fprintf (stderr, "armor-speed: level %s not available here\n", argv[1]);
      return 2;
    }
  srand (1);
  for (size_t i = 0; i < LEN; i++)
    in[i] = (uint8_t) rand ();

  for (int pass = 0; pass <= PASSES; pass++)
    {
      double t0 = now (), t1, t2, t3, t4;

      encode_all (in, text, 0);
      t1 = now ();
      tlen = encode_all (in, text, 1);
      t2 = now ();
      decode_all (text, tlen, back);
      t3 = now ();
      sink ^= pl_crc24_update (PL_CRC24_INIT, in, LEN);
      t4 = now ();
      if (pass == 0)
        continue;               /* warm-up */
      hot (in, text, back, hot_best);
      enc_best = t1 - t0 < enc_best ? t1 - t0 : enc_best;
      crc_enc_best = t2 - t1 < crc_enc_best ? t2 - t1 : crc_enc_best;
      dec_best = t3 - t2 < dec_best ? t3 - t2 : dec_best;
      crc_best = t4 - t3 < crc_best ? t4 - t3 : crc_best;
    }
  if (memcmp (in, back, LEN))
    {
      fprintf (stderr, "armor-speed: round trip differs\n");
      return 1;
    }
  printf ("simd %s\n", pl_armor_simd_name ());
  report ("armor-encode", enc_best);
  report ("armor-encode-crc24", crc_enc_best);
  report ("armor-decode-crc24", dec_best);
  report ("crc24", crc_best);
  report ("armor-encode-crc24-1M", hot_best[0]);
  report ("armor-decode-crc24-1M", hot_best[1]);
  report ("crc24-1M", hot_best[2]);
  return 0;
}
