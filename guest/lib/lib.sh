# SPDX-License-Identifier: GPL-2.0
# The guest scripts' results, as KTAP: one document per part, read on the
# host by lib/ktap.py. A script sources this file, then:
#   ktap_start NAME     "=== PART NAME" (how the host finds the part) and
#                       "KTAP version 1"
#   ktap_pass WHAT      "ok N WHAT"
#   ktap_fail WHAT      "not ok N WHAT"
#   ktap_skip WHAT      "ok N WHAT # SKIP"
#   ktap_check WHAT CMD ktap_pass WHAT if the shell command CMD succeeds;
#                       otherwise ktap_fail WHAT, with CMD's output (20
#                       lines) as diagnostics. CMD is a string, evaluated:
#                       most checks are tests of the caller's variables
#   ktap_detail [LINES] standard input, at most LINES (40) of it, as "# "
#                       diagnostic lines: what a failure found
#   ktap_note TEXT      "# TEXT"
#   ktap_figure TEXT    "# figure: TEXT", a measured figure the host prints
#   ktap_end            the plan, "1..N", and "# Totals: ...": a part that
#                       does not reach it did not finish
# and (guest/lib/args.sh) harness_arg NAME, stackmap_cases; workload: a
# little scheduling, file and /proc work to trace;
# check_kmemleak RE WHAT: kmemleak (where the kernel has it) reports no
# object whose allocation stack matches the awk regular expression RE.
# pool_areas FRAMES [FILE]: how many vmalloc areas of FILE (/proc/vmallocinfo)
# hold a stack map's frame pool of FRAMES words: allocated by
# trace_stackmap_create(), or by the vcalloc() helper (which a kernel without
# sibling calls names) with exactly the pages of the pool. The word size is
# the width of the addresses in the file.
# Results are counted in a file, so that subshells and pipelines count too.

. /guest/args.sh

KTAP_DIR=/tmp/ktap

ktap_start() {
	KTAP_PART=$1
	mkdir -p $KTAP_DIR
	: > "$KTAP_DIR/$KTAP_PART"
	echo "=== PART $KTAP_PART"
	echo "KTAP version 1"
}

# ktap_result KIND LINE-START WHAT [DIRECTIVE]
ktap_result() {
	local n
	echo "$1" >> "$KTAP_DIR/$KTAP_PART"
	n=$(wc -l < "$KTAP_DIR/$KTAP_PART")
	# A "#" in WHAT would read as a directive.
	echo "$2 $n $(echo "$3" | tr '#' '_')${4:+ # $4}"
}

ktap_pass() { ktap_result pass ok "$*"; }
ktap_fail() { ktap_result fail "not ok" "$*"; }
ktap_skip() { ktap_result skip ok "$*" SKIP; }
ktap_check() {
	if eval "$2" > $KTAP_DIR/check.out 2>&1; then
		ktap_pass "$1"
	else
		ktap_fail "$1"
		ktap_detail 20 < $KTAP_DIR/check.out
	fi
}
ktap_detail() { head -n "${1:-40}" | sed 's/^/# /'; }
ktap_note() { echo "# $*"; }
ktap_figure() { echo "# figure: $*"; }

ktap_end() {
	local f=$KTAP_DIR/$KTAP_PART
	echo "1..$(wc -l < "$f")"
	echo "# Totals: pass:$(grep -c '^pass$' "$f") fail:$(grep -c '^fail$' "$f") xfail:0 xpass:0 skip:$(grep -c '^skip$' "$f") error:0"
}

workload() {
	local k
	for k in 1 2 3 4 5 6; do
		ls / > /dev/null
		cat /proc/self/stat > /dev/null
		sleep 0.02
	done
}

# kmemleak reports an object only once it is 5 seconds old: scan after that.
check_kmemleak() {
	local k=/sys/kernel/debug/kmemleak out=/tmp/kmemleak
	if [ ! -w $k ]; then
		ktap_note "no kmemleak in this kernel: leaks not checked"
		return 0
	fi
	sleep 6
	echo scan > $k
	echo scan > $k
	cat $k > $out
	awk -v re="$1" '/^unreferenced object/ { if (b ~ re) print b; b = "" }
			{ b = b $0 "\n" }
			END { if (b ~ re) print b }' $out > $out.match
	ktap_figure "kmemleak: $(grep -c '^unreferenced object' $out) unreferenced objects, $(grep -c '^unreferenced object' $out.match) of $2"
	ktap_check "kmemleak: nothing of $2 leaked" "[ ! -s $out.match ]"
	[ ! -s $out.match ] || ktap_detail 40 < $out.match
}

pool_areas() {
	awk -v frames="$1" '
		{ split($1, a, "-"); word = (length(a[1]) - 2) / 2 }
		$3 ~ /^trace_stackmap_create[+.]/ { n++; next }
		$3 ~ /^(__vmalloc_array|__vcalloc|vcalloc)(_noprof)?[+.]/ && match($0, / pages=[0-9]+/) {
			p = substr($0, RSTART + 7, RLENGTH - 7)
			if (p * ($2 / (p + 1)) == frames * word)
				n++
		}
		END { print n + 0 }' "${2:-/proc/vmallocinfo}"
}
