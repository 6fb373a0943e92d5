/* padlock-window-open.c - the window's Open Without Saving (issue 38)
 *
 * `padlock --open FILE.gpg`, the file managers' "Open Without Saving with
 * Padlock" and the passphrase dialog's choice come here: the files go
 * the way every decryption goes (padlock_window_add_files: the plan, the
 * user's keys or the passphrase dialog), remembered as to be opened.
 * Their jobs, as the queue gets them and before they start, decrypt into
 * memory (padlock_job_set_open_without_saving); a done one is handed to
 * its viewer (padlock-viewer.h) and its row says "Opened in … · not
 * saved".  The job holds the plaintext until its row is cleared or
 * Padlock quits, for "Save As…"; the viewer's launch holds it as long as
 * the viewer needs it.  A folder's message (a tar archive inside) opens a
 * list of its files instead (padlock-archive-window.h), from which one
 * file at a time goes to its viewer.
 */
#include "padlock-window-private.h"

#include <glib/gi18n.h>

#include "padlock-archive-window.h"
#include "padlock-memfd.h"
#include "padlock-memfd-archive.h"
#include "padlock-name.h"
#include "padlock-viewer.h"

void
padlock_window_open_without_saving (PadlockWindow  *self,
                                    GFile         **files,
                                    guint           n_files)
{
  g_return_if_fail (PADLOCK_IS_WINDOW (self));

  if (!self->open_pending)
    self->open_pending = g_hash_table_new_full (g_file_hash,
                                                (GEqualFunc) g_file_equal,
                                                g_object_unref, NULL);
  for (guint i = 0; i < n_files; i++)
    g_hash_table_add (self->open_pending, g_object_ref (files[i]));
  padlock_window_add_files (self, files, n_files, PADLOCK_OPEN_DECRYPT);
}

/* The memory a plaintext opened without saving may take. */
static guint64
open_limit (PadlockWindow *self)
{
  return padlock_memfd_limit (g_settings_get_uint64 (self->settings,
                                                     "open-memory-limit"),
                              padlock_memfd_available ());
}

void
_padlock_window_open_mark (PadlockWindow *self,
                           PadlockJob    *job)
{
  if (!self->open_pending
      || padlock_job_get_direction (job) != PADLOCK_DIRECTION_DECRYPT
      || padlock_job_get_state (job) != PADLOCK_JOB_QUEUED
      || !g_hash_table_remove (self->open_pending, padlock_job_get_input (job)))
    return;
  padlock_job_set_open_without_saving (job, open_limit (self));
}

/* A folder's message: the list of its files, from which one is opened.
 * A damaged archive (authenticated, yet not a readable tar) or one of
 * too many items lists nothing, and a toast says so. */
static void
open_archive (PadlockWindow *self,
              PadlockJob    *job)
{
  PadlockMemfd *memfd = padlock_job_get_memfd (job);
  g_autofree char *input = g_file_get_basename (padlock_job_get_input (job));
  g_autoptr(GError) error = NULL;
  pl_tar_listing files = { NULL, 0 };
  PadlockArchiveWindow *list;
  g_autoptr(GList) windows = gtk_window_list_toplevels ();

  /* Its list open already: brought to the front, not opened twice. */
  for (GList *l = windows; l; l = l->next)
    if (PADLOCK_IS_ARCHIVE_WINDOW (l->data)
        && padlock_archive_window_get_archive (l->data) == memfd)
      {
        gtk_window_present (l->data);
        return;
      }
  if (!padlock_memfd_archive_list (memfd, input, &files, &error))
    {
      g_autofree char *said = padlock_name_escape (error->message);

      pl_tar_listing_clear (&files);
      padlock_window_notice (self, said);
      return;
    }
  list = padlock_archive_window_new (GTK_WINDOW (self), input, memfd, &files,
                                     open_limit (self));
  gtk_window_present (GTK_WINDOW (list));
  padlock_job_set_opened_in (job, _("a list of its files"));
}

void
_padlock_window_open_job_done (PadlockWindow *self,
                               PadlockJob    *job)
{
  GDBusConnection *bus = g_application_get_dbus_connection (
                           g_application_get_default ());
  g_autoptr(GError) error = NULL;
  g_autofree char *app = NULL;

  if (padlock_job_get_state (job) != PADLOCK_JOB_DONE
      || !padlock_job_get_memfd (job) || padlock_job_get_opened_in (job))
    return;
  if (padlock_memfd_is_archive (padlock_job_get_memfd (job)))
    {
      open_archive (self, job);
      return;
    }
  if (!padlock_viewer_open (padlock_job_get_memfd (job), bus, &app,
                            NULL, NULL, &error))
    {
      g_autofree char *said = padlock_name_escape (error->message);

      /* Not adw_toast_new's title, which is markup: a file name's "&"
       * or "<" would break it. */
      padlock_window_notice (self, said);
      return;
    }
  padlock_job_set_opened_in (job, app);
}

/* win.show-archive: PARAMETER is the input's path; the newest job of it
 * that holds a folder's archive in memory shows its list again. */
static void
show_archive_action (GtkWidget  *widget,
                     const char *action_name,
                     GVariant   *parameter)
{
  PadlockWindow *self = PADLOCK_WINDOW (widget);
  g_autoptr(GFile) input = g_file_new_for_path (g_variant_get_string (parameter,
                                                                      NULL));
  GListModel *jobs = G_LIST_MODEL (self->queue);

  for (guint i = g_list_model_get_n_items (jobs); i-- > 0;)
    {
      g_autoptr(PadlockJob) job = g_list_model_get_item (jobs, i);
      PadlockMemfd *memfd = padlock_job_get_memfd (job);

      if (memfd && padlock_memfd_is_archive (memfd)
          && g_file_equal (padlock_job_get_input (job), input))
        {
          open_archive (self, job);
          return;
        }
    }
}

void
_padlock_window_open_class_init (GtkWidgetClass *widget_class)
{
  gtk_widget_class_install_action (widget_class, "win.show-archive", "s",
                                   show_archive_action);
}
