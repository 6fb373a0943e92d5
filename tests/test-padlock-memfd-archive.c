/* test-padlock-memfd-archive.c - a folder opened without saving (issue
 * 38): an archive in a sealed memory file is told from other plaintext,
 * listed, and one file of it copied into a memory file of its own,
 * sealed, named after the file, byte for byte; a file over the limit
 * and a damaged archive are refused with words naming them. */
#include <fcntl.h>
#include <string.h>
#include <unistd.h>
#include <glib.h>
#include <glib/gstdio.h>

#include "padlock-error.h"
#include "padlock-memfd-archive.h"
#include "tar.h"

static PadlockMemfd *
memfd_of (const void *data, gsize len)
{
  pl_sink *sink = NULL;
  PadlockMemfd *memfd;

  g_assert_cmpint (padlock_memfd_sink_new ("test", 1 << 30, &sink), ==, 0);
  g_assert_cmpint (sink->write (sink, data, len), ==, 0);
  g_assert_cmpint (sink->commit (sink), ==, 0);
  memfd = padlock_memfd_sink_take (sink);
  pl_sink_free (sink);
  return memfd;
}

/* Photos/{a.pdf, sub/b.png} as Padlock archives a folder. */
static GBytes *
make_archive (GBytes **pdf, GBytes **png)
{
  g_autofree char *root = g_dir_make_tmp ("padlock-memfd-archive-XXXXXX", NULL);
  g_autofree char *top = g_build_filename (root, "Photos", NULL);
  g_autofree char *sub = g_build_filename (top, "sub", NULL);
  g_autofree char *a = g_build_filename (top, "a.pdf", NULL);
  g_autofree char *b = g_build_filename (sub, "b.png", NULL);
  GByteArray *all = g_byte_array_new ();
  pl_source *src = NULL;
  guint8 *p = g_malloc (300000);
  guint8 buf[65536];
  size_t n;

  for (gsize i = 0; i < 300000; i++)
    p[i] = (guint8) g_random_int ();
  *pdf = g_bytes_new_take (p, 300000);
  *png = g_bytes_new_static ("\211PNG\r\n\032\n", 8);
  g_assert_cmpint (g_mkdir_with_parents (sub, 0700), ==, 0);
  g_assert_true (g_file_set_contents (a, g_bytes_get_data (*pdf, NULL), 300000, NULL));
  g_assert_true (g_file_set_contents (b, g_bytes_get_data (*png, NULL), 8, NULL));
  g_assert_cmpint (pl_tar_source_new (top, NULL, &src), ==, 0);
  do
    {
      g_assert_cmpint (src->read (src, buf, sizeof buf, &n), ==, 0);
      g_byte_array_append (all, buf, (guint) n);
    }
  while (n);
  pl_source_free (src);
  g_unlink (a);
  g_unlink (b);
  g_rmdir (sub);
  g_rmdir (top);
  g_rmdir (root);
  return g_byte_array_free_to_bytes (all);
}

static const pl_tar_entry *
find (const pl_tar_listing *l, const char *name)
{
  for (size_t i = 0; i < l->n; i++)
    if (!strcmp (l->v[i].name, name))
      return &l->v[i];
  g_error ("%s is not listed", name);
}

static void
test_open_one (void)
{
  g_autoptr(GBytes) pdf = NULL;
  g_autoptr(GBytes) png = NULL;
  g_autoptr(GBytes) tar = make_archive (&pdf, &png);
  g_autoptr(PadlockMemfd) archive = memfd_of (g_bytes_get_data (tar, NULL),
                                              g_bytes_get_size (tar));
  g_autoptr(PadlockMemfd) opened = NULL;
  g_autoptr(PadlockMemfd) small = NULL;
  g_autoptr(PadlockMemfd) text = memfd_of ("hello\n", 6);
  g_autoptr(GError) error = NULL;
  pl_tar_listing files = { NULL, 0 };
  const guint8 *data;
  gsize size;
  int seals;

  g_assert_true (padlock_memfd_is_archive (archive));
  g_assert_false (padlock_memfd_is_archive (text));
  g_assert_true (padlock_memfd_archive_list (archive, "Photos.tar.gpg", &files,
                                             &error));
  g_assert_no_error (error);
  g_assert_cmpuint (files.n, ==, 2);

  opened = padlock_memfd_archive_open (archive, find (&files, "Photos/a.pdf"),
                                       1 << 20, &error);
  g_assert_no_error (error);
  data = padlock_memfd_get_data (opened, &size);
  g_assert_cmpmem (data, size, g_bytes_get_data (pdf, NULL), 300000);
  g_assert_cmpstr (padlock_memfd_get_name (opened), ==, "a.pdf");
  seals = fcntl (padlock_memfd_get_fd (opened), F_GET_SEALS);
  g_assert_cmpint (seals & (F_SEAL_GROW | F_SEAL_SHRINK | F_SEAL_SEAL), ==,
                   F_SEAL_GROW | F_SEAL_SHRINK | F_SEAL_SEAL);
  g_assert_true (seals & F_SEAL_FUTURE_WRITE);
  /* Its own file: the archive's descriptor is another. */
  g_assert_cmpint (padlock_memfd_get_fd (opened), !=,
                   padlock_memfd_get_fd (archive));

  small = padlock_memfd_archive_open (archive, find (&files, "Photos/sub/b.png"),
                                      1 << 20, &error);
  g_assert_no_error (error);
  data = padlock_memfd_get_data (small, &size);
  g_assert_cmpmem (data, size, g_bytes_get_data (png, NULL), 8);
  g_assert_cmpstr (padlock_memfd_get_name (small), ==, "b.png");

  /* Over the limit: refused before anything is copied. */
  g_assert_null (padlock_memfd_archive_open (archive,
                                             find (&files, "Photos/a.pdf"),
                                             1000, &error));
  g_assert_nonnull (error);
  g_assert_nonnull (strstr (error->message,
                            "a.pdf is too large to open without saving"));
  pl_tar_listing_clear (&files);
}

static void
test_damaged (void)
{
  g_autoptr(GBytes) pdf = NULL;
  g_autoptr(GBytes) png = NULL;
  g_autoptr(GBytes) tar = make_archive (&pdf, &png);
  /* Cut inside a.pdf's data. */
  g_autoptr(PadlockMemfd) cut = memfd_of (g_bytes_get_data (tar, NULL), 20000);
  g_autoptr(GError) error = NULL;
  pl_tar_listing files = { NULL, 0 };

  g_assert_true (padlock_memfd_is_archive (cut));
  g_assert_false (padlock_memfd_archive_list (cut, "Photos.tar.gpg", &files,
                                              &error));
  g_assert_error (error, PADLOCK_ERROR, PADLOCK_ERROR_MALFORMED);
  g_assert_cmpstr (error->message, ==,
                   "Photos.tar.gpg holds a damaged archive. Nothing was opened.");
  g_assert_cmpuint (files.n, ==, 0);
  pl_tar_listing_clear (&files);
}

int
main (int argc, char **argv)
{
  g_setenv ("LANGUAGE", "C", TRUE);
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/memfd-archive/open-one", test_open_one);
  g_test_add_func ("/memfd-archive/damaged", test_damaged);
  return g_test_run ();
}
