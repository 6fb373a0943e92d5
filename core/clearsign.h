/* clearsign.h - the Cleartext Signature Framework (RFC 9580 §7)
 *
 *   -----BEGIN PGP SIGNED MESSAGE-----
 *   Hash: SHA512                       zero or more, v4 signatures only
 *                                      one empty line
 *   - -dash-escaped text               every line that starts with '-'
 *   -----BEGIN PGP SIGNATURE-----      the signatures, armored
 *   ...
 *   -----END PGP SIGNATURE-----
 *
 * What is signed (a text signature, 0x01): the lines between the empty
 * line and the signature's BEGIN line, dash-escapes undone, each without
 * its trailing spaces and tabs, joined by CR LF; the line ending before
 * the BEGIN line is not part of it.  A line ends at LF; a CR before it
 * belongs to the ending (so CR LF and LF messages verify alike).
 *
 * Reading is strict where a lax reader would let an attacker show text
 * that is not signed: the first line must be the header (trailing
 * whitespace aside); between it and the empty line only well-formed Hash
 * headers may stand (RFC 9580 §6.2.2.3: names of Table 23, comma
 * separated; their content is otherwise ignored, the signatures say
 * their hash); a line of the text that starts with '-' must be "- "
 * escaped (gpg refuses the rest as well).  Any of these wrong:
 * GPG_ERR_INV_ARMOR, and no signature is judged.  Only text signatures
 * count: another type is UNSUPPORTED.
 *
 * The whole message is in memory: its hash algorithms and salts are
 * known only at its end (§7.3), so it is read twice.  Callers bound its
 * size (PL_CLEARSIGN_MAX).
 */
#pragma once

#include <stddef.h>
#include <stdint.h>
#include <gpg-error.h>

#include "cert.h"
#include "io.h"
#include "job.h"
#include "seckey.h"
#include "verify.h"

#define PL_CLEARSIGN_HEADER "-----BEGIN PGP SIGNED MESSAGE-----"
/* The largest message (or text to sign) read whole for it: by
 * padlock-sop, and by the desktop's and padlock --batch's jobs
 * (pl_clearsign_verify_stream).  It is held twice at most (the message
 * and its text), so a job costs up to 512 MiB; a signed text is seldom
 * more than a few pages. */
#define PL_CLEARSIGN_MAX ((size_t) 256 << 20)

/* 1 when the LEN octets at BUF begin with the cleartext header line
 * (then LF or CR LF, or the buffer's end; trailing whitespace allowed);
 * else 0. */
int pl_clearsign_detect (const uint8_t *buf, size_t len);

/* Verifies the cleartext-signed message MSG (LEN octets) against CERTS
 * at NOW: a verdict per signature into *OUT (as pl_verify_detached).
 * When TEXT is not NULL, *TEXT (malloc'ed, *TEXT_LEN octets) receives
 * what was signed, with LF line ends and a final LF, as gpg and sqop
 * print it.  Not a cleartext message, or no signature block:
 * GPG_ERR_NO_DATA; malformed (above): GPG_ERR_INV_ARMOR. */
gpg_error_t pl_clearsign_verify (const uint8_t *msg, size_t len,
                                 const pl_cert *const *certs, size_t n_certs,
                                 uint32_t now, pl_verifications *out,
                                 uint8_t **text, size_t *text_len);

/* The rest of SRC into *BUF (malloc'ed, *LEN octets), at most MAX octets
 * (PL_CLEARSIGN_MAX for a message or a text to sign): one more is
 * PL_ERR_CLEARSIGN_TOO_LARGE (errors.h), and no more than a block past
 * MAX is read or held.  CTL (may be NULL): progress per block, and
 * GPG_ERR_CANCELED at once.  On an error *BUF is NULL. */
gpg_error_t pl_clearsign_read (pl_source *src, size_t max,
                               const pl_job_control *ctl, uint8_t **buf,
                               size_t *len);

/* A job's verification of the cleartext-signed message read from SRC
 * (pl_clearsign_read, PL_CLEARSIGN_MAX): the verdicts into *OUT as
 * pl_clearsign_verify gives them, against CERTS and, for the issuers
 * none of those holds, what FIND_CERT (may be NULL; pl_verifier_lookup)
 * finds; the signed text, as pl_clearsign_verify gives it (dash-escapes
 * undone, LF line ends and a final LF), into SINK, which is committed.
 * The verdicts do not stop the text (the caller shows them beside it,
 * as for a signed message): only a message that is none, malformed, too
 * large, cancelled or an I/O error fails, and then SINK is aborted. */
gpg_error_t pl_clearsign_verify_stream (pl_source *src, pl_sink *sink,
                                        const pl_cert *const *certs,
                                        size_t n_certs,
                                        pl_cert_lookup_fn find_cert,
                                        void *find_cert_data, uint32_t now,
                                        pl_verifications *out,
                                        const pl_job_control *ctl);

/* Splits the cleartext-signed message MSG (LEN octets), judging no
 * signature: *TEXT (malloc'ed, *TEXT_LEN octets; NULL when empty)
 * receives what was signed, lines joined by LF and no final one (so a
 * detached text signature verifies over it as it is), and *SIGS the
 * offset in MSG of the signature block's BEGIN line.  Errors as
 * pl_clearsign_verify. */
gpg_error_t pl_clearsign_split (const uint8_t *msg, size_t len,
                                uint8_t **text, size_t *text_len,
                                size_t *sigs);

/* Makes a cleartext-signed message of TEXT (LEN octets) by the N
 * SIGNERS at CREATED into *OUT (malloc'ed, *OUT_LEN octets): a Hash
 * header naming the v4 signatures' hashes (none for v6 only), the text
 * dash-escaped with trailing whitespace removed (what is shown is what
 * is signed) and LF line ends (one final line ending of TEXT is the one
 * before the signatures, as gpg --clearsign has it), then one text
 * signature each, armored. */
gpg_error_t pl_clearsign_make (const uint8_t *text, size_t len,
                               const pl_seckey *const *signers, size_t n,
                               uint32_t created, uint8_t **out,
                               size_t *out_len);
