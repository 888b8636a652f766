#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# harness-show: ^(not ok|ok [0-9]+|=== |# figure: )
# Guest side of the boot check of "./harness test": the kernel was booted
# with trace_options=stackmap,stacktrace trace_event=sched:sched_switch (S20)
# and trace_stackmap_capacity=4096 (S27).
# Its results are KTAP (guest/lib/lib.sh), part "bootcheck".
. /guest/lib.sh
cd /sys/kernel/tracing || exit 1
ktap_start bootcheck
sleep 0.3
echo 0 > tracing_on
ktap_check "S20 the stackmap option is set from the command line" '[ "$(cat options/stackmap)" = 1 ]'
ktap_check "S20 the map was allocated at boot" 'grep -q "^capacity: " stack_map_stat'
ktap_check "S27 with the capacity of trace_stackmap_capacity=4096" 'grep -q "^capacity: 4096$" stack_map_stat && [ "$(cat stack_map_capacity)" = 4096 ]'
ktap_check "S5 sched_switch stacks are recorded as cookies" 'grep -q "<stack_id [0-9]* gen [0-9]*>" trace'
# Full stacks before the first cookie of the boot trace: none where the
# series allocates the map with the ring buffer (harness.early=1), some
# where it waits for tracefs (the 6.12 series).
before=$(awk '/<stack_id / { exit } /<stack trace>/ { n++ } END { print n + 0 }' trace)
if [ "$(harness_arg early)" = 1 ]; then
	ktap_check "S20 the boot trace starts with cookies ($before full stacks before the first)" '[ "$before" = 0 ]'
else
	ktap_check "S20 stacks from before tracefs are recorded in full ($before before the first cookie)" '[ "$before" -gt 0 ]'
fi
grep -o '<stack_id [0-9]* gen [0-9]*>' trace | sort -u > /tmp/cookies
awk '/^stack_id / { printf "<stack_id %s gen %s>\n", $2, $4 }' stack_map | sort -u > /tmp/records
ktap_check "S12 every cookie resolves in stack_map" '[ -s /tmp/cookies ] && ! grep -vxF -f /tmp/records /tmp/cookies'
ktap_figure "$before full stacks before the first cookie, $(grep -c '<stack_id' trace) cookie records, $(grep -c '<stack trace>' trace) full stacks, buffer_size_kb $(cat buffer_size_kb), overrun $(cat per_cpu/cpu*/stats | sed -n 's/^overrun: //p' | tr '\n' ' ')"
ktap_detail 100 < stack_map_stat
ktap_end

# ftrace_dump() (sysrq-z) prints the frames under the cookies, as the trace
# file does. A short fresh trace, with offsets as stack_map prints them; the
# host compares the dump on the console with this copy of stack_map.
echo 1 > options/sym-offset
echo > trace
echo 1 > tracing_on
sleep 0.2
echo 0 > tracing_on
echo "=== STACK_MAP BEGIN"
cat stack_map
echo "=== STACK_MAP END"
echo z > /proc/sysrq-trigger
exit 0
