# SPDX-License-Identifier: GPL-2.0
# The benchmark (not a test): one boot, the four workloads of guest/bench.sh
# with the map off, on and without stacks, plus the map's micro-benchmark.
cmd_bench() {
	local rounds=${ROUNDS:-15} out=$BDIR/bench
	case "$rounds" in '' | *[!0-9]* | 0) die "ROUNDS must be a whole number of rounds, at least 1 (got '$rounds')" ;; esac
	local clock=${CLOCK:-icount} how args=()
	case "$clock" in
	icount)
		# Virtual time counts guest instructions, one per ns: the same
		# work takes the same time in every run, whatever the host does.
		# The guest calibrates its TSC against the PIT in that time.
		QEMU_MORE=(-icount shift=0,sleep=off)
		how="QEMU TCG with -icount shift=0,sleep=off: times are guest instructions (1 ns each)" ;;
	host)
		# Under plain TCG the guest reads the host's TSC, but cannot
		# calibrate it without HPET or ACPI and falls back to jiffies
		# (4 ms). Give it the host's rate so that times have ns.
		local khz
		khz=$(awk -F: '/^cpu MHz/ { printf "%d", $2 * 1000; exit }' /proc/cpuinfo)
		[ -n "$khz" ] && args=(tsc_early_khz="$khz" tsc=reliable)
		how="QEMU TCG, host time: times are host wall-clock time, as noisy as the host" ;;
	*) die "CLOCK must be icount (guest instructions, the default) or host (wall clock) (got '$clock')" ;;
	esac
	cmd_build
	has_stackmap "$KT" || die "the workspace has no stack map to benchmark"
	grep -q '^CONFIG_FTRACE_STACKMAP_BENCHMARK=y' "$OBJ/.config" ||
		die "the kernel has no stack map micro-benchmark (CONFIG_FTRACE_STACKMAP_BENCHMARK)"
	boot bench "$OBJ" "$KT" harness.rounds="$rounds" trace_stackmap_bench.run=1 \
		kunit.enable=0 "${args[@]}" ||
		die "the benchmark boot failed"
	QEMU_MORE=()
	mkdir -p "$out"
	python3 "$TOP/bench/report.py" "$RUN/bench.out" "$RUN/bench.console" >"$out/report.md"
	if [ -f "$out/results.md" ]; then
		mv "$out/results.md" "$out/previous.md"
	else
		rm -f "$out/previous.md"
	fi
	{
		echo "Measured $(date -u +%Y-%m-%d) on $(nproc) cores, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ //'),"
		echo "qemu-system-x86_64 -accel tcg,thread=single -smp 2, Linux $(base_version "$KT") + patches/$BASE."
		echo "$how."
		echo "Series: $(git -C "$KT" rev-list --count base..HEAD) patches, source tree $(git -C "$KT" rev-parse --short=12 'HEAD^{tree}')."
		echo
		cat "$out/report.md"
	} >"$out/results.md"
	# Reproducibility: each median against the spread of the previous run.
	if [ -f "$out/previous.md" ]; then
		{
			echo
			python3 "$TOP/bench/compare.py" "$out/previous.md" "$out/results.md"
		} >"$out/rerun.md"
		cat "$out/rerun.md" >>"$out/results.md"
	fi
	echo
	cat "$out/results.md"
	say "written to ${out#"$TOP"/}/results.md"
}

