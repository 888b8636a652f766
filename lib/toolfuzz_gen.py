# SPDX-License-Identifier: GPL-2.0
"""The inputs of lib/toolfuzz.py: make_case(rng) makes the files of one run
and its command line, from the random generator alone.

Made: kallsyms with modules, text and raw dumps of two generations (either
byte order, 32- or 64-bit words, text dumps with or without a boot id), a
trace (trace file, latency or trace-cmd report format), folded stacks. Most
runs mutate one or two of them: truncation, bit flips, bytes that mean
something to the parsers (NULs and invalid UTF-8 too), deletions, splices,
numbers and words at boundary values, long lines, repeated lines.
"""
import re
import struct

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
    """The frame line the tool makes of @ip, so that raw and text dumps mostly
    agree (where they do not, the tool refuses them: exit 2, no finding)."""
    special = {0: " => 0", 0x7fffffff: " => [FTRACE TRAMPOLINE]"}
    below = [s[0] for s in syms if s[0] <= ip]
    if ip in special or not below:
        return special.get(ip, " => 0x%x" % ip)
    sym = next(s for s in syms if s[0] == max(below))
    ends = [s[0] for s in syms if s[0] > sym[0]]
    if sym[1] == "__kretprobe_trampoline" and ip == sym[0]:
        return " => [unknown/kretprobe'd]"
    if not ends:
        return " => 0x%x" % ip
    return " => %s+0x%x/0x%x%s" % (sym[1], ip - sym[0], min(ends) - sym[0],
                                   " [%s]" % sym[2] if sym[2] else "")


def gen_stacks(rng, syms):
    """(slot, ref, ips) of the stacks of one generation; a few odd frames."""
    return [(slot, rng.choice([0, 1, 7, 1000]),
             [rng.choice([0, 0x7fffffff, 0x1234]) if rng.random() < 0.03 else
              rng.choice(syms)[0] + rng.randrange(0x200) for _ in range(rng.choice([1, 5, 64]))])
            for slot in rng.sample(range(4096), rng.randint(1, 8))]


def text_dump(syms, gen, stacks, boot=b""):
    return (b"# boot_id: %s\n" % boot if boot else b"") + "".join("stack_id %d gen %d ref %d depth %d\n" % (slot, gen, ref, len(ips)) +
                   "".join(frame(syms, ip) + "\n" for ip in ips)
                   for slot, ref, ips in stacks).encode()


def uuid(b):
    h = b.hex().encode()
    return b"-".join([h[:8], h[8:12], h[12:16], h[16:20], h[20:]])

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
        files["d%d.txt" % n] = text_dump(syms, gen, stacks, uuid(boot) if rng.random() < 0.5 else b"")
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
        if rng.random() < 0.1:  # a directory of dumps
            used = ["."]
        if kind == "twice":  # one dump twice, maybe with another
            used = [used[0]] * 2 + used[1:2] if used else ["d1.txt", "d1.txt"]
        elif kind == "mixed":  # the raw and the text dump of one generation
            used = rng.sample(["d1.bin", "d1.txt"], 2)
        opts = {"resolve": [["-c"], ["-O"]], "top": [["-n", "3"], ["-b", "pid"]],
                "folded": [["-b", "comm"], ["-b", "event"], ["-b", "cpu"], ["-O"]]}[cmd]
        argv = [cmd] + (["-k", "k"] if rng.random() < 0.9 else [])
        argv += [a for d in used for a in ("-d", d)]
        argv += [a for o in opts if rng.random() < 0.3 for a in o]
        argv += ["-r"] if kind == "refs" else ["t"]
    names = sorted(set(argv) & set(files) | (set(dumps) if "." in argv else set()))
    if rng.random() < 0.8:
        for name in rng.sample(names, min(len(names), rng.choice([1, 1, 2]))):
            files[name] = mutate(rng, files[name], files[rng.choice(list(files))])
    return {n: files[n] for n in names}, argv, kind
