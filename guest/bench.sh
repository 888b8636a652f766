#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# Guest side of "./harness bench". For each workload and round, the same
# work is traced three ways, interleaved: stacks in full, stacks as stack map
# cookies, and no stacks. The ring buffer is small and in overwrite mode, so
# what is left at the end is what a user would have kept. One line per run:
#   RAW workload mode round events stacks bytes span_ns op_ns distinct successes fallbacks
cd /sys/kernel/tracing || exit 1
ROUNDS=$(sed -n 's/.*harness\.rounds=\([0-9]*\).*/\1/p' /proc/cmdline)
ROUNDS=${ROUNDS:-5}
KB=16

sum() { cat per_cpu/cpu*/stats | sed -n "s/^$1: *\([0-9]*\).*/\1/p" | awk '{ s += $1 } END { print s + 0 }'; }
# busybox date has no %N: /proc/uptime, in ns, 10 ms resolution; each run
# takes a second or more.
now() { awk '{ printf "%.0f\n", $1 * 1000000000 }' /proc/uptime; }
stat() { sed -n "s/^$1: //p" stack_map_stat; }

reset_all() {
	echo 0 > tracing_on
	echo nop > current_tracer
	echo > set_event
	echo '!stacktrace' > events/syscalls/sys_enter_openat/trigger 2>/dev/null || true
	echo > set_ftrace_filter
	echo 0 > options/stacktrace
	echo 0 > options/stackmap
	echo > trace
}

# $1 workload, $2 mode: full, map or none
setup() {
	reset_all
	echo $KB > buffer_size_kb
	echo 1 > options/overwrite
	[ "$2" = map ] && echo 1 > options/stackmap && echo 0 > stack_map
	case $1 in
	sched_switch)
		echo 1 > events/sched/sched_switch/enable
		[ "$2" = none ] || echo 1 > options/stacktrace ;;
	kmalloc)
		echo 1 > events/kmem/kmalloc/enable
		echo 1 > events/kmem/kmem_cache_alloc/enable
		[ "$2" = none ] || echo 1 > options/stacktrace ;;
	function)
		echo 'vfs_read vfs_write vfs_open do_sys_openat2 schedule' > set_ftrace_filter
		echo function > current_tracer
		[ "$2" = none ] || echo 1 > options/func_stack_trace ;;
	trigger)
		echo 1 > events/syscalls/sys_enter_openat/enable
		[ "$2" = none ] || echo stacktrace > events/syscalls/sys_enter_openat/trigger ;;
	esac
}

# Operations per run: enough to overflow the buffer in every mode.
ops() {
	case $1 in
	sched_switch) echo 200 ;;
	kmalloc) echo 20 ;;
	function) echo 200 ;;
	trigger) echo 400 ;;
	esac
}

op() {
	case $1 in
	sched_switch) sleep 0 ;;
	kmalloc) ls -R /ftrace/test.d > /dev/null ;;
	function) cat /proc/self/stat /ftrace/README > /dev/null ;;
	trigger) cat /ftrace/README /ftrace/config /proc/version > /dev/null ;;
	esac
}

# The event lines of each workload, to count and to time-stamp.
pattern() {
	case $1 in
	sched_switch) echo ' sched_switch: ' ;;
	kmalloc) echo ' kmalloc: \| kmem_cache_alloc: ' ;;
	function) echo ' <-' ;;
	trigger) echo ' sys_openat(' ;;
	esac
}

run() { # workload mode round
	setup $1 $2
	n=$(ops $1)
	echo 1 > tracing_on
	t0=$(now)
	i=0
	while [ $i -lt $n ]; do op $1; i=$((i + 1)); done
	t1=$(now)
	echo 0 > tracing_on
	[ -f options/func_stack_trace ] && echo 0 > options/func_stack_trace
	cat trace > /tmp/t
	p=$(pattern $1)
	ev=$(grep -c "$p" /tmp/t || true)
	st=$(grep -c '<stack_id\|<stack trace>' /tmp/t || true)
	span=$(grep "$p" /tmp/t | sed -n 's/.* \([0-9]*\)\.\([0-9]*\): .*/\1\2/p' | awk 'NR == 1 { f = $1 } { l = $1 } END { print (l - f) * 1000 }')
	d=0 s=0 f=0
	if [ $2 = map ]; then d=$(stat entries) s=$(stat successes) f=$(stat fallbacks); fi
	echo "RAW $1 $2 $3 $ev $st $(sum bytes) $span $(((t1 - t0) / n)) $d $s $f"
}

echo "bench: $(uname -r), $ROUNDS rounds, ${KB} KiB per CPU in overwrite mode"
for wl in sched_switch kmalloc function trigger; do
	r=1
	while [ $r -le $ROUNDS ]; do
		for mode in full map none; do run $wl $mode $r; done
		r=$((r + 1))
	done
done
reset_all
echo 1 > tracing_on
exit 0
