/* sniff.h - what a file is, from its first octets: an OpenPGP message, a
 * key, a signature, or not OpenPGP at all (RFC 9580 §4, §5, §6, §10, §11)
 *
 * Judged by content, never by name, and strictly enough that an ordinary
 * file whose first octet happens to look like a packet tag is not taken
 * for OpenPGP: the first packet must be one that starts what it claims
 * (a message, a transferable key, a signature), with a version this
 * format knows and a length that fits the input.  Then the packets that
 * follow within the buffer are read as far as they go: the key packets of
 * a message, its encrypted data packet, and, when the message is not
 * encrypted, whether its literal data starts a tar archive.
 *
 * One call over a buffer: no I/O, no allocation, no state; safe on any
 * thread and on any octets (fuzz/fuzz-sniff.c).  The caller reads the
 * input's first octets (up to PL_SNIFF_SIZE; more are not looked at) and
 * hands them over with what it knows of the input's size; for a pipe it
 * goes on reading after them (io.h: pl_source_new_stream), so that the
 * octets sniffed are never lost.  Packet framing is packet.c's.
 */
#pragma once

#include <stddef.h>
#include <stdint.h>

#include "s2k.h"

/* How many octets pl_sniff looks at: enough for an armored message's
 * text before its BEGIN line (armor.h), and for a few key packets. */
#define PL_SNIFF_SIZE 8192

/* TOTAL for pl_sniff when the input's size is unknown and more octets
 * than the buffer holds may follow (a pipe that has not ended). */
#define PL_SNIFF_SIZE_UNKNOWN (-1)

/* The key packets a result lists; more are counted, not kept. */
#define PL_SNIFF_KEY_PACKETS_MAX 8

typedef enum
{
  PL_SNIFF_NOT_OPENPGP = 0,     /* anything else (also an empty input) */
  PL_SNIFF_MESSAGE,             /* an OpenPGP message, encrypted or not */
  PL_SNIFF_PUBLIC_KEY,          /* a transferable public key (certificate) */
  PL_SNIFF_SECRET_KEY,          /* a transferable secret key */
  PL_SNIFF_SIGNATURE,           /* a detached signature */
  PL_SNIFF_CLEARSIGNED          /* cleartext-signed text (clearsign.h):
                                 * signed, not encrypted; ARMORED is 1
                                 * (it is text), no packet details */
} pl_sniff_kind;

typedef enum
{
  PL_SNIFF_TAR_UNKNOWN = 0,     /* encrypted (only decryption can tell), or
                                 * the literal data starts past the buffer */
  PL_SNIFF_TAR_NO,              /* literal data that is not a tar archive */
  PL_SNIFF_TAR_YES              /* literal data that starts with a valid
                                 * tar header (tar.h: pl_tar_header_is_valid) */
} pl_sniff_tar;

/* A key packet of a message: a SKESK (PL_PKT_SKESK) or a PKESK
 * (PL_PKT_PKESK), as far as its body is whole in the buffer. */
typedef struct
{
  int tag;                      /* PL_PKT_SKESK or PL_PKT_PKESK */
  int version;                  /* SKESK 4, 5, 6; PKESK 3, 6 */
  int parsed;                   /* 1: the fields below are filled; 0: the
                                 * body is cut by the buffer's end, or it
                                 * does not parse (decryption will say) */
  /* SKESK (skesk.h) */
  int cipher_algo;              /* v4 and v5: the SKESK's cipher; v6 too */
  int aead_algo;                /* v5 and v6 */
  pl_s2k s2k;                   /* the whole specifier: its cost is known
                                 * before any derivation (s2k.h) */
  /* PKESK (RFC 9580 §5.1) */
  int pubkey_algo;
  uint8_t key_id[8];            /* v3: the recipient's key ID, all zero for
                                 * an anonymous recipient; v6: the last 8
                                 * octets of a v4 fingerprint, the first 8
                                 * of a v6 one, zero when anonymous */
  int key_version;              /* v6: 4 or 6; 0 anonymous (and for v3) */
  uint8_t fingerprint[32];      /* v6: the recipient's fingerprint */
  size_t fingerprint_len;       /* 20 (v4 key), 32 (v6 key) or 0 */
} pl_sniff_key_packet;

typedef struct
{
  pl_sniff_kind kind;
  int armored;                  /* ASCII armor; the rest describes the
                                 * packets inside it */
  /* PL_SNIFF_MESSAGE */
  int encrypted;                /* 1: key packets or an encrypted data
                                 * packet come first; 0: literal,
                                 * compressed or signed data */
  int data_tag;                 /* PL_PKT_SEIPD, PL_PKT_OCB_ENCRYPTED or
                                 * PL_PKT_SED once seen within the buffer,
                                 * else 0 */
  int data_version;             /* its version octet (SEIPD 1 or 2, OCB 1);
                                 * 0 for SED or when past the buffer */
  int unencrypted;              /* 1: its first packet is literal data, a
                                 * compressed packet (holding literal
                                 * data or signatures), a one-pass
                                 * signature or a signature before the
                                 * data: signed (gpg -s) or literal, not
                                 * encrypted.  0: encrypted, or not known
                                 * (armor whose packets did not decode,
                                 * a marker packet alone) */
  pl_sniff_tar tar;
  size_t n_key_packets;         /* in KEY_PACKETS */
  size_t key_packets_left_out;  /* more than PL_SNIFF_KEY_PACKETS_MAX */
  pl_sniff_key_packet key_packets[PL_SNIFF_KEY_PACKETS_MAX];
  /* PL_SNIFF_PUBLIC_KEY, PL_SNIFF_SECRET_KEY: the primary key packet's */
  int key_version;              /* 4, 5 or 6 */
  int key_algo;                 /* OpenPGP public-key algorithm id */
} pl_sniff_result;

/* Sniffs BUF, the first LEN octets of an input (BUF may be NULL when LEN
 * is 0; octets past PL_SNIFF_SIZE are not looked at).  TOTAL is the
 * input's whole size when known: a regular file's size, or LEN itself
 * when the input ended within the buffer, so that nothing more follows;
 * PL_SNIFF_SIZE_UNKNOWN when more may follow.  A known size sharpens the
 * judgement: a message's last (data) packet of definite length must end
 * exactly at TOTAL, and a key packet must not.
 *
 * Fills all of *RESULT, always (zero fields where nothing is known).
 * The kind is final for the input whatever follows the buffer; the
 * packet details are what the buffer holds. */
void pl_sniff (const uint8_t *buf, size_t len, int64_t total,
               pl_sniff_result *result);

/* 1 when NAME (a file name or path; NULL is none) ends in a suffix that
 * says OpenPGP: ".gpg", ".pgp" or ".asc", in any case; else 0.  Such a
 * file that pl_sniff does not find a message in is a decryption that
 * fails, not a file to encrypt again (issue 19 §9). */
int pl_sniff_name_says_openpgp (const char *name);

/* Which kinds of key packet SNIFFED (NULL: none) holds: *PKESK 1 when a
 * PKESK, *SKESK 1 when an SKESK, or when more key packets came than the
 * sniffer keeps (key_packets_left_out: one may be an SKESK). */
void pl_sniff_key_kinds (const pl_sniff_result *sniffed, int *pkesk,
                         int *skesk);
