/* gpg-keys.c - keys made by the real gpg in the tests' GnuPG home */
#include "gpg-keys.h"
#include "testutil.h"

#include <string.h>

tk_gpg_key tk_keys[TK_N_KEYS] = {
  { "rsa3072", "rsa3072", "rsa3072", NULL, NULL, NULL },
  { "cv25519", "ed25519", "cv25519", NULL, NULL, NULL },
  { "nistp256", "nistp256", "nistp256", NULL, NULL, NULL },
  { "nistp384", "nistp384", "nistp384", NULL, NULL, NULL },
  { "nistp521", "nistp521", "nistp521", NULL, NULL, NULL },
  { "brainpoolP256r1", "brainpoolP256r1", "brainpoolP256r1", NULL, NULL,
    NULL },
  { "brainpoolP512r1", "brainpoolP512r1", "brainpoolP512r1", NULL, NULL,
    NULL },
};

char **
tk_gpg_fingerprints (const char *what)
{
  const char *args[] = { "--with-colons", "--list-keys", what, NULL };
  GBytes *out = NULL;
  GPtrArray *fprs = g_ptr_array_new ();
  char **lines;

  g_assert_cmpint (tu_run_gpg (NULL, args, NULL, &out, NULL), ==, 0);
  lines = g_strsplit (g_bytes_get_data (out, NULL), "\n", -1);
  for (char **l = lines; *l; l++)
    if (g_str_has_prefix (*l, "fpr:"))
      {
        char **f = g_strsplit (*l, ":", -1);
        g_ptr_array_add (fprs, g_strdup (f[9]));
        g_strfreev (f);
      }
  g_ptr_array_add (fprs, NULL);
  g_strfreev (lines);
  g_bytes_unref (out);
  return (char **) g_ptr_array_free (fprs, FALSE);
}

tk_gpg_key *
tk_ensure_key (tk_gpg_key *key)
{
  g_autofree char *uid = NULL;
  const char *pw = key->passphrase ? key->passphrase : "";
  char **fprs;

  if (key->fpr)
    return key;
  uid = g_strdup_printf ("pk-%s <%s@example.org>", key->name, key->name);
  {
    const char *gen[] = { "--passphrase", pw, "--quick-gen-key", uid,
                          key->primary_algo, "sign,cert", "never", NULL };
    g_assert_cmpint (tu_run_gpg (NULL, gen, NULL, NULL, NULL), ==, 0);
  }
  fprs = tk_gpg_fingerprints (uid);
  key->fpr = g_strdup (fprs[0]);
  g_strfreev (fprs);
  {
    const char *add[] = { "--passphrase", pw, "--quick-add-key", key->fpr,
                          key->sub_algo, "encr", "never", NULL };
    g_assert_cmpint (tu_run_gpg (NULL, add, NULL, NULL, NULL), ==, 0);
  }
  fprs = tk_gpg_fingerprints (key->fpr);
  g_assert_nonnull (fprs[1]);
  key->sub_fpr = g_strdup (fprs[1]);
  g_strfreev (fprs);
  return key;
}

GBytes *
tk_gpg_export (const char *what, int armor)
{
  const char *args[] = { armor ? "--armor" : "--export",
                         armor ? "--export" : what, armor ? what : NULL,
                         NULL };
  GBytes *out = NULL;

  g_assert_cmpint (tu_run_gpg (NULL, args, NULL, &out, NULL), ==, 0);
  g_assert_cmpuint (g_bytes_get_size (out), >, 0);
  return out;
}

GBytes *
tk_gpg_export_secret (const char *what, const char *passphrase)
{
  const char *args[] = { "--passphrase", passphrase ? passphrase : "",
                         "--export-secret-keys", what, NULL };
  GBytes *out = NULL;

  g_assert_cmpint (tu_run_gpg (NULL, args, NULL, &out, NULL), ==, 0);
  g_assert_cmpuint (g_bytes_get_size (out), >, 0);
  return out;
}
