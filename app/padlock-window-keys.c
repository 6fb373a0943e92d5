/* padlock-window-keys.c - the user's GnuPG keys in the window: which
 * decryptions go through gpg-agent instead of a passphrase dialog
 *
 * What a dropped or opened file needs is its plan (padlock-plan.h, the
 * one place that decides it, for `padlock --batch` too); here the
 * window does what the plan says:
 *   - DECRYPT_PASSPHRASE: the passphrase dialog;
 *   - DECRYPT_KEYS: a job with the held keys and no passphrase; the
 *     agent's pinentry asks for the key's, and the row says so; one for
 *     others only fails saying whom the file is for ("This file is for
 *     Bob <bob@…> (0x…); none of your keys opens it");
 *   - DECRYPT_KEYS_OR_PASSPHRASE: the same, and when no key opened it
 *     the passphrase is offered next
 *     (padlock_window_keys_offer_passphrase);
 *   - CHECK_CLEARSIGNED, CHECK_SIGNED, CHECK_DETACHED: a job that
 *     checks the signature, with neither dialog nor keys (a detached
 *     signature's over the data file given with it, else the one beside
 *     it);
 *   - WAIT_FOR_KEYS: the file waits for the keyring's listing, and is
 *     planned again then.
 * The keyring is the application's, first asked for when a file has a
 * PKESK (a session that never meets one never runs gpg); files that
 * arrive while it loads wait for it.  Each listing makes new
 * PadlockHeldKeys (padlock-held-keys.h): jobs keep the ones they were given.
 */
#include "padlock-window-private.h"

#include "packet.h"

#include "padlock-application.h"
#include "padlock-error.h"
#include "padlock-input.h"
#include "padlock-settings.h"

/* What a key job may fall back on: the job's KEY_JOB_QUARK data, which
 * goes with the job (a finished job cleared from the list is not kept). */
enum
{
  KEY_JOB_ONLY = 1,             /* keys only */
  KEY_JOB_SKESK,                /* … and a passphrase may open it too */
};

G_DEFINE_QUARK (padlock-window-key-job, key_job)

static int
key_job_kind (PadlockJob *job)
{
  return GPOINTER_TO_INT (g_object_get_qdata (G_OBJECT (job), key_job_quark ()));
}

static void
renew_held_keys (PadlockWindow *self)
{
  PadlockApplication *app =
    PADLOCK_APPLICATION (gtk_window_get_application (GTK_WINDOW (self)));

  g_clear_pointer (&self->held_keys, padlock_held_keys_unref);
  self->held_keys = padlock_held_keys_new (self->keyring,
                                           padlock_application_get_agent (app));
}

static void
on_keyring_loaded (PadlockKeyring *keyring,
                   PadlockWindow  *self)
{
  g_autoptr(GPtrArray) files = g_steal_pointer (&self->for_keys);
  g_autoptr(GPtrArray) asked = NULL;
  guint group = 0;

  renew_held_keys (self);
  padlock_window_imports_refresh (self);
  if (!files || !files->len)
    return;
  asked = g_ptr_array_new_with_free_func (g_object_unref);
  /* Messages for public keys, opened again: decrypted whatever they
   * were asked for, now with the keys. */
  for (guint i = 0; i < files->len; i++)
    {
      GFile *file = g_ptr_array_index (files, i);
      g_autoptr(PadlockInput) input = padlock_input_open (file, NULL);
      PadlockPlan plan = input ? padlock_window_keys_plan (self, input,
                                                           PADLOCK_PLAN_ASK_DECRYPT,
                                                           0)
                               : PADLOCK_PLAN_DECRYPT_PASSPHRASE;

      padlock_window_keys_start (self, file, plan, NULL, &group, asked);
    }
  padlock_window_ask_decrypt (self, asked, NULL);
}

/* The application's keyring, asked for on first need; NULL when the
 * window is not a PadlockApplication's (it then has no keys). */
static PadlockKeyring *
window_keyring (PadlockWindow *self)
{
  GtkApplication *app = gtk_window_get_application (GTK_WINDOW (self));

  if (self->keyring || !PADLOCK_IS_APPLICATION (app))
    return self->keyring;
  self->keyring =
    g_object_ref (padlock_application_get_keyring (PADLOCK_APPLICATION (app)));
  g_signal_connect_object (self->keyring, "loaded",
                           G_CALLBACK (on_keyring_loaded), self, 0);
  if (padlock_keyring_get_state (self->keyring) != PADLOCK_KEYRING_LOADING)
    renew_held_keys (self);
  return self->keyring;
}

PadlockKeyring *
padlock_window_keys_get_keyring (PadlockWindow *self)
{
  return window_keyring (self);
}

/* A decryption of FILE in GROUP that needs no passphrase, as PLAN
 * says: with the user's keys (and a passphrase after them for
 * DECRYPT_KEYS_OR_PASSPHRASE), or none for a signature to check; a
 * detached signature's over SIGNED_FILE when not NULL. */
static void
start_key_job (PadlockWindow *self,
               GFile         *file,
               GFile         *signed_file,
               guint          group,
               PadlockPlan    plan)
{
  PadlockJobConfig config = { 0 };
  g_autoptr(PadlockJob) job = NULL;

  padlock_job_config_from_settings (self->settings, &config);
  job = padlock_job_new (file, PADLOCK_DIRECTION_DECRYPT, &config);
  padlock_job_config_clear (&config);
  padlock_job_set_group (job, group);
  if (plan == PADLOCK_PLAN_CHECK_CLEARSIGNED)
    padlock_job_set_clearsigned (job, TRUE);
  else if (plan == PADLOCK_PLAN_CHECK_DETACHED
           || plan == PADLOCK_PLAN_CHECK_SIGNED)
    padlock_job_set_checks_only (job, TRUE);
  else if (plan == PADLOCK_PLAN_CHECK_LIST)
    padlock_job_set_checks_list (job);
  else
    padlock_job_set_held_keys (job, self->held_keys);
  /* Its row names the data file and counts its size from the start:
   * the one given with it, else the one beside it. */
  if (plan == PADLOCK_PLAN_CHECK_DETACHED)
    {
      g_autoptr(GFile) beside = signed_file ? NULL
                                            : padlock_plan_signed_file (file);

      if (signed_file || beside)
        padlock_job_set_signed_file (job, signed_file ? signed_file : beside);
    }
  /* A list's signature given with its list (padlock_plan_pair) reads
   * that one; alone, the job finds the list beside it. */
  if (plan == PADLOCK_PLAN_CHECK_LIST && signed_file)
    padlock_job_set_signed_file (job, signed_file);
  padlock_window_set_verify_home (job);
  g_object_set_qdata (G_OBJECT (job), key_job_quark (),
                      GINT_TO_POINTER (plan == PADLOCK_PLAN_DECRYPT_KEYS_OR_PASSPHRASE
                                       ? KEY_JOB_SKESK : KEY_JOB_ONLY));
  padlock_queue_add (self->queue, job);
}

PadlockPlan
padlock_window_keys_plan (PadlockWindow    *self,
                          PadlockInput     *input,
                          PadlockPlanAsk    ask,
                          PadlockPlanFlags  flags)
{
  GtkApplication *app = gtk_window_get_application (GTK_WINDOW (self));
  PadlockPlan plan;

  /* Only an application's window has a keyring to list. */
  if (PADLOCK_IS_APPLICATION (app))
    flags |= PADLOCK_PLAN_KEYS_PENDING;
  plan = padlock_plan_decide (input, ask, self->held_keys, flags);
  /* The first message for a public key asks for the keyring: when it was
   * listed already, its keys decide at once. */
  if (plan == PADLOCK_PLAN_WAIT_FOR_KEYS && window_keyring (self)
      && self->held_keys)
    plan = padlock_plan_decide (input, ask, self->held_keys, flags);
  return plan;
}

void
padlock_window_keys_start (PadlockWindow *self,
                           GFile         *file,
                           PadlockPlan    plan,
                           GFile         *signed_file,
                           guint         *group,
                           GPtrArray     *asked)
{
  switch (plan)
    {
    case PADLOCK_PLAN_WAIT_FOR_KEYS:
      if (!self->for_keys)
        self->for_keys = g_ptr_array_new_with_free_func (g_object_unref);
      g_ptr_array_add (self->for_keys, g_object_ref (file));
      break;
    case PADLOCK_PLAN_CHECK_CLEARSIGNED:
    case PADLOCK_PLAN_CHECK_DETACHED:
    case PADLOCK_PLAN_CHECK_SIGNED:
    case PADLOCK_PLAN_CHECK_LIST:
    case PADLOCK_PLAN_DECRYPT_KEYS:
    case PADLOCK_PLAN_DECRYPT_KEYS_OR_PASSPHRASE:
      if (!*group)
        *group = ++self->next_group;
      start_key_job (self, file, signed_file, *group, plan);
      break;
    case PADLOCK_PLAN_DECRYPT_PASSPHRASE:
      g_ptr_array_add (asked, g_object_ref (file));
      break;
    case PADLOCK_PLAN_ENCRYPT:
    case PADLOCK_PLAN_IMPORT_KEYS:
      g_return_if_reached ();
    }
}

void
padlock_window_keys_set_held_keys (PadlockWindow *self,
                                   PadlockJob    *job)
{
  if (self->held_keys)
    padlock_job_set_held_keys (job, self->held_keys);
}

gboolean
padlock_window_keys_is_key_job (PadlockWindow *self,
                                PadlockJob    *job)
{
  return key_job_kind (job) != 0;
}

gboolean
padlock_window_keys_offer_passphrase (PadlockWindow *self,
                                      PadlockJob    *job)
{
  const GError *error = padlock_job_get_error (job);

  if (key_job_kind (job) != KEY_JOB_SKESK
      || padlock_job_get_state (job) != PADLOCK_JOB_FAILED
      || g_error_matches (error, PADLOCK_ERROR, PADLOCK_ERROR_CANCELLED))
    return FALSE;
  /* Asked once: from now on it is a passphrase's job. */
  g_object_set_qdata (G_OBJECT (job), key_job_quark (), NULL);
  return TRUE;
}

void
padlock_window_dispose_keys (PadlockWindow *self)
{
  if (self->keyring)
    g_signal_handlers_disconnect_by_data (self->keyring, self);
  g_clear_object (&self->keyring);
  g_clear_pointer (&self->held_keys, padlock_held_keys_unref);
  g_clear_pointer (&self->for_keys, g_ptr_array_unref);
}
