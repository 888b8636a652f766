# SPDX-License-Identifier: GPL-2.0
# The test plan: what "./harness test" and "./harness full" run on a base,
# boot by boot, and which gates. The boots are started by lib/boot.sh, their
# results read by lib/checks.sh; the guest side of each boot MODE is
# guest/MODE.sh.
#
# test (CI), per base:
#   build      tinyconfig + config/ fragments of bases/BASE.sh + the feature
#   test boot  every built-in KUnit suite; ftracetest: every test.d/stackmap
#              case and the regression subset below, compared case by case
#              with tests/ftracetest-baseline-BASE.txt; the stackmap tool's
#              tests (guest/parts/tool.sh)
#   tool       lib/tool.sh: the clang build, the tool's own tests run by
#              its ASAN/UBSAN build
#   bootcheck  a boot with the option, the map and its capacity on the
#              kernel command line: the boot trace starts with cookies and
#              the sysrq-z dump prints the frames stack_map holds
#   gates      BASE_TEST_GATES of bases/BASE.sh
#   record     tests/full-run.txt names these series folders as passed by
#              "full"
# full, per base: all of test, with the tool's fuzz run (lib/toolfuzz.py,
#              30 minutes) in the background, then
#   debug boot the debug kernel (lockdep, KASAN, UBSAN, fault injection):
#              the map's KUnit suite, allocation failures, the tracefs write
#              fuzzer, the stackmap cases and a stress run
#   gates      BASE_FULL_GATES (sparse, Sphinx, the per-patch bisect build,
#              =n, i386, litmus)
#   ustack     the map's own source built in user space with TSan, on a
#              concurrent workload (bench/ustack.sh)
#   and writes the base's line of tests/full-run.txt when nothing failed.
# On a target other than the default one (targets/T.sh), test runs
# plan_quick (TARGET_TEST=quick): the build, the test boot with
# test.d/stackmap alone and the boot check; full runs plan_target
# (TARGET_FULL=target): the same with the regression subset against the
# target's own baseline, the debug kernel and the target's gates.

# The ftracetest regression subset: the directories whose cases the series
# could break, held to the base's own results.
REGRESSION_SUBSET="test.d/00basic test.d/event test.d/ftrace test.d/trigger"

FULL_RECORD=$TOP/tests/full-run.txt

# The ftracetest subset on the base kernel, with only the fixes to the base
# of patches/BASE-fixes (base_fix_patches): the results a patched kernel is
# held to.
plan_baseline() {
	deps boot
	workspace
	local wt=$BDIR/base/linux obj=$BDIR/base/obj$TSUF fixes
	# Its own logs: the patched kernel's stay where they are.
	RUN=$BDIR/base/run$TSUF
	mkdir -p "$RUN"
	fixes=$(base_fix_patches)
	[ -d "$wt" ] || { mkdir -p "$BDIR/base"; git -C "$KT" worktree add -q --detach "$wt" base; }
	git -C "$wt" checkout -q --detach base
	if [ -n "$fixes" ]; then
		# shellcheck disable=SC2086
		git -C "$wt" am -q $fixes || die "the base fixes do not apply"
	fi
	build_kernel "$wt" "$obj"
	boot test "$obj" "$wt" kunit.enable=0 "harness.ftt=${REGRESSION_SUBSET// /,}" || true
	grep -a '^=== HARNESS EXIT' "$RUN/test.out" >/dev/null || die "the base kernel did not finish its test run"
	ft_finished "$RUN/test.out" >&2 || die "no baseline written"
	{
		echo "# ftracetest results on Linux $(base_version "$wt") ($(head -1 "$BDIR/source.txt"))"
		[ -n "$fixes" ] && git -C "$wt" log --format='# with the fix of patches/'"$BASE"'-fixes: %s' "base..HEAD"
		echo "# (regenerate: BASE=$BASE${TSUF:+ ARCH=$TARGET} ./harness baseline). RESULT<TAB>case"
		ft_results "$RUN/test.out"
	} >"$BASELINE"
	say "wrote ${BASELINE#"$TOP"/}: $(ft_results "$RUN/test.out" | cut -f1 | sort | uniq -c | tr '\n' ' ')"
}

# plan_layers: the call graph of the harness goes one way, no variable but
# the configuration crosses a file, no file is over 300 lines, and
# docs/callgraph.md is the graph (lib/callgraph.py); the README's table of
# options is lib/options.txt's. ./harness docs writes both.
plan_layers() {
	if python3 "$TOP/lib/callgraph.py" --check "$TOP/docs/callgraph.md"; then
		echo "layers: $(grep -c '^- `' "$TOP/docs/callgraph.md") lines of docs/callgraph.md, no arrow up"
		pass
	else
		fail "layers: the harness's call graph (lib/callgraph.py, above; ./harness docs)"
	fi
	if [ "$(readme_options)" = "$(options_markdown)" ]; then
		pass
	else
		fail "docs: the README's table of options is not lib/options.txt's (./harness docs)"
	fi
}

# readme_options [TABLE-FILE]: the README's table of options; with a file,
# put that table there instead.
readme_options() {
	local begin='<!-- options: generated' end='<!-- end of options -->'
	if [ $# -eq 0 ]; then
		awk -v b="$begin" -v e="$end" 'index($0, e) == 1 { on = 0 } on { print } index($0, b) == 1 { on = 1 }' "$TOP/README.md"
		return
	fi
	awk -v b="$begin" -v e="$end" -v t="$1" '
		index($0, e) == 1 { on = 0 }
		!on { print }
		index($0, b) == 1 { on = 1; while ((getline l < t) > 0) print l }' "$TOP/README.md" >"$TOP/README.md.new"
	mv "$TOP/README.md.new" "$TOP/README.md"
}

# plan_test: the "test" tier on the current base.
plan_test() {
	[ "$TIER" = full ] || check_full_record
	build_step
	# The recorded consoles are mainline's, read by its kunit.py.
	[ "$BASE" != "$MAINLINE" ] || parsertest_kunit "$KT"
	test_boot "${FTRACETEST:-$REGRESSION_SUBSET test.d/stackmap}" check_ftracetest
	plan_tool
	plan_bootcheck
	[ -n "${FTRACETEST:-}${NO_GATES:-}" ] || run_gates ${GATES:-$BASE_TEST_GATES}
}

# plan_quick: what a target other than the default one runs (TARGET_TEST):
# the build, every built-in KUnit suite, every test.d/stackmap case, the
# tool on a live trace and the command-line boot check. The gates and the
# tool's host tests are the same on every target and run on the default one.
plan_quick() {
	[ -z "$ARCH_ARG" ] || [ "$TIER" = full ] || check_full_record
	build_step
	test_boot "${FTRACETEST:-test.d/stackmap}" check_stackmap_only
	plan_bootcheck
}

# plan_target: "full" on a target other than the default one: what the
# architecture can break. The build; the test boot with the regression
# subset, held to the target's own baseline
# (tests/ftracetest-baseline-BASE-T.txt), and every test.d/stackmap case;
# the boot check; the debug kernel with its stress run; the gates that
# build for the target (TARGET_GATES). The tool's host tests and fuzz run
# and the gates that read the patches are the same on every target and run
# on the default one. Its result is recorded as BASE/T in
# tests/full-run.txt, which "test" does not require.
plan_target() {
	local p0 f0 s0 t0=$SECONDS digest
	read -r p0 f0 s0 < <(counts)
	digest=$(series_digest)
	deps full
	workspace
	build_step
	test_boot "${FTRACETEST:-$REGRESSION_SUBSET test.d/stackmap}" check_ftracetest
	plan_bootcheck
	[ -n "${NO_DEBUG:-}" ] || plan_debug
	[ -n "${NO_GATES:-}" ] || run_gates ${GATES:-$TARGET_GATES}
	full_record "$digest" "$t0" "$p0" "$f0" "$s0"
}

# test_boot FTT CHECK: the test boot, with the ftracetest directories or
# cases FTT; its ftracetest results read by CHECK (check_ftracetest against
# the base's baseline, or check_stackmap_only), the rest as on every target.
test_boot() {
	local ftt=$1 check=$2
	boot -t "$(tool_bin)" test "$OBJ" "$KT" "harness.ftt=${ftt// /,}" || true
	check_finished test || true
	check_console "$RUN/test.console"
	check_kunit "$RUN/test.console" "$KT"
	"$check" "$RUN/test.out"
	if has_stackmap "$KT" && [ -z "$(stackmap_cases "$RUN/test.out")" ]; then
		fail "ftracetest: the tree has the stack map but test.d/stackmap listed no case"
	fi
	check_tool "$RUN/test.out"
}

# plan_bootcheck: trace_clock=local, as when TCG fails to calibrate the
# TSC the kernel switches the default trace clock to "global" at
# late_initcall, which resets the buffer and would throw away the stacks of
# early boot. A smaller map than the default, as a device tracing from boot
# may take. harness.early=1: the tree allocates the map with the ring
# buffer, so the boot trace must start with cookies.
plan_bootcheck() {
	local early=
	grep -q 'early_trace_init' "$KT/kernel/trace/trace_stackmap_ftrace.c" && early=harness.early=1
	boot bootcheck "$OBJ" "$KT" kunit.enable=0 trace_clock=local \
		trace_options=stackmap,stacktrace trace_event=sched:sched_switch \
		trace_stackmap_capacity=4096 $early || true
	check_finished bootcheck || return 0
	check_console "$RUN/bootcheck.console"
	guest_checks bootcheck "$RUN/bootcheck.out"
	check_ftrace_dump "$RUN/bootcheck.console" "$RUN/bootcheck.out"
}

# plan_full: the "full" tier on the current base.
plan_full() {
	local p0 f0 s0 t0=$SECONDS digest
	read -r p0 f0 s0 < <(counts)
	# The folders as the run starts, and only if the workspace holds them.
	digest=$(series_digest)
	deps full
	workspace
	toolfuzz_start
	plan_test
	[ -n "${NO_DEBUG:-}" ] || plan_debug
	[ -n "${NO_GATES:-}${GATES:-}" ] || run_gates $BASE_FULL_GATES
	plan_ustack_tsan
	toolfuzz_wait
	full_record "$digest" "$t0" "$p0" "$f0" "$s0"
}

# full_record DIGEST T0 P0 F0 S0: a full run on the series folders of
# sha256 DIGEST that began at T0 seconds with P0 passes, F0 failures and S0
# skips writes its line of tests/full-run.txt if it was whole, passed and
# ran what the folders hold.
full_record() {
	local digest=$1 t0=$2 p0=$3 f0=$4 s0=$5 p f s
	read -r p f s < <(counts)
	if [ -n "${FTRACETEST:-}${NO_DEBUG:-}${NO_GATES:-}${GATES:-}${STRESS_SECS:-}${TOOLFUZZ_SECS:-}" ]; then
		say "a narrowed full run: nothing recorded"
	elif [ "$f" -ne "$f0" ]; then
		say "$BASE on $TARGET failed: nothing recorded"
	elif ! workspace_matches >/dev/null || [ "$digest" != "$(series_digest)" ]; then
		fail "the workspace of $BASE differs from its series folders, or they changed during the run: nothing recorded"
	else
		write_record "$BASE${TSUF:+/$TARGET}" "$digest" \
			"$(base_version "$KT"), $((p - p0)) passed, 0 failed, $((s - s0)) skipped, $((SECONDS - t0)) s"
	fi
}

# plan_debug: the debug kernel of the base (config/debug.config: lockdep,
# KASAN, UBSAN, ...): the stack map's KUnit suite, allocation failures, the
# write fuzzer, the stackmap ftracetest cases and a short stress run in one
# boot. Any report fails the run.
plan_debug() {
	local obj
	obj=$(debug_obj debug)
	build_kernel -v debug "$KT" "$obj"
	build_modules "$obj"
	# About 25 minutes under KASAN, lockdep and kmemleak: the stackmap
	# cases run at the top level and again in an instance.
	boot -T "${QEMU_TIMEOUT_DEBUG:-3000}" debug "$obj" "$KT" "kunit.filter_glob=ftrace_stackmap*" \
		"harness.secs=${STRESS_SECS:-60}" || true
	check_finished debug || true
	check_console "$RUN/debug.console"
	check_kunit "$RUN/debug.console" "$KT"
	guest_checks faults "$RUN/debug.out"
	guest_checks fuzz "$RUN/debug.out"
	check_stackmap_only "$RUN/debug.out"
	guest_checks stress "$RUN/debug.out"
}

# series_digest: the sha256 of the base's series folders (every file of
# patches/BASE-fixes/*, patches/BASE and its follow-ups, cover letters too).
series_digest() {
	local d
	(
		cd "$PATCHROOT"
		for d in "$BASE" "$BASE"-*; do
			[ ! -d "$d" ] || find "$d" -type f
		done | LC_ALL=C sort | xargs -r -d '\n' sha256sum
	) | sha256sum | cut -c1-64
}

# tests/full-run.txt: "BASE<TAB>digest<TAB>date<TAB>result", one line a base
# (and "BASE/T" for target T, "fresh/T" for the fresh-root run of
# lib/fresh.sh, with the commit it cloned), written by a full run that
# passed. A series cannot change without one.
check_full_record() {
	local want have
	want=$(series_digest)
	have=$(awk -F'\t' -v b="$BASE" '$1 == b { print $2 }' "$FULL_RECORD" 2>/dev/null || true)
	if [ "$want" = "$have" ]; then
		echo "full run [$BASE]: $(awk -F'\t' -v b="$BASE" '$1 == b { print $3 ": " $4 }' "$FULL_RECORD")"
		pass
	else
		if [ -n "$have" ]; then have="it names ${have:0:12}"; else have="no line for $BASE"; fi
		fail "the series folders of $BASE (sha256 ${want:0:12}) have no passed ./harness full in ${FULL_RECORD#"$TOP"/} ($have): run BASE=$BASE ./harness full and commit the file"
	fi
}

# write_record KEY DIGEST RESULT...: KEY's line of tests/full-run.txt.
write_record() {
	local line tmp key=$1 digest=$2
	shift 2
	line=$(printf '%s\t%s\t%s\t%s' "$key" "$digest" "$(date -u +%Y-%m-%dT%H:%MZ)" "$*")
	tmp=$(mktemp)
	{
		echo "# Written by ./harness full when a base passes; ./harness test fails unless"
		echo "# the base's series folders (sha256 of patches/BASE*) are the ones named here."
		echo "# BASE (BASE/T: full on target T, not required)<TAB>sha256<TAB>date<TAB>result"
		echo "# fresh/T: the README's commands in a fresh Debian root (lib/fresh.sh)<TAB>commit<TAB>date<TAB>result"
		[ ! -f "$FULL_RECORD" ] || awk -F'\t' -v b="$key" '!/^#/ && $1 != b' "$FULL_RECORD"
		echo "$line"
	} >"$tmp"
	mv "$tmp" "$FULL_RECORD"
	say "recorded in ${FULL_RECORD#"$TOP"/}: $line"
}
