/* a11y-reader.c - what a screen reader sees of one application, over
 * AT-SPI: a helper that the UI tests start beside their window.
 *
 * Usage: a11y-reader PID.  It reads commands on stdin, one a line, and
 * answers each with zero or more lines and then a line holding only ".":
 *
 *   app            "ok" once the application with process id PID is on
 *                  the accessibility bus (waits up to 20 s), else "none"
 *   focus          "ROLE<TAB>NAME" of the object with the focused state:
 *                  the one that last said it took the focus, as a screen
 *                  reader follows it (object:state-changed:focused), when
 *                  it still has that state; else the first one found
 *                  walking the tree (a walk over a window of 200 rows is
 *                  thousands of D-Bus calls: 7-17 s under load)
 *   key KEY        presses and releases KEY (Tab, ISO_Left_Tab, Up, Down,
 *                  Home, End, Return, space, Delete, Escape, 1, 2, v), as a
 *                  keyboard does (the registry daemon's XTest on X11):
 *                  "ok"; "Alt+KEY" with Alt held (locked around it),
 *                  "Control+KEY" with Control ("Control+v")
 *   type TEXT      types TEXT (letters, digits, "@" and "."), key by key,
 *                  the same way: "ok"
 *   list ROLE      "NAME" of every visible object of ROLE ("button",
 *                  "label", ...), in tree order; for a label, its text
 *   describe ROLE  "NAME<TAB>DESCRIPTION" of every visible object of ROLE
 *   mouse X Y      moves the pointer to X, Y on the screen: "ok"
 *   tree           the visible tree, indented, for a failing test's log;
 *                  "tree all" with what is hidden
 *
 * The window's process must keep its main loop running meanwhile: every
 * question goes to it over D-Bus. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <atspi/atspi.h>

static AtspiAccessible *app;
static guint app_pid;
/* What last said it took the focus (NULL: nothing yet). */
static AtspiAccessible *focused;

static AtspiAccessible *
find_app (guint pid)
{
  for (int attempt = 0; attempt < 200; attempt++)
    {
      AtspiAccessible *desktop = atspi_get_desktop (0);
      int n = atspi_accessible_get_child_count (desktop, NULL);

      for (int i = 0; i < n; i++)
        {
          AtspiAccessible *child = atspi_accessible_get_child_at_index (desktop, i, NULL);

          if (child && atspi_accessible_get_process_id (child, NULL) == pid)
            {
              g_object_unref (desktop);
              return child;
            }
          g_clear_object (&child);
        }
      g_object_unref (desktop);
      g_usleep (100 * 1000);
    }
  return NULL;
}

static gboolean
has_state (AtspiAccessible *obj,
           AtspiStateType   state)
{
  AtspiStateSet *set = atspi_accessible_get_state_set (obj);
  gboolean has = set && atspi_state_set_contains (set, state);

  g_clear_object (&set);
  return has;
}

typedef gboolean (*Visit) (AtspiAccessible *obj,
                           int              depth,
                           gpointer         data);

/* Whether walk goes into what is hidden too ("tree all"). */
static gboolean all;

/* Depth first over what is visible (a hidden widget's subtree is not
 * read; GTK 4.8 says "visible", never "showing"); stops when VISIT
 * returns TRUE. */
static gboolean
walk (AtspiAccessible *obj,
      int              depth,
      Visit            visit,
      gpointer         data)
{
  int n;

  if (depth > 0 && !all && !has_state (obj, ATSPI_STATE_VISIBLE))
    return FALSE;
  if (visit (obj, depth, data))
    return TRUE;
  n = atspi_accessible_get_child_count (obj, NULL);
  for (int i = 0; i < n; i++)
    {
      AtspiAccessible *child = atspi_accessible_get_child_at_index (obj, i, NULL);
      gboolean stop = child && walk (child, depth + 1, visit, data);

      g_clear_object (&child);
      if (stop)
        return TRUE;
    }
  return FALSE;
}

static char *
text_of (AtspiAccessible *obj)
{
  AtspiText *text = atspi_accessible_get_text_iface (obj);
  char *contents = NULL;

  if (text)
    {
      contents = atspi_text_get_text (text, 0, -1, NULL);
      g_object_unref (text);
    }
  return contents;
}

/* A label's name, or else its text (GTK gives a label's text as both). */
static char *
name_of (AtspiAccessible *obj)
{
  char *name = atspi_accessible_get_name (obj, NULL);

  if (!name || !*name)
    {
      char *text = text_of (obj);

      if (text)
        {
          g_free (name);
          name = text;
        }
    }
  return name ? name : g_strdup ("");
}

static gboolean
print_focused (AtspiAccessible *obj,
               int              depth,
               gpointer         data)
{
  g_autofree char *role = NULL;
  g_autofree char *name = NULL;

  if (!has_state (obj, ATSPI_STATE_FOCUSED))
    return FALSE;
  role = atspi_accessible_get_role_name (obj, NULL);
  name = name_of (obj);
  printf ("%s\t%s\n", role, name);
  return TRUE;
}

static void
on_focus_event (AtspiEvent *event,
                void       *data)
{
  if (event->detail1 && event->source)
    g_set_object (&focused, event->source);
}

static void
print_focus (void)
{
  /* A question to the application first: the focus events it sent
   * before it answered have arrived then, and are dispatched here. */
  atspi_accessible_get_child_count (app, NULL);
  while (g_main_context_iteration (NULL, FALSE))
    ;
  if (focused && atspi_accessible_get_process_id (focused, NULL) == app_pid
      && print_focused (focused, 0, NULL))
    return;
  walk (app, 0, print_focused, NULL);
}

/* DATA: the role, and whether to print descriptions ("describe"). */
typedef struct
{
  const char *role;
  gboolean described;
} OfRole;

static gboolean
print_of_role (AtspiAccessible *obj,
               int              depth,
               gpointer         data)
{
  const OfRole *of = data;
  g_autofree char *role = atspi_accessible_get_role_name (obj, NULL);
  g_autofree char *name = NULL;
  g_autofree char *description = NULL;

  if (g_strcmp0 (role, of->role))
    return FALSE;
  name = name_of (obj);
  if (!of->described)
    {
      printf ("%s\n", name);
      return FALSE;
    }
  description = atspi_accessible_get_description (obj, NULL);
  printf ("%s\t%s\n", name, description ? description : "");
  return FALSE;
}

static gboolean
print_node (AtspiAccessible *obj,
            int              depth,
            gpointer         data)
{
  g_autofree char *role = atspi_accessible_get_role_name (obj, NULL);
  g_autofree char *name = name_of (obj);

  printf ("%*s%s \"%s\"%s%s%s\n", depth * 2, "", role, name,
          has_state (obj, ATSPI_STATE_VISIBLE) ? "" : " [hidden]",
          has_state (obj, ATSPI_STATE_FOCUSABLE) ? " [focusable]" : "",
          has_state (obj, ATSPI_STATE_FOCUSED) ? " [focused]" : "");
  return FALSE;
}

static const struct { const char *name; glong keysym; } keys[] = {
  { "Tab", 0xff09 }, { "ISO_Left_Tab", 0xfe20 }, { "Up", 0xff52 },
  { "Down", 0xff54 }, { "Home", 0xff50 }, { "End", 0xff57 },
  { "Return", 0xff0d }, { "space", 0x20 }, { "Delete", 0xffff },
  { "Escape", 0xff1b }, { "1", 0x31 }, { "2", 0x32 }, { "v", 0x76 },
};

#define ALT_MASK (1 << 3)       /* Mod1 */
#define CONTROL_MASK (1 << 2)

static void
press (const char *name)
{
  gboolean alt = g_str_has_prefix (name, "Alt+");
  gboolean control = g_str_has_prefix (name, "Control+");
  guint mask = alt ? ALT_MASK : CONTROL_MASK;

  alt = alt || control;         /* a modifier, locked around the key */
  if (alt)
    {
      name = strchr (name, '+') + 1;
      atspi_generate_keyboard_event (mask, NULL, ATSPI_KEY_LOCKMODIFIERS, NULL);
    }
  for (gsize i = 0; i < G_N_ELEMENTS (keys); i++)
    if (!strcmp (keys[i].name, name))
      {
        g_autoptr(GError) error = NULL;

        if (!atspi_generate_keyboard_event (keys[i].keysym, NULL, ATSPI_KEY_SYM, &error))
          printf ("error %s\n", error ? error->message : "");
        else
          printf ("ok\n");
        if (alt)
          atspi_generate_keyboard_event (mask, NULL, ATSPI_KEY_UNLOCKMODIFIERS, NULL);
        return;
      }
  if (alt)
    atspi_generate_keyboard_event (mask, NULL, ATSPI_KEY_UNLOCKMODIFIERS, NULL);
  printf ("error no key %s\n", name);
}

static void
type (const char *text)
{
  g_autoptr(GError) error = NULL;

  if (atspi_generate_keyboard_event (0, text, ATSPI_KEY_STRING, &error))
    printf ("ok\n");
  else
    printf ("error %s\n", error ? error->message : "");
}

int
main (int    argc,
      char **argv)
{
  char line[256];

  if (argc != 2)
    {
      fprintf (stderr, "usage: a11y-reader PID\n");
      return 2;
    }
  if (atspi_init () < 0)
    {
      fprintf (stderr, "a11y-reader: no accessibility bus\n");
      return 1;
    }
  setvbuf (stdout, NULL, _IOLBF, 0);
  app_pid = (guint) strtoul (argv[1], NULL, 10);
  {
    AtspiEventListener *listener = atspi_event_listener_new (on_focus_event, NULL, NULL);

    atspi_event_listener_register (listener, "object:state-changed:focused", NULL);
  }
  while (fgets (line, sizeof line, stdin))
    {
      g_strchomp (line);
      /* Answers are read afresh: the window changes between questions. */
      if (app)
        atspi_accessible_clear_cache (app);
      if (!strcmp (line, "app"))
        {
          if (!app)
            app = find_app (app_pid);
          if (app)
            atspi_accessible_set_cache_mask (app, ATSPI_CACHE_NONE);
          printf ("%s\n", app ? "ok" : "none");
        }
      else if (!app)
        printf ("error no app\n");
      else if (!strcmp (line, "focus"))
        print_focus ();
      else if (g_str_has_prefix (line, "key "))
        press (line + 4);
      else if (g_str_has_prefix (line, "type "))
        type (line + 5);
      else if (g_str_has_prefix (line, "list "))
        walk (app, 0, print_of_role, &(OfRole) { line + 5, FALSE });
      else if (g_str_has_prefix (line, "mouse "))
        {
          g_autoptr(GError) error = NULL;
          long x = 0, y = 0;

          if (sscanf (line + 6, "%ld %ld", &x, &y) == 2
              && atspi_generate_mouse_event (x, y, "abs", &error))
            printf ("ok\n");
          else
            printf ("error %s\n", error ? error->message : "usage");
        }
      else if (g_str_has_prefix (line, "describe "))
        walk (app, 0, print_of_role, &(OfRole) { line + 9, TRUE });
      else if (!strcmp (line, "tree") || !strcmp (line, "tree all"))
        {
          all = !strcmp (line, "tree all");
          walk (app, 0, print_node, NULL);
          all = FALSE;
        }
      else
        printf ("error unknown command\n");
      printf (".\n");
    }
  g_clear_object (&focused);
  g_clear_object (&app);
  return 0;
}
