/* packet.h - OpenPGP packet framing (RFC 9580 §4.2)
 *
 * Reading: a pl_reader hands out blocks it owns (no copy), a pl_cursor
 * sits on the current block so that a parser can take header octets
 * exactly and body octets by the block.  pl_packet_body is itself a reader:
 * the body of one packet, with partial body lengths undone.
 *
 * Writing: helpers that write old/new headers and partial lengths.
 */
#pragma once

#include <stddef.h>
#include <stdint.h>
#include <gpg-error.h>

enum
{
  PL_PKT_PKESK = 1,
  PL_PKT_SIGNATURE = 2,
  PL_PKT_SKESK = 3,
  PL_PKT_ONEPASS_SIG = 4,
  PL_PKT_SECRET_KEY = 5,
  PL_PKT_PUBLIC_KEY = 6,
  PL_PKT_COMPRESSED = 8,
  PL_PKT_SED = 9,
  PL_PKT_MARKER = 10,
  PL_PKT_LITERAL = 11,
  PL_PKT_SEIPD = 18,
  PL_PKT_MDC = 19,
  PL_PKT_OCB_ENCRYPTED = 20,
  PL_PKT_PADDING = 21
};

typedef struct pl_reader pl_reader;
struct pl_reader
{
  /* Hands out the next block: *DATA points into storage the reader owns
   * and stays valid, and writable, until the next call.  *LEN 0 is the
   * end. */
  gpg_error_t (*next) (pl_reader *self, uint8_t **data, size_t *len);
};

typedef struct
{
  pl_reader *reader;
  uint8_t *p;                   /* unread part of the current block */
  size_t n;
  int eof;
} pl_cursor;

void pl_cursor_init (pl_cursor *c, pl_reader *reader);

/* A reader over N octets in memory at P (which it hands out, writable,
 * in one block). */
typedef struct
{
  pl_reader base;
  uint8_t *p;
  size_t n;
  int done;
} pl_mem_reader;

void pl_mem_reader_init (pl_mem_reader *m, uint8_t *p, size_t n);

/* Copies exactly N octets, across blocks.  GPG_ERR_TRUNCATED when the
 * input ends first; GPG_ERR_EOF when it ends before the first octet. */
gpg_error_t pl_cursor_read (pl_cursor *c, uint8_t *dst, size_t n);

/* For a pl_cursor_read that needed its octets: the end of input is a
 * truncation; any other error (a read error, a cancel) stays as it is. */
static inline gpg_error_t
pl_cursor_truncated (gpg_error_t err)
{
  return gpg_err_code (err) == GPG_ERR_EOF ? gpg_error (GPG_ERR_TRUNCATED)
                                           : err;
}

/* Points *P at up to MAX octets of the current block (fetching one when
 * empty) and consumes them.  *N 0 is the end. */
gpg_error_t pl_cursor_take (pl_cursor *c, size_t max, uint8_t **p, size_t *n);

/* Peeks at up to MAX octets without consuming them, fetching a block when
 * the cursor is empty.  Only what the current block holds is shown. */
gpg_error_t pl_cursor_peek (pl_cursor *c, uint8_t **p, size_t *n);

/* Partial lengths can be as short as one octet after the first 512.
 * Handing such chunks out one by one would cost every stage downstream a
 * call (and the sink a write(2)) per chunk: chunks shorter than this are
 * copied together into blocks of up to this size instead.  It stays
 * below the size at which decrypt.c hands a block to its writer thread,
 * so a coalesced block is never read after the next call. */
#define PL_PACKET_COALESCE (16u * 1024)

typedef struct
{
  pl_reader base;
  pl_cursor *in;
  int tag;
  uint64_t remaining;           /* octets left in the current length */
  int partial;                  /* more lengths follow the current one */
  int until_eof;                /* old format, indeterminate length */
  uint64_t total;               /* octets handed out so far */
  /* Last, so that pl_packet_begin need not clear it. */
  uint8_t coalesced[PL_PACKET_COALESCE];
} pl_packet_body;

/* Reads a packet header.  GPG_ERR_EOF at a clean end of input; a header
 * that is not one (bit 7 clear, reserved tag 0) is GPG_ERR_INV_PACKET. */
gpg_error_t pl_packet_begin (pl_cursor *in, pl_packet_body *body);

/* Reads a whole body of at most MAX octets into BUF: for packets whose
 * format bounds their size (SKESK), so a bigger body, or one of partial
 * or indeterminate length, is malformed: GPG_ERR_BAD_DATA, checked
 * before any copy. */
gpg_error_t pl_packet_read_all (pl_packet_body *body, uint8_t *buf,
                                size_t max, size_t *len);

/* RFC 9580 §4.3: packets a reader skips wherever they appear: Marker,
 * Padding, and the unassigned non-critical tags 40 to 63. */
static inline int
pl_packet_skippable (int tag)
{
  return tag == PL_PKT_MARKER || tag == PL_PKT_PADDING
         || (tag >= 40 && tag <= 63);
}

/* Reads and drops the rest of the body. */
gpg_error_t pl_packet_skip (pl_packet_body *body);

/* Writes a new-format header with a definite length; returns its size
 * (at most 6). */
size_t pl_packet_write_header (uint8_t *out, int tag, uint64_t len);

/* Writes a new-format header whose first length is partial: 2^EXP octets
 * (9 <= EXP <= 30); returns 2. */
size_t pl_packet_write_partial_header (uint8_t *out, int tag, int exp);

/* A partial length octet for 2^EXP. */
static inline uint8_t
pl_packet_partial_octet (int exp)
{
  return (uint8_t) (0xE0 | exp);
}

/* A definite new-format length, no tag; returns its size (1, 2 or 5). */
size_t pl_packet_write_length (uint8_t *out, uint64_t len);
