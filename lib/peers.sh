# SPDX-License-Identifier: GPL-2.0
# "./harness bench peers": the stack map beside stack depot, the BPF stack
# map and perf record -g, in one boot of the benchmark kernel with what
# they need (config/peers.config); method in bench/peers/README.md.

PEERS_DEPS=(
	"clang:command -v clang"
	"libbpf-dev:test -f /usr/include/bpf/libbpf.h"
	"zlib1g-dev:test -f /usr/include/zlib.h"
	"libzstd-dev:test -f /usr/include/zstd.h"
	"linux-perf:command -v perf"
)

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

# peers_guest ROOT: perf and the BPF loader in the guest (GUEST_EXTRA).
peers_guest() {
	local r=$1
	guest_program "$r" "$(command -v perf)" perf
	install -D -m 755 "$BDIR/peers/stackid" "$r/peers/stackid"
	install -D -m 644 "$BDIR/peers/stackid.bpf.o" "$r/peers/stackid.bpf.o"
}

bench_peers() {
	local out=$BDIR/bench obj
	deps bench "${PEERS_DEPS[@]}"
	workspace
	has_stackmap "$KT" || die "the workspace has no stack map to benchmark"
	obj=$(debug_obj peers)
	VARIANT="bench peers" build_kernel "$KT" "$obj"
	build_modules "$obj"
	build_peers "$BDIR/peers"
	# Times are guest instructions, as in the benchmark (lib/bench.sh).
	QEMU_MORE=(-icount shift=0,sleep=off)
	GUEST_EXTRA=peers_guest QEMU_TIMEOUT=$((QEMU_TIMEOUT + 1800)) \
		boot peers "$obj" "$KT" kunit.enable=0 || die "the peers boot failed"
	QEMU_MORE=()
	mkdir -p "$out"
	{
		echo "Measured $(date -u +%Y-%m-%d) on $(nproc) cores, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ //'),"
		echo "qemu-system-x86_64 -accel tcg,thread=single -icount shift=0,sleep=off -smp 2,"
		echo "Linux $(base_version "$KT") + patches/$BASE, source tree $(git -C "$KT" rev-parse --short=12 'HEAD^{tree}');"
		echo "$(perf --version), libbpf $(dpkg-query -W -f '${Version}' libbpf-dev)."
		echo
		python3 "$TOP/bench/peers.py" "$RUN/peers.out"
	} >"$out/peers.md" || die "bench/peers.py could not read $RUN/peers.out"
	echo
	cat "$out/peers.md"
	say "written to ${out#"$TOP"/}/peers.md"
}
