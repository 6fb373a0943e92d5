/* checksums.c - checksum lists: GNU coreutils' and BSD's lines */
#include "checksums.h"
#include "algo.h"
#include "clearsign.h"

#include <stddef.h>
#include <stdlib.h>
#include <string.h>

static const struct
{
  int algo;
  const char *word;             /* the list names' and batch lines' */
  const char *tag;              /* BSD's */
  const char *tag2;             /* OpenSSL 3's */
  size_t len;
  int weak;
} algos[] = {
  { PL_HASH_MD5, "md5", "MD5", "MD5", 16, 1 },
  { PL_HASH_SHA1, "sha1", "SHA1", "SHA1", 20, 1 },
  { PL_HASH_SHA224, "sha224", "SHA224", "SHA2-224", 28, 0 },
  { PL_HASH_SHA256, "sha256", "SHA256", "SHA2-256", 32, 0 },
  { PL_HASH_SHA384, "sha384", "SHA384", "SHA2-384", 48, 0 },
  { PL_HASH_SHA512, "sha512", "SHA512", "SHA2-512", 64, 0 },
};

#define N_ALGOS (sizeof algos / sizeof algos[0])

/* One line with a digest, before the names are merged. */
typedef struct
{
  char *name;
  size_t line;
  pl_checksum sum;
} record;

typedef struct
{
  int list_algo;
  int gnu_form;                 /* 0 not yet, 1 "HEX  NAME", 2 "HEX NAME" */
  const char *sidecar;          /* NAME of a list NAME.sha256, or NULL */
  size_t sidecar_len;
  int sidecar_algo;
  record *recs;
  size_t n_recs, cap;
  pl_checksums *out;
  char name[PL_CHECKSUMS_MAX_NAME + 1];
} parser;

/* What one line is. */
enum
{
  LINE_ENTRY,
  LINE_SKIP,
  LINE_MALFORMED,
  LINE_UNSAFE,
  LINE_UNSUPPORTED
};

/* The fields of a line that has a digest. */
typedef struct
{
  const char *hex;
  size_t hex_len;
  const char *name;
  size_t name_len;
  int algo;
  pl_checksum_how how;
} fields;

static int
lower (int c)
{
  return c >= 'A' && c <= 'Z' ? c - 'A' + 'a' : c;
}

static int
is_hex (int c)
{
  return (c >= '0' && c <= '9') || (lower (c) >= 'a' && lower (c) <= 'f');
}

static int
hex_value (int c)
{
  return c <= '9' ? c - '0' : lower (c) - 'a' + 10;
}

static size_t
hex_run (const char *s, size_t n)
{
  size_t i = 0;

  while (i < n && is_hex ((unsigned char) s[i]))
    i++;
  return i;
}

static int
algo_index (int algo)
{
  for (size_t i = 0; i < N_ALGOS; i++)
    if (algos[i].algo == algo)
      return (int) i;
  return -1;
}

static int
algo_by_hex_len (size_t hex_len)
{
  for (size_t i = 0; i < N_ALGOS; i++)
    if (2 * algos[i].len == hex_len)
      return algos[i].algo;
  return 0;
}

/* Whether the N octets at S are WORD, case aside. */
static int
same_word (const char *s, size_t n, const char *word)
{
  size_t i = 0;

  for (; i < n && word[i]; i++)
    if (lower ((unsigned char) s[i]) != lower ((unsigned char) word[i]))
      return 0;
  return i == n && !word[i];
}

static int
starts_with (const char *s, size_t n, const char *prefix)
{
  size_t k = strlen (prefix);

  return n >= k && same_word (s, k, prefix);
}

const char *
pl_checksums_algo_word (int algo)
{
  int i = algo_index (algo);

  return i < 0 ? NULL : algos[i].word;
}

int
pl_checksums_algo_weak (int algo)
{
  int i = algo_index (algo);

  return i >= 0 && algos[i].weak;
}

static const char *
base_name (const char *path)
{
  const char *slash = strrchr (path, '/');

  return slash ? slash + 1 : path;
}

/* The hash named at S ("sha256...", "sha-512...", "sha2-384..."), -1
 * for one not checked here, 0 for none. */
static int
algo_named_at (const char *s, size_t n)
{
  size_t i = 3, d;
  unsigned v = 0;

  if (starts_with (s, n, "md5"))
    return PL_HASH_MD5;
  if (starts_with (s, n, "b2sum") || starts_with (s, n, "b3sum")
      || starts_with (s, n, "blake") || starts_with (s, n, "sm3"))
    return -1;
  if (!starts_with (s, n, "sha"))
    return 0;
  if (i < n && (s[i] == '-' || s[i] == '_'))
    i++;
  if (i + 1 < n && s[i] == '2' && (s[i + 1] == '-' || s[i + 1] == '_'))
    i += 2;
  for (d = i; d < n && d - i < 4 && s[d] >= '0' && s[d] <= '9'; d++)
    v = 10 * v + (unsigned) (s[d] - '0');
  if (d < n && s[d] >= '0' && s[d] <= '9')
    return 0;
  switch (d - i ? v : 0)
    {
    case 1: return PL_HASH_SHA1;
    case 224: return PL_HASH_SHA224;
    case 256: return PL_HASH_SHA256;
    case 384: return PL_HASH_SHA384;
    case 512: return PL_HASH_SHA512;
    case 3: return -1;          /* SHA-3 */
    default: return 0;
    }
}

int
pl_checksums_list_algo (const char *list_name)
{
  const char *s;
  size_t n;

  if (!list_name)
    return 0;
  s = base_name (list_name);
  n = strlen (s);
  for (size_t i = 0; i < n; i++)
    {
      int algo = algo_named_at (s + i, n - i);
      if (algo)
        return algo;
    }
  return 0;
}

/* The hash whose word ends NAME after a '.' ("debian.iso.sha256"), and
 * the length before the '.'; 0 when none does. */
static int
extension_algo (const char *name, size_t *stem)
{
  size_t n = strlen (name);

  for (size_t i = 0; i < N_ALGOS; i++)
    {
      size_t k = strlen (algos[i].word);
      if (n > k + 1 && name[n - k - 1] == '.'
          && same_word (name + n - k, k, algos[i].word))
        {
          *stem = n - k - 1;
          return algos[i].algo;
        }
    }
  return 0;
}

int
pl_checksums_name_is_list (const char *name)
{
  const char *s;
  size_t n, stem;

  if (!name)
    return 0;
  s = base_name (name);
  n = strlen (s);
  for (size_t i = 0; i < n; i++)
    if (starts_with (s + i, n - i, "checksum"))
      return 1;
  if (!pl_checksums_list_algo (s))
    return 0;
  if (extension_algo (s, &stem))
    return 1;
  for (size_t i = 0; i < n; i++)
    if (starts_with (s + i, n - i, "sum"))
      return 1;
  return 0;
}

/* Undoes a coreutils escape of the N octets at S into P->name; the
 * length, or -1 for an escape it does not write (malformed) and -2 for
 * a name too long (unsafe). */
static long
unescape (parser *p, const char *s, size_t n, int escaped)
{
  size_t o = 0;

  for (size_t i = 0; i < n; i++)
    {
      char c = s[i];
      if (escaped && c == '\\')
        {
          if (++i == n)
            return -1;
          c = s[i] == '\\' ? '\\' : s[i] == 'n' ? '\n' : s[i] == 'r' ? '\r' : 0;
          if (!c)
            return -1;
        }
      if (o == PL_CHECKSUMS_MAX_NAME)
        return -2;
      p->name[o++] = c;
    }
  p->name[o] = 0;
  return (long) o;
}

/* Checks the name of LEN octets at S (header: absolute, "..",
 * controls, nothing but ".") and normalizes it in place; its new length
 * through *OUT_LEN.  LINE_ENTRY or LINE_UNSAFE. */
static int
check_name (char *s, size_t len, size_t *out_len)
{
  size_t o = 0, i = 0;

  if (len == 0 || s[0] == '/')
    return LINE_UNSAFE;
  for (size_t k = 0; k < len; k++)
    if ((unsigned char) s[k] < 0x20 || s[k] == 0x7f)
      return LINE_UNSAFE;
  while (i < len)
    {
      size_t end = i;
      while (end < len && s[end] != '/')
        end++;
      if (end - i == 2 && s[i] == '.' && s[i + 1] == '.')
        return LINE_UNSAFE;
      if (end > i && !(end - i == 1 && s[i] == '.'))
        {
          if (o)
            s[o++] = '/';
          memmove (s + o, s + i, end - i);
          o += end - i;
        }
      i = end + 1;
    }
  if (!o)
    return LINE_UNSAFE;
  s[o] = 0;
  *out_len = o;
  return LINE_ENTRY;
}

/* A GNU line ("HEX  NAME", "HEX *NAME", "HEX NAME", or HEX alone in a
 * sidecar list) at S, N octets after any escape's '\\': LINE_ENTRY with
 * F filled, LINE_SKIP when S is not one, or how it is wrong. */
static int
parse_gnu (parser *p, const char *s, size_t n, fields *f)
{
  size_t h = hex_run (s, n), i = h + 1;

  f->algo = algo_by_hex_len (h);
  if (!f->algo || (h < n && s[h] != ' ' && s[h] != '\t'))
    return LINE_SKIP;
  f->hex = s;
  f->hex_len = h;
  if (h == n)
    {
      if (!p->sidecar || p->sidecar_algo != f->algo)
        return LINE_MALFORMED;
      f->name = p->sidecar;
      f->name_len = p->sidecar_len;
      f->how = PL_CHECKSUM_BY_LIST_NAME;
      return LINE_ENTRY;
    }
  if (i >= n)
    return LINE_MALFORMED;      /* no name */
  if (n - i >= 2 && (s[i] == ' ' || s[i] == '*') && p->gnu_form != 2)
    p->gnu_form = 1, i++;
  else if (p->gnu_form != 1)
    p->gnu_form = 2;
  else
    return LINE_MALFORMED;
  f->name = s + i;
  f->name_len = n - i;
  if (p->list_algo < 0)
    return LINE_UNSUPPORTED;
  f->how = p->list_algo ? PL_CHECKSUM_BY_LIST_NAME : PL_CHECKSUM_BY_LENGTH;
  if (p->list_algo && p->list_algo != f->algo)
    return LINE_MALFORMED;
  return LINE_ENTRY;
}

/* A BSD line ("TAG (NAME) = HEX", "TAG(NAME)= HEX"), as parse_gnu. */
static int
parse_bsd (const char *s, size_t n, fields *f)
{
  size_t t = 0, open, h = 0, close;

  while (t < n && (is_hex ((unsigned char) s[t]) || (lower (s[t]) >= 'a'
                   && lower (s[t]) <= 'z') || s[t] == '-' || s[t] == '_'))
    t++;
  open = t < n && s[t] == ' ' ? t + 1 : t;
  if (!t || open >= n || s[open] != '(')
    return LINE_MALFORMED;
  while (h < n && is_hex ((unsigned char) s[n - 1 - h]))
    h++;
  /* Before the digest: "= ", then ") " or ")". */
  close = n - h;
  if (!h || close < open + 4 || s[close - 1] != ' ' || s[close - 2] != '=')
    return LINE_MALFORMED;
  close -= s[close - 3] == ' ' ? 3 : 2;
  if (s[close - 1] != ')' || close - 1 <= open + 1)
    return LINE_MALFORMED;      /* no ')', or no name */
  f->name = s + open + 1;
  f->name_len = close - 1 - (open + 1);
  f->hex = s + n - h;
  f->hex_len = h;
  f->how = PL_CHECKSUM_BY_TAG;
  f->algo = 0;
  for (size_t i = 0; i < N_ALGOS; i++)
    if (same_word (s, t, algos[i].tag) || same_word (s, t, algos[i].tag2))
      f->algo = algos[i].algo;
  /* Another hash's line (BLAKE2b, SHA3-256), or a line of something
   * else that merely looks like one. */
  if (!f->algo)
    return h >= 32 && h % 2 == 0 ? LINE_UNSUPPORTED : LINE_MALFORMED;
  return 2 * algos[algo_index (f->algo)].len == h ? LINE_ENTRY : LINE_MALFORMED;
}

static gpg_error_t
add_record (parser *p, const fields *f, size_t name_len, size_t line)
{
  record *r;

  if (p->n_recs == PL_CHECKSUMS_MAX_ENTRIES)
    return gpg_error (GPG_ERR_TOO_MANY);
  if (p->n_recs == p->cap)
    {
      size_t cap = p->cap ? 2 * p->cap : 64;
      record *m;
      if (cap > PL_CHECKSUMS_MAX_ENTRIES)
        cap = PL_CHECKSUMS_MAX_ENTRIES;
      m = realloc (p->recs, cap * sizeof *m);
      if (!m)
        return gpg_error (GPG_ERR_ENOMEM);
      p->recs = m;
      p->cap = cap;
    }
  r = &p->recs[p->n_recs];
  memset (r, 0, sizeof *r);
  r->name = malloc (name_len + 1);
  if (!r->name)
    return gpg_error (GPG_ERR_ENOMEM);
  memcpy (r->name, p->name, name_len + 1);
  r->line = line;
  r->sum.algo = f->algo;
  r->sum.how = f->how;
  r->sum.len = f->hex_len / 2;
  for (size_t i = 0; i < r->sum.len; i++)
    r->sum.value[i] = (uint8_t) (hex_value (f->hex[2 * i]) << 4
                                 | hex_value (f->hex[2 * i + 1]));
  p->n_recs++;
  return 0;
}

static void
count (parser *p, int kind, size_t line)
{
  size_t *n = NULL, *first = NULL;

  switch (kind)
    {
    case LINE_MALFORMED:
      n = &p->out->n_malformed, first = &p->out->first_malformed;
      break;
    case LINE_UNSAFE:
      n = &p->out->n_unsafe, first = &p->out->first_unsafe;
      break;
    case LINE_UNSUPPORTED:
      n = &p->out->n_unsupported, first = &p->out->first_unsupported;
      break;
    default:
      return;
    }
  if (!(*n)++)
    *first = line;
}

/* One line of N octets at S (its ending cut off), number LINE. */
static gpg_error_t
parse_line (parser *p, const char *s, size_t n, size_t line)
{
  fields f;
  int kind, escaped;
  long name_len;
  size_t len = 0;

  while (n && (*s == ' ' || *s == '\t'))
    s++, n--;
  if (!n || *s == '#')
    return 0;
  if (starts_with (s, n, PL_CLEARSIGN_HEADER))
    return gpg_error (GPG_ERR_UNEXPECTED_MSG);
  escaped = *s == '\\';
  if (escaped)
    s++, n--;
  kind = parse_gnu (p, s, n, &f);
  if (kind == LINE_SKIP)
    kind = parse_bsd (s, n, &f);
  if (kind == LINE_ENTRY)
    {
      name_len = unescape (p, f.name, f.name_len,
                           escaped && f.name != p->sidecar);
      kind = name_len == -1 ? LINE_MALFORMED
             : name_len == -2 ? LINE_UNSAFE
             : check_name (p->name, (size_t) name_len, &len);
    }
  if (kind != LINE_ENTRY)
    {
      count (p, kind, line);
      return 0;
    }
  return add_record (p, &f, len, line);
}

static int
compare_records (const void *a, const void *b)
{
  const record *x = a, *y = b;
  int c = strcmp (x->name, y->name);

  return c ? c : (x->line > y->line) - (x->line < y->line);
}

static int
compare_entries (const void *a, const void *b)
{
  const pl_checksums_entry *x = a, *y = b;

  return (x->line > y->line) - (x->line < y->line);
}

/* Adds R (a later line of E's name) to E, whose sums end at SUMS + *N:
 * a new hash, a duplicate or a conflict (header). */
static void
merge_record (pl_checksums *out, pl_checksums_entry *e, record *r)
{
  for (size_t k = 0; k < e->n_sums; k++)
    if (e->sums[k].algo == r->sum.algo)
      {
        if (memcmp (e->sums[k].value, r->sum.value, r->sum.len))
          e->flags |= PL_CHECKSUMS_CONFLICT;
        else
          out->n_duplicates++;
        return;
      }
  out->sums[out->n_sums++] = r->sum;
  e->n_sums++;
}

/* The records, sorted by name, into entries: one a name, in the order
 * of their first lines.  Takes the records' names. */
static gpg_error_t
merge (parser *p)
{
  pl_checksums *out = p->out;

  qsort (p->recs, p->n_recs, sizeof *p->recs, compare_records);
  out->sums = malloc (p->n_recs * sizeof *out->sums);
  out->entries = malloc (p->n_recs * sizeof *out->entries);
  if (!out->sums || !out->entries)
    return gpg_error (GPG_ERR_ENOMEM);
  for (size_t i = 0; i < p->n_recs; i++)
    {
      record *r = &p->recs[i];
      pl_checksums_entry *e = &out->entries[out->n_entries];

      if (out->n_entries && !strcmp (e[-1].name, r->name))
        {
          merge_record (out, &e[-1], r);
          continue;
        }
      e->name = r->name;
      r->name = NULL;
      e->line = r->line;
      e->flags = 0;
      e->n_sums = 1;
      e->sums = &out->sums[out->n_sums];
      out->sums[out->n_sums++] = r->sum;
      out->n_entries++;
    }
  qsort (out->entries, out->n_entries, sizeof *out->entries, compare_entries);
  return 0;
}

static void
parser_init (parser *p, const char *list_name, pl_checksums *out)
{
  size_t stem;

  memset (p, 0, offsetof (parser, name));
  p->out = out;
  p->list_algo = pl_checksums_list_algo (list_name);
  out->list_algo = p->list_algo;
  if (list_name)
    {
      const char *base = base_name (list_name);
      p->sidecar_algo = extension_algo (base, &stem);
      if (p->sidecar_algo)
        {
          p->sidecar = base;
          p->sidecar_len = stem;
        }
    }
}

static void
parser_clear (parser *p)
{
  for (size_t i = 0; i < p->n_recs; i++)
    free (p->recs[i].name);
  free (p->recs);
}

gpg_error_t
pl_checksums_parse (const uint8_t *buf, size_t len, const char *list_name,
                    pl_checksums *out)
{
  parser *p;
  gpg_error_t err = 0;
  const char *s = (const char *) buf;

  memset (out, 0, sizeof *out);
  if (len > PL_CHECKSUMS_MAX_LIST)
    return gpg_error (GPG_ERR_TOO_LARGE);
  p = malloc (sizeof *p);
  if (!p)
    return gpg_error (GPG_ERR_ENOMEM);
  parser_init (p, list_name, out);
  for (size_t off = 0; off < len && !err;)
    {
      const char *lf = memchr (s + off, '\n', len - off);
      size_t end = lf ? (size_t) (lf - s) : len, n = end - off;

      if (n && s[end - 1] == '\r')
        n--;
      err = parse_line (p, s + off, n, ++out->n_lines);
      off = end + 1;
    }
  /* No entry: the counts stay, to say why. */
  if (!err && !p->n_recs)
    err = gpg_error (GPG_ERR_NO_DATA);
  else if (!err)
    err = merge (p);
  parser_clear (p);
  free (p);
  if (err && gpg_err_code (err) != GPG_ERR_NO_DATA)
    pl_checksums_clear (out);
  return err;
}

void
pl_checksums_clear (pl_checksums *list)
{
  for (size_t i = 0; i < list->n_entries; i++)
    free (list->entries[i].name);
  free (list->entries);
  free (list->sums);
  memset (list, 0, sizeof *list);
}

/* Whether NAME is one a list can hold as it is: the parser takes it
 * (check_name) without changing it. */
static int
name_is_listable (const char *name)
{
  size_t len = strlen (name), out_len = 0;
  char *copy;
  int ok;

  if (!len || len > PL_CHECKSUMS_MAX_NAME || !(copy = malloc (len + 1)))
    return 0;
  memcpy (copy, name, len + 1);
  ok = check_name (copy, len, &out_len) == LINE_ENTRY && out_len == len
       && !memcmp (copy, name, len);
  free (copy);
  return ok;
}

static int
compare_names (const void *a, const void *b)
{
  const pl_checksums_entry *x = a, *y = b;

  return strcmp (x->name, y->name);
}

gpg_error_t
pl_checksums_new_for_files (const char *const *names, size_t n, int algo,
                            pl_checksums *out, size_t *bad)
{
  int index = algo_index (algo);
  size_t kept = 0;

  memset (out, 0, sizeof *out);
  if (index < 0)
    return gpg_error (GPG_ERR_DIGEST_ALGO);
  if (!n)
    return gpg_error (GPG_ERR_NO_DATA);
  if (n > PL_CHECKSUMS_MAX_ENTRIES)
    return gpg_error (GPG_ERR_TOO_MANY);
  for (size_t i = 0; i < n; i++)
    if (!name_is_listable (names[i]))
      {
        if (bad)
          *bad = i;
        return gpg_error (GPG_ERR_INV_NAME);
      }
  out->entries = calloc (n, sizeof *out->entries);
  out->sums = calloc (n, sizeof *out->sums);
  if (!out->entries || !out->sums)
    return gpg_error (GPG_ERR_ENOMEM);
  for (size_t i = 0; i < n; i++)
    if (!(out->entries[i].name = strdup (names[i])))
      return gpg_error (GPG_ERR_ENOMEM);
    else
      out->n_entries++;
  qsort (out->entries, n, sizeof *out->entries, compare_names);
  for (size_t i = 0; i < n; i++)
    {
      pl_checksums_entry *e = &out->entries[i];

      if (kept && !strcmp (out->entries[kept - 1].name, e->name))
        {
          free (e->name);
          e->name = NULL;
          continue;
        }
      out->entries[kept] = *e;
      e = &out->entries[kept];
      out->sums[kept] = (pl_checksum) { .algo = algo,
                                        .how = PL_CHECKSUM_BY_LIST_NAME,
                                        .len = algos[index].len };
      e->line = kept + 1;
      e->flags = 0;
      e->n_sums = 1;
      e->sums = &out->sums[kept];
      kept++;
    }
  out->n_entries = kept;
  out->n_sums = kept;
  out->list_algo = algo;
  out->n_lines = kept;
  return 0;
}

/* Appends one line for SUM of NAME at BUF + *LEN (room enough: the
 * caller's bound), as sha256sum writes it. */
static void
format_line (const pl_checksum *sum, const char *name, char *buf,
             size_t *len)
{
  static const char digits[] = "0123456789abcdef";
  size_t o = *len;

  if (strchr (name, '\\'))
    buf[o++] = '\\';
  for (size_t k = 0; k < sum->len; k++)
    {
      buf[o++] = digits[sum->value[k] >> 4];
      buf[o++] = digits[sum->value[k] & 15];
    }
  buf[o++] = ' ';
  buf[o++] = ' ';
  for (const char *p = name; *p; p++)
    {
      if (*p == '\\')
        buf[o++] = '\\';
      buf[o++] = *p;
    }
  buf[o++] = '\n';
  *len = o;
}

gpg_error_t
pl_checksums_format (const pl_checksums *list, char **out, size_t *len)
{
  size_t bound = 0, o = 0;
  char *buf;

  *out = NULL;
  *len = 0;
  /* A line at most: '\\', the digest's hex, two spaces, the name with
   * each octet doubled, LF. */
  for (size_t i = 0; i < list->n_entries; i++)
    {
      const pl_checksums_entry *e = &list->entries[i];

      if (!name_is_listable (e->name))
        return gpg_error (GPG_ERR_INV_NAME);
      bound += e->n_sums * (4 + 2 * PL_CHECKSUMS_MAX_DIGEST
                            + 2 * strlen (e->name));
      if (bound > PL_CHECKSUMS_MAX_LIST * (size_t) 2)
        return gpg_error (GPG_ERR_TOO_LARGE);
    }
  if (!(buf = malloc (bound + 1)))
    return gpg_error (GPG_ERR_ENOMEM);
  for (size_t i = 0; i < list->n_entries; i++)
    for (size_t k = 0; k < list->entries[i].n_sums; k++)
      format_line (&list->entries[i].sums[k], list->entries[i].name, buf, &o);
  if (o > PL_CHECKSUMS_MAX_LIST)
    {
      free (buf);
      return gpg_error (GPG_ERR_TOO_LARGE);
    }
  *out = buf;
  *len = o;
  return 0;
}
