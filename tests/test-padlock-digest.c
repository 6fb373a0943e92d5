/* test-padlock-digest.c - the source and sink that count and hash what
 * passes (app/padlock-digest.h), which check an encrypted file before
 * its original is deleted: what passes is passed on whole, the length
 * and SHA-256 are those of the octets, and one octet changed or one
 * more makes the digests differ */
#include <string.h>
#include "app-testutil.h"
#include "padlock-digest.h"

/* Reads SRC to its end through a digest source in blocks of STEP. */
static GBytes *
read_through (pl_source *inner, PadlockDigest *digest, gsize step)
{
  pl_source *src = padlock_digest_source_new (inner, digest);
  GByteArray *out = g_byte_array_new ();
  guint8 buf[4096];
  size_t n;

  g_assert_cmpuint (step, <=, sizeof buf);
  do
    {
      n = 0;
      g_assert_cmpint (pl_source_read_full (src, buf, step, &n), ==, 0);
      g_byte_array_append (out, buf, (guint) n);
    }
  while (n == step);
  pl_source_free (src);
  return g_byte_array_free_to_bytes (out);
}

static void
test_source_and_sink (void)
{
  g_autoptr(GBytes) data = tu_random_bytes (100003);
  const guint8 *d = g_bytes_get_data (data, NULL);
  gsize len = g_bytes_get_size (data);
  g_autofree char *want = tu_sha256_hex (d, len);
  static const gsize steps[] = { 1, 7, 4096 };

  for (gsize i = 0; i < G_N_ELEMENTS (steps); i++)
    {
      PadlockDigest in, out;
      g_autoptr(GBytes) got = NULL;
      pl_sink *sink;

      padlock_digest_init (&in);
      padlock_digest_init (&out);
      got = read_through (pl_source_new_memory (d, len), &in,
                          steps[i]);
      g_assert_true (g_bytes_equal (got, data));
      g_assert_cmpuint (in.length, ==, len);
      g_assert_cmpstr (g_checksum_get_string (in.checksum), ==, want);

      sink = padlock_digest_sink_new (&out);
      for (gsize off = 0; off < len; off += steps[i])
        g_assert_cmpint (sink->write (sink, d + off,
                                        MIN (steps[i], len - off)), ==, 0);
      g_assert_cmpint (sink->commit (sink), ==, 0);
      pl_sink_free (sink);
      g_assert_true (padlock_digest_equal (&in, &out));
      padlock_digest_clear (&in);
      padlock_digest_clear (&out);
    }
}

/* The same octets but one changed, or one more: not equal. */
static void
test_differences (void)
{
  static const char text[] = "the original file";
  guint8 changed[sizeof text - 1];
  PadlockDigest a, b, c;
  pl_sink *sink;

  memcpy (changed, text, sizeof changed);
  changed[4] ^= 1;
  padlock_digest_init (&a);
  padlock_digest_init (&b);
  padlock_digest_init (&c);
  g_bytes_unref (read_through (pl_source_new_memory (text, sizeof text - 1),
                               &a, 64));
  g_bytes_unref (read_through (pl_source_new_memory (changed, sizeof changed),
                               &b, 64));
  g_assert_cmpuint (a.length, ==, b.length);
  g_assert_false (padlock_digest_equal (&a, &b));
  sink = padlock_digest_sink_new (&c);
  g_assert_cmpint (sink->write (sink, text, sizeof text), ==, 0); /* NUL */
  g_assert_cmpint (sink->commit (sink), ==, 0);
  pl_sink_free (sink);
  g_assert_false (padlock_digest_equal (&a, &c));
  padlock_digest_clear (&a);
  padlock_digest_clear (&b);
  padlock_digest_clear (&c);
}

int
main (int argc, char **argv)
{
  tu_init (&argc, &argv);
  g_test_add_func ("/digest/source-and-sink", test_source_and_sink);
  g_test_add_func ("/digest/differences", test_differences);
  return g_test_run ();
}
