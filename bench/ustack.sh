# SPDX-License-Identifier: GPL-2.0
# The stack map's own source on the host (bench/ustack/, its README): the workspace's
# kernel/trace/trace_stackmap.c built unmodified in user space against shim
# headers, as tools/testing/radix-tree builds lib/xarray.c. "bench_ustack"
# times it on this machine in ns and TSC cycles (not a test: nothing fails
# on a figure); "plan_ustack_tsan" runs its TSan build on a concurrent
# workload. Warnings are errors in both builds; one compile at a time.

USTACK_SRC=$TOP/bench/ustack

# ustack_make KSRC OUT LOG [TARGET]: one make of bench/ustack against the
# kernel tree KSRC into OUT. Fails, with the build log on stderr, on an
# error or a warning.
ustack_make() {
	local ksrc=$1 out=$2 log=$3
	shift 3
	mkdir -p "$out"
	if ! make -s -j1 -C "$USTACK_SRC" KSRC="$ksrc" O="$out" "$@" >"$out/$log" 2>&1 ||
		grep -q 'warning:' "$out/$log"; then
		cat "$out/$log" >&2
		return 1
	fi
}

# ustack_build KSRC OUT: the benchmark, -O2, as OUT/stackmap-bench.
ustack_build() { ustack_make "$1" "$2" build.log; }

# ustack_tsan KSRC OUT: its TSan build, as OUT/stackmap-bench-tsan.
ustack_tsan() { ustack_make "$1" "$2" build-tsan.log tsan; }

# ustack_perf BIN: whether perf counts cycles and instructions here, in a
# sentence for the report; with the counts of a short run of BIN if it does.
ustack_perf() {
	local bin=$1 stat
	if ! command -v perf >/dev/null; then
		echo "perf stat: perf is not installed."
		return
	fi
	stat=$(perf stat -x, -e cycles,instructions true 2>&1 >/dev/null) || true
	if ! grep -q '^[0-9]' <<<"$stat"; then
		echo "perf stat -e cycles,instructions does not work here: $(grep -m1 -o '<not [a-z ]*>' <<<"$stat" || echo "no counts") (no PMU in this machine)."
		return
	fi
	stat=$(perf stat -x, -e cycles,instructions "$bin" -s 0.1 2>&1 >/dev/null) || true
	echo "perf stat -e cycles,instructions works; a run at scale 0.1: $(awk -F, '$3 == "cycles" { c = $1 } $3 == "instructions" { i = $1 } END { if (c) printf "%d cycles, %d instructions, %.2f per cycle", c, i, i / c }' <<<"$stat")."
}

# bench_ustack: builds the benchmark into $BDIR/ustack from $KT, runs it
# (USTACK_SCALE scales its fixed iteration counts, 1 by default: 10 to 20
# s), keeps its lines in $BDIR/bench/ustack.out and writes
# $BDIR/bench/ustack.md, the machine and the tables, and prints it.
bench_ustack() {
	local out=$BDIR/ustack dir=$BDIR/bench tree="" hv ver
	deps bench
	workspace
	[ -f "$KT/kernel/trace/trace_stackmap.c" ] || die "the workspace has no stack map to benchmark"
	ustack_build "$KT" "$out" || die "bench/ustack does not build without warnings against $KT"
	mkdir -p "$dir"
	say "timing kernel/trace/trace_stackmap.c in user space on CPUs 0 and 1 (bench/ustack)"
	"$out/stackmap-bench" -s "${USTACK_SCALE:-1}" >"$dir/ustack.out" ||
		die "stackmap-bench failed: ${dir#"$TOP"/}/ustack.out"
	git -C "$KT" rev-parse -q --verify HEAD >/dev/null 2>&1 &&
		tree=", source tree $(git -C "$KT" rev-parse --short=12 'HEAD^{tree}')"
	hv=$(lscpu | sed -n 's/^Hypervisor vendor: *//p')
	ver=$(base_version "$KT") || ver=""
	{
		echo "# kernel/trace/trace_stackmap.c in user space"
		echo
		echo "Measured $(date -u +%Y-%m-%d) on ${ver:+Linux $ver${BASE:+ + patches/$BASE}}${ver:-$KT}$tree," \
			"built by bench/ustack (gcc $(gcc -dumpversion), -O2 and kbuild's x86_64 code generation)."
		echo "Machine: $(lscpu | sed -n 's/^Model name: *//p'), $(nproc) CPUs${hv:+ of a $hv guest}," \
			"L2 $(lscpu | sed -n 's/^L2 cache: *//p'), L3 $(lscpu | sed -n 's/^L3 cache: *//p'), kernel $(uname -r)."
		ustack_perf "$out/stackmap-bench"
		grep -v '^ustack ' "$dir/ustack.out"
	} >"$dir/ustack.md"
	echo
	cat "$dir/ustack.md"
	say "written to ${dir#"$TOP"/}/ustack.md (figures one a line in ustack.out)"
}

# plan_ustack_tsan: the TSan build of bench/ustack against $KT and its
# concurrent workload (USTACK_TSAN_OPS per worker, 1000000 by default: a
# few seconds): two threads record overlapping stacks, a third resets,
# freezes and dumps the map, a fourth peeks at published cookies. Passes
# if TSan reports nothing and every cookie named its stack.
plan_ustack_tsan() {
	local out=$BDIR/ustack logs=$RUN/ustack-tsan rc=0 reports
	[ -f "$KT/kernel/trace/trace_stackmap.c" ] || return 0
	if ! ustack_tsan "$KT" "$out"; then
		fail "bench/ustack: the TSan build fails or warns (${out#"$TOP"/}/build-tsan.log)"
		return 0
	fi
	rm -rf "$logs"
	mkdir -p "$logs"
	# Without address randomisation: GCC 12's TSan refuses some layouts.
	TSAN_OPTIONS="log_path=$logs/tsan exitcode=66 halt_on_error=0" \
		setarch "$(uname -m)" -R "$out/stackmap-bench-tsan" stress -n "${USTACK_TSAN_OPS:-1000000}" \
		>"$logs/stress.out" 2>&1 || rc=$?
	reports=$(find "$logs" -name 'tsan.*' | sort | head -1)
	if [ -n "$reports" ]; then
		fail "bench/ustack: TSan reports $(cat "$logs"/tsan.* | grep -c '^WARNING: ThreadSanitizer') races: ${reports#"$TOP"/}"
	elif [ "$rc" -ne 0 ]; then
		fail "bench/ustack: the concurrent workload failed (exit $rc): ${logs#"$TOP"/}/stress.out"
	else
		pass
	fi
	grep -a '^ustack stress' "$logs/stress.out" || true
}
