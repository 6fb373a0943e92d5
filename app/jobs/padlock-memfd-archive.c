/* padlock-memfd-archive.c - a folder's archive opened without saving: its
 * files listed from memory, one of them opened (see the header) */
#include "padlock-memfd-archive.h"

#include <glib/gi18n.h>

#include "padlock-error.h"
#include "tar.h"

/* memfd_create takes a name of at most 249 octets. */
#define MEMFD_NAME_MAX 200

gboolean
padlock_memfd_is_archive (PadlockMemfd *memfd)
{
  gsize size;
  const guint8 *data;

  g_return_val_if_fail (memfd != NULL, FALSE);
  data = padlock_memfd_get_data (memfd, &size);
  return pl_tar_header_is_valid (data, size);
}

gboolean
padlock_memfd_archive_list (PadlockMemfd    *memfd,
                            const char      *input,
                            pl_tar_listing  *out,
                            GError         **error)
{
  gsize size;
  const guint8 *data;
  gpg_error_t err;

  g_return_val_if_fail (memfd != NULL && out != NULL, FALSE);
  data = padlock_memfd_get_data (memfd, &size);
  err = pl_tar_list (data, size, out);
  if (!err)
    return TRUE;
  if (gpg_err_code (err) == GPG_ERR_TOO_LARGE)
    g_set_error (error, PADLOCK_ERROR, PADLOCK_ERROR_TOO_COSTLY,
                 _("%s holds more than %u items: decrypt it instead. "
                   "Nothing was opened."), input, PL_TAR_LIST_MAX);
  else if (gpg_err_code (err) == GPG_ERR_INV_DATA)
    g_set_error (error, PADLOCK_ERROR, PADLOCK_ERROR_MALFORMED,
                 _("%s holds a damaged archive. Nothing was opened."), input);
  else
    g_propagate_error (error, padlock_error_from_gpg (err));
  return FALSE;
}

char *
padlock_memfd_archive_basename (const pl_tar_entry *entry)
{
  g_autofree char *trimmed = g_strdup (entry->name);
  gsize len = strlen (trimmed);

  /* "a/b/" is a file's name in no archive, but a name is untrusted. */
  while (len > 1 && trimmed[len - 1] == '/')
    trimmed[--len] = 0;
  return g_path_get_basename (trimmed);
}

PadlockMemfd *
padlock_memfd_archive_open (PadlockMemfd        *memfd,
                            const pl_tar_entry  *entry,
                            guint64              limit,
                            GError             **error)
{
  g_autofree char *name = NULL;
  PadlockMemfd *opened = NULL;
  pl_sink *sink = NULL;
  const guint8 *data;
  gsize size;
  gpg_error_t err;

  g_return_val_if_fail (memfd != NULL && entry != NULL, NULL);
  name = padlock_memfd_archive_basename (entry);
  if (entry->size > limit)
    {
      g_autofree char *why = padlock_memfd_too_large (name, limit);

      g_set_error_literal (error, PADLOCK_ERROR, PADLOCK_ERROR_OTHER, why);
      return NULL;
    }
  data = padlock_memfd_get_data (memfd, &size);
  err = padlock_memfd_sink_new (strlen (name) <= MEMFD_NAME_MAX
                                ? name : "padlock", limit, &sink);
  if (!err)
    err = pl_tar_read_entry (data, size, entry, sink);
  if (!err)
    err = sink->commit (sink);
  if (!err)
    opened = padlock_memfd_sink_take (sink);
  else if (sink)
    sink->abort (sink);
  pl_sink_free (sink);
  if (!opened)
    {
      g_propagate_error (error, padlock_error_from_gpg (
                                  err ? err : gpg_error (GPG_ERR_INTERNAL)));
      return NULL;
    }
  padlock_memfd_set_name (opened, name);
  return opened;
}
