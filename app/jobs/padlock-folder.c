/* padlock-folder.c - folders in jobs (see padlock-folder.h) */
#include "padlock-folder.h"

#include <errno.h>
#include <string.h>
#include <glib/gi18n.h>

#include "errors.h"
#include "padlock-error.h"
#include "padlock-output.h"

/* What a tar entry costs besides its data, on average: a 512-octet header
 * and half a block of padding.  Only for the progress bar. */
#define ENTRY_OVERHEAD 768

void
padlock_folder_status_init (PadlockFolderStatus *status)
{
  memset (status, 0, sizeof *status);
  g_mutex_init (&status->lock);
  status->skipped = g_ptr_array_new_with_free_func (g_free);
}

void
padlock_folder_status_clear (PadlockFolderStatus *status)
{
  g_mutex_clear (&status->lock);
  g_clear_pointer (&status->current, g_free);
  g_clear_pointer (&status->skipped, g_ptr_array_unref);
}

char *
padlock_folder_status_describe (PadlockFolderStatus *status)
{
  char *text = NULL;

  if (atomic_load (&status->counting))
    {
      g_autofree char *n = g_strdup_printf ("%'" G_GUINT64_FORMAT,
                                            (guint64) atomic_load (&status->counted));
      /* Translators: while a folder is scanned; %s is a number. */
      return g_strdup_printf (_("Counting files… %s"), n);
    }
  g_mutex_lock (&status->lock);
  if (status->current)
    text = g_strdup (status->current);
  g_mutex_unlock (&status->lock);
  return text;
}

char *
padlock_folder_status_skipped (PadlockFolderStatus *status)
{
  g_autoptr(GString) text = NULL;

  g_mutex_lock (&status->lock);
  if (status->skipped->len)
    {
      text = g_string_new (NULL);
      g_string_printf (text, g_dngettext (NULL, "Left out %u special file: ",
                                          "Left out %u special files: ",
                                          status->skipped->len),
                       status->skipped->len);
      for (guint i = 0; i < status->skipped->len; i++)
        g_string_append_printf (text, i ? ", %s" : "%s",
                                (char *) g_ptr_array_index (status->skipped, i));
    }
  g_mutex_unlock (&status->lock);
  return text ? g_string_free (g_steal_pointer (&text), FALSE) : NULL;
}

gboolean
padlock_folder_is_folder (GFile *file)
{
  return g_file_query_file_type (file, G_FILE_QUERY_INFO_NONE, NULL)
         == G_FILE_TYPE_DIRECTORY;
}

char *
padlock_folder_items_name (GFile **items,
                           guint   n_items)
{
  g_autoptr(GFile) parent = g_file_get_parent (items[0]);
  g_autofree char *name = parent ? g_file_get_basename (parent) : NULL;

  for (guint i = 1; parent && i < n_items; i++)
    {
      g_autoptr(GFile) other = g_file_get_parent (items[i]);

      if (!other || !g_file_equal (parent, other))
        return g_strdup ("Archive");
    }
  if (!name || !strcmp (name, "/"))
    return g_strdup ("Archive");
  return g_steal_pointer (&name);
}

char *
padlock_folder_archive_name (const char *folder_name)
{
  return g_strconcat (folder_name, ".tar", NULL);
}

static PadlockFolderScanHook scan_hook;
static gpointer scan_hook_data;
static GMutex scan_hook_lock;

void
padlock_folder_set_scan_hook (PadlockFolderScanHook func,
                              gpointer              user_data)
{
  g_mutex_lock (&scan_hook_lock);
  scan_hook = func;
  scan_hook_data = user_data;
  g_mutex_unlock (&scan_hook_lock);
}

static void
on_counting (void *user_data, uint64_t files, uint64_t bytes)
{
  PadlockFolderStatus *status = user_data;
  PadlockFolderScanHook func;
  gpointer data;

  atomic_store (&status->counted, files);
  g_mutex_lock (&scan_hook_lock);
  func = scan_hook;
  data = scan_hook_data;
  g_mutex_unlock (&scan_hook_lock);
  if (func)
    func (files, data);
}

static void
on_reading (void *user_data, const char *name, uint64_t files_done,
            uint64_t bytes_done)
{
  PadlockFolderStatus *status = user_data;

  g_mutex_lock (&status->lock);
  if (g_strcmp0 (status->current, name))
    {
      g_free (status->current);
      status->current = g_strdup (name);
    }
  g_mutex_unlock (&status->lock);
}

static void
on_skipped (void *user_data, const char *name)
{
  PadlockFolderStatus *status = user_data;

  g_mutex_lock (&status->lock);
  g_ptr_array_add (status->skipped, g_strdup (name));
  g_mutex_unlock (&status->lock);
}

gpg_error_t
padlock_folder_source_new (const char *const   *items,
                           guint                n_items,
                           const char          *top,
                           PadlockFolderStatus *status,
                           atomic_int          *cancel,
                           pl_source          **out,
                           gint64              *total)
{
  pl_tar_callbacks cb = {
    .counting = on_counting,
    .reading = on_reading,
    .skipped = on_skipped,
    .user_data = status,
    .cancel = cancel,
  };
  pl_tar_totals totals;
  gpg_error_t err;

  atomic_store (&status->counted, 0);  /* a retry counts afresh */
  atomic_store (&status->counting, 1);
  err = pl_tar_scan_items (items, n_items, &cb, &totals, NULL);
  atomic_store (&status->counting, 0);
  if (err)
    return err;
  *total = (gint64) (totals.bytes + totals.files * ENTRY_OVERHEAD + 1024);
  return pl_tar_source_new_items (items, n_items, top, &cb, out);
}

static gboolean
has_suffix_nocase (const char *name, const char *suffix)
{
  gsize n = strlen (name), k = strlen (suffix);

  return n > k && !g_ascii_strcasecmp (name + n - k, suffix);
}

gboolean
padlock_folder_is_archive_name (const char *input_name)
{
  return has_suffix_nocase (input_name, ".tar.gpg")
         || has_suffix_nocase (input_name, ".tar.pgp")
         || has_suffix_nocase (input_name, ".tar.asc");
}

typedef struct
{
  pl_sink base;
  pl_sink *detector;
  pl_sink *file_sink;           /* owned until the detector takes it */
  gboolean file_sink_given;
  pl_sink *extractor;           /* the detector's, once chosen */
  char *dir;
  char *input_name;
  const pl_literal_header *literal;
} FolderSink;

/* The folder's name: the archive's name less .tar, from the input's name
 * when that says archive, else from the name stored in the message. */
static char *
folder_name (FolderSink *self)
{
  const pl_literal_header *lit = self->literal;
  g_autofree char *stored = NULL;

  if (padlock_folder_is_archive_name (self->input_name))
    return g_strndup (self->input_name, strlen (self->input_name) - 8);
  if (lit && lit->name_len > 4
      && padlock_output_name_is_safe (lit->name, lit->name_len))
    {
      stored = g_strndup (lit->name, lit->name_len);
      if (has_suffix_nocase (stored, ".tar"))
        return g_strndup (stored, strlen (stored) - 4);
    }
  return NULL;
}

static pl_sink *
choose_sink (void *user_data, int is_tar, gpg_error_t *err)
{
  FolderSink *self = user_data;
  g_autofree char *name = is_tar ? folder_name (self) : NULL;
  pl_sink *extractor = NULL;

  if (name && *name)
    {
      *err = pl_tar_extractor_new (self->dir, name, &extractor);
      if (*err)
        return NULL;
      self->extractor = extractor;
      return extractor;
    }
  self->file_sink_given = TRUE;
  return self->file_sink;
}

static gpg_error_t
folder_sink_write (pl_sink *base, const void *buf, size_t len)
{
  FolderSink *self = (FolderSink *) base;
  return self->detector->write (self->detector, buf, len);
}

static gpg_error_t
folder_sink_commit (pl_sink *base)
{
  FolderSink *self = (FolderSink *) base;
  return self->detector->commit (self->detector);
}

static void
folder_sink_abort (pl_sink *base)
{
  FolderSink *self = (FolderSink *) base;
  self->detector->abort (self->detector);
}

static void
folder_sink_free (pl_sink *base)
{
  FolderSink *self = (FolderSink *) base;

  pl_sink_free (self->detector);
  if (!self->file_sink_given)
    pl_sink_free (self->file_sink);
  g_free (self->dir);
  g_free (self->input_name);
  g_free (self);
}

pl_sink *
padlock_folder_sink_new (const char              *dir,
                         const char              *input_name,
                         const pl_literal_header *literal,
                         pl_sink                 *file_sink)
{
  FolderSink *self = g_new0 (FolderSink, 1);

  self->base.write = folder_sink_write;
  self->base.commit = folder_sink_commit;
  self->base.abort = folder_sink_abort;
  self->base.free = folder_sink_free;
  self->file_sink = file_sink;
  self->dir = g_strdup (dir);
  self->input_name = g_strdup (input_name);
  self->literal = literal;
  self->detector = pl_tar_detector_new (choose_sink, self);
  g_assert (self->detector);
  return &self->base;
}

const char *
padlock_folder_sink_get_folder (pl_sink *sink)
{
  FolderSink *self = (FolderSink *) sink;
  return self->extractor ? pl_tar_extractor_path (self->extractor) : NULL;
}

pl_sink *
padlock_folder_sink_get_file_sink (pl_sink *sink)
{
  return ((FolderSink *) sink)->file_sink;
}

static const char *
base_name_of (const char *path)
{
  const char *slash = path ? strrchr (path, '/') : NULL;
  return slash ? slash + 1 : path ? path : "";
}

static GError *
problem_error (pl_tar_problem problem, const char *name, gpg_error_t err)
{
  /* The engine's one table: "The disk is full." and the like. */
  const char *why = _(pl_error_message (err));

  switch (problem)
    {
    case PL_TAR_OK:
      return NULL;
    case PL_TAR_UNREADABLE:
      return g_error_new (PADLOCK_ERROR, PADLOCK_ERROR_FOLDER,
                          _("Could not read %s: %s"), name, why);
    case PL_TAR_CHANGED:
      return g_error_new (PADLOCK_ERROR, PADLOCK_ERROR_FOLDER,
                          _("%s changed while it was being read; nothing "
                            "was written. Try again when it is not in use."),
                          name);
    case PL_TAR_SAME_NAME:
      return g_error_new (PADLOCK_ERROR, PADLOCK_ERROR_FOLDER,
                          _("Two of the items are called “%s”; one archive "
                            "cannot hold both. Rename one, or encrypt them "
                            "separately."), base_name_of (name));
    case PL_TAR_DOTDOT:
    case PL_TAR_ABSOLUTE:
    case PL_TAR_THROUGH_SYMLINK:
    case PL_TAR_HARDLINK_OUTSIDE:
      return g_error_new (PADLOCK_ERROR, PADLOCK_ERROR_FOLDER,
                          _("The archive was not unpacked: “%s” would be "
                            "written outside its folder."), name);
    case PL_TAR_HARDLINK_MISSING:
      return g_error_new (PADLOCK_ERROR, PADLOCK_ERROR_FOLDER,
                          _("The archive was not unpacked: “%s” is a hard "
                            "link to a file that is not in the archive."),
                          name);
    case PL_TAR_DEVICE:
      return g_error_new (PADLOCK_ERROR, PADLOCK_ERROR_FOLDER,
                          _("The archive was not unpacked: “%s” is a device "
                            "or other special file."), name);
    case PL_TAR_SETID:
      return g_error_new (PADLOCK_ERROR, PADLOCK_ERROR_FOLDER,
                          _("The archive was not unpacked: “%s” would run "
                            "with another user’s rights (setuid or setgid)."),
                          name);
    case PL_TAR_DUPLICATE:
      return g_error_new (PADLOCK_ERROR, PADLOCK_ERROR_FOLDER,
                          _("The archive was not unpacked: it holds “%s” "
                            "twice."), name);
    case PL_TAR_DAMAGED:
      return g_error_new (PADLOCK_ERROR, PADLOCK_ERROR_FOLDER,
                          _("The archive inside is damaged or cut short, so "
                            "it was not unpacked."));
    case PL_TAR_WRITE_FAILED:
      return g_error_new (PADLOCK_ERROR, PADLOCK_ERROR_FOLDER,
                          _("Could not unpack “%s”: %s"), name ? name : "",
                          why);
    }
  return NULL;
}

GError *
padlock_folder_error (pl_source   *src,
                      gboolean     is_folder_source,
                      pl_sink     *sink,
                      gboolean     is_folder_sink,
                      gpg_error_t  err)
{
  const char *name = NULL;
  pl_tar_problem problem;

  /* Whatever the archive said, a message that fails its integrity check
   * is reported as that (the engine's words). */
  if (!err || gpg_err_code (err) == GPG_ERR_CANCELED
      || pl_error_outcome (err) == PL_OUTCOME_INTEGRITY)
    return NULL;
  if (src && is_folder_source)
    {
      problem = pl_tar_source_problem (src, &name);
      if (problem != PL_TAR_OK)
        return problem_error (problem, name, err);
    }
  if (sink && is_folder_sink && ((FolderSink *) sink)->extractor)
    {
      problem = pl_tar_extractor_problem (((FolderSink *) sink)->extractor,
                                          &name);
      if (problem != PL_TAR_OK)
        return problem_error (problem, name, err);
    }
  return NULL;
}
