/* detached.c - a detached signature checked over its data (detached.h) */
#include "detached.h"
#include "pipeline.h"

#include <string.h>

gpg_error_t
pl_detached_init (pl_detached *d, const uint8_t *sigs, size_t sigs_len,
                  const pl_cert *const *certs, size_t n_certs,
                  pl_cert_lookup_fn find_cert, void *find_cert_data)
{
  gpg_error_t err;

  memset (d, 0, sizeof *d);
  pl_verifier_init (&d->v, certs, n_certs);
  /* Without a lookup, a signer none of CERTS holds is not hashed. */
  d->v.certs_final = !find_cert;
  d->find_cert = find_cert;
  d->find_cert_data = find_cert_data;
  err = pl_verifier_read_detached (&d->v, sigs, sigs_len);
  pl_verifier_data_begin (&d->v);
  return err;
}

void
pl_detached_push (pl_detached *d, const uint8_t *p, size_t n)
{
  pl_verifier_push (&d->v, p, n);
}

void
pl_detached_finish (pl_detached *d, uint32_t now, pl_verifications *out)
{
  if (d->find_cert)
    pl_verifier_lookup (&d->v, d->find_cert, d->find_cert_data, d->found);
  pl_verifier_finish (&d->v, now, out);
}

void
pl_detached_clear (pl_detached *d)
{
  pl_verifier_clear (&d->v);
}

typedef struct
{
  pl_source *src;
  const pl_job_control *ctl;
} detached_feed;

/* The read-ahead's fill, on its thread: the cancel flag, then a block. */
static gpg_error_t
fill_block (void *arg, uint8_t *buf, size_t want, size_t *len)
{
  detached_feed *f = arg;
  gpg_error_t err = pl_job_check_cancel (f->ctl);

  *len = 0;
  return err ? err : pl_source_read_full (f->src, buf, want, len);
}

/* fill_block for a source in memory: lent in place. */
static gpg_error_t
borrow_block (void *arg, size_t want, const uint8_t **p, size_t *len)
{
  detached_feed *f = arg;
  gpg_error_t err = pl_job_check_cancel (f->ctl);

  *len = 0;
  return err ? err : f->src->borrow (f->src, want, p, len);
}

/* Every block of SRC into D, with progress and the cancel flag. */
static gpg_error_t
hash_all (pl_detached *d, pl_source *src, const pl_job_control *ctl)
{
  detached_feed feed = { src, ctl };
  int threaded = pl_job_threads (ctl) > 1
                 && (src->size < 0 || src->size > (int64_t) PL_BLOCK_SIZE);
  pl_read_ahead ra;
  uint64_t done = 0;
  gpg_error_t err = 0;

  memset (&ra, 0, sizeof ra);
  /* A block of a MiB: a handover per block costs nothing beside its
   * hash, and progress comes often enough. */
  if (src->borrow)
    pl_read_ahead_init_borrowing (&ra, borrow_block, &feed, PL_BLOCK_SIZE);
  else
    err = pl_read_ahead_init (&ra, fill_block, &feed, PL_BLOCK_SIZE,
                              threaded);
  while (!err)
    {
      uint8_t *block;
      size_t n;

      err = pl_read_ahead_next (&ra, &block, &n);
      if (err || !n)
        break;
      pl_detached_push (d, block, n);
      done += n;
      pl_job_progress (ctl, done, src->size);
      err = pl_job_check_cancel (ctl);
    }
  pl_read_ahead_clear (&ra);
  return err;
}

gpg_error_t
pl_detached_run (const uint8_t *sigs, size_t sigs_len, pl_source *src,
                 const pl_cert *const *certs, size_t n_certs,
                 pl_cert_lookup_fn find_cert, void *find_cert_data,
                 uint32_t now, pl_verifications *out,
                 const pl_job_control *ctl)
{
  pl_detached d;
  gpg_error_t err;

  memset (out, 0, sizeof *out);
  err = pl_detached_init (&d, sigs, sigs_len, certs, n_certs, find_cert,
                          find_cert_data);
  if (!err)
    err = hash_all (&d, src, ctl);
  if (!err)
    err = pl_source_check (src);
  if (!err)
    pl_detached_finish (&d, now, out);
  pl_detached_clear (&d);
  return err;
}
