/* padlock-signature.h - the signatures of a decrypted file, and their verdicts
 *
 * A decrypt job verifies the signatures inside a message with
 * certificates from the GnuPG keyring, found by the issuer a signature
 * names (fingerprint, else key ID), as gpg does.  The engine gives each
 * signature its verdict (core/verify.h); to a GOOD one the keyring adds
 * what only it knows: whether the user certified the key (gpg's
 * "WARNING: This key is not certified with a trusted signature!") and
 * whether gpg has since learnt that it is revoked.
 *
 * The verdicts never decide whether the file is written (the
 * encryption's integrity check did): they are shown beside it.
 */
#pragma once

#include <gio/gio.h>

#include "verify.h"

G_BEGIN_DECLS

typedef enum
{
  PADLOCK_SIGNATURE_GOOD,          /* verifies, by a key the user certified */
  PADLOCK_SIGNATURE_NOT_CERTIFIED, /* verifies, by a key the user has not
                                    * certified (validity below full) */
  PADLOCK_SIGNATURE_BAD,           /* the data does not match */
  PADLOCK_SIGNATURE_UNKNOWN_KEY,   /* the keyring has no such key */
  PADLOCK_SIGNATURE_NOT_VALID,     /* verifies, but the key could not sign
                                    * then, is revoked, or the signature is
                                    * refused (SHA-1 after 2022, expired) */
  PADLOCK_SIGNATURE_UNSUPPORTED,   /* a signature that cannot be checked */
} PadlockSignatureVerdict;

/* One signature's verdict, for rows and `padlock --batch`. */
typedef struct
{
  PadlockSignatureVerdict verdict;
  char   *signer;       /* "Bob <bob@example.org>", as the key has it
                         * (the signer's own text: whatever shows it
                         * escapes it): the user ID whose validity the verdict
                         * reports (padlock_key_get_named_user_id), so
                         * GOOD names a verified one; NULL: UNKNOWN_KEY,
                         * UNSUPPORTED */
  char   *signer_name;  /* "Bob", else the signer's label, raw too */
  char   *fingerprint;  /* upper-case hex: the signing key's, or for
                         * UNKNOWN_KEY the issuer's (a key ID when the
                         * signature names no fingerprint) */
  gint64  created;      /* the signature's creation time */
  char   *reason;       /* NOT_VALID, UNSUPPORTED: why, translated */
  GStrv   also_claims;  /* the key's other user IDs the user has not
                         * verified (padlock_key_dup_unverified_claims),
                         * raw: "also claims to be Alice <alice@…>
                         * (not verified)"; NULL when there are none */
} PadlockSignature;

void padlock_signature_free (PadlockSignature *signature);
G_DEFINE_AUTOPTR_CLEANUP_FUNC (PadlockSignature, padlock_signature_free)

/* The verdict as one word for scripts: "good", "not-certified", "bad",
 * "unknown-key", "not-valid", "unsupported" (never translated). */
const char *padlock_signature_verdict_word (PadlockSignatureVerdict verdict);

/* What a row says, translated: "Signed by Bob <bob@…>", "Signature does
 * not match: the file may have been altered after Bob signed it",
 * "Signed by an unknown key 0123…", …, then what else the key claims to
 * be ("The key also claims to be Alice <alice@…> (not verified)").  The
 * signer's name and those claims are escaped (padlock_name_escape); with
 * ISOLATE also in bidi isolates (for what the window shows; not for what
 * it says to a screen reader, nor for a terminal). */
char *padlock_signature_describe (const PadlockSignature *signature,
                                  gboolean                isolate);

/* "0123 4567 89AB …": a fingerprint (hex) as people read it aloud. */
char *padlock_fingerprint_grouped (const char *hex);

/* The verdict that sums up SIGNATURES (an array of PadlockSignature):
 * the worst, BAD before NOT_VALID, UNKNOWN_KEY, UNSUPPORTED,
 * NOT_CERTIFIED, GOOD; the index of that signature in *INDEX. FALSE when
 * the array is empty (or NULL). */
gboolean padlock_signatures_worst (GPtrArray               *signatures,
                                   PadlockSignatureVerdict *verdict,
                                   guint                   *index);

/* The certificates one decrypt job found in the keyring of HOME_DIR: the
 * engine's lookup (pl_cert_lookup_fn) is padlock_signer_lookup_find with
 * the lookup as its data.  From the job's thread only. */
typedef struct _PadlockSignerLookup PadlockSignerLookup;

PadlockSignerLookup *padlock_signer_lookup_new      (const char *home_dir);
void                 padlock_signer_lookup_free     (PadlockSignerLookup *lookup);
const pl_cert       *padlock_signer_lookup_find     (void          *lookup,
                                                     const uint8_t *fpr,
                                                     size_t         fpr_len,
                                                     const uint8_t *keyid);
/* The verdicts of VERIFICATIONS (whose certificates are LOOKUP's) as a
 * new array of PadlockSignature. */
GPtrArray           *padlock_signer_lookup_verdicts (PadlockSignerLookup     *lookup,
                                                     const pl_verifications  *verifications);

G_END_DECLS
