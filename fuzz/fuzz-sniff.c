/* fuzz-sniff.c - libFuzzer target for the sniffer (core/sniff.c)
 *
 * Input: the first octets of a file, as they are (no control octet).
 * They are sniffed with the size known (the input's length), unknown (a
 * pipe), and, when longer than what pl_sniff looks at, cut to
 * PL_SNIFF_SIZE with the size known.  Beyond "no crash, no leak, nothing
 * read past the buffer" (ASan: the buffer is an exact copy):
 *  - every field lies in its range, and the same call gives the same
 *    result (no state, nothing left uninitialised);
 *  - a known size only sharpens: what is OpenPGP with it is the same kind
 *    of OpenPGP without it;
 *  - octets past PL_SNIFF_SIZE change nothing.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "packet.h"
#include "sniff.h"

static void
check_ranges (const pl_sniff_result *r)
{
  if ((unsigned) r->kind > PL_SNIFF_CLEARSIGNED
      || (unsigned) r->tar > PL_SNIFF_TAR_YES
      || r->n_key_packets > PL_SNIFF_KEY_PACKETS_MAX
      || (r->key_packets_left_out && r->n_key_packets
                                     != PL_SNIFF_KEY_PACKETS_MAX)
      || (r->kind != PL_SNIFF_MESSAGE
          && (r->n_key_packets || r->data_tag || r->encrypted)))
    abort ();
  if (r->data_tag && r->data_tag != PL_PKT_SEIPD && r->data_tag != PL_PKT_SED
      && r->data_tag != PL_PKT_OCB_ENCRYPTED)
    abort ();
  for (size_t i = 0; i < r->n_key_packets; i++)
    {
      const pl_sniff_key_packet *k = &r->key_packets[i];

      if ((k->tag != PL_PKT_SKESK && k->tag != PL_PKT_PKESK)
          || k->fingerprint_len > sizeof k->fingerprint
          || (k->fingerprint_len && k->fingerprint_len != 20
              && k->fingerprint_len != 32))
        abort ();
    }
}

static pl_sniff_result
sniff (const uint8_t *buf, size_t len, int64_t total)
{
  pl_sniff_result a, b;

  memset (&a, 0x5a, sizeof a);
  memset (&b, 0xa5, sizeof b);
  pl_sniff (buf, len, total, &a);
  pl_sniff (buf, len, total, &b);
  if (memcmp (&a, &b, sizeof a))
    {
      fprintf (stderr, "sniff: two calls disagree\n");
      abort ();
    }
  check_ranges (&a);
  return a;
}

int
LLVMFuzzerTestOneInput (const uint8_t *data, size_t size)
{
  uint8_t *copy = malloc (size ? size : 1);
  pl_sniff_result known, unknown;

  if (!copy)
    return 0;
  memcpy (copy, data, size);
  known = sniff (copy, size, (int64_t) size);
  unknown = sniff (copy, size, PL_SNIFF_SIZE_UNKNOWN);
  if (known.kind != PL_SNIFF_NOT_OPENPGP && unknown.kind != known.kind)
    {
      fprintf (stderr, "sniff: kind %d with the size known, %d without\n",
               known.kind, unknown.kind);
      abort ();
    }
  if (size > PL_SNIFF_SIZE)
    {
      pl_sniff_result cut = sniff (copy, PL_SNIFF_SIZE, (int64_t) size);
      if (memcmp (&cut, &known, sizeof cut))
        {
          fprintf (stderr, "sniff: octets past PL_SNIFF_SIZE counted\n");
          abort ();
        }
    }
  free (copy);
  return 0;
}
