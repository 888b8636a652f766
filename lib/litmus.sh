# SPDX-License-Identifier: GPL-2.0
# Gate "litmus": the map's memory-ordering protocols as litmus tests
# (tests/litmus/*.litmus, in the form of tools/memory-model/litmus-tests),
# checked by herd7 against the Linux-kernel memory model of the base's own
# tools/memory-model. Each test says "Result: Never" or "Result: Sometimes"
# in its header, as the kernel's do, and herd7 must say the same; every
# protocol has a variant with a barrier taken out, which must be allowed.
#
# herd7 comes from Debian's herdtools7, which only unstable has, built
# against a newer glibc than Debian 12's: it runs in an unstable root made
# by debootstrap under build/herd/root (kept between runs), in a chroot.

HERD_SUITE=sid
HERD_MIRROR=http://deb.debian.org/debian

# herd_root: build/herd/root with herdtools7 installed; sets HERD_ROOT.
herd_root() {
	local r=$BUILD/herd/root log=$BUILD/herd/setup.log
	HERD_ROOT=$r
	[ ! -f "$r/.done" ] || return 0
	[ "$(id -u)" -eq 0 ] || { fail "litmus: making the herd7 root needs root (debootstrap, chroot)"; return 1; }
	command -v debootstrap >/dev/null || { fail "litmus: debootstrap is missing (./harness deps installs it)"; return 1; }
	mkdir -p "$BUILD/herd"
	rm -rf --one-file-system "$r"
	say "litmus: herdtools7 from Debian $HERD_SUITE, in a root of its own (${r#"$TOP"/})"
	{
		debootstrap --variant=minbase "$HERD_SUITE" "$r" "$HERD_MIRROR" &&
			# Unstable's Release file may be past its Valid-Until date here.
			chroot "$r" apt-get -q -o Acquire::Check-Valid-Until=false update &&
			DEBIAN_FRONTEND=noninteractive chroot "$r" apt-get install -y -q --no-install-recommends herdtools7
	} >"$log" 2>&1 || { tail -5 "$log" >&2; die "litmus: installing herdtools7 failed (log: ${log#"$TOP"/})"; }
	touch "$r/.done"
}

gate_litmus() {
	local t name want got n=0 bad=0 dir
	herd_root || return 0
	[ -f "$KT/tools/memory-model/linux-kernel.cfg" ] || { fail "litmus: ${KT#"$TOP"/} has no tools/memory-model"; return 0; }
	dir=$HERD_ROOT/lkmm
	rm -rf "$dir"
	cp -a "$KT/tools/memory-model" "$dir"
	mkdir -p "$dir/stackmap"
	cp "$TOP"/tests/litmus/*.litmus "$dir/stackmap/"
	for t in "$TOP"/tests/litmus/*.litmus; do
		name=$(basename "$t" .litmus)
		want=$(sed -n 's/^ \* Result: \([A-Za-z]*\)$/\1/p' "$t")
		got=$(chroot "$HERD_ROOT" /bin/sh -c "cd /lkmm && herd7 -conf linux-kernel.cfg stackmap/$name.litmus" 2>&1 |
			awk -v n="$name" '$1 == "Observation" && $2 == n { print $3 }' || true)
		n=$((n + 1))
		if [ -z "$want" ]; then
			fail "litmus: tests/litmus/$name.litmus has no \"Result: Never|Sometimes\" line"; bad=1
		elif [ "$got" != "$want" ]; then
			fail "litmus: herd7 says ${got:-nothing} for $name, the test expects $want"; bad=1
		else
			echo "gate: litmus $name: $got"
		fi
	done
	[ $bad -ne 0 ] || { echo "gate: litmus: $n tests as expected (herd7 $(chroot "$HERD_ROOT" herd7 -version | head -1))"; pass; }
}
