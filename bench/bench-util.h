/* bench-util.h - what the in-process benches share: a sink that keeps
 * nothing, and the median of a run's figures.  Header-only: each bench
 * is one program. */
#pragma once

#include <stdlib.h>
#include <time.h>
#include <sys/time.h>

#include "io.h"

static inline gpg_error_t
bench_null_write (pl_sink *s, const void *b, size_t n)
{
  (void) s, (void) b, (void) n;
  return 0;
}

static inline gpg_error_t
bench_null_commit (pl_sink *s)
{
  (void) s;
  return 0;
}

static inline void
bench_null_abort (pl_sink *s)
{
  (void) s;
}

/* A sink that keeps nothing: what is measured is the engine alone. */
static pl_sink null_sink __attribute__ ((unused)) = { bench_null_write, bench_null_commit,
                             bench_null_abort, NULL };

static inline int
cmp_double (const void *a, const void *b)
{
  double x = *(const double *) a, y = *(const double *) b;

  return x < y ? -1 : x > y;
}

/* The median of V's N figures, sorting V. */
static inline double
median (double *v, int n)
{
  qsort (v, n, sizeof *v, cmp_double);
  return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

/* Seconds on the monotonic clock. */
static inline double
bench_now (void)
{
  struct timespec ts;

  clock_gettime (CLOCK_MONOTONIC, &ts);
  return ts.tv_sec + ts.tv_nsec / 1e9;
}

/* A struct timeval (getrusage's times) in seconds. */
static inline double
bench_tv (struct timeval t)
{
  return t.tv_sec + t.tv_usec / 1e6;
}
