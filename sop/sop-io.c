/* sop-io.c - what every padlock-sop subcommand reads and writes */
#include "sop-io.h"

#include "algo.h"
#include "armor.h"
#include "errors.h"
#include "io.h"
#include "passphrase.h"
#include "text.h"
#include "padlock-secret-input.h"

#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* Keyrings bigger than this are not what a command line passes. */
#define MAX_KEY_FILE (64u << 20)

static int
read_fd (int fd, unsigned char **data, size_t *len)
{
  size_t cap = 1 << 16, n = 0;
  unsigned char *buf = malloc (cap);

  while (buf)
    {
      ssize_t got;
      if (n == cap)
        {
          unsigned char *more = cap < MAX_KEY_FILE ? realloc (buf, cap * 2)
                                                   : NULL;
          if (!more)
            break;
          buf = more;
          cap *= 2;
        }
      got = read (fd, buf + n, cap - n);
      if (got < 0 && errno == EINTR)
        continue;
      if (got < 0)
        break;
      if (!got)
        {
          *data = buf;
          *len = n;
          return SOP_OK;
        }
      n += (size_t) got;
    }
  if (buf)
    pl_wipe (buf, n);
  free (buf);
  return SOP_MISSING_INPUT;
}

int
sop_read_stdin (unsigned char **data, size_t *len)
{
  return read_fd (0, data, len);
}

void
sop_say_path (const char *path, const char *fmt, ...)
{
  char *shown = pl_text_escape_dup (path, strlen (path), 0);
  va_list ap;

  fprintf (stderr, "padlock-sop: %s: ", shown ? shown : "?");
  va_start (ap, fmt);
  vfprintf (stderr, fmt, ap);
  va_end (ap);
  fputc ('\n', stderr);
  free (shown);
}

int
sop_read_file (const char *path, unsigned char **data, size_t *len)
{
  int fd, code;

  if (!strncmp (path, "@FD:", 4))
    fd = atoi (path + 4);
  else if (path[0] == '@')
    {
      sop_say_path (path, "unsupported special prefix");
      return SOP_UNSUPPORTED_SPECIAL_PREFIX;
    }
  else
    fd = open (path, O_RDONLY | O_CLOEXEC);
  if (fd < 0)
    {
      sop_say_path (path, "%s", strerror (errno));
      return SOP_MISSING_INPUT;
    }
  code = read_fd (fd, data, len);
  if (path[0] != '@')
    close (fd);
  if (code)
    sop_say_path (path, "cannot be read");
  return code;
}


int
sop_write_output (const uint8_t *data, size_t len, pl_armor_label label,
                  int binary)
{
  pl_armor_encoder enc;
  char *text;
  size_t n;
  gpg_error_t err;

  if (binary)
    return pl_write_all (1, data, len) ? 1 : SOP_OK;
  text = malloc (pl_armor_encoder_bound (len) + pl_armor_encoder_bound (0));
  if (!text)
    return 1;
  pl_armor_encoder_init (&enc, label, 1);
  n = pl_armor_encoder_push (&enc, data, len, text);
  n += pl_armor_encoder_finish (&enc, text + n);
  err = pl_write_all (1, text, n);
  pl_wipe (text, n);
  free (text);
  return err ? 1 : SOP_OK;
}


/* Reads an indirect input (padlock-secret-input.h) into secure memory,
 * NUL-terminated.  Returns a SOP exit code, having said why it is not 0.
 * SPEC is never printed unless it opened: a password given literally,
 * by mistake, must not be echoed. */
int
sop_read_indirect (const char *spec, char **out, size_t *outlen)
{
  gpg_error_t err = padlock_secret_read (spec, PADLOCK_SECRET_INDIRECT, out,
                                         outlen);

  switch (gpg_err_code (err))
    {
    case GPG_ERR_NO_ERROR:
      return SOP_OK;
    case GPG_ERR_INV_NAME:
      fprintf (stderr, "padlock-sop: unsupported special prefix (only "
               "@ENV:NAME and @FD:N are known)\n");
      return SOP_UNSUPPORTED_SPECIAL_PREFIX;
    case PL_ERR_PASSPHRASE_TOO_LONG:
      sop_say_path (spec, "too long: a password or session key is at most "
                    "%d octets", PL_PASSPHRASE_MAX);
      return SOP_BAD_DATA;
    case PL_ERR_PASSPHRASE_NOT_TEXT:
      sop_say_path (spec, "holds a NUL octet");
      return SOP_PASSWORD_NOT_HUMAN_READABLE;
    case GPG_ERR_ENOMEM:
      fprintf (stderr, "padlock-sop: no secure memory left for a secret: %s\n",
               pl_error_message (err));
      return 1;
    case GPG_ERR_ENOENT:
      if (!strncmp (spec, "@ENV:", 5))
        {
          fprintf (stderr, "padlock-sop: environment variable %s is not "
                   "set\n", spec + 5);
          return SOP_MISSING_INPUT;
        }
      /* fall through */
    default:
      fprintf (stderr, "padlock-sop: cannot read the password or session "
               "key: %s (it must name a file, @ENV:NAME or @FD:N)\n",
               gpg_strerror (err));
      return SOP_MISSING_INPUT;
    }
}

/* Its text holds no NUL (padlock_secret_read refuses one). */
void
sop_free_secret (char *s)
{
  if (s)
    padlock_secret_text_free (s, strlen (s));
}

/* "--name=value" or "--name value"; returns the value or NULL. */
const char *
sop_option_value (const char *name, int argc, char **argv, int *i)
{
  size_t n = strlen (name);

  if (strncmp (argv[*i], name, n))
    return NULL;
  if (argv[*i][n] == '=')
    return argv[*i] + n + 1;
  if (!argv[*i][n] && *i + 1 < argc)
    return argv[++*i];
  return NULL;
}
