/* sign-file.c - a detached signature over a file's octets */
#include "sign-file.h"
#include "armor.h"
#include "buffers.h"
#include "packet.h"
#include "sign.h"

#include <stdlib.h>
#include <string.h>

/* Hashes every octet of SRC into S, a block at a time: lent in place
 * when SRC can (a mapped file), else read into BUF. */
static gpg_error_t
hash_source (pl_source *src, pl_data_signer *s, uint8_t *buf,
             const pl_job_control *ctl)
{
  uint64_t done = 0;
  gpg_error_t err = 0;

  for (;;)
    {
      const uint8_t *p = buf;
      size_t n = 0;

      err = pl_job_check_cancel (ctl);
      if (!err)
        err = src->borrow ? src->borrow (src, PL_BLOCK_SIZE, &p, &n)
                          : pl_source_read_full (src, buf, PL_BLOCK_SIZE, &n);
      if (err || !n)
        break;
      pl_data_signer_push (s, p, n);
      done += n;
      pl_job_progress (ctl, done, src->size);
    }
  return err ? err : pl_source_check (src);
}

/* The signature packet (header and BODY, LEN octets) into SINK, armored
 * with ARMOR (V6: without the CRC). */
static gpg_error_t
write_signature (pl_sink *sink, const uint8_t *body, size_t len, int armor,
                 int v6)
{
  uint8_t *packet = malloc (6 + len);
  char *text = NULL;
  size_t n, k;
  pl_armor_encoder enc;
  gpg_error_t err = 0;

  if (!packet)
    return gpg_error_from_syserror ();
  n = pl_packet_write_header (packet, PL_PKT_SIGNATURE, len);
  memcpy (packet + n, body, len);
  n += len;
  if (!armor)
    err = sink->write (sink, packet, n);
  else if (!(text = malloc (pl_armor_encoder_bound (n)
                            + pl_armor_encoder_bound (0))))
    err = gpg_error_from_syserror ();
  else
    {
      pl_armor_encoder_init (&enc, PL_ARMOR_SIGNATURE, !v6);
      k = pl_armor_encoder_push (&enc, packet, n, text);
      k += pl_armor_encoder_finish (&enc, text + k);
      err = sink->write (sink, text, k);
    }
  free (text);
  free (packet);
  return err;
}

gpg_error_t
pl_sign_detached (pl_source *src, pl_sink *sink, const pl_seckey *signer,
                  int armor, uint32_t created, const pl_job_control *ctl)
{
  uint8_t *buf = NULL, *body = NULL;
  pl_data_signer s;
  size_t len = 0;
  gpg_error_t err = pl_data_signer_init (&s, signer, 0, created);

  if (!err && (!(buf = pl_buffer_take (PL_BLOCK_SIZE))
               || !(body = malloc (PL_SIG_BODY_MAX))))
    err = gpg_error_from_syserror ();
  if (!err)
    err = hash_source (src, &s, buf, ctl);
  /* The signer is asked only for data read whole: a cancel or a read
   * error never brings up a pinentry. */
  if (!err)
    err = pl_data_signer_finish (&s, body, &len);
  if (!err)
    err = pl_job_check_cancel (ctl);
  if (!err)
    err = write_signature (sink, body, len, armor, s.b.salt_len > 0);
  if (!err)
    err = sink->commit (sink);
  if (err)
    sink->abort (sink);
  pl_data_signer_clear (&s);
  free (body);
  pl_buffer_give (buf, PL_BLOCK_SIZE, PL_BLOCK_SIZE);
  return err;
}
