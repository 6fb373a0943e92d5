/* test-padlock-secret-input.c - reading secrets
 * (sop/padlock-secret-input.h): bounded by PL_PASSPHRASE_MAX from every
 * source, and secure memory that runs out is an error like any other,
 * for the reader and the engine (issue 19 item 3) */
#include "testutil.h"
#include "job.h"
#include "passphrase.h"
#include "padlock-secret-input.h"

#include <stdlib.h>
#include <string.h>
#include <fcntl.h>
#include <termios.h>
#include <unistd.h>
#include <gcrypt.h>

static char *
file_of (const char *name, gsize len, char fill)
{
  char *data = g_malloc (len + 1);
  char *path;

  memset (data, fill, len);
  path = tu_write_temp (name, data, len);
  g_free (data);
  return path;
}

static gpg_error_t
read_spec (const char *spec, size_t *len)
{
  char *text = NULL;
  gpg_error_t err = padlock_secret_read (spec, PADLOCK_SECRET_INDIRECT,
                                         &text, len);

  g_assert_true (err ? text == NULL : text != NULL);
  padlock_secret_text_free (text, *len);
  return err;
}

/* At most PL_PASSPHRASE_MAX octets from a file, a descriptor or the
 * environment; more is refused, 10 MB as quickly as 4097 octets. */
static void
test_bounded (void)
{
  static const gsize sizes[] = { 4096, 4097, 1 << 20, 10000000 };

  for (gsize i = 0; i < G_N_ELEMENTS (sizes); i++)
    {
      g_autofree char *path = file_of ("pw", sizes[i], 'x');
      g_autofree char *fd_spec = NULL;
      size_t len = 0;
      gpg_error_t want = sizes[i] <= PL_PASSPHRASE_MAX
                         ? 0 : gpg_error (PL_ERR_PASSPHRASE_TOO_LONG);
      int fd = open (path, O_RDONLY);

      g_assert_cmpint (read_spec (path, &len), ==, want);
      if (!want)
        g_assert_cmpuint (len, ==, sizes[i]);
      fd_spec = g_strdup_printf ("@FD:%d", fd);
      g_assert_cmpint (read_spec (fd_spec, &len), ==, want);
      close (fd);
      /* A file, not a special designator, without the flag. */
      {
        char *none = NULL;

        g_assert_cmpint (gpg_err_code (padlock_secret_read ("@ENV:HOME", 0,
                                                            &none, &len)),
                         ==, GPG_ERR_ENOENT);
        g_assert_null (none);
      }
    }
  g_setenv ("PADLOCK_TEST_PW", "secret", TRUE);
  g_assert_cmpint (read_spec ("@ENV:PADLOCK_TEST_PW", &(size_t){ 0 }), ==, 0);
  g_assert_cmpint (gpg_err_code (read_spec ("@ENV:PADLOCK_TEST_UNSET",
                                            &(size_t){ 0 })), ==,
                   GPG_ERR_ENOENT);
  g_assert_cmpint (gpg_err_code (read_spec ("@FILE:x", &(size_t){ 0 })), ==,
                   GPG_ERR_INV_NAME);
  g_assert_cmpint (gpg_err_code (read_spec ("@FD:x", &(size_t){ 0 })), ==,
                   GPG_ERR_INV_NAME);
}

static void
test_nul (void)
{
  g_autofree char *path = tu_write_temp ("pw", "se\0cret\n", 8);
  size_t len;

  g_assert_cmpint (gpg_err_code (read_spec (path, &len)), ==,
                   PL_ERR_PASSPHRASE_NOT_TEXT);
}

typedef struct
{
  const char *spec;
  char *text;
  size_t len;
  gpg_error_t err;
} tty_read;

static gpointer
read_in_thread (gpointer data)
{
  tty_read *r = data;

  r->err = padlock_secret_read (r->spec, PADLOCK_SECRET_INDIRECT, &r->text,
                                &r->len);
  return NULL;
}

/* A descriptor that is a terminal is read as one: a line, less its
 * line ending, with echo off (the terminal shows only the newline).
 * The line is typed once the reader has turned echo off. */
static void
test_terminal_no_echo (void)
{
  int master = posix_openpt (O_RDWR | O_NOCTTY);
  int slave;
  g_autofree char *spec = NULL;
  tty_read r = { 0 };
  struct termios t;
  GThread *reader;
  char echoed[64];
  ssize_t n;

  g_assert_cmpint (master, >=, 0);
  g_assert_cmpint (grantpt (master), ==, 0);
  g_assert_cmpint (unlockpt (master), ==, 0);
  slave = open (ptsname (master), O_RDWR | O_NOCTTY);
  g_assert_cmpint (slave, >=, 0);
  spec = g_strdup_printf ("@FD:%d", slave);
  r.spec = spec;
  reader = g_thread_new ("reader", read_in_thread, &r);
  do
    {
      g_usleep (1000);
      g_assert_cmpint (tcgetattr (slave, &t), ==, 0);
    }
  while (t.c_lflag & ECHO);
  g_assert_cmpint (write (master, "typed secret\n", 13), ==, 13);
  g_thread_join (reader);
  g_assert_cmpint (r.err, ==, 0);
  g_assert_cmpmem (r.text, r.len, "typed secret", 12);
  padlock_secret_text_free (r.text, r.len);
  /* Echo is back on for whoever reads next. */
  g_assert_cmpint (tcgetattr (slave, &t), ==, 0);
  g_assert_true (t.c_lflag & ECHO);
  fcntl (master, F_SETFL, O_NONBLOCK);
  n = read (master, echoed, sizeof echoed);
  g_assert_null (n > 0 ? g_strstr_len (echoed, n, "secret") : NULL);
  close (slave);
  close (master);
}

/* Takes every block of secure memory there is (libgcrypt's pool does not
 * grow); returns them for exhaust_free. */
static GPtrArray *
exhaust_secure_memory (void)
{
  GPtrArray *blocks = g_ptr_array_new ();
  size_t size = 64 * 1024;

  while (size >= 16)
    {
      void *p = gcry_malloc_secure (size);
      if (p)
        g_ptr_array_add (blocks, p);
      else
        size /= 2;
    }
  return blocks;
}

static void
exhaust_free (GPtrArray *blocks)
{
  g_ptr_array_set_free_func (blocks, gcry_free);
  g_ptr_array_unref (blocks);
}

/* No secure memory left: the reader, encryption and decryption each
 * fail with an error, and nothing aborts. */
static void
test_out_of_secure_memory (void)
{
  g_autofree char *path = tu_write_temp ("pw", "secret\n", 7);
  pl_opener key = pl_opener_passphrase_source ("secret\n", 7,
                                               PL_PASSPHRASE_FILE);
  pl_encrypt_options eo;
  pl_decrypt_options dopts = { 0 };
  pl_source *src;
  pl_sink *sink;
  GPtrArray *blocks;
  size_t len;
  gpg_error_t err;

  blocks = exhaust_secure_memory ();
  g_test_message ("%u blocks of secure memory taken", blocks->len);
  g_assert_cmpint (gpg_err_code (read_spec (path, &len)), ==,
                   GPG_ERR_ENOMEM);

  pl_encrypt_options_init (&eo);
  eo.openers = &key;
  eo.n_openers = 1;
  eo.s2k_ms = 1;
  src = pl_source_new_memory ("hello", 5);
  sink = pl_sink_new_memory ();
  err = pl_encrypt (src, sink, &eo, NULL);
  g_assert_cmpint (err, !=, 0);
  pl_sink_free (sink);
  pl_source_free (src);

  dopts.openers = &key;
  dopts.n_openers = 1;
  src = pl_source_new_memory ("\xc3\x04\x04\x03\x08\x00", 6);
  sink = pl_sink_new_memory ();
  err = pl_decrypt (src, sink, &dopts, NULL, NULL);
  g_assert_cmpint (err, !=, 0);
  pl_sink_free (sink);
  pl_source_free (src);
  exhaust_free (blocks);

  /* And all is well once there is some again. */
  g_assert_cmpint (read_spec (path, &len), ==, 0);
}

int
main (int argc, char **argv)
{
  tu_init (&argc, &argv);
  g_test_add_func ("/secret-input/bounded", test_bounded);
  g_test_add_func ("/secret-input/nul", test_nul);
  g_test_add_func ("/secret-input/terminal-no-echo", test_terminal_no_echo);
  g_test_add_func ("/secret-input/out-of-secure-memory",
                   test_out_of_secure_memory);
  return g_test_run ();
}
