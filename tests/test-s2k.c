/* test-s2k.c - S2K specifiers against an independent implementation */
#include "testutil.h"
#include "algo.h"
#include "s2k.h"

#include <stdio.h>
#include <string.h>
#include <sys/resource.h>
#include <unistd.h>


/* RFC 9580 §3.7.1: hash contexts preloaded with 0, 1, 2... zero octets,
 * each fed SALT||PW repeated to COUNT octets, concatenated. */
static void
reference_s2k (GChecksumType type, gsize digest_len, const guint8 *salt,
               gsize salt_len, const char *pw, gsize count, guint8 *out,
               gsize outlen)
{
  gsize unit = salt_len + strlen (pw);
  gsize done = 0;

  if (count < unit)
    count = unit;
  for (gsize ctx = 0; done < outlen; ctx++)
    {
      GChecksum *c = g_checksum_new (type);
      guint8 digest[64];
      gsize dlen = sizeof digest, left = count;
      static const guint8 zero[64];

      g_checksum_update (c, zero, ctx);
      while (left)
        {
          gsize k;
          k = MIN (left, salt_len);
          g_checksum_update (c, salt, k);
          left -= k;
          k = MIN (left, strlen (pw));
          g_checksum_update (c, (const guint8 *) pw, k);
          left -= k;
        }
      g_checksum_get_digest (c, digest, &dlen);
      g_assert_cmpuint (dlen, ==, digest_len);
      memcpy (out + done, digest, MIN (dlen, outlen - done));
      done += MIN (dlen, outlen - done);
      g_checksum_free (c);
    }
}

static void
test_count_coding (void)
{
  g_assert_cmpuint (pl_s2k_decode_count (0), ==, 1024);
  g_assert_cmpuint (pl_s2k_decode_count (96), ==, 65536);
  g_assert_cmpuint (pl_s2k_decode_count (255), ==, 65011712);
  for (unsigned c = 0; c < 256; c++)
    g_assert_cmpuint (pl_s2k_encode_count (pl_s2k_decode_count (c)), ==, c);
  g_assert_cmpuint (pl_s2k_encode_count (65537), ==, 97);
}

static void
test_known_answers (void)
{
  static const struct { int algo; GChecksumType type; gsize dlen; } hashes[] = {
    { PL_HASH_SHA1, G_CHECKSUM_SHA1, 20 },
    { PL_HASH_SHA256, G_CHECKSUM_SHA256, 32 },
    { PL_HASH_SHA512, G_CHECKSUM_SHA512, 64 },
    { PL_HASH_SHA384, G_CHECKSUM_SHA384, 48 },
  };
  static const char *pws[] = { "", "a", "password", "correct horse battery" };
  static const int types[] = { PL_S2K_SIMPLE, PL_S2K_SALTED, PL_S2K_ITERATED };

  for (gsize h = 0; h < G_N_ELEMENTS (hashes); h++)
    for (gsize p = 0; p < G_N_ELEMENTS (pws); p++)
      for (gsize t = 0; t < G_N_ELEMENTS (types); t++)
        for (gsize keylen = 16; keylen <= 32; keylen += 8)
          {
            pl_s2k s2k;
            guint8 got[32], want[32];
            gsize count = 0;

            memset (&s2k, 0, sizeof s2k);
            s2k.type = types[t];
            s2k.hash_algo = hashes[h].algo;
            for (int i = 0; i < 8; i++)
              s2k.salt[i] = (guint8) g_test_rand_int ();
            s2k.coded_count = (guint8) g_test_rand_int_range (0, 40);
            if (s2k.type == PL_S2K_ITERATED)
              count = pl_s2k_decode_count (s2k.coded_count);
            g_assert_cmpuint (pl_s2k_derive (&s2k, pws[p], strlen (pws[p]),
                                             got, keylen, 0), ==, 0);
            reference_s2k (hashes[h].type, hashes[h].dlen, s2k.salt,
                           s2k.type == PL_S2K_SIMPLE ? 0 : 8, pws[p], count,
                           want, keylen);
            g_assert_cmpmem (got, keylen, want, keylen);
          }
}

static void
test_parse_write (void)
{
  pl_s2k a, b;
  guint8 buf[32];
  gsize len, used;

  g_assert_cmpuint (pl_s2k_new_iterated (&a, PL_HASH_SHA256, 5), ==, 0);
  g_assert_cmpuint (pl_s2k_decode_count (a.coded_count), >=, 65536);
  len = pl_s2k_write (&a, buf);
  g_assert_cmpuint (len, ==, 11);
  g_assert_cmpuint (pl_s2k_parse (&b, buf, len, &used), ==, 0);
  g_assert_cmpuint (used, ==, len);
  g_assert_cmpmem (&a, sizeof a, &b, sizeof b);

  pl_s2k_new_argon2 (&a, 3, 4, 16);
  len = pl_s2k_write (&a, buf);
  g_assert_cmpuint (len, ==, 20);
  g_assert_cmpuint (pl_s2k_parse (&b, buf, len, &used), ==, 0);
  g_assert_cmpmem (&a, sizeof a, &b, sizeof b);

  /* Each truncation fails. */
  for (gsize i = 0; i < len; i++)
    g_assert_cmpint (gpg_err_code (pl_s2k_parse (&b, buf, i, &used)), ==,
                     GPG_ERR_INV_PACKET);
  /* GnuPG's private 101 and unknown hashes are refused in words. */
  buf[0] = 101;
  g_assert_cmpint (gpg_err_code (pl_s2k_parse (&b, buf, len, &used)), ==,
                   GPG_ERR_UNSUPPORTED_ALGORITHM);
  buf[0] = 3;
  buf[1] = 99;
  g_assert_cmpint (gpg_err_code (pl_s2k_parse (&b, buf, 11, &used)), ==,
                   GPG_ERR_DIGEST_ALGO);
  /* Argon2 with m < 8p is malformed. */
  pl_s2k_new_argon2 (&a, 1, 4, 4);
  len = pl_s2k_write (&a, buf);
  g_assert_cmpint (gpg_err_code (pl_s2k_parse (&b, buf, len, &used)), ==,
                   GPG_ERR_INV_PACKET);
}

/* Memory above the cap is refused before anything is allocated. */
static void
test_argon2_cap (void)
{
  pl_s2k s2k;
  guint8 key[32];

  pl_s2k_new_argon2 (&s2k, 1, 1, 31);
  g_assert_cmpint (gpg_err_code (pl_s2k_derive (&s2k, "pw", 2, key, 32, 0)),
                   ==, GPG_ERR_TOO_LARGE);
  pl_s2k_new_argon2 (&s2k, 1, 1, 12);
  g_assert_cmpint (gpg_err_code (pl_s2k_derive (&s2k, "pw", 2, key, 32,
                                                2048)), ==, GPG_ERR_TOO_LARGE);
  g_assert_cmpuint (pl_s2k_derive (&s2k, "pw", 2, key, 32, 4096), ==, 0);
}

/* Argon2 memory the kernel will not map is GPG_ERR_TOO_LARGE, as when it
 * is over the cap: here the address space is held to 16 MiB more than
 * the process has, and m is 64 MiB. */
static void
test_argon2_no_memory (void)
{
#ifndef UNDER_SANITIZER
  if (g_test_subprocess ())
    {
      unsigned long pages = 0;
      FILE *f = fopen ("/proc/self/statm", "r");
      struct rlimit lim;
      pl_s2k s2k;
      guint8 key[32];

      g_assert_nonnull (f);
      g_assert_cmpint (fscanf (f, "%lu", &pages), ==, 1);
      fclose (f);
      lim.rlim_cur = lim.rlim_max
        = (rlim_t) pages * sysconf (_SC_PAGESIZE) + (16u << 20);
      g_assert_cmpint (setrlimit (RLIMIT_AS, &lim), ==, 0);
      pl_s2k_new_argon2 (&s2k, 1, 4, 16);
      g_assert_cmpint (gpg_err_code (pl_s2k_derive (&s2k, "pw", 2, key, 32,
                                                    0)), ==,
                       GPG_ERR_TOO_LARGE);
      return;
    }
  g_test_trap_subprocess (NULL, 0, G_TEST_SUBPROCESS_DEFAULT);
  g_test_trap_assert_passed ();
#else
  g_test_skip ("AddressSanitizer's shadow does not fit an address-space "
               "limit");
#endif
}

/* Encryption's count is the same every launch: the largest. */
static void
test_steady_count (void)
{
  pl_s2k a;

  g_assert_cmpuint (pl_s2k_new_iterated (&a, PL_HASH_SHA256, 0), ==, 0);
  g_assert_cmpuint (pl_s2k_decode_count (a.coded_count), ==, 65011712);
  g_assert_cmpuint (PL_S2K_ITERATED_MAX_COUNT, ==, 65011712);
}

/* Lanes on threads of their own give the same key as on one. */
static void
test_argon2_threads (void)
{
  pl_s2k s2k;
  guint8 one[32], two[32];
  pl_s2k_control ctl = { NULL, 2 };

  pl_s2k_new_argon2 (&s2k, 2, 4, 12);
  g_assert_cmpuint (pl_s2k_derive (&s2k, "pw", 2, one, 32, 0), ==, 0);
  g_assert_cmpuint (pl_s2k_derive_controlled (&s2k, "pw", 2, two, 32, 0,
                                              &ctl), ==, 0);
  g_assert_cmpmem (one, 32, two, 32);
}

/* A cancel stops a derivation, with GPG_ERR_CANCELED (not a wrong
 * passphrase): an Argon2 of 255 passes over 256 MiB takes minutes unless
 * stopped. */
static void
test_cancel (void)
{
  pl_s2k iter, argon;
  guint8 key[32];
  atomic_int flag = 1;
  pl_s2k_control ctl = { &flag, 2 };

  g_assert_cmpuint (pl_s2k_new_iterated (&iter, PL_HASH_SHA256, 0), ==, 0);
  pl_s2k_new_argon2 (&argon, 255, 4, 18);
  g_assert_cmpint (gpg_err_code (pl_s2k_derive_controlled (&iter, "pw", 2,
                                                           key, 32, 0, &ctl)),
                   ==, GPG_ERR_CANCELED);
  g_assert_cmpint (gpg_err_code (pl_s2k_derive_controlled (&argon, "pw", 2,
                                                           key, 32, 0, &ctl)),
                   ==, GPG_ERR_CANCELED);

  /* Under way: only Argon2 is sure to outlast the 50 ms (the largest
   * iterated count takes 40 ms with SHA-NI); the flag set beforehand
   * above already reaches the hashed loop's check, after its first
   * megabyte. */
  {
    GThread *t;

    atomic_store (&flag, 0);
    t = tu_cancel_after (&flag, 50);
    g_assert_cmpint (gpg_err_code (pl_s2k_derive_controlled
                                   (&argon, "pw", 2, key, 32, 0, &ctl)), ==,
                     GPG_ERR_CANCELED);
    g_thread_join (t);
  }
}

static void
test_cost (void)
{
  pl_s2k s2k;

  pl_s2k_new_argon2 (&s2k, 3, 4, 16);
  g_assert_cmpuint (pl_s2k_cost (&s2k, 32), ==, 3u << 16);
  g_assert_cmpuint (pl_s2k_new_iterated (&s2k, PL_HASH_SHA256, 0), ==, 0);
  g_assert_cmpuint (pl_s2k_cost (&s2k, 32), ==,
                    65011712 / PL_S2K_OCTETS_PER_UNIT + 1);
  /* SHA-1 needs two contexts for 32 octets. */
  s2k.hash_algo = PL_HASH_SHA1;
  g_assert_cmpuint (pl_s2k_cost (&s2k, 32), ==,
                    2 * 65011712 / PL_S2K_OCTETS_PER_UNIT + 1);
}

int
main (int argc, char **argv)
{
  tu_init (&argc, &argv);
  g_test_add_func ("/s2k/count-coding", test_count_coding);
  g_test_add_func ("/s2k/known-answers", test_known_answers);
  g_test_add_func ("/s2k/parse-write", test_parse_write);
  g_test_add_func ("/s2k/argon2-cap", test_argon2_cap);
  g_test_add_func ("/s2k/argon2-no-memory", test_argon2_no_memory);
  g_test_add_func ("/s2k/steady-count", test_steady_count);
  g_test_add_func ("/s2k/argon2-threads", test_argon2_threads);
  g_test_add_func ("/s2k/cancel", test_cancel);
  g_test_add_func ("/s2k/cost", test_cost);
  return g_test_run ();
}
