/* test-keycache.c - the derived-key cache: one key derivation per batch
 * counted by the engine's derivation counter, never timed */
#include "testutil.h"
#include "algo.h"
#include "keycache.h"
#include "keys.h"
#include "skesk.h"

#include <pthread.h>
#include <string.h>
#include <time.h>

#define N_FILES 6
#define PASSPHRASE "correct horse battery staple"

static const pl_profile profiles[] = {
  PL_PROFILE_RFC4880, PL_PROFILE_LIBREPGP, PL_PROFILE_RFC9580
};

/* Cheap work factors: the counts are what is tested. */
static void
options_for (pl_profile profile, pl_encrypt_options *o)
{
  pl_encrypt_options_init (o);
  o->profile = profile;
  o->s2k_ms = 5;
  o->argon2_passes = 1;
  o->argon2_parallelism = 1;
  o->argon2_memory_exp = 10;
}

/* N_FILES messages of different contents, with BATCH (or none). */
static void
encrypt_files (pl_profile profile, pl_keycache *batch, GBytes **plain,
               GBytes **cipher)
{
  pl_encrypt_options o;

  options_for (profile, &o);
  o.keycache = batch;
  for (int i = 0; i < N_FILES; i++)
    {
      plain[i] = tu_random_bytes (1000 + 100 * i);
      g_assert_cmpint (tu_encrypt (&o, PASSPHRASE,
                                   g_bytes_get_data (plain[i], NULL),
                                   g_bytes_get_size (plain[i]), &cipher[i]),
                       ==, 0);
    }
}

static void
free_files (GBytes **plain, GBytes **cipher)
{
  for (int i = 0; i < N_FILES; i++)
    {
      g_bytes_unref (plain[i]);
      g_bytes_unref (cipher[i]);
    }
}

/* Decrypts MSG with KEY and BATCH; the session key into SESSION_KEY
 * (PL_SESSION_KEY_MAX octets) when not NULL. */
static gpg_error_t
decrypt_with (GBytes *msg, const pl_opener *key, pl_keycache *batch,
              atomic_int *cancel, GBytes **out, uint8_t *session_key)
{
  pl_source *src = pl_source_new_memory (g_bytes_get_data (msg, NULL),
                                         g_bytes_get_size (msg));
  pl_sink *sink = pl_sink_new_memory ();
  pl_decrypt_options o = { 0 };
  pl_job_control ctl = { .cancel = cancel };
  pl_decrypt_result r = { 0 };
  gpg_error_t err;
  size_t n;
  const uint8_t *d;

  o.openers = key;
  o.n_openers = 1;
  o.keycache = batch;
  o.session_key_out = session_key;
  err = pl_decrypt (src, sink, &o, &r, &ctl);
  d = pl_sink_memory_data (sink, &n);
  *out = g_bytes_new (d, n);
  pl_sink_free (sink);
  pl_source_free (src);
  return err;
}

static gpg_error_t
decrypt_pw (GBytes *msg, const char *pw, pl_keycache *batch, GBytes **out)
{
  pl_opener key = pl_opener_passphrase (pw, strlen (pw));

  return decrypt_with (msg, &key, batch, NULL, out, NULL);
}

/* The first packet of MSG, an SKESK with a one-octet length. */
static void
first_skesk (GBytes *msg, pl_skesk *sk)
{
  const uint8_t *p = g_bytes_get_data (msg, NULL);

  g_assert_cmpuint (g_bytes_get_size (msg), >, 2);
  g_assert_cmphex (p[0], ==, 0xC3);
  g_assert_cmpuint (p[1], <, 192);
  g_assert_cmpint (pl_skesk_parse (sk, p + 2, p[1]), ==, 0);
}

static size_t
spec_of (const pl_skesk *sk, uint8_t *spec)
{
  return pl_s2k_write (&sk->s2k, spec);
}

/* Every file of a batch: one derivation, one specifier, its own
 * encrypted session key, and it opens alone (no batch) too. */
static void
test_encrypt_once (gconstpointer data)
{
  pl_profile profile = (pl_profile) GPOINTER_TO_INT (data);
  GBytes *plain[N_FILES], *cipher[N_FILES];
  uint8_t keys[N_FILES][PL_SESSION_KEY_MAX];
  pl_skesk first, sk;
  uint8_t spec0[20], spec[20];
  size_t before, spec0_len;
  pl_keycache *batch;

  g_assert_cmpint (pl_keycache_new (&batch), ==, 0);
  before = pl_keys_derivations ();
  encrypt_files (profile, batch, plain, cipher);
  g_assert_cmpuint (pl_keys_derivations () - before, ==, 1);
  g_assert_cmpuint (pl_keycache_derivations (batch), ==, 1);

  first_skesk (cipher[0], &first);
  spec0_len = spec_of (&first, spec0);
  for (int i = 0; i < N_FILES; i++)
    {
      pl_opener key = pl_opener_passphrase (PASSPHRASE, strlen (PASSPHRASE));
      GBytes *back;

      first_skesk (cipher[i], &sk);
      g_assert_cmpint (sk.version, ==, profile == PL_PROFILE_RFC4880 ? 4
                                       : profile == PL_PROFILE_LIBREPGP ? 5
                                       : 6);
      g_assert_cmpmem (spec0, spec0_len, spec, spec_of (&sk, spec));
      /* v4 too carries its session key, encrypted. */
      g_assert_cmpuint (sk.esk_len, >, 0);
      if (i)
        g_assert_true (sk.esk_len != first.esk_len
                       || memcmp (sk.esk, first.esk, sk.esk_len));
      g_assert_cmpint (decrypt_with (cipher[i], &key, NULL, NULL, &back,
                                     keys[i]), ==, 0);
      g_assert_true (g_bytes_equal (back, plain[i]));
      g_bytes_unref (back);
      for (int j = 0; j < i; j++)
        g_assert_true (memcmp (keys[i], keys[j], sizeof keys[i]));
    }
  pl_keycache_free (batch);
  free_files (plain, cipher);
}

/* A batch Padlock made opens with one derivation in a new batch, and
 * with none in the batch that made it; without a batch, one a file. */
static void
test_decrypt_once (gconstpointer data)
{
  pl_profile profile = (pl_profile) GPOINTER_TO_INT (data);
  GBytes *plain[N_FILES], *cipher[N_FILES], *back;
  pl_keycache *made, *opening;
  size_t before;

  g_assert_cmpint (pl_keycache_new (&made), ==, 0);
  g_assert_cmpint (pl_keycache_new (&opening), ==, 0);
  encrypt_files (profile, made, plain, cipher);

  before = pl_keys_derivations ();
  for (int i = 0; i < N_FILES; i++)
    {
      g_assert_cmpint (decrypt_pw (cipher[i], PASSPHRASE, opening, &back),
                       ==, 0);
      g_assert_true (g_bytes_equal (back, plain[i]));
      g_bytes_unref (back);
    }
  g_assert_cmpuint (pl_keys_derivations () - before, ==, 1);
  g_assert_cmpuint (pl_keycache_derivations (opening), ==, 1);

  before = pl_keys_derivations ();
  for (int i = 0; i < N_FILES; i++)
    {
      g_assert_cmpint (decrypt_pw (cipher[i], PASSPHRASE, made, &back), ==, 0);
      g_bytes_unref (back);
    }
  g_assert_cmpuint (pl_keys_derivations () - before, ==, 0);

  before = pl_keys_derivations ();
  for (int i = 0; i < N_FILES; i++)
    {
      g_assert_cmpint (decrypt_pw (cipher[i], PASSPHRASE, NULL, &back), ==, 0);
      g_bytes_unref (back);
    }
  g_assert_cmpuint (pl_keys_derivations () - before, ==, N_FILES);

  pl_keycache_free (opening);
  pl_keycache_free (made);
  free_files (plain, cipher);
}

/* Files made one by one (a salt each): one derivation a file, once. */
static void
test_distinct_salts (void)
{
  GBytes *plain[N_FILES], *cipher[N_FILES], *back;
  pl_keycache *batch;
  size_t before;

  encrypt_files (PL_PROFILE_RFC4880, NULL, plain, cipher);
  g_assert_cmpint (pl_keycache_new (&batch), ==, 0);
  before = pl_keys_derivations ();
  for (int pass = 0; pass < 2; pass++)
    for (int i = 0; i < N_FILES; i++)
      {
        g_assert_cmpint (decrypt_pw (cipher[i], PASSPHRASE, batch, &back),
                         ==, 0);
        g_assert_true (g_bytes_equal (back, plain[i]));
        g_bytes_unref (back);
      }
  g_assert_cmpuint (pl_keys_derivations () - before, ==, N_FILES);
  g_assert_cmpuint (pl_keycache_derivations (batch), ==, N_FILES);
  pl_keycache_free (batch);
  free_files (plain, cipher);
}

/* SKESK v4 with a 16-octet key does not share its S2K key (its CFB
 * wrapping would relate the files' keys): a derivation and a salt each. */
static void
test_short_v4_key_alone (void)
{
  pl_encrypt_options o;
  pl_keycache *batch;
  GBytes *plain = tu_random_bytes (100), *a, *b;
  pl_skesk ska, skb;
  size_t before = pl_keys_derivations ();

  g_assert_cmpint (pl_keycache_new (&batch), ==, 0);
  options_for (PL_PROFILE_RFC4880, &o);
  o.cipher_algo = PL_CIPHER_AES128;
  o.keycache = batch;
  g_assert_cmpint (tu_encrypt (&o, PASSPHRASE, g_bytes_get_data (plain, NULL),
                               100, &a), ==, 0);
  g_assert_cmpint (tu_encrypt (&o, PASSPHRASE, g_bytes_get_data (plain, NULL),
                               100, &b), ==, 0);
  g_assert_cmpuint (pl_keys_derivations () - before, ==, 2);
  g_assert_cmpuint (pl_keycache_derivations (batch), ==, 0);
  first_skesk (a, &ska);
  first_skesk (b, &skb);
  g_assert_true (memcmp (ska.s2k.salt, skb.s2k.salt, 8));
  pl_keycache_free (batch);
  g_bytes_unref (a);
  g_bytes_unref (b);
  g_bytes_unref (plain);
}

/* rfc4880 and librepgp write the steady iterated count, 65011712 (issue
 * 13 item 3), when no test time target is set: a batch pays it once. */
static void
test_steady_count (void)
{
  pl_encrypt_options o;
  pl_keycache *batch;
  GBytes *plain = tu_random_bytes (10), *cipher;
  pl_skesk sk;

  g_assert_cmpint (pl_keycache_new (&batch), ==, 0);
  pl_encrypt_options_init (&o);
  o.keycache = batch;
  for (int i = 0; i < 2; i++)
    {
      g_assert_cmpint (tu_encrypt (&o, PASSPHRASE,
                                   g_bytes_get_data (plain, NULL), 10,
                                   &cipher), ==, 0);
      first_skesk (cipher, &sk);
      g_assert_cmpint (sk.s2k.type, ==, PL_S2K_ITERATED);
      g_assert_cmpuint (pl_s2k_decode_count (sk.s2k.coded_count), ==,
                        PL_S2K_ITERATED_MAX_COUNT);
      g_bytes_unref (cipher);
    }
  g_assert_cmpuint (pl_keycache_derivations (batch), ==, 1);
  pl_keycache_free (batch);
  g_bytes_unref (plain);
}

/* A wrong passphrase is its own pair: derived, refused, and the right
 * one still opens from the batch. */
static void
test_wrong_passphrase (void)
{
  GBytes *plain[N_FILES], *cipher[N_FILES], *back;
  pl_keycache *batch;

  g_assert_cmpint (pl_keycache_new (&batch), ==, 0);
  encrypt_files (PL_PROFILE_LIBREPGP, batch, plain, cipher);
  for (int i = 0; i < 2; i++)
    {
      g_assert_cmpint (gpg_err_code (decrypt_pw (cipher[i], "not it", batch,
                                                 &back)),
                       ==, GPG_ERR_BAD_PASSPHRASE);
      g_assert_cmpuint (g_bytes_get_size (back), ==, 0);
      g_bytes_unref (back);
    }
  g_assert_cmpuint (pl_keycache_derivations (batch), ==, 2);
  g_assert_cmpint (decrypt_pw (cipher[0], PASSPHRASE, batch, &back), ==, 0);
  g_assert_true (g_bytes_equal (back, plain[0]));
  g_bytes_unref (back);
  g_assert_cmpuint (pl_keycache_derivations (batch), ==, 2);
  pl_keycache_free (batch);
  free_files (plain, cipher);
}

typedef struct
{
  GBytes **cipher;
  GBytes **plain;
  pl_keycache *batch;
  int first;
} worker_arg;

static void *
decrypt_worker (void *data)
{
  worker_arg *a = data;

  for (int k = 0; k < N_FILES; k++)
    {
      int i = (a->first + k) % N_FILES;
      GBytes *back;

      g_assert_cmpint (decrypt_pw (a->cipher[i], PASSPHRASE, a->batch, &back),
                       ==, 0);
      g_assert_true (g_bytes_equal (back, a->plain[i]));
      g_bytes_unref (back);
    }
  return NULL;
}

/* Four jobs at once on one batch: the others wait for the first
 * derivation rather than run their own. */
static void
test_parallel_jobs (void)
{
  GBytes *plain[N_FILES], *cipher[N_FILES];
  pthread_t threads[4];
  worker_arg args[4];
  pl_keycache *made, *batch;

  g_assert_cmpint (pl_keycache_new (&made), ==, 0);
  encrypt_files (PL_PROFILE_RFC9580, made, plain, cipher);
  pl_keycache_free (made);
  g_assert_cmpint (pl_keycache_new (&batch), ==, 0);
  for (int t = 0; t < 4; t++)
    {
      args[t] = (worker_arg) { cipher, plain, batch, t };
      g_assert_cmpint (pthread_create (&threads[t], NULL, decrypt_worker,
                                       &args[t]), ==, 0);
    }
  for (int t = 0; t < 4; t++)
    pthread_join (threads[t], NULL);
  g_assert_cmpuint (pl_keycache_derivations (batch), ==, 1);
  pl_keycache_free (batch);
  free_files (plain, cipher);
}

/* A cancelled job keeps nothing in the batch; the next one derives. */
static void
test_cancelled (void)
{
  GBytes *plain[N_FILES], *cipher[N_FILES], *back;
  pl_opener key = pl_opener_passphrase (PASSPHRASE, strlen (PASSPHRASE));
  atomic_int cancel = 1;
  pl_keycache *batch;

  encrypt_files (PL_PROFILE_RFC4880, NULL, plain, cipher);
  g_assert_cmpint (pl_keycache_new (&batch), ==, 0);
  g_assert_cmpint (gpg_err_code (decrypt_with (cipher[0], &key, batch,
                                               &cancel, &back, NULL)),
                   ==, GPG_ERR_CANCELED);
  g_bytes_unref (back);
  g_assert_cmpuint (pl_keycache_derivations (batch), ==, 0);
  g_assert_cmpint (decrypt_pw (cipher[0], PASSPHRASE, batch, &back), ==, 0);
  g_assert_true (g_bytes_equal (back, plain[0]));
  g_bytes_unref (back);
  g_assert_cmpuint (pl_keycache_derivations (batch), ==, 1);
  pl_keycache_free (batch);
  free_files (plain, cipher);
}

typedef struct
{
  int starts, ends, depth_bad;
} deriving_count;

static void
on_deriving (void *user_data, int deriving)
{
  deriving_count *d = user_data;

  /* A wait for memory, and its end, come between a start and its end. */
  if (deriving && d->starts != d->ends)
    d->depth_bad |= deriving != PL_DERIVING
                    && deriving != PL_DERIVING_WAITING_FOR_MEMORY;
  else if (deriving)
    d->depth_bad |= deriving != PL_DERIVING || d->starts++ != d->ends;
  else
    d->depth_bad |= ++d->ends != d->starts;
}

/* The job tells when it derives (a row shows "Deriving key…" and counts
 * only data time): once a passphrase, in pairs.  On one thread, so that
 * encryption derives in line: beside the data (keyroom.h) it tells only
 * a wait, test-keyroom's /keyroom/deriving-told. */
static void
test_deriving_told (void)
{
  deriving_count d = { 0 };
  pl_job_control ctl = { .deriving = on_deriving, .user_data = &d,
                         .threads = 1 };
  pl_encrypt_options o;
  pl_opener key = pl_opener_passphrase (PASSPHRASE, strlen (PASSPHRASE));
  pl_decrypt_options dopts = { 0 };
  pl_source *src;
  pl_sink *sink;
  const uint8_t *data;
  size_t n;
  GBytes *cipher;

  options_for (PL_PROFILE_LIBREPGP, &o);
  o.openers = &key;
  o.n_openers = 1;
  src = pl_source_new_memory ("hello", 5);
  sink = pl_sink_new_memory ();
  g_assert_cmpint (pl_encrypt (src, sink, &o, &ctl), ==, 0);
  data = pl_sink_memory_data (sink, &n);
  cipher = g_bytes_new (data, n);
  pl_sink_free (sink);
  pl_source_free (src);
  g_assert_cmpint (d.starts, ==, 1);
  g_assert_cmpint (d.ends, ==, 1);

  dopts.openers = &key;
  dopts.n_openers = 1;
  src = pl_source_new_memory (g_bytes_get_data (cipher, NULL), n);
  sink = pl_sink_new_memory ();
  g_assert_cmpint (pl_decrypt (src, sink, &dopts, NULL, &ctl), ==, 0);
  pl_sink_free (sink);
  pl_source_free (src);
  g_assert_cmpint (d.starts, ==, 2);
  g_assert_cmpint (d.ends, ==, 2);
  g_assert_false (d.depth_bad);
  g_bytes_unref (cipher);
}

/* Two derivations that meet: each waits (up to 10 s) until both are
 * inside their callback at once, which only happens when the batch lets
 * different keys derive in parallel. */
typedef struct
{
  pthread_mutex_t lock;
  pthread_cond_t cond;
  int inside;
  int calls;
} meeting;

static gpg_error_t
derive_meeting (void *arg, pl_derived_key *key)
{
  meeting *m = arg;
  struct timespec until;
  int met;

  clock_gettime (CLOCK_REALTIME, &until);
  until.tv_sec += 10;
  pthread_mutex_lock (&m->lock);
  m->calls++;
  m->inside++;
  pthread_cond_broadcast (&m->cond);
  while (m->inside < 2
         && pthread_cond_timedwait (&m->cond, &m->lock, &until) == 0)
    ;
  met = m->inside >= 2;
  pthread_mutex_unlock (&m->lock);
  memset (key->key, met ? 0xAA : 0, key->len);
  return met ? 0 : gpg_error (GPG_ERR_TIMEOUT);
}

typedef struct
{
  pl_keycache *batch;
  meeting *m;
  uint8_t salt;
  gpg_error_t err;
} opener;

static void *
open_one (void *data)
{
  opener *o = data;
  pl_s2k s2k = { .type = PL_S2K_ITERATED, .hash_algo = 8,
                 .coded_count = 96 };
  uint8_t key[32];

  s2k.salt[0] = o->salt;
  o->err = pl_keycache_open_key (o->batch, &s2k, 32, PASSPHRASE,
                              strlen (PASSPHRASE), NULL, derive_meeting,
                              o->m, key);
  return NULL;
}

/* Messages with different salts derive in parallel (one thread each);
 * those with the same one wait for the first and derive nothing. */
static void
test_salts_in_parallel (void)
{
  meeting m = { PTHREAD_MUTEX_INITIALIZER, PTHREAD_COND_INITIALIZER, 0, 0 };
  pl_keycache *batch;
  pthread_t t[4];
  opener o[4];

  g_assert_cmpint (pl_keycache_new (&batch), ==, 0);
  for (int i = 0; i < 4; i++)
    {
      /* Salts 1, 2, 1, 2: two keys, four jobs. */
      o[i] = (opener) { batch, &m, (uint8_t) (1 + i % 2), 0 };
      g_assert_cmpint (pthread_create (&t[i], NULL, open_one, &o[i]), ==, 0);
    }
  for (int i = 0; i < 4; i++)
    {
      pthread_join (t[i], NULL);
      g_assert_cmpint (o[i].err, ==, 0);
    }
  g_assert_cmpint (m.calls, ==, 2);
  g_assert_cmpuint (pl_keycache_derivations (batch), ==, 2);
  pl_keycache_free (batch);
}

static gpg_error_t
derive_fake (void *arg, pl_derived_key *key)
{
  (*(int *) arg)++;
  memset (key->key, key->s2k.salt[0] ^ key->s2k.salt[1], key->len);
  return 0;
}

/* Opens the key of a message whose salt is the number I. */
static gpg_error_t
open_salt (pl_keycache *batch, int i, int *calls, uint8_t *key)
{
  pl_s2k s2k = { .type = PL_S2K_ITERATED, .hash_algo = 8,
                 .coded_count = 96 };

  s2k.salt[0] = (uint8_t) i;
  s2k.salt[1] = (uint8_t) (i >> 8);
  return pl_keycache_open_key (batch, &s2k, 32, PASSPHRASE, strlen (PASSPHRASE),
                            NULL, derive_fake, calls, key);
}

/* 10,000 files made one by one (a salt each) in one batch: secure memory
 * (a 1 MiB pool) must not run out, so the batch keeps only the newest
 * PL_KEYCACHE_OPEN_KEYS; each key still comes out right. */
static void
test_many_salts_bounded (void)
{
  pl_keycache *batch;
  uint8_t key[32];
  int calls = 0;

  g_assert_cmpint (pl_keycache_new (&batch), ==, 0);
  for (int i = 0; i < 10000; i++)
    {
      g_assert_cmpint (open_salt (batch, i, &calls, key), ==, 0);
      g_assert_cmphex (key[31], ==, (uint8_t) (i ^ (i >> 8)));
    }
  g_assert_cmpint (calls, ==, 10000);
  /* The newest are still there: no derivation for them. */
  for (int i = 10000 - PL_KEYCACHE_OPEN_KEYS; i < 10000; i++)
    g_assert_cmpint (open_salt (batch, i, &calls, key), ==, 0);
  g_assert_cmpint (calls, ==, 10000);
  pl_keycache_free (batch);
}

int
main (int argc, char **argv)
{
  static const char *names[] = { "rfc4880", "librepgp", "rfc9580" };

  tu_init (&argc, &argv);
  for (gsize i = 0; i < G_N_ELEMENTS (profiles); i++)
    {
      char *path = g_strdup_printf ("/keycache/encrypt-once/%s", names[i]);
      g_test_add_data_func (path, GINT_TO_POINTER (profiles[i]),
                            test_encrypt_once);
      g_free (path);
      path = g_strdup_printf ("/keycache/decrypt-once/%s", names[i]);
      g_test_add_data_func (path, GINT_TO_POINTER (profiles[i]),
                            test_decrypt_once);
      g_free (path);
    }
  g_test_add_func ("/keycache/distinct-salts", test_distinct_salts);
  g_test_add_func ("/keycache/wrong-passphrase", test_wrong_passphrase);
  g_test_add_func ("/keycache/steady-count", test_steady_count);
  g_test_add_func ("/keycache/deriving-told", test_deriving_told);
  g_test_add_func ("/keycache/salts-in-parallel", test_salts_in_parallel);
  g_test_add_func ("/keycache/many-salts-bounded", test_many_salts_bounded);
  g_test_add_func ("/keycache/short-v4-key-alone", test_short_v4_key_alone);
  g_test_add_func ("/keycache/parallel-jobs", test_parallel_jobs);
  g_test_add_func ("/keycache/cancelled", test_cancelled);
  return g_test_run ();
}
