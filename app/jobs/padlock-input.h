/* padlock-input.h - an input opened once: what it is, and its octets
 *
 * What the window and `padlock --batch` are given is opened here without
 * waiting (O_NONBLOCK, so that a FIFO's open does not wait for its
 * writer), and its first octets are read and sniffed (core/sniff.h):
 *  - a regular file's with pread (2): the job reads it from its first
 *    octet through the same descriptor;
 *  - a stream's (a pipe, a FIFO, a terminal, /dev/stdin) once, on the
 *    main context without blocking it (padlock_input_read_prefix_async),
 *    and the job gets them back in front of the rest
 *    (padlock_input_take_source): nothing is lost, nothing read twice;
 *  - a folder's not at all: a folder is encrypted, as one archive.
 * The descriptor is closed with the last reference.
 */
#pragma once

#include <stdatomic.h>
#include <gio/gio.h>

#include "io.h"
#include "padlock-job.h"
#include "sniff.h"

G_BEGIN_DECLS

typedef struct _PadlockInput PadlockInput;

/* Opens FILE (a local path).  A regular file is sniffed at once; a
 * stream still needs padlock_input_read_prefix_async. */
PadlockInput          *padlock_input_open        (GFile         *file,
                                                  GError       **error);
PadlockInput          *padlock_input_ref         (PadlockInput  *self);
void                   padlock_input_unref       (PadlockInput  *self);

GFile                 *padlock_input_get_file    (PadlockInput  *self);
gboolean               padlock_input_is_folder   (PadlockInput  *self);
/* Not a regular file nor a folder: readable once. */
gboolean               padlock_input_is_stream   (PadlockInput  *self);
/* A regular file's size; -1 for a stream or a folder. */
gint64                 padlock_input_get_size    (PadlockInput  *self);
/* Its modification time, for the literal packet. */
gint64                 padlock_input_get_mtime   (PadlockInput  *self);
/* Whether its first octets were read and sniffed: at once for a file or
 * a folder, once padlock_input_read_prefix_async succeeded for a stream. */
gboolean               padlock_input_is_sniffed  (PadlockInput  *self);
/* What the first octets are: all zero for a folder, and for a stream
 * until its prefix is read. */
const pl_sniff_result *padlock_input_get_sniff   (PadlockInput  *self);
/* A regular file that is not OpenPGP, whose first octets are text that
 * reads as a checksum list under its name (core/checksums.h: its whole
 * lines within PL_SNIFF_SIZE hold at least one entry).  What it says of
 * the content only: whether the input is a list to check is the plan's
 * to decide, by its name too (padlock-plan.h).  FALSE for a stream, a
 * folder, OpenPGP, and a list whose first entry lies past those
 * octets. */
gboolean               padlock_input_is_checksum_text (PadlockInput *self);

/* A stream: reads its first octets (up to PL_SNIFF_SIZE, or until it
 * ends) as they arrive, on the thread-default main context, without
 * blocking it, and sniffs them.  A regular file or a folder completes at
 * once.  CANCELLABLE ends the wait (G_IO_ERROR_CANCELLED). */
void                   padlock_input_read_prefix_async  (PadlockInput        *self,
                                                         GCancellable        *cancellable,
                                                         GAsyncReadyCallback  callback,
                                                         gpointer             user_data);
/* SELF may be NULL (the result knows its input). */
gboolean               padlock_input_read_prefix_finish (PadlockInput        *self,
                                                         GAsyncResult        *result,
                                                         GError             **error);

/* For the job's thread: a source over the input from its first octet.
 * A regular file's may be taken again (a retry); a stream's once (then
 * GPG_ERR_EPIPE), and its reads end when *CANCEL is set (streamsource.h).
 * A folder has none: GPG_ERR_EISDIR. */
gpg_error_t            padlock_input_take_source (PadlockInput      *self,
                                                  const atomic_int  *cancel,
                                                  pl_source        **out);

/* Raises the process's soft limit of open descriptors to its hard
 * limit: a caller that holds every input it was given open at once (to
 * pair signatures with their data files, padlock-plan.h) is not stopped
 * at 1024 of them. */
void                   padlock_input_raise_open_files_limit (void);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (PadlockInput, padlock_input_unref)

G_END_DECLS
