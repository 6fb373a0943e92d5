/* test-sighash.c - the signatures' data hash on its thread (sighash.h)
 *
 * The hasher alone against gcry_md_hash_buffer (spans of every size,
 * text with CR LF cut between spans); signed messages decrypted on one
 * core and on two in every shape whose spans reach the hasher
 * differently (SEIPD v1 and inflate: the writer's buffers, held; AEAD,
 * signed-only from memory and from a file: borrowed), with the same
 * verdicts and the thread doing the hashing; every octet flipped and
 * every cut near the packets, and a stride through the data, of a
 * signed message of several blocks, on two cores, giving what one core
 * gives (an integrity failure, a bad signature, or the good data and
 * verdict); cancel while hashing; a failure injected into the thread.
 */
#include "testutil.h"
#include "cert.h"
#include "keygen.h"
#include "seckey.h"
#include "sighash.h"
#include "sign.h"
#include "verify.h"

#include <string.h>
#include <time.h>
#include <gcrypt.h>
#include <glib/gstdio.h>

#define MIB (1024u * 1024u)

typedef enum
{
  SHAPE_SEIPD1,
  SHAPE_SEIPD1_ZLIB,
  SHAPE_SEIPD1_TEXT,
  SHAPE_SEIPD2,
  SHAPE_SIGNED_ONLY,
  SHAPE_SIGNED_ONLY_FILE
} shape;

static tu_key key4, key6;

/* SEIPD v2 goes to a v6 key, whose certificate asks for it. */
#define KEY(s) ((s) == SHAPE_SEIPD2 ? &key6 : &key4)

/* ---- The hasher alone ---------------------------------------------- */

static void
open_hash (pl_data_hash *h, int text)
{
  memset (h, 0, sizeof *h);
  h->hash_algo = 10;            /* SHA-512 */
  h->text = text;
  g_assert_cmpint (gcry_md_open (&h->md, GCRY_MD_SHA512, 0), ==, 0);
}

/* Spans of random sizes (below and above the thread's minimum) of one
 * buffer, held, into a binary and a text context on THREADS cores: the
 * digests of the whole, hashed in one go. */
static void
test_alone (gconstpointer p)
{
  int threads = GPOINTER_TO_INT (p);
  GBytes *b = tu_random_bytes (9 * MIB + 77);
  gsize len = g_bytes_get_size (b);
  uint8_t *data = g_memdup2 (g_bytes_get_data (b, NULL), len);
  pl_data_hash bin, text, want_bin, want_text;
  pl_sig_hasher sh;
  pl_sig_hasher_stats st;

  /* CR and LF at span ends, so that CR LF is cut between spans. */
  for (gsize i = 0; i < len; i += 4093)
    data[i] = (i / 4093) % 3 ? '\n' : '\r';
  open_hash (&bin, 0);
  open_hash (&text, 1);
  open_hash (&want_bin, 0);
  open_hash (&want_text, 1);
  pl_sig_hasher_init (&sh, threads, NULL);
  g_assert_cmpint (pl_sig_hasher_add (&sh, &bin), ==, 0);
  g_assert_cmpint (pl_sig_hasher_add (&sh, &text), ==, 0);
  for (gsize pos = 0; pos < len;)
    {
      gsize n = g_test_rand_int_range (0, 4) ? g_test_rand_int_range
                (PL_SIG_HASHER_THREAD_MIN, 2 * MIB)
                : g_test_rand_int_range (0, 9000);

      n = MIN (n, len - pos);
      /* Now and then a CR ends a span and its LF begins the next. */
      if (n > 1 && pos + n < len && n % 5 == 0)
        {
          data[pos + n - 1] = '\r';
          data[pos + n] = '\n';
        }
      g_assert_cmpint (pl_sig_hasher_push (&sh, data + pos, n, PL_SPAN_HELD),
                       ==, 0);
      pos += n;
    }
  g_assert_cmpint (pl_sig_hasher_wait (&sh), ==, 0);
  /* What the spans changed to, hashed in one go. */
  pl_data_hash_write (&want_bin, data, len);
  pl_data_hash_write (&want_text, data, len);
  pl_sig_hasher_get_stats (&sh, &st);
  g_assert_cmpuint (st.on_thread + st.on_caller, ==, len);
  if (threads > 1)
    g_assert_cmpuint (st.handed, >, 0);
  else
    g_assert_cmpuint (st.handed + st.on_thread, ==, 0);
  pl_sig_hasher_clear (&sh);
  g_assert_cmpmem (gcry_md_read (bin.md, 0), 64, gcry_md_read (want_bin.md, 0),
                   64);
  g_assert_cmpmem (gcry_md_read (text.md, 0), 64,
                   gcry_md_read (want_text.md, 0), 64);
  gcry_md_close (bin.md);
  gcry_md_close (text.md);
  gcry_md_close (want_bin.md);
  gcry_md_close (want_text.md);
  g_free (data);
  g_bytes_unref (b);
}

/* ---- Signed messages through pl_decrypt ---------------------------- */


typedef struct
{
  atomic_int cancel;
  uint64_t cancel_at;
} cancel_at;

static void
cancel_progress (void *user_data, uint64_t done, int64_t total)
{
  cancel_at *c = user_data;

  (void) total;
  if (done >= c->cancel_at)
    atomic_store (&c->cancel, 1);
}

/* Encrypts (or signs only) PLAIN in shape S, signed, on THREADS cores,
 * read from memory or (FROM_FILE) from a file; *ERR its error, the
 * message or NULL. */
static GBytes *
encrypt_signed (shape s, GBytes *plain, int threads, int from_file,
                cancel_at *cancel, gpg_error_t *err)
{
  pl_encrypt_options o;
  pl_opener k = { PL_OPENER_CERT, KEY (s)->certs[0], 0, 0, 0 };
  const pl_seckey *signers[] = { &KEY (s)->sk };
  pl_job_control ctl = { 0 };
  gsize len;
  const void *d = g_bytes_get_data (plain, &len);
  pl_source *src;
  pl_sink *sink = pl_sink_new_memory ();
  const uint8_t *out;
  size_t out_len;
  GBytes *msg = NULL;
  char *path = NULL;

  pl_encrypt_options_init (&o);
  o.openers = &k;
  o.n_openers = 1;
  o.signers = signers;
  o.n_signers = 1;
  o.sign_only = s == SHAPE_SIGNED_ONLY || s == SHAPE_SIGNED_ONLY_FILE;
  o.profile = s == SHAPE_SEIPD2 ? PL_PROFILE_RFC9580 : PL_PROFILE_RFC4880;
  o.compress_algo = s == SHAPE_SEIPD1_ZLIB ? 2 : 0;
  o.literal_format = s == SHAPE_SEIPD1_TEXT ? 't' : 'b';
  ctl.threads = threads;
  if (cancel)
    {
      ctl.cancel = &cancel->cancel;
      ctl.progress = cancel_progress;
      ctl.user_data = cancel;
    }
  if (from_file)
    {
      path = tu_write_temp ("plain", d, len);
      g_assert_cmpint (pl_source_new_file (path, &src), ==, 0);
    }
  else
    src = pl_source_new_memory (d, len);
  *err = pl_encrypt (src, sink, &o, &ctl);
  out = pl_sink_memory_data (sink, &out_len);
  if (!*err)
    msg = g_bytes_new (out, out_len);
  else
    g_assert_cmpuint (out_len, ==, 0);
  pl_source_free (src);
  pl_sink_free (sink);
  if (path)
    g_unlink (path);
  g_free (path);
  return msg;
}

static GBytes *
make_message (shape s, GBytes *plain)
{
  gpg_error_t err;
  GBytes *msg = encrypt_signed (s, plain, 1, 0, NULL, &err);

  g_assert_cmpint (err, ==, 0);
  return msg;
}

typedef struct
{
  gpg_error_t err;
  GBytes *out;                  /* what the sink holds at the end */
  pl_decrypt_result r;
} outcome;

/* Not NULL: the certificates signatures are checked with, instead of
 * the message's signer's. */
static tu_key *verify_with;

static void
run_decrypt (shape s, const uint8_t *msg, size_t len, int threads,
             cancel_at *cancel, outcome *o)
{
  pl_opener k = { PL_OPENER_SECRET_KEYS, KEY (s)->certs[0], 0, 0, 0 };
  pl_decrypt_options d;
  pl_job_control ctl = { 0 };
  pl_source *src;
  /* Room for the data from the start, and the sink owns the outcome's
   * bytes: under ASan, whose realloc always moves, a doubling sink and a
   * copy of what it held took 9.7 million page faults over the tamper
   * tests' 3,600 runs (141 s, half of it in the kernel). */
  pl_sink *sink = pl_sink_new_memory_reserve (len + len / 4 + 4096);
  const uint8_t *out;
  size_t out_len;
  char *path = NULL;

  memset (&d, 0, sizeof d);
  d.openers = &k;
  d.n_openers = 1;
  d.verify_certs = (const pl_cert *const *) (verify_with ? verify_with
                                                          : KEY (s))->certs;
  d.n_verify_certs = (verify_with ? verify_with : KEY (s))->n;
  d.signed_only = s == SHAPE_SIGNED_ONLY || s == SHAPE_SIGNED_ONLY_FILE;
  ctl.threads = threads;
  if (cancel)
    {
      ctl.cancel = &cancel->cancel;
      ctl.progress = cancel_progress;
      ctl.user_data = cancel;
    }
  if (s == SHAPE_SIGNED_ONLY_FILE)
    {
      path = tu_write_temp ("signed.pgp", msg, len);
      g_assert_cmpint (pl_source_new_file (path, &src), ==, 0);
    }
  else
    src = pl_source_new_memory (msg, len);
  o->err = pl_decrypt (src, sink, &d, &o->r, &ctl);
  out = pl_sink_memory_data (sink, &out_len);
  o->out = g_bytes_new_with_free_func (out, out_len,
                                       (GDestroyNotify) pl_sink_free, sink);
  pl_source_free (src);
  if (path)
    g_unlink (path);
  g_free (path);
}

static void
outcome_clear (outcome *o)
{
  g_bytes_unref (o->out);
}

/* Decrypted on 1 and on 2 cores: the data, one GOOD verdict each, and
 * on 2 cores all but the smallest spans hashed by the thread. */
static void
test_shape (gconstpointer p)
{
  shape s = GPOINTER_TO_INT (p);
  GBytes *plain = tu_random_bytes (5 * MIB + 4321), *msg;
  outcome one, two;
  gsize len;
  guint64 stored;
  const uint8_t *m;

  if (s == SHAPE_SEIPD1_TEXT)
    {
      /* Lines with LF, and CR LF, across blocks. */
      uint8_t *t = g_bytes_unref_to_data (plain, &len);
      for (gsize i = 0; i < len; i++)
        t[i] = i % 61 == 60 ? '\n' : i % 97 == 96 ? '\r' : 'a' + i % 26;
      plain = g_bytes_new_take (t, len);
    }
  msg = make_message (s, plain);
  m = g_bytes_get_data (msg, &len);
  run_decrypt (s, m, len, 1, NULL, &one);
  run_decrypt (s, m, len, 2, NULL, &two);
  g_assert_cmpint (one.err, ==, 0);
  g_assert_cmpint (two.err, ==, 0);
  if (s != SHAPE_SEIPD1_TEXT)
    g_assert_true (g_bytes_equal (two.out, plain));
  g_assert_true (g_bytes_equal (two.out, one.out));
  for (int i = 0; i < 2; i++)
    {
      outcome *o = i ? &two : &one;
      g_assert_cmpuint (o->r.verifications.n, ==, 1);
      g_assert_cmpint (o->r.verifications.v[0].verdict, ==, PL_VERDICT_GOOD);
    }
  /* Text is hashed as stored, with CR LF. */
  stored = s == SHAPE_SEIPD1_TEXT ? one.r.sig_hashed_on_caller
                                  : g_bytes_get_size (plain);
  g_assert_cmpuint (one.r.sig_hashed_on_thread, ==, 0);
  g_assert_cmpuint (one.r.sig_hashed_on_caller, ==, stored);
  g_assert_cmpuint (stored, >=, g_bytes_get_size (plain));
  g_test_message ("2 cores: %" G_GUINT64_FORMAT " octets on the thread, %"
                  G_GUINT64_FORMAT " on the caller's",
                  two.r.sig_hashed_on_thread, two.r.sig_hashed_on_caller);
  g_assert_cmpuint (two.r.sig_hashed_on_thread + two.r.sig_hashed_on_caller,
                    ==, stored);
  /* Handed to the thread; on a busy machine the caller may take some
   * back (sighash.h), so what the thread itself hashed is only shown. */
  g_assert_cmpuint (two.r.sig_hash_handed, >=, stored / 2);
  /* SEIPD v1 on two cores: the MDC goes to the worker the signature's
   * hash goes to (decrypt.c, share_hashes), from the literal data on. */
  g_assert_cmpuint (one.r.mdc_hashed_shared, ==, 0);
  if (s == SHAPE_SEIPD1 || s == SHAPE_SEIPD1_ZLIB || s == SHAPE_SEIPD1_TEXT)
    g_assert_cmpuint (two.r.mdc_hashed_shared, >=,
                      g_bytes_get_size (plain) / 2);
  else
    g_assert_cmpuint (two.r.mdc_hashed_shared, ==, 0);
  outcome_clear (&one);
  outcome_clear (&two);
  g_bytes_unref (msg);
  g_bytes_unref (plain);
}

/* A damaged message on 2 cores: what 1 core says, and either a failure
 * with nothing written, or the data with its good verdict. */
static int
check_damaged (shape s, const uint8_t *msg, size_t len, GBytes *plain,
               const char *what, size_t at)
{
  outcome one, two;
  int caught = 0;

  run_decrypt (s, msg, len, 2, NULL, &two);
  run_decrypt (s, msg, len, 1, NULL, &one);
  if (gpg_err_code (two.err) != gpg_err_code (one.err)
      || two.r.verifications.n != one.r.verifications.n
      || (one.r.verifications.n && two.r.verifications.v[0].verdict
          != one.r.verifications.v[0].verdict))
    g_error ("%s at %zu: 2 cores %s (verdict %d), 1 core %s (verdict %d)",
             what, at, gpg_strerror (two.err),
             two.r.verifications.n ? two.r.verifications.v[0].verdict : 0,
             gpg_strerror (one.err),
             one.r.verifications.n ? one.r.verifications.v[0].verdict : 0);
  if (two.err)
    {
      if (g_bytes_get_size (two.out))
        g_error ("%s at %zu: %s, and output left", what, at,
                 gpg_strerror (two.err));
      caught = 1;
    }
  else
    {
      g_assert_true (g_bytes_equal (two.out, plain));
      g_assert_cmpuint (two.r.verifications.n, ==, 1);
      if (two.r.verifications.v[0].verdict != PL_VERDICT_GOOD)
        caught = 2;
    }
  outcome_clear (&one);
  outcome_clear (&two);
  return caught;
}

/* Every octet flipped and every cut in the first and last EDGE octets
 * (the key and signature packets, the literal header, the MDC or the
 * signature), and every STRIDE-th in between (the data). */
static void
test_tamper (gconstpointer p)
{
  shape s = GPOINTER_TO_INT (p);
  const size_t edge = 400, stride = 20011;
  GBytes *plain = tu_random_bytes (2 * MIB + 99), *msg;
  gsize len;
  uint8_t *m;
  int counts[3] = { 0 }, n_runs = 0;

  msg = make_message (s, plain);
  m = g_bytes_unref_to_data (msg, &len);
  for (size_t at = 0; at < len; at = at + 1 < edge || at + 1 >= len - edge
                                         ? at + 1 : MIN (at + stride,
                                                         len - edge))
    {
      int caught;

      m[at] ^= 0x01;
      caught = check_damaged (s, m, len, plain, "flip", at);
      m[at] ^= 0x01;
      counts[caught]++;
      /* In the data, every flip is caught: an integrity failure, or
       * (signed only) a bad signature, which fails the job too. */
      if (at >= edge && at < len - edge && caught != 1)
        g_error ("flip at %zu in the data not caught", at);
      caught = check_damaged (s, m, at, plain, "cut", at);
      counts[caught]++;
      if (caught != 1)
        g_error ("cut at %zu of %zu not caught", at, len);
      n_runs += 2;
    }
  g_test_message ("%d damaged messages: %d failed, %d bad verdicts, %d "
                  "good", n_runs, counts[1], counts[2], counts[0]);
  g_free (m);
  g_bytes_unref (plain);
}

/* Cancelled after 2 MiB of 8 were read, while the thread hashes: the
 * job stops cancelled and writes nothing. */
static void
test_cancel (gconstpointer p)
{
  shape s = GPOINTER_TO_INT (p);
  GBytes *plain = tu_random_bytes (8 * MIB), *msg = make_message (s, plain);
  gsize len;
  const uint8_t *m = g_bytes_get_data (msg, &len);
  cancel_at c = { 0, 2 * MIB };
  outcome o;

  run_decrypt (s, m, len, 2, &c, &o);
  g_assert_cmpint (gpg_err_code (o.err), ==, GPG_ERR_CANCELED);
  g_assert_cmpuint (g_bytes_get_size (o.out), ==, 0);
  g_assert_cmpuint (o.r.sig_hashed_on_thread + o.r.sig_hashed_on_caller, <,
                    g_bytes_get_size (plain));
  outcome_clear (&o);
  g_bytes_unref (msg);
  g_bytes_unref (plain);
}

/* Hashing fails after 1 MiB, on 2 cores and on 1: the job fails with
 * its error and writes nothing. */
static void
test_fault (gconstpointer p)
{
  shape s = GPOINTER_TO_INT (p);
  GBytes *plain = tu_random_bytes (6 * MIB), *msg = make_message (s, plain);
  gsize len;
  const uint8_t *m = g_bytes_get_data (msg, &len);
  outcome o;

  for (int threads = 2; threads >= 1; threads--)
    {
      pl_sig_hasher_inject_fault (MIB, gpg_error (GPG_ERR_EIO));
      run_decrypt (s, m, len, threads, NULL, &o);
      pl_sig_hasher_inject_fault (0, 0);
      g_assert_cmpint (gpg_err_code (o.err), ==, GPG_ERR_EIO);
      g_assert_cmpuint (g_bytes_get_size (o.out), ==, 0);
      outcome_clear (&o);
    }
  g_bytes_unref (msg);
  g_bytes_unref (plain);
}

/* A signature by a key that no certificate given holds: UNKNOWN_KEY,
 * and not an octet hashed (no needless hash context). */
static void
test_unknown_signer (gconstpointer p)
{
  shape s = GPOINTER_TO_INT (p);
  GBytes *plain = tu_random_bytes (3 * MIB), *msg = make_message (s, plain);
  gsize len;
  const uint8_t *m = g_bytes_get_data (msg, &len);
  outcome o;

  verify_with = KEY (s) == &key4 ? &key6 : &key4;
  run_decrypt (s, m, len, 2, NULL, &o);
  verify_with = NULL;
  g_assert_cmpint (o.err, ==, 0);
  g_assert_true (g_bytes_equal (o.out, plain));
  g_assert_cmpuint (o.r.verifications.n, ==, 1);
  g_assert_cmpint (o.r.verifications.v[0].verdict, ==,
                   PL_VERDICT_UNKNOWN_KEY);
  g_assert_cmpuint (o.r.sig_hashed_on_thread + o.r.sig_hashed_on_caller, ==,
                    0);
  outcome_clear (&o);
  g_bytes_unref (msg);
  g_bytes_unref (plain);
}

/* Signing while encrypting (or signing only), from memory (held spans)
 * and from a file (as the file source hands it: mapped or read), on 1
 * and 2 cores: verified good; with a failure injected into the hashing
 * after 1 MiB, the job fails with its error and nothing written. */
static void
test_encrypt (gconstpointer p)
{
  shape s = GPOINTER_TO_INT (p);
  GBytes *plain = tu_random_bytes (5 * MIB + 17);
  gpg_error_t err;

  for (int from_file = 0; from_file < 2; from_file++)
    for (int threads = 1; threads <= 2; threads++)
      {
        GBytes *msg = encrypt_signed (s, plain, threads, from_file, NULL,
                                      &err);
        gsize len;
        const uint8_t *m;
        outcome o;

        g_assert_cmpint (err, ==, 0);
        m = g_bytes_get_data (msg, &len);
        run_decrypt (s, m, len, 2, NULL, &o);
        if (o.err)
          g_error ("from %s on %d cores: %s", from_file ? "a file" : "memory",
                   threads, gpg_strerror (o.err));
        g_assert_cmpuint (o.r.verifications.n, ==, 1);
        g_assert_cmpint (o.r.verifications.v[0].verdict, ==,
                         PL_VERDICT_GOOD);
        if (s != SHAPE_SEIPD1_TEXT)
          g_assert_true (g_bytes_equal (o.out, plain));
        outcome_clear (&o);
        g_bytes_unref (msg);

        pl_sig_hasher_inject_fault (MIB, gpg_error (GPG_ERR_EIO));
        msg = encrypt_signed (s, plain, threads, from_file, NULL, &err);
        pl_sig_hasher_inject_fault (0, 0);
        g_assert_cmpint (gpg_err_code (err), ==, GPG_ERR_EIO);
        g_assert_null (msg);
      }
  g_bytes_unref (plain);
}

/* Cancelled after 2 MiB of 8 while signing: cancelled, nothing
 * written. */
static void
test_encrypt_cancel (void)
{
  GBytes *plain = tu_random_bytes (8 * MIB);
  cancel_at c = { 0, 2 * MIB };
  gpg_error_t err;

  g_assert_null (encrypt_signed (SHAPE_SEIPD1, plain, 2, 0, &c, &err));
  g_assert_cmpint (gpg_err_code (err), ==, GPG_ERR_CANCELED);
  g_bytes_unref (plain);
}

/* Signed encryption on two cores of an input in memory, where the MDC
 * hasher takes the literal data in place, as spans the cipher does not
 * wait for, between the one-pass and signature packets made on the
 * stack and hashed inline (encrypt.c, seipd.h): the same message as on
 * one core but for the random prefix and session key, so the two
 * decrypt to the same data with a good verdict; and read from a file
 * (not in place) too. */
static void
test_encrypt_2_cores (void)
{
  GBytes *plain = tu_random_bytes (9 * MIB + 4321);

  for (int from_file = 0; from_file < 2; from_file++)
    {
      gpg_error_t err;
      GBytes *msg = encrypt_signed (SHAPE_SEIPD1, plain, 2, from_file, NULL,
                                    &err);
      gsize len;
      const uint8_t *m;
      outcome o;

      g_assert_cmpint (err, ==, 0);
      m = g_bytes_get_data (msg, &len);
      run_decrypt (SHAPE_SEIPD1, m, len, 1, NULL, &o);
      g_assert_cmpint (o.err, ==, 0);
      g_assert_true (g_bytes_equal (o.out, plain));
      g_assert_cmpuint (o.r.verifications.n, ==, 1);
      g_assert_cmpint (o.r.verifications.v[0].verdict, ==, PL_VERDICT_GOOD);
      g_bytes_unref (o.out);
      g_bytes_unref (msg);
    }
  g_bytes_unref (plain);
}

static const struct
{
  const char *name;
  shape s;
} shapes[] = {
  { "seipd1", SHAPE_SEIPD1 },
  { "seipd1-zlib", SHAPE_SEIPD1_ZLIB },
  { "seipd1-text", SHAPE_SEIPD1_TEXT },
  { "seipd2", SHAPE_SEIPD2 },
  { "signed-only", SHAPE_SIGNED_ONLY },
  { "signed-only-file", SHAPE_SIGNED_ONLY_FILE },
};

int
main (int argc, char **argv)
{
  int ret;

  tu_init (&argc, &argv);
  tu_key_make (&key4, PL_KEYGEN_DEFAULT);
  tu_key_make (&key6, PL_KEYGEN_RFC9580);
  g_test_add_data_func ("/sighash/alone/1-core", GINT_TO_POINTER (1),
                        test_alone);
  g_test_add_data_func ("/sighash/alone/2-cores", GINT_TO_POINTER (2),
                        test_alone);
  for (size_t i = 0; i < G_N_ELEMENTS (shapes); i++)
    {
      char *path = g_strdup_printf ("/sighash/shape/%s", shapes[i].name);
      g_test_add_data_func (path, GINT_TO_POINTER (shapes[i].s), test_shape);
      g_free (path);
      path = g_strdup_printf ("/sighash/fault/%s", shapes[i].name);
      g_test_add_data_func (path, GINT_TO_POINTER (shapes[i].s), test_fault);
      g_free (path);
      if (shapes[i].s == SHAPE_SIGNED_ONLY_FILE)
        continue;               /* from_file covers it */
      path = g_strdup_printf ("/sighash/encrypt/%s", shapes[i].name);
      g_test_add_data_func (path, GINT_TO_POINTER (shapes[i].s),
                            test_encrypt);
      g_free (path);
    }
  g_test_add_data_func ("/sighash/tamper/seipd1",
                        GINT_TO_POINTER (SHAPE_SEIPD1), test_tamper);
  g_test_add_data_func ("/sighash/tamper/signed-only",
                        GINT_TO_POINTER (SHAPE_SIGNED_ONLY), test_tamper);
  g_test_add_data_func ("/sighash/cancel/seipd1",
                        GINT_TO_POINTER (SHAPE_SEIPD1), test_cancel);
  g_test_add_data_func ("/sighash/cancel/seipd2",
                        GINT_TO_POINTER (SHAPE_SEIPD2), test_cancel);
  g_test_add_func ("/sighash/encrypt-cancel", test_encrypt_cancel);
  g_test_add_func ("/sighash/encrypt/2-cores", test_encrypt_2_cores);
  g_test_add_data_func ("/sighash/unknown-signer/seipd1",
                        GINT_TO_POINTER (SHAPE_SEIPD1), test_unknown_signer);
  g_test_add_data_func ("/sighash/unknown-signer/seipd2",
                        GINT_TO_POINTER (SHAPE_SEIPD2), test_unknown_signer);
  ret = g_test_run ();
  tu_key_free (&key4);
  tu_key_free (&key6);
  return ret;
}
