# SPDX-License-Identifier: GPL-2.0
# The commands of ./harness, one function each. Every command works on one
# base (BASE, default the mainline one) but "test", "full" and "clean",
# which take every base.

# deps: everything any command installs.
cmd_deps() { deps all; }

# cmd_bench [ustack|peers]: the benchmark (bench/bench.sh), the map's own
# source timed on the host (bench/ustack.sh), or the stack map beside its
# peers (bench/peers.sh), which runs on the default target only: the guest
# gets the host's perf.
cmd_bench() {
	case "${1:-}" in
	'') bench_run ;;
	ustack) bench_ustack ;;
	peers)
		[ "$TARGET" = "${TARGETS[0]}" ] ||
			die "'bench peers' runs on ${TARGETS[0]} only for now (got ARCH=$TARGET)"
		bench_peers ;;
	*) die "bench takes nothing (the benchmark), 'ustack' or 'peers' (got '$1')" ;;
	esac
}
cmd_export() { export_series; }
cmd_apply() { apply_to "$@"; }
cmd_reapply() {
	deps boot
	reapply
}

cmd_build() { build_step; }

# cmd_test, cmd_full: the tiers of lib/plan.sh on every base (ONLY_BASE=B:
# that one), each with its count, then the closing line CI reads.
cmd_test() { TIER=test run_tier; }
cmd_full() { TIER=full run_tier; }

# Every target (ARCH=T: that one), each on its bases (TARGET_TEST_BASES):
# all of them in "full", those its file names in "test"; a target whose
# file says "none" runs only when ARCH= names it (ONLY_BASE=B: B only). The
# default target runs the whole plan of the tier, the others their own
# (TARGET_TEST, TARGET_FULL).
run_tier() {
	local t0=$SECONDS t b bases p0 f0 p f plan
	check_gates_arg
	# Everything the tier's bases and targets need, before the first build.
	deps "$TIER"
	# The harness's own parsers over recorded logs, each caught by its
	# mutants; its layers (docs/callgraph.md).
	plan_parsertest
	plan_layers
	for t in ${ARCH_ARG:-${TARGETS[*]}}; do
		use_target "$t"
		bases=("${BASES[@]}")
		case $TARGET_TEST_BASES in
		all) ;;
		# Only when ARCH= names it: "test" on the mainline base, "full" on all.
		none) [ -n "$ARCH_ARG" ] || continue; [ "$TIER" = full ] || bases=("$MAINLINE") ;;
		*) [ "$TIER" = full ] || read -ra bases <<<"${TARGET_TEST_BASES//mainline/$MAINLINE}" ;;
		esac
		[ -z "${ONLY_BASE:-}" ] || bases=("$ONLY_BASE")
		plan=plan_$TIER
		[ "$TIER" != test ] || [ "$TARGET_TEST" = all ] || plan=plan_$TARGET_TEST
		[ "$TIER" != full ] || [ "$TARGET_FULL" = all ] || plan=plan_$TARGET_FULL
		for b in "${bases[@]}"; do
			use_base "$b"
			read -r p0 f0 _ < <(counts)
			say "=== base $b on $t ($TIER): $(head -1 "$BDIR/source.txt" 2>/dev/null)"
			"$plan"
			read -r p f _ < <(counts)
			say "=== base $b on $t: $((p - p0)) passed, $((f - f0)) failed"
		done
	done
	# The README's commands on a fresh machine (lib/fresh.sh): in "full"
	# on the default target, unless narrowed or to another base.
	if [ "$TIER" = full ] && [ "${ARCH_ARG:-${TARGETS[0]}}" = "${TARGETS[0]}" ] &&
		[ -z "${NO_FRESH:-}${FTRACETEST:-}${NO_DEBUG:-}${NO_GATES:-}${GATES:-}${STRESS_SECS:-}${TOOLFUZZ_SECS:-}" ] &&
		[ "${ONLY_BASE:-$MAINLINE}" = "$MAINLINE" ]; then
		use_target "${TARGETS[0]}"
		say "=== the fresh-root run ($TIER)"
		read -r p0 f0 _ < <(counts)
		plan_fresh
		read -r p f _ < <(counts)
		say "=== the fresh-root run: $((p - p0)) passed, $((f - f0)) failed"
	fi
	echo "harness: $TIER run took $((SECONDS - t0)) s"
	counts_end
}

# cmd_docs: what the harness draws of itself: docs/callgraph.md and the
# README's table of options.
cmd_docs() {
	local t
	python3 "$TOP/lib/callgraph.py" --write "$TOP/docs/callgraph.md" || true
	t=$(mktemp)
	options_markdown >"$t"
	readme_options "$t"
	rm -f "$t"
	say "wrote docs/callgraph.md and the README's table of options"
}

# cmd_fresh: the fresh-root run of "full" alone (lib/fresh.sh).
cmd_fresh() {
	[ "$TARGET" = "${TARGETS[0]}" ] || die "fresh runs the README's commands, on ${TARGETS[0]} (got ARCH=$TARGET)"
	plan_fresh
	counts_end "fresh root"
}

cmd_kunit() {
	local glob=${1:-}
	cmd_build
	boot kunit "$OBJ" "$KT" ${glob:+kunit.filter_glob=$glob} || fail "boot: the guest did not finish"
	check_kunit "$RUN/kunit.console" "$KT"
	check_console "$RUN/kunit.console"
	counts_end
}

cmd_gates() {
	check_gates_arg
	deps full
	cmd_build
	run_gates $BASE_TEST_GATES $BASE_FULL_GATES
	counts_end
}

# cmd_baseline: tests/ftracetest-baseline-BASE.txt, measured (plan_baseline).
cmd_baseline() { plan_baseline; }

cmd_demo() {
	cmd_build
	boot -t "$(tool_bin)" demo "$OBJ" "$KT"
	# The flame graph the guest drew with tools/tracing/stackmap.
	if grep -aq '^=== FLAMEGRAPH BEGIN' "$RUN/demo.out"; then
		tr -d '\r' <"$RUN/demo.out" | sed -n '/^=== FLAMEGRAPH BEGIN$/,/^=== FLAMEGRAPH END$/p' |
			sed '1d;$d' >"$RUN/flamegraph.svg"
		say "flame graph: ${RUN#"$TOP"/}/flamegraph.svg"
	fi
}

cmd_shell() {
	cmd_build
	say "interactive shell in the patched $BASE kernel; quit with Ctrl-a x"
	# shellcheck disable=SC2086 # KARGS: kernel arguments, split
	boot_shell "$(tool_bin)" ${KARGS:-}
}

cmd_clean() {
	local b
	for b in "${BASES[@]}"; do
		use_base "$b"
		if [ -d "$KT/.git" ] && [ -n "$(git -C "$KT" status --porcelain --untracked-files=no)" ]; then
			die "${KT#"$TOP"/} has uncommitted changes; commit them (and export) first"
		fi
	done
	# The fresh root's mounts (a run killed before its EXIT trap leaves
	# them): never remove through them.
	fresh_umount "$BUILD/fresh/root"
	local m
	m=$(awk -v b="$(realpath -m "$BUILD")/" 'index($2, b) == 1 { print $2 }' /proc/mounts)
	[ -z "$m" ] || die "still mounted under ${BUILD#"$TOP"/}: $m; unmount it first"
	rm -rf --one-file-system "$BUILD"
	say "removed build/"
}

# cmd_stress [MINUTES]: the stress run alone, on the lockdep/KASAN kernel or
# (SANITIZER=kcsan) the KCSAN one. KCSAN_PLANT=1: a KCSAN kernel with the
# missing barrier of tests/kcsan-plant.patch, which KCSAN must report.
cmd_stress() {
	local min=${1:-5} variant obj glob plant=${KCSAN_PLANT:-}
	case "$min" in
	'' | *[!0-9]* | 0) die "stress takes a whole number of minutes, 1 to 600 (got '$min')" ;;
	esac
	[ "$min" -le 600 ] || die "stress takes a whole number of minutes, 1 to 600 (got '$min')"
	case "${SANITIZER:-kasan}" in
	kasan) variant=debug ;;
	kcsan) variant=kcsan ;;
	*) die "SANITIZER must be kasan (lockdep, KASAN, UBSAN) or kcsan (got '$SANITIZER')" ;;
	esac
	[ -z "$plant" ] || [ "$variant" = kcsan ] || die "KCSAN_PLANT=1 needs SANITIZER=kcsan"
	deps boot
	workspace
	obj=$(debug_obj "$variant${plant:+-plant}")
	if [ -n "$plant" ]; then
		git -C "$KT" apply "$TOP/tests/kcsan-plant.patch" || die "tests/kcsan-plant.patch does not apply to ${KT#"$TOP"/}"
		(build_kernel -v "$variant" "$KT" "$obj") || { git -C "$KT" apply -R "$TOP/tests/kcsan-plant.patch"; exit 1; }
		git -C "$KT" apply -R "$TOP/tests/kcsan-plant.patch"
	else
		build_kernel -v "$variant" "$KT" "$obj"
	fi
	build_modules "$obj"
	# The run, its final checks (a few minutes under KASAN) and the boot.
	# The KCSAN kernel also keeps the map's own suite, which the guest runs
	# again at the end (guest/lib/stress-check.sh).
	glob=ftrace_stackmap_live
	[ "$variant" != kcsan ] || glob='ftrace_stackmap*'
	boot -T $((min * 60 + 1200)) stress "$obj" "$KT" "kunit.filter_glob=$glob" "harness.secs=$((min * 60))" ||
		fail "stress: the guest did not finish"
	if [ "$variant" = kcsan ]; then
		check_kcsan "$RUN/stress.console" "$plant"
	else
		check_console "$RUN/stress.console"
	fi
	if [ -n "$plant" ]; then
		# The planted bug may break what the guest checks (a stack stored
		# twice, say): only KCSAN's report is held to here.
		say "with the plant, the guest's own checks are shown, not counted: $(grep -ac '^not ok' "$RUN/stress.out" || true) failed"
		grep -a '^not ok' "$RUN/stress.out" || true
	else
		guest_checks stress "$RUN/stress.out"
	fi
	counts_end "stress [$BASE, ${SANITIZER:-kasan}, $min min]"
}
