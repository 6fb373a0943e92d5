/* key-cost.c - what a public-key recipient costs, in-process (issue 21)
 *
 *   key-cost fixed CERT KEY [ROUNDS]
 *   key-cost batch CERT KEY [FILES [SIZE [THREADS]]]
 *
 * CERT is a certificate (binary or armored), KEY the same key's
 * transferable secret key, unprotected (gpg --export-secret-keys).
 *
 * "fixed": one 1-octet message, ROUNDS (51) times each, the stages and
 * the whole jobs in turns (A B A B ...) so that the machine's load falls
 * on each alike; prints the median of each in microseconds:
 *   cert-read       pl_certs_read of CERT
 *   cert-choose     pl_certs_read of CERT and pl_cert_encryption_key on
 *                   it (the self-signatures verified: what makes the
 *                   choice safe; once a certificate, cert.h)
 *   cert-rechoose   pl_cert_encryption_key again on a certificate that
 *                   was used before (its verdicts kept)
 *   pkesk-encrypt   pl_pkesk_encrypt to the chosen key
 *   key-read        pl_certs_read of KEY
 *   key-unlock      pl_seckey_unlock of the encryption subkey
 *   pkesk-decrypt   pl_pkesk_decrypt of one PKESK
 *   gcry-decrypt    RSA keys: libgcrypt's private-key operation alone
 *                   (gcry_pk_decrypt, the key's S-expression made
 *                   before), the floor under pkesk-decrypt; 0 for others
 *   enc-cert-new    pl_certs_read of CERT and pl_encrypt of 1 octet to it
 *                   (what one padlock-sop encrypt does in the engine)
 *   enc-cert        pl_encrypt of 1 octet to CERT read before
 *   enc-pass        pl_encrypt of 1 octet to a passphrase whose key comes
 *                   from a derived-key cache (the S2K ran once, before:
 *                   the passphrase path without its key derivation)
 *   dec-key-new     pl_certs_read of KEY and pl_decrypt of enc-cert's
 *                   message with it (one padlock-sop decrypt's engine)
 *   dec-key         pl_decrypt of enc-cert's message with KEY read before
 *   dec-pass        pl_decrypt of enc-pass's message, same cache
 * enc-cert - enc-pass and dec-key - dec-pass are what a recipient costs
 * beyond what the message costs anyway.
 *
 * "wildcards": a message of N (31) PKESKs that name no recipient (key
 * ID 0), of the encryption key's algorithm, each with a random value of
 * its size (below its modulus: no PKESK of them opens anything), then
 * the message's real one, anonymous too (32 in all, the most a message
 * keeps, recipients.c), and its SEIPD: what
 * pl_decrypt with KEY costs (CPU seconds, one run), and what it says.
 * A hostile sender's worst case against one's own key (issue 32 §6).
 *
 * "batch": FILES (1000) messages of SIZE (16384) random octets
 * encrypted to CERT and decrypted with KEY on THREADS (1) threads, each
 * job with a thread budget of 1, the certificate and key parsed once
 * and shared by the threads, as a batch of files to one recipient
 * would; then the same with a passphrase and a
 * derived-key cache (bench/batch's path).  Every decryption is compared
 * with its plaintext.  Prints files/s each way and the per-file stages.
 */
#include <pthread.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <gcrypt.h>

#include "cert.h"
#include "job.h"

#include "bench-util.h"
#include "keycache.h"
#include "packet.h"
#include "pkesk.h"
#include "recipients.h"
#include "skesk.h"
#include "seckey.h"

/* KEY_COST_WALL=1: the wall clock.  By default the process's CPU clock
 * (every job here runs on the calling thread, a thread budget of 1), which
 * a shared machine's load disturbs far less than the wall clock. */
static int
wall_clock (void)
{
  static int wall = -1;

  if (wall < 0)
    wall = getenv ("KEY_COST_WALL") && !strcmp (getenv ("KEY_COST_WALL"),
                                                 "1");
  return wall;
}

static double
now (void)
{
  struct timespec ts;

  clock_gettime (wall_clock () ? CLOCK_MONOTONIC : CLOCK_PROCESS_CPUTIME_ID,
                 &ts);
  return ts.tv_sec + ts.tv_nsec / 1e9;
}

static void
die (const char *what, gpg_error_t err)
{
  fprintf (stderr, "key-cost: %s: %s\n", what, gpg_strerror (err));
  exit (1);
}

static uint8_t *
slurp (const char *path, size_t *len)
{
  FILE *f = fopen (path, "rb");
  uint8_t *buf = NULL;
  size_t cap = 0, n = 0, r;

  if (!f)
    {
      perror (path);
      exit (2);
    }
  do
    {
      if (n == cap && !(buf = realloc (buf, cap = cap ? 2 * cap : 65536)))
        exit (2);
      r = fread (buf + n, 1, cap - n, f);
      n += r;
    }
  while (r);
  fclose (f);
  *len = n;
  return buf;
}

static pl_cert *
read_one (const uint8_t *data, size_t len, pl_cert ***all, size_t *n)
{
  gpg_error_t err = pl_certs_read (data, len, all, n);
  if (err)
    die ("read", err);
  return (*all)[0];
}

/* One message: SRC's plaintext to a memory sink; the ciphertext (or
 * plaintext) in *OUT, *OUT_LEN (malloc'ed) when OUT is not NULL. */
static gpg_error_t
run_job (int encrypt, const void *in, size_t in_len,
         const pl_encrypt_options *eo, const pl_decrypt_options *dopt,
         uint8_t **out, size_t *out_len)
{
  pl_job_control ctl = { NULL, NULL, NULL, 1 };
  pl_source *src = pl_source_new_memory (in, in_len);
  pl_sink *sink = pl_sink_new_memory ();
  gpg_error_t err = encrypt ? pl_encrypt (src, sink, eo, &ctl)
                            : pl_decrypt (src, sink, dopt, NULL, &ctl);

  if (!err && out)
    {
      const uint8_t *d = pl_sink_memory_data (sink, out_len);
      *out = malloc (*out_len ? *out_len : 1);
      memcpy (*out, d, *out_len);
    }
  pl_sink_free (sink);
  pl_source_free (src);
  return err;
}

typedef struct
{
  pl_cert **certs, **keys;
  size_t n_certs, n_keys;
  pl_cert *cert, *key;
  const pl_cert_key *enc;       /* the certificate's encryption key */
  const pl_cert_key *sec;       /* the same key in KEY */
  pl_opener cert_key, secret_key, pass_key;
  pl_keycache *cache;
  pl_encrypt_options eo_cert, eo_pass;
  pl_decrypt_options do_key, do_pass;
} bench;

static void
bench_init (bench *b, const char *cert_path, const char *key_path)
{
  size_t cl, kl;
  uint8_t *cd = slurp (cert_path, &cl), *kd = slurp (key_path, &kl);
  uint32_t t = (uint32_t) time (NULL);
  char why[256];
  gpg_error_t err;

  memset (b, 0, sizeof *b);
  b->cert = read_one (cd, cl, &b->certs, &b->n_certs);
  b->key = read_one (kd, kl, &b->keys, &b->n_keys);
  free (cd);
  free (kd);
  err = pl_cert_encryption_key (b->cert, t, &b->enc, why, sizeof why);
  if (err)
    {
      fprintf (stderr, "key-cost: %s\n", why);
      exit (2);
    }
  b->sec = pl_cert_find_key (b->key, b->enc->key.fpr, b->enc->key.fpr_len,
                             NULL);
  if (!b->sec || pl_seckey_protection (b->sec) != 0)
    {
      fprintf (stderr, "key-cost: KEY must be CERT's, unprotected\n");
      exit (2);
    }
  b->cert_key = (pl_opener) { PL_OPENER_CERT, b->cert, 0, 0, 0 };
  b->secret_key = (pl_opener) { PL_OPENER_SECRET_KEYS, b->key, 0, 0, 0 };
  b->pass_key = pl_opener_passphrase ("bench", 5);
  err = pl_keycache_new (&b->cache);
  if (err)
    die ("keycache", err);

  pl_encrypt_options_init (&b->eo_cert);
  b->eo_cert.openers = &b->cert_key;
  b->eo_cert.n_openers = 1;
  pl_encrypt_options_init (&b->eo_pass);
  b->eo_pass.openers = &b->pass_key;
  b->eo_pass.n_openers = 1;
  b->eo_pass.keycache = b->cache;
  memset (&b->do_key, 0, sizeof b->do_key);
  b->do_key.openers = &b->secret_key;
  b->do_key.n_openers = 1;
  memset (&b->do_pass, 0, sizeof b->do_pass);
  b->do_pass.openers = &b->pass_key;
  b->do_pass.n_openers = 1;
  b->do_pass.keycache = b->cache;
}

static void
bench_clear (bench *b)
{
  pl_certs_free (b->certs, b->n_certs);
  pl_certs_free (b->keys, b->n_keys);
  pl_keycache_free (b->cache);
}

/* ---- fixed --------------------------------------------------------- */

enum
{
  F_CERT_READ, F_CHOOSE, F_RECHOOSE, F_PKESK_ENC, F_KEY_READ, F_UNLOCK,
  F_PKESK_DEC, F_GCRY_DEC, F_ENC_CERT_NEW, F_ENC_CERT, F_ENC_PASS, F_DEC_KEY_NEW,
  F_DEC_KEY, F_DEC_PASS, F_N
};
static const char *fixed_names[F_N] = {
  "cert-read", "cert-choose", "cert-rechoose", "pkesk-encrypt", "key-read",
  "key-unlock", "pkesk-decrypt", "gcry-decrypt", "enc-cert-new", "enc-cert", "enc-pass",
  "dec-key-new", "dec-key", "dec-pass"
};

static double
time_stage (int which, bench *b, const uint8_t *cert_data, size_t cert_len,
            const uint8_t *key_data, size_t key_len,
            const uint8_t *msg_cert, size_t msg_cert_len,
            const uint8_t *msg_pass, size_t msg_pass_len)
{
  static const uint8_t plain[1] = { 'x' };
  uint8_t sk[32];
  pl_cert **all;
  size_t n, keylen;
  const pl_cert_key *enc;
  pl_seckey s;
  pl_pkesk *p = malloc (sizeof *p);
  uint8_t *session = gcry_malloc_secure (PL_SESSION_KEY_MAX);
  int cipher;
  double t0 = now (), t;
  gpg_error_t err = 0;

  memset (sk, 7, sizeof sk);
  switch (which)
    {
    case F_CERT_READ:
      err = pl_certs_read (cert_data, cert_len, &all, &n);
      break;
    case F_KEY_READ:
      err = pl_certs_read (key_data, key_len, &all, &n);
      break;
    case F_CHOOSE:
      err = pl_certs_read (cert_data, cert_len, &all, &n);
      if (!err)
        err = pl_cert_encryption_key (all[0], (uint32_t) time (NULL), &enc,
                                      NULL, 0);
      break;
    case F_RECHOOSE:
      err = pl_cert_encryption_key (b->cert, (uint32_t) time (NULL), &enc,
                                    NULL, 0);
      break;
    case F_PKESK_ENC:
      err = pl_pkesk_encrypt (p, 3, &b->enc->key, 0, 9, sk, 32);
      break;
    case F_UNLOCK:
      err = pl_seckey_unlock (b->sec, 7, NULL, 0, 0, NULL, &s);
      break;
    case F_PKESK_DEC:
      err = pl_seckey_unlock (b->sec, 7, NULL, 0, 0, NULL, &s);
      if (!err)
        err = pl_pkesk_encrypt (p, 3, &b->enc->key, 0, 9, sk, 32);
      t0 = now ();
      if (!err)
        err = pl_pkesk_decrypt (p, &s, session, &keylen, &cipher);
      break;
    case F_GCRY_DEC:
      if (b->enc->key.algo == PL_PK_RSA || b->enc->key.algo == PL_PK_RSA_E)
        {
          gcry_sexp_t priv = NULL, data = NULL, res = NULL;
          gcry_mpi_t v[6] = { NULL }, c = gcry_mpi_new (0);

          err = pl_seckey_unlock (b->sec, 7, NULL, 0, 0, NULL, &s);
          for (int i = 0; i < 2 && !err; i++)
            err = pl_pubkey_mpi (s.pub, i, &v[i]);
          for (int i = 0; i < 4 && !err; i++)
            err = pl_seckey_mpi (&s, i, &v[2 + i]);
          if (!err)
            err = gcry_sexp_build (&priv, NULL, "(private-key (rsa (n %m) "
                                   "(e %m) (d %m) (p %m) (q %m) (u %m)))",
                                   v[0], v[1], v[2], v[3], v[4], v[5]);
          if (!err)
            {
              gcry_mpi_randomize (c, s.pub->bits - 8, GCRY_WEAK_RANDOM);
              err = gcry_sexp_build (&data, NULL, "(enc-val (flags raw) "
                                     "(rsa (a %m)))", c);
            }
          t0 = now ();
          if (!err)
            err = gcry_pk_decrypt (&res, data, priv);
          t = now () - t0;
          for (int i = 0; i < 6; i++)
            gcry_mpi_release (v[i]);
          gcry_mpi_release (c);
          gcry_sexp_release (priv);
          gcry_sexp_release (data);
          gcry_sexp_release (res);
          pl_seckey_clear (&s);
          free (p);
          gcry_free (session);
          if (err)
            die ("gcry-decrypt", err);
          return t;
        }
      t0 = now ();
      break;
    case F_ENC_CERT_NEW:
      err = pl_certs_read (cert_data, cert_len, &all, &n);
      if (!err)
        {
          pl_opener k = { PL_OPENER_CERT, all[0], 0, 0, 0 };
          pl_encrypt_options o = b->eo_cert;
          o.openers = &k;
          err = run_job (1, plain, 1, &o, NULL, NULL, NULL);
        }
      break;
    case F_ENC_CERT:
      err = run_job (1, plain, 1, &b->eo_cert, NULL, NULL, NULL);
      break;
    case F_ENC_PASS:
      err = run_job (1, plain, 1, &b->eo_pass, NULL, NULL, NULL);
      break;
    case F_DEC_KEY_NEW:
      err = pl_certs_read (key_data, key_len, &all, &n);
      if (!err)
        {
          pl_opener k = { PL_OPENER_SECRET_KEYS, all[0], 0, 0, 0 };
          pl_decrypt_options o = b->do_key;
          o.openers = &k;
          err = run_job (0, msg_cert, msg_cert_len, NULL, &o, NULL, NULL);
        }
      break;
    case F_DEC_KEY:
      err = run_job (0, msg_cert, msg_cert_len, NULL, &b->do_key, NULL, NULL);
      break;
    case F_DEC_PASS:
      err = run_job (0, msg_pass, msg_pass_len, NULL, &b->do_pass, NULL,
                     NULL);
      break;
    }
  t = now () - t0;
  if (err)
    die (fixed_names[which], err);
  if (which == F_CERT_READ || which == F_KEY_READ || which == F_CHOOSE
      || which == F_ENC_CERT_NEW || which == F_DEC_KEY_NEW)
    pl_certs_free (all, n);
  if (which == F_UNLOCK || which == F_PKESK_DEC)
    pl_seckey_clear (&s);
  free (p);
  gcry_free (session);
  return t;
}

static int
run_fixed (const char *cert_path, const char *key_path, int rounds)
{
  static const uint8_t plain[1] = { 'x' };
  bench b;
  size_t cl, kl, mcl, mpl;
  uint8_t *cd = slurp (cert_path, &cl), *kd = slurp (key_path, &kl);
  uint8_t *mc, *mp;
  double *t[F_N];
  gpg_error_t err;

  bench_init (&b, cert_path, key_path);
  /* The messages the decryptions read; this also runs the cache's one
   * derivation before anything is timed. */
  err = run_job (1, plain, 1, &b.eo_cert, NULL, &mc, &mcl);
  if (!err)
    err = run_job (1, plain, 1, &b.eo_pass, NULL, &mp, &mpl);
  if (err)
    die ("message", err);
  for (int i = 0; i < F_N; i++)
    t[i] = calloc (rounds, sizeof (double));
  for (int r = -1; r < rounds; r++)    /* round -1: warm-up */
    for (int i = 0; i < F_N; i++)
      {
        double v = time_stage (i, &b, cd, cl, kd, kl, mc, mcl, mp, mpl);
        if (r >= 0)
          t[i][r] = v;
      }
  for (int i = 0; i < F_N; i++)
    {
      printf ("%s %.1f us\n", fixed_names[i], 1e6 * median (t[i], rounds));
      free (t[i]);
    }
  free (cd);
  free (kd);
  free (mc);
  free (mp);
  bench_clear (&b);
  return 0;
}

/* ---- batch --------------------------------------------------------- */

typedef struct
{
  int encrypt;
  const pl_encrypt_options *eo;
  const pl_decrypt_options *dopt;
  uint8_t **in, **out;
  size_t *in_len, *out_len;
  int files;
  atomic_int next;              /* the next file a worker takes */
} batch_work;

static void *
batch_worker (void *arg)
{
  batch_work *w = arg;
  int i;

  while ((i = atomic_fetch_add (&w->next, 1)) < w->files)
    {
      gpg_error_t err = run_job (w->encrypt, w->in[i], w->in_len[i], w->eo,
                                 w->dopt, &w->out[i], &w->out_len[i]);
      if (err)
        die (w->encrypt ? "batch encrypt" : "batch decrypt", err);
    }
  return NULL;
}

/* The files on THREADS threads (each job with a thread budget of 1),
 * taking the next file as they finish one, as the app's queue does;
 * the wall clock when THREADS > 1 (the CPU clock would add the threads
 * up). */
static double
batch_way (int encrypt, const pl_encrypt_options *eo,
           const pl_decrypt_options *dopt, uint8_t **in, size_t *in_len,
           uint8_t **out, size_t *out_len, int files, int threads)
{
  batch_work w = { encrypt, eo, dopt, in, out, in_len, out_len, files, 0 };
  pthread_t t[8];
  struct timespec a, b;
  double t0 = now ();

  if (threads <= 1)
    {
      batch_worker (&w);
      return now () - t0;
    }
  clock_gettime (CLOCK_MONOTONIC, &a);
  for (int i = 0; i < threads; i++)
    pthread_create (&t[i], NULL, batch_worker, &w);
  for (int i = 0; i < threads; i++)
    pthread_join (t[i], NULL);
  clock_gettime (CLOCK_MONOTONIC, &b);
  return (b.tv_sec - a.tv_sec) + (b.tv_nsec - a.tv_nsec) / 1e9;
}

static void
check_batch (uint8_t **plain, uint8_t **back, size_t *back_len, size_t size,
             int files)
{
  for (int i = 0; i < files; i++)
    if (back_len[i] != size || memcmp (plain[i], back[i], size))
      {
        fprintf (stderr, "key-cost: file %d came back different\n", i);
        exit (1);
      }
}

static int
run_batch (const char *cert_path, const char *key_path, int files,
           size_t size, int threads)
{
  bench b;
  uint8_t **plain = calloc (files, sizeof *plain);
  uint8_t **ct = calloc (files, sizeof *ct), **back = calloc (files,
                                                              sizeof *back);
  size_t *plain_len = calloc (files, sizeof *plain_len);
  size_t *ct_len = calloc (files, sizeof *ct_len);
  size_t *back_len = calloc (files, sizeof *back_len);
  double ek, dk, ep, dp;

  bench_init (&b, cert_path, key_path);
  for (int i = 0; i < files; i++)
    {
      plain[i] = malloc (size);
      gcry_create_nonce (plain[i], size);
      plain_len[i] = size;
    }
  /* Warm-up: the cache's derivation, the pages of the buffers. */
  batch_way (1, &b.eo_pass, NULL, plain, plain_len, ct, ct_len, 1, 1);
  free (ct[0]);

  ek = batch_way (1, &b.eo_cert, NULL, plain, plain_len, ct, ct_len, files, threads);
  dk = batch_way (0, NULL, &b.do_key, ct, ct_len, back, back_len, files, threads);
  check_batch (plain, back, back_len, size, files);
  for (int i = 0; i < files; i++)
    {
      free (ct[i]);
      free (back[i]);
    }
  ep = batch_way (1, &b.eo_pass, NULL, plain, plain_len, ct, ct_len, files, threads);
  dp = batch_way (0, NULL, &b.do_pass, ct, ct_len, back, back_len, files, threads);
  check_batch (plain, back, back_len, size, files);

  printf ("files %d of %zu octets, %d thread(s), %s clock\n", files, size,
          threads, threads > 1 || wall_clock () ? "wall" : "CPU");
  printf ("cert encrypt %.0f files/s (%.1f us a file)\n", files / ek,
          1e6 * ek / files);
  printf ("key decrypt %.0f files/s (%.1f us a file)\n", files / dk,
          1e6 * dk / files);
  printf ("passphrase+cache encrypt %.0f files/s (%.1f us a file)\n",
          files / ep, 1e6 * ep / files);
  printf ("passphrase+cache decrypt %.0f files/s (%.1f us a file)\n",
          files / dp, 1e6 * dp / files);
  for (int i = 0; i < files; i++)
    {
      free (plain[i]);
      free (ct[i]);
      free (back[i]);
    }
  free (plain);
  free (ct);
  free (back);
  free (plain_len);
  free (ct_len);
  free (back_len);
  bench_clear (&b);
  return 0;
}

/* ---- wildcards ----------------------------------------------------- */

/* A v3 PKESK packet for nobody, of ALGO (RSA), with a random value of
 * BITS - 8 bits, appended at OUT + *POS. */
static void
put_wildcard (uint8_t *out, size_t *pos, int algo, unsigned int bits)
{
  uint8_t body[PL_PKESK_BODY_MAX], value[PL_PUBKEY_BITS_MAX / 8];
  size_t n = 0, len = (bits - 8 + 7) / 8;

  body[n++] = 3;
  memset (body + n, 0, 8);
  n += 8;
  body[n++] = (uint8_t) algo;
  gcry_randomize (value, len, GCRY_WEAK_RANDOM);
  value[0] |= 0x80;
  n += pl_mpi_write (value, len, body + n);
  *pos += pl_packet_write_header (out + *pos, PL_PKT_PKESK, n);
  memcpy (out + *pos, body, n);
  *pos += n;
}

static int
run_wildcards (const char *cert_path, const char *key_path, int n)
{
  static const uint8_t plain[1] = { 'x' };
  pl_decrypt_result result;
  pl_job_control ctl = { NULL, NULL, NULL, 1 };
  bench b;
  uint8_t *real, *msg;
  size_t real_len, pos = 0;
  double t0, cpu;
  gpg_error_t err;

  bench_init (&b, cert_path, key_path);
  if (b.enc->key.algo != PL_PK_RSA && b.enc->key.algo != PL_PK_RSA_E)
    {
      fprintf (stderr, "key-cost: wildcards wants an RSA key\n");
      return 2;
    }
  b.eo_cert.anonymous_recipients = 1;
  err = run_job (1, plain, 1, &b.eo_cert, NULL, &real, &real_len);
  if (err)
    die ("encrypt", err);
  msg = malloc ((size_t) n * (6 + PL_PKESK_BODY_MAX) + real_len);
  for (int i = 0; i < n; i++)
    put_wildcard (msg, &pos, b.enc->key.algo, b.enc->key.bits);
  memcpy (msg + pos, real, real_len);
  pos += real_len;
  {
    pl_source *src = pl_source_new_memory (msg, pos);
    pl_sink *sink = pl_sink_new_memory ();

    memset (&result, 0, sizeof result);
    t0 = now ();
    err = pl_decrypt (src, sink, &b.do_key, &result, &ctl);
    cpu = now () - t0;
    pl_sink_free (sink);
    pl_source_free (src);
  }
  printf ("wildcards %d + the real one, RSA-%u: %.2f s %s, %s\n", n,
          b.enc->key.bits, cpu, wall_clock () ? "wall" : "CPU",
          err ? gpg_strerror (err) : "opened");
  free (msg);
  free (real);
  bench_clear (&b);
  return 0;
}

int
main (int argc, char **argv)
{
  if (pl_init ())
    return 2;
  if (argc >= 4 && !strcmp (argv[1], "fixed"))
    return run_fixed (argv[2], argv[3], argc > 4 ? atoi (argv[4]) : 51);
  if (argc >= 4 && !strcmp (argv[1], "batch"))
    return run_batch (argv[2], argv[3], argc > 4 ? atoi (argv[4]) : 1000,
                      argc > 5 ? (size_t) atol (argv[5]) : 16384,
                      argc > 6 && atoi (argv[6]) > 1
                      ? (atoi (argv[6]) < 8 ? atoi (argv[6]) : 8) : 1);
  if (argc >= 4 && !strcmp (argv[1], "wildcards"))
    return run_wildcards (argv[2], argv[3], argc > 4 && atoi (argv[4]) > 0
                          ? (atoi (argv[4]) < 64 ? atoi (argv[4]) : 64)
                          : 31);
  fprintf (stderr, "usage: key-cost fixed CERT KEY [ROUNDS]\n"
           "       key-cost batch CERT KEY [FILES [SIZE [THREADS]]]\n"
           "       key-cost wildcards CERT KEY [N]\n");
  return 2;
}
