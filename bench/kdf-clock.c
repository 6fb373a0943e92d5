/* kdf-clock.c - how long a process spends deriving keys (LD_PRELOAD)
 *
 * Wraps libgcrypt's KDF entry points (gcry_kdf_derive for the iterated
 * S2K and its calibration, gcry_kdf_open / _compute / _final for Argon2)
 * and the life of every secure hash context (core/s2k.c hashes the simple,
 * salted and iterated S2K by hand in such a context, so that a cancel can
 * stop it; nothing else on an empty message's path opens one), and the
 * life of Argon2's memory (core/argon2.c, no libgcrypt call since the
 * argon2 branch: from its anonymous mapping to its unmapping), adds up
 * the wall time spent inside them, and at exit appends one line,
 * "<milliseconds>", to the file named by $KDF_CLOCK_OUT.  bench/run takes
 * it off an empty message's wall time: what remains is start-up, framing
 * and shut-down, the fixed cost beyond key derivation.
 *
 *   cc -shared -fPIC -O2 kdf-clock.c -o kdf-clock.so -ldl
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <pthread.h>
#include <stdio.h>
#include <stdint.h>
#include <stdlib.h>
#include <time.h>
#include <sys/mman.h>
#include <gcrypt.h>

static double spent;            /* seconds inside the KDF calls */
static __thread int in_gcry_kdf; /* libgcrypt's Argon2 maps its own memory */

static double
now (void)
{
  struct timespec ts;
  clock_gettime (CLOCK_MONOTONIC, &ts);
  return ts.tv_sec + ts.tv_nsec / 1e9;
}

#define NEXT(name) \
  static __typeof__ (name) *next; \
  if (!next) \
    next = (__typeof__ (name) *) dlsym (RTLD_NEXT, #name)

gpg_error_t
gcry_kdf_derive (const void *pw, size_t pwlen, int algo, int subalgo,
                 const void *salt, size_t saltlen, unsigned long iterations,
                 size_t keysize, void *keybuffer)
{
  NEXT (gcry_kdf_derive);
  double t = now ();
  in_gcry_kdf++;
  gpg_error_t err = next (pw, pwlen, algo, subalgo, salt, saltlen,
                          iterations, keysize, keybuffer);
  in_gcry_kdf--;
  spent += now () - t;
  return err;
}

gcry_error_t
gcry_kdf_open (gcry_kdf_hd_t *hd, int algo, int subalgo,
               const unsigned long *param, unsigned int paramlen,
               const void *pass, size_t passlen, const void *salt,
               size_t saltlen, const void *key, size_t keylen,
               const void *ad, size_t adlen)
{
  NEXT (gcry_kdf_open);
  double t = now ();
  in_gcry_kdf++;
  gcry_error_t err = next (hd, algo, subalgo, param, paramlen, pass, passlen,
                           salt, saltlen, key, keylen, ad, adlen);
  in_gcry_kdf--;
  spent += now () - t;
  return err;
}

gcry_error_t
gcry_kdf_compute (gcry_kdf_hd_t h, const struct gcry_kdf_thread_ops *ops)
{
  NEXT (gcry_kdf_compute);
  double t = now ();
  in_gcry_kdf++;
  gcry_error_t err = next (h, ops);
  in_gcry_kdf--;
  spent += now () - t;
  return err;
}

gcry_error_t
gcry_kdf_final (gcry_kdf_hd_t h, size_t resultlen, void *result)
{
  NEXT (gcry_kdf_final);
  double t = now ();
  in_gcry_kdf++;
  gcry_error_t err = next (h, resultlen, result);
  in_gcry_kdf--;
  spent += now () - t;
  return err;
}

void
gcry_kdf_close (gcry_kdf_hd_t h)
{
  NEXT (gcry_kdf_close);
  double t = now ();
  in_gcry_kdf++;
  next (h);
  in_gcry_kdf--;
  spent += now () - t;
}

__attribute__ ((destructor)) static void
report (void)
{
  const char *path = getenv ("KDF_CLOCK_OUT");
  FILE *f = path ? fopen (path, "a") : NULL;

  if (f)
    {
      fprintf (f, "%.3f\n", spent * 1000);
      fclose (f);
    }
}

/* Secure hash contexts open now, with the time each was opened. */
enum { MAX_OPEN = 64 };
static struct { gcry_md_hd_t hd; double t; } open_md[MAX_OPEN];
static pthread_mutex_t open_md_lock = PTHREAD_MUTEX_INITIALIZER;

gcry_error_t
gcry_md_open (gcry_md_hd_t *hd, int algo, unsigned int flags)
{
  NEXT (gcry_md_open);
  double t = now ();
  gcry_error_t err = next (hd, algo, flags);
  if (!err && (flags & GCRY_MD_FLAG_SECURE))
    {
      pthread_mutex_lock (&open_md_lock);
      for (int i = 0; i < MAX_OPEN; i++)
        if (!open_md[i].hd)
          {
            open_md[i].hd = *hd;
            open_md[i].t = t;
            break;
          }
      pthread_mutex_unlock (&open_md_lock);
    }
  return err;
}

void
gcry_md_close (gcry_md_hd_t hd)
{
  NEXT (gcry_md_close);
  pthread_mutex_lock (&open_md_lock);
  for (int i = 0; hd && i < MAX_OPEN; i++)
    if (open_md[i].hd == hd)
      {
        spent += now () - open_md[i].t;
        open_md[i].hd = NULL;
        break;
      }
  pthread_mutex_unlock (&open_md_lock);
  next (hd);
}

/* Argon2's memory: an anonymous mapping of at least ARENA_MIN (rfc9580's
 * is 64 MiB and 2 MiB of alignment slack) until the unmapping of most of
 * it, which comes once the tag is out.  The job buffers (core/buffers.c)
 * map anonymous memory too, but less on an empty message, and keep it;
 * libgcrypt's Argon2 (older builds) maps its own inside the gcry_kdf
 * calls, timed above already. */
#define ARENA_MIN (16u << 20)
enum { MAX_ARENAS = 8 };
static struct { uintptr_t from, to; double t; } arenas[MAX_ARENAS];
static pthread_mutex_t arenas_lock = PTHREAD_MUTEX_INITIALIZER;

void *
mmap64 (void *addr, size_t len, int prot, int flags, int fd, off_t off)
{
  NEXT (mmap64);
  double t = now ();
  void *p = next (addr, len, prot, flags, fd, off);

  if (p != MAP_FAILED && (flags & MAP_ANONYMOUS) && len >= ARENA_MIN
      && !in_gcry_kdf)
    {
      pthread_mutex_lock (&arenas_lock);
      for (int i = 0; i < MAX_ARENAS; i++)
        if (!arenas[i].to)
          {
            arenas[i].from = (uintptr_t) p;
            arenas[i].to = (uintptr_t) p + len;
            arenas[i].t = t;
            break;
          }
      pthread_mutex_unlock (&arenas_lock);
    }
  return p;
}

void *
mmap (void *addr, size_t len, int prot, int flags, int fd, off_t off)
{
  return mmap64 (addr, len, prot, flags, fd, off);
}

int
munmap (void *addr, size_t len)
{
  NEXT (munmap);
  uintptr_t a = (uintptr_t) addr;
  int r = next (addr, len);

  /* The trimming of the slack (at most 2 MiB each end) does not end it. */
  if (len >= ARENA_MIN - (4u << 20))
    {
      pthread_mutex_lock (&arenas_lock);
      for (int i = 0; i < MAX_ARENAS; i++)
        if (arenas[i].to && a >= arenas[i].from && a < arenas[i].to)
          {
            spent += now () - arenas[i].t;
            arenas[i].to = 0;
            break;
          }
      pthread_mutex_unlock (&arenas_lock);
    }
  return r;
}
