/* padlock-recipients.c - the people an encryption is for */
#include "padlock-recipients.h"

#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <glib/gi18n.h>

#include "cert.h"
#include "errors.h"
#include "padlock-error.h"
#include "padlock-keyring-private.h"
#include "padlock-name.h"
#include "recipients.h"

struct _PadlockRecipients
{
  gatomicrefcount ref;

  /* Fixed when made */
  char *home_dir;
  GStrv fingerprints;           /* the primaries', "you" last */
  GStrv others;                 /* the labels of all but "you" */
  gboolean you;
  gboolean anonymous;
  int requested;

  /* Made once by padlock_recipients_load, under LOCK */
  GMutex lock;
  gboolean loaded;
  GError *load_error;
  pl_cert **certs;              /* in FINGERPRINTS' order */
  size_t n_certs;
  int profile;
};

G_DEFINE_BOXED_TYPE (PadlockRecipients, padlock_recipients,
                     padlock_recipients_ref, padlock_recipients_unref)

PadlockRecipients *
padlock_recipients_new (const char        *home_dir,
                        PadlockKey *const *keys,
                        guint              n_keys,
                        PadlockKey        *me,
                        gboolean           anonymous,
                        int                requested)
{
  PadlockRecipients *self = g_new0 (PadlockRecipients, 1);
  GPtrArray *fprs = g_ptr_array_new ();
  GPtrArray *labels = g_ptr_array_new ();
  const char *mine = me ? padlock_key_get_fingerprint (me) : NULL;

  g_return_val_if_fail (n_keys > 0 || me != NULL, NULL);

  g_atomic_ref_count_init (&self->ref);
  g_mutex_init (&self->lock);
  self->home_dir = g_strdup (home_dir);
  self->anonymous = anonymous;
  self->requested = requested;
  self->profile = -1;
  for (guint i = 0; i < n_keys; i++)
    {
      const char *fpr = padlock_key_get_fingerprint (keys[i]);
      gboolean seen = FALSE;

      for (guint j = 0; j < fprs->len && !seen; j++)
        seen = !strcmp (g_ptr_array_index (fprs, j), fpr);
      if (seen || (mine && !strcmp (fpr, mine)))
        continue;
      g_ptr_array_add (fprs, g_strdup (fpr));
      g_ptr_array_add (labels, g_strdup (padlock_key_get_label (keys[i])));
    }
  if (mine)
    {
      g_ptr_array_add (fprs, g_strdup (mine));
      self->you = TRUE;
    }
  g_ptr_array_add (fprs, NULL);
  g_ptr_array_add (labels, NULL);
  self->fingerprints = (GStrv) g_ptr_array_free (fprs, FALSE);
  self->others = (GStrv) g_ptr_array_free (labels, FALSE);
  return self;
}

PadlockRecipients *
padlock_recipients_ref (PadlockRecipients *self)
{
  g_return_val_if_fail (self != NULL, NULL);
  g_atomic_ref_count_inc (&self->ref);
  return self;
}

void
padlock_recipients_unref (PadlockRecipients *self)
{
  g_return_if_fail (self != NULL);
  if (!g_atomic_ref_count_dec (&self->ref))
    return;
  pl_certs_free (self->certs, self->n_certs);
  g_clear_error (&self->load_error);
  g_mutex_clear (&self->lock);
  g_strfreev (self->fingerprints);
  g_strfreev (self->others);
  g_free (self->home_dir);
  g_free (self);
}

/* "Bob <bob@example.org>" for the certificate of FPR, else FPR. */
static const char *
label_of (PadlockRecipients *self,
          guint              index)
{
  if (self->others[index])
    return self->others[index];
  return _("your own key");
}

pl_cert *
_padlock_certs_find (pl_cert    **certs,
                     size_t       n,
                     const char  *fpr)
{
  for (size_t i = 0; i < n; i++)
    {
      char hex[2 * PL_FPR_MAX + 3];

      if (!certs[i])
        continue;               /* taken already */
      pl_fpr_format (certs[i]->primary.key.fpr, certs[i]->primary.key.fpr_len,
                     hex);
      if (!g_ascii_strcasecmp (hex + 2, fpr))
        return certs[i];
    }
  return NULL;
}

/* From the export, one certificate per fingerprint, in their order, each
 * one the engine will encrypt to at NOW; the profile they all read. */
static GError *
parse_certificates (PadlockRecipients *self,
                    GBytes            *exported)
{
  guint n = g_strv_length (self->fingerprints);
  pl_cert **all = NULL;
  size_t n_all = 0;
  uint32_t now = (uint32_t) time (NULL);
  pl_opener *keys = NULL;
  char why[256] = "";
  pl_profile profile;
  GError *error = NULL;
  gpg_error_t err;

  err = pl_certs_read (g_bytes_get_data (exported, NULL),
                       g_bytes_get_size (exported), &all, &n_all);
  if (err)
    return padlock_error_from_gpg (err);
  /* calloc: pl_certs_free frees it. */
  self->certs = calloc (n, sizeof *self->certs);
  if (!self->certs)
    {
      pl_certs_free (all, n_all);
      return padlock_error_from_gpg (gpg_error_from_syserror ());
    }
  for (guint i = 0; i < n; i++)
    {
      pl_cert *cert = _padlock_certs_find (all, n_all, self->fingerprints[i]);

      if (!cert)
        {
          error = g_error_new (PADLOCK_ERROR, PADLOCK_ERROR_PUBLIC_KEY,
                               _("The certificate of %s cannot be read"),
                               label_of (self, i));
          goto leave;
        }
      /* Taken out of ALL, so that it is freed once. */
      for (size_t j = 0; j < n_all; j++)
        if (all[j] == cert)
          all[j] = NULL;
      self->certs[self->n_certs++] = cert;
    }
  keys = g_new0 (pl_opener, n);
  padlock_recipients_fill_keys (self, keys);
  for (guint i = 0; i < n && !error; i++)
    {
      err = pl_recipients_check (keys + i, 1, now, why, sizeof why);
      if (err)
        {
          g_autoptr(GError) words = padlock_error_from_gpg (err);

          error = g_error_new (PADLOCK_ERROR, PADLOCK_ERROR_PUBLIC_KEY,
                               /* Translators: a person, then why (in the
                                * engine's words). */
                               _("Cannot encrypt to %s: %s (%s)"),
                               label_of (self, i), words->message, why);
        }
    }
  if (!error)
    err = pl_recipients_profile (keys, n, self->requested, now, &profile, why,
                                 sizeof why);
  if (!error && err)
    {
      g_autoptr(GError) words = padlock_error_from_gpg (err);
      guint who = 0;

      /* The engine names a fingerprint; the user knows a name. */
      while (who + 1 < n
             && !pl_recipients_profile (keys + who, 1, self->requested, now,
                                        &profile, NULL, 0))
        who++;
      error = g_error_new (PADLOCK_ERROR, PADLOCK_ERROR_UNSUPPORTED,
                           _("Cannot encrypt to %s: %s (%s)"),
                           label_of (self, who), words->message, why);
    }
  if (!error)
    self->profile = profile;

 leave:
  g_free (keys);
  for (size_t j = 0; j < n_all; j++)
    pl_cert_free (all[j]);
  free (all);
  if (error)
    {
      pl_certs_free (self->certs, self->n_certs);
      self->certs = NULL;
      self->n_certs = 0;
    }
  return error;
}

gboolean
padlock_recipients_load (PadlockRecipients *self,
                         GCancellable      *cancellable,
                         GError           **error)
{
  g_autoptr(GBytes) exported = NULL;
  GError *failed = NULL;

  g_return_val_if_fail (self != NULL, FALSE);

  g_mutex_lock (&self->lock);
  if (!self->loaded && g_cancellable_is_cancelled (cancellable))
    failed = padlock_error_from_gpg (gpg_error (GPG_ERR_CANCELED));
  else if (!self->loaded)
    {
      exported = padlock_keyring_export_home (self->home_dir,
                                              (const char *const *) self->fingerprints,
                                              cancellable, &failed);
      if (exported)
        failed = parse_certificates (self, exported);
      /* A cancelled export is tried again by the next job. */
      if (!g_error_matches (failed, G_IO_ERROR, G_IO_ERROR_CANCELLED)
          && !g_error_matches (failed, PADLOCK_ERROR, PADLOCK_ERROR_CANCELLED))
        {
          self->loaded = TRUE;
          self->load_error = failed;
          failed = NULL;
        }
    }
  if (!failed && self->load_error)
    failed = g_error_copy (self->load_error);
  g_mutex_unlock (&self->lock);
  if (failed)
    {
      g_propagate_error (error, failed);
      return FALSE;
    }
  return TRUE;
}

static void
load_thread (GTask        *task,
             gpointer      source,
             gpointer      task_data,
             GCancellable *cancellable)
{
  GError *error = NULL;

  if (padlock_recipients_load (task_data, cancellable, &error))
    g_task_return_boolean (task, TRUE);
  else
    g_task_return_error (task, error);
}

void
padlock_recipients_load_async (PadlockRecipients  *self,
                               GCancellable       *cancellable,
                               GAsyncReadyCallback callback,
                               gpointer            user_data)
{
  g_autoptr(GTask) task = g_task_new (NULL, cancellable, callback, user_data);

  g_task_set_source_tag (task, padlock_recipients_load_async);
  g_task_set_task_data (task, padlock_recipients_ref (self),
                        (GDestroyNotify) padlock_recipients_unref);
  g_task_run_in_thread (task, load_thread);
}

gboolean
padlock_recipients_load_finish (PadlockRecipients *self,
                                GAsyncResult      *result,
                                GError           **error)
{
  g_return_val_if_fail (g_task_is_valid (result, NULL), FALSE);
  return g_task_propagate_boolean (G_TASK (result), error);
}

int
padlock_recipients_get_profile (PadlockRecipients *self)
{
  int profile;

  g_return_val_if_fail (self != NULL, -1);
  g_mutex_lock (&self->lock);
  profile = self->loaded && !self->load_error ? self->profile : -1;
  g_mutex_unlock (&self->lock);
  return profile;
}

gsize
padlock_recipients_fill_keys (PadlockRecipients *self,
                              pl_opener         *keys)
{
  g_return_val_if_fail (self != NULL, 0);

  for (size_t i = 0; i < self->n_certs; i++)
    {
      pl_opener k = { PL_OPENER_CERT, self->certs[i], 0, 0, 0 };
      keys[i] = k;
    }
  return self->n_certs;
}

guint
padlock_recipients_get_n_keys (PadlockRecipients *self)
{
  g_return_val_if_fail (self != NULL, 0);
  return g_strv_length (self->fingerprints);
}

gboolean
padlock_recipients_get_anonymous (PadlockRecipients *self)
{
  g_return_val_if_fail (self != NULL, FALSE);
  return self->anonymous;
}

char *
padlock_recipients_describe_labels (const char *const *others,
                                    gboolean           you,
                                    gboolean           passphrase)
{
  GPtrArray *parts = g_ptr_array_new ();
  GString *out = g_string_new (NULL);

  /* A label is the key's own text: escaped and isolated, as every name
   * the window shows. */
  g_ptr_array_set_free_func (parts, g_free);
  for (guint i = 0; others && others[i]; i++)
    g_ptr_array_add (parts, padlock_name_display (others[i]));
  if (you)
    g_ptr_array_add (parts, g_strdup (_("you")));
  if (passphrase)
    g_ptr_array_add (parts, g_strdup (_("anyone with the passphrase")));
  for (guint i = 0; i < parts->len; i++)
    {
      if (i && i == parts->len - 1)
        /* Translators: before the last of a list: "Bob, you, and anyone
         * with the passphrase". */
        g_string_append (out, parts->len > 2 ? _(", and ") : _(" and "));
      else if (i)
        g_string_append (out, ", ");
      g_string_append (out, g_ptr_array_index (parts, i));
    }
  if (!parts->len)
    g_string_append (out, _("nobody"));
  g_ptr_array_unref (parts);
  return g_string_free (out, FALSE);
}

char *
padlock_recipients_describe (PadlockRecipients *self,
                             gboolean           passphrase)
{
  g_return_val_if_fail (self != NULL, NULL);
  return padlock_recipients_describe_labels ((const char *const *) self->others,
                                             self->you, passphrase);
}

/* SPEC's hex digits (upper case, "0x" and spaces dropped), when it holds
 * nothing else; else NULL. */
static char *
spec_hex_digits (const char *spec)
{
  GString *hex = g_string_new (NULL);
  const char *p = spec;

  if (p[0] == '0' && (p[1] == 'x' || p[1] == 'X'))
    p += 2;
  for (; *p; p++)
    if (g_ascii_isxdigit (*p))
      g_string_append_c (hex, g_ascii_toupper (*p));
    else if (*p != ' ')
      return (g_string_free (hex, TRUE), NULL);
  return g_string_free (hex, FALSE);
}

/* SPEC as hex digits when it is a key ID or a whole fingerprint; else
 * NULL. */
static char *
spec_hex (const char *spec)
{
  char *hex = spec_hex_digits (spec);
  gsize len = hex ? strlen (hex) : 0;

  if (len != 16 && len != 40 && len != 64)
    g_clear_pointer (&hex, g_free);
  return hex;
}

/* The email SPEC names ("<…>" and spaces dropped), when it is one. */
static char *
spec_email (const char *spec)
{
  char *email;

  if (!strchr (spec, '@'))
    return NULL;
  email = g_strstrip (g_strdup (spec));
  if (email[0] == '<' && g_str_has_suffix (email, ">"))
    {
      memmove (email, email + 1, strlen (email));
      email[strlen (email) - 1] = '\0';
    }
  return email;
}

/* Whether UID has the email EMAIL (any case): its "<…>", else its whole
 * text. */
static gboolean
has_email (const PadlockUserId *uid,
           const char          *email)
{
  const char *open = strrchr (uid->text, '<');
  const char *close = open ? strchr (open, '>') : NULL;
  g_autofree char *found = open && close ? g_strndup (open + 1, close - open - 1)
                                         : g_strdup (uid->text);

  return !g_ascii_strcasecmp (found, email);
}

/* Whether four hex digits or more of SPEC are a part of a fingerprint
 * of KEY (the primary's or a subkey's, which hold the key IDs). */
static gboolean
in_fingerprint (PadlockKey *key,
                const char *spec)
{
  g_autofree char *hex = spec_hex_digits (spec);

  if (!hex || strlen (hex) < 4)
    return FALSE;
  for (guint i = 0; i < padlock_key_get_n_subkeys (key); i++)
    if (strstr (padlock_key_get_subkey (key, i)->fingerprint, hex))
      return TRUE;
  return FALSE;
}

/* How SPEC names KEY by its key ID or a part of a fingerprint: the key's
 * named user ID is what the user knows it by. */
static PadlockRecipientMatch
match_by_id (PadlockKey *key, gboolean own, const PadlockUserId **user_id)
{
  *user_id = padlock_key_get_named_user_id (key);
  return own || padlock_key_is_verified (key) ? PADLOCK_RECIPIENT_VERIFIED
                                              : PADLOCK_RECIPIENT_UNVERIFIED;
}

PadlockRecipientMatch
padlock_recipients_match (PadlockKey           *key,
                          const char           *spec,
                          gboolean              typing,
                          const PadlockUserId **user_id)
{
  g_autofree char *hex = NULL;
  g_autofree char *email = NULL;
  g_autofree char *folded = NULL;
  const PadlockUserId *first = NULL, *verified = NULL, *named, *ignored;
  gboolean own, all_revoked;

  g_return_val_if_fail (PADLOCK_IS_KEY (key), PADLOCK_RECIPIENT_NO_MATCH);
  g_return_val_if_fail (spec != NULL, PADLOCK_RECIPIENT_NO_MATCH);

  if (!user_id)
    user_id = &ignored;
  *user_id = NULL;
  own = padlock_key_get_has_secret (key)
        || padlock_key_get_validity (key) == PADLOCK_KEY_VALIDITY_ULTIMATE;
  if ((hex = spec_hex (spec)))
    {
      if (!padlock_key_find_subkey (key, hex))
        return PADLOCK_RECIPIENT_NO_MATCH;
      if (strlen (hex) != 16)
        {
          *user_id = padlock_key_get_named_user_id (key);
          return PADLOCK_RECIPIENT_FINGERPRINT;
        }
      return match_by_id (key, own, user_id);
    }
  if (!typing)
    email = spec_email (spec);
  if (!email)
    {
      folded = g_utf8_casefold (spec, -1);
      g_strstrip (folded);
      if (!*folded)
        return PADLOCK_RECIPIENT_NO_MATCH;
    }
  /* A user ID revoked is no claim, unless the whole key is revoked
   * (gpg then lists every user ID so): padlock_key_dup_refusal says why
   * that one cannot be used. */
  named = padlock_key_get_named_user_id (key);
  all_revoked = named && (named->revoked || named->invalid);
  for (guint i = 0; i < padlock_key_get_n_user_ids (key); i++)
    {
      const PadlockUserId *uid = padlock_key_get_user_id (key, i);
      g_autofree char *text = folded ? g_utf8_casefold (uid->text, -1) : NULL;

      if (((uid->revoked || uid->invalid) && !all_revoked)
          || !(email ? has_email (uid, email) : strstr (text, folded) != NULL))
        continue;
      first = first ? first : uid;
      if (!verified && padlock_user_id_is_verified (uid))
        verified = uid;
    }
  if (!first)
    return !email && in_fingerprint (key, spec) ? match_by_id (key, own, user_id)
                                                : PADLOCK_RECIPIENT_NO_MATCH;
  *user_id = verified ? verified : first;
  return verified || own ? PADLOCK_RECIPIENT_VERIFIED
                         : PADLOCK_RECIPIENT_UNVERIFIED;
}

/* The keys of KEYRING that SPEC names, and how: MATCHES gets each key
 * (a new reference), KINDS its PadlockRecipientMatch. */
static void
find_matches (PadlockKeyring *keyring,
              const char     *spec,
              GPtrArray      *matches,
              GArray         *kinds)
{
  g_autoptr(GPtrArray) all = padlock_keyring_search (keyring, "");

  for (guint i = 0; i < all->len; i++)
    {
      PadlockKey *key = g_ptr_array_index (all, i);
      PadlockRecipientMatch kind = padlock_recipients_match (key, spec, FALSE,
                                                             NULL);

      if (kind == PADLOCK_RECIPIENT_NO_MATCH)
        continue;
      g_ptr_array_add (matches, g_object_ref (key));
      g_array_append_val (kinds, kind);
    }
}

/* SPEC matches only KEYS (usable ones) through user IDs the user has
 * not verified: each named, with what it claims to be, and how to accept
 * one. */
static void
set_unverified_error (GError    **error,
                      const char *spec,
                      GPtrArray  *keys)
{
  GString *list = g_string_new (NULL);
  g_autofree char *fpr = NULL;

  for (guint i = 0; i < keys->len; i++)
    {
      PadlockKey *key = g_ptr_array_index (keys, i);
      const PadlockUserId *uid = NULL;
      g_autofree char *label = padlock_name_escape (padlock_key_get_label (key));
      g_autofree char *claim = NULL;

      padlock_recipients_match (key, spec, FALSE, &uid);
      g_string_append_printf (list, "\n  %s (0x%s)", label,
                              padlock_key_get_fingerprint (key));
      if (uid && g_strcmp0 (uid->text, padlock_key_get_label (key)))
        {
          claim = padlock_name_escape (uid->text);
          /* Translators: after a key's name, another user ID of the key,
           * which nobody the user trusts has certified. */
          g_string_append_printf (list, _(", which also claims to be %s "
                                          "(not verified)"), claim);
        }
    }
  fpr = keys->len == 1 ? g_strdup (padlock_key_get_fingerprint (keys->pdata[0]))
                       : g_strdup ("FINGERPRINT");
  g_set_error (error, PADLOCK_ERROR, PADLOCK_ERROR_OTHER,
               /* Translators: the recipient, one line per key, then a
                * fingerprint (or the word FINGERPRINT) twice. */
               _("The recipient %s matches only keys you have not verified:%s\n"
                 "Compare the fingerprint with its owner, then certify the key "
                 "(gpg --quick-lsign-key %s), or name the key by its whole "
                 "fingerprint (--recipient=%s)."),
               spec, list->str, fpr, fpr);
  g_string_free (list, TRUE);
}

PadlockKey *
padlock_recipients_resolve (PadlockKeyring *keyring,
                            const char     *spec,
                            GError        **error)
{
  g_autoptr(GPtrArray) matches = g_ptr_array_new_with_free_func (g_object_unref);
  g_autoptr(GArray) kinds = g_array_new (FALSE, FALSE, sizeof (PadlockRecipientMatch));
  g_autoptr(GPtrArray) usable = g_ptr_array_new ();
  g_autoptr(GPtrArray) accepted = g_ptr_array_new ();
  GString *list = NULL;

  g_return_val_if_fail (PADLOCK_IS_KEYRING (keyring), NULL);
  g_return_val_if_fail (spec != NULL, NULL);

  if (*spec)
    find_matches (keyring, spec, matches, kinds);
  for (guint i = 0; i < matches->len; i++)
    {
      g_autofree char *refusal = padlock_key_dup_refusal (g_ptr_array_index (matches, i));

      if (refusal)
        continue;
      g_ptr_array_add (usable, g_ptr_array_index (matches, i));
      if (g_array_index (kinds, PadlockRecipientMatch, i) != PADLOCK_RECIPIENT_UNVERIFIED)
        g_ptr_array_add (accepted, g_ptr_array_index (matches, i));
    }
  if (accepted->len == 1)
    return g_object_ref (g_ptr_array_index (accepted, 0));
  if (!matches->len)
    {
      g_set_error (error, PADLOCK_ERROR, PADLOCK_ERROR_OTHER,
                   _("No key in the keyring matches the recipient %s"), spec);
      return NULL;
    }
  if (usable->len && !accepted->len)
    {
      set_unverified_error (error, spec, usable);
      return NULL;
    }
  list = g_string_new (NULL);
  for (guint i = 0; i < matches->len; i++)
    {
      PadlockKey *key = g_ptr_array_index (matches, i);
      g_autofree char *refusal = padlock_key_dup_refusal (key);
      /* The key owner's text: a newline or ESC in it would forge lines
       * of --batch's output (issue 32). */
      g_autofree char *label = padlock_name_escape (padlock_key_get_label (key));

      if (accepted->len && !g_ptr_array_find (accepted, key, NULL))
        continue;
      g_string_append_printf (list, "\n  %s (0x%s)%s%s", label,
                              padlock_key_get_fingerprint (key),
                              refusal ? ": " : "", refusal ? refusal : "");
    }
  if (accepted->len)
    g_set_error (error, PADLOCK_ERROR, PADLOCK_ERROR_OTHER,
                 /* Translators: then one line per key. */
                 _("The recipient %s is ambiguous: %u keys match; name one "
                   "by its fingerprint:%s"), spec, accepted->len, list->str);
  else
    g_set_error (error, PADLOCK_ERROR, PADLOCK_ERROR_OTHER,
                 /* Translators: then one line per key, with the reason. */
                 _("The recipient %s cannot be encrypted to:%s"), spec,
                 list->str);
  g_string_free (list, TRUE);
  return NULL;
}
