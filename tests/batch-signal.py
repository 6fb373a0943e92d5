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
import errno
import os
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


def open_writer(fifo, proc):
    """The FIFO's writing end, once padlock opened it for reading (its
    signal handlers are then set); None when padlock ended or did not
    open it within TIMEOUT (a writer's plain open would wait forever)."""
    deadline = time.monotonic() + TIMEOUT
    while proc.poll() is None and time.monotonic() < deadline:
        try:
            fd = os.open(fifo, os.O_WRONLY | os.O_NONBLOCK)
        except OSError as e:
            if e.errno != errno.ENXIO:
                raise
            time.sleep(0.001)
            continue
        os.set_blocking(fd, True)
        return open(fd, "wb", buffering=0)
    return None


def run(app, archive, octets, phase, sig, delay_ms, work):
    sig = getattr(signal, "SIG" + sig)
    delay = float(delay_ms) / 1000
    fifo = os.path.join(work, "in", os.path.basename(archive))
    out = os.path.join(work, "out")
    os.makedirs(os.path.dirname(fifo))
    os.makedirs(out)
    os.mkfifo(fifo)
    data = open(archive, "rb").read()
    # padlock prints a job's line as the job ends (no stdbuf: its
    # LD_PRELOAD stops an ASan build at its start).
    with open(os.path.join(work, "stdout"), "wb") as so, \
         open(os.path.join(work, "stderr"), "wb") as se:
        proc = subprocess.Popen([app, "--batch", "--decrypt",
                                 "--passphrase-file=pw", "--output-dir=" + out,
                                 fifo], stdout=so, stderr=se)
    writer = open_writer(fifo, proc)
    if writer is None:
        print(work, "padlock never opened the FIFO", file=sys.stderr)
        proc.kill()
        print(work, "%d" % proc.wait(), flush=True)
        return
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
    deadline = time.monotonic() + TIMEOUT
    while True:
        try:
            proc.send_signal(sig)
        except ProcessLookupError:
            pass
        if phase != "after" or proc.poll() is not None \
           or time.monotonic() > deadline:
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
