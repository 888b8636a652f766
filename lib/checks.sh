# SPDX-License-Identifier: GPL-2.0
# Reading what a boot left: the console, KUnit, ftracetest (the stackmap
# cases and the regression subset against the base's own baseline), the
# KTAP results of the guest parts (lib/ktap.py). Which boot runs what is
# lib/plan.sh's.

PASSED=0 FAILED=0 SKIPPED=0
pass() { PASSED=$((PASSED + 1)); }
fail() { FAILED=$((FAILED + 1)); echo "FAIL: [$BASE] $*"; }
# counts_end [LABEL]: the closing line of a command that counts checks
# ("N passed, N failed, N skipped"); the harness exits 1 there if one
# failed: the result itself, not an error for the ERR trap to name.
counts_end() {
	echo "${1:+$1: }$PASSED passed, $FAILED failed, $SKIPPED skipped"
	[ "$FAILED" -eq 0 ] || exit 1
}
skip() { SKIPPED=$((SKIPPED + 1)); }
# counts: "PASSED FAILED SKIPPED" so far, for the deltas of a part of a run.
counts() { echo "$PASSED $FAILED $SKIPPED"; }

# Console: no WARNING/BUG/Oops/lockdep splat anywhere in the boot.
check_console() {
	local con=$1 hits
	hits=$(grep -anE 'WARNING:|BUG:|Oops|Kernel panic|general protection|possible (recursive|circular) locking|inconsistent lock state|suspicious RCU usage|INFO: task .* blocked|UBSAN:|KASAN:' "$con" || true)
	if [ -n "$hits" ]; then
		fail "console: kernel splat in ${con#"$TOP"/}:"
		echo "$hits" | head -20
		return
	fi
	pass
}

# KUnit: the KTAP output on the console before /init runs, parsed by the
# kernel's own kunit.py. A crash mid-suite is a failure, not a missing count.
check_kunit() {
	local con=$1 src=$2 ktap=$RUN/kunit.ktap parse=$RUN/kunit.parse rc=0 summary n
	sed -n '1,/Run \/init as init process/p' "$con" >"$ktap"
	if ! grep -aq 'KTAP version 1' "$ktap"; then
		fail "kunit: no KTAP output on the console"
		return
	fi
	(cd "$src" && PYTHONDONTWRITEBYTECODE=1 python3 tools/testing/kunit/kunit.py parse "$ktap") \
		>"$parse" 2>&1 || rc=$?
	summary=$(grep -a 'Testing complete' "$parse" | tail -1 | sed 's/.*Testing complete. //; s/\x1b\[[0-9;]*m//g' || true)
	kcount() { local v; v=$(sed -n "s/.*$1: \([0-9]*\).*/\1/p" <<<"$summary"); echo "${v:-0}"; }
	n=$(kcount passed); PASSED=$((PASSED + ${n:-0}))
	n=$(kcount skipped); SKIPPED=$((SKIPPED + ${n:-0}))
	n=$(($(kcount failed) + $(kcount crashed) + $(kcount errors)))
	if [ $rc -ne 0 ] || [ $n -ne 0 ] || [ -z "$summary" ]; then
		sed 's/\x1b\[[0-9;]*m//g' "$parse" | grep -aE 'FAILED|CRASHED|ERROR|Expected|not ok' | head -40
		FAILED=$((FAILED + (n > 0 ? n - 1 : 0)))
		fail "kunit: ${summary:-the parser found no results} (full: ${parse#"$TOP"/})"
		return
	fi
	echo "kunit [$BASE]: $summary"
}

# ktap OUT [PART]: the KTAP results of a guest's output (lib/ktap.py).
ktap() { python3 "$TOP/lib/ktap.py" "$@"; }

# ftracetest -K: "RESULT<TAB>case" in ftracetest's own words, as the
# baselines hold them (a skipped case is UNSUPPORTED or UNTESTED there: both
# count the same).
ft_results() {
	ktap "$1" ftracetest | awk -F'\t' '
		$2 == "PASS" || $2 == "FAIL" || $2 == "UNRESOLVED" || $2 == "XFAIL" { print $2 "\t" $3 }
		$2 == "SKIP" { print "UNSUPPORTED\t" $3 }
		$2 == "ERROR" { print "UNDEFINED\t" $3 }'
}

# ft_finished OUT: ftracetest reached its totals with as many results as
# its plan; says what it ran otherwise.
ft_finished() {
	local rows n plan
	rows=$(ktap "$1" ftracetest)
	n=$(awk -F'\t' '$2 != "END" && $2 != "#"' <<<"$rows" | wc -l)
	plan=$(awk -F'\t' '$2 == "END" { print $3 }' <<<"$rows")
	[ -n "$plan" ] && [ "$plan" = "$n" ] && return 0
	echo "ftracetest did not finish: $n results, plan ${plan:-missing}"
	return 1
}

# Some descriptions are not unique: number the repeats (" #2") in run
# order, which is the same on every run.
ft_number() { awk -F'\t' '{ n = ++seen[$2]; print $1 "\t" $2 (n > 1 ? " #" n : "") }'; }

# Names of the cases that live in test.d/stackmap (the guest prints them).
stackmap_cases() { tr -d '\r' <"$1" | sed -n 's/^=== STACKMAP CASE //p' | sed -E 's/ +/ /g'; }

# Every stackmap case must pass; every other case must do at least as well
# as on the base (tests/ftracetest-baseline-BASE.txt), and every case that
# passed there must have run.
check_ftracetest() {
	local out=$1 res name was n=0
	[ -f "$BASELINE" ] || die "${BASELINE#"$TOP"/} is missing (BASE=$BASE${TSUF:+ ARCH=$TARGET} ./harness baseline)"
	local cases smcases basecases names missing
	ft_finished "$out" >/dev/null || fail "ftracetest: $(ft_finished "$out")"
	cases=$(ft_results "$out" | ft_number)
	basecases=$(grep -v '^#' "$BASELINE" | ft_number)
	smcases=$(stackmap_cases "$out")
	[ -n "$cases" ] || { fail "ftracetest: no results in the guest output"; return; }
	while IFS=$'\t' read -r res name; do
		n=$((n + 1))
		was=$(awk -F'\t' -v n="$name" '$2 == n { print $1 }' <<<"$basecases")
		if grep -qxF -- "$name" <<<"$smcases"; then
			if [ "$res" = PASS ]; then pass; else fail "ftracetest (stackmap): $name: $res"; fi
			continue
		fi
		case "$res" in
		PASS) pass ;;
		UNSUPPORTED | UNTESTED | XFAIL)
			if [ "$was" = PASS ]; then fail "ftracetest: $name: $res (PASS on the base)"; else skip; fi ;;
		*)
			if [ "$was" = "$res" ]; then
				echo "known on the base [$BASE]: $name: $res"
				skip
			else
				fail "ftracetest: $name: $res (${was:-not run} on the base)"
			fi ;;
		esac
	done <<<"$cases"
	# No "cut | grep -q" here: with pipefail, grep -q's early exit can make
	# cut die of SIGPIPE and the name look missing.
	names=$(cut -f2 <<<"$cases")
	missing=$(awk -F'\t' '$1 == "PASS" { print $2 }' <<<"$basecases" | while IFS= read -r name; do
		grep -qxF -- "$name" <<<"$names" || echo "$name"
	done)
	[ -n "${FTRACETEST:-}" ] && missing=
	[ -z "$missing" ] || fail "ftracetest: cases that passed on the base did not run: $missing"
	missing=$(while IFS= read -r name; do
		[ -z "$name" ] || grep -qxF -- "$name" <<<"$names" || echo "$name"
	done <<<"$smcases")
	[ -n "${FTRACETEST:-}" ] && missing=
	[ -z "$missing" ] || fail "ftracetest: stackmap cases that did not run: $missing"
	echo "ftracetest [$BASE]: $n cases"
}

# The stackmap tool's tests (guest/parts/tool.sh), when the series has the tool.
check_tool() {
	[ -f "$KT/tools/tracing/stackmap/Makefile" ] || return 0
	guest_checks tooltest "$1"
}

# check_finished MODE: the guest of that boot reached its end marker (it
# did not panic, hang or die); what it ran is checked apart.
check_finished() {
	if grep -a '^=== HARNESS EXIT' "$RUN/$1.out" >/dev/null 2>&1; then
		pass
	else
		fail "$1 boot: the guest did not finish"
		return 1
	fi
}

# stack_records: "stack_id N gen G<TAB>frame|frame|..." for every stack in
# stack_map text (records) or in trace text (cookie headers and the frame
# lines right under them), sorted, unique.
stack_records() {
	awk '
	function flush() { if (id != "") print id "\t" frames; id = "" }
	/^ => / { frames = frames $0 "|"; next }
	{ flush() }
	/^stack_id / { id = $1 " " $2 " " $3 " " $4; frames = "" }
	/<stack_id [0-9]+ gen [0-9]+>$/ { id = substr($0, index($0, "<stack_id ") + 1)
					  sub(/>$/, "", id); frames = "" }
	END { flush() }' | sort -u
}

# S25: the sysrq-z dump at the end of the boot check (guest/modes/bootcheck.sh) prints
# the frames of each cookie, the same as the stack_map the guest printed.
check_ftrace_dump() {
	local con=$1 out=$2 map=$RUN/dump.map dump=$RUN/dump.trace n bad
	tr -d '\r' <"$out" | sed -n '/^=== STACK_MAP BEGIN$/,/^=== STACK_MAP END$/p' |
		stack_records >"$map"
	# The dump: from "Dumping ftrace buffer:" to its second separator line,
	# without the printk time stamps.
	tr -d '\r' <"$con" | sed -E 's/^\[ *[0-9]+\.[0-9]+\] //' |
		awk '/^Dumping ftrace buffer:/ { on = 1; next }
		     on && /^-+$/ { if (++sep == 2) exit; next }
		     on' >"$RUN/dump.txt"
	stack_records <"$RUN/dump.txt" >"$dump"
	n=$(grep -c '	 => ' "$dump" || true)
	if [ "$n" -eq 0 ]; then
		fail "ftrace_dump: no cookie with its frames in the sysrq-z dump (${con#"$TOP"/})"
		return
	fi
	bad=$(grep -c '\[unresolved\]' "$RUN/dump.txt" || true)
	[ "$bad" -eq 0 ] || { fail "ftrace_dump: $bad cookies of the live generation unresolved"; return; }
	bad=$(grep -vxF -f "$map" "$dump" || true)
	[ -z "$bad" ] || { fail "ftrace_dump: frames that differ from stack_map:"; echo "$bad" | head -5; return; }
	echo "ftrace_dump [$BASE]: $n cookies printed with their frames, as in stack_map"
	pass
}

# guest_checks PART OUT: every KTAP result of a guest part (guest/lib/lib.sh),
# the diagnostics under a failure, its figures; a part that did not reach
# its plan (it stopped half way) or ran nothing fails.
guest_checks() {
	local part=$1 out=$2 res what n=0 plan= last=PASS
	while IFS=$'\t' read -r _ res what; do
		case "$res" in
		PASS) pass ;;
		SKIP | XFAIL) skip ;;
		END) plan=$what; continue ;;
		'#')
			case "$what" in
			"figure: "*) echo "$part [$BASE]: ${what#figure: }" ;;
			*) [ "$last" = PASS ] || echo "  $what" ;;
			esac
			continue ;;
		*) fail "$part: $what${res:+ ($res)}" ;;
		esac
		n=$((n + 1)) last=$res
	done < <(ktap "$out" "$part")
	if [ -z "$plan" ] || [ "$plan" != "$n" ]; then
		fail "$part: the guest part did not finish ($n results, plan ${plan:-missing})"
	elif [ "$n" -eq 0 ]; then
		fail "$part: no checks ran"
	else
		echo "$part [$BASE]: $n checks"
	fi
}

# check_stackmap_only OUT: an ftracetest run of test.d/stackmap alone; every
# case listed must have run and passed; where it runs in an instance too, it
# must not fail there (UNSUPPORTED: 6.12's files.tc, see its cover letter).
check_stackmap_only() {
	local out=$1 res name run n=0 cases smcases boot
	boot="$(basename "$out" .out) boot${TSUF:+ on $TARGET}"
	ft_finished "$out" >/dev/null || fail "ftracetest ($boot): $(ft_finished "$out")"
	cases=$(ft_results "$out")
	smcases=$(stackmap_cases "$out")
	[ -n "$smcases" ] || { fail "ftracetest ($boot): no stackmap cases listed"; return; }
	while IFS= read -r name; do
		for run in "$name" "(instance) $name"; do
			res=$(awk -F'\t' -v n="$run" '$2 == n { print $1 }' <<<"$cases")
			# Only the cases flagged for instances run there.
			[ -n "$res" ] || [ "$run" = "$name" ] || continue
			n=$((n + 1))
			if [ "$res" = PASS ]; then
				pass
			elif [ "$res" = UNSUPPORTED ] && [ "$run" != "$name" ]; then
				echo "UNSUPPORTED in an instance: $run"
				skip
			else
				fail "ftracetest (stackmap, $boot): $run: ${res:-did not run}"
			fi
		done
	done <<<"$smcases"
	echo "ftracetest [$BASE, $boot]: $n stackmap cases"
}

# check_kcsan CONSOLE [PLANT]: KCSAN reports whose stacks go through the
# stack map fail; the others (races elsewhere in the kernel, which this
# series does not touch) are counted and listed, not failed. With PLANT (a
# kernel with tests/kcsan-plant.patch), a report in the map must be there.
# Every other kind of report fails as in check_console.
check_kcsan() {
	local con=$1 plant=${2:-} ours others
	# A report runs from its "BUG: KCSAN:" line to the "====" line that closes it.
	ours=$(tr -d '\r' <"$con" | awk '/BUG: KCSAN:/ { on = 1; r = "" }
		on { r = r $0 "\n" }
		on && /^\[ *[0-9.]+\] =+$/ { on = 0; if (r ~ /stackmap/) printf "%s", r }' )
	others=$(grep -a 'BUG: KCSAN:' "$con" | grep -vc stackmap || true)
	if [ -n "$plant" ]; then
		if [ -n "$ours" ]; then pass; else fail "KCSAN: no report of the planted missing barrier"; fi
		echo "$ours" | head -60
	elif [ -n "$ours" ]; then
		fail "KCSAN: data races in the stack map:"
		echo "$ours" | head -60
	else
		pass
	fi
	echo "KCSAN [$BASE]: $(grep -a 'BUG: KCSAN:' "$con" | grep -c stackmap || true) reports in the stack map, $others elsewhere"
	[ "$others" -eq 0 ] || grep -a 'BUG: KCSAN:' "$con" | grep -v stackmap | sed 's/^\[[ 0-9.]*\] //' | sort | uniq -c | sort -rn | head -10
	local hits
	hits=$(grep -anE 'WARNING:|BUG:|Oops|Kernel panic|general protection|possible (recursive|circular) locking|inconsistent lock state|suspicious RCU usage|INFO: task .* blocked|UBSAN:|KASAN:' "$con" | grep -v 'BUG: KCSAN:' || true)
	if [ -n "$hits" ]; then
		fail "console: kernel splat in ${con#"$TOP"/}:"
		echo "$hits" | head -20
		return
	fi
	pass
}
