/* fuzz-tar-read.c - libFuzzer target for a tar archive read from memory
 * (core/tar-read.c), what Open Without Saving of a folder lists
 *
 * Input: the archive's octets, as a decrypted folder's message holds
 * them (authenticated, yet the sender's: hostile).  Beyond "no crash, no
 * leak, nothing read past the buffer" (ASan: the buffer is an exact
 * copy):
 *  - a failure leaves an empty listing; a listing holds at most
 *    PL_TAR_LIST_MAX files, each named (NUL-terminated, at most PATH_MAX
 *    octets, no leading "./"), its data entry within the archive's;
 *  - the same input lists the same twice;
 *  - each listed file of at most 1 MiB (the first 16) reads out as
 *    exactly its listed size, or fails; reading never writes past it.
 */
#include <limits.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fuzz-common.h"
#include "tar-read.h"

static void
fail (const char *what)
{
  fprintf (stderr, "tar-read: %s\n", what);
  abort ();
}

static void
check_listing (const pl_tar_listing *l, size_t archive_entries)
{
  if (l->n > PL_TAR_LIST_MAX)
    fail ("too many files");
  for (size_t i = 0; i < l->n; i++)
    {
      const pl_tar_entry *e = &l->v[i];

      if (!e->name || strlen (e->name) > PATH_MAX)
        fail ("a missing or long name");
      if (!strncmp (e->name, "./", 2))
        fail ("a leading ./ kept");
      if (e->data_entry >= archive_entries)
        fail ("a data entry past the archive's");
    }
}

static int
same (const pl_tar_listing *a, const pl_tar_listing *b)
{
  if (a->n != b->n)
    return 0;
  for (size_t i = 0; i < a->n; i++)
    if (strcmp (a->v[i].name, b->v[i].name) || a->v[i].size != b->v[i].size
        || a->v[i].mtime != b->v[i].mtime
        || a->v[i].data_entry != b->v[i].data_entry)
      return 0;
  return 1;
}

int
LLVMFuzzerTestOneInput (const uint8_t *data, size_t size)
{
  uint8_t *copy = malloc (size ? size : 1);
  pl_tar_listing first, again;
  gpg_error_t err, err2;

  if (!copy)
    return 0;
  memcpy (copy, data, size);
  err = pl_tar_list (copy, size, &first);
  if (err && (first.n || first.v))
    fail ("a failure left a listing");
  /* Every entry takes at least one 512-octet header. */
  check_listing (&first, size / 512 + 1);
  err2 = pl_tar_list (copy, size, &again);
  if (!err != !err2 || !same (&first, &again))
    fail ("two listings differ");
  for (size_t i = 0; !err && i < first.n && i < 16; i++)
    {
      fuzz_sink *sink;

      if (first.v[i].size > (1u << 20))
        continue;
      sink = fuzz_sink_new ();
      if (!pl_tar_read_entry (copy, size, &first.v[i], &sink->base)
          && sink->len != first.v[i].size)
        fail ("a file read out at another size than listed");
      sink->base.free (&sink->base);
    }
  pl_tar_listing_clear (&first);
  pl_tar_listing_clear (&again);
  free (copy);
  return 0;
}
