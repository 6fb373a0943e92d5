/* sig-speed.c - what a signature costs: signed against unsigned, paired
 *
 * Issue 23: a signed message must decrypt at >= 90% of the unsigned
 * speed, and signing while encrypting must cost <= 10% of the
 * encryption's speed.  This times, in memory to a discarding sink, the
 * same data (MIB MiB, default 128) through pl_decrypt and pl_encrypt
 * (rfc4880, to an Ed25519/Cv25519 key that keygen.c makes, signed with
 * its SHA-256, as gpg), unsigned (A) and signed (B) in turns, A B A B ..., so
 * that a change of the machine's load hits both alike; each pair gives
 * a ratio B/A of speeds, and the median of the pairs is the figure.
 * The thread budget is THREADS (default 2).  SIG_SPEED_KEY=FILE signs
 * with the unprotected secret key in FILE instead (gpg
 * --export-secret-keys of a nistp256 key: ECDSA with SHA-256).  The load average before
 * and after is printed: on a busy machine the ratio means more than
 * either speed.  Also printed, as the limits in the same run: SHA-1
 * (the MDC), SHA-256 and SHA-512 alone on one core, and the bound they
 * set for a signed message on two cores, as a share of unsigned, with
 * SHA-1 on one core (the unsigned bound, issue 25) and the signature's
 * hash on the other:
 *
 *   bound = min (1, sig / sha1)
 *
 * (CFB, the copy and the writes left out: an upper bound).
 *
 *   build/bench/sig-speed [MIB [PAIRS [THREADS]]]
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <gcrypt.h>

#include "cert.h"
#include "job.h"

#include "bench-util.h"
#include "keygen.h"
#include "seckey.h"

static double
now (void)
{
  struct timespec ts;

  clock_gettime (CLOCK_MONOTONIC, &ts);
  return ts.tv_sec + ts.tv_nsec / 1e9;
}


static void
die (const char *what, gpg_error_t err)
{
  fprintf (stderr, "sig-speed: %s: %s\n", what, gpg_strerror (err));
  exit (1);
}

static void
print_load (const char *when)
{
  double l[3] = { 0 };
  FILE *f = fopen ("/proc/loadavg", "r");

  if (f && fscanf (f, "%lf %lf %lf", &l[0], &l[1], &l[2]) == 3)
    printf ("load %s: %.2f %.2f %.2f\n", when, l[0], l[1], l[2]);
  if (f)
    fclose (f);
}

typedef struct
{
  pl_cert **certs;
  size_t n;
  pl_seckey sk;
  uint8_t *plain;
  size_t len;
  int threads;
} bench;

/* Encrypts B's data to its key, signed or not, into memory. */
static uint8_t *
encrypt_to_memory (bench *b, int sign, size_t *out_len)
{
  pl_key k = { PL_KEY_CERT, b->certs[0], 0, 0, 0 };
  const pl_seckey *signers[] = { &b->sk };
  pl_encrypt_options o;
  pl_source *src = pl_source_new_memory (b->plain, b->len);
  pl_sink *sink = pl_sink_new_memory ();
  const uint8_t *p;
  uint8_t *copy;
  gpg_error_t err;

  pl_encrypt_options_init (&o);
  o.keys = &k;
  o.n_keys = 1;
  o.signers = sign ? signers : NULL;
  o.n_signers = sign;
  if ((err = pl_encrypt (src, sink, &o, NULL)))
    die ("encrypt", err);
  p = pl_sink_memory_data (sink, out_len);
  copy = malloc (*out_len);
  memcpy (copy, p, *out_len);
  pl_source_free (src);
  pl_sink_free (sink);
  return copy;
}

static double
time_decrypt (bench *b, const uint8_t *msg, size_t len, int want_signed)
{
  pl_key k = { PL_KEY_SECRET, b->certs[0], 0, 0, 0 };
  pl_decrypt_options d;
  pl_decrypt_result r;
  pl_job_control ctl = { 0 };
  pl_source *src = pl_source_new_memory (msg, len);
  double t0;
  gpg_error_t err;

  memset (&d, 0, sizeof d);
  d.keys = &k;
  d.n_keys = 1;
  d.verify_certs = (const pl_cert *const *) b->certs;
  d.n_verify_certs = b->n;
  ctl.threads = b->threads;
  t0 = now ();
  err = pl_decrypt (src, &null_sink, &d, &r, &ctl);
  t0 = now () - t0;
  if (err)
    die ("decrypt", err);
  if (want_signed != (r.verifications.n == 1
                      && r.verifications.v[0].verdict == PL_VERDICT_GOOD))
    die ("decrypt: verdict", gpg_error (GPG_ERR_BAD_SIGNATURE));
  pl_source_free (src);
  return b->len / t0 / 1e6;
}

static double
time_encrypt (bench *b, int sign)
{
  pl_key k = { PL_KEY_CERT, b->certs[0], 0, 0, 0 };
  const pl_seckey *signers[] = { &b->sk };
  pl_encrypt_options o;
  pl_job_control ctl = { 0 };
  pl_source *src = pl_source_new_memory (b->plain, b->len);
  double t0;
  gpg_error_t err;

  pl_encrypt_options_init (&o);
  o.keys = &k;
  o.n_keys = 1;
  o.signers = sign ? signers : NULL;
  o.n_signers = sign;
  ctl.threads = b->threads;
  t0 = now ();
  err = pl_encrypt (src, &null_sink, &o, &ctl);
  t0 = now () - t0;
  if (err)
    die ("encrypt", err);
  pl_source_free (src);
  return b->len / t0 / 1e6;
}

static double
hash_rate (int algo, const uint8_t *p, size_t len)
{
  uint8_t out[64];
  double t0 = now ();

  gcry_md_hash_buffer (algo, out, p, len);
  return len / (now () - t0) / 1e6;
}

/* The share of the unsigned speed a signed message can reach on two
 * cores, with the signature's hash at SIG MB/s and SHA-1 at SHA1. */
static double
bound (double sha1, double sig)
{
  return sig < sha1 ? sig / sha1 : 1;
}

/* PAIRS of A (unsigned) then B (signed), each a speed in MB/s. */
static void
pairs (const char *name, bench *b, int n_pairs, const uint8_t *ma,
       size_t la, const uint8_t *mb, size_t lb)
{
  double *ratio = calloc (n_pairs, sizeof *ratio);
  double *sa = calloc (n_pairs, sizeof *sa), *sb = calloc (n_pairs, sizeof *sb);

  for (int i = 0; i < n_pairs; i++)
    {
      sa[i] = ma ? time_decrypt (b, ma, la, 0) : time_encrypt (b, 0);
      sb[i] = mb ? time_decrypt (b, mb, lb, 1) : time_encrypt (b, 1);
      ratio[i] = sb[i] / sa[i];
      printf ("%s pair %d: unsigned %.0f MB/s, signed %.0f MB/s, "
              "ratio %.3f\n", name, i + 1, sa[i], sb[i], ratio[i]);
    }
  printf ("%s: median unsigned %.0f MB/s, signed %.0f MB/s, median ratio "
          "%.3f\n", name, median (sa, n_pairs), median (sb, n_pairs),
          median (ratio, n_pairs));
  free (ratio);
  free (sa);
  free (sb);
}

int
main (int argc, char **argv)
{
  const char *uid[] = { "Bench <bench@example.org>" };
  size_t mib = argc > 1 ? strtoul (argv[1], NULL, 10) : 128;
  int n_pairs = argc > 2 ? atoi (argv[2]) : 5;
  bench b = { 0 };
  uint8_t *bin, *ma, *mb;
  size_t len, la, lb;
  double sha1, sha256, sha512;
  gpg_error_t err;

  b.threads = argc > 3 ? atoi (argv[3]) : 2;
  if ((err = pl_init ()))
    die ("init", err);
  if (getenv ("SIG_SPEED_KEY"))
    {
      FILE *f = fopen (getenv ("SIG_SPEED_KEY"), "rb");
      static uint8_t keybuf[65536];

      if (!f)
        die ("SIG_SPEED_KEY", gpg_error_from_syserror ());
      len = fread (keybuf, 1, sizeof keybuf, f);
      fclose (f);
      if ((err = pl_certs_read (keybuf, len, &b.certs, &b.n)))
        die ("certs", err);
    }
  else
    {
      if ((err = pl_keygen (PL_KEYGEN_DEFAULT, uid, 1, NULL, 0,
                            (uint32_t) time (NULL) - 10, &bin, &len)))
        die ("keygen", err);
      if ((err = pl_certs_read (bin, len, &b.certs, &b.n)))
        die ("certs", err);
      gcry_free (bin);
    }
  if ((err = pl_seckey_unlock (&b.certs[0]->primary, 5, NULL, 0, 0, NULL,
                               &b.sk)))
    die ("unlock", err);
  b.len = mib << 20;
  b.plain = malloc (b.len);
  gcry_randomize (b.plain, b.len, GCRY_WEAK_RANDOM);
  printf ("%zu MiB in memory, rfc4880, %s signer, %d threads, %d pairs\n",
          mib, getenv ("SIG_SPEED_KEY") ? getenv ("SIG_SPEED_KEY")
          : "Ed25519 (SHA-256)", b.threads, n_pairs);
  print_load ("before");
  sha1 = hash_rate (GCRY_MD_SHA1, b.plain, b.len);
  sha256 = hash_rate (GCRY_MD_SHA256, b.plain, b.len);
  sha512 = hash_rate (GCRY_MD_SHA512, b.plain, b.len);
  printf ("limit sha1 (1 core): %.0f MB/s\n", sha1);
  printf ("limit sha256 (1 core): %.0f MB/s, signed/unsigned bound on 2 "
          "cores %.3f\n", sha256, bound (sha1, sha256));
  printf ("limit sha512 (1 core): %.0f MB/s, signed/unsigned bound on 2 "
          "cores %.3f\n", sha512, bound (sha1, sha512));
  ma = encrypt_to_memory (&b, 0, &la);
  mb = encrypt_to_memory (&b, 1, &lb);
  pairs ("decrypt", &b, n_pairs, ma, la, mb, lb);
  pairs ("encrypt", &b, n_pairs, NULL, 0, NULL, 0);
  print_load ("after");
  free (ma);
  free (mb);
  free (b.plain);
  pl_seckey_clear (&b.sk);
  pl_certs_free (b.certs, b.n);
  return 0;
}
