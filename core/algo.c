/* algo.c - OpenPGP algorithm tables */
#include "algo.h"

#include <string.h>
#include <strings.h>
#include <ctype.h>

typedef struct
{
  int id;
  int gcry;
  const char *name;
} cipher_entry;

static const cipher_entry cipher_table[] = {
  { PL_CIPHER_IDEA, GCRY_CIPHER_IDEA, "IDEA" },
  { PL_CIPHER_3DES, GCRY_CIPHER_3DES, "3DES" },
  { PL_CIPHER_CAST5, GCRY_CIPHER_CAST5, "CAST5" },
  { PL_CIPHER_BLOWFISH, GCRY_CIPHER_BLOWFISH, "Blowfish" },
  { PL_CIPHER_AES128, GCRY_CIPHER_AES128, "AES-128" },
  { PL_CIPHER_AES192, GCRY_CIPHER_AES192, "AES-192" },
  { PL_CIPHER_AES256, GCRY_CIPHER_AES256, "AES-256" },
  { PL_CIPHER_TWOFISH, GCRY_CIPHER_TWOFISH, "Twofish" },
  { PL_CIPHER_CAMELLIA128, GCRY_CIPHER_CAMELLIA128, "Camellia-128" },
  { PL_CIPHER_CAMELLIA192, GCRY_CIPHER_CAMELLIA192, "Camellia-192" },
  { PL_CIPHER_CAMELLIA256, GCRY_CIPHER_CAMELLIA256, "Camellia-256" },
};

static const cipher_entry *
find_cipher (int id)
{
  for (size_t i = 0; i < sizeof cipher_table / sizeof cipher_table[0]; i++)
    if (cipher_table[i].id == id)
      return &cipher_table[i];
  return NULL;
}

int
pl_cipher_gcry_algo (int cipher_algo)
{
  const cipher_entry *e = find_cipher (cipher_algo);
  if (!e || gcry_cipher_test_algo (e->gcry))
    return 0;
  return e->gcry;
}

size_t
pl_cipher_key_length (int cipher_algo)
{
  const cipher_entry *e = find_cipher (cipher_algo);
  return e ? gcry_cipher_get_algo_keylen (e->gcry) : 0;
}

size_t
pl_cipher_block_length (int cipher_algo)
{
  const cipher_entry *e = find_cipher (cipher_algo);
  return e ? gcry_cipher_get_algo_blklen (e->gcry) : 0;
}

const char *
pl_cipher_name (int cipher_algo)
{
  const cipher_entry *e = find_cipher (cipher_algo);
  return e ? e->name : "unknown";
}

/* Drops dashes, underscores and case, so that "aes-256", "AES256",
 * "aes256" (the settings' spelling) and "AES-256" (the table's) agree. */
static void
normalize_name (const char *name, char *norm, size_t size)
{
  size_t n = 0;

  for (const char *s = name; *s && n + 1 < size; s++)
    if (*s != '-' && *s != '_')
      norm[n++] = (char) toupper ((unsigned char) *s);
  norm[n] = 0;
}

int
pl_cipher_from_name (const char *name)
{
  char norm[32], entry[32];

  normalize_name (name, norm, sizeof norm);
  if (!strcmp (norm, "AES"))
    return PL_CIPHER_AES128;
  if (!strcmp (norm, "TRIPLEDES"))
    return PL_CIPHER_3DES;
  for (size_t i = 0; i < sizeof cipher_table / sizeof cipher_table[0]; i++)
    {
      normalize_name (cipher_table[i].name, entry, sizeof entry);
      if (!strcmp (norm, entry))
        return cipher_table[i].id;
    }
  return 0;
}

typedef struct
{
  int id;
  int gcry;
} hash_entry;

static const hash_entry hash_table[] = {
  { PL_HASH_MD5, GCRY_MD_MD5 },
  { PL_HASH_SHA1, GCRY_MD_SHA1 },
  { PL_HASH_RIPEMD160, GCRY_MD_RMD160 },
  { PL_HASH_SHA256, GCRY_MD_SHA256 },
  { PL_HASH_SHA384, GCRY_MD_SHA384 },
  { PL_HASH_SHA512, GCRY_MD_SHA512 },
  { PL_HASH_SHA224, GCRY_MD_SHA224 },
  { PL_HASH_SHA3_256, GCRY_MD_SHA3_256 },
  { PL_HASH_SHA3_512, GCRY_MD_SHA3_512 },
};

int
pl_hash_gcry_algo (int hash_algo)
{
  for (size_t i = 0; i < sizeof hash_table / sizeof hash_table[0]; i++)
    if (hash_table[i].id == hash_algo)
      return gcry_md_test_algo (hash_table[i].gcry) ? 0 : hash_table[i].gcry;
  return 0;
}

size_t
pl_aead_nonce_length (int aead_algo)
{
  switch (aead_algo)
    {
    case PL_AEAD_EAX: return 16;
    case PL_AEAD_OCB: return 15;
    case PL_AEAD_GCM: return 12;
    default: return 0;
    }
}

int
pl_aead_gcry_mode (int aead_algo)
{
  switch (aead_algo)
    {
    case PL_AEAD_EAX: return GCRY_CIPHER_MODE_EAX;
    case PL_AEAD_OCB: return GCRY_CIPHER_MODE_OCB;
    case PL_AEAD_GCM: return GCRY_CIPHER_MODE_GCM;
    default: return 0;
    }
}

const char *
pl_aead_name (int aead_algo)
{
  switch (aead_algo)
    {
    case PL_AEAD_EAX: return "EAX";
    case PL_AEAD_OCB: return "OCB";
    case PL_AEAD_GCM: return "GCM";
    default: return "unknown";
    }
}

int
pl_equal_const_time (const void *a, const void *b, size_t len)
{
  const volatile unsigned char *x = a;
  const volatile unsigned char *y = b;
  unsigned char acc = 0;

  for (size_t i = 0; i < len; i++)
    acc |= x[i] ^ y[i];
  return acc == 0;
}

void
pl_wipe (void *p, size_t len)
{
  /* memset at full speed, with a barrier the compiler may not remove:
   * a byte loop through a volatile pointer wipes a 4 MiB AEAD buffer at
   * a tenth of the speed. */
  if (len)
    explicit_bzero (p, len);
}
