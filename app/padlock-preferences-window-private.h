/* padlock-preferences-window-private.h - the template, for the tests */
#pragma once

#include "padlock-preferences-window.h"

G_BEGIN_DECLS

struct _PadlockPreferencesWindow
{
  AdwPreferencesWindow parent_instance;

  /* Template widgets */
  AdwComboRow *profile_row;
  GtkStringList *profile_list;
  AdwComboRow *cipher_row;
  AdwComboRow *compression_row;
  GtkSwitch *armor_switch;
  AdwActionRow *folder_row;
  GtkWidget *folder_reset_button;
  GtkSwitch *delete_switch;
  GtkSwitch *unpack_switch;
  GtkSpinButton *concurrency_spin;
  GtkSwitch *hide_names_switch;
  AdwComboRow *open_limit_row;  /* built in code (add_safety_group) */

  /* Owned */
  GSettings *settings;
  GtkFileChooserNative *chooser;
};

G_END_DECLS
