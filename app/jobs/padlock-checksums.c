/* padlock-checksums.c - the files a checksum list names, hashed and
 * compared */
#include "padlock-checksums.h"

#include <errno.h>
#include <stdlib.h>
#include <fcntl.h>
#include <stdatomic.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <gcrypt.h>
#include <glib/gi18n.h>

#include "algo.h"
#include "errors.h"
#include "io.h"
#include "padlock-error.h"
#include "padlock-name.h"
#include "padlock-signature.h"

/* A thread's read: large enough that a block costs little beside its
 * hashing, small enough that cancel and progress come within a
 * millisecond or so. */
#define BLOCK ((size_t) 1 << 20)
#define PROGRESS_US (50 * 1000)

typedef struct
{
  const pl_checksums_entry *entry;
  atomic_int state;             /* a PadlockChecksumState */
  atomic_int_fast64_t size;     /* -1 until looked at */
  atomic_uint_fast64_t done;
  GError *error;                /* UNREADABLE's; written by its hasher */
  gboolean weak;
} File;

struct _PadlockChecksums
{
  pl_checksums list;
  GFile *folder;
  guint threads;
  File *files;
  guint n_files;
  atomic_uint_fast64_t done;
  atomic_uint_fast64_t total;

  /* While it runs */
  int dir_fd;
  GCancellable *cancellable;
  guint *queue;                 /* the present files, largest first */
  guint n_queue;
  atomic_uint next;
  GMutex lock;
  GCond cond;
  guint running;                /* under LOCK: hashers not yet ended */
  gboolean ran;
  gboolean makes;               /* padlock_checksums_new_for_files' */
};

PadlockChecksums *
padlock_checksums_new (pl_checksums *list,
                       GFile        *folder)
{
  PadlockChecksums *self = g_new0 (PadlockChecksums, 1);

  self->list = *list;
  memset (list, 0, sizeof *list);
  self->folder = g_object_ref (folder);
  self->n_files = (guint) self->list.n_entries;
  self->files = g_new0 (File, self->n_files);
  for (guint i = 0; i < self->n_files; i++)
    {
      self->files[i].entry = &self->list.entries[i];
      atomic_init (&self->files[i].size, -1);
    }
  self->dir_fd = -1;
  g_mutex_init (&self->lock);
  g_cond_init (&self->cond);
  return self;
}

/* The words for a list refused whole (core/checksums.h's errors). */
static GError *
list_error (gpg_error_t err,
            const char *list_name)
{
  const char *name = list_name ? list_name : "";

  switch (gpg_err_code (err))
    {
    case GPG_ERR_NO_DATA:
      return g_error_new (PADLOCK_ERROR, PADLOCK_ERROR_MALFORMED,
                          _("Nothing in %s is a checksum line."), name);
    case GPG_ERR_UNEXPECTED_MSG:
      return g_error_new (PADLOCK_ERROR, PADLOCK_ERROR_MALFORMED,
                          _("%s holds a cleartext-signed message after other "
                            "lines; what lies around it is not signed."),
                          name);
    case GPG_ERR_TOO_LARGE:
      /* PL_CHECKSUMS_MAX_LIST */
      return g_error_new (PADLOCK_ERROR, PADLOCK_ERROR_TOO_COSTLY,
                          _("%s is too large for a checksum list: Padlock "
                            "reads at most 16 MiB of one."), name);
    case GPG_ERR_TOO_MANY:
      /* PL_CHECKSUMS_MAX_ENTRIES */
      return g_error_new (PADLOCK_ERROR, PADLOCK_ERROR_TOO_COSTLY,
                          _("%s has too many checksums: Padlock reads at "
                            "most 100,000 lines of them."), name);
    default:
      return padlock_error_from_gpg (err);
    }
}

G_STATIC_ASSERT (PL_CHECKSUMS_MAX_LIST == 16 << 20);
G_STATIC_ASSERT (PL_CHECKSUMS_MAX_ENTRIES == 100000);

PadlockChecksums *
padlock_checksums_new_from_data (const guint8 *data,
                                 gsize         len,
                                 const char   *list_name,
                                 GFile        *folder,
                                 GError      **error)
{
  pl_checksums list;
  gpg_error_t err = pl_checksums_parse (data, len, list_name, &list);

  if (err)
    {
      pl_checksums_clear (&list);
      g_propagate_error (error, list_error (err, list_name));
      return NULL;
    }
  return padlock_checksums_new (&list, folder);
}

PadlockChecksums *
padlock_checksums_new_for_files (const char *const *names,
                                 guint              n_names,
                                 int                algo,
                                 GFile             *folder,
                                 GError           **error)
{
  PadlockChecksums *self;
  pl_checksums list;
  size_t bad = 0;
  gpg_error_t err = pl_checksums_new_for_files (names, n_names, algo, &list,
                                                &bad);

  if (err)
    {
      pl_checksums_clear (&list);
      if (gpg_err_code (err) == GPG_ERR_INV_NAME)
        /* The name raw, as in any job's error (the header). */
        g_set_error (error, PADLOCK_ERROR, PADLOCK_ERROR_MALFORMED,
                     _("%s cannot be listed: a checksum list cannot hold "
                       "a name with a line break or another control "
                       "character."), names[bad]);
      else if (gpg_err_code (err) == GPG_ERR_TOO_MANY)
        g_set_error (error, PADLOCK_ERROR, PADLOCK_ERROR_TOO_COSTLY,
                     _("A checksum list holds at most %d files."),
                     PL_CHECKSUMS_MAX_ENTRIES);
      else
        g_propagate_error (error, padlock_error_from_gpg (err));
      return NULL;
    }
  self = padlock_checksums_new (&list, folder);
  self->makes = TRUE;
  return self;
}

gboolean
padlock_checksums_get_makes (PadlockChecksums *self)
{
  return self->makes;
}

GError *
padlock_checksums_make_failure (PadlockChecksums *self)
{
  g_return_val_if_fail (self->makes && self->ran, NULL);
  for (guint i = 0; i < self->n_files; i++)
    {
      switch (padlock_checksums_get_state (self, i))
        {
        case PADLOCK_CHECKSUM_OK:
          continue;
        case PADLOCK_CHECKSUM_NOT_HERE:
          return g_error_new (PADLOCK_ERROR, PADLOCK_ERROR_IO,
                              _("%s is no longer in the folder: nothing was "
                                "written."), self->files[i].entry->name);
        case PADLOCK_CHECKSUM_UNREADABLE:
          return g_error_copy (self->files[i].error);
        default:
          return padlock_error_from_gpg (gpg_error (GPG_ERR_CANCELED));
        }
    }
  return NULL;
}

GBytes *
padlock_checksums_dup_text (PadlockChecksums *self,
                            GError          **error)
{
  char *text = NULL;
  size_t len = 0;
  gpg_error_t err;

  g_return_val_if_fail (self->makes && self->ran, NULL);
  err = pl_checksums_format (&self->list, &text, &len);
  if (err)
    {
      g_propagate_error (error, padlock_error_from_gpg (err));
      return NULL;
    }
  return g_bytes_new_with_free_func (text, len, free, text);
}

char *
padlock_checksums_listed_line (PadlockChecksums *self,
                               const char       *list_name,
                               guint             i)
{
  const pl_checksums_entry *e;
  g_autofree char *list_word = NULL;
  g_autofree char *file_word = NULL;

  g_return_val_if_fail (self->makes && i < self->n_files, NULL);
  e = self->files[i].entry;
  list_word = padlock_name_word (list_name);
  file_word = padlock_name_word (e->name);
  return g_strdup_printf ("listed %s -> %s %s", file_word, list_word,
                          pl_checksums_algo_word (e->sums[0].algo));
}

void
padlock_checksums_free (PadlockChecksums *self)
{
  if (!self)
    return;
  for (guint i = 0; i < self->n_files; i++)
    g_clear_error (&self->files[i].error);
  g_free (self->files);
  pl_checksums_clear (&self->list);
  g_object_unref (self->folder);
  g_mutex_clear (&self->lock);
  g_cond_clear (&self->cond);
  g_free (self);
}

const pl_checksums *
padlock_checksums_get_list (PadlockChecksums *self)
{
  return &self->list;
}

void
padlock_checksums_set_threads (PadlockChecksums *self,
                               guint             n)
{
  self->threads = n;
}

static void
file_fail (File        *file,
           gpg_error_t  err)
{
  g_autofree char *name = padlock_name_escape (file->entry->name);

  g_clear_error (&file->error);
  file->error = g_error_new (PADLOCK_ERROR, PADLOCK_ERROR_IO,
                             _("Could not read %s: %s"), name,
                             _(pl_error_message (err)));
  atomic_store (&file->state, PADLOCK_CHECKSUM_UNREADABLE);
}

static void
file_not_regular (File *file)
{
  g_autofree char *name = padlock_name_escape (file->entry->name);

  g_clear_error (&file->error);
  file->error = g_error_new (PADLOCK_ERROR, PADLOCK_ERROR_IO,
                             _("%s is not a regular file: a folder, a pipe "
                               "or a device is not checked."), name);
  atomic_store (&file->state, PADLOCK_CHECKSUM_UNREADABLE);
}

/* Opens FILE under the folder: its descriptor, or -1 with its state
 * set (not here, unreadable).  Never waits: O_NONBLOCK, then a FIFO or a
 * device is refused for not being a regular file. */
static int
open_file (PadlockChecksums *self,
           File             *file)
{
  struct stat st;
  int fd = openat (self->dir_fd, file->entry->name,
                   O_RDONLY | O_CLOEXEC | O_NOCTTY | O_NONBLOCK);

  if (fd < 0)
    {
      if (errno == ENOENT || errno == ENOTDIR)
        atomic_store (&file->state, PADLOCK_CHECKSUM_NOT_HERE);
      else
        file_fail (file, pl_error_from_errno (errno));
      return -1;
    }
  if (fstat (fd, &st) || !S_ISREG (st.st_mode))
    {
      file_not_regular (file);
      close (fd);
      return -1;
    }
  return fd;
}

/* Whether the digests in MD are the list's for FILE; *WEAK when only
 * MD5 or SHA-1 sums vouch for it. */
static gboolean
digests_match (File            *file,
               gcry_md_hd_t     md,
               gboolean        *weak)
{
  const pl_checksums_entry *e = file->entry;
  gboolean match = TRUE;

  *weak = TRUE;
  for (size_t k = 0; k < e->n_sums; k++)
    {
      int algo = pl_hash_gcry_algo (e->sums[k].algo);
      const unsigned char *got = gcry_md_read (md, algo);

      match = match && got && !memcmp (got, e->sums[k].value, e->sums[k].len);
      *weak = *weak && pl_checksums_algo_weak (e->sums[k].algo);
    }
  return match;
}

/* A maker's: FILE's digest, from MD, into its sum in the list (its
 * own: only this hasher writes it, and it is read after the run). */
static void
keep_digest (PadlockChecksums *self,
             File             *file,
             gcry_md_hd_t      md)
{
  pl_checksum *sum = &self->list.sums[file->entry->sums - self->list.sums];

  memcpy (sum->value, gcry_md_read (md, pl_hash_gcry_algo (sum->algo)),
          sum->len);
}

/* Reads SRC to its end into MD, in blocks (lent in place when the
 * source maps, else read into BUF), counting into FILE and SELF. */
static gpg_error_t
hash_source (PadlockChecksums *self,
             File             *file,
             pl_source        *src,
             gcry_md_hd_t      md,
             guint8           *buf)
{
  for (;;)
    {
      const uint8_t *p = buf;
      size_t n = 0;
      gpg_error_t err;

      if (g_cancellable_is_cancelled (self->cancellable))
        return gpg_error (GPG_ERR_CANCELED);
      err = src->borrow ? src->borrow (src, BLOCK, &p, &n)
                        : src->read (src, buf, BLOCK, &n);
      if (err)
        return err;
      if (!n)
        return pl_source_check (src);
      gcry_md_write (md, p, n);
      atomic_fetch_add (&file->done, n);
      atomic_fetch_add (&self->done, n);
    }
}

/* Hashes FILE with every hash the list gives it, and judges it. */
static void
check_file (PadlockChecksums *self,
            File             *file,
            guint8           *buf)
{
  gcry_md_hd_t md = NULL;
  pl_source *src;
  gpg_error_t err;
  int fd = open_file (self, file);

  if (fd < 0)
    return;
  src = pl_source_new_fd (fd, 1);
  if (!src)
    {
      close (fd);
      file_fail (file, gpg_error (GPG_ERR_ENOMEM));
      return;
    }
  err = gcry_md_open (&md, 0, 0);
  for (size_t k = 0; !err && k < file->entry->n_sums; k++)
    err = gcry_md_enable (md, pl_hash_gcry_algo (file->entry->sums[k].algo));
  if (!err)
    err = hash_source (self, file, src, md, buf);
  pl_source_free (src);
  if (gpg_err_code (err) == GPG_ERR_CANCELED)
    ;                           /* stays PENDING */
  else if (err)
    file_fail (file, err);
  else if (self->makes)
    {
      keep_digest (self, file, md);
      atomic_store (&file->state, PADLOCK_CHECKSUM_OK);
    }
  else
    atomic_store (&file->state, digests_match (file, md, &file->weak)
                                ? PADLOCK_CHECKSUM_OK
                                : PADLOCK_CHECKSUM_DIFFERS);
  gcry_md_close (md);
}

static gpointer
hasher (gpointer data)
{
  PadlockChecksums *self = data;
  g_autofree guint8 *buf = g_malloc (BLOCK);
  guint i;

  while ((i = atomic_fetch_add (&self->next, 1)) < self->n_queue
         && !g_cancellable_is_cancelled (self->cancellable))
    check_file (self, &self->files[self->queue[i]], buf);
  g_mutex_lock (&self->lock);
  self->running--;
  g_cond_signal (&self->cond);
  g_mutex_unlock (&self->lock);
  return NULL;
}

typedef struct
{
  gint64 size;
  guint file;
} Queued;

static int
compare_sizes (const void *a,
               const void *b)
{
  const Queued *x = a, *y = b;

  return (x->size < y->size) - (x->size > y->size);
}

/* Looks at each file: the absent and the irregular are judged here,
 * the conflicting too (no file matches both sums); the others queued,
 * largest first, their sizes the total. */
static void
look_at_files (PadlockChecksums *self)
{
  g_autofree Queued *queued = g_new (Queued, MAX (self->n_files, 1));
  guint64 total = 0;

  self->n_queue = 0;
  for (guint i = 0; i < self->n_files; i++)
    {
      File *file = &self->files[i];
      struct stat st;

      if (fstatat (self->dir_fd, file->entry->name, &st, 0))
        {
          if (errno == ENOENT || errno == ENOTDIR)
            atomic_store (&file->state, PADLOCK_CHECKSUM_NOT_HERE);
          else
            file_fail (file, pl_error_from_errno (errno));
          continue;
        }
      if (!S_ISREG (st.st_mode))
        file_not_regular (file);
      else if (file->entry->flags & PL_CHECKSUMS_CONFLICT)
        atomic_store (&file->state, PADLOCK_CHECKSUM_DIFFERS);
      else
        {
          atomic_store (&file->size, (gint64) st.st_size);
          total += (guint64) st.st_size;
          queued[self->n_queue++] = (Queued) { st.st_size, i };
        }
    }
  qsort (queued, self->n_queue, sizeof *queued, compare_sizes);
  self->queue = g_new (guint, MAX (self->n_queue, 1));
  for (guint k = 0; k < self->n_queue; k++)
    self->queue[k] = queued[k].file;
  atomic_store (&self->total, total);
}

/* Starts the hashers (at most the budget, one a file), then reports
 * progress on this thread until they end. */
static void
hash_files (PadlockChecksums        *self,
            PadlockChecksumsProgress progress,
            gpointer                 user_data)
{
  guint budget = self->threads ? self->threads : g_get_num_processors ();
  guint n = MIN (budget, self->n_queue);
  g_autoptr(GPtrArray) threads = g_ptr_array_new ();

  atomic_store (&self->next, 0);
  self->running = 0;
  for (guint i = 0; i < n; i++)
    {
      GThread *t;

      g_mutex_lock (&self->lock);
      self->running++;
      g_mutex_unlock (&self->lock);
      t = g_thread_try_new ("padlock-checksums", hasher, self, NULL);
      if (!t)
        {
          g_mutex_lock (&self->lock);
          self->running--;
          g_mutex_unlock (&self->lock);
          break;
        }
      g_ptr_array_add (threads, t);
    }
  if (!threads->len && self->n_queue)
    {
      self->running = 1;        /* no thread to be had: this one */
      hasher (self);
    }
  /* Every PROGRESS_US, however often a hasher ending wakes this one up
   * (many small files). */
  g_mutex_lock (&self->lock);
  for (gint64 next = g_get_monotonic_time () + PROGRESS_US; self->running;)
    {
      g_cond_wait_until (&self->cond, &self->lock, next);
      if (g_get_monotonic_time () >= next && self->running)
        {
          next = g_get_monotonic_time () + PROGRESS_US;
          if (!progress)
            continue;
          g_mutex_unlock (&self->lock);
          progress (atomic_load (&self->done), atomic_load (&self->total),
                    user_data);
          g_mutex_lock (&self->lock);
        }
    }
  g_mutex_unlock (&self->lock);
  for (guint i = 0; i < threads->len; i++)
    g_thread_join (threads->pdata[i]);
}

gboolean
padlock_checksums_run (PadlockChecksums        *self,
                       GCancellable            *cancellable,
                       PadlockChecksumsProgress progress,
                       gpointer                 user_data,
                       GError                 **error)
{
  g_autofree char *path = g_file_get_path (self->folder);

  g_return_val_if_fail (!self->ran && self->dir_fd < 0, FALSE);
  if (g_cancellable_set_error_if_cancelled (cancellable, error))
    return FALSE;
  if (!path)
    {
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_NOT_SUPPORTED,
                   "%s", g_strerror (ENOTSUP));
      return FALSE;
    }
  self->dir_fd = open (path, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  if (self->dir_fd < 0)
    {
      int e = errno;
      g_set_error_literal (error, G_IO_ERROR, g_io_error_from_errno (e),
                           g_strerror (e));
      return FALSE;
    }
  self->cancellable = cancellable;
  look_at_files (self);
  hash_files (self, progress, user_data);
  if (progress)
    progress (atomic_load (&self->done), atomic_load (&self->total),
              user_data);
  self->cancellable = NULL;
  g_clear_pointer (&self->queue, g_free);
  close (self->dir_fd);
  self->dir_fd = -1;
  self->ran = TRUE;
  return !g_cancellable_set_error_if_cancelled (cancellable, error);
}

guint64
padlock_checksums_get_done (PadlockChecksums *self)
{
  return atomic_load (&self->done);
}

guint64
padlock_checksums_get_total (PadlockChecksums *self)
{
  return atomic_load (&self->total);
}

guint
padlock_checksums_get_n_files (PadlockChecksums *self)
{
  return self->n_files;
}

const pl_checksums_entry *
padlock_checksums_get_entry (PadlockChecksums *self,
                             guint             i)
{
  g_return_val_if_fail (i < self->n_files, NULL);
  return self->files[i].entry;
}

PadlockChecksumState
padlock_checksums_get_state (PadlockChecksums *self,
                             guint             i)
{
  g_return_val_if_fail (i < self->n_files, PADLOCK_CHECKSUM_PENDING);
  return (PadlockChecksumState) atomic_load (&self->files[i].state);
}

guint64
padlock_checksums_get_file_done (PadlockChecksums *self,
                                 guint             i)
{
  g_return_val_if_fail (i < self->n_files, 0);
  return atomic_load (&self->files[i].done);
}

gint64
padlock_checksums_get_file_size (PadlockChecksums *self,
                                 guint             i)
{
  g_return_val_if_fail (i < self->n_files, -1);
  return atomic_load (&self->files[i].size);
}

const GError *
padlock_checksums_get_error (PadlockChecksums *self,
                             guint             i)
{
  g_return_val_if_fail (i < self->n_files, NULL);
  return self->files[i].error;
}

gboolean
padlock_checksums_get_weak (PadlockChecksums *self,
                            guint             i)
{
  g_return_val_if_fail (i < self->n_files, FALSE);
  return padlock_checksums_get_state (self, i) == PADLOCK_CHECKSUM_OK
         && self->files[i].weak;
}

void
padlock_checksums_get_totals (PadlockChecksums       *self,
                              PadlockChecksumsTotals *totals)
{
  memset (totals, 0, sizeof *totals);
  for (guint i = 0; i < self->n_files; i++)
    switch (padlock_checksums_get_state (self, i))
      {
      case PADLOCK_CHECKSUM_PENDING: totals->n_pending++; break;
      case PADLOCK_CHECKSUM_OK:
        totals->n_ok++;
        totals->n_weak += padlock_checksums_get_weak (self, i);
        break;
      case PADLOCK_CHECKSUM_DIFFERS: totals->n_differ++; break;
      case PADLOCK_CHECKSUM_NOT_HERE: totals->n_not_here++; break;
      case PADLOCK_CHECKSUM_UNREADABLE: totals->n_unreadable++; break;
      default: g_assert_not_reached ();
      }
}

gboolean
padlock_checksums_all_match (PadlockChecksums *self)
{
  PadlockChecksumsTotals t;

  padlock_checksums_get_totals (self, &t);
  return self->ran && t.n_ok > 0 && !t.n_differ && !t.n_unreadable
         && !t.n_pending;
}

char *
padlock_checksums_file_line (PadlockChecksums *self,
                             const char       *list_name,
                             guint             i)
{
  const pl_checksums_entry *e = padlock_checksums_get_entry (self, i);
  PadlockChecksumState state = padlock_checksums_get_state (self, i);
  g_autofree char *list = padlock_name_word (list_name);
  g_autofree char *name = NULL;
  g_autoptr(GString) algos = g_string_new (NULL);
  const char *word;

  switch (state)
    {
    case PADLOCK_CHECKSUM_OK:
      word = padlock_checksums_get_weak (self, i) ? "ok-weak" : "ok";
      break;
    case PADLOCK_CHECKSUM_DIFFERS: word = "differs"; break;
    case PADLOCK_CHECKSUM_UNREADABLE: word = "unreadable"; break;
    default: return NULL;
    }
  name = padlock_name_word (e->name);
  for (size_t k = 0; k < e->n_sums; k++)
    g_string_append_printf (algos, "%s%s", k ? "," : "",
                            pl_checksums_algo_word (e->sums[k].algo));
  return g_strdup_printf ("checked %s -> %s %s %s", list, name, algos->str,
                          word);
}

char *
padlock_checksums_summary_line (PadlockChecksums *self,
                                const char       *list_name,
                                const char       *signature)
{
  PadlockChecksumsTotals t;
  g_autofree char *list = padlock_name_word (list_name);
  GString *line = g_string_new (NULL);

  padlock_checksums_get_totals (self, &t);
  g_string_append_printf (line, "checked %s: %u ok, %u differ, %u not here",
                          list, t.n_ok, t.n_differ, t.n_not_here);
  if (t.n_unreadable)
    g_string_append_printf (line, ", %u unreadable", t.n_unreadable);
  if (t.n_weak)
    g_string_append_printf (line, ", %u weak", t.n_weak);
  g_string_append_printf (line, ", %s", signature ? signature : "unsigned");
  return g_string_free (line, FALSE);
}

/* The first file in STATE, and how many are; -1 for none. */
static int
first_in_state (PadlockChecksums     *self,
                PadlockChecksumState  state,
                guint                *n)
{
  int first = -1;

  *n = 0;
  for (guint i = 0; i < self->n_files; i++)
    if (padlock_checksums_get_state (self, i) == state)
      {
        if (first < 0)
          first = (int) i;
        (*n)++;
      }
  return first;
}

/* How names are put in words: as they are (an error's message, which
 * whoever shows it escapes), escaped, or escaped and isolated. */
typedef enum
{
  NAMES_RAW,
  NAMES_ESCAPED,
  NAMES_ISOLATED,
} Names;

static char *
shown (const char *name,
       Names       names)
{
  switch (names)
    {
    case NAMES_ISOLATED:
      return padlock_name_display (name);
    case NAMES_ESCAPED:
      return padlock_name_escape (name);
    case NAMES_RAW:
    default:
      return g_strdup (name);
    }
}

/* The files' part of the words: the first that differs, else the first
 * unreadable, else none here, else what matched.  NULL: nothing to say
 * (not run). */
static char *
files_words (PadlockChecksums *self,
             const char       *list,
             gboolean          vouched,
             Names             names)
{
  PadlockChecksumsTotals t;
  g_autofree char *name = NULL;
  guint n;
  int i;

  padlock_checksums_get_totals (self, &t);
  if ((i = first_in_state (self, PADLOCK_CHECKSUM_DIFFERS, &n)) >= 0)
    {
      name = shown (self->files[i].entry->name, names);
      if (n == 1)
        return vouched
               ? g_strdup_printf (_("%s does not match the signed checksum"),
                                  name)
               : g_strdup_printf (_("%s does not match the checksum in %s"),
                                  name, list);
      return vouched
             ? g_strdup_printf (g_dngettext (NULL,
                 "%s and %u more file do not match the signed checksums",
                 "%s and %u more files do not match the signed checksums",
                 n - 1), name, n - 1)
             : g_strdup_printf (g_dngettext (NULL,
                 "%s and %u more file do not match the checksums in %s",
                 "%s and %u more files do not match the checksums in %s",
                 n - 1), name, n - 1, list);
    }
  if ((i = first_in_state (self, PADLOCK_CHECKSUM_UNREADABLE, &n)) >= 0)
    {
      const GError *e = self->files[i].error;
      g_autofree char *why = e ? shown (e->message, names) : NULL;

      name = shown (self->files[i].entry->name, names);
      return g_strdup_printf (_("%s could not be read: %s"), name,
                              why ? why : "?");
    }
  if (!t.n_ok)
    return g_strdup_printf (_("none of the files %s lists is in its folder"),
                            list);
  i = first_in_state (self, PADLOCK_CHECKSUM_OK, &n);
  name = shown (self->files[i].entry->name, names);
  if (t.n_weak)
    return n == 1
           ? g_strdup_printf (_("%s matches, by MD5 or SHA-1 only: a weak "
                                "checksum"), name)
           : g_strdup_printf (_("%u files match, %u of them by MD5 or SHA-1 "
                                "only: a weak checksum"), n, t.n_weak);
  if (n == 1)
    return vouched ? g_strdup_printf (_("%s matches"), name)
                   : g_strdup_printf (_("%s matches the list"), name);
  return vouched ? g_strdup_printf (_("%u files match"), n)
                 : g_strdup_printf (_("%u files match the list"), n);
}

/* Whether SIGNATURES vouch for the list: its worst verdict good, or
 * good by a key not certified. */
static gboolean
vouched_by (GPtrArray               *signatures,
            PadlockSignatureVerdict *worst,
            guint                   *index)
{
  return padlock_signatures_worst (signatures, worst, index)
         && (*worst == PADLOCK_SIGNATURE_GOOD
             || *worst == PADLOCK_SIGNATURE_NOT_CERTIFIED);
}

char *
padlock_checksums_describe (PadlockChecksums *self,
                            const char       *list_name,
                            GPtrArray        *signatures,
                            gboolean          isolate)
{
  Names names = isolate ? NAMES_ISOLATED : NAMES_ESCAPED;
  g_autofree char *list = shown (list_name, names);
  g_autofree char *sig = NULL;
  g_autofree char *files = NULL;
  PadlockSignatureVerdict worst;
  guint index;
  gboolean vouched = vouched_by (signatures, &worst, &index);

  if (!padlock_signatures_worst (signatures, &worst, &index))
    sig = g_strdup_printf (_("%s is not signed: nobody vouches for it"),
                           list);
  else
    {
      const PadlockSignature *s = signatures->pdata[index];
      g_autofree char *signer = s->signer ? shown (s->signer, names) : NULL;
      g_autofree char *words = NULL;

      if (worst == PADLOCK_SIGNATURE_GOOD && signer)
        /* Translators: a checksum list's name, then its signer. */
        sig = g_strdup_printf (_("%s: signed by %s"), list, signer);
      else
        {
          words = padlock_signature_describe (s, isolate);
          sig = g_strdup_printf ("%s: %s", list, words);
        }
    }
  files = files_words (self, list, vouched, names);
  /* Translators: a checksum list's signature, then its files. */
  return g_strdup_printf (_("%s · %s"), sig, files);
}

GError *
padlock_checksums_failure (PadlockChecksums *self,
                           const char       *list_name,
                           gboolean          vouched)
{
  PadlockChecksumsTotals t;
  const char *list = list_name;
  g_autofree char *words = NULL;

  padlock_checksums_get_totals (self, &t);
  if (t.n_differ == 0 && t.n_unreadable == 0 && t.n_ok > 0)
    return NULL;
  if (t.n_differ == 0 && t.n_unreadable == 0)
    return g_error_new (PADLOCK_ERROR, PADLOCK_ERROR_IO,
                        _("None of the files %s lists is in its folder: "
                          "nothing was checked."), list);
  words = files_words (self, list, vouched, NAMES_RAW);
  return g_error_new (PADLOCK_ERROR, t.n_differ ? PADLOCK_ERROR_INTEGRITY
                                                : PADLOCK_ERROR_IO,
                      "%s.", words);
}
