/* stub-viewer.c - a viewer for the Open Without Saving tests
 *
 * Registered (through a test's XDG_DATA_HOME) as the default application
 * of a few content types, it is what Padlock launches: it copies the
 * octets of the file it was given (a path, or a file:// URI) to the file
 * PADLOCK_TEST_VIEWER_RESULT names, and the argument itself to that name
 * plus ".arg".  It reads in plain C what any viewer would.
 *
 * With PADLOCK_TEST_VIEWER_TRACES set it also leaves what Evince 43.1 and
 * Eye of GNOME 43.2 left (measured): a "thumbnail" of what it read (the
 * octets themselves, so that a scan for the plaintext finds it) in the
 * thumbnail cache, named by the MD5 of the file's URI, and the URI in
 * recently-used.xbel; the paths of both go to the result's name plus
 * ".traced".
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <glib.h>
#include <glib/gstdio.h>

/* PATH's traces, as a viewer leaves them, from the octets DATA (LEN). */
static int
leave_traces (const char *path,
              const char *data,
              size_t      len,
              const char *traced)
{
  g_autofree char *uri = g_filename_to_uri (path, NULL, NULL);
  g_autofree char *md5 = g_compute_checksum_for_string (G_CHECKSUM_MD5, uri, -1);
  g_autofree char *png = g_strconcat (md5, ".png", NULL);
  g_autofree char *dir = g_build_filename (g_get_user_cache_dir (), "thumbnails",
                                           "normal", NULL);
  g_autofree char *thumbnail = g_build_filename (dir, png, NULL);
  g_autofree char *recent_path = g_build_filename (g_get_user_data_dir (),
                                                   "recently-used.xbel", NULL);
  g_autoptr(GBookmarkFile) recent = g_bookmark_file_new ();
  g_autofree char *said = NULL;

  if (!uri || g_mkdir_with_parents (dir, 0700) != 0
      || !g_file_set_contents (thumbnail, data, (gssize) len, NULL))
    return 1;
  g_bookmark_file_load_from_file (recent, recent_path, NULL);
  g_bookmark_file_set_mime_type (recent, uri, "application/octet-stream");
  g_bookmark_file_add_application (recent, uri, "stub-viewer", "stub-viewer %u");
  if (!g_bookmark_file_to_file (recent, recent_path, NULL))
    return 1;
  said = g_strdup_printf ("%s\n%s\n%s\n", uri, thumbnail, recent_path);
  return !g_file_set_contents (traced, said, -1, NULL);
}

int
main (int argc, char **argv)
{
  const char *result = getenv ("PADLOCK_TEST_VIEWER_RESULT");
  const char *path;
  char arg_name[4096], buf[65536];
  FILE *in, *out, *arg;
  size_t n;

  if (argc != 2 || !result)
    return 2;
  path = argv[1];
  if (!strncmp (path, "file://", 7))
    path += 7;
  snprintf (arg_name, sizeof arg_name, "%s.arg", result);
  arg = fopen (arg_name, "w");
  if (!arg)
    return 1;
  fprintf (arg, "%s\n", argv[1]);
  fclose (arg);
  in = fopen (path, "rb");
  if (!in)
    return 1;
  out = fopen (result, "wb");
  if (!out)
    return 1;
  {
    GString *read = g_string_new (NULL);
    int failed;

    while ((n = fread (buf, 1, sizeof buf, in)) > 0)
      {
        fwrite (buf, 1, n, out);
        g_string_append_len (read, buf, (gssize) n);
      }
    fclose (in);
    failed = fclose (out) != 0;
    if (!failed && getenv ("PADLOCK_TEST_VIEWER_TRACES"))
      {
        g_autofree char *traced = g_strconcat (result, ".traced", NULL);

        failed = leave_traces (path, read->str, read->len, traced);
      }
    g_string_free (read, TRUE);
    return failed;
  }
}
