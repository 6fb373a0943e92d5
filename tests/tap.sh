# tap.sh - sourced by the shell tests of `padlock --batch` and padlock-sop:
# no display and no session bus (--batch must need neither), and the TAP
# lines.  A test ends with `exit $failed`.

unset DISPLAY WAYLAND_DISPLAY
export DBUS_SESSION_BUS_ADDRESS=disabled:
export GSETTINGS_BACKEND=memory

n=0
failed=0
ok () { n=$((n + 1)); echo "ok $n - $1"; }
not_ok () { n=$((n + 1)); failed=1; echo "not ok $n - $1"; }
skip () { n=$((n + 1)); echo "ok $n # SKIP $1"; }
check () { desc=$1; shift; if "$@"; then ok "$desc"; else not_ok "$desc"; fi; }
