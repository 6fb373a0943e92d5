/* padlock-held-keys.h - the user's GnuPG secret keys, held by gpg-agent, as
 * the engine's keys held elsewhere (PL_OPENER_HELD_KEYS, pl_unwrap_fn in
 * core/recipients.h)
 *
 * A PadlockHeldKeys is made on the main thread from a loaded keyring: a
 * snapshot of the keys whose secret half gpg-agent holds (PadlockKey is
 * immutable, so the snapshot may be read from any thread).  A job's
 * worker thread then gives the engine one PadlockHeldKeysCall, whose
 * callback, for each PKESK of the message:
 *   1. finds the secret subkey the PKESK names (key ID or fingerprint;
 *      every secret subkey of its algorithm for an anonymous one): none
 *      is GPG_ERR_NO_SECKEY, "not mine";
 *   2. reads that key's certificate (the keyring's minimal export, read
 *      once per PadlockHeldKeys by core's certificate parser) for the subkey's
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
 * padlock_held_keys_call_take_error () gives them back for the job's error.
 */
#pragma once

#include <gio/gio.h>

#include "recipients.h"
#include "sniff.h"

#include "padlock-agent.h"
#include "padlock-keyring.h"

G_BEGIN_DECLS

typedef struct _PadlockHeldKeys PadlockHeldKeys;

/* The secret keys of KEYRING (which must have loaded), asked of AGENT. */
PadlockHeldKeys *padlock_held_keys_new        (PadlockKeyring *keyring,
                                               PadlockAgent   *agent);
/* Thread-safe. */
PadlockHeldKeys *padlock_held_keys_ref        (PadlockHeldKeys *self);
void             padlock_held_keys_unref      (PadlockHeldKeys *self);
G_DEFINE_AUTOPTR_CLEANUP_FUNC (PadlockHeldKeys, padlock_held_keys_unref)

/* How many secret keys it has. */
guint            padlock_held_keys_get_n_keys (PadlockHeldKeys *self);

/* The label of the key with a subkey of key ID or fingerprint ID
 * ("Alice <alice@…>"), or NULL: the words for "it is for …". */
const char      *padlock_held_keys_find_label (PadlockHeldKeys *self,
                                               const char      *id);

/* Whether one of its secret keys may open a message so sniffed: a
 * PKESK names one of its secret subkeys (key ID or fingerprint), or is
 * anonymous and it has any.  Asks nobody: inputs are planned with it
 * (padlock-plan.h: a file for my key needs no passphrase). */
gboolean         padlock_held_keys_may_open   (PadlockHeldKeys       *self,
                                               const pl_sniff_result *sniffed);

typedef void (*PadlockHeldKeysWaitingFunc) (gpointer    user_data,
                                            const char *waiting);

/* How many keys' ranks a call remembers; the others' are asked again. */
#define PADLOCK_HELD_KEYS_RANKED 32

/* One job's use of the held keys, on its thread (on the stack is fine). */
typedef struct
{
  pl_key_holder              core;      /* for pl_opener_held_keys () */
  PadlockHeldKeys           *held_keys;
  const char                *file_name; /* for the pinentry's text */
  GCancellable              *cancellable;
  PadlockHeldKeysWaitingFunc waiting;
  gpointer                   user_data;
  const char                *label;     /* the key being asked for */
  char                       key_id[17];
  GError                    *error;     /* the agent's last refusal */
  /* Per key, its rank +1; 0 unknown. */
  signed char                rank[PADLOCK_HELD_KEYS_RANKED];
  guint                      n_anonymous; /* the message's anonymous PKESKs */
  guint                      n_deferred; /* … tried so far, asking nothing */
  const pl_pkesk            *deferred[PADLOCK_HELD_KEYS_RANKED];
} PadlockHeldKeysCall;

void    padlock_held_keys_call_init (PadlockHeldKeysCall        *call,
                                     PadlockHeldKeys            *held_keys,
                                     const char                 *file_name,
                                     GCancellable               *cancellable,
                                     PadlockHeldKeysWaitingFunc  waiting,
                                     gpointer                    user_data);
/* The agent's words for ERR, the engine's error of the job, when they
 * are what ended it; NULL otherwise.  Clears the call. */
GError *padlock_held_keys_call_take_error (PadlockHeldKeysCall *call,
                                           gpg_error_t          err);

G_END_DECLS
