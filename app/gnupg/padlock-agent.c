/* padlock-agent.c - asking gpg-agent to use a secret key, as gpg does */
#include "padlock-agent.h"

#include <assuan.h>
#include <glib/gi18n.h>
#include <gpgme.h>
#include <locale.h>
#include <signal.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#include "job.h"
#include "padlock-keyring.h"
#include "padlock-name.h"
#include "padlock-error.h"

/* A sane agent answers PKDECRYPT with a few hundred octets (RSA-16384:
 * 2 KiB); more is refused rather than buffered. */
#define MAX_ANSWER (64 * 1024)
/* Connections kept for the next requests. */
#define MAX_IDLE 4

struct _PadlockAgent
{
  GObject parent_instance;

  /* Owned */
  char      *home_dir;       /* NULL: gpg's default */
  GMutex     lock;           /* guards what follows */
  char      *socket_path;
  GPtrArray *idle;           /* of assuan_context_t */
  GHashTable *answered;      /* keygrips the agent has used for us */
  guint      n_busy;         /* connections that requests hold */
  guint      n_pinentries;   /* of them, those waiting for a pinentry */
  GCond      given_back;     /* a connection went back, or its pinentry rose */
  GMutex     turn;           /* a key's first request (its pinentry) */
};

G_DEFINE_FINAL_TYPE (PadlockAgent, padlock_agent, G_TYPE_OBJECT)

void
padlock_agent_decrypted_free (PadlockAgentDecrypted *decrypted)
{
  if (!decrypted)
    return;
  /* gcry_free wipes secure memory. */
  gcry_free (decrypted->sexp);
  g_free (decrypted);
}

/* Errors: the agent's codes, in words that say what to do. */

static GError *
agent_error (gpg_error_t err)
{
  switch (gpg_err_code (err))
    {
    case GPG_ERR_CANCELED:
    case GPG_ERR_FULLY_CANCELED:
      return g_error_new_literal (PADLOCK_ERROR, PADLOCK_ERROR_CANCELLED,
                                  _("Cancelled, nothing was written."));
    case GPG_ERR_NO_PIN_ENTRY:
    case GPG_ERR_NO_PASSPHRASE:
      return g_error_new_literal (PADLOCK_ERROR, PADLOCK_ERROR_OTHER,
                                  _("GnuPG cannot ask for the key's passphrase: "
                                    "no pinentry program works here.  Install "
                                    "pinentry-gnome3 (or pinentry-curses for a "
                                    "terminal)."));
    case GPG_ERR_CARD_NOT_PRESENT:
    case GPG_ERR_CARD_REMOVED:
    case GPG_ERR_CARD_RESET:
    case GPG_ERR_NO_SCDAEMON:
    case GPG_ERR_ENODEV:
      return g_error_new_literal (PADLOCK_ERROR, PADLOCK_ERROR_OTHER,
                                  _("The key is on a smartcard that is not "
                                    "inserted.  Insert it and try again."));
    case GPG_ERR_NO_SECKEY:
      return g_error_new_literal (PADLOCK_ERROR, PADLOCK_ERROR_PUBLIC_KEY,
                                  _("GnuPG has no secret key for this key."));
    case GPG_ERR_BAD_PASSPHRASE:
      return g_error_new_literal (PADLOCK_ERROR, PADLOCK_ERROR_BAD_PASSPHRASE,
                                  _("The key's passphrase is wrong."));
    case GPG_ERR_NO_AGENT:
    case GPG_ERR_ASS_CONNECT_FAILED:
      return g_error_new_literal (PADLOCK_ERROR, PADLOCK_ERROR_OTHER,
                                  _("gpg-agent is not running and could not be "
                                    "started."));
    default:
      return padlock_error_from_gpg (err);
    }
}

/* Finding and starting the agent */

static char *
gpgconf_path (void)
{
  static gsize once;
  static char *path;

  if (g_once_init_enter (&once))
    {
      const char *found;

      /* gpgme_check_version before any other GPGME call. */
      gpgme_check_version (NULL);
      found = gpgme_get_dirinfo ("gpgconf-name");
      path = g_strdup (found ? found : "gpgconf");
      g_once_init_leave (&once, 1);
    }
  return path;
}

/* Runs gpgconf [--homedir HOME] ARGS…; its output, or NULL. */
static char *
run_gpgconf (PadlockAgent *self, GCancellable *cancellable, GError **error,
             const char *first_arg, ...)
{
  g_autoptr (GPtrArray) argv = g_ptr_array_new ();
  g_autoptr (GSubprocess) process = NULL;
  g_autofree char *out = NULL;
  va_list ap;

  g_ptr_array_add (argv, gpgconf_path ());
  if (self->home_dir)
    {
      g_ptr_array_add (argv, "--homedir");
      g_ptr_array_add (argv, self->home_dir);
    }
  va_start (ap, first_arg);
  for (const char *arg = first_arg; arg; arg = va_arg (ap, const char *))
    g_ptr_array_add (argv, (char *) arg);
  va_end (ap);
  g_ptr_array_add (argv, NULL);
  process = g_subprocess_newv ((const char * const *) argv->pdata,
                               G_SUBPROCESS_FLAGS_STDOUT_PIPE
                               | G_SUBPROCESS_FLAGS_STDERR_SILENCE, error);
  if (!process
      || !g_subprocess_communicate_utf8 (process, NULL, cancellable, &out, NULL,
                                         error))
    return NULL;
  if (!g_subprocess_get_successful (process))
    {
      g_set_error (error, PADLOCK_ERROR, PADLOCK_ERROR_OTHER,
                   _("gpgconf failed: %s"), (char *) argv->pdata[argv->len - 2]);
      return NULL;
    }
  return g_steal_pointer (&out);
}

/* The agent's socket as GPGME's own `gpgconf --list-dirs` named it, when
 * that was for this agent's home (gpg's default when it has none); else
 * NULL.  GPGME asks once per process, so that a batch that has listed
 * the keyring starts no gpgconf of its own to find the agent. */
static char *
socket_path_from_gpgme (PadlockAgent *self)
{
  g_autofree char *home = NULL;
  const char *gpgme_home, *socket;

  gpgconf_path ();              /* gpgme_check_version first */
  gpgme_home = gpgme_get_dirinfo ("homedir");
  socket = gpgme_get_dirinfo ("agent-socket");
  if (!gpgme_home || !socket || !*socket)
    return NULL;
  home = self->home_dir ? g_strdup (self->home_dir)
                        : padlock_keyring_default_home ();
  return g_str_equal (home, gpgme_home) ? g_strdup (socket) : NULL;
}

/* gpgconf --list-dirs agent-socket, once. */
static char *
dup_socket_path (PadlockAgent *self, GCancellable *cancellable, GError **error)
{
  g_autofree char *out = NULL;
  char *path;

  g_mutex_lock (&self->lock);
  path = g_strdup (self->socket_path);
  g_mutex_unlock (&self->lock);
  if (path)
    return path;
  path = socket_path_from_gpgme (self);
  if (!path)
    {
      out = run_gpgconf (self, cancellable, error, "--list-dirs", "agent-socket",
                         NULL);
      if (!out)
        return NULL;
      g_strchomp (out);
      /* Percent-escaped, like all gpgconf output. */
      path = g_uri_unescape_string (out, NULL);
    }
  if (!path || !*path)
    {
      g_free (path);
      g_set_error_literal (error, PADLOCK_ERROR, PADLOCK_ERROR_OTHER,
                           _("gpgconf does not know gpg-agent's socket."));
      return NULL;
    }
  g_mutex_lock (&self->lock);
  if (!self->socket_path)
    self->socket_path = g_strdup (path);
  g_mutex_unlock (&self->lock);
  return path;
}

/* The pinentry environment, as gpg's send_pinentry_environment sends it:
 * the variables of common/session-env.c, by their Assuan name where the
 * agent has one, else through putenv; then the locale. */
static gpg_error_t
send_environment (assuan_context_t ctx)
{
  static const struct { const char *name; const char *option; } vars[] = {
    { "GPG_TTY", "ttyname" },
    { "TERM", "ttytype" },
    { "DISPLAY", "display" },
    { "XAUTHORITY", "xauthority" },
    { "XMODIFIERS", NULL },
    { "WAYLAND_DISPLAY", NULL },
    { "XDG_SESSION_TYPE", NULL },
    { "QT_QPA_PLATFORM", NULL },
    { "GTK_IM_MODULE", NULL },
    { "DBUS_SESSION_BUS_ADDRESS", NULL },
    { "QT_IM_MODULE", NULL },
    { "INSIDE_EMACS", NULL },
    { "PINENTRY_USER_DATA", "pinentry-user-data" },
    { "PINENTRY_GEOM_HINT", NULL },
  };
  const char *tty = NULL;
  gpg_error_t err = 0;

  for (guint i = 0; !err && i < G_N_ELEMENTS (vars); i++)
    {
      const char *value = g_getenv (vars[i].name);
      g_autofree char *line = NULL;

      /* gpg's fallback for a terminal pinentry (padlock --batch over ssh). */
      if ((!value || !*value) && i == 0 && isatty (STDIN_FILENO))
        value = tty = ttyname (STDIN_FILENO);
      if (!value || !*value)
        continue;
      if (vars[i].option)
        line = g_strdup_printf ("OPTION %s=%s", vars[i].option, value);
      else
        line = g_strdup_printf ("OPTION putenv=%s=%s", vars[i].name, value);
      if (strlen (line) >= ASSUAN_LINELENGTH - 2)
        continue;
      err = assuan_transact (ctx, line, NULL, NULL, NULL, NULL, NULL, NULL);
      if (!vars[i].option && gpg_err_code (err) == GPG_ERR_UNKNOWN_OPTION)
        err = 0;  /* an older agent */
    }
  /* The locale matters to a terminal pinentry only, as in gpg.  It is
   * read, never set: setlocale is not for threads. */
  if (!err && tty)
    {
      const char *ctype = setlocale (LC_CTYPE, NULL);
      const char *messages = setlocale (LC_MESSAGES, NULL);
      g_autofree char *line = NULL;

      if (ctype)
        {
          line = g_strdup_printf ("OPTION lc-ctype=%s", ctype);
          err = assuan_transact (ctx, line, NULL, NULL, NULL, NULL, NULL, NULL);
          g_clear_pointer (&line, g_free);
        }
      if (!err && messages)
        {
          line = g_strdup_printf ("OPTION lc-messages=%s", messages);
          err = assuan_transact (ctx, line, NULL, NULL, NULL, NULL, NULL, NULL);
        }
    }
  return err;
}

static gpg_error_t
connect_socket (const char *path, assuan_context_t *ctx)
{
  gpg_error_t err;

  err = assuan_new (ctx);
  if (!err)
    err = assuan_socket_connect (*ctx, path, ASSUAN_INVALID_PID, 0);
  if (err)
    g_clear_pointer (ctx, assuan_release);
  return err;
}

/* A new connection, with the agent started when it is not running. */
static assuan_context_t
open_connection (PadlockAgent *self, GCancellable *cancellable, GError **error)
{
  g_autofree char *path = NULL;
  g_autofree char *launched = NULL;
  assuan_context_t ctx = NULL;
  gpg_error_t err;

  path = dup_socket_path (self, cancellable, error);
  if (!path)
    return NULL;
  err = connect_socket (path, &ctx);
  if (err)
    {
      /* As gpg does (common/asshelp.c), but through gpgconf, which waits
       * until the agent listens. */
      launched = run_gpgconf (self, cancellable, error, "--launch", "gpg-agent",
                              NULL);
      if (!launched)
        return NULL;
      err = connect_socket (path, &ctx);
    }
  if (!err)
    err = send_environment (ctx);
  /* Tell us when pinentry pops up; say we know the 2.1 agent. */
  if (!err)
    err = assuan_transact (ctx, "OPTION allow-pinentry-notify",
                           NULL, NULL, NULL, NULL, NULL, NULL);
  if (!err)
    assuan_transact (ctx, "OPTION agent-awareness=2.1.0",
                     NULL, NULL, NULL, NULL, NULL, NULL);
  if (err)
    {
      g_clear_pointer (&ctx, assuan_release);
      g_propagate_error (error, agent_error (err));
    }
  return ctx;
}

static void end_connection (PadlockAgent *self, assuan_context_t ctx,
                            gboolean keep, gboolean pinentry_up);

/* Whether a request should wait for a busy connection rather than open
 * another (under LOCK): when one is held by a short request (KEYINFO, a
 * key the agent needs no passphrase for or has cached), not by one that
 * waits for a pinentry.  So a batch's jobs share one connection instead
 * of each opening its own (issue 36), and a pinentry keeps nobody else
 * waiting. */
static gboolean
should_wait_for_connection (PadlockAgent *self)
{
  return !self->idle->len && self->n_busy > self->n_pinentries;
}

/* A connection for a request, idle or new; counted busy until it ends
 * (end_connection). */
static assuan_context_t
take_connection (PadlockAgent *self, GCancellable *cancellable, GError **error)
{
  assuan_context_t ctx = NULL;

  g_mutex_lock (&self->lock);
  while (should_wait_for_connection (self)
         && !g_cancellable_is_cancelled (cancellable))
    g_cond_wait_until (&self->given_back, &self->lock,
                       g_get_monotonic_time () + 20 * G_TIME_SPAN_MILLISECOND);
  if (self->idle->len)
    ctx = g_ptr_array_steal_index (self->idle, self->idle->len - 1);
  self->n_busy++;
  g_mutex_unlock (&self->lock);
  if (g_cancellable_set_error_if_cancelled (cancellable, error))
    {
      end_connection (self, ctx, TRUE, FALSE);
      return NULL;
    }
  if (ctx && assuan_transact (ctx, "RESET", NULL, NULL, NULL, NULL, NULL, NULL))
    g_clear_pointer (&ctx, assuan_release);  /* the agent was restarted */
  if (!ctx)
    ctx = open_connection (self, cancellable, error);
  if (!ctx)
    end_connection (self, NULL, FALSE, FALSE);
  return ctx;
}

/* A request whose pinentry was up (PINENTRY_UP) or not is done with CTX
 * (NULL: none), which goes back to the idle ones when KEEP, else is
 * closed. */
static void
end_connection (PadlockAgent *self, assuan_context_t ctx, gboolean keep,
                gboolean pinentry_up)
{
  g_mutex_lock (&self->lock);
  if (ctx && keep && self->idle->len < MAX_IDLE)
    g_ptr_array_add (self->idle, g_steal_pointer (&ctx));
  self->n_busy--;
  if (pinentry_up)
    self->n_pinentries--;
  g_cond_broadcast (&self->given_back);
  g_mutex_unlock (&self->lock);
  g_clear_pointer (&ctx, assuan_release);
}

/* REQUEST's connection now waits for a pinentry: the others need not
 * wait for it (should_wait_for_connection). */
static void
pinentry_rose (PadlockAgent *self, gboolean *pinentry_up)
{
  g_mutex_lock (&self->lock);
  if (!*pinentry_up)
    self->n_pinentries++;
  *pinentry_up = TRUE;
  g_cond_broadcast (&self->given_back);
  g_mutex_unlock (&self->lock);
}

/* One request: a connection, cut when the cancellable fires */

typedef struct
{
  PadlockAgent     *agent;
  assuan_context_t  ctx;
  gboolean          pinentry_up; /* under the agent's LOCK */
  int               fd;
  gulong            handler;
  gboolean          cut;      /* atomic */
  /* PKDECRYPT */
  unsigned char    *ciphertext;
  size_t            ciphertext_len;
  PadlockAgentPinentryFunc pinentry_launched;
  gpointer          user_data;
  unsigned char    *answer;   /* secure */
  size_t            answer_len;
  int               padding;
  /* KEYINFO */
  PadlockAgentKeyInfo *info;
} Request;

static void
cut_connection (GCancellable *cancellable, gpointer data)
{
  Request *request = data;

  /* shutdown, not close: the descriptor stays ours (no other thread can
   * get its number) while the request's thread returns from its read. */
  g_atomic_int_set (&request->cut, TRUE);
  shutdown (request->fd, SHUT_RDWR);
}

static gboolean
request_begin (Request *request, PadlockAgent *self, GCancellable *cancellable,
               GError **error)
{
  assuan_fd_t fds[2];  /* libassuan wants room for two */

  request->agent = self;
  request->padding = -1;
  request->ctx = take_connection (self, cancellable, error);
  if (!request->ctx)
    return FALSE;
  if (assuan_get_active_fds (request->ctx, 0, fds, G_N_ELEMENTS (fds)) < 1)
    {
      end_connection (self, g_steal_pointer (&request->ctx), FALSE, FALSE);
      g_set_error_literal (error, PADLOCK_ERROR, PADLOCK_ERROR_OTHER,
                           _("gpg-agent is not running and could not be "
                             "started."));
      return FALSE;
    }
  request->fd = fds[0];
  if (cancellable)
    request->handler = g_cancellable_connect (cancellable,
                                              G_CALLBACK (cut_connection),
                                              request, NULL);
  return TRUE;
}

/* Ends REQUEST after ERR; FALSE with *ERROR set when it failed. */
static gboolean
request_end (Request *request, GCancellable *cancellable, gpg_error_t err,
             GError **error)
{
  gboolean cut;

  if (cancellable)
    g_cancellable_disconnect (cancellable, request->handler);
  cut = g_atomic_int_get (&request->cut);
  if (cut)
    err = gpg_error (GPG_ERR_CANCELED);
  /* An agent error leaves the connection usable; a broken one not. */
  if (request->ctx)
    end_connection (request->agent, g_steal_pointer (&request->ctx),
                    !cut && (!err || gpg_err_source (err) == GPG_ERR_SOURCE_GPGAGENT
                             || gpg_err_source (err) == GPG_ERR_SOURCE_PINENTRY),
                    request->pinentry_up);
  gcry_free (request->ciphertext);
  request->ciphertext = NULL;
  if (err)
    {
      gcry_free (request->answer);
      request->answer = NULL;
      g_propagate_error (error, agent_error (err));
      return FALSE;
    }
  return TRUE;
}

/* Ends REQUEST after ERR, its answer read as an S-expression (a public
 * one: a key, a signature). */
static gcry_sexp_t
request_end_sexp (Request *request, GCancellable *cancellable, gpg_error_t err,
                  GError **error)
{
  gcry_sexp_t sexp = NULL;

  if (!err && !g_atomic_int_get (&request->cut))
    err = gcry_sexp_sscan (&sexp, NULL, (const char *) request->answer,
                           request->answer_len);
  gcry_free (request->answer);
  request->answer = NULL;
  if (!request_end (request, cancellable, err, error))
    {
      gcry_sexp_release (sexp);
      return NULL;
    }
  return sexp;
}

static gpg_error_t
collect_answer (void *data, const void *buffer, size_t len)
{
  Request *request = data;
  unsigned char *grown;

  if (!len)
    return 0;
  if (len > MAX_ANSWER - request->answer_len)
    return gpg_error (GPG_ERR_TOO_LARGE);
  /* gcry_realloc keeps secure memory secure. */
  grown = request->answer ? gcry_realloc (request->answer, request->answer_len + len)
                          : gcry_malloc_secure (len);
  if (!grown)
    return gpg_error_from_syserror ();
  memcpy (grown + request->answer_len, buffer, len);
  request->answer = grown;
  request->answer_len += len;
  return 0;
}

static gpg_error_t
answer_inquiry (void *data, const char *line)
{
  Request *request = data;

  if (g_str_has_prefix (line, "PINENTRY_LAUNCHED"))
    {
      pinentry_rose (request->agent, &request->pinentry_up);
      if (request->pinentry_launched)
        request->pinentry_launched (request->user_data);
      return 0;
    }
  if (g_str_has_prefix (line, "CIPHERTEXT") && request->ciphertext)
    return assuan_send_data (request->ctx, request->ciphertext,
                             request->ciphertext_len);
  return gpg_error (GPG_ERR_ASS_UNKNOWN_INQUIRE);
}

static gpg_error_t
read_status (void *data, const char *line)
{
  Request *request = data;
  g_auto (GStrv) words = NULL;

  if (g_str_has_prefix (line, "PADDING "))
    request->padding = atoi (line + 8);
  else if (g_str_has_prefix (line, "KEYINFO ") && request->info)
    {
      /* KEYINFO <grip> <type> <serialno> <idstr> <cached> <protection> … */
      words = g_strsplit (line, " ", 0);
      if (g_strv_length (words) >= 7)
        {
          request->info->present = words[2][0] == 'D' || words[2][0] == 'T';
          request->info->on_card = words[2][0] == 'T';
          if (!g_str_equal (words[3], "-"))
            g_strlcpy (request->info->serialno, words[3],
                       sizeof request->info->serialno);
          request->info->cached = words[5][0] == '1';
          request->info->protected_ = words[6][0] == 'P';
        }
    }
  return 0;
}

/* The agent's SETKEYDESC takes the text percent-plus escaped. */
static char *
escape_description (const char *text)
{
  GString *out = g_string_new (NULL);

  for (const unsigned char *p = (const unsigned char *) text; *p; p++)
    {
      if (*p == ' ')
        g_string_append_c (out, '+');
      else if (*p < 0x20 || *p == '+' || *p == '%' || *p == '"' || *p == 0x7f)
        g_string_append_printf (out, "%%%02X", *p);
      else
        g_string_append_c (out, *p);
    }
  return g_string_free (out, FALSE);
}

/* SETKEY and SETKEYDESC: the key of the next operation, and what
 * pinentry says when it asks for its passphrase. */
static gpg_error_t
select_key (Request *request, const char *keygrip, const char *description)
{
  char line[ASSUAN_LINELENGTH];
  g_autofree char *escaped = NULL;
  gpg_error_t err;

  g_snprintf (line, sizeof line, "SETKEY %s", keygrip);
  err = assuan_transact (request->ctx, line, NULL, NULL, NULL, NULL, NULL, NULL);
  if (err || !description)
    return err;
  escaped = escape_description (description);
  /* A description too long for one line is cut (before an escape that
   * would be cut), not refused. */
  g_snprintf (line, sizeof line, "SETKEYDESC %s", escaped);
  for (char *p = strrchr (line, '%'); p && strlen (p) < 3; p = NULL)
    *p = '\0';
  return assuan_transact (request->ctx, line, NULL, NULL, NULL, NULL, NULL, NULL);
}

static gboolean
is_keygrip (const char *keygrip)
{
  if (!keygrip || strlen (keygrip) != 40)
    return FALSE;
  for (const char *p = keygrip; *p; p++)
    if (!g_ascii_isxdigit (*p))
      return FALSE;
  return TRUE;
}

/* The answer "(5:value<n>:<octets>)", as gpg's agent_pkdecrypt reads it
 * (GnuPG 2.2's agent adds a NUL after the parenthesis). */
static gpg_error_t
parse_value (Request *request, PadlockAgentDecrypted *decrypted)
{
  size_t len = request->answer_len;
  const unsigned char *buf = request->answer;
  size_t n = 0, i = 8;

  while (len && buf[len - 1] == 0)
    len--;
  if (len < 12 || memcmp (buf, "(5:value", 8) != 0 || buf[len - 1] != ')')
    return gpg_error (GPG_ERR_INV_SEXP);
  for (; i < len && g_ascii_isdigit (buf[i]) && n < MAX_ANSWER; i++)
    n = n * 10 + (buf[i] - '0');
  if (i >= len || buf[i] != ':' || !n || n != len - 1 - (i + 1))
    return gpg_error (GPG_ERR_INV_SEXP);
  decrypted->sexp = g_steal_pointer (&request->answer);
  decrypted->sexp_len = len;
  decrypted->value = decrypted->sexp + i + 1;
  decrypted->value_len = n;
  decrypted->padding = request->padding;
  return 0;
}

static gpg_error_t
canonical_sexp (gcry_sexp_t sexp, unsigned char **out, size_t *len)
{
  size_t n = gcry_sexp_sprint (sexp, GCRYSEXP_FMT_CANON, NULL, 0);

  *out = n ? gcry_malloc_secure (n) : NULL;
  if (!*out)
    return gpg_error (n ? GPG_ERR_ENOMEM : GPG_ERR_INV_SEXP);
  *len = gcry_sexp_sprint (sexp, GCRYSEXP_FMT_CANON, *out, n);
  return *len ? 0 : gpg_error (GPG_ERR_INV_SEXP);
}

gcry_sexp_t
padlock_agent_ciphertext_new (int pubkey_algo, const unsigned char *first,
                              gsize first_len, const unsigned char *second,
                              gsize second_len, GError **error)
{
  gcry_mpi_t a = NULL, b = NULL;
  gcry_sexp_t sexp = NULL;
  gpg_error_t err;

  g_return_val_if_fail (first != NULL && first_len > 0, NULL);

  switch (pubkey_algo)
    {
    case 1: /* RSA */
    case 2: /* RSA, encrypt only */
      /* Numbers, not octets: libgcrypt reads "a" as a signed MPI. */
      err = gcry_mpi_scan (&a, GCRYMPI_FMT_USG, first, first_len, NULL);
      if (!err)
        err = gcry_sexp_build (&sexp, NULL, "(enc-val(rsa(a%m)))", a);
      break;
    case 16: /* ElGamal */
      if (!second || !second_len)
        {
          err = gpg_error (GPG_ERR_INV_VALUE);
          break;
        }
      err = gcry_mpi_scan (&a, GCRYMPI_FMT_USG, first, first_len, NULL);
      if (!err)
        err = gcry_mpi_scan (&b, GCRYMPI_FMT_USG, second, second_len, NULL);
      if (!err)
        err = gcry_sexp_build (&sexp, NULL, "(enc-val(elg(a%m)(b%m)))", a, b);
      break;
    case 18: /* ECDH: octets, as libgcrypt takes a point */
      if (!second || !second_len)
        {
          err = gpg_error (GPG_ERR_INV_VALUE);
          break;
        }
      err = gcry_sexp_build (&sexp, NULL, "(enc-val(ecdh(s%b)(e%b)))",
                             (int) second_len, second, (int) first_len, first);
      break;
    default:
      err = gpg_error (GPG_ERR_PUBKEY_ALGO);
      g_set_error (error, PADLOCK_ERROR, PADLOCK_ERROR_UNSUPPORTED,
                   _("gpg-agent cannot decrypt for public-key algorithm %d."),
                   pubkey_algo);
      return NULL;
    }
  gcry_mpi_release (a);
  gcry_mpi_release (b);
  if (err)
    {
      g_propagate_error (error, padlock_error_from_gpg (err));
      return NULL;
    }
  return sexp;
}

/* Takes the turn for KEYGRIP's first request: of the requests that come
 * together for a key the agent has not yet used for us (its passphrase
 * not yet asked, or a card's PIN), the first goes to the agent and the
 * others wait, then find the passphrase cached; the agent never has two
 * requests for one key's pinentry at once.  gpg-agent 2.2 looks in its
 * cache and starts a pinentry for each request it cannot answer from
 * the cache, and a second request that came before the first's
 * pinentry started asks again (two jobs signing with one key: two
 * pinentries, app-winkeys /winkeys/sign-files under load; bench/
 * keys-batch once for two decryptions).  While one waits,
 * PINENTRY_LAUNCHED (USER_DATA): its row says whose passphrase it
 * waits for.  *TURN is TRUE when the caller holds the turn (and gives
 * it back with give_back_turn); FALSE when the key was used already and
 * nothing needs waiting.  Fails only when CANCELLABLE is cancelled. */
static gboolean
take_turn (PadlockAgent *self, const char *keygrip,
           PadlockAgentPinentryFunc pinentry_launched, gpointer user_data,
           GCancellable *cancellable, gboolean *turn, GError **error)
{
  gboolean said = FALSE;

  *turn = FALSE;
  for (;;)
    {
      gboolean answered;

      g_mutex_lock (&self->lock);
      answered = g_hash_table_contains (self->answered, keygrip);
      g_mutex_unlock (&self->lock);
      if (answered)
        return TRUE;
      if (g_mutex_trylock (&self->turn))
        {
          *turn = TRUE;
          return TRUE;
        }
      if (g_cancellable_set_error_if_cancelled (cancellable, error))
        return FALSE;
      if (!said && pinentry_launched)
        pinentry_launched (user_data);
      said = TRUE;
      g_usleep (20 * 1000);
    }
}

/* Gives back the turn take_turn gave (TURN), KEYGRIP's request having
 * SUCCEEDED or not: once one has, requests for it no longer wait. */
static void
give_back_turn (PadlockAgent *self, const char *keygrip, gboolean turn,
                gboolean succeeded)
{
  if (succeeded)
    {
      g_mutex_lock (&self->lock);
      g_hash_table_add (self->answered, g_strdup (keygrip));
      g_mutex_unlock (&self->lock);
    }
  if (turn)
    g_mutex_unlock (&self->turn);
}

PadlockAgentDecrypted *
padlock_agent_pkdecrypt (PadlockAgent *self, const char *keygrip,
                         const char *description, gcry_sexp_t ciphertext,
                         PadlockAgentPinentryFunc pinentry_launched,
                         gpointer user_data, GCancellable *cancellable,
                         GError **error)
{
  g_autoptr (PadlockAgentDecrypted) decrypted = NULL;
  Request request = { 0 };
  gboolean turn, ok;
  gpg_error_t err;

  g_return_val_if_fail (PADLOCK_IS_AGENT (self), NULL);
  g_return_val_if_fail (is_keygrip (keygrip), NULL);
  g_return_val_if_fail (ciphertext != NULL, NULL);
  g_return_val_if_fail (error == NULL || *error == NULL, NULL);

  if (!take_turn (self, keygrip, pinentry_launched, user_data, cancellable,
                  &turn, error))
    return NULL;
  if (!request_begin (&request, self, cancellable, error))
    {
      give_back_turn (self, keygrip, turn, FALSE);
      return NULL;
    }
  request.pinentry_launched = pinentry_launched;
  request.user_data = user_data;
  err = canonical_sexp (ciphertext, &request.ciphertext, &request.ciphertext_len);
  if (!err)
    err = select_key (&request, keygrip, description);
  if (!err)
    err = assuan_transact (request.ctx, "PKDECRYPT", collect_answer, &request,
                           answer_inquiry, &request, read_status, &request);
  if (!err && !g_atomic_int_get (&request.cut))
    {
      decrypted = g_new0 (PadlockAgentDecrypted, 1);
      err = parse_value (&request, decrypted);
    }
  ok = request_end (&request, cancellable, err, error);
  give_back_turn (self, keygrip, turn, ok);
  if (!ok)
    return NULL;
  return g_steal_pointer (&decrypted);
}

gcry_sexp_t
padlock_agent_pksign (PadlockAgent *self, const char *keygrip,
                      const char *description, int hash_algo,
                      const unsigned char *digest, gsize digest_len,
                      PadlockAgentPinentryFunc pinentry_launched,
                      gpointer user_data, GCancellable *cancellable,
                      GError **error)
{
  Request request = { 0 };
  char line[ASSUAN_LINELENGTH];
  gcry_sexp_t sig;
  gboolean turn;
  gpg_error_t err;
  int n;

  g_return_val_if_fail (PADLOCK_IS_AGENT (self), NULL);
  g_return_val_if_fail (is_keygrip (keygrip), NULL);
  g_return_val_if_fail (digest != NULL && digest_len > 0 && digest_len <= 64, NULL);
  g_return_val_if_fail (error == NULL || *error == NULL, NULL);

  if (!take_turn (self, keygrip, pinentry_launched, user_data, cancellable,
                  &turn, error))
    return NULL;
  if (!request_begin (&request, self, cancellable, error))
    {
      give_back_turn (self, keygrip, turn, FALSE);
      return NULL;
    }
  request.pinentry_launched = pinentry_launched;
  request.user_data = user_data;
  err = select_key (&request, keygrip, description);
  if (!err)
    {
      /* libgcrypt's numbers, which are OpenPGP's for the SHA-2 family. */
      n = g_snprintf (line, sizeof line, "SETHASH %d ", hash_algo);
      for (gsize i = 0; i < digest_len; i++)
        n += g_snprintf (line + n, sizeof line - n, "%02X", digest[i]);
      err = assuan_transact (request.ctx, line, NULL, NULL, NULL, NULL, NULL, NULL);
    }
  if (!err)
    err = assuan_transact (request.ctx, "PKSIGN", collect_answer, &request,
                           answer_inquiry, &request, NULL, NULL);
  sig = request_end_sexp (&request, cancellable, err, error);
  give_back_turn (self, keygrip, turn, sig != NULL);
  return sig;
}

gboolean
padlock_agent_get_key_info (PadlockAgent *self, const char *keygrip,
                            PadlockAgentKeyInfo *info, GCancellable *cancellable,
                            GError **error)
{
  Request request = { 0 };
  char line[ASSUAN_LINELENGTH];
  gpg_error_t err;

  g_return_val_if_fail (PADLOCK_IS_AGENT (self), FALSE);
  g_return_val_if_fail (is_keygrip (keygrip), FALSE);
  g_return_val_if_fail (info != NULL, FALSE);

  memset (info, 0, sizeof *info);
  if (!request_begin (&request, self, cancellable, error))
    return FALSE;
  request.info = info;
  g_snprintf (line, sizeof line, "KEYINFO %s", keygrip);
  err = assuan_transact (request.ctx, line, NULL, NULL, NULL, NULL,
                         read_status, &request);
  if (gpg_err_code (err) == GPG_ERR_NOT_FOUND
      || gpg_err_code (err) == GPG_ERR_NO_SECKEY)
    err = 0;  /* not present */
  return request_end (&request, cancellable, err, error);
}

gcry_sexp_t
padlock_agent_read_key (PadlockAgent *self, const char *keygrip,
                        GCancellable *cancellable, GError **error)
{
  Request request = { 0 };
  char line[ASSUAN_LINELENGTH];
  gpg_error_t err;

  g_return_val_if_fail (PADLOCK_IS_AGENT (self), NULL);
  g_return_val_if_fail (is_keygrip (keygrip), NULL);

  if (!request_begin (&request, self, cancellable, error))
    return NULL;
  g_snprintf (line, sizeof line, "READKEY %s", keygrip);
  err = assuan_transact (request.ctx, line, collect_answer, &request,
                         NULL, NULL, NULL, NULL);
  return request_end_sexp (&request, cancellable, err, error);
}

/* The async variant */

typedef struct
{
  char         *keygrip;
  char         *description;
  gcry_sexp_t   ciphertext;
  PadlockAgentPinentryFunc pinentry_launched;
  gpointer      user_data;
  GMainContext *context;
} AsyncDecrypt;

static void
async_decrypt_free (gpointer data)
{
  AsyncDecrypt *async = data;

  g_free (async->keygrip);
  g_free (async->description);
  gcry_sexp_release (async->ciphertext);
  g_main_context_unref (async->context);
  g_free (async);
}

typedef struct
{
  PadlockAgentPinentryFunc func;
  gpointer                 user_data;
} Notify;

static gboolean
notify_in_context (gpointer data)
{
  Notify *notify = data;

  notify->func (notify->user_data);
  return G_SOURCE_REMOVE;
}

static void
pinentry_launched_async (gpointer data)
{
  GTask *task = data;
  AsyncDecrypt *async = g_task_get_task_data (task);
  Notify *notify = g_new (Notify, 1);

  notify->func = async->pinentry_launched;
  notify->user_data = async->user_data;
  g_main_context_invoke_full (async->context, G_PRIORITY_DEFAULT,
                              notify_in_context, notify, g_free);
}

static void
pkdecrypt_thread (GTask *task, gpointer source, gpointer task_data,
                  GCancellable *cancellable)
{
  AsyncDecrypt *async = task_data;
  GError *error = NULL;
  PadlockAgentDecrypted *decrypted;

  decrypted = padlock_agent_pkdecrypt (source, async->keygrip, async->description,
                                       async->ciphertext,
                                       async->pinentry_launched
                                       ? pinentry_launched_async : NULL,
                                       task, cancellable, &error);
  if (decrypted)
    g_task_return_pointer (task, decrypted,
                           (GDestroyNotify) padlock_agent_decrypted_free);
  else
    g_task_return_error (task, error);
}

void
padlock_agent_pkdecrypt_async (PadlockAgent *self, const char *keygrip,
                               const char *description, gcry_sexp_t ciphertext,
                               PadlockAgentPinentryFunc pinentry_launched,
                               gpointer user_data, GCancellable *cancellable,
                               GAsyncReadyCallback callback,
                               gpointer callback_data)
{
  g_autoptr (GTask) task = NULL;
  AsyncDecrypt *async;
  gcry_sexp_t copy = NULL;
  unsigned char *canon = NULL;
  size_t len = 0;

  g_return_if_fail (PADLOCK_IS_AGENT (self));
  g_return_if_fail (is_keygrip (keygrip));
  g_return_if_fail (ciphertext != NULL);

  task = g_task_new (self, cancellable, callback, callback_data);
  g_task_set_source_tag (task, padlock_agent_pkdecrypt_async);
  /* Our own words for a cancel ("nothing was written"), not GIO's. */
  g_task_set_check_cancellable (task, FALSE);
  /* The caller's S-expression may go away: a copy for the thread. */
  if (canonical_sexp (ciphertext, &canon, &len)
      || gcry_sexp_sscan (&copy, NULL, (const char *) canon, len))
    {
      gcry_free (canon);
      g_task_return_error (task, agent_error (gpg_error (GPG_ERR_INV_SEXP)));
      return;
    }
  gcry_free (canon);
  async = g_new0 (AsyncDecrypt, 1);
  async->keygrip = g_strdup (keygrip);
  async->description = g_strdup (description);
  async->ciphertext = copy;
  async->pinentry_launched = pinentry_launched;
  async->user_data = user_data;
  async->context = g_main_context_ref_thread_default ();
  g_task_set_task_data (task, async, async_decrypt_free);
  g_task_run_in_thread (task, pkdecrypt_thread);
}

PadlockAgentDecrypted *
padlock_agent_pkdecrypt_finish (PadlockAgent *self, GAsyncResult *result,
                                GError **error)
{
  g_return_val_if_fail (g_task_is_valid (result, self), NULL);
  return g_task_propagate_pointer (G_TASK (result), error);
}

char *
padlock_agent_describe_request (const char *key_label, const char *key_id,
                                const char *file_name, PadlockAgentPurpose purpose)
{
  g_autofree char *label = NULL;
  g_autofree char *name = NULL;

  g_return_val_if_fail (key_label != NULL && key_id != NULL, NULL);
  /* The key's and the file's own text: escaped, so that neither writes a
   * line of its own in pinentry (nor drives a terminal's, pinentry-curses). */
  label = padlock_name_escape (key_label);
  if (!file_name)
    /* Translators: pinentry shows this; the first is "Name <email>". */
    return g_strdup_printf (_("Padlock needs the passphrase of the secret key of\n"
                              "%s\n(key 0x%s)."), label, key_id);
  name = padlock_name_escape (file_name);
  if (purpose == PADLOCK_AGENT_TO_SIGN)
    /* Translators: pinentry shows this; the first is "Name <email>", the
     * last a file name. */
    return g_strdup_printf (_("Padlock needs the passphrase of the secret key of\n"
                              "%s\n(key 0x%s)\nto sign “%s”."),
                            label, key_id, name);
  /* Translators: pinentry shows this; the first is "Name <email>", the
   * last a file name. */
  return g_strdup_printf (_("Padlock needs the passphrase of the secret key of\n"
                            "%s\n(key 0x%s)\nto open “%s”."),
                          label, key_id, name);
}

/* GObject */

static void
padlock_agent_finalize (GObject *object)
{
  PadlockAgent *self = PADLOCK_AGENT (object);

  g_ptr_array_unref (self->idle);
  g_hash_table_unref (self->answered);
  g_mutex_clear (&self->turn);
  g_cond_clear (&self->given_back);
  g_mutex_clear (&self->lock);
  g_free (self->socket_path);
  g_free (self->home_dir);
  G_OBJECT_CLASS (padlock_agent_parent_class)->finalize (object);
}

static void
padlock_agent_class_init (PadlockAgentClass *klass)
{
  G_OBJECT_CLASS (klass)->finalize = padlock_agent_finalize;
}

static void
padlock_agent_init (PadlockAgent *self)
{
  g_mutex_init (&self->lock);
  g_mutex_init (&self->turn);
  g_cond_init (&self->given_back);
  self->answered = g_hash_table_new_full (g_str_hash, g_str_equal, g_free,
                                          NULL);
  self->idle = g_ptr_array_new_with_free_func ((GDestroyNotify) assuan_release);
}

PadlockAgent *
padlock_agent_new (const char *home_dir)
{
  PadlockAgent *self;
  struct sigaction sa;

  /* libassuan writes to the socket with write(2): an agent that goes away
   * (or a request cut by its cancellable) must not kill Padlock with
   * SIGPIPE.  Left alone when someone already handles it. */
  if (sigaction (SIGPIPE, NULL, &sa) == 0 && sa.sa_handler == SIG_DFL)
    signal (SIGPIPE, SIG_IGN);
  pl_init ();
  self = g_object_new (PADLOCK_TYPE_AGENT, NULL);
  self->home_dir = home_dir && *home_dir ? g_strdup (home_dir) : NULL;
  return self;
}

gpg_error_t
padlock_agent_error_code (const GError *error)
{
  if (g_error_matches (error, PADLOCK_ERROR, PADLOCK_ERROR_CANCELLED))
    return gpg_error (GPG_ERR_CANCELED);
  if (g_error_matches (error, PADLOCK_ERROR, PADLOCK_ERROR_PUBLIC_KEY))
    return gpg_error (GPG_ERR_NO_SECKEY);
  if (g_error_matches (error, PADLOCK_ERROR, PADLOCK_ERROR_BAD_PASSPHRASE))
    return gpg_error (GPG_ERR_BAD_PASSPHRASE);
  return gpg_error (GPG_ERR_GENERAL);
}

char *
padlock_agent_describe_waiting (const char *key_label, const char *key_id)
{
  g_autofree char *label = NULL;

  g_return_val_if_fail (key_label != NULL && key_id != NULL, NULL);
  label = padlock_name_escape (key_label);
  /* Translators: a job's row while pinentry is up; "Name <email>" and a
   * key ID. */
  return g_strdup_printf (_("Waiting for the passphrase of %s (0x%s)"),
                          label, key_id);
}
