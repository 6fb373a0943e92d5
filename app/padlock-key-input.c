/* padlock-key-input.c - how a key comes in: pasted text, a key file */
#include "padlock-key-input.h"

#include <glib/gi18n.h>
#include <string.h>

gboolean
padlock_text_holds_key_block (const char *text)
{
  for (const char *begin = text ? strstr (text, "-----BEGIN PGP ") : NULL; begin;
       begin = strstr (begin + 1, "-----BEGIN PGP "))
    if (g_str_has_prefix (begin, "-----BEGIN PGP PUBLIC KEY BLOCK-----")
        || g_str_has_prefix (begin, "-----BEGIN PGP PRIVATE KEY BLOCK-----"))
      return TRUE;
  return FALSE;
}

GtkFileFilter *
padlock_key_file_filter_new (void)
{
  GtkFileFilter *filter = gtk_file_filter_new ();

  gtk_file_filter_set_name (filter, _("OpenPGP keys"));
  gtk_file_filter_add_pattern (filter, "*.asc");
  gtk_file_filter_add_pattern (filter, "*.gpg");
  gtk_file_filter_add_pattern (filter, "*.pgp");
  gtk_file_filter_add_pattern (filter, "*.key");
  return filter;
}
