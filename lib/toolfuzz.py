#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""toolfuzz.py --binary PATH --seconds N --workdir DIR [--seed S] [--jobs J]

Fuzz the stackmap tool (tools/tracing/stackmap), built with
-fsanitize=address,undefined -fno-sanitize-recover=all, on the host. Run I
makes its inputs from "SEED:I" alone: kallsyms with modules, text and raw
dumps of two generations (either byte order, 32- or 64-bit words), a trace
(trace file, latency or trace-cmd report format), folded stacks; most runs
mutate one or two of them. It runs resolve, folded, top, -r, flamegraph, a
dump twice, the raw and text dumps of one generation together (5 s each).

A finding is a sanitizer report, a death by signal, a timeout or an exit
status other than 0, 1, 2. The first run of each (by the top frame of the
report) is kept in DIR/findings/NNN (emptied first): its inputs, stderr and
cmd.sh to replay it. Leaks are not findings: each run is a short command
that exits. Prints one KTAP part, "toolfuzz", for lib/ktap.py.
Exit status: 0 without a finding, 1 with one, 2 on bad usage.
"""
import argparse
import os
import random
import re
import shlex
import shutil
import struct
import subprocess
import sys
import threading
import time

TIMEOUT = 5
ENV = {"ASAN_OPTIONS": "detect_leaks=0:abort_on_error=1",
       "UBSAN_OPTIONS": "halt_on_error=1:print_stacktrace=1"}
NAMES = ["__schedule", "schedule", "vfs_read", "do_syscall_64", "__kretprobe_trampoline"]
COMMS = ["sleep", "<idle>", "kworker/0:1", "a b", "x-y-z"]
# Values at the edges of a u32, an unsigned long long, a long.
NUMBERS = [b"0", b"-1", b"2147483647", b"4294967295", b"4294967296",
           b"18446744073709551615", b"18446744073709551616", b"0x7fffffff"]
WORDS = [0, 1, 0x7fffffff, 0xffffffff, 1 << 32, (1 << 64) - 1]
# Bytes that mean something to the parsers, NULs and invalid UTF-8.
JUNK = [b"\0", b"\n", b" ", b" => ", b"[", b"]", b";", b"<", b">", b"-",
        b"<stack_id 1 gen 1>", b"\xff\xfe", b"\xc0\x80", b"\xed\xa0\x80"]


def gen_syms(rng, wsize):
    """kallsyms entries (addr, name, module) in line order."""
    base, mbase = (0xffffffff81000000, 0xffffffffc0000000) if wsize == 8 else \
        (0xc1000000, 0xf8000000)
    names = [rng.choice(NAMES) for _ in range(rng.randint(2, 30))] + ["_etext"]
    syms = [(a, n if n in ("__kretprobe_trampoline", "_etext") else "%s_%d" % (n, i), None)
            for i, (a, n) in enumerate(zip(sorted(rng.sample(range(base, base + 0x20000, 16),
                                                             len(names))), names))]
    for m, mod in enumerate(rng.sample(["ext4", "xfs", "kvm"], rng.randint(0, 2))):
        syms += [(mbase + m * 0x100000 + 0x80 * i, "%s_fn%d" % (mod, i), mod)
                 for i in range(rng.randint(1, 6))]
    if rng.random() < 0.3:  # an alias, after the name it aliases
        syms.append((syms[0][0], "alias_0", None))
    return syms


def frame(syms, ip):
    """The frame line the tool makes of @ip, so that raw and text dumps agree:
    the first symbol at the highest address <= ip, up to the next higher
    symbol of its module (the last one of a module has no end)."""
    special = {0: " => 0", 0x7fffffff: " => [FTRACE TRAMPOLINE]"}
    below = [s[0] for s in syms if s[0] <= ip]
    if ip in special or not below:
        return special.get(ip, " => 0x%x" % ip)
    sym = next(s for s in syms if s[0] == max(below))
    ends = [s[0] for s in syms if s[0] > sym[0] and s[2] == sym[2]]
    if not ends or ip >= min(ends):
        return " => 0x%x" % ip
    if sym[1] == "__kretprobe_trampoline":
        return " => [unknown/kretprobe'd]"
    return " => %s+0x%x/0x%x%s" % (sym[1], ip - sym[0], min(ends) - sym[0],
                                   " [%s]" % sym[2] if sym[2] else "")


def gen_stacks(rng, syms):
    """(slot, ref, ips) of the stacks of one generation; a few odd frames."""
    return [(slot, rng.choice([0, 1, 7, 1000]),
             [rng.choice([0, 0x7fffffff, 0x1234]) if rng.random() < 0.03 else
              rng.choice(syms)[0] + rng.randrange(0x200) for _ in range(rng.choice([1, 5, 64]))])
            for slot in rng.sample(range(4096), rng.randint(1, 8))]


def text_dump(syms, gen, stacks):
    return "".join("stack_id %d gen %d ref %d depth %d\n" % (slot, gen, ref, len(ips)) +
                   "".join(frame(syms, ip) + "\n" for ip in ips)
                   for slot, ref, ips in stacks).encode()


def bin_dump(rng, gen, stacks, wsize, boot_id):
    """stack_map_bin (parse_bin()): a header of 56 bytes or more, records of
    slot, gen, ref, depth and the frames' words, and an end record."""
    e, w, hsize = rng.choice("<>"), "I" if wsize == 4 else "Q", rng.choice([56, 64])
    out = b"STACKMAP" + struct.pack(e + "8I", 1, hsize, wsize, 0x01020304, gen,
                                    len(stacks), rng.choice([0, 1]), 0)
    out += boot_id + b"\0" * (hsize - 56)
    for slot, ref, ips in stacks:
        out += struct.pack(e + "4I", slot, gen, ref, len(ips))
        out += b"".join(struct.pack(e + w, ip % (1 << 8 * wsize)) for ip in ips)
    return out + struct.pack(e + "4I", 0xffffffff, gen, 0, 0)


def gen_trace(rng, syms, gens):
    """A trace in one format: events, cookies (some of no dump), cookies with
    the frames the kernel printed, full stacks."""
    fmt, lines = rng.choice(["trace", "latency", "report"]), ["# tracer: nop", "#"]
    for _ in range(rng.randint(1, 30)):
        comm, pid, cpu = rng.choice(COMMS), rng.randint(0, 99999), rng.randint(0, 9000)
        ts = "%d.%06d" % (rng.randint(0, 99999), rng.randint(0, 999999))
        head = {"trace": "%16s-%-7d [%03d] d..2. %s: " % (comm, pid, cpu, ts),
                "latency": "%8s-%-5d %dd..2 %4dus : " % (comm, pid, cpu % 8, pid % 999),
                "report": "%16s-%-7d [%03d] %s: kernel_stack_id: " % (comm, pid, cpu, ts)}[fmt]
        (gen, stacks), what = rng.choice(gens), rng.choice(["event", "cookie", "printed", "full"])
        slot, _, ips = rng.choice(stacks)
        if what == "event":
            lines.append(head + "sched_switch: prev_comm=%s prev_pid=%d" % (comm, pid))
            continue
        if rng.random() < 0.2:  # no dump has it
            slot, gen = rng.choice([(slot + 4096, gen), (slot, gen + 7)])
        lines.append(head + ("<stack trace>" if what == "full" else "<stack_id %d gen %d>%s" % (
            slot, gen, " [unresolved]" if rng.random() < 0.1 else "")))
        if what != "cookie":
            lines += ["   => %s (%016x)" % (frame(syms, ip)[4:].split("+")[0], ip)
                      if fmt == "report" else frame(syms, ip) for ip in ips]
    return ("\n".join(lines) + "\n").encode()


def mutate(rng, data, other):
    """One to three random changes to @data; @other is spliced in."""
    for _ in range(rng.randint(1, 3)):
        n, op, i = len(data), rng.randrange(9), rng.randint(0, len(data))
        if op == 0:  # truncate
            data = data[:i]
        elif op == 1:  # flip bits
            data = bytearray(data)
            for k in rng.sample(range(n), min(n, rng.randint(1, 8))):
                data[k] ^= 1 << rng.randrange(8)
            data = bytes(data)
        elif op == 2:  # insert bytes (NULs and invalid UTF-8 too)
            data = data[:i] + rng.choice(JUNK) * rng.randint(1, 3) + data[i:]
        elif op == 3:  # delete bytes
            data = data[:i] + data[i + rng.randint(1, 64):]
        elif op == 4:  # splice two inputs
            data = data[:i] + other[rng.randint(0, len(other)):]
        elif op == 5:  # a number of the text at a boundary value
            nums = list(re.finditer(rb"\d+", data))
            if nums:
                m = rng.choice(nums)
                data = data[:m.start()] + rng.choice(NUMBERS) + data[m.end():]
        elif op == 6 and n >= 8:  # a word of a binary dump at a boundary value
            i, w = rng.randrange(0, n - 7, 4), rng.choice(WORDS)
            word = struct.pack(rng.choice("<>") + ("Q" if w >> 32 else rng.choice("IQ")), w)
            data = data[:i] + word + data[i + len(word):]
        elif op == 7:  # a long line
            data = data[:i] + rng.choice([b"A", b"x;", b" => f"]) * \
                rng.choice([300, 5000, 70000]) + data[i:]
        elif op == 8:  # many frames: a line repeated (1 MB at most)
            lines = data.split(b"\n")
            k = rng.randrange(len(lines))
            lines[k:k + 1] = [lines[k]] * min(rng.choice([64, 65, 1025, 5000]),
                                              (1 << 20) // (len(lines[k]) + 1) + 1)
            data = b"\n".join(lines)
    return data


def make_case(rng):
    """The input files of a run, and its command line (relative to them)."""
    wsize = rng.choice([4, 8])
    syms, boot = gen_syms(rng, wsize), bytes(rng.randrange(256) for _ in range(16))
    g1 = rng.choice([0, 1, 5, 0xfffffffe])
    gens = [(g1, gen_stacks(rng, syms)), (g1 + 1, gen_stacks(rng, syms))]
    files = {"k": "".join("%0*x %s %s%s\n" % (2 * wsize, a, rng.choice("TtWd"), name,
                                               " [%s]" % m if m else "")
                          for a, name, m in syms).encode(),
             "t": gen_trace(rng, syms, gens),
             "f": b"".join(b"%s %d\n" % (";".join(rng.choice(syms)[1] for _ in range(
                 rng.randint(1, 10))).encode(), rng.choice([1, 1000])) for _ in range(9))}
    for n, (gen, stacks) in enumerate(gens, 1):
        files["d%d.txt" % n] = text_dump(syms, gen, stacks)
        files["d%d.bin" % n] = bin_dump(rng, gen, stacks, wsize,
                                        boot if rng.random() < 0.95 else bytes(16))
    dumps = sorted(f for f in files if f.startswith("d"))
    kind = rng.choice(["resolve", "folded", "top", "refs", "flamegraph", "twice", "mixed"])
    if kind == "flamegraph":
        argv = ["flamegraph"] + (["--title", "<&\"'>"] if rng.random() < 0.2 else []) + ["f"]
    else:
        cmd = kind if kind in ("resolve", "folded", "top") else \
            rng.choice(["folded", "top"] + (["resolve"] if kind != "refs" else []))
        used = rng.sample(dumps, rng.randint(1 if kind == "refs" else 0, 3))
        if kind == "twice":  # one dump twice, maybe with another
            used = [used[0]] * 2 + used[1:2] if used else ["d1.txt", "d1.txt"]
        elif kind == "mixed":  # the raw and the text dump of one generation
            used = rng.sample(["d1.bin", "d1.txt"], 2)
        opts = {"resolve": [["-c"]], "folded": [["-b", "comm"], ["-b", "event"], ["-O"]],
                "top": [["-n", "3"], ["-n", "1"]]}[cmd]
        argv = [cmd] + (["-k", "k"] if rng.random() < 0.9 else [])
        argv += [a for d in used for a in ("-d", d)]
        argv += [a for o in opts if rng.random() < 0.3 for a in o]
        argv += ["-r"] if kind == "refs" else ["t"]
    names = sorted(set(argv) & set(files))
    if rng.random() < 0.8:
        for name in rng.sample(names, min(len(names), rng.choice([1, 1, 2]))):
            files[name] = mutate(rng, files[name], files[rng.choice(list(files))])
    return {n: files[n] for n in names}, argv, kind


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
        return "timeout (%d s) in %s" % (TIMEOUT, kind)
    if rc < 0 or rc > 2:
        return "%s %d in %s" % ("signal" if rc < 0 else "exit status", abs(rc), kind)
    return None


def run(args, i, rundir):
    """Run I in @rundir: its command line, stderr and finding key."""
    files, argv, kind = make_case(random.Random("%d:%d" % (args.seed, i)))
    shutil.rmtree(rundir, ignore_errors=True)
    os.makedirs(rundir)
    for name, data in files.items():
        with open(os.path.join(rundir, name), "wb") as f:
            f.write(data)
    for _ in range(2):  # a timeout counts if a second try times out too: a busy host
        try:
            p = subprocess.run([args.binary] + argv, cwd=rundir, env=dict(os.environ, **ENV),
                               stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL,
                               stderr=subprocess.PIPE, timeout=TIMEOUT)
            rc, err = p.returncode, p.stderr
            break
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
                "%s exec %s\n" % (key, args.seed, i, " ".join("%s=%s" % kv for kv in ENV.items()),
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
