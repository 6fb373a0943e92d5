/* padlock-keyring.c - the user's GnuPG keyring, through GPGME */
#include "padlock-keyring.h"

#include <glib/gi18n.h>
#include <glib/gstdio.h>
#include <errno.h>
#include <string.h>

#include "padlock-error.h"
#include "padlock-keyring-private.h"
#include "padlock-name.h"

/* After a change in the home, gpg often writes a few files in a row
 * (pubring, then trustdb): one listing for all of them. */
#define RELOAD_DELAY_MS 200

G_DEFINE_ENUM_TYPE (PadlockKeyringState, padlock_keyring_state,
  G_DEFINE_ENUM_VALUE (PADLOCK_KEYRING_LOADING, "loading"),
  G_DEFINE_ENUM_VALUE (PADLOCK_KEYRING_READY, "ready"),
  G_DEFINE_ENUM_VALUE (PADLOCK_KEYRING_EMPTY, "empty"),
  G_DEFINE_ENUM_VALUE (PADLOCK_KEYRING_NO_HOME, "no-home"),
  G_DEFINE_ENUM_VALUE (PADLOCK_KEYRING_FAILED, "failed"))

struct _PadlockKeyring
{
  GObject parent_instance;

  /* Owned */
  char               *home_dir;
  GPtrArray          *keys;          /* of PadlockKey */
  PadlockKey         *default_key;
  GError             *error;
  GFileMonitor       *home_monitor;
  GFileMonitor       *secret_monitor; /* private-keys-v1.d */
  char               *stamp;         /* of the files the last listing read */
  PadlockKeyringState state;
  guint               reload_source;
  gboolean            loading;
  gboolean            reload_again;  /* asked for while loading */
};

enum
{
  PROP_0,
  PROP_HOME_DIR,
  PROP_STATE,
  PROP_DEFAULT_KEY,
  PROP_N_ITEMS,
  N_PROPS
};

enum
{
  SIGNAL_LOADED,
  N_SIGNALS
};

static GParamSpec *properties[N_PROPS];
static guint signals[N_SIGNALS];

static void list_model_iface_init (GListModelInterface *iface);
static void start_listing (PadlockKeyring *self);
static void watch_secret_keys (PadlockKeyring *self);

G_DEFINE_FINAL_TYPE_WITH_CODE (PadlockKeyring, padlock_keyring, G_TYPE_OBJECT,
  G_IMPLEMENT_INTERFACE (G_TYPE_LIST_MODEL, list_model_iface_init))

void
padlock_keyring_import_free (PadlockKeyringImport *import)
{
  if (!import)
    return;
  g_strfreev (import->new_fingerprints);
  g_strfreev (import->changed_fingerprints);
  g_strfreev (import->new_names);
  g_strfreev (import->changed_names);
  g_strfreev (import->refusals);
  g_free (import);
}

/* GPGME */

static gpointer
init_gpgme (gpointer data)
{
  gpgme_check_version (NULL);
  return NULL;
}

/* Whether HOME_DIR (NULL: none named) is the home gpg takes when it is
 * given none: a context on it then needs no engine info of its own,
 * whose setting costs a `gpg --version` each time (GPGME 1.18 asks the
 * engine its version on every gpgme_ctx_set_engine_info). */
static gboolean
is_gpg_default_home (const char *home_dir)
{
  g_autofree char *home = NULL;

  if (!home_dir)
    return TRUE;
  home = padlock_keyring_default_home ();
  return g_str_equal (home_dir, home);
}

/* A context on HOME_DIR, for one thread. */
static gpgme_error_t
new_context (const char *home_dir, gpgme_ctx_t *ctx)
{
  static GOnce once = G_ONCE_INIT;
  gpgme_error_t err;

  g_once (&once, init_gpgme, NULL);
  err = gpgme_new (ctx);
  if (!err && !is_gpg_default_home (home_dir))
    err = gpgme_ctx_set_engine_info (*ctx, GPGME_PROTOCOL_OpenPGP, NULL,
                                     home_dir);
  if (err)
    g_clear_pointer (ctx, gpgme_release);
  return err;
}

static void
cancel_context (GCancellable *cancellable, gpointer ctx)
{
  /* Safe from any thread, unlike gpgme_cancel. */
  gpgme_cancel_async (ctx);
}

static gulong
connect_cancel (GCancellable *cancellable, gpgme_ctx_t ctx)
{
  if (!cancellable)
    return 0;
  return g_cancellable_connect (cancellable, G_CALLBACK (cancel_context), ctx, NULL);
}

/* Listing, on a worker thread */

static gpgme_error_t
list_keys (gpgme_ctx_t ctx, const char *pattern, int secret_only,
           GPtrArray *keys)
{
  gpgme_error_t err;
  gpgme_key_t key;

  err = gpgme_op_keylist_start (ctx, pattern, secret_only);
  while (!err && !(err = gpgme_op_keylist_next (ctx, &key)))
    {
      if (key->subkeys)
        g_ptr_array_add (keys, padlock_key_new_from_gpgme (key));
      gpgme_key_unref (key);
    }
  if (gpg_err_code (err) == GPG_ERR_EOF)
    err = 0;
  gpgme_op_keylist_end (ctx);
  return err;
}

/* Whether the file at PATH may set an option NAME: it says the word,
 * or it cannot be read.  A missing file sets nothing. */
static gboolean
file_may_say (const char *path, const char *name)
{
  g_autofree char *text = NULL;
  gsize len;

  if (!g_file_get_contents (path, &text, &len, NULL))
    return g_file_test (path, G_FILE_TEST_EXISTS);
  return g_strstr_len (text, len, name) != NULL;
}

/* Whether gpg's configuration in HOME_DIR may set default-key: one of
 * its gpg.conf files (gpg.conf, or a versioned gpg.conf-2.2) says the
 * word, or a global gpg.conf does.  gpg takes no shorter spelling of it
 * ("default-k" is also default-keyserver-url's).  When none does, the
 * key is unset without asking gpgconf, which is three processes. */
static gboolean
may_set_default_key (const char *home_dir)
{
  g_autoptr (GDir) dir = g_dir_open (home_dir, 0, NULL);
  const char *name;

  if (file_may_say ("/etc/gnupg/gpg.conf", "default-key"))
    return TRUE;
  if (!dir)
    return g_file_test (home_dir, G_FILE_TEST_EXISTS);
  while ((name = g_dir_read_name (dir)))
    if (g_str_has_prefix (name, "gpg.conf"))
      {
        g_autofree char *path = g_build_filename (home_dir, name, NULL);

        if (file_may_say (path, "default-key"))
          return TRUE;
      }
  return FALSE;
}

/* gpg's default-key, as gpgconf reads it from HOME_DIR's gpg.conf; NULL
 * when unset (or gpgconf fails: then there is simply no default). */
static char *
read_default_key (const char *home_dir)
{
  const char *gpgconf = gpgme_get_dirinfo ("gpgconf-name");
  const char *argv[] = { gpgconf ? gpgconf : "gpgconf", "--homedir", home_dir,
                         "--list-options", "gpg", NULL };
  g_autofree char *out = NULL;
  g_auto (GStrv) lines = NULL;
  int status;

  if (!may_set_default_key (home_dir))
    return NULL;
  if (!g_spawn_sync (NULL, (char **) argv, NULL,
                     G_SPAWN_SEARCH_PATH | G_SPAWN_STDERR_TO_DEV_NULL,
                     NULL, NULL, &out, NULL, &status, NULL)
      || !g_spawn_check_wait_status (status, NULL))
    return NULL;
  /* name:flags:level:description:type:alt-type:argname:default:argdef:value,
   * a string value quoted by a leading '"' and percent-escaped. */
  lines = g_strsplit (out, "\n", -1);
  for (guint i = 0; lines[i]; i++)
    {
      g_auto (GStrv) fields = g_strsplit (lines[i], ":", 11);

      if (g_strv_length (fields) >= 10 && g_str_equal (fields[0], "default-key")
          && fields[9][0] == '"' && fields[9][1])
        return g_uri_unescape_string (fields[9] + 1, NULL);
    }
  return NULL;
}

static gboolean
can_encrypt_to_me (PadlockKey *key)
{
  g_autofree char *refusal = padlock_key_dup_refusal (key);

  return padlock_key_get_has_secret (key) && !refusal;
}

/* The fingerprint of the key for "encrypt to me", or NULL. */
static char *
choose_default_key (gpgme_ctx_t ctx, const char *home_dir, GPtrArray *keys)
{
  g_autofree char *wanted = read_default_key (home_dir);

  if (wanted)
    {
      /* gpg's own reading of the name: a key ID, a fingerprint, an email,
       * a part of a user ID. */
      g_autoptr (GPtrArray) named = g_ptr_array_new_with_free_func (g_object_unref);

      if (!list_keys (ctx, wanted, 1, named))
        for (guint i = 0; i < named->len; i++)
          {
            const char *fpr = padlock_key_get_fingerprint (named->pdata[i]);

            for (guint j = 0; j < keys->len; j++)
              if (g_str_equal (fpr, padlock_key_get_fingerprint (keys->pdata[j]))
                  && can_encrypt_to_me (keys->pdata[j]))
                return g_strdup (fpr);
          }
    }
  for (guint i = 0; i < keys->len; i++)
    if (can_encrypt_to_me (keys->pdata[i]))
      return g_strdup (padlock_key_get_fingerprint (keys->pdata[i]));
  return NULL;
}

typedef struct
{
  GPtrArray *keys;
  char      *default_fpr;
  char      *stamp;
} Listing;

static void
listing_free (gpointer data)
{
  Listing *listing = data;

  g_clear_pointer (&listing->keys, g_ptr_array_unref);
  g_free (listing->default_fpr);
  g_free (listing->stamp);
  g_free (listing);
}

/* What identifies the state of the files gpg reads: a listing is redone
 * only when it changed, so that gpg's own updates to trustdb.gpg during
 * a listing do not bring another, and another. */
static char *
home_stamp (const char *home_dir)
{
  static const char *const names[] = {
    "pubring.kbx", "pubring.gpg", "trustdb.gpg", "gpg.conf",
    "private-keys-v1.d", NULL,
  };
  GString *stamp = g_string_new (NULL);

  for (guint i = 0; names[i]; i++)
    {
      g_autofree char *path = g_build_filename (home_dir, names[i], NULL);
      GStatBuf st;

      if (g_stat (path, &st) == 0)
        g_string_append_printf (stamp, "%s:%" G_GUINT64_FORMAT ":%" G_GINT64_FORMAT
                                ":%" G_GINT64_FORMAT ".%ld;", names[i],
                                (guint64) st.st_ino, (gint64) st.st_size,
                                (gint64) st.st_mtim.tv_sec, st.st_mtim.tv_nsec);
    }
  return g_string_free (stamp, FALSE);
}

static void
list_thread (GTask *task, gpointer source, gpointer task_data,
             GCancellable *cancellable)
{
  const char *home_dir = task_data;
  Listing *listing = g_new0 (Listing, 1);
  gpgme_ctx_t ctx = NULL;
  gpgme_error_t err;

  listing->stamp = home_stamp (home_dir);
  listing->keys = g_ptr_array_new_with_free_func (g_object_unref);
  if (!g_file_test (home_dir, G_FILE_TEST_IS_DIR))
    {
      /* gpg creates its default home when it first runs: for it to do,
       * not for a listing. */
      g_task_return_pointer (task, listing, listing_free);
      return;
    }
  err = new_context (home_dir, &ctx);
  if (!err)
    {
      /* GPGME 1.18's gpg engine ignores VALIDATE (gpg's listing gives the
       * validity from the trust database, which it updates when due) and
       * asks for keygrips with WITH_SECRET already; both said anyway. */
      err = gpgme_set_keylist_mode (ctx, GPGME_KEYLIST_MODE_LOCAL
                                    | GPGME_KEYLIST_MODE_VALIDATE
                                    | GPGME_KEYLIST_MODE_WITH_KEYGRIP
                                    | GPGME_KEYLIST_MODE_WITH_SECRET);
    }
  if (!err)
    err = list_keys (ctx, NULL, 0, listing->keys);
  if (!err)
    listing->default_fpr = choose_default_key (ctx, home_dir, listing->keys);
  g_clear_pointer (&ctx, gpgme_release);
  if (err)
    {
      listing_free (listing);
      g_task_return_error (task, padlock_error_from_gpg (err));
      return;
    }
  g_task_return_pointer (task, listing, listing_free);
}

/* Listing, back on the main thread */

static void
set_state (PadlockKeyring *self, PadlockKeyringState state)
{
  if (self->state == state)
    return;
  self->state = state;
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_STATE]);
}

static void
replace_keys (PadlockKeyring *self, Listing *listing)
{
  guint removed = self->keys->len;
  PadlockKey *default_key = NULL;

  g_ptr_array_unref (self->keys);
  self->keys = g_steal_pointer (&listing->keys);
  for (guint i = 0; listing->default_fpr && i < self->keys->len; i++)
    if (g_str_equal (listing->default_fpr,
                     padlock_key_get_fingerprint (self->keys->pdata[i])))
      default_key = self->keys->pdata[i];
  if (g_set_object (&self->default_key, default_key))
    g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_DEFAULT_KEY]);
  if (removed || self->keys->len)
    {
      g_list_model_items_changed (G_LIST_MODEL (self), 0, removed, self->keys->len);
      g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_N_ITEMS]);
    }
}

static void
list_done (GObject *source, GAsyncResult *result, gpointer user_data)
{
  g_autoptr (PadlockKeyring) self = g_weak_ref_get (user_data);
  g_autoptr (GError) error = NULL;
  Listing *listing;
  gboolean has_home;

  g_weak_ref_clear (user_data);
  g_free (user_data);
  listing = g_task_propagate_pointer (G_TASK (result), &error);
  if (!self)
    {
      g_clear_pointer (&listing, listing_free);
      return;
    }
  self->loading = FALSE;
  g_clear_error (&self->error);
  if (error)
    {
      self->error = g_steal_pointer (&error);
      set_state (self, PADLOCK_KEYRING_FAILED);
    }
  else
    {
      has_home = g_file_test (self->home_dir, G_FILE_TEST_IS_DIR);
      g_free (self->stamp);
      self->stamp = g_strdup (listing->stamp);
      replace_keys (self, listing);
      listing_free (listing);
      watch_secret_keys (self);
      set_state (self, self->keys->len ? PADLOCK_KEYRING_READY
                 : has_home ? PADLOCK_KEYRING_EMPTY : PADLOCK_KEYRING_NO_HOME);
    }
  g_signal_emit (self, signals[SIGNAL_LOADED], 0);
  if (self->reload_again)
    {
      self->reload_again = FALSE;
      start_listing (self);
    }
}

static void
start_listing (PadlockKeyring *self)
{
  g_autoptr (GTask) task = NULL;
  GWeakRef *weak;

  if (self->loading)
    {
      self->reload_again = TRUE;
      return;
    }
  /* A listing is short, and never cancelled; but it does not hold the
   * keyring.  The last unref stops the home's monitors and any reload
   * to come at once (dispose), so that nothing runs gpg in a home the
   * keyring's owner has let go of: the gpg of a listing under way ends
   * on its own, and its keys are dropped. */
  self->loading = TRUE;
  weak = g_new0 (GWeakRef, 1);
  g_weak_ref_init (weak, self);
  task = g_task_new (NULL, NULL, list_done, weak);
  g_task_set_source_tag (task, start_listing);
  g_task_set_task_data (task, g_strdup (self->home_dir), g_free);
  g_task_run_in_thread (task, list_thread);
}

/* The file monitor */

static gboolean
reload_if_changed (gpointer user_data)
{
  PadlockKeyring *self = user_data;
  g_autofree char *stamp = home_stamp (self->home_dir);

  self->reload_source = 0;
  if (self->loading || g_strcmp0 (stamp, self->stamp) != 0)
    start_listing (self);
  return G_SOURCE_REMOVE;
}

static gboolean
is_noise (GFile *file)
{
  g_autofree char *name = file ? g_file_get_basename (file) : NULL;

  /* The agent's sockets, gpg's lock files and its random seed. */
  return !name || g_str_has_prefix (name, "S.") || g_str_has_prefix (name, ".#lk")
         || g_str_has_suffix (name, ".lock") || g_str_equal (name, "random_seed");
}

static void home_changed (GFileMonitor *monitor, GFile *file, GFile *other,
                          GFileMonitorEvent event, gpointer user_data);

/* Secret keys live in a folder of their own, which gpg creates with the
 * first one: watched once it exists. */
static void
watch_secret_keys (PadlockKeyring *self)
{
  g_autofree char *path = NULL;
  g_autoptr (GFile) dir = NULL;

  if (self->secret_monitor)
    return;
  path = g_build_filename (self->home_dir, "private-keys-v1.d", NULL);
  if (!g_file_test (path, G_FILE_TEST_IS_DIR))
    return;
  dir = g_file_new_for_path (path);
  self->secret_monitor = g_file_monitor_directory (dir, G_FILE_MONITOR_NONE,
                                                   NULL, NULL);
  if (self->secret_monitor)
    g_signal_connect (self->secret_monitor, "changed",
                      G_CALLBACK (home_changed), self);
}

static void
home_changed (GFileMonitor *monitor, GFile *file, GFile *other,
              GFileMonitorEvent event, gpointer user_data)
{
  PadlockKeyring *self = user_data;

  if (is_noise (file) && is_noise (other))
    return;
  watch_secret_keys (self);
  g_clear_handle_id (&self->reload_source, g_source_remove);
  self->reload_source = g_timeout_add (RELOAD_DELAY_MS, reload_if_changed, self);
}

static void
watch_home (PadlockKeyring *self)
{
  g_autoptr (GFile) home = g_file_new_for_path (self->home_dir);

  /* A missing home is watched too: GIO notices when it is created. */
  self->home_monitor = g_file_monitor_directory (home, G_FILE_MONITOR_NONE,
                                                 NULL, NULL);
  if (self->home_monitor)
    g_signal_connect (self->home_monitor, "changed", G_CALLBACK (home_changed),
                      self);
  watch_secret_keys (self);
}

/* GObject */

static GType
list_model_get_item_type (GListModel *model)
{
  return PADLOCK_TYPE_KEY;
}

static guint
list_model_get_n_items (GListModel *model)
{
  return PADLOCK_KEYRING (model)->keys->len;
}

static gpointer
list_model_get_item (GListModel *model, guint position)
{
  PadlockKeyring *self = PADLOCK_KEYRING (model);

  if (position >= self->keys->len)
    return NULL;
  return g_object_ref (self->keys->pdata[position]);
}

static void
list_model_iface_init (GListModelInterface *iface)
{
  iface->get_item_type = list_model_get_item_type;
  iface->get_n_items = list_model_get_n_items;
  iface->get_item = list_model_get_item;
}

static void
padlock_keyring_dispose (GObject *object)
{
  PadlockKeyring *self = PADLOCK_KEYRING (object);

  g_clear_handle_id (&self->reload_source, g_source_remove);
  if (self->home_monitor)
    g_signal_handlers_disconnect_by_data (self->home_monitor, self);
  if (self->secret_monitor)
    g_signal_handlers_disconnect_by_data (self->secret_monitor, self);
  g_clear_object (&self->home_monitor);
  g_clear_object (&self->secret_monitor);
  g_clear_object (&self->default_key);
  G_OBJECT_CLASS (padlock_keyring_parent_class)->dispose (object);
}

static void
padlock_keyring_finalize (GObject *object)
{
  PadlockKeyring *self = PADLOCK_KEYRING (object);

  g_ptr_array_unref (self->keys);
  g_clear_error (&self->error);
  g_free (self->home_dir);
  g_free (self->stamp);
  G_OBJECT_CLASS (padlock_keyring_parent_class)->finalize (object);
}

static void
padlock_keyring_get_property (GObject *object, guint prop_id, GValue *value,
                              GParamSpec *pspec)
{
  PadlockKeyring *self = PADLOCK_KEYRING (object);

  switch (prop_id)
    {
    case PROP_HOME_DIR:
      g_value_set_string (value, self->home_dir);
      break;
    case PROP_STATE:
      g_value_set_enum (value, self->state);
      break;
    case PROP_DEFAULT_KEY:
      g_value_set_object (value, self->default_key);
      break;
    case PROP_N_ITEMS:
      g_value_set_uint (value, self->keys->len);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
padlock_keyring_set_property (GObject *object, guint prop_id,
                              const GValue *value, GParamSpec *pspec)
{
  PadlockKeyring *self = PADLOCK_KEYRING (object);

  switch (prop_id)
    {
    case PROP_HOME_DIR:
      self->home_dir = g_value_dup_string (value);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

char *
padlock_keyring_default_home (void)
{
  /* gpg's own choice on Unix: GNUPGHOME, else ~/.gnupg. */
  const char *env = g_getenv ("GNUPGHOME");

  return env && *env ? g_strdup (env)
                     : g_build_filename (g_get_home_dir (), ".gnupg", NULL);
}

static void
padlock_keyring_constructed (GObject *object)
{
  PadlockKeyring *self = PADLOCK_KEYRING (object);

  G_OBJECT_CLASS (padlock_keyring_parent_class)->constructed (object);
  if (!self->home_dir || !*self->home_dir)
    {
      g_free (self->home_dir);
      self->home_dir = padlock_keyring_default_home ();
    }
  watch_home (self);
  start_listing (self);
}

static void
padlock_keyring_class_init (PadlockKeyringClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);

  object_class->dispose = padlock_keyring_dispose;
  object_class->finalize = padlock_keyring_finalize;
  object_class->get_property = padlock_keyring_get_property;
  object_class->set_property = padlock_keyring_set_property;
  object_class->constructed = padlock_keyring_constructed;

  properties[PROP_HOME_DIR] =
    g_param_spec_string ("home-dir", NULL, NULL, NULL,
                         G_PARAM_READWRITE | G_PARAM_CONSTRUCT_ONLY
                         | G_PARAM_STATIC_STRINGS);
  properties[PROP_STATE] =
    g_param_spec_enum ("state", NULL, NULL, PADLOCK_TYPE_KEYRING_STATE,
                       PADLOCK_KEYRING_LOADING,
                       G_PARAM_READABLE | G_PARAM_STATIC_STRINGS);
  properties[PROP_DEFAULT_KEY] =
    g_param_spec_object ("default-key", NULL, NULL, PADLOCK_TYPE_KEY,
                         G_PARAM_READABLE | G_PARAM_STATIC_STRINGS);
  properties[PROP_N_ITEMS] =
    g_param_spec_uint ("n-items", NULL, NULL, 0, G_MAXUINT, 0,
                       G_PARAM_READABLE | G_PARAM_STATIC_STRINGS);
  g_object_class_install_properties (object_class, N_PROPS, properties);

  /* After each listing, once the model and the state are up to date. */
  signals[SIGNAL_LOADED] =
    g_signal_new ("loaded", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST,
                  0, NULL, NULL, NULL, G_TYPE_NONE, 0);
}

static void
padlock_keyring_init (PadlockKeyring *self)
{
  self->keys = g_ptr_array_new_with_free_func (g_object_unref);
  self->state = PADLOCK_KEYRING_LOADING;
}

PadlockKeyring *
padlock_keyring_new (const char *home_dir)
{
  return g_object_new (PADLOCK_TYPE_KEYRING, "home-dir", home_dir, NULL);
}

const char *
padlock_keyring_get_home_dir (PadlockKeyring *self)
{
  g_return_val_if_fail (PADLOCK_IS_KEYRING (self), NULL);
  return self->home_dir;
}

PadlockKeyringState
padlock_keyring_get_state (PadlockKeyring *self)
{
  g_return_val_if_fail (PADLOCK_IS_KEYRING (self), PADLOCK_KEYRING_FAILED);
  return self->state;
}

const GError *
padlock_keyring_get_error (PadlockKeyring *self)
{
  g_return_val_if_fail (PADLOCK_IS_KEYRING (self), NULL);
  return self->error;
}

PadlockKey *
padlock_keyring_get_default_key (PadlockKeyring *self)
{
  g_return_val_if_fail (PADLOCK_IS_KEYRING (self), NULL);
  return self->default_key;
}

void
padlock_keyring_reload (PadlockKeyring *self)
{
  g_return_if_fail (PADLOCK_IS_KEYRING (self));
  start_listing (self);
}

gboolean
padlock_keyring_is_listing (PadlockKeyring *self)
{
  g_return_val_if_fail (PADLOCK_IS_KEYRING (self), FALSE);
  return self->loading;
}

GPtrArray *
padlock_keyring_search (PadlockKeyring *self, const char *query)
{
  GPtrArray *matches = g_ptr_array_new_with_free_func (g_object_unref);

  g_return_val_if_fail (PADLOCK_IS_KEYRING (self), matches);
  g_return_val_if_fail (query != NULL, matches);

  for (guint i = 0; i < self->keys->len; i++)
    if (padlock_key_matches (self->keys->pdata[i], query))
      g_ptr_array_add (matches, g_object_ref (self->keys->pdata[i]));
  return matches;
}

PadlockKey *
padlock_keyring_find_key (PadlockKeyring *self, const char *id,
                          gboolean secret_only, const PadlockSubkey **subkey)
{
  g_return_val_if_fail (PADLOCK_IS_KEYRING (self), NULL);
  g_return_val_if_fail (id != NULL, NULL);

  for (guint i = 0; i < self->keys->len; i++)
    {
      const PadlockSubkey *found = padlock_key_find_subkey (self->keys->pdata[i], id);

      if (found && (!secret_only || found->has_secret))
        {
          if (subkey)
            *subkey = found;
          return self->keys->pdata[i];
        }
    }
  return NULL;
}

/* Export and import, on worker threads */

typedef struct
{
  char   *home_dir;
  GStrv   fingerprints;   /* export */
  GFile  *file;           /* import */
  GBytes *bytes;          /* or this */
} Transfer;

static void
transfer_free (gpointer data)
{
  Transfer *transfer = data;

  g_free (transfer->home_dir);
  g_strfreev (transfer->fingerprints);
  g_clear_object (&transfer->file);
  g_clear_pointer (&transfer->bytes, g_bytes_unref);
  g_free (transfer);
}

static GTask *
new_transfer_task (PadlockKeyring *self, GCancellable *cancellable,
                   GAsyncReadyCallback callback, gpointer user_data,
                   gpointer source_tag, Transfer **transfer)
{
  GTask *task = g_task_new (self, cancellable, callback, user_data);

  g_task_set_source_tag (task, source_tag);
  *transfer = g_new0 (Transfer, 1);
  (*transfer)->home_dir = g_strdup (self->home_dir);
  g_task_set_task_data (task, *transfer, transfer_free);
  return task;
}

/* Exports one certificate into DATA; a fingerprint that matches nothing
 * is an error rather than a silent omission. */
static gpgme_error_t
export_one (gpgme_ctx_t ctx, const char *fingerprint, gpgme_data_t data)
{
  off_t before = gpgme_data_seek (data, 0, SEEK_CUR);
  gpgme_error_t err;

  err = gpgme_op_export (ctx, fingerprint, GPGME_EXPORT_MODE_MINIMAL, data);
  if (!err && gpgme_data_seek (data, 0, SEEK_CUR) == before)
    err = gpg_error (GPG_ERR_NO_PUBKEY);
  return err;
}

GBytes *
padlock_keyring_export_home (const char *home_dir,
                             const char * const *fingerprints,
                             GCancellable *cancellable, GError **error)
{
  gpgme_ctx_t ctx = NULL;
  gpgme_data_t data = NULL;
  gpgme_error_t err;
  gulong handler = 0;
  GBytes *bytes = NULL;
  char *octets;
  size_t len = 0;

  err = new_context (home_dir, &ctx);
  if (!err)
    err = gpgme_data_new (&data);
  if (!err)
    handler = connect_cancel (cancellable, ctx);
  for (guint i = 0; !err && fingerprints[i]; i++)
    {
      err = export_one (ctx, fingerprints[i], data);
      if (gpg_err_code (err) == GPG_ERR_NO_PUBKEY)
        {
          g_propagate_error (error, _padlock_keyring_no_such_key (fingerprints[i]));
          goto leave;
        }
    }
  g_cancellable_disconnect (cancellable, handler);
  handler = 0;
  if (err)
    {
      g_propagate_error (error, padlock_error_from_gpg (err));
      goto leave;
    }
  octets = gpgme_data_release_and_get_mem (g_steal_pointer (&data), &len);
  bytes = g_bytes_new (octets, len);
  gpgme_free (octets);
leave:
  g_cancellable_disconnect (cancellable, handler);
  g_clear_pointer (&data, gpgme_data_release);
  g_clear_pointer (&ctx, gpgme_release);
  return bytes;
}

GBytes *
padlock_keyring_find_signer_home (const char *home_dir, const char *id,
                                  PadlockKey **key, GError **error)
{
  gpgme_ctx_t ctx = NULL;
  gpgme_key_t found = NULL;
  gpgme_error_t err;
  GBytes *bytes = NULL;

  *key = NULL;
  err = new_context (home_dir, &ctx);
  if (!err)
    err = gpgme_set_keylist_mode (ctx, GPGME_KEYLIST_MODE_LOCAL
                                       | GPGME_KEYLIST_MODE_VALIDATE);
  if (!err)
    err = gpgme_get_key (ctx, id, &found, 0);
  if (gpg_err_code (err) == GPG_ERR_EOF
      || gpg_err_code (err) == GPG_ERR_NO_PUBKEY)
    err = 0;            /* not in the keyring: an unknown signer */
  else if (err)
    g_propagate_error (error, padlock_error_from_gpg (err));
  else if (found && found->subkeys)
    {
      const char *fingerprints[] = { found->subkeys->fpr, NULL };

      bytes = padlock_keyring_export_home (home_dir, fingerprints, NULL,
                                           error);
      if (bytes)
        *key = padlock_key_new_from_gpgme (found);
    }
  g_clear_pointer (&found, gpgme_key_unref);
  g_clear_pointer (&ctx, gpgme_release);
  return bytes;
}

static void
export_thread (GTask *task, gpointer source, gpointer task_data,
               GCancellable *cancellable)
{
  Transfer *transfer = task_data;
  GError *error = NULL;
  GBytes *bytes = padlock_keyring_export_home (transfer->home_dir,
                                               (const char * const *) transfer->fingerprints,
                                               cancellable, &error);

  if (bytes)
    g_task_return_pointer (task, bytes, (GDestroyNotify) g_bytes_unref);
  else
    g_task_return_error (task, error);
}

void
padlock_keyring_export_async (PadlockKeyring *self,
                              const char * const *fingerprints,
                              GCancellable *cancellable,
                              GAsyncReadyCallback callback, gpointer user_data)
{
  g_autoptr (GTask) task = NULL;
  Transfer *transfer;

  g_return_if_fail (PADLOCK_IS_KEYRING (self));
  g_return_if_fail (fingerprints != NULL && fingerprints[0] != NULL);

  task = new_transfer_task (self, cancellable, callback, user_data,
                            padlock_keyring_export_async, &transfer);
  transfer->fingerprints = g_strdupv ((char **) fingerprints);
  g_task_run_in_thread (task, export_thread);
}

GBytes *
padlock_keyring_export_finish (PadlockKeyring *self, GAsyncResult *result,
                               GError **error)
{
  g_return_val_if_fail (g_task_is_valid (result, self), NULL);
  return g_task_propagate_pointer (G_TASK (result), error);
}

/* How the import names the certificate FPR: its primary user ID as
 * padlock_name_display shows it (one line, every character visible), or
 * the fingerprint when it has none. */
static char *
import_name (gpgme_ctx_t ctx, const char *fpr)
{
  gpgme_key_t key = NULL;
  char *name;

  gpgme_get_key (ctx, fpr, &key, 0);
  name = padlock_name_display (key && key->uids && key->uids->uid
                               ? key->uids->uid : fpr);
  gpgme_key_unref (key);
  return name;
}

static PadlockKeyringImport *
import_from_gpgme (gpgme_ctx_t ctx, gpgme_import_result_t result)
{
  PadlockKeyringImport *import = g_new0 (PadlockKeyringImport, 1);
  g_autoptr (GStrvBuilder) added = g_strv_builder_new ();
  g_autoptr (GStrvBuilder) changed = g_strv_builder_new ();
  g_autoptr (GStrvBuilder) names = g_strv_builder_new ();
  g_autoptr (GStrvBuilder) changed_names = g_strv_builder_new ();
  g_autoptr (GStrvBuilder) refusals = g_strv_builder_new ();

  import->considered = result->considered;
  import->imported = result->imported;
  import->unchanged = result->unchanged;
  import->new_user_ids = result->new_user_ids;
  import->new_subkeys = result->new_sub_keys;
  import->new_signatures = result->new_signatures;
  import->new_revocations = result->new_revocations;
  import->secret_imported = result->secret_imported;
  import->not_imported = result->not_imported;
  for (gpgme_import_status_t status = result->imports; status; status = status->next)
    {
      if (status->result)
        g_strv_builder_add (refusals, gpgme_strerror (status->result));
      if (status->result || !status->fpr)
        continue;
      if (status->status & GPGME_IMPORT_NEW)
        {
          g_autofree char *name = import_name (ctx, status->fpr);

          g_strv_builder_add (added, status->fpr);
          g_strv_builder_add (names, name);
        }
      else if (status->status & (GPGME_IMPORT_UID | GPGME_IMPORT_SIG
                                 | GPGME_IMPORT_SUBKEY | GPGME_IMPORT_SECRET))
        {
          g_autofree char *name = import_name (ctx, status->fpr);

          g_strv_builder_add (changed, status->fpr);
          g_strv_builder_add (changed_names, name);
        }
    }
  import->new_fingerprints = g_strv_builder_end (added);
  import->changed_fingerprints = g_strv_builder_end (changed);
  import->new_names = g_strv_builder_end (names);
  import->changed_names = g_strv_builder_end (changed_names);
  import->refusals = g_strv_builder_end (refusals);
  return import;
}

/* "1 new user ID, 2 new signatures": what the changed keys gained. */
static char *
describe_gains (const PadlockKeyringImport *import)
{
  g_autoptr (GPtrArray) parts = g_ptr_array_new_with_free_func (g_free);

  if (import->new_user_ids)
    g_ptr_array_add (parts, g_strdup_printf (g_dngettext (NULL,
                     "%u new user ID", "%u new user IDs", import->new_user_ids),
                     import->new_user_ids));
  if (import->new_signatures)
    g_ptr_array_add (parts, g_strdup_printf (g_dngettext (NULL,
                     "%u new signature", "%u new signatures", import->new_signatures),
                     import->new_signatures));
  if (import->new_subkeys)
    g_ptr_array_add (parts, g_strdup_printf (g_dngettext (NULL,
                     "%u new subkey", "%u new subkeys", import->new_subkeys),
                     import->new_subkeys));
  if (import->new_revocations)
    g_ptr_array_add (parts, g_strdup_printf (g_dngettext (NULL,
                     "%u revocation", "%u revocations", import->new_revocations),
                     import->new_revocations));
  g_ptr_array_add (parts, NULL);
  return g_strjoinv (", ", (char **) parts->pdata);
}

static void
append_sentence (GString *text, const char *sentence)
{
  if (text->len)
    g_string_append_c (text, ' ');
  g_string_append (text, sentence);
}

char *
padlock_keyring_import_describe (const PadlockKeyringImport *import)
{
  g_autoptr (GString) text = g_string_new (NULL);
  guint n_new = import->new_fingerprints ? g_strv_length (import->new_fingerprints) : 0;
  guint n_changed = import->changed_fingerprints
                    ? g_strv_length (import->changed_fingerprints) : 0;

  if (n_new)
    {
      g_autofree char *names = g_strjoinv (", ", import->new_names);
      g_autofree char *sentence = NULL;

      /* Translators: %s is a key's name ("Bob <bob@example.org>"), or
       * several, separated by commas. */
      sentence = g_strdup_printf (g_dngettext (NULL, "Added %s.",
                                               "Added %2$u keys: %1$s.", n_new),
                                  names, n_new);
      append_sentence (text, sentence);
    }
  if (n_changed)
    {
      g_autofree char *names = g_strjoinv (", ", import->changed_names);
      g_autofree char *gains = describe_gains (import);
      g_autofree char *sentence = NULL;

      /* Translators: "Updated Bob <bob@example.org>: 1 new user ID." */
      sentence = g_strdup_printf (_("Updated %s: %s."), names, gains);
      append_sentence (text, sentence);
    }
  if (import->unchanged)
    {
      g_autofree char *sentence = g_strdup_printf (g_dngettext (NULL,
                                  "%u key was already there, unchanged.",
                                  "%u keys were already there, unchanged.",
                                  import->unchanged), import->unchanged);

      append_sentence (text, sentence);
    }
  if (import->not_imported)
    {
      g_autofree char *why = import->refusals && import->refusals[0]
                             ? g_strjoinv ("; ", import->refusals) : NULL;
      g_autofree char *sentence = g_strdup_printf (g_dngettext (NULL,
                                  "%u key was not imported", "%u keys were not imported",
                                  import->not_imported), import->not_imported);

      append_sentence (text, sentence);
      g_string_append (text, why ? ": " : ".");
      if (why)
        g_string_append_printf (text, "%s.", why);
    }
  if (!text->len)
    g_string_append (text, _("Nothing was imported."));
  return g_string_free (g_steal_pointer (&text), FALSE);
}

const char *
padlock_keyring_secret_refusal (void)
{
  return _("This is a secret key, which its owner should never share: "
           "Padlock adds only public keys");
}

/* Whether DATA holds a secret key, as gpg reads it (keylist_from_data:
 * gpg --import --import-options show-only, nothing imported); DATA is
 * rewound. */
static gpgme_error_t
holds_secret_key (gpgme_ctx_t ctx, gpgme_data_t data, gboolean *secret)
{
  gpgme_error_t err;
  gpgme_key_t key;

  *secret = FALSE;
  err = gpgme_op_keylist_from_data_start (ctx, data, 0);
  while (!err && !(err = gpgme_op_keylist_next (ctx, &key)))
    {
      *secret |= key->secret;
      gpgme_key_unref (key);
    }
  gpgme_op_keylist_end (ctx);
  /* Nothing gpg can read: gpg_op_import says so, below. */
  if (gpg_err_code (err) == GPG_ERR_EOF || gpg_err_code (err) == GPG_ERR_NO_DATA
      || gpg_err_code (err) == GPG_ERR_INV_ENGINE)
    err = 0;
  if (gpgme_data_seek (data, 0, SEEK_SET) != 0)
    err = gpg_error_from_syserror ();
  return err;
}

/* The GnuPG home HOME_DIR (NULL: gpg's default), made (0700) when
 * there is none yet, as gpg makes ~/.gnupg: an import is the user's
 * request, and gpg imports into no other home that is missing. */
static gboolean
make_home (const char *home_dir, GError **error)
{
  g_autofree char *dir = home_dir ? g_strdup (home_dir) : padlock_keyring_default_home ();

  if (g_file_test (dir, G_FILE_TEST_IS_DIR))
    return TRUE;
  if (g_mkdir_with_parents (dir, 0700) == 0)
    return TRUE;
  g_set_error (error, PADLOCK_ERROR, PADLOCK_ERROR_IO,
               /* Translators: %s is a folder, then why it could not be made. */
               _("Could not make the GnuPG folder %s: %s"), dir,
               g_strerror (errno));
  return FALSE;
}

static void
import_thread (GTask *task, gpointer source, gpointer task_data,
               GCancellable *cancellable)
{
  Transfer *transfer = task_data;
  g_autoptr (GError) error = NULL;
  g_autofree char *contents = NULL;
  gpgme_ctx_t ctx = NULL;
  gpgme_data_t data = NULL;
  gpgme_error_t err;
  gulong handler = 0;
  gboolean secret = FALSE;
  gsize len;

  if (transfer->bytes)
    contents = g_memdup2 (g_bytes_get_data (transfer->bytes, &len),
                          g_bytes_get_size (transfer->bytes));
  else if (!g_file_load_contents (transfer->file, cancellable, &contents, &len,
                                  NULL, &error))
    {
      g_task_return_error (task, g_steal_pointer (&error));
      return;
    }
  if (!make_home (transfer->home_dir, &error))
    {
      g_task_return_error (task, g_steal_pointer (&error));
      return;
    }
  err = new_context (transfer->home_dir, &ctx);
  if (!err)
    err = gpgme_data_new_from_mem (&data, contents, len, 0);
  if (!err)
    err = holds_secret_key (ctx, data, &secret);
  if (!err && secret)
    {
      g_task_return_new_error (task, PADLOCK_ERROR, PADLOCK_ERROR_UNSUPPORTED,
                               /* Translators: after the refusal's words. */
                               _("%s, so nothing was imported"),
                               padlock_keyring_secret_refusal ());
      goto out;
    }
  if (!err)
    {
      handler = connect_cancel (cancellable, ctx);
      err = gpgme_op_import (ctx, data);
      g_cancellable_disconnect (cancellable, handler);
    }
  if (!err && gpgme_op_import_result (ctx)->considered == 0)
    g_task_return_new_error (task, PADLOCK_ERROR, PADLOCK_ERROR_MALFORMED,
                             _("It holds no OpenPGP key"));
  else if (err)
    g_task_return_error (task, padlock_error_from_gpg (err));
  else
    g_task_return_pointer (task, import_from_gpgme (ctx, gpgme_op_import_result (ctx)),
                           (GDestroyNotify) padlock_keyring_import_free);
out:
  g_clear_pointer (&data, gpgme_data_release);
  g_clear_pointer (&ctx, gpgme_release);
}

void
padlock_keyring_import_async (PadlockKeyring *self, GFile *file,
                              GCancellable *cancellable,
                              GAsyncReadyCallback callback, gpointer user_data)
{
  g_autoptr (GTask) task = NULL;
  Transfer *transfer;

  g_return_if_fail (PADLOCK_IS_KEYRING (self));
  g_return_if_fail (G_IS_FILE (file));

  task = new_transfer_task (self, cancellable, callback, user_data,
                            padlock_keyring_import_async, &transfer);
  transfer->file = g_object_ref (file);
  g_task_run_in_thread (task, import_thread);
}

void
padlock_keyring_import_bytes_async (PadlockKeyring *self, GBytes *bytes,
                                    GCancellable *cancellable,
                                    GAsyncReadyCallback callback,
                                    gpointer user_data)
{
  g_autoptr (GTask) task = NULL;
  Transfer *transfer;

  g_return_if_fail (PADLOCK_IS_KEYRING (self));
  g_return_if_fail (bytes != NULL);

  task = new_transfer_task (self, cancellable, callback, user_data,
                            padlock_keyring_import_async, &transfer);
  transfer->bytes = g_bytes_ref (bytes);
  g_task_run_in_thread (task, import_thread);
}

PadlockKeyringImport *
padlock_keyring_import_finish (PadlockKeyring *self, GAsyncResult *result,
                               GError **error)
{
  PadlockKeyringImport *import;

  g_return_val_if_fail (g_task_is_valid (result, self), NULL);
  import = g_task_propagate_pointer (G_TASK (result), error);
  /* The monitor would notice too, a little later. */
  if (import)
    start_listing (self);
  return import;
}

gpgme_error_t
_padlock_keyring_new_context (const char *home_dir, gpgme_ctx_t *ctx)
{
  return new_context (home_dir, ctx);
}

GError *
_padlock_keyring_no_such_key (const char *fingerprint)
{
  return g_error_new (PADLOCK_ERROR, PADLOCK_ERROR_OTHER,
                      _("The keyring has no key %s"), fingerprint);
}

GError *
_padlock_keyring_get_key (gpgme_ctx_t ctx, const char *fingerprint, gboolean secret,
                          gpgme_key_t *key)
{
  gpgme_error_t err = gpgme_get_key (ctx, fingerprint, key, secret);

  if (gpg_err_code (err) == GPG_ERR_EOF || (!err && !(*key)->subkeys))
    {
      g_clear_pointer (key, gpgme_key_unref);
      return _padlock_keyring_no_such_key (fingerprint);
    }
  return err ? padlock_error_from_gpg (err) : NULL;
}
