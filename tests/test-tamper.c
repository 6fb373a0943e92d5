/* test-tamper.c - a small message of each profile, binary and armored,
 * with each octet changed in turn and cut at every offset: every variant
 * fails, and nothing is written */
#include "testutil.h"
#include "errors.h"

#include <string.h>

static void
make_options (pl_encrypt_options *o, pl_profile profile, int armor)
{
  pl_encrypt_options_init (o);
  o->profile = profile;
  o->armor = armor;
  o->s2k_ms = 1;
  o->argon2_passes = 1;
  o->argon2_parallelism = 1;
  o->argon2_memory_exp = 3;
  /* 64-octet AEAD chunks: 150 octets make three chunks. */
  o->chunk_octet = 0;
}

/* Decryption of a variant either fails with nothing written, or (armor
 * only: a change the armor reader tolerates, such as whitespace) yields
 * exactly the original. */
static void
check_variant (const guint8 *d, gsize len, GBytes *plain, int armor,
               gsize *failed)
{
  GBytes *out;
  gpg_error_t err = tu_decrypt ("tamper", d, len, &out, NULL);

  if (err)
    {
      g_assert_cmpuint (g_bytes_get_size (out), ==, 0);
      g_assert_cmpint (pl_error_outcome (err), !=, PL_OUTCOME_OTHER);
      (*failed)++;
    }
  else
    {
      g_assert_true (armor);
      g_assert_true (g_bytes_equal (out, plain));
    }
  g_bytes_unref (out);
}

static void
sweep (gconstpointer p)
{
  int profile = GPOINTER_TO_INT (p) >> 1;
  int armor = GPOINTER_TO_INT (p) & 1;
  pl_encrypt_options o;
  GBytes *plain = tu_random_bytes (150), *cipher;
  guint8 *d;
  gsize len, failed = 0, variants = 0;

  make_options (&o, (pl_profile) profile, armor);
  g_assert_cmpuint (tu_encrypt (&o, "tamper", g_bytes_get_data (plain, NULL),
                                150, &cipher), ==, 0);
  d = g_bytes_unref_to_data (cipher, &len);
  for (gsize i = 0; i < len; i++)
    {
      guint8 keep = d[i];
      /* Two changes per octet: a flipped low bit and a flipped high bit
       * (for armor, the high bit makes it no character at all). */
      d[i] = keep ^ 0x01;
      check_variant (d, len, plain, armor, &failed);
      d[i] = keep ^ 0x80;
      check_variant (d, len, plain, armor, &failed);
      d[i] = keep;
      variants += 2;
    }
  for (gsize cut = 0; cut < len; cut++)
    {
      /* An armored message cut after its END line is whole. */
      if (armor && cut >= len - 1)
        continue;
      check_variant (d, cut, plain, armor, &failed);
      variants++;
    }
  g_test_message ("%" G_GSIZE_FORMAT " octets: %" G_GSIZE_FORMAT
                  " of %" G_GSIZE_FORMAT " variants failed", len, failed,
                  variants);
  if (!armor)
    g_assert_cmpuint (failed, ==, variants);
  g_free (d);
  g_bytes_unref (plain);
}

int
main (int argc, char **argv)
{
  static const char *names[] = { "rfc4880", "librepgp", "rfc9580" };

  tu_init (&argc, &argv);
  for (int p = 0; p < 3; p++)
    for (int a = 0; a < 2; a++)
      {
        char *path = g_strdup_printf ("/tamper/%s/%s", names[p],
                                      a ? "armor" : "binary");
        g_test_add_data_func (path, GINT_TO_POINTER (p << 1 | a), sweep);
        g_free (path);
      }
  return g_test_run ();
}
