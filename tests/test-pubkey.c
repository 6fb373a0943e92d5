/* test-pubkey.c - public-key packets (core/pubkey.h) against RFC 9580's
 * samples: A.1's v4 Ed25519Legacy key and A.3's v6 Ed25519 key and X25519
 * subkey, their fields, fingerprints and key IDs; every cut of a packet,
 * an unknown version or algorithm refused; MPIs written and read back.
 * (Certificates, which hold these keys, are test-cert's.) */
#include <string.h>
#include "testutil.h"
#include "pubkey.h"

/* RFC 9580 A.1: the Public-Key packet's body (after its header 98 33). */
static const char a1_body[] =
  "04 53 f3 5f 0b 16 09 2b 06 01 04 01 da 47 0f 01 01 07 40 3f 09 89"
  "94 bd d9 16 ed 40 53 19 79 34 e4 a8 7c 80 73 3a 12 80 d6 2f 80 10"
  "99 2e 43 ee 3b 24 06";

static void
assert_fpr (const pl_pubkey *k, const char *want_hex)
{
  char out[2 * PL_FPR_MAX + 3];
  g_autofree char *want = g_strconcat ("0x", want_hex, NULL);

  pl_fpr_format (k->fpr, k->fpr_len, out);
  g_assert_cmpstr (out, ==, want);
}

static void
test_a1_v4 (void)
{
  g_autoptr(GByteArray) body = tu_unhex (a1_body);
  pl_pubkey k;
  size_t used = 0;

  g_assert_cmpint (pl_pubkey_parse (&k, body->data, body->len, &used), ==, 0);
  g_assert_cmpuint (used, ==, body->len);
  g_assert_cmpint (k.version, ==, 4);
  g_assert_cmpuint (k.created, ==, 0x53f35f0b);        /* 2014-08-19 */
  g_assert_cmpint (k.algo, ==, PL_PK_EDDSA);
  g_assert_cmpint (k.curve, ==, PL_CURVE_ED25519_LEGACY);
  g_assert_cmpint (k.safety, ==, PL_KEY_SAFE);
  g_assert_true (pl_pubkey_can_sign (&k));
  g_assert_false (pl_pubkey_can_encrypt (&k));
  g_assert_cmpuint (k.fpr_len, ==, 20);
  assert_fpr (&k, "C959BDBAFA32A2F89A153B678CFDE12197965A9A");
  /* v4: the key ID is the fingerprint's last eight octets. */
  tu_assert_hex (k.keyid, 8, "8CFDE12197965A9A");
  /* The point q, without its MPI length (RFC 9580 A.1). */
  tu_assert_hex (pl_pubkey_field (&k, 0), k.field[0].len,
                 "403f098994bdd916ed4053197934e4a87c80733a1280d62f8010992e"
                 "43ee3b2406");
  pl_pubkey_clear (&k);
}

/* RFC 9580 A.3: the primary (tag 6) and the subkey (tag 14). */
static void
test_a3_v6 (void)
{
  g_autoptr(GBytes) armored = tu_data_bytes ("rfc9580-a3-cert.asc");
  g_autoptr(GBytes) cert = tu_dearmor (g_bytes_get_data (armored, NULL));
  const guint8 *p = g_bytes_get_data (cert, NULL);
  g_autoptr(GArray) packets = tu_split_packets (p, g_bytes_get_size (cert));
  const tu_packet *pk = (const tu_packet *) packets->data;
  pl_pubkey primary, sub;

  g_assert_cmpuint (packets->len, ==, 4);
  g_assert_cmpint (pk[0].tag, ==, 6);
  g_assert_cmpint (pk[2].tag, ==, 14);
  g_assert_cmpint (pl_pubkey_parse (&primary, pk[0].body, pk[0].len, NULL),
                   ==, 0);
  g_assert_cmpint (pl_pubkey_parse (&sub, pk[2].body, pk[2].len, NULL), ==,
                   0);
  g_assert_cmpint (primary.version, ==, 6);
  g_assert_cmpint (primary.algo, ==, PL_PK_ED25519);
  g_assert_true (pl_pubkey_can_sign (&primary));
  g_assert_false (pl_pubkey_can_encrypt (&primary));
  g_assert_cmpuint (primary.fpr_len, ==, 32);
  assert_fpr (&primary,
              "CB186C4F0609A697E4D52DFA6C722B0C1F1E27C18A56708F6525EC27BAD9ACC9");
  /* v6: the key ID is the fingerprint's first eight octets. */
  tu_assert_hex (primary.keyid, 8, "CB186C4F0609A697");
  g_assert_cmpint (sub.version, ==, 6);
  g_assert_cmpint (sub.algo, ==, PL_PK_X25519);
  g_assert_true (pl_pubkey_can_encrypt (&sub));
  g_assert_false (pl_pubkey_can_sign (&sub));
  assert_fpr (&sub,
              "12C83F1E706F6308FE151A417743A1F033790E93E9978488D1DB378DA9930885");
  g_assert_cmpint (sub.safety, ==, PL_KEY_SAFE);
  pl_pubkey_clear (&primary);
  pl_pubkey_clear (&sub);
}

/* Every cut of a key packet is refused, and so are versions 3 and 5 and
 * an algorithm RFC 9580 does not name. */
static void
test_refusals (void)
{
  g_autoptr(GByteArray) body = tu_unhex (a1_body);
  pl_pubkey k;

  for (size_t cut = 0; cut < body->len; cut++)
    {
      gpg_error_t err = pl_pubkey_parse (&k, body->data, cut, NULL);

      if (!err)
        g_error ("%zu of %u octets parsed", cut, body->len);
    }
  for (int v = 0; v < 8; v++)
    {
      if (v == 4)
        continue;
      body->data[0] = (guint8) v;
      g_assert_cmpint (gpg_err_code (pl_pubkey_parse (&k, body->data,
                                                      body->len, NULL)),
                       ==, v == 6 ? GPG_ERR_INV_PACKET
                                  : GPG_ERR_UNKNOWN_VERSION);
    }
  body->data[0] = 4;
  body->data[5] = 99;           /* the algorithm */
  g_assert_cmpint (gpg_err_code (pl_pubkey_parse (&k, body->data, body->len,
                                                  NULL)),
                   ==, GPG_ERR_PUBKEY_ALGO);
}

/* MPIs (RFC 9580 §3.2): leading zero octets dropped, the bit count that
 * of the first set bit; read back at its place; over MAX_BITS or cut
 * short refused. */
static void
test_mpi (void)
{
  static const struct { const char *value, *mpi; } cases[] = {
    { "01", "0001 01" },
    { "00 00 01 ff", "0009 01ff" },
    { "80 00", "0010 8000" },
    { "7f", "0007 7f" },
  };

  for (gsize i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_autoptr(GByteArray) value = tu_unhex (cases[i].value);
      g_autoptr(GByteArray) want = tu_unhex (cases[i].mpi);
      guint8 out[16];
      size_t n = pl_mpi_write (value->data, value->len, out);
      size_t off = 0, len = 0, used = 0;

      g_assert_cmpmem (out, n, want->data, want->len);
      g_assert_cmpint (pl_mpi_read (out, n, 64, &off, &len, &used), ==, 0);
      g_assert_cmpuint (used, ==, n);
      g_assert_cmpuint (off, ==, 2);
      g_assert_cmpmem (out + off, len, want->data + 2, want->len - 2);
      for (size_t cut = 0; cut < n; cut++)
        g_assert_cmpint (gpg_err_code (pl_mpi_read (out, cut, 64, &off, &len,
                                                    &used)),
                         ==, GPG_ERR_INV_PACKET);
      /* One bit over the limit. */
      g_assert_cmpint (gpg_err_code (pl_mpi_read (out, n,
                                                  (out[0] << 8 | out[1]) - 1,
                                                  &off, &len, &used)),
                       ==, GPG_ERR_INV_PACKET);
    }
}

int
main (int argc, char **argv)
{
  tu_init (&argc, &argv);
  g_test_add_func ("/pubkey/rfc9580-a1-v4", test_a1_v4);
  g_test_add_func ("/pubkey/rfc9580-a3-v6", test_a3_v6);
  g_test_add_func ("/pubkey/refusals", test_refusals);
  g_test_add_func ("/pubkey/mpi", test_mpi);
  return g_test_run ();
}
