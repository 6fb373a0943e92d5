/* padlock-input.c - an input opened once: what it is, and its octets */
#include "padlock-input.h"

#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <unistd.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <glib/gi18n.h>
#include <glib-unix.h>

#include "checksums.h"
#include "streamsource.h"

struct _PadlockInput
{
  gatomicrefcount ref;
  GFile *file;
  int fd;                       /* -1 for a folder */
  struct stat st;
  gboolean folder;
  gboolean stream;
  /* A stream's first octets, once read; a regular file's only sniffed */
  guint8 *prefix;
  gsize prefix_len;
  gboolean prefix_done;
  gboolean ended;               /* the stream ended within the prefix */
  gboolean taken;               /* a stream's source was handed out */
  pl_sniff_result sniff;
  gboolean checksum_text;       /* padlock_input_is_checksum_text */
};

/* Whether the first LEN octets at HEAD of a regular file of SIZE octets
 * named NAME read as a checksum list (core/checksums.h): its whole lines
 * (the last one may be cut by the buffer) hold at least one entry. */
static gboolean
head_is_checksum_text (const guint8 *head,
                       gsize         len,
                       gint64        size,
                       const char   *name)
{
  pl_checksums list;
  gpg_error_t err;

  if ((gint64) len < size)
    {
      const guint8 *lf = memrchr (head, '\n', len);

      if (!lf)
        return FALSE;
      len = (gsize) (lf - head) + 1;
    }
  err = pl_checksums_parse (head, len, name, &list);
  pl_checksums_clear (&list);
  return !err;
}

static void
sniff_regular (PadlockInput *self)
{
  guint8 head[PL_SNIFF_SIZE];
  ssize_t n;

  do
    n = pread (self->fd, head, sizeof head, 0);
  while (n < 0 && errno == EINTR);
  pl_sniff (head, n > 0 ? (size_t) n : 0, self->st.st_size, &self->sniff);
  if (self->sniff.kind == PL_SNIFF_NOT_OPENPGP && n > 0)
    {
      g_autofree char *name = g_file_get_basename (self->file);

      self->checksum_text = head_is_checksum_text (head, (gsize) n,
                                                   self->st.st_size, name);
    }
  self->prefix_done = TRUE;
}

PadlockInput *
padlock_input_open (GFile   *file,
                    GError **error)
{
  g_autofree char *path = NULL;
  PadlockInput *self;
  int fd;

  g_return_val_if_fail (G_IS_FILE (file), NULL);

  path = g_file_get_path (file);
  if (!path)
    {
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_NOT_SUPPORTED,
                   _("Only local files are supported"));
      return NULL;
    }
  /* Not waiting: a FIFO's open would wait for its writer (issue 19). */
  fd = open (path, O_RDONLY | O_CLOEXEC | O_NOCTTY | O_NONBLOCK);
  if (fd < 0)
    {
      int e = errno;
      g_set_error_literal (error, G_IO_ERROR, g_io_error_from_errno (e),
                           g_strerror (e));
      return NULL;
    }
  self = g_new0 (PadlockInput, 1);
  g_atomic_ref_count_init (&self->ref);
  self->file = g_object_ref (file);
  self->fd = fd;
  if (fstat (fd, &self->st))
    memset (&self->st, 0, sizeof self->st);
  if (S_ISDIR (self->st.st_mode))
    {
      /* A folder is read by path, entry by entry (padlock-folder.h). */
      close (fd);
      self->fd = -1;
      self->folder = TRUE;
      self->prefix_done = TRUE;
    }
  else if (S_ISREG (self->st.st_mode))
    {
      fcntl (fd, F_SETFL, fcntl (fd, F_GETFL) & ~O_NONBLOCK);
      sniff_regular (self);
    }
  else
    self->stream = TRUE;
  return self;
}

PadlockInput *
padlock_input_ref (PadlockInput *self)
{
  g_return_val_if_fail (self != NULL, NULL);
  g_atomic_ref_count_inc (&self->ref);
  return self;
}

void
padlock_input_unref (PadlockInput *self)
{
  g_return_if_fail (self != NULL);
  if (!g_atomic_ref_count_dec (&self->ref))
    return;
  if (self->fd >= 0)
    close (self->fd);
  g_object_unref (self->file);
  g_free (self->prefix);
  g_free (self);
}

GFile *
padlock_input_get_file (PadlockInput *self)
{
  g_return_val_if_fail (self != NULL, NULL);
  return self->file;
}

gboolean
padlock_input_is_folder (PadlockInput *self)
{
  g_return_val_if_fail (self != NULL, FALSE);
  return self->folder;
}

gboolean
padlock_input_is_stream (PadlockInput *self)
{
  g_return_val_if_fail (self != NULL, FALSE);
  return self->stream;
}

gint64
padlock_input_get_size (PadlockInput *self)
{
  g_return_val_if_fail (self != NULL, -1);
  return self->folder || self->stream ? -1 : (gint64) self->st.st_size;
}

gint64
padlock_input_get_mtime (PadlockInput *self)
{
  g_return_val_if_fail (self != NULL, 0);
  return (gint64) self->st.st_mtime;
}

gboolean
padlock_input_is_sniffed (PadlockInput *self)
{
  g_return_val_if_fail (self != NULL, FALSE);
  return self->prefix_done;
}

const pl_sniff_result *
padlock_input_get_sniff (PadlockInput *self)
{
  g_return_val_if_fail (self != NULL, NULL);
  return &self->sniff;
}

gboolean
padlock_input_is_checksum_text (PadlockInput *self)
{
  g_return_val_if_fail (self != NULL, FALSE);
  return self->checksum_text;
}

/* One padlock_input_read_prefix_async: its sources, on the main context. */
typedef struct
{
  PadlockInput *input;
  GSource *fd_source;
  GSource *cancel_source;       /* NULL without a cancellable */
} PrefixRead;

static void
prefix_read_free (PrefixRead *read)
{
  padlock_input_unref (read->input);
  g_free (read);
}

/* Ends the read, once: neither source calls again. */
static void
prefix_read_stop (PrefixRead *read)
{
  g_source_destroy (read->fd_source);
  if (read->cancel_source)
    g_source_destroy (read->cancel_source);
}

/* A stream's octets as they come: until the prefix is full or the
 * stream ends.  The descriptor is non-blocking. */
static gboolean
on_prefix_ready (int          fd,
                 GIOCondition condition,
                 gpointer     user_data)
{
  GTask *task = user_data;
  PrefixRead *read_ = g_task_get_task_data (task);
  PadlockInput *self = read_->input;
  ssize_t n = read (fd, self->prefix + self->prefix_len,
                    PL_SNIFF_SIZE - self->prefix_len);

  if (n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK || errno == EINTR))
    return G_SOURCE_CONTINUE;
  if (n < 0)
    {
      int e = errno;
      g_autofree char *name = g_file_get_basename (self->file);

      prefix_read_stop (read_);
      g_task_return_new_error (task, G_IO_ERROR, g_io_error_from_errno (e),
                               "%s: %s", name, g_strerror (e));
      return G_SOURCE_REMOVE;
    }
  self->prefix_len += (gsize) n;
  self->ended = n == 0;
  if (!self->ended && self->prefix_len < PL_SNIFF_SIZE)
    return G_SOURCE_CONTINUE;
  pl_sniff (self->prefix, self->prefix_len,
            self->ended ? (gint64) self->prefix_len : PL_SNIFF_SIZE_UNKNOWN,
            &self->sniff);
  self->prefix_done = TRUE;
  prefix_read_stop (read_);
  g_task_return_boolean (task, TRUE);
  return G_SOURCE_REMOVE;
}

static gboolean
on_prefix_cancelled (GCancellable *cancellable,
                     gpointer      user_data)
{
  GTask *task = user_data;

  prefix_read_stop (g_task_get_task_data (task));
  g_task_return_error_if_cancelled (task);
  return G_SOURCE_REMOVE;
}

void
padlock_input_read_prefix_async (PadlockInput        *self,
                                 GCancellable        *cancellable,
                                 GAsyncReadyCallback  callback,
                                 gpointer             user_data)
{
  g_autoptr(GTask) task = NULL;
  GMainContext *context = g_main_context_get_thread_default ();
  PrefixRead *read;

  g_return_if_fail (self != NULL);

  task = g_task_new (NULL, cancellable, callback, user_data);
  g_task_set_source_tag (task, padlock_input_read_prefix_async);
  read = g_new0 (PrefixRead, 1);
  read->input = padlock_input_ref (self);
  g_task_set_task_data (task, read, (GDestroyNotify) prefix_read_free);
  if (self->prefix_done || !self->stream)
    {
      g_task_return_boolean (task, TRUE);
      return;
    }
  if (!self->prefix)
    self->prefix = g_malloc (PL_SNIFF_SIZE);
  read->fd_source = g_unix_fd_source_new (self->fd,
                                          G_IO_IN | G_IO_HUP | G_IO_ERR);
  g_source_set_callback (read->fd_source, G_SOURCE_FUNC (on_prefix_ready),
                         g_object_ref (task), g_object_unref);
  g_source_attach (read->fd_source, context);
  g_source_unref (read->fd_source);
  if (cancellable)
    {
      read->cancel_source = g_cancellable_source_new (cancellable);
      g_source_set_callback (read->cancel_source,
                             G_SOURCE_FUNC (on_prefix_cancelled),
                             g_object_ref (task), g_object_unref);
      g_source_attach (read->cancel_source, context);
      g_source_unref (read->cancel_source);
    }
}

gboolean
padlock_input_read_prefix_finish (PadlockInput  *self,
                                  GAsyncResult  *result,
                                  GError       **error)
{
  g_return_val_if_fail (g_task_is_valid (result, NULL), FALSE);
  return g_task_propagate_boolean (G_TASK (result), error);
}

gpg_error_t
padlock_input_take_source (PadlockInput      *self,
                           const atomic_int  *cancel,
                           pl_source        **out)
{
  int fd;

  g_return_val_if_fail (self != NULL && out != NULL, gpg_error (GPG_ERR_INV_ARG));

  *out = NULL;
  if (self->folder)
    return gpg_error (GPG_ERR_EISDIR);
  if (self->stream)
    {
      if (self->taken || !self->prefix_done)
        return gpg_error (GPG_ERR_EPIPE);
      self->taken = TRUE;
      *out = pl_source_new_stream (self->fd, FALSE, cancel);
      if (*out)
        *out = pl_source_new_replay (self->prefix, self->prefix_len, *out);
      return *out ? 0 : gpg_error (GPG_ERR_ENOMEM);
    }
  /* A descriptor the source may close; it shares the offset, which goes
   * back to the first octet for each source (a retry's too). */
  fd = fcntl (self->fd, F_DUPFD_CLOEXEC, 0);
  if (fd < 0)
    return pl_error_from_errno (errno);
  if (lseek (fd, 0, SEEK_SET) < 0)
    {
      int e = errno;
      close (fd);
      return pl_error_from_errno (e);
    }
  *out = pl_source_new_fd (fd, TRUE);
  if (!*out)
    {
      close (fd);
      return gpg_error (GPG_ERR_ENOMEM);
    }
  return 0;
}

void
padlock_input_raise_open_files_limit (void)
{
  struct rlimit rl;

  if (getrlimit (RLIMIT_NOFILE, &rl) == 0 && rl.rlim_cur < rl.rlim_max)
    {
      rl.rlim_cur = rl.rlim_max;
      setrlimit (RLIMIT_NOFILE, &rl);
    }
}
