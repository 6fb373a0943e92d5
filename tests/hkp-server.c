/* hkp-server.c - an HKP keyserver of a test's own, on 127.0.0.1 */
#include "hkp-server.h"

#include <string.h>

struct _HkpServer
{
  GSocketService *service;
  guint16         port;
  GMutex          lock;
  GCond           changed;
  GHashTable     *keys;      /* lower-case search text -> armor */
  gboolean        hang;
  gboolean        stopping;
  guint           running;   /* handlers not yet returned */
  guint           requests;
  char           *last_search;
};

/* The search text of a request line "GET /pks/lookup?… HTTP/1.0", or
 * NULL when it is no lookup. */
static char *
search_of (const char *line)
{
  g_auto (GStrv) words = g_strsplit (line, " ", 3);
  g_autoptr (GHashTable) params = NULL;
  const char *query;

  if (g_strv_length (words) < 2 || strcmp (words[0], "GET")
      || !g_str_has_prefix (words[1], "/pks/lookup?"))
    return NULL;
  query = words[1] + strlen ("/pks/lookup?");
  params = g_uri_parse_params (query, -1, "&", G_URI_PARAMS_NONE, NULL);
  if (!params || g_strcmp0 (g_hash_table_lookup (params, "op"), "get"))
    return NULL;
  return g_strdup (g_hash_table_lookup (params, "search"));
}

static void
respond (GOutputStream *out, const char *status, const char *body)
{
  g_autofree char *head = g_strdup_printf ("HTTP/1.0 %s\r\n"
                                           "Content-Type: application/pgp-keys\r\n"
                                           "Content-Length: %zu\r\n"
                                           "Connection: close\r\n\r\n",
                                           status, strlen (body));

  g_output_stream_write_all (out, head, strlen (head), NULL, NULL, NULL);
  g_output_stream_write_all (out, body, strlen (body), NULL, NULL, NULL);
}

/* Reads the request up to its empty line; its first line. */
static char *
read_request (GDataInputStream *in)
{
  char *first = NULL;
  char *line;

  while ((line = g_data_input_stream_read_line (in, NULL, NULL, NULL)))
    {
      g_strchomp (line);
      if (!*line)
        {
          g_free (line);
          break;
        }
      if (!first)
        first = line;
      else
        g_free (line);
    }
  return first;
}

static gboolean
on_run (GThreadedSocketService *service, GSocketConnection *connection,
        GObject *source, gpointer data)
{
  HkpServer *server = data;
  g_autoptr (GDataInputStream) in = g_data_input_stream_new (
      g_io_stream_get_input_stream (G_IO_STREAM (connection)));
  GOutputStream *out = g_io_stream_get_output_stream (G_IO_STREAM (connection));
  g_autofree char *line = read_request (in);
  g_autofree char *search = line ? search_of (line) : NULL;
  g_autofree char *key = search ? g_ascii_strdown (search, -1) : NULL;
  g_autofree char *armor = NULL;
  gboolean hang;

  g_mutex_lock (&server->lock);
  if (search)
    {
      server->requests++;
      g_free (server->last_search);
      server->last_search = g_strdup (search);
    }
  hang = server->hang;
  while (hang && !server->stopping)
    g_cond_wait (&server->changed, &server->lock);
  if (key)
    armor = g_strdup (g_hash_table_lookup (server->keys, key));
  g_mutex_unlock (&server->lock);

  if (!hang)
    respond (out, armor ? "200 OK" : "404 Not Found", armor ? armor : "");
  g_io_stream_close (G_IO_STREAM (connection), NULL, NULL);

  g_mutex_lock (&server->lock);
  server->running--;
  g_cond_broadcast (&server->changed);
  g_mutex_unlock (&server->lock);
  return TRUE;
}

/* Counted before the handler's thread runs, so that free waits for it
 * (a handler connected before the class's, which hands the connection
 * to a thread); FALSE lets it do so. */
static gboolean
on_incoming (GSocketService *service, GSocketConnection *connection,
             GObject *source, gpointer data)
{
  HkpServer *server = data;

  g_mutex_lock (&server->lock);
  server->running++;
  g_mutex_unlock (&server->lock);
  return FALSE;
}

HkpServer *
hkp_server_new (void)
{
  HkpServer *server = g_new0 (HkpServer, 1);
  g_autoptr (GInetAddress) loopback = g_inet_address_new_loopback (G_SOCKET_FAMILY_IPV4);
  g_autoptr (GSocketAddress) address = g_inet_socket_address_new (loopback, 0);
  g_autoptr (GSocketAddress) bound = NULL;
  g_autoptr (GError) error = NULL;

  g_mutex_init (&server->lock);
  g_cond_init (&server->changed);
  server->keys = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, g_free);
  server->last_search = g_strdup ("");
  server->service = g_threaded_socket_service_new (8);
  g_socket_listener_add_address (G_SOCKET_LISTENER (server->service), address,
                                 G_SOCKET_TYPE_STREAM, G_SOCKET_PROTOCOL_TCP,
                                 NULL, &bound, &error);
  g_assert_no_error (error);
  server->port = g_inet_socket_address_get_port (G_INET_SOCKET_ADDRESS (bound));
  g_signal_connect (server->service, "incoming", G_CALLBACK (on_incoming), server);
  g_signal_connect (server->service, "run", G_CALLBACK (on_run), server);
  g_socket_service_start (server->service);
  return server;
}

void
hkp_server_free (HkpServer *server)
{
  if (!server)
    return;
  g_socket_service_stop (server->service);
  g_socket_listener_close (G_SOCKET_LISTENER (server->service));
  g_mutex_lock (&server->lock);
  server->stopping = TRUE;
  g_cond_broadcast (&server->changed);
  while (server->running)
    g_cond_wait (&server->changed, &server->lock);
  g_mutex_unlock (&server->lock);
  g_signal_handlers_disconnect_by_data (server->service, server);
  g_object_unref (server->service);
  g_hash_table_unref (server->keys);
  g_free (server->last_search);
  g_mutex_clear (&server->lock);
  g_cond_clear (&server->changed);
  g_free (server);
}

guint16
hkp_server_port (HkpServer *server)
{
  return server->port;
}

void
hkp_server_add (HkpServer *server, const char *fpr, const char *email,
                const char *armor)
{
  g_autofree char *lower = g_ascii_strdown (fpr, -1);

  g_assert_cmpuint (strlen (fpr), ==, 40);
  g_mutex_lock (&server->lock);
  g_hash_table_insert (server->keys, g_strconcat ("0x", lower, NULL),
                       g_strdup (armor));
  g_hash_table_insert (server->keys, g_strconcat ("0x", lower + 24, NULL),
                       g_strdup (armor));
  if (email)
    g_hash_table_insert (server->keys, g_ascii_strdown (email, -1),
                         g_strdup (armor));
  g_mutex_unlock (&server->lock);
}

void
hkp_server_set_hang (HkpServer *server, gboolean hang)
{
  g_mutex_lock (&server->lock);
  server->hang = hang;
  g_cond_broadcast (&server->changed);
  g_mutex_unlock (&server->lock);
}

guint
hkp_server_requests (HkpServer *server)
{
  guint n;

  g_mutex_lock (&server->lock);
  n = server->requests;
  g_mutex_unlock (&server->lock);
  return n;
}

char *
hkp_server_last_search (HkpServer *server)
{
  char *search;

  g_mutex_lock (&server->lock);
  search = g_strdup (server->last_search);
  g_mutex_unlock (&server->lock);
  return search;
}

void
tg_home_use_keyserver (TgHome *home, HkpServer *server)
{
  g_autofree char *conf = tg_home_path (home, "dirmngr.conf");
  g_autofree char *text = g_strdup_printf ("keyserver hkp://127.0.0.1:%u\n",
                                           (guint) server->port);

  g_assert_true (g_file_set_contents (conf, text, -1, NULL));
}
