/* text.h - text from a key or a message, as it can be shown without lying
 *
 * A user ID, a file name stored in a literal packet, a notation's name, a
 * path given on a command line: each is somebody's octets, and printed
 * raw each can forge what is around it.  A newline or a CR starts a line
 * of the writer's choosing ("verified x -> x signature good …"), ESC
 * drives the terminal ("\x1B[2K" erases the real line), U+202E and
 * U+2066 reorder what a reader sees, and a space inside a field makes a
 * script that splits on spaces read one field as several.
 *
 * pl_text_escape is the one function every such text passes through
 * before a terminal, a log, a SOP line or a label sees it (the app's
 * padlock_name_escape is this function):
 *
 *   - the octets are read as UTF-8; each octet that does not begin a
 *     valid sequence (overlong forms, surrogates and code points past
 *     U+10FFFF are not valid) becomes U+FFFD, as GLib's
 *     g_utf8_make_valid does;
 *   - a backslash is doubled, so that no escape can be faked;
 *   - each character that cannot be seen or that changes how the text
 *     around it reads (Unicode general categories Cc, Cf, Zl, Zp:
 *     pl_text_char_is_hidden) is written out: "\n", "\t", "\r", else
 *     "\xHH" below U+0080, "\uHHHH" below U+10000, "\UHHHHHHHH" above,
 *     with upper-case hex digits.  A NUL octet is "\x00": the length is
 *     LEN, not the first NUL;
 *   - every other character is copied as it is.
 *
 * So the result is one line that shows every character it holds, and
 * decoding its escapes gives back the (made valid) text.
 *
 * With PL_TEXT_WORD the result is also one word, for a line that scripts
 * split on white space (padlock --batch's result lines):
 *   - a text that needs no escape, holds no '"' and no space (of any
 *     kind: Unicode Zs, U+00A0 and U+3000 too, as Python's str.split
 *     splits on them), and is not empty, is written bare;
 *   - any other text is wrapped in double quotes, a '"' inside is "\""
 *     and each space "\x20" (U+0020) or "\uHHHH" (U+00A0, U+2000…).
 * So a word is bare exactly when it does not begin with '"'; a reader
 * that splits the line meets each text as one field, and cannot take any
 * part of it for a field of its own ("signature", "good", a
 * fingerprint).  Undoing the escapes of a quoted word gives the text.
 *
 * The table of hidden characters is Unicode 15.0's (GLib 2.74's); the
 * test-text suite compares it with GLib's for every code point.
 */
#pragma once

#include <stddef.h>
#include <stdint.h>

enum
{
  PL_TEXT_WORD = 1 << 0       /* one word: bare, or quoted (above) */
};

/* Whether the code point C is a control or format character, or a line
 * or paragraph separator (Unicode Cc, Cf, Zl, Zp). */
int pl_text_char_is_hidden (uint32_t c);

/* LEN octets at IN, escaped as above (FLAGS: 0 or PL_TEXT_WORD), into
 * OUT, OUT_LEN octets, as snprintf does: the result is NUL-terminated
 * whenever OUT_LEN > 0, and is cut only between whole characters or
 * escapes (never in the middle of one).  Returns the length the whole
 * result needs, without its NUL: the caller that must not show a cut
 * text (a cut "alice@example.org.evil" would read "alice@example.org")
 * checks it against OUT_LEN, or uses pl_text_escape_dup. */
size_t pl_text_escape (const char *in, size_t len, unsigned flags,
                       char *out, size_t out_len);

/* The same, whole, in a new string (malloc; free it with free); NULL
 * only when no memory is left. */
char *pl_text_escape_dup (const char *in, size_t len, unsigned flags);
