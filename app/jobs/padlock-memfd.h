/* padlock-memfd.h - plaintext held in memory only, for Open Without Saving
 *
 * A sink (core/io.h) that writes into an anonymous memory file
 * (memfd_create, MFD_CLOEXEC | MFD_ALLOW_SEALING) instead of a file on
 * disk, and the PadlockMemfd it becomes at commit.  The core commits a
 * decryption's sink only once the message authenticated (the MDC, or the
 * last AEAD tag) and its signatures were checked, so a PadlockMemfd only
 * ever holds a whole, authenticated plaintext; an abort wipes and closes
 * what was written, and nobody else ever saw the descriptor (close-on-exec,
 * never handed out before commit).
 *
 * Memory is bounded: writing past LIMIT octets fails with GPG_ERR_EFBIG
 * at once, nothing kept.  The pages are mapped and locked (mlock) as they
 * are reserved, as far as RLIMIT_MEMLOCK allows; past it, they stay
 * unlocked and may be swapped (padlock_memfd_get_locked says so).
 *
 * Commit seals the file: F_SEAL_FUTURE_WRITE | F_SEAL_GROW |
 * F_SEAL_SHRINK | F_SEAL_SEAL.  Nobody who opens it (a viewer, through the
 * portal or /proc/PID/fd/N) can change, grow or shrink it.  FUTURE_WRITE
 * rather than F_SEAL_WRITE: the kernel refuses F_SEAL_WRITE while a
 * writable mapping exists, and Padlock keeps its own (locked) mapping, the
 * only one that can still write, to overwrite the plaintext with zeros
 * when the last reference goes.
 */
#pragma once

#include <gio/gio.h>

#include "io.h"

G_BEGIN_DECLS

typedef struct _PadlockMemfd PadlockMemfd;

/* MemAvailable from /proc/meminfo, in octets; 0 when unknown. */
guint64       padlock_memfd_available      (void);
/* The limit in force: SETTING ("open-memory-limit"), but never more than
 * half of AVAILABLE (padlock_memfd_available; 0: SETTING alone). */
guint64       padlock_memfd_limit          (guint64      setting,
                                            guint64      available);
/* The message for a plaintext over LIMIT: "… too large to open without
 * saving (limit 1.1 GB): save it instead". */
char         *padlock_memfd_too_large      (const char  *name,
                                            guint64      limit);

/* A sink into a new memory file named NAME (shown in /proc/PID/fd as
 * "/memfd:NAME"), at most LIMIT octets. */
gpg_error_t   padlock_memfd_sink_new       (const char  *name,
                                            guint64      limit,
                                            pl_sink    **out);
/* After a successful commit: the sealed file (a new reference); else
 * NULL.  The sink may then be freed. */
PadlockMemfd *padlock_memfd_sink_take      (pl_sink     *sink);

PadlockMemfd *padlock_memfd_ref            (PadlockMemfd *self);
/* The last reference wipes the plaintext, unlocks, unmaps and closes. */
void          padlock_memfd_unref          (PadlockMemfd *self);
/* The descriptor, sealed, close-on-exec; the PadlockMemfd's. */
int           padlock_memfd_get_fd         (PadlockMemfd *self);
/* The plaintext, in place (read-only for the caller), and its size. */
const guint8 *padlock_memfd_get_data       (PadlockMemfd *self,
                                            gsize        *size);
/* Whether every page was locked in memory. */
gboolean      padlock_memfd_get_locked     (PadlockMemfd *self);
/* The name the plaintext is known by (the literal packet's, when safe):
 * the content type's hint and the viewer's title.  NULL until set. */
const char   *padlock_memfd_get_name       (PadlockMemfd *self);
void          padlock_memfd_set_name       (PadlockMemfd *self,
                                            const char   *name);
/* "Save As…": the plaintext copied into a new file at PATH (never over an
 * existing one: core/io.h's transactional sink). */
gboolean      padlock_memfd_save           (PadlockMemfd *self,
                                            const char   *path,
                                            GError      **error);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (PadlockMemfd, padlock_memfd_unref)

G_END_DECLS
