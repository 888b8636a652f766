# SPDX-License-Identifier: GPL-2.0
# "./harness bench peers": the stack map beside stack depot, the BPF stack
# map and perf record -g, in one boot of the benchmark kernel with what
# they need (bench/config/peers.config); method in bench/peers/README.md.

# build_peers DIR: the BPF programs and their loader, static, into DIR.
build_peers() {
	local dir=$1 src=$TOP/bench/peers
	mkdir -p "$dir"
	clang -O2 -g -Wall -Werror -target bpf -I"/usr/include/$(gcc -dumpmachine)" \
		-c "$src/stackid.bpf.c" -o "$dir/stackid.bpf.o" ||
		die "bench/peers/stackid.bpf.c does not build"
	gcc -O2 -Wall -Wextra -Werror -static "$src/stackid.c" -o "$dir/stackid" \
		-lbpf -lelf -lz -lzstd || die "bench/peers/stackid.c does not build"
}

# peers_guest ROOT: perf and the BPF loader, in a folder ROOT that boot -x
# copies into the guest.
peers_guest() {
	local r=$1
	rm -rf "$r"
	mkdir -p "$r/bin"
	guest_program "$r" "$(command -v perf)" perf
	install -D -m 755 "$BDIR/peers/stackid" "$r/peers/stackid"
	install -D -m 644 "$BDIR/peers/stackid.bpf.o" "$r/peers/stackid.bpf.o"
}

# bench_peers: the peers' benchmark of "./harness bench peers" on the base;
# writes $BDIR/bench/peers.md.
bench_peers() {
	local out=$BDIR/bench obj
	deps peers
	workspace
	has_stackmap "$KT" || die "the workspace has no stack map to benchmark"
	obj=$(debug_obj peers)
	build_kernel -v bench -v peers "$KT" "$obj"
	build_modules "$obj"
	build_peers "$BDIR/peers"
	# Times are guest instructions, as in the benchmark (bench/bench.sh).
	peers_guest "$BDIR/peers/root"
	boot -q -icount -q shift=0,sleep=off -x "$BDIR/peers/root" -T $((QEMU_TIMEOUT + 1800)) \
		peers "$obj" "$KT" kunit.enable=0 || die "the peers boot failed"
	mkdir -p "$out"
	{
		echo "Measured $(date -u +%Y-%m-%d) on $(nproc) cores, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ //'),"
		echo "${TARGET_QEMU[*]} -icount shift=0,sleep=off,"
		echo "Linux $(base_version "$KT") + patches/$BASE, source tree $(git -C "$KT" rev-parse --short=12 'HEAD^{tree}');"
		echo "$(perf --version), libbpf $(dpkg-query -W -f '${Version}' libbpf-dev)."
		echo
		python3 "$TOP/bench/peers.py" "$RUN/peers.out"
	} >"$out/peers.md" || die "bench/peers.py could not read $RUN/peers.out"
	echo
	cat "$out/peers.md"
	say "written to ${out#"$TOP"/}/peers.md"
}
