/* padlock-window-list.c - the window's list of jobs: a list view over the
 * queue that makes rows only for what is in sight (10,000 jobs), and its
 * "Only Failures" filter */
#include "padlock-window-private.h"

#include "padlock-job-row.h"

/* The filtered list catches up with jobs that fail, or are tried again,
 * at most this often: a batch of 10,000 failing files asks for one pass
 * over the list a tenth of a second, not one a job. */
#define FILTER_DELAY_MS 100

static gboolean
is_failure (PadlockJobState state)
{
  return state == PADLOCK_JOB_FAILED || state == PADLOCK_JOB_CANCELLED;
}

static gboolean
failure_filter_match (gpointer item,
                      gpointer user_data)
{
  return is_failure (padlock_job_get_state (PADLOCK_JOB (item)));
}

static void
setup_row (GtkListItemFactory *factory,
           GtkListItem        *item,
           gpointer            user_data)
{
  PadlockWindow *self = user_data;
  GtkWidget *row = padlock_job_row_new (NULL);

  gtk_list_item_set_activatable (item, FALSE);
  gtk_list_item_set_selectable (item, FALSE);
  padlock_job_row_set_hold_layout (PADLOCK_JOB_ROW (row), self->pointer_in_list);
  padlock_job_row_set_narrow (PADLOCK_JOB_ROW (row), self->narrow_rows);
  gtk_list_item_set_child (item, row);
}

typedef void (*RowSetter) (PadlockJobRow *row,
                           gboolean       value);

/* Every row the list view made (those in sight and a few more). */
static void
set_rows (GtkWidget *widget,
          RowSetter  setter,
          gboolean   value)
{
  for (GtkWidget *child = gtk_widget_get_first_child (widget); child;
       child = gtk_widget_get_next_sibling (child))
    {
      if (PADLOCK_IS_JOB_ROW (child))
        setter (PADLOCK_JOB_ROW (child), value);
      else
        set_rows (child, setter, value);
    }
}

/* Below 500 px a row takes two lines: the name, then the verdict and the
 * buttons (libadwaita 1.2 has no breakpoints). */
#define NARROW_WIDTH 500

static void
on_width_changed (PadlockWindow *self)
{
  int width = 0;
  gboolean narrow;

  g_object_get (self, "default-width", &width, NULL);
  narrow = width > 0 && width < NARROW_WIDTH;
  if (narrow == self->narrow_rows)
    return;
  self->narrow_rows = narrow;
  set_rows (GTK_WIDGET (self->job_list), padlock_job_row_set_narrow, narrow);
}

/* While the pointer is over the list nothing above it changes height
 * either: the header keeps at least the height it had, and "Only
 * Failures" (a line of its own) waits to appear until the pointer
 * leaves. */
static void
on_pointer_enter (PadlockWindow *self)
{
  self->pointer_in_list = TRUE;
  gtk_widget_set_size_request (self->summary_box, -1,
                               gtk_widget_get_height (self->summary_box));
  set_rows (GTK_WIDGET (self->job_list), padlock_job_row_set_hold_layout, TRUE);
}

static void
on_pointer_leave (PadlockWindow *self)
{
  self->pointer_in_list = FALSE;
  gtk_widget_set_size_request (self->summary_box, -1, -1);
  set_rows (GTK_WIDGET (self->job_list), padlock_job_row_set_hold_layout, FALSE);
  padlock_window_update_summary (self);
}

static void
bind_row (GtkListItemFactory *factory,
          GtkListItem        *item,
          gpointer            user_data)
{
  padlock_job_row_set_job (PADLOCK_JOB_ROW (gtk_list_item_get_child (item)),
                           PADLOCK_JOB (gtk_list_item_get_item (item)));
}

static void
unbind_row (GtkListItemFactory *factory,
            GtkListItem        *item,
            gpointer            user_data)
{
  padlock_job_row_set_job (PADLOCK_JOB_ROW (gtk_list_item_get_child (item)), NULL);
}

/* The list follows new jobs (the newest in sight) until the user
 * scrolls away from its end; scrolling back to the end follows again.
 * A few pixels short of the end is the end: the list view's estimates
 * of rows not yet seen move it by as much. */
#define END_SLACK 8
/* Frames the list follows for at most, until its end stays put (the
 * estimates of the new rows give way to their measures). */
#define FOLLOW_FRAMES 30

static double
end_of (GtkAdjustment *adjustment)
{
  return gtk_adjustment_get_upper (adjustment) - gtk_adjustment_get_page_size (adjustment);
}

/* At the end, the list follows; it stops when the user moves up, which
 * moves the value and not the list's length: rows that change height or
 * come (the length changes with the value) decide nothing. */
static void
on_scrolled (GtkAdjustment *adjustment,
             PadlockWindow *self)
{
  double value = gtk_adjustment_get_value (adjustment);
  double upper = gtk_adjustment_get_upper (adjustment);

  if (value >= end_of (adjustment) - END_SLACK)
    self->scrolled_away = FALSE;
  else if (!self->following && upper == self->scrolled_upper && value < self->scrolled_value)
    self->scrolled_away = TRUE;
  self->scrolled_value = value;
  self->scrolled_upper = upper;
}

/* Each frame, to the end (where the new jobs are), until it is there
 * two frames running. */
static gboolean
follow_tick (GtkWidget     *widget,
             GdkFrameClock *clock,
             gpointer       user_data)
{
  PadlockWindow *self = user_data;
  GtkAdjustment *adjustment = gtk_scrolled_window_get_vadjustment (self->scroller);
  gboolean there = gtk_adjustment_get_value (adjustment) >= end_of (adjustment) - 0.5;

  if (self->scrolled_away || (there && self->follow_frames > 0 && self->follow_there)
      || ++self->follow_frames > FOLLOW_FRAMES)
    {
      self->follow_id = 0;
      return G_SOURCE_REMOVE;
    }
  self->follow_there = there;
  self->following = TRUE;
  gtk_adjustment_set_value (adjustment, end_of (adjustment));
  self->following = FALSE;
  return G_SOURCE_CONTINUE;
}

static void
on_jobs_changed (GListModel    *model,
                 guint          position,
                 guint          removed,
                 guint          added,
                 PadlockWindow *self)
{
  /* New jobs come at the end; others (a job tried again, back through
   * the filter) are where the user put the list. */
  if (!added || self->scrolled_away
      || position + added != g_list_model_get_n_items (model))
    return;
  self->follow_frames = 0;
  self->follow_there = FALSE;
  if (!self->follow_id)
    self->follow_id = gtk_widget_add_tick_callback (GTK_WIDGET (self->job_list),
                                                    follow_tick, self, NULL);
}

static gboolean
on_filter_timeout (gpointer user_data)
{
  PadlockWindow *self = user_data;
  GtkFilterChange change;

  if (self->failures_entered && self->failures_left)
    change = GTK_FILTER_CHANGE_DIFFERENT;
  else if (self->failures_entered)
    change = GTK_FILTER_CHANGE_LESS_STRICT;
  else
    change = GTK_FILTER_CHANGE_MORE_STRICT;
  self->failures_entered = self->failures_left = FALSE;
  self->filter_id = 0;
  gtk_filter_changed (self->failures_filter, change);
  return G_SOURCE_REMOVE;
}

void
padlock_window_list_job_state (PadlockWindow *self,
                               PadlockJob    *job)
{
  PadlockJobState state = padlock_job_get_state (job);

  /* Unfiltered (or the window is going), nothing to follow. */
  if (!self->failures_button || !gtk_toggle_button_get_active (self->failures_button))
    return;
  /* Failed or cancelled, it comes in; tried again (queued once more: a
   * job only ever goes back to the queue from an end), it may leave.
   * Starting and finishing well move nothing in or out. */
  if (is_failure (state))
    self->failures_entered = TRUE;
  else if (state == PADLOCK_JOB_QUEUED)
    self->failures_left = TRUE;
  else
    return;
  if (!self->filter_id)
    self->filter_id = g_timeout_add (FILTER_DELAY_MS, on_filter_timeout, self);
}

static void
on_failures_toggled (PadlockWindow *self)
{
  gboolean active = gtk_toggle_button_get_active (self->failures_button);

  g_clear_handle_id (&self->filter_id, g_source_remove);
  self->failures_entered = self->failures_left = FALSE;
  /* Off, the list has no filter at all: jobs' changes cost it nothing. */
  gtk_filter_list_model_set_filter (self->job_filter_model,
                                    active ? self->failures_filter : NULL);
}

void
padlock_window_list_sync_failures (PadlockWindow *self,
                                   guint          n_failures)
{
  gboolean shown = gtk_widget_get_visible (GTK_WIDGET (self->failures_button));

  /* Not while the pointer is over the list (on_pointer_enter). */
  gtk_widget_set_visible (GTK_WIDGET (self->failures_button),
                          n_failures > 0 && (shown || !self->pointer_in_list));
  if (!n_failures)
    gtk_toggle_button_set_active (self->failures_button, FALSE);
}

void
padlock_window_init_list (PadlockWindow *self)
{
  GtkListItemFactory *factory = gtk_signal_list_item_factory_new ();
  GtkNoSelection *selection;

  self->failures_filter =
    GTK_FILTER (gtk_custom_filter_new (failure_filter_match, NULL, NULL));
  self->job_filter_model =
    gtk_filter_list_model_new (G_LIST_MODEL (g_object_ref (self->queue)), NULL);
  selection = gtk_no_selection_new (G_LIST_MODEL (self->job_filter_model));
  GtkEventController *motion = gtk_event_controller_motion_new ();

  g_signal_connect (factory, "setup", G_CALLBACK (setup_row), self);
  g_signal_connect (factory, "bind", G_CALLBACK (bind_row), NULL);
  g_signal_connect (factory, "unbind", G_CALLBACK (unbind_row), NULL);
  gtk_list_view_set_factory (self->job_list, factory);
  gtk_list_view_set_model (self->job_list, GTK_SELECTION_MODEL (selection));
  g_object_unref (factory);
  g_object_unref (selection);
  /* Finished rows shrink only when the pointer is not over them. */
  g_signal_connect_swapped (motion, "enter", G_CALLBACK (on_pointer_enter), self);
  g_signal_connect_swapped (motion, "leave", G_CALLBACK (on_pointer_leave), self);
  gtk_widget_add_controller (GTK_WIDGET (self->job_list), motion);
  g_signal_connect (self, "notify::default-width", G_CALLBACK (on_width_changed), NULL);
  /* After the list view's own handler: it knows the new rows. */
  g_signal_connect (self->job_filter_model, "items-changed",
                    G_CALLBACK (on_jobs_changed), self);
  g_signal_connect (gtk_scrolled_window_get_vadjustment (self->scroller), "value-changed",
                    G_CALLBACK (on_scrolled), self);
  on_width_changed (self);
  g_signal_connect_object (self->failures_button, "toggled",
                           G_CALLBACK (on_failures_toggled), self, G_CONNECT_SWAPPED);
}

void
padlock_window_dispose_list (PadlockWindow *self)
{
  if (self->follow_id && self->job_list)
    gtk_widget_remove_tick_callback (GTK_WIDGET (self->job_list), self->follow_id);
  self->follow_id = 0;
  g_clear_handle_id (&self->filter_id, g_source_remove);
  g_clear_object (&self->failures_filter);
}
