/* armor-simd.h - vector kernels of the armor stages (internal to armor.c)
 *
 * x86 only; armor.c picks them at run time from what the CPU supports and
 * keeps its portable loops for everything else.  Each kernel does exactly
 * what the portable loop it replaces does, on the inputs it accepts; the
 * test suite checks that differentially.
 *
 * Radix-64 kernels follow the published designs of Wojciech Muła and
 * Daniel Lemire ("Faster Base64 Encoding and Decoding Using AVX2
 * Instructions", 2018): a byte shuffle and two multiplies spread 3 octets
 * over 4 sextets; nibble-indexed lookups validate and translate
 * characters.  The CRC24 kernel folds with carry-less multiplication as in
 * Intel's "Fast CRC Computation for Generic Polynomials Using PCLMULQDQ".
 */
#pragma once

#include <stddef.h>
#include <stdint.h>

#if defined(__x86_64__) || defined(__i386__)
#define PL_ARMOR_HAVE_X86_KERNELS 1

/* Encode NLINES lines of 48 octets from IN, each into 64 radix-64
 * characters and an LF: OUT receives 65 * NLINES characters.  Reads no
 * octet outside the NLINES * 48 of IN. */
void pl_radix64_lines_avx2 (const uint8_t *in, size_t nlines, char *out);
void pl_radix64_lines_ssse3 (const uint8_t *in, size_t nlines, char *out);

/* Decode from IN (LEN characters) whole blocks of radix-64 characters
 * (32 with AVX2, 16 with SSSE3), each into 24 / 12 octets at OUT, while
 * ROOM allows.  An LF or CR LF after a block is consumed as well.  Stops
 * before the first block that holds anything else (padding, whitespace, a
 * line end inside it) or that IN does not hold whole: the caller's
 * portable decoder takes over there.  Returns the characters consumed
 * (the last of them is an LF when a line end was); *OUTLEN receives the
 * octets written, never more than ROOM. */
size_t pl_radix64_decode_avx2 (const uint8_t *in, size_t len, uint8_t *out,
                               size_t room, size_t *outlen);
size_t pl_radix64_decode_ssse3 (const uint8_t *in, size_t len, uint8_t *out,
                                size_t room, size_t *outlen);
/* The same, blocks of 64 characters into 48 octets where they are (lines
 * of 64, as Padlock and gpg write them), else of 32 as with AVX2; needs
 * AVX-512 VBMI, BW and F, and AVX2. */
size_t pl_radix64_decode_avx512 (const uint8_t *in, size_t len, uint8_t *out,
                                 size_t room, size_t *outlen);

/* CRC24 folding.  REG is the CRC24 register shifted left by 8 (an MSB-first
 * 32-bit CRC with the generator 0x864CFB00 plus x^32); DATA holds NBLOCKS
 * (at least 1) blocks of 64 octets.  Writes to FOLD 16 octets whose CRC
 * from a zero register equals the CRC of DATA from REG. */
void pl_crc24_fold_pclmul (uint32_t reg, const uint8_t *data, size_t nblocks,
                           uint8_t fold[16]);
/* The same over NBLOCKS (at least 1) blocks of 256 octets, with
 * VPCLMULQDQ on 512-bit registers (and AVX-512 F and BW, PCLMUL, SSSE3). */
void pl_crc24_fold_vpclmul (uint32_t reg, const uint8_t *data,
                            size_t nblocks, uint8_t fold[16]);
#endif
