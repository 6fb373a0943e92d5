/* padlock-window-private.h - what the window's aspect files share */
#pragma once

#include "padlock-graph.h"
#include "padlock-held-keys.h"
#include "padlock-keyring.h"
#include "padlock-keys-page.h"
#include "padlock-passphrase-dialog.h"
#include "padlock-plan.h"
#include "padlock-window.h"

G_BEGIN_DECLS

/* Files waiting for a passphrase: new ones, or jobs to try again. */
typedef struct
{
  PadlockPassphraseMode mode;
  GPtrArray *files;             /* GFile: jobs to make */
  GPtrArray *jobs;              /* PadlockJob: jobs to retry */
  char *heading;
  char *error;
  char *note;                   /* what follows this dialog; may be NULL */
  GtkWidget *sign_as;           /* encrypting: "Sign as" (padlock-sign-as.h),
                                 * a reference; NULL otherwise */
} PadlockRequest;

struct _PadlockWindow
{
  AdwApplicationWindow parent_instance;

  /* Open Without Saving (padlock-window-open.c): the files whose jobs
   * are to decrypt into memory, until the queue gets them; or NULL. */
  GHashTable *open_pending;

  /* Template widgets */
  AdwToastOverlay *toast_overlay;
  GtkStack *stack;
  AdwStatusPage *status_page;
  GtkButton *choose_button;
  GtkWidget *drop_hint;
  GtkListView *job_list;       /* over JOB_FILTER_MODEL over QUEUE */
  PadlockGraph *graph;
  GtkLabel *throughput_label;
  GtkLabel *files_label;
  GtkMenuButton *menu_button;
  GtkWidget *summary_box;
  GtkScrolledWindow *scroller;
  GtkToggleButton *failures_button;   /* "Only Failures" */
  GtkListBox *imports_list;     /* key files to import (padlock-window-import.c) */
  AdwViewStack *view_stack;     /* "files" and "keys" (padlock-window-pages.c) */
  PadlockKeysPage *keys_page;
  /* The user's own key (padlock-window-mykey.c) */
  GtkButton *create_key_button; /* on the first page, while there is none */
  GtkRevealer *expiry_revealer; /* "Your key expires on …" */
  GtkLabel *expiry_label;
  GtkButton *extend_button;

  /* Owned */
  GSettings *settings;
  PadlockQueue *queue;
  GtkDropTarget *drop_target;
  GtkFilter *failures_filter;   /* failed and cancelled jobs */
  GQueue requests;              /* PadlockRequest */
  PadlockRequest *request;      /* the one being asked */
  GtkFileChooserNative *chooser;
  PadlockOpenMode chooser_mode; /* what the chooser's files are for */
  char *last_notice;
  /* The user's GnuPG keys (padlock-window-keys.c) */
  PadlockKeyring *keyring;      /* the application's, once needed */
  PadlockHeldKeys *held_keys;   /* from its last listing; NULL before */
  GPtrArray *for_keys;          /* GFile: decryptions waiting for it */
  char *expiring_fingerprint;   /* the user's key the banner is about */
  GCancellable *mykey_cancellable; /* Extend, from the banner */

  /* Borrowed */
  GtkFilterListModel *job_filter_model;  /* the list view's, filtered or not */
  PadlockPassphraseDialog *dialog;
  AdwMessageDialog *quit_dialog;  /* "Stop 2 running jobs?" */

  guint next_group;             /* the last padlock_job_set_group given */
  guint filter_id;              /* the filter catches up (padlock-window-list.c) */
  gboolean failures_entered;    /* since FILTER_ID was set: a job failed */
  gboolean failures_left;       /* a failed job was tried again */
  guint graph_id;
  gint64 graph_time;            /* the last bin's end, 0 before the first */
  guint64 graph_bytes;          /* padlock_queue_get_bytes then */
  guint idle_ticks;
  gboolean quitting;            /* confirmed: the jobs are being stopped */
  gboolean quit_app;            /* and the application quits after */
  gboolean finish_scheduled;    /* finish_quitting is on its way */
  gboolean pointer_in_list;     /* finished rows keep their height */
  gboolean narrow_rows;         /* below 500 px: rows on two lines */
  gboolean scrolled_away;       /* the user left the list's end: new
                                 * jobs do not move it */
  gboolean following;           /* the list moves to a new job */
  double scrolled_value;        /* the list's position and length at */
  double scrolled_upper;        /* its last move */
  guint follow_id;              /* its tick callback, while it moves */
  guint follow_frames;          /* frames it moved in */
  gboolean follow_there;        /* at the end at the last frame */
  gboolean earlier_batches;     /* the list holds jobs of an earlier batch */
};

void padlock_window_init_files (PadlockWindow *self);
/* Keys from the clipboard or from files (padlock-window-paste.c):
 * win.paste-key (Ctrl+V, unless a text entry takes it) and
 * win.import-key, "Add Key…", a file chooser. */
void padlock_window_paste_class_init (GtkWidgetClass *widget_class);
/* Reads the clipboard: files go where dropped files go; text with a key
 * block (padlock_text_holds_key_block) is imported off the main thread
 * and a notice says what changed; other text gets a notice that it is
 * no key. */
void padlock_window_paste (PadlockWindow *self);
/* Imports TEXT's keys (pasted armor) and says what changed in a notice. */
void padlock_window_import_key_text (PadlockWindow *self,
                                     const char    *text);
/* Imports each of FILES (key files), one after the other, then says
 * what changed in one notice. */
void padlock_window_import_key_files (PadlockWindow  *self,
                                      GFile         **files,
                                      guint           n_files);
/* The Files and Keys pages: win.show-files (Alt+1), win.show-keys
 * (Alt+2), and win.show-person, which opens the page of the key whose
 * fingerprint it is given (padlock-window-pages.c).  The keyring is
 * asked for when the Keys page is first shown. */
void padlock_window_pages_class_init (GtkWidgetClass *widget_class);
void padlock_window_init_pages (PadlockWindow *self);
/* The list view, its rows and the "Only Failures" filter
 * (padlock-window-list.c). */
void padlock_window_init_list (PadlockWindow *self);
void padlock_window_dispose_list (PadlockWindow *self);
/* JOB's state changed: the filtered list follows (soon, not at once). */
void padlock_window_list_job_state (PadlockWindow *self,
                                    PadlockJob    *job);
/* "Only Failures" is offered while N_FAILURES (failed and cancelled
 * jobs) is not 0, and turns off when it comes to 0. */
void padlock_window_list_sync_failures (PadlockWindow *self,
                                        guint          n_failures);
void padlock_window_dispose_files (PadlockWindow *self);
void padlock_window_notice     (PadlockWindow *self,
                                const char    *message);
/* The header: counts by state, the rate or the outcome, and which menu
 * items apply. */
void padlock_window_update_summary (PadlockWindow *self);
/* Asks again for every file that failed on a wrong passphrase. */
void padlock_window_retry_failed (PadlockWindow *self);
/* Opens the window's one native chooser (none may be open) for several
 * files or folders (ACTION), whose answer goes to
 * padlock_window_chooser_response with MODE. */
void padlock_window_show_chooser (PadlockWindow        *self,
                                  PadlockOpenMode       mode,
                                  const char           *title,
                                  GtkFileChooserAction  action);

/* A dropped or pasted file list's files to padlock_window_add_files,
 * as the window decides (PADLOCK_OPEN_AUTO). */
void padlock_window_add_file_list (PadlockWindow *self,
                                   GdkFileList   *list);
/* The files (GFile) CHOOSER's user chose, in its order. */
GPtrArray *padlock_window_chosen_files (GtkNativeDialog *chooser);
/* The file chooser's answer: its files go to padlock_window_add_files
 * with chooser_mode. */
void padlock_window_chooser_response (GtkNativeDialog *chooser,
                                      int              response,
                                      PadlockWindow   *self);
/* Whether FILES (GFile) holds a folder: "Put them in one archive" is then
 * checked at first (padlock-window-folders.c). */
gboolean padlock_window_any_folder (GPtrArray *files);
/* win.open-folder (padlock-window-folders.c). */
void padlock_window_folders_class_init (GtkWidgetClass *widget_class);
/* Signs each of FILES with the user's signing key, a job each
 * (PADLOCK_DIRECTION_SIGN), once the keyring is listed; or, with LIST,
 * makes one signed checksum list of them all (a job,
 * padlock_job_new_checksum_list) with the same key.  Says why when it
 * cannot (no key that signs, a folder, files of two folders)
 * (padlock-window-sign.c). */
void padlock_window_sign_files (PadlockWindow  *self,
                                GFile         **files,
                                guint           n_files,
                                gboolean        list);
/* win.sign, "Sign Files…", and win.checksum-list, "Make Checksum
 * List…" (padlock-window-sign.c). */
void padlock_window_sign_class_init (GtkWidgetClass *widget_class);

/* Asks for the passphrase of FILES (GFile) to decrypt, with NOTE (may be
 * NULL); nothing when FILES is empty (padlock-window-files.c). */
void padlock_window_ask_decrypt (PadlockWindow *self,
                                 GPtrArray     *files,
                                 const char    *note);

/* The user's GnuPG keys (padlock-window-keys.c). */
void padlock_window_dispose_keys (PadlockWindow *self);
/* INPUT's plan (padlock-plan.h) with the window's keys: FLAGS, and
 * PADLOCK_PLAN_KEYS_PENDING in an application's window, whose keyring
 * is asked for by the first message for a public key. */
PadlockPlan padlock_window_keys_plan  (PadlockWindow    *self,
                                       PadlockInput     *input,
                                       PadlockPlanAsk    ask,
                                       PadlockPlanFlags  flags);
/* Does what PLAN (a decryption's: not ENCRYPT nor IMPORT_KEYS) says of
 * FILE: a job with the keys or for a signature to check, in *GROUP (0:
 * a new group, then kept there for the next files); FILE added to ASKED
 * for the passphrase dialog; or kept until the keyring is listed, then
 * planned again and asked for then.  SIGNED_FILE: for CHECK_DETACHED,
 * the data file given with FILE (padlock_plan_pair), else NULL (the
 * one beside it). */
void        padlock_window_keys_start (PadlockWindow    *self,
                                       GFile            *file,
                                       PadlockPlan       plan,
                                       GFile            *signed_file,
                                       guint            *group,
                                       GPtrArray        *asked);
/* The application's keyring, asked for now; NULL when the window is not
 * a PadlockApplication's. */
PadlockKeyring *padlock_window_keys_get_keyring (PadlockWindow *self);
/* A decryption verifies its signatures with the user's GnuPG keyring,
 * the one the application's keyring reads (gpg's default home); it asks
 * gpg only when the file is signed. */
void     padlock_window_set_verify_home (PadlockJob *job);
/* Gives a decryption the held keys, once the keyring has listed. */
void     padlock_window_keys_set_held_keys (PadlockWindow *self,
                                            PadlockJob    *job);
/* Whether JOB was started for the keys, without a passphrase. */
gboolean padlock_window_keys_is_key_job (PadlockWindow *self,
                                         PadlockJob    *job);
/* Whether JOB, a key job that failed, has an SKESK: its passphrase is
 * then asked for (once). */
gboolean padlock_window_keys_offer_passphrase (PadlockWindow *self,
                                               PadlockJob    *job);

/* The user's own key (padlock-window-mykey.c): win.create-key,
 * win.show-my-key (a fingerprint), win.extend-my-key; "Create Your Key"
 * on the first page while the keyring has no secret key, and the banner
 * 30 days before the user's key expires. */
void padlock_window_mykey_class_init (GtkWidgetClass *widget_class);
void padlock_window_init_mykey       (PadlockWindow  *self);
void padlock_window_dispose_mykey    (PadlockWindow  *self);

/* Key files (padlock-window-import.c).  FILE holds certificates: a row
 * offers to import them; FALSE when there is no keyring or the engine
 * reads no certificate in it (the caller then treats it as any file). */
gboolean padlock_window_offer_import   (PadlockWindow *self,
                                        GFile         *file);
/* The keyring listed again: the rows say anew what it lacks. */
void     padlock_window_imports_refresh (PadlockWindow *self);
gboolean padlock_window_has_imports    (PadlockWindow *self);

/* padlock-window-open.c (issue 38): a job the queue just got is marked
 * to decrypt into memory when its file was asked to be opened without
 * saving; a done one is handed to its viewer. */
void _padlock_window_open_mark     (PadlockWindow *self,
                                    PadlockJob    *job);
void _padlock_window_open_job_done (PadlockWindow *self,
                                    PadlockJob    *job);
/* win.show-archive(s): the list of files of the folder opened without
 * saving from the input at that path, again (a job row's button). */
void _padlock_window_open_class_init (GtkWidgetClass *widget_class);

G_END_DECLS
