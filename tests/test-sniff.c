/* test-sniff.c - core/sniff.c: what a file is, from its first octets.
 * Real messages from the engine and gpg, every cut of them, armored and
 * binary, old and new packet headers, partial lengths, key packets built
 * by hand, keys, tar inside, and files that are not OpenPGP. */
#include "testutil.h"
#include "packet-builder.h"
#include "algo.h"
#include "compress.h"
#include "packet.h"
#include "s2k.h"
#include "sniff.h"
#include "tar.h"

#include <string.h>

static pl_sniff_result
sniff (const void *buf, gsize len, gint64 total)
{
  pl_sniff_result r;

  /* Poisoned first: every field must be written. */
  memset (&r, 0xa5, sizeof r);
  pl_sniff (buf, len, total, &r);
  return r;
}

/* An engine message for PROFILE to two passphrases (two key packets). */
static GBytes *
engine_message (int profile, int armor, int compress, gsize plain_len)
{
  pl_encrypt_options o;
  pl_opener keys[2] = { pl_opener_passphrase ("one", 3),
                     pl_opener_passphrase ("two", 3) };
  GBytes *plain = tu_random_bytes (plain_len);
  pl_source *src = pl_source_new_memory (g_bytes_get_data (plain, NULL),
                                         plain_len);
  pl_sink *sink = pl_sink_new_memory ();
  const uint8_t *d;
  size_t n;
  GBytes *out;

  pl_encrypt_options_init (&o);
  o.profile = profile;
  o.armor = armor;
  o.compress_algo = compress;
  o.openers = keys;
  o.n_openers = 2;
  tu_cheap_kdf (&o);
  g_assert_cmpuint (pl_encrypt (src, sink, &o, NULL), ==, 0);
  d = pl_sink_memory_data (sink, &n);
  out = g_bytes_new (d, n);
  pl_sink_free (sink);
  pl_source_free (src);
  g_bytes_unref (plain);
  return out;
}

static void
assert_engine_result (const pl_sniff_result *r, int profile, int armored)
{
  static const struct { int skesk, s2k, data_tag, data_version; } want[] = {
    [PL_PROFILE_RFC4880] = { 4, PL_S2K_ITERATED, PL_PKT_SEIPD, 1 },
    [PL_PROFILE_LIBREPGP] = { 5, PL_S2K_ITERATED, PL_PKT_OCB_ENCRYPTED, 1 },
    [PL_PROFILE_RFC9580] = { 6, PL_S2K_ARGON2, PL_PKT_SEIPD, 2 },
  };

  g_assert_cmpint (r->kind, ==, PL_SNIFF_MESSAGE);
  g_assert_cmpint (r->armored, ==, armored);
  g_assert_cmpint (r->encrypted, ==, 1);
  g_assert_cmpint (r->tar, ==, PL_SNIFF_TAR_UNKNOWN);
  g_assert_cmpuint (r->n_key_packets, ==, 2);
  g_assert_cmpuint (r->key_packets_left_out, ==, 0);
  for (guint i = 0; i < 2; i++)
    {
      const pl_sniff_key_packet *k = &r->key_packets[i];
      g_assert_cmpint (k->tag, ==, PL_PKT_SKESK);
      g_assert_cmpint (k->version, ==, want[profile].skesk);
      g_assert_cmpint (k->parsed, ==, 1);
      g_assert_cmpint (k->s2k.type, ==, want[profile].s2k);
      if (want[profile].skesk != 6)
        g_assert_cmpint (k->cipher_algo, ==, PL_CIPHER_AES256);
      if (want[profile].skesk != 4)
        g_assert_cmpint (k->aead_algo, ==, PL_AEAD_OCB);
    }
  g_assert_cmpint (r->data_tag, ==, want[profile].data_tag);
  g_assert_cmpint (r->data_version, ==, want[profile].data_version);
}

/* Every profile, armored and binary, small (definite lengths) and past a
 * block (the size unknown to the encoder is not: memory sources have a
 * size, so lengths stay definite; partial lengths come below). */
static void
test_engine_messages (void)
{
  for (int profile = 0; profile < 3; profile++)
    for (int armor = 0; armor < 2; armor++)
      {
        g_autoptr(GBytes) m = engine_message (profile, armor, 0, 100);
        gsize len;
        const guint8 *d = g_bytes_get_data (m, &len);
        pl_sniff_result r = sniff (d, len, (gint64) len);

        assert_engine_result (&r, profile, armor);
        /* A pipe: the size unknown. */
        r = sniff (d, len, PL_SNIFF_SIZE_UNKNOWN);
        assert_engine_result (&r, profile, armor);
        /* A longer input than looked at. */
        if (!armor)
          {
            g_autoptr(GBytes) big = engine_message (profile, 0, 0, 100000);
            d = g_bytes_get_data (big, &len);
            g_assert_cmpuint (len, >, PL_SNIFF_SIZE);
            r = sniff (d, len, (gint64) len);
            assert_engine_result (&r, profile, 0);
            r = sniff (d, PL_SNIFF_SIZE, (gint64) len);
            assert_engine_result (&r, profile, 0);
          }
      }
}

/* Cut at every octet, with the size unknown (a pipe's first read, or a
 * caller that reads less): once the first packet's header and version
 * are in, the kind never changes, and what is reported of a key packet is
 * either "cut" or exactly what the whole message says.  With the size
 * equal to the cut (a truncated file) nothing is promised but sanity. */
static void
test_every_cut (void)
{
  for (int profile = 0; profile < 3; profile++)
    for (int armor = 0; armor < 2; armor++)
      {
        g_autoptr(GBytes) m = engine_message (profile, armor, 0, 300);
        gsize len;
        const guint8 *d = g_bytes_get_data (m, &len);
        pl_sniff_result whole = sniff (d, len, (gint64) len);
        /* Binary: tag, one length octet, version.  Armor: the BEGIN line
         * and its line end. */
        gsize judged = armor ? strlen ("-----BEGIN PGP MESSAGE-----\n") : 3;

        for (gsize cut = 0; cut <= len; cut++)
          {
            pl_sniff_result r = sniff (d, cut, PL_SNIFF_SIZE_UNKNOWN);
            pl_sniff_result t = sniff (d, cut, (gint64) cut);

            g_assert_cmpint (t.kind, <=, PL_SNIFF_SIGNATURE);
            g_assert_cmpuint (t.n_key_packets, <=, PL_SNIFF_KEY_PACKETS_MAX);
            if (cut < judged)
              continue;
            g_assert_cmpint (r.kind, ==, PL_SNIFF_MESSAGE);
            g_assert_cmpint (r.armored, ==, armor);
            g_assert_cmpuint (r.n_key_packets, <=, whole.n_key_packets);
            for (gsize i = 0; i < r.n_key_packets; i++)
              if (r.key_packets[i].parsed)
                g_assert_cmpmem (&r.key_packets[i], sizeof r.key_packets[i],
                                 &whole.key_packets[i],
                                 sizeof whole.key_packets[i]);
            if (r.data_tag)
              g_assert_cmpint (r.data_tag, ==, whole.data_tag);
          }
      }
}

/* Writes an old-format header (tags up to 15): LEN_TYPE 0, 1, 2 for one,
 * two, four length octets, 3 for indeterminate. */
static void
old_packet (GByteArray *out, int tag, int len_type, const void *body,
            gsize len)
{
  guint8 h[5] = { (guint8) (0x80 | tag << 2 | len_type) };
  gsize n = len_type == 0 ? 1 : len_type == 1 ? 2 : len_type == 2 ? 4 : 0;

  for (gsize i = 0; i < n; i++)
    h[1 + i] = (guint8) (len >> (8 * (n - 1 - i)));
  g_byte_array_append (out, h, (guint) (1 + n));
  g_byte_array_append (out, body, (guint) len);
}

/* The engine's rfc4880 message, with every packet's header rewritten in
 * the old format with each length type, and the SEIPD packet also in
 * partial lengths (the new format's only). */
static void
test_headers (void)
{
  g_autoptr(GBytes) m = engine_message (PL_PROFILE_RFC4880, 0, 0, 3000);
  gsize len;
  const guint8 *d = g_bytes_get_data (m, &len);
  /* The two SKESKs and the SEIPD packet: new format, definite lengths. */
  const guint8 *bodies[3];
  gsize body_len[3], at = 0;

  for (int i = 0; i < 3; i++)
    {
      gsize hl = d[at + 1] < 192 ? 2 : d[at + 1] < 224 ? 3 : 6;
      body_len[i] = hl == 2 ? d[at + 1]
                    : hl == 3 ? ((gsize) (d[at + 1] - 192) << 8) + d[at + 2] + 192
                    : (gsize) d[at + 2] << 24 | d[at + 3] << 16 | d[at + 4] << 8 | d[at + 5];
      bodies[i] = d + at + hl;
      at += hl + body_len[i];
    }
  g_assert_cmpuint (at, ==, len);

  for (int lt = 0; lt < 4; lt++)
    for (int seipd_partial = 0; seipd_partial < 2; seipd_partial++)
      {
        g_autoptr(GByteArray) msg = g_byte_array_new ();
        pl_sniff_result r;

        /* SKESK: tag 3 fits the old format, but never indeterminate. */
        for (int i = 0; i < 2; i++)
          old_packet (msg, PL_PKT_SKESK, lt == 3 ? 0 : lt, bodies[i],
                      body_len[i]);
        /* Tag 18 has no old format. */
        if (seipd_partial)
          pb_packet_partial (msg, PL_PKT_SEIPD, bodies[2], body_len[2], 9);
        else
          pb_packet (msg, PL_PKT_SEIPD, bodies[2], body_len[2]);
        r = sniff (msg->data, msg->len, msg->len);
        assert_engine_result (&r, PL_PROFILE_RFC4880, 0);
        r = sniff (msg->data, msg->len, PL_SNIFF_SIZE_UNKNOWN);
        assert_engine_result (&r, PL_PROFILE_RFC4880, 0);
        /* A data packet of definite length must end the file. */
        if (!seipd_partial)
          {
            r = sniff (msg->data, msg->len, msg->len + 1);
            g_assert_cmpint (r.data_tag, ==, PL_PKT_SEIPD);
          }
      }

  /* SED (tag 9, no MDC) in the old format: a definite length that fills
   * the file counts; the indeterminate 0xa7 does not (too many ordinary
   * files start with it); in the new format, partial lengths count. */
  {
    g_autoptr(GByteArray) exact = g_byte_array_new ();
    g_autoptr(GByteArray) indet = g_byte_array_new ();
    g_autoptr(GByteArray) partial = g_byte_array_new ();
    pl_sniff_result r;

    old_packet (exact, PL_PKT_SED, 1, bodies[2] + 1, body_len[2] - 1);
    r = sniff (exact->data, exact->len, exact->len);
    g_assert_cmpint (r.kind, ==, PL_SNIFF_MESSAGE);
    g_assert_cmpint (r.data_tag, ==, PL_PKT_SED);
    g_assert_cmpint (r.data_version, ==, 0);
    r = sniff (exact->data, exact->len, exact->len + 100);
    g_assert_cmpint (r.kind, ==, PL_SNIFF_NOT_OPENPGP);
    old_packet (indet, PL_PKT_SED, 3, bodies[2] + 1, body_len[2] - 1);
    r = sniff (indet->data, indet->len, indet->len);
    g_assert_cmpint (r.kind, ==, PL_SNIFF_NOT_OPENPGP);
    pb_packet_partial (partial, PL_PKT_SED, bodies[2] + 1, body_len[2] - 1,
                       9);
    r = sniff (partial->data, partial->len, partial->len);
    g_assert_cmpint (r.kind, ==, PL_SNIFF_MESSAGE);
    g_assert_cmpint (r.data_tag, ==, PL_PKT_SED);
  }
}

/* PKESK v3 and v6 (to a v4 and a v6 key, and anonymous), by hand: the key
 * ID and fingerprint come out as written. */
static void
test_pkesk (void)
{
  guint8 fp4[20], fp6[32];
  guint8 v3[1 + 8 + 1 + 40] = { 3, 1, 2, 3, 4, 5, 6, 7, 8, 1 };
  guint8 v6_4[1 + 1 + 21 + 1 + 40] = { 6, 21, 4 };
  guint8 v6_6[1 + 1 + 33 + 1 + 40] = { 6, 33, 6 };
  guint8 v6_anon[1 + 1 + 1 + 40] = { 6, 0, 25 };
  guint8 seipd[40] = { 1 };
  g_autoptr(GByteArray) msg = g_byte_array_new ();
  pl_sniff_result r;

  for (guint i = 0; i < sizeof fp6; i++)
    fp6[i] = (guint8) (0x60 + i);
  for (guint i = 0; i < sizeof fp4; i++)
    fp4[i] = (guint8) (0x40 + i);
  memcpy (v6_4 + 3, fp4, 20);
  v6_4[23] = 18;                /* ECDH */
  memcpy (v6_6 + 3, fp6, 32);
  v6_6[35] = 25;                /* X25519 */
  pb_packet (msg, PL_PKT_PKESK, v3, sizeof v3);
  pb_packet (msg, PL_PKT_PKESK, v6_4, sizeof v6_4);
  pb_packet (msg, PL_PKT_PKESK, v6_6, sizeof v6_6);
  pb_packet (msg, PL_PKT_PKESK, v6_anon, sizeof v6_anon);
  pb_packet (msg, PL_PKT_SEIPD, seipd, sizeof seipd);

  r = sniff (msg->data, msg->len, msg->len);
  g_assert_cmpint (r.kind, ==, PL_SNIFF_MESSAGE);
  g_assert_cmpint (r.encrypted, ==, 1);
  g_assert_cmpuint (r.n_key_packets, ==, 4);
  for (guint i = 0; i < 4; i++)
    {
      g_assert_cmpint (r.key_packets[i].tag, ==, PL_PKT_PKESK);
      g_assert_cmpint (r.key_packets[i].parsed, ==, 1);
    }
  g_assert_cmpint (r.key_packets[0].version, ==, 3);
  tu_assert_hex (r.key_packets[0].key_id, 8, "0102030405060708");
  g_assert_cmpint (r.key_packets[0].pubkey_algo, ==, 1);
  g_assert_cmpuint (r.key_packets[0].fingerprint_len, ==, 0);

  g_assert_cmpint (r.key_packets[1].version, ==, 6);
  g_assert_cmpint (r.key_packets[1].key_version, ==, 4);
  g_assert_cmpmem (r.key_packets[1].fingerprint,
                   r.key_packets[1].fingerprint_len, fp4, 20);
  g_assert_cmpmem (r.key_packets[1].key_id, 8, fp4 + 12, 8);
  g_assert_cmpint (r.key_packets[1].pubkey_algo, ==, 18);

  g_assert_cmpint (r.key_packets[2].key_version, ==, 6);
  g_assert_cmpmem (r.key_packets[2].fingerprint,
                   r.key_packets[2].fingerprint_len, fp6, 32);
  g_assert_cmpmem (r.key_packets[2].key_id, 8, fp6, 8);
  g_assert_cmpint (r.key_packets[2].pubkey_algo, ==, 25);

  g_assert_cmpint (r.key_packets[3].key_version, ==, 0);
  g_assert_cmpuint (r.key_packets[3].fingerprint_len, ==, 0);
  tu_assert_hex (r.key_packets[3].key_id, 8, "0000000000000000");
  g_assert_cmpint (r.key_packets[3].pubkey_algo, ==, 25);
  g_assert_cmpint (r.data_tag, ==, PL_PKT_SEIPD);

  /* A v6 PKESK whose key version does not match its fingerprint's length
   * is listed, not parsed. */
  {
    g_autoptr(GByteArray) bad = g_byte_array_new ();
    guint8 mixed[sizeof v6_4];
    memcpy (mixed, v6_4, sizeof mixed);
    mixed[2] = 6;
    pb_packet (bad, PL_PKT_PKESK, mixed, sizeof mixed);
    pb_packet (bad, PL_PKT_SEIPD, seipd, sizeof seipd);
    r = sniff (bad->data, bad->len, bad->len);
    g_assert_cmpint (r.kind, ==, PL_SNIFF_MESSAGE);
    g_assert_cmpuint (r.n_key_packets, ==, 1);
    g_assert_cmpint (r.key_packets[0].parsed, ==, 0);
    g_assert_cmpuint (r.key_packets[0].fingerprint_len, ==, 0);
  }

  /* More key packets than kept: counted. */
  {
    g_autoptr(GByteArray) many = g_byte_array_new ();
    for (guint i = 0; i < PL_SNIFF_KEY_PACKETS_MAX + 3; i++)
      pb_packet (many, PL_PKT_PKESK, v3, sizeof v3);
    pb_packet (many, PL_PKT_SEIPD, seipd, sizeof seipd);
    r = sniff (many->data, many->len, many->len);
    g_assert_cmpuint (r.n_key_packets, ==, PL_SNIFF_KEY_PACKETS_MAX);
    g_assert_cmpuint (r.key_packets_left_out, ==, 3);
    g_assert_cmpint (r.data_tag, ==, PL_PKT_SEIPD);
  }
}

/* A v4 EdDSA primary key (RFC 9580 §5.5.2), a user ID and a stand-in
 * signature: a transferable public key; the same as a secret key. */
static void
test_keys (void)
{
  guint8 key[1 + 4 + 1 + 10 + 2 + 33] = { 4, 0x65, 0x00, 0x00, 0x00, 22, 9 };
  guint8 sig[] = { 4, 0x13, 22, 8, 0, 0, 0, 0, 0, 0 };
  const char uid[] = "Alice <alice@example.org>";

  for (int secret = 0; secret < 2; secret++)
    {
      g_autoptr(GByteArray) k = g_byte_array_new ();
      g_autoptr(GByteArray) alone = g_byte_array_new ();
      pl_sniff_result r;
      pl_sniff_kind want = secret ? PL_SNIFF_SECRET_KEY : PL_SNIFF_PUBLIC_KEY;

      pb_packet (k, secret ? PL_PKT_SECRET_KEY : PL_PKT_PUBLIC_KEY, key,
                 sizeof key);
      pb_packet (k, 13, uid, sizeof uid - 1);
      pb_packet (k, PL_PKT_SIGNATURE, sig, sizeof sig);
      r = sniff (k->data, k->len, k->len);
      g_assert_cmpint (r.kind, ==, want);
      g_assert_cmpint (r.key_version, ==, 4);
      g_assert_cmpint (r.key_algo, ==, 22);
      g_assert_cmpuint (r.n_key_packets, ==, 0);
      /* Old format, as gpg writes keys (0x99: two length octets). */
      g_byte_array_set_size (k, 0);
      old_packet (k, secret ? PL_PKT_SECRET_KEY : PL_PKT_PUBLIC_KEY, 1, key,
                  sizeof key);
      old_packet (k, 13, 0, uid, sizeof uid - 1);
      r = sniff (k->data, k->len, PL_SNIFF_SIZE_UNKNOWN);
      g_assert_cmpint (r.kind, ==, want);
      /* A key packet alone is not a transferable key. */
      pb_packet (alone, PL_PKT_PUBLIC_KEY, key, sizeof key);
      r = sniff (alone->data, alone->len, alone->len);
      g_assert_cmpint (r.kind, ==, PL_SNIFF_NOT_OPENPGP);
    }

  /* gpg's own, armored and binary (gpg missing: tu_peer's rule). */
  {
    g_autofree char *gpg = tu_peer ("gpg");
    const char *gen[] = { "--quick-gen-key", "--passphrase", "",
                          "sniff@example.org", "ed25519", "default", "never",
                          NULL };
    const char *pub[] = { "--export", "sniff@example.org", NULL };
    const char *apub[] = { "--armor", "--export", "sniff@example.org", NULL };
    const char *sec[] = { "--pinentry-mode", "loopback", "--passphrase", "",
                          "--export-secret-keys", "sniff@example.org", NULL };
    const char *const *what[] = { pub, apub, sec };
    const pl_sniff_kind want[] = { PL_SNIFF_PUBLIC_KEY, PL_SNIFF_PUBLIC_KEY,
                                   PL_SNIFF_SECRET_KEY };

    if (!gpg)
      {
        g_test_message ("gpg not found: only the keys built by hand");
        return;
      }
    g_assert_cmpint (tu_run_gpg (NULL, gen, NULL, NULL, NULL), ==, 0);
    for (guint i = 0; i < G_N_ELEMENTS (what); i++)
      {
        g_autoptr(GBytes) out = NULL;
        gsize len;
        const guint8 *d;
        pl_sniff_result r;

        g_assert_cmpint (tu_run_gpg (NULL, what[i], NULL, &out, NULL), ==, 0);
        d = g_bytes_get_data (out, &len);
        r = sniff (d, len, (gint64) len);
        g_assert_cmpint (r.kind, ==, want[i]);
        g_assert_cmpint (r.armored, ==, i == 1);
        g_assert_cmpint (r.key_version, ==, 4);
        g_assert_cmpint (r.key_algo, ==, 22);
      }
  }
}

/* The first 1024 octets of the archive Padlock writes of a folder that
 * holds one small file (core/tar.c). */
static void
padlock_tar (guint8 *out, gsize len)
{
  g_autofree char *folder = g_build_filename (tu_tmpdir (), "sniff-tar", NULL);
  g_autofree char *file = g_build_filename (folder, "a.txt", NULL);
  pl_source *src = NULL;
  size_t n = 0;

  g_assert_cmpint (g_mkdir_with_parents (folder, 0755), ==, 0);
  g_assert_true (g_file_set_contents (file, "hello\n", -1, NULL));
  g_assert_cmpuint (pl_tar_source_new (folder, NULL, &src), ==, 0);
  g_assert_cmpuint (pl_source_read_full (src, out, len, &n), ==, 0);
  g_assert_cmpuint (n, ==, len);
  pl_source_free (src);
}

/* Not encrypted (gpg --store, with or without compression): whether the
 * literal data is a tar archive, across partial lengths whose boundary
 * cuts the tar header, and inside a compressed packet. */
static void
test_tar_inside (void)
{
  guint8 tar[1024], text[1024];
  GByteArray *lit_tar, *lit_text;

  padlock_tar (tar, sizeof tar);
  memset (text, 'y', sizeof text);
  lit_tar = pb_literal_body (tar, sizeof tar);
  lit_text = pb_literal_body (text, sizeof text);
  for (int shape = 0; shape < 4; shape++)
    for (int is_tar = 0; is_tar < 2; is_tar++)
      {
        GByteArray *lit = is_tar ? lit_tar : lit_text;
        g_autoptr(GByteArray) msg = g_byte_array_new ();
        g_autoptr(GByteArray) inner = g_byte_array_new ();
        pl_sniff_result r;

        if (shape == 0)
          pb_packet (msg, PL_PKT_LITERAL, lit->data, lit->len);
        else if (shape == 1)
          pb_packet_partial (msg, PL_PKT_LITERAL, lit->data, lit->len, 9);
        else
          {
            GByteArray *c;
            pb_packet (inner, PL_PKT_LITERAL, lit->data, lit->len);
            c = pb_compressed_body (shape == 2 ? PL_COMPRESS_ZLIB
                                               : PL_COMPRESS_ZIP,
                                    inner->data, inner->len);
            pb_packet_indeterminate (msg, PL_PKT_COMPRESSED, c->data, c->len);
            g_byte_array_unref (c);
          }
        r = sniff (msg->data, msg->len, msg->len);
        g_assert_cmpint (r.kind, ==, PL_SNIFF_MESSAGE);
        g_assert_cmpint (r.encrypted, ==, 0);
        g_assert_cmpint (r.tar, ==, is_tar ? PL_SNIFF_TAR_YES
                                           : PL_SNIFF_TAR_NO);
        /* Cut before the tar header's end, more to come: unknown. */
        if (shape < 2)
          {
            r = sniff (msg->data, 200, PL_SNIFF_SIZE_UNKNOWN);
            g_assert_cmpint (r.kind, ==, PL_SNIFF_MESSAGE);
            g_assert_cmpint (r.tar, ==, PL_SNIFF_TAR_UNKNOWN);
          }
      }
  /* Literal data shorter than a tar header: not tar. */
  {
    g_autoptr(GByteArray) msg = g_byte_array_new ();
    GByteArray *lit = pb_literal_body ("short", 5);
    pl_sniff_result r;

    pb_packet (msg, PL_PKT_LITERAL, lit->data, lit->len);
    r = sniff (msg->data, msg->len, msg->len);
    g_assert_cmpint (r.kind, ==, PL_SNIFF_MESSAGE);
    g_assert_cmpint (r.tar, ==, PL_SNIFF_TAR_NO);
    g_byte_array_unref (lit);
  }
  g_byte_array_unref (lit_tar);
  g_byte_array_unref (lit_text);
}

/* gpg's compressed packets (0xa3, algorithm, stream) are messages; random
 * octets after 0xa3 0x00-0x03 rarely are. */
static void
test_compressed (void)
{
  g_autofree char *gpg = tu_peer ("gpg");
  static const char *const algos[] = { "zip", "zlib", "bzip2" };
  guint8 random[PL_SNIFF_SIZE];
  guint taken[4] = { 0 };

  for (guint a = 0; gpg && a < G_N_ELEMENTS (algos); a++)
    {
      const char *args[] = { "--compress-algo", algos[a], "--store", NULL };
      g_autoptr(GBytes) in = g_bytes_new_static ("hello hello hello\n", 18);
      g_autoptr(GBytes) out = NULL;
      gsize len;
      const guint8 *d;
      pl_sniff_result r;

      g_assert_cmpint (tu_run_gpg (NULL, args, in, &out, NULL), ==, 0);
      d = g_bytes_get_data (out, &len);
      g_assert_cmpint (d[0] & 0xbc, ==, 0xa0); /* old format, tag 8 */
      r = sniff (d, len, (gint64) len);
      g_assert_cmpint (r.kind, ==, PL_SNIFF_MESSAGE);
      g_assert_cmpint (r.encrypted, ==, 0);
      g_assert_cmpint (r.unencrypted, ==, 1);
      g_assert_cmpint (r.tar, ==, PL_SNIFF_TAR_NO);
    }
  for (guint i = 0; i < 4000; i++)
    {
      for (gsize k = 0; k < sizeof random; k++)
        random[k] = (guint8) g_test_rand_int_range (0, 256);
      random[0] = 0xa3;
      random[1] = (guint8) (i % 4);
      taken[i % 4] += sniff (random, sizeof random, 16384).kind
                      != PL_SNIFF_NOT_OPENPGP;
    }
  g_test_message ("random files after 0xa3 0x00-0x03 taken for messages, "
                  "per 1000: %u, %u, %u, %u", taken[0], taken[1], taken[2],
                  taken[3]);
  /* Uncompressed (algorithm 0) passes when a literal, one-pass signature
   * or signature header follows: 3 octets of 64 at the most; random ZIP,
   * ZLIB and BZip2 streams fail to inflate. */
  g_assert_cmpuint (taken[0], <, 100);
  g_assert_cmpuint (taken[1] + taken[2] + taken[3], <=, 8);
}

/* Files that are not OpenPGP, and the small shapes the app sniffed
 * before this moved into the core. */
static void
test_not_openpgp (void)
{
  static const char armored[] =
    "-----BEGIN PGP MESSAGE-----\n\njA0ECQMC\n-----END PGP MESSAGE-----\n";
  static const char key[] =
    "-----BEGIN PGP PUBLIC KEY BLOCK-----\n\nmQ\n-----END PGP PUBLIC KEY BLOCK-----\n";
  static const char cleartext[] =
    "-----BEGIN PGP SIGNED MESSAGE-----\nHash: SHA256\n\nhello\n";
  static const guint8 skesk_old[] = { 0x8c, 0x0d, 0x04, 0x09, 0x03 };
  static const guint8 skesk_new[] = { 0xc3, 0x0d, 0x04, 0x09, 0x03 };
  /* A first partial length under 512 (0xe0..0xe8) is malformed. */
  static const guint8 seipd_new[] = { 0xd2, 0xe9, 0x01 };
  static const guint8 seipd_short_partial[] = { 0xd2, 0xe0, 0x01 };
  static const guint8 seipd_exact[] = { 0xd2, 0x03, 0x01, 0xaa, 0xbb };
  static const guint8 sed_old[] = { 0xa7, 0x12, 0x34 };
  static const guint8 sed_exact[] = { 0xa4, 0x02, 0x12, 0x34 };
  static const guint8 marker[] = { 0xa8, 0x03, 'P', 'G', 'P' };
  static const guint8 bad_marker[] = { 0xa8, 0x03, 'P', 'G', 'Q', 0xd2 };
  static const guint8 padding_only[] = { 0xd5, 0x02, 0x00, 0x00 };
  static const guint8 padding_seipd[] = { 0xd5, 0x02, 0x00, 0x00,
                                          0xd2, 0x02, 0x01, 0xaa };
  static const guint8 random_tag[] = { 0x8c, 0x0d, 0x99, 0x12 };
  static const guint8 png[] = { 0x89, 'P', 'N', 'G', '\r', '\n' };
  pl_sniff_result r;
  guint taken = 0;

#define KIND(buf, len, total) (sniff ((buf), (len), (total)).kind)
  g_assert_cmpint (KIND ("hello\n", 6, 6), ==, PL_SNIFF_NOT_OPENPGP);
  g_assert_cmpint (KIND (NULL, 0, 0), ==, PL_SNIFF_NOT_OPENPGP);
  g_assert_cmpint (KIND (NULL, 0, -1), ==, PL_SNIFF_NOT_OPENPGP);
  r = sniff (armored, strlen (armored), -1);
  g_assert_cmpint (r.kind, ==, PL_SNIFF_MESSAGE);
  g_assert_cmpint (r.armored, ==, 1);
  /* Its packets do not fit what the armor holds: only the label counts,
   * and it is not known to be unencrypted (issue 34: not taken for a
   * signed message, which would need no passphrase). */
  g_assert_cmpint (r.n_key_packets, ==, 0);
  g_assert_cmpint (r.unencrypted, ==, 0);
  r = sniff (key, strlen (key), -1);
  g_assert_cmpint (r.kind, ==, PL_SNIFF_PUBLIC_KEY);
  g_assert_cmpint (r.armored, ==, 1);
  /* Signed, not encrypted: said so (clearsign.h), no packet details. */
  r = sniff (cleartext, strlen (cleartext), -1);
  g_assert_cmpint (r.kind, ==, PL_SNIFF_CLEARSIGNED);
  g_assert_cmpint (r.armored, ==, 1);
  g_assert_cmpint (r.encrypted, ==, 0);
  g_assert_cmpint (KIND (skesk_old, sizeof skesk_old, -1), ==, PL_SNIFF_MESSAGE);
  g_assert_cmpint (KIND (skesk_new, sizeof skesk_new, -1), ==, PL_SNIFF_MESSAGE);
  g_assert_cmpint (KIND (seipd_new, sizeof seipd_new, -1), ==, PL_SNIFF_MESSAGE);
  g_assert_cmpint (KIND (seipd_short_partial, sizeof seipd_short_partial, -1), ==,
                   PL_SNIFF_NOT_OPENPGP);
  g_assert_cmpint (KIND (marker, sizeof marker, -1), ==, PL_SNIFF_MESSAGE);
  g_assert_cmpint (KIND (bad_marker, sizeof bad_marker, -1), ==, PL_SNIFF_NOT_OPENPGP);
  g_assert_cmpint (KIND (padding_only, sizeof padding_only, 4), ==, PL_SNIFF_NOT_OPENPGP);
  g_assert_cmpint (KIND (padding_seipd, sizeof padding_seipd, 8), ==, PL_SNIFF_MESSAGE);
  g_assert_cmpint (KIND (random_tag, sizeof random_tag, -1), ==, PL_SNIFF_NOT_OPENPGP);
  g_assert_cmpint (KIND (png, sizeof png, -1), ==, PL_SNIFF_NOT_OPENPGP);
  /* A data packet fills the file; a SKESK is followed by more. */
  g_assert_cmpint (KIND (seipd_exact, 5, 5), ==, PL_SNIFF_MESSAGE);
  g_assert_cmpint (KIND (seipd_exact, 5, 900), ==, PL_SNIFF_NOT_OPENPGP);
  g_assert_cmpint (KIND (skesk_old, sizeof skesk_old, 15), ==, PL_SNIFF_NOT_OPENPGP);
  g_assert_cmpint (KIND (skesk_old, sizeof skesk_old, 100), ==, PL_SNIFF_MESSAGE);
  g_assert_cmpint (KIND (sed_old, sizeof sed_old, 1000), ==, PL_SNIFF_NOT_OPENPGP);
  g_assert_cmpint (KIND (sed_exact, sizeof sed_exact, 4), ==, PL_SNIFF_MESSAGE);
#undef KIND

  /* Random files, whatever their first octet: a handful in 10,000, most
   * of them a new-format SED header with a partial length (22 first
   * octets pairs in 65,536; SED has no version octet to check). */
  {
    g_autoptr(GRand) rand = g_rand_new_with_seed (20);
    guint8 b[1024];

    for (guint i = 0; i < 10000; i++)
      {
        for (gsize k = 0; k < sizeof b; k++)
          b[k] = (guint8) g_rand_int_range (rand, 0, 256);
        taken += sniff (b, sizeof b, sizeof b).kind != PL_SNIFF_NOT_OPENPGP;
      }
  }
  g_test_message ("random files taken for OpenPGP: %u in 10,000", taken);
  g_assert_cmpuint (taken, <=, 15);
}

/* The vectors of other implementations, when present: every message is
 * one, armored as it is. */
static void
test_vectors (void)
{
  const char *dir = tu_vectors_dir ();
  g_autoptr(GDir) d = NULL;
  const char *name;
  guint n = 0;

  if (!dir || !(d = g_dir_open (dir, 0, NULL)))
    {
      g_test_skip ("no vectors");
      return;
    }
  while ((name = g_dir_read_name (d)))
    {
      g_autofree char *path = g_build_filename (dir, name, NULL);
      g_autofree char *data = NULL;
      gsize len;
      pl_sniff_result r;

      if (!g_str_has_suffix (name, ".pgp") && !g_str_has_suffix (name, ".asc"))
        continue;
      g_assert_true (g_file_get_contents (path, &data, &len, NULL));
      r = sniff (data, len, (gint64) len);
      g_test_message ("%s: kind %d, %zu key packets, data tag %d", name,
                      r.kind, r.n_key_packets, r.data_tag);
      if (!strcmp (name, "bad-garbage.pgp"))
        {
          g_assert_cmpint (r.kind, ==, PL_SNIFF_NOT_OPENPGP);
          continue;
        }
      g_assert_cmpint (r.kind, ==, PL_SNIFF_MESSAGE);
      g_assert_cmpint (r.armored, ==, g_str_has_suffix (name, ".asc"));
      g_assert_cmpint (r.encrypted, ==, 1);
      g_assert_cmpuint (r.n_key_packets, >=, 1);
      n++;
    }
  g_test_message ("%u vectors", n);
}

static void
test_names (void)
{
  g_assert_true (pl_sniff_name_says_openpgp ("x.gpg"));
  g_assert_true (pl_sniff_name_says_openpgp ("/a/b/report.pdf.PGP"));
  g_assert_true (pl_sniff_name_says_openpgp ("key.asc"));
  g_assert_false (pl_sniff_name_says_openpgp ("x.gpg.txt"));
  g_assert_false (pl_sniff_name_says_openpgp ("gpg"));
  g_assert_false (pl_sniff_name_says_openpgp (".gpg"));
  g_assert_false (pl_sniff_name_says_openpgp ("/a/.gpg"));
  g_assert_false (pl_sniff_name_says_openpgp ("xgpg"));
  g_assert_false (pl_sniff_name_says_openpgp (""));
  g_assert_false (pl_sniff_name_says_openpgp (NULL));
}

int
main (int argc, char **argv)
{
  tu_init (&argc, &argv);
  g_test_add_func ("/sniff/engine-messages", test_engine_messages);
  g_test_add_func ("/sniff/every-cut", test_every_cut);
  g_test_add_func ("/sniff/headers", test_headers);
  g_test_add_func ("/sniff/pkesk", test_pkesk);
  g_test_add_func ("/sniff/keys", test_keys);
  g_test_add_func ("/sniff/tar-inside", test_tar_inside);
  g_test_add_func ("/sniff/compressed", test_compressed);
  g_test_add_func ("/sniff/not-openpgp", test_not_openpgp);
  g_test_add_func ("/sniff/vectors", test_vectors);
  g_test_add_func ("/sniff/names", test_names);
  return g_test_run ();
}
