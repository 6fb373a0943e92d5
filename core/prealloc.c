/* prealloc.c - the output's room, made while a key is derived */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include "prealloc.h"
#include "keys.h"

#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>

struct pl_prealloc
{
  pl_sink *sink;
  uint64_t len;
  uint64_t done;                /* the thread's; read after the join */
  atomic_int stop;
  pthread_t thread;
};

static void *
prealloc_main (void *arg)
{
  pl_prealloc *p = arg;

  while (p->done < p->len && !atomic_load (&p->stop))
    {
      uint64_t n = p->len - p->done;
      if (n > PL_PREALLOC_STEP)
        n = PL_PREALLOC_STEP;
      if (p->sink->allocate (p->sink, p->done, n))
        break;
      p->done += n;
    }
  return NULL;
}

pl_prealloc *
pl_prealloc_start (pl_sink *sink, uint64_t len)
{
  pl_prealloc *p;

  if (!sink || !sink->allocate || len < PL_PREALLOC_MIN)
    return NULL;
  p = calloc (1, sizeof *p);
  if (!p)
    return NULL;
  p->sink = sink;
  p->len = len;
  atomic_init (&p->stop, 0);
  if (pthread_create (&p->thread, NULL, prealloc_main, p))
    {
      free (p);
      return NULL;
    }
  pthread_setname_np (p->thread, "pl-room");
  return p;
}

uint64_t
pl_prealloc_stop (pl_prealloc *p)
{
  uint64_t done;

  if (!p)
    return 0;
  atomic_store (&p->stop, 1);
  pthread_join (p->thread, NULL);
  done = p->done;
  free (p);
  return done;
}

pl_prealloc *
pl_prealloc_for_keys (pl_sink *sink, const pl_source *src,
                      const pl_job_control *ctl, const pl_opener *openers,
                      size_t n)
{
  if (pl_job_threads (ctl) < 2 || src->size <= 0
      || !pl_openers_wait (openers, n))
    return NULL;
  return pl_prealloc_start (sink, (uint64_t) src->size);
}
