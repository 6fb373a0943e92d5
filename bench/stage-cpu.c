/* stage-cpu.c - rfc4880 decryption in memory, 1 thread against 2, with
 * the CPU time of each side
 *
 * Usage: build/bench/stage-cpu [ROUNDS]
 *
 * Decrypts a 256 MiB rfc4880 message (made here, cheapest S2K) from
 * memory to a sink that keeps nothing, with a thread budget of 1 and of
 * 2 in turns (1 2 1 2 ...), ROUNDS (9) turns each, so that the load of a
 * shared machine falls on both alike.  Per job: wall seconds, the CPU
 * seconds of the calling thread (getrusage RUSAGE_THREAD: the CFB, the
 * framing, and the SHA-1 it does itself) and of the job's other threads
 * (RUSAGE_SELF minus the caller: the MDC hasher; the writes stay on
 * the caller on a budget of 2, decrypt.c seipd1_share_cores).
 * Prints the medians, the median of the paired ratios 1t wall / 2t wall
 * (above 1: two threads are faster), and the load average before and
 * after.  Not run by meson test.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <sys/resource.h>
#include <gcrypt.h>

#include "job.h"

#include "bench-util.h"

#define LEN ((size_t) 256 << 20)
#define MAX_ROUNDS 64


static const pl_opener bench_key = { PL_OPENER_PASSPHRASE, "bench", 5, 0 };

static double
wall_s (void)
{
  struct timespec ts;

  clock_gettime (CLOCK_MONOTONIC, &ts);
  return ts.tv_sec + ts.tv_nsec / 1e9;
}

static double
cpu_s (int who)
{
  struct rusage ru;

  getrusage (who, &ru);
  return ru.ru_utime.tv_sec + ru.ru_stime.tv_sec
         + (ru.ru_utime.tv_usec + ru.ru_stime.tv_usec) / 1e6;
}

/* The median of V's N figures, V kept in its order (the turns are
 * printed in it). */
static double
median_of (const double *v, int n)
{
  double s[MAX_ROUNDS];

  memcpy (s, v, n * sizeof *v);
  return median (s, n);
}

static void
die (const char *what, gpg_error_t err)
{
  fprintf (stderr, "stage-cpu: %s: %s\n", what, gpg_strerror (err));
  exit (1);
}

static void
load (const char *when)
{
  char buf[128] = "?";
  FILE *f = fopen ("/proc/loadavg", "r");

  if (f && fgets (buf, sizeof buf, f))
    buf[strcspn (buf, "\n")] = 0;
  if (f)
    fclose (f);
  printf ("load average %s: %s\n", when, buf);
}

int
main (int argc, char **argv)
{
  int rounds = argc > 1 ? atoi (argv[1]) : 9;
  uint8_t *plain = malloc (LEN);
  pl_encrypt_options o;
  const pl_opener pw = { PL_OPENER_PASSPHRASE, "bench", 5, 0 };
  pl_decrypt_options d = { &pw, 1, 0, NULL };
  double wall[3][MAX_ROUNDS], caller[3][MAX_ROUNDS], other[3][MAX_ROUNDS];
  double ratio[MAX_ROUNDS];
  const uint8_t *msg;
  size_t msg_len;
  pl_sink *sink;
  pl_source *src;
  gpg_error_t err;

  if (rounds < 1 || rounds > MAX_ROUNDS)
    rounds = 9;
  if (pl_init ())
    die ("init", gpg_error (GPG_ERR_GENERAL));
  gcry_randomize (plain, LEN, GCRY_WEAK_RANDOM);
  pl_encrypt_options_init (&o);
  o.openers = &bench_key;
  o.n_openers = 1;
  o.profile = PL_PROFILE_RFC4880;
  o.s2k_ms = 1;
  src = pl_source_new_memory (plain, LEN);
  sink = pl_sink_new_memory ();
  err = pl_encrypt (src, sink, &o, NULL);
  if (err)
    die ("encrypt", err);
  pl_source_free (src);
  msg = pl_sink_memory_data (sink, &msg_len);
  free (plain);

  load ("before");
  for (int r = 0; r < rounds; r++)
    for (int threads = 1; threads <= 2; threads++)
      {
        pl_job_control ctl = { NULL, NULL, NULL, threads };
        double w0, c0, p0;

        src = pl_source_new_memory (msg, msg_len);
        w0 = wall_s ();
        c0 = cpu_s (RUSAGE_THREAD);
        p0 = cpu_s (RUSAGE_SELF);
        err = pl_decrypt (src, &null_sink, &d, NULL, &ctl);
        wall[threads][r] = wall_s () - w0;
        caller[threads][r] = cpu_s (RUSAGE_THREAD) - c0;
        other[threads][r] = cpu_s (RUSAGE_SELF) - p0 - caller[threads][r];
        pl_source_free (src);
        if (err)
          die ("decrypt", err);
        if (threads == 2)
          ratio[r] = wall[1][r] / wall[2][r];
      }
  load ("after");
  for (int t = 1; t <= 2; t++)
    printf ("%dt: wall %.3f s (%.0f MB/s), caller CPU %.3f s, other "
            "threads CPU %.3f s (medians of %d)\n", t, median_of (wall[t], rounds),
            LEN / median_of (wall[t], rounds) / 1e6, median_of (caller[t], rounds),
            median_of (other[t], rounds), rounds);
  printf ("2t speed / 1t speed, median of paired turns: %.3f\n",
          median_of (ratio, rounds));
  pl_sink_free (sink);
  return 0;
}
