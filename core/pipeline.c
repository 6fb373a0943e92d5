/* pipeline.c - the read-ahead and the writer */
#include "pipeline.h"
#include "buffers.h"

#include <stdlib.h>
#include <string.h>

/* ---- The read-ahead ------------------------------------------------ */

/* The buffer P lies in: the fill task finds its slot by it. */
static int
buffer_index (const pl_read_ahead *ra, const uint8_t *p)
{
  for (int i = 0; i < ra->nbuf; i++)
    if (ra->buf[i] == p)
      return i;
  return -1;
}

/* On the thread, one fill at a time, in order.  Each writes only its
 * own buffer's slot, which next reads after pl_worker_wait_reading
 * (the worker's lock orders the two). */
static gpg_error_t
fill_task (void *arg, const uint8_t *p, size_t n)
{
  pl_read_ahead *ra = arg;
  int i = buffer_index (ra, p);
  gpg_error_t err = 0;

  ra->filled[i] = 0;
  /* The worker's buffer is ours to fill: the caller is done with it. */
  if (!ra->eof)
    err = ra->fill (ra->arg, (uint8_t *) p, n, &ra->filled[i]);
  if (!err && !ra->filled[i])
    ra->eof = 1;
  ra->fill_err[i] = err;
  return err;
}

gpg_error_t
pl_read_ahead_init_queue (pl_read_ahead *ra, pl_fill_fn fill, void *arg,
                          size_t size, int threaded, int nbuf)
{
  memset (ra, 0, sizeof *ra);
  ra->fill = fill;
  ra->arg = arg;
  ra->size = ra->want = ra->first_want = size;
  ra->nbuf = nbuf < 2 ? 2 : nbuf > PL_READ_AHEAD_BUFFERS
                                ? PL_READ_AHEAD_BUFFERS : nbuf;
  if (!threaded)
    ra->nbuf = 2;
  for (int i = 0; i < ra->nbuf; i++)
    if (!(ra->buf[i] = pl_buffer_take (size)))
      return gpg_error (GPG_ERR_ENOMEM);
  /* A thread that cannot start leaves the reading on the caller's. */
  ra->threaded = threaded
                 && !pl_worker_start_queue (&ra->worker, fill_task, ra,
                                            ra->nbuf - 1);
  pl_worker_name (&ra->worker, "pl-read");
  return 0;
}

gpg_error_t
pl_read_ahead_init (pl_read_ahead *ra, pl_fill_fn fill, void *arg,
                    size_t size, int threaded)
{
  return pl_read_ahead_init_queue (ra, fill, arg, size, threaded, 2);
}

void
pl_read_ahead_init_borrowing (pl_read_ahead *ra, pl_borrow_fn borrow,
                              void *arg, size_t size)
{
  memset (ra, 0, sizeof *ra);
  ra->borrow = borrow;
  ra->arg = arg;
  ra->size = ra->want = ra->first_want = size;
}

void
pl_read_ahead_set_first_want (pl_read_ahead *ra, size_t want)
{
  ra->first_want = want < ra->size ? want : ra->size;
}

void
pl_read_ahead_unread (pl_read_ahead *ra, const uint8_t *block, size_t len)
{
  ra->first = block;
  ra->first_len = len;
}

/* How much the next fill asks for. */
static size_t
next_want (pl_read_ahead *ra)
{
  size_t want = ra->first_want;

  ra->first_want = ra->want;
  return want;
}

/* Submits fills, in the order their blocks come, for every buffer but
 * the one the caller may hold (the one before buf[turn]): at most NBUF -
 * 1 are pending, the worker's depth, so no submit waits.  A submit
 * refused (an earlier fill failed) queues nothing: that fill's error
 * comes back at its own block, after the blocks before it. */
static gpg_error_t
top_up (pl_read_ahead *ra)
{
  while (ra->pending < ra->nbuf - 1)
    {
      int i = (ra->turn + ra->pending) % ra->nbuf;
      gpg_error_t err;

      ra->filled[i] = 0;
      ra->fill_err[i] = 0;
      err = pl_worker_submit (&ra->worker, ra->buf[i], next_want (ra));

      if (err)
        return err;
      ra->pending++;
    }
  return 0;
}

/* The block in buf[turn], once its fill ended. */
static gpg_error_t
take_filled (pl_read_ahead *ra, size_t *len)
{
  uint8_t *b = ra->buf[ra->turn];
  gpg_error_t err = ra->pending ? 0 : top_up (ra);

  if (err)
    return err;
  pl_worker_wait_reading (&ra->worker, b, ra->size);
  ra->pending--;
  /* A fill dropped after an earlier one failed never ran: that error
   * came back at the earlier block, and errors stop the read-ahead. */
  if (ra->fill_err[ra->turn])
    return ra->fill_err[ra->turn];
  *len = ra->filled[ra->turn];
  return 0;
}

gpg_error_t
pl_read_ahead_next (pl_read_ahead *ra, uint8_t **block, size_t *len)
{
  gpg_error_t err = 0;

  *len = 0;
  if (ra->err || ra->ended)
    return ra->err;
  if (ra->first)
    {
      *block = (uint8_t *) ra->first;
      *len = ra->first_len;
      ra->first = NULL;
    }
  else
    {
      if (ra->threaded)
        err = take_filled (ra, len);
      else if (ra->borrow)
        err = ra->borrow (ra->arg, next_want (ra),
                          (const uint8_t **) block, len);
      else
        err = ra->fill (ra->arg, ra->buf[ra->turn], next_want (ra), len);
      if (err)
        return ra->err = err;
      if (!ra->borrow)
        *block = ra->buf[ra->turn];
      ra->turn = (ra->turn + 1) % (ra->nbuf ? ra->nbuf : 2);
    }
  if (!*len)
    {
      ra->ended = 1;
      return 0;
    }
  /* Every other buffer held a block before this one, which the caller
   * is done with now that it asked for this one. */
  if (ra->threaded)
    top_up (ra);
  return 0;
}

void
pl_read_ahead_clear (pl_read_ahead *ra)
{
  pl_worker_stop (&ra->worker);
  /* What was read may be plaintext (an encryption's input). */
  for (int i = 0; i < PL_READ_AHEAD_BUFFERS; i++)
    pl_buffer_give (ra->buf[i], ra->size, ra->size);
  memset (ra, 0, sizeof *ra);
}

/* ---- The writer ---------------------------------------------------- */

static gpg_error_t
emit_task (void *arg, const uint8_t *p, size_t n)
{
  pl_writer *w = arg;
  return w->emit (w->arg, p, n);
}

void
pl_writer_init (pl_writer *w, pl_emit_fn emit, void *arg, size_t size,
                int threaded)
{
  *w = (pl_writer) { .emit = emit, .arg = arg, .size = size,
                     .allowed = threaded, .threaded = threaded };
}

void
pl_writer_set_threaded (pl_writer *w, int threaded)
{
  w->threaded = threaded && w->allowed;
}

/* A buffer neither held nor read by a write; -1 when there is none. */
static int
free_buffer (pl_writer *w)
{
  for (int i = 0; i < PL_WRITER_BUFFERS; i++)
    if (w->buf[i] && !w->held[i]
        && !pl_worker_reading (&w->worker, w->buf[i], w->size)
        && !(w->watch_reading
             && w->watch_reading (w->watch_arg, w->buf[i], w->size)))
      return i;
  for (int i = 0; i < PL_WRITER_BUFFERS; i++)
    if (!w->buf[i])
      {
        /* The pool grows to what the stages need, in the first blocks,
         * and stays: no allocation per block. */
        w->buf[i] = pl_buffer_take (w->size);
        return w->buf[i] ? i : -1;
      }
  return -1;
}

void
pl_writer_watch (pl_writer *w, pl_reading_fn reading, pl_unpin_fn unpin,
                 void *arg)
{
  w->watch_reading = reading;
  w->watch_unpin = unpin;
  w->watch_arg = arg;
}

/* A buffer that only the watcher keeps from being free; -1: none. */
static int
watched_buffer (pl_writer *w)
{
  for (int i = 0; w->watch_reading && i < PL_WRITER_BUFFERS; i++)
    if (w->buf[i] && !w->held[i]
        && !pl_worker_reading (&w->worker, w->buf[i], w->size))
      return i;
  return -1;
}

gpg_error_t
pl_writer_acquire (pl_writer *w, uint8_t **buf)
{
  int i = free_buffer (w);

  /* Every buffer is held, being written or being hashed: the hasher
   * lets go of one, or the oldest write ends. */
  while (i < 0)
    {
      int k = watched_buffer (w);

      if (k >= 0)
        w->watch_unpin (w->watch_arg, w->buf[k], w->size);
      else if (pl_worker_busy (&w->worker))
        pl_worker_wait_running (&w->worker, 0);
      else
        break;
      i = free_buffer (w);
    }
  if (i < 0)
    {
      gpg_error_t err = pl_worker_wait (&w->worker);
      if (err)
        return err;
      i = free_buffer (w);
    }
  if (i < 0)
    {
      for (int k = 0; k < PL_WRITER_BUFFERS; k++)
        if (!w->buf[k])
          return gpg_error (GPG_ERR_ENOMEM);
      return gpg_error (GPG_ERR_BUG);
    }
  w->held[i] = 1;
  *buf = w->buf[i];
  return 0;
}

void
pl_writer_release (pl_writer *w, uint8_t *buf)
{
  for (int i = 0; i < PL_WRITER_BUFFERS; i++)
    if (buf && w->buf[i] == buf)
      w->held[i] = 0;
}

void
pl_writer_set_foreign_depth (pl_writer *w, int depth)
{
  pl_worker_wait (&w->worker);
  w->foreign_depth = depth < 1 ? 1
                     : depth > PL_WRITER_FOREIGN_MAX ? PL_WRITER_FOREIGN_MAX
                                                     : depth;
  memset (w->recent, 0, sizeof w->recent);
  w->writes = 0;
}

int
pl_writer_owns (const pl_writer *w, const uint8_t *p, size_t n)
{
  for (int i = 0; i < PL_WRITER_BUFFERS; i++)
    if (w->buf[i] && p >= w->buf[i] && n <= w->size
        && (size_t) (p - w->buf[i]) <= w->size - n)
      return 1;
  return 0;
}

gpg_error_t
pl_writer_write (pl_writer *w, const uint8_t *p, size_t n)
{
  gpg_error_t err;

  if (w->threaded && n >= PL_WRITER_THREAD_MIN)
    {
      if (!pl_worker_running (&w->worker)
          && !pl_worker_start_queue (&w->worker, emit_task, w,
                                     PL_WRITER_DEPTH))
        pl_worker_name (&w->worker, "pl-writer");
      if (pl_worker_running (&w->worker))
        {
          int depth = w->foreign_depth ? w->foreign_depth : 1;
          pl_worker_task *t = &w->recent[w->writes++ % (unsigned) depth];

          /* The write from elsewhere DEPTH writes back is read until
           * this one returns. */
          if (t->n)
            pl_worker_wait_reading (&w->worker, t->p, t->n);
          *t = pl_writer_owns (w, p, n) ? (pl_worker_task) { NULL, 0 }
                                 : (pl_worker_task) { p, n };
          return pl_worker_submit (&w->worker, p, n);
        }
      w->threaded = w->allowed = 0;
    }
  /* After the thread's write, so that the order holds. */
  err = pl_worker_wait (&w->worker);
  if (!err && n)
    err = w->emit (w->arg, p, n);
  return err;
}

gpg_error_t
pl_writer_finish (pl_writer *w)
{
  return pl_worker_wait (&w->worker);
}

void
pl_writer_clear (pl_writer *w)
{
  pl_worker_stop (&w->worker);
  /* What was written may be plaintext (a decryption's output). */
  for (int i = 0; i < PL_WRITER_BUFFERS; i++)
    pl_buffer_give (w->buf[i], w->size, w->size);
  memset (w, 0, sizeof *w);
}
