/* engine-limit.c - the engine in memory, against the bare libgcrypt modes
 *
 * Encrypts and decrypts a 256 MiB buffer through pl_encrypt / pl_decrypt,
 * memory to a discarding sink, with a thread budget of one (everything on
 * one core) and of two, and times the libgcrypt primitives the same
 * profile is made of on the same buffer.  What the engine adds over the
 * bare modes (framing, buffering, hashing glue) is the difference.
 *
 *   rfc4880 encrypt limit = 1 / (1/CFB-encrypt + 1/SHA-1)   (one thread)
 *   rfc4880 decrypt limit = 1 / (1/CFB-decrypt + 1/SHA-1)
 *   librepgp, rfc9580     = the OCB encrypt / decrypt rate
 *   rfc4880 decrypt, 2 threads = SHA-1 alone (limit-sha1), CFB
 *                                decryption running beside it
 *
 * The KDFs are set as cheap as the format allows (1 ms of iterated S2K,
 * Argon2 with 8 KiB) and the time of an empty message is subtracted, so
 * that only the data path is measured.  Output: one line per figure,
 * "name MB/s", MB = 10^6 octets.  With an argument (rfc4880, librepgp,
 * rfc9580) only that profile's engine figures are measured.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <gcrypt.h>

#include "job.h"

#include "bench-util.h"

#define LEN ((size_t) 256 << 20)
#define CHUNK ((size_t) 4 << 20)
#define ROUNDS 3

/* ENGINE_LIMIT_CPU=1: time by the process's CPU clock instead of the
 * wall clock.  On a busy machine that keeps the one-thread figures (and
 * their ratios) steady; the two-thread ones then mean CPU cost, not
 * speed.  */
static double
now (void)
{
  static int cpu = -1;
  struct timespec ts;

  if (cpu < 0)
    cpu = getenv ("ENGINE_LIMIT_CPU") && !strcmp (getenv ("ENGINE_LIMIT_CPU"),
                                                   "1");
  clock_gettime (cpu ? CLOCK_PROCESS_CPUTIME_ID : CLOCK_MONOTONIC, &ts);
  return ts.tv_sec + ts.tv_nsec / 1e9;
}


static void
die (const char *what, gpg_error_t err)
{
  fprintf (stderr, "engine-limit: %s: %s\n", what, gpg_strerror (err));
  exit (1);
}

static const pl_opener bench_key = { PL_OPENER_PASSPHRASE, "bench", 5, 0 };

static void
options (pl_encrypt_options *o, pl_profile profile)
{
  pl_encrypt_options_init (o);
  o->openers = &bench_key;
  o->n_openers = 1;
  o->profile = profile;
  o->s2k_ms = 1;
  o->argon2_passes = 1;
  o->argon2_parallelism = 1;
  o->argon2_memory_exp = 3;
}

/* Best of ROUNDS seconds for one job over DATA. */
static double
time_job (int encrypt, pl_profile profile, const uint8_t *data, size_t len,
          int threads, int rounds)
{
  pl_encrypt_options o;
  pl_job_control ctl = { NULL, NULL, NULL, threads };
  const pl_opener pw = { PL_OPENER_PASSPHRASE, "bench", 5, 0 };
  pl_decrypt_options d = { &pw, 1, 0, NULL };
  double best = 1e9;

  options (&o, profile);
  for (int r = 0; r < rounds; r++)
    {
      pl_source *src = pl_source_new_memory (data, len);
      double t0 = now (), t;
      gpg_error_t err = encrypt
        ? pl_encrypt (src, &null_sink, &o, &ctl)
        : pl_decrypt (src, &null_sink, &d, NULL, &ctl);
      t = now () - t0;
      pl_source_free (src);
      if (err)
        die (encrypt ? "encrypt" : "decrypt", err);
      if (t < best)
        best = t;
    }
  return best;
}

static uint8_t *
make_message (pl_profile profile, const uint8_t *plain, size_t len,
              size_t *out_len)
{
  pl_encrypt_options o;
  pl_source *src = pl_source_new_memory (plain, len);
  pl_sink *sink = pl_sink_new_memory ();
  const uint8_t *d;
  uint8_t *copy;
  gpg_error_t err;

  options (&o, profile);
  err = pl_encrypt (src, sink, &o, NULL);
  if (err)
    die ("make message", err);
  d = pl_sink_memory_data (sink, out_len);
  copy = malloc (*out_len ? *out_len : 1);
  memcpy (copy, d, *out_len);
  pl_sink_free (sink);
  pl_source_free (src);
  return copy;
}

/* Bare libgcrypt: best of ROUNDS seconds for LEN octets. */
static double
time_cipher (int mode, int encrypt, uint8_t *buf, uint8_t *out)
{
  static const uint8_t key[32] = { 7 }, iv[16];
  gcry_cipher_hd_t hd;
  uint8_t tag[16];
  double best = 1e9;

  if (gcry_cipher_open (&hd, GCRY_CIPHER_AES256, mode, 0)
      || gcry_cipher_setkey (hd, key, 32))
    die ("cipher", gpg_error (GPG_ERR_GENERAL));
  for (int r = 0; r < ROUNDS; r++)
    {
      double t0 = now ();
      if (mode == GCRY_CIPHER_MODE_CFB)
        {
          gcry_cipher_setiv (hd, iv, 16);
          if (encrypt)
            gcry_cipher_encrypt (hd, out, LEN, buf, LEN);
          else
            gcry_cipher_decrypt (hd, out, LEN, buf, LEN);
        }
      else
        for (size_t off = 0; off < LEN; off += CHUNK)
          {
            gcry_cipher_reset (hd);
            gcry_cipher_setiv (hd, iv, 15);
            gcry_cipher_authenticate (hd, iv, 5);
            gcry_cipher_final (hd);
            if (encrypt)
              {
                gcry_cipher_encrypt (hd, out + off, CHUNK, buf + off, CHUNK);
                gcry_cipher_gettag (hd, tag, 16);
              }
            else
              {
                gcry_cipher_decrypt (hd, out + off, CHUNK, buf + off, CHUNK);
                gcry_cipher_gettag (hd, tag, 16);
              }
          }
      double t = now () - t0;
      if (t < best)
        best = t;
    }
  gcry_cipher_close (hd);
  return best;
}

static double
time_sha1 (const uint8_t *buf)
{
  uint8_t digest[20];
  double best = 1e9;
  for (int r = 0; r < ROUNDS; r++)
    {
      double t0 = now ();
      gcry_md_hash_buffer (GCRY_MD_SHA1, digest, buf, LEN);
      double t = now () - t0;
      if (t < best)
        best = t;
    }
  return best;
}

static int
engine_rounds (void)
{
  const char *v = getenv ("ENGINE_LIMIT_ROUNDS");
  int n = v ? atoi (v) : 0;

  return n > 0 ? n : ROUNDS;
}

static double
mbs (double seconds)
{
  return LEN / seconds / 1e6;
}

int
main (int argc, char **argv)
{
  static const char *names[] = { "rfc4880", "librepgp", "rfc9580" };
  uint8_t *plain = malloc (LEN), *out = malloc (LEN);
  double cfb_enc, cfb_dec, ocb_enc, ocb_dec, sha1;

  if (pl_init ())
    die ("init", gpg_error (GPG_ERR_GENERAL));
  gcry_randomize (plain, LEN, GCRY_WEAK_RANDOM);

  cfb_enc = time_cipher (GCRY_CIPHER_MODE_CFB, 1, plain, out);
  cfb_dec = time_cipher (GCRY_CIPHER_MODE_CFB, 0, plain, out);
  ocb_enc = time_cipher (GCRY_CIPHER_MODE_OCB, 1, plain, out);
  ocb_dec = time_cipher (GCRY_CIPHER_MODE_OCB, 0, plain, out);
  sha1 = time_sha1 (plain);
  printf ("limit-rfc4880-encrypt %.0f\n", mbs (cfb_enc + sha1));
  printf ("limit-rfc4880-decrypt %.0f\n", mbs (cfb_dec + sha1));
  printf ("limit-ocb-encrypt %.0f\n", mbs (ocb_enc));
  printf ("limit-ocb-decrypt %.0f\n", mbs (ocb_dec));
  /* rfc4880 decryption on 2 threads: CFB decryption on one, SHA-1 on
   * the other, so SHA-1 alone is the limit. */
  printf ("limit-sha1 %.0f\n", mbs (sha1));
  printf ("limit-cfb-decrypt %.0f\n", mbs (cfb_dec));

  for (int p = 0; p < 3; p++)
    {
      if (argc > 1 && strcmp (argv[1], names[p]))
        continue;               /* one profile asked for */
      size_t msg_len, empty_len;
      uint8_t *msg = make_message ((pl_profile) p, plain, LEN, &msg_len);
      uint8_t *empty = make_message ((pl_profile) p, plain, 0, &empty_len);

      double fixed_e[3], fixed_d[3];
      double e[3] = { 1e9, 1e9, 1e9 }, d[3] = { 1e9, 1e9, 1e9 };
      double sum_e[3] = { 0 }, sum_d[3] = { 0 };

      for (int threads = 1; threads <= 2; threads++)
        {
          fixed_e[threads] = time_job (1, (pl_profile) p, plain, 0, threads,
                                       ROUNDS);
          fixed_d[threads] = time_job (0, (pl_profile) p, empty, empty_len,
                                       threads, ROUNDS);
        }
      /* One and two threads take turns, round by round, so that the load
       * of a shared machine changing meanwhile weighs on both alike:
       * their ratio is goal 4's figure.  ENGINE_LIMIT_ROUNDS=N takes N
       * turns instead of ROUNDS (a run of 256 MiB is 30-60 ms: on a
       * loaded machine a few of the scheduler's slices). */
      for (int r = 0; r < engine_rounds (); r++)
        for (int threads = 1; threads <= 2; threads++)
          {
            double t = time_job (1, (pl_profile) p, plain, LEN, threads, 1);

            e[threads] = t < e[threads] ? t : e[threads];
            sum_e[threads] += t - fixed_e[threads];
            t = time_job (0, (pl_profile) p, msg, msg_len, threads, 1);
            d[threads] = t < d[threads] ? t : d[threads];
            sum_d[threads] += t - fixed_d[threads];
          }
      for (int threads = 1; threads <= 2; threads++)
        {
          printf ("engine-%s-encrypt-%dt %.0f\n", names[p], threads,
                  mbs (e[threads] - fixed_e[threads]));
          printf ("engine-%s-decrypt-%dt %.0f\n", names[p], threads,
                  mbs (d[threads] - fixed_d[threads]));
        }
      /* Over all the turns rather than the best: on a loaded machine
       * the best of a few is the luckiest slice, and what a batch job
       * sees is the sum. */
      for (int threads = 1; threads <= 2; threads++)
        {
          printf ("engine-%s-encrypt-%dt-mean %.0f\n", names[p], threads,
                  mbs (sum_e[threads] / engine_rounds ()));
          printf ("engine-%s-decrypt-%dt-mean %.0f\n", names[p], threads,
                  mbs (sum_d[threads] / engine_rounds ()));
        }
      free (msg);
      free (empty);
    }
  free (plain);
  free (out);
  return 0;
}
