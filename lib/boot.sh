# SPDX-License-Identifier: GPL-2.0
# Booting a kernel under QEMU (TCG) with the harness's busybox initramfs.

QEMU_TIMEOUT=${QEMU_TIMEOUT:-1500}
QEMU_MORE=()                    # per command: the benchmark's clock

# qemu_cmd: QEMU of the target (targets/T.sh), with no default devices.
qemu_cmd() {
	QEMU=("${TARGET_QEMU[0]}" -nodefaults -no-reboot -display none "${TARGET_QEMU[@]:1}")
}

# guest_program ROOT BIN [NAME]: a glibc program in the guest, with the
# shared libraries ldd finds, at the same paths. On a target with a userland
# of its own, the guest already has every library of it (guest_userland).
guest_program() {
	local r=$1 bin=$2 name=${3:-${2##*/}} lib
	install -D -m 755 "$bin" "$r/bin/$name"
	[ "$TARGET_USERLAND" = host ] || return 0
	for lib in $(ldd "$bin" | grep -oE '/[^ ]+\.so[^ ]*'); do
		[ -e "$r$lib" ] || install -D -m 755 "$lib" "$r$lib"
	done
}

# guest_userland ROOT: busybox (as ROOT/bin/busybox) and trace-cmd with its
# libraries and plugins: the machine's own, or the packages of the
# target's architecture (fetch_userland). The plugin folders are those
# the machine has: Debian 12's trace-cmd installs libtraceevent's plugins
# but no trace-cmd/ folder of its own.
guest_userland() {
	local r=$1 a lib
	if [ "$TARGET_USERLAND" = host ]; then
		cp /bin/busybox "$r/bin/busybox"
		guest_program "$r" "$(command -v trace-cmd)"
		lib=/usr/lib/$(gcc -print-multiarch)
		for a in "$lib/traceevent" "$lib/trace-cmd"; do
			if [ -d "$a" ]; then
				mkdir -p "$r$a"
				cp -a "$a/." "$r$a/"
			fi
		done
	else
		fetch_userland
		cp -a "$USERLAND/." "$r/"
		rm -f "$r/.done"
		ln -s /usr/bin/trace-cmd "$r/bin/trace-cmd"
	fi
}

# initramfs SRC OUT [OBJ]: busybox, the guest scripts and SRC's ftracetest,
# the stackmap tool of SRC, trace-cmd, and the harness's modules built for
# the kernel in OBJ (build_modules) in /lib/modules/, for the target.
initramfs() {
	local src=$1 out=$2 obj=${3:-} r a
	r=$(mktemp -d)
	mkdir -p "$r"/{bin,dev,proc,sys,tmp,root,etc,guest}
	guest_userland "$r"
	# A real file, not a link: add_remove_uprobe.tc greps /proc/$$/maps for /bin/*sh.
	cp "$r/bin/busybox" "$r/bin/sh"
	for a in $(/bin/busybox --list); do
		[ -e "$r/bin/$a" ] || ln -s busybox "$r/bin/$a"
	done
	# No network in the guest: without ping the ping cases are UNRESOLVED, not FAIL.
	rm -f "$r/bin/ping"
	ln -s bin "$r/sbin"
	printf 'root:x:0:0:root:/root:/bin/sh\n' >"$r/etc/passwd"
	printf 'root:x:0:\ntracing:x:1000:\n' >"$r/etc/group"
	cp -a "$src/tools/testing/selftests/ftrace" "$r/ftrace"
	cp "$TOP"/guest/*.sh "$TOP"/guest/*.awk "$r/guest/"
	build_tool "$src"
	[ -z "$TOOL" ] || guest_program "$r" "$TOOL"
	if [ -n "$obj" ] && ls "$obj"/harness-modules/*/*.ko >/dev/null 2>&1; then
		mkdir -p "$r/lib/modules"
		cp "$obj"/harness-modules/*/*.ko "$r/lib/modules/"
	fi
	# What one command adds to its guest (GUEST_EXTRA, a function of ROOT).
	[ -z "${GUEST_EXTRA:-}" ] || "$GUEST_EXTRA" "$r"
	install -m 755 "$TOP/guest/init" "$r/init"
	(cd "$r" && find . | cpio -o -H newc -R 0:0 --quiet) | gzip -1 >"$out"
	rm -rf "$r"
}

# boot MODE OBJ SRC [kernel args]: runs guest/MODE.sh; the console goes to
# $RUN/MODE.console, what the guest script writes to its output device
# (harness.out=, TARGET_OUT) goes to $RUN/MODE.out. Fails on a missing end
# marker (panic, hang) or a non-zero exit of the guest script.
boot() {
	local mode=$1 obj=$2 src=$3
	shift 3
	local args="console=$TARGET_CONSOLE panic=-1 oops=panic harness.mode=$mode harness.out=$TARGET_OUT $*"
	mkdir -p "$RUN"
	local con=$RUN/$mode.console out=$RUN/$mode.out
	rm -f "$con" "$out"
	initramfs "$src" "$RUN/initramfs.cpio.gz" "$obj"
	qemu_cmd
	say "booting $BASE ($mode) on $TARGET: ${TARGET_QEMU[*]}${QEMU_MORE[*]:+ ${QEMU_MORE[*]}}, timeout ${QEMU_TIMEOUT}s"
	local t0=$SECONDS rc=0 mon=() npid=
	# The stress runs get NMIs as the target says (TARGET_NMI): from the
	# host, through the QEMU monitor, while the guest asks for them
	# (lib/nmi.py), or from the guest's own sysrq-l.
	boot_nmi "$mode" && args="$args harness.nmi=$TARGET_NMI $TARGET_NMI_ARGS"
	if boot_nmi "$mode" && [ "$TARGET_NMI" = monitor ]; then
		rm -f "$RUN/$mode.mon"
		mon=(-monitor "unix:$RUN/$mode.mon,server=on,wait=off")
	fi
	timeout --foreground -k 10 "$QEMU_TIMEOUT" \
		"${QEMU[@]}" "${QEMU_MORE[@]}" "${mon[@]}" -kernel "$obj/$TARGET_IMAGE" \
		-initrd "$RUN/initramfs.cpio.gz" \
		-chardev file,id=con,path="$con" -serial chardev:con \
		-chardev file,id=out,path="$out" "${TARGET_OUT_QEMU[@]}" \
		-append "$args" </dev/null >"$RUN/$mode.qemu" 2>&1 &
	local qpid=$!
	if [ ${#mon[@]} -gt 0 ]; then
		python3 "$TOP/lib/nmi.py" "$RUN/$mode.mon" "$out" >"$RUN/$mode.nmi" 2>&1 &
		npid=$!
	fi
	# Show the guest's own output while it runs.
	touch "$out"
	local show
	show=$(boot_show "$mode")
	tail -n +1 -f --pid=$qpid "$out" 2>/dev/null | grep -a --line-buffered -E "$show" &
	local tpid=$!
	wait $qpid || rc=$?
	[ -z "$npid" ] || { wait "$npid" 2>/dev/null || true; cat "$RUN/$mode.nmi"; }
	sleep 0.5
	kill $tpid 2>/dev/null || true
	wait $tpid 2>/dev/null || true
	say "guest ran $((SECONDS - t0)) s"
	if [ $rc -eq 124 ] || [ $rc -eq 137 ]; then
		tail -n 40 "$con" >&2
		echo "harness: FAIL: the guest hung: killed after ${QEMU_TIMEOUT}s (console tail above, full: ${con#"$TOP"/})" >&2
		return 1
	fi
	if [ $rc -ne 0 ]; then
		cat "$RUN/$mode.qemu" >&2
		echo "harness: FAIL: qemu exited with $rc" >&2
		return 1
	fi
	local end
	end=$(tr -d '\r' <"$out" | grep -a '^=== HARNESS EXIT' | tail -1 || true)
	if [ -z "$end" ]; then
		tail -n 40 "$con" >&2
		echo "harness: FAIL: the guest died before finishing (panic or crash; console tail above, full: ${con#"$TOP"/})" >&2
		return 1
	fi
	[ "$end" = "=== HARNESS EXIT 0" ] || {
		echo "harness: the guest script ended with: $end" >&2
		return 1
	}
}
