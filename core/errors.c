/* errors.c - the one table from gpg_error_t to outcomes and words */
#include "errors.h"
#include "clearsign.h"
#include "passphrase.h"

#include <string.h>

_Static_assert (PL_CLEARSIGN_MAX == (size_t) 256 << 20,
                "pl_error_message says 256 MiB");
_Static_assert (PL_PASSPHRASE_MAX == 4096,
                "pl_error_message says 4096 octets");

pl_outcome
pl_error_outcome (gpg_error_t err)
{
  switch (gpg_err_code (err))
    {
    case GPG_ERR_NO_ERROR:
      return PL_OUTCOME_OK;
    case GPG_ERR_BAD_PASSPHRASE:
    case GPG_ERR_NO_PASSPHRASE:
    case GPG_ERR_BAD_KEY:
    case PL_ERR_PASSPHRASE_TOO_LONG:
    case PL_ERR_PASSPHRASE_BLANK:
    case PL_ERR_PASSPHRASE_NOT_TEXT:
      return PL_OUTCOME_BAD_PASSPHRASE;
    case GPG_ERR_CHECKSUM:
    case GPG_ERR_BAD_SIGNATURE:
      return PL_OUTCOME_INTEGRITY;
    case GPG_ERR_INV_PACKET:
    case GPG_ERR_INV_ARMOR:
    case GPG_ERR_TRUNCATED:
    case GPG_ERR_BAD_DATA:
    case GPG_ERR_NO_DATA:
    case GPG_ERR_UNKNOWN_PACKET:
    case GPG_ERR_NOT_ENCRYPTED:
    case GPG_ERR_EOF:
      return PL_OUTCOME_MALFORMED;
    case GPG_ERR_CIPHER_ALGO:
    case GPG_ERR_DIGEST_ALGO:
    case GPG_ERR_COMPR_ALGO:
    case GPG_ERR_UNSUPPORTED_ALGORITHM:
    case GPG_ERR_UNKNOWN_VERSION:
    case GPG_ERR_NOT_SUPPORTED:
      return PL_OUTCOME_UNSUPPORTED;
    case PL_ERR_UNPROTECTED:
      return PL_OUTCOME_UNPROTECTED;
    case GPG_ERR_NO_SECKEY:
    case PL_ERR_KEY_PROTECTED:
      return PL_OUTCOME_PUBLIC_KEY;
    case GPG_ERR_TOO_LARGE:
    case PL_ERR_BOMB:
    case PL_ERR_KEY_TOO_LARGE:
    case PL_ERR_CLEARSIGN_TOO_LARGE:
      return PL_OUTCOME_TOO_COSTLY;
    case PL_ERR_TOO_MANY_KEYS:
    case PL_ERR_KEY_PACKET_VERSION:
      return PL_OUTCOME_MALFORMED;
    case GPG_ERR_CANCELED:
      return PL_OUTCOME_CANCELLED;
    case GPG_ERR_EEXIST:
      return PL_OUTCOME_OUTPUT_EXISTS;
    default:
      if (gpg_err_code (err) & GPG_ERR_SYSTEM_ERROR)
        return PL_OUTCOME_IO;
      return PL_OUTCOME_OTHER;
    }
}

const char *
pl_error_message (gpg_error_t err)
{
  switch (gpg_err_code (err))
    {
    case GPG_ERR_BAD_PASSPHRASE:
      return PL_N_ ("The passphrase is wrong.");
    case GPG_ERR_NO_PASSPHRASE:
      return PL_N_ ("No passphrase was given.");
    case PL_ERR_PASSPHRASE_TOO_LONG:
      /* PL_PASSPHRASE_MAX */
      return PL_N_ ("The passphrase is too long: Padlock reads at most "
                    "4096 octets of it.");
    case PL_ERR_PASSPHRASE_BLANK:
      return PL_N_ ("The passphrase is empty or only whitespace.");
    case PL_ERR_PASSPHRASE_NOT_TEXT:
      return PL_N_ ("The passphrase is not UTF-8 text, or holds a NUL "
                    "character.");
    case GPG_ERR_BAD_KEY:
      return PL_N_ ("The session key does not fit the file.");
    case GPG_ERR_CHECKSUM:
    case GPG_ERR_BAD_SIGNATURE:
      return PL_N_ ("The file is damaged or has been tampered with; "
                    "nothing was written.");
    case GPG_ERR_TRUNCATED:
      return PL_N_ ("The file is incomplete: it ends too early.");
    case GPG_ERR_INV_ARMOR:
      return PL_N_ ("The file's ASCII armor is damaged.");
    case GPG_ERR_NOT_ENCRYPTED:
      return PL_N_ ("The file is an OpenPGP message, but it is not "
                    "encrypted.");
    case GPG_ERR_INV_PACKET:
    case GPG_ERR_BAD_DATA:
    case GPG_ERR_NO_DATA:
    case GPG_ERR_UNKNOWN_PACKET:
    case GPG_ERR_EOF:
      return PL_N_ ("The file is not an OpenPGP message, or it is damaged.");
    case GPG_ERR_CIPHER_ALGO:
      return PL_N_ ("The file uses a cipher that Padlock does not support.");
    case GPG_ERR_DIGEST_ALGO:
      return PL_N_ ("The file uses a hash algorithm that Padlock does not "
                    "support.");
    case GPG_ERR_COMPR_ALGO:
      return PL_N_ ("The file uses a compression method that Padlock does "
                    "not support.");
    case GPG_ERR_UNSUPPORTED_ALGORITHM:
    case GPG_ERR_UNKNOWN_VERSION:
    case GPG_ERR_NOT_SUPPORTED:
      return PL_N_ ("The file uses an OpenPGP feature that Padlock does "
                    "not support.");
    case PL_ERR_UNPROTECTED:
      return PL_N_ ("The file has no integrity protection, so it could "
                    "have been altered undetectably; Padlock refuses to "
                    "decrypt it.");
    case GPG_ERR_NO_SECKEY:
      return PL_N_ ("No secret key opens this file: it is encrypted to a "
                    "public key.");
    case PL_ERR_KEY_PROTECTED:
      return PL_N_ ("The secret key for this file is locked: its "
                    "password is needed.");
    case GPG_ERR_NO_KEY:
      return PL_N_ ("No key or passphrase was given.");
    case GPG_ERR_UNUSABLE_PUBKEY:
      return PL_N_ ("The certificate has no valid key that can encrypt.");
    case GPG_ERR_UNSUPPORTED_PROTOCOL:
      return PL_N_ ("A recipient cannot read the chosen profile.");
    case GPG_ERR_TOO_LARGE:
      return PL_N_ ("The file asks for more key-derivation work than "
                    "Padlock allows.");
    case PL_ERR_KEY_TOO_LARGE:
      return PL_N_ ("The key is larger than Padlock accepts (RSA up to "
                    "16,384 bits): it would cost too much to use.");
    case PL_ERR_CLEARSIGN_TOO_LARGE:
      return PL_N_ ("The signed text is larger than the 256 MiB that "
                    "Padlock reads whole to check its signature.");
    case PL_ERR_BOMB:
      return PL_N_ ("The file expands more than 1000-fold: likely a "
                    "decompression bomb; nothing was written.");
    case PL_ERR_TOO_MANY_KEYS:
      return PL_N_ ("The file has too many key packets.");
    case PL_ERR_KEY_PACKET_VERSION:
      return PL_N_ ("The file's key packets are of another version than "
                    "its encrypted data, which OpenPGP forbids: it was "
                    "made wrong or altered.");
    case GPG_ERR_CANCELED:
      return PL_N_ ("Cancelled.");
    case GPG_ERR_EEXIST:
      return PL_N_ ("The output file already exists.");
    case GPG_ERR_ENOSPC:
      return PL_N_ ("The disk is full.");
    case GPG_ERR_EDQUOT:
      return PL_N_ ("Your disk quota is used up.");
    case GPG_ERR_EFBIG:
      return PL_N_ ("The file is larger than the disk or a limit on this "
                    "process allows.");
    case GPG_ERR_EIO:
      return PL_N_ ("A read or write error occurred.");
    case GPG_ERR_ENOENT:
      return PL_N_ ("The file does not exist.");
    case GPG_ERR_EACCES:
    case GPG_ERR_EPERM:
      return PL_N_ ("Permission denied.");
    default:
      return gpg_strerror (err);
    }
}
