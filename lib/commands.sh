# SPDX-License-Identifier: GPL-2.0
# The commands of ./harness, one function each. Every command works on one
# base (BASE, default the mainline one) but "test", "full" and "clean",
# which take every base. cmd_bench is in lib/bench.sh.

# deps: everything any command installs.
cmd_deps() { deps full "${DEPS_bench[@]}" "${PEERS_DEPS[@]}"; }

# default_target_only CMD: CMD (the peers benchmark, with the host's perf and
# bpftrace in the guest) does not run on the other targets yet.
default_target_only() {
	[ "$TARGET" = "${TARGETS[0]}" ] ||
		die "'$1' runs on ${TARGETS[0]} only for now (got ARCH=$TARGET)"
}
cmd_export() { export_series; }
cmd_apply() { apply_to "$@"; }
cmd_reapply() {
	deps boot
	reapply
}

cmd_build() {
	deps boot
	workspace
	build_kernel "$KT" "$OBJ"
}

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
	local t0=$SECONDS t b bases p0 f0 plan
	check_gates_arg
	# Everything the tier's bases and targets need, before the first build.
	deps "$TIER"
	# The host's KTAP parser, on a document with every kind of line.
	if python3 "$TOP/lib/ktap.py" --self-test; then pass; else fail "lib/ktap.py --self-test"; fi
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
			p0=$PASSED f0=$FAILED P0=$PASSED S0=$SKIPPED
			say "=== base $b on $t ($TIER): $(head -1 "$BDIR/source.txt" 2>/dev/null)"
			"$plan"
			say "=== base $b on $t: $((PASSED - p0)) passed, $((FAILED - f0)) failed"
		done
	done
	# The README's commands on a fresh machine (lib/fresh.sh): in "full"
	# on the default target, unless narrowed or to another base.
	if [ "$TIER" = full ] && [ "${ARCH_ARG:-${TARGETS[0]}}" = "${TARGETS[0]}" ] &&
		[ -z "${NO_FRESH:-}${FTRACETEST:-}${NO_DEBUG:-}${NO_GATES:-}${GATES:-}" ] &&
		[ "${ONLY_BASE:-$MAINLINE}" = "$MAINLINE" ]; then
		use_target "${TARGETS[0]}"
		say "=== the fresh-root run ($TIER)"
		p0=$PASSED f0=$FAILED
		plan_fresh
		say "=== the fresh-root run: $((PASSED - p0)) passed, $((FAILED - f0)) failed"
	fi
	echo "harness: $TIER run took $((SECONDS - t0)) s"
	counts_end
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

# The ftracetest subset on the base kernel, with only the fixes to the base
# of patches/BASE-fixes (base_fix_patches): the results a patched kernel is
# held to.
cmd_baseline() {
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

cmd_demo() {
	cmd_build
	boot demo "$OBJ" "$KT"
	# The flame graph the guest drew with tools/tracing/stackmap.
	if grep -aq '^=== FLAMEGRAPH BEGIN' "$RUN/demo.out"; then
		tr -d '\r' <"$RUN/demo.out" | sed -n '/^=== FLAMEGRAPH BEGIN$/,/^=== FLAMEGRAPH END$/p' |
			sed '1d;$d' >"$RUN/flamegraph.svg"
		say "flame graph: ${RUN#"$TOP"/}/flamegraph.svg"
	fi
}

cmd_shell() {
	cmd_build
	initramfs "$KT" "$RUN/initramfs.cpio.gz"
	say "interactive shell in the patched $BASE kernel; quit with Ctrl-a x"
	qemu_cmd
	"${QEMU[@]}" -kernel "$OBJ/$TARGET_IMAGE" -initrd "$RUN/initramfs.cpio.gz" \
		-serial mon:stdio -append "console=$TARGET_CONSOLE harness.mode=shell ${KARGS:-}"
}

cmd_clean() {
	local b
	for b in "${BASES[@]}"; do
		use_base "$b"
		if [ -d "$KT/.git" ] && [ -n "$(git -C "$KT" status --porcelain --untracked-files=no)" ]; then
			die "${KT#"$TOP"/} has uncommitted changes; commit them (and export) first"
		fi
	done
	rm -rf "$BUILD"
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
		(VARIANT=$variant build_kernel "$KT" "$obj") || { git -C "$KT" apply -R "$TOP/tests/kcsan-plant.patch"; exit 1; }
		git -C "$KT" apply -R "$TOP/tests/kcsan-plant.patch"
	else
		VARIANT=$variant build_kernel "$KT" "$obj"
	fi
	build_modules "$obj"
	# The run, its final checks (a few minutes under KASAN) and the boot.
	# The KCSAN kernel also keeps the map's own suite, which the guest runs
	# again at the end (guest/stress-check.sh).
	glob=ftrace_stackmap_live
	[ "$variant" != kcsan ] || glob='ftrace_stackmap*'
	QEMU_TIMEOUT=$((min * 60 + 1200)) boot stress "$obj" "$KT" "kunit.filter_glob=$glob" "harness.secs=$((min * 60))" ||
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
