/* test-tar.c - folders as tar archives: round trips through the engine,
 * through gpg | tar, gpgtar and back, hostile archives, cancel and
 * failure, all against the real tools */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/statvfs.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <unistd.h>
#include <archive.h>
#include <archive_entry.h>
#include <glib.h>
#include <glib/gstdio.h>

#include "fail-io.h"
#include "tar.h"
#include "testutil.h"

#define PASSPHRASE "correct horse battery staple"
static const pl_opener passphrase_key = { PL_OPENER_PASSPHRASE, PASSPHRASE,
                                       sizeof PASSPHRASE - 1, 0 };
#define MTIME 1600000000

static const char *long_name =
  "a-name-longer-than-the-hundred-octets-of-a-ustar-header-field-"
  "so-that-a-pax-header-has-to-carry-it-whole-and-then-some.txt";
static const char *unicode_name = "Ünïcødé ✓ 写真.txt";

/* A fresh, empty folder under the test's temporary folder. */
static char *
fresh_dir (const char *what)
{
  static int n;
  char *path = g_strdup_printf ("%s/%s-%d", tu_tmpdir (), what, n++);

  g_assert_cmpint (g_mkdir_with_parents (path, 0755), ==, 0);
  return path;
}

static void
put_file (const char *dir, const char *name, gsize len, int mode)
{
  char *path = g_build_filename (dir, name, NULL);
  GBytes *data = tu_random_bytes (len);
  struct timespec times[2] = { { MTIME, 0 }, { MTIME, 0 } };

  g_assert_true (g_file_set_contents (path, g_bytes_get_data (data, NULL),
                                      (gssize) len, NULL));
  g_assert_cmpint (chmod (path, mode), ==, 0);
  g_assert_cmpint (utimensat (AT_FDCWD, path, times, 0), ==, 0);
  g_bytes_unref (data);
  g_free (path);
}

static void
set_mtime (const char *dir, const char *name, time_t t)
{
  char *path = g_build_filename (dir, name, NULL);
  struct timespec times[2] = { { t, 0 }, { t, 0 } };

  g_assert_cmpint (utimensat (AT_FDCWD, path, times, AT_SYMLINK_NOFOLLOW),
                   ==, 0);
  g_free (path);
}

/* PARENT/Photos with every kind of thing the archive keeps; WITH adds a
 * FIFO it leaves out and a setuid bit it drops.  Returns the folder's
 * path. */
enum { WITH_FIFO = 1, WITH_SETUID = 2 };

static char *
make_tree (const char *parent, int with)
{
  char *top = g_build_filename (parent, "Photos", NULL);
  char *sub = g_build_filename (top, "sub", NULL);
  char *deep = g_build_filename (top, "sub", "empty", NULL);
  char *path;

  g_assert_cmpint (g_mkdir_with_parents (deep, 0755), ==, 0);
  put_file (top, "a.txt", 1000, 0644);
  put_file (sub, "big.bin", 3 * PL_TAR_BLOCK + 123, 0600);
  put_file (sub, "empty-file", 0, 0640);
  put_file (top, "script.sh", 64, with & WITH_SETUID ? 04755 : 0755);
  put_file (top, long_name, 10, 0644);
  put_file (top, unicode_name, 20, 0644);

  path = g_build_filename (top, "link", NULL);
  g_assert_cmpint (symlink ("a.txt", path), ==, 0);
  g_free (path);
  path = g_build_filename (top, "dangling", NULL);
  g_assert_cmpint (symlink ("../nowhere", path), ==, 0);
  g_free (path);
  path = g_build_filename (top, "hard", NULL);
  {
    char *a = g_build_filename (top, "a.txt", NULL);
    g_assert_cmpint (link (a, path), ==, 0);
    g_free (a);
  }
  g_free (path);
  if (with & WITH_FIFO)
    {
      path = g_build_filename (top, "fifo", NULL);
      g_assert_cmpint (mkfifo (path, 0644), ==, 0);
      g_free (path);
    }
  set_mtime (top, "link", MTIME);
  set_mtime (sub, "empty", MTIME + 1);
  set_mtime (top, "sub", MTIME + 2);
  set_mtime (parent, "Photos", MTIME + 3);
  g_free (deep);
  g_free (sub);
  return top;
}

typedef enum
{
  SAME_ALL,                     /* everything tar.h promises */
  SAME_BUT_DIR_TIMES,           /* gpgtar's archives: no folder times */
  SAME_NAMES_AND_CONTENTS       /* what gpgtar 2.2 --decrypt restores */
} Sameness;

/* Compares two trees: names, kinds, contents, link targets, permission
 * bits (setid dropped), modification times, and hard links.  FIFOs in A
 * must be absent from B.  With SAME_NAMES_AND_CONTENTS, links in A must be
 * absent from B (gpgtar 2.2 skips them), and modes and times are not
 * compared. */
static void
compare_trees (const char *a, const char *b, Sameness how)
{
  GDir *dir = g_dir_open (a, 0, NULL);
  const char *name;
  int n_a = 0, n_b = 0;
  struct stat sa, sb;

  g_assert_nonnull (dir);
  while ((name = g_dir_read_name (dir)))
    {
      char *pa = g_build_filename (a, name, NULL);
      char *pb = g_build_filename (b, name, NULL);

      g_assert_cmpint (lstat (pa, &sa), ==, 0);
      if (S_ISFIFO (sa.st_mode)
          || (how == SAME_NAMES_AND_CONTENTS && S_ISLNK (sa.st_mode)))
        {
          g_assert_cmpint (lstat (pb, &sb), ==, -1);
          goto next;
        }
      if (how == SAME_NAMES_AND_CONTENTS && S_ISREG (sa.st_mode)
          && sa.st_nlink > 1 && lstat (pb, &sb))
        goto next;              /* the second name of a hard link */
      n_a++;
      if (lstat (pb, &sb))
        g_error ("%s is missing", pb);
      g_assert_cmpint (sa.st_mode & S_IFMT, ==, sb.st_mode & S_IFMT);
      if (S_ISLNK (sa.st_mode))
        {
          char *ta = g_file_read_link (pa, NULL), *tb = g_file_read_link (pb, NULL);
          g_assert_cmpstr (ta, ==, tb);
          g_free (ta);
          g_free (tb);
          goto next;
        }
      if (how != SAME_NAMES_AND_CONTENTS)
        {
          g_assert_cmpint (sb.st_mode & 07777, ==, sa.st_mode & 0777);
          if (S_ISREG (sa.st_mode) || how == SAME_ALL)
            g_assert_cmpint (sb.st_mtime, ==, sa.st_mtime);
          g_assert_cmpint (sb.st_nlink, ==, sa.st_nlink);
        }
      if (S_ISREG (sa.st_mode))
        {
          char *da, *db;
          gsize la, lb;

          g_assert_true (g_file_get_contents (pa, &da, &la, NULL));
          g_assert_true (g_file_get_contents (pb, &db, &lb, NULL));
          g_assert_cmpmem (da, la, db, lb);
          g_free (da);
          g_free (db);
        }
      else
        compare_trees (pa, pb, how);
    next:
      g_free (pa);
      g_free (pb);
    }
  g_dir_close (dir);
  dir = g_dir_open (b, 0, NULL);
  while ((name = g_dir_read_name (dir)))
    n_b++;
  g_dir_close (dir);
  g_assert_cmpint (n_a, ==, n_b);
}

/* Nothing in DIR: no output, no hidden folder left behind. */
static void
assert_empty_dir (const char *dir)
{
  GDir *d = g_dir_open (dir, 0, NULL);
  const char *name = g_dir_read_name (d);

  if (name)
    g_error ("%s was left in %s", name, dir);
  g_dir_close (d);
}

typedef struct
{
  GPtrArray *skipped;
  GPtrArray *read;
  guint64 files, bytes;
} Seen;

static void
on_skipped (void *user_data, const char *name)
{
  g_ptr_array_add (((Seen *) user_data)->skipped, g_strdup (name));
}

static void
on_reading (void *user_data, const char *name, uint64_t files, uint64_t bytes)
{
  Seen *seen = user_data;

  if (!seen->read->len
      || strcmp (g_ptr_array_index (seen->read, seen->read->len - 1), name))
    g_ptr_array_add (seen->read, g_strdup (name));
  seen->files = files;
  seen->bytes = bytes;
}

static void
seen_init (Seen *seen, pl_tar_callbacks *cb)
{
  memset (seen, 0, sizeof *seen);
  seen->skipped = g_ptr_array_new_with_free_func (g_free);
  seen->read = g_ptr_array_new_with_free_func (g_free);
  memset (cb, 0, sizeof *cb);
  cb->skipped = on_skipped;
  cb->reading = on_reading;
  cb->user_data = seen;
}

static void
seen_clear (Seen *seen)
{
  g_ptr_array_unref (seen->skipped);
  g_ptr_array_unref (seen->read);
}

/* Encrypts FOLDER into OUT with the engine, as the app does. */
static gpg_error_t
encrypt_folder (const char *folder, const char *out, pl_tar_callbacks *cb,
                pl_profile profile, int armor)
{
  pl_source *src = NULL;
  pl_sink *sink = NULL;
  pl_encrypt_options opts;
  gpg_error_t err;

  pl_encrypt_options_init (&opts);
  opts.openers = &passphrase_key;
  opts.n_openers = 1;
  opts.profile = profile;
  opts.armor = armor;
  opts.file_name = "Photos.tar";
  g_assert_cmpint (pl_tar_source_new (folder, cb, &src), ==, 0);
  g_assert_cmpint (pl_sink_new_file (out, &sink), ==, 0);
  err = pl_encrypt (src, sink, &opts, NULL);
  if (err && cb && cb->user_data)
    {
      const char *path = NULL;
      pl_tar_source_problem (src, &path);
      g_test_message ("encrypt: %s (%s)", gpg_strerror (err),
                      path ? path : "-");
    }
  pl_sink_free (sink);
  pl_source_free (src);
  return err;
}

/* Decrypts IN into a folder NAME in DIR; returns the extractor's problem
 * and entry through the out-parameters. */
static gpg_error_t
decrypt_to_folder (const char *in, const char *dir, const char *name,
                   pl_tar_problem *problem, char **entry, char **final)
{
  pl_source *src = NULL;
  pl_sink *sink = NULL;
  pl_decrypt_options opts = { 0 };
  pl_decrypt_result result = { 0 };
  const char *e = NULL;
  gpg_error_t err;

  opts.openers = &passphrase_key;
  opts.n_openers = 1;
  g_assert_cmpint (pl_source_new_file (in, &src), ==, 0);
  g_assert_cmpint (pl_tar_extractor_new (dir, name, &sink), ==, 0);
  err = pl_decrypt (src, sink, &opts, &result, NULL);
  if (problem)
    *problem = pl_tar_extractor_problem (sink, &e);
  if (err)
    g_test_message ("unpacking: %s; problem %d with %s", gpg_strerror (err),
                    pl_tar_extractor_problem (sink, &e), e ? e : "-");
  if (entry)
    *entry = g_strdup (e);
  if (final)
    *final = g_strdup (pl_tar_extractor_path (sink));
  pl_sink_free (sink);
  pl_source_free (src);
  return err;
}

static int
run_gpg (const char *const *args, GBytes *in, GBytes **out)
{
  char *pwfile = tu_write_temp ("tar-pw", PASSPHRASE, strlen (PASSPHRASE));
  int status = tu_run_gpg (pwfile, args, in, out, NULL);

  g_free (pwfile);
  return status;
}

/* The gpgtar arguments that make it use our GnuPG home and passphrase. */
static char *
gpgtar_gpg_args (void)
{
  char *pwfile = tu_write_temp ("tar-pw", PASSPHRASE, strlen (PASSPHRASE));
  char *args = g_strdup_printf ("--homedir=%s --batch --no-tty "
                                "--pinentry-mode=loopback "
                                "--passphrase-file=%s",
                                tu_gnupg_home (), pwfile);
  g_free (pwfile);
  return args;
}

/* What a test of one archive works with: a source folder "Photos" made
 * by make_tree, the archive's path beside it, and an empty folder to
 * unpack into. */
typedef struct
{
  char *src_parent;
  char *folder;
  char *archive;
  char *out_dir;
} Scene;

static void
scene_init (Scene *sc, int with, const char *archive_name)
{
  sc->src_parent = fresh_dir ("src");
  sc->folder = make_tree (sc->src_parent, with);
  sc->archive = g_build_filename (sc->src_parent, archive_name, NULL);
  sc->out_dir = fresh_dir ("out");
}

static void
scene_clear (Scene *sc)
{
  g_free (sc->out_dir);
  g_free (sc->archive);
  g_free (sc->folder);
  g_free (sc->src_parent);
}

/* Runs the program ARGV[0] names (on PATH) with IN on stdin; asserts it
 * exits 0, logging its stderr when not.  Returns stdout. */
static GBytes *
run_tool (const char **argv, GBytes *in)
{
  char *program = tu_find_program (argv[0]);
  const char *name = argv[0];
  char *err_text = NULL;
  GBytes *out = NULL;
  int status;

  g_assert_nonnull (program);
  argv[0] = program;
  g_assert_true (tu_run (argv, in, &out, &err_text, &status));
  argv[0] = name;
  if (status)
    g_test_message ("%s: %s", name, err_text);
  g_assert_cmpint (status, ==, 0);
  g_free (err_text);
  g_free (program);
  return out;
}

/* Our archive, unpacked by ourselves: twice, the second time beside the
 * first as "Photos (1)". */
static void
test_roundtrip (gconstpointer data)
{
  pl_profile profile = GPOINTER_TO_INT (data);
  Scene sc;
  char *final = NULL, *want;
  pl_tar_callbacks cb;
  pl_tar_totals totals;
  Seen seen;

  scene_init (&sc, WITH_FIFO | WITH_SETUID, "Photos.tar.gpg");
  seen_init (&seen, &cb);
  g_assert_cmpint (pl_tar_scan (sc.folder, NULL, &totals, NULL), ==, 0);
  /* Photos, sub, empty, 5 files, 2 links, hard link: the FIFO is left out. */
  g_assert_cmpuint (totals.files, ==, 12);
  g_assert_cmpuint (totals.bytes, ==,
                    1000 + 3 * PL_TAR_BLOCK + 123 + 64 + 10 + 20);
  g_assert_cmpint (encrypt_folder (sc.folder, sc.archive, &cb, profile,
                                   FALSE), ==, 0);
  g_assert_cmpuint (seen.skipped->len, ==, 1);
  g_assert_cmpstr (g_ptr_array_index (seen.skipped, 0), ==, "fifo");
  /* The hard link's data is not read twice. */
  g_assert_cmpuint (seen.bytes, ==, totals.bytes);
  g_assert_true (g_ptr_array_find_with_equal_func (seen.read, "sub/big.bin",
                                                   g_str_equal, NULL));

  for (int round = 0; round < 2; round++)
    {
      g_assert_cmpint (decrypt_to_folder (sc.archive, sc.out_dir, "Photos",
                                          NULL, NULL, &final), ==, 0);
      want = g_build_filename (sc.out_dir, round ? "Photos (1)" : "Photos",
                               NULL);
      g_assert_cmpstr (final, ==, want);
      compare_trees (sc.folder, final, SAME_ALL);
      g_free (final);
      g_free (want);
    }
  seen_clear (&seen);
  scene_clear (&sc);
}

/* gpg -d | tar x reproduces the folder. */
static void
test_gpg_pipe_tar (void)
{
  Scene sc;
  char *unpacked;
  GBytes *plain, *listing;

  if (!tu_have_peer ("gpg") || !tu_have_peer ("tar"))
    return;
  scene_init (&sc, WITH_SETUID, "Photos.tar.asc");
  g_assert_cmpint (encrypt_folder (sc.folder, sc.archive, NULL,
                                   PL_PROFILE_RFC4880, TRUE), ==, 0);
  {
    const char *args[] = { "--decrypt", sc.archive, NULL };
    g_assert_cmpint (run_gpg (args, NULL, &plain), ==, 0);
  }
  {
    const char *argv[] = { "tar", "-x", "-p", "-f", "-", "-C", sc.out_dir,
                           NULL };
    listing = run_tool (argv, plain);
  }
  unpacked = g_build_filename (sc.out_dir, "Photos", NULL);
  compare_trees (sc.folder, unpacked, SAME_ALL);

  g_free (unpacked);
  g_bytes_unref (plain);
  g_bytes_unref (listing);
  scene_clear (&sc);
}

/* gpgtar --decrypt reproduces the folder. */
static void
test_gpgtar_reads_ours (void)
{
  Scene sc;
  char *unpacked, *gpg_args;

  if (!tu_have_peer ("gpgtar"))
    return;
  scene_init (&sc, WITH_SETUID, "Photos.tar.gpg");
  gpg_args = gpgtar_gpg_args ();
  g_assert_cmpint (encrypt_folder (sc.folder, sc.archive, NULL,
                                   PL_PROFILE_RFC4880, FALSE), ==, 0);
  {
    const char *argv[] = { "gpgtar", "--gpg-args", gpg_args, "--decrypt",
                           "--directory", sc.out_dir, sc.archive, NULL };
    g_bytes_unref (run_tool (argv, NULL));
  }
  /* gpgtar 2.2.40 --decrypt restores names, folders and file contents;
   * it skips symbolic and hard links ("unsupported file type") and sets
   * neither modes nor times, for its own archives as for ours: compare
   * what it restores.  gpg | tar x above checks the rest. */
  unpacked = g_build_filename (sc.out_dir, "Photos", NULL);
  compare_trees (sc.folder, unpacked, SAME_NAMES_AND_CONTENTS);

  g_free (unpacked);
  g_free (gpg_args);
  scene_clear (&sc);
}

/* We unpack gpgtar --encrypt --symmetric's output. */
static void
test_ours_reads_gpgtar (void)
{
  Scene sc;
  char *final = NULL, *gpg_args;

  if (!tu_have_peer ("gpgtar"))
    return;
  scene_init (&sc, WITH_SETUID, "Photos.tar.gpg");
  gpg_args = gpgtar_gpg_args ();
  {
    const char *argv[] = { "gpgtar", "--gpg-args", gpg_args, "--encrypt",
                           "--symmetric", "--output", sc.archive,
                           "--directory", sc.src_parent, "Photos", NULL };
    g_bytes_unref (run_tool (argv, NULL));
  }
  g_assert_cmpint (decrypt_to_folder (sc.archive, sc.out_dir, "Photos", NULL,
                                      NULL, &final), ==, 0);
  /* gpgtar 2.2 keeps files, folders and symbolic links, not hard links
   * (it stores the data twice), nor folder times: compare what it keeps. */
  {
    char *p = g_build_filename (sc.folder, "hard", NULL);
    g_assert_cmpint (unlink (p), ==, 0);
    g_free (p);
    p = g_build_filename (final, "hard", NULL);
    g_assert_true (g_file_test (p, G_FILE_TEST_IS_REGULAR));
    g_assert_cmpint (unlink (p), ==, 0);
    g_free (p);
  }
  compare_trees (sc.folder, final, SAME_BUT_DIR_TIMES);

  g_free (final);
  g_free (gpg_args);
  scene_clear (&sc);
}

/* We unpack tar c | gpg -c. */
static void
test_ours_reads_tar_gpg (void)
{
  Scene sc;
  char *final = NULL;
  GBytes *plain, *cipher;

  if (!tu_have_peer ("gpg") || !tu_have_peer ("tar"))
    return;
  scene_init (&sc, 0, "Photos.tar.gpg");
  {
    const char *argv[] = { "tar", "-c", "-f", "-", "-C", sc.src_parent,
                           "Photos", NULL };
    plain = run_tool (argv, NULL);
  }
  {
    const char *args[] = { "--symmetric", "--output", sc.archive, NULL };
    g_assert_cmpint (run_gpg (args, plain, &cipher), ==, 0);
  }
  g_assert_cmpint (decrypt_to_folder (sc.archive, sc.out_dir, "Photos", NULL,
                                      NULL, &final), ==, 0);
  compare_trees (sc.folder, final, SAME_ALL);

  g_bytes_unref (plain);
  g_bytes_unref (cipher);
  g_free (final);
  scene_clear (&sc);
}

typedef struct
{
  const char *name;
  pl_tar_problem problem;
} HostileCase;

static const HostileCase hostile_cases[] = {
  { "dotdot", PL_TAR_DOTDOT },
  { "absolute", PL_TAR_ABSOLUTE },
  { "through-symlink", PL_TAR_THROUGH_SYMLINK },
  { "hardlink-absolute", PL_TAR_HARDLINK_OUTSIDE },
  { "hardlink-dotdot", PL_TAR_HARDLINK_OUTSIDE },
  { "hardlink-missing", PL_TAR_HARDLINK_MISSING },
  { "hardlink-to-folder", PL_TAR_HARDLINK_MISSING },
  { "device", PL_TAR_DEVICE },
  { "fifo", PL_TAR_DEVICE },
  { "setuid", PL_TAR_SETID },
  { "setgid", PL_TAR_SETID },
  { "duplicate", PL_TAR_DUPLICATE },
};

/* A hostile archive, built by Python's tarfile and encrypted by gpg, is
 * refused whole, naming the entry, and nothing is left behind. */
static void
test_hostile (gconstpointer data)
{
  const HostileCase *hc = data;
  char *work = fresh_dir ("hostile");
  char *out_dir = fresh_dir ("hostile-out");
  char *tar_path = g_build_filename (work, "h.tar", NULL);
  char *archive = g_build_filename (work, "h.tar.gpg", NULL);
  char *script = g_build_filename (g_getenv ("PADLOCK_SOURCE_DIR"), "tests",
                                   "tar-hostile.py", NULL);
  char *python = tu_find_program ("python3");
  char *entry = NULL, *named = NULL, *final = NULL;
  GBytes *out = NULL;
  pl_tar_problem problem;
  gpg_error_t err;
  int status;

  if (!tu_have_peer ("python3") || !tu_have_peer ("gpg"))
    goto leave;
  {
    const char *argv[] = { python, script, hc->name, tar_path, NULL };
    g_assert_true (tu_run (argv, NULL, &out, NULL, &status));
    g_assert_cmpint (status, ==, 0);
    named = g_strchomp (g_strndup (g_bytes_get_data (out, NULL),
                                   g_bytes_get_size (out)));
  }
  {
    const char *args[] = { "--symmetric", "--output", archive, tar_path,
                           NULL };
    GBytes *none = NULL;
    g_assert_cmpint (run_gpg (args, NULL, &none), ==, 0);
    g_clear_pointer (&none, g_bytes_unref);
  }
  err = decrypt_to_folder (archive, out_dir, "h", &problem, &entry, &final);
  g_assert_cmpint (gpg_err_code (err), ==, GPG_ERR_INV_NAME);
  g_assert_cmpint (problem, ==, hc->problem);
  g_assert_cmpstr (entry, ==, named);
  g_assert_null (final);
  assert_empty_dir (out_dir);
  g_assert_false (g_file_test ("/tmp/padlock-absolute.txt",
                               G_FILE_TEST_EXISTS));
  g_assert_false (g_file_test ("/tmp/padlock-through.txt",
                               G_FILE_TEST_EXISTS));

 leave:
  g_clear_pointer (&out, g_bytes_unref);
  g_free (final);
  g_free (named);
  g_free (entry);
  g_free (python);
  g_free (script);
  g_free (archive);
  g_free (tar_path);
  g_free (out_dir);
  g_free (work);
}

/* A damaged message: the MDC fails after the archive was unpacked into
 * the hidden folder, which then goes. */
static void
test_tampered_leaves_nothing (void)
{
  Scene sc;
  char *data;
  gsize len;

  scene_init (&sc, WITH_SETUID, "Photos.tar.gpg");
  g_assert_cmpint (encrypt_folder (sc.folder, sc.archive, NULL,
                                   PL_PROFILE_RFC4880, FALSE), ==, 0);
  g_assert_true (g_file_get_contents (sc.archive, &data, &len, NULL));
  data[len - 10] ^= 1;
  g_assert_true (g_file_set_contents (sc.archive, data, (gssize) len, NULL));
  g_assert_cmpint (decrypt_to_folder (sc.archive, sc.out_dir, "Photos", NULL,
                                      NULL, NULL), !=, 0);
  assert_empty_dir (sc.out_dir);
  g_free (data);
  scene_clear (&sc);
}

/* Not a tar, or cut short: refused as damaged, nothing left. */
static void
test_extractor_refuses_garbage (void)
{
  char *out_dir = fresh_dir ("garbage");
  GBytes *junk = tu_random_bytes (100000);
  const char *entry;
  pl_sink *sink;
  gpg_error_t err;

  g_assert_cmpint (pl_tar_extractor_new (out_dir, "x", &sink), ==, 0);
  err = sink->write (sink, g_bytes_get_data (junk, NULL), 100000);
  if (!err)
    err = sink->commit (sink);
  g_assert_cmpint (gpg_err_code (err), ==, GPG_ERR_INV_DATA);
  g_assert_cmpint (pl_tar_extractor_problem (sink, &entry), ==,
                   PL_TAR_DAMAGED);
  sink->abort (sink);
  pl_sink_free (sink);
  assert_empty_dir (out_dir);
  g_bytes_unref (junk);
  g_free (out_dir);
}

/* The tar stream of a folder, in memory. */
static GByteArray *
read_all (pl_source *src, gpg_error_t *err)
{
  GByteArray *all = g_byte_array_new ();
  guint8 buf[70000];            /* odd size: headers straddle reads */
  size_t n;

  while (!(*err = src->read (src, buf, sizeof buf, &n)) && n)
    g_byte_array_append (all, buf, (guint) n);
  return all;
}

/* Truncated archive; cancel half-way through unpacking; abort with data
 * in the ring: nothing is left, the thread always ends. */
static void
test_extractor_abort (void)
{
  char *src_parent = fresh_dir ("src");
  char *folder = make_tree (src_parent, WITH_SETUID);
  char *out_dir = fresh_dir ("abort");
  pl_source *src;
  pl_sink *sink;
  GByteArray *all;
  gpg_error_t err;

  g_assert_cmpint (pl_tar_source_new (folder, NULL, &src), ==, 0);
  all = read_all (src, &err);
  g_assert_cmpint (err, ==, 0);
  pl_source_free (src);
  g_assert_true (pl_tar_header_is_valid (all->data, all->len));
  g_assert_false (pl_tar_header_is_valid (all->data + 1, all->len - 1));

  /* Cut short: commit fails, abort cleans. */
  g_assert_cmpint (pl_tar_extractor_new (out_dir, "Photos", &sink), ==, 0);
  g_assert_cmpint (sink->write (sink, all->data, all->len / 2), ==, 0);
  g_assert_cmpint (gpg_err_code (sink->commit (sink)), ==, GPG_ERR_INV_DATA);
  sink->abort (sink);
  pl_sink_free (sink);
  assert_empty_dir (out_dir);

  /* Aborted with everything written but no commit. */
  g_assert_cmpint (pl_tar_extractor_new (out_dir, "Photos", &sink), ==, 0);
  g_assert_cmpint (sink->write (sink, all->data, all->len), ==, 0);
  sink->abort (sink);
  pl_sink_free (sink);
  assert_empty_dir (out_dir);

  /* Freed without commit. */
  g_assert_cmpint (pl_tar_extractor_new (out_dir, "Photos", &sink), ==, 0);
  g_assert_cmpint (sink->write (sink, all->data, all->len / 3), ==, 0);
  pl_sink_free (sink);
  assert_empty_dir (out_dir);

  g_byte_array_unref (all);
  g_free (out_dir);
  g_free (folder);
  g_free (src_parent);
}

static void
on_cancel_reading (void *user_data, const char *name, uint64_t files,
                   uint64_t bytes)
{
  atomic_store ((atomic_int *) user_data, 1);
}

/* Cancel while the folder is read: the encryption fails as cancelled and
 * the output file never appears. */
static void
test_source_cancel (void)
{
  char *src_parent = fresh_dir ("src");
  char *folder = make_tree (src_parent, WITH_SETUID);
  char *archive = g_build_filename (src_parent, "Photos.tar.gpg", NULL);
  atomic_int cancel = 0;
  pl_tar_callbacks cb = { .reading = on_cancel_reading, .user_data = &cancel,
                          .cancel = &cancel };

  g_assert_cmpint (gpg_err_code (encrypt_folder (folder, archive, &cb,
                                                 PL_PROFILE_RFC4880, FALSE)),
                   ==, GPG_ERR_CANCELED);
  g_assert_false (g_file_test (archive, G_FILE_TEST_EXISTS));
  g_free (archive);
  g_free (folder);
  g_free (src_parent);
}

/* The scan of one folder of many entries counts them as it stats them,
 * not after fts has statted them all: at its first report, every file
 * of the flat folder grows by one octet, and the scan sees the new size
 * of all but those it had reached.  (Before, a folder's entries were all
 * statted before the first came back: the count stood at zero for most
 * of a big folder's scan, and a cancel waited for its end.) */
#define FLAT_FILES 2000

typedef struct
{
  char *folder;
  guint reports;
  atomic_int cancel;
  gboolean cancel_at_first;
} FlatScan;

static void
on_flat_counting (void *user_data, uint64_t files, uint64_t bytes)
{
  FlatScan *fs = user_data;

  if (fs->reports++ || files >= FLAT_FILES)
    return;
  if (fs->cancel_at_first)
    {
      atomic_store (&fs->cancel, 1);
      return;
    }
  for (guint i = 0; i < FLAT_FILES; i++)
    {
      g_autofree char *name = g_strdup_printf ("f%05u", i);
      g_autofree char *path = g_build_filename (fs->folder, name, NULL);

      g_assert_true (g_file_set_contents (path, "x", 1, NULL));
    }
}

static void
test_scan_flat_folder (void)
{
  char *parent = fresh_dir ("flat");
  FlatScan fs = { .folder = g_build_filename (parent, "Flat", NULL) };
  pl_tar_callbacks cb = { .counting = on_flat_counting, .user_data = &fs,
                          .cancel = &fs.cancel };
  pl_tar_totals totals;

  g_assert_cmpint (g_mkdir (fs.folder, 0755), ==, 0);
  for (guint i = 0; i < FLAT_FILES; i++)
    {
      g_autofree char *name = g_strdup_printf ("f%05u", i);
      g_autofree char *path = g_build_filename (fs.folder, name, NULL);

      g_assert_true (g_file_set_contents (path, "", 0, NULL));
    }
  g_assert_cmpint (pl_tar_scan (fs.folder, &cb, &totals, NULL), ==, 0);
  g_test_message ("%u reports; %" G_GUINT64_FORMAT " octets seen",
                  fs.reports, (guint64) totals.bytes);
  g_assert_cmpuint (totals.files, ==, FLAT_FILES + 1);
  g_assert_cmpuint (fs.reports, >=, FLAT_FILES / 256);
  /* The first report came after at most 256 entries. */
  g_assert_cmpuint (totals.bytes, >=, FLAT_FILES - 256);

  /* A cancel at the first report ends the scan there. */
  fs.reports = 0;
  fs.cancel_at_first = TRUE;
  g_assert_cmpint (gpg_err_code (pl_tar_scan (fs.folder, &cb, &totals, NULL)),
                   ==, GPG_ERR_CANCELED);
  g_assert_cmpuint (fs.reports, ==, 1);
  g_assert_cmpuint (totals.files, <=, 257);
  g_free (fs.folder);
  g_free (parent);
}

/* A file that shrinks or grows while it is read fails the job, naming it. */
static void
test_source_file_changes (gconstpointer data)
{
  gboolean grow = GPOINTER_TO_INT (data);
  char *src_parent = fresh_dir ("src");
  char *folder = make_tree (src_parent, WITH_SETUID);
  char *big = g_build_filename (folder, "sub", "big.bin", NULL);
  guint8 *buf = g_malloc (PL_TAR_BLOCK);
  const char *path = NULL;
  pl_source *src;
  gpg_error_t err = 0;
  size_t n;
  int fd;

  g_assert_cmpint (pl_tar_source_new (folder, NULL, &src), ==, 0);
  /* Read until big.bin's data has begun, then change it. */
  fd = open (big, O_WRONLY | (grow ? O_APPEND : 0));
  g_assert_cmpint (fd, >=, 0);
  while (!(err = src->read (src, buf, 4096, &n)) && n)
    if (memmem (buf, n, "big.bin", 7))
      break;
  g_assert_cmpint (err, ==, 0);
  if (grow)
    g_assert_cmpint (write (fd, "more", 4), ==, 4);
  else
    g_assert_cmpint (ftruncate (fd, 1000), ==, 0);
  close (fd);
  while (!(err = src->read (src, buf, PL_TAR_BLOCK, &n)) && n)
    ;
  g_assert_cmpint (gpg_err_code (err), ==, GPG_ERR_EIO);
  g_assert_cmpint (pl_tar_source_problem (src, &path), ==, PL_TAR_CHANGED);
  g_assert_cmpstr (path, ==, big);
  pl_source_free (src);
  g_free (buf);
  g_free (big);
  g_free (folder);
  g_free (src_parent);
}

/* A file it may not read fails the job, naming the file. */
static void
test_source_unreadable (void)
{
  char *src_parent = fresh_dir ("src");
  char *folder = make_tree (src_parent, WITH_SETUID);
  char *secret = g_build_filename (folder, "a.txt", NULL);
  const char *path = NULL;
  pl_source *src;
  GByteArray *all;
  gpg_error_t err;

  g_assert_cmpint (chmod (secret, 0), ==, 0);
  if (access (secret, R_OK) == 0)
    {
      g_test_skip ("running as root: every file is readable");
      goto leave;
    }
  g_assert_cmpint (pl_tar_source_new (folder, NULL, &src), ==, 0);
  all = read_all (src, &err);
  g_assert_cmpint (gpg_err_code (err), ==, GPG_ERR_EACCES);
  g_assert_cmpint (pl_tar_source_problem (src, &path), ==, PL_TAR_UNREADABLE);
  g_assert_cmpstr (path, ==, secret);
  g_byte_array_unref (all);
  pl_source_free (src);

 leave:
  chmod (secret, 0644);
  g_free (secret);
  g_free (folder);
  g_free (src_parent);
}

static pl_sink *
choose_memory (void *user_data, int is_tar, gpg_error_t *err)
{
  *(int *) user_data = is_tar;
  return pl_sink_new_memory ();
}

/* The detector hands everything on, whatever the split of the writes. */
static void
test_detector (void)
{
  char *src_parent = fresh_dir ("src");
  char *folder = make_tree (src_parent, WITH_SETUID);
  pl_source *src;
  GByteArray *all;
  gpg_error_t err;
  int is_tar = -1;
  const uint8_t *got;
  size_t got_len;
  pl_sink *sink;

  g_assert_cmpint (pl_tar_source_new (folder, NULL, &src), ==, 0);
  all = read_all (src, &err);
  pl_source_free (src);

  sink = pl_tar_detector_new (choose_memory, &is_tar);
  g_assert_cmpint (sink->write (sink, all->data, 100), ==, 0);
  g_assert_cmpint (is_tar, ==, -1);
  g_assert_cmpint (sink->write (sink, all->data + 100, all->len - 100), ==, 0);
  g_assert_cmpint (sink->commit (sink), ==, 0);
  g_assert_cmpint (is_tar, ==, 1);
  pl_sink_free (sink);

  sink = pl_tar_detector_new (choose_memory, &is_tar);
  g_assert_cmpint (sink->write (sink, "hello", 5), ==, 0);
  g_assert_cmpint (sink->commit (sink), ==, 0);
  g_assert_cmpint (is_tar, ==, 0);
  pl_sink_free (sink);

  g_byte_array_unref (all);
  g_free (folder);
  g_free (src_parent);
  (void) got;
  (void) got_len;
}

/* Several items in one archive: TOP/NAME..., unpacked as one folder; two
 * items of one name are refused, naming it. */
static void
test_items (void)
{
  char *parent = fresh_dir ("items");
  char *folder = make_tree (parent, 0);
  char *out_dir = fresh_dir ("items-out");
  char *archive = g_build_filename (parent, "Archive.tar.gpg", NULL);
  char *note = g_build_filename (parent, "note.txt", NULL);
  char *other = fresh_dir ("items-other");
  char *twin = g_build_filename (other, "note.txt", NULL);
  const char *items[] = { folder, note };
  const char *twins[] = { note, twin };
  char *final = NULL, *got = NULL, *want = NULL;
  pl_source *src = NULL;
  pl_sink *sink = NULL;
  pl_encrypt_options opts;
  pl_tar_totals totals;
  const char *path = NULL;
  GByteArray *all;
  gpg_error_t err;

  g_assert_true (g_file_set_contents (note, "a note\n", -1, NULL));
  g_assert_true (g_file_set_contents (twin, "another\n", -1, NULL));
  g_assert_cmpint (pl_tar_scan_items (items, 2, NULL, &totals, NULL), ==, 0);
  g_assert_cmpuint (totals.files, ==, 1 + 12 + 1);   /* Archive/, Photos, note */

  pl_encrypt_options_init (&opts);
  opts.openers = &passphrase_key;
  opts.n_openers = 1;
  opts.file_name = "Archive.tar";
  g_assert_cmpint (pl_tar_source_new_items (items, 2, "Archive", NULL, &src),
                   ==, 0);
  g_assert_cmpint (pl_sink_new_file (archive, &sink), ==, 0);
  g_assert_cmpint (pl_encrypt (src, sink, &opts, NULL), ==, 0);
  pl_sink_free (sink);
  pl_source_free (src);

  g_assert_cmpint (decrypt_to_folder (archive, out_dir, "Archive", NULL, NULL,
                                      &final), ==, 0);
  got = g_build_filename (final, "Photos", NULL);
  compare_trees (folder, got, SAME_ALL);
  g_free (got);
  got = g_build_filename (final, "note.txt", NULL);
  g_assert_true (g_file_get_contents (got, &want, NULL, NULL));
  g_assert_cmpstr (want, ==, "a note\n");

  g_assert_cmpint (pl_tar_source_new_items (twins, 2, "Archive", NULL, &src),
                   ==, 0);
  all = read_all (src, &err);
  g_assert_cmpint (gpg_err_code (err), ==, GPG_ERR_EEXIST);
  g_assert_cmpint (pl_tar_source_problem (src, &path), ==, PL_TAR_SAME_NAME);
  g_assert_cmpstr (path, ==, twin);
  g_byte_array_unref (all);
  pl_source_free (src);

  g_free (want);
  g_free (got);
  g_free (final);
  g_free (twin);
  g_free (other);
  g_free (note);
  g_free (archive);
  g_free (out_dir);
  g_free (folder);
  g_free (parent);
}

/* ---- Unpacking onto a disk that fails ---- */

/* TAR (in memory) written into an extractor for DIR, as NAME, in pieces of
 * 64 KiB, then committed; aborted on failure.  The problem, its entry and
 * the final path come back through the out-parameters (may be NULL). */
static gpg_error_t
unpack_tar (GBytes *tar, const char *dir, pl_tar_problem *problem,
            char **entry, char **final)
{
  const guint8 *p = g_bytes_get_data (tar, NULL);
  gsize len = g_bytes_get_size (tar);
  const char *e = NULL;
  pl_sink *sink;
  gpg_error_t err = 0;

  g_assert_cmpint (pl_tar_extractor_new (dir, "Unpacked", &sink), ==, 0);
  for (gsize at = 0; !err && at < len; at += 65536)
    err = sink->write (sink, p + at, MIN (65536, len - at));
  if (!err)
    err = sink->commit (sink);
  if (err)
    sink->abort (sink);
  if (problem)
    *problem = pl_tar_extractor_problem (sink, NULL);
  pl_tar_extractor_problem (sink, &e);
  if (entry)
    *entry = g_strdup (e);
  if (final)
    *final = g_strdup (pl_tar_extractor_path (sink));
  pl_sink_free (sink);
  return err;
}

/* The tar stream of FOLDER, by our own writer. */
static GBytes *
tar_of (const char *folder)
{
  pl_source *src;
  GByteArray *all;
  gpg_error_t err;

  g_assert_cmpint (pl_tar_source_new (folder, NULL, &src), ==, 0);
  all = read_all (src, &err);
  g_assert_cmpint (err, ==, 0);
  pl_source_free (src);
  return g_byte_array_free_to_bytes (all);
}

static void
remove_path (const char *path)
{
  const char *argv[] = { "rm", "-rf", path, NULL };
  int status;

  g_assert_true (tu_run (argv, NULL, NULL, NULL, &status));
  g_assert_cmpint (status, ==, 0);
}

/* make_tree's folder plus a sparse file that ends in a hole (so that
 * unpacking it ends with ftruncate), archived by GNU tar --sparse. */
static GBytes *
sparse_tar (void)
{
  char *parent = fresh_dir ("sparse-src");
  char *folder = make_tree (parent, 0);
  char *sparse = g_build_filename (folder, "sparse.img", NULL);
  const char *argv[] = { "tar", "--format=pax", "--sparse", "-c", "-f", "-",
                         "-C", parent, "Photos", NULL };
  int fd = open (sparse, O_WRONLY | O_CREAT | O_EXCL, 0644);
  GBytes *tar;

  g_assert_cmpint (fd, >=, 0);
  g_assert_cmpint (pwrite (fd, "data", 4, 300000), ==, 4);
  g_assert_cmpint (ftruncate (fd, 4 << 20), ==, 0);
  g_assert_cmpint (close (fd), ==, 0);
  tar = run_tool (argv, NULL);
  g_free (sparse);
  g_free (folder);
  g_free (parent);
  return tar;
}

typedef struct
{
  const char *name;
  tu_io_call call;
  gboolean short_write;
} FaultCase;

static const FaultCase fault_cases[] = {
  { "write", TU_IO_WRITE, FALSE },
  { "short-write", TU_IO_WRITE, TRUE },
  { "ftruncate", TU_IO_FTRUNCATE, FALSE },
  { "fsync", TU_IO_FSYNC, FALSE },
  { "close", TU_IO_CLOSE, FALSE },
};

/* Every call of one kind that the unpacking makes into the destination,
 * failed in turn (ENOSPC, EDQUOT, EIO, EFBIG): the job fails with that
 * error, names the entry, and leaves nothing. */
static void
test_disk_fault (gconstpointer data)
{
  const FaultCase *fc = data;
  static const int errnos[] = { ENOSPC, EDQUOT, EIO, EFBIG };
  char *out_dir, *real_out, *final = NULL, *entry = NULL;
  pl_tar_problem problem;
  GBytes *tar;
  guint calls;

  if (!tu_have_peer ("tar"))
    return;
  tar = sparse_tar ();
  out_dir = fresh_dir ("fault-out");
  real_out = realpath (out_dir, NULL);
  tu_fail_io (real_out, fc->call, 0, 0, FALSE);
  g_assert_cmpint (unpack_tar (tar, out_dir, NULL, NULL, &final), ==, 0);
  calls = tu_fail_io_count ();
  tu_fail_io_off ();
  g_test_message ("%s: %u calls into the destination", fc->name, calls);
  g_assert_cmpuint (calls, >, 0);
  {
    char *sparse = g_build_filename (final, "sparse.img", NULL);
    struct stat st;
    g_assert_cmpint (stat (sparse, &st), ==, 0);
    g_assert_cmpint (st.st_size, ==, 4 << 20);
    g_free (sparse);
  }
  remove_path (final);
  g_clear_pointer (&final, g_free);

  for (guint n = 1; n <= calls; n++)
    {
      int e = fc->short_write ? ENOSPC : errnos[n % G_N_ELEMENTS (errnos)];
      gpg_error_t err;

      tu_fail_io (real_out, fc->call, n, e, fc->short_write);
      err = unpack_tar (tar, out_dir, &problem, &entry, &final);
      tu_fail_io_off ();
      if (tu_fail_io_count () < n)
        {
          /* How libarchive cuts file data into blocks follows how the
           * ring filled: this run made fewer writes, none failed. */
          g_test_message ("%s %u: not reached", fc->name, n);
          g_assert_cmpint (err, ==, 0);
          remove_path (final);
          g_clear_pointer (&final, g_free);
          continue;
        }
      g_test_message ("%s %u (%s): %s, entry %s", fc->name, n, g_strerror (e),
                      gpg_strerror (err), entry ? entry : "-");
      g_assert_cmpint (gpg_err_code (err), ==, gpg_err_code_from_errno (e));
      g_assert_cmpint (problem, ==, PL_TAR_WRITE_FAILED);
      g_assert_nonnull (entry);
      g_assert_null (final);
      assert_empty_dir (out_dir);
      g_clear_pointer (&entry, g_free);
    }
  free (real_out);
  g_free (out_dir);
  g_bytes_unref (tar);
}

/* Nothing in DIR, and all of its blocks free (no open, unlinked file
 * holds any). */
static void
assert_empty_tmpfs (const char *dir)
{
  struct statvfs st;

  assert_empty_dir (dir);
  g_assert_cmpint (statvfs (dir, &st), ==, 0);
  g_assert_cmpuint (st.f_bfree, ==, st.f_blocks);
}

/* A real full disk: a 1 MiB tmpfs and 3 MiB of files. */
static void
test_disk_full (void)
{
  char *parent = fresh_dir ("full-src");
  char *folder = g_build_filename (parent, "Photos", NULL);
  char *mnt, *entry = NULL, *final = NULL;
  pl_tar_problem problem;
  GBytes *small, *big;
  gpg_error_t err;

  g_assert_cmpint (g_mkdir (folder, 0755), ==, 0);
  put_file (folder, "small.bin", 100000, 0644);
  small = tar_of (folder);
  for (int i = 0; i < 6; i++)
    {
      char *name = g_strdup_printf ("photo-%d.jpg", i);
      put_file (folder, name, 500000, 0644);
      g_free (name);
    }
  big = tar_of (folder);
  if (!(mnt = tu_mount_tmpfs ("tar-full-disk", "1m")))
    goto leave;
  g_assert_cmpint (unpack_tar (small, mnt, NULL, NULL, &final), ==, 0);
  remove_path (final);
  g_clear_pointer (&final, g_free);
  assert_empty_tmpfs (mnt);

  err = unpack_tar (big, mnt, &problem, &entry, &final);
  g_test_message ("%s, entry %s", gpg_strerror (err), entry ? entry : "-");
  g_assert_cmpint (gpg_err_code (err), ==, GPG_ERR_ENOSPC);
  g_assert_cmpint (problem, ==, PL_TAR_WRITE_FAILED);
  g_assert_true (g_str_has_prefix (entry, "Photos/photo-"));
  g_assert_null (final);
  assert_empty_tmpfs (mnt);
  tu_unmount_tmpfs (mnt);

 leave:
  g_free (entry);
  g_bytes_unref (small);
  g_bytes_unref (big);
  g_free (folder);
  g_free (parent);
}

/* Child processes, run as this test's own executable: see main. */
static const char *self_exe;

static char *
run_child (const char *mode, const char *dir, const char *tar_path)
{
  const char *argv[] = { self_exe, mode, dir, tar_path, NULL };
  GBytes *out = NULL;
  char *text;
  int status;

  g_assert_true (tu_run (argv, NULL, &out, NULL, &status));
  g_assert_cmpint (status, ==, 0);
  text = g_strndup (g_bytes_get_data (out, NULL), g_bytes_get_size (out));
  g_bytes_unref (out);
  return g_strchomp (text);
}

/* A size limit (ulimit -f) with SIGXFSZ ignored, as Padlock's programs
 * ignore it: the write fails with EFBIG, and the job with it. */
static void
test_disk_file_size_limit (void)
{
  char *parent = fresh_dir ("fsize-src");
  char *folder = g_build_filename (parent, "Photos", NULL);
  char *out_dir = fresh_dir ("fsize-out");
  char *tar_path = g_build_filename (parent, "Photos.tar", NULL);
  char *said;
  GBytes *tar;

  g_assert_cmpint (g_mkdir (folder, 0755), ==, 0);
  put_file (folder, "big.bin", 3 << 20, 0644);
  tar = tar_of (folder);
  g_assert_true (g_file_set_contents (tar_path, g_bytes_get_data (tar, NULL),
                                      (gssize) g_bytes_get_size (tar), NULL));
  said = run_child ("--unpack-limited", out_dir, tar_path);
  g_test_message ("the child: %s", said);
  g_assert_cmpstr (said, ==, "File too large; Photos/big.bin");
  assert_empty_dir (out_dir);
  g_free (said);
  g_bytes_unref (tar);
  g_free (tar_path);
  g_free (out_dir);
  g_free (folder);
  g_free (parent);
}

static int
child_unpack_limited (const char *dir, const char *tar_path)
{
  struct rlimit limit = { 1 << 20, 1 << 20 };
  char *data, *entry = NULL;
  gsize len;
  GBytes *tar;
  gpg_error_t err;

  signal (SIGXFSZ, SIG_IGN);
  g_assert_cmpint (setrlimit (RLIMIT_FSIZE, &limit), ==, 0);
  g_assert_true (g_file_get_contents (tar_path, &data, &len, NULL));
  tar = g_bytes_new_take (data, len);
  err = unpack_tar (tar, dir, NULL, &entry, NULL);
  printf ("%s; %s\n", gpg_strerror (err), entry ? entry : "-");
  g_free (entry);
  g_bytes_unref (tar);
  return 0;
}

/* Unpacks half of the archive, says so, and waits to be killed. */
static int
child_unpack_and_hang (const char *dir, const char *tar_path)
{
  char *data;
  gsize len;
  pl_sink *sink;

  g_assert_true (g_file_get_contents (tar_path, &data, &len, NULL));
  g_assert_cmpint (pl_tar_extractor_new (dir, "Photos", &sink), ==, 0);
  g_assert_cmpint (sink->write (sink, data, len / 2), ==, 0);
  printf ("unpacking\n");
  fflush (stdout);
  fclose (stdout);
  for (;;)
    pause ();
  return 0;
}

/* The hidden trees in DIR, as "name name ..." in strcmp order. */
static char *
hidden_trees (const char *dir)
{
  GDir *d = g_dir_open (dir, 0, NULL);
  GPtrArray *names = g_ptr_array_new_with_free_func (g_free);
  const char *name;
  char *joined;

  while ((name = g_dir_read_name (d)))
    if (g_str_has_prefix (name, ".padlock-"))
      g_ptr_array_add (names, g_strdup (name));
  g_dir_close (d);
  g_ptr_array_sort (names, tu_compare_strings);
  g_ptr_array_add (names, NULL);
  joined = g_strjoinv (" ", (char **) names->pdata);
  g_ptr_array_unref (names);
  return joined;
}

/* A tree by hand: NAME in DIR with a file, and a folder that a later
 * chmod closed (mode 0500, a file in it). */
static char *
make_stale_tree (const char *dir, const char *name)
{
  char *tree = g_build_filename (dir, name, NULL);
  char *sub = g_build_filename (tree, "Photos", "locked", NULL);

  g_assert_cmpint (g_mkdir_with_parents (sub, 0700), ==, 0);
  put_file (tree, "Photos/plain.txt", 1000, 0644);
  put_file (sub, "inside.txt", 1000, 0644);
  g_assert_cmpint (chmod (sub, 0500), ==, 0);
  g_free (sub);
  return tree;
}

/* What an unpacking killed in the middle (SIGKILL: nothing of it runs)
 * left: a hidden tree nobody holds the lock of, which the next unpacking
 * into the same folder removes; a tree whose lock is held, by another
 * unpacking, stays; so do names not ours. */
static void
test_stale_trees (void)
{
  char *parent = fresh_dir ("stale-src");
  char *folder = make_tree (parent, 0);
  char *out_dir = fresh_dir ("stale-out");
  char *tar_path = g_build_filename (parent, "Photos.tar", NULL);
  GBytes *tar = tar_of (folder);
  char *by_hand, *held, *notes, *left, *final = NULL;
  const char *argv[] = { self_exe, "--unpack-and-hang", out_dir, tar_path,
                         NULL };
  GPid pid;
  int out_fd, status, held_fd;
  char line[64] = "";
  FILE *from_child;

  g_assert_true (g_file_set_contents (tar_path, g_bytes_get_data (tar, NULL),
                                      (gssize) g_bytes_get_size (tar), NULL));
  g_assert_true (g_spawn_async_with_pipes (NULL, (char **) argv, NULL,
                                           G_SPAWN_DO_NOT_REAP_CHILD, NULL,
                                           NULL, &pid, NULL, &out_fd, NULL,
                                           NULL));
  from_child = fdopen (out_fd, "r");
  g_assert_nonnull (fgets (line, sizeof line, from_child));
  fclose (from_child);
  g_assert_cmpstr (line, ==, "unpacking\n");
  left = hidden_trees (out_dir);
  g_test_message ("the child unpacks into %s", left);
  g_assert_true (g_str_has_prefix (left, ".padlock-") && !strchr (left, ' '));
  g_assert_cmpint (kill (pid, SIGKILL), ==, 0);
  g_assert_cmpint (waitpid (pid, &status, 0), ==, pid);
  g_assert_true (WIFSIGNALED (status));
  g_spawn_close_pid (pid);
  {
    /* still there: nothing ran to remove it */
    char *still = hidden_trees (out_dir);
    g_assert_cmpstr (still, ==, left);
    g_free (still);
  }

  by_hand = make_stale_tree (out_dir, ".padlock-AbC123");
  held = make_stale_tree (out_dir, ".padlock-Held42");
  notes = make_stale_tree (out_dir, ".padlock-notes");
  held_fd = open (held, O_RDONLY | O_DIRECTORY);
  g_assert_cmpint (flock (held_fd, LOCK_EX), ==, 0);

  g_assert_cmpint (unpack_tar (tar, out_dir, NULL, NULL, &final), ==, 0);
  compare_trees (folder, final, SAME_ALL);
  {
    char *now = hidden_trees (out_dir);
    g_assert_cmpstr (now, ==, ".padlock-Held42 .padlock-notes");
    g_free (now);
  }
  /* Its holder is done: the next one removes it. */
  g_assert_cmpint (close (held_fd), ==, 0);
  g_clear_pointer (&final, g_free);
  g_assert_cmpint (unpack_tar (tar, out_dir, NULL, NULL, &final), ==, 0);
  {
    char *now = hidden_trees (out_dir);
    g_assert_cmpstr (now, ==, ".padlock-notes");
    g_free (now);
  }
  g_assert_true (g_file_test (notes, G_FILE_TEST_IS_DIR));

  g_free (final);
  g_free (left);
  g_free (notes);
  g_free (held);
  g_free (by_hand);
  g_bytes_unref (tar);
  g_free (tar_path);
  g_free (out_dir);
  g_free (folder);
  g_free (parent);
}

/* ---- Modes ---- */

typedef struct
{
  const char *name;
  mode_t type;
  mode_t perm;
} ModeEntry;

static const ModeEntry mode_entries[] = {
  { "top/", AE_IFDIR, 0777 },
  { "top/rw", AE_IFREG, 0666 },
  { "top/rwx", AE_IFREG, 0777 },
  { "top/sticky/", AE_IFDIR, 01777 },
  { "top/sticky/in", AE_IFREG, 0666 },
};

/* A pax tar of mode_entries, by libarchive. */
static GBytes *
modes_tar (void)
{
  struct archive *a = archive_write_new ();
  gsize cap = 1 << 20, used = 0;
  guint8 *buf = g_malloc (cap);

  g_assert_cmpint (archive_write_set_format_pax_restricted (a), ==,
                   ARCHIVE_OK);
  g_assert_cmpint (archive_write_open_memory (a, buf, cap, &used), ==,
                   ARCHIVE_OK);
  for (gsize i = 0; i < G_N_ELEMENTS (mode_entries); i++)
    {
      struct archive_entry *e = archive_entry_new ();

      archive_entry_set_pathname (e, mode_entries[i].name);
      archive_entry_set_filetype (e, mode_entries[i].type);
      archive_entry_set_perm (e, mode_entries[i].perm);
      archive_entry_set_mtime (e, MTIME, 0);
      archive_entry_set_size (e, mode_entries[i].type == AE_IFREG ? 5 : 0);
      g_assert_cmpint (archive_write_header (a, e), ==, ARCHIVE_OK);
      if (mode_entries[i].type == AE_IFREG)
        g_assert_cmpint (archive_write_data (a, "data\n", 5), ==, 5);
      archive_entry_free (e);
    }
  g_assert_cmpint (archive_write_close (a), ==, ARCHIVE_OK);
  archive_write_free (a);
  return g_bytes_new_take (g_realloc (buf, used), used);
}

/* The process's umask applies to every mode restored; a sticky folder
 * keeps its sticky bit, so that it is never world-writable without. */
static void
test_modes_umask (gconstpointer data)
{
  mode_t mask = GPOINTER_TO_UINT (data), old;
  char *out_dir = fresh_dir ("modes");
  GBytes *tar = modes_tar ();
  char *final = NULL;
  gpg_error_t err;

  old = umask (mask);
  err = unpack_tar (tar, out_dir, NULL, NULL, &final);
  umask (old);
  g_assert_cmpint (err, ==, 0);
  /* "top/" is the folder published: its mode is checked too. */
  for (gsize i = 0; i < G_N_ELEMENTS (mode_entries); i++)
    {
      const char *rel = mode_entries[i].name + strlen ("top/");
      char *path = g_build_filename (final, rel, NULL);
      mode_t want = mode_entries[i].perm & ~mask;
      struct stat st;

      g_assert_cmpint (lstat (path, &st), ==, 0);
      g_test_message ("%s stored %04o, umask %03o: %04o",
                      mode_entries[i].name, (unsigned) mode_entries[i].perm,
                      (unsigned) mask, (unsigned) (st.st_mode & 07777));
      g_assert_cmpint (st.st_mode & 07777, ==, want);
      g_assert_true (!(st.st_mode & S_IWOTH) || (st.st_mode & S_ISVTX));
      g_free (path);
    }
  g_free (final);
  g_bytes_unref (tar);
  g_free (out_dir);
}

/* ---- The integrity verdict first ---- */

/* A message (rfc4880: the MDC comes last) of a folder with one file of
 * SIZE octets, tampered with: one octet flipped in the MDC, 400 flipped
 * in the file's tar header (the archive is damaged long before the MDC
 * comes), one flipped in the file's data.  Each fails as tampered with
 * (GPG_ERR_CHECKSUM), small or large; a large one (more than the
 * extractor's ring) onto a slow disk, so that unpacking is still under
 * way when the MDC fails, and the abort that follows is no verdict of
 * the archive's (no problem). */
static void
test_integrity_first (gconstpointer data)
{
  gsize size = GPOINTER_TO_SIZE (data);
  char *parent = fresh_dir ("integrity-src");
  char *folder = g_build_filename (parent, "Photos", NULL);
  char *archive = g_build_filename (parent, "Photos.tar.gpg", NULL);
  char *tampered = g_build_filename (parent, "tampered.tar.gpg", NULL);
  char *out_dir = fresh_dir ("integrity-out");
  char *real_out = realpath (out_dir, NULL);
  char *cipher;
  gsize len;

  g_assert_cmpint (g_mkdir (folder, 0755), ==, 0);
  put_file (folder, "data.bin", size, 0644);
  g_assert_cmpint (encrypt_folder (folder, archive, NULL, PL_PROFILE_RFC4880,
                                   FALSE), ==, 0);
  g_assert_true (g_file_get_contents (archive, &cipher, &len, NULL));
  {
    /* The archive starts some 80 octets in (the SKESK, the packet
     * headers, the CFB prefix, the literal header): its second header
     * block, data.bin's, is at 512 to 1024 of it. */
    const gsize from[] = { len - 10, 700, len / 2 };
    const gsize n_flipped[] = { 1, 400, 1 };
    const char *where[] = { "MDC", "file's header", "data" };

    for (gsize i = 0; i < G_N_ELEMENTS (from); i++)
      {
        pl_tar_problem problem;
        gpg_error_t err;

        for (gsize k = 0; k < n_flipped[i]; k++)
          cipher[from[i] + k] ^= 1;
        g_assert_true (g_file_set_contents (tampered, cipher, (gssize) len,
                                            NULL));
        for (gsize k = 0; k < n_flipped[i]; k++)
          cipher[from[i] + k] ^= 1;
        if (size > PL_TAR_RING)
          {
            tu_fail_io (real_out, TU_IO_WRITE, 0, 0, FALSE);
            tu_fail_io_slow (20000);
          }
        err = decrypt_to_folder (tampered, out_dir, "Photos", &problem, NULL,
                                 NULL);
        tu_fail_io_off ();
        g_test_message ("%" G_GSIZE_FORMAT " octets, flipped in the %s: %s, "
                        "problem %d", size, where[i], gpg_strerror (err),
                        problem);
        g_assert_cmpint (gpg_err_code (err), ==, GPG_ERR_CHECKSUM);
        /* The header's flips damage the archive indeed, when the
         * extractor reached that header before the MDC's failure stopped
         * it (a race: the small message is all pushed at once); the other
         * flips leave an archive the stop must not call damaged. */
        if (i == 1 && problem != PL_TAR_OK)
          g_assert_cmpint (problem, ==, PL_TAR_DAMAGED);
        else
          g_assert_cmpint (problem, ==, PL_TAR_OK);
        assert_empty_dir (out_dir);
      }
  }
  g_free (cipher);
  free (real_out);
  g_free (out_dir);
  g_free (tampered);
  g_free (archive);
  g_free (folder);
  g_free (parent);
}

int
main (int argc, char **argv)
{
  /* Children of the tests above: not tests themselves. */
  if (argc == 4 && !strcmp (argv[1], "--unpack-limited"))
    return child_unpack_limited (argv[2], argv[3]);
  if (argc == 4 && !strcmp (argv[1], "--unpack-and-hang"))
    return child_unpack_and_hang (argv[2], argv[3]);
  self_exe = "/proc/self/exe";

  tu_init (&argc, &argv);
  umask (022);

  g_test_add_data_func ("/tar/roundtrip/rfc4880",
                        GINT_TO_POINTER (PL_PROFILE_RFC4880), test_roundtrip);
  g_test_add_data_func ("/tar/roundtrip/rfc9580",
                        GINT_TO_POINTER (PL_PROFILE_RFC9580), test_roundtrip);
  g_test_add_func ("/tar/peers/gpg-pipe-tar", test_gpg_pipe_tar);
  g_test_add_func ("/tar/peers/gpgtar-reads-ours", test_gpgtar_reads_ours);
  g_test_add_func ("/tar/peers/ours-reads-gpgtar", test_ours_reads_gpgtar);
  g_test_add_func ("/tar/peers/ours-reads-tar-gpg", test_ours_reads_tar_gpg);
  for (gsize i = 0; i < G_N_ELEMENTS (hostile_cases); i++)
    {
      char *path = g_strdup_printf ("/tar/hostile/%s", hostile_cases[i].name);
      g_test_add_data_func (path, &hostile_cases[i], test_hostile);
      g_free (path);
    }
  g_test_add_func ("/tar/failure/tampered", test_tampered_leaves_nothing);
  g_test_add_func ("/tar/failure/garbage", test_extractor_refuses_garbage);
  g_test_add_func ("/tar/failure/abort", test_extractor_abort);
  g_test_add_func ("/tar/failure/cancel", test_source_cancel);
  g_test_add_func ("/tar/scan/flat-folder", test_scan_flat_folder);
  g_test_add_data_func ("/tar/failure/file-shrinks", GINT_TO_POINTER (0),
                        test_source_file_changes);
  g_test_add_data_func ("/tar/failure/file-grows", GINT_TO_POINTER (1),
                        test_source_file_changes);
  g_test_add_func ("/tar/failure/unreadable", test_source_unreadable);
  g_test_add_func ("/tar/detector", test_detector);
  g_test_add_func ("/tar/items", test_items);
  for (gsize i = 0; i < G_N_ELEMENTS (fault_cases); i++)
    {
      char *path = g_strdup_printf ("/tar/disk/fault/%s", fault_cases[i].name);
      g_test_add_data_func (path, &fault_cases[i], test_disk_fault);
      g_free (path);
    }
  g_test_add_func ("/tar/disk/full", test_disk_full);
  g_test_add_func ("/tar/disk/file-size-limit", test_disk_file_size_limit);
  g_test_add_func ("/tar/disk/stale-trees", test_stale_trees);
  g_test_add_data_func ("/tar/modes/umask-022", GUINT_TO_POINTER (022),
                        test_modes_umask);
  g_test_add_data_func ("/tar/modes/umask-077", GUINT_TO_POINTER (077),
                        test_modes_umask);
  g_test_add_data_func ("/tar/integrity/small", GSIZE_TO_POINTER (100000),
                        test_integrity_first);
  g_test_add_data_func ("/tar/integrity/large",
                        GSIZE_TO_POINTER (20u << 20), test_integrity_first);
  return g_test_run ();
}
