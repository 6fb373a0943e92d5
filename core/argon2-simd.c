/* argon2-simd.c - vector kernels of Argon2's compression; see
 * argon2-simd.h
 *
 * The function carries its own target attribute, so the file builds with
 * the project's baseline flags, and nothing here runs unless argon2.c has
 * checked the CPU first.
 */
#include "argon2-simd.h"

#ifdef PL_ARGON2_HAVE_X86_KERNELS

#include <immintrin.h>

#define AVX2 __attribute__ ((target ("avx2")))
#define AVX512 __attribute__ ((target ("avx512f")))

/* The block is 32 registers of 4 words, register k holding words 4k to
 * 4k + 3.  G's permutation P runs first on the 8 rows of 16 words (row r
 * is registers 4r to 4r + 3), two rows at a time, then on the 8 columns
 * (column c is words 2c, 2c + 1, 2c + 16, 2c + 17, ..., 2c + 113), two
 * columns at a time: registers i, i + 4, ..., i + 28 hold columns 2i and
 * 2i + 1 exactly, the first in their low 128 bits, so that the column
 * step needs no shuffle at all and the diagonal step only in-lane ones. */

static inline AVX2 __m256i
blamka (__m256i x, __m256i y)
{
  __m256i z = _mm256_mul_epu32 (x, y);

  return _mm256_add_epi64 (_mm256_add_epi64 (x, y), _mm256_add_epi64 (z, z));
}

static inline AVX2 __m256i
rotr32 (__m256i x)
{
  return _mm256_shuffle_epi32 (x, _MM_SHUFFLE (2, 3, 0, 1));
}

static inline AVX2 __m256i
rotr24 (__m256i x)
{
  const __m256i r24 = _mm256_setr_epi8 (3, 4, 5, 6, 7, 0, 1, 2,
                                        11, 12, 13, 14, 15, 8, 9, 10,
                                        3, 4, 5, 6, 7, 0, 1, 2,
                                        11, 12, 13, 14, 15, 8, 9, 10);
  return _mm256_shuffle_epi8 (x, r24);
}

static inline AVX2 __m256i
rotr16 (__m256i x)
{
  const __m256i r16 = _mm256_setr_epi8 (2, 3, 4, 5, 6, 7, 0, 1,
                                        10, 11, 12, 13, 14, 15, 8, 9,
                                        2, 3, 4, 5, 6, 7, 0, 1,
                                        10, 11, 12, 13, 14, 15, 8, 9);
  return _mm256_shuffle_epi8 (x, r16);
}

static inline AVX2 __m256i
rotr63 (__m256i x)
{
  return _mm256_xor_si256 (_mm256_srli_epi64 (x, 63), _mm256_add_epi64 (x, x));
}

/* GB of RFC 9106 §3.6 on four independent quadruples at once, twice. */
#define GB2(a0, b0, c0, d0, a1, b1, c1, d1)                             \
  do {                                                                  \
    a0 = blamka (a0, b0); a1 = blamka (a1, b1);                         \
    d0 = rotr32 (_mm256_xor_si256 (d0, a0));                            \
    d1 = rotr32 (_mm256_xor_si256 (d1, a1));                            \
    c0 = blamka (c0, d0); c1 = blamka (c1, d1);                         \
    b0 = rotr24 (_mm256_xor_si256 (b0, c0));                            \
    b1 = rotr24 (_mm256_xor_si256 (b1, c1));                            \
    a0 = blamka (a0, b0); a1 = blamka (a1, b1);                         \
    d0 = rotr16 (_mm256_xor_si256 (d0, a0));                            \
    d1 = rotr16 (_mm256_xor_si256 (d1, a1));                            \
    c0 = blamka (c0, d0); c1 = blamka (c1, d1);                         \
    b0 = rotr63 (_mm256_xor_si256 (b0, c0));                            \
    b1 = rotr63 (_mm256_xor_si256 (b1, c1));                            \
  } while (0)

/* P on two rows: row 0 is A0 B0 C0 D0 (v0..v3, v4..v7, ...), row 1 A1 B1
 * C1 D1.  The diagonal step turns b, c and d by one, two and three words. */
#define ROWS2(A0, B0, C0, D0, A1, B1, C1, D1)                           \
  do {                                                                  \
    GB2 (A0, B0, C0, D0, A1, B1, C1, D1);                               \
    B0 = _mm256_permute4x64_epi64 (B0, _MM_SHUFFLE (0, 3, 2, 1));       \
    B1 = _mm256_permute4x64_epi64 (B1, _MM_SHUFFLE (0, 3, 2, 1));       \
    C0 = _mm256_permute4x64_epi64 (C0, _MM_SHUFFLE (1, 0, 3, 2));       \
    C1 = _mm256_permute4x64_epi64 (C1, _MM_SHUFFLE (1, 0, 3, 2));       \
    D0 = _mm256_permute4x64_epi64 (D0, _MM_SHUFFLE (2, 1, 0, 3));       \
    D1 = _mm256_permute4x64_epi64 (D1, _MM_SHUFFLE (2, 1, 0, 3));       \
    GB2 (A0, B0, C0, D0, A1, B1, C1, D1);                               \
    B0 = _mm256_permute4x64_epi64 (B0, _MM_SHUFFLE (2, 1, 0, 3));       \
    B1 = _mm256_permute4x64_epi64 (B1, _MM_SHUFFLE (2, 1, 0, 3));       \
    C0 = _mm256_permute4x64_epi64 (C0, _MM_SHUFFLE (1, 0, 3, 2));       \
    C1 = _mm256_permute4x64_epi64 (C1, _MM_SHUFFLE (1, 0, 3, 2));       \
    D0 = _mm256_permute4x64_epi64 (D0, _MM_SHUFFLE (0, 3, 2, 1));       \
    D1 = _mm256_permute4x64_epi64 (D1, _MM_SHUFFLE (0, 3, 2, 1));       \
  } while (0)

/* Swaps the two words of each 128-bit half. */
#define SWAP64(x) _mm256_shuffle_epi32 ((x), _MM_SHUFFLE (1, 0, 3, 2))

/* P on two columns, laid out as above: A0 = [v0 v1 | v0' v1'], A1 = [v2
 * v3 | v2' v3'], B0 = [v4 v5 | ..], B1 = [v6 v7 | ..] and so on.  The
 * diagonal step wants b = [v5 v6], [v7 v4], c = [v10 v11], [v8 v9] and d
 * = [v15 v12], [v13 v14] beside a: a blend of the two halves of b (of
 * d) and a swap within each 128 bits make them. */
#define COLS2(A0, B0, C0, D0, A1, B1, C1, D1)                           \
  do {                                                                  \
    __m256i t0, t1;                                                     \
    GB2 (A0, B0, C0, D0, A1, B1, C1, D1);                               \
    t0 = SWAP64 (_mm256_blend_epi32 (B0, B1, 0x33));                    \
    t1 = SWAP64 (_mm256_blend_epi32 (B0, B1, 0xcc));                    \
    B0 = t0; B1 = t1;                                                   \
    t0 = C0; C0 = C1; C1 = t0;                                          \
    t0 = SWAP64 (_mm256_blend_epi32 (D0, D1, 0xcc));                    \
    t1 = SWAP64 (_mm256_blend_epi32 (D0, D1, 0x33));                    \
    D0 = t0; D1 = t1;                                                   \
    GB2 (A0, B0, C0, D0, A1, B1, C1, D1);                               \
    t0 = SWAP64 (_mm256_blend_epi32 (B0, B1, 0xcc));                    \
    t1 = SWAP64 (_mm256_blend_epi32 (B0, B1, 0x33));                    \
    B0 = t0; B1 = t1;                                                   \
    t0 = C0; C0 = C1; C1 = t0;                                          \
    t0 = SWAP64 (_mm256_blend_epi32 (D0, D1, 0x33));                    \
    t1 = SWAP64 (_mm256_blend_epi32 (D0, D1, 0xcc));                    \
    D0 = t0; D1 = t1;                                                   \
  } while (0)

AVX2 void
pl_argon2_fill_avx2 (uint64_t *next, const uint64_t *prev,
                     const uint64_t *ref, int with_xor)
{
  __m256i s[32], r[32];
  int i;

  for (i = 0; i < 32; i++)
    {
      s[i] = _mm256_xor_si256 (
        _mm256_loadu_si256 ((const __m256i *) (prev + 4 * i)),
        _mm256_loadu_si256 ((const __m256i *) (ref + 4 * i)));
      r[i] = with_xor
             ? _mm256_xor_si256 (s[i],
                                 _mm256_loadu_si256 ((const __m256i *)
                                                     (next + 4 * i)))
             : s[i];
    }
  for (i = 0; i < 4; i++)
    ROWS2 (s[8 * i], s[8 * i + 1], s[8 * i + 2], s[8 * i + 3],
           s[8 * i + 4], s[8 * i + 5], s[8 * i + 6], s[8 * i + 7]);
  for (i = 0; i < 4; i++)
    COLS2 (s[i], s[8 + i], s[16 + i], s[24 + i],
           s[4 + i], s[12 + i], s[20 + i], s[28 + i]);
  for (i = 0; i < 32; i++)
    _mm256_storeu_si256 ((__m256i *) (next + 4 * i),
                         _mm256_xor_si256 (s[i], r[i]));
}

/* ---- AVX-512 ---------------------------------------------------------
 *
 * The same layout in 16 registers of 8 words, register k holding the
 * AVX2 kernel's registers 2k and 2k + 1: the columns need no shuffle
 * again (registers j, j + 2, ..., j + 14 hold columns 4j to 4j + 3), and
 * the rows are gathered two to a register, one in each 256-bit half, so
 * that the diagonal step's word turns stay within the halves.  Rotations
 * are one instruction (vprorq). */

static inline AVX512 __m512i
blamka512 (__m512i x, __m512i y)
{
  __m512i z = _mm512_mul_epu32 (x, y);

  return _mm512_add_epi64 (_mm512_add_epi64 (x, y), _mm512_add_epi64 (z, z));
}

#define GB512(a0, b0, c0, d0, a1, b1, c1, d1)                           \
  do {                                                                  \
    a0 = blamka512 (a0, b0); a1 = blamka512 (a1, b1);                   \
    d0 = _mm512_ror_epi64 (_mm512_xor_si512 (d0, a0), 32);              \
    d1 = _mm512_ror_epi64 (_mm512_xor_si512 (d1, a1), 32);              \
    c0 = blamka512 (c0, d0); c1 = blamka512 (c1, d1);                   \
    b0 = _mm512_ror_epi64 (_mm512_xor_si512 (b0, c0), 24);              \
    b1 = _mm512_ror_epi64 (_mm512_xor_si512 (b1, c1), 24);              \
    a0 = blamka512 (a0, b0); a1 = blamka512 (a1, b1);                   \
    d0 = _mm512_ror_epi64 (_mm512_xor_si512 (d0, a0), 16);              \
    d1 = _mm512_ror_epi64 (_mm512_xor_si512 (d1, a1), 16);              \
    c0 = blamka512 (c0, d0); c1 = blamka512 (c1, d1);                   \
    b0 = _mm512_ror_epi64 (_mm512_xor_si512 (b0, c0), 63);              \
    b1 = _mm512_ror_epi64 (_mm512_xor_si512 (b1, c1), 63);              \
  } while (0)

/* Turns the four words of each 256-bit half. */
#define TURN512(x, imm) _mm512_permutex_epi64 ((x), (imm))

/* P on four rows: rows 4q to 4q + 3 are registers 8q to 8q + 7, each
 * row two registers ([a b], [c d]). */
#define ROWS4(z, q)                                                     \
  do {                                                                  \
    __m512i a0 = _mm512_shuffle_i64x2 (z[8 * (q)], z[8 * (q) + 2], 0x44); \
    __m512i b0 = _mm512_shuffle_i64x2 (z[8 * (q)], z[8 * (q) + 2], 0xee); \
    __m512i c0 = _mm512_shuffle_i64x2 (z[8 * (q) + 1], z[8 * (q) + 3], 0x44); \
    __m512i d0 = _mm512_shuffle_i64x2 (z[8 * (q) + 1], z[8 * (q) + 3], 0xee); \
    __m512i a1 = _mm512_shuffle_i64x2 (z[8 * (q) + 4], z[8 * (q) + 6], 0x44); \
    __m512i b1 = _mm512_shuffle_i64x2 (z[8 * (q) + 4], z[8 * (q) + 6], 0xee); \
    __m512i c1 = _mm512_shuffle_i64x2 (z[8 * (q) + 5], z[8 * (q) + 7], 0x44); \
    __m512i d1 = _mm512_shuffle_i64x2 (z[8 * (q) + 5], z[8 * (q) + 7], 0xee); \
    GB512 (a0, b0, c0, d0, a1, b1, c1, d1);                             \
    b0 = TURN512 (b0, _MM_SHUFFLE (0, 3, 2, 1));                        \
    b1 = TURN512 (b1, _MM_SHUFFLE (0, 3, 2, 1));                        \
    c0 = TURN512 (c0, _MM_SHUFFLE (1, 0, 3, 2));                        \
    c1 = TURN512 (c1, _MM_SHUFFLE (1, 0, 3, 2));                        \
    d0 = TURN512 (d0, _MM_SHUFFLE (2, 1, 0, 3));                        \
    d1 = TURN512 (d1, _MM_SHUFFLE (2, 1, 0, 3));                        \
    GB512 (a0, b0, c0, d0, a1, b1, c1, d1);                             \
    b0 = TURN512 (b0, _MM_SHUFFLE (2, 1, 0, 3));                        \
    b1 = TURN512 (b1, _MM_SHUFFLE (2, 1, 0, 3));                        \
    c0 = TURN512 (c0, _MM_SHUFFLE (1, 0, 3, 2));                        \
    c1 = TURN512 (c1, _MM_SHUFFLE (1, 0, 3, 2));                        \
    d0 = TURN512 (d0, _MM_SHUFFLE (0, 3, 2, 1));                        \
    d1 = TURN512 (d1, _MM_SHUFFLE (0, 3, 2, 1));                        \
    z[8 * (q)] = _mm512_shuffle_i64x2 (a0, b0, 0x44);                   \
    z[8 * (q) + 2] = _mm512_shuffle_i64x2 (a0, b0, 0xee);               \
    z[8 * (q) + 1] = _mm512_shuffle_i64x2 (c0, d0, 0x44);               \
    z[8 * (q) + 3] = _mm512_shuffle_i64x2 (c0, d0, 0xee);               \
    z[8 * (q) + 4] = _mm512_shuffle_i64x2 (a1, b1, 0x44);               \
    z[8 * (q) + 6] = _mm512_shuffle_i64x2 (a1, b1, 0xee);               \
    z[8 * (q) + 5] = _mm512_shuffle_i64x2 (c1, d1, 0x44);               \
    z[8 * (q) + 7] = _mm512_shuffle_i64x2 (c1, d1, 0xee);               \
  } while (0)

#define SWAP512(x) _mm512_shuffle_epi32 ((x), (_MM_PERM_ENUM) 0x4e)

/* P on four columns, as COLS2 on twice the width. */
#define COLS4(A0, B0, C0, D0, A1, B1, C1, D1)                           \
  do {                                                                  \
    __m512i t0, t1;                                                     \
    GB512 (A0, B0, C0, D0, A1, B1, C1, D1);                             \
    t0 = SWAP512 (_mm512_mask_blend_epi64 (0x55, B0, B1));              \
    t1 = SWAP512 (_mm512_mask_blend_epi64 (0xaa, B0, B1));              \
    B0 = t0; B1 = t1;                                                   \
    t0 = C0; C0 = C1; C1 = t0;                                          \
    t0 = SWAP512 (_mm512_mask_blend_epi64 (0xaa, D0, D1));              \
    t1 = SWAP512 (_mm512_mask_blend_epi64 (0x55, D0, D1));              \
    D0 = t0; D1 = t1;                                                   \
    GB512 (A0, B0, C0, D0, A1, B1, C1, D1);                             \
    t0 = SWAP512 (_mm512_mask_blend_epi64 (0xaa, B0, B1));              \
    t1 = SWAP512 (_mm512_mask_blend_epi64 (0x55, B0, B1));              \
    B0 = t0; B1 = t1;                                                   \
    t0 = C0; C0 = C1; C1 = t0;                                          \
    t0 = SWAP512 (_mm512_mask_blend_epi64 (0x55, D0, D1));              \
    t1 = SWAP512 (_mm512_mask_blend_epi64 (0xaa, D0, D1));              \
    D0 = t0; D1 = t1;                                                   \
  } while (0)

AVX512 void
pl_argon2_fill_avx512 (uint64_t *next, const uint64_t *prev,
                       const uint64_t *ref, int with_xor)
{
  __m512i s[16], r[16];
  int i;

  for (i = 0; i < 16; i++)
    {
      s[i] = _mm512_xor_si512 (_mm512_loadu_si512 (prev + 8 * i),
                               _mm512_loadu_si512 (ref + 8 * i));
      r[i] = with_xor ? _mm512_xor_si512 (s[i],
                                          _mm512_loadu_si512 (next + 8 * i))
                      : s[i];
    }
  ROWS4 (s, 0);
  ROWS4 (s, 1);
  for (i = 0; i < 2; i++)
    COLS4 (s[i], s[4 + i], s[8 + i], s[12 + i],
           s[2 + i], s[6 + i], s[10 + i], s[14 + i]);
  for (i = 0; i < 16; i++)
    _mm512_storeu_si512 (next + 8 * i, _mm512_xor_si512 (s[i], r[i]));
}

#endif
