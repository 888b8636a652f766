#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Check a benchmark rerun: is each median of NEW within the spread of OLD?

usage: compare.py OLD_RESULTS NEW_RESULTS

Both are results.md files of "./harness bench". Every "median (min-max)"
figure of NEW is looked up by its place in OLD (workload row and column of
the table, or line and position in the micro-benchmark) and reported if it
falls outside OLD's min-max. Runs with different setups (clock, rounds,
buffer) are not compared. Prints a few lines of markdown; exit status 0
either way: this is a report, not a test.
"""
import re
import sys

FIG = re.compile(r"(-?[\d.]+) \((-?[\d.]+)-(-?[\d.]+)\)")


def parse(path):
    setup, figs, series = [], {}, None
    header = None
    for line in open(path, errors="replace"):
        line = line.rstrip("\n")
        if line.startswith(("QEMU TCG", "Kernel and setup:")):
            setup.append(line)
        if line.startswith("Series: "):
            series = line
        if line.startswith("| workload |"):
            # "| bytes/event pair full | map | none |": the short names
            # belong to the group before them.
            header, group = [], ""
            for c in (c.strip() for c in line.strip("|").split("|")):
                if c in ("map", "none", "map/none"):
                    header.append(f"{group} {c}")
                else:
                    group = c.rsplit(" ", 1)[0]
                    header.append(c)
            continue
        if line.startswith("| ") and header and not line.startswith("|---"):
            cells = [c.strip() for c in line.strip("|").split("|")]
            for name, cell in zip(header[1:], cells[1:]):
                m = FIG.match(cell)
                if m:
                    figs[f"{cells[0]}: {name}"] = tuple(map(float, m.groups()))
            continue
        m = re.match(r"\s+(depth[^:]*)", line)
        if m:
            label = re.sub(r"\s+", " ", m.group(1))
            # The text before each figure names it ("insert", "lookup hit"...).
            pos = 0
            for f in FIG.finditer(line):
                what = re.findall(r"[a-z][a-z0-9 -]*[a-z]", line[pos:f.start()])
                pos = f.end()
                figs[f"{label}: {what[-1] if what else '?'}"] = tuple(map(float, f.groups()))
    return setup, figs, series


def main():
    if len(sys.argv) != 3:
        sys.exit("usage: compare.py OLD_RESULTS NEW_RESULTS")
    old_setup, old, old_series = parse(sys.argv[1])
    new_setup, new, new_series = parse(sys.argv[2])
    print("Rerun check against the previous results:")
    print()
    if old_series != new_series:
        print(f"    the code differs: previous {old_series or 'series unknown'}")
    if old_setup != new_setup:
        print("    not compared: the previous run had another setup")
        for line in old_setup:
            print("    was: " + line)
        return
    out = [f"{k}: {new[k][0]:g} outside {old[k][1]:g}-{old[k][2]:g} (was {old[k][0]:g})"
           for k in new if k in old and not old[k][1] <= new[k][0] <= old[k][2]]
    both = sum(1 for k in new if k in old)
    print(f"    {both - len(out)} of {both} medians within the previous run's spread")
    for line in out:
        print("    " + line)


main()
