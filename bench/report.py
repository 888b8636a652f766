#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Turn the RAW lines of a "./harness bench" run into a markdown report.

usage: report.py BENCH_OUT KUNIT_CONSOLE > report.md
"""
import re
import statistics
import sys
from collections import defaultdict

FIELDS = "events stacks bytes span_ns op_ns distinct successes fallbacks".split()


def med(xs):
    return statistics.median(xs) if xs else float("nan")


def spread(xs, fmt="{:.0f}"):
    if not xs:
        return "-"
    return f"{fmt.format(med(xs))} ({fmt.format(min(xs))}-{fmt.format(max(xs))})"


def main():
    runs = defaultdict(lambda: defaultdict(dict))   # wl -> mode -> round -> fields
    head = ""
    for line in open(sys.argv[1], errors="replace"):
        line = line.strip()
        if line.startswith("bench: "):
            head = line[len("bench: "):]
        if not line.startswith("RAW "):
            continue
        p = line.split()
        wl, mode, rnd = p[1], p[2], int(p[3])
        runs[wl][mode][rnd] = dict(zip(FIELDS, map(float, p[4:])))
    if not runs:
        sys.exit("report.py: no RAW lines in " + sys.argv[1])

    out = []
    out.append(f"Kernel and setup: {head}. Medians over the rounds, (min-max) after them.")
    out.append("Modes: full = stacktrace as today, map = with options/stackmap, none = no stacks.")
    out.append("")
    out.append("| workload | bytes/event pair full | map | none | stack record full | map "
               "| retained map/full | span map/full | limit | distinct | successes | fallbacks "
               "| time/op full/none | map/none |")
    out.append("|" + "---|" * 15)
    for wl, modes in runs.items():
        rounds = sorted(set(modes["full"]) & set(modes["map"]) & set(modes["none"]))
        bpe = {m: [modes[m][r]["bytes"] / max(modes[m][r]["events"], 1) for r in rounds]
               for m in ("full", "map", "none")}
        rec_full = [f - n for f, n in zip(bpe["full"], bpe["none"])]
        rec_map = [m - n for m, n in zip(bpe["map"], bpe["none"])]
        ret = [modes["map"][r]["events"] / max(modes["full"][r]["events"], 1) for r in rounds]
        span = [modes["map"][r]["span_ns"] / max(modes["full"][r]["span_ns"], 1) for r in rounds]
        limit = [f / (n + 20) for f, n in zip(bpe["full"], bpe["none"])]
        t_full = [modes["full"][r]["op_ns"] / max(modes["none"][r]["op_ns"], 1) for r in rounds]
        t_map = [modes["map"][r]["op_ns"] / max(modes["none"][r]["op_ns"], 1) for r in rounds]
        mp = lambda k: [modes["map"][r][k] for r in rounds]
        f1, f2 = "{:.1f}", "{:.2f}"
        out.append(f"| {wl} | {spread(bpe['full'], f1)} | {spread(bpe['map'], f1)} "
                   f"| {spread(bpe['none'], f1)} | {spread(rec_full, f1)} | {spread(rec_map, f1)} "
                   f"| {spread(ret, f2)}x | {spread(span, f2)}x | {med(limit):.2f}x "
                   f"| {spread(mp('distinct'))} | {spread(mp('successes'))} | {spread(mp('fallbacks'))} "
                   f"| {spread(t_full, f2)} | {spread(t_map, f2)} |")
    out.append("")
    out.append("limit: the retained ratio the record sizes allow, "
               "(event + full stack) / (event + 20-byte cookie record).")

    bench = []
    if len(sys.argv) > 2:
        for line in open(sys.argv[2], errors="replace"):
            m = re.search(r"# stackmap_bench: (.*)$", line)
            if m:
                bench.append(m.group(1).strip())
    if bench:
        out.append("")
        out.append("Map micro-benchmark (KUnit ftrace_stackmap_bench, 16-frame stacks, TCG):")
        out.append("")
        for b in bench:
            out.append("    " + b)
    print("\n".join(out))


main()
