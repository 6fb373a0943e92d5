/* padlock-window-pages.c - the window's two pages, Files and Keys
 *
 * The Keys page (padlock-keys-page.h) is given the application's
 * keyring when the window is mapped, as the first page's "Create Your
 * Key" asks for it then too (padlock-window-mykey.c): a page that is
 * not shown still speaks to a screen reader, so it must not say "You
 * have no key yet" after the user made one.
 */
#include "padlock-window-private.h"

#include "padlock-lookup-window.h"

static void
give_keyring (PadlockWindow *self)
{
  PadlockKeyring *keyring = padlock_window_keys_get_keyring (self);

  if (keyring)
    padlock_keys_page_set_keyring (self->keys_page, keyring);
}

static void
on_visible_child_changed (PadlockWindow *self)
{
  const char *name = adw_view_stack_get_visible_child_name (self->view_stack);

  if (g_strcmp0 (name, "keys") == 0)
    give_keyring (self);
}

static void
show_files_action (GtkWidget  *widget,
                   const char *action_name,
                   GVariant   *parameter)
{
  PadlockWindow *self = PADLOCK_WINDOW (widget);

  adw_view_stack_set_visible_child_name (self->view_stack, "files");
}

static void
show_keys_action (GtkWidget  *widget,
                  const char *action_name,
                  GVariant   *parameter)
{
  PadlockWindow *self = PADLOCK_WINDOW (widget);

  adw_view_stack_set_visible_child_name (self->view_stack, "keys");
  padlock_keys_page_focus_search (self->keys_page);
}

/* From a warning about a key ("Verify…"): its page, over the Keys page. */
static void
show_person_action (GtkWidget  *widget,
                    const char *action_name,
                    GVariant   *parameter)
{
  PadlockWindow *self = PADLOCK_WINDOW (widget);
  const char *fingerprint = g_variant_get_string (parameter, NULL);

  give_keyring (self);
  if (!padlock_keys_page_show_person (self->keys_page, fingerprint))
    adw_view_stack_set_visible_child_name (self->view_stack, "keys");
}

/* From an unknown signer's row ("Look Up Key…"): the lookup of its
 * fingerprint, with the signed file (a URI) to check again. */
static void
look_up_key_action (GtkWidget  *widget,
                    const char *action_name,
                    GVariant   *parameter)
{
  PadlockWindow *self = PADLOCK_WINDOW (widget);
  PadlockKeyring *keyring = padlock_window_keys_get_keyring (self);
  const char *fingerprint = NULL;
  const char *uri = NULL;
  g_autoptr(GFile) file = NULL;

  g_variant_get (parameter, "(&s&s)", &fingerprint, &uri);
  if (!keyring)
    return;
  file = *uri ? g_file_new_for_uri (uri) : NULL;
  gtk_window_present (GTK_WINDOW (padlock_lookup_window_new (keyring, fingerprint,
                                                             file,
                                                             GTK_WINDOW (self))));
}

void
padlock_window_pages_class_init (GtkWidgetClass *widget_class)
{
  g_type_ensure (PADLOCK_TYPE_KEYS_PAGE);
  gtk_widget_class_bind_template_child (widget_class, PadlockWindow, view_stack);
  gtk_widget_class_bind_template_child (widget_class, PadlockWindow, keys_page);
  gtk_widget_class_install_action (widget_class, "win.show-files", NULL,
                                   show_files_action);
  gtk_widget_class_install_action (widget_class, "win.show-keys", NULL,
                                   show_keys_action);
  gtk_widget_class_install_action (widget_class, "win.show-person", "s",
                                   show_person_action);
  gtk_widget_class_install_action (widget_class, "win.look-up-key", "(ss)",
                                   look_up_key_action);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_1, GDK_ALT_MASK,
                                       "win.show-files", NULL);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_2, GDK_ALT_MASK,
                                       "win.show-keys", NULL);
}

void
padlock_window_init_pages (PadlockWindow *self)
{
  g_signal_connect (self, "map", G_CALLBACK (give_keyring), NULL);
  g_signal_connect_object (self->view_stack, "notify::visible-child-name",
                           G_CALLBACK (on_visible_child_changed), self,
                           G_CONNECT_SWAPPED);
}
