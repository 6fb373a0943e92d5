/* packet-builder.h - hostile OpenPGP messages, built by hand for tests
 *
 * Everything here writes raw packets into a GByteArray, independent of
 * the engine's writer, so that a test can build what no encoder would:
 * cost bombs, one-octet partial lengths, decompression bombs, unknown
 * packets.  The SEIPD v1 packet is encrypted here, with libgcrypt
 * directly.
 */
#pragma once

#include <glib.h>
#include <stdint.h>

/* A new-format packet with a definite length. */
void pb_packet (GByteArray *out, int tag, const void *body, gsize len);

/* A new-format packet whose body is sent in partial lengths of
 * 2^CHUNK_EXP octets (0 <= CHUNK_EXP <= 30), the rest definite; the
 * first partial length is 512 when CHUNK_EXP is smaller (RFC 9580
 * §4.2.1.4). */
void pb_packet_partial (GByteArray *out, int tag, const void *body,
                        gsize len, int chunk_exp);

/* An old-format packet of indeterminate length (length type 3). */
void pb_packet_indeterminate (GByteArray *out, int tag, const void *body,
                              gsize len);

/* A literal data packet body ('b', no name, date 0) around DATA. */
GByteArray *pb_literal_body (const void *data, gsize len);

/* A compressed data packet body: ALGO 1 (ZIP), 2 (ZLIB) or 3 (BZip2). */
GByteArray *pb_compressed_body (int algo, const void *data, gsize len);

/* A SKESK v4 for AES-256 whose iterated S2K (SHA-256, count 1024, random
 * salt) output is the session key; KEY receives it (32 octets). */
void pb_skesk_v4 (GByteArray *out, const char *passphrase, uint8_t *key);

/* A SKESK v4 with a given coded iterated count, or with Argon2 (T, P,
 * M_EXP): bodies that parse but whose key is garbage.  SALT_SEED fixes
 * the salt, so that identical specifiers can be built. */
void pb_skesk_v4_count (GByteArray *out, uint8_t coded_count, int salt_seed);
void pb_skesk_v4_argon2 (GByteArray *out, uint8_t t, uint8_t p,
                         uint8_t m_exp, int salt_seed);

/* A SEIPD v1 packet under KEY (AES-256) around INNER, the plaintext
 * packets; CHUNK_EXP < 0 for a definite length, else partial lengths of
 * 2^CHUNK_EXP. */
void pb_seipd1 (GByteArray *out, const uint8_t *key, const void *inner,
                gsize len, int chunk_exp);

/* A whole message: SKESK v4 for PASSPHRASE, SEIPD v1 around INNER. */
GByteArray *pb_message (const char *passphrase, const void *inner, gsize len,
                        int chunk_exp);
