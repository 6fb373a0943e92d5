/* test-compress.c - ZIP, ZLIB and BZip2 stages */
#include "compress.h"
#include "algo.h"

#include <glib.h>
#include <limits.h>
#include <stdint.h>
#include <string.h>
#include <sys/mman.h>
#include <zlib.h>
#include <bzlib.h>

#define MIB (1024 * 1024)

static const int all_algos[] = {
  PL_COMPRESS_ZIP, PL_COMPRESS_ZLIB, PL_COMPRESS_BZIP2
};

static const char *
algo_name (int algo)
{
  switch (algo)
    {
    case PL_COMPRESS_ZIP: return "zip";
    case PL_COMPRESS_ZLIB: return "zlib";
    case PL_COMPRESS_BZIP2: return "bzip2";
    default: return "unknown";
    }
}

#define assert_err(expr, code) \
  g_assert_cmpint (gpg_err_code (expr), ==, (code))

/* memcmp wants real pointers even for nothing; an empty GByteArray has
 * none.  */
static int
bytes_equal (const void *a, const void *b, size_t n)
{
  return !n || !memcmp (a, b, n);
}

static uint8_t *
make_data (size_t len, int compressible, guint32 seed)
{
  static const char text[] = "Padlock keeps a secret behind a passphrase. ";
  uint8_t *buf = g_malloc (len + 1);
  GRand *rand = g_rand_new_with_seed (seed);

  for (size_t i = 0; i < len; i++)
    if (!compressible)
      buf[i] = (uint8_t) g_rand_int (rand);
    else if (i % 997 == 0)
      buf[i] = (uint8_t) (i / 997);
    else
      buf[i] = (uint8_t) text[i % (sizeof text - 1)];
  g_rand_free (rand);
  return buf;
}

/* Deflates DATA through pl_deflate, IN_SLICE octets in and OUTCAP octets
 * of room per call.  */
static GByteArray *
deflate_buf (int algo, int level, const uint8_t *data, size_t len,
             size_t in_slice, size_t outcap)
{
  GByteArray *res = g_byte_array_new ();
  uint8_t *out = g_malloc (outcap);
  pl_deflate z;
  size_t pos = 0;
  int done = 0;

  g_assert_cmpint (pl_deflate_init (&z, algo, level), ==, 0);
  while (pos < len)
    {
      size_t n = MIN (in_slice, len - pos);
      size_t consumed, produced;

      g_assert_cmpint (pl_deflate_push (&z, data + pos, n, &consumed,
                                        out, outcap, &produced), ==, 0);
      g_assert_cmpuint (consumed, <=, n);
      g_assert_cmpuint (produced, <=, outcap);
      g_assert_true (consumed || produced);
      g_byte_array_append (res, out, produced);
      pos += consumed;
    }
  while (!done)
    {
      size_t produced;

      g_assert_cmpint (pl_deflate_finish (&z, out, outcap, &produced, &done),
                       ==, 0);
      g_assert_cmpuint (produced, <=, outcap);
      g_assert_true (produced || done);
      g_byte_array_append (res, out, produced);
    }
  pl_deflate_clear (&z);
  g_free (out);
  return res;
}

/* Inflates DATA through pl_inflate the way a packet reader does: push
 * slices, and once the input is gone keep pushing until nothing more
 * comes out, since the decoder may still hold output.  */
static GByteArray *
inflate_buf (int algo, const uint8_t *data, size_t len, size_t in_slice,
             size_t outcap, gpg_error_t *push_err, gpg_error_t *finish_err)
{
  GByteArray *res = g_byte_array_new ();
  uint8_t *out = g_malloc (outcap);
  pl_inflate z;
  size_t pos = 0;

  *push_err = 0;
  g_assert_cmpint (pl_inflate_init (&z, algo), ==, 0);
  for (;;)
    {
      size_t n = MIN (in_slice, len - pos);
      size_t consumed, produced;
      gpg_error_t err;

      err = pl_inflate_push (&z, data + pos, n, &consumed,
                             out, outcap, &produced);
      if (err)
        {
          *push_err = err;
          break;
        }
      g_assert_cmpuint (consumed, <=, n);
      g_assert_cmpuint (produced, <=, outcap);
      if (n)
        g_assert_true (consumed || produced);
      g_byte_array_append (res, out, produced);
      pos += consumed;
      if (pos == len && !produced)
        break;
    }
  *finish_err = pl_inflate_finish (&z);
  pl_inflate_clear (&z);
  g_free (out);
  return res;
}

/* Decodes with the libraries themselves, to show that pl_deflate writes
 * ordinary streams.  */
static void
check_with_library (int algo, const GByteArray *comp,
                    const uint8_t *data, size_t len)
{
  uint8_t *out = g_malloc (len + 1);

  if (algo == PL_COMPRESS_BZIP2)
    {
      unsigned int outlen = (unsigned int) len + 1;

      g_assert_cmpint (BZ2_bzBuffToBuffDecompress ((char *) out, &outlen,
                                                   (char *) comp->data,
                                                   comp->len, 0, 0),
                       ==, BZ_OK);
      g_assert_cmpuint (outlen, ==, len);
    }
  else
    {
      z_stream zs;

      memset (&zs, 0, sizeof zs);
      g_assert_cmpint (inflateInit2 (&zs, algo == PL_COMPRESS_ZIP ? -15 : 15),
                       ==, Z_OK);
      zs.next_in = comp->data;
      zs.avail_in = comp->len;
      zs.next_out = out;
      zs.avail_out = (uInt) len + 1;
      g_assert_cmpint (inflate (&zs, Z_FINISH), ==, Z_STREAM_END);
      g_assert_cmpuint (zs.total_out, ==, len);
      g_assert_cmpuint (zs.avail_in, ==, 0);
      inflateEnd (&zs);
    }
  g_assert_true (bytes_equal (out, data, len));
  g_free (out);
}


typedef struct
{
  int algo;
  int compressible;
  size_t size;
} roundtrip_case;

/* Slices and room chosen to land on every boundary: one octet at a time
 * each way, odd sizes, and everything at once.  */
static const struct
{
  size_t in_slice;
  size_t outcap;
  int level;
} slicings[] = {
  { SIZE_MAX, 1, 9 },
  { 1, 7, 1 },
  { 7, 4096, 6 },
  { 4096, 7, 9 },
  { 65536, 4096, 1 },
};

static void
test_roundtrip (gconstpointer p)
{
  const roundtrip_case *c = p;
  uint8_t *data = make_data (c->size, c->compressible,
                             (guint32) (c->size * 3 + c->algo));

  for (size_t i = 0; i < G_N_ELEMENTS (slicings); i++)
    {
      GByteArray *comp, *plain;
      gpg_error_t push_err, finish_err;

      comp = deflate_buf (c->algo, slicings[i].level, data, c->size,
                          slicings[i].in_slice, slicings[i].outcap);
      check_with_library (c->algo, comp, data, c->size);
      plain = inflate_buf (c->algo, comp->data, comp->len,
                           slicings[i].in_slice, slicings[i].outcap,
                           &push_err, &finish_err);
      g_assert_cmpint (push_err, ==, 0);
      g_assert_cmpint (finish_err, ==, 0);
      g_assert_cmpuint (plain->len, ==, c->size);
      g_assert_true (bytes_equal (plain->data, data, c->size));
      g_byte_array_unref (plain);
      g_byte_array_unref (comp);
    }
  g_free (data);
}


/* Streams written by the libraries directly, not by pl_deflate.  */
static void
test_foreign_streams (void)
{
  size_t len = MIB + 1;
  uint8_t *data = make_data (len, 1, 7);
  gpg_error_t push_err, finish_err;
  GByteArray *plain, *comp;

  /* ZLIB from compress2.  */
  {
    uLongf clen = compressBound (len);
    uint8_t *c = g_malloc (clen);

    g_assert_cmpint (compress2 (c, &clen, data, len, 9), ==, Z_OK);
    plain = inflate_buf (PL_COMPRESS_ZLIB, c, clen, 1000, 4096,
                         &push_err, &finish_err);
    g_assert_cmpint (push_err, ==, 0);
    g_assert_cmpint (finish_err, ==, 0);
    g_assert_cmpuint (plain->len, ==, len);
    g_assert_true (bytes_equal (plain->data, data, len));
    g_byte_array_unref (plain);
    g_free (c);
  }

  /* BZip2 from BZ2_bzBuffToBuffCompress, small blocks for several.  */
  {
    unsigned int clen = (unsigned int) (len + len / 100 + 600);
    char *c = g_malloc (clen);

    g_assert_cmpint (BZ2_bzBuffToBuffCompress (c, &clen, (char *) data,
                                               (unsigned int) len, 1, 0, 0),
                     ==, BZ_OK);
    plain = inflate_buf (PL_COMPRESS_BZIP2, (uint8_t *) c, clen, 1000, 4096,
                         &push_err, &finish_err);
    g_assert_cmpint (push_err, ==, 0);
    g_assert_cmpint (finish_err, ==, 0);
    g_assert_cmpuint (plain->len, ==, len);
    g_assert_true (bytes_equal (plain->data, data, len));
    g_byte_array_unref (plain);
    g_free (c);
  }

  /* Raw deflate with the full 32k window, as other implementations write
   * ZIP, rather than gpg's 8k.  */
  {
    z_stream zs;

    memset (&zs, 0, sizeof zs);
    g_assert_cmpint (deflateInit2 (&zs, 9, Z_DEFLATED, -15, 9,
                                   Z_DEFAULT_STRATEGY), ==, Z_OK);
    comp = g_byte_array_sized_new (deflateBound (&zs, len));
    g_byte_array_set_size (comp, deflateBound (&zs, len));
    zs.next_in = data;
    zs.avail_in = len;
    zs.next_out = comp->data;
    zs.avail_out = comp->len;
    g_assert_cmpint (deflate (&zs, Z_FINISH), ==, Z_STREAM_END);
    g_byte_array_set_size (comp, zs.total_out);
    deflateEnd (&zs);
    plain = inflate_buf (PL_COMPRESS_ZIP, comp->data, comp->len, 1000, 4096,
                         &push_err, &finish_err);
    g_assert_cmpint (push_err, ==, 0);
    g_assert_cmpint (finish_err, ==, 0);
    g_assert_cmpuint (plain->len, ==, len);
    g_assert_true (bytes_equal (plain->data, data, len));
    g_byte_array_unref (plain);
    g_byte_array_unref (comp);
  }
  g_free (data);
}


/* 64 MiB of zeros squeezed into a few hundred octets must come out in
 * pieces no larger than the caller's buffer.  */
static void
test_bomb (gconstpointer p)
{
  int algo = GPOINTER_TO_INT (p);
  const size_t total = 64 * (size_t) MIB;
  const size_t outcap = 64 * 1024;
  uint8_t *zeros = g_malloc0 (MIB);
  uint8_t *out = g_malloc (outcap);
  GByteArray *comp = g_byte_array_new ();
  size_t fed = 0, pos = 0, got = 0, calls = 0;
  pl_deflate d;
  pl_inflate z;
  int done = 0;

  g_assert_cmpint (pl_deflate_init (&d, algo, 9), ==, 0);
  while (fed < total)
    {
      size_t off = 0, consumed, produced;

      while (off < MIB)
        {
          g_assert_cmpint (pl_deflate_push (&d, zeros + off, MIB - off,
                                            &consumed, out, outcap,
                                            &produced), ==, 0);
          g_byte_array_append (comp, out, produced);
          off += consumed;
        }
      fed += MIB;
    }
  while (!done)
    {
      size_t produced;

      g_assert_cmpint (pl_deflate_finish (&d, out, outcap, &produced, &done),
                       ==, 0);
      g_byte_array_append (comp, out, produced);
    }
  pl_deflate_clear (&d);
  g_test_message ("%s: 64 MiB of zeros in %u octets",
                  algo_name (algo), comp->len);
  g_assert_cmpuint (comp->len, <, 256 * 1024);

  g_assert_cmpint (pl_inflate_init (&z, algo), ==, 0);
  for (;;)
    {
      size_t consumed, produced;

      g_assert_cmpint (pl_inflate_push (&z, comp->data + pos, comp->len - pos,
                                        &consumed, out, outcap, &produced),
                       ==, 0);
      g_assert_cmpuint (produced, <=, outcap);
      g_assert_true (bytes_equal (out, zeros, produced));
      got += produced;
      pos += consumed;
      calls++;
      if (pos == comp->len && !produced)
        break;
    }
  g_assert_true (z.ended);
  g_assert_cmpint (pl_inflate_finish (&z), ==, 0);
  g_assert_cmpuint (got, ==, total);
  g_assert_cmpuint (calls, >=, total / outcap);
  pl_inflate_clear (&z);

  g_byte_array_unref (comp);
  g_free (out);
  g_free (zeros);
}


static GByteArray *
sample_stream (int algo, size_t len, uint8_t **datap)
{
  uint8_t *data = make_data (len, 1, 42);
  GByteArray *comp = deflate_buf (algo, 6, data, len, SIZE_MAX, 4096);

  *datap = data;
  return comp;
}

static void
expect_bad_data (int algo, const uint8_t *buf, size_t len, size_t in_slice)
{
  gpg_error_t push_err, finish_err;
  GByteArray *plain;

  plain = inflate_buf (algo, buf, len, in_slice, 4096,
                       &push_err, &finish_err);
  assert_err (push_err, GPG_ERR_BAD_DATA);
  /* Broken means broken, even for ZIP that may lack its end.  */
  assert_err (finish_err, GPG_ERR_INV_STATE);
  g_byte_array_unref (plain);
}

static void
test_damaged (void)
{
  for (size_t i = 0; i < G_N_ELEMENTS (all_algos); i++)
    {
      int algo = all_algos[i];
      uint8_t *data;
      GByteArray *comp = sample_stream (algo, 100000, &data);
      uint8_t *bad = g_memdup2 (comp->data, comp->len);

      /* The header: ZLIB's check bits, the "BZh" magic, or for ZIP a
       * first block of the reserved type 3.  */
      if (algo == PL_COMPRESS_ZIP)
        bad[0] = 0x07;
      else if (algo == PL_COMPRESS_ZLIB)
        bad[0] ^= 0x01;
      else
        bad[2] = 'x';
      expect_bad_data (algo, bad, comp->len, SIZE_MAX);
      expect_bad_data (algo, bad, comp->len, 1);

      /* The body, caught by the checksums.  */
      if (algo != PL_COMPRESS_ZIP)
        {
          memcpy (bad, comp->data, comp->len);
          bad[comp->len / 2] ^= 0x10;
          expect_bad_data (algo, bad, comp->len, 4096);
        }

      /* ZLIB's Adler-32 at the very end.  */
      if (algo == PL_COMPRESS_ZLIB)
        {
          memcpy (bad, comp->data, comp->len);
          bad[comp->len - 1] ^= 0x80;
          expect_bad_data (algo, bad, comp->len, 7);
        }

      /* Nothing more is accepted after damage.  */
      {
        pl_inflate z;
        size_t consumed, produced;
        uint8_t out[64];

        memcpy (bad, comp->data, comp->len);
        bad[0] = algo == PL_COMPRESS_ZIP ? 0x07 : 0xff;
        g_assert_cmpint (pl_inflate_init (&z, algo), ==, 0);
        assert_err (pl_inflate_push (&z, bad, comp->len, &consumed,
                                     out, sizeof out, &produced),
                    GPG_ERR_BAD_DATA);
        assert_err (pl_inflate_push (&z, comp->data, comp->len, &consumed,
                                     out, sizeof out, &produced),
                    GPG_ERR_INV_STATE);
        g_assert_cmpuint (consumed, ==, 0);
        g_assert_cmpuint (produced, ==, 0);
        pl_inflate_clear (&z);
      }

      g_free (bad);
      g_free (data);
      g_byte_array_unref (comp);
    }
}

static void
test_truncated (void)
{
  for (size_t i = 0; i < G_N_ELEMENTS (all_algos); i++)
    {
      int algo = all_algos[i];
      size_t len = 100000;
      uint8_t *data;
      GByteArray *comp = sample_stream (algo, len, &data);
      size_t cuts[] = { 0, 1, comp->len / 2, comp->len - 1 };

      for (size_t k = 0; k < G_N_ELEMENTS (cuts); k++)
        {
          gpg_error_t push_err, finish_err;
          GByteArray *plain;

          plain = inflate_buf (algo, comp->data, cuts[k], 100, 4096,
                               &push_err, &finish_err);
          g_assert_cmpint (push_err, ==, 0);
          if (algo == PL_COMPRESS_ZIP)
            g_assert_cmpint (finish_err, ==, 0);
          else
            assert_err (finish_err, GPG_ERR_TRUNCATED);
          /* Whatever came out is the start of the real thing.  */
          g_assert_cmpuint (plain->len, <=, len);
          g_assert_true (bytes_equal (plain->data, data, plain->len));
          /* bzip2 can give nothing before a whole block is in.  */
          if (k == 2 && algo != PL_COMPRESS_BZIP2)
            g_assert_cmpuint (plain->len, >, 0);
          g_byte_array_unref (plain);
        }
      g_free (data);
      g_byte_array_unref (comp);
    }
}

static void
test_trailing_junk (void)
{
  static const size_t in_slices[] = { SIZE_MAX, 1, 100 };

  for (size_t i = 0; i < G_N_ELEMENTS (all_algos); i++)
    {
      int algo = all_algos[i];
      size_t len = 50000;
      uint8_t *data, *junk = make_data (300, 0, 99);
      GByteArray *comp = sample_stream (algo, len, &data);
      size_t clen = comp->len;

      g_byte_array_append (comp, junk, 300);
      for (size_t k = 0; k < G_N_ELEMENTS (in_slices); k++)
        {
          gpg_error_t push_err, finish_err;
          GByteArray *plain;

          plain = inflate_buf (algo, comp->data, comp->len, in_slices[k], 7,
                               &push_err, &finish_err);
          g_assert_cmpint (push_err, ==, 0);
          g_assert_cmpint (finish_err, ==, 0);
          g_assert_cmpuint (plain->len, ==, len);
          g_assert_true (bytes_equal (plain->data, data, len));
          g_byte_array_unref (plain);
        }

      /* The end and the junk in one push: all of it counts as consumed.  */
      {
        pl_inflate z;
        size_t consumed, produced;
        uint8_t *out = g_malloc (len + 1);

        g_assert_cmpint (pl_inflate_init (&z, algo), ==, 0);
        g_assert_cmpint (pl_inflate_push (&z, comp->data, comp->len,
                                          &consumed, out, len + 1,
                                          &produced), ==, 0);
        g_assert_true (z.ended);
        g_assert_cmpuint (consumed, ==, comp->len);
        g_assert_cmpuint (produced, ==, len);
        g_assert_cmpint (pl_inflate_push (&z, junk, 300, &consumed,
                                          out, len + 1, &produced), ==, 0);
        g_assert_cmpuint (consumed, ==, 300);
        g_assert_cmpuint (produced, ==, 0);
        g_assert_cmpint (pl_inflate_finish (&z), ==, 0);
        pl_inflate_clear (&z);
        g_free (out);
      }
      g_assert_cmpuint (clen, <, comp->len);
      g_free (junk);
      g_free (data);
      g_byte_array_unref (comp);
    }
}

static void
test_unknown_algo (void)
{
  static const int bad[] = { 4, 0, -1, 110 };

  for (size_t i = 0; i < G_N_ELEMENTS (bad); i++)
    {
      pl_inflate z;
      pl_deflate d;

      uint8_t buf[16] = { 0 };
      size_t consumed, produced;

      assert_err (pl_inflate_init (&z, bad[i]), GPG_ERR_COMPR_ALGO);
      g_assert_null (z.stream);
      /* After a failed init: no stream, pushes refused, clear harmless. */
      assert_err (pl_inflate_push (&z, buf, 1, &consumed, buf, sizeof buf,
                                   &produced), GPG_ERR_INV_STATE);
      pl_inflate_clear (&z);
      assert_err (pl_deflate_init (&d, bad[i], 6), GPG_ERR_COMPR_ALGO);
      g_assert_null (d.stream);
      assert_err (pl_deflate_push (&d, buf, 1, &consumed, buf, sizeof buf,
                                   &produced), GPG_ERR_INV_STATE);
      pl_deflate_clear (&d);
    }
}

static void
test_bad_level (void)
{
  static const int bad[] = { 0, 10, -1 };

  for (size_t i = 0; i < G_N_ELEMENTS (all_algos); i++)
    for (size_t k = 0; k < G_N_ELEMENTS (bad); k++)
      {
        pl_deflate d;

        assert_err (pl_deflate_init (&d, all_algos[i], bad[k]),
                    GPG_ERR_INV_VALUE);
        g_assert_null (d.stream);
        pl_deflate_clear (&d);
      }
}

/* Zeroed structs, double clears, empty buffers and calls after the end.  */
static void
test_states (void)
{
  uint8_t out[256] = { 0 };
  size_t consumed = 99, produced = 99;
  pl_inflate z;
  pl_deflate d;
  int done = 7;

  memset (&z, 0, sizeof z);
  assert_err (pl_inflate_push (&z, out, 1, &consumed, out, 1, &produced),
              GPG_ERR_INV_STATE);
  g_assert_cmpuint (consumed, ==, 0);
  g_assert_cmpuint (produced, ==, 0);
  assert_err (pl_inflate_finish (&z), GPG_ERR_INV_STATE);
  pl_inflate_clear (&z);
  pl_inflate_clear (&z);

  memset (&d, 0, sizeof d);
  assert_err (pl_deflate_push (&d, out, 1, &consumed, out, 1, &produced),
              GPG_ERR_INV_STATE);
  assert_err (pl_deflate_finish (&d, out, sizeof out, &produced, &done),
              GPG_ERR_INV_STATE);
  g_assert_cmpint (done, ==, 0);
  pl_deflate_clear (&d);
  pl_deflate_clear (&d);

  for (size_t i = 0; i < G_N_ELEMENTS (all_algos); i++)
    {
      int algo = all_algos[i];
      GByteArray *comp = g_byte_array_new ();

      g_assert_cmpint (pl_inflate_init (&z, algo), ==, 0);
      pl_inflate_clear (&z);
      pl_inflate_clear (&z);

      /* Null buffers of length zero are no input and no room.  */
      g_assert_cmpint (pl_deflate_init (&d, algo, 6), ==, 0);
      g_assert_cmpint (pl_deflate_push (&d, NULL, 0, &consumed, NULL, 0,
                                        &produced), ==, 0);
      g_assert_cmpuint (consumed + produced, ==, 0);
      g_assert_cmpint (pl_deflate_push (&d, (const uint8_t *) "abc", 3,
                                        &consumed, NULL, 0, &produced), ==, 0);
      g_assert_cmpuint (produced, ==, 0);
      g_assert_cmpint (pl_deflate_push (&d, (const uint8_t *) "abc" + consumed,
                                        3 - consumed, &consumed, out,
                                        sizeof out, &produced), ==, 0);
      g_byte_array_append (comp, out, produced);
      g_assert_cmpint (pl_deflate_finish (&d, NULL, 0, &produced, &done), ==, 0);
      g_assert_cmpint (done, ==, 0);
      g_assert_cmpuint (produced, ==, 0);
      while (!done)
        {
          g_assert_cmpint (pl_deflate_finish (&d, out, 1, &produced, &done),
                           ==, 0);
          g_byte_array_append (comp, out, produced);
        }
      /* Finishing again is harmless; writing after the end is not.  */
      g_assert_cmpint (pl_deflate_finish (&d, out, sizeof out, &produced,
                                          &done), ==, 0);
      g_assert_cmpint (done, ==, 1);
      g_assert_cmpuint (produced, ==, 0);
      assert_err (pl_deflate_push (&d, out, 1, &consumed, out, sizeof out,
                                   &produced), GPG_ERR_INV_STATE);
      pl_deflate_clear (&d);
      pl_deflate_clear (&d);

      g_assert_cmpint (pl_inflate_init (&z, algo), ==, 0);
      g_assert_cmpint (pl_inflate_push (&z, NULL, 0, &consumed, NULL, 0,
                                        &produced), ==, 0);
      g_assert_cmpuint (consumed + produced, ==, 0);
      g_assert_cmpint (pl_inflate_push (&z, comp->data, comp->len, &consumed,
                                        NULL, 0, &produced), ==, 0);
      g_assert_cmpuint (produced, ==, 0);
      g_assert_false (z.ended);
      {
        size_t pos = consumed, got = 0;

        while (!z.ended)
          {
            g_assert_cmpint (pl_inflate_push (&z, comp->data + pos,
                                              comp->len - pos, &consumed,
                                              out + got, 1, &produced), ==, 0);
            g_assert_true (consumed || produced || z.ended);
            pos += consumed;
            got += produced;
          }
        g_assert_cmpuint (pos, ==, comp->len);
        g_assert_cmpuint (got, ==, 3);
        g_assert_true (bytes_equal (out, "abc", 3));
      }
      g_assert_null (z.stream);
      g_assert_cmpint (pl_inflate_finish (&z), ==, 0);
      g_assert_cmpint (pl_inflate_finish (&z), ==, 0);
      pl_inflate_clear (&z);
      pl_inflate_clear (&z);
      g_byte_array_unref (comp);
    }
}

/* Lengths past 4 GiB must be clamped for zlib and libbz2, not cut down to
 * their low 32 bits.  Only the first page of each mapping is touched.  */
static void
test_huge_lengths (void)
{
#if SIZE_MAX > UINT_MAX
  const size_t map_len = ((size_t) UINT_MAX + 1) + 2 * 4096;
  uint8_t *in, *out;

  in = mmap (NULL, map_len, PROT_READ | PROT_WRITE,
             MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
  out = mmap (NULL, map_len, PROT_READ | PROT_WRITE,
              MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
  if (in == MAP_FAILED || out == MAP_FAILED)
    {
      if (in != MAP_FAILED)
        munmap (in, map_len);
      if (out != MAP_FAILED)
        munmap (out, map_len);
      g_test_skip ("cannot map 4 GiB of address space");
      return;
    }

  for (size_t i = 0; i < G_N_ELEMENTS (all_algos); i++)
    {
      int algo = all_algos[i];
      size_t len = 3000, consumed, produced, clen;
      uint8_t *data = make_data (len, 1, 5);
      pl_deflate d;
      pl_inflate z;
      int done;

      /* Truncated to 32 bits these would offer 3 and 5 octets.  */
      g_assert_cmpint (pl_deflate_init (&d, algo, 9), ==, 0);
      g_assert_cmpint (pl_deflate_push (&d, data, len, &consumed,
                                        out, (size_t) UINT_MAX + 1 + 5,
                                        &produced), ==, 0);
      g_assert_cmpuint (consumed, ==, len);
      clen = produced;
      g_assert_cmpint (pl_deflate_finish (&d, out + clen,
                                          (size_t) UINT_MAX + 1 + 5,
                                          &produced, &done), ==, 0);
      g_assert_cmpint (done, ==, 1);
      clen += produced;
      g_assert_cmpuint (clen, >, 5);
      g_assert_cmpuint (clen, <, 4096);
      pl_deflate_clear (&d);

      memcpy (in, out, clen);
      g_assert_cmpint (pl_inflate_init (&z, algo), ==, 0);
      g_assert_cmpint (pl_inflate_push (&z, in, (size_t) UINT_MAX + 1 + 3,
                                        &consumed, out,
                                        (size_t) UINT_MAX + 1 + 5,
                                        &produced), ==, 0);
      g_assert_true (z.ended);
      g_assert_cmpuint (consumed, ==, (size_t) UINT_MAX + 1 + 3);
      g_assert_cmpuint (produced, ==, len);
      g_assert_true (bytes_equal (out, data, len));
      pl_inflate_clear (&z);
      g_free (data);
    }
  munmap (in, map_len);
  munmap (out, map_len);
#else
  g_test_skip ("size_t is no wider than unsigned int");
#endif
}

int
main (int argc, char **argv)
{
  static const size_t sizes[] = { 0, 1, 4095, MIB + 1 };

  g_test_init (&argc, &argv, NULL);

  for (size_t i = 0; i < G_N_ELEMENTS (all_algos); i++)
    for (int compressible = 0; compressible < 2; compressible++)
      for (size_t k = 0; k < G_N_ELEMENTS (sizes); k++)
        {
          roundtrip_case *c = g_new (roundtrip_case, 1);
          char *path;

          c->algo = all_algos[i];
          c->compressible = compressible;
          c->size = sizes[k];
          path = g_strdup_printf ("/compress/roundtrip/%s/%s/%zu",
                                  algo_name (c->algo),
                                  compressible ? "text" : "random",
                                  c->size);
          g_test_add_data_func_full (path, c, test_roundtrip, g_free);
          g_free (path);
        }
  g_test_add_func ("/compress/foreign-streams", test_foreign_streams);
  g_test_add_data_func ("/compress/bomb/zlib",
                        GINT_TO_POINTER (PL_COMPRESS_ZLIB), test_bomb);
  g_test_add_data_func ("/compress/bomb/bzip2",
                        GINT_TO_POINTER (PL_COMPRESS_BZIP2), test_bomb);
  g_test_add_func ("/compress/damaged", test_damaged);
  g_test_add_func ("/compress/truncated", test_truncated);
  g_test_add_func ("/compress/trailing-junk", test_trailing_junk);
  g_test_add_func ("/compress/unknown-algo", test_unknown_algo);
  g_test_add_func ("/compress/bad-level", test_bad_level);
  g_test_add_func ("/compress/states", test_states);
  g_test_add_func ("/compress/huge-lengths", test_huge_lengths);

  return g_test_run ();
}
