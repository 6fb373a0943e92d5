/* test-argon2.c - Argon2id (core/argon2.c) against RFC 9106 and
 * libgcrypt, on each compression kernel */
#include "testutil.h"
#include "argon2.h"

#include <string.h>
#include <gcrypt.h>

/* The kernels this CPU runs; the test of each other one is skipped. */
static const char *const kernel_names[] = { "scalar", "avx2", "avx512" };

static gboolean
use_kernel (const char *name)
{
  if (pl_argon2_force_impl (name))
    {
      g_test_skip_printf ("no %s kernel here", name);
      return FALSE;
    }
  return TRUE;
}

/* RFC 9106 §5.3: Argon2id with a secret and associated data. */
static void
test_rfc9106 (gconstpointer data)
{
  static const guint8 want[32] = {
    0x0d, 0x64, 0x0d, 0xf5, 0x8d, 0x78, 0x76, 0x6c, 0x08, 0xc0, 0x37, 0xa3,
    0x4a, 0x8b, 0x53, 0xc9, 0xd0, 0x1e, 0xf0, 0x45, 0x2d, 0x75, 0xb6, 0x5e,
    0xb5, 0x25, 0x20, 0xe9, 0x6b, 0x01, 0xe6, 0x59
  };
  guint8 pw[32], salt[16], secret[8], ad[12], tag[32];
  pl_argon2_params pa = { pw, sizeof pw, salt, sizeof salt, secret,
                          sizeof secret, ad, sizeof ad, 3, 4, 32 };

  if (!use_kernel (data))
    return;
  memset (pw, 1, sizeof pw);
  memset (salt, 2, sizeof salt);
  memset (secret, 3, sizeof secret);
  memset (ad, 4, sizeof ad);
  for (int threads = 1; threads <= 5; threads++)
    {
      memset (tag, 0, sizeof tag);
      g_assert_cmpuint (pl_argon2id (&pa, tag, sizeof tag, threads, NULL), ==,
                        0);
      g_assert_cmpmem (tag, sizeof tag, want, sizeof want);
    }
  pl_argon2_force_impl (NULL);
}

static void
gcrypt_argon2id (const pl_argon2_params *pa, guint8 *tag, size_t taglen)
{
  unsigned long params[4] = { taglen, pa->passes, pa->memory_kib,
                              pa->lanes };
  gcry_kdf_hd_t hd;

  g_assert_cmpuint (gcry_kdf_open (&hd, GCRY_KDF_ARGON2, GCRY_KDF_ARGON2ID,
                                   params, 4, pa->password, pa->password_len,
                                   pa->salt, pa->salt_len, pa->secret,
                                   pa->secret_len, pa->ad, pa->ad_len), ==, 0);
  g_assert_cmpuint (gcry_kdf_compute (hd, NULL), ==, 0);
  g_assert_cmpuint (gcry_kdf_final (hd, taglen, tag), ==, 0);
  gcry_kdf_close (hd);
}

/* Random parameters, the same for each kernel: t 1-4, p 1-8, m from 8p
 * KiB (not always a multiple of 4p) to 3 MiB, tags of 4-128 octets,
 * passwords of 1-80 octets and salts of 8-64, a secret or associated
 * data now and then, on 1-4 threads. */
static void
test_against_gcrypt (gconstpointer data)
{
  GRand *rand = g_rand_new_with_seed (9106);
  guint8 pw[80], salt[64], secret[32], ad[40];
  guint8 want[128], tag[128];

  if (!use_kernel (data))
    {
      g_rand_free (rand);
      return;
    }
  for (int round = 0; round < 48; round++)
    {
      pl_argon2_params pa;
      size_t taglen;
      int threads = g_rand_int_range (rand, 1, 5);

      memset (&pa, 0, sizeof pa);
      pa.passes = g_rand_int_range (rand, 1, 5);
      pa.lanes = g_rand_int_range (rand, 1, 9);
      pa.memory_kib = g_rand_boolean (rand)
                      ? g_rand_int_range (rand, 8 * pa.lanes, 64 * pa.lanes)
                      : g_rand_int_range (rand, 8 * pa.lanes, 3072);
      taglen = round < 4 ? (size_t[]) { 4, 64, 65, 128 }[round]
                         : (size_t) g_rand_int_range (rand, 4, 129);
      pa.password = pw;
      pa.password_len = g_rand_int_range (rand, 1, sizeof pw + 1);
      pa.salt = salt;
      pa.salt_len = g_rand_int_range (rand, 8, sizeof salt + 1);
      for (size_t i = 0; i < sizeof pw; i++)
        pw[i] = (guint8) g_rand_int (rand);
      for (size_t i = 0; i < sizeof salt; i++)
        salt[i] = (guint8) g_rand_int (rand);
      if (g_rand_int_range (rand, 0, 4) == 0)
        {
          pa.secret = secret;
          pa.secret_len = g_rand_int_range (rand, 1, sizeof secret + 1);
          memset (secret, round, sizeof secret);
        }
      if (g_rand_int_range (rand, 0, 4) == 0)
        {
          pa.ad = ad;
          pa.ad_len = g_rand_int_range (rand, 1, sizeof ad + 1);
          memset (ad, ~round, sizeof ad);
        }

      gcrypt_argon2id (&pa, want, taglen);
      g_assert_cmpuint (pl_argon2id (&pa, tag, taglen, threads, NULL), ==, 0);
      if (memcmp (tag, want, taglen))
        g_error ("t=%u p=%u m=%u tag %zu pw %zu salt %zu secret %zu ad %zu "
                 "threads %d: differs from libgcrypt", pa.passes, pa.lanes,
                 pa.memory_kib, taglen, pa.password_len, pa.salt_len,
                 pa.secret_len, pa.ad_len, threads);
    }
  g_rand_free (rand);
  pl_argon2_force_impl (NULL);
}

/* The empty password OpenPGP allows, which libgcrypt refuses: the tag
 * the reference implementation (libargon2 20190702, Debian's
 * libargon2-1) gives, argon2id_hash_raw (1, 64, 2, "", 0, salt, 16, ...),
 * on each kernel. */
static void
test_empty_password (void)
{
  static const guint8 want[32] = {
    0xd0, 0xce, 0x0b, 0x2d, 0x16, 0x75, 0xaf, 0x81, 0x52, 0xa4, 0x73, 0x04,
    0xf6, 0x7c, 0x8d, 0x9d, 0xc6, 0x43, 0x79, 0xb6, 0x80, 0x9e, 0x99, 0x3d,
    0x5d, 0xab, 0xd2, 0xce, 0x6a, 0x8a, 0xfd, 0x74
  };
  guint8 salt[16] = { 1 }, tag[32];
  pl_argon2_params pa = { NULL, 0, salt, sizeof salt, NULL, 0, NULL, 0,
                          1, 2, 64 };

  for (size_t i = 0; i < G_N_ELEMENTS (kernel_names); i++)
    {
      if (pl_argon2_force_impl (kernel_names[i]))
        continue;
      memset (tag, 0, sizeof tag);
      g_assert_cmpuint (pl_argon2id (&pa, tag, sizeof tag, 2, NULL), ==, 0);
      g_assert_cmpmem (tag, sizeof tag, want, sizeof want);
    }
  pl_argon2_force_impl (NULL);
}

/* One to four threads, and more than the lanes, give the same tag. */
static void
test_threads (void)
{
  guint8 salt[16] = { 9 }, first[32], tag[32];
  pl_argon2_params pa = { "pw", 2, salt, sizeof salt, NULL, 0, NULL, 0,
                          2, 4, 4096 };

  g_assert_cmpuint (pl_argon2id (&pa, first, sizeof first, 1, NULL), ==, 0);
  for (int threads = 0; threads <= 8; threads++)
    {
      g_assert_cmpuint (pl_argon2id (&pa, tag, sizeof tag, threads, NULL), ==,
                        0);
      g_assert_cmpmem (tag, sizeof tag, first, sizeof first);
    }
}

/* A stop set beforehand fails at once; one set while it runs (255 passes
 * over 64 MiB: tens of seconds) fails within a slice. */
static void
test_cancel (void)
{
  guint8 salt[16] = { 0 }, tag[32], untouched[32];
  pl_argon2_params pa = { "pw", 2, salt, sizeof salt, NULL, 0, NULL, 0,
                          255, 4, 1u << 16 };
  atomic_int stop = 1;

  memset (tag, 0x5a, sizeof tag);
  memcpy (untouched, tag, sizeof tag);
  g_assert_cmpint (gpg_err_code (pl_argon2id (&pa, tag, sizeof tag, 2,
                                              &stop)), ==, GPG_ERR_CANCELED);
  for (int threads = 1; threads <= 3; threads++)
    {
      gint64 start = g_get_monotonic_time ();
      GThread *t;

      atomic_store (&stop, 0);
      t = tu_cancel_after (&stop, 40);
      g_assert_cmpint (gpg_err_code (pl_argon2id (&pa, tag, sizeof tag,
                                                  threads, &stop)), ==,
                       GPG_ERR_CANCELED);
      g_thread_join (t);
      /* A slice of 64 MiB is 16,384 block fills, a few milliseconds;
       * a loaded machine gets plenty of room. */
      g_assert_cmpint (g_get_monotonic_time () - start, <, 5 * G_USEC_PER_SEC);
      g_assert_cmpmem (tag, sizeof tag, untouched, sizeof untouched);
    }
}

static void
test_invalid (void)
{
  guint8 salt[16] = { 0 }, tag[128];
  pl_argon2_params good = { "pw", 2, salt, sizeof salt, NULL, 0, NULL, 0,
                            1, 2, 16 };
  pl_argon2_params pa;

  g_assert_cmpuint (pl_argon2id (&good, tag, 4, 1, NULL), ==, 0);
  pa = good;
  pa.passes = 0;
  g_assert_cmpint (gpg_err_code (pl_argon2id (&pa, tag, 32, 1, NULL)), ==,
                   GPG_ERR_INV_VALUE);
  pa = good;
  pa.lanes = 0;
  g_assert_cmpint (gpg_err_code (pl_argon2id (&pa, tag, 32, 1, NULL)), ==,
                   GPG_ERR_INV_VALUE);
  pa = good;
  pa.memory_kib = 15;
  g_assert_cmpint (gpg_err_code (pl_argon2id (&pa, tag, 32, 1, NULL)), ==,
                   GPG_ERR_INV_VALUE);
  g_assert_cmpint (gpg_err_code (pl_argon2id (&good, tag, 3, 1, NULL)), ==,
                   GPG_ERR_INV_VALUE);
  g_assert_cmpint (gpg_err_code (pl_argon2_force_impl ("mmx")), ==,
                   GPG_ERR_NOT_SUPPORTED);
}

int
main (int argc, char **argv)
{
  tu_init (&argc, &argv);
  for (size_t i = 0; i < G_N_ELEMENTS (kernel_names); i++)
    {
      char *path = g_strdup_printf ("/argon2/rfc9106/%s", kernel_names[i]);

      g_test_add_data_func (path, kernel_names[i], test_rfc9106);
      g_free (path);
      path = g_strdup_printf ("/argon2/against-gcrypt/%s", kernel_names[i]);
      g_test_add_data_func (path, kernel_names[i], test_against_gcrypt);
      g_free (path);
    }
  g_test_add_func ("/argon2/empty-password", test_empty_password);
  g_test_add_func ("/argon2/threads", test_threads);
  g_test_add_func ("/argon2/cancel", test_cancel);
  g_test_add_func ("/argon2/invalid", test_invalid);
  return g_test_run ();
}
