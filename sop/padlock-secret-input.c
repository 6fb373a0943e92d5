/* padlock-secret-input.c - reading a passphrase or a session key */
#include "padlock-secret-input.h"

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <termios.h>
#include <unistd.h>
#include <gcrypt.h>

#include "algo.h"
#include "passphrase.h"

/* One more octet than may be kept, so that a longer source shows. */
#define BUF_LEN (PL_PASSPHRASE_MAX + 1)

void
padlock_secret_text_free (char *text, size_t len)
{
  if (!text)
    return;
  pl_wipe (text, len + 1);
  gcry_free (text);
}

/* The buffer a read fills: secure memory for BUF_LEN octets and a NUL. */
static gpg_error_t
new_buffer (char **buf)
{
  *buf = gcry_calloc_secure (1, BUF_LEN + 1);
  return *buf ? 0 : gpg_error (GPG_ERR_ENOMEM);
}

/* Hands BUF (LEN octets read) to the caller, or refuses it. */
static gpg_error_t
finish (char *buf, size_t len, gpg_error_t err, char **text, size_t *out_len)
{
  if (!err && len > PL_PASSPHRASE_MAX)
    err = gpg_error (PL_ERR_PASSPHRASE_TOO_LONG);
  if (!err && memchr (buf, 0, len))
    err = gpg_error (PL_ERR_PASSPHRASE_NOT_TEXT);
  if (err)
    {
      pl_wipe (buf, BUF_LEN + 1);
      gcry_free (buf);
      return err;
    }
  buf[len] = 0;
  *text = buf;
  *out_len = len;
  return 0;
}

/* One line from the terminal FD with echo off, less its line ending. */
static gpg_error_t
read_tty_line (int fd, char *buf, size_t *len)
{
  struct termios old, quiet;
  gpg_error_t err = 0;
  char c = 0;

  *len = 0;
  if (tcgetattr (fd, &old))
    return gpg_error_from_syserror ();
  quiet = old;
  quiet.c_lflag &= ~(tcflag_t) ECHO;
  quiet.c_lflag |= ECHONL;
  if (tcsetattr (fd, TCSAFLUSH, &quiet))
    return gpg_error_from_syserror ();
  for (;;)
    {
      ssize_t n = read (fd, &c, 1);

      if (n < 0 && errno == EINTR)
        continue;
      if (n < 0)
        err = gpg_error_from_syserror ();
      if (n <= 0 || c == '\n')
        break;
      /* Past the bound the line is read to its end, not kept: BUF_LEN
       * octets are refused. */
      if (*len < BUF_LEN)
        buf[(*len)++] = c;
    }
  c = 0;
  tcsetattr (fd, TCSAFLUSH, &old);
  if (*len && *len < BUF_LEN && buf[*len - 1] == '\r')
    --*len;
  return err;
}

/* Everything FD holds, up to one octet past the bound. */
static gpg_error_t
read_all (int fd, char *buf, size_t *len)
{
  *len = 0;
  while (*len < BUF_LEN)
    {
      ssize_t n = read (fd, buf + *len, BUF_LEN - *len);

      if (n < 0 && errno == EINTR)
        continue;
      if (n < 0)
        return gpg_error_from_syserror ();
      if (!n)
        break;
      *len += (size_t) n;
    }
  return 0;
}

static gpg_error_t
read_fd (int fd, char **text, size_t *len)
{
  char *buf;
  size_t n = 0;
  gpg_error_t err = new_buffer (&buf);

  if (err)
    return err;
  err = isatty (fd) ? read_tty_line (fd, buf, &n) : read_all (fd, buf, &n);
  return finish (buf, n, err, text, len);
}

static gpg_error_t
read_env (const char *name, char **text, size_t *len)
{
  const char *v = getenv (name);
  size_t n;
  char *buf;
  gpg_error_t err;

  if (!v)
    return gpg_error (GPG_ERR_ENOENT);
  n = strlen (v);
  if (n > PL_PASSPHRASE_MAX)
    return gpg_error (PL_ERR_PASSPHRASE_TOO_LONG);
  err = new_buffer (&buf);
  if (err)
    return err;
  memcpy (buf, v, n);
  return finish (buf, n, 0, text, len);
}

gpg_error_t
padlock_secret_read (const char *spec, unsigned int flags, char **text,
                     size_t *len)
{
  gpg_error_t err;
  int fd;

  *text = NULL;
  *len = 0;
  if ((flags & PADLOCK_SECRET_INDIRECT) && !strncmp (spec, "@ENV:", 5))
    return read_env (spec + 5, text, len);
  if ((flags & PADLOCK_SECRET_INDIRECT) && !strncmp (spec, "@FD:", 4))
    {
      char *end;
      long v = strtol (spec + 4, &end, 10);

      if (!spec[4] || *end || v < 0 || v > 1 << 20)
        return gpg_error (GPG_ERR_INV_NAME);
      return read_fd ((int) v, text, len);
    }
  if ((flags & PADLOCK_SECRET_INDIRECT) && spec[0] == '@')
    return gpg_error (GPG_ERR_INV_NAME);
  fd = open (spec, O_RDONLY | O_CLOEXEC | O_NOCTTY);
  if (fd < 0)
    return gpg_error_from_syserror ();
  err = read_fd (fd, text, len);
  close (fd);
  return err;
}

gpg_error_t
padlock_secret_read_terminal (const char *prompt, char **text, size_t *len)
{
  int fd = open ("/dev/tty", O_RDWR | O_CLOEXEC);
  gpg_error_t err;

  *text = NULL;
  *len = 0;
  if (fd < 0)
    return gpg_error (GPG_ERR_ENOTTY);
  if (write (fd, prompt, strlen (prompt)) < 0)
    err = gpg_error_from_syserror ();
  else if (!isatty (fd))
    err = gpg_error (GPG_ERR_ENOTTY);
  else
    err = read_fd (fd, text, len);
  close (fd);
  return err;
}
