# SPDX-License-Identifier: GPL-2.0
# The checks of guest/modes/stress.sh, which sources this file once its load has
# stopped: the last generation, loaded once more alone, is checked exactly
# (cookies resolve, no duplicate, refs add up to successes, fallbacks in
# full); then the instance loop, the stacks per context, the memory after
# the final free, kmemleak; then the figures.

# The last generation gets the full load once more, alone, so that its
# counters can be checked exactly: the live load and a short workload.
echo 0 > stack_map
echo > trace
live_keep > $W/live_last 2>&1 && echo ok >> $W/live_last
ls -R /sys/kernel/tracing/events > /dev/null 2>&1
echo 0 > tracing_on
account
gen=$(stat_of generation)
stat_of generation >> $W/gens
cat stack_map > $W/map.txt
cat trace > $W/trace.txt
cat stack_map_stat > $W/stat.txt
live_unload
# After the copies: a change of tracer empties the buffer.
echo nop > current_tracer
echo > set_ftrace_filter
echo '!stacktrace' > events/syscalls/sys_enter_openat/trigger

ktap_check "the live load ran and completed" 'grep -qx ok $W/live_last'
grep -qx ok $W/live_last || ktap_detail 20 < $W/live_last
# Generations only move forward, at every reset, free and reallocation.
awk 'NR > 1 && $1 <= prev { bad = 1; print "generation " $1 " after " prev } { prev = $1 }
     END { exit bad }' $W/gens > $W/gens.bad
ktap_check "the generation moved forward at every reset and free ($(wc -l < $W/gens) steps)" '[ ! -s $W/gens.bad ]'
# Every cookie of the current generation left in the buffer resolves.
grep -o "<stack_id [0-9]* gen $gen>" $W/trace.txt | sort -u > $W/cookies
awk '/^stack_id / { printf "<stack_id %s gen %s>\n", $2, $4 }' $W/map.txt | sort -u > $W/records
grep -vxF -f $W/records $W/cookies > $W/unresolved
unresolved=$(wc -l < $W/unresolved)
ktap_check "cookies of the last generation in the buffer: $(wc -l < $W/cookies), all in stack_map" '[ -s $W/cookies ] && [ ! -s $W/unresolved ]'
# The trace output prints no cookie of the live generation as unresolved.
bad=$(grep -c "<stack_id [0-9]* gen $gen> \[unresolved\]" $W/trace.txt)
ktap_check "the trace printed every cookie of the last generation with its frames" '[ "$bad" -eq 0 ]'
# No stack is stored twice in a generation.
awk '/^stack_id / { if (s != "") print s; s = ""; next } { s = s $0 "|" } END { if (s != "") print s }' \
	$W/map.txt | sort | uniq -d > $W/dups
dups=$(wc -l < $W/dups)
ktap_check "no stack stored twice in the last generation ($(grep -c '^stack_id ' $W/map.txt) stored)" '[ "$dups" -eq 0 ]'
refs=$(awk '/^stack_id / { s += $6 } END { print s + 0 }' $W/map.txt)
succ=$(sed -n 's/^successes: //p' $W/stat.txt)
ktap_check "refs add up to successes ($refs, $succ)" '[ "$refs" = "$succ" ]'
entries=$(sed -n 's/^entries: //p' $W/stat.txt)
capacity=$(sed -n 's/^capacity: //p' $W/stat.txt)
pool=$(sed -n 's/^fallbacks_pool: //p' $W/stat.txt)
# Deep stacks may use up the frames before the stacks run out.
frames=$(sed -n 's/^frames: //p' $W/stat.txt)
fcap=$(sed -n 's/^frame_capacity: //p' $W/stat.txt)
ktap_check "the live load filled a pool ($entries of $capacity stacks, ${frames:-no} of ${fcap:-no} frames) and later stacks fell back ($pool)" \
	'{ [ "$entries" = "$capacity" ] || { [ -n "$fcap" ] && [ $((fcap - frames)) -lt 64 ]; }; } && [ "$pool" -gt 0 ]'
# Fallbacks are in the trace as full stacks: stacks of the live load that
# found the pool full, and stacks deeper than the map stores.
awk '/<stack trace>/ { on = 1; n = 0; live = 0; next }
     on && /^ => / { n++; if ($0 ~ /live_walk|load_walk/) live = 1; next }
     on { if (live) { full++; if (n > 64) deep++ } on = 0 }
     END { print full + 0, deep + 0 }' $W/trace.txt > $W/full
read full deep < $W/full
ktap_check "fallbacks of the live load recorded in full ($full stacks, $deep deeper than 64 frames)" '[ "$full" -gt 0 ] && [ "$deep" -gt 0 ]'

if [ $inst_maps = 1 ]; then
	runs=$(cat $W/inst_runs 2>/dev/null || echo 0)
	ktap_figure "instance rounds $runs"
	ktap_check "an instance with its own map created, traced, reset and removed ($runs rounds)" \
		'[ "$runs" -gt 0 ] && [ ! -s $W/inst_bad ]'
	[ ! -s $W/inst_bad ] || ktap_detail 10 < $W/inst_bad
fi

# Stacks per context, counted by the trace_pipe consumer in a sample of the
# top level's trace; NMI context, where an instance recorded every NMI
# event, counted there, each event followed by its stack.
while read ctx c f e; do
	ktap_figure "$ctx: $c cookies, $f full stacks"
	[ "$ctx" != nmi ] || [ ! -s $W/ctx_nmi ] || continue
	ktap_check "stacks recorded as cookies from $ctx context" '[ "$c" -gt 0 ]'
done < $W/ctx
if [ -s $W/ctx_nmi ]; then
	read ctx c f e <<EOF
$(grep '^nmi ' $W/ctx_nmi)
EOF
	lost=$(cat $W/nmi_lost)
	ktap_figure "nmi, instance stress_nmi: $e events, $c cookies, $f full stacks, $lost lost"
	ktap_figure "stress_nmi's map: $(grep -E '^(entries|successes|fallbacks_pool|fallbacks_probe|busy):' $W/nmi_stat | tr '\n' ' ')"
	ktap_check "stacks recorded as cookies from nmi context (instance stress_nmi)" '[ "$c" -gt 0 ]'
	ktap_check "each NMI event of stress_nmi followed by its stack" '[ "$lost" -gt 0 ] || [ $((c + f)) -eq "$e" ]'
fi

# The final free leaves no memory behind, by the allocator's own account.
echo 0 > options/stackmap
echo free > stack_map
ktap_check "no vmalloc area of the map left after the final free" '[ "$(pool_areas $pool_frames)" = "$areas0" ]'
echo 0 > options/stacktrace
echo 0 > options/func_stack_trace
echo 0 > events/enable
echo 1 > tracing_on

# Leaks, by kmemleak where the kernel has it (the debug kernel).
check_kmemleak 'trace_stackmap|instance_mkdir|trace_array_create' "the map or an instance"

# Under KCSAN (the kcsan kernel of "./harness stress"), with a watchpoint
# every 10 or 20 accesses instead of KCSAN's default of one in 4000: a
# plain write to an element is then likely to be watched and, with weak
# memory modelled, watched again after the release that should have ordered
# it. First modules/stackmap_race for 90 s: two CPUs look up the same
# stacks in step as they are stored, the one that did not store a stack
# reading it right after its publication. With the planted missing release
# of tests/kcsan-plant.patch, KCSAN reported that race 3 times in three
# runs of 10 s at 10 (2048 stacks each, 0 to 2 reports a run): about 4 are
# expected in 90 s, and none with a chance of about 1 in 100. Then the map's KUnit suite once more, at 20 (at
# 5 the kernel is so slow that its time-bounded cases do not get every
# stack in). lib/checks.sh reads the console.
kcsan=/sys/module/kcsan/parameters/skip_watch
suite=/sys/kernel/debug/kunit/ftrace_stackmap
if [ -w $kcsan ]; then
	sw=$(cat $kcsan)
	echo 10 > $kcsan
	if [ -f /lib/modules/stackmap_race.ko ]; then
		ktap_check "two CPUs looked up the same stacks as they were stored, for 90 s, and got the same cookies" \
			'insmod /lib/modules/stackmap_race.ko secs=90 && rmmod stackmap_race'
		dmesg | grep 'stackmap_race: ' | tail -n 3 | ktap_detail
	else
		ktap_fail "KCSAN: no modules/stackmap_race.ko to race the map's publication"
	fi
	echo 20 > $kcsan
	if [ -e $suite/run ]; then
		echo run > $suite/run 2>/dev/null
		ktap_check "the map's KUnit suite passes again with KCSAN watching every 20th access" \
			'grep -q "^ok [0-9]* ftrace_stackmap" $suite/results'
		grep "ok [0-9]* " $suite/results | ktap_detail 40
	else
		ktap_fail "KCSAN: no $suite/run to run the map's KUnit suite again"
	fi
	echo "$sw" > $kcsan
fi

ktap_figure "seconds $secs, steps $step, resets $resets, freezes $freezes, frees $frees, reallocations $reallocs, live load runs $(cat $W/live_runs 2>/dev/null || echo 0)"
ktap_figure "fallbacks pool $sum_pool, probe limit $sum_probe, busy $sum_busy (summed over generations)"
ktap_figure "unresolved cookies $unresolved, duplicates $dups"
sed 's/^/# figure: last generation /' $W/stat.txt
ktap_end
exit 0
