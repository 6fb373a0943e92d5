/* sniff.c - what a file is, from its first octets (see sniff.h) */
#include "sniff.h"
#include "clearsign.h"

#include <string.h>
#include <strings.h>

#include "algo.h"
#include "armor.h"
#include "compress.h"
#include "literal.h"
#include "packet.h"
#include "skesk.h"
#include "tar.h"

/* Packets that may come before the first one judged: Marker, Padding and
 * the unassigned non-critical tags (packet.h).  A file of nothing else is
 * not judged a message, but for the marker's own "PGP". */
#define SKIPPABLE_MAX 8

/* What a compressed packet's first octets inflate to, for judging the
 * packet inside and its literal data's first tar header: a literal
 * header (at most PL_LITERAL_HEADER_MAX + 6 octets) and 512. */
#define INFLATED_MAX 2048

/* The buffer as the one block of a pl_reader, so that packet.c frames it. */
typedef struct
{
  pl_reader base;
  uint8_t *data;
  size_t len;
  int handed;
  int exhausted;                /* asked for octets past the buffer */
} buffer_reader;

static gpg_error_t
buffer_next (pl_reader *self, uint8_t **data, size_t *len)
{
  buffer_reader *r = (buffer_reader *) self;

  if (!r->handed && r->len)
    {
      r->handed = 1;
      *data = r->data;
      *len = r->len;
    }
  else
    {
      r->exhausted = 1;
      *len = 0;
    }
  return 0;
}

typedef struct
{
  buffer_reader reader;
  pl_cursor cursor;
  int64_t total;                /* the whole input's size, or -1 */
} walk;

static void
walk_init (walk *w, uint8_t *data, size_t len, int64_t total)
{
  memset (&w->reader, 0, sizeof w->reader);
  w->reader.base.next = buffer_next;
  w->reader.data = data;
  w->reader.len = len;
  w->total = total;
  pl_cursor_init (&w->cursor, &w->reader.base);
}

/* Octets of the buffer consumed so far. */
static size_t
walk_offset (const walk *w)
{
  return w->cursor.p ? w->reader.len - w->cursor.n : 0;
}

typedef struct
{
  pl_packet_body body;
  int tag;
  int new_format;
  size_t body_start;            /* offset of the body in the buffer */
  int64_t body_len;             /* -1: partial or indeterminate */
  int version;                  /* the body's first octet, -1 past the end */
} packet;

static gpg_error_t
begin_packet (walk *w, packet *p)
{
  size_t start = walk_offset (w);
  gpg_error_t err = pl_packet_begin (&w->cursor, &p->body);

  if (err)
    return err;
  p->tag = p->body.tag;
  p->new_format = (w->reader.data[start] & 0x40) != 0;
  p->body_start = walk_offset (w);
  p->body_len = p->body.partial || p->body.until_eof
                ? -1 : (int64_t) p->body.remaining;
  p->version = p->body_start < w->reader.len && p->body_len != 0
               ? w->reader.data[p->body_start] : -1;
  return 0;
}

/* A definite-length packet ends where the input does (a message's last
 * packet); partial and indeterminate lengths run to the end anyway. */
static int
fills (const walk *w, const packet *p)
{
  return p->body_len < 0 || w->total < 0
         || (int64_t) p->body_start + p->body_len == w->total;
}

/* Something follows a definite-length packet (a key packet is never a
 * message's last). */
static int
more_follows (const walk *w, const packet *p)
{
  return p->body_len >= 0
         && (w->total < 0 || (int64_t) p->body_start + p->body_len < w->total);
}

/* The body when the buffer holds all of it (definite length), else NULL. */
static const uint8_t *
whole_body (const walk *w, const packet *p)
{
  if (p->body_len < 0
      || (uint64_t) p->body_len > w->reader.len - p->body_start)
    return NULL;
  return w->reader.data + p->body_start;
}

/* RFC 9580 §9.1, with the LibrePGP and retired ids still met in files. */
static int
known_pubkey_algo (int algo)
{
  switch (algo)
    {
    case 1: case 2: case 3:             /* RSA */
    case 16: case 17:                   /* Elgamal, DSA */
    case 18: case 19: case 22:          /* ECDH, ECDSA, EdDSA (legacy) */
    case 25: case 26: case 27: case 28: /* X25519, X448, Ed25519, Ed448 */
      return 1;
    default:
      return 0;
    }
}

/* v3 PKESK: version, key ID (8), algorithm.  v6: version, the length of
 * what names the key, that (key version and fingerprint, or nothing for
 * an anonymous recipient), algorithm. */
static void
parse_pkesk (const uint8_t *b, size_t len, pl_sniff_key_packet *k)
{
  if (k->version == 3 && len >= 10)
    {
      memcpy (k->key_id, b + 1, 8);
      k->pubkey_algo = b[9];
      k->parsed = 1;
    }
  else if (k->version == 6 && len >= 3)
    {
      size_t n = b[1];

      if (len < 2 + n + 1 || (n && n != 21 && n != 33))
        return;
      if (n)
        {
          if ((b[2] == 4) != (n == 21) || (b[2] == 6) != (n == 33))
            return;
          k->key_version = b[2];
          k->fingerprint_len = n - 1;
          memcpy (k->fingerprint, b + 3, k->fingerprint_len);
          /* v4: the fingerprint's last 8 octets; v6: its first 8. */
          memcpy (k->key_id, k->key_version == 4 ? b + 3 + 12 : b + 3, 8);
        }
      k->pubkey_algo = b[2 + n];
      k->parsed = 1;
    }
}

static void
add_key_packet (const walk *w, const packet *p, pl_sniff_result *r)
{
  const uint8_t *body = whole_body (w, p);
  pl_sniff_key_packet *k;

  if (r->n_key_packets == PL_SNIFF_KEY_PACKETS_MAX)
    {
      r->key_packets_left_out++;
      return;
    }
  k = &r->key_packets[r->n_key_packets++];
  k->tag = p->tag;
  k->version = p->version < 0 ? 0 : p->version;
  if (!body)
    return;
  if (p->tag == PL_PKT_SKESK)
    {
      pl_skesk sk;

      if (!pl_skesk_parse (&sk, body, (size_t) p->body_len))
        {
          k->cipher_algo = sk.cipher_algo;
          k->aead_algo = sk.aead_algo;
          k->s2k = sk.s2k;
          k->parsed = 1;
        }
    }
  else
    parse_pkesk (body, (size_t) p->body_len, k);
}

/* Whether a literal body's data starts a tar archive: its header (format,
 * name, date), then the first 512 octets of data. */
static pl_sniff_tar
literal_tar (walk *w, packet *p)
{
  uint8_t head[PL_LITERAL_HEADER_MAX], block[512];
  pl_cursor lc;
  gpg_error_t err;

  pl_cursor_init (&lc, &p->body.base);
  err = pl_cursor_read (&lc, head, 2);
  if (!err)
    err = pl_cursor_read (&lc, head + 2, (size_t) head[1] + 4);
  if (!err)
    err = pl_cursor_read (&lc, block, sizeof block);
  if (!err)
    return pl_tar_header_is_valid (block, sizeof block) ? PL_SNIFF_TAR_YES
                                                        : PL_SNIFF_TAR_NO;
  /* Cut by the buffer: the rest may be anything.  Else the literal data
   * is shorter than a tar header (or the packet is malformed). */
  return w->reader.exhausted ? PL_SNIFF_TAR_UNKNOWN : PL_SNIFF_TAR_NO;
}

/* Inflates as much of a compressed packet's body (from its algorithm
 * octet on) as the buffer holds, up to CAP octets into OUT.  *ENDED: the
 * compressed stream ended within.  Only damage is an error: the buffer's
 * end is not. */
static gpg_error_t
inflate_prefix (packet *p, uint8_t *out, size_t cap, size_t *produced,
                int *ended)
{
  pl_inflate z;
  pl_cursor bc;
  uint8_t algo, *in;
  size_t n = 0;
  gpg_error_t err;

  *produced = 0;
  *ended = 0;
  pl_cursor_init (&bc, &p->body.base);
  if (pl_cursor_read (&bc, &algo, 1))
    return 0;
  if (algo == PL_COMPRESS_NONE)
    {
      while (*produced < cap
             && !pl_cursor_take (&bc, cap - *produced, &in, &n) && n)
        {
          memcpy (out + *produced, in, n);
          *produced += n;
        }
      *ended = bc.eof;
      return 0;
    }
  err = pl_inflate_init (&z, algo);
  if (err)
    return err;
  pl_inflate_set_expansion_floor (&z, PL_INFLATE_NO_LIMIT);
  while (!err && *produced < cap && !z.ended)
    {
      size_t consumed = 0, made = 0;

      if (!n && (pl_cursor_take (&bc, SIZE_MAX, &in, &n) || !n))
        break;
      err = pl_inflate_push (&z, in, n, &consumed, out + *produced,
                             cap - *produced, &made);
      in += consumed;
      n -= consumed;
      *produced += made;
      if (!consumed && !made)
        break;
    }
  *ended = z.ended;
  pl_inflate_clear (&z);
  return err;
}

static void read_packets (walk *w, packet *p, pl_sniff_result *r, int depth);

/* The packets a compressed packet holds, from what of it inflates within
 * the buffer: 1 when they start as a message's would (a literal, or a
 * signed message's one-pass signature or signature), or when too little
 * inflated to judge.  gpg writes compressed packets with the old format's
 * indeterminate length, 0xa3, and 0xa3 0x00-0x03 starts one random file
 * in 16,384: this is what tells them apart. */
static int
read_compressed (packet *p, pl_sniff_result *r, int depth)
{
  uint8_t out[INFLATED_MAX];
  size_t n;
  int ended;
  walk inner;
  packet ip;
  gpg_error_t err;

  if (inflate_prefix (p, out, sizeof out, &n, &ended))
    return 0;
  walk_init (&inner, out, n, ended ? (int64_t) n : PL_SNIFF_SIZE_UNKNOWN);
  err = begin_packet (&inner, &ip);
  if (err)
    /* A header cut by what inflated so far: judge by its tag bit. */
    return n < 6 && (!n || (out[0] & 0x80));
  if (ip.tag != PL_PKT_LITERAL && ip.tag != PL_PKT_ONEPASS_SIG
      && ip.tag != PL_PKT_SIGNATURE)
    return 0;
  if (depth < 1)
    read_packets (&inner, &ip, r, depth + 1);
  return 1;
}

/* The message's packets from P on, as far as the buffer goes: key
 * packets, then the encrypted data packet; or, not encrypted, the
 * literal data (inside a compressed packet too) and whether it is tar. */
static void
read_packets (walk *w, packet *p, pl_sniff_result *r, int depth)
{
  for (;;)
    {
      switch (p->tag)
        {
        case PL_PKT_SKESK:
        case PL_PKT_PKESK:
          add_key_packet (w, p, r);
          break;
        case PL_PKT_SEIPD:
        case PL_PKT_OCB_ENCRYPTED:
        case PL_PKT_SED:
          r->data_tag = p->tag;
          r->data_version = p->tag == PL_PKT_SED || p->version < 0
                            ? 0 : p->version;
          return;
        case PL_PKT_LITERAL:
          r->tar = literal_tar (w, p);
          return;
        case PL_PKT_COMPRESSED:
          if (depth < 1)
            read_compressed (p, r, depth);
          return;
        case PL_PKT_ONEPASS_SIG:
        case PL_PKT_SIGNATURE:
          break;
        default:
          if (!pl_packet_skippable (p->tag))
            return;
        }
      if (pl_packet_skip (&p->body) || begin_packet (w, p))
        return;
    }
}

/* Whether a signature packet's body starts as one: version 3 (hashed
 * length 5), 4 or 6 (type, then known algorithms); 5 is LibrePGP's. */
static int
plausible_signature (const walk *w, const packet *p)
{
  const uint8_t *b = w->reader.data + p->body_start;
  size_t have = w->reader.len - p->body_start;

  if (p->body_len < 0 || have < 4)
    return 0;
  if (b[0] == 3)
    return b[1] == 5;
  return (b[0] == 4 || b[0] == 5 || b[0] == 6)
         && known_pubkey_algo (b[2]) && b[3] >= 1 && b[3] <= 14;
}

/* A primary key packet: version, creation time (4), algorithm. */
static int
plausible_key (walk *w, const packet *p, pl_sniff_result *r)
{
  const uint8_t *b = w->reader.data + p->body_start;

  if (p->body_len < 10 || w->reader.len - p->body_start < 6
      || !more_follows (w, p)
      || (b[0] != 4 && b[0] != 5 && b[0] != 6) || !known_pubkey_algo (b[5]))
    return 0;
  r->kind = p->tag == PL_PKT_PUBLIC_KEY ? PL_SNIFF_PUBLIC_KEY
                                        : PL_SNIFF_SECRET_KEY;
  r->key_version = b[0];
  r->key_algo = b[5];
  return 1;
}

/* A literal header's name fits its body. */
static int
plausible_name_length (const walk *w, const packet *p)
{
  if (p->body_len < 0 || w->reader.len - p->body_start < 2)
    return 1;
  return (int64_t) w->reader.data[p->body_start + 1] + 6 <= p->body_len;
}

/* Whether P, the first packet after any skippable ones, starts what it
 * claims, judged strictly: a random file's first octet is a valid tag
 * one time in two. */
static int
judge_first (walk *w, packet *p, pl_sniff_result *r)
{
  int v = p->version;

  r->kind = PL_SNIFF_MESSAGE;
  switch (p->tag)
    {
    case PL_PKT_SKESK:          /* v4, v5, v6: short, and more follows */
      r->encrypted = 1;
      return (v == 4 || v == 5 || v == 6) && p->body_len >= 4
             && p->body_len <= 512 && more_follows (w, p);
    case PL_PKT_PKESK:          /* v3, v6 */
      r->encrypted = 1;
      return (v == 3 || v == 6) && p->body_len >= 10
             && p->body_len <= 8192 && more_follows (w, p);
    case PL_PKT_SEIPD:
      r->encrypted = 1;
      return (v == 1 || v == 2) && fills (w, p);
    case PL_PKT_OCB_ENCRYPTED:  /* LibrePGP */
      r->encrypted = 1;
      return v == 1 && fills (w, p);
    case PL_PKT_SED:
      /* No version octet to check: only an exact fit, or a new-format
       * partial length, counts (an old-style indeterminate length is one
       * octet, 0xa7, that too many ordinary files start with). */
      r->encrypted = 1;
      return p->body_len < 0 ? p->new_format : fills (w, p);
    case PL_PKT_COMPRESSED:
      return v >= 0 && v <= 3 && fills (w, p) && read_compressed (p, r, 0);
    case PL_PKT_LITERAL:
      /* A format RFC 9580 or LibrePGP names, and an exact fit or a
       * new-format partial length, as for SED. */
      return v > 0 && strchr ("btuml1", v)
             && (p->body_len < 0 ? p->new_format : fills (w, p))
             && (p->body_len < 0 || p->body_len >= 6)
             && plausible_name_length (w, p);
    case PL_PKT_ONEPASS_SIG:    /* v3: 13 octets; v6: salt and fingerprint */
      return ((v == 3 && p->body_len == 13) || (v == 6 && p->body_len >= 38))
             && more_follows (w, p);
    case PL_PKT_SIGNATURE:
      r->kind = PL_SNIFF_SIGNATURE;
      return plausible_signature (w, p);
    case PL_PKT_PUBLIC_KEY:
    case PL_PKT_SECRET_KEY:
      return plausible_key (w, p, r);
    default:
      return 0;
    }
}

/* A marker packet holds exactly "PGP" (RFC 9580 §5.8). */
static int
is_marker (const walk *w, const packet *p)
{
  const uint8_t *b = whole_body (w, p);

  return p->tag == PL_PKT_MARKER && p->body_len == 3 && b
         && !memcmp (b, "PGP", 3);
}

static void
sniff_binary (uint8_t *buf, size_t len, int64_t total, pl_sniff_result *r)
{
  walk w;
  packet p;
  int marker = 0, first_tag;

  walk_init (&w, buf, len, total);
  for (int i = 0;; i++)
    {
      if (begin_packet (&w, &p))
        {
          /* Only a marker so far, and the buffer ends: a message. */
          r->kind = marker ? PL_SNIFF_MESSAGE : PL_SNIFF_NOT_OPENPGP;
          return;
        }
      if (!pl_packet_skippable (p.tag))
        break;
      if (p.tag == PL_PKT_MARKER && !is_marker (&w, &p))
        return;
      marker |= p.tag == PL_PKT_MARKER;
      if (i == SKIPPABLE_MAX || pl_packet_skip (&p.body))
        {
          r->kind = marker ? PL_SNIFF_MESSAGE : PL_SNIFF_NOT_OPENPGP;
          return;
        }
    }
  first_tag = p.tag;
  if (!judge_first (&w, &p, r))
    {
      memset (r, 0, sizeof *r);
      return;
    }
  if (r->kind == PL_SNIFF_SIGNATURE)
    {
      /* A signature before the literal data: an old-style signed
       * message (RFC 9580 §10.3). */
      if (!pl_packet_skip (&p.body) && !begin_packet (&w, &p)
          && (p.tag == PL_PKT_LITERAL || p.tag == PL_PKT_COMPRESSED
              || p.tag == PL_PKT_ONEPASS_SIG))
        r->kind = PL_SNIFF_MESSAGE;
      else
        return;
    }
  /* Judged, and no key packet nor encrypted data came first. */
  if (r->kind == PL_SNIFF_MESSAGE && !r->encrypted)
    r->unencrypted = 1;
  /* A compressed packet first was read to judge it. */
  if (r->kind == PL_SNIFF_MESSAGE && first_tag != PL_PKT_COMPRESSED)
    read_packets (&w, &p, r, 0);
}

/* Armor: the BEGIN line's label decides, whatever follows; the packets
 * are read from as much as decodes. */
static void
sniff_armored (const uint8_t *buf, size_t len, pl_sniff_result *r)
{
  static const pl_sniff_kind kinds[] = {
    [PL_ARMOR_MESSAGE] = PL_SNIFF_MESSAGE,
    [PL_ARMOR_PUBLIC_KEY] = PL_SNIFF_PUBLIC_KEY,
    [PL_ARMOR_PRIVATE_KEY] = PL_SNIFF_SECRET_KEY,
    [PL_ARMOR_SIGNATURE] = PL_SNIFF_SIGNATURE,
  };
  uint8_t out[PL_SNIFF_SIZE];
  pl_armor_decoder dec;
  pl_armor_label label;
  pl_sniff_result inner;
  size_t n = 0;

  pl_armor_decoder_init (&dec);
  /* An error stops the decoder; what it gave until then is kept. */
  (void) pl_armor_decoder_push (&dec, buf, len, out, &n);
  if (!pl_armor_decoder_label (&dec, &label))
    return;                     /* no armor */
  memset (&inner, 0, sizeof inner);
  sniff_binary (out, n, pl_armor_decoder_done (&dec) ? (int64_t) n
                                                     : PL_SNIFF_SIZE_UNKNOWN,
                &inner);
  if (inner.kind == kinds[label])
    *r = inner;
  r->kind = kinds[label];
  r->armored = 1;
}

void
pl_sniff (const uint8_t *buf, size_t len, int64_t total,
          pl_sniff_result *result)
{
  uint8_t copy[PL_SNIFF_SIZE];

  memset (result, 0, sizeof *result);
  if (!len)
    return;
  if (total >= 0 && total < (int64_t) len)
    total = (int64_t) len;      /* a size that changed: the octets win */
  if (len > PL_SNIFF_SIZE)
    len = PL_SNIFF_SIZE;
  /* Its header is no armor's BEGIN line, and would not decode. */
  if (pl_clearsign_detect (buf, len))
    {
      result->kind = PL_SNIFF_CLEARSIGNED;
      result->armored = 1;
      return;
    }
  if (pl_armor_detect (buf, len) == 1)
    {
      sniff_armored (buf, len, result);
      return;
    }
  /* packet.c's readers hand out writable blocks. */
  memcpy (copy, buf, len);
  sniff_binary (copy, len, total, result);
}

int
pl_sniff_name_says_openpgp (const char *name)
{
  static const char *const suffixes[] = { ".gpg", ".pgp", ".asc" };
  size_t n = name ? strlen (name) : 0;

  for (size_t i = 0; i < sizeof suffixes / sizeof suffixes[0]; i++)
    if (n > 4 && !strcasecmp (name + n - 4, suffixes[i])
        && name[n - 5] != '/')
      return 1;
  return 0;
}

void
pl_sniff_key_kinds (const pl_sniff_result *sniffed, int *pkesk, int *skesk)
{
  *pkesk = *skesk = 0;
  for (size_t k = 0; sniffed && k < sniffed->n_key_packets; k++)
    {
      *pkesk |= sniffed->key_packets[k].tag == PL_PKT_PKESK;
      *skesk |= sniffed->key_packets[k].tag == PL_PKT_SKESK;
    }
  if (sniffed && sniffed->key_packets_left_out)
    *skesk = 1;
}
