/* detached-speed.c - a detached signature's check against the hash's
 * one-core speed, paired (issue 34 §1: "the job reads the data at hash
 * speed, >= 90% of the hash's one-core speed")
 *
 * On FOLDER (default /dev/shm, a tmpfs: the page cache, no disk) a file
 * of MIB MiB (default 512) of random octets, signed detached by an
 * Ed25519 key that keygen.c makes (pl_sign_detached, as `padlock --batch
 * --sign --detach` signs).  Then PAIRS pairs (default 5), in turns:
 *
 *   A  the limit: the file mapped afresh and hashed by libgcrypt with the
 *      signature's hash, on one core, in 1 MiB pieces (what no check of
 *      this file can beat on this machine: the same page-cache faults,
 *      the same hash, nothing else);
 *   B  the job's check as the window's and --batch's jobs run it
 *      (app/jobs/padlock-job-run.c check_detached): pl_source_new_file
 *      over the file, pl_detached_run with a budget of THREADS (default
 *      2), its certificate given; the verdict must be good.
 *
 * Each pair gives B's speed over A's; the median of the pairs is the
 * figure.  Printed beside every run: its wall time, MB/s and the minor
 * page faults it took (getrusage), and the hash alone over a hot buffer
 * in memory (no faults) as a second limit.
 *
 *   build/bench/detached-speed [MIB [PAIRS [THREADS [FOLDER]]]]
 */
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <gcrypt.h>

#include "algo.h"
#include "cert.h"
#include "detached.h"
#include "job.h"
#include "keygen.h"
#include "seckey.h"
#include "sign-file.h"

#include "bench-util.h"

static long
minflt (void)
{
  struct rusage ru;

  getrusage (RUSAGE_SELF, &ru);
  return ru.ru_minflt;
}

static void
die (const char *what, gpg_error_t err)
{
  fprintf (stderr, "detached-speed: %s: %s\n", what, gpg_strerror (err));
  exit (1);
}

/* A: the file mapped afresh, hashed on this thread. */
static void
hash_file (const char *path, size_t len, int gcry_algo)
{
  int fd = open (path, O_RDONLY | O_CLOEXEC);
  const uint8_t *map;
  gcry_md_hd_t md;

  if (fd < 0)
    die ("open", gpg_error_from_syserror ());
  map = mmap (NULL, len, PROT_READ, MAP_SHARED, fd, 0);
  if (map == MAP_FAILED)
    die ("mmap", gpg_error_from_syserror ());
  if (gcry_md_open (&md, gcry_algo, 0))
    die ("md", gpg_error (GPG_ERR_DIGEST_ALGO));
  for (size_t off = 0; off < len; off += 1u << 20)
    gcry_md_write (md, map + off, len - off < (1u << 20) ? len - off : 1u << 20);
  (void) gcry_md_read (md, 0);
  gcry_md_close (md);
  munmap ((void *) map, len);
  close (fd);
}

/* B: the job's check. */
static void
check_file (const char *path, const uint8_t *sig, size_t sig_len,
            const pl_cert *cert, int threads)
{
  const pl_cert *certs[] = { cert };
  pl_job_control ctl = { 0 };
  pl_verifications out;
  pl_source *src;
  gpg_error_t err;

  ctl.threads = threads;
  if ((err = pl_source_new_file (path, &src)))
    die ("source", err);
  err = pl_detached_run (sig, sig_len, src, certs, 1, NULL, NULL,
                         (uint32_t) time (NULL), &out, &ctl);
  pl_source_free (src);
  if (err)
    die ("check", err);
  if (out.n != 1 || out.v[0].verdict != PL_VERDICT_GOOD)
    die ("check", gpg_error (GPG_ERR_BAD_SIGNATURE));
}

static double
hot_rate (int gcry_algo, size_t len)
{
  uint8_t *buf = malloc (len);
  double t;

  memset (buf, 0x5a, len);
  gcry_md_hash_buffer (gcry_algo, buf, buf, 1u << 20);      /* warm */
  t = bench_now ();
  for (size_t off = 0; off < len; off += 1u << 20)
    {
      uint8_t d[64];
      gcry_md_hash_buffer (gcry_algo, d, buf + off, 1u << 20);
    }
  t = bench_now () - t;
  free (buf);
  return len / t / 1e6;
}

int
main (int argc, char **argv)
{
  size_t mib = argc > 1 ? strtoul (argv[1], NULL, 10) : 512;
  int pairs = argc > 2 ? atoi (argv[2]) : 5;
  int threads = argc > 3 ? atoi (argv[3]) : 2;
  const char *folder = argc > 4 ? argv[4] : "/dev/shm";
  const char *uid[] = { "Bench <bench@example.org>" };
  char path[4096];
  uint8_t *bin, *data;
  size_t bin_len, len = mib << 20, sig_len, n;
  pl_cert **certs;
  pl_seckey sk;
  pl_sink *sink;
  pl_source *src;
  const uint8_t *sig;
  double *ratio;
  int fd, algo;
  gpg_error_t err;

  if (!mib || pairs < 1 || threads < 1)
    {
      fprintf (stderr, "usage: detached-speed [MIB [PAIRS [THREADS [FOLDER]]]]\n");
      return 2;
    }
  if ((err = pl_init ()))
    die ("init", err);
  if ((err = pl_keygen (PL_KEYGEN_DEFAULT, uid, 1, NULL, 0,
                        (uint32_t) time (NULL) - 10, &bin, &bin_len)))
    die ("keygen", err);
  if ((err = pl_certs_read (bin, bin_len, &certs, &n)))
    die ("certs", err);
  gcry_free (bin);
  if ((err = pl_seckey_unlock (&certs[0]->primary, 5, NULL, 0, 0, NULL, &sk)))
    die ("unlock", err);

  snprintf (path, sizeof path, "%s/padlock-detached-speed-XXXXXX", folder);
  if ((fd = mkstemp (path)) < 0)
    die ("mkstemp", gpg_error_from_syserror ());
  data = malloc (len);
  gcry_randomize (data, len, GCRY_WEAK_RANDOM);
  if (write (fd, data, len) != (ssize_t) len)
    die ("write", gpg_error_from_syserror ());
  close (fd);
  src = pl_source_new_memory (data, len);
  sink = pl_sink_new_memory ();
  if ((err = pl_sign_detached (src, sink, &sk, 0, (uint32_t) time (NULL) - 5,
                               NULL)))
    die ("sign", err);
  pl_source_free (src);
  free (data);
  sig = pl_sink_memory_data (sink, &sig_len);

  /* The signature's hash, as the check reads it. */
  {
    const pl_cert *c[] = { certs[0] };
    pl_verifications out;
    pl_source *s;

    if ((err = pl_source_new_file (path, &s)))
      die ("source", err);
    if ((err = pl_detached_run (sig, sig_len, s, c, 1, NULL, NULL,
                                (uint32_t) time (NULL), &out, NULL)))
      die ("check", err);
    pl_source_free (s);
    algo = pl_hash_gcry_algo (out.v[0].hash_algo);
  }
  printf ("%zu MiB in %s, signed detached by Ed25519 with %s, check's "
          "budget %d threads, %d pairs\n", mib, folder,
          gcry_md_algo_name (algo), threads, pairs);
  printf ("limit %s over a hot buffer (1 core): %.0f MB/s\n",
          gcry_md_algo_name (algo), hot_rate (algo, 256u << 20));

  ratio = calloc (pairs, sizeof *ratio);
  for (int i = 0; i < pairs; i++)
    {
      double t, ta, tb;
      long fa, fb;

      fa = minflt ();
      t = bench_now ();
      hash_file (path, len, algo);
      ta = bench_now () - t;
      fa = minflt () - fa;
      fb = minflt ();
      t = bench_now ();
      check_file (path, sig, sig_len, certs[0], threads);
      tb = bench_now () - t;
      fb = minflt () - fb;
      ratio[i] = ta / tb;
      printf ("pair %d: A hash %.3f s %.0f MB/s (%ld minor faults)  "
              "B check %.3f s %.0f MB/s (%ld minor faults)  B/A %.3f\n",
              i + 1, ta, len / ta / 1e6, fa, tb, len / tb / 1e6, fb,
              ratio[i]);
      fflush (stdout);
    }
  printf ("check / hash-limit, median of %d pairs: %.3f (goal >= 0.90)\n",
          pairs, median (ratio, pairs));
  unlink (path);
  free (ratio);
  pl_sink_free (sink);
  pl_seckey_clear (&sk);
  pl_certs_free (certs, n);
  return 0;
}
