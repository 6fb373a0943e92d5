/* sop.c - padlock-sop: the subcommand table, and encrypt, decrypt,
 * armor, dearmor, version, list-profiles and speed
 *
 * Data goes through stdin and stdout, diagnostics to stderr (sop-io.h).
 * Passwords and session keys are never taken from the command line
 * itself: an argument names a file, @ENV:NAME or @FD:N, as SOP requires.
 */
#include "sop.h"

#include "padlock-config.h"
#include "algo.h"
#include "armor.h"
#include "compress.h"
#include "errors.h"
#include "io.h"
#include "job.h"
#include "passphrase.h"
#include "recipients.h"
#include "skesk.h"
#include "sniff.h"
#include "sop-io.h"
#include "sop-keys.h"
#include "sop-sigs.h"
#include "speed.h"

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/stat.h>
#include <time.h>
#include <gcrypt.h>

#define MAX_PASSWORDS 8
/* Certificates a message is encrypted to, secret keys tried on one. */
#define MAX_RECIPIENTS 64

static void
usage (FILE *f)
{
  fputs ("Usage: padlock-sop SUBCOMMAND [OPTIONS]\n"
         "\n"
         "Subcommands:\n"
         "  version [--backend|--extended]\n"
         "  list-profiles encrypt\n"
         "  encrypt [--as=binary|text] [--no-armor] [--profile=NAME]\n"
         "          [--with-password=PASSWORD...] [--sign-with=KEYS...]\n"
         "          [--with-key-password=PASSWORD...] [CERTS...]\n"
         "  decrypt [--with-password=PASSWORD...] [--session-key-out=FILE]\n"
         "          [--with-session-key=SESSIONKEY...]\n"
         "          [--with-key-password=PASSWORD...] [KEYS...]\n"
         "          [--verify-with=CERTS...] [--verifications-out=FILE]\n"
         "          [--no-expansion-limit]  (extension: allow content that\n"
         "          expands more than 1000-fold past 1 GiB)\n"
         "  generate-key [--no-armor] [--with-key-password=PASSWORD]\n"
         "          [--profile=default|rfc9580] USERID...\n"
         "  extract-cert [--no-armor]\n"
         "  sign [--no-armor] [--as=binary|text] [--micalg-out=FILE]\n"
         "          [--with-key-password=PASSWORD...] KEYS...\n"
         "  verify SIGNATURES CERTS...\n"
         "  inline-sign [--no-armor] [--as=binary|text|clearsigned]\n"
         "          [--with-key-password=PASSWORD...] KEYS...\n"
         "  inline-verify [--verifications-out=FILE] CERTS...\n"
         "  inline-detach [--no-armor] --signatures-out=FILE\n"
         "  list-profiles generate-key\n"
         "  armor [--label=auto|message|key|sig]\n"
         "  dearmor\n"
         "  speed [--seconds=S]    (extension: cipher speeds in memory)\n"
         "\n"
         "PASSWORD and SESSIONKEY name a file, @ENV:NAME or @FD:N.\n"
         "CERTS and KEYS name files (or @FD:N) of certificates or secret keys.\n"
         "Data is read from standard input and written to standard output.\n",
         f);
}

/* The one table from engine errors to SOP exit codes. */
static int
exit_code_for (gpg_error_t err)
{
  switch (pl_error_outcome (err))
    {
    case PL_OUTCOME_OK: return SOP_OK;
    case PL_OUTCOME_OTHER:
      if (gpg_err_code (err) == GPG_ERR_UNUSABLE_PUBKEY
          || gpg_err_code (err) == GPG_ERR_UNSUPPORTED_PROTOCOL)
        return SOP_CERT_CANNOT_ENCRYPT;
      if (gpg_err_code (err) == GPG_ERR_PUBKEY_ALGO)
        return SOP_UNSUPPORTED_ASYMMETRIC_ALGO;
      return 1;
    case PL_OUTCOME_PUBLIC_KEY:
      if (gpg_err_code (err) == PL_ERR_KEY_PROTECTED)
        return SOP_KEY_IS_PROTECTED;
      return SOP_CANNOT_DECRYPT;
    case PL_OUTCOME_BAD_PASSPHRASE:
    case PL_OUTCOME_INTEGRITY:
    case PL_OUTCOME_UNPROTECTED:
    case PL_OUTCOME_UNSUPPORTED:
      return SOP_CANNOT_DECRYPT;
    /* A message that asks for too much work is a bad message. */
    case PL_OUTCOME_TOO_COSTLY:
    case PL_OUTCOME_MALFORMED: return SOP_BAD_DATA;
    case PL_OUTCOME_OUTPUT_EXISTS: return SOP_OUTPUT_EXISTS;
    default: return 1;
    }
}

/* While a job writes a regular file in place (`> file`, `>> log`), an
 * interrupt must not leave unauthenticated plaintext behind: SIGINT,
 * SIGTERM and SIGHUP truncate the file back to its length at the start,
 * then end the process as the signal would have.  (SIGKILL cannot be
 * caught.)  ftruncate, signal and raise are async-signal-safe. */
static volatile sig_atomic_t interrupt_fd = -1;
static int64_t interrupt_length;

static void
on_interrupt (int sig)
{
  if (interrupt_fd >= 0 && ftruncate (interrupt_fd, (off_t) interrupt_length))
    { /* nothing more can be done from here */ }
  signal (sig, SIG_DFL);
  raise (sig);
}

static void
guard_output (pl_sink *sink)
{
  static const int sigs[] = { SIGINT, SIGTERM, SIGHUP };
  struct sigaction sa;
  int fd;
  int64_t length;

  if (!pl_sink_fd_restore_point (sink, &fd, &length))
    return;
  interrupt_length = length;
  interrupt_fd = fd;
  memset (&sa, 0, sizeof sa);
  sa.sa_handler = on_interrupt;
  sigemptyset (&sa.sa_mask);
  for (size_t i = 0; i < sizeof sigs / sizeof sigs[0]; i++)
    sigaction (sigs[i], &sa, NULL);
}

/* The job is over: committed, or its sink already truncated back. */
static void
unguard_output (void)
{
  interrupt_fd = -1;
}

static int
fail (int code, const char *what, gpg_error_t err)
{
  if (err)
    fprintf (stderr, "padlock-sop: %s: %s\n", what, pl_error_message (err));
  else
    fprintf (stderr, "padlock-sop: %s\n", what);
  return code;
}

/* An argument we do not take: an option named without its value, and a
 * word that is no option not at all, for either may be a password typed
 * in the wrong place. */
static int
fail_argument (const char *arg)
{
  if (arg[0] == '-' && arg[1] == '-')
    fprintf (stderr, "padlock-sop: unsupported option %.*s\n",
             (int) strcspn (arg, "="), arg);
  else
    fprintf (stderr, "padlock-sop: unexpected argument\n");
  return SOP_UNSUPPORTED_OPTION;
}

static int
cmd_version (int argc, char **argv)
{
  int backend = 0, extended = 0;

  for (int i = 0; i < argc; i++)
    {
      if (!strcmp (argv[i], "--backend"))
        backend = 1;
      else if (!strcmp (argv[i], "--extended"))
        extended = 1;
      else
        return fail_argument (argv[i]);
    }
  if (backend && extended)
    return fail (SOP_INCOMPATIBLE_OPTIONS,
                 "--backend and --extended exclude each other", 0);
  if (backend)
    printf ("libgcrypt %s\n", gcry_check_version (NULL));
  else if (extended)
    {
      printf ("padlock-sop %s\n", PADLOCK_VERSION);
      printf ("libgcrypt %s\n", gcry_check_version (NULL));
      printf ("libgpg-error %s\n", gpg_error_check_version (NULL));
      printf ("Password-based encryption only (SKESK v4/v5/v6, SEIPD v1/v2, "
              "OCB packet).\n");
      printf ("Profiles: rfc4880 (default), librepgp, rfc9580.\n");
    }
  else
    printf ("padlock-sop %s\n", PADLOCK_VERSION);
  return SOP_OK;
}

static int
cmd_list_profiles (int argc, char **argv)
{
  const pl_profile_info *p;
  size_t n;

  if (argc < 1)
    return fail (SOP_MISSING_ARG, "list-profiles needs a subcommand", 0);
  if (!strcmp (argv[0], "generate-key"))
    {
      sop_list_generate_profiles ();
      return SOP_OK;
    }
  if (strcmp (argv[0], "encrypt"))
    return fail (SOP_UNSUPPORTED_PROFILE, "only encrypt and generate-key "
                 "have profiles", 0);
  p = pl_profiles (&n);
  for (size_t i = 0; i < n; i++)
    printf ("%s: %s%s; %s\n", p[i].name, i == 0 ? "(default) " : "",
            p[i].format, p[i].readers);
  return SOP_OK;
}

/* One --with-password of encrypt: read (secure memory, into *PW, which
 * the caller frees with sop_free_secret), checked by the one passphrase rule
 * (SOP's: trailing white space is not part of it), into *KEY.  Returns a
 * SOP exit code. */
static int
read_encrypt_password (const char *spec, char **pw, pl_key *key)
{
  size_t len;
  int code = sop_read_indirect (spec, pw, &len);
  gpg_error_t err;

  if (code)
    return code;
  err = pl_passphrase_check (*pw, len, PL_PASSPHRASE_SOP, NULL);
  if (err)
    return fail (gpg_err_code (err) == PL_ERR_PASSPHRASE_TOO_LONG
                 ? SOP_BAD_DATA : SOP_PASSWORD_NOT_HUMAN_READABLE,
                 "the password cannot lock a message", err);
  *key = pl_key_passphrase_source (*pw, len, PL_PASSPHRASE_SOP);
  return SOP_OK;
}

/* The profile for the certificates among KEYS (recipients.h): the one
 * they can all read, or REQUESTED (-1: none) when they can.  Every
 * certificate must have an encryption key.  Returns a SOP exit code. */
static int
choose_profile (const pl_key *keys, size_t n_keys, int requested,
                pl_encrypt_options *o)
{
  char why[256] = "";
  uint32_t now = (uint32_t) time (NULL);
  pl_profile profile;
  gpg_error_t err = pl_recipients_check (keys, n_keys, now, why, sizeof why);

  if (!err)
    err = pl_recipients_profile (keys, n_keys, requested, now, &profile, why,
                                 sizeof why);
  if (err)
    {
      fprintf (stderr, "padlock-sop: %s: %s\n", pl_error_message (err), why);
      return exit_code_for (err);
    }
  o->profile = profile;
  return SOP_OK;
}

static int
cmd_encrypt (int argc, char **argv)
{
  pl_encrypt_options o;
  const char *passwords[MAX_PASSWORDS];
  size_t n_passwords = 0;
  char *pw[MAX_PASSWORDS] = { NULL };
  pl_key keys[MAX_PASSWORDS + MAX_RECIPIENTS];
  sop_keyring ring = { NULL, 0 };
  const char *cert_files[MAX_RECIPIENTS];
  size_t n_cert_files = 0;
  sop_sign_options so = { { NULL }, 0, { NULL }, 0 };
  sop_signers signers;
  pl_source *src = NULL;
  pl_sink *sink = NULL;
  int code = SOP_OK, as_text = 0, profile = -1;
  gpg_error_t err;

  memset (&signers, 0, sizeof signers);
  pl_encrypt_options_init (&o);
  o.armor = 1;
  for (int i = 0; i < argc; i++)
    {
      const char *v;
      if (!strcmp (argv[i], "--no-armor"))
        o.armor = 0;
      else if ((v = sop_option_value ("--as", argc, argv, &i)))
        {
          if (!strcmp (v, "binary"))
            as_text = 0;
          else if (!strcmp (v, "text"))
            as_text = 1;
          else
            return fail (SOP_UNSUPPORTED_OPTION, "--as takes binary or text",
                         0);
        }
      else if ((v = sop_option_value ("--profile", argc, argv, &i)))
        {
          int p = pl_profile_from_name (v);
          if (p < 0)
            {
              fprintf (stderr, "padlock-sop: unknown profile %s\n", v);
              return SOP_UNSUPPORTED_PROFILE;
            }
          o.profile = (pl_profile) p;
          profile = strcmp (v, "default") ? p : -1;
        }
      else if ((v = sop_option_value ("--with-password", argc, argv, &i)))
        {
          if (n_passwords == MAX_PASSWORDS)
            return fail (SOP_UNSUPPORTED_OPTION, "too many passwords", 0);
          passwords[n_passwords++] = v;
        }
      else if (!strcmp (argv[i], "--"))
        for (i++; i < argc && n_cert_files < MAX_RECIPIENTS; i++)
          cert_files[n_cert_files++] = argv[i];
      else if ((code = sop_sign_option (&so, argc, argv, &i)))
        {
          if (code != SOP_OK - 1)
            return code;
          code = SOP_OK;
        }
      else if (argv[i][0] == '-' && argv[i][1] == '-')
        return fail_argument (argv[i]);
      else if (n_cert_files == MAX_RECIPIENTS)
        return fail (SOP_UNSUPPORTED_OPTION, "too many certificates", 0);
      else
        cert_files[n_cert_files++] = argv[i];
    }
  if (!n_passwords && !n_cert_files)
    return fail (SOP_MISSING_ARG, "encrypt needs --with-password or CERTS",
                 0);

  for (size_t i = 0; i < n_passwords; i++)
    {
      code = read_encrypt_password (passwords[i], &pw[i], &keys[i]);
      if (code)
        goto leave;
    }
  if (as_text)
    o.literal_format = 'u';
  code = sop_signers_load (&signers, so.pw, so.n_pw, so.files, so.n_files);
  o.signers = signers.ptrs;
  o.n_signers = signers.n;
  for (size_t i = 0; i < n_cert_files && !code; i++)
    code = sop_keyring_add_file (&ring, cert_files[i], 0);
  if (code)
    goto leave;
  o.n_keys = n_passwords + sop_keyring_keys (&ring, PL_KEY_CERT,
                                             keys + n_passwords,
                                             MAX_RECIPIENTS);
  code = choose_profile (keys, o.n_keys, profile, &o);
  if (code)
    goto leave;

  src = pl_source_new_fd (0, 0);
  err = pl_sink_new_fd (1, 0, &sink);
  if (!src || err)
    {
      code = fail (1, "cannot set up input and output", err);
      goto leave;
    }
  /* One SKESK per password and one PKESK per certificate, all wrapping
   * the same session key. */
  o.keys = keys;
  guard_output (sink);
  err = pl_encrypt (src, sink, &o, NULL);
  unguard_output ();
  if (err)
    code = fail (pl_error_outcome (err) == PL_OUTCOME_IO ? 1
                 : exit_code_for (err), "encryption failed", err);

 leave:
  pl_sink_free (sink);
  pl_source_free (src);
  for (size_t i = 0; i < n_passwords; i++)
    sop_free_secret (pw[i]);
  sop_keyring_clear (&ring);
  sop_signers_clear (&signers);
  return code;
}

static int
hex_value (int c)
{
  if (c >= '0' && c <= '9')
    return c - '0';
  if (c >= 'a' && c <= 'f')
    return c - 'a' + 10;
  if (c >= 'A' && c <= 'F')
    return c - 'A' + 10;
  return -1;
}

/* "ALGO:HEX" into KEY (secure memory). */
static int
parse_session_key (const char *s, uint8_t *key, size_t *keylen, int *algo)
{
  char *end;
  long a = strtol (s, &end, 10);
  size_t n = 0;

  if (end == s || *end != ':' || a <= 0 || a > 255)
    return 0;
  for (const char *p = end + 1; *p && !strchr (" \t\r\n", *p); p += 2)
    {
      int hi = hex_value (p[0]), lo = hi < 0 ? -1 : hex_value (p[1]);
      if (hi < 0 || lo < 0 || n == PL_SESSION_KEY_MAX)
        return 0;
      key[n++] = (uint8_t) (hi << 4 | lo);
    }
  *keylen = n;
  *algo = (int) a;
  return n > 0;
}

/* Reads a session key given as ALGO:HEX from SPEC into KEY (secure
 * memory, PL_SESSION_KEY_MAX octets).  Returns a SOP exit code. */
static int
read_session_key (const char *spec, uint8_t *key, size_t *key_len,
                  int *key_algo)
{
  char *text = NULL;
  size_t len;
  int code = sop_read_indirect (spec, &text, &len);
  int parsed;

  if (code)
    return code;
  parsed = parse_session_key (text, key, key_len, key_algo);
  sop_free_secret (text);
  if (!parsed)
    return fail (SOP_BAD_DATA, "the session key is not ALGO:HEX", 0);
  if (pl_cipher_key_length (*key_algo)
      && pl_cipher_key_length (*key_algo) != *key_len)
    return fail (SOP_BAD_DATA, "the session key's length does not fit "
                 "its cipher", 0);
  return SOP_OK;
}

/* Writes ALGO:HEX to a new file PATH (mode 0600, never replacing one). */
static int
write_session_key (const char *path, int algo, const uint8_t *key,
                   size_t len)
{
  int fd = open (path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0600);
  FILE *f = fd >= 0 ? fdopen (fd, "w") : NULL;

  if (!f)
    {
      int e = errno;
      if (fd >= 0)
        close (fd);
      return fail (e == EEXIST ? SOP_OUTPUT_EXISTS : 1, path, 0);
    }
  fprintf (f, "%d:", algo);
  for (size_t i = 0; i < len; i++)
    fprintf (f, "%02X", key[i]);
  fputc ('\n', f);
  if (fclose (f))
    return fail (1, path, 0);
  return SOP_OK;
}

/* What decrypt's command line asks for. */
typedef struct
{
  const char *password_specs[MAX_PASSWORDS];
  size_t n_passwords;
  const char *key_password_specs[MAX_PASSWORDS];
  size_t n_key_passwords;
  const char *key_files[MAX_RECIPIENTS];
  size_t n_key_files;
  const char *session_key_spec;
  const char *session_key_out;
  int no_expansion_limit;
  const char *verify_files[MAX_RECIPIENTS];
  size_t n_verify_files;
  const char *verifications_out;
} decrypt_args;

/* Returns a SOP exit code: SOP_OK when ARGV made sense. */
static int
parse_decrypt_args (int argc, char **argv, decrypt_args *a)
{
  memset (a, 0, sizeof *a);
  for (int i = 0; i < argc; i++)
    {
      const char *v;
      if ((v = sop_option_value ("--with-password", argc, argv, &i)))
        {
          if (a->n_passwords == MAX_PASSWORDS)
            return fail (SOP_UNSUPPORTED_OPTION, "too many passwords", 0);
          a->password_specs[a->n_passwords++] = v;
        }
      else if ((v = sop_option_value ("--with-session-key", argc, argv, &i)))
        a->session_key_spec = v;
      else if ((v = sop_option_value ("--session-key-out", argc, argv, &i)))
        a->session_key_out = v;
      else if (!strcmp (argv[i], "--no-expansion-limit"))
        a->no_expansion_limit = 1;
      else if ((v = sop_option_value ("--with-key-password", argc, argv, &i)))
        {
          if (a->n_key_passwords == MAX_PASSWORDS)
            return fail (SOP_UNSUPPORTED_OPTION, "too many key passwords", 0);
          a->key_password_specs[a->n_key_passwords++] = v;
        }
      else if ((v = sop_option_value ("--verify-with", argc, argv, &i)))
        {
          if (a->n_verify_files == MAX_RECIPIENTS)
            return fail (SOP_UNSUPPORTED_OPTION, "too many certificates", 0);
          a->verify_files[a->n_verify_files++] = v;
        }
      else if ((v = sop_option_value ("--verifications-out", argc, argv, &i))
               || (v = sop_option_value ("--verify-out", argc, argv, &i)))
        a->verifications_out = v;
      else if (!strncmp (argv[i], "--verify-not-", 13))
        return fail (SOP_UNSUPPORTED_OPTION,
                     "--verify-not-before/after are not supported", 0);
      else if (argv[i][0] == '-' && argv[i][1] == '-')
        return fail_argument (argv[i]);
      else if (a->n_key_files == MAX_RECIPIENTS)
        return fail (SOP_UNSUPPORTED_OPTION, "too many keys", 0);
      else
        a->key_files[a->n_key_files++] = argv[i];
    }
  if (!a->n_passwords && !a->session_key_spec && !a->n_key_files)
    return fail (SOP_MISSING_ARG, "decrypt needs --with-password, "
                 "--with-session-key or KEYS", 0);
  if (a->session_key_out)
    {
      struct stat st;
      if (!lstat (a->session_key_out, &st))
        return fail (SOP_OUTPUT_EXISTS, a->session_key_out, 0);
    }
  if (a->verifications_out)
    {
      struct stat st;
      if (!a->n_verify_files)
        return fail (SOP_INCOMPATIBLE_OPTIONS,
                     "--verifications-out needs --verify-with", 0);
      if (!lstat (a->verifications_out, &st))
        return fail (SOP_OUTPUT_EXISTS, a->verifications_out, 0);
    }
  return SOP_OK;
}

/* decrypt's KEYS into RING and KEYS (after *N_KEYS), with the key
 * passwords (read into KEY_PASSWORDS, secure).  A SOP exit code. */
static int
add_secret_keys (const decrypt_args *a, sop_keyring *ring,
                 char **key_passwords, pl_key *keys, size_t *n_keys)
{
  int code = SOP_OK;

  for (size_t i = 0; i < a->n_key_passwords && !code; i++)
    {
      size_t len;
      code = sop_read_indirect (a->key_password_specs[i], &key_passwords[i], &len);
      if (!code)
        {
          pl_key k = { PL_KEY_KEY_PASSPHRASE, key_passwords[i], len, 0,
                       PL_PASSPHRASE_SOP };
          keys[(*n_keys)++] = k;
        }
    }
  for (size_t i = 0; i < a->n_key_files && !code; i++)
    code = sop_keyring_add_file (ring, a->key_files[i], 1);
  if (!code)
    *n_keys += sop_keyring_keys (ring, PL_KEY_SECRET, keys + *n_keys,
                                 MAX_RECIPIENTS);
  return code;
}

/* decrypt's --verify-with certificates into RING and O.  With them, SOP
 * wants a good signature or no output. */
static int
add_verify_certs (const decrypt_args *a, sop_keyring *ring,
                  pl_decrypt_options *o)
{
  int code = SOP_OK;

  for (size_t i = 0; i < a->n_verify_files && !code; i++)
    code = sop_keyring_add_file (ring, a->verify_files[i], 0);
  o->verify_certs = (const pl_cert *const *) ring->certs;
  o->n_verify_certs = ring->n;
  o->require_signature = ring->n > 0;
  return code;
}

/* Decrypts standard input to standard output with O, and reports as
 * SOP says: the verifications, the recipients when no key opened it, the
 * session key when asked for. */
static int
run_decrypt (const decrypt_args *a, pl_decrypt_options *o, uint8_t *key_out)
{
  pl_decrypt_result result;
  pl_source *src = pl_source_new_fd (0, 0);
  pl_sink *sink = NULL;
  int code = 0;
  gpg_error_t err;

  memset (&result, 0, sizeof result);
  /* Spool: a pipe's reader must not see plaintext before it is
   * authenticated. */
  err = pl_sink_new_fd (1, 1, &sink);
  if (!src || err)
    {
      code = fail (1, "cannot set up input and output", err);
      goto leave;
    }
  guard_output (sink);
  err = pl_decrypt (src, sink, o, &result, NULL);
  unguard_output ();
  if (gpg_err_code (err) == GPG_ERR_BAD_SIGNATURE && o->require_signature)
    {
      code = sop_report_verifications (&result.verifications, NULL, 1);
      goto leave;
    }
  if (err)
    {
      code = fail (exit_code_for (err), "decryption failed", err);
      if (result.recipients[0])
        fprintf (stderr, "padlock-sop: the message is for %s\n",
                 result.recipients);
      goto leave;
    }
  if (result.key_warning[0])
    fprintf (stderr, "padlock-sop: warning: %s\n", result.key_warning);
  if (result.signed_inside && !o->n_verify_certs)
    fprintf (stderr, "padlock-sop: the message is signed; the signature "
             "was not verified\n");
  if (o->n_verify_certs)
    code = sop_report_verifications (&result.verifications,
                                     a->verifications_out, 0);
  if (!code && a->session_key_out)
    code = write_session_key (a->session_key_out, result.cipher_algo, key_out,
                              result.session_key_len);

 leave:
  pl_sink_free (sink);
  pl_source_free (src);
  return code;
}

static int
cmd_decrypt (int argc, char **argv)
{
  decrypt_args a;
  char *passwords[MAX_PASSWORDS], *key_passwords[MAX_PASSWORDS];
  pl_decrypt_options o;
  uint8_t *key = NULL, *key_out = NULL;
  pl_key keys[2 * MAX_PASSWORDS + 1 + MAX_RECIPIENTS];
  sop_keyring ring = { NULL, 0 }, verify_ring = { NULL, 0 };
  size_t key_len = 0;
  int key_algo = 0;
  int code;

  memset (&o, 0, sizeof o);
  memset (passwords, 0, sizeof passwords);
  memset (key_passwords, 0, sizeof key_passwords);
  code = parse_decrypt_args (argc, argv, &a);
  if (code)
    return code;
  if (a.no_expansion_limit)
    o.expansion_floor = PL_INFLATE_NO_LIMIT;

  for (size_t i = 0; i < a.n_passwords; i++)
    {
      size_t len;
      code = sop_read_indirect (a.password_specs[i], &passwords[i], &len);
      if (code)
        goto leave;
    }

  if (a.session_key_spec)
    {
      key = gcry_malloc_secure (PL_SESSION_KEY_MAX);
      if (!key)
        {
          code = 1;
          goto leave;
        }
      code = read_session_key (a.session_key_spec, key, &key_len, &key_algo);
      if (code)
        goto leave;
      keys[o.n_keys++] = pl_key_session (key, key_len, key_algo);
    }
  /* Each as SOP reads it first, then its other forms (passphrase.h). */
  for (size_t i = 0; i < a.n_passwords; i++)
    keys[o.n_keys++] = pl_key_passphrase_source (passwords[i],
                                                 strlen (passwords[i]),
                                                 PL_PASSPHRASE_SOP);
  code = add_secret_keys (&a, &ring, key_passwords, keys, &o.n_keys);
  if (!code)
    code = add_verify_certs (&a, &verify_ring, &o);
  if (code)
    goto leave;
  o.keys = keys;
  if (a.session_key_out)
    {
      key_out = gcry_malloc_secure (PL_SESSION_KEY_MAX);
      if (!key_out)
        {
          code = 1;
          goto leave;
        }
      o.session_key_out = key_out;
    }

  code = run_decrypt (&a, &o, key_out);

 leave:
  for (size_t i = 0; i < a.n_passwords; i++)
    sop_free_secret (passwords[i]);
  for (size_t i = 0; i < a.n_key_passwords; i++)
    sop_free_secret (key_passwords[i]);
  sop_keyring_clear (&ring);
  sop_keyring_clear (&verify_ring);
  if (key)
    {
      pl_wipe (key, PL_SESSION_KEY_MAX);
      gcry_free (key);
    }
  if (key_out)
    {
      pl_wipe (key_out, PL_SESSION_KEY_MAX);
      gcry_free (key_out);
    }
  return code;
}

static void
print_speed (void *user_data, const pl_speed_result *r, size_t index,
             size_t count)
{
  if (r->mb_per_s > 0)
    printf ("%-26s %10.0f MB/s\n", r->name, r->mb_per_s);
  else
    printf ("%-26s %10s\n", r->name, "n/a");
  fflush (stdout);
}

/* An extension subcommand, as gocryptfs -speed: the CPU's limits. */
static int
cmd_speed (int argc, char **argv)
{
  pl_speed_result *results;
  size_t n;
  double seconds = 0.2;
  gpg_error_t err;

  for (int i = 0; i < argc; i++)
    {
      const char *v = sop_option_value ("--seconds", argc, argv, &i);
      if (!v || (seconds = strtod (v, NULL)) <= 0 || seconds > 10)
        return fail_argument (argv[i]);
    }
  pl_speed_list (&n);
  results = calloc (n, sizeof *results);
  if (!results)
    return 1;
  printf ("# one thread, in memory, MB = 10^6 octets\n");
  err = pl_speed_run (seconds, results, print_speed, NULL);
  free (results);
  if (err)
    return fail (1, "speed test failed", err);
  return SOP_OK;
}

static gpg_error_t
write_stdout (const void *buf, size_t len)
{
  return pl_write_all (1, buf, len);
}

/* After a first read of *N octets into BUF: reads on until BUF holds what
 * pl_sniff looks at, or stdin ends (a pipe's first read may be short).
 * *ENDED: stdin ended. */
static gpg_error_t
read_sniff_prefix (uint8_t *buf, size_t *n, int *ended)
{
  *ended = 0;
  while (*n < PL_SNIFF_SIZE)
    {
      ssize_t r = read (0, buf + *n, PL_SNIFF_SIZE - *n);
      if (r < 0 && errno == EINTR)
        continue;
      if (r < 0)
        return pl_error_from_errno (errno);
      if (!r)
        {
          *ended = 1;
          break;
        }
      *n += (size_t) r;
    }
  return 0;
}

/* What stdin's first octets are: pl_sniff over them. */
static void
sniff_prefix (const uint8_t *buf, size_t n, int ended, pl_sniff_result *r)
{
  pl_sniff (buf, n, ended ? (int64_t) n : PL_SNIFF_SIZE_UNKNOWN, r);
}

static int
cmd_armor (int argc, char **argv)
{
  const char *label = "auto";
  pl_armor_encoder enc;
  pl_armor_label kind = PL_ARMOR_MESSAGE;
  uint8_t *in = malloc (PL_BLOCK_SIZE);
  char *out = malloc (pl_armor_encoder_bound (PL_BLOCK_SIZE));
  size_t n;
  int first = 1, code = SOP_OK;
  gpg_error_t err = 0;

  for (int i = 0; i < argc; i++)
    {
      const char *v = sop_option_value ("--label", argc, argv, &i);
      if (!v)
        {
          free (in);
          free (out);
          return fail_argument (argv[i]);
        }
      label = v;
    }
  if (!in || !out)
    {
      free (in);
      free (out);
      return 1;
    }
  if (!strcmp (label, "key"))
    kind = PL_ARMOR_PUBLIC_KEY;
  else if (!strcmp (label, "sig"))
    kind = PL_ARMOR_SIGNATURE;
  else if (strcmp (label, "auto") && strcmp (label, "message"))
    {
      free (in);
      free (out);
      return fail (SOP_UNSUPPORTED_OPTION, "unknown --label", 0);
    }
  for (;;)
    {
      ssize_t r = read (0, in, PL_BLOCK_SIZE);
      if (r < 0 && errno == EINTR)
        continue;
      if (r < 0)
        {
          err = pl_error_from_errno (errno);
          break;
        }
      n = (size_t) r;
      if (first)
        {
          pl_sniff_result sniffed;
          int ended = !n;

          first = 0;
          if (n && (err = read_sniff_prefix (in, &n, &ended)))
            break;
          sniff_prefix (in, n, ended, &sniffed);
          if (n && pl_armor_detect (in, n))
            {
              /* Already armored: SOP says to pass it through. */
              do
                {
                  err = write_stdout (in, n);
                  r = err ? 0 : read (0, in, PL_BLOCK_SIZE);
                  n = r > 0 ? (size_t) r : 0;
                }
              while (!err && n);
              goto leave;
            }
          if (!strcmp (label, "auto"))
            {
              if (sniffed.kind == PL_SNIFF_PUBLIC_KEY)
                kind = PL_ARMOR_PUBLIC_KEY;
              else if (sniffed.kind == PL_SNIFF_SECRET_KEY)
                kind = PL_ARMOR_PRIVATE_KEY;
              else if (sniffed.kind == PL_SNIFF_SIGNATURE)
                kind = PL_ARMOR_SIGNATURE;
            }
          pl_armor_encoder_init (&enc, kind, 1);
        }
      if (!n)
        break;
      err = write_stdout (out, pl_armor_encoder_push (&enc, in, n, out));
      if (err)
        break;
    }
  if (!err)
    err = write_stdout (out, pl_armor_encoder_finish (&enc, out));

 leave:
  if (err)
    code = fail (1, "armor failed", err);
  free (in);
  free (out);
  return code;
}

static int
cmd_dearmor (int argc, char **argv)
{
  pl_armor_decoder dec;
  uint8_t *in = malloc (PL_BLOCK_SIZE), *out = malloc (PL_BLOCK_SIZE);
  int first = 1, binary = 0, code = SOP_OK;
  size_t n;
  gpg_error_t err = 0;

  if (argc)
    {
      free (in);
      free (out);
      return fail_argument (argv[0]);
    }
  if (!in || !out)
    {
      free (in);
      free (out);
      return 1;
    }
  pl_armor_decoder_init (&dec);
  for (;;)
    {
      size_t outlen = 0;
      ssize_t r = read (0, in, PL_BLOCK_SIZE);
      if (r < 0 && errno == EINTR)
        continue;
      if (r < 0)
        {
          err = pl_error_from_errno (errno);
          break;
        }
      if (!r)
        break;
      n = (size_t) r;
      if (first)
        {
          pl_sniff_result sniffed;
          int ended;

          first = 0;
          if ((err = read_sniff_prefix (in, &n, &ended)))
            break;
          /* Binary OpenPGP passes through unchanged. */
          sniff_prefix (in, n, ended, &sniffed);
          binary = sniffed.kind != PL_SNIFF_NOT_OPENPGP && !sniffed.armored;
        }
      if (binary)
        err = write_stdout (in, n);
      else
        {
          err = pl_armor_decoder_push (&dec, in, n, out, &outlen);
          if (!err)
            err = write_stdout (out, outlen);
        }
      if (err)
        break;
    }
  if (!err && !binary)
    err = pl_armor_decoder_finish (&dec);
  if (err)
    code = fail (pl_error_outcome (err) == PL_OUTCOME_IO ? 1 : SOP_BAD_DATA,
                 "dearmor failed", err);
  free (in);
  free (out);
  return code;
}

int
sop_main (int argc, char **argv)
{
  const char *cmd;
  gpg_error_t err;

  if (argc < 2)
    {
      usage (stderr);
      return SOP_MISSING_ARG;
    }
  cmd = argv[1];
  if (!strcmp (cmd, "--help") || !strcmp (cmd, "help"))
    {
      usage (stdout);
      return SOP_OK;
    }
  err = pl_init ();
  if (err)
    return fail (1, "libgcrypt is too old", err);
  if (!strcmp (cmd, "version"))
    return cmd_version (argc - 2, argv + 2);
  if (!strcmp (cmd, "list-profiles"))
    return cmd_list_profiles (argc - 2, argv + 2);
  if (!strcmp (cmd, "encrypt"))
    return cmd_encrypt (argc - 2, argv + 2);
  if (!strcmp (cmd, "decrypt"))
    return cmd_decrypt (argc - 2, argv + 2);
  if (!strcmp (cmd, "armor"))
    return cmd_armor (argc - 2, argv + 2);
  if (!strcmp (cmd, "generate-key"))
    return sop_cmd_generate_key (argc - 2, argv + 2);
  if (!strcmp (cmd, "extract-cert"))
    return sop_cmd_extract_cert (argc - 2, argv + 2);
  if (!strcmp (cmd, "sign"))
    return sop_cmd_sign (argc - 2, argv + 2);
  if (!strcmp (cmd, "verify"))
    return sop_cmd_verify (argc - 2, argv + 2);
  if (!strcmp (cmd, "inline-sign"))
    return sop_cmd_inline_sign (argc - 2, argv + 2);
  if (!strcmp (cmd, "inline-verify"))
    return sop_cmd_inline_verify (argc - 2, argv + 2);
  if (!strcmp (cmd, "inline-detach"))
    return sop_cmd_inline_detach (argc - 2, argv + 2);
  if (!strcmp (cmd, "dearmor"))
    return cmd_dearmor (argc - 2, argv + 2);
  if (!strcmp (cmd, "speed"))
    return cmd_speed (argc - 2, argv + 2);
  fprintf (stderr, "padlock-sop: unsupported subcommand %s\n", cmd);
  return SOP_UNSUPPORTED_SUBCOMMAND;
}
