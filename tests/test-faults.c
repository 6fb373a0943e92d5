/* test-faults.c - fault injection through the engine's sinks and sources
 *
 * A sink that fails (EIO, ENOSPC) after N octets, a source that fails
 * after N octets, the same over real files, a real full disk (a small
 * tmpfs) and cancellation half-way: every job returns the error, aborts
 * its sink and never commits it, and no file is left behind.
 *
 * The fault sink also watches how the engine drives it: abort must not
 * come while a write is still running on the engine's writer thread, and
 * no write may come after abort.  Its large writes are slowed down a
 * little so that such a race shows reliably.
 */
#undef _FORTIFY_SOURCE
#include "testutil.h"
#include "refuse-tmpfile.h"
#include "algo.h"
#include "errors.h"

#include <errno.h>
#include <fcntl.h>
#include <stdatomic.h>
#include <string.h>
#include <unistd.h>
#include <sys/stat.h>
#include <sys/statvfs.h>
#include <glib/gstdio.h>

#define PW "fault injection"
#define MIB (1024u * 1024u)

/* Checks that do not stop the test: every failing case gets reported. */
#define EXPECT(cond, ...)                                               \
  do                                                                    \
    {                                                                   \
      if (!(cond))                                                      \
        {                                                               \
          char *what_ = g_strdup_printf (__VA_ARGS__);                  \
          g_test_message ("FAILED: %s: %s", #cond, what_);              \
          g_free (what_);                                               \
          g_test_fail ();                                               \
        }                                                               \
    }                                                                   \
  while (0)

/* A sink that forwards to INNER (or only counts) and fails with
 * FAIL_ERRNO once LIMIT octets went through. */
typedef struct
{
  pl_sink base;
  pl_sink *inner;
  int fail_errno;               /* 0: never fails */
  guint64 limit;
  gulong delay_us;              /* per write of 64 KiB or more */
  atomic_uint_fast64_t written;
  atomic_int in_write;
  atomic_int n_write, n_commit, n_abort;
  atomic_int abort_during_write, write_after_abort, overlapping_writes;
} fault_sink;

static gpg_error_t
fault_sink_write (pl_sink *self, const void *buf, size_t len)
{
  fault_sink *s = (fault_sink *) self;
  guint64 done = atomic_load (&s->written);
  gpg_error_t err = 0;
  size_t k = len;

  if (atomic_load (&s->n_abort))
    atomic_fetch_add (&s->write_after_abort, 1);
  if (atomic_fetch_add (&s->in_write, 1))
    atomic_fetch_add (&s->overlapping_writes, 1);
  atomic_fetch_add (&s->n_write, 1);
  if (s->delay_us && len >= 64 * 1024)
    g_usleep (s->delay_us);
  if (s->fail_errno && done + len > s->limit)
    {
      k = done >= s->limit ? 0 : (size_t) (s->limit - done);
      err = pl_error_from_errno (s->fail_errno);
    }
  if (k && s->inner)
    {
      gpg_error_t e = s->inner->write (s->inner, buf, k);
      if (e)
        {
          err = err ? err : e;
          k = 0;
        }
    }
  atomic_fetch_add (&s->written, k);
  atomic_fetch_sub (&s->in_write, 1);
  return err;
}

static gpg_error_t
fault_sink_commit (pl_sink *self)
{
  fault_sink *s = (fault_sink *) self;

  atomic_fetch_add (&s->n_commit, 1);
  return s->inner ? s->inner->commit (s->inner) : 0;
}

static void
fault_sink_abort (pl_sink *self)
{
  fault_sink *s = (fault_sink *) self;

  if (atomic_load (&s->in_write))
    atomic_fetch_add (&s->abort_during_write, 1);
  atomic_fetch_add (&s->n_abort, 1);
  if (s->inner)
    s->inner->abort (s->inner);
}

static void
fault_sink_free (pl_sink *self)
{
  fault_sink *s = (fault_sink *) self;

  pl_sink_free (s->inner);
  g_free (s);
}

static fault_sink *
fault_sink_new (pl_sink *inner, int fail_errno, guint64 limit)
{
  fault_sink *s = g_new0 (fault_sink, 1);

  s->base.write = fault_sink_write;
  s->base.commit = fault_sink_commit;
  s->base.abort = fault_sink_abort;
  s->base.free = fault_sink_free;
  s->inner = inner;
  s->fail_errno = fail_errno;
  s->limit = limit;
  s->delay_us = 2000;
  return s;
}

/* Memory that reads fine up to LIMIT octets, then fails with EIO. */
typedef struct
{
  pl_source base;
  const guint8 *data;
  gsize len, pos, limit;
  int failed;
} fault_source;

static gpg_error_t
fault_source_read (pl_source *self, void *buf, size_t len, size_t *nread)
{
  fault_source *s = (fault_source *) self;
  gsize n;

  *nread = 0;
  if (s->pos >= s->limit)
    {
      s->failed++;
      return pl_error_from_errno (EIO);
    }
  n = MIN (len, s->len - s->pos);
  n = MIN (n, s->limit - s->pos);
  memcpy (buf, s->data + s->pos, n);
  s->pos += n;
  *nread = n;
  return 0;
}

static void
fault_source_free (pl_source *self)
{
  g_free (self);
}

static fault_source *
fault_source_new (GBytes *data, gsize limit, gboolean size_known)
{
  fault_source *s = g_new0 (fault_source, 1);

  s->base.read = fault_source_read;
  s->base.free = fault_source_free;
  s->data = g_bytes_get_data (data, &s->len);
  s->base.size = size_known ? (int64_t) s->len : -1;
  s->limit = limit;
  return s;
}

/* The shapes of message every test goes through. */
typedef struct
{
  pl_profile profile;
  int armor;
  int compress;
  int chunk_octet;              /* 0: the default */
} shape;

static const shape shapes[] = {
  { PL_PROFILE_RFC4880, 0, 0 },
  { PL_PROFILE_RFC4880, 1, 0 },
  { PL_PROFILE_RFC4880, 0, PL_COMPRESS_ZLIB },
  { PL_PROFILE_LIBREPGP, 0, 0 },
  { PL_PROFILE_LIBREPGP, 1, 0 },
  { PL_PROFILE_RFC9580, 0, 0 },
  { PL_PROFILE_RFC9580, 1, 0 },
  /* 256 KiB chunks (the smallest on two threads, aead-parallel.h): the
   * 3 MiB input is 13 chunks, sealed on both threads and written two
   * chunks behind (encrypt.c, aead_queue_writes). */
  { PL_PROFILE_LIBREPGP, 0, 0, 12 },
  { PL_PROFILE_RFC9580, 0, 0, 12 },
};

static const char *const profile_names[] = { "rfc4880", "librepgp", "rfc9580" };

static char *
shape_name (const shape *s)
{
  return g_strdup_printf ("%s%s%s%s", profile_names[s->profile],
                          s->armor ? "+armor" : "",
                          s->compress ? "+zlib" : "",
                          s->chunk_octet ? "+small-chunks" : "");
}

static void
fast_options (pl_encrypt_options *o, const shape *s)
{
  pl_encrypt_options_init (o);
  o->profile = s->profile;
  o->armor = s->armor;
  o->compress_algo = s->compress;
  if (s->chunk_octet)
    o->chunk_octet = s->chunk_octet;
  tu_cheap_kdf (o);             /* these tests are about the data path */
  o->file_name = "plain.bin";
}

typedef enum { ENCRYPT, DECRYPT } direction;
static const char *const direction_names[] = { "encrypt", "decrypt" };

static gpg_error_t
run_job (direction dir, const shape *s, pl_source *src, pl_sink *sink,
         const pl_job_control *ctl)
{
  if (dir == ENCRYPT)
    {
      pl_encrypt_options o;
      pl_opener key = pl_opener_passphrase (PW, strlen (PW));
      fast_options (&o, s);
      o.openers = &key;
      o.n_openers = 1;
      return pl_encrypt (src, sink, &o, ctl);
    }
  else
    {
      pl_opener key = pl_opener_passphrase (PW, strlen (PW));
      pl_decrypt_options o = { 0 };
      pl_decrypt_result r = { 0 };
      o.openers = &key;
      o.n_openers = 1;
      return pl_decrypt (src, sink, &o, &r, ctl);
    }
}

/* 3 MiB and a little: four blocks, the last one short. */
static GBytes *
plaintext (void)
{
  static GBytes *plain;
  if (!plain)
    plain = tu_random_bytes (3 * MIB + 7);
  return plain;
}

static GBytes *
ciphertext (gsize shape_index)
{
  static GBytes *cipher[G_N_ELEMENTS (shapes)];
  if (!cipher[shape_index])
    {
      pl_encrypt_options o;
      gsize len;
      const void *d = g_bytes_get_data (plaintext (), &len);

      fast_options (&o, &shapes[shape_index]);
      g_assert_cmpuint (tu_encrypt (&o, PW, d, len, &cipher[shape_index]), ==, 0);
    }
  return cipher[shape_index];
}

static GBytes *
job_input (direction dir, gsize shape_index)
{
  return dir == ENCRYPT ? plaintext () : ciphertext (shape_index);
}

/* What every failed job must show. */
static void
check_failed (gpg_error_t err, gpg_err_code_t expected, fault_sink *s,
              const char *what)
{
  EXPECT (gpg_err_code (err) == expected, "%s: got \"%s\", not \"%s\"", what,
          gpg_strerror (err), gpg_strerror (gpg_error (expected)));
  if (expected == GPG_ERR_CANCELED)
    EXPECT (pl_error_outcome (err) == PL_OUTCOME_CANCELLED, "%s", what);
  else
    EXPECT (pl_error_outcome (err) == PL_OUTCOME_IO, "%s: outcome %d", what,
            pl_error_outcome (err));
  if (expected == GPG_ERR_ENOSPC)
    EXPECT (!g_strcmp0 (pl_error_message (err), "The disk is full."),
            "%s: \"%s\"", what, pl_error_message (err));
  if (expected == GPG_ERR_EIO)
    EXPECT (!g_strcmp0 (pl_error_message (err),
                        "A read or write error occurred."),
            "%s: \"%s\"", what, pl_error_message (err));
  EXPECT (atomic_load (&s->n_commit) == 0, "%s: committed", what);
  EXPECT (atomic_load (&s->n_abort) >= 1, "%s: never aborted", what);
  EXPECT (atomic_load (&s->abort_during_write) == 0,
          "%s: aborted while a write still ran", what);
  EXPECT (atomic_load (&s->write_after_abort) == 0,
          "%s: written after abort", what);
  EXPECT (atomic_load (&s->overlapping_writes) == 0,
          "%s: two writes at once", what);
}

static const guint64 sink_limits[] = {
  0, 1, 4095, 64 * 1024 + 1, MIB + 3, 2 * MIB + 5
};

/* A sink that fails after N octets, for both jobs, every shape, one and
 * two threads. */
static void
test_sink_fault (gconstpointer data)
{
  int e = GPOINTER_TO_INT (data);
  guint runs = 0;

  for (int dir = ENCRYPT; dir <= DECRYPT; dir++)
    for (gsize i = 0; i < G_N_ELEMENTS (shapes); i++)
      for (gsize l = 0; l < G_N_ELEMENTS (sink_limits); l++)
        for (int threads = 1; threads <= 2; threads++)
          {
            GBytes *in = job_input (dir, i);
            pl_source *src = pl_source_new_memory (g_bytes_get_data (in, NULL),
                                                   g_bytes_get_size (in));
            fault_sink *s = fault_sink_new (NULL, e, sink_limits[l]);
            pl_job_control ctl = { .threads = threads };
            g_autofree char *sn = shape_name (&shapes[i]);
            g_autofree char *what = g_strdup_printf (
              "%s %s, %s after %" G_GUINT64_FORMAT " octets, %d thread(s)",
              direction_names[dir], sn, g_strerror (e), sink_limits[l],
              threads);
            gpg_error_t err = run_job (dir, &shapes[i], src, &s->base, &ctl);

            check_failed (err, gpg_err_code_from_errno (e), s, what);
            EXPECT (atomic_load (&s->written) <= sink_limits[l], "%s", what);
            pl_sink_free (&s->base);
            pl_source_free (src);
            runs++;
          }
  g_test_message ("%u failing jobs", runs);
}

/* A sink that takes its time (2 ms a large write) but never fails, so
 * that the writer thread lags behind the stages and reads what they
 * handed out several writes back: what comes out decrypts to the input,
 * for every shape, both jobs, one and two threads. */
static void
test_slow_sink_roundtrip (void)
{
  gsize len;
  const void *plain = g_bytes_get_data (plaintext (), &len);

  for (int dir = ENCRYPT; dir <= DECRYPT; dir++)
    for (gsize i = 0; i < G_N_ELEMENTS (shapes); i++)
      for (int threads = 1; threads <= 2; threads++)
        {
          GBytes *in = job_input (dir, i);
          pl_source *src = pl_source_new_memory (g_bytes_get_data (in, NULL),
                                                 g_bytes_get_size (in));
          fault_sink *s = fault_sink_new (pl_sink_new_memory (), 0, 0);
          pl_job_control ctl = { .threads = threads };
          g_autofree char *sn = shape_name (&shapes[i]);
          g_autoptr (GBytes) back = NULL;
          const uint8_t *out;
          size_t out_len;

          g_test_message ("%s %s, %d thread(s)", direction_names[dir], sn,
                          threads);
          g_assert_cmpint (run_job (dir, &shapes[i], src, &s->base, &ctl),
                           ==, 0);
          g_assert_cmpint (atomic_load (&s->overlapping_writes), ==, 0);
          out = pl_sink_memory_data (s->inner, &out_len);
          if (dir == ENCRYPT)
            {
              g_assert_cmpint (tu_decrypt (PW, out, out_len, &back, NULL),
                               ==, 0);
              out = g_bytes_get_data (back, &out_len);
            }
          g_assert_cmpmem (out, out_len, plain, len);
          pl_sink_free (&s->base);
          pl_source_free (src);
        }
}

/* The source fails after N octets: a sweep over the first octets (the
 * headers), then further in. */
static void
test_source_fault (gconstpointer data)
{
  direction dir = GPOINTER_TO_INT (data);
  guint runs = 0;

  for (gsize i = 0; i < G_N_ELEMENTS (shapes); i++)
    {
      GBytes *in = job_input (dir, i);
      g_autoptr(GArray) limits = g_array_new (FALSE, FALSE, sizeof (gsize));
      gsize extra[] = { 4095, 64 * 1024 + 1, MIB + 3, 2 * MIB + 5 };

      /* Every octet of the headers; and S2K specifiers, salts, IVs. */
      for (gsize n = 0; n < 120; n++)
        g_array_append_val (limits, n);
      g_array_append_vals (limits, extra, G_N_ELEMENTS (extra));
      for (guint l = 0; l < limits->len; l++)
        for (int known = 0; known <= 1; known++)
          for (int threads = 1; threads <= 2; threads++)
            {
              gsize limit = g_array_index (limits, gsize, l);
              fault_source *src = fault_source_new (in, limit, known);
              fault_sink *s = fault_sink_new (NULL, 0, 0);
              pl_job_control ctl = { .threads = threads };
              g_autofree char *sn = shape_name (&shapes[i]);
              g_autofree char *what = g_strdup_printf (
                "%s %s, source fails after %" G_GSIZE_FORMAT " octets, "
                "size %s, %d thread(s)", direction_names[dir], sn, limit,
                known ? "known" : "unknown", threads);
              gpg_error_t err;

              /* Only encryption reads the size. */
              if (dir == DECRYPT && !known)
                {
                  pl_sink_free (&s->base);
                  pl_source_free (&src->base);
                  continue;
                }
              g_assert_cmpuint (limit, <, g_bytes_get_size (in));
              err = run_job (dir, &shapes[i], &src->base, &s->base, &ctl);
              check_failed (err, GPG_ERR_EIO, s, what);
              EXPECT (src->failed == 1, "%s: read %d times after the error",
                      what, src->failed);
              pl_sink_free (&s->base);
              pl_source_free (&src->base);
              runs++;
            }
    }
  g_test_message ("%u failing jobs", runs);
}

static const guint64 file_limits[] = { 0, 1, 4095, MIB + 3 };

/* The fault sink over pl_sink_new_file: the temporary file goes, no final
 * file appears, the input (in the same folder) stays as it was.  With
 * O_TMPFILE, and with the mkstemp fallback (PATH.XXXXXX). */
static void
test_file_fault (void)
{
  static const int errnos[] = { EIO, ENOSPC };
  guint runs = 0;

  for (int tmpfile = 1; tmpfile >= 0; tmpfile--)
    for (int dir = ENCRYPT; dir <= DECRYPT; dir++)
      for (gsize i = 0; i < G_N_ELEMENTS (shapes); i++)
        for (gsize l = 0; l < G_N_ELEMENTS (file_limits); l++)
          for (gsize k = 0; k < G_N_ELEMENTS (errnos); k++)
            {
              g_autofree char *folder = tu_new_dir ("file-fault");
              GBytes *in = job_input (dir, i);
              g_autofree char *in_path = g_build_filename (folder, "input", NULL);
              g_autofree char *out_path = g_build_filename (folder, "output", NULL);
              g_autofree char *before = NULL, *after = NULL;
              g_autofree char *hash_before = NULL, *hash_after = NULL;
              g_autofree char *sn = shape_name (&shapes[i]);
              g_autofree char *what = g_strdup_printf (
                "%s %s into a file (%s), %s after %" G_GUINT64_FORMAT " octets",
                direction_names[dir], sn, tmpfile ? "O_TMPFILE" : "mkstemp",
                g_strerror (errnos[k]), file_limits[l]);
              pl_job_control ctl = { .threads = 2 };
              pl_source *src = NULL;
              pl_sink *inner = NULL;
              fault_sink *s;
              gpg_error_t err;

              g_assert_true (g_file_set_contents (in_path, g_bytes_get_data (in, NULL),
                                                  g_bytes_get_size (in), NULL));
              before = tu_list_dir (folder);
              hash_before = tu_file_sha256 (in_path);
              g_assert_cmpuint (pl_source_new_file (in_path, &src), ==, 0);
              tu_refuse_tmpfile (!tmpfile);
              g_assert_cmpuint (pl_sink_new_file (out_path, &inner), ==, 0);
              tu_refuse_tmpfile (FALSE);
              if (!tmpfile)
                {
                  /* The fallback's temporary file is there while the job
                   * runs. */
                  g_autofree char *during = tu_list_dir (folder);
                  EXPECT (g_str_has_prefix (during, "input|output."), "%s: %s",
                          what, during);
                }
              s = fault_sink_new (inner, errnos[k], file_limits[l]);
              err = run_job (dir, &shapes[i], src, &s->base, &ctl);
              check_failed (err, gpg_err_code_from_errno (errnos[k]), s, what);
              pl_source_free (src);
              /* Nothing left once aborted, even before the sink is freed. */
              after = tu_list_dir (folder);
              EXPECT (!g_strcmp0 (before, after), "%s: %s, then %s", what,
                      before, after);
              pl_sink_free (&s->base);
              g_free (after);
              after = tu_list_dir (folder);
              EXPECT (!g_strcmp0 (before, after), "%s: %s, then %s", what,
                      before, after);
              EXPECT (!g_file_test (out_path, G_FILE_TEST_EXISTS), "%s", what);
              hash_after = tu_file_sha256 (in_path);
              EXPECT (!g_strcmp0 (hash_before, hash_after), "%s: input changed", what);
              g_unlink (in_path);
              g_rmdir (folder);
              runs++;
            }
  g_test_message ("%u failing jobs into files", runs);
}

/* A real full disk: a 2 MiB tmpfs. */
static char *mount_dir;

static gboolean
mount_small_tmpfs (void)
{
  mount_dir = tu_mount_tmpfs ("full-disk", "2m");
  return mount_dir != NULL;
}

static void
unmount_small_tmpfs (void)
{
  tu_unmount_tmpfs (g_steal_pointer (&mount_dir));
}

/* Nothing in the folder, and all of its space free again (no open,
 * unlinked file holds any). */
static void
check_empty_tmpfs (const char *what)
{
  g_autofree char *listing = tu_list_dir (mount_dir);
  struct statvfs st;

  EXPECT (!g_strcmp0 (listing, ""), "%s: left %s", what, listing);
  g_assert_cmpint (statvfs (mount_dir, &st), ==, 0);
  EXPECT (st.f_bfree == st.f_blocks, "%s: %lu of %lu blocks free", what,
          (unsigned long) st.f_bfree, (unsigned long) st.f_blocks);
}

static int
run_shell (const char *command, char **err_text)
{
  const char *argv[] = { "/bin/sh", "-c", command, NULL };
  GBytes *out = NULL;
  int status = -1;

  g_assert_true (tu_run (argv, NULL, &out, err_text, &status));
  g_bytes_unref (out);
  return status;
}

static void
test_full_disk (void)
{
  const shape *s = &shapes[0];
  g_autoptr(GBytes) plain = tu_random_bytes (5 * MIB);
  g_autoptr(GBytes) cipher = NULL;
  g_autofree char *in_path = NULL, *ct_path = NULL, *pw_path = NULL;
  g_autofree char *out_path = NULL;
  pl_encrypt_options o;

  if (!mount_small_tmpfs ())
    return;
  out_path = g_build_filename (mount_dir, "out", NULL);
  in_path = tu_write_temp ("full-disk-plain", g_bytes_get_data (plain, NULL),
                           g_bytes_get_size (plain));
  fast_options (&o, s);
  g_assert_cmpuint (tu_encrypt (&o, PW, g_bytes_get_data (plain, NULL),
                                g_bytes_get_size (plain), &cipher), ==, 0);
  ct_path = tu_write_temp ("full-disk-cipher", g_bytes_get_data (cipher, NULL),
                           g_bytes_get_size (cipher));
  pw_path = tu_write_temp ("full-disk-pw", PW, strlen (PW));
  check_empty_tmpfs ("fresh");

  /* The engine, into pl_sink_new_file, both jobs and each profile. */
  for (gsize i = 0; i < G_N_ELEMENTS (shapes); i++)
    for (int dir = ENCRYPT; dir <= DECRYPT; dir++)
      {
        const char *path = dir == ENCRYPT ? in_path : ct_path;
        g_autofree char *sn = shape_name (&shapes[i]);
        g_autofree char *what = g_strdup_printf ("%s %s into a full disk",
                                                 direction_names[dir], sn);
        pl_job_control ctl = { .threads = 2 };
        pl_source *src = NULL;
        pl_sink *inner = NULL;
        fault_sink *fs;
        gpg_error_t err;

        if (dir == DECRYPT && i != 0)
          continue;             /* one ciphertext is enough */
        g_assert_cmpuint (pl_source_new_file (path, &src), ==, 0);
        g_assert_cmpuint (pl_sink_new_file (out_path, &inner), ==, 0);
        fs = fault_sink_new (inner, 0, 0);
        err = run_job (dir, &shapes[i], src, &fs->base, &ctl);
        check_failed (err, GPG_ERR_ENOSPC, fs, what);
        g_test_message ("%s: %s, after %" G_GUINT64_FORMAT " octets", what,
                        pl_error_message (err), (guint64) atomic_load (&fs->written));
        pl_sink_free (&fs->base);
        pl_source_free (src);
        check_empty_tmpfs (what);
      }

  /* padlock-sop, its standard output redirected into the full disk: the
   * shell makes the file; what padlock-sop wrote into it goes again. */
  for (int dir = ENCRYPT; dir <= DECRYPT; dir++)
    {
      g_autofree char *cmd = g_strdup_printf (
        "exec '%s' %s --with-password='%s' < '%s' > '%s'", tu_sop_path (),
        dir == ENCRYPT ? "encrypt --no-armor" : "decrypt", pw_path,
        dir == ENCRYPT ? in_path : ct_path, out_path);
      g_autofree char *err_text = NULL;
      g_autofree char *what = g_strdup_printf ("padlock-sop %s > full disk",
                                               direction_names[dir]);
      struct stat st = { 0 };
      int status = run_shell (cmd, &err_text);

      g_test_message ("%s: exit %d, %s", what, status, err_text);
      EXPECT (status == 1, "%s: exit %d", what, status);
      EXPECT (strstr (err_text, "The disk is full.") != NULL, "%s: %s", what,
              err_text);
      EXPECT (g_stat (out_path, &st) == 0 && st.st_size == 0,
              "%s: the output keeps %ld octets", what, (long) st.st_size);
      g_unlink (out_path);
      check_empty_tmpfs (what);
    }

  unmount_small_tmpfs ();
  g_unlink (in_path);
  g_unlink (ct_path);
  g_unlink (pw_path);
}

/* Cancelled from the progress callback once 2 MiB went through. */
typedef struct
{
  atomic_int cancel;
  guint64 cancelled_at;
  guint64 last;
} cancel_state;

static void
cancel_after_2mib (void *user_data, uint64_t done, int64_t total)
{
  cancel_state *c = user_data;

  c->last = done;
  if (done >= 2 * MIB && !atomic_load (&c->cancel))
    {
      c->cancelled_at = done;
      atomic_store (&c->cancel, 1);
    }
}

static void
test_cancel (void)
{
  g_autoptr(GBytes) plain = tu_random_bytes (20 * MIB);
  g_autofree char *folder = tu_new_dir ("cancel");
  g_autofree char *in_path = g_build_filename (folder, "plain", NULL);
  g_autofree char *out_path = g_build_filename (folder, "out", NULL);
  g_autofree char *plain_hash = tu_sha256_hex (g_bytes_get_data (plain, NULL),
                                               g_bytes_get_size (plain));

  g_assert_true (g_file_set_contents (in_path, g_bytes_get_data (plain, NULL),
                                      g_bytes_get_size (plain), NULL));
  for (gsize i = 0; i < G_N_ELEMENTS (shapes); i++)
    {
      g_autofree char *ct_path = g_build_filename (folder, "cipher", NULL);
      g_autofree char *sn = shape_name (&shapes[i]);
      pl_encrypt_options o;
      pl_opener key = pl_opener_passphrase (PW, strlen (PW));
      pl_source *src = NULL;
      pl_sink *sink = NULL;

      /* The ciphertext to decrypt, made whole. */
      fast_options (&o, &shapes[i]);
      g_assert_cmpuint (pl_source_new_file (in_path, &src), ==, 0);
      g_assert_cmpuint (pl_sink_new_file (ct_path, &sink), ==, 0);
      o.openers = &key;
      o.n_openers = 1;
      g_assert_cmpuint (pl_encrypt (src, sink, &o, NULL), ==, 0);
      pl_sink_free (sink);
      pl_source_free (src);

      for (int dir = ENCRYPT; dir <= DECRYPT; dir++)
        for (int threads = 1; threads <= 2; threads++)
          {
            g_autofree char *what = g_strdup_printf (
              "%s %s of 20 MiB, cancelled after 2 MiB, %d thread(s)",
              direction_names[dir], sn, threads);
            g_autofree char *before = tu_list_dir (folder);
            g_autofree char *after = NULL, *hash = NULL;
            g_autofree char *ct_hash = tu_file_sha256 (ct_path);
            g_autofree char *ct_hash_after = NULL;
            cancel_state c = { 0 };
            pl_job_control ctl = {
              .progress = cancel_after_2mib,
              .user_data = &c,
              .cancel = &c.cancel,
              .threads = threads,
            };
            pl_sink *inner = NULL;
            fault_sink *fs;
            gpg_error_t err;

            g_assert_cmpuint (pl_source_new_file (dir == ENCRYPT ? in_path : ct_path,
                                                  &src), ==, 0);
            g_assert_cmpuint (pl_sink_new_file (out_path, &inner), ==, 0);
            fs = fault_sink_new (inner, 0, 0);
            err = run_job (dir, &shapes[i], src, &fs->base, &ctl);
            check_failed (err, GPG_ERR_CANCELED, fs, what);
            EXPECT (c.cancelled_at >= 2 * MIB, "%s", what);
            /* It stopped at once: at most a block more was read. */
            EXPECT (c.last <= c.cancelled_at + 2 * PL_BLOCK_SIZE,
                    "%s: read %" G_GUINT64_FORMAT " after cancelling at %"
                    G_GUINT64_FORMAT, what, c.last, c.cancelled_at);
            EXPECT (atomic_load (&fs->written) < 20 * MIB, "%s", what);
            pl_source_free (src);
            pl_sink_free (&fs->base);
            after = tu_list_dir (folder);
            EXPECT (!g_strcmp0 (before, after), "%s: %s, then %s", what,
                    before, after);
            hash = tu_file_sha256 (in_path);
            EXPECT (!g_strcmp0 (hash, plain_hash), "%s: input changed", what);
            ct_hash_after = tu_file_sha256 (ct_path);
            EXPECT (!g_strcmp0 (ct_hash, ct_hash_after), "%s: input changed", what);
          }
      g_unlink (ct_path);
    }
}

int
main (int argc, char **argv)
{
  tu_init (&argc, &argv);

  g_test_add_data_func ("/faults/sink/eio", GINT_TO_POINTER (EIO),
                        test_sink_fault);
  g_test_add_data_func ("/faults/sink/enospc", GINT_TO_POINTER (ENOSPC),
                        test_sink_fault);
  g_test_add_data_func ("/faults/source/encrypt", GINT_TO_POINTER (ENCRYPT),
                        test_source_fault);
  g_test_add_data_func ("/faults/source/decrypt", GINT_TO_POINTER (DECRYPT),
                        test_source_fault);
  g_test_add_func ("/faults/slow-sink/roundtrip", test_slow_sink_roundtrip);
  g_test_add_func ("/faults/file", test_file_fault);
  g_test_add_func ("/faults/full-disk", test_full_disk);
  g_test_add_func ("/faults/cancel", test_cancel);
  return g_test_run ();
}
