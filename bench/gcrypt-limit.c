/* gcrypt-limit.c - single-thread, in-memory throughput of the libgcrypt
 * primitives that OpenPGP passphrase encryption is made of.
 *
 * Build:  cc -O2 -o gcrypt-limit gcrypt-limit.c $(libgcrypt-config --libs)
 * Output: one "name MB/s" line per primitive (MB = 10^6 bytes), e.g.
 *         aes256-cfb-enc 812.3
 *
 * Method: a 64 MiB source buffer and a separate 64 MiB destination buffer
 * (out of place, so the numbers include reading and writing memory, as a
 * real stream does).  Each primitive is run once to warm up, then timed in
 * 3 passes; a pass repeats the whole buffer until at least 0.2 s have gone
 * by, and the best pass is reported.  The AEAD modes process the buffer in
 * 4 MiB chunks, each with its own nonce, associated data and tag
 * (gettag when sealing, checktag when opening), as OpenPGP's chunked AEAD
 * does.  CFB is one continuous stream, as in SEIPD v1.
 */
#include <gcrypt.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define BUF_SIZE  ((size_t) 64 << 20)
#define CHUNK     ((size_t) 4 << 20)
#define NCHUNKS   (BUF_SIZE / CHUNK)
#define MIN_PASS  0.2
#define PASSES    3

static unsigned char *src, *dst, *ct;
static unsigned char tags[NCHUNKS][16];
static unsigned char key[32];
static volatile unsigned char sink;

static double
now (void)
{
  struct timespec ts;
  clock_gettime (CLOCK_MONOTONIC, &ts);
  return ts.tv_sec + ts.tv_nsec / 1e9;
}

static void
die (const char *what, gcry_error_t err)
{
  fprintf (stderr, "gcrypt-limit: %s: %s\n", what, gcry_strerror (err));
  exit (1);
}

#define CHECK(what, expr)                        \
  do {                                           \
    gcry_error_t e_ = (expr);                    \
    if (e_)                                      \
      die (what, e_);                            \
  } while (0)

/* One operation = process BUF_SIZE bytes once. */
typedef void (*op_fn) (void);

static gcry_cipher_hd_t hd_cfb, hd_ocb, hd_eax, hd_gcm;

static void
op_memcpy (void)
{
  memcpy (dst, src, BUF_SIZE);
  sink ^= dst[BUF_SIZE / 2];
}

static void
op_cfb_enc (void)
{
  unsigned char iv[16] = { 0 };
  CHECK ("cfb setiv", gcry_cipher_setiv (hd_cfb, iv, 16));
  for (size_t off = 0; off < BUF_SIZE; off += CHUNK)
    CHECK ("cfb encrypt",
           gcry_cipher_encrypt (hd_cfb, dst + off, CHUNK, src + off, CHUNK));
}

static void
op_cfb_dec (void)
{
  unsigned char iv[16] = { 0 };
  CHECK ("cfb setiv", gcry_cipher_setiv (hd_cfb, iv, 16));
  for (size_t off = 0; off < BUF_SIZE; off += CHUNK)
    CHECK ("cfb decrypt",
           gcry_cipher_decrypt (hd_cfb, dst + off, CHUNK, src + off, CHUNK));
}

/* Chunked AEAD: nonce = base IV with the chunk index folded into its tail,
 * AD = a 13-byte header (5 bytes of packet header + be64 index), as in
 * LibrePGP/RFC 9580. */
static void
aead_chunk (gcry_cipher_hd_t hd, size_t ivlen, size_t i, int encrypt,
            unsigned char *out, const unsigned char *in)
{
  unsigned char iv[16] = { 0x5a, 0x17, 0x33, 0x01, 0x99, 0x42, 0x07, 0x08,
                           0x09, 0x0a, 0x0b, 0x0c, 0x0d, 0x0e, 0x0f, 0x10 };
  unsigned char ad[13] = { 0xd4, 0x01, 0x09, 0x02, 0x16 };
  for (int b = 0; b < 8; b++)
    {
      iv[ivlen - 1 - b] ^= (unsigned char) ((uint64_t) i >> (8 * b));
      ad[12 - b] = (unsigned char) ((uint64_t) i >> (8 * b));
    }
  CHECK ("setiv", gcry_cipher_setiv (hd, iv, ivlen));
  CHECK ("authenticate", gcry_cipher_authenticate (hd, ad, sizeof ad));
  CHECK ("final", gcry_cipher_final (hd));
  if (encrypt)
    {
      CHECK ("encrypt", gcry_cipher_encrypt (hd, out, CHUNK, in, CHUNK));
      CHECK ("gettag", gcry_cipher_gettag (hd, tags[i], 16));
    }
  else
    {
      CHECK ("decrypt", gcry_cipher_decrypt (hd, out, CHUNK, in, CHUNK));
      CHECK ("checktag", gcry_cipher_checktag (hd, tags[i], 16));
    }
}

static void
aead_all (gcry_cipher_hd_t hd, size_t ivlen, int encrypt)
{
  /* Sealing reads src and writes ct; opening reads ct and writes dst. */
  for (size_t i = 0; i < NCHUNKS; i++)
    {
      size_t off = i * CHUNK;
      if (encrypt)
        aead_chunk (hd, ivlen, i, 1, ct + off, src + off);
      else
        aead_chunk (hd, ivlen, i, 0, dst + off, ct + off);
    }
}

static void op_ocb_enc (void) { aead_all (hd_ocb, 15, 1); }
static void op_ocb_dec (void) { aead_all (hd_ocb, 15, 0); }
static void op_eax_enc (void) { aead_all (hd_eax, 16, 1); }
static void op_gcm_enc (void) { aead_all (hd_gcm, 12, 1); }

static void
op_md (int algo)
{
  gcry_md_hd_t md;
  CHECK ("md_open", gcry_md_open (&md, algo, 0));
  gcry_md_write (md, src, BUF_SIZE);
  sink ^= gcry_md_read (md, algo)[0];
  gcry_md_close (md);
}

static void op_sha1 (void) { op_md (GCRY_MD_SHA1); }
static void op_sha256 (void) { op_md (GCRY_MD_SHA256); }

static double
measure (op_fn op)
{
  double best = 0;
  op (); /* warm-up */
  for (int p = 0; p < PASSES; p++)
    {
      size_t n = 0;
      double t0 = now (), t;
      do
        {
          op ();
          n++;
          t = now () - t0;
        }
      while (t < MIN_PASS);
      double rate = (double) n * BUF_SIZE / t / 1e6;
      if (rate > best)
        best = rate;
    }
  return best;
}

static gcry_cipher_hd_t
open_cipher (int mode)
{
  gcry_cipher_hd_t hd;
  CHECK ("cipher_open", gcry_cipher_open (&hd, GCRY_CIPHER_AES256, mode, 0));
  CHECK ("setkey", gcry_cipher_setkey (hd, key, sizeof key));
  return hd;
}

int
main (void)
{
  if (!gcry_check_version ("1.8.0"))
    {
      fprintf (stderr, "gcrypt-limit: libgcrypt too old\n");
      return 1;
    }
  gcry_control (GCRYCTL_DISABLE_SECMEM_WARN);
  gcry_control (GCRYCTL_INITIALIZATION_FINISHED, 0);

  src = malloc (BUF_SIZE);
  dst = malloc (BUF_SIZE);
  ct = malloc (BUF_SIZE);
  if (!src || !dst || !ct)
    {
      fprintf (stderr, "gcrypt-limit: out of memory\n");
      return 1;
    }
  gcry_randomize (key, sizeof key, GCRY_STRONG_RANDOM);
  gcry_create_nonce (src, BUF_SIZE);
  memset (dst, 0, BUF_SIZE);
  memset (ct, 0, BUF_SIZE);

  hd_cfb = open_cipher (GCRY_CIPHER_MODE_CFB);
  hd_ocb = open_cipher (GCRY_CIPHER_MODE_OCB);
  hd_eax = open_cipher (GCRY_CIPHER_MODE_EAX);
  hd_gcm = open_cipher (GCRY_CIPHER_MODE_GCM);

  static const struct { const char *name; op_fn op; } ops[] = {
    { "aes256-cfb-enc", op_cfb_enc },
    { "aes256-cfb-dec", op_cfb_dec },
    { "aes256-ocb-enc", op_ocb_enc },
    { "aes256-ocb-dec", op_ocb_dec }, /* needs the tags from ocb-enc */
    { "aes256-eax-enc", op_eax_enc },
    { "aes256-gcm-enc", op_gcm_enc },
    { "sha1", op_sha1 },
    { "sha256", op_sha256 },
    { "memcpy", op_memcpy },
  };
  for (size_t i = 0; i < sizeof ops / sizeof ops[0]; i++)
    {
      /* ocb-dec checks tags of the ciphertext in ct: recreate it so that
         the order of the table above does not matter. */
      if (ops[i].op == op_ocb_dec)
        op_ocb_enc ();
      printf ("%s %.1f\n", ops[i].name, measure (ops[i].op));
      fflush (stdout);
    }

  gcry_cipher_close (hd_cfb);
  gcry_cipher_close (hd_ocb);
  gcry_cipher_close (hd_eax);
  gcry_cipher_close (hd_gcm);
  free (src);
  free (dst);
  free (ct);
  return 0;
}
