#!/bin/sh
# test-batch-signals.sh - SIGTERM and SIGINT at every phase of `padlock
# --batch --decrypt` unpacking a folder (issue 32 §7): before the first
# read, during the work, with the archive unpacked but not committed,
# during the commit, right after the job's line.  Each run ends either
# with exit 0 and the folder complete and identical to the original, or
# with exit 1 and nothing written (no folder, no hidden tree, no
# temporary file); never killed by the signal (143, 130).  The input is a
# FIFO that tests/batch-signal.py writes, so that the first three phases
# are reached for certain; the last two are runs over delays.  TAP.
# Needs PADLOCK_APP.
set -u

APP=${PADLOCK_APP:?}
DRIVER="$(cd "$(dirname "$0")" && pwd)/batch-signal.py"
WORK=$(mktemp -d "${TMPDIR:-/tmp}/padlock-batch-signals-XXXXXX")
trap 'rm -rf "$WORK"' EXIT
. "$(dirname "$0")/tap.sh"

echo "1..6"
cd "$WORK" || exit 1
printf 'pass word\n' > pw
# 40 MiB: the commit's syncfs takes a while.
mkdir Photos
i=1
while [ $i -le 40 ]; do
  head -c 1048576 /dev/urandom > "Photos/p$i.jpg"
  i=$((i + 1))
done
"$APP" --batch --passphrase-file=pw Photos > /dev/null 2>&1
check "Photos encrypts into Photos.tar.gpg" test -s Photos.tar.gpg
octets=$(cat Photos/* | wc -c)

# runs PHASE:SIG:DELAY_MS...: one run each, in run-N; prints a line a
# run, "0 complete", "1 nothing" or what is wrong.
runs=0
runs () {
  specs=
  for spec in "$@"; do
    runs=$((runs + 1))
    specs="$specs $spec:run-$runs"
  done
  # shellcheck disable=SC2086
  python3 "$DRIVER" "$APP" Photos.tar.gpg "$octets" $specs 2> driver.err |
  while read -r dir status; do
    left=$(ls -A "$dir/out")
    stray=$(ls -A "$dir/in")
    if [ "$status" = 0 ] && [ "$left" = Photos ] \
       && [ "$stray" = Photos.tar.gpg ] \
       && diff -r Photos "$dir/out/Photos" > /dev/null \
       && grep -q '^decrypted Photos.tar.gpg -> Photos$' "$dir/stdout"; then
      echo "0 complete"
    elif [ "$status" = 1 ] && [ -z "$left" ] && [ "$stray" = Photos.tar.gpg ] \
         && ! [ -s "$dir/stdout" ]; then
      echo "1 nothing"
    else
      echo "$dir: exit $status, left [$(echo $left)]" \
           "$(cat "$dir/stderr" | tr '\n' ' ')"
    fi
    rm -rf "$dir"
  done
  sed 's/^/driver: /' driver.err
}

# bad OUTCOME... < LINES: the lines that are none of the OUTCOMEs, on one
# line.
bad () {
  while read -r line; do
    ok=
    for want in "$@"; do [ "$line" = "$want" ] && ok=1; done
    [ -z "$ok" ] && printf '%s; ' "$line"
  done
}

# The phases reached for certain: exit 1 and nothing.  before-commit:
# the whole message read but its end (the FIFO stays open), the hidden
# tree holding all but the last 2 MiB.
for phase in before-read working before-commit; do
  got=$(runs $phase:TERM:0 $phase:INT:0 | bad "1 nothing")
  [ -n "$got" ] && echo "# $got"
  check "a signal $phase: exit 1, nothing written (TERM and INT)" test -z "$got"
done

# During the commit, over delays from none to past the job's end: either
# outcome, but only those.  The old code: handled while the folder was
# committed, exit 0 all the same (its job cancelled); past the job's end,
# killed (143, 130) with the folder complete.
specs=
sig=TERM
for delay in 0 0 1 2 5 10 20 50 100 200 300 400 600; do
  specs="$specs commit:$sig:$delay"
  [ $sig = TERM ] && sig=INT || sig=TERM
done
# shellcheck disable=SC2086
runs $specs > commit.out
echo "# commit: $(grep -c '^0 complete' commit.out) runs exit 0 complete," \
     "$(grep -c '^1 nothing' commit.out) exit 1 with nothing"
got=$(bad "0 complete" "1 nothing" < commit.out)
[ -n "$got" ] && echo "# $got"
check "a signal during the commit: exit 0 and complete, or exit 1 and nothing" \
  test -z "$got"

# Right after the job's line (and again till padlock exits), twenty
# times: the job had finished, exit 0.  The old code was killed (143,
# 130) with the folder complete: GLib restores a signal's default action
# once its last source is removed, which the batch did before exiting.
specs=
for i in $(seq 1 10); do
  specs="$specs after:TERM:0 after:INT:0"
done
# shellcheck disable=SC2086
got=$(runs $specs | bad "0 complete")
[ -n "$got" ] && echo "# $got"
check "a signal right after the job's line, twenty times: exit 0, complete" \
  test -z "$got"

exit $failed
