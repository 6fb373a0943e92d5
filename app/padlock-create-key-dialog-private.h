/* padlock-create-key-dialog-private.h - the dialog's fields, for its tests */
#pragma once

#include "padlock-create-key-dialog.h"

G_BEGIN_DECLS

struct _PadlockCreateKeyDialog
{
  AdwWindow parent_instance;

  /* Template widgets */
  GtkButton *cancel_button;
  GtkButton *create_button;
  GtkStack *stack;
  AdwEntryRow *name_row;
  AdwEntryRow *email_row;
  GtkSpinButton *years_button;
  GtkSwitch *never_switch;
  GtkLabel *error_label;
  GtkSpinner *spinner;
  GtkLabel *fingerprint_label;
  GtkLabel *revocation_label;
  GtkButton *share_button;

  /* Owned */
  PadlockKeyring *keyring;
  GCancellable *cancellable;    /* while gpg makes the key */
  char *fingerprint;
};

G_END_DECLS
