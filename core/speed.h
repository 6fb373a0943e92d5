/* speed.h - how fast this machine runs each cipher and mode, in memory
 *
 * Like gocryptfs -speed: each measurement runs for about a fifth of a
 * second on one thread over a buffer that stays in cache, so the figures
 * are the CPU's limits, not the disk's.
 */
#pragma once

#include <stddef.h>
#include <gpg-error.h>

typedef struct
{
  const char *name;             /* "AES-256-OCB encrypt" */
  const char *group;            /* "SEIPD v1", "AEAD", "hash" */
  double mb_per_s;              /* 10^6 octets a second; 0 if unavailable */
} pl_speed_result;

/* Called after each measurement, from the measuring thread. */
typedef void (*pl_speed_fn) (void *user_data, const pl_speed_result *r,
                             size_t index, size_t count);

/* The measurements, in the order of pl_speed_list. */
typedef enum
{
  PL_SPEED_AES256_CFB_ENCRYPT,
  PL_SPEED_AES256_CFB_DECRYPT,
  PL_SPEED_AES128_CFB_ENCRYPT,
  PL_SPEED_AES192_CFB_ENCRYPT,
  PL_SPEED_CAMELLIA256_CFB_ENCRYPT,
  PL_SPEED_TWOFISH_CFB_ENCRYPT,
  PL_SPEED_SHA1,
  PL_SPEED_AES256_OCB_ENCRYPT,
  PL_SPEED_AES256_OCB_DECRYPT,
  PL_SPEED_AES256_EAX_ENCRYPT,
  PL_SPEED_AES256_GCM_ENCRYPT,
  PL_SPEED_SHA256,
  PL_SPEED_MEMCPY,
  PL_SPEED_N
} pl_speed_id;

/* The measurements, in order, with mb_per_s 0; *COUNT their number. */
const pl_speed_result *pl_speed_list (size_t *count);

/* Runs one measurement for about SECONDS (0: 0.2 s).  *MB_PER_S is 0
 * when this libgcrypt lacks the algorithm. */
gpg_error_t pl_speed_measure (pl_speed_id id, double seconds,
                              double *mb_per_s);

/* Runs every measurement for about SECONDS each (0: 0.2 s) and calls FN
 * after each.  RESULTS (pl_speed_list's count entries) receives them. */
gpg_error_t pl_speed_run (double seconds, pl_speed_result *results,
                          pl_speed_fn fn, void *user_data);
