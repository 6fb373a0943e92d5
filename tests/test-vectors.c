/* test-vectors.c - every case of tests/data/vectors/MANIFEST.tsv, through
 * padlock-sop as a user would run it, and through the engine for the kind
 * of failure */
#include "testutil.h"
#include "errors.h"

#include <string.h>

typedef struct
{
  char *file;
  char *pwfile;
  char *expect;
  char *what;
} vector;

static void
vector_free (gpointer p)
{
  vector *v = p;
  g_free (v->file);
  g_free (v->pwfile);
  g_free (v->expect);
  g_free (v->what);
  g_free (v);
}

static pl_outcome
outcome_for_kind (const char *kind)
{
  if (!strcmp (kind, "integrity"))
    return PL_OUTCOME_INTEGRITY;
  if (!strcmp (kind, "passphrase"))
    return PL_OUTCOME_BAD_PASSPHRASE;
  if (!strcmp (kind, "malformed"))
    return PL_OUTCOME_MALFORMED;
  if (!strcmp (kind, "unprotected"))
    return PL_OUTCOME_UNPROTECTED;
  g_assert_not_reached ();
}

static void
check_vector (gconstpointer p)
{
  const vector *v = p;
  const char *dir = tu_vectors_dir ();
  char *path = g_build_filename (dir, v->file, NULL);
  char *pwpath = g_build_filename (dir, v->pwfile, NULL);
  char *pwarg = g_strdup_printf ("--with-password=%s", pwpath);
  const char *argv[] = { tu_sop_path (), "decrypt", pwarg, NULL };
  char *data, *pw, *err_text;
  gsize len, pwlen;
  GBytes *in, *out, *engine_out;
  int status;
  gpg_error_t err;

  g_test_message ("%s: %s", v->file, v->what);
  g_assert_true (g_file_get_contents (path, &data, &len, NULL));
  g_assert_true (g_file_get_contents (pwpath, &pw, &pwlen, NULL));
  in = g_bytes_new_take (data, len);
  g_assert_true (tu_run (argv, in, &out, &err_text, &status));
  err = tu_decrypt (pw, data, len, &engine_out, NULL);

  if (g_str_has_prefix (v->expect, "fail:"))
    {
      pl_outcome want = outcome_for_kind (v->expect + 5);
      g_test_message ("padlock-sop said: %s", err_text);
      g_assert_cmpint (status, !=, 0);
      g_assert_cmpuint (g_bytes_get_size (out), ==, 0);
      g_assert_cmpuint (g_bytes_get_size (engine_out), ==, 0);
      g_assert_cmpint (pl_error_outcome (err), ==, want);
      /* SOP's codes: 29 cannot decrypt, 41 bad data. */
      g_assert_cmpint (status, ==, want == PL_OUTCOME_MALFORMED ? 41 : 29);
    }
  else
    {
      char *sum;
      if (status)
        g_test_message ("padlock-sop said: %s", err_text);
      g_assert_cmpint (status, ==, 0);
      sum = tu_sha256_hex (g_bytes_get_data (out, NULL),
                           g_bytes_get_size (out));
      g_assert_cmpstr (sum, ==, v->expect);
      g_free (sum);
      g_assert_cmpuint (err, ==, 0);
      g_assert_true (g_bytes_equal (out, engine_out));
    }
  g_bytes_unref (engine_out);
  g_bytes_unref (out);
  g_bytes_unref (in);
  g_free (err_text);
  g_free (pw);
  g_free (pwarg);
  g_free (pwpath);
  g_free (path);
}

/* Every message in the folder has its line in the manifest (a vector
 * added without one would never run), and the manifest is all there. */
static void
test_manifest_complete (gconstpointer p)
{
  const GPtrArray *vectors = p;
  GDir *d = g_dir_open (tu_vectors_dir (), 0, NULL);
  const char *name;
  guint messages = 0;

  g_assert_nonnull (d);
  while ((name = g_dir_read_name (d)))
    {
      gboolean listed = FALSE;

      if (!g_str_has_suffix (name, ".pgp") && !g_str_has_suffix (name, ".asc"))
        continue;
      messages++;
      for (guint i = 0; i < vectors->len && !listed; i++)
        listed = !strcmp (((const vector *) vectors->pdata[i])->file, name);
      if (!listed)
        g_test_message ("%s has no line in MANIFEST.tsv", name);
      g_assert_true (listed);
    }
  g_dir_close (d);
  g_assert_cmpuint (messages, ==, vectors->len);
  /* The corpus as copied in (tests/data/SOURCES.md): 28 messages. */
  g_assert_cmpuint (vectors->len, ==, 28);
}

int
main (int argc, char **argv)
{
  const char *dir;
  char *manifest, *contents;
  char **lines;
  GPtrArray *vectors = g_ptr_array_new_with_free_func (vector_free);
  int ret;

  tu_init (&argc, &argv);
  dir = tu_vectors_dir ();
  manifest = g_build_filename (dir, "MANIFEST.tsv", NULL);
  g_assert_true (g_file_get_contents (manifest, &contents, NULL, NULL));
  lines = g_strsplit (contents, "\n", -1);
  for (char **l = lines; *l; l++)
    {
      char **f;
      vector *v;
      char *name;

      if (!**l || **l == '#')
        continue;
      f = g_strsplit (*l, "\t", 4);
      g_assert_cmpuint (g_strv_length (f), >=, 3);
      v = g_new0 (vector, 1);
      v->file = g_strdup (f[0]);
      v->pwfile = g_strdup (f[1]);
      v->expect = g_strdup (f[2]);
      v->what = g_strdup (f[3] ? f[3] : "");
      g_ptr_array_add (vectors, v);
      name = g_strdup_printf ("/vectors/%s", v->file);
      g_test_add_data_func (name, v, check_vector);
      g_free (name);
      g_strfreev (f);
    }
  g_strfreev (lines);
  g_free (contents);
  g_free (manifest);
  g_test_add_data_func ("/vectors/manifest-complete", vectors,
                        test_manifest_complete);
  ret = g_test_run ();
  g_ptr_array_unref (vectors);
  return ret;
}
