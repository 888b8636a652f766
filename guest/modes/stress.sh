#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# harness-show: ^(not ok|ok [0-9]+|=== |# figure: )
# harness-nmi: yes
# Guest side of "./harness stress" (and of the short stress in the debug
# boot of "./harness full"). For harness.secs=N seconds, all at once:
#  - stacks recorded from every context, with the stacktrace option:
#    sched_switch (task), softirq_entry (softirq), hrtimer_expire_entry and
#    irq_handler_entry (hard irq), and NMI: nmi_handler where the host
#    injects NMIs through the QEMU monitor (harness.nmi=monitor),
#    irq_handler_entry of the backtrace IPIs of sysrq-l, pseudo-NMIs on
#    arm64 (harness.nmi=sysrq; arm64 does not trace ipi_entry for them); the
#    function tracer with func_stack_trace on hot functions; a stacktrace
#    trigger;
#  - the load (modules/stackmap_load, or the 6.12 series' KUnit suite
#    ftrace_stackmap_live): 2^15 distinct call chains on every
#    CPU at once, twice what the map holds, the same stacks in flight on
#    both CPUs, and stacks deeper than 64 frames;
#  - one control loop that resets the map, flips the option off and on, and
#    frees and reallocates it, logging the generation after each step;
#  - readers of stack_map, stack_map_bin and stack_map_stat, one that keeps
#    stack_map open across resets and frees, and a trace_pipe consumer;
#  - where instances have maps, an instance created, traced, reset and
#    removed in a loop.
# Then, with tracing quiet, it checks the map and the trace and prints the
# figures. Its results are KTAP (guest/lib/lib.sh), part "stress".
T=/sys/kernel/tracing
cd $T || exit 1
. /guest/args.sh
secs=$(harness_arg secs)
[ -n "$secs" ] || secs=${1:-120}
W=/tmp/stress
rm -rf $W && mkdir -p $W

. /guest/lib.sh
ktap_start stress
stat_of() { sed -n "s/^$1: //p" stack_map_stat; }

# The load: the harness's module (modules/stackmap_load, for a series that
# does not carry it), or the KUnit suite ftrace_stackmap_live of the 6.12
# series. live_load runs it once and fails if it did not complete.
live=/sys/module/trace_stackmap_kunit/parameters/live
live_run=/sys/kernel/debug/kunit/ftrace_stackmap_live/run
live_results=/sys/kernel/debug/kunit/ftrace_stackmap_live/results
if [ -f /lib/modules/stackmap_load.ko ]; then
	live_load() { insmod /lib/modules/stackmap_load.ko && rmmod stackmap_load; }
	# The last run stays loaded until the trace is read: the frames of
	# its full stacks print as symbols only while the module is there.
	live_keep() { insmod /lib/modules/stackmap_load.ko; }
	live_unload() { rmmod stackmap_load; }
elif [ -w $live ] && [ -e $live_run ]; then
	live_load() {
		echo 1 > $live
		echo run > $live_run 2>/dev/null
		grep "ok [0-9]* stackmap_live" $live_results | grep -qv "SKIP\|not ok"
	}
	live_keep() { live_load; }
	live_unload() { :; }
else
	ktap_fail "no load to drive the map (modules/stackmap_load or ftrace_stackmap_live)"
	ktap_end
	exit 0
fi

# -- set up ----------------------------------------------------------------
echo 0 > tracing_on
echo nop > current_tracer
echo > trace
echo 4096 > buffer_size_kb
echo 1 > options/overwrite
nmi=$(harness_arg nmi)
events="sched/sched_switch irq/softirq_entry timer/hrtimer_expire_entry irq/irq_handler_entry"
[ "$nmi" != monitor ] || events="$events nmi/nmi_handler"
for e in $events; do
	echo 1 > events/$e/enable || ktap_fail "cannot enable $e"
done
echo 1 > options/stacktrace
echo 'vfs_read vfs_write do_sys_openat2 schedule_timeout' > set_ftrace_filter
echo 1 > options/func_stack_trace
echo function > current_tracer
echo stacktrace > events/syscalls/sys_enter_openat/trigger
echo 0 > options/stackmap
echo free > stack_map
# The vmalloc areas before the map exists: those that look like its frame
# pool (guest/lib/lib.sh) are not its own.
cat /proc/vmallocinfo > $W/vmallocinfo0
echo 1 > options/stackmap || ktap_fail "cannot set the stackmap option"
pool_frames=$(stat_of frame_capacity)
areas0=$(pool_areas $pool_frames $W/vmallocinfo0)
gen0=$(stat_of generation)
echo "$gen0" > $W/gens
inst_maps=0
if mkdir instances/stress_probe 2>/dev/null; then
	[ -e instances/stress_probe/options/stackmap ] && inst_maps=1
	rmdir instances/stress_probe
fi
# Where instances have maps: an instance that records only the event NMIs
# fire (nmi_handler; on arm64 irq_handler_entry of the IPIs, pseudo-NMIs
# among them), in a buffer that keeps all of it. The top level's consumer
# reads a sample of a flood, a few NMIs in a minute at best; this one sees
# every stack taken in NMI context, stored in a map of its own.
nmi_event=
[ "$nmi" != monitor ] || nmi_event=nmi/nmi_handler
[ "$nmi" != sysrq ] || nmi_event=irq/irq_handler_entry
nmi_inst=instances/stress_nmi
if [ $inst_maps = 1 ] && [ -n "$nmi_event" ]; then
	mkdir $nmi_inst || ktap_fail "cannot create the instance stress_nmi"
	echo 0 > $nmi_inst/options/overwrite
	echo 4096 > $nmi_inst/buffer_size_kb
	echo 1 > $nmi_inst/options/stackmap || ktap_fail "cannot set stackmap in stress_nmi"
	echo 1 > $nmi_inst/options/stacktrace
	# arm64: only the IPIs, the backtrace's among them, so that the buffer
	# keeps them all.
	[ "$nmi" != sysrq ] || echo 'name == "IPI"' > $nmi_inst/events/$nmi_event/filter ||
		ktap_fail "cannot filter $nmi_event in stress_nmi"
	echo 1 > $nmi_inst/events/$nmi_event/enable || ktap_fail "cannot enable $nmi_event in stress_nmi"
fi
echo 1 > tracing_on

# -- load ------------------------------------------------------------------
# The host injects NMIs through the QEMU monitor between these two lines.
echo "=== NMI ON"
stop=$W/stop
bg=
# Task context: a file-heavy loop; syscalls, page faults, scheduling.
( while [ ! -e $stop ]; do
	ls -R /sys/kernel/tracing/events > /dev/null 2>&1
	cat /proc/self/maps /proc/*/stat > /dev/null 2>&1
	find / -xdev -name 'nomatch*' > /dev/null 2>&1
  done ) &
bg="$bg $!"
# The recording path with more distinct stacks than the map holds.
( n=0
  while [ ! -e $stop ]; do
	live_load > /dev/null 2>&1
	n=$((n + 1))
	echo $n > $W/live_runs
  done ) &
bg="$bg $!"
# NMIs from the guest: backtraces of every CPU, NMIs to the others.
if [ "$nmi" = sysrq ]; then
	( while [ ! -e $stop ]; do echo l > /proc/sysrq-trigger; sleep 1; done ) &
	bg="$bg $!"
fi
# Readers: whole dumps, and one that keeps stack_map open for a while.
( while [ ! -e $stop ]; do
	cat stack_map > /dev/null; cat stack_map_bin > /dev/null; cat stack_map_stat > /dev/null
  done ) &
bg="$bg $!"
( while [ ! -e $stop ]; do
	exec 4< stack_map
	head -c 4096 <&4 > /dev/null
	sleep 0.5
	cat <&4 > /dev/null
	exec 4<&-
  done ) &
bg="$bg $!"
# An instance with a map of its own (where instances have one), created,
# traced, read, reset and removed with its option set, in a loop beside the
# top level. A round that finds no map or cannot remove the instance is
# logged in inst_bad.
if [ $inst_maps = 1 ]; then
( n=0 d=instances/stress_inst
  while [ ! -e $stop ]; do
	mkdir $d || { echo "round $n: mkdir failed" >> $W/inst_bad; break; }
	echo 1 > $d/options/stackmap
	echo 1 > $d/events/sched/sched_switch/enable
	echo 1 > $d/events/irq/softirq_entry/enable
	echo 1 > $d/options/stacktrace
	sleep 0.2
	cat $d/stack_map $d/stack_map_bin > /dev/null
	grep -q '^entries: [1-9]' $d/stack_map_stat || echo "round $n: nothing stored" >> $W/inst_bad
	echo 0 > $d/stack_map
	sleep 0.1
	head -c 65536 $d/trace > /dev/null
	rmdir $d || { echo "round $n: rmdir failed" >> $W/inst_bad; break; }
	n=$((n + 1))
	echo $n > $W/inst_runs
  done ) &
bg="$bg $!"
fi
# The consumer. It counts stacks per context as it reads (the text of a
# long run would not fit in the guest's memory): the third character of the
# flags field says NMI (Z/z), hard irq (h/H) or softirq (s). Its cat is
# killed at the end; awk then writes the counts.
# ctx_count: "CONTEXT COOKIES FULL EVENTS" for each context, from the trace
# text on its input (EVENTS: the lines that are neither stacks nor frames).
ctx_count() {
	awk 'match($0, /\] [^ ]+ /) {
	f = substr($0, RSTART + 2, RLENGTH - 3); c = substr(f, 3, 1)
	ctx = "task"
	if (c == "Z" || c == "z") ctx = "nmi"; else if (c == "h" || c == "H") ctx = "hardirq"; else if (c == "s") ctx = "softirq"
	if ($0 ~ /<stack_id [0-9]+ gen [0-9]+>/) cookie[ctx]++
	else if ($0 ~ /<stack trace>/) full[ctx]++
	else ev[ctx]++
     }
     END { split("task softirq hardirq nmi", k, " ")
	   for (i = 1; i <= 4; i++) printf "%s %d %d %d\n", k[i], cookie[k[i]], full[k[i]], ev[k[i]] }'
}
( cat trace_pipe & echo $! > $W/pipe_cat; wait ) | ctx_count > $W/ctx &
ctx_pid=$!
# Control: reset, flip the option, free and reallocate. Each step logs the
# generation, and the counters of the generation it ends.
resets=0 frees=0 reallocs=0 freezes=0 step=0
sum_pool=0 sum_probe=0 sum_busy=0
account() {
	sum_pool=$((sum_pool + $(stat_of fallbacks_pool)))
	sum_probe=$((sum_probe + $(stat_of fallbacks_probe)))
	sum_busy=$((sum_busy + $(stat_of busy)))
}
end=$(( $(cut -d. -f1 /proc/uptime) + secs ))
while [ "$(cut -d. -f1 /proc/uptime)" -lt $end ]; do
	step=$((step + 1))
	sleep 0.3
	account
	case $((step % 10)) in
	5)
		echo freeze > stack_map || ktap_fail "freeze write failed"
		freezes=$((freezes + 1))
		sleep 0.2
		echo 0 > stack_map || ktap_fail "reset write failed"
		resets=$((resets + 1)) ;;
	0)
		echo 0 > options/stackmap || ktap_fail "clearing the option failed"
		if echo free > stack_map; then frees=$((frees + 1)); else ktap_fail "free failed"; fi
		# Generation: the free moved it on; the new map moves it again.
		echo 1 > options/stackmap && reallocs=$((reallocs + 1)) || ktap_fail "setting the option again failed" ;;
	*)
		echo 0 > stack_map || ktap_fail "reset write failed"
		resets=$((resets + 1)) ;;
	esac
	stat_of generation >> $W/gens
done
touch $stop
echo "=== NMI OFF"
wait_bg() {
	# The background loops end at their next check of $stop.
	for i in $(seq 1 600); do
		alive=0
		for p in $bg; do kill -0 $p 2>/dev/null && alive=1; done
		[ $alive -eq 0 ] && return 0
		sleep 0.5
	done
	return 1
}
ktap_check "the load stopped within 5 minutes of the end" 'wait_bg'
kill $(cat $W/pipe_cat) 2>/dev/null
wait $ctx_pid 2>/dev/null
# The NMI instance: counted, then removed before the checks count the
# map's memory.
if [ -d $nmi_inst ]; then
	echo 0 > $nmi_inst/tracing_on
	ctx_count < $nmi_inst/trace > $W/ctx_nmi
	cat $nmi_inst/stack_map_stat > $W/nmi_stat
	cat $nmi_inst/per_cpu/cpu*/stats | awk '/^(overrun|dropped events):/ { n += $NF } END { print n + 0 }' > $W/nmi_lost
	rmdir $nmi_inst || ktap_fail "cannot remove the instance stress_nmi"
fi

# -- checks, tracing quiet: guest/lib/stress-check.sh -------------------------
. /guest/stress-check.sh
