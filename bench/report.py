#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Turn the RAW lines of a "./harness bench" run into a markdown report.

usage: report.py BENCH_OUT KUNIT_CONSOLE > report.md

The fields of a RAW line are described at the top of bench/guest/bench.sh.
"""
import re
import statistics
import sys
from collections import defaultdict

FIELDS = ("events cookies fullstacks frames bytes span_ns op_ns ops written overrun "
          "distinct successes fallbacks").split()
TFIELDS = ("secs bytes entries distinct frames_stored successes fallbacks memory capacity "
           "frame_capacity passes").split()
MODES = ("full", "map", "none")
# The earlier public figures, measured on real kernels with deeper stacks:
# ring-buffer bytes saved by the map, same workload and time.
PUBLIC = {"fs_kmalloc": "78%", "fs_function": "74%"}


def med(xs):
    return statistics.median(xs) if xs else float("nan")


def spread(xs, fmt="{:.0f}"):
    if not xs:
        return "-"
    return f"{fmt.format(med(xs))} ({fmt.format(min(xs))}-{fmt.format(max(xs))})"


def table(out, header, rows):
    out.append("| " + " | ".join(header) + " |")
    out.append("|" + "---|" * len(header))
    for row in rows:
        assert len(row) == len(header)
        out.append("| " + " | ".join(row) + " |")


def deep_report(out, timed, deep, disk, frames_by_wl):
    """The deep-stack workloads: what the map saves over a fixed time."""
    rows, mem = [], []
    for wl, modes in timed.items():
        rounds = sorted(set(modes["full"]) & set(modes["map"]) & set(modes["none"]))
        if not rounds or any(set(modes[m]) != set(rounds) for m in MODES):
            sys.exit(f"report.py: {wl}: not every timed round has the three modes")
        v = {m: {k: [modes[m][r][k] for r in rounds] for k in TFIELDS} for m in MODES}
        # An event and its stack are two entries; with no stacks, one.
        ev = {m: [e / (1 if m == "none" else 2) for e in v[m]["entries"]] for m in MODES}
        bpe = {m: [b / max(e, 1) for b, e in zip(v[m]["bytes"], ev[m])] for m in MODES}
        saved = [1 - m / f for m, f in zip(v["map"]["bytes"], v["full"]["bytes"])]
        saved_ev = [1 - m / f for m, f in zip(bpe["map"], bpe["full"])]
        secs = v["full"]["secs"][0]
        mib = "{:.2f}"
        rows.append([wl, f"{secs:.0f} s",
                     spread([b / 2**20 for b in v["full"]["bytes"]], mib),
                     spread([b / 2**20 for b in v["map"]["bytes"]], mib),
                     spread([b / 2**20 for b in v["none"]["bytes"]], mib),
                     spread([100 * x for x in saved], "{:.1f}") + " %",
                     PUBLIC.get(wl, "-"),
                     spread(ev["full"]), spread(ev["map"]),
                     spread(v["full"]["passes"]), spread(v["map"]["passes"]),
                     spread(v["none"]["passes"]),
                     spread(bpe["full"], "{:.1f}"), spread(bpe["map"], "{:.1f}"),
                     spread([100 * x for x in saved_ev], "{:.1f}") + " %"])
        stored = [fs / max(d, 1) for fs, d in zip(v["map"]["frames_stored"], v["map"]["distinct"])]
        # What one stored stack costs when stacks this deep fill the map: the
        # map's memory over the stacks it can hold (the frame pool may run out
        # before the elements do).
        per = [m / max(min(c, fc / max(d, 1)), 1) for m, c, fc, d in
               zip(v["map"]["memory"], v["map"]["capacity"], v["map"]["frame_capacity"], stored)]
        mem.append([wl, f"{frames_by_wl.get(wl, float('nan')):.1f}", spread(stored, "{:.1f}"),
                    spread(v["map"]["distinct"]), spread(v["map"]["successes"]),
                    spread(v["map"]["fallbacks"]), spread(per)])
    out.append("")
    out.append(f"Deep stacks: {deep}; disk: {disk}. Each workload traced for its time "
               "with a buffer that kept everything, all CPUs (the load's writeback, journal "
               "and disk interrupts run on both). Events kept and time span in the fixed "
               "buffer are the fs_ rows of the first table.")
    out.append("")
    table(out, ["workload", "traced", "ring-buffer MiB, full", "map", "none",
                "saved by the map", "published", "events full", "map",
                "load passes full", "map", "none",
                "bytes per event+stack, full", "map", "saved per event"], rows)
    out.append("")
    out.append("saved by the map: 1 - bytes map/full over the same time; published: the "
               "earlier public figure, the same comparison on a real kernel with deeper "
               "stacks. Saved per event: the same from bytes per "
               "event and its stack, which does not depend on how much work each mode "
               "got through in its time. An event and its stack record are two ring-buffer "
               "entries, so events = entries / 2 in full and map mode. Load passes: the folders "
               "the load got through in the time.")
    out.append("")
    table(out, ["workload", "frames per stack (kept events)", "frames per stored stack",
                "distinct stacks", "cookies (successes)", "fallbacks",
                "bytes per stored stack, map full of such stacks"], mem)
    out.append("")
    out.append("bytes per stored stack: the map's memory over the stacks of this depth it "
               "can hold, the elements or the frame pool (16 frames per element on average) "
               "running out first.")


MICRO_RE = re.compile(r"stackmap_bench: depth (\d+) frames, (\d+) stacks, (full|map): "
                      r"(\d+) \((\d+)-(\d+)\) per stack, (\d+) passes of (\d+)")


def micro_report(out, guest_out, console):
    """The recording path alone (bench/modules/stackmap_bench): full against map."""
    stored = {}     # (frames asked, stacks) -> MICRO fields
    for line in open(guest_out, errors="replace"):
        p = line.split()
        if p[:1] == ["MICRO"] and len(p) == 7:
            stored[(int(p[1]), int(p[2]))] = list(map(int, p[3:]))
    if not console or not stored:
        return
    got = defaultdict(dict)     # (stacks asked, order seen) -> mode -> fields
    order = []
    for line in open(console, errors="replace"):
        m = MICRO_RE.search(line)
        if m:
            depth, nstacks, mode = int(m.group(1)), int(m.group(2)), m.group(3)
            if (depth, nstacks) not in order:
                order.append((depth, nstacks))
            got[(depth, nstacks)][mode] = [int(m.group(i)) for i in range(4, 9)]
    rows = []
    for (depth, nstacks), asked in zip(order, sorted(stored)):
        modes = got[(depth, nstacks)]
        if set(modes) != {"full", "map"}:
            sys.exit(f"report.py: micro-benchmark: {depth} frames, {nstacks} stacks: "
                     f"modes {sorted(modes)}, not full and map")
        f, mp = modes["full"], modes["map"]
        entries, frames, successes, fallbacks = stored[asked]
        rows.append([str(depth), str(nstacks), f"{f[0]} ({f[1]}-{f[2]})",
                     f"{mp[0]} ({mp[1]}-{mp[2]})", f"{mp[0] / f[0]:.2f}x",
                     str(entries), f"{frames / entries:.1f}" if entries else "-",
                     str(fallbacks)])
    out.append("")
    out.append("Recording path alone (bench/modules/stackmap_bench, trace_dump_stack() from a "
               "kthread; median (min-max) time per stack over the timed passes, less the "
               "same walk with no stack recorded):")
    out.append("")
    table(out, ["frames", "stacks", "full", "map", "map/full", "stacks stored",
                "frames per stored stack", "fallbacks"], rows)


def main():
    runs = defaultdict(lambda: defaultdict(dict))   # wl -> mode -> round -> fields
    timed = defaultdict(lambda: defaultdict(dict))  # the same for the RAWT lines
    fmt, head, deep, disk = {}, "", "", ""
    for n, line in enumerate(open(sys.argv[1], errors="replace"), 1):
        line = line.strip()
        if line.startswith("bench: deep"):
            deep = line[len("bench: "):]
        elif line.startswith("bench: ") and not head:
            head = line[len("bench: "):]
        if line.startswith("DISK "):
            disk = line[len("DISK "):]
        if line.startswith("FORMAT "):
            fmt[line.split()[1]] = int(line.split()[2])
        if line.startswith("RAWT "):
            p = line.split()
            if len(p) != 4 + len(TFIELDS) or p[2] not in MODES:
                sys.exit(f"report.py: {sys.argv[1]}:{n}: not a RAWT line of this version: {line}")
            if int(p[3]) == 0:
                continue
            timed[p[1]][p[2]][int(p[3])] = dict(zip(TFIELDS, map(float, p[4:])))
            continue
        if not line.startswith("RAW "):
            continue
        p = line.split()
        if len(p) != 4 + len(FIELDS) or p[2] not in MODES:
            sys.exit(f"report.py: {sys.argv[1]}:{n}: not a RAW line of this version: {line}")
        wl, mode, rnd = p[1], p[2], int(p[3])
        if rnd == 0:    # the warm-up round
            continue
        if rnd in runs[wl][mode]:
            sys.exit(f"report.py: {sys.argv[1]}:{n}: {wl} {mode} round {rnd} twice")
        runs[wl][mode][rnd] = dict(zip(FIELDS, map(float, p[4:])))
    if not runs:
        sys.exit("report.py: no RAW lines in " + sys.argv[1])
    if set(fmt) != {"kernel_stack_id", "kernel_stack"}:
        sys.exit("report.py: the FORMAT lines are missing from " + sys.argv[1])
    # Ring buffer records have a 4-byte header up to 112 bytes of payload.
    cookie_rec = fmt["kernel_stack_id"] + 4
    frames_at = fmt["kernel_stack"] + 4
    assert cookie_rec - 4 <= 112

    out = [f"Kernel and setup: {head}. Medians over the rounds, (min-max) after them.",
           "Modes: full = stacktrace as today, map = with options/stackmap, none = no stacks.",
           f"Record sizes from the event formats: a cookie record is {cookie_rec} bytes, "
           f"a full stack record {frames_at} + 8 per frame ({frames_at + 4} + 8 from 13 "
           "frames on).", ""]
    space, cost, warn, frames_by_wl = [], [], [], {}
    f1, f2 = "{:.1f}", "{:.2f}"
    for wl, modes in runs.items():
        rounds = sorted(set(modes["full"]) & set(modes["map"]) & set(modes["none"]))
        if not rounds or any(set(modes[m]) != set(rounds) for m in MODES):
            sys.exit(f"report.py: {wl}: not every round has the three modes")
        v = {m: {k: [modes[m][r][k] for r in rounds] for k in FIELDS} for m in MODES}
        bpe = {m: [b / max(e, 1) for b, e in zip(v[m]["bytes"], v[m]["events"])] for m in MODES}
        rec_full = [f - n for f, n in zip(bpe["full"], bpe["none"])]
        rec_map = [m - n for m, n in zip(bpe["map"], bpe["none"])]
        frames = [fr / max(fs, 1) for fr, fs in zip(v["full"]["frames"], v["full"]["fullstacks"])]
        limit = [f / (n + cookie_rec) for f, n in zip(bpe["full"], bpe["none"])]

        def ratio(a, b, k):
            return [x / max(y, 1) for x, y in zip(v[a][k], v[b][k])]

        # Time one stack costs: the extra time per operation over "none",
        # times operations per run, over the events a "none" run writes.
        def per_stack(m):
            return [(t - tn) * ops / max(w, 1) for t, tn, ops, w in
                    zip(v[m]["op_ns"], v["none"]["op_ns"], v["none"]["ops"], v["none"]["written"])]

        space.append([wl, spread(bpe["full"], f1), spread(bpe["map"], f1), spread(bpe["none"], f1),
                      spread(rec_full, f1), spread(rec_map, f1), spread(frames, f1),
                      f"{med(limit):.2f}x", spread(ratio("map", "full", "events"), f2) + "x",
                      spread(ratio("map", "full", "bytes"), "{:.3f}"),
                      spread(ratio("map", "full", "span_ns"), f2) + "x"])
        frames_by_wl[wl] = med(frames)
        if not med(v["none"]["ops"]):
            continue    # a timed workload: no operations to time
        cost.append([wl, spread(per_stack("full")), spread(per_stack("map")),
                     spread(ratio("full", "none", "op_ns"), f2),
                     spread(ratio("map", "none", "op_ns"), f2),
                     spread(v["map"]["distinct"]), spread(v["map"]["successes"]),
                     spread(v["map"]["fallbacks"]), spread(v["map"]["fullstacks"])])
        for m in MODES:
            for r in rounds:
                x = modes[m][r]
                if x["overrun"] == 0:
                    warn.append(f"{wl} {m} round {r} did not fill the buffer: its retained "
                                "and span figures say nothing")
                if m != "map" and x["cookies"]:
                    warn.append(f"{wl} {m} round {r} recorded {x['cookies']:.0f} cookies")
                if m == "full" and not x["fullstacks"]:
                    warn.append(f"{wl} full round {r} recorded no stack")

    table(out, ["workload", "bytes per event+stack, full", "map", "event alone",
                "stack record full", "map", "frames per stack", "limit",
                "events kept map/full", "buffer bytes map/full", "time span kept map/full"],
          space)
    out.append("")
    out.append(f"limit: the ratio of events kept that the record sizes allow, (event + full "
               f"stack) / (event + {cookie_rec}-byte cookie record); buffer bytes: how full "
               "the buffer was at the end (overwrite mode drops whole pages, and the page "
               "being written is partly filled).")
    out.append("")
    table(out, ["workload", "time per stack, full", "map", "time per operation full/none",
                "map/none", "distinct stacks", "cookies (successes)", "fallbacks",
                "full stacks in map mode"], cost)
    out.append("")
    out.append("time per stack: the time an operation takes over its time with no stacks, "
               "spread over the events traced; it includes unwinding the stack. Distinct "
               "stacks, successes and fallbacks are the whole map's, all CPUs; full stacks "
               "in map mode are those in the measured buffer.")
    if timed:
        deep_report(out, timed, deep, disk, frames_by_wl)
    if warn:
        out.append("")
        out.extend("WARNING: " + w for w in warn)

    micro_report(out, sys.argv[1], sys.argv[2] if len(sys.argv) > 2 else None)
    print("\n".join(out))


main()
