/* padlock-lookup.h - finding a person's key on the Internet, through dirmngr
 *
 * A lookup asks the user's dirmngr (the GnuPG daemon that does all of
 * gpg's network work, with the user's own dirmngr.conf: keyserver,
 * proxies, Tor) for the certificates of an email address or of a
 * fingerprint, and imports NOTHING: what it found is listed from the
 * fetched data (gpg's --import-options show-only, through GPGME's
 * gpgme_op_keylist_from_data_start), so that the user sees each key with
 * its fingerprint first.  Importing is a second step, on the user's
 * click: padlock_keyring_import_bytes_async with the result's data.
 *
 * An address is looked up in its domain's Web Key Directory (WKD_GET),
 * then on the keyserver (KS_GET "<address>"): dirmngr's own keyserver,
 * which for gpg 2.2.40 is hkps://keys.openpgp.org when dirmngr.conf
 * names none.  A fingerprint or key ID goes to the keyserver only.
 *
 * It runs on a worker thread and ends within PADLOCK_LOOKUP_TIMEOUT
 * seconds: then the connection to dirmngr is cut and the error is
 * G_IO_ERROR_TIMED_OUT.  Nothing found is G_IO_ERROR_NOT_FOUND; a
 * keyserver that refuses or cannot be resolved (offline)
 * G_IO_ERROR_HOST_UNREACHABLE; a cancelled lookup G_IO_ERROR_CANCELLED.  Every error's message is one
 * line for the user.
 */
#pragma once

#include <gio/gio.h>

G_BEGIN_DECLS

#define PADLOCK_LOOKUP_TIMEOUT 10  /* seconds */

/* One certificate found, as its fetched data describes it (nothing in
 * it is verified: the data came from the network). */
typedef struct
{
  char   *fingerprint;   /* hex, upper case */
  GStrv   user_ids;      /* as the key states them, unescaped */
  char   *algorithm;     /* of the primary key, gpg's name ("ed25519") */
  gint64  created;       /* Unix time of the primary key */
} PadlockLookupKey;

typedef struct
{
  GPtrArray *keys;       /* of PadlockLookupKey, in the data's order */
  GBytes    *data;       /* what dirmngr fetched, to import on a click */
  char      *source;     /* where it came from (dirmngr's "SOURCE"), or NULL */
} PadlockLookupResult;

void padlock_lookup_result_free (PadlockLookupResult *result);
G_DEFINE_AUTOPTR_CLEANUP_FUNC (PadlockLookupResult, padlock_lookup_result_free)

/* The certificate of RESULT's key at INDEX alone, as packets to import
 * (core/cert.h's pl_cert_public_packets): the fetched data may hold
 * several keys for one address, and the user may want only the one whose
 * fingerprint they know.  NULL and ERROR when our reader does not find
 * it in the data (an algorithm it does not read): importing everything
 * is then the only way. */
GBytes *padlock_lookup_result_key_data (PadlockLookupResult  *result,
                                        guint                 index,
                                        GError              **error);

/* TRUE when QUERY is a fingerprint or key ID (hex, 16 or 40 digits, an
 * optional 0x, spaces allowed); else it is taken as an address. */
gboolean padlock_lookup_is_fingerprint (const char *query);
/* TRUE when QUERY looks like an email address (one @, a dot after it). */
gboolean padlock_lookup_is_address     (const char *query);

/* Looks QUERY (an address or a fingerprint) up through the dirmngr of
 * HOME_DIR (NULL: gpg's own home), started when it is not running.
 * Call from a thread with a running main context (its timeout is a
 * source there). */
void                 padlock_lookup_async  (const char          *home_dir,
                                            const char          *query,
                                            GCancellable        *cancellable,
                                            GAsyncReadyCallback  callback,
                                            gpointer             user_data);
PadlockLookupResult *padlock_lookup_finish (GAsyncResult        *result,
                                            GError             **error);

G_END_DECLS
