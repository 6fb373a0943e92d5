/* test-errors.c - the one table from gpg_error_t to outcomes and words
 * (core/errors.h): every code the engine gives a user has a sentence of
 * Padlock's own, each PL_ERR_* the outcome its comment names, and the
 * error's source never changes either */
#include <ctype.h>
#include <errno.h>
#include <string.h>
#include "testutil.h"
#include "errors.h"
#include "passphrase.h"

/* One sentence: a capital first, a full stop last, no line break. */
static void
assert_sentence (const char *s)
{
  gsize n = strlen (s);

  g_assert_cmpuint (n, >, 2);
  g_assert_true (isupper ((unsigned char) s[0]));
  g_assert_cmpint (s[n - 1], ==, '.');
  g_assert_null (strchr (s, '\n'));
}

static gboolean
has_own_message (gpg_err_code_t code)
{
  return strcmp (pl_error_message (gpg_error (code)),
                 gpg_strerror (gpg_error (code))) != 0;
}

/* Each PL_ERR_* and the outcome errors.h gives it. */
static const struct
{
  const char *name;
  gpg_err_code_t code;
  pl_outcome outcome;
} named[] = {
  { "PL_ERR_UNPROTECTED", PL_ERR_UNPROTECTED, PL_OUTCOME_UNPROTECTED },
  { "PL_ERR_INTEGRITY", PL_ERR_INTEGRITY, PL_OUTCOME_INTEGRITY },
  { "PL_ERR_BOMB", PL_ERR_BOMB, PL_OUTCOME_TOO_COSTLY },
  { "PL_ERR_TOO_MANY_KEYS", PL_ERR_TOO_MANY_KEYS, PL_OUTCOME_MALFORMED },
  { "PL_ERR_KEY_PACKET_VERSION", PL_ERR_KEY_PACKET_VERSION,
    PL_OUTCOME_MALFORMED },
  { "PL_ERR_KEY_PROTECTED", PL_ERR_KEY_PROTECTED, PL_OUTCOME_PUBLIC_KEY },
  { "PL_ERR_KEY_TOO_LARGE", PL_ERR_KEY_TOO_LARGE, PL_OUTCOME_TOO_COSTLY },
  { "PL_ERR_CLEARSIGN_TOO_LARGE", PL_ERR_CLEARSIGN_TOO_LARGE,
    PL_OUTCOME_TOO_COSTLY },
  { "PL_ERR_PASSPHRASE_TOO_LONG", PL_ERR_PASSPHRASE_TOO_LONG,
    PL_OUTCOME_BAD_PASSPHRASE },
  { "PL_ERR_PASSPHRASE_BLANK", PL_ERR_PASSPHRASE_BLANK,
    PL_OUTCOME_BAD_PASSPHRASE },
  { "PL_ERR_PASSPHRASE_NOT_TEXT", PL_ERR_PASSPHRASE_NOT_TEXT,
    PL_OUTCOME_BAD_PASSPHRASE },
};

/* Each PL_ERR_* has its outcome and a sentence of its own, which no
 * other PL_ERR_* shares (a user must tell them apart). */
static void
test_named (void)
{
  for (gsize i = 0; i < G_N_ELEMENTS (named); i++)
    {
      const char *msg = pl_error_message (gpg_error (named[i].code));

      g_test_message ("%s: %s", named[i].name, msg);
      g_assert_cmpint (pl_error_outcome (gpg_error (named[i].code)), ==,
                       named[i].outcome);
      g_assert_true (has_own_message (named[i].code));
      assert_sentence (msg);
      for (gsize j = 0; j < i; j++)
        {
          g_assert_cmpint (named[j].code, !=, named[i].code);
          g_assert_cmpstr (pl_error_message (gpg_error (named[j].code)), !=,
                           msg);
        }
    }
}

/* Every code that the table sorts into an outcome a user sees (not OK,
 * not OTHER, not a system error's) has one of Padlock's sentences, not
 * libgpg-error's words; and every outcome is reached by some code. */
static void
test_every_code (void)
{
  gboolean reached[PL_OUTCOME_OTHER + 1] = { FALSE };

  for (int c = 0; c < GPG_ERR_CODE_DIM; c++)
    {
      pl_outcome o = pl_error_outcome (gpg_error ((gpg_err_code_t) c));

      if ((unsigned int) o > PL_OUTCOME_OTHER)
        g_error ("code %d: outcome %d is not a pl_outcome", c, o);
      reached[o] = TRUE;
      if (o == PL_OUTCOME_OK || o == PL_OUTCOME_OTHER || o == PL_OUTCOME_IO)
        continue;
      if (!has_own_message ((gpg_err_code_t) c))
        g_error ("%s (%d) is sorted as outcome %d but has no sentence of "
                 "errors.c", gpg_strerror (gpg_error (c)), c, o);
      assert_sentence (pl_error_message (gpg_error ((gpg_err_code_t) c)));
    }
  for (int o = PL_OUTCOME_OK; o <= PL_OUTCOME_OTHER; o++)
    {
      g_test_message ("outcome %d reached: %d", o, reached[o]);
      g_assert_true (reached[o]);
    }
  g_assert_cmpint (pl_error_outcome (0), ==, PL_OUTCOME_OK);
}

/* The system's errors: input and output, but an existing output is its
 * own outcome; the common ones say what happened in Padlock's words. */
static void
test_system (void)
{
  static const int io[] = { EIO, ENOSPC, EDQUOT, EFBIG, EROFS, ENOENT,
                            EACCES, EPERM, EISDIR };
  static const int worded[] = { EIO, ENOSPC, EDQUOT, EFBIG, ENOENT, EACCES,
                                EPERM, EEXIST };

  for (gsize i = 0; i < G_N_ELEMENTS (io); i++)
    g_assert_cmpint (pl_error_outcome (gpg_error_from_errno (io[i])), ==,
                     PL_OUTCOME_IO);
  g_assert_cmpint (pl_error_outcome (gpg_error_from_errno (EEXIST)), ==,
                   PL_OUTCOME_OUTPUT_EXISTS);
  for (gsize i = 0; i < G_N_ELEMENTS (worded); i++)
    {
      gpg_error_t err = gpg_error_from_errno (worded[i]);

      g_assert_cmpstr (pl_error_message (err), !=, gpg_strerror (err));
      assert_sentence (pl_error_message (err));
    }
}

/* What the table says depends on the code alone, never on the source
 * that a library put in the error. */
static void
test_source_ignored (void)
{
  for (int c = 0; c < GPG_ERR_CODE_DIM; c++)
    {
      gpg_error_t plain = gpg_err_make (GPG_ERR_SOURCE_UNKNOWN, c);
      gpg_error_t other = gpg_err_make (GPG_ERR_SOURCE_GCRYPT, c);

      g_assert_cmpint (pl_error_outcome (plain), ==, pl_error_outcome (other));
      if (has_own_message ((gpg_err_code_t) c))
        g_assert_cmpstr (pl_error_message (plain), ==,
                         pl_error_message (other));
    }
}

int
main (int argc, char **argv)
{
  tu_init (&argc, &argv);
  g_test_add_func ("/errors/named", test_named);
  g_test_add_func ("/errors/every-code", test_every_code);
  g_test_add_func ("/errors/system", test_system);
  g_test_add_func ("/errors/source-ignored", test_source_ignored);
  return g_test_run ();
}
