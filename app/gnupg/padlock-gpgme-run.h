/* padlock-gpgme-run.h - one started GPGME operation, run to its end on
 * the calling thread's own loop
 *
 * Why not gpgme_wait.  An operation begun with gpgme_op_*_start and no
 * I/O callbacks joins GPGME's global event loop: one list of every
 * context's pipes, served by whichever thread calls gpgme_wait, which
 * "only one thread should ever call at any time" (GPGME manual,
 * Waiting For Completion).  Padlock runs its operations on several
 * threads at once.  And a context cancelled there (gpgme_cancel) stays
 * on the loop's list of finished contexts after gpgme_release: the
 * next context that malloc places at the same address then "finishes"
 * at once, cancelled.  Seen as /mykey/export failing with "Cancelled"
 * right after /mykey/create-refused (4 runs in 32, eight suites at
 * once): its gpg was abandoned and died at its first status line.
 *
 * So each operation has a loop of its own, through GPGME's I/O
 * callbacks (gpgme_set_io_cbs): nothing global, nothing another thread
 * serves.
 *
 *   PadlockGpgmeRun run;
 *
 *   _padlock_gpgme_run_prepare (&run, ctx);
 *   err = gpgme_op_genkey_start (ctx, ...);
 *   err = _padlock_gpgme_run_finish (&run, err, cancellable);
 *
 * prepare points CTX's callbacks at RUN (before the start, which
 * registers gpg's pipes).  finish, always called after it, polls those
 * pipes and CANCELLABLE on this thread until gpg is done, and hands CTX
 * back without callbacks: its next keylist or synchronous operation
 * uses GPGME's private loop as before.  RUN lives on the caller's stack
 * between the two; it holds nothing after finish.
 *
 * Cancelling CANCELLABLE (from any thread) wakes the poll at once, and
 * finish stops the operation with gpgme_cancel, which closes gpg's
 * pipes: gpg stops at its next status line, or, while the agent's
 * pinentry is up, when the pinentry returns.  finish then returns
 * GPG_ERR_CANCELED, unless gpg had finished first.
 */
#pragma once

#include <gio/gio.h>
#include <gpgme.h>

G_BEGIN_DECLS

typedef struct
{
  gpgme_ctx_t   ctx;
  GPtrArray    *watches;   /* one per pipe GPGME registered; removed ones
                              stay until finish */
  gboolean      done;      /* GPGME_EVENT_DONE came: the first one's */
  gpgme_error_t err;       /* errors are the result */
  gpgme_error_t op_err;
} PadlockGpgmeRun;

/* Makes RUN the loop of CTX's next operation; start it next. */
void          _padlock_gpgme_run_prepare (PadlockGpgmeRun *run,
                                          gpgme_ctx_t      ctx);

/* Runs the operation to its end (START_ERR: what gpgme_op_*_start
 * returned; when set, nothing runs and any pipe left is closed) and
 * returns its error: START_ERR, GPG_ERR_CANCELED, a poll failure's, or
 * GPGME's (its error, else the operation's).  CTX then has no I/O
 * callbacks and no open pipe. */
gpgme_error_t _padlock_gpgme_run_finish  (PadlockGpgmeRun *run,
                                          gpgme_error_t    start_err,
                                          GCancellable    *cancellable);

G_END_DECLS
