/* armor.h - ASCII armor (RFC 9580 §6): radix-64 with an optional CRC24
 *
 * Push-style stages: the caller owns the loop and the output buffers.
 * Neither stage allocates.
 */
#pragma once

#include <stddef.h>
#include <stdint.h>
#include <gpg-error.h>

typedef enum
{
  PL_ARMOR_MESSAGE = 0,
  PL_ARMOR_PUBLIC_KEY,
  PL_ARMOR_PRIVATE_KEY,
  PL_ARMOR_SIGNATURE
} pl_armor_label;

#define PL_CRC24_INIT 0xB704CEu

/* Updates a CRC24 (RFC 9580 §6.1) over LEN octets; start from
 * PL_CRC24_INIT.  The result's low 24 bits are the checksum. */
uint32_t pl_crc24_update (uint32_t crc, const uint8_t *data, size_t len);

/* The code the radix-64 coders and CRC24 run on: "avx512" (AVX-512 VBMI;
 * CRC24 then folds with VPCLMULQDQ when the CPU has it), "avx2" or
 * "ssse3" (vector kernels; CRC24 then also folds with PCLMUL when the CPU
 * has it) or "scalar" (portable loops).  Chosen at the first use: the best the CPU
 * supports, or the level named by the environment variable
 * PADLOCK_ARMOR_SIMD when the CPU supports it. */
const char *pl_armor_simd_name (void);

/* For tests and benchmarks: use level NAME ("avx512", "avx2", "ssse3", "scalar"; NULL
 * for the best available) from now on, in every thread.  Call it while no
 * coder runs.  GPG_ERR_NOT_SUPPORTED when this CPU or build lacks it (the
 * level in use stays). */
gpg_error_t pl_armor_force_simd (const char *name);

/* Plain radix-64 (RFC 4648 base64 with padding), no line breaks.  OUT must
 * hold 4 * ((LEN + 2) / 3) octets; returns the octets written. */
size_t pl_radix64_encode (const uint8_t *in, size_t len, char *out);

typedef struct
{
  pl_armor_label label;
  int with_crc;
  int header_done;
  uint32_t crc;
  uint8_t carry[3];       /* octets not yet making a whole group */
  size_t carry_len;
  size_t column;          /* characters on the current line */
} pl_armor_encoder;

/* WITH_CRC: RFC 4880 armor carries a CRC24; RFC 9580 says not to emit one
 * around v2 (SEIPD v2) messages. */
void pl_armor_encoder_init (pl_armor_encoder *enc, pl_armor_label label,
                            int with_crc);

/* The most octets one push of LEN input octets (or a finish, LEN = 0) can
 * write, header included. */
size_t pl_armor_encoder_bound (size_t len);

/* Encodes LEN octets into OUT (room: pl_armor_encoder_bound (LEN)), lines of
 * 64 columns ending in LF.  Returns the octets written. */
size_t pl_armor_encoder_push (pl_armor_encoder *enc, const uint8_t *in,
                              size_t len, char *out);

/* Writes the last group, the CRC line when asked for, and the END line.
 * OUT needs pl_armor_encoder_bound (0) octets.  Returns the octets written. */
size_t pl_armor_encoder_finish (pl_armor_encoder *enc, char *out);

typedef struct
{
  int state;              /* private: where in the armor we are */
  pl_armor_label label;
  char line[128];         /* a partial header or armor line across pushes */
  size_t line_len;
  int line_flags;         /* private: what the partial line turned out as */
  int bol;                /* private: only whitespace so far on this line */
  uint32_t quad;          /* bits of the current group not yet output */
  int quad_len;           /* sextets of the current group */
  int pad;                /* '=' seen in the body: body over */
  uint32_t crc;
  int have_crc;
  uint32_t crc_given;
  uint8_t pend[32];       /* private: output owed from an earlier push */
  unsigned int pend_head;
  unsigned int pend_len;
  gpg_error_t err;        /* private: sticky error */
} pl_armor_decoder;

void pl_armor_decoder_init (pl_armor_decoder *dec);

/* Decodes armored text.  Text before the BEGIN line is skipped; headers
 * (Version:, Comment:...) are skipped; CRLF, blank lines and trailing
 * whitespace are tolerated.  OUT must hold LEN octets (binary is never
 * longer than its text).  *OUTLEN receives the octets written.  Input after
 * the END line is ignored.  Malformed armor fails with GPG_ERR_INV_ARMOR. */
gpg_error_t pl_armor_decoder_push (pl_armor_decoder *dec, const uint8_t *in,
                                   size_t len, uint8_t *out, size_t *outlen);

/* 1 once the BEGIN line has been read, its label in *LABEL; else 0. */
int pl_armor_decoder_label (const pl_armor_decoder *dec,
                            pl_armor_label *label);

/* 1 once the END line has been read. */
int pl_armor_decoder_done (const pl_armor_decoder *dec);

/* Checks that the END line was seen (else GPG_ERR_TRUNCATED) and that a CRC,
 * when present, matches (else GPG_ERR_CHECKSUM). */
gpg_error_t pl_armor_decoder_finish (pl_armor_decoder *dec);

/* Guesses from the first octets of a message whether it is armored: 1 when
 * it is text that holds "-----BEGIN PGP ", 0 when the first octet is a
 * valid packet tag. */
int pl_armor_detect (const uint8_t *buf, size_t len);

/* Decodes each armor block of TEXT (LEN octets) into *BIN (malloc'ed;
 * *BIN_LEN octets), one after the other: a keyring of several blocks.
 * Text outside the blocks is skipped; a bad block fails (its error). */
gpg_error_t pl_armor_dearmor_all (const uint8_t *text, size_t len,
                                  uint8_t **bin, size_t *bin_len);
