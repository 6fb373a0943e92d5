/* gen-seeds.c - writes seed inputs for the fuzz targets
 *
 * Usage: gen-seeds DIR
 * Writes DIR/decrypt/, DIR/armor/, DIR/inflate/ and DIR/sniff/: messages encrypted by
 * the engine itself to the passphrase "fuzz" with the cheapest S2K (so
 * that the fuzzer gets past the key derivation thousands of times a
 * second), for every profile, several ciphers, every compression, armored
 * and not, text and binary, tiny AEAD chunks; and raw compressed streams.
 * Each file starts with the octet the target reads first, but for
 * DIR/sniff/ (the messages as they are, and by hand the shapes that no
 * encryption writes: keys, PKESKs, unencrypted literal data holding tar).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "algo.h"
#include "compress.h"
#include "job.h"

static const char *dir;
static int count;

static void
put (const char *target, const char *name, uint8_t first,
     const uint8_t *data, size_t len)
{
  char path[4096];
  FILE *f;

  snprintf (path, sizeof path, "%s/%s/%s", dir, target, name);
  f = fopen (path, "wb");
  if (!f || fputc (first, f) == EOF || fwrite (data, 1, len, f) != len
      || fclose (f))
    {
      fprintf (stderr, "gen-seeds: %s: %s\n", path, strerror (errno));
      exit (1);
    }
  count++;
}

/* For the sniffer: the octets as a file holds them. */
static void
put_raw (const char *name, const uint8_t *data, size_t len)
{
  char path[4096];
  FILE *f;

  snprintf (path, sizeof path, "%s/sniff/%s", dir, name);
  f = fopen (path, "wb");
  if (!f || fwrite (data, 1, len, f) != len || fclose (f))
    {
      fprintf (stderr, "gen-seeds: %s: %s\n", path, strerror (errno));
      exit (1);
    }
  count++;
}

static const char plaintext[] =
  "Padlock fuzz seed.\r\nA second line\nand a third, with no end";

static void hostile_seeds (const uint8_t *m, size_t len);
/* When set, message () also derives the hostile seeds from its output. */
static int hostile_next;

/* When not NULL, message () encrypts this instead of PLAINTEXT. */
static const uint8_t *big_text;
static size_t big_len;

static void
message (const char *name, pl_profile profile, int cipher, int compress,
         int armor, int format, int chunk_octet)
{
  pl_encrypt_options o;
  pl_source *src;
  pl_sink *sink;
  const uint8_t *out;
  size_t len;
  gpg_error_t err;

  pl_encrypt_options_init (&o);
  o.profile = profile;
  o.cipher_algo = cipher;
  o.compress_algo = compress;
  o.armor = armor;
  o.literal_format = format;
  o.file_name = "seed.txt";
  o.file_date = 1700000000;
  o.chunk_octet = chunk_octet;
  o.s2k_ms = 1;
  o.argon2_memory_exp = 3;
  o.argon2_passes = 1;
  o.argon2_parallelism = 1;
  src = big_text ? pl_source_new_memory (big_text, big_len)
                 : pl_source_new_memory (plaintext, sizeof plaintext - 1);
  sink = pl_sink_new_memory ();
  {
    pl_opener key = pl_opener_passphrase ("fuzz", 4);
    o.openers = &key;
    o.n_openers = 1;
    err = pl_encrypt (src, sink, &o, NULL);
  }
  if (err)
    {
      fprintf (stderr, "gen-seeds: %s: %s\n", name, gpg_strerror (err));
      exit (1);
    }
  out = pl_sink_memory_data (sink, &len);
  /* Whole blocks, and reads of 13 octets (armor needs a first read that
   * holds its BEGIN line: 0x40). */
  {
    char n2[256];
    put ("decrypt", name, 0, out, len);
    snprintf (n2, sizeof n2, "%s-r%d", name, armor ? 0x40 : 13);
    put ("decrypt", n2, armor ? 0x40 : 13, out, len);
    /* The top bit gives the job two threads (asynchronous sink writes,
     * SEIPD v1 hashing on a thread of its own). */
    snprintf (n2, sizeof n2, "%s-t2", name);
    put ("decrypt", n2, 0x80, out, len);
  }
  if (armor)
    put ("armor", name, (uint8_t) len, out, len);
  put_raw (name, out, len);
  if (hostile_next)
    {
      hostile_next = 0;
      hostile_seeds (out, len);
    }
  pl_source_free (src);
  pl_sink_free (sink);
}

/* Hostile shapes (issue 11), made from an engine message M of LEN octets
 * (rfc4880, binary, definite lengths) by hand: the key derivation and
 * framing bombs that tests/test-hostile.c builds, as seeds. */
static uint8_t hostile_buf[1 << 21];
static size_t hostile_len;

static void
emit (const void *p, size_t n)
{
  if (hostile_len + n > sizeof hostile_buf)
    exit (1);
  memcpy (hostile_buf + hostile_len, p, n);
  hostile_len += n;
}

static void
emit_packet (int tag, const uint8_t *body, size_t n)
{
  uint8_t h[6];
  size_t hl = 0;

  h[hl++] = (uint8_t) (0xC0 | tag);
  h[hl++] = 0xFF;
  h[hl++] = (uint8_t) (n >> 24);
  h[hl++] = (uint8_t) (n >> 16);
  h[hl++] = (uint8_t) (n >> 8);
  h[hl++] = (uint8_t) n;
  emit (h, hl);
  emit (body, n);
}

/* A v6 SKESK with Argon2 (T, P, 2^M KiB) that opens nothing. */
static void
emit_argon2_skesk (uint8_t t, uint8_t p, uint8_t m, uint8_t salt)
{
  uint8_t body[88] = { 6, 38, 9, 2, 20, 4 };
  memset (body + 6, salt, 16);
  body[22] = t;
  body[23] = p;
  body[24] = m;
  memset (body + 25, 0x5a, sizeof body - 25);
  emit_packet (3, body, sizeof body);
}

/* The packets of M: a new-format header with a definite length each. */
static size_t
next_packet (const uint8_t *m, size_t len, size_t at, int *tag,
             size_t *body_at, size_t *body_len)
{
  size_t i = at + 1;

  *tag = m[at] & 0x3f;
  if (m[i] < 192)
    *body_len = m[i++];
  else if (m[i] < 224)
    {
      *body_len = ((size_t) (m[i] - 192) << 8) + m[i + 1] + 192;
      i += 2;
    }
  else
    {
      *body_len = (size_t) m[i + 1] << 24 | (size_t) m[i + 2] << 16
                  | (size_t) m[i + 3] << 8 | m[i + 4];
      i += 5;
    }
  *body_at = i;
  return i + *body_len <= len ? i + *body_len : len;
}

static void
hostile_seeds (const uint8_t *m, size_t len)
{
  static const uint8_t junk[5] = { 1, 2, 3, 4, 5 };
  uint8_t big[600] = { 4, 9, 3, 8 };
  size_t at, body_at, body_len;
  int tag;

  /* Argon2 asking for 255 passes over 2 GiB; sixteen at the cap. */
  hostile_len = 0;
  emit_argon2_skesk (255, 4, 21, 1);
  emit (m, len);
  put ("decrypt", "hostile-argon2-bomb", 0, hostile_buf, hostile_len);
  hostile_len = 0;
  for (int i = 0; i < 16; i++)
    emit_argon2_skesk (1, 4, 21, (uint8_t) i);
  emit (m, len);
  put ("decrypt", "hostile-budget", 0, hostile_buf, hostile_len);
  /* Seventeen SKESKs, the one that opens it last. */
  hostile_len = 0;
  for (int i = 0; i < 16; i++)
    emit_argon2_skesk (1, 1, 3, (uint8_t) i);
  emit (m, len);
  put ("decrypt", "hostile-too-many-keys", 0, hostile_buf, hostile_len);
  /* Unknown non-critical packets around everything; an oversized SKESK;
   * an indeterminate one at the end. */
  hostile_len = 0;
  emit_packet (40, junk, sizeof junk);
  emit (m, len);
  emit_packet (63, junk, sizeof junk);
  put ("decrypt", "hostile-unknown-packets", 0, hostile_buf, hostile_len);
  hostile_len = 0;
  emit_packet (3, big, sizeof big);
  emit (m, len);
  put ("decrypt", "hostile-skesk-600", 0, hostile_buf, hostile_len);
  hostile_len = 0;
  emit (m, len);
  {
    uint8_t ind = 0x80 | (3 << 2) | 3;
    emit (&ind, 1);
    emit (big, 13);
  }
  put ("decrypt", "hostile-skesk-indeterminate", 0, hostile_buf,
       hostile_len);
  /* The encrypted packet in one-octet partial lengths after the first
   * 512 (RFC 9580 §4.2.1.4). */
  hostile_len = 0;
  for (at = 0; at < len; at = body_at + body_len)
    {
      next_packet (m, len, at, &tag, &body_at, &body_len);
      if (tag != 18 || body_len <= 513)
        {
          emit (m + at, body_at + body_len - at);
          continue;
        }
      {
        uint8_t h[2] = { 0xC0 | 18, 0xE9 }, one = 0xE0, last = 1;
        emit (h, 2);
        emit (m + body_at, 512);
        for (size_t i = 512; i + 1 < body_len; i++)
          {
            emit (&one, 1);
            emit (m + body_at + i, 1);
          }
        emit (&last, 1);
        emit (m + body_at + body_len - 1, 1);
      }
    }
  put ("decrypt", "hostile-one-octet-partials", 0, hostile_buf, hostile_len);
}

static void
compressed (int algo, int level, const char *name, const uint8_t *in,
            size_t inlen)
{
  pl_deflate z;
  uint8_t buf[65536];
  size_t len = 0, used, produced;
  int done = 0;

  if (pl_deflate_init (&z, algo, level)
      || pl_deflate_push (&z, in, inlen, &used, buf, sizeof buf, &produced)
      || used != inlen)
    exit (1);
  len = produced;
  while (!done)
    {
      if (pl_deflate_finish (&z, buf + len, sizeof buf - len, &produced,
                             &done))
        exit (1);
      len += produced;
    }
  pl_deflate_clear (&z);
  /* The target takes algo = 1 + octet % 3. */
  put ("inflate", name, (uint8_t) (algo - 1), buf, len);
}

/* Shapes for the sniffer that pl_encrypt never writes. */
static void
sniff_seeds (void)
{
  static const uint8_t key[] = {
    0x99, 0x00, 0x33, 4, 0x65, 0, 0, 0, 22, 9, 0x2b, 0x06, 0x01, 0x04, 0x01,
    0xda, 0x47, 0x0f, 0x01, 0x01, 0x07, 0x40, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10,
    11, 12, 13, 14, 15, 16, 17, 18, 19, 20, 21, 22, 23, 24, 25, 26, 27, 28,
    29, 30, 31, 32, 0xb4, 0x05, 'A', 'l', 'i', 'c', 'e'
  };
  static const uint8_t pkesk[] = {
    0xc1, 0x0c, 3, 1, 2, 3, 4, 5, 6, 7, 8, 1, 0xaa, 0xbb,
    0xc1, 0x18, 6, 21, 4, 0x40, 0x41, 0x42, 0x43, 0x44, 0x45, 0x46, 0x47,
    0x48, 0x49, 0x4a, 0x4b, 0x4c, 0x4d, 0x4e, 0x4f, 0x50, 0x51, 0x52, 0x53,
    18,
    0xc1, 0x04, 6, 0, 25, 0xcc,
    0xd2, 0x03, 1, 0xdd, 0xee
  };
  unsigned long sum = 0;
  uint8_t *h;

  put_raw ("key-v4-eddsa", key, sizeof key);
  put_raw ("pkesk-v3-v6", pkesk, sizeof pkesk);
  /* A literal packet (new format, 'b', no name) holding a tar header:
   * tag, 0xff, four length octets, then the body. */
  {
    uint8_t msg[6 + 6 + 512 + 16];
    uint32_t body = 6 + 512 + 16;
    memset (msg, 0, sizeof msg);
    msg[0] = 0xcb;
    msg[1] = 0xff;
    msg[2] = (uint8_t) (body >> 24);
    msg[3] = (uint8_t) (body >> 16);
    msg[4] = (uint8_t) (body >> 8);
    msg[5] = (uint8_t) body;
    msg[6] = 'b';
    h = msg + 12;
    strcpy ((char *) h, "folder/a.txt");
    memcpy (h + 100, "0000644", 7);
    memcpy (h + 124, "00000000016", 11);
    h[156] = '0';
    memcpy (h + 257, "ustar\0" "00", 8);
    memset (h + 148, ' ', 8);
    for (int i = 0; i < 512; i++)
      sum += h[i];
    snprintf ((char *) h + 148, 8, "%06lo", sum);
    put_raw ("literal-tar", msg, sizeof msg);
  }
}

int
main (int argc, char **argv)
{
  static const struct { const char *name; pl_profile p; } profiles[] = {
    { "rfc4880", PL_PROFILE_RFC4880 },
    { "librepgp", PL_PROFILE_LIBREPGP },
    { "rfc9580", PL_PROFILE_RFC9580 },
  };
  static const int ciphers[] = { PL_CIPHER_AES256, PL_CIPHER_AES128,
                                 PL_CIPHER_CAST5, PL_CIPHER_CAMELLIA192 };
  char name[256], sub[4096];
  uint8_t big[6000];

  if (argc != 2)
    {
      fprintf (stderr, "usage: gen-seeds DIR\n");
      return 2;
    }
  dir = argv[1];
  mkdir (dir, 0755);
  for (int i = 0; i < 4; i++)
    {
      static const char *const targets[] = { "decrypt", "armor", "inflate",
                                              "sniff" };
      snprintf (sub, sizeof sub, "%s/%s", dir, targets[i]);
      mkdir (sub, 0755);
    }
  if (pl_init ())
    return 1;

  for (size_t p = 0; p < 3; p++)
    for (int armor = 0; armor < 2; armor++)
      for (int comp = 0; comp <= 3; comp++)
        {
          snprintf (name, sizeof name, "%s-%s-z%d", profiles[p].name,
                    armor ? "asc" : "bin", comp);
          message (name, profiles[p].p, PL_CIPHER_AES256, comp, armor, 'b',
                   -1);
        }
  for (size_t p = 0; p < 3; p++)
    for (size_t c = 1; c < sizeof ciphers / sizeof *ciphers; c++)
      {
        /* AEAD takes 128-bit block ciphers only. */
        if (p && pl_cipher_block_length (ciphers[c]) != 16)
          continue;
        snprintf (name, sizeof name, "%s-cipher%d-text", profiles[p].name,
                  ciphers[c]);
        message (name, profiles[p].p, ciphers[c], 0, 0, 't', -1);
      }
  /* Hostile shapes around a plain rfc4880 message (2 KB, so that its
   * encrypted packet is long enough to reframe). */
  {
    static uint8_t text[2000];
    memset (text, 'h', sizeof text);
    big_text = text;
    big_len = sizeof text;
    hostile_next = 1;
    message ("rfc4880-hostile-base", PL_PROFILE_RFC4880, PL_CIPHER_AES256,
             0, 0, 'b', -1);
    big_text = NULL;
  }
  /* A decompression bomb: a megabyte and a half of zeros in BZip2 is
   * more than 1000-fold past fuzz-decrypt's 1 MiB floor. */
  {
    static uint8_t zeros[3u << 19];
    big_text = zeros;
    big_len = sizeof zeros;
    message ("hostile-bzip2-bomb", PL_PROFILE_RFC4880, PL_CIPHER_AES256, 3,
             0, 'b', -1);
    big_text = NULL;
  }
  /* The smallest AEAD chunk (64 octets) puts several chunks in a seed. */
  message ("librepgp-chunk0", PL_PROFILE_LIBREPGP, PL_CIPHER_AES128, 0, 0,
           'u', 0);
  message ("rfc9580-chunk0", PL_PROFILE_RFC9580, PL_CIPHER_AES128, 0, 1,
           'u', 0);

  /* 300 KB that compress to a few hundred octets: plaintext blocks of
   * 64 KiB and more take the paths that hand writes to a thread. */
  {
    static uint8_t huge[300000];
    for (size_t i = 0; i < sizeof huge; i++)
      huge[i] = (uint8_t) ("Padlock\r\n"[i % 9]);
    big_text = huge;
    big_len = sizeof huge;
    message ("rfc4880-big-z2", PL_PROFILE_RFC4880, PL_CIPHER_AES256, 2, 0,
             't', -1);
    message ("rfc9580-big-z3", PL_PROFILE_RFC9580, PL_CIPHER_AES256, 3, 0,
             'b', -1);
    message ("librepgp-big-z1", PL_PROFILE_LIBREPGP, PL_CIPHER_AES128, 1, 1,
             'b', 0);
    big_text = NULL;
  }
  for (size_t i = 0; i < sizeof big; i++)
    big[i] = (uint8_t) ("abcabcabd\n"[i % 10] + (i % 97 == 0));
  for (int algo = 1; algo <= 3; algo++)
    {
      snprintf (name, sizeof name, "algo%d-text", algo);
      compressed (algo, 6, name, (const uint8_t *) plaintext,
                  sizeof plaintext - 1);
      snprintf (name, sizeof name, "algo%d-big", algo);
      compressed (algo, 9, name, big, sizeof big);
      snprintf (name, sizeof name, "algo%d-empty", algo);
      compressed (algo, 1, name, NULL, 0);
    }
  sniff_seeds ();
  printf ("gen-seeds: %d seeds in %s\n", count, dir);
  return 0;
}
