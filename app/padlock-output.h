/* padlock-output.h - where a job's output goes, and under which name
 *
 * Output never replaces an existing file: "name.ext" becomes
 * "name (1).ext", "name (2).ext"...  The name is chosen when the output
 * is committed, so that a decrypted file can take the name stored in the
 * message, and a file that appeared meanwhile is not overwritten.
 */
#pragma once

#include <glib.h>

#include "io.h"

G_BEGIN_DECLS

/* "report.pdf" + "gpg" or "asc". */
char    *padlock_output_encrypted_name (const char *input_name,
                                        gboolean    armor);
/* "report.pdf.gpg" -> "report.pdf" (.gpg, .pgp, .asc); NULL without one of
 * those suffixes. */
char    *padlock_output_stripped_name  (const char *input_name);
/* A name stored in a message that is safe to create in a folder: no '/',
 * no control characters, no leading '.', valid UTF-8, not empty. */
gboolean padlock_output_name_is_safe   (const char *name,
                                        gsize       len);
/* N = 0: NAME + SUFFIX; else "stem (N).ext" + SUFFIX. */
char    *padlock_output_numbered_name  (const char *name,
                                        const char *suffix,
                                        guint       n);

/* Called at commit, on the job's thread: the plain name to use (else the
 * one given to padlock_output_sink_new).  Returns NULL to keep it. */
typedef char *(*PadlockOutputNameFunc) (gpointer user_data);

/* A sink writing into a temporary file in DIR that becomes
 * DIR/numbered (NAME, SUFFIX, n) for the first free n at commit. */
gpg_error_t  padlock_output_sink_new      (const char             *dir,
                                           const char             *name,
                                           const char             *suffix,
                                           PadlockOutputNameFunc   name_func,
                                           gpointer                user_data,
                                           pl_sink               **out);
/* After a successful commit: the file's path. */
const char  *padlock_output_sink_get_path (pl_sink                *sink);

G_END_DECLS
