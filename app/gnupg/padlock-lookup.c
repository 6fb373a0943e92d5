/* padlock-lookup.c - finding a person's key on the Internet, through dirmngr */
#include "padlock-lookup.h"

#include <assuan.h>
#include <glib/gi18n.h>
#include <gpgme.h>
#include <string.h>
#include <stdlib.h>
#include <sys/socket.h>

#include "cert.h"
#include "padlock-error.h"
#include "padlock-keyring-private.h"

#define MAX_DATA (16 * 1024 * 1024)  /* no certificate is this big */

static void
lookup_key_free (PadlockLookupKey *key)
{
  g_free (key->fingerprint);
  g_strfreev (key->user_ids);
  g_free (key->algorithm);
  g_free (key);
}

void
padlock_lookup_result_free (PadlockLookupResult *result)
{
  if (!result)
    return;
  g_clear_pointer (&result->keys, g_ptr_array_unref);
  g_clear_pointer (&result->data, g_bytes_unref);
  g_free (result->source);
  g_free (result);
}

GBytes *
padlock_lookup_result_key_data (PadlockLookupResult  *result,
                                guint                 index,
                                GError              **error)
{
  const PadlockLookupKey *key;
  const guint8 *data;
  gsize len;
  pl_cert **certs = NULL;
  pl_cert *cert = NULL;
  size_t n = 0;
  gpg_error_t err;
  GBytes *bytes = NULL;
  uint8_t *packets = NULL;
  size_t packets_len = 0;

  g_return_val_if_fail (result && index < result->keys->len, NULL);
  key = result->keys->pdata[index];
  data = g_bytes_get_data (result->data, &len);
  err = pl_certs_read (data, len, &certs, &n);
  if (!err)
    cert = _padlock_certs_find (certs, n, key->fingerprint);
  if (cert && !(err = pl_cert_public_packets (cert, &packets, &packets_len)))
    bytes = g_bytes_new_with_free_func (packets, packets_len, free, packets);
  pl_certs_free (certs, n);
  if (bytes)
    return bytes;
  if (err)
    g_propagate_error (error, padlock_error_from_gpg (err));
  else
    g_set_error (error, PADLOCK_ERROR, PADLOCK_ERROR_OTHER,
                 _("Padlock cannot read this key on its own: import all of "
                   "them instead."));
  return NULL;
}

/* The query without spaces and 0x, when it is hex of a key ID's or a
 * fingerprint's length; else NULL. */
static char *
normalize_fingerprint (const char *query)
{
  g_autoptr (GString) hex = g_string_new (NULL);

  if (g_str_has_prefix (query, "0x") || g_str_has_prefix (query, "0X"))
    query += 2;
  for (const char *p = query; *p; p++)
    {
      if (*p == ' ')
        continue;
      if (!g_ascii_isxdigit (*p))
        return NULL;
      g_string_append_c (hex, g_ascii_toupper (*p));
    }
  if (hex->len != 16 && hex->len != 40 && hex->len != 64)
    return NULL;
  return g_string_free (g_steal_pointer (&hex), FALSE);
}

gboolean
padlock_lookup_is_fingerprint (const char *query)
{
  g_autofree char *hex = normalize_fingerprint (query);

  return hex != NULL;
}

gboolean
padlock_lookup_is_address (const char *query)
{
  const char *at = strchr (query, '@');

  return at && at != query && !strchr (at + 1, '@') && strchr (at + 1, '.')
         && !strpbrk (query, " <>\t\n") && at[strlen (at) - 1] != '.';
}

/* One lookup */

typedef struct
{
  char         *home_dir;
  char         *query;
  GCancellable *inner;       /* the caller's, or the timeout's */
  GCancellable *outer;
  gulong        outer_handler;
  GSource      *timeout;
  int           timed_out;   /* atomic */
  int           fd;          /* dirmngr's connection, to cut */
  gulong        cut_handler;
  GByteArray   *data;
  char         *source;
} Lookup;

static void
lookup_free (Lookup *lookup)
{
  if (lookup->outer)
    g_cancellable_disconnect (lookup->outer, lookup->outer_handler);
  g_clear_object (&lookup->outer);
  g_clear_object (&lookup->inner);
  if (lookup->timeout)
    {
      g_source_destroy (lookup->timeout);
      g_source_unref (lookup->timeout);
    }
  g_clear_pointer (&lookup->data, g_byte_array_unref);
  g_free (lookup->source);
  g_free (lookup->home_dir);
  g_free (lookup->query);
  g_free (lookup);
}

/* Runs gpgconf [--homedir HOME] A1 A2; its output, or NULL. */
static char *
run_gpgconf (Lookup *lookup, const char *a1, const char *a2, GError **error)
{
  const char *gpgconf = gpgme_get_dirinfo ("gpgconf-name");
  const char *argv[6] = { gpgconf ? gpgconf : "gpgconf" };
  g_autoptr (GSubprocess) process = NULL;
  char *out = NULL;
  int n = 1;

  if (lookup->home_dir)
    {
      argv[n++] = "--homedir";
      argv[n++] = lookup->home_dir;
    }
  argv[n++] = a1;
  argv[n++] = a2;
  process = g_subprocess_newv (argv, G_SUBPROCESS_FLAGS_STDOUT_PIPE
                                     | G_SUBPROCESS_FLAGS_STDERR_SILENCE, error);
  if (!process
      || !g_subprocess_communicate_utf8 (process, NULL, lookup->inner, &out,
                                         NULL, error))
    return NULL;
  if (!g_subprocess_get_successful (process))
    {
      g_free (out);
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_FAILED,
                   _("GnuPG's dirmngr could not be started."));
      return NULL;
    }
  return out;
}

static void
cut_connection (GCancellable *cancellable, gpointer data)
{
  Lookup *lookup = data;

  /* shutdown, not close: the descriptor stays ours while the lookup's
   * thread returns from its read. */
  if (lookup->fd >= 0)
    shutdown (lookup->fd, SHUT_RDWR);
}

/* A connection to dirmngr, started when it is not running. */
static assuan_context_t
connect_dirmngr (Lookup *lookup, GError **error)
{
  g_autofree char *out = NULL;
  g_autofree char *path = NULL;
  g_autofree char *launched = NULL;
  assuan_context_t ctx = NULL;
  assuan_fd_t fds[2];
  gpg_error_t err;

  out = run_gpgconf (lookup, "--list-dirs", "dirmngr-socket", error);
  if (!out)
    return NULL;
  path = g_uri_unescape_string (g_strchomp (out), NULL);
  err = assuan_new (&ctx);
  if (!err)
    err = assuan_socket_connect (ctx, path, ASSUAN_INVALID_PID, 0);
  if (err && (launched = run_gpgconf (lookup, "--launch", "dirmngr", error)))
    err = assuan_socket_connect (ctx, path, ASSUAN_INVALID_PID, 0);
  if (!err && assuan_get_active_fds (ctx, 0, fds, G_N_ELEMENTS (fds)) < 1)
    err = gpg_error (GPG_ERR_ASS_CONNECT_FAILED);
  if (err)
    {
      g_clear_pointer (&ctx, assuan_release);
      if (error && !*error)
        g_set_error (error, G_IO_ERROR, G_IO_ERROR_FAILED,
                     _("GnuPG's dirmngr could not be reached: %s"),
                     gpg_strerror (err));
      return NULL;
    }
  lookup->fd = fds[0];
  return ctx;
}

static gpg_error_t
on_data (void *data, const void *buffer, size_t length)
{
  Lookup *lookup = data;

  if (lookup->data->len + length > MAX_DATA)
    return gpg_error (GPG_ERR_TOO_LARGE);
  g_byte_array_append (lookup->data, buffer, length);
  return 0;
}

static gpg_error_t
on_status (void *data, const char *line)
{
  Lookup *lookup = data;

  if (g_str_has_prefix (line, "SOURCE ") && !lookup->source)
    lookup->source = g_strdup (line + strlen ("SOURCE "));
  return 0;
}

/* COMMAND, its data in lookup->data; 0 when it brought some. */
static gpg_error_t
fetch (Lookup *lookup, assuan_context_t ctx, const char *command)
{
  gpg_error_t err;

  g_byte_array_set_size (lookup->data, 0);
  g_clear_pointer (&lookup->source, g_free);
  err = assuan_transact (ctx, command, on_data, lookup, NULL, NULL,
                         on_status, lookup);
  if (!err && lookup->data->len == 0)
    err = gpg_error (GPG_ERR_NO_DATA);
  return err;
}

/* The one line a failed keyserver request gives the user. */
static GError *
lookup_error (Lookup *lookup, gpg_error_t err)
{
  if (g_atomic_int_get (&lookup->timed_out))
    return g_error_new (G_IO_ERROR, G_IO_ERROR_TIMED_OUT,
                        _("No answer within %d seconds: are you offline?"),
                        PADLOCK_LOOKUP_TIMEOUT);
  if (g_cancellable_is_cancelled (lookup->inner))
    return g_error_new_literal (G_IO_ERROR, G_IO_ERROR_CANCELLED,
                                _("The search was cancelled."));
  switch (gpg_err_code (err))
    {
    case GPG_ERR_NO_DATA:
    case GPG_ERR_NOT_FOUND:
    case GPG_ERR_NO_PUBKEY:
      return g_error_new (G_IO_ERROR, G_IO_ERROR_NOT_FOUND,
                          _("No key found for %s."), lookup->query);
    case GPG_ERR_NO_KEYSERVER:     /* every host refused or is marked dead */
    case GPG_ERR_ECONNREFUSED:
    case GPG_ERR_EHOSTUNREACH:
    case GPG_ERR_ENETUNREACH:
    case GPG_ERR_ENETDOWN:
    case GPG_ERR_UNKNOWN_HOST:
    case GPG_ERR_NO_NAME:          /* the keyserver's name does not resolve
                                    * (WKD's errors fall through to it) */
      return g_error_new (G_IO_ERROR, G_IO_ERROR_HOST_UNREACHABLE,
                          _("The key server could not be reached: are you "
                            "offline? (%s)"), gpg_strerror (err));
    default:
      return g_error_new (G_IO_ERROR, G_IO_ERROR_FAILED,
                          _("The key server could not be asked: %s."),
                          gpg_strerror (err));
    }
}

static const char *
algorithm_name (gpgme_subkey_t subkey)
{
  if (subkey->curve && *subkey->curve)
    return subkey->curve;
  return gpgme_pubkey_algo_name (subkey->pubkey_algo);
}

/* What the fetched data holds, listed by gpg without importing it. */
static GPtrArray *
list_data (Lookup *lookup, GError **error)
{
  g_autoptr (GPtrArray) keys = g_ptr_array_new_with_free_func ((GDestroyNotify) lookup_key_free);
  gpgme_ctx_t ctx = NULL;
  gpgme_data_t data = NULL;
  gpgme_key_t key;
  gpgme_error_t err;

  err = gpgme_new (&ctx);
  if (!err)
    err = gpgme_ctx_set_engine_info (ctx, GPGME_PROTOCOL_OpenPGP, NULL,
                                     lookup->home_dir);
  if (!err)
    err = gpgme_data_new_from_mem (&data, (const char *) lookup->data->data,
                                   lookup->data->len, 0);
  if (!err)
    err = gpgme_op_keylist_from_data_start (ctx, data, 0);
  while (!err && !(err = gpgme_op_keylist_next (ctx, &key)))
    {
      PadlockLookupKey *found = g_new0 (PadlockLookupKey, 1);
      g_autoptr (GStrvBuilder) uids = g_strv_builder_new ();

      for (gpgme_user_id_t uid = key->uids; uid; uid = uid->next)
        if (uid->uid && !uid->revoked)
          g_strv_builder_add (uids, uid->uid);
      found->fingerprint = g_ascii_strup (key->fpr ? key->fpr : "", -1);
      found->user_ids = g_strv_builder_end (uids);
      found->algorithm = g_strdup (key->subkeys ? algorithm_name (key->subkeys) : "");
      found->created = key->subkeys ? key->subkeys->timestamp : 0;
      g_ptr_array_add (keys, found);
      gpgme_key_unref (key);
    }
  if (gpg_err_code (err) == GPG_ERR_EOF)
    err = 0;
  g_clear_pointer (&data, gpgme_data_release);
  g_clear_pointer (&ctx, gpgme_release);
  if (!err && keys->len == 0)
    err = gpg_error (GPG_ERR_NO_DATA);
  if (err)
    {
      g_propagate_error (error, lookup_error (lookup, err));
      return NULL;
    }
  return g_steal_pointer (&keys);
}

/* WKD first for an address (any failure there falls through to the
 * keyserver, unless the lookup was cut), then the keyserver. */
static gpg_error_t
fetch_query (Lookup *lookup, assuan_context_t ctx)
{
  g_autofree char *hex = normalize_fingerprint (lookup->query);
  g_autofree char *command = NULL;
  gpg_error_t err;

  if (hex)
    command = g_strdup_printf ("KS_GET -- 0x%s", hex);
  else
    {
      /* --quick: dirmngr's short connect timeout (2 s), so that a
       * domain without WKD leaves the keyserver time to answer. */
      command = g_strdup_printf ("WKD_GET --quick -- %s", lookup->query);
      err = fetch (lookup, ctx, command);
      if (!err || g_cancellable_is_cancelled (lookup->inner))
        return err;
      g_free (command);
      command = g_strdup_printf ("KS_GET -- <%s>", lookup->query);
    }
  return fetch (lookup, ctx, command);
}

static void
lookup_thread (GTask *task, gpointer source, gpointer task_data,
               GCancellable *unused)
{
  Lookup *lookup = task_data;
  g_autoptr (GError) error = NULL;
  g_autoptr (GPtrArray) keys = NULL;
  assuan_context_t ctx;
  PadlockLookupResult *result;
  gpg_error_t err;

  ctx = connect_dirmngr (lookup, &error);
  if (ctx)
    {
      lookup->cut_handler = g_cancellable_connect (lookup->inner,
                                                   G_CALLBACK (cut_connection),
                                                   lookup, NULL);
      err = fetch_query (lookup, ctx);
      g_cancellable_disconnect (lookup->inner, lookup->cut_handler);
      assuan_release (ctx);
      if (err)
        error = lookup_error (lookup, err);
      else
        keys = list_data (lookup, &error);
    }
  else if (g_cancellable_is_cancelled (lookup->inner))
    {
      g_clear_error (&error);
      error = lookup_error (lookup, gpg_error (GPG_ERR_CANCELED));
    }
  g_source_destroy (lookup->timeout);
  if (!keys)
    {
      g_task_return_error (task, g_steal_pointer (&error));
      return;
    }
  result = g_new0 (PadlockLookupResult, 1);
  result->keys = g_steal_pointer (&keys);
  result->data = g_bytes_new (lookup->data->data, lookup->data->len);
  result->source = g_steal_pointer (&lookup->source);
  g_task_return_pointer (task, result, (GDestroyNotify) padlock_lookup_result_free);
}

static gboolean
on_timeout (gpointer task)
{
  Lookup *lookup = g_task_get_task_data (task);

  g_atomic_int_set (&lookup->timed_out, TRUE);
  g_cancellable_cancel (lookup->inner);
  return G_SOURCE_REMOVE;
}

static void
on_outer_cancelled (GCancellable *outer, gpointer inner)
{
  g_cancellable_cancel (inner);
}

void
padlock_lookup_async (const char *home_dir, const char *query,
                      GCancellable *cancellable, GAsyncReadyCallback callback,
                      gpointer user_data)
{
  g_autoptr (GTask) task = NULL;
  Lookup *lookup;

  g_return_if_fail (query != NULL);
  gpgme_check_version (NULL);
  lookup = g_new0 (Lookup, 1);
  lookup->home_dir = g_strdup (home_dir);
  lookup->query = g_strstrip (g_strdup (query));
  lookup->inner = g_cancellable_new ();
  lookup->fd = -1;
  lookup->data = g_byte_array_new ();
  task = g_task_new (NULL, cancellable, callback, user_data);
  g_task_set_source_tag (task, padlock_lookup_async);
  g_task_set_task_data (task, lookup, (GDestroyNotify) lookup_free);
  if (cancellable)
    {
      lookup->outer = g_object_ref (cancellable);
      lookup->outer_handler = g_cancellable_connect (cancellable,
                                                     G_CALLBACK (on_outer_cancelled),
                                                     lookup->inner, NULL);
    }
  /* The source holds the task (and so LOOKUP) until the thread ends. */
  lookup->timeout = g_timeout_source_new (PADLOCK_LOOKUP_TIMEOUT * 1000);
  g_source_set_callback (lookup->timeout, on_timeout, g_object_ref (task),
                         g_object_unref);
  g_source_attach (lookup->timeout, g_main_context_get_thread_default ());
  g_task_run_in_thread (task, lookup_thread);
}

PadlockLookupResult *
padlock_lookup_finish (GAsyncResult *result, GError **error)
{
  g_return_val_if_fail (g_task_is_valid (result, NULL), NULL);
  return g_task_propagate_pointer (G_TASK (result), error);
}
