/* fuzz-pkesk.c - libFuzzer target for PKESK packets (pkesk.h)
 *
 * Input: a PKESK body.  It is parsed; when it parses, it is written back
 * and must give the same octets, and it is decrypted with a secret key
 * of its algorithm made at start-up (X25519, Curve25519 legacy ECDH,
 * NIST P-256 ECDH, RSA-1024): the only answers allowed are a session key
 * of 16, 24 or 32 octets or GPG_ERR_DECRYPT_FAILED.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <gcrypt.h>

#include "job.h"
#include "pkesk.h"
#include "seckey.h"
#include "skesk.h"

enum { KEY_X25519, KEY_CV25519, KEY_P256, KEY_RSA, N_KEYS };

static pl_pubkey pub[N_KEYS];
static pl_seckey sec[N_KEYS];

/* A key packet body: v4, time 0, ALGO, then MATERIAL. */
static void
make_pub (int i, int algo, const uint8_t *material, size_t len)
{
  uint8_t body[600] = { 4, 0, 0, 0, 0, (uint8_t) algo };

  memcpy (body + 6, material, len);
  if (pl_pubkey_parse (&pub[i], body, 6 + len, NULL))
    abort ();
}

static void
make_sec (int i, const uint8_t *field, size_t len)
{
  pl_seckey *s = &sec[i];

  s->pub = &pub[i];
  s->mem = gcry_malloc_secure (len);
  memcpy (s->mem, field, len);
  s->mem_len = len;
  s->field[0].off = 0;
  s->field[0].len = len;
  s->n_fields = 1;
}

/* A scalar and its point by libgcrypt's key generation. */
static void
gen_ecc (const char *spec, uint8_t *q, size_t *qlen, uint8_t *d, size_t *dlen)
{
  gcry_sexp_t parms, key, l;
  gcry_mpi_t m;

  if (gcry_sexp_new (&parms, spec, 0, 1) || gcry_pk_genkey (&key, parms))
    abort ();
  l = gcry_sexp_find_token (key, "q", 0);
  memcpy (q, gcry_sexp_nth_data (l, 1, qlen), *qlen);
  gcry_sexp_release (l);
  l = gcry_sexp_find_token (key, "d", 0);
  m = gcry_sexp_nth_mpi (l, 1, GCRYMPI_FMT_USG);
  gcry_mpi_print (GCRYMPI_FMT_USG, d, 66, dlen, m);
  gcry_mpi_release (m);
  gcry_sexp_release (l);
  gcry_sexp_release (parms);
  gcry_sexp_release (key);
}

static void
setup_ecdh (int i, const uint8_t *oid, size_t oid_len, const char *spec)
{
  uint8_t q[133], d[66], m[200];
  size_t qlen = 0, dlen = 0, pos = 0;
  static const uint8_t kdf[] = { 3, 1, 8, 9 };

  gen_ecc (spec, q, &qlen, d, &dlen);
  m[pos++] = (uint8_t) oid_len;
  memcpy (m + pos, oid, oid_len);
  pos += oid_len;
  pos += pl_mpi_write (q, qlen, m + pos);
  memcpy (m + pos, kdf, 4);
  make_pub (i, 18, m, pos + 4);
  make_sec (i, d, dlen);
}

static void
setup (void)
{
  static const uint8_t cv_oid[] = { 0x2B, 0x06, 0x01, 0x04, 0x01, 0x97,
                                    0x55, 0x01, 0x05, 0x01 };
  static const uint8_t p256_oid[] = { 0x2A, 0x86, 0x48, 0xCE, 0x3D, 0x03,
                                      0x01, 0x07 };
  uint8_t x[32], xq[32];
  gcry_sexp_t parms, key;
  uint8_t m[600], f[700];
  size_t pos = 0, fpos = 0;
  const char *names = "nedpqu";

  /* The system RNG: the standard one's jitter entropy collector keeps a
   * block LeakSanitizer reports at exit. */
  gcry_control (GCRYCTL_SET_PREFERRED_RNG_TYPE, GCRY_RNG_TYPE_SYSTEM);
  if (pl_init ())
    abort ();
  gcry_randomize (x, 32, GCRY_STRONG_RANDOM);
  if (gcry_ecc_mul_point (GCRY_ECC_CURVE25519, xq, x, NULL))
    abort ();
  make_pub (KEY_X25519, 25, xq, 32);
  make_sec (KEY_X25519, x, 32);
  setup_ecdh (KEY_CV25519, cv_oid, sizeof cv_oid,
              "(genkey (ecc (curve Curve25519) (flags djb-tweak comp)))");
  setup_ecdh (KEY_P256, p256_oid, sizeof p256_oid,
              "(genkey (ecc (curve \"NIST P-256\")))");
  if (gcry_sexp_new (&parms, "(genkey (rsa (nbits 4:1024)))", 0, 1)
      || gcry_pk_genkey (&key, parms))
    abort ();
  for (int i = 0; i < 6; i++)
    {
      char tok[2] = { names[i], 0 };
      gcry_sexp_t l = gcry_sexp_find_token (key, tok, 0);
      gcry_mpi_t v = gcry_sexp_nth_mpi (l, 1, GCRYMPI_FMT_USG);
      uint8_t buf[256];
      size_t n;
      gcry_mpi_print (GCRYMPI_FMT_USG, buf, sizeof buf, &n, v);
      if (i < 2)
        pos += pl_mpi_write (buf, n, m + pos);
      else
        fpos += pl_mpi_write (buf, n, f + fpos);
      gcry_mpi_release (v);
      gcry_sexp_release (l);
    }
  make_pub (KEY_RSA, 1, m, pos);
  sec[KEY_RSA].pub = &pub[KEY_RSA];
  sec[KEY_RSA].mem = gcry_malloc_secure (fpos);
  memcpy (sec[KEY_RSA].mem, f, fpos);
  sec[KEY_RSA].mem_len = fpos;
  for (size_t i = 0, p = 0; i < 4; i++)
    {
      size_t off, n, used;
      if (pl_mpi_read (f + p, fpos - p, 8192, &off, &n, &used))
        abort ();
      sec[KEY_RSA].field[i].off = p + off;
      sec[KEY_RSA].field[i].len = n;
      p += used;
    }
  sec[KEY_RSA].n_fields = 4;
  gcry_sexp_release (parms);
  gcry_sexp_release (key);
}

int
LLVMFuzzerTestOneInput (const uint8_t *data, size_t size)
{
  static int initialized;
  pl_pkesk p;
  uint8_t out[PL_PKESK_BODY_MAX], *key;
  size_t len, keylen;
  int algo;

  if (!initialized)
    {
      setup ();
      initialized = 1;
    }
  if (pl_pkesk_parse (&p, data, size))
    return 0;
  len = pl_pkesk_write (&p, out);
  if (len != size || memcmp (out, data, size))
    abort ();
  key = gcry_malloc_secure (PL_SESSION_KEY_MAX);
  for (int i = 0; i < N_KEYS; i++)
    {
      gpg_error_t err;
      if (pub[i].algo != p.algo)
        continue;
      err = pl_pkesk_decrypt (&p, &sec[i], key, &keylen, &algo);
      if (err ? gpg_err_code (err) != GPG_ERR_DECRYPT_FAILED
              : keylen != 16 && keylen != 24 && keylen != 32)
        abort ();
    }
  gcry_free (key);
  return 0;
}
