/* padlock-certify.c - verifying a person's key with a local certification */
#include "padlock-certify.h"

#include <glib/gi18n.h>
#include <string.h>

#include "padlock-error.h"
#include "padlock-gpgme-run.h"
#include "padlock-keyring-private.h"

typedef struct
{
  char *home_dir;
  char *fingerprint;
  char *signer;         /* certify: NULL for gpg's choice */
} Request;

static void
request_free (gpointer data)
{
  Request *request = data;

  g_free (request->home_dir);
  g_free (request->fingerprint);
  g_free (request->signer);
  g_free (request);
}

static GTask *
new_request_task (PadlockKeyring *keyring, const char *fingerprint,
                  const char *signer, GCancellable *cancellable,
                  GAsyncReadyCallback callback, gpointer user_data,
                  gpointer source_tag)
{
  GTask *task = g_task_new (keyring, cancellable, callback, user_data);
  Request *request = g_new0 (Request, 1);

  g_task_set_source_tag (task, source_tag);
  /* The thread says what happened, as PADLOCK_ERROR_CANCELLED when gpg
   * was stopped, and success when it was done before the cancel. */
  g_task_set_check_cancellable (task, FALSE);
  request->home_dir = g_strdup (padlock_keyring_get_home_dir (keyring));
  request->fingerprint = g_strdup (fingerprint);
  request->signer = g_strdup (signer);
  g_task_set_task_data (task, request, request_free);
  return task;
}

/* Adds to KEY_IDS (a set of 16-digit key IDs) KEY's subkeys that may
 * certify: those whose certifications are the user's; with NOW, only
 * those that may certify now (not expired, revoked…). */
static void
add_certify_ids (GHashTable *key_ids, gpgme_key_t key, gboolean now)
{
  if (now && (key->revoked || key->expired || key->disabled || key->invalid))
    return;
  for (gpgme_subkey_t sub = key->subkeys; sub; sub = sub->next)
    if (sub->can_certify && sub->keyid
        && (!now || (!sub->revoked && !sub->expired && !sub->invalid)))
      g_hash_table_add (key_ids, g_ascii_strup (sub->keyid, -1));
}

/* The key IDs of every secret key of CTX's keyring that can certify
 * (NOW: as add_certify_ids). */
static GError *
list_my_certify_ids (gpgme_ctx_t ctx, gboolean now, GHashTable *key_ids)
{
  gpgme_error_t err;
  gpgme_key_t key;

  err = gpgme_op_keylist_start (ctx, NULL, 1);
  while (!err && !(err = gpgme_op_keylist_next (ctx, &key)))
    {
      add_certify_ids (key_ids, key, now);
      gpgme_key_unref (key);
    }
  gpgme_op_keylist_end (ctx);
  if (gpg_err_code (err) == GPG_ERR_EOF)
    err = 0;
  return err ? padlock_error_from_gpg (err) : NULL;
}

/* Certify */

/* Whether some user ID of KEY (listed with GPGME_KEYLIST_MODE_SIGS) that
 * is not revoked carries a certification by one of KEY_IDS. */
static gboolean
is_certified_by (gpgme_key_t key, GHashTable *key_ids)
{
  for (gpgme_user_id_t uid = key->uids; uid; uid = uid->next)
    {
      if (uid->revoked || uid->invalid)
        continue;
      for (gpgme_key_sig_t sig = uid->signatures; sig; sig = sig->next)
        if (sig->keyid && (sig->sig_class & ~3u) == 0x10 && !sig->revoked
            && !sig->expired && g_hash_table_contains (key_ids, sig->keyid))
          return TRUE;
    }
  return FALSE;
}

/* The key to certify with, as a signer of CTX, and its key IDs in
 * KEY_IDS; with SIGNER NULL, gpg chooses among all the user's. */
static GError *
choose_signer (gpgme_ctx_t ctx, const char *signer, GHashTable *key_ids)
{
  gpgme_key_t key = NULL;
  GError *error;

  if (!signer)
    {
      error = list_my_certify_ids (ctx, TRUE, key_ids);
      if (!error && g_hash_table_size (key_ids) == 0)
        error = g_error_new_literal (PADLOCK_ERROR, PADLOCK_ERROR_PUBLIC_KEY,
                                     _("You have no key of your own to "
                                       "verify keys with"));
      return error;
    }
  /* Not a secret key of the user's (or none at all) is said the same. */
  if (!gpgme_get_key (ctx, signer, &key, 1) && key->subkeys)
    add_certify_ids (key_ids, key, TRUE);
  if (g_hash_table_size (key_ids) == 0)
    /* Translators: a fingerprint. */
    error = g_error_new (PADLOCK_ERROR, PADLOCK_ERROR_PUBLIC_KEY,
                         _("%s is not a key of yours that can verify keys"),
                         signer);
  else
    {
      gpgme_error_t err = gpgme_signers_add (ctx, key);

      error = err ? padlock_error_from_gpg (err) : NULL;
    }
  g_clear_pointer (&key, gpgme_key_unref);
  return error;
}

static GError *
refuse_unusable (gpgme_key_t key, const char *fingerprint)
{
  if (key->revoked)
    return g_error_new (PADLOCK_ERROR, PADLOCK_ERROR_PUBLIC_KEY,
                        _("The key %s is revoked"), fingerprint);
  if (key->expired)
    return g_error_new (PADLOCK_ERROR, PADLOCK_ERROR_PUBLIC_KEY,
                        _("The key %s has expired"), fingerprint);
  return NULL;
}

/* gpg --quick-lsign-key FINGERPRINT, with the signer CTX has. */
static GError *
keysign (gpgme_ctx_t ctx, gpgme_key_t key, GCancellable *cancellable)
{
  PadlockGpgmeRun run;
  gpgme_error_t err;

  /* GPGME gives the code of gpg's first ERROR status line (a cancelled
   * pinentry's, /certify/pinentry-cancelled), not its general failure. */
  _padlock_gpgme_run_prepare (&run, ctx);
  err = gpgme_op_keysign_start (ctx, key, NULL, 0, GPGME_KEYSIGN_LOCAL);
  err = _padlock_gpgme_run_finish (&run, err, cancellable);
  if (err && g_cancellable_is_cancelled (cancellable))
    err = gpg_error (GPG_ERR_CANCELED);
  return err ? padlock_error_from_gpg (err) : NULL;
}

static GError *
certify (const Request *request, GCancellable *cancellable)
{
  g_autoptr (GHashTable) key_ids = g_hash_table_new_full (g_str_hash, g_str_equal,
                                                          g_free, NULL);
  gpgme_ctx_t ctx = NULL;
  gpgme_key_t key = NULL;
  gpgme_error_t err;
  GError *error;

  err = _padlock_keyring_new_context (request->home_dir, &ctx);
  if (err)
    return padlock_error_from_gpg (err);
  error = _padlock_keyring_get_key (ctx, request->fingerprint, FALSE, &key);
  if (!error)
    error = refuse_unusable (key, request->fingerprint);
  if (!error)
    error = choose_signer (ctx, request->signer, key_ids);
  if (!error)
    error = keysign (ctx, key, cancellable);
  g_clear_pointer (&key, gpgme_key_unref);
  /* gpg can end without an error and without certifying: checked. */
  if (!error)
    {
      err = gpgme_set_keylist_mode (ctx, GPGME_KEYLIST_MODE_LOCAL
                                         | GPGME_KEYLIST_MODE_SIGS);
      error = err ? padlock_error_from_gpg (err)
                  : _padlock_keyring_get_key (ctx, request->fingerprint, FALSE, &key);
    }
  if (!error && !is_certified_by (key, key_ids))
    /* Translators: a fingerprint. */
    error = g_error_new (PADLOCK_ERROR, PADLOCK_ERROR_OTHER,
                         _("gpg did not certify the key %s"),
                         request->fingerprint);
  g_clear_pointer (&key, gpgme_key_unref);
  gpgme_release (ctx);
  return error;
}

static void
certify_thread (GTask *task, gpointer source, gpointer task_data,
                GCancellable *cancellable)
{
  GError *error = certify (task_data, cancellable);

  if (error)
    g_task_return_error (task, error);
  else
    g_task_return_boolean (task, TRUE);
}

void
padlock_keyring_certify_local_async (PadlockKeyring *self,
                                     const char *fingerprint,
                                     const char *signer,
                                     GCancellable *cancellable,
                                     GAsyncReadyCallback callback,
                                     gpointer user_data)
{
  g_autoptr (GTask) task = NULL;

  g_return_if_fail (PADLOCK_IS_KEYRING (self));
  g_return_if_fail (fingerprint != NULL);

  task = new_request_task (self, fingerprint, signer, cancellable, callback,
                           user_data, padlock_keyring_certify_local_async);
  g_task_run_in_thread (task, certify_thread);
}

gboolean
padlock_keyring_certify_local_finish (PadlockKeyring *self,
                                      GAsyncResult *result, GError **error)
{
  g_return_val_if_fail (g_task_is_valid (result, self), FALSE);
  g_return_val_if_fail (g_task_get_source_tag (G_TASK (result))
                        == padlock_keyring_certify_local_async, FALSE);

  if (!g_task_propagate_boolean (G_TASK (result), error))
    return FALSE;
  padlock_keyring_reload (self);
  return TRUE;
}

/* Forget */

typedef struct
{
  GHashTable       *mine;        /* key IDs of the user's certifying keys */
  const char       *own_key_id;  /* the edited key's: its self-signatures */
  GDataInputStream *out;         /* gpg's colon lines and status lines */
  GOutputStream    *in;          /* its command fd */
  GCancellable     *cancellable;
  guint             next_command;
  guint             deleted;
  gboolean          last_sig_is_mine; /* the "sig:" line before a prompt */
} Edit;

/* A "sig:" line of --edit-key --with-colons (keyedit.c,
 * print_and_check_one_sig_colon): "sig:RC::ALGO:KEYID:CREATED:EXPIRES:
 * TRUST:REGEXP::CLASS+FLAG", FLAG 'x' exportable, 'l' local. */
static gboolean
is_my_local_certification (Edit *edit, const char *line)
{
  g_auto (GStrv) fields = g_strsplit (line, ":", -1);
  const char *class;
  g_autofree char *key_id = NULL;

  if (g_strv_length (fields) < 11)
    return FALSE;
  class = fields[10];
  key_id = g_ascii_strup (fields[4], -1);
  return g_str_equal (fields[1], "!") && strlen (class) == 3
         && class[0] == '1' && class[1] >= '0' && class[1] <= '3'
         && class[2] == 'l' && g_strcmp0 (key_id, edit->own_key_id) != 0
         && g_hash_table_contains (edit->mine, key_id);
}

static gboolean
send_line (Edit *edit, const char *text, GError **error)
{
  g_autofree char *line = g_strconcat (text, "\n", NULL);

  return g_output_stream_write_all (edit->in, line, strlen (line), NULL,
                                    edit->cancellable, error)
         && g_output_stream_flush (edit->in, edit->cancellable, error);
}

static gboolean
unexpected (const char *prompt, GError **error)
{
  /* Translators: gpg's keyword for its question, "keyedit.prompt". */
  g_set_error (error, PADLOCK_ERROR, PADLOCK_ERROR_OTHER,
               _("gpg asked something unexpected (%s); the key was left "
                 "as it was"), prompt);
  return FALSE;
}

/* Answers one of gpg's GET_ requests, KIND (GET_LINE, GET_BOOL,
 * GET_HIDDEN) about PROMPT (its keyword). */
static gboolean
answer (Edit *edit, const char *kind, const char *prompt, GError **error)
{
  gboolean mine = edit->last_sig_is_mine;
  const char *commands[] = { "uid *", "delsig", NULL };

  edit->last_sig_is_mine = FALSE;
  if (g_str_equal (kind, "GET_LINE") && g_str_equal (prompt, "keyedit.prompt"))
    {
      if (edit->next_command < G_N_ELEMENTS (commands) - 1)
        return send_line (edit, commands[edit->next_command++], error);
      if (edit->next_command++ == G_N_ELEMENTS (commands) - 1)
        return send_line (edit, edit->deleted ? "save" : "quit", error);
      return unexpected (prompt, error);
    }
  if (g_str_equal (kind, "GET_BOOL") && g_str_has_prefix (prompt, "keyedit.delsig."))
    {
      /* Only a good one ("valid"); never a self-signature ("selfsig"). */
      mine = mine && g_str_equal (prompt, "keyedit.delsig.valid");
      edit->deleted += mine;
      return send_line (edit, mine ? "y" : "n", error);
    }
  if (g_str_equal (kind, "GET_BOOL") && g_str_equal (prompt, "keyedit.save.okay"))
    return send_line (edit, edit->deleted ? "y" : "n", error);
  return unexpected (prompt, error);
}

/* Reads gpg's stdout to its end, answering its requests. */
static gboolean
converse (Edit *edit, GError **error)
{
  for (;;)
    {
      g_autofree char *line = NULL;
      GError *read_error = NULL;
      gsize len;

      line = g_data_input_stream_read_line (edit->out, &len, edit->cancellable,
                                            &read_error);
      if (!line)
        {
          if (read_error)
            g_propagate_error (error, read_error);
          return !read_error;
        }
      if (g_str_has_prefix (line, "sig:"))
        edit->last_sig_is_mine = is_my_local_certification (edit, line);
      else if (g_str_has_prefix (line, "[GNUPG:] GET_"))
        {
          g_auto (GStrv) words = g_strsplit (line + 9, " ", 3);

          if (!answer (edit, words[0], words[1] ? words[1] : "", error))
            return FALSE;
        }
    }
}

static GSubprocess *
spawn_edit (const char *home_dir, const char *fingerprint, GError **error)
{
  const char *gpg = gpgme_get_dirinfo ("gpg-name");
  const char *argv[] = {
    gpg ? gpg : "gpg", "--homedir", home_dir, "--batch", "--no-tty",
    "--with-colons", "--status-fd", "1", "--command-fd", "0",
    "--edit-key", fingerprint, NULL,
  };

  return g_subprocess_newv (argv, G_SUBPROCESS_FLAGS_STDIN_PIPE
                            | G_SUBPROCESS_FLAGS_STDOUT_PIPE
                            | G_SUBPROCESS_FLAGS_STDERR_SILENCE, error);
}

static void
stop_gpg (GCancellable *cancellable, gpointer process)
{
  g_subprocess_force_exit (process);
}

/* gpg --edit-key, deleting the local certifications by MINE. */
static GError *
delete_local_certifications (const char *home_dir, const char *fingerprint,
                             const char *own_key_id, GHashTable *mine,
                             GCancellable *cancellable, guint *deleted)
{
  g_autoptr (GSubprocess) process = NULL;
  g_autoptr (GDataInputStream) out = NULL;
  GError *error = NULL;
  Edit edit = { mine, own_key_id, NULL, NULL, cancellable, 0, 0, FALSE };
  gulong handler = 0;
  gboolean ok;

  process = spawn_edit (home_dir, fingerprint, &error);
  if (!process)
    return error;
  out = g_data_input_stream_new (g_subprocess_get_stdout_pipe (process));
  edit.out = out;
  edit.in = g_subprocess_get_stdin_pipe (process);
  if (cancellable)
    handler = g_cancellable_connect (cancellable, G_CALLBACK (stop_gpg),
                                     g_object_ref (process), g_object_unref);
  ok = converse (&edit, &error);
  if (!ok)
    g_subprocess_force_exit (process);
  /* gpg saves on "save" and exits; its status says whether it could. */
  if (!g_subprocess_wait (process, NULL, ok ? &error : NULL) && ok)
    ok = FALSE;
  g_cancellable_disconnect (cancellable, handler);
  if (ok && !g_subprocess_get_successful (process))
    {
      ok = FALSE;
      error = g_error_new (PADLOCK_ERROR, PADLOCK_ERROR_OTHER,
                           _("gpg could not change the key %s"), fingerprint);
    }
  /* Stopped before "save" (or killed while saving, which gpg does by
   * renaming a whole new keyring file into place): nothing changed. */
  if (!ok && g_cancellable_is_cancelled (cancellable))
    {
      g_clear_error (&error);
      error = padlock_error_from_gpg (gpg_error (GPG_ERR_CANCELED));
    }
  else if (error && error->domain != PADLOCK_ERROR)
    {
      /* Translators: a fingerprint, then why. */
      GError *ours = g_error_new (PADLOCK_ERROR, PADLOCK_ERROR_OTHER,
                                  _("gpg could not change the key %s: %s"),
                                  fingerprint, error->message);

      g_error_free (error);
      error = ours;
    }
  *deleted = ok ? edit.deleted : 0;
  return error;
}

static void
forget_thread (GTask *task, gpointer source, gpointer task_data,
               GCancellable *cancellable)
{
  Request *request = task_data;
  g_autoptr (GHashTable) mine = g_hash_table_new_full (g_str_hash, g_str_equal,
                                                       g_free, NULL);
  g_autofree char *own_key_id = NULL;
  gpgme_ctx_t ctx = NULL;
  gpgme_key_t key = NULL;
  gpgme_error_t err;
  GError *error;
  guint deleted = 0;

  err = _padlock_keyring_new_context (request->home_dir, &ctx);
  error = err ? padlock_error_from_gpg (err)
              : _padlock_keyring_get_key (ctx, request->fingerprint, FALSE, &key);
  if (!error)
    {
      own_key_id = g_ascii_strup (key->subkeys->keyid, -1);
      /* An expired key's certifications are the user's as well. */
      error = list_my_certify_ids (ctx, FALSE, mine);
    }
  g_clear_pointer (&key, gpgme_key_unref);
  g_clear_pointer (&ctx, gpgme_release);
  if (!error)
    error = delete_local_certifications (request->home_dir, request->fingerprint,
                                         own_key_id, mine, cancellable,
                                         &deleted);
  if (error)
    g_task_return_error (task, error);
  else
    g_task_return_int (task, deleted);
}

void
padlock_keyring_forget_local_async (PadlockKeyring *self,
                                    const char *fingerprint,
                                    GCancellable *cancellable,
                                    GAsyncReadyCallback callback,
                                    gpointer user_data)
{
  g_autoptr (GTask) task = NULL;

  g_return_if_fail (PADLOCK_IS_KEYRING (self));
  g_return_if_fail (fingerprint != NULL);

  task = new_request_task (self, fingerprint, NULL, cancellable, callback,
                           user_data, padlock_keyring_forget_local_async);
  g_task_run_in_thread (task, forget_thread);
}

gboolean
padlock_keyring_forget_local_finish (PadlockKeyring *self, GAsyncResult *result,
                                     guint *n_deleted, GError **error)
{
  gssize deleted;

  g_return_val_if_fail (g_task_is_valid (result, self), FALSE);
  g_return_val_if_fail (g_task_get_source_tag (G_TASK (result))
                        == padlock_keyring_forget_local_async, FALSE);

  deleted = g_task_propagate_int (G_TASK (result), error);
  if (deleted < 0)
    return FALSE;
  if (n_deleted)
    *n_deleted = (guint) deleted;
  if (deleted > 0)
    padlock_keyring_reload (self);
  return TRUE;
}
