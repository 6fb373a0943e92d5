/* padlock-thunar.c - our custom actions in Thunar's uca.xml
 *
 * Thunar keeps every custom action, the user's and ours, in one file of
 * the user's.  We never rewrite it from a tree: GMarkup checks that the
 * file is well-formed and reads each action's unique-id, a scanner finds
 * where each top-level <action> starts and ends, and only our actions'
 * bytes change.  The user's actions, comments and spacing stay as they
 * were.
 */
#include "padlock-config.h"
#include "padlock-thunar.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <glib/gi18n.h>
#include <glib/gstdio.h>

typedef struct
{
  gsize start;                  /* the '<' of <action> */
  gsize end;                    /* past the '>' of </action> */
  char *unique_id;              /* NULL when it has none */
} ActionSpan;

typedef struct
{
  GArray *actions;              /* ActionSpan */
  gsize root_start;             /* the '<' of <actions> */
  gsize root_end_tag;           /* the '<' of </actions> */
  gboolean root_empty;          /* <actions/> */
  gsize root_end;               /* past the root's last '>' */
} UcaLayout;

static void
action_span_clear (ActionSpan *span)
{
  g_clear_pointer (&span->unique_id, g_free);
}

/* Checking the whole file, and finding the root's name. */
typedef struct
{
  int depth;
  gboolean root_ok;
} CheckState;

static void
check_start_element (GMarkupParseContext  *context,
                     const char           *element_name,
                     const char          **attribute_names,
                     const char          **attribute_values,
                     gpointer              user_data,
                     GError              **error)
{
  CheckState *state = user_data;

  if (state->depth++ == 0)
    {
      if (strcmp (element_name, "actions") != 0)
        g_set_error (error, G_MARKUP_ERROR, G_MARKUP_ERROR_INVALID_CONTENT,
                     _("This is not a Thunar actions file: its root is <%s>, "
                       "not <actions>"), element_name);
      else
        state->root_ok = TRUE;
    }
}

static void
check_end_element (GMarkupParseContext  *context,
                   const char           *element_name,
                   gpointer              user_data,
                   GError              **error)
{
  ((CheckState *) user_data)->depth--;
}

static const GMarkupParser check_parser = {
  check_start_element, check_end_element, NULL, NULL, NULL,
};

/* Reading one action's unique-id: the text of its <unique-id> child. */
typedef struct
{
  int depth;
  gboolean in_unique_id;
  GString *unique_id;
} IdState;

static void
id_start_element (GMarkupParseContext  *context,
                  const char           *element_name,
                  const char          **attribute_names,
                  const char          **attribute_values,
                  gpointer              user_data,
                  GError              **error)
{
  IdState *state = user_data;

  state->depth++;
  if (state->depth == 2 && strcmp (element_name, "unique-id") == 0 && !state->unique_id)
    {
      state->in_unique_id = TRUE;
      state->unique_id = g_string_new (NULL);
    }
}

static void
id_end_element (GMarkupParseContext  *context,
                const char           *element_name,
                gpointer              user_data,
                GError              **error)
{
  IdState *state = user_data;

  if (state->depth == 2)
    state->in_unique_id = FALSE;
  state->depth--;
}

static void
id_text (GMarkupParseContext  *context,
         const char           *text,
         gsize                 text_len,
         gpointer              user_data,
         GError              **error)
{
  IdState *state = user_data;

  if (state->in_unique_id)
    g_string_append_len (state->unique_id, text, text_len);
}

static const GMarkupParser id_parser = {
  id_start_element, id_end_element, id_text, NULL, NULL,
};

static char *
read_unique_id (const char *action,
                gsize       length)
{
  IdState state = { 0 };
  g_autoptr(GMarkupParseContext) context = NULL;

  context = g_markup_parse_context_new (&id_parser, 0, &state, NULL);
  /* The whole file parsed, so its pieces do too. */
  if (!g_markup_parse_context_parse (context, action, length, NULL)
      || !g_markup_parse_context_end_parse (context, NULL))
    g_warn_if_reached ();
  if (!state.unique_id)
    return NULL;
  return g_strstrip (g_string_free (state.unique_id, FALSE));
}

static gboolean
has_prefix_at (const char *text,
               gsize       length,
               gsize       at,
               const char *prefix)
{
  gsize n = strlen (prefix);

  return at + n <= length && memcmp (text + at, prefix, n) == 0;
}

/* Past the end of the first NEEDLE at or after AT; LENGTH when none. */
static gsize
skip_past (const char *text,
           gsize       length,
           gsize       at,
           const char *needle)
{
  gsize n = strlen (needle);

  for (gsize i = at; i + n <= length; i++)
    if (memcmp (text + i, needle, n) == 0)
      return i + n;
  return length;
}

/* The '>' that ends the tag starting at AT: '>' may stand in a quoted
 * attribute value, '<' may not. */
static gsize
find_tag_end (const char *text,
              gsize       length,
              gsize       at)
{
  char quote = 0;

  for (gsize i = at + 1; i < length; i++)
    {
      if (quote)
        {
          if (text[i] == quote)
            quote = 0;
        }
      else if (text[i] == '"' || text[i] == '\'')
        quote = text[i];
      else if (text[i] == '>')
        return i;
    }
  return length;
}

/* Where the top-level actions are.  TEXT is well-formed: GMarkup has
 * already read it. */
static void
scan_layout (const char *text,
             gsize       length,
             UcaLayout  *layout)
{
  int depth = 0;
  gboolean in_action = FALSE;
  gsize i = 0;

  while (i < length)
    {
      gsize tag_end;

      if (text[i] != '<')
        {
          i++;
          continue;
        }
      if (has_prefix_at (text, length, i, "<!--"))
        {
          i = skip_past (text, length, i + 4, "-->");
          continue;
        }
      if (has_prefix_at (text, length, i, "<![CDATA["))
        {
          i = skip_past (text, length, i + 9, "]]>");
          continue;
        }
      if (has_prefix_at (text, length, i, "<?"))
        {
          i = skip_past (text, length, i + 2, "?>");
          continue;
        }
      tag_end = find_tag_end (text, length, i);
      if (tag_end >= length)
        break;
      if (text[i + 1] == '!')
        ;                       /* <!DOCTYPE …> */
      else if (text[i + 1] == '/')
        {
          if (depth == 2 && in_action)
            {
              g_array_index (layout->actions, ActionSpan,
                             layout->actions->len - 1).end = tag_end + 1;
              in_action = FALSE;
            }
          if (depth == 1)
            {
              layout->root_end_tag = i;
              layout->root_end = tag_end + 1;
            }
          depth--;
        }
      else
        {
          gboolean empty = text[tag_end - 1] == '/';
          gsize name_end = i + 1;

          while (name_end < tag_end && !g_ascii_isspace (text[name_end])
                 && text[name_end] != '/')
            name_end++;
          depth++;
          if (depth == 1)
            {
              layout->root_start = i;
              if (empty)
                {
                  layout->root_empty = TRUE;
                  layout->root_end_tag = i;
                  layout->root_end = tag_end + 1;
                }
            }
          else if (depth == 2 && name_end - (i + 1) == strlen ("action")
                   && memcmp (text + i + 1, "action", strlen ("action")) == 0)
            {
              ActionSpan span = { i, tag_end + 1, NULL };

              g_array_append_val (layout->actions, span);
              in_action = !empty;
            }
          if (empty)
            depth--;
        }
      i = tag_end + 1;
    }
}

static void
append_action (GString    *out,
               const char *unique_id,
               const char *name,
               const char *description,
               const char *command,
               const char *patterns,
               const char *const *file_kinds)
{
  g_autofree char *name_xml = g_markup_escape_text (name, -1);
  g_autofree char *description_xml = g_markup_escape_text (description, -1);
  g_autofree char *command_xml = g_markup_escape_text (command, -1);
  g_autofree char *patterns_xml = g_markup_escape_text (patterns, -1);

  g_string_append_printf (out,
                          "<action>\n"
                          "\t<icon>%s</icon>\n"
                          "\t<name>%s</name>\n"
                          "\t<submenu></submenu>\n"
                          "\t<unique-id>%s</unique-id>\n"
                          "\t<command>%s</command>\n"
                          "\t<description>%s</description>\n"
                          "\t<range></range>\n"
                          "\t<patterns>%s</patterns>\n"
                          "\t<startup-notify/>\n",
                          PADLOCK_APP_ID, name_xml, unique_id, command_xml,
                          description_xml, patterns_xml);
  for (guint i = 0; file_kinds[i]; i++)
    g_string_append_printf (out, "\t<%s/>\n", file_kinds[i]);
  g_string_append (out, "</action>");
}

/* Ours, as Thunar writes its own: <action> at the start of a line, one
 * tab before each child. */
static char *
make_action (const char *unique_id)
{
  /* Folders too: each becomes one archive. */
  static const char *const every_file[] = {
    "audio-files", "directories", "image-files", "other-files", "text-files",
    "video-files", NULL
  };
  /* OpenPGP messages are "other" (binary) or "text" (armored) to Thunar,
   * which matches on names. */
  static const char *const messages[] = { "other-files", "text-files", NULL };
  /* A detached signature of each file; a folder is not signed. */
  static const char *const files_only[] = {
    "audio-files", "image-files", "other-files", "text-files", "video-files",
    NULL
  };
  GString *out = g_string_new (NULL);

  if (strcmp (unique_id, PADLOCK_THUNAR_ENCRYPT_ID) == 0)
    append_action (out, unique_id, _("Encrypt with Padlock…"),
                   _("Encrypt the selected files with a passphrase"),
                   "padlock --encrypt %F", "*", every_file);
  else if (strcmp (unique_id, PADLOCK_THUNAR_SIGN_ID) == 0)
    append_action (out, unique_id, _("Sign with Padlock…"),
                   _("Make a detached signature of each selected file"),
                   "padlock --sign --detach %F", "*", files_only);
  else if (strcmp (unique_id, PADLOCK_THUNAR_OPEN_ID) == 0)
    append_action (out, unique_id, _("Open Without Saving"),
                   _("Decrypt the selected OpenPGP messages into memory and "
                     "open them, writing nothing to disk"),
                   "padlock --open %F", "*.gpg;*.pgp;*.asc", messages);
  else
    append_action (out, unique_id, _("Decrypt with Padlock…"),
                   _("Decrypt the selected OpenPGP messages"),
                   "padlock --decrypt %F", "*.gpg;*.pgp;*.asc", messages);
  return g_string_free (out, FALSE);
}

char *
padlock_thunar_merge_actions (const char  *contents,
                              gssize       length,
                              GError     **error)
{
  static const char *const ids[] = {
    PADLOCK_THUNAR_ENCRYPT_ID, PADLOCK_THUNAR_DECRYPT_ID,
    PADLOCK_THUNAR_SIGN_ID, PADLOCK_THUNAR_OPEN_ID,
  };
  g_autoptr(GMarkupParseContext) context = NULL;
  g_autoptr(GArray) actions = NULL;
  g_autoptr(GString) out = NULL;
  g_autoptr(GString) missing = NULL;
  CheckState check = { 0 };
  UcaLayout layout = { 0 };
  gsize len, copied = 0;
  gboolean placed[G_N_ELEMENTS (ids)] = { FALSE };

  if (!contents)
    contents = "", length = 0;
  len = length < 0 ? strlen (contents) : (gsize) length;

  /* A missing or empty file: a new one, as Thunar starts it. */
  if (len == 0 || strspn (contents, " \t\r\n") == len)
    {
      g_autofree char *encrypt = make_action (PADLOCK_THUNAR_ENCRYPT_ID);
      g_autofree char *decrypt = make_action (PADLOCK_THUNAR_DECRYPT_ID);
      g_autofree char *sign = make_action (PADLOCK_THUNAR_SIGN_ID);
      g_autofree char *open = make_action (PADLOCK_THUNAR_OPEN_ID);

      return g_strdup_printf ("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
                              "<actions>\n%s\n%s\n%s\n%s\n</actions>\n",
                              encrypt, decrypt, sign, open);
    }

  context = g_markup_parse_context_new (&check_parser, 0, &check, NULL);
  if (!g_markup_parse_context_parse (context, contents, (gssize) len, error)
      || !g_markup_parse_context_end_parse (context, error))
    return NULL;
  if (!check.root_ok)
    {
      g_set_error_literal (error, G_MARKUP_ERROR, G_MARKUP_ERROR_EMPTY,
                           _("This is not a Thunar actions file: it has no <actions>"));
      return NULL;
    }

  actions = g_array_new (FALSE, TRUE, sizeof (ActionSpan));
  g_array_set_clear_func (actions, (GDestroyNotify) action_span_clear);
  layout.actions = actions;
  scan_layout (contents, len, &layout);
  for (guint i = 0; i < actions->len; i++)
    {
      ActionSpan *span = &g_array_index (actions, ActionSpan, i);
      span->unique_id = read_unique_id (contents + span->start, span->end - span->start);
    }

  out = g_string_sized_new (len + 1024);
  for (guint i = 0; i < actions->len; i++)
    {
      ActionSpan *span = &g_array_index (actions, ActionSpan, i);
      gsize id;

      for (id = 0; id < G_N_ELEMENTS (ids); id++)
        if (g_strcmp0 (span->unique_id, ids[id]) == 0)
          break;
      if (id == G_N_ELEMENTS (ids))
        continue;               /* the user's */

      g_string_append_len (out, contents + copied, span->start - copied);
      copied = span->end;
      if (!placed[id])
        {
          g_autofree char *action = make_action (ids[id]);
          g_string_append (out, action);
          placed[id] = TRUE;
        }
      else if (copied < len && contents[copied] == '\n')
        copied++;               /* a second copy of ours goes, with its line */
    }

  missing = g_string_new (NULL);
  for (gsize id = 0; id < G_N_ELEMENTS (ids); id++)
    if (!placed[id])
      {
        g_autofree char *action = make_action (ids[id]);
        g_string_append_printf (missing, "%s\n", action);
      }

  if (layout.root_empty)
    {
      /* <actions/> becomes <actions>…</actions> */
      g_string_append_len (out, contents + copied, layout.root_start - copied);
      g_string_append_printf (out, "<actions>\n%s</actions>", missing->str);
      copied = layout.root_end;
    }
  else if (missing->len)
    {
      g_string_append_len (out, contents + copied, layout.root_end_tag - copied);
      copied = layout.root_end_tag;
      if (out->len && out->str[out->len - 1] != '\n')
        g_string_append_c (out, '\n');
      g_string_append (out, missing->str);
    }
  g_string_append_len (out, contents + copied, len - copied);
  return g_string_free (g_steal_pointer (&out), FALSE);
}

char *
padlock_thunar_get_actions_path (void)
{
  return g_build_filename (g_get_user_config_dir (), "Thunar", "uca.xml", NULL);
}

gboolean
padlock_thunar_add_actions (const char  *path,
                            gboolean    *changed,
                            GError     **error)
{
  g_autofree char *target = NULL;
  g_autofree char *dir = NULL;
  g_autofree char *contents = NULL;
  g_autofree char *merged = NULL;
  g_autoptr(GError) read_error = NULL;
  gsize length = 0;
  GStatBuf st;
  int mode = 0644;

  g_return_val_if_fail (path != NULL, FALSE);
  g_return_val_if_fail (error == NULL || *error == NULL, FALSE);

  if (changed)
    *changed = FALSE;

  /* A uca.xml kept elsewhere and linked here stays a link: write where it
   * points. */
  target = realpath (path, NULL);
  if (!target)
    target = g_strdup (path);

  if (!g_file_get_contents (target, &contents, &length, &read_error))
    {
      if (!g_error_matches (read_error, G_FILE_ERROR, G_FILE_ERROR_NOENT))
        {
          g_propagate_error (error, g_steal_pointer (&read_error));
          return FALSE;
        }
    }
  else if (g_stat (target, &st) == 0)
    mode = st.st_mode & 07777;

  merged = padlock_thunar_merge_actions (contents, (gssize) length, error);
  if (!merged)
    {
      g_prefix_error (error, "%s: ", target);
      return FALSE;
    }
  if (contents && strlen (merged) == length && memcmp (merged, contents, length) == 0)
    return TRUE;

  dir = g_path_get_dirname (target);
  if (g_mkdir_with_parents (dir, 0700) != 0)
    {
      int saved = errno;
      g_set_error (error, G_FILE_ERROR, g_file_error_from_errno (saved),
                   "%s: %s", dir, g_strerror (saved));
      return FALSE;
    }
  if (!g_file_set_contents_full (target, merged, -1,
                                 G_FILE_SET_CONTENTS_CONSISTENT, mode, error))
    return FALSE;
  if (changed)
    *changed = TRUE;
  return TRUE;
}
