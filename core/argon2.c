/* argon2.c - Argon2id, version 0x13 (RFC 9106); see argon2.h */
#include "argon2.h"
#include "argon2-simd.h"
#include "blake2b.h"
#include "algo.h"

#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

#define BLOCK_OCTETS 1024
#define SYNC_POINTS 4
#define ADDRESSES_IN_BLOCK PL_ARGON2_BLOCK_WORDS
#define ARGON2_VERSION 0x13
#define ARGON2_TYPE_ID 2
#define HUGE_PAGE (2u << 20)

typedef struct
{
  uint64_t v[PL_ARGON2_BLOCK_WORDS];
} block;

typedef void (*fill_fn) (uint64_t *next, const uint64_t *prev,
                         const uint64_t *ref, int with_xor);

static inline void
store32_le (uint8_t *p, uint32_t v)
{
  for (int i = 0; i < 4; i++)
    p[i] = (uint8_t) (v >> (8 * i));
}

static void
update32 (pl_blake2b_state *s, uint32_t v)
{
  uint8_t b[4];

  store32_le (b, v);
  pl_blake2b_update (s, b, 4);
}


/* ---- The compression G (RFC 9106 §3.5, §3.6) -------------------------- */

static inline uint64_t
blamka (uint64_t x, uint64_t y)
{
  return x + y + 2 * ((x & 0xffffffffu) * (y & 0xffffffffu));
}

#define GB(a, b, c, d)                          \
  do {                                          \
    a = blamka (a, b);                          \
    d = pl_rotr64 (d ^ a, 32);                  \
    c = blamka (c, d);                          \
    b = pl_rotr64 (b ^ c, 24);                  \
    a = blamka (a, b);                          \
    d = pl_rotr64 (d ^ a, 16);                  \
    c = blamka (c, d);                          \
    b = pl_rotr64 (b ^ c, 63);                  \
  } while (0)

#define P(v0, v1, v2, v3, v4, v5, v6, v7, v8, v9, v10, v11, v12, v13, v14, \
          v15)                                                          \
  do {                                                                  \
    GB (v0, v4, v8, v12);                                               \
    GB (v1, v5, v9, v13);                                               \
    GB (v2, v6, v10, v14);                                              \
    GB (v3, v7, v11, v15);                                              \
    GB (v0, v5, v10, v15);                                              \
    GB (v1, v6, v11, v12);                                              \
    GB (v2, v7, v8, v13);                                               \
    GB (v3, v4, v9, v14);                                               \
  } while (0)

static void
fill_scalar (uint64_t *next, const uint64_t *prev, const uint64_t *ref,
             int with_xor)
{
  uint64_t r[PL_ARGON2_BLOCK_WORDS], z[PL_ARGON2_BLOCK_WORDS];

  for (int i = 0; i < PL_ARGON2_BLOCK_WORDS; i++)
    {
      r[i] = prev[i] ^ ref[i];
      z[i] = with_xor ? r[i] ^ next[i] : r[i];
    }
  for (int i = 0; i < 8; i++)
    {
      uint64_t *v = r + 16 * i;
      P (v[0], v[1], v[2], v[3], v[4], v[5], v[6], v[7],
         v[8], v[9], v[10], v[11], v[12], v[13], v[14], v[15]);
    }
  for (int i = 0; i < 8; i++)
    {
      uint64_t *v = r + 2 * i;
      P (v[0], v[1], v[16], v[17], v[32], v[33], v[48], v[49],
         v[64], v[65], v[80], v[81], v[96], v[97], v[112], v[113]);
    }
  for (int i = 0; i < PL_ARGON2_BLOCK_WORDS; i++)
    next[i] = z[i] ^ r[i];
}


/* ---- Choosing the kernel --------------------------------------------- */

typedef struct
{
  const char *name;
  fill_fn fill;
} kernel;

/* Best first. */
static const kernel kernels[] = {
#ifdef PL_ARGON2_HAVE_X86_KERNELS
  { "avx512", pl_argon2_fill_avx512 },
  { "avx2", pl_argon2_fill_avx2 },
#endif
  { "scalar", fill_scalar },
};
#define N_KERNELS (sizeof kernels / sizeof kernels[0])

/* Set at first use (every thread computes the same answer, so the race
 * is harmless) or by pl_argon2_force_impl. */
static const kernel *active_kernel;

static int
kernel_supported (const kernel *k)
{
#ifdef PL_ARGON2_HAVE_X86_KERNELS
  /* __builtin_cpu_supports wants a literal; it also checks that the
   * system saves the registers (XCR0). */
  if (k->fill == pl_argon2_fill_avx512)
    return __builtin_cpu_supports ("avx512f");
  if (k->fill == pl_argon2_fill_avx2)
    return __builtin_cpu_supports ("avx2");
#endif
  return k->fill == fill_scalar;
}

/* The kernel called NAME if it is supported; NULL for the best one. */
static const kernel *
find_kernel (const char *name)
{
  for (size_t i = 0; i < N_KERNELS; i++)
    if ((!name || !strcmp (name, kernels[i].name))
        && kernel_supported (&kernels[i]))
      return &kernels[i];
  return NULL;
}

static const kernel *
current_kernel (void)
{
  const kernel *k = __atomic_load_n (&active_kernel, __ATOMIC_ACQUIRE);

  if (!k)
    {
      const char *want = getenv ("PADLOCK_ARGON2_SIMD");

      k = want ? find_kernel (want) : NULL;
      if (!k)
        k = find_kernel (NULL);
      __atomic_store_n (&active_kernel, k, __ATOMIC_RELEASE);
    }
  return k;
}

const char *
pl_argon2_impl_name (void)
{
  return current_kernel ()->name;
}

gpg_error_t
pl_argon2_force_impl (const char *name)
{
  const kernel *k = find_kernel (name);

  if (!k)
    return gpg_error (GPG_ERR_NOT_SUPPORTED);
  __atomic_store_n (&active_kernel, k, __ATOMIC_RELEASE);
  return 0;
}


/* ---- H' and H0 (RFC 9106 §3.2, §3.3) --------------------------------- */

/* H'^T (IN) of RFC 9106 §3.3: T = TAGLEN octets of variable-length
 * hash, BLAKE2b of T || IN and, past 64 octets, chained. */
static void
hash_long (uint8_t *out, size_t taglen, const void *in, size_t len)
{
  pl_blake2b_state s;
  uint8_t v[PL_BLAKE2B_OUT_MAX];        /* secret */

  pl_blake2b_init (&s, taglen <= PL_BLAKE2B_OUT_MAX ? taglen
                                                    : PL_BLAKE2B_OUT_MAX);
  update32 (&s, (uint32_t) taglen);
  pl_blake2b_update (&s, in, len);
  if (taglen <= PL_BLAKE2B_OUT_MAX)
    {
      pl_blake2b_final (&s, out);
      return;
    }
  /* r = ceil (T / 32) - 2 hashes of 64 octets, each giving its first
   * 32, then one of the T - 32r octets left. */
  pl_blake2b_final (&s, v);
  memcpy (out, v, 32);
  out += 32;
  taglen -= 32;
  while (taglen > PL_BLAKE2B_OUT_MAX)
    {
      pl_blake2b_hash (v, PL_BLAKE2B_OUT_MAX, v, PL_BLAKE2B_OUT_MAX);
      memcpy (out, v, 32);
      out += 32;
      taglen -= 32;
    }
  pl_blake2b_hash (v, taglen, v, PL_BLAKE2B_OUT_MAX);
  memcpy (out, v, taglen);
  pl_wipe (v, sizeof v);
}

static void
initial_hash (uint8_t h0[PL_BLAKE2B_OUT_MAX], const pl_argon2_params *pa,
              uint32_t taglen)
{
  pl_blake2b_state s;

  pl_blake2b_init (&s, PL_BLAKE2B_OUT_MAX);
  update32 (&s, pa->lanes);
  update32 (&s, taglen);
  update32 (&s, pa->memory_kib);
  update32 (&s, pa->passes);
  update32 (&s, ARGON2_VERSION);
  update32 (&s, ARGON2_TYPE_ID);
  update32 (&s, (uint32_t) pa->password_len);
  pl_blake2b_update (&s, pa->password, pa->password_len);
  update32 (&s, (uint32_t) pa->salt_len);
  pl_blake2b_update (&s, pa->salt, pa->salt_len);
  update32 (&s, (uint32_t) pa->secret_len);
  pl_blake2b_update (&s, pa->secret, pa->secret_len);
  update32 (&s, (uint32_t) pa->ad_len);
  pl_blake2b_update (&s, pa->ad, pa->ad_len);
  pl_blake2b_final (&s, h0);
}


/* ---- Filling the memory (RFC 9106 §3.4) ------------------------------ */

typedef struct
{
  block *memory;
  uint32_t passes;
  uint32_t lanes;
  uint32_t lane_blocks;         /* q */
  uint32_t segment_blocks;      /* q / 4 */
  uint32_t memory_blocks;       /* m' */
  fill_fn fill;
  const atomic_int *stop;       /* may be NULL */

  /* The threads' meeting at each slice boundary. */
  pthread_mutex_t lock;
  pthread_cond_t cond;
  int threads;                  /* final before any thread meets */
  int arrived;
  unsigned int generation;
  int halt;                     /* decided by the last to arrive */
  atomic_int skipped;           /* a thread left segments unfilled */
} instance;

typedef struct
{
  instance *in;
  int index;
} worker;

/* The block's index in its reference lane (§3.4.1.2's mapping of J1 onto
 * the blocks that may be referenced). */
static uint32_t
reference_index (const instance *in, uint32_t pass, uint32_t slice,
                 uint32_t index, uint32_t j1, int same_lane)
{
  uint32_t area, start = 0;
  uint64_t x;

  if (pass == 0)
    {
      if (slice == 0)
        area = index - 1;
      else if (same_lane)
        area = slice * in->segment_blocks + index - 1;
      else
        area = slice * in->segment_blocks - (index == 0);
    }
  else
    {
      if (same_lane)
        area = in->lane_blocks - in->segment_blocks + index - 1;
      else
        area = in->lane_blocks - in->segment_blocks - (index == 0);
      if (slice != SYNC_POINTS - 1)
        start = (slice + 1) * in->segment_blocks;
    }
  x = (uint64_t) j1 * j1 >> 32;
  x = area - 1 - ((uint64_t) area * x >> 32);
  return (uint32_t) ((start + x) % in->lane_blocks);
}

/* The next 128 pseudo-random words of Argon2i's addressing: G (0, G (0,
 * Z)) with Z's counter advanced. */
static void
next_addresses (fill_fn fill, block *addresses, block *input,
                const block *zero)
{
  input->v[6]++;
  fill (addresses->v, zero->v, input->v, 0);
  fill (addresses->v, zero->v, addresses->v, 0);
}

/* One segment being filled, a block at a time. */
typedef struct
{
  uint32_t pass, lane, slice;
  uint32_t index;               /* of the next block in the segment */
  int independent;              /* Argon2i addressing */
  uint64_t cur, prev;           /* the next block and the one before */
  const block *ref;             /* the next block's reference */
  block addresses, input;
} segment;

static const block zero_block;

/* Finds the reference block of SG's next block (§3.4.1) and asks the
 * cache for it: in data-dependent passes it is known only once the
 * block before it is filled, and it is anywhere in memory. */
static void
find_reference (const instance *in, segment *sg)
{
  uint64_t rand;
  uint32_t ref_lane;
  const uint8_t *p;

  if (sg->independent)
    {
      if (sg->index % ADDRESSES_IN_BLOCK == 0)
        next_addresses (in->fill, &sg->addresses, &sg->input, &zero_block);
      rand = sg->addresses.v[sg->index % ADDRESSES_IN_BLOCK];
    }
  else
    rand = in->memory[sg->prev].v[0];
  ref_lane = sg->pass == 0 && sg->slice == 0
             ? sg->lane : (uint32_t) ((rand >> 32) % in->lanes);
  sg->ref = in->memory + (uint64_t) ref_lane * in->lane_blocks
            + reference_index (in, sg->pass, sg->slice, sg->index,
                               (uint32_t) rand, ref_lane == sg->lane);
  p = (const uint8_t *) sg->ref;
  for (int line = 0; line < BLOCK_OCTETS; line += 64)
    __builtin_prefetch (p + line);
}

/* Starts SG on a segment; 0 when it has no block to fill (the first
 * segment of a lane with 8 blocks: its two are the first blocks). */
static int
segment_start (const instance *in, segment *sg, uint32_t pass, uint32_t lane,
               uint32_t slice)
{
  sg->pass = pass;
  sg->lane = lane;
  sg->slice = slice;
  /* Argon2id: data-independent addressing in the first half of the first
   * pass.  The address blocks derive from the parameters only. */
  sg->independent = pass == 0 && slice < SYNC_POINTS / 2;
  sg->index = pass == 0 && slice == 0 ? 2 : 0;
  if (sg->independent)
    {
      memset (&sg->input, 0, sizeof sg->input);
      sg->input.v[0] = pass;
      sg->input.v[1] = lane;
      sg->input.v[2] = slice;
      sg->input.v[3] = in->memory_blocks;
      sg->input.v[4] = in->passes;
      sg->input.v[5] = ARGON2_TYPE_ID;
      if (sg->index)
        next_addresses (in->fill, &sg->addresses, &sg->input, &zero_block);
    }
  sg->cur = (uint64_t) lane * in->lane_blocks
            + (uint64_t) slice * in->segment_blocks + sg->index;
  sg->prev = sg->cur % in->lane_blocks ? sg->cur - 1
                                       : sg->cur + in->lane_blocks - 1;
  if (sg->index >= in->segment_blocks)
    return 0;
  find_reference (in, sg);
  return 1;
}

/* Fills SG's next block; 0 once the segment is full. */
static int
segment_step (const instance *in, segment *sg)
{
  in->fill (in->memory[sg->cur].v, in->memory[sg->prev].v, sg->ref->v,
            sg->pass != 0);
  sg->prev = sg->cur++;
  if (++sg->index == in->segment_blocks)
    return 0;
  find_reference (in, sg);
  return 1;
}

/* Fills this slice's segments of the lanes FIRST, FIRST + STEP, ...,
 * two at a time, a block of each in turn: the reference one segment's
 * next block needs comes from memory while the other's block is filled.
 * Stops before a pair once *STOP is set. */
static void
fill_lanes (instance *in, uint32_t pass, uint32_t slice,
            uint32_t first, uint32_t step)
{
  for (uint32_t lane = first; lane < in->lanes; lane += 2 * step)
    {
      segment a, b;
      int more_a, more_b;

      if (in->stop && atomic_load (in->stop))
        {
          /* The memory is incomplete from here: meet stops everyone,
           * even if *STOP went back to 0. */
          atomic_store (&in->skipped, 1);
          return;
        }
      more_a = segment_start (in, &a, pass, lane, slice);
      if (lane + step < in->lanes)
        {
          more_b = segment_start (in, &b, pass, lane + step, slice);
          while (more_a && more_b)
            {
              more_a = segment_step (in, &a);
              more_b = segment_step (in, &b);
            }
          while (more_b)
            more_b = segment_step (in, &b);
        }
      while (more_a)
        more_a = segment_step (in, &a);
    }
}

/* Every thread calls this at the end of each slice; the last to come
 * decides for all whether to go on, so they all leave together. */
static int
meet (instance *in)
{
  int halt;

  pthread_mutex_lock (&in->lock);
  if (++in->arrived == in->threads)
    {
      in->arrived = 0;
      in->generation++;
      if ((in->stop && atomic_load (in->stop)) || atomic_load (&in->skipped))
        in->halt = 1;
      pthread_cond_broadcast (&in->cond);
    }
  else
    {
      unsigned int gen = in->generation;

      while (gen == in->generation)
        pthread_cond_wait (&in->cond, &in->lock);
    }
  halt = in->halt;
  pthread_mutex_unlock (&in->lock);
  return halt;
}

/* Overwrites the stack below the caller's frame, where the kernels'
 * spilled registers (secret: blocks of the memory) were. */
static __attribute__ ((noinline)) void
scrub_stack (void)
{
  uint8_t area[16384];

  pl_wipe (area, sizeof area);
  __asm__ volatile ("" : : "r" (area) : "memory");
}

static void *
work (void *arg)
{
  worker *w = arg;
  instance *in = w->in;
  int threads;

  /* THREADS is final once the lock can be had (fill_memory holds it
   * while it starts the threads). */
  pthread_mutex_lock (&in->lock);
  threads = in->threads;
  pthread_mutex_unlock (&in->lock);

  for (uint32_t pass = 0; pass < in->passes; pass++)
    for (uint32_t slice = 0; slice < SYNC_POINTS; slice++)
      {
        fill_lanes (in, pass, slice, (uint32_t) w->index,
                    (uint32_t) threads);
        if (meet (in))
          goto leave;
      }
 leave:
  scrub_stack ();
  return NULL;
}

/* Runs the passes on the caller's thread and up to THREADS - 1 others.
 * Returns 1 when stopped. */
static int
fill_memory (instance *in, int threads)
{
  enum { MAX_HELPERS = 63 };
  pthread_t helper[MAX_HELPERS];
  worker w[MAX_HELPERS + 1];
  int started = 0;

  if (threads < 1)
    threads = 1;
  if ((uint32_t) threads > in->lanes)
    threads = (int) in->lanes;
  if (threads > MAX_HELPERS + 1)
    threads = MAX_HELPERS + 1;

  pthread_mutex_lock (&in->lock);
  for (int i = 0; i < threads; i++)
    {
      w[i].in = in;
      w[i].index = i;
    }
  for (int i = 1; i < threads; i++)
    {
      /* A thread that cannot be had leaves its lanes to the others. */
      if (pthread_create (&helper[started], NULL, work, &w[i]))
        break;
      started++;
    }
  in->threads = 1 + started;
  pthread_mutex_unlock (&in->lock);

  work (&w[0]);
  for (int i = 0; i < started; i++)
    pthread_join (helper[i], NULL);
  return in->halt;
}


/* ---- The memory ------------------------------------------------------ */

/* LEN octets aligned to a huge page and asked to be backed by them: a
 * 4 KiB page fault costs this VM kind 5-15 us, one for each 4 KiB filled
 * (bench/README.md). */
static void *
map_memory (size_t len)
{
  size_t span = len + HUGE_PAGE;
  uint8_t *p, *aligned;
  size_t head, tail;

  if (span < len)
    return NULL;
  p = mmap (NULL, span, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS,
            -1, 0);
  if (p == MAP_FAILED)
    return NULL;
  aligned = (uint8_t *) (((uintptr_t) p + HUGE_PAGE - 1)
                         & ~(uintptr_t) (HUGE_PAGE - 1));
  head = (size_t) (aligned - p);
  tail = span - head - len;
  if (head)
    munmap (p, head);
  if (tail)
    munmap (aligned + len, tail);
#ifdef MADV_HUGEPAGE
  /* Only advice: small pages work as well, more slowly. */
  madvise (aligned, len, MADV_HUGEPAGE);
#endif
  return aligned;
}


/* ---- Argon2id ---------------------------------------------------------- */

static gpg_error_t
check_params (const pl_argon2_params *pa, size_t taglen)
{
  if (!pa->passes || !pa->lanes || pa->lanes > 0xffffffu
      || (uint64_t) pa->memory_kib < 8ull * pa->lanes
      || taglen < 4 || taglen > 0xffffffffu
      || pa->password_len > 0xffffffffu || pa->salt_len > 0xffffffffu
      || pa->secret_len > 0xffffffffu || pa->ad_len > 0xffffffffu
      || (pa->password_len && !pa->password) || (pa->salt_len && !pa->salt)
      || (pa->secret_len && !pa->secret) || (pa->ad_len && !pa->ad))
    return gpg_error (GPG_ERR_INV_VALUE);
  return 0;
}

/* B[i][0] and B[i][1] of every lane: H'^1024 (H0 || j || i). */
static void
first_blocks (instance *in, const uint8_t h0[PL_BLAKE2B_OUT_MAX])
{
  uint8_t seed[PL_BLAKE2B_OUT_MAX + 8];         /* secret */
  uint8_t bytes[BLOCK_OCTETS];                  /* secret */

  memcpy (seed, h0, PL_BLAKE2B_OUT_MAX);
  for (uint32_t lane = 0; lane < in->lanes; lane++)
    for (uint32_t j = 0; j < 2; j++)
      {
        block *b = in->memory + (uint64_t) lane * in->lane_blocks + j;

        store32_le (seed + PL_BLAKE2B_OUT_MAX, j);
        store32_le (seed + PL_BLAKE2B_OUT_MAX + 4, lane);
        hash_long (bytes, BLOCK_OCTETS, seed, sizeof seed);
        for (int k = 0; k < PL_ARGON2_BLOCK_WORDS; k++)
          b->v[k] = pl_load64_le (bytes + 8 * k);
      }
  pl_wipe (seed, sizeof seed);
  pl_wipe (bytes, sizeof bytes);
}

/* The tag: H' of the XOR of every lane's last block. */
static void
final_tag (const instance *in, uint8_t *tag, size_t taglen)
{
  block c;                                      /* secret */
  uint8_t bytes[BLOCK_OCTETS];                  /* secret */

  c = in->memory[in->lane_blocks - 1];
  for (uint32_t lane = 1; lane < in->lanes; lane++)
    {
      const block *last = in->memory + (uint64_t) lane * in->lane_blocks
                          + in->lane_blocks - 1;
      for (int k = 0; k < PL_ARGON2_BLOCK_WORDS; k++)
        c.v[k] ^= last->v[k];
    }
  for (int k = 0; k < PL_ARGON2_BLOCK_WORDS; k++)
    pl_store64_le (bytes + 8 * k, c.v[k]);
  hash_long (tag, taglen, bytes, sizeof bytes);
  pl_wipe (&c, sizeof c);
  pl_wipe (bytes, sizeof bytes);
}

gpg_error_t
pl_argon2id (const pl_argon2_params *pa, uint8_t *tag, size_t taglen,
             int threads, const atomic_int *stop)
{
  uint8_t h0[PL_BLAKE2B_OUT_MAX];               /* secret */
  instance in;
  size_t len;
  gpg_error_t err = 0;

  err = check_params (pa, taglen);
  if (err)
    return err;
  if (stop && atomic_load (stop))
    return gpg_error (GPG_ERR_CANCELED);

  memset (&in, 0, sizeof in);
  in.passes = pa->passes;
  in.lanes = pa->lanes;
  in.segment_blocks = pa->memory_kib / (SYNC_POINTS * pa->lanes);
  in.lane_blocks = in.segment_blocks * SYNC_POINTS;
  in.memory_blocks = in.lane_blocks * pa->lanes;
  in.fill = current_kernel ()->fill;
  in.stop = stop;
  len = (size_t) in.memory_blocks * BLOCK_OCTETS;
  if (len / BLOCK_OCTETS != in.memory_blocks)
    return gpg_error (GPG_ERR_ENOMEM);
  in.memory = map_memory (len);
  if (!in.memory)
    return gpg_error (GPG_ERR_ENOMEM);
  pthread_mutex_init (&in.lock, NULL);
  pthread_cond_init (&in.cond, NULL);

  initial_hash (h0, pa, (uint32_t) taglen);
  first_blocks (&in, h0);
  pl_wipe (h0, sizeof h0);
  if (fill_memory (&in, threads))
    err = gpg_error (GPG_ERR_CANCELED);
  else
    final_tag (&in, tag, taglen);

  munmap (in.memory, len);
  pthread_cond_destroy (&in.cond);
  pthread_mutex_destroy (&in.lock);
  return err;
}
