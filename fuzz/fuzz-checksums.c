/* fuzz-checksums.c - libFuzzer target for the checksum-list parser
 * (core/checksums.c)
 *
 * Input: one octet that picks the list's name (SHA256SUMS, a name that
 * names no hash, B2SUMS, x.sha512, none), then the list's octets, as a
 * downloaded SHA256SUMS holds them: the parser's input is hostile, and
 * its names are opened under the user's folder.  Beyond "no crash, no
 * leak, nothing read past the buffer" (ASan: the buffer is an exact
 * copy):
 *  - every name it gives is safe to open under a folder: not absolute,
 *    no "." or ".." component nor empty one, no octet below 0x20 nor
 *    0x7F, at most PL_CHECKSUMS_MAX_NAME octets; and no name twice;
 *  - every entry has a sum, inside the list's array, of a hash Padlock
 *    checks and that hash's length; entries come in the order of their
 *    lines, each line within the list's;
 *  - an error leaves no entry, and the same input parses the same twice.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "checksums.h"

static const char *const list_names[] = {
  "SHA256SUMS", "CHECKSUMS", "B2SUMS", "x.sha512", "sha1sum.txt", NULL,
};

static void
fail (const char *what)
{
  fprintf (stderr, "checksums: %s\n", what);
  abort ();
}

static size_t
digest_len (int algo)
{
  static const struct { const char *word; size_t len; } lens[] = {
    { "md5", 16 }, { "sha1", 20 }, { "sha224", 28 }, { "sha256", 32 },
    { "sha384", 48 }, { "sha512", 64 },
  };
  const char *word = pl_checksums_algo_word (algo);

  for (size_t i = 0; word && i < sizeof lens / sizeof lens[0]; i++)
    if (!strcmp (word, lens[i].word))
      return lens[i].len;
  return 0;
}

static void
check_name (const char *name)
{
  size_t len = strlen (name);
  const char *c = name;

  if (!len || len > PL_CHECKSUMS_MAX_NAME || name[0] == '/')
    fail ("an empty, long or absolute name");
  for (size_t i = 0; i < len; i++)
    if ((unsigned char) name[i] < 0x20 || name[i] == 0x7f)
      fail ("a control octet in a name");
  while (*c)
    {
      size_t n = strcspn (c, "/");

      if (n == 0 || (n == 1 && c[0] == '.') || (n == 2 && !memcmp (c, "..", 2)))
        fail ("an empty, \".\" or \"..\" component");
      c += n;
      if (*c == '/')
        c++;
    }
}

static int
by_name (const void *a, const void *b)
{
  return strcmp (*(char *const *) a, *(char *const *) b);
}

static void
check_list (const pl_checksums *l)
{
  char **names;

  if (l->n_entries > PL_CHECKSUMS_MAX_ENTRIES)
    fail ("too many entries");
  if (!l->n_entries)
    return;
  names = malloc (l->n_entries * sizeof *names);
  if (!names)
    return;
  for (size_t i = 0; i < l->n_entries; i++)
    {
      const pl_checksums_entry *e = &l->entries[i];

      check_name (e->name);
      names[i] = e->name;
      if (!e->line || e->line > l->n_lines
          || (i && e->line <= l->entries[i - 1].line))
        fail ("entries out of their lines' order");
      if (!e->n_sums || e->sums < l->sums
          || e->sums + e->n_sums > l->sums + l->n_sums)
        fail ("sums outside the list's array");
      for (size_t j = 0; j < e->n_sums; j++)
        if (!digest_len (e->sums[j].algo)
            || e->sums[j].len != digest_len (e->sums[j].algo))
          fail ("a sum of another length than its hash's");
    }
  qsort (names, l->n_entries, sizeof *names, by_name);
  for (size_t i = 1; i < l->n_entries; i++)
    if (!strcmp (names[i - 1], names[i]))
      fail ("a name given twice");
  free (names);
}

int
LLVMFuzzerTestOneInput (const uint8_t *data, size_t size)
{
  const size_t n_names = sizeof list_names / sizeof list_names[0];
  const char *name;
  uint8_t *copy;
  pl_checksums a, b;
  gpg_error_t ea, eb;

  if (!size)
    return 0;
  name = list_names[data[0] % n_names];
  size--;
  copy = malloc (size ? size : 1);
  if (!copy)
    return 0;
  memcpy (copy, data + 1, size);
  ea = pl_checksums_parse (copy, size, name, &a);
  eb = pl_checksums_parse (copy, size, name, &b);
  if (ea != eb || a.n_entries != b.n_entries || a.n_lines != b.n_lines
      || a.n_malformed != b.n_malformed || a.n_unsafe != b.n_unsafe)
    fail ("two parses disagree");
  for (size_t i = 0; i < a.n_entries; i++)
    if (strcmp (a.entries[i].name, b.entries[i].name)
        || a.entries[i].n_sums != b.entries[i].n_sums)
      fail ("two parses disagree on an entry");
  if (ea && a.n_entries)
    fail ("an error with entries");
  check_list (&a);
  pl_checksums_clear (&a);
  pl_checksums_clear (&b);
  free (copy);
  return 0;
}
