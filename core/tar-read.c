/* tar-read.c - listing a tar archive held in memory, and reading one
 * file of it out (see tar-read.h) */
#include "tar-read.h"

#include <limits.h>
#include <stdlib.h>
#include <string.h>

#include <archive.h>
#include <archive_entry.h>

static struct archive *
open_reader (const void *data, size_t len)
{
  struct archive *a = archive_read_new ();

  if (!a)
    return NULL;
  if (archive_read_support_format_tar (a) != ARCHIVE_OK
      || archive_read_open_memory (a, data, len) != ARCHIVE_OK)
    {
      archive_read_free (a);
      return NULL;
    }
  return a;
}

/* NAME less its leading "./" (any number of them). */
static const char *
stored_name (const char *name)
{
  while (name[0] == '.' && name[1] == '/')
    name += 2;
  return name;
}

/* A hard link waiting for its target, the archive's entry INDEX. */
typedef struct
{
  size_t slot;                  /* its place in the listing */
  size_t index;
  char *target;
} pending_link;

typedef struct
{
  pl_tar_listing *out;
  size_t cap;
  pending_link *links;
  size_t n_links, cap_links;
} lister;

static gpg_error_t
grow (void **v, size_t *cap, size_t n, size_t size)
{
  void *p;
  size_t want;

  if (n < *cap)
    return 0;
  want = *cap ? *cap * 2 : 64;
  p = realloc (*v, want * size);
  if (!p)
    return gpg_error_from_syserror ();
  *v = p;
  *cap = want;
  return 0;
}

/* Appends ENTRY (the archive's INDEX-th) to the listing when it is a
 * file; a hard link with no data of its own waits in the links. */
static gpg_error_t
add_entry (lister *l, struct archive_entry *e, size_t index)
{
  const char *name = archive_entry_pathname (e);
  const char *link = archive_entry_hardlink (e);
  int64_t size = archive_entry_size (e);
  pl_tar_entry *t;
  gpg_error_t err;

  if (!name || !*name || strlen (name) > PATH_MAX)
    return gpg_error (GPG_ERR_INV_DATA);
  if (!link && archive_entry_filetype (e) != AE_IFREG)
    return 0;
  if ((err = grow ((void **) &l->out->v, &l->cap, l->out->n, sizeof *t)))
    return err;
  if (link && size <= 0)
    {
      if (strlen (link) > PATH_MAX)
        return gpg_error (GPG_ERR_INV_DATA);
      if ((err = grow ((void **) &l->links, &l->cap_links, l->n_links,
                       sizeof *l->links)))
        return err;
      l->links[l->n_links] = (pending_link) { l->out->n, index,
                                              strdup (stored_name (link)) };
      if (!l->links[l->n_links++].target)
        return gpg_error_from_syserror ();
    }
  t = &l->out->v[l->out->n];
  memset (t, 0, sizeof *t);
  t->name = strdup (stored_name (name));
  if (!t->name)
    return gpg_error_from_syserror ();
  l->out->n++;
  t->size = size > 0 ? (uint64_t) size : 0;
  t->has_mtime = archive_entry_mtime_is_set (e);
  t->mtime = t->has_mtime ? (int64_t) archive_entry_mtime (e) : 0;
  t->data_entry = index;
  return 0;
}

static int
compare_names (const void *a, const void *b)
{
  const pl_tar_entry *const *x = a, *const *y = b;

  return strcmp ((*x)->name, (*y)->name);
}

/* Gives each waiting hard link its target's data, or drops it from the
 * listing when no regular file of that name came before it.  Sorted
 * lookups: a hostile archive of many links costs n log n, not n². */
static gpg_error_t
resolve_links (lister *l)
{
  pl_tar_listing *out = l->out;
  pl_tar_entry **files = NULL, key, *keyp = &key, **hit;
  size_t n_files = 0, kept = 0;
  char *dropped;

  if (!l->n_links)
    return 0;
  files = malloc ((out->n ? out->n : 1) * sizeof *files);
  dropped = calloc (out->n ? out->n : 1, 1);
  if (!files || !dropped)
    {
      free (files);
      free (dropped);
      return gpg_error_from_syserror ();
    }
  for (size_t i = 0, j = 0; i < out->n; i++)
    if (j < l->n_links && l->links[j].slot == i)
      j++;
    else
      files[n_files++] = &out->v[i];
  qsort (files, n_files, sizeof *files, compare_names);
  for (size_t j = 0; j < l->n_links; j++)
    {
      pl_tar_entry *t = &out->v[l->links[j].slot];

      key.name = l->links[j].target;
      hit = bsearch (&keyp, files, n_files, sizeof *files, compare_names);
      if (hit && (*hit)->data_entry < l->links[j].index)
        {
          t->size = (*hit)->size;
          t->data_entry = (*hit)->data_entry;
        }
      else
        dropped[l->links[j].slot] = 1;
    }
  for (size_t i = 0; i < out->n; i++)
    if (dropped[i])
      free (out->v[i].name);
    else
      out->v[kept++] = out->v[i];
  out->n = kept;
  free (files);
  free (dropped);
  return 0;
}

gpg_error_t
pl_tar_list (const void *data, size_t len, pl_tar_listing *out)
{
  lister l = { out, 0, NULL, 0, 0 };
  struct archive *a;
  struct archive_entry *e;
  gpg_error_t err = 0;
  size_t index = 0;
  int r;

  out->v = NULL;
  out->n = 0;
  a = open_reader (data, len);
  if (!a)
    return gpg_error (GPG_ERR_INV_DATA);
  while (!err && (r = archive_read_next_header (a, &e)) != ARCHIVE_EOF)
    {
      if (r != ARCHIVE_OK && r != ARCHIVE_WARN)
        err = gpg_error (GPG_ERR_INV_DATA);
      else if (index >= PL_TAR_LIST_MAX)
        err = gpg_error (GPG_ERR_TOO_LARGE);
      else
        err = add_entry (&l, e, index++);
    }
  /* An archive of no entry at all is no archive: libarchive takes an
   * empty input for an empty tar. */
  if (!err && index == 0)
    err = gpg_error (GPG_ERR_INV_DATA);
  if (!err)
    err = resolve_links (&l);
  for (size_t j = 0; j < l.n_links; j++)
    free (l.links[j].target);
  free (l.links);
  archive_read_free (a);
  if (err)
    pl_tar_listing_clear (out);
  return err;
}

void
pl_tar_listing_clear (pl_tar_listing *listing)
{
  for (size_t i = 0; i < listing->n; i++)
    free (listing->v[i].name);
  free (listing->v);
  listing->v = NULL;
  listing->n = 0;
}

static const unsigned char zeros[64 << 10];

static gpg_error_t
write_zeros (pl_sink *sink, uint64_t n)
{
  gpg_error_t err = 0;

  while (!err && n)
    {
      size_t step = n < sizeof zeros ? (size_t) n : sizeof zeros;

      err = sink->write (sink, zeros, step);
      n -= step;
    }
  return err;
}

/* The current entry's data, at the offsets libarchive gives (a sparse
 * file's holes as zeros), SIZE octets in all. */
static gpg_error_t
copy_data (struct archive *a, uint64_t size, pl_sink *sink)
{
  const void *buf;
  size_t n;
  la_int64_t offset;
  uint64_t done = 0;
  gpg_error_t err = 0;
  int r;

  while (!err && (r = archive_read_data_block (a, &buf, &n, &offset))
                 != ARCHIVE_EOF)
    {
      if ((r != ARCHIVE_OK && r != ARCHIVE_WARN) || offset < 0
          || (uint64_t) offset < done || (uint64_t) offset > size
          || n > size - (uint64_t) offset)
        return gpg_error (GPG_ERR_INV_DATA);
      err = write_zeros (sink, (uint64_t) offset - done);
      if (!err && n)
        err = sink->write (sink, buf, n);
      done = (uint64_t) offset + n;
    }
  if (!err)
    err = write_zeros (sink, size - done);
  return err;
}

gpg_error_t
pl_tar_read_entry (const void *data, size_t len, const pl_tar_entry *entry,
                   pl_sink *sink)
{
  struct archive *a = open_reader (data, len);
  struct archive_entry *e = NULL;
  gpg_error_t err = 0;
  int r = ARCHIVE_OK;

  if (!a)
    return gpg_error (GPG_ERR_INV_DATA);
  for (size_t i = 0; i <= entry->data_entry && r == ARCHIVE_OK; i++)
    {
      r = archive_read_next_header (a, &e);
      if (r == ARCHIVE_WARN)
        r = ARCHIVE_OK;
    }
  if (r != ARCHIVE_OK
      || (archive_entry_filetype (e) != AE_IFREG
          && !archive_entry_hardlink (e))
      || archive_entry_size (e) < 0
      || (uint64_t) archive_entry_size (e) != entry->size)
    err = gpg_error (GPG_ERR_INV_DATA);
  else
    err = copy_data (a, entry->size, sink);
  archive_read_free (a);
  return err;
}
