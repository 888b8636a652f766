#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# harness-show: ^(bench|RAW|RAWT|FORMAT|DISK) 
# Guest side of "./harness bench". For each workload and round, the same
# work is traced three ways, interleaved: stacks in full, stacks as stack map
# cookies, and no stacks. The ring buffer is in overwrite mode, so what is
# left at the end is what a user would have kept.
#
# The work runs pinned to one CPU, and only that CPU's buffer is measured
# (unpinned, the span kept depends on the least busy CPU). Overwrite drops
# whole pages: 128 KiB (33 pages) keeps the partly filled one under 3%.
# Each operation overflows the buffer at least once in every mode. One line
# per run, counts for that CPU but the map's (distinct, successes, fallbacks):
#   RAW workload mode round events cookies fullstacks frames bytes span_ns
#       op_ns ops written overrun distinct successes fallbacks
# events, cookies, fullstacks, frames (of the full stacks): in the buffer at
# the end; written: entries ever written (in the buffer plus overwritten);
# op_ns: per operation.
cd /sys/kernel/tracing || exit 1
. /guest/args.sh
ROUNDS=$(harness_arg rounds)
ROUNDS=${ROUNDS:-15}
KB=128
CPU=$(($(nproc) - 1))
taskset -p "$(printf %x $((1 << CPU)))" $$ > /dev/null || exit 1
# 32 small files for one cat: 32 opens, reads and writes per operation.
FILES=
i=0
while [ $i -lt 16 ]; do FILES="$FILES /proc/version /proc/self/stat"; i=$((i + 1)); done

. /guest/bench-lib.sh
die() { echo "bench: $*"; exit 1; }
# need NAME VALUE...: whole numbers or the benchmark stops, so that a missing
# figure cannot shift the others. Not in $(...): die must end this shell.
need() {
	while [ $# -gt 1 ]; do
		case $2 in '' | *[!0-9]*) die "no $1 (got '$2')" ;; esac
		shift 2
	done
}

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

# $1 workload, $2 mode: full, map or none; $3 buffer KiB per CPU (default
# $KB) and $4 overwrite mode (default 1)
setup() {
	reset_all
	echo ${3:-$KB} > buffer_size_kb || die "cannot get a ${3:-$KB} KiB buffer"
	echo ${4:-1} > options/overwrite
	if [ "$2" = map ]; then
		echo 1 > options/stackmap && echo 0 > stack_map || die "cannot turn the stack map on"
	fi
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
	fs_kmalloc)
		echo 1 > events/kmem/kmem_cache_alloc/enable
		[ "$2" = none ] || echo 1 > options/stacktrace ;;
	fs_function)
		echo 'ext4_* jbd2_* submit_bio* blk_mq_* virtblk_* virtqueue_*' > set_ftrace_filter ||
			die "cannot set the function filter"
		echo function > current_tracer
		[ "$2" = none ] || echo 1 > options/func_stack_trace ;;
	esac
}

# Operations per run: enough to overflow the buffer in every mode (the
# "none" mode, with the smallest records, needs the most).
ops() {
	case $1 in
	sched_switch) echo 800 ;;
	kmalloc) echo 30 ;;
	function) echo 80 ;;
	trigger) echo 120 ;;
	esac
}

op() {
	case $1 in
	sched_switch) sleep 0 ;;
	kmalloc) ls -R /ftrace/test.d > /dev/null ;;
	function | trigger) cat $FILES > /dev/null ;;
	esac
}

# The event lines of each workload, to count and to time-stamp.
pattern() {
	case $1 in
	sched_switch) echo ' sched_switch: ' ;;
	kmalloc) echo ' kmalloc: \| kmem_cache_alloc: ' ;;
	function | fs_function) echo ' <-' ;;
	trigger) echo ' sys_openat(' ;;
	fs_kmalloc) echo ' kmem_cache_alloc: ' ;;
	esac
}

# Stops tracing, and func_stack_trace: its file goes away with the function
# tracer, so reset_all() could not clear it for the next workload.
trace_off() {
	echo 0 > tracing_on
	[ -f options/func_stack_trace ] && echo 0 > options/func_stack_trace
}

# workload mode round op_ns ops: what the measured CPU's buffer kept, as
# a RAW line.
measure() {
	cat per_cpu/cpu$CPU/trace > /tmp/t
	p=$(pattern $1)
	ev=$(grep -c "$p" /tmp/t || true)
	ck=$(grep -c '<stack_id' /tmp/t || true)
	fs=$(grep -c '<stack trace>' /tmp/t || true)
	fr=$(grep -c '^ => ' /tmp/t || true)
	span=$(grep "$p" /tmp/t | sed -n 's/.* \([0-9]*\)\.\([0-9]*\): .*/\1\2/p' | awk 'NR == 1 { f = $1 } { l = $1 } END { print (l - f) * 1000 }')
	d=0 s=0 f=0
	if [ $2 = map ]; then d=$(mapstat entries) s=$(mapstat successes) f=$(mapstat fallbacks); fi
	b=$(cpustat bytes) en=$(cpustat entries) ov=$(cpustat overrun)
	need events "$ev" bytes "$b" span "$span" entries "$en" overrun "$ov" \
		distinct "$d" successes "$s" fallbacks "$f"
	echo "RAW $1 $2 $3 $ev $ck $fs $fr $b $span $4 $5 $((en + ov)) $ov $d $s $f"
}

run() { # workload mode round
	setup $1 $2
	n=$(ops $1)
	echo 1 > tracing_on
	t0=$(now)
	need start "$t0"
	i=0
	while [ $i -lt $n ]; do op $1; i=$((i + 1)); done
	t1=$(now)
	need end "$t1"
	trace_off
	measure $1 $2 $3 $(((t1 - t0) / n)) $n
}

echo "bench: $(uname -r), $ROUNDS rounds, work pinned to CPU $CPU, its ${KB} KiB buffer in overwrite mode"
# Record sizes from the event formats: the payload of a cookie event, and
# where the frames start in a full stack event.
id=$(awk -F'[:;]' '/offset:/ { if ($4 + $6 > m) m = $4 + $6 } END { print m }' \
	events/ftrace/kernel_stack_id/format)
at=$(awk -F'[:;]' '/field:.*caller/ { print $4; exit }' events/ftrace/kernel_stack/format)
need "kernel_stack_id size" "$id" "kernel_stack caller offset" "$at"
echo "FORMAT kernel_stack_id $id"
echo "FORMAT kernel_stack $at"
# The recording path alone (bench/modules/stackmap_bench): one stack recorded
# over and over, and 1024 in turn (more than a CPU's table of recent stacks
# holds), in full and as cookies, at 8 to 64 frames. The module prints its
# figures on the console; the map's line says what it stored.
micro() {
	[ -f /lib/modules/stackmap_bench.ko ] || die "no stackmap_bench module in the initramfs"
	reset_all
	echo 1 > tracing_on
	for f in 8 16 32 64; do
		for s in 1 1024; do
			for m in full map; do
				if [ $m = map ]; then
					echo 1 > options/stackmap
					echo 0 > stack_map
				fi
				insmod /lib/modules/stackmap_bench.ko frames=$f stacks=$s mode=$m ||
					die "stackmap_bench frames=$f stacks=$s mode=$m did not load"
				rmmod stackmap_bench
				[ $m = map ] || continue
				echo "MICRO $f $s $(mapstat entries) $(mapstat frames) $(mapstat successes) $(mapstat fallbacks)"
				echo 0 > options/stackmap
			done
		done
	done
	reset_all
}
micro
for wl in sched_switch kmalloc function trigger; do
	r=0	# round 0 warms caches up; the report leaves it out
	while [ $r -le $ROUNDS ]; do
		for mode in full map none; do run $wl $mode $r; done
		r=$((r + 1))
	done
done
reset_all

# Deep stacks: ext4 on a virtio-blk disk (the harness boots the benchmark
# kernel with one). The load goes through the disk's folders of 25 files
# one after the other, in a loop: a folder is copied, synced, read back cold
# and removed, a pass of a few tens of milliseconds, while the tracing runs
# for a fixed time. Each round and mode runs twice: with a buffer large
# enough to keep everything, for the ring-buffer bytes the workload writes
# in that time (all CPUs: writeback, the journal and the disk's interrupts
# run anywhere); and in the 128 KiB buffer of the workloads above, for the
# events kept and their time span.
#   RAWT workload mode round secs bytes entries distinct frames_stored
#       successes fallbacks memory capacity frame_capacity passes
# bytes, entries: all CPUs' buffers at the end, nothing lost; passes: the
# load's passes that ended in the time; the others from stack_map_stat
# (map mode; 0 otherwise).
[ -b /dev/vda ] || { echo "bench: no disk, no deep-stack workloads"; exit 0; }
DROUNDS=$(harness_arg deep_rounds)
DROUNDS=${DROUNDS:-5}
BIGKB=98304
mkdir -p /mnt && mount -t ext4 /dev/vda /mnt || die "cannot mount the disk"
[ -d /mnt/src ] || die "the disk has no /mnt/src"
rm -rf /mnt/copy
echo "DISK $(find /mnt/src -type f | wc -l) files in $(ls /mnt/src | wc -l) folders, $(du -sk /mnt/src | cut -f1) KiB"
# One byte in /tmp/passes per pass.
fsload() {
	while [ -e /tmp/fsload ]; do
		for d in /mnt/src/*; do
			[ -e /tmp/fsload ] || break
			cp -a $d /mnt/copy
			sync
			echo 3 > /proc/sys/vm/drop_caches
			cat /mnt/copy/* > /dev/null
			rm -rf /mnt/copy
			sync
			printf . >> /tmp/passes
		done
	done
}
passes() { echo $(($(wc -c < /tmp/passes))); }

secs() { case $1 in fs_kmalloc) echo 1 ;; fs_function) echo 3 ;; esac; }

# workload: traces for the workload's time while the load runs.
window() {
	echo 1 > tracing_on
	sleep $(secs $1)
	trace_off
}

# Sums a per-CPU stats line over all CPUs.
allstat() { cat per_cpu/cpu*/stats | awk -v k="$1:" '$1 == k { s += $2 } END { print s + 0 }'; }

# workload mode round: everything the workload writes in its time.
timed() {
	setup $1 $2 $BIGKB 0
	p0=$(passes)
	window $1
	p1=$(passes)
	need passes "$p0" passes "$p1"
	b=$(allstat bytes) en=$(allstat entries) ov=$(allstat overrun) dr=$(allstat 'dropped events')
	need bytes "$b" entries "$en" overrun "$ov" dropped "$dr"
	[ "$ov" = 0 ] && [ "$dr" = 0 ] || die "$1 $2: ${BIGKB} KiB per CPU was too small ($ov overrun, $dr dropped)"
	d=0 fs=0 s=0 f=0 m=0 c=0 fc=0
	if [ $2 = map ]; then
		d=$(mapstat entries) fs=$(mapstat frames) s=$(mapstat successes) f=$(mapstat fallbacks)
		m=$(mapstat memory) c=$(mapstat capacity) fc=$(mapstat frame_capacity)
	fi
	need distinct "$d" frames "$fs" successes "$s" fallbacks "$f" memory "$m" \
		capacity "$c" frame_capacity "$fc"
	echo "RAWT $1 $2 $3 $(secs $1) $b $en $d $fs $s $f $m $c $fc $((p1 - p0))"
}

# workload mode round: what the 128 KiB buffer of the CPU the load runs on
# keeps. The same RAW line as above, with no operations to time.
kept() {
	setup $1 $2
	window $1
	measure $1 $2 $3 0 0
}

touch /tmp/fsload /tmp/passes
fsload > /dev/null 2>&1 &
load=$!
echo "bench: deep stacks, ext4 on virtio-blk, $DROUNDS rounds, load pid $load on CPU $CPU"
for wl in fs_kmalloc fs_function; do
	r=0
	while [ $r -le $DROUNDS ]; do
		for mode in full map none; do timed $wl $mode $r; done
		for mode in full map none; do kept $wl $mode $r; done
		r=$((r + 1))
	done
done
rm /tmp/fsload
wait $load
reset_all
sync
umount /mnt
echo 1 > tracing_on
exit 0
