/* key-builder.h - keys no generator would make, for the key-safety tests
 *
 * An RSA key of any size from libgcrypt, whose public exponent and
 * modulus a test may then spoil (e = 1 with d = 1, so that its
 * "signatures" are s = EM; an even e or n), or any public key body
 * given as octets (an ECDH point off its curve, a v6 subkey); and a
 * certificate or transferable secret key around them whose
 * self-signatures are made by the primary with sign.h, so that nothing
 * but the key itself is wrong.
 */
#pragma once

#include <glib.h>
#include <stdint.h>

#include "pubkey.h"
#include "seckey.h"

typedef struct
{
  GByteArray *body;             /* the public key packet's body */
  GByteArray *secret;           /* the secret part as a tag 5/7 packet
                                 * holds it in the clear; NULL: none */
  pl_pubkey pub;
  pl_seckey sk;                 /* for signing, when SECRET */
} kb_key;

/* How to spoil a new RSA key. */
enum
{
  KB_RSA_GOOD = 0,
  KB_RSA_E1,                    /* e = 1 and d = 1 */
  KB_RSA_E_EVEN,                /* e = 65538 */
  KB_RSA_N_EVEN                 /* n with its lowest bit cleared */
};

/* A v4 RSA key (algorithm 1) of BITS, made CREATED, spoiled as HOW. */
void kb_rsa (kb_key *k, unsigned int bits, int how, uint32_t created);

/* As kb_rsa, from the process's key number SLOT of BITS, generated at
 * its first use and the same after: for the tests that need a key, not
 * a new one (one RSA-2048 generation takes about 5 s under valgrind).
 * Each call makes its own kb_key, which HOW spoils alone; two slots are
 * two keys. */
void kb_rsa_shared (kb_key *k, unsigned int bits, unsigned int slot, int how,
                    uint32_t created);

/* A public key (no secret) of the packet body BODY (LEN octets). */
void kb_public (kb_key *k, const uint8_t *body, gsize len);

void kb_clear (kb_key *k);

/* A certificate (SECRET 0: tags 6, 14) or transferable secret key
 * (tags 5, 7): PRIMARY with the user ID "K <k@example.org>" certified
 * (0x13) with key flags PRIMARY_FLAGS, then SUB (may be NULL) bound (0x18)
 * with SUB_FLAGS, both signatures by PRIMARY made at CREATED. */
GBytes *kb_cert (kb_key *primary, uint8_t primary_flags, kb_key *sub,
                 uint8_t sub_flags, int secret, uint32_t created);
