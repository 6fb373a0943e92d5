/* rsa-cost.c - what RSA operations cost at 3072 to 32,768 bits (issue 21)
 *
 *   rsa-cost [ROUNDS]
 *
 * libgcrypt's modular exponentiation (gcry_mpi_powm), CPU clock, median
 * of ROUNDS (5), at each size K:
 *   public K       x^65537 mod n, n a random odd K-bit number: what an
 *                  encryption to, or a signature check by, an RSA-K key
 *                  costs in its arithmetic (e = 65537)
 *   public-e64 K   the same with a 64-bit exponent, the largest Padlock
 *                  takes (pubkey.h)
 *   private K      two exponentiations of K/2 bits modulo K/2-bit
 *                  numbers, the exponent in secure memory: the CRT core
 *                  of a decryption with an RSA-K key (libgcrypt adds its
 *                  blinding on top; compare "private 16384" with
 *                  bench/key-cost's pkesk-decrypt on the stored RSA-16384
 *                  key, which is the real thing)
 * No key needs generating: the sizes of the numbers are what the
 * arithmetic costs.  Output: "name K milliseconds".
 */
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
#include <gcrypt.h>

static double
now (void)
{
  struct timespec ts;
  clock_gettime (CLOCK_PROCESS_CPUTIME_ID, &ts);
  return ts.tv_sec + ts.tv_nsec / 1e9;
}

static int
cmp (const void *a, const void *b)
{
  double x = *(const double *) a, y = *(const double *) b;
  return x < y ? -1 : x > y;
}

static gcry_mpi_t
random_odd (unsigned int bits, int secure)
{
  gcry_mpi_t m = secure ? gcry_mpi_snew (bits) : gcry_mpi_new (bits);

  gcry_mpi_randomize (m, bits, GCRY_WEAK_RANDOM);
  gcry_mpi_set_bit (m, bits - 1);
  gcry_mpi_set_bit (m, 0);
  return m;
}

/* Median seconds of COUNT exponentiations of E_BITS modulo M_BITS. */
static double
powm (unsigned int m_bits, unsigned int e_bits, int count, int rounds,
      int secure)
{
  double t[32];
  gcry_mpi_t m = random_odd (m_bits, 0), x = random_odd (m_bits - 1, secure);
  gcry_mpi_t e = e_bits == 17 ? gcry_mpi_set_ui (NULL, 65537)
                              : random_odd (e_bits, secure);
  gcry_mpi_t r = secure ? gcry_mpi_snew (m_bits) : gcry_mpi_new (m_bits);

  for (int i = 0; i < rounds; i++)
    {
      double t0 = now ();
      for (int k = 0; k < count; k++)
        gcry_mpi_powm (r, x, e, m);
      t[i] = now () - t0;
    }
  qsort (t, rounds, sizeof *t, cmp);
  gcry_mpi_release (m);
  gcry_mpi_release (x);
  gcry_mpi_release (e);
  gcry_mpi_release (r);
  return t[rounds / 2];
}

int
main (int argc, char **argv)
{
  static const unsigned int sizes[] = { 3072, 4096, 8192, 16384, 32768 };
  int rounds = argc > 1 ? atoi (argv[1]) : 5;

  if (rounds < 1 || rounds > 32)
    rounds = 5;
  gcry_check_version (NULL);
  gcry_control (GCRYCTL_INIT_SECMEM, 4 << 20, 0);
  gcry_control (GCRYCTL_INITIALIZATION_FINISHED, 0);
  for (size_t i = 0; i < sizeof sizes / sizeof *sizes; i++)
    {
      unsigned int k = sizes[i];
      printf ("public %u %.3f\n", k, 1e3 * powm (k, 17, 1, rounds, 0));
      printf ("public-e64 %u %.3f\n", k, 1e3 * powm (k, 64, 1, rounds, 0));
      printf ("private %u %.1f\n", k,
              1e3 * powm (k / 2, k / 2, 2, k > 16384 ? 1 : rounds, 1));
      fflush (stdout);
    }
  return 0;
}
