#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""toolfuzz.py --binary PATH --seconds N --workdir DIR [--seed S] [--jobs J]

Fuzz the stackmap tool (tools/tracing/stackmap), built with
-fsanitize=address,undefined -fno-sanitize-recover=all, on the host. Run I
makes its inputs from "SEED:I" alone (lib/toolfuzz_gen.py: kallsyms, text
and raw dumps, traces, folded stacks, most of them mutated). It runs
resolve, folded, top, -r, flamegraph, a dump twice, the raw and text dumps
of one generation together, a directory of dumps (5 s of CPU time each).

A finding is a sanitizer report, a death by signal, a run over its CPU time
(a loop) or over 120 s of wall time (a run that blocks), or an exit status
other than 0, 1, 2. CPU time, not wall time: a busy host (the fuzz runs
beside the kernel's boots) makes no finding. The first run of each (by the top frame of the
report) is kept in DIR/findings/NNN (emptied first): its inputs, stderr and
cmd.sh to replay it. Leaks are not findings: each run is a short command
that exits. Prints one KTAP part, "toolfuzz", for lib/ktap.py.
Exit status: 0 without a finding, 1 with one, 2 on bad usage.
"""
import argparse
import os
import random
import re
import resource
import shlex
import shutil
import signal
import subprocess
import sys
import threading
import time

from toolfuzz_gen import make_case

CPU_LIMIT = 5
WALL_LIMIT = 120

ENV = {"ASAN_OPTIONS": "detect_leaks=0:abort_on_error=1",
       "UBSAN_OPTIONS": "halt_on_error=1:print_stacktrace=1"}


def finding_key(rc, err, kind):
    """What a run found, as the key to dedupe on: the kind of report and its
    top frame outside the sanitizer runtime; None if nothing."""
    asan = re.search(r"ERROR: (AddressSanitizer|LeakSanitizer): ([\w-]+)", err)
    ubsan = re.search(r"^(\S+?):(\d+):\d+: runtime error: (.*)", err, re.M)
    if asan:
        for fn, loc in re.findall(r"#\d+ 0x[0-9a-f]+ in (\S+) (\S+)", err):
            if not re.search(r"sanitizer|asan_|ubsan_", loc):
                loc = re.sub(r"(:\d+)(:\d+)?$", r"\1", os.path.basename(loc))
                return "%s: %s in %s %s" % (asan.group(1), asan.group(2), fn, loc)
        return "%s: %s" % asan.groups()
    if ubsan:
        return "UBSan: %s at %s:%s" % (re.sub(r"-?\d+", "N", ubsan.group(3))[:60],
                                       os.path.basename(ubsan.group(1)), ubsan.group(2))
    if rc is None:
        return "timeout (%d s of wall time) in %s" % (WALL_LIMIT, kind)
    if rc == -signal.SIGXCPU:
        return "over %d s of CPU time in %s" % (CPU_LIMIT, kind)
    if rc < 0 or rc > 2:
        return "%s %d in %s" % ("signal" if rc < 0 else "exit status", abs(rc), kind)
    return None


def limits():
    """In the child: CPU_LIMIT seconds of CPU time, then SIGXCPU; no core."""
    resource.setrlimit(resource.RLIMIT_CPU, (CPU_LIMIT, CPU_LIMIT + 1))
    resource.setrlimit(resource.RLIMIT_CORE, (0, 0))


def run(args, i, rundir):
    """Run I in @rundir: its command line, stderr and finding key."""
    files, argv, kind = make_case(random.Random("%d:%d" % (args.seed, i)))
    shutil.rmtree(rundir, ignore_errors=True)
    os.makedirs(rundir)
    for name, data in files.items():
        with open(os.path.join(rundir, name), "wb") as f:
            f.write(data)
    try:
        p = subprocess.run([args.binary] + argv, cwd=rundir, env=dict(os.environ, **ENV),
                           stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL,
                           stderr=subprocess.PIPE, timeout=WALL_LIMIT, preexec_fn=limits)
        rc, err = p.returncode, p.stderr
    except subprocess.TimeoutExpired as e:
        rc, err = None, e.stderr or b""
    err = err.decode(errors="replace")
    return argv, err, finding_key(rc, err, kind)


def save(args, d, key, i, rundir, argv, err):
    """Keep the inputs of a finding in @d, with its stderr and cmd.sh to replay it."""
    shutil.copytree(rundir, d)
    with open(os.path.join(d, "stderr"), "w") as f:
        f.write(err)
    with open(os.path.join(d, "cmd.sh"), "w") as f:
        f.write("#!/bin/sh\n# %s\n# toolfuzz seed %d, run %d\ncd \"$(dirname \"$0\")\" &&\n"
                "ulimit -t %d && %s exec %s\n" % (key, args.seed, i, CPU_LIMIT,
                   " ".join("%s=%s" % kv for kv in ENV.items()),
                   shlex.join([args.binary] + argv)))
    os.chmod(os.path.join(d, "cmd.sh"), 0o755)


def main():
    ap = argparse.ArgumentParser(usage=__doc__.splitlines()[0].replace("toolfuzz.py", "%(prog)s"),
                                 description=__doc__.split("\n", 2)[2],
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--binary", required=True, help="the sanitizer build of stackmap")
    ap.add_argument("--seconds", type=float, required=True, help="wall time to fuzz for")
    ap.add_argument("--workdir", required=True, help="for findings/ (and runs/, removed)")
    ap.add_argument("--seed", type=int, default=20240601, help="default %(default)s")
    ap.add_argument("--jobs", type=int, default=1, help="runs at a time (default 1)")
    args = ap.parse_args()
    args.binary = os.path.abspath(args.binary)
    if not os.access(args.binary, os.X_OK):
        ap.error("%s: not an executable" % args.binary)
    print("=== PART toolfuzz\nKTAP version 1", flush=True)
    for sub in ("runs", "findings"):
        shutil.rmtree(os.path.join(args.workdir, sub), ignore_errors=True)
    os.makedirs(os.path.join(args.workdir, "findings"))
    lock, counter, found = threading.Lock(), [0, 0], {}  # [next run, runs done]; key: [dir, runs]
    start = time.monotonic()

    def worker(w):
        """Runs one at a time until the deadline, in a directory of its own."""
        rundir = os.path.join(args.workdir, "runs", str(w))
        while time.monotonic() < start + args.seconds:
            with lock:
                i, counter[0] = counter[0], counter[0] + 1
            argv, err, key = run(args, i, rundir)
            with lock:
                counter[1] += 1
                if key in found:
                    found[key][1] += 1
                elif key:
                    d = os.path.join(args.workdir, "findings", "%03d" % (len(found) + 1))
                    found[key] = [d, 1]
                    save(args, d, key, i, rundir, argv, err)

    threads = [threading.Thread(target=worker, args=(w,)) for w in range(max(1, args.jobs))]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    shutil.rmtree(os.path.join(args.workdir, "runs"), ignore_errors=True)
    secs = time.monotonic() - start
    print("# toolfuzz: %d runs in %.0f s, seed %d" % (counter[1], secs, args.seed))
    print("# figure: toolfuzz: %.1f runs/s with %d jobs" % (counter[1] / secs, args.jobs))
    print("%s 1 tool fuzz" % ("not ok" if found else "ok"))
    for key, (d, count) in sorted(found.items(), key=lambda kv: kv[1][0]):
        print("# %s: %s (%d runs)" % (d, key.replace("#", "_"), count))
    print("1..1\n# Totals: pass:%d fail:%d xfail:0 xpass:0 skip:0 error:0"
          % (not found, bool(found)))
    return 1 if found else 0


if __name__ == "__main__":
    sys.exit(main())
