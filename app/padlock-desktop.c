/* padlock-desktop.c - handing a file over to the rest of the desktop */
#include "padlock-desktop.h"

#include <glib/gi18n.h>

#include "padlock-name.h"

/* Failures are said where the user looks: the window's "win.notice"
 * action shows them as a toast. */
static void
report_failure (GtkWidget    *widget,
                const char   *format,
                const GError *error)
{
  /* The reason may quote the file's path. */
  g_autofree char *reason = padlock_name_escape (error->message);
  g_autofree char *text = g_strdup_printf (format, reason);

  g_message ("%s", text);
  gtk_widget_activate_action (widget, "win.notice", "s", text);
}

typedef struct
{
  GtkWidget *widget;
  const char *format;           /* static: what failed, with %s for why */
  char *instead;                /* or what to say, whatever the reason */
} Launch;

static void
on_launched (GObject      *object,
             GAsyncResult *result,
             gpointer      user_data)
{
  Launch *launch = user_data;
  g_autoptr(GError) error = NULL;

  if (!g_app_info_launch_default_for_uri_finish (result, &error))
    {
      if (launch->instead)
        {
          g_message ("%s (%s)", launch->instead, error->message);
          gtk_widget_activate_action (launch->widget, "win.notice", "s", launch->instead);
        }
      else
        report_failure (launch->widget, launch->format, error);
    }
  g_object_unref (launch->widget);
  g_free (launch->instead);
  g_free (launch);
}

/* GtkFileLauncher is GTK 4.10; this is the 4.8 way. */
static void
launch_uri (GtkWidget  *widget,
            const char *uri,
            const char *format,
            char       *instead)
{
  g_autoptr(GdkAppLaunchContext) context =
    gdk_display_get_app_launch_context (gtk_widget_get_display (widget));
  Launch *launch = g_new0 (Launch, 1);

  launch->widget = g_object_ref (widget);
  launch->format = format;
  launch->instead = instead;
  g_app_info_launch_default_for_uri_async (uri, G_APP_LAUNCH_CONTEXT (context),
                                           NULL, on_launched, launch);
}

/* No FileManager1: the folder opened, or failing that, where the file is
 * in plain words (not GIO's "Failed to find default application for
 * content type 'inode/directory'"). */
static void
show_folder (GtkWidget *widget,
             GFile     *file)
{
  g_autoptr(GFile) parent = g_file_get_parent (file);
  GFile *folder = parent ? parent : file;
  g_autofree char *uri = g_file_get_uri (folder);
  g_autofree char *path = g_file_get_path (folder);
  g_autofree char *where = padlock_name_display (path ? path : uri);

  /* Translators: %s is a folder, "/home/ada/Documents". */
  launch_uri (widget, uri, NULL,
              g_strdup_printf (_("No file manager could show the file. It is in %s"), where));
}

typedef struct
{
  GtkWidget *widget;
  GFile *file;
} ShowItems;

static void
on_show_items (GObject      *object,
               GAsyncResult *result,
               gpointer      user_data)
{
  ShowItems *show = user_data;
  g_autoptr(GVariant) reply = NULL;
  g_autoptr(GError) error = NULL;

  reply = g_dbus_connection_call_finish (G_DBUS_CONNECTION (object), result,
                                         &error);
  if (!reply)
    {
      g_debug ("FileManager1.ShowItems: %s", error->message);
      show_folder (show->widget, show->file);
    }
  g_object_unref (show->widget);
  g_object_unref (show->file);
  g_free (show);
}

void
padlock_show_in_files (GtkWidget *widget,
                       GFile     *file)
{
  GApplication *app;
  GDBusConnection *bus;
  g_autofree char *uri = NULL;
  const char *uris[2];
  ShowItems *show;

  g_return_if_fail (GTK_IS_WIDGET (widget));
  g_return_if_fail (G_IS_FILE (file));

  uri = g_file_get_uri (file);
  app = g_application_get_default ();
  bus = app ? g_application_get_dbus_connection (app) : NULL;
  if (!bus)
    {
      show_folder (widget, file);
      return;
    }
  uris[0] = uri;
  uris[1] = NULL;
  show = g_new0 (ShowItems, 1);
  show->widget = g_object_ref (widget);
  show->file = g_object_ref (file);
  g_dbus_connection_call (bus,
                          "org.freedesktop.FileManager1",
                          "/org/freedesktop/FileManager1",
                          "org.freedesktop.FileManager1",
                          "ShowItems",
                          g_variant_new ("(^ass)", uris, ""),
                          NULL, G_DBUS_CALL_FLAGS_NONE, -1, NULL,
                          on_show_items, show);
}

void
padlock_open_file (GtkWidget *widget,
                   GFile     *file)
{
  g_autofree char *uri = NULL;

  g_return_if_fail (GTK_IS_WIDGET (widget));
  g_return_if_fail (G_IS_FILE (file));

  uri = g_file_get_uri (file);
  /* Translators: %s is the reason, such as "No application is
   * registered as handling this file". */
  launch_uri (widget, uri, _("Could not open the file: %s"), NULL);
}
