/* condwait.h - a condition wait of at most a few milliseconds
 *
 * For the polls of a cancel flag that nobody signals (kdf-memory.c,
 * keycache.c, s2k.c, keyroom.c): waits on COND with MUTEX held, as
 * pthread_cond_wait does, until COND is signalled or NS nanoseconds
 * (below a second) have passed.  The deadline is on CLOCK_REALTIME, the
 * default condition clock: a clock step only lengthens or shortens one
 * poll.
 */
#pragma once

#include <pthread.h>
#include <time.h>

static inline void
pl_cond_wait_ns (pthread_cond_t *cond, pthread_mutex_t *mutex, long ns)
{
  struct timespec until;

  clock_gettime (CLOCK_REALTIME, &until);
  until.tv_nsec += ns;
  if (until.tv_nsec >= 1000000000L)
    {
      until.tv_sec++;
      until.tv_nsec -= 1000000000L;
    }
  pthread_cond_timedwait (cond, mutex, &until);
}
