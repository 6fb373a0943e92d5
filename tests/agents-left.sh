#!/bin/sh
# agents-left.sh - runs after every other test: no gpg-agent of this
# build's test GnuPG homes is left running.  A home is this build's when
# its padlock-test-build file (tu_watch_gnupg_home, and the shell tests
# that make a GNUPGHOME) names $PADLOCK_BUILD_DIR.  What a crash, a
# SIGKILL or a test that forgot its agent left is reported, fails the
# test, and is stopped.  Two `meson test` runs of one build at once would
# see each other's agents.  TAP.
set -u

BUILD=${PADLOCK_BUILD_DIR:?}
left=0
echo "1..1"
for cmdline in /proc/[0-9]*/cmdline; do
  pid=${cmdline#/proc/}
  pid=${pid%/cmdline}
  args=$( (tr '\0' '\n' < "$cmdline") 2>/dev/null) || continue
  [ "$(basename "$(printf '%s\n' "$args" | head -n 1)")" = gpg-agent ] || continue
  home=$(printf '%s\n' "$args" | sed -n '/^--homedir$/{n;p;q;}')
  [ -n "$home" ] && [ -f "$home/padlock-test-build" ] || continue
  [ "$(cat "$home/padlock-test-build" 2>/dev/null)" = "$BUILD" ] || continue
  echo "# gpg-agent $pid is still running for $home"
  left=$((left + 1))
  gpgconf --homedir "$home" --kill all >/dev/null 2>&1
  sleep 1
  kill -KILL "$pid" 2>/dev/null
done
if [ "$left" -eq 0 ]; then
  echo "ok 1 - no gpg-agent of this build's tests is left"
else
  echo "not ok 1 - $left gpg-agent(s) of this build's tests left running (stopped now)"
fi
[ "$left" -eq 0 ]
