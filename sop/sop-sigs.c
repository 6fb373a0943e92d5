/* sop-sigs.c - padlock-sop: verify, inline-verify, sign, inline-sign,
 * inline-detach */
#include "sop-sigs.h"
#include "sop-io.h"

#include "algo.h"
#include "armor.h"
#include "clearsign.h"
#include "errors.h"
#include "io.h"
#include "job.h"
#include "packet.h"
#include "sign.h"
#include "streamsource.h"
#include "text.h"

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <sys/stat.h>
#include <gcrypt.h>

#define MAX_CERT_FILES 64

#define opt sop_option_value

static int
unsupported (const char *arg)
{
  fprintf (stderr, "padlock-sop: unsupported option %.*s\n",
           (int) strcspn (arg, "="), arg);
  return SOP_UNSUPPORTED_OPTION;
}

static void
hex (const uint8_t *p, size_t n, char *out)
{
  for (size_t i = 0; i < n; i++)
    snprintf (out + 2 * i, 3, "%02X", p[i]);
  out[2 * n] = 0;
}

static const char *
verdict_words (const pl_verification *v)
{
  switch (v->verdict)
    {
    case PL_VERDICT_BAD: return "bad signature (the data does not match)";
    case PL_VERDICT_UNKNOWN_KEY: return "signed by an unknown key";
    case PL_VERDICT_NOT_VALID: return "signature not valid";
    default: return "signature not checked (unsupported)";
    }
}

/* One verification that is not good, on stderr, in words. */
static void
print_not_good (const pl_verification *v)
{
  char key[2 * PL_FPR_MAX + 1];
  /* The reason may quote the message (a notation's name). */
  char *reason = pl_text_escape_dup (v->reason, strnlen (v->reason,
                                                        sizeof v->reason), 0);

  if (v->issuer_fpr_len)
    hex (v->issuer_fpr, v->issuer_fpr_len, key);
  else
    hex (v->issuer, v->has_issuer ? 8 : 0, key);
  fprintf (stderr, "padlock-sop: %s%s%s (issuer %s)\n", verdict_words (v),
           reason && reason[0] ? ": " : "", reason ? reason : "",
           key[0] ? key : "not named");
  free (reason);
}

/* SOP's VERIFICATIONS line for a good one: "DATE FPR PRIMARY-FPR
 * mode:MODE free text".  The free text is the signer's user ID, the key
 * owner's own octets: escaped (text.h), so that it is one line whatever
 * it holds and cannot add a verification of its own. */
static void
print_good (FILE *f, const pl_verification *v)
{
  char key[2 * PL_FPR_MAX + 1], primary[2 * PL_FPR_MAX + 1], date[32];
  const pl_cert_uid *uid = pl_cert_user_id (v->cert);
  char *text = uid ? pl_text_escape_dup ((const char *) uid->data, uid->len, 0)
                   : NULL;
  time_t t = (time_t) v->created;
  struct tm tm;

  hex (v->key_fpr, v->key_fpr_len, key);
  hex (v->cert->primary.key.fpr, v->cert->primary.key.fpr_len, primary);
  gmtime_r (&t, &tm);
  strftime (date, sizeof date, "%Y-%m-%dT%H:%M:%SZ", &tm);
  fprintf (f, "%s %s %s mode:%s signed by %s\n", date, key, primary,
           v->type == PL_SIG_TEXT ? "text" : "binary",
           text && text[0] ? text : primary);
  free (text);
}

size_t
sop_print_verifications (FILE *f, const pl_verifications *vs)
{
  size_t good = 0;

  for (size_t i = 0; i < vs->n; i++)
    if (vs->v[i].verdict != PL_VERDICT_GOOD)
      print_not_good (&vs->v[i]);
    else
      {
        print_good (f, &vs->v[i]);
        good++;
      }
  if (vs->skipped)
    fprintf (stderr, "padlock-sop: %zu more signatures were not checked\n",
             vs->skipped);
  return good;
}

int
sop_write_verifications (const char *path, const pl_verifications *v)
{
  int fd = open (path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0644);
  FILE *f = fd >= 0 ? fdopen (fd, "w") : NULL;

  if (!f)
    {
      if (fd >= 0)
        close (fd);
      sop_say_path (path, "%s", strerror (errno));
      return errno == EEXIST ? SOP_OUTPUT_EXISTS : 1;
    }
  sop_print_verifications (f, v);
  return fclose (f) ? 1 : SOP_OK;
}

int
sop_report_verifications (const pl_verifications *v, const char *out_path,
                          int failed)
{
  if (failed)
    {
      sop_print_verifications (stderr, v);
      fprintf (stderr, "padlock-sop: no valid signature\n");
      return SOP_NO_SIGNATURE;
    }
  if (out_path)
    return sop_write_verifications (out_path, v);
  sop_print_verifications (stderr, v);
  return SOP_OK;
}

/* ---- Signing keys -------------------------------------------------- */

int
sop_signers_add_password (sop_signers *s, const char *spec)
{
  size_t len;

  if (s->n_passwords == SOP_MAX_SIGNERS)
    return SOP_UNSUPPORTED_OPTION;
  return sop_read_indirect (spec, &s->passwords[s->n_passwords++], &len);
}

/* The signing key of CERT now: the newest valid signing subkey with a
 * secret part, else the primary. */
static const pl_cert_key *
signing_key (const pl_cert *cert, uint32_t now)
{
  const pl_cert_key *best = NULL;

  for (size_t i = 0; i < cert->n_subkeys; i++)
    {
      const pl_cert_key *k = &cert->subkeys[i];
      if (k->secret && pl_sig_can_make (&k->key)
          && !pl_cert_key_may_sign (cert, k, now, now, NULL, 0)
          && (!best || k->key.created >= best->key.created))
        best = k;
    }
  if (!best && cert->primary.secret && pl_sig_can_make (&cert->primary.key)
      && !pl_cert_key_may_sign (cert, &cert->primary, now, now, NULL, 0))
    best = &cert->primary;
  return best;
}

/* Unlocks K (of CERT) into OUT: in the clear, or with a password as
 * given or with trailing whitespace trimmed (SOP's rule). */
static int
unlock (sop_signers *s, const pl_cert *cert, const pl_cert_key *k,
        pl_seckey *out)
{
  int tag = k == &cert->primary ? 5 : 7;
  gpg_error_t err;

  if (pl_seckey_protection (k) < 0)
    return SOP_KEY_CANNOT_SIGN;
  if (!pl_seckey_protection (k))
    return pl_seckey_unlock (k, tag, NULL, 0, 0, NULL, out) ? SOP_BAD_DATA
                                                            : SOP_OK;
  for (size_t i = 0; i < s->n_passwords; i++)
    for (int trim = 0; trim < 2; trim++)
      {
        const char *pw = s->passwords[i];
        size_t n = strlen (pw);
        if (trim)
          while (n && strchr (" \t\r\n", pw[n - 1]))
            n--;
        err = pl_seckey_unlock (k, tag, pw, n, 0, NULL, out);
        if (!err)
          return SOP_OK;
        if (gpg_err_code (err) != GPG_ERR_BAD_PASSPHRASE)
          return SOP_BAD_DATA;
      }
  fprintf (stderr, "padlock-sop: the signing key is protected: "
           "--with-key-password\n");
  return SOP_KEY_IS_PROTECTED;
}

int
sop_signers_add_file (sop_signers *s, const char *path)
{
  size_t first = s->ring.n;
  uint32_t now = (uint32_t) time (NULL);
  int code = sop_keyring_add_file (&s->ring, path, 1);

  for (size_t i = first; i < s->ring.n && !code; i++)
    {
      const pl_cert *cert = s->ring.certs[i];
      const pl_cert_key *k = signing_key (cert, now);

      if (!k)
        {
          sop_say_path (path, "no key that can sign");
          return SOP_KEY_CANNOT_SIGN;
        }
      if (s->n == SOP_MAX_SIGNERS)
        return SOP_UNSUPPORTED_OPTION;
      code = unlock (s, cert, k, &s->keys[s->n]);
      if (!code)
        {
          s->ptrs[s->n] = &s->keys[s->n];
          s->n++;
        }
    }
  return code;
}

int
sop_sign_option (sop_sign_options *o, int argc, char **argv, int *i)
{
  const char *v;

  if ((v = opt ("--sign-with", argc, argv, i)))
    {
      if (o->n_files == SOP_MAX_SIGNERS)
        return unsupported ("--sign-with");
      o->files[o->n_files++] = v;
      return SOP_OK - 1;
    }
  if ((v = opt ("--with-key-password", argc, argv, i)))
    {
      if (o->n_pw == SOP_MAX_SIGNERS)
        return unsupported ("--with-key-password");
      o->pw[o->n_pw++] = v;
      return SOP_OK - 1;
    }
  return SOP_OK;
}

int
sop_signers_load (sop_signers *s, const char *const *pw_specs, size_t n_pw,
                  const char *const *files, size_t n_files)
{
  int code = SOP_OK;

  for (size_t i = 0; i < n_pw && !code; i++)
    code = sop_signers_add_password (s, pw_specs[i]);
  for (size_t i = 0; i < n_files && !code; i++)
    code = sop_signers_add_file (s, files[i]);
  return code;
}

void
sop_signers_clear (sop_signers *s)
{
  for (size_t i = 0; i < s->n; i++)
    pl_seckey_clear (&s->keys[i]);
  for (size_t i = 0; i < s->n_passwords; i++)
    sop_free_secret (s->passwords[i]);
  sop_keyring_clear (&s->ring);
  memset (s, 0, sizeof *s);
}

/* ---- verify, inline-verify ----------------------------------------- */

/* verify's and inline-verify's options and CERTS (after SIGNATURES, the
 * first positional argument, for verify: WANT_POSITIONAL). */
typedef struct
{
  sop_keyring ring;
  const char *positional;
  const char *verifications_out;
} verify_args;

static int
parse_verify (int argc, char **argv, int want_positional, verify_args *a)
{
  int code = SOP_OK;

  memset (a, 0, sizeof *a);
  for (int i = 0; i < argc && !code; i++)
    {
      const char *v;
      if ((v = opt ("--verifications-out", argc, argv, &i))
          || (v = opt ("--verify-out", argc, argv, &i)))
        a->verifications_out = v;
      else if ((v = opt ("--not-before", argc, argv, &i))
               || (v = opt ("--not-after", argc, argv, &i)))
        {
          if (strcmp (v, "-") && strcmp (v, "now"))
            code = unsupported (argv[i - (argv[i] == v)]);
        }
      else if (argv[i][0] == '-' && argv[i][1] == '-')
        code = unsupported (argv[i]);
      else if (want_positional && !a->positional)
        a->positional = argv[i];
      else
        code = sop_keyring_add_file (&a->ring, argv[i], 0);
    }
  if (!code && ((want_positional && !a->positional) || !a->ring.n))
    {
      fprintf (stderr, "padlock-sop: missing %s\n",
               want_positional && !a->positional ? "SIGNATURES" : "CERTS");
      code = SOP_MISSING_ARG;
    }
  if (!code && a->verifications_out)
    {
      struct stat st;
      if (!lstat (a->verifications_out, &st))
        {
          sop_say_path (a->verifications_out, "exists");
          code = SOP_OUTPUT_EXISTS;
        }
    }
  return code;
}

int
sop_cmd_verify (int argc, char **argv)
{
  verify_args a;
  pl_verifications v;
  unsigned char *sigs = NULL;
  size_t sigs_len = 0;
  pl_source *src = NULL;
  int code = parse_verify (argc, argv, 1, &a);
  gpg_error_t err;

  if (!code)
    code = sop_read_file (a.positional, &sigs, &sigs_len);
  if (code)
    goto leave;
  src = pl_source_new_fd (0, 0);
  err = src ? pl_verify_detached (sigs, sigs_len, src,
                                  (const pl_cert *const *) a.ring.certs,
                                  a.ring.n, (uint32_t) time (NULL), &v)
            : gpg_error (GPG_ERR_ENOMEM);
  if (err)
    {
      fprintf (stderr, "padlock-sop: verify: %s\n", pl_error_message (err));
      code = gpg_err_code (err) == GPG_ERR_NO_DATA
             || gpg_err_code (err) == GPG_ERR_INV_PACKET
             || gpg_err_code (err) == GPG_ERR_BAD_DATA
             || gpg_err_code (err) == GPG_ERR_INV_ARMOR ? SOP_BAD_DATA : 1;
      goto leave;
    }
  if (!sop_print_verifications (stdout, &v))
    code = SOP_NO_SIGNATURE;
  if (fflush (stdout))
    code = 1;

 leave:
  pl_source_free (src);
  free (sigs);
  sop_keyring_clear (&a.ring);
  return code;
}

/* inline-verify of a cleartext-signed message (clearsign.h): read
 * whole, the text out only when a signature holds. */
static int
inline_verify_clearsigned (pl_source *src, verify_args *a,
                           pl_verifications *v)
{
  uint8_t *msg = NULL, *text = NULL;
  size_t len, text_len = 0;
  gpg_error_t err = pl_clearsign_read (src, PL_CLEARSIGN_MAX, NULL, &msg, &len);
  int code = SOP_OK;

  if (!err)
    err = pl_clearsign_verify (msg, len, (const pl_cert *const *) a->ring.certs,
                               a->ring.n, (uint32_t) time (NULL), v, &text,
                               &text_len);
  if (err)
    {
      fprintf (stderr, "padlock-sop: inline-verify: %s\n",
               pl_error_message (err));
      code = SOP_BAD_DATA;
    }
  else if (!pl_verifications_good (v))
    {
      sop_print_verifications (stderr, v);
      fprintf (stderr, "padlock-sop: inline-verify: no valid signature\n");
      code = SOP_NO_SIGNATURE;
    }
  else if ((err = pl_write_all (1, text, text_len)))
    code = 1;
  else if (a->verifications_out)
    code = sop_write_verifications (a->verifications_out, v);
  else
    sop_print_verifications (stderr, v);
  free (msg);
  free (text);
  return code;
}

int
sop_cmd_inline_verify (int argc, char **argv)
{
  verify_args a;
  pl_decrypt_options o;
  pl_decrypt_result *r = calloc (1, sizeof *r);
  pl_source *src = NULL;
  pl_sink *sink = NULL;
  pl_sniff_result sniffed;
  int code = r ? parse_verify (argc, argv, 0, &a) : 1;
  gpg_error_t err;

  if (!r)
    return 1;
  if (code)
    goto leave;
  memset (&o, 0, sizeof o);
  o.signed_only = 1;
  o.verify_certs = (const pl_cert *const *) a.ring.certs;
  o.n_verify_certs = a.ring.n;
  src = pl_source_new_fd (0, 0);
  err = src ? pl_source_sniff (&src, &sniffed) : gpg_error (GPG_ERR_ENOMEM);
  if (!err && sniffed.kind == PL_SNIFF_CLEARSIGNED)
    {
      code = inline_verify_clearsigned (src, &a, &r->verifications);
      goto leave;
    }
  /* Spooled: nothing reaches standard output unless a signature holds. */
  if (!err)
    err = pl_sink_new_fd (1, 1, &sink);
  if (!err)
    err = pl_decrypt (src, sink, &o, r, NULL);
  if (gpg_err_code (err) == GPG_ERR_BAD_SIGNATURE)
    {
      sop_print_verifications (stderr, &r->verifications);
      fprintf (stderr, "padlock-sop: inline-verify: no valid signature\n");
      code = SOP_NO_SIGNATURE;
    }
  else if (err)
    {
      fprintf (stderr, "padlock-sop: inline-verify: %s\n",
               pl_error_message (err));
      code = SOP_BAD_DATA;
    }
  else if (a.verifications_out)
    code = sop_write_verifications (a.verifications_out, &r->verifications);
  else
    sop_print_verifications (stderr, &r->verifications);

 leave:
  pl_sink_free (sink);
  pl_source_free (src);
  sop_keyring_clear (&a.ring);
  free (r);
  return code;
}

/* ---- sign, inline-sign --------------------------------------------- */

typedef struct
{
  sop_signers signers;
  int armor;
  int text;
  int clearsigned;              /* inline-sign --as=clearsigned */
  const char *micalg_out;
} sign_args;

static int
parse_sign (int argc, char **argv, int inline_form, sign_args *a)
{
  const char *key_files[SOP_MAX_SIGNERS];
  size_t n_files = 0;
  int code = SOP_OK;

  memset (a, 0, sizeof *a);
  a->armor = 1;
  for (int i = 0; i < argc && !code; i++)
    {
      const char *v;
      if (!strcmp (argv[i], "--no-armor"))
        a->armor = 0;
      else if ((v = opt ("--as", argc, argv, &i)))
        {
          if (!strcmp (v, "text"))
            a->text = 1;
          else if (inline_form && !strcmp (v, "clearsigned"))
            a->clearsigned = a->text = 1;
          else if (strcmp (v, "binary"))
            code = unsupported (argv[i - (argv[i] == v)]);
        }
      else if ((v = opt ("--with-key-password", argc, argv, &i)))
        code = sop_signers_add_password (&a->signers, v);
      else if (!inline_form && (v = opt ("--micalg-out", argc, argv, &i)))
        a->micalg_out = v;
      else if (argv[i][0] == '-' && argv[i][1] == '-')
        code = unsupported (argv[i]);
      else if (n_files == SOP_MAX_SIGNERS)
        code = SOP_UNSUPPORTED_OPTION;
      else
        key_files[n_files++] = argv[i];
    }
  if (!code && !n_files)
    {
      fprintf (stderr, "padlock-sop: missing KEYS\n");
      code = SOP_MISSING_ARG;
    }
  /* The passwords came first: every file's keys may need them. */
  if (!code)
    code = sop_signers_load (&a->signers, NULL, 0, key_files, n_files);
  return code;
}

/* "pgp-sha512" (RFC 3156): the hash the signature of S took; empty
 * for several of different hashes, as SOP says. */
static int
write_micalg (const char *path, const pl_data_signer *s, size_t n)
{
  const char *name = gcry_md_algo_name (pl_hash_gcry_algo (s[0].b.hash_algo));
  FILE *f;

  if (!path)
    return SOP_OK;
  f = fopen (path, "wx");
  if (!f)
    return errno == EEXIST ? SOP_OUTPUT_EXISTS : 1;
  for (size_t i = 1; i < n; i++)
    if (s[i].b.hash_algo != s[0].b.hash_algo)
      name = NULL;
  if (name)
    {
      fputs ("pgp-", f);
      for (; *name; name++)
        if (*name != '-')
          fputc (*name >= 'A' && *name <= 'Z' ? *name + 32 : *name, f);
    }
  return fclose (f) ? 1 : SOP_OK;
}

int
sop_cmd_sign (int argc, char **argv)
{
  sign_args a;
  pl_data_signer ds[SOP_MAX_SIGNERS];
  uint8_t *buf = NULL, *out = NULL;
  size_t n = 0, len = 0, n_ds = 0;
  uint32_t now = (uint32_t) time (NULL);
  pl_source *src = NULL;
  int code = parse_sign (argc, argv, 0, &a);
  gpg_error_t err = 0;

  if (code)
    goto leave;
  src = pl_source_new_fd (0, 0);
  buf = malloc (PL_BLOCK_SIZE);
  out = malloc (SOP_MAX_SIGNERS * (PL_SIG_BODY_MAX + 6));
  if (!src || !buf || !out)
    err = gpg_error (GPG_ERR_ENOMEM);
  for (; n_ds < a.signers.n && !err; n_ds++)
    err = pl_data_signer_init (&ds[n_ds], a.signers.ptrs[n_ds], a.text, now);
  while (!err)
    {
      err = pl_source_read_full (src, buf, PL_BLOCK_SIZE, &n);
      if (err || !n)
        break;
      for (size_t i = 0; i < n_ds; i++)
        pl_data_signer_push (&ds[i], buf, n);
    }
  for (size_t i = 0; i < n_ds && !err && !code; i++)
    {
      size_t body_len;
      uint8_t *body = out + len + 6;
      err = pl_data_signer_finish (&ds[i], body, &body_len);
      if (!err)
        {
          size_t hl = pl_packet_write_header (out + len, PL_PKT_SIGNATURE,
                                              body_len);
          memmove (out + len + hl, body, body_len);
          len += hl + body_len;
        }
    }
  if (err)
    {
      fprintf (stderr, "padlock-sop: sign: %s\n", pl_error_message (err));
      code = 1;
    }
  if (!code)
    code = write_micalg (a.micalg_out, ds, n_ds);
  if (!code)
    code = sop_write_output (out, len, PL_ARMOR_SIGNATURE, !a.armor);

 leave:
  for (size_t i = 0; i < n_ds; i++)
    pl_data_signer_clear (&ds[i]);
  pl_source_free (src);
  free (buf);
  free (out);
  sop_signers_clear (&a.signers);
  return code;
}

/* inline-sign --as=clearsigned: the text read whole (clearsign.h). */
static int
inline_sign_clearsigned (sign_args *a)
{
  pl_source *src = pl_source_new_fd (0, 0);
  uint8_t *text = NULL, *out = NULL;
  size_t len = 0, out_len = 0;
  gpg_error_t err = src ? pl_clearsign_read (src, PL_CLEARSIGN_MAX, NULL,
                                             &text, &len)
                        : gpg_error (GPG_ERR_ENOMEM);

  if (!err)
    err = pl_clearsign_make (text, len, a->signers.ptrs, a->signers.n,
                             (uint32_t) time (NULL), &out, &out_len);
  if (!err)
    err = pl_write_all (1, out, out_len);
  if (err)
    fprintf (stderr, "padlock-sop: inline-sign: %s\n", pl_error_message (err));
  pl_source_free (src);
  free (text);
  free (out);
  return !err ? SOP_OK : gpg_err_code (err) == GPG_ERR_PUBKEY_ALGO
                         ? SOP_KEY_CANNOT_SIGN : 1;
}

int
sop_cmd_inline_sign (int argc, char **argv)
{
  sign_args a;
  pl_encrypt_options o;
  pl_source *src = NULL;
  pl_sink *sink = NULL;
  int code;
  gpg_error_t err;

  code = parse_sign (argc, argv, 1, &a);
  if (code)
    goto leave;
  if (a.clearsigned)
    {
      /* Cleartext is text, and its signatures are armored (SOP). */
      code = a.armor ? inline_sign_clearsigned (&a)
                     : SOP_INCOMPATIBLE_OPTIONS;
      goto leave;
    }
  pl_encrypt_options_init (&o);
  o.sign_only = 1;
  o.signers = a.signers.ptrs;
  o.n_signers = a.signers.n;
  o.armor = a.armor;
  o.literal_format = a.text ? 't' : 'b';
  src = pl_source_new_fd (0, 0);
  err = pl_sink_new_fd (1, 0, &sink);
  if (!err && !src)
    err = gpg_error (GPG_ERR_ENOMEM);
  if (!err)
    err = pl_encrypt (src, sink, &o, NULL);
  if (err)
    {
      fprintf (stderr, "padlock-sop: inline-sign: %s\n",
               pl_error_message (err));
      code = gpg_err_code (err) == GPG_ERR_PUBKEY_ALGO ? SOP_KEY_CANNOT_SIGN
                                                       : 1;
    }

 leave:
  pl_sink_free (sink);
  pl_source_free (src);
  sop_signers_clear (&a.signers);
  return code;
}

/* ---- inline-detach ------------------------------------------------- */

/* Appends the rest of what C (over a packet body) holds to *OUT (*LEN,
 * *CAP). */
static gpg_error_t
take_body (pl_cursor *c, uint8_t **out, size_t *len, size_t *cap)
{
  uint8_t *p;
  size_t n;
  gpg_error_t err;

  for (;;)
    {
      err = pl_cursor_take (c, SIZE_MAX, &p, &n);
      if (err || !n)
        return err;
      if (*len + n + 6 > *cap)
        {
          size_t c2 = 2 * (*len + n + 6);
          uint8_t *m = realloc (*out, c2);
          if (!m)
            return gpg_error (GPG_ERR_ENOMEM);
          *out = m, *cap = c2;
        }
      memcpy (*out + *len, p, n);
      *len += n;
    }
}

/* The signed message BIN: its literal data into *DATA, its signature
 * packets into *SIGS.  Compression is not undone here. */
static gpg_error_t
detach (uint8_t *bin, size_t bin_len, uint8_t **data, size_t *data_len,
        uint8_t **sigs, size_t *sigs_len)
{
  pl_mem_reader m;
  pl_cursor cur;
  pl_packet_body *body = malloc (sizeof *body);
  size_t dcap = 0, scap = 0, nsig = 0;
  int lit = 0;
  gpg_error_t err = body ? 0 : gpg_error (GPG_ERR_ENOMEM);

  pl_mem_reader_init (&m, bin, bin_len);
  pl_cursor_init (&cur, &m.base);
  while (!err)
    {
      err = pl_packet_begin (&cur, body);
      if (gpg_err_code (err) == GPG_ERR_EOF)
        {
          err = lit && nsig ? 0 : gpg_error (GPG_ERR_NO_DATA);
          break;
        }
      if (err)
        break;
      if (body->tag == PL_PKT_SIGNATURE && body->remaining < (1u << 16)
          && !body->partial && !body->until_eof)
        {
          size_t start = *sigs_len;
          uint8_t hdr[6];
          size_t hl = pl_packet_write_header (hdr, PL_PKT_SIGNATURE,
                                              body->remaining);
          pl_cursor c;
          pl_cursor_init (&c, &body->base);
          err = take_body (&c, sigs, sigs_len, &scap);
          if (!err)
            {
              memmove (*sigs + start + hl, *sigs + start,
                       *sigs_len - start);
              memcpy (*sigs + start, hdr, hl);
              *sigs_len += hl;
            }
          nsig++;
        }
      else if (body->tag == PL_PKT_LITERAL && !lit++)
        {
          uint8_t head[2];
          pl_cursor c;
          pl_cursor_init (&c, &body->base);
          err = pl_cursor_read (&c, head, 2);
          if (!err)
            {
              /* The rest of the header: name, then the four-octet date. */
              uint8_t skip[255 + 4];
              err = pl_cursor_read (&c, skip, head[1] + 4u);
            }
          if (!err)
            err = take_body (&c, data, data_len, &dcap);
        }
      else if (body->tag == PL_PKT_ONEPASS_SIG
               || pl_packet_skippable (body->tag))
        err = pl_packet_skip (body);
      else
        err = gpg_error (GPG_ERR_BAD_DATA);
    }
  free (body);
  return pl_cursor_truncated (err);
}

/* The cleartext-signed message MSG (clearsign.h): what was signed into
 * *DATA (LF line ends, no final one: the text signatures verify over it
 * as detached ones), its signature packets into *SIGS.  Nothing is
 * judged, as for the other forms. */
static gpg_error_t
detach_clearsigned (const uint8_t *msg, size_t len, uint8_t **data,
                    size_t *data_len, uint8_t **sigs, size_t *sigs_len)
{
  size_t at = 0;
  gpg_error_t err = pl_clearsign_split (msg, len, data, data_len, &at);

  if (!err)
    err = pl_armor_dearmor_all (msg + at, len - at, sigs, sigs_len);
  if (!err && !*sigs_len)
    err = gpg_error (GPG_ERR_NO_DATA);
  return err;
}

int
sop_cmd_inline_detach (int argc, char **argv)
{
  const char *sigs_out = NULL;
  unsigned char *in = NULL;
  uint8_t *bin = NULL, *data = NULL, *sigs = NULL;
  size_t in_len = 0, bin_len = 0, data_len = 0, sigs_len = 0;
  int armor = 1, code = SOP_OK, fd, clearsigned = 0;
  gpg_error_t err;

  for (int i = 0; i < argc && !code; i++)
    {
      const char *v;
      if (!strcmp (argv[i], "--no-armor"))
        armor = 0;
      else if ((v = opt ("--signatures-out", argc, argv, &i)))
        sigs_out = v;
      else
        code = unsupported (argv[i]);
    }
  if (!code && !sigs_out)
    {
      fprintf (stderr, "padlock-sop: missing --signatures-out\n");
      code = SOP_MISSING_ARG;
    }
  if (code)
    return code;
  fd = open (sigs_out, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0644);
  if (fd < 0)
    return errno == EEXIST ? SOP_OUTPUT_EXISTS : 1;
  code = sop_read_stdin (&in, &in_len);
  err = 0;
  clearsigned = !code && pl_clearsign_detect (in, in_len);
  if (clearsigned)
    err = detach_clearsigned (in, in_len, &data, &data_len, &sigs,
                              &sigs_len);
  else if (!code && pl_armor_detect (in, in_len))
    err = pl_armor_dearmor_all (in, in_len, &bin, &bin_len);
  else if (!code)
    bin = in, bin_len = in_len, in = NULL;
  /* An inline-signed message: its packets, armored or not. */
  if (!code && !err && !clearsigned)
    err = detach (bin, bin_len, &data, &data_len, &sigs, &sigs_len);
  if (!code && err)
    {
      fprintf (stderr, "padlock-sop: inline-detach: %s\n",
               pl_error_message (err));
      code = SOP_BAD_DATA;
    }
  if (!code)
    {
      /* The signatures to their file, through standard output's writer. */
      int saved = dup (1);
      code = saved >= 0 && dup2 (fd, 1) >= 0
             ? sop_write_output (sigs, sigs_len, PL_ARMOR_SIGNATURE, !armor)
             : 1;
      if (saved >= 0)
        dup2 (saved, 1), close (saved);
    }
  if (!code && pl_write_all (1, data ? data : (uint8_t *) "", data_len))
    code = 1;
  close (fd);
  if (code)
    unlink (sigs_out);
  free (in);
  free (bin);
  free (data);
  free (sigs);
  return code;
}
