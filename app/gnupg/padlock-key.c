/* padlock-key.c - one certificate of the GnuPG keyring, as GPGME lists it */
#include "padlock-key.h"

#include <glib/gi18n.h>
#include <string.h>

G_DEFINE_ENUM_TYPE (PadlockKeyValidity, padlock_key_validity,
  G_DEFINE_ENUM_VALUE (PADLOCK_KEY_VALIDITY_UNKNOWN, "unknown"),
  G_DEFINE_ENUM_VALUE (PADLOCK_KEY_VALIDITY_UNDEFINED, "undefined"),
  G_DEFINE_ENUM_VALUE (PADLOCK_KEY_VALIDITY_NEVER, "never"),
  G_DEFINE_ENUM_VALUE (PADLOCK_KEY_VALIDITY_MARGINAL, "marginal"),
  G_DEFINE_ENUM_VALUE (PADLOCK_KEY_VALIDITY_FULL, "full"),
  G_DEFINE_ENUM_VALUE (PADLOCK_KEY_VALIDITY_ULTIMATE, "ultimate"))

G_STATIC_ASSERT ((int) PADLOCK_KEY_VALIDITY_ULTIMATE == (int) GPGME_VALIDITY_ULTIMATE);
G_STATIC_ASSERT ((int) PADLOCK_KEY_VALIDITY_NEVER == (int) GPGME_VALIDITY_NEVER);

struct _PadlockKey
{
  GObject parent_instance;

  /* Owned */
  GArray   *subkeys;        /* of PadlockSubkey; the primary first */
  GArray   *uids;           /* of PadlockUserId, in the keyring's order */
  GStrv     user_ids;       /* their texts */
  int       named;          /* index in UIDS, or -1 */
  char     *label;
  guint     revoked : 1;
  guint     expired : 1;
  guint     disabled : 1;
  guint     invalid : 1;
  guint     can_encrypt : 1;
  guint     has_secret : 1;
};

enum
{
  PROP_0,
  PROP_FINGERPRINT,
  PROP_KEY_ID,
  PROP_NAME,
  PROP_EMAIL,
  PROP_LABEL,
  PROP_VALIDITY,
  PROP_EXPIRES,
  PROP_CAN_ENCRYPT,
  PROP_HAS_SECRET,
  N_PROPS
};

static GParamSpec *properties[N_PROPS];

G_DEFINE_FINAL_TYPE (PadlockKey, padlock_key, G_TYPE_OBJECT)

static void
subkey_clear (gpointer data)
{
  PadlockSubkey *subkey = data;

  g_free (subkey->fingerprint);
  g_free (subkey->key_id);
  g_free (subkey->keygrip);
  g_free (subkey->algorithm);
  g_free (subkey->card_number);
}

static void
padlock_key_finalize (GObject *object)
{
  PadlockKey *self = PADLOCK_KEY (object);

  g_array_unref (self->subkeys);
  g_array_unref (self->uids);
  g_strfreev (self->user_ids);
  g_free (self->label);
  G_OBJECT_CLASS (padlock_key_parent_class)->finalize (object);
}

static void
padlock_key_get_property (GObject    *object,
                          guint       prop_id,
                          GValue     *value,
                          GParamSpec *pspec)
{
  PadlockKey *self = PADLOCK_KEY (object);

  switch (prop_id)
    {
    case PROP_FINGERPRINT:
      g_value_set_string (value, padlock_key_get_fingerprint (self));
      break;
    case PROP_KEY_ID:
      g_value_set_string (value, padlock_key_get_key_id (self));
      break;
    case PROP_NAME:
      g_value_set_string (value, padlock_key_get_name (self));
      break;
    case PROP_EMAIL:
      g_value_set_string (value, padlock_key_get_email (self));
      break;
    case PROP_LABEL:
      g_value_set_string (value, self->label);
      break;
    case PROP_VALIDITY:
      g_value_set_enum (value, padlock_key_get_validity (self));
      break;
    case PROP_EXPIRES:
      g_value_set_int64 (value, padlock_key_get_expires (self));
      break;
    case PROP_CAN_ENCRYPT:
      g_value_set_boolean (value, self->can_encrypt);
      break;
    case PROP_HAS_SECRET:
      g_value_set_boolean (value, self->has_secret);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
padlock_key_class_init (PadlockKeyClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GParamFlags flags = G_PARAM_READABLE | G_PARAM_STATIC_STRINGS;

  object_class->finalize = padlock_key_finalize;
  object_class->get_property = padlock_key_get_property;

  properties[PROP_FINGERPRINT] =
    g_param_spec_string ("fingerprint", NULL, NULL, NULL, flags);
  properties[PROP_KEY_ID] =
    g_param_spec_string ("key-id", NULL, NULL, NULL, flags);
  properties[PROP_NAME] = g_param_spec_string ("name", NULL, NULL, NULL, flags);
  properties[PROP_EMAIL] = g_param_spec_string ("email", NULL, NULL, NULL, flags);
  properties[PROP_LABEL] = g_param_spec_string ("label", NULL, NULL, NULL, flags);
  properties[PROP_VALIDITY] =
    g_param_spec_enum ("validity", NULL, NULL, PADLOCK_TYPE_KEY_VALIDITY,
                       PADLOCK_KEY_VALIDITY_UNKNOWN, flags);
  properties[PROP_EXPIRES] =
    g_param_spec_int64 ("expires", NULL, NULL, 0, G_MAXINT64, 0, flags);
  properties[PROP_CAN_ENCRYPT] =
    g_param_spec_boolean ("can-encrypt", NULL, NULL, FALSE, flags);
  properties[PROP_HAS_SECRET] =
    g_param_spec_boolean ("has-secret", NULL, NULL, FALSE, flags);
  g_object_class_install_properties (object_class, N_PROPS, properties);
}

static void
user_id_clear (gpointer data)
{
  PadlockUserId *uid = data;

  g_free (uid->text);
  g_free (uid->name);
  g_free (uid->email);
}

static void
padlock_key_init (PadlockKey *self)
{
  self->subkeys = g_array_new (FALSE, TRUE, sizeof (PadlockSubkey));
  g_array_set_clear_func (self->subkeys, subkey_clear);
  self->uids = g_array_new (FALSE, TRUE, sizeof (PadlockUserId));
  g_array_set_clear_func (self->uids, user_id_clear);
  self->named = -1;
}

static void
add_subkey (PadlockKey *self, gpgme_subkey_t sub)
{
  PadlockSubkey subkey = { 0 };
  char *algorithm = gpgme_pubkey_algo_string (sub);

  subkey.fingerprint = g_ascii_strup (sub->fpr ? sub->fpr : "", -1);
  subkey.key_id = g_ascii_strup (sub->keyid ? sub->keyid : "", -1);
  subkey.keygrip = g_strdup (sub->keygrip);
  subkey.algorithm = g_strdup (algorithm ? algorithm : "");
  gpgme_free (algorithm);
  subkey.created = sub->timestamp > 0 ? sub->timestamp : 0;
  subkey.expires = sub->expires > 0 ? sub->expires : 0;
  subkey.can_encrypt = sub->can_encrypt;
  subkey.can_sign = sub->can_sign;
  subkey.can_certify = sub->can_certify;
  subkey.expired = sub->expired;
  subkey.revoked = sub->revoked;
  subkey.disabled = sub->disabled;
  subkey.invalid = sub->invalid;
  subkey.has_secret = sub->secret;
  subkey.is_card_key = sub->is_cardkey;
  subkey.card_number = g_strdup (sub->card_number);
  g_array_append_val (self->subkeys, subkey);
}

/* The verdict rule (padlock_key_get_named_user_id): the first user ID of
 * the best validity, of those neither revoked nor invalid when there are
 * any; -1 when there is no user ID. */
static int
choose_named (GArray *uids)
{
  gboolean any_usable = FALSE;
  int best = -1;

  for (guint i = 0; i < uids->len; i++)
    {
      const PadlockUserId *uid = &g_array_index (uids, PadlockUserId, i);

      any_usable |= !uid->revoked && !uid->invalid;
    }
  for (guint i = 0; i < uids->len; i++)
    {
      const PadlockUserId *uid = &g_array_index (uids, PadlockUserId, i);

      if (any_usable && (uid->revoked || uid->invalid))
        continue;
      if (best < 0
          || uid->validity > g_array_index (uids, PadlockUserId, best).validity)
        best = (int) i;
    }
  return best;
}

static void
add_user_ids (PadlockKey *self, gpgme_key_t key)
{
  g_autoptr (GStrvBuilder) texts = g_strv_builder_new ();
  const PadlockUserId *named;

  for (gpgme_user_id_t u = key->uids; u; u = u->next)
    {
      PadlockUserId uid = { 0 };

      uid.text = g_strdup (u->uid ? u->uid : "");
      uid.name = g_strdup (u->name ? u->name : "");
      uid.email = g_strdup (u->email ? u->email : "");
      /* gpgme_validity_t, in PadlockKeyValidity's order. */
      uid.validity = u->validity <= GPGME_VALIDITY_ULTIMATE
                     ? (PadlockKeyValidity) u->validity
                     : PADLOCK_KEY_VALIDITY_UNKNOWN;
      uid.revoked = u->revoked;
      uid.invalid = u->invalid;
      g_array_append_val (self->uids, uid);
      g_strv_builder_add (texts, uid.text);
    }
  self->user_ids = g_strv_builder_end (texts);
  self->named = choose_named (self->uids);
  named = padlock_key_get_named_user_id (self);
  if (named && *named->text)
    self->label = g_strdup (named->text);
  else
    self->label = g_strdup_printf ("0x%s", padlock_key_get_key_id (self));
}

PadlockKey *
padlock_key_new_from_gpgme (gpgme_key_t key)
{
  PadlockKey *self;

  g_return_val_if_fail (key != NULL && key->subkeys != NULL, NULL);

  self = g_object_new (PADLOCK_TYPE_KEY, NULL);
  for (gpgme_subkey_t sub = key->subkeys; sub; sub = sub->next)
    add_subkey (self, sub);
  add_user_ids (self, key);
  self->revoked = key->revoked;
  self->expired = key->expired;
  self->disabled = key->disabled;
  self->invalid = key->invalid;
  self->can_encrypt = key->can_encrypt;
  self->has_secret = key->secret;
  return self;
}

gboolean
padlock_subkey_can_encrypt_now (const PadlockSubkey *subkey)
{
  g_return_val_if_fail (subkey != NULL, FALSE);

  return subkey->can_encrypt && !subkey->expired && !subkey->revoked
         && !subkey->disabled && !subkey->invalid;
}

static const PadlockSubkey *
primary (PadlockKey *self)
{
  return &g_array_index (self->subkeys, PadlockSubkey, 0);
}

const char *
padlock_key_get_fingerprint (PadlockKey *self)
{
  g_return_val_if_fail (PADLOCK_IS_KEY (self), NULL);
  return primary (self)->fingerprint;
}

const char *
padlock_key_get_key_id (PadlockKey *self)
{
  g_return_val_if_fail (PADLOCK_IS_KEY (self), NULL);
  return primary (self)->key_id;
}

gboolean
padlock_user_id_is_verified (const PadlockUserId *user_id)
{
  g_return_val_if_fail (user_id != NULL, FALSE);
  return user_id->validity >= PADLOCK_KEY_VALIDITY_FULL;
}

const PadlockUserId *
padlock_key_get_named_user_id (PadlockKey *self)
{
  g_return_val_if_fail (PADLOCK_IS_KEY (self), NULL);
  return self->named < 0 ? NULL
                         : &g_array_index (self->uids, PadlockUserId, self->named);
}

GStrv
padlock_key_dup_unverified_claims (PadlockKey *self)
{
  g_autoptr (GStrvBuilder) claims = g_strv_builder_new ();

  g_return_val_if_fail (PADLOCK_IS_KEY (self), NULL);

  for (guint i = 0; i < self->uids->len; i++)
    {
      const PadlockUserId *uid = &g_array_index (self->uids, PadlockUserId, i);

      if ((int) i != self->named && !uid->revoked && !uid->invalid
          && !padlock_user_id_is_verified (uid))
        g_strv_builder_add (claims, uid->text);
    }
  return g_strv_builder_end (claims);
}

guint
padlock_key_get_n_user_ids (PadlockKey *self)
{
  g_return_val_if_fail (PADLOCK_IS_KEY (self), 0);
  return self->uids->len;
}

const PadlockUserId *
padlock_key_get_user_id (PadlockKey *self, guint index)
{
  g_return_val_if_fail (PADLOCK_IS_KEY (self), NULL);
  g_return_val_if_fail (index < self->uids->len, NULL);
  return &g_array_index (self->uids, PadlockUserId, index);
}

const char *
padlock_key_get_name (PadlockKey *self)
{
  const PadlockUserId *named;

  g_return_val_if_fail (PADLOCK_IS_KEY (self), NULL);
  named = padlock_key_get_named_user_id (self);
  return named ? named->name : "";
}

const char *
padlock_key_get_email (PadlockKey *self)
{
  const PadlockUserId *named;

  g_return_val_if_fail (PADLOCK_IS_KEY (self), NULL);
  named = padlock_key_get_named_user_id (self);
  return named ? named->email : "";
}

const char * const *
padlock_key_get_user_ids (PadlockKey *self)
{
  g_return_val_if_fail (PADLOCK_IS_KEY (self), NULL);
  return (const char * const *) self->user_ids;
}

const char *
padlock_key_get_label (PadlockKey *self)
{
  g_return_val_if_fail (PADLOCK_IS_KEY (self), NULL);
  return self->label;
}

PadlockKeyValidity
padlock_key_get_validity (PadlockKey *self)
{
  const PadlockUserId *named;

  g_return_val_if_fail (PADLOCK_IS_KEY (self), PADLOCK_KEY_VALIDITY_UNKNOWN);
  named = padlock_key_get_named_user_id (self);
  return named ? named->validity : PADLOCK_KEY_VALIDITY_UNKNOWN;
}

gint64
padlock_key_get_expires (PadlockKey *self)
{
  g_return_val_if_fail (PADLOCK_IS_KEY (self), 0);
  return primary (self)->expires;
}

gboolean
padlock_key_get_revoked (PadlockKey *self)
{
  g_return_val_if_fail (PADLOCK_IS_KEY (self), FALSE);
  return self->revoked;
}

gboolean
padlock_key_get_expired (PadlockKey *self)
{
  g_return_val_if_fail (PADLOCK_IS_KEY (self), FALSE);
  return self->expired;
}

gboolean
padlock_key_get_disabled (PadlockKey *self)
{
  g_return_val_if_fail (PADLOCK_IS_KEY (self), FALSE);
  return self->disabled;
}

gboolean
padlock_key_get_invalid (PadlockKey *self)
{
  g_return_val_if_fail (PADLOCK_IS_KEY (self), FALSE);
  return self->invalid;
}

gboolean
padlock_key_get_can_encrypt (PadlockKey *self)
{
  g_return_val_if_fail (PADLOCK_IS_KEY (self), FALSE);
  return self->can_encrypt;
}

gboolean
padlock_key_get_has_secret (PadlockKey *self)
{
  g_return_val_if_fail (PADLOCK_IS_KEY (self), FALSE);
  return self->has_secret;
}

gboolean
padlock_key_get_is_card_key (PadlockKey *self)
{
  g_return_val_if_fail (PADLOCK_IS_KEY (self), FALSE);
  for (guint i = 0; i < self->subkeys->len; i++)
    if (g_array_index (self->subkeys, PadlockSubkey, i).is_card_key)
      return TRUE;
  return FALSE;
}

guint
padlock_key_get_n_subkeys (PadlockKey *self)
{
  g_return_val_if_fail (PADLOCK_IS_KEY (self), 0);
  return self->subkeys->len;
}

const PadlockSubkey *
padlock_key_get_subkey (PadlockKey *self, guint index)
{
  g_return_val_if_fail (PADLOCK_IS_KEY (self), NULL);
  g_return_val_if_fail (index < self->subkeys->len, NULL);
  return &g_array_index (self->subkeys, PadlockSubkey, index);
}

/* QUERY's hex digits in upper case, without "0x" and spaces; NULL when it
 * holds anything else. */
static char *
normalize_hex (const char *query)
{
  GString *hex = g_string_new (NULL);

  if (g_ascii_strncasecmp (query, "0x", 2) == 0)
    query += 2;
  for (const char *p = query; *p; p++)
    {
      if (*p == ' ')
        continue;
      if (!g_ascii_isxdigit (*p))
        return (g_string_free (hex, TRUE), NULL);
      g_string_append_c (hex, g_ascii_toupper (*p));
    }
  return g_string_free (hex, FALSE);
}

const PadlockSubkey *
padlock_key_find_subkey (PadlockKey *self, const char *id)
{
  g_autofree char *hex = NULL;

  g_return_val_if_fail (PADLOCK_IS_KEY (self), NULL);
  g_return_val_if_fail (id != NULL, NULL);

  hex = normalize_hex (id);
  if (!hex || !*hex)
    return NULL;
  for (guint i = 0; i < self->subkeys->len; i++)
    {
      const PadlockSubkey *subkey = padlock_key_get_subkey (self, i);

      if (g_str_equal (hex, subkey->fingerprint)
          || g_str_equal (hex, subkey->key_id))
        return subkey;
    }
  return NULL;
}

char *
padlock_key_dup_refusal (PadlockKey *self)
{
  g_return_val_if_fail (PADLOCK_IS_KEY (self), NULL);

  if (self->revoked)
    return g_strdup (_("The key is revoked"));
  if (self->expired)
    {
      g_autoptr (GDateTime) when =
        g_date_time_new_from_unix_utc (padlock_key_get_expires (self));
      g_autofree char *date = when ? g_date_time_format (when, "%Y-%m-%d") : NULL;

      if (date)
        /* Translators: the date is as 2025-03-01. */
        return g_strdup_printf (_("The key expired on %s"), date);
      return g_strdup (_("The key has expired"));
    }
  if (self->disabled)
    return g_strdup (_("The key is disabled in the keyring"));
  if (self->invalid)
    return g_strdup (_("The key is not valid"));
  if (!self->can_encrypt)
    return g_strdup (_("The key has no usable encryption subkey"));
  return NULL;
}

gboolean
padlock_key_is_verified (PadlockKey *self)
{
  const PadlockUserId *named;

  g_return_val_if_fail (PADLOCK_IS_KEY (self), FALSE);
  named = padlock_key_get_named_user_id (self);
  return named && padlock_user_id_is_verified (named);
}

const char *
padlock_key_get_validity_words (PadlockKey *self)
{
  g_return_val_if_fail (PADLOCK_IS_KEY (self), NULL);
  switch (padlock_key_get_validity (self))
    {
    case PADLOCK_KEY_VALIDITY_ULTIMATE:
      return _("Your own key");
    case PADLOCK_KEY_VALIDITY_FULL:
      return _("Verified");
    case PADLOCK_KEY_VALIDITY_MARGINAL:
      return _("Not fully verified");
    default:
      return _("Not verified");
    }
}

static gboolean
contains_casefold (const char *haystack, const char *folded_needle)
{
  g_autofree char *folded = g_utf8_casefold (haystack, -1);

  return strstr (folded, folded_needle) != NULL;
}

gboolean
padlock_key_matches (PadlockKey *self, const char *query)
{
  g_autofree char *needle = NULL;
  g_autofree char *hex = NULL;

  g_return_val_if_fail (PADLOCK_IS_KEY (self), FALSE);
  g_return_val_if_fail (query != NULL, FALSE);

  needle = g_utf8_casefold (query, -1);
  g_strstrip (needle);
  if (!*needle)
    return TRUE;
  for (guint i = 0; self->user_ids[i]; i++)
    if (contains_casefold (self->user_ids[i], needle))
      return TRUE;
  hex = normalize_hex (needle);
  if (!hex || strlen (hex) < 4)
    return FALSE;
  for (guint i = 0; i < self->subkeys->len; i++)
    if (strstr (padlock_key_get_subkey (self, i)->fingerprint, hex))
      return TRUE;
  return FALSE;
}
