/* checksums.h - checksum lists: SHA256SUMS, sha256sum.txt, FILE.sha256
 *
 * A list names files and gives each one's hash; whoever checks it hashes
 * the files beside it and compares.  This unit reads a list (hostile
 * input: anyone can write one, and a signed one is only as good as the
 * signer's care) into entries; app/jobs/padlock-checksums.h hashes the
 * files.  Neither judges a signature: the caller checks the list's
 * (a detached .gpg/.sign/.asc over the list's octets, verify.h; or a
 * cleartext-signed list, clearsign.h, whose verified text is parsed
 * here as any list is) before it believes a single entry.
 *
 * The lines, as GNU coreutils' sha256sum -c and BSD's read them:
 *
 *   HEX  NAME          GNU, text mode (two spaces)
 *   HEX *NAME          GNU, binary mode (on POSIX both hash alike)
 *   HEX NAME           GNU "reversed" (BSD's sha256 -r): one space.  As
 *                      coreutils, the first GNU line of a list fixes the
 *                      form: once a list has had "HEX  NAME" or
 *                      "HEX *NAME", a one-space line is malformed; once
 *                      it has had a one-space line, " " and "*" after it
 *                      belong to the name.
 *   TAG (NAME) = HEX   BSD (sha256sum --tag, Fedora's CHECKSUM files);
 *   TAG(NAME)= HEX     OpenSSL's (openssl dgst).  TAG is MD5, SHA1,
 *                      SHA224, SHA256, SHA384, SHA512 or SHA2-224 ...
 *                      SHA2-512 (any case).  NAME ends at the last ')'
 *                      before the digest, so a name may hold ") = ".
 *   \...               either form, its name escaped (coreutils writes
 *                      this for a name with '\\', LF or CR): "\\\\" is
 *                      '\\', "\\n" LF, "\\r" CR; any other escape makes
 *                      the line malformed.  Without the leading '\\' a
 *                      name's backslashes are its own.
 *   HEX                alone, in a list named NAME.sha256 (.md5, .sha1,
 *                      .sha224, .sha384, .sha512): the hash of NAME.
 *
 * Leading spaces and tabs are skipped; a line that is then empty, or
 * starts with '#', is not an entry (Fedora's "# NAME: 123 bytes").  A
 * line ends at LF, a CR before it belonging to the ending (CR LF lists
 * read as LF ones); a name's other spaces are its own.  Hex digits are
 * of either case.
 *
 * The hash: a BSD tag says it.  Else the list's name does, when it
 * names one (pl_checksums_list_algo: SHA256SUMS, sha512sum.txt,
 * debian.iso.sha256), and a line whose digest is of another length is
 * malformed.  Else the digest's length: 32 hex digits MD5, 40 SHA-1, 56
 * SHA-224, 64 SHA-256, 96 SHA-384, 128 SHA-512 (each such sum is marked
 * PL_CHECKSUM_BY_LENGTH: SHA3-256 and BLAKE2s have SHA-256's length, and
 * a "does not match" of such a list may be a wrong guess).  A list whose
 * name names a hash Padlock does not check (B2SUMS, SHA3-256SUMS) has
 * its GNU lines counted unsupported, not guessed; so has a BSD line with
 * another tag (BLAKE2b, SHA3-256).  MD5 and SHA-1 are read, and
 * pl_checksums_algo_weak says so: anyone who made both files could have
 * made two with one MD5 or SHA-1 (collisions), so a match by them alone
 * must be shown as weak, never as a plain "matches".
 *
 * Names are relative to the list's folder, and refused (counted unsafe,
 * never an entry) when they could reach out of it or lie on a screen:
 * an absolute name (first octet '/'), a ".." component, an octet below
 * 0x20 or 0x7F (C0 controls, DEL: a name with LF or ESC; so an escaped
 * "\\n" parses, then is refused), a name of no component but "." (the
 * folder itself), and a name over PL_CHECKSUMS_MAX_NAME octets.  A name
 * is stored normalized: "." and empty components dropped ("./a//b" is
 * "a/b"), so "dir/file" is a file in a subfolder of the list's folder.
 * Other octets (UTF-8 or not, bidi controls) are kept: whoever shows a
 * name escapes it (text.h), and a name can only find a file by them.
 * Symbolic links in the folder are the folder owner's, not the list's;
 * the checker follows them as sha256sum does.
 *
 * One name listed twice: by the same hash with the same digest, the
 * second line is a duplicate (counted, dropped); with another digest,
 * the entry is PL_CHECKSUMS_CONFLICT (no file matches both: the checker
 * reports it as differing) and the first digest is kept.  By different
 * hashes, the entry has each (the checker hashes the file once with all
 * of them; it matches when every one does).
 *
 * Bounds, so that a hostile list costs little: at most
 * PL_CHECKSUMS_MAX_LIST octets (the caller reads no more: pl_clearsign_read
 * (src, PL_CHECKSUMS_MAX_LIST, ...) does), which bounds the lines; at
 * most PL_CHECKSUMS_MAX_ENTRIES lines with a digest (refused past it);
 * names of at most PL_CHECKSUMS_MAX_NAME octets.  Time is linear in the
 * octets, plus a sort of the entries (n log n).  Memory: the names, and
 * about 100 octets an entry (10 MiB at the most entries).
 *
 * A malformed line (none of the forms above), an unsafe name or an
 * unsupported hash is counted, with the first such line's number, and
 * the rest of the list read: a list is refused only when nothing in it
 * is an entry.
 *
 * Writing one (pl_checksums_new_for_files, pl_checksums_format): the
 * lines sha256sum writes, "HEX  NAME" (text mode, lower-case hex), a
 * name with '\\' escaped as coreutils escapes it ("\\HEX  a\\\\b"); only
 * names this parser takes as they are, so that whatever is written
 * reads back to the same entries, here and in sha256sum -c.
 */
#pragma once

#include <stddef.h>
#include <stdint.h>
#include <gpg-error.h>

#define PL_CHECKSUMS_MAX_LIST ((size_t) 16 << 20)
#define PL_CHECKSUMS_MAX_ENTRIES 100000
#define PL_CHECKSUMS_MAX_NAME 4095      /* octets: PATH_MAX less the NUL */
#define PL_CHECKSUMS_MAX_DIGEST 64      /* octets: SHA-512's */

/* How a sum's hash was known (above). */
typedef enum
{
  PL_CHECKSUM_BY_TAG = 1,       /* the line's BSD tag */
  PL_CHECKSUM_BY_LIST_NAME,     /* the list's name (SHA256SUMS) */
  PL_CHECKSUM_BY_LENGTH         /* the digest's length alone: a guess */
} pl_checksum_how;

typedef struct
{
  int algo;                     /* PL_HASH_MD5, _SHA1, _SHA224, _SHA256,
                                 * _SHA384 or _SHA512 (algo.h) */
  pl_checksum_how how;
  size_t len;                   /* octets of VALUE: the hash's size */
  uint8_t value[PL_CHECKSUMS_MAX_DIGEST];
} pl_checksum;

enum
{
  /* Listed again by the same hash with another digest. */
  PL_CHECKSUMS_CONFLICT = 1 << 0
};

typedef struct
{
  char *name;                   /* normalized, relative, NUL-terminated */
  size_t line;                  /* of its first line, from 1 */
  unsigned flags;               /* PL_CHECKSUMS_CONFLICT */
  size_t n_sums;                /* 1 or more, one a hash */
  const pl_checksum *sums;      /* in the list's array */
} pl_checksums_entry;

typedef struct
{
  pl_checksums_entry *entries;  /* in the order of their first lines */
  size_t n_entries;
  pl_checksum *sums;            /* the entries' sums */
  size_t n_sums;
  int list_algo;                /* pl_checksums_list_algo of its name */
  size_t n_lines;               /* every line, blank and comments too */
  size_t n_malformed, n_unsafe, n_unsupported, n_duplicates;
  /* The first line of each kind (from 1), 0 when none. */
  size_t first_malformed, first_unsafe, first_unsupported;
} pl_checksums;

/* Reads the list of LEN octets at BUF, named LIST_NAME (its base name or
 * a path; NULL when it has none: the hash then comes from each line),
 * into *OUT (overwritten; pl_checksums_clear it whatever is returned).
 * Errors: LEN over PL_CHECKSUMS_MAX_LIST, GPG_ERR_TOO_LARGE; more lines
 * with a digest than PL_CHECKSUMS_MAX_ENTRIES, GPG_ERR_TOO_MANY; a line
 * that begins a cleartext-signed message, GPG_ERR_UNEXPECTED_MSG (verify
 * it with clearsign.h and parse its text: what lies around a cleartext
 * message is not signed, and must never pass for a signed list); no
 * entry at all, GPG_ERR_NO_DATA (the counts are filled, to say why);
 * GPG_ERR_ENOMEM.  On an error *OUT holds no entry. */
gpg_error_t pl_checksums_parse (const uint8_t *buf, size_t len,
                                const char *list_name, pl_checksums *out);

/* Frees what *LIST holds and empties it; safe on an empty one. */
void pl_checksums_clear (pl_checksums *list);

/* The hash LIST_NAME's base name names, case aside: the first of "md5",
 * "sha1", "sha224", "sha256", "sha384", "sha512" (or "sha2-256" ...,
 * "sha-256", "sha_256") found in it, as a PL_HASH_* id; -1 when it first
 * names one Padlock does not check ("sha3", "b2sum", "blake", "sm3");
 * 0 when it names none (CHECKSUMS, sums.txt). */
int pl_checksums_list_algo (const char *list_name);

/* 1 when NAME's base name says checksum list: it holds "checksum"
 * (CHECKSUM, Fedora-...-CHECKSUM, checksums.txt), or names a hash
 * (pl_checksums_list_algo not 0) and holds "sum" (SHA256SUMS,
 * sha256sum.txt, B2SUMS) or ends in ".md5", ".sha1", ".sha224",
 * ".sha256", ".sha384" or ".sha512"; else 0.  Not a proof: the caller
 * parses it. */
int pl_checksums_name_is_list (const char *name);

/* The hash's word in lower case ("sha256", as the list names and batch
 * lines say), or NULL for another id. */
const char *pl_checksums_algo_word (int algo);

/* 1 for MD5 and SHA-1 (collisions can be made: above), else 0. */
int pl_checksums_algo_weak (int algo);

/* Makes *OUT (overwritten; pl_checksums_clear it whatever is returned)
 * a list to be filled in: an entry for each of the N NAMES (files in
 * the list's folder, relative to it), sorted by their octets, a name
 * given twice listed once; each entry with one sum of ALGO (how:
 * PL_CHECKSUM_BY_LIST_NAME), its value zero until the caller writes the
 * digest into OUT->sums[i], entry i's.  Errors: GPG_ERR_INV_NAME for a
 * name the parser would refuse or change (an octet below 0x20 or 0x7F,
 * absolute, a "." or ".." component, an empty one, over
 * PL_CHECKSUMS_MAX_NAME octets), *BAD (may be NULL) the index in NAMES
 * of the first such; GPG_ERR_TOO_MANY past PL_CHECKSUMS_MAX_ENTRIES;
 * GPG_ERR_DIGEST_ALGO for an ALGO it does not list; GPG_ERR_NO_DATA for
 * no name; GPG_ERR_ENOMEM. */
gpg_error_t pl_checksums_new_for_files (const char *const *names, size_t n,
                                        int algo, pl_checksums *out,
                                        size_t *bad);

/* LIST's text as sha256sum writes it: a line a sum, in the entries'
 * order, "HEX  NAME\n" (a name with '\\': "\\HEX  NAME\n", each '\\'
 * doubled), into a new buffer *OUT (malloc'd, the caller frees it) of
 * *LEN octets.  pl_checksums_parse of it, under a list name that names
 * the hash (SHA256SUMS) or none, gives LIST's entries and digests back.
 * Errors: GPG_ERR_INV_NAME for a name the parser would not read back
 * (as pl_checksums_new_for_files refuses), GPG_ERR_TOO_LARGE past
 * PL_CHECKSUMS_MAX_LIST octets, GPG_ERR_ENOMEM; *OUT NULL then. */
gpg_error_t pl_checksums_format (const pl_checksums *list, char **out,
                                 size_t *len);
