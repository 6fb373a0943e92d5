/* padlock-secret-input.h - reading a passphrase or a session key
 *
 * Where padlock-sop (PASSWORD and SESSIONKEY arguments) and
 * `padlock --batch` (--passphrase-file) read their secrets: a file, with
 * PADLOCK_SECRET_INDIRECT also @ENV:NAME and @FD:N (SOP's special
 * designators), and the terminal.  Plain C without GLib, for padlock-sop.
 *
 *  - Bounded: at most PL_PASSPHRASE_MAX octets (core/passphrase.h) are
 *    read from any of them; a longer source is refused with
 *    PL_ERR_PASSPHRASE_TOO_LONG, and no more than that is ever held.
 *  - Secret: the text goes straight into libgcrypt's secure memory,
 *    NUL-terminated, and out with padlock_secret_text_free, which wipes
 *    it.  No secure memory left is GPG_ERR_ENOMEM, never an abort.
 *  - Never echoed: a terminal (the prompt's, or a file or descriptor that
 *    is one) is read with echo off, one line; a SPEC is never printed by
 *    this module.
 *  - What the text means is the one passphrase rule's business
 *    (core/passphrase.h): the text comes back as read, and a NUL in it
 *    is refused (PL_ERR_PASSPHRASE_NOT_TEXT) since no peer reads past one.
 *
 * Errors: GPG_ERR_ENOENT (no such file, or the variable is not set),
 * GPG_ERR_INV_NAME (an @ prefix other than @ENV: and @FD:, or @FD:
 * without a descriptor number), an errno code of open or read, and the
 * three above.
 */
#pragma once

#include <stddef.h>
#include <gpg-error.h>

enum
{
  /* SPEC may be @ENV:NAME or @FD:N; without it, every SPEC names a file. */
  PADLOCK_SECRET_INDIRECT = 1 << 0
};

/* Reads the secret SPEC names into *TEXT (secure memory, NUL-terminated,
 * *LEN octets). */
gpg_error_t padlock_secret_read (const char *spec, unsigned int flags,
                                 char **text, size_t *len);

/* Writes PROMPT to the terminal (/dev/tty) and reads one line with echo
 * off, less its line ending, into *TEXT as above.  GPG_ERR_ENOTTY when
 * there is no terminal. */
gpg_error_t padlock_secret_read_terminal (const char *prompt, char **text,
                                          size_t *len);

/* Wipes and frees what a read returned; NULL is fine. */
void padlock_secret_text_free (char *text, size_t len);
