/* padlock-holder.h - the user's GnuPG secret keys as the engine's key
 * held elsewhere (PL_KEY_HELD, pl_unwrap_fn in core/recipients.h)
 *
 * A PadlockHolder is made on the main thread from a loaded keyring: a
 * snapshot of the keys whose secret half gpg-agent holds (PadlockKey is
 * immutable, so the snapshot may be read from any thread).  A job's
 * worker thread then gives the engine one PadlockHolderCall, whose
 * callback, for each PKESK of the message:
 *   1. finds the secret subkey the PKESK names (key ID or fingerprint;
 *      every secret subkey of its algorithm for an anonymous one): none
 *      is GPG_ERR_NO_SECKEY, "not mine";
 *   2. reads that key's certificate (the keyring's minimal export, read
 *      once per holder by core's certificate parser) for the subkey's
 *      fingerprint and KDF parameters, and refuses a subkey the
 *      certificate does not bind;
 *   3. asks the agent (padlock_agent_pkdecrypt, blocking, on the job's
 *      thread; the call's GCancellable cuts it) and has the engine
 *      finish the answer (pl_pkesk_finish).
 * Keys that open a PKESK without asking the user go first: the engine
 * orders the message's PKESKs by the call's rank (pl_rank_fn), and an
 * anonymous PKESK tries the secret subkeys in that order too.  The rank
 * comes from the agent's KEYINFO (asked once per key and call, never
 * showing anything): a key without a passphrase or whose passphrase the
 * agent has cached first, then a card key (its PIN; whether the card is
 * in cannot be told without asking the card), then one whose pinentry
 * would ask.  Several anonymous PKESKs are each tried with the keys that
 * ask nothing before any pinentry is shown for one of them.
 * While the agent's pinentry is up the call's WAITING function is given
 * "Waiting for the passphrase of NAME <email> (0x…)", and NULL when the
 * request is over.
 *
 * The engine keeps only an error code; the agent's words for what went
 * wrong ("no pinentry", "card not inserted") stay in the call:
 * padlock_holder_call_take_error () gives them back for the job's error.
 */
#pragma once

#include <gio/gio.h>

#include "recipients.h"
#include "sniff.h"

#include "padlock-agent.h"
#include "padlock-keyring.h"

G_BEGIN_DECLS

typedef struct _PadlockHolder PadlockHolder;

/* The secret keys of KEYRING (which must have loaded), asked of AGENT. */
PadlockHolder *padlock_holder_new    (PadlockKeyring *keyring,
                                      PadlockAgent   *agent);
/* Thread-safe. */
PadlockHolder *padlock_holder_ref    (PadlockHolder  *self);
void           padlock_holder_unref  (PadlockHolder  *self);
G_DEFINE_AUTOPTR_CLEANUP_FUNC (PadlockHolder, padlock_holder_unref)

/* How many secret keys it has. */
guint          padlock_holder_get_n_keys (PadlockHolder *self);

/* The label of the key with a subkey of key ID or fingerprint ID
 * ("Alice <alice@…>"), or NULL: the words for "it is for …". */
const char    *padlock_holder_find_label (PadlockHolder *self,
                                          const char    *id);

/* Whether one of its secret keys may open a message so sniffed: a
 * PKESK names one of its secret subkeys (key ID or fingerprint), or is
 * anonymous and it has any.  Asks nobody: the window sorts a drop with
 * it (a file for my key needs no passphrase dialog). */
gboolean       padlock_holder_may_open   (PadlockHolder          *self,
                                          const pl_sniff_result  *sniffed);

typedef void (*PadlockHolderWaitingFunc) (gpointer    user_data,
                                          const char *waiting);

/* How many keys' ranks a call remembers; the others' are asked again. */
#define PADLOCK_HOLDER_RANKED 32

/* One job's use of the holder, on its thread (on the stack is fine). */
typedef struct
{
  pl_key_holder            core;        /* for pl_key_held () */
  PadlockHolder           *holder;
  const char              *file_name;   /* for the pinentry's text */
  GCancellable            *cancellable;
  PadlockHolderWaitingFunc waiting;
  gpointer                 user_data;
  const char              *label;       /* the key being asked for */
  char                     key_id[17];
  GError                  *error;       /* the agent's last refusal */
  signed char              rank[PADLOCK_HOLDER_RANKED]; /* per key, +1; 0 unknown */
  guint                    n_anonymous;  /* the message's anonymous PKESKs */
  guint                    n_deferred;   /* … tried without a question so far */
  const pl_pkesk          *deferred[PADLOCK_HOLDER_RANKED];
} PadlockHolderCall;

void     padlock_holder_call_init       (PadlockHolderCall        *call,
                                         PadlockHolder            *holder,
                                         const char               *file_name,
                                         GCancellable             *cancellable,
                                         PadlockHolderWaitingFunc  waiting,
                                         gpointer                  user_data);
/* The agent's words for ERR, the engine's error of the job, when they
 * are what ended it; NULL otherwise.  Clears the call. */
GError  *padlock_holder_call_take_error (PadlockHolderCall        *call,
                                         gpg_error_t               err);

G_END_DECLS
