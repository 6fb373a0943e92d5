/* app-testutil.h - helpers shared by the application's tests */
#pragma once

#include <gio/gio.h>

#include "padlock-queue.h"
#include "testutil.h"

/* A fresh, empty folder under tu_tmpdir (). */
char     *at_new_dir           (const char *name);
/* Writes LEN random octets to DIR/NAME; returns the path. */
char     *at_write_random      (const char *dir,
                                const char *name,
                                gsize       len);
/* Writes a passphrase file (for gpg) and returns its path. */
char     *at_passphrase_file   (const char *passphrase);
/* gpg decrypts PATH with PASSPHRASE; the plaintext, or NULL. */
GBytes   *at_gpg_decrypt       (const char *path,
                                const char *passphrase);
/* gpg encrypts IN to OUT (binary), storing LITERAL_NAME when not NULL. */
void      at_gpg_encrypt       (const char *in,
                                const char *out,
                                const char *passphrase,
                                const char *literal_name);
/* Iterates the default main context until COND or TIMEOUT_MS. */
gboolean  at_wait_until        (gboolean  (*cond) (gpointer),
                                gpointer    data,
                                guint       timeout_ms);
/* Until the queue has jobs and none is queued or running. */
gboolean  at_wait_queue_idle   (PadlockQueue *queue,
                                guint         timeout_ms);
/* The names in DIR, sorted, joined with "|". */
char     *at_list_dir          (const char *dir);
/* Whether two files hold the same octets. */
gboolean  at_same_content      (const char *a,
                                GBytes     *b);
