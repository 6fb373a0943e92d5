/* test-sop.c - padlock-sop as scripts and interop suites drive it */
#include "testutil.h"
#include "key-builder.h"
#include "algo.h"
#include "packet.h"
#include "pkesk.h"
#include "skesk.h"

#include <fcntl.h>
#include <string.h>
#include <time.h>
#include <gcrypt.h>
#include <unistd.h>
#include <sys/wait.h>
#include <glib/gstdio.h>

static void
test_version (void)
{
  const char *a1[] = { "version", NULL };
  const char *a2[] = { "version", "--backend", NULL };
  const char *a3[] = { "version", "--extended", NULL };
  GBytes *out;
  char *e;

  g_assert_cmpint (tu_run_sop (a1, NULL, &out, &e), ==, 0);
  g_assert_true (g_str_has_prefix (g_bytes_get_data (out, NULL),
                                   "padlock-sop "));
  g_bytes_unref (out);
  g_free (e);
  g_assert_cmpint (tu_run_sop (a2, NULL, &out, &e), ==, 0);
  g_assert_true (g_str_has_prefix (g_bytes_get_data (out, NULL),
                                   "libgcrypt 1."));
  g_bytes_unref (out);
  g_free (e);
  g_assert_cmpint (tu_run_sop (a3, NULL, &out, &e), ==, 0);
  g_assert_nonnull (strstr (g_bytes_get_data (out, NULL), "libgcrypt"));
  g_bytes_unref (out);
  g_free (e);
}

static void
test_profiles (void)
{
  const char *a1[] = { "list-profiles", "encrypt", NULL };
  const char *a2[] = { "list-profiles", "decrypt", NULL };
  const char *a3[] = { "frobnicate", NULL };
  GBytes *out;
  char *e, *text;
  char **lines;

  g_assert_cmpint (tu_run_sop (a1, NULL, &out, &e), ==, 0);
  text = g_strndup (g_bytes_get_data (out, NULL), g_bytes_get_size (out));
  lines = g_strsplit (text, "\n", -1);
  g_assert_true (g_str_has_prefix (lines[0], "rfc4880: "));
  g_assert_true (g_str_has_prefix (lines[1], "librepgp: "));
  g_assert_true (g_str_has_prefix (lines[2], "rfc9580: "));
  g_strfreev (lines);
  g_free (text);
  g_bytes_unref (out);
  g_free (e);
  g_assert_cmpint (tu_run_sop (a2, NULL, NULL, &e), ==, 89);
  g_free (e);
  g_assert_cmpint (tu_run_sop (a3, NULL, NULL, &e), ==, 69);
  g_free (e);
}

static void
test_errors (void)
{
  char *pwfile = tu_write_temp ("sop-pw", "hunter2", 7);
  char *pwarg = g_strdup_printf ("--with-password=%s", pwfile);
  const char *no_pw[] = { "encrypt", NULL };
  const char *bad_prefix[] = { "encrypt", "--with-password=@BOGUS:x", NULL };
  const char *missing[] = { "decrypt", "--with-password=/nonexistent/pw",
                            NULL };
  const char *bad_profile[] = { "encrypt", "--profile=rfc1991", pwarg, NULL };
  const char *cert[] = { "encrypt", pwarg, "alice.cert", NULL };
  const char *garbage[] = { "decrypt", pwarg, NULL };
  GBytes *in = tu_bytes_text ("hello"), *out;
  char *e;

  g_assert_cmpint (tu_run_sop (no_pw, in, NULL, &e), ==, 19);
  g_free (e);
  g_assert_cmpint (tu_run_sop (bad_prefix, in, NULL, &e), ==, 71);
  g_free (e);
  g_assert_cmpint (tu_run_sop (missing, in, NULL, &e), ==, 61);
  g_free (e);
  g_assert_cmpint (tu_run_sop (bad_profile, in, NULL, &e), ==, 89);
  g_free (e);
  /* A certificate file that is not there. */
  g_assert_cmpint (tu_run_sop (cert, in, NULL, &e), ==, 61);
  g_free (e);
  g_assert_cmpint (tu_run_sop (garbage, in, &out, &e), ==, 41);
  g_assert_cmpuint (g_bytes_get_size (out), ==, 0);
  /* The passphrase never shows in a message. */
  g_assert_null (strstr (e, "hunter2"));
  g_bytes_unref (out);
  g_free (e);
  g_bytes_unref (in);
  g_free (pwarg);
  g_free (pwfile);
}

/* Every way of giving a password, and each profile. */
static void
test_roundtrip (void)
{
  static const char *profiles[] = { "rfc4880", "librepgp", "rfc9580" };
  /* sqop trims on encrypt: a file ending in a newline still opens. */
  char *pwfile = tu_write_temp ("sop-pw-nl", "s3cret pass\n", 12);
  char *pwarg = g_strdup_printf ("--with-password=%s", pwfile);
  GBytes *plain = tu_random_bytes (300000);

  g_setenv ("SOP_TEST_PW", "s3cret pass", TRUE);
  for (gsize i = 0; i < G_N_ELEMENTS (profiles); i++)
    for (int armor = 0; armor < 2; armor++)
      {
        char *profile = g_strdup_printf ("--profile=%s", profiles[i]);
        const char *enc[] = { "encrypt", profile, pwarg,
                              armor ? NULL : "--no-armor", NULL };
        const char *dec[] = { "decrypt", "--with-password=@ENV:SOP_TEST_PW",
                              NULL };
        GBytes *cipher, *back;
        char *e;

        g_assert_cmpint (tu_run_sop (enc, plain, &cipher, &e), ==, 0);
        g_free (e);
        g_assert_cmpint (g_str_has_prefix (g_bytes_get_data (cipher, NULL),
                                           "-----BEGIN PGP MESSAGE-----"),
                         ==, armor);
        g_assert_cmpint (tu_run_sop (dec, cipher, &back, &e), ==, 0);
        g_free (e);
        g_assert_true (g_bytes_equal (plain, back));
        g_bytes_unref (back);
        g_bytes_unref (cipher);
        g_free (profile);
      }
  g_bytes_unref (plain);
  g_free (pwarg);
  g_free (pwfile);
}

/* Several --with-password: one key packet each, and each opens the
 * message alone, for us and for gpg; a bad one among them fails the whole
 * command before any output. */
static void
test_several_passwords (void)
{
  static const char *profiles[] = { "rfc4880", "librepgp", "rfc9580" };
  char *gpg = tu_peer ("gpg");
  char *rnp = tu_peer ("rnp");
  GBytes *plain = tu_random_bytes (70000);

  g_setenv ("SOP_PW_A", "first pass", TRUE);
  g_setenv ("SOP_PW_B", "second pass", TRUE);
  g_setenv ("SOP_PW_C", "third pass", TRUE);
  g_setenv ("SOP_PW_BLANK", " \t", TRUE);
  for (gsize i = 0; i < G_N_ELEMENTS (profiles); i++)
    {
      char *profile = g_strdup_printf ("--profile=%s", profiles[i]);
      const char *enc[] = { "encrypt", profile, "--no-armor",
                            "--with-password=@ENV:SOP_PW_A",
                            "--with-password=@ENV:SOP_PW_B", NULL };
      const char *bad[] = { "encrypt", profile,
                            "--with-password=@ENV:SOP_PW_A",
                            "--with-password=@ENV:SOP_PW_BLANK", NULL };
      static const char *const pws[] = { "A", "B", "C" };
      GBytes *cipher, *back;
      char *e;

      g_assert_cmpint (tu_run_sop (enc, plain, &cipher, &e), ==, 0);
      g_free (e);
      for (gsize k = 0; k < G_N_ELEMENTS (pws); k++)
        {
          char *arg = g_strdup_printf ("--with-password=@ENV:SOP_PW_%s",
                                       pws[k]);
          const char *dec[] = { "decrypt", arg, NULL };
          int status = tu_run_sop (dec, cipher, &back, &e);

          /* C was not among the passwords. */
          g_assert_cmpint (status, ==, k == 2 ? 29 : 0);
          if (k < 2)
            g_assert_true (g_bytes_equal (plain, back));
          g_bytes_unref (back);
          g_free (e);
          g_free (arg);
        }
      /* gpg 2.2 reads no SEIPD v2.  gpg 2.2.40 uses the first key packet
       * whatever the passphrase ("Bad session key" with the second one):
       * it opens the message with the first password only. */
      if (gpg && i < 2)
        {
          const char *pw = "first pass";
          char *pwfile = tu_write_temp ("sop-pw-a", pw, strlen (pw));
          const char *args[] = { "--decrypt", NULL };

          g_assert_cmpint (tu_run_gpg (pwfile, args, cipher, &back, NULL),
                           ==, 0);
          g_assert_true (g_bytes_equal (plain, back));
          g_bytes_unref (back);
          g_free (pwfile);
        }
      /* rnp tries every key packet: the second password opens it. */
      if (rnp && i < 2)
        {
          const char *argv[] = { rnp, "--decrypt", "--password",
                                 "second pass", "--output", "-", NULL };
          int status;

          g_assert_true (tu_run (argv, cipher, &back, &e, &status));
          if (status)
            g_test_message ("rnp: %s", e);
          g_assert_cmpint (status, ==, 0);
          g_assert_true (g_bytes_equal (plain, back));
          g_bytes_unref (back);
          g_free (e);
        }
      g_assert_cmpint (tu_run_sop (bad, plain, &back, &e), ==, 31);
      g_assert_cmpuint (g_bytes_get_size (back), ==, 0);
      g_bytes_unref (back);
      g_free (e);
      g_bytes_unref (cipher);
      g_free (profile);
    }
  g_bytes_unref (plain);
  g_free (rnp);
  g_free (gpg);
}

/* @FD:N passes the password through an inherited descriptor. */
static void
test_fd_password (void)
{
  char *pwfile = tu_write_temp ("sop-pw-fd", "fd pass", 7);
  char *plain_path = tu_write_temp ("sop-fd-plain", "via fd", 6);
  char *cmd = g_strdup_printf ("'%s' encrypt --with-password=@FD:3 3<'%s' "
                               "<'%s' | '%s' decrypt --with-password=@FD:4 "
                               "4<'%s'", tu_sop_path (), pwfile, plain_path,
                               tu_sop_path (), pwfile);
  const char *argv[] = { "/bin/sh", "-c", cmd, NULL };
  GBytes *out;
  char *e;
  int status;

  g_assert_true (tu_run (argv, NULL, &out, &e, &status));
  g_assert_cmpint (status, ==, 0);
  g_assert_cmpmem (g_bytes_get_data (out, NULL), g_bytes_get_size (out),
                   "via fd", 6);
  g_bytes_unref (out);
  g_free (e);
  g_free (cmd);
  g_free (plain_path);
  g_free (pwfile);
}

static void
test_session_keys (void)
{
  char *pwfile = tu_write_temp ("sop-pw-sk", "pw", 2);
  char *pwarg = g_strdup_printf ("--with-password=%s", pwfile);
  char *skfile = g_build_filename (tu_tmpdir (), "session.key", NULL);
  char *skout = g_strdup_printf ("--session-key-out=%s", skfile);
  char *skin = g_strdup_printf ("--with-session-key=%s", skfile);
  const char *enc[] = { "encrypt", pwarg, NULL };
  const char *dec[] = { "decrypt", pwarg, skout, NULL };
  const char *dec_sk[] = { "decrypt", skin, NULL };
  GBytes *plain = tu_bytes_text ("session key test"), *cipher, *back;
  char *e, *sk;

  g_unlink (skfile);
  g_assert_cmpint (tu_run_sop (enc, plain, &cipher, &e), ==, 0);
  g_free (e);
  g_assert_cmpint (tu_run_sop (dec, cipher, &back, &e), ==, 0);
  g_free (e);
  g_assert_true (g_bytes_equal (plain, back));
  g_bytes_unref (back);
  g_assert_true (g_file_get_contents (skfile, &sk, NULL, NULL));
  /* AES-256 by default: "9:" and 64 hex digits. */
  g_assert_true (g_str_has_prefix (sk, "9:"));
  g_assert_cmpuint (strlen (g_strchomp (sk)), ==, 2 + 64);
  g_free (sk);
  /* The file exists now: SOP says 59. */
  g_assert_cmpint (tu_run_sop (dec, cipher, NULL, &e), ==, 59);
  g_free (e);
  g_assert_cmpint (tu_run_sop (dec_sk, cipher, &back, &e), ==, 0);
  g_free (e);
  g_assert_true (g_bytes_equal (plain, back));
  g_bytes_unref (back);
  g_bytes_unref (cipher);
  g_bytes_unref (plain);
  g_free (skin);
  g_free (skout);
  g_free (skfile);
  g_free (pwarg);
  g_free (pwfile);
}

static void
test_armor_dearmor (void)
{
  const char *armor[] = { "armor", NULL };
  const char *dearmor[] = { "dearmor", NULL };
  GBytes *plain = tu_random_bytes (100000), *bin, *arm, *back, *again;
  pl_encrypt_options o;
  char *e;

  /* A binary message, which label auto armors as one. */
  pl_encrypt_options_init (&o);
  o.s2k_ms = 1;
  g_assert_cmpint (tu_encrypt (&o, "pw", g_bytes_get_data (plain, NULL),
                               g_bytes_get_size (plain), &bin), ==, 0);
  g_bytes_unref (plain);
  g_assert_cmpint (tu_run_sop (armor, bin, &arm, &e), ==, 0);
  g_free (e);
  g_assert_true (g_str_has_prefix (g_bytes_get_data (arm, NULL),
                                   "-----BEGIN PGP MESSAGE-----\n"));
  g_assert_cmpint (tu_run_sop (dearmor, arm, &back, &e), ==, 0);
  g_free (e);
  g_assert_true (g_bytes_equal (bin, back));
  /* Armoring armor changes nothing; dearmoring binary neither. */
  g_assert_cmpint (tu_run_sop (armor, arm, &again, &e), ==, 0);
  g_free (e);
  g_assert_true (g_bytes_equal (arm, again));
  g_bytes_unref (again);
  g_assert_cmpint (tu_run_sop (dearmor, bin, &again, &e), ==, 0);
  g_free (e);
  g_assert_true (g_bytes_equal (bin, again));
  g_bytes_unref (again);
  g_bytes_unref (back);
  g_bytes_unref (arm);
  g_bytes_unref (bin);
}

/* armor --label auto names keys and signatures by what pl_sniff finds
 * (core/sniff.c), not by a first octet; dearmor refuses what is neither
 * armor nor OpenPGP. */
static void
test_armor_labels (void)
{
  static const guint8 key[] = {
    0x99, 0x00, 0x33, 4, 0x65, 0, 0, 0, 22, 9, 0x2b, 0x06, 0x01, 0x04, 0x01,
    0xda, 0x47, 0x0f, 0x01, 0x01, 0x07, 0x40, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10,
    11, 12, 13, 14, 15, 16, 17, 18, 19, 20, 21, 22, 23, 24, 25, 26, 27, 28,
    29, 30, 31, 32, 0xb4, 0x05, 'A', 'l', 'i', 'c', 'e'
  };
  static const guint8 sig[] = { 0xc2, 0x0a, 4, 0x00, 22, 8, 0, 0, 0, 0, 0, 0 };
  const char *armor[] = { "armor", NULL };
  const char *dearmor[] = { "dearmor", NULL };
  g_autoptr(GBytes) key_in = g_bytes_new_static (key, sizeof key);
  g_autoptr(GBytes) sig_in = g_bytes_new_static (sig, sizeof sig);
  g_autoptr(GBytes) text = g_bytes_new_static ("hello\n", 6);
  GBytes *out = NULL;
  char *e = NULL;

  g_assert_cmpint (tu_run_sop (armor, key_in, &out, &e), ==, 0);
  g_assert_true (g_str_has_prefix (g_bytes_get_data (out, NULL),
                                   "-----BEGIN PGP PUBLIC KEY BLOCK-----\n"));
  g_clear_pointer (&out, g_bytes_unref);
  g_clear_pointer (&e, g_free);
  g_assert_cmpint (tu_run_sop (armor, sig_in, &out, &e), ==, 0);
  g_assert_true (g_str_has_prefix (g_bytes_get_data (out, NULL),
                                   "-----BEGIN PGP SIGNATURE-----\n"));
  g_clear_pointer (&out, g_bytes_unref);
  g_clear_pointer (&e, g_free);
  g_assert_cmpint (tu_run_sop (dearmor, text, &out, &e), ==, 41);
  g_clear_pointer (&out, g_bytes_unref);
  g_clear_pointer (&e, g_free);
}

/* A damaged message leaves nothing behind, whether stdout is a pipe or a
 * regular file. */
static void
test_no_plaintext_on_failure (void)
{
  char *pwfile = tu_write_temp ("sop-pw-dmg", "pw", 2);
  char *pwarg = g_strdup_printf ("--with-password=%s", pwfile);
  const char *enc[] = { "encrypt", "--no-armor", pwarg, NULL };
  const char *dec[] = { "decrypt", pwarg, NULL };
  GBytes *plain = tu_random_bytes (3u << 20), *cipher, *bad, *out;
  char *e, *bad_path, *out_path, *cmd, *contents;
  guint8 *d;
  gsize n, clen;
  int status;
  const char *argv[4] = { "/bin/sh", "-c", NULL, NULL };

  g_assert_cmpint (tu_run_sop (enc, plain, &cipher, &e), ==, 0);
  g_free (e);
  d = g_memdup2 (g_bytes_get_data (cipher, NULL), g_bytes_get_size (cipher));
  n = g_bytes_get_size (cipher);
  d[n - 30] ^= 0x40;             /* inside the MDC */
  bad = g_bytes_new_take (d, n);

  /* Through a pipe: nothing comes out at all. */
  g_assert_cmpint (tu_run_sop (dec, bad, &out, &e), ==, 29);
  g_assert_cmpuint (g_bytes_get_size (out), ==, 0);
  g_bytes_unref (out);
  g_free (e);

  /* Into a regular file: it is truncated again. */
  bad_path = tu_write_temp ("damaged.pgp", d, n);
  out_path = g_build_filename (tu_tmpdir (), "damaged.out", NULL);
  cmd = g_strdup_printf ("'%s' decrypt '%s' < '%s' > '%s'", tu_sop_path (),
                         pwarg, bad_path, out_path);
  argv[2] = cmd;
  g_assert_true (tu_run (argv, NULL, NULL, &e, &status));
  g_assert_cmpint (status, ==, 29);
  g_assert_true (g_file_get_contents (out_path, &contents, &clen, NULL));
  g_assert_cmpuint (clen, ==, 0);
  g_free (contents);
  g_free (e);
  g_free (cmd);
  g_free (out_path);
  g_free (bad_path);
  g_bytes_unref (bad);
  g_bytes_unref (cipher);
  g_bytes_unref (plain);
  g_free (pwarg);
  g_free (pwfile);
}

static void
test_speed (void)
{
  const char *args[] = { "speed", "--seconds=0.01", NULL };
  GBytes *out;
  char *e, *text;
  char **lines;
  int measured = 0;

  g_assert_cmpint (tu_run_sop (args, NULL, &out, &e), ==, 0);
  text = g_strndup (g_bytes_get_data (out, NULL), g_bytes_get_size (out));
  lines = g_strsplit (text, "\n", -1);
  for (char **l = lines; *l; l++)
    if (strstr (*l, " MB/s"))
      {
        /* The last number before "MB/s" is the rate. */
        char *mb = strstr (*l, " MB/s");
        while (mb > *l && mb[-1] != ' ')
          mb--;
        g_assert_cmpfloat (g_ascii_strtod (mb, NULL), >, 1.0);
        measured++;
      }
  g_assert_nonnull (strstr (text, "AES-256-OCB encrypt"));
  g_assert_nonnull (strstr (text, "SHA-1"));
  g_assert_cmpint (measured, >=, 10);
  g_strfreev (lines);
  g_free (text);
  g_free (e);
  g_bytes_unref (out);
}

/* Issue 32 §5: a certificate whose encryption key is not safe to use
 * (RSA-1024, e = 1) is refused with exit 17, CERT_CANNOT_ENCRYPT, naming
 * the key and why; before, it was encrypted to. */
static void
test_unsafe_cert (void)
{
  static const struct { unsigned int bits; int how; const char *why; }
  subs[] = {
    { 1024, KB_RSA_GOOD, "RSA-1024 is too weak" },
    { 2048, KB_RSA_E1, "its RSA exponent e = 1 is unsafe" },
  };
  uint32_t t = (uint32_t) time (NULL) - 60;
  kb_key primary;

  kb_rsa (&primary, 2048, KB_RSA_GOOD, t);
  for (gsize i = 0; i < G_N_ELEMENTS (subs); i++)
    {
      kb_key sub;
      GBytes *cert, *in = tu_bytes_text ("x"), *out = NULL;
      g_autofree char *path = NULL, *err_text = NULL;
      char fpr[2 * PL_FPR_MAX + 3];
      const char *args[3] = { "encrypt", NULL, NULL };

      kb_rsa (&sub, subs[i].bits, subs[i].how, t);
      cert = kb_cert (&primary, 0x03, &sub, 0x0C, 0, t);
      path = tu_write_temp_bytes ("unsafe.cert", cert);
      args[1] = path;
      g_assert_cmpint (tu_run_sop (args, in, &out, &err_text), ==, 17);
      g_test_message ("%s", err_text);
      pl_fpr_format (primary.pub.fpr, primary.pub.fpr_len, fpr);
      g_assert_nonnull (strstr (err_text, fpr));
      g_assert_nonnull (strstr (err_text, subs[i].why));
      g_assert_cmpuint (out ? g_bytes_get_size (out) : 0, ==, 0);
      if (out)
        g_bytes_unref (out);
      g_bytes_unref (in);
      g_bytes_unref (cert);
      kb_clear (&sub);
    }
  kb_clear (&primary);
}

/* Issue 32 §5: one's own RSA-1024 subkey still decrypts, and padlock-sop
 * says on stderr that it is too weak (pl_decrypt_result.key_warning). */
static void
test_weak_own_key_warns (void)
{
  static const char text[] = "weak key";
  uint32_t t = (uint32_t) time (NULL) - 60;
  uint8_t *key = gcry_malloc_secure (PL_SESSION_KEY_MAX);
  pl_encrypt_options o;
  pl_opener pw = pl_opener_passphrase ("pw", 2);
  pl_decrypt_options d = { &pw, 1, 0, NULL };
  pl_decrypt_result result;
  GBytes *msg = NULL, *sec, *out = NULL, *in;
  const uint8_t *m;
  gsize m_len, skesk_len;
  uint8_t body[PL_PKESK_BODY_MAX], head[6];
  size_t len, hl;
  pl_pkesk p;
  kb_key primary, sub;
  GByteArray *with_pkesk = g_byte_array_new ();
  g_autofree char *path = NULL, *err_text = NULL;
  const char *args[3] = { "decrypt", NULL, NULL };

  /* A passphrase message, its session key, and its SKESK swapped for a
   * PKESK to the weak subkey (encrypting to it is refused now). */
  pl_encrypt_options_init (&o);
  o.s2k_ms = 1;
  g_assert_cmpint (tu_encrypt (&o, "pw", text, sizeof text - 1, &msg), ==, 0);
  {
    pl_source *src = pl_source_new_memory (g_bytes_get_data (msg, NULL),
                                           g_bytes_get_size (msg));
    pl_sink *sink = pl_sink_new_memory ();
    d.session_key_out = key;
    g_assert_cmpint (pl_decrypt (src, sink, &d, &result, NULL), ==, 0);
    pl_sink_free (sink);
    pl_source_free (src);
  }
  m = g_bytes_get_data (msg, &m_len);
  g_assert_cmpint (m[0], ==, 0xC0 | PL_PKT_SKESK);
  g_assert_cmpint (m[1], <, 192);
  skesk_len = 2 + m[1];
  kb_rsa (&primary, 2048, KB_RSA_GOOD, t);
  kb_rsa (&sub, 1024, KB_RSA_GOOD, t);
  g_assert_cmpint (pl_pkesk_encrypt (&p, 3, &sub.pub, 0, PL_CIPHER_AES256,
                                     key, 32), ==, 0);
  len = pl_pkesk_write (&p, body);
  hl = pl_packet_write_header (head, PL_PKT_PKESK, len);
  g_byte_array_append (with_pkesk, head, (guint) hl);
  g_byte_array_append (with_pkesk, body, (guint) len);
  g_byte_array_append (with_pkesk, m + skesk_len, (guint) (m_len - skesk_len));
  in = g_byte_array_free_to_bytes (with_pkesk);
  sec = kb_cert (&primary, 0x03, &sub, 0x0C, 1, t);
  path = tu_write_temp_bytes ("weak.key", sec);
  args[1] = path;
  g_assert_cmpint (tu_run_sop (args, in, &out, &err_text), ==, 0);
  g_test_message ("%s", err_text);
  g_assert_cmpmem (g_bytes_get_data (out, NULL), g_bytes_get_size (out),
                   text, sizeof text - 1);
  g_assert_nonnull (strstr (err_text, "padlock-sop: warning: "));
  g_assert_nonnull (strstr (err_text, "RSA-1024 is too weak"));
  g_bytes_unref (out);
  g_bytes_unref (in);
  g_bytes_unref (sec);
  g_bytes_unref (msg);
  kb_clear (&primary);
  kb_clear (&sub);
  gcry_free (key);
}

/* Issue 32 §5, gpg 2.2's 1024-bit DSA and ElGamal keys (tests/data):
 * encrypting to an elg1024 subkey exits 17 naming it and why (it was 13,
 * "algorithm not supported", which said nothing of its size); a
 * DSA-1024 signature is not valid, saying why (it was good, exit 0); and
 * one's own elg1024 key still opens what gpg encrypted to it, with the
 * warning. */
static void
test_weak_old_keys (void)
{
  g_autofree char *sec = tu_data_path ("dsa1024-elg1024-sec.asc");
  g_autofree char *elg = tu_data_path ("ed25519-elg1024-cert.asc");
  g_autofree char *sig = tu_data_path ("dsa1024-signed.sig");
  GBytes *msg = tu_data_bytes ("elg1024-msg.gpg"), *out = NULL;
  GBytes *signed_text = tu_bytes_text ("signed by an old key\n");
  char *err_text = NULL;
  const char *enc[] = { "encrypt", elg, NULL };
  const char *ver[] = { "verify", sig, sec, NULL };
  const char *dec[] = { "decrypt", sec, NULL };

  g_assert_cmpint (tu_run_sop (enc, signed_text, &out, &err_text), ==, 17);
  g_test_message ("%s", err_text);
  g_assert_nonnull (strstr (err_text, "its subkey 0x204CB2610D6C86AFEFE8569CE"
                                      "02CB283AC9AB64D: ElGamal-1024 is too "
                                      "weak"));
  g_assert_cmpuint (out ? g_bytes_get_size (out) : 0, ==, 0);
  g_clear_pointer (&out, g_bytes_unref);
  g_clear_pointer (&err_text, g_free);

  g_assert_cmpint (tu_run_sop (ver, signed_text, &out, &err_text), ==, 3);
  g_test_message ("%s", err_text);
  g_assert_nonnull (strstr (err_text, "not valid: DSA-1024 is too weak"));
  g_clear_pointer (&out, g_bytes_unref);
  g_clear_pointer (&err_text, g_free);

  g_assert_cmpint (tu_run_sop (dec, msg, &out, &err_text), ==, 0);
  g_test_message ("%s", err_text);
  g_assert_cmpmem (g_bytes_get_data (out, NULL), g_bytes_get_size (out),
                   "for an old key\n", 15);
  g_assert_nonnull (strstr (err_text, "padlock-sop: warning: the key that "
                                      "opened it, 0x6DB4337AA69F460B787DD8D3"
                                      "AB3DE6DC9D86BF4C, is not safe to use: "
                                      "ElGamal-1024 is too weak"));
  g_bytes_unref (out);
  g_free (err_text);
  g_bytes_unref (signed_text);
  g_bytes_unref (msg);
}

int
main (int argc, char **argv)
{
  tu_init (&argc, &argv);
  g_test_add_func ("/sop/speed", test_speed);
  g_test_add_func ("/sop/version", test_version);
  g_test_add_func ("/sop/profiles", test_profiles);
  g_test_add_func ("/sop/errors", test_errors);
  g_test_add_func ("/sop/unsafe-cert", test_unsafe_cert);
  g_test_add_func ("/sop/weak-own-key-warns", test_weak_own_key_warns);
  g_test_add_func ("/sop/weak-old-keys", test_weak_old_keys);
  g_test_add_func ("/sop/roundtrip", test_roundtrip);
  g_test_add_func ("/sop/fd-password", test_fd_password);
  g_test_add_func ("/sop/several-passwords", test_several_passwords);
  g_test_add_func ("/sop/session-keys", test_session_keys);
  g_test_add_func ("/sop/armor-dearmor", test_armor_dearmor);
  g_test_add_func ("/sop/armor-labels", test_armor_labels);
  g_test_add_func ("/sop/no-plaintext-on-failure",
                   test_no_plaintext_on_failure);
  return g_test_run ();
}
