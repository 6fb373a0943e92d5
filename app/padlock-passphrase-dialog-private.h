/* padlock-passphrase-dialog-private.h - the template, for the tests */
#pragma once

#include <pwquality.h>

#include "padlock-passphrase-dialog.h"

G_BEGIN_DECLS

struct _PadlockPassphraseDialog
{
  AdwWindow parent_instance;

  /* Template widgets */
  GtkLabel *heading_label;
  GtkLabel *error_label;
  GtkPasswordEntry *entry;
  GtkPasswordEntry *confirm_entry;
  GtkLabel *confirm_label;
  GtkWidget *strength_box;
  GtkLevelBar *strength_bar;
  GtkLabel *strength_label;
  GtkLabel *match_label;
  GtkButton *generate_button;
  GtkButton *ok_button;
  GtkButton *cancel_button;
  GtkCheckButton *one_archive_check;
  GtkButton *copy_button;
  GtkLabel *format_label;
  GtkLabel *note_label;
  GtkBox *people_slot;

  /* Borrowed (the slot holds it) */
  PadlockPeople *people;        /* encryption: whom to, or NULL */

  /* Owned */
  pwquality_settings_t *pwquality;

  PadlockPassphraseMode mode;
  gboolean finished;
  gboolean accepted;            /* finished by Encrypt or Decrypt */
  gboolean generated_shown;     /* the entries hold what Generate made */
};

G_END_DECLS
