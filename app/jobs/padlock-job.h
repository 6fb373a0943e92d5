/* padlock-job.h - one file to encrypt or decrypt, run on a worker thread
 *
 * The job's properties (state, bytes, throughput, time left, error) change
 * on the main context only, at most ten times a second; the worker stores
 * its progress in atomics that a main-loop timeout reads.
 */
#pragma once

#include <gio/gio.h>

#include "padlock-secret.h"
#include "padlock-memfd.h"

G_BEGIN_DECLS

typedef enum
{
  PADLOCK_DIRECTION_ENCRYPT,
  PADLOCK_DIRECTION_DECRYPT,
  /* A detached signature of the file, FILE.sig (FILE.asc armored), by
   * the job's signing key (padlock_job_set_signing_key), which it needs;
   * the file itself is only read. */
  PADLOCK_DIRECTION_SIGN,
} PadlockDirection;

typedef enum
{
  PADLOCK_JOB_QUEUED,
  PADLOCK_JOB_RUNNING,
  PADLOCK_JOB_CHECKING_OUTPUT,  /* decrypting the output again, before
                                 * the original is deleted */
  PADLOCK_JOB_DONE,
  PADLOCK_JOB_FAILED,
  PADLOCK_JOB_CANCELLED,
} PadlockJobState;

#define PADLOCK_TYPE_DIRECTION (padlock_direction_get_type ())
#define PADLOCK_TYPE_JOB_STATE (padlock_job_state_get_type ())
GType padlock_direction_get_type (void) G_GNUC_CONST;
GType padlock_job_state_get_type (void) G_GNUC_CONST;

/* How to encrypt and where to write: read from the settings when the job
 * is made, then fixed. */
typedef struct
{
  int profile;                  /* pl_profile */
  int cipher_algo;              /* OpenPGP id; 0: AES-256 */
  int compress_algo;            /* OpenPGP id; 0: none */
  gboolean armor;
  gboolean delete_original;     /* once the output checked out */
  char *output_dir;             /* NULL: next to the input */
  gboolean hide_names;          /* encrypted outputs get random names */
  gboolean unpack_archives;     /* decryption: a tar archive becomes a
                                 * folder (padlock-folder.h) */
  gboolean allow_expansion;     /* decrypt: no decompression-bomb limit */
} PadlockJobConfig;

void padlock_job_config_clear (PadlockJobConfig *config);

#define PADLOCK_TYPE_JOB (padlock_job_get_type ())
G_DECLARE_FINAL_TYPE (PadlockJob, padlock_job, PADLOCK, JOB, GObject)

typedef struct _PadlockInput PadlockInput;

PadlockJob       *padlock_job_new               (GFile                  *input,
                                                 PadlockDirection        direction,
                                                 const PadlockJobConfig *config);
/* A job that reads INPUT, opened once (padlock-input.h), instead of
 * opening its file: a pipe's octets, sniffed already, are not lost.  The
 * job holds INPUT until it ends.  For a stream, INPUT's prefix must have
 * been read (padlock_input_read_prefix_async). */
PadlockJob       *padlock_job_new_for_input     (PadlockInput           *input,
                                                 PadlockDirection        direction,
                                                 const PadlockJobConfig *config);
/* Encrypts N_ITEMS ITEMS (files and folders) into one archive, named
 * after their folder when they share one (padlock_folder_items_name) and
 * written into the first item's folder unless CONFIG has an output
 * folder.  The job's input is that folder. */
PadlockJob       *padlock_job_new_archive       (GFile                 **items,
                                                 guint                   n_items,
                                                 const PadlockJobConfig *config);
GFile            *padlock_job_get_input         (PadlockJob       *self);
GFile            *padlock_job_get_output        (PadlockJob       *self);
const char       *padlock_job_get_output_name   (PadlockJob       *self);
PadlockDirection  padlock_job_get_direction     (PadlockJob       *self);
PadlockJobState   padlock_job_get_state         (PadlockJob       *self);
gboolean          padlock_job_is_finished       (PadlockJob       *self);
guint64           padlock_job_get_bytes_done    (PadlockJob       *self);
gint64            padlock_job_get_bytes_total   (PadlockJob       *self);
double            padlock_job_get_progress      (PadlockJob       *self);
double            padlock_job_get_throughput    (PadlockJob       *self);
double            padlock_job_get_time_left     (PadlockJob       *self);
const GError     *padlock_job_get_error         (PadlockJob       *self);
/* A folder's job: "Counting files… 1,234", the file being read, and at
 * the end the special files left out; NULL otherwise. */
const char       *padlock_job_get_detail        (PadlockJob       *self);
gboolean          padlock_job_get_original_deleted (PadlockJob    *self);
gboolean          padlock_job_get_original_kept    (PadlockJob    *self);
/* The size of the plain file: the input when encrypting, the output when
 * a decryption is done; -1 while unknown. */
gint64            padlock_job_get_plaintext_size (PadlockJob      *self);
/* The pl_profile it encrypts with: its recipients' once they are read
 * (padlock_recipients_get_profile), else its config's. */
int               padlock_job_get_profile       (PadlockJob       *self);
/* TRUE while the job derives its key from the passphrase (or waits for
 * its batch to): "Deriving key…".  Its throughput counts data time only. */
gboolean          padlock_job_get_deriving      (PadlockJob       *self);
/* TRUE while, deriving, it waits for the process's key-derivation memory
 * (core/kdf-memory.h: one 2 GiB Argon2 at a time): "Waiting for
 * memory…".  A cancel ends the wait at once. */
gboolean          padlock_job_get_waiting_for_memory (PadlockJob  *self);
/* The group: an id the caller gives the jobs it starts together with one
 * passphrase (the files of one dialog, or of one `padlock --batch`), so
 * that it can tell when a group's last job ends; 0 until set. */
guint             padlock_job_get_group         (PadlockJob       *self);
void              padlock_job_set_group         (PadlockJob       *self,
                                                 guint             group);

/* Takes a reference; the job lets go of it when it finishes. */
void              padlock_job_set_secret        (PadlockJob       *self,
                                                 PadlockSecret    *secret);
/* Decryption: the user's secret keys (padlock-held-keys.h), asked of
 * gpg-agent for the message's PKESKs; a job with held keys may start
 * without a passphrase.  Takes a reference. */
typedef struct _PadlockHeldKeys PadlockHeldKeys;
void              padlock_job_set_held_keys     (PadlockJob      *self,
                                                 PadlockHeldKeys *held_keys);
/* Encryption: the people it is for (padlock-recipients.h), beside the
 * passphrase when there is one; a job with recipients may start without
 * a passphrase, and its format is then theirs.  Takes a reference. */
typedef struct _PadlockRecipients PadlockRecipients;
void              padlock_job_set_recipients    (PadlockJob        *self,
                                                 PadlockRecipients *recipients);
PadlockRecipients *padlock_job_get_recipients   (PadlockJob        *self);
/* Encryption to recipients: who can open the output, "Bob <bob@…>, you,
 * and anyone with the passphrase" (padlock_recipients_describe); NULL
 * without recipients. */
char             *padlock_job_dup_openers       (PadlockJob        *self);
/* Decryption: the signatures inside are verified with the certificates
 * of the GnuPG home HOME_DIR (padlock_keyring_get_home_dir, or
 * padlock_keyring_default_home), found by the issuer each names, from the
 * job's thread; without one (NULL, or no such folder), every signer is
 * unknown. */
void              padlock_job_set_verify_home   (PadlockJob       *self,
                                                 const char       *home_dir);
/* Once a decryption is done: the verdict of each signature inside
 * (PadlockSignature, padlock-signature.h), in the message's order; empty
 * when it was not signed, NULL before then. */
GPtrArray        *padlock_job_get_signatures    (PadlockJob       *self);
/* A decryption of a cleartext-signed file (`gpg --clearsign`): it checks
 * the signature and writes the signed text (its verdicts in
 * padlock_job_get_signatures, as a signed message's).  Known from the
 * input's content: the caller that sniffed it says so before the job
 * starts (padlock_job_new_for_input does), and the job knows it once it
 * has read the input. */
gboolean          padlock_job_get_clearsigned   (PadlockJob       *self);
void              padlock_job_set_clearsigned   (PadlockJob       *self,
                                                 gboolean          clearsigned);
/* Decryptions that check a signature and decrypt nothing (issue 34),
 * known from the input's content as a cleartext-signed file is:
 *
 * a message that is signed, not encrypted (`gpg -s`, `sqop
 * inline-sign`): its signatures checked, its data written as a
 * decryption's (the name less .gpg/.asc/.sig, or the stored name);
 *
 * a detached signature (`gpg --detach-sign`, `sqop sign`): the job
 * reads its data file and checks the signature over it, writing nothing
 * (padlock_job_get_output stays NULL; the output name is the data
 * file's).  The data file is FILE when set (padlock-plan.h:
 * padlock_plan_pair, the file given with it), else the one beside the
 * signature that its name names (padlock_plan_signed_file); missing, the
 * job fails saying so.  Setting it makes the job a detached check.
 *
 * padlock_job_get_verifies: one of those, or cleartext-signed (`padlock
 * --batch`'s "verified" lines), a checksum list's check (below), or set
 * checks-only.  padlock_job_set_checks_only: the caller's plan says so
 * (PADLOCK_PLAN_CHECK_*) before a job that did not sniff starts: it
 * needs no passphrase nor keys, and is one that verifies from the start
 * (the window's rows say "Checking", not "Decrypting"). */
gboolean          padlock_job_get_signed_only   (PadlockJob       *self);
gboolean          padlock_job_get_detached      (PadlockJob       *self);
GFile            *padlock_job_get_signed_file   (PadlockJob       *self);
void              padlock_job_set_signed_file   (PadlockJob       *self,
                                                 GFile            *file);
gboolean          padlock_job_get_verifies      (PadlockJob       *self);
void              padlock_job_set_checks_only   (PadlockJob       *self,
                                                 gboolean          checks_only);
/* A checksum list's check (issue 34 §3; PADLOCK_PLAN_CHECK_LIST): set
 * by the caller whose plan says so, before the job starts (a list is
 * plain text: its content alone does not make the job one).  Nothing
 * is written.  The job's input is
 *
 * the list, plain text: its detached signature is the first of LIST.gpg,
 * LIST.sign, LIST.asc and LIST.sig beside it, checked over the list's
 * octets; without one the list is checked unsigned;
 *
 * the list, cleartext-signed (InRelease style): its signature checked,
 * and its signed text read as the list;
 *
 * or the list's detached signature: the list is the signed file
 * (padlock_job_set_signed_file when given with it, else the one beside
 * it), read and checked as a detached signature's data; one that does
 * not read as a list (nothing in it is a checksum line) makes the job
 * the detached check it also is (padlock_job_get_checks_list FALSE once
 * done, padlock_job_get_detached TRUE).
 *
 * The list is read whole, at most PL_CHECKSUMS_MAX_LIST octets; its
 * signature is checked before a file is hashed, and a bad one fails the
 * job, no file checked.  Then the files it names in its folder
 * (padlock-checksums.h) are hashed, several at once within the job's
 * thread budget, with the job's progress and cancel.  The job fails when
 * a present file differs or cannot be read, or none of them is there
 * (padlock_checksums_failure says which); absent ones are counted, not
 * failed.  Its verdicts are padlock_job_get_signatures' (empty when the
 * list is not signed), kept when it fails too; its output name is the
 * list's name. */
void              padlock_job_set_checks_list   (PadlockJob       *self);
gboolean          padlock_job_get_checks_list   (PadlockJob       *self);
/* Once a list's job ended (done or failed after its files were looked
 * at): the files, their states and totals; NULL before, and for any
 * other job.  The job's. */
typedef struct _PadlockChecksums PadlockChecksums;
PadlockChecksums *padlock_job_get_checksums     (PadlockJob       *self);
/* What its row says (padlock_checksums_describe: "SHA256SUMS: signed by
 * … · debian-12.iso matches"), with ISOLATE for the window; NULL until
 * its files were looked at. */
char             *padlock_job_dup_list_verdict  (PadlockJob       *self,
                                                 gboolean          isolate);
/* A done job's output (a file, or an unpacked folder and what it holds)
 * goes, at the user's word (a bad signature's Delete); the job says so
 * from then on (padlock_job_get_output_deleted, notify::output). */
gboolean          padlock_job_delete_output     (PadlockJob       *self,
                                                 GError          **error);
gboolean          padlock_job_get_output_deleted (PadlockJob      *self);
/* Encryption (and PADLOCK_DIRECTION_SIGN): signed by KEY (a PadlockKey with a signing subkey whose
 * secret gpg-agent holds: padlock_key_get_signing_subkey) of the keyring
 * of HOME_DIR, through AGENT, whose pinentry asks for the key's
 * passphrase; NULL: not signed.  The output is then what `gpg -se`
 * writes.  A key that cannot sign fails the job before it writes. */
typedef struct _PadlockKey PadlockKey;
typedef struct _PadlockAgent PadlockAgent;
void              padlock_job_set_signing_key   (PadlockJob       *self,
                                                 PadlockKey       *key,
                                                 PadlockAgent     *agent,
                                                 const char       *home_dir);
PadlockKey       *padlock_job_get_signing_key   (PadlockJob       *self);
/* "Make a checksum list" (issue 34 §4): SHA256SUMS of FILES (N_FILES
 * regular files, all in one folder, named in it as the list names
 * them), in sha256sum's lines sorted by name, and its detached
 * signature beside it, SHA256SUMS.sig (SHA256SUMS.asc with CONFIG's
 * armor), as release managers publish them.  Both go into the files'
 * folder, whatever CONFIG's output folder: the list's names are relative
 * to it.  The job is a PADLOCK_DIRECTION_SIGN one and needs a signing
 * key (padlock_job_set_signing_key): the list is signed as a file is
 * (core/sign-file.h, through gpg-agent, its pinentry once the files are
 * hashed).  Neither file is ever written over another: "SHA256SUMS (1)"
 * with "SHA256SUMS (1).sig" (padlock-output.h: PadlockListOutput), and
 * they appear only once both are whole; a failure (a file gone or
 * unreadable, the agent's refusal, a full disk) leaves neither.  The
 * files hash as a list's check hashes them (padlock-checksums.h),
 * several at once within the job's thread budget, with its progress and
 * cancel.  The job's input is the folder; its output, once done, the
 * list (padlock_job_get_output), and padlock_job_get_list_signature its
 * signature.  NULL and ERROR (a PADLOCK_ERROR, names raw) when FILES
 * cannot be listed: not all in one folder, a folder or a file that is
 * not local among them, a name no list can hold. */
PadlockJob       *padlock_job_new_checksum_list (GFile                 **files,
                                                 guint                   n_files,
                                                 const PadlockJobConfig *config,
                                                 GError                **error);
gboolean          padlock_job_get_makes_list    (PadlockJob       *self);
/* Once such a job is done: the files it listed, with their digests (a
 * maker, padlock-checksums.h: padlock_checksums_listed_line), and the
 * list's signature; NULL before, and for any other job. */
PadlockChecksums *padlock_job_get_listed        (PadlockJob       *self);
GFile            *padlock_job_get_list_signature (PadlockJob      *self);
/* Open Without Saving (issue 38), set before a decryption starts: the
 * plaintext goes into a sealed memory file (padlock-memfd.h) of at most
 * LIMIT octets (padlock_memfd_limit's) instead of a file, and a message
 * whose signature is bad ("the data was altered") fails.  Once done,
 * padlock_job_get_memfd holds it (padlock-viewer.h opens it) and
 * padlock_job_get_output stays NULL.  A plaintext over LIMIT fails the
 * job, saying to save it instead (padlock_memfd_too_large). */
void              padlock_job_set_open_without_saving (PadlockJob *self,
                                                       guint64     limit);
gboolean          padlock_job_get_open_without_saving (PadlockJob *self);
PadlockMemfd     *padlock_job_get_memfd         (PadlockJob       *self);
/* Once its viewer started (padlock-viewer.h): the viewer's name, which
 * the row shows ("Opened in Document Viewer · not saved"); NULL before.
 * Setting it notifies "output". */
const char       *padlock_job_get_opened_in     (PadlockJob       *self);
void              padlock_job_set_opened_in     (PadlockJob       *self,
                                                 const char       *app_name);
/* A failed job goes back to the queue, with a new passphrase; or, for a
 * job with held keys, with none: gpg-agent's pinentry asks again; or,
 * when padlock_job_can_retry_alone, with none. */
void              padlock_job_retry             (PadlockJob       *self,
                                                 PadlockSecret    *secret);
/* Whether JOB can run again without a passphrase (a finished job has
 * none left): it had none, and runs with keys, checks a signature, signs,
 * or encrypts to people only. */
gboolean          padlock_job_can_retry_alone   (PadlockJob       *self);
/* Stops a running job (its partial output goes) or drops a queued one. */
void              padlock_job_cancel            (PadlockJob       *self);

/* For the queue: starts a queued job with a budget of THREADS threads.
 * Watch the state to learn when it ends. */
void              padlock_job_start             (PadlockJob       *self,
                                                 int               threads);

G_END_DECLS
