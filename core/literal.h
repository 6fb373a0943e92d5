/* literal.h - Literal Data packets (RFC 9580 §5.9) */
#pragma once

#include <stddef.h>
#include <stdint.h>
#include <gpg-error.h>

/* The header a literal packet carries before its data. */
typedef struct
{
  int format;                   /* 'b', 't', 'u' or 'm' */
  char name[256];               /* as stored; may hold any octets */
  size_t name_len;
  uint32_t date;                /* seconds since 1970, 0 if unset */
} pl_literal_header;

#define PL_LITERAL_HEADER_MAX (1 + 1 + 255 + 4)

/* Parses the header from the start of a body; *USED its length.  An
 * unknown format octet is GPG_ERR_INV_PACKET; too short, GPG_ERR_TRUNCATED. */
gpg_error_t pl_literal_parse (pl_literal_header *h, const uint8_t *p,
                              size_t len, size_t *used);

/* Writes the header (names longer than 255 octets are cut); returns its
 * length. */
size_t pl_literal_write (const pl_literal_header *h, uint8_t *out);

/* Sets NAME to the last path component of PATH ("" for NULL). */
void pl_literal_set_name (pl_literal_header *h, const char *path);
