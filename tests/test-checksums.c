/* test-checksums.c - checksum lists read as hostile input (checksums.h)
 *
 * GNU lines in text and binary mode, escaped names, the one-space form
 * and its lock, BSD and OpenSSL lines, CR LF, comments; the hash from
 * the tag, the list's name or the length, mixed in one list, MD5 and
 * SHA-1 marked weak, other hashes counted unsupported; names refused
 * (absolute, "..", controls, overlong, the folder itself) or normalized;
 * duplicates and conflicts; an empty list; every cut of a list; the
 * bounds; a cleartext-signed list refused raw and read the same once
 * verified.  Lists written (pl_checksums_new_for_files,
 * pl_checksums_format) as sha256sum writes them, read back to the same
 * entries: names with spaces, a backslash, a leading '*'; names a list
 * cannot hold refused before anything is written.
 */
#include "testutil.h"
#include "algo.h"
#include "checksums.h"
#include "clearsign.h"
#include "keygen.h"
#include "verify.h"

#include <string.h>
#include <time.h>

/* A digest of N octets, each octet C ("ab" -> "abab..."), in hex. */
static char *
hex (size_t n, const char *c)
{
  GString *s = g_string_new (NULL);

  for (size_t i = 0; i < n; i++)
    g_string_append (s, c);
  return g_string_free (s, FALSE);
}

static gpg_error_t
parse (const char *text, const char *list_name, pl_checksums *out)
{
  return pl_checksums_parse ((const uint8_t *) text, strlen (text),
                             list_name, out);
}

/* The entry named NAME, or NULL. */
static const pl_checksums_entry *
find (const pl_checksums *l, const char *name)
{
  for (size_t i = 0; i < l->n_entries; i++)
    if (!strcmp (l->entries[i].name, name))
      return &l->entries[i];
  return NULL;
}

static void
assert_sum (const pl_checksum *s, int algo, pl_checksum_how how,
            uint8_t first)
{
  g_assert_cmpint (s->algo, ==, algo);
  g_assert_cmpint (s->how, ==, how);
  g_assert_cmpuint (s->value[0], ==, first);
  g_assert_cmpuint (s->value[s->len - 1], ==, first);
}

/* sha256sum's lines, text and binary mode, escaped ones, CR LF,
 * comments, blank lines, leading white space. */
static void
test_gnu (void)
{
  g_autofree char *a = hex (32, "ab"), *b = hex (32, "CD");
  g_autofree char *text = g_strdup_printf (
    "# made by sha256sum\n"
    "\n"
    "%s  debian-12.iso\r\n"
    "   \t%s *ubuntu.iso\n"
    "\\%s  back\\\\slash\n"
    "\\%s  new\\nline\n"
    "%s  trailing space \n"
    "%s  literal\\\\twice",
    a, b, a, a, b, a);
  pl_checksums l;
  const pl_checksums_entry *e;

  g_assert_cmpint (parse (text, "SHA256SUMS", &l), ==, 0);
  g_assert_cmpuint (l.n_lines, ==, 8);
  g_assert_cmpuint (l.n_entries, ==, 5);
  g_assert_cmpint (l.list_algo, ==, PL_HASH_SHA256);
  g_assert_cmpstr (l.entries[0].name, ==, "debian-12.iso");
  g_assert_cmpuint (l.entries[0].line, ==, 3);
  assert_sum (&l.entries[0].sums[0], PL_HASH_SHA256, PL_CHECKSUM_BY_LIST_NAME,
              0xab);
  e = find (&l, "ubuntu.iso");
  g_assert_nonnull (e);
  assert_sum (&e->sums[0], PL_HASH_SHA256, PL_CHECKSUM_BY_LIST_NAME, 0xcd);
  /* Escaped: "\\\\" is one backslash; "\\n" a LF, which is refused. */
  g_assert_nonnull (find (&l, "back\\slash"));
  g_assert_cmpuint (l.n_unsafe, ==, 1);
  g_assert_cmpuint (l.first_unsafe, ==, 6);
  /* A name's spaces are its own; unescaped, its backslashes too. */
  g_assert_nonnull (find (&l, "trailing space "));
  g_assert_nonnull (find (&l, "literal\\\\twice"));
  pl_checksums_clear (&l);

  /* Without the list's name, the hash is the length's guess. */
  g_assert_cmpint (parse (text, NULL, &l), ==, 0);
  g_assert_cmpint (l.list_algo, ==, 0);
  assert_sum (&l.entries[0].sums[0], PL_HASH_SHA256, PL_CHECKSUM_BY_LENGTH,
              0xab);
  pl_checksums_clear (&l);
}

/* "HEX NAME" (one space) is read as coreutils reads it: the first GNU
 * line fixes the form. */
static void
test_gnu_forms (void)
{
  g_autofree char *a = hex (32, "01");
  g_autofree char *reversed = g_strdup_printf ("%s one\n%s  two\n%s *three\n",
                                               a, a, a);
  g_autofree char *standard = g_strdup_printf ("%s  one\n%s two\n%s\tthree\n"
                                               "%s \n", a, a, a, a);
  pl_checksums l;

  g_assert_cmpint (parse (reversed, NULL, &l), ==, 0);
  g_assert_cmpuint (l.n_entries, ==, 3);
  g_assert_nonnull (find (&l, "one"));
  g_assert_nonnull (find (&l, " two"));
  g_assert_nonnull (find (&l, "*three"));
  pl_checksums_clear (&l);

  g_assert_cmpint (parse (standard, NULL, &l), ==, 0);
  g_assert_cmpuint (l.n_entries, ==, 1);
  g_assert_nonnull (find (&l, "one"));
  /* "two" after one space, "\tthree" after a tab: malformed once the
   * list is in the standard form; a digest and a space, no name. */
  g_assert_cmpuint (l.n_malformed, ==, 3);
  g_assert_cmpuint (l.first_malformed, ==, 2);
  pl_checksums_clear (&l);
}

/* sha256sum --tag's lines, OpenSSL's, escaped, names that hold ") = ". */
static void
test_bsd (void)
{
  g_autofree char *a = hex (32, "aa"), *b = hex (64, "bb"), *m = hex (16, "11");
  g_autofree char *text = g_strdup_printf (
    "# Fedora-Workstation-Live-x86_64-39-1.5.iso: 2295853056 bytes\n"
    "SHA256 (Fedora.iso) = %s\n"
    "SHA2-512(openssl.bin)= %s\n"
    "sha256 (lower case) = %s\n"
    "SHA256 (odd) = (name)) = %s\n"
    "\\SHA256 (esc\\\\aped) = %s\n"
    "MD5 (old.tar) = %s\n"
    "BLAKE2b (b2.iso) = %s\n"
    "SHA512 (short) = %s\n"
    "SHA256 () = %s\n"
    "SHA256 (x) =%s\n",
    a, b, a, a, a, m, b, a, a, a);
  pl_checksums l;
  const pl_checksums_entry *e;

  /* The tags win over the list's name. */
  g_assert_cmpint (parse (text, "SHA256SUMS", &l), ==, 0);
  g_assert_cmpuint (l.n_entries, ==, 6);
  assert_sum (&find (&l, "Fedora.iso")->sums[0], PL_HASH_SHA256,
              PL_CHECKSUM_BY_TAG, 0xaa);
  assert_sum (&find (&l, "openssl.bin")->sums[0], PL_HASH_SHA512,
              PL_CHECKSUM_BY_TAG, 0xbb);
  g_assert_nonnull (find (&l, "lower case"));
  g_assert_nonnull (find (&l, "odd) = (name)"));
  g_assert_nonnull (find (&l, "esc\\aped"));
  e = find (&l, "old.tar");
  assert_sum (&e->sums[0], PL_HASH_MD5, PL_CHECKSUM_BY_TAG, 0x11);
  g_assert_true (pl_checksums_algo_weak (e->sums[0].algo));
  g_assert_cmpuint (l.n_unsupported, ==, 1);
  g_assert_cmpuint (l.first_unsupported, ==, 8);
  /* SHA512's tag with SHA-256's length; no name; no space after '='. */
  g_assert_cmpuint (l.n_malformed, ==, 3);
  g_assert_cmpuint (l.first_malformed, ==, 9);
  pl_checksums_clear (&l);
}

/* Each hash by its length in a list that names none, each by its tag;
 * a list's name that names one makes other lengths malformed, and one
 * that names a hash not checked here makes its GNU lines unsupported. */
static void
test_algorithms (void)
{
  static const struct
  {
    int algo;
    size_t len;
    const char *tag;
    int weak;
  } algos[] = {
    { PL_HASH_MD5, 16, "MD5", 1 }, { PL_HASH_SHA1, 20, "SHA1", 1 },
    { PL_HASH_SHA224, 28, "SHA224", 0 }, { PL_HASH_SHA256, 32, "SHA256", 0 },
    { PL_HASH_SHA384, 48, "SHA384", 0 }, { PL_HASH_SHA512, 64, "SHA512", 0 },
  };
  GString *gnu = g_string_new (NULL), *bsd = g_string_new (NULL);
  pl_checksums l;

  for (size_t i = 0; i < G_N_ELEMENTS (algos); i++)
    {
      g_autofree char *h = hex (algos[i].len, "5a");

      g_string_append_printf (gnu, "%s  f%zu\n", h, i);
      g_string_append_printf (bsd, "%s (f%zu) = %s\n", algos[i].tag, i, h);
    }
  g_assert_cmpint (parse (gnu->str, "CHECKSUMS", &l), ==, 0);
  g_assert_cmpuint (l.n_entries, ==, G_N_ELEMENTS (algos));
  for (size_t i = 0; i < G_N_ELEMENTS (algos); i++)
    {
      const pl_checksum *s = &l.entries[i].sums[0];

      assert_sum (s, algos[i].algo, PL_CHECKSUM_BY_LENGTH, 0x5a);
      g_assert_cmpuint (s->len, ==, algos[i].len);
      g_assert_cmpint (pl_checksums_algo_weak (s->algo), ==, algos[i].weak);
    }
  pl_checksums_clear (&l);
  g_assert_cmpint (parse (bsd->str, NULL, &l), ==, 0);
  g_assert_cmpuint (l.n_entries, ==, G_N_ELEMENTS (algos));
  for (size_t i = 0; i < G_N_ELEMENTS (algos); i++)
    assert_sum (&l.entries[i].sums[0], algos[i].algo, PL_CHECKSUM_BY_TAG,
                0x5a);
  pl_checksums_clear (&l);

  /* SHA512SUMS: the SHA-512 line alone. */
  g_assert_cmpint (parse (gnu->str, "SHA512SUMS", &l), ==, 0);
  g_assert_cmpuint (l.n_entries, ==, 1);
  g_assert_cmpstr (l.entries[0].name, ==, "f5");
  g_assert_cmpuint (l.n_malformed, ==, 5);
  pl_checksums_clear (&l);
  /* B2SUMS: not guessed as SHA-512. */
  g_assert_cmpint (parse (gnu->str, "B2SUMS", &l), ==, GPG_ERR_NO_DATA);
  g_assert_cmpuint (l.n_unsupported, ==, 6);
  pl_checksums_clear (&l);
  g_string_free (gnu, TRUE);
  g_string_free (bsd, TRUE);
}

/* What a list's name says. */
static void
test_list_names (void)
{
  static const struct
  {
    const char *name;
    int algo, is_list;
  } cases[] = {
    { "SHA256SUMS", PL_HASH_SHA256, 1 },
    { "SHA512SUMS", PL_HASH_SHA512, 1 },
    { "/srv/mirror/sha256sum.txt", PL_HASH_SHA256, 1 },
    { "debian-12.iso.sha256", PL_HASH_SHA256, 1 },
    { "archive.tar.SHA384", PL_HASH_SHA384, 1 },
    { "MD5SUMS", PL_HASH_MD5, 1 },
    { "SHA1SUMS", PL_HASH_SHA1, 1 },
    { "sha224sums", PL_HASH_SHA224, 1 },
    { "SHA2-256SUMS", PL_HASH_SHA256, 1 },
    { "sha-512.sums", PL_HASH_SHA512, 1 },
    { "SHA3-256SUMS", -1, 1 },
    { "B2SUMS", -1, 1 },
    { "Fedora-Workstation-39-1.5-x86_64-CHECKSUM", 0, 1 },
    { "checksums.txt", 0, 1 },
    { "shadow-SHA384SUMS", PL_HASH_SHA384, 1 },
    { "sha256.c", PL_HASH_SHA256, 0 },
    { "photo.jpg", 0, 0 },
    { "summary.txt", 0, 0 },
    { "sha2561SUMS", 0, 0 },
  };

  for (size_t i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_test_message ("%s", cases[i].name);
      g_assert_cmpint (pl_checksums_list_algo (cases[i].name), ==,
                       cases[i].algo);
      g_assert_cmpint (pl_checksums_name_is_list (cases[i].name), ==,
                       cases[i].is_list);
    }
  g_assert_cmpint (pl_checksums_list_algo (NULL), ==, 0);
  g_assert_cmpstr (pl_checksums_algo_word (PL_HASH_SHA384), ==, "sha384");
  g_assert_null (pl_checksums_algo_word (PL_HASH_SHA3_256));
}

/* A list NAME.sha256 of a digest alone is NAME's. */
static void
test_sidecar (void)
{
  g_autofree char *a = hex (32, "42");
  g_autofree char *text = g_strdup_printf ("%s\n", a);
  pl_checksums l;

  g_assert_cmpint (parse (text, "/dl/debian-12.iso.sha256", &l), ==, 0);
  g_assert_cmpuint (l.n_entries, ==, 1);
  g_assert_cmpstr (l.entries[0].name, ==, "debian-12.iso");
  assert_sum (&l.entries[0].sums[0], PL_HASH_SHA256, PL_CHECKSUM_BY_LIST_NAME,
              0x42);
  pl_checksums_clear (&l);
  /* Another list's bare digest names nothing; so does one of another
   * length than its name's hash. */
  g_assert_cmpint (parse (text, "SHA256SUMS", &l), ==, GPG_ERR_NO_DATA);
  g_assert_cmpuint (l.n_malformed, ==, 1);
  pl_checksums_clear (&l);
  g_assert_cmpint (parse (text, "x.iso.sha512", &l), ==, GPG_ERR_NO_DATA);
  pl_checksums_clear (&l);
}

/* Names that could reach out of the folder or lie on a screen are
 * refused; the others normalized. */
static void
test_names (void)
{
  static const struct
  {
    const char *name, *stored;  /* NULL: refused */
  } cases[] = {
    { "dir/file", "dir/file" },
    { "./a//b/", "a/b" },
    { "./debian.iso", "debian.iso" },
    { "c/./d", "c/d" },
    { "...", "..." },
    { "..a/b..", "..a/b.." },
    { "/etc/passwd", NULL },
    { "//etc/passwd", NULL },
    { "..", NULL },
    { "../x", NULL },
    { "a/../../x", NULL },
    { "a/..", NULL },
    { ".", NULL },
    { "./", NULL },
    { "esc\x1b[2Kape", NULL },
    { "tab\there", NULL },
    { "del\x7f", NULL },
    { "cr\rin", NULL },
  };
  g_autofree char *h = hex (32, "77");
  GString *text = g_string_new (NULL);
  g_autofree char *longest = g_strnfill (PL_CHECKSUMS_MAX_NAME, 'n');
  g_autofree char *too_long = g_strnfill (PL_CHECKSUMS_MAX_NAME + 1, 'n');
  size_t refused = 0;
  pl_checksums l;

  for (size_t i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_string_append_printf (text, "%s  %s\n", h, cases[i].name);
      refused += !cases[i].stored;
    }
  g_string_append_printf (text, "%s  %s\n%s  %s\n", h, longest, h, too_long);
  /* NUL inside a line. */
  g_string_append_printf (text, "%s  nul", h);
  g_string_append_len (text, "\0x\n", 3);
  g_assert_cmpint (pl_checksums_parse ((const uint8_t *) text->str, text->len,
                                       NULL, &l), ==, 0);
  for (size_t i = 0; i < G_N_ELEMENTS (cases); i++)
    if (cases[i].stored)
      {
        g_test_message ("%s", cases[i].name);
        g_assert_nonnull (find (&l, cases[i].stored));
      }
  g_assert_nonnull (find (&l, longest));
  g_assert_cmpuint (l.n_unsafe, ==, refused + 2);
  g_assert_cmpuint (l.n_entries, ==, G_N_ELEMENTS (cases) - refused + 1);
  g_assert_cmpuint (l.first_unsafe, ==, 7);
  for (size_t i = 0; i < l.n_entries; i++)
    {
      const char *n = l.entries[i].name;

      g_assert_true (n[0] != '/' && !strstr (n, "//") && !strstr (n, "/./"));
    }
  pl_checksums_clear (&l);
  g_string_free (text, TRUE);
}

/* One name twice: a duplicate, a conflict, or two hashes of one file;
 * entries in the order of their first lines. */
static void
test_duplicates (void)
{
  g_autofree char *a = hex (32, "a1"), *b = hex (32, "b2"), *c = hex (64, "c3");
  g_autofree char *text = g_strdup_printf (
    "%s  zeta\n"
    "%s  alpha\n"
    "%s  ./zeta\n"         /* duplicate */
    "%s  beta\n"
    "%s  beta\n"           /* conflict */
    "SHA512 (zeta) = %s\n" /* a second hash */
    "%s  gamma\n",
    a, a, a, a, b, c, b);
  pl_checksums l;
  const pl_checksums_entry *e;

  g_assert_cmpint (parse (text, NULL, &l), ==, 0);
  g_assert_cmpuint (l.n_entries, ==, 4);
  g_assert_cmpstr (l.entries[0].name, ==, "zeta");
  g_assert_cmpstr (l.entries[1].name, ==, "alpha");
  g_assert_cmpstr (l.entries[2].name, ==, "beta");
  g_assert_cmpstr (l.entries[3].name, ==, "gamma");
  g_assert_cmpuint (l.n_duplicates, ==, 1);
  e = &l.entries[0];
  g_assert_cmpuint (e->n_sums, ==, 2);
  g_assert_cmpint (e->sums[0].algo, ==, PL_HASH_SHA256);
  assert_sum (&e->sums[1], PL_HASH_SHA512, PL_CHECKSUM_BY_TAG, 0xc3);
  g_assert_cmpuint (e->flags, ==, 0);
  e = &l.entries[2];
  g_assert_cmpuint (e->flags, ==, PL_CHECKSUMS_CONFLICT);
  g_assert_cmpuint (e->n_sums, ==, 1);
  assert_sum (&e->sums[0], PL_HASH_SHA256, PL_CHECKSUM_BY_LENGTH, 0xa1);
  g_assert_cmpuint (l.entries[1].flags | l.entries[3].flags, ==, 0);
  g_assert_cmpuint (l.n_sums, ==, 5);
  pl_checksums_clear (&l);
}

/* Nothing to check: refused, the counts saying why. */
static void
test_empty (void)
{
  static const char *const texts[] = {
    "", "\n", "\r\n\r\n", "# only a comment\n", "   \t\n",
    "not a checksum line\n", "0123  short\n",
  };
  pl_checksums l;

  for (size_t i = 0; i < G_N_ELEMENTS (texts); i++)
    {
      g_assert_cmpint (parse (texts[i], "SHA256SUMS", &l), ==,
                       GPG_ERR_NO_DATA);
      g_assert_cmpuint (l.n_entries, ==, 0);
      g_assert_null (l.entries);
      pl_checksums_clear (&l);
    }
  g_assert_cmpint (parse ("junk\n\nmore junk", NULL, &l), ==, GPG_ERR_NO_DATA);
  g_assert_cmpuint (l.n_lines, ==, 3);
  g_assert_cmpuint (l.n_malformed, ==, 2);
  g_assert_cmpuint (l.first_malformed, ==, 1);
  pl_checksums_clear (&l);
  g_assert_cmpint (pl_checksums_parse (NULL, 0, NULL, &l), ==, GPG_ERR_NO_DATA);
  pl_checksums_clear (&l);
}

/* Every cut of a list, and every octet of it turned to each of a few
 * hostile ones: no crash, nothing read past the cut, and the entries
 * before the cut line are the whole list's. */
static void
test_cuts (void)
{
  g_autofree char *a = hex (32, "3c"), *b = hex (64, "d4");
  g_autofree char *text = g_strdup_printf (
    "%s  one.iso\r\n"
    "\\%s *two\\\\b\n"
    "# comment\n"
    "SHA512 (dir/three) = %s\n"
    "%s  four\n",
    a, a, b, a);
  size_t len = strlen (text);
  static const char hostile[] = { '\n', '\r', '\\', '/', '(', ')', ' ', 0 };
  pl_checksums whole;

  g_assert_cmpint (parse (text, NULL, &whole), ==, 0);
  g_assert_cmpuint (whole.n_entries, ==, 4);
  for (size_t cut = 0; cut <= len; cut++)
    {
      /* A copy of its own, so that a read past the cut is ASan's. */
      uint8_t *p = g_memdup2 (text, cut);
      pl_checksums l;
      gpg_error_t err = pl_checksums_parse (p, cut, NULL, &l);
      size_t whole_lines = 0;

      for (size_t i = 0; i < cut; i++)
        whole_lines += text[i] == '\n';
      g_assert_true (!err || err == GPG_ERR_NO_DATA);
      for (size_t i = 0; i < l.n_entries; i++)
        if (l.entries[i].line <= whole_lines)
          {
            const pl_checksums_entry *w = find (&whole, l.entries[i].name);

            g_assert_nonnull (w);
            g_assert_cmpmem (w->sums, w->n_sums * sizeof *w->sums,
                             l.entries[i].sums,
                             l.entries[i].n_sums * sizeof *w->sums);
          }
      g_assert_cmpuint (l.n_entries, <=, whole.n_entries);
      pl_checksums_clear (&l);
      g_free (p);
      for (size_t h = 0; cut < len && h < sizeof hostile; h++)
        {
          uint8_t *q = g_memdup2 (text, len);

          q[cut] = (uint8_t) hostile[h];
          err = pl_checksums_parse (q, len, NULL, &l);
          g_assert_true (!err || err == GPG_ERR_NO_DATA);
          pl_checksums_clear (&l);
          g_free (q);
        }
    }
  pl_checksums_clear (&whole);
}

/* The bounds: the list's size, the entries, a line of 16 MiB. */
static void
test_bounds (void)
{
  g_autofree char *h = hex (32, "99");
  GString *many = g_string_new (NULL);
  g_autofree uint8_t *big = g_malloc (PL_CHECKSUMS_MAX_LIST + 1);
  pl_checksums l;
  gint64 start;

  memset (big, 'x', PL_CHECKSUMS_MAX_LIST + 1);
  g_assert_cmpint (pl_checksums_parse (big, PL_CHECKSUMS_MAX_LIST + 1, NULL,
                                       &l), ==, GPG_ERR_TOO_LARGE);
  pl_checksums_clear (&l);
  /* One line of 16 MiB: a digest, then a name no file can have. */
  memcpy (big, h, strlen (h));
  memcpy (big + strlen (h), "  ", 2);
  start = g_get_monotonic_time ();
  g_assert_cmpint (pl_checksums_parse (big, PL_CHECKSUMS_MAX_LIST, NULL, &l),
                   ==, GPG_ERR_NO_DATA);
  g_test_message ("a 16 MiB line: %.3f s",
                  (g_get_monotonic_time () - start) / 1e6);
  g_assert_cmpuint (l.n_unsafe, ==, 1);
  pl_checksums_clear (&l);

  for (size_t i = 0; i < PL_CHECKSUMS_MAX_ENTRIES; i++)
    g_string_append_printf (many, "%s  f%zu\n", h, i);
  start = g_get_monotonic_time ();
  g_assert_cmpint (parse (many->str, NULL, &l), ==, 0);
  g_test_message ("%d entries: %.3f s", PL_CHECKSUMS_MAX_ENTRIES,
                  (g_get_monotonic_time () - start) / 1e6);
  g_assert_cmpuint (l.n_entries, ==, PL_CHECKSUMS_MAX_ENTRIES);
  pl_checksums_clear (&l);
  /* One more line with a digest, even a duplicate: refused whole. */
  g_string_append_printf (many, "%s  f0\n", h);
  g_assert_cmpint (parse (many->str, NULL, &l), ==, GPG_ERR_TOO_MANY);
  g_assert_cmpuint (l.n_entries, ==, 0);
  pl_checksums_clear (&l);
  g_string_free (many, TRUE);
}

/* A cleartext-signed list: refused raw (what is around it is not
 * signed), read from its verified text as the list itself is. */
static void
test_clearsigned (void)
{
  g_autofree char *a = hex (32, "e5");
  g_autofree char *list = g_strdup_printf ("%s  debian-12.iso\r\n"
                                           "SHA256 (dir/b.iso) = %s\n"
                                           "-%s  dash\n", a, a, a);
  g_autofree char *junk = NULL;
  const pl_seckey *signers[1];
  tu_key key;
  uint8_t *msg, *text;
  size_t msg_len, text_len;
  pl_verifications v;
  pl_checksums plain, signed_list;

  tu_key_make (&key, PL_KEYGEN_DEFAULT);
  signers[0] = &key.sk;
  g_assert_cmpint (pl_clearsign_make ((const uint8_t *) list, strlen (list),
                                      signers, 1, (uint32_t) time (NULL),
                                      &msg, &msg_len), ==, 0);
  g_assert_cmpint (pl_checksums_parse (msg, msg_len, "SHA256SUMS",
                                       &signed_list), ==,
                   GPG_ERR_UNEXPECTED_MSG);
  pl_checksums_clear (&signed_list);
  /* Lines of the attacker's before the signed message. */
  junk = g_strdup_printf ("%s  evil.iso\n%.*s", a, (int) msg_len, msg);
  g_assert_cmpint (parse (junk, "SHA256SUMS", &signed_list), ==,
                   GPG_ERR_UNEXPECTED_MSG);
  pl_checksums_clear (&signed_list);

  g_assert_cmpint (pl_clearsign_verify (msg, msg_len,
                                        (const pl_cert *const *) key.certs,
                                        key.n, (uint32_t) time (NULL), &v,
                                        &text, &text_len), ==, 0);
  g_assert_true (pl_verifications_good (&v));
  g_assert_cmpint (pl_checksums_parse (text, text_len, "SHA256SUMS",
                                       &signed_list), ==, 0);
  g_assert_cmpint (parse (list, "SHA256SUMS", &plain), ==, 0);
  g_assert_cmpuint (plain.n_entries, ==, 2);
  g_assert_cmpuint (plain.n_malformed, ==, 1);  /* "-HEX  dash" */
  g_assert_cmpuint (signed_list.n_entries, ==, plain.n_entries);
  g_assert_cmpuint (signed_list.n_malformed, ==, plain.n_malformed);
  for (size_t i = 0; i < plain.n_entries; i++)
    {
      g_assert_cmpstr (signed_list.entries[i].name, ==, plain.entries[i].name);
      g_assert_cmpmem (signed_list.entries[i].sums, sizeof (pl_checksum),
                       plain.entries[i].sums, sizeof (pl_checksum));
    }
  pl_checksums_clear (&plain);
  pl_checksums_clear (&signed_list);
  free (msg);
  free (text);
  tu_key_free (&key);
}

/* A list written, sorted and without the duplicate, is sha256sum's
 * text to the octet and reads back to the same names and digests. */
static void
test_write (void)
{
  static const char *const names[] = {
    "release notes.txt", "back\\slash", "debian-12.iso", " lead", "trail ",
    "*star", "dir/in sub", "debian-12.iso", "caf\xc3\xa9 \xe2\x80\xae.txt",
    "two\\\\back",
  };
  static const char *const sorted[] = {
    " lead", "*star", "back\\slash", "caf\xc3\xa9 \xe2\x80\xae.txt",
    "debian-12.iso", "dir/in sub", "release notes.txt", "trail ",
    "two\\\\back",
  };
  pl_checksums made, read;
  char *text = NULL;
  size_t len = 0;
  GString *expected = g_string_new (NULL);

  g_assert_cmpint (pl_checksums_new_for_files (names, G_N_ELEMENTS (names),
                                               PL_HASH_SHA256, &made, NULL),
                   ==, 0);
  g_assert_cmpuint (made.n_entries, ==, G_N_ELEMENTS (sorted));
  for (size_t i = 0; i < made.n_entries; i++)
    {
      g_autofree char *h = NULL;

      g_assert_cmpstr (made.entries[i].name, ==, sorted[i]);
      g_assert_cmpuint (made.entries[i].n_sums, ==, 1);
      g_assert_true (made.entries[i].sums == &made.sums[i]);
      g_assert_cmpuint (made.sums[i].len, ==, 32);
      memset (made.sums[i].value, 0x11 * (int) (i + 1), 32);
      h = hex (32, (const char *[]) { "11", "22", "33", "44", "55", "66",
                                      "77", "88", "99" }[i]);
      if (strchr (sorted[i], '\\'))
        {
          g_auto(GStrv) parts = g_strsplit (sorted[i], "\\", -1);
          g_autofree char *doubled = g_strjoinv ("\\\\", parts);

          g_string_append_printf (expected, "\\%s  %s\n", h, doubled);
        }
      else
        g_string_append_printf (expected, "%s  %s\n", h, sorted[i]);
    }
  g_assert_cmpint (pl_checksums_format (&made, &text, &len), ==, 0);
  g_assert_cmpmem (text, len, expected->str, expected->len);
  g_assert_nonnull (strstr (text, "  back\\\\slash\n"));
  g_assert_nonnull (strstr (text, "  two\\\\\\\\back\n"));
  /* Read back, by the list's name and without one. */
  for (int named = 0; named < 2; named++)
    {
      g_assert_cmpint (pl_checksums_parse ((const uint8_t *) text, len,
                                           named ? "SHA256SUMS" : NULL, &read),
                       ==, 0);
      g_assert_cmpuint (read.n_entries, ==, made.n_entries);
      g_assert_cmpuint (read.n_malformed + read.n_unsafe
                        + read.n_unsupported + read.n_duplicates, ==, 0);
      for (size_t i = 0; i < read.n_entries; i++)
        {
          g_assert_cmpstr (read.entries[i].name, ==, made.entries[i].name);
          g_assert_cmpint (read.entries[i].sums[0].algo, ==, PL_HASH_SHA256);
          g_assert_cmpmem (read.entries[i].sums[0].value, 32,
                           made.sums[i].value, 32);
        }
      pl_checksums_clear (&read);
    }
  free (text);
  pl_checksums_clear (&made);
  g_string_free (expected, TRUE);
}

/* What a list cannot hold as it is is refused, naming the first such
 * name, and nothing is made. */
static void
test_write_refused (void)
{
  static const char *const refused[] = {
    "line\nfeed", "cr\rin", "esc\x1b[2K", "tab\there", "del\x7f", "/abs",
    "..", "a/../b", ".", "./a", "a//b", "a/", "",
  };
  g_autofree char *too_long = g_strnfill (PL_CHECKSUMS_MAX_NAME + 1, 'n');
  g_autofree char *longest = g_strnfill (PL_CHECKSUMS_MAX_NAME, 'n');
  pl_checksums l;
  size_t bad = 99;

  for (size_t i = 0; i < G_N_ELEMENTS (refused); i++)
    {
      const char *names[] = { "fine", refused[i] };

      g_test_message ("%zu", i);
      g_assert_cmpint (gpg_err_code (pl_checksums_new_for_files (names, 2,
                                                                 PL_HASH_SHA256,
                                                                 &l, &bad)),
                       ==, GPG_ERR_INV_NAME);
      g_assert_cmpuint (bad, ==, 1);
      g_assert_cmpuint (l.n_entries, ==, 0);
      pl_checksums_clear (&l);
    }
  {
    const char *names[] = { too_long };

    g_assert_cmpint (gpg_err_code (pl_checksums_new_for_files (names, 1,
                                                               PL_HASH_SHA256,
                                                               &l, NULL)),
                     ==, GPG_ERR_INV_NAME);
    pl_checksums_clear (&l);
  }
  {
    const char *names[] = { longest };

    g_assert_cmpint (pl_checksums_new_for_files (names, 1, PL_HASH_SHA512,
                                                 &l, NULL), ==, 0);
    g_assert_cmpuint (l.sums[0].len, ==, 64);
    pl_checksums_clear (&l);
  }
  g_assert_cmpint (gpg_err_code (pl_checksums_new_for_files (NULL, 0,
                                                             PL_HASH_SHA256,
                                                             &l, NULL)),
                   ==, GPG_ERR_NO_DATA);
  pl_checksums_clear (&l);
  {
    const char *names[] = { "x" };

    g_assert_cmpint (gpg_err_code (pl_checksums_new_for_files (names, 1, 999,
                                                               &l, NULL)),
                     ==, GPG_ERR_DIGEST_ALGO);
    pl_checksums_clear (&l);
  }
}

int
main (int argc, char **argv)
{
  tu_init (&argc, &argv);
  g_test_add_func ("/checksums/gnu", test_gnu);
  g_test_add_func ("/checksums/gnu-forms", test_gnu_forms);
  g_test_add_func ("/checksums/bsd", test_bsd);
  g_test_add_func ("/checksums/algorithms", test_algorithms);
  g_test_add_func ("/checksums/list-names", test_list_names);
  g_test_add_func ("/checksums/sidecar", test_sidecar);
  g_test_add_func ("/checksums/names", test_names);
  g_test_add_func ("/checksums/duplicates", test_duplicates);
  g_test_add_func ("/checksums/empty", test_empty);
  g_test_add_func ("/checksums/cuts", test_cuts);
  g_test_add_func ("/checksums/bounds", test_bounds);
  g_test_add_func ("/checksums/clearsigned", test_clearsigned);
  g_test_add_func ("/checksums/write", test_write);
  g_test_add_func ("/checksums/write-refused", test_write_refused);
  return g_test_run ();
}
