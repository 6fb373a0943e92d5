#!/bin/sh
# test-batch-unpack.sh - `padlock --batch` unpacking folders where it goes
# wrong (issue 19): a full disk, a file size limit, a stale hidden tree, a
# tampered archive; and padlock-sop past a file size limit.  TAP.  Needs
# PADLOCK_APP and PADLOCK_SOP.  The full disk needs root (a tmpfs mount);
# elsewhere that test says it skipped.
set -u

APP=${PADLOCK_APP:?}
SOP=${PADLOCK_SOP:?}
WORK=$(mktemp -d "${TMPDIR:-/tmp}/padlock-batch-unpack-XXXXXX")
cleanup () {
  mountpoint -q "$WORK/small" 2>/dev/null && umount "$WORK/small"
  rm -rf "$WORK"
}
trap cleanup EXIT
. "$(dirname "$0")/tap.sh"

echo "1..11"
cd "$WORK" || exit 1
printf 'pass word\n' > pw
mkdir src
i=1
while [ $i -le 15 ]; do
  head -c 10485760 /dev/urandom > "src/file-$i.bin"
  i=$((i + 1))
done
# rfc4880: SEIPD v1, whose MDC comes at the very end (the last test).
"$APP" --batch --passphrase-file=pw --profile=rfc4880 src > /dev/null 2>&1
check "a folder of 15 x 10 MiB encrypts" test $? -eq 0

# The reproduction: 150 MiB unpacked onto a 20 MiB tmpfs.
mkdir small
if mount -t tmpfs -o size=20m tmpfs small 2> /dev/null; then
  "$APP" --batch --passphrase-file=pw --output-dir=small src.tar.gpg \
         > stdout 2> stderr
  status=$?
  sed 's/^/# /' stderr
  check "unpacking onto a full disk exits 1" test $status -eq 1
  check "and says the disk is full, naming the file" \
    grep -q 'Could not unpack “src/file-[0-9]*\.bin”: The disk is full\.' stderr
  check "and leaves nothing, hidden or not" test -z "$(ls -A small)"
  check "nor any block in use" \
    test "$(df --output=used -B1 small | tail -1 | tr -d ' ')" -eq 0
  umount small
else
  for what in "exits 1" "says so" "leaves nothing" "no block in use"; do
    skip "a full disk ($what): cannot mount a tmpfs, needs root"
  done
fi

# ulimit -f (1024-octet blocks in bash, 512 in dash: 10 MiB files exceed
# both): the write fails with EFBIG instead of SIGXFSZ killing padlock.
mkdir limited
(ulimit -f 4096; exec "$APP" --batch --passphrase-file=pw \
                      --output-dir=limited src.tar.gpg) > stdout 2> stderr
status=$?
sed 's/^/# /' stderr
check "past a file size limit, padlock --batch exits 1 (not 153, SIGXFSZ)" \
  test $status -eq 1
check "saying the file is too large, and leaving nothing" \
  sh -c "grep -q 'larger than the disk or a limit' stderr && \
         test -z \"\$(ls -A limited)\""

(ulimit -f 4096; exec "$SOP" encrypt --with-password=pw \
                      < src/file-1.bin > sop.gpg) 2> stderr
status=$?
sed 's/^/# /' stderr
check "past a file size limit, padlock-sop fails (not 153, SIGXFSZ)" \
  sh -c "test $status -ne 0 && test $status -ne 153 && test -s stderr"

# What a killed unpacking left (a hidden tree nobody holds the lock of)
# goes with the next unpacking into the same folder.
mkdir -p stale/.padlock-AbC123/src
echo unverified > stale/.padlock-AbC123/src/file-1.bin
"$APP" --batch --passphrase-file=pw --output-dir=stale src.tar.gpg \
       > /dev/null 2>&1
check "a stale hidden tree is removed by the next unpacking" \
  sh -c "test ! -e stale/.padlock-AbC123 && test \"\$(ls -A stale)\" = src && \
         cmp -s src/file-7.bin stale/src/file-7.bin"

# Tampered with, in an archive of 150 MiB: the MDC flipped, and 400
# octets flipped in the first file's tar header (some 600 octets in), which
# damages the archive long before the MDC comes.  Both say tampered with.
flip () { # FILE FROM COUNT (FROM < 0: from the end)
  python3 -c '
import sys
path, start, count = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
data = bytearray(open(path, "rb").read())
start = start if start >= 0 else len(data) + start
for i in range(start, start + count):
    data[i] ^= 1
open(path, "wb").write(data)
' "$@"
}
for how in mdc:-10:1 header:700:400; do
  name=${how%%:*}
  cp src.tar.gpg "src-$name.tar.gpg"
  flip "src-$name.tar.gpg" "$(echo "$how" | cut -d: -f2)" \
       "$(echo "$how" | cut -d: -f3)"
  mkdir "tampered-$name"
  "$APP" --batch --passphrase-file=pw --output-dir="tampered-$name" \
         "src-$name.tar.gpg" > stdout 2> stderr
  status=$?
  sed 's/^/# /' stderr
  check "flipped in the $name, a large archive says tampered with" \
    sh -c "test $status -eq 1 && grep -q 'tampered with' stderr && \
           test -z \"\$(ls -A tampered-$name)\""
done

exit $failed
