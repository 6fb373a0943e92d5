/* argon2-speed.c - rfc9580's Argon2id (t=3, p=4, m=2^16 KiB) by
 * libgcrypt and by core/argon2.c, paired A B A B in one process
 *
 * Each round runs libgcrypt's Argon2id (its lanes on THREADS threads
 * through gcry_kdf_compute's thread operations, as s2k.c ran it before)
 * and Padlock's with each kernel the CPU runs, in turns (each round starting
 * one further along the list), and takes wall time and
 * the process's user time, system time and minor page faults
 * (getrusage) around each.  Prints every round, then the medians.
 * Usage: build/bench/argon2-speed [ROUNDS [THREADS [M_EXP [PASSES]]]]
 */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <sys/resource.h>
#include <gcrypt.h>

#include "argon2.h"
#include "bench-util.h"

typedef struct
{
  double wall, user, sys, faults;
} cost;

/* libgcrypt's jobs, each on a thread of its own, at most MAX at once. */
typedef struct
{
  pthread_mutex_t lock;
  pthread_cond_t cond;
  int running, max;
} pool;

typedef struct
{
  pool *p;
  gcry_kdf_job_fn_t fn;
  void *priv;
} job;

static void *
job_thread (void *arg)
{
  job *j = arg;
  pool *p = j->p;

  j->fn (j->priv);
  free (j);
  pthread_mutex_lock (&p->lock);
  p->running--;
  pthread_cond_broadcast (&p->cond);
  pthread_mutex_unlock (&p->lock);
  return NULL;
}

static int
dispatch (void *ctx, gcry_kdf_job_fn_t fn, void *priv)
{
  pool *p = ctx;
  job *j = malloc (sizeof *j);
  pthread_t t;

  if (p->max <= 1)
    {
      free (j);
      fn (priv);
      return 0;
    }
  pthread_mutex_lock (&p->lock);
  while (p->running >= p->max)
    pthread_cond_wait (&p->cond, &p->lock);
  p->running++;
  pthread_mutex_unlock (&p->lock);
  j->p = p;
  j->fn = fn;
  j->priv = priv;
  pthread_create (&t, NULL, job_thread, j);
  pthread_detach (t);
  return 0;
}

static int
wait_all (void *ctx)
{
  pool *p = ctx;

  pthread_mutex_lock (&p->lock);
  while (p->running)
    pthread_cond_wait (&p->cond, &p->lock);
  pthread_mutex_unlock (&p->lock);
  return 0;
}

static void
gcrypt_run (const pl_argon2_params *pa, uint8_t *tag, int threads)
{
  unsigned long params[4] = { 32, pa->passes, pa->memory_kib, pa->lanes };
  pool p = { PTHREAD_MUTEX_INITIALIZER, PTHREAD_COND_INITIALIZER, 0,
             threads };
  struct gcry_kdf_thread_ops ops = { &p, dispatch, wait_all };
  gcry_kdf_hd_t hd;

  if (gcry_kdf_open (&hd, GCRY_KDF_ARGON2, GCRY_KDF_ARGON2ID, params, 4,
                     pa->password, pa->password_len, pa->salt, pa->salt_len,
                     NULL, 0, NULL, 0)
      || gcry_kdf_compute (hd, &ops) || gcry_kdf_final (hd, 32, tag))
    {
      fprintf (stderr, "libgcrypt's Argon2 failed\n");
      exit (1);
    }
  gcry_kdf_close (hd);
}

static cost
measure (int which, const pl_argon2_params *pa, uint8_t *tag, int threads)
{
  struct rusage a, b;
  double t0, t1;
  cost c;

  getrusage (RUSAGE_SELF, &a);
  t0 = bench_now ();
  if (which == 0)
    gcrypt_run (pa, tag, threads);
  else if (pl_argon2id (pa, tag, 32, threads, NULL))
    {
      fprintf (stderr, "pl_argon2id failed\n");
      exit (1);
    }
  t1 = bench_now ();
  getrusage (RUSAGE_SELF, &b);
  c.wall = t1 - t0;
  c.user = bench_tv (b.ru_utime) - bench_tv (a.ru_utime);
  c.sys = bench_tv (b.ru_stime) - bench_tv (a.ru_stime);
  c.faults = (double) (b.ru_minflt - a.ru_minflt);
  return c;
}

int
main (int argc, char **argv)
{
  int rounds = argc > 1 ? atoi (argv[1]) : 9;
  int threads = argc > 2 ? atoi (argv[2]) : 2;
  int m_exp = argc > 3 ? atoi (argv[3]) : 16;
  int passes = argc > 4 ? atoi (argv[4]) : 3;
  const char *all[] = { "libgcrypt", "avx512", "avx2", "scalar" };
  const char *names[4];
  int n = 0;
  uint8_t salt[16] = { 1, 2, 3 }, want[32], tag[32];
  pl_argon2_params pa = { "pw", 2, salt, sizeof salt, NULL, 0, NULL, 0,
                          (uint32_t) passes, 4, 1u << m_exp };
  double *v[4][4];

  if (rounds < 1)
    rounds = 1;
  for (int k = 0; k < 4; k++)
    if (!k || !pl_argon2_force_impl (all[k]))
      names[n++] = all[k];
  for (int k = 0; k < n; k++)
    for (int f = 0; f < 4; f++)
      v[k][f] = calloc (rounds, sizeof (double));
  printf ("Argon2id t=%d p=4 m=2^%d KiB, %d threads, %d rounds "
          "(wall ms, user ms, sys ms, minor faults)\n", passes, m_exp,
          threads, rounds);
  /* One untimed run of each warms the code and libgcrypt's state. */
  gcrypt_run (&pa, want, threads);
  for (int r = 0; r < rounds; r++)
    {
      printf ("round %2d:", r + 1);
      /* Each round starts one later in the list: what runs right after
       * another's munmap (fresh pages, this VM's costly part) is not
       * always the same. */
      for (int j = 0; j < n; j++)
        {
          int k = (r + j) % n;
          cost c;

          if (k)
            pl_argon2_force_impl (names[k]);
          c = measure (k ? 1 : 0, &pa, tag, threads);
          if (memcmp (tag, want, 32))
            {
              fprintf (stderr, "%s: wrong tag\n", names[k]);
              return 1;
            }
          v[k][0][r] = c.wall * 1e3;
          v[k][1][r] = c.user * 1e3;
          v[k][2][r] = c.sys * 1e3;
          v[k][3][r] = c.faults;
          printf ("  %s %.1f %.0f %.0f %.0f", names[k], c.wall * 1e3,
                  c.user * 1e3, c.sys * 1e3, c.faults);
        }
      printf ("\n");
    }
  printf ("median:\n");
  for (int k = 0; k < n; k++)
    printf ("  %-9s wall %6.1f ms  user %5.0f ms  sys %4.0f ms  "
            "faults %6.0f\n", names[k], median (v[k][0], rounds),
            median (v[k][1], rounds), median (v[k][2], rounds),
            median (v[k][3], rounds));
  return 0;
}
