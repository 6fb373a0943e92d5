/* padlock-save-as.c - "Save As…" for a file opened without saving */
#include "padlock-save-as.h"

#include <adwaita.h>
#include <glib/gi18n.h>

#include "padlock-memfd.h"
#include "padlock-name.h"

typedef struct
{
  PadlockJob *job;
  GtkWindow *parent;
} SaveAs;

static void
save_as_free (SaveAs *save)
{
  g_object_unref (save->job);
  g_clear_object (&save->parent);
  g_free (save);
}

static void
on_chooser_response (GtkNativeDialog *chooser,
                     int              response,
                     SaveAs          *save)
{
  g_autoptr(GFile) file = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *path = NULL;
  PadlockMemfd *memfd = padlock_job_get_memfd (save->job);

  if (response == GTK_RESPONSE_ACCEPT && memfd)
    {
      file = gtk_file_chooser_get_file (GTK_FILE_CHOOSER (chooser));
      path = file ? g_file_get_path (file) : NULL;
      if (path && !padlock_memfd_save (memfd, path, &error))
        {
          g_autofree char *said = padlock_name_escape (error->message);
          GtkWidget *dialog = adw_message_dialog_new (save->parent,
                                                      _("Not saved"), said);

          adw_message_dialog_add_response (ADW_MESSAGE_DIALOG (dialog),
                                           "close", _("_Close"));
          gtk_window_present (GTK_WINDOW (dialog));
        }
    }
  g_object_unref (chooser);
  save_as_free (save);
}

void
padlock_save_as_run (GtkWidget  *widget,
                     PadlockJob *job)
{
  GtkRoot *root = gtk_widget_get_root (widget);
  GtkFileChooserNative *chooser;
  g_autoptr(GFile) folder = NULL;
  PadlockMemfd *memfd;
  SaveAs *save;

  g_return_if_fail (PADLOCK_IS_JOB (job));
  memfd = padlock_job_get_memfd (job);
  g_return_if_fail (memfd != NULL);
  save = g_new0 (SaveAs, 1);
  save->job = g_object_ref (job);
  if (GTK_IS_WINDOW (root))
    save->parent = g_object_ref (GTK_WINDOW (root));
  chooser = gtk_file_chooser_native_new (_("Save As"), save->parent,
                                         GTK_FILE_CHOOSER_ACTION_SAVE,
                                         _("_Save"), NULL);
  if (padlock_memfd_get_name (memfd))
    gtk_file_chooser_set_current_name (GTK_FILE_CHOOSER (chooser),
                                       padlock_memfd_get_name (memfd));
  folder = g_file_get_parent (padlock_job_get_input (job));
  if (folder)
    gtk_file_chooser_set_current_folder (GTK_FILE_CHOOSER (chooser), folder, NULL);
  g_signal_connect (chooser, "response", G_CALLBACK (on_chooser_response), save);
  gtk_native_dialog_show (GTK_NATIVE_DIALOG (chooser));
}
