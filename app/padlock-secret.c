/* padlock-secret.c - a passphrase in libgcrypt's secure memory */
#include "padlock-secret.h"

#include <string.h>
#include <gcrypt.h>

#include "batch.h"

struct _PadlockSecret
{
  gatomicrefcount ref_count;
  char *data;                   /* secret: gcry_malloc_secure */
  gsize len;
  pl_batch *batch;              /* its derived keys: secure memory */
};

G_DEFINE_BOXED_TYPE (PadlockSecret, padlock_secret,
                     padlock_secret_ref, padlock_secret_unref)

PadlockSecret *
padlock_secret_new (const char *text)
{
  PadlockSecret *self;

  g_return_val_if_fail (text != NULL, NULL);

  self = g_new0 (PadlockSecret, 1);
  g_atomic_ref_count_init (&self->ref_count);
  self->len = strlen (text);
  self->data = gcry_malloc_secure (self->len + 1);
  if (!self->data)
    g_error ("out of secure memory");
  memcpy (self->data, text, self->len + 1);
  if (pl_batch_new (&self->batch))
    g_error ("out of memory");
  return self;
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
  if (!g_atomic_ref_count_dec (&self->ref_count))
    return;
  /* gcry_free wipes secure memory, but do not rely on it. */
  explicit_bzero (self->data, self->len);
  gcry_free (self->data);
  pl_batch_free (self->batch);
  g_free (self);
}

const char *
padlock_secret_get_data (PadlockSecret *self,
                         gsize         *len)
{
  g_return_val_if_fail (self != NULL, NULL);
  if (len)
    *len = self->len;
  return self->data;
}

pl_batch *
padlock_secret_get_batch (PadlockSecret *self)
{
  g_return_val_if_fail (self != NULL, NULL);
  return self->batch;
}
