/* padlock-job-private.h - what the job's two halves share
 *
 * padlock-job.c is the GObject on the main context: its properties, the
 * tick that brings them up to what the worker stored, start, cancel and
 * retry.  padlock-job-run.c is what runs on the GTask's thread: the
 * input and the sink, encryption, decryption, and check-and-delete
 * (the output decrypted again before the original goes).
 *
 * The worker reads only the PadlockJobRun it is handed (copied from the
 * job at start) and, of the job, only the fields under "Shared with the
 * worker"; it stores, never notifies.
 */
#pragma once

#include <stdatomic.h>

#include "algo.h"
#include "job.h"
#include "padlock-folder.h"
#include "padlock-agent.h"
#include "padlock-checksums.h"
#include "padlock-held-keys.h"
#include "padlock-key.h"
#include "padlock-memfd.h"
#include "padlock-input.h"
#include "padlock-job.h"
#include "padlock-output.h"
#include "padlock-rate.h"
#include "padlock-recipients.h"

G_BEGIN_DECLS


struct _PadlockJob
{
  GObject parent_instance;

  /* Owned */
  GFile *input;
  PadlockInput *opened;         /* padlock_job_new_for_input's, until the
                                 * job ends; NULL: opened by path */
  GFile *output;
  char *output_name;
  char *hidden_name;            /* with "Hide file names": the output's */
  char *archive_name;           /* a folder's: "NAME.tar" */
  char *archive_top;            /* several items': NAME */
  PadlockJobConfig config;
  PadlockSecret *secret;
  PadlockHeldKeys *held_keys;   /* the user's secret keys, or NULL */
  PadlockRecipients *recipients; /* encryption: the people, or NULL */
  gboolean with_passphrase;     /* a secret was given (it goes at the end) */
  GCancellable *cancellable;    /* cut an agent request (padlock-held-keys.h) */
  GError *error;
  GApplication *app;            /* held while running */

  PadlockDirection direction;
  PadlockJobState state;
  guint64 bytes_done;
  gint64 bytes_total;
  double throughput;
  double time_left;
  gboolean original_deleted;
  /* "Delete the original" was on, and the original was kept: only
   * people (no passphrase) lock the output, so it cannot be read back. */
  gboolean original_kept;
  guint group;                  /* padlock_job_set_group's */
  gboolean is_folder;           /* encrypting a folder */
  GStrv items;                  /* several items in one archive, or NULL */
  char *detail;
  gint64 plaintext_size;        /* decryption: -1 until done */

  guint tick_id;
  gint64 start_time;
  PadlockRate rate;             /* the throughput, as the queue's */
  /* Signatures (padlock-signature.h): the GnuPG home whose keyring
   * verifies them (padlock_job_set_verify_home), and the verdicts. */
  char *verify_home;
  GPtrArray *signatures;
  /* A decryption whose input is cleartext-signed (core/clearsign.h): it
   * checks the signature and writes the text; known from the input's
   * sniff (padlock_job_set_clearsigned), or once the worker has read it. */
  gboolean clearsigned;
  /* Decryptions that check a signature and decrypt nothing (issue 34):
   * a signed message, not encrypted (its data written), and a detached
   * signature, checked over SIGNED_FILE (NULL: the file beside it that
   * its name names; nothing written).  Known from the input's sniff
   * (padlock_job_new_for_input), or once the worker has read it;
   * CHECKS_ONLY: the caller's plan said one of them (or clearsigned),
   * so the job needs no passphrase nor keys. */
  gboolean signed_only;
  gboolean detached;
  GFile *signed_file;
  gboolean checks_only;
  /* A checksum list's check (padlock_job_set_checks_list), and once it
   * ended the files it looked at. */
  gboolean list;
  PadlockChecksums *checksums;
  gboolean output_deleted;      /* padlock_job_delete_output's */
  /* Encryption: signed by SIGN_KEY through SIGN_AGENT
   * (padlock_job_set_signing_key). */
  PadlockKey *sign_key;
  PadlockAgent *sign_agent;
  char *sign_home;
  /* "Make a checksum list" (padlock_job_new_checksum_list): the files'
   * names in the input folder; once done, what was listed and the
   * list's signature. */
  GStrv list_files;
  PadlockChecksums *listed;
  GFile *list_signature;
  /* Open Without Saving (issue 38): the limit (0: the job writes a
   * file), and once done the plaintext in memory. */
  guint64 open_limit;
  PadlockMemfd *memfd;
  char *opened_in;

  /* Shared with the worker */
  PadlockFolderStatus folder_status;
  atomic_int cancel;
  atomic_int phase;             /* 1 while checking the output */
  atomic_uint_fast64_t atomic_done;
  atomic_int_fast64_t atomic_total;
  /* Key derivation (issue 13): whether it runs, since when, and how long
   * it took in all, which the throughput leaves out. */
  atomic_int atomic_deriving;
  atomic_int_fast64_t deriving_since;
  atomic_int_fast64_t derive_us;
  gboolean deriving;
  /* Within it, waiting for the process's key-derivation memory
   * (core/kdf-memory.h): "Waiting for memory…". */
  atomic_int atomic_waiting_for_memory;
  gboolean waiting_for_memory;
  /* "Waiting for the passphrase of …" while the agent's pinentry is up
   * (the worker sets it under the lock; the tick shows it as detail);
   * since when, and how long the waits took in all, which the
   * throughput leaves out as it leaves out key derivation. */
  GMutex waiting_lock;
  char *waiting;
  gint64 waiting_since;
  gint64 wait_us;
};

/* The list padlock_job_new_checksum_list makes, and its hash. */
#define PADLOCK_LIST_NAME "SHA256SUMS"
#define PADLOCK_LIST_ALGO PL_HASH_SHA256

/* Where the worker writes: each kind is made by one function of
 * padlock-job-run.c (job_sink_new), which is where a new kind goes. */
typedef enum
{
  /* The core's transactional file, named by the output plan at commit
   * (padlock_output_sink_new). */
  PADLOCK_JOB_SINK_FILE,
  /* Decryption that may unpack: a tar archive becomes a folder, anything
   * else goes to the file sink (padlock_folder_sink_new). */
  PADLOCK_JOB_SINK_FOLDER,
  /* Nothing is kept: the length and SHA-256 of what passes, to compare
   * (check-and-delete; padlock_digest_sink_new). */
  PADLOCK_JOB_SINK_DIGEST,
  /* Open Without Saving (issue 38): a sealed memory file, never on disk
   * (padlock_memfd_sink_new), at most the run's open_limit octets. */
  PADLOCK_JOB_SINK_MEMFD,
} PadlockJobSinkKind;

/* One run of a job (padlock_job_start makes one each time, a retry
 * too), handed to the job's thread: what it needs, copied so that it
 * never reads the job's fields, and what it produced. */
typedef struct
{
  PadlockDirection direction;
  int profile;
  int cipher_algo;
  int compress_algo;
  gboolean armor;
  gboolean delete_original;
  gboolean allow_expansion;
  int threads;
  char *input_path;
  char *input_name;
  PadlockInput *opened;         /* the job's, or NULL: open input_path */
  PadlockOutputPlan *plan;
  PadlockSecret *secret;        /* may be NULL with HELD_KEYS or RECIPIENTS */
  PadlockHeldKeys *held_keys;   /* decryption: the user's keys, or NULL */
  PadlockRecipients *recipients; /* encryption: the people, or NULL */
  GCancellable *cancellable;    /* the job's, for the agent */
  pl_decrypt_result result;
  char *verify_home;            /* the job's; NULL: every signer unknown */
  GPtrArray *signatures;        /* decryption: PadlockSignature verdicts */
  gboolean clearsigned;         /* result: the input was cleartext-signed
                                 * and verified, its text written */
  char *signed_path;            /* a detached signature's data file, or
                                 * NULL: the one beside it */
  gboolean signed_only;         /* result: a signed message, not
                                 * encrypted, checked and written */
  gboolean detached;            /* result: a detached signature, checked
                                 * over SIGNED_PATH (set then) */
  gboolean list;                /* a checksum list's check; result:
                                 * FALSE when its input was a signature
                                 * whose data is no list (DETACHED then) */
  PadlockChecksums *checksums;  /* result: the list's files, checked */
  PadlockKey *sign_key;         /* encryption: the key that signs, or NULL */
  PadlockAgent *sign_agent;
  char *sign_home;
  GStrv list_files;             /* making a checksum list of these, in
                                 * INPUT_PATH; NULL: not */
  PadlockChecksums *listed;     /* result: the files listed, hashed */
  char *signature_path;         /* result: the list's signature */
  gboolean folder;              /* encrypting a folder as NAME.tar */
  PadlockJobSinkKind sink;      /* the output's: FILE, or FOLDER when a
                                 * decrypted tar may become a folder */
  char *stored_name;            /* in the literal packet */
  GStrv items;                  /* padlock_job_new_archive's */
  char *archive_top;            /* their archive's name, less .tar */
  guint64 open_limit;           /* PADLOCK_JOB_SINK_MEMFD's */
  /* Results */
  PadlockMemfd *memfd;          /* PADLOCK_JOB_SINK_MEMFD: the plaintext */
  char *output_path;
  gboolean original_deleted;
  gint64 plaintext_size;        /* decryption: the output's size */
} PadlockJobRun;

/* A GDestroyNotify for the task's data. */
void padlock_job_run_free    (gpointer      data);
/* The GTaskThreadFunc of a job's run: SOURCE_OBJECT the PadlockJob,
 * TASK_DATA its PadlockJobRun.  Encrypts, decrypts or signs as the run's
 * direction says, fills in the run's results and returns a boolean or
 * the error. */
void padlock_job_run_worker (GTask        *task,
                             gpointer      source_object,
                             gpointer      task_data,
                             GCancellable *cancellable);

G_END_DECLS
