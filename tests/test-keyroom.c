/* test-keyroom.c - the passphrases' key packets made beside the data
 * (keyroom.h): the same message as made in line, packet for packet, in
 * every sink that can write again, and an in-place file's earlier octets
 * untouched; a cancel, a failed derivation or a failed write_at leaves
 * nothing; the job tells a wait for the derivation, and only a wait.
 * The derivation is held back deterministically by taking the process's
 * key-derivation memory (kdf-memory.h) first, never by timing. */
#include <fcntl.h>
#include <string.h>
#include <unistd.h>

#include "kdf-memory.h"
#include "keygen.h"
#include "keyroom.h"
#include "keys.h"
#include "testutil.h"

#define PW1 "first passphrase"
#define PW2 "second passphrase"

/* Encrypts IN with O on THREADS through a record sink over a memory
 * sink; the message, or NULL with *ERR. */
static GBytes *
encrypt_recorded (const pl_encrypt_options *o, GBytes *in, int threads,
                  tu_record_sink *rec, gpg_error_t *err)
{
  pl_job_control ctl = { .threads = threads };
  pl_source *src = pl_source_new_memory (g_bytes_get_data (in, NULL),
                                         g_bytes_get_size (in));
  GBytes *out = NULL;

  tu_record_sink_init (rec, pl_sink_new_memory ());
  g_assert_nonnull (rec->base.write_at);
  *err = pl_encrypt (src, &rec->base, o, &ctl);
  pl_source_free (src);
  if (!*err)
    {
      size_t n;
      const uint8_t *p = pl_sink_memory_data (rec->inner, &n);
      out = g_bytes_new (p, n);
    }
  tu_record_sink_clear (rec);
  return out;
}

/* Tags and lengths of the packets of the binary message M, as text. */
static char *
layout (GBytes *m)
{
  GArray *pk = tu_split_packets (g_bytes_get_data (m, NULL),
                                 g_bytes_get_size (m));
  GString *s = g_string_new (NULL);

  g_assert_nonnull (pk);
  for (guint i = 0; i < pk->len; i++)
    {
      tu_packet *p = &g_array_index (pk, tu_packet, i);
      g_string_append_printf (s, "%d:%zu ", p->tag, p->len);
    }
  g_array_unref (pk);
  return g_string_free (s, FALSE);
}

static void
assert_opens (GBytes *m, const char *pw, GBytes *want)
{
  g_autoptr (GBytes) got = NULL;

  g_assert_cmpint (tu_decrypt (pw, g_bytes_get_data (m, NULL),
                               g_bytes_get_size (m), &got, NULL), ==, 0);
  g_assert_true (g_bytes_equal (got, want));
}

typedef struct
{
  const char *name;
  pl_profile profile;
  int passphrases;              /* 1 or 2 */
  int cert;                     /* a PKESK before them */
} lock_case;

static const lock_case lock_cases[] = {
  { "librepgp", PL_PROFILE_LIBREPGP, 1, 0 },
  { "rfc9580", PL_PROFILE_RFC9580, 1, 0 },
  { "rfc4880-two", PL_PROFILE_RFC4880, 2, 0 },
  { "librepgp-two", PL_PROFILE_LIBREPGP, 2, 0 },
  { "rfc4880-cert", PL_PROFILE_RFC4880, 1, 1 },
};

/* On two threads the SKESKs are written again at their place: the
 * message has the in-line one's packets, in order and length, and every
 * passphrase opens it. */
static void
test_same_message (gconstpointer data)
{
  const lock_case *c = data;
  g_autoptr (GBytes) plain = tu_random_bytes ((3 << 20) + 17);
  pl_opener openers[3];
  size_t n = 0;
  pl_encrypt_options o;
  tu_record_sink beside, in_line;
  g_autoptr (GBytes) a = NULL;
  g_autoptr (GBytes) b = NULL;
  g_autofree char *la = NULL, *lb = NULL;
  gpg_error_t err;
  tu_key key;

  tu_key_make (&key, PL_KEYGEN_DEFAULT);
  if (c->cert)
    openers[n++] = (pl_opener) { PL_OPENER_CERT, key.certs[0], 0, 0, 0 };
  openers[n++] = pl_opener_passphrase (PW1, strlen (PW1));
  if (c->passphrases > 1)
    openers[n++] = pl_opener_passphrase (PW2, strlen (PW2));
  tu_cheap_options (&o, c->profile, openers);
  o.n_openers = n;

  a = encrypt_recorded (&o, plain, 2, &beside, &err);
  g_assert_cmpint (err, ==, 0);
  b = encrypt_recorded (&o, plain, 1, &in_line, &err);
  g_assert_cmpint (err, ==, 0);
  g_assert_cmpint (beside.committed, ==, 1);
  g_assert_cmpint (in_line.committed, ==, 1);
  g_assert_cmpuint (in_line.written_at, ==, 0);
  g_assert_cmpuint (beside.written_at, >, 0);
  g_assert_cmpuint (beside.written, ==, in_line.written);
  la = layout (a);
  lb = layout (b);
  g_assert_cmpstr (la, ==, lb);
  /* The SKESKs, and only they, were written again: after the PKESK. */
  {
    GArray *pk = tu_split_packets (g_bytes_get_data (a, NULL),
                                   g_bytes_get_size (a));
    gsize skesks = 0, first = G_MAXSIZE;

    for (guint i = 0; i < pk->len; i++)
      {
        tu_packet *p = &g_array_index (pk, tu_packet, i);
        if (p->tag == 3)
          {
            skesks += p->end - p->start;
            first = MIN (first, p->start);
          }
      }
    g_array_unref (pk);
    g_assert_cmpuint (beside.written_at, ==, skesks);
    g_assert_cmpuint (first > 0, ==, c->cert);
  }
  assert_opens (a, PW1, plain);
  assert_opens (b, PW1, plain);
  if (c->passphrases > 1)
    assert_opens (a, PW2, plain);
  tu_key_free (&key);
}

/* A file sink, and a regular file written in place after what it held:
 * the room's offset counts from the sink's first octet.  An O_APPEND
 * file cannot be written again (pwrite appends there): in line. */
static void
test_files (void)
{
  g_autoptr (GBytes) plain = tu_random_bytes ((1 << 20) + 5);
  pl_opener pw = pl_opener_passphrase (PW1, strlen (PW1));
  pl_job_control ctl = { .threads = 2 };
  g_autofree char *dir = tu_new_dir ("keyroom");
  pl_encrypt_options o;

  tu_cheap_options (&o, PL_PROFILE_RFC9580, &pw);
  for (int kind = 0; kind < 3; kind++)
    {
      g_autofree char *path = g_strdup_printf ("%s/out-%d", dir, kind);
      pl_source *src = pl_source_new_memory (g_bytes_get_data (plain, NULL),
                                             g_bytes_get_size (plain));
      pl_sink *sink;
      tu_record_sink rec;
      g_autofree char *all = NULL;
      gsize len;
      int fd = -1;
      g_autoptr (GBytes) msg = NULL;

      if (kind == 0)
        g_assert_cmpint (pl_sink_new_file (path, &sink), ==, 0);
      else
        {
          fd = open (path, O_RDWR | O_CREAT | O_EXCL | O_CLOEXEC
                           | (kind == 2 ? O_APPEND : 0), 0600);
          g_assert_cmpint (fd, >=, 0);
          g_assert_cmpint (write (fd, "HEAD", 4), ==, 4);
          g_assert_cmpint (pl_sink_new_fd (fd, 0, &sink), ==, 0);
        }
      tu_record_sink_init (&rec, sink);
      g_assert_true ((rec.base.write_at != NULL) == (kind != 2));
      g_assert_cmpint (pl_encrypt (src, &rec.base, &o, &ctl), ==, 0);
      pl_source_free (src);
      g_assert_cmpint (rec.committed, ==, 1);
      g_assert_cmpuint (rec.written_at > 0, ==, kind != 2);
      tu_record_sink_clear (&rec);
      if (fd >= 0)
        close (fd);
      g_assert_true (g_file_get_contents (path, &all, &len, NULL));
      if (kind)
        {
          g_assert_cmpmem (all, 4, "HEAD", 4);
          msg = g_bytes_new (all + 4, len - 4);
        }
      else
        msg = g_bytes_new (all, len);
      assert_opens (msg, PW1, plain);
    }
}

typedef struct
{
  int starts, ends, memory, bad;
  atomic_int *cancel;           /* set at the first wait for memory */
} told;

static void
on_deriving (void *user_data, int deriving)
{
  told *t = user_data;

  if (deriving == PL_DERIVING_WAITING_FOR_MEMORY)
    {
      t->memory++;
      t->bad |= t->starts != t->ends + 1;
      if (t->cancel)
        atomic_store (t->cancel, 1);
    }
  else if (deriving == PL_DERIVING)
    t->starts += t->starts == t->ends;  /* again after a memory wait */
  else
    t->bad |= ++t->ends != t->starts;
}

/* With the derivation held back (the process's derivation memory taken
 * here first), a small message's data is done long before its key: the
 * job waits, and says so from its own thread: PL_DERIVING, the wait for
 * memory, 0.  A cancel then ends the job at once, with nothing kept; the
 * memory given back, the same job succeeds. */
static void
test_wait_told (void)
{
  g_autoptr (GBytes) plain = tu_random_bytes (100);
  pl_opener pw = pl_opener_passphrase (PW1, strlen (PW1));
  atomic_int cancel = 0;
  told t = { 0, 0, 0, 0, &cancel };
  pl_job_control ctl = { .threads = 2, .cancel = &cancel,
                         .deriving = on_deriving, .user_data = &t };
  pl_encrypt_options o;
  pl_source *src;
  tu_record_sink rec;

  tu_cheap_options (&o, PL_PROFILE_RFC9580, &pw);
  g_assert_cmpint (pl_kdf_memory_take (PL_KDF_MEMORY_BUDGET_KIB, NULL, NULL,
                                       NULL), ==, 0);
  src = pl_source_new_memory (g_bytes_get_data (plain, NULL), 100);
  tu_record_sink_init (&rec, pl_sink_new_memory ());
  g_assert_cmpint (gpg_err_code (pl_encrypt (src, &rec.base, &o, &ctl)), ==,
                   GPG_ERR_CANCELED);
  pl_source_free (src);
  g_assert_cmpint (rec.committed, ==, 0);
  g_assert_cmpint (rec.aborted, ==, 1);
  g_assert_cmpuint (rec.written_at, ==, 0);
  tu_record_sink_clear (&rec);
  g_assert_cmpint (t.starts, ==, 1);
  g_assert_cmpint (t.memory, ==, 1);
  g_assert_cmpint (t.ends, ==, 1);
  g_assert_false (t.bad);

  pl_kdf_memory_give (PL_KDF_MEMORY_BUDGET_KIB);
  memset (&t, 0, sizeof t);
  atomic_store (&cancel, 0);
  src = pl_source_new_memory (g_bytes_get_data (plain, NULL), 100);
  tu_record_sink_init (&rec, pl_sink_new_memory ());
  g_assert_cmpint (pl_encrypt (src, &rec.base, &o, &ctl), ==, 0);
  pl_source_free (src);
  g_assert_cmpint (rec.committed, ==, 1);
  g_assert_cmpuint (rec.written_at, >, 0);
  tu_record_sink_clear (&rec);
  /* Told in pairs, once at most: whether the job waited is the race
   * between a 100-octet message and a cheap derivation. */
  g_assert_cmpint (t.starts, ==, t.ends);
  g_assert_cmpint (t.starts, <=, 1);
  g_assert_false (t.bad);
}

static void
cancel_at_progress (void *user_data, uint64_t done, int64_t total)
{
  if (done >= (1u << 20))
    atomic_store ((atomic_int *) user_data, 1);
}

/* A cancel while the data runs and the derivation is held back: the job
 * ends without waiting for a key that will not come (the room's thread
 * is stopped and joined), and keeps nothing. */
static void
test_cancel_during_data (void)
{
  g_autoptr (GBytes) plain = tu_random_bytes (16 << 20);
  pl_opener pw = pl_opener_passphrase (PW1, strlen (PW1));
  atomic_int cancel = 0;
  pl_job_control ctl = { .threads = 2, .cancel = &cancel,
                         .progress = cancel_at_progress,
                         .user_data = &cancel };
  pl_encrypt_options o;
  pl_source *src;
  tu_record_sink rec;
  pl_kdf_memory_stats st;

  tu_cheap_options (&o, PL_PROFILE_RFC9580, &pw);
  g_assert_cmpint (pl_kdf_memory_take (PL_KDF_MEMORY_BUDGET_KIB, NULL, NULL,
                                       NULL), ==, 0);
  src = pl_source_new_memory (g_bytes_get_data (plain, NULL),
                              g_bytes_get_size (plain));
  tu_record_sink_init (&rec, pl_sink_new_memory ());
  g_assert_cmpint (gpg_err_code (pl_encrypt (src, &rec.base, &o, &ctl)), ==,
                   GPG_ERR_CANCELED);
  pl_source_free (src);
  g_assert_cmpint (rec.aborted, ==, 1);
  g_assert_cmpint (rec.committed, ==, 0);
  g_assert_cmpuint (rec.written_at, ==, 0);
  g_assert_cmpuint (rec.written, <, g_bytes_get_size (plain));
  tu_record_sink_clear (&rec);
  /* Nobody waits for memory any more: the room's thread is gone. */
  pl_kdf_memory_get_stats (&st);
  g_assert_cmpuint (st.waiting, ==, 0);
  pl_kdf_memory_give (PL_KDF_MEMORY_BUDGET_KIB);
}

/* A derivation that fails (Argon2 beyond the 2 GiB cap) fails the job
 * with its error after the data, as in line; a write_at that fails
 * fails it too.  Nothing is kept either way. */
static void
test_failures (void)
{
  g_autoptr (GBytes) plain = tu_random_bytes (1 << 20);
  pl_opener pw = pl_opener_passphrase (PW1, strlen (PW1));
  pl_encrypt_options o;
  gpg_error_t err;

  for (int threads = 1; threads <= 2; threads++)
    {
      tu_record_sink rec;
      g_autoptr (GBytes) m = NULL;

      tu_cheap_options (&o, PL_PROFILE_RFC9580, &pw);
      o.argon2_memory_exp = 22;
      m = encrypt_recorded (&o, plain, threads, &rec, &err);
      g_assert_null (m);
      g_assert_cmpint (gpg_err_code (err), ==, GPG_ERR_TOO_LARGE);
      g_assert_cmpint (rec.aborted, ==, 1);
      g_assert_cmpint (rec.committed, ==, 0);
      g_assert_cmpuint (rec.written_at, ==, 0);
    }
  {
    pl_job_control ctl = { .threads = 2 };
    pl_source *src = pl_source_new_memory (g_bytes_get_data (plain, NULL),
                                           g_bytes_get_size (plain));
    tu_record_sink rec;

    tu_cheap_options (&o, PL_PROFILE_LIBREPGP, &pw);
    tu_record_sink_init (&rec, pl_sink_new_memory ());
    rec.fail_write_at = 1;
    g_assert_cmpint (gpg_err_code (pl_encrypt (src, &rec.base, &o, &ctl)),
                     ==, GPG_ERR_EIO);
    pl_source_free (src);
    g_assert_cmpuint (rec.written_at, >, 0);
    g_assert_cmpint (rec.aborted, ==, 1);
    g_assert_cmpint (rec.committed, ==, 0);
    tu_record_sink_clear (&rec);
  }
}

int
main (int argc, char **argv)
{
  tu_init (&argc, &argv);
  for (gsize i = 0; i < G_N_ELEMENTS (lock_cases); i++)
    {
      g_autofree char *path = g_strdup_printf ("/keyroom/same-message/%s",
                                               lock_cases[i].name);
      g_test_add_data_func (path, &lock_cases[i], test_same_message);
    }
  g_test_add_func ("/keyroom/files", test_files);
  g_test_add_func ("/keyroom/wait-told", test_wait_told);
  g_test_add_func ("/keyroom/cancel-during-data", test_cancel_during_data);
  g_test_add_func ("/keyroom/failures", test_failures);
  return g_test_run ();
}
