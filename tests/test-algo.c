/* test-algo.c - OpenPGP's algorithm ids and libgcrypt's (core/algo.h):
 * RFC 9580 §9's sizes for every id the table knows, nothing for the ids
 * it does not, cipher names read back in every spelling, and the two
 * memory helpers */
#include <string.h>
#include <gcrypt.h>
#include "testutil.h"
#include "algo.h"

/* RFC 9580 §9.3 (and the block sizes of the ciphers it names). */
static const struct
{
  int id;
  size_t key, block;
} ciphers[] = {
  { PL_CIPHER_IDEA, 16, 8 },
  { PL_CIPHER_3DES, 24, 8 },
  { PL_CIPHER_CAST5, 16, 8 },
  { PL_CIPHER_BLOWFISH, 16, 8 },
  { PL_CIPHER_AES128, 16, 16 },
  { PL_CIPHER_AES192, 24, 16 },
  { PL_CIPHER_AES256, 32, 16 },
  { PL_CIPHER_TWOFISH, 32, 16 },
  { PL_CIPHER_CAMELLIA128, 16, 16 },
  { PL_CIPHER_CAMELLIA192, 24, 16 },
  { PL_CIPHER_CAMELLIA256, 32, 16 },
};

static int
known_cipher (int id)
{
  for (gsize i = 0; i < G_N_ELEMENTS (ciphers); i++)
    if (ciphers[i].id == id)
      return (int) i;
  return -1;
}

/* Every id from -1 to 256: the known ones have RFC 9580's sizes, the
 * same as libgcrypt's cipher, and a name that reads back; the others
 * nothing, and "unknown". */
static void
test_ciphers (void)
{
  for (int id = -1; id <= 256; id++)
    {
      int k = known_cipher (id);
      int gcry = pl_cipher_gcry_algo (id);

      if (k < 0)
        {
          g_assert_cmpint (gcry, ==, 0);
          g_assert_cmpuint (pl_cipher_key_length (id), ==, 0);
          g_assert_cmpuint (pl_cipher_block_length (id), ==, 0);
          g_assert_cmpstr (pl_cipher_name (id), ==, "unknown");
          continue;
        }
      g_assert_cmpuint (pl_cipher_key_length (id), ==, ciphers[k].key);
      g_assert_cmpuint (pl_cipher_block_length (id), ==, ciphers[k].block);
      g_assert_cmpint (pl_cipher_from_name (pl_cipher_name (id)), ==, id);
      /* IDEA may be left out of a libgcrypt build: then 0, as for an
       * unknown id; else the cipher of those sizes. */
      if (gcry)
        {
          g_assert_cmpuint (gcry_cipher_get_algo_keylen (gcry), ==,
                            ciphers[k].key);
          g_assert_cmpuint (gcry_cipher_get_algo_blklen (gcry), ==,
                            ciphers[k].block);
        }
      else
        g_assert_cmpint (id, ==, PL_CIPHER_IDEA);
    }
}

/* As gpg spells them, as the settings do, as pl_cipher_name does. */
static void
test_cipher_names (void)
{
  static const struct { const char *name; int id; } cases[] = {
    { "AES256", PL_CIPHER_AES256 },
    { "aes-256", PL_CIPHER_AES256 },
    { "aes256", PL_CIPHER_AES256 },
    { "AES-256", PL_CIPHER_AES256 },
    { "aes_192", PL_CIPHER_AES192 },
    { "AES", PL_CIPHER_AES128 },
    { "camellia128", PL_CIPHER_CAMELLIA128 },
    { "CAMELLIA-256", PL_CIPHER_CAMELLIA256 },
    { "twofish", PL_CIPHER_TWOFISH },
    { "3DES", PL_CIPHER_3DES },
    { "TripleDES", PL_CIPHER_3DES },
    { "cast5", PL_CIPHER_CAST5 },
    { "blowfish", PL_CIPHER_BLOWFISH },
    { "idea", PL_CIPHER_IDEA },
    { "", 0 },
    { "AES512", 0 },
    { "AES-2561", 0 },
    { "rot13", 0 },
    { "unknown", 0 },
    { "aes 256", 0 },
  };

  for (gsize i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_test_message ("%s", cases[i].name);
      g_assert_cmpint (pl_cipher_from_name (cases[i].name), ==, cases[i].id);
    }
  /* A name longer than any buffer is read, not overrun, and unknown. */
  {
    g_autofree char *long_name = g_strnfill (4096, 'A');

    g_assert_cmpint (pl_cipher_from_name (long_name), ==, 0);
  }
}

/* RFC 9580 §9.5's digest sizes, through libgcrypt's hash. */
static void
test_hashes (void)
{
  static const struct { int id; unsigned int len; } hashes[] = {
    { PL_HASH_MD5, 16 }, { PL_HASH_SHA1, 20 }, { PL_HASH_RIPEMD160, 20 },
    { PL_HASH_SHA256, 32 }, { PL_HASH_SHA384, 48 }, { PL_HASH_SHA512, 64 },
    { PL_HASH_SHA224, 28 }, { PL_HASH_SHA3_256, 32 },
    { PL_HASH_SHA3_512, 64 },
  };

  for (int id = -1; id <= 256; id++)
    {
      int gcry = pl_hash_gcry_algo (id);
      gsize k = 0;

      while (k < G_N_ELEMENTS (hashes) && hashes[k].id != id)
        k++;
      if (k == G_N_ELEMENTS (hashes))
        g_assert_cmpint (gcry, ==, 0);
      else if (gcry)
        g_assert_cmpuint (gcry_md_get_algo_dlen (gcry), ==, hashes[k].len);
      else                      /* a libgcrypt built without it */
        g_assert_cmpint (id, !=, PL_HASH_SHA256);
    }
}

/* RFC 9580 §9.6: nonce sizes, libgcrypt's modes, names. */
static void
test_aead (void)
{
  static const struct { int id; size_t nonce; int mode; const char *name; }
  modes[] = {
    { PL_AEAD_EAX, 16, GCRY_CIPHER_MODE_EAX, "EAX" },
    { PL_AEAD_OCB, 15, GCRY_CIPHER_MODE_OCB, "OCB" },
    { PL_AEAD_GCM, 12, GCRY_CIPHER_MODE_GCM, "GCM" },
  };

  for (gsize i = 0; i < G_N_ELEMENTS (modes); i++)
    {
      g_assert_cmpuint (pl_aead_nonce_length (modes[i].id), ==,
                        modes[i].nonce);
      g_assert_cmpint (pl_aead_gcry_mode (modes[i].id), ==, modes[i].mode);
      g_assert_cmpstr (pl_aead_name (modes[i].id), ==, modes[i].name);
    }
  for (int id = -1; id <= 256; id++)
    if (id < PL_AEAD_EAX || id > PL_AEAD_GCM)
      {
        g_assert_cmpuint (pl_aead_nonce_length (id), ==, 0);
        g_assert_cmpint (pl_aead_gcry_mode (id), ==, GCRY_CIPHER_MODE_NONE);
        g_assert_cmpstr (pl_aead_name (id), ==, "unknown");
      }
}

/* Equal buffers, and a difference in any octet or any bit of it. */
static void
test_equal_const_time (void)
{
  guint8 a[33], b[33];

  for (gsize i = 0; i < sizeof a; i++)
    a[i] = b[i] = (guint8) (i * 37 + 1);
  g_assert_cmpint (pl_equal_const_time (a, b, sizeof a), ==, 1);
  g_assert_cmpint (pl_equal_const_time (a, b, 0), ==, 1);
  g_assert_cmpint (pl_equal_const_time (NULL, NULL, 0), ==, 1);
  for (gsize i = 0; i < sizeof a; i++)
    for (int bit = 0; bit < 8; bit++)
      {
        b[i] ^= (guint8) (1 << bit);
        g_assert_cmpint (pl_equal_const_time (a, b, sizeof a), ==, 0);
        /* Only the first LEN octets count. */
        g_assert_cmpint (pl_equal_const_time (a, b, i), ==, 1);
        b[i] ^= (guint8) (1 << bit);
      }
}

static void
test_wipe (void)
{
  guint8 buf[100];
  static const guint8 zeros[98];

  memset (buf, 0xA5, sizeof buf);
  pl_wipe (buf + 1, sizeof buf - 2);
  g_assert_cmpint (buf[0], ==, 0xA5);
  g_assert_cmpmem (buf + 1, sizeof zeros, zeros, sizeof zeros);
  g_assert_cmpint (buf[sizeof buf - 1], ==, 0xA5);
  pl_wipe (NULL, 0);
}

int
main (int argc, char **argv)
{
  tu_init (&argc, &argv);
  g_test_add_func ("/algo/ciphers", test_ciphers);
  g_test_add_func ("/algo/cipher-names", test_cipher_names);
  g_test_add_func ("/algo/hashes", test_hashes);
  g_test_add_func ("/algo/aead", test_aead);
  g_test_add_func ("/algo/equal-const-time", test_equal_const_time);
  g_test_add_func ("/algo/wipe", test_wipe);
  return g_test_run ();
}
