#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# Guest side of the tests of tools/tracing/stackmap (issue 13, SPEC S26), run
# by guest/modes/test.sh when the initramfs has the tool. The same sched events go
# to the top-level buffer, with the stack map and three rotations (freeze,
# save, reset) in the middle of the trace, and to an instance that records
# every stack in full. The tool must give back, from the saved dumps, the
# very stacks the instance holds. Its results are KTAP (guest/lib/lib.sh), part
# "tooltest".
. /guest/lib.sh
T=/sys/kernel/tracing
I=$T/instances/tooltest
W=/tmp/tooltest
rm -rf $W && mkdir -p $W && cd $W || exit 1

ktap_start tooltest
# expect_error WHAT RC PATTERN CMD...: CMD exits with RC and says PATTERN on stderr.
expect_error() {
	what=$1 want=$2 pat=$3
	shift 3
	"$@" >$W/err.stdout 2>$W/err.stderr
	rc=$?
	ktap_check "$what: exit $want, \"$pat\"" "[ $rc = $want ] && grep -q -- \"$pat\" $W/err.stderr"
}

# Every stack of both buffers, one per event: the event's text after its
# time stamp, then its frames. A "<stack trace>" block follows its event on
# the same CPU (the first [NNN] of a line), with other CPUs' lines between.
# An interrupt's event can come between an event and its stack on one CPU:
# then neither event can be paired with the stack, and both print "?".
# Each buffer's probe reads the state of an exiting task on its own, and
# the parent may reap it in between: Z in one buffer is X in the other.
records() {
	awk '
	function flush(c) { if (ev[c] != "") print ev[c] "\t" (amb[c] || frames[c] == "" ? "?" : frames[c]); ev[c] = "" }
	/^ => / { frames[cur] = frames[cur] $0 "|"; next }
	{ if (!match($0, /\[[0-9]+\]/)) next; cpu = substr($0, RSTART, RLENGTH) }
	/ (sched_switch|sched_wakeup): / { a = ev[cpu] != "" && frames[cpu] == ""; if (a) amb[cpu] = 1
					   flush(cpu); e = $0; sub(/^.*[0-9]: sched_/, "sched_", e); sub(/prev_state=[XZ] /, "prev_state=exit ", e)
					   ev[cpu] = cpu " " e; frames[cpu] = ""; amb[cpu] = a; next }
	/<stack trace>/ { cur = cpu; frames[cpu] = ""; next }
	END { for (c in ev) flush(c) }' "$1" | sort
}

# paired TOP FULL: the records of TOP whose event is unambiguous in both.
paired() {
	cat "$1" "$2" | awk -F'\t' '$2 == "?" { print $1 }' | sort -u >$W/ambiguous
	awk -F'\t' -v amb=$W/ambiguous 'BEGIN { while ((getline l < amb) > 0) skip[l] = 1 }
					!($1 in skip)' "$1"
}

# multiset_in A B: every line of A is in B at least as often.
multiset_in() {
	uniq -c "$1" | sed 's/^ *//' >$W/ms.a
	uniq -c "$2" | sed 's/^ *//' >$W/ms.b
	[ -s $W/ms.a ] || return 1
	awk -v b=$W/ms.b 'BEGIN { while ((getline l < b) > 0) { n = l + 0; sub(/^[0-9]+ /, "", l); have[l] = n } }
			  { n = $1 + 0; sub(/^[0-9]+ /, ""); if (have[$0] < n) { print "missing: " $0; bad = 1 } }
			  END { exit bad }' $W/ms.a
}

sum_counts() { awk '{ s += $NF } END { print s + 0 }' "$1"; }

echo 0 > $T/tracing_on
echo > $T/trace
mkdir $I
for d in $T $I; do
	echo 2048 > $d/buffer_size_kb
	echo 1 > $d/options/sym-offset
	echo 1 > $d/events/sched/sched_switch/enable
	echo 1 > $d/events/sched/sched_wakeup/enable
	echo 1 > $d/options/stacktrace
done
echo 1 > $T/options/stackmap
# The kernel's own printing of the frames is off where the option exists
# (mainline): the tool must find every stack in the dumps.
[ -f $T/options/stackmap-resolve ] && echo 0 > $T/options/stackmap-resolve
echo 0 > $T/stack_map
# The instance records first and stops last: it holds every event of the
# top-level buffer.
echo 1 > $I/tracing_on
echo 1 > $T/tracing_on
workload
stackmap rotate -o $W/d1.bin -k $W/kallsyms >$W/rotate.log
workload
stackmap rotate -o $W/d2.bin >>$W/rotate.log
workload
stackmap rotate -o $W/d3.bin >>$W/rotate.log
workload
echo 0 > $T/tracing_on
echo 0 > $I/tracing_on
stackmap save -o $W/d4.bin >>$W/rotate.log
stackmap save --text -o $W/d4.txt >>$W/rotate.log
cat $T/trace >$W/top.txt
cat $I/trace >$W/full.txt
ktap_detail 40 < $W/rotate.log
dumps="-d $W/d1.bin -d $W/d2.bin -d $W/d3.bin -d $W/d4.bin"

gens=$(grep -o '<stack_id [0-9]* gen [0-9]*>' $W/top.txt | sed 's/.* gen //; s/>//' | sort -un | wc -l)
cookies=$(grep -c '<stack_id [0-9]* gen [0-9]*>' $W/top.txt)
fulls=$(grep -c '<stack trace>' $W/top.txt)
ktap_figure "the trace holds $cookies cookies of $gens generations and $fulls full stacks"
ktap_check "the trace spans three resets: cookies of four generations" '[ "$gens" -ge 4 ]'
ktap_check "every rotation froze and saved its generation before the reset" \
	'[ "$(grep -c "generation [0-9]*, [0-9]* stacks*" $W/rotate.log)" = 5 ] && ! grep -q "frozen: 1" $T/stack_map_stat'

# resolve: every cookie through the dump of its own generation.
stackmap resolve -k $W/kallsyms $dumps $W/top.txt >$W/resolved.txt 2>$W/resolve.err
rc=$?
ktap_detail 40 < $W/resolve.err
# Cookies the kernel printed with their frames (6.12: no stackmap-resolve
# option to turn that off; only the current generation's) are kept as they are.
kernel=$(awk '/<stack_id [0-9]+ gen [0-9]+>$/ { c = 1; next } c && /^ => / { n++ } { c = 0 } END { print n + 0 }' $W/top.txt)
ktap_check "resolve exits 0 and resolves every cookie, $((cookies - kernel)) from the dumps" \
	'[ $rc = 0 ] && grep -q "resolved $cookies of $cookies cookies ($((cookies - kernel)) from the dumps, $kernel printed by the kernel)" $W/resolve.err &&
	 { [ ! -f $T/options/stackmap-resolve ] || [ $kernel = 0 ]; }'
ktap_check "resolve leaves no cookie in the trace" '! grep -q "<stack_id" $W/resolved.txt && [ "$(grep -c "<stack trace>" $W/resolved.txt)" = $((cookies + fulls)) ]'
records $W/resolved.txt >$W/top.records
records $W/full.txt >$W/full.records
paired $W/top.records $W/full.records >$W/top.paired
all=$(wc -l <$W/top.records)
n=$(wc -l <$W/top.paired)
ktap_figure "$n of $all events paired with their stack in both buffers"
# At most a few events lose their pairing to an interrupt; the rest must match.
ktap_check "the events of the resolved trace are all in the instance with the same frames ($n events)" \
	'[ $((n * 20)) -ge $((all * 19)) ] && [ "$n" -ge "$((cookies / 2))" ] && multiset_in $W/top.paired $W/full.records'
ktap_check "the kernel's own frames in the instance and the tool's symbolised dumps print alike" \
	'grep -q " => __schedule+0x[0-9a-f]*/0x[0-9a-f]*|" $W/top.records'

# A text dump resolves as its raw dump does.
stackmap resolve -k $W/kallsyms -d $W/d1.bin -d $W/d2.bin -d $W/d3.bin -d $W/d4.txt $W/top.txt >$W/resolved2.txt 2>/dev/null
ktap_check "a text dump (save --text) resolves as the raw one" 'cmp $W/resolved.txt $W/resolved2.txt'
ktap_check "with -c the cookie stays in front of its frames" \
	'stackmap resolve -c -k $W/kallsyms $dumps $W/top.txt 2>/dev/null | grep -A1 "<stack_id [0-9]* gen [0-9]*>" | grep -q "^ => "'

# folded: one count per stack of the trace, cookies and full stacks alike.
stackmap folded -k $W/kallsyms $dumps $W/top.txt >$W/top.folded 2>/dev/null
stackmap folded $W/full.txt >$W/full.folded 2>/dev/null
ktap_check "folded counts every stack of the trace once ($((cookies + fulls)))" \
	'[ "$(sum_counts $W/top.folded)" = $((cookies + fulls)) ]'
# The innermost frame of a sched_switch stack is the event's probe on
# x86_64, its tracepoint's iterator on arm64.
ktap_check "folded lines read outermost first: outer;...;inner COUNT" \
	'grep -qE "^[^ ;]+(;[^ ;]+)*;__schedule;__traceiter_sched_switch(;trace_event_raw_event_sched_switch)? [0-9]+$" $W/top.folded'
ktap_check "folded of the instance counts its stacks" \
	'[ "$(sum_counts $W/full.folded)" = "$(grep -c "<stack trace>" $W/full.txt)" ]'
ktap_check "every folded stack of the map trace is in the instance's at least as often" \
	'sed "s/ \([0-9]*\)$/\t\1/" $W/top.folded | awk -F"\t" "{ for (i = 0; i < \$2; i++) print \$1 }" | sort >$W/a &&
	 sed "s/ \([0-9]*\)$/\t\1/" $W/full.folded | awk -F"\t" "{ for (i = 0; i < \$2; i++) print \$1 }" | sort >$W/b &&
	 multiset_in $W/a $W/b'
stackmap folded -b comm -k $W/kallsyms $dumps $W/top.txt >$W/comm.folded 2>/dev/null
stackmap folded -b event -k $W/kallsyms $dumps $W/top.txt >$W/event.folded 2>/dev/null
ktap_check "folded -b comm and -b event count the same stacks, prefixed" \
	'[ "$(sum_counts $W/comm.folded)" = $((cookies + fulls)) ] && [ "$(sum_counts $W/event.folded)" = $((cookies + fulls)) ] &&
	 ! grep -vqE "^(sched_switch|sched_wakeup);" $W/event.folded && grep -q "^<idle>;" $W/comm.folded'
last=$(sed -n 's/.*: generation \([0-9]*\), .*/\1/p' $W/rotate.log | tail -1)
ktap_check "folded -r of the last dump counts its refs: the cookies of its generation ($last)" \
	'[ "$(stackmap folded -r -k $W/kallsyms -d $W/d4.bin | awk "{ s += \$NF } END { print s }")" = "$(grep -c "<stack_id [0-9]* gen $last>" $W/top.txt)" ]'

# top: the most frequent stacks with their shares.
stackmap top -n 3 -k $W/kallsyms $dumps $W/top.txt >$W/top.out 2>/dev/null
max=$(stackmap folded -O -k $W/kallsyms $dumps $W/top.txt 2>/dev/null | awk '$NF > m { m = $NF } END { print m }')
ktap_check "top counts all records and leads with the most frequent stack ($max)" \
	'head -1 $W/top.out | grep -q "^$((cookies + fulls)) records of " && grep -q "^#1 $max records (" $W/top.out &&
	 [ "$(grep -c "^#" $W/top.out)" = 3 ]'

# flamegraph: an SVG with one box per frame.
stackmap folded -k $W/kallsyms $dumps $W/top.txt 2>/dev/null | stackmap flamegraph -o $W/flame.svg
ktap_check "flamegraph draws the folded stacks as SVG" \
	'head -2 $W/flame.svg | grep -q "<svg " && grep -q "<title>__schedule (" $W/flame.svg && tail -1 $W/flame.svg | grep -q "</svg>"'

# Bad input: a clear error and exit 2, never a wrong stack.
size=$(wc -c <$W/d1.bin)
head -c $((size / 2)) $W/d1.bin >$W/half.bin
head -c $((size - 16)) $W/d1.bin >$W/noend.bin
head -c 20 $W/d1.bin >$W/short.bin
head -n 5 $W/d4.txt >$W/cut.txt
printf 'stack_id 0 gen 1 ref 1 depth 1\nnot a frame\n' >$W/garbage.txt
printf 'hello\n' >$W/hello.txt
awk '!done && /^ => / { sub(/=> .*/, "=> not_this_function+0x0/0x1"); done = 1 } 1' $W/d4.txt >$W/forged.txt
expect_error "a raw dump cut in the middle" 2 "truncated" stackmap resolve -k $W/kallsyms -d $W/half.bin $W/top.txt
expect_error "a raw dump without its end record" 2 "no end record" stackmap resolve -k $W/kallsyms -d $W/noend.bin $W/top.txt
expect_error "a raw dump shorter than its header" 2 "shorter than the header" stackmap resolve -d $W/short.bin $W/top.txt
expect_error "a text dump cut in a record" 2 "truncated" stackmap resolve -d $W/cut.txt $W/top.txt
expect_error "a text dump with a garbage frame line" 2 "1 frames, then: not a frame" stackmap resolve -d $W/garbage.txt $W/top.txt
expect_error "a file that is no dump" 2 "not a stack_map record" stackmap resolve -d $W/hello.txt $W/top.txt
expect_error "two dumps that disagree on a stack" 2 "disagree on stack_id" stackmap resolve -k $W/kallsyms -d $W/d4.bin -d $W/forged.txt $W/top.txt
expect_error "a missing dump" 2 "No such file" stackmap resolve -d $W/nothere.bin $W/top.txt
expect_error "a missing trace" 2 "No such file" stackmap resolve $dumps -k $W/kallsyms $W/nothere.txt
expect_error "a raw dump without kallsyms" 2 "needs -k KALLSYMS" stackmap resolve $dumps $W/top.txt
printf 'garbage\n' >$W/ks.bad
expect_error "a kallsyms file that is not one" 2 "not a kallsyms line" stackmap resolve -k $W/ks.bad $dumps $W/top.txt
expect_error "an unknown command" 2 "unknown command" stackmap frobnicate
expect_error "a bad -b" 2 "-b takes " stackmap folded -b nope $W/top.txt
expect_error "save with a dump argument" 2 "-d does not apply to save" stackmap save -d $W/d1.bin

cp $W/d1.bin $W/otherboot.bin
printf '\001' | dd of=$W/otherboot.bin bs=1 seek=40 conv=notrunc 2>/dev/null
expect_error "raw dumps of two boots (boot_id)" 2 "dumps of different boots" stackmap resolve -k $W/kallsyms -d $W/d1.bin -d $W/otherboot.bin $W/top.txt
printf 'x-1 [000] d..2. 1.0: <stack_id 4294967297 gen %s>\n' "$(sed -n 's/^generation: //p' $T/stack_map_stat)" >$W/big.txt
ktap_check "a slot number beyond 32 bits is no cookie, not slot 1" \
	'stackmap resolve -k $W/kallsyms $dumps $W/big.txt 2>$W/big.err | cmp - $W/big.txt && grep -q "resolved 0 of 0 cookies" $W/big.err'
expect_error "rotate into a path that cannot be written" 2 "No such file" stackmap rotate -o $W/no/such/dir.bin
ktap_check "a rotate that fails before the freeze leaves the map as it was" 'grep -qx "frozen: 0" $T/stack_map_stat'

# A generation no dump holds: its cookies stay marked, exit 1.
stackmap resolve -k $W/kallsyms -d $W/d1.bin $W/top.txt >$W/partial.txt 2>$W/partial.err
rc=$?
g1=$(sed -n 's/.*: generation \([0-9]*\), .*/\1/p' $W/rotate.log | head -1)
other=$(($(grep -o '<stack_id [0-9]* gen [0-9]*>' $W/top.txt | grep -vc " gen $g1>") - kernel))
ktap_check "cookies of generations without a dump are marked, never resolved elsewhere (exit 1)" \
	'[ $rc = 1 ] && [ "$(grep -c "<stack_id [0-9]* gen [0-9]*> \[unresolved\]" $W/partial.txt)" = "$other" ] &&
	 ! grep "<stack_id [0-9]* gen $g1>" $W/partial.txt | grep -q . && grep -q "generations no dump holds" $W/partial.err'

# cookies REPORT [GEN]: how many cookies trace-cmd's REPORT holds (of GEN).
cookies() { grep -c "kernel_stack_id: *<stack_id [0-9]* gen ${2:-[0-9]*}>" "$1"; }
# resolve_report DUMP REPORT WHAT: the tool resolves all $n cookies of
# trace-cmd's REPORT with DUMP, and prints their frames.
resolve_report() {
	stackmap resolve -k $W/kallsyms -d "$1" "$2" >"$2.resolved" 2>"$2.err"
	rc=$?
	ktap_detail 40 < "$2.err"
	ktap_check "$3" '[ $rc = 0 ] && grep -q "resolved $n of $n cookies" '"$2.err"' &&
		grep -A1 "kernel_stack_id: *<stack trace>" '"$2.resolved"' | grep -q "^ => "'
}

# trace-cmd (Debian's) reads the cookie event from its format file and the
# tool resolves trace-cmd's report.
if command -v trace-cmd >/dev/null; then
	echo 1 > $T/tracing_on
	trace-cmd record -q -o $W/tc.dat -e sched:sched_switch -O stacktrace -O stackmap \
		sleep 0.3 >$W/tc.log 2>&1
	stackmap save -o $W/tc.bin >/dev/null
	trace-cmd report -i $W/tc.dat >$W/report.txt 2>&1
	n=$(cookies $W/report.txt)
	ktap_figure "trace-cmd $(trace-cmd --version 2>/dev/null | sed -n 's/.*version \([^ ]*\).*/\1/p' | head -1): $n cookies in the report"
	ktap_check "trace-cmd record + report show kernel_stack_id cookies, nothing FAILED TO PARSE" \
		'[ "$n" -gt 0 ] && ! grep -q "FAILED TO PARSE" $W/report.txt'
	resolve_report $W/tc.bin $W/report.txt "resolve takes trace-cmd report output"
fi

# trace-cmd record -B into an instance with a map of its own (when instances
# have one): the report holds that map's cookies only and the top level's
# map is not touched. trace-cmd removes the instance it created, and the map
# with it, when it ends: the command it traces freezes the map and saves it
# with "stackmap -i", so that the dump holds every cookie of the report.
B=tcinst
if command -v trace-cmd >/dev/null && [ -e $I/options/stackmap ]; then
	gtop=$(sed -n 's/^generation: //p' $T/stack_map_stat)
	etop=$(sed -n 's/^entries: //p' $T/stack_map_stat)
	cat >$W/tcb.sh <<-EOS
	sleep 0.3
	sed -n 's/^generation: //p' $T/instances/$B/stack_map_stat >$W/tcb.gen
	echo freeze >$T/instances/$B/stack_map
	stackmap -i $B save -o $W/tcb.bin >$W/tcb.out 2>$W/tcb.err
	echo \$? >$W/tcb.rc
	sleep 0.1
	EOS
	trace-cmd record -q -o $W/tcb.dat -B $B -e sched:sched_switch -O stacktrace -O stackmap \
		sh $W/tcb.sh >$W/tcb.log 2>&1
	ktap_detail 10 < $W/tcb.log
	ktap_detail 10 < $W/tcb.err
	gb=$(cat $W/tcb.gen 2>/dev/null)
	trace-cmd report -i $W/tcb.dat >$W/reportb.txt 2>&1
	n=$(cookies $W/reportb.txt)
	nb=$(cookies $W/reportb.txt "$gb")
	ktap_figure "trace-cmd record -B: $n cookies in the report, $nb of the instance's generation $gb"
	ktap_check "trace-cmd record -B -O stackmap: the report holds cookies of the instance's map only" \
		'[ -n "$gb" ] && [ "$gb" != "$gtop" ] && [ "$n" -gt 0 ] && [ "$n" = "$nb" ] && ! grep -q "FAILED TO PARSE" $W/reportb.txt'
	ktap_check "trace-cmd record -B leaves the top-level map alone" \
		'[ "$(sed -n "s/^generation: //p" $T/stack_map_stat)" = "$gtop" ] && [ "$(sed -n "s/^entries: //p" $T/stack_map_stat)" = "$etop" ]'
	ktap_check "stackmap -i saves the instance's map" \
		'[ "$(cat $W/tcb.rc)" = 0 ] && grep -q "generation $gb," $W/tcb.out'
	resolve_report $W/tcb.bin $W/reportb.txt "resolve takes the -B report with the instance's dump"
	stackmap resolve -k $W/kallsyms -d $W/tc.bin $W/reportb.txt >/dev/null 2>$W/reportb.top.err
	ktap_check "the top level's dump resolves none of the instance's cookies" \
		'grep -q "resolved 0 of $n cookies" $W/reportb.top.err'
	[ ! -d $T/instances/$B ] || rmdir $T/instances/$B
fi

echo 0 > $T/tracing_on
for d in $T $I; do
	echo 0 > $d/options/stacktrace
	echo 0 > $d/events/sched/enable
done
echo 0 > $T/options/stackmap
echo free > $T/stack_map
expect_error "save without a map" 2 "not allocated" stackmap save -o $W/none.bin
rmdir $I
ktap_end
exit 0
