/* padlock-archive-window-private.h - the window's parts, for the tests */
#pragma once

#include "padlock-archive-window.h"

G_BEGIN_DECLS

struct _PadlockArchiveWindow
{
  AdwWindow parent_instance;

  /* Template widgets */
  AdwWindowTitle *title;
  GtkListView *list_view;
  GtkLabel *status_label;

  /* Owned */
  PadlockMemfd *archive;
  pl_tar_listing files;
  GtkStringList *model;         /* the rows: indexes into FILES */
  guint64 limit;
};

G_END_DECLS
