/* test-tar.c - folders as tar archives: round trips through the engine,
 * through gpg | tar, gpgtar and back, hostile archives, cancel and
 * failure, all against the real tools */
#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <unistd.h>
#include <glib.h>
#include <glib/gstdio.h>

#include "tar.h"
#include "testutil.h"

#define PASSPHRASE "correct horse battery staple"
static const pl_key passphrase_key = { PL_KEY_PASSPHRASE, PASSPHRASE,
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
  opts.keys = &passphrase_key;
  opts.n_keys = 1;
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

  opts.keys = &passphrase_key;
  opts.n_keys = 1;
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

static gboolean
have (const char *program)
{
  char *path = tu_find_program (program);

  if (!path)
    g_test_skip_printf ("%s is not installed", program);
  g_free (path);
  return path != NULL;
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

  if (!have ("gpg") || !have ("tar"))
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

  if (!have ("gpgtar"))
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

  if (!have ("gpgtar"))
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

  if (!have ("gpg") || !have ("tar"))
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

  if (!have ("python3") || !have ("gpg"))
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
  opts.keys = &passphrase_key;
  opts.n_keys = 1;
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

int
main (int argc, char **argv)
{
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
  g_test_add_data_func ("/tar/failure/file-shrinks", GINT_TO_POINTER (0),
                        test_source_file_changes);
  g_test_add_data_func ("/tar/failure/file-grows", GINT_TO_POINTER (1),
                        test_source_file_changes);
  g_test_add_func ("/tar/failure/unreadable", test_source_unreadable);
  g_test_add_func ("/tar/detector", test_detector);
  g_test_add_func ("/tar/items", test_items);
  return g_test_run ();
}
