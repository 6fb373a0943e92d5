/* blake2b.c - BLAKE2b (RFC 7693), unkeyed, for Argon2; see blake2b.h */
#include "blake2b.h"
#include "algo.h"

#include <string.h>

static const uint64_t iv[8] = {
  0x6a09e667f3bcc908ull, 0xbb67ae8584caa73bull,
  0x3c6ef372fe94f82bull, 0xa54ff53a5f1d36f1ull,
  0x510e527fade682d1ull, 0x9b05688c2b3e6c1full,
  0x1f83d9abfb41bd6bull, 0x5be0cd19137e2179ull
};

static const uint8_t sigma[12][16] = {
  { 0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15 },
  { 14, 10, 4, 8, 9, 15, 13, 6, 1, 12, 0, 2, 11, 7, 5, 3 },
  { 11, 8, 12, 0, 5, 2, 15, 13, 10, 14, 3, 6, 7, 1, 9, 4 },
  { 7, 9, 3, 1, 13, 12, 11, 14, 2, 6, 5, 10, 4, 0, 15, 8 },
  { 9, 0, 5, 7, 2, 4, 10, 15, 14, 1, 11, 12, 6, 8, 3, 13 },
  { 2, 12, 6, 10, 0, 11, 8, 3, 4, 13, 7, 5, 15, 14, 1, 9 },
  { 12, 5, 1, 15, 14, 13, 4, 10, 0, 7, 6, 3, 9, 2, 8, 11 },
  { 13, 11, 7, 14, 12, 1, 3, 9, 5, 0, 15, 4, 8, 6, 2, 10 },
  { 6, 15, 14, 9, 11, 3, 0, 8, 12, 2, 13, 7, 1, 4, 10, 5 },
  { 10, 2, 8, 4, 7, 6, 1, 5, 15, 11, 9, 14, 3, 12, 13, 0 },
  { 0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15 },
  { 14, 10, 4, 8, 9, 15, 13, 6, 1, 12, 0, 2, 11, 7, 5, 3 }
};

#define G(a, b, c, d, x, y)                     \
  do {                                          \
    a = a + b + (x);                            \
    d = pl_rotr64 (d ^ a, 32);                  \
    c = c + d;                                  \
    b = pl_rotr64 (b ^ c, 24);                  \
    a = a + b + (y);                            \
    d = pl_rotr64 (d ^ a, 16);                  \
    c = c + d;                                  \
    b = pl_rotr64 (b ^ c, 63);                  \
  } while (0)

/* F of RFC 7693 §3.2 over the block in s->buf. */
static void
compress (pl_blake2b_state *s, int last)
{
  uint64_t m[16], v[16];

  for (int i = 0; i < 16; i++)
    m[i] = pl_load64_le (s->buf + 8 * i);
  memcpy (v, s->h, sizeof s->h);
  memcpy (v + 8, iv, sizeof iv);
  v[12] ^= s->t[0];
  v[13] ^= s->t[1];
  if (last)
    v[14] = ~v[14];
  for (int r = 0; r < 12; r++)
    {
      const uint8_t *z = sigma[r];

      G (v[0], v[4], v[8], v[12], m[z[0]], m[z[1]]);
      G (v[1], v[5], v[9], v[13], m[z[2]], m[z[3]]);
      G (v[2], v[6], v[10], v[14], m[z[4]], m[z[5]]);
      G (v[3], v[7], v[11], v[15], m[z[6]], m[z[7]]);
      G (v[0], v[5], v[10], v[15], m[z[8]], m[z[9]]);
      G (v[1], v[6], v[11], v[12], m[z[10]], m[z[11]]);
      G (v[2], v[7], v[8], v[13], m[z[12]], m[z[13]]);
      G (v[3], v[4], v[9], v[14], m[z[14]], m[z[15]]);
    }
  for (int i = 0; i < 8; i++)
    s->h[i] ^= v[i] ^ v[i + 8];
  /* The message words may be secret (a passphrase, H0). */
  pl_wipe (m, sizeof m);
  pl_wipe (v, sizeof v);
}

void
pl_blake2b_init (pl_blake2b_state *s, size_t outlen)
{
  memset (s, 0, sizeof *s);
  memcpy (s->h, iv, sizeof iv);
  /* Parameter block: digest length, key length 0, fanout 1, depth 1. */
  s->h[0] ^= 0x01010000ull ^ (uint64_t) outlen;
  s->outlen = outlen;
}

static void
add_count (pl_blake2b_state *s, uint64_t n)
{
  s->t[0] += n;
  if (s->t[0] < n)
    s->t[1]++;
}

void
pl_blake2b_update (pl_blake2b_state *s, const void *in, size_t len)
{
  const uint8_t *p = in;

  while (len)
    {
      size_t n;

      /* The last block is compressed by final, with its flag: a full
       * buffer waits until more input comes. */
      if (s->buflen == PL_BLAKE2B_BLOCK)
        {
          add_count (s, PL_BLAKE2B_BLOCK);
          compress (s, 0);
          s->buflen = 0;
        }
      n = PL_BLAKE2B_BLOCK - s->buflen;
      if (n > len)
        n = len;
      memcpy (s->buf + s->buflen, p, n);
      s->buflen += n;
      p += n;
      len -= n;
    }
}

void
pl_blake2b_final (pl_blake2b_state *s, uint8_t *out)
{
  uint8_t full[PL_BLAKE2B_OUT_MAX];

  add_count (s, s->buflen);
  memset (s->buf + s->buflen, 0, PL_BLAKE2B_BLOCK - s->buflen);
  compress (s, 1);
  for (int i = 0; i < 8; i++)
    for (int j = 0; j < 8; j++)
      full[8 * i + j] = (uint8_t) (s->h[i] >> (8 * j));
  memcpy (out, full, s->outlen);
  pl_wipe (full, sizeof full);
  pl_wipe (s, sizeof *s);
}

void
pl_blake2b_hash (uint8_t *out, size_t outlen, const void *in, size_t len)
{
  pl_blake2b_state s;

  pl_blake2b_init (&s, outlen);
  pl_blake2b_update (&s, in, len);
  pl_blake2b_final (&s, out);
}
