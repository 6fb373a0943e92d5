/* test-interop-gpg.c - GnuPG reads what we write, and we read what GnuPG
 * writes, run against the real gpg at test time */
#include "testutil.h"
#include "algo.h"
#include "keycache.h"

#include <string.h>
#include <glib/gstdio.h>

/* gpg decrypts our default-profile output, byte for byte. */
static void
test_gpg_reads_ours (gconstpointer p)
{
  const int armor = GPOINTER_TO_INT (p) & 1;
  const int profile = GPOINTER_TO_INT (p) >> 1;
  static const gsize sizes[] = { 0, 1, 4095, (1u << 20) + 1, 7u << 20 };

  if (!tu_have_peer ("gpg"))
    return;
  for (gsize i = 0; i < G_N_ELEMENTS (sizes); i++)
    {
      char *pw = tu_random_passphrase ();
      char *pwfile = tu_write_temp ("gpg-pw", pw, strlen (pw));
      GBytes *plain = tu_random_bytes (sizes[i]);
      GBytes *cipher, *out;
      pl_encrypt_options o;
      const char *args[] = { "--decrypt", NULL };

      pl_encrypt_options_init (&o);
      o.armor = armor;
      o.profile = (pl_profile) profile;
      o.s2k_ms = 10;
      g_assert_cmpuint (tu_encrypt (&o, pw, g_bytes_get_data (plain, NULL),
                                    sizes[i], &cipher), ==, 0);
      g_assert_cmpint (tu_run_gpg (pwfile, args, cipher, &out, NULL), ==, 0);
      g_assert_true (g_bytes_equal (out, plain));
      g_bytes_unref (out);
      g_bytes_unref (cipher);
      g_bytes_unref (plain);
      g_free (pwfile);
      g_free (pw);
    }
}

/* The other peers of a batch: rnp and Sequoia's sqop decrypt a file
 * with the passphrase in PWFILE (PW for rnp, which takes it as an
 * argument).  FALSE (the test failed) when the peer is not installed. */
static gboolean
peer_decrypts (const char *peer, const char *pw, const char *pwfile,
               GBytes *cipher, GBytes *plain)
{
  g_autofree char *path = tu_peer (peer);
  g_autofree char *opt = g_strdup_printf ("--with-password=%s", pwfile);
  g_autofree char *home = g_build_filename (tu_tmpdir (), "rnp-home", NULL);
  g_autofree char *err_text = NULL;
  GBytes *out = NULL;
  int status;

  if (!path)
    return FALSE;
  g_mkdir_with_parents (home, 0700);
  if (!strcmp (peer, "rnp"))
    {
      const char *argv[] = { path, "--homedir", home, "--decrypt",
                             "--password", pw, "--output", "-", NULL };
      g_assert_true (tu_run (argv, cipher, &out, &err_text, &status));
    }
  else
    {
      const char *argv[] = { path, "decrypt", opt, NULL };
      g_assert_true (tu_run (argv, cipher, &out, &err_text, &status));
    }
  if (status)
    g_test_message ("%s: %s", peer, err_text);
  g_assert_cmpint (status, ==, 0);
  g_assert_true (g_bytes_equal (out, plain));
  g_bytes_unref (out);
  return TRUE;
}

/* The files of one batch (issue 13: one S2K specifier for all, each
 * with its own session key wrapped in its SKESK, v4 included) open in
 * gpg, rnp and sqop, each file alone. */
static void
test_peers_read_batch (gconstpointer p)
{
  const pl_profile profile = (pl_profile) GPOINTER_TO_INT (p);
  char *pw, *pwfile;
  pl_encrypt_options o;
  pl_keycache *batch;
  int peers = 0;

  if (!tu_have_peer ("gpg"))
    return;
  pw = tu_random_passphrase ();
  pwfile = tu_write_temp ("batch-pw", pw, strlen (pw));
  g_assert_cmpint (pl_keycache_new (&batch), ==, 0);
  pl_encrypt_options_init (&o);
  o.profile = profile;
  o.s2k_ms = 10;
  o.keycache = batch;
  for (int i = 0; i < 4; i++)
    {
      GBytes *plain = tu_random_bytes (16384 + 4097 * i), *cipher, *out;
      const char *args[] = { "--decrypt", NULL };

      g_assert_cmpuint (tu_encrypt (&o, pw, g_bytes_get_data (plain, NULL),
                                    g_bytes_get_size (plain), &cipher), ==, 0);
      g_assert_cmpint (tu_run_gpg (pwfile, args, cipher, &out, NULL), ==, 0);
      g_assert_true (g_bytes_equal (out, plain));
      g_bytes_unref (out);
      peers = 1;
      peers += peer_decrypts ("rnp", pw, pwfile, cipher, plain);
      /* Sequoia 1 (sqop 0.27) reads neither LibrePGP's OCB packet nor
       * SKESK v6 (it answers 29, cannot decrypt). */
      if (profile == PL_PROFILE_RFC4880)
        peers += peer_decrypts ("sqop", pw, pwfile, cipher, plain);
      g_bytes_unref (cipher);
      g_bytes_unref (plain);
    }
  g_test_message ("%d peers read the batch", peers);
  g_assert_cmpuint (pl_keycache_derivations (batch), ==, 1);
  pl_keycache_free (batch);
  g_free (pwfile);
  g_free (pw);
}

typedef struct
{
  const char *name;
  const char *cipher;
  const char *compress;
  const char *s2k_mode;
  const char *s2k_digest;
  gboolean armor;
  gboolean pipe;
} gpg_case;

/* We decrypt gpg's output. */
static void
test_ours_reads_gpg (gconstpointer p)
{
  const gpg_case *c = p;
  char *pw, *pwfile, *err_text, *in_path;
  GBytes *plain, *cipher, *back;
  GPtrArray *args;
  pl_decrypt_result r = { 0 };
  gsize len;
  int status;
  gpg_error_t err;

  if (!tu_have_peer ("gpg"))
    return;
  pw = tu_random_passphrase ();
  pwfile = tu_write_temp ("gpg-pw", pw, strlen (pw));
  len = (gsize) g_test_rand_int_range (0, 3 << 20);
  plain = tu_random_bytes (len);
  in_path = tu_write_temp ("gpg-in.bin", g_bytes_get_data (plain, NULL),
                           len);
  args = g_ptr_array_new ();
  g_ptr_array_add (args, "--symmetric");
  g_ptr_array_add (args, "--cipher-algo");
  g_ptr_array_add (args, (char *) c->cipher);
  g_ptr_array_add (args, "--compress-algo");
  g_ptr_array_add (args, (char *) c->compress);
  g_ptr_array_add (args, "--s2k-mode");
  g_ptr_array_add (args, (char *) c->s2k_mode);
  g_ptr_array_add (args, "--s2k-digest-algo");
  g_ptr_array_add (args, (char *) c->s2k_digest);
  /* gpg refuses old ciphers with AEAD preferences; none are set here. */
  if (c->armor)
    g_ptr_array_add (args, "--armor");
  g_ptr_array_add (args, "--output");
  g_ptr_array_add (args, "-");
  if (!c->pipe)
    g_ptr_array_add (args, in_path);
  g_ptr_array_add (args, NULL);
  status = tu_run_gpg (pwfile, (const char *const *) args->pdata,
                       c->pipe ? plain : NULL, &cipher, &err_text);
  g_assert_cmpint (status, ==, 0);
  g_test_message ("%s: %" G_GSIZE_FORMAT " octets, %" G_GSIZE_FORMAT
                  " of ciphertext", c->name, len, g_bytes_get_size (cipher));

  err = tu_decrypt (pw, g_bytes_get_data (cipher, NULL),
                    g_bytes_get_size (cipher), &back, &r);
  g_assert_cmpstr (gpg_strerror (err), ==, gpg_strerror (0));
  g_assert_true (g_bytes_equal (plain, back));
  g_assert_cmpint (r.cipher_algo, ==, pl_cipher_from_name (c->cipher));
  g_assert_cmpint (r.armored, ==, c->armor);
  if (!c->pipe)
    g_assert_cmpstr (r.literal.name, ==, "gpg-in.bin");
  g_bytes_unref (back);

  /* And a wrong passphrase is told apart from damage. */
  err = tu_decrypt ("not it", g_bytes_get_data (cipher, NULL),
                    g_bytes_get_size (cipher), &back, NULL);
  g_assert_cmpint (gpg_err_code (err), ==, GPG_ERR_BAD_PASSPHRASE);
  g_assert_cmpuint (g_bytes_get_size (back), ==, 0);
  g_bytes_unref (back);

  g_ptr_array_free (args, TRUE);
  g_bytes_unref (cipher);
  g_bytes_unref (plain);
  g_free (err_text);
  g_free (in_path);
  g_free (pwfile);
  g_free (pw);
}

int
main (int argc, char **argv)
{
  static const gpg_case cases[] = {
    { "aes128", "AES", "none", "3", "SHA256", FALSE, FALSE },
    { "aes192", "AES192", "none", "3", "SHA256", FALSE, FALSE },
    { "aes256", "AES256", "none", "3", "SHA256", FALSE, FALSE },
    { "twofish", "TWOFISH", "none", "3", "SHA256", FALSE, FALSE },
    { "camellia128", "CAMELLIA128", "none", "3", "SHA256", FALSE, FALSE },
    { "camellia192", "CAMELLIA192", "none", "3", "SHA256", FALSE, FALSE },
    { "camellia256", "CAMELLIA256", "none", "3", "SHA256", FALSE, FALSE },
    { "cast5", "CAST5", "none", "3", "SHA1", FALSE, FALSE },
    { "3des", "3DES", "none", "3", "SHA1", FALSE, FALSE },
    { "blowfish", "BLOWFISH", "none", "3", "SHA1", FALSE, FALSE },
    { "idea", "IDEA", "none", "3", "SHA1", FALSE, FALSE },
    { "zip", "AES256", "zip", "3", "SHA256", FALSE, FALSE },
    { "zlib", "AES256", "zlib", "3", "SHA256", FALSE, FALSE },
    { "bzip2", "AES256", "bzip2", "3", "SHA256", FALSE, FALSE },
    { "s2k-simple", "AES256", "none", "0", "SHA256", FALSE, FALSE },
    { "s2k-salted", "AES256", "none", "1", "SHA1", FALSE, FALSE },
    { "s2k-sha512", "AES256", "none", "3", "SHA512", FALSE, FALSE },
    { "s2k-sha384", "CAMELLIA128", "none", "3", "SHA384", FALSE, FALSE },
    { "s2k-sha224", "TWOFISH", "none", "3", "SHA224", FALSE, FALSE },
    { "s2k-ripemd160", "AES", "none", "3", "RIPEMD160", FALSE, FALSE },
    { "armor", "AES256", "none", "3", "SHA256", TRUE, FALSE },
    { "armor-zlib", "AES128", "zlib", "3", "SHA256", TRUE, FALSE },
    { "pipe", "AES256", "none", "3", "SHA256", FALSE, TRUE },
    { "pipe-zip", "AES256", "zip", "3", "SHA256", FALSE, TRUE },
    { "pipe-armor-bzip2", "CAMELLIA256", "bzip2", "3", "SHA256", TRUE, TRUE },
  };

  tu_init (&argc, &argv);
  g_test_add_data_func ("/gpg-reads-ours/rfc4880/binary",
                        GINT_TO_POINTER (PL_PROFILE_RFC4880 << 1),
                        test_gpg_reads_ours);
  g_test_add_data_func ("/gpg-reads-ours/rfc4880/armor",
                        GINT_TO_POINTER (PL_PROFILE_RFC4880 << 1 | 1),
                        test_gpg_reads_ours);
  g_test_add_data_func ("/gpg-reads-ours/librepgp/binary",
                        GINT_TO_POINTER (PL_PROFILE_LIBREPGP << 1),
                        test_gpg_reads_ours);
  g_test_add_data_func ("/gpg-reads-ours/librepgp/armor",
                        GINT_TO_POINTER (PL_PROFILE_LIBREPGP << 1 | 1),
                        test_gpg_reads_ours);
  g_test_add_data_func ("/peers-read-batch/rfc4880",
                        GINT_TO_POINTER (PL_PROFILE_RFC4880),
                        test_peers_read_batch);
  g_test_add_data_func ("/peers-read-batch/librepgp",
                        GINT_TO_POINTER (PL_PROFILE_LIBREPGP),
                        test_peers_read_batch);
  for (gsize i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      char *path = g_strdup_printf ("/ours-reads-gpg/%s", cases[i].name);
      g_test_add_data_func (path, &cases[i], test_ours_reads_gpg);
      g_free (path);
    }
  return g_test_run ();
}
