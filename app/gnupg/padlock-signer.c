/* padlock-signer.c - signing what the desktop encrypts, with a key gpg-agent holds */
#include "padlock-signer.h"

#include <time.h>
#include <glib/gi18n.h>

#include "cert.h"
#include "padlock-error.h"
#include "padlock-keyring.h"
#include "sign.h"

struct _PadlockSigner
{
  PadlockAgent *agent;
  pl_cert *cert;
  pl_seckey seckey;             /* held: SIGN below, no secret here */
  char *keygrip;
  char *description;            /* for pinentry */
  char *waiting_text;           /* the row's while pinentry is up */
  PadlockSignerWaitingFunc waiting;
  gpointer waiting_data;
  GCancellable *cancellable;
  GError *error;                /* the agent's, behind the engine's */
};

const PadlockSubkey *
padlock_key_get_signing_subkey (PadlockKey *key)
{
  const PadlockSubkey *best = NULL;

  if (padlock_key_get_revoked (key) || padlock_key_get_expired (key)
      || padlock_key_get_disabled (key) || padlock_key_get_invalid (key))
    return NULL;
  for (guint i = 0; i < padlock_key_get_n_subkeys (key); i++)
    {
      const PadlockSubkey *sub = padlock_key_get_subkey (key, i);

      if (sub->can_sign && sub->has_secret && sub->keygrip && !sub->expired
          && !sub->revoked && !sub->disabled && !sub->invalid
          && (!best || sub->created >= best->created))
        best = sub;
    }
  return best;
}

PadlockKey *
padlock_signer_choose_key (PadlockKeyring *keyring, const char *query)
{
  PadlockKey *preferred = query ? NULL : padlock_keyring_get_default_key (keyring);
  g_autoptr(GPtrArray) keys = NULL;

  if (preferred && padlock_key_get_signing_subkey (preferred))
    return g_object_ref (preferred);
  keys = padlock_keyring_search (keyring, query ? query : "");
  for (guint i = 0; i < keys->len; i++)
    if (padlock_key_get_signing_subkey (keys->pdata[i]))
      return g_object_ref (keys->pdata[i]);
  return NULL;
}

/* The agent launched pinentry for the signature: the row says whose
 * passphrase it asks for, as a decryption's does. */
static void
on_pinentry (gpointer user_data)
{
  PadlockSigner *self = user_data;

  if (self->waiting)
    self->waiting (self->waiting_data, self->waiting_text);
}

/* The engine's pl_sign_fn, on the job's thread. */
static gpg_error_t
sign_with_agent (void *user_data, const pl_pubkey *pub, int gcry_md_algo,
                 const uint8_t *digest, size_t digest_len, gcry_sexp_t *sig)
{
  PadlockSigner *self = user_data;
  GError *error = NULL;

  *sig = padlock_agent_pksign (self->agent, self->keygrip, self->description,
                               gcry_md_algo, digest, digest_len, on_pinentry,
                               self, self->cancellable, &error);
  if (self->waiting)
    self->waiting (self->waiting_data, NULL);
  if (*sig)
    return 0;
  g_clear_error (&self->error);
  self->error = error;
  return padlock_agent_error_code (error);
}

/* FINGERPRINT (hex) as octets into OUT (PL_FPR_MAX); its length, or 0. */
static size_t
fingerprint_octets (const char *fingerprint, uint8_t *out)
{
  size_t n = strlen (fingerprint) / 2;

  if (n > PL_FPR_MAX || strlen (fingerprint) % 2)
    return 0;
  for (size_t i = 0; i < n; i++)
    {
      int hi = g_ascii_xdigit_value (fingerprint[2 * i]);
      int lo = g_ascii_xdigit_value (fingerprint[2 * i + 1]);

      if (hi < 0 || lo < 0)
        return 0;
      out[i] = (uint8_t) (hi << 4 | lo);
    }
  return n;
}

static gboolean
no_signing_key (PadlockKey *key, GError **error)
{
  g_set_error (error, PADLOCK_ERROR, PADLOCK_ERROR_PUBLIC_KEY,
               _("%s has no key that can sign"), padlock_key_get_label (key));
  return FALSE;
}

/* The certificate of KEY from the keyring, and in it the key of SUB. */
static gboolean
read_cert (PadlockSigner *self, const char *home_dir, PadlockKey *key,
           const PadlockSubkey *sub, GError **error)
{
  const char *fprs[] = { padlock_key_get_fingerprint (key), NULL };
  g_autoptr(GBytes) bytes = padlock_keyring_export_home (home_dir, fprs,
                                                         self->cancellable,
                                                         error);
  uint8_t fpr[PL_FPR_MAX];
  size_t fpr_len = fingerprint_octets (sub->fingerprint, fpr);
  const pl_cert_key *k;
  pl_cert **certs = NULL;
  size_t n = 0;
  uint32_t now = (uint32_t) time (NULL);

  if (!bytes)
    return FALSE;
  if (pl_certs_read (g_bytes_get_data (bytes, NULL), g_bytes_get_size (bytes),
                     &certs, &n) || !n)
    return no_signing_key (key, error);
  self->cert = certs[0];
  for (size_t i = 1; i < n; i++)
    pl_cert_free (certs[i]);
  free (certs);
  k = fpr_len ? pl_cert_find_key (self->cert, fpr, fpr_len, NULL) : NULL;
  /* The engine agrees that the key may sign now, and can make its
   * algorithm's signatures. */
  if (!k || pl_cert_key_may_sign (self->cert, k, now, now, NULL, 0)
      || !pl_sig_can_make (&k->key))
    return no_signing_key (key, error);
  self->seckey.pub = &k->key;
  return TRUE;
}

PadlockSigner *
padlock_signer_new (const char *home_dir, PadlockAgent *agent, PadlockKey *key,
                    const char *file_name, GCancellable *cancellable,
                    GError **error)
{
  const PadlockSubkey *sub = padlock_key_get_signing_subkey (key);
  g_autoptr(PadlockSigner) self = NULL;

  if (!sub)
    {
      no_signing_key (key, error);
      return NULL;
    }
  self = g_new0 (PadlockSigner, 1);
  self->agent = g_object_ref (agent);
  self->cancellable = cancellable ? g_object_ref (cancellable) : NULL;
  self->keygrip = g_strdup (sub->keygrip);
  self->description = padlock_agent_describe_request (padlock_key_get_label (key),
                                                      sub->key_id, file_name,
                                                      PADLOCK_AGENT_TO_SIGN);
  self->waiting_text = padlock_agent_describe_waiting (padlock_key_get_label (key),
                                                      sub->key_id);
  if (!read_cert (self, home_dir, key, sub, error))
    return NULL;
  self->seckey.sign = sign_with_agent;
  self->seckey.sign_data = self;
  return g_steal_pointer (&self);
}

void
padlock_signer_free (PadlockSigner *self)
{
  if (!self)
    return;
  g_clear_object (&self->agent);
  g_clear_pointer (&self->cert, pl_cert_free);
  g_free (self->keygrip);
  g_free (self->description);
  g_free (self->waiting_text);
  g_clear_object (&self->cancellable);
  g_clear_error (&self->error);
  g_free (self);
}

void
padlock_signer_set_waiting (PadlockSigner            *self,
                            PadlockSignerWaitingFunc  waiting,
                            gpointer                  user_data)
{
  self->waiting = waiting;
  self->waiting_data = user_data;
}

const pl_seckey *
padlock_signer_get_seckey (PadlockSigner *self)
{
  return &self->seckey;
}

GError *
padlock_signer_take_error (PadlockSigner *self, gpg_error_t err)
{
  GError *error = g_steal_pointer (&self->error);

  if (error && err && gpg_err_code (padlock_agent_error_code (error)) == gpg_err_code (err))
    return error;
  g_clear_error (&error);
  return NULL;
}
