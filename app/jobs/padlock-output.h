/* padlock-output.h - the app's naming policy: where a job's output goes,
 * and under which name
 *
 * One plan decides the name.  The job makes it when its row is created,
 * so that the row shows the final name from the start, and again when it
 * starts, since the folder may have changed meanwhile.  At commit the
 * core's file sink (core/io.h) asks the plan for names until one is free:
 * an existing file is never replaced; "name.ext" becomes "name (1).ext",
 * "name (2).ext"...  A decrypted file takes the name stored in the
 * message when the input's own name says nothing (no .gpg, .pgp or .asc
 * to strip, or one of Padlock's hidden names) and the stored name is
 * safe.
 */
#pragma once

#include <glib.h>

#include "io.h"
#include "literal.h"
#include "padlock-job.h"

G_BEGIN_DECLS

typedef struct
{
  char *dir;                    /* the folder the output goes into */
  char *name;                   /* the plain name: "report.pdf", a hidden
                                 * "7f3k9q2m", or the input's stripped */
  char *suffix;                 /* ".gpg", ".asc", or "" when decrypting;
                                 * signing: ".sig" or ".asc" */
  gboolean stored_name_wins;    /* decrypting: a safe name stored in the
                                 * message replaces NAME */
  char *output_name;            /* the first name free in DIR now */
  /* Borrowed: while decrypting, the message's literal header, which the
   * engine fills in before commit. */
  const pl_literal_header *stored;
} PadlockOutputPlan;

/* The plan for INPUT.  HIDDEN_NAME (encryption with hidden names, from
 * padlock_output_hidden_name_new) replaces the input's name. */
PadlockOutputPlan *padlock_output_plan         (GFile                  *input,
                                                PadlockDirection        direction,
                                                const PadlockJobConfig *config,
                                                const char             *hidden_name);
void               padlock_output_plan_free    (PadlockOutputPlan      *plan);
/* The ATTEMPT-th name to try, as pl_file_name_fn (core/io.h) gives it:
 * the stored name when it wins, else the plan's name, numbered from the
 * second attempt on and shortened to fit NAME_MAX. */
gpg_error_t        padlock_output_plan_name    (const PadlockOutputPlan *plan,
                                                unsigned                 attempt,
                                                char                    *buf,
                                                gsize                    size);
/* The core's transactional file sink, named by PLAN at commit.  STORED
 * (decryption: the result's literal header; else NULL) must outlive the
 * sink, and so must PLAN. */
gpg_error_t        padlock_output_sink_new     (PadlockOutputPlan       *plan,
                                                const pl_literal_header *stored,
                                                pl_sink                **out);

/* "report.pdf.gpg" -> "report.pdf" (.gpg, .pgp, .asc, and .sig, which
 * a signed message may carry: issue 34); NULL without one of those
 * suffixes. */
char    *padlock_output_stripped_name    (const char *input_name);
/* Whether a name stored in a message may name a file: valid UTF-8, not
 * empty, no '/' or '\\' nor a character that looks like one, no control
 * or format character (Unicode Cc, Cf, Zl, Zp), not starting with '.',
 * '-', '~' or a space (any Zs), not ending with a space or a dot. */
gboolean padlock_output_name_is_safe     (const char *name,
                                          gsize       len);
/* A random name for "Hide file names": eight lowercase letters and digits
 * from libgcrypt's random ("7f3k9q2m"), at least one of them a digit. */
char    *padlock_output_hidden_name_new  (void);
/* Whether NAME has the shape padlock_output_hidden_name_new gives. */
gboolean padlock_output_name_is_hidden   (const char *name);

/* A checksum list and its detached signature (issue 34 §4, "Make a
 * checksum list"), written as one output into DIR: the list named NAME
 * ("SHA256SUMS"), numbered when taken as any output is ("SHA256SUMS
 * (1)"), and its signature named as the list plus SIG_SUFFIX (".sig",
 * or ".asc" armored).  A number is passed over when the list's name is
 * free but a signature's beside it is not (any of NAME.gpg, .sign, .asc
 * and .sig, which a check reads as the list's signature): an existing
 * file is never replaced, and never taken for the new list's.
 *
 * Both are core file sinks (core/io.h): written while invisible, the
 * list into LIST and the signature into SIG.  padlock_list_output_commit
 * links the list, then its signature under the list's name; when the
 * signature's commit fails, the list just linked is unlinked again: both
 * or neither, the list alone visible only between the two links.
 * padlock_list_output_clear aborts what was not committed. */
typedef struct
{
  char *dir;
  char *name;
  char *sig_suffix;
  pl_sink *list;
  pl_sink *sig;
  unsigned next;                /* the list's next number to try */
  char *list_path;              /* once both are committed */
  char *sig_path;
} PadlockListOutput;

/* The first name of the list NAME in DIR that is free now, by the rule
 * above: what the job shows before it writes. */
char        *padlock_list_output_first_free (const char *dir,
                                             const char *name);
/* OUT (zeroed by the caller) opens its two sinks; an error (the core
 * sink's) leaves nothing behind, OUT to be cleared all the same. */
gpg_error_t  padlock_list_output_open      (PadlockListOutput *out,
                                            const char        *dir,
                                            const char        *name,
                                            const char        *sig_suffix);
/* Commits the list, then the signature (above).  0: both are in place
 * (OUT->list_path and OUT->sig_path); else neither is, and the error is
 * the failing commit's. */
gpg_error_t  padlock_list_output_commit    (PadlockListOutput *out);
/* Aborts and frees the sinks (nothing uncommitted stays), frees the rest
 * and zeroes OUT. */
void         padlock_list_output_clear     (PadlockListOutput *out);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (PadlockOutputPlan, padlock_output_plan_free)

G_END_DECLS
