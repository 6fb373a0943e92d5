/* buffers.h - a job's large work buffers, kept warm from one job to the next
 *
 * A job's stages each want buffers of 64 KiB to a few MiB: read-ahead,
 * the writer's, AEAD chunks, deflate and text.  Fresh from malloc, such a
 * buffer is mapped anew and faulted in one 4 KiB page at a time on first
 * touch, then handed back to the kernel when freed, so every job paid
 * about 3,000 faults for its buffers (issue 36; on the VMs we run on a
 * fault costs several microseconds, a quarter of a job's samples were
 * the first store into a fresh page).  Here instead:
 *
 *  - Buffers are carved from mappings aligned to 2 MiB and advised
 *    MADV_HUGEPAGE, so that one fault maps 2 MiB where 512 did (with
 *    transparent huge pages in "madvise" mode, Debian's default; with
 *    "never" the pages stay small and only the reuse below helps).
 *  - A buffer given back is wiped (as far as it was written) and kept on a process-wide free list
 *    for the next taker of its size class: the second job of a batch, or
 *    of a test, faults nothing for its buffers.  What is kept free is
 *    bounded (PL_BUFFERS_KEEP); beyond it, pages go back to the kernel.
 *
 * Size classes: a request is rounded up to a power of two from 64 KiB to
 * 2 MiB (those share 2 MiB slabs), and above 2 MiB to a multiple of 64 KiB
 * in a mapping of its own, rounded to 2 MiB.  Memory is never returned to
 * malloc, so these buffers must not be freed with free ().
 *
 * Under AddressSanitizer the parts of a mapping no taker holds are
 * poisoned and exactly SIZE octets are unpoisoned on take, so an overrun
 * past SIZE is reported as it was with malloc; under valgrind a buffer
 * taken is "undefined" as malloc's would be, and one given back is
 * inaccessible.  Leaks, which LeakSanitizer no longer sees in these
 * mappings, show in pl_buffers_in_use, which the tests check after every
 * job (tests/testutil.c).
 *
 * Thread-safe: one lock, taken twice per buffer per job.
 */
#pragma once

#include <stddef.h>

/* What may stay mapped and free for the next job, in octets: two jobs'
 * buffers at the profiles' largest (about 20 MiB each). */
#define PL_BUFFERS_KEEP ((size_t) 64 << 20)

/* SIZE octets (SIZE > 0), page-aligned, whose content is unspecified
 * (zeros in fact, but treat it as malloc's: valgrind does); NULL when
 * no memory could be mapped. */
void *pl_buffer_take (size_t size);

/* Gives back BUF (NULL: nothing), taken with the same SIZE, after
 * wiping its first DIRTY octets (at most SIZE): what the caller may have
 * written there.  Pages past DIRTY that were never touched stay
 * untouched (a small message's job maps no more than it used).  The
 * buffer is kept for the next taker. */
void pl_buffer_give (void *buf, size_t size, size_t dirty);

/* Buffers taken and not given back, process-wide. */
size_t pl_buffers_in_use (void);

/* Returns every free buffer's pages to the kernel (the buffers stay on
 * the free lists, cold): for a long-lived process that goes idle. */
void pl_buffers_trim (void);
