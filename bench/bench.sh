# SPDX-License-Identifier: GPL-2.0
# The benchmark (not a test): one boot of the benchmark kernel, the
# workloads of bench/guest/bench.sh with the map off, on and without stacks.

# bench_disk IMAGE: an ext4 image holding the files of the base's kernel/
# and fs/ext4/ sources, 25 to a folder (/src/NNN), made once. The guest's
# load works on one folder at a time, so that one pass is short and a
# traced second holds many of them (bench/guest/bench.sh).
bench_disk() {
	local img=$1 tmp n=0 f
	[ -f "$img" ] && return 0
	tmp=$(mktemp -d)
	while IFS= read -r f; do
		mkdir -p "$tmp/src/$(printf %03d $((n / 25)))"
		cp "$KT/$f" "$tmp/src/$(printf %03d $((n / 25)))/$n-${f##*/}"
		n=$((n + 1))
	done < <(cd "$KT" && find kernel fs/ext4 -type f | LC_ALL=C sort)
	say "making the benchmark disk: ext4, $n files in $(((n + 24) / 25)) folders ($(du -sh "$tmp/src" | cut -f1))"
	# 512 MiB: room for a copy and the journal; a sparse file.
	rm -f "$img.new"
	truncate -s 512M "$img.new"
	/usr/sbin/mkfs.ext4 -q -F -L bench -d "$tmp" "$img.new" || { rm -rf "$tmp"; die "mkfs.ext4 failed"; }
	rm -rf "$tmp"
	mv "$img.new" "$img"
}

# bench_run: the benchmark of "./harness bench" on the base; writes
# $BDIR/bench/results.md.
bench_run() {
	local rounds=${ROUNDS:-15} out=$BDIR/bench$TSUF
	case "$rounds" in '' | *[!0-9]* | 0) die "ROUNDS must be a whole number of rounds, at least 1 (got '$rounds')" ;; esac
	local clock=${CLOCK:-icount} how args=() more=()
	case "$clock" in
	icount)
		# Virtual time counts guest instructions, one per ns: the same
		# work takes the same time in every run, whatever the host does.
		# The guest calibrates its TSC against the PIT in that time
		# (x86_64), or reads the architected timer (arm64). With
		# -icount, QEMU runs the vCPUs in one thread.
		more=(-q -icount -q shift=0,sleep=off)
		how="QEMU TCG with -icount shift=0,sleep=off: times are guest instructions (1 ns each)" ;;
	host)
		# Under plain TCG the guest reads the host's TSC, but cannot
		# calibrate it without HPET or ACPI and falls back to jiffies
		# (4 ms). Give it the host's rate so that times have ns.
		# (arm64 reads its architected timer, which needs no help.)
		local khz
		khz=$(awk -F: '/^cpu MHz/ { printf "%d", $2 * 1000; exit }' /proc/cpuinfo)
		# The target's arguments for a guest clock at the host's rate.
		local hostargs=${TARGET_BENCH_HOST_ARGS:-}
		[ -z "$khz" ] || read -ra args <<<"${hostargs//%KHZ%/$khz}"
		how="QEMU TCG, host time: times are host wall-clock time, as noisy as the host" ;;
	*) die "CLOCK must be icount (guest instructions, the default) or host (wall clock) (got '$clock')" ;;
	esac
	local drounds=${DEEP_ROUNDS:-5}
	case "$drounds" in '' | *[!0-9]*) die "DEEP_ROUNDS must be a whole number of rounds, 0 for none (got '$drounds')" ;; esac
	deps bench
	workspace
	has_stackmap "$KT" || die "the workspace has no stack map to benchmark"
	# The test kernel plus a block device and ext4 (bench/config/bench.config).
	local obj
	obj=$(debug_obj bench)
	build_kernel -v bench "$KT" "$obj"
	build_modules "$obj"
	# What was built, taken now: the tree may change while the guest runs.
	local series dirty=""
	git -C "$KT" diff --quiet HEAD -- || dirty=", with uncommitted changes"
	series="Series: $(git -C "$KT" rev-list --count base..HEAD) patches, source tree $(git -C "$KT" rev-parse --short=12 'HEAD^{tree}')$dirty."
	if [ "$drounds" -gt 0 ]; then
		bench_disk "$BDIR/bench-disk-25.img"
		more+=(-q -drive -q "file=$BDIR/bench-disk-25.img,if=none,id=bench,format=raw,cache=unsafe"
			-q -device -q "$TARGET_BLK,drive=bench")
	fi
	boot "${more[@]}" -T $((QEMU_TIMEOUT + drounds * 600)) \
		bench "$obj" "$KT" harness.rounds="$rounds" harness.deep_rounds="$drounds" \
		kunit.enable=0 "${args[@]}" ||
		die "the benchmark boot failed"
	mkdir -p "$out"
	python3 "$TOP/bench/report.py" "$RUN/bench.out" "$RUN/bench.console" >"$out/report.md"
	if [ -f "$out/results.md" ]; then
		mv "$out/results.md" "$out/previous.md"
	else
		rm -f "$out/previous.md"
	fi
	{
		echo "Measured $(date -u +%Y-%m-%d) on $(nproc) cores, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ //'),"
		echo "${TARGET_QEMU[*]}, Linux $(base_version "$KT") + patches/$BASE."
		echo "$how."
		echo "$series"
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

