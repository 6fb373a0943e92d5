/* mime-guess.c - what GIO says a file is, as a file manager asks it: for
 * each FILE, a line "NAME<TAB>by name and content<TAB>by content alone".
 * test-install runs it with XDG_DATA_DIRS pointing into an install. */
#include <gio/gio.h>

int
main (int argc, char *argv[])
{
  for (int i = 1; i < argc; i++)
    {
      g_autofree char *data = NULL;
      g_autofree char *name = g_path_get_basename (argv[i]);
      g_autofree char *by_name = NULL;
      g_autofree char *by_content = NULL;
      g_autoptr(GError) error = NULL;
      gsize length;

      if (!g_file_get_contents (argv[i], &data, &length, &error))
        {
          g_printerr ("%s\n", error->message);
          return 1;
        }
      /* GIO sniffs the first 4 KiB. */
      length = MIN (length, 4096);
      by_name = g_content_type_guess (name, (const guchar *) data, length, NULL);
      by_content = g_content_type_guess (NULL, (const guchar *) data, length, NULL);
      g_print ("%s\t%s\t%s\n", name, by_name, by_content);
    }
  return 0;
}
