/* test-sign-file.c - core/sign-file.h: a detached signature over a
 * source's octets, v4 and v6, binary and armored, read in place or in
 * odd-sized reads, checked by the engine's own detached verification
 * (the real gpg checks the desktop's, in batch-sign); and what is left
 * when it stops: a cancel, a signer that refuses, a read that fails,
 * each leaves the sink aborted with nothing written and the signer not
 * asked (but for its own refusal).
 */
#include <string.h>
#include <gcrypt.h>

#include "sign-file.h"
#include "keygen.h"
#include "testutil.h"

#define DATA_LEN (3 * 1024 * 1024 + 17)

/* A source that hands out at most CHUNK octets a read, no borrow, and
 * fails with FAIL once AT octets were read (FAIL 0: never). */
typedef struct
{
  pl_source base;
  const uint8_t *data;
  size_t len, pos, chunk, at;
  gpg_error_t fail;
} chunk_source;

static gpg_error_t
chunk_read (pl_source *self, void *buf, size_t len, size_t *nread)
{
  chunk_source *c = (chunk_source *) self;
  size_t n = MIN (MIN (len, c->chunk), c->len - c->pos);

  if (c->fail && c->pos >= c->at)
    return c->fail;
  memcpy (buf, c->data + c->pos, n);
  c->pos += n;
  *nread = n;
  return 0;
}

static void
chunk_free (pl_source *self)
{
}

static void
chunk_source_init (chunk_source *c, const uint8_t *data, size_t len)
{
  memset (c, 0, sizeof *c);
  c->base.read = chunk_read;
  c->base.free = chunk_free;
  c->base.size = (int64_t) len;
  c->data = data;
  c->len = len;
  c->chunk = 70001;
}

/* A signer held elsewhere that counts its calls and refuses. */
static int refused_calls;

static gpg_error_t
refuse_sign (void *data, const pl_pubkey *pub, int gcry_md_algo,
             const uint8_t *digest, size_t digest_len, gcry_sexp_t *sig)
{
  refused_calls++;
  return gpg_error (GPG_ERR_CANCELED);
}

static uint8_t *
random_data (void)
{
  uint8_t *data = g_malloc (DATA_LEN);

  gcry_create_nonce (data, DATA_LEN);
  return data;
}

/* The verdicts of SIG over DATA by K's certificate. */
static pl_verdict
verdict (const tu_key *k, const uint8_t *sig, size_t sig_len,
         const uint8_t *data, size_t len)
{
  pl_source *src = pl_source_new_memory (data, len);
  pl_verifications out = { 0 };

  g_assert_cmpint (pl_verify_detached (sig, sig_len, src,
                                       (const pl_cert *const *) k->certs, k->n,
                                       (uint32_t) time (NULL), &out), ==, 0);
  pl_source_free (src);
  g_assert_cmpuint (out.n, ==, 1);
  return out.v[0].verdict;
}

/* PROFILE's key signs DATA_LEN octets, lent in place (a memory source)
 * or read 70,001 at a time; binary then armored: one packet of the
 * key's version over binary data, GOOD, and BAD once one octet of the
 * data changed. */
static void
test_roundtrip (gconstpointer p)
{
  int profile = GPOINTER_TO_INT (p);
  g_autofree uint8_t *data = random_data ();
  tu_key k;

  tu_key_make (&k, profile);
  for (int round = 0; round < 4; round++)
    {
      int armor = round & 1, in_place = round < 2;
      int v6 = profile == PL_KEYGEN_RFC9580;
      tu_record_sink rec;
      chunk_source chunks;
      pl_source *src;
      const uint8_t *sig;
      size_t sig_len;

      chunk_source_init (&chunks, data, DATA_LEN);
      src = in_place ? pl_source_new_memory (data, DATA_LEN) : &chunks.base;
      tu_record_sink_init (&rec, pl_sink_new_memory ());
      g_assert_cmpint (pl_sign_detached (src, &rec.base, &k.sk, armor,
                                         (uint32_t) time (NULL), NULL), ==, 0);
      if (in_place)
        pl_source_free (src);
      g_assert_cmpint (rec.committed, ==, 1);
      g_assert_cmpint (rec.aborted, ==, 0);
      sig = pl_sink_memory_data (rec.inner, &sig_len);
      if (armor)
        {
          g_autofree char *text = g_strndup ((const char *) sig, sig_len);
          /* RFC 9580 §6.2: no CRC beside a v6 signature. */
          const char *end = strstr (text, "-----END PGP SIGNATURE-----");

          g_assert_true (g_str_has_prefix (text, "-----BEGIN PGP SIGNATURE-----\n"));
          g_assert_nonnull (end);
          g_assert_cmpint (end[-6] == '=' && end[-7] == '\n', ==, !v6);
        }
      else
        {
          g_assert_cmpuint (sig[0], ==, 0xC2);
          g_assert_cmpuint (sig[2], ==, v6 ? 6 : 4);
          g_assert_cmpuint (sig[3], ==, 0x00);
        }
      g_assert_cmpint (verdict (&k, sig, sig_len, data, DATA_LEN), ==,
                       PL_VERDICT_GOOD);
      data[DATA_LEN - 1] ^= 0x80;
      g_assert_cmpint (verdict (&k, sig, sig_len, data, DATA_LEN), ==,
                       PL_VERDICT_BAD);
      data[DATA_LEN - 1] ^= 0x80;
      tu_record_sink_clear (&rec);
    }
  tu_key_free (&k);
}

/* Stopped before a signature exists: nothing written, the sink
 * aborted, never committed. */
static void
assert_nothing (tu_record_sink *rec)
{
  g_assert_cmpuint (rec->written, ==, 0);
  g_assert_cmpint (rec->committed, ==, 0);
  g_assert_cmpint (rec->aborted, ==, 1);
}

/* A cancel (the flag set), a read that fails half-way and a signer that
 * refuses each end the signature with their error; only the refusal
 * asked the signer. */
static void
test_stopped (void)
{
  g_autofree uint8_t *data = random_data ();
  atomic_int cancel = 1;
  pl_job_control ctl = { .cancel = &cancel };
  pl_seckey held = { 0 };
  chunk_source chunks;
  tu_record_sink rec;
  tu_key k;

  tu_key_make (&k, PL_KEYGEN_DEFAULT);
  held.pub = k.sk.pub;
  held.sign = refuse_sign;
  refused_calls = 0;

  chunk_source_init (&chunks, data, DATA_LEN);
  tu_record_sink_init (&rec, NULL);
  g_assert_cmpint (gpg_err_code (pl_sign_detached (&chunks.base, &rec.base,
                                                   &held, 0, 0, &ctl)),
                   ==, GPG_ERR_CANCELED);
  assert_nothing (&rec);

  chunk_source_init (&chunks, data, DATA_LEN);
  chunks.at = 1536 * 1024;
  chunks.fail = gpg_error (GPG_ERR_EIO);
  tu_record_sink_init (&rec, NULL);
  g_assert_cmpint (gpg_err_code (pl_sign_detached (&chunks.base, &rec.base,
                                                   &held, 1, 0, NULL)),
                   ==, GPG_ERR_EIO);
  assert_nothing (&rec);
  g_assert_cmpint (refused_calls, ==, 0);

  chunk_source_init (&chunks, data, DATA_LEN);
  tu_record_sink_init (&rec, NULL);
  g_assert_cmpint (gpg_err_code (pl_sign_detached (&chunks.base, &rec.base,
                                                   &held, 0, 0, NULL)),
                   ==, GPG_ERR_CANCELED);
  assert_nothing (&rec);
  g_assert_cmpint (refused_calls, ==, 1);
  tu_key_free (&k);
}

int
main (int argc, char **argv)
{
  tu_init (&argc, &argv);
  g_test_add_data_func ("/sign-file/roundtrip/v4",
                        GINT_TO_POINTER (PL_KEYGEN_DEFAULT), test_roundtrip);
  g_test_add_data_func ("/sign-file/roundtrip/v6",
                        GINT_TO_POINTER (PL_KEYGEN_RFC9580), test_roundtrip);
  g_test_add_func ("/sign-file/stopped", test_stopped);
  return g_test_run ();
}
