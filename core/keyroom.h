/* keyroom.h - the passphrases' key packets, made beside the data
 *
 * An SKESK waits for its passphrase's derivation: the librepgp profile's
 * iterated S2K takes about 36 ms, the rfc9580 profile's Argon2 about
 * 100 ms (bench/RESULTS.md, kdf-clock).  The data does not: with a
 * random session key (SKESK v5 and v6, and v4 beside other openers or a
 * cache) only the SKESK needs the derived key.  So a job whose output is
 * binary and whose sink can write again (io.h's write_at) leaves the
 * SKESKs' room at their place, as zeros, encrypts the data while a key
 * room's thread derives and wraps, and fills the room in before commit.
 * The message is octet for octet the one made in line: the same packets
 * in the same order (keys.h, pl_keys_lock_begin).  A sink shows nothing
 * before commit (io.h), so no reader sees the zeros; an in-place
 * regular file (pl_sink_new_fd) shows its writes as they come, the
 * zeros too, and is cut back to its length on abort as before.
 *
 *  - pl_key_room_start starts the thread on pl_keys_lock_passphrases
 *    for O, wrapping SESSION_KEY (KEYLEN octets): O and SESSION_KEY
 *    must stay as they are until the room is freed.  LEN is the
 *    packets' length (pl_keys_lock_begin's *DEFERRED), OFF the sink
 *    octet where they go.  The thread runs under a control of its own:
 *    CTL's thread budget, the room's cancel flag, no progress.  NULL
 *    when no thread (or no memory) can be had: the caller then locks in
 *    line, as without a room.
 *  - pl_key_room_finish waits for the thread, on the job's thread (the
 *    one that may call CTL's callbacks).  When the thread is not done,
 *    it tells CTL's deriving PL_DERIVING, then the thread's waits for
 *    memory (PL_DERIVING_WAITING_FOR_MEMORY, and PL_DERIVING after
 *    each), and 0 when the wait ends; when the thread is done already,
 *    nothing: only a wait is time that is not data time.  A cancel of
 *    CTL stops the thread and ends the wait within 20 ms, with
 *    GPG_ERR_CANCELED.  Then the packets are written at OFF with SINK's
 *    write_at; call it after every octet before them and the room's
 *    zeros have reached the sink.  The thread's error (a cancel, no
 *    memory, a refused derivation), or packets of another length than
 *    LEN (GPG_ERR_BUG), is returned, and nothing is written then.
 *  - pl_key_room_free: NULL-safe.  A thread still running is told to
 *    stop (a derivation ends at its next check: an Argon2 segment,
 *    s2k.h) and waited for, so that the job can fail at once without
 *    leaving it behind.
 */
#pragma once

#include <stddef.h>
#include <stdint.h>
#include <gpg-error.h>

#include "io.h"
#include "job.h"

typedef struct pl_key_room pl_key_room;

pl_key_room *pl_key_room_start (const pl_encrypt_options *o,
                                const pl_job_control *ctl,
                                const uint8_t *session_key, size_t keylen,
                                uint64_t off, size_t len);
gpg_error_t pl_key_room_finish (pl_key_room *room, pl_sink *sink);
void pl_key_room_free (pl_key_room *room);
