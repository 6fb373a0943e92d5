/* padlock-speed-window-private.h - the window's parts, for the tests */
#pragma once

#include "padlock-speed.h"
#include "padlock-speed-window.h"

G_BEGIN_DECLS

struct _PadlockSpeedWindow
{
  AdwWindow parent_instance;

  /* Template widgets */
  GtkButton *run_button;
  GtkLabel *summary_label;
  GtkGrid *grid;

  /* Owned */
  GCancellable *cancellable;

  /* Borrowed: children of the grid */
  GtkLevelBar *bars[PADLOCK_SPEED_N_TESTS];
  GtkLabel *values[PADLOCK_SPEED_N_TESTS];
  GtkWidget *axis;              /* the scale's marks */

  double rates[PADLOCK_SPEED_N_TESTS];
  double upper;                 /* the scale's end: the fastest result */
  gboolean running;
};

G_END_DECLS
