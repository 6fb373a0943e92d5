/* packet-builder.c - hostile OpenPGP messages, built by hand for tests */
#include "packet-builder.h"

#include <string.h>
#include <bzlib.h>
#include <gcrypt.h>
#include <zlib.h>

#include "s2k.h"

static void
put_length (GByteArray *out, gsize len)
{
  guint8 b[5];

  if (len < 192)
    {
      b[0] = (guint8) len;
      g_byte_array_append (out, b, 1);
    }
  else if (len < 8384)
    {
      b[0] = (guint8) (((len - 192) >> 8) + 192);
      b[1] = (guint8) ((len - 192) & 0xFF);
      g_byte_array_append (out, b, 2);
    }
  else
    {
      b[0] = 0xFF;
      b[1] = (guint8) (len >> 24);
      b[2] = (guint8) (len >> 16);
      b[3] = (guint8) (len >> 8);
      b[4] = (guint8) len;
      g_byte_array_append (out, b, 5);
    }
}

void
pb_packet (GByteArray *out, int tag, const void *body, gsize len)
{
  guint8 t = (guint8) (0xC0 | tag);

  g_byte_array_append (out, &t, 1);
  put_length (out, len);
  g_byte_array_append (out, body, (guint) len);
}

void
pb_packet_partial (GByteArray *out, int tag, const void *body, gsize len,
                   int chunk_exp)
{
  const guint8 *p = body;
  gsize chunk = (gsize) 1 << chunk_exp;
  guint8 t = (guint8) (0xC0 | tag), o = (guint8) (0xE0 | chunk_exp);
  guint8 first = 0xE0 | 9;

  g_byte_array_append (out, &t, 1);
  /* RFC 9580 §4.2.1.4: the first partial length is at least 512. */
  if (chunk < 512 && len > 512)
    {
      g_byte_array_append (out, &first, 1);
      g_byte_array_append (out, p, 512);
      p += 512;
      len -= 512;
    }
  /* At least one octet must be left for the final definite length. */
  while (len > chunk)
    {
      g_byte_array_append (out, &o, 1);
      g_byte_array_append (out, p, (guint) chunk);
      p += chunk;
      len -= chunk;
    }
  put_length (out, len);
  g_byte_array_append (out, p, (guint) len);
}

void
pb_packet_indeterminate (GByteArray *out, int tag, const void *body,
                         gsize len)
{
  guint8 t = (guint8) (0x80 | (tag << 2) | 3);

  g_byte_array_append (out, &t, 1);
  g_byte_array_append (out, body, (guint) len);
}

GByteArray *
pb_literal_body (const void *data, gsize len)
{
  static const guint8 head[6] = { 'b', 0, 0, 0, 0, 0 };
  GByteArray *b = g_byte_array_new ();

  g_byte_array_append (b, head, sizeof head);
  g_byte_array_append (b, data, (guint) len);
  return b;
}

GByteArray *
pb_compressed_body (int algo, const void *data, gsize len)
{
  GByteArray *b = g_byte_array_new ();
  guint8 a = (guint8) algo;
  gsize cap = len + len / 100 + 1024;
  guint8 *buf = g_malloc (cap);

  g_byte_array_append (b, &a, 1);
  if (algo == 3)
    {
      unsigned int n = (unsigned int) cap;
      g_assert_cmpint (BZ2_bzBuffToBuffCompress ((char *) buf, &n,
                                                 (char *) data,
                                                 (unsigned int) len, 9, 0,
                                                 0), ==, BZ_OK);
      g_byte_array_append (b, buf, n);
    }
  else
    {
      z_stream z;
      memset (&z, 0, sizeof z);
      /* ZIP is raw deflate; ZLIB has the zlib header. */
      g_assert_cmpint (deflateInit2 (&z, 9, Z_DEFLATED, algo == 1 ? -15 : 15,
                                     9, Z_DEFAULT_STRATEGY), ==, Z_OK);
      z.next_in = (Bytef *) data;
      z.avail_in = (uInt) len;
      z.next_out = buf;
      z.avail_out = (uInt) cap;
      g_assert_cmpint (deflate (&z, Z_FINISH), ==, Z_STREAM_END);
      g_byte_array_append (b, buf, (guint) z.total_out);
      deflateEnd (&z);
    }
  g_free (buf);
  return b;
}

static void
fill_salt (guint8 *salt, gsize n, int seed)
{
  if (seed < 0)
    gcry_randomize (salt, n, GCRY_WEAK_RANDOM);
  else
    for (gsize i = 0; i < n; i++)
      salt[i] = (guint8) (seed * 31 + i);
}

void
pb_skesk_v4 (GByteArray *out, const char *passphrase, uint8_t *key)
{
  pl_s2k s2k;
  guint8 body[13] = { 4, 9, 3, 8 };

  memset (&s2k, 0, sizeof s2k);
  s2k.type = PL_S2K_ITERATED;
  s2k.hash_algo = 8;
  fill_salt (s2k.salt, 8, -1);
  s2k.coded_count = 0;
  memcpy (body + 4, s2k.salt, 8);
  body[12] = 0;
  g_assert_cmpuint (pl_s2k_derive (&s2k, passphrase, strlen (passphrase), key,
                                   32, 0), ==, 0);
  pb_packet (out, 3, body, sizeof body);
}

void
pb_skesk_v4_count (GByteArray *out, uint8_t coded_count, int salt_seed)
{
  /* With an encrypted session key, so that a wrong key is seen as wrong
   * (unknown cipher octet) rather than tried on the data. */
  guint8 body[13 + 33] = { 4, 9, 3, 8 };

  fill_salt (body + 4, 8, salt_seed);
  body[12] = coded_count;
  fill_salt (body + 13, 33, salt_seed + 1000);
  pb_packet (out, 3, body, sizeof body);
}

void
pb_skesk_v4_argon2 (GByteArray *out, uint8_t t, uint8_t p, uint8_t m_exp,
                    int salt_seed)
{
  /* version, cipher, S2K (20: type 4, salt, t, p, m) and an encrypted
   * key of 33 garbage octets.  A v4 SKESK, as RFC 9580 A.12's: one of
   * version 6 goes only before a v2 SEIPD (§5.3.2), and these messages'
   * data is SEIPD v1 (pb_seipd1). */
  guint8 body[2 + 20 + 33] = { 4, 9, 4 };

  fill_salt (body + 3, 16, salt_seed);
  body[19] = t;
  body[20] = p;
  body[21] = m_exp;
  fill_salt (body + 22, 33, salt_seed + 1000);
  pb_packet (out, 3, body, sizeof body);
}

void
pb_seipd1 (GByteArray *out, const uint8_t *key, const void *inner, gsize len,
           int chunk_exp)
{
  gsize n = 18 + len + 22;
  guint8 *plain = g_malloc (n + 1), *body = g_malloc (n + 1);
  gcry_cipher_hd_t hd;

  gcry_randomize (plain, 16, GCRY_WEAK_RANDOM);
  plain[16] = plain[14];
  plain[17] = plain[15];
  memcpy (plain + 18, inner, len);
  plain[18 + len] = 0xD3;
  plain[19 + len] = 0x14;
  gcry_md_hash_buffer (GCRY_MD_SHA1, plain + 20 + len, plain, 20 + len);
  body[0] = 1;
  g_assert_cmpuint (gcry_cipher_open (&hd, GCRY_CIPHER_AES256,
                                      GCRY_CIPHER_MODE_CFB, 0), ==, 0);
  g_assert_cmpuint (gcry_cipher_setkey (hd, key, 32), ==, 0);
  g_assert_cmpuint (gcry_cipher_encrypt (hd, body + 1, n, plain, n), ==, 0);
  gcry_cipher_close (hd);
  if (chunk_exp < 0)
    pb_packet (out, 18, body, n + 1);
  else
    pb_packet_partial (out, 18, body, n + 1, chunk_exp);
  g_free (plain);
  g_free (body);
}

GByteArray *
pb_message (const char *passphrase, const void *inner, gsize len,
            int chunk_exp)
{
  GByteArray *m = g_byte_array_new ();
  guint8 key[32];

  pb_skesk_v4 (m, passphrase, key);
  pb_seipd1 (m, key, inner, len, chunk_exp);
  return m;
}
