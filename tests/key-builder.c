/* key-builder.c - keys no generator would make, for the key-safety tests */
#include "key-builder.h"
#include "packet-builder.h"
#include "packet.h"
#include "sign.h"

#include <string.h>
#include <gcrypt.h>

/* The MPI named NAME of the key S-expression S. */
static gcry_mpi_t
key_mpi (gcry_sexp_t s, const char *name)
{
  gcry_sexp_t l = gcry_sexp_find_token (s, name, 0);
  gcry_mpi_t m = gcry_sexp_nth_mpi (l, 1, GCRYMPI_FMT_USG);

  g_assert_nonnull (m);
  gcry_sexp_release (l);
  return m;
}

static void
put_mpi (GByteArray *out, gcry_mpi_t m)
{
  uint8_t buf[2 + 2048];
  size_t n;

  g_assert_cmpint (gcry_mpi_print (GCRYMPI_FMT_PGP, buf, sizeof buf, &n, m),
                   ==, 0);
  g_byte_array_append (out, buf, (guint) n);
}

void
kb_public (kb_key *k, const uint8_t *body, gsize len)
{
  memset (k, 0, sizeof *k);
  k->body = g_byte_array_new ();
  g_byte_array_append (k->body, body, (guint) len);
  g_assert_cmpint (pl_pubkey_parse (&k->pub, k->body->data, k->body->len,
                                    NULL), ==, 0);
}

/* K from the libgcrypt RSA key KEY, spoiled as HOW (kb_rsa). */
static void
rsa_from_key (kb_key *k, gcry_sexp_t key, int how, uint32_t created)
{
  gcry_mpi_t v[6];
  const char *names[6] = { "n", "e", "d", "p", "q", "u" };
  uint8_t head[6] = { 4, (uint8_t) (created >> 24), (uint8_t) (created >> 16),
                      (uint8_t) (created >> 8), (uint8_t) created, 1 };
  size_t off = 0;

  memset (k, 0, sizeof *k);
  for (int i = 0; i < 6; i++)
    v[i] = key_mpi (key, names[i]);
  if (how == KB_RSA_E1)
    {
      gcry_mpi_set_ui (v[1], 1);
      gcry_mpi_set_ui (v[2], 1);
    }
  else if (how == KB_RSA_E_EVEN)
    gcry_mpi_set_ui (v[1], 65538);
  else if (how == KB_RSA_N_EVEN)
    gcry_mpi_clear_bit (v[0], 0);
  k->body = g_byte_array_new ();
  g_byte_array_append (k->body, head, sizeof head);
  put_mpi (k->body, v[0]);
  put_mpi (k->body, v[1]);
  k->secret = g_byte_array_new ();
  for (int i = 2; i < 6; i++)
    put_mpi (k->secret, v[i]);
  g_assert_cmpint (pl_pubkey_parse (&k->pub, k->body->data, k->body->len,
                                    NULL), ==, 0);
  /* The signing key: the four secret MPIs' values, as seckey.c keeps
   * them. */
  k->sk.pub = &k->pub;
  k->sk.mem = gcry_malloc_secure (k->secret->len);
  k->sk.mem_len = k->secret->len;
  memcpy (k->sk.mem, k->secret->data, k->secret->len);
  for (int i = 0; i < 4; i++)
    {
      size_t n = ((size_t) k->sk.mem[off] << 8 | k->sk.mem[off + 1]) + 7;
      k->sk.field[i].off = off + 2;
      k->sk.field[i].len = n / 8;
      off += 2 + n / 8;
    }
  k->sk.n_fields = 4;
  for (int i = 0; i < 6; i++)
    gcry_mpi_release (v[i]);
}

static gcry_sexp_t
rsa_generate (unsigned int bits)
{
  gcry_sexp_t parm, key;

  g_assert_cmpint (gcry_sexp_build (&parm, NULL, "(genkey (rsa (nbits %u)))",
                                    bits), ==, 0);
  g_assert_cmpint (gcry_pk_genkey (&key, parm), ==, 0);
  gcry_sexp_release (parm);
  return key;
}

void
kb_rsa (kb_key *k, unsigned int bits, int how, uint32_t created)
{
  gcry_sexp_t key = rsa_generate (bits);

  rsa_from_key (k, key, how, created);
  gcry_sexp_release (key);
}

/* The keys kb_rsa_shared made, for the life of the process. */
static struct
{
  unsigned int bits, slot;
  gcry_sexp_t key;
} shared_keys[8];
static GMutex shared_lock;

void
kb_rsa_shared (kb_key *k, unsigned int bits, unsigned int slot, int how,
               uint32_t created)
{
  gcry_sexp_t key = NULL;
  gsize i;

  g_mutex_lock (&shared_lock);
  for (i = 0; i < G_N_ELEMENTS (shared_keys) && shared_keys[i].key; i++)
    if (shared_keys[i].bits == bits && shared_keys[i].slot == slot)
      {
        key = shared_keys[i].key;
        break;
      }
  if (!key)
    {
      g_assert_cmpuint (i, <, G_N_ELEMENTS (shared_keys));
      shared_keys[i].bits = bits;
      shared_keys[i].slot = slot;
      shared_keys[i].key = key = rsa_generate (bits);
    }
  g_mutex_unlock (&shared_lock);
  rsa_from_key (k, key, how, created);
}

void
kb_clear (kb_key *k)
{
  if (k->sk.mem)
    gcry_free (k->sk.mem);
  pl_pubkey_clear (&k->pub);
  if (k->body)
    g_byte_array_unref (k->body);
  if (k->secret)
    g_byte_array_unref (k->secret);
  memset (k, 0, sizeof *k);
}

/* A key packet of K: public (tag PUB_TAG), or with its secret part in the
 * clear (SECRET: usage 0, the MPIs, their two-octet checksum). */
static void
put_key (GByteArray *out, const kb_key *k, int secret, int pub_tag)
{
  GByteArray *b = g_byte_array_new ();
  unsigned int sum = 0;
  uint8_t zero = 0, cs[2];

  g_byte_array_append (b, k->body->data, k->body->len);
  if (secret && k->secret)
    {
      g_byte_array_append (b, &zero, 1);
      g_byte_array_append (b, k->secret->data, k->secret->len);
      for (guint i = 0; i < k->secret->len; i++)
        sum += k->secret->data[i];
      cs[0] = (uint8_t) (sum >> 8);
      cs[1] = (uint8_t) sum;
      g_byte_array_append (b, cs, 2);
    }
  pb_packet (out, secret && k->secret ? (pub_tag == 6 ? 5 : 7) : pub_tag,
             b->data, b->len);
  g_byte_array_unref (b);
}

static void
put_sig (GByteArray *out, kb_key *primary, int type, const pl_sig_target *t,
         uint8_t flags, uint32_t created)
{
  uint8_t sp[8], body[PL_SIG_BODY_MAX];
  size_t n = 0, len;

  pl_subpacket_put (sp, &n, 27, &flags, 1);
  g_assert_cmpint (pl_sig_sign (&primary->sk, type, t, created, sp, n, body,
                                &len), ==, 0);
  pb_packet (out, PL_PKT_SIGNATURE, body, len);
}

GBytes *
kb_cert (kb_key *primary, uint8_t primary_flags, kb_key *sub,
         uint8_t sub_flags, int secret, uint32_t created)
{
  static const char uid[] = "K <k@example.org>";
  GByteArray *out = g_byte_array_new ();
  pl_sig_target t = { &primary->pub, NULL, (const uint8_t *) uid,
                      sizeof uid - 1, 13 };

  put_key (out, primary, secret, 6);
  pb_packet (out, 13, t.uid, t.uid_len);
  put_sig (out, primary, PL_SIG_POSITIVE_CERT, &t, primary_flags, created);
  if (sub)
    {
      t.uid = NULL;
      t.uid_len = 0;
      t.subkey = &sub->pub;
      put_key (out, sub, secret, 14);
      put_sig (out, primary, PL_SIG_SUBKEY_BINDING, &t, sub_flags, created);
    }
  return g_byte_array_free_to_bytes (out);
}
