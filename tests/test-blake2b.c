/* test-blake2b.c - BLAKE2b (core/blake2b.c) against RFC 7693 and
 * libgcrypt */
#include "testutil.h"
#include "blake2b.h"

#include <string.h>
#include <gcrypt.h>

/* RFC 7693 Appendix A: BLAKE2b-512 ("abc"). */
static void
test_rfc7693 (void)
{
  static const guint8 want[64] = {
    0xba, 0x80, 0xa5, 0x3f, 0x98, 0x1c, 0x4d, 0x0d, 0x6a, 0x27, 0x97, 0xb6,
    0x9f, 0x12, 0xf6, 0xe9, 0x4c, 0x21, 0x2f, 0x14, 0x68, 0x5a, 0xc4, 0xb7,
    0x4b, 0x12, 0xbb, 0x6f, 0xdb, 0xff, 0xa2, 0xd1, 0x7d, 0x87, 0xc5, 0x39,
    0x2a, 0xab, 0x79, 0x2d, 0xc2, 0x52, 0xd5, 0xde, 0x45, 0x33, 0xcc, 0x95,
    0x18, 0xd3, 0x8a, 0xa8, 0xdb, 0xf1, 0x92, 0x5a, 0xb9, 0x23, 0x86, 0xed,
    0xd4, 0x00, 0x99, 0x23
  };
  guint8 out[64];

  pl_blake2b_hash (out, 64, "abc", 3);
  g_assert_cmpmem (out, 64, want, 64);
}

/* Every length from 0 to 1100 octets (every block edge up to eight
 * blocks and a few past), in one call and in random pieces, at each
 * output length libgcrypt has. */
static void
test_against_gcrypt (void)
{
  static const struct { int algo; size_t len; } outs[] = {
    { GCRY_MD_BLAKE2B_512, 64 }, { GCRY_MD_BLAKE2B_384, 48 },
    { GCRY_MD_BLAKE2B_256, 32 }, { GCRY_MD_BLAKE2B_160, 20 },
  };
  GRand *rand = g_rand_new_with_seed (7693);
  guint8 in[1100];

  for (size_t i = 0; i < sizeof in; i++)
    in[i] = (guint8) g_rand_int (rand);
  for (size_t o = 0; o < G_N_ELEMENTS (outs); o++)
    for (size_t len = 0; len <= sizeof in; len++)
      {
        guint8 want[64], one[64], pieces[64];
        pl_blake2b_state s;
        size_t done = 0;

        gcry_md_hash_buffer (outs[o].algo, want, in, len);
        pl_blake2b_hash (one, outs[o].len, in, len);
        g_assert_cmpmem (one, outs[o].len, want, outs[o].len);

        pl_blake2b_init (&s, outs[o].len);
        while (done < len)
          {
            size_t n = g_rand_int_range (rand, 0, 300);

            n = MIN (n, len - done);
            pl_blake2b_update (&s, in + done, n);
            done += n;
          }
        pl_blake2b_final (&s, pieces);
        g_assert_cmpmem (pieces, outs[o].len, want, outs[o].len);
      }
  g_rand_free (rand);
}

int
main (int argc, char **argv)
{
  tu_init (&argc, &argv);
  g_test_add_func ("/blake2b/rfc7693", test_rfc7693);
  g_test_add_func ("/blake2b/against-gcrypt", test_against_gcrypt);
  return g_test_run ();
}
