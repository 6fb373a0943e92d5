/* tar.c - a folder as a pax tar stream (the writing side; see tar.h) */
#include "tar.h"

#include <errno.h>
#include <fcntl.h>
#include <fts.h>
#include <locale.h>
#include <search.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>
#include <archive.h>
#include <archive_entry.h>

typedef struct
{
  pl_source base;
  pl_tar_callbacks cb;
  struct archive *archive;
  struct archive_entry_linkresolver *links;
  FTS *fts;
  locale_t utf8;                /* (locale_t) 0 when there is none */
  char **roots;                 /* the paths given to fts, NULL-ended */
  char *top;                    /* several items: the archive's folder */
  int top_written;
  char *prefix;                 /* "TOP/", or "" for one item */
  size_t cut;                   /* where the current root's name starts in
                                 * fts_path */
  int finished;                 /* the trailer was written */
  gpg_error_t err;              /* sticky */
  pl_tar_problem problem;
  char *problem_path;

  /* The file whose data is being written */
  int fd;
  int64_t remaining;
  char *path;
  uint64_t files_done, bytes_done;

  /* Where libarchive's output goes during one read() */
  int in_header;                /* output goes to pending, to be fixed */
  uint64_t offset;              /* octets libarchive wrote so far */
  uint8_t *out;
  size_t out_len, out_pos;
  uint8_t *pending;
  size_t pending_len, pending_pos, pending_cap;
  uint8_t *scratch;             /* file data that does not fit in OUT */
} tar_source;

static int
cancelled (const pl_tar_callbacks *cb)
{
  return cb->cancel && atomic_load (cb->cancel);
}

static gpg_error_t
fail (tar_source *self, pl_tar_problem problem, const char *path,
      gpg_error_t err)
{
  if (!self->err)
    {
      self->err = err;
      self->problem = problem;
      free (self->problem_path);
      self->problem_path = path ? strdup (path) : NULL;
    }
  return self->err;
}

/* fts wants a comparison to give a stable order: names sort bytewise, so
 * the same folder makes the same archive. */
static int
compare_names (const FTSENT **a, const FTSENT **b)
{
  return strcmp ((*a)->fts_name, (*b)->fts_name);
}

static const char *
base_name (const char *path)
{
  const char *slash = strrchr (path, '/');
  return slash ? slash + 1 : path;
}

static void
free_roots (char **roots)
{
  for (char **r = roots; r && *r; r++)
    free (*r);
  free (roots);
}

/* The walk's roots: PATHS without trailing slashes, resolved when their
 * own name says nothing ("." or ".."), since that name begins every entry.
 * "/" has no name: GPG_ERR_INV_NAME. */
static gpg_error_t
make_roots (const char *const *paths, size_t n, char ***out)
{
  char **roots = calloc (n + 1, sizeof *roots);
  size_t i;

  *out = NULL;
  if (!roots)
    return gpg_error_from_syserror ();
  for (i = 0; i < n; i++)
    {
      char *root = strdup (paths[i]);
      size_t len = root ? strlen (root) : 0;
      const char *name;

      while (len > 1 && root[len - 1] == '/')
        root[--len] = 0;
      name = root ? base_name (root) : NULL;
      if (name && (!strcmp (name, ".") || !strcmp (name, "..") || !*name))
        {
          char *real = realpath (root, NULL);
          free (root);
          root = real;
        }
      roots[i] = root;
      if (!root)
        {
          free_roots (roots);
          return gpg_error_from_syserror ();
        }
      if (!*base_name (root))
        {
          free_roots (roots);
          return gpg_error (GPG_ERR_INV_NAME);
        }
    }
  *out = roots;
  return 0;
}

static FTS *
open_walk (char **roots)
{
  return fts_open (roots, FTS_PHYSICAL | FTS_NOCHDIR | FTS_COMFOLLOW,
                   compare_names);
}

static int
compare_inodes (const void *a, const void *b)
{
  const dev_t *x = a, *y = b;   /* device, then inode (as a dev_t pair) */

  if (x[0] != y[0])
    return x[0] < y[0] ? -1 : 1;
  return x[1] < y[1] ? -1 : x[1] > y[1];
}

/* Whether ST is the first name of its file seen: the data of a file with
 * several names is archived once. */
static int
first_link (void **seen, const struct stat *st)
{
  dev_t *key, **found;

  if (st->st_nlink < 2)
    return 1;
  key = malloc (2 * sizeof *key);
  if (!key)
    return 1;
  key[0] = st->st_dev;
  key[1] = (dev_t) st->st_ino;
  found = tsearch (key, seen, compare_inodes);
  if (found && *found != key)
    {
      free (key);
      return 0;
    }
  return 1;
}

/* What the scan makes of one walked entry: the fts_info the sorted walk
 * of the source would give it, and for a file its stat in *ST.  The scan
 * walks with FTS_NOSTAT, where fts leaves what is not a folder unstatted
 * (FTS_NSOK) instead of statting a whole folder before it returns its
 * first entry: the scan stats each here, one at a time, so that its count
 * rises and a cancel is seen between any two entries, however many one
 * folder holds.  (With FTS_NOSTAT, fts_statp is never filled in.) */
static int
scan_kind (FTSENT *ent, struct stat *st)
{
  int r;

  if (ent->fts_info != FTS_NSOK && ent->fts_info != FTS_F)
    return ent->fts_info;
  /* A root is followed when it is a symbolic link (FTS_COMFOLLOW). */
  r = ent->fts_level == FTS_ROOTLEVEL ? stat (ent->fts_accpath, st)
                                      : lstat (ent->fts_accpath, st);
  if (r != 0)
    {
      ent->fts_errno = errno;
      return FTS_NS;
    }
  if (S_ISREG (st->st_mode))
    return FTS_F;
  if (S_ISLNK (st->st_mode))
    return FTS_SL;
  /* A folder fts did not stat (its parent's link count said there were
   * no more): counted as an entry; what it holds is not (the source, which
   * stats, archives it all). */
  if (S_ISDIR (st->st_mode))
    return FTS_D;
  return FTS_DEFAULT;           /* FIFO, socket, device: left out */
}

gpg_error_t
pl_tar_scan_items (const char *const *paths, size_t n,
                   const pl_tar_callbacks *cb, pl_tar_totals *totals,
                   char **problem_path)
{
  static const pl_tar_callbacks none;
  char **roots = NULL;
  FTS *fts = NULL;
  FTSENT *ent;
  struct stat st;
  void *seen_links = NULL;
  uint64_t reported = 0;
  gpg_error_t err = 0;
  int kind;

  if (!cb)
    cb = &none;
  totals->files = n > 1;        /* the archive's own folder */
  totals->bytes = 0;
  if (problem_path)
    *problem_path = NULL;
  if ((err = make_roots (paths, n, &roots)))
    return err;
  /* Unsorted: a count needs no order. */
  fts = fts_open (roots, FTS_PHYSICAL | FTS_NOCHDIR | FTS_COMFOLLOW
                         | FTS_NOSTAT, NULL);
  if (!fts)
    {
      err = gpg_error_from_syserror ();
      goto leave;
    }
  while (!err && (errno = 0, ent = fts_read (fts)))
    {
      if (cancelled (cb))
        {
          err = gpg_error (GPG_ERR_CANCELED);
          break;
        }
      kind = scan_kind (ent, &st);
      if (kind == FTS_DNR || kind == FTS_ERR || kind == FTS_NS)
        {
          err = pl_error_from_errno (ent->fts_errno);
          if (problem_path)
            *problem_path = strdup (ent->fts_path);
        }
      else if (kind == FTS_F)
        {
          totals->files++;
          if (first_link (&seen_links, &st))
            totals->bytes += (uint64_t) st.st_size;
        }
      else if (kind == FTS_D || kind == FTS_SL || kind == FTS_SLNONE)
        totals->files++;
      /* Once per count: a folder's second visit (FTS_DP), or an entry
       * left out, adds nothing. */
      if (cb->counting && (totals->files & 255) == 0
          && totals->files != reported)
        {
          reported = totals->files;
          cb->counting (cb->user_data, totals->files, totals->bytes);
        }
    }
  if (!err && errno)
    err = gpg_error_from_syserror ();
  if (!err && cb->counting)
    cb->counting (cb->user_data, totals->files, totals->bytes);

 leave:
  if (fts)
    fts_close (fts);
  tdestroy (seen_links, free);
  free_roots (roots);
  return err;
}

gpg_error_t
pl_tar_scan (const char *folder, const pl_tar_callbacks *cb,
             pl_tar_totals *totals, char **problem_path)
{
  return pl_tar_scan_items (&folder, 1, cb, totals, problem_path);
}

/* A walked path as the callbacks name it: its archive name less the
 * first component (the folder, or the archive's own folder). */
static const char *
inner_name (tar_source *self, const char *path)
{
  const char *name = path + self->cut;

  if (self->top)
    return name;
  name = strchr (name, '/');
  return name ? name + 1 : "";
}

/* libarchive's output: into the reader's buffer, the rest into pending.
 * When BUF is where the reader's buffer stands, the data is there already
 * (write_file_block read it in place). */
static la_ssize_t
write_output (struct archive *a, void *user_data, const void *buf, size_t len)
{
  tar_source *self = user_data;
  size_t room = self->pending_len || self->in_header || !self->out
                ? 0 : self->out_len - self->out_pos;
  size_t direct = len < room ? len : room;
  size_t rest = len - direct;

  if (direct)
    {
      if (buf != self->out + self->out_pos)
        memcpy (self->out + self->out_pos, buf, direct);
      self->out_pos += direct;
    }
  if (rest)
    {
      if (self->pending_len + rest > self->pending_cap)
        {
          size_t cap = self->pending_len + rest + PL_TAR_BLOCK;
          uint8_t *p = realloc (self->pending, cap);

          if (!p)
            {
              archive_set_error (a, ENOMEM, "out of memory");
              return -1;
            }
          self->pending = p;
          self->pending_cap = cap;
        }
      memcpy (self->pending + self->pending_len, (const uint8_t *) buf + direct,
              rest);
      self->pending_len += rest;
    }
  self->offset += len;
  return (la_ssize_t) len;
}

/* A numeric header field as GNU tar writes it: octal digits, then NUL.
 * Fields in base-256 (high bit set) stay as they are. */
static void
renumber_field (unsigned char *field, size_t size)
{
  unsigned long long value = 0;
  size_t i = 0;

  if (field[0] & 0x80)
    return;
  while (i < size && field[i] == ' ')
    i++;
  for (; i < size && field[i] >= '0' && field[i] <= '7'; i++)
    value = value * 8 + (unsigned) (field[i] - '0');
  for (i = size - 1; i-- > 0; value >>= 3)
    field[i] = (unsigned char) ('0' + (value & 7));
  field[size - 1] = 0;
}

/* libarchive ends numeric fields with a space, as POSIX allows; gpgtar
 * (GnuPG 2.2 to 2.4) takes a number only when it ends in NUL, and reads
 * "000644 " as an invalid 0.  So the header blocks of each entry are
 * rewritten into GNU tar's style, which every reader takes, and their
 * checksums made anew.  Only the numbers' spelling changes. */
static void
renumber_headers (tar_source *self, size_t from, uint64_t from_offset)
{
  static const struct { size_t at, size; } fields[] = {
    { 100, 8 }, { 108, 8 }, { 116, 8 }, { 124, 12 }, { 136, 12 },
    { 329, 8 }, { 337, 8 },
  };
  size_t i = from + (size_t) ((512 - from_offset % 512) % 512);

  for (; i + 512 <= self->pending_len; i += 512)
    {
      unsigned char *h = self->pending + i;
      unsigned long sum = 0;
      size_t k;

      if (!pl_tar_header_is_valid (h, 512))
        continue;
      for (k = 0; k < sizeof fields / sizeof fields[0]; k++)
        renumber_field (h + fields[k].at, fields[k].size);
      memset (h + 148, ' ', 8);
      for (k = 0; k < 512; k++)
        sum += h[k];
      snprintf ((char *) h + 148, 8, "%06lo", sum & 0777777);
      h[155] = ' ';
    }
}

/* Runs a libarchive call that writes headers (or the trailer), and fixes
 * what it wrote. */
static int
write_headers (tar_source *self, struct archive_entry *entry)
{
  size_t from = self->pending_len;
  uint64_t from_offset = self->offset;
  int r;

  self->in_header = 1;
  r = entry ? archive_write_header (self->archive, entry)
            : archive_write_close (self->archive);
  self->in_header = 0;
  renumber_headers (self, from, from_offset);
  return r;
}

static gpg_error_t archive_failed (tar_source *self, const char *path);

/* One entry's headers, counted; PATH names the file if it fails. */
static gpg_error_t
write_headers_checked (tar_source *self, struct archive_entry *entry,
                       const char *path)
{
  if (write_headers (self, entry) < ARCHIVE_WARN)
    return archive_failed (self, path);
  self->files_done++;
  return 0;
}

static gpg_error_t
archive_failed (tar_source *self, const char *path)
{
  int e = archive_errno (self->archive);

  return fail (self, PL_TAR_UNREADABLE, path,
               e == ENOMEM ? gpg_error (GPG_ERR_ENOMEM)
               : gpg_error (GPG_ERR_GENERAL));
}

/* Reads the next block of the current file and writes it to the archive. */
static gpg_error_t
write_file_block (tar_source *self)
{
  size_t room = self->pending_len ? 0 : self->out_len - self->out_pos;
  size_t want = self->remaining < PL_TAR_BLOCK
                ? (size_t) self->remaining : PL_TAR_BLOCK;
  uint8_t *p = want <= room ? self->out + self->out_pos : self->scratch;
  size_t got = 0;
  uint8_t extra;

  while (got < want)
    {
      ssize_t n = read (self->fd, p + got, want - got);

      if (n < 0 && errno == EINTR)
        continue;
      if (n < 0)
        return fail (self, PL_TAR_UNREADABLE, self->path,
                     gpg_error_from_syserror ());
      if (n == 0)               /* shrank since its header was written */
        return fail (self, PL_TAR_CHANGED, self->path,
                     gpg_error (GPG_ERR_EIO));
      got += (size_t) n;
    }
  if (archive_write_data (self->archive, p, got) != (la_ssize_t) got)
    return archive_failed (self, self->path);
  self->remaining -= (int64_t) got;
  self->bytes_done += got;
  if (self->remaining == 0)
    {
      ssize_t n;

      while ((n = read (self->fd, &extra, 1)) < 0 && errno == EINTR)
        ;
      if (n != 0)               /* grew, or could not tell */
        return fail (self, PL_TAR_CHANGED, self->path,
                     gpg_error (GPG_ERR_EIO));
      close (self->fd);
      self->fd = -1;
    }
  if (self->cb.reading)
    self->cb.reading (self->cb.user_data, inner_name (self, self->path),
                      self->files_done, self->bytes_done);
  return 0;
}

/* Opens a regular file for its data and checks that it is still the file
 * that was walked to: same inode, still regular. */
static gpg_error_t
open_file (tar_source *self, FTSENT *ent, struct stat *st)
{
  self->fd = open (ent->fts_accpath,
                   O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC);
  if (self->fd < 0)
    return fail (self, PL_TAR_UNREADABLE, ent->fts_path,
                 gpg_error_from_syserror ());
  if (fstat (self->fd, st))
    return fail (self, PL_TAR_UNREADABLE, ent->fts_path,
                 gpg_error_from_syserror ());
  if (!S_ISREG (st->st_mode) || st->st_ino != ent->fts_statp->st_ino
      || st->st_dev != ent->fts_statp->st_dev)
    return fail (self, PL_TAR_CHANGED, ent->fts_path,
                 gpg_error (GPG_ERR_EIO));
  return 0;
}

/* An entry's metadata: what tar.h promises to keep, and nothing else
 * (no owner names, access or change times). */
static struct archive_entry *
make_entry (tar_source *self, FTSENT *ent, const struct stat *st)
{
  struct archive_entry *entry = archive_entry_new ();
  const char *rel = ent->fts_path + self->cut;
  size_t len = strlen (self->prefix) + strlen (rel) + 1;
  char *name = malloc (len);

  if (!entry || !name)
    {
      archive_entry_free (entry);
      free (name);
      return NULL;
    }
  snprintf (name, len, "%s%s", self->prefix, rel);
  archive_entry_copy_stat (entry, st);
  archive_entry_unset_atime (entry);
  archive_entry_unset_ctime (entry);
  archive_entry_unset_birthtime (entry);
  archive_entry_set_perm (entry, st->st_mode & 0777);
  archive_entry_copy_pathname (entry, name);
  free (name);
  return entry;
}

static gpg_error_t
write_symlink_target (tar_source *self, FTSENT *ent,
                      struct archive_entry *entry)
{
  size_t cap = (size_t) ent->fts_statp->st_size + 1;
  char *target = malloc (cap < 256 ? 256 : cap);
  ssize_t n;

  if (!target)
    return gpg_error (GPG_ERR_ENOMEM);
  n = readlink (ent->fts_accpath, target, cap < 256 ? 256 : cap);
  if (n < 0 || (size_t) n >= (cap < 256 ? 256 : cap))
    {
      gpg_error_t err = n < 0 ? gpg_error_from_syserror ()
                              : gpg_error (GPG_ERR_EIO);
      free (target);
      return fail (self, n < 0 ? PL_TAR_UNREADABLE : PL_TAR_CHANGED,
                   ent->fts_path, err);
    }
  target[n] = 0;
  archive_entry_copy_symlink (entry, target);
  free (target);
  return 0;
}

static gpg_error_t write_headers_checked (tar_source *self,
                                          struct archive_entry *entry,
                                          const char *path);

/* Several items: their folder, made up (0755, now), comes first. */
static gpg_error_t
write_top_entry (tar_source *self)
{
  struct archive_entry *entry = archive_entry_new ();
  gpg_error_t err;

  self->top_written = 1;
  if (!entry)
    return fail (self, PL_TAR_UNREADABLE, NULL, gpg_error (GPG_ERR_ENOMEM));
  archive_entry_copy_pathname (entry, self->prefix);
  archive_entry_set_filetype (entry, AE_IFDIR);
  archive_entry_set_perm (entry, 0755);
  archive_entry_set_mtime (entry, time (NULL), 0);
  err = write_headers_checked (self, entry, NULL);
  archive_entry_free (entry);
  return err;
}

/* Writes the header of the next entry the walk gives, or the trailer. */
static gpg_error_t
write_next_header (tar_source *self)
{
  FTSENT *ent;
  struct archive_entry *entry, *spare = NULL;
  struct stat st;
  gpg_error_t err = 0;

  if (self->top && !self->top_written)
    return write_top_entry (self);
  do
    {
      errno = 0;
      ent = fts_read (self->fts);
    }
  while (ent && ent->fts_info == FTS_DP);
  if (ent && ent->fts_level == 0)
    self->cut = (size_t) (base_name (ent->fts_path) - ent->fts_path);
  if (!ent)
    {
      if (errno)
        return fail (self, PL_TAR_UNREADABLE, NULL,
                     gpg_error_from_syserror ());
      if (write_headers (self, NULL) != ARCHIVE_OK)
        return archive_failed (self, NULL);
      self->finished = 1;
      return 0;
    }

  switch (ent->fts_info)
    {
    case FTS_DNR: case FTS_ERR: case FTS_NS: case FTS_DC:
      return fail (self, PL_TAR_UNREADABLE, ent->fts_path,
                   pl_error_from_errno (ent->fts_errno ? ent->fts_errno
                                        : ELOOP));
    case FTS_DEFAULT:            /* FIFO, socket, device */
      if (self->cb.skipped)
        self->cb.skipped (self->cb.user_data,
                          inner_name (self, ent->fts_path));
      return 0;
    case FTS_F:
      if (open_file (self, ent, &st))
        return self->err;
      break;
    default:
      st = *ent->fts_statp;
    }

  entry = make_entry (self, ent, &st);
  if (!entry)
    return fail (self, PL_TAR_UNREADABLE, ent->fts_path,
                 gpg_error (GPG_ERR_ENOMEM));
  if (S_ISLNK (st.st_mode))
    err = write_symlink_target (self, ent, entry);
  if (!err && S_ISREG (st.st_mode))
    /* A second name of a file already written becomes a hard link of
     * size 0: the tar strategy never needs the spare entry. */
    archive_entry_linkify (self->links, &entry, &spare);
  if (!err)
    err = write_headers_checked (self, entry, ent->fts_path);
  if (!err && self->fd >= 0)
    {
      self->remaining = archive_entry_size (entry);
      free (self->path);
      self->path = strdup (ent->fts_path);
      if (!self->path)
        err = fail (self, PL_TAR_UNREADABLE, ent->fts_path,
                    gpg_error (GPG_ERR_ENOMEM));
      else if (archive_entry_hardlink (entry))
        {
          close (self->fd);     /* its data went with the first name */
          self->fd = -1;
        }
      else if (self->remaining == 0)
        err = write_file_block (self);  /* checks it stayed empty */
    }
  archive_entry_free (entry);
  archive_entry_free (spare);
  return err;
}

/* Moves what is pending into the reader's buffer, as far as it goes. */
static void
drain_pending (tar_source *self)
{
  size_t n = self->pending_len - self->pending_pos;

  if (n > self->out_len - self->out_pos)
    n = self->out_len - self->out_pos;
  memcpy (self->out + self->out_pos, self->pending + self->pending_pos, n);
  self->out_pos += n;
  self->pending_pos += n;
  if (self->pending_pos == self->pending_len)
    self->pending_len = self->pending_pos = 0;
}

static gpg_error_t
tar_source_read (pl_source *base, void *buf, size_t len, size_t *nread)
{
  tar_source *self = (tar_source *) base;

  locale_t old = (locale_t) 0;

  *nread = 0;
  if (self->err)
    return self->err;
  if (self->utf8)
    old = uselocale (self->utf8);
  self->out = buf;
  self->out_len = len;
  self->out_pos = 0;
  for (;;)
    {
      if (self->pending_len)
        drain_pending (self);
      if (self->out_pos == len || self->finished)
        break;
      if (cancelled (&self->cb))
        {
          fail (self, PL_TAR_OK, NULL, gpg_error (GPG_ERR_CANCELED));
          break;
        }
      if (self->fd >= 0 ? write_file_block (self) : write_next_header (self))
        break;
    }
  if (old)
    uselocale (old);
  /* Outside read(), libarchive's output (the trailer that freeing an
   * unfinished archive writes) goes to pending, never to a stale buffer. */
  if (!self->err)
    *nread = self->out_pos;
  self->out = NULL;
  self->out_len = self->out_pos = 0;
  return self->err;
}

static void
tar_source_free (pl_source *base)
{
  tar_source *self = (tar_source *) base;

  if (self->fd >= 0)
    close (self->fd);
  if (self->archive)
    archive_write_free (self->archive);
  if (self->links)
    archive_entry_linkresolver_free (self->links);
  if (self->fts)
    fts_close (self->fts);
  if (self->utf8)
    freelocale (self->utf8);
  free_roots (self->roots);
  free (self->top);
  free (self->prefix);
  free (self->path);
  free (self->problem_path);
  free (self->pending);
  free (self->scratch);
  free (self);
}

/* Several items: their names must differ, since each becomes TOP/NAME. */
static gpg_error_t
check_names_differ (tar_source *self)
{
  for (size_t i = 0; self->roots[i]; i++)
    for (size_t j = 0; j < i; j++)
      if (!strcmp (base_name (self->roots[i]), base_name (self->roots[j])))
        return fail (self, PL_TAR_SAME_NAME, self->roots[i],
                     gpg_error (GPG_ERR_EEXIST));
  return 0;
}

static gpg_error_t
open_archive (tar_source *self)
{
  /* Names are written as pax wants them, in UTF-8, whatever locale the
   * process runs in: libarchive converts from the calling thread's locale,
   * and read() lends it this one (uselocale is per thread).  A name that
   * is not UTF-8 goes as its octets, marked hdrcharset=BINARY. */
  self->utf8 = newlocale (LC_CTYPE_MASK, "C.UTF-8", (locale_t) 0);
  self->archive = archive_write_new ();
  self->links = archive_entry_linkresolver_new ();
  if (!self->archive || !self->links)
    return gpg_error (GPG_ERR_ENOMEM);
  /* Restricted pax: plain ustar headers, with a pax header only for what
   * ustar cannot hold (long or non-ASCII names, big sizes).  Unblocked, so
   * that file data passes through without a copy. */
  if (archive_write_set_format_pax_restricted (self->archive) != ARCHIVE_OK
      || archive_write_set_bytes_per_block (self->archive, 0) != ARCHIVE_OK
      || archive_write_open (self->archive, self, NULL, write_output, NULL)
         != ARCHIVE_OK)
    return gpg_error (GPG_ERR_GENERAL);
  archive_entry_linkresolver_set_strategy (self->links,
                                           archive_format (self->archive));
  return 0;
}

gpg_error_t
pl_tar_source_new_items (const char *const *paths, size_t n, const char *top,
                         const pl_tar_callbacks *cb, pl_source **out)
{
  tar_source *self = calloc (1, sizeof *self);
  gpg_error_t err = 0;

  *out = NULL;
  if (!self)
    return gpg_error_from_syserror ();
  self->base.read = tar_source_read;
  self->base.free = tar_source_free;
  self->base.size = -1;
  self->fd = -1;
  if (cb)
    self->cb = *cb;

  if (!n || (n > 1 && (!top || !*top || strchr (top, '/'))))
    {
      err = gpg_error (GPG_ERR_INV_ARG);
      goto leave;
    }
  if ((err = make_roots (paths, n, &self->roots)))
    goto leave;
  if (n > 1 && (err = check_names_differ (self)))
    {
      /* Reported by the first read, with the name. */
      *out = &self->base;
      return 0;
    }
  self->scratch = malloc (PL_TAR_BLOCK);
  self->top = n > 1 ? strdup (top) : NULL;
  self->prefix = malloc (n > 1 ? strlen (top) + 2 : 1);
  if (!self->scratch || !self->prefix || (n > 1 && !self->top))
    {
      err = gpg_error (GPG_ERR_ENOMEM);
      goto leave;
    }
  strcpy (self->prefix, n > 1 ? top : "");
  if (n > 1)
    strcat (self->prefix, "/");
  self->fts = open_walk (self->roots);
  if (!self->fts)
    {
      err = gpg_error_from_syserror ();
      goto leave;
    }
  err = open_archive (self);

 leave:
  if (err)
    tar_source_free (&self->base);
  else
    *out = &self->base;
  return err;
}

gpg_error_t
pl_tar_source_new (const char *folder, const pl_tar_callbacks *cb,
                   pl_source **out)
{
  return pl_tar_source_new_items (&folder, 1, NULL, cb, out);
}

pl_tar_problem
pl_tar_source_problem (pl_source *src, const char **path)
{
  tar_source *self = (tar_source *) src;

  if (path)
    *path = self->problem_path;
  return self->problem;
}
