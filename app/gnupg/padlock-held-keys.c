/* padlock-held-keys.c - the user's GnuPG secret keys, held by gpg-agent, as
 * the engine's keys held elsewhere: see padlock-held-keys.h */
#include "padlock-held-keys.h"

#include <string.h>
#include <time.h>
#include <glib/gi18n.h>

#include "cert.h"
#include "packet.h"
#include "pkesk.h"

#include "padlock-error.h"

/* A secret subkey that may decrypt, and its key (holding the subkey). */
typedef struct
{
  PadlockKey          *key;
  const PadlockSubkey *sub;
} Entry;

struct _PadlockHeldKeys
{
  gatomicrefcount  ref;
  char            *home_dir;
  PadlockAgent    *agent;
  GArray          *entries;        /* of Entry */
  GPtrArray       *keys;           /* every key of the keyring, for labels */
  GMutex           lock;           /* guards CERTS */
  GMutex           export_lock;    /* one export at a time (entry_cert) */
  GHashTable      *certs;          /* primary fingerprint -> pl_cert * */
};

static void
cert_free (gpointer data)
{
  pl_cert_free (data);
}

PadlockHeldKeys *
padlock_held_keys_new (PadlockKeyring *keyring,
                       PadlockAgent   *agent)
{
  PadlockHeldKeys *self = g_new0 (PadlockHeldKeys, 1);
  GListModel *model = G_LIST_MODEL (keyring);

  g_atomic_ref_count_init (&self->ref);
  self->home_dir = g_strdup (padlock_keyring_get_home_dir (keyring));
  self->agent = g_object_ref (agent);
  self->entries = g_array_new (FALSE, FALSE, sizeof (Entry));
  self->keys = g_ptr_array_new_with_free_func (g_object_unref);
  g_mutex_init (&self->lock);
  g_mutex_init (&self->export_lock);
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

PadlockHeldKeys *
padlock_held_keys_ref (PadlockHeldKeys *self)
{
  g_atomic_ref_count_inc (&self->ref);
  return self;
}

void
padlock_held_keys_unref (PadlockHeldKeys *self)
{
  if (!self || !g_atomic_ref_count_dec (&self->ref))
    return;
  g_hash_table_unref (self->certs);
  g_mutex_clear (&self->lock);
  g_mutex_clear (&self->export_lock);
  g_array_unref (self->entries);
  g_ptr_array_unref (self->keys);
  g_object_unref (self->agent);
  g_free (self->home_dir);
  g_free (self);
}

guint
padlock_held_keys_get_n_keys (PadlockHeldKeys *self)
{
  return self->entries->len;
}

const char *
padlock_held_keys_find_label (PadlockHeldKeys *self,
                              const char      *id)
{
  for (guint i = 0; i < self->keys->len; i++)
    if (padlock_key_find_subkey (self->keys->pdata[i], id))
      return padlock_key_get_label (self->keys->pdata[i]);
  return NULL;
}

gboolean
padlock_held_keys_may_open (PadlockHeldKeys       *self,
                            const pl_sniff_result *sniffed)
{
  char hex[2 * PL_FPR_MAX + 3];

  g_return_val_if_fail (self != NULL && sniffed != NULL, FALSE);

  for (size_t k = 0; k < sniffed->n_key_packets; k++)
    {
      const pl_sniff_key_packet *kp = &sniffed->key_packets[k];
      gboolean anonymous;

      if (kp->tag != PL_PKT_PKESK || !kp->parsed)
        continue;
      anonymous = kp->version == 3 ? !memcmp (kp->key_id, "\0\0\0\0\0\0\0\0", 8)
                                   : kp->fingerprint_len == 0;
      if (anonymous && self->entries->len)
        return TRUE;
      if (anonymous)
        continue;
      if (kp->fingerprint_len)
        pl_fpr_format (kp->fingerprint, kp->fingerprint_len, hex);
      else
        pl_fpr_format (kp->key_id, 8, hex);
      for (guint i = 0; i < self->entries->len; i++)
        {
          const Entry *e = &g_array_index (self->entries, Entry, i);

          if (!g_ascii_strcasecmp (hex + 2, kp->fingerprint_len
                                            ? e->sub->fingerprint
                                            : e->sub->key_id))
            return TRUE;
        }
    }
  return FALSE;
}

/* The certificate of E's key, from the cache or exported into it. */
static const pl_cert *
cached_or_exported_cert (PadlockHeldKeys  *self,
            const Entry      *e,
            GCancellable     *cancellable,
            GError          **error)
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

/* The certificate of E's key, exported and parsed once per
 * PadlockHeldKeys: jobs that need it at once wait for the first one's
 * export instead of each running gpg. */
static const pl_cert *
entry_cert (PadlockHeldKeys  *self,
            const Entry      *e,
            GCancellable     *cancellable,
            GError          **error)
{
  const pl_cert *cert;

  g_mutex_lock (&self->export_lock);
  cert = cached_or_exported_cert (self, e, cancellable, error);
  g_mutex_unlock (&self->export_lock);
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
  PadlockHeldKeysCall *call = user_data;
  g_autofree char *text = NULL;

  if (!call->waiting)
    return;
  text = padlock_agent_describe_waiting (call->label, call->key_id);
  call->waiting (call->user_data, text);
}

/* Keeps ERROR as the call's reason and gives the engine its code. */
static gpg_error_t
keep_error (PadlockHeldKeysCall *call,
            GError              *error)
{
  gpg_error_t err = padlock_agent_error_code (error);

  g_clear_error (&call->error);
  call->error = error;
  return err;
}

/* Tells the row which key is being tried for a PKESK that names none. */
static void
say_trying (PadlockHeldKeysCall *call,
            const Entry         *e)
{
  g_autofree char *text = NULL;

  if (!call->waiting)
    return;
  /* Translators: a job's row while an anonymous recipient's key is
   * looked for among the user's; "Name <email>" and a key ID. */
  text = g_strdup_printf (_("Trying the key of %s (0x%s)"),
                          padlock_key_get_label (e->key), e->sub->key_id);
  call->waiting (call->user_data, text);
}

/* One PKESK with the secret subkey of E: the agent, then the engine. */
static gpg_error_t
unwrap_with (PadlockHeldKeysCall *call,
             Entry               *e,
             const pl_pkesk      *p,
             uint8_t             *session_key,
             size_t              *keylen,
             int                 *cipher_algo)
{
  const pl_cert *cert;
  const pl_pubkey *pub;
  gcry_sexp_t ciphertext;
  g_autoptr(PadlockAgentDecrypted) answer = NULL;
  g_autofree char *desc = NULL;
  GError *error = NULL;

  if (!(cert = entry_cert (call->held_keys, e, call->cancellable, &error)))
    return keep_error (call, error);
  pub = cert_subkey (cert, e->sub->fingerprint);
  if (!pub || (pub->algo != p->algo
               && !(p->algo == PL_PK_RSA && pub->algo == PL_PK_RSA_E)))
    return gpg_error (GPG_ERR_NO_SECKEY);
  if (pl_pkesk_anonymous (p))
    say_trying (call, e);
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
                                         call->file_name, PADLOCK_AGENT_TO_OPEN);
  /* Two jobs for one key: the agent asks its passphrase once
   * (padlock-agent.c, take_turn). */
  answer = padlock_agent_pkdecrypt (call->held_keys->agent, e->sub->keygrip,
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

enum
{
  RANK_NO_QUESTION,             /* no passphrase, or the agent has it */
  RANK_CARD,                    /* a card key: its PIN, if the card is in */
  RANK_PINENTRY,                /* pinentry will ask */
  RANK_NOT_HERE,                /* the agent does not hold it */
  RANK_NOT_MINE                 /* no secret key of the user's fits */
};

/* The rank of entry I, from the agent's KEYINFO, once per call.  An
 * agent that cannot say ranks it as pinentry would: it is still tried. */
static int
entry_rank (PadlockHeldKeysCall *call,
            guint                i)
{
  const Entry *e = &g_array_index (call->held_keys->entries, Entry, i);
  PadlockAgentKeyInfo info;
  int rank = RANK_PINENTRY;

  if (i < PADLOCK_HELD_KEYS_RANKED && call->rank[i])
    return call->rank[i] - 1;
  if (padlock_agent_get_key_info (call->held_keys->agent, e->sub->keygrip,
                                  &info, call->cancellable, NULL))
    {
      if (!info.present)
        rank = RANK_NOT_HERE;
      else if (info.on_card)
        rank = RANK_CARD;
      else if (info.cached || !info.protected_)
        rank = RANK_NO_QUESTION;
    }
  if (i < PADLOCK_HELD_KEYS_RANKED)
    call->rank[i] = (signed char) (rank + 1);
  return rank;
}

/* Whether entry E may take P: P names it, or names nobody and E's
 * algorithm may be P's (unwrap_with checks the certificate's). */
static gboolean
entry_fits (const Entry    *e,
            const pl_pkesk *p)
{
  return pl_pkesk_anonymous (p) ? TRUE : entry_named (e, p);
}

/* The entries that may take P, by rank (stable); a new array of
 * indices.  RANK, when not NULL, gets the best. */
static GArray *
entries_for (PadlockHeldKeysCall *call,
             const pl_pkesk      *p,
             int                 *best)
{
  GArray *entries = call->held_keys->entries;
  GArray *order = g_array_new (FALSE, FALSE, sizeof (guint));
  g_autoptr(GArray) ranks = g_array_new (FALSE, FALSE, sizeof (int));

  for (guint i = 0; i < entries->len; i++)
    if (entry_fits (&g_array_index (entries, Entry, i), p))
      g_array_append_val (order, i);
  /* One candidate needs no question to the agent. */
  for (guint i = 0; order->len > 1 && i < order->len; i++)
    {
      guint idx = g_array_index (order, guint, i);
      int r = entry_rank (call, idx);
      guint j = i;

      g_array_append_val (ranks, r);
      for (; j > 0 && g_array_index (ranks, int, j - 1) > r; j--)
        {
          g_array_index (ranks, int, j) = g_array_index (ranks, int, j - 1);
          g_array_index (order, guint, j) = g_array_index (order, guint, j - 1);
        }
      g_array_index (ranks, int, j) = r;
      g_array_index (order, guint, j) = idx;
    }
  if (best)
    *best = !order->len ? RANK_NOT_MINE
            : ranks->len ? g_array_index (ranks, int, 0) : RANK_PINENTRY;
  return order;
}

/* pl_rank_fn: a PKESK for a key that needs no question goes first.
 * The engine calls it for each PKESK before any unwrap: the moment to
 * count the anonymous ones. */
static int
held_keys_rank (void           *arg,
                const pl_pkesk *p)
{
  PadlockHeldKeysCall *call = arg;
  g_autoptr(GArray) order = NULL;
  int best;

  if (pl_pkesk_anonymous (p))
    call->n_anonymous++;
  order = entries_for (call, p, &best);
  /* A lone candidate was not asked about above. */
  if (order->len == 1)
    best = entry_rank (call, g_array_index (order, guint, 0));
  return best;
}

/* Tries on P the entries of ORDER whose rank is within [LOW, HIGH]. */
static gpg_error_t
try_entries (PadlockHeldKeysCall *call,
             GArray              *order,
             int                  low,
             int                  high,
             const pl_pkesk      *p,
             uint8_t             *session_key,
             size_t              *keylen,
             int                 *cipher_algo)
{
  GArray *entries = call->held_keys->entries;
  gpg_error_t err = gpg_error (GPG_ERR_NO_SECKEY);

  for (guint i = 0; i < order->len; i++)
    {
      guint idx = g_array_index (order, guint, i);
      int rank = low || high < RANK_NOT_MINE ? entry_rank (call, idx) : 0;

      if (rank < low || rank > high)
        continue;
      err = unwrap_with (call, &g_array_index (entries, Entry, idx), p,
                         session_key, keylen, cipher_algo);
      if (!err || gpg_err_code (err) == GPG_ERR_CANCELED
          || !pl_pkesk_anonymous (p))
        break;
    }
  return err;
}

/* An anonymous PKESK of several: each is tried first with the keys that
 * ask no question; the keys that would show pinentry only once the last
 * is reached, then on every one of them (any PKESK gives the message's
 * session key).  The engine's PKESKs stay where they are until it is
 * done (recipients.h), so the earlier ones are kept by address. */
static gpg_error_t
unwrap_anonymous (PadlockHeldKeysCall *call,
                  const pl_pkesk      *p,
                  uint8_t             *session_key,
                  size_t              *keylen,
                  int                 *cipher_algo)
{
  g_autoptr(GArray) order = entries_for (call, p, NULL);
  gpg_error_t err;

  err = try_entries (call, order, RANK_NO_QUESTION, RANK_NO_QUESTION, p,
                     session_key, keylen, cipher_algo);
  if (!err || gpg_err_code (err) == GPG_ERR_CANCELED)
    return err;
  if (call->n_deferred < G_N_ELEMENTS (call->deferred))
    call->deferred[call->n_deferred++] = p;
  if (call->n_deferred < call->n_anonymous
      && call->n_deferred < G_N_ELEMENTS (call->deferred))
    return err;
  for (guint i = 0; i < call->n_deferred; i++)
    {
      err = try_entries (call, order, RANK_NO_QUESTION + 1, RANK_NOT_MINE,
                         call->deferred[i], session_key, keylen, cipher_algo);
      if (!err || gpg_err_code (err) == GPG_ERR_CANCELED)
        break;
    }
  call->n_deferred = 0;
  return err;
}

/* pl_unwrap_fn: the named subkey, or for an anonymous PKESK each one
 * until one opens it; those that ask no question first. */
static gpg_error_t
held_keys_unwrap (void           *arg,
                  const pl_pkesk *p,
                  uint8_t        *session_key,
                  size_t         *keylen,
                  int            *cipher_algo)
{
  PadlockHeldKeysCall *call = arg;
  g_autoptr(GArray) order = NULL;

  if (pl_pkesk_anonymous (p) && call->n_anonymous > 1)
    return unwrap_anonymous (call, p, session_key, keylen, cipher_algo);
  order = entries_for (call, p, NULL);
  return try_entries (call, order, 0, RANK_NOT_MINE, p, session_key, keylen,
                      cipher_algo);
}

void
padlock_held_keys_call_init (PadlockHeldKeysCall        *call,
                             PadlockHeldKeys            *held_keys,
                             const char                 *file_name,
                             GCancellable               *cancellable,
                             PadlockHeldKeysWaitingFunc  waiting,
                             gpointer                    user_data)
{
  memset (call, 0, sizeof *call);
  call->core.unwrap = held_keys_unwrap;
  call->core.arg = call;
  call->core.rank = held_keys_rank;
  call->held_keys = held_keys;
  call->file_name = file_name;
  call->cancellable = cancellable;
  call->waiting = waiting;
  call->user_data = user_data;
}

GError *
padlock_held_keys_call_take_error (PadlockHeldKeysCall *call,
                                   gpg_error_t          err)
{
  GError *error = g_steal_pointer (&call->error);

  if (error && err && gpg_err_code (padlock_agent_error_code (error)) == gpg_err_code (err)
      && gpg_err_code (err) != GPG_ERR_NO_SECKEY)
    return error;
  g_clear_error (&error);
  return NULL;
}
