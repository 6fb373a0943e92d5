/* padlock-name.c - a file's name as it can be shown without lying */
#include "padlock-name.h"

#define FSI "\xe2\x81\xa8"      /* U+2068 FIRST STRONG ISOLATE */
#define PDI "\xe2\x81\xa9"      /* U+2069 POP DIRECTIONAL ISOLATE */

gboolean
padlock_name_char_is_hidden (gunichar c)
{
  switch (g_unichar_type (c))
    {
    case G_UNICODE_CONTROL:
    case G_UNICODE_FORMAT:
    case G_UNICODE_LINE_SEPARATOR:
    case G_UNICODE_PARAGRAPH_SEPARATOR:
      return TRUE;
    default:
      return FALSE;
    }
}

static void
append_escaped (GString    *out,
                const char *name)
{
  /* g_filename_display_name would also take the locale's file name
   * encoding; G_FILENAME_ENCODING is UTF-8 on every GNOME system, and a
   * name that is not valid UTF-8 shows U+FFFD where it is not. */
  g_autofree char *valid = g_utf8_make_valid (name, -1);

  for (const char *p = valid; *p; p = g_utf8_next_char (p))
    {
      gunichar c = g_utf8_get_char (p);

      if (c == '\\')
        g_string_append (out, "\\\\");
      else if (c == '\n')
        g_string_append (out, "\\n");
      else if (c == '\t')
        g_string_append (out, "\\t");
      else if (c == '\r')
        g_string_append (out, "\\r");
      else if (!padlock_name_char_is_hidden (c))
        g_string_append_unichar (out, c);
      else if (c < 0x80)
        g_string_append_printf (out, "\\x%02X", c);
      else if (c < 0x10000)
        g_string_append_printf (out, "\\u%04X", c);
      else
        g_string_append_printf (out, "\\U%08X", c);
    }
}

char *
padlock_name_escape (const char *name)
{
  GString *out = g_string_new (NULL);

  g_return_val_if_fail (name != NULL, NULL);
  append_escaped (out, name);
  return g_string_free (out, FALSE);
}

char *
padlock_name_display (const char *name)
{
  GString *out = g_string_new (FSI);

  g_return_val_if_fail (name != NULL, NULL);
  append_escaped (out, name);
  g_string_append (out, PDI);
  return g_string_free (out, FALSE);
}

char *
padlock_name_display_file (GFile *file)
{
  g_autofree char *name = NULL;

  g_return_val_if_fail (G_IS_FILE (file), NULL);
  name = g_file_get_basename (file);
  return padlock_name_display (name ? name : "");
}

gboolean
padlock_name_changes_look (const char *name)
{
  g_autofree char *valid = NULL;

  g_return_val_if_fail (name != NULL, FALSE);
  valid = g_utf8_make_valid (name, -1);
  for (const char *p = valid; *p; p = g_utf8_next_char (p))
    {
      gunichar c = g_utf8_get_char (p);

      if ((c >= 0x202a && c <= 0x202e) || (c >= 0x2066 && c <= 0x2069)
          || c == 0x200e || c == 0x200f || c == 0x061c)
        return TRUE;
    }
  return FALSE;
}
