/* copy-limit.c - what the kernel allows for moving one file to another
 *
 * No cipher at all: only the ways a file can go from an input file to a
 * fresh output file, timed by wall clock and by the process's user and
 * system time (getrusage covers every thread).  Issue 15 asks whether
 * 1.5x a `cat` copy is reachable; this tells what the copies alone cost.
 *
 *   copy-limit [-n RUNS] [-s MiB] [DIR] [VARIANT...]
 *   copy-limit -c VARIANT < INPUT > OUTPUT
 *
 * Makes an input of random octets in DIR (default /dev/shm), then runs
 * the variants in turn RUNS times (default 5; round after round, so that
 * other work on the machine falls on all alike), each into a new output
 * file, checks the output against the input the first time, unlinks it
 * (outside the timing), and prints the medians of wall, user, sys and
 * user+sys of each variant.
 *
 * With -c, copies standard input (a regular file) to standard output once
 * by VARIANT (rw-1M, rw-4M, rw2-1M or rw2-4M) and prints nothing: a
 * process that bench/run times beside padlock's, in the same rounds and
 * through the same files (A B A B), as the limit of a file to file job.
 *
 * The variants (a name each):
 *   rw-1M rw-4M         read() then write(), one thread (what cat does)
 *   rw2-1M rw2-4M       a reader thread and a writer thread, 4 buffers
 *   pw2                 two threads, each preads and pwrites one half
 *   pw2-falloc          the same after fallocate of the whole output
 *   rw-falloc           rw-1M after fallocate
 *   mapout-read         read() straight into mapped output windows
 *                       (O_TMPFILE, ftruncate, MADV_POPULATE_WRITE,
 *                       linkat at the end): one copy
 *   mapout-read-nopop   the same without MADV_POPULATE_WRITE (faults)
 *   mapout-read2        mapout-read by two threads, one half each
 *   mapout-memcpy       read() into a buffer, memcpy into the mapping
 *   mapin-write         input mapped (MADV_SEQUENTIAL, POPULATE_READ per
 *                       window), write() from the mapping: one copy
 *   mapin-write2        the same by two threads, pwrite one half each
 *   mapin-write-falloc  mapin-write after fallocate (one thread, pwrite)
 *   mapin-write2-falloc mapin-write2 after fallocate
 *   mapin-pop-write     whole input MAP_POPULATE first, then write()
 *   mapin-mapout        both mapped, memcpy between, one thread
 *   mapin-mapout2       the same by two threads
 *   mapin-write-xform   mapin-write with a stand-in for the cipher: the
 *                       window is copied to a 1 MiB buffer by memcpy and
 *                       written from there (the cipher's output buffer)
 *   rw-xform            rw-1M with the same memcpy into a second buffer
 *   read-only           read() of the input into one 1 MiB buffer, no output
 *   mapin-only          the input's mapping populated, one load a page
 *   write-only          one 1 MiB buffer written again and again into a
 *                       new file: the writer's floor
 *   falloc-only         fallocate of the whole output alone (no data)
 *   mapin-write-allocthread  mapin-write while a second thread allocates
 *                       the output's pages ahead (fallocate KEEP_SIZE)
 *   cfr                 copy_file_range (reference: no user-space pass)
 *   kdf-rw2             a stand-in for a passphrase's key derivation (one
 *                       thread busy for KDF_MS, default 40 ms) and then
 *                       rw2-1M: a passphrase job's file to file floor
 *   kdf-falloc-rw2      the same while a second thread allocates the
 *                       output's pages (fallocate KEEP_SIZE, 8 MiB at a
 *                       time) until the derivation ends
 *   kdf-zero-rw2        the same with zeros written there (pwrite) instead
 */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <sys/stat.h>

#ifndef MADV_POPULATE_READ
#define MADV_POPULATE_READ 22
#endif
#ifndef MADV_POPULATE_WRITE
#define MADV_POPULATE_WRITE 23
#endif

#define MIB (1024 * 1024)
#define WINDOW (4 * MIB)        /* mapping windows: bounded RSS */

static const char *dir = "/dev/shm";
static size_t total;
static int in_fd;
static char in_path[4096], out_path[4096];

static void
die (const char *what)
{
  perror (what);
  exit (1);
}

static void
read_full_at (int fd, void *buf, size_t len, off_t off)
{
  while (len)
    {
      ssize_t n = pread (fd, buf, len, off);
      if (n <= 0)
        die ("pread");
      buf = (char *) buf + n;
      len -= n;
      off += n;
    }
}

static void
write_full_at (int fd, const void *buf, size_t len, off_t off)
{
  while (len)
    {
      ssize_t n = pwrite (fd, buf, len, off);
      if (n <= 0)
        die ("pwrite");
      buf = (const char *) buf + n;
      len -= n;
      off += n;
    }
}

static void
write_full (int fd, const void *buf, size_t len)
{
  while (len)
    {
      ssize_t n = write (fd, buf, len);
      if (n <= 0)
        die ("write");
      buf = (const char *) buf + n;
      len -= n;
    }
}

static int preset_out = -1;     /* an output opened already, once */
static double now (void);

static int
open_out (void)
{
  if (preset_out >= 0)
    {
      int fd = preset_out;
      preset_out = -1;
      return fd;
    }
  int fd = open (out_path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0600);
  if (fd < 0)
    die ("open output");
  return fd;
}

/* O_TMPFILE, sized, to be linked at the end (as the file sink does). */
static int
open_out_tmp (void)
{
  int fd = open (dir, O_TMPFILE | O_RDWR | O_CLOEXEC, 0600);
  if (fd < 0)
    die ("O_TMPFILE");
  if (ftruncate (fd, (off_t) total))
    die ("ftruncate");
  return fd;
}

static void
link_out (int fd)
{
  char proc[64];
  snprintf (proc, sizeof proc, "/proc/self/fd/%d", fd);
  if (linkat (AT_FDCWD, proc, AT_FDCWD, out_path, AT_SYMLINK_FOLLOW))
    die ("linkat");
}

/* ---- read and write -------------------------------------------------- */

static void
rw_copy (size_t bs, int falloc)
{
  int out = open_out ();
  uint8_t *buf = aligned_alloc (4096, bs);
  ssize_t n;

  if (falloc && fallocate (out, 0, 0, (off_t) total))
    die ("fallocate");
  lseek (in_fd, 0, SEEK_SET);
  while ((n = read (in_fd, buf, bs)) > 0)
    write_full (out, buf, n);
  if (n < 0)
    die ("read");
  free (buf);
  close (out);
}

static void v_rw_1m (void) { rw_copy (MIB, 0); }
static void v_rw_4m (void) { rw_copy (4 * MIB, 0); }
static void v_rw_falloc (void) { rw_copy (MIB, 1); }

static void
v_rw_xform (void)
{
  int out = open_out ();
  uint8_t *buf = aligned_alloc (4096, MIB), *buf2 = aligned_alloc (4096, MIB);
  ssize_t n;

  lseek (in_fd, 0, SEEK_SET);
  while ((n = read (in_fd, buf, MIB)) > 0)
    {
      memcpy (buf2, buf, n);
      write_full (out, buf2, n);
    }
  free (buf);
  free (buf2);
  close (out);
}

/* A reader thread and a writer (the caller) over a ring of 4 buffers. */
#define RING 4
typedef struct
{
  pthread_mutex_t mu;
  pthread_cond_t cv;
  uint8_t *buf[RING];
  size_t len[RING];
  int full[RING];
  size_t bs;
} ring;

static void *
ring_reader (void *arg)
{
  ring *r = arg;
  for (int i = 0;; i = (i + 1) % RING)
    {
      pthread_mutex_lock (&r->mu);
      while (r->full[i])
        pthread_cond_wait (&r->cv, &r->mu);
      pthread_mutex_unlock (&r->mu);
      ssize_t n = read (in_fd, r->buf[i], r->bs);
      if (n < 0)
        die ("read");
      pthread_mutex_lock (&r->mu);
      r->len[i] = n;
      r->full[i] = 1;
      pthread_cond_broadcast (&r->cv);
      pthread_mutex_unlock (&r->mu);
      if (!n)
        return NULL;
    }
}

static void
rw2_copy (size_t bs)
{
  ring r = { .bs = bs };
  pthread_t t;
  int out = open_out ();

  pthread_mutex_init (&r.mu, NULL);
  pthread_cond_init (&r.cv, NULL);
  for (int i = 0; i < RING; i++)
    r.buf[i] = aligned_alloc (4096, bs);
  lseek (in_fd, 0, SEEK_SET);
  pthread_create (&t, NULL, ring_reader, &r);
  for (int i = 0;; i = (i + 1) % RING)
    {
      pthread_mutex_lock (&r.mu);
      while (!r.full[i])
        pthread_cond_wait (&r.cv, &r.mu);
      size_t n = r.len[i];
      pthread_mutex_unlock (&r.mu);
      if (!n)
        break;
      write_full (out, r.buf[i], n);
      pthread_mutex_lock (&r.mu);
      r.full[i] = 0;
      pthread_cond_broadcast (&r.cv);
      pthread_mutex_unlock (&r.mu);
    }
  pthread_join (t, NULL);
  for (int i = 0; i < RING; i++)
    free (r.buf[i]);
  close (out);
}

static void v_rw2_1m (void) { rw2_copy (MIB); }
static void v_rw2_4m (void) { rw2_copy (4 * MIB); }

/* ---- two threads, one half each --------------------------------------- */

typedef struct
{
  int out;
  size_t off, len;
  uint8_t *map_in;              /* mapped input, or NULL */
  int mode;
} half;

enum { H_PREAD_PWRITE, H_READ_INTO_MAP, H_MAPIN_PWRITE, H_MAPIN_MAPOUT };

static void
map_out_window (int out, size_t off, size_t len, uint8_t **p)
{
  *p = mmap (NULL, len, PROT_READ | PROT_WRITE, MAP_SHARED, out, (off_t) off);
  if (*p == MAP_FAILED)
    die ("mmap output");
}

static const uint8_t *
map_in_window (size_t off, size_t len, uint8_t *map_in)
{
  const uint8_t *p = map_in + off;
  if (madvise ((void *) p, len, MADV_POPULATE_READ))
    die ("MADV_POPULATE_READ");
  return p;
}

static void
do_half (half *h, int populate)
{
  uint8_t *buf = NULL;

  if (h->mode == H_PREAD_PWRITE)
    buf = aligned_alloc (4096, MIB);
  for (size_t done = 0; done < h->len;)
    {
      size_t off = h->off + done;
      size_t n = h->len - done < WINDOW ? h->len - done : WINDOW;
      uint8_t *o;

      switch (h->mode)
        {
        case H_PREAD_PWRITE:
          n = n < MIB ? n : MIB;
          read_full_at (in_fd, buf, n, (off_t) off);
          write_full_at (h->out, buf, n, (off_t) off);
          break;
        case H_READ_INTO_MAP:
          map_out_window (h->out, off, n, &o);
          if (populate && madvise (o, n, MADV_POPULATE_WRITE))
            die ("MADV_POPULATE_WRITE");
          read_full_at (in_fd, o, n, (off_t) off);
          munmap (o, n);
          break;
        case H_MAPIN_PWRITE:
          n = n < MIB ? n : MIB;
          write_full_at (h->out, map_in_window (off, n, h->map_in), n,
                         (off_t) off);
          break;
        case H_MAPIN_MAPOUT:
          map_out_window (h->out, off, n, &o);
          if (madvise (o, n, MADV_POPULATE_WRITE))
            die ("MADV_POPULATE_WRITE");
          memcpy (o, map_in_window (off, n, h->map_in), n);
          munmap (o, n);
          break;
        }
      done += n;
    }
  free (buf);
}

static void *
half_thread (void *arg)
{
  do_half (arg, 1);
  return NULL;
}

static uint8_t *
map_input (int flags)
{
  uint8_t *p = mmap (NULL, total, PROT_READ, MAP_SHARED | flags, in_fd, 0);
  if (p == MAP_FAILED)
    die ("mmap input");
  madvise (p, total, MADV_SEQUENTIAL);
  return p;
}

/* MODE over the whole file, by THREADS threads (1 or 2). */
static void
halves (int mode, int threads, int tmp, int falloc, int populate)
{
  int out = tmp ? open_out_tmp () : open_out ();
  uint8_t *map_in = NULL;
  half h[2];
  pthread_t t;

  if (falloc && fallocate (out, 0, 0, (off_t) total))
    die ("fallocate");
  if (mode == H_MAPIN_PWRITE || mode == H_MAPIN_MAPOUT)
    map_in = map_input (0);
  size_t first = threads == 2 ? (total / 2) & ~(size_t) (WINDOW - 1) : total;
  h[0] = (half) { out, 0, first, map_in, mode };
  h[1] = (half) { out, first, total - first, map_in, mode };
  if (threads == 2)
    pthread_create (&t, NULL, half_thread, &h[1]);
  do_half (&h[0], populate);
  if (threads == 2)
    pthread_join (t, NULL);
  if (map_in)
    munmap (map_in, total);
  if (tmp)
    link_out (out);
  close (out);
}

static void v_pw2 (void) { halves (H_PREAD_PWRITE, 2, 0, 0, 1); }
static void v_pw2_falloc (void) { halves (H_PREAD_PWRITE, 2, 0, 1, 1); }
static void v_mapout_read (void) { halves (H_READ_INTO_MAP, 1, 1, 0, 1); }
static void v_mapout_read_nopop (void) { halves (H_READ_INTO_MAP, 1, 1, 0, 0); }
static void v_mapout_read2 (void) { halves (H_READ_INTO_MAP, 2, 1, 0, 1); }
static void v_mapin_mapout (void) { halves (H_MAPIN_MAPOUT, 1, 1, 0, 1); }
static void v_mapin_mapout2 (void) { halves (H_MAPIN_MAPOUT, 2, 1, 0, 1); }
static void v_mapin_write2 (void) { halves (H_MAPIN_PWRITE, 2, 0, 0, 1); }
static void v_mapin_write2_falloc (void) { halves (H_MAPIN_PWRITE, 2, 0, 1, 1); }
static void v_mapin_write_falloc (void) { halves (H_MAPIN_PWRITE, 1, 0, 1, 1); }

static void
v_mapout_memcpy (void)
{
  int out = open_out_tmp ();
  uint8_t *buf = aligned_alloc (4096, MIB);

  for (size_t off = 0; off < total; off += WINDOW)
    {
      size_t n = total - off < WINDOW ? total - off : WINDOW;
      uint8_t *o;
      map_out_window (out, off, n, &o);
      if (madvise (o, n, MADV_POPULATE_WRITE))
        die ("MADV_POPULATE_WRITE");
      for (size_t k = 0; k < n; k += MIB)
        {
          size_t m = n - k < MIB ? n - k : MIB;
          read_full_at (in_fd, buf, m, (off_t) (off + k));
          memcpy (o + k, buf, m);
        }
      munmap (o, n);
    }
  free (buf);
  link_out (out);
  close (out);
}

/* Input mapped, written from the mapping, one thread, 1 MiB a write. */
static void
mapin_write (int xform, int populate_all)
{
  int out = open_out ();
  uint8_t *in = map_input (populate_all ? MAP_POPULATE : 0);
  uint8_t *buf = xform ? aligned_alloc (4096, MIB) : NULL;

  for (size_t off = 0; off < total; off += MIB)
    {
      size_t n = total - off < MIB ? total - off : MIB;
      const uint8_t *p = populate_all ? in + off : map_in_window (off, n, in);
      if (xform)
        {
          memcpy (buf, p, n);
          p = buf;
        }
      write_full (out, p, n);
    }
  free (buf);
  munmap (in, total);
  close (out);
}

static void v_mapin_write (void) { mapin_write (0, 0); }
static void v_mapin_pop_write (void) { mapin_write (0, 1); }
static void v_mapin_write_xform (void) { mapin_write (1, 0); }

/* The parts of a copy alone: reading into one buffer (read() or the
 * mapping's page tables), and writing one buffer over and over into a
 * new file (the writer's floor). */
static void
v_read_only (void)
{
  uint8_t *buf = aligned_alloc (4096, MIB);
  ssize_t n;
  int out = open_out ();

  lseek (in_fd, 0, SEEK_SET);
  while ((n = read (in_fd, buf, MIB)) > 0)
    ;
  free (buf);
  close (out);
}

static void
v_mapin_only (void)
{
  uint8_t *in = map_input (0);
  volatile uint8_t sink = 0;
  int out = open_out ();

  for (size_t off = 0; off < total; off += MIB)
    {
      const uint8_t *p = map_in_window (off, MIB, in);
      for (size_t k = 0; k < MIB; k += 4096)
        sink ^= p[k];
    }
  munmap (in, total);
  close (out);
}

static void
v_write_only (void)
{
  uint8_t *buf = aligned_alloc (4096, MIB);
  int out = open_out ();

  read_full_at (in_fd, buf, MIB, 0);
  for (size_t off = 0; off < total; off += MIB)
    write_full (out, buf, MIB);
  free (buf);
  close (out);
}

/* fallocate alone: what allocating the output's pages costs. */
static void
v_falloc_only (void)
{
  int out = open_out ();
  if (fallocate (out, 0, 0, (off_t) total))
    die ("fallocate");
  close (out);
}

/* A second thread allocates the output's pages (fallocate KEEP_SIZE, 8 MiB
 * at a time) ahead of the writer, which writes from the mapped input. */
typedef struct
{
  int out;
  pthread_mutex_t mu;
  pthread_cond_t cv;
  size_t written, allocated;
} alloc_ahead;

static void *
alloc_thread (void *arg)
{
  alloc_ahead *a = arg;
  for (size_t off = 0; off < total; off += 8 * MIB)
    {
      pthread_mutex_lock (&a->mu);
      while (off > a->written + 16 * MIB)
        pthread_cond_wait (&a->cv, &a->mu);
      pthread_mutex_unlock (&a->mu);
      size_t n = total - off < 8 * MIB ? total - off : 8 * MIB;
      if (fallocate (a->out, FALLOC_FL_KEEP_SIZE, (off_t) off, (off_t) n))
        die ("fallocate");
    }
  return NULL;
}

static void
v_mapin_write_allocthread (void)
{
  alloc_ahead a = { .out = open_out () };
  uint8_t *in = map_input (0);
  pthread_t t;

  pthread_mutex_init (&a.mu, NULL);
  pthread_cond_init (&a.cv, NULL);
  pthread_create (&t, NULL, alloc_thread, &a);
  for (size_t off = 0; off < total; off += MIB)
    {
      size_t n = total - off < MIB ? total - off : MIB;
      write_full (a.out, map_in_window (off, n, in), n);
      pthread_mutex_lock (&a.mu);
      a.written = off + n;
      pthread_cond_signal (&a.cv);
      pthread_mutex_unlock (&a.mu);
    }
  pthread_join (t, NULL);
  munmap (in, total);
  close (a.out);
}

/* ---- a key derivation first ------------------------------------------ */

typedef struct
{
  int out;
  volatile int stop;
  size_t allocated;
  int zero;                     /* pwrite zeros instead of fallocate */
} kdf_alloc;

static void *
kdf_alloc_thread (void *arg)
{
  kdf_alloc *a = arg;
  while (!a->stop && a->allocated < total)
    {
      size_t n = total - a->allocated < 8 * MIB ? total - a->allocated
                                                 : 8 * MIB;
      static uint8_t zeros[8 * MIB];
      if (a->zero)
        write_full_at (a->out, zeros, n, (off_t) a->allocated);
      else if (fallocate (a->out, FALLOC_FL_KEEP_SIZE, (off_t) a->allocated,
                          (off_t) n))
        die ("fallocate");
      a->allocated += n;
    }
  return NULL;
}

static void
kdf_spin (void)
{
  const char *e = getenv ("KDF_MS");
  double ms = e ? atof (e) : 40, t0 = now ();
  volatile unsigned x = 0;
  while ((now () - t0) * 1000 < ms)
    for (int i = 0; i < 1000; i++)
      x += i;
}

static void
kdf_copy (int falloc)
{
  kdf_alloc a = { .out = open_out (), .zero = falloc == 2 };
  pthread_t t;
  if (falloc)
    pthread_create (&t, NULL, kdf_alloc_thread, &a);
  kdf_spin ();
  a.stop = 1;
  if (falloc)
    pthread_join (t, NULL);
  /* rw2_copy opens its own output: hand it this one. */
  preset_out = a.out;
  rw2_copy (MIB);
}

static void v_kdf_rw2 (void) { kdf_copy (0); }
static void v_kdf_falloc_rw2 (void) { kdf_copy (1); }
static void v_kdf_zero_rw2 (void) { kdf_copy (2); }

static void
v_cfr (void)
{
  int out = open_out ();
  loff_t a = 0, b = 0;
  while ((size_t) a < total)
    {
      ssize_t n = copy_file_range (in_fd, &a, out, &b, total - a, 0);
      if (n <= 0)
        die ("copy_file_range");
    }
  close (out);
}

/* ---- the driver -------------------------------------------------------- */

static const struct
{
  const char *name;
  void (*fn) (void);
} variants[] = {
  { "rw-1M", v_rw_1m },
  { "rw-4M", v_rw_4m },
  { "rw-falloc", v_rw_falloc },
  { "rw2-1M", v_rw2_1m },
  { "rw2-4M", v_rw2_4m },
  { "pw2", v_pw2 },
  { "pw2-falloc", v_pw2_falloc },
  { "mapout-read", v_mapout_read },
  { "mapout-read-nopop", v_mapout_read_nopop },
  { "mapout-read2", v_mapout_read2 },
  { "mapout-memcpy", v_mapout_memcpy },
  { "mapin-write", v_mapin_write },
  { "mapin-write2", v_mapin_write2 },
  { "mapin-write-falloc", v_mapin_write_falloc },
  { "mapin-write2-falloc", v_mapin_write2_falloc },
  { "mapin-pop-write", v_mapin_pop_write },
  { "mapin-mapout", v_mapin_mapout },
  { "mapin-mapout2", v_mapin_mapout2 },
  { "mapin-write-xform", v_mapin_write_xform },
  { "rw-xform", v_rw_xform },
  { "read-only", v_read_only },
  { "mapin-only", v_mapin_only },
  { "write-only", v_write_only },
  { "falloc-only", v_falloc_only },
  { "mapin-write-allocthread", v_mapin_write_allocthread },
  { "cfr", v_cfr },
  { "kdf-rw2", v_kdf_rw2 },
  { "kdf-falloc-rw2", v_kdf_falloc_rw2 },
  { "kdf-zero-rw2", v_kdf_zero_rw2 },
};

static double
now (void)
{
  struct timespec ts;
  clock_gettime (CLOCK_MONOTONIC, &ts);
  return ts.tv_sec + ts.tv_nsec / 1e9;
}

static double
tv (struct timeval t)
{
  return t.tv_sec + t.tv_usec / 1e6;
}

static int
cmp_double (const void *a, const void *b)
{
  double x = *(const double *) a, y = *(const double *) b;
  return (x > y) - (x < y);
}

static void
check_output (void)
{
  int fd = open (out_path, O_RDONLY);
  struct stat st;
  uint8_t *a = malloc (MIB), *b = malloc (MIB);

  if (fd < 0 || fstat (fd, &st) || (size_t) st.st_size != total)
    {
      fprintf (stderr, "output missing or wrong size\n");
      exit (1);
    }
  for (size_t off = 0; off < total; off += MIB)
    {
      read_full_at (in_fd, a, MIB, (off_t) off);
      read_full_at (fd, b, MIB, (off_t) off);
      if (memcmp (a, b, MIB))
        {
          fprintf (stderr, "output differs at %zu\n", off);
          exit (1);
        }
    }
  free (a);
  free (b);
  close (fd);
}

/* One timed run of variant V into *WALL, *USER, *SYS. */
static void
time_variant (int v, int check, double *wall, double *user, double *sys)
{
  struct rusage r0, r1;

  getrusage (RUSAGE_SELF, &r0);
  double t0 = now ();
  variants[v].fn ();
  *wall = now () - t0;
  getrusage (RUSAGE_SELF, &r1);
  *user = tv (r1.ru_utime) - tv (r0.ru_utime);
  *sys = tv (r1.ru_stime) - tv (r0.ru_stime);
  if (check && !strstr (variants[v].name, "-only"))
    check_output ();
  unlink (out_path);
}

static void
print_variant (int v, int runs, double *wall, double *user, double *sys)
{
  double cpu[64];

  for (int r = 0; r < runs; r++)
    cpu[r] = user[r] + sys[r];
  qsort (wall, runs, sizeof *wall, cmp_double);
  qsort (user, runs, sizeof *user, cmp_double);
  qsort (sys, runs, sizeof *sys, cmp_double);
  qsort (cpu, runs, sizeof *cpu, cmp_double);
  printf ("| %s | %.3f | %.3f | %.3f | %.3f | %.0f | %.2f-%.2f |\n",
          variants[v].name, wall[runs / 2], user[runs / 2], sys[runs / 2],
          cpu[runs / 2], total / wall[runs / 2] / 1e6, wall[0],
          wall[runs - 1]);
}

static void
make_input (void)
{
  uint8_t *buf = malloc (MIB);
  int fd;

  snprintf (in_path, sizeof in_path, "%s/copy-limit-in.%d", dir, getpid ());
  snprintf (out_path, sizeof out_path, "%s/copy-limit-out.%d", dir,
            getpid ());
  fd = open (in_path, O_RDWR | O_CREAT | O_EXCL | O_CLOEXEC, 0600);
  if (fd < 0)
    die ("open input");
  srandom (1);
  for (size_t off = 0; off < total; off += MIB)
    {
      for (size_t i = 0; i < MIB; i += sizeof (long))
        {
          long x = random ();
          memcpy (buf + i, &x, sizeof x);
        }
      write_full (fd, buf, MIB);
    }
  free (buf);
  fsync (fd);
  in_fd = fd;
}

/* -c VARIANT: standard input to standard output, once, by one of the
 * variants that read and write in order (the others need the input's
 * path or size). */
static int
copy_stdio (const char *name)
{
  static const char *const ok[] = { "rw-1M", "rw-4M", "rw2-1M", "rw2-4M" };
  struct stat st;

  for (size_t i = 0; i < sizeof ok / sizeof *ok; i++)
    if (!strcmp (name, ok[i]))
      for (size_t v = 0; v < sizeof variants / sizeof *variants; v++)
        if (!strcmp (name, variants[v].name))
          {
            if (fstat (STDIN_FILENO, &st) || !S_ISREG (st.st_mode))
              {
                fprintf (stderr, "copy-limit -c: standard input is not "
                         "a regular file\n");
                return 2;
              }
            in_fd = STDIN_FILENO;
            total = (size_t) st.st_size;
            preset_out = STDOUT_FILENO;
            variants[v].fn ();
            return 0;
          }
  fprintf (stderr, "copy-limit -c: VARIANT is one of rw-1M, rw-4M, rw2-1M, "
           "rw2-4M\n");
  return 2;
}

int
main (int argc, char **argv)
{
  int runs = 5, opt;
  size_t mib = 512;

  while ((opt = getopt (argc, argv, "c:n:s:")) != -1)
    switch (opt)
      {
      case 'c':
        return copy_stdio (optarg);
      case 'n':
        runs = atoi (optarg);
        break;
      case 's':
        mib = strtoul (optarg, NULL, 10);
        break;
      default:
        fprintf (stderr, "usage: copy-limit [-n RUNS] [-s MiB] [DIR] "
                 "[VARIANT...]\n       copy-limit -c VARIANT < IN > OUT\n");
        return 2;
      }
  if (runs < 1 || runs > 64)
    runs = 5;
  total = mib * MIB;
  if (optind < argc && argv[optind][0] == '/')
    dir = argv[optind++];
  make_input ();
  printf ("%zu MiB in %s, median of %d runs (every run a new output file)\n\n",
          mib, dir, runs);
  printf ("| variant | wall s | user s | sys s | user+sys s | MB/s | wall range |\n");
  printf ("| --- | ---: | ---: | ---: | ---: | ---: | --- |\n");
  /* The runs go round the variants, so that other work on the machine
   * falls on all of them alike. */
  enum { NV = sizeof variants / sizeof *variants };
  static double wall[NV][64], user[NV][64], sys[NV][64];
  int wanted[NV];
  for (int v = 0; v < NV; v++)
    {
      wanted[v] = optind >= argc;
      for (int a = optind; a < argc; a++)
        wanted[v] |= !strcmp (argv[a], variants[v].name);
    }
  for (int r = 0; r < runs; r++)
    for (int v = 0; v < NV; v++)
      if (wanted[v])
        time_variant (v, r == 0, &wall[v][r], &user[v][r], &sys[v][r]);
  for (int v = 0; v < NV; v++)
    if (wanted[v])
      print_variant (v, runs, wall[v], user[v], sys[v]);
  close (in_fd);
  unlink (in_path);
  return 0;
}
