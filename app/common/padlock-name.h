/* padlock-name.h - a name as it can be shown without lying */
#pragma once

#include <gio/gio.h>

G_BEGIN_DECLS

/* Whether C is a control or format character (Cc, Cf, Zl, Zp): one that
 * cannot be seen, or changes how the text around it reads. */
gboolean  padlock_name_char_is_hidden (gunichar    c);
/* NAME (a file name, a user ID, a notation, an error that quotes one:
 * any text that came from a file, a key or a message) as one line that
 * shows every character it holds: core/text.h's pl_text_escape, the one
 * escaping function of the program.  Valid UTF-8 (an invalid octet
 * becomes U+FFFD), each control or format character (Unicode Cc, Cf, Zl,
 * Zp: a newline, ESC, U+202E RIGHT-TO-LEFT OVERRIDE, a zero-width space)
 * written out as "\n", "\t", "\r", "\x1B" or "\u202E", a backslash
 * doubled, so that no escape can be faked. */
char     *padlock_name_escape        (const char *name);
/* The same as one word for a line that scripts split on spaces
 * (padlock --batch's result lines): bare when it needs no escape and
 * holds no '"' and no space, else in double quotes, with '"' as "\""
 * and a space as "\x20" (PL_TEXT_WORD). */
char     *padlock_name_word          (const char *name);
/* The same, isolated for bidi (U+2068 FIRST STRONG ISOLATE ... U+2069
 * POP DIRECTIONAL ISOLATE): a right-to-left name cannot reorder the text
 * around it.  For everything the window shows. */
char     *padlock_name_display       (const char *name);
/* padlock_name_display of FILE's base name. */
char     *padlock_name_display_file  (GFile      *file);
/* Whether NAME holds characters that change the order in which the rest
 * of it is drawn (bidi controls: U+202A..U+202E, U+2066..U+2069, the
 * left-to-right, right-to-left and Arabic letter marks): a row then
 * warns that the name is not what it seems. */
gboolean  padlock_name_changes_look  (const char *name);

G_END_DECLS
