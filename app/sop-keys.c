/* sop-keys.c - padlock-sop's CERTS and KEYS: files of certificates */
#include "sop-keys.h"
#include "sop.h"

#include "algo.h"
#include "errors.h"

#include <errno.h>
#include <fcntl.h>
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

int
sop_keyring_add_file (sop_keyring *ring, const char *path, int secret)
{
  unsigned char *data = NULL;
  size_t len = 0, n = 0, kept = 0;
  pl_cert **certs = NULL, **all;
  int fd, code;
  gpg_error_t err;

  if (!strncmp (path, "@FD:", 4))
    fd = atoi (path + 4);
  else if (path[0] == '@')
    {
      fprintf (stderr, "padlock-sop: unsupported special prefix in %s\n", path);
      return SOP_UNSUPPORTED_SPECIAL_PREFIX;
    }
  else
    fd = open (path, O_RDONLY | O_CLOEXEC);
  if (fd < 0)
    {
      fprintf (stderr, "padlock-sop: %s: %s\n", path, strerror (errno));
      return SOP_MISSING_INPUT;
    }
  code = read_fd (fd, &data, &len);
  if (path[0] != '@')
    close (fd);
  if (code)
    {
      fprintf (stderr, "padlock-sop: %s: cannot be read\n", path);
      return code;
    }
  err = pl_certs_read (data, len, &certs, &n);
  pl_wipe (data, len);
  free (data);
  if (!err && secret)
    for (size_t i = 0; i < n; i++)
      kept += certs[i]->primary.secret != NULL;
  if (err || (secret && !kept))
    {
      fprintf (stderr, "padlock-sop: %s holds no %s: %s\n", path,
               secret ? "secret key" : "certificate",
               err ? pl_error_message (err) : "only public keys");
      pl_certs_free (certs, n);
      return SOP_BAD_DATA;
    }
  all = realloc (ring->certs, (ring->n + n) * sizeof *all);
  if (!all)
    {
      pl_certs_free (certs, n);
      return 1;
    }
  memcpy (all + ring->n, certs, n * sizeof *certs);
  ring->certs = all;
  ring->n += n;
  free (certs);
  return SOP_OK;
}

size_t
sop_keyring_keys (const sop_keyring *ring, pl_key_kind kind, pl_key *keys,
                  size_t max)
{
  size_t n = 0;

  for (size_t i = 0; i < ring->n && n < max; i++)
    {
      pl_key k = { kind, ring->certs[i], 0, 0 };
      keys[n++] = k;
    }
  return n;
}

void
sop_keyring_clear (sop_keyring *ring)
{
  pl_certs_free (ring->certs, ring->n);
  ring->certs = NULL;
  ring->n = 0;
}
