/* padlock-plan.h - what an input is, and what it needs: the one place
 * that decides it, for the window and `padlock --batch` alike
 *
 * padlock_plan_decide () turns an input (its sniff, core/sniff.h, and its
 * name), what the user asked (a direction, or none) and the user's keys
 * into a plan.  Asked for nothing, by the input's kind:
 *
 *   a folder                                  ENCRYPT (one archive)
 *   a file that is no message (not OpenPGP;   ENCRYPT
 *     for now also a secret key)
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
 *     not named as a checksum list (below)    to open, its signature
 *                                             checked, its text written
 *   a detached signature (PL_SNIFF_SIGNATURE: CHECK_DETACHED: its data
 *     gpg --detach-sign, sqop sign), by its   file read and checked,
 *     content, whatever its name (but a list's nothing written (issue 34)
 *     signature: below)
 *   a message that is not encrypted (gpg -s,  CHECK_SIGNED: its
 *     sqop inline-sign; also a literal        signatures checked, its
 *     packet alone: pl_sniff_result's         data written; no
 *     unencrypted)                            passphrase (a message
 *                                             signed by no one fails
 *                                             "not encrypted")
 *   a checksum list (issue 34 §3): a regular  CHECK_LIST: its signature
 *     file whose name says so                 checked (a detached one
 *     (pl_checksums_name_is_list: SHA256SUMS, beside it, LIST.gpg, .sign,
 *     sha256sum.txt, FILE.sha256), and whose  .asc or .sig; or the
 *     text reads as one                       cleartext one), then the
 *     (padlock_input_is_checksum_text), or    files it names that are
 *     that is cleartext-signed (InRelease     in its folder; nothing
 *     style)                                  written.  Without a
 *                                             signature: checked, saying
 *                                             nobody vouches for it
 *   a detached signature whose signed file    CHECK_LIST: the list's job
 *     (padlock_plan_signed_file) is named as  (its input the signature,
 *     a list (SHA256SUMS.gpg): by its name,   the list beside it or given
 *     the list is not read here               with it); a list that turns
 *                                             out not to read as one is
 *                                             a detached check, as above
 *   a message with SKESKs only, or whose      DECRYPT_PASSPHRASE
 *     packets the sniffer could not read
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
 * Asked to encrypt (--encrypt, Encrypt Files…): ENCRYPT, whatever it is
 * (a signature too: the user said so).
 * Asked to decrypt (--decrypt, Decrypt Files…): the decryptions above by
 * content, whatever the name; a folder or a file that is not a message
 * is DECRYPT_PASSPHRASE, and its decryption fails saying so.  A key
 * block is then decrypted too, never imported.  A detached signature is
 * checked (CHECK_DETACHED), a message not encrypted too (CHECK_SIGNED),
 * a checksum list too (CHECK_LIST): that is what "decrypting" them can
 * mean.
 *
 * A detached signature goes with its data file (padlock_plan_pair): the
 * file named as the signature less its suffix, given with it (one job,
 * the signature's), else beside it (read there by the signature's job;
 * missing: the job fails saying so).  A data file given alone is any
 * file: encrypted.
 *
 * A checksum list and its detached signature make one job, whichever of
 * them is given: both given, they pair as any signature and its data
 * file (padlock_plan_pair), and the signature's job, CHECK_LIST, checks
 * the signature over the list's octets, then the list's files; the
 * signature alone, its job reads the list beside it; the list alone
 * (CHECK_LIST too), its job finds the signature beside it, or checks
 * it unsigned.  A stream is never a list: it has no folder.
 *
 * Next kinds go here, each once for both callers.
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
  PADLOCK_PLAN_CHECK_DETACHED,          /* a detached signature: its data
                                         * file checked, nothing written */
  PADLOCK_PLAN_CHECK_SIGNED,            /* a signed message, not
                                         * encrypted: checked, its data
                                         * written */
  PADLOCK_PLAN_CHECK_LIST,              /* a checksum list (or its
                                         * detached signature): the
                                         * signature, then the files;
                                         * nothing written (the job:
                                         * padlock_job_set_checks_list) */
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

/* The file a detached signature SIGNATURE signs, by its name: beside it,
 * named as it less ".sig", ".asc", ".sign" or ".gpg" (any case:
 * "iso.img.sig" signs "iso.img"); NULL when its name ends in none of
 * those, or nothing is left before it. */
GFile       *padlock_plan_signed_file (GFile *signature);

/* padlock_plan_pair's marks. */
#define PADLOCK_PLAN_UNPAIRED    (-1)   /* on its own */
#define PADLOCK_PLAN_SIGNED_DATA (-2)   /* a data file some signature of
                                         * the inputs checks: no job of
                                         * its own */

/* Which of the N_INPUTS sniffed INPUTS go together.  For each input I
 * that is a detached signature (PL_SNIFF_SIGNATURE) whose signed file
 * (padlock_plan_signed_file) is among the inputs, PAIRS[I] receives the
 * index of that input: the same file, else a regular file of the same
 * name given from another folder; and that input's PAIRS entry is
 * PADLOCK_PLAN_SIGNED_DATA.  Two signatures of one file (iso.img.sig and
 * iso.img.asc) both pair with it.  Every other entry is
 * PADLOCK_PLAN_UNPAIRED: a signature whose data file was not given (its
 * job reads it beside it), and every other input.  Folders and streams
 * are never data files.  Asked to encrypt (PADLOCK_PLAN_ASK_ENCRYPT),
 * every entry is PADLOCK_PLAN_UNPAIRED: each input is encrypted.  The
 * window and --batch both pair through this, before their plans.
 *
 * A checksum list pairs with its signature as any data file does
 * (SHA256SUMS.gpg's entry is SHA256SUMS's index, SHA256SUMS's is
 * PADLOCK_PLAN_SIGNED_DATA): the signature's plan is then CHECK_LIST, and
 * its job, given the list (padlock_job_set_signed_file), is the list's
 * job.  A list given without its signature is unpaired: its own job
 * (CHECK_LIST) finds the signature beside it. */
void         padlock_plan_pair        (PadlockInput *const *inputs,
                                       guint               n_inputs,
                                       PadlockPlanAsk      ask,
                                       int                *pairs);

G_END_DECLS
