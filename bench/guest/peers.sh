#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# harness-show: ^(peers|PEER|MAPSTAT|DEPOTSTAT|BPF|WL) 
# Guest side of "./harness bench peers" (bench/peers/README.md): the stack
# map beside stack depot and the BPF stack map on the same stacks in one
# boot, and beside perf record -g and a BPF count per stack on workloads.
# Every figure is in guest instructions (QEMU -icount shift=0: 1 ns each).
# Lines for the host (bench/peers.py):
#   PEER FILL <stackmap_bench's line>   one run of bench/modules/stackmap_bench
#   MAPSTAT FILL entries frames capacity frame_capacity memory fallbacks
#   DEPOTSTAT FILL persistent_count persistent_bytes pools buckets
#   BPF PROG TP calls N errors N stored N ...   (bench/peers/stackid.c)
#   WL workload mode round events bytes ns
# FILL is the share of the stack map's capacity that its stores held
# (the same number of stacks in each store), or 0 where it does not matter.
cd /sys/kernel/tracing || exit 1
. /guest/bench-lib.sh
CPU=$(($(nproc) - 1))
taskset -p "$(printf %x $((1 << CPU)))" $$ > /dev/null || exit 1
P=/sys/module/stackmap_bench/parameters
EV=events/stackmap_bench/stackmap_bench_leaf
TP=stackmap_bench:stackmap_bench_leaf
STACKID="/peers/stackid /peers/stackid.bpf.o"
DEPTHS="8 16 32 64"
# Hits: one stack over and over, and 128 in turn (more than the 64 recent
# stacks a CPU's table of the stack map holds). Misses: 16 passes of 4
# stacks not recorded before. At 90% fill these add under 5% of the
# capacity, and the frame pool still holds them.
SCATTER=128
ITERS=1000
MISS_ITERS=4
MISSES=$((16 * MISS_ITERS))
# Stacks of the fill, one frame count for all, so none is a measured one:
# short enough that the frame pool holds the fill and every measured stack.
FILL_FRAMES=10

die() { echo "peers: $*"; exit 1; }
depotstat() { sed -n "s/^$1: //p" /sys/kernel/debug/stackdepot/stats; }

# bench FILL MODE STORE FRAMES STACKS FRESH FIRST ITERS [PASSES]
bench() {
	# printf: a charp parameter keeps a newline echo would add.
	printf %s "$2" > $P/mode && printf %s "$3" > $P/store && echo "$4" > $P/frames &&
		echo "$5" > $P/stacks && echo "$6" > $P/fresh && echo "$7" > $P/first &&
		echo "$8" > $P/iters && echo "${9:-15}" > $P/passes ||
		die "cannot set the parameters of stackmap_bench"
	dmesg -c > /dev/null
	echo 1 > $P/run || die "stackmap_bench $2 $3 $4 frames did not run"
	dmesg | grep 'stackdepot: ' >> /tmp/depot.msg
	l=$(dmesg | grep 'stackmap_bench: depth' | tail -1)
	[ -n "$l" ] || die "no line from stackmap_bench $2 $3 $4 frames"
	echo "PEER $1 ${l#*stackmap_bench: }"
}

# hits_and_miss FILL MODE STORE FIRST: the three figures at each depth;
# the misses are chains FIRST up, above the hits' chains.
hits_and_miss() {
	for d in $DEPTHS; do
		bench $1 $2 $3 $d 1 0 0 $ITERS
		bench $1 $2 $3 $d $SCATTER 0 0 $ITERS
		bench $1 $2 $3 $d 1 1 $4 $MISS_ITERS
	done
}

# fill MODE STORE FROM TO: records the fill's chains FROM to TO - 1, one
# more if there is an odd number (a warm-up pass and one pass of half).
fill() {
	[ "$4" -gt "$3" ] || return 0
	bench fill "$1" "$2" $FILL_FRAMES 1 1 $3 $((($4 - $3 + 1) / 2)) 1 > /dev/null
}
# The end of a fill of FROM to TO, as fill() rounds it.
fill_end() { echo $(($1 + ($2 - $1 + 1) / 2 * 2)); }

bpf_start() { # PROG
	$STACKID "$1" $TP "$CAP" > /tmp/bpf.out 2>&1 &
	BPF_PID=$!
	n=0
	until grep -q '^ready' /tmp/bpf.out; do
		kill -0 $BPF_PID 2> /dev/null || die "the BPF loader failed: $(cat /tmp/bpf.out)"
		n=$((n + 1))
		[ $n -lt 600 ] || die "the BPF loader did not attach in 60 s"
		sleep 0.1
	done
}

bpf_stop() { # FILL
	kill $BPF_PID
	wait $BPF_PID
	l=$(grep '^BPF ' /tmp/bpf.out) || die "the BPF loader gave no figures: $(cat /tmp/bpf.out)"
	echo "$l fill $1"
}

traced() { # EVENT-ON STACKTRACE STACKMAP
	echo "$1" > $EV/enable && echo "$2" > options/stacktrace && echo "$3" > options/stackmap ||
		die "cannot set up the trace"
}

[ -f /lib/modules/stackmap_bench.ko ] || die "no stackmap_bench module in the initramfs"
[ -x /peers/stackid ] || die "no BPF loader in the initramfs"
insmod /lib/modules/stackmap_bench.ko defer=1 || die "stackmap_bench did not load"
[ -d $EV ] || die "no $EV"
echo 1 > options/stackmap && echo 0 > stack_map || die "cannot turn the stack map on"
CAP=$(mapstat capacity)
echo 0 > options/stackmap
case $CAP in '' | *[!0-9]*) die "no stack map capacity (got '$CAP')" ;; esac
echo 128 > buffer_size_kb
echo 1 > options/overwrite
echo 1 > tracing_on
echo "peers: $(uname -r), work on CPU $CPU, stack map capacity $CAP stacks"

# What hooking the event costs without a stack, and unwinding at the leaf
# without storing: the baselines.
for d in $DEPTHS; do
	bench 0 unwind unwind $d 1 0 0 $ITERS
	traced 1 0 0
	bench 0 event event $d 1 0 0 $ITERS
	traced 1 1 0
	bench 0 full event $d 1 0 0 $ITERS
	bench 0 full event $d $SCATTER 0 0 $ITERS
	traced 0 0 0
done
bpf_start empty
for d in $DEPTHS; do bench 0 bpf_empty event $d 1 0 0 $ITERS; done
bpf_stop 0

# The stores at 25% and 90% of the stack map's capacity, filled with the
# same chains: the stack map and stack depot keep theirs from one fill to
# the next, the BPF stack map is filled anew with all of them (its loader
# holds it, and it must not see the others' runs).
traced 1 1 1
echo 0 > stack_map
traced 0 0 0
dmesg | grep 'stackdepot: ' > /tmp/depot.msg
filled=0 first=$SCATTER
for pct in 25 90; do
	traced 1 1 1
	to=$((filled + CAP * pct / 100 - $(mapstat entries)))
	fill map event $filled $to
	from=$filled filled=$(fill_end $filled $to)
	hits_and_miss $pct map event $first
	echo "MAPSTAT $pct $(mapstat entries) $(mapstat frames) $(mapstat capacity) $(mapstat frame_capacity) $(mapstat memory) $(mapstat fallbacks)"
	traced 0 0 0
	fill depot depot $from $filled
	hits_and_miss $pct depot depot $first
	for d in $DEPTHS; do bench $pct depot_get depot_get $d 1 0 0 $ITERS; done
	buckets=$(sed -n 's/.*stackdepot: allocating hash table of \([0-9]*\) entries.*/\1/p' /tmp/depot.msg | tail -1)
	[ -n "$buckets" ] || die "stack depot did not say the size of its hash table"
	echo "DEPOTSTAT $pct $(depotstat persistent_count) $(depotstat persistent_bytes) $(depotstat pools) $buckets"
	bpf_start stackid
	fill bpf event 0 $filled
	hits_and_miss $pct bpf event $first
	bpf_stop $pct
	first=$((first + MISSES))
done
rmmod stackmap_bench

# Workloads: the same events with their stacks, in the trace (full and
# map), in perf.data (perf record -g, kernel callchains only) and counted
# per stack in a BPF stack map, against nothing traced. Times in guest
# instructions on both CPUs (perf drains its buffer on CPU 0 meanwhile).
. /guest/peers-loop.sh

wl() { # WORKLOAD MODE ROUND
	ev=$(event $1) sys=${ev%%:*} name=${ev#*:}
	echo 0 > tracing_on
	echo > trace
	echo 0 > options/overwrite
	echo 16384 > buffer_size_kb
	echo 0 > options/stacktrace
	echo 0 > options/stackmap
	events=0 bytes=0
	case $2 in
	none | full | map)
		[ $2 = none ] || echo 1 > events/$sys/$name/enable
		[ $2 = none ] || echo 1 > options/stacktrace
		[ $2 != map ] || echo 1 > options/stackmap
		echo 1 > tracing_on
		loop $1
		echo 0 > tracing_on
		echo 0 > events/$sys/$name/enable
		[ "$(cpustat overrun)" = 0 ] || die "$1 $2: the buffer overran"
		events=$(($(cpustat entries) / 2)) bytes=$(cpustat bytes)
		[ $2 != none ] || events=0 bytes=0 ;;
	perf)
		rm -f /tmp/perf.data
		taskset 1 /bin/perf record -e $ev -g --kernel-callchains -C $CPU -m 1024 \
			-o /tmp/perf.data -- taskset "$(printf %x $((1 << CPU)))" sh /guest/peers-loop.sh $CPU $1 \
			> /tmp/perf.log 2>&1 || die "perf record failed: $(cat /tmp/perf.log)"
		/bin/perf report -D -i /tmp/perf.data 2> /dev/null |
			sed -n 's/.*\[0x\([0-9a-f]*\)\]: PERF_RECORD_SAMPLE.*/\1/p' > /tmp/sizes
		events=$(wc -l < /tmp/sizes) bytes=0
		while read -r h; do bytes=$((bytes + 0x$h)); done < /tmp/sizes ;;
	bpf)
		$STACKID count $ev $CAP $CPU > /tmp/bpf.out 2>&1 &
		BPF_PID=$!
		until grep -q '^ready' /tmp/bpf.out; do
			kill -0 $BPF_PID 2> /dev/null || die "the BPF loader failed: $(cat /tmp/bpf.out)"
			sleep 0.1
		done
		loop $1
		kill $BPF_PID
		wait $BPF_PID
		events=$(sed -n 's/^BPF .* calls \([0-9]*\) .*/\1/p' /tmp/bpf.out) bytes=0 ;;
	esac
	ns=$(cat /tmp/ns)
	echo "WL $1 $2 $3 $events $bytes $ns"
}
for w in sched_switch kmalloc; do
	for r in 0 1 2 3; do
		for m in none full map perf bpf; do wl $w $m $r; done
	done
done
exit 0
