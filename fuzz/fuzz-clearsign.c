/* fuzz-clearsign.c - libFuzzer target for cleartext signatures
 * (core/clearsign.c)
 *
 * Input: a cleartext-signed message, or any text.  It is verified
 * against RFC 9580's A.3 certificate (the seeds' signer) and a v4 key
 * made at the first call; then it is signed by that key as text and the
 * result verified again.  Beyond "no crash, no leak, nothing read past
 * the buffer" (ASan: the input is an exact copy):
 *  - a verified message's text is no longer than the message;
 *  - whatever the input, what pl_clearsign_make writes verifies good,
 *    and gives back the text as signed, which signed again gives the
 *    same text (the canonical form is a fixed point);
 *  - sniffing calls what pl_clearsign_make writes cleartext-signed.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "armor.h"
#include "cert.h"
#include "clearsign.h"
#include "job.h"
#include "keygen.h"
#include "seckey.h"
#include "sniff.h"

/* RFC 9580 A.3. */
static const char a3_cert[] =
  "-----BEGIN PGP PUBLIC KEY BLOCK-----\n\n"
  "xioGY4d/4xsAAAAg+U2nu0jWCmHlZ3BqZYfQMxmZu52JGggkLq2EVD34laPCsQYf\n"
  "GwoAAABCBYJjh3/jAwsJBwUVCg4IDAIWAAKbAwIeCSIhBssYbE8GCaaX5NUt+mxy\n"
  "KwwfHifBilZwj2Ul7Ce62azJBScJAgcCAAAAAK0oIBA+LX0ifsDm185Ecds2v8lw\n"
  "gyU2kCcUmKfvBXbAf6rhRYWzuQOwEn7E/aLwIwRaLsdry0+VcallHhSu4RN6HWaE\n"
  "QsiPlR4zxP/TP7mhfVEe7XWPxtnMUMtf15OyA51YBM4qBmOHf+MZAAAAIIaTJINn\n"
  "+eUBXbki+PSAld2nhJh/LVmFsS+60WyvXkQ1wpsGGBsKAAAALAWCY4d/4wKbDCIh\n"
  "BssYbE8GCaaX5NUt+mxyKwwfHifBilZwj2Ul7Ce62azJAAAAAAQBIKbpGG2dWTX8\n"
  "j+VjFM21J0hqWlEg+bdiojWnKfA5AQpWUWtnNwDEM0g12vYxoWM8Y81W+bHBw805\n"
  "I8kWVkXU6vFOi+HWvv/ira7ofJu16NnoUkhclkUrk0mXubZvyl4GBg==\n"
  "-----END PGP PUBLIC KEY BLOCK-----\n";

/* libgcrypt 1.10 leaves one 128 KiB block of its random generator's
 * unreferenced at exit, allocated once when the key is made (this run's
 * LeakSanitizer report: 131072 octets in 1 allocation, all frames in
 * libgcrypt).  Leaks of ours through libgcrypt (an unclosed hash) are
 * left to make asan TESTS=clearsign, which runs the same calls. */
const char *__lsan_default_suppressions (void);
const char *
__lsan_default_suppressions (void)
{
  return "leak:libgcrypt.so.20\n";
}

static const pl_cert *certs[2];
static pl_seckey signer;

static void
die (const char *what)
{
  fprintf (stderr, "clearsign: %s\n", what);
  abort ();
}

static void
setup (void)
{
  static pl_cert **a3, **own;
  const char *uid[] = { "Fuzz <fuzz@example.org>" };
  uint8_t *bin;
  size_t len, n;

  if (pl_init ())
    die ("init");
  if (pl_armor_dearmor_all ((const uint8_t *) a3_cert, strlen (a3_cert),
                            &bin, &len) || pl_certs_read (bin, len, &a3, &n))
    die ("A.3");
  free (bin);
  if (pl_keygen (PL_KEYGEN_DEFAULT, uid, 1, NULL, 0, 1700000000u, &bin, &len)
      || pl_certs_read (bin, len, &own, &n))
    die ("keygen");
  gcry_free (bin);
  if (pl_seckey_unlock (&own[0]->primary, 5, NULL, 0, 0, NULL, &signer))
    die ("unlock");
  certs[0] = a3[0];
  certs[1] = own[0];
}

/* TEXT signed, verified: good, and its text back into *BACK. */
static void
sign_and_verify (const uint8_t *text, size_t len, uint8_t **back,
                 size_t *back_len)
{
  const pl_seckey *signers[] = { &signer };
  pl_verifications v;
  pl_sniff_result r;
  uint8_t *msg;
  size_t msg_len;

  if (pl_clearsign_make (text, len, signers, 1, 1700000001u, &msg, &msg_len))
    die ("make failed");
  pl_sniff (msg, msg_len, (int64_t) msg_len, &r);
  if (r.kind != PL_SNIFF_CLEARSIGNED)
    die ("what make wrote does not sniff as cleartext");
  if (pl_clearsign_verify (msg, msg_len, certs, 2, 1800000000u, &v, back,
                           back_len)
      || v.n != 1 || v.v[0].verdict != PL_VERDICT_GOOD)
    {
      fprintf (stderr, "%.*s\n", (int) msg_len, msg);
      die ("what make wrote does not verify");
    }
  free (msg);
}

int
LLVMFuzzerTestOneInput (const uint8_t *data, size_t size)
{
  static int ready;
  uint8_t *copy = malloc (size ? size : 1), *text = NULL, *once, *twice;
  size_t text_len = 0, once_len, twice_len;
  pl_verifications v;

  if (!ready)
    {
      setup ();
      ready = 1;
    }
  if (!copy)
    return 0;
  memcpy (copy, data, size);
  if (!pl_clearsign_verify (copy, size, certs, 2, 1800000000u, &v, &text,
                            &text_len) && text_len > size)
    die ("text longer than the message");
  free (text);
  sign_and_verify (copy, size, &once, &once_len);
  sign_and_verify (once, once_len, &twice, &twice_len);
  if (once_len != twice_len || memcmp (once, twice, once_len))
    die ("the signed text is not a fixed point");
  free (once);
  free (twice);
  free (copy);
  return 0;
}
