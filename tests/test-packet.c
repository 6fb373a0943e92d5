/* test-packet.c - packet framing: headers, lengths, partial bodies, and
 * readers that hand out blocks of any size */
#include "testutil.h"
#include "packet.h"

#include <string.h>

/* A reader over memory that hands out at most STEP octets at a time. */
typedef struct
{
  pl_reader base;
  guint8 *data;
  gsize len, pos, step;
} mem_reader;

static gpg_error_t
mem_next (pl_reader *self, uint8_t **data, size_t *len)
{
  mem_reader *r = (mem_reader *) self;
  gsize n = MIN (r->step, r->len - r->pos);
  *data = r->data + r->pos;
  *len = n;
  r->pos += n;
  return 0;
}

static void
mem_reader_init (mem_reader *r, guint8 *data, gsize len, gsize step)
{
  memset (r, 0, sizeof *r);
  r->base.next = mem_next;
  r->data = data;
  r->len = len;
  r->step = step;
}

/* Reads one packet and returns its tag and body. */
static gpg_error_t
read_packet (guint8 *data, gsize len, gsize step, int *tag, GByteArray *body)
{
  mem_reader r;
  pl_cursor c;
  pl_packet_body b;
  gpg_error_t err;

  mem_reader_init (&r, data, len, step);
  pl_cursor_init (&c, &r.base);
  err = pl_packet_begin (&c, &b);
  if (err)
    return err;
  *tag = b.tag;
  for (;;)
    {
      uint8_t *p;
      size_t n;
      err = b.base.next (&b.base, &p, &n);
      if (err || !n)
        return err;
      g_byte_array_append (body, p, (guint) n);
    }
}

static void
test_definite (void)
{
  static const gsize lens[] = { 0, 1, 191, 192, 8383, 8384, 100000 };
  static const gsize steps[] = { 1, 3, 4096, G_MAXSIZE };

  for (gsize i = 0; i < G_N_ELEMENTS (lens); i++)
    for (gsize s = 0; s < G_N_ELEMENTS (steps); s++)
      {
        GBytes *payload = tu_random_bytes (lens[i]);
        guint8 *msg = g_malloc (lens[i] + 6);
        gsize hl = pl_packet_write_header (msg, 11, lens[i]);
        GByteArray *body = g_byte_array_new ();
        int tag;

        g_assert_cmpuint (hl, ==, lens[i] < 192 ? 2 : lens[i] < 8384 ? 3 : 6);
        memcpy (msg + hl, g_bytes_get_data (payload, NULL), lens[i]);
        g_assert_cmpuint (read_packet (msg, hl + lens[i], steps[s], &tag,
                                       body), ==, 0);
        g_assert_cmpint (tag, ==, 11);
        g_assert_cmpmem (body->data, body->len,
                         g_bytes_get_data (payload, NULL), lens[i]);
        /* Cut anywhere inside: truncated, never a short success. */
        for (gsize cut = 1; cut < hl + lens[i]; cut += 1 + cut / 3)
          {
            g_byte_array_set_size (body, 0);
            g_assert_cmpint (gpg_err_code (read_packet (msg, cut, steps[s],
                                                        &tag, body)), ==,
                             GPG_ERR_TRUNCATED);
          }
        g_byte_array_unref (body);
        g_free (msg);
        g_bytes_unref (payload);
      }
}

static void
test_old_format (void)
{
  /* Old CTB for tag 11: 0x80 | 11 << 2 | length type. */
  guint8 one[] = { 0xAC, 3, 'a', 'b', 'c' };
  guint8 two[] = { 0xAD, 0, 2, 'x', 'y' };
  guint8 four[] = { 0xAE, 0, 0, 0, 1, 'z' };
  guint8 indet[] = { 0xAF, 'u', 'n', 't', 'i', 'l' };
  GByteArray *body = g_byte_array_new ();
  int tag;

  g_assert_cmpuint (read_packet (one, sizeof one, 1, &tag, body), ==, 0);
  g_assert_cmpmem (body->data, body->len, "abc", 3);
  g_byte_array_set_size (body, 0);
  g_assert_cmpuint (read_packet (two, sizeof two, 2, &tag, body), ==, 0);
  g_assert_cmpmem (body->data, body->len, "xy", 2);
  g_byte_array_set_size (body, 0);
  g_assert_cmpuint (read_packet (four, sizeof four, 7, &tag, body), ==, 0);
  g_assert_cmpmem (body->data, body->len, "z", 1);
  g_byte_array_set_size (body, 0);
  g_assert_cmpuint (read_packet (indet, sizeof indet, 2, &tag, body), ==, 0);
  g_assert_cmpint (tag, ==, 11);
  g_assert_cmpmem (body->data, body->len, "until", 5);
  g_byte_array_unref (body);
}

static void
test_partial (void)
{
  GBytes *payload = tu_random_bytes (512 + 1024 + 4096 + 700);
  const guint8 *p = g_bytes_get_data (payload, NULL);
  GByteArray *msg = g_byte_array_new ();
  GByteArray *body = g_byte_array_new ();
  guint8 hdr[8];
  gsize hl;
  int tag;

  hl = pl_packet_write_partial_header (hdr, 18, 9);
  g_byte_array_append (msg, hdr, (guint) hl);
  g_byte_array_append (msg, p, 512);
  hdr[0] = pl_packet_partial_octet (10);
  g_byte_array_append (msg, hdr, 1);
  g_byte_array_append (msg, p + 512, 1024);
  hdr[0] = pl_packet_partial_octet (12);
  g_byte_array_append (msg, hdr, 1);
  g_byte_array_append (msg, p + 1536, 4096);
  hl = pl_packet_write_length (hdr, 700);
  g_byte_array_append (msg, hdr, (guint) hl);
  g_byte_array_append (msg, p + 5632, 700);

  for (gsize step = 1; step < 9000; step = step * 3 + 1)
    {
      g_byte_array_set_size (body, 0);
      g_assert_cmpuint (read_packet (msg->data, msg->len, step, &tag, body),
                        ==, 0);
      g_assert_cmpint (tag, ==, 18);
      g_assert_cmpmem (body->data, body->len, p, g_bytes_get_size (payload));
    }
  /* A first partial chunk under 512 octets is not allowed. */
  msg->data[1] = pl_packet_partial_octet (8);
  g_byte_array_set_size (body, 0);
  g_assert_cmpint (gpg_err_code (read_packet (msg->data, msg->len, 64, &tag,
                                              body)), ==, GPG_ERR_INV_PACKET);
  g_byte_array_unref (body);
  g_byte_array_unref (msg);
  g_bytes_unref (payload);
}

static void
test_bad_headers (void)
{
  guint8 not_packet[] = { 0x41, 0x42 };
  guint8 tag0[] = { 0xC0, 0x01, 0x00 };
  GByteArray *body = g_byte_array_new ();
  int tag;

  g_assert_cmpint (gpg_err_code (read_packet (not_packet, 2, 1, &tag, body)),
                   ==, GPG_ERR_INV_PACKET);
  g_assert_cmpint (gpg_err_code (read_packet (tag0, 3, 1, &tag, body)), ==,
                   GPG_ERR_INV_PACKET);
  g_assert_cmpint (gpg_err_code (read_packet (tag0, 0, 1, &tag, body)), ==,
                   GPG_ERR_EOF);
  g_byte_array_unref (body);
}

static void
test_read_all_limit (void)
{
  guint8 msg[300];
  guint8 buf[64];
  mem_reader r;
  pl_cursor c;
  pl_packet_body b;
  size_t len;

  memset (msg, 7, sizeof msg);
  pl_packet_write_header (msg, 3, 200);
  mem_reader_init (&r, msg, 203, 1000);
  pl_cursor_init (&c, &r.base);
  g_assert_cmpuint (pl_packet_begin (&c, &b), ==, 0);
  /* Refused from the length alone, before any copy. */
  g_assert_cmpint (gpg_err_code (pl_packet_read_all (&b, buf, sizeof buf,
                                                     &len)), ==,
                   GPG_ERR_BAD_DATA);
}

int
main (int argc, char **argv)
{
  tu_init (&argc, &argv);
  g_test_add_func ("/packet/definite", test_definite);
  g_test_add_func ("/packet/old-format", test_old_format);
  g_test_add_func ("/packet/partial", test_partial);
  g_test_add_func ("/packet/bad-headers", test_bad_headers);
  g_test_add_func ("/packet/read-all-limit", test_read_all_limit);
  return g_test_run ();
}
