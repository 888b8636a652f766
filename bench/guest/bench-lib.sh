# SPDX-License-Identifier: GPL-2.0
# What the benchmark's guest scripts read of tracefs (bench/guest/bench.sh,
# bench/guest/peers.sh, bench/guest/peers-loop.sh); CPU is the CPU the work runs on.
. /guest/args.sh
T=/sys/kernel/tracing
cpustat() { sed -n "s/^$1: *\([0-9]*\).*/\1/p" $T/per_cpu/cpu$CPU/stats; }
# The trace clock's "now" in ns, to the microsecond (busybox date has no %N).
now() { sed -n 's/^now ts: *\([0-9]*\)\.\([0-9]*\)$/\1\2000/p' $T/per_cpu/cpu$CPU/stats; }
mapstat() { sed -n "s/^$1: //p" $T/stack_map_stat; }
