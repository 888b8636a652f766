#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# Guest side of the boot with trace_options=stackmap,stacktrace and
# fail_ftrace_stackmap=1,100,0,1 (debug kernel): the map cannot be
# allocated when tracefs comes up. The option must be off with one
# warning, the stacks recorded in full, and a later enable must work.
cd /sys/kernel/tracing || exit 1
check() {
	if eval "$2" >/dev/null 2>&1; then
		echo "bootfault: PASS: $1"
	else
		echo "bootfault: FAIL: $1"
	fi
}
sleep 0.3
echo 0 > tracing_on
check "the option was turned off" '[ "$(cat options/stackmap)" = 0 ]'
check "no map" '[ ! -s stack_map_stat ] && ! grep -q trace_stackmap_create /proc/vmallocinfo'
n=$(dmesg | grep -c 'Could not allocate the stack map')
check "one warning ($n)" '[ "$n" = 1 ]'
check "the stacks were recorded in full" 'grep -q "<stack trace>" trace && ! grep -q "<stack_id " trace'
echo 1 > options/stackmap
check "a later enable works" '[ "$(cat options/stackmap)" = 1 ] && grep -q "^capacity: " stack_map_stat'
echo 0 > options/stackmap
echo free > stack_map
echo "bootfault: DONE"
exit 0
