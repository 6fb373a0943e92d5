/* padlock-signature.c - the signatures of a decrypted file, and their verdicts */
#include "padlock-signature.h"

#include <glib/gi18n.h>

#include "padlock-key.h"
#include "padlock-keyring.h"
#include "padlock-name.h"

struct _PadlockSignerLookup
{
  char      *home_dir;
  GPtrArray *certs;     /* pl_cert *, owned */
  GPtrArray *keys;      /* PadlockKey, one per cert */
};

void
padlock_signature_free (PadlockSignature *signature)
{
  if (!signature)
    return;
  g_free (signature->signer);
  g_free (signature->signer_name);
  g_free (signature->fingerprint);
  g_free (signature->reason);
  g_strfreev (signature->also_claims);
  g_free (signature);
}

const char *
padlock_signature_verdict_word (PadlockSignatureVerdict verdict)
{
  static const char *const words[] = {
    [PADLOCK_SIGNATURE_GOOD] = "good",
    [PADLOCK_SIGNATURE_NOT_CERTIFIED] = "not-certified",
    [PADLOCK_SIGNATURE_BAD] = "bad",
    [PADLOCK_SIGNATURE_UNKNOWN_KEY] = "unknown-key",
    [PADLOCK_SIGNATURE_NOT_VALID] = "not-valid",
    [PADLOCK_SIGNATURE_UNSUPPORTED] = "unsupported",
  };

  g_return_val_if_fail (verdict < G_N_ELEMENTS (words), "unsupported");
  return words[verdict];
}

char *
padlock_fingerprint_grouped (const char *hex)
{
  GString *out = g_string_new (NULL);

  for (const char *p = hex; *p; p++)
    {
      if (p != hex && (p - hex) % 4 == 0)
        g_string_append_c (out, ' ');
      g_string_append_c (out, *p);
    }
  return g_string_free (out, FALSE);
}

/* NAME (the signer's own text) escaped, and in bidi isolates when
 * ISOLATE: a right-to-left user ID cannot reorder the sentence around
 * it. */
static char *
isolated (const char *name, gboolean isolate)
{
  return isolate ? padlock_name_display (name) : padlock_name_escape (name);
}

static char *
describe_verdict (const PadlockSignature *sig,
                  gboolean                isolate)
{
  g_autofree char *fpr = NULL;
  g_autofree char *signer = sig->signer ? isolated (sig->signer, isolate) : NULL;
  g_autofree char *signer_name = sig->signer_name ? isolated (sig->signer_name, isolate)
                                                  : NULL;
  PadlockSignature copy = *sig;
  const PadlockSignature *s = &copy;

  copy.signer = signer;
  copy.signer_name = signer_name;

  switch (s->verdict)
    {
    case PADLOCK_SIGNATURE_GOOD:
      return g_strdup_printf (_("Signed by %s"), s->signer);
    case PADLOCK_SIGNATURE_NOT_CERTIFIED:
      return g_strdup_printf (_("Signed by %s, but you have not certified "
                                "that the key is theirs"), s->signer);
    case PADLOCK_SIGNATURE_BAD:
      if (s->signer_name)
        return g_strdup_printf (_("Signature does not match: the file may "
                                  "have been altered after %s signed it"),
                                s->signer_name);
      return g_strdup (_("Signature does not match: the file may have been "
                         "altered after it was signed"));
    case PADLOCK_SIGNATURE_UNKNOWN_KEY:
      fpr = padlock_fingerprint_grouped (s->fingerprint ? s->fingerprint : "");
      return g_strdup_printf (_("Signed by an unknown key %s"), fpr);
    case PADLOCK_SIGNATURE_NOT_VALID:
      return g_strdup_printf (_("The signature by %s is not valid: %s"),
                              s->signer, s->reason);
    case PADLOCK_SIGNATURE_UNSUPPORTED:
    default:
      return g_strdup_printf (_("The signature cannot be checked: %s"),
                              s->reason);
    }
}

char *
padlock_signature_describe (const PadlockSignature *sig,
                            gboolean                isolate)
{
  char *text = describe_verdict (sig, isolate);

  for (guint i = 0; sig->also_claims && sig->also_claims[i]; i++)
    {
      g_autofree char *claim = isolated (sig->also_claims[i], isolate);
      char *more;

      /* Translators: a signature's verdict, then another user ID of the
       * signing key that nobody the user trusts has certified. */
      more = g_strdup_printf (_("%s. The key also claims to be %s (not "
                                "verified)"), text, claim);
      g_free (text);
      text = more;
    }
  return text;
}

gboolean
padlock_signatures_worst (GPtrArray *signatures,
                          PadlockSignatureVerdict *verdict, guint *index)
{
  /* Worse first. */
  static const PadlockSignatureVerdict order[] = {
    PADLOCK_SIGNATURE_BAD, PADLOCK_SIGNATURE_NOT_VALID,
    PADLOCK_SIGNATURE_UNKNOWN_KEY, PADLOCK_SIGNATURE_UNSUPPORTED,
    PADLOCK_SIGNATURE_NOT_CERTIFIED, PADLOCK_SIGNATURE_GOOD,
  };

  if (!signatures)
    return FALSE;
  for (guint o = 0; o < G_N_ELEMENTS (order); o++)
    for (guint i = 0; i < signatures->len; i++)
      if (((PadlockSignature *) signatures->pdata[i])->verdict == order[o])
        {
          *verdict = order[o];
          *index = i;
          return TRUE;
        }
  return FALSE;
}

PadlockSignerLookup *
padlock_signer_lookup_new (const char *home_dir)
{
  PadlockSignerLookup *lookup = g_new0 (PadlockSignerLookup, 1);

  lookup->home_dir = g_strdup (home_dir);
  lookup->certs = g_ptr_array_new_with_free_func ((GDestroyNotify) pl_cert_free);
  lookup->keys = g_ptr_array_new_with_free_func (g_object_unref);
  return lookup;
}

void
padlock_signer_lookup_free (PadlockSignerLookup *lookup)
{
  if (!lookup)
    return;
  g_free (lookup->home_dir);
  g_ptr_array_unref (lookup->certs);
  g_ptr_array_unref (lookup->keys);
  g_free (lookup);
}

static char *
hex (const uint8_t *p, size_t n)
{
  char *out = g_malloc (2 * n + 1);

  for (size_t i = 0; i < n; i++)
    g_snprintf (out + 2 * i, 3, "%02X", p[i]);
  out[2 * n] = '\0';
  return out;
}

const pl_cert *
padlock_signer_lookup_find (void *data, const uint8_t *fpr, size_t fpr_len,
                            const uint8_t *keyid)
{
  PadlockSignerLookup *lookup = data;
  g_autofree char *id = NULL;
  g_autoptr(GError) error = NULL;
  g_autoptr(GBytes) bytes = NULL;
  PadlockKey *key = NULL;
  pl_cert **certs = NULL;
  size_t n = 0;
  gsize len;
  const guint8 *octets;

  /* No keyring (gpg never ran): nothing to ask, and no gpg run that
   * would make a GnuPG home. */
  if (!lookup->home_dir || !g_file_test (lookup->home_dir, G_FILE_TEST_IS_DIR))
    return NULL;
  id = fpr_len ? hex (fpr, fpr_len) : hex (keyid, 8);
  bytes = padlock_keyring_find_signer_home (lookup->home_dir, id, &key,
                                            &error);
  /* A keyring gpg cannot read leaves the signer unknown, as gpg's
   * "No public key" would. */
  if (!bytes)
    {
      if (error)
        g_debug ("looking up signer %s: %s", id, error->message);
      return NULL;
    }
  octets = g_bytes_get_data (bytes, &len);
  if (pl_certs_read (octets, len, &certs, &n) || n == 0)
    {
      g_clear_object (&key);
      return NULL;
    }
  /* One key exported: one certificate. */
  for (size_t i = 1; i < n; i++)
    pl_cert_free (certs[i]);
  g_ptr_array_add (lookup->certs, certs[0]);
  g_ptr_array_add (lookup->keys, key);
  free (certs);
  return lookup->certs->pdata[lookup->certs->len - 1];
}

/* Why a signature that verifies is not valid, or cannot be checked. */
static char *
reason_for (const pl_verification *v)
{
  switch (gpg_err_code (v->why))
    {
    case GPG_ERR_CERT_REVOKED:
      return g_strdup (_("the key is revoked"));
    case GPG_ERR_KEY_EXPIRED:
      return g_strdup (_("the key had expired when it signed"));
    case GPG_ERR_WRONG_KEY_USAGE:
      return g_strdup (_("the key may not make signatures"));
    case GPG_ERR_SIG_EXPIRED:
      return g_strdup (_("the signature has expired"));
    case GPG_ERR_UNKNOWN_CRIT_EXTN:
      /* The name is the sender's text: the core keeps printable ASCII
       * only, and it is escaped as every name is. */
      if (v->critical[0])
        {
          g_autofree char *name = padlock_name_escape (v->critical);
          return g_strdup_printf (_("it has an unknown critical notation %s"),
                                  name);
        }
      return g_strdup (_("it has an unknown critical part"));
    case GPG_ERR_TIME_CONFLICT:
      {
        g_autoptr(GDateTime) when = g_date_time_new_from_unix_local (v->created);
        g_autofree char *date = when ? g_date_time_format (when, "%Y-%m-%d %H:%M:%S")
                                     : NULL;
        return g_strdup_printf (_("it was made in the future (%s)"),
                                date ? date : "?");
      }
    case GPG_ERR_INV_TIME:
      return g_strdup (_("it does not say when it was made"));
    case GPG_ERR_DIGEST_ALGO:
      if (v->verdict == PL_VERDICT_NOT_VALID && v->hash_algo == 2)
        return g_strdup (_("it uses SHA-1, which is not accepted for "
                           "signatures made after 2022"));
      return g_strdup (_("its hash algorithm is not accepted"));
    default:
      return g_strdup (_("its version or algorithm is not supported"));
    }
}

/* The keyring's snapshot of CERT, which LOOKUP found. */
static PadlockKey *
key_of (PadlockSignerLookup *lookup, const pl_cert *cert)
{
  for (guint i = 0; cert && i < lookup->certs->len; i++)
    if (lookup->certs->pdata[i] == cert)
      return lookup->keys->pdata[i];
  return NULL;
}

static PadlockSignature *
verdict_of (PadlockSignerLookup *lookup, const pl_verification *v)
{
  PadlockSignature *s = g_new0 (PadlockSignature, 1);
  PadlockKey *key = key_of (lookup, v->cert);

  s->created = v->created;
  if (key)
    {
      const char *name = padlock_key_get_name (key);

      g_auto(GStrv) claims = padlock_key_dup_unverified_claims (key);

      /* The label is the user ID whose validity decides GOOD or
       * NOT_CERTIFIED below (padlock_key_get_named_user_id); kept as the
       * keyring has it, each place that shows it escapes it its way. */
      s->signer = g_strdup (padlock_key_get_label (key));
      s->signer_name = g_strdup (*name ? name : s->signer);
      if (claims[0])
        s->also_claims = g_steal_pointer (&claims);
    }
  if (v->key_fpr_len)
    s->fingerprint = hex (v->key_fpr, v->key_fpr_len);
  else if (v->issuer_fpr_len)
    s->fingerprint = hex (v->issuer_fpr, v->issuer_fpr_len);
  else if (v->has_issuer)
    s->fingerprint = hex (v->issuer, 8);
  switch (v->verdict)
    {
    case PL_VERDICT_GOOD:
      /* gpg learns of a revocation the exported certificate may lack. */
      if (key && padlock_key_get_revoked (key))
        {
          s->verdict = PADLOCK_SIGNATURE_NOT_VALID;
          s->reason = g_strdup (_("the key is revoked"));
        }
      else
        s->verdict = key && padlock_key_is_verified (key)
                     ? PADLOCK_SIGNATURE_GOOD : PADLOCK_SIGNATURE_NOT_CERTIFIED;
      break;
    case PL_VERDICT_BAD:
      s->verdict = PADLOCK_SIGNATURE_BAD;
      break;
    case PL_VERDICT_UNKNOWN_KEY:
      s->verdict = PADLOCK_SIGNATURE_UNKNOWN_KEY;
      break;
    case PL_VERDICT_NOT_VALID:
      s->verdict = PADLOCK_SIGNATURE_NOT_VALID;
      s->reason = reason_for (v);
      break;
    case PL_VERDICT_UNSUPPORTED:
    default:
      s->verdict = PADLOCK_SIGNATURE_UNSUPPORTED;
      s->reason = reason_for (v);
      break;
    }
  /* A verdict about a key needs its name; a certificate the keyring
   * did not give (none here) is named by its fingerprint. */
  if (!s->signer && s->verdict != PADLOCK_SIGNATURE_UNKNOWN_KEY
      && s->verdict != PADLOCK_SIGNATURE_UNSUPPORTED && s->fingerprint)
    {
      s->signer = padlock_fingerprint_grouped (s->fingerprint);
      s->signer_name = g_strdup (s->signer);
    }
  return s;
}

GPtrArray *
padlock_signer_lookup_verdicts (PadlockSignerLookup *lookup,
                                const pl_verifications *verifications)
{
  GPtrArray *out = g_ptr_array_new_with_free_func ((GDestroyNotify) padlock_signature_free);

  for (size_t i = 0; i < verifications->n; i++)
    g_ptr_array_add (out, verdict_of (lookup, &verifications->v[i]));
  return out;
}
