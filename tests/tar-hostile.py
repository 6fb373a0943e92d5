#!/usr/bin/env python3
"""Writes a hostile tar archive for test-tar: tar-hostile.py CASE OUT.

Each case is a small archive, made with the standard library's tarfile,
with one entry that Padlock must refuse (and name).  Prints that entry's
name on stdout."""
import io
import sys
import tarfile


def member(name, kind=tarfile.REGTYPE, data=b"", mode=0o644, link=""):
    info = tarfile.TarInfo(name)
    info.type = kind
    info.mode = mode
    info.mtime = 1600000000
    info.linkname = link
    info.size = len(data) if kind == tarfile.REGTYPE else 0
    return info, (io.BytesIO(data) if kind == tarfile.REGTYPE else None)


def cases():
    ok = member("top/ok.txt", data=b"fine\n")
    top = member("top/", tarfile.DIRTYPE, mode=0o755)
    return {
        "dotdot": ([top, ok, member("top/../escaped.txt", data=b"x")],
                   "top/../escaped.txt"),
        "absolute": ([top, member("/tmp/padlock-absolute.txt", data=b"x")],
                     "/tmp/padlock-absolute.txt"),
        "through-symlink": ([top, member("top/out", tarfile.SYMTYPE,
                                         link="/tmp"),
                             member("top/out/padlock-through.txt",
                                    data=b"x")],
                            "top/out/padlock-through.txt"),
        "hardlink-absolute": ([top, member("top/passwd", tarfile.LNKTYPE,
                                           link="/etc/passwd")],
                              "top/passwd"),
        "hardlink-dotdot": ([top, member("top/h", tarfile.LNKTYPE,
                                         link="top/../../x")],
                            "top/h"),
        "hardlink-missing": ([top, member("top/h", tarfile.LNKTYPE,
                                          link="top/not-there")],
                             "top/h"),
        "hardlink-to-folder": ([top, member("top/h", tarfile.LNKTYPE,
                                            link="top")], "top/h"),
        "device": ([top, ok, member("top/null", tarfile.CHRTYPE)],
                   "top/null"),
        "fifo": ([top, member("top/fifo", tarfile.FIFOTYPE)], "top/fifo"),
        "setuid": ([top, member("top/su", data=b"#!/bin/sh\n",
                                mode=0o4755)], "top/su"),
        "setgid": ([top, member("top/sg", data=b"#!/bin/sh\n",
                                mode=0o2755)], "top/sg"),
        "duplicate": ([top, ok, member("top/ok.txt", data=b"again\n")],
                      "top/ok.txt"),
    }


def main():
    case, out = sys.argv[1], sys.argv[2]
    members, named = cases()[case]
    with tarfile.open(out, "w", format=tarfile.PAX_FORMAT) as tar:
        for info, data in members:
            tar.addfile(info, data)
    print(named)


if __name__ == "__main__":
    main()
