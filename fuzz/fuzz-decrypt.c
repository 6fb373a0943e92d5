/* fuzz-decrypt.c - libFuzzer target for the packet parser and the whole
 * decrypt pipeline (armor, packets, SKESK, S2K, SEIPD v1/v2, tag 20,
 * compression, literal data)
 *
 * Input: octet 0 is the most the source hands out per read (0: a whole
 * block) and, in its top bit, whether SEIPD v1 may hash on a thread of its
 * own; the rest is the message.  The passphrase is "fuzz"; Argon2 is
 * capped at 1 MiB so that hostile parameters are refused cheaply.
 *
 * When the reads were cut short the message is decrypted again with whole
 * blocks: both must succeed or both fail, with the same output (except
 * where the armor could not be recognised in a first read shorter than
 * its BEGIN line; see README.md).  A committed sink must never be aborted, and a
 * failed decryption must leave nothing behind.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "job.h"
#include "fuzz-common.h"

#define FUZZ_ARGON2_CAP_KIB 1024

static const pl_opener keys[] = { { PL_OPENER_PASSPHRASE, "fuzz", 4, 0 } };

typedef struct
{
  gpg_error_t err;
  pl_decrypt_result res;
  fuzz_sink *sink;
} outcome;

static outcome
run (const uint8_t *data, size_t size, size_t max_read, int threads)
{
  pl_decrypt_options opts;
  pl_job_control ctl;
  fuzz_source *src = fuzz_source_new (data, size, max_read);
  outcome o;

  memset (&o, 0, sizeof o);
  memset (&opts, 0, sizeof opts);
  memset (&ctl, 0, sizeof ctl);
  opts.openers = keys;
  opts.n_openers = 1;
  opts.argon2_cap_kib = FUZZ_ARGON2_CAP_KIB;
  /* Decompression bombs stop at 1 MiB rather than 1 GiB: the limit's
   * path is reached, and no run spends its time inflating. */
  opts.expansion_floor = 1u << 20;
  ctl.threads = threads;
  o.sink = fuzz_sink_new ();
  o.err = pl_decrypt (&src->base, &o.sink->base, &opts, &o.res, &ctl);
  if (!o.err && !o.sink->committed)
    abort ();                   /* success without commit */
  if (o.err && (o.sink->committed || !o.sink->aborted))
    abort ();                   /* failure must abort the sink */
  pl_source_free (&src->base);
  return o;
}

int
LLVMFuzzerInitialize (int *argc, char ***argv)
{
  if (pl_init ())
    abort ();
  return 0;
}

int
LLVMFuzzerTestOneInput (const uint8_t *data, size_t size)
{
  size_t max_read;
  int threads;
  outcome a, b;

  if (size < 1)
    return 0;
  max_read = data[0] & 0x7f;
  threads = data[0] & 0x80 ? 2 : 1;
  data++;
  size--;

  {
    struct timespec t0, t1;
    clock_gettime (CLOCK_MONOTONIC, &t0);
    a = run (data, size, max_read, threads);
    clock_gettime (CLOCK_MONOTONIC, &t1);
    /* A message whose key derivations take long (16 SKESKs of Argon2 at
     * the cap, or of 65M-octet iterated S2K) is not run twice: the
     * second run would add nothing but a time-out. */
    if (t1.tv_sec - t0.tv_sec > 1)
      max_read = 0;
  }
  if (max_read)
    {
      b = run (data, size, 0, threads);
      /* Which error wins may depend on where the blocks end (armor
       * damage seen before or after an integrity failure), but whether
       * the message opens, and what it holds, may not. */
      if (a.res.armored == b.res.armored
          && (!a.err != !b.err
              || (!a.err && (a.sink->len != b.sink->len
                             || memcmp (a.sink->data, b.sink->data,
                                        a.sink->len)))))
        {
          fprintf (stderr, "decrypt: reads of %zu: %s, %zu octets;"
                   " whole blocks: %s, %zu octets\n", max_read,
                   gpg_strerror (a.err), a.sink->len,
                   gpg_strerror (b.err), b.sink->len);
          abort ();
        }
      pl_sink_free (&b.sink->base);
    }
  pl_sink_free (&a.sink->base);
  return 0;
}
