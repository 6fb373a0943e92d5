/* kdf-memory.c - one process-wide budget for key-derivation memory */
#include "kdf-memory.h"
#include "condwait.h"

#include <pthread.h>
#include <stddef.h>
#include <time.h>

#define POLL_NS (20 * 1000 * 1000)

/* One waiting take, on its caller's stack: the queue is first come,
 * first served. */
typedef struct waiter
{
  struct waiter *next;
  uint64_t kib;
} waiter;

static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t changed = PTHREAD_COND_INITIALIZER;
static waiter *queue_head, *queue_tail;
static pl_kdf_memory_stats stats;

static int
fits (uint64_t kib)
{
  return !stats.in_use_kib
         || stats.in_use_kib + kib <= PL_KDF_MEMORY_BUDGET_KIB;
}

static void
dequeue (waiter *w)
{
  waiter **p = &queue_head, *prev = NULL;

  while (*p && *p != w)
    {
      prev = *p;
      p = &(*p)->next;
    }
  if (!*p)
    return;
  *p = w->next;
  if (queue_tail == w)
    queue_tail = prev;
  stats.waiting--;
}

static void
grant (uint64_t kib)
{
  stats.in_use_kib += kib;
  if (stats.in_use_kib > stats.peak_kib)
    stats.peak_kib = stats.in_use_kib;
}

static void
wait_a_little (void)
{
  pl_cond_wait_ns (&changed, &lock, POLL_NS);
}

gpg_error_t
pl_kdf_memory_take (uint64_t kib, const atomic_int *cancel,
                    pl_kdf_memory_waiting_fn waiting, void *arg)
{
  waiter self = { NULL, kib };
  gpg_error_t err = 0;

  pthread_mutex_lock (&lock);
  if (!queue_head && fits (kib))
    {
      grant (kib);
      pthread_mutex_unlock (&lock);
      return 0;
    }
  if (queue_tail)
    queue_tail->next = &self;
  else
    queue_head = &self;
  queue_tail = &self;
  stats.waits++;
  stats.waiting++;
  pthread_mutex_unlock (&lock);
  if (waiting)
    waiting (arg, 1);

  pthread_mutex_lock (&lock);
  while (!(queue_head == &self && fits (kib)))
    {
      if (cancel && atomic_load (cancel))
        {
          err = gpg_error (GPG_ERR_CANCELED);
          break;
        }
      wait_a_little ();
    }
  dequeue (&self);
  if (!err)
    grant (kib);
  /* The next in the queue may fit now, or be first now. */
  pthread_cond_broadcast (&changed);
  pthread_mutex_unlock (&lock);
  if (waiting)
    waiting (arg, 0);
  return err;
}

void
pl_kdf_memory_give (uint64_t kib)
{
  pthread_mutex_lock (&lock);
  stats.in_use_kib -= kib <= stats.in_use_kib ? kib : stats.in_use_kib;
  pthread_cond_broadcast (&changed);
  pthread_mutex_unlock (&lock);
}

void
pl_kdf_memory_get_stats (pl_kdf_memory_stats *out)
{
  pthread_mutex_lock (&lock);
  *out = stats;
  pthread_mutex_unlock (&lock);
}
