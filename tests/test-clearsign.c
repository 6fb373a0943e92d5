/* test-clearsign.c - the Cleartext Signature Framework (clearsign.h)
 *
 * RFC 9580's A.6 message verifies with its A.3 certificate, and every
 * octet of it flipped is refused or a bad signature; messages made here
 * by a v4 and a v6 key at once verify both signatures, through the
 * rules (dash-escapes, trailing whitespace, CR LF, the final line
 * ending, an empty text); several Hash headers are taken, any other
 * header or a malformed one refuses the message; a binary signature is
 * not taken for a text one; sniffing says what a cleartext message is.
 * A job's form (pl_clearsign_verify_stream) finds signers through a
 * lookup, commits the text whatever the verdicts, and is bounded.
 */
#include "testutil.h"
#include "armor.h"
#include "cert.h"
#include "clearsign.h"
#include "errors.h"
#include "keygen.h"
#include "packet.h"
#include "seckey.h"
#include "sign.h"
#include "sniff.h"
#include "verify.h"

#include <string.h>
#include <time.h>
#include <gcrypt.h>

static tu_key key4, key6;
static const pl_cert *both[2];

#define RFC_A6_TEXT "What we need from the grocery store:\n\n- tofu\n" \
                    "- vegetables\n- noodles\n\n"

/* Verifies MSG with both keys: the error, the verdicts, the text. */
static gpg_error_t
verify (const char *msg, size_t len, pl_verifications *v, char **text)
{
  uint8_t *t = NULL;
  size_t tl = 0;
  gpg_error_t err = pl_clearsign_verify ((const uint8_t *) msg, len, both, 2,
                                         (uint32_t) time (NULL), v, &t, &tl);

  if (text)
    *text = err ? NULL : g_strndup ((const char *) t, tl);
  free (t);
  return err;
}

static char *
make (const char *text, size_t len, size_t n_signers)
{
  const pl_seckey *signers[] = { &key4.sk, &key6.sk };
  uint8_t *out;
  size_t out_len;
  char *s;

  g_assert_cmpint (pl_clearsign_make ((const uint8_t *) text, len,
                                      signers + (n_signers == 1 ? 1 : 0),
                                      n_signers, (uint32_t) time (NULL),
                                      &out, &out_len), ==, 0);
  s = g_strndup ((const char *) out, out_len);
  g_assert_cmpuint (strlen (s), ==, out_len);
  free (out);
  return s;
}

static int
n_good (const pl_verifications *v)
{
  int good = 0;

  for (size_t i = 0; i < v->n; i++)
    good += v->v[i].verdict == PL_VERDICT_GOOD;
  return good;
}

/* RFC 9580 A.6 with A.3: good, the text as the RFC shows it; each octet
 * flipped: refused (an error) or not good, but in the armor's blank line
 * and the signature block's trailing text, which carry nothing. */
static void
test_rfc9580 (void)
{
  g_autofree char *cp = tu_data_path ("rfc9580-a3-cert.asc");
  g_autofree char *mp = tu_data_path ("rfc9580-a6-clearsigned.asc");
  g_autofree char *certs_text = NULL, *msg = NULL, *text = NULL;
  uint8_t *bin;
  size_t bin_len, len, flips = 0;
  pl_cert **certs;
  size_t n;
  pl_verifications v;
  const char *sig_at;

  g_assert_true (g_file_get_contents (cp, &certs_text, NULL, NULL));
  g_assert_true (g_file_get_contents (mp, &msg, &len, NULL));
  g_assert_cmpint (pl_armor_dearmor_all ((const uint8_t *) certs_text,
                                         strlen (certs_text), &bin, &bin_len),
                   ==, 0);
  g_assert_cmpint (pl_certs_read (bin, bin_len, &certs, &n), ==, 0);
  free (bin);
  g_assert_cmpint (pl_clearsign_verify ((const uint8_t *) msg, len,
                                        (const pl_cert *const *) certs, n,
                                        (uint32_t) time (NULL), &v,
                                        (uint8_t **) &text, &bin_len), ==, 0);
  g_assert_cmpuint (v.n, ==, 1);
  g_assert_cmpint (v.v[0].verdict, ==, PL_VERDICT_GOOD);
  g_assert_cmpint (v.v[0].version, ==, 6);
  /* The empty line before the signature is text: the signed text ends
   * in a line ending (its own line ending is not signed). */
  g_assert_cmpmem (text, bin_len, RFC_A6_TEXT, strlen (RFC_A6_TEXT));
  free (g_steal_pointer (&text));
  sig_at = strstr (msg, "-----BEGIN PGP SIGNATURE-----");
  for (size_t i = 0; i < (size_t) (sig_at - msg); i++)
    {
      gpg_error_t err;

      msg[i] ^= 0x01;
      err = pl_clearsign_verify ((const uint8_t *) msg, len,
                                 (const pl_cert *const *) certs, n,
                                 (uint32_t) time (NULL), &v, NULL, NULL);
      msg[i] ^= 0x01;
      if (!err && n_good (&v))
        g_error ("flip at %zu of the text still verifies", i);
      flips++;
    }
  g_assert_cmpuint (flips, >, 100);
  pl_certs_free (certs, n);
}

/* Made by a v4 and a v6 key: a Hash header for the v4 one only, dash
 * escapes, the text back as signed (trailing whitespace gone, LF). */
static void
test_roundtrip (void)
{
  static const struct
  {
    const char *in, *read;
  } cases[] = {
    { "plain\n", "plain\n" },
    { "no final line end", "no final line end\n" },
    { "- dash\n-\n--x\nFrom here\nFromage\n", "- dash\n-\n--x\nFrom here\nFromage\n" },
    { "trailing \t \nspace\t\n", "trailing\nspace\n" },
    { "crlf\r\nlines\r\n\r\n", "crlf\nlines\n\n" },
    /* Found by fuzz-clearsign: a CR left last by the trim. */
    { "-----X-----\t\r\t\nend\r \r\nmid\rdle\n", "-----X-----\nend\nmid\rdle\n" },
    { "two final\n\n", "two final\n\n" },
    { "-----BEGIN PGP SIGNATURE-----\n", "-----BEGIN PGP SIGNATURE-----\n" },
    { "", "\n" },
  };

  for (size_t i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_autofree char *msg = make (cases[i].in, strlen (cases[i].in), 2);
      g_autofree char *text = NULL;
      pl_verifications v;

      g_assert_true (g_str_has_prefix (msg, PL_CLEARSIGN_HEADER
                                       "\nHash: SHA256\n\n"));
      g_assert_cmpint (verify (msg, strlen (msg), &v, &text), ==, 0);
      g_assert_cmpuint (v.n, ==, 2);
      if (n_good (&v) != 2)
        g_error ("case %zu: %d good of 2\n%s", i, n_good (&v), msg);
      g_assert_cmpstr (text, ==, cases[i].read);
      g_assert_null (strstr (msg, "\n-x"));
      g_assert_null (strstr (msg, "\nFrom "));
    }
  {
    /* v6 alone: no Hash header (RFC 9580 §7.1). */
    g_autofree char *msg = make ("v6\n", 3, 1);
    pl_verifications v;
    g_assert_true (g_str_has_prefix (msg, PL_CLEARSIGN_HEADER "\n\nv6\n"));
    g_assert_cmpint (verify (msg, strlen (msg), &v, NULL), ==, 0);
    g_assert_cmpint (n_good (&v), ==, 1);
  }
}

/* Replaces the first FROM in S by TO (a new string). */
static char *
replace (const char *s, const char *from, const char *to)
{
  const char *at = strstr (s, from);

  g_assert_nonnull (at);
  return g_strdup_printf ("%.*s%s%s", (int) (at - s), s, to,
                          at + strlen (from));
}

/* The rules of §7.1 on a made message: trailing whitespace added, LF
 * made CR LF: still good; a changed word, or an unescaped dash line:
 * bad, or refused. */
static void
test_rules (void)
{
  g_autofree char *msg = make ("one line\n- two\nthree\n", 21, 2);
  pl_verifications v;
  char *m;

  m = replace (msg, "one line\n", "one line \t \n");
  g_assert_cmpint (verify (m, strlen (m), &v, NULL), ==, 0);
  g_assert_cmpint (n_good (&v), ==, 2);
  g_free (m);
  {
    GString *crlf = g_string_new (NULL);
    for (const char *p = msg; *p; p++)
      {
        if (*p == '\n')
          g_string_append_c (crlf, '\r');
        g_string_append_c (crlf, *p);
      }
    g_assert_cmpint (verify (crlf->str, crlf->len, &v, NULL), ==, 0);
    g_assert_cmpint (n_good (&v), ==, 2);
    g_string_free (crlf, TRUE);
  }
  m = replace (msg, "three", "thre3");
  g_assert_cmpint (verify (m, strlen (m), &v, NULL), ==, 0);
  g_assert_cmpint (n_good (&v), ==, 0);
  g_assert_cmpint (v.v[0].verdict, ==, PL_VERDICT_BAD);
  g_free (m);
  /* "- - two" is "- two": the escape removed, "-two" is refused. */
  m = replace (msg, "- - two", "-two");
  g_assert_cmpint (gpg_err_code (verify (m, strlen (m), &v, NULL)), ==,
                   GPG_ERR_INV_ARMOR);
  g_free (m);
  /* The line ending before the signature is not signed: one more empty
   * line is. */
  m = replace (msg, "three\n", "three\n\n");
  g_assert_cmpint (verify (m, strlen (m), &v, NULL), ==, 0);
  g_assert_cmpint (n_good (&v), ==, 0);
  g_free (m);
}

/* Several Hash headers, or one with several names: taken; anything else
 * between the header line and the empty line: refused. */
static void
test_hash_headers (void)
{
  static const char *const taken[] = {
    "Hash: SHA512\nHash: SHA256\n", "Hash: SHA256,SHA512\n",
    "Hash: SHA256, SHA512 \n", "Hash: SHA1\nHash: SHA3-512\n", "",
  };
  static const char *const refused[] = {
    "Comment: hello\n", "Hash: SHA512\nVersion: 1\n", "Hash:\n",
    "Hash: FOO\n", "Hash: SHA512 and more\n", "Hash: SHA512,\n",
    "hash: SHA512\n", "Hash: SHA512\n \tx\n",
  };
  g_autofree char *msg = make ("headers\n", 8, 2);
  const char *body = strstr (msg, "\n\n") + 1;

  for (size_t i = 0; i < G_N_ELEMENTS (taken) + G_N_ELEMENTS (refused); i++)
    {
      int ok = i < G_N_ELEMENTS (taken);
      const char *h = ok ? taken[i] : refused[i - G_N_ELEMENTS (taken)];
      g_autofree char *m = g_strconcat (PL_CLEARSIGN_HEADER "\n", h, body,
                                        NULL);
      pl_verifications v;
      gpg_error_t err = verify (m, strlen (m), &v, NULL);

      if (ok && (err || n_good (&v) != 2))
        g_error ("headers %s: not taken (%s)", h, gpg_strerror (err));
      if (!ok && gpg_err_code (err) != GPG_ERR_INV_ARMOR)
        g_error ("headers %s: not refused (%s)", h, gpg_strerror (err));
    }
}

/* A binary signature (0x00) over the same text in a cleartext frame:
 * not taken for a text one. */
static void
test_binary_signature (void)
{
  pl_data_signer s;
  uint8_t body[PL_SIG_BODY_MAX], bin[PL_SIG_BODY_MAX + 6];
  char armored[4096];
  size_t len, hl, k;
  pl_armor_encoder enc;
  pl_verifications v;
  g_autofree char *m = NULL;

  g_assert_cmpint (pl_data_signer_init (&s, &key4.sk, 0, time (NULL)), ==, 0);
  pl_data_signer_push (&s, (const uint8_t *) "text", 4);
  g_assert_cmpint (pl_data_signer_finish (&s, body, &len), ==, 0);
  pl_data_signer_clear (&s);
  hl = pl_packet_write_header (bin, PL_PKT_SIGNATURE, len);
  memcpy (bin + hl, body, len);
  pl_armor_encoder_init (&enc, PL_ARMOR_SIGNATURE, 1);
  k = pl_armor_encoder_push (&enc, bin, hl + len, armored);
  k += pl_armor_encoder_finish (&enc, armored + k);
  m = g_strdup_printf (PL_CLEARSIGN_HEADER "\n\ntext\n%.*s", (int) k, armored);
  g_assert_cmpint (verify (m, strlen (m), &v, NULL), ==, 0);
  g_assert_cmpuint (v.n, ==, 1);
  g_assert_cmpint (v.v[0].verdict, ==, PL_VERDICT_UNSUPPORTED);
}

/* What sniffing says. */
static void
test_sniff (void)
{
  g_autofree char *msg = make ("sniffed\n", 8, 2);
  static const char *const not_cleartext[] = {
    PL_CLEARSIGN_HEADER "x\n", " " PL_CLEARSIGN_HEADER "\n",
    "-----BEGIN PGP SIGNED MESSAGE----\n", "",
  };
  pl_sniff_result r;

  pl_sniff ((const uint8_t *) msg, strlen (msg), strlen (msg), &r);
  g_assert_cmpint (r.kind, ==, PL_SNIFF_CLEARSIGNED);
  g_assert_true (r.armored);
  /* Cut after the header line: known from its first line. */
  pl_sniff ((const uint8_t *) msg, strlen (PL_CLEARSIGN_HEADER) + 1,
            PL_SNIFF_SIZE_UNKNOWN, &r);
  g_assert_cmpint (r.kind, ==, PL_SNIFF_CLEARSIGNED);
  for (size_t i = 0; i < G_N_ELEMENTS (not_cleartext); i++)
    {
      const char *s = not_cleartext[i];
      pl_sniff ((const uint8_t *) s, strlen (s), strlen (s), &r);
      g_assert_cmpint (r.kind, !=, PL_SNIFF_CLEARSIGNED);
    }
}

/* The desktop's lookup: only key4's certificate, by the fingerprint the
 * signature names; counts its calls. */
static int lookups;

static const pl_cert *
find_key4 (void *user_data, const uint8_t *fpr, size_t fpr_len,
           const uint8_t *keyid)
{
  const pl_cert *cert = user_data;

  (void) keyid;
  lookups++;
  if (fpr_len == cert->primary.key.fpr_len
      && !memcmp (fpr, cert->primary.key.fpr, fpr_len))
    return cert;
  return NULL;
}

/* pl_clearsign_verify_stream: the v4 signer found by the lookup (good),
 * the v6 one not (unknown key), the text as pl_clearsign_verify gives it
 * into a committed sink; one word changed: bad, and the text still
 * written (the verdict is the caller's to show); not a message: nothing
 * committed. */
static void
test_stream_lookup (void)
{
  static const char text[] = "- dashed\nnotes on the plan\n";
  g_autofree char *msg = make (text, strlen (text), 2);
  char *word;
  tu_record_sink s;
  pl_source *src;
  pl_verifications v;
  const uint8_t *out;
  size_t out_len;

  for (int altered = 0; altered < 2; altered++)
    {
      if (altered)
        {
          word = strstr (msg, "plan");
          g_assert_nonnull (word);
          memcpy (word, "plot", 4);
        }
      tu_record_sink_init (&s, pl_sink_new_memory ());
      src = pl_source_new_memory (msg, strlen (msg));
      lookups = 0;
      g_assert_cmpint (pl_clearsign_verify_stream (src, &s.base, NULL, 0,
                                                   find_key4,
                                                   (void *) key4.certs[0],
                                                   (uint32_t) time (NULL), &v,
                                                   NULL), ==, 0);
      g_assert_cmpint (s.committed, ==, 1);
      g_assert_cmpint (s.aborted, ==, 0);
      g_assert_cmpint (lookups, ==, 2);
      g_assert_cmpuint (v.n, ==, 2);
      for (size_t i = 0; i < v.n; i++)
        if (v.v[i].version == 4)
          g_assert_cmpint (v.v[i].verdict, ==,
                           altered ? PL_VERDICT_BAD : PL_VERDICT_GOOD);
        else
          g_assert_cmpint (v.v[i].verdict, ==, PL_VERDICT_UNKNOWN_KEY);
      out = pl_sink_memory_data (s.inner, &out_len);
      g_assert_cmpmem (out, out_len, altered ? "- dashed\nnotes on the plot\n"
                                             : text, strlen (text));
      pl_source_free (src);
      tu_record_sink_clear (&s);
    }

  tu_record_sink_init (&s, pl_sink_new_memory ());
  src = pl_source_new_memory (text, strlen (text));
  g_assert_cmpint (gpg_err_code (pl_clearsign_verify_stream (src, &s.base,
                                                             both, 2, NULL,
                                                             NULL, 0, &v,
                                                             NULL)),
                   ==, GPG_ERR_NO_DATA);
  g_assert_cmpint (s.committed, ==, 0);
  g_assert_cmpint (s.aborted, ==, 1);
  pl_source_free (src);
  tu_record_sink_clear (&s);
}

/* A source of N octets: a cleartext header, then lines of 'a'. */
typedef struct
{
  pl_source src;
  uint64_t left, pos;
} long_source;

static gpg_error_t
long_read (pl_source *self, void *buf, size_t len, size_t *nread)
{
  long_source *l = (long_source *) self;
  static const char head[] = PL_CLEARSIGN_HEADER "\n\n";
  uint8_t *p = buf;

  if (len > l->left)
    len = l->left;
  for (size_t i = 0; i < len; i++, l->pos++)
    p[i] = l->pos < sizeof head - 1 ? head[l->pos]
           : l->pos % 64 == 63 ? '\n' : 'a';
  l->left -= len;
  *nread = len;
  return 0;
}

static void
long_free (pl_source *self)
{
  (void) self;
}

/* The bound: pl_clearsign_read takes MAX octets and refuses one more;
 * a job's message one octet over PL_CLEARSIGN_MAX is refused with its
 * own error, before anything is committed. */
static void
test_bound (void)
{
  long_source l = { { long_read, long_free, -1, NULL, NULL }, 0, 0 };
  uint8_t *buf;
  size_t len;
  tu_record_sink s;
  pl_verifications v;

  for (uint64_t n = 3 * PL_BLOCK_SIZE - 1; n <= 3 * PL_BLOCK_SIZE + 1; n++)
    {
      l.left = n;
      l.pos = 0;
      gpg_error_t err = pl_clearsign_read (&l.src, 3 * PL_BLOCK_SIZE, NULL,
                                           &buf, &len);
      if (n <= 3 * PL_BLOCK_SIZE)
        {
          g_assert_cmpint (err, ==, 0);
          g_assert_cmpuint (len, ==, n);
          free (buf);
        }
      else
        {
          g_assert_cmpint (gpg_err_code (err), ==, PL_ERR_CLEARSIGN_TOO_LARGE);
          g_assert_null (buf);
        }
    }

  l.left = PL_CLEARSIGN_MAX + 1;
  l.pos = 0;
  tu_record_sink_init (&s, pl_sink_new_memory ());
  g_assert_cmpint (gpg_err_code (pl_clearsign_verify_stream (&l.src, &s.base,
                                                             both, 2, NULL,
                                                             NULL, 0, &v,
                                                             NULL)),
                   ==, PL_ERR_CLEARSIGN_TOO_LARGE);
  g_assert_cmpint (s.committed, ==, 0);
  g_assert_cmpint (s.aborted, ==, 1);
  /* No more than a block past the bound was read. */
  g_assert_cmpuint (l.pos, <=, PL_CLEARSIGN_MAX + PL_BLOCK_SIZE);
  tu_record_sink_clear (&s);
}

int
main (int argc, char **argv)
{
  int ret;

  tu_init (&argc, &argv);
  tu_key_make (&key4, PL_KEYGEN_DEFAULT);
  tu_key_make (&key6, PL_KEYGEN_RFC9580);
  both[0] = key4.certs[0];
  both[1] = key6.certs[0];
  g_test_add_func ("/clearsign/rfc9580-a6", test_rfc9580);
  g_test_add_func ("/clearsign/roundtrip", test_roundtrip);
  g_test_add_func ("/clearsign/rules", test_rules);
  g_test_add_func ("/clearsign/hash-headers", test_hash_headers);
  g_test_add_func ("/clearsign/binary-signature", test_binary_signature);
  g_test_add_func ("/clearsign/sniff", test_sniff);
  g_test_add_func ("/clearsign/stream-lookup", test_stream_lookup);
  g_test_add_func ("/clearsign/bound", test_bound);
  ret = g_test_run ();
  tu_key_free (&key4);
  tu_key_free (&key6);
  return ret;
}
