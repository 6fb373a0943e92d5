/* buffers.c - a job's large work buffers, kept warm (buffers.h)
 *
 * The free list is one array of free buffers; a job takes and gives a
 * dozen, so a linear search under the lock costs nothing next to one
 * fault.  A buffer is "warm" when its pages are still mapped (given back
 * within PL_BUFFERS_KEEP) and "cold" when they are not (never touched:
 * the rest of a new slab; or given back to the kernel): takers prefer a
 * warm one.  Only warm buffers count against PL_BUFFERS_KEEP.
 */
#include "buffers.h"

#include <pthread.h>
#include <stdint.h>
#include <stdlib.h>
#include <sys/mman.h>

#include "algo.h"

#if defined(__SANITIZE_ADDRESS__)
#define PL_ASAN 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define PL_ASAN 1
#endif
#endif
#ifdef PL_ASAN
#include <sanitizer/asan_interface.h>
#define POISON(p, n) ASAN_POISON_MEMORY_REGION ((p), (n))
#define UNPOISON(p, n) ASAN_UNPOISON_MEMORY_REGION ((p), (n))
#else
#define POISON(p, n) ((void) (p), (void) (n))
#define UNPOISON(p, n) ((void) (p), (void) (n))
#endif

#if defined(__has_include)
#if __has_include(<valgrind/memcheck.h>)
#include <valgrind/memcheck.h>
#define PL_VALGRIND 1
#endif
#endif
#ifndef PL_VALGRIND
#define VALGRIND_MAKE_MEM_UNDEFINED(p, n) ((void) 0)
#define VALGRIND_MAKE_MEM_NOACCESS(p, n) ((void) 0)
#endif

#define SLAB ((size_t) 2 << 20)
#define MIN_CLASS ((size_t) 64 << 10)

typedef struct
{
  uint8_t *p;
  size_t cls;
  int warm;
} free_buf;

static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static free_buf *free_bufs;
static size_t n_free, cap_free;
static size_t warm_bytes;       /* the warm free buffers' classes */
static size_t in_use;

/* The class SIZE is served from: a power of two up to a slab, above it
 * a multiple of MIN_CLASS. */
static size_t
class_of (size_t size)
{
  size_t c = MIN_CLASS;

  if (size > SLAB)
    return (size + MIN_CLASS - 1) / MIN_CLASS * MIN_CLASS;
  while (c < size)
    c <<= 1;
  return c;
}

/* What a class above a slab maps: whole huge pages. */
static size_t
mapping_of (size_t cls)
{
  return (cls + SLAB - 1) / SLAB * SLAB;
}

/* LEN octets (a multiple of SLAB) aligned to SLAB, all poisoned, of
 * which the first USED are advised huge pages where they cover a whole
 * one (a tail of a few octets past the last stays in small pages, not
 * a 2 MiB page for them); NULL when the kernel has none. */
static uint8_t *
map_aligned (size_t len, size_t used)
{
  uint8_t *raw = mmap (NULL, len + SLAB, PROT_READ | PROT_WRITE,
                       MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  uint8_t *p;
  size_t head;

  if (raw == MAP_FAILED)
    return NULL;
  head = (SLAB - (uintptr_t) raw % SLAB) % SLAB;
  p = raw + head;
  if (head)
    munmap (raw, head);
  munmap (p + len, SLAB - head);
  /* Without THP (or with "never") the advice fails or does nothing;
   * the buffers work the same, in small pages. */
  if (used / SLAB)
    (void) madvise (p, used / SLAB * SLAB, MADV_HUGEPAGE);
  POISON (p, len);
  VALGRIND_MAKE_MEM_NOACCESS (p, len);
  return p;
}

/* Under LOCK: adds P of class CLS to the free list; 0 when the list
 * could not grow (the caller then unmaps P or leaks a slab piece). */
static int
push_free (uint8_t *p, size_t cls, int warm)
{
  if (n_free == cap_free)
    {
      size_t cap = cap_free ? 2 * cap_free : 64;
      free_buf *v = realloc (free_bufs, cap * sizeof *v);

      if (!v)
        return 0;
      free_bufs = v;
      cap_free = cap;
    }
  free_bufs[n_free++] = (free_buf) { p, cls, warm };
  if (warm)
    warm_bytes += cls;
  return 1;
}

/* Under LOCK: takes a free buffer of class CLS, warm if there is one. */
static uint8_t *
pop_free (size_t cls)
{
  size_t best = n_free;
  uint8_t *p;

  for (size_t i = n_free; i-- > 0;)
    if (free_bufs[i].cls == cls)
      {
        best = i;
        if (free_bufs[i].warm)
          break;
      }
  if (best == n_free)
    return NULL;
  p = free_bufs[best].p;
  if (free_bufs[best].warm)
    warm_bytes -= cls;
  free_bufs[best] = free_bufs[--n_free];
  return p;
}

/* A new buffer of class CLS: a mapping of its own above a slab, else
 * the first piece of a new slab whose other pieces go free (cold). */
static uint8_t *
map_new (size_t cls)
{
  uint8_t *p;

  if (cls > SLAB)
    return map_aligned (mapping_of (cls), cls);
  if (!(p = map_aligned (SLAB, SLAB)))
    return NULL;
  pthread_mutex_lock (&lock);
  for (size_t off = cls; off < SLAB; off += cls)
    push_free (p + off, cls, 0);
  pthread_mutex_unlock (&lock);
  return p;
}

void *
pl_buffer_take (size_t size)
{
  size_t cls = class_of (size ? size : 1);
  uint8_t *p;

  pthread_mutex_lock (&lock);
  p = pop_free (cls);
  pthread_mutex_unlock (&lock);
  if (!p && !(p = map_new (cls)))
    return NULL;
  pthread_mutex_lock (&lock);
  in_use++;
  pthread_mutex_unlock (&lock);
  UNPOISON (p, size);
  VALGRIND_MAKE_MEM_UNDEFINED (p, size);
  return p;
}

/* Unmaps P, a mapping of its own of class CLS.  Its shadow is cleared
 * first: ASan's would stay poisoned for whatever the kernel maps at
 * that address next (a file's mapping, mapsource.h). */
static void
unmap (uint8_t *p, size_t cls)
{
  UNPOISON (p, mapping_of (cls));
  munmap (p, mapping_of (cls));
}

/* Returns P's pages (class CLS) to the kernel: zeros when touched again. */
static void
cool (uint8_t *p, size_t cls)
{
  (void) madvise (p, cls, MADV_DONTNEED);
}

void
pl_buffer_give (void *buf, size_t size, size_t dirty)
{
  size_t cls = class_of (size ? size : 1);
  uint8_t *p = buf;
  int warm, kept;

  if (!p)
    return;
  pl_wipe (p, dirty < size ? dirty : size);
  POISON (p, cls);
  VALGRIND_MAKE_MEM_NOACCESS (p, cls);
  pthread_mutex_lock (&lock);
  in_use--;
  warm = warm_bytes + cls <= PL_BUFFERS_KEEP;
  kept = (warm || cls <= SLAB) && push_free (p, cls, warm);
  pthread_mutex_unlock (&lock);
  if (!kept && cls > SLAB)
    unmap (p, cls);
  else if (!warm)
    cool (p, cls);
}

size_t
pl_buffers_in_use (void)
{
  size_t n;

  pthread_mutex_lock (&lock);
  n = in_use;
  pthread_mutex_unlock (&lock);
  return n;
}

void
pl_buffers_trim (void)
{
  pthread_mutex_lock (&lock);
  for (size_t i = 0; i < n_free;)
    {
      free_buf *b = &free_bufs[i];

      if (b->warm && b->cls > SLAB)
        {
          unmap (b->p, b->cls);
          *b = free_bufs[--n_free];
          continue;
        }
      if (b->warm)
        cool (b->p, b->cls);
      b->warm = 0;
      i++;
    }
  warm_bytes = 0;
  pthread_mutex_unlock (&lock);
}
