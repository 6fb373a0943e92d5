/* padlock-my-key-window-private.h - the window's fields, for its tests */
#pragma once

#include "padlock-my-key-window.h"

G_BEGIN_DECLS

struct _PadlockMyKeyWindow
{
  AdwWindow parent_instance;

  /* Template widgets */
  AdwToastOverlay *toast_overlay;
  GtkLabel *name_label;
  GtkLabel *email_label;
  GtkLabel *fingerprint_label;
  GtkLabel *expiry_label;
  GtkButton *extend_button;
  GtkButton *copy_button;
  GtkButton *save_button;
  GtkButton *backup_button;

  /* Owned */
  PadlockKeyring *keyring;
  char *fingerprint;
  PadlockKey *key;              /* from the keyring's last listing */
  GCancellable *cancellable;    /* of the operations under way */
  GtkFileChooserNative *chooser;
  gboolean choosing_secret;     /* the chooser is for the backup */
};

G_END_DECLS
