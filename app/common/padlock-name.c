/* padlock-name.c - a file's name as it can be shown without lying */
#include "padlock-name.h"

#include <string.h>

#include "text.h"

#define FSI "\xe2\x81\xa8"      /* U+2068 FIRST STRONG ISOLATE */
#define PDI "\xe2\x81\xa9"      /* U+2069 POP DIRECTIONAL ISOLATE */

gboolean
padlock_name_char_is_hidden (gunichar c)
{
  return pl_text_char_is_hidden (c);
}

char *
padlock_name_escape (const char *name)
{
  char *escaped;

  g_return_val_if_fail (name != NULL, NULL);
  escaped = pl_text_escape_dup (name, strlen (name), 0);
  if (!escaped)
    g_error ("out of memory");
  return escaped;
}

char *
padlock_name_word (const char *name)
{
  char *word;

  g_return_val_if_fail (name != NULL, NULL);
  word = pl_text_escape_dup (name, strlen (name), PL_TEXT_WORD);
  if (!word)
    g_error ("out of memory");
  return word;
}

char *
padlock_name_display (const char *name)
{
  g_autofree char *escaped = NULL;

  g_return_val_if_fail (name != NULL, NULL);
  escaped = padlock_name_escape (name);
  return g_strconcat (FSI, escaped, PDI, NULL);
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
