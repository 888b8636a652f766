# SPDX-License-Identifier: GPL-2.0
# The README's two commands on a fresh Debian 12 machine: a minimal root
# made by debootstrap (FRESH_SUITE, minbase, the apt sources a Debian 12
# install has), a clean clone of the committed repository in it, and there,
# as root, "./harness demo" and "./harness test" narrowed to the mainline
# base on the default target (FRESH_TEST), each installing what it needs.
# A missing install step, or a path only the developers' machine has, fails
# it. Run by "full" (x86_64, not narrowed) after the bases, and alone by
# "./harness fresh"; when it passes it writes the line "fresh/TARGET" of
# tests/full-run.txt, which "test" does not require.
#
# Only debootstrap's download of the base system is kept between runs
# (build/fresh/SUITE.tgz); the packages the commands install are fetched
# again each time, into a root made anew.

FRESH_SUITE=bookworm
FRESH_MIRROR=http://deb.debian.org/debian

# fresh_umount ROOT: undo the mounts of fresh_mount, innermost first (ROOT
# as /proc/mounts names it: canonical).
fresh_umount() {
	local m r
	r=$(realpath -m "$1")
	for m in $(awk -v r="$r" '$2 == r || index($2, r "/") == 1 { print $2 }' /proc/mounts | sort -r); do
		umount -l "$m" || die "fresh root: cannot unmount $m"
	done
}

# fresh_mount ROOT: what a booted machine has and chroot lacks: /proc,
# /sys, /dev, /dev/pts, and the host's resolver.
fresh_mount() {
	local r=$1
	mount -t proc proc "$r/proc"
	mount -t sysfs sysfs "$r/sys"
	mount --bind /dev "$r/dev"
	mount --bind /dev/pts "$r/dev/pts"
	cp -L /etc/resolv.conf "$r/etc/resolv.conf"
}

# fresh_make ROOT: a new Debian root at ROOT, from the cached download.
fresh_make() {
	local r=$1 tgz=$BUILD/fresh/$FRESH_SUITE.tgz log=$BUILD/fresh/debootstrap.log
	mkdir -p "$BUILD/fresh"
	if [ ! -f "$tgz" ]; then
		say "fresh root: downloading Debian $FRESH_SUITE's base system (debootstrap --make-tarball)"
		rm -rf "$BUILD/fresh/dl"
		debootstrap --variant=minbase --make-tarball="$tgz.tmp" "$FRESH_SUITE" "$BUILD/fresh/dl" \
			"$FRESH_MIRROR" >"$log" 2>&1 || { tail -5 "$log" >&2; die "fresh root: debootstrap --make-tarball failed (log: ${log#"$TOP"/})"; }
		mv "$tgz.tmp" "$tgz"
		rm -rf "$BUILD/fresh/dl"
	fi
	fresh_umount "$r"
	rm -rf --one-file-system "$r"
	say "fresh root: debootstrap --variant=minbase $FRESH_SUITE into ${r#"$TOP"/}"
	debootstrap --variant=minbase --unpack-tarball="$tgz" "$FRESH_SUITE" "$r" "$FRESH_MIRROR" >"$log" 2>&1 ||
		{ tail -5 "$log" >&2; die "fresh root: debootstrap failed (log: ${log#"$TOP"/})"; }
	# The sources of a Debian 12 install; no service starts in a chroot.
	printf 'deb %s %s main\ndeb %s %s-updates main\ndeb http://deb.debian.org/debian-security %s-security main\n' \
		"$FRESH_MIRROR" "$FRESH_SUITE" "$FRESH_MIRROR" "$FRESH_SUITE" "$FRESH_SUITE" >"$r/etc/apt/sources.list"
	printf '#!/bin/sh\nexit 101\n' >"$r/usr/sbin/policy-rc.d"
	chmod 755 "$r/usr/sbin/policy-rc.d"
}

# fresh_packages ROOT [manual]: the packages installed in ROOT, one name a
# line (with "manual": only those asked for, not pulled in by another).
fresh_packages() {
	if [ "${2:-}" = manual ]; then
		chroot "$1" apt-mark showmanual | sort
	else
		chroot "$1" dpkg-query -W -f '${db:Status-Abbrev} ${Package}\n' | awk '$1 == "ii" { print $2 }' | sort
	fi
}

# fresh_cmd ROOT LOG WHAT ENV...: ./harness WHAT in ROOT's clone, as root
# with a clean environment and ENV, its output in LOG and its progress
# (">>> " lines) on the terminal. Returns its exit status.
fresh_cmd() {
	local r=$1 log=$2 what=$3 rc=0
	shift 3
	: >"$log"
	chroot "$r" /usr/bin/env -i HOME=/root TERM=dumb LANG=C.UTF-8 \
		PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin "$@" \
		/bin/bash -c "cd /root/stackmap && ./harness $what" </dev/null >"$log" 2>&1 &
	local pid=$!
	tail -n +1 -f --pid=$pid "$log" 2>/dev/null | grep -a --line-buffered -E '^(>>> |harness: |FAIL)' |
		sed -u 's/^/    fresh: /' &
	local tpid=$!
	wait $pid || rc=$?
	sleep 0.5
	kill $tpid 2>/dev/null || true
	wait $tpid 2>/dev/null || true
	return $rc
}

# fresh_step NAME ROOT LOG CMD ENV...: one README command in the root;
# counts it and says which step failed, with the end of its output.
fresh_step() {
	local name=$1 r=$2 log=$3 what=$4 t0=$SECONDS rc=0
	shift 4
	say "fresh root: ${*:+$* }./harness $what (log: ${log#"$TOP"/})"
	fresh_cmd "$r" "$log" "$what" "$@" || rc=$?
	FRESH_SECS[$name]=$((SECONDS - t0))
	if [ $rc -ne 0 ]; then
		tail -n 25 "$log" | sed 's/^/    /' >&2
		fail "fresh root: '${*:+$* }./harness $what' exited with $rc after ${FRESH_SECS[$name]} s on a fresh Debian $FRESH_SUITE (its last lines above; log: ${log#"$TOP"/})"
		return 1
	fi
	pass
	say "fresh root: ./harness $what passed in ${FRESH_SECS[$name]} s"
}

# fresh_unused ADDED: fail if the demo asked for a package (ADDED: those it
# installed by name) that only the other commands name (deps_list all, on
# every base and target); what its packages pull in does not count.
fresh_unused() {
	local added=$1 bad
	bad=$(comm -12 "$added" <(
		comm -23 <(ONLY_BASE='' ARCH_ARG='' deps_list all | sed 's/:.*//' | sort -u) \
			<(BASE=$MAINLINE TARGET=${TARGETS[0]} deps_list boot | sed 's/:.*//' | sort -u)) | tr '\n' ' ')
	if [ -n "$bad" ]; then
		fail "fresh root: ./harness demo installed packages it does not use: $bad"
	else
		pass
	fi
}

# plan_fresh: the fresh-root run (see the top of this file).
plan_fresh() {
	local f0 f t0=$SECONDS r out=$BUILD/fresh/run commit
	r=$(realpath -m "$BUILD/fresh/root")
	read -r _ f0 _ < <(counts)
	declare -gA FRESH_SECS=()
	[ "$(id -u)" -eq 0 ] || { fail "fresh root: debootstrap and chroot need root"; return 0; }
	deps full
	commit=$(git -C "$TOP" rev-parse HEAD)
	mkdir -p "$out"
	fresh_make "$r"
	# The committed repository; the record of this run's bases too, which
	# the narrowed test checks (a full run writes it before this step).
	git clone -q "$TOP" "$r/root/stackmap"
	cp "$FULL_RECORD" "$r/root/stackmap/tests/full-run.txt"
	trap 'fresh_umount "'"$r"'"' EXIT
	fresh_mount "$r"
	fresh_packages "$r" >"$out/dpkg-0.txt"
	fresh_packages "$r" manual >"$out/manual-0.txt"
	rm -f "$out"/added-*.txt
	if fresh_step demo "$r" "$out/demo.log" demo; then
		fresh_packages "$r" >"$out/dpkg-demo.txt"
		fresh_packages "$r" manual >"$out/manual-demo.txt"
		comm -13 "$out/dpkg-0.txt" "$out/dpkg-demo.txt" >"$out/added-demo.txt"
		comm -13 "$out/manual-0.txt" "$out/manual-demo.txt" >"$out/asked-demo.txt"
		fresh_unused "$out/asked-demo.txt"
		if fresh_step test "$r" "$out/test.log" test ONLY_BASE="$MAINLINE" ARCH="${TARGETS[0]}"; then
			fresh_packages "$r" >"$out/dpkg-test.txt"
			comm -13 "$out/dpkg-demo.txt" "$out/dpkg-test.txt" >"$out/added-test.txt"
			say "fresh root: test: $(tail -1 "$out/test.log")"
		fi
	fi
	fresh_umount "$r"
	trap - EXIT
	if [ -f "$out/asked-demo.txt" ]; then
		say "fresh root: demo installed $(wc -l <"$out/added-demo.txt") packages" \
			"($(tr '\n' ' ' <"$out/asked-demo.txt")asked for)${FRESH_SECS[test]:+, test $(cat "$out/added-test.txt" 2>/dev/null | wc -l) more}" \
			"(lists in ${out#"$TOP"/})"
	fi
	read -r _ f _ < <(counts)
	[ "$f" -eq "$f0" ] || return 0
	write_record "fresh/${TARGETS[0]}" "$commit" \
		"Debian $FRESH_SUITE root: demo ${FRESH_SECS[demo]} s cold" \
		"($(wc -l <"$out/added-demo.txt") packages), ONLY_BASE=$MAINLINE test ${FRESH_SECS[test]} s" \
		"($(tail -1 "$out/test.log")), $((SECONDS - t0)) s in all"
}
