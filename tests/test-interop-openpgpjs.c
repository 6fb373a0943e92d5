/* test-interop-openpgpjs.c - OpenPGP.js reads what we write, and we read
 * what OpenPGP.js writes, run against OpenPGP.js 6 (installed into the
 * build folder by build-aux/install-deps) at test time */
#include "testutil.h"
#include "algo.h"
#include "keycache.h"

#include <string.h>
#include <glib/gstdio.h>

/* SOP's "cannot decrypt" exit code (sop/sop-io.h). */
#define SOP_CANNOT_DECRYPT_CODE 29

/* Our small test chunks: 2^(4+6) = 1024 octets. */
#define SMALL_CHUNK_OCTET 4
#define SMALL_CHUNK ((gsize) 1 << (SMALL_CHUNK_OCTET + 6))

/* Keeps each OpenPGP.js message, and the whole program, small. */
#define MAX_PLAIN ((gsize) 5 << 20)

/* GTest restarts the random sequence for every test case; moves it on
 * by an amount particular to NAME so that cases get different sizes and
 * passphrases. */
static void
vary_random (const char *name)
{
  for (guint n = g_str_hash (name) % 97; n; n--)
    (void) g_test_rand_int ();
}

/* padlock-sop ARGS..., IN on stdin.  Returns the exit status (and logs
 * what it said when that is not 0). */
static int
run_sop (const char *const *args, GBytes *in, GBytes **out)
{
  g_autofree char *err_text = NULL;
  int status = tu_run_sop (args, in, out, &err_text);

  if (status)
    g_test_message ("padlock-sop: %s", err_text);
  return status;
}

/* OpenPGP.js decrypts CIPHER; it must give back PLAIN. */
static void
check_openpgpjs_decrypts (const char *pwfile, GBytes *cipher, GBytes *plain)
{
  const char *args[] = { "decrypt", pwfile, NULL };
  GBytes *out = NULL;
  int status = tu_run_openpgpjs (args, cipher, &out);

  g_assert_cmpint (status, ==, 0);
  g_assert_cmpuint (g_bytes_get_size (out), ==, g_bytes_get_size (plain));
  g_assert_true (g_bytes_equal (out, plain));
  g_bytes_unref (out);
}

/* OpenPGP.js decrypts our output (small chunks, made in-process) at the
 * chunk boundaries. */
static void
test_openpgpjs_reads_ours (gconstpointer p)
{
  const int armor = GPOINTER_TO_INT (p) & 1;
  const pl_profile profile = (pl_profile) (GPOINTER_TO_INT (p) >> 1);
  const gsize sizes[] = { 0, 1, SMALL_CHUNK - 1, SMALL_CHUNK,
                          SMALL_CHUNK + 1, 3 * SMALL_CHUNK + 17 };

  if (!tu_have_openpgpjs ())
    return;
  vary_random (g_test_get_path ());
  for (gsize i = 0; i < G_N_ELEMENTS (sizes); i++)
    {
      char *pw = tu_random_passphrase ();
      char *pwfile = tu_write_temp ("js-pw", pw, strlen (pw));
      GBytes *plain = tu_random_bytes (sizes[i]);
      GBytes *cipher;
      pl_encrypt_options o;

      pl_encrypt_options_init (&o);
      o.armor = armor;
      o.profile = profile;
      o.chunk_octet = SMALL_CHUNK_OCTET;
      o.s2k_ms = 10;
      /* Cheap Argon2: OpenPGP.js runs it in WebAssembly.  The default
       * parameters are covered by the padlock-sop case. */
      o.argon2_passes = 1;
      o.argon2_parallelism = 1;
      o.argon2_memory_exp = 10;
      g_assert_cmpuint (tu_encrypt (&o, pw, g_bytes_get_data (plain, NULL),
                                    sizes[i], &cipher), ==, 0);
      g_test_message ("%" G_GSIZE_FORMAT " octets, %" G_GSIZE_FORMAT
                      " of ciphertext", sizes[i], g_bytes_get_size (cipher));
      check_openpgpjs_decrypts (pwfile, cipher, plain);
      g_bytes_unref (cipher);
      g_bytes_unref (plain);
      g_free (pwfile);
      g_free (pw);
    }
}

/* OpenPGP.js decrypts every file of a batch (issue 13): one S2K
 * specifier for all, a session key each, wrapped in its SKESK (v4 too). */
static void
test_openpgpjs_reads_batch (gconstpointer p)
{
  const pl_profile profile = (pl_profile) GPOINTER_TO_INT (p);
  char *pw, *pwfile;
  pl_encrypt_options o;
  pl_keycache *batch;

  if (!tu_have_openpgpjs ())
    return;
  vary_random (g_test_get_path ());
  pw = tu_random_passphrase ();
  pwfile = tu_write_temp ("js-pw", pw, strlen (pw));
  g_assert_cmpint (pl_keycache_new (&batch), ==, 0);
  pl_encrypt_options_init (&o);
  o.profile = profile;
  o.s2k_ms = 10;
  o.argon2_passes = 1;
  o.argon2_parallelism = 1;
  o.argon2_memory_exp = 10;
  o.keycache = batch;
  for (int i = 0; i < 3; i++)
    {
      GBytes *plain = tu_random_bytes (16384 + 1000 * i), *cipher;

      g_assert_cmpuint (tu_encrypt (&o, pw, g_bytes_get_data (plain, NULL),
                                    g_bytes_get_size (plain), &cipher), ==, 0);
      check_openpgpjs_decrypts (pwfile, cipher, plain);
      g_bytes_unref (cipher);
      g_bytes_unref (plain);
    }
  g_assert_cmpuint (pl_keycache_derivations (batch), ==, 1);
  pl_keycache_free (batch);
  g_free (pwfile);
  g_free (pw);
}

/* OpenPGP.js decrypts 9 MiB that padlock-sop encrypted with its defaults:
 * 4 MiB chunks and, for rfc9580, Argon2 t=3 p=4 m=2^16 KiB. */
static void
test_openpgpjs_reads_sop (gconstpointer p)
{
  const char *profile = p;
  char *pw, *pwfile, *opt;
  GBytes *plain, *cipher;

  if (!tu_have_openpgpjs ())
    return;
  pw = tu_random_passphrase ();
  pwfile = tu_write_temp ("js-pw", pw, strlen (pw));
  plain = tu_random_bytes (9u << 20);
  opt = g_strdup_printf ("--with-password=%s", pwfile);
  {
    char *prof = g_strdup_printf ("--profile=%s", profile);
    const char *args[] = { "encrypt", "--no-armor", prof, opt, NULL };
    g_assert_cmpint (run_sop (args, plain, &cipher), ==, 0);
    g_free (prof);
  }
  check_openpgpjs_decrypts (pwfile, cipher, plain);
  g_bytes_unref (cipher);
  g_bytes_unref (plain);
  g_free (opt);
  g_free (pwfile);
  g_free (pw);
}

typedef struct
{
  const char *name;
  const char *aead;             /* ocb, eax, gcm; NULL: SEIPD v1 */
  int aead_algo;
  int chunk_octet;
  const char *s2k;              /* iterated, argon2, argon2-default */
  gboolean armor;
  gboolean via_sop;             /* also decrypt through padlock-sop */
} js_case;

/* OpenPGP.js encrypts PLAIN as case C describes. */
static GBytes *
openpgpjs_encrypt (const js_case *c, const char *pwfile, GBytes *plain)
{
  char chunk[16];
  const char *armor = c->armor ? "1" : "0";
  GBytes *cipher = NULL;
  int status;

  g_snprintf (chunk, sizeof chunk, "%d", c->chunk_octet);
  if (c->aead)
    {
      const char *args[] = { "encrypt", pwfile, c->aead, chunk, c->s2k,
                             armor, NULL };
      status = tu_run_openpgpjs (args, plain, &cipher);
    }
  else
    {
      const char *args[] = { "v1", pwfile, c->s2k, armor, NULL };
      status = tu_run_openpgpjs (args, plain, &cipher);
    }
  g_assert_cmpint (status, ==, 0);
  g_assert_nonnull (cipher);
  return cipher;
}

/* We decrypt OpenPGP.js output, in-process and (some) via padlock-sop. */
static void
test_ours_reads_openpgpjs (gconstpointer p)
{
  const js_case *c = p;
  char *pw, *pwfile;
  GBytes *plain, *cipher, *back;
  pl_decrypt_result r = { 0 };
  gsize len, max;
  gpg_error_t err;

  if (!tu_have_openpgpjs ())
    return;
  vary_random (c->name);
  pw = tu_random_passphrase ();
  pwfile = tu_write_temp ("js-pw", pw, strlen (pw));
  /* Up to about three chunks of the chosen size. */
  max = c->aead ? ((gsize) 3 << (c->chunk_octet + 6)) + 17 : 3u << 20;
  if (max > MAX_PLAIN)
    max = MAX_PLAIN;
  len = (gsize) g_test_rand_int_range (0, (gint32) max + 1);
  plain = tu_random_bytes (len);
  cipher = openpgpjs_encrypt (c, pwfile, plain);
  g_test_message ("%s: %" G_GSIZE_FORMAT " octets, %" G_GSIZE_FORMAT
                  " of ciphertext", c->name, len, g_bytes_get_size (cipher));

  err = tu_decrypt (pw, g_bytes_get_data (cipher, NULL),
                    g_bytes_get_size (cipher), &back, &r);
  g_assert_cmpstr (gpg_strerror (err), ==, gpg_strerror (0));
  g_assert_cmpuint (g_bytes_get_size (back), ==, len);
  g_assert_true (g_bytes_equal (plain, back));
  g_assert_cmpint (r.armored, ==, c->armor);
  g_assert_cmpint (r.cipher_algo, ==, PL_CIPHER_AES256);
  if (c->aead)
    {
      g_assert_cmpint (r.data_kind, ==, PL_DATA_SEIPD2);
      g_assert_cmpint (r.aead_algo, ==, c->aead_algo);
    }
  else
    g_assert_cmpint (r.data_kind, ==, PL_DATA_SEIPD1);
  g_bytes_unref (back);

  if (c->via_sop)
    {
      char *opt = g_strdup_printf ("--with-password=%s", pwfile);
      const char *args[] = { "decrypt", opt, NULL };
      g_assert_cmpint (run_sop (args, cipher, &back), ==, 0);
      g_assert_true (g_bytes_equal (plain, back));
      g_bytes_unref (back);
      g_free (opt);
    }

  g_bytes_unref (cipher);
  g_bytes_unref (plain);
  g_free (pwfile);
  g_free (pw);
}

/* A wrong passphrase on an OpenPGP.js message is told apart from damage,
 * and nothing is written. */
static void
test_wrong_passphrase (gconstpointer p)
{
  const js_case *c = p;
  char *pw, *pwfile, *wrong, *wrongfile, *opt;
  GBytes *plain, *cipher, *back;
  gpg_error_t err;

  if (!tu_have_openpgpjs ())
    return;
  vary_random (c->name);
  pw = tu_random_passphrase ();
  pwfile = tu_write_temp ("js-pw", pw, strlen (pw));
  wrong = g_strconcat (pw, "x", NULL);
  wrongfile = tu_write_temp ("js-wrong-pw", wrong, strlen (wrong));
  plain = tu_random_bytes ((gsize) g_test_rand_int_range (1, 5000));
  cipher = openpgpjs_encrypt (c, pwfile, plain);

  err = tu_decrypt (wrong, g_bytes_get_data (cipher, NULL),
                    g_bytes_get_size (cipher), &back, NULL);
  g_assert_cmpstr (gpg_strerror (err), ==,
                   gpg_strerror (gpg_error (GPG_ERR_BAD_PASSPHRASE)));
  g_assert_cmpint (gpg_err_code (err), ==, GPG_ERR_BAD_PASSPHRASE);
  g_assert_cmpuint (g_bytes_get_size (back), ==, 0);
  g_bytes_unref (back);

  opt = g_strdup_printf ("--with-password=%s", wrongfile);
  {
    const char *args[] = { "decrypt", opt, NULL };
    g_assert_cmpint (run_sop (args, cipher, &back), ==,
                     SOP_CANNOT_DECRYPT_CODE);
    g_assert_cmpuint (g_bytes_get_size (back), ==, 0);
    g_bytes_unref (back);
  }

  g_free (opt);
  g_bytes_unref (cipher);
  g_bytes_unref (plain);
  g_free (wrongfile);
  g_free (wrong);
  g_free (pwfile);
  g_free (pw);
}

int
main (int argc, char **argv)
{
  static const struct { const char *name; int algo; } aeads[] = {
    { "ocb", PL_AEAD_OCB }, { "eax", PL_AEAD_EAX }, { "gcm", PL_AEAD_GCM },
  };
  static const int chunks[] = { 0, 6, 12, 16 };
  static const char *const s2ks[] = { "iterated", "argon2" };
  static const struct { const char *name; pl_profile profile; } profiles[] = {
    { "rfc9580", PL_PROFILE_RFC9580 }, { "librepgp", PL_PROFILE_LIBREPGP },
  };
  static js_case v1_cases[] = {
    { "v1/binary", NULL, 0, 0, "iterated", FALSE, TRUE },
    { "v1/armor", NULL, 0, 0, "iterated", TRUE, FALSE },
  };
  /* The one case with OpenPGP.js's own Argon2 parameters (64 MiB). */
  static js_case default_case =
    { "seipd2/ocb/c16/argon2-default/binary", "ocb", PL_AEAD_OCB, 16,
      "argon2-default", FALSE, TRUE };
  static js_case wrong_cases[] = {
    { "seipd2", "ocb", PL_AEAD_OCB, 12, "argon2", TRUE, FALSE },
    { "seipd1", NULL, 0, 0, "iterated", FALSE, FALSE },
  };
  GPtrArray *cases = g_ptr_array_new ();

  tu_init (&argc, &argv);

  for (gsize i = 0; i < G_N_ELEMENTS (profiles); i++)
    for (int armor = 0; armor < 2; armor++)
      {
        char *path = g_strdup_printf ("/openpgpjs-reads-ours/%s/%s",
                                      profiles[i].name,
                                      armor ? "armor" : "binary");
        g_test_add_data_func (path,
                              GINT_TO_POINTER (profiles[i].profile << 1
                                               | armor),
                              test_openpgpjs_reads_ours);
        g_free (path);
      }
  for (gsize i = 0; i < G_N_ELEMENTS (profiles); i++)
    {
      char *path = g_strdup_printf ("/openpgpjs-reads-ours/batch/%s",
                                    profiles[i].name);
      g_test_add_data_func (path, GINT_TO_POINTER (profiles[i].profile),
                            test_openpgpjs_reads_batch);
      g_free (path);
    }
  g_test_add_data_func ("/openpgpjs-reads-ours/batch/rfc4880",
                        GINT_TO_POINTER (PL_PROFILE_RFC4880),
                        test_openpgpjs_reads_batch);
  g_test_add_data_func ("/openpgpjs-reads-ours/sop-rfc9580-9mib",
                        "rfc9580", test_openpgpjs_reads_sop);

  for (gsize a = 0; a < G_N_ELEMENTS (aeads); a++)
    for (gsize k = 0; k < G_N_ELEMENTS (chunks); k++)
      for (gsize s = 0; s < G_N_ELEMENTS (s2ks); s++)
        {
          js_case *c = g_new0 (js_case, 1);
          /* Each AEAD and S2K meets both armor and binary. */
          c->armor = (k + s) & 1;
          c->aead = aeads[a].name;
          c->aead_algo = aeads[a].algo;
          c->chunk_octet = chunks[k];
          c->s2k = s2ks[s];
          /* padlock-sop, too, for the 256 KiB-chunk messages. */
          c->via_sop = chunks[k] == 12;
          c->name = g_strdup_printf ("seipd2/%s/c%d/%s/%s", c->aead,
                                     c->chunk_octet, c->s2k,
                                     c->armor ? "armor" : "binary");
          g_ptr_array_add (cases, c);
        }
  for (guint i = 0; i < cases->len; i++)
    {
      js_case *c = cases->pdata[i];
      char *path = g_strdup_printf ("/ours-reads-openpgpjs/%s", c->name);
      g_test_add_data_func (path, c, test_ours_reads_openpgpjs);
      g_free (path);
    }
  g_test_add_data_func ("/ours-reads-openpgpjs/"
                        "seipd2/ocb/c16/argon2-default/binary",
                        &default_case, test_ours_reads_openpgpjs);
  for (gsize i = 0; i < G_N_ELEMENTS (v1_cases); i++)
    {
      char *path = g_strdup_printf ("/ours-reads-openpgpjs/%s",
                                    v1_cases[i].name);
      g_test_add_data_func (path, &v1_cases[i], test_ours_reads_openpgpjs);
      g_free (path);
    }
  for (gsize i = 0; i < G_N_ELEMENTS (wrong_cases); i++)
    {
      char *path = g_strdup_printf ("/wrong-passphrase/%s",
                                    wrong_cases[i].name);
      g_test_add_data_func (path, &wrong_cases[i], test_wrong_passphrase);
      g_free (path);
    }

  {
    int ret = g_test_run ();
    for (guint i = 0; i < cases->len; i++)
      {
        js_case *c = cases->pdata[i];
        g_free ((char *) c->name);
        g_free (c);
      }
    g_ptr_array_free (cases, TRUE);
    return ret;
  }
}
