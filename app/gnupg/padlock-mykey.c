/* padlock-mykey.c - the user's own key: made, shared, backed up, extended */
#include "padlock-mykey.h"

#include <glib/gi18n.h>
#include <string.h>

#include "padlock-error.h"
#include "padlock-gpgme-run.h"
#include "padlock-keyring-private.h"

/* The longest name or email taken. */
#define MAX_PART 256

/* The user ID */

static gboolean
has_control (const char *text)
{
  for (const char *p = text; *p; p = g_utf8_next_char (p))
    {
      gunichar c = g_utf8_get_char (p);

      if (g_unichar_iscntrl (c) || g_unichar_type (c) == G_UNICODE_FORMAT
          || c == 0x2028 || c == 0x2029)
        return TRUE;
    }
  return FALSE;
}

/* local@domain.tld: one '@', something before it, a dot in the domain
 * neither first nor last, no space nor angle bracket. */
static gboolean
is_email_shaped (const char *email)
{
  const char *at = strchr (email, '@');
  const char *dot;

  if (!at || at == email || strchr (at + 1, '@') || strpbrk (email, " <>\t"))
    return FALSE;
  dot = strrchr (at + 1, '.');
  return dot && dot > at + 1 && dot[1] != '\0';
}

static gboolean
check_parts (const char *name, const char *email, GError **error)
{
  const char *why = NULL;

  if (!*name && !*email)
    why = _("Type a name or an email address");
  else if (!g_utf8_validate (name, -1, NULL) || !g_utf8_validate (email, -1, NULL)
           || has_control (name) || has_control (email))
    why = _("The name and the email address may not hold control characters");
  else if (strpbrk (name, "<>"))
    why = _("The name may not hold “<” or “>”");
  else if (strlen (name) > MAX_PART || strlen (email) > MAX_PART)
    why = _("The name or the email address is too long");
  else if (*email && !is_email_shaped (email))
    why = _("The email address should look like name@example.org");
  if (why)
    g_set_error_literal (error, PADLOCK_ERROR, PADLOCK_ERROR_OTHER, why);
  return why == NULL;
}

char *
padlock_my_key_user_id (const char *name, const char *email, GError **error)
{
  g_autofree char *n = g_strstrip (g_strdup (name ? name : ""));
  g_autofree char *e = g_strstrip (g_strdup (email ? email : ""));

  if (!check_parts (n, e, error))
    return NULL;
  /* As gpg makes it from Name-Real and Name-Email. */
  if (!*e)
    return g_steal_pointer (&n);
  if (!*n)
    return g_steal_pointer (&e);
  return g_strdup_printf ("%s <%s>", n, e);
}

/* Running gpg */

static GError *
error_from_gpg (gpgme_error_t err, GCancellable *cancellable)
{
  if (err && g_cancellable_is_cancelled (cancellable))
    err = gpg_error (GPG_ERR_CANCELED);
  return padlock_error_from_gpg (err);
}

typedef struct
{
  char   *home_dir;
  char   *fingerprint;  /* export, extend */
  char   *name;         /* create */
  char   *email;
  gint64  lifetime;
  gboolean secret;      /* export */
} Request;

static void
request_free (gpointer data)
{
  Request *request = data;

  g_free (request->home_dir);
  g_free (request->fingerprint);
  g_free (request->name);
  g_free (request->email);
  g_free (request);
}

static GTask *
new_task (PadlockKeyring *keyring, GCancellable *cancellable,
          GAsyncReadyCallback callback, gpointer user_data,
          gpointer source_tag, Request **request)
{
  GTask *task = g_task_new (keyring, cancellable, callback, user_data);

  g_task_set_source_tag (task, source_tag);
  /* The thread says what happened: cancelled when gpg was stopped,
   * success when it was done before. */
  g_task_set_check_cancellable (task, FALSE);
  *request = g_new0 (Request, 1);
  (*request)->home_dir = g_strdup (padlock_keyring_get_home_dir (keyring));
  g_task_set_task_data (task, *request, request_free);
  return task;
}

/* Create */

void
padlock_my_key_created_free (PadlockMyKeyCreated *created)
{
  if (!created)
    return;
  g_free (created->fingerprint);
  g_free (created->revocation_path);
  g_free (created);
}

/* gpg's batch key parameters (doc/DETAILS, "Unattended key generation");
 * no Passphrase line: the agent's pinentry asks for it. */
static char *
genkey_parameters (const Request *request)
{
  GString *text = g_string_new ("<GnupgKeyParms format=\"internal\">\n"
                                "Key-Type: EDDSA\nKey-Curve: ed25519\n"
                                "Key-Usage: sign\n"
                                "Subkey-Type: ECDH\nSubkey-Curve: cv25519\n"
                                "Subkey-Usage: encrypt\n");

  /* Checked: neither holds a line break. */
  if (*request->name)
    g_string_append_printf (text, "Name-Real: %s\n", request->name);
  if (*request->email)
    g_string_append_printf (text, "Name-Email: %s\n", request->email);
  if (request->lifetime > 0)
    g_string_append_printf (text, "Expire-Date: seconds=%" G_GINT64_FORMAT "\n",
                            request->lifetime);
  else
    g_string_append (text, "Expire-Date: 0\n");
  g_string_append (text, "</GnupgKeyParms>\n");
  return g_string_free (text, FALSE);
}

static GError *
create (const Request *request, GCancellable *cancellable,
        PadlockMyKeyCreated **created)
{
  g_autofree char *parameters = genkey_parameters (request);
  gpgme_ctx_t ctx = NULL;
  gpgme_genkey_result_t result;
  PadlockGpgmeRun run;
  gpgme_error_t err;
  GError *error = NULL;

  err = _padlock_keyring_new_context (request->home_dir, &ctx);
  if (!err)
    {
      _padlock_gpgme_run_prepare (&run, ctx);
      err = gpgme_op_genkey_start (ctx, parameters, NULL, NULL);
      err = _padlock_gpgme_run_finish (&run, err, cancellable);
    }
  if (err)
    error = error_from_gpg (err, cancellable);
  else if (!(result = gpgme_op_genkey_result (ctx)) || !result->primary
           || !result->fpr)
    error = g_error_new_literal (PADLOCK_ERROR, PADLOCK_ERROR_OTHER,
                                 _("gpg made no key"));
  else
    {
      g_autofree char *name = g_strdup_printf ("%s.rev", result->fpr);

      *created = g_new0 (PadlockMyKeyCreated, 1);
      (*created)->fingerprint = g_ascii_strup (result->fpr, -1);
      (*created)->revocation_path = g_build_filename (request->home_dir,
                                                      "openpgp-revocs.d",
                                                      name, NULL);
      if (!g_file_test ((*created)->revocation_path, G_FILE_TEST_IS_REGULAR))
        g_clear_pointer (&(*created)->revocation_path, g_free);
    }
  gpgme_release (ctx);
  return error;
}

static void
create_thread (GTask *task, gpointer source, gpointer task_data,
               GCancellable *cancellable)
{
  PadlockMyKeyCreated *created = NULL;
  GError *error = create (task_data, cancellable, &created);

  if (error)
    g_task_return_error (task, error);
  else
    g_task_return_pointer (task, created,
                           (GDestroyNotify) padlock_my_key_created_free);
}

void
padlock_my_key_create_async (PadlockKeyring *keyring, const char *name,
                             const char *email, gint64 lifetime,
                             GCancellable *cancellable,
                             GAsyncReadyCallback callback, gpointer user_data)
{
  g_autoptr (GTask) task = NULL;
  GError *error = NULL;
  Request *request;

  g_return_if_fail (PADLOCK_IS_KEYRING (keyring));
  g_return_if_fail (lifetime >= 0);

  task = new_task (keyring, cancellable, callback, user_data,
                   padlock_my_key_create_async, &request);
  request->name = g_strstrip (g_strdup (name ? name : ""));
  request->email = g_strstrip (g_strdup (email ? email : ""));
  request->lifetime = lifetime;
  if (!check_parts (request->name, request->email, &error))
    g_task_return_error (task, error);
  else
    g_task_run_in_thread (task, create_thread);
}

PadlockMyKeyCreated *
padlock_my_key_create_finish (PadlockKeyring *keyring, GAsyncResult *result,
                              GError **error)
{
  PadlockMyKeyCreated *created;

  g_return_val_if_fail (g_task_is_valid (result, keyring), NULL);
  g_return_val_if_fail (g_task_get_source_tag (G_TASK (result))
                        == padlock_my_key_create_async, NULL);

  created = g_task_propagate_pointer (G_TASK (result), error);
  if (created)
    padlock_keyring_reload (keyring);
  return created;
}

/* Export */

/* gpg's first "ERROR where code" status line: an export that the agent
 * refused (a cancelled pinentry, a wrong passphrase) exports nothing,
 * and GPGME returns no error for it. */
static gpgme_error_t
on_status (void *hook, const char *keyword, const char *args)
{
  gpgme_error_t *first = hook;
  const char *code;

  if (!*first && !g_strcmp0 (keyword, "ERROR") && args
      && (code = strchr (args, ' ')))
    *first = (gpgme_error_t) g_ascii_strtoull (code + 1, NULL, 10);
  return 0;
}

static GError *
export (const Request *request, GCancellable *cancellable, GBytes **bytes)
{
  gpgme_ctx_t ctx = NULL;
  gpgme_data_t data = NULL;
  gpgme_key_t key = NULL;
  gpgme_error_t err, refused = 0;
  GError *error = NULL;

  err = _padlock_keyring_new_context (request->home_dir, &ctx);
  if (!err)
    err = gpgme_set_ctx_flag (ctx, "full-status", "1");
  if (err)
    {
      g_clear_pointer (&ctx, gpgme_release);
      return padlock_error_from_gpg (err);
    }
  gpgme_set_status_cb (ctx, on_status, &refused);
  gpgme_set_armor (ctx, 1);
  error = _padlock_keyring_get_key (ctx, request->fingerprint, request->secret, &key);
  g_clear_pointer (&key, gpgme_key_unref);
  if (!error)
    {
      err = gpgme_data_new (&data);
      if (!err)
        {
          PadlockGpgmeRun run;

          _padlock_gpgme_run_prepare (&run, ctx);
          err = gpgme_op_export_start (ctx, request->fingerprint,
                                       request->secret ? GPGME_EXPORT_MODE_SECRET
                                                       : 0, data);
          err = _padlock_gpgme_run_finish (&run, err, cancellable);
        }
      error = error_from_gpg (err ? err : refused, cancellable);
    }
  if (!error)
    {
      size_t len = 0;
      char *octets = gpgme_data_release_and_get_mem (g_steal_pointer (&data),
                                                     &len);

      /* gpg says nothing when it exported nothing. */
      if (len == 0)
        error = _padlock_keyring_no_such_key (request->fingerprint);
      else
        *bytes = g_bytes_new (octets, len);
      if (octets)
        {
          /* A secret key's backup: wiped before it is freed. */
          memset (octets, 0, len);
          gpgme_free (octets);
        }
    }
  g_clear_pointer (&data, gpgme_data_release);
  gpgme_release (ctx);
  return error;
}

static void
export_thread (GTask *task, gpointer source, gpointer task_data,
               GCancellable *cancellable)
{
  GBytes *bytes = NULL;
  GError *error = export (task_data, cancellable, &bytes);

  if (error)
    g_task_return_error (task, error);
  else
    g_task_return_pointer (task, bytes, (GDestroyNotify) g_bytes_unref);
}

void
padlock_my_key_export_async (PadlockKeyring *keyring, const char *fingerprint,
                             gboolean secret, GCancellable *cancellable,
                             GAsyncReadyCallback callback, gpointer user_data)
{
  g_autoptr (GTask) task = NULL;
  Request *request;

  g_return_if_fail (PADLOCK_IS_KEYRING (keyring));
  g_return_if_fail (fingerprint != NULL);

  task = new_task (keyring, cancellable, callback, user_data,
                   padlock_my_key_export_async, &request);
  request->fingerprint = g_strdup (fingerprint);
  request->secret = secret;
  g_task_run_in_thread (task, export_thread);
}

GBytes *
padlock_my_key_export_finish (PadlockKeyring *keyring, GAsyncResult *result,
                              GError **error)
{
  g_return_val_if_fail (g_task_is_valid (result, keyring), NULL);
  g_return_val_if_fail (g_task_get_source_tag (G_TASK (result))
                        == padlock_my_key_export_async, NULL);
  return g_task_propagate_pointer (G_TASK (result), error);
}

/* Extend */

static GError *
set_expire (gpgme_ctx_t ctx, gpgme_key_t key, gint64 lifetime,
            const char *subkeys, GCancellable *cancellable)
{
  PadlockGpgmeRun run;
  gpgme_error_t err;

  _padlock_gpgme_run_prepare (&run, ctx);
  err = gpgme_op_setexpire_start (ctx, key, (unsigned long) lifetime, subkeys, 0);
  err = _padlock_gpgme_run_finish (&run, err, cancellable);
  return error_from_gpg (err, cancellable);
}

/* Whether KEY has a subkey besides its primary that is not revoked. */
static gboolean
has_live_subkeys (gpgme_key_t key)
{
  for (gpgme_subkey_t sub = key->subkeys->next; sub; sub = sub->next)
    if (!sub->revoked)
      return TRUE;
  return FALSE;
}

static GError *
extend (const Request *request, GCancellable *cancellable, gint64 *expires)
{
  gint64 wanted = g_get_real_time () / G_USEC_PER_SEC + PADLOCK_MY_KEY_EXTENSION;
  gpgme_ctx_t ctx = NULL;
  gpgme_key_t key = NULL;
  gpgme_error_t err;
  GError *error;

  err = _padlock_keyring_new_context (request->home_dir, &ctx);
  if (err)
    return padlock_error_from_gpg (err);
  error = _padlock_keyring_get_key (ctx, request->fingerprint, TRUE, &key);
  if (!error && (key->subkeys->expires == 0 || key->subkeys->expires >= wanted))
    *expires = key->subkeys->expires;   /* never shortened */
  else if (!error)
    {
      error = set_expire (ctx, key, PADLOCK_MY_KEY_EXTENSION, NULL, cancellable);
      if (!error && has_live_subkeys (key))
        error = set_expire (ctx, key, PADLOCK_MY_KEY_EXTENSION, "*", cancellable);
      g_clear_pointer (&key, gpgme_key_unref);
      if (!error)
        error = _padlock_keyring_get_key (ctx, request->fingerprint, FALSE, &key);
      if (!error)
        *expires = key->subkeys->expires;
    }
  g_clear_pointer (&key, gpgme_key_unref);
  gpgme_release (ctx);
  return error;
}

static void
extend_thread (GTask *task, gpointer source, gpointer task_data,
               GCancellable *cancellable)
{
  gint64 expires = 0;
  GError *error = extend (task_data, cancellable, &expires);

  if (error)
    g_task_return_error (task, error);
  else
    g_task_return_pointer (task, g_memdup2 (&expires, sizeof expires), g_free);
}

void
padlock_my_key_extend_async (PadlockKeyring *keyring, const char *fingerprint,
                             GCancellable *cancellable,
                             GAsyncReadyCallback callback, gpointer user_data)
{
  g_autoptr (GTask) task = NULL;
  Request *request;

  g_return_if_fail (PADLOCK_IS_KEYRING (keyring));
  g_return_if_fail (fingerprint != NULL);

  task = new_task (keyring, cancellable, callback, user_data,
                   padlock_my_key_extend_async, &request);
  request->fingerprint = g_strdup (fingerprint);
  g_task_run_in_thread (task, extend_thread);
}

gint64
padlock_my_key_extend_finish (PadlockKeyring *keyring, GAsyncResult *result,
                              GError **error)
{
  g_autofree gint64 *expires = NULL;

  g_return_val_if_fail (g_task_is_valid (result, keyring), -1);
  g_return_val_if_fail (g_task_get_source_tag (G_TASK (result))
                        == padlock_my_key_extend_async, -1);

  expires = g_task_propagate_pointer (G_TASK (result), error);
  if (!expires)
    return -1;
  padlock_keyring_reload (keyring);
  return *expires;
}

/* Expiry */

gboolean
padlock_my_key_expires_soon (PadlockKey *key, gint64 now)
{
  gint64 expires;

  g_return_val_if_fail (PADLOCK_IS_KEY (key), FALSE);

  expires = padlock_key_get_expires (key);
  return padlock_key_get_has_secret (key) && !padlock_key_get_revoked (key)
         && expires != 0 && expires - now < PADLOCK_MY_KEY_WARN_BEFORE;
}

PadlockKey *
padlock_my_key_find_expiring (PadlockKeyring *keyring, gint64 now)
{
  GListModel *keys = G_LIST_MODEL (keyring);
  g_autoptr (PadlockKey) found = NULL;

  g_return_val_if_fail (PADLOCK_IS_KEYRING (keyring), NULL);

  for (guint i = 0; i < g_list_model_get_n_items (keys); i++)
    {
      g_autoptr (PadlockKey) key = g_list_model_get_item (keys, i);

      if (!padlock_key_get_has_secret (key) || padlock_key_get_revoked (key))
        continue;
      if (!padlock_my_key_expires_soon (key, now))
        return NULL;            /* a key in use that is fine */
      if (!found)
        found = g_steal_pointer (&key);
    }
  return g_steal_pointer (&found);
}

gboolean
padlock_my_key_has_any (PadlockKeyring *keyring)
{
  GListModel *keys = G_LIST_MODEL (keyring);

  g_return_val_if_fail (PADLOCK_IS_KEYRING (keyring), FALSE);

  for (guint i = 0; i < g_list_model_get_n_items (keys); i++)
    {
      g_autoptr (PadlockKey) key = g_list_model_get_item (keys, i);

      if (padlock_key_get_has_secret (key))
        return TRUE;
    }
  return FALSE;
}

char *
padlock_my_key_format_fingerprint (const char *fingerprint)
{
  GString *text = g_string_new (NULL);
  guint digits = 0;

  g_return_val_if_fail (fingerprint != NULL, NULL);

  if (fingerprint[0] == '0' && (fingerprint[1] == 'x' || fingerprint[1] == 'X'))
    fingerprint += 2;
  for (const char *p = fingerprint; *p; p++)
    {
      if (!g_ascii_isxdigit (*p))
        continue;
      if (digits && digits % 20 == 0)
        g_string_append_c (text, '\n');
      else if (digits && digits % 4 == 0)
        g_string_append_c (text, ' ');
      g_string_append_c (text, g_ascii_toupper (*p));
      digits++;
    }
  return g_string_free (text, FALSE);
}
