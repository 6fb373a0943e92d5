/* padlock-accessible.c - buttons that a screen reader reads once */
#include "padlock-accessible.h"

#include <string.h>

static GQuark
tidied_quark (void)
{
  static GQuark quark;

  if (!quark)
    quark = g_quark_from_static_string ("padlock-accessible-tidied");
  return quark;
}

static GQuark
kept_quark (void)
{
  static GQuark quark;

  if (!quark)
    quark = g_quark_from_static_string ("padlock-accessible-kept");
  return quark;
}

void
padlock_accessible_keep_name (GtkWidget *button)
{
  g_return_if_fail (GTK_IS_WIDGET (button));
  gtk_accessible_reset_relation (GTK_ACCESSIBLE (button),
                                 GTK_ACCESSIBLE_RELATION_LABELLED_BY);
  g_object_set_qdata (G_OBJECT (button), kept_quark (), GINT_TO_POINTER (1));
}

/* TEXT as shown: "_Cancel" is "Cancel", "a__b" is "a_b". */
static char *
without_mnemonic (const char *text)
{
  GString *out = g_string_new (NULL);

  for (const char *p = text; *p; p++)
    {
      if (*p == '_' && *++p == '\0')
        break;
      g_string_append_c (out, *p);
    }
  return g_string_free (out, FALSE);
}

/* A button whose label has a mnemonic: the label (its mnemonic widget
 * the button, so labelled-by) says it, as shown, and GTK's copy of the
 * raw text goes.  A check button's label is its name alone: it is
 * given as shown. */
static void
tidy_button (GtkWidget *button)
{
  if (g_object_get_qdata (G_OBJECT (button), kept_quark ()))
    return;
  if (GTK_IS_BUTTON (button))
    {
      const char *label = gtk_button_get_label (GTK_BUTTON (button));

      if (label && strchr (label, '_') && gtk_button_get_use_underline (GTK_BUTTON (button))
          && GTK_IS_LABEL (gtk_button_get_child (GTK_BUTTON (button))))
        gtk_accessible_reset_property (GTK_ACCESSIBLE (button),
                                       GTK_ACCESSIBLE_PROPERTY_LABEL);
    }
  else
    {
      const char *label = gtk_check_button_get_label (GTK_CHECK_BUTTON (button));
      g_autofree char *shown = NULL;

      if (!label || !gtk_check_button_get_use_underline (GTK_CHECK_BUTTON (button)))
        return;
      shown = without_mnemonic (label);
      gtk_accessible_update_property (GTK_ACCESSIBLE (button),
                                      GTK_ACCESSIBLE_PROPERTY_LABEL, shown, -1);
    }
}

static void
on_label (GtkWidget *button)
{
  tidy_button (button);
}

void
padlock_accessible_tidy_buttons (GtkWidget *root)
{
  g_return_if_fail (GTK_IS_WIDGET (root));

  if (GTK_IS_BUTTON (root) || GTK_IS_CHECK_BUTTON (root))
    {
      if (!g_object_get_qdata (G_OBJECT (root), tidied_quark ()))
        {
          g_object_set_qdata (G_OBJECT (root), tidied_quark (), GINT_TO_POINTER (1));
          g_signal_connect (root, "notify::label", G_CALLBACK (on_label), NULL);
          g_signal_connect (root, "notify::use-underline", G_CALLBACK (on_label), NULL);
        }
      tidy_button (root);
    }
  for (GtkWidget *child = gtk_widget_get_first_child (root); child;
       child = gtk_widget_get_next_sibling (child))
    padlock_accessible_tidy_buttons (child);
}

static void
on_window_map (GtkWidget *window)
{
  padlock_accessible_tidy_buttons (window);
}

static void
on_toplevels_changed (GListModel *toplevels,
                      guint       position,
                      guint       removed,
                      guint       added)
{
  for (guint i = position; i < position + added; i++)
    {
      g_autoptr(GObject) window = g_list_model_get_item (toplevels, i);

      if (g_object_get_qdata (window, tidied_quark ()))
        continue;
      g_object_set_qdata (window, tidied_quark (), GINT_TO_POINTER (1));
      g_signal_connect (window, "map", G_CALLBACK (on_window_map), NULL);
    }
}

void
padlock_accessible_tidy_windows (void)
{
  GListModel *toplevels = gtk_window_get_toplevels ();
  static gboolean watching;

  if (watching)
    return;
  watching = TRUE;
  g_signal_connect (toplevels, "items-changed", G_CALLBACK (on_toplevels_changed), NULL);
  on_toplevels_changed (toplevels, 0, 0, g_list_model_get_n_items (toplevels));
}
