/* padlock-viewer.c - hands a decrypted file held in memory to a viewer */
#include "padlock-viewer.h"

#include <sys/types.h>
#include <unistd.h>
#include <glib/gi18n.h>
#include <glib/gstdio.h>
#include <gio/gdesktopappinfo.h>
#include <gio/gunixfdlist.h>

#include "padlock-error.h"

typedef struct
{
  PadlockMemfd *memfd;
  char *uri;                    /* file:///proc/PID/fd/N, or NULL */
  PadlockViewerReleased released;
  gpointer user_data;
  guint timeout_id;
} Hold;

/* URI out of recently-used.xbel, where GtkRecentManager keeps it. */
static void
forget_recent (const char *uri)
{
  g_autofree char *path = g_build_filename (g_get_user_data_dir (),
                                            "recently-used.xbel", NULL);
  g_autoptr(GBookmarkFile) recent = g_bookmark_file_new ();

  if (!g_bookmark_file_load_from_file (recent, path, NULL)
      || !g_bookmark_file_remove_item (recent, uri, NULL))
    return;
  g_bookmark_file_to_file (recent, path, NULL);
}

/* URI's thumbnails: the MD5 of the URI, .png, under each size's folder
 * and each application's under fail/ (freedesktop.org's Thumbnail
 * Managing Standard). */
static void
forget_thumbnails (const char *uri)
{
  static const char *const sizes[] = { "normal", "large", "x-large", "xx-large" };
  g_autofree char *md5 = g_compute_checksum_for_string (G_CHECKSUM_MD5, uri, -1);
  g_autofree char *png = g_strconcat (md5, ".png", NULL);
  g_autofree char *root = g_build_filename (g_get_user_cache_dir (), "thumbnails", NULL);
  g_autofree char *fail = g_build_filename (root, "fail", NULL);
  g_autoptr(GDir) apps = g_dir_open (fail, 0, NULL);
  const char *app;

  for (gsize i = 0; i < G_N_ELEMENTS (sizes); i++)
    {
      g_autofree char *path = g_build_filename (root, sizes[i], png, NULL);

      g_unlink (path);
    }
  while (apps && (app = g_dir_read_name (apps)))
    {
      g_autofree char *path = g_build_filename (fail, app, png, NULL);

      g_unlink (path);
    }
}

static gboolean
on_hold_over (gpointer data)
{
  Hold *hold = data;

  hold->timeout_id = 0;
  if (hold->uri)
    {
      forget_thumbnails (hold->uri);
      forget_recent (hold->uri);
      g_free (hold->uri);
    }
  padlock_memfd_unref (hold->memfd);
  if (hold->released)
    hold->released (hold->user_data);
  g_free (hold);
  return G_SOURCE_REMOVE;
}

static void
on_viewer_exited (GPid     pid,
                  int      status,
                  gpointer data)
{
  Hold *hold = data;

  g_spawn_close_pid (pid);
  g_clear_handle_id (&hold->timeout_id, g_source_remove);
  hold->timeout_id = g_timeout_add_seconds (PADLOCK_VIEWER_GRACE_S,
                                            on_hold_over, hold);
}

static void
on_viewer_pid (GDesktopAppInfo *info,
               GPid             pid,
               gpointer         data)
{
  Hold *hold = data;

  /* Its exit, not the activation's timeout, ends the hold. */
  g_clear_handle_id (&hold->timeout_id, g_source_remove);
  g_child_watch_add (pid, on_viewer_exited, hold);
}

char *
padlock_viewer_content_type (const char   *name,
                             const guint8 *data,
                             gsize         len)
{
  return g_content_type_guess (name, data, MIN (len, 4096), NULL);
}

/* The portal's OpenFile with the descriptor, not asking which
 * application ("ask": false).  FALSE when the portal is absent or
 * refuses. */
static gboolean
open_with_portal (GDBusConnection *bus,
                  PadlockMemfd    *memfd)
{
  g_autoptr(GUnixFDList) fds = g_unix_fd_list_new ();
  g_autoptr(GVariant) reply = NULL;
  g_autoptr(GError) error = NULL;
  GVariantBuilder options;
  int handle;

  handle = g_unix_fd_list_append (fds, padlock_memfd_get_fd (memfd), &error);
  if (handle < 0)
    return FALSE;
  g_variant_builder_init (&options, G_VARIANT_TYPE_VARDICT);
  g_variant_builder_add (&options, "{sv}", "ask", g_variant_new_boolean (FALSE));
  reply = g_dbus_connection_call_with_unix_fd_list_sync (
            bus, "org.freedesktop.portal.Desktop",
            "/org/freedesktop/portal/desktop",
            "org.freedesktop.portal.OpenURI", "OpenFile",
            g_variant_new ("(sha{sv})", "", handle, &options),
            G_VARIANT_TYPE ("(o)"), G_DBUS_CALL_FLAGS_NO_AUTO_START, 10000,
            fds, NULL, NULL, &error);
  if (!reply)
    g_debug ("OpenURI portal: %s", error->message);
  return reply != NULL;
}

/* The default application for TYPE, launched with /proc/PID/fd/N. */
static gboolean
launch_default (PadlockMemfd  *memfd,
                const char    *type,
                Hold          *hold,
                char         **app_name,
                GError       **error)
{
  g_autoptr(GAppInfo) info = g_app_info_get_default_for_type (type, FALSE);
  g_autofree char *path = NULL;
  g_autofree char *uri = NULL;
  GList uris = { 0 };

  if (!info)
    {
      g_autofree char *what = g_content_type_get_description (type);

      g_set_error (error, PADLOCK_ERROR, PADLOCK_ERROR_OTHER,
                   _("No application opens %s files"), what);
      return FALSE;
    }
  path = g_strdup_printf ("/proc/%d/fd/%d", (int) getpid (),
                          padlock_memfd_get_fd (memfd));
  uri = g_filename_to_uri (path, NULL, NULL);
  uris.data = uri;
  hold->uri = g_strdup (uri);
  hold->timeout_id = g_timeout_add_seconds (PADLOCK_VIEWER_HOLD_S,
                                            on_hold_over, hold);
  if (G_IS_DESKTOP_APP_INFO (info)
      ? !g_desktop_app_info_launch_uris_as_manager (
          G_DESKTOP_APP_INFO (info), &uris, NULL,
          G_SPAWN_SEARCH_PATH | G_SPAWN_DO_NOT_REAP_CHILD, NULL, NULL,
          on_viewer_pid, hold, error)
      : !g_app_info_launch_uris (info, &uris, NULL, error))
    {
      g_clear_handle_id (&hold->timeout_id, g_source_remove);
      g_clear_pointer (&hold->uri, g_free);
      return FALSE;
    }
  *app_name = g_strdup (g_app_info_get_display_name (info));
  return TRUE;
}

gboolean
padlock_viewer_open (PadlockMemfd          *memfd,
                     GDBusConnection       *bus,
                     char                 **app_name,
                     PadlockViewerReleased  released,
                     gpointer               user_data,
                     GError               **error)
{
  g_autofree char *type = NULL;
  const guint8 *data;
  gsize size;
  Hold *hold;

  g_return_val_if_fail (memfd != NULL, FALSE);
  data = padlock_memfd_get_data (memfd, &size);
  type = padlock_viewer_content_type (padlock_memfd_get_name (memfd),
                                      data, size);
  hold = g_new0 (Hold, 1);
  hold->memfd = padlock_memfd_ref (memfd);
  hold->released = released;
  hold->user_data = user_data;
  if (bus && open_with_portal (bus, memfd))
    {
      *app_name = g_strdup (_("the application you choose"));
      hold->timeout_id = g_timeout_add_seconds (PADLOCK_VIEWER_HOLD_S,
                                                on_hold_over, hold);
      return TRUE;
    }
  if (launch_default (memfd, type, hold, app_name, error))
    return TRUE;
  padlock_memfd_unref (hold->memfd);
  g_free (hold);
  return FALSE;
}
