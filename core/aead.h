/* aead.h - chunked AEAD encryption: SEIPD v2 (RFC 9580 §5.13.2) and the
 * LibrePGP OCB Encrypted Data packet (tag 20, LibrePGP §5.16)
 *
 * Push-style stages that stop at events, BearSSL-fashion: a push consumes
 * ciphertext (or plaintext) until a whole chunk is ready, then hands the
 * caller a pointer to that chunk's output inside the stage.  A decrypted
 * chunk is handed out only after its tag verified.
 */
#pragma once

#include <stddef.h>
#include <stdint.h>
#include <gcrypt.h>
#include <gpg-error.h>

typedef enum
{
  PL_AEAD_FORMAT_SEIPD2 = 0,    /* packet tag 18, version 2 */
  PL_AEAD_FORMAT_OCB_ENCRYPTED  /* OCB Encrypted Data, tag 20, v1 */
} pl_aead_format;

/* We read chunk octets 0..16; we write 16 (4 MiB chunks) by default. */
#define PL_AEAD_CHUNK_OCTET_MAX 16
#define PL_AEAD_CHUNK_OCTET_DEFAULT 16

typedef struct
{
  pl_aead_format format;
  int cipher_algo;              /* OpenPGP cipher id */
  int aead_algo;                /* PL_AEAD_EAX, _OCB, _GCM */
  int chunk_octet;              /* chunk size = 2^(chunk_octet + 6) */
  uint8_t salt[32];             /* SEIPD2 */
  uint8_t iv[16];               /* tag 20: the starting IV (nonce length) */
} pl_aead_header;

/* Parses the header at the start of the packet body (for SEIPD2 the
 * version octet 2 onward; for tag 20 the version octet 1 onward).  *USED
 * receives the header length.  Versions, algorithms and chunk octets we do
 * not read fail with GPG_ERR_UNKNOWN_VERSION / GPG_ERR_UNSUPPORTED_ALGORITHM
 * / GPG_ERR_INV_PACKET. */
gpg_error_t pl_aead_header_parse (pl_aead_header *h, pl_aead_format format,
                                  const uint8_t *p, size_t len, size_t *used);

/* Writes the header into OUT (at most 64 octets); returns its length. */
size_t pl_aead_header_write (const pl_aead_header *h, uint8_t *out);

typedef struct pl_aead_stream pl_aead_stream;

/* Sets up decryption (ENCRYPT = 0) or encryption (1) of one message.  For
 * SEIPD2 the message key and nonce come from HKDF over SESSION_KEY and the
 * header's salt; for tag 20 SESSION_KEY is the key and the header's IV the
 * nonce.  The stage allocates its chunk buffer once, here.  OUT, H and
 * SESSION_KEY are not NULL.  *OUT is set to NULL first: on failure
 * nothing is left to free (a header we do not read fails as in
 * pl_aead_header_parse; KEYLEN not the cipher's key length is
 * GPG_ERR_INV_KEYLEN). */
gpg_error_t pl_aead_stream_new (pl_aead_stream **out, const pl_aead_header *h,
                                const uint8_t *session_key, size_t keylen,
                                int encrypt);

/* Decryption: consumes ciphertext until a chunk and its tag are complete
 * and a final tag's worth more shows it was not the last, verifies the
 * chunk and sets *OUT / *OUTLEN to its plaintext.  The stage alternates two
 * buffers: what it hands out stays valid until the call after next.  When no
 * chunk is ready *OUTLEN is 0 and all input was consumed.  A tag that fails
 * is GPG_ERR_CHECKSUM.
 * Encryption: consumes plaintext until a chunk is full and hands out its
 * ciphertext and tag. */
gpg_error_t pl_aead_stream_push (pl_aead_stream *s, const uint8_t *in,
                                 size_t len, size_t *consumed,
                                 const uint8_t **out, size_t *outlen);

/* End of input.  Decryption: verifies the last chunk and the final tag
 * (GPG_ERR_CHECKSUM when wrong, GPG_ERR_TRUNCATED when missing) and hands
 * out the last chunk's plaintext.  Encryption: hands out the last chunk and
 * the final tag. */
gpg_error_t pl_aead_stream_finish (pl_aead_stream *s, const uint8_t **out,
                                   size_t *outlen);

/* Closes the cipher and wipes the key and the buffers (they held
 * plaintext) before freeing them.  S may be NULL. */
void pl_aead_stream_free (pl_aead_stream *s);

/* ---- Chunk by chunk, on several threads ----------------------------
 *
 * AEAD chunks are independent: with these calls a job may seal or open
 * chunk k on any thread, given the whole chunk.  They use only S's
 * read-only setup (key, nonce base, associated data), never its buffers
 * or position, so they may run concurrently with each other, as long as
 * each thread has its own handle; they must not run concurrently with
 * push, finish or free on the same S.  Encryption or decryption is S's
 * (the ENCRYPT of pl_aead_stream_new).  A caller that opens chunks this
 * way must itself hold back each chunk's plaintext until its call
 * returned 0, and the message's until the final tag verified. */

/* Opens a cipher handle (GCRY_CIPHER_SECURE) keyed with S's message key,
 * which S keeps in secure memory.  One handle per thread, never shared;
 * the caller closes it with gcry_cipher_close before freeing S. */
gpg_error_t pl_aead_stream_open_handle (const pl_aead_stream *s,
                                        gcry_cipher_hd_t *hd);

/* The chunk size, 2^(chunk octet + 6). */
size_t pl_aead_stream_chunk_size (const pl_aead_stream *s);

/* 1 when S encrypts (the ENCRYPT of pl_aead_stream_new), 0 when it
 * decrypts. */
int pl_aead_stream_encrypting (const pl_aead_stream *s);

/* Seals (encryption) or opens (decryption) chunk INDEX: LEN octets
 * (at most the chunk size; only the last chunk may be shorter) from IN
 * to OUT, which may be the same buffer (IN NULL: in place at OUT).
 * Encryption writes the 16-octet tag to TAG_OUT; decryption checks
 * TAG_IN in constant time: GPG_ERR_CHECKSUM when wrong, and then OUT
 * holds unverified plaintext that the caller must wipe, not hand out. */
gpg_error_t pl_aead_chunk_crypt (const pl_aead_stream *s,
                                 gcry_cipher_hd_t hd, uint64_t index,
                                 uint8_t *out, const uint8_t *in, size_t len,
                                 const uint8_t *tag_in, uint8_t *tag_out);

/* The final tag, after INDEX chunks carrying TOTAL plaintext octets:
 * written to TAG_OUT (encryption) or checked against TAG_IN
 * (decryption, GPG_ERR_CHECKSUM when wrong). */
gpg_error_t pl_aead_final_tag (const pl_aead_stream *s, gcry_cipher_hd_t hd,
                               uint64_t index, uint64_t total,
                               const uint8_t *tag_in, uint8_t *tag_out);
