/* clearsign.c - the Cleartext Signature Framework (RFC 9580 §7) */
#include "clearsign.h"
#include "algo.h"
#include "armor.h"
#include "errors.h"
#include "packet.h"
#include "sign.h"

#include <stdlib.h>
#include <string.h>

#define SIG_BEGIN "-----BEGIN PGP SIGNATURE-----"

/* The Text Names of RFC 9580 Table 23, by OpenPGP id. */
static const struct
{
  int id;
  const char *name;
} hash_names[] = {
  { PL_HASH_MD5, "MD5" }, { PL_HASH_SHA1, "SHA1" },
  { PL_HASH_RIPEMD160, "RIPEMD160" }, { PL_HASH_SHA256, "SHA256" },
  { PL_HASH_SHA384, "SHA384" }, { PL_HASH_SHA512, "SHA512" },
  { PL_HASH_SHA224, "SHA224" }, { PL_HASH_SHA3_256, "SHA3-256" },
  { PL_HASH_SHA3_512, "SHA3-512" },
};

/* A growing buffer; ERR sticks. */
typedef struct
{
  uint8_t *p;
  size_t len, cap;
  gpg_error_t err;
} buffer;

static void
put (buffer *b, const void *p, size_t n)
{
  if (b->err)
    return;
  if (b->len + n + 1 > b->cap)
    {
      size_t cap = 2 * (b->len + n + 1) + 256;
      uint8_t *m = realloc (b->p, cap);
      if (!m)
        {
          b->err = gpg_error (GPG_ERR_ENOMEM);
          return;
        }
      b->p = m;
      b->cap = cap;
    }
  memcpy (b->p + b->len, p, n);
  b->len += n;
}

static void
put_str (buffer *b, const char *s)
{
  put (b, s, strlen (s));
}

/* The line at *POS of P, LEN: *LINE, *N without its LF (or CR LF); *POS
 * moves past it.  0 at the end. */
static int
next_line (const uint8_t *p, size_t len, size_t *pos, const uint8_t **line,
           size_t *n)
{
  const uint8_t *lf;

  if (*pos >= len)
    return 0;
  *line = p + *pos;
  lf = memchr (*line, '\n', len - *pos);
  *n = lf ? (size_t) (lf - *line) : len - *pos;
  *pos += *n + (lf != NULL);
  if (*n && (*line)[*n - 1] == '\r')
    (*n)--;
  return 1;
}

/* N without the trailing spaces, tabs and CRs of LINE.  RFC 9580 §7.2
 * names spaces and tabs; a CR is trimmed too, as gpg does (" \t\r"),
 * because the reader takes a CR before the LF as the line's end: a line
 * made ending "\t\r" would be written "\t\r\n", read as "\t" and
 * trimmed to less than was signed.  Trimming it on both sides makes
 * what pl_clearsign_make writes read back exactly as signed. */
static size_t
trim (const uint8_t *line, size_t n)
{
  while (n && (line[n - 1] == ' ' || line[n - 1] == '\t'
               || line[n - 1] == '\r'))
    n--;
  return n;
}

static int
line_is (const uint8_t *line, size_t n, const char *s)
{
  n = trim (line, n);
  return n == strlen (s) && !memcmp (line, s, n);
}

int
pl_clearsign_detect (const uint8_t *buf, size_t len)
{
  size_t h = strlen (PL_CLEARSIGN_HEADER), pos = 0, n;
  const uint8_t *line;

  if (len < h || memcmp (buf, PL_CLEARSIGN_HEADER, h))
    return 0;
  /* The rest of the line: whitespace, then the end (or the buffer's). */
  next_line (buf, len, &pos, &line, &n);
  return trim (line, n) == h;
}

/* "Hash: NAME[,NAME]..." with names of Table 23 (spaces allowed around
 * the commas). */
static int
well_formed_hash_header (const uint8_t *line, size_t n)
{
  size_t i = 5;

  n = trim (line, n);
  if (n < 6 || memcmp (line, "Hash:", 5))
    return 0;
  for (;;)
    {
      size_t start, k;
      int known = 0;

      while (i < n && line[i] == ' ')
        i++;
      start = i;
      while (i < n && line[i] != ',' && line[i] != ' ')
        i++;
      k = i - start;
      for (size_t j = 0; j < sizeof hash_names / sizeof hash_names[0]; j++)
        known |= k == strlen (hash_names[j].name)
                 && !memcmp (line + start, hash_names[j].name, k);
      if (!known)
        return 0;
      while (i < n && line[i] == ' ')
        i++;
      if (i == n)
        return 1;
      if (line[i++] != ',')
        return 0;
    }
}

/* The signed text of MSG into *SIGNED (lines joined by LF, no final
 * one), the offset of the signature's BEGIN line into *SIGS. */
static gpg_error_t
read_cleartext (const uint8_t *msg, size_t len, buffer *signed_text,
                size_t *sigs)
{
  size_t pos = 0, n, lines = 0;
  const uint8_t *line;

  if (!next_line (msg, len, &pos, &line, &n)
      || !line_is (line, n, PL_CLEARSIGN_HEADER))
    return gpg_error (GPG_ERR_NO_DATA);
  /* The armor headers: well-formed Hash headers only, to the empty
   * line. */
  for (;;)
    {
      if (!next_line (msg, len, &pos, &line, &n))
        return gpg_error (GPG_ERR_NO_DATA);
      if (!trim (line, n))
        break;
      if (!well_formed_hash_header (line, n))
        return gpg_error (GPG_ERR_INV_ARMOR);
    }
  for (;;)
    {
      size_t at = pos;

      if (!next_line (msg, len, &pos, &line, &n))
        return gpg_error (GPG_ERR_NO_DATA);
      if (line_is (line, n, SIG_BEGIN))
        {
          *sigs = at;
          return signed_text->err;
        }
      if (n && line[0] == '-')
        {
          /* "- " undone; any other dash opens nothing we know. */
          if (n < 2 || line[1] != ' ')
            return gpg_error (GPG_ERR_INV_ARMOR);
          line += 2;
          n -= 2;
        }
      if (lines++)
        put (signed_text, "\n", 1);
      put (signed_text, line, trim (line, n));
    }
}

/* pl_clearsign_verify, the issuers none of CERTS holds asked of
 * FIND_CERT when it is not NULL. */
static gpg_error_t
verify_message (const uint8_t *msg, size_t len, const pl_cert *const *certs,
                size_t n_certs, pl_cert_lookup_fn find_cert,
                void *find_cert_data, uint32_t now, pl_verifications *out,
                uint8_t **text, size_t *text_len)
{
  buffer signed_text = { 0 };
  size_t sigs = 0;
  pl_source *src = NULL;
  gpg_error_t err;

  memset (out, 0, sizeof *out);
  if (text)
    {
      *text = NULL;
      *text_len = 0;
    }
  err = read_cleartext (msg, len, &signed_text, &sigs);
  if (!err)
    {
      src = pl_source_new_memory (signed_text.p, signed_text.len);
      err = src ? 0 : gpg_error (GPG_ERR_ENOMEM);
    }
  /* Text signatures hash the lines with CR LF (verify.h). */
  if (!err)
    err = pl_verify_detached_lookup (msg + sigs, len - sigs, src, certs,
                                     n_certs, find_cert, find_cert_data, now,
                                     out);
  for (size_t i = 0; !err && i < out->n; i++)
    if (out->v[i].type != PL_SIG_TEXT)
      {
        out->v[i].verdict = PL_VERDICT_UNSUPPORTED;
        out->v[i].why = gpg_error (GPG_ERR_SIG_CLASS);
      }
  pl_source_free (src);
  if (!err && text)
    {
      put (&signed_text, "\n", 1);
      err = signed_text.err;
      if (!err)
        {
          *text = signed_text.p;
          *text_len = signed_text.len;
          signed_text.p = NULL;
        }
    }
  free (signed_text.p);
  return err;
}

gpg_error_t
pl_clearsign_verify (const uint8_t *msg, size_t len,
                     const pl_cert *const *certs, size_t n_certs,
                     uint32_t now, pl_verifications *out, uint8_t **text,
                     size_t *text_len)
{
  return verify_message (msg, len, certs, n_certs, NULL, NULL, now, out, text,
                         text_len);
}

gpg_error_t
pl_clearsign_read (pl_source *src, size_t max, const pl_job_control *ctl,
                   uint8_t **buf, size_t *len)
{
  size_t cap = 0, n;
  gpg_error_t err = 0;

  *buf = NULL;
  *len = 0;
  for (;;)
    {
      /* Room for a whole block more, up to MAX and one block past it:
       * what is read past MAX only tells that there is more. */
      if (cap - *len < PL_BLOCK_SIZE)
        {
          size_t want = cap ? 2 * cap : PL_BLOCK_SIZE;
          uint8_t *m;

          if (want > max + PL_BLOCK_SIZE)
            want = max + PL_BLOCK_SIZE;
          if (want - *len < PL_BLOCK_SIZE)
            want = *len + PL_BLOCK_SIZE;
          if (!(m = realloc (*buf, want)))
            {
              err = gpg_error (GPG_ERR_ENOMEM);
              break;
            }
          *buf = m;
          cap = want;
        }
      err = pl_source_read_full (src, *buf + *len, PL_BLOCK_SIZE, &n);
      if (!err)
        err = pl_job_check_cancel (ctl);
      if (err || !n)
        break;
      *len += n;
      if (*len > max)
        {
          err = gpg_error (PL_ERR_CLEARSIGN_TOO_LARGE);
          break;
        }
      pl_job_progress (ctl, *len, src->size);
    }
  if (err)
    {
      free (*buf);
      *buf = NULL;
      *len = 0;
    }
  return err;
}

gpg_error_t
pl_clearsign_verify_stream (pl_source *src, pl_sink *sink,
                            const pl_cert *const *certs, size_t n_certs,
                            pl_cert_lookup_fn find_cert,
                            void *find_cert_data, uint32_t now,
                            pl_verifications *out, const pl_job_control *ctl)
{
  uint8_t *msg = NULL, *text = NULL;
  size_t len = 0, text_len = 0;
  gpg_error_t err;

  memset (out, 0, sizeof *out);
  err = pl_clearsign_read (src, PL_CLEARSIGN_MAX, ctl, &msg, &len);
  if (!err)
    err = verify_message (msg, len, certs, n_certs, find_cert,
                          find_cert_data, now, out, &text, &text_len);
  if (!err)
    err = pl_job_check_cancel (ctl);
  if (!err)
    err = sink->write (sink, text, text_len);
  if (!err)
    err = pl_source_check (src);
  if (!err)
    err = sink->commit (sink);
  if (err)
    sink->abort (sink);
  free (msg);
  free (text);
  return err;
}

gpg_error_t
pl_clearsign_split (const uint8_t *msg, size_t len, uint8_t **text,
                    size_t *text_len, size_t *sigs)
{
  buffer signed_text = { 0 };
  gpg_error_t err = read_cleartext (msg, len, &signed_text, sigs);

  if (err)
    {
      free (signed_text.p);
      signed_text.p = NULL;
      signed_text.len = 0;
    }
  *text = signed_text.p;
  *text_len = signed_text.len;
  return err;
}

static const char *
hash_name (int id)
{
  for (size_t j = 0; j < sizeof hash_names / sizeof hash_names[0]; j++)
    if (hash_names[j].id == id)
      return hash_names[j].name;
  return NULL;
}

/* The Hash header for the v4 signers of S (none when all are v6). */
static void
put_hash_header (buffer *b, const pl_data_signer *s, size_t n)
{
  int named = 0;

  for (size_t i = 0; i < n; i++)
    {
      int seen = 0;

      for (size_t k = 0; k < i; k++)
        seen |= !s[k].b.salt_len && s[k].b.hash_algo == s[i].b.hash_algo;
      if (s[i].b.salt_len || seen || !hash_name (s[i].b.hash_algo))
        continue;
      put_str (b, named++ ? "," : "Hash: ");
      put_str (b, hash_name (s[i].b.hash_algo));
    }
  if (named)
    put_str (b, "\n");
}

/* The text, dash-escaped, into B and into every signer's hash. */
static void
put_text (buffer *b, const uint8_t *text, size_t len, pl_data_signer *s,
          size_t n_signers)
{
  size_t pos = 0, n, lines = 0;
  const uint8_t *line;

  /* An empty text is one empty line. */
  if (!len)
    put (b, "\n", 1);
  while (next_line (text, len, &pos, &line, &n))
    {
      n = trim (line, n);
      if ((n && line[0] == '-') || (n >= 5 && !memcmp (line, "From ", 5)))
        put (b, "- ", 2);
      put (b, line, n);
      put (b, "\n", 1);
      for (size_t i = 0; i < n_signers; i++)
        {
          if (lines)
            pl_data_signer_push (&s[i], (const uint8_t *) "\n", 1);
          pl_data_signer_push (&s[i], line, n);
        }
      lines++;
    }
}

/* The signatures of S, armored, into B. */
static gpg_error_t
put_signatures (buffer *b, pl_data_signer *s, size_t n)
{
  buffer bin = { 0 };
  uint8_t *body = malloc (PL_SIG_BODY_MAX), hdr[6];
  char *armored = NULL;
  pl_armor_encoder enc;
  int v6 = 0;
  gpg_error_t err = body ? 0 : gpg_error (GPG_ERR_ENOMEM);

  for (size_t i = 0; i < n && !err; i++)
    {
      size_t len;

      v6 |= s[i].b.salt_len > 0;
      err = pl_data_signer_finish (&s[i], body, &len);
      if (!err)
        {
          put (&bin, hdr, pl_packet_write_header (hdr, PL_PKT_SIGNATURE, len));
          put (&bin, body, len);
          err = bin.err;
        }
    }
  if (!err && !(armored = malloc (pl_armor_encoder_bound (bin.len)
                                  + pl_armor_encoder_bound (0))))
    err = gpg_error (GPG_ERR_ENOMEM);
  if (!err)
    {
      size_t k;

      /* RFC 9580 §6.2: no CRC beside v6 signatures. */
      pl_armor_encoder_init (&enc, PL_ARMOR_SIGNATURE, !v6);
      k = pl_armor_encoder_push (&enc, bin.p, bin.len, armored);
      k += pl_armor_encoder_finish (&enc, armored + k);
      put (b, armored, k);
      err = b->err;
    }
  free (armored);
  free (bin.p);
  free (body);
  return err;
}

gpg_error_t
pl_clearsign_make (const uint8_t *text, size_t len,
                   const pl_seckey *const *signers, size_t n,
                   uint32_t created, uint8_t **out, size_t *out_len)
{
  pl_data_signer *s = calloc (n ? n : 1, sizeof *s);
  buffer b = { 0 };
  size_t started = 0;
  gpg_error_t err = s ? 0 : gpg_error (GPG_ERR_ENOMEM);

  *out = NULL;
  *out_len = 0;
  if (!err && !n)
    err = gpg_error (GPG_ERR_NO_SECKEY);
  for (; started < n && !err; started++)
    err = pl_data_signer_init (&s[started], signers[started], 1, created);
  if (!err)
    {
      put_str (&b, PL_CLEARSIGN_HEADER "\n");
      put_hash_header (&b, s, n);
      put_str (&b, "\n");
      put_text (&b, text, len, s, n);
      err = b.err ? b.err : put_signatures (&b, s, n);
    }
  for (size_t i = 0; s && i < started; i++)
    pl_data_signer_clear (&s[i]);
  free (s);
  if (err)
    {
      free (b.p);
      return err;
    }
  *out = b.p;
  *out_len = b.len;
  return 0;
}
