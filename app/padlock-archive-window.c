/* padlock-archive-window.c - a folder opened without saving: its files,
 * one of them opened (see the header) */
#include "padlock-archive-window-private.h"

#include <glib/gi18n.h>

#include "padlock-memfd-archive.h"
#include "padlock-name.h"
#include "padlock-viewer.h"

G_DEFINE_FINAL_TYPE (PadlockArchiveWindow, padlock_archive_window,
                     ADW_TYPE_WINDOW)

/* The file a row shows: the row's string is its index in the listing. */
static const pl_tar_entry *
row_entry (PadlockArchiveWindow *self,
           GtkStringObject      *item)
{
  guint64 i = g_ascii_strtoull (gtk_string_object_get_string (item), NULL, 10);

  g_assert (i < self->files.n);
  return &self->files.v[i];
}

/* "4.3 kB · 6 Dec 2026, 17:00", the date in the local time zone. */
static char *
entry_detail (const pl_tar_entry *entry)
{
  g_autofree char *size = g_format_size (entry->size);
  g_autoptr(GDateTime) utc = NULL;
  g_autoptr(GDateTime) local = NULL;
  g_autofree char *date = NULL;

  if (entry->has_mtime)
    utc = g_date_time_new_from_unix_utc (entry->mtime);
  if (utc)
    local = g_date_time_to_local (utc);
  if (local)
    date = g_date_time_format (local, "%-d %b %Y, %H:%M");
  if (!date)
    return g_steal_pointer (&size);
  /* TRANSLATORS: a file's size and date in an archive's list */
  return g_strdup_printf (_("%s · %s"), size, date);
}

static void
on_setup (GtkSignalListItemFactory *factory,
          GtkListItem              *item,
          gpointer                  data)
{
  GtkWidget *box = gtk_box_new (GTK_ORIENTATION_VERTICAL, 2);
  GtkWidget *name = gtk_label_new (NULL);
  GtkWidget *detail = gtk_label_new (NULL);

  gtk_label_set_xalign (GTK_LABEL (name), 0);
  gtk_label_set_ellipsize (GTK_LABEL (name), PANGO_ELLIPSIZE_MIDDLE);
  gtk_label_set_xalign (GTK_LABEL (detail), 0);
  gtk_widget_add_css_class (detail, "dim-label");
  gtk_widget_add_css_class (detail, "caption");
  gtk_widget_set_margin_top (box, 6);
  gtk_widget_set_margin_bottom (box, 6);
  gtk_box_append (GTK_BOX (box), name);
  gtk_box_append (GTK_BOX (box), detail);
  /* The row itself takes the focus and is read as one (its accessible
   * label, in on_bind); Enter reaches the list item's activation. */
  gtk_widget_set_focusable (box, TRUE);
  gtk_list_item_set_child (item, box);
}

static void
on_bind (GtkSignalListItemFactory *factory,
         GtkListItem              *item,
         PadlockArchiveWindow     *self)
{
  const pl_tar_entry *entry = row_entry (self, gtk_list_item_get_item (item));
  GtkWidget *box = gtk_list_item_get_child (item);
  GtkWidget *name = gtk_widget_get_first_child (box);
  GtkWidget *detail = gtk_widget_get_next_sibling (name);
  /* Shown, escaped and isolated; said, only escaped (padlock-name.h). */
  g_autofree char *shown = padlock_name_display (entry->name);
  g_autofree char *said = padlock_name_escape (entry->name);
  g_autofree char *about = entry_detail (entry);
  g_autofree char *whole = g_strdup_printf ("%s, %s", said, about);

  gtk_label_set_text (GTK_LABEL (name), shown);
  gtk_label_set_text (GTK_LABEL (detail), about);
  /* A screen reader hears the row as one: name, size, date. */
  gtk_accessible_update_property (GTK_ACCESSIBLE (box),
                                  GTK_ACCESSIBLE_PROPERTY_LABEL, whole, -1);
}

static void
say (PadlockArchiveWindow *self,
     const char           *text)
{
  gtk_label_set_text (self->status_label, text);
  gtk_widget_set_visible (GTK_WIDGET (self->status_label), TRUE);
}

gboolean
padlock_archive_window_open (PadlockArchiveWindow *self,
                             guint                 position)
{
  g_autoptr(GtkStringObject) item = NULL;
  g_autoptr(PadlockMemfd) opened = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *app = NULL;
  g_autofree char *name = NULL;
  g_autofree char *text = NULL;
  GDBusConnection *bus;
  const pl_tar_entry *entry;

  g_return_val_if_fail (PADLOCK_IS_ARCHIVE_WINDOW (self), FALSE);
  item = g_list_model_get_item (G_LIST_MODEL (self->model), position);
  g_return_val_if_fail (item != NULL, FALSE);
  entry = row_entry (self, item);
  {
    g_autofree char *base = padlock_memfd_archive_basename (entry);

    name = padlock_name_display (base);
  }
  bus = g_application_get_default ()
        ? g_application_get_dbus_connection (g_application_get_default ())
        : NULL;
  opened = padlock_memfd_archive_open (self->archive, entry, self->limit,
                                       &error);
  if (!opened || !padlock_viewer_open (opened, bus, &app, NULL, NULL, &error))
    {
      g_autofree char *why = padlock_name_escape (error->message);

      say (self, why);
      return FALSE;
    }
  {
    g_autofree char *app_shown = padlock_name_display (app);

    text = g_strdup_printf (_("Opened %s in %s · not saved"), name, app_shown);
  }
  say (self, text);
  return TRUE;
}

PadlockMemfd *
padlock_archive_window_get_archive (PadlockArchiveWindow *self)
{
  g_return_val_if_fail (PADLOCK_IS_ARCHIVE_WINDOW (self), NULL);
  return self->archive;
}

static void
on_activate (PadlockArchiveWindow *self,
             guint                 position)
{
  padlock_archive_window_open (self, position);
}

static void
padlock_archive_window_finalize (GObject *object)
{
  PadlockArchiveWindow *self = PADLOCK_ARCHIVE_WINDOW (object);

  pl_tar_listing_clear (&self->files);
  g_clear_pointer (&self->archive, padlock_memfd_unref);
  g_clear_object (&self->model);
  G_OBJECT_CLASS (padlock_archive_window_parent_class)->finalize (object);
}

static void
padlock_archive_window_class_init (PadlockArchiveWindowClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->finalize = padlock_archive_window_finalize;
  gtk_widget_class_set_template_from_resource (widget_class,
      "/io/github/padlock/Padlock/padlock-archive-window.ui");
  gtk_widget_class_bind_template_child (widget_class, PadlockArchiveWindow, title);
  gtk_widget_class_bind_template_child (widget_class, PadlockArchiveWindow, list_view);
  gtk_widget_class_bind_template_child (widget_class, PadlockArchiveWindow, status_label);
  gtk_widget_class_bind_template_callback (widget_class, on_activate);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_Escape, 0,
                                       "window.close", NULL);
}

static void
padlock_archive_window_init (PadlockArchiveWindow *self)
{
  g_autoptr(GtkListItemFactory) factory = gtk_signal_list_item_factory_new ();

  gtk_widget_init_template (GTK_WIDGET (self));
  self->model = gtk_string_list_new (NULL);
  g_signal_connect (factory, "setup", G_CALLBACK (on_setup), NULL);
  g_signal_connect (factory, "bind", G_CALLBACK (on_bind), self);
  gtk_list_view_set_factory (self->list_view, factory);
}

PadlockArchiveWindow *
padlock_archive_window_new (GtkWindow      *parent,
                            const char     *input,
                            PadlockMemfd   *archive,
                            pl_tar_listing *files,
                            guint64         limit)
{
  PadlockArchiveWindow *self;
  g_autoptr(GtkSingleSelection) selection = NULL;
  g_autofree char *shown = NULL;
  g_autofree char *count = NULL;

  g_return_val_if_fail (archive != NULL && files != NULL, NULL);
  self = g_object_new (PADLOCK_TYPE_ARCHIVE_WINDOW,
                       "transient-for", parent,
                       "destroy-with-parent", TRUE, NULL);
  self->archive = padlock_memfd_ref (archive);
  self->files = *files;
  files->v = NULL;
  files->n = 0;
  self->limit = limit;
  for (size_t i = 0; i < self->files.n; i++)
    {
      char index[24];

      g_snprintf (index, sizeof index, "%" G_GSIZE_FORMAT, i);
      gtk_string_list_append (self->model, index);
    }
  selection = gtk_single_selection_new (g_object_ref (G_LIST_MODEL (self->model)));
  gtk_list_view_set_model (self->list_view, GTK_SELECTION_MODEL (selection));
  shown = padlock_name_display (input);
  count = g_strdup_printf (g_dngettext (NULL, "%zu file · not saved",
                                        "%zu files · not saved",
                                        self->files.n), self->files.n);
  gtk_window_set_title (GTK_WINDOW (self), shown);
  adw_window_title_set_title (self->title, shown);
  adw_window_title_set_subtitle (self->title, count);
  return self;
}
