/* keyroom.c - the passphrases' key packets, made beside the data */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include "keyroom.h"
#include "keys.h"
#include "condwait.h"

#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

struct pl_key_room
{
  const pl_encrypt_options *o;
  const pl_job_control *job;    /* the job's, for its callbacks */
  pl_job_control ctl;           /* the thread's */
  const uint8_t *session_key;
  size_t keylen;
  uint64_t off;
  uint8_t *packets;             /* LEN octets: SKESKs, nothing secret */
  size_t len, used;             /* USED: the thread's until DONE */
  atomic_int cancel;
  atomic_int deriving;          /* the thread's last deriving state */
  pthread_mutex_t lock;
  pthread_cond_t cond;
  int done;                     /* under LOCK, with ERR */
  gpg_error_t err;
  pthread_t thread;
  int running;                  /* started and not joined */
};

/* The thread's deriving states, kept for the job's thread to tell. */
static void
keep_deriving (void *arg, int deriving)
{
  pl_key_room *r = arg;
  atomic_store (&r->deriving, deriving);
}

static gpg_error_t
collect (void *arg, const uint8_t *p, size_t n)
{
  pl_key_room *r = arg;

  if (n > r->len - r->used)
    return gpg_error (GPG_ERR_BUG);
  memcpy (r->packets + r->used, p, n);
  r->used += n;
  return 0;
}

static void *
room_main (void *arg)
{
  pl_key_room *r = arg;
  gpg_error_t err = pl_keys_lock_passphrases (r->o, &r->ctl, r->session_key,
                                              r->keylen, collect, r);

  pthread_mutex_lock (&r->lock);
  r->err = err;
  r->done = 1;
  pthread_cond_broadcast (&r->cond);
  pthread_mutex_unlock (&r->lock);
  return NULL;
}

pl_key_room *
pl_key_room_start (const pl_encrypt_options *o, const pl_job_control *ctl,
                   const uint8_t *session_key, size_t keylen, uint64_t off,
                   size_t len)
{
  pl_key_room *r = calloc (1, sizeof *r);

  if (!r || !(r->packets = malloc (len ? len : 1)))
    {
      free (r);
      return NULL;
    }
  r->o = o;
  r->job = ctl;
  r->session_key = session_key;
  r->keylen = keylen;
  r->off = off;
  r->len = len;
  atomic_init (&r->cancel, 0);
  atomic_init (&r->deriving, 0);
  r->ctl.cancel = &r->cancel;
  r->ctl.threads = pl_job_threads (ctl);
  r->ctl.deriving = keep_deriving;
  r->ctl.user_data = r;
  pthread_mutex_init (&r->lock, NULL);
  pthread_cond_init (&r->cond, NULL);
  if (pthread_create (&r->thread, NULL, room_main, r))
    {
      pl_key_room_free (r);
      return NULL;
    }
  r->running = 1;
  pthread_setname_np (r->thread, "pl-keyroom");
  return r;
}

/* Waits for the thread; 0, or GPG_ERR_CANCELED once the job's cancel
 * stopped it.  A thread not done yet is deriving, or about to: the job
 * says so, and relays the thread's waits for memory. */
static gpg_error_t
room_wait (pl_key_room *r)
{
  int told = 0, stopped = 0;

  pthread_mutex_lock (&r->lock);
  if (!r->done)
    {
      pthread_mutex_unlock (&r->lock);
      pl_job_deriving (r->job, PL_DERIVING);
      told = PL_DERIVING;
      pthread_mutex_lock (&r->lock);
    }
  while (!r->done)
    {
      int now = atomic_load (&r->deriving) == PL_DERIVING_WAITING_FOR_MEMORY
                ? PL_DERIVING_WAITING_FOR_MEMORY : PL_DERIVING;

      if (!stopped && pl_job_check_cancel (r->job))
        {
          atomic_store (&r->cancel, 1);
          stopped = 1;
        }
      if (now != told && !stopped)
        {
          pthread_mutex_unlock (&r->lock);
          pl_job_deriving (r->job, now);
          told = now;
          pthread_mutex_lock (&r->lock);
          continue;
        }
      pl_cond_wait_ns (&r->cond, &r->lock, 10 * 1000 * 1000);
    }
  pthread_mutex_unlock (&r->lock);
  if (told)
    pl_job_deriving (r->job, 0);
  return stopped ? gpg_error (GPG_ERR_CANCELED) : 0;
}

gpg_error_t
pl_key_room_finish (pl_key_room *r, pl_sink *sink)
{
  gpg_error_t err = room_wait (r);

  pthread_join (r->thread, NULL);
  r->running = 0;
  if (!err)
    err = r->err;
  if (!err && r->used != r->len)
    err = gpg_error (GPG_ERR_BUG);
  if (!err)
    err = sink->write_at (sink, r->off, r->packets, r->len);
  return err;
}

void
pl_key_room_free (pl_key_room *r)
{
  if (!r)
    return;
  if (r->running)
    {
      atomic_store (&r->cancel, 1);
      pthread_join (r->thread, NULL);
    }
  pthread_cond_destroy (&r->cond);
  pthread_mutex_destroy (&r->lock);
  free (r->packets);
  free (r);
}
