/* test-speed.c - the in-memory speed test (core/speed.h): every
 * measurement listed once, in pl_speed_id's order, run and reported in
 * that order with a rate above zero; an id outside the list refused.
 * Each runs for 5 ms here: the figures are not checked, only that each
 * measurement measured something. */
#include <string.h>
#include "testutil.h"
#include "speed.h"

typedef struct
{
  size_t calls;
  gboolean in_order;
} reports;

static void
on_result (void *user_data, const pl_speed_result *r, size_t index,
           size_t count)
{
  reports *rep = user_data;

  rep->in_order &= index == rep->calls && count == PL_SPEED_N
                   && r->mb_per_s > 0;
  rep->calls++;
}

static void
test_list (void)
{
  size_t count = 0;
  const pl_speed_result *list = pl_speed_list (&count);
  static const char *const groups[] = { "SEIPD v1", "AEAD", "hash",
                                        "memory" };

  g_assert_cmpuint (count, ==, PL_SPEED_N);
  for (size_t i = 0; i < count; i++)
    {
      gboolean known_group = FALSE;

      g_assert_nonnull (list[i].name);
      g_assert_cmpstr (list[i].name, !=, "");
      g_assert_cmpfloat (list[i].mb_per_s, ==, 0);
      for (size_t j = 0; j < G_N_ELEMENTS (groups); j++)
        known_group |= !g_strcmp0 (list[i].group, groups[j]);
      g_assert_true (known_group);
      for (size_t j = 0; j < i; j++)
        g_assert_cmpstr (list[j].name, !=, list[i].name);
    }
  g_assert_cmpstr (list[PL_SPEED_AES256_OCB_ENCRYPT].name, ==,
                   "AES-256-OCB encrypt");
  g_assert_cmpstr (list[PL_SPEED_MEMCPY].name, ==, "memcpy");
}

static void
test_run (void)
{
  pl_speed_result results[PL_SPEED_N];
  size_t count = 0;
  const pl_speed_result *list = pl_speed_list (&count);
  reports rep = { 0, TRUE };

  memset (results, 0, sizeof results);
  g_assert_cmpint (pl_speed_run (0.005, results, on_result, &rep), ==, 0);
  g_assert_cmpuint (rep.calls, ==, PL_SPEED_N);
  g_assert_true (rep.in_order);
  for (size_t i = 0; i < count; i++)
    {
      g_test_message ("%s: %.0f MB/s", results[i].name, results[i].mb_per_s);
      g_assert_cmpstr (results[i].name, ==, list[i].name);
      g_assert_cmpstr (results[i].group, ==, list[i].group);
      g_assert_cmpfloat (results[i].mb_per_s, >, 0);
    }
}

static void
test_measure (void)
{
  double rate = -1;

  g_assert_cmpint (pl_speed_measure (PL_SPEED_SHA256, 0.005, &rate), ==, 0);
  g_assert_cmpfloat (rate, >, 0);
  rate = -1;
  g_assert_cmpint (gpg_err_code (pl_speed_measure (PL_SPEED_N, 0.005, &rate)),
                   ==, GPG_ERR_INV_ARG);
  g_assert_cmpint (gpg_err_code (pl_speed_measure ((pl_speed_id) -1, 0.005,
                                                   &rate)),
                   ==, GPG_ERR_INV_ARG);
}

int
main (int argc, char **argv)
{
  tu_init (&argc, &argv);
  g_test_add_func ("/speed/list", test_list);
  g_test_add_func ("/speed/run", test_run);
  g_test_add_func ("/speed/measure", test_measure);
  return g_test_run ();
}
