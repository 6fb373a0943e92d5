/* test-roundtrip.c - encrypt then decrypt through the engine, every
 * profile, size and framing */
#include "testutil.h"
#include "algo.h"
#include "skesk.h"
#include "pipeline.h"
#include "mapsource.h"

#include <stdatomic.h>
#include <pthread.h>
#include <string.h>
#include <unistd.h>
#include <fcntl.h>
#include <gcrypt.h>
#include <glib/gstdio.h>

static const gsize sizes[] = { 0, 1, 4095, (1u << 20) + 1, 7u << 20 };

typedef struct
{
  pl_profile profile;
  int armor;
  int compress;
  int cipher;
  gboolean pipe;
} rt_case;

static void
fast_options (pl_encrypt_options *o, const rt_case *c)
{
  pl_encrypt_options_init (o);
  o->profile = c->profile;
  o->armor = c->armor;
  o->compress_algo = c->compress;
  if (c->cipher)
    o->cipher_algo = c->cipher;
  tu_cheap_kdf (o);             /* the tests are about the data path */
  o->file_name = "/some/dir/report.pdf";
  o->file_date = 1700000000;
}

typedef struct
{
  int fd;
  const guint8 *data;
  gsize len;
} feeder;

static void *
feed (void *arg)
{
  feeder *f = arg;
  gsize off = 0;
  while (off < f->len)
    {
      /* Odd write sizes, so that reads see odd block edges. */
      gsize k = MIN (f->len - off, 65537);
      ssize_t n = write (f->fd, f->data + off, k);
      if (n <= 0)
        break;
      off += (gsize) n;
    }
  close (f->fd);
  return NULL;
}

/* Encrypts DATA through a file or a pipe source into a file sink. */
static GBytes *
encrypt_via (const rt_case *c, GBytes *data)
{
  pl_encrypt_options o;
  pl_opener key;
  pl_source *src;
  pl_sink *sink;
  gsize len;
  const guint8 *d = g_bytes_get_data (data, &len);
  char *in_path = NULL, *out_path;
  pthread_t thread;
  feeder f;
  gpg_error_t err;
  char *contents;
  gsize clen;
  static int counter;

  fast_options (&o, c);
  out_path = g_strdup_printf ("%s/out-%d.pgp", tu_tmpdir (), counter++);
  if (c->pipe)
    {
      int fds[2];
      g_assert_cmpint (pipe (fds), ==, 0);
      f.fd = fds[1];
      f.data = d;
      f.len = len;
      pthread_create (&thread, NULL, feed, &f);
      src = pl_source_new_fd (fds[0], 1);
      g_assert_cmpint (src->size, ==, -1);
    }
  else
    {
      in_path = tu_write_temp ("plain.bin", d, len);
      g_assert_cmpuint (pl_source_new_file (in_path, &src), ==, 0);
      g_assert_cmpint (src->size, ==, (gint64) len);
    }
  g_assert_cmpuint (pl_sink_new_file (out_path, &sink), ==, 0);
  key = pl_opener_passphrase ("correct horse", 13);
  o.openers = &key;
  o.n_openers = 1;
  err = pl_encrypt (src, sink, &o, NULL);
  g_assert_cmpstr (gpg_strerror (err), ==, gpg_strerror (0));
  pl_sink_free (sink);
  pl_source_free (src);
  if (c->pipe)
    pthread_join (thread, NULL);
  g_assert_true (g_file_get_contents (out_path, &contents, &clen, NULL));
  g_unlink (out_path);
  g_free (out_path);
  g_free (in_path);
  return g_bytes_new_take (contents, clen);
}

static void
check_case (gconstpointer p)
{
  const rt_case *c = p;

  for (gsize i = 0; i < G_N_ELEMENTS (sizes); i++)
    {
      GBytes *plain = tu_random_bytes (sizes[i]);
      GBytes *cipher = encrypt_via (c, plain);
      GBytes *back = NULL;
      pl_decrypt_result r = { 0 };
      gsize clen;
      const guint8 *cd = g_bytes_get_data (cipher, &clen);
      gpg_error_t err;

      g_test_message ("size %" G_GSIZE_FORMAT ": %" G_GSIZE_FORMAT
                      " octets of ciphertext", sizes[i], clen);
      if (c->armor)
        g_assert_true (g_str_has_prefix ((const char *) cd,
                                         "-----BEGIN PGP MESSAGE-----"));
      else
        g_assert_true (cd[0] & 0x80);
      err = tu_decrypt ("correct horse", cd, clen, &back, &r);
      g_assert_cmpstr (gpg_strerror (err), ==, gpg_strerror (0));
      g_assert_true (g_bytes_equal (plain, back));
      g_assert_cmpstr (r.literal.name, ==, "report.pdf");
      g_assert_cmpuint (r.literal.date, ==, 1700000000);
      g_assert_cmpint (r.literal.format, ==, 'b');
      g_assert_cmpint (r.armored, ==, c->armor);
      g_assert_cmpint (r.compress_algo, ==, c->compress);
      g_assert_cmpint (r.data_kind, ==,
                       c->profile == PL_PROFILE_RFC4880 ? PL_DATA_SEIPD1
                       : c->profile == PL_PROFILE_LIBREPGP ? PL_DATA_OCB_ENCRYPTED
                       : PL_DATA_SEIPD2);
      g_bytes_unref (back);

      /* The wrong passphrase opens nothing and writes nothing. */
      err = tu_decrypt ("wrong horse", cd, clen, &back, NULL);
      g_assert_cmpint (gpg_err_code (err), ==, GPG_ERR_BAD_PASSPHRASE);
      g_assert_cmpuint (g_bytes_get_size (back), ==, 0);
      g_bytes_unref (back);
      g_bytes_unref (cipher);
      g_bytes_unref (plain);
    }
}

/* From a file, lengths are definite: the message says how big it is. */
static void
test_definite_lengths (void)
{
  rt_case c = { PL_PROFILE_RFC4880, 0, 0, 0, FALSE };
  GBytes *plain = tu_random_bytes (100000);
  GBytes *cipher = encrypt_via (&c, plain);
  gsize len;
  const guint8 *d = g_bytes_get_data (cipher, &len);
  gsize skesk_len = d[1] + 2u;
  const guint8 *seipd = d + skesk_len;

  /* SKESK, then SEIPD (tag 18) with a 5-octet definite length. */
  g_assert_cmpuint (d[0], ==, 0xC3);
  g_assert_cmpuint (seipd[0], ==, 0xD2);
  g_assert_cmpuint (seipd[1], ==, 0xFF);
  g_assert_cmpuint (((gsize) seipd[2] << 24 | seipd[3] << 16 | seipd[4] << 8
                     | seipd[5]), ==, len - skesk_len - 6);
  g_bytes_unref (cipher);

  /* From a pipe, partial lengths of 2^20. */
  c.pipe = TRUE;
  cipher = encrypt_via (&c, plain);
  d = g_bytes_get_data (cipher, &len);
  seipd = d + d[1] + 2;
  g_assert_cmpuint (seipd[0], ==, 0xD2);
  /* Under a megabyte: one definite chunk; still a valid message. */
  g_bytes_unref (cipher);
  g_bytes_unref (plain);
  plain = tu_random_bytes (3u << 20);
  cipher = encrypt_via (&c, plain);
  d = g_bytes_get_data (cipher, &len);
  seipd = d + d[1] + 2;
  g_assert_cmpuint (seipd[1], ==, 0xE0 | 20);
  g_bytes_unref (cipher);
  g_bytes_unref (plain);
}

/* Text is stored with CRLF line ends and given back with LF, as GnuPG
 * does; a CR on its own survives. */
static void
test_text_mode (void)
{
  static const char *texts[][2] = {
    { "line one\nline two\n", "line one\nline two\n" },
    { "dos\r\nline\r\n", "dos\nline\n" },
    { "a lone \r stays\n\r", "a lone \r stays\n\r" },
  };
  pl_encrypt_options o;
  rt_case c = { PL_PROFILE_RFC4880, 1, 0, 0, FALSE };

  fast_options (&o, &c);
  o.literal_format = 'u';
  for (gsize i = 0; i < G_N_ELEMENTS (texts); i++)
    {
      GBytes *cipher, *back;
      pl_decrypt_result r = { 0 };
      gsize len;
      const guint8 *d;

      g_assert_cmpuint (tu_encrypt (&o, "pw", texts[i][0],
                                    strlen (texts[i][0]), &cipher), ==, 0);
      d = g_bytes_get_data (cipher, &len);
      g_assert_cmpuint (tu_decrypt ("pw", d, len, &back, &r), ==, 0);
      g_assert_cmpint (r.literal.format, ==, 'u');
      g_assert_cmpmem (g_bytes_get_data (back, NULL), g_bytes_get_size (back),
                       texts[i][1], strlen (texts[i][1]));
      g_bytes_unref (back);
      g_bytes_unref (cipher);
    }
}

/* Trailing whitespace on a passphrase is tried trimmed too (SOP). */
static void
test_trimmed_passphrase (void)
{
  pl_encrypt_options o;
  rt_case c = { PL_PROFILE_RFC4880, 0, 0, 0, FALSE };
  GBytes *cipher, *back;
  gsize len;
  const guint8 *d;

  fast_options (&o, &c);
  g_assert_cmpuint (tu_encrypt (&o, "secret", "x", 1, &cipher), ==, 0);
  d = g_bytes_get_data (cipher, &len);
  g_assert_cmpuint (tu_decrypt ("secret \n", d, len, &back, NULL), ==, 0);
  g_assert_cmpuint (g_bytes_get_size (back), ==, 1);
  g_bytes_unref (back);
  g_bytes_unref (cipher);
}

/* An input over DATA: in memory (borrowed in place) or from a file (read
 * into buffers).  close_input frees it and removes the file. */
/* FILE: 0 in memory, 1 a file read into buffers, INPUT_MAPPED a file
 * mapped and lent in place (mapsource.h). */
#define INPUT_MAPPED 2

static pl_source *
open_input (int file, const void *data, gsize len, char **path)
{
  pl_source *src;

  *path = NULL;
  if (!file)
    {
      src = pl_source_new_memory (data, len);
      g_assert_nonnull (src->borrow);
      return src;
    }
  *path = tu_write_temp ("input.bin", data, len);
  if (file == INPUT_MAPPED)
    {
      int fd = open (*path, O_RDONLY | O_CLOEXEC);
      g_assert_cmpint (pl_source_new_mapped (fd, 1, &src), ==, 0);
      g_assert_nonnull (src->borrow);
      return src;
    }
  g_assert_cmpuint (pl_source_new_file (*path, &src), ==, 0);
  g_assert_null (src->borrow);
  return src;
}

/* A source over memory that takes a while for every read, 64 KiB at
 * most (a slow disk, a network share): a read-ahead over it is still
 * reading when the job starts on the first block.  Not open_input's: the
 * test that wants it makes it itself. */
#define INPUT_SLOW (INPUT_MAPPED + 1)

typedef struct
{
  pl_source base;
  pl_source *mem;
} slow_source;

static gpg_error_t
slow_read (pl_source *self, void *buf, size_t len, size_t *nread)
{
  slow_source *s = (slow_source *) self;

  g_usleep (500);
  return s->mem->read (s->mem, buf, MIN (len, 64u << 10), nread);
}

static void
slow_free (pl_source *self)
{
  slow_source *s = (slow_source *) self;

  pl_source_free (s->mem);
  g_free (s);
}

static pl_source *
slow_source_new (const void *data, gsize len)
{
  slow_source *s = g_new0 (slow_source, 1);

  s->mem = pl_source_new_memory (data, len);
  s->base.read = slow_read;
  s->base.free = slow_free;
  s->base.size = len;
  return &s->base;
}

static void
close_input (pl_source *src, char *path)
{
  pl_source_free (src);
  if (path)
    g_unlink (path);
  g_free (path);
}

/* Decrypts MSG on THREADS from memory (borrowed in place) or from a file
 * (read into buffers, or mapped: open_input's FILE); *OUT gets what the
 * sink committed (empty after a failure). */
/* A sink that takes SINK_DELAY_US for every large write (a slow disk):
 * the writer thread lags, and a producer that refilled a buffer the
 * writer still reads would show in the output. */
static int sink_delay_us;

typedef struct
{
  pl_sink base;
  pl_sink *inner;
} slow_sink;

static gpg_error_t
slow_write (pl_sink *s, const void *buf, size_t n)
{
  pl_sink *inner = ((slow_sink *) s)->inner;

  if (n >= 64 * 1024)
    g_usleep (sink_delay_us);
  return inner->write (inner, buf, n);
}

static gpg_error_t
slow_commit (pl_sink *s)
{
  pl_sink *inner = ((slow_sink *) s)->inner;
  return inner->commit (inner);
}

static void
slow_abort (pl_sink *s)
{
  pl_sink *inner = ((slow_sink *) s)->inner;
  inner->abort (inner);
}

static gpg_error_t
decrypt_from (int file, const guint8 *msg, gsize len, int threads,
              GBytes **out)
{
  slow_sink slow;
  pl_opener key = pl_opener_passphrase ("pw", 2);
  pl_decrypt_options o = { 0 };
  pl_job_control ctl = { NULL, NULL, NULL, threads };
  pl_sink *sink = pl_sink_new_memory ();
  char *path;
  pl_source *src = open_input (file, msg, len, &path);
  const uint8_t *d;
  size_t n;
  gpg_error_t err;

  o.openers = &key;
  o.n_openers = 1;
  slow = (slow_sink) { { slow_write, slow_commit, slow_abort, NULL }, sink };
  err = pl_decrypt (src, sink_delay_us ? &slow.base : sink, &o, NULL, &ctl);
  d = pl_sink_memory_data (sink, &n);
  *out = g_bytes_new (d, err ? 0 : n);
  pl_sink_free (sink);
  close_input (src, path);
  return err;
}

/* MSG decrypts to PLAIN from input kind FILE on THREADS. */
static void
assert_opens (int file, const guint8 *msg, gsize len, int threads,
              GBytes *plain)
{
  GBytes *back;
  gpg_error_t err = decrypt_from (file, msg, len, threads, &back);

  g_assert_cmpstr (gpg_strerror (err), ==, gpg_strerror (0));
  g_assert_true (g_bytes_equal (plain, back));
  g_bytes_unref (back);
}

/* Large text on two threads: the line ends are turned into LF while the
 * MDC thread may still hash the decrypted block (seipd.h), so the
 * conversion must not be made in place.  (In place, the MDC of such a
 * message failed: the hasher saw LF where CRLF had been encrypted.)
 * And in 1 MiB AEAD chunks, binary, which the writer queues two deep
 * (pipeline.h): the LF output goes through three buffers in turn. */
static void
test_text_mode_threads (void)
{
  const gsize lines = 400 * 1024;
  GString *text = g_string_new (NULL), *want = g_string_new (NULL);
  static const rt_case cases[] = {
    { PL_PROFILE_RFC4880, 1, 0, 0, FALSE },
    { PL_PROFILE_LIBREPGP, 0, 0, 0, FALSE },
  };
  GBytes *expect;

  for (gsize i = 0; i < lines; i++)
    {
      g_string_append_printf (text, "line %zu\r\n", i);
      g_string_append_printf (want, "line %zu\n", i);
      if (i % 1000 == 999)
        {
          g_string_append (text, "a lone \r here\r\n");
          g_string_append (want, "a lone \r here\n");
        }
    }
  expect = g_bytes_new (want->str, want->len);
  for (gsize k = 0; k < G_N_ELEMENTS (cases); k++)
    {
      pl_encrypt_options o;
      GBytes *cipher;
      const guint8 *d;
      gsize len;

      fast_options (&o, &cases[k]);
      o.literal_format = 'u';
      o.chunk_octet = 14;
      g_assert_cmpuint (tu_encrypt (&o, "pw", text->str, text->len, &cipher),
                        ==, 0);
      d = g_bytes_get_data (cipher, &len);
      for (int file = 0; file <= INPUT_MAPPED; file++)
        for (int threads = 1; threads <= 2; threads++)
          assert_opens (file, d, len, threads, expect);
      /* A slow sink: the writer is behind all the way. */
      sink_delay_us = 3000;
      assert_opens (0, d, len, 2, expect);
      sink_delay_us = 0;
      g_bytes_unref (cipher);
    }
  g_bytes_unref (expect);
  g_string_free (text, TRUE);
  g_string_free (want, TRUE);
}

/* An input in memory is borrowed in place, a file's is read into
 * buffers: the same messages either way, on any thread budget, at sizes
 * around the read size and with many small chunks; and one octet changed
 * anywhere is caught by both, before anything is committed. */
static void
test_borrowed_and_read (void)
{
  static const gsize lens[] = { 0, 1, 17, PL_READ_SIZE - 1, PL_READ_SIZE + 1,
                                3 * PL_READ_SIZE + 5 };
  static const int threads[] = { 1, 2, 4 };

  for (int p = PL_PROFILE_RFC4880; p <= PL_PROFILE_RFC9580; p++)
    for (int small = 0; small < 2; small++)
      for (gsize i = 0; i < G_N_ELEMENTS (lens); i++)
        for (gsize t = 0; t < G_N_ELEMENTS (threads); t++)
          {
            rt_case c = { (pl_profile) p, 0, 0, 0, FALSE };
            pl_encrypt_options o;
            pl_opener key = pl_opener_passphrase ("pw", 2);
            pl_job_control ctl = { NULL, NULL, NULL, threads[t] };
            GBytes *plain = tu_random_bytes (lens[i]);
            pl_source *src = pl_source_new_memory
                               (g_bytes_get_data (plain, NULL), lens[i]);
            pl_sink *sink = pl_sink_new_memory ();
            const uint8_t *d;
            guint8 *msg;
            size_t n, at;

            fast_options (&o, &c);
            o.openers = &key;
            o.n_openers = 1;
            /* 1 KiB chunks: hundreds of them per read block. */
            o.chunk_octet = small ? 4 : -1;
            g_assert_cmpuint (pl_encrypt (src, sink, &o, &ctl), ==, 0);
            d = pl_sink_memory_data (sink, &n);
            msg = g_memdup2 (d, n);
            pl_sink_free (sink);
            pl_source_free (src);

            for (int file = 0; file <= INPUT_MAPPED; file++)
              {
                GBytes *back;
                gpg_error_t err;

                assert_opens (file, msg, n, threads[t], plain);
                /* Past the key packet: amid the data of a large message,
                 * in the MDC or the final tag of a small one. */
                at = n / 2 + 40 < n - 10 ? n / 2 + 40 : n - 10;
                msg[at] ^= 0x20;
                err = decrypt_from (file, msg, n, threads[t], &back);
                msg[at] ^= 0x20;
                g_assert_cmpint (err, !=, 0);
                g_assert_cmpuint (g_bytes_get_size (back), ==, 0);
                g_bytes_unref (back);
              }
            g_free (msg);
            g_bytes_unref (plain);
          }
}

static void
test_cancel (void)
{
  pl_encrypt_options o;
  pl_opener key = pl_opener_passphrase ("pw", 2);
  rt_case c = { PL_PROFILE_RFC4880, 0, 0, 0, FALSE };
  GBytes *plain = tu_random_bytes (4u << 20);
  atomic_int cancel = 1;
  pl_job_control ctl = { NULL, NULL, &cancel, 0 };
  char *out_path = g_build_filename (tu_tmpdir (), "cancelled.pgp", NULL);
  pl_source *src = pl_source_new_memory (g_bytes_get_data (plain, NULL),
                                         g_bytes_get_size (plain));
  pl_sink *sink;

  fast_options (&o, &c);
  g_assert_cmpuint (pl_sink_new_file (out_path, &sink), ==, 0);
  o.openers = &key;
  o.n_openers = 1;
  g_assert_cmpint (gpg_err_code (pl_encrypt (src, sink, &o, &ctl)),
                   ==, GPG_ERR_CANCELED);
  pl_sink_free (sink);
  pl_source_free (src);
  g_assert_false (g_file_test (out_path, G_FILE_TEST_EXISTS));
  g_free (out_path);
  g_bytes_unref (plain);
}

static void
progress_cb (void *user, uint64_t done, int64_t total)
{
  uint64_t *last = user;
  g_assert_cmpuint (done, >=, *last);
  *last = done;
}

static void
test_progress_and_no_overwrite (void)
{
  pl_encrypt_options o;
  pl_opener key = pl_opener_passphrase ("pw", 2);
  rt_case c = { PL_PROFILE_RFC4880, 0, 0, 0, FALSE };
  GBytes *plain = tu_random_bytes (3u << 20);
  uint64_t last = 0;
  pl_job_control ctl = { progress_cb, &last, NULL, 0 };
  char *path = tu_write_temp ("exists.pgp", "keep me", 7);
  pl_source *src = pl_source_new_memory (g_bytes_get_data (plain, NULL),
                                         g_bytes_get_size (plain));
  pl_sink *sink = NULL;
  char *contents;

  fast_options (&o, &c);
  /* An existing file is never replaced. */
  g_assert_cmpint (gpg_err_code (pl_sink_new_file (path, &sink)), ==,
                   GPG_ERR_EEXIST);
  g_unlink (path);
  g_assert_cmpuint (pl_sink_new_file (path, &sink), ==, 0);
  /* Someone else takes the name while we work: commit refuses. */
  g_file_set_contents (path, "raced", 5, NULL);
  o.openers = &key;
  o.n_openers = 1;
  g_assert_cmpint (gpg_err_code (pl_encrypt (src, sink, &o, &ctl)),
                   ==, GPG_ERR_EEXIST);
  g_assert_cmpuint (last, ==, 3u << 20);
  g_assert_true (g_file_get_contents (path, &contents, NULL, NULL));
  g_assert_cmpstr (contents, ==, "raced");
  g_free (contents);
  pl_sink_free (sink);
  pl_source_free (src);
  g_free (path);
  g_bytes_unref (plain);
}

/* What a decryption reported, from the job's threads. */
typedef struct
{
  GMutex lock;
  uint64_t last;                /* the last progress, under LOCK */
  uint64_t at_derived;          /* the progress when the key was derived */
  int derived;
  int deriving_ms;              /* how long a derivation takes */
  int stall_first_ms;           /* how long the first report takes */
  atomic_int reports;
} derive_watch;

/* Every report is at least the one before, in the order they arrive;
 * the first may take a while before it arrives (a busy main loop, a
 * preempted thread): the read-ahead goes on reading meanwhile. */
static void
watch_progress (void *user, uint64_t done, int64_t total)
{
  derive_watch *w = user;

  (void) total;
  if (atomic_fetch_add (&w->reports, 1) == 0 && w->stall_first_ms)
    g_usleep (w->stall_first_ms * 1000);
  g_mutex_lock (&w->lock);
  g_assert_cmpuint (done, >=, w->last);
  w->last = done;
  g_mutex_unlock (&w->lock);
}

/* The derivation takes a while, as Argon2 or a pinentry would: the
 * read-ahead has read far ahead by its end. */
static void
watch_deriving (void *user, int deriving)
{
  derive_watch *w = user;

  if (deriving == PL_DERIVING)
    g_usleep (w->deriving_ms * 1000);
  g_mutex_lock (&w->lock);
  if (!deriving && !w->derived)
    {
      w->derived = 1;
      w->at_derived = w->last;
    }
  g_mutex_unlock (&w->lock);
}

/* Decrypts an 8 MiB message of each profile from each kind of input
 * (and a slow one) with a key derivation of DERIVING_MS and a first
 * report that takes STALL_FIRST_MS; it reported every octet by the end,
 * and nothing before its key was derived. */
static void
assert_decrypt_progress (int deriving_ms, int stall_first_ms)
{
  for (int profile = PL_PROFILE_RFC4880; profile <= PL_PROFILE_RFC9580;
       profile++)
    for (int file = 0; file <= INPUT_SLOW; file++)
      {
        rt_case c = { profile, 0, 0, 0, FALSE };
        GBytes *plain = tu_random_bytes (8u << 20);
        GBytes *msg = encrypt_via (&c, plain);
        gsize len;
        const guint8 *m = g_bytes_get_data (msg, &len);
        pl_opener key = pl_opener_passphrase ("correct horse", 13);
        pl_decrypt_options o = { 0 };
        derive_watch w = { .deriving_ms = deriving_ms,
                           .stall_first_ms = stall_first_ms };
        pl_job_control ctl = { watch_progress, &w, NULL, 2, watch_deriving };
        pl_sink *sink = pl_sink_new_memory ();
        char *path = NULL;
        pl_source *src = file == INPUT_SLOW ? slow_source_new (m, len)
                                            : open_input (file, m, len, &path);

        g_mutex_init (&w.lock);
        o.openers = &key;
        o.n_openers = 1;
        g_assert_cmpuint (pl_decrypt (src, sink, &o, NULL, &ctl), ==, 0);
        g_assert_true (w.derived);
        g_assert_cmpuint (w.at_derived, ==, 0);
        g_assert_cmpuint (w.last, ==, len);
        g_mutex_clear (&w.lock);
        pl_sink_free (sink);
        close_input (src, path);
        g_bytes_unref (msg);
        g_bytes_unref (plain);
      }
}

/* A decryption reports no progress while its key is derived (or the
 * agent asks for a passphrase): what was read by then is read ahead,
 * not decrypted.  After, it reports every octet, the read-ahead's
 * first. */
static void
test_decrypt_progress_after_key (void)
{
  assert_decrypt_progress (100, 0);
}

/* The first report (what was read ahead while the key was derived, made
 * on the job's thread) is slow to arrive while the read-ahead's thread
 * reads on and reports more: the later count never goes out first. */
static void
test_decrypt_progress_in_order (void)
{
  assert_decrypt_progress (0, 50);
}

/* Keys as a list: one message for two passphrases opens with either
 * (one SKESK each, around a random session key), and the session key
 * that comes out opens it alone. */
static void
test_two_passphrases (void)
{
  static const char text[] = "for two readers";

  for (int profile = PL_PROFILE_RFC4880; profile <= PL_PROFILE_RFC9580;
       profile++)
    {
      rt_case c = { 0 };
      pl_encrypt_options o;
      pl_opener keys[2] = { pl_opener_passphrase ("first", 5),
                         pl_opener_passphrase ("second", 6) };
      pl_source *src = pl_source_new_memory (text, sizeof text - 1);
      pl_sink *sink = pl_sink_new_memory ();
      uint8_t *key_out = gcry_malloc_secure (PL_SESSION_KEY_MAX);
      pl_decrypt_result result;
      const uint8_t *msg;
      size_t msg_len;
      GBytes *out;

      c.profile = (pl_profile) profile;
      fast_options (&o, &c);
      o.openers = keys;
      o.n_openers = 2;
      g_assert_cmpuint (pl_encrypt (src, sink, &o, NULL), ==, 0);
      msg = pl_sink_memory_data (sink, &msg_len);
      for (int i = 0; i < 2; i++)
        {
          g_assert_cmpuint (tu_decrypt (i ? "second" : "first", msg, msg_len,
                                        &out, NULL), ==, 0);
          g_assert_cmpmem (g_bytes_get_data (out, NULL),
                           g_bytes_get_size (out), text, sizeof text - 1);
          g_bytes_unref (out);
        }
      g_assert_cmpuint (gpg_err_code (tu_decrypt ("third", msg, msg_len,
                                                  &out, NULL)),
                        ==, GPG_ERR_BAD_PASSPHRASE);
      g_bytes_unref (out);

      /* The session key out, then in. */
      {
        pl_decrypt_options d = { &keys[1], 1, 0, key_out };
        pl_source *again = pl_source_new_memory (msg, msg_len);
        pl_sink *plain = pl_sink_new_memory ();
        pl_opener session;

        g_assert_cmpuint (pl_decrypt (again, plain, &d, &result, NULL), ==,
                          0);
        pl_source_free (again);
        pl_sink_free (plain);
        session = pl_opener_session_key (key_out, result.session_key_len,
                                  result.cipher_algo);
        d.openers = &session;
        d.session_key_out = NULL;
        again = pl_source_new_memory (msg, msg_len);
        plain = pl_sink_new_memory ();
        g_assert_cmpuint (pl_decrypt (again, plain, &d, NULL, NULL), ==, 0);
        pl_source_free (again);
        pl_sink_free (plain);
      }
      gcry_free (key_out);
      pl_sink_free (sink);
      pl_source_free (src);
    }
}

/* A sink that keeps what it is written, before any commit: what a
 * failing decryption let out. */
typedef struct
{
  pl_sink base;
  GByteArray *got;
  int committed;
} keep_sink;

static gpg_error_t
keep_write (pl_sink *self, const void *buf, size_t len)
{
  g_byte_array_append (((keep_sink *) self)->got, buf, len);
  return 0;
}

static gpg_error_t
keep_commit (pl_sink *self)
{
  ((keep_sink *) self)->committed = 1;
  return 0;
}

static void
keep_abort (pl_sink *self)
{
  (void) self;
}

static void
keep_sink_init (keep_sink *k)
{
  k->base = (pl_sink) { keep_write, keep_commit, keep_abort, NULL, };
  k->got = g_byte_array_new ();
  k->committed = 0;
}

/* Encrypts PLAIN on THREADS, from memory (read in place) or from a file
 * (read into buffers, or mapped: open_input's FILE); returns the
 * message. */
static guint8 *
encrypt_chunked (pl_profile profile, int compress, GBytes *plain,
                 int file, int threads, gsize *len)
{
  rt_case c = { profile, 0, compress, 0, FALSE };
  pl_encrypt_options o;
  pl_opener key = pl_opener_passphrase ("pw", 2);
  pl_job_control ctl = { NULL, NULL, NULL, threads };
  pl_sink *sink = pl_sink_new_memory ();
  char *path;
  pl_source *src = open_input (file, g_bytes_get_data (plain, NULL),
                               g_bytes_get_size (plain), &path);
  const uint8_t *d;
  guint8 *msg;

  fast_options (&o, &c);
  o.openers = &key;
  o.n_openers = 1;
  /* 256 KiB: the smallest chunks the jobs spread over threads. */
  o.chunk_octet = 12;
  g_assert_cmpuint (pl_encrypt (src, sink, &o, &ctl), ==, 0);
  d = pl_sink_memory_data (sink, len);
  msg = g_memdup2 (d, *len);
  pl_sink_free (sink);
  close_input (src, path);
  return msg;
}

/* AEAD chunks on several threads through the jobs (aead-parallel.h),
 * both AEAD profiles: input in memory or a mapped file, read in place
 * and spread over the threads, and input from a file read into buffers
 * or through compression, which stays on one (pl_aead_parallel_threads).  The plaintext comes back on every
 * budget; with an octet changed in chunk K, nothing of chunk K or later
 * reaches the sink. */
static void
test_parallel_chunks (void)
{
  const gsize c = 256 * 1024;
  const gsize lens[] = { 0, c - 100, 5 * c + 17, 8 * c };
  static const int threads[] = { 1, 2, 3 };

  for (int p = PL_PROFILE_LIBREPGP; p <= PL_PROFILE_RFC9580; p++)
    for (gsize i = 0; i < G_N_ELEMENTS (lens); i++)
      for (gsize t = 0; t < G_N_ELEMENTS (threads); t++)
        for (int enc_file = 0; enc_file <= INPUT_MAPPED; enc_file++)
          {
            GBytes *plain = tu_random_bytes (lens[i]);
            int compress = enc_file == 1 && i == 2 ? PL_COMPRESS_ZLIB : 0;
            gsize n;
            guint8 *msg = encrypt_chunked ((pl_profile) p, compress, plain,
                                           enc_file, threads[t], &n);

            for (int file = 0; file <= INPUT_MAPPED; file++)
              assert_opens (file, msg, n, threads[t], plain);
            if (lens[i] >= 5 * c && !compress)
              for (gsize k = 0; k < 5; k += 2)
                {
                  /* The packets before the first chunk take less than
                   * c / 2, so this octet is in chunk K. */
                  gsize at = k * (c + 16) + c / 2;
                  pl_opener key = pl_opener_passphrase ("pw", 2);
                  pl_decrypt_options d = { 0 };
                  pl_job_control ctl = { NULL, NULL, NULL, threads[t] };
                  pl_source *src = pl_source_new_memory (msg, n);
                  keep_sink sink;
                  gpg_error_t err;

                  keep_sink_init (&sink);
                  d.openers = &key;
                  d.n_openers = 1;
                  msg[at] ^= 0x04;
                  err = pl_decrypt (src, &sink.base, &d, NULL, &ctl);
                  msg[at] ^= 0x04;
                  g_assert_cmpint (gpg_err_code (err), ==, GPG_ERR_CHECKSUM);
                  g_assert_false (sink.committed);
                  g_assert_cmpuint (sink.got->len, <=, k * c);
                  g_assert_true (sink.got->len == 0
                                 || !memcmp (sink.got->data,
                                             g_bytes_get_data (plain, NULL),
                                             sink.got->len));
                  g_byte_array_unref (sink.got);
                  pl_source_free (src);
                }
            g_free (msg);
            g_bytes_unref (plain);
          }
}

typedef struct
{
  atomic_int cancel;
  uint64_t at;
} cancel_at;

static void
cancel_when_past (void *user, uint64_t done, int64_t total)
{
  cancel_at *c = user;

  (void) total;
  if (done >= c->at)
    atomic_store (&c->cancel, 1);
}

/* A cancel half-way through a message of many chunks on two threads
 * stops encryption and decryption, and nothing is committed. */
static void
test_parallel_cancel (void)
{
  const gsize c = 256 * 1024, len = 16 * c;
  GBytes *plain = tu_random_bytes (len);
  gsize n;

  for (int p = PL_PROFILE_LIBREPGP; p <= PL_PROFILE_RFC9580; p++)
    {
      guint8 *msg = encrypt_chunked ((pl_profile) p, 0, plain, FALSE, 2, &n);

      for (int encrypt = 0; encrypt < 2; encrypt++)
        {
          cancel_at ca = { 0, 3 * c };
          pl_job_control ctl = { cancel_when_past, &ca, &ca.cancel, 2 };
          pl_opener key = pl_opener_passphrase ("pw", 2);
          pl_source *src = encrypt
            ? pl_source_new_memory (g_bytes_get_data (plain, NULL), len)
            : pl_source_new_memory (msg, n);
          keep_sink sink;
          gpg_error_t err;

          keep_sink_init (&sink);
          if (encrypt)
            {
              rt_case rc = { (pl_profile) p, 0, 0, 0, FALSE };
              pl_encrypt_options o;

              fast_options (&o, &rc);
              o.openers = &key;
              o.n_openers = 1;
              o.chunk_octet = 12;
              err = pl_encrypt (src, &sink.base, &o, &ctl);
            }
          else
            {
              pl_decrypt_options d = { 0 };

              d.openers = &key;
              d.n_openers = 1;
              err = pl_decrypt (src, &sink.base, &d, NULL, &ctl);
            }
          g_assert_cmpint (gpg_err_code (err), ==, GPG_ERR_CANCELED);
          g_assert_false (sink.committed);
          g_assert_cmpuint (sink.got->len, <, len);
          g_byte_array_unref (sink.got);
          pl_source_free (src);
        }
      g_free (msg);
    }
  g_bytes_unref (plain);
}

int
main (int argc, char **argv)
{
  static const struct { const char *name; rt_case c; } cases[] = {
    { "rfc4880/file", { PL_PROFILE_RFC4880, 0, 0, 0, FALSE } },
    { "rfc4880/pipe", { PL_PROFILE_RFC4880, 0, 0, 0, TRUE } },
    { "rfc4880/armor/file", { PL_PROFILE_RFC4880, 1, 0, 0, FALSE } },
    { "rfc4880/armor/pipe", { PL_PROFILE_RFC4880, 1, 0, 0, TRUE } },
    { "rfc4880/zip", { PL_PROFILE_RFC4880, 0, PL_COMPRESS_ZIP, 0, FALSE } },
    { "rfc4880/zlib/pipe", { PL_PROFILE_RFC4880, 0, PL_COMPRESS_ZLIB, 0, TRUE } },
    { "rfc4880/bzip2", { PL_PROFILE_RFC4880, 1, PL_COMPRESS_BZIP2, 0, FALSE } },
    { "rfc4880/aes128", { PL_PROFILE_RFC4880, 0, 0, PL_CIPHER_AES128, FALSE } },
    { "rfc4880/aes192", { PL_PROFILE_RFC4880, 0, 0, PL_CIPHER_AES192, TRUE } },
    { "rfc4880/camellia256", { PL_PROFILE_RFC4880, 0, 0, PL_CIPHER_CAMELLIA256, FALSE } },
    { "rfc4880/twofish", { PL_PROFILE_RFC4880, 1, 0, PL_CIPHER_TWOFISH, TRUE } },
    { "librepgp/file", { PL_PROFILE_LIBREPGP, 0, 0, 0, FALSE } },
    { "librepgp/pipe", { PL_PROFILE_LIBREPGP, 0, 0, 0, TRUE } },
    { "librepgp/armor", { PL_PROFILE_LIBREPGP, 1, 0, 0, FALSE } },
    { "rfc9580/file", { PL_PROFILE_RFC9580, 0, 0, 0, FALSE } },
    { "rfc9580/pipe", { PL_PROFILE_RFC9580, 0, 0, 0, TRUE } },
    { "rfc9580/armor/pipe", { PL_PROFILE_RFC9580, 1, 0, 0, TRUE } },
    { "rfc9580/zlib", { PL_PROFILE_RFC9580, 0, PL_COMPRESS_ZLIB, 0, FALSE } },
  };

  tu_init (&argc, &argv);
  for (gsize i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      char *path = g_strdup_printf ("/roundtrip/%s", cases[i].name);
      g_test_add_data_func (path, &cases[i].c, check_case);
      g_free (path);
    }
  g_test_add_func ("/roundtrip/definite-lengths", test_definite_lengths);
  g_test_add_func ("/roundtrip/text-mode", test_text_mode);
  g_test_add_func ("/roundtrip/text-mode-threads", test_text_mode_threads);
  g_test_add_func ("/roundtrip/trimmed-passphrase", test_trimmed_passphrase);
  g_test_add_func ("/roundtrip/cancel", test_cancel);
  g_test_add_func ("/roundtrip/borrowed-and-read", test_borrowed_and_read);
  g_test_add_func ("/roundtrip/two-passphrases", test_two_passphrases);
  g_test_add_func ("/roundtrip/parallel-chunks", test_parallel_chunks);
  g_test_add_func ("/roundtrip/parallel-cancel", test_parallel_cancel);
  g_test_add_func ("/roundtrip/progress-no-overwrite",
                   test_progress_and_no_overwrite);
  g_test_add_func ("/roundtrip/decrypt-progress-after-key",
                   test_decrypt_progress_after_key);
  g_test_add_func ("/roundtrip/decrypt-progress-in-order",
                   test_decrypt_progress_in_order);
  return g_test_run ();
}
