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
 * either speed.  Also printed, as the limits in the same run, the
 * stages alone on one core: AES-256 CFB decryption and encryption (the
 * default cipher), SHA-1 (the MDC), SHA-256 and SHA-512; and the share
 * of the unsigned speed a signed message can reach on two cores, from
 * the stage model (per octet, each stage's time alone on one core):
 *
 *   unsigned = max (cfb, sha1)                 two chains, two cores
 *   signed   = max (cfb, sha1, sig, (cfb + sha1 + sig) / 2)
 *   bound    = unsigned / signed
 *
 * The third chain (the signature's hash) no longer fits beside the two:
 * decrypting, CFB is cheap and the bound is about what all three cost
 * shared over two cores; encrypting, CFB is the long chain and the two
 * hashes share the other core with what CFB leaves.  The stage model
 * leaves out what the job does besides (parsing, hand-overs, page
 * faults), which an unsigned decryption hides in its slack and a signed
 * one cannot: an upper bound.  Each pair also prints the signed job's
 * CPU time (every thread's) and the bound it sets on two cores: that
 * CPU shared perfectly, against the pair's unsigned speed.  SIG_SPEED_ONLY=decrypt|encrypt times only
 * the signed runs of that side, PAIRS of them (for perf).
 *
 *   build/bench/sig-speed [MIB [PAIRS [THREADS]]]
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <sys/resource.h>
#include <gcrypt.h>

#include "cert.h"
#include "job.h"

#include "bench-util.h"
#include "keygen.h"
#include "seckey.h"


/* The process's CPU time, every thread's, in seconds. */
static double
cpu_s (void)
{
  struct rusage ru;

  getrusage (RUSAGE_SELF, &ru);
  return ru.ru_utime.tv_sec + ru.ru_utime.tv_usec / 1e6
         + ru.ru_stime.tv_sec + ru.ru_stime.tv_usec / 1e6;
}

/* The CPU the last timed job took, every thread's (seconds). */
static double last_cpu;

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
  pl_opener k = { PL_OPENER_CERT, b->certs[0], 0, 0, 0 };
  const pl_seckey *signers[] = { &b->sk };
  pl_encrypt_options o;
  pl_source *src = pl_source_new_memory (b->plain, b->len);
  pl_sink *sink = pl_sink_new_memory ();
  const uint8_t *p;
  uint8_t *copy;
  gpg_error_t err;

  pl_encrypt_options_init (&o);
  o.openers = &k;
  o.n_openers = 1;
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
  pl_opener k = { PL_OPENER_SECRET_KEYS, b->certs[0], 0, 0, 0 };
  pl_decrypt_options d;
  pl_decrypt_result r;
  pl_job_control ctl = { 0 };
  pl_source *src = pl_source_new_memory (msg, len);
  double t0;
  gpg_error_t err;

  memset (&d, 0, sizeof d);
  d.openers = &k;
  d.n_openers = 1;
  d.verify_certs = (const pl_cert *const *) b->certs;
  d.n_verify_certs = b->n;
  ctl.threads = b->threads;
  last_cpu = cpu_s ();
  t0 = bench_now ();
  err = pl_decrypt (src, &null_sink, &d, &r, &ctl);
  t0 = bench_now () - t0;
  last_cpu = cpu_s () - last_cpu;
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
  pl_opener k = { PL_OPENER_CERT, b->certs[0], 0, 0, 0 };
  const pl_seckey *signers[] = { &b->sk };
  pl_encrypt_options o;
  pl_job_control ctl = { 0 };
  pl_source *src = pl_source_new_memory (b->plain, b->len);
  double t0;
  gpg_error_t err;

  pl_encrypt_options_init (&o);
  o.openers = &k;
  o.n_openers = 1;
  o.signers = sign ? signers : NULL;
  o.n_signers = sign;
  ctl.threads = b->threads;
  last_cpu = cpu_s ();
  t0 = bench_now ();
  err = pl_encrypt (src, &null_sink, &o, &ctl);
  t0 = bench_now () - t0;
  last_cpu = cpu_s () - last_cpu;
  if (err)
    die ("encrypt", err);
  pl_source_free (src);
  return b->len / t0 / 1e6;
}

static double
hash_rate (int algo, const uint8_t *p, size_t len)
{
  uint8_t out[64];
  double t0 = bench_now ();

  gcry_md_hash_buffer (algo, out, p, len);
  return len / (bench_now () - t0) / 1e6;
}

static double
cfb_rate (int encrypt, const uint8_t *p, size_t len)
{
  static const uint8_t key[32] = { 1 };
  uint8_t *out = malloc (PL_BLOCK_SIZE);
  gcry_cipher_hd_t h;
  double t0;

  if (!out || gcry_cipher_open (&h, GCRY_CIPHER_AES256, GCRY_CIPHER_MODE_CFB,
                                0)
      || gcry_cipher_setkey (h, key, sizeof key))
    die ("cfb", gpg_error (GPG_ERR_GENERAL));
  t0 = bench_now ();
  /* In blocks, as the job goes, into a buffer used again. */
  for (size_t off = 0; off < len; off += PL_BLOCK_SIZE)
    {
      size_t n = len - off < PL_BLOCK_SIZE ? len - off : PL_BLOCK_SIZE;

      if (encrypt)
        gcry_cipher_encrypt (h, out, n, p + off, n);
      else
        gcry_cipher_decrypt (h, out, n, p + off, n);
    }
  t0 = bench_now () - t0;
  gcry_cipher_close (h);
  free (out);
  return len / t0 / 1e6;
}

static double
max2 (double a, double b)
{
  return a > b ? a : b;
}

/* The share of the unsigned speed a signed message can reach on two
 * cores (the model in the header), from the stages' speeds alone in
 * MB/s: CFB, SHA-1 and the signature's hash SIG. */
static double
bound (double cfb, double sha1, double sig)
{
  double c = 1 / cfb, m = 1 / sha1, s = 1 / sig;
  double unsigned_t = max2 (c, m);
  double signed_t = max2 (max2 (c, m), max2 (s, (c + m + s) / 2));

  return unsigned_t / signed_t;
}

/* PAIRS of A (unsigned) then B (signed), each a speed in MB/s. */
static void
pairs (const char *name, bench *b, int n_pairs, const uint8_t *ma,
       size_t la, const uint8_t *mb, size_t lb)
{
  double *ratio = calloc (n_pairs, sizeof *ratio);
  double *sa = calloc (n_pairs, sizeof *sa), *sb = calloc (n_pairs, sizeof *sb);
  double *cpu = calloc (n_pairs, sizeof *cpu);
  double *cpu_bound = calloc (n_pairs, sizeof *cpu_bound);

  for (int i = 0; i < n_pairs; i++)
    {
      sa[i] = ma ? time_decrypt (b, ma, la, 0) : time_encrypt (b, 0);
      sb[i] = mb ? time_decrypt (b, mb, lb, 1) : time_encrypt (b, 1);
      ratio[i] = sb[i] / sa[i];
      /* The signed job's own CPU, shared perfectly over two cores, is
       * a wall time it cannot beat: a bound measured on the job, with
       * everything the stage model leaves out. */
      cpu[i] = last_cpu;
      cpu_bound[i] = b->len / (last_cpu / 2) / 1e6 / sa[i];
      printf ("%s pair %d: unsigned %.0f MB/s, signed %.0f MB/s, "
              "ratio %.3f; signed CPU %.0f ms, its bound %.3f\n", name,
              i + 1, sa[i], sb[i], ratio[i], cpu[i] * 1e3, cpu_bound[i]);
    }
  printf ("%s: median unsigned %.0f MB/s, signed %.0f MB/s, median ratio "
          "%.3f; signed CPU %.0f ms, bound by it %.3f\n", name,
          median (sa, n_pairs), median (sb, n_pairs), median (ratio, n_pairs),
          median (cpu, n_pairs) * 1e3, median (cpu_bound, n_pairs));
  free (cpu);
  free (cpu_bound);
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
  const char *only = getenv ("SIG_SPEED_ONLY");
  double cfb_dec, cfb_enc, sha1, sha256, sha512;
  gpg_error_t err;

  b.threads = argc > 3 ? atoi (argv[3]) : 2;
  if (only && !*only)
    only = NULL;
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
  cfb_dec = cfb_rate (0, b.plain, b.len);
  cfb_enc = cfb_rate (1, b.plain, b.len);
  sha1 = hash_rate (GCRY_MD_SHA1, b.plain, b.len);
  sha256 = hash_rate (GCRY_MD_SHA256, b.plain, b.len);
  sha512 = hash_rate (GCRY_MD_SHA512, b.plain, b.len);
  printf ("limit aes256-cfb (1 core): decrypt %.0f MB/s, encrypt %.0f MB/s\n",
          cfb_dec, cfb_enc);
  printf ("limit sha1 (1 core): %.0f MB/s\n", sha1);
  printf ("limit sha256 (1 core): %.0f MB/s, signed/unsigned bound on 2 "
          "cores: decrypt %.3f, encrypt %.3f\n", sha256,
          bound (cfb_dec, sha1, sha256), bound (cfb_enc, sha1, sha256));
  printf ("limit sha512 (1 core): %.0f MB/s, signed/unsigned bound on 2 "
          "cores: decrypt %.3f, encrypt %.3f\n", sha512,
          bound (cfb_dec, sha1, sha512), bound (cfb_enc, sha1, sha512));
  ma = encrypt_to_memory (&b, 0, &la);
  mb = encrypt_to_memory (&b, 1, &lb);
  if (only)
    for (int i = 0; i < n_pairs; i++)
      printf ("%s signed: %.0f MB/s\n", only,
              strcmp (only, "encrypt") ? time_decrypt (&b, mb, lb, 1)
                                       : time_encrypt (&b, 1));
  else
    {
      pairs ("decrypt", &b, n_pairs, ma, la, mb, lb);
      pairs ("encrypt", &b, n_pairs, NULL, 0, NULL, 0);
    }
  print_load ("after");
  free (ma);
  free (mb);
  free (b.plain);
  pl_seckey_clear (&b.sk);
  pl_certs_free (b.certs, b.n);
  return 0;
}
