#!/bin/sh
# test-passphrase-files.sh - one passphrase rule (core/passphrase.h) across
# the entry points and the real gpg 2.2: for passphrase files that end in
# "\n", in "\r\n" and in "\n\n", what each of gpg, padlock-sop and
# `padlock --batch` writes opens in the other two with the same file;
# passphrase files over the limit are refused clearly, never with a crash;
# blank and non-UTF-8 ones lock nothing; a message with Argon2
# t=1 p=4 m=2^21 (RFC 9580 A.12) opens with `echo password > pw`.  TAP.
# Needs PADLOCK_APP, PADLOCK_SOP and PADLOCK_SOURCE_DIR.
set -u

APP=${PADLOCK_APP:?}
SOP=${PADLOCK_SOP:?}
SRC=${PADLOCK_SOURCE_DIR:?}
WORK=$(mktemp -d "${TMPDIR:-/tmp}/padlock-pwfiles-XXXXXX")
export GNUPGHOME="$WORK/gnupg"
trap 'gpgconf --kill all >/dev/null 2>&1; rm -rf "$WORK"' EXIT
# meson's timeout and Ctrl-C end the test with a signal: exit, so that
# the EXIT trap stops its gpg-agent too.
trap 'exit 143' TERM INT HUP
mkdir -m 700 "$GNUPGHOME"
echo allow-loopback-pinentry > "$GNUPGHOME/gpg-agent.conf"
echo "${PADLOCK_BUILD_DIR:-}" > "$GNUPGHOME/padlock-test-build"  # tests/agents-left.sh
. "$(dirname "$0")/tap.sh"

cd "$WORK" || exit 1
printf 'the plaintext\n' > plain

# WRITER ENDING: writes msg-WRITER-ENDING.gpg with the file pw-ENDING.
write () {
  out="msg-$1-$2.gpg"
  case $1 in
    gpg) gpg --batch --no-tty --quiet --pinentry-mode loopback \
             --no-symkey-cache --passphrase-file "pw-$2" -c -o "$out" plain ;;
    sop) "$SOP" encrypt --with-password="pw-$2" < plain > "$out" ;;
    batch) mkdir -p "w-$2" && cp plain "w-$2/msg-batch-$2" \
           && "$APP" --batch --encrypt --passphrase-file="pw-$2" \
                "w-$2/msg-batch-$2" > /dev/null \
           && mv "w-$2/msg-batch-$2.gpg" "$out" ;;
  esac
}

# READER MSG ENDING: 0 when READER opens MSG with pw-ENDING, to plain.
opens () {
  rm -rf back && mkdir back
  case $1 in
    gpg) gpg --batch --no-tty --quiet --pinentry-mode loopback \
             --no-symkey-cache --passphrase-file "pw-$3" -d "$2" \
             > back/out 2> /dev/null ;;
    sop) "$SOP" decrypt --with-password="pw-$3" < "$2" > back/out \
           2> /dev/null ;;
    batch) "$APP" --batch --decrypt --passphrase-file="pw-$3" \
             --output-dir=back "$2" > /dev/null 2>&1 \
           && mv back/* back/out 2> /dev/null ;;
  esac
  cmp -s plain back/out
}

printf 'secret\n' > pw-lf
printf 'secret\r\n' > pw-crlf
printf 'secret\n\n' > pw-lflf      # earlier --batch locked with "secret\n"

echo "1..36"
for ending in lf crlf lflf; do
  for writer in gpg sop batch; do
    write $writer $ending 2> /dev/null
    check "$writer writes with pw-$ending" test -s "msg-$writer-$ending.gpg"
  done
  for writer in gpg sop batch; do
    for reader in gpg sop batch; do
      [ $writer = $reader ] && continue
      if [ $writer = sop ] && [ $reader = gpg ] && [ $ending = crlf ]; then
        # gpg 2.2 keeps the CR ("secret\r"), SOP trims it ("secret"): the
        # one pair no rule of ours can join (README, "Passphrases").
        if opens $reader "msg-$writer-$ending.gpg" $ending; then
          not_ok "gpg opens sop's pw-crlf message (gpg now drops the CR?)"
        else
          ok "gpg keeps the CR of pw-crlf and sop trims it: gpg cannot open"
        fi
        continue
      fi
      check "$reader opens what $writer wrote with pw-$ending" \
        opens $reader "msg-$writer-$ending.gpg" $ending
    done
  done
done

# The limit, PL_PASSPHRASE_MAX: 4096 octets, from every entry point.
head -c 4096 /dev/zero | tr '\0' x > pw-4096
head -c 4097 /dev/zero | tr '\0' x > pw-4097
head -c 1048576 /dev/zero | tr '\0' x > pw-1mib
head -c 10000000 /dev/zero | tr '\0' x > pw-10mb
for size in 1mib 10mb; do
  "$APP" --batch --encrypt --passphrase-file=pw-$size plain > /dev/null 2> err
  status=$?
  check "a $size passphrase file: --batch says it is too long, exit 2" \
    sh -c "test $status -eq 2 && grep -q 'too long' err && test ! -e plain.gpg"
done
"$SOP" encrypt --with-password=pw-4097 < plain > /dev/null 2> err
status=$?
check "4097 octets: padlock-sop refuses it as too long (41)" \
  sh -c "test $status -eq 41 && grep -q 'too long' err"
"$SOP" encrypt --with-password=pw-4096 < plain > msg-4096.gpg 2> /dev/null
check "4096 octets lock with padlock-sop and open with --batch" \
  opens batch msg-4096.gpg 4096

# Blank and non-UTF-8 passphrases lock nothing, from either entry point.
printf '  \t\n' > pw-blank
printf '\377\376\n' > pw-binary
for pw in blank binary; do
  "$APP" --batch --encrypt --passphrase-file=pw-$pw plain > /dev/null 2> err
  batch_status=$?
  "$SOP" encrypt --with-password=pw-$pw < plain > /dev/null 2> /dev/null
  check "a $pw passphrase: --batch refuses it (2), padlock-sop too (31)" \
    sh -c "test $batch_status -eq 2 && test $? -eq 31 && test ! -e plain.gpg"
done

# RFC 9580 A.12: Argon2 t=1 p=4 m=2^21 KiB (2 GiB, about 2 s), passphrase
# "password".  A file that `echo password >` made is one derivation, not
# two charged before either runs (issue 19 item 5).
# Two of them in one batch (different salts: two derivations) run one
# after the other for the process's key-derivation memory (2 GiB): both
# open, and the process peaks near 2 GiB, not 4.
echo password > pw-a12
rm -rf back && mkdir back
/usr/bin/time -f %M -o rss "$APP" --batch --decrypt \
  --passphrase-file=pw-a12 --output-dir=back \
  "$SRC/tests/data/rfc9580-a12-argon2-aes128.asc" \
  "$SRC/tests/data/rfc9580-a12-argon2-aes256.asc" > out 2> err
status=$?
echo "# --batch, two A.12 messages: peak resident $(cat rss) KiB"
check "--batch opens two A.12 messages with 'password' and a newline" \
  sh -c "test $status -eq 0 && test \$(grep -c '^decrypted' out) -eq 2"
check "and peaks below 3 GiB resident (one 2 GiB derivation at a time)" \
  test "$(tail -n 1 rss)" -lt 3145728
# Two passwords, the right one first: the second is never derived.
"$SOP" decrypt --with-password=pw-a12 --with-password=pw-lf \
  < "$SRC/tests/data/rfc9580-a12-argon2-aes256.asc" > a12.out 2> err
check "padlock-sop opens A.12 with 'password' and a newline and another password" \
  grep -q 'Hello, world!' a12.out

[ $n -eq 36 ] || { echo "# ran $n checks, planned 36"; failed=1; }
exit $failed
