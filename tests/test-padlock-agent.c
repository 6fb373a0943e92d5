/* test-padlock-agent.c - gpg-agent through libassuan, with keys gpg made
 *
 * One GnuPG home with a passphrase-protected key of each kind, a real
 * gpg-agent that Padlock starts itself, and the test pinentry
 * (tests/test-pinentry.sh).  A session key is encrypted to a key's
 * encryption subkey with libgcrypt, on the public key the agent reads
 * out (READKEY), and the agent must give it back through PKDECRYPT.
 */
#include <gcrypt.h>
#include <glib/gstdio.h>
#include <string.h>

#include "app-testutil.h"
#include "gnupg-home.h"
#include "padlock-agent.h"
#include "padlock-error.h"

#define PASSPHRASE "agent test pass"
#define WAIT_MS 60000

typedef struct
{
  const char *name;
  const char *uid;
  const char *primary;
  const char *subkey;
  char       *fpr;
  char       *grip;    /* of the encryption subkey */
  char       *primary_grip;
  const char *verify_data; /* how libgcrypt checks the agent's signature */
} TestKey;

static TestKey test_keys[] = {
  { "rsa3072", "Alice <alice@example.org>", "rsa3072", "rsa3072",
    .verify_data = "(data (flags pkcs1) (hash sha256 %b))" },
  { "cv25519", "Bob <bob@example.org>", "ed25519", "cv25519",
    .verify_data = "(data (flags eddsa) (hash-algo sha512) (value %b))" },
  { "nistp256", "Carol <carol@example.org>", "nistp256", "nistp256",
    .verify_data = "(data (flags raw) (value %b))" },
};

static TgHome *home;

static void
make_keys (void)
{
  home = tg_home_new ();
  for (guint i = 0; i < G_N_ELEMENTS (test_keys); i++)
    {
      TestKey *key = &test_keys[i];
      g_auto (GStrv) grips = NULL;

      key->fpr = tg_gen_key (home, key->uid, key->primary, "cert,sign", "never",
                             PASSPHRASE, NULL);
      tg_add_key (home, key->fpr, key->subkey, "encr", "never", PASSPHRASE, NULL);
      grips = tg_keygrips (home, key->fpr);
      g_assert_cmpuint (g_strv_length (grips), ==, 2);
      key->grip = g_strdup (grips[1]);
      key->primary_grip = g_strdup (grips[0]);
    }
  /* Padlock starts it again (/agent/start), with an empty cache. */
  tg_gpgconf (home, "--kill", "gpg-agent");
}

static void
forget_passphrases (void)
{
  tg_gpgconf (home, "--reload", "gpg-agent");
}

static void
test_start (void)
{
  g_autoptr (PadlockAgent) agent = padlock_agent_new (home->dir);
  g_autofree char *socket = tg_home_path (home, "S.gpg-agent");
  g_autoptr (GError) error = NULL;
  PadlockAgentKeyInfo info;

  /* Not running: Padlock starts it. */
  g_assert_false (g_file_test (socket, G_FILE_TEST_EXISTS));
  padlock_agent_get_key_info (agent, test_keys[0].grip, &info, NULL, &error);
  g_assert_no_error (error);
  g_assert_true (g_file_test (socket, G_FILE_TEST_EXISTS));
  g_assert_true (info.present);
  g_assert_true (info.protected_);
  g_assert_false (info.cached);
  g_assert_false (info.on_card);
  g_assert_cmpstr (info.serialno, ==, "");

  /* A keygrip the agent does not hold. */
  g_assert_true (padlock_agent_get_key_info (agent,
                                             "0123456789ABCDEF0123456789ABCDEF01234567",
                                             &info, NULL, &error));
  g_assert_no_error (error);
  g_assert_false (info.present);
}

/* libgcrypt's ciphertext taken apart into the values a PKESK holds, and
 * put together again by padlock_agent_ciphertext_new, as the engine's
 * callback will. */
static gcry_sexp_t
as_packet_holds (gcry_sexp_t enc, gboolean rsa)
{
  g_autoptr (GError) error = NULL;
  gcry_sexp_t part = gcry_sexp_find_token (enc, rsa ? "a" : "e", 0);
  const char *octets;
  size_t len;
  gcry_sexp_t ciphertext;
  /* An ECDH wrapped key is only carried along: the agent uses e. */
  static const unsigned char wrapped[41] = { 40 };

  g_assert_nonnull (part);
  octets = gcry_sexp_nth_data (part, 1, &len);
  g_assert_nonnull (octets);
  /* As the packet stores it: no leading zero octet. */
  while (len > 1 && octets[0] == 0)
    octets++, len--;
  ciphertext = padlock_agent_ciphertext_new (rsa ? 1 : 18, (const unsigned char *) octets,
                                             len, rsa ? NULL : wrapped,
                                             rsa ? 0 : sizeof wrapped, &error);
  g_assert_no_error (error);
  gcry_sexp_release (part);
  return ciphertext;
}

/* A random session value encrypted to KEY's encryption subkey, with
 * libgcrypt on the public key the agent reads out; *EXPECTED is what the
 * agent must answer: the value itself for RSA, the shared point for
 * ECDH. */
static gcry_sexp_t
encrypt_to (PadlockAgent *agent, TestKey *key, gcry_mpi_t *expected)
{
  g_autoptr (GError) error = NULL;
  gcry_sexp_t public_key, data = NULL, enc = NULL, s, ciphertext;
  gcry_mpi_t value;
  gboolean rsa = g_str_equal (key->subkey, "rsa3072");

  public_key = padlock_agent_read_key (agent, key->grip, NULL, &error);
  g_assert_no_error (error);
  g_assert_nonnull (public_key);
  value = gcry_mpi_new (0);
  /* Below the modulus for RSA; a scalar for ECDH. */
  gcry_mpi_randomize (value, rsa ? 3064 : 248, GCRY_STRONG_RANDOM);
  gcry_mpi_set_bit (value, rsa ? 3063 : 247);
  g_assert_cmpint (gcry_sexp_build (&data, NULL, rsa ? "(data (flags raw) (value %m))"
                                    : "(data (value %m))", value), ==, 0);
  g_assert_cmpint (gcry_pk_encrypt (&enc, data, public_key), ==, 0);
  if (rsa)
    *expected = gcry_mpi_copy (value);
  else
    {
      s = gcry_sexp_find_token (enc, "s", 0);
      g_assert_nonnull (s);
      *expected = gcry_sexp_nth_mpi (s, 1, GCRYMPI_FMT_USG);
      gcry_sexp_release (s);
    }
  gcry_mpi_release (value);
  gcry_sexp_release (data);
  gcry_sexp_release (public_key);
  ciphertext = as_packet_holds (enc, rsa);
  gcry_sexp_release (enc);
  return ciphertext;
}

static void
assert_value (PadlockAgentDecrypted *decrypted, gcry_mpi_t expected)
{
  gcry_mpi_t got = NULL;

  g_assert_nonnull (decrypted);
  g_assert_true (gcry_is_secure (decrypted->sexp));
  g_assert_true (decrypted->value > decrypted->sexp
                 && decrypted->value + decrypted->value_len
                    < decrypted->sexp + decrypted->sexp_len);
  g_assert_cmpint (gcry_mpi_scan (&got, GCRYMPI_FMT_USG, decrypted->value,
                                  decrypted->value_len, NULL), ==, 0);
  g_assert_cmpint (gcry_mpi_cmp (got, expected), ==, 0);
  gcry_mpi_release (got);
}

static void
count_launch (gpointer data)
{
  g_atomic_int_inc ((int *) data);
}

/* Whether pinentry was shown TEXT: the log holds the agent's SETDESC
 * lines, percent-escaped as the pinentry protocol says. */
static gboolean
log_has (const char *text)
{
  g_autofree char *path = tg_home_path (home, "pinentry.log");
  g_autofree char *log = NULL;
  g_autofree char *shown = NULL;

  if (!g_file_get_contents (path, &log, NULL, NULL))
    return FALSE;
  shown = g_uri_unescape_string (log, NULL);
  return shown && strstr (shown, text);
}

static void
test_pkdecrypt (gconstpointer data)
{
  TestKey *key = (TestKey *) data;
  g_autoptr (PadlockAgent) agent = padlock_agent_new (home->dir);
  g_autoptr (PadlockAgentDecrypted) first = NULL;
  g_autoptr (PadlockAgentDecrypted) second = NULL;
  g_autoptr (GError) error = NULL;
  g_autofree char *file = g_strdup_printf ("Q3 report+50%% %s.pdf.gpg", key->name);
  g_autofree char *description = NULL;
  g_autofree char *id = g_strdup (key->fpr + 24);
  PadlockAgentKeyInfo info;
  gcry_sexp_t enc;
  gcry_mpi_t expected;
  guint asked;
  int launched = 0;

  forget_passphrases ();
  asked = tg_home_pinentry_count (home);
  description = padlock_agent_describe_request (key->uid, id, file, PADLOCK_AGENT_TO_OPEN);
  g_assert_nonnull (strstr (description, key->uid));
  tg_home_set_pinentry (home, PASSPHRASE);
  enc = encrypt_to (agent, key, &expected);

  /* pinentry asks once, showing who and which file. */
  first = padlock_agent_pkdecrypt (agent, key->grip, description, enc,
                                   count_launch, &launched, NULL, &error);
  g_assert_no_error (error);
  assert_value (first, expected);
  g_assert_cmpuint (tg_home_pinentry_count (home), ==, asked + 1);
  g_assert_cmpint (launched, ==, 1);
  /* Its words reach pinentry intact: spaces, '+', '%' and new lines. */
  g_assert_true (log_has (description));

  /* Cached now: the agent answers without pinentry. */
  g_assert_true (padlock_agent_get_key_info (agent, key->grip, &info, NULL, &error));
  g_assert_true (info.present && info.cached);
  tg_home_set_pinentry (home, "cancel");
  second = padlock_agent_pkdecrypt (agent, key->grip, description, enc,
                                    count_launch, &launched, NULL, &error);
  g_assert_no_error (error);
  assert_value (second, expected);
  g_assert_cmpuint (tg_home_pinentry_count (home), ==, asked + 1);
  g_assert_cmpint (launched, ==, 1);
  gcry_mpi_release (expected);
  gcry_sexp_release (enc);
}

/* The pinentry environment reaches the agent's pinentry: a Wayland
 * display through putenv, the user data by its Assuan name. */
static void
test_environment (void)
{
  g_autoptr (PadlockAgent) agent = NULL;
  g_autoptr (PadlockAgentDecrypted) decrypted = NULL;
  g_autoptr (GError) error = NULL;
  gcry_sexp_t enc;
  gcry_mpi_t expected;

  /* The agent runs without them (it would pass its own on), and the
   * PadlockAgent's first connection sends them. */
  tg_gpgconf (home, "--launch", "gpg-agent");
  g_setenv ("WAYLAND_DISPLAY", "padlock-test-wayland", TRUE);
  g_setenv ("PINENTRY_USER_DATA", "padlock-user-data", TRUE);
  agent = padlock_agent_new (home->dir);
  enc = encrypt_to (agent, &test_keys[0], &expected);
  g_unsetenv ("WAYLAND_DISPLAY");
  g_unsetenv ("PINENTRY_USER_DATA");
  forget_passphrases ();
  tg_home_set_pinentry (home, PASSPHRASE);
  decrypted = padlock_agent_pkdecrypt (agent, test_keys[0].grip, NULL, enc, NULL,
                                       NULL, NULL, &error);
  g_assert_no_error (error);
  assert_value (decrypted, expected);
  g_assert_true (log_has ("ENV WAYLAND_DISPLAY=padlock-test-wayland "
                          "PINENTRY_USER_DATA=padlock-user-data\n"));
  gcry_mpi_release (expected);
  gcry_sexp_release (enc);
}

static void
test_pinentry_cancel (void)
{
  g_autoptr (PadlockAgent) agent = padlock_agent_new (home->dir);
  g_autoptr (PadlockAgentDecrypted) decrypted = NULL;
  g_autoptr (GError) error = NULL;
  guint asked;
  gcry_sexp_t enc;
  gcry_mpi_t expected;

  enc = encrypt_to (agent, &test_keys[2], &expected);
  forget_passphrases ();
  asked = tg_home_pinentry_count (home);
  tg_home_set_pinentry (home, "cancel");
  decrypted = padlock_agent_pkdecrypt (agent, test_keys[2].grip, NULL, enc,
                                       NULL, NULL, NULL, &error);
  g_assert_null (decrypted);
  g_assert_error (error, PADLOCK_ERROR, PADLOCK_ERROR_CANCELLED);
  g_assert_cmpstr (error->message, ==, "Cancelled, nothing was written.");
  g_assert_cmpuint (tg_home_pinentry_count (home), ==, asked + 1);
  gcry_mpi_release (expected);
  gcry_sexp_release (enc);
}

static gboolean
pinentry_is_up (gpointer data)
{
  return g_atomic_int_get ((int *) data) > 0;
}

/* Cancelling the request while pinentry is up returns at once, and the
 * agent serves the next request. */
static void
test_cancel_request (void)
{
  g_autoptr (PadlockAgent) agent = padlock_agent_new (home->dir);
  g_autoptr (PadlockAgentDecrypted) decrypted = NULL;
  g_autoptr (GCancellable) cancellable = g_cancellable_new ();
  g_autoptr (GAsyncResult) result = NULL;
  g_autoptr (GError) error = NULL;
  g_autofree char *release = tg_home_path (home, "pinentry.release");
  TestKey *key = &test_keys[1];
  int launched = 0;
  gcry_sexp_t enc;
  gcry_mpi_t expected;

  enc = encrypt_to (agent, key, &expected);
  forget_passphrases ();
  tg_home_set_pinentry (home, "hang");
  padlock_agent_pkdecrypt_async (agent, key->grip, "Cancel me", enc, count_launch,
                                 &launched, cancellable, at_on_result, &result);
  g_assert_true (at_wait_until (pinentry_is_up, &launched, WAIT_MS));
  g_cancellable_cancel (cancellable);
  g_assert_true (at_wait_until (at_has_result, &result, WAIT_MS));
  /* … while the pinentry still waits: the request did not wait for it. */
  g_assert_false (g_file_test (release, G_FILE_TEST_EXISTS));
  decrypted = padlock_agent_pkdecrypt_finish (agent, result, &error);
  g_assert_null (decrypted);
  g_assert_error (error, PADLOCK_ERROR, PADLOCK_ERROR_CANCELLED);
  g_clear_error (&error);

  /* The hung pinentry goes (GnuPG 2.2's agent only closes it when it
   * answers); the agent then decrypts again. */
  tg_home_release_pinentry (home);
  tg_home_set_pinentry (home, PASSPHRASE);
  decrypted = padlock_agent_pkdecrypt (agent, key->grip, NULL, enc, NULL, NULL,
                                       NULL, &error);
  g_assert_no_error (error);
  assert_value (decrypted, expected);
  g_unlink (release);
  gcry_mpi_release (expected);
  gcry_sexp_release (enc);
}

typedef struct
{
  PadlockAgent *agent;
  TestKey      *key;
  gcry_sexp_t   enc;
  gcry_mpi_t    expected;
  int           failures;
} Shared;

static gpointer
decrypt_a_few (gpointer data)
{
  Shared *shared = data;

  for (guint i = 0; i < 8; i++)
    {
      g_autoptr (GError) error = NULL;
      g_autoptr (PadlockAgentDecrypted) decrypted =
        padlock_agent_pkdecrypt (shared->agent, shared->key->grip, NULL, shared->enc,
                                 NULL, NULL, NULL, &error);
      gcry_mpi_t got = NULL;

      if (!decrypted
          || gcry_mpi_scan (&got, GCRYMPI_FMT_USG, decrypted->value,
                            decrypted->value_len, NULL)
          || gcry_mpi_cmp (got, shared->expected) != 0)
        g_atomic_int_inc (&shared->failures);
      gcry_mpi_release (got);
    }
  return NULL;
}

/* One agent object for many threads at once, as a batch of files uses
 * it: every answer right, and one pinentry for all. */
static void
test_threads (void)
{
  g_autoptr (PadlockAgent) agent = padlock_agent_new (home->dir);
  g_autoptr (PadlockAgentDecrypted) first = NULL;
  g_autoptr (GError) error = NULL;
  Shared shared = { agent, &test_keys[1] };
  GThread *threads[6];
  guint asked;

  shared.enc = encrypt_to (agent, shared.key, &shared.expected);
  forget_passphrases ();
  asked = tg_home_pinentry_count (home);
  tg_home_set_pinentry (home, PASSPHRASE);
  first = padlock_agent_pkdecrypt (agent, shared.key->grip, NULL, shared.enc,
                                   NULL, NULL, NULL, &error);
  g_assert_no_error (error);
  assert_value (first, shared.expected);
  tg_home_set_pinentry (home, "cancel");
  for (guint i = 0; i < G_N_ELEMENTS (threads); i++)
    threads[i] = g_thread_new ("decrypt", decrypt_a_few, &shared);
  for (guint i = 0; i < G_N_ELEMENTS (threads); i++)
    g_thread_join (threads[i]);
  g_assert_cmpint (shared.failures, ==, 0);
  g_assert_cmpuint (tg_home_pinentry_count (home), ==, asked + 1);
  gcry_mpi_release (shared.expected);
  gcry_sexp_release (shared.enc);
}

typedef struct
{
  PadlockAgent *agent;
  const char   *grip;
  gint          go;
  gint          failures;
} SignShared;

static gpointer
sign_once (gpointer data)
{
  SignShared *shared = data;
  unsigned char digest[32];
  g_autoptr (GError) error = NULL;
  gcry_sexp_t signature;

  gcry_create_nonce (digest, sizeof digest);
  while (!g_atomic_int_get (&shared->go))
    g_thread_yield ();
  signature = padlock_agent_pksign (shared->agent, shared->grip, "Sign it",
                                    GCRY_MD_SHA256, digest, sizeof digest,
                                    NULL, NULL, NULL, &error);
  if (!signature)
    g_atomic_int_inc (&shared->failures);
  gcry_sexp_release (signature);
  return NULL;
}

/* Jobs that start together for a key whose passphrase is not cached (a
 * batch signed by one key): one pinentry, not one a job.  gpg-agent
 * alone asks again for each request that came before the first's
 * pinentry was up (app-winkeys /winkeys/sign-files counted two under
 * load); the agent object lets the first go alone (take_turn). */
static void
test_first_request_alone (void)
{
  g_autoptr (PadlockAgent) agent = padlock_agent_new (home->dir);
  SignShared shared = { agent, test_keys[0].primary_grip };
  GThread *threads[8];
  guint asked;

  forget_passphrases ();
  tg_home_set_pinentry (home, PASSPHRASE);
  asked = tg_home_pinentry_count (home);
  for (guint i = 0; i < G_N_ELEMENTS (threads); i++)
    threads[i] = g_thread_new ("sign", sign_once, &shared);
  g_atomic_int_set (&shared.go, 1);
  for (guint i = 0; i < G_N_ELEMENTS (threads); i++)
    g_thread_join (threads[i]);
  g_assert_cmpint (shared.failures, ==, 0);
  g_assert_cmpuint (tg_home_pinentry_count (home), ==, asked + 1);
}

static void
set_pinentry_program (const char *program)
{
  g_autofree char *conf = tg_home_path (home, "gpg-agent.conf");
  g_autofree char *text = g_strdup_printf ("pinentry-program %s\n", program);

  g_assert_true (g_file_set_contents (conf, text, -1, NULL));
  forget_passphrases ();
}

static void
test_no_pinentry (void)
{
  g_autoptr (PadlockAgent) agent = padlock_agent_new (home->dir);
  g_autoptr (PadlockAgentDecrypted) decrypted = NULL;
  g_autoptr (GError) error = NULL;
  g_autofree char *missing = tg_home_path (home, "no-such-pinentry");
  g_autofree char *ours = tg_home_path (home, "pinentry");
  gcry_sexp_t enc;
  gcry_mpi_t expected;

  enc = encrypt_to (agent, &test_keys[0], &expected);
  set_pinentry_program (missing);
  decrypted = padlock_agent_pkdecrypt (agent, test_keys[0].grip, NULL, enc,
                                       NULL, NULL, NULL, &error);
  set_pinentry_program (ours);
  g_assert_null (decrypted);
  g_assert_error (error, PADLOCK_ERROR, PADLOCK_ERROR_OTHER);
  g_assert_nonnull (strstr (error->message, "pinentry-gnome3"));
  gcry_mpi_release (expected);
  gcry_sexp_release (enc);
}

static void
test_ciphertext_refused (void)
{
  g_autoptr (GError) error = NULL;
  const unsigned char octets[] = { 1, 2, 3 };

  /* X25519 (25) is not gpg-agent 2.2's. */
  g_assert_null (padlock_agent_ciphertext_new (25, octets, sizeof octets, octets,
                                               sizeof octets, &error));
  g_assert_error (error, PADLOCK_ERROR, PADLOCK_ERROR_UNSUPPORTED);
  g_clear_error (&error);
  g_assert_null (padlock_agent_ciphertext_new (18, octets, sizeof octets, NULL, 0,
                                               &error));
  g_assert_nonnull (error);
}

static void
test_no_secret_key (void)
{
  g_autoptr (PadlockAgent) agent = padlock_agent_new (home->dir);
  g_autoptr (PadlockAgentDecrypted) decrypted = NULL;
  g_autoptr (GError) error = NULL;
  gcry_sexp_t enc;
  gcry_mpi_t expected;

  enc = encrypt_to (agent, &test_keys[0], &expected);
  decrypted = padlock_agent_pkdecrypt (agent, "0123456789ABCDEF0123456789ABCDEF01234567",
                                       NULL, enc, NULL, NULL, NULL, &error);
  g_assert_null (decrypted);
  g_assert_error (error, PADLOCK_ERROR, PADLOCK_ERROR_PUBLIC_KEY);
  gcry_mpi_release (expected);
  gcry_sexp_release (enc);
}

/* The agent signs a SHA-256 digest with the primary key; libgcrypt
 * checks it on the public key, and refuses it for another digest. */
static void
test_pksign (gconstpointer data)
{
  TestKey *key = (TestKey *) data;
  g_autoptr (PadlockAgent) agent = padlock_agent_new (home->dir);
  g_autoptr (GError) error = NULL;
  gcry_sexp_t signature, public_key, signed_data = NULL, other_data = NULL;
  unsigned char digest[32], other[32];

  tg_home_set_pinentry (home, PASSPHRASE);
  gcry_create_nonce (digest, sizeof digest);
  memcpy (other, digest, sizeof other);
  other[7] ^= 0x20;
  signature = padlock_agent_pksign (agent, key->primary_grip, "Sign it",
                                    GCRY_MD_SHA256, digest, sizeof digest,
                                    NULL, NULL, NULL, &error);
  g_assert_no_error (error);
  g_assert_nonnull (signature);
  public_key = padlock_agent_read_key (agent, key->primary_grip, NULL, &error);
  g_assert_no_error (error);
  g_assert_cmpint (gcry_sexp_build (&signed_data, NULL, key->verify_data,
                                    (int) sizeof digest, digest), ==, 0);
  g_assert_cmpint (gcry_sexp_build (&other_data, NULL, key->verify_data,
                                    (int) sizeof other, other), ==, 0);
  g_assert_cmpint (gcry_pk_verify (signature, signed_data, public_key), ==, 0);
  g_assert_cmpint (gpg_err_code (gcry_pk_verify (signature, other_data, public_key)),
                   ==, GPG_ERR_BAD_SIGNATURE);
  gcry_sexp_release (signature);
  gcry_sexp_release (public_key);
  gcry_sexp_release (signed_data);
  gcry_sexp_release (other_data);
}

/* Issue 32: a user ID or a file name cannot write lines of its own in
 * pinentry's text (nor ESC drive pinentry-curses's terminal). */
static void
test_describe_escaped (void)
{
  g_autofree char *asked = padlock_agent_describe_request ("Eve\n\x1b[2KAlice",
                                                           "0123456789ABCDEF",
                                                           "a\rb.gpg",
                                                           PADLOCK_AGENT_TO_OPEN);
  g_autofree char *waiting = padlock_agent_describe_waiting ("Eve\nAlice",
                                                             "0123456789ABCDEF");
  guint lines = 0;

  for (const char *p = asked; *p; p++)
    lines += *p == '\n';
  g_assert_cmpuint (lines, ==, 3);
  g_assert_nonnull (strstr (asked, "Eve\\n\\x1B[2KAlice"));
  g_assert_nonnull (strstr (asked, "a\\rb.gpg"));
  g_assert_null (strchr (asked, '\x1b'));
  g_assert_null (strchr (waiting, '\n'));
}

int
main (int argc, char **argv)
{
  int status;

  tu_init (&argc, &argv);
  g_test_add_func ("/agent/start", test_start);
  g_test_add_func ("/agent/describe-escaped", test_describe_escaped);
  for (guint i = 0; i < G_N_ELEMENTS (test_keys); i++)
    {
      g_autofree char *path = g_strdup_printf ("/agent/pkdecrypt/%s", test_keys[i].name);

      g_test_add_data_func (path, &test_keys[i], test_pkdecrypt);
      g_clear_pointer (&path, g_free);
      path = g_strdup_printf ("/agent/pksign/%s", test_keys[i].name);
      g_test_add_data_func (path, &test_keys[i], test_pksign);
    }
  g_test_add_func ("/agent/environment", test_environment);
  g_test_add_func ("/agent/pinentry-cancel", test_pinentry_cancel);
  g_test_add_func ("/agent/cancel-request", test_cancel_request);
  g_test_add_func ("/agent/threads", test_threads);
  g_test_add_func ("/agent/first-request-alone", test_first_request_alone);
  g_test_add_func ("/agent/no-pinentry", test_no_pinentry);
  g_test_add_func ("/agent/no-secret-key", test_no_secret_key);
  g_test_add_func ("/agent/ciphertext-refused", test_ciphertext_refused);
  make_keys ();
  status = g_test_run ();
  g_clear_pointer (&home, tg_home_free);
  return status;
}
