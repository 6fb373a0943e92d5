/* padlock-key.h - one certificate of the GnuPG keyring, as GPGME lists it
 *
 * An immutable snapshot of what `gpg --list-keys --with-keygrip` said at
 * the time the keyring was read (padlock-keyring.h): the user IDs, the
 * validity gpg computed from the trust database, the expiry and
 * revocation, and per subkey its capabilities and keygrip, which is how
 * gpg-agent names the secret half (padlock-agent.h).  A new listing
 * makes new objects; these never change, so they need no notify.
 *
 * No secret is here: "has a secret key" means gpg-agent holds one, on
 * disk or on a card.
 */
#pragma once

#include <gio/gio.h>
#include <gpgme.h>

G_BEGIN_DECLS

/* gpgme_validity_t, in the same order. */
typedef enum
{
  PADLOCK_KEY_VALIDITY_UNKNOWN,
  PADLOCK_KEY_VALIDITY_UNDEFINED,
  PADLOCK_KEY_VALIDITY_NEVER,
  PADLOCK_KEY_VALIDITY_MARGINAL,
  PADLOCK_KEY_VALIDITY_FULL,
  PADLOCK_KEY_VALIDITY_ULTIMATE,
} PadlockKeyValidity;

#define PADLOCK_TYPE_KEY_VALIDITY (padlock_key_validity_get_type ())
GType padlock_key_validity_get_type (void) G_GNUC_CONST;

/* One subkey (the primary is the first).  Owned by its PadlockKey. */
typedef struct
{
  char     *fingerprint;   /* upper-case hex, 40 (v4) or 64 (v6) digits */
  char     *key_id;        /* upper-case hex, 16 digits */
  char     *keygrip;       /* 40 hex digits, or NULL for an unknown algorithm */
  char     *algorithm;     /* "rsa3072", "cv25519", "nistp256", … */
  gint64    created;       /* seconds since the epoch */
  gint64    expires;       /* 0 when it never expires */
  guint     can_encrypt : 1; /* its flags allow it, whatever its state */
  guint     can_sign : 1;
  guint     can_certify : 1;
  guint     expired : 1;
  guint     revoked : 1;
  guint     disabled : 1;
  guint     invalid : 1;
  guint     has_secret : 1; /* gpg-agent holds its secret half */
  guint     is_card_key : 1;
  char     *card_number;   /* the card's serial number, or NULL */
} PadlockSubkey;

/* One user ID, as GPGME lists it.  Owned by its PadlockKey. */
typedef struct
{
  char               *text;      /* "Bob <bob@example.org>", as it is */
  char               *name;      /* "Bob", or "" */
  char               *email;     /* "bob@example.org", or "" */
  PadlockKeyValidity  validity;  /* this user ID's, from gpg's trust model */
  guint               revoked : 1;
  guint               invalid : 1;
} PadlockUserId;

/* Its validity is full or ultimate: the user (or someone the user
 * trusts) has certified that the key belongs to this user ID. */
gboolean padlock_user_id_is_verified (const PadlockUserId *user_id);

/* Whether SUBKEY can take a message now: encryption flags, and not
 * expired, revoked, disabled or invalid. */
gboolean padlock_subkey_can_encrypt_now (const PadlockSubkey *subkey);

#define PADLOCK_TYPE_KEY (padlock_key_get_type ())
G_DECLARE_FINAL_TYPE (PadlockKey, padlock_key, PADLOCK, KEY, GObject)

/* A snapshot of KEY, listed with GPGME_KEYLIST_MODE_WITH_KEYGRIP (and
 * WITH_SECRET for has-secret and the card keys). */
PadlockKey          *padlock_key_new_from_gpgme     (gpgme_key_t key);

const char          *padlock_key_get_fingerprint    (PadlockKey *self);
/* The primary key's 16-digit key ID. */
const char          *padlock_key_get_key_id         (PadlockKey *self);
/* The verdict rule (DESIGN.md, "Trust"): the user ID that whatever is
 * said about KEY names, a signature's verdict, a recipient's row, "Who
 * can open it", is the one whose validity it reports.  That is the first,
 * in the keyring's order, of the highest validity among the user IDs
 * neither revoked nor invalid (among all of them when every one is):
 * a key certified only as "Mallory" whose primary user ID says "Alice"
 * is named Mallory, and verified as Mallory.  NULL when the key has no
 * user ID at all. */
const PadlockUserId *padlock_key_get_named_user_id  (PadlockKey *self);
/* The other user IDs of KEY, neither revoked nor invalid, that the user
 * has not verified, in the keyring's order: what the key "also claims to
 * be (not verified)".  A new array, empty when there are none. */
GStrv                padlock_key_dup_unverified_claims (PadlockKey *self);
/* The named user ID's name and email ("" when it has none), and the
 * whole user IDs, in the keyring's order. */
const char          *padlock_key_get_name           (PadlockKey *self);
const char          *padlock_key_get_email          (PadlockKey *self);
const char * const  *padlock_key_get_user_ids       (PadlockKey *self);
guint                padlock_key_get_n_user_ids     (PadlockKey *self);
const PadlockUserId *padlock_key_get_user_id        (PadlockKey *self,
                                                     guint       index);
/* "Name <email>" for a sentence: the named user ID, else the key ID. */
const char          *padlock_key_get_label          (PadlockKey *self);
/* The named user ID's validity, which is the best of the key's. */
PadlockKeyValidity   padlock_key_get_validity       (PadlockKey *self);
/* The primary key's expiry; 0 when it never expires. */
gint64               padlock_key_get_expires        (PadlockKey *self);
gboolean             padlock_key_get_revoked        (PadlockKey *self);
gboolean             padlock_key_get_expired        (PadlockKey *self);
gboolean             padlock_key_get_disabled       (PadlockKey *self);
gboolean             padlock_key_get_invalid        (PadlockKey *self);
/* gpg's own verdict: some subkey can encrypt now. */
gboolean             padlock_key_get_can_encrypt    (PadlockKey *self);
gboolean             padlock_key_get_has_secret     (PadlockKey *self);
/* Some secret subkey is on a smartcard. */
gboolean             padlock_key_get_is_card_key    (PadlockKey *self);

guint                padlock_key_get_n_subkeys      (PadlockKey *self);
const PadlockSubkey *padlock_key_get_subkey         (PadlockKey *self,
                                                     guint       index);
/* The subkey whose key ID (16 hex digits) or fingerprint is ID, with or
 * without "0x", any case; NULL when none is. */
const PadlockSubkey *padlock_key_find_subkey        (PadlockKey *self,
                                                     const char *id);

/* Why KEY cannot be chosen as a recipient ("revoked", "expired on …",
 * "disabled", "has no encryption subkey"), translated; NULL when it can.
 * A key that can be chosen may still be unverified:
 * padlock_key_is_verified (). */
char                *padlock_key_dup_refusal        (PadlockKey *self);
/* Its named user ID is verified (padlock_user_id_is_verified): the user
 * (or someone the user trusts) has certified that the key belongs to
 * that user ID. */
gboolean             padlock_key_is_verified        (PadlockKey *self);
/* Its validity in words, wherever a list shows it (translated): "Your
 * own key" (ultimate), "Verified" (full: padlock_key_is_verified),
 * "Not fully verified" (marginal), else "Not verified". */
const char          *padlock_key_get_validity_words (PadlockKey *self);

/* Whether QUERY matches KEY, for a search field: a case-insensitive
 * substring of a user ID (name, email or whole text), or, when QUERY is
 * four hex digits or more ("0x" and spaces ignored), a substring of the
 * primary's or a subkey's fingerprint (which holds the key IDs).  An
 * empty QUERY matches everything. */
gboolean             padlock_key_matches            (PadlockKey *self,
                                                     const char *query);

G_END_DECLS
