#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""The headline figures of two benchmark reports side by side.

usage: bench/side.py A.md B.md [LABEL_A LABEL_B]

A and B are results.md files of ./harness bench (bench/report.py), e.g. of
x86_64 and arm64. For each workload both measured: bytes per event and its
stack in full and as a cookie, frames per stack, events kept map/full, the
time (guest instructions under -icount) per stack, and what one stored
stack costs; then the recording path alone (bench/modules/stackmap_bench),
instructions per stack in full and as a cookie. Only the medians: the
spreads are in the reports.
"""
import sys

# (first header of the table, [(column, label)]): columns by position, as
# the reports repeat short headers ("map").
WANT = [
    ("bytes per event+stack, full", [(1, "bytes per event+stack, full"), (2, "bytes per event+stack, map"),
                                     (6, "frames per stack"), (8, "events kept map/full")]),
    ("time per stack, full", [(1, "time per stack, full"), (2, "time per stack, map")]),
    ("frames per stack (kept events)", [(6, "bytes per stored stack")]),
]
PATH = "frames"  # the first header of the recording path's table


def tables(path):
    """Every markdown table of the file: (headers, rows), in order."""
    out, cur = [], None
    with open(path, encoding="utf-8") as f:
        for line in f:
            line = line.rstrip("\n")
            if not line.startswith("|"):
                cur = None
                continue
            cells = [c.strip() for c in line.strip("|").split("|")]
            if cur is None:
                cur = (cells, [])
                out.append(cur)
            elif not all(set(c) <= set("-: ") for c in cells):
                cur[1].append(cells)
    return out


def median(cell):
    """A cell's median: the text before its "(min-max)"."""
    return cell.split(" (")[0]


def by_workload(tabs):
    """{workload: {label: median}} from the tables of WANT."""
    res = {}
    for first, cols in WANT:
        for heads, rows in tabs:
            if len(heads) < 2 or heads[0] != "workload" or heads[1] != first:
                continue
            for row in rows:
                w = res.setdefault(row[0], {})
                for i, label in cols:
                    if i < len(row):
                        w.setdefault(label, median(row[i]))
    return res


def recording_path(tabs):
    """{(frames, stacks): (full, map)} of the recording path's table."""
    res = {}
    for heads, rows in tabs:
        if heads[:4] == [PATH, "stacks", "full", "map"]:
            for row in rows:
                res.setdefault((row[0], row[1]), (median(row[2]), median(row[3])))
    return res


def main(argv):
    if len(argv) not in (3, 5):
        sys.exit("usage: bench/side.py A.md B.md [LABEL_A LABEL_B]")
    a, b = argv[1], argv[2]
    la, lb = (argv[3], argv[4]) if len(argv) == 5 else (a, b)
    ta, tb = tables(a), tables(b)
    wa, wb = by_workload(ta), by_workload(tb)
    labels = [label for _, cols in WANT for _, label in cols]
    common = [w for w in wa if w in wb]
    if not common:
        sys.exit(f"bench/side.py: no workload in both {a} and {b}")
    print(f"| workload | figure | {la} | {lb} |")
    print("|---|---|---|---|")
    for w in common:
        for label in labels:
            if label in wa[w] or label in wb[w]:
                print(f"| {w} | {label} | {wa[w].get(label, '-')} | {wb[w].get(label, '-')} |")
    pa, pb = recording_path(ta), recording_path(tb)
    both = [k for k in pa if k in pb]
    if both:
        print()
        print(f"| frames | stacks | full, {la} | {lb} | map, {la} | {lb} |")
        print("|---|---|---|---|---|---|")
        for k in both:
            print(f"| {k[0]} | {k[1]} | {pa[k][0]} | {pb[k][0]} | {pa[k][1]} | {pb[k][1]} |")


if __name__ == "__main__":
    main(sys.argv)
