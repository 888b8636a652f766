#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# Allocation failures when the stackmap option is set (debug kernel:
# failslab and fail_page_alloc, and the map's own fault attribute where the
# series has one). Every failed enable
# must fail with ENOMEM, leave the option off, no map and no memory behind;
# a later enable must work. Its results are KTAP (guest/lib/lib.sh), part
# "faults".
. /guest/lib.sh
T=/sys/kernel/tracing
D=/sys/kernel/debug
cd $T || exit 1

ktap_start faults
# The map's element pool is a vmalloc area allocated by trace_stackmap_create().
map_memory() { grep -c trace_stackmap_create /proc/vmallocinfo; }
no_map() {
	[ "$(cat options/stackmap)" = 0 ] && [ ! -s stack_map_stat ] && [ "$(map_memory)" = 0 ]
}

echo 0 > options/stackmap
echo free > stack_map
ktap_check "no map to begin with" no_map

# 1. The map's own fault attribute, once, for each way of setting the
# option: only where the series has one (the 6.12 backport).
if [ -d $D/fail_ftrace_stackmap ]; then
	F=$D/fail_ftrace_stackmap
	echo 0 > $F/verbose
	echo 100 > $F/probability
	echo 1 > $F/interval
	for how in options trace_options; do
		echo 1 > $F/times
		if [ $how = options ]; then
			echo 1 > options/stackmap 2> /tmp/err; rc=$?
		else
			echo stackmap > trace_options 2> /tmp/err; rc=$?
		fi
		ktap_check "$how: the enable fails when the map cannot be allocated" '[ $rc -ne 0 ]'
		ktap_check "$how: with ENOMEM" 'grep -qi "memory" /tmp/err'
		ktap_check "$how: the option stays off, no map, no memory" no_map
		ktap_check "$how: the failure was injected" '[ "$(cat $F/times)" = 0 ]'
		if [ $how = options ]; then echo 1 > options/stackmap; else echo stackmap > trace_options; fi
		ktap_check "$how: a later enable works" '[ "$(cat options/stackmap)" = 1 ] && grep -q "^capacity: " stack_map_stat'
		echo 0 > options/stackmap
		echo free > stack_map
		ktap_check "$how: free leaves no memory" no_map
	done
	echo 0 > $F/probability
fi

# 2. Every allocation of the enable path in turn: the Nth slab or page
# allocation (or the map's hook) of the writing task fails, N = 1, 2, ...
# until the enable goes through.
for a in failslab fail_page_alloc; do
	[ -d $D/$a ] || continue
	echo 0 > $D/$a/verbose
	echo N > $D/$a/ignore-gfp-wait
	[ -e $D/$a/ignore-gfp-highmem ] && echo N > $D/$a/ignore-gfp-highmem
	[ -e $D/$a/min-order ] && echo 0 > $D/$a/min-order
done
n=0 failed=0 bad=
while [ $n -lt 200 ]; do
	n=$((n + 1))
	# Builtins only between the two fail-nth writes: /proc/self must be
	# this shell, and no other program may take the injected failure.
	echo $n > /proc/self/fail-nth
	echo 1 > options/stackmap 2> /dev/null; rc=$?
	read left < /proc/self/fail-nth
	echo 0 > /proc/self/fail-nth
	if [ $rc -eq 0 ]; then
		# Nothing was injected: every allocation of the path succeeded.
		[ "$left" != 0 ] && break
		# An allocation failed and the path got by without it (the
		# table's kmalloc, retried with vmalloc): a working map.
		echo 0 > options/stackmap
		echo free > stack_map
		continue
	fi
	failed=$((failed + 1))
	no_map || bad="$bad $n"
done
ktap_check "enable with the Nth allocation failing, N = 1..$((n - 1)): $failed failed, each cleanly" '[ -z "$bad" ] && [ $failed -gt 0 ] && [ $n -lt 200 ]'
[ -z "$bad" ] || ktap_note "left a map, memory or the option behind at N =$bad"
ktap_check "then the enable works" '[ "$(cat options/stackmap)" = 1 ] && grep -q "^capacity: " stack_map_stat'
echo 0 > options/stackmap
echo free > stack_map
ktap_check "and free leaves no memory" no_map
ktap_end
exit 0
