/* test-tar-read.c - core/tar-read.c: a tar archive in memory listed and
 * one file read out, from archives Padlock, gpgtar and libarchive write,
 * and hostile ones */
#include <locale.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <archive.h>
#include <archive_entry.h>
#include <glib.h>
#include <glib/gstdio.h>

#include "tar.h"
#include "tar-read.h"
#include "testutil.h"

#define MTIME 1600000000

/* An archive written by libarchive into memory, entry by entry. */
typedef struct
{
  struct archive *a;
  char *buf;
  size_t cap, used;
} Writer;

static void
writer_init (Writer *w, size_t cap)
{
  w->cap = cap;
  w->buf = g_malloc (cap);
  w->used = 0;
  w->a = archive_write_new ();
  g_assert_cmpint (archive_write_set_format_pax_restricted (w->a), ==,
                   ARCHIVE_OK);
  g_assert_cmpint (archive_write_set_bytes_in_last_block (w->a, 1), ==,
                   ARCHIVE_OK);
  g_assert_cmpint (archive_write_open_memory (w->a, w->buf, w->cap, &w->used),
                   ==, ARCHIVE_OK);
}

static void
writer_add (Writer *w, const char *name, mode_t type, const void *data,
            size_t len, const char *link)
{
  struct archive_entry *e = archive_entry_new ();

  archive_entry_set_pathname (e, name);
  archive_entry_set_filetype (e, type);
  archive_entry_set_perm (e, type == AE_IFDIR ? 0755 : 0644);
  archive_entry_set_mtime (e, MTIME, 0);
  if (type == AE_IFLNK)
    archive_entry_set_symlink (e, link);
  else if (link)
    archive_entry_set_hardlink (e, link);
  archive_entry_set_size (e, type == AE_IFREG && !link ? (la_int64_t) len : 0);
  g_assert_cmpint (archive_write_header (w->a, e), ==, ARCHIVE_OK);
  if (len && !link)
    g_assert_cmpint (archive_write_data (w->a, data, len), ==, (la_ssize_t) len);
  archive_entry_free (e);
}

/* The archive's octets (the caller frees them). */
static char *
writer_finish (Writer *w, size_t *len)
{
  g_assert_cmpint (archive_write_close (w->a), ==, ARCHIVE_OK);
  archive_write_free (w->a);
  *len = w->used;
  return w->buf;
}

/* ENTRY's data through pl_tar_read_entry, into memory. */
static GBytes *
read_entry (const void *tar, size_t len, const pl_tar_entry *entry)
{
  pl_sink *sink = pl_sink_new_memory ();
  const uint8_t *p;
  size_t n;
  GBytes *out;

  g_assert_cmpint (pl_tar_read_entry (tar, len, entry, sink), ==, 0);
  g_assert_cmpint (sink->commit (sink), ==, 0);
  p = pl_sink_memory_data (sink, &n);
  out = g_bytes_new (p, n);
  pl_sink_free (sink);
  return out;
}

static const pl_tar_entry *
find (const pl_tar_listing *l, const char *name)
{
  for (size_t i = 0; i < l->n; i++)
    if (!strcmp (l->v[i].name, name))
      return &l->v[i];
  return NULL;
}

static void
assert_entry_is (const void *tar, size_t len, const pl_tar_listing *l,
                 const char *name, GBytes *want)
{
  const pl_tar_entry *e = find (l, name);
  GBytes *got;

  g_assert_nonnull (e);
  g_assert_cmpuint (e->size, ==, g_bytes_get_size (want));
  got = read_entry (tar, len, e);
  g_assert_true (g_bytes_equal (got, want));
  g_bytes_unref (got);
}

/* Files listed with sizes and times, hard links opening their target's
 * data; folders and symbolic links left out; "./" taken off. */
static void
test_list_kinds (void)
{
  GBytes *a = tu_random_bytes (300000), *b = tu_random_bytes (7);
  const char *unicode = "Top/Ünïcødé ✓ 写真.txt";
  g_autofree char *long_name = g_strnfill (300, 'x');
  g_autofree char *long_path = g_strconcat ("Top/", long_name, NULL);
  pl_tar_listing l;
  Writer w;
  size_t len;
  char *tar;

  writer_init (&w, 1 << 20);
  writer_add (&w, "./Top/", AE_IFDIR, NULL, 0, NULL);
  writer_add (&w, "./Top/a.bin", AE_IFREG, g_bytes_get_data (a, NULL),
              g_bytes_get_size (a), NULL);
  writer_add (&w, "Top/link", AE_IFLNK, NULL, 0, "/etc/passwd");
  writer_add (&w, "Top/hard", AE_IFREG, NULL, 0, "./Top/a.bin");
  writer_add (&w, "Top/dangling-hard", AE_IFREG, NULL, 0, "Top/nowhere");
  writer_add (&w, unicode, AE_IFREG, g_bytes_get_data (b, NULL),
              g_bytes_get_size (b), NULL);
  writer_add (&w, long_path, AE_IFREG, "", 0, NULL);
  tar = writer_finish (&w, &len);

  g_assert_cmpint (pl_tar_list (tar, len, &l), ==, 0);
  g_assert_cmpuint (l.n, ==, 4);
  g_assert_cmpstr (l.v[0].name, ==, "Top/a.bin");
  g_assert_cmpstr (l.v[1].name, ==, "Top/hard");
  g_assert_cmpstr (l.v[2].name, ==, unicode);
  g_assert_cmpstr (l.v[3].name, ==, long_path);
  for (size_t i = 0; i < l.n; i++)
    {
      g_assert_true (l.v[i].has_mtime);
      g_assert_cmpint (l.v[i].mtime, ==, MTIME);
    }
  g_assert_cmpuint (l.v[1].data_entry, ==, l.v[0].data_entry);
  assert_entry_is (tar, len, &l, "Top/a.bin", a);
  assert_entry_is (tar, len, &l, "Top/hard", a);
  assert_entry_is (tar, len, &l, unicode, b);
  g_assert_cmpuint (find (&l, long_path)->size, ==, 0);

  pl_tar_listing_clear (&l);
  g_free (tar);
  g_bytes_unref (a);
  g_bytes_unref (b);
}

/* A folder as Padlock writes it (pl_tar_source_new), in memory. */
static GBytes *
padlock_archive (const char *folder)
{
  GByteArray *all = g_byte_array_new ();
  pl_source *src = NULL;
  guint8 buf[65536];
  size_t n;

  g_assert_cmpint (pl_tar_source_new (folder, NULL, &src), ==, 0);
  do
    {
      g_assert_cmpint (src->read (src, buf, sizeof buf, &n), ==, 0);
      g_byte_array_append (all, buf, (guint) n);
    }
  while (n);
  pl_source_free (src);
  return g_byte_array_free_to_bytes (all);
}

static char *
make_folder (GBytes **pdf, GBytes **png)
{
  char *parent = tu_new_dir ("folder");
  char *top = g_build_filename (parent, "Scans", NULL);
  char *sub = g_build_filename (top, "2024", NULL);
  char *p;

  g_assert_cmpint (g_mkdir_with_parents (sub, 0755), ==, 0);
  *pdf = tu_random_bytes (1 << 20);
  *png = tu_random_bytes (4321);
  p = g_build_filename (top, "passport.pdf", NULL);
  g_assert_true (g_file_set_contents (p, g_bytes_get_data (*pdf, NULL),
                                      (gssize) g_bytes_get_size (*pdf), NULL));
  g_free (p);
  p = g_build_filename (sub, "photo.png", NULL);
  g_assert_true (g_file_set_contents (p, g_bytes_get_data (*png, NULL),
                                      (gssize) g_bytes_get_size (*png), NULL));
  g_free (p);
  g_free (sub);
  g_free (parent);
  return top;
}

static void
check_scans (GBytes *tar, GBytes *pdf, GBytes *png)
{
  gsize len;
  const void *p = g_bytes_get_data (tar, &len);
  pl_tar_listing l;

  g_assert_cmpint (pl_tar_list (p, len, &l), ==, 0);
  g_assert_cmpuint (l.n, ==, 2);
  assert_entry_is (p, len, &l, "Scans/passport.pdf", pdf);
  assert_entry_is (p, len, &l, "Scans/2024/photo.png", png);
  pl_tar_listing_clear (&l);
}

static void
test_padlock_made (void)
{
  GBytes *pdf, *png, *tar;
  char *top = make_folder (&pdf, &png);

  tar = padlock_archive (top);
  check_scans (tar, pdf, png);
  g_bytes_unref (tar);
  g_bytes_unref (pdf);
  g_bytes_unref (png);
  g_free (top);
}

/* gpgtar's own tar (--skip-crypto: what it encrypts). */
static void
test_gpgtar_made (void)
{
  GBytes *pdf, *png, *tar = NULL;
  char *top, *dir, *out;

  if (!tu_have_peer ("gpgtar"))
    {
      g_test_skip ("no gpgtar");
      return;
    }
  top = make_folder (&pdf, &png);
  dir = g_path_get_dirname (top);
  out = g_build_filename (dir, "Scans.tar", NULL);
  {
    const char *argv[] = { "gpgtar", "--create", "--skip-crypto", "--output",
                           out, "--directory", dir, "Scans", NULL };
    int status = -1;

    g_assert_true (tu_run (argv, NULL, NULL, NULL, &status));
    g_assert_cmpint (status, ==, 0);
  }
  {
    char *data;
    gsize len;

    g_assert_true (g_file_get_contents (out, &data, &len, NULL));
    tar = g_bytes_new_take (data, len);
  }
  check_scans (tar, pdf, png);
  g_bytes_unref (tar);
  g_bytes_unref (pdf);
  g_bytes_unref (png);
  g_free (out);
  g_free (dir);
  g_free (top);
}

/* Damage lists nothing: a flipped octet in a header, a truncated
 * archive, an empty input, text. */
static void
test_damaged (void)
{
  GBytes *a = tu_random_bytes (5000);
  pl_tar_listing l;
  Writer w;
  size_t len;
  char *tar;

  writer_init (&w, 1 << 16);
  writer_add (&w, "x/one", AE_IFREG, g_bytes_get_data (a, NULL), 5000, NULL);
  writer_add (&w, "x/two", AE_IFREG, g_bytes_get_data (a, NULL), 5000, NULL);
  tar = writer_finish (&w, &len);
  g_assert_cmpint (pl_tar_list (tar, len, &l), ==, 0);
  g_assert_cmpuint (l.n, ==, 2);
  pl_tar_listing_clear (&l);

  /* The second header's name: its checksum no longer matches. */
  {
    char *bad = g_memdup2 (tar, len);
    size_t second = 512 + ((5000 + 511) / 512) * 512;

    g_assert_true (pl_tar_header_is_valid (tar + second, 512));
    bad[second + 2] ^= 1;
    g_assert_cmpint (gpg_err_code (pl_tar_list (bad, len, &l)), ==,
                     GPG_ERR_INV_DATA);
    g_assert_cmpuint (l.n, ==, 0);
    g_assert_null (l.v);
    g_free (bad);
  }
  /* Cut inside the second file's data. */
  g_assert_cmpint (gpg_err_code (pl_tar_list (tar, 512 * 13, &l)), ==,
                   GPG_ERR_INV_DATA);
  g_assert_cmpuint (l.n, ==, 0);
  g_assert_cmpint (gpg_err_code (pl_tar_list ("", 0, &l)), ==,
                   GPG_ERR_INV_DATA);
  g_assert_cmpint (gpg_err_code (pl_tar_list ("hello\n", 6, &l)), ==,
                   GPG_ERR_INV_DATA);
  g_free (tar);
  g_bytes_unref (a);
}

/* More entries than PL_TAR_LIST_MAX (empty files: one header each) are
 * refused, and exactly that many listed. */
static void
test_too_many (void)
{
  size_t cap = (size_t) (PL_TAR_LIST_MAX + 2) * 512 * 2 + (1 << 20);

  for (unsigned extra = 0; extra < 2; extra++)
    {
      pl_tar_listing l;
      Writer w;
      size_t len;
      char *tar;

      writer_init (&w, cap);
      for (unsigned i = 0; i < PL_TAR_LIST_MAX + extra; i++)
        {
          char name[32];

          snprintf (name, sizeof name, "f/%u", i);
          writer_add (&w, name, AE_IFREG, NULL, 0, NULL);
        }
      tar = writer_finish (&w, &len);
      if (extra)
        {
          g_assert_cmpint (gpg_err_code (pl_tar_list (tar, len, &l)), ==,
                           GPG_ERR_TOO_LARGE);
          g_assert_cmpuint (l.n, ==, 0);
        }
      else
        {
          g_assert_cmpint (pl_tar_list (tar, len, &l), ==, 0);
          g_assert_cmpuint (l.n, ==, PL_TAR_LIST_MAX);
          pl_tar_listing_clear (&l);
        }
      g_free (tar);
    }
}

/* A listing's entry that the archive does not hold as listed (another
 * archive's, a size that differs) reads nothing. */
static void
test_read_mismatch (void)
{
  GBytes *a = tu_random_bytes (100);
  pl_tar_listing l;
  pl_tar_entry wrong;
  pl_sink *sink;
  Writer w;
  size_t len;
  char *tar;

  writer_init (&w, 1 << 16);
  writer_add (&w, "d/", AE_IFDIR, NULL, 0, NULL);
  writer_add (&w, "d/a", AE_IFREG, g_bytes_get_data (a, NULL), 100, NULL);
  tar = writer_finish (&w, &len);
  g_assert_cmpint (pl_tar_list (tar, len, &l), ==, 0);
  g_assert_cmpuint (l.n, ==, 1);
  g_assert_cmpuint (l.v[0].data_entry, ==, 1);

  wrong = l.v[0];
  wrong.size = 99;
  sink = pl_sink_new_memory ();
  g_assert_cmpint (gpg_err_code (pl_tar_read_entry (tar, len, &wrong, sink)),
                   ==, GPG_ERR_INV_DATA);
  pl_sink_free (sink);
  wrong = l.v[0];
  wrong.data_entry = 0;         /* the folder */
  sink = pl_sink_new_memory ();
  g_assert_cmpint (gpg_err_code (pl_tar_read_entry (tar, len, &wrong, sink)),
                   ==, GPG_ERR_INV_DATA);
  pl_sink_free (sink);
  wrong.data_entry = 5;         /* past the end */
  sink = pl_sink_new_memory ();
  g_assert_cmpint (gpg_err_code (pl_tar_read_entry (tar, len, &wrong, sink)),
                   ==, GPG_ERR_INV_DATA);
  pl_sink_free (sink);

  pl_tar_listing_clear (&l);
  g_free (tar);
  g_bytes_unref (a);
}

int
main (int argc, char **argv)
{
  tu_init (&argc, &argv);
  /* libarchive converts names through the locale's character set. */
  setlocale (LC_ALL, "C.UTF-8");
  g_test_add_func ("/tar-read/list/kinds", test_list_kinds);
  g_test_add_func ("/tar-read/peers/padlock-made", test_padlock_made);
  g_test_add_func ("/tar-read/peers/gpgtar-made", test_gpgtar_made);
  g_test_add_func ("/tar-read/hostile/damaged", test_damaged);
  g_test_add_func ("/tar-read/hostile/too-many", test_too_many);
  g_test_add_func ("/tar-read/read/mismatch", test_read_mismatch);
  return g_test_run ();
}
