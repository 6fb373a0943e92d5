/* hkp-server.h - an HKP keyserver of a test's own, on 127.0.0.1
 *
 * It answers dirmngr's `GET /pks/lookup?op=get&options=mr&search=…`
 * (RFC draft-shaw-openpgp-hkp, as gpg 2.2's dirmngr asks it) from what
 * the test gave it with hkp_server_add: the search text (an address,
 * matched without case, or 0x and a fingerprint or its last 16 digits)
 * to an armored certificate; anything else is a 404.  In the "hang"
 * mode it reads a request and never answers, until hkp_server_free.
 * Each connection is served on a thread of its own
 * (GThreadedSocketService), so the test's main loop is free.
 *
 * tg_home_use_keyserver writes the home's dirmngr.conf to send
 * dirmngr there.
 */
#pragma once

#include <gio/gio.h>

#include "gnupg-home.h"

typedef struct _HkpServer HkpServer;

HkpServer *hkp_server_new      (void);
void       hkp_server_free     (HkpServer  *server);
G_DEFINE_AUTOPTR_CLEANUP_FUNC (HkpServer, hkp_server_free)

guint16    hkp_server_port     (HkpServer  *server);
/* Serves ARMOR (a certificate) for a search by FPR (40 hex digits) or
 * its key ID, and by EMAIL when not NULL. */
void       hkp_server_add      (HkpServer  *server,
                                const char *fpr,
                                const char *email,
                                const char *armor);
/* From now on, requests get no answer at all (TRUE) or are served. */
void       hkp_server_set_hang (HkpServer  *server,
                                gboolean    hang);
/* How many lookups were asked so far. */
guint      hkp_server_requests (HkpServer  *server);
/* The search text of the last request ("" before any). */
char      *hkp_server_last_search (HkpServer *server);

/* HOME's dirmngr.conf: `keyserver hkp://127.0.0.1:PORT` of SERVER, and
 * nothing else of the machine's (no Tor, the resolver as it is). */
void       tg_home_use_keyserver (TgHome    *home,
                                  HkpServer *server);
