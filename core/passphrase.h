/* passphrase.h - the one passphrase rule
 *
 * Where a passphrase comes from decides which of its octets are the
 * passphrase.  Every entry point (the window, `padlock --batch`,
 * padlock-sop) hands the text it read, and how it read it, to these
 * functions, and nothing else trims:
 *
 *  - PL_PASSPHRASE_TYPED (the window's entry, a terminal line): every
 *    octet, as typed.
 *  - PL_PASSPHRASE_FILE (`--passphrase-file`): as gpg 2.2 reads its
 *    --passphrase-file, the first line, less its "\n"; what follows is
 *    not read.  Measured with gpg 2.2.40: gpg keeps a CR before the "\n"
 *    (a file "secret\r\n" locks with "secret\r"), so the CR stays here
 *    too, and what `--batch` writes opens in gpg with the same file.
 *  - PL_PASSPHRASE_SOP (padlock-sop's PASSWORD: a file, @ENV:NAME,
 *    @FD:N): FILE's reading, then SOP's rule on top: trailing white
 *    space (space, tab, CR, LF) is not part of a password.
 *
 * Encryption locks with that passphrase, and only after
 * pl_passphrase_check accepts it.  Decryption tries it first, then the
 * other forms the same text has under the other rules (and in earlier
 * Padlock releases), so that a file locked by gpg, a SOP peer or another
 * entry point with the same passphrase source opens: the first line as
 * it is and less "\r\n", the first line trimmed, the whole text as it is,
 * less one line ending, and trimmed.  Every form is a prefix of the text,
 * so a form is its length.
 *
 * A passphrase source is at most PL_PASSPHRASE_MAX octets, from every
 * entry point: the README and the man pages say so.
 */
#pragma once

#include <stddef.h>
#include <gpg-error.h>

typedef enum
{
  PL_PASSPHRASE_TYPED = 0,
  PL_PASSPHRASE_FILE,
  PL_PASSPHRASE_SOP
} pl_passphrase_rule;

/* The longest passphrase source read, in octets: far above any
 * passphrase a person types or a password manager makes, and far below
 * the 1 MiB of secure memory (pl_init) that holds it and its copies. */
#define PL_PASSPHRASE_MAX 4096

/* The most forms decryption tries for one text. */
#define PL_PASSPHRASE_FORMS 6

/* A source over PL_PASSPHRASE_MAX octets. */
#define PL_ERR_PASSPHRASE_TOO_LONG GPG_ERR_LINE_TOO_LONG
/* Encryption: a passphrase that is empty or only white space. */
#define PL_ERR_PASSPHRASE_BLANK GPG_ERR_MISSING_VALUE
/* A passphrase that is not UTF-8 text, or holds a NUL. */
#define PL_ERR_PASSPHRASE_NOT_TEXT GPG_ERR_INV_PASSPHRASE

/* The octets of TEXT (LEN long, as read) that are the passphrase under
 * RULE: a prefix of TEXT.  No checks. */
size_t pl_passphrase_length (const char *text, size_t len,
                             pl_passphrase_rule rule);

/* Whether TEXT (LEN octets as read under RULE) may lock a message: a
 * source of at most PL_PASSPHRASE_MAX octets, and a passphrase
 * (pl_passphrase_length) that is UTF-8 without NUL, and not empty or only
 * white space.  0, or PL_ERR_PASSPHRASE_TOO_LONG, _NOT_TEXT or _BLANK,
 * in that order.  *PASSPHRASE_LEN (may be NULL) receives its length. */
gpg_error_t pl_passphrase_check (const char *text, size_t len,
                                 pl_passphrase_rule rule,
                                 size_t *passphrase_len);

/* The forms decryption tries for TEXT, in order: RULE's own first, each
 * once.  Fills FORMS with their lengths and returns how many (1 to
 * PL_PASSPHRASE_FORMS). */
size_t pl_passphrase_forms (const char *text, size_t len,
                            pl_passphrase_rule rule,
                            size_t forms[PL_PASSPHRASE_FORMS]);

/* 1 when the LEN octets at S are UTF-8 (RFC 3629: no overlong forms, no
 * surrogates, nothing past U+10FFFF). */
int pl_utf8_valid (const char *s, size_t len);
