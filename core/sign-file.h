/* sign-file.h - a detached signature over a file's octets
 *
 * What `gpg --detach-sign` writes: one signature packet (RFC 9580
 * §5.2), binary (0x00) over the octets as they are, v4 for a v4 key and
 * v6 (salted) for a v6 key (sign.h), alone in its file, or armored as
 * "PGP SIGNATURE" (no CRC beside a v6 signature, §6.2).  The data is
 * read in PL_BLOCK_SIZE blocks (in place when the source lends them)
 * into the one hash context of the signature: a detached signature runs
 * at the hash's speed.  A signer held elsewhere (seckey.h's sign
 * callback: gpg-agent's PKSIGN, its pinentry) is asked once, after the
 * last octet.
 */
#pragma once

#include <stdint.h>
#include <gpg-error.h>

#include "io.h"
#include "job.h"
#include "seckey.h"

/* Signs the octets of SRC with SIGNER, made at CREATED, into SINK,
 * ARMOR for the armored form.  Progress and cancel as CTL says (may be
 * NULL).  SINK is committed when the signature is whole, and aborted on
 * any failure (the signer's refusal, GPG_ERR_CANCELED, a read error,
 * SRC's check): nothing is left of a signature that was not made.  An
 * algorithm pl_sig_can_make refuses: GPG_ERR_PUBKEY_ALGO, before
 * reading. */
gpg_error_t pl_sign_detached (pl_source *src, pl_sink *sink,
                              const pl_seckey *signer, int armor,
                              uint32_t created, const pl_job_control *ctl);
