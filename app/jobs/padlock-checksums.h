/* padlock-checksums.h - the files a checksum list names, hashed and
 * compared (issue 34 §3)
 *
 * Given a parsed list (core/checksums.h) and its folder, hashes each
 * listed file that is present and compares it with the list: per file
 * ok, differs, not here or unreadable, and the totals.  Files hash on
 * several threads at once (up to padlock_checksums_set_threads, the
 * cores by default), the largest first; each is read once in large
 * blocks (lent in place from a mapping where the engine maps, see
 * core/mapsource.h, else read into one buffer a thread) and hashed by
 * libgcrypt with every hash the list gives it.
 *
 * It judges no signature.  The job that uses it checks the list first:
 * the detached signature beside it (LIST.gpg, .sign, .asc, over the
 * list's octets) or the cleartext signature around it (core/clearsign.h,
 * whose verified text is what is parsed); then it runs this checker, and
 * says the signature's verdict before the files':
 *
 *   "SHA256SUMS: signed by Debian CD signing key · debian-12.iso matches"
 *   "debian-12.iso does not match the signed checksum"  (red)
 *   an unsigned list: checked all the same, and saying that nobody
 *   vouches for it ("SHA256SUMS is not signed: it says only that the
 *   file is the one its writer listed").
 *
 * A bad signature is the list's failure whatever the files say; a file
 * that matches only MD5 or SHA-1 sums (padlock_checksums_get_weak) must
 * be shown as a weak match.  padlock_checksums_file_line and
 * padlock_checksums_summary_line write padlock --batch's lines, and
 * padlock_checksums_all_match its exit status (with the signature's).
 *
 * Names are the list's, relative to the folder, and opened under it by
 * openat (core/checksums.h refused absolute names and ".."); a file that
 * is not a regular one (a folder, a FIFO, a device) is unreadable, and
 * never opened for long: opening does not wait (O_NONBLOCK).
 *
 * A maker (padlock_checksums_new_for_files, issue 34 §4 "Make a
 * checksum list") hashes the files it is given the same way, with the
 * same threads, blocks, progress and cancel, and keeps their digests
 * instead of comparing them; padlock_checksums_dup_text then writes the
 * list as sha256sum does (core/checksums.h: pl_checksums_format).
 *
 * Threads: the getters may be called from any thread while it runs
 * (they read atomics); padlock_checksums_run blocks, on a worker thread
 * (a job's) or in a test, once for a checker.
 */
#pragma once

#include <gio/gio.h>

#include "checksums.h"

G_BEGIN_DECLS

typedef enum
{
  PADLOCK_CHECKSUM_PENDING,     /* not checked (yet, or cancelled) */
  PADLOCK_CHECKSUM_OK,          /* every sum the list gives matches */
  PADLOCK_CHECKSUM_DIFFERS,     /* one does not, or the list gives two
                                 * for one hash (PL_CHECKSUMS_CONFLICT) */
  PADLOCK_CHECKSUM_NOT_HERE,    /* no such file in the folder: counted,
                                 * not failed (one image out of six) */
  PADLOCK_CHECKSUM_UNREADABLE,  /* there, but not a regular file, or
                                 * reading failed (get_error says why) */
} PadlockChecksumState;

typedef struct
{
  guint n_ok, n_differ, n_not_here, n_unreadable, n_pending;
  guint n_weak;                 /* of n_ok: by MD5 or SHA-1 only */
} PadlockChecksumsTotals;

typedef struct _PadlockChecksums PadlockChecksums;

/* Called on padlock_checksums_run's thread while it runs (every 50 ms
 * or so) and once at its end: DONE octets hashed of TOTAL (the present
 * files' sizes, known once they were looked at; 0 before). */
typedef void (*PadlockChecksumsProgress) (guint64  done,
                                          guint64  total,
                                          gpointer user_data);

/* A checker of LIST's entries in FOLDER (a local folder: the list's).
 * Takes what LIST holds (*LIST is left empty). */
PadlockChecksums    *padlock_checksums_new             (pl_checksums *list,
                                                        GFile        *folder);
/* Parses the LEN octets at DATA (a list file's, or a cleartext-signed
 * list's verified text) named LIST_NAME (core/checksums.h: it may name
 * the hash) into a checker of FOLDER; NULL and a PADLOCK_ERROR naming
 * the list when it is refused: nothing in it is an entry, or a
 * cleartext-signed message inside it (PADLOCK_ERROR_MALFORMED); over
 * PL_CHECKSUMS_MAX_LIST octets or PL_CHECKSUMS_MAX_ENTRIES lines
 * (PADLOCK_ERROR_TOO_COSTLY).  The caller reads at most
 * PL_CHECKSUMS_MAX_LIST + 1 octets of a list file. */
PadlockChecksums    *padlock_checksums_new_from_data   (const guint8 *data,
                                                        gsize         len,
                                                        const char   *list_name,
                                                        GFile        *folder,
                                                        GError      **error);
void                 padlock_checksums_free            (PadlockChecksums *self);

/* A maker of the list of NAMES (N_NAMES files in FOLDER, named as the
 * list will name them, relative to FOLDER), by ALGO (PL_HASH_SHA256 for
 * SHA256SUMS): pl_checksums_new_for_files sorts them and drops a name
 * given twice.  NULL and a PADLOCK_ERROR naming it for a name no list
 * can hold as it is (a line break or another control character:
 * PADLOCK_ERROR_MALFORMED), or too many names (PADLOCK_ERROR_TOO_COSTLY).
 * padlock_checksums_run hashes the files: each then OK, its digest in
 * the list, or NOT_HERE or UNREADABLE.  The getters work as a checker's
 * (get_entry: the files in the list's order). */
PadlockChecksums    *padlock_checksums_new_for_files   (const char *const *names,
                                                        guint              n_names,
                                                        int                algo,
                                                        GFile             *folder,
                                                        GError           **error);
/* Whether SELF is a maker. */
gboolean             padlock_checksums_get_makes       (PadlockChecksums *self);
/* After a maker's run: NULL when every file was hashed; else why the
 * list cannot be made, the first file's: not in the folder any more
 * (PADLOCK_ERROR_IO), unreadable (its error), or not hashed (cancelled,
 * PADLOCK_ERROR_CANCELLED).  Its names are raw, as in any job's error. */
GError              *padlock_checksums_make_failure    (PadlockChecksums *self);
/* After a maker's run that hashed every file: the list's text, a line
 * a file in the list's order, as sha256sum writes it ("HEX  NAME\n",
 * a name with '\\' escaped); NULL with ERROR when it cannot be written
 * (pl_checksums_format's errors). */
GBytes              *padlock_checksums_dup_text        (PadlockChecksums *self,
                                                        GError          **error);
/* padlock --batch's line for file I of a maker's list LIST_NAME (not
 * translated; names as one word, padlock_name_word):
 *   "listed debian-12.iso -> SHA256SUMS sha256" */
char                *padlock_checksums_listed_line     (PadlockChecksums *self,
                                                        const char       *list_name,
                                                        guint             i);

/* The parsed list, SELF's: its entries (the files, in this order) and
 * its counts (lines malformed, unsafe, unsupported, duplicates). */
const pl_checksums  *padlock_checksums_get_list        (PadlockChecksums *self);

/* At most N files hash at once; 0 (the default): g_get_num_processors. */
void                 padlock_checksums_set_threads     (PadlockChecksums *self,
                                                        guint             n);

/* Once: looks at every listed file and hashes the present ones: TRUE when each
 * was checked (whatever it gave; see the totals), FALSE with ERROR when
 * the folder cannot be opened (G_IO_ERROR_*) or CANCELLABLE was
 * cancelled (G_IO_ERROR_CANCELLED; the files not finished stay
 * PENDING, within a block of 1 MiB a thread).  PROGRESS may be NULL. */
gboolean             padlock_checksums_run             (PadlockChecksums        *self,
                                                        GCancellable            *cancellable,
                                                        PadlockChecksumsProgress progress,
                                                        gpointer                 user_data,
                                                        GError                 **error);

/* Octets hashed so far, of the total (any thread). */
guint64              padlock_checksums_get_done        (PadlockChecksums *self);
guint64              padlock_checksums_get_total       (PadlockChecksums *self);

/* The files, in the list's order (its entries').  Any thread: */
guint                padlock_checksums_get_n_files     (PadlockChecksums *self);
const pl_checksums_entry *padlock_checksums_get_entry  (PadlockChecksums *self,
                                                        guint             i);
PadlockChecksumState padlock_checksums_get_state       (PadlockChecksums *self,
                                                        guint             i);
/* Octets of file I hashed so far, and its size (-1 until looked at). */
guint64              padlock_checksums_get_file_done   (PadlockChecksums *self,
                                                        guint             i);
gint64               padlock_checksums_get_file_size   (PadlockChecksums *self,
                                                        guint             i);
/* After the run: why file I is unreadable (NULL otherwise), and whether
 * it matched by MD5 or SHA-1 only. */
const GError        *padlock_checksums_get_error       (PadlockChecksums *self,
                                                        guint             i);
gboolean             padlock_checksums_get_weak        (PadlockChecksums *self,
                                                        guint             i);

void                 padlock_checksums_get_totals      (PadlockChecksums       *self,
                                                        PadlockChecksumsTotals *totals);

/* TRUE when at least one listed file is present and every present one
 * matches (none differs, is unreadable or pending): the files' part of
 * padlock --batch's exit 0 (the signature must be good too).  A folder
 * holding none of the files is not a success: nothing was checked. */
gboolean             padlock_checksums_all_match       (PadlockChecksums *self);

/* padlock --batch's line for file I, LIST_NAME the list's base name (not
 * translated; names as one word, padlock_name_word):
 *   "checked SHA256SUMS -> debian-12.iso sha256 ok"
 *   "checked SHA256SUMS -> debian-12.iso sha256 differs"
 *   "checked SHA256SUMS -> debian-12.iso sha256 unreadable"
 * the hashes joined by ',' ("sha256,sha512") when the list gives
 * several, "ok-weak" for a match by MD5 or SHA-1 only; NULL for a file
 * not here or pending (the summary counts them). */
char                *padlock_checksums_file_line       (PadlockChecksums *self,
                                                        const char       *list_name,
                                                        guint             i);
/* Its summary: "checked SHA256SUMS: 1 ok, 0 differ, 5 not here, " then
 * SIGNATURE (the batch's words for the list's verdict, "signature good
 * FPR \"Debian CD signing key\""), or "unsigned" when NULL.  When some
 * are, ", N unreadable" comes after "not here", and ", N weak" after
 * that (of the ok). */
char                *padlock_checksums_summary_line    (PadlockChecksums *self,
                                                        const char       *list_name,
                                                        const char       *signature);

/* What a checked list's row says (issue 34 §3), translated, after the
 * run: the list's signature first, then its files, joined by " · ":
 *   "SHA256SUMS: signed by Debian CD signing key <…> · debian-12.iso matches"
 *   "SHA256SUMS: signed by … · debian-12.iso does not match the signed
 *    checksum"
 *   "SHA256SUMS is not signed: nobody vouches for it · debian-12.iso
 *    matches it"
 * LIST_NAME is the list's base name; SIGNATURES (PadlockSignature,
 * padlock-signature.h) the verdicts of its signature, NULL or empty when
 * it has none.  The signature's part is the worst verdict's: a good one
 * names the user ID it verified (its signer), any other says what
 * padlock_signature_describe says.  Every name (the list's, the files',
 * the signer's) is escaped (padlock_name_escape), with ISOLATE also in
 * bidi isolates (the window's). */
char                *padlock_checksums_describe        (PadlockChecksums *self,
                                                        const char       *list_name,
                                                        GPtrArray        *signatures,
                                                        gboolean          isolate);

/* Why a checked list's job fails, or NULL when it does not: a file that
 * differs ("debian-12.iso does not match the signed checksum" when
 * VOUCHED, a signature good or not certified; else "... the checksum in
 * SHA256SUMS"; with more, "and N more"), else one unreadable, else none
 * of its files present (nothing was checked).  PADLOCK_ERROR_INTEGRITY,
 * or PADLOCK_ERROR_IO for the last two.  Its names are raw, as in any
 * job's error: whoever shows it escapes it (padlock_name_escape). */
GError              *padlock_checksums_failure         (PadlockChecksums *self,
                                                        const char       *list_name,
                                                        gboolean          vouched);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (PadlockChecksums, padlock_checksums_free)

G_END_DECLS
