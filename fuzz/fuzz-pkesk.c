/* fuzz-pkesk.c - libFuzzer target for PKESK packets (pkesk.h)
 *
 * Input: a PKESK body.  It is parsed; when it parses, it is written back
 * and must give the same octets, and it is decrypted with a secret key
 * of its algorithm (fixed: X25519, Curve25519 legacy ECDH, NIST P-256
 * ECDH, RSA-1024): the only answers allowed are a session key
 * of 16, 24 or 32 octets or GPG_ERR_DECRYPT_FAILED.
 */
#include <stdint.h>
#include <stdio.h>
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

/* Fixed keys: libgcrypt's key generation keeps a block that
 * LeakSanitizer reports at exit.  RSA-1024 (n, e, d, p, q, u with p < q
 * and u = p^-1 mod q, as OpenPGP stores them), made with openssl. */
static const char *const rsa_hex[] = {
  "cd53091d03daf0c205981d2e3bc6c2fd974e1bfc067910deb22f73467661c77adbb57cd6c3a8002b3e528a6c8264b0c3d498e398e8d8436ce472e10994ac75bb5d156bda6a4bd0000b94a5936132e9f98bdeff1430e0a00552ad3bd7eadc49ac6e246e9531a22d098e68d945243c128ff1185b746f5a4971991486732c9c6a8d",
  "010001",
  "7a6df6d32c4752a3fe7df3786c005aa8a79dd5a5f39e20e7094cade9e810e9c76256d7779ff6ff12c9f8a1bd8e0ac8341d028543da238a20d61f81fc1a80b339d1b192b1ab32cbd5c86d5bc981870367e9401ed1898ec926bc82f1bf70e09f6b0ed7dd2d26037681c730effb47f5dd7d5212262a7e2c598d428c7788a7f7dae9",
  "d8cd1b483a7149914e786d08ef33bd737e64cea51f756b839d4f0422df428ad2125216133220c241e4ee3b06d711b32212beaf16fd4d3573cd2f26cdd3651827",
  "f272b5d409cd673ba0474270b450d1c94653a12a6c97ee41c282ed7eb50c5f7c4f90b45f55e20dd6dcc169e641a0d4e17f20dfe417b1b4df987fa62e0171442b",
  "25b75ddbc562584efeb5c59267f6beb10de007a0a4ea2abe2f1f4eeb6b97f30cd925c6586ffec63bbecc23b9616a0babbe046bebc8dc07669e181fc8bc73a029",
};

static size_t
unhex (const char *h, uint8_t *out)
{
  size_t n = strlen (h) / 2;
  for (size_t i = 0; i < n; i++)
    {
      unsigned int v;
      sscanf (h + 2 * i, "%2x", &v);
      out[i] = (uint8_t) v;
    }
  return n;
}

/* ECDH on OID's curve: (v4 body) OID, the point Q, KDF SHA-256/AES-256. */
static void
setup_ecdh (int i, const uint8_t *oid, size_t oid_len, const uint8_t *q,
            size_t qlen, const uint8_t *d, size_t dlen)
{
  static const uint8_t kdf[] = { 3, 1, 8, 9 };
  uint8_t m[200];
  size_t pos = 0;

  m[pos++] = (uint8_t) oid_len;
  memcpy (m + pos, oid, oid_len);
  pos += oid_len;
  pos += pl_mpi_write (q, qlen, m + pos);
  memcpy (m + pos, kdf, 4);
  make_pub (i, 18, m, pos + 4);
  make_sec (i, d, dlen);
}

/* A P-256 point for the scalar D: Q = dG, uncompressed. */
static size_t
p256_point (const uint8_t *d, uint8_t *q)
{
  gcry_ctx_t ctx;
  gcry_mpi_point_t g, r;
  gcry_mpi_t k, enc;
  size_t n = 0;

  if (gcry_mpi_ec_new (&ctx, NULL, "NIST P-256"))
    abort ();
  g = gcry_mpi_ec_get_point ("g", ctx, 1);
  r = gcry_mpi_point_new (0);
  gcry_mpi_scan (&k, GCRYMPI_FMT_USG, d, 32, NULL);
  gcry_mpi_ec_mul (r, k, g, ctx);
  gcry_mpi_ec_set_point ("q", r, ctx);
  enc = gcry_mpi_ec_get_mpi ("q", ctx, 1);
  gcry_mpi_print (GCRYMPI_FMT_USG, q, 65, &n, enc);
  gcry_mpi_release (enc);
  gcry_mpi_release (k);
  gcry_mpi_point_release (r);
  gcry_mpi_point_release (g);
  gcry_ctx_release (ctx);
  return n;
}

static void
setup (void)
{
  static const uint8_t cv_oid[] = { 0x2B, 0x06, 0x01, 0x04, 0x01, 0x97,
                                    0x55, 0x01, 0x05, 0x01 };
  static const uint8_t p256_oid[] = { 0x2A, 0x86, 0x48, 0xCE, 0x3D, 0x03,
                                      0x01, 0x07 };
  uint8_t x[32], xq[32], d[32], le[32], q[65], cq[33];
  uint8_t m[600], f[700], buf[256];
  size_t pos = 0, fpos = 0, qlen;

  if (pl_init ())
    abort ();
  for (int i = 0; i < 32; i++)
    x[i] = (uint8_t) (7 * i + 1), d[i] = (uint8_t) (11 * i + 3);
  if (gcry_ecc_mul_point (GCRY_ECC_CURVE25519, xq, x, NULL))
    abort ();
  make_pub (KEY_X25519, 25, xq, 32);
  make_sec (KEY_X25519, x, 32);
  /* Curve25519 legacy: D stored big-endian, the native scalar reversed. */
  for (int i = 0; i < 32; i++)
    le[i] = d[31 - i];
  cq[0] = 0x40;
  if (gcry_ecc_mul_point (GCRY_ECC_CURVE25519, cq + 1, le, NULL))
    abort ();
  setup_ecdh (KEY_CV25519, cv_oid, sizeof cv_oid, cq, 33, d, 32);
  d[0] &= 0x7F;                 /* below the P-256 order */
  qlen = p256_point (d, q);
  setup_ecdh (KEY_P256, p256_oid, sizeof p256_oid, q, qlen, d, 32);
  for (int i = 0; i < 6; i++)
    {
      size_t n = unhex (rsa_hex[i], buf);
      if (i < 2)
        pos += pl_mpi_write (buf, n, m + pos);
      else
        fpos += pl_mpi_write (buf, n, f + fpos);
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
