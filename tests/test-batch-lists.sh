#!/bin/sh
# test-batch-lists.sh - `padlock --batch` and checksum lists (issue 34 §3,
# §5): a SHA256SUMS made by the real sha256sum over six images, signed by
# the real gpg (--detach-sign, binary and armored, and --clearsign), in a
# folder holding three of them, one altered.  The list's signature is
# checked first, then each present file; the absent ones are counted.
# Each line, the summary and the exit status; a list changed by one octet
# after it was signed (bad: no file checked); an unsigned list; a signer
# not in the keyring.  Nothing is encrypted, no passphrase is asked.
# TAP.  Needs PADLOCK_APP (build/app/padlock).
set -u

APP=${PADLOCK_APP:?}
WORK=$(mktemp -d "${TMPDIR:-/tmp}/padlock-batch-lists-XXXXXX")
trap 'gpgconf --homedir "$WORK/gnupg" --kill all >/dev/null 2>&1; gpgconf --homedir "$WORK/other" --kill all >/dev/null 2>&1; rm -rf "$WORK"' EXIT
trap 'exit 143' TERM INT HUP
export GNUPGHOME="$WORK/gnupg"
mkdir -m 700 "$GNUPGHOME" "$WORK/other"
echo "${PADLOCK_BUILD_DIR:-}" > "$GNUPGHOME/padlock-test-build"  # tests/agents-left.sh
echo "${PADLOCK_BUILD_DIR:-}" > "$WORK/other/padlock-test-build"
. "$(dirname "$0")/tap.sh"

cd "$WORK" || exit 1

G="gpg --batch --no-tty --quiet --pinentry-mode loopback --passphrase="
$G --quick-gen-key 'Alice <alice@example.org>' ed25519 cert,sign never \
   2>/dev/null
ALICE=$(gpg --with-colons --list-secret-keys 2>/dev/null | awk -F: '/^fpr/ {print $10; exit}')
ALICE_UID='"Alice\x20<alice@example.org>"'
GOOD="signature good $ALICE $ALICE_UID"

# Six images listed, by sha256sum (text mode: "HEX  NAME"); three kept,
# one of them changed by one octet after the list was made.  The first
# is a few MiB: more than one block of the checker, so progress runs.
mkdir dl
(
  cd dl || exit 1
  head -c 3000000 /dev/urandom > debian-12.iso
  for n in 1 2 3 4 5; do head -c $((1000 * n)) /dev/urandom > "img-$n.iso"; done
  sha256sum debian-12.iso img-1.iso img-2.iso img-3.iso img-4.iso img-5.iso > SHA256SUMS
  rm img-3.iso img-4.iso img-5.iso
  printf 'X' | dd of=img-2.iso bs=1 seek=77 conv=notrunc 2>/dev/null
)
# The same folder's files with a list of the intact ones only.
mkdir good
cp dl/debian-12.iso dl/img-1.iso good/
grep -v 'img-2.iso' dl/SHA256SUMS > good/SHA256SUMS

sign () { # LIST [gpg options]: LIST.gpg, or what the options say
  list=$1; shift
  $G -u "$ALICE" --detach-sign "$@" "$list"
}

run () { # ARGS...: stdout, stderr, status
  "$APP" --batch "$@" > stdout 2> stderr
  status=$?
}
file_line () { # LIST FILE WORD
  printf 'checked %s -> %s sha256 %s\n' "$1" "$2" "$3"
}
# What an encryption of a list, its signature or a file would be named.
no_encryption () {
  ! find . \( -name '*.gpg.gpg' -o -name '*.asc.gpg' -o -name '*.sign.gpg' \
              -o -name '*.sig.gpg' -o -name '*.iso.gpg' -o -name '*.txt.gpg' \
              -o -path ./plain/SHA256SUMS.gpg -o -path ./unk/SHA256SUMS.gpg \) \
    | grep -q .
}
flip_first_octet () { # FILE: its first hex digit changed
  c=$(head -c 1 "$1")
  if [ "$c" = 0 ]; then r=1; else r=0; fi
  printf '%s' "$r" | dd of="$1" bs=1 conv=notrunc 2>/dev/null
}

# The list alone, its detached signature (binary) beside it.
sign dl/SHA256SUMS -o dl/SHA256SUMS.gpg
run dl/SHA256SUMS
check "a list with an altered file exits 1" test "$status" -eq 1
check "the intact image's line" \
  grep -qxF "$(file_line SHA256SUMS debian-12.iso ok)" stdout
check "the other intact file's line" \
  grep -qxF "$(file_line SHA256SUMS img-1.iso ok)" stdout
check "the altered file's line says differs" \
  grep -qxF "$(file_line SHA256SUMS img-2.iso differs)" stdout
check "the summary counts 2 ok, 1 differ, 3 not here, and the signature" \
  grep -qxF "checked SHA256SUMS: 2 ok, 1 differ, 3 not here, $GOOD" stdout
check "four lines: no line for the absent files" test "$(wc -l < stdout)" -eq 4
check "stderr names the file that differs" \
  grep -qxF 'padlock: SHA256SUMS: img-2.iso does not match the signed checksum.' stderr

# The signature alone: the list beside it.
run dl/SHA256SUMS.gpg
check "the signature alone checks the list beside it, and its files" \
  sh -c "test $status -eq 1 && grep -qxF 'checked SHA256SUMS: 2 ok, 1 differ, 3 not here, $GOOD' stdout"

# Both given: one job (the summary once).
run dl/SHA256SUMS.gpg dl/SHA256SUMS
check "the list and its signature given together: one check" \
  sh -c "test $status -eq 1 && test \$(grep -c '^checked SHA256SUMS:' stdout) -eq 1"

# Every present file matches: exit 0.
sign good/SHA256SUMS -a -o good/SHA256SUMS.asc
run good/SHA256SUMS
check "every present file matching, signature good (armored .asc): exit 0" \
  test "$status" -eq 0
check "its summary" \
  grep -qxF "checked SHA256SUMS: 2 ok, 0 differ, 3 not here, $GOOD" stdout
check "nothing on stderr" test ! -s stderr
run --decrypt good/SHA256SUMS.asc
check "--decrypt of a list's signature checks the list" \
  sh -c "test $status -eq 0 && grep -qxF 'checked SHA256SUMS: 2 ok, 0 differ, 3 not here, $GOOD' stdout"

# One octet of the list changed after it was signed: bad, no file
# checked, exit 1.
mkdir bad
cp good/debian-12.iso good/img-1.iso good/SHA256SUMS good/SHA256SUMS.asc bad/
flip_first_octet bad/SHA256SUMS
check "(the list differs from the one signed by one octet)" \
  test "$(cmp -l bad/SHA256SUMS good/SHA256SUMS | wc -l)" -eq 1
run bad/SHA256SUMS
check "a list changed after it was signed exits 1" test "$status" -eq 1
check "no file is said to match" sh -c "! grep -q ' ok\$' stdout"
check "stderr says the signature does not match" \
  grep -q "padlock: SHA256SUMS: The list's signature does not match" stderr

# Cleartext-signed (InRelease style), one file altered.
$G -u "$ALICE" --clearsign -o dl/SHA256SUMS.txt dl/SHA256SUMS
mv dl/SHA256SUMS.txt dl/sha256sum.txt
run dl/sha256sum.txt
check "a cleartext-signed list with an altered file: exit 1" \
  test "$status" -eq 1
check "its lines" sh -c \
  "grep -qxF '$(file_line sha256sum.txt debian-12.iso ok)' stdout && grep -qxF '$(file_line sha256sum.txt img-2.iso differs)' stdout"
check "its summary" \
  grep -qxF "checked sha256sum.txt: 2 ok, 1 differ, 3 not here, $GOOD" stdout
$G -u "$ALICE" --clearsign -o good/sha256sum.txt good/SHA256SUMS
run good/sha256sum.txt
check "a cleartext-signed list whose files match: exit 0" \
  sh -c "test $status -eq 0 && grep -qxF 'checked sha256sum.txt: 2 ok, 0 differ, 3 not here, $GOOD' stdout"
cp good/sha256sum.txt bad/sha256sum.txt
sed -i 's/  img-1.iso$/  img-1.isp/' bad/sha256sum.txt
cp bad/img-1.iso bad/img-1.isp
run bad/sha256sum.txt
check "a cleartext-signed list changed after signing: bad, exit 1" \
  sh -c "test $status -eq 1 && grep -q \"The list's signature does not match\" stderr && ! grep -q ' ok\$' stdout"

# Unsigned: checked, said on stderr, and exit 1 (nobody vouches for it).
mkdir plain
cp good/debian-12.iso good/img-1.iso good/SHA256SUMS plain/
run plain/SHA256SUMS
check "an unsigned list: its files checked" sh -c \
  "grep -qxF '$(file_line SHA256SUMS debian-12.iso ok)' stdout && grep -qxF 'checked SHA256SUMS: 2 ok, 0 differ, 3 not here, unsigned' stdout"
check "an unsigned list exits 1, saying nobody vouches for it" \
  sh -c "test $status -eq 1 && grep -q 'nobody vouches for this list' stderr"

# A signer the keyring does not hold: unknown-key, the files checked,
# exit 1.
GNUPGHOME="$WORK/other" $G --quick-gen-key 'Mallory <m@example.org>' \
  ed25519 cert,sign never 2>/dev/null
mkdir unk
cp good/debian-12.iso good/img-1.iso good/SHA256SUMS unk/
GNUPGHOME="$WORK/other" $G --detach-sign -o unk/SHA256SUMS.sign unk/SHA256SUMS
run unk/SHA256SUMS
check "a list signed by an unknown key (.sign): exit 1" test "$status" -eq 1
check "its summary says unknown-key" \
  grep -Eq '^checked SHA256SUMS: 2 ok, 0 differ, 3 not here, signature unknown-key [0-9A-F]{40}$' stdout

# A name that says list, given with a signature, whose content is no
# list: the detached check it also is.
mkdir notlist
printf 'just some words\n' > notlist/SHA256SUMS
sign notlist/SHA256SUMS -o notlist/SHA256SUMS.sig
run notlist/SHA256SUMS.sig
check "a signature of a file named as a list that is none: verified as detached" \
  sh -c "test $status -eq 0 && grep -qxF 'verified SHA256SUMS.sig -> SHA256SUMS $GOOD' stdout"

check "no file was encrypted in all this" no_encryption
echo "1..$n"
exit $failed
