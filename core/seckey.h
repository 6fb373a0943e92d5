/* seckey.h - the secret part of secret-key packets (RFC 9580 §5.5.3)
 *
 * cert.h keeps each key's secret part as stored; this file unlocks it:
 * S2K usage 0 (in the clear), 254 (CFB, SHA-1 check), 255 (CFB, 2-octet
 * checksum; v4 only) and 253 (AEAD, keyed through HKDF-SHA256), with
 * iterated+salted or Argon2 S2K (s2k.h, under the caller's Argon2 cap).
 * The cleartext fields live in libgcrypt secure memory and are wiped by
 * pl_seckey_clear.
 */
#pragma once

#include <stdatomic.h>
#include <stddef.h>
#include <stdint.h>
#include <gcrypt.h>
#include <gpg-error.h>

#include "cert.h"

/* A signature made where the secret key is held (gpg-agent, a card):
 * PUB's signature over DIGEST (DIGEST_LEN octets, made with the
 * libgcrypt hash GCRY_MD_ALGO), into *SIG as libgcrypt and gpg-agent
 * write it: "(sig-val (rsa (s S)))", "(sig-val (ecdsa (r R) (s S)))" or
 * "(sig-val (eddsa (r R) (s S)))" (the caller releases it).  Called from
 * the job's thread; an error (GPG_ERR_CANCELED: the user said no) ends
 * the job. */
typedef gpg_error_t (*pl_sign_fn) (void *user_data, const pl_pubkey *pub,
                                   int gcry_md_algo, const uint8_t *digest,
                                   size_t digest_len, gcry_sexp_t *sig);

typedef struct
{
  const pl_pubkey *pub;         /* borrowed from the certificate */
  /* Not NULL: the key is held elsewhere and SIGN makes its signatures;
   * then no secret field is here (MEM NULL). */
  pl_sign_fn sign;
  void *sign_data;
  uint8_t *mem;                 /* secure: the cleartext secret fields */
  size_t mem_len;
  pl_field field[4];            /* RSA d, p, q, u; EC d (MPI); X25519:
                                 * the 32 native octets */
  int n_fields;
} pl_seckey;

/* 1 when KEY has a secret part that needs a passphrase (usage not 0);
 * 0 when it is in the clear; -1 when it has none, or one we cannot use
 * (a GnuPG stub on a smartcard, S2K 101; an unknown usage). */
int pl_seckey_protection (const pl_cert_key *key);

/* Unlocks the secret part of KEY (of a packet of TAG, 5 or 7, which
 * AEAD protection binds) with PASSPHRASE (ignored when in the clear)
 * into *OUT.  A wrong passphrase (a failed check, checksum or AEAD tag)
 * is GPG_ERR_BAD_PASSPHRASE; Argon2 memory over ARGON2_CAP_KIB (0: the
 * default) GPG_ERR_TOO_LARGE; CANCEL set GPG_ERR_CANCELED; no usable
 * secret part GPG_ERR_NO_SECKEY; malformed GPG_ERR_INV_PACKET. */
gpg_error_t pl_seckey_unlock (const pl_cert_key *key, int tag,
                              const char *passphrase, size_t passphrase_len,
                              uint32_t argon2_cap_kib,
                              const atomic_int *cancel, pl_seckey *out);

/* An MPI (secure) of FIELD. */
gpg_error_t pl_seckey_mpi (const pl_seckey *sk, int field, gcry_mpi_t *out);

/* The secret part of a new key packet of TAG for PUB: the cleartext
 * secret FIELDS (LEN octets, as they are written: MPIs or native), in
 * the clear (PASSPHRASE NULL; v4 with its checksum) or protected with
 * PASSPHRASE (v4: S2K usage 254, AES-256, iterated SHA-256 at the
 * steady count; v6: usage 253, AES-256 OCB, Argon2 t=3 p=4 m=2^16 KiB),
 * into OUT (LEN + 128 octets); *OUT_LEN its length. */
gpg_error_t pl_seckey_seal (const pl_pubkey *pub, int tag,
                            const uint8_t *fields, size_t len,
                            const char *passphrase, size_t passphrase_len,
                            uint8_t *out, size_t *out_len);

/* Wipes and frees; a cleared struct is fine. */
void pl_seckey_clear (pl_seckey *sk);
