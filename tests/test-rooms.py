#!/usr/bin/env python3
"""test-rooms.py - the rooms' dependencies, as the build compiles them

Each folder of the app is a library with its own dependencies
(README, "Map"): GTK and libadwaita are the window's (app/) alone,
GPGME and libassuan the GnuPG edge's (app/gnupg/) and those above it,
and the engine (core/) and padlock-sop (sop/) have no GLib.  The rule
is checked where it bites: in the build's compile commands, a file of a
room whose command line could find a header it must not see fails, as
does a source file that includes one.  TAP; argv[1] is the build
folder, argv[2] the source folder.
"""
import json
import os
import re
import shlex
import sys

BUILD, SOURCE = sys.argv[1], sys.argv[2]

# room: the include folders (of pkg-config's -I) it must not see
FORBIDDEN = {
    "core": ["glib-2.0", "gtk-4.0", "libadwaita-1"],
    "sop": ["glib-2.0", "gtk-4.0", "libadwaita-1"],
    "app/common": ["gtk-4.0", "libadwaita-1"],
    "app/gnupg": ["gtk-4.0", "libadwaita-1"],
    "app/jobs": ["gtk-4.0", "libadwaita-1"],
    "desktop/thunar": ["gtk-4.0", "libadwaita-1"],
}
# room: headers its sources must not include
FORBIDDEN_INCLUDES = {
    "core": r"<(glib|gio|gtk|adwaita|gpgme|assuan)[./]",
    "sop": r"<(glib|gio|gtk|adwaita|gpgme|assuan)[./]",
    "app/common": r"<(gtk|adwaita|gpgme|assuan)[./]",
    "app/gnupg": r"<(gtk|adwaita)[./]",
    "app/jobs": r"<(gtk|adwaita)[./]",
}

n = 0
failed = 0


def result(ok, what):
    global n, failed
    n += 1
    if not ok:
        failed += 1
    print(("ok" if ok else "not ok") + " %d - %s" % (n, what))


def room_of(path):
    rel = os.path.relpath(path, SOURCE)
    best = None
    for room in FORBIDDEN:
        if rel.startswith(room + "/") and rel.count("/") == room.count("/") + 1:
            best = room
    return best, rel


with open(os.path.join(BUILD, "compile_commands.json")) as f:
    commands = json.load(f)

seen = {room: 0 for room in FORBIDDEN}
for entry in commands:
    path = os.path.normpath(os.path.join(entry["directory"], entry["file"]))
    room, rel = room_of(path)
    if room is None:
        continue
    seen[room] += 1
    args = shlex.split(entry["command"])
    includes = [a[2:] for a in args if a.startswith("-I")]
    includes += [args[i + 1] for i, a in enumerate(args[:-1])
                 if a in ("-I", "-isystem")]
    bad = [d for d in includes
           if any(os.path.basename(d.rstrip("/")) == f
                  for f in FORBIDDEN[room])]
    result(not bad, "%s compiles without %s%s" % (
        rel, ", ".join(FORBIDDEN[room]), (": sees " + " ".join(bad)) if bad else ""))

for room, count in seen.items():
    result(count > 0, "%s has sources in the build (%d)" % (room, count))

for room, pattern in FORBIDDEN_INCLUDES.items():
    folder = os.path.join(SOURCE, room)
    for name in sorted(os.listdir(folder)):
        if not name.endswith((".c", ".h")):
            continue
        with open(os.path.join(folder, name), encoding="utf-8") as f:
            hits = [line.strip() for line in f
                    if line.startswith("#include") and re.search(pattern, line)]
        result(not hits, "%s/%s includes no header of another room's "
               "dependency%s" % (room, name, (": " + "; ".join(hits)) if hits else ""))

print("1..%d" % n)
sys.exit(1 if failed else 0)
