/* padlock-memfd-archive.h - a folder opened without saving: the tar
 * archive in a sealed memory file, its files listed, one file opened
 *
 * Open Without Saving of a folder's message (Photos.tar.gpg, Padlock's or
 * gpgtar's): the whole archive is decrypted into a PadlockMemfd first,
 * which the core commits only once the message authenticated, so nothing
 * of it is listed or opened before that.  Its files are listed from that
 * memory (core/tar-read.h, bounded against a hostile archive), and the
 * one the user picks is copied into a memory file of its own, sealed like
 * the first, for the viewer (padlock-viewer.h).  Nothing reaches a disk.
 */
#pragma once

#include <gio/gio.h>

#include "padlock-memfd.h"
#include "tar-read.h"

G_BEGIN_DECLS

/* Whether MEMFD holds a tar archive (its first header is valid). */
gboolean      padlock_memfd_is_archive    (PadlockMemfd         *memfd);

/* The files of the archive in MEMFD into *OUT (pl_tar_listing_clear it,
 * also after a failure).  FALSE and ERROR, in words naming INPUT (the
 * message's name), for a damaged archive or one of too many entries. */
gboolean      padlock_memfd_archive_list  (PadlockMemfd         *memfd,
                                           const char           *input,
                                           pl_tar_listing       *out,
                                           GError              **error);

/* ENTRY of the archive in MEMFD (from its listing) in a memory file of
 * its own, sealed, at most LIMIT octets (padlock_memfd_limit's), named
 * for its viewer after the entry's last component.  NULL and ERROR when
 * it is over LIMIT or cannot be read. */
PadlockMemfd *padlock_memfd_archive_open  (PadlockMemfd         *memfd,
                                           const pl_tar_entry   *entry,
                                           guint64               limit,
                                           GError              **error);

/* ENTRY's last component: what a list shows as its name, and the viewer's
 * hint. */
char         *padlock_memfd_archive_basename (const pl_tar_entry *entry);

G_END_DECLS
