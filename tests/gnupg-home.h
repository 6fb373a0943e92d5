/* gnupg-home.h - a GnuPG home of a test's own, with a real gpg-agent
 *
 * Each home is a fresh folder under /tmp (short, for the agent's socket
 * path), with a gpg-agent.conf whose pinentry-program is the test
 * pinentry (tests/test-pinentry.sh), told what to answer through
 * tg_home_set_pinentry.  tg_home_free kills the home's daemons
 * (`gpgconf --kill all`) and removes it; so does a failed assertion, so
 * that no agent outlives the suite.
 */
#pragma once

#include <glib.h>

typedef struct
{
  char *dir;
} TgHome;

TgHome *tg_home_new          (void);
void    tg_home_free         (TgHome     *home);
/* Kills the home's daemons and removes its folder, which the test may
 * make again (a user who has never run gpg). */
void    tg_home_remove       (TgHome     *home);
G_DEFINE_AUTOPTR_CLEANUP_FUNC (TgHome, tg_home_free)

/* Runs gpg --homedir HOME --batch …, with PASSPHRASE through loopback
 * pinentry when not NULL, then the arguments up to NULL, IN on stdin;
 * stdout in *OUT when not NULL.  Returns the exit status. */
int     tg_gpg               (TgHome     *home,
                              const char *passphrase,
                              GBytes     *in,
                              GBytes    **out,
                              ...) G_GNUC_NULL_TERMINATED;
/* gpg --quick-gen-key UID ALGO USAGE EXPIRE, protected by PASSPHRASE
 * ("" for none), at FAKED_TIME (gpg's --faked-system-time) when not
 * NULL; returns the new key's fingerprint. */
char   *tg_gen_key           (TgHome     *home,
                              const char *uid,
                              const char *algo,
                              const char *usage,
                              const char *expire,
                              const char *passphrase,
                              const char *faked_time);
/* The RECORD lines ("pub", "sub", "uid", "sec"…) of `gpg --with-colons
 * COMMAND PATTERN` in HOME, each split in its fields. */
GPtrArray *tg_colon_records (TgHome     *home,
                             const char *command,
                             const char *pattern,
                             const char *record);
/* A primary that certifies and signs, of PRIMARY_ALGO, with an
 * encryption subkey of SUB_ALGO, unprotected, both expiring as EXPIRE
 * (at FAKED_TIME when not NULL); the primary's fingerprint. */
char   *tg_gen_encryption_key (TgHome    *home,
                              const char *uid,
                              const char *primary_algo,
                              const char *sub_algo,
                              const char *expire,
                              const char *faked_time);
/* HOME's gpg decrypts the file PATH (PASSPHRASE through loopback when
 * not NULL, else with HOME's secret keys); the plaintext, or NULL when
 * gpg failed. */
GBytes *tg_gpg_decrypt_file  (TgHome     *home,
                              const char *path,
                              const char *passphrase);
/* gpg --quick-add-key FPR ALGO USAGE EXPIRE, likewise. */
void    tg_add_key           (TgHome     *home,
                              const char *fpr,
                              const char *algo,
                              const char *usage,
                              const char *expire,
                              const char *passphrase,
                              const char *faked_time);
/* Imports into TO the certificate of WHAT (a fingerprint or user ID)
 * as FROM exports it. */
void    tg_import_cert       (TgHome     *to,
                              TgHome     *from,
                              const char *what);
/* Issue 32's two-faced key: in OWNER, an Ed25519 key with a Curve25519
 * encryption subkey whose primary user ID is CLAIMED ("Alice <alice@…>")
 * and which also has REAL ("Mallory <mallory@…>"); its certificate is
 * imported into USER, whose own key certifies REAL only (gpg
 * --quick-lsign-key FPR REAL), so that there REAL is of full validity
 * and CLAIMED of none.  The key's fingerprint. */
char   *tg_two_faced_key     (TgHome     *owner,
                              TgHome     *user,
                              const char *claimed,
                              const char *real);
/* Revokes FPR with the revocation certificate gpg made for it. */
void    tg_revoke            (TgHome     *home,
                              const char *fpr);
/* The keygrips of FPR's subkeys, in gpg's order. */
GStrv   tg_keygrips          (TgHome     *home,
                              const char *fpr);
/* What the test pinentry answers from now on: a passphrase, "cancel",
 * "hang" (until tg_home_release_pinentry), or NULL (cancel). */
void    tg_home_set_pinentry (TgHome     *home,
                              const char *answer);
void    tg_home_release_pinentry (TgHome *home);
/* How many times pinentry was asked for a PIN so far. */
guint   tg_home_pinentry_count (TgHome   *home);
/* gpgconf --homedir HOME COMMAND COMPONENT ("--kill", "gpg-agent";
 * "--reload", "gpg-agent" forgets the cached passphrases), which must
 * succeed.  A kill of the agent returns once its socket is gone (the
 * agent has exited), so that a test may check that it is not running. */
void    tg_gpgconf           (TgHome     *home,
                              const char *command,
                              const char *component);
/* SIGNER's `gpg -s -z 0` of TEXT (stored as NAME) with one octet of its
 * signature's last MPI flipped, encrypted with PASSPHRASE (SKESK v4,
 * SEIPD v1) around those very packets, as gpg would never write them
 * (it would wrap them as data): the encryption holds, the signature
 * does not. */
GBytes *tg_bad_signature_message (TgHome     *home,
                                  const char *signer,
                                  const char *name,
                                  const char *text,
                                  const char *passphrase);
/* SIGNER's `gpg --clearsign` of TEXT (a string); with FROM not NULL,
 * its first occurrence in the signed text replaced by TO (as long) after
 * signing: a word changed, the signature left as it was. */
char   *tg_clearsign         (TgHome     *home,
                              const char *signer,
                              const char *text,
                              const char *from,
                              const char *to);
/* DIR/NAME.gpg holding TEXT (storing NAME), made by the home's gpg:
 * encrypted to R1 and R2 when not NULL (a fingerprint; "FPR!" for that
 * subkey), and with PASSPHRASE too when not NULL; its path. */
char   *tg_encrypt_file      (TgHome     *home,
                              const char *dir,
                              const char *name,
                              const char *text,
                              const char *passphrase,
                              const char *r1,
                              const char *r2);
/* The path of NAME in the home (a new string). */
char   *tg_home_path         (TgHome     *home,
                              const char *name);
