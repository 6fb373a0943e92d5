#!/bin/bash
# test-batch-inputs.sh - `padlock --batch` reading pipes, FIFOs and
# /dev/stdin both ways, every octet (issue 19 §2); SIGINT and SIGTERM
# while it waits on a FIFO nobody writes to, before and inside a job;
# a file named like OpenPGP that is none (issue 19 §9).  The real gpg
# checks what is written.  No timed assertion: waits are for a state
# (a descriptor in /proc), bounded by a generous limit that only catches
# a hang.  TAP.  Needs PADLOCK_APP and bash (process substitution).
set -u

APP=${PADLOCK_APP:?}
WORK=$(mktemp -d "${TMPDIR:-/tmp}/padlock-inputs-XXXXXX")
pids=""
cleanup () {
  for p in $pids; do kill -KILL "$p" 2>/dev/null; done
  gpgconf --homedir "$WORK/gnupg" --kill all >/dev/null 2>&1
  rm -rf "$WORK"
}
trap cleanup EXIT
# meson's timeout and Ctrl-C end the test with a signal: exit, so that
# the EXIT trap stops its gpg-agent too.
trap 'exit 143' TERM INT HUP
export GNUPGHOME="$WORK/gnupg"
mkdir -m 700 "$GNUPGHOME"
echo "${PADLOCK_BUILD_DIR:-}" > "$GNUPGHOME/padlock-test-build"  # tests/agents-left.sh
. "$(dirname "$0")/tap.sh"
LIMIT=${LIMIT:-600}                       # tenths of a second: a hang, not a speed

gpg_d () { # FILE
  gpg --batch --no-tty --quiet --pinentry-mode loopback --passphrase 'pass word' \
      --decrypt "$1" 2>/dev/null
}
# Runs padlock --batch ARGS... in the background into $pid.
start () { "$APP" --batch --passphrase-file=pw "$@" > stdout 2> stderr & pid=$!; pids="$pids $pid"; }
# Waits (bounded) until PID holds a descriptor whose target matches PATTERN.
wait_fd () { # PID PATTERN
  for _ in $(seq $LIMIT); do
    ls -l "/proc/$1/fd" 2>/dev/null | grep -q -- "$2" && return 0
    kill -0 "$1" 2>/dev/null || return 1
    sleep 0.1
  done
  return 1
}
# Waits (bounded) for PID to end; its status in $rc, 255 after a hang.
finish () { # PID
  for _ in $(seq $LIMIT); do
    kill -0 "$1" 2>/dev/null || { wait "$1"; rc=$?; return 0; }
    sleep 0.1
  done
  kill -KILL "$1" 2>/dev/null
  wait "$1" 2>/dev/null
  rc=255
}
empty () { test -z "$(ls -A "$1")"; }

echo "1..29"
cd "$WORK" || exit 1
printf 'pass word\n' > pw
# More than one sniffing prefix (8 KiB) and one block (1 MiB).
head -c 1500000 /dev/urandom > src

# A pipe, encrypting: every octet, the first 8,192 too.
mkdir enc-pipe
"$APP" --batch --encrypt --passphrase-file=pw --output-dir=enc-pipe <(cat src) \
  > stdout 2> stderr
check "encrypting <(cat src) exits 0" test $? -eq 0
out=$(ls enc-pipe)
check "one output, named after the descriptor" test "$(ls enc-pipe | wc -l)" -eq 1
gpg_d "enc-pipe/$out" > back
check "gpg gets back every octet of the pipe" cmp -s src back

# Sorted by content from a pipe: a message decrypts.
cp "enc-pipe/$out" msg.gpg
mkdir dec-pipe
"$APP" --batch --passphrase-file=pw --output-dir=dec-pipe <(cat msg.gpg) \
  > stdout 2> stderr
check "decrypting <(cat msg.gpg), sorted by content, exits 0" test $? -eq 0
check "and says so" grep -q '^decrypted ' stdout
check "what it wrote is the plaintext" cmp -s src "dec-pipe/$(ls dec-pipe)"

# /dev/stdin from a pipe, both ways.
mkdir enc-stdin dec-stdin
cat src | "$APP" --batch --encrypt --passphrase-file=pw --output-dir=enc-stdin \
  /dev/stdin > stdout 2> stderr
check "encrypting /dev/stdin from a pipe exits 0" test $? -eq 0
gpg_d "enc-stdin/$(ls enc-stdin)" > back
check "gpg gets back all of stdin" cmp -s src back
cat msg.gpg | "$APP" --batch --passphrase-file=pw --output-dir=dec-stdin \
  /dev/stdin > stdout 2> stderr
check "decrypting /dev/stdin from a pipe exits 0" test $? -eq 0
check "to the plaintext" cmp -s src "dec-stdin/$(ls dec-stdin)"

# A FIFO with a writer that comes after padlock opened it.
mkfifo fifo
mkdir enc-fifo dec-fifo
start --encrypt --output-dir=enc-fifo fifo
wait_fd "$pid" "$WORK/fifo"
check "padlock opens a FIFO without waiting for its writer" test $? -eq 0
cat src > fifo
finish "$pid"
check "encrypting a FIFO exits 0" test "$rc" -eq 0
gpg_d "enc-fifo/fifo.gpg" > back
check "gpg gets back all the FIFO carried" cmp -s src back
start --output-dir=dec-fifo fifo
cat msg.gpg > fifo
finish "$pid"
check "decrypting a FIFO, sorted by content, exits 0" test "$rc" -eq 0
check "to the plaintext" cmp -s src "dec-fifo/$(ls dec-fifo)"

# Signals while it waits on a FIFO nobody writes to: reading the first
# octets (before any job), then inside a job (the writer stalls).
for sig in TERM INT; do
  mkdir "sig-$sig"
  start --output-dir="sig-$sig" fifo
  wait_fd "$pid" "$WORK/fifo"
  kill -"$sig" "$pid"
  finish "$pid"
  check "SIG$sig while waiting for a FIFO's writer ends it with 1" test "$rc" -eq 1
  check "and leaves nothing" empty "sig-$sig"
done
for sig in TERM INT; do
  mkdir "job-$sig"
  # 20,000 octets, then silence with the FIFO still open.
  ( head -c 20000 src; sleep 3600 ) > fifo &
  writer=$!
  pids="$pids $writer"
  start --encrypt --output-dir="job-$sig" fifo
  # The job runs once its output's temporary file is open.
  wait_fd "$pid" "$WORK/job-$sig"
  check "SIG$sig test: the job started on the stalled FIFO" test $? -eq 0
  kill -"$sig" "$pid"
  finish "$pid"
  check "SIG$sig inside a job blocked on a FIFO ends it with 1" test "$rc" -eq 1
  check "and its output is removed" empty "job-$sig"
  kill "$writer" 2>/dev/null
done

# A name that says OpenPGP on content that is none: a decryption that
# says so, not an encryption to x.gpg.gpg; asked for, encryption works.
head -c 5000 /dev/urandom > x.gpg
mkdir named
"$APP" --batch --passphrase-file=pw --output-dir=named x.gpg > stdout 2> stderr
check "random x.gpg fails with 1" test $? -eq 1
check "saying x.gpg is not an OpenPGP message, writing nothing" \
  sh -c 'grep -q "x.gpg is not an OpenPGP message" stderr && test -z "$(ls -A named)"'
"$APP" --batch --encrypt --passphrase-file=pw --output-dir=named x.gpg \
  > stdout 2> stderr
check "--encrypt still encrypts it" test $? -eq 0
check "to x.gpg.gpg, which gpg opens" \
  sh -c 'gpg --batch --quiet --pinentry-mode loopback \
         --passphrase "pass word" -d named/x.gpg.gpg 2>/dev/null | cmp -s - x.gpg'

exit $failed
