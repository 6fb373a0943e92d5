/* app-testutil.c - helpers shared by the application's tests */
#include "app-testutil.h"
#include "padlock-job-row.h"
#include "padlock-sign-as.h"
#include "padlock-speed-window.h"

#include <string.h>
#include <unistd.h>
#include <glib/gstdio.h>

char *
at_write_random (const char *dir,
                 const char *name,
                 gsize       len)
{
  char *path = g_build_filename (dir, name, NULL);
  g_autoptr(GBytes) data = tu_random_bytes (len);
  g_autoptr(GError) error = NULL;
  guint8 *bytes = g_bytes_unref_to_data (g_steal_pointer (&data), &len);

  /* Never, by chance, the first octet of an OpenPGP packet. */
  if (len)
    bytes[0] &= 0x7f;
  g_file_set_contents (path, (const char *) bytes, (gssize) len, &error);
  g_free (bytes);
  g_assert_no_error (error);
  return path;
}

char *
at_passphrase_file (const char *passphrase)
{
  static guint counter;
  g_autofree char *name = g_strdup_printf ("passphrase-%u", counter++);
  char *path = g_build_filename (tu_tmpdir (), name, NULL);
  g_autoptr(GError) error = NULL;

  g_file_set_contents (path, passphrase, -1, &error);
  g_assert_no_error (error);
  return path;
}

GBytes *
at_gpg_decrypt (const char *path,
                const char *passphrase)
{
  g_autofree char *pw_file = at_passphrase_file (passphrase);
  const char *args[] = { "-d", path, NULL };
  GBytes *out = NULL;

  if (tu_run_gpg (pw_file, args, NULL, &out, NULL) != 0)
    g_clear_pointer (&out, g_bytes_unref);
  return out;
}

void
at_gpg_encrypt (const char *in,
                const char *out,
                const char *passphrase,
                const char *literal_name)
{
  g_autofree char *pw_file = at_passphrase_file (passphrase);
  const char *named[] = { "--set-filename", literal_name, "-o", out,
                          "--symmetric", in, NULL };
  const char *const *args = literal_name ? named : named + 2;

  if (tu_run_gpg (pw_file, args, NULL, NULL, NULL) != 0)
    g_error ("gpg --symmetric %s failed", in);
}

static gboolean
tick_again (gpointer data)
{
  return G_SOURCE_CONTINUE;
}

gboolean
at_wait_until (gboolean (*cond) (gpointer),
               gpointer   data,
               guint      timeout_ms)
{
  gint64 end = g_get_monotonic_time () + timeout_ms * (gint64) 1000;
  gboolean met;
  /* The loop blocks until something happens: a D-Bus call (the screen
   * reader's questions come one at a time, and each waited up to a poll
   * interval for the old 2 ms sleep), an idle that a worker thread adds
   * (which wakes the context), or this tick, for what changes without
   * telling the main loop (a job's state set on its thread, the clock). */
  guint tick = g_timeout_add (5, tick_again, NULL);

  while (!(met = cond (data)) && g_get_monotonic_time () <= end)
    g_main_context_iteration (NULL, TRUE);
  g_source_remove (tick);
  return met;
}

const char *const at_unsafe_names[] = {
  "invoice\u202etxt.exe",       /* right-to-left override (Cf) */
  "a\xc2\x85" "b",             /* C1 controls (Cc) */
  "a\xc2\x9b" "b",
  "\u2066x\u2069.txt",          /* isolates (Cf) */
  "zero\u200bwidth",            /* zero-width space (Cf) */
  "zero\u200dwidth",            /* zero-width joiner (Cf) */
  "a\u2028b",                   /* line separator (Zl) */
  "a\u2029b",                   /* paragraph separator (Zp) */
  "etc\uff0fpasswd",            /* full-width solidus */
  "etc\u2215passwd",            /* division slash */
  "etc\u2044passwd",            /* fraction slash */
  "-rf",
  "~root",
  " leading",
  "trailing ",
  "trailing.",
  "trailing\u00a0",             /* other spaces count too */
  "\u3000leading",
  "../x", "a/b", "a\\b", ".", "..", ".bashrc", "a\nb", "a\x7f",
  NULL
};

gboolean
at_job_is_finished (gpointer job)
{
  return padlock_job_is_finished (job);
}

gboolean
at_job_is_midway (gpointer job)
{
  return padlock_job_get_bytes_done (job) > 0 || padlock_job_is_finished (job);
}

gboolean
at_keyring_loaded (gpointer keyring)
{
  return padlock_keyring_get_state (keyring) != PADLOCK_KEYRING_LOADING;
}

gboolean
at_has_result (gpointer result)
{
  return *(GAsyncResult **) result != NULL;
}

void
at_on_result (GObject      *source,
              GAsyncResult *result,
              gpointer      data)
{
  *(GAsyncResult **) data = g_object_ref (result);
}

PadlockJob *
at_run_job (PadlockQueue     *queue,
            const char       *path,
            PadlockDirection  direction,
            PadlockJobConfig *config,
            const char       *passphrase)
{
  g_autoptr(GFile) file = g_file_new_for_path (path);
  g_autoptr(PadlockSecret) secret = padlock_secret_new (passphrase);
  PadlockJobConfig plain = { 0 };
  PadlockJob *job = padlock_job_new (file, direction,
                                     config ? config : &plain);

  padlock_job_set_secret (job, secret);
  padlock_queue_add (queue, job);
  return job;
}

PadlockJob *
at_new_job (GFile         *file,
            PadlockSecret *secret)
{
  PadlockJobConfig config = { 0 };
  PadlockJob *job = padlock_job_new (file, PADLOCK_DIRECTION_ENCRYPT, &config);

  if (secret)
    padlock_job_set_secret (job, secret);
  return job;
}

void
at_assert_opened (PadlockJob *job,
                  const char *dir,
                  const char *name,
                  const char *text)
{
  g_autofree char *path = g_build_filename (dir, name, NULL);
  g_autofree char *got = NULL;

  g_assert_nonnull (job);
  g_assert_no_error (padlock_job_get_error (job));
  g_assert_cmpint (padlock_job_get_state (job), ==, PADLOCK_JOB_DONE);
  g_assert_true (g_file_get_contents (path, &got, NULL, NULL));
  g_assert_cmpstr (got, ==, text);
}

PadlockKey *
at_key_of (PadlockKeyring *keyring,
           const char     *fpr)
{
  PadlockKey *key = padlock_keyring_find_key (keyring, fpr, FALSE, NULL);

  g_assert_nonnull (key);
  g_assert_cmpstr (padlock_key_get_fingerprint (key), ==, fpr);
  return key;
}

int
at_run_batch (const char        *gnupghome,
              const char *const *args,
              char             **out,
              char             **err_text)
{
  const char *app = g_getenv ("PADLOCK_APP");
  g_autofree char *home = g_strconcat ("GNUPGHOME=", gnupghome, NULL);
  g_autoptr(GPtrArray) argv = g_ptr_array_new ();
  g_autoptr(GBytes) stdout_bytes = NULL;
  int status = -1;

  g_assert_nonnull (app);
  g_ptr_array_add (argv, "env");
  g_ptr_array_add (argv, home);
  g_ptr_array_add (argv, (gpointer) app);
  g_ptr_array_add (argv, "--batch");
  for (; *args; args++)
    g_ptr_array_add (argv, (gpointer) *args);
  g_ptr_array_add (argv, NULL);
  g_assert_true (tu_run ((const char *const *) argv->pdata, NULL,
                         out ? &stdout_bytes : NULL, err_text, &status));
  if (out)
    *out = g_strndup (g_bytes_get_data (stdout_bytes, NULL),
                      g_bytes_get_size (stdout_bytes));
  return status;
}

static gboolean
queue_idle (gpointer data)
{
  PadlockQueue *queue = data;

  return g_list_model_get_n_items (G_LIST_MODEL (queue)) > 0
         && !padlock_queue_get_busy (queue);
}

gboolean
at_wait_queue_idle (PadlockQueue *queue,
                    guint         timeout_ms)
{
  return at_wait_until (queue_idle, queue, timeout_ms);
}

gboolean
at_same_content (const char *a,
                 GBytes     *b)
{
  g_autofree char *data = NULL;
  gsize len = 0;

  if (!b || !g_file_get_contents (a, &data, &len, NULL))
    return FALSE;
  return len == g_bytes_get_size (b)
         && memcmp (data, g_bytes_get_data (b, NULL), len) == 0;
}

static const char notifications_xml[] =
  "<node><interface name='org.freedesktop.Notifications'>"
  " <method name='Notify'>"
  "  <arg type='s' direction='in'/><arg type='u' direction='in'/>"
  "  <arg type='s' direction='in'/><arg type='s' direction='in'/>"
  "  <arg type='s' direction='in'/><arg type='as' direction='in'/>"
  "  <arg type='a{sv}' direction='in'/><arg type='i' direction='in'/>"
  "  <arg type='u' direction='out'/>"
  " </method>"
  " <method name='CloseNotification'><arg type='u' direction='in'/></method>"
  " <method name='GetCapabilities'><arg type='as' direction='out'/></method>"
  " <method name='GetServerInformation'>"
  "  <arg type='s' direction='out'/><arg type='s' direction='out'/>"
  "  <arg type='s' direction='out'/><arg type='s' direction='out'/>"
  " </method>"
  "</interface></node>";

static GPtrArray *notifications;

static void
on_notifications_call (GDBusConnection       *connection,
                       const char            *sender,
                       const char            *path,
                       const char            *interface,
                       const char            *method,
                       GVariant              *parameters,
                       GDBusMethodInvocation *invocation,
                       gpointer               user_data)
{
  if (!g_strcmp0 (method, "Notify"))
    {
      const char *summary = NULL;

      g_variant_get_child (parameters, 3, "&s", &summary);
      g_ptr_array_add (notifications, g_strdup (summary));
      g_dbus_method_invocation_return_value (invocation,
                                             g_variant_new ("(u)", notifications->len));
    }
  else if (!g_strcmp0 (method, "GetCapabilities"))
    g_dbus_method_invocation_return_value (invocation,
                                           g_variant_new_parsed ("(@as [],)"));
  else if (!g_strcmp0 (method, "GetServerInformation"))
    g_dbus_method_invocation_return_value (invocation,
                                           g_variant_new ("(ssss)", "test", "padlock",
                                                          "1", "1.2"));
  else
    g_dbus_method_invocation_return_value (invocation, NULL);
}

static void
serve_notifications (void)
{
  static const GDBusInterfaceVTable vtable = { on_notifications_call };
  /* Kept for the whole run: the name goes with the connection. */
  static GDBusConnection *bus;
  g_autoptr(GDBusNodeInfo) info = g_dbus_node_info_new_for_xml (notifications_xml, NULL);
  g_autoptr(GVariant) reply = NULL;
  g_autoptr(GError) error = NULL;

  notifications = g_ptr_array_new_with_free_func (g_free);
  bus = g_bus_get_sync (G_BUS_TYPE_SESSION, NULL, NULL);
  if (!bus)
    return;
  g_dbus_connection_register_object (bus, "/org/freedesktop/Notifications",
                                     info->interfaces[0], &vtable, NULL, NULL, NULL);
  reply = g_dbus_connection_call_sync (bus, "org.freedesktop.DBus", "/org/freedesktop/DBus",
                                       "org.freedesktop.DBus", "RequestName",
                                       g_variant_new ("(su)", "org.freedesktop.Notifications", 4),
                                       NULL, G_DBUS_CALL_FLAGS_NONE, -1, NULL, &error);
  g_assert_no_error (error);
  g_test_message ("notification stand-in: %s", g_variant_print (reply, FALSE));
}

GPtrArray *
at_notifications (void)
{
  return notifications;
}

PadlockApplication *
at_application (void)
{
  static PadlockApplication *app;
  g_autoptr(GError) error = NULL;

  if (!app)
    {
      /* The application's keyring and agent (a dropped key file, a file
       * for a key) must not be the user's: the tests' own home, whose
       * agent is stopped at exit, unless the test set one. */
      if (!g_getenv ("GNUPGHOME"))
        g_setenv ("GNUPGHOME", tu_gnupg_home (), TRUE);
      serve_notifications ();
      gtk_init ();
      app = padlock_application_new ();
      g_application_register (G_APPLICATION (app), NULL, &error);
      g_assert_no_error (error);
    }
  return app;
}

PadlockWindow *
at_app_window (void)
{
  return padlock_application_get_window (at_application ());
}

PadlockWindow *
at_new_window (void)
{
  PadlockApplication *app = at_application ();
  PadlockWindow *window = padlock_window_new (GTK_APPLICATION (app));

  gtk_window_set_default_size (GTK_WINDOW (window), 640, 560);
  gtk_window_present (GTK_WINDOW (window));
  at_settle (200);
  return window;
}

void
at_drop (PadlockWindow     *window,
         const char *const *paths)
{
  GSList *files = NULL;
  GValue value = G_VALUE_INIT;
  gboolean handled = FALSE;

  for (guint i = 0; paths[i]; i++)
    files = g_slist_append (files, g_file_new_for_path (paths[i]));
  g_value_init (&value, GDK_TYPE_FILE_LIST);
  g_value_take_boxed (&value, gdk_file_list_new_from_list (files));
  g_signal_emit_by_name (window->drop_target, "drop", &value, 10.0, 10.0, &handled);
  g_assert_true (handled);
  g_value_unset (&value);
  g_slist_free_full (files, g_object_unref);
}

static gboolean
has_dialog (gpointer data)
{
  PadlockWindow *window = data;

  return window->dialog != NULL
         && gtk_widget_get_mapped (GTK_WIDGET (window->dialog));
}

PadlockPassphraseDialog *
at_wait_dialog (PadlockWindow *window)
{
  g_assert_true (at_wait_until (has_dialog, window, 10000));
  return window->dialog;
}

static gboolean
has_notice (gpointer data)
{
  return ((PadlockWindow *) data)->last_notice != NULL;
}

const char *
at_wait_notice (PadlockWindow *window)
{
  g_assert_true (at_wait_until (has_notice, window, 10000));
  return window->last_notice;
}

static gboolean
dialog_finished (gpointer data)
{
  return PADLOCK_PASSPHRASE_DIALOG (data)->finished;
}

void
at_answer (PadlockPassphraseDialog *dialog,
           const char              *passphrase)
{
  gtk_editable_set_text (GTK_EDITABLE (dialog->entry), passphrase);
  if (dialog->mode == PADLOCK_PASSPHRASE_ENCRYPT)
    gtk_editable_set_text (GTK_EDITABLE (dialog->confirm_entry), passphrase);
  g_assert_true (gtk_widget_get_sensitive (GTK_WIDGET (dialog->ok_button)));
  g_object_ref (dialog);
  g_assert_true (gtk_widget_activate (GTK_WIDGET (dialog->ok_button)));
  /* A button's activation clicks it after a short visual delay. */
  g_assert_true (at_wait_until (dialog_finished, dialog, 10000));
  g_object_unref (dialog);
}

static gboolean
time_is_up (gpointer data)
{
  return g_get_monotonic_time () >= *(gint64 *) data;
}

void
at_settle (guint ms)
{
  gint64 end = g_get_monotonic_time () + ms * (gint64) 1000;

  at_wait_until (time_is_up, &end, ms + 1000);
}

void
at_close_window (PadlockWindow *window)
{
  gtk_window_destroy (GTK_WINDOW (window));
  at_settle (50);
}

PadlockJob *
at_find_job (PadlockWindow *window,
             const char    *name)
{
  GListModel *model = G_LIST_MODEL (window->queue);
  gboolean by_path = strchr (name, '/') != NULL;

  for (guint i = 0; i < g_list_model_get_n_items (model); i++)
    {
      g_autoptr(PadlockJob) job = g_list_model_get_item (model, i);
      GFile *input = padlock_job_get_input (job);
      g_autofree char *got = by_path ? g_file_get_path (input)
                                     : g_file_get_basename (input);

      if (!g_strcmp0 (got, name))
        return job;             /* the queue keeps it */
    }
  g_error ("no job for %s in the window", name);
}

GtkWidget *
at_find_widget_where (GtkWidget    *root,
                      AtWidgetTest  test,
                      gpointer      data)
{
  if (test (root, data))
    return root;
  for (GtkWidget *child = gtk_widget_get_first_child (root); child;
       child = gtk_widget_get_next_sibling (child))
    {
      GtkWidget *found = at_find_widget_where (child, test, data);

      if (found)
        return found;
    }
  return NULL;
}

static gboolean
is_of_type (GtkWidget *widget,
            gpointer   type)
{
  return G_TYPE_CHECK_INSTANCE_TYPE (widget, (GType) GPOINTER_TO_SIZE (type));
}

GtkWidget *
at_find_widget (GtkWidget *root,
                GType      type)
{
  return at_find_widget_where (root, is_of_type, GSIZE_TO_POINTER (type));
}

/* TEXT as shown: without its mnemonic's underscores. */
static char *
shown (const char *text)
{
  g_autoptr (GString) plain = g_string_new (text);

  g_string_replace (plain, "_", "", 0);
  return g_string_free (g_steal_pointer (&plain), FALSE);
}

typedef struct
{
  const char *text;
  gboolean exact;
} ButtonLabel;

/* A visible button whose label, as shown, is LABEL->text (exact) or
 * starts with it. */
static gboolean
is_button_labelled (GtkWidget *widget,
                    gpointer   data)
{
  const ButtonLabel *wanted = data;
  GtkWidget *label;
  const char *texts[2];

  if (!GTK_IS_BUTTON (widget) || !gtk_widget_is_visible (widget))
    return FALSE;
  label = at_find_widget (widget, GTK_TYPE_LABEL);
  texts[0] = gtk_button_get_label (GTK_BUTTON (widget));
  texts[1] = label ? gtk_label_get_text (GTK_LABEL (label)) : NULL;
  for (guint i = 0; i < G_N_ELEMENTS (texts); i++)
    {
      g_autofree char *seen = texts[i] ? shown (texts[i]) : NULL;

      if (seen && (wanted->exact ? g_str_equal (seen, wanted->text)
                                 : g_str_has_prefix (seen, wanted->text)))
        return TRUE;
    }
  return FALSE;
}

GtkWidget *
at_find_button (GtkWidget  *root,
                const char *text)
{
  ButtonLabel exact = { text, TRUE };
  ButtonLabel prefix = { text, FALSE };
  GtkWidget *button = at_find_widget_where (root, is_button_labelled, &exact);

  return button ? button : at_find_widget_where (root, is_button_labelled, &prefix);
}

static gboolean
has_toplevel (gpointer type)
{
  return at_find_toplevel ((GType) GPOINTER_TO_SIZE (type)) != NULL;
}

GtkWindow *
at_wait_toplevel (GType type,
                  guint timeout_ms)
{
  g_assert_true (at_wait_until (has_toplevel, GSIZE_TO_POINTER (type), timeout_ms));
  return at_find_toplevel (type);
}

typedef struct
{
  GtkWidget *root;
  const char *text;
} ButtonWait;

static gboolean
button_ready (gpointer data)
{
  ButtonWait *wait = data;
  GtkWidget *button = at_find_button (wait->root, wait->text);

  return button && gtk_widget_get_sensitive (button);
}

void
at_click_button (GtkWidget  *root,
                 const char *text,
                 guint       timeout_ms)
{
  ButtonWait wait = { root, text };

  if (!at_wait_until (button_ready, &wait, timeout_ms))
    g_error ("no button \"%s\" to click (%s)", text,
             at_find_button (root, text) ? "not sensitive" : "not shown");
  g_signal_emit_by_name (at_find_button (root, text), "clicked");
}

typedef struct
{
  char *text;
  gboolean done;
} ClipboardRead;

static void
on_clipboard_text (GObject      *source,
                   GAsyncResult *result,
                   gpointer      data)
{
  ClipboardRead *read = data;

  read->text = gdk_clipboard_read_text_finish (GDK_CLIPBOARD (source), result, NULL);
  read->done = TRUE;
}

static gboolean
clipboard_read (gpointer data)
{
  return ((ClipboardRead *) data)->done;
}

char *
at_clipboard_text (GtkWidget *widget)
{
  ClipboardRead read = { NULL, FALSE };

  gdk_clipboard_read_text_async (gtk_widget_get_clipboard (widget), NULL,
                                 on_clipboard_text, &read);
  g_assert_true (at_wait_until (clipboard_read, &read, 120 * 1000));
  return read.text;
}

static gboolean
is_action_row_titled (GtkWidget *widget,
                      gpointer   text)
{
  return ADW_IS_ACTION_ROW (widget)
         && strstr (adw_preferences_row_get_title (ADW_PREFERENCES_ROW (widget)), text);
}

GtkWidget *
at_find_action_row (GtkWidget  *root,
                    const char *text)
{
  return at_find_widget_where (root, is_action_row_titled, (gpointer) text);
}

gboolean
at_speed_done (gpointer speed_window)
{
  return !padlock_speed_window_is_running (speed_window);
}

static void
render_png (GtkWidget  *widget,
            const char *name)
{
  const char *dir = g_getenv ("PADLOCK_SCREENSHOT_DIR");
  g_autofree char *file = g_strconcat (name, ".png", NULL);
  g_autofree char *path = NULL;
  g_autoptr(GdkPaintable) paintable = NULL;
  g_autoptr(GtkSnapshot) snapshot = NULL;
  g_autoptr(GskRenderNode) node = NULL;
  g_autoptr(GdkTexture) texture = NULL;
  GskRenderer *renderer;
  int width, height;

  if (!dir)
    dir = "screenshots";
  g_mkdir_with_parents (dir, 0755);
  path = g_build_filename (dir, file, NULL);

  width = gtk_widget_get_width (widget);
  height = gtk_widget_get_height (widget);
  g_assert_cmpint (width, >, 0);
  g_assert_cmpint (height, >, 0);

  paintable = gtk_widget_paintable_new (widget);
  /* Right after a relayout there may be nothing to draw yet: wait a frame. */
  for (guint attempt = 0; !node && attempt < 50; attempt++)
    {
      if (attempt)
        at_settle (50);
      snapshot = gtk_snapshot_new ();
      gdk_paintable_snapshot (paintable, GDK_SNAPSHOT (snapshot), width, height);
      node = gtk_snapshot_free_to_node (g_steal_pointer (&snapshot));
    }
  if (!node)
    g_test_message ("%s: mapped %d, drawable %d", name, gtk_widget_get_mapped (widget),
                    gtk_widget_is_drawable (widget));
  g_assert_nonnull (node);
  renderer = gtk_native_get_renderer (gtk_widget_get_native (widget));
  texture = gsk_renderer_render_texture (renderer, node,
                                         &GRAPHENE_RECT_INIT (0, 0, width, height));
  g_assert_true (gdk_texture_save_to_png (texture, path));
  g_test_message ("screenshot: %s", path);
}

void
at_screenshot (GtkWidget  *widget,
               const char *name)
{
  at_settle (300);
  render_png (widget, name);
}

struct _AtReader
{
  GSubprocess *process;
  GOutputStream *in;
  GDataInputStream *out;
  GPtrArray *answer;            /* lines so far; NULL-terminated when done */
  gboolean done;
  GError *error;
};

static void read_answer_line (AtReader *reader);

static void
on_answer_line (GObject      *stream,
                GAsyncResult *result,
                gpointer      user_data)
{
  AtReader *reader = user_data;
  char *line = g_data_input_stream_read_line_finish_utf8 (G_DATA_INPUT_STREAM (stream),
                                                         result, NULL, &reader->error);

  if (!line)
    {
      if (!reader->error)
        reader->error = g_error_new_literal (G_IO_ERROR, G_IO_ERROR_CLOSED,
                                             "a11y-reader ended");
      reader->done = TRUE;
      return;
    }
  if (!strcmp (line, "."))
    {
      g_free (line);
      g_ptr_array_add (reader->answer, NULL);
      reader->done = TRUE;
      return;
    }
  g_ptr_array_add (reader->answer, line);
  read_answer_line (reader);
}

static void
read_answer_line (AtReader *reader)
{
  g_data_input_stream_read_line_async (reader->out, G_PRIORITY_DEFAULT, NULL,
                                       on_answer_line, reader);
}

static gboolean
answer_done (gpointer data)
{
  return ((AtReader *) data)->done;
}

GStrv
at_reader_ask (AtReader   *reader,
               const char *command)
{
  g_autofree char *line = g_strconcat (command, "\n", NULL);
  g_autoptr(GError) error = NULL;

  reader->answer = g_ptr_array_new ();
  reader->done = FALSE;
  g_assert_true (g_output_stream_write_all (reader->in, line, strlen (line), NULL,
                                            NULL, &error));
  g_assert_no_error (error);
  read_answer_line (reader);
  /* Generous: each question is many D-Bus calls into this process, on a
   * loaded machine. */
  g_assert_true (at_wait_until (answer_done, reader, 120 * 1000));
  g_assert_no_error (reader->error);
  return (GStrv) g_ptr_array_free (g_steal_pointer (&reader->answer), FALSE);
}

AtReader *
at_reader_new (void)
{
  AtReader *reader = g_new0 (AtReader, 1);
  const char *path = g_getenv ("PADLOCK_A11Y_READER");
  g_autofree char *pid = g_strdup_printf ("%d", (int) getpid ());
  g_autoptr(GError) error = NULL;
  g_auto(GStrv) answer = NULL;
  g_autoptr(GSubprocessLauncher) launcher =
    g_subprocess_launcher_new (G_SUBPROCESS_FLAGS_STDIN_PIPE
                               | G_SUBPROCESS_FLAGS_STDOUT_PIPE);

  g_assert_nonnull (path);
  g_assert_cmpstr (g_getenv ("GTK_A11Y"), ==, "atspi");

  /* libatspi warns of what GTK 4.8 does not offer (its cache): not this
   * test's failure. */
  g_subprocess_launcher_unsetenv (launcher, "G_DEBUG");
  reader->process = g_subprocess_launcher_spawn (launcher, &error, path, pid, NULL);
  g_assert_no_error (error);
  reader->in = g_subprocess_get_stdin_pipe (reader->process);
  reader->out = g_data_input_stream_new (g_subprocess_get_stdout_pipe (reader->process));
  answer = at_reader_ask (reader, "app");
  g_assert_cmpstr (answer[0], ==, "ok");
  return reader;
}

void
at_reader_free (AtReader *reader)
{
  g_output_stream_close (reader->in, NULL, NULL);
  g_subprocess_wait (reader->process, NULL, NULL);
  g_clear_object (&reader->out);
  g_clear_object (&reader->process);
  g_free (reader);
}

char *
at_reader_list (AtReader   *reader,
                const char *role)
{
  g_autofree char *command = g_strconcat ("list ", role, NULL);
  g_auto(GStrv) names = at_reader_ask (reader, command);
  char *text = g_strjoinv ("|", names);

  g_test_message ("%s: %s", role, text);
  return text;
}

char *
at_reader_focus (AtReader *reader)
{
  g_auto(GStrv) answer = at_reader_ask (reader, "focus");

  return g_strdup (answer[0] ? answer[0] : "");
}

typedef struct
{
  AtReader *reader;
  const char *command;
  const char *text;
  gboolean present;             /* waiting for it to come, or to go */
  char *found;
} ReaderWait;

static gboolean
reader_as_wanted (gpointer data)
{
  ReaderWait *wait = data;
  g_auto (GStrv) names = at_reader_ask (wait->reader, wait->command);

  g_clear_pointer (&wait->found, g_free);
  for (guint i = 0; names[i] && !wait->found; i++)
    if (strstr (names[i], wait->text))
      wait->found = g_strdup (names[i]);
  if ((wait->found != NULL) == wait->present)
    return TRUE;
  at_settle (100);
  return FALSE;
}

static char *
reader_wait (AtReader   *reader,
             const char *role,
             const char *text,
             gboolean    present,
             guint       timeout_ms)
{
  g_autofree char *command = g_strconcat ("list ", role, NULL);
  ReaderWait wait = { reader, command, text, present, NULL };

  if (!at_wait_until (reader_as_wanted, &wait, timeout_ms))
    {
      g_autofree char *names = at_reader_list (reader, role);

      g_error ("%s %s with \"%s\" after %u ms in: %s", present ? "no" : "still a",
               role, text, timeout_ms, names);
    }
  return wait.found;
}

typedef struct
{
  AtReader *reader;
  const char *role;
  const char *const *texts;
  char *names;                  /* the last list */
  const char *missing;          /* the first text it did not hold */
} ReaderWaitAll;

static gboolean
reader_has_all (gpointer data)
{
  ReaderWaitAll *wait = data;
  gsize i = 0;

  g_free (wait->names);
  wait->names = at_reader_list (wait->reader, wait->role);
  while (wait->texts[i] && strstr (wait->names, wait->texts[i]))
    i++;
  wait->missing = wait->texts[i];
  if (!wait->missing)
    return TRUE;
  at_settle (100);
  return FALSE;
}

char *
at_reader_wait_for_all (AtReader          *reader,
                        const char        *role,
                        const char *const *texts,
                        guint              timeout_ms)
{
  ReaderWaitAll wait = { reader, role, texts, NULL, NULL };

  if (!at_wait_until (reader_has_all, &wait, timeout_ms))
    g_error ("no %s with \"%s\" after %u ms in: %s", role, wait.missing,
             timeout_ms, wait.names);
  return wait.names;
}

char *
at_reader_wait_for (AtReader   *reader,
                    const char *role,
                    const char *text,
                    guint       timeout_ms)
{
  char *found = reader_wait (reader, role, text, TRUE, timeout_ms);

  g_test_message ("the reader sees: %s", found);
  return found;
}

void
at_reader_wait_gone (AtReader   *reader,
                     const char *role,
                     const char *text,
                     guint       timeout_ms)
{
  g_free (reader_wait (reader, role, text, FALSE, timeout_ms));
}

void
at_reader_key (AtReader   *reader,
               const char *key)
{
  g_autofree char *command = g_strconcat ("key ", key, NULL);
  g_auto(GStrv) answer = at_reader_ask (reader, command);

  g_assert_cmpstr (answer[0], ==, "ok");
  /* The key goes through the X server to the window: let it arrive. */
  at_settle (50);
}

static gboolean
window_active (gpointer data)
{
  return gtk_window_is_active (data);
}

void
at_focus_window (GtkWindow *window)
{
  /* Mapped, GDK's present sets the X input focus on it, for want of a
   * window manager to ask (before, X refuses it). */
  g_assert_true (at_wait_until ((gboolean (*) (gpointer)) gtk_widget_get_mapped,
                                window, 10 * 1000));
  for (guint i = 0; i < 50 && !gtk_window_is_active (window); i++)
    {
      gtk_window_present (window);
      at_wait_until (window_active, window, 200);
    }
  g_assert_true (gtk_window_is_active (window));
}

PadlockSignAs *
at_find_sign_as (GtkWidget *widget)
{
  return (PadlockSignAs *) at_find_widget (widget, PADLOCK_TYPE_SIGN_AS);
}

gboolean
at_sign_as_shown (gpointer data)
{
  PadlockSignAs *sign_as = at_find_sign_as (data);

  return sign_as && gtk_widget_get_visible (GTK_WIDGET (sign_as));
}

static gboolean
keyring_has_loaded (gpointer data)
{
  return *(guint *) data > 0;
}

static void
keyring_count_loaded (PadlockKeyring *keyring, guint *loaded)
{
  (*loaded)++;
}

static gboolean
keyring_is_quiet (gpointer data)
{
  return !padlock_keyring_is_listing (data);
}

void
at_keyring_release (PadlockKeyring **keyring)
{
  /* No main-loop iteration between the check and the unref: a pending
   * reload (the monitor's) goes with the keyring, unstarted. */
  if (*keyring)
    g_assert_true (at_wait_until (keyring_is_quiet, *keyring, 120000));
  g_clear_object (keyring);
}

void
at_wait_keyring_loaded (PadlockKeyring *keyring, guint timeout_ms)
{
  guint loaded = 0;
  gulong handler = g_signal_connect (keyring, "loaded",
                                     G_CALLBACK (keyring_count_loaded), &loaded);

  g_assert_true (at_wait_until (keyring_has_loaded, &loaded, timeout_ms));
  g_signal_handler_disconnect (keyring, handler);
}

static gboolean
is_job_row_of (GtkWidget *widget,
               gpointer   name)
{
  PadlockJob *job;
  g_autofree char *base = NULL;

  if (!PADLOCK_IS_JOB_ROW (widget))
    return FALSE;
  job = padlock_job_row_get_job (PADLOCK_JOB_ROW (widget));
  base = job ? g_file_get_basename (padlock_job_get_input (job)) : NULL;
  return g_strcmp0 (base, name) == 0;
}

PadlockJobRow *
at_find_job_row (GtkWidget *widget, const char *name)
{
  return (PadlockJobRow *) at_find_widget_where (widget, is_job_row_of, (gpointer) name);
}

GtkWindow *
at_find_toplevel (GType type)
{
  GListModel *toplevels = gtk_window_get_toplevels ();  /* GTK's */

  for (guint i = 0; i < g_list_model_get_n_items (toplevels); i++)
    {
      g_autoptr(GtkWindow) window = g_list_model_get_item (toplevels, i);

      if (G_TYPE_CHECK_INSTANCE_TYPE (window, type)
          && gtk_widget_get_visible (GTK_WIDGET (window)))
        return window;          /* GTK keeps it */
    }
  return NULL;
}

AdwMessageDialog *
at_find_message_dialog (void)
{
  return (AdwMessageDialog *) at_find_toplevel (ADW_TYPE_MESSAGE_DIALOG);
}

gboolean
at_has_message_dialog (gpointer data)
{
  return at_find_message_dialog () != NULL;
}

void
at_move_pointer (AtReader *reader, int x, int y)
{
  g_autofree char *command = g_strdup_printf ("mouse %d %d", x, y);
  g_auto(GStrv) answer = at_reader_ask (reader, command);

  g_assert_cmpstr (answer[0], ==, "ok");
  at_settle (300);
}
