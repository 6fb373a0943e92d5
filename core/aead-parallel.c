/* aead-parallel.c - AEAD chunks sealed and opened on several threads
 *
 * Chunk K goes to thread K mod N: thread 0 is the caller's, which seals
 * or opens its chunks as soon as they are gathered; the others are
 * workers (worker.h), one task at a time each.  Chunks live in a ring of
 * N + 1 slots, chunk K in slot K mod (N + 1), and come out in order
 * (N + K slots with K kept, below).
 *
 * A slot is reused only when the writer is done with what it handed out
 * (pipeline.h: a writer reads a block until the next write returns): the
 * chunk handed out last stays valid until the call after the one that
 * hands out the next, so gathering chunk G may begin only once chunk
 * G - (N + 1) + 1 was handed out in an earlier call.  That leaves N
 * chunks between the last handed out and the one being gathered: one
 * for each thread.  With K chunks kept (pl_aead_parallel_keep) the ring
 * has N + K slots and chunk G waits for chunk G - (N + K) + K.
 *
 * Gathering.  A chunk whose input lies in one run of stable input
 * (borrowed from memory) is read in place, out of place into the slot;
 * any other input is copied into the slot and worked on in place.  The
 * first octets that do not continue the run turn the chunk into a copy.
 *
 * A chunk handed to a worker is not the worker's for good: whichever
 * thread claims it first seals or opens it.  The caller, once it must
 * have the chunk and the worker has not begun it (not scheduled, on a
 * machine whose other core is taken), does it itself; and it does the
 * worker's next chunk too while the worker has not yet got round to
 * skipping the last.  So a second thread that gets no core costs a
 * handover, never a wait.  A claim names the chunk (CLAIM below), so a
 * late task never takes the next chunk gathered into the same slot.
 *
 * Adapting to a busy machine.  When the machine's cores are all taken
 * (several jobs at once), the worker gets a core late: the caller keeps
 * taking its chunks back, or waits for a chunk the worker began and then
 * lost its core in the middle of.  Each costs a handover and two
 * wake-ups for nothing, or a wait, and two threads ran slower than one
 * (bench/README.md).  So every chunk given to a worker is scored
 * when it comes out: a miss when the caller took it back, found the
 * worker still busy at dispatch, or waited for it longer than half the
 * time the caller takes for a chunk of its own; a hit otherwise.  After
 * MISS_LIMIT misses in a row the caller does every chunk itself for a
 * spell (SOLO_FIRST chunks, doubling after each spell that ends in
 * misses again, up to SOLO_MAX; a hit starts over at SOLO_FIRST), then
 * tries the workers again.  Which thread does a chunk changes nothing
 * else: the slots, the order and the claims are the same.
 *
 * Framing when decrypting is aead.c's: a chunk is known to be full only
 * once a final tag's worth of octets follows its tag, and a stream ends
 * with a lone final tag or a short (maybe empty) chunk, its tag and the
 * final tag.  Octets gathered beyond a full chunk's tag (fewer than a
 * tag's worth, from pushes that ended there) carry over to the next.
 */
#include "aead-parallel.h"
#include "buffers.h"

#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "algo.h"
#include "worker.h"

#define TAG_LEN 16

/* See "Adapting" above. */
#define MISS_LIMIT 2
#define SOLO_FIRST 8
#define SOLO_MAX 256

typedef enum
{
  SLOT_FREE = 0,
  SLOT_GATHERING,
  SLOT_RUNNING,                 /* on a worker */
  SLOT_DONE                     /* sealed or opened; ERR says how */
} slot_state;

typedef struct
{
  uint8_t *buf;                 /* chunk + 2 tags: the output; the input
                                 * too when copied */
  size_t dirty;                 /* how much of BUF was ever written */
  slot_state state;
  uint64_t index;
  const uint8_t *ext;           /* the input in place, or NULL: in BUF */
  size_t len;                   /* input octets gathered */
  size_t out_len;               /* octets to hand out */
  size_t data_len;              /* the chunk's data octets */
  uint8_t tag[TAG_LEN];         /* decryption: the chunk's tag */
  int thread;                   /* 0: the caller's */
  /* 2 K + 2: chunk K waits for a thread; 2 K + 3: a thread has it;
   * 0 while gathering. */
  atomic_uint_fast64_t claim;
  gpg_error_t err;
} slot;

static inline uint_fast64_t
unclaimed (uint64_t index)
{
  return 2 * index + 2;
}

/* 1 when this thread won chunk INDEX of SL. */
static inline int
claim_chunk (slot *sl, uint64_t index)
{
  uint_fast64_t expect = unclaimed (index);

  return atomic_compare_exchange_strong (&sl->claim, &expect, expect + 1);
}

static double
now_s (void)
{
  struct timespec ts;

  clock_gettime (CLOCK_MONOTONIC, &ts);
  return (double) ts.tv_sec + ts.tv_nsec / 1e9;
}

typedef struct
{
  pl_worker worker;
  gcry_cipher_hd_t hd;
  struct pl_aead_parallel *par;
  uint64_t task_index;          /* the chunk of the task queued last */
} par_thread;

struct pl_aead_parallel
{
  pl_aead_stream *s;
  int threads;                  /* < 2: every call goes to S */
  int encrypt;
  size_t chunk;
  gcry_cipher_hd_t hd;          /* the caller's thread's */
  par_thread thr[PL_AEAD_PARALLEL_MAX_THREADS]; /* 1 .. THREADS - 1 */
  int nslots;                   /* THREADS + KEPT */
  int kept;                     /* chunks handed out that stay valid */
  slot slots[PL_AEAD_PARALLEL_MAX_THREADS + PL_AEAD_PARALLEL_KEPT_MAX];
  uint64_t next;                /* the chunk being gathered */
  uint64_t handed;              /* chunks handed out */
  uint64_t total;               /* data octets of the chunks before NEXT */
  uint8_t carry[TAG_LEN];       /* decryption: the next chunk's first
                                 * octets, gathered with the last */
  size_t carry_len;
  uint8_t final_tag[TAG_LEN];   /* encryption: handed out last */
  int final_pending;
  int ending;                   /* the last chunk and final tag are done */
  int finished;                 /* pass-through: S finished */
  gpg_error_t err;              /* sticky */
  /* Adapting (see the top). */
  pl_spells spells;             /* worker chunks scored */
  uint64_t solo_until;          /* chunks before this stay on the caller */
  double caller_chunk_s;        /* the caller's time for its last chunk */
  pl_aead_parallel_stats stats;
};



int
pl_aead_parallel_threads (const pl_aead_stream *s, int budget,
                          int read_in_place)
{
  if (pl_aead_stream_chunk_size (s) < PL_AEAD_PARALLEL_MIN_CHUNK
      || !read_in_place || budget < 1)
    return 1;
  return budget > PL_AEAD_PARALLEL_MAX_THREADS ? PL_AEAD_PARALLEL_MAX_THREADS
                                               : budget;
}


static gpg_error_t
crypt_slot (const pl_aead_parallel *p, gcry_cipher_hd_t hd, slot *sl)
{
  /* EXT NULL: in place in BUF. */
  if (p->encrypt)
    return pl_aead_chunk_crypt (p->s, hd, sl->index, sl->buf, sl->ext,
                                sl->data_len, NULL, sl->buf + sl->data_len);
  return pl_aead_chunk_crypt (p->s, hd, sl->index, sl->buf, sl->ext,
                              sl->data_len, sl->tag, NULL);
}

/* A worker's task: the slot whose buffer is P (N octets of it, so that
 * pl_worker_reading tells when the worker is done with it).  The result
 * goes to the slot, to be reported when the chunk's turn to come out
 * comes, so the task itself never fails. */
static gpg_error_t
run_task (void *arg, const uint8_t *p, size_t n)
{
  par_thread *t = arg;
  slot *sl = t->par->slots;

  (void) n;
  while (sl->buf != p)
    sl++;
  /* Not claimed by the caller meanwhile: the slot still holds the
   * chunk, and no one else touches it until this returns. */
  if (claim_chunk (sl, t->task_index))
    sl->err = crypt_slot (t->par, t->hd, sl);
  return 0;
}


gpg_error_t
pl_aead_parallel_new (pl_aead_parallel **out, pl_aead_stream *s, int threads)
{
  pl_aead_parallel *p = calloc (1, sizeof *p);
  gpg_error_t err = 0;

  *out = NULL;
  if (!p)
    return gpg_error_from_syserror ();
  p->s = s;
  p->encrypt = pl_aead_stream_encrypting (s);
  p->chunk = pl_aead_stream_chunk_size (s);
  p->threads = threads > PL_AEAD_PARALLEL_MAX_THREADS
               ? PL_AEAD_PARALLEL_MAX_THREADS : threads;
  if (p->threads >= 2)
    {
      p->kept = 1;
      p->nslots = p->threads + p->kept;
      for (int i = 0; i < p->nslots && !err; i++)
        if (!(p->slots[i].buf = pl_buffer_take (p->chunk + 2 * TAG_LEN)))
          err = gpg_error_from_syserror ();
      if (!err)
        err = pl_aead_stream_open_handle (s, &p->hd);
    }
  if (err)
    {
      pl_aead_parallel_free (p);
      return err;
    }
  *out = p;
  return 0;
}


int
pl_aead_parallel_keep (pl_aead_parallel *p, int kept)
{
  if (p->threads < 2 || p->next || p->handed)
    return p->threads < 2 ? 1 : p->kept;
  if (kept > PL_AEAD_PARALLEL_KEPT_MAX)
    kept = PL_AEAD_PARALLEL_KEPT_MAX;
  while (p->kept < kept)
    {
      slot *sl = &p->slots[p->nslots];

      if (!(sl->buf = pl_buffer_take (p->chunk + 2 * TAG_LEN)))
        break;
      p->nslots++;
      p->kept++;
    }
  return p->kept;
}

/* Marks the stage failed: nothing more comes out.  Every slot but the
 * KEPT handed out last (verified, and maybe still being written) is
 * wiped, once no worker writes into it any more. */
static gpg_error_t
fail (pl_aead_parallel *p, gpg_error_t err)
{
  for (int t = 1; t < p->threads; t++)
    pl_worker_wait (&p->thr[t].worker);
  for (int i = 0; i < p->nslots; i++)
    {
      slot *sl = &p->slots[i];

      if (!(sl->state == SLOT_FREE && sl->index < p->handed
            && sl->index + (uint64_t) p->kept >= p->handed))
        pl_wipe (sl->buf, sl->dirty);
      sl->state = SLOT_FREE;
    }
  pl_wipe (p->carry, sizeof p->carry);
  p->carry_len = 0;
  p->err = err;
  return err;
}

static void
mark_dirty (slot *sl, size_t end)
{
  if (end > sl->dirty)
    sl->dirty = end;
}

/* Adds N octets of IN to the chunk SL gathers: in place while they
 * continue a run of stable input, else copied. */
static void
slot_append (slot *sl, const uint8_t *in, size_t n, int stable)
{
  if (!n)
    return;
  if (stable && (!sl->len || (sl->ext && sl->ext + sl->len == in)))
    {
      if (!sl->len)
        sl->ext = in;
      sl->len += n;
      return;
    }
  if (sl->ext)
    {
      memcpy (sl->buf, sl->ext, sl->len);
      sl->ext = NULL;
    }
  memcpy (sl->buf + sl->len, in, n);
  sl->len += n;
  mark_dirty (sl, sl->len);
}

static slot *
gathering_slot (pl_aead_parallel *p)
{
  return &p->slots[p->next % (uint64_t) p->nslots];
}

/* The next chunk to come out, once it was dispatched; else NULL. */
static slot *
oldest (pl_aead_parallel *p)
{
  if (p->handed == p->next)
    return NULL;
  return &p->slots[p->handed % (uint64_t) p->nslots];
}

/* 1 when chunk NEXT may be gathered: its slot gathers it already, or the
 * chunk that had the slot is no longer read by anyone (see the top). */
static int
can_gather (pl_aead_parallel *p)
{
  if (gathering_slot (p)->state == SLOT_GATHERING)
    return 1;
  return p->next + 1 + (uint64_t) p->kept <= p->handed + (uint64_t) p->nslots;
}

static void
slot_begin (pl_aead_parallel *p, slot *sl)
{
  atomic_store (&sl->claim, 0);
  sl->state = SLOT_GATHERING;
  sl->index = p->next;
  sl->ext = NULL;
  sl->len = 0;
  sl->err = 0;
  slot_append (sl, p->carry, p->carry_len, 0);
  p->carry_len = 0;
}

/* Seals or opens SL on the caller's thread, and times a full chunk for
 * scoring the workers' (see "Adapting" at the top). */
static gpg_error_t
crypt_on_caller (pl_aead_parallel *p, slot *sl)
{
  double t0 = now_s ();
  gpg_error_t err = crypt_slot (p, p->hd, sl);

  if (sl->data_len == p->chunk)
    p->caller_chunk_s = now_s () - t0;
  p->stats.on_caller++;
  return err;
}

/* Scores a chunk given to a worker, as it comes out: HIT 0 for a miss.
 * MISS_LIMIT misses in a row start a spell on the caller's thread. */
static void
score (pl_aead_parallel *p, int hit)
{
  uint64_t spell = pl_spells_score (&p->spells, hit, MISS_LIMIT, SOLO_FIRST,
                                    SOLO_MAX);

  if (!hit)
    p->stats.misses++;
  if (spell)
    pl_aead_parallel_solo (p, spell);
}

/* Seals or opens the gathered chunk, its first DATA_LEN octets: now on
 * the caller's thread, or handed to its worker. */
static gpg_error_t
dispatch (pl_aead_parallel *p, slot *sl, size_t data_len)
{
  int t = (int) (sl->index % (uint64_t) p->threads);
  par_thread *th = &p->thr[t];
  gpg_error_t err;

  sl->data_len = data_len;
  sl->out_len = data_len + (p->encrypt ? TAG_LEN : 0);
  if (!p->encrypt)
    memcpy (sl->tag, (sl->ext ? sl->ext : sl->buf) + data_len, TAG_LEN);
  /* Before the worker writes, so that the caller alone keeps DIRTY. */
  mark_dirty (sl, data_len + TAG_LEN);
  p->total += data_len;
  p->next++;
  /* A spell on the caller's thread alone (see "Adapting" at the top);
   * or a worker still busy (with a task for a chunk the caller claimed,
   * which it has not got round to skipping), which would make the submit
   * wait: the caller does the chunk instead. */
  if (t && (sl->index < p->solo_until || pl_worker_busy (&th->worker)))
    t = 0;
  sl->thread = t;
  if (t == 0)
    {
      atomic_store (&sl->claim, unclaimed (sl->index) + 1);
      sl->err = crypt_on_caller (p, sl);
      sl->state = SLOT_DONE;
      return 0;
    }
  if (!pl_worker_running (&th->worker))
    {
      th->par = p;
      err = pl_aead_stream_open_handle (p->s, &th->hd);
      if (!err)
        err = pl_worker_start (&th->worker, run_task, th);
      if (err)
        return err;
      pl_worker_name (&th->worker, "pl-aead");
    }
  sl->state = SLOT_RUNNING;
  atomic_store (&sl->claim, unclaimed (sl->index));
  /* Not busy: no task reads TASK_INDEX until this submit. */
  th->task_index = sl->index;
  err = pl_worker_submit (&th->worker, sl->buf, sl->data_len + TAG_LEN);
  if (err)
    sl->state = SLOT_DONE;
  return err;
}

/* Takes up to LEN octets of IN into chunk NEXT, *USED of them, and
 * dispatches the chunk once it is complete. */
static gpg_error_t
gather (pl_aead_parallel *p, const uint8_t *in, size_t len, int stable,
        size_t *used)
{
  slot *sl = gathering_slot (p);
  const size_t c = p->chunk;
  size_t take;

  if (sl->state != SLOT_GATHERING)
    slot_begin (p, sl);
  if (p->encrypt)
    {
      take = c - sl->len < len ? c - sl->len : len;
      slot_append (sl, in, take, stable);
      *used = take;
      return sl->len == c ? dispatch (p, sl, c) : 0;
    }
  if (sl->len + len < c + 2 * TAG_LEN)
    {
      /* Not yet known to be a full chunk. */
      slot_append (sl, in, len, stable);
      *used = len;
      return 0;
    }
  /* Full: take it up to its tag; the caller keeps the rest. */
  take = sl->len < c + TAG_LEN ? c + TAG_LEN - sl->len : 0;
  slot_append (sl, in, take, stable);
  *used = take;
  if (sl->len > c + TAG_LEN)
    {
      p->carry_len = sl->len - (c + TAG_LEN);
      memcpy (p->carry, (sl->ext ? sl->ext : sl->buf) + c + TAG_LEN,
              p->carry_len);
      sl->len = c + TAG_LEN;
    }
  return dispatch (p, sl, c);
}

/* 1 when SL (dispatched) is sealed or opened; with WAIT, once it is. */
static int
slot_ready (pl_aead_parallel *p, slot *sl, int wait)
{
  if (sl->state == SLOT_RUNNING)
    {
      pl_worker *w = &p->thr[sl->thread].worker;

      if (wait && claim_chunk (sl, sl->index))
        {
          /* The worker has not begun it: no waiting for it. */
          sl->err = crypt_on_caller (p, sl);
          score (p, 0);
        }
      else if (wait)
        {
          /* The worker's task after this slot's is never queued before
           * this chunk came out (see can_gather), so waiting for the
           * worker waits for this chunk. */
          double t0 = now_s ();

          pl_worker_wait (w);
          p->stats.on_workers++;
          score (p, now_s () - t0 <= p->caller_chunk_s / 2);
        }
      else if (pl_worker_reading (w, sl->buf, 1))
        return 0;
      else
        {
          p->stats.on_workers++;
          score (p, 1);
        }
      sl->state = SLOT_DONE;
    }
  return sl->state == SLOT_DONE;
}

static gpg_error_t
hand_out (pl_aead_parallel *p, slot *sl, const uint8_t **out, size_t *outlen)
{
  if (sl->err)
    return fail (p, sl->err);
  sl->state = SLOT_FREE;
  p->handed++;
  *out = sl->buf;
  *outlen = sl->out_len;
  return 0;
}


gpg_error_t
pl_aead_parallel_push (pl_aead_parallel *p, const uint8_t *in, size_t len,
                       int stable, size_t *consumed, const uint8_t **out,
                       size_t *outlen)
{
  *consumed = 0;
  *out = NULL;
  *outlen = 0;
  if (p->threads < 2)
    return pl_aead_stream_push (p->s, in, len, consumed, out, outlen);
  if (p->err)
    return p->err;
  if (p->ending)
    return gpg_error (GPG_ERR_INV_STATE);
  for (;;)
    {
      slot *old = oldest (p);
      gpg_error_t err;
      size_t used;

      if (old && slot_ready (p, old, 0))
        return hand_out (p, old, out, outlen);
      if (*consumed == len)
        return 0;
      if (can_gather (p))
        {
          err = gather (p, in + *consumed, len - *consumed, stable, &used);
          *consumed += used;
          if (err)
            return fail (p, err);
          continue;
        }
      /* Every slot is taken: the oldest chunk must come out first. */
      if (!old)
        return fail (p, gpg_error (GPG_ERR_BUG));
      slot_ready (p, old, 1);
      return hand_out (p, old, out, outlen);
    }
}


/* Encryption's end: the last, short chunk (or chunk #0 of an empty
 * message; nothing after a full chunk, as aead.c writes it), then the
 * final tag, which depends on no chunk's result. */
static gpg_error_t
end_encrypt (pl_aead_parallel *p)
{
  slot *sl = gathering_slot (p);
  gpg_error_t err = 0;

  if (sl->state == SLOT_GATHERING || !p->next)
    {
      if (sl->state != SLOT_GATHERING)
        slot_begin (p, sl);
      err = dispatch (p, sl, sl->len);
    }
  if (!err)
    err = pl_aead_final_tag (p->s, p->hd, p->next, p->total, NULL,
                             p->final_tag);
  p->final_pending = !err;
  return err;
}

/* Decryption's end: what is left is a lone final tag, or a last chunk
 * of fewer than C octets (maybe none), its tag and the final tag.  The
 * final tag is checked here, before any chunk still pending comes out. */
static gpg_error_t
end_decrypt (pl_aead_parallel *p)
{
  slot *sl = gathering_slot (p);
  uint8_t final_tag[TAG_LEN];
  const uint8_t *src;
  size_t last;
  gpg_error_t err;

  if (sl->state != SLOT_GATHERING)
    slot_begin (p, sl);
  src = sl->ext ? sl->ext : sl->buf;
  if (sl->len == TAG_LEN)
    {
      sl->state = SLOT_FREE;
      return pl_aead_final_tag (p->s, p->hd, p->next, p->total, src, NULL);
    }
  if (sl->len < 2 * TAG_LEN)
    return gpg_error (GPG_ERR_TRUNCATED);
  last = sl->len - 2 * TAG_LEN;
  memcpy (final_tag, src + last + TAG_LEN, TAG_LEN);
  err = dispatch (p, sl, last);
  if (!err)
    err = pl_aead_final_tag (p->s, p->hd, p->next, p->total, final_tag,
                             NULL);
  return err;
}


gpg_error_t
pl_aead_parallel_finish (pl_aead_parallel *p, const uint8_t **out,
                         size_t *outlen)
{
  slot *old;
  gpg_error_t err;

  *out = NULL;
  *outlen = 0;
  if (p->threads < 2)
    {
      if (p->finished)
        return 0;
      err = pl_aead_stream_finish (p->s, out, outlen);
      p->finished = !err;
      return err;
    }
  if (p->err)
    return p->err;
  old = oldest (p);
  if (!p->ending)
    {
      if (!can_gather (p))
        {
          /* The end needs a slot: the oldest chunk comes out first. */
          slot_ready (p, old, 1);
          return hand_out (p, old, out, outlen);
        }
      err = p->encrypt ? end_encrypt (p) : end_decrypt (p);
      if (err)
        return fail (p, err);
      p->ending = 1;
      old = oldest (p);
    }
  if (old)
    {
      slot_ready (p, old, 1);
      return hand_out (p, old, out, outlen);
    }
  if (p->final_pending)
    {
      p->final_pending = 0;
      *out = p->final_tag;
      *outlen = TAG_LEN;
    }
  return 0;
}


void
pl_aead_parallel_solo (pl_aead_parallel *p, uint64_t nchunks)
{
  if (p->threads < 2)
    return;
  if (p->next + nchunks > p->solo_until)
    p->solo_until = p->next + nchunks;
  p->stats.spells++;
}

void
pl_aead_parallel_get_stats (const pl_aead_parallel *p,
                            pl_aead_parallel_stats *stats)
{
  *stats = p->stats;
}


void
pl_aead_parallel_free (pl_aead_parallel *p)
{
  if (!p)
    return;
  /* First the workers, which may still write into a slot. */
  for (int t = 1; t < p->threads; t++)
    {
      pl_worker_stop (&p->thr[t].worker);
      gcry_cipher_close (p->thr[t].hd);
    }
  gcry_cipher_close (p->hd);
  for (int i = 0; i < p->nslots; i++)
    if (p->slots[i].buf)
      {
        pl_buffer_give (p->slots[i].buf, p->chunk + 2 * TAG_LEN,
                        p->slots[i].dirty);
      }
  pl_wipe (p, sizeof *p);
  free (p);
}
