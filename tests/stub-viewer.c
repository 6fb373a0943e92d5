/* stub-viewer.c - a viewer for the Open Without Saving tests
 *
 * Registered (through a test's XDG_DATA_HOME) as the default application
 * of a few content types, it is what Padlock launches: it copies the
 * octets of the file it was given (a path, or a file:// URI) to the file
 * PADLOCK_TEST_VIEWER_RESULT names, and the argument itself to that name
 * plus ".arg".  Plain C, no GLib: it reads what any viewer would.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

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
  while ((n = fread (buf, 1, sizeof buf, in)) > 0)
    fwrite (buf, 1, n, out);
  fclose (in);
  return fclose (out) != 0;
}
