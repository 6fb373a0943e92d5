#!/usr/bin/env python3
# batch-signal.py - runs `padlock --batch --decrypt` of ARCHIVE fed through
# a FIFO this script writes, and sends SIG at PHASE of the job; prints the
# exit status (a signal's death as 128 + its number).  For
# test-batch-signals.sh, which checks what was left.
#
# batch-signal.py APP ARCHIVE BYTES PHASE:SIG:DELAY_MS:WORKDIR...
# (one run each, in turn: one Python for them all; prints "WORKDIR
# STATUS" for each)
#   before-read    padlock holds the FIFO open, nothing written into it
#   working        half the message written, the hidden tree begun
#   before-commit  the whole message written, the hidden tree holds BYTES
#                  octets of files, the FIFO not yet at its end
#   commit         the FIFO closed (the job commits), DELAY_MS later
#   after          the job's line printed, DELAY_MS later, and again
#                  and again till padlock exits
# WORKDIR/in/NAME is the FIFO (NAME: ARCHIVE's name), WORKDIR/out the
# output folder, WORKDIR/stdout and WORKDIR/stderr padlock's.
import os
import shutil
import signal
import subprocess
import sys
import time

TIMEOUT = 60


def wait_for(what, proc):
    """Polls WHAT until true; False when padlock ended first."""
    deadline = time.monotonic() + TIMEOUT
    while not what():
        if proc.poll() is not None or time.monotonic() > deadline:
            return False
    return True


def hidden_octets(out):
    total = 0
    for name in os.listdir(out):
        if name.startswith(".padlock-"):
            for root, _, files in os.walk(os.path.join(out, name)):
                for f in files:
                    try:
                        total += os.lstat(os.path.join(root, f)).st_size
                    except FileNotFoundError:
                        pass
    return total


def has_hidden(out):
    return any(n.startswith(".padlock-") for n in os.listdir(out))


def run(app, archive, octets, phase, sig, delay_ms, work):
    sig = getattr(signal, "SIG" + sig)
    delay = float(delay_ms) / 1000
    fifo = os.path.join(work, "in", os.path.basename(archive))
    out = os.path.join(work, "out")
    os.makedirs(os.path.dirname(fifo))
    os.makedirs(out)
    os.mkfifo(fifo)
    data = open(archive, "rb").read()
    with open(os.path.join(work, "stdout"), "wb") as so, \
         open(os.path.join(work, "stderr"), "wb") as se:
        # Its lines as it prints them (stdio's own buffer holds them
        # till the exit otherwise).
        stdbuf = ["stdbuf", "-oL"] if shutil.which("stdbuf") else []
        proc = subprocess.Popen(stdbuf + [app, "--batch", "--decrypt",
                                 "--passphrase-file=pw", "--output-dir=" + out,
                                 fifo], stdout=so, stderr=se)
    # Returns once padlock opened it: its signal handlers are set.
    writer = open(fifo, "wb", buffering=0)
    ok = True
    if phase == "working":
        writer.write(data[:len(data) // 2])
        ok = wait_for(lambda: has_hidden(out), proc)
    elif phase == "before-commit":
        # All but two files' worth (2 MiB): the engine holds back the end
        # of the plaintext until it has seen the end of the message.
        writer.write(data)
        ok = wait_for(lambda: hidden_octets(out) >= int(octets) - 2097152,
                      proc)
    elif phase in ("commit", "after"):
        writer.write(data)
        writer.close()
        if phase == "after":
            wait_for(lambda: os.path.getsize(os.path.join(work, "stdout")),
                     proc)
        time.sleep(delay)
    if not ok:
        print(work, "phase missed", file=sys.stderr)
    # After the line, the signal again and again till padlock exits: one
    # lands in whatever it does then.
    while True:
        try:
            proc.send_signal(sig)
        except ProcessLookupError:
            pass
        if phase != "after" or proc.poll() is not None:
            break
        time.sleep(0.0002)
    try:
        status = proc.wait(TIMEOUT)
    finally:
        if not writer.closed:
            writer.close()
    print(work, status if status >= 0 else 128 - status, flush=True)


def main():
    app, archive, octets = sys.argv[1:4]
    for spec in sys.argv[4:]:
        run(app, archive, octets, *spec.split(":"))


main()
