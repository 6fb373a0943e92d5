/* test-secret-input.c - reading secrets (app/padlock-secret-input.h):
 * bounded by PL_PASSPHRASE_MAX from every source, and secure memory that
 * runs out is an error like any other, for the reader and the engine
 * (issue 19 item 3) */
#include "testutil.h"
#include "job.h"
#include "passphrase.h"
#include "padlock-secret-input.h"

#include <string.h>
#include <fcntl.h>
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
      g_assert_cmpint (gpg_err_code (padlock_secret_read ("@ENV:HOME", 0,
                                                          &fd_spec, &len)),
                       ==, GPG_ERR_ENOENT);
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
  pl_key key = pl_key_passphrase_source ("secret\n", 7, PL_PASSPHRASE_FILE);
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
  eo.keys = &key;
  eo.n_keys = 1;
  eo.s2k_ms = 1;
  src = pl_source_new_memory ("hello", 5);
  sink = pl_sink_new_memory ();
  err = pl_encrypt (src, sink, &eo, NULL);
  g_assert_cmpint (err, !=, 0);
  pl_sink_free (sink);
  pl_source_free (src);

  dopts.keys = &key;
  dopts.n_keys = 1;
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
  g_test_add_func ("/secret-input/out-of-secure-memory",
                   test_out_of_secure_memory);
  return g_test_run ();
}
