/* padlock-viewer.h - hands a decrypted file held in memory to a viewer
 *
 * Open Without Saving: the plaintext is in a sealed memory file
 * (padlock-memfd.h) and never gets a path on disk.  The viewer is the
 * content type's default application (g_app_info_get_default_for_type),
 * launched with the path /proc/PID/fd/N of Padlock's own descriptor: the
 * viewer opens that path and reads the memory file (the kernel lets a
 * process of the same user do so).  GIO launches it without a "recent
 * files" entry, but the viewer may make its own: Evince 43.1 and Eye of
 * GNOME 43.2 each opened the path, showed the file, and left a thumbnail
 * of it in the thumbnail cache (named by the MD5 of the URI
 * file:///proc/PID/fd/N) and the URI in recently-used.xbel (measured).
 * When the launcher lets go of the memory file it removes both, the
 * thumbnail of every size and every application's failed one; what the
 * viewer writes after that (it still runs, or was started by D-Bus
 * activation) stays.
 *
 * The descriptor must stay open until the viewer has read it: the
 * launcher holds a reference on the memory file until the viewer's
 * process exits and PADLOCK_VIEWER_GRACE_S seconds more (a viewer that
 * hands the file to an instance already running exits at once, and that
 * instance opens the path moments later); an application started by
 * D-Bus activation, whose process Padlock does not see, is held
 * PADLOCK_VIEWER_HOLD_S seconds.  The caller may hold its own reference
 * longer (the window's row does, for "Save As…").
 *
 * The OpenURI portal (org.freedesktop.portal.OpenURI.OpenFile, which takes
 * a descriptor) is asked first when it runs on the session bus; when it
 * refuses (it may not take a memory file, which has no path for its
 * document store) or is absent, the launch above is used.
 */
#pragma once

#include <gio/gio.h>

#include "padlock-memfd.h"

G_BEGIN_DECLS

#define PADLOCK_VIEWER_GRACE_S 5
#define PADLOCK_VIEWER_HOLD_S 60

/* The content type of a plaintext named NAME (the literal packet's, or
 * NULL) whose first octets are DATA (LEN of them; only the first 4 KiB
 * are looked at). */
char     *padlock_viewer_content_type (const char   *name,
                                       const guint8 *data,
                                       gsize         len);

/* Called once the launcher lets go of the memory file. */
typedef void (*PadlockViewerReleased) (gpointer user_data);

/* Opens MEMFD in its content type's viewer.  TRUE and *APP_NAME (the
 * application's display name, "Document Viewer"; the portal's
 * "the application you choose" when it asks) when the viewer was
 * started; RELEASED is then called, on the main context, when the
 * launcher lets go of MEMFD.  FALSE and ERROR when no viewer could be
 * started (RELEASED is not called).  BUS: the session bus for the portal,
 * or NULL not to ask it. */
gboolean  padlock_viewer_open         (PadlockMemfd          *memfd,
                                       GDBusConnection       *bus,
                                       char                 **app_name,
                                       PadlockViewerReleased  released,
                                       gpointer               user_data,
                                       GError               **error);

G_END_DECLS
