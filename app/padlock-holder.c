/* padlock-holder.c - the user's GnuPG secret keys as the engine's key
 * held elsewhere: see padlock-holder.h */
#include "padlock-holder.h"

#include <string.h>
#include <time.h>
#include <glib/gi18n.h>

#include "cert.h"
#include "pkesk.h"

#include "padlock-error.h"

/* A secret subkey that may decrypt, and its key (holding the subkey). */
typedef struct
{
  PadlockKey          *key;
  const PadlockSubkey *sub;
} Entry;

struct _PadlockHolder
{
  gatomicrefcount  ref;
  char            *home_dir;
  PadlockAgent    *agent;
  GArray          *entries;        /* of Entry */
  GPtrArray       *keys;           /* every key of the keyring, for labels */
  GMutex           lock;           /* guards CERTS */
  GHashTable      *certs;          /* primary fingerprint -> pl_cert * */
};

static void
cert_free (gpointer data)
{
  pl_cert_free (data);
}

PadlockHolder *
padlock_holder_new (PadlockKeyring *keyring,
                    PadlockAgent   *agent)
{
  PadlockHolder *self = g_new0 (PadlockHolder, 1);
  GListModel *model = G_LIST_MODEL (keyring);

  g_atomic_ref_count_init (&self->ref);
  self->home_dir = g_strdup (padlock_keyring_get_home_dir (keyring));
  self->agent = g_object_ref (agent);
  self->entries = g_array_new (FALSE, FALSE, sizeof (Entry));
  self->keys = g_ptr_array_new_with_free_func (g_object_unref);
  g_mutex_init (&self->lock);
  self->certs = g_hash_table_new_full (g_str_hash, g_str_equal, g_free,
                                       cert_free);
  for (guint i = 0; i < g_list_model_get_n_items (model); i++)
    {
      PadlockKey *key = g_list_model_get_item (model, i);

      g_ptr_array_add (self->keys, key);
      for (guint j = 0; j < padlock_key_get_n_subkeys (key); j++)
        {
          const PadlockSubkey *sub = padlock_key_get_subkey (key, j);
          Entry e = { key, sub };

          if (sub->has_secret && sub->can_encrypt && sub->keygrip)
            g_array_append_val (self->entries, e);
        }
    }
  return self;
}

PadlockHolder *
padlock_holder_ref (PadlockHolder *self)
{
  g_atomic_ref_count_inc (&self->ref);
  return self;
}

void
padlock_holder_unref (PadlockHolder *self)
{
  if (!self || !g_atomic_ref_count_dec (&self->ref))
    return;
  g_hash_table_unref (self->certs);
  g_mutex_clear (&self->lock);
  g_array_unref (self->entries);
  g_ptr_array_unref (self->keys);
  g_object_unref (self->agent);
  g_free (self->home_dir);
  g_free (self);
}

guint
padlock_holder_get_n_keys (PadlockHolder *self)
{
  return self->entries->len;
}

const char *
padlock_holder_find_label (PadlockHolder *self,
                           const char    *id)
{
  for (guint i = 0; i < self->keys->len; i++)
    if (padlock_key_find_subkey (self->keys->pdata[i], id))
      return padlock_key_get_label (self->keys->pdata[i]);
  return NULL;
}

/* The certificate of E's key, exported and parsed once per holder. */
static const pl_cert *
entry_cert (PadlockHolder *self,
            const Entry   *e,
            GCancellable  *cancellable,
            GError       **error)
{
  const char *fpr = padlock_key_get_fingerprint (e->key);
  const char *fprs[2] = { fpr, NULL };
  pl_cert *cert;
  pl_cert **certs = NULL;
  size_t n = 0;
  GBytes *bytes;
  gpg_error_t err;

  g_mutex_lock (&self->lock);
  cert = g_hash_table_lookup (self->certs, fpr);
  g_mutex_unlock (&self->lock);
  if (cert)
    return cert;
  bytes = padlock_keyring_export_home (self->home_dir, fprs, cancellable,
                                       error);
  if (!bytes)
    return NULL;
  err = pl_certs_read (g_bytes_get_data (bytes, NULL), g_bytes_get_size (bytes),
                       &certs, &n);
  g_bytes_unref (bytes);
  if (err)
    {
      g_propagate_error (error, padlock_error_from_gpg (err));
      return NULL;
    }
  cert = certs[0];
  certs[0] = NULL;
  pl_certs_free (certs, n);
  g_mutex_lock (&self->lock);
  if (!g_hash_table_contains (self->certs, fpr))
    g_hash_table_insert (self->certs, g_strdup (fpr), cert);
  else
    {
      pl_cert_free (cert);
      cert = g_hash_table_lookup (self->certs, fpr);
    }
  g_mutex_unlock (&self->lock);
  return cert;
}

/* The subkey of CERT whose fingerprint is FPR (hex), when CERT binds it
 * for decryption. */
static const pl_pubkey *
cert_subkey (const pl_cert *cert,
             const char    *fpr)
{
  char hex[2 * PL_FPR_MAX + 3];

  for (size_t i = 0; i < cert->n_subkeys; i++)
    {
      const pl_cert_key *k = &cert->subkeys[i];

      pl_fpr_format (k->key.fpr, k->key.fpr_len, hex);
      if (!g_ascii_strcasecmp (hex + 2, fpr)
          && pl_cert_key_may_decrypt (cert, k, (uint32_t) time (NULL)))
        return &k->key;
    }
  return NULL;
}

static void
on_pinentry (gpointer user_data)
{
  PadlockHolderCall *call = user_data;
  g_autofree char *text = NULL;

  if (!call->waiting)
    return;
  /* Translators: a job's row while pinentry is up; "Name <email>" and a
   * key ID. */
  text = g_strdup_printf (_("Waiting for the passphrase of %s (0x%s)"),
                          call->label, call->key_id);
  call->waiting (call->user_data, text);
}

/* Keeps ERROR as the call's reason and gives the engine its code. */
static gpg_error_t
keep_error (PadlockHolderCall *call,
            GError            *error)
{
  gpg_error_t err = padlock_agent_error_code (error);

  g_clear_error (&call->error);
  call->error = error;
  return err;
}

/* One PKESK with the secret subkey of E: the agent, then the engine. */
static gpg_error_t
unwrap_with (PadlockHolderCall *call,
             const Entry       *e,
             const pl_pkesk    *p,
             uint8_t           *session_key,
             size_t            *keylen,
             int               *cipher_algo)
{
  const pl_cert *cert;
  const pl_pubkey *pub;
  gcry_sexp_t ciphertext;
  g_autoptr(PadlockAgentDecrypted) answer = NULL;
  g_autofree char *desc = NULL;
  GError *error = NULL;

  if (!(cert = entry_cert (call->holder, e, call->cancellable, &error)))
    return keep_error (call, error);
  pub = cert_subkey (cert, e->sub->fingerprint);
  if (!pub || (pub->algo != p->algo
               && !(p->algo == PL_PK_RSA && pub->algo == PL_PK_RSA_E)))
    return gpg_error (GPG_ERR_NO_SECKEY);
  /* X25519 and X448 (25, 26): gpg-agent 2.2 has no such keys. */
  ciphertext = padlock_agent_ciphertext_new (p->algo, p->data + p->f[0].off,
                                             p->f[0].len,
                                             p->data + p->f[1].off,
                                             p->f[1].len, &error);
  if (!ciphertext)
    return keep_error (call, error);
  call->label = padlock_key_get_label (e->key);
  g_strlcpy (call->key_id, e->sub->key_id, sizeof call->key_id);
  desc = padlock_agent_describe_request (call->label, call->key_id,
                                         call->file_name);
  answer = padlock_agent_pkdecrypt (call->holder->agent, e->sub->keygrip,
                                    desc, ciphertext, on_pinentry, call,
                                    call->cancellable, &error);
  gcry_sexp_release (ciphertext);
  if (call->waiting)
    call->waiting (call->user_data, NULL);
  if (!answer)
    return keep_error (call, error);
  /* gpg's pubkey-enc.c: the block is still padded unless the agent said
   * "PADDING 0" (a card that removed it). */
  return pl_pkesk_finish (p, pub, answer->value, answer->value_len,
                          answer->padding != 0, session_key, keylen,
                          cipher_algo);
}

static int
entry_named (const Entry    *e,
             const pl_pkesk *p)
{
  char hex[2 * PL_FPR_MAX + 3];

  if (p->version == 3)
    pl_fpr_format (p->keyid, 8, hex);
  else
    pl_fpr_format (p->fpr, p->fpr_len, hex);
  return !g_ascii_strcasecmp (hex + 2, p->version == 3 ? e->sub->key_id
                                                       : e->sub->fingerprint);
}

/* pl_unwrap_fn: the named subkey, or for an anonymous PKESK each one
 * until one opens it. */
static gpg_error_t
holder_unwrap (void           *arg,
               const pl_pkesk *p,
               uint8_t        *session_key,
               size_t         *keylen,
               int            *cipher_algo)
{
  PadlockHolderCall *call = arg;
  GArray *entries = call->holder->entries;
  gpg_error_t err = gpg_error (GPG_ERR_NO_SECKEY);
  int anonymous = pl_pkesk_anonymous (p);

  for (guint i = 0; i < entries->len; i++)
    {
      const Entry *e = &g_array_index (entries, Entry, i);

      if (!anonymous && !entry_named (e, p))
        continue;
      err = unwrap_with (call, e, p, session_key, keylen, cipher_algo);
      if (!err || gpg_err_code (err) == GPG_ERR_CANCELED || !anonymous)
        break;
    }
  return err;
}

void
padlock_holder_call_init (PadlockHolderCall        *call,
                          PadlockHolder            *holder,
                          const char               *file_name,
                          GCancellable             *cancellable,
                          PadlockHolderWaitingFunc  waiting,
                          gpointer                  user_data)
{
  memset (call, 0, sizeof *call);
  call->core.unwrap = holder_unwrap;
  call->core.arg = call;
  call->holder = holder;
  call->file_name = file_name;
  call->cancellable = cancellable;
  call->waiting = waiting;
  call->user_data = user_data;
}

GError *
padlock_holder_call_take_error (PadlockHolderCall *call,
                                gpg_error_t        err)
{
  GError *error = g_steal_pointer (&call->error);

  if (error && err && gpg_err_code (padlock_agent_error_code (error)) == gpg_err_code (err)
      && gpg_err_code (err) != GPG_ERR_NO_SECKEY)
    return error;
  g_clear_error (&error);
  return NULL;
}
