/* armor.c - ASCII armor (RFC 9580 §6): radix-64 with an optional CRC24
 *
 * Both stages sit on the hot path of every armored message, so the inner
 * loops work on whole groups with table lookups and no per-octet calls.
 * All tables are built by the compiler from small constant expressions:
 * nothing is initialised at run time, so there is no first-use race.
 */
#include "armor.h"
#include "armor-simd.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>


/* ---- Compile-time table builders ----------------------------------- */

#define REP4(M, i)   M (i), M ((i) + 1), M ((i) + 2), M ((i) + 3)
#define REP16(M, i)  REP4 (M, i), REP4 (M, (i) + 4), \
                     REP4 (M, (i) + 8), REP4 (M, (i) + 12)
#define REP64(M, i)  REP16 (M, i), REP16 (M, (i) + 16), \
                     REP16 (M, (i) + 32), REP16 (M, (i) + 48)
#define REP256(M)    REP64 (M, 0), REP64 (M, 64), \
                     REP64 (M, 128), REP64 (M, 192)
#define REP1024(M, i) REP64 (M, (i)), REP64 (M, (i) + 64), \
                      REP64 (M, (i) + 128), REP64 (M, (i) + 192), \
                      REP64 (M, (i) + 256), REP64 (M, (i) + 320), \
                      REP64 (M, (i) + 384), REP64 (M, (i) + 448), \
                      REP64 (M, (i) + 512), REP64 (M, (i) + 576), \
                      REP64 (M, (i) + 640), REP64 (M, (i) + 704), \
                      REP64 (M, (i) + 768), REP64 (M, (i) + 832), \
                      REP64 (M, (i) + 896), REP64 (M, (i) + 960)
#define REP4096(M)   REP1024 (M, 0), REP1024 (M, 1024), \
                     REP1024 (M, 2048), REP1024 (M, 3072)


/* ---- CRC24 ---------------------------------------------------------
 *
 * The register is kept shifted left by 8 bits, which makes it an ordinary
 * MSB-first 32-bit CRC with the generator 0x864CFB << 8; that lets us use
 * slicing-by-8 (eight table lookups per eight octets, no serial
 * dependency between them) instead of one dependent lookup per octet.
 *
 * CRC_TK[x] is the register contribution of octet X followed by K zero
 * octets.  A CRC is linear, so each entry is the XOR of the entries for
 * the set bits of X; the eight single-bit entries per table were computed
 * with the bitwise algorithm of RFC 9580 §6.1.1 (the test suite checks the
 * whole function against that algorithm). */

#define CRC_LIN(x, c0, c1, c2, c3, c4, c5, c6, c7)              \
  ((((x) & 0x01) ? (c0) : 0u) ^ (((x) & 0x02) ? (c1) : 0u)      \
   ^ (((x) & 0x04) ? (c2) : 0u) ^ (((x) & 0x08) ? (c3) : 0u)    \
   ^ (((x) & 0x10) ? (c4) : 0u) ^ (((x) & 0x20) ? (c5) : 0u)    \
   ^ (((x) & 0x40) ? (c6) : 0u) ^ (((x) & 0x80) ? (c7) : 0u))

#define CRC_T0(x) CRC_LIN (x, 0x864cfb00u, 0x8ad50d00u, 0x93e6e100u, \
                           0xa1813900u, 0xc54e8900u, 0x0cd1e900u,    \
                           0x19a3d200u, 0x3347a400u)
#define CRC_T1(x) CRC_LIN (x, 0x668f4800u, 0xcd1e9000u, 0x1c71db00u, \
                           0x38e3b600u, 0x71c76c00u, 0xe38ed800u,    \
                           0x41514b00u, 0x82a29600u)
#define CRC_T2(x) CRC_LIN (x, 0x8309d700u, 0x805f5500u, 0x86f25100u, \
                           0x8ba85900u, 0x911c4900u, 0xa4746900u,    \
                           0xcea42900u, 0x1b04a900u)
#define CRC_T3(x) CRC_LIN (x, 0x36095200u, 0x6c12a400u, 0xd8254800u, \
                           0x36066b00u, 0x6c0cd600u, 0xd819ac00u,    \
                           0x367fa300u, 0x6cff4600u)
#define CRC_T4(x) CRC_LIN (x, 0xd9fe8c00u, 0x35b1e300u, 0x6b63c600u, \
                           0xd6c78c00u, 0x2bc3e300u, 0x5787c600u,    \
                           0xaf0f8c00u, 0xd853e300u)
#define CRC_T5(x) CRC_LIN (x, 0x36eb3d00u, 0x6dd67a00u, 0xdbacf400u, \
                           0x31151300u, 0x622a2600u, 0xc4544c00u,    \
                           0x0ee46300u, 0x1dc8c600u)
#define CRC_T6(x) CRC_LIN (x, 0x3b918c00u, 0x77231800u, 0xee463000u, \
                           0x5ac09b00u, 0xb5813600u, 0xed4e9700u,    \
                           0x5cd1d500u, 0xb9a3aa00u)
#define CRC_T7(x) CRC_LIN (x, 0xf50baf00u, 0x6c5ba500u, 0xd8b74a00u, \
                           0x37226f00u, 0x6e44de00u, 0xdc89bc00u,    \
                           0x3f5f8300u, 0x7ebf0600u)

static const uint32_t crc_table[8][256] = {
  { REP256 (CRC_T0) }, { REP256 (CRC_T1) },
  { REP256 (CRC_T2) }, { REP256 (CRC_T3) },
  { REP256 (CRC_T4) }, { REP256 (CRC_T5) },
  { REP256 (CRC_T6) }, { REP256 (CRC_T7) }
};

static inline uint32_t
load_be32 (const uint8_t *p)
{
  /* Compilers turn this into one load plus a byte swap. */
  return ((uint32_t) p[0] << 24) | ((uint32_t) p[1] << 16)
         | ((uint32_t) p[2] << 8) | (uint32_t) p[3];
}

/* Slicing-by-8 on the shifted register R. */
static uint32_t
crc_tables (uint32_t r, const uint8_t *data, size_t len)
{
  while (len >= 8)
    {
      uint32_t x = r ^ load_be32 (data);
      uint32_t y = load_be32 (data + 4);

      r = crc_table[7][x >> 24] ^ crc_table[6][(x >> 16) & 0xff]
          ^ crc_table[5][(x >> 8) & 0xff] ^ crc_table[4][x & 0xff]
          ^ crc_table[3][y >> 24] ^ crc_table[2][(y >> 16) & 0xff]
          ^ crc_table[1][(y >> 8) & 0xff] ^ crc_table[0][y & 0xff];
      data += 8;
      len -= 8;
    }
  while (len--)
    r = (r << 8) ^ crc_table[0][(r >> 24) ^ *data++];
  return r;
}

/* What folds CRC24 (armor-simd.c): nothing, PCLMULQDQ, or VPCLMULQDQ on
 * 512-bit registers as well. */
enum { CRC_FOLD_NONE, CRC_FOLD_PCLMUL, CRC_FOLD_WIDE };
static int crc_fold_level (void);

/* Below these, folding's set-up costs more than it saves. */
#define CRC_FOLD_MIN 256
#define CRC_FOLD_WIDE_MIN 1024

uint32_t
pl_crc24_update (uint32_t crc, const uint8_t *data, size_t len)
{
  uint32_t r = (crc & 0xffffffu) << 8;

#ifdef PL_ARMOR_HAVE_X86_KERNELS
  int fold = len >= CRC_FOLD_MIN ? crc_fold_level () : 0;
  uint8_t folded[16];

  if (fold == CRC_FOLD_WIDE && len >= CRC_FOLD_WIDE_MIN)
    {
      size_t nblocks = len / 256;

      pl_crc24_fold_vpclmul (r, data, nblocks, folded);
      r = crc_tables (0, folded, sizeof folded);
      data += 256 * nblocks;
      len -= 256 * nblocks;
    }
  if (fold && len >= CRC_FOLD_MIN)
    {
      size_t nblocks = len / 64;

      pl_crc24_fold_pclmul (r, data, nblocks, folded);
      r = crc_tables (0, folded, sizeof folded);
      data += 64 * nblocks;
      len -= 64 * nblocks;
    }
#endif
  return crc_tables (r, data, len) >> 8;
}


/* ---- Radix-64 encoding --------------------------------------------- */

/* The alphabet as a constant expression, so that it can fill tables. */
#define B64CHAR(v)                                              \
  ((v) < 26 ? 'A' + (v) : (v) < 52 ? 'a' + (v) - 26             \
   : (v) < 62 ? '0' + (v) - 52 : (v) == 62 ? '+' : '/')

/* Two output characters per 12 input bits: half the lookups, and
 * each one a two-octet copy.  8 KiB stays in L1. */
#define B64PAIR(i) { (char) B64CHAR ((i) >> 6), (char) B64CHAR ((i) & 63) }
static const char b64_pairs[4096][2] = { REP4096 (B64PAIR) };

#define B64C(i) (char) B64CHAR (i)
static const char b64_chars[64] = { REP16 (B64C, 0), REP16 (B64C, 16),
                                    REP16 (B64C, 32), REP16 (B64C, 48) };

/* Encodes NGROUPS whole groups of three octets. */
static inline void
encode_groups (const uint8_t *in, size_t ngroups, char *out)
{
  for (; ngroups; ngroups--, in += 3, out += 4)
    {
      uint32_t v = ((uint32_t) in[0] << 16) | ((uint32_t) in[1] << 8) | in[2];

      memcpy (out, b64_pairs[v >> 12], 2);
      memcpy (out + 2, b64_pairs[v & 0xfff], 2);
    }
}

/* Encodes the last 1 or 2 octets with padding. */
static inline void
encode_tail (const uint8_t *in, size_t len, char *out)
{
  uint32_t v = (uint32_t) in[0] << 16;

  if (len > 1)
    v |= (uint32_t) in[1] << 8;
  out[0] = b64_chars[v >> 18];
  out[1] = b64_chars[(v >> 12) & 63];
  out[2] = len > 1 ? b64_chars[(v >> 6) & 63] : '=';
  out[3] = '=';
}

size_t
pl_radix64_encode (const uint8_t *in, size_t len, char *out)
{
  size_t ngroups = len / 3;

  encode_groups (in, ngroups, out);
  if (len % 3)
    {
      encode_tail (in + 3 * ngroups, len % 3, out + 4 * ngroups);
      ngroups++;
    }
  return 4 * ngroups;
}


/* ---- Choosing the code ---------------------------------------------
 *
 * Vector kernels (armor-simd.c) where the CPU has them. */

#define LINE_CHARS 64                   /* RFC 9580 allows up to 76 */
#define LINE_OCTETS (LINE_CHARS / 4 * 3)

/* Whole lines: LINE_OCTETS octets into LINE_CHARS characters and an LF. */
static void
encode_lines_scalar (const uint8_t *in, size_t nlines, char *out)
{
  for (; nlines; nlines--, in += LINE_OCTETS, out += LINE_CHARS + 1)
    {
      encode_groups (in, LINE_OCTETS / 3, out);
      out[LINE_CHARS] = '\n';
    }
}

typedef struct
{
  const char *name;
  const char *cpu_feature;      /* for __builtin_cpu_supports; NULL: none */
  void (*encode_lines) (const uint8_t *in, size_t nlines, char *out);
  /* NULL: the portable decoder does it all. */
  size_t (*decode_blocks) (const uint8_t *in, size_t len, uint8_t *out,
                           size_t room, size_t *outlen);
} armor_kernels;

/* Best first. */
static const armor_kernels kernel_levels[] = {
#ifdef PL_ARMOR_HAVE_X86_KERNELS
  /* Encoding stays AVX2's: one 512-bit register a line measured no faster
   * (the stores of 65 characters a line bound it). */
  { "avx512", "avx512vbmi", pl_radix64_lines_avx2, pl_radix64_decode_avx512 },
  { "avx2", "avx2", pl_radix64_lines_avx2, pl_radix64_decode_avx2 },
  { "ssse3", "ssse3", pl_radix64_lines_ssse3, pl_radix64_decode_ssse3 },
#endif
  { "scalar", NULL, encode_lines_scalar, NULL },
};
#define N_LEVELS (sizeof kernel_levels / sizeof kernel_levels[0])

/* Set once at first use (every thread computes the same answer, so the
 * race is harmless) or by pl_armor_force_simd. */
static const armor_kernels *active_level;
static int active_crc_fold;

static int
level_supported (const armor_kernels *k)
{
#ifdef PL_ARMOR_HAVE_X86_KERNELS
  /* __builtin_cpu_supports wants a literal; it also checks that the
   * system saves the registers (XCR0). */
  if (k->cpu_feature && !strcmp (k->cpu_feature, "avx512vbmi"))
    return __builtin_cpu_supports ("avx512vbmi")
           && __builtin_cpu_supports ("avx512bw")
           && __builtin_cpu_supports ("avx512f")
           && __builtin_cpu_supports ("avx2");
  if (k->cpu_feature && !strcmp (k->cpu_feature, "avx2"))
    return __builtin_cpu_supports ("avx2");
  if (k->cpu_feature && !strcmp (k->cpu_feature, "ssse3"))
    return __builtin_cpu_supports ("ssse3");
#endif
  return k->cpu_feature == NULL;
}

static int
crc_fold_supported (const armor_kernels *k)
{
#ifdef PL_ARMOR_HAVE_X86_KERNELS
  if (!k->decode_blocks || !__builtin_cpu_supports ("pclmul")
      || !__builtin_cpu_supports ("ssse3"))
    return CRC_FOLD_NONE;
  if (k->decode_blocks == pl_radix64_decode_avx512
      && __builtin_cpu_supports ("vpclmulqdq"))
    return CRC_FOLD_WIDE;
  return CRC_FOLD_PCLMUL;
#else
  (void) k;
  return CRC_FOLD_NONE;
#endif
}

/* The level called NAME if it is supported; NULL for the best one. */
static const armor_kernels *
find_level (const char *name)
{
  for (size_t i = 0; i < N_LEVELS; i++)
    if ((!name || !strcmp (name, kernel_levels[i].name))
        && level_supported (&kernel_levels[i]))
      return &kernel_levels[i];
  return NULL;
}

static void
set_level (const armor_kernels *k)
{
  __atomic_store_n (&active_crc_fold, crc_fold_supported (k),
                    __ATOMIC_RELAXED);
  __atomic_store_n (&active_level, k, __ATOMIC_RELEASE);
}

static const armor_kernels *
active_kernels (void)
{
  const armor_kernels *k = __atomic_load_n (&active_level, __ATOMIC_ACQUIRE);

  if (!k)
    {
      const char *want = getenv ("PADLOCK_ARMOR_SIMD");

      k = want ? find_level (want) : NULL;
      if (!k)
        k = find_level (NULL);
      set_level (k);
    }
  return k;
}

static int
crc_fold_level (void)
{
  active_kernels ();
  return __atomic_load_n (&active_crc_fold, __ATOMIC_RELAXED);
}

const char *
pl_armor_simd_name (void)
{
  return active_kernels ()->name;
}

gpg_error_t
pl_armor_force_simd (const char *name)
{
  const armor_kernels *k = find_level (name);

  if (!k)
    return gpg_error (GPG_ERR_NOT_SUPPORTED);
  set_level (k);
  return 0;
}


/* ---- Armor encoder ------------------------------------------------- */

static const char *const label_text[] = {
  [PL_ARMOR_MESSAGE] = "MESSAGE",
  [PL_ARMOR_PUBLIC_KEY] = "PUBLIC KEY BLOCK",
  [PL_ARMOR_PRIVATE_KEY] = "PRIVATE KEY BLOCK",
  [PL_ARMOR_SIGNATURE] = "SIGNATURE"
};
#define N_LABELS (sizeof label_text / sizeof label_text[0])

/* "-----BEGIN PGP PRIVATE KEY BLOCK-----\n\n" and the matching END line
 * with its LF are the longest framing lines. */
#define MAX_HEADER_LEN 39
#define MAX_FOOTER_LEN 36

static char *
put_str (char *o, const char *s)
{
  size_t n = strlen (s);

  memcpy (o, s, n);
  return o + n;
}

static char *
put_armor_line (char *o, const char *what, pl_armor_label label)
{
  o = put_str (o, "-----");
  o = put_str (o, what);
  o = put_str (o, " PGP ");
  o = put_str (o, label_text[label]);
  o = put_str (o, "-----\n");
  return o;
}

void
pl_armor_encoder_init (pl_armor_encoder *enc, pl_armor_label label,
                       int with_crc)
{
  memset (enc, 0, sizeof *enc);
  enc->label = (unsigned) label < N_LABELS ? label : PL_ARMOR_MESSAGE;
  enc->with_crc = !!with_crc;
  enc->crc = PL_CRC24_INIT;
}

size_t
pl_armor_encoder_bound (size_t len)
{
  size_t groups, chars;

  /* Keep the arithmetic from wrapping for absurd lengths. */
  if (len > (SIZE_MAX / 2 - 1024) / 4 * 3)
    return SIZE_MAX;
  /* Up to two carried octets join this push; a finish adds one more
   * (padded) group. */
  groups = (len + 2) / 3 + 1;
  chars = 4 * groups;
  return MAX_HEADER_LEN + chars + chars / LINE_CHARS + 2
         + 6 /* "=XXXX\n" */ + MAX_FOOTER_LEN;
}

static char *
encoder_header (pl_armor_encoder *enc, char *o)
{
  if (!enc->header_done)
    {
      o = put_armor_line (o, "BEGIN", enc->label);
      *o++ = '\n';          /* no armor headers: they only leak metadata */
      enc->header_done = 1;
    }
  return o;
}

/* Emits one group, breaking the line when it is full. */
static inline char *
encoder_group (pl_armor_encoder *enc, const uint8_t *in, char *o)
{
  encode_groups (in, 1, o);
  o += 4;
  enc->column += 4;
  if (enc->column == LINE_CHARS)
    {
      *o++ = '\n';
      enc->column = 0;
    }
  return o;
}

size_t
pl_armor_encoder_push (pl_armor_encoder *enc, const uint8_t *in,
                       size_t len, char *out)
{
  char *o = encoder_header (enc, out);

  if (enc->with_crc)
    enc->crc = pl_crc24_update (enc->crc, in, len);

  if (enc->carry_len)
    {
      while (enc->carry_len < 3 && len)
        {
          enc->carry[enc->carry_len++] = *in++;
          len--;
        }
      if (enc->carry_len < 3)
        return (size_t) (o - out);
      o = encoder_group (enc, enc->carry, o);
      enc->carry_len = 0;
    }

  /* Finish the current line group by group, then do whole lines. */
  while (enc->column && len >= 3)
    {
      o = encoder_group (enc, in, o);
      in += 3;
      len -= 3;
    }
  if (len >= LINE_OCTETS)
    {
      size_t nlines = len / LINE_OCTETS;

      active_kernels ()->encode_lines (in, nlines, o);
      o += (LINE_CHARS + 1) * nlines;
      in += LINE_OCTETS * nlines;
      len -= LINE_OCTETS * nlines;
    }
  if (len >= 3)
    {
      size_t ngroups = len / 3;

      /* Fewer than a line's worth: no line break can occur. */
      encode_groups (in, ngroups, o);
      o += 4 * ngroups;
      enc->column += 4 * ngroups;
      in += 3 * ngroups;
      len -= 3 * ngroups;
    }

  memcpy (enc->carry, in, len);
  enc->carry_len = len;
  return (size_t) (o - out);
}

size_t
pl_armor_encoder_finish (pl_armor_encoder *enc, char *out)
{
  char *o = encoder_header (enc, out);

  if (enc->carry_len)
    {
      encode_tail (enc->carry, enc->carry_len, o);
      o += 4;
      enc->column += 4;
      enc->carry_len = 0;
    }
  if (enc->column)
    {
      *o++ = '\n';
      enc->column = 0;
    }
  if (enc->with_crc)
    {
      uint8_t c[3];

      c[0] = (uint8_t) (enc->crc >> 16);
      c[1] = (uint8_t) (enc->crc >> 8);
      c[2] = (uint8_t) enc->crc;
      *o++ = '=';
      encode_groups (c, 1, o);
      o += 4;
      *o++ = '\n';
    }
  o = put_armor_line (o, "END", enc->label);
  return (size_t) (o - out);
}


/* ---- Armor decoder ------------------------------------------------- */

/* Decoding table classes; every value at or above 0x40 stops the fast
 * path. */
enum
{
  C_WS = 0x40,                  /* blank, tab, CR, VT, FF: ignored */
  C_LF = 0x41,
  C_PAD = 0x42,                 /* '=' */
  C_DASH = 0x43,                /* '-' */
  C_COLON = 0x44,
  C_BAD = 0x80
};

#define B64VAL(c)                                                       \
  ((c) >= 'A' && (c) <= 'Z' ? (c) - 'A'                                 \
   : (c) >= 'a' && (c) <= 'z' ? (c) - 'a' + 26                          \
   : (c) >= '0' && (c) <= '9' ? (c) - '0' + 52                          \
   : (c) == '+' ? 62 : (c) == '/' ? 63                                  \
   : (c) == ' ' || (c) == '\t' || (c) == '\r' || (c) == '\v'            \
     || (c) == '\f' ? C_WS                                              \
   : (c) == '\n' ? C_LF : (c) == '=' ? C_PAD : (c) == '-' ? C_DASH      \
   : (c) == ':' ? C_COLON : C_BAD)
#define B64DEC(c) (uint8_t) B64VAL (c)
static const uint8_t b64_dec[256] = { REP256 (B64DEC) };

enum
{
  ST_SEEK,                      /* before the BEGIN line */
  ST_HEADER,                    /* armor headers */
  ST_HEADER_SKIP,               /* rest of an armor header line */
  ST_BODY,                      /* radix-64 data */
  ST_LINE,                      /* a line starting with '-' or '=' */
  ST_TAIL,                      /* after the CRC line, before END */
  ST_DONE
};

/* line_flags */
enum
{
  LF_JUNK = 1,                  /* SEEK: cannot be the BEGIN line */
  LF_LONG = 2,                  /* did not fit into line[] */
  LF_NOT_BODY = 4,              /* HEADER: has a non-radix-64 character */
  LF_BLANK = 8                  /* HEADER: whitespace after some text */
};

/* How many radix-64 characters a line after the BEGIN line may hold
 * before we stop waiting for the colon of a header and take it for the
 * first body line.  Their octets may be owed to the caller in later
 * pushes; the 25 characters of any END line leave room to pay back 24
 * octets, which is what 32 characters decode to. */
#define MAX_HEADER_KEY 32

#define PEND_SIZE (sizeof ((pl_armor_decoder *) 0)->pend)

static const char begin_prefix[] = "-----BEGIN PGP ";
#define BEGIN_PREFIX_LEN (sizeof begin_prefix - 1)

typedef struct
{
  uint8_t *o;
  uint8_t *end;
} sink;

void
pl_armor_decoder_init (pl_armor_decoder *dec)
{
  memset (dec, 0, sizeof *dec);
  dec->state = ST_SEEK;
  dec->label = PL_ARMOR_MESSAGE;
  dec->crc = PL_CRC24_INIT;
}

/* Moves owed octets to the output while there is room. */
static void
drain (pl_armor_decoder *dec, sink *s)
{
  while (dec->pend_len && s->o < s->end)
    {
      *s->o++ = dec->pend[dec->pend_head];
      dec->pend_head = (dec->pend_head + 1) % PEND_SIZE;
      dec->pend_len--;
    }
}

/* Outputs one octet, in order after any owed ones. */
static inline gpg_error_t
emit (pl_armor_decoder *dec, sink *s, uint8_t b)
{
  if (!dec->pend_len && s->o < s->end)
    {
      *s->o++ = b;
      return 0;
    }
  if (dec->pend_len == PEND_SIZE)
    return gpg_error (GPG_ERR_INTERNAL);    /* cannot happen, see above */
  dec->pend[(dec->pend_head + dec->pend_len) % PEND_SIZE] = b;
  dec->pend_len++;
  drain (dec, s);
  return 0;
}

/* Adds a character to line[]; once full, whitespace is dropped (it would
 * be trimmed anyway) and anything else marks the line as too long. */
static inline void
line_add (pl_armor_decoder *dec, uint8_t c)
{
  if (dec->line_len < sizeof dec->line)
    dec->line[dec->line_len++] = (char) c;
  else if (b64_dec[c] != C_WS)
    dec->line_flags |= LF_LONG;
}

static size_t
line_trimmed_len (const pl_armor_decoder *dec)
{
  size_t n = dec->line_len;

  while (n && b64_dec[(uint8_t) dec->line[n - 1]] == C_WS)
    n--;
  return n;
}

static void
line_reset (pl_armor_decoder *dec)
{
  dec->line_len = 0;
  dec->line_flags = 0;
  dec->bol = 1;
}

/* Matches "<prefix><label>-----" against the trimmed line. */
static int
match_armor_line (const pl_armor_decoder *dec, const char *prefix,
                  pl_armor_label *label)
{
  size_t n = line_trimmed_len (dec);
  size_t plen = strlen (prefix);

  if ((dec->line_flags & LF_LONG) || n < plen + 5
      || memcmp (dec->line, prefix, plen)
      || memcmp (dec->line + n - 5, "-----", 5))
    return 0;
  for (size_t i = 0; i < N_LABELS; i++)
    if (strlen (label_text[i]) == n - plen - 5
        && !memcmp (dec->line + plen, label_text[i], n - plen - 5))
      {
        *label = (pl_armor_label) i;
        return 1;
      }
  return 0;
}

/* C starts a line at the beginning of a line ('-' or '='): collect the
 * whole line, to be judged by special_line at its end. */
static gpg_error_t
collect_line (pl_armor_decoder *dec, uint8_t c)
{
  line_reset (dec);
  dec->bol = 0;
  line_add (dec, c);
  dec->state = ST_LINE;
  return 0;
}

/* One character of the radix-64 body, the slow way. */
static gpg_error_t
body_char (pl_armor_decoder *dec, sink *s, uint8_t c)
{
  unsigned int v = b64_dec[c];

  if (v < 64)
    {
      if (dec->pad)
        return gpg_error (GPG_ERR_INV_ARMOR);
      dec->bol = 0;
      /* Output each octet as soon as its last bit is known: then no
       * character ever produces more than one octet, which keeps the
       * output within the length of the input for any split. */
      switch (dec->quad_len)
        {
        case 0:
          dec->quad = v;
          dec->quad_len = 1;
          return 0;
        case 1:
          dec->quad = (dec->quad << 6) | v;
          dec->quad_len = 2;
          return emit (dec, s, (uint8_t) (dec->quad >> 4));
        case 2:
          dec->quad = ((dec->quad & 0xf) << 6) | v;
          dec->quad_len = 3;
          return emit (dec, s, (uint8_t) (dec->quad >> 2));
        default:
          dec->quad_len = 0;
          return emit (dec, s, (uint8_t) (((dec->quad & 3) << 6) | v));
        }
    }

  switch (v)
    {
    case C_WS:
      return 0;
    case C_LF:
      dec->bol = 1;
      return 0;
    case C_DASH:
    case C_PAD:
      if (dec->bol)
        return collect_line (dec, c);   /* the END line or the CRC line */
      if (v == C_DASH)
        break;
      dec->bol = 0;
      if (dec->pad == 2)
        dec->pad = 1;           /* the second '=' of "xx==" */
      else if (dec->pad)
        break;
      else if (dec->quad_len == 2)
        dec->pad = 2;
      else if (dec->quad_len == 3)
        dec->pad = 1;
      else
        break;
      dec->quad_len = 0;
      return 0;
    default:
      break;
    }
  return gpg_error (GPG_ERR_INV_ARMOR);
}

/* A complete line that started with '-' or '=' after the BEGIN line. */
static gpg_error_t
special_line (pl_armor_decoder *dec, sink *s)
{
  size_t n = line_trimmed_len (dec);
  pl_armor_label label;

  if (dec->line[0] == '-')
    {
      if (!match_armor_line (dec, "-----END PGP ", &label)
          || label != dec->label || dec->quad_len == 1)
        return gpg_error (GPG_ERR_INV_ARMOR);
      dec->state = ST_DONE;
      return 0;
    }

  if ((dec->line_flags & LF_LONG) || dec->have_crc)
    return gpg_error (GPG_ERR_INV_ARMOR);
  if (n == 5)
    {
      uint32_t v = 0;

      for (int i = 1; i < 5; i++)
        {
          unsigned int d = b64_dec[(uint8_t) dec->line[i]];

          if (d >= 64)
            return gpg_error (GPG_ERR_INV_ARMOR);
          v = (v << 6) | d;
        }
      dec->crc_given = v;
      dec->have_crc = 1;
      dec->state = ST_TAIL;
      dec->bol = 1;
      return 0;
    }

  /* Padding that a writer wrapped onto a line of its own. */
  dec->state = ST_BODY;
  dec->bol = 0;
  for (size_t i = 0; i < dec->line_len; i++)
    {
      gpg_error_t err = body_char (dec, s, (uint8_t) dec->line[i]);

      if (err)
        return err;
    }
  dec->bol = 1;
  return 0;
}

/* The BEGIN line. */
static gpg_error_t
begin_line (pl_armor_decoder *dec)
{
  if (dec->line_len < BEGIN_PREFIX_LEN || (dec->line_flags & LF_JUNK))
    return 0;                   /* just text before the armor */
  if (!match_armor_line (dec, begin_prefix, &dec->label))
    return gpg_error (GPG_ERR_INV_ARMOR);
  dec->state = ST_HEADER;
  return 0;
}

/* Gives up on a line being a header: decode what we kept of it. */
static gpg_error_t
header_to_body (pl_armor_decoder *dec, sink *s)
{
  dec->state = ST_BODY;
  dec->bol = 0;
  for (size_t i = 0; i < dec->line_len; i++)
    {
      gpg_error_t err = body_char (dec, s, (uint8_t) dec->line[i]);

      if (err)
        return err;
    }
  return 0;
}

/* One character after the BEGIN line, before the body is known to have
 * started.  Only the radix-64 characters of the line are kept: as soon as
 * anything else shows up the line cannot be body data. */
static gpg_error_t
header_char (pl_armor_decoder *dec, sink *s, uint8_t c, int *reprocess)
{
  unsigned int v = b64_dec[c];

  *reprocess = 0;
  switch (v)
    {
    case C_WS:
      if (dec->line_len)
        dec->line_flags |= LF_BLANK;
      return 0;
    case C_COLON:
      dec->state = ST_HEADER_SKIP;
      return 0;
    case C_LF:
      if (dec->line_flags & LF_NOT_BODY)
        return gpg_error (GPG_ERR_INV_ARMOR);
      if (!dec->line_len)
        {
          dec->state = ST_BODY;   /* the blank line ending the headers */
          dec->bol = 1;
          return 0;
        }
      /* No blank line after the BEGIN line and headers: this was the
       * first line of data. */
      *reprocess = 1;
      return header_to_body (dec, s);
    case C_DASH:
    case C_PAD:
      if (dec->bol)
        {
          /* END or CRC line straight after the headers. */
          dec->bol = 0;
          line_add (dec, c);
          dec->state = ST_LINE;
          return 0;
        }
      if (v == C_DASH)
        {
          dec->line_flags |= LF_NOT_BODY;
          return 0;
        }
      break;
    case C_BAD:
      dec->bol = 0;
      dec->line_flags |= LF_NOT_BODY;
      return 0;
    default:
      break;
    }

  /* A radix-64 character or '='.  Blanks between them make words, which
   * only a (broken) header has. */
  dec->bol = 0;
  if (dec->line_flags & LF_BLANK)
    dec->line_flags |= LF_NOT_BODY;
  if (dec->line_flags & LF_NOT_BODY)
    return 0;
  if (dec->line_len == MAX_HEADER_KEY)
    {
      *reprocess = 1;
      return header_to_body (dec, s);
    }
  dec->line[dec->line_len++] = (char) c;
  return 0;
}

/* The vector kernel's share of the body: whole blocks and the line ends
 * between them. */
static inline void
body_blocks (pl_armor_decoder *dec, const uint8_t **pp, const uint8_t *end,
             sink *s)
{
  const armor_kernels *k = active_kernels ();
  size_t used, produced;

  if (!k->decode_blocks)
    return;
  used = k->decode_blocks (*pp, (size_t) (end - *pp), s->o,
                           (size_t) (s->end - s->o), &produced);
  if (used)
    {
      *pp += used;
      s->o += produced;
      dec->bol = (*pp)[-1] == '\n';
    }
}

/* Decodes whole groups of radix-64 characters from *P until the next
 * character that needs a closer look. */
static inline void
body_fast (pl_armor_decoder *dec, const uint8_t **pp, const uint8_t *end,
           sink *s)
{
  const uint8_t *p = *pp;
  uint8_t *o = s->o;
  size_t n = (size_t) (end - p) / 4;
  size_t room = (size_t) (s->end - o) / 3;

  if (n > room)
    n = room;
  while (n)
    {
      uint32_t a = b64_dec[p[0]], b = b64_dec[p[1]];
      uint32_t c = b64_dec[p[2]], d = b64_dec[p[3]];
      uint32_t v;

      if ((a | b | c | d) & 0xc0)
        break;
      v = (a << 18) | (b << 12) | (c << 6) | d;
      o[0] = (uint8_t) (v >> 16);
      o[1] = (uint8_t) (v >> 8);
      o[2] = (uint8_t) v;
      o += 3;
      p += 4;
      n--;
    }
  if (p != *pp)
    dec->bol = 0;
  *pp = p;
  s->o = o;
}

/* Before the BEGIN line: looks for it, a line at a time. */
static gpg_error_t
seek_begin (pl_armor_decoder *dec, const uint8_t **pp, const uint8_t *end)
{
  const uint8_t *p = *pp;
  gpg_error_t err = 0;

  if (dec->line_flags & LF_JUNK)
    {
      /* Not the BEGIN line: skip to its end in one go. */
      const uint8_t *nl = memchr (p, '\n', (size_t) (end - p));
      if (!nl)
        {
          *pp = end;
          return 0;
        }
      p = nl;
    }
  if (*p == '\n')
    {
      err = begin_line (dec);
      line_reset (dec);
    }
  else if (!dec->line_len && (*p == ' ' || *p == '\t'))
    ;                           /* indented armor, as pl_armor_detect allows */
  else
    {
      if (dec->line_len < BEGIN_PREFIX_LEN
          && *p != (uint8_t) begin_prefix[dec->line_len])
        dec->line_flags |= LF_JUNK;
      else
        line_add (dec, *p);
    }
  *pp = p + 1;
  return err;
}

/* After the checksum: blank lines, then the END line. */
static gpg_error_t
tail_char (pl_armor_decoder *dec, uint8_t c)
{
  switch (b64_dec[c])
    {
    case C_WS:
      return 0;
    case C_LF:
      dec->bol = 1;
      return 0;
    case C_DASH:
      if (dec->bol)
        return collect_line (dec, c);   /* the END line */
      /* fall through */
    default:
      return gpg_error (GPG_ERR_INV_ARMOR);
    }
}

gpg_error_t
pl_armor_decoder_push (pl_armor_decoder *dec, const uint8_t *in,
                       size_t len, uint8_t *out, size_t *outlen)
{
  const uint8_t *p = in;
  const uint8_t *end = in + len;
  sink s = { out, out + len };
  gpg_error_t err = dec->err;

  drain (dec, &s);
  while (!err && p < end && dec->state != ST_DONE)
    {
      const uint8_t *nl;
      int reprocess;

      switch (dec->state)
        {
        case ST_SEEK:
          err = seek_begin (dec, &p, end);
          break;

        case ST_HEADER:
          err = header_char (dec, &s, *p, &reprocess);
          if (!reprocess)
            p++;
          break;

        case ST_HEADER_SKIP:
          nl = memchr (p, '\n', (size_t) (end - p));
          if (!nl)
            {
              p = end;
              break;
            }
          p = nl + 1;
          line_reset (dec);
          dec->state = ST_HEADER;
          break;

        case ST_BODY:
          if (!dec->quad_len && !dec->pad && !dec->pend_len)
            {
              body_blocks (dec, &p, end, &s);
              body_fast (dec, &p, end, &s);
              if (p == end)
                break;
            }
          err = body_char (dec, &s, *p++);
          break;

        case ST_LINE:
          if (*p == '\n')
            {
              err = special_line (dec, &s);
              if (dec->state != ST_LINE)
                dec->bol = 1;
            }
          else
            line_add (dec, *p);
          p++;
          break;

        case ST_TAIL:
          err = tail_char (dec, *p++);
          break;

        default:
          err = gpg_error (GPG_ERR_INTERNAL);
          break;
        }
    }
  drain (dec, &s);

  *outlen = (size_t) (s.o - out);
  dec->crc = pl_crc24_update (dec->crc, out, *outlen);
  dec->err = err;
  return err;
}

int
pl_armor_decoder_label (const pl_armor_decoder *dec, pl_armor_label *label)
{
  if (dec->state == ST_SEEK)
    return 0;
  *label = dec->label;
  return 1;
}

int
pl_armor_decoder_done (const pl_armor_decoder *dec)
{
  return dec->state == ST_DONE;
}

gpg_error_t
pl_armor_decoder_finish (pl_armor_decoder *dec)
{
  if (dec->err)
    return dec->err;

  /* The END line may lack its final LF; if it is cut short, the armor
   * is. */
  if (dec->state == ST_LINE && dec->line[0] == '-')
    {
      sink s = { NULL, NULL };
      char want[64];
      size_t n = line_trimmed_len (dec);
      int wlen = snprintf (want, sizeof want, "-----END PGP %s-----",
                           label_text[dec->label]);

      if (!(dec->line_flags & LF_LONG) && n < (size_t) wlen
          && !memcmp (dec->line, want, n))
        return gpg_error (GPG_ERR_TRUNCATED);
      if (special_line (dec, &s))
        return dec->err = gpg_error (GPG_ERR_INV_ARMOR);
    }

  if (dec->state == ST_SEEK)
    return gpg_error (GPG_ERR_INV_ARMOR);
  if (dec->state != ST_DONE)
    return gpg_error (GPG_ERR_TRUNCATED);
  if (dec->pend_len)
    return gpg_error (GPG_ERR_INTERNAL);
  if (dec->have_crc && (dec->crc & 0xffffffu) != dec->crc_given)
    return gpg_error (GPG_ERR_CHECKSUM);
  return 0;
}


/* ---- Detection ----------------------------------------------------- */

/* How far into the data we look for the BEGIN line: enough for a
 * cleartext-signed intro or a mail header block. */
#define DETECT_WINDOW 8192

int
pl_armor_detect (const uint8_t *buf, size_t len)
{
  size_t i = 0;

  while (i < len && (b64_dec[buf[i]] == C_WS || buf[i] == '\n'))
    i++;
  if (i == len || (buf[i] & 0x80))
    return 0;                   /* nothing, or a binary packet tag */
  if (len - i > DETECT_WINDOW)
    len = i + DETECT_WINDOW;

  for (const uint8_t *p = buf + i, *end = buf + len; p < end;)
    {
      if ((size_t) (end - p) >= BEGIN_PREFIX_LEN
          && !memcmp (p, begin_prefix, BEGIN_PREFIX_LEN))
        return 1;
      p = memchr (p, '\n', (size_t) (end - p));
      if (!p)
        break;
      p++;
    }
  return 0;
}

/* Decodes each armor block of TEXT into *BIN, one after the other.  A
 * block is decoded from its BEGIN line through the end of its END line
 * only: blocks never overlap, so the output fits in LEN octets and the
 * work stays linear however many BEGIN lines a hostile file holds. */
gpg_error_t
pl_armor_dearmor_all (const uint8_t *text, size_t len, uint8_t **bin, size_t *bin_len)
{
  static const char begin[] = "-----BEGIN PGP ", end[] = "-----END PGP ";
  uint8_t *out = malloc (len ? len : 1);
  size_t total = 0, pos = 0;
  gpg_error_t err = out ? 0 : gpg_error (GPG_ERR_ENOMEM);

  while (!err && pos < len)
    {
      const uint8_t *hit = memmem (text + pos, len - pos, begin,
                                   sizeof begin - 1), *stop, *nl;
      size_t at, block, n = 0;
      pl_armor_decoder dec;

      if (!hit)
        break;
      at = (size_t) (hit - text);
      stop = memmem (hit, len - at, end, sizeof end - 1);
      nl = stop ? memchr (stop, '\n', len - (size_t) (stop - text)) : NULL;
      block = nl ? (size_t) (nl - hit) + 1 : len - at;
      pl_armor_decoder_init (&dec);
      err = pl_armor_decoder_push (&dec, hit, block, out + total, &n);
      if (!err)
        err = pl_armor_decoder_finish (&dec);
      total += n;
      pos = at + block;
    }
  *bin = out;
  *bin_len = total;
  return err;
}

