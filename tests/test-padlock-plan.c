/* test-padlock-plan.c - what an input is and needs (padlock-plan.h), for
 * every kind the window and `padlock --batch` take: files and messages
 * made by the real gpg in GnuPG homes of the test's own, opened as the
 * callers open them (padlock-input.h), planned with the user's keys
 * unknown, absent, listed, and listed without a secret key.
 */
#include <string.h>
#include <unistd.h>
#include <glib/gstdio.h>

#include "app-testutil.h"
#include "gnupg-home.h"
#include "padlock-agent.h"
#include "padlock-held-keys.h"
#include "padlock-input.h"
#include "padlock-keyring.h"
#include "padlock-plan.h"
#include "sniff.h"
#include "testutil.h"

#define PASSPHRASE "a passphrase for the file"
#define WAIT_MS 120000
#define N_OTHERS 8              /* with Alice: one PKESK more than the
                                 * sniffer keeps (PL_SNIFF_KEY_PACKETS_MAX) */

static TgHome *home;            /* Alice's secret key; Bob's certificate */
static TgHome *others_home;     /* Bob's and the others' secret keys;
                                 * Alice's certificate */
static char *alice_fpr;
static char *bob_fpr;
static char *other_fprs[N_OTHERS];
static char *dir;               /* the inputs */
static PadlockHeldKeys *mine;   /* HOME's: Alice's key */
static PadlockHeldKeys *none;   /* a keyring of certificates, no secret key */

/* The user's keys, as a column of the table: not listed yet (the
 * keyring can be: PADLOCK_PLAN_KEYS_PENDING), none to ask (no keyring),
 * listed with Alice's, listed without a secret key. */
enum { PENDING, NO_KEYRING, MINE, NONE_MINE, N_KEYS };

typedef struct
{
  const char *input;            /* a name in DIR; "|NAME": NAME's octets
                                 * through a pipe */
  PadlockPlanAsk ask;
  PadlockPlanFlags flags;       /* PADLOCK_PLAN_IMPORT, or 0 */
  PadlockPlan want[N_KEYS];
} Case;

#define ENC PADLOCK_PLAN_ENCRYPT
#define PW PADLOCK_PLAN_DECRYPT_PASSPHRASE
#define KEYS PADLOCK_PLAN_DECRYPT_KEYS
#define EITHER PADLOCK_PLAN_DECRYPT_KEYS_OR_PASSPHRASE
#define CHECK PADLOCK_PLAN_CHECK_CLEARSIGNED
#define DETACHED PADLOCK_PLAN_CHECK_DETACHED
#define SIGNED PADLOCK_PLAN_CHECK_SIGNED
#define LIST PADLOCK_PLAN_CHECK_LIST
#define IMPORT PADLOCK_PLAN_IMPORT_KEYS
#define WAIT PADLOCK_PLAN_WAIT_FOR_KEYS
#define NOTHING PADLOCK_PLAN_ASK_NOTHING
#define TO_ENCRYPT PADLOCK_PLAN_ASK_ENCRYPT
#define TO_DECRYPT PADLOCK_PLAN_ASK_DECRYPT
#define ALL(p) { p, p, p, p }

/* Asked for nothing: by content and name. */
static const Case by_content[] = {
  { "folder", NOTHING, PADLOCK_PLAN_IMPORT, ALL (ENC) },
  { "notes.txt", NOTHING, PADLOCK_PLAN_IMPORT, ALL (ENC) },
  /* Not OpenPGP, named so: a decryption that says what it is not. */
  { "random.gpg", NOTHING, PADLOCK_PLAN_IMPORT, ALL (PW) },
  { "pw.gpg", NOTHING, 0, ALL (PW) },
  { "pw.asc", NOTHING, 0, ALL (PW) },
  { "mine.gpg", NOTHING, 0, { WAIT, PW, KEYS, KEYS } },
  { "mine.asc", NOTHING, 0, { WAIT, PW, KEYS, KEYS } },
  { "hidden.gpg", NOTHING, 0, { WAIT, PW, KEYS, KEYS } },
  /* For Bob: its job fails saying so, asking no passphrase. */
  { "bobs.gpg", NOTHING, 0, { WAIT, PW, KEYS, KEYS } },
  { "both.gpg", NOTHING, 0, { WAIT, PW, EITHER, PW } },
  { "both.asc", NOTHING, 0, { WAIT, PW, EITHER, PW } },
  { "hidden-pw.gpg", NOTHING, 0, { WAIT, PW, EITHER, PW } },
  { "bobpw.gpg", NOTHING, 0, { WAIT, PW, PW, PW } },
  /* Nine PKESKs, Alice's among the eight kept: one left out may be an
   * SKESK.  --batch asked for the passphrase (a usage error without
   * one) where the window decrypted with the keys first. */
  { "many.gpg", NOTHING, 0, { WAIT, PW, EITHER, PW } },
  { "signed.txt", NOTHING, PADLOCK_PLAN_IMPORT, ALL (CHECK) },
  { "alice.asc", NOTHING, PADLOCK_PLAN_IMPORT, ALL (IMPORT) },
  { "alice.key", NOTHING, PADLOCK_PLAN_IMPORT, ALL (IMPORT) },
  /* A caller that imports nothing (--batch), or the window whose
   * keyring cannot take it: any file, by name. */
  { "alice.asc", NOTHING, 0, ALL (PW) },
  { "alice.key", NOTHING, 0, ALL (ENC) },
  /* Streams: by content, once their first octets are read. */
  { "|mine.gpg", NOTHING, 0, { WAIT, PW, KEYS, KEYS } },
  { "|both.asc", NOTHING, 0, { WAIT, PW, EITHER, PW } },
  { "|pw.gpg", NOTHING, 0, ALL (PW) },
  { "|signed.txt", NOTHING, 0, ALL (CHECK) },
  { "|notes.txt", NOTHING, 0, ALL (ENC) },
  /* Detached signatures (issue 34): checked, never encrypted, whatever
   * the name says; the data file alone is any file. */
  { "data.bin.sig", NOTHING, PADLOCK_PLAN_IMPORT, ALL (DETACHED) },
  { "data.bin.asc", NOTHING, 0, ALL (DETACHED) },
  { "data.bin.sign", NOTHING, 0, ALL (DETACHED) },
  { "a-signature", NOTHING, 0, ALL (DETACHED) },
  { "|data.bin.sig", NOTHING, 0, ALL (DETACHED) },
  { "data.bin", NOTHING, 0, ALL (ENC) },
  /* Signed, not encrypted (gpg -s, -sa): checked, no passphrase. */
  { "inline.gpg", NOTHING, 0, ALL (SIGNED) },
  { "inline.asc", NOTHING, 0, ALL (SIGNED) },
  { "inline-named", NOTHING, 0, ALL (SIGNED) },
  { "|inline.gpg", NOTHING, 0, ALL (SIGNED) },
  /* Checksum lists (issue 34 §3): by name and content; signed beside
   * it, or not (the job finds out); cleartext-signed; its detached
   * signature alone, by the name of the list it signs. */
  { "SHA256SUMS", NOTHING, PADLOCK_PLAN_IMPORT, ALL (LIST) },
  { "sha256sum.txt", NOTHING, 0, ALL (LIST) },
  { "Fedora-38-CHECKSUM", NOTHING, 0, ALL (LIST) },
  { "SHA512SUMS", NOTHING, 0, ALL (LIST) },
  { "SHA256SUMS.gpg", NOTHING, PADLOCK_PLAN_IMPORT, ALL (LIST) },
  { "big-SHA256SUMS", NOTHING, 0, ALL (LIST) },
  /* Named as a list, and none; a list named otherwise; a list through
   * a pipe (no folder); a cleartext-signed text not named as a list. */
  { "SHA1SUMS", NOTHING, 0, ALL (ENC) },
  { "listing.txt", NOTHING, 0, ALL (ENC) },
  { "|SHA256SUMS", NOTHING, 0, ALL (ENC) },
  { "signed.txt", NOTHING, 0, ALL (CHECK) },
};

/* --encrypt, Encrypt Files…: whatever it is. */
static const Case to_encrypt[] = {
  { "folder", TO_ENCRYPT, PADLOCK_PLAN_IMPORT, ALL (ENC) },
  { "random.gpg", TO_ENCRYPT, 0, ALL (ENC) },
  { "mine.gpg", TO_ENCRYPT, 0, ALL (ENC) },
  { "both.asc", TO_ENCRYPT, 0, ALL (ENC) },
  { "signed.txt", TO_ENCRYPT, 0, ALL (ENC) },
  { "alice.asc", TO_ENCRYPT, PADLOCK_PLAN_IMPORT, ALL (ENC) },
  { "|mine.gpg", TO_ENCRYPT, 0, ALL (ENC) },
  { "data.bin.sig", TO_ENCRYPT, 0, ALL (ENC) },
  { "inline.gpg", TO_ENCRYPT, 0, ALL (ENC) },
  { "SHA256SUMS", TO_ENCRYPT, 0, ALL (ENC) },
  { "SHA256SUMS.gpg", TO_ENCRYPT, 0, ALL (ENC) },
  { "SHA512SUMS", TO_ENCRYPT, 0, ALL (ENC) },
};

/* --decrypt, Decrypt Files…: by content, whatever the name; what is no
 * message is a decryption that fails saying so. */
static const Case to_decrypt[] = {
  { "folder", TO_DECRYPT, PADLOCK_PLAN_IMPORT, ALL (PW) },
  { "notes.txt", TO_DECRYPT, PADLOCK_PLAN_IMPORT, ALL (PW) },
  { "alice.key", TO_DECRYPT, PADLOCK_PLAN_IMPORT, ALL (PW) },
  { "pw.asc", TO_DECRYPT, 0, ALL (PW) },
  { "mine.gpg", TO_DECRYPT, 0, { WAIT, PW, KEYS, KEYS } },
  { "both.gpg", TO_DECRYPT, 0, { WAIT, PW, EITHER, PW } },
  { "bobpw.gpg", TO_DECRYPT, 0, { WAIT, PW, PW, PW } },
  { "signed.txt", TO_DECRYPT, 0, ALL (CHECK) },
  { "|notes.txt", TO_DECRYPT, 0, ALL (PW) },
  /* What "decrypting" a signature can mean: checking it. */
  { "data.bin.sig", TO_DECRYPT, 0, ALL (DETACHED) },
  { "a-signature", TO_DECRYPT, 0, ALL (DETACHED) },
  { "inline.asc", TO_DECRYPT, 0, ALL (SIGNED) },
  { "data.bin", TO_DECRYPT, 0, ALL (PW) },
  /* A list is checked: what "decrypting" it can mean. */
  { "SHA256SUMS", TO_DECRYPT, 0, ALL (LIST) },
  { "SHA256SUMS.gpg", TO_DECRYPT, 0, ALL (LIST) },
  { "SHA512SUMS", TO_DECRYPT, 0, ALL (LIST) },
  { "SHA1SUMS", TO_DECRYPT, 0, ALL (PW) },
};

static void
write_file (const char *name, GBytes *octets)
{
  g_autofree char *path = g_build_filename (dir, name, NULL);
  g_autoptr(GError) error = NULL;

  g_assert_true (g_file_set_contents (path, g_bytes_get_data (octets, NULL),
                                      g_bytes_get_size (octets), &error));
  g_assert_no_error (error);
}

/* DIR/NAME: TEXT encrypted by HOME's gpg, ARMORED or not, with
 * PASSPHRASE when not NULL and to R (a fingerprint; hidden with HIDE)
 * when not NULL. */
static void
gpg_encrypt (const char *name, gboolean armored, const char *passphrase,
             const char *r, gboolean hide)
{
  g_autoptr(GBytes) in = g_bytes_new_static ("text\n", 5);
  g_autoptr(GBytes) out = NULL;

  /* Each option left out ends the list ("--no-tty" is already set). */
  g_assert_cmpint (tg_gpg (home, passphrase, in, &out, "--trust-model",
                           "always", "--output", "-",
                           armored ? "--armor" : "--no-tty",
                           passphrase ? "-c" : "--no-tty",
                           r ? "-e" : NULL, hide ? "-R" : "-r", r, NULL),
                   ==, 0);
  write_file (name, out);
}

/* DIR/NAME: Alice's signature (gpg OPTION: --detach-sign, -s) of DATA,
 * armored when ARMORED. */
static void
gpg_sign (const char *name, GBytes *data, const char *option,
          gboolean armored)
{
  g_autoptr(GBytes) out = NULL;

  g_assert_cmpint (tg_gpg (home, NULL, data, &out, "--output", "-",
                           "-u", alice_fpr, armored ? "--armor" : "--no-tty",
                           option, NULL), ==, 0);
  write_file (name, out);
}

/* The eight others and Alice, Alice first: gpg writes the PKESKs in the
 * order of the recipients. */
static void
gpg_encrypt_many (const char *name)
{
  g_autoptr(GBytes) in = g_bytes_new_static ("text\n", 5);
  g_autoptr(GBytes) out = NULL;

  g_assert_cmpint (tg_gpg (home, NULL, in, &out, "--trust-model", "always",
                           "--output", "-", "-e", "-r", alice_fpr,
                           "-r", other_fprs[0], "-r", other_fprs[1],
                           "-r", other_fprs[2], "-r", other_fprs[3],
                           "-r", other_fprs[4], "-r", other_fprs[5],
                           "-r", other_fprs[6], "-r", other_fprs[7], NULL),
                   ==, 0);
  write_file (name, out);
}

/* "HEX  NAME" for DATA (a string) named NAME, as sha256sum writes it. */
static char *
sum_line (const char *data, const char *name)
{
  g_autofree char *hex = g_compute_checksum_for_string (G_CHECKSUM_SHA256,
                                                        data, -1);

  return g_strdup_printf ("%s  %s\n", hex, name);
}

/* Checksum lists: SHA256SUMS (of data.bin and a file not there) and its
 * detached signature, an unsigned sha256sum.txt, a BSD-style
 * Fedora-38-CHECKSUM, a cleartext-signed SHA512SUMS, a list longer than
 * the sniffer reads (its last line cut there), and what is no list: a
 * SHA1SUMS of words, and a list named listing.txt. */
static void
make_lists (void)
{
  g_autofree char *line = sum_line ("signed data\n", "data.bin");
  g_autofree char *other = sum_line ("elsewhere\n", "debian-12.iso");
  g_autofree char *list = g_strconcat (line, other, NULL);
  g_autofree char *hex = g_compute_checksum_for_string (G_CHECKSUM_SHA512,
                                                        "signed data\n", -1);
  g_autofree char *sha512 = g_strdup_printf ("%s *data.bin\n", hex);
  g_autofree char *bsd = g_strdup_printf ("# Fedora-38.iso: 1 bytes\n"
                                          "SHA256 (data.bin) = %.64s\n", list);
  g_autofree char *cleartext = tg_clearsign (home, alice_fpr, sha512, NULL,
                                             NULL);
  g_autoptr(GString) big = g_string_new (NULL);
  g_autoptr(GBytes) bytes = g_bytes_new (list, strlen (list));

  write_file ("SHA256SUMS", bytes);
  gpg_sign ("SHA256SUMS.gpg", bytes, "--detach-sign", FALSE);
  write_file ("sha256sum.txt", bytes);
  write_file ("listing.txt", bytes);
  {
    g_autoptr(GBytes) b = g_bytes_new (bsd, strlen (bsd));
    g_autoptr(GBytes) c = g_bytes_new (cleartext, strlen (cleartext));
    g_autoptr(GBytes) words = g_bytes_new_static ("no sums here\n", 13);

    write_file ("Fedora-38-CHECKSUM", b);
    write_file ("SHA512SUMS", c);
    write_file ("SHA1SUMS", words);
  }
  for (guint i = 0; big->len <= 2 * PL_SNIFF_SIZE; i++)
    {
      g_autofree char *name = g_strdup_printf ("file-%u.iso", i);
      g_autofree char *l = sum_line (name, name);

      g_string_append (big, l);
    }
  {
    g_autoptr(GBytes) b = g_bytes_new (big->str, big->len);

    write_file ("big-SHA256SUMS", b);
  }
}

static PadlockHeldKeys *
held_keys_of (TgHome *h)
{
  g_autoptr(PadlockKeyring) keyring = padlock_keyring_new (h->dir);
  g_autoptr(PadlockAgent) agent = padlock_agent_new (h->dir);

  g_assert_true (at_wait_until (at_keyring_loaded, keyring, WAIT_MS));
  g_assert_cmpint (padlock_keyring_get_state (keyring), ==,
                   PADLOCK_KEYRING_READY);
  return padlock_held_keys_new (keyring, agent);
}

static void
make_inputs (void)
{
  g_autoptr(GBytes) key = NULL;
  g_autoptr(GBytes) armored_key = NULL;
  g_autoptr(GBytes) signed_text = NULL;
  g_autofree char *folder = NULL;
  g_autofree char *random = NULL;
  TgHome *empty_home;

  home = tg_home_new ();
  others_home = tg_home_new ();
  alice_fpr = tg_gen_encryption_key (home, "Alice <alice@example.org>",
                                     "ed25519", "cv25519", "never", NULL);
  bob_fpr = tg_gen_encryption_key (others_home, "Bob <bob@example.org>",
                                   "ed25519", "cv25519", "never", NULL);
  tg_import_cert (home, others_home, bob_fpr);
  for (guint i = 0; i < N_OTHERS; i++)
    {
      g_autofree char *uid = g_strdup_printf ("Other %u <o%u@example.org>",
                                              i, i);

      other_fprs[i] = tg_gen_encryption_key (others_home, uid, "ed25519",
                                             "cv25519", "never", NULL);
      tg_import_cert (home, others_home, other_fprs[i]);
    }
  tg_gpgconf (others_home, "--kill", "gpg-agent");

  dir = tu_new_dir ("plan");
  folder = g_build_filename (dir, "folder", NULL);
  g_assert_cmpint (g_mkdir (folder, 0700), ==, 0);
  {
    g_autofree char *notes = g_build_filename (dir, "notes.txt", NULL);
    g_assert_true (g_file_set_contents (notes, "hello\n", -1, NULL));
  }
  random = at_write_random (dir, "random.gpg", 5000);
  gpg_encrypt ("pw.gpg", FALSE, PASSPHRASE, NULL, FALSE);
  gpg_encrypt ("pw.asc", TRUE, PASSPHRASE, NULL, FALSE);
  gpg_encrypt ("mine.gpg", FALSE, NULL, alice_fpr, FALSE);
  gpg_encrypt ("mine.asc", TRUE, NULL, alice_fpr, FALSE);
  gpg_encrypt ("hidden.gpg", FALSE, NULL, alice_fpr, TRUE);
  gpg_encrypt ("bobs.gpg", FALSE, NULL, bob_fpr, FALSE);
  gpg_encrypt ("both.gpg", FALSE, PASSPHRASE, alice_fpr, FALSE);
  gpg_encrypt ("both.asc", TRUE, PASSPHRASE, alice_fpr, FALSE);
  gpg_encrypt ("hidden-pw.gpg", FALSE, PASSPHRASE, alice_fpr, TRUE);
  gpg_encrypt ("bobpw.gpg", FALSE, PASSPHRASE, bob_fpr, FALSE);
  gpg_encrypt_many ("many.gpg");
  {
    char *text = tg_clearsign (home, alice_fpr, "signed\n", NULL, NULL);

    signed_text = g_bytes_new_take (text, strlen (text));
    write_file ("signed.txt", signed_text);
  }
  {
    g_autoptr(GBytes) data = g_bytes_new_static ("signed data\n", 12);

    write_file ("data.bin", data);
    gpg_sign ("data.bin.sig", data, "--detach-sign", FALSE);
    gpg_sign ("data.bin.asc", data, "--detach-sign", TRUE);
    gpg_sign ("data.bin.sign", data, "--detach-sign", FALSE);
    gpg_sign ("a-signature", data, "--detach-sign", FALSE);
    gpg_sign ("inline.gpg", data, "-s", FALSE);
    gpg_sign ("inline.asc", data, "-s", TRUE);
    gpg_sign ("inline-named", data, "-s", FALSE);
  }
  make_lists ();
  g_assert_cmpint (tg_gpg (home, NULL, NULL, &armored_key, "--armor",
                           "--export", alice_fpr, NULL), ==, 0);
  write_file ("alice.asc", armored_key);
  g_assert_cmpint (tg_gpg (home, NULL, NULL, &key, "--export", alice_fpr,
                           NULL), ==, 0);
  write_file ("alice.key", key);

  mine = held_keys_of (home);
  g_assert_cmpuint (padlock_held_keys_get_n_keys (mine), ==, 1);
  /* Certificates only: Alice's, in a home of its own. */
  empty_home = tg_home_new ();
  tg_import_cert (empty_home, home, alice_fpr);
  none = held_keys_of (empty_home);
  g_assert_cmpuint (padlock_held_keys_get_n_keys (none), ==, 0);
  tg_home_free (empty_home);
}

/* NAME's octets, written whole into a pipe whose writer then left,
 * opened as /dev/fd/N and its first octets read: a stream, as --batch
 * takes one. */
static PadlockInput *
open_pipe (const char *name)
{
  g_autofree char *path = g_build_filename (dir, name, NULL);
  g_autofree char *octets = NULL;
  g_autofree char *fd_path = NULL;
  g_autoptr(GFile) file = NULL;
  g_autoptr(GAsyncResult) result = NULL;
  g_autoptr(GError) error = NULL;
  PadlockInput *input;
  gsize len = 0;
  int fds[2];

  g_assert_true (g_file_get_contents (path, &octets, &len, NULL));
  g_assert_cmpint (pipe (fds), ==, 0);
  /* Smaller than a pipe's buffer: no reader needed yet. */
  g_assert_cmpuint (len, <, 65536);
  g_assert_cmpint (write (fds[1], octets, len), ==, (gssize) len);
  close (fds[1]);
  fd_path = g_strdup_printf ("/dev/fd/%d", fds[0]);
  file = g_file_new_for_path (fd_path);
  input = padlock_input_open (file, &error);
  g_assert_no_error (error);
  close (fds[0]);               /* the input opened the pipe again */
  g_assert_true (padlock_input_is_stream (input));
  g_assert_false (padlock_input_is_sniffed (input));
  padlock_input_read_prefix_async (input, NULL, at_on_result, &result);
  g_assert_true (at_wait_until (at_has_result, &result, WAIT_MS));
  g_assert_true (padlock_input_read_prefix_finish (input, result, &error));
  g_assert_no_error (error);
  return input;
}

/* C's input, opened and sniffed as the window and --batch do. */
static PadlockInput *
open_input (const Case *c)
{
  g_autofree char *path = NULL;
  g_autoptr(GFile) file = NULL;
  g_autoptr(GError) error = NULL;
  PadlockInput *input;

  if (c->input[0] == '|')
    return open_pipe (c->input + 1);
  path = g_build_filename (dir, c->input, NULL);
  file = g_file_new_for_path (path);
  input = padlock_input_open (file, &error);
  g_assert_no_error (error);
  g_assert_true (padlock_input_is_sniffed (input));
  return input;
}

typedef struct
{
  const Case *cases;
  guint n;
} Table;

static void
check_cases (gconstpointer data)
{
  const Table *table = data;
  static const char *const keys[] = { "pending", "no keyring", "mine",
                                      "none mine" };
  static const char *const asks[] = { "nothing", "encrypt", "decrypt" };
  guint failed = 0;

  for (guint i = 0; i < table->n; i++)
    {
      const Case *c = &table->cases[i];
      g_autoptr(PadlockInput) input = open_input (c);

      for (guint k = 0; k < N_KEYS; k++)
        {
          PadlockHeldKeys *held = k == MINE ? mine : k == NONE_MINE ? none
                                  : NULL;
          PadlockPlanFlags flags = c->flags
                                   | (k == PENDING ? PADLOCK_PLAN_KEYS_PENDING : 0);
          PadlockPlan got = padlock_plan_decide (input, c->ask, held, flags);

          g_test_message ("%s, asked %s%s, keys %s: %s", c->input, asks[c->ask],
                          c->flags ? " (imports)" : "", keys[k],
                          padlock_plan_to_string (got));
          if (got != c->want[k])
            {
              g_test_message ("  wanted %s", padlock_plan_to_string (c->want[k]));
              failed++;
            }
        }
    }
  g_assert_cmpuint (failed, ==, 0);
}

/* Preconditions of the table, so that it tests what it says: the
 * messages hold the key packets their names say, as sniffed. */
static void
test_inputs_are_what_they_say (void)
{
  static const struct { const char *name; pl_sniff_kind kind; int armored;
                        int pkesk, skesk; size_t left_out; } want[] = {
    { "pw.gpg", PL_SNIFF_MESSAGE, 0, 0, 1, 0 },
    { "pw.asc", PL_SNIFF_MESSAGE, 1, 0, 1, 0 },
    { "mine.gpg", PL_SNIFF_MESSAGE, 0, 1, 0, 0 },
    { "mine.asc", PL_SNIFF_MESSAGE, 1, 1, 0, 0 },
    { "hidden.gpg", PL_SNIFF_MESSAGE, 0, 1, 0, 0 },
    { "both.asc", PL_SNIFF_MESSAGE, 1, 1, 1, 0 },
    { "bobpw.gpg", PL_SNIFF_MESSAGE, 0, 1, 1, 0 },
    { "many.gpg", PL_SNIFF_MESSAGE, 0, 1, 1, 1 },
    { "signed.txt", PL_SNIFF_CLEARSIGNED, 1, 0, 0, 0 },
    { "alice.asc", PL_SNIFF_PUBLIC_KEY, 1, 0, 0, 0 },
    { "alice.key", PL_SNIFF_PUBLIC_KEY, 0, 0, 0, 0 },
    { "random.gpg", PL_SNIFF_NOT_OPENPGP, 0, 0, 0, 0 },
    { "data.bin.sig", PL_SNIFF_SIGNATURE, 0, 0, 0, 0 },
    { "data.bin.asc", PL_SNIFF_SIGNATURE, 1, 0, 0, 0 },
    { "inline.gpg", PL_SNIFF_MESSAGE, 0, 0, 0, 0 },
    { "inline.asc", PL_SNIFF_MESSAGE, 1, 0, 0, 0 },
    { "SHA512SUMS", PL_SNIFF_CLEARSIGNED, 1, 0, 0, 0 },
    { "SHA256SUMS.gpg", PL_SNIFF_SIGNATURE, 0, 0, 0, 0 },
    { "SHA256SUMS", PL_SNIFF_NOT_OPENPGP, 0, 0, 0, 0 },
  };

  for (guint i = 0; i < G_N_ELEMENTS (want); i++)
    {
      Case c = { want[i].name };
      g_autoptr(PadlockInput) input = open_input (&c);
      const pl_sniff_result *s = padlock_input_get_sniff (input);
      int pkesk, skesk;

      g_test_message ("%s", want[i].name);
      g_assert_cmpint (s->kind, ==, want[i].kind);
      g_assert_cmpint (s->armored, ==, want[i].armored);
      pl_sniff_key_kinds (s, &pkesk, &skesk);
      g_assert_cmpint (pkesk, ==, want[i].pkesk);
      g_assert_cmpint (skesk, ==, want[i].skesk);
      g_assert_cmpuint (s->key_packets_left_out, ==, want[i].left_out);
    }
  /* What the content of each list says (the plan adds the name). */
  {
    static const struct { const char *name; gboolean list; } lists[] = {
      { "SHA256SUMS", TRUE }, { "sha256sum.txt", TRUE },
      { "listing.txt", TRUE }, { "Fedora-38-CHECKSUM", TRUE },
      { "big-SHA256SUMS", TRUE }, { "SHA1SUMS", FALSE },
      { "SHA512SUMS", FALSE }, { "SHA256SUMS.gpg", FALSE },
      { "notes.txt", FALSE }, { "folder", FALSE }, { "|SHA256SUMS", FALSE },
    };

    for (guint i = 0; i < G_N_ELEMENTS (lists); i++)
      {
        Case c = { lists[i].name };
        g_autoptr(PadlockInput) input = open_input (&c);

        g_test_message ("%s: checksum text?", lists[i].name);
        g_assert_cmpint (padlock_input_is_checksum_text (input), ==,
                         lists[i].list);
      }
  }
  /* Alice's PKESK is among the eight kept. */
  {
    Case c = { "many.gpg" };
    g_autoptr(PadlockInput) input = open_input (&c);

    g_assert_true (padlock_held_keys_may_open (mine,
                                               padlock_input_get_sniff (input)));
  }
}

/* A signature's data file, by the signature's name. */
static void
test_signed_file (void)
{
  static const struct { const char *sig, *data; } cases[] = {
    { "/x/iso.img.sig", "/x/iso.img" },
    { "/x/iso.img.ASC", "/x/iso.img" },
    { "/x/iso.img.sign", "/x/iso.img" },
    { "/x/iso.img.gpg", "/x/iso.img" },
    { "/x/iso.img", NULL },
    { "/x/.sig", NULL },
    { "/x/a.sig.txt", NULL },
  };

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_autoptr(GFile) sig = g_file_new_for_path (cases[i].sig);
      g_autoptr(GFile) data = padlock_plan_signed_file (sig);
      g_autofree char *path = data ? g_file_get_path (data) : NULL;

      g_test_message ("%s", cases[i].sig);
      g_assert_cmpstr (path, ==, cases[i].data);
    }
}

/* Inputs given together: each signature with the data file its name
 * names (two signatures of one file both), the data file then jobless;
 * a signature whose file was not given, and the rest, on their own. */
static void
test_pair (void)
{
  static const char *const names[] = { "data.bin.sig", "notes.txt",
                                       "data.bin", "data.bin.asc",
                                       "a-signature", "folder",
                                       "inline.gpg" };
  const int want[] = { 2, PADLOCK_PLAN_UNPAIRED, PADLOCK_PLAN_SIGNED_DATA, 2,
                       PADLOCK_PLAN_UNPAIRED, PADLOCK_PLAN_UNPAIRED,
                       PADLOCK_PLAN_UNPAIRED };
  PadlockInput *inputs[G_N_ELEMENTS (names)];
  int pairs[G_N_ELEMENTS (names)];

  for (guint i = 0; i < G_N_ELEMENTS (names); i++)
    {
      Case c = { names[i] };

      inputs[i] = open_input (&c);
    }
  padlock_plan_pair (inputs, G_N_ELEMENTS (names), PADLOCK_PLAN_ASK_NOTHING,
                     pairs);
  for (guint i = 0; i < G_N_ELEMENTS (names); i++)
    {
      g_test_message ("%s: %d", names[i], pairs[i]);
      g_assert_cmpint (pairs[i], ==, want[i]);
    }
  /* The signature alone: its job reads the file beside it. */
  padlock_plan_pair (inputs, 1, PADLOCK_PLAN_ASK_NOTHING, pairs);
  g_assert_cmpint (pairs[0], ==, PADLOCK_PLAN_UNPAIRED);
  /* Asked to decrypt: paired as above; asked to encrypt: none is. */
  padlock_plan_pair (inputs, G_N_ELEMENTS (names), PADLOCK_PLAN_ASK_DECRYPT,
                     pairs);
  g_assert_cmpint (pairs[0], ==, 2);
  g_assert_cmpint (pairs[2], ==, PADLOCK_PLAN_SIGNED_DATA);
  padlock_plan_pair (inputs, G_N_ELEMENTS (names), PADLOCK_PLAN_ASK_ENCRYPT,
                     pairs);
  for (guint i = 0; i < G_N_ELEMENTS (names); i++)
    g_assert_cmpint (pairs[i], ==, PADLOCK_PLAN_UNPAIRED);
  for (guint i = 0; i < G_N_ELEMENTS (names); i++)
    padlock_input_unref (inputs[i]);
}

/* A checksum list given with its signature: one job, the signature's,
 * a list's (CHECK_LIST) that is given the list; the list then jobless.
 * Given alone, each is a list's job too (its job finds the other beside
 * it); an unsigned list and a cleartext-signed one are on their own. */
static void
test_pair_lists (void)
{
  static const char *const names[] = { "SHA256SUMS", "sha256sum.txt",
                                       "SHA256SUMS.gpg", "SHA512SUMS",
                                       "data.bin.sig" };
  const int want[] = { PADLOCK_PLAN_SIGNED_DATA, PADLOCK_PLAN_UNPAIRED, 0,
                       PADLOCK_PLAN_UNPAIRED, PADLOCK_PLAN_UNPAIRED };
  const PadlockPlan plans[] = { LIST, LIST, LIST, LIST, DETACHED };
  PadlockInput *inputs[G_N_ELEMENTS (names)];
  int pairs[G_N_ELEMENTS (names)];

  for (guint i = 0; i < G_N_ELEMENTS (names); i++)
    {
      Case c = { names[i] };

      inputs[i] = open_input (&c);
    }
  padlock_plan_pair (inputs, G_N_ELEMENTS (names), PADLOCK_PLAN_ASK_NOTHING,
                     pairs);
  for (guint i = 0; i < G_N_ELEMENTS (names); i++)
    {
      PadlockPlan plan = padlock_plan_decide (inputs[i],
                                              PADLOCK_PLAN_ASK_NOTHING, NULL,
                                              0);

      g_test_message ("%s: %d, %s", names[i], pairs[i],
                      padlock_plan_to_string (plan));
      g_assert_cmpint (pairs[i], ==, want[i]);
      g_assert_cmpint (plan, ==, plans[i]);
    }
  /* The signature alone, and the list alone: each unpaired. */
  padlock_plan_pair (inputs + 2, 1, PADLOCK_PLAN_ASK_NOTHING, pairs);
  g_assert_cmpint (pairs[0], ==, PADLOCK_PLAN_UNPAIRED);
  padlock_plan_pair (inputs, 1, PADLOCK_PLAN_ASK_NOTHING, pairs);
  g_assert_cmpint (pairs[0], ==, PADLOCK_PLAN_UNPAIRED);
  for (guint i = 0; i < G_N_ELEMENTS (names); i++)
    padlock_input_unref (inputs[i]);
}

/* Where the window and --batch disagreed: nine PKESKs, Alice's among
 * those the sniffer keeps.  `padlock --batch --decrypt` now follows the
 * plan (DECRYPT_KEYS_OR_PASSPHRASE) as the window did: Alice's key opens
 * it without --passphrase-file, where --batch stopped with a usage error
 * (exit 2) asking for one. */
static void
test_batch_many_recipients (void)
{
  g_autofree char *out_dir = tu_new_dir ("plan-batch");
  g_autofree char *many = g_build_filename (dir, "many.gpg", NULL);
  const char *args[] = { "--decrypt", "--output-dir", out_dir, many, NULL };
  g_autofree char *out = NULL;
  g_autofree char *err = NULL;

  g_assert_cmpint (at_run_batch (home->dir, args, &out, &err), ==, 0);
  g_test_message ("%s%s", out, err);
  g_assert_true (g_str_has_prefix (out, "decrypted many.gpg -> "));
  g_assert_cmpstr (err, ==, "");
}

int
main (int argc, char **argv)
{
  static const Table tables[] = {
    { by_content, G_N_ELEMENTS (by_content) },
    { to_encrypt, G_N_ELEMENTS (to_encrypt) },
    { to_decrypt, G_N_ELEMENTS (to_decrypt) },
  };
  int status;

  tu_init (&argc, &argv);
  g_test_add_func ("/plan/inputs", test_inputs_are_what_they_say);
  g_test_add_data_func ("/plan/by-content", &tables[0], check_cases);
  g_test_add_data_func ("/plan/encrypt", &tables[1], check_cases);
  g_test_add_data_func ("/plan/decrypt", &tables[2], check_cases);
  g_test_add_func ("/plan/batch-many-recipients", test_batch_many_recipients);
  g_test_add_func ("/plan/signed-file", test_signed_file);
  g_test_add_func ("/plan/pair", test_pair);
  g_test_add_func ("/plan/pair-lists", test_pair_lists);
  make_inputs ();
  status = g_test_run ();
  g_clear_pointer (&mine, padlock_held_keys_unref);
  g_clear_pointer (&none, padlock_held_keys_unref);
  g_clear_pointer (&home, tg_home_free);
  g_clear_pointer (&others_home, tg_home_free);
  return status;
}
