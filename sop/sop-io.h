/* sop-io.h - padlock-sop's exit codes, and what every subcommand reads
 * and writes
 *
 * sop.c (encrypt, decrypt, armor, ...), sop-keys.c (generate-key,
 * extract-cert) and sop-sigs.c (sign, verify, ...) each use these, and
 * none of them calls another for them: this file depends on the core
 * and padlock-secret-input.h alone.
 *
 *  - Data comes from standard input or a file named by an argument, which
 *    may also be @FD:N; it goes to standard output.
 *  - Secrets (passwords, session keys) are never taken from the command
 *    line itself: an argument names a file, @ENV:NAME or @FD:N, as SOP
 *    requires, and the text lands in secure memory.
 *  - Diagnostics go to standard error as "padlock-sop: ...", a path in
 *    them escaped (text.h): a file name is anybody's text.
 *  - Every function that can fail returns a SOP exit code, having said
 *    why when it is not SOP_OK.
 */
#pragma once

#include <stddef.h>
#include <stdint.h>

#include "armor.h"

/* SOP exit codes (draft-dkg-openpgp-stateless-cli). */
enum
{
  SOP_OK = 0,
  SOP_NO_SIGNATURE = 3,
  SOP_UNSUPPORTED_ASYMMETRIC_ALGO = 13,
  SOP_CERT_CANNOT_ENCRYPT = 17,
  SOP_MISSING_ARG = 19,
  SOP_CANNOT_DECRYPT = 29,
  SOP_PASSWORD_NOT_HUMAN_READABLE = 31,
  SOP_UNSUPPORTED_OPTION = 37,
  SOP_BAD_DATA = 41,
  SOP_EXPECTED_TEXT = 53,
  SOP_OUTPUT_EXISTS = 59,
  SOP_MISSING_INPUT = 61,
  SOP_KEY_IS_PROTECTED = 67,
  SOP_KEY_CANNOT_SIGN = 79,
  SOP_UNSUPPORTED_SUBCOMMAND = 69,
  SOP_UNSUPPORTED_SPECIAL_PREFIX = 71,
  SOP_AMBIGUOUS_INPUT = 73,
  SOP_INCOMPATIBLE_OPTIONS = 83,
  SOP_UNSUPPORTED_PROFILE = 89
};

/* "--name=value" or "--name value" at ARGV[*I]: the value (*I past it)
 * or NULL. */
const char *sop_option_value (const char *name, int argc, char **argv,
                              int *i);

/* Reads the indirect input SPEC (a file, @ENV:NAME or @FD:N:
 * padlock-secret-input.h), a password or a session key, into *OUT
 * (secure memory, NUL-terminated, *OUTLEN octets).  SPEC is never
 * printed unless it opened: a password given literally, by mistake,
 * must not be echoed. */
int sop_read_indirect (const char *spec, char **out, size_t *outlen);

/* Wipes and frees what sop_read_indirect read (NULL is fine). */
void sop_free_secret (char *s);

/* Reads the file PATH (or @FD:N) into *DATA (*LEN octets; free ()), at
 * most 64 MiB. */
int sop_read_file (const char *path, unsigned char **data, size_t *len);

/* Reads all of standard input into *DATA (*LEN octets; free ()), at
 * most 64 MiB. */
int sop_read_stdin (unsigned char **data, size_t *len);

/* DATA to standard output, armored with LABEL unless BINARY. */
int sop_write_output (const uint8_t *data, size_t len, pl_armor_label label,
                      int binary);

/* "padlock-sop: PATH: WHAT" on stderr, the path escaped (text.h): a file
 * name is anybody's text, and one with a newline would add a line. */
void sop_say_path (const char *path, const char *fmt, ...)
  __attribute__ ((format (printf, 2, 3)));
