/* test-derive.c - one message's key derivations (core/derive.h): each
 * (passphrase, specifier, length) derived once and the same key as
 * s2k.c's; the cap on one specifier and the budget of the message, both
 * refused before any work and charged only for what runs; a cancelled
 * derivation neither returned nor kept.  Counted by the context's own
 * counters, never timed. */
#include <string.h>
#include <gcrypt.h>
#include "testutil.h"
#include "algo.h"
#include "derive.h"
#include "keycache.h"

#define PW "correct horse"

/* A cheap iterated specifier (65536 octets of SHA-256: 128 units). */
static pl_s2k
cheap_s2k (void)
{
  pl_s2k s = { 0 };

  s.type = PL_S2K_ITERATED;
  s.hash_algo = PL_HASH_SHA256;
  gcry_create_nonce (s.salt, 8);
  s.coded_count = pl_s2k_encode_count (65536);
  return s;
}

static void
test_cache (void)
{
  pl_s2k s = cheap_s2k ();
  pl_derive d;
  uint8_t *a = gcry_malloc_secure (32), *b = gcry_malloc_secure (32);
  uint8_t *want = gcry_malloc_secure (32);
  uint64_t cost = pl_s2k_cost (&s, 32);

  g_assert_cmpuint (cost, >, 0);
  g_assert_cmpint (pl_derive_init (&d, NULL, NULL, 0), ==, 0);
  g_assert_cmpint (pl_derive_key (&d, &s, 32, PW, strlen (PW), a), ==, 0);
  g_assert_cmpint (pl_derive_key (&d, &s, 32, PW, strlen (PW), b), ==, 0);
  g_assert_cmpmem (a, 32, b, 32);
  g_assert_cmpuint (d.derivations, ==, 1);
  g_assert_cmpuint (d.spent, ==, cost);
  /* The same key as the specifier's own derivation. */
  g_assert_cmpint (pl_s2k_derive (&s, PW, strlen (PW), want, 32, 0), ==, 0);
  g_assert_cmpmem (a, 32, want, 32);

  /* Another passphrase, another length: each its own derivation. */
  g_assert_cmpint (pl_derive_key (&d, &s, 32, "other", 5, b), ==, 0);
  g_assert_cmpint (memcmp (a, b, 32), !=, 0);
  g_assert_cmpint (pl_derive_key (&d, &s, 16, PW, strlen (PW), b), ==, 0);
  g_assert_cmpuint (d.derivations, ==, 3);
  g_assert_cmpuint (d.spent, ==, 2 * cost + pl_s2k_cost (&s, 16));
  pl_derive_clear (&d);
  gcry_free (a);
  gcry_free (b);
  gcry_free (want);
}

/* With the caller's cache, a second message derives nothing. */
static void
test_shared_cache (void)
{
  pl_s2k s = cheap_s2k ();
  pl_keycache *cache = NULL;
  pl_derive first, second;
  uint8_t *a = gcry_malloc_secure (32), *b = gcry_malloc_secure (32);

  g_assert_cmpint (pl_keycache_new (&cache), ==, 0);
  g_assert_cmpint (pl_derive_init (&first, cache, NULL, 0), ==, 0);
  g_assert_cmpint (pl_derive_init (&second, cache, NULL, 0), ==, 0);
  g_assert_cmpint (pl_derive_key (&first, &s, 32, PW, strlen (PW), a), ==, 0);
  g_assert_cmpint (pl_derive_key (&second, &s, 32, PW, strlen (PW), b), ==, 0);
  g_assert_cmpmem (a, 32, b, 32);
  g_assert_cmpuint (first.derivations, ==, 1);
  g_assert_cmpuint (second.derivations, ==, 0);
  g_assert_cmpuint (second.spent, ==, 0);
  pl_derive_clear (&first);
  pl_derive_clear (&second);
  /* The context did not free the caller's cache: its key is still in. */
  g_assert_cmpuint (pl_keycache_derivations (cache), ==, 1);
  pl_keycache_free (cache);
  gcry_free (a);
  gcry_free (b);
}

/* One specifier over PL_DERIVE_SKESK_CAP (Argon2 t=2 over 2 GiB: a
 * stranger's choice) is refused before it runs: nothing charged,
 * nothing derived, no memory taken. */
static void
test_cap (void)
{
  pl_s2k big;
  pl_derive d;
  uint8_t *key = gcry_malloc_secure (32);

  pl_s2k_new_argon2 (&big, 2, 4, 21);
  g_assert_cmpuint (pl_s2k_cost (&big, 32), >, PL_DERIVE_SKESK_CAP);
  g_assert_cmpint (pl_derive_init (&d, NULL, NULL, 0), ==, 0);
  g_assert_cmpint (gpg_err_code (pl_derive_key (&d, &big, 32, PW, strlen (PW),
                                                key)), ==, GPG_ERR_TOO_LARGE);
  g_assert_cmpuint (d.derivations, ==, 0);
  g_assert_cmpuint (d.spent, ==, 0);
  /* Lengths a session key cannot have. */
  g_assert_cmpint (gpg_err_code (pl_derive_key (&d, &big, 0, PW, 2, key)), ==,
                   GPG_ERR_INV_KEYLEN);
  g_assert_cmpint (gpg_err_code (pl_derive_key (&d, &big,
                                                PL_DERIVE_KEY_MAX + 1, PW, 2,
                                                key)), ==, GPG_ERR_INV_KEYLEN);
  pl_derive_clear (&d);
  gcry_free (key);
}

/* The message's budget: a derivation that would pass it is refused
 * and not charged; one that fills it exactly runs; a key already in
 * the cache still comes when the budget is spent. */
static void
test_budget (void)
{
  pl_s2k s = cheap_s2k ();
  pl_derive d;
  uint8_t *key = gcry_malloc_secure (32);
  uint64_t cost = pl_s2k_cost (&s, 32);

  g_assert_cmpint (pl_derive_init (&d, NULL, NULL, 0), ==, 0);
  d.spent = PL_DERIVE_BUDGET - cost + 1;
  g_assert_cmpint (gpg_err_code (pl_derive_key (&d, &s, 32, PW, strlen (PW),
                                                key)), ==, GPG_ERR_TOO_LARGE);
  g_assert_cmpuint (d.spent, ==, PL_DERIVE_BUDGET - cost + 1);
  g_assert_cmpuint (d.derivations, ==, 0);
  d.spent = PL_DERIVE_BUDGET - cost;
  g_assert_cmpint (pl_derive_key (&d, &s, 32, PW, strlen (PW), key), ==, 0);
  g_assert_cmpuint (d.spent, ==, PL_DERIVE_BUDGET);
  g_assert_cmpuint (d.derivations, ==, 1);
  g_assert_cmpint (pl_derive_key (&d, &s, 32, PW, strlen (PW), key), ==, 0);
  g_assert_cmpint (gpg_err_code (pl_derive_key (&d, &s, 32, "new", 3, key)),
                   ==, GPG_ERR_TOO_LARGE);
  g_assert_cmpuint (d.derivations, ==, 1);
  pl_derive_clear (&d);
  gcry_free (key);
}

/* Cancelled: GPG_ERR_CANCELED, and the key is not kept, so the same
 * derivation runs again once the flag is down.  The hashed types look
 * at the flag after each megabyte: 8 MiB to hash here. */
static void
test_cancel (void)
{
  pl_s2k s = cheap_s2k ();
  atomic_int cancel = 1;
  pl_s2k_control ctl = { .cancel = &cancel };
  pl_derive d;
  uint8_t *key = gcry_malloc_secure (32), *want = gcry_malloc_secure (32);

  s.coded_count = pl_s2k_encode_count (8ul << 20);
  g_assert_cmpint (pl_derive_init (&d, NULL, &ctl, 0), ==, 0);
  g_assert_cmpint (gpg_err_code (pl_derive_key (&d, &s, 32, PW, strlen (PW),
                                                key)), ==, GPG_ERR_CANCELED);
  g_assert_cmpuint (pl_keycache_derivations (d.cache), ==, 0);
  atomic_store (&cancel, 0);
  g_assert_cmpint (pl_derive_key (&d, &s, 32, PW, strlen (PW), key), ==, 0);
  g_assert_cmpint (pl_s2k_derive (&s, PW, strlen (PW), want, 32, 0), ==, 0);
  g_assert_cmpmem (key, 32, want, 32);
  g_assert_cmpuint (pl_keycache_derivations (d.cache), ==, 1);
  pl_derive_clear (&d);
  gcry_free (key);
  gcry_free (want);
}

int
main (int argc, char **argv)
{
  tu_init (&argc, &argv);
  g_test_add_func ("/derive/cache", test_cache);
  g_test_add_func ("/derive/shared-cache", test_shared_cache);
  g_test_add_func ("/derive/cap", test_cap);
  g_test_add_func ("/derive/budget", test_budget);
  g_test_add_func ("/derive/cancel", test_cancel);
  return g_test_run ();
}
