/* padlock-job-row.c - one job in the list: what, how far, how fast */
#include "padlock-job-row.h"

#include <adwaita.h>
#include <glib/gi18n.h>

#include "padlock-accessible.h"
#include "padlock-checksums.h"
#include "padlock-desktop.h"
#include "padlock-error.h"
#include "padlock-format.h"
#include "padlock-key.h"
#include "padlock-name.h"
#include "padlock-profile.h"
#include "padlock-memfd-archive.h"
#include "padlock-save-as.h"
#include "padlock-signature.h"
#include "padlock-window.h"

struct _PadlockJobRow
{
  GtkBox parent_instance;

  /* Template widgets */
  GtkImage *icon;
  GtkLabel *title_label;
  GtkImage *name_warning;
  GtkLabel *subtitle_label;
  GtkProgressBar *progress_bar;
  GtkLabel *status_label;
  GtkLabel *format_label;
  GtkLabel *error_label;
  GtkLabel *verdict_label;
  GtkWidget *details_box;
  GtkWidget *line_box;
  GtkWidget *actions_box;
  GtkWidget *narrow_box;
  GtkButton *show_button;
  GtkButton *open_button;
  GtkButton *cancel_button;
  GtkButton *retry_button;
  GtkWidget *signature_box;
  GtkImage *signature_icon;
  GtkLabel *signature_label;
  GtkButton *verify_button;     /* "Verify…": the signer's page */
  GtkButton *look_up_button;    /* "Look Up Key…": an unknown signer */
  GtkButton *delete_button;

  /* Owned */
  PadlockJob *job;              /* NULL while the row shows no job */
  gulong notify_id;             /* on JOB */
  gboolean hold_layout;         /* the pointer is over the list */
  gboolean shown_full;          /* JOB's last sync kept the full layout */
  gboolean narrow;              /* verdict and buttons on a second line */
  char *signature_said;         /* the signature's verdict, for the row's
                                 * accessible name; NULL: none shown */
  char *verify_fingerprint;     /* the unverified signer's, for "Verify…" */
  char *look_up_fingerprint;    /* the unknown signer's, for "Look Up Key…" */
};

G_DEFINE_FINAL_TYPE (PadlockJobRow, padlock_job_row, GTK_TYPE_BOX)

enum {
  PROP_0,
  PROP_JOB,
  N_PROPS
};

static GParamSpec *properties[N_PROPS];

/* Open Without Saving (issue 38): a done job's plaintext is in memory,
 * shown by its viewer. */
static char *
open_without_saving_text (PadlockJob *job,
                          const char *size)
{
  g_autofree char *app = NULL;

  if (!padlock_job_get_opened_in (job))
    /* Translators: decrypted into memory, %s the size; no viewer
     * could be started (a toast said why). */
    return g_strdup_printf (_("Decrypted %s · not saved"), size);
  app = padlock_name_escape (padlock_job_get_opened_in (job));
  /* Translators: %s is an application, "Document Viewer". */
  return g_strdup_printf (_("Opened in %s · not saved"), app);
}

/* TEXT (taken) with no-break spaces for its spaces: a number stays with
 * its unit when the verdict wraps ("54.7 MB/s", never "54.7 / MB/s"),
 * as g_format_size's sizes do already. */
static char *
glued (char *text)
{
  g_auto(GStrv) words = g_strsplit (text, " ", -1);

  g_free (text);
  return g_strjoinv ("\u00a0", words);
}

/* What a done job did: its size and rate, and what came of the
 * original; BRIEF, for the one-line verdict, in a few words (the whole
 * in its tooltip).  Once the output went (Delete), "Deleted". */
static char *
done_text (PadlockJob *job,
           gboolean    brief)
{
  gint64 total = padlock_job_get_bytes_total (job);
  PadlockDirection direction = padlock_job_get_direction (job);
  g_autofree char *size = NULL;
  g_autofree char *rate = NULL;

  if (padlock_job_get_output_deleted (job))
    /* Translators: a row's verdict once the file it wrote was deleted
     * (Delete, beside a bad signature). */
    return g_strdup (_("Deleted"));
  /* The plain file's size, whichever way it went; else (a folder
   * unpacked) what went through, the count its rate is of. */
  size = g_format_size (padlock_job_get_plaintext_size (job) >= 0
                        ? padlock_job_get_plaintext_size (job)
                        : MAX (total, 0));
  rate = glued (padlock_format_rate (padlock_job_get_throughput (job)));
  /* Open Without Saving (issue 38): in memory, never a file. */
  if (padlock_job_get_open_without_saving (job))
    return open_without_saving_text (job, size);
  if (padlock_job_get_original_deleted (job))
    return g_strdup_printf (_("Encrypted %s at %s · original deleted"), size, rate);
  /* Verify-and-delete reads the output back, which only a passphrase
   * lets Padlock do: say so rather than keep it silently. */
  if (padlock_job_get_original_kept (job) && brief)
    /* Translators: the short form of the next one, for a row on one
     * line. */
    return g_strdup_printf (_("Encrypted %s at %s · original kept"), size, rate);
  if (padlock_job_get_original_kept (job))
    return g_strdup_printf (_("Encrypted %s at %s · original kept: only "
                              "the people chosen can open the copy, so "
                              "Padlock cannot check it before deleting"),
                            size, rate);
  if (direction == PADLOCK_DIRECTION_SIGN)
    /* Translators: a file's detached signature was made; its size and
     * the speed, as in "Encrypted %s at %s". */
    return g_strdup_printf (_("Signed %s at %s"), size, rate);
  if (padlock_job_get_verifies (job))
    /* Translators: a signed text's signature was checked (or a detached
     * signature's over its data file); its size and the speed, as in
     * "Decrypted %s at %s". */
    return g_strdup_printf (_("Checked %s at %s"), size, rate);
  return g_strdup_printf (direction == PADLOCK_DIRECTION_ENCRYPT
                          ? _("Encrypted %s at %s") : _("Decrypted %s at %s"),
                          size, rate);
}

static char *
status_text (PadlockJob *job)
{
  gint64 total = padlock_job_get_bytes_total (job);
  g_autofree char *size = total >= 0 ? g_format_size (total) : NULL;
  g_autofree char *rate = NULL;
  g_autofree char *left = NULL;
  gboolean encrypt = padlock_job_get_direction (job) == PADLOCK_DIRECTION_ENCRYPT;
  /* A detached signature: the file is read, FILE.sig written. */
  gboolean sign = padlock_job_get_direction (job) == PADLOCK_DIRECTION_SIGN;
  /* A cleartext-signed file, a signed message and a detached signature
   * are not decrypted: their signatures are checked, and the text or
   * data written (a detached signature's data file only read). */
  gboolean checks = padlock_job_get_verifies (job);

  switch (padlock_job_get_state (job))
    {
    case PADLOCK_JOB_QUEUED:
      return size ? g_strdup_printf (_("Waiting · %s"), size)
                  : g_strdup (_("Waiting"));
    case PADLOCK_JOB_RUNNING:
    case PADLOCK_JOB_CHECKING_OUTPUT:
      /* Its own state: no data moves while the passphrase is stretched. */
      if (padlock_job_get_waiting_for_memory (job))
        return g_strdup (_("Waiting for memory…"));
      if (padlock_job_get_deriving (job))
        return g_strdup (_("Deriving key…"));
      rate = padlock_format_rate (padlock_job_get_throughput (job));
      left = padlock_format_time_left (padlock_job_get_time_left (job));
      if (padlock_job_get_state (job) == PADLOCK_JOB_CHECKING_OUTPUT)
        return g_strdup_printf (_("Verifying · %s"), rate);
      /* A checksum list's: which list, while its files hash. */
      if (padlock_job_get_checks_list (job))
        {
          g_autofree char *list = padlock_name_display (padlock_job_get_output_name (job));
          /* Translators: a checksum list's files are being hashed,
           * "Checking SHA256SUMS…". */
          g_autofree char *checking = g_strdup_printf (_("Checking %s…"), list);

          if (padlock_job_get_throughput (job) <= 0)
            return g_steal_pointer (&checking);
          return left ? g_strdup_printf ("%s · %s · %s", checking, rate, left)
                      : g_strdup_printf ("%s · %s", checking, rate);
        }
      if (padlock_job_get_throughput (job) <= 0)
        return g_strdup (encrypt ? _("Encrypting…")
                         : sign ? _("Signing…")
                         : checks ? _("Checking…")
                         : _("Decrypting…"));
      return left ? g_strdup_printf ("%s · %s", rate, left) : g_strdup (rate);
    case PADLOCK_JOB_DONE:
      return done_text (job, FALSE);
    case PADLOCK_JOB_CANCELLED:
      return g_strdup (_("Cancelled · nothing was written"));
    case PADLOCK_JOB_FAILED:
      return g_strdup (encrypt ? _("Not encrypted")
                       : sign ? _("Not signed")
                       : checks ? _("Not checked")
                       : _("Not decrypted"));
    default:
      g_assert_not_reached ();
    }
}

/* Whether the row keeps the layout it showed its job in while the job
 * runs: the pointer is over the list (padlock_job_row_set_hold_layout)
 * and the job finished under it.  Nothing then changes the row's height:
 * no second line, no wrapped error, the bar stays; they come when the
 * pointer leaves. */
static gboolean
padlock_job_row_is_held (PadlockJobRow *self)
{
  return padlock_job_is_finished (self->job) && self->hold_layout && self->shown_full;
}

/* A done job's verdict has its size and rate in full, whatever the width:
 * the name beside it gives way (it is cut in the middle).  An error may
 * be cut, its whole in the tooltip; on two lines (narrow), it wraps. */
static void
padlock_job_row_sync_verdict_width (PadlockJobRow *self)
{
  gboolean done = self->job && padlock_job_get_state (self->job) == PADLOCK_JOB_DONE;
  gboolean cut = !self->narrow && !done;

  gtk_label_set_ellipsize (self->verdict_label, cut ? PANGO_ELLIPSIZE_END
                                                    : PANGO_ELLIPSIZE_NONE);
  gtk_label_set_max_width_chars (self->verdict_label, cut ? 36 : -1);
}

/* A finished row is one line: the name, the verdict (what the status or
 * the error label would say) and the actions; what it wrote, and the
 * whole error, in the verdict's tooltip.  Runs after the full layout's
 * labels are set, from which it takes its text. */
static void
padlock_job_row_sync_compact (PadlockJobRow *self)
{
  /* Under the pointer, a row that showed this job in full keeps its
   * height until the pointer leaves the list: no row moves under a
   * click aimed at another. */
  gboolean compact = padlock_job_is_finished (self->job) && !padlock_job_row_is_held (self);
  gboolean done = padlock_job_get_state (self->job) == PADLOCK_JOB_DONE;
  gboolean deleted = done && padlock_job_get_output_deleted (self->job);
  gboolean failed = padlock_job_get_state (self->job) == PADLOCK_JOB_FAILED
                    && padlock_job_get_error (self->job);
  GtkLabel *source = failed ? self->error_label : self->status_label;
  g_autofree char *tooltip = NULL;
  g_autofree char *written = NULL;

  self->shown_full = !compact;
  /* Done, the second line names what it wrote ("→ a (1).jpg"); a list
   * checked by its own name has none, nor a file deleted since. */
  gtk_widget_set_visible (GTK_WIDGET (self->subtitle_label),
                          (!compact || done)
                          && *gtk_label_get_text (self->subtitle_label));
  gtk_widget_set_visible (self->details_box, !compact);
  gtk_widget_set_visible (GTK_WIDGET (self->verdict_label), compact);
  if (compact)
    gtk_widget_add_css_class (GTK_WIDGET (self), "compact");
  else
    gtk_widget_remove_css_class (GTK_WIDGET (self), "compact");
  if (failed)
    gtk_widget_add_css_class (GTK_WIDGET (self->verdict_label), "error");
  else
    gtk_widget_remove_css_class (GTK_WIDGET (self->verdict_label), "error");
  padlock_job_row_sync_verdict_width (self);
  /* The name is beside it: "Wrong passphrase", not "… for NAME". */
  if (failed && g_error_matches (padlock_job_get_error (self->job), PADLOCK_ERROR,
                                 PADLOCK_ERROR_BAD_PASSPHRASE))
    gtk_label_set_text (self->verdict_label, _("Wrong passphrase"));
  else if (done && !padlock_job_get_detail (self->job))
    {
      g_autofree char *brief = done_text (self->job, TRUE);

      gtk_label_set_text (self->verdict_label, brief);
    }
  else
    gtk_label_set_text (self->verdict_label, gtk_label_get_text (source));
  /* The name of what was written, and in which format; or that nothing
   * was (a failed or cancelled job leaves no output), or no longer is. */
  if (deleted)
    {
      g_autofree char *name = padlock_name_display (padlock_job_get_output_name (self->job));

      /* Translators: a row's tooltip, the file the job wrote. */
      written = g_strdup_printf (_("%s was deleted"), name);
    }
  else
    written = g_strdup (done && !padlock_job_get_checks_list (self->job)
                        ? gtk_label_get_text (self->subtitle_label)
                        : _("Nothing was written"));
  tooltip = g_strdup_printf ("%s\n%s", written, gtk_label_get_text (source));
  if (gtk_widget_get_visible (GTK_WIDGET (self->format_label)))
    {
      char *more = g_strdup_printf ("%s\n%s", tooltip,
                                    gtk_label_get_text (self->format_label));
      g_free (tooltip);
      tooltip = more;
    }
  gtk_widget_set_tooltip_text (GTK_WIDGET (self->verdict_label), compact ? tooltip : NULL);
}

/* What a screen reader says of the row when the keyboard comes to it:
 * the file, then its state in the words the row shows ("budget.ods,
 * Encrypted 2 MB at 40 MB/s"). */
static void
padlock_job_row_sync_label (PadlockJobRow *self,
                            const char    *input_name)
{
  gboolean compact = gtk_widget_get_visible (GTK_WIDGET (self->verdict_label));
  /* A failure held in the full layout (its error not shown yet) is said
   * with its error all the same. */
  gboolean failed = padlock_job_get_state (self->job) == PADLOCK_JOB_FAILED
                    && padlock_job_get_error (self->job);
  GtkLabel *state = compact ? self->verdict_label
                  : failed ? self->error_label
                  : self->status_label;
  /* Translators: a row of the list, as a screen reader says it: the
   * file's name, then its state ("Decrypted 2 MB at 40 MB/s"). */
  g_autofree char *label = g_strdup_printf (_("%s, %s"), input_name,
                                            gtk_label_get_text (state));

  /* The signature's verdict, when there is one, as the row shows it. */
  if (self->signature_said)
    {
      char *more = g_strdup_printf (_("%s, %s"), label, self->signature_said);
      g_free (label);
      label = more;
    }

  gtk_accessible_update_property (GTK_ACCESSIBLE (self), GTK_ACCESSIBLE_PROPERTY_LABEL,
                                  label, -1);
}

/* A signature's verdict as the row shows it (ISOLATE) or says it, and
 * whether JOB's output went since. */
static char *
verdict_text (const PadlockSignature *signature,
              gboolean                isolate,
              gboolean                deleted,
              PadlockJob             *job)
{
  g_autofree char *text = padlock_signature_describe (signature, isolate);

  if (!deleted)
    return g_steal_pointer (&text);
  /* Translators: a signature's verdict, then that the file went. */
  return g_strdup_printf (padlock_job_get_clearsigned (job)
                          ? _("%s. The signed text was deleted.")
                          : padlock_job_get_verifies (job)
                          /* Translators: a signed message's data,
                           * written beside it, was deleted. */
                          ? _("%s. The signed data was deleted.")
                          : _("%s. The decrypted file was deleted."),
                          text);
}

static const char *const verdict_icons[] = {
  [PADLOCK_SIGNATURE_GOOD] = "emblem-ok-symbolic",
  [PADLOCK_SIGNATURE_NOT_CERTIFIED] = "dialog-warning-symbolic",
  [PADLOCK_SIGNATURE_BAD] = "dialog-error-symbolic",
  [PADLOCK_SIGNATURE_UNKNOWN_KEY] = "dialog-question-symbolic",
  [PADLOCK_SIGNATURE_NOT_VALID] = "dialog-warning-symbolic",
  [PADLOCK_SIGNATURE_UNSUPPORTED] = "dialog-question-symbolic",
};

/* "Verify…" beside a NOT_CERTIFIED verdict: it opens the signer's page
 * (win.show-person, padlock-person-page.h), where comparing the
 * fingerprint verifies the key; SIGNATURE NULL hides it. */
static void
padlock_job_row_offer_verify (PadlockJobRow          *self,
                              const PadlockSignature *signature)
{
  gboolean offer = signature && signature->fingerprint;

  g_free (self->verify_fingerprint);
  self->verify_fingerprint = offer ? g_strdup (signature->fingerprint) : NULL;
  gtk_widget_set_visible (GTK_WIDGET (self->verify_button), offer);
  if (offer)
    {
      g_autofree char *name = padlock_name_display (signature->signer_name
                                                    ? signature->signer_name
                                                    : signature->fingerprint);
      /* Translators: the button that opens a signer's key, to verify it. */
      g_autofree char *said = g_strdup_printf (_("Verify the key of %s"), name);

      gtk_accessible_update_property (GTK_ACCESSIBLE (self->verify_button),
                                      GTK_ACCESSIBLE_PROPERTY_LABEL, said, -1);
    }
}

static void
on_verify_clicked (PadlockJobRow *self)
{
  if (self->verify_fingerprint)
    gtk_widget_activate_action (GTK_WIDGET (self), "win.show-person", "s",
                                self->verify_fingerprint);
}

/* "Look Up Key…" beside an UNKNOWN_KEY verdict: the lookup of the
 * issuer's fingerprint (win.look-up-key, padlock-lookup-window.h), with
 * the signed file to check again; SIGNATURE NULL hides it. */
static void
padlock_job_row_offer_look_up (PadlockJobRow          *self,
                               const PadlockSignature *signature)
{
  gboolean offer = signature && signature->fingerprint && *signature->fingerprint;

  g_free (self->look_up_fingerprint);
  self->look_up_fingerprint = offer ? g_strdup (signature->fingerprint) : NULL;
  gtk_widget_set_visible (GTK_WIDGET (self->look_up_button), offer);
  if (offer)
    {
      g_autofree char *grouped = padlock_fingerprint_grouped (signature->fingerprint);
      /* Translators: the button that searches the Internet for a key. */
      g_autofree char *said = g_strdup_printf (_("Look up the key %s"), grouped);

      gtk_accessible_update_property (GTK_ACCESSIBLE (self->look_up_button),
                                      GTK_ACCESSIBLE_PROPERTY_LABEL, said, -1);
    }
}

static void
on_look_up_clicked (PadlockJobRow *self)
{
  GFile *input = self->job ? padlock_job_get_input (self->job) : NULL;
  g_autofree char *uri = input ? g_file_get_uri (input) : g_strdup ("");

  if (!self->look_up_fingerprint)
    return;
  gtk_widget_activate_action (GTK_WIDGET (self), "win.look-up-key", "(ss)",
                              self->look_up_fingerprint, uri);
}

/* The verdict line under the name: TEXT shown (names isolated), SAID for
 * the row's accessible name (taken), with ICON and CLASS ("success",
 * "warning" or "error"); TEXT NULL hides it. */
static void
padlock_job_row_show_verdict (PadlockJobRow *self,
                              const char    *text,
                              char          *said,
                              const char    *icon,
                              const char    *class)
{
  static const char *const classes[] = { "success", "warning", "error" };

  gtk_widget_set_visible (self->signature_box, text != NULL);
  for (guint i = 0; i < G_N_ELEMENTS (classes); i++)
    gtk_widget_remove_css_class (self->signature_box, classes[i]);
  g_free (self->signature_said);
  self->signature_said = said;
  if (!text)
    return;
  gtk_label_set_text (self->signature_label, text);
  gtk_image_set_from_icon_name (self->signature_icon, icon);
  if (class)
    gtk_widget_add_css_class (self->signature_box, class);
}

/* TEXT without the bidi isolates padlock_name_display put around names:
 * as a screen reader is told it. */
static char *
without_isolates (const char *text)
{
  GString *out = g_string_new (NULL);

  for (const char *p = text; *p; p = g_utf8_next_char (p))
    {
      gunichar c = g_utf8_get_char (p);

      if (c != 0x2068 && c != 0x2069)
        g_string_append_unichar (out, c);
    }
  return g_string_free (out, FALSE);
}

/* A done encryption's line under its name: whom it was signed as and
 * who can open it, "Signed as Alice · for Bob and you"; nothing for a
 * passphrase alone (the format line says so while it runs).  The signer
 * is the key the job signed with: a done job that had one signed. */
static void
padlock_job_row_sync_sent (PadlockJobRow *self)
{
  PadlockJob *job = self->job;
  PadlockKey *signer = padlock_job_get_signing_key (job);
  g_autofree char *openers = padlock_job_dup_openers (job);
  g_autofree char *text = NULL;

  if (padlock_job_get_state (job) != PADLOCK_JOB_DONE || (!signer && !openers))
    {
      padlock_job_row_show_verdict (self, NULL, NULL, NULL, NULL);
      return;
    }
  if (signer)
    {
      const char *name = *padlock_key_get_name (signer) ? padlock_key_get_name (signer)
                                                        : padlock_key_get_label (signer);
      g_autofree char *shown = padlock_name_display (name);

      text = openers
             /* Translators: a done encryption's row: the user's key it
              * was signed with, then who can open it, "Signed as Alice
              * · for Bob <bob@…> and you". */
             ? g_strdup_printf (_("Signed as %s · for %s"), shown, openers)
             /* Translators: a done encryption's row, signed with the
              * user's key "Alice", for a passphrase. */
             : g_strdup_printf (_("Signed as %s"), shown);
    }
  else
    /* Translators: a done encryption's row: who can open it, "For Bob
     * <bob@…> and you". */
    text = g_strdup_printf (_("For %s"), openers);
  /* The one-line verdict says "original kept"; here, why. */
  if (padlock_job_get_original_kept (job))
    {
      char *more = g_strdup_printf (_("%s · original kept: only the people chosen can "
                                      "open the copy, so Padlock cannot check it "
                                      "before deleting"), text);

      g_free (text);
      text = more;
    }
  padlock_job_row_show_verdict (self, text, without_isolates (text),
                                signer ? "document-edit-symbolic"
                                       : "system-users-symbolic", NULL);
}

/* A checksum list's totals, "2 ok, 0 differ, 3 not here". */
static char *
list_totals_text (PadlockChecksums *checksums)
{
  PadlockChecksumsTotals t;

  padlock_checksums_get_totals (checksums, &t);
  if (t.n_unreadable)
    /* Translators: a checksum list's files, counted: those that match,
     * those that do not, those not in its folder, those unreadable. */
    return g_strdup_printf (_("%u ok, %u differ, %u not here, %u unreadable"),
                            t.n_ok, t.n_differ, t.n_not_here, t.n_unreadable);
  /* Translators: a checksum list's files, counted: those that match,
   * those that do not, those not in its folder. */
  return g_strdup_printf (_("%u ok, %u differ, %u not here"),
                          t.n_ok, t.n_differ, t.n_not_here);
}

/* A checksum list's job, once its files were looked at (done, or failed
 * over them): the list's verdict (padlock_job_dup_list_verdict: its
 * signature, then its files) and the totals.  Good and every file
 * matching: a check mark; a file that differs (the job failed): red;
 * unsigned, a weak match or a signature short of good: a warning.
 * Nothing to delete: the check wrote nothing. */
static void
padlock_job_row_sync_list (PadlockJobRow *self)
{
  PadlockChecksums *checksums = padlock_job_get_checksums (self->job);
  PadlockJobState state = padlock_job_get_state (self->job);
  PadlockSignatureVerdict verdict = PADLOCK_SIGNATURE_GOOD;
  PadlockChecksumsTotals t;
  guint index = 0;
  gboolean signed_list;
  g_autofree char *shown = NULL;
  g_autofree char *said = NULL;
  g_autofree char *totals = NULL;
  const char *icon;
  const char *class;

  gtk_widget_set_visible (GTK_WIDGET (self->delete_button), FALSE);
  gtk_widget_action_set_enabled (GTK_WIDGET (self), "row.delete-output", FALSE);
  if (!checksums || (state != PADLOCK_JOB_DONE && state != PADLOCK_JOB_FAILED))
    {
      padlock_job_row_show_verdict (self, NULL, NULL, NULL, NULL);
      return;
    }
  padlock_checksums_get_totals (checksums, &t);
  signed_list = padlock_signatures_worst (padlock_job_get_signatures (self->job),
                                          &verdict, &index);
  shown = padlock_job_dup_list_verdict (self->job, TRUE);
  said = padlock_job_dup_list_verdict (self->job, FALSE);
  totals = list_totals_text (checksums);
  if (state == PADLOCK_JOB_FAILED)
    {
      icon = verdict_icons[PADLOCK_SIGNATURE_BAD];
      class = "error";
    }
  else if (!signed_list || t.n_weak)
    {
      icon = "dialog-warning-symbolic";
      class = "warning";
    }
  else
    {
      icon = verdict_icons[verdict];
      class = verdict == PADLOCK_SIGNATURE_GOOD ? "success" : "warning";
    }
  {
    /* Translators: a checksum list's verdict, then its totals. */
    g_autofree char *text = g_strdup_printf (_("%s · %s"), shown, totals);

    padlock_job_row_show_verdict (self, text,
                                  g_strdup_printf (_("%s · %s"), said, totals),
                                  icon, class);
  }
}

/* A done decryption's signatures: the worst verdict, in the row's words
 * ("Signed by Bob <bob@…>" with a check mark; a bad one in red, with
 * Delete); nothing for an unsigned file.  OUTPUT_SAID names the output
 * for the Delete button's accessible name. */
static void
padlock_job_row_sync_signature (PadlockJobRow *self,
                                const char    *output_said)
{
  GPtrArray *signatures = padlock_job_get_state (self->job) == PADLOCK_JOB_DONE
                          ? padlock_job_get_signatures (self->job) : NULL;
  gboolean deleted = padlock_job_get_output_deleted (self->job);
  PadlockSignatureVerdict verdict = PADLOCK_SIGNATURE_GOOD;
  guint index = 0;
  gboolean shown = padlock_signatures_worst (signatures, &verdict, &index);
  /* Delete takes what the job wrote: a detached signature's check wrote
   * nothing, and the data file is the user's. */
  gboolean offer_delete = shown && verdict == PADLOCK_SIGNATURE_BAD && !deleted
                          && padlock_job_get_output (self->job);
  g_autofree char *text = NULL;
  g_autofree char *delete_label = NULL;

  if (padlock_job_get_checks_list (self->job))
    {
      padlock_job_row_offer_look_up (self, NULL);
      padlock_job_row_sync_list (self);
      return;
    }
  if (padlock_job_get_direction (self->job) == PADLOCK_DIRECTION_ENCRYPT)
    {
      gtk_widget_set_visible (GTK_WIDGET (self->delete_button), FALSE);
      gtk_widget_action_set_enabled (GTK_WIDGET (self), "row.delete-output", FALSE);
      padlock_job_row_offer_verify (self, NULL);
      padlock_job_row_sync_sent (self);
      return;
    }
  gtk_widget_set_visible (GTK_WIDGET (self->delete_button), offer_delete);
  gtk_widget_action_set_enabled (GTK_WIDGET (self), "row.delete-output",
                                 offer_delete);
  if (!shown)
    {
      padlock_job_row_show_verdict (self, NULL, NULL, NULL, NULL);
      padlock_job_row_offer_verify (self, NULL);
      padlock_job_row_offer_look_up (self, NULL);
      return;
    }
  text = verdict_text (signatures->pdata[index], TRUE, deleted, self->job);
  padlock_job_row_show_verdict (self, text,
                                verdict_text (signatures->pdata[index], FALSE,
                                              deleted, self->job),
                                verdict_icons[verdict],
                                verdict == PADLOCK_SIGNATURE_GOOD ? "success"
                                : verdict == PADLOCK_SIGNATURE_BAD ? "error"
                                : "warning");
  padlock_job_row_offer_verify (self, verdict == PADLOCK_SIGNATURE_NOT_CERTIFIED
                                      ? signatures->pdata[index] : NULL);
  padlock_job_row_offer_look_up (self, verdict == PADLOCK_SIGNATURE_UNKNOWN_KEY
                                       ? signatures->pdata[index] : NULL);
  delete_label = g_strdup_printf (_("Delete %s"), output_said);
  gtk_accessible_update_property (GTK_ACCESSIBLE (self->delete_button),
                                  GTK_ACCESSIBLE_PROPERTY_LABEL, delete_label, -1);
}

/* The row's buttons for the job's state, and what a screen reader calls
 * them (INPUT_SAID, OUTPUT_SAID: the names, escaped).  A check wrote
 * nothing to open (a detached signature's, a list's); a list that failed
 * over its files is shown too: the one that differs is beside it. */
static void
padlock_job_row_sync_buttons (PadlockJobRow *self,
                              const char    *input_said,
                              const char    *output_said)
{
  PadlockJob *job = self->job;
  PadlockJobState state = padlock_job_get_state (job);
  PadlockDirection direction = padlock_job_get_direction (job);
  gboolean encrypt = direction == PADLOCK_DIRECTION_ENCRYPT;
  gboolean sign = direction == PADLOCK_DIRECTION_SIGN;
  gboolean list = padlock_job_get_checks_list (job);
  gboolean checked = padlock_job_get_detached (job) || list;
  const GError *error = padlock_job_get_error (job);
  gboolean live = state == PADLOCK_JOB_RUNNING
                  || state == PADLOCK_JOB_CHECKING_OUTPUT
                  || state == PADLOCK_JOB_QUEUED;
  /* Open Without Saving (issue 38): no file to show or open; nor once
   * the file was deleted (Delete, beside a bad signature). */
  gboolean in_memory = padlock_job_get_open_without_saving (job);
  gboolean deleted = padlock_job_get_output_deleted (job);
  /* A folder opened without saving: its list of files can be shown again. */
  gboolean archive = in_memory && padlock_job_get_memfd (job)
                     && padlock_memfd_is_archive (padlock_job_get_memfd (job));
  gboolean can_show = (state == PADLOCK_JOB_DONE && !in_memory && !deleted)
                      || (list && padlock_job_get_checksums (job)) || archive;
  gboolean can_open = state == PADLOCK_JOB_DONE && !encrypt && !sign
                      && !checked && !deleted
                      && (!in_memory || padlock_job_get_memfd (job));
  gboolean wrong_passphrase = state == PADLOCK_JOB_FAILED
                              && g_error_matches (error, PADLOCK_ERROR,
                                                  PADLOCK_ERROR_BAD_PASSPHRASE);
  /* A cancelled job runs again as it was (padlock_window_try_again). */
  gboolean can_retry = wrong_passphrase || state == PADLOCK_JOB_CANCELLED;
  g_autofree char *cancel_label = NULL;
  g_autofree char *show_label = NULL;
  g_autofree char *open_label = NULL;
  g_autofree char *retry_label = NULL;

  gtk_widget_set_visible (GTK_WIDGET (self->cancel_button), live);
  gtk_widget_action_set_enabled (GTK_WIDGET (self), "row.cancel", live);
  gtk_widget_action_set_enabled (GTK_WIDGET (self), "row.show", can_show);
  gtk_widget_set_visible (GTK_WIDGET (self->show_button), can_show);
  gtk_widget_action_set_enabled (GTK_WIDGET (self), "row.open", can_open);
  gtk_widget_set_visible (GTK_WIDGET (self->open_button), can_open);
  gtk_widget_set_visible (GTK_WIDGET (self->retry_button), can_retry);

  cancel_label = g_strdup_printf (encrypt ? _("Cancel encrypting %s")
                                  : sign ? _("Cancel signing %s")
                                  : padlock_job_get_verifies (job)
                                  ? _("Cancel checking %s")
                                  : _("Cancel decrypting %s"), input_said);
  gtk_accessible_update_property (GTK_ACCESSIBLE (self->cancel_button),
                                  GTK_ACCESSIBLE_PROPERTY_LABEL, cancel_label, -1);
  show_label = g_strdup_printf (archive ? _("Show the files %s holds")
                                : _("Show %s in Files"),
                                archive ? input_said : output_said);
  gtk_accessible_update_property (GTK_ACCESSIBLE (self->show_button),
                                  GTK_ACCESSIBLE_PROPERTY_LABEL, show_label, -1);
  gtk_widget_set_tooltip_text (GTK_WIDGET (self->show_button),
                               archive ? _("Show the Files It Holds")
                               : _("Show in Files"));
  /* Open Without Saving (issue 38): no file to open; a copy to save. */
  gtk_button_set_label (self->open_button, in_memory ? _("Save _As…") : _("_Open"));
  open_label = g_strdup_printf (in_memory ? _("Save %s as a file") : _("Open %s"),
                                output_said);
  gtk_accessible_update_property (GTK_ACCESSIBLE (self->open_button),
                                  GTK_ACCESSIBLE_PROPERTY_LABEL, open_label, -1);
  gtk_widget_action_set_enabled (GTK_WIDGET (self), "row.retry", can_retry);
  gtk_widget_set_tooltip_text (GTK_WIDGET (self->retry_button),
                               wrong_passphrase ? _("Enter another passphrase")
                               /* Translators: Try Again's tooltip on a
                                * cancelled job's row. */
                               : _("Start it again"));
  retry_label = wrong_passphrase
                ? g_strdup_printf (_("Try %s again with another passphrase"), input_said)
                /* Translators: Try Again, as a screen reader says it on a
                 * cancelled job's row. */
                : g_strdup_printf (_("Try %s again"), input_said);
  gtk_accessible_update_property (GTK_ACCESSIBLE (self->retry_button),
                                  GTK_ACCESSIBLE_PROPERTY_LABEL, retry_label, -1);
}

static void
padlock_job_row_sync (PadlockJobRow *self)
{
  PadlockJob *job = self->job;
  PadlockJobState state = padlock_job_get_state (job);
  gboolean encrypt = padlock_job_get_direction (job) == PADLOCK_DIRECTION_ENCRYPT;
  gboolean sign = padlock_job_get_direction (job) == PADLOCK_DIRECTION_SIGN;
  /* A detached signature's check: its output name is the data file it
   * read, and it wrote nothing to open. */
  gboolean detached = padlock_job_get_detached (job);
  /* A checksum list's check: nothing to open either; its output name is
   * the list's, which is its input unless that is the list's signature. */
  gboolean list = padlock_job_get_checks_list (job);
  g_autofree char *input_file_name = g_file_get_basename (padlock_job_get_input (job));
  const char *output_file_name = padlock_job_get_output_name (job);
  /* Shown, a name is escaped and isolated; said (accessible names), only
   * escaped: a screen reader has no use for bidi isolates. */
  g_autofree char *input_name = padlock_name_display (input_file_name);
  g_autofree char *output_name = padlock_name_display (output_file_name);
  g_autofree char *input_said = padlock_name_escape (input_file_name);
  g_autofree char *output_said = padlock_name_escape (output_file_name);
  gboolean deceptive = padlock_name_changes_look (input_file_name)
                       || padlock_name_changes_look (output_file_name);
  g_autofree char *subtitle = NULL;
  gboolean to_other = !list || g_strcmp0 (input_file_name, output_file_name) != 0;
  g_autofree char *status = status_text (job);
  g_autofree char *row_said = NULL;
  const GError *error = padlock_job_get_error (job);
  gboolean held = padlock_job_row_is_held (self);

  gtk_image_set_from_icon_name (self->icon, encrypt ? "changes-prevent-symbolic"
                                            : sign ? "document-edit-symbolic"
                                            : "changes-allow-symbolic");
  gtk_label_set_text (self->title_label, input_name);
  gtk_widget_set_visible (GTK_WIDGET (self->name_warning), deceptive);
  /* Empty (hidden) for a list checked by its own name, and once the
   * output was deleted: the arrow would point at nothing. */
  subtitle = to_other && !padlock_job_get_output_deleted (job)
             ? g_strdup_printf ("→ %s", output_name) : g_strdup ("");
  gtk_label_set_text (self->subtitle_label, subtitle);
  gtk_progress_bar_set_fraction (self->progress_bar, padlock_job_get_progress (job));
  gtk_widget_set_visible (GTK_WIDGET (self->progress_bar),
                          held || (state != PADLOCK_JOB_FAILED
                                   && state != PADLOCK_JOB_CANCELLED));
  /* A folder's job says what it is counting or reading, and what it left
   * out (padlock_job_get_detail). */
  if (padlock_job_get_detail (job))
    {
      g_autofree char *detail = padlock_name_escape (padlock_job_get_detail (job));
      /* A decryption's detail is the agent's question ("Waiting for the
       * passphrase of …"): it replaces "Decrypting…", which it is not. */
      char *both = encrypt ? g_strdup_printf ("%s · %s", status, detail)
                           : g_strdup (detail);
      g_free (status);
      status = both;
    }
  gtk_label_set_text (self->status_label, status);
  /* What is written, and who can open it. */
  gtk_widget_set_visible (GTK_WIDGET (self->format_label), encrypt);
  if (encrypt)
    {
      g_autofree char *openers = padlock_job_dup_openers (job);
      g_autofree char *format = NULL;

      if (openers)
        /* Translators: the format, then who can open the file, "Bob
         * <bob@…>, you, and anyone with the passphrase". */
        format = g_strdup_printf (_("%s · for %s"),
                                  padlock_profile_title (padlock_job_get_profile (job)),
                                  openers);
      else
        format = padlock_profile_summary (padlock_job_get_profile (job));
      gtk_label_set_text (self->format_label, format);
    }

  gtk_widget_set_visible (GTK_WIDGET (self->error_label),
                          state == PADLOCK_JOB_FAILED && error && !held);
  if (state == PADLOCK_JOB_FAILED && error)
    {
      if (g_error_matches (error, PADLOCK_ERROR, PADLOCK_ERROR_BAD_PASSPHRASE))
        {
          g_autofree char *text =
            g_strdup_printf (_("Wrong passphrase for %s"), input_name);
          gtk_label_set_text (self->error_label, text);
        }
      else
        {
          /* It may quote a name or a path. */
          g_autofree char *reason = padlock_name_escape (error->message);
          gtk_label_set_text (self->error_label, reason);
        }
    }

  padlock_job_row_sync_buttons (self, input_said, output_said);
  gtk_accessible_update_property (GTK_ACCESSIBLE (self->progress_bar),
                                  GTK_ACCESSIBLE_PROPERTY_LABEL, input_said, -1);
  padlock_job_row_sync_signature (self, output_said);
  /* Said already (the row's accessible name), shown once the pointer
   * leaves: a second line would move the rows under it. */
  if (held)
    gtk_widget_set_visible (self->signature_box, FALSE);
  padlock_job_row_sync_compact (self);
  /* A detached signature is said with the file it vouches for, as it
   * shows: "iso.img.sig → iso.img". */
  row_said = (detached || (list && to_other)) ? g_strdup_printf ("%s → %s", input_said, output_said)
                      : g_strdup (input_said);
  padlock_job_row_sync_label (self, row_said);
}

static void
on_job_notify (PadlockJobRow *self)
{
  padlock_job_row_sync (self);
}

static void
cancel_action (GtkWidget  *widget,
               const char *action_name,
               GVariant   *parameter)
{
  PadlockJob *job = PADLOCK_JOB_ROW (widget)->job;

  if (job)
    padlock_job_cancel (job);
}

/* A checksum list's job's list: the one given with its signature, else
 * the one its name names beside its input (the list, or its signature). */
static GFile *
list_file (PadlockJob *job)
{
  g_autoptr(GFile) folder = NULL;

  if (padlock_job_get_signed_file (job))
    return g_object_ref (padlock_job_get_signed_file (job));
  folder = g_file_get_parent (padlock_job_get_input (job));
  return folder ? g_file_get_child (folder, padlock_job_get_output_name (job)) : NULL;
}

static void
show_action (GtkWidget  *widget,
             const char *action_name,
             GVariant   *parameter)
{
  PadlockJob *job = PADLOCK_JOB_ROW (widget)->job;
  /* A detached signature's check wrote nothing: its data file; a
   * checksum list's, the list (in its folder, with the files it names). */
  g_autoptr(GFile) list = job && padlock_job_get_checks_list (job)
                          ? list_file (job) : NULL;
  GFile *output;

  /* A folder opened without saving: its list of files, again. */
  if (job && padlock_job_get_memfd (job)
      && padlock_memfd_is_archive (padlock_job_get_memfd (job)))
    {
      g_autofree char *input = g_file_get_path (padlock_job_get_input (job));

      gtk_widget_activate_action (widget, "win.show-archive", "s", input);
      return;
    }
  output = !job ? NULL
           : list ? list
           : padlock_job_get_detached (job) ? padlock_job_get_signed_file (job)
           : padlock_job_get_output (job);

  if (output)
    padlock_show_in_files (widget, output);
}

static void
open_action (GtkWidget  *widget,
             const char *action_name,
             GVariant   *parameter)
{
  PadlockJob *job = PADLOCK_JOB_ROW (widget)->job;
  GFile *output = job ? padlock_job_get_output (job) : NULL;

  /* Open Without Saving (issue 38): the button is "Save As…". */
  if (job && padlock_job_get_memfd (job))
    padlock_save_as_run (widget, job);
  else if (output)
    padlock_open_file (widget, output);
}

/* Try Again: the window asks again or runs the job again. */
static void
retry_action (GtkWidget  *widget,
              const char *action_name,
              GVariant   *parameter)
{
  PadlockJob *job = PADLOCK_JOB_ROW (widget)->job;
  GtkWidget *window = gtk_widget_get_ancestor (widget, PADLOCK_TYPE_WINDOW);

  if (job && window)
    padlock_window_try_again (PADLOCK_WINDOW (window), job);
}

static void
on_delete_response (AdwMessageDialog *dialog,
                    const char       *response,
                    PadlockJob       *job)
{
  g_autoptr(GError) error = NULL;

  if (g_strcmp0 (response, "delete") == 0
      && !padlock_job_get_output_deleted (job)
      && !padlock_job_delete_output (job, &error))
    {
      GtkWindow *parent = gtk_window_get_transient_for (GTK_WINDOW (dialog));
      GtkWidget *failed = adw_message_dialog_new (parent, _("The file could not be deleted"),
                                                  error->message);

      adw_message_dialog_add_response (ADW_MESSAGE_DIALOG (failed), "close", _("_Close"));
      gtk_window_present (GTK_WINDOW (failed));
    }
  g_object_unref (job);
}

/* Delete, on a bad signature's row: the decrypted output goes, once the
 * user confirms it (it cannot be undone). */
static void
delete_output_action (GtkWidget  *widget,
                      const char *action_name,
                      GVariant   *parameter)
{
  PadlockJob *job = PADLOCK_JOB_ROW (widget)->job;
  GtkRoot *root = gtk_widget_get_root (widget);
  g_autofree char *name = NULL;
  GtkWidget *dialog;

  if (!job || padlock_job_get_output_deleted (job) || !padlock_job_get_output (job))
    return;
  name = padlock_name_display (padlock_job_get_output_name (job));
  dialog = adw_message_dialog_new (GTK_IS_WINDOW (root) ? GTK_WINDOW (root) : NULL,
                                   NULL, NULL);
  adw_message_dialog_format_heading (ADW_MESSAGE_DIALOG (dialog), _("Delete %s?"), name);
  adw_message_dialog_set_body (ADW_MESSAGE_DIALOG (dialog),
                               padlock_job_get_verifies (job)
                               ? _("Its signature does not match: it may have been "
                                   "altered after it was signed. Deleting it cannot "
                                   "be undone; the signed file stays.")
                               : _("Its signature does not match: it may have been "
                                   "altered after it was signed. Deleting it cannot "
                                   "be undone; the encrypted file stays."));
  adw_message_dialog_add_responses (ADW_MESSAGE_DIALOG (dialog),
                                    "cancel", _("_Cancel"),
                                    "delete", _("_Delete"), NULL);
  adw_message_dialog_set_response_appearance (ADW_MESSAGE_DIALOG (dialog), "delete",
                                              ADW_RESPONSE_DESTRUCTIVE);
  adw_message_dialog_set_default_response (ADW_MESSAGE_DIALOG (dialog), "cancel");
  adw_message_dialog_set_close_response (ADW_MESSAGE_DIALOG (dialog), "cancel");
  g_signal_connect (dialog, "response", G_CALLBACK (on_delete_response),
                    g_object_ref (job));
  gtk_window_present (GTK_WINDOW (dialog));
}

static void
padlock_job_row_dispose (GObject *object)
{
  PadlockJobRow *self = PADLOCK_JOB_ROW (object);

  if (self->job)
    g_clear_signal_handler (&self->notify_id, self->job);
  g_clear_object (&self->job);
  g_clear_pointer (&self->signature_said, g_free);
  g_clear_pointer (&self->verify_fingerprint, g_free);
  g_clear_pointer (&self->look_up_fingerprint, g_free);
  gtk_widget_dispose_template (GTK_WIDGET (self), PADLOCK_TYPE_JOB_ROW);

  G_OBJECT_CLASS (padlock_job_row_parent_class)->dispose (object);
}

static void
padlock_job_row_get_property (GObject    *object,
                              guint       prop_id,
                              GValue     *value,
                              GParamSpec *pspec)
{
  PadlockJobRow *self = PADLOCK_JOB_ROW (object);

  switch (prop_id)
    {
    case PROP_JOB:
      g_value_set_object (value, self->job);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
padlock_job_row_set_property (GObject      *object,
                              guint         prop_id,
                              const GValue *value,
                              GParamSpec   *pspec)
{
  PadlockJobRow *self = PADLOCK_JOB_ROW (object);

  switch (prop_id)
    {
    case PROP_JOB:
      padlock_job_row_set_job (self, g_value_get_object (value));
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
padlock_job_row_class_init (PadlockJobRowClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->dispose = padlock_job_row_dispose;
  object_class->get_property = padlock_job_row_get_property;
  object_class->set_property = padlock_job_row_set_property;

  properties[PROP_JOB] =
    g_param_spec_object ("job", NULL, NULL, PADLOCK_TYPE_JOB,
                         G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY
                         | G_PARAM_STATIC_STRINGS);
  g_object_class_install_properties (object_class, N_PROPS, properties);

  gtk_widget_class_set_template_from_resource (widget_class,
      "/io/github/padlock/Padlock/padlock-job-row.ui");
  gtk_widget_class_bind_template_child (widget_class, PadlockJobRow, icon);
  gtk_widget_class_bind_template_child (widget_class, PadlockJobRow, title_label);
  gtk_widget_class_bind_template_child (widget_class, PadlockJobRow, name_warning);
  gtk_widget_class_bind_template_child (widget_class, PadlockJobRow, subtitle_label);
  gtk_widget_class_bind_template_child (widget_class, PadlockJobRow, progress_bar);
  gtk_widget_class_bind_template_child (widget_class, PadlockJobRow, status_label);
  gtk_widget_class_bind_template_child (widget_class, PadlockJobRow, format_label);
  gtk_widget_class_bind_template_child (widget_class, PadlockJobRow, error_label);
  gtk_widget_class_bind_template_child (widget_class, PadlockJobRow, verdict_label);
  gtk_widget_class_bind_template_child (widget_class, PadlockJobRow, details_box);
  gtk_widget_class_bind_template_child (widget_class, PadlockJobRow, line_box);
  gtk_widget_class_bind_template_child (widget_class, PadlockJobRow, actions_box);
  gtk_widget_class_bind_template_child (widget_class, PadlockJobRow, narrow_box);
  gtk_widget_class_bind_template_child (widget_class, PadlockJobRow, show_button);
  gtk_widget_class_bind_template_child (widget_class, PadlockJobRow, open_button);
  gtk_widget_class_bind_template_child (widget_class, PadlockJobRow, cancel_button);
  gtk_widget_class_bind_template_child (widget_class, PadlockJobRow, retry_button);
  gtk_widget_class_bind_template_child (widget_class, PadlockJobRow, look_up_button);
  gtk_widget_class_bind_template_child (widget_class, PadlockJobRow, signature_box);
  gtk_widget_class_bind_template_child (widget_class, PadlockJobRow, signature_icon);
  gtk_widget_class_bind_template_child (widget_class, PadlockJobRow, signature_label);
  gtk_widget_class_bind_template_child (widget_class, PadlockJobRow, delete_button);
  gtk_widget_class_bind_template_child (widget_class, PadlockJobRow, verify_button);
  gtk_widget_class_bind_template_callback (widget_class, on_verify_clicked);
  gtk_widget_class_bind_template_callback (widget_class, on_look_up_clicked);

  /* The row takes the keyboard focus itself (the list view's arrow keys
   * go from row to row, Tab into its buttons): a screen reader then reads
   * its label. */
  gtk_widget_class_set_accessible_role (widget_class, GTK_ACCESSIBLE_ROLE_GROUP);
  gtk_widget_class_install_action (widget_class, "row.cancel", NULL, cancel_action);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_Delete, 0, "row.cancel", NULL);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_KP_Delete, 0, "row.cancel", NULL);
  gtk_widget_class_install_action (widget_class, "row.show", NULL, show_action);
  gtk_widget_class_install_action (widget_class, "row.open", NULL, open_action);
  gtk_widget_class_install_action (widget_class, "row.retry", NULL, retry_action);
  gtk_widget_class_install_action (widget_class, "row.delete-output", NULL,
                                   delete_output_action);
}

static void
padlock_job_row_init (PadlockJobRow *self)
{
  gtk_widget_init_template (GTK_WIDGET (self));
  gtk_widget_set_focusable (GTK_WIDGET (self), TRUE);
  /* Named in full in padlock_job_row_sync ("Open a.jpg"): GTK 4.8 would
   * add the label it is labelled by ("Open a.jpg Open"). */
  padlock_accessible_keep_name (GTK_WIDGET (self->open_button));
  padlock_accessible_keep_name (GTK_WIDGET (self->retry_button));
}

GtkWidget *
padlock_job_row_new (PadlockJob *job)
{
  g_return_val_if_fail (job == NULL || PADLOCK_IS_JOB (job), NULL);
  return g_object_new (PADLOCK_TYPE_JOB_ROW, "job", job, NULL);
}

void
padlock_job_row_set_job (PadlockJobRow *self,
                         PadlockJob    *job)
{
  g_return_if_fail (PADLOCK_IS_JOB_ROW (self));
  g_return_if_fail (job == NULL || PADLOCK_IS_JOB (job));

  if (self->job == job)
    return;
  /* The one handler this row put on the job it showed goes with it. */
  if (self->job)
    g_clear_signal_handler (&self->notify_id, self->job);
  g_set_object (&self->job, job);
  self->shown_full = FALSE;     /* another job: nothing of it to keep */
  if (job)
    {
      self->notify_id = g_signal_connect_swapped (job, "notify",
                                                  G_CALLBACK (on_job_notify), self);
      padlock_job_row_sync (self);
    }
  else
    {
      /* Shown nowhere (the list view keeps it for a later job): nothing
       * on it can be acted on. */
      gtk_widget_action_set_enabled (GTK_WIDGET (self), "row.cancel", FALSE);
      gtk_widget_action_set_enabled (GTK_WIDGET (self), "row.show", FALSE);
      gtk_widget_action_set_enabled (GTK_WIDGET (self), "row.open", FALSE);
      gtk_widget_action_set_enabled (GTK_WIDGET (self), "row.retry", FALSE);
    }
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_JOB]);
}

PadlockJob *
padlock_job_row_get_job (PadlockJobRow *self)
{
  g_return_val_if_fail (PADLOCK_IS_JOB_ROW (self), NULL);
  return self->job;
}

void
padlock_job_row_set_hold_layout (PadlockJobRow *self,
                                 gboolean       hold)
{
  g_return_if_fail (PADLOCK_IS_JOB_ROW (self));

  hold = !!hold;
  if (self->hold_layout == hold)
    return;
  self->hold_layout = hold;
  if (self->job && !hold)
    padlock_job_row_sync (self);
}

void
padlock_job_row_set_narrow (PadlockJobRow *self,
                            gboolean       narrow)
{
  GtkWidget *to;
  GtkWidget *verdict;

  g_return_if_fail (PADLOCK_IS_JOB_ROW (self));

  narrow = !!narrow;
  if (self->narrow == narrow)
    return;
  self->narrow = narrow;
  to = narrow ? self->narrow_box : self->line_box;
  verdict = GTK_WIDGET (self->verdict_label);
  /* Moved, not made twice: the template's widgets keep their state. */
  g_object_ref (verdict);
  g_object_ref (self->actions_box);
  gtk_box_remove (GTK_BOX (gtk_widget_get_parent (verdict)), verdict);
  gtk_box_remove (GTK_BOX (gtk_widget_get_parent (self->actions_box)), self->actions_box);
  gtk_box_append (GTK_BOX (to), verdict);
  gtk_box_append (GTK_BOX (to), self->actions_box);
  g_object_unref (verdict);
  g_object_unref (self->actions_box);
  /* On its own line the verdict takes the room the buttons leave, on
   * two lines rather than cut short. */
  gtk_widget_set_hexpand (verdict, narrow);
  gtk_label_set_xalign (self->verdict_label, narrow ? 0 : 1);
  gtk_label_set_wrap (self->verdict_label, narrow);
  padlock_job_row_sync_verdict_width (self);
  gtk_widget_set_visible (self->narrow_box, narrow);
}
