/* padlock-output.c - where a job's output goes, and under which name */
#include "padlock-output.h"

#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <unistd.h>
#include <sys/stat.h>

#define MAX_NUMBER 9999

char *
padlock_output_encrypted_name (const char *input_name,
                               gboolean    armor)
{
  g_return_val_if_fail (input_name != NULL, NULL);
  return g_strconcat (input_name, armor ? ".asc" : ".gpg", NULL);
}

char *
padlock_output_stripped_name (const char *input_name)
{
  static const char *const suffixes[] = { ".gpg", ".pgp", ".asc" };
  gsize len;

  g_return_val_if_fail (input_name != NULL, NULL);
  len = strlen (input_name);
  for (guint i = 0; i < G_N_ELEMENTS (suffixes); i++)
    if (len > 4 && !g_ascii_strcasecmp (input_name + len - 4, suffixes[i]))
      return g_strndup (input_name, len - 4);
  return NULL;
}

gboolean
padlock_output_name_is_safe (const char *name,
                             gsize       len)
{
  if (len == 0 || name[0] == '.' || !g_utf8_validate (name, len, NULL))
    return FALSE;
  for (gsize i = 0; i < len; i++)
    {
      guchar c = (guchar) name[i];
      if (c == '/' || c == '\\' || c < 0x20 || c == 0x7f)
        return FALSE;
    }
  return TRUE;
}

char *
padlock_output_numbered_name (const char *name,
                              const char *suffix,
                              guint       n)
{
  const char *dot;
  g_autofree char *stem = NULL;

  g_return_val_if_fail (name != NULL, NULL);
  if (!suffix)
    suffix = "";
  if (n == 0)
    return g_strconcat (name, suffix, NULL);
  dot = strrchr (name, '.');
  if (!dot || dot == name)
    dot = name + strlen (name);
  stem = g_strndup (name, (gsize) (dot - name));
  return g_strdup_printf ("%s (%u)%s%s", stem, n, dot, suffix);
}

typedef struct
{
  pl_sink base;
  int fd;
  char *dir;
  char *name;
  char *suffix;
  char *tmp_path;               /* NULL with O_TMPFILE */
  char *path;                   /* set at commit */
  PadlockOutputNameFunc name_func;
  gpointer user_data;
} OutputSink;

static gpg_error_t
output_sink_write (pl_sink    *self,
                   const void *buf,
                   size_t      len)
{
  OutputSink *s = (OutputSink *) self;

  if (s->fd < 0)
    return gpg_error (GPG_ERR_EBADF);
  return pl_write_all (s->fd, buf, len);
}

static int
link_to (OutputSink *s,
         const char *path)
{
  char proc[64];

  if (s->tmp_path)
    return link (s->tmp_path, path);
  g_snprintf (proc, sizeof proc, "/proc/self/fd/%d", s->fd);
  return linkat (AT_FDCWD, proc, AT_FDCWD, path, AT_SYMLINK_FOLLOW);
}

static gpg_error_t
output_sink_commit (pl_sink *self)
{
  OutputSink *s = (OutputSink *) self;
  g_autofree char *name = NULL;
  int dir_fd;

  if (s->fd < 0)
    return gpg_error (GPG_ERR_EBADF);
  if (fsync (s->fd))
    return pl_error_from_errno (errno);
  if (s->name_func)
    name = s->name_func (s->user_data);
  if (!name)
    name = g_strdup (s->name);

  /* link() fails with EEXIST instead of replacing: try the next number. */
  for (guint n = 0; n <= MAX_NUMBER; n++)
    {
      g_autofree char *base = padlock_output_numbered_name (name, s->suffix, n);
      g_autofree char *path = g_build_filename (s->dir, base, NULL);

      if (link_to (s, path) == 0)
        {
          s->path = g_steal_pointer (&path);
          break;
        }
      if (errno != EEXIST)
        return pl_error_from_errno (errno);
    }
  if (!s->path)
    return gpg_error (GPG_ERR_EEXIST);
  if (s->tmp_path)
    {
      unlink (s->tmp_path);
      g_clear_pointer (&s->tmp_path, g_free);
    }
  close (s->fd);
  s->fd = -1;
  /* The new name is durable only once the folder is synced too. */
  dir_fd = open (s->dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  if (dir_fd >= 0)
    {
      fsync (dir_fd);
      close (dir_fd);
    }
  return 0;
}

static void
output_sink_abort (pl_sink *self)
{
  OutputSink *s = (OutputSink *) self;

  if (s->path)
    return;
  if (s->fd >= 0)
    {
      if (ftruncate (s->fd, 0))
        { /* the unlink below removes it anyway */ }
      close (s->fd);
      s->fd = -1;
    }
  if (s->tmp_path)
    {
      unlink (s->tmp_path);
      g_clear_pointer (&s->tmp_path, g_free);
    }
}

static void
output_sink_free (pl_sink *self)
{
  OutputSink *s = (OutputSink *) self;

  output_sink_abort (self);
  g_free (s->dir);
  g_free (s->name);
  g_free (s->suffix);
  g_free (s->path);
  g_free (s);
}

gpg_error_t
padlock_output_sink_new (const char             *dir,
                         const char             *name,
                         const char             *suffix,
                         PadlockOutputNameFunc   name_func,
                         gpointer                user_data,
                         pl_sink               **out)
{
  OutputSink *s;

  g_return_val_if_fail (dir != NULL, gpg_error (GPG_ERR_INV_ARG));
  g_return_val_if_fail (name != NULL, gpg_error (GPG_ERR_INV_ARG));
  g_return_val_if_fail (out != NULL, gpg_error (GPG_ERR_INV_ARG));

  *out = NULL;
  s = g_new0 (OutputSink, 1);
  s->fd = -1;
  s->dir = g_strdup (dir);
  s->name = g_strdup (name);
  s->suffix = g_strdup (suffix ? suffix : "");
  s->name_func = name_func;
  s->user_data = user_data;
#ifdef O_TMPFILE
  s->fd = open (dir, O_TMPFILE | O_WRONLY | O_CLOEXEC, 0600);
#endif
  if (s->fd < 0)
    {
      s->tmp_path = g_build_filename (dir, ".padlock-XXXXXX", NULL);
      s->fd = g_mkstemp_full (s->tmp_path, O_WRONLY | O_CLOEXEC, 0600);
      if (s->fd < 0)
        {
          gpg_error_t err = pl_error_from_errno (errno);
          g_clear_pointer (&s->tmp_path, g_free);
          output_sink_free (&s->base);
          return err;
        }
    }
  s->base.write = output_sink_write;
  s->base.commit = output_sink_commit;
  s->base.abort = output_sink_abort;
  s->base.free = output_sink_free;
  *out = &s->base;
  return 0;
}

const char *
padlock_output_sink_get_path (pl_sink *sink)
{
  g_return_val_if_fail (sink != NULL, NULL);
  return ((OutputSink *) sink)->path;
}
