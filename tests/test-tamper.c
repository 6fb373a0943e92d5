/* test-tamper.c - a small message of each profile, binary and armored,
 * with each octet changed in turn and cut at every offset: every variant
 * fails with the outcome that its change calls for, and nothing is
 * written */
#include "testutil.h"
#include "errors.h"

#include <string.h>

#define M PL_OUTCOME_MALFORMED
#define P PL_OUTCOME_BAD_PASSPHRASE
#define I PL_OUTCOME_INTEGRITY
#define U PL_OUTCOME_UNSUPPORTED

/* One field of a message as pl_encrypt writes it for this test (AES-256,
 * S2K SHA-256 or Argon2 t=1 p=1 m=2^3 KiB, OCB, 64-octet chunks, 150
 * octets of binary literal data): N octets, and what decryption must say
 * when the low bit (LO) or the high bit (HI) of one of them is flipped.
 * N = 0 ends a layout: everything after it. */
typedef struct
{
  gsize n;
  pl_outcome lo, hi;
  const char *what;
} field;

/* What every layout starts with: the SKESK's packet header.  A changed
 * tag is another packet or none, a changed length misplaces the rest. */
#define SKESK_HEADER \
  { 1, M, M, "SKESK tag (another packet, or no packet)" }, \
  { 1, M, M, "SKESK length" }
/* An unknown SKESK version or algorithm makes the SKESK skipped; with no
 * key packet left, the message is malformed.  Another known algorithm in
 * the key derivation gives another key: the passphrase does not open it. */
static const field layout_rfc4880[] = {
  SKESK_HEADER,
  { 1, M, M, "SKESK version 4" },
  { 1, P, M, "cipher AES-256 (9): AES-192, or none known" },
  { 1, M, M, "S2K type 3: reserved 2, or none known" },
  { 1, P, M, "S2K hash SHA-256 (8): SHA-384, or none known" },
  { 8, P, P, "S2K salt" },
  { 1, P, P, "S2K count" },
  { 1, M, M, "SEIPD tag" },
  /* 199 octets: 0xc0 0x07.  The low bit makes it 455 (past the end), the
   * high one a one-octet length (64) and the version 7. */
  { 1, M, U, "SEIPD length, first octet" },
  /* 198 (the MDC is no longer where it must be) or 327 (past the end). */
  { 1, I, M, "SEIPD length, second octet" },
  { 1, U, U, "SEIPD version 1" },
  /* CFB's random prefix and its two check octets: the quick check fails
   * as it does for a wrong key. */
  { 18, P, P, "encrypted prefix and check octets" },
  /* The literal packet is read before the MDC is checked.  Its tag
   * becomes a marker packet (skipped, then the MDC fails) or no packet. */
  { 1, I, M, "literal tag" },
  /* 156: one longer (the MDC loses an octet) or 28 (the rest is read as
   * packets, and data octets below 0x80 are no packet header). */
  { 1, I, M, "literal length" },
  { 1, M, M, "literal format 'b'" },
  { 0, I, I, "literal data and MDC" },
};
/* v5 SKESK: the IV and the encrypted session key have lengths set by the
 * AEAD and cipher algorithms, so another algorithm misplaces them. */
static const field layout_librepgp[] = {
  SKESK_HEADER,
  { 1, M, M, "SKESK version 5" },
  { 1, M, M, "cipher AES-256 (9)" },
  { 1, M, M, "AEAD OCB (2)" },
  { 1, M, M, "S2K type 3" },
  { 1, P, M, "S2K hash SHA-256 (8): SHA-384, or none known" },
  /* salt 8, count 1, IV 15, session key 32, tag 16 */
  { 72, P, P, "S2K salt and count, AEAD IV, encrypted session key, tag" },
  { 1, M, M, "AEAD encrypted data tag (20)" },
  /* 241 octets: 0xc0 0x31; see the SEIPD length above. */
  { 1, M, U, "length, first octet" },
  { 1, I, M, "length, second octet" },
  { 1, U, U, "version 1" },
  /* AES-192 with the key of AES-256: the session key does not fit. */
  { 1, P, U, "cipher AES-256 (9)" },
  { 1, I, U, "AEAD OCB (2): GCM (3), or none known" },
  /* 2^7 octets, or past the largest chunk size. */
  { 1, I, M, "chunk size octet 0 (2^6)" },
  { 0, I, I, "IV, chunks and their tags, final tag" },
};
static const field layout_rfc9580[] = {
  SKESK_HEADER,
  { 1, M, M, "SKESK version 6" },
  { 1, M, M, "length of the fields up to the IV" },
  { 1, P, M, "cipher AES-256 (9): AES-192, or none known" },
  { 1, M, M, "AEAD OCB (2)" },
  { 1, M, M, "S2K specifier length (20)" },
  { 1, M, M, "S2K type 4 (Argon2)" },
  { 16, P, P, "Argon2 salt" },
  { 1, M, P, "Argon2 passes 1: 0 (invalid), or 129" },
  { 1, M, M, "Argon2 parallelism 1: 0, or 129 (memory under 8p)" },
  { 1, M, M, "Argon2 memory 2^3: 2^2 (under 8p), or past 2^31" },
  /* IV 15, session key 32, tag 16 */
  { 63, P, P, "AEAD IV, encrypted session key, tag" },
  { 1, M, M, "SEIPD tag" },
  /* 258 octets: 0xc0 0x42; 514 (past the end) or a one-octet length (64)
   * and the version 0x42; then 259 or 386 (past the end). */
  { 1, M, U, "SEIPD length, first octet" },
  { 1, M, M, "SEIPD length, second octet" },
  { 1, U, U, "SEIPD version 2" },
  { 1, P, U, "cipher AES-256 (9): AES-192, or none known" },
  { 1, I, U, "AEAD OCB (2): GCM (3), or none known" },
  { 1, I, M, "chunk size octet 0 (2^6): 2^7, or past the largest" },
  { 0, I, I, "salt, chunks and their tags, final tag" },
};
static const field *const layouts[] = {
  layout_rfc4880, layout_librepgp, layout_rfc9580,
};

/* The field that holds octet AT of a binary message. */
static const field *
field_at (const field *layout, gsize at)
{
  for (;; layout++)
    {
      if (!layout->n || at < layout->n)
        return layout;
      at -= layout->n;
    }
}

static void
make_options (pl_encrypt_options *o, pl_profile profile, int armor)
{
  pl_encrypt_options_init (o);
  o->profile = profile;
  o->armor = armor;
  tu_cheap_kdf (o);
  /* 64-octet AEAD chunks: 150 octets make three chunks. */
  o->chunk_octet = 0;
}

/* Decryption of a variant fails with WANT and writes nothing; or, when
 * WANT is PL_OUTCOME_OK (armor only: a change the armor reader
 * tolerates, such as whitespace), it yields exactly the original. */
static void
check_variant (const guint8 *d, gsize len, GBytes *plain, pl_outcome want,
               const char *what, gsize at)
{
  GBytes *out;
  gpg_error_t err = tu_decrypt ("tamper", d, len, &out, NULL);

  if (pl_error_outcome (err) != want)
    g_test_message ("octet %" G_GSIZE_FORMAT " of %" G_GSIZE_FORMAT
                    " (%s): %s", at, len, what, gpg_strerror (err));
  g_assert_cmpint (pl_error_outcome (err), ==, want);
  if (err)
    g_assert_cmpuint (g_bytes_get_size (out), ==, 0);
  else
    g_assert_true (g_bytes_equal (out, plain));
  g_bytes_unref (out);
}

/* --- armor --- */

/* The armored message's lines, and which are radix-64 body lines (not
 * the BEGIN and END lines, the blank line after BEGIN, or the CRC). */
typedef struct
{
  char **lines;
  guint n;
  guint first_body, end_body;   /* [first_body, end_body) */
} armor_text;

static void
armor_text_split (armor_text *t, const guint8 *d, gsize len)
{
  char *text = g_strndup ((const char *) d, len);

  t->lines = g_strsplit (text, "\n", -1);
  t->n = g_strv_length (t->lines);
  g_free (text);
  g_assert_true (g_str_has_prefix (t->lines[0], "-----BEGIN PGP MESSAGE"));
  g_assert_cmpstr (t->lines[1], ==, "");
  t->first_body = 2;
  t->end_body = t->first_body;
  while (t->end_body < t->n && t->lines[t->end_body][0]
         && t->lines[t->end_body][0] != '=' && t->lines[t->end_body][0] != '-')
    t->end_body++;
}

static gboolean
is_body_line (const armor_text *t, guint line)
{
  return line >= t->first_body && line < t->end_body;
}

/* The body lines decoded by GLib's radix-64 decoder: a reference
 * independent of armor.c. */
static GBytes *
armor_text_decode (const armor_text *t)
{
  GString *b = g_string_new (NULL);
  gsize len;
  guchar *bin;

  for (guint l = t->first_body; l < t->end_body; l++)
    g_string_append (b, t->lines[l]);
  bin = g_base64_decode (b->str, &len);
  g_string_free (b, TRUE);
  return g_bytes_new_take (bin, len);
}

static gboolean
is_radix64 (char c)
{
  return g_ascii_isalnum (c) || c == '+' || c == '/';
}

/* What the low bit flipped at octet AT of an armored message must give.
 * A line end becomes a vertical tab (whitespace), which joins two lines:
 * harmless where one of them is blank or both are body lines without
 * padding, fatal where it joins the padding, the CRC and the END line.  A
 * changed framing line or CRC is malformed armor, as is any character out
 * of the alphabet.  A body character still in the alphabet changes the
 * binary message: the armored variant must then fail exactly as that
 * binary message (decoded by GLib) does, or open where only the unused
 * bits before the padding changed. */
static pl_outcome
armor_expect (const guint8 *d, gsize len, gsize at, GBytes *binary)
{
  armor_text t;
  guint line = 0;
  gsize col = 0;
  pl_outcome want;

  armor_text_split (&t, d, len);
  for (gsize i = 0; i < at; i++)
    if (d[i] == '\n')
      line++, col = 0;
    else
      col++;
  if (d[at] == '\n')
    {
      const char *next = line + 1 < t.n ? t.lines[line + 1] : "";
      gboolean joins_body = is_body_line (&t, line)
                            && is_body_line (&t, line + 1)
                            && !strchr (t.lines[line], '=');
      want = !t.lines[line][0] || !next[0] || joins_body
             ? PL_OUTCOME_OK : M;
    }
  else if (!is_body_line (&t, line) || !is_radix64 ((char) (d[at] ^ 1)))
    want = M;
  else
    {
      GBytes *changed;

      GBytes *out;
      gsize n;
      const guint8 *c;

      t.lines[line][col] ^= 1;
      changed = armor_text_decode (&t);
      c = g_bytes_get_data (changed, &n);
      /* The same message again where only the unused low bits before
       * the padding changed. */
      want = pl_error_outcome (tu_decrypt ("tamper", c, n, &out, NULL));
      g_assert_true ((want == PL_OUTCOME_OK) == g_bytes_equal (changed, binary));
      g_bytes_unref (out);
      g_bytes_unref (changed);
    }
  g_strfreev (t.lines);
  return want;
}

static void
sweep (gconstpointer p)
{
  int profile = GPOINTER_TO_INT (p) >> 1;
  int armor = GPOINTER_TO_INT (p) & 1;
  pl_encrypt_options o;
  GBytes *plain = tu_random_bytes (150), *cipher, *binary = NULL;
  guint8 *d;
  gsize len, variants = 0;

  /* Data octets below 0x80 are never a packet header (layout_rfc4880's
   * literal length). */
  d = g_bytes_unref_to_data (plain, &len);
  for (gsize i = 0; i < len; i++)
    d[i] &= 0x7f;
  plain = g_bytes_new_take (d, len);
  make_options (&o, (pl_profile) profile, armor);
  g_assert_cmpuint (tu_encrypt (&o, "tamper", g_bytes_get_data (plain, NULL),
                                150, &cipher), ==, 0);
  d = g_bytes_unref_to_data (cipher, &len);
  if (armor)
    {
      armor_text t;

      armor_text_split (&t, d, len);
      binary = armor_text_decode (&t);
      g_strfreev (t.lines);
    }
  for (gsize i = 0; i < len; i++)
    {
      guint8 keep = d[i];
      const field *f = armor ? NULL : field_at (layouts[profile], i);
      pl_outcome lo = armor ? armor_expect (d, len, i, binary) : f->lo;

      /* Two changes per octet: a flipped low bit and a flipped high bit
       * (for armor, the high bit makes it no character at all). */
      d[i] = keep ^ 0x01;
      check_variant (d, len, plain, lo, armor ? "armor" : f->what, i);
      d[i] = keep ^ 0x80;
      check_variant (d, len, plain, armor ? M : f->hi,
                     armor ? "armor" : f->what, i);
      d[i] = keep;
      variants += 2;
    }
  for (gsize cut = 0; cut < len; cut++)
    {
      /* An armored message cut after its END line is whole. */
      if (armor && cut >= len - 1)
        continue;
      check_variant (d, cut, plain, M, "cut", cut);
      variants++;
    }
  g_test_message ("%" G_GSIZE_FORMAT " octets: %" G_GSIZE_FORMAT
                  " variants", len, variants);
  if (binary)
    g_bytes_unref (binary);
  g_free (d);
  g_bytes_unref (plain);
}

int
main (int argc, char **argv)
{
  static const char *names[] = { "rfc4880", "librepgp", "rfc9580" };

  tu_init (&argc, &argv);
  for (int p = 0; p < 3; p++)
    for (int a = 0; a < 2; a++)
      {
        char *path = g_strdup_printf ("/tamper/%s/%s", names[p],
                                      a ? "armor" : "binary");
        g_test_add_data_func (path, GINT_TO_POINTER (p << 1 | a), sweep);
        g_free (path);
      }
  return g_test_run ();
}
