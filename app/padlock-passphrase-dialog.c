/* padlock-passphrase-dialog.c - asks for the passphrase of one batch */
#include "padlock-passphrase-dialog-private.h"

#include <string.h>
#include <gcrypt.h>
#include <glib/gi18n.h>

#include "padlock-narrow.h"

G_DEFINE_FINAL_TYPE (PadlockPassphraseDialog, padlock_passphrase_dialog, ADW_TYPE_WINDOW)

enum {
  FINISHED,
  N_SIGNALS
};

static guint signals[N_SIGNALS];

/* A generated passphrase: 16 characters of 5 bits each (80 bits), in
 * groups of four, from an alphabet without look-alikes: no I, l, 1, O, o
 * or 0, and no capitals to tell apart ("k7rm-xq4d-2vhn-9pws"). */
#define GENERATED_ALPHABET "abcdefghijkmnpqrstuvwxyz23456789"
#define GENERATED_CHARS 16
#define GENERATED_GROUP 4
#define GENERATED_ENTROPY_BITS (GENERATED_CHARS * 5)

G_STATIC_ASSERT (sizeof GENERATED_ALPHABET - 1 == 32);

/* Into secure memory; the caller wipes and frees it (gcry_free). */
static char *
generate_passphrase (void)
{
  unsigned char *random = gcry_malloc_secure (GENERATED_CHARS);
  char *text = gcry_malloc_secure (GENERATED_CHARS + GENERATED_CHARS / GENERATED_GROUP);
  size_t n = 0;

  if (!random || !text)
    {
      gcry_free (random);
      gcry_free (text);
      return NULL;
    }
  gcry_randomize (random, GENERATED_CHARS, GCRY_STRONG_RANDOM);
  for (size_t i = 0; i < GENERATED_CHARS; i++)
    {
      if (i && i % GENERATED_GROUP == 0)
        text[n++] = '-';
      /* 256 is a multiple of 32: every character as likely. */
      text[n++] = GENERATED_ALPHABET[random[i] & 31];
    }
  text[n] = '\0';
  gcry_free (random);            /* libgcrypt wipes secure memory it frees */
  return text;
}

static const char *
strength_words (int score)
{
  if (score < 40)
    return _("Weak: easy to guess");
  if (score < 70)
    return _("Fair");
  if (score < 90)
    return _("Good");
  return _("Strong");
}

/* Why libpwquality refused it, in a few plain words rather than its own
 * sentence ("The password fails the dictionary check - it is based on a
 * dictionary word"). */
static const char *
weakness_words (int error)
{
  switch (error)
    {
    case PWQ_ERROR_MIN_LENGTH:
    case PWQ_ERROR_EMPTY_PASSWORD:
      return _("Weak: too short. Longer is stronger: try a few words.");
    case PWQ_ERROR_CRACKLIB_CHECK:
    case PWQ_ERROR_BAD_WORDS:
    case PWQ_ERROR_USER_CHECK:
    case PWQ_ERROR_GECOS_CHECK:
      return _("Weak: a common word or a name, easy to guess.");
    case PWQ_ERROR_MIN_DIGITS:
    case PWQ_ERROR_MIN_UPPERS:
    case PWQ_ERROR_MIN_LOWERS:
    case PWQ_ERROR_MIN_OTHERS:
    case PWQ_ERROR_MIN_CLASSES:
      return _("Weak: too few kinds of characters. Add words, digits or symbols.");
    case PWQ_ERROR_PALINDROME:
    case PWQ_ERROR_CASE_CHANGES_ONLY:
    case PWQ_ERROR_ROTATED:
    case PWQ_ERROR_MAX_CONSECUTIVE:
    case PWQ_ERROR_MAX_CLASS_REPEAT:
    case PWQ_ERROR_MAX_SEQUENCE:
      return _("Weak: repeats or runs of characters, easy to guess.");
    default:
      return _("Weak: easy to guess");
    }
}

/* Why TEXT cannot lock files, by the one passphrase rule
 * (core/passphrase.h), or NULL.  Blank passphrases are refused: a space
 * typed by mistake must not become the only thing between a stranger
 * and the files. */
static const char *
refusal (const char *text)
{
  switch (gpg_err_code (pl_passphrase_check (text, strlen (text),
                                             PL_PASSPHRASE_TYPED, NULL)))
    {
    case GPG_ERR_NO_ERROR:
      return NULL;
    case PL_ERR_PASSPHRASE_TOO_LONG:
      return _("The passphrase is too long: at most 4096 bytes.");
    default:
      return _("A passphrase needs more than spaces.");
    }
}

static void
padlock_passphrase_dialog_update (PadlockPassphraseDialog *self)
{
  const char *text = gtk_editable_get_text (GTK_EDITABLE (self->entry));
  const char *confirm = gtk_editable_get_text (GTK_EDITABLE (self->confirm_entry));
  const char *why;
  gboolean ok, people;

  if (self->mode == PADLOCK_PASSPHRASE_DECRYPT)
    {
      gboolean too_long = strlen (text) > PL_PASSPHRASE_MAX;

      gtk_label_set_text (self->match_label, too_long
                          ? _("The passphrase is too long: at most 4096 bytes.")
                          : "");
      gtk_widget_set_sensitive (GTK_WIDGET (self->ok_button),
                                *text != '\0' && !too_long);
      return;
    }

  /* People, or "you" alone: the passphrase is optional. */
  people = self->people && padlock_people_has_recipients (self->people);
  if (!*text)
    {
      gtk_level_bar_set_value (self->strength_bar, 0);
      if (!people)
        gtk_label_set_text (self->strength_label,
                            _("Use a long passphrase, or let Padlock generate one."));
      else if (padlock_people_has_people (self->people))
        gtk_label_set_text (self->strength_label,
                            _("Optional: the people below can open the files "
                              "without a passphrase."));
      else
        gtk_label_set_text (self->strength_label,
                            _("Optional: your own key opens the files without "
                              "a passphrase."));
    }
  else
    {
      void *aux = NULL;
      int score = pwquality_check (self->pwquality, text, NULL, NULL, &aux);

      if (score < 0)
        {
          char buf[PWQ_MAX_ERROR_MESSAGE_LEN];

          /* Only for what it releases of AUX: its sentence is not shown. */
          pwquality_strerror (buf, sizeof buf, score, aux);
          gtk_level_bar_set_value (self->strength_bar, 5);
          gtk_label_set_text (self->strength_label, weakness_words (score));
        }
      else
        {
          gtk_level_bar_set_value (self->strength_bar, MAX (score, 10));
          gtk_label_set_text (self->strength_label, strength_words (score));
        }
    }

  why = refusal (text);
  ok = !why && strcmp (text, confirm) == 0;
  if (self->people)
    padlock_people_set_passphrase (self->people, ok);
  /* With people, no passphrase is an answer too. */
  if (people && !*text && !*confirm)
    {
      gtk_label_set_text (self->match_label, "");
      gtk_widget_set_sensitive (GTK_WIDGET (self->ok_button), TRUE);
      return;
    }
  if (why && (*confirm || strlen (text) > PL_PASSPHRASE_MAX))
    gtk_label_set_text (self->match_label, why);
  else if (!*confirm)
    gtk_label_set_text (self->match_label, "");
  else
    gtk_label_set_text (self->match_label, ok ? _("The passphrases match.")
                                              : _("The passphrases do not match."));
  if (ok)
    {
      gtk_widget_remove_css_class (GTK_WIDGET (self->match_label), "error");
      gtk_widget_add_css_class (GTK_WIDGET (self->match_label), "success");
    }
  else
    {
      gtk_widget_remove_css_class (GTK_WIDGET (self->match_label), "success");
      gtk_widget_add_css_class (GTK_WIDGET (self->match_label), "error");
    }
  gtk_widget_set_sensitive (GTK_WIDGET (self->ok_button), ok);
}

static void
on_entry_changed (PadlockPassphraseDialog *self)
{
  /* The copy button copies what was generated, not what was typed. */
  if (self->generated_shown)
    {
      const char *text = gtk_editable_get_text (GTK_EDITABLE (self->entry));
      const char *confirm = gtk_editable_get_text (GTK_EDITABLE (self->confirm_entry));

      if (strcmp (text, confirm) != 0)
        {
          self->generated_shown = FALSE;
          gtk_widget_set_visible (GTK_WIDGET (self->copy_button), FALSE);
        }
    }
  padlock_passphrase_dialog_update (self);
}

/* Enter in the first entry goes on to the second, as when filling a form;
 * only the second encrypts. */
static void
on_entry_activate (PadlockPassphraseDialog *self)
{
  if (self->mode == PADLOCK_PASSPHRASE_ENCRYPT)
    gtk_widget_grab_focus (GTK_WIDGET (self->confirm_entry));
  else
    gtk_widget_activate_default (GTK_WIDGET (self));
}

static void
on_copy_clicked (PadlockPassphraseDialog *self)
{
  const char *text = gtk_editable_get_text (GTK_EDITABLE (self->entry));

  gdk_clipboard_set_text (gtk_widget_get_clipboard (GTK_WIDGET (self)), text);
  gtk_label_set_text (self->match_label,
                      _("Copied. Paste it somewhere safe: without it the files "
                        "cannot be decrypted."));
}

static void
on_generate_clicked (PadlockPassphraseDialog *self)
{
  char *generated = generate_passphrase ();
  g_autofree char *strength = NULL;

  if (!generated)
    return;
  gtk_editable_set_text (GTK_EDITABLE (self->entry), generated);
  gtk_editable_set_text (GTK_EDITABLE (self->confirm_entry), generated);
  gcry_free (generated);
  self->generated_shown = TRUE;
  gtk_widget_set_visible (GTK_WIDGET (self->copy_button), TRUE);
  gtk_label_set_text (self->match_label,
                      _("Generated. Copy it, or reveal it with the eye icon, and "
                        "keep it somewhere safe: without it the files cannot be "
                        "decrypted."));
  /* Its strength is its randomness, not a dictionary's guess. */
  /* Translators: %u is a number of bits, 80. */
  strength = g_strdup_printf (_("Strong: %u random bits"), (guint) GENERATED_ENTROPY_BITS);
  gtk_level_bar_set_value (self->strength_bar,
                           gtk_level_bar_get_max_value (self->strength_bar));
  gtk_label_set_text (self->strength_label, strength);
}

static void
on_ok_clicked (PadlockPassphraseDialog *self)
{
  g_autoptr(PadlockSecret) secret = NULL;
  g_autoptr(GError) error = NULL;
  const char *text = gtk_editable_get_text (GTK_EDITABLE (self->entry));

  if (!gtk_widget_get_sensitive (GTK_WIDGET (self->ok_button)) || self->finished)
    return;
  /* To people only: no secret. */
  if (self->mode == PADLOCK_PASSPHRASE_ENCRYPT && !*text)
    {
      self->finished = self->accepted = TRUE;
      g_signal_emit (self, signals[FINISHED], 0, NULL);
      gtk_window_close (GTK_WINDOW (self));
      return;
    }
  /* Out of the entry into secure memory, and the entries emptied; no
   * secure memory left is said, and the dialog stays. */
  secret = padlock_secret_new_full (text, strlen (text), PL_PASSPHRASE_TYPED,
                                    &error);
  if (!secret)
    {
      gtk_label_set_text (self->error_label, error->message);
      gtk_widget_set_visible (GTK_WIDGET (self->error_label), TRUE);
      return;
    }
  gtk_editable_set_text (GTK_EDITABLE (self->entry), "");
  gtk_editable_set_text (GTK_EDITABLE (self->confirm_entry), "");
  self->finished = self->accepted = TRUE;
  g_signal_emit (self, signals[FINISHED], 0, secret);
  gtk_window_close (GTK_WINDOW (self));
}

static gboolean
padlock_passphrase_dialog_close_request (GtkWindow *window)
{
  PadlockPassphraseDialog *self = PADLOCK_PASSPHRASE_DIALOG (window);

  if (!self->finished)
    {
      g_debug ("passphrase dialog closed without an answer");
      self->finished = TRUE;
      gtk_editable_set_text (GTK_EDITABLE (self->entry), "");
      gtk_editable_set_text (GTK_EDITABLE (self->confirm_entry), "");
      g_signal_emit (self, signals[FINISHED], 0, NULL);
    }
  return GTK_WINDOW_CLASS (padlock_passphrase_dialog_parent_class)->close_request (window);
}

static void
padlock_passphrase_dialog_finalize (GObject *object)
{
  PadlockPassphraseDialog *self = (PadlockPassphraseDialog *) object;

  g_clear_pointer (&self->pwquality, pwquality_free_settings);

  G_OBJECT_CLASS (padlock_passphrase_dialog_parent_class)->finalize (object);
}

static void
padlock_passphrase_dialog_class_init (PadlockPassphraseDialogClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);
  GtkWindowClass *window_class = GTK_WINDOW_CLASS (klass);

  object_class->finalize = padlock_passphrase_dialog_finalize;
  window_class->close_request = padlock_passphrase_dialog_close_request;

  signals[FINISHED] =
    g_signal_new ("finished", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST,
                  0, NULL, NULL, NULL, G_TYPE_NONE, 1, PADLOCK_TYPE_SECRET);

  gtk_widget_class_set_template_from_resource (widget_class,
      "/io/github/padlock/Padlock/padlock-passphrase-dialog.ui");
  gtk_widget_class_bind_template_child (widget_class, PadlockPassphraseDialog, heading_label);
  gtk_widget_class_bind_template_child (widget_class, PadlockPassphraseDialog, error_label);
  gtk_widget_class_bind_template_child (widget_class, PadlockPassphraseDialog, entry);
  gtk_widget_class_bind_template_child (widget_class, PadlockPassphraseDialog, confirm_entry);
  gtk_widget_class_bind_template_child (widget_class, PadlockPassphraseDialog, confirm_label);
  gtk_widget_class_bind_template_child (widget_class, PadlockPassphraseDialog, strength_box);
  gtk_widget_class_bind_template_child (widget_class, PadlockPassphraseDialog, strength_bar);
  gtk_widget_class_bind_template_child (widget_class, PadlockPassphraseDialog, strength_label);
  gtk_widget_class_bind_template_child (widget_class, PadlockPassphraseDialog, match_label);
  gtk_widget_class_bind_template_child (widget_class, PadlockPassphraseDialog, generate_button);
  gtk_widget_class_bind_template_child (widget_class, PadlockPassphraseDialog, ok_button);
  gtk_widget_class_bind_template_child (widget_class, PadlockPassphraseDialog, cancel_button);
  gtk_widget_class_bind_template_child (widget_class, PadlockPassphraseDialog, one_archive_check);
  gtk_widget_class_bind_template_child (widget_class, PadlockPassphraseDialog, copy_button);
  gtk_widget_class_bind_template_child (widget_class, PadlockPassphraseDialog, format_label);
  gtk_widget_class_bind_template_child (widget_class, PadlockPassphraseDialog, note_label);
  gtk_widget_class_bind_template_child (widget_class, PadlockPassphraseDialog, people_slot);
  gtk_widget_class_bind_template_callback (widget_class, on_entry_activate);
  gtk_widget_class_bind_template_callback (widget_class, on_copy_clicked);
  gtk_widget_class_bind_template_callback (widget_class, on_entry_changed);
  gtk_widget_class_bind_template_callback (widget_class, on_generate_clicked);
  gtk_widget_class_bind_template_callback (widget_class, on_ok_clicked);

  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_Escape, 0,
                                       "window.close", NULL);
}

static void
padlock_passphrase_dialog_init (PadlockPassphraseDialog *self)
{
  char buf[PWQ_MAX_ERROR_MESSAGE_LEN];
  void *aux = NULL;

  gtk_widget_init_template (GTK_WIDGET (self));

  self->pwquality = pwquality_default_settings ();
  /* The system's policy when there is one; the defaults otherwise. */
  pwquality_read_config (self->pwquality, NULL, NULL);
  /* Without cracklib's dictionary every check fails; judge without it. */
  if (pwquality_check (self->pwquality, "Tq8#vLm2!pWz7&Rk", NULL, NULL, &aux)
      == PWQ_ERROR_CRACKLIB_CHECK)
    pwquality_set_int_value (self->pwquality, PWQ_SETTING_DICT_CHECK, 0);
  pwquality_strerror (buf, sizeof buf, 0, aux);

  gtk_level_bar_add_offset_value (self->strength_bar, GTK_LEVEL_BAR_OFFSET_LOW, 40);
  gtk_level_bar_add_offset_value (self->strength_bar, GTK_LEVEL_BAR_OFFSET_HIGH, 70);
  gtk_level_bar_add_offset_value (self->strength_bar, GTK_LEVEL_BAR_OFFSET_FULL, 100);
}

PadlockPassphraseDialog *
padlock_passphrase_dialog_new (GtkWindow             *parent,
                               PadlockPassphraseMode  mode,
                               const char            *heading,
                               const char            *error)
{
  PadlockPassphraseDialog *self;
  gboolean encrypt = mode == PADLOCK_PASSPHRASE_ENCRYPT;

  self = g_object_new (PADLOCK_TYPE_PASSPHRASE_DIALOG,
                       "transient-for", parent,
                       "destroy-with-parent", TRUE,
                       "title", encrypt ? _("Encrypt") : _("Decrypt"),
                       NULL);
  self->mode = mode;
  padlock_dialog_fit_parent (GTK_WINDOW (self), parent);
  gtk_label_set_text (self->heading_label, heading);
  gtk_button_set_label (self->ok_button, encrypt ? _("_Encrypt") : _("_Decrypt"));
  gtk_label_set_text (self->error_label, error ? error : "");
  gtk_widget_set_visible (GTK_WIDGET (self->error_label), error != NULL);
  gtk_widget_set_visible (self->strength_box, encrypt);
  gtk_widget_set_visible (GTK_WIDGET (self->strength_label), encrypt);
  gtk_widget_set_visible (GTK_WIDGET (self->confirm_label), encrypt);
  gtk_widget_set_visible (GTK_WIDGET (self->confirm_entry), encrypt);
  gtk_widget_set_visible (GTK_WIDGET (self->match_label), encrypt);
  padlock_passphrase_dialog_update (self);
  /* Typing starts in the entry, not on the header bar's Cancel. */
  gtk_window_set_focus (GTK_WINDOW (self), GTK_WIDGET (self->entry));
  return self;
}

void
padlock_passphrase_dialog_offer_one_archive (PadlockPassphraseDialog *self,
                                             gboolean                 active)
{
  g_return_if_fail (PADLOCK_IS_PASSPHRASE_DIALOG (self));
  gtk_widget_set_visible (GTK_WIDGET (self->one_archive_check), TRUE);
  gtk_check_button_set_active (self->one_archive_check, active);
}

gboolean
padlock_passphrase_dialog_get_one_archive (PadlockPassphraseDialog *self)
{
  g_return_val_if_fail (PADLOCK_IS_PASSPHRASE_DIALOG (self), FALSE);
  return gtk_widget_get_visible (GTK_WIDGET (self->one_archive_check))
         && gtk_check_button_get_active (self->one_archive_check);
}

PadlockPassphraseMode
padlock_passphrase_dialog_get_mode (PadlockPassphraseDialog *self)
{
  g_return_val_if_fail (PADLOCK_IS_PASSPHRASE_DIALOG (self), 0);
  return self->mode;
}

void
padlock_passphrase_dialog_set_format (PadlockPassphraseDialog *self,
                                      const char              *format)
{
  g_return_if_fail (PADLOCK_IS_PASSPHRASE_DIALOG (self));

  gtk_label_set_text (self->format_label, format ? format : "");
  gtk_widget_set_visible (GTK_WIDGET (self->format_label), format != NULL);
}

void
padlock_passphrase_dialog_set_note (PadlockPassphraseDialog *self,
                                    const char              *note)
{
  g_return_if_fail (PADLOCK_IS_PASSPHRASE_DIALOG (self));

  gtk_label_set_text (self->note_label, note ? note : "");
  gtk_widget_set_visible (GTK_WIDGET (self->note_label), note != NULL);
}

static void
on_people_changed (PadlockPassphraseDialog *self)
{
  const char *format = padlock_people_get_format (self->people);

  /* The format follows the recipients once their keys are read. */
  if (format)
    padlock_passphrase_dialog_set_format (self, format);
  padlock_passphrase_dialog_update (self);
}

void
padlock_passphrase_dialog_set_people (PadlockPassphraseDialog *self,
                                      PadlockPeople           *people)
{
  g_return_if_fail (PADLOCK_IS_PASSPHRASE_DIALOG (self));
  g_return_if_fail (PADLOCK_IS_PEOPLE (people));
  g_return_if_fail (self->people == NULL);

  self->people = people;
  gtk_box_append (self->people_slot, GTK_WIDGET (people));
  gtk_widget_set_visible (GTK_WIDGET (self->people_slot), TRUE);
  g_signal_connect_object (people, "changed", G_CALLBACK (on_people_changed),
                           self, G_CONNECT_SWAPPED);
  on_people_changed (self);
}

PadlockRecipients *
padlock_passphrase_dialog_dup_recipients (PadlockPassphraseDialog *self)
{
  g_return_val_if_fail (PADLOCK_IS_PASSPHRASE_DIALOG (self), NULL);

  if (!self->accepted || !self->people)
    return NULL;
  return padlock_people_dup_recipients (self->people);
}

void
padlock_passphrase_dialog_add_section (PadlockPassphraseDialog *self,
                                       GtkWidget               *section)
{
  g_return_if_fail (PADLOCK_IS_PASSPHRASE_DIALOG (self));

  /* The entries' column, the one-archive check last until now. */
  gtk_box_append (GTK_BOX (gtk_widget_get_parent (GTK_WIDGET (self->one_archive_check))),
                  section);
}
