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

/* Translators: %s is the reason the folder could not be shown. */
#define SHOW_FAILED _("Could not show the file in a file manager: %s")

typedef struct
{
  GtkWidget *widget;
  const char *format;           /* static: what failed, with %s for why */
} Launch;

static void
on_launched (GObject      *object,
             GAsyncResult *result,
             gpointer      user_data)
{
  Launch *launch = user_data;
  g_autoptr(GError) error = NULL;

  if (!g_app_info_launch_default_for_uri_finish (result, &error))
    report_failure (launch->widget, launch->format, error);
  g_object_unref (launch->widget);
  g_free (launch);
}

/* GtkFileLauncher is GTK 4.10; this is the 4.8 way. */
static void
launch_uri (GtkWidget  *widget,
            const char *uri,
            const char *format)
{
  g_autoptr(GdkAppLaunchContext) context =
    gdk_display_get_app_launch_context (gtk_widget_get_display (widget));
  Launch *launch = g_new0 (Launch, 1);

  launch->widget = g_object_ref (widget);
  launch->format = format;
  g_app_info_launch_default_for_uri_async (uri, G_APP_LAUNCH_CONTEXT (context),
                                           NULL, on_launched, launch);
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
      g_autoptr(GFile) parent = g_file_get_parent (show->file);
      g_autofree char *uri = g_file_get_uri (parent ? parent : show->file);

      g_debug ("FileManager1.ShowItems: %s", error->message);
      launch_uri (show->widget, uri, SHOW_FAILED);
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
      g_autoptr(GFile) parent = g_file_get_parent (file);
      g_autofree char *parent_uri = g_file_get_uri (parent);
      launch_uri (widget, parent_uri, SHOW_FAILED);
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
  launch_uri (widget, uri, _("Could not open the file: %s"));
}
