/* test-decrypt.c - refusals in plain words: messages built packet
 * by packet around the stages, so that every odd case is reachable */
#include "testutil.h"
#include "algo.h"
#include "compress.h"
#include "errors.h"
#include "packet.h"
#include "packet-builder.h"
#include "seipd.h"
#include "skesk.h"

#include <string.h>
#include <zlib.h>

static void
append_literal (GByteArray *a, const char *text)
{
  GByteArray *lit = g_byte_array_new ();
  guint8 head[] = { 'b', 0, 0, 0, 0, 0 };
  g_byte_array_append (lit, head, sizeof head);
  g_byte_array_append (lit, (const guint8 *) text, (guint) strlen (text));
  pb_packet (a, PL_PKT_LITERAL, lit->data, lit->len);
  g_byte_array_unref (lit);
}

/* A ZLIB Compressed Data packet around INNER. */
static void
append_compressed (GByteArray *a, GByteArray *inner)
{
  uLongf n = compressBound (inner->len);
  guint8 *buf = g_malloc (n + 1);
  buf[0] = PL_COMPRESS_ZLIB;
  g_assert_cmpint (compress2 (buf + 1, &n, inner->data, inner->len, 6), ==,
                   Z_OK);
  pb_packet (a, PL_PKT_COMPRESSED, buf, n + 1);
  g_free (buf);
}

/* What wrap () writes in place of the SEIPD v1 packet: tag 9 for SED,
 * or this for a SEIPD v1 packet whose plaintext has no MDC packet after
 * it (issue 19 §9: stripped, or never written). */
#define SEIPD_WITHOUT_MDC (-1)

/* SKESK v4 (simple S2K, no ESK) + SEIPD v1 around PLAINTEXT. */
static GByteArray *
wrap (GByteArray *plaintext, int data_tag)
{
  GByteArray *msg = g_byte_array_new ();
  pl_skesk sk;
  pl_seipd1 st;
  guint8 body[PL_SKESK_BODY_MAX], key[32], *data;
  gsize len, prefix_len;

  memset (&sk, 0, sizeof sk);
  sk.version = 4;
  sk.cipher_algo = PL_CIPHER_AES256;
  sk.s2k.type = PL_S2K_SALTED;
  sk.s2k.hash_algo = PL_HASH_SHA256;
  g_assert_cmpuint (pl_skesk_encrypt (&sk, NULL, NULL, 0), ==, 0);
  len = pl_skesk_write (&sk, body);
  pb_packet (msg, PL_PKT_SKESK, body, len);
  g_assert_cmpuint (pl_s2k_derive (&sk.s2k, "pw", 2, key, 32, 0), ==, 0);

  data = g_malloc (1 + 18 + plaintext->len + 22);
  data[0] = 1;
  g_assert_cmpuint (pl_seipd1_encrypt_init (&st, PL_CIPHER_AES256, key, 32,
                                            data + 1, &prefix_len), ==, 0);
  pl_seipd1_encrypt_push (&st, plaintext->data, data + 19, plaintext->len);
  pl_seipd1_encrypt_finish (&st, data + 19 + plaintext->len);
  pl_seipd1_clear (&st);
  if (data_tag == PL_PKT_SED)
    /* Old-style SED: no version octet, no MDC.  The content does not
     * matter: it must be refused before any decryption. */
    pb_packet (msg, PL_PKT_SED, data + 1, 18 + plaintext->len);
  else if (data_tag == SEIPD_WITHOUT_MDC)
    pb_packet (msg, PL_PKT_SEIPD, data, 1 + 18 + plaintext->len);
  else
    pb_packet (msg, data_tag, data, 1 + 18 + plaintext->len + 22);
  g_free (data);
  return msg;
}

static gpg_error_t
decrypt (GByteArray *msg, GBytes **out, pl_decrypt_result *r)
{
  return tu_decrypt ("pw", msg->data, msg->len, out, r);
}

static void
expect (GByteArray *msg, gpg_err_code_t code, pl_outcome outcome)
{
  GBytes *out;
  gpg_error_t err = decrypt (msg, &out, NULL);
  g_test_message ("-> %s", pl_error_message (err));
  g_assert_cmpint (gpg_err_code (err), ==, code);
  g_assert_cmpint (pl_error_outcome (err), ==, outcome);
  g_assert_cmpuint (g_bytes_get_size (out), ==, 0);
  g_bytes_unref (out);
}

static void
test_baseline (void)
{
  GByteArray *plain = g_byte_array_new ();
  GByteArray *msg;
  GBytes *out;

  append_literal (plain, "hello");
  msg = wrap (plain, PL_PKT_SEIPD);
  g_assert_cmpuint (decrypt (msg, &out, NULL), ==, 0);
  g_assert_cmpmem (g_bytes_get_data (out, NULL), g_bytes_get_size (out),
                   "hello", 5);
  g_bytes_unref (out);
  g_byte_array_unref (msg);
  g_byte_array_unref (plain);
}

static void
test_unprotected (void)
{
  GByteArray *plain = g_byte_array_new ();
  GByteArray *msg;

  append_literal (plain, "old");
  msg = wrap (plain, PL_PKT_SED);
  expect (msg, PL_ERR_UNPROTECTED, PL_OUTCOME_UNPROTECTED);
  g_byte_array_unref (msg);
  g_byte_array_unref (plain);
}

/* SEIPD v1 whose plaintext runs to the packet's end, with no MDC packet:
 * no integrity protection, said so, whether the plaintext is shorter
 * than an MDC packet, longer, or compressed; an MDC that is there but
 * wrong stays "tampered with". */
static void
test_seipd_without_mdc (void)
{
  static const char *const texts[] = {
    "old",
    "a literal longer than the 22 octets of an MDC packet, so that what "
    "is held back for the MDC is literal data",
  };

  for (guint i = 0; i < G_N_ELEMENTS (texts); i++)
    for (int compressed = 0; compressed < 2; compressed++)
      {
        GByteArray *plain = g_byte_array_new ();
        GByteArray *msg;

        if (compressed)
          {
            GByteArray *inner = g_byte_array_new ();
            append_literal (inner, texts[i]);
            append_compressed (plain, inner);
            g_byte_array_unref (inner);
          }
        else
          append_literal (plain, texts[i]);
        msg = wrap (plain, SEIPD_WITHOUT_MDC);
        expect (msg, PL_ERR_UNPROTECTED, PL_OUTCOME_UNPROTECTED);
        g_byte_array_unref (msg);
        /* The same with its MDC, one octet of the hash flipped. */
        msg = wrap (plain, PL_PKT_SEIPD);
        msg->data[msg->len - 1] ^= 1;
        expect (msg, GPG_ERR_CHECKSUM, PL_OUTCOME_INTEGRITY);
        g_byte_array_unref (msg);
        g_byte_array_unref (plain);
      }
}

static void
test_public_key_only (void)
{
  GByteArray *msg = g_byte_array_new ();
  guint8 pkesk[20] = { 3 };
  guint8 seipd[40] = { 1 };

  pb_packet (msg, PL_PKT_PKESK, pkesk, sizeof pkesk);
  pb_packet (msg, PL_PKT_SEIPD, seipd, sizeof seipd);
  expect (msg, GPG_ERR_NO_SECKEY, PL_OUTCOME_PUBLIC_KEY);
  g_byte_array_unref (msg);
}

static void
test_not_encrypted (void)
{
  GByteArray *msg = g_byte_array_new ();
  append_literal (msg, "plain");
  expect (msg, GPG_ERR_NOT_ENCRYPTED, PL_OUTCOME_MALFORMED);
  g_byte_array_unref (msg);
}

static void
test_not_openpgp (void)
{
  GByteArray *msg = g_byte_array_new ();
  g_byte_array_append (msg, (const guint8 *) "Just some text.\n", 16);
  expect (msg, GPG_ERR_BAD_DATA, PL_OUTCOME_MALFORMED);
  g_byte_array_set_size (msg, 0);
  expect (msg, GPG_ERR_NO_DATA, PL_OUTCOME_MALFORMED);
  g_byte_array_unref (msg);
}

static void
test_inner_structure (void)
{
  GByteArray *plain = g_byte_array_new ();
  GByteArray *msg;

  /* Two literals: which one would be the content? */
  append_literal (plain, "one");
  append_literal (plain, "two");
  msg = wrap (plain, PL_PKT_SEIPD);
  expect (msg, GPG_ERR_BAD_DATA, PL_OUTCOME_MALFORMED);
  g_byte_array_unref (msg);

  /* No literal at all. */
  g_byte_array_set_size (plain, 0);
  pb_packet (plain, PL_PKT_MARKER, "PGP", 3);
  msg = wrap (plain, PL_PKT_SEIPD);
  expect (msg, GPG_ERR_NO_DATA, PL_OUTCOME_MALFORMED);
  g_byte_array_unref (msg);
  g_byte_array_unref (plain);
}

static void
test_signed_inside (void)
{
  GByteArray *plain = g_byte_array_new ();
  GByteArray *msg;
  GBytes *out;
  pl_decrypt_result r = { 0 };
  guint8 ops[13] = { 3, 0, 8, 22 };
  guint8 sig[30] = { 4, 0, 22, 8 };

  pb_packet (plain, PL_PKT_ONEPASS_SIG, ops, sizeof ops);
  append_literal (plain, "signed text");
  pb_packet (plain, PL_PKT_SIGNATURE, sig, sizeof sig);
  msg = wrap (plain, PL_PKT_SEIPD);
  g_assert_cmpuint (decrypt (msg, &out, &r), ==, 0);
  g_assert_cmpint (r.signed_inside, ==, 1);
  g_assert_cmpmem (g_bytes_get_data (out, NULL), g_bytes_get_size (out),
                   "signed text", 11);
  g_bytes_unref (out);
  g_byte_array_unref (msg);
  g_byte_array_unref (plain);
}

static void
test_compression_nesting (void)
{
  GByteArray *lit = g_byte_array_new ();
  GByteArray *once = g_byte_array_new ();
  GByteArray *twice = g_byte_array_new ();
  GByteArray *msg;
  GBytes *out;
  pl_decrypt_result r = { 0 };

  append_literal (lit, "squeezed");
  append_compressed (once, lit);
  msg = wrap (once, PL_PKT_SEIPD);
  g_assert_cmpuint (decrypt (msg, &out, &r), ==, 0);
  g_assert_cmpint (r.compress_algo, ==, PL_COMPRESS_ZLIB);
  g_assert_cmpmem (g_bytes_get_data (out, NULL), g_bytes_get_size (out),
                   "squeezed", 8);
  g_bytes_unref (out);
  g_byte_array_unref (msg);

  /* Compressed inside compressed is refused, as GnuPG limits nesting. */
  append_compressed (twice, once);
  msg = wrap (twice, PL_PKT_SEIPD);
  expect (msg, GPG_ERR_BAD_DATA, PL_OUTCOME_MALFORMED);
  g_byte_array_unref (msg);
  g_byte_array_unref (twice);
  g_byte_array_unref (once);
  g_byte_array_unref (lit);
}

/* A sink that counts and keeps nothing. */
typedef struct
{
  pl_sink base;
  guint64 total;
} count_sink;

static gpg_error_t
count_write (pl_sink *self, const void *buf, size_t len)
{
  ((count_sink *) self)->total += len;
  return 0;
}

static gpg_error_t
count_commit (pl_sink *self)
{
  return 0;
}

static void
count_abort (pl_sink *self)
{
  ((count_sink *) self)->total = 0;
}

/* 1 GiB of zeros in a ZLIB packet of about a megabyte streams through
 * in blocks, when the decompression-bomb limit is lifted; the engine's
 * buffers do not grow with it. */
static void
test_bomb (void)
{
  GByteArray *plain = g_byte_array_new ();
  GByteArray *msg;
  z_stream z;
  guint8 *zeros = g_malloc0 (1 << 20);
  guint8 *buf = g_malloc (4 << 20);
  GByteArray *comp = g_byte_array_new ();
  guint8 lit_head[] = { 'b', 0, 0, 0, 0, 0 };
  guint8 algo = PL_COMPRESS_ZLIB;
  count_sink sink = { { count_write, count_commit, count_abort, NULL }, 0 };
  pl_source *src;
  const pl_opener pw = { PL_OPENER_PASSPHRASE, "pw", 2, 0 };
  pl_decrypt_options o = { &pw, 1, 0, NULL };
  guint8 hdr[6];

  memset (&z, 0, sizeof z);
  g_assert_cmpint (deflateInit (&z, 9), ==, Z_OK);
  g_byte_array_append (comp, &algo, 1);
  /* The literal packet's own header, then 1 GiB of zeros. */
  {
    guint64 body = sizeof lit_head + (1ull << 30);
    gsize hl = pl_packet_write_header (hdr, PL_PKT_LITERAL, body);
    guint8 first[16];
    memcpy (first, hdr, hl);
    memcpy (first + hl, lit_head, sizeof lit_head);
    z.next_in = first;
    z.avail_in = (uInt) (hl + sizeof lit_head);
    z.next_out = buf;
    z.avail_out = 4 << 20;
    g_assert_cmpint (deflate (&z, Z_NO_FLUSH), ==, Z_OK);
    for (int i = 0; i < 1024; i++)
      {
        z.next_in = zeros;
        z.avail_in = 1 << 20;
        while (z.avail_in)
          {
            g_assert_cmpint (deflate (&z, Z_NO_FLUSH), ==, Z_OK);
            if (!z.avail_out)
              {
                g_byte_array_append (comp, buf, 4 << 20);
                z.next_out = buf;
                z.avail_out = 4 << 20;
              }
          }
      }
    while (deflate (&z, Z_FINISH) != Z_STREAM_END)
      ;
    g_byte_array_append (comp, buf, (guint) ((4 << 20) - z.avail_out));
    deflateEnd (&z);
  }
  pb_packet (plain, PL_PKT_COMPRESSED, comp->data, comp->len);
  msg = wrap (plain, PL_PKT_SEIPD);
  g_test_message ("bomb: %u octets of message for 1 GiB", msg->len);
  g_assert_cmpuint (msg->len, <, 2 << 20);
  /* Past 1 GiB at over 1000-fold, the default stops it (issue 11)... */
  src = pl_source_new_memory (msg->data, msg->len);
  g_assert_cmpint (gpg_err_code (pl_decrypt (src, &sink.base, &o, NULL,
                                             NULL)), ==, PL_ERR_BOMB);
  g_assert_cmpuint (sink.total, ==, 0);
  pl_source_free (src);
  /* ... and with the limit lifted, it streams through. */
  o.expansion_floor = PL_INFLATE_NO_LIMIT;
  src = pl_source_new_memory (msg->data, msg->len);
  g_assert_cmpuint (pl_decrypt (src, &sink.base, &o, NULL, NULL), ==, 0);
  g_assert_cmpuint (sink.total, ==, 1ull << 30);
  pl_source_free (src);
  g_byte_array_unref (msg);
  g_byte_array_unref (plain);
  g_byte_array_unref (comp);
  g_free (buf);
  g_free (zeros);
}

static void
test_argon2_cap (void)
{
  pl_encrypt_options o;
  GBytes *cipher;
  pl_source *src;
  pl_sink *sink = pl_sink_new_memory ();
  const pl_opener pw = { PL_OPENER_PASSPHRASE, "pw", 2, 0 };
  pl_decrypt_options d = { &pw, 1, 1024, NULL };
  gpg_error_t err;

  pl_encrypt_options_init (&o);
  o.profile = PL_PROFILE_RFC9580;
  o.argon2_passes = 1;
  o.argon2_parallelism = 1;
  o.argon2_memory_exp = 12; /* 4 MiB, over a 1 MiB cap */
  g_assert_cmpuint (tu_encrypt (&o, "pw", "x", 1, &cipher), ==, 0);
  src = pl_source_new_memory (g_bytes_get_data (cipher, NULL),
                              g_bytes_get_size (cipher));
  err = pl_decrypt (src, sink, &d, NULL, NULL);
  g_test_message ("-> %s", pl_error_message (err));
  g_assert_cmpint (pl_error_outcome (err), ==, PL_OUTCOME_TOO_COSTLY);
  pl_source_free (src);
  pl_sink_free (sink);
  g_bytes_unref (cipher);
}

int
main (int argc, char **argv)
{
  tu_init (&argc, &argv);
  g_test_add_func ("/decrypt/baseline", test_baseline);
  g_test_add_func ("/decrypt/unprotected", test_unprotected);
  g_test_add_func ("/decrypt/seipd-without-mdc", test_seipd_without_mdc);
  g_test_add_func ("/decrypt/public-key-only", test_public_key_only);
  g_test_add_func ("/decrypt/not-encrypted", test_not_encrypted);
  g_test_add_func ("/decrypt/not-openpgp", test_not_openpgp);
  g_test_add_func ("/decrypt/inner-structure", test_inner_structure);
  g_test_add_func ("/decrypt/signed-inside", test_signed_inside);
  g_test_add_func ("/decrypt/compression-nesting", test_compression_nesting);
  g_test_add_func ("/decrypt/bomb", test_bomb);
  g_test_add_func ("/decrypt/argon2-cap", test_argon2_cap);
  return g_test_run ();
}
