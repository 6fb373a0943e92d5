/* padlock-secret.c - a passphrase in libgcrypt's secure memory */
#include "padlock-secret.h"

#include <string.h>
#include <glib/gi18n.h>
#include <gcrypt.h>

#include "algo.h"
#include "keycache.h"
#include "padlock-error.h"

struct _PadlockSecret
{
  gatomicrefcount ref_count;
  char *text;                   /* secret: gcry_malloc_secure, as read */
  gsize len;
  char *passphrase;             /* secret: the rule's octets of TEXT */
  gsize passphrase_len;
  pl_passphrase_rule rule;
  pl_keycache *keycache;        /* its derived keys: secure memory */
};

G_DEFINE_BOXED_TYPE (PadlockSecret, padlock_secret,
                     padlock_secret_ref, padlock_secret_unref)

static void
secret_free (PadlockSecret *self)
{
  if (self->text)
    pl_wipe (self->text, self->len + 1);
  gcry_free (self->text);
  if (self->passphrase)
    pl_wipe (self->passphrase, self->passphrase_len + 1);
  gcry_free (self->passphrase);
  pl_keycache_free (self->keycache);
  g_free (self);
}

PadlockSecret *
padlock_secret_new_full (const char          *text,
                         gsize                len,
                         pl_passphrase_rule   rule,
                         GError             **error)
{
  PadlockSecret *self;

  g_return_val_if_fail (text != NULL || len == 0, NULL);

  if (len > PL_PASSPHRASE_MAX)
    {
      g_propagate_error (error, padlock_error_from_gpg (
                                  gpg_error (PL_ERR_PASSPHRASE_TOO_LONG)));
      return NULL;
    }
  self = g_new0 (PadlockSecret, 1);
  g_atomic_ref_count_init (&self->ref_count);
  self->rule = rule;
  self->len = len;
  self->passphrase_len = pl_passphrase_length (text, len, rule);
  self->text = gcry_malloc_secure (len + 1);
  self->passphrase = gcry_malloc_secure (self->passphrase_len + 1);
  if (!self->text || !self->passphrase || pl_keycache_new (&self->keycache))
    {
      secret_free (self);
      g_set_error_literal (error, PADLOCK_ERROR, PADLOCK_ERROR_OTHER,
                           _("Out of secure memory for the passphrase."));
      return NULL;
    }
  memcpy (self->text, text, len);
  self->text[len] = 0;
  memcpy (self->passphrase, text, self->passphrase_len);
  self->passphrase[self->passphrase_len] = 0;
  return self;
}

PadlockSecret *
padlock_secret_new (const char *text)
{
  g_return_val_if_fail (text != NULL, NULL);
  return padlock_secret_new_full (text, strlen (text), PL_PASSPHRASE_TYPED,
                                  NULL);
}

PadlockSecret *
padlock_secret_ref (PadlockSecret *self)
{
  g_return_val_if_fail (self != NULL, NULL);
  g_atomic_ref_count_inc (&self->ref_count);
  return self;
}

void
padlock_secret_unref (PadlockSecret *self)
{
  g_return_if_fail (self != NULL);
  if (g_atomic_ref_count_dec (&self->ref_count))
    secret_free (self);
}

const char *
padlock_secret_get_data (PadlockSecret *self,
                         gsize         *len)
{
  g_return_val_if_fail (self != NULL, NULL);
  if (len)
    *len = self->passphrase_len;
  return self->passphrase;
}

pl_key
padlock_secret_get_key (PadlockSecret *self)
{
  return pl_key_passphrase_source (self->text, self->len, self->rule);
}

pl_keycache *
padlock_secret_get_keycache (PadlockSecret *self)
{
  g_return_val_if_fail (self != NULL, NULL);
  return self->keycache;
}
