/* armor-simd.c - vector kernels of the armor stages; see armor-simd.h
 *
 * Each function carries its own target attribute, so the file builds with
 * the project's baseline flags and nothing here runs unless armor.c has
 * checked the CPU first.
 */
#include "armor-simd.h"

#ifdef PL_ARMOR_HAVE_X86_KERNELS

#include <string.h>
#include <immintrin.h>

#define AVX2 __attribute__ ((target ("avx2")))
#define SSSE3 __attribute__ ((target ("ssse3")))
#define PCLMUL __attribute__ ((target ("pclmul,ssse3")))
#define AVX512 __attribute__ ((target ("avx2,avx512f,avx512bw,avx512vbmi")))
#define VPCLMUL \
  __attribute__ ((target ("avx512f,avx512bw,vpclmulqdq,pclmul,ssse3")))


/* ---- Encoding ------------------------------------------------------
 *
 * Each 32-bit lane gets the three octets of its group as [b1 b0 b2 b1];
 * two masked 16-bit multiplies then move each sextet into its own octet
 * (high half: a and c by mulhi, low half: b and d by mullo), and a 16-entry
 * table indexed by the sextet's range adds the offset to its character. */

/* Shuffle for four groups starting at octet OFF of a 16-octet lane. */
#define ENC_SHUF(off)                                                   \
  (off) + 1, (off) + 0, (off) + 2, (off) + 1,                           \
  (off) + 4, (off) + 3, (off) + 5, (off) + 4,                           \
  (off) + 7, (off) + 6, (off) + 8, (off) + 7,                           \
  (off) + 10, (off) + 9, (off) + 11, (off) + 10

/* Offsets to the character: 'A', 'a' - 26, '0' - 52 (ten times), '+' - 62,
 * '/' - 63. */
#define ENC_OFFSETS                                                     \
  65, 71, -4, -4, -4, -4, -4, -4, -4, -4, -4, -4, -19, -16, 0, 0

static inline AVX2 __m256i
enc_avx2 (__m256i in, __m256i shuf)
{
  const __m256i offsets = _mm256_setr_epi8 (ENC_OFFSETS, ENC_OFFSETS);
  __m256i t0, t1, t2, t3, idx, range;

  in = _mm256_shuffle_epi8 (in, shuf);
  t0 = _mm256_and_si256 (in, _mm256_set1_epi32 (0x0fc0fc00));
  t1 = _mm256_mulhi_epu16 (t0, _mm256_set1_epi32 (0x04000040));
  t2 = _mm256_and_si256 (in, _mm256_set1_epi32 (0x003f03f0));
  t3 = _mm256_mullo_epi16 (t2, _mm256_set1_epi32 (0x01000010));
  idx = _mm256_or_si256 (t1, t3);

  /* 0..25 -> 0, 26..51 -> 1, 52..61 -> 2..11, 62 -> 12, 63 -> 13. */
  range = _mm256_subs_epu8 (idx, _mm256_set1_epi8 (51));
  range = _mm256_sub_epi8 (range, _mm256_cmpgt_epi8 (idx,
                                                     _mm256_set1_epi8 (25)));
  return _mm256_add_epi8 (idx, _mm256_shuffle_epi8 (offsets, range));
}

static inline AVX2 __m256i
load2x128 (const uint8_t *lo, const uint8_t *hi)
{
  return _mm256_inserti128_si256 (
    _mm256_castsi128_si256 (_mm_loadu_si128 ((const __m128i *) lo)),
    _mm_loadu_si128 ((const __m128i *) hi), 1);
}

AVX2 void
pl_radix64_lines_avx2 (const uint8_t *in, size_t nlines, char *out)
{
  /* Octets 0..23 of a line come from two loads at 0 and 12; octets
   * 24..47 from loads at 24 and 32 (groups at offset 4 of that lane), so
   * that no load reaches past the line. */
  const __m256i first = _mm256_setr_epi8 (ENC_SHUF (0), ENC_SHUF (0));
  const __m256i second = _mm256_setr_epi8 (ENC_SHUF (0), ENC_SHUF (4));

  for (; nlines; nlines--, in += 48, out += 65)
    {
      __m256i a = enc_avx2 (load2x128 (in, in + 12), first);
      __m256i b = enc_avx2 (load2x128 (in + 24, in + 32), second);

      _mm256_storeu_si256 ((__m256i *) out, a);
      _mm256_storeu_si256 ((__m256i *) (out + 32), b);
      out[64] = '\n';
    }
}

static inline SSSE3 __m128i
enc_ssse3 (__m128i in, __m128i shuf)
{
  const __m128i offsets = _mm_setr_epi8 (ENC_OFFSETS);
  __m128i t0, t1, t2, t3, idx, range;

  in = _mm_shuffle_epi8 (in, shuf);
  t0 = _mm_and_si128 (in, _mm_set1_epi32 (0x0fc0fc00));
  t1 = _mm_mulhi_epu16 (t0, _mm_set1_epi32 (0x04000040));
  t2 = _mm_and_si128 (in, _mm_set1_epi32 (0x003f03f0));
  t3 = _mm_mullo_epi16 (t2, _mm_set1_epi32 (0x01000010));
  idx = _mm_or_si128 (t1, t3);
  range = _mm_subs_epu8 (idx, _mm_set1_epi8 (51));
  range = _mm_sub_epi8 (range, _mm_cmpgt_epi8 (idx, _mm_set1_epi8 (25)));
  return _mm_add_epi8 (idx, _mm_shuffle_epi8 (offsets, range));
}

SSSE3 void
pl_radix64_lines_ssse3 (const uint8_t *in, size_t nlines, char *out)
{
  const __m128i at0 = _mm_setr_epi8 (ENC_SHUF (0));
  const __m128i at4 = _mm_setr_epi8 (ENC_SHUF (4));

  for (; nlines; nlines--, in += 48, out += 65)
    {
      __m128i a = enc_ssse3 (_mm_loadu_si128 ((const __m128i *) in), at0);
      __m128i b = enc_ssse3 (_mm_loadu_si128 ((const __m128i *) (in + 12)),
                             at0);
      __m128i c = enc_ssse3 (_mm_loadu_si128 ((const __m128i *) (in + 24)),
                             at0);
      __m128i d = enc_ssse3 (_mm_loadu_si128 ((const __m128i *) (in + 32)),
                             at4);

      _mm_storeu_si128 ((__m128i *) out, a);
      _mm_storeu_si128 ((__m128i *) (out + 16), b);
      _mm_storeu_si128 ((__m128i *) (out + 32), c);
      _mm_storeu_si128 ((__m128i *) (out + 48), d);
      out[64] = '\n';
    }
}


/* ---- Decoding ------------------------------------------------------
 *
 * A character is valid when the class bit of its high nibble (LUT_HI) is
 * not among the classes its low nibble is invalid for (LUT_LO):
 *   0x01 high 2 ('+' '/' only: low B, F)   0x02 high 3 (digits: low 0..9)
 *   0x04 high 4, 6 (letters: low 1..F)     0x08 high 5, 7 (letters: 0..A)
 *   0x10 high 0, 1, 8..F (never valid; every low nibble has this bit)
 * The high nibble (or '/', which shares it with '+') picks the offset from
 * character to sextet.  Two multiply-adds then pack four sextets into
 * three octets per 32-bit lane. */

#define DEC_LUT_LO                                                      \
  0x15, 0x11, 0x11, 0x11, 0x11, 0x11, 0x11, 0x11,                       \
  0x11, 0x11, 0x13, 0x1a, 0x1b, 0x1b, 0x1b, 0x1a
#define DEC_LUT_HI                                                      \
  0x10, 0x10, 0x01, 0x02, 0x04, 0x08, 0x04, 0x08,                       \
  0x10, 0x10, 0x10, 0x10, 0x10, 0x10, 0x10, 0x10
/* Index: high nibble, minus one for '/'. */
#define DEC_ROLL                                                        \
  0, 16, 19, 4, -65, -65, -71, -71, 0, 0, 0, 0, 0, 0, 0, 0
#define DEC_PACK                                                        \
  2, 1, 0, 6, 5, 4, 10, 9, 8, 14, 13, 12, -1, -1, -1, -1

/* Decodes one block; 0 if it holds anything but radix-64 characters. */
static inline AVX2 int
dec_avx2 (const uint8_t *in, uint8_t *out)
{
  const __m256i lut_lo = _mm256_setr_epi8 (DEC_LUT_LO, DEC_LUT_LO);
  const __m256i lut_hi = _mm256_setr_epi8 (DEC_LUT_HI, DEC_LUT_HI);
  const __m256i lut_roll = _mm256_setr_epi8 (DEC_ROLL, DEC_ROLL);
  const __m256i pack = _mm256_setr_epi8 (DEC_PACK, DEC_PACK);
  const __m256i mask_2f = _mm256_set1_epi8 (0x2f);
  __m256i str = _mm256_loadu_si256 ((const __m256i *) in);
  /* Masking with 0x2f keeps the nibble and clears bit 7, which would
   * make the shuffle yield 0; bit 5 is ignored by the shuffle. */
  __m256i hi_nib = _mm256_and_si256 (_mm256_srli_epi32 (str, 4), mask_2f);
  __m256i lo_nib = _mm256_and_si256 (str, mask_2f);
  __m256i hi = _mm256_shuffle_epi8 (lut_hi, hi_nib);
  __m256i lo = _mm256_shuffle_epi8 (lut_lo, lo_nib);
  __m256i roll;

  if (!_mm256_testz_si256 (lo, hi))
    return 0;
  roll = _mm256_shuffle_epi8 (lut_roll,
                              _mm256_add_epi8 (_mm256_cmpeq_epi8 (str,
                                                                  mask_2f),
                                               hi_nib));
  str = _mm256_add_epi8 (str, roll);
  str = _mm256_maddubs_epi16 (str, _mm256_set1_epi32 (0x01400140));
  str = _mm256_madd_epi16 (str, _mm256_set1_epi32 (0x00011000));
  str = _mm256_shuffle_epi8 (str, pack);
  str = _mm256_permutevar8x32_epi32 (str, _mm256_setr_epi32 (0, 1, 2, 4, 5,
                                                             6, 3, 7));
  _mm_storeu_si128 ((__m128i *) out, _mm256_castsi256_si128 (str));
  _mm_storel_epi64 ((__m128i *) (out + 16),
                    _mm256_extracti128_si256 (str, 1));
  return 1;
}

static inline SSSE3 int
dec_ssse3 (const uint8_t *in, uint8_t *out)
{
  const __m128i lut_lo = _mm_setr_epi8 (DEC_LUT_LO);
  const __m128i lut_hi = _mm_setr_epi8 (DEC_LUT_HI);
  const __m128i lut_roll = _mm_setr_epi8 (DEC_ROLL);
  const __m128i pack = _mm_setr_epi8 (DEC_PACK);
  const __m128i mask_2f = _mm_set1_epi8 (0x2f);
  __m128i str = _mm_loadu_si128 ((const __m128i *) in);
  __m128i hi_nib = _mm_and_si128 (_mm_srli_epi32 (str, 4), mask_2f);
  __m128i lo_nib = _mm_and_si128 (str, mask_2f);
  __m128i hi = _mm_shuffle_epi8 (lut_hi, hi_nib);
  __m128i lo = _mm_shuffle_epi8 (lut_lo, lo_nib);
  __m128i roll;
  uint32_t last;

  if (_mm_movemask_epi8 (_mm_cmpeq_epi8 (_mm_and_si128 (lo, hi),
                                         _mm_setzero_si128 ())) != 0xffff)
    return 0;
  roll = _mm_shuffle_epi8 (lut_roll,
                           _mm_add_epi8 (_mm_cmpeq_epi8 (str, mask_2f),
                                         hi_nib));
  str = _mm_add_epi8 (str, roll);
  str = _mm_maddubs_epi16 (str, _mm_set1_epi32 (0x01400140));
  str = _mm_madd_epi16 (str, _mm_set1_epi32 (0x00011000));
  str = _mm_shuffle_epi8 (str, pack);
  _mm_storel_epi64 ((__m128i *) out, str);
  last = (uint32_t) _mm_cvtsi128_si32 (_mm_srli_si128 (str, 8));
  memcpy (out + 8, &last, 4);
  return 1;
}

/* The loop both decoders share: blocks, and line ends between them. */
#define DECODE_LOOP(block, chars, octets)                               \
  const uint8_t *p = in, *end = in + len;                               \
  uint8_t *o = out;                                                     \
                                                                        \
  while (room - (size_t) (o - out) >= (octets))                         \
    {                                                                   \
      if ((size_t) (end - p) >= (chars) && block (p, o))                \
        {                                                               \
          p += (chars);                                                 \
          o += (octets);                                                \
        }                                                               \
      else if (p < end && *p == '\n')                                   \
        p++;                                                            \
      else if (end - p >= 2 && p[0] == '\r' && p[1] == '\n')            \
        p += 2;                                                         \
      else                                                              \
        break;                                                          \
    }                                                                   \
  *outlen = (size_t) (o - out);                                         \
  return (size_t) (p - in)

AVX2 size_t
pl_radix64_decode_avx2 (const uint8_t *in, size_t len, uint8_t *out,
                        size_t room, size_t *outlen)
{
  DECODE_LOOP (dec_avx2, 32, 24);
}

SSSE3 size_t
pl_radix64_decode_ssse3 (const uint8_t *in, size_t len, uint8_t *out,
                         size_t room, size_t *outlen)
{
  DECODE_LOOP (dec_ssse3, 16, 12);
}


/* AVX-512 VBMI: a line of 64 characters in one register.  A two-table
 * permute maps each character below 128 to its sextet and every other
 * one to 0x80 (with the character's own bit 7, that flags all that is
 * not radix-64); the multiply-adds are AVX2's, and a permute packs the
 * 48 octets. */
#define X 0x80
static const uint8_t dec_sextets[128] = {
  X, X, X, X, X, X, X, X, X, X, X, X, X, X, X, X,
  X, X, X, X, X, X, X, X, X, X, X, X, X, X, X, X,
  X, X, X, X, X, X, X, X, X, X, X, 62, X, X, X, 63,
  52, 53, 54, 55, 56, 57, 58, 59, 60, 61, X, X, X, X, X, X,
  X, 0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14,
  15, 16, 17, 18, 19, 20, 21, 22, 23, 24, 25, X, X, X, X, X,
  X, 26, 27, 28, 29, 30, 31, 32, 33, 34, 35, 36, 37, 38, 39, 40,
  41, 42, 43, 44, 45, 46, 47, 48, 49, 50, 51, X, X, X, X, X,
};
#undef X
/* Octet 3j + i of the output is octet 2 - i of lane j (DEC_PACK). */
#define PACK3(j) 4 * (j) + 2, 4 * (j) + 1, 4 * (j)
static const uint8_t dec_pack[64] = {
  PACK3 (0), PACK3 (1), PACK3 (2), PACK3 (3), PACK3 (4), PACK3 (5),
  PACK3 (6), PACK3 (7), PACK3 (8), PACK3 (9), PACK3 (10), PACK3 (11),
  PACK3 (12), PACK3 (13), PACK3 (14), PACK3 (15),
};
#undef PACK3

static inline AVX512 int
dec_avx512 (const uint8_t *in, uint8_t *out, __m512i lo, __m512i hi,
            __m512i pack)
{
  __m512i str = _mm512_loadu_si512 (in);
  __m512i sextets = _mm512_permutex2var_epi8 (lo, str, hi);

  if (_mm512_movepi8_mask (_mm512_or_si512 (str, sextets)))
    return 0;
  sextets = _mm512_maddubs_epi16 (sextets, _mm512_set1_epi32 (0x01400140));
  sextets = _mm512_madd_epi16 (sextets, _mm512_set1_epi32 (0x00011000));
  _mm512_mask_storeu_epi8 (out, 0x0000ffffffffffffULL,
                           _mm512_permutexvar_epi8 (pack, sextets));
  return 1;
}

/* Lines of 64 characters go 64 at a time; other layouts (76-character
 * lines, a line's tail) fall back to AVX2's 32, as DECODE_LOOP. */
AVX512 size_t
pl_radix64_decode_avx512 (const uint8_t *in, size_t len, uint8_t *out,
                          size_t room, size_t *outlen)
{
  const __m512i lo = _mm512_loadu_si512 (dec_sextets);
  const __m512i hi = _mm512_loadu_si512 (dec_sextets + 64);
  const __m512i pack = _mm512_loadu_si512 (dec_pack);
  const uint8_t *p = in, *end = in + len;
  uint8_t *o = out;

  while (room - (size_t) (o - out) >= 24)
    {
      size_t left = (size_t) (end - p);

      if (left >= 64 && room - (size_t) (o - out) >= 48
          && dec_avx512 (p, o, lo, hi, pack))
        {
          p += 64;
          o += 48;
        }
      else if (left >= 32 && dec_avx2 (p, o))
        {
          p += 32;
          o += 24;
        }
      else if (p < end && *p == '\n')
        p++;
      else if (end - p >= 2 && p[0] == '\r' && p[1] == '\n')
        p += 2;
      else
        break;
    }
  *outlen = (size_t) (o - out);
  return (size_t) (p - in);
}


/* ---- CRC24 folding -------------------------------------------------
 *
 * Octets are read as one polynomial, first octet highest (so each 16-octet
 * block is byte-reversed into a 128-bit register).  With P the 33-bit
 * generator, a 128-bit accumulator A followed by N more bits is congruent
 * to A_hi * (x^(N+64) mod P) + A_lo * (x^N mod P), which is below 96 bits:
 * four accumulators jump 512 bits per step, then are folded into one.
 * The CRC of a polynomial only depends on it modulo P, so the CRC of the
 * last accumulator's 16 octets is the CRC of the data. */

/* x^N mod P, for P = 0x1864cfb00 (the generator times x^8): the distances
 * the accumulators jump.  Computed once by shifting and reducing N times;
 * any error shows in every CRC the tests check against the bitwise one. */
#define XPOW_128 0x64e4d700
#define XPOW_192 0x2c8c9d00
#define XPOW_512 0x467d2400
#define XPOW_576 0x1f428700
#define XPOW_2048 0xa79dfd00
#define XPOW_2112 0x09e45400

static inline PCLMUL __m128i
fold (__m128i acc, __m128i k, __m128i next)
{
  return _mm_xor_si128 (_mm_xor_si128 (_mm_clmulepi64_si128 (acc, k, 0x11),
                                       _mm_clmulepi64_si128 (acc, k, 0x00)),
                        next);
}

PCLMUL void
pl_crc24_fold_pclmul (uint32_t reg, const uint8_t *data, size_t nblocks,
                      uint8_t out[16])
{
  const __m128i rev = _mm_setr_epi8 (15, 14, 13, 12, 11, 10, 9, 8,
                                     7, 6, 5, 4, 3, 2, 1, 0);
  const __m128i k512 = _mm_set_epi64x (XPOW_576, XPOW_512);
  const __m128i k128 = _mm_set_epi64x (XPOW_192, XPOW_128);
  __m128i a[4];

#define BLOCK(i)                                                        \
  _mm_shuffle_epi8 (_mm_loadu_si128 ((const __m128i *) data + (i)), rev)

  for (int i = 0; i < 4; i++)
    a[i] = BLOCK (i);
  a[0] = _mm_xor_si128 (a[0], _mm_set_epi32 ((int) reg, 0, 0, 0));
  for (nblocks--, data += 64; nblocks; nblocks--, data += 64)
    for (int i = 0; i < 4; i++)
      a[i] = fold (a[i], k512, BLOCK (i));
#undef BLOCK

  a[0] = fold (a[0], k128, a[1]);
  a[0] = fold (a[0], k128, a[2]);
  a[0] = fold (a[0], k128, a[3]);
  _mm_storeu_si128 ((__m128i *) out, _mm_shuffle_epi8 (a[0], rev));
}

/* The same with VPCLMULQDQ: sixteen accumulators in four 512-bit
 * registers jump 2048 bits per step, then are folded into one, lane by
 * lane, as above. */
VPCLMUL void
pl_crc24_fold_vpclmul (uint32_t reg, const uint8_t *data, size_t nblocks,
                       uint8_t out[16])
{
  const __m128i rev = _mm_setr_epi8 (15, 14, 13, 12, 11, 10, 9, 8,
                                     7, 6, 5, 4, 3, 2, 1, 0);
  const __m512i rev4 = _mm512_broadcast_i32x4 (rev);
  const __m512i k2048 = _mm512_broadcast_i32x4 (
    _mm_set_epi64x (XPOW_2112, XPOW_2048));
  const __m128i k128 = _mm_set_epi64x (XPOW_192, XPOW_128);
  __m512i a[4];
  __m128i lanes[16], acc;

#define BLOCK(i)                                                        \
  _mm512_shuffle_epi8 (_mm512_loadu_si512 (data + 64 * (i)), rev4)

  for (int i = 0; i < 4; i++)
    a[i] = BLOCK (i);
  a[0] = _mm512_xor_si512 (a[0], _mm512_zextsi128_si512 (
                                   _mm_set_epi32 ((int) reg, 0, 0, 0)));
  for (nblocks--, data += 256; nblocks; nblocks--, data += 256)
    for (int i = 0; i < 4; i++)
      a[i] = _mm512_ternarylogic_epi64 (
        _mm512_clmulepi64_epi128 (a[i], k2048, 0x11),
        _mm512_clmulepi64_epi128 (a[i], k2048, 0x00), BLOCK (i), 0x96);
#undef BLOCK

  for (int i = 0; i < 4; i++)
    _mm512_storeu_si512 (lanes + 4 * i, a[i]);
  acc = lanes[0];
  for (int l = 1; l < 16; l++)
    acc = fold (acc, k128, lanes[l]);
  _mm_storeu_si128 ((__m128i *) out, _mm_shuffle_epi8 (acc, rev));
}

#endif /* PL_ARMOR_HAVE_X86_KERNELS */
