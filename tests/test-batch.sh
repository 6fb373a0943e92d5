#!/bin/sh
# test-batch.sh - `padlock --batch`: folders and files, in and out, checked
# by the real gpg and tar; usage errors; no display and no D-Bus needed.
# TAP.  Needs PADLOCK_APP (build/app/padlock) and PADLOCK_SOURCE_DIR.
set -u

APP=${PADLOCK_APP:?}
SRC=${PADLOCK_SOURCE_DIR:?}
WORK=$(mktemp -d "${TMPDIR:-/tmp}/padlock-batch-XXXXXX")
trap 'gpgconf --homedir "$WORK/gnupg" --kill all >/dev/null 2>&1; rm -rf "$WORK"' EXIT
# meson's timeout and Ctrl-C end the test with a signal: exit, so that
# the EXIT trap stops its gpg-agent too.
trap 'exit 143' TERM INT HUP
export GNUPGHOME="$WORK/gnupg"
mkdir -m 700 "$GNUPGHOME"
echo allow-loopback-pinentry > "$GNUPGHOME/gpg-agent.conf"
echo "${PADLOCK_BUILD_DIR:-}" > "$GNUPGHOME/padlock-test-build"  # tests/agents-left.sh
. "$(dirname "$0")/tap.sh"

gpg_d () { # FILE PASSPHRASE
  gpg --batch --no-tty --quiet --pinentry-mode loopback --passphrase "$2" \
      --decrypt "$1"
}

echo "1..33"
cd "$WORK" || exit 1
mkdir -p "Photos/sub/empty" out
head -c 2500000 /dev/urandom > Photos/sub/big.bin
printf 'hello\n' > Photos/a.txt
ln -s a.txt Photos/link
ln Photos/a.txt Photos/hard
chmod 750 Photos/sub
touch -d @1600000000 Photos/a.txt
printf 'just a file\n' > notes.txt
printf 'pass word\n' > pw              # one trailing newline is not part of it

"$APP" --batch --passphrase-file=pw Photos notes.txt > stdout 2> stderr
check "encrypting a folder and a file exits 0" test $? -eq 0
check "one line per finished job" \
  grep -qx 'encrypted Photos -> Photos.tar.gpg' stdout
check "the file's line" grep -qx 'encrypted notes.txt -> notes.txt.gpg' stdout
check "nothing on stderr" test ! -s stderr

gpg_d notes.txt.gpg 'pass word' > notes.back 2>/dev/null
check "gpg decrypts the file, passphrase less its newline" \
  cmp -s notes.txt notes.back
mkdir gpgtar-out
gpg_d Photos.tar.gpg 'pass word' 2>/dev/null | tar -x -p -f - -C gpgtar-out
check "gpg -d | tar x reproduces the folder" diff -r Photos gpgtar-out/Photos
check "tar keeps the symbolic link" \
  test "$(readlink gpgtar-out/Photos/link)" = a.txt
check "tar keeps the hard link" \
  test "$(stat -c %i gpgtar-out/Photos/a.txt)" = "$(stat -c %i gpgtar-out/Photos/hard)"
check "tar keeps modes and times" \
  test "$(stat -c %a:%Y gpgtar-out/Photos/sub)" = 750:"$(stat -c %Y Photos/sub)" \
    -a "$(stat -c %Y gpgtar-out/Photos/a.txt)" = 1600000000
check "the stored name is Photos.tar" \
  sh -c "gpg --batch --pinentry-mode loopback --passphrase 'pass word' \
         --list-packets Photos.tar.gpg 2>/dev/null | grep -q 'name=\"Photos.tar\"'"

# One run is one batch (issue 13): one S2K specifier for both files (the
# same salt and count), each with its own encrypted session key.
s2k_of () {
  gpg --batch --pinentry-mode loopback --passphrase 'pass word' \
      --list-packets "$1" 2>/dev/null | grep -m1 -o 'salt [0-9A-F]*, count [0-9]*'
}
check "the files of one run share one S2K salt and count" \
  sh -c "test -n \"$(s2k_of notes.txt.gpg)\" && \
         test \"$(s2k_of notes.txt.gpg)\" = \"$(s2k_of Photos.tar.gpg)\""
check "and each carries its own session key (v4 with an encrypted key)" \
  sh -c "gpg --batch --pinentry-mode loopback --passphrase 'pass word' \
             --list-packets notes.txt.gpg 2>/dev/null | \
         grep -q 'symkey enc packet: version 4, .*seskey 256 bits'"

"$APP" --batch --passphrase-file=pw --output-dir=out Photos.tar.gpg \
       notes.txt.gpg > stdout 2> stderr
check "decrypting, sorted by content, exits 0" test $? -eq 0
check "the archive unpacks into a folder" diff -r Photos out/Photos
check "the decrypt line" grep -qx 'decrypted Photos.tar.gpg -> Photos' stdout
check "the file decrypts" cmp -s notes.txt out/notes.txt

"$APP" --batch --passphrase-file=pw --output-dir=out --decrypt \
       Photos.tar.gpg > stdout 2> stderr
check "a second unpacking goes beside the first" \
  sh -c "diff -r Photos 'out/Photos (1)' && \
         grep -qxF 'decrypted Photos.tar.gpg -> \"Photos\\x20(1)\"' stdout"

"$APP" --batch --passphrase-file=pw --armor --encrypt Photos > stdout 2>&1
check "--armor writes Photos.tar.asc that gpg reads" \
  sh -c "gpg --batch --pinentry-mode loopback --passphrase 'pass word' \
         -d Photos.tar.asc 2>/dev/null | tar -t -f - | grep -qx Photos/a.txt"

printf 'wrong\n' > bad
"$APP" --batch --passphrase-file=bad --output-dir=out notes.txt.gpg \
       > stdout 2> stderr
status=$?
check "a wrong passphrase exits 1, with the error on stderr" \
  sh -c "test $status -eq 1 && grep -q 'notes.txt.gpg' stderr && test ! -s stdout"

python3 "$SRC/tests/tar-hostile.py" dotdot evil.tar > /dev/null
gpg --batch --quiet --pinentry-mode loopback --passphrase 'pass word' \
    --symmetric -o evil.tar.gpg evil.tar
mkdir hostile
"$APP" --batch --passphrase-file=pw --output-dir=hostile evil.tar.gpg \
       > stdout 2> stderr
status=$?
check "a hostile archive is refused, naming the entry, leaving nothing" \
  sh -c "test $status -eq 1 && grep -q 'top/../escaped.txt' stderr && \
         test -z \"\$(ls -A hostile)\""

# A name that draws itself backwards (U+202E) and one with a newline are
# printed escaped: "photo\u202Egpj.exe", never the characters.
rlo=$(printf 'photo\342\200\256gpj.exe')
nl=$(printf 'two\nlines')
printf 'x\n' > "$rlo"
printf 'y\n' > "$nl"
"$APP" --batch --passphrase-file=pw "$rlo" "$nl" > stdout 2> stderr
check "a name with U+202E is printed escaped" \
  grep -qxF 'encrypted "photo\u202Egpj.exe" -> "photo\u202Egpj.exe.gpg"' stdout
check "a name with a newline is one line, escaped" \
  grep -qxF 'encrypted "two\nlines" -> "two\nlines.gpg"' stdout

# Bad usage: status 2, and the problem's words on stderr.
usage () { # DESCRIPTION WORDS ARG...
  desc=$1 words=$2; shift 2
  LC_ALL=C LANGUAGE= "$APP" --batch "$@" > stdout 2> stderr
  status=$?
  if test $status -eq 2 && grep -qF -- "$words" stderr && test ! -s stdout
  then ok "$desc"; else not_ok "$desc"; cat stderr >&2; fi
}
: > empty-pw
printf 'a\0b\n' > nul-pw
listing () { ls -A | grep -v '^std'; }
before=$(listing)
usage "an empty passphrase file is bad usage (2), named" \
  "empty-pw holds no passphrase" --passphrase-file=empty-pw Photos
usage "a passphrase file with a NUL is bad usage (2), named" \
  "nul-pw holds a NUL character" --passphrase-file=nul-pw Photos
usage "a missing passphrase file is bad usage (2), with the system's words" \
  "No such file or directory" --passphrase-file=no-such-pw Photos
usage "an output folder that is not one is bad usage (2)" \
  "notes.txt is not a folder." --passphrase-file=pw --output-dir=notes.txt \
  Photos
usage "no files is bad usage (2)" "No files or folders given." \
  --passphrase-file=pw
check "bad usage wrote nothing" test "$(listing)" = "$before"
"$APP" --batch Photos > /dev/null 2>&1
check "no --passphrase-file is bad usage (2)" test $? -eq 2
"$APP" --batch --encrypt --decrypt --passphrase-file=pw Photos > /dev/null 2>&1
check "--encrypt with --decrypt is bad usage (2)" test $? -eq 2
usage "an unknown profile is bad usage (2), named" \
  "Unknown profile nonsense" --passphrase-file=pw --profile=nonsense Photos
"$APP" --batch --passphrase-file=pw --no-such-option Photos > /dev/null 2>&1
check "an unknown option is bad usage (2)" test $? -eq 2
"$APP" --no-such-option > /dev/null 2>&1
check "an unknown option without --batch stays GApplication's 1" test $? -eq 1

exit $failed
