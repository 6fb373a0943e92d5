/* test-sig.c - signature packets on keys (core/sig.h) against RFC 9580's
 * samples: A.2's v4 signature parsed field by field; A.3's v6 direct-key
 * signature and subkey binding parsed and verified, refused when an
 * octet of the signature changes, over the wrong subkey, by the wrong
 * key, and by the clock's policy (made in the future, words for it);
 * every cut of a packet refused.  (Certificates are test-cert's, data
 * signatures test-verify's.) */
#include <string.h>
#include "testutil.h"
#include "algo.h"
#include "sig.h"

/* RFC 9580 A.2: the signature packet's body (after its header 88 5e). */
static const char a2_body[] =
  "04 00 16 08 00 06 05 02 55 f9 5f 95 00 0a 09 10 8c fd e1 21 97 96"
  "5a 9a f6 22 00 ff 56 f9 0c ca 98 e2 10 26 37 bd 98 3f db 16 c1 31"
  "df d2 7e d8 2b f4 dd e5 60 6e 0d 75 6a ed 33 66 01 00 d0 9c 4f a1"
  "15 27 f0 38 e0 f5 7f 22 01 d8 2f 2e a2 c9 03 32 65 fa 6c eb 48 9e"
  "85 4b ae 61 b4 04";

/* A.3 made at 2022-11-30 16:08:03 UTC. */
#define A3_CREATED 0x63877fe3u

typedef struct
{
  GBytes *cert;
  GArray *packets;
  pl_pubkey primary, sub;
  pl_sig direct, binding;
} a3;

static void
a3_load (a3 *t)
{
  g_autoptr(GBytes) armored = tu_data_bytes ("rfc9580-a3-cert.asc");
  const tu_packet *pk;

  t->cert = tu_dearmor (g_bytes_get_data (armored, NULL));
  t->packets = tu_split_packets (g_bytes_get_data (t->cert, NULL),
                                 g_bytes_get_size (t->cert));
  g_assert_cmpuint (t->packets->len, ==, 4);
  pk = (const tu_packet *) t->packets->data;
  g_assert_cmpint (pk[1].tag, ==, 2);
  g_assert_cmpint (pk[3].tag, ==, 2);
  g_assert_cmpint (pl_pubkey_parse (&t->primary, pk[0].body, pk[0].len,
                                    NULL), ==, 0);
  g_assert_cmpint (pl_pubkey_parse (&t->sub, pk[2].body, pk[2].len, NULL),
                   ==, 0);
  g_assert_cmpint (pl_sig_parse (&t->direct, pk[1].body, pk[1].len), ==, 0);
  g_assert_cmpint (pl_sig_parse (&t->binding, pk[3].body, pk[3].len), ==, 0);
}

static void
a3_clear (a3 *t)
{
  pl_sig_clear (&t->direct);
  pl_sig_clear (&t->binding);
  pl_pubkey_clear (&t->primary);
  pl_pubkey_clear (&t->sub);
  g_array_unref (t->packets);
  g_bytes_unref (t->cert);
}

static void
test_a2_v4 (void)
{
  g_autoptr(GByteArray) body = tu_unhex (a2_body);
  pl_sig s;

  g_assert_cmpint (pl_sig_parse (&s, body->data, body->len), ==, 0);
  g_assert_cmpint (s.version, ==, 4);
  g_assert_cmpint (s.type, ==, PL_SIG_BINARY);
  g_assert_cmpint (s.pk_algo, ==, PL_PK_EDDSA);
  g_assert_cmpint (s.hash_algo, ==, PL_HASH_SHA256);
  g_assert_cmpuint (s.created, ==, 0x55f95f95);        /* 2015-09-16 */
  g_assert_true (s.has_issuer);
  tu_assert_hex (s.issuer, 8, "8CFDE12197965A9A");
  tu_assert_hex (s.left16, 2, "f622");
  g_assert_cmpint (s.n_fields, ==, 2);
  tu_assert_hex (s.body + s.field[0].off, s.field[0].len,
                 "56f90cca98e2102637bd983fdb16c131dfd27ed82bf4dde5606e0d75"
                 "6aed3366");
  tu_assert_hex (s.body + s.field[1].off, s.field[1].len,
                 "d09c4fa11527f038e0f57f2201d82f2ea2c9033265fa6ceb489e854b"
                 "ae61b404");
  pl_sig_clear (&s);
}

static void
test_a3_v6 (void)
{
  a3 t;
  pl_sig_target direct = { .primary = &t.primary };
  pl_sig_target binding = { .primary = &t.primary, .subkey = &t.sub };
  const uint32_t now = (uint32_t) (g_get_real_time () / G_USEC_PER_SEC);

  a3_load (&t);
  g_assert_cmpint (t.direct.version, ==, 6);
  g_assert_cmpint (t.direct.type, ==, PL_SIG_DIRECT_KEY);
  g_assert_cmpint (t.binding.type, ==, PL_SIG_SUBKEY_BINDING);
  for (int i = 0; i < 2; i++)
    {
      const pl_sig *s = i ? &t.binding : &t.direct;

      g_assert_cmpint (s->pk_algo, ==, PL_PK_ED25519);
      g_assert_cmpint (s->hash_algo, ==, PL_HASH_SHA512);
      g_assert_cmpuint (s->salt_len, ==, pl_sig_salt_length (PL_HASH_SHA512));
      g_assert_cmpuint (s->salt_len, ==, 32);
      g_assert_cmpuint (s->created, ==, A3_CREATED);
      g_assert_cmpmem (s->issuer_fpr, s->issuer_fpr_len, t.primary.fpr,
                       t.primary.fpr_len);
      g_assert_true (s->has_key_flags);
    }
  g_assert_cmpint (t.direct.key_flags, ==,
                   PL_KEY_FLAG_CERTIFY | PL_KEY_FLAG_SIGN);
  g_assert_cmpint (t.binding.key_flags, ==,
                   PL_KEY_FLAG_ENCRYPT_COMMS | PL_KEY_FLAG_ENCRYPT_STORAGE);
  g_assert_cmpint (pl_sig_verify (&t.direct, &t.primary, &direct, now), ==, 0);
  g_assert_cmpint (pl_sig_verify (&t.binding, &t.primary, &binding, now), ==,
                   0);

  /* Over another subkey (the type says what is hashed: a direct-key
   * signature's target has no subkey), or by another key: the octets do
   * not match. */
  binding.subkey = &t.primary;
  g_assert_cmpint (gpg_err_code (pl_sig_verify (&t.binding, &t.primary,
                                                &binding, now)),
                   ==, GPG_ERR_BAD_SIGNATURE);
  binding.subkey = &t.sub;
  g_assert_cmpint (gpg_err_code (pl_sig_verify (&t.binding, &t.sub, &binding,
                                                now)),
                   ==, GPG_ERR_BAD_SIGNATURE);
  a3_clear (&t);
}

/* Each octet of the signature's value changed in turn: bad, never good
 * (the direct-key signature's last field). */
static void
test_a3_flipped (void)
{
  a3 t;
  pl_sig_target direct = { .primary = &t.primary };
  const uint32_t now = A3_CREATED + 1;

  a3_load (&t);
  for (size_t i = 0; i < t.direct.field[0].len + t.direct.field[1].len; i++)
    {
      size_t off = i < t.direct.field[0].len
                   ? t.direct.field[0].off + i
                   : t.direct.field[1].off + i - t.direct.field[0].len;

      t.direct.body[off] ^= 0x40;
      g_assert_cmpint (gpg_err_code (pl_sig_verify (&t.direct, &t.primary,
                                                    &direct, now)),
                       ==, GPG_ERR_BAD_SIGNATURE);
      t.direct.body[off] ^= 0x40;
    }
  g_assert_cmpint (pl_sig_verify (&t.direct, &t.primary, &direct, now), ==, 0);
  a3_clear (&t);
}

/* The clock: a signature may be up to PL_SIG_CLOCK_SKEW ahead of NOW,
 * not more, and that refusal is policy, with its words. */
static void
test_a3_clock (void)
{
  a3 t;
  pl_sig_target direct = { .primary = &t.primary };
  char words[128] = "";
  gpg_error_t err;

  a3_load (&t);
  g_assert_cmpint (pl_sig_check_policy (&t.direct,
                                        A3_CREATED - PL_SIG_CLOCK_SKEW), ==, 0);
  err = pl_sig_verify (&t.direct, &t.primary, &direct,
                       A3_CREATED - PL_SIG_CLOCK_SKEW - 1);
  g_assert_cmpint (gpg_err_code (err), ==, GPG_ERR_TIME_CONFLICT);
  g_assert_true (pl_sig_policy_words (&t.direct, err, words, sizeof words));
  g_assert_cmpstr (words, ==, "made in the future (2022-11-30 16:08:03 UTC)");
  g_assert_false (pl_sig_policy_words (&t.direct,
                                       gpg_error (GPG_ERR_BAD_SIGNATURE),
                                       words, sizeof words));
  a3_clear (&t);
}

/* Every cut of a signature packet is refused. */
static void
test_cuts (void)
{
  g_autoptr(GByteArray) body = tu_unhex (a2_body);
  pl_sig s;

  for (size_t cut = 0; cut < body->len; cut++)
    if (!pl_sig_parse (&s, body->data, cut))
      g_error ("%zu of %u octets parsed", cut, body->len);
}

int
main (int argc, char **argv)
{
  tu_init (&argc, &argv);
  g_test_add_func ("/sig/rfc9580-a2-v4", test_a2_v4);
  g_test_add_func ("/sig/rfc9580-a3-v6", test_a3_v6);
  g_test_add_func ("/sig/rfc9580-a3-flipped", test_a3_flipped);
  g_test_add_func ("/sig/rfc9580-a3-clock", test_a3_clock);
  g_test_add_func ("/sig/cuts", test_cuts);
  return g_test_run ();
}
