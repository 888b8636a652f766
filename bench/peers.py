#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""The report of "./harness bench peers" (bench/peers/README.md), from the
lines bench/guest/peers.sh printed: usage: peers.py PEERS.OUT"""
import re
import statistics
import sys

PEER_RE = re.compile(r"^PEER (\w+) depth (\d+) frames, (\d+) stacks, (\w+): (\d+) \((\d+)-(\d+)\) "
                     r"per stack, (\d+) passes of (\d+)( fresh)?, store (\w+), (\d+) refused")
# stack depot's record: list_head, hash, size, handle, refcount, then the
# frames (lib/stackdepot.c, struct stack_record), 16-byte aligned; with
# STACK_DEPOT_FLAG_GET every record has room for CONFIG_STACKDEPOT_MAX_FRAMES.
DEPOT_HEADER = 32
DEPOT_MAX_FRAMES = 64


def align16(n):
    return (n + 15) // 16 * 16


def read(path):
    peer, mapstat, depotstat, bpf, wl = {}, {}, {}, [], {}
    with open(path, errors="replace") as f:
        for line in f:
            line = line.strip()
            m = PEER_RE.match(line)
            if m:
                fill, depth, stacks, mode = m.group(1), int(m.group(2)), int(m.group(3)), m.group(4)
                if fill == "fill":
                    continue
                kind = "miss" if m.group(10) else ("hot" if stacks == 1 else "scattered")
                peer[(int(fill), mode, depth, kind)] = (int(m.group(5)), int(m.group(6)),
                                                       int(m.group(7)), int(m.group(12)))
                continue
            p = line.split()
            if p[:1] == ["MAPSTAT"] and len(p) == 8:
                mapstat[int(p[1])] = dict(zip(("entries", "frames", "capacity", "frame_capacity",
                                               "memory", "fallbacks"), map(int, p[2:])))
            elif p[:1] == ["DEPOTSTAT"] and len(p) == 6:
                depotstat[int(p[1])] = dict(zip(("count", "bytes", "pools", "buckets"), map(int, p[2:])))
            elif p[:1] == ["BPF"] and len(p) == 15:
                bpf.append(dict(prog=p[1], tp=p[2], calls=int(p[4]), errors=int(p[6]), stored=int(p[8]),
                                stack_bytes=int(p[10]), count_bytes=int(p[12]), fill=int(p[14])))
            elif p[:1] == ["WL"] and len(p) == 7:
                wl.setdefault((p[1], p[2]), {})[int(p[3])] = tuple(map(int, p[4:]))
    return peer, mapstat, depotstat, bpf, wl


def main():
    if len(sys.argv) != 2:
        sys.exit("usage: peers.py PEERS.OUT")
    peer, mapstat, depotstat, bpf, wl = read(sys.argv[1])
    depths = sorted({k[2] for k in peer})
    fills = sorted({k[0] for k in peer if k[0]})
    if not depths or not fills or not mapstat or not depotstat or not bpf or not wl:
        sys.exit("peers.py: the run is incomplete (no PEER, MAPSTAT, DEPOTSTAT, BPF or WL lines)")

    def cost(fill, mode, d, kind, base=None):
        """Median instructions per stack, less the hook's own (base mode)."""
        v = peer.get((fill, mode, d, kind))
        if v is None:
            return None
        if base:
            b = peer.get((0, base, d, "hot"))
            return None if b is None else v[0] - b[0]
        return v[0]

    def fmt(v):
        return "-" if v is None else str(v)

    out = []
    out.append("## Peers: recording one stack, in guest instructions")
    out.append("")
    out.append("Each figure is the median over 15 passes of the instructions one recorded stack adds, "
               "bench/modules/stackmap_bench's call chains of exactly that many frames, unwinding included. "
               "ftrace (full and map): the trace event stackmap_bench_leaf with options/stacktrace, less "
               "the event alone; BPF: a program on the same tracepoint calling bpf_get_stackid() into a "
               "BPF_MAP_TYPE_STACK_TRACE, less an empty program; stack depot: stack_trace_save() and "
               "stack_depot_save_flags(), with nothing to subtract. hot: one stack over and over; "
               "scattered: 128 in turn; miss: stacks not recorded before. Fill: the stacks each store "
               "held, as a share of the stack map's capacity (%d stacks); every store got the same ones."
               % mapstat[fills[0]]["capacity"])
    for fill in fills:
        out.append("")
        out.append("At %d%% fill:" % fill)
        out.append("")
        out.append("| frames | ftrace full | stack map hot | scattered | miss | stack depot hot | scattered | "
                   "miss | depot GET hot | BPF hot | scattered | miss |")
        out.append("|---|---|---|---|---|---|---|---|---|---|---|---|")
        for d in depths:
            row = [cost(0, "full", d, "hot", "event")]
            row += [cost(fill, "map", d, k, "event") for k in ("hot", "scattered", "miss")]
            row += [cost(fill, "depot", d, k) for k in ("hot", "scattered", "miss")]
            row += [cost(fill, "depot_get", d, "hot")]
            row += [cost(fill, "bpf", d, k, "bpf_empty") for k in ("hot", "scattered", "miss")]
            out.append("| %d | %s |" % (d, " | ".join(fmt(v) for v in row)))
    out.append("")
    out.append("What the store adds to the stack it is given, scattered hits at %d%% fill: the stack map "
               "over writing the same stack in full (map less full), stack depot over stack_trace_save() "
               "alone at the leaf (depot less unwind). Every total above is mostly unwinding: ftrace "
               "unwinds from inside the event's commit, through the tracing frames it then skips; "
               "bpf_get_stackid() through perf's callchain code; stack depot's caller from the leaf." % fills[0])
    out.append("")
    out.append("| frames | stack map over full | stack depot over unwinding |")
    out.append("|---|---|---|")
    for d in depths:
        a, b = cost(fills[0], "map", d, "scattered"), cost(0, "full", d, "hot")
        c, e = cost(fills[0], "depot", d, "scattered"), cost(0, "unwind", d, "hot")
        out.append("| %d | %s | %s |" % (d, "-" if None in (a, b) else "%+d" % (a - b),
                                         "-" if None in (c, e) else "%+d" % (c - e)))
    hooks = ["%d frames: event %s, empty BPF program %s, stack_trace_save() alone at the leaf %s"
             % (d, fmt(cost(0, "event", d, "hot")), fmt(cost(0, "bpf_empty", d, "hot")),
                fmt(cost(0, "unwind", d, "hot")))
             for d in depths]
    out.append("")
    out.append("The baselines (the hooks are subtracted in the first table, unwinding is not): "
               + "; ".join(hooks) + ".")
    refused = sum(v[3] for k, v in peer.items() if k[1].startswith("depot"))
    out.append("Stack depot refused %d stacks (no handle) in these runs." % refused)
    for b in bpf:
        if b["prog"] == "stackid":
            out.append("The BPF stack map at %d%% fill: %d calls of bpf_get_stackid() failed (-EEXIST: "
                       "another stack holds the bucket, the map does not chain); %d stacks stored in %d "
                       "entries." % (b["fill"], b["errors"], b["stored"], mapstat[fills[0]]["capacity"]))

    # Bytes per stored stack, for a store full of stacks of that depth.
    ms = mapstat[fills[-1]]
    ds = depotstat[fills[-1]]
    bs = [b for b in bpf if b["prog"] == "stackid"][0]
    out.append("")
    out.append("## Peers: bytes per stored stack")
    out.append("")
    out.append("stack map: its memory (stack_map_stat) over the stacks of that depth it holds, the "
               "elements or the frame pool running out first. stack depot: the record of "
               "lib/stackdepot.c's layout (%d-byte header and the frames, 16-byte aligned; with "
               "STACK_DEPOT_FLAG_GET room for %d frames) and its hash table (%d buckets of 16 bytes, "
               "sized at its first use from the memory) shared by as many stacks as the stack map holds. "
               "BPF stack map: its memory by the kernel's own accounting (memlock in the map's "
               "fdinfo), %d entries preallocated with room for 127 frames each, as bpftrace "
               "makes it, over its entries." % (DEPOT_HEADER, DEPOT_MAX_FRAMES, ds["buckets"],
                                               mapstat[fills[0]]["capacity"]))
    out.append("")
    out.append("| frames | stack map | stack depot | depot GET | BPF stack map |")
    out.append("|---|---|---|---|---|")
    per_stored = {}
    for d in depths:
        n = min(ms["capacity"], ms["frame_capacity"] // d)
        sm = ms["memory"] / n
        hb = ds["buckets"] * 16 / n
        dep = align16(DEPOT_HEADER + 8 * d) + hb
        get = align16(DEPOT_HEADER + 8 * DEPOT_MAX_FRAMES) + hb
        bp = bs["stack_bytes"] / mapstat[fills[0]]["capacity"]
        per_stored[d] = (sm, dep, bp)
        out.append("| %d | %.0f | %.0f | %.0f | %.0f |" % (d, sm, dep, get, bp))
    out.append("")
    out.append("Measured: stack depot held %d stacks (most of them the fill's) in %d pools of 16 KiB, "
               "%d bytes of records: %.0f bytes per stack with its pools and hash table."
               % (ds["count"], ds["pools"], ds["bytes"],
                  (ds["pools"] * 16384 + ds["buckets"] * 16) / max(ds["count"], 1)))

    # Workloads: bytes and instructions per event with its stack.
    out.append("")
    out.append("## Peers on workloads: an event with its stack")
    out.append("")
    out.append("The same events, one CPU, medians of rounds 1-3: in the trace with full stacks and with "
               "the stack map, in perf.data (perf record -g --kernel-callchains, one PERF_RECORD_SAMPLE "
               "per event), and counted per stack by a BPF program (bpf_get_stackid() and a hash map, "
               "as bpftrace's @[kstack] = count(); it keeps no event, so no order and no bytes). "
               "Instructions: the workload's time less its time untraced, both CPUs (perf writes "
               "perf.data from CPU 0 meanwhile), per event.")
    out.append("")
    out.append("| workload | bytes per event, full | map | perf | instructions per event, full | map | "
               "perf | BPF count |")
    out.append("|---|---|---|---|---|---|---|---|")
    wlfig = {}
    for w in ("sched_switch", "kmalloc"):
        if any(r not in wl.get((w, "none"), {}) for r in (1, 2, 3)):
            continue
        none = statistics.median(wl[(w, "none")][r][2] for r in (1, 2, 3))
        fig = {}
        for m in ("full", "map", "perf", "bpf"):
            rs = wl.get((w, m), {})
            if any(r not in rs for r in (1, 2, 3)):
                fig[m] = (None, None)
                continue
            ev = [rs[r][0] for r in (1, 2, 3)]
            if min(ev) == 0:
                sys.exit("peers.py: %s %s recorded no events" % (w, m))
            by = statistics.median(rs[r][1] / rs[r][0] for r in (1, 2, 3))
            ins = statistics.median((rs[r][2] - none) / rs[r][0] for r in (1, 2, 3))
            fig[m] = (by, ins)
        wlfig[w] = fig
        cells = [fig[m][0] for m in ("full", "map", "perf")] + [fig[m][1] for m in ("full", "map", "perf", "bpf")]
        out.append("| %s | %s |" % (w, " | ".join("-" if v is None else "%.1f" % v if i < 3 else "%.0f" % v
                                                 for i, v in enumerate(cells))))

    # One line per peer, for scripts: 16 frames, 25% fill, scattered hits.
    d = 16 if 16 in depths else depths[0]
    fill = fills[0]
    sm_hit = cost(fill, "map", d, "scattered", "event")
    out.append("")
    out.append("For scripts (%d frames, %d%% fill, scattered hits; perf: sched_switch):" % (d, fill))
    out.append("")
    for name, mode, base, idx in (("stackdepot", "depot", None, 1), ("bpf", "bpf", "bpf_empty", 2)):
        v = cost(fill, mode, d, "scattered", base)
        out.append("    peer %s: stackmap %d / %s %d instructions per stack hit (%.2fx); "
                   "stackmap %.0f / %s %.0f bytes per stored stack"
                   % (name, sm_hit, name, v, sm_hit / v if v else float("inf"),
                      per_stored[d][0], name, per_stored[d][idx]))
    if "sched_switch" in wlfig and None not in wlfig["sched_switch"]["perf"]:
        f = wlfig["sched_switch"]
        out.append("    peer perf: stackmap %.0f / perf %.0f instructions per event with its stack (%.2fx); "
                   "stackmap %.1f / perf %.1f bytes per event with its stack"
                   % (f["map"][1], f["perf"][1], f["map"][1] / f["perf"][1] if f["perf"][1] else float("inf"),
                      f["map"][0], f["perf"][0]))
    print("\n".join(out))


if __name__ == "__main__":
    main()
