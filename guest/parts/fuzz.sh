#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# Guest side of the write fuzzer of the stack map files:
#   sh fuzz.sh [N [SEED]]      N iterations (300), SEED of the plan (random)
# The same N and SEED make the same writes, but for the concurrent writers'.
# With tracing quiet and a map holding the stacks of a short sched_switch
# trace, N bad writes of random kinds go to stack_map, options/stackmap,
# trace_options, stack_map_stat and stack_map_bin, then 4 writers write bad
# data to stack_map at once while it is read. stack_map takes "0", "freeze"
# and "free", each with an optional newline, and nothing else: every other
# write must fail with EINVAL, and every bad write to the other files must
# fail, and none may change anything. stack_map_stat, trace_options,
# options/stackmap and stack_map_bin are compared with a snapshot after each
# write, the text of stack_map after every 20.
# Its results are KTAP (guest/lib/lib.sh), part "fuzz": one result per check,
# the failure's details under it, "N bad writes, M kinds" as a figure.
set -u
T=/sys/kernel/tracing
W=/tmp/fuzz
N=${1:-300}
SEED=${2:-$(echo $(od -An -tu4 -N4 /dev/urandom))}
CONC_SECS=3
KINDS="rand mut near part off opt topt ro conc"
STATE="stack_map_stat trace_options options/stackmap"

. /guest/lib.sh
ktap_start fuzz
# fuzz_say PASS: WHAT, fuzz_say FAIL: WHAT: a result; fuzz_say TEXT: a note.
fuzz_say() {
	case $1 in
	"PASS: "*) ktap_pass "${1#PASS: }" ;;
	"FAIL: "*) ktap_fail "${1#FAIL: }" ;;
	*) echo "# $1" ;;
	esac
}
# The valid writes of the fuzzer's own setup and checks.
put() { echo "$1" > "$2"; }

nw=0
i=0
rebases=0
nempty=0
reads=0
ro_msg=
for k in $KINDS text; do
	eval "w_$k=0 f_$k=0"
done

kinds_run() {
	local k n m=0
	for k in $KINDS; do
		eval "n=\$w_$k"
		[ "$n" -gt 0 ] && m=$((m + 1))
	done
	echo $m
}

finish() {
	ktap_figure "$nw bad writes, $(kinds_run) kinds"
	ktap_end
	exit 0
}

case $N in
''|*[!0-9]*) fuzz_say "FAIL: the iteration count must be a number, not '$N'"; finish ;;
esac
case $SEED in
''|*[!0-9]*) fuzz_say "FAIL: the seed must be a number, not '$SEED'"; finish ;;
esac
cd $T 2>/dev/null || { fuzz_say "FAIL: no tracefs at $T"; finish; }
if [ ! -e stack_map ] || [ ! -e options/stackmap ]; then
	fuzz_say "FAIL: no stack_map or options/stackmap in $T (CONFIG_FTRACE_STACKMAP=n?)"
	finish
fi
rm -rf $W
mkdir -p $W/b $W/near $W/part $W/opt $W/topt
: > $W/lists
: > $W/excluded
: > $W/batch.log

FUZZ=$(dirname "$0")
. $FUZZ/fuzz-lib.sh
. $FUZZ/fuzz-lists.sh

# The plan (guest/lib/fuzz-plan.awk): one write a line, every one a write the
# kernel must refuse.
names=$(sed 's/^no//' trace_options | tr '\n' ' ')
awk -v n="$N" -v seed="$SEED" -v names="$names" -v excl=$W/excluded \
	-f $FUZZ/fuzz-plan.awk $W/lists > $W/plan
if [ -s $W/excluded ]; then
	fuzz_say "FAIL: the fuzzer's lists hold writes the kernel takes; left out:"
	while read -r l e; do
		for f in $W/$l/$e*; do
			echo "$l: $(hexof $f)"
		done
	done < $W/excluded | ktap_detail
fi


# The setup: a map with stacks, tracing quiet.
populate
snap $W/ref
refsize=$(wc -c < $W/ref.map)
entries=$(sed -n 's/^stack_map_stat:entries: //p' $W/ref.txt)
gen=$(sed -n 's/^stack_map_stat:generation: //p' $W/ref.txt)
sleep 1
if [ "${entries:-0}" -gt 0 ] && grep -qx 'options/stackmap:1' $W/ref.txt &&
   same_state && cat stack_map | cmp -s - $W/ref.map; then
	fuzz_say "PASS: setup: a map of $entries stacks (generation $gen, option set), tracing quiet: nothing changes in 1 s"
else
	fuzz_say "FAIL: setup: a map of stacks (option set) and quiet tracing"
	{ grep -v '^trace_options:' $W/ref.txt | sed 's/^/  /'; changes; } | ktap_detail
	cleanup
	finish
fi
fuzz_say "seed $SEED, $N iterations: sh fuzz.sh $N $SEED makes the same writes"
ebusy_check "before the fuzzing"

# The writes of the plan, each checked at once; the text of stack_map after
# every 20.
exec 4< $W/plan
bstart=1
while read -r kind arg oct <&4; do
	i=$((i + 1))
	pay=$W/b/$((i % 20))
	sz=0
	[ "$oct" = - ] || { printf "$oct" > $pay; sz=$((${#oct} / 4)); }
	case $kind in
	rand|mut)
		bad_write $kind stack_map $pay $sz EINVAL
		unchanged $kind "write #$i" $pay
		logf=$pay ;;
	near)
		logf=$W/near/$arg
		eval "sz=\$nearsz_$arg"
		if [ "$sz" = 0 ]; then
			# busybox cannot write() no bytes: open for writing, close
			true 2>/dev/null >stack_map
			true 2>/dev/null 1<>stack_map
			nempty=$((nempty + 1))
		else
			bad_write near stack_map $logf $sz EINVAL
		fi
		unchanged near "write #$i" $logf ;;
	part)
		logf="$W/part/${arg}a $W/part/${arg}b"
		opened=0
		{
			opened=1
			for f in $logf; do
				dd if=$f bs=$(wc -c < $f) count=1 >&3 2>$W/dd.err
				written part $? EINVAL "stack_map (one descriptor, in two writes)" $f
			done
		} 3>stack_map
		[ $opened = 1 ] || fail_note part "write #$i: stack_map could not be opened for writing"
		unchanged part "the writes #$i" $logf ;;
	off)
		# variant 0: read K bytes, write; 1: read K, seek sz on, write;
		# 2: read to the end, write; 3: seek sz from 0, write. Then the
		# descriptor reads on where it was.
		logf=$pay
		v=${arg%%:*}
		k=$(( ${arg#*:} % (refsize + 1) + 1 ))
		skip=0
		case $v in 1|3) skip=$sz ;; esac
		opened=0
		: > $W/o1
		{
			opened=1
			case $v in
			0|1) dd bs=$k count=1 <&3 >$W/o1 2>/dev/null ;;
			2) cat <&3 >$W/o1 ;;
			esac
			got=$(wc -c < $W/o1)
			dd if=$pay bs=$sz count=1 seek=$((skip != 0)) conv=notrunc >&3 2>$W/dd.err
			written off $? EINVAL "stack_map (read-write descriptor, at offset $((got + skip)))" $pay
			cat <&3 >$W/o2
		} 3<>stack_map
		if [ $opened = 1 ]; then
			{ head -c $got $W/ref.map; tail -c +$((got + skip + 1)) $W/ref.map; } > $W/oexp
			cat $W/o1 $W/o2 | cmp -s - $W/oexp ||
				fail_note off "write #$i ($(hexof $pay)): read $got bytes, skipped $skip, wrote, read on: not the text of stack_map"
		else
			fail_note off "write #$i: stack_map could not be opened for reading and writing"
		fi
		unchanged off "write #$i" $pay ;;
	opt|topt)
		target=trace_options
		[ $kind = opt ] && target=options/stackmap
		if [ "$oct" = - ]; then
			logf=$W/$kind/$arg
			eval "sz=\$${kind}sz_$arg"
		else
			logf=$pay
		fi
		bad_write $kind $target $logf $sz fail
		unchanged $kind "write #$i to $target" $logf ;;
	ro)
		target=stack_map_stat
		[ "$arg" = 1 ] && target=stack_map_bin
		logf=$pay
		bad_write ro $target $pay $sz any
		unchanged ro "write #$i to $target" $pay ;;
	esac
	echo "$i $kind $logf" >> $W/batch.log
	if [ $((i % 20)) = 0 ] || [ $i = $N ]; then
		w_text=$((w_text + 1))
		if ! cat stack_map | cmp -s - $W/ref.map; then
			fail_note text "the text of stack_map changed within the writes #$bstart to #$i:"
			changes >> $W/fail.text
			while read -r n k f; do
				for f in $f; do
					echo "  #$n $k: $(hexof $f)"
				done
			done < $W/batch.log >> $W/fail.text
			rebase
		fi
		: > $W/batch.log
		bstart=$((i + 1))
	fi
done
exec 4<&-

. $FUZZ/fuzz-end.sh
