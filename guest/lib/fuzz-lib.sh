# SPDX-License-Identifier: GPL-2.0
# The write fuzzer's helpers (guest/parts/fuzz.sh sources this file): the bytes of
# a write, the snapshot of the map's files and how they changed, the map's
# setup, and one bad write judged.
# hexof FILE: its bytes in hex; of a longer write, the first 24 and its size.
hexof() {
	local sz h
	sz=$(wc -c < "$1")
	[ "$sz" = 0 ] && { echo "(no bytes)"; return; }
	h=$(echo $(od -An -tx1 -v -N24 "$1"))
	[ "$sz" -gt 24 ] && h="$h ... ($sz bytes)"
	echo "$h"
}

# is_valid_map FILE: FILE holds a write stack_map takes.
is_valid_map() {
	case "$(hexof "$1")" in
	30|"30 0a"|"66 72 65 65"|"66 72 65 65 0a"|"66 72 65 65 7a 65"|"66 72 65 65 7a 65 0a") return 0 ;;
	esac
	return 1
}

# fail_note KIND TEXT: a failure of KIND, printed under its FAIL line.
fail_note() {
	local k=$1
	shift
	eval "f_$k=\$((f_$k + 1))"
	echo "$*" >> $W/fail.$k
}

# snap PREFIX: PREFIX.txt (stack_map_stat and the options, each line after
# its file's name), PREFIX.bin (stack_map_bin) and PREFIX.map (stack_map).
snap() {
	grep -H '' $STATE > $1.txt 2>&1
	cat stack_map_bin > $1.bin 2>&1
	cat stack_map > $1.map 2>&1
}

# same_state: stack_map_stat, the options and stack_map_bin are as in the
# snapshot $W/ref. Through cat: the files of tracefs have no size.
same_state() {
	grep -H '' $STATE 2>&1 | cmp -s - $W/ref.txt && cat stack_map_bin 2>&1 | cmp -s - $W/ref.bin
}

# changes: how the files differ from the snapshot $W/ref, one line each.
changes() {
	snap $W/now
	diff -U0 $W/ref.txt $W/now.txt | sed '1,2d; /^@@/d; s/^/  /' | head -n 12
	cmp -s $W/ref.bin $W/now.bin ||
		echo "  stack_map_bin: $(wc -c < $W/ref.bin) bytes in the snapshot, $(wc -c < $W/now.bin) now"
	if ! cmp -s $W/ref.map $W/now.map; then
		echo "  stack_map: $(grep -c '^stack_id' $W/ref.map) stacks in the snapshot, $(grep -c '^stack_id' $W/now.map) now:"
		diff -U0 $W/ref.map $W/now.map | sed '1,2d; /^@@/d; s/^/  /' | head -n 2
	fi
}

# populate: a new generation of the map with the stacks of a short
# sched_switch trace, then tracing quiet: nothing records from then on.
populate() {
	put 0 tracing_on
	put 0 events/enable
	put 1 options/stacktrace
	put 1 options/stackmap
	put 0 stack_map
	put 1 events/sched/sched_switch/enable
	put 1 tracing_on
	workload
	put 0 tracing_on
	put 0 events/sched/sched_switch/enable
}

# cleanup: tracing and the options off, the map freed.
cleanup() {
	put 0 tracing_on
	put 0 events/enable
	put 0 options/stackmap
	put 0 options/stacktrace
	put free stack_map
}

# rebase: after a failure changed the map, populate it again and take a new
# snapshot, so that the writes after it are judged on a map with stacks.
rebase() {
	populate
	snap $W/ref
	refsize=$(wc -c < $W/ref.map)
	rebases=$((rebases + 1))
}

# unchanged KIND WHAT [FILE...]: after bad writes, the files must be as in
# the snapshot.
unchanged() {
	local k=$1 what=$2 f
	same_state && return 0
	shift 2
	for f in "$@"; do
		what="$what ($(hexof "$f"))"
	done
	fail_note $k "$what changed the files:"
	changes >> $W/fail.$k
	rebase
	return 1
}

# written KIND RC EXPECT TARGET FILE: judges one write() made by dd, whose
# stderr is in $W/dd.err. EXPECT: EINVAL or EBUSY; fail: the write() failed;
# any: dd failed, at the open or at the write.
written() {
	local msg=
	IFS= read -r msg < $W/dd.err
	nw=$((nw + 1))
	eval "w_$1=\$((w_$1 + 1))"
	if [ "$2" != 0 ]; then
		case $3:$msg in
		EINVAL:*"error writing"*": Invalid argument" | EBUSY:*"error writing"*"esource busy" | \
		fail:*"error writing"* | any:*)
			[ "$1" = ro ] && [ -z "$ro_msg" ] && ro_msg=${msg#dd: }
			return 0 ;;
		esac
	else
		msg="taken"
	fi
	case $3 in
	fail) set -- "$1" "$2" "a failed write()" "$4" "$5" ;;
	any) set -- "$1" "$2" "a failure" "$4" "$5" ;;
	esac
	fail_note $1 "write #$i to $4 ($(hexof "$5")): $msg (exit $2), expected $3"
	return 1
}

# bad_write KIND TARGET FILE SIZE EXPECT: FILE to TARGET in one write().
bad_write() {
	dd if="$3" of="$2" bs="$4" count=1 conv=notrunc 2>$W/dd.err
	written "$1" $? "$5" "$2" "$3"
}

# mklist NAME: the printf formats on stdin, one a line, to the files
# $W/NAME/0, 1, ... ("@empty": no bytes; "@zeros N": N "0"s; "A|B" for part:
# the two halves 0a and 0b), their sizes to NAMEsz_I, and a line
# "NAME I SIZE HEX" each to $W/lists for the plan.
mklist() {
	local j=0 fmt f sz
	while IFS= read -r fmt; do
		f=$j
		case $1:$fmt in
		part:*)
			printf "${fmt%%|*}" > $W/part/${j}a
			printf "${fmt#*|}" > $W/part/${j}b
			f="${j}a ${j}b" ;;
		*:@empty)
			: > $W/$1/$j ;;
		*:"@zeros "*)
			awk -v n=${fmt#@zeros } 'BEGIN { s = "0"; while (length(s) < n) s = s s; printf "%s", substr(s, 1, n) }' > $W/$1/$j ;;
		*)
			printf "$fmt" > $W/$1/$j ;;
		esac
		for f in $f; do
			sz=$(wc -c < $W/$1/$f)
			eval "${1}sz_$f=$sz"
			echo "$1 $f $sz" $(od -An -tx1 -v -N64 $W/$1/$f) >> $W/lists
		done
		j=$((j + 1))
	done
	eval "n$1=$j"
}


# ebusy_check WHEN: "free" while the option is set fails with EBUSY and
# keeps the map.
ebusy_check() {
	local f rc msg
	: > $W/ebusy.fail
	for f in free free_nl; do
		dd if=$W/$f of=stack_map bs=$(wc -c < $W/$f) count=1 conv=notrunc 2>$W/dd.err
		rc=$?
		msg=
		IFS= read -r msg < $W/dd.err
		case $rc:$msg in
		0:*) echo "$(hexof $W/$f): taken" ;;
		*"error writing"*"esource busy") ;;
		*) echo "$(hexof $W/$f): $msg (exit $rc)" ;;
		esac >> $W/ebusy.fail
	done
	same_state || { echo "then the files differ from the snapshot:"; changes; } >> $W/ebusy.fail
	if [ -s $W/ebusy.fail ]; then
		fuzz_say "FAIL: $1: \"free\" and \"free\\n\" while options/stackmap is 1 fail with EBUSY and keep the map"
		ktap_detail < $W/ebusy.fail
		rebase
	else
		fuzz_say "PASS: $1: \"free\" and \"free\\n\" while options/stackmap is 1 fail with EBUSY and keep the map"
	fi
}

