/* cancel-latency.c - how long a decrypt takes to stop once cancelled
 * during key derivation (issue 11 item 2: within 0.5 s at any moment)
 *
 * Builds messages whose SKESKs ask for long derivations (within the
 * budget), starts pl_decrypt on a thread, sets the cancel flag after a
 * delay, and measures the time from the flag to pl_decrypt's return.
 * Prints the largest latency per message over several delays.
 * Usage: build/bench/cancel-latency
 */
#include <pthread.h>
#include <stdio.h>
#include <string.h>
#include <time.h>
#include <gcrypt.h>

#include "job.h"

static uint8_t msg[4096];
static size_t msg_len;

static void
emit_packet (int tag, const uint8_t *body, size_t n)
{
  msg[msg_len++] = (uint8_t) (0xC0 | tag);
  msg[msg_len++] = (uint8_t) n;         /* n < 192 here */
  memcpy (msg + msg_len, body, n);
  msg_len += n;
}

static void
argon2_skesk (uint8_t t, uint8_t p, uint8_t m)
{
  uint8_t body[88] = { 6, 38, 9, 2, 20, 4 };
  gcry_randomize (body + 6, 16, GCRY_WEAK_RANDOM);
  body[22] = t;
  body[23] = p;
  body[24] = m;
  gcry_randomize (body + 25, sizeof body - 25, GCRY_WEAK_RANDOM);
  emit_packet (3, body, sizeof body);
}

static void
iterated_skesk (uint8_t hash)
{
  uint8_t body[46] = { 4, 9, 3, hash };
  gcry_randomize (body + 4, 8, GCRY_WEAK_RANDOM);
  body[12] = 255;
  gcry_randomize (body + 13, 33, GCRY_WEAK_RANDOM);
  emit_packet (3, body, sizeof body);
}

static void
noise_data (void)
{
  uint8_t body[101] = { 1 };
  gcry_randomize (body + 1, 100, GCRY_WEAK_RANDOM);
  emit_packet (18, body, sizeof body);
}

static double
now (void)
{
  struct timespec ts;
  clock_gettime (CLOCK_MONOTONIC, &ts);
  return ts.tv_sec + ts.tv_nsec / 1e9;
}

typedef struct
{
  atomic_int cancel;
  double returned;
  gpg_error_t err;
} run;

static void *
decrypt_thread (void *arg)
{
  run *r = arg;
  static const pl_opener keys[] = {
    { PL_OPENER_PASSPHRASE, "password", 8, 0 }
  };
  pl_decrypt_options o = { 0 };
  pl_job_control ctl = { 0 };
  pl_source *src = pl_source_new_memory (msg, msg_len);
  pl_sink *sink = pl_sink_new_memory ();

  o.openers = keys;
  o.n_openers = 1;
  ctl.cancel = &r->cancel;
  r->err = pl_decrypt (src, sink, &o, NULL, &ctl);
  r->returned = now ();
  pl_sink_free (sink);
  pl_source_free (src);
  return NULL;
}

static void
measure (const char *name)
{
  static const double delays[] = { 0.05, 0.3, 0.75, 1.6, 2.9 };
  double worst = 0;

  for (size_t i = 0; i < sizeof delays / sizeof *delays; i++)
    {
      run r = { 0 };
      pthread_t t;
      double at;
      struct timespec d = { 0, 0 };

      d.tv_sec = (time_t) delays[i];
      d.tv_nsec = (long) ((delays[i] - d.tv_sec) * 1e9);
      pthread_create (&t, NULL, decrypt_thread, &r);
      nanosleep (&d, NULL);
      at = now ();
      atomic_store (&r.cancel, 1);
      pthread_join (t, NULL);
      if (gpg_err_code (r.err) != GPG_ERR_CANCELED)
        printf ("  (ended before the cancel at %.2f s: %s)\n", delays[i],
                gpg_strerror (r.err));
      else if (r.returned - at > worst)
        worst = r.returned - at;
    }
  printf ("%-44s worst %6.1f ms\n", name, worst * 1000);
}

int
main (void)
{
  if (pl_init ())
    return 1;
  printf ("# time from the cancel flag to pl_decrypt's return, "
          "over delays 0.05-2.9 s\n");
  msg_len = 0;
  argon2_skesk (1, 1, 21);
  argon2_skesk (1, 1, 20);
  noise_data ();
  measure ("Argon2 t=1 p=1 over 2 GiB, then 1 GiB");
  msg_len = 0;
  argon2_skesk (3, 4, 19);
  argon2_skesk (2, 4, 19);
  noise_data ();
  measure ("Argon2 t=3 then t=2, p=4 over 512 MiB");
  msg_len = 0;
  for (int i = 0; i < 12; i++)
    iterated_skesk (2);
  noise_data ();
  measure ("12 x iterated SHA-1 count 65011712");
  return 0;
}
