/* padlock-plan.h - what an input is, and what it needs: the one place
 * that decides it, for the window and `padlock --batch` alike
 *
 * padlock_plan_decide () turns an input (its sniff, core/sniff.h, and its
 * name), what the user asked (a direction, or none) and the user's keys
 * into a plan.  Asked for nothing, by the input's kind:
 *
 *   a folder                                  ENCRYPT (one archive)
 *   a file that is no message (not OpenPGP;   ENCRYPT
 *     for now also a secret key, a detached
 *     signature)
 *   … whose name says OpenPGP (.gpg, .pgp,    DECRYPT_PASSPHRASE: its
 *     .asc, any case)                         decryption says what it is
 *                                             not, instead of encrypting
 *                                             it again (issue 19 §9)
 *   a key block (PL_SNIFF_PUBLIC_KEY)         IMPORT_KEYS with
 *                                             PADLOCK_PLAN_IMPORT (the
 *                                             window; --batch imports
 *                                             nothing); else as any file
 *                                             that is no message, above
 *   cleartext-signed text (gpg --clearsign)   CHECK_CLEARSIGNED: nothing
 *                                             to open, its signature
 *                                             checked, its text written
 *   a message with SKESKs only, or with no    DECRYPT_PASSPHRASE
 *     key packet (signed, or literal data)
 *   a message with a PKESK, no HELD_KEYS      WAIT_FOR_KEYS with
 *                                             PADLOCK_PLAN_KEYS_PENDING
 *                                             (decide again once listed);
 *                                             else DECRYPT_PASSPHRASE: no
 *                                             keys can be asked
 *   … PKESKs only, keys listed                DECRYPT_KEYS, mine or not:
 *                                             one for others fails naming
 *                                             them ("b.gpg is for 0x…")
 *   … a PKESK one of my keys may open         DECRYPT_KEYS_OR_PASSPHRASE:
 *     (padlock_held_keys_may_open) and an     the keys first, the
 *     SKESK                                   passphrase if they fail
 *   … PKESKs for others only, and an SKESK    DECRYPT_PASSPHRASE
 *
 * More key packets than the sniffer keeps count as an SKESK
 * (pl_sniff_key_kinds): one of those left out may be one.
 * An armored message is sorted as its binary packets are; a stream (a
 * pipe, a FIFO: --batch only) as a file, once its first octets are read
 * (padlock_input_is_sniffed).
 *
 * Asked to encrypt (--encrypt, Encrypt Files…): ENCRYPT, whatever it is.
 * Asked to decrypt (--decrypt, Decrypt Files…): the decryptions above by
 * content, whatever the name; a folder or a file that is not a message
 * is DECRYPT_PASSPHRASE, and its decryption fails saying so.  A key
 * block is then decrypted too, never imported.
 *
 * Next kinds go here, each once for both callers: a detached signature
 * with its data file beside it, a signed-only message, a checksum list.
 */
#pragma once

#include <gio/gio.h>

#include "padlock-held-keys.h"
#include "padlock-input.h"

G_BEGIN_DECLS

typedef enum
{
  PADLOCK_PLAN_ENCRYPT,
  PADLOCK_PLAN_DECRYPT_PASSPHRASE,      /* a passphrase opens it (or the
                                         * decryption says why nothing
                                         * does) */
  PADLOCK_PLAN_DECRYPT_KEYS,            /* the user's keys, no passphrase */
  PADLOCK_PLAN_DECRYPT_KEYS_OR_PASSPHRASE, /* keys first, then a passphrase */
  PADLOCK_PLAN_CHECK_CLEARSIGNED,       /* neither: a signature to check */
  PADLOCK_PLAN_IMPORT_KEYS,             /* certificates, into the keyring */
  PADLOCK_PLAN_WAIT_FOR_KEYS,           /* for a public key: decide again
                                         * once the keyring is listed */
} PadlockPlan;

/* What the user asked for. */
typedef enum
{
  PADLOCK_PLAN_ASK_NOTHING,             /* by content and name */
  PADLOCK_PLAN_ASK_ENCRYPT,
  PADLOCK_PLAN_ASK_DECRYPT,
} PadlockPlanAsk;

typedef enum
{
  PADLOCK_PLAN_IMPORT = 1 << 0,         /* the caller imports key files
                                         * (the window; not --batch) */
  PADLOCK_PLAN_KEYS_PENDING = 1 << 1,   /* without HELD_KEYS: the keyring
                                         * can be listed; without this
                                         * flag there are no keys to ask */
} PadlockPlanFlags;

/* INPUT's plan (see above).  INPUT must be sniffed
 * (padlock_input_is_sniffed).  HELD_KEYS: the user's keys, listed, or
 * NULL when they are not (yet: PADLOCK_PLAN_KEYS_PENDING).  Asks nobody,
 * reads nothing: it may be called again, as often as the keys change. */
PadlockPlan  padlock_plan_decide     (PadlockInput     *input,
                                      PadlockPlanAsk    ask,
                                      PadlockHeldKeys  *held_keys,
                                      PadlockPlanFlags  flags);

/* The job's direction for a plan that makes one: ENCRYPT for
 * PADLOCK_PLAN_ENCRYPT, DECRYPT for the others (a cleartext-signed text
 * is checked by the decryption's job). */
PadlockDirection padlock_plan_direction (PadlockPlan plan);

/* Its name, for tests and debug messages ("decrypt-keys"). */
const char  *padlock_plan_to_string  (PadlockPlan plan);

G_END_DECLS
