/* app-testutil.h - helpers shared by the application's tests */
#pragma once

#include <gio/gio.h>

#include <gtk/gtk.h>

#include "padlock-application.h"
#include "padlock-keyring.h"
#include "padlock-passphrase-dialog-private.h"
#include "padlock-queue.h"
#include "padlock-window-private.h"
#include "testutil.h"

/* Writes LEN random octets to DIR/NAME; returns the path. */
char     *at_write_random      (const char *dir,
                                const char *name,
                                gsize       len);
/* Writes a passphrase file (for gpg) and returns its path. */
char     *at_passphrase_file   (const char *passphrase);
/* gpg decrypts PATH with PASSPHRASE; the plaintext, or NULL. */
GBytes   *at_gpg_decrypt       (const char *path,
                                const char *passphrase);
/* gpg encrypts IN to OUT (binary), storing LITERAL_NAME when not NULL. */
void      at_gpg_encrypt       (const char *in,
                                const char *out,
                                const char *passphrase,
                                const char *literal_name);
/* Iterates the default main context until COND or TIMEOUT_MS. */
gboolean  at_wait_until        (gboolean  (*cond) (gpointer),
                                gpointer    data,
                                guint       timeout_ms);
/* Until the queue has jobs and none is queued or running. */
gboolean  at_wait_queue_idle   (PadlockQueue *queue,
                                guint         timeout_ms);
/* Whether two files hold the same octets. */
gboolean  at_same_content      (const char *a,
                                GBytes     *b);

/* Names a message may not give its output (issue 11, item 7): bidi
 * and other invisible controls, slashes that look like "/", leading
 * dashes and tildes, spaces at the ends, dot files; NULL ends it. */
extern const char *const at_unsafe_names[];

/* Waits (asserting, at most TIMEOUT_MS) for KEYRING's next listing to
 * end: its "loaded" signal. */
void      at_wait_keyring_loaded (PadlockKeyring *keyring, guint timeout_ms);
/* Lets go of *KEYRING (and clears it) once no listing of its is under
 * way, so that its home can be removed: a listing's thread runs gpg in
 * the home even after the last unref, and one that spawns its next gpg
 * after tg_home_remove looked for gpg processes makes the home again. */
void      at_keyring_release     (PadlockKeyring **keyring);

/* Conditions for at_wait_until: JOB has ended (done, failed or
 * cancelled); JOB has written octets or ended; KEYRING has loaded (or
 * failed to); *RESULT (a GAsyncResult *) was set by at_on_result. */
gboolean  at_job_is_finished   (gpointer job);
gboolean  at_job_is_midway     (gpointer job);
gboolean  at_keyring_loaded    (gpointer keyring);
gboolean  at_has_result        (gpointer result);
/* A GAsyncReadyCallback that keeps a reference to RESULT in *DATA. */
void      at_on_result         (GObject      *source,
                                GAsyncResult *result,
                                gpointer      data);
/* Queues a job for PATH with PASSPHRASE (CONFIG NULL: the defaults);
 * the queue holds it (not a reference of the caller's). */
PadlockJob *at_run_job         (PadlockQueue     *queue,
                                const char       *path,
                                PadlockDirection  direction,
                                PadlockJobConfig *config,
                                const char       *passphrase);
/* An encryption job on FILE (which need not exist) with the default
 * settings and SECRET (when not NULL), not queued. */
PadlockJob *at_new_job         (GFile         *file,
                                PadlockSecret *secret);
/* JOB (not NULL) is done and DIR/NAME holds TEXT. */
void      at_assert_opened     (PadlockJob *job,
                                const char *dir,
                                const char *name,
                                const char *text);
/* KEYRING's key FPR, which must be there (the keyring's). */
PadlockKey *at_key_of          (PadlockKeyring *keyring,
                                const char     *fpr);
/* Runs `padlock --batch ARGS` (PADLOCK_APP) with GNUPGHOME set to
 * GNUPGHOME: its exit status, stdout in *OUT and stderr in *ERR_TEXT
 * (either may be NULL). */
int       at_run_batch         (const char        *gnupghome,
                                const char *const *args,
                                char             **out,
                                char             **err_text);

/* For the tests with a display. */

/* gtk_init, the application registered (once) and its window shown. */
PadlockApplication      *at_application   (void);
/* The application's window (padlock_application_get_window). */
PadlockWindow           *at_app_window    (void);
PadlockWindow           *at_new_window    (void);
/* Destroys WINDOW and lets the main loop take it in. */
void                     at_close_window  (PadlockWindow      *window);
/* The job in WINDOW's queue whose input is NAME: a path, or without a
 * "/" the input's base name; fails when there is none. */
PadlockJob              *at_find_job      (PadlockWindow      *window,
                                           const char         *name);
/* For at_wait_until: the speed window (a PadlockSpeedWindow) has ended
 * its measurements. */
gboolean                 at_speed_done    (gpointer            speed_window);
/* Emits the window's drop target's "drop" with these files. */
void                     at_drop          (PadlockWindow      *window,
                                           const char *const  *paths);
/* Summaries of the desktop notifications sent so far (a stand-in for
 * org.freedesktop.Notifications on the test's session bus). */
GPtrArray               *at_notifications (void);
/* Waits for the passphrase dialog, or fails. */
PadlockPassphraseDialog *at_wait_dialog   (PadlockWindow      *window);
/* The "Sign as" row inside WIDGET (a dialog), or NULL; and whether it
 * is shown (it shows once the keyring says the user can sign), for
 * at_wait_until with the dialog. */
typedef struct _PadlockSignAs PadlockSignAs;
PadlockSignAs           *at_find_sign_as  (GtkWidget          *widget);
gboolean                 at_sign_as_shown (gpointer            dialog);
/* The job row under WIDGET whose job's input is called NAME (its
 * basename), or NULL. */
typedef struct _PadlockJobRow PadlockJobRow;
PadlockJobRow           *at_find_job_row  (GtkWidget          *widget,
                                           const char         *name);
/* The shown toplevel of TYPE, or NULL (GTK keeps it). */
GtkWindow               *at_find_toplevel (GType               type);
/* The first widget under ROOT (ROOT itself too), depth first, that TEST
 * accepts with DATA; NULL when none.  The finders below are made of it. */
typedef gboolean (*AtWidgetTest) (GtkWidget *widget,
                                  gpointer   data);
GtkWidget               *at_find_widget_where (GtkWidget      *root,
                                               AtWidgetTest    test,
                                               gpointer        data);
/* The first widget of TYPE under ROOT (ROOT itself too), depth first;
 * NULL when none. */
GtkWidget               *at_find_widget   (GtkWidget          *root,
                                           GType               type);
/* The visible button under ROOT whose label, as shown (without a
 * mnemonic's underscore; a label inside the button counts), is TEXT;
 * else the first whose label starts with TEXT ("I Compared"); NULL
 * when none. */
GtkWidget               *at_find_button   (GtkWidget          *root,
                                           const char         *text);
/* Waits up to TIMEOUT_MS for a toplevel of TYPE: it (the test fails
 * when none comes). */
GtkWindow               *at_wait_toplevel (GType               type,
                                           guint               timeout_ms);
/* Waits up to TIMEOUT_MS for the button at_find_button finds under ROOT
 * for TEXT, and for it to be sensitive, then clicks it. */
void                     at_click_button  (GtkWidget          *root,
                                           const char         *text,
                                           guint               timeout_ms);
/* The text on WIDGET's clipboard, as another application would read it. */
char                    *at_clipboard_text (GtkWidget         *widget);
/* The first AdwActionRow under ROOT whose title holds TEXT, or NULL. */
GtkWidget               *at_find_action_row (GtkWidget        *root,
                                             const char       *text);
/* The shown AdwMessageDialog (a question), or NULL; and whether there
 * is one, for at_wait_until (DATA unused). */
AdwMessageDialog        *at_find_message_dialog (void);
gboolean                 at_has_message_dialog  (gpointer     data);
/* Waits until the window shows a notice (window->last_notice, which
 * the test cleared before), or fails after 10 s. */
const char              *at_wait_notice   (PadlockWindow      *window);
/* Types PASSPHRASE (twice when encrypting) and activates the button. */
void                     at_answer        (PadlockPassphraseDialog *dialog,
                                           const char              *passphrase);
/* Lets the main loop run for MS milliseconds. */
void                     at_settle        (guint               ms);
/* Renders WIDGET to $PADLOCK_SCREENSHOT_DIR/NAME.png. */
void                     at_screenshot    (GtkWidget          *widget,
                                           const char         *name);

/* A screen reader's view of this process: tests/a11y-reader, started
 * beside the window (the test runs with GTK_A11Y=atspi on a bus that
 * has at-spi).  The main loop runs while it answers. */
typedef struct _AtReader AtReader;

/* Starts the reader and waits until it sees this application. */
AtReader                *at_reader_new    (void);
void                     at_reader_free   (AtReader           *reader);
/* Sends COMMAND (see tests/a11y-reader.c) and returns its answer's
 * lines. */
GStrv                    at_reader_ask    (AtReader           *reader,
                                           const char         *command);
/* The names of every visible object of ROLE ("label", "push button",
 * ...), in tree order, joined with "|" (logged). */
char                    *at_reader_list   (AtReader           *reader,
                                           const char         *role);
/* "ROLE\tNAME" of what has the keyboard focus, as the reader sees it. */
char                    *at_reader_focus  (AtReader           *reader);
/* Waits up to TIMEOUT_MS until the reader lists an object of ROLE
 * ("label", "push button") whose name holds TEXT: that name (logged).
 * When none comes, the test fails with the names it had then. */
char                    *at_reader_wait_for (AtReader         *reader,
                                             const char       *role,
                                             const char       *text,
                                             guint             timeout_ms);
/* Waits up to TIMEOUT_MS until the reader lists objects of ROLE whose
 * names hold each of TEXTS (NULL-terminated), one walk of the tree a
 * try: the names as at_reader_list joins them (logged).  When they do
 * not come, the test fails with the names it had then. */
char                    *at_reader_wait_for_all (AtReader          *reader,
                                                 const char        *role,
                                                 const char *const *texts,
                                                 guint              timeout_ms);
/* at_reader_wait_for's opposite: until it lists no such object. */
void                     at_reader_wait_gone (AtReader        *reader,
                                              const char      *role,
                                              const char      *text,
                                              guint            timeout_ms);
/* Gives WINDOW the keyboard, as a window manager would (Xvfb has none),
 * and waits until it is active. */
void                     at_focus_window  (GtkWindow          *window);
/* Presses KEY through the reader and lets the window take it in. */
void                     at_reader_key    (AtReader           *reader,
                                           const char         *key);
/* Moves the pointer to X, Y of the screen through the reader (XTest)
 * and lets the window take it in (300 ms). */
void                     at_move_pointer  (AtReader           *reader,
                                           int                 x,
                                           int                 y);
