/* test-aead.c - chunked AEAD streams: SEIPD v2 and the tag 20 packet
 *
 * Known answers from RFC 9580 Appendix A.9-A.11 and LibrePGP A.3, every
 * intermediate value recomputed with libgcrypt directly (not through
 * aead.c), round trips over all formats, modes and chunk sizes with input
 * in random slices, and tampering and truncation of every octet.
 */
#include <sched.h>
#include <string.h>
#include <glib.h>
#include <gcrypt.h>

#include "algo.h"
#include "testutil.h"
#include "hkdf.h"
#include "aead.h"
#include "aead-parallel.h"

#define TAG_LEN 16

/* The threads every stream of a test runs on, through pl_aead_parallel
 * (1: straight to the pl_aead_stream), and whether the input is handed
 * over as stable (read in place) or to be copied.  Each test runs on
 * each setting (see main).  */
typedef struct
{
  const char *name;
  int threads;
  int stable;
  /* Spells on the caller's thread alone (pl_aead_parallel_solo) start
   * and end mid-stream, as the stage starts them on a busy machine. */
  int switching;
  /* Chunks handed out that stay valid (pl_aead_parallel_keep): every
   * call checks that the last ones handed out are unchanged. */
  int kept;
} thread_setting;

static const thread_setting thread_settings[] = {
  { "1t", 1, 0, 0 },
  { "2t-stable", 2, 1, 0 },
  { "3t-copied", 3, 0, 0 },
  { "2t-switching", 2, 1, 1 },
  { "4t-switching-copied", 4, 0, 1 },
  { "2t-stable-kept2", 2, 1, 0, 2 },
  { "3t-copied-kept2", 3, 0, 0, 2 },
  { "3t-switching-copied-kept2", 3, 0, 1, 2 },
};

static const thread_setting *setting = &thread_settings[0];

/* memcmp that allows NULL for zero octets (an empty GByteArray).  */
static gboolean
same (const void *a, const void *b, size_t len)
{
  return !len || memcmp (a, b, len) == 0;
}


/* Seals PT under KEY/NONCE/AD with plain libgcrypt, independently of
 * aead.c, and returns ciphertext || tag.  */
static GByteArray *
raw_seal (int cipher_algo, int aead_algo, const guint8 *key, size_t keylen,
          const guint8 *nonce, size_t noncelen, const guint8 *ad,
          size_t adlen, const guint8 *pt, size_t len)
{
  gcry_cipher_hd_t hd;
  GByteArray *out = g_byte_array_sized_new (len + TAG_LEN);

  g_byte_array_set_size (out, len + TAG_LEN);
  g_assert_cmpint (gcry_cipher_open (&hd, pl_cipher_gcry_algo (cipher_algo),
                                     pl_aead_gcry_mode (aead_algo), 0),
                   ==, 0);
  g_assert_cmpint (gcry_cipher_setkey (hd, key, keylen), ==, 0);
  g_assert_cmpint (gcry_cipher_setiv (hd, nonce, noncelen), ==, 0);
  g_assert_cmpint (gcry_cipher_authenticate (hd, ad, adlen), ==, 0);
  gcry_cipher_final (hd);
  g_assert_cmpint (gcry_cipher_encrypt (hd, out->data, len, pt, len), ==, 0);
  g_assert_cmpint (gcry_cipher_gettag (hd, out->data + len, TAG_LEN), ==, 0);
  gcry_cipher_close (hd);
  return out;
}

/* The last blocks handed out, newest at [0]: where each is, and where
 * its copy went in OUT. */
typedef struct
{
  const uint8_t *p[PL_AEAD_PARALLEL_KEPT_MAX];
  size_t n[PL_AEAD_PARALLEL_KEPT_MAX], at[PL_AEAD_PARALLEL_KEPT_MAX];
  int kept;
} handed_log;

/* After a call that returned O, OLEN and ERR: the KEPT blocks handed
 * out before are still what they were (aead-parallel.h; after a failure
 * the stage may wipe them: the output is thrown away then); then O
 * joins OUT. */
static void
handed_check (handed_log *h, GByteArray *out, const uint8_t *o, size_t olen,
              gpg_error_t err)
{
  for (int i = 0; i < h->kept && !err; i++)
    if (h->n[i])
      g_assert_true (memcmp (h->p[i], out->data + h->at[i], h->n[i]) == 0);
  if (!olen)
    return;
  memmove (h->p + 1, h->p, (PL_AEAD_PARALLEL_KEPT_MAX - 1) * sizeof h->p[0]);
  memmove (h->n + 1, h->n, (PL_AEAD_PARALLEL_KEPT_MAX - 1) * sizeof h->n[0]);
  memmove (h->at + 1, h->at,
           (PL_AEAD_PARALLEL_KEPT_MAX - 1) * sizeof h->at[0]);
  h->p[0] = o;
  h->n[0] = olen;
  h->at[0] = out->len;
  g_byte_array_append (out, o, olen);
}

/* Feeds IN to S in slices (random ones when RNG is set, else all at
 * once), on SETTING's threads, appends everything handed out to OUT and
 * returns the first error.  */
static gpg_error_t
run_stream (pl_aead_stream *s, const guint8 *in, size_t len, GRand *rng,
            size_t chunk, GByteArray *out)
{
  gpg_error_t err;
  const uint8_t *o;
  size_t olen, off = 0;
  pl_aead_parallel *par;
  unsigned calls = 0;
  handed_log h = { .kept = 1 };

  g_assert_cmpint (pl_aead_parallel_new (&par, s, setting->threads), ==, 0);
  if (setting->kept)
    {
      h.kept = pl_aead_parallel_keep (par, setting->kept);
      /* Two threads or more keep what was asked; one passes through. */
      g_assert_cmpint (h.kept, ==, setting->threads < 2 ? 1 : setting->kept);
    }
  while (off < len)
    {
      size_t slice = len - off;

      /* Spells of 1 to 3 chunks, begun every fourth push or so: the
       * chunks around them go to workers and the caller by turns.  */
      if (setting->switching && calls++ % 4 == 1)
        pl_aead_parallel_solo (par, 1 + calls % 3);

      if (rng)
        {
          switch (g_rand_int_range (rng, 0, 4))
            {
            case 0: slice = g_rand_int_range (rng, 1, 18); break;
            case 1: slice = g_rand_int_range (rng, 1, chunk + 2); break;
            case 2: slice = g_rand_int_range (rng, 1, 3 * chunk + 64); break;
            default: break;
            }
          if (slice > len - off)
            slice = len - off;
        }
      while (slice)
        {
          size_t used;

          err = pl_aead_parallel_push (par, in + off, slice, setting->stable,
                                       &used, &o, &olen);
          /* Whatever is handed out counts, even along with an error.  */
          handed_check (&h, out, o, olen, err);
          if (err)
            goto leave;
          /* Every call makes progress: it takes input or hands out.  */
          g_assert_true (used || olen);
          g_assert_cmpuint (used, <=, slice);
          off += used;
          slice -= used;
        }
    }
  do
    {
      err = pl_aead_parallel_finish (par, &o, &olen);
      handed_check (&h, out, o, olen, err);
    }
  while (!err && olen);
 leave:
  pl_aead_parallel_free (par);
  return err;
}

/* Decrypts the packet BODY (header onward) with KEY; returns the error,
 * appending any plaintext handed out to OUT.  */
static gpg_error_t
decrypt_body (pl_aead_format format, const guint8 *body, size_t len,
              const guint8 *key, size_t keylen, GRand *rng, GByteArray *out)
{
  gpg_error_t err;
  pl_aead_header h;
  pl_aead_stream *s;
  size_t used;

  err = pl_aead_header_parse (&h, format, body, len, &used);
  if (err)
    return err;
  err = pl_aead_stream_new (&s, &h, key, keylen, 0);
  if (err)
    return err;
  err = run_stream (s, body + used, len - used, rng,
                    (size_t) 1 << (h.chunk_octet + 6), out);
  pl_aead_stream_free (s);
  return err;
}

/* Encrypts PT into a packet body (header onward).  */
static GByteArray *
encrypt_body (const pl_aead_header *h, const guint8 *key, size_t keylen,
              const guint8 *pt, size_t len, GRand *rng)
{
  size_t chunk = (size_t) 1 << (h->chunk_octet + 6);
  guint8 hdr[64];
  size_t n = pl_aead_header_write (h, hdr);
  /* Room for it all from the start: under ASan a growing array moves to
   * fresh pages at every doubling (its realloc always moves). */
  GByteArray *out = g_byte_array_sized_new (n + len + (len / chunk + 2)
                                                      * TAG_LEN);
  pl_aead_stream *s;

  g_byte_array_append (out, hdr, n);
  g_assert_cmpint (pl_aead_stream_new (&s, h, key, keylen, 1), ==, 0);
  g_assert_cmpint (run_stream (s, pt, len, rng, chunk, out), ==, 0);
  pl_aead_stream_free (s);
  return out;
}

static guint8 *
secure_copy (const GByteArray *a)
{
  guint8 *p = gcry_malloc_secure (a->len);

  g_assert_nonnull (p);
  memcpy (p, a->data, a->len);
  return p;
}


/* RFC 9580 Appendix A.9.3-4, A.10.3-4 and A.11.3-4: the v2 SEIPD packets
 * (packet header d2 69, then the body), their session keys from
 * A.x.2 and each listed intermediate value.  */
typedef struct
{
  int aead_algo;
  const char *session_key;
  const char *packet;
  const char *hkdf_out;
  const char *message_key;
  const char *iv;
  const char *nonce0;
  const char *final_nonce;
  const char *plaintext;        /* Literal Data packet || Padding packet */
} seipd2_vector;

static const seipd2_vector seipd2_vectors[] = {
  { /* A.9: AES-128, EAX.  */
    PL_AEAD_EAX,
    "3881bafe985412459b86c36f98cb9a5e",
    "d269020701069ff90e3b321964f3a42913c8dcc6619325015227efb7eaeaa49f04c2"
    "e674175d4a3d226ed6afcb9ca9ac122c1470e11c63d4c0ab241c6a938ad48bf99a5a"
    "99b90bba8325de61047540258ab7959a95ad051dda96eb15431dfef5f5e2255ca782"
    "61546e339a",
    "b50422ac1c26be9ddd831d5bbb36b64f78b833f2e94a60c0",
    "b50422ac1c26be9ddd831d5bbb36b64f",
    "78b833f2e94a60c0",
    "78b833f2e94a60c00000000000000000",
    "78b833f2e94a60c00000000000000001",
    "cb1362000000000048656c6c6f2c20776f726c6421"
    "d50eae5bf0cd67055003 55816cb0c8ff"
  },
  { /* A.10: AES-128, OCB.  */
    PL_AEAD_OCB,
    "28e79ab82397d3c63de24ac217d7b791",
    "d2690207020620a661f731fc9a3032b5623326027e3a5d8db5748ebeff0b0c5910d0"
    "9ecdd641ff9fd38562758035bc49754ce1bf3fffa7dad0a3b8104f5133cf42a4100a"
    "83eef4ca1b4801a8846bf42bcda7c8ce9d65e212f301cbcd98fdcade694a877ad424"
    "7323f6e857",
    "71662a11ee5b4e08144e6de883a00999ebde12bb570dcf",
    "71662a11ee5b4e08144e6de883a00999",
    "ebde12bb570dcf",
    "ebde12bb570dcf0000000000000000",
    "ebde12bb570dcf0000000000000001",
    "cb1362000000000048656c6c6f2c20776f726c6421"
    "d50eae6aa1649b56aa835b2613902bd2"
  },
  { /* A.11: AES-128, GCM.  */
    PL_AEAD_GCM,
    "1936fc8568980274bb900d8319360c77",
    "d26902070306fcb94490bcb98bbdc9d106c6090266940f72e89edc21b5596b1576b1"
    "01ed0f9ffc6fc6d65bbfd24dcd0790966e6d1e85a30053784cb1d8b6a0699ef12155"
    "a7b2ad6258531b57651fd7777912fa95e35d9b40216f69a4c248db28ff4331f16329"
    "07399e6ff9",
    "ea1438803cb8a47740ce9b54c338778d4d2bdc2b",
    "ea1438803cb8a47740ce9b54c338778d",
    "4d2bdc2b",
    "4d2bdc2b0000000000000000",
    "4d2bdc2b0000000000000001",
    "cb1362000000000048656c6c6f2c20776f726c6421"
    "d50e1ce2269a9eddef81032172b7ed7c"
  },
};

static void
test_rfc9580_seipd2 (gconstpointer data)
{
  const seipd2_vector *v = data;
  GByteArray *packet = tu_unhex (v->packet);
  GByteArray *sk = tu_unhex (v->session_key);
  GByteArray *pt = tu_unhex (v->plaintext);
  GByteArray *want_key = tu_unhex (v->message_key);
  GByteArray *want_iv = tu_unhex (v->iv);
  GByteArray *nonce0 = tu_unhex (v->nonce0);
  GByteArray *final_nonce = tu_unhex (v->final_nonce);
  GByteArray *out, *sealed, *again;
  const guint8 *body = packet->data + 2;
  size_t body_len = packet->len - 2;
  guint8 *okm, *key = secure_copy (sk);
  guint8 ad[13];
  pl_aead_header h;
  size_t used, nlen = pl_aead_nonce_length (v->aead_algo);

  /* Packet header: new format, tag 18, one-octet length.  */
  g_assert_cmphex (packet->data[0], ==, 0xd2);
  g_assert_cmpuint (packet->data[1], ==, body_len);

  g_assert_cmpint (pl_aead_header_parse (&h, PL_AEAD_FORMAT_SEIPD2, body,
                                         body_len, &used), ==, 0);
  g_assert_cmpuint (used, ==, 36);
  g_assert_cmpint (h.cipher_algo, ==, PL_CIPHER_AES128);
  g_assert_cmpint (h.aead_algo, ==, v->aead_algo);
  g_assert_cmpint (h.chunk_octet, ==, 6);
  g_assert_cmpmem (h.salt, 32, body + 4, 32);

  /* HKDF info, output, message key and IV.  */
  memcpy (ad, "\xd2\x02\x07", 3);
  ad[3] = (guint8) v->aead_algo;
  ad[4] = 6;
  okm = gcry_malloc_secure (16 + nlen - 8);
  g_assert_cmpint (pl_hkdf_sha256 (h.salt, 32, key, sk->len, ad, 5,
                                   okm, 16 + nlen - 8), ==, 0);
  tu_assert_hex (okm, 16 + nlen - 8, v->hkdf_out);
  g_assert_cmpmem (okm, 16, want_key->data, want_key->len);
  g_assert_cmpmem (okm + 16, nlen - 8, want_iv->data, want_iv->len);
  /* Chunk #0 nonce = IV || be64 (0), final nonce = IV || be64 (1).  */
  g_assert_cmpuint (nonce0->len, ==, nlen);
  g_assert_cmpmem (nonce0->data, nlen - 8, okm + 16, nlen - 8);
  g_assert_cmpmem (nonce0->data + nlen - 8, 8,
                   "\0\0\0\0\0\0\0\0", 8);
  g_assert_cmpmem (final_nonce->data + nlen - 8, 8,
                   "\0\0\0\0\0\0\0\1", 8);

  /* Chunk #0: AD d2 02 07 xx 06, ciphertext and tag as in the packet.  */
  sealed = raw_seal (PL_CIPHER_AES128, v->aead_algo, okm, 16, nonce0->data,
                     nlen, ad, 5, pt->data, pt->len);
  g_assert_cmpuint (pt->len, ==, 0x25);
  g_assert_cmpmem (sealed->data, sealed->len, body + 36, pt->len + TAG_LEN);
  g_byte_array_unref (sealed);

  /* Final tag: AD || be64 (37), empty plaintext.  */
  memcpy (ad + 5, "\0\0\0\0\0\0\0\x25", 8);
  sealed = raw_seal (PL_CIPHER_AES128, v->aead_algo, okm, 16,
                     final_nonce->data, nlen, ad, 13, NULL, 0);
  g_assert_cmpmem (sealed->data, TAG_LEN, body + body_len - TAG_LEN,
                   TAG_LEN);
  g_byte_array_unref (sealed);

  /* Through the stream, in one go and octet by octet.  */
  out = g_byte_array_new ();
  g_assert_cmpint (decrypt_body (PL_AEAD_FORMAT_SEIPD2, body, body_len,
                                 key, sk->len, NULL, out), ==, 0);
  g_assert_cmpmem (out->data, out->len, pt->data, pt->len);
  /* The Literal Data packet: tag 11, length 0x13, binary, no name, no
   * date, "Hello, world!".  */
  g_assert_cmpmem (out->data + 8, 13, "Hello, world!", 13);
  g_byte_array_set_size (out, 0);
  {
    GRand *rng = g_rand_new_with_seed (v->aead_algo);
    g_assert_cmpint (decrypt_body (PL_AEAD_FORMAT_SEIPD2, body, body_len,
                                   key, sk->len, rng, out), ==, 0);
    g_assert_cmpmem (out->data, out->len, pt->data, pt->len);
    g_rand_free (rng);
  }

  /* Encryption is deterministic given salt and key: same packet.  */
  again = encrypt_body (&h, key, sk->len, pt->data, pt->len, NULL);
  g_assert_cmpmem (again->data, again->len, body, body_len);

  g_byte_array_unref (again);
  g_byte_array_unref (out);
  pl_wipe (okm, 16 + nlen - 8);
  gcry_free (okm);
  gcry_free (key);
  g_byte_array_unref (packet);
  g_byte_array_unref (sk);
  g_byte_array_unref (pt);
  g_byte_array_unref (want_key);
  g_byte_array_unref (want_iv);
  g_byte_array_unref (nonce0);
  g_byte_array_unref (final_nonce);
}


/* LibrePGP (draft-koch-librepgp-02) Appendix A.3.4-A.3.6: the OCB
 * Encrypted Data packet (d4 49, then the body) and its CEK from A.3.3.
 * GnuPG's tests/openpgp/samplemsgs/enc-sym-ocb-1.asc holds the same
 * message.  */
static void
test_librepgp_ocb_packet (void)
{
  GByteArray *packet = tu_unhex (
    "d449010702 0e5ed2bc1e470abe8f1d644c7a6c8a567b0f7701196611a154ba9c"
    "2574cd056284a8ef68035c623d93cc708a43211bb6eaf2b27f7c18d571bcd83b"
    "20add3a08b73af15b9a098");
  GByteArray *cek = tu_unhex ("d1f01ba30e130aa7d2582c16e050ae44");
  GByteArray *pt = tu_unhex ("cb1462000000000048656c6c6f2c20776f726c64210a");
  GByteArray *out, *sealed, *again;
  const guint8 *body = packet->data + 2;
  size_t body_len = packet->len - 2;
  guint8 *key = secure_copy (cek);
  guint8 nonce[15];
  guint8 ad[21];
  pl_aead_header h;
  size_t used;

  g_assert_cmpuint (packet->data[1], ==, body_len);
  g_assert_cmpint (pl_aead_header_parse (&h, PL_AEAD_FORMAT_OCB_ENCRYPTED,
                                         body, body_len, &used), ==, 0);
  g_assert_cmpuint (used, ==, 4 + 15);
  g_assert_cmpint (h.cipher_algo, ==, PL_CIPHER_AES128);
  g_assert_cmpint (h.aead_algo, ==, PL_AEAD_OCB);
  g_assert_cmpint (h.chunk_octet, ==, 14);
  tu_assert_hex (h.iv, 15, "5ed2bc1e470abe8f1d644c7a6c8a56");

  /* Chunk #0: nonce = IV, AD d4 01 07 02 0e || be64 (0).  */
  memcpy (nonce, h.iv, 15);
  tu_assert_hex (nonce, 15, "5ed2bc1e470abe8f1d644c7a6c8a56");
  memcpy (ad, "\xd4\x01\x07\x02\x0e\0\0\0\0\0\0\0\0", 13);
  tu_assert_hex (ad, 13, "d401 0702 0e00 0000 0000 0000 00");
  sealed = raw_seal (PL_CIPHER_AES128, PL_AEAD_OCB, key, 16, nonce, 15,
                     ad, 13, pt->data, pt->len);
  tu_assert_hex (sealed->data, pt->len,
              "7b0f7701196611a154ba9c2574cd056284a8ef68035c");
  tu_assert_hex (sealed->data + pt->len, TAG_LEN,
              "623d93cc708a43211bb6eaf2b27f7c18");
  g_byte_array_unref (sealed);

  /* Final tag: nonce = IV ^ 1, AD || be64 (1) || be64 (22).  */
  nonce[14] ^= 1;
  tu_assert_hex (nonce, 15, "5ed2bc1e470abe8f1d644c7a6c8a57");
  memcpy (ad + 5, "\0\0\0\0\0\0\0\1\0\0\0\0\0\0\0\x16", 16);
  tu_assert_hex (ad, 21,
              "d401 0702 0e00 0000 0000 0000 0100 0000 0000 0000 16");
  sealed = raw_seal (PL_CIPHER_AES128, PL_AEAD_OCB, key, 16, nonce, 15,
                     ad, 21, NULL, 0);
  tu_assert_hex (sealed->data, TAG_LEN, "d571bcd83b20add3a08b73af15b9a098");
  g_byte_array_unref (sealed);

  out = g_byte_array_new ();
  g_assert_cmpint (decrypt_body (PL_AEAD_FORMAT_OCB_ENCRYPTED, body, body_len,
                                 key, 16, NULL, out), ==, 0);
  g_assert_cmpmem (out->data, out->len, pt->data, pt->len);
  g_assert_cmpmem (out->data + 8, 14, "Hello, world!\n", 14);

  again = encrypt_body (&h, key, 16, pt->data, pt->len, NULL);
  g_assert_cmpmem (again->data, again->len, body, body_len);

  g_byte_array_unref (again);
  g_byte_array_unref (out);
  gcry_free (key);
  g_byte_array_unref (packet);
  g_byte_array_unref (cek);
  g_byte_array_unref (pt);
}


static void
random_header (pl_aead_header *h, pl_aead_format format, int cipher_algo,
               int aead_algo, int chunk_octet)
{
  memset (h, 0, sizeof *h);
  h->format = format;
  h->cipher_algo = cipher_algo;
  h->aead_algo = aead_algo;
  h->chunk_octet = chunk_octet;
  gcry_randomize (h->salt, sizeof h->salt, GCRY_WEAK_RANDOM);
  gcry_randomize (h->iv, sizeof h->iv, GCRY_WEAK_RANDOM);
}

static guint8 *
random_key (int cipher_algo, size_t *keylen)
{
  guint8 *key;

  *keylen = pl_cipher_key_length (cipher_algo);
  key = gcry_malloc_secure (*keylen);
  g_assert_nonnull (key);
  gcry_randomize (key, *keylen, GCRY_WEAK_RANDOM);
  return key;
}


typedef struct
{
  pl_aead_format format;
  int aead_algo;
} mode_case;

static const mode_case mode_cases[] = {
  { PL_AEAD_FORMAT_SEIPD2, PL_AEAD_EAX },
  { PL_AEAD_FORMAT_SEIPD2, PL_AEAD_OCB },
  { PL_AEAD_FORMAT_SEIPD2, PL_AEAD_GCM },
  { PL_AEAD_FORMAT_OCB_ENCRYPTED, PL_AEAD_EAX },
  { PL_AEAD_FORMAT_OCB_ENCRYPTED, PL_AEAD_OCB },
  { PL_AEAD_FORMAT_OCB_ENCRYPTED, PL_AEAD_GCM },
};

static void
test_round_trip (gconstpointer data)
{
  const mode_case *mc = data;
  static const int chunk_octets[] = { 0, 1, 6, 16 };
  static const int ciphers[] = { PL_CIPHER_AES128, PL_CIPHER_AES256,
                                 PL_CIPHER_CAMELLIA192 };
  GRand *rng = g_rand_new_with_seed (0x5eed + mc->format * 7
                                     + mc->aead_algo);
  size_t max = 3 * ((size_t) 1 << 22) + 5;
  guint8 *pt = g_malloc (max);

  for (size_t i = 0; i < max; i += 4)
    {
      guint32 r = g_rand_int (rng);
      memcpy (pt + i, &r, max - i < 4 ? max - i : 4);
    }

  for (size_t ci = 0; ci < G_N_ELEMENTS (chunk_octets); ci++)
    {
      size_t c = (size_t) 1 << (chunk_octets[ci] + 6);
      size_t sizes[] = { 0, 1, c - 1, c, c + 1, 3 * c + 5 };

      for (size_t si = 0; si < G_N_ELEMENTS (sizes); si++)
        {
          int cipher_algo = ciphers[(ci + si) % G_N_ELEMENTS (ciphers)];
          size_t len = sizes[si], keylen, nchunks, hdrlen;
          pl_aead_header h;
          guint8 *key = random_key (cipher_algo, &keylen);
          GByteArray *ct, *out = g_byte_array_sized_new (len + 1);

          random_header (&h, mc->format, cipher_algo, mc->aead_algo,
                         chunk_octets[ci]);
          ct = encrypt_body (&h, key, keylen, pt, len, rng);

          /* One chunk per C octets begun; an empty message still has
           * chunk #0.  Then the final tag.  */
          nchunks = len ? (len + c - 1) / c : 1;
          hdrlen = (mc->format == PL_AEAD_FORMAT_SEIPD2
                    ? 36 : 4 + pl_aead_nonce_length (mc->aead_algo));
          g_assert_cmpuint (ct->len, ==,
                            hdrlen + len + nchunks * TAG_LEN + TAG_LEN);

          g_assert_cmpint (decrypt_body (mc->format, ct->data, ct->len, key,
                                         keylen, rng, out), ==, 0);
          g_assert_cmpuint (out->len, ==, len);
          g_assert_true (same (out->data, pt, len));

          /* Sealing in random slices (pieces of chunks run through the
           * cipher as they come) gives what sealing in one piece does.  */
          {
            GByteArray *whole = encrypt_body (&h, key, keylen, pt, len, NULL);

            g_assert_cmpmem (whole->data, whole->len, ct->data, ct->len);
            g_byte_array_unref (whole);
          }

          /* Once more in one piece, which takes the no-copy paths.  */
          g_byte_array_set_size (out, 0);
          g_assert_cmpint (decrypt_body (mc->format, ct->data, ct->len, key,
                                         keylen, NULL, out), ==, 0);
          g_assert_cmpuint (out->len, ==, len);
          g_assert_true (same (out->data, pt, len));

          g_byte_array_unref (out);
          g_byte_array_unref (ct);
          gcry_free (key);
        }
    }
  g_free (pt);
  g_rand_free (rng);
}


/* An empty plaintext written as a lone final tag (index 0, total 0), as
 * Sequoia writes it, is accepted too.  */
static void
test_empty_zero_chunks (gconstpointer data)
{
  const mode_case *mc = data;
  pl_aead_header h;
  size_t keylen, hdrlen, nlen = pl_aead_nonce_length (mc->aead_algo);
  guint8 *key = random_key (PL_CIPHER_AES128, &keylen);
  guint8 hdr[64], nonce[16], ad[21];
  guint8 *okm = gcry_malloc_secure (32 + 16);
  const guint8 *msgkey;
  size_t adlen;
  GByteArray *body = g_byte_array_new (), *tag, *out = g_byte_array_new ();

  random_header (&h, mc->format, PL_CIPHER_AES128, mc->aead_algo, 0);
  hdrlen = pl_aead_header_write (&h, hdr);
  g_byte_array_append (body, hdr, hdrlen);
  ad[0] = mc->format == PL_AEAD_FORMAT_SEIPD2 ? 0xd2 : 0xd4;
  ad[1] = mc->format == PL_AEAD_FORMAT_SEIPD2 ? 2 : 1;
  ad[2] = PL_CIPHER_AES128;
  ad[3] = (guint8) mc->aead_algo;
  ad[4] = 0;
  if (mc->format == PL_AEAD_FORMAT_SEIPD2)
    {
      g_assert_cmpint (pl_hkdf_sha256 (h.salt, 32, key, keylen, ad, 5, okm,
                                       keylen + nlen - 8), ==, 0);
      msgkey = okm;
      memcpy (nonce, okm + keylen, nlen - 8);
      memset (nonce + nlen - 8, 0, 8);
      memset (ad + 5, 0, 8);
      adlen = 13;
    }
  else
    {
      msgkey = key;
      memcpy (nonce, h.iv, nlen);
      memset (ad + 5, 0, 16);
      adlen = 21;
    }
  tag = raw_seal (PL_CIPHER_AES128, mc->aead_algo, msgkey, keylen, nonce,
                  nlen, ad, adlen, NULL, 0);
  g_byte_array_append (body, tag->data, TAG_LEN);

  g_assert_cmpint (decrypt_body (mc->format, body->data, body->len, key,
                                 keylen, NULL, out), ==, 0);
  g_assert_cmpuint (out->len, ==, 0);

  /* The same tag offered as an empty chunk #0's is not a final tag.  */
  g_byte_array_append (body, tag->data, TAG_LEN);
  g_assert_cmpint (gpg_err_code (decrypt_body (mc->format, body->data,
                                               body->len, key, keylen, NULL,
                                               out)), ==, GPG_ERR_CHECKSUM);

  g_byte_array_unref (tag);
  g_byte_array_unref (body);
  g_byte_array_unref (out);
  gcry_free (okm);
  gcry_free (key);
}


/* Every octet flipped, every truncation, a few extensions: each must
 * fail, and nothing from the damaged chunk or after may come out.  */
static void
check_damage (const mode_case *mc, size_t len, GRand *rng)
{
  const size_t c = 64;
  pl_aead_header h;
  size_t keylen, hdrlen;
  guint8 *key = random_key (PL_CIPHER_AES128, &keylen);
  guint8 *pt = g_malloc (len + 1);
  GByteArray *ct, *bad, *out = g_byte_array_new ();
  gpg_error_t err;

  gcry_randomize (pt, len, GCRY_WEAK_RANDOM);
  random_header (&h, mc->format, PL_CIPHER_AES128, mc->aead_algo, 0);
  ct = encrypt_body (&h, key, keylen, pt, len, NULL);
  hdrlen = ct->len - len - ((len ? (len + c - 1) / c : 1) + 1) * TAG_LEN;

  bad = g_byte_array_sized_new (ct->len + 64);
  for (size_t pos = 0; pos < ct->len; pos++)
    for (int flip = 0; flip < 2; flip++)
      {
        size_t allowed;

        g_byte_array_set_size (bad, 0);
        g_byte_array_append (bad, ct->data, ct->len);
        bad->data[pos] ^= flip ? 0xff : 0x01;
        g_byte_array_set_size (out, 0);
        err = decrypt_body (mc->format, bad->data, bad->len, key, keylen,
                            flip ? rng : NULL, out);
        g_assert_cmpint (err, !=, 0);
        if (pos < hdrlen)
          {
            /* A damaged header may already fail to parse or name
             * another cipher; if not, the stream must fail.  */
            allowed = 0;
          }
        else
          {
            g_assert_true (gpg_err_code (err) == GPG_ERR_CHECKSUM
                           || gpg_err_code (err) == GPG_ERR_TRUNCATED);
            /* Chunks before the damaged one may have come out; a short
             * last chunk only once the final tag vouched for it.  */
            allowed = MIN ((pos - hdrlen) / (c + TAG_LEN), len / c) * c;
          }
        g_assert_cmpuint (out->len, <=, allowed);
        g_assert_true (same (out->data, pt, out->len));
      }

  for (size_t cut = 0; cut < ct->len; cut++)
    {
      g_byte_array_set_size (out, 0);
      err = decrypt_body (mc->format, ct->data, cut, key, keylen,
                          cut & 1 ? rng : NULL, out);
      g_assert_cmpint (err, !=, 0);
      if (cut >= hdrlen)
        g_assert_true (gpg_err_code (err) == GPG_ERR_CHECKSUM
                       || gpg_err_code (err) == GPG_ERR_TRUNCATED);
      g_assert_cmpuint (out->len, <, len ? len : 1);
      g_assert_true (same (out->data, pt, out->len));
    }

  for (size_t extra = 1; extra <= 40; extra++)
    {
      guint8 junk[40];

      gcry_randomize (junk, extra, GCRY_WEAK_RANDOM);
      g_byte_array_set_size (bad, 0);
      g_byte_array_append (bad, ct->data, ct->len);
      g_byte_array_append (bad, junk, extra);
      g_byte_array_set_size (out, 0);
      err = decrypt_body (mc->format, bad->data, bad->len, key, keylen,
                          NULL, out);
      g_assert_true (gpg_err_code (err) == GPG_ERR_CHECKSUM
                     || gpg_err_code (err) == GPG_ERR_TRUNCATED);
      g_assert_true (same (out->data, pt, out->len));
    }

  /* The original still decrypts.  */
  g_byte_array_set_size (out, 0);
  g_assert_cmpint (decrypt_body (mc->format, ct->data, ct->len, key, keylen,
                                 rng, out), ==, 0);
  g_assert_cmpmem (out->data, out->len, pt, len);

  g_byte_array_unref (bad);
  g_byte_array_unref (ct);
  g_byte_array_unref (out);
  g_free (pt);
  gcry_free (key);
}

static void
test_tamper (gconstpointer data)
{
  const mode_case *mc = data;
  GRand *rng = g_rand_new_with_seed (42 + mc->aead_algo);

  check_damage (mc, 3 * 64 - 22, rng);  /* Last chunk short.  */
  check_damage (mc, 3 * 64, rng);       /* Last chunk full.  */
  check_damage (mc, 0, rng);            /* Only the empty chunk #0.  */
  g_rand_free (rng);
}


/* After a failure, the stream stays failed.  */
static void
test_sticky_error (void)
{
  pl_aead_header h;
  size_t keylen, used, olen;
  guint8 *key = random_key (PL_CIPHER_AES128, &keylen);
  guint8 pt[200] = { 0 };
  GByteArray *ct;
  pl_aead_stream *s;
  const uint8_t *o;
  size_t hdr;

  random_header (&h, PL_AEAD_FORMAT_SEIPD2, PL_CIPHER_AES128, PL_AEAD_OCB,
                 0);
  ct = encrypt_body (&h, key, keylen, pt, sizeof pt, NULL);
  hdr = 36;
  ct->data[hdr + 3] ^= 4;       /* In chunk #0.  */
  g_assert_cmpint (pl_aead_stream_new (&s, &h, key, keylen, 0), ==, 0);
  g_assert_cmpint (gpg_err_code (pl_aead_stream_push (s, ct->data + hdr,
                                                      ct->len - hdr, &used,
                                                      &o, &olen)),
                   ==, GPG_ERR_CHECKSUM);
  g_assert_cmpuint (olen, ==, 0);
  g_assert_cmpint (gpg_err_code (pl_aead_stream_push (s, ct->data + hdr + 80,
                                                      ct->len - hdr - 80,
                                                      &used, &o, &olen)),
                   ==, GPG_ERR_CHECKSUM);
  g_assert_cmpuint (olen, ==, 0);
  g_assert_cmpint (gpg_err_code (pl_aead_stream_finish (s, &o, &olen)),
                   ==, GPG_ERR_CHECKSUM);
  g_assert_cmpuint (olen, ==, 0);
  pl_aead_stream_free (s);

  /* The wrong key fails on the first chunk.  */
  key[0] ^= 1;
  ct->data[hdr + 3] ^= 4;
  {
    GByteArray *out = g_byte_array_new ();
    g_assert_cmpint (gpg_err_code (decrypt_body (PL_AEAD_FORMAT_SEIPD2,
                                                 ct->data, ct->len, key,
                                                 keylen, NULL, out)),
                     ==, GPG_ERR_CHECKSUM);
    g_assert_cmpuint (out->len, ==, 0);
    g_byte_array_unref (out);
  }
  g_byte_array_unref (ct);
  gcry_free (key);
}


static void
test_header_parse (void)
{
  pl_aead_header h, h2;
  guint8 buf[64];
  size_t used, n;

  /* Round trip through write and parse.  */
  random_header (&h, PL_AEAD_FORMAT_SEIPD2, PL_CIPHER_AES256, PL_AEAD_GCM,
                 16);
  n = pl_aead_header_write (&h, buf);
  g_assert_cmpuint (n, ==, 36);
  g_assert_cmpint (pl_aead_header_parse (&h2, PL_AEAD_FORMAT_SEIPD2, buf, n,
                                         &used), ==, 0);
  g_assert_cmpuint (used, ==, 36);
  g_assert_cmpmem (h2.salt, 32, h.salt, 32);
  g_assert_cmpint (h2.chunk_octet, ==, 16);

  random_header (&h, PL_AEAD_FORMAT_OCB_ENCRYPTED, PL_CIPHER_AES128,
                 PL_AEAD_EAX, 3);
  n = pl_aead_header_write (&h, buf);
  g_assert_cmpuint (n, ==, 20);
  g_assert_cmpint (pl_aead_header_parse (&h2, PL_AEAD_FORMAT_OCB_ENCRYPTED, buf,
                                         n + 5, &used), ==, 0);
  g_assert_cmpuint (used, ==, 20);
  g_assert_cmpmem (h2.iv, 16, h.iv, 16);

  /* Version, algorithms, chunk octet, length.  */
  memcpy (buf, "\x02\x09\x02\x10", 4);
  g_assert_cmpint (pl_aead_header_parse (&h2, PL_AEAD_FORMAT_SEIPD2, buf, 36,
                                         &used), ==, 0);
  buf[0] = 1;
  g_assert_cmpint (gpg_err_code (pl_aead_header_parse
                                 (&h2, PL_AEAD_FORMAT_SEIPD2, buf, 36,
                                  &used)), ==, GPG_ERR_UNKNOWN_VERSION);
  g_assert_cmpint (gpg_err_code (pl_aead_header_parse
                                 (&h2, PL_AEAD_FORMAT_OCB_ENCRYPTED, buf, 36,
                                  &used)), ==, 0);
  buf[0] = 2;
  g_assert_cmpint (gpg_err_code (pl_aead_header_parse
                                 (&h2, PL_AEAD_FORMAT_OCB_ENCRYPTED, buf, 36,
                                  &used)), ==, GPG_ERR_UNKNOWN_VERSION);
  buf[1] = PL_CIPHER_CAST5;     /* 8-octet blocks: no AEAD.  */
  g_assert_cmpint (gpg_err_code (pl_aead_header_parse
                                 (&h2, PL_AEAD_FORMAT_SEIPD2, buf, 36,
                                  &used)), ==, GPG_ERR_UNSUPPORTED_ALGORITHM);
  buf[1] = 99;
  g_assert_cmpint (gpg_err_code (pl_aead_header_parse
                                 (&h2, PL_AEAD_FORMAT_SEIPD2, buf, 36,
                                  &used)), ==, GPG_ERR_UNSUPPORTED_ALGORITHM);
  buf[1] = PL_CIPHER_AES128;
  buf[2] = 4;
  g_assert_cmpint (gpg_err_code (pl_aead_header_parse
                                 (&h2, PL_AEAD_FORMAT_SEIPD2, buf, 36,
                                  &used)), ==, GPG_ERR_UNSUPPORTED_ALGORITHM);
  buf[2] = PL_AEAD_OCB;
  buf[3] = 17;
  g_assert_cmpint (gpg_err_code (pl_aead_header_parse
                                 (&h2, PL_AEAD_FORMAT_SEIPD2, buf, 36,
                                  &used)), ==, GPG_ERR_INV_PACKET);
  buf[3] = 0;
  g_assert_cmpint (gpg_err_code (pl_aead_header_parse
                                 (&h2, PL_AEAD_FORMAT_SEIPD2, buf, 35,
                                  &used)), ==, GPG_ERR_TRUNCATED);
  g_assert_cmpint (gpg_err_code (pl_aead_header_parse
                                 (&h2, PL_AEAD_FORMAT_SEIPD2, buf, 0,
                                  &used)), ==, GPG_ERR_TRUNCATED);
  buf[0] = 1;
  g_assert_cmpint (gpg_err_code (pl_aead_header_parse
                                 (&h2, PL_AEAD_FORMAT_OCB_ENCRYPTED, buf, 18,
                                  &used)), ==, GPG_ERR_TRUNCATED);
  g_assert_cmpint (gpg_err_code (pl_aead_header_parse
                                 (&h2, PL_AEAD_FORMAT_OCB_ENCRYPTED, buf, 19,
                                  &used)), ==, 0);
  g_assert_cmpuint (used, ==, 19);

  /* A session key of the wrong length.  */
  {
    pl_aead_stream *s = NULL;
    guint8 key[32] = { 0 };

    random_header (&h, PL_AEAD_FORMAT_SEIPD2, PL_CIPHER_AES256, PL_AEAD_OCB,
                   0);
    g_assert_cmpint (gpg_err_code (pl_aead_stream_new (&s, &h, key, 16, 0)),
                     ==, GPG_ERR_INV_KEYLEN);
    /* A failed new leaves nothing; free takes NULL. */
    g_assert_null (s);
    pl_aead_stream_free (s);
  }
}

/* ---- Chunk by chunk on several threads (pl_aead_chunk_crypt) -------- */

typedef struct
{
  const pl_aead_stream *s;
  const guint8 *in;             /* the plaintext, or the chunks (body) */
  guint8 *out;                  /* the chunks (body), or the plaintext */
  size_t len;                   /* plaintext octets */
  size_t c;
  size_t nchunks;
  int encrypt;
  gint next;                    /* the next chunk number to take */
  gpg_error_t *errs;            /* per chunk */
} chunk_job;

/* One worker: its own handle; takes chunk numbers until none is left.  */
static gpointer
chunk_worker (gpointer data)
{
  chunk_job *job = data;
  gcry_cipher_hd_t hd;
  gint k;

  g_assert_cmpint (pl_aead_stream_open_handle (job->s, &hd), ==, 0);
  while ((k = g_atomic_int_add (&job->next, 1)) < (gint) job->nchunks)
    {
      size_t off = (size_t) k * job->c;
      size_t n = MIN (job->c, job->len - off);
      size_t boff = (size_t) k * (job->c + TAG_LEN);

      if (job->encrypt)
        job->errs[k] = pl_aead_chunk_crypt (job->s, hd, k, job->out + boff,
                                            job->in + off, n, NULL,
                                            job->out + boff + n);
      else
        job->errs[k] = pl_aead_chunk_crypt (job->s, hd, k, job->out + off,
                                            job->in + boff, n,
                                            job->in + boff + n, NULL);
    }
  gcry_cipher_close (hd);
  return NULL;
}

/* Runs JOB on NTHREADS threads, then the final tag on this one; returns
 * the final tag's error.  */
static gpg_error_t
run_chunk_job (chunk_job *job, int nthreads)
{
  GThread *t[4];
  gcry_cipher_hd_t hd;
  gpg_error_t err;
  size_t tag = job->nchunks * (job->c + TAG_LEN) - (job->nchunks * job->c
                                                     - job->len);

  job->next = 0;
  for (int i = 0; i < nthreads; i++)
    t[i] = g_thread_new ("chunk", chunk_worker, job);
  for (int i = 0; i < nthreads; i++)
    g_thread_join (t[i]);
  g_assert_cmpint (pl_aead_stream_open_handle (job->s, &hd), ==, 0);
  if (job->encrypt)
    err = pl_aead_final_tag (job->s, hd, job->nchunks, job->len, NULL,
                             job->out + tag);
  else
    err = pl_aead_final_tag (job->s, hd, job->nchunks, job->len,
                             job->in + tag, NULL);
  gcry_cipher_close (hd);
  return err;
}

/* Chunks sealed and opened on 1, 2 and 4 threads give the octets the
 * stream gives, for 0..4 whole chunks with and without a short last one;
 * a flipped octet in the first, a middle or the last chunk, or in the
 * final tag, fails exactly that chunk (or the final tag).  */
static void
test_chunks_threaded (gconstpointer data)
{
  const mode_case *mc = data;
  static const int chunk_octets[] = { 0, 2, 6 };
  static const int nthreads[] = { 1, 2, 4 };

  for (size_t ci = 0; ci < G_N_ELEMENTS (chunk_octets); ci++)
    for (size_t full = 0; full <= 4; full++)
      for (int short_last = 0; short_last <= 2; short_last++)
        {
          size_t c = (size_t) 1 << (chunk_octets[ci] + 6);
          size_t len = full * c + (short_last == 2 ? c - 1 : (size_t) short_last);
          size_t nchunks = len ? (len + c - 1) / c : 1, keylen, used;
          size_t bodylen = len + nchunks * TAG_LEN + TAG_LEN;
          pl_aead_header h;
          guint8 *key = random_key (PL_CIPHER_AES128, &keylen);
          guint8 *pt = g_malloc (len + 1), *body = g_malloc (bodylen);
          guint8 *back = g_malloc (len + 1);
          gpg_error_t *errs = g_new0 (gpg_error_t, nchunks);
          pl_aead_stream *enc, *dec;
          GByteArray *ct;
          chunk_job job;

          gcry_randomize (pt, len + 1, GCRY_WEAK_RANDOM);
          random_header (&h, mc->format, PL_CIPHER_AES128, mc->aead_algo,
                         chunk_octets[ci]);
          ct = encrypt_body (&h, key, keylen, pt, len, NULL);
          g_assert_cmpint (pl_aead_header_parse (&h, mc->format, ct->data,
                                                 ct->len, &used), ==, 0);
          g_assert_cmpuint (ct->len - used, ==, bodylen);
          g_assert_cmpint (pl_aead_stream_new (&enc, &h, key, keylen, 1),
                           ==, 0);
          g_assert_cmpint (pl_aead_stream_new (&dec, &h, key, keylen, 0),
                           ==, 0);
          g_assert_cmpuint (pl_aead_stream_chunk_size (enc), ==, c);

          for (size_t ti = 0; ti < G_N_ELEMENTS (nthreads); ti++)
            {
              job = (chunk_job) { enc, pt, body, len, c, nchunks, 1, 0,
                                  errs };
              memset (body, 0, bodylen);
              g_assert_cmpint (run_chunk_job (&job, nthreads[ti]), ==, 0);
              for (size_t k = 0; k < nchunks; k++)
                g_assert_cmpint (errs[k], ==, 0);
              g_assert_cmpmem (body, bodylen, ct->data + used, bodylen);

              job = (chunk_job) { dec, body, back, len, c, nchunks, 0, 0,
                                  errs };
              g_assert_cmpint (run_chunk_job (&job, nthreads[ti]), ==, 0);
              for (size_t k = 0; k < nchunks; k++)
                g_assert_cmpint (errs[k], ==, 0);
              g_assert_true (same (back, pt, len));
            }

          /* Damage: the first, a middle and the last chunk; the final
           * tag.  */
          {
            size_t ks[] = { 0, nchunks / 2, nchunks - 1, nchunks };

            for (size_t di = 0; di < G_N_ELEMENTS (ks); di++)
              {
                size_t k = ks[di];
                size_t at = k < nchunks ? k * (c + TAG_LEN) : bodylen - 1;
                gpg_error_t ferr;

                memcpy (body, ct->data + used, bodylen);
                body[at] ^= 0x01;
                job = (chunk_job) { dec, body, back, len, c, nchunks, 0, 0,
                                    errs };
                ferr = run_chunk_job (&job, 2);
                for (size_t j = 0; j < nchunks; j++)
                  g_assert_cmpint (gpg_err_code (errs[j]), ==,
                                   j == k ? GPG_ERR_CHECKSUM : 0);
                g_assert_cmpint (gpg_err_code (ferr), ==,
                                 k == nchunks ? GPG_ERR_CHECKSUM : 0);
              }
          }

          pl_aead_stream_free (enc);
          pl_aead_stream_free (dec);
          g_byte_array_unref (ct);
          g_free (pt);
          g_free (back);
          g_free (body);
          g_free (errs);
          gcry_free (key);
        }
}


/* Many chunks on 2 to 4 threads, stable and copied input, in one push
 * and in small ones: the plaintext comes out in order; a damaged chunk K
 * (or final tag) stops the stream at K: what came out before is a whole
 * number of chunks before K, and every later call fails the same way.  */
static void
test_parallel_order (gconstpointer data)
{
  const mode_case *mc = data;
  const size_t c = 64, nchunks = 20, len = nchunks * c - 7;
  size_t keylen, hdrlen, bodylen;
  guint8 *key = random_key (PL_CIPHER_AES128, &keylen);
  guint8 *pt = g_malloc (len);
  pl_aead_header h;
  GByteArray *ct, *bad = g_byte_array_new ();
  GRand *rng = g_rand_new_with_seed (7 + mc->aead_algo);

  gcry_randomize (pt, len, GCRY_WEAK_RANDOM);
  random_header (&h, mc->format, PL_CIPHER_AES128, mc->aead_algo, 0);
  ct = encrypt_body (&h, key, keylen, pt, len, NULL);
  bodylen = len + nchunks * TAG_LEN + TAG_LEN;
  hdrlen = ct->len - bodylen;

  for (int threads = 2; threads <= PL_AEAD_PARALLEL_MAX_THREADS; threads++)
    for (int stable = 0; stable < 4; stable++)
      {
        thread_setting ts = { "order", threads, stable & 1, stable >> 1 };
        size_t ks[] = { 0, 1, 5, nchunks - 2, nchunks - 1, nchunks };

        setting = &ts;
        /* Sealing on these threads gives the one-thread octets.  */
        {
          GByteArray *again = encrypt_body (&h, key, keylen, pt, len, rng);

          g_assert_cmpmem (again->data, again->len, ct->data, ct->len);
          g_byte_array_unref (again);
        }
        for (size_t di = 0; di < G_N_ELEMENTS (ks); di++)
          for (int sliced = 0; sliced < 2; sliced++)
            {
              size_t k = ks[di];
              size_t at = hdrlen + (k < nchunks ? k * (c + TAG_LEN) + 3
                                                : bodylen - 1);
              GByteArray *out = g_byte_array_new ();
              gpg_error_t err;

              g_byte_array_set_size (bad, 0);
              g_byte_array_append (bad, ct->data, ct->len);
              bad->data[at] ^= 0x40;
              err = decrypt_body (mc->format, bad->data, bad->len, key,
                                  keylen, sliced ? rng : NULL, out);
              g_assert_cmpint (gpg_err_code (err), ==, GPG_ERR_CHECKSUM);
              g_assert_cmpuint (out->len % c, ==, 0);
              g_assert_cmpuint (out->len, <=, MIN (k, nchunks - 1) * c);
              g_assert_true (same (out->data, pt, out->len));
              g_byte_array_unref (out);
            }

        /* Sticky: a stage that failed fails every later call, and hands
         * out nothing more.  */
        {
          pl_aead_stream *s;
          pl_aead_parallel *par;
          const uint8_t *o;
          size_t used, olen, got = 0, off = 0;
          gpg_error_t err = 0;

          g_byte_array_set_size (bad, 0);
          g_byte_array_append (bad, ct->data, ct->len);
          bad->data[hdrlen + 2 * (c + TAG_LEN)] ^= 1;
          g_assert_cmpint (pl_aead_stream_new (&s, &h, key, keylen, 0),
                           ==, 0);
          g_assert_cmpint (pl_aead_parallel_new (&par, s, threads), ==, 0);
          while (!err && off < bad->len - hdrlen)
            {
              err = pl_aead_parallel_push (par, bad->data + hdrlen + off,
                                           bad->len - hdrlen - off, ts.stable,
                                           &used, &o, &olen);
              off += used;
              got += olen;
            }
          g_assert_cmpint (gpg_err_code (err), ==, GPG_ERR_CHECKSUM);
          g_assert_cmpuint (got, <=, 2 * c);
          err = pl_aead_parallel_push (par, bad->data + hdrlen, 100, ts.stable,
                                       &used, &o, &olen);
          g_assert_cmpint (gpg_err_code (err), ==, GPG_ERR_CHECKSUM);
          g_assert_cmpuint (olen, ==, 0);
          err = pl_aead_parallel_finish (par, &o, &olen);
          g_assert_cmpint (gpg_err_code (err), ==, GPG_ERR_CHECKSUM);
          g_assert_cmpuint (olen, ==, 0);
          pl_aead_parallel_free (par);
          pl_aead_stream_free (s);
        }
        setting = &thread_settings[0];
      }

  /* The policy: small chunks, and input that would be copied, stay on
   * one thread; budgets are capped.  */
  {
    pl_aead_stream *s;

    g_assert_cmpint (pl_aead_stream_new (&s, &h, key, keylen, 1), ==, 0);
    g_assert_cmpint (pl_aead_parallel_threads (s, 8, 1), ==, 1);
    pl_aead_stream_free (s);
    h.chunk_octet = 12;
    g_assert_cmpint (pl_aead_stream_new (&s, &h, key, keylen, 1), ==, 0);
    g_assert_cmpint (pl_aead_parallel_threads (s, 1, 1), ==, 1);
    g_assert_cmpint (pl_aead_parallel_threads (s, 2, 1), ==, 2);
    g_assert_cmpint (pl_aead_parallel_threads (s, 2, 0), ==, 1);
    g_assert_cmpint (pl_aead_parallel_threads (s, 64, 1), ==,
                     PL_AEAD_PARALLEL_MAX_THREADS);
    pl_aead_stream_free (s);
  }

  g_rand_free (rng);
  g_byte_array_unref (bad);
  g_byte_array_unref (ct);
  g_free (pt);
  gcry_free (key);
}


/* Pushes all of IN to a fresh stage over S on THREADS threads (stable
 * input, in one push), first starting a spell of SOLO chunks on the
 * caller's thread when SOLO > 0; appends what comes out to OUT and
 * returns the error, with the stage's counts in *STATS.  */
static gpg_error_t
run_counted (pl_aead_stream *s, int threads, uint64_t solo, const guint8 *in,
             size_t len, GByteArray *out, pl_aead_parallel_stats *stats)
{
  pl_aead_parallel *par;
  const uint8_t *o;
  size_t used, olen, off = 0;
  gpg_error_t err = 0;

  g_assert_cmpint (pl_aead_parallel_new (&par, s, threads), ==, 0);
  if (solo)
    pl_aead_parallel_solo (par, solo);
  while (!err && off < len)
    {
      err = pl_aead_parallel_push (par, in + off, len - off, 1, &used, &o,
                                   &olen);
      g_byte_array_append (out, o, olen);
      off += used;
    }
  while (!err)
    {
      err = pl_aead_parallel_finish (par, &o, &olen);
      if (!olen)
        break;
      g_byte_array_append (out, o, olen);
    }
  pl_aead_parallel_get_stats (par, stats);
  pl_aead_parallel_free (par);
  return err;
}

/* Which thread does a chunk: a spell over the whole stream leaves the
 * workers idle (every chunk on the caller's, counted); a spell of the
 * first chunks only gives the rest back to the workers.  Then the stage
 * on one CPU (the process pinned, as on a machine whose other core is
 * taken), where it starts spells of its own: a long stream still comes
 * out whole and in order, and a damaged chunk K lets nothing of K or
 * later out.  */
static void
test_parallel_spells (void)
{
  const size_t c = 1024, nchunks = 400, len = nchunks * c;
  size_t keylen, hdrlen, used;
  guint8 *key = random_key (PL_CIPHER_AES128, &keylen);
  guint8 *pt = g_malloc (len);
  pl_aead_header h;
  pl_aead_parallel_stats st;
  GByteArray *ct, *out = g_byte_array_new ();
  pl_aead_stream *s;
  cpu_set_t all, one;

  gcry_randomize (pt, len, GCRY_WEAK_RANDOM);
  random_header (&h, PL_AEAD_FORMAT_SEIPD2, PL_CIPHER_AES128,
                 PL_AEAD_OCB, 4);
  ct = encrypt_body (&h, key, keylen, pt, len, NULL);
  g_assert_cmpint (pl_aead_header_parse (&h, PL_AEAD_FORMAT_SEIPD2,
                                         ct->data, ct->len, &used), ==, 0);
  hdrlen = used;

  for (int threads = 2; threads <= 3; threads++)
    {
      g_assert_cmpint (pl_aead_stream_new (&s, &h, key, keylen, 0), ==, 0);
      g_byte_array_set_size (out, 0);
      g_assert_cmpint (run_counted (s, threads, 2 * nchunks,
                                    ct->data + hdrlen, ct->len - hdrlen,
                                    out, &st), ==, 0);
      g_assert_cmpmem (out->data, out->len, pt, len);
      g_assert_cmpuint (st.on_workers, ==, 0);
      g_assert_cmpuint (st.on_caller, ==, nchunks);
      pl_aead_stream_free (s);

      g_assert_cmpint (pl_aead_stream_new (&s, &h, key, keylen, 0), ==, 0);
      g_byte_array_set_size (out, 0);
      g_assert_cmpint (run_counted (s, threads, 10, ct->data + hdrlen,
                                    ct->len - hdrlen, out, &st), ==, 0);
      g_assert_cmpmem (out->data, out->len, pt, len);
      g_assert_cmpuint (st.on_caller + st.on_workers, ==, nchunks);
      g_assert_cmpuint (st.on_caller, >=, 10);
      pl_aead_stream_free (s);
    }

  g_assert_cmpint (sched_getaffinity (0, sizeof all, &all), ==, 0);
  CPU_ZERO (&one);
  CPU_SET (sched_getcpu (), &one);
  g_assert_cmpint (sched_setaffinity (0, sizeof one, &one), ==, 0);
  for (int damaged = 0; damaged < 2; damaged++)
    {
      const size_t k = 301;
      gpg_error_t err;

      if (damaged)
        ct->data[hdrlen + k * (c + TAG_LEN) + 5] ^= 0x10;
      g_assert_cmpint (pl_aead_stream_new (&s, &h, key, keylen, 0), ==, 0);
      g_byte_array_set_size (out, 0);
      err = run_counted (s, 2, 0, ct->data + hdrlen, ct->len - hdrlen, out,
                         &st);
      g_test_message ("one CPU: %" G_GUINT64_FORMAT " chunks on the caller, "
                      "%" G_GUINT64_FORMAT " on the worker, %"
                      G_GUINT64_FORMAT " misses, %" G_GUINT64_FORMAT
                      " spells", st.on_caller, st.on_workers, st.misses,
                      st.spells);
      if (damaged)
        {
          g_assert_cmpint (gpg_err_code (err), ==, GPG_ERR_CHECKSUM);
          g_assert_cmpuint (out->len % c, ==, 0);
          g_assert_cmpuint (out->len, <=, k * c);
        }
      else
        {
          g_assert_cmpint (err, ==, 0);
          g_assert_cmpuint (out->len, ==, len);
          g_assert_cmpuint (st.on_caller + st.on_workers, ==, nchunks);
        }
      g_assert_true (same (out->data, pt, out->len));
      pl_aead_stream_free (s);
    }
  g_assert_cmpint (sched_setaffinity (0, sizeof all, &all), ==, 0);

  g_byte_array_unref (out);
  g_byte_array_unref (ct);
  g_free (pt);
  gcry_free (key);
}


/* A test of a mode case, on one thread setting.  */
typedef struct
{
  const mode_case *mc;
  const thread_setting *ts;
  void (*fn) (gconstpointer data);
} setting_case;

static void
run_setting_case (gconstpointer data)
{
  const setting_case *sc = data;

  setting = sc->ts;
  sc->fn (sc->mc);
  setting = &thread_settings[0];
}

static void
add_case (const char *what, const char *fmt, const char *mode,
          const mode_case *mc, const thread_setting *ts,
          void (*fn) (gconstpointer data))
{
  /* Lives as long as the test program.  */
  setting_case *sc = g_new (setting_case, 1);
  char *path = g_strdup_printf ("/aead/%s/%s-%s/%s", what, fmt, mode,
                                ts->name);

  *sc = (setting_case) { mc, ts, fn };
  g_test_add_data_func_full (path, sc, run_setting_case, g_free);
  g_free (path);
}


int
main (int argc, char **argv)
{
  tu_init (&argc, &argv);

  g_test_add_data_func ("/aead/rfc9580/a9-eax", &seipd2_vectors[0],
                        test_rfc9580_seipd2);
  g_test_add_data_func ("/aead/rfc9580/a10-ocb", &seipd2_vectors[1],
                        test_rfc9580_seipd2);
  g_test_add_data_func ("/aead/rfc9580/a11-gcm", &seipd2_vectors[2],
                        test_rfc9580_seipd2);
  g_test_add_func ("/aead/librepgp/a3-ocb-packet", test_librepgp_ocb_packet);
  g_test_add_func ("/aead/header", test_header_parse);
  g_test_add_func ("/aead/sticky-error", test_sticky_error);
  g_test_add_func ("/aead/parallel-spells", test_parallel_spells);
  for (size_t i = 0; i < G_N_ELEMENTS (mode_cases); i++)
    {
      const mode_case *mc = &mode_cases[i];
      const char *fmt = (mc->format == PL_AEAD_FORMAT_SEIPD2
                         ? "seipd2" : "tag20");
      const char *mode = pl_aead_name (mc->aead_algo);
      char *path;

      for (size_t t = 0; t < G_N_ELEMENTS (thread_settings); t++)
        {
          add_case ("round-trip", fmt, mode, mc, &thread_settings[t],
                    test_round_trip);
          add_case ("tamper", fmt, mode, mc, &thread_settings[t],
                    test_tamper);
          add_case ("empty-zero-chunks", fmt, mode, mc, &thread_settings[t],
                    test_empty_zero_chunks);
        }
      path = g_strdup_printf ("/aead/chunks-threaded/%s-%s", fmt, mode);
      g_test_add_data_func (path, mc, test_chunks_threaded);
      g_free (path);
      path = g_strdup_printf ("/aead/parallel-order/%s-%s", fmt, mode);
      g_test_add_data_func (path, mc, test_parallel_order);
      g_free (path);
    }
  return g_test_run ();
}
