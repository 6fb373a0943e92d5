/* detached.h - a detached signature checked over its data file, as a
 * job's stage (RFC 9580 §5.2.1 types 0x00, 0x01; `gpg --detach-sign`,
 * `sqop sign`)
 *
 * The signature packets are read first (binary, or armored "PGP
 * SIGNATURE" blocks), so that the verifier (verify.h) knows which
 * hashes the data needs; then the data is pushed as it comes, in any
 * pieces, and hashed once per hash that the signatures need (shared by
 * signatures of one kind); then the verdicts.  Nothing is written:
 * the data file is read, never changed.
 *
 * pl_detached_run drives the stage over a source as a job: progress
 * after each block, the cancel flag between blocks, and with a budget
 * of more than one core the reads on a read-ahead thread (pipeline.h)
 * so that the caller's thread does nothing but hash: a large file is
 * checked at the hash's one-core speed.  An input in memory (a mapped
 * file, mapsource.h) is borrowed in place, not copied.
 *
 * No GLib; errors are gpg_error_t.
 */
#pragma once

#include <stddef.h>
#include <stdint.h>
#include <gpg-error.h>

#include "io.h"
#include "job.h"
#include "verify.h"

typedef struct
{
  pl_verifier v;
  pl_cert_lookup_fn find_cert;
  void *find_cert_data;
  const pl_cert *found[PL_VERIFY_MAX];
} pl_detached;

/* Reads the signatures SIGS (SIGS_LEN octets, binary or armored; copied
 * as needed: SIGS may go after the call) to be checked against CERTS
 * (N_CERTS, which must outlive D) and, when FIND_CERT is not NULL, the
 * certificates it finds at finish (pl_verifier_lookup; FIND_CERT_DATA
 * its data).  Not one signature packet: GPG_ERR_NO_DATA; a packet that
 * is neither a signature nor skippable: GPG_ERR_BAD_DATA; armor and
 * framing errors as they are.  D must be cleared after, even on error. */
gpg_error_t pl_detached_init (pl_detached *d, const uint8_t *sigs,
                              size_t sigs_len, const pl_cert *const *certs,
                              size_t n_certs, pl_cert_lookup_fn find_cert,
                              void *find_cert_data);

/* N octets of the signed data, after those pushed before. */
void pl_detached_push (pl_detached *d, const uint8_t *p, size_t n);

/* The data ended: the verdicts at NOW into *OUT, every signature in the
 * order it was read (FIND_CERT asked first for the issuers CERTS lack). */
void pl_detached_finish (pl_detached *d, uint32_t now, pl_verifications *out);

/* Frees what D holds; safe after a failed init. */
void pl_detached_clear (pl_detached *d);

/* The stage over SRC, read to its end under CTL (may be NULL): progress
 * (done, SRC's size) after each block, GPG_ERR_CANCELED once the cancel
 * flag is set, read errors as they are, and SRC's check (a mapped file
 * that changed while read) before the verdicts go to *OUT.  The other
 * arguments as pl_detached_init's. */
gpg_error_t pl_detached_run (const uint8_t *sigs, size_t sigs_len,
                             pl_source *src, const pl_cert *const *certs,
                             size_t n_certs, pl_cert_lookup_fn find_cert,
                             void *find_cert_data, uint32_t now,
                             pl_verifications *out,
                             const pl_job_control *ctl);
