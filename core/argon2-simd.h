/* argon2-simd.h - vector kernels of Argon2's compression (internal to
 * argon2.c)
 *
 * x86 only; argon2.c picks them at run time from what the CPU supports
 * and keeps its portable G for everything else.  Each kernel computes
 * exactly what the portable one does (tests/test-argon2.c checks them
 * against each other and against libgcrypt).
 */
#pragma once

#include <stdint.h>

/* An Argon2 block: 1 KiB as 128 little-endian words. */
#define PL_ARGON2_BLOCK_WORDS 128

#if defined(__x86_64__) || defined(__i386__)
#define PL_ARGON2_HAVE_X86_KERNELS 1

/* NEXT = G (PREV, REF), or with WITH_XOR, NEXT ^= G (PREV, REF) (RFC 9106
 * §3.5; version 0x13 XORs from the second pass on).  NEXT may be PREV or
 * REF only without WITH_XOR. */
void pl_argon2_fill_avx2 (uint64_t *next, const uint64_t *prev,
                          const uint64_t *ref, int with_xor);
/* The same with AVX-512F. */
void pl_argon2_fill_avx512 (uint64_t *next, const uint64_t *prev,
                            const uint64_t *ref, int with_xor);
#endif
