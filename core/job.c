/* job.c - what every job shares: start-up, the profiles, the thread
 * budget, cancellation and progress */
#ifdef __SANITIZE_ADDRESS__
#include <sanitizer/lsan_interface.h>
#endif
#include "job.h"
#include "algo.h"
#include "errors.h"

#include <string.h>
#include <unistd.h>
#include <gcrypt.h>

/* Who reads each format, as the tests/test-interop-* runs show: they
 * differ in what GnuPG accepts, which is what most people have. */
static const pl_profile_info profiles[] = {
  { "rfc4880", PL_N_ ("OpenPGP (RFC 4880)"),
    PL_N_ ("SEIPD v1 with AES-256"),
    PL_N_ ("opens in GnuPG, Kleopatra, RNP, Sequoia, OpenPGP.js") },
  { "librepgp", PL_N_ ("LibrePGP"),
    PL_N_ ("AEAD OCB packet (LibrePGP)"),
    PL_N_ ("opens in GnuPG 2.2.21 or later, RNP, OpenPGP.js") },
  { "rfc9580", PL_N_ ("OpenPGP v6 (RFC 9580)"),
    PL_N_ ("SEIPD v2 OCB with Argon2 (RFC 9580)"),
    PL_N_ ("opens in Sequoia, OpenPGP.js 6, GopenPGP; not GnuPG 2.2/2.4") },
};

#define N_PROFILES (sizeof profiles / sizeof profiles[0])

const pl_profile_info *
pl_profiles (size_t *count)
{
  *count = N_PROFILES;
  return profiles;
}

int
pl_profile_from_name (const char *name)
{
  if (!strcmp (name, "default"))
    return PL_PROFILE_RFC4880;
  for (size_t i = 0; i < N_PROFILES; i++)
    if (!strcmp (name, profiles[i].name))
      return (int) i;
  return -1;
}

int
pl_profile_valid (int profile)
{
  return profile >= 0 && (size_t) profile < N_PROFILES;
}

void
pl_encrypt_options_init (pl_encrypt_options *opts)
{
  memset (opts, 0, sizeof *opts);
  opts->cipher_algo = PL_CIPHER_AES256;
  opts->literal_format = 'b';
  opts->chunk_octet = -1;
}

int
pl_default_threads (void)
{
  long n = sysconf (_SC_NPROCESSORS_ONLN);
  return n > 0 ? (int) n : 1;
}

gpg_error_t
pl_init (void)
{
  static int done;

  if (done)
    return 0;
  if (!gcry_check_version ("1.10.0"))
    return gpg_error (GPG_ERR_NOT_SUPPORTED);
  /* Secure memory for passphrases, S2K outputs, session keys and cipher
   * contexts; libgcrypt falls back to ordinary memory, with a warning
   * we silence, where mlock is not allowed. */
  gcry_control (GCRYCTL_SUSPEND_SECMEM_WARN);
  gcry_control (GCRYCTL_INIT_SECMEM, 1024 * 1024, 0);
  gcry_control (GCRYCTL_RESUME_SECMEM_WARN);
  gcry_control (GCRYCTL_INITIALIZATION_FINISHED, 0);
#ifdef __SANITIZE_ADDRESS__
  {
    /* libgcrypt 1.10's first GCRY_VERY_STRONG_RANDOM request (key
     * generation makes one) allocates a 128 KiB block for its jitter
     * entropy source that LeakSanitizer reports as leaked at exit.  It
     * is libgcrypt's, once a process: made here with LeakSanitizer
     * looking away, so that what it does report is ours. */
    unsigned char b[1];

    __lsan_disable ();
    gcry_randomize (b, sizeof b, GCRY_VERY_STRONG_RANDOM);
    __lsan_enable ();
  }
#endif
  done = 1;
  return 0;
}

int
pl_job_threads (const pl_job_control *ctl)
{
  if (ctl && ctl->threads > 0)
    return ctl->threads;
  return pl_default_threads ();
}

gpg_error_t
pl_job_check_cancel (const pl_job_control *ctl)
{
  if (ctl && ctl->cancel && atomic_load (ctl->cancel))
    return gpg_error (GPG_ERR_CANCELED);
  return 0;
}

void
pl_job_progress (const pl_job_control *ctl, uint64_t done, int64_t total)
{
  if (ctl && ctl->progress)
    ctl->progress (ctl->user_data, done, total);
}

void
pl_job_deriving (const pl_job_control *ctl, int deriving)
{
  if (ctl && ctl->deriving)
    ctl->deriving (ctl->user_data, deriving);
}
