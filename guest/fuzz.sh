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
# Its results are KTAP (guest/lib.sh), part "fuzz": one result per check,
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
# say PASS: WHAT, say FAIL: WHAT: a result; say TEXT: a note.
say() {
	case $1 in
	"PASS: "*) pass "${1#PASS: }" ;;
	"FAIL: "*) fail "${1#FAIL: }" ;;
	*) note "$1" ;;
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
	figure "$nw bad writes, $(kinds_run) kinds"
	ktap_end
	exit 0
}

case $N in
''|*[!0-9]*) say "FAIL: the iteration count must be a number, not '$N'"; finish ;;
esac
case $SEED in
''|*[!0-9]*) say "FAIL: the seed must be a number, not '$SEED'"; finish ;;
esac
cd $T 2>/dev/null || { say "FAIL: no tracefs at $T"; finish; }
if [ ! -e stack_map ] || [ ! -e options/stackmap ]; then
	say "FAIL: no stack_map or options/stackmap in $T (CONFIG_FTRACE_STACKMAP=n?)"
	finish
fi
rm -rf $W
mkdir -p $W/b $W/near $W/part $W/opt $W/topt
: > $W/lists
: > $W/excluded
: > $W/batch.log

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

# note KIND TEXT: a failure of KIND, printed under its FAIL line.
note() {
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

workload() {
	for j in 1 2 3 4 5 6; do
		ls / >/dev/null
		cat /proc/self/stat >/dev/null
		sleep 0.02
	done
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
	note $k "$what changed the files:"
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
	note $1 "write #$i to $4 ($(hexof "$5")): $msg (exit $2), expected $3"
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

# Near misses of stack_map's three words.
mklist near <<'EOF'
00
0\040
\0400
1
-0
0x0
fre
freez
frees
FREE
free\n\n
0\n0
0\000
free\000
\n
@empty
@zeros 4096
@zeros 65536
+0
0\r
0\r\n
0\n\n
\t0
\0000
\000
Free
frees\n
freezee
freeze\040
free\040\n
freeze\000
0\n\000
0\000\000\000\000\000\000
00000000
0000000
freeze\n\n
reset
1\n
EOF
# Words cut in two, written on one descriptor: none is taken, so the file
# must not add them up.
mklist part <<'EOF'
fr|ee
fre|e
fre|e\n
f|ree
fre|eze
freez|e
freez|e\n
fr|eeze
fr|ee\n
EOF
# options/stackmap takes 0 and 1 as kstrtoul() reads them.
mklist opt <<'EOF'
2
-1
01x
yes
no
true
on
\0401
1\040
1\n\n
0x1
-0
11
10
1.0
4294967297
18446744073709551616
\n
\0001
1\r
one
+
+-1
EOF
# trace_options takes the names of the options, with or without "no".
mklist topt <<'EOF'
stackmapx
no\040stackmap
stack\040map
STACKMAP
stackmap-resolvex
nostackmapx
nonostackmap
stackmap,stacktrace
no
stackmap\040stacktrace
stackma
tackmap
no-stackmap
stack_map
\000stackmap
EOF
printf 'free' > $W/free
printf 'free\n' > $W/free_nl

# The plan: one write a line, "KIND ARG PAYLOAD". PAYLOAD is the bytes as
# printf octal escapes, or "-" for the list entry ARG. Every payload is one
# the kernel must refuse: the validity rules below are those of the doc
# (stack_map), kstrtoul() (options/stackmap) and trace_set_options()
# (trace_options: the name up to a NUL, without leading and trailing
# isspace(), without "no"); a list entry that breaks them is left out.
names=$(sed 's/^no//' trace_options | tr '\n' ' ')
awk -v n="$N" -v seed="$SEED" -v names="$names" -v excl=$W/excluded '
# Bytes are numbers: busybox awk compares the strings of split() as strings.
function rnd(k) { return int(rand() * k) }
function oct(m,   s, j) { s = ""; for (j = 1; j <= m; j++) s = s sprintf("\\%03o", B[j]); return s }
function tob(h,   t, k, j) { k = split(h, t, " "); for (j = 1; j <= k; j++) B[j] = HEX[t[j]]; return k }
function vmap(m,   s, j, x) {
	if (m >= 8)
		return 0
	s = ""
	for (j = 1; j <= m; j++) { x = B[j]; s = s (x == 10 ? "\n" : (x > 32 && x < 127) ? CH[x] : "\001") }
	return s == "0" || s == "0\n" || s == "free" || s == "free\n" || s == "freeze" || s == "freeze\n"
}
function vopt(m,   s, j, x) {
	if (m > 66)
		return 1
	s = ""
	for (j = 1; j <= m && B[j] != 0; j++) { x = B[j]; s = s ((x == 43 || (x >= 48 && x <= 57)) ? CH[x] : x == 10 ? "n" : "x") }
	return s ~ /^[+]?0*[01]n?$/
}
function vtopt(m,   s, j, x) {
	if (m >= 64)
		return 0
	s = ""
	for (j = 1; j <= m && B[j] != 0; j++) { x = B[j]; s = s ((x > 32 && x < 127) ? CH[x] : ((x >= 9 && x <= 13) || x == 32 || x == 160) ? " " : "\001") }
	sub(/^ +/, "", s)
	sub(/ +$/, "", s)
	if (substr(s, 1, 2) == "no")
		s = substr(s, 3)
	return s in NAME
}
function valid(t, m) { return t == "opt" ? vopt(m) : t == "topt" ? vtopt(m) : t == "ro" ? 0 : vmap(m) }
function randw(t, maxlen,   m, j) {
	do {
		m = 1 + rnd(maxlen)
		for (j = 1; j <= m; j++)
			B[j] = rnd(256)
	} while (valid(t, m))
	return m
}
function ibyte() { return rand() < 0.5 ? rnd(256) : INT[rnd(nint)] }
# One or two edits of a valid word: replace, insert, delete, upper-case,
# append or double a byte.
function mutate(   m, k, op, p, j) {
	m = tob(BASE[rnd(6)])
	for (k = 1 + rnd(2); k > 0; k--) {
		op = rnd(6)
		p = 1 + rnd(m)
		if (op == 0)
			B[p] = ibyte()
		else if (op == 1) {
			p = 1 + rnd(m + 1)
			for (j = m; j >= p; j--)
				B[j + 1] = B[j]
			B[p] = ibyte()
			m++
		} else if (op == 2 && m > 1) {
			for (j = p; j < m; j++)
				B[j] = B[j + 1]
			m--
		} else if (op == 3 && B[p] >= 97 && B[p] <= 122)
			B[p] -= 32
		else if (op == 4)
			B[++m] = ibyte()
		else {
			for (j = m; j >= p; j--)
				B[j + 1] = B[j]
			m++
		}
	}
	return m
}
function mutw(   m) {
	do
		m = mutate()
	while (vmap(m))
	return m
}
function entry(l,   k) { k = RR[l]++; return USE[l, (k + RO[l]) % NU[l]] }
BEGIN {
	for (j = 0; j < 256; j++) {
		HEX[sprintf("%02x", j)] = j
		if (j > 32 && j < 127)
			CH[j] = sprintf("%c", j)
	}
	nint = split("0 10 13 32 9 48 49 102 114 101 122 255 128 160", t, " ")
	for (j = 1; j <= nint; j++)
		INT[j - 1] = t[j] + 0
	k = split(names, t, " ")
	for (j = 1; j <= k; j++)
		NAME[t[j]] = 1
	split("30|30 0a|66 72 65 65|66 72 65 65 0a|66 72 65 65 7a 65|66 72 65 65 7a 65 0a", t, "|")
	for (j = 1; j <= 6; j++)
		BASE[j - 1] = t[j]
	split("30|30 0a|66 72 65 65 0a|66 72 65 65 7a 65 0a|67 61 72 62 61 67 65 0a", t, "|")
	for (j = 1; j <= 5; j++)
		ROW[j - 1] = t[j]
	srand(seed)
}
{
	l = $1
	m = 0
	for (j = 4; j <= NF; j++)
		B[++m] = HEX[$j]
	bad = ($3 + 0 > 64) ? (l == "opt") : valid(l, m)
	if (l == "part") {
		p = substr($2, 1, length($2) - 1)
		if (!(p in PB))
			PORD[np++] = p
		PB[p] += bad
	} else if (bad)
		print l, $2 > excl
	else
		USE[l, NU[l]++] = $2
}
END {
	for (j = 0; j < np; j++)
		if (PB[PORD[j]])
			print "part", PORD[j] > excl
		else
			USE["part", NU["part"]++] = PORD[j]
	RO["near"] = rnd(NU["near"] + 1)
	RO["part"] = rnd(NU["part"] + 1)
	RO["opt"] = rnd(NU["opt"] + 1)
	RO["topt"] = rnd(NU["topt"] + 1)
	for (it = 1; it <= n; it++) {
		r = rand()
		if (r < 0.15)
			k = "rand"
		else if (r < 0.25)
			k = "mut"
		else if (r < 0.40)
			k = "near"
		else if (r < 0.47)
			k = "part"
		else if (r < 0.55)
			k = "off"
		else if (r < 0.70)
			k = "opt"
		else if (r < 0.85)
			k = "topt"
		else if (r < 0.93)
			k = "ro"
		else
			k = "rand"
		if ((k == "near" || k == "part") && !NU[k])
			k = "rand"
		if (k == "rand") {
			m = rand() < 0.5 ? randw("map", 8) : randw("map", 64)
			print k, "-", oct(m)
		} else if (k == "mut")
			print k, "-", oct(mutw())
		else if (k == "near" || k == "part")
			print k, entry(k), "-"
		else if (k == "off") {
			q = rand()
			if (q < 0.3)
				m = tob("67 61 72 62 61 67 65")
			else if (q < 0.7)
				m = mutw()
			else
				m = randw("map", 7)
			print k, rnd(4) ":" (1 + rnd(4096)), oct(m)
		} else if (k == "opt" || k == "topt") {
			if (rand() < 0.4 || !NU[k])
				print k, "-", oct(randw(k, 64))
			else
				print k, entry(k), "-"
		} else {
			m = rand() < 0.5 ? tob(ROW[rnd(5)]) : randw("ro", 64)
			print k, rnd(2), oct(m)
		}
	}
}' $W/lists > $W/plan
if [ -s $W/excluded ]; then
	say "FAIL: the fuzzer's lists hold writes the kernel takes; left out:"
	while read -r l e; do
		for f in $W/$l/$e*; do
			echo "$l: $(hexof $f)"
		done
	done < $W/excluded | detail
fi

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
		say "FAIL: $1: \"free\" and \"free\\n\" while options/stackmap is 1 fail with EBUSY and keep the map"
		detail < $W/ebusy.fail
		rebase
	else
		say "PASS: $1: \"free\" and \"free\\n\" while options/stackmap is 1 fail with EBUSY and keep the map"
	fi
}

# The setup: a map with stacks, tracing quiet.
populate
snap $W/ref
refsize=$(wc -c < $W/ref.map)
entries=$(sed -n 's/^stack_map_stat:entries: //p' $W/ref.txt)
gen=$(sed -n 's/^stack_map_stat:generation: //p' $W/ref.txt)
sleep 1
if [ "${entries:-0}" -gt 0 ] && grep -qx 'options/stackmap:1' $W/ref.txt &&
   same_state && cat stack_map | cmp -s - $W/ref.map; then
	say "PASS: setup: a map of $entries stacks (generation $gen, option set), tracing quiet: nothing changes in 1 s"
else
	say "FAIL: setup: a map of stacks (option set) and quiet tracing"
	{ grep -v '^trace_options:' $W/ref.txt | sed 's/^/  /'; changes; } | detail
	cleanup
	finish
fi
say "seed $SEED, $N iterations: sh fuzz.sh $N $SEED makes the same writes"
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
		[ $opened = 1 ] || note part "write #$i: stack_map could not be opened for writing"
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
				note off "write #$i ($(hexof $pay)): read $got bytes, skipped $skip, wrote, read on: not the text of stack_map"
		else
			note off "write #$i: stack_map could not be opened for reading and writing"
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
			note text "the text of stack_map changed within the writes #$bstart to #$i:"
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

# writer ID: bad writes to stack_map until $W/stop exists: random bytes
# of 1..64 bytes from /dev/urandom, and every third a near miss.
writer() {
	local id=$1 n=0 k=0 f sz rc msg j
	: > $W/cw$id.bad
	while [ ! -e $W/stop ]; do
		k=$((k + 1))
		if [ $((k % 3)) = 0 ] && [ $nnear -gt 0 ]; then
			j=$(( (k / 3 + id * 5) % nnear ))
			f=$W/near/$j
			eval "sz=\$nearsz_$j"
			[ "$sz" -gt 0 ] || continue
			case $near_excluded in *" $j "*) continue ;; esac
		else
			sz=$(( (k * 13 + id * 7) % 64 + 1 ))
			f=$W/cw$id.pay
			head -c $sz /dev/urandom > $f
			[ $sz -le 7 ] && is_valid_map $f && continue
		fi
		n=$((n + 1))
		dd if=$f of=stack_map bs=$sz count=1 conv=notrunc 2>$W/cw$id.err
		rc=$?
		msg=
		IFS= read -r msg < $W/cw$id.err
		case $rc:$msg in
		0:*) echo "writer $id, write $n ($(hexof $f)): taken" ;;
		*"error writing"*": Invalid argument") ;;
		*) echo "writer $id, write $n ($(hexof $f)): $msg (exit $rc)" ;;
		esac >> $W/cw$id.bad
	done
	echo $n > $W/cw$id.n
}

near_excluded=" $(echo $(sed -n 's/^near //p' $W/excluded)) "
rm -f $W/stop
writer 1 &
p1=$!
writer 2 &
p2=$!
writer 3 &
p3=$!
writer 4 &
p4=$!
(sleep $CONC_SECS; : > $W/stop) &
tp=$!
rbad=0
while [ ! -e $W/stop ]; do
	reads=$((reads + 1))
	if ! cat stack_map | cmp -s - $W/ref.map; then
		rbad=$((rbad + 1))
		[ $rbad -le 3 ] && note conc "read $reads of stack_map, during the writes, is not the snapshot's text"
	fi
done
wait $p1 $p2 $p3 $p4 $tp
for id in 1 2 3 4; do
	n=$(cat $W/cw$id.n 2>/dev/null)
	n=${n:-0}
	nw=$((nw + n))
	w_conc=$((w_conc + n))
	[ -s $W/cw$id.bad ] || continue
	f_conc=$((f_conc + $(wc -l < $W/cw$id.bad)))
	cat $W/cw$id.bad >> $W/fail.conc
done
[ $rbad -gt 3 ] && note conc "... $((rbad - 3)) more reads not the snapshot's text"
unchanged conc "the concurrent writes"
w_text=$((w_text + 1))
if ! cat stack_map | cmp -s - $W/ref.map; then
	note text "the text of stack_map changed with the concurrent writes:"
	changes >> $W/fail.text
	rebase
fi

# One line for each kind of bad write.
# report KIND WHAT ERROR: the writes of KIND (WHAT) failed with ERROR.
report() {
	local n f lines
	eval "n=\$w_$1 f=\$f_$1"
	[ "$n" -gt 0 ] || return 0
	if [ -s $W/fail.$1 ]; then
		say "FAIL: $2: $f failures; each must fail with $3 and change nothing"
		head -n 40 $W/fail.$1 | detail
		lines=$(wc -l < $W/fail.$1)
		[ $lines -gt 40 ] && echo "fuzz:   ... and $((lines - 40)) more lines"
	else
		say "PASS: $2 all failed with $3 and changed nothing"
	fi
}
report rand "random bytes to stack_map ($w_rand writes of 1..64 bytes, one write() each)" EINVAL
report mut "edits of \"0\", \"free\" and \"freeze\" to stack_map ($w_mut writes: bytes replaced, inserted, deleted, upper-cased, appended, doubled)" EINVAL
report near "near misses to stack_map ($w_near writes cycling through $nnear near misses: \"00\", \"fre\", \"free\\n\\n\", \"0\\0\", \"free\\0\", 4096 and 65536 \"0\"s...; the empty write, which busybox cannot make, as $nempty open and close without a write)" EINVAL
report part "words cut in two (\"fr\" then \"ee\"...), written in two write()s on one descriptor of stack_map ($((w_part / 2)) pairs): the halves" EINVAL
report off "writes to stack_map after reads and seeks on a read-write descriptor ($w_off writes, the descriptor then read on as before)" EINVAL
report opt "bad values to options/stackmap ($w_opt writes: \"2\", \"-1\", \"01x\", \"yes\", random bytes...)" "an error"
report topt "bad names to trace_options ($w_topt writes: \"stackmapx\", \"no stackmap\", \"stack map\", random bytes...)" "an error"
report ro "writes to the read-only stack_map_stat and stack_map_bin ($w_ro writes, \"0\", \"free\\n\" and \"freeze\\n\" among them; ${ro_msg:-no error seen})" "an error"
report conc "4 concurrent writers to stack_map for ${CONC_SECS} s ($w_conc writes; meanwhile $reads reads of it, each the snapshot's text)" EINVAL
if [ -s $W/fail.text ]; then
	say "FAIL: the text of stack_map is the snapshot's at each of $w_text checks (every 20 writes)"
	head -n 40 $W/fail.text | detail
else
	say "PASS: the text of stack_map is the snapshot's at each of $w_text checks (every 20 writes)"
fi

# The end: the same snapshot again, "free" still refused, the map still
# taking its valid writes; then everything off.
snap $W/end
since=
[ $rebases -gt 0 ] && since=" (taken again after each of the $rebases failures above that changed them)"
if cmp -s $W/ref.txt $W/end.txt && cmp -s $W/ref.bin $W/end.bin && cmp -s $W/ref.map $W/end.map &&
   grep -qx 'options/stackmap:1' $W/end.txt; then
	say "PASS: after the fuzzing, stack_map, stack_map_bin, stack_map_stat and trace_options are the snapshot's$since, options/stackmap is still 1"
else
	say "FAIL: after the fuzzing, stack_map, stack_map_bin, stack_map_stat and trace_options are the snapshot's$since, options/stackmap is still 1"
	changes | detail
fi
ebusy_check "after the fuzzing"
stat_now() { sed -n "s/^$1: //p" stack_map_stat; }
g1=$(stat_now generation)
e1=$(stat_now entries)
put freeze stack_map
r1=$?
fz1=$(stat_now frozen)
put 0 stack_map
r2=$?
g2=$(stat_now generation)
e2=$(stat_now entries)
fz2=$(stat_now frozen)
if [ $r1 = 0 ] && [ "$fz1" = 1 ] && [ $r2 = 0 ] && [ -n "$g2" ] && [ "$g2" != "$g1" ] &&
   [ "$e2" = 0 ] && [ "$fz2" = 0 ] && [ -z "$(cat stack_map)" ]; then
	say "PASS: the map still takes its valid writes: freeze (frozen: 1), then 0 resets it (generation $g1 -> $g2, entries $e1 -> 0)"
else
	say "FAIL: the map still takes its valid writes: freeze (frozen: 1), then 0 resets it"
	{
		echo "freeze: exit $r1, frozen: $fz1"
		echo "0: exit $r2, generation $g1 -> $g2, entries $e1 -> $e2, frozen: $fz2"
		echo "stack_map: $(cat stack_map | wc -l) lines"
	} | detail
fi
cleanup
if [ "$(cat options/stackmap)" = 0 ] && [ -z "$(cat stack_map_stat)" ] && [ -z "$(cat stack_map)" ]; then
	say "PASS: cleanup: the option cleared, free releases the map (stack_map and stack_map_stat empty)"
else
	say "FAIL: cleanup: the option cleared, free releases the map (stack_map and stack_map_stat empty)"
	{ echo "options/stackmap: $(cat options/stackmap)"; sed 's/^/stack_map_stat: /' stack_map_stat; } | detail
fi
finish
