/* test-streamsource.c - inputs that can be read only once
 * (core/streamsource.h): the octets sniffed handed out again before the
 * rest, by reads and by borrows; a pipe read to its end, and a read
 * waiting on a writer */
#include <fcntl.h>
#include <string.h>
#include <unistd.h>
#include <sys/stat.h>
#include <glib/gstdio.h>

#include "io.h"
#include "streamsource.h"
#include "testutil.h"

/* The octets sniffed, then the rest: every octet once, in order, by
 * reads and by borrows; size and check are the rest's. */
static void
test_replay (void)
{
  GBytes *data = tu_random_bytes (100000);
  const guint8 *d = g_bytes_get_data (data, NULL);

  for (int borrowing = 0; borrowing < 2; borrowing++)
    for (gsize cut = 0; cut <= 8192; cut += 4096)
      {
        pl_source *rest = pl_source_new_memory (d, 100000);
        pl_source *src;
        guint8 head[8192], back[100000];
        size_t got = 0, n = 0;

        g_assert_cmpuint (pl_source_read_full (rest, head, cut, &n), ==, 0);
        g_assert_cmpuint (n, ==, cut);
        src = pl_source_new_replay (head, cut, rest);
        g_assert_nonnull (src);
        g_assert_cmpint (src->size, ==, 100000);
        g_assert_true (!src->borrow == !rest->borrow);
        while (got < sizeof back)
          {
            if (borrowing)
              {
                const uint8_t *p;
                g_assert_cmpuint (src->borrow (src, 777, &p, &n), ==, 0);
                memcpy (back + got, p, n);
              }
            else
              g_assert_cmpuint (src->read (src, back + got, 777, &n), ==, 0);
            g_assert_cmpuint (n, >, 0);
            got += n;
          }
        g_assert_cmpuint (src->read (src, back, 1, &n), ==, 0);
        g_assert_cmpuint (n, ==, 0);
        g_assert_cmpmem (back, got, d, 100000);
        g_assert_cmpuint (pl_source_check (src), ==, 0);
        pl_source_free (src);
      }
  g_bytes_unref (data);
}

typedef struct
{
  pl_source *src;
  atomic_int started;
  gpg_error_t err;
  size_t n;
} stream_reader;

static gpointer
read_stream (gpointer data)
{
  stream_reader *r = data;
  guint8 buf[64];

  atomic_store (&r->started, 1);
  r->err = r->src->read (r->src, buf, sizeof buf, &r->n);
  return NULL;
}

/* A pipe: what is written comes out, the end is the end; a read waiting
 * on a writer that writes nothing ends when cancelled, and so does one
 * on a FIFO opened without waiting, whose writer never comes. */
static void
test_stream (void)
{
  int p[2];
  atomic_int cancel = 0;
  guint8 buf[16];
  size_t n = 0;
  pl_source *src;

  g_assert_cmpint (pipe (p), ==, 0);
  src = pl_source_new_stream (p[0], 1, &cancel);
  g_assert_cmpint (src->size, ==, -1);
  g_assert_cmpint (write (p[1], "hello", 5), ==, 5);
  g_assert_cmpuint (src->read (src, buf, sizeof buf, &n), ==, 0);
  g_assert_cmpmem (buf, n, "hello", 5);

  /* Cancelled while it waits (or just before: the outcome is the same). */
  {
    stream_reader r = { .src = src };
    GThread *t = g_thread_new ("reader", read_stream, &r);

    while (!atomic_load (&r.started))
      g_usleep (1000);
    atomic_store (&cancel, 1);
    g_thread_join (t);
    g_assert_cmpint (gpg_err_code (r.err), ==, GPG_ERR_CANCELED);
    atomic_store (&cancel, 0);
  }
  g_assert_cmpint (write (p[1], "!", 1), ==, 1);
  close (p[1]);
  g_assert_cmpuint (src->read (src, buf, sizeof buf, &n), ==, 0);
  g_assert_cmpmem (buf, n, "!", 1);
  g_assert_cmpuint (src->read (src, buf, sizeof buf, &n), ==, 0);
  g_assert_cmpuint (n, ==, 0);
  pl_source_free (src);

  /* A FIFO nobody writes to: open does not wait, read does, cancel ends it. */
  {
    g_autofree char *fifo = g_build_filename (tu_tmpdir (), "fifo", NULL);
    stream_reader r = { 0 };
    GThread *t;
    int fd;

    g_assert_cmpint (mkfifo (fifo, 0600), ==, 0);
    fd = open (fifo, O_RDONLY | O_NONBLOCK | O_CLOEXEC);
    g_assert_cmpint (fd, >=, 0);
    r.src = pl_source_new_stream (fd, 1, &cancel);
    t = g_thread_new ("reader", read_stream, &r);
    while (!atomic_load (&r.started))
      g_usleep (1000);
    atomic_store (&cancel, 1);
    g_thread_join (t);
    g_assert_cmpint (gpg_err_code (r.err), ==, GPG_ERR_CANCELED);
    pl_source_free (r.src);
    g_unlink (fifo);
  }
}

int
main (int argc, char **argv)
{
  tu_init (&argc, &argv);
  g_test_add_func ("/streamsource/replay", test_replay);
  g_test_add_func ("/streamsource/stream", test_stream);
  return g_test_run ();
}
