/* fuzz-cert.c - libFuzzer target for certificates and secret keys
 *
 * Input: a keyring, binary or armored (cert.h).  Every certificate read
 * is asked for its primary's status and its encryption key (which
 * verifies the self-signatures and bindings it relies on), each key for
 * whether it may decrypt, and each secret part is unlocked with the
 * passphrase "fuzz" under a 1 MiB Argon2 cap.  Beyond "no crash, no
 * leak": a chosen encryption key is one of the certificate's keys and
 * can encrypt, and re-reading a certificate's packets gives the same
 * primary fingerprint.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "cert.h"
#include "job.h"
#include "seckey.h"

static void
check_cert (const pl_cert *c)
{
  pl_cert_status st;
  const pl_cert_key *enc = NULL;
  pl_cert **again;
  size_t n;
  char why[128];

  (void) pl_cert_check_primary (c, 1700000000u, &st, why, sizeof why);
  if (!pl_cert_encryption_key (c, 1700000000u, &enc, why, sizeof why))
    {
      int found = enc == &c->primary;
      for (size_t i = 0; i < c->n_subkeys; i++)
        found |= enc == &c->subkeys[i];
      if (!found || !pl_pubkey_can_encrypt (&enc->key))
        abort ();
    }
  for (size_t i = 0; i <= c->n_subkeys; i++)
    {
      const pl_cert_key *k = i ? &c->subkeys[i - 1] : &c->primary;
      pl_seckey sk;
      (void) pl_cert_key_may_decrypt (c, k, 1700000000u);
      if (k->secret && !pl_seckey_unlock (k, i ? 7 : 5, "fuzz", 4, 1024,
                                          NULL, &sk))
        pl_seckey_clear (&sk);
    }
  if (pl_certs_read (c->packets, c->packets_len, &again, &n))
    abort ();
  if (!n || again[0]->primary.key.fpr_len != c->primary.key.fpr_len
      || memcmp (again[0]->primary.key.fpr, c->primary.key.fpr,
                 c->primary.key.fpr_len))
    abort ();
  pl_certs_free (again, n);
}

int
LLVMFuzzerTestOneInput (const uint8_t *data, size_t size)
{
  static int initialized;
  pl_cert **certs;
  size_t n;

  if (!initialized)
    {
      if (pl_init ())
        abort ();
      initialized = 1;
    }
  if (pl_certs_read (data, size, &certs, &n))
    return 0;
  for (size_t i = 0; i < n; i++)
    check_cert (certs[i]);
  pl_certs_free (certs, n);
  return 0;
}
