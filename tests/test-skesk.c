/* test-skesk.c - SKESK v4/v5/v6 and whole passphrase-encrypted messages
 *
 * RFC 9580 Appendix A.9-A.11 (v6 SKESK + v2 SEIPD, EAX/OCB/GCM) with
 * every intermediate value, A.12 (v4 SKESK with Argon2), LibrePGP A.3
 * (v5 SKESK + OCB packet), GnuPG's enc-sym-ocb sample messages, and
 * round trips of every version.
 */
#include <string.h>
#include <glib.h>
#include <gcrypt.h>

#include "algo.h"
#include "testutil.h"
#include "hkdf.h"
#include "s2k.h"
#include "skesk.h"
#include "aead.h"

/* The SKESK functions take the S2K output; the engine derives it in
 * keys.c.  These derive it here, from a passphrase, the same way. */
static gpg_error_t
skesk_decrypt_pw (const pl_skesk *skesk, const char *pw, size_t len,
                  uint32_t cap, uint8_t *sk, size_t *keylen, int *algo)
{
  uint8_t s2k_key[PL_SESSION_KEY_MAX];
  size_t n = pl_skesk_s2k_length (skesk);
  gpg_error_t err;

  *keylen = 0;
  *algo = 0;
  if (!n)
    return gpg_error (GPG_ERR_UNSUPPORTED_ALGORITHM);
  err = pl_s2k_derive (&skesk->s2k, pw, len, s2k_key, n, cap);
  if (!err)
    err = pl_skesk_decrypt (skesk, s2k_key, sk, keylen, algo);
  return err;
}

static gpg_error_t
skesk_encrypt_pw (pl_skesk *skesk, const char *pw, size_t len,
                  const uint8_t *sk, size_t keylen)
{
  uint8_t s2k_key[PL_SESSION_KEY_MAX];
  size_t n = pl_skesk_s2k_length (skesk);
  gpg_error_t err = 0;

  if (n && skesk->version >= 4 && skesk->version <= 6)
    err = pl_s2k_derive (&skesk->s2k, pw, len, s2k_key, n, 0);
  if (!err)
    err = pl_skesk_encrypt (skesk, s2k_key, sk, keylen);
  return err;
}

#define TAG_LEN 16
#define PASSWORD "password"

/* Runs a whole AEAD data packet body through a stream.  */
static gpg_error_t
aead_decrypt (pl_aead_format format, const guint8 *body, size_t len,
              const guint8 *key, size_t keylen, int want_cipher,
              GByteArray *out)
{
  gpg_error_t err;
  pl_aead_header h;
  pl_aead_stream *s;
  size_t used, olen;
  const uint8_t *o;

  err = pl_aead_header_parse (&h, format, body, len, &used);
  if (err)
    return err;
  if (want_cipher)
    g_assert_cmpint (h.cipher_algo, ==, want_cipher);
  err = pl_aead_stream_new (&s, &h, key, keylen, 0);
  if (err)
    return err;
  body += used;
  len -= used;
  while (len)
    {
      err = pl_aead_stream_push (s, body, len, &used, &o, &olen);
      if (err)
        goto leave;
      g_byte_array_append (out, o, olen);
      body += used;
      len -= used;
    }
  err = pl_aead_stream_finish (s, &o, &olen);
  if (!err)
    g_byte_array_append (out, o, olen);
 leave:
  pl_aead_stream_free (s);
  return err;
}

/* The decrypted stream starts with a Literal Data packet (new format,
 * one-octet length); returns its data.  */
static GBytes *
literal_data (const GByteArray *plain)
{
  g_autoptr(GArray) packets = NULL;
  const tu_packet *pk;
  size_t namelen;

  /* Only the first packet is needed; a Padding packet may follow.  */
  g_assert_cmpuint (plain->len, >=, 2);
  packets = tu_split_packets (plain->data, plain->len);
  pk = (const tu_packet *) packets->data;
  g_assert_cmpuint (packets->len, >=, 1);
  g_assert_cmpint (pk[0].tag, ==, 11);
  g_assert_cmpuint (pk[0].len, >=, 6);
  namelen = pk[0].body[1];
  g_assert_cmpuint (pk[0].len, >=, 6 + namelen);
  return g_bytes_new (pk[0].body + 6 + namelen, pk[0].len - 6 - namelen);
}

static void
assert_literal (const GByteArray *plain, const char *want)
{
  GBytes *data = literal_data (plain);
  gsize n;
  const char *p = g_bytes_get_data (data, &n);

  g_assert_cmpmem (p, n, want, strlen (want));
  g_bytes_unref (data);
}

/* RFC 9580 Appendix A.9.1-2, A.10.1-2, A.11.1-2: the v6 SKESK packets
 * (packet header c3 xx, then the body), with the values listed there;
 * A.x.3 the v2 SEIPD packets that follow.  */
typedef struct
{
  int aead_algo;
  const char *skesk;
  const char *s2k_key;
  const char *kek;
  const char *iv;
  const char *session_key;
  const char *seipd;
  const char *padding;
} v6_vector;

static const v6_vector v6_vectors[] = {
  { /* A.9 EAX */
    PL_AEAD_EAX,
    "c340061e07010b0308a5ae579d1fc5d82bff69224f919993b3506fa3b59a6a73cff8"
    "c5efc5f41c57fb54e1c226815d7828f5f92c454eb65ebe00ab5986c68e6e7c55",
    "154967e590aa1f923e1c0ac64c88f23d",
    "2fce331f39dd955cc41e95d870c72139",
    "69224f919993b3506fa3b59a6a73cff8",
    "3881bafe985412459b86c36f98cb9a5e",
    "d269020701069ff90e3b321964f3a42913c8dcc6619325015227efb7eaeaa49f04c2"
    "e674175d4a3d226ed6afcb9ca9ac122c1470e11c63d4c0ab241c6a938ad48bf99a5a"
    "99b90bba8325de61047540258ab7959a95ad051dda96eb15431dfef5f5e2255ca782"
    "61546e339a",
    "d50eae5bf0cd67055003 55816cb0c8ff"
  },
  { /* A.10 OCB */
    PL_AEAD_OCB,
    "c33f061d07020b030856a298d2f5e36453ffcfcc5c11664edb9db42590d7dc46b072"
    "41b612c3812cfffbea00f2347b25641123f887ae60d4fd614e0837d819d36c",
    "e80de243a362d93b9dc607ede96a7356",
    "38a9b345b5680bb61bb65d73eec7ecd9",
    "cfcc5c11664edb9db42590d7dc46b0",
    "28e79ab82397d3c63de24ac217d7b791",
    "d2690207020620a661f731fc9a3032b5623326027e3a5d8db5748ebeff0b0c5910d0"
    "9ecdd641ff9fd38562758035bc49754ce1bf3fffa7dad0a3b8104f5133cf42a4100a"
    "83eef4ca1b4801a8846bf42bcda7c8ce9d65e212f301cbcd98fdcade694a877ad424"
    "7323f6e857",
    "d50eae6aa1649b56aa835b2613902bd2"
  },
  { /* A.11 GCM */
    PL_AEAD_GCM,
    "c33c061a07030b0308e9d39785b2070008ffb42e7c483ef4884457cb3726b9b3db9f"
    "f776e5f4d9a40952e2447298851abfff7526df2dd554417579a7799f",
    "250281715bba7828ef71ef64c4784753",
    "7a6f9ab7f99f7ef8dbef841c650800f5",
    "b42e7c483ef4884457cb3726",
    "1936fc8568980274bb900d8319360c77",
    "d26902070306fcb94490bcb98bbdc9d106c6090266940f72e89edc21b5596b1576b1"
    "01ed0f9ffc6fc6d65bbfd24dcd0790966e6d1e85a30053784cb1d8b6a0699ef12155"
    "a7b2ad6258531b57651fd7777912fa95e35d9b40216f69a4c248db28ff4331f16329"
    "07399e6ff9",
    "d50e1ce2269a9eddef81032172b7ed7c"
  },
};

static void
test_rfc9580_v6 (gconstpointer data)
{
  const v6_vector *v = data;
  GByteArray *skesk_pkt = tu_unhex (v->skesk);
  GByteArray *seipd_pkt = tu_unhex (v->seipd);
  GByteArray *want_sk = tu_unhex (v->session_key);
  GByteArray *pad = tu_unhex (v->padding);
  GByteArray *plain = g_byte_array_new ();
  const guint8 *body = skesk_pkt->data + 2;
  size_t body_len = skesk_pkt->len - 2;
  guint8 *sk = gcry_malloc_secure (PL_SESSION_KEY_MAX);
  guint8 *tmp = gcry_malloc_secure (32);
  guint8 info[4] = { 0xc3, 0x06, 0x07, (guint8) v->aead_algo };
  guint8 again[PL_SKESK_BODY_MAX];
  pl_skesk skesk;
  size_t keylen;
  int cipher_algo;

  g_assert_cmphex (skesk_pkt->data[0], ==, 0xc3);
  g_assert_cmpuint (skesk_pkt->data[1], ==, body_len);
  g_assert_cmpint (pl_skesk_parse (&skesk, body, body_len), ==, 0);
  g_assert_cmpint (skesk.version, ==, 6);
  g_assert_cmpint (skesk.cipher_algo, ==, PL_CIPHER_AES128);
  g_assert_cmpint (skesk.aead_algo, ==, v->aead_algo);
  g_assert_cmpint (skesk.s2k.type, ==, PL_S2K_ITERATED);
  g_assert_cmpint (skesk.s2k.hash_algo, ==, PL_HASH_SHA256);
  g_assert_cmpuint (skesk.s2k.coded_count, ==, 0xff);
  g_assert_cmpuint (pl_s2k_decode_count (0xff), ==, 65011712);
  g_assert_cmpmem (skesk.s2k.salt, 8, body + 7, 8);
  tu_assert_hex (skesk.iv, skesk.iv_len, v->iv);
  g_assert_cmpuint (skesk.esk_len, ==, 16 + TAG_LEN);
  g_assert_cmpmem (skesk.esk, skesk.esk_len, body + body_len - 32, 32);

  /* Serialising gives the same body back.  */
  g_assert_cmpmem (again, pl_skesk_write (&skesk, again), body, body_len);

  /* S2K-derived key, then the KEK: HKDF, no salt, info c3 06 07 xx.  */
  g_assert_cmpint (pl_s2k_derive (&skesk.s2k, PASSWORD, 8, tmp, 16, 0),
                   ==, 0);
  tu_assert_hex (tmp, 16, v->s2k_key);
  g_assert_cmpint (pl_hkdf_sha256 (NULL, 0, tmp, 16, info, 4, tmp + 16, 16),
                   ==, 0);
  tu_assert_hex (tmp + 16, 16, v->kek);

  /* The session key; v6 names no data cipher.  */
  g_assert_cmpint (skesk_decrypt_pw (&skesk, PASSWORD, 8, 0, sk, &keylen,
                                     &cipher_algo), ==, 0);
  g_assert_cmpmem (sk, keylen, want_sk->data, want_sk->len);
  g_assert_cmpint (cipher_algo, ==, 0);

  /* The message.  */
  g_assert_cmphex (seipd_pkt->data[0], ==, 0xd2);
  g_assert_cmpint (aead_decrypt (PL_AEAD_FORMAT_SEIPD2, seipd_pkt->data + 2,
                                 seipd_pkt->len - 2, sk, keylen,
                                 PL_CIPHER_AES128, plain), ==, 0);
  assert_literal (plain, "Hello, world!");
  /* Then the Padding packet of A.x.4.  */
  g_assert_cmpuint (plain->len, ==, 21 + 16);
  g_assert_cmpmem (plain->data + 21, 16, pad->data, pad->len);

  /* A wrong passphrase fails the tag.  */
  g_assert_cmpint (gpg_err_code (skesk_decrypt_pw (&skesk, "passwore", 8, 0,
                                                   sk, &keylen,
                                                   &cipher_algo)),
                   ==, GPG_ERR_BAD_PASSPHRASE);
  g_assert_cmpuint (keylen, ==, 0);

  /* So does any damage to the packet.  */
  {
    pl_skesk bad = skesk;

    bad.esk[3] ^= 1;
    g_assert_cmpint (gpg_err_code (skesk_decrypt_pw (&bad, PASSWORD, 8, 0,
                                                     sk, &keylen,
                                                     &cipher_algo)),
                     ==, GPG_ERR_BAD_PASSPHRASE);
    bad = skesk;
    bad.iv[0] ^= 1;
    g_assert_cmpint (gpg_err_code (skesk_decrypt_pw (&bad, PASSWORD, 8, 0,
                                                     sk, &keylen,
                                                     &cipher_algo)),
                     ==, GPG_ERR_BAD_PASSPHRASE);
  }

  pl_wipe (tmp, 32);
  gcry_free (tmp);
  gcry_free (sk);
  g_byte_array_unref (skesk_pkt);
  g_byte_array_unref (seipd_pkt);
  g_byte_array_unref (want_sk);
  g_byte_array_unref (pad);
  g_byte_array_unref (plain);
}

/* LibrePGP (draft-koch-librepgp-02) Appendix A.3: the v5 SKESK of A.3.2
 * and the OCB Encrypted Data packet of A.3.4, as in A.3.6.  */
static const char librepgp_a3_skesk[] =
  "c33d05070203089f0b7da3e5ea64779099e326e5400a90936cefb4e8eba08c6773"
  "716d1f2714540a38fcac529949dac529d3de31e15b4aeb729e330033dbed";
static const char librepgp_a3_ocb[] =
  "d4490107020e5ed2bc1e470abe8f1d644c7a6c8a567b0f7701196611a154ba9c25"
  "74cd056284a8ef68035c623d93cc708a43211bb6eaf2b27f7c18d571bcd83b20ad"
  "d3a08b73af15b9a098";

static void
test_librepgp_v5 (void)
{
  GByteArray *pkt = tu_unhex (librepgp_a3_skesk);
  GByteArray *ocb = tu_unhex (librepgp_a3_ocb);
  GByteArray *plain = g_byte_array_new ();
  guint8 *sk = gcry_malloc_secure (PL_SESSION_KEY_MAX);
  guint8 again[PL_SKESK_BODY_MAX];
  pl_skesk skesk;
  size_t keylen;
  int cipher_algo;

  g_assert_cmpuint (pkt->data[1], ==, pkt->len - 2);
  g_assert_cmpint (pl_skesk_parse (&skesk, pkt->data + 2, pkt->len - 2),
                   ==, 0);
  g_assert_cmpint (skesk.version, ==, 5);
  g_assert_cmpint (skesk.cipher_algo, ==, PL_CIPHER_AES128);
  g_assert_cmpint (skesk.aead_algo, ==, PL_AEAD_OCB);
  /* A.3.1: iterated and salted, SHA2-256, 524288 octets (coded 144).  */
  g_assert_cmpint (skesk.s2k.type, ==, PL_S2K_ITERATED);
  g_assert_cmpint (skesk.s2k.hash_algo, ==, PL_HASH_SHA256);
  g_assert_cmpuint (skesk.s2k.coded_count, ==, 144);
  g_assert_cmpuint (pl_s2k_decode_count (144), ==, 524288);
  tu_assert_hex (skesk.s2k.salt, 8, "9f0b7da3e5ea6477");
  tu_assert_hex (skesk.iv, skesk.iv_len, "99e326e5400a90936cefb4e8eba08c");
  tu_assert_hex (skesk.esk, skesk.esk_len,
              "6773716d1f2714540a38fcac529949da"
              "c529d3de31e15b4aeb729e330033dbed");
  g_assert_cmpmem (again, pl_skesk_write (&skesk, again), pkt->data + 2,
                   pkt->len - 2);

  /* A.3.3: the derived key is the KEK as is.  */
  g_assert_cmpint (pl_s2k_derive (&skesk.s2k, PASSWORD, 8, sk, 16, 0), ==, 0);
  tu_assert_hex (sk, 16, "eb9da78a9d5df80ec7020596399b6508");

  g_assert_cmpint (skesk_decrypt_pw (&skesk, PASSWORD, 8, 0, sk, &keylen,
                                     &cipher_algo), ==, 0);
  tu_assert_hex (sk, keylen, "d1f01ba30e130aa7d2582c16e050ae44");
  g_assert_cmpint (cipher_algo, ==, PL_CIPHER_AES128);

  g_assert_cmpint (aead_decrypt (PL_AEAD_FORMAT_OCB_ENCRYPTED, ocb->data + 2,
                                 ocb->len - 2, sk, keylen, cipher_algo,
                                 plain), ==, 0);
  assert_literal (plain, "Hello, world!\n");

  g_assert_cmpint (gpg_err_code (skesk_decrypt_pw (&skesk, "Password", 8, 0,
                                                   sk, &keylen,
                                                   &cipher_algo)),
                   ==, GPG_ERR_BAD_PASSPHRASE);

  gcry_free (sk);
  g_byte_array_unref (pkt);
  g_byte_array_unref (ocb);
  g_byte_array_unref (plain);
}

static void
test_gnupg_sample (gconstpointer data)
{
  const char *name = data;
  char *path = tu_data_path (name);
  char *text = NULL;
  GBytes *bin;
  const guint8 *p;
  gsize len;
  g_autoptr(GArray) packets = NULL;
  const tu_packet *pk;
  size_t keylen;
  pl_skesk skesk;
  guint8 *sk = gcry_malloc_secure (PL_SESSION_KEY_MAX);
  GByteArray *plain = g_byte_array_new ();
  int cipher_algo;
  GError *error = NULL;

  g_assert_true (g_file_get_contents (path, &text, NULL, &error));
  g_assert_no_error (error);
  g_assert_nonnull (strstr (text, "passphrase \"password\""));
  bin = tu_dearmor (text);
  p = g_bytes_get_data (bin, &len);

  packets = tu_split_packets (p, len);
  pk = (const tu_packet *) packets->data;
  g_assert_cmpuint (packets->len, ==, 2);
  g_assert_cmpint (pk[0].tag, ==, 3);
  g_assert_cmpint (pk[1].tag, ==, 20);

  g_assert_cmpint (pl_skesk_parse (&skesk, pk[0].body, pk[0].len), ==, 0);
  g_assert_cmpint (skesk.version, ==, 5);
  g_assert_cmpint (skesk.aead_algo, ==, PL_AEAD_OCB);
  g_assert_cmpint (skesk_decrypt_pw (&skesk, PASSWORD, 8, 0, sk, &keylen,
                                     &cipher_algo), ==, 0);
  g_assert_cmpuint (keylen, ==, pl_cipher_key_length (cipher_algo));
  g_assert_cmpint (aead_decrypt (PL_AEAD_FORMAT_OCB_ENCRYPTED, pk[1].body,
                                 pk[1].len, sk, keylen, cipher_algo, plain),
                   ==, 0);
  assert_literal (plain, "Hello, world!\n");
  if (strstr (text, "AES256"))
    g_assert_cmpint (cipher_algo, ==, PL_CIPHER_AES256);
  else
    g_assert_cmpint (cipher_algo, ==, PL_CIPHER_AES128);

  gcry_free (sk);
  g_byte_array_unref (plain);
  g_bytes_unref (bin);
  g_free (text);
  g_free (path);
}

/* RFC 9580 Appendix A.12.1-3: v4 SKESK with Argon2 (t = 1, p = 4,
 * m = 2^21 KiB: 2 GiB each) and a v1 SEIPD; the session keys are those
 * in the armor comments.  The v1 SEIPD is checked here with plain
 * libgcrypt CFB, since that packet is not this module's.  */
typedef struct
{
  int cipher_algo;
  const char *armor;
  const char *session_key;
} argon2_vector;

static const argon2_vector argon2_vectors[] = {
  { PL_CIPHER_AES128,
    "-----BEGIN PGP MESSAGE-----\n"
    "Comment: Encrypted using AES with 128-bit key\n"
    "Comment: Session key: 01FE16BBACFD1E7B78EF3B865187374F\n"
    "\n"
    "wycEBwScUvg8J/leUNU1RA7N/zE2AQQVnlL8rSLPP5VlQsunlO+ECxHSPgGYGKY+\n"
    "YJz4u6F+DDlDBOr5NRQXt/KJIf4m4mOlKyC/uqLbpnLJZMnTq3o79GxBTdIdOzhH\n"
    "XfA3pqV4mTzF\n"
    "-----END PGP MESSAGE-----\n",
    "01FE16BBACFD1E7B78EF3B865187374F" },
  { PL_CIPHER_AES192,
    "-----BEGIN PGP MESSAGE-----\n"
    "Comment: Encrypted using AES with 192-bit key\n"
    "Comment: Session key: 27006DAE68E509022CE45A14E569E91001C2955...\n"
    "Comment: Session key: ...AF8DFE194\n"
    "\n"
    "wy8ECAThTKxHFTRZGKli3KNH4UP4AQQVhzLJ2va3FG8/pmpIPd/H/mdoVS5VBLLw\n"
    "F9I+AdJ1Sw56PRYiKZjCvHg+2bnq02s33AJJoyBexBI4QKATFRkyez2gldJldRys\n"
    "LVg77Mwwfgl2n/d572WciAM=\n"
    "-----END PGP MESSAGE-----\n",
    "27006DAE68E509022CE45A14E569E91001C2955AF8DFE194" },
  { PL_CIPHER_AES256,
    "-----BEGIN PGP MESSAGE-----\n"
    "Comment: Encrypted using AES with 256-bit key\n"
    "Comment: Session key: BBEDA55B9AAE63DAC45D4F49D89DACF4AF37FEF...\n"
    "Comment: Session key: ...C13BAB2F1F8E18FB74580D8B0\n"
    "\n"
    "wzcECQS4eJUgIG/3mcaILEJFpmJ8AQQVnZ9l7KtagdClm9UaQ/Z6M/5roklSGpGu\n"
    "623YmaXezGj80j4B+Ku1sgTdJo87X1Wrup7l0wJypZls21Uwd67m9koF60eefH/K\n"
    "95D1usliXOEm8ayQJQmZrjf6K6v9PWwqMQ==\n"
    "-----END PGP MESSAGE-----\n",
    "BBEDA55B9AAE63DAC45D4F49D89DACF4AF37FEFC13BAB2F1F8E18FB74580D8B0" },
};

static void
check_seipd1 (const tu_packet *pk, const guint8 *key, size_t keylen,
              int cipher_algo)
{
  gcry_cipher_hd_t hd;
  guint8 *plain;
  size_t len = pk->len - 1, bs = 16;
  guint8 mdc[20];
  GByteArray *lit = g_byte_array_new ();

  g_assert_cmpint (pk->tag, ==, 18);
  g_assert_cmpuint (pk->body[0], ==, 1);
  plain = g_malloc (len);
  g_assert_cmpint (gcry_cipher_open (&hd, pl_cipher_gcry_algo (cipher_algo),
                                     GCRY_CIPHER_MODE_CFB, 0), ==, 0);
  g_assert_cmpint (gcry_cipher_setkey (hd, key, keylen), ==, 0);
  g_assert_cmpint (gcry_cipher_decrypt (hd, plain, len, pk->body + 1, len),
                   ==, 0);
  gcry_cipher_close (hd);
  /* Quick check, then the MDC packet: SHA-1 over everything before it
   * and its own two header octets.  */
  g_assert_cmpmem (plain + bs - 2, 2, plain + bs, 2);
  g_assert_cmpmem (plain + len - 22, 2, "\xd3\x14", 2);
  gcry_md_hash_buffer (GCRY_MD_SHA1, mdc, plain, len - 20);
  g_assert_cmpmem (mdc, 20, plain + len - 20, 20);
  g_byte_array_append (lit, plain + bs + 2, len - bs - 2 - 22);
  assert_literal (lit, "Hello, world!");
  g_byte_array_unref (lit);
  g_free (plain);
}

static void
test_rfc9580_argon2 (gconstpointer data)
{
  const argon2_vector *v = data;
  GBytes *bin = tu_dearmor (v->armor);
  GByteArray *want = tu_unhex (v->session_key);
  gsize len;
  const guint8 *p = g_bytes_get_data (bin, &len);
  g_autoptr(GArray) packets = tu_split_packets (p, len);
  const tu_packet *pk = (const tu_packet *) packets->data;
  pl_skesk skesk;
  guint8 *sk = gcry_malloc_secure (PL_SESSION_KEY_MAX);
  size_t keylen;
  int cipher_algo;

  g_assert_cmpuint (packets->len, ==, 2);
  g_assert_cmpint (pk[0].tag, ==, 3);
  g_assert_cmpint (pl_skesk_parse (&skesk, pk[0].body, pk[0].len), ==, 0);
  g_assert_cmpint (skesk.version, ==, 4);
  g_assert_cmpint (skesk.cipher_algo, ==, v->cipher_algo);
  g_assert_cmpint (skesk.s2k.type, ==, PL_S2K_ARGON2);
  g_assert_cmpuint (skesk.s2k.passes, ==, 1);
  g_assert_cmpuint (skesk.s2k.parallelism, ==, 4);
  g_assert_cmpuint (skesk.s2k.memory_exp, ==, 21);
  g_assert_cmpuint (skesk.esk_len, ==, 1 + want->len);

  /* A cap below 2 GiB refuses before allocating anything.  */
  g_assert_cmpint (gpg_err_code (skesk_decrypt_pw (&skesk, PASSWORD, 8,
                                                   1024 * 1024, sk, &keylen,
                                                   &cipher_algo)),
                   ==, GPG_ERR_TOO_LARGE);

  g_assert_cmpint (skesk_decrypt_pw (&skesk, PASSWORD, 8, 0, sk, &keylen,
                                     &cipher_algo), ==, 0);
  g_assert_cmpint (cipher_algo, ==, v->cipher_algo);
  g_assert_cmpmem (sk, keylen, want->data, want->len);
  check_seipd1 (&pk[1], sk, keylen, cipher_algo);

  gcry_free (sk);
  g_byte_array_unref (want);
  g_bytes_unref (bin);
}

/* Encrypt, write, parse, decrypt for every version and mode.  */
static void
test_round_trip (void)
{
  static const struct
  {
    int version, cipher_algo, aead_algo, with_key;
  } cases[] = {
    { 4, PL_CIPHER_AES256, 0, 0 },
    { 4, PL_CIPHER_AES128, 0, 1 },
    { 4, PL_CIPHER_CAST5, 0, 1 },
    { 5, PL_CIPHER_AES128, PL_AEAD_OCB, 1 },
    { 5, PL_CIPHER_AES256, PL_AEAD_EAX, 1 },
    { 6, PL_CIPHER_AES128, PL_AEAD_OCB, 1 },
    { 6, PL_CIPHER_AES256, PL_AEAD_EAX, 1 },
    { 6, PL_CIPHER_CAMELLIA256, PL_AEAD_GCM, 1 },
  };
  guint8 *sk = gcry_malloc_secure (PL_SESSION_KEY_MAX);
  guint8 *got = gcry_malloc_secure (PL_SESSION_KEY_MAX);
  guint8 *direct = gcry_malloc_secure (PL_SESSION_KEY_MAX);

  for (size_t i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      pl_skesk skesk, parsed;
      guint8 body[PL_SKESK_BODY_MAX];
      size_t len, keylen, glen;
      int cipher_algo;
      /* v6 may wrap a key for another cipher than its own.  */
      size_t sklen = (cases[i].version == 6 && i == 5
                      ? 32 : pl_cipher_key_length (cases[i].cipher_algo));

      memset (&skesk, 0, sizeof skesk);
      skesk.version = cases[i].version;
      skesk.cipher_algo = cases[i].cipher_algo;
      skesk.aead_algo = cases[i].aead_algo;
      g_assert_cmpint (pl_s2k_new_iterated (&skesk.s2k, PL_HASH_SHA256, 1),
                       ==, 0);
      gcry_randomize (sk, sklen, GCRY_WEAK_RANDOM);
      g_assert_cmpint (skesk_encrypt_pw (&skesk, "sekrit", 6,
                                         cases[i].with_key ? sk : NULL,
                                         sklen), ==, 0);
      len = pl_skesk_write (&skesk, body);
      g_assert_cmpuint (len, <=, PL_SKESK_BODY_MAX);
      g_assert_cmpint (pl_skesk_parse (&parsed, body, len), ==, 0);
      g_assert_cmpint (parsed.version, ==, cases[i].version);
      g_assert_cmpuint (parsed.esk_len, ==, skesk.esk_len);
      g_assert_cmpint (skesk_decrypt_pw (&parsed, "sekrit", 6, 0, got, &glen,
                                         &cipher_algo), ==, 0);
      if (!cases[i].with_key)
        {
          /* gpg -c style: the S2K output is the session key.  */
          g_assert_cmpuint (parsed.esk_len, ==, 0);
          g_assert_cmpint (pl_s2k_derive (&parsed.s2k, "sekrit", 6, direct,
                                          sklen, 0), ==, 0);
          g_assert_cmpmem (got, glen, direct, sklen);
        }
      else
        g_assert_cmpmem (got, glen, sk, sklen);
      g_assert_cmpint (cipher_algo, ==,
                       cases[i].version == 6 ? 0 : cases[i].cipher_algo);

      if (sklen == 32 && cases[i].version == 6)
        {
          /* Cut to a 24-octet key: well-formed, but the tag fails.  */
          g_assert_cmpint (pl_skesk_parse (&parsed, body, len - 8), ==, 0);
          g_assert_cmpint (gpg_err_code (skesk_decrypt_pw (&parsed, "sekrit",
                                                           6, 0, got, &glen,
                                                           &cipher_algo)),
                           ==, GPG_ERR_BAD_PASSPHRASE);
          g_assert_cmpint (pl_skesk_parse (&parsed, body, len), ==, 0);
        }

      keylen = 0;
      if (cases[i].version != 4)
        g_assert_cmpint (gpg_err_code (skesk_decrypt_pw (&parsed, "sekriT", 6,
                                                         0, got, &keylen,
                                                         &cipher_algo)),
                         ==, GPG_ERR_BAD_PASSPHRASE);
      g_assert_cmpuint (keylen, ==, 0);
    }

  /* v4 with a key needs a salt; v5 wraps only its own cipher's key.  */
  {
    pl_skesk skesk;

    memset (&skesk, 0, sizeof skesk);
    skesk.version = 4;
    skesk.cipher_algo = PL_CIPHER_AES128;
    skesk.s2k.type = PL_S2K_SIMPLE;
    skesk.s2k.hash_algo = PL_HASH_SHA256;
    g_assert_cmpint (gpg_err_code (skesk_encrypt_pw (&skesk, "x", 1, sk, 16)),
                     ==, GPG_ERR_INV_ARG);
    skesk.version = 5;
    skesk.aead_algo = PL_AEAD_OCB;
    g_assert_cmpint (gpg_err_code (skesk_encrypt_pw (&skesk, "x", 1, sk, 32)),
                     ==, GPG_ERR_INV_KEYLEN);
  }

  gcry_free (sk);
  gcry_free (got);
  gcry_free (direct);
}

static void
test_parse_errors (void)
{
  GByteArray *v6 = tu_unhex (v6_vectors[1].skesk);
  GByteArray *v5 = tu_unhex (librepgp_a3_skesk);
  guint8 b[PL_SKESK_BODY_MAX];
  const guint8 *v6b = v6->data + 2;
  size_t v6len = v6->len - 2, v5len = v5->len - 2;
  pl_skesk skesk;

  /* Every truncation of a v5 or v6 body is malformed.  (A v6 body
   * wrapping a 32-octet key could be cut to a 24- or 16-octet one, which
   * only the tag rejects; these wrap 16 octets, the shortest.)  */
  for (size_t n = 0; n < v6len; n++)
    g_assert_cmpint (gpg_err_code (pl_skesk_parse (&skesk, v6b, n)),
                     ==, GPG_ERR_INV_PACKET);
  for (size_t n = 0; n < v5len; n++)
    g_assert_cmpint (gpg_err_code (pl_skesk_parse (&skesk, v5->data + 2, n)),
                     ==, GPG_ERR_INV_PACKET);

  memcpy (b, v6b, v6len);
  b[0] = 3;
  g_assert_cmpint (gpg_err_code (pl_skesk_parse (&skesk, b, v6len)),
                   ==, GPG_ERR_UNKNOWN_VERSION);
  memcpy (b, v6b, v6len);
  b[1]++;                       /* The count octet.  */
  g_assert_cmpint (gpg_err_code (pl_skesk_parse (&skesk, b, v6len)),
                   ==, GPG_ERR_INV_PACKET);
  memcpy (b, v6b, v6len);
  b[4]--;                       /* The S2K length.  */
  g_assert_cmpint (gpg_err_code (pl_skesk_parse (&skesk, b, v6len)),
                   ==, GPG_ERR_INV_PACKET);
  memcpy (b, v6b, v6len);
  b[2] = PL_CIPHER_CAST5;       /* 8-octet blocks: no AEAD.  */
  g_assert_cmpint (gpg_err_code (pl_skesk_parse (&skesk, b, v6len)),
                   ==, GPG_ERR_UNSUPPORTED_ALGORITHM);
  memcpy (b, v6b, v6len);
  b[3] = 9;                     /* No such AEAD mode.  */
  g_assert_cmpint (gpg_err_code (pl_skesk_parse (&skesk, b, v6len)),
                   ==, GPG_ERR_UNSUPPORTED_ALGORITHM);
  memcpy (b, v6b, v6len);
  b[5] = 101;                   /* GnuPG's private S2K.  */
  g_assert_cmpint (gpg_err_code (pl_skesk_parse (&skesk, b, v6len)),
                   ==, GPG_ERR_UNSUPPORTED_ALGORITHM);
  memcpy (b, v6b, v6len);
  b[6] = 77;                    /* Unknown S2K hash.  */
  g_assert_cmpint (gpg_err_code (pl_skesk_parse (&skesk, b, v6len)),
                   ==, GPG_ERR_UNSUPPORTED_ALGORITHM);
  /* An overlong encrypted key.  */
  memcpy (b, v6b, v6len);
  memset (b + v6len, 0, 32);
  g_assert_cmpint (gpg_err_code (pl_skesk_parse (&skesk, b, v6len + 32)),
                   ==, GPG_ERR_INV_PACKET);
  /* v5's key must fit its cipher.  */
  memcpy (b, v5->data + 2, v5len);
  b[1] = PL_CIPHER_AES256;
  g_assert_cmpint (gpg_err_code (pl_skesk_parse (&skesk, b, v5len)),
                   ==, GPG_ERR_INV_PACKET);

  /* v4: 1-octet ESK, or one too long, are malformed.  */
  {
    static const guint8 v4[] = { 4, 7, 3, 8, 1, 2, 3, 4, 5, 6, 7, 8, 0x60 };

    memcpy (b, v4, sizeof v4);
    g_assert_cmpint (pl_skesk_parse (&skesk, b, sizeof v4), ==, 0);
    g_assert_cmpuint (skesk.esk_len, ==, 0);
    g_assert_cmpint (gpg_err_code (pl_skesk_parse (&skesk, b,
                                                   sizeof v4 + 1)),
                     ==, GPG_ERR_INV_PACKET);
    g_assert_cmpint (pl_skesk_parse (&skesk, b, sizeof v4 + 17), ==, 0);
    g_assert_cmpint (gpg_err_code (pl_skesk_parse (&skesk, b,
                                                   sizeof v4 + 34)),
                     ==, GPG_ERR_INV_PACKET);
    b[1] = 99;
    g_assert_cmpint (gpg_err_code (pl_skesk_parse (&skesk, b, sizeof v4)),
                     ==, GPG_ERR_UNSUPPORTED_ALGORITHM);
  }

  g_byte_array_unref (v6);
  g_byte_array_unref (v5);
}

int
main (int argc, char **argv)
{
  tu_init (&argc, &argv);

  g_test_add_data_func ("/skesk/rfc9580/a9-eax", &v6_vectors[0],
                        test_rfc9580_v6);
  g_test_add_data_func ("/skesk/rfc9580/a10-ocb", &v6_vectors[1],
                        test_rfc9580_v6);
  g_test_add_data_func ("/skesk/rfc9580/a11-gcm", &v6_vectors[2],
                        test_rfc9580_v6);
  g_test_add_func ("/skesk/librepgp/a3-v5", test_librepgp_v5);
  g_test_add_data_func ("/skesk/gnupg/enc-sym-ocb-1",
                        "gnupg-enc-sym-ocb-1.asc", test_gnupg_sample);
  g_test_add_data_func ("/skesk/gnupg/enc-sym-ocb-2",
                        "gnupg-enc-sym-ocb-2.asc", test_gnupg_sample);
  g_test_add_func ("/skesk/round-trip", test_round_trip);
  g_test_add_func ("/skesk/parse-errors", test_parse_errors);
  /* 2 GiB of Argon2 memory each.  */
  g_test_add_data_func ("/skesk/rfc9580/a12-argon2-aes128",
                        &argon2_vectors[0], test_rfc9580_argon2);
  g_test_add_data_func ("/skesk/rfc9580/a12-argon2-aes192",
                        &argon2_vectors[1], test_rfc9580_argon2);
  g_test_add_data_func ("/skesk/rfc9580/a12-argon2-aes256",
                        &argon2_vectors[2], test_rfc9580_argon2);
  return g_test_run ();
}
