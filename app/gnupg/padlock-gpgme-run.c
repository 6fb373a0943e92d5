/* padlock-gpgme-run.c - one started GPGME operation, run to its end on
 * the calling thread's own loop */
#include "padlock-gpgme-run.h"

#include <errno.h>
#include <poll.h>

/* One pipe GPGME asked to be watched: FNC (FNC_DATA, FD) when FD is
 * ready, for reading when DIR is 1, for writing when 0.  The tag GPGME
 * removes it by. */
typedef struct
{
  int            fd;
  int            dir;
  gpgme_io_cb_t  fnc;
  void          *fnc_data;
  gboolean       removed;
} Watch;

static gpgme_error_t
add_watch (void *data, int fd, int dir, gpgme_io_cb_t fnc, void *fnc_data,
           void **tag)
{
  PadlockGpgmeRun *run = data;
  Watch *watch = g_new0 (Watch, 1);

  watch->fd = fd;
  watch->dir = dir;
  watch->fnc = fnc;
  watch->fnc_data = fnc_data;
  /* Freed by finish, never here: GPGME may remove a watch from inside
   * another's callback, while the loop still walks them. */
  g_ptr_array_add (run->watches, watch);
  *tag = watch;
  return 0;
}

static void
remove_watch (void *tag)
{
  ((Watch *) tag)->removed = TRUE;
}

static void
on_event (void *data, gpgme_event_io_t type, void *type_data)
{
  PadlockGpgmeRun *run = data;
  struct gpgme_io_event_done_data *done = type_data;

  /* A cancel after an operation's error (finish closing what it left
   * open) says DONE again: the first one is the result. */
  if (type != GPGME_EVENT_DONE || run->done)
    return;
  run->done = TRUE;
  if (done)
    {
      run->err = done->err;
      run->op_err = done->op_err;
    }
}

void
_padlock_gpgme_run_prepare (PadlockGpgmeRun *run, gpgme_ctx_t ctx)
{
  struct gpgme_io_cbs cbs = {
    .add = add_watch, .add_priv = run, .remove = remove_watch,
    .event = on_event, .event_priv = run,
  };

  *run = (PadlockGpgmeRun) {
    .ctx = ctx, .watches = g_ptr_array_new_with_free_func (g_free),
  };
  gpgme_set_io_cbs (ctx, &cbs);
}

static gboolean
has_open_watch (PadlockGpgmeRun *run)
{
  for (guint i = 0; i < run->watches->len; i++)
    if (!((Watch *) run->watches->pdata[i])->removed)
      return TRUE;
  return FALSE;
}

/* One poll of RUN's open pipes and CANCEL (fd -1: none), and the
 * callbacks of those ready: *ERR set when poll failed, *CANCELLED when
 * CANCEL is readable. */
static void
poll_once (PadlockGpgmeRun *run, int cancel, GArray *fds, GPtrArray *polled,
           gboolean *cancelled, gpgme_error_t *err)
{
  g_array_set_size (fds, 0);
  g_ptr_array_set_size (polled, 0);
  for (guint i = 0; i < run->watches->len; i++)
    {
      Watch *watch = run->watches->pdata[i];
      struct pollfd pfd = { watch->fd, watch->dir ? POLLIN : POLLOUT, 0 };

      if (watch->removed)
        continue;
      g_array_append_val (fds, pfd);
      g_ptr_array_add (polled, watch);
    }
  if (cancel >= 0)
    {
      struct pollfd pfd = { cancel, POLLIN, 0 };

      g_array_append_val (fds, pfd);
    }
  if (poll ((struct pollfd *) fds->data, fds->len, -1) < 0)
    {
      if (errno != EINTR)
        *err = gpg_error_from_syserror ();
      return;
    }
  if (cancel >= 0 && g_array_index (fds, struct pollfd, fds->len - 1).revents)
    *cancelled = TRUE;
  for (guint i = 0; i < polled->len; i++)
    {
      Watch *watch = polled->pdata[i];

      /* A hang-up or error is the callback's to read (EOF, or the error
       * that ends the operation). An earlier callback may have removed
       * this one. */
      if (g_array_index (fds, struct pollfd, i).revents && !watch->removed)
        watch->fnc (watch->fnc_data, watch->fd);
    }
}

gpgme_error_t
_padlock_gpgme_run_finish (PadlockGpgmeRun *run, gpgme_error_t err,
                           GCancellable *cancellable)
{
  g_autoptr (GArray) fds = g_array_new (FALSE, FALSE, sizeof (struct pollfd));
  g_autoptr (GPtrArray) polled = g_ptr_array_new ();
  gboolean cancelled = FALSE;
  int cancel = g_cancellable_get_fd (cancellable);

  /* GPGME says DONE once the last pipe is closed; a run with no pipe
   * open and no DONE would wait for ever, so it ends as an error. */
  while (!err && !run->done && !cancelled)
    {
      if (g_cancellable_is_cancelled (cancellable))
        cancelled = TRUE;
      else if (!has_open_watch (run))
        err = gpg_error (GPG_ERR_INTERNAL);
      else
        poll_once (run, cancel, fds, polled, &cancelled, &err);
    }
  if (cancel >= 0)
    g_cancellable_release_fd (cancellable);
  /* A cancel, a failed start or poll, or an operation's error (GPGME
   * says DONE with it and leaves the pipes open): gpgme_cancel closes
   * them, while the callbacks that remove them are still set. */
  if (has_open_watch (run))
    gpgme_cancel (run->ctx);
  gpgme_set_io_cbs (run->ctx, NULL);
  g_clear_pointer (&run->watches, g_ptr_array_unref);
  if (err)
    return err;
  /* Done in the same poll as the cancel came: gpg finished first. */
  if (run->done && !run->err && !run->op_err)
    return 0;
  if (cancelled)
    return gpg_error (GPG_ERR_CANCELED);
  return run->err ? run->err : run->op_err;
}
