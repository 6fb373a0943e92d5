/* padlock-people-private.h - the template, for the tests */
#pragma once

#include "padlock-lookup-box.h"
#include "padlock-people.h"

G_BEGIN_DECLS

struct _PadlockPeople
{
  GtkBox parent_instance;

  /* Template widgets */
  GtkLabel *status_label;       /* no home, no keys, loading, failed */
  GtkLabel *import_hint_label;
  GtkButton *import_button;
  GtkSearchEntry *search_entry;
  GtkButton *paste_import_button; /* key text in the search */
  GtkListBox *match_list;       /* what the search finds */
  PadlockLookupBox *lookup_box; /* "Search on the Internet for …" */
  GtkWidget *warning_box;       /* "Padlock cannot tell that …" */
  GtkLabel *warning_label;
  GtkLabel *warning_detail_label;
  GtkButton *warning_use_button;
  GtkButton *warning_cancel_button; /* "Don't Use It", the safe one */
  GtkListBox *chosen_list;      /* the people, removable */
  GtkCheckButton *me_check;     /* "Also encrypt to me (…)" */
  GtkCheckButton *hide_check;   /* "Hide recipients" */
  GtkLabel *who_label;          /* "Who can open it: …" */

  /* Owned */
  PadlockKeyring *keyring;
  GSettings *settings;
  GPtrArray *chosen;            /* PadlockKey, in the order picked */
  PadlockKey *pending;          /* unverified, waiting for the warning */
  PadlockRecipients *recipients; /* of the current choice, or NULL */
  GCancellable *loading;        /* reading RECIPIENTS' certificates */
  char *format;
  char *matched;                /* the search text match_list is for */
  char *import_said;            /* what the last import changed, or NULL */
  gulong loaded_id;

  gboolean passphrase;
  gboolean restored;            /* last-recipients chosen again */
};

G_END_DECLS
