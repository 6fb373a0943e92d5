/* errors.h - sorting gpg_error_t into what a user must tell apart */
#pragma once

#include <gpg-error.h>

typedef enum
{
  PL_OUTCOME_OK = 0,
  PL_OUTCOME_BAD_PASSPHRASE,    /* no passphrase opened it */
  PL_OUTCOME_INTEGRITY,         /* damaged or tampered with */
  PL_OUTCOME_MALFORMED,         /* not OpenPGP, or truncated */
  PL_OUTCOME_UNSUPPORTED,       /* an algorithm or version we do not read */
  PL_OUTCOME_UNPROTECTED,       /* no integrity protection: refused */
  PL_OUTCOME_PUBLIC_KEY,        /* encrypted to a public key only */
  PL_OUTCOME_TOO_COSTLY,        /* key derivation over budget, or a
                                 * decompression bomb */
  PL_OUTCOME_CANCELLED,
  PL_OUTCOME_IO,
  PL_OUTCOME_OUTPUT_EXISTS,
  PL_OUTCOME_OTHER
} pl_outcome;

/* Codes the engine gives that gpg-error has no better name for. */
#define PL_ERR_UNPROTECTED GPG_ERR_FORBIDDEN
#define PL_ERR_INTEGRITY GPG_ERR_CHECKSUM
/* Inflated output past both 1 GiB (by default) and 1000x its input. */
#define PL_ERR_BOMB GPG_ERR_LIMIT_REACHED
/* More SKESKs than are tried, and none of those tried opened it. */
#define PL_ERR_TOO_MANY_KEYS GPG_ERR_TOO_MANY
/* Key packets of another version than the encrypted data that follows
 * (a v3 PKESK or v4 SKESK before a v2 SEIPD, a v6 one before SEIPD v1:
 * RFC 9580 §5.1, §5.3 MUST NOT), dropped, and nothing else opened the
 * message. */
#define PL_ERR_KEY_PACKET_VERSION GPG_ERR_INV_DATA
/* A secret key that a PKESK names stayed locked: no key passphrase, or
 * none that fits. */
#define PL_ERR_KEY_PROTECTED GPG_ERR_UNUSABLE_SECKEY
/* A key over the sizes Padlock uses (pubkey.h: an RSA, DSA or ElGamal
 * modulus over 16,384 bits, an RSA exponent over 64 bits). */
#define PL_ERR_KEY_TOO_LARGE GPG_ERR_BAD_PUBKEY
/* A cleartext-signed message (or a text to sign) over PL_CLEARSIGN_MAX
 * (clearsign.h): read whole, it is bounded. */
#define PL_ERR_CLEARSIGN_TOO_LARGE GPG_ERR_EMSGSIZE

pl_outcome pl_error_outcome (gpg_error_t err);

/* Marks a message for translation without translating it: the core has
 * no gettext.  xgettext knows the keyword (po/meson.build), so the
 * messages are listed once, here; the app translates them where they
 * become GErrors (app/common/padlock-error.c). */
#define PL_N_(message) (message)

/* One sentence in plain words for a user, in English; marked with PL_N_,
 * except gpg_strerror's for codes without a sentence of ours. */
const char *pl_error_message (gpg_error_t err);
