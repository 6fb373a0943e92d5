/* test-io.c - sources and sinks (core/io.h): the transactional file sink
 * never replaces, picks the next free name, shortens the stem to fit
 * NAME_MAX on a UTF-8 boundary, falls back from O_TMPFILE; a source of
 * unknown length read in SEIPD v1's partial chunks; the room a sink
 * makes ahead (allocate, prealloc.h) is given back at commit and abort.
 * The mapped source has test-mapsource, the read-once sources
 * test-streamsource. */
#include <fcntl.h>
#include <limits.h>
#include <string.h>
#include <unistd.h>
#include <sys/stat.h>
#include <glib/gstdio.h>

#include "algo.h"
#include "io.h"
#include "keygen.h"
#include "job.h"
#include "prealloc.h"
#include "refuse-tmpfile.h"
#include "testutil.h"

static char *
numbered (const char *name,
          const char *suffix,
          unsigned    attempt)
{
  char buf[NAME_MAX + 1];

  g_assert_cmpuint (pl_file_name_numbered (name, suffix, attempt, buf, sizeof buf), ==, 0);
  g_assert_cmpuint (strlen (buf), <=, NAME_MAX);
  g_assert_true (g_utf8_validate (buf, -1, NULL));
  return g_strdup (buf);
}

static void
test_numbered (void)
{
  g_autofree char *a = numbered ("report.pdf", ".gpg", 0);
  g_autofree char *b = numbered ("report.pdf", ".gpg", 1);
  g_autofree char *c = numbered ("report.pdf", "", 2);
  g_autofree char *d = numbered ("README", NULL, 3);
  g_autofree char *e = numbered (".bashrc", "", 1);
  char small[16];

  g_assert_cmpstr (a, ==, "report.pdf.gpg");
  g_assert_cmpstr (b, ==, "report (1).pdf.gpg");
  g_assert_cmpstr (c, ==, "report (2).pdf");
  g_assert_cmpstr (d, ==, "README (3)");
  g_assert_cmpstr (e, ==, ".bashrc (1)");
  g_assert_cmpint (gpg_err_code (pl_file_name_numbered ("a", "", 0, small, sizeof small)),
                   ==, GPG_ERR_ENAMETOOLONG);
}

/* A 255-octet name: the stem gives way to the number and the suffix, cut
 * between characters, and the extension stays. */
static void
test_numbered_too_long (void)
{
  g_autoptr(GString) name = g_string_new (NULL);
  g_autoptr(GString) wide = g_string_new (NULL);
  g_autoptr(GString) long_ext = g_string_new ("x.");
  g_autofree char *n0 = NULL, *n1 = NULL, *n12 = NULL, *w1 = NULL, *x1 = NULL;

  while (name->len < NAME_MAX - 4)
    g_string_append_c (name, 'a');
  g_string_append (name, ".txt");
  g_assert_cmpuint (name->len, ==, NAME_MAX);
  n0 = numbered (name->str, "", 0);
  g_assert_cmpstr (n0, ==, name->str);
  n1 = numbered (name->str, "", 1);
  g_assert_cmpuint (strlen (n1), ==, NAME_MAX);
  g_assert_true (g_str_has_suffix (n1, "a (1).txt"));
  n12 = numbered (name->str, ".gpg", 12);
  g_assert_cmpuint (strlen (n12), ==, NAME_MAX);
  g_assert_true (g_str_has_suffix (n12, "a (12).txt.gpg"));

  /* Two-octet characters: the cut never splits one. */
  while (wide->len < NAME_MAX - 1)
    g_string_append (wide, "é");
  g_string_append_c (wide, 'z');
  w1 = numbered (wide->str, "", 1);
  g_assert_cmpuint (strlen (w1), <=, NAME_MAX);
  g_assert_true (g_str_has_suffix (w1, "é (1)"));

  /* An extension that leaves no room for a stem is shortened too. */
  while (long_ext->len < NAME_MAX)
    g_string_append_c (long_ext, 'e');
  x1 = numbered (long_ext->str, ".gpg", 1);
  g_assert_cmpuint (strlen (x1), ==, NAME_MAX);
  g_assert_true (g_str_has_prefix (x1, "x.eee"));
  g_assert_true (g_str_has_suffix (x1, "e (1).gpg"));
}

static gpg_error_t
name_numbered (void     *user_data,
               unsigned  attempt,
               char     *buf,
               size_t    size)
{
  return pl_file_name_numbered (user_data, "", attempt, buf, size);
}

static void
commit_text (pl_sink    *sink,
             const char *text)
{
  g_assert_cmpuint (sink->write (sink, text, strlen (text)), ==, 0);
  g_assert_cmpuint (sink->commit (sink), ==, 0);
}

/* Two outputs of one 255-octet name in one folder, as when a message is
 * decrypted twice: the second is numbered, shortened, and the first stays. */
static void
test_sink_next_free_name (void)
{
  g_autofree char *dir = tu_new_dir ("next-free");
  g_autoptr(GString) name = g_string_new (NULL);
  pl_sink *first = NULL, *second = NULL, *third = NULL;
  g_autofree char *contents = NULL;
  g_autofree char *expected = NULL;

  while (name->len < NAME_MAX)
    g_string_append_c (name, 'n');
  g_assert_cmpuint (pl_sink_new_file_in (dir, name->str, name_numbered, name->str, &first), ==, 0);
  g_assert_cmpuint (pl_sink_new_file_in (dir, name->str, name_numbered, name->str, &second), ==, 0);
  g_assert_cmpuint (pl_sink_new_file_in (dir, name->str, name_numbered, name->str, &third), ==, 0);
  g_assert_null (pl_sink_file_path (first));
  commit_text (first, "first");
  commit_text (second, "second");
  third->abort (third);

  g_assert_true (g_str_has_suffix (pl_sink_file_path (first), name->str));
  expected = numbered (name->str, "", 1);
  g_assert_true (g_str_has_suffix (pl_sink_file_path (second), expected));
  g_assert_true (g_file_get_contents (pl_sink_file_path (first), &contents, NULL, NULL));
  g_assert_cmpstr (contents, ==, "first");
  g_clear_pointer (&contents, g_free);
  g_assert_true (g_file_get_contents (pl_sink_file_path (second), &contents, NULL, NULL));
  g_assert_cmpstr (contents, ==, "second");
  pl_sink_free (first);
  pl_sink_free (second);
  pl_sink_free (third);
  {
    g_autoptr(GDir) d = g_dir_open (dir, 0, NULL);
    guint n = 0;
    while (g_dir_read_name (d))
      n++;
    g_assert_cmpuint (n, ==, 2);
  }
}

/* Without O_TMPFILE: a visible NAME.XXXXXX while writing, linked under the
 * next free name at commit, gone after commit or abort.  A 255-octet name
 * leaves room for the six X. */
static void
test_sink_fallback (void)
{
  g_autofree char *dir = tu_new_dir ("fallback");
  g_autofree char *taken = g_build_filename (dir, "report.txt", NULL);
  g_autoptr(GString) long_name = g_string_new (NULL);
  pl_sink *sink = NULL, *aborted = NULL, *long_sink = NULL;
  g_autofree char *during = NULL, *after = NULL, *expected = NULL;

  while (long_name->len < NAME_MAX)
    g_string_append_c (long_name, 'l');
  g_assert_true (g_file_set_contents (taken, "keep me", -1, NULL));
  tu_refuse_tmpfile (TRUE);
  g_assert_cmpuint (pl_sink_new_file_in (dir, "report.txt", name_numbered, "report.txt", &sink), ==, 0);
  g_assert_cmpuint (pl_sink_new_file_in (dir, "other", NULL, NULL, &aborted), ==, 0);
  g_assert_cmpuint (pl_sink_new_file_in (dir, long_name->str, NULL, NULL, &long_sink), ==, 0);
  tu_refuse_tmpfile (FALSE);
  during = tu_list_dir (dir);
  g_assert_true (g_str_has_prefix (during, "llll"));
  g_assert_nonnull (strstr (during, "|other."));
  g_assert_nonnull (strstr (during, "|report.txt|report.txt."));

  commit_text (sink, "mine");
  commit_text (long_sink, "long");
  aborted->abort (aborted);
  after = tu_list_dir (dir);
  expected = g_strconcat (long_name->str, "|report (1).txt|report.txt", NULL);
  g_assert_cmpstr (after, ==, expected);
  g_assert_true (g_str_has_suffix (pl_sink_file_path (sink), "/report (1).txt"));
  pl_sink_free (sink);
  pl_sink_free (aborted);
  pl_sink_free (long_sink);
}

/* Without a name function: exactly one name, and an existing file stays. */
static void
test_sink_one_name (void)
{
  g_autofree char *dir = tu_new_dir ("one-name");
  g_autofree char *path = g_build_filename (dir, "out", NULL);
  g_autofree char *contents = NULL;
  pl_sink *sink = NULL;

  g_assert_cmpuint (pl_sink_new_file (path, &sink), ==, 0);
  g_assert_true (g_file_set_contents (path, "raced", -1, NULL));
  g_assert_cmpuint (sink->write (sink, "mine", 4), ==, 0);
  g_assert_cmpint (gpg_err_code (sink->commit (sink)), ==, GPG_ERR_EEXIST);
  sink->abort (sink);
  pl_sink_free (sink);
  g_assert_true (g_file_get_contents (path, &contents, NULL, NULL));
  g_assert_cmpstr (contents, ==, "raced");
  g_assert_cmpint (gpg_err_code (pl_sink_new_file_in (dir, "a/b", NULL, NULL, &sink)), ==,
                   GPG_ERR_INV_NAME);
  g_assert_null (sink);
}

/* An input of unknown length (a pipe, a folder's tar) in SEIPD v1: the
 * literal packet's partial chunks come from overlapping reads
 * (encrypt.c).  Lengths around each chunk's end, with the literal
 * header (6 octets: no name) in the first; decrypted by padlock, and by
 * gpg. */
static void
test_unknown_length_chunks (void)
{
  const gsize p = 1 << 20, h = 6;
  const gsize sizes[] = { 0, 1, p - h - 1, p - h, p - h + 1, 2 * p - h,
                          2 * p - h + 1, 3 * p + 7 };
  g_autofree char *gpg = tu_peer ("gpg");
  g_autofree char *pwfile = tu_write_temp ("pw", "pw", 2);
  g_autoptr(GBytes) data = tu_random_bytes (3 * p + 7);
  pl_opener key = pl_opener_passphrase ("pw", 2);
  pl_decrypt_options d = { .openers = &key, .n_openers = 1 };

  for (gsize i = 0; i < G_N_ELEMENTS (sizes); i++)
    {
      const guint8 *in = g_bytes_get_data (data, NULL);
      pl_source *src = pl_source_new_memory (in, sizes[i]);
      pl_sink *sink = pl_sink_new_memory ();
      pl_encrypt_options o;
      const uint8_t *ct, *back;
      size_t ct_len, n;

      g_test_message ("size %zu", sizes[i]);
      /* Neither a length nor octets to borrow: read as from a pipe. */
      src->size = -1;
      src->borrow = NULL;
      tu_cheap_options (&o, PL_PROFILE_RFC4880, &key);
      g_assert_cmpint (pl_encrypt (src, sink, &o, NULL), ==, 0);
      pl_source_free (src);
      ct = pl_sink_memory_data (sink, &ct_len);
      g_autoptr(GBytes) cipher = g_bytes_new (ct, ct_len);
      pl_sink_free (sink);

      src = pl_source_new_memory (g_bytes_get_data (cipher, NULL), ct_len);
      sink = pl_sink_new_memory ();
      g_assert_cmpint (pl_decrypt (src, sink, &d, NULL, NULL), ==, 0);
      back = pl_sink_memory_data (sink, &n);
      g_assert_cmpmem (back, n, in, sizes[i]);
      pl_sink_free (sink);
      pl_source_free (src);

      if (gpg)
        {
          const char *args[] = { "--decrypt", NULL };
          g_autoptr(GBytes) out = NULL;

          g_assert_cmpint (tu_run_gpg (pwfile, args, cipher, &out, NULL), ==, 0);
          g_assert_cmpmem (g_bytes_get_data (out, NULL), g_bytes_get_size (out),
                           in, sizes[i]);
        }
    }
}

/* ---- room made ahead ------------------------------------------------- */

static guint64
fd_blocks_octets (int fd, guint64 *size)
{
  struct stat st;

  g_assert_cmpint (fstat (fd, &st), ==, 0);
  if (size)
    *size = (guint64) st.st_size;
  return (guint64) st.st_blocks * 512;
}

static guint64
path_blocks_octets (const char *path, guint64 *size)
{
  int fd = open (path, O_RDONLY | O_CLOEXEC);
  guint64 blocks;

  g_assert_cmpint (fd, >=, 0);
  blocks = fd_blocks_octets (fd, size);
  close (fd);
  return blocks;
}

/* Whether tu_tmpdir's filesystem allocates ahead (fallocate KEEP_SIZE);
 * the room tests skip where it does not. */
static gboolean
room_skipped (void)
{
  g_autofree char *path = g_build_filename (tu_tmpdir (), "can-allocate", NULL);
  int fd = open (path, O_RDWR | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
  gboolean can;

  g_assert_cmpint (fd, >=, 0);
  can = fallocate (fd, FALLOC_FL_KEEP_SIZE, 0, 4096) == 0;
  close (fd);
  g_unlink (path);
  if (!can)
    g_test_skip ("no fallocate on this filesystem");
  return !can;
}

/* An fd sink over a regular file holding "0123456789", positioned at its
 * end (as `>>` leaves stdout). */
static int
open_ten (const char *name, char **path)
{
  int fd;

  *path = tu_write_temp (name, "0123456789", 10);
  fd = open (*path, O_RDWR | O_CLOEXEC);
  g_assert_cmpint (fd, >=, 0);
  g_assert_cmpint (lseek (fd, 0, SEEK_END), ==, 10);
  return fd;
}

/* Room allocated past what is written shows in the file's blocks, never
 * in its length, and is gone after commit and after abort: the length
 * and the octets are what was written, the blocks what they need. */
static void
test_room_fd_sink (void)
{
  if (room_skipped ())
    return;
  for (int commit = 0; commit < 2; commit++)
    {
      g_autofree char *path = NULL;
      int fd = open_ten ("room-fd", &path);
      guint8 data[4096];
      pl_sink *sink;
      guint64 size;

      memset (data, 'x', sizeof data);
      g_assert_cmpint (pl_sink_new_fd (fd, 1, &sink), ==, 0);
      g_assert_nonnull (sink->allocate);
      g_assert_cmpint (sink->allocate (sink, 0, 8 << 20), ==, 0);
      g_assert_cmpuint (fd_blocks_octets (fd, &size), >=, 8 << 20);
      g_assert_cmpuint (size, ==, 10);
      g_assert_cmpint (sink->write (sink, data, sizeof data), ==, 0);
      g_assert_cmpint (sink->allocate (sink, 4096, 4 << 20), ==, 0);
      if (commit)
        g_assert_cmpint (sink->commit (sink), ==, 0);
      else
        sink->abort (sink);
      g_assert_cmpuint (fd_blocks_octets (fd, &size), <, 1 << 20);
      g_assert_cmpuint (size, ==, commit ? 10 + sizeof data : 10);
      pl_sink_free (sink);
      close (fd);
    }
}

/* The file sink gives back its room before the output gets its name;
 * memory has no room to make. */
static void
test_room_file_sink (void)
{
  g_autofree char *dir = tu_new_dir ("room-file");
  g_autofree char *path = g_build_filename (dir, "out", NULL);
  g_autofree char *got = NULL;
  pl_sink *sink;
  guint64 size;
  gsize n;

  if (room_skipped ())
    return;

  g_assert_cmpint (pl_sink_new_file (path, &sink), ==, 0);
  g_assert_cmpint (sink->write (sink, "hello", 5), ==, 0);
  g_assert_cmpint (sink->allocate (sink, 0, 8 << 20), ==, 0);
  g_assert_cmpint (sink->commit (sink), ==, 0);
  g_assert_cmpuint (path_blocks_octets (path, &size), <, 1 << 20);
  g_assert_cmpuint (size, ==, 5);
  g_assert_true (g_file_get_contents (path, &got, &n, NULL));
  g_assert_cmpmem (got, n, "hello", 5);
  pl_sink_free (sink);

  sink = pl_sink_new_memory ();
  g_assert_null (sink->allocate);
  pl_sink_free (sink);
}

/* A sink whose every allocate fails, counting the tries. */
typedef struct
{
  pl_sink base;
  gint calls;
} refusing_sink;

static gpg_error_t
refusing_allocate (pl_sink *self, uint64_t off, uint64_t len)
{
  (void) off;
  (void) len;
  g_atomic_int_inc (&((refusing_sink *) self)->calls);
  return gpg_error (GPG_ERR_ENOSPC);
}

/* pl_prealloc: allocates from the first octet on until stopped, and
 * says how much; nothing at all where it cannot or need not; one failed
 * step ends it. */
static void
test_prealloc (void)
{
  g_autofree char *path = NULL;
  int fd;
  refusing_sink refusing = { { 0 }, 0 };
  pl_sink *sink, *mem;
  pl_prealloc *p;
  guint64 done, size;
  gint64 until = g_get_monotonic_time () + 10 * G_USEC_PER_SEC;

  if (room_skipped ())
    return;
  fd = open_ten ("prealloc", &path);

  g_assert_cmpint (pl_sink_new_fd (fd, 1, &sink), ==, 0);
  p = pl_prealloc_start (sink, 64 << 20);
  g_assert_nonnull (p);
  while (fd_blocks_octets (fd, NULL) < 4 << 20
         && g_get_monotonic_time () < until)
    g_usleep (1000);
  done = pl_prealloc_stop (p);
  g_assert_cmpuint (done, >=, 4 << 20);
  g_assert_cmpuint (done, <=, 64 << 20);
  g_assert_true (done % PL_PREALLOC_STEP == 0);
  /* Stopped means stopped: nothing more is allocated. */
  g_assert_cmpuint (fd_blocks_octets (fd, &size), <=, done + (1 << 20));
  g_assert_cmpuint (size, ==, 10);
  g_usleep (20000);
  g_assert_cmpuint (fd_blocks_octets (fd, NULL), <=, done + (1 << 20));
  g_assert_cmpint (sink->commit (sink), ==, 0);
  g_assert_cmpuint (fd_blocks_octets (fd, &size), <, 1 << 20);
  g_assert_cmpuint (size, ==, 10);
  pl_sink_free (sink);
  close (fd);

  mem = pl_sink_new_memory ();
  g_assert_null (pl_prealloc_start (mem, 64 << 20));
  g_assert_null (pl_prealloc_start (NULL, 64 << 20));
  pl_sink_free (mem);
  refusing.base.allocate = refusing_allocate;
  g_assert_null (pl_prealloc_start (&refusing.base, PL_PREALLOC_MIN - 1));
  g_assert_cmpint (g_atomic_int_get (&refusing.calls), ==, 0);
  g_assert_cmpuint (pl_prealloc_stop (NULL), ==, 0);

  p = pl_prealloc_start (&refusing.base, 1ull << 40);
  g_assert_nonnull (p);
  until = g_get_monotonic_time () + 10 * G_USEC_PER_SEC;
  while (!g_atomic_int_get (&refusing.calls) && g_get_monotonic_time () < until)
    g_usleep (1000);
  g_usleep (20000);
  g_assert_cmpint (g_atomic_int_get (&refusing.calls), ==, 1);
  g_assert_cmpuint (pl_prealloc_stop (p), ==, 0);
}

/* Whole jobs to file sinks: a passphrase's derivation makes room for as
 * much output as the input's size, and what the output did not need
 * (compressed zeros: a few KiB of 24 MiB) is not left in its blocks;
 * the decryption's output, made room for the same way, is right. */
static void
test_room_jobs (void)
{
  g_autofree char *dir = tu_new_dir ("room-jobs");
  const pl_opener pw = pl_opener_passphrase ("room", 4);
  gsize size = 24 << 20;
  g_autofree guint8 *zeros = g_malloc0 (size);
  g_autoptr (GBytes) random = tu_random_bytes (size);
  const char *names[] = { "zeros", "random" };
  GBytes *inputs[2];

  inputs[0] = g_bytes_new_static (zeros, size);
  inputs[1] = random;
  for (int i = 0; i < 2; i++)
    {
      g_autofree char *in_path = tu_write_temp (names[i], g_bytes_get_data (inputs[i], NULL), size);
      g_autofree char *enc_path = g_strdup_printf ("%s/%s.gpg", dir, names[i]);
      g_autofree char *dec_path = g_strdup_printf ("%s/%s.out", dir, names[i]);
      g_autofree char *want = tu_file_sha256 (in_path);
      g_autofree char *got = NULL;
      pl_encrypt_options o;
      pl_decrypt_options d = { &pw, 1, 0, NULL };
      pl_source *src;
      pl_sink *sink;
      guint64 enc_size, dec_size;

      pl_encrypt_options_init (&o);
      o.openers = &pw;
      o.n_openers = 1;
      o.profile = PL_PROFILE_LIBREPGP;
      o.compress_algo = i == 0 ? PL_COMPRESS_ZLIB : 0;
      o.s2k_ms = 20;
      g_assert_cmpint (pl_source_new_file (in_path, &src), ==, 0);
      g_assert_cmpint (pl_sink_new_file (enc_path, &sink), ==, 0);
      g_assert_cmpint (pl_encrypt (src, sink, &o, NULL), ==, 0);
      pl_sink_free (sink);
      pl_source_free (src);
      /* Blocks: what the length needs, and an ext4 extent's slack. */
      g_assert_cmpuint (path_blocks_octets (enc_path, &enc_size), <,
                        enc_size + (1 << 20));
      if (i == 0)
        g_assert_cmpuint (enc_size, <, 1 << 20);

      g_assert_cmpint (pl_source_new_file (enc_path, &src), ==, 0);
      g_assert_cmpint (pl_sink_new_file (dec_path, &sink), ==, 0);
      g_assert_cmpint (pl_decrypt (src, sink, &d, NULL, NULL), ==, 0);
      pl_sink_free (sink);
      pl_source_free (src);
      g_assert_cmpuint (path_blocks_octets (dec_path, &dec_size), <,
                        dec_size + (1 << 20));
      g_assert_cmpuint (dec_size, ==, size);
      got = tu_file_sha256 (dec_path);
      g_assert_cmpstr (got, ==, want);
    }
  g_bytes_unref (inputs[0]);
}

/* A record sink over an fd sink over a new empty file in tu_tmpdir. */
static int
record_over_file (const char *name, tu_record_sink *rec, char **path)
{
  pl_sink *fd_sink;
  int fd;

  *path = g_build_filename (tu_tmpdir (), name, NULL);
  fd = open (*path, O_RDWR | O_CREAT | O_EXCL | O_CLOEXEC, 0600);
  g_assert_cmpint (fd, >=, 0);
  g_assert_cmpint (pl_sink_new_fd (fd, 1, &fd_sink), ==, 0);
  tu_record_sink_init (rec, fd_sink);
  g_assert_nonnull (rec->base.allocate);
  return fd;
}

/* Which jobs make room: a passphrase's, both ways, on two threads; not
 * one on one thread (the room would take the derivation's core), and
 * not an encryption to a certificate (no wait to fill).  A binary
 * encryption has no wait either: its SKESK is made beside the data and
 * written at its place at the end (keyroom.h, test-keyroom). */
static void
test_room_which_jobs (void)
{
  const pl_opener pw = pl_opener_passphrase ("room", 4);
  gsize size = 24 << 20;
  g_autoptr (GBytes) data = tu_random_bytes (size);
  g_autofree char *in_path = tu_write_temp ("which-in", g_bytes_get_data (data, NULL), size);
  tu_key key;
  pl_opener to_cert;
  struct { const char *name; int threads; int cert; int decrypt; int armor; int room; int beside; } cases[] = {
    { "pw-2", 2, 0, 0, 0, 0, 1 },
    { "pw-2-armor", 2, 0, 0, 1, 1, 0 },
    { "pw-1", 1, 0, 0, 0, 0, 0 },
    { "cert-2", 2, 1, 0, 0, 0, 0 },
    { "pw-2-dec", 2, 0, 1, 0, 1, 0 },
  };
  g_autofree char *enc_path = NULL;

  if (room_skipped ())
    return;

  tu_key_make (&key, PL_KEYGEN_DEFAULT);
  to_cert = (pl_opener) { PL_OPENER_CERT, key.certs[0], 0, 0, 0 };
  for (gsize i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      pl_job_control ctl = { .threads = cases[i].threads };
      tu_record_sink rec;
      g_autofree char *out_path = NULL;
      int fd = record_over_file (cases[i].name, &rec, &out_path);
      pl_source *src;
      guint64 out_size;

      g_test_message ("%s", cases[i].name);
      if (cases[i].decrypt)
        {
          pl_decrypt_options d = { &pw, 1, 0, NULL };

          g_assert_cmpint (pl_source_new_file (enc_path, &src), ==, 0);
          g_assert_cmpint (pl_decrypt (src, &rec.base, &d, NULL, &ctl), ==, 0);
        }
      else
        {
          pl_encrypt_options o;

          pl_encrypt_options_init (&o);
          o.openers = cases[i].cert ? &to_cert : &pw;
          o.n_openers = 1;
          /* The key's features do not ask for OCB. */
          o.profile = cases[i].cert ? PL_PROFILE_RFC4880 : PL_PROFILE_LIBREPGP;
          /* The steady count (36 ms here), not a calibration: made
           * beside the data, a calibration is timed against the data's
           * threads and may come out far shorter, too short for the
           * decryption's room to begin. */
          o.s2k_ms = 0;
          o.armor = cases[i].armor;
          g_assert_cmpint (pl_source_new_file (in_path, &src), ==, 0);
          g_assert_cmpint (pl_encrypt (src, &rec.base, &o, &ctl), ==, 0);
        }
      pl_source_free (src);
      g_assert_cmpint (rec.committed, ==, 1);
      /* The room thread's first step is under way before the derivation
       * could end. */
      if (cases[i].room)
        g_assert_cmpuint (rec.allocated, >=, PL_PREALLOC_STEP);
      else
        g_assert_cmpuint (rec.allocated, ==, 0);
      if (cases[i].beside)
        g_assert_cmpuint (rec.written_at, >, 0);
      else
        g_assert_cmpuint (rec.written_at, ==, 0);
      g_assert_cmpuint (fd_blocks_octets (fd, &out_size), <, out_size + (1 << 20));
      tu_record_sink_clear (&rec);
      close (fd);
      if (i == 0)
        enc_path = g_steal_pointer (&out_path);
      else if (cases[i].decrypt)
        {
          g_autofree char *got = tu_file_sha256 (out_path);
          g_autofree char *want = tu_file_sha256 (in_path);
          g_assert_cmpstr (got, ==, want);
        }
    }
  tu_key_free (&key);
}

int
main (int argc, char **argv)
{
  tu_init (&argc, &argv);
  g_test_add_func ("/io/name/numbered", test_numbered);
  g_test_add_func ("/io/name/too-long", test_numbered_too_long);
  g_test_add_func ("/io/file-sink/next-free-name", test_sink_next_free_name);
  g_test_add_func ("/io/file-sink/one-name", test_sink_one_name);
  g_test_add_func ("/io/file-sink/mkstemp-fallback", test_sink_fallback);
  g_test_add_func ("/io/unknown-length/chunks", test_unknown_length_chunks);
  g_test_add_func ("/io/room/fd-sink", test_room_fd_sink);
  g_test_add_func ("/io/room/file-sink", test_room_file_sink);
  g_test_add_func ("/io/room/prealloc", test_prealloc);
  g_test_add_func ("/io/room/jobs", test_room_jobs);
  g_test_add_func ("/io/room/which-jobs", test_room_which_jobs);
  return g_test_run ();
}
