/* streamsource.h - sources for inputs that can be read only once
 *
 * A pipe, a FIFO, a terminal or /dev/stdin hands out each octet once:
 * whoever reads its first octets to sniff them (sniff.h) must hand them
 * on with the descriptor, or they are lost.  Two small sources (io.h)
 * make that a rule instead of a care: one replays octets already read in
 * front of another source, one reads a descriptor in a way that a cancel
 * ends even while nothing arrives.
 */
#pragma once

#include <stdatomic.h>
#include <stddef.h>

#include "io.h"
#include "sniff.h"

/* A source that hands out a copy of PREFIX (LEN octets; NULL when 0)
 * first, then the octets of REST, which it takes over: REST is freed with
 * it, and also when this fails (NULL: out of memory).  Its size is
 * REST's, which counts every octet of the input, so the octets read
 * from REST into PREFIX among them, or -1.  Its borrow is there when
 * REST's is: the prefix is lent from the copy, then REST lends; its check
 * is REST's. */
pl_source *pl_source_new_replay (const void *prefix, size_t len,
                                 pl_source *rest);

/* How long a read waits in poll (2) before it looks at the cancel flag
 * again, in milliseconds: the longest a cancel waits on a silent pipe. */
#define PL_STREAM_CANCEL_MS 100

/* A source over FD, a descriptor of any kind (a pipe, a FIFO, a socket,
 * a terminal; O_NONBLOCK or not), taking FD over when CLOSE_FD.  Each
 * read waits in poll (2) until FD has octets or has ended, and fails
 * with GPG_ERR_CANCELED as soon as *CANCEL (may be NULL) is non-zero,
 * before waiting and every PL_STREAM_CANCEL_MS while it waits, so that a
 * job reading a FIFO whose writer never comes stops when cancelled.  A
 * FIFO opened with O_NONBLOCK before its writer came only ends once a
 * writer came and left (poll (2) reports no hang-up before), so such a
 * FIFO may be opened without waiting and handed here.  The size is -1
 * (unknown); no borrow, no check.  NULL: out of memory (FD is then not
 * closed). */
pl_source *pl_source_new_stream (int fd, int close_fd,
                                 const atomic_int *cancel);

/* Reads the first octets of *SRC (up to PL_SNIFF_SIZE, or its end),
 * sniffs them (pl_sniff, with *SRC's size, or the octets read when it
 * ended within) into *RESULT, and replaces *SRC with a replay source
 * that hands them out again first: the caller goes on as if nothing had
 * been read.  On an error *SRC is left as it is (some octets consumed);
 * GPG_ERR_ENOMEM frees it and sets it NULL. */
gpg_error_t pl_source_sniff (pl_source **src, pl_sniff_result *result);
