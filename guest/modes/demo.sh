#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# harness-show: ^([^<]|$)
# Guest side of "./harness demo": the same workload traced with sched_switch
# events and the stacktrace option, with the stack map off and then on, in a
# small ring buffer in overwrite mode.
cd /sys/kernel/tracing || exit 1
KB=32

sum() { # field: sum it over the per-CPU ring buffer stats
	cat per_cpu/cpu*/stats | sed -n "s/^$1: *\([0-9]*\).*/\1/p" | awk '{ s += $1 } END { print s + 0 }'
}

workload() {
	i=0
	while [ $i -lt 40 ]; do
		ls -R /ftrace > /dev/null
		cat /proc/self/status > /dev/null
		sleep 0.01
		i=$((i + 1))
	done
}

run() { # $1: stackmap 0 or 1
	echo 0 > tracing_on
	echo $KB > buffer_size_kb
	echo 1 > options/overwrite
	echo > trace
	echo 1 > events/sched/sched_switch/enable
	echo 1 > options/stacktrace
	if [ -f options/stackmap ]; then
		echo $1 > options/stackmap
		[ "$1" = 1 ] && echo 0 > stack_map
	fi
	t0=$(cut -d' ' -f1 /proc/uptime)
	echo 1 > tracing_on
	workload
	echo 0 > tracing_on
	t1=$(cut -d' ' -f1 /proc/uptime)
	echo 0 > options/stacktrace
	echo 0 > events/sched/sched_switch/enable

	cat trace > /tmp/trace.$1
	ev=$(grep -c 'sched_switch:' /tmp/trace.$1 || true)
	ids=$(grep -c '<stack_id' /tmp/trace.$1 || true)
	full=$(grep -c '<stack trace>' /tmp/trace.$1 || true)
	frames=$(grep -c '^ => ' /tmp/trace.$1 || true)
	bytes=$(sum bytes)
	overrun=$(sum overrun)
	first=$(sed -n 's/^.* \([0-9]*\.[0-9]*\): sched_switch:.*/\1/p' /tmp/trace.$1 | head -1)
	last=$(sed -n 's/^.* \([0-9]*\.[0-9]*\): sched_switch:.*/\1/p' /tmp/trace.$1 | tail -1)
	span=$(awk -v a="$first" -v b="$last" 'BEGIN { printf "%.3f", b - a }')
	per=$(awk -v b="$bytes" -v e="$ev" 'BEGIN { if (e) printf "%.1f", b / e; else print "-" }')
	printf '%-9s %9s %9s %9s %11s %11s %9s %9s %9s\n' "stackmap=$1" "$ev" "$ids" "$full" \
		"$bytes" "$per" "$overrun" "$span" "$frames"
}

echo "Kernel $(uname -r); ring buffer ${KB} KiB per CPU, overwrite mode;"
echo "workload: 40 x (ls -R, cat /proc/self/status, sleep 10 ms) with"
echo "sched_switch events and options/stacktrace."
echo
if [ ! -f options/stackmap ]; then
	echo "This kernel has no stack map (CONFIG_FTRACE_STACKMAP): full stacks only."
fi
# frames: frame lines in the text, printed under full stacks and cookies alike
printf '%-9s %9s %9s %9s %11s %11s %9s %9s %9s\n' mode events cookies full_stk \
	rb_bytes bytes/event overrun span_s frames
run 0
[ -f options/stackmap ] || exit 0
run 1

echo
echo "--- a record with the stack map on (trace): the ring buffer holds the"
echo "    20-byte cookie, the text prints its frames from the map"
awk '!n && /sched_switch:/ { n = 1; print; next } n && !h && /<stack_id/ { h = 1; print; next }
     h && /^ => / { print; next } h { exit }' /tmp/trace.1
if [ -f options/stackmap-resolve ]; then
	echo
	echo "--- the same with options/stackmap-resolve cleared (the compact text):"
	echo 0 > options/stackmap-resolve
	cat trace | grep -m 2 -A1 'sched_switch:' | grep -v '^--$'
	echo 1 > options/stackmap-resolve
fi
cookie=$(grep -m1 -o '<stack_id [0-9]* gen [0-9]*>' /tmp/trace.1)
slot=$(echo "$cookie" | cut -d' ' -f2)
gen=$(echo "$cookie" | cut -d' ' -f4 | tr -d '>')
echo
echo "--- $cookie resolved from stack_map:"
awk -v s="$slot" -v g="$gen" '$1 == "stack_id" { p = ($2 == s && $4 == g) } p' stack_map
echo
echo "--- stack_map_stat:"
cat stack_map_stat
echo
echo "--- the same kind of record with the stack map off (trace):"
grep -m 1 -A8 'sched_switch:' /tmp/trace.0
echo 0 > options/stackmap

[ -x /bin/stackmap ] || exit 0
# tools/tracing/stackmap: a trace that spans resets, resolved offline from
# the dumps "rotate" saved (freeze, save, reset), and a flame graph of it.
echo
echo "--- tools/tracing/stackmap: kmalloc and sched_switch stacks of a file workload,"
echo "    with two rotations; every cookie resolved from the dump of its generation"
cd /tmp || exit 1
T=/sys/kernel/tracing
echo 0 > $T/tracing_on
echo 4096 > $T/buffer_size_kb
echo 0 > $T/options/overwrite
echo > $T/trace
[ -f $T/options/stackmap-resolve ] && echo 0 > $T/options/stackmap-resolve
echo 1 > $T/options/stackmap
echo 0 > $T/stack_map
echo 1 > $T/events/sched/sched_switch/enable
echo 1 > $T/events/kmem/kmalloc/enable
echo 1 > $T/options/stacktrace
files() { find / -xdev -type f 2>/dev/null | head -400 | xargs cat > /dev/null 2>&1; gzip -c /bin/busybox > /dev/null; }
echo 1 > $T/tracing_on
files
echo "# stackmap rotate -k kallsyms"
stackmap rotate -k kallsyms
files
echo "# stackmap rotate"
stackmap rotate
files
echo 0 > $T/tracing_on
echo "# stackmap save"
stackmap save
echo 0 > $T/options/stacktrace
echo 0 > $T/events/enable
cat $T/trace > trace.txt
dumps=$(for f in stack_map.*.bin; do printf -- '-d %s ' "$f"; done)
echo "# stackmap resolve -k kallsyms $dumps trace.txt > resolved.txt"
stackmap resolve -k kallsyms $dumps trace.txt > resolved.txt
echo "# stackmap top -n 3 -k kallsyms $dumps trace.txt"
stackmap top -n 3 -k kallsyms $dumps trace.txt 2>/dev/null
echo "# stackmap folded -b event -k kallsyms $dumps trace.txt | stackmap flamegraph -o flame.svg"
stackmap folded -b event -k kallsyms $dumps trace.txt 2>/dev/null |
	stackmap flamegraph --title "Kernel stacks of kmalloc and sched_switch: find + cat + gzip (Linux $(uname -r))" -o flame.svg
echo "=== FLAMEGRAPH BEGIN"
cat flame.svg
echo "=== FLAMEGRAPH END"
echo 0 > $T/options/stackmap
[ -f $T/options/stackmap-resolve ] && echo 1 > $T/options/stackmap-resolve
exit 0
