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

char *
padlock_key_import_failure (const char   *source,
                            const GError *error)
{
  g_autofree char *why = g_strdup (error->message);
  gsize len = strlen (why);

  /* The sentence ends once. */
  while (len && why[len - 1] == '.')
    why[--len] = '\0';
  if (source)
    /* Translators: %s is a file's name, then why gpg did not import it. */
    return g_strdup_printf (_("No key was added from %s: %s."), source, why);
  /* Translators: %s says why gpg did not import the key. */
  return g_strdup_printf (_("No key was added: %s."), why);
}
